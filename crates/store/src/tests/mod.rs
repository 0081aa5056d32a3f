use std::path::Path;

use chrono::{DateTime, TimeZone, Utc};
use serde_json::{Value, json};

use super::*;
use prospect_api::client::Endpoint;
use prospect_api::cost::Cost;
use prospect_api::types::common::{EmailStatus, PhoneStatus};
use prospect_api::types::company::Company;
use prospect_api::types::person::{Email, Person, Phone};
use prospect_common::ContactKind;

mod claims;
mod entities;
mod files;
mod records;
mod team;

/// The store a test runs on: in memory (SQLite), or with `PROSPECT_TEST_PG_URL` set (a
/// PostgreSQL server `.ci/run` starts with `.ci/pg-start`) a fresh database there (issue 17:
/// the same behaviour on both engines).
fn test_store() -> Store {
    let Ok(server) = std::env::var("PROSPECT_TEST_PG_URL") else {
        return Store::open_in_memory().unwrap();
    };
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let db = format!(
        "t{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    );
    let url = super::pg_server::create_database(&server, &db).unwrap();
    Store::open_postgres(&url).unwrap()
}

fn t(secs: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(1_700_000_000 + secs, 0).unwrap()
}

fn company(domain: &str, name: &str) -> Company {
    Company {
        domain: domain.into(),
        name: Some(name.into()),
        ..Default::default()
    }
}

fn person(id: &str, url: Option<&str>) -> Person {
    Person {
        id: id.into(),
        domain: "acme.com".into(),
        name: Some(format!("Person {id}")),
        linkedin_url: url.map(str::to_string),
        ..Default::default()
    }
}

fn buy(
    store: &mut Store,
    endpoint: Endpoint,
    response: Value,
    e: &Entities,
    at: DateTime<Utc>,
) -> PurchaseId {
    store
        .record_purchase(&NewPurchase {
            endpoint,
            request: &json!({"q": 1}),
            response: &response,
            charged: Cost {
                standard: 1.5,
                email: 1.0,
                phone: 0.0,
            },
            target: "sandbox",
            at,
            entities: e,
        })
        .unwrap()
}

/// Puts one of each entity kind, a delivery and a search in `store`.
fn fill(store: &mut Store) -> PurchaseId {
    let mut p1 = person("p1", Some("https://www.linkedin.com/in/Jane-Doe-1a2b/"));
    p1.email = Some(Email {
        address: Some("jane@acme.com".into()),
        status: EmailStatus::Verified,
    });
    p1.phone = Some(Phone {
        numbers: vec!["+4512345678".into()],
        status: PhoneStatus::Verified,
    });
    let e = Entities {
        companies: vec![company("https://WWW.Acme.com/about", "Acme")],
        people: vec![p1, person("p2", None)],
        contacts: vec![],
    };
    let id = buy(
        store,
        Endpoint::SearchPeopleV3,
        json!({"people": [], "total": 2}),
        &e,
        t(0),
    );
    let body = br#"{"emails":[{"personId":"p2","address":"bob@acme.com","status":"guessed"}],"creditsUsed":0}"#;
    assert!(matches!(
        store.record_delivery("reveal_emails", body, t(5)).unwrap(),
        DeliveryOutcome::New(_)
    ));
    let s = store
        .record_search(
            Endpoint::SearchCompaniesV3,
            &json!({"size": 10, "companiesFilters": {"countries": ["dk"]}}),
            "sandbox",
            t(1),
        )
        .unwrap();
    // The page's answer is its purchase's: stored once, read back through the purchase.
    let page = buy(
        store,
        Endpoint::SearchCompaniesV3,
        json!({"companies": [], "total": 42}),
        &Entities::default(),
        t(1),
    );
    store
        .record_page(
            s,
            0,
            &json!({"size": 10}),
            &json!({"companies": [], "total": 42}),
            Some(page),
            t(1),
        )
        .unwrap();
    id
}

/// Checks everything `fill` put.
fn check(store: &Store, id: PurchaseId) {
    // Newest first: the search page's purchase (t1), then the people search (t0).
    let purchases = store.purchases(10).unwrap();
    assert_eq!(purchases.len(), 2);
    let p = &purchases[1];
    assert_eq!(
        (p.id, p.endpoint.as_str(), p.target.as_str()),
        (id, "/v3/search/people", "sandbox")
    );
    assert_eq!(p.endpoint_kind(), Some(Endpoint::SearchPeopleV3));
    assert_eq!(p.request, json!({"q": 1}));
    assert_eq!(p.response, json!({"people": [], "total": 2}));
    assert_eq!(
        p.charged,
        Cost {
            standard: 1.5,
            email: 1.0,
            phone: 0.0
        }
    );
    assert_eq!(p.at, t(0));

    let c = store
        .company("acme.com")
        .unwrap()
        .expect("company by normalized domain");
    assert_eq!(c.value.name.as_deref(), Some("Acme"));
    assert_eq!((c.fetched_at, c.purchase_id), (t(0), Some(id)));
    assert_eq!(c.age(t(60)), chrono::Duration::seconds(60));
    assert_eq!(c.age(t(-60)), chrono::Duration::zero());
    assert!(store.company(" http://www.ACME.com. ").unwrap().is_some());
    assert!(store.company("other.com").unwrap().is_none());

    let by_id = store.person("p1").unwrap().expect("person by id");
    assert_eq!(by_id.value.name.as_deref(), Some("Person p1"));
    let by_handle = store
        .person_by_handle("jane-doe-1a2b")
        .unwrap()
        .expect("by handle");
    assert_eq!(by_handle.value.id, "p1");
    assert!(
        store
            .person_by_handle("linkedin.com/in/JANE-DOE-1A2B")
            .unwrap()
            .is_some()
    );
    let handles = store
        .people_by_handles(&[
            "https://linkedin.com/in/jane-doe-1a2b/".into(),
            "nobody".into(),
        ])
        .unwrap();
    assert_eq!(handles.keys().collect::<Vec<_>>(), ["jane-doe-1a2b"]);
    let ids = store
        .people_by_ids(&["p1".into(), "p2".into(), "p3".into()])
        .unwrap();
    assert_eq!(ids.len(), 2);

    let email = store
        .contact("p1", ContactKind::Email)
        .unwrap()
        .expect("email");
    assert_eq!(
        (email.email.as_deref(), email.status.as_str()),
        (Some("jane@acme.com"), "verified")
    );
    assert_eq!(email.revealed_at, t(0));
    let phone = store
        .contact("p1", ContactKind::Phone)
        .unwrap()
        .expect("phone");
    assert_eq!(
        (phone.phones.clone(), phone.status.as_str()),
        (vec!["+4512345678".to_string()], "verified")
    );
    let by_webhook = store
        .contact("p2", ContactKind::Email)
        .unwrap()
        .expect("from delivery");
    assert_eq!(
        (by_webhook.email.as_deref(), by_webhook.status.as_str()),
        (Some("bob@acme.com"), "guessed")
    );
    assert!(store.contact("p2", ContactKind::Phone).unwrap().is_none());
    let emails = store
        .contacts_for(&["p1".into(), "p2".into(), "p9".into()], ContactKind::Email)
        .unwrap();
    assert_eq!(emails.len(), 2);

    let d = store.deliveries(10).unwrap();
    assert_eq!(d.len(), 1);
    assert_eq!(
        (d[0].event.as_str(), d[0].received_at, d[0].sha256.len()),
        ("reveal_emails", t(5), 64)
    );
    assert_eq!(d[0].body["emails"][0]["personId"], "p2");

    let s = store.searches(10).unwrap();
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].endpoint, "/v3/search/companies");
    assert_eq!(
        s[0].body,
        json!({"companiesFilters": {"countries": ["dk"]}})
    );
    assert_eq!(
        (s[0].pages, s[0].total, s[0].first_run_at),
        (1, Some(42), t(1))
    );
    let pages = store.pages(s[0].id).unwrap();
    assert_eq!(pages.len(), 1);
    assert_eq!(
        (pages[0].page, pages[0].purchase_id, pages[0].fetched_at),
        (0, Some(purchases[0].id), t(1))
    );
    assert_eq!(pages[0].response["total"], 42);
}

/// The (key, record JSON text) rows of `sql`, records decompressed (they are kept as zstd).
fn records(store: &Store, sql: &str) -> Vec<(String, String)> {
    let mut st = store.conn.prepare(sql).unwrap();
    st.query_map(super::db::params![], |r| {
        let key: String = r.get(0)?;
        let text = match r.get::<_, super::entities::Record>(1)? {
            super::entities::Record::Text(t) => t,
            super::entities::Record::Zstd(z) => {
                String::from_utf8(zstd::decode_all(&z[..]).unwrap()).unwrap()
            }
        };
        Ok((key, text))
    })
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

/// Keeps `raw`, an answer of `endpoint` to `request` that decoded whole into `entities`, free,
/// answered at `t(0)`.
fn keep_whole(
    store: &mut Store,
    endpoint: Endpoint,
    request: &Value,
    raw: &[u8],
    entities: &Entities,
) {
    store
        .keep(&Kept {
            endpoint,
            request,
            raw,
            charged: Cost::ZERO,
            target: "sandbox",
            at: t(0),
            entities,
            job: None,
            settles: &[],
            page: None,
            whole: true,
        })
        .unwrap();
}
