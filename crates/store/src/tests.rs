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

#[test]
fn every_entity_kind_round_trips() {
    let mut store = test_store();
    let id = fill(&mut store);
    check(&store, id);
}

#[test]
fn written_closed_reopened_keeps_everything() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir
        .path()
        .join("a")
        .join("b")
        .join(Store::default_file_name(false));
    let id = {
        let mut store = Store::open(&path).unwrap();
        fill(&mut store)
    };
    let store = Store::open(&path).unwrap();
    check(&store, id);
    assert_eq!(store.path(), path);
}

#[test]
fn an_empty_file_migrates_to_the_latest_schema() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new").join("s.sqlite");
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(SCHEMA_VERSION, 13);
    let mode: String = store
        .lite()
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let pragma = |name: &str| -> i64 {
        store
            .lite()
            .query_row(&format!("PRAGMA {name}"), [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(pragma("foreign_keys"), 1);
    assert_eq!(pragma("synchronous"), 1, "NORMAL");
    assert_eq!(pragma("busy_timeout"), 5000);
    assert_eq!(pragma("page_size"), PAGE_SIZE);
    // 64 MiB of 8 KiB pages (a checkpoint per the same bytes whatever the file's page size).
    assert_eq!(
        pragma("wal_autocheckpoint"),
        WAL_CHECKPOINT_BYTES / PAGE_SIZE
    );
    assert_eq!(pragma("wal_autocheckpoint"), 8192);
    assert_eq!(pragma("journal_size_limit"), WAL_LIMIT_BYTES);
    assert_eq!(pragma("temp_store"), 2, "MEMORY");
    assert_eq!(pragma("cache_size"), -CACHE_KIB);
    assert_eq!(pragma("mmap_size"), MMAP_BYTES);
    let mut tables: Vec<String> = store
        .lite()
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    tables.sort();
    assert_eq!(
        tables,
        [
            "claim_sets",
            "companies",
            "company_aliases",
            "contacts",
            "deliveries",
            "jobs",
            "list_members",
            "lists",
            "page_rows",
            "pages",
            "people",
            "person_matches",
            "purchases",
            "searches",
            "segmentations",
            "set_keys",
            "set_runs",
            "settings",
            "suppressed"
        ]
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(path.parent().unwrap()), 0o700);
        assert_eq!(mode(&path), 0o600);
    }
    drop(store);

    // A zero-length file (e.g. made by `tempfile`) is a new store too.
    let f = tempfile::NamedTempFile::new().unwrap();
    let store = Store::open(f.path()).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
}

#[test]
fn a_newer_schema_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("newer.sqlite");
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch(
            "CREATE TABLE future (x); INSERT INTO future VALUES (1); PRAGMA user_version = 999;",
        )
        .unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    let names = |d: &Path| {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        v.sort();
        v
    };
    let files_before = names(dir.path());
    let err = Store::open(&path).unwrap_err();
    match &err {
        StoreError::NewerSchema {
            found,
            supported,
            path: p,
        } => {
            assert_eq!(
                (*found, *supported, p.as_path()),
                (999, SCHEMA_VERSION, path.as_path())
            );
        }
        other => panic!("expected NewerSchema, got {other:?}"),
    }
    let msg = err.to_string();
    assert!(msg.contains(&path.display().to_string()), "{msg}");
    assert!(
        msg.contains("newer prospect (schema 999, this build reads up to 13); not opened"),
        "{msg}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(names(dir.path()), files_before);
}

#[test]
fn a_file_that_is_not_sqlite_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    let text = "this is not a database, just some text long enough to have a header\n".repeat(20);
    std::fs::write(&path, &text).unwrap();
    let err = Store::open(&path).unwrap_err();
    assert!(matches!(err, StoreError::NotADatabase { .. }), "{err:?}");
    assert!(err.to_string().contains(&path.display().to_string()));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn a_duplicate_delivery_is_stored_once() {
    let mut store = test_store();
    let body = br#"{"phones":[{"personId":"p1","numbers":["+1 555"],"status":"verified"},{"personId":"p2","numbers":null,"status":"notFound"}],"creditsUsed":1}"#;
    let first = store.record_delivery("reveal_phones", body, t(0)).unwrap();
    assert!(matches!(first, DeliveryOutcome::New(_)));
    assert_eq!(
        store.record_delivery("reveal_phones", body, t(9)).unwrap(),
        DeliveryOutcome::Duplicate
    );
    let d = store.deliveries(10).unwrap();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].received_at, t(0));
    let c = store.contact("p1", ContactKind::Phone).unwrap().unwrap();
    assert_eq!(
        (c.phones, c.revealed_at),
        (vec!["+1 555".to_string()], t(0))
    );
    assert_eq!(
        store
            .contact("p2", ContactKind::Phone)
            .unwrap()
            .unwrap()
            .status,
        "notFound"
    );
    // The same body under another event is another delivery; a body that is not JSON is kept.
    assert!(matches!(
        store.record_delivery("other", body, t(1)).unwrap(),
        DeliveryOutcome::New(_)
    ));
    assert!(matches!(
        store
            .record_delivery("reveal_emails", b"not json\x1b[2J", t(2))
            .unwrap(),
        DeliveryOutcome::New(_)
    ));
    let d = store.deliveries(10).unwrap();
    assert_eq!(d.len(), 3);
    assert_eq!(d[0].body, json!("not json"));
}

#[test]
fn people_webhooks_bring_contacts() {
    let mut store = test_store();
    let body = br#"{"people":[{"id":"p7","domain":"a.com","email":{"address":"x@a.com","status":"catchAll"}}],"detail":"OK"}"#;
    store
        .record_delivery("people_search_emails", body, t(3))
        .unwrap();
    let c = store.contact("p7", ContactKind::Email).unwrap().unwrap();
    assert_eq!(
        (c.email.as_deref(), c.status.as_str()),
        (Some("x@a.com"), "catchAll")
    );
    let body = br#"{"id":"p8","domain":"a.com","phone":{"numbers":["+33 1"],"status":"verified"}}"#;
    store
        .record_delivery("enrich_person_phone", body, t(3))
        .unwrap();
    assert_eq!(
        store
            .contact("p8", ContactKind::Phone)
            .unwrap()
            .unwrap()
            .phones,
        ["+33 1"]
    );
    assert!(
        store.person("p8").unwrap().is_none(),
        "webhook persons are not stored as people"
    );
}

#[test]
fn escapes_are_stored_sanitized() {
    let mut store = test_store();
    let evil = "Evil\u{1b}[31m Corp\u{1b}]0;pwned\u{7}";
    let e = Entities {
        companies: vec![company("evil.com", evil)],
        people: vec![person(
            "p\u{1b}[2J1",
            Some("linkedin.com/in/e\u{1b}[31mvil"),
        )],
        contacts: vec![Contact {
            person_id: "p1".into(),
            kind: ContactKind::Email,
            email: Some("a\u{1b}[31m@b.c".into()),
            phones: vec![],
            status: "verified\u{9b}2J".into(),
            revealed_at: t(0),
        }],
    };
    buy(
        &mut store,
        Endpoint::LookupCompanies,
        json!({"companies": [{"name": evil, "\u{1b}[1mkey": 1}]}),
        &e,
        t(0),
    );
    let c = store.company("evil.com").unwrap().unwrap();
    assert_eq!(c.value.name.as_deref(), Some("Evil Corp"));
    let p = store.person("p1").unwrap().expect("id sanitized");
    assert_eq!(p.value.id, "p1");
    assert!(store.person_by_handle("evil").unwrap().is_some());
    let contact = store.contact("p1", ContactKind::Email).unwrap().unwrap();
    assert_eq!(
        (contact.email.as_deref(), contact.status.as_str()),
        (Some("a@b.c"), "verified")
    );
    let purchase = &store.purchases(1).unwrap()[0];
    assert_eq!(
        purchase.response,
        json!({"companies": [{"name": "Evil Corp", "key": 1}]})
    );
    let raw: String = records(&store, "SELECT domain, record FROM companies")
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    assert!(!raw.contains('\u{1b}') && !raw.contains("\\u001b"), "{raw}");
}

#[test]
fn newer_replaces_older_and_late_older_changes_nothing() {
    let mut store = test_store();
    let old = buy(
        &mut store,
        Endpoint::EnrichCompany,
        json!({}),
        &Entities::companies(vec![company("a.com", "Old")]),
        t(0),
    );
    let new = buy(
        &mut store,
        Endpoint::EnrichCompany,
        json!({}),
        &Entities::companies(vec![company("www.a.com", "New")]),
        t(10),
    );
    let c = store.company("a.com").unwrap().unwrap();
    assert_eq!(
        (c.value.name.as_deref(), c.purchase_id),
        (Some("New"), Some(new))
    );
    buy(
        &mut store,
        Endpoint::EnrichCompany,
        json!({}),
        &Entities::companies(vec![company("a.com", "Late")]),
        t(5),
    );
    assert_eq!(
        store
            .company("a.com")
            .unwrap()
            .unwrap()
            .value
            .name
            .as_deref(),
        Some("New")
    );
    assert_ne!(old, new);
    let ids: Vec<PurchaseId> = store.purchases(10).unwrap().iter().map(|p| p.id).collect();
    assert_eq!(ids[0], new, "newest first");
    assert_eq!(store.purchases(2).unwrap().len(), 2);

    let contact = |status: &str, at| Contact {
        person_id: "p1".into(),
        kind: ContactKind::Phone,
        email: None,
        phones: vec![],
        status: status.into(),
        revealed_at: at,
    };
    store
        .put_contacts(&[contact("inProgress", t(0))], Some(old))
        .unwrap();
    store
        .put_contacts(&[contact("verified", t(20))], None)
        .unwrap();
    store.put_contacts(&[contact("stale", t(1))], None).unwrap();
    assert_eq!(
        store
            .contact("p1", ContactKind::Phone)
            .unwrap()
            .unwrap()
            .status,
        "verified"
    );
    assert!(matches!(
        store.put_contacts(&[contact("x", t(30))], Some(PurchaseId(999))),
        Err(StoreError::NoSuchPurchase(PurchaseId(999)))
    ));
    assert_eq!(
        store
            .contact("p1", ContactKind::Phone)
            .unwrap()
            .unwrap()
            .status,
        "verified"
    );
}

#[test]
fn searches_are_found_again_and_pages_upserted() {
    let mut store = test_store();
    let body = json!({"a": 1, "b": {"y": 2, "x": 1}});
    let s1 = store
        .record_search(Endpoint::SearchCompaniesV3, &body, "sandbox", t(0))
        .unwrap();
    let s2 = store
        .record_search(
            Endpoint::SearchCompaniesV3,
            &json!({"b": {"x": 1, "y": 2}, "a": 1, "from": 20}),
            "sandbox",
            t(9),
        )
        .unwrap();
    assert_eq!(s1, s2);
    let other = store
        .record_search(
            Endpoint::SearchCompaniesV3,
            &body,
            "https://api.example",
            t(1),
        )
        .unwrap();
    assert_ne!(other, s1);
    // Pages are chained by cursor: the first (no cursor), then the one asked with its
    // `searchAfter`; the same cursor and size stored again replaces the older.
    let page0 = |total: i64| json!({"total": total, "searchAfter": "c1", "companies": [{}]});
    store
        .record_page(s1, 0, &json!({"size": 1}), &page0(5), None, t(0))
        .unwrap();
    store
        .record_page(
            s1,
            1,
            &json!({"size": 1, "searchAfter": "c1"}),
            &json!({"total": 7.0, "companies": [{}]}),
            None,
            t(2),
        )
        .unwrap();
    store
        .record_page(s1, 0, &json!({"size": 1}), &page0(6), None, t(1))
        .unwrap();
    // A page asked with a cursor no stored page gives is not part of the chain.
    store
        .record_page(
            s1,
            5,
            &json!({"size": 1, "searchAfter": "zz"}),
            &page0(1),
            None,
            t(1),
        )
        .unwrap();
    let list = store.searches(10).unwrap();
    assert_eq!(list.iter().map(|s| s.id).collect::<Vec<_>>(), [s1, other]);
    assert_eq!((list[0].first_run_at, list[0].last_run_at), (t(0), t(9)));
    assert_eq!((list[0].pages, list[0].total), (3, Some(7)));
    assert_eq!((list[1].pages, list[1].total), (0, None));
    let pages = store.pages(s1).unwrap();
    assert_eq!(pages.iter().map(|p| p.page).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(pages[0].response, page0(6));
    assert_eq!(
        store.pages_since(s1, Some(t(2))).unwrap().len(),
        0,
        "page 0 is older"
    );
    assert!(matches!(
        store.record_page(SearchId(42), 0, &json!({}), &json!({}), None, t(0)),
        Err(StoreError::NoSuchSearch(SearchId(42)))
    ));
    assert_eq!(store.searches(1).unwrap().len(), 1);
}

#[test]
fn bad_stored_rows_are_skipped() {
    let mut store = test_store();
    buy(
        &mut store,
        Endpoint::EnrichCompany,
        json!({}),
        &Entities::companies(vec![company("a.com", "A"), company("b.com", "B")]),
        t(0),
    );
    buy(
        &mut store,
        Endpoint::EnrichCompany,
        json!({"n": 2}),
        &Entities::none(),
        t(1),
    );
    store
        .conn
        .execute(
            "UPDATE companies SET record = ?1 WHERE domain = 'a.com'",
            super::db::params![b"{broken".to_vec()],
        )
        .unwrap();
    store
        .conn
        .execute(
            "UPDATE purchases SET raw = ?1 WHERE id = 1",
            super::db::params![vec![0u8]],
        )
        .unwrap();
    assert!(store.company("a.com").unwrap().is_none());
    let both = store
        .companies_by_domains(&["a.com".into(), "b.com".into()])
        .unwrap();
    assert_eq!(both.keys().collect::<Vec<_>>(), ["b.com"]);
    let list = store.purchases(10).unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].response, json!({"n": 2}));
}

#[test]
fn entities_are_read_from_typed_answers() {
    use crate::Bought;
    use prospect_api::types::enrich::EnrichPersonResponse;
    use prospect_api::types::lookup::LookupCompaniesResponse;
    use prospect_api::types::person::SearchPeopleV3Response;

    // A lookup entry with a record (nested or flat) is a company; one without is none.
    let lookup: LookupCompaniesResponse = serde_json::from_value(json!({"companies": [
        {"domain": "a.com", "company": {"domain": "a.com", "name": "A"}},
        {"domain": "b.com", "company": null},
        {"domain": "c.com", "name": "C"}
    ], "totalRequested": 3, "totalFound": 2}))
    .unwrap();
    let e = lookup.entities(t(0));
    assert_eq!(
        e.companies
            .iter()
            .map(|c| c.domain.as_str())
            .collect::<Vec<_>>(),
        ["a.com", "c.com"]
    );
    let people: SearchPeopleV3Response = serde_json::from_value(
        json!({"people": [{"id": "x", "domain": "a.com", "relevance": "A"}], "total": 1}),
    )
    .unwrap();
    assert_eq!(people.entities(t(0)).people[0].id, "x");
    let enrich: EnrichPersonResponse = serde_json::from_value(json!({"id": "y", "domain": "a.com", "email": {"address": "y@a.com", "status": "verified"}})).unwrap();
    let e = prospect_api::client::Enriched::Found(enrich).entities(t(0));
    assert_eq!(contacts_of(&e.people[0], t(0)).len(), 1);
    assert_eq!(e.contacts.len(), 1, "the contact it carries");

    // The typed answer is stored as it is, with its records.
    let mut store = test_store();
    let e = lookup.entities(t(0));
    let id = store
        .record_purchase(&NewPurchase {
            endpoint: Endpoint::LookupCompanies,
            request: &json!({"domains": ["a.com", "b.com", "c.com"]}),
            response: &lookup,
            charged: Cost::ZERO,
            target: "sandbox",
            at: t(0),
            entities: &e,
        })
        .unwrap();
    let found = store
        .companies_by_domains(&["A.com".into(), "b.com".into(), "https://c.com/".into()])
        .unwrap();
    let mut keys: Vec<_> = found.keys().cloned().collect();
    keys.sort();
    assert_eq!(keys, ["a.com", "c.com"]);
    assert_eq!(found["a.com"].purchase_id, Some(id));
    let p = &store.purchases(1).unwrap()[0];
    assert_eq!(p.response, serde_json::to_value(&lookup).unwrap());
}

#[test]
fn a_version_1_file_migrates_keeping_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1.sqlite");
    {
        // A file as version 1 wrote it: its schema, and one row of each entity table.
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(schema::MIGRATIONS[0]).unwrap();
        conn.execute_batch(
            r#"PRAGMA user_version = 1;
            INSERT INTO purchases VALUES (1, '/v2/lookup/companies', '{}', '{}', 1, 0, 0, 'sandbox', 1700000000000);
            INSERT INTO companies VALUES ('acme.com', '{"domain":"acme.com","name":"Acme"}', 1700000000000, 1);
            INSERT INTO people VALUES ('p1', 'jane', '{"id":"p1","domain":"acme.com"}', 1700000000000, 1);
            INSERT INTO contacts VALUES ('p1', 'email', 'j@acme.com', '[]', 'verified', 1700000000000, 1);"#,
        )
        .unwrap();
        let fks: i64 = conn
            .query_row(
                "SELECT count(*) FROM pragma_foreign_key_list('companies')",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(fks, 1, "version 1 has the foreign key");
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    let c = store.company("ACME.com").unwrap().unwrap();
    assert_eq!(c.value.name.as_deref(), Some("Acme"));
    assert_eq!(c.purchase_id, Some(PurchaseId(1)));
    assert_eq!(store.person("p1").unwrap().unwrap().fetched_at, t(0));
    assert_eq!(
        store.person_by_handle("jane").unwrap().unwrap().value.id,
        "p1"
    );
    let mail = store.contact("p1", ContactKind::Email).unwrap().unwrap();
    assert_eq!(mail.email.as_deref(), Some("j@acme.com"));
    assert_eq!(store.purchases(10).unwrap().len(), 1);
    for table in ["companies", "people", "contacts"] {
        let fks: i64 = store
            .lite()
            .query_row(
                &format!("SELECT count(*) FROM pragma_foreign_key_list('{table}')"),
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(
            fks, 0,
            "{table}: purchase_id is a plain column in version 2"
        );
    }
    let ok: String = store
        .lite()
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    drop(store);
    // Opening again runs nothing more.
    assert_eq!(
        Store::open(&path).unwrap().schema_version().unwrap(),
        SCHEMA_VERSION
    );
}

#[test]
fn default_file_names() {
    assert_eq!(Store::default_file_name(true), "sandbox.sqlite");
    assert_eq!(Store::default_file_name(false), "prospect.sqlite");
}

#[test]
fn a_shared_handle_finds_the_newest_person() {
    let mut store = test_store();
    let url = Some("https://linkedin.com/in/same");
    buy(
        &mut store,
        Endpoint::LookupPeople,
        json!({}),
        &Entities::people(vec![person("old", url)]),
        t(0),
    );
    buy(
        &mut store,
        Endpoint::LookupPeople,
        json!({}),
        &Entities::people(vec![person("new", url)]),
        t(9),
    );
    buy(
        &mut store,
        Endpoint::LookupPeople,
        json!({}),
        &Entities::people(vec![person("mid", url)]),
        t(5),
    );
    assert_eq!(
        store.person_by_handle("same").unwrap().unwrap().value.id,
        "new"
    );
    let m = store
        .people_by_handles(&["same".into(), "SAME".into(), "".into()])
        .unwrap();
    assert_eq!(m.len(), 1);
    assert_eq!(m["same"].value.id, "new");
    assert!(store.people_by_handles(&[]).unwrap().is_empty());
    assert!(store.companies_by_domains(&["".into()]).unwrap().is_empty());
}

#[test]
fn a_large_answer_is_stored_whole() {
    let mut store = test_store();
    // About 600 KB of records: read back on two threads too.
    let companies: Vec<Company> = (0..150)
        .map(|i| Company {
            description: Some(format!("{i} ").repeat(1500)),
            ..company(&format!("c{i}.com"), &format!("C\u{1b}[1m{i}"))
        })
        .collect();
    let response = json!({"companies": companies, "totalFound": 150});
    let e = Entities::companies(companies);
    assert!(e.len() >= 100, "takes the two-thread path");
    buy(&mut store, Endpoint::LookupCompanies, response, &e, t(0));
    let domains: Vec<String> = (0..150).map(|i| format!("C{i}.com")).collect();
    let found = store.companies_by_domains(&domains).unwrap();
    assert_eq!(found.len(), 150);
    assert_eq!(found["c7.com"].value.name.as_deref(), Some("C7"));
    assert!(
        found["c149.com"]
            .value
            .description
            .as_deref()
            .unwrap()
            .starts_with("149 149 ")
    );
    let p = &store.purchases(1).unwrap()[0];
    assert_eq!(p.response["companies"][149]["name"], "C149");
    assert_eq!(p.response["totalFound"], 150);
}

#[test]
fn getters_use_the_indexes() {
    use super::entities::*;
    let store = Store::open_in_memory().unwrap();
    let keys: rusqlite::vtab::array::Array = std::rc::Rc::new(vec![]);
    for (sql, table) in [
        (COMPANY_BY_DOMAIN, "companies"),
        (PERSON_BY_ID, "people"),
        (PERSON_BY_HANDLE, "people"),
        (CONTACT, "contacts"),
        (COMPANIES_IN, "companies"),
        (PEOPLE_IN, "people"),
        (PEOPLE_BY_HANDLE_IN, "people"),
        (CONTACTS_IN, "contacts"),
    ] {
        let mut st = store
            .lite()
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap();
        let n = st.parameter_count();
        let params: Vec<&dyn rusqlite::ToSql> = if sql.contains("rarray") {
            [&keys as &dyn rusqlite::ToSql, &"email"][..n].to_vec()
        } else {
            [&"k" as &dyn rusqlite::ToSql, &"email"][..n].to_vec()
        };
        let plan: Vec<String> = st
            .query_map(params.as_slice(), |r| r.get::<_, String>(3))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let plan = plan.join("; ");
        assert!(!plan.contains(&format!("SCAN {table}")), "{sql}: {plan}");
        assert!(plan.contains(&format!("SEARCH {table}")), "{sql}: {plan}");
    }
}

#[test]
fn the_checkpoint_thread_copies_the_log_into_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sqlite");
    let mut store = Store::open(&path).unwrap();
    // Only the checkpoint thread may copy the log into the file in this test.
    store
        .lite()
        .pragma_update(None, "wal_autocheckpoint", 0)
        .unwrap();
    // Text that does not compress (answers are kept zstd-compressed).
    let big: String = {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        (0..4 * 1024 * 1024)
            .map(|_| char::from(rng.random_range(b'a'..=b'z')))
            .collect()
    };
    let id = buy(
        &mut store,
        Endpoint::LookupCompanies,
        json!({ "text": big }),
        &Entities::none(),
        t(0),
    );
    let file_len = || std::fs::metadata(&path).unwrap().len();
    assert!(
        file_len() < 1024 * 1024,
        "the answer is still only in the log"
    );
    // Asked to run, then ended and waited for: the writer's connection stays open, so any
    // copy into the file is the thread's.
    let mut c = store
        .checkpointer
        .take()
        .expect("a file store has a checkpointer");
    c.wrote(checkpoint::NUDGE_BYTES);
    drop(c);
    assert!(file_len() > 2 * 1024 * 1024, "copied into the file");
    assert_eq!(store.purchases(1).unwrap()[0].id, id);
    drop(store);
    let store = Store::open(&path).unwrap();
    assert_eq!(
        store.purchases(1).unwrap()[0].response["text"]
            .as_str()
            .map(str::len),
        Some(big.len())
    );
}

#[test]
fn a_lookup_answer_is_stored_as_written_whole() {
    use crate::Bought;
    use prospect_api::types::lookup::{LookupCompaniesResponse, LookupCompanyEntry};
    let dirty = |i: usize| Company {
        domain: format!("c{i}.com"),
        name: Some(format!("C\u{1b}[1m{i} \"q\" \\ é\u{202e}")),
        keywords: vec!["a\nb".into(), String::new()],
        year_founded: Some(1990 + i as i64),
        ..Default::default()
    };
    for n in [3, 150] {
        for by_domain in [true, false] {
            let companies = (0..n)
                .map(|i| match (by_domain, i % 3) {
                    (true, 0) => LookupCompanyEntry::ByDomain {
                        domain: format!("C{i}.com\u{7}"),
                        company: None,
                    },
                    (true, _) => LookupCompanyEntry::ByDomain {
                        domain: format!("c{i}.com"),
                        company: Some(Box::new(dirty(i))),
                    },
                    (false, _) => LookupCompanyEntry::Matched(Box::new(dirty(i))),
                })
                .collect();
            let answer = LookupCompaniesResponse {
                companies,
                total_requested: n as i64,
                total_found: 2,
                redirect_map: by_domain
                    .then(|| [("old\u{1b}.com".to_string(), "c1.com".to_string())].into()),
                credits_used: 0.15,
            };
            let mut store = test_store();
            let e = answer.entities(t(0));
            store
                .record_purchase(&NewPurchase {
                    endpoint: Endpoint::LookupCompanies,
                    request: &json!({}),
                    response: &answer,
                    charged: Cost::ZERO,
                    target: "sandbox",
                    at: t(0),
                    entities: &e,
                })
                .unwrap();
            let kept = store.purchases(1).unwrap().remove(0).response;
            let mut want = serde_json::to_value(&answer).unwrap();
            prospect_common::sanitize::sanitize_value(&mut want);
            assert_eq!(kept, want, "{n} {by_domain}");
            let rows = records(&store, "SELECT domain, record FROM companies");
            assert_eq!(rows.len(), e.companies.len(), "{n} {by_domain}");
            for (domain, record) in rows {
                let c = e.companies.iter().find(|c| c.domain == domain).unwrap();
                assert_eq!(record, clean_json(c).unwrap());
            }
        }
    }
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

#[test]
fn the_spend_log_lists_purchases_and_reveal_deliveries_with_their_costs() {
    let mut store = test_store();
    buy(
        &mut store,
        Endpoint::LookupCompanies,
        json!({"companies": []}),
        &Entities::none(),
        t(0),
    );
    // creditsUsed of a reveal body is what the delivery cost, in its pool.
    let body = br#"{"emails":[{"personId":"p1","address":"a@b.co","status":"verified"},{"personId":"p2","address":"c@b.co","status":"verified"}],"creditsUsed":2}"#;
    store.record_delivery("reveal_emails", body, t(5)).unwrap();
    // Without creditsUsed: one phone credit per verified phone.
    let body = br#"{"phones":[{"personId":"p1","numbers":["+1 555"],"status":"verified"},{"personId":"p2","numbers":null,"status":"notFound"}]}"#;
    store.record_delivery("reveal_phones", body, t(9)).unwrap();
    let log = store.spend_log(10, None).unwrap();
    let seen: Vec<(&str, &str, Cost)> = log
        .iter()
        .map(|s| (s.kind.as_str(), s.what.as_str(), s.credits))
        .collect();
    assert_eq!(
        seen,
        vec![
            (
                "delivery",
                "reveal_phones",
                Cost {
                    phone: 1.0,
                    ..Cost::ZERO
                }
            ),
            (
                "delivery",
                "reveal_emails",
                Cost {
                    email: 2.0,
                    ..Cost::ZERO
                }
            ),
            (
                "purchase",
                "/v2/lookup/companies",
                Cost {
                    standard: 1.5,
                    email: 1.0,
                    phone: 0.0
                }
            ),
        ]
    );
    assert_eq!(store.spend_log(1, None).unwrap().len(), 1);
    let spent = store.spent_since(t(0)).unwrap();
    assert_eq!((spent.email, spent.phone), (3.0, 1.0));
}

/// Each purchase records who bought it (issue 17); the spend log of one member lists only
/// theirs.
#[test]
fn purchases_record_their_buyer_and_the_log_filters_by_it() {
    let mut store = test_store();
    let lookup = |store: &mut Store, at| {
        buy(
            store,
            Endpoint::LookupCompanies,
            json!({"companies": []}),
            &Entities::none(),
            at,
        )
    };
    lookup(&mut store, t(0));
    store.set_buyer("ann");
    lookup(&mut store, t(1));
    store.set_buyer(" bob\u{1b}[31m ");
    lookup(&mut store, t(2));
    let body = br#"{"emails":[],"creditsUsed":0}"#;
    store.record_delivery("reveal_emails", body, t(3)).unwrap();
    let all: Vec<String> = store
        .spend_log(10, None)
        .unwrap()
        .into_iter()
        .map(|s| s.buyer)
        .collect();
    assert_eq!(all, ["", "bob", "ann", ""]);
    let ann = store.spend_log(10, Some("ann")).unwrap();
    assert_eq!(ann.len(), 1);
    assert_eq!(ann[0].at, t(1));
    assert!(store.spend_log(10, Some("carol")).unwrap().is_empty());
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

#[test]
fn a_record_is_stored_as_received_when_clean_and_sanitized_when_not() {
    let mut store = test_store();
    let raw = br#"{"companies":[{"domain":"a.com","company":{"domain":"a.com","name":"A","extra":1}},{"domain":"b.com","company":{"domain":"b.com","name":"B\u001b[2Jx"}},{"domain":"c.com","company":null}],"totalRequested":3,"totalFound":2,"creditsUsed":0.1}"#;
    let answer: prospect_api::types::LookupCompaniesResponse = serde_json::from_slice(raw).unwrap();
    let companies: Vec<Company> = answer
        .companies
        .iter()
        .filter_map(|c| c.company().cloned())
        .collect();
    let entities = Entities::companies(companies);
    keep_whole(
        &mut store,
        Endpoint::LookupCompanies,
        &json!({"domains": ["a.com", "b.com", "c.com"]}),
        raw,
        &entities,
    );
    let a = store.company("a.com").unwrap().unwrap();
    assert_eq!(a.value.name.as_deref(), Some("A"));
    let b = store.company("b.com").unwrap().unwrap();
    assert_eq!(
        b.value.name.as_deref(),
        Some("Bx"),
        "the escape sequence is stripped"
    );
    assert!(store.company("c.com").unwrap().is_none());
    let p = store.purchases(1).unwrap();
    assert_eq!(
        store.purchase_raw(p[0].id).unwrap().unwrap(),
        raw.to_vec(),
        "the raw answer byte for byte, rebuilt from its frames"
    );
}

#[test]
fn a_search_pages_raw_answer_is_kept_as_its_records_frames_and_reads_back_whole() {
    use crate::Bought;
    let mut store = test_store();
    let raw = b" {\"searchAfter\": \"c1\",\n \"companies\": [\n  {\"company\": {\"domain\": \"a.com\", \"name\": \"A\"}, \"score\": 0.5},\n  {\"company\":{\"domain\":\"b.com\",\"name\":\"B\"}}],\n \"total\": 2, \"detail\": \"OK\"}\n";
    let answer: prospect_api::types::SearchCompaniesV3Response =
        serde_json::from_slice(raw).unwrap();
    let entities = answer.entities(t(0));
    assert_eq!(entities.companies.len(), 2);
    keep_whole(
        &mut store,
        Endpoint::SearchCompaniesV3,
        &json!({"size": 2}),
        raw,
        &entities,
    );
    let p = store.purchases(1).unwrap();
    assert_eq!(store.purchase_raw(p[0].id).unwrap().unwrap(), raw.to_vec());
    assert_eq!(
        store
            .company("b.com")
            .unwrap()
            .unwrap()
            .value
            .name
            .as_deref(),
        Some("B")
    );
}

#[test]
fn fetched_times_count_what_is_stored_without_reading_records() {
    let mut store = test_store();
    fill(&mut store);
    let keys = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        store
            .fetched_times(
                EntityKey::Domain,
                &keys(&["acme.com", "WWW.ACME.COM", "nope.io"])
            )
            .unwrap(),
        vec![t(0), t(0)],
        "one time per stored key as asked"
    );
    assert_eq!(
        store
            .fetched_times(EntityKey::PersonId, &keys(&["p1", "p9"]))
            .unwrap(),
        vec![t(0)]
    );
    assert_eq!(
        store
            .fetched_times(
                EntityKey::Handle,
                &keys(&["https://linkedin.com/in/jane-doe-1a2b", "nobody"])
            )
            .unwrap(),
        vec![t(0)]
    );
    assert!(
        store
            .fetched_times(EntityKey::Domain, &[])
            .unwrap()
            .is_empty()
    );
}

/// A plan's count of owned domains reads the index of fetch times, never a company's row with
/// its record (schema 12): every step into `companies` of the two queries is covered by an index.
#[test]
fn fetched_times_by_domain_read_an_index_not_the_records() {
    // SQLite's plan (`test_store` is PostgreSQL when the suite runs on a team store).
    let store = Store::open_in_memory().unwrap();
    for sql in [
        crate::entities::FETCHED_BY_DOMAIN,
        crate::entities::FETCHED_BY_DOMAIN_OR_ALIAS,
    ] {
        let mut st = store
            .lite()
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap();
        let steps: Vec<String> = st
            .query_map(
                [std::rc::Rc::new(Vec::<rusqlite::types::Value>::new())],
                |r| r.get::<_, String>(3),
            )
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let into_companies: Vec<&String> = steps
            .iter()
            .filter(|d| d.starts_with("SEARCH c ") || d.starts_with("SEARCH companies "))
            .collect();
        assert!(!into_companies.is_empty(), "{steps:?}");
        for step in into_companies {
            assert!(step.contains("USING COVERING INDEX"), "{step} in {steps:?}");
        }
        assert!(
            steps.iter().any(|d| d.contains("companies_fetched")),
            "{steps:?}"
        );
    }
}

/// A raw answer unpacks whole from one frame, from several (a company's record framed apart,
/// see `pack_answer`) and from frames that do not say their size; corrupt frames are an error.
#[test]
fn raw_answers_unpack_from_every_shape_of_frames() {
    use crate::frames::unpack_raw;
    let text = br#"{"companies":[{"domain":"acme.com"},{"domain":"globex.io"}]}"#;
    let one = zstd::bulk::compress(text, 3).unwrap();
    assert_eq!(unpack_raw(&one).unwrap(), text);
    let mut many = zstd::bulk::compress(&text[..20], 3).unwrap();
    many.extend(zstd::bulk::compress(&text[20..], 3).unwrap());
    assert_eq!(unpack_raw(&many).unwrap(), text);
    let mut e = zstd::stream::write::Encoder::new(Vec::new(), 1).unwrap();
    std::io::Write::write_all(&mut e, text).unwrap();
    let unsized_frame = e.finish().unwrap();
    assert_eq!(
        zstd::zstd_safe::get_frame_content_size(&unsized_frame).ok(),
        Some(None)
    );
    assert_eq!(unpack_raw(&unsized_frame).unwrap(), text);
    assert!(unpack_raw(&one[..one.len() - 3]).is_err());
    assert!(unpack_raw(b"not zstd at all").is_err());
}

/// Twelve connections opening one new file at once (as eight CLIs on a fresh data dir do)
/// all open it, with its schema and in WAL mode: a moment of the first one's set-up that
/// answers "database is locked" without waiting is tried again, not reported (issue 15).
#[test]
fn many_opening_one_new_file_at_once_all_open_it() {
    for _ in 0..10 {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data").join("prospect.sqlite");
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(12));
        let opened: Vec<_> = (0..12)
            .map(|_| {
                let (path, barrier) = (path.clone(), barrier.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    Store::open(&path).map(|s| s.schema_version().unwrap())
                })
            })
            .collect();
        for t in opened {
            assert_eq!(t.join().unwrap().expect("opens"), super::SCHEMA_VERSION);
        }
        let s = Store::open(&path).unwrap();
        let mode: String = s
            .lite()
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
    }
}

/// Stored contacts are joined into person records: a stored contact replaces what the record
/// carries, a pending one does not replace a final one, people without one are untouched.
#[test]
fn stored_contacts_join_into_people() {
    let mut store = test_store();
    let contact = |id: &str, kind: ContactKind, status: &str| Contact {
        person_id: id.into(),
        kind,
        email: (kind == ContactKind::Email).then(|| format!("{id}@acme.com")),
        phones: if kind == ContactKind::Phone {
            vec!["+4512345678".into()]
        } else {
            Vec::new()
        },
        status: status.into(),
        revealed_at: t(5),
    };
    store
        .put_contacts(
            &[
                contact("p1", ContactKind::Email, "verified"),
                contact("p1", ContactKind::Phone, "verified"),
                contact("p2", ContactKind::Email, "inProgress"),
                contact("p3", ContactKind::Email, "inProgress"),
            ],
            None,
        )
        .unwrap();
    let person = |id: &str| Person {
        id: id.into(),
        ..Person::default()
    };
    let mut p2 = person("p2");
    p2.email = Some(Email {
        address: Some("old@acme.com".into()),
        status: EmailStatus::Verified,
    });
    let mut people = [person("p1"), p2, person("p3"), person("p4")];
    let joined = store
        .join_contacts(&mut people.iter_mut().collect::<Vec<_>>())
        .unwrap();
    assert_eq!(joined, 2, "p1 and p3");
    let e = people[0].email.clone().unwrap();
    assert_eq!(
        (e.address.as_deref(), e.status),
        (Some("p1@acme.com"), EmailStatus::Verified)
    );
    let ph = people[0].phone.clone().unwrap();
    assert_eq!(
        (ph.numbers, ph.status),
        (vec!["+4512345678".to_string()], PhoneStatus::Verified)
    );
    assert_eq!(
        people[1].email.as_ref().unwrap().address.as_deref(),
        Some("old@acme.com"),
        "a pending reveal does not hide the address the record has"
    );
    assert_eq!(
        prospect_api::types::WireEnum::as_str(&people[2].email.as_ref().unwrap().status),
        "inProgress"
    );
    assert!(people[3].email.is_none() && people[3].phone.is_none());
}

/// A stored record's frame reads back whether or not its header declares its size; a frame
/// that is not zstd is an error, not a panic.
#[test]
fn record_frames_unpack_with_and_without_their_size() {
    let text = br#"{"domain":"acme.com","name":"Acme"}"#.repeat(50);
    let sized = zstd::bulk::compress(&text, 1).unwrap();
    assert!(
        zstd::zstd_safe::get_frame_content_size(&sized)
            .unwrap()
            .is_some()
    );
    assert_eq!(super::entities::unpack(&sized).unwrap(), text);
    let streamed = {
        let mut e = zstd::stream::write::Encoder::new(Vec::new(), 1).unwrap();
        std::io::Write::write_all(&mut e, &text).unwrap();
        e.finish().unwrap()
    };
    assert!(
        zstd::zstd_safe::get_frame_content_size(&streamed)
            .unwrap()
            .is_none()
    );
    assert_eq!(super::entities::unpack(&streamed).unwrap(), text);
    assert!(super::entities::unpack(b"not a zstd frame").is_err());
}

/// Issue 16, identity: a company's `redirectedFrom` domains and a lookup's `redirectMap` are
/// kept as aliases, so the company answers for its old domain (owned, not bought again),
/// unless the old domain has a company of its own.
#[test]
fn redirect_aliases_answer_for_the_company_they_redirect_to() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.sqlite")).unwrap();
    let mut moved = company("new.com", "Moved");
    moved.redirected_from = vec!["https://www.Old.com/".into()];
    let e = Entities {
        companies: vec![moved, company("other.com", "Other")],
        people: vec![],
        contacts: vec![],
    };
    buy(&mut store, Endpoint::LookupCompanies, json!({}), &e, t(0));
    let got = store
        .companies_by_domains(&["old.com".into(), "new.com".into(), "gone.com".into()])
        .unwrap();
    assert_eq!(got["old.com"].value.name.as_deref(), Some("Moved"));
    assert_eq!(got["new.com"].value.name.as_deref(), Some("Moved"));
    assert!(!got.contains_key("gone.com"));
    assert_eq!(
        store.company("www.old.com").unwrap().unwrap().value.domain,
        "new.com"
    );
    assert_eq!(
        store
            .fetched_times(EntityKey::Domain, &["old.com".into(), "gone.com".into()])
            .unwrap()
            .len(),
        1,
        "the alias is owned"
    );
    // A redirectMap alias, then the alias's own company: that one answers for itself.
    store
        .put_company_aliases(&[("legacy.io".into(), "other.com".into())])
        .unwrap();
    assert_eq!(
        store
            .company("legacy.io")
            .unwrap()
            .unwrap()
            .value
            .name
            .as_deref(),
        Some("Other")
    );
    let own = Entities {
        companies: vec![company("legacy.io", "Legacy")],
        people: vec![],
        contacts: vec![],
    };
    buy(&mut store, Endpoint::LookupCompanies, json!({}), &own, t(5));
    assert_eq!(
        store.companies_by_domains(&["legacy.io".into()]).unwrap()["legacy.io"]
            .value
            .name
            .as_deref(),
        Some("Legacy")
    );
    assert_eq!(
        store
            .company("legacy.io")
            .unwrap()
            .unwrap()
            .value
            .name
            .as_deref(),
        Some("Legacy")
    );
}

/// Issue 16, identity: the Public Suffix List decides what a domain key is and what a
/// suppressed domain covers.
#[test]
fn the_public_suffix_list_rules_domain_keys_and_suppression() {
    assert_eq!(
        prospect_common::keys::domain_key("co.uk"),
        None,
        "a public suffix is no company"
    );
    assert_eq!(
        prospect_common::keys::domain_key("https://www.acme.co.uk/x").as_deref(),
        Some("acme.co.uk")
    );
    assert_eq!(
        prospect_common::keys::registrable_domain("shop.acme.com").as_deref(),
        Some("acme.com")
    );
    assert_eq!(
        prospect_common::keys::registrable_domain("https://healthcare.siemens.com/").as_deref(),
        Some("siemens.com")
    );
    assert_eq!(
        prospect_common::keys::registrable_domain("acme.co.uk"),
        None
    );
    assert_eq!(prospect_common::keys::registrable_domain("acme.com"), None);
    assert_eq!(
        prospect_common::keys::registrable_domain("foo.github.io"),
        None
    );
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.sqlite")).unwrap();
    store
        .suppress(
            "customers",
            "t",
            &[(SuppressKind::Domain, "acme.com".into())],
        )
        .unwrap();
    let hit = store
        .suppressed_among(
            SuppressKind::Domain,
            &[
                "shop.acme.com".into(),
                "acme.co.uk".into(),
                "ACME.com".into(),
            ],
        )
        .unwrap();
    assert_eq!(
        hit.get("shop.acme.com").map(String::as_str),
        Some("customers")
    );
    assert_eq!(hit.get("ACME.com").map(String::as_str), Some("customers"));
    assert!(!hit.contains_key("acme.co.uk"));
}

/// A claim of another machine's process (a team store, issue 17) holds until its lease ends:
/// its process cannot be seen from here. A dead process of this machine loses its claims at
/// once.
#[test]
fn another_machines_claim_holds_until_its_lease_ends() {
    let mut store = test_store();
    let now = Utc::now();
    let lease = now + chrono::Duration::seconds(60);
    let key = |k: &str| vec![k.to_string()];
    // A process id no machine runs.
    let elsewhere = "999999999-0000abcd@another-host.invalid";
    let here = format!("999999999-0000abcd@{}", super::this_host());
    assert_eq!(
        store
            .claim(&key("company:a.com"), elsewhere, None, lease, now)
            .unwrap(),
        [Claim::Mine]
    );
    assert_eq!(
        store
            .claim(&key("company:a.com"), "me", None, lease, now)
            .unwrap(),
        [Claim::Held],
        "another machine's live lease"
    );
    assert_eq!(
        store
            .claim(&key("company:b.com"), &here, None, lease, now)
            .unwrap(),
        [Claim::Mine]
    );
    assert_eq!(
        store
            .claim(&key("company:b.com"), "me", None, lease, now)
            .unwrap(),
        [Claim::Mine],
        "this machine's dead process"
    );
    let expired = now - chrono::Duration::seconds(1);
    store
        .claim(&key("company:c.com"), elsewhere, None, expired, now)
        .unwrap();
    assert_eq!(
        store
            .claim(&key("company:c.com"), "me", None, lease, now)
            .unwrap(),
        [Claim::Mine],
        "an expired lease"
    );
}

/// A claim reads only the sets that can stand in its way: a buyer's own sets under a lease
/// neither hold its keys nor are removed when it claims again (they stay in flight, for its
/// keep or release), and its own set whose lease ran out is removed as stale.
#[test]
fn a_buyers_own_live_sets_stay_and_its_expired_ones_go_when_it_claims_again() {
    let mut store = test_store();
    let now = Utc::now();
    let lease = now + chrono::Duration::seconds(60);
    let me = format!("{}-0000abcd@{}", std::process::id(), super::this_host());
    let keys = |ks: &[&str]| ks.iter().map(|k| k.to_string()).collect::<Vec<_>>();
    for n in 0..50 {
        let got = store
            .claim(&keys(&[&format!("company:{n}.com")]), &me, None, lease, now)
            .unwrap();
        assert_eq!(got, [Claim::Mine]);
    }
    assert_eq!(
        store.claim_set_count().unwrap(),
        50,
        "each claim is its own set"
    );
    // Its own key again: not held against it; the set it is in stays.
    assert_eq!(
        store
            .claim(&keys(&["company:7.com"]), &me, None, lease, now)
            .unwrap(),
        [Claim::Mine]
    );
    assert_eq!(store.claim_set_count().unwrap(), 51);
    assert_eq!(
        store.claims_in_flight().unwrap().len(),
        50,
        "50 keys, one twice"
    );
    // An own set whose lease ran out goes at the next claim.
    let expired = now - chrono::Duration::seconds(1);
    store
        .claim(&keys(&["company:old.com"]), &me, None, expired, now)
        .unwrap();
    assert_eq!(store.claim_set_count().unwrap(), 52);
    store
        .claim(&keys(&["company:new.com"]), &me, None, lease, now)
        .unwrap();
    assert_eq!(
        store.claim_set_count().unwrap(),
        52,
        "the expired set went, one came"
    );
    assert!(
        !store
            .claims_in_flight()
            .unwrap()
            .contains_key("company:old.com")
    );
    // Another buyer is held by every one of them.
    let other = "999999999-0000abcd@another-host.invalid";
    assert_eq!(
        store
            .claim(
                &keys(&["company:3.com", "company:new.com"]),
                other,
                None,
                lease,
                now
            )
            .unwrap(),
        [Claim::Held, Claim::Held]
    );
}

/// Compact claims (issue 39): a batch claimed at once is one claim set, settled in place by
/// the answer that keeps it; another buyer that planned before the settle reads it (settled),
/// one that planned after buys again (mine); the caller's own settled keys are its own to take.
#[test]
fn a_batch_is_one_claim_set_settled_in_place_by_its_answer() {
    let mut store = test_store();
    let now = Utc::now();
    let lease = now + chrono::Duration::seconds(60);
    let keys: Vec<String> = (0..1000)
        .map(|i| format!("company:unknown-{i}.example"))
        .collect();
    let me = "1-0000000a@elsewhere.invalid";
    let verdicts = store.claim(&keys, me, None, lease, now).unwrap();
    assert!(verdicts.iter().all(|v| *v == Claim::Mine));
    assert_eq!(
        store.claim_set_count().unwrap(),
        1,
        "one set, not a row per key"
    );
    let held = store.claims_in_flight().unwrap();
    assert_eq!(held.len(), 1000);
    assert_eq!(held["company:unknown-7.example"].0, "claimed");
    // Another buyer meanwhile: held, and nothing written for it.
    let other = "2-0000000b@elsewhere.invalid";
    assert_eq!(
        store.claim(&keys[..2], other, None, lease, now).unwrap(),
        [Claim::Held, Claim::Held]
    );
    assert_eq!(store.claim_set_count().unwrap(), 1);
    let raw = br#"{"companies":[],"totalRequested":1000,"totalFound":0,"creditsUsed":0}"#;
    let id = store
        .keep(&Kept {
            endpoint: Endpoint::LookupCompanies,
            request: &json!({"domains": []}),
            raw,
            charged: Cost::ZERO,
            target: "sandbox",
            at: Utc::now(),
            entities: &Entities::default(),
            job: None,
            settles: &keys,
            page: None,
            whole: true,
        })
        .unwrap();
    assert_eq!(store.claim_set_count().unwrap(), 1, "settled in place");
    assert!(store.claims_in_flight().unwrap().is_empty());
    let (bought, _) = store
        .claim_purchase("company:unknown-999.example")
        .unwrap()
        .expect("the not-found fact names its purchase");
    assert_eq!(bought, id);
    assert_eq!(
        store.claim(&keys[..2], other, None, lease, now).unwrap(),
        [Claim::Settled, Claim::Settled],
        "planned before the settle: read it"
    );
    let later = Utc::now() + chrono::Duration::seconds(5);
    assert_eq!(
        store.claim(&keys[2..4], other, None, lease, later).unwrap(),
        [Claim::Mine, Claim::Mine],
        "planned after the settle: buy again"
    );
    assert_eq!(
        store.claim(&keys[4..5], me, None, lease, now).unwrap(),
        [Claim::Mine],
        "its own settle is not news to the buyer"
    );
    assert_eq!(store.claim_set_count().unwrap(), 3);
}

/// A long request (a lookup's domains) is kept compressed (schema 11) and reads back as sent;
/// a short one is kept as it is.
#[test]
fn a_long_request_is_kept_compressed_and_reads_back_as_sent() {
    let mut store = test_store();
    let domains: Vec<String> = (0..200).map(|i| format!("unknown-{i}.example")).collect();
    let long = json!({ "domains": domains });
    let short = json!({ "domains": ["a.com"] });
    let raw = br#"{"companies":[],"totalRequested":0,"totalFound":0,"creditsUsed":0}"#;
    for request in [&long, &short] {
        store
            .keep(&Kept {
                endpoint: Endpoint::LookupCompanies,
                request,
                raw,
                charged: Cost::ZERO,
                target: "sandbox",
                at: t(0),
                entities: &Entities::default(),
                job: None,
                settles: &[],
                page: None,
                whole: true,
            })
            .unwrap();
    }
    let kept: Vec<Value> = store
        .purchases(10)
        .unwrap()
        .into_iter()
        .map(|p| p.request)
        .collect();
    assert!(kept.contains(&long) && kept.contains(&short), "{kept:?}");
    let texts: Vec<String> = store
        .conn
        .prepare("SELECT request FROM purchases ORDER BY id")
        .unwrap()
        .query_map(super::db::params![], |r| r.get(0))
        .unwrap()
        .collect::<Result<_>>()
        .unwrap();
    assert!(texts[0].starts_with("zstd:"), "{}", texts[0]);
    assert_eq!(texts[1], r#"{"domains":["a.com"]}"#);
}

/// Claim sets split when part of them moves on: a release gives back only the keys named, a
/// reveal accepted for some keys makes only those `sent`, and a delivery settles only the sent
/// keys it carries.
#[test]
fn a_claim_set_splits_when_part_of_it_is_released_sent_or_delivered() {
    let mut store = test_store();
    let now = Utc::now();
    let lease = now + chrono::Duration::seconds(60);
    let me = "1-0000000a@elsewhere.invalid";
    let other = "2-0000000b@elsewhere.invalid";
    let keys: Vec<String> = ["email:p1", "email:p2", "email:p3", "email:p4"]
        .map(String::from)
        .to_vec();
    store.claim(&keys, me, None, lease, now).unwrap();
    store.release(&keys[3..], me).unwrap();
    store.release(&keys[..1], other).unwrap();
    assert_eq!(
        store.claim(&keys, other, None, lease, now).unwrap(),
        [Claim::Held, Claim::Held, Claim::Held, Claim::Mine],
        "only the released key is free; another's release changes nothing"
    );
    store.release(&keys[3..], other).unwrap();
    store.mark_sent(&keys[..2], me, None, lease).unwrap();
    assert_eq!(store.pending(&keys).unwrap(), ["email:p1", "email:p2"]);
    let inflight = store.claims_in_flight().unwrap();
    assert_eq!(inflight["email:p3"].0, "claimed");
    assert!(!inflight.contains_key("email:p4"));
    // A delivery that settles p1 (and p3, which is claimed, not sent: untouched).
    let tx = store.conn.begin().unwrap();
    super::claims::settle(
        &tx,
        &mut super::claims::Unpacked::default(),
        &["email:p1", "email:p3"],
        super::claims::Settling::Delivered,
        to_millis(Utc::now()),
    )
    .unwrap();
    tx.commit().unwrap();
    assert_eq!(store.pending(&keys).unwrap(), ["email:p2"]);
    let inflight = store.claims_in_flight().unwrap();
    assert_eq!(inflight["email:p3"].0, "claimed");
    assert!(!inflight.contains_key("email:p1"));
    assert_eq!(
        store.claim(&keys[..1], other, None, lease, now).unwrap(),
        [Claim::Settled],
        "the delivered key is settled since the other's plan"
    );
}

/// A version-10 file's `claims` rows become claim sets (issue 39): a done key still names its
/// purchase and is news to a plan before it, a sent key is still pending.
#[test]
fn a_version_10_files_claims_migrate_to_claim_sets() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v10.sqlite");
    let now = Utc::now();
    let at = to_millis(now);
    let until = at + 60_000;
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        for step in &schema::MIGRATIONS[..10] {
            conn.execute_batch(step).unwrap();
        }
        conn.execute_batch(&format!(
            "PRAGMA user_version = 10;
             INSERT INTO claims VALUES ('company:a.com', 'done', '', NULL, 7, 0, {at});
             INSERT INTO claims VALUES ('company:b.com', 'done', '', NULL, 7, 0, {at});
             INSERT INTO claims VALUES ('email:p1', 'sent', 'x-1@elsewhere.invalid', NULL, 8, {until}, {at});"
        ))
        .unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(store.claim_set_count().unwrap(), 2);
    assert_eq!(
        store.claim_purchase("company:b.com").unwrap().map(|p| p.0),
        Some(PurchaseId(7))
    );
    assert_eq!(
        store.pending(&["email:p1".to_string()]).unwrap(),
        ["email:p1"]
    );
    let before = now - chrono::Duration::seconds(1);
    assert_eq!(
        store
            .claim(
                &["company:a.com".to_string()],
                "me",
                None,
                now + chrono::Duration::seconds(60),
                before
            )
            .unwrap(),
        [Claim::Settled]
    );
}

/// Store URLs (issue 17): the schemes taken, and the password never shown, in the URL as
/// printed or in the error of a server that cannot be reached.
#[test]
fn store_urls_parse_and_never_show_the_password() {
    use super::StoreUrl;
    assert_eq!(
        StoreUrl::parse("sqlite:///x/y.sqlite").unwrap(),
        StoreUrl::Sqlite("/x/y.sqlite".into())
    );
    assert_eq!(
        StoreUrl::parse("/x/y.sqlite").unwrap(),
        StoreUrl::Sqlite("/x/y.sqlite".into())
    );
    let e = StoreUrl::parse("mysql://db/team").unwrap_err();
    assert!(e.contains("mysql://") && e.contains("postgres://"), "{e}");
    assert!(StoreUrl::parse(" ").is_err());
    let u = StoreUrl::parse("postgres://ann:s3cret@db:5432/team?sslmode=require").unwrap();
    assert_eq!(
        u.redacted(),
        "postgres://ann:***@db:5432/team?sslmode=require"
    );
    assert!(!format!("{u:?}").contains("s3cret"));
    let u = StoreUrl::parse("postgresql://ann@db/team?password=s3cret&sslmode=disable").unwrap();
    assert_eq!(
        u.redacted(),
        "postgresql://ann@db/team?password=***&sslmode=disable"
    );
    // Nothing listens on port 1.
    let e = Store::open_postgres(
        "postgres://ann:s3cret@127.0.0.1:1/team?sslmode=disable&connect_timeout=3",
    )
    .unwrap_err()
    .to_string();
    assert!(!e.contains("s3cret"), "{e}");
    assert!(e.contains("postgres://ann:***@127.0.0.1:1/team"), "{e}");
}

/// The team store over TLS (issue 17, "Failures": rustls when the URL asks for it), on a real
/// server with `ssl = on` and a certificate of a throwaway authority: with `sslrootcert` naming
/// that authority the connection is encrypted (`pg_stat_ssl`), libpq's `verify-full` is taken
/// too, and without it the server's certificate is refused (the web's roots do not know it).
#[cfg_attr(no_postgres, ignore = "needs PostgreSQL (initdb)")]
#[test]
fn a_team_store_over_tls_verifies_the_server() {
    let server = super::pg_server::TempServer::start_tls().unwrap();
    server.create_db("tls").unwrap();
    let base = format!("postgres://prospect@127.0.0.1:{}/tls", server.port());
    let ca = server.root_cert();
    let encrypted = |store: &Store| -> bool {
        let mut st = store
            .conn
            .prepare("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
            .unwrap();
        st.query_row(super::db::params![], |r| r.get::<_, bool>(0))
            .unwrap()
    };
    for mode in ["require", "verify-full", "prefer"] {
        let url = format!("{base}?sslmode={mode}&sslrootcert={}", ca.display());
        let store = Store::open_postgres(&url).unwrap_or_else(|e| panic!("{mode}: {e}"));
        assert!(encrypted(&store), "sslmode={mode} is encrypted");
    }
    let plain = Store::open_postgres(&format!("{base}?sslmode=disable")).unwrap();
    assert!(!encrypted(&plain));
    let Err(refused) = Store::open_postgres(&format!("{base}?sslmode=require")) else {
        panic!("a certificate of an unknown authority is refused");
    };
    assert!(
        refused.to_string().to_lowercase().contains("certificate"),
        "{refused}"
    );
    let Err(missing) = Store::open_postgres(&format!(
        "{base}?sslmode=require&sslrootcert=/nonexistent.pem"
    )) else {
        panic!("a root file that is not there");
    };
    assert!(
        missing.to_string().contains("/nonexistent.pem"),
        "{missing}"
    );
}

/// `sslrootcert` is read off a team store's URL and libpq's `verify-*` modes become `require`;
/// every other member is passed on as written.
#[test]
fn tls_options_read_the_root_file_off_the_url() {
    use super::tls_options;
    let (url, root) = tls_options(
        "postgres://u:p@h:5432/db?application_name=a%20b&sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem",
    )
    .unwrap();
    assert_eq!(
        url,
        "postgres://u:p@h:5432/db?application_name=a%20b&sslmode=require"
    );
    assert_eq!(root.as_deref(), Some(std::path::Path::new("/etc/ca.pem")));
    let (url, root) = tls_options("postgres://u@h/db?sslrootcert=/ca.pem").unwrap();
    assert_eq!((url.as_str(), root.is_some()), ("postgres://u@h/db", true));
    assert_eq!(
        tls_options("postgres://u@h/db").unwrap(),
        ("postgres://u@h/db".to_string(), None)
    );
    assert!(tls_options("postgres://u@h/db?sslrootcert=").is_err());
}

/// The team's budget is kept in the store (schema 7): none at first, set per pool, read back
/// by any connection, removed when unlimited; a negative limit is refused.
#[test]
fn the_team_budget_is_kept_in_the_store() {
    let mut store = test_store();
    assert!(store.team_budget().unwrap().is_unlimited());
    let b = super::Budget {
        standard_per_day: Some(500.0),
        email_per_day: Some(0.0),
        phone_per_day: None,
    };
    store.set_team_budget(&b).unwrap();
    assert_eq!(store.team_budget().unwrap(), b);
    let wider = super::Budget {
        standard_per_day: Some(800.0),
        ..b
    };
    store.set_team_budget(&wider).unwrap();
    assert_eq!(store.team_budget().unwrap(), wider);
    let bad = super::Budget {
        phone_per_day: Some(-1.0),
        ..b
    };
    assert!(matches!(
        store.set_team_budget(&bad),
        Err(StoreError::Invalid(m)) if m.contains("phone")
    ));
    store.set_team_budget(&super::Budget::default()).unwrap();
    assert!(store.team_budget().unwrap().is_unlimited());
}

#[test]
fn segmentations_are_kept_by_service_and_input_and_a_finished_answer_is_not_undone() {
    use prospect_api::types::{Segment, Segmentation, SegmentationStatus};
    let mut s = test_store();
    s.record_segmentation("sandbox", 7, "segmentation:abc", 30, None)
        .unwrap();
    s.record_segmentation("https://api.example", 7, "segmentation:abc", 30, None)
        .unwrap();
    let row = s
        .segmentation_by_input("sandbox", "segmentation:abc")
        .unwrap()
        .unwrap();
    assert_eq!((row.id, row.domains), (7, 30));
    assert_eq!(row.status, SegmentationStatus::InProgress);
    assert!(row.answer.is_none());
    assert!(
        s.segmentation_by_input("sandbox", "segmentation:other")
            .unwrap()
            .is_none()
    );
    let done = Segmentation {
        segmentation_id: 7,
        status: SegmentationStatus::Successful,
        segments: vec![Segment {
            segment_id: 1,
            name: "Software\u{1b}[31m".into(),
            domains: vec!["stripe.com".into()],
            company_count: 1,
            ..Segment::default()
        }],
        total_addressable_market: Some(12),
        total_untouched: None,
    };
    s.keep_segmentation_answer("sandbox", &done).unwrap();
    // A later in-progress answer (a sandbox computing it again) keeps the finished one.
    let again = Segmentation {
        segmentation_id: 7,
        status: SegmentationStatus::InProgress,
        ..Segmentation::default()
    };
    s.keep_segmentation_answer("sandbox", &again).unwrap();
    let row = s.segmentation("sandbox", 7).unwrap().unwrap();
    assert_eq!(row.status, SegmentationStatus::Successful);
    let kept = row.answer.unwrap();
    assert_eq!(
        kept.segments[0].name, "Software",
        "escape sequences are stripped"
    );
    assert_eq!(row.input_key, "segmentation:abc");
    // The other service's row is its own.
    let other = s.segmentation("https://api.example", 7).unwrap().unwrap();
    assert_eq!(other.status, SegmentationStatus::InProgress);
    assert_eq!(s.segmentations("sandbox", 10).unwrap().len(), 1);
}

/// A set's runs (issue 37): keys bought are kept once per set and tab (what a new-only run
/// excludes: those before its start), runs are listed newest first and a run's later pages add
/// to it, and another set or tab shares nothing.
#[test]
fn a_sets_keys_and_runs_are_kept_per_set_and_tab() {
    let mut store = test_store();
    let at = chrono::Utc::now();
    let keys = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let first = store.add_set_keys("de", "companies", &keys(&["a.de", "b.de"]), at);
    assert_eq!(first.unwrap(), keys(&["a.de", "b.de"]));
    let later = at + chrono::Duration::seconds(1);
    let second = store.add_set_keys("de", "companies", &keys(&["b.de", "c.de"]), later);
    assert_eq!(second.unwrap(), keys(&["c.de"]));
    let all = store.set_keys("de", "companies", None).unwrap();
    assert_eq!(all, keys(&["a.de", "b.de", "c.de"]));
    let before = store.set_keys("de", "companies", Some(later)).unwrap();
    assert_eq!(before, keys(&["a.de", "b.de"]));
    assert!(store.set_keys("de", "people", None).unwrap().is_empty());
    assert!(
        store
            .set_keys("other", "companies", None)
            .unwrap()
            .is_empty()
    );
    for (i, new) in [2u64, 1].into_iter().enumerate() {
        let run = super::SetRun {
            set_name: "de".into(),
            subject: "companies".into(),
            ran_at: at + chrono::Duration::seconds(i as i64),
            new_only: i > 0,
            results: new,
            new_results: new,
            paid_again: 0,
            credits: new as f64 * 0.2,
            job: None,
        };
        store.record_set_run(&run).unwrap();
    }
    // A page more of the last run adds to it.
    let mut more = store.set_runs("de", 1).unwrap().remove(0);
    more.results = 3;
    more.new_results = 3;
    store.record_set_run(&more).unwrap();
    let runs = store.set_runs("de", 10).unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!((runs[0].results, runs[0].new_results), (4, 4));
    assert!(runs[0].new_only);
    assert_eq!(store.set_run_count("de", "companies", None).unwrap(), 2);
    assert_eq!(
        store.set_run_count("de", "companies", Some(later)).unwrap(),
        1
    );
    assert_eq!(store.set_run_count("de", "people", None).unwrap(), 0);
}

/// Rows rendered from a page's answer are kept beside its purchase, read back by the page's
/// link in their form only, and replaced when kept again (schema 13); a page kept without a
/// purchase has none.
#[test]
fn page_rows_are_kept_by_purchase_and_form() {
    let mut store = test_store();
    let s = store
        .record_search(Endpoint::SearchCompaniesV3, &json!({}), "sandbox", t(1))
        .unwrap();
    let answer = json!({"companies": [{"company": {"domain": "acme.com"}}], "total": 1});
    let p = buy(
        &mut store,
        Endpoint::SearchCompaniesV3,
        answer.clone(),
        &Entities::default(),
        t(1),
    );
    store
        .record_page(s, 0, &json!({"size": 10}), &answer, Some(p), t(1))
        .unwrap();
    let link = store.page_links_since(s, None).unwrap().remove(0);
    assert_eq!(store.page_rows(&link, "companies.csv/1").unwrap(), None);
    store
        .keep_page_rows(p, "companies.csv/1", b"acme.com,Acme\n")
        .unwrap();
    store.keep_page_rows(p, "companies.json/1", b"{}").unwrap();
    assert_eq!(
        store
            .page_rows(&link, "companies.csv/1")
            .unwrap()
            .as_deref(),
        Some(&b"acme.com,Acme\n"[..])
    );
    store
        .keep_page_rows(p, "companies.csv/1", b"acme.com,ACME\n")
        .unwrap();
    assert_eq!(
        store
            .page_rows(&link, "companies.csv/1")
            .unwrap()
            .as_deref(),
        Some(&b"acme.com,ACME\n"[..])
    );
    assert_eq!(store.page_rows(&link, "companies.csv/2").unwrap(), None);
    let s2 = store
        .record_search(
            Endpoint::SearchCompaniesV3,
            &json!({"q": 2}),
            "sandbox",
            t(2),
        )
        .unwrap();
    store
        .record_page(s2, 0, &json!({"size": 10}), &answer, None, t(2))
        .unwrap();
    let bare = store.page_links_since(s2, None).unwrap().remove(0);
    assert_eq!(store.page_rows(&bare, "companies.csv/1").unwrap(), None);
}

/// A job's `bought` moves with every answer kept for it; its `updated_at`, which both job
/// indexes hold, at most once a second, so a lookup's thousand answers a minute do not
/// rewrite two index pages each.
#[test]
fn a_jobs_count_moves_with_each_answer_and_its_time_once_a_second() {
    let mut store = test_store();
    let job = store
        .create_job("lookup_companies", "f", &json!({}), &json!({}), "me")
        .unwrap();
    let created = store.job(job).unwrap().unwrap().updated_at;
    let raw = br#"{"companies":[],"totalRequested":0,"totalFound":0,"creditsUsed":0}"#;
    let mut keep_at = |at: DateTime<Utc>| {
        store
            .keep(&Kept {
                endpoint: Endpoint::LookupCompanies,
                request: &json!({"domains": []}),
                raw,
                charged: Cost::ZERO,
                target: "sandbox",
                at,
                entities: &Entities::default(),
                job: Some(job),
                settles: &[],
                page: None,
                whole: true,
            })
            .unwrap();
    };
    let ms = chrono::Duration::milliseconds;
    keep_at(created + ms(200));
    keep_at(created + ms(5_000));
    keep_at(created + ms(5_500));
    let row = store.job(job).unwrap().unwrap();
    assert_eq!(row.bought, 3, "every answer counts");
    assert_eq!(
        row.updated_at.timestamp_millis(),
        (created + ms(5_000)).timestamp_millis(),
        "moved by the answer a second or more after it, not by those within one"
    );
}
