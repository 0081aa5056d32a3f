//! Purchases and records: the spend log, records as received, frames, fetch times, aliases, the Public Suffix List.

use super::*;

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

/// The record spans a search run skims off its page (`prospect_api::types::search::skim`)
/// pack the answer exactly as the store's own scan of it does: the raw answer framed by its
/// records, each stored as received. Spans that are not the records' (out of order, or not at
/// an object) are not used: the store scans the answer itself.
#[test]
fn a_pages_skimmed_spans_pack_it_as_the_stores_own_scan_does() {
    use crate::Bought;
    let raw = b" {\"searchAfter\": \"c1\",\n \"companies\": [\n  {\"company\": {\"domain\": \"a.com\", \"name\": \"A\"}, \"score\": 0.5},\n  {\"company\":{\"domain\":\"b.com\",\"name\":\"B\"}}],\n \"total\": 2, \"detail\": \"OK\"}\n";
    let answer: prospect_api::types::SearchCompaniesV3Response =
        serde_json::from_slice(raw).unwrap();
    let entities = answer.entities(t(0));
    let refs = entities.refs();
    let spans = prospect_api::types::search::skim(raw)
        .unwrap()
        .company_spans
        .unwrap();
    let pack = |spans: Option<&[std::ops::Range<usize>]>| {
        crate::pack_answer(
            Endpoint::SearchCompaniesV3,
            &json!({"size": 2}),
            raw,
            t(0),
            &refs,
            true,
            spans,
        )
        .unwrap()
    };
    let own = pack(None);
    let skimmed = pack(Some(&spans));
    assert_eq!(skimmed.raw(), own.raw());
    assert_eq!(skimmed.company_frames(), own.company_frames());
    assert_eq!(own.company_frames().len(), 2);
    for (_, frame) in own.company_frames() {
        assert!(
            own.raw().windows(frame.len()).any(|w| w == &frame[..]),
            "the raw answer is framed by its records"
        );
    }
    let swapped = [spans[1].clone(), spans[0].clone()];
    let off = [spans[0].start + 1..spans[0].end, spans[1].clone()];
    let past = [spans[0].clone(), spans[1].start..raw.len() + 1];
    for bad in [&swapped[..], &off, &past] {
        let p = pack(Some(bad));
        assert_eq!(
            (p.raw(), p.company_frames()),
            (own.raw(), own.company_frames()),
            "{bad:?}"
        );
    }
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
            assert_eq!(t.join().unwrap().expect("opens"), crate::SCHEMA_VERSION);
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
    assert_eq!(crate::entities::unpack(&sized).unwrap(), text);
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
    assert_eq!(crate::entities::unpack(&streamed).unwrap(), text);
    assert!(crate::entities::unpack(b"not a zstd frame").is_err());
}

/// A frame holds only its bytes (not zstd's worst-case room, about the input's size: a page's
/// frames wait for their commit, issue 39), reads back as packed, and a frame bigger than the
/// room a thread keeps is made as well as a small one after it.
#[test]
fn a_packed_frame_holds_only_its_bytes() {
    let record = br#"{"domain":"acme.com","name":"Acme","description":"anvils"}"#.repeat(100);
    let frame = crate::entities::pack(&record).unwrap();
    assert!(frame.len() < record.len() / 4, "{} bytes", frame.len());
    assert_eq!(frame.capacity(), frame.len());
    assert_eq!(crate::entities::unpack(&frame).unwrap(), record);
    let mut big = Vec::new();
    let mut x: u32 = 7;
    while big.len() < (3 << 20) {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        big.extend_from_slice(&x.to_le_bytes());
    }
    let frame = crate::entities::pack(&big).unwrap();
    assert_eq!(frame.capacity(), frame.len());
    assert_eq!(crate::entities::unpack(&frame).unwrap(), big);
    let again = crate::entities::pack(&record).unwrap();
    assert_eq!(crate::entities::unpack(&again).unwrap(), record);
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
