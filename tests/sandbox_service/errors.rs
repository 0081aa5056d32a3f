//! Every error text of SPEC.md §7 is produced by the sandbox and mapped by the client to its
//! variant; 404, 413, 422 (FastAPI-style detail) and 429 (with `Retry-After`) too.

use std::time::Duration;

use crate::support::*;
use prospect::api::cost::CreditPool;
use prospect::api::error::ApiError;
use prospect::sandbox::service::accounts::{AccountSpec, Plan};
use prospect::sandbox::service::spawn;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

fn req<T: DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v).expect("a valid request body")
}

/// A raw call: status, `Retry-After`, body, and the client's mapping of it.
async fn call(
    method: reqwest::Method,
    url: String,
    header_token: Option<&str>,
    body: Option<&str>,
) -> (u16, Option<String>, Value, ApiError) {
    let mut rb = raw().request(method, url);
    if let Some(t) = header_token {
        rb = rb.header("x-api-token", t);
    }
    if let Some(b) = body {
        rb = rb
            .header("content-type", "application/json")
            .body(b.to_string());
    }
    let r = rb.send().await.unwrap();
    let status = r.status().as_u16();
    let retry = r
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    let retry_d = retry
        .as_ref()
        .and_then(|s| s.parse().ok())
        .map(Duration::from_secs);
    let bytes = r.bytes().await.unwrap();
    let v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (
        status,
        retry,
        v,
        ApiError::from_response(status, retry_d, &bytes),
    )
}

/// The `(type, loc)` of each entry of a 422, the location dotted: `body.personIds.0`.
fn types_and_locs(v: &Value) -> Vec<(String, String)> {
    v["detail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let loc: Vec<String> = e["loc"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().map_or_else(|| s.to_string(), str::to_string))
                .collect();
            (e["type"].as_str().unwrap().to_string(), loc.join("."))
        })
        .collect()
}

fn detail(v: &Value) -> &str {
    v["detail"].as_str().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn authentication_texts() {
    let h = start(vec![]).await;
    let u = |q: &str| format!("{}/v2/credits/balance{q}", h.base_url);
    // both given and different
    let (s, _, v, e) = call(reqwest::Method::GET, u("?apiToken=other"), Some(RICH), None).await;
    assert_eq!(
        (s, detail(&v)),
        (
            400,
            "Conflicting API tokens provided in query parameters and headers"
        )
    );
    assert_eq!(e, ApiError::ConflictingTokens);
    // both given and equal: fine; query only: fine
    assert_eq!(
        call(
            reqwest::Method::GET,
            u(&format!("?apiToken={RICH}")),
            Some(RICH),
            None
        )
        .await
        .0,
        200
    );
    assert_eq!(
        call(
            reqwest::Method::GET,
            u(&format!("?apiToken={RICH}")),
            None,
            None
        )
        .await
        .0,
        200
    );
    // none
    let (s, _, v, e) = call(reqwest::Method::GET, u(""), None, None).await;
    assert_eq!(
        (s, detail(&v)),
        (
            403,
            "API token should be provided in headers or query parameters"
        )
    );
    assert_eq!(e, ApiError::MissingToken);
    // unknown, through the client
    let err = client(&h, "not-registered")
        .credit_balance()
        .await
        .unwrap_err();
    assert_eq!(err, ApiError::UnknownToken);
    let (s, _, v, _) = call(reqwest::Method::GET, u("?apiToken=nope"), None, None).await;
    assert_eq!(
        (s, detail(&v)),
        (403, "Current API token is not registered in our database")
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plans_empty_bodies_not_found_and_validation() {
    let h = start(vec![
        account("std", Plan::Standard, 100.0, 10.0, 10.0),
        account("ent", Plan::Enterprise, 100.0, 10.0, 10.0),
    ])
    .await;
    let std_c = client(&h, "std");
    let e = std_c
        .search_companies_v2(&req(json!({"size": 1})))
        .await
        .unwrap_err();
    assert_eq!(e, ApiError::PlanNotSupported);
    let e = std_c
        .search_people_v2(&req(json!({"size": 1})))
        .await
        .unwrap_err();
    assert_eq!(e, ApiError::PlanNotSupported);
    let e = client(&h, "ent")
        .search_people_v2(&req(json!({"size": 1})))
        .await
        .unwrap_err();
    assert_eq!(e, ApiError::PlanNotSupported);
    // preview: enterprise yes, standard no (403)
    assert!(
        client(&h, "ent")
            .search_people_preview(&req(json!({"size": 1})))
            .await
            .is_ok()
    );
    let e = std_c
        .search_people_preview(&req(json!({"size": 1})))
        .await
        .unwrap_err();
    assert_eq!(e.status(), Some(403));
    // the company preview likewise
    assert!(
        client(&h, "ent")
            .search_companies_preview(&req(json!({"size": 5})))
            .await
            .is_ok()
    );
    let e = std_c
        .search_companies_preview(&req(json!({"size": 5})))
        .await
        .unwrap_err();
    assert_eq!(e.status(), Some(403));
    assert!(e.to_string().contains("not allowed"), "{e}");
    // v3 works on standard
    assert!(
        std_c
            .search_companies_v3(&req(json!({"size": 1})))
            .await
            .is_ok()
    );

    let url = |p: &str| format!("{}{p}", h.base_url);
    let post = reqwest::Method::POST;
    // empty bodies (the client refuses these before sending, so raw)
    let (s, _, v, e) = call(
        post.clone(),
        url("/v2/enrich/company"),
        Some(RICH),
        Some("{}"),
    )
    .await;
    assert_eq!((s, detail(&v), e), (400, "Empty body", ApiError::EmptyBody));
    let (s, _, _, e) = call(
        post.clone(),
        url("/v2/enrich/company"),
        Some(RICH),
        Some("{\"company\":{}}"),
    )
    .await;
    assert_eq!((s, e), (400, ApiError::EmptyBody));
    let (s, _, v, e) = call(
        post.clone(),
        url("/v2/enrich/person"),
        Some(RICH),
        Some("{\"person\":{}}"),
    )
    .await;
    assert_eq!(
        (s, detail(&v), e),
        (400, "Empty `person` body", ApiError::EmptyPersonBody)
    );

    // 404: enrich person without a match; unknown path
    let e = client(&h, RICH)
        .enrich_person(&req(
            json!({"person": {"name": "Nobody Atall Zzyzx", "email": "nobody@nowhere-zz.example"}}),
        ))
        .await
        .unwrap_err();
    assert_eq!(
        e,
        ApiError::NotFound {
            detail: Some("No matching record found".into())
        }
    );
    let (s, _, v, _) = call(
        post.clone(),
        url("/v2/no/such/path"),
        Some(RICH),
        Some("{}"),
    )
    .await;
    assert_eq!((s, detail(&v)), (404, "Not Found"));

    // 422: wrong type, unknown key, malformed JSON, over the limits
    let (s, _, v, e) = call(
        post.clone(),
        url("/v3/search/companies"),
        Some(RICH),
        Some("{\"size\":\"ten\"}"),
    )
    .await;
    assert_eq!(s, 422);
    assert_eq!(v["detail"][0]["loc"], json!(["body", "size"]));
    assert_eq!(v["detail"][0]["type"], "int_parsing");
    match e {
        ApiError::Validation { detail } => assert_eq!(detail[0].path(), "body.size"),
        other => panic!("{other:?}"),
    }
    let (s, _, v, _) = call(
        post.clone(),
        url("/v2/search/companies"),
        Some(RICH),
        Some("{\"size\":1,\"colour\":\"red\"}"),
    )
    .await;
    assert_eq!(
        (s, v["detail"][0]["type"].as_str()),
        (422, Some("extra_forbidden"))
    );
    assert_eq!(v["detail"][0]["loc"], json!(["body", "colour"]));
    let (s, _, v, _) = call(
        post.clone(),
        url("/v2/search/people"),
        Some(RICH),
        Some("{\"size\": 1,"),
    )
    .await;
    assert_eq!(
        (s, v["detail"][0]["type"].as_str()),
        (422, Some("json_invalid"))
    );
    let (s, _, v, _) = call(
        post.clone(),
        url("/v2/search/companies"),
        Some(RICH),
        Some("{\"size\":20000}"),
    )
    .await;
    assert_eq!(s, 422);
    assert_eq!(v["detail"][0]["loc"][1], "size");
    let (s, _, v, _) = call(
        post.clone(),
        url("/v2/autocomplete/skills"),
        Some(RICH),
        Some("{}"),
    )
    .await;
    assert_eq!((s, v["detail"][0]["type"].as_str()), (422, Some("missing")));
    let (s, _, v, _) = call(
        post.clone(),
        url("/v2/reveal/emails"),
        Some(RICH),
        Some("{\"personIds\":[\"a\"],\"webhookUrl\":\"ftp://example.com/x\"}"),
    )
    .await;
    assert_eq!(
        (s, v["detail"][0]["loc"][1].as_str()),
        (422, Some("webhookUrl"))
    );
    // huge body: 413 with a detail, nothing crashes
    let big = format!(
        "{{\"domains\":[{}\"x.com\"]}}",
        "\"a.com\",".repeat(300_000)
    );
    let (s, _, v, _) = call(
        post.clone(),
        url("/v2/lookup/companies"),
        Some(RICH),
        Some(&big),
    )
    .await;
    assert_eq!(s, 413);
    assert!(!detail(&v).is_empty());
    // the same body with no token: the 403 reaches the client, not a broken pipe
    let (s, _, _, e) = call(post.clone(), url("/v2/lookup/companies"), None, Some(&big)).await;
    assert_eq!(s, 403);
    assert!(matches!(e, ApiError::MissingToken), "{e:?}");
    // still alive
    assert!(client(&h, RICH).credit_balance().await.is_ok());
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn insufficient_credits_per_pool_charge_nothing() {
    let h = start(vec![
        account("broke", Plan::Legacy, 0.0, 0.0, 0.0),
        account("little", Plan::Legacy, 0.5, 1.0, 1.0),
    ])
    .await;
    let broke = client(&h, "broke");
    let e = broke
        .autocomplete_skills(&req(json!({"query": "pro"})))
        .await
        .unwrap_err();
    assert_eq!(
        e,
        ApiError::InsufficientCredits {
            pool: CreditPool::Standard
        }
    );
    let url = format!("{}/v2/search/people", h.base_url);
    let (s, _, v, _) = call(
        reqwest::Method::POST,
        url,
        Some("broke"),
        Some("{\"size\":1}"),
    )
    .await;
    assert_eq!((s, detail(&v)), (402, "Insufficient standard credits"));
    let url = format!("{}/v3/search/companies", h.base_url);
    let (s, _, v, _) = call(
        reqwest::Method::POST,
        url,
        Some("broke"),
        Some("{\"size\":1}"),
    )
    .await;
    assert_eq!((s, detail(&v)), (402, "Insufficient credits"));
    let recv = Receiver::start(0).await;
    let e = broke
        .reveal_emails(&req(
            json!({"personIds": ["x"], "webhookUrl": recv.url("/e")}),
        ))
        .await
        .unwrap_err();
    assert_eq!(
        e,
        ApiError::InsufficientCredits {
            pool: CreditPool::Email
        }
    );
    let e = broke
        .reveal_phones(&req(
            json!({"personIds": ["x"], "webhookUrl": recv.url("/p")}),
        ))
        .await
        .unwrap_err();
    assert_eq!(
        e,
        ApiError::InsufficientCredits {
            pool: CreditPool::Phone
        }
    );
    // free endpoints still work with nothing
    assert!(broke.data_fields().await.is_ok());
    assert!(broke.credit_balance().await.is_ok());

    // 0.5 credits: a search of 10 companies (2 credits) is refused and charges nothing
    let little = client(&h, "little");
    let e = little
        .search_companies_v3(&req(json!({"size": 10})))
        .await
        .unwrap_err();
    assert_eq!(
        e,
        ApiError::InsufficientCredits {
            pool: CreditPool::Standard
        }
    );
    assert!(e.nothing_charged());
    assert_eq!(
        little
            .credit_balance()
            .await
            .unwrap()
            .credits
            .unwrap()
            .one_time,
        0.5
    );
    // but two results (0.4) fit
    let ok = little
        .search_companies_v3(&req(json!({"size": 2})))
        .await
        .unwrap();
    assert!((ok.credits_used - 0.4).abs() < 1e-9);
    let left = little
        .credit_balance()
        .await
        .unwrap()
        .credits
        .unwrap()
        .one_time;
    assert!((left - 0.1).abs() < 1e-9, "{left}");
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pending_verifications_give_in_progress() {
    let mut cfg = config(vec![account("two", Plan::Legacy, 100.0, 2.0, 2.0)]);
    cfg.webhooks.delay = Duration::from_millis(3000);
    let h = spawn(cfg).await.unwrap();
    let c = client(&h, "two");
    let recv = Receiver::start(0).await;
    let ids = some_person_ids(&c, 3).await;
    // two ids reserve both email credits until the webhook is done
    c.reveal_emails(&req(
        json!({"personIds": [ids[0], ids[1]], "webhookUrl": recv.url("/e")}),
    ))
    .await
    .unwrap();
    let e = c
        .reveal_emails(&req(
            json!({"personIds": [ids[2]], "webhookUrl": recv.url("/e")}),
        ))
        .await
        .unwrap_err();
    assert_eq!(
        e,
        ApiError::VerificationsInProgress {
            pool: CreditPool::Email
        }
    );
    let url = format!("{}/v2/reveal/emails", h.base_url);
    let body = json!({"personIds": [ids[2]], "webhookUrl": recv.url("/e")}).to_string();
    let (s, _, v, _) = call(reqwest::Method::POST, url, Some("two"), Some(&body)).await;
    assert_eq!(
        (s, detail(&v)),
        (
            402,
            "Some email verifications are already in progress and might use all your remaining email credits. Please try again later."
        )
    );
    c.reveal_phones(&req(
        json!({"personIds": [ids[0], ids[1], ids[2]], "webhookUrl": recv.url("/p")}),
    ))
    .await
    .unwrap();
    let url = format!("{}/v2/reveal/phones", h.base_url);
    let body = json!({"personIds": [ids[2]], "webhookUrl": recv.url("/p")}).to_string();
    let (s, _, v, e) = call(reqwest::Method::POST, url, Some("two"), Some(&body)).await;
    assert_eq!(
        (s, detail(&v)),
        (
            402,
            "Some phone verifications are already in progress and might use all your remaining phone credits. Please try again later."
        )
    );
    assert_eq!(
        e,
        ApiError::VerificationsInProgress {
            pool: CreditPool::Phone
        }
    );
    // after delivery the reservations are gone: what is left can be used again (or is spent)
    recv.wait_until(Duration::from_secs(5), |h| h.len() >= 2)
        .await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    let b = c.credit_balance().await.unwrap();
    let email_left = b.email_credits.unwrap().one_time;
    let r = c
        .reveal_emails(&req(
            json!({"personIds": [ids[2]], "webhookUrl": recv.url("/e")}),
        ))
        .await;
    if email_left >= 1.0 {
        assert!(r.is_ok(), "{r:?}");
    } else {
        assert_eq!(
            r.unwrap_err(),
            ApiError::InsufficientCredits {
                pool: CreditPool::Email
            }
        );
    }
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limits_answer_429_with_retry_after() {
    let h = start(vec![
        AccountSpec {
            rate_per_minute: Some(3),
            ..AccountSpec::ample("minute")
        },
        AccountSpec {
            daily_limit: Some(4),
            ..AccountSpec::ample("daily")
        },
    ])
    .await;
    let c = client(&h, "minute");
    for _ in 0..3 {
        c.credit_balance().await.unwrap();
    }
    match c.credit_balance().await.unwrap_err() {
        ApiError::RateLimited { retry_after } => {
            let s = retry_after.expect("Retry-After").as_secs();
            assert!((1..=60).contains(&s), "{s}");
        }
        other => panic!("{other:?}"),
    }
    let url = format!("{}/v2/data-fields", h.base_url);
    let (s, retry, _, _) = call(reqwest::Method::GET, url, Some("minute"), None).await;
    assert_eq!(s, 429);
    assert!(retry.unwrap().parse::<u64>().unwrap() >= 1);

    let d = client(&h, "daily");
    let first = d.credit_balance().await.unwrap();
    assert_eq!(first.daily_limit_rate_left, Some(3));
    let reset = first.daily_limit_rate_seconds_to_reset.unwrap();
    assert!((1..=86_400).contains(&reset));
    d.data_fields().await.unwrap();
    let third = d.credit_balance().await.unwrap();
    assert_eq!(third.daily_limit_rate_left, Some(1));
    d.credit_balance().await.unwrap();
    match d.credit_balance().await.unwrap_err() {
        ApiError::RateLimited { retry_after } => assert!(retry_after.unwrap().as_secs() >= 1),
        other => panic!("{other:?}"),
    }
    h.shutdown().await;
}

mod bodies;
