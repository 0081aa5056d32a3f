//! The session against the real sandbox over HTTP on 127.0.0.1, with a real store in a temp
//! dir: what is stored is answered at 0 credits (the balance is checked), a lookup sends only
//! what the store lacks (counted at the sandbox), a paid search nobody waits for is still
//! stored, and a process killed with SIGKILL right after a result loses nothing.

#[path = "sandbox_service/support.rs"]
mod support;

use std::time::Duration;

use prospect::api::client::{Client, Enriched};
use prospect::api::types::*;
use prospect::common::ContactKind;
use prospect::core::session::{Freshness, Session};
use prospect::core::webhooks::ReceiverConfig;
use prospect::store::Store;
use serde_json::json;
use support::{RICH, client, some_person_ids, start};

fn req<T: serde::de::DeserializeOwned>(v: serde_json::Value) -> T {
    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{v}: {e}"))
}

fn session(c: Client, dir: &std::path::Path) -> Session {
    let store = Store::open(&dir.join("store.sqlite")).expect("store opens");
    Session::new(c, store, "sandbox")
}

async fn pools(c: &Client) -> (f64, f64, f64) {
    let b = c.credit_balance().await.expect("balance");
    let t = |p: Option<Credits>| p.map_or(f64::NAN, |p| p.one_time + p.recurrent);
    (t(b.credits), t(b.email_credits), t(b.phone_credits))
}

async fn some_domains(c: &Client, n: usize) -> Vec<String> {
    let r = c
        .search_companies_v3(&req(json!({ "size": n })))
        .await
        .expect("search");
    r.companies
        .iter()
        .map(|c| c.company.domain.clone())
        .collect()
}

#[tokio::test]
async fn enrich_lookup_and_reveal_from_the_store_spend_nothing() {
    let sb = start(vec![]).await;
    let c = client(&sb, RICH);
    let dir = tempfile::tempdir().unwrap();
    let s = session(c.clone(), dir.path());

    // Enrich company: the first call pays 0.1, the second is answered from the store.
    let domain = some_domains(&c, 1).await.remove(0);
    let body: EnrichCompanyRequest = req(json!({"company": {"domain": domain}}));
    let before = pools(&c).await;
    let first = s.enrich_company(&body, Freshness::Stored).await.unwrap();
    assert!(
        matches!(first.value, Enriched::Found(_)),
        "{:?}",
        first.value
    );
    assert!(first.stored_at.is_none() && first.purchase.is_some());
    let mid = pools(&c).await;
    assert!(
        (before.0 - mid.0 - 0.1).abs() < 1e-9,
        "{before:?} -> {mid:?}"
    );
    let again = s.enrich_company(&body, Freshness::Stored).await.unwrap();
    assert!(again.stored_at.is_some() && again.charged.is_zero());
    assert_eq!(
        pools(&c).await,
        mid,
        "answered from the store: nothing spent"
    );

    // Enrich person by id: 3 credits once, then 0.
    let id = some_person_ids(&c, 1).await.remove(0);
    let body: EnrichPersonRequest = req(json!({"person": {"id": id}}));
    let first = s.enrich_person(&body, Freshness::Stored).await.unwrap();
    assert!(matches!(first.value, Enriched::Found(_)));
    let mid = pools(&c).await;
    let again = s.enrich_person(&body, Freshness::Stored).await.unwrap();
    assert!(again.stored_at.is_some());
    assert_eq!(pools(&c).await, mid);
    // A refresh buys again.
    // Claims are timed in milliseconds, and a purchase settled in the millisecond a buyer
    // looks counts as bought after it looked (read, not bought again): on a fast machine the
    // calls above fit in one, so the refresh looks a millisecond later, as a person would.
    tokio::time::sleep(Duration::from_millis(2)).await;
    let fresh = s.enrich_person(&body, Freshness::Refresh).await.unwrap();
    assert!(fresh.stored_at.is_none());
    assert!((mid.0 - pools(&c).await.0 - 3.0).abs() < 1e-9);

    // Lookup: 4 stored, 10 asked, 6 sent (counted at the sandbox: its totalRequested).
    let domains = some_domains(&c, 30).await;
    let (first4, rest) = (&domains[20..24], &domains[24..30]);
    let l = s.lookup_companies(first4, Freshness::Stored).await.unwrap();
    assert_eq!((l.sent, l.from_store), (4, 0));
    let mut ten: Vec<String> = first4.to_vec();
    ten.extend(rest.iter().cloned());
    let before = pools(&c).await;
    let l = s.lookup_companies(&ten, Freshness::Stored).await.unwrap();
    assert_eq!((l.sent, l.from_store, l.entries.len()), (6, 4, 10));
    assert!(l.entries.iter().all(|e| e.record.is_some()));
    let purchase = {
        let st = s.store().lock().unwrap();
        st.purchases(1).unwrap().remove(0)
    };
    assert_eq!(
        purchase.response["totalRequested"],
        json!(6),
        "the sandbox saw 6 domains"
    );
    let after = pools(&c).await;
    assert!(
        (before.0 - after.0 - 0.3).abs() < 1e-9,
        "{before:?} -> {after:?}"
    );

    // Reveal: results arrive by webhook into the store; the second reveal spends nothing.
    let rx = s
        .start_receiver(ReceiverConfig::loopback("test-secret"))
        .await
        .unwrap();
    let ids = some_person_ids(&c, 2).await;
    let before = pools(&c).await;
    let r = s
        .reveal(
            ContactKind::Email,
            &ids,
            &rx.url_for(prospect::api::types::webhooks::WebhookEvent::RevealEmails),
            Freshness::Stored,
        )
        .await
        .unwrap();
    assert_eq!((r.sent.len(), r.from_store.len()), (2, 0));
    let t0 = std::time::Instant::now();
    while s.stored_contacts(&ids, ContactKind::Email).await.len() < 2 {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "webhook never stored"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mid = pools(&c).await;
    assert!(mid.1 <= before.1, "{before:?} -> {mid:?}");
    let again = s
        .reveal(
            ContactKind::Email,
            &ids,
            &rx.url_for(prospect::api::types::webhooks::WebhookEvent::RevealEmails),
            Freshness::Stored,
        )
        .await
        .unwrap();
    assert_eq!((again.sent.len(), again.from_store.len()), (0, 2));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        pools(&c).await,
        mid,
        "revealed contacts from the store cost nothing"
    );
}

#[tokio::test]
async fn a_paid_search_nobody_waits_for_is_still_stored() {
    let sb = start(vec![]).await;
    let c = client(&sb, RICH);
    let dir = tempfile::tempdir().unwrap();
    let s = session(c.clone(), dir.path());
    let first: SearchCompaniesV3Request =
        req(json!({"size": 5, "companiesFilters": {"yearFounded": {"from": 2000}}}));
    let second: SearchCompaniesV3Request =
        req(json!({"size": 5, "companiesFilters": {"yearFounded": {"from": 1950, "to": 1999}}}));
    // The first is superseded: its task is detached and its answer never looked at.
    let s1 = s.clone();
    let superseded = tokio::spawn(async move { s1.search_page(&first, 0).await });
    let (shown, _) = s.search_page(&second, 0).await.unwrap();
    assert_eq!(shown.value.companies.len(), 5);
    superseded.await.unwrap().unwrap();
    let st = s.store().lock().unwrap();
    let searches = st.searches(10).unwrap();
    assert_eq!(searches.len(), 2, "{searches:?}");
    for sr in &searches {
        assert_eq!(st.pages(sr.id).unwrap().len(), 1);
    }
    assert_eq!(st.purchases(10).unwrap().len(), 2);
}

/// The explorer's page fetch claims its page like the engine's search: four sessions on one
/// store file (four explorers, say) asking the same page at once buy it once, and all four
/// show the same records.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_explorers_asking_one_page_buy_it_once() {
    let sb = start(vec![]).await;
    let c = client(&sb, RICH);
    let dir = tempfile::tempdir().unwrap();
    let (before, _, _) = pools(&c).await;
    let request = prospect::core::request::build_search(
        prospect::api::client::Endpoint::SearchCompaniesV3,
        &json!({"size": 200, "companiesFilters": {"yearFounded": {"from": 1990}}}),
    )
    .unwrap();
    let tasks: Vec<_> = (0..4)
        .map(|_| {
            let s = session(c.clone(), dir.path());
            let r = request.clone();
            tokio::spawn(async move {
                let page =
                    prospect::core::engine::search_page(&s, &r, 0, Freshness::Stored, None).await;
                page.map(|p| (p.paid, p.search_id))
            })
        })
        .collect();
    let mut shown = Vec::new();
    for t in tasks {
        let (paid, _) = t.await.unwrap().expect("the page");
        let domains: Vec<String> = match paid.value {
            prospect::core::request::SearchResponse::CompaniesV3(r) => {
                r.companies.into_iter().map(|c| c.company.domain).collect()
            }
            other => panic!("a v3 companies answer, not {other:?}"),
        };
        assert_eq!(domains.len(), 200);
        shown.push(domains);
    }
    assert!(shown.iter().all(|x| *x == shown[0]), "the same records");
    let (after, _, _) = pools(&c).await;
    let spent = ((before - after) * 1000.0).round() / 1000.0;
    eprintln!("four explorers asking one page of 200 spent {spent} credits");
    assert_eq!(spent, 40.0, "200 × 0.2, once");
}

/// The child half of [`sigkill_after_a_stored_result_loses_nothing`]: runs one paid search
/// through a session, prints the domains it was shown, then waits to be killed.
#[tokio::test]
async fn sigkill_child() {
    let (Ok(base), Ok(dir)) = (
        std::env::var("PROSPECT_TEST_CHILD_BASE"),
        std::env::var("PROSPECT_TEST_CHILD_DIR"),
    ) else {
        return; // only meaningful as the child process
    };
    let c = Client::new(&base, RICH).unwrap();
    let s = session(c, std::path::Path::new(&dir));
    let (paid, _) = s
        .search_page(&req::<SearchCompaniesV3Request>(json!({"size": 7})), 0)
        .await
        .unwrap();
    let shown: Vec<&str> = paid
        .value
        .companies
        .iter()
        .map(|c| c.company.domain.as_str())
        .collect();
    println!("SHOWN {}", shown.join(","));
    use std::io::Write;
    std::io::stdout().flush().unwrap();
    tokio::time::sleep(Duration::from_secs(60)).await;
}

#[cfg(unix)]
#[tokio::test]
async fn sigkill_after_a_stored_result_loses_nothing() {
    use std::io::{BufRead, BufReader};
    let sb = start(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let exe = std::env::current_exe().unwrap();
    let mut child = std::process::Command::new(exe)
        .args([
            "--exact",
            "sigkill_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("PROSPECT_TEST_CHILD_BASE", &sb.base_url)
        .env("PROSPECT_TEST_CHILD_DIR", dir.path())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let shown = tokio::task::spawn_blocking(move || {
        let mut lines = BufReader::new(out).lines();
        loop {
            match lines.next() {
                // libtest may print "test sigkill_child ... " before the line on the same row.
                Some(Ok(l)) if l.contains("SHOWN ") => {
                    return l.split("SHOWN ").nth(1).map(|s| s.trim().to_string());
                }
                Some(Ok(_)) => continue,
                _ => return None,
            }
        }
    })
    .await
    .unwrap()
    .expect("the child showed a result");
    // SIGKILL: no destructor, no flush, no chance to finish anything.
    child.kill().unwrap();
    child.wait().unwrap();
    let st = Store::open(&dir.path().join("store.sqlite")).expect("store reopens after SIGKILL");
    let purchases = st.purchases(10).unwrap();
    assert_eq!(purchases.len(), 1);
    let domains: Vec<String> = shown.split(',').map(str::to_string).collect();
    assert_eq!(domains.len(), 7);
    let stored = st.companies_by_domains(&domains).unwrap();
    assert_eq!(stored.len(), 7, "every company shown is in the store");
    assert_eq!(st.searches(10).unwrap().len(), 1);
}

/// The explorer's page plan (issue 15): a page not yet bought is one request at most its
/// estimate; once bought it is owned at 0 credits with its age (no request), unless refreshed;
/// and a daily budget it would pass refuses it before anything is sent.
#[tokio::test]
async fn the_explorers_page_plan_reads_the_store_and_the_budget() {
    let sb = start(vec![]).await;
    let c = client(&sb, RICH);
    let dir = tempfile::tempdir().unwrap();
    let s = session(c.clone(), dir.path());
    let request = prospect::core::request::build_search(
        prospect::api::client::Endpoint::SearchCompaniesV3,
        &json!({"size": 50, "companiesFilters": {"yearFounded": {"from": 1995}}}),
    )
    .unwrap();
    let plan = prospect::core::engine::plan_page(&s, &request, Freshness::Stored).await;
    assert_eq!((plan.owned, plan.to_buy, plan.requests), (0, 50, 1));
    assert_eq!(plan.cost, request.estimate());
    assert!(plan.refusal.is_none());

    let (before, _, _) = pools(&c).await;
    prospect::core::engine::search_page(&s, &request, 0, Freshness::Stored, None)
        .await
        .unwrap();
    let plan = prospect::core::engine::plan_page(&s, &request, Freshness::Stored).await;
    assert_eq!((plan.owned, plan.to_buy, plan.requests), (50, 0, 0));
    assert!(plan.is_free() && plan.cost.is_zero());
    assert!(plan.owned_oldest.is_some(), "its age is shown");
    let refresh = prospect::core::engine::plan_page(&s, &request, Freshness::Refresh).await;
    assert_eq!((refresh.to_buy, refresh.requests), (50, 1));
    let (after, _, _) = pools(&c).await;
    assert_eq!(
        ((before - after) * 1000.0).round() / 1000.0,
        10.0,
        "planning spends nothing: only the one page (50 × 0.2) was bought"
    );

    // 10 standard credits spent today; a budget of 15 refuses the next 10.
    let budgeted =
        session(c.clone(), dir.path()).with_policy(prospect::core::engine::SpendPolicy {
            budget: prospect::core::config::Budget {
                standard_per_day: Some(15.0),
                ..Default::default()
            },
            ..Default::default()
        });
    let next = prospect::core::request::build_search(
        prospect::api::client::Endpoint::SearchCompaniesV3,
        &json!({"size": 50, "companiesFilters": {"yearFounded": {"from": 2001}}}),
    )
    .unwrap();
    let plan = prospect::core::engine::plan_page(&budgeted, &next, Freshness::Stored).await;
    let refusal = plan.refusal.expect("over the budget");
    assert!(refusal.contains("budget"), "{refusal}");
    // The page it owns is still read: owning costs nothing.
    let owned = prospect::core::engine::plan_page(&budgeted, &request, Freshness::Stored).await;
    assert!(owned.refusal.is_none() && owned.is_free());
}
