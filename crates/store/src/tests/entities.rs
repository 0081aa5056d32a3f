//! Entities of every kind, sanitizing, newer against older, searches and typed answers.

use super::*;

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
            crate::db::params![b"{broken".to_vec()],
        )
        .unwrap();
    store
        .conn
        .execute(
            "UPDATE purchases SET raw = ?1 WHERE id = 1",
            crate::db::params![vec![0u8]],
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
