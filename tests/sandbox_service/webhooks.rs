//! Webhooks received by a test receiver (with retries after 500s) for reveal emails / phones,
//! the reveal options of enrich person and people search; and the credit ledger under
//! concurrent requests.

use std::sync::Arc;
use std::time::Duration;

use crate::support::*;
use prospect::api::cost::CreditPool;
use prospect::api::error::ApiError;
use prospect::api::types::*;
use prospect::sandbox::service::accounts::Plan;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

fn req<T: DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v).expect("a valid request body")
}

const WAIT: Duration = Duration::from_secs(10);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reveal_webhooks_are_retried_until_2xx_and_charged_per_verified() {
    let h = start(vec![account("rev", Plan::Legacy, 100.0, 50.0, 50.0)]).await;
    let c = client(&h, "rev");
    let ids = some_person_ids(&c, 12).await;
    let mut asked = ids.clone();
    asked.push("no-such-person".into());

    // emails: the receiver fails twice, then accepts
    let recv = Receiver::start(2).await;
    let ack = c
        .reveal_emails(&req(
            json!({"personIds": asked, "webhookUrl": recv.url("/emails?secret=s3")}),
        ))
        .await
        .unwrap();
    assert_eq!(ack.status, RevealStatus::InProgress);
    let hits = recv
        .wait_until(WAIT, |h| h.iter().any(|x| x.answered == 200))
        .await;
    assert_eq!(
        hits.iter().map(|x| x.answered).collect::<Vec<_>>(),
        vec![500, 500, 200]
    );
    assert!(hits.iter().all(|x| x.uri == "/emails?secret=s3"));
    assert!(
        hits.iter().all(|x| x.body == hits[0].body),
        "the same body each attempt"
    );
    let body = WebhookEvent::RevealEmails
        .parse_body(hits[2].body.to_string().as_bytes())
        .unwrap();
    let WebhookBody::RevealEmails(w) = body else {
        panic!("reveal_emails body")
    };
    assert_eq!(w.emails.len(), asked.len());
    assert_eq!(
        w.emails
            .iter()
            .map(|e| e.person_id.clone())
            .collect::<Vec<_>>(),
        asked,
        "input order"
    );
    assert_eq!(w.emails.last().unwrap().status, EmailStatus::NotFound);
    let verified = w
        .emails
        .iter()
        .filter(|e| e.status == EmailStatus::Verified)
        .count();
    assert!(
        w.emails
            .iter()
            .filter(|e| e.status == EmailStatus::Verified)
            .all(|e| e.address.is_some())
    );
    assert_eq!(w.credits_used, verified as f64);
    tokio::time::sleep(Duration::from_millis(30)).await;
    let b = c.credit_balance().await.unwrap();
    assert_eq!(b.email_credits.unwrap().one_time, 50.0 - verified as f64);
    assert!(
        h.webhook_stats
            .attempts
            .load(std::sync::atomic::Ordering::Relaxed)
            >= 3
    );

    // phones: one failure, then accepted
    let recv = Receiver::start(1).await;
    c.reveal_phones(&req(
        json!({"personIds": ids, "webhookUrl": recv.url("/phones")}),
    ))
    .await
    .unwrap();
    let hits = recv
        .wait_until(WAIT, |h| h.iter().any(|x| x.answered == 200))
        .await;
    assert_eq!(
        hits.iter().map(|x| x.answered).collect::<Vec<_>>(),
        vec![500, 200]
    );
    let body = WebhookEvent::RevealPhones
        .parse_body(hits[1].body.to_string().as_bytes())
        .unwrap();
    let WebhookBody::RevealPhones(w) = body else {
        panic!("reveal_phones body")
    };
    assert_eq!(w.phones.len(), ids.len());
    let verified = w
        .phones
        .iter()
        .filter(|p| p.status == PhoneStatus::Verified)
        .count();
    assert!(
        w.phones
            .iter()
            .filter(|p| p.status == PhoneStatus::Verified)
            .all(|p| !p.numbers.is_empty())
    );
    assert_eq!(w.credits_used, verified as f64);
    tokio::time::sleep(Duration::from_millis(30)).await;
    let b = c.credit_balance().await.unwrap();
    assert_eq!(b.phone_credits.unwrap().one_time, 50.0 - verified as f64);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reveal_options_of_enrich_person_and_people_search() {
    let h = start(vec![]).await;
    let c = client(&h, RICH);
    let recv = Receiver::start(0).await;
    let ids = some_person_ids(&c, 1).await;
    let r = c
        .enrich_person(&req(json!({
            "person": {"id": ids[0]},
            "revealEmails": {"includeEmails": true, "webhookUrl": recv.url("/ep-email")},
            "revealPhones": {"includePhones": true, "webhookUrl": recv.url("/ep-phone")},
        })))
        .await
        .unwrap();
    assert!(matches!(r, prospect::api::client::Enriched::Found(_)));
    let s = c
        .search_people_v3(&req(json!({
            "size": 3,
            "revealEmails": {"includeEmails": true, "webhookUrl": recv.url("/ps-email")},
            "revealPhones": {"includePhones": true, "webhookUrl": recv.url("/ps-phone")},
        })))
        .await
        .unwrap();
    assert_eq!(s.people.len(), 3);
    recv.wait_until(WAIT, |h| h.len() >= 4).await;

    let one = |p: &str| {
        recv.delivered(p)
            .pop()
            .unwrap_or_else(|| panic!("no webhook at {p}"))
            .body
    };
    let b = WebhookEvent::EnrichPersonEmail
        .parse_body(one("/ep-email").to_string().as_bytes())
        .unwrap();
    let WebhookBody::EnrichPersonEmail(p) = b else {
        panic!()
    };
    assert_eq!(p.id, ids[0]);
    assert!(!p.domain.is_empty() && p.email.is_some());
    let b = WebhookEvent::EnrichPersonPhone
        .parse_body(one("/ep-phone").to_string().as_bytes())
        .unwrap();
    let WebhookBody::EnrichPersonPhone(p) = b else {
        panic!()
    };
    assert_eq!(p.id, ids[0]);
    assert!(p.phone.is_some());
    let b = WebhookEvent::PeopleSearchEmails
        .parse_body(one("/ps-email").to_string().as_bytes())
        .unwrap();
    let WebhookBody::PeopleSearchEmails(w) = b else {
        panic!()
    };
    assert_eq!(w.people.len(), 3);
    assert_eq!(w.detail, "OK");
    let b = WebhookEvent::PeopleSearchPhones
        .parse_body(one("/ps-phone").to_string().as_bytes())
        .unwrap();
    let WebhookBody::PeopleSearchPhones(w) = b else {
        panic!()
    };
    assert_eq!(
        w.people.iter().map(|p| p.id.clone()).collect::<Vec<_>>(),
        s.people
            .iter()
            .map(|p| p.person.id.clone())
            .collect::<Vec<_>>()
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_paid_requests_spend_exactly_what_they_report() {
    let h = start(vec![
        account("busy", Plan::Legacy, 1000.0, 0.0, 0.0),
        account("tight", Plan::Legacy, 5.0, 0.0, 0.0),
    ])
    .await;
    let c = Arc::new(client(&h, "busy"));
    let before = c.credit_balance().await.unwrap().credits.unwrap().one_time;
    let domains: Vec<String> = {
        let r: SearchCompaniesV3Response = c
            .search_companies_v3(&req(json!({"size": 8})))
            .await
            .unwrap();
        r.companies
            .iter()
            .map(|x| x.company.domain.clone())
            .collect()
    };
    let mid = c.credit_balance().await.unwrap().credits.unwrap().one_time;
    assert!((before - mid - 1.6).abs() < 1e-9);

    // 5 tasks × 10 requests of four priced kinds, all at once
    let mut tasks = Vec::new();
    for t in 0..5usize {
        let c = c.clone();
        let domains = domains.clone();
        tasks.push(tokio::spawn(async move {
            let mut futs = Vec::new();
            for i in 0..10usize {
                let c = c.clone();
                let domains = domains.clone();
                futs.push(async move {
                    match (t + i) % 4 {
                        0 => c
                            .search_companies_v3(&req(json!({"size": 1 + (i % 5)})))
                            .await
                            .map(|r| r.credits_used),
                        1 => c.autocomplete_keywords(&req(json!({"query": "data"}))).await.map(|_| 0.1),
                        2 => c
                            .lookup_companies(&req(json!({"domains": [domains[i % 8], domains[(i + 3) % 8], "zz-unknown.example"]})))
                            .await
                            .map(|r| r.credits_used),
                        _ => c.search_people_v3(&req(json!({"size": 1 + (i % 3)}))).await.map(|r| r.credits_used),
                    }
                });
            }
            futures::future::join_all(futs).await
        }));
    }
    let mut charged = 0.0;
    for t in tasks {
        for r in t.await.unwrap() {
            charged += r.expect("every request succeeds");
        }
    }
    let after = c.credit_balance().await.unwrap().credits.unwrap().one_time;
    assert!(
        ((mid - after) - charged).abs() < 1e-6,
        "spent {} vs charged {charged}",
        mid - after
    );

    // contention on a small balance: 5 credits, 40 searches of 0.2 each → exactly 25 succeed
    let tight = Arc::new(client(&h, "tight"));
    let futs = (0..40).map(|_| {
        let c = tight.clone();
        async move { c.search_companies_v3(&req(json!({"size": 1}))).await }
    });
    let results = futures::future::join_all(futs).await;
    let ok = results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(ok, 25);
    assert!(results.iter().filter_map(|r| r.as_ref().err()).all(|e| *e
        == ApiError::InsufficientCredits {
            pool: CreditPool::Standard
        }));
    let left = tight.credit_balance().await.unwrap().credits.unwrap();
    assert!(
        left.one_time.abs() < 1e-9 && left.recurrent == 0.0,
        "{left:?}"
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reveal_without_webhook_is_inline_and_charged_with_the_answer() {
    let h = start(vec![account("inline", Plan::Legacy, 100.0, 20.0, 20.0)]).await;
    let c = client(&h, "inline");
    // without reveal options: no email, no phone in the records
    let plain = c.search_people_v2(&req(json!({"size": 5}))).await.unwrap();
    assert!(
        plain
            .people
            .iter()
            .all(|p| p.email.is_none() && p.phone.is_none())
    );
    let r = c
        .search_people_v2(&req(json!({
            "size": 5,
            "revealEmails": {"includeEmails": true},
            "revealPhones": {"includePhones": true},
        })))
        .await
        .unwrap();
    assert!(
        r.people
            .iter()
            .all(|p| p.email.is_some() && p.phone.is_some())
    );
    let ve = r
        .people
        .iter()
        .filter(|p| p.email.as_ref().unwrap().status == EmailStatus::Verified)
        .count() as f64;
    let vp = r
        .people
        .iter()
        .filter(|p| p.phone.as_ref().unwrap().status == PhoneStatus::Verified)
        .count() as f64;
    let b = c.credit_balance().await.unwrap();
    assert_eq!(b.email_credits.unwrap().one_time, 20.0 - ve);
    assert_eq!(b.phone_credits.unwrap().one_time, 20.0 - vp);
    assert_eq!(b.credits.unwrap().one_time, 100.0 - 5.0 - 5.0);
    h.shutdown().await;
}

/// `POST /v2/enrich/companies` (openapi `MatchCompaniesBody`): answered "in progress", then
/// delivered by `enrich_companies` webhooks of at most 200 items, every caller id once, each
/// delivery charging 0.1 credit per company found.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_enrich_companies_is_delivered_in_chunks_with_the_callers_ids() {
    let h = start(vec![account("batch", Plan::Legacy, 1000.0, 0.0, 0.0)]).await;
    let c = client(&h, "batch");
    let known = company_domains(&c, json!({"size": 1200})).await;
    assert_eq!(known.len(), 1200);
    let mut mapping = serde_json::Map::new();
    for (i, d) in known.iter().enumerate() {
        mapping.insert(format!("k{i}"), json!({"company": {"domain": d}}));
    }
    mapping.insert(
        "unknown".into(),
        json!({"company": {"domain": "no-such-company-zz.com"}}),
    );
    mapping.insert("empty".into(), json!({"company": {}}));
    let before = c.credit_balance().await.unwrap().credits.unwrap().total();
    let recv = Receiver::start(0).await;
    let ack = c
        .enrich_companies(&req(json!({
            "companyDataMapping": mapping,
            "webhookUrl": recv.url("/batch"),
            "fields": ["domain", "name"],
        })))
        .await
        .unwrap();
    assert_eq!(ack.status, EnrichBatchAccepted::IN_PROGRESS);
    let hits = recv
        .wait_until(WAIT, |h| {
            h.iter()
                .map(|x| x.body["companies"].as_array().map_or(0, Vec::len))
                .sum::<usize>()
                >= 1202
        })
        .await;
    assert_eq!(hits.len(), 7, "1,202 items in chunks of 200");
    assert!(hits.iter().all(|h| h.answered == 200));
    let mut by_id = std::collections::HashMap::new();
    let mut charged = 0.0;
    for hit in &hits {
        let WebhookBody::EnrichCompanies(w) = WebhookEvent::EnrichCompanies
            .parse_body(hit.body.to_string().as_bytes())
            .unwrap()
        else {
            panic!("an enrich_companies body")
        };
        assert!(w.companies.len() <= 200);
        assert_eq!(w.overall_status, OverallEnrichmentStatus::Completed);
        charged += w.credits_used;
        for item in w.companies {
            assert!(
                by_id.insert(item.unique_id.clone(), item).is_none(),
                "each id once"
            );
        }
    }
    assert_eq!(by_id.len(), 1202);
    for (i, d) in known.iter().enumerate() {
        let item = &by_id[&format!("k{i}")];
        assert_eq!(item.status, MatchStatus::Success);
        let company = item.company.as_ref().unwrap();
        assert_eq!(&company.domain, d);
    }
    assert_eq!(by_id["unknown"].status, MatchStatus::NotFound);
    assert!(by_id["unknown"].company.is_none());
    assert_eq!(by_id["empty"].status, MatchStatus::NotEnoughData);
    assert!(
        (charged - 120.0).abs() < 1e-6,
        "0.1 per company found: {charged}"
    );
    let after = c.credit_balance().await.unwrap().credits.unwrap().total();
    assert!((before - after - 120.0).abs() < 1e-6, "{before} → {after}");
}

/// `POST /v2/enrich/people` (openapi `MatchPeopleBody`): "in progress", then one
/// `enrich_people` delivery with each caller id; 3 credits per person found.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_enrich_people_is_delivered_with_the_callers_ids() {
    let h = start(vec![account("bp", Plan::Legacy, 100.0, 0.0, 0.0)]).await;
    let c = client(&h, "bp");
    let ids = some_person_ids(&c, 3).await;
    let mut mapping = serde_json::Map::new();
    for (i, id) in ids.iter().enumerate() {
        mapping.insert(format!("p{i}"), json!({"person": {"id": id}}));
    }
    mapping.insert("ghost".into(), json!({"person": {"id": "no-such-person"}}));
    let recv = Receiver::start(0).await;
    let ack = c
        .enrich_people(&req(json!({
            "peopleDataMapping": mapping,
            "webhookUrl": recv.url("/people"),
        })))
        .await
        .unwrap();
    assert_eq!(ack.status, EnrichBatchAccepted::IN_PROGRESS);
    let hits = recv.wait_until(WAIT, |h| !h.is_empty()).await;
    let WebhookBody::EnrichPeople(w) = WebhookEvent::EnrichPeople
        .parse_body(hits[0].body.to_string().as_bytes())
        .unwrap()
    else {
        panic!("an enrich_people body")
    };
    assert_eq!(w.people.len(), 4);
    for p in &w.people {
        if p.unique_id == "ghost" {
            assert_eq!(p.status, MatchStatus::NotFound);
        } else {
            let i: usize = p.unique_id[1..].parse().unwrap();
            assert_eq!(p.status, MatchStatus::Success);
            assert_eq!(p.person.as_ref().unwrap().id, ids[i]);
        }
    }
    assert!((w.credits_used - 9.0).abs() < 1e-9, "{}", w.credits_used);
}

/// A batch is refused whole before anything is queued: an empty mapping (pydantic's words for a
/// dictionary), a webhook URL that is not http(s), over 10,000 items.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_batch_is_refused_before_anything_is_queued() {
    let h = start(vec![account("bb", Plan::Legacy, 100.0, 0.0, 0.0)]).await;
    let post = |body: Value| {
        let url = format!("{}/v2/enrich/companies", h.base_url);
        async move {
            let r = raw()
                .post(url)
                .header("x-api-token", "bb")
                .json(&body)
                .send()
                .await
                .unwrap();
            (r.status().as_u16(), r.json::<Value>().await.unwrap())
        }
    };
    let (s, b) =
        post(json!({"companyDataMapping": {}, "webhookUrl": "http://127.0.0.1:9/h"})).await;
    assert_eq!(s, 422);
    assert_eq!(b["detail"][0]["type"], "too_short");
    assert_eq!(
        b["detail"][0]["msg"],
        "Dictionary should have at least 1 item after validation, not 0"
    );
    let (s, b) = post(json!({"companyDataMapping": {"a": {"company": {"domain": "x.com"}}}, "webhookUrl": "ftp://h"})).await;
    assert_eq!(s, 422, "{b}");
    assert_eq!(b["detail"][0]["loc"], json!(["body", "webhookUrl"]));
    let many: serde_json::Map<String, Value> = (0..10_001)
        .map(|i| (format!("{i}"), json!({"company": {"domain": "x.com"}})))
        .collect();
    let (s, b) =
        post(json!({"companyDataMapping": many, "webhookUrl": "http://127.0.0.1:9/h"})).await;
    assert_eq!(s, 422);
    assert_eq!(b["detail"][0]["type"], "too_long");
    let bal = client(&h, "bb").credit_balance().await.unwrap();
    assert_eq!(bal.credits.unwrap().total(), 100.0, "nothing charged");
}

/// Issue 38, item 14: a batch on an account short of credits delivers what it can pay for
/// (`Incomplete`, the unpaid found items left out so the caller can tell which to send again),
/// never one empty delivery; and a name several people at the company share is `Too many
/// matches`, not a guess, and not charged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_batch_delivers_what_it_paid_for_and_ambiguous_names_are_too_many_matches() {
    let h = start(vec![
        account("rich", Plan::Legacy, 1000.0, 0.0, 0.0),
        account("short", Plan::Legacy, 0.25, 0.0, 0.0),
    ])
    .await;
    let known = company_domains(&client(&h, "rich"), json!({"size": 5})).await;
    let c = client(&h, "short");
    let mut mapping = serde_json::Map::new();
    for (i, d) in known.iter().enumerate() {
        mapping.insert(format!("k{i}"), json!({"company": {"domain": d}}));
    }
    mapping.insert(
        "unknown".into(),
        json!({"company": {"domain": "no-such-company-zz.com"}}),
    );
    let recv = Receiver::start(0).await;
    c.enrich_companies(&req(json!({
        "companyDataMapping": mapping,
        "webhookUrl": recv.url("/short"),
    })))
    .await
    .unwrap();
    let hits = recv.wait_until(WAIT, |h| !h.is_empty()).await;
    let WebhookBody::EnrichCompanies(w) = WebhookEvent::EnrichCompanies
        .parse_body(hits[0].body.to_string().as_bytes())
        .unwrap()
    else {
        panic!("an enrich_companies body")
    };
    assert_eq!(w.overall_status, OverallEnrichmentStatus::Incomplete);
    let paid: Vec<_> = w
        .companies
        .iter()
        .filter(|x| x.status == MatchStatus::Success)
        .collect();
    assert_eq!(paid.len(), 2, "0.25 credits pay for two companies at 0.1");
    assert!(paid.iter().all(|x| x.company.is_some()));
    assert!(
        w.companies
            .iter()
            .any(|x| x.unique_id == "unknown" && x.status == MatchStatus::NotFound),
        "what was not found costs nothing and is delivered"
    );
    assert_eq!(w.companies.len(), 3, "the three unpaid are left out");
    assert!((w.credits_used - 0.2).abs() < 1e-9, "{}", w.credits_used);
    let left = c.credit_balance().await.unwrap().credits.unwrap().total();
    assert!((left - 0.05).abs() < 1e-9, "{left}");

    // A first name two people at one company share, without a job title: Too many matches.
    let rich = client(&h, "rich");
    let req_people = serde_json::from_value(json!({"size": 100})).unwrap();
    let people = rich.search_people_v3(&req_people).await.unwrap().people;
    let mut by_name = std::collections::HashMap::<(String, String), Vec<String>>::new();
    for p in &people {
        let first = p.person.first_name.clone().unwrap_or_default();
        by_name
            .entry((p.person.domain.clone(), first))
            .or_default()
            .push(p.person.id.clone());
    }
    let ((domain, first), _) = by_name
        .iter()
        .find(|((_, f), ids)| ids.len() > 1 && !f.is_empty())
        .expect("two people at one company with one first name among 100");
    let one = &people[0].person;
    let mut mapping = serde_json::Map::new();
    mapping.insert(
        "shared".into(),
        json!({"person": {"name": first}, "company": {"domain": domain}}),
    );
    mapping.insert(
        "whole".into(),
        json!({"person": {"firstName": one.first_name, "lastName": one.last_name, "jobTitle": one.job_title}, "company": {"domain": one.domain}}),
    );
    let recv = Receiver::start(0).await;
    rich.enrich_people(&req(json!({
        "peopleDataMapping": mapping,
        "webhookUrl": recv.url("/people"),
    })))
    .await
    .unwrap();
    let hits = recv.wait_until(WAIT, |h| !h.is_empty()).await;
    let hit = &hits[0];
    let WebhookBody::EnrichPeople(w) = WebhookEvent::EnrichPeople
        .parse_body(hit.body.to_string().as_bytes())
        .unwrap()
    else {
        panic!("an enrich_people body")
    };
    let item = |id: &str| w.people.iter().find(|p| p.unique_id == id).unwrap();
    assert_eq!(item("shared").status, MatchStatus::TooManyMatches);
    assert!(item("shared").person.is_none());
    assert_eq!(item("whole").status, MatchStatus::Success);
    assert_eq!(item("whole").person.as_ref().unwrap().id, one.id);
    assert!(
        (w.credits_used - 3.0).abs() < 1e-9,
        "only the match is charged: {}",
        w.credits_used
    );
}
