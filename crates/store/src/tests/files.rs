//! Store files: migrations, names, shared handles, large answers, indexes, checkpoints.

use super::*;

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
    use crate::entities::*;
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
