//! Claims and claim sets: leases, compact claims, splits, migration, long requests.

use super::*;

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
    let here = format!("999999999-0000abcd@{}", crate::this_host());
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
    let me = format!("{}-0000abcd@{}", std::process::id(), crate::this_host());
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
        .query_map(crate::db::params![], |r| r.get(0))
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
    crate::claims::settle(
        &tx,
        &mut crate::claims::Unpacked::default(),
        &["email:p1", "email:p3"],
        crate::claims::Settling::Delivered,
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
