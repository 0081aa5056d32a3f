//! The client against real HTTP: limits refused without any traffic (closed port), the retry
//! policy (429 / 503 retried, 500 and timeouts never retried for a paid endpoint), the token
//! only in the `x-api-token` header, enrich's 201, decode paths, and the spend engine's pager
//! (`core::engine::search`).
//! The servers here are tiny axum routers on 127.0.0.1; nothing of the client is mocked.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use prospect::api::client::{Client, ClientOptions, Enriched};
use prospect::api::error::ApiError;
use prospect::api::types::*;
use prospect::core::engine;
use prospect::core::request::SearchResponse;
use prospect::core::session::{Freshness, Session};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

const TOKEN: &str = "tok_test_SECRET_4711";

fn req<T: DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{v}: {e}"))
}

fn fast_options() -> ClientOptions {
    ClientOptions {
        timeout: Duration::from_secs(5),
        connect_timeout: Duration::from_secs(1),
        max_attempts: 3,
        base_backoff: Duration::from_millis(10),
        max_retry_after: Duration::from_secs(3),
        ..ClientOptions::default()
    }
}

/// A client pointed at a port nothing listens on: any request that is sent fails with
/// `Network`, so an `Invalid` answer proves nothing was sent.
fn closed_port_client() -> Client {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    drop(l);
    Client::with_options(
        &format!("http://127.0.0.1:{port}"),
        TOKEN,
        ClientOptions {
            max_attempts: 1,
            ..fast_options()
        },
    )
    .unwrap()
}

async fn serve(router: Router) -> String {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(l, router).await.unwrap() });
    format!("http://{addr}")
}

fn assert_invalid<T: std::fmt::Debug>(r: Result<T, ApiError>, what: &str) {
    match r {
        Err(ApiError::Invalid(d)) => assert!(!d.is_empty(), "{what}: empty detail"),
        other => panic!("{what}: expected Invalid, got {other:?}"),
    }
}

#[tokio::test]
async fn limits_are_refused_without_a_request() {
    let c = closed_port_client();
    // Control: a valid request really goes to the closed port and fails on the network.
    let ok: SearchCompaniesV3Request = req(json!({"size": 10}));
    assert!(
        matches!(c.search_companies_v3(&ok).await, Err(ApiError::Network(_))),
        "the control request must reach the (closed) network"
    );

    for body in [
        json!({"size": 0}),
        json!({"size": 10001}),
        json!({"from": 0}),
        json!({"from": 10002}),
        json!({"size": 100, "from": 9950}),
    ] {
        let r: SearchCompaniesV2Request = req(body.clone());
        assert_invalid(
            c.search_companies_v2(&r).await,
            &format!("companies v2 {body}"),
        );
        let r: SearchPeopleV2Request = req(body.clone());
        assert_invalid(c.search_people_v2(&r).await, &format!("people v2 {body}"));
    }
    let r: SearchPeopleV2Request = req(json!({"searchAfter": "abc", "onePersonPerDomain": true}));
    assert_invalid(
        c.search_people_v2(&r).await,
        "searchAfter with onePersonPerDomain",
    );
    let r: SearchPeopleV2Request = req(json!({"peoplePerCompany": 6}));
    assert_invalid(c.search_people_v2(&r).await, "peoplePerCompany v2 6");
    let r: SearchPeopleV3Request = req(json!({"peoplePerCompany": 21}));
    assert_invalid(c.search_people_v3(&r).await, "peoplePerCompany v3 21");
    let r: SearchPeopleV3Request = req(json!({"size": 10001}));
    assert_invalid(c.search_people_v3(&r).await, "people v3 size");
    let r: SearchCompaniesV3Request = req(json!({"size": 0}));
    assert_invalid(c.search_companies_v3(&r).await, "companies v3 size 0");
    let r: SearchPeoplePreviewRequest = req(json!({"size": 51}));
    assert_invalid(c.search_people_preview(&r).await, "preview size 51");

    let domains: Vec<String> = (0..1001).map(|i| format!("d{i}.com")).collect();
    let r: LookupCompaniesRequest = req(json!({ "domains": domains }));
    assert_invalid(c.lookup_companies(&r).await, "lookup 1001 domains");
    let r: LookupCompaniesRequest = req(json!({ "domains": [] }));
    assert_invalid(c.lookup_companies(&r).await, "lookup 0 domains");
    let handles: Vec<String> = (0..600).map(|i| format!("h{i}")).collect();
    let ids: Vec<String> = (0..401).map(|i| format!("i{i}")).collect();
    let r: LookupPeopleRequest = req(json!({ "linkedinHandles": handles, "serviceIds": ids }));
    assert_invalid(c.lookup_people(&r).await, "lookup people 1001 in total");
    let r: LookupPeopleRequest = req(json!({}));
    assert_invalid(c.lookup_people(&r).await, "lookup people without lists");

    let ids: Vec<String> = (0..501).map(|i| format!("p{i}")).collect();
    let r: RevealEmailsRequest = req(json!({"personIds": ids, "webhookUrl": "http://h/x"}));
    assert_invalid(c.reveal_emails(&r).await, "reveal emails 501");
    let r: RevealPhonesRequest = req(json!({"personIds": ids, "webhookUrl": "http://h/x"}));
    assert_invalid(c.reveal_phones(&r).await, "reveal phones 501");
    let r: RevealPhonesRequest = req(json!({"personIds": [], "webhookUrl": "http://h/x"}));
    assert_invalid(c.reveal_phones(&r).await, "reveal phones 0");

    let r: EnrichPersonRequest = req(json!({"person": {}}));
    assert_eq!(c.enrich_person(&r).await, Err(ApiError::EmptyPersonBody));
    let r: EnrichPersonRequest = req(json!({"person": {"name": "  "}}));
    assert_eq!(c.enrich_person(&r).await, Err(ApiError::EmptyPersonBody));
    let r: EnrichCompanyRequest = req(json!({}));
    assert_eq!(c.enrich_company(&r).await, Err(ApiError::EmptyBody));
}

#[tokio::test]
async fn network_errors_do_not_contain_the_token() {
    let c = closed_port_client();
    let err = c.credit_balance().await.unwrap_err();
    assert!(matches!(err, ApiError::Network(_)), "{err:?}");
    let text = format!("{err} {err:?} {}", err.user_message());
    assert!(!text.contains(TOKEN), "{text}");
}

#[derive(Clone, Default)]
struct Seen {
    hits: Arc<AtomicUsize>,
    bodies: Arc<Mutex<Vec<Value>>>,
}

const V3_EMPTY: &str = r#"{"detail":"OK","creditsUsed":0,"total":0,"companies":[]}"#;
const BALANCE: &str = r#"{"credits":{"oneTime":10,"recurrent":5.5},"emailCredits":{"oneTime":1,"recurrent":0},"phoneCredits":{"oneTime":0,"recurrent":0},"dailyLimitRateLeft":999,"dailyLimitRateSecondsToReset":3600}"#;

fn json_answer(status: u16, body: &str) -> Response {
    (
        StatusCode::from_u16(status).unwrap(),
        [("content-type", "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// A router answering `script[n]` to the n-th call (the last entry repeats).
fn scripted(
    path: &'static str,
    script: Vec<(u16, Option<&'static str>, &'static str)>,
) -> (Router, Seen) {
    let seen = Seen::default();
    let script = Arc::new(script);
    let handler = {
        let script = script.clone();
        move |State(s): State<Seen>| {
            let script = script.clone();
            async move {
                let n = s.hits.fetch_add(1, Ordering::SeqCst);
                let (status, retry_after, body) = script[n.min(script.len() - 1)];
                let mut r = json_answer(status, body);
                if let Some(ra) = retry_after {
                    r.headers_mut().insert("retry-after", ra.parse().unwrap());
                }
                r
            }
        }
    };
    let router = Router::new()
        .route(path, get(handler.clone()).post(handler))
        .with_state(seen.clone());
    (router, seen)
}

#[tokio::test]
async fn retry_after_429_then_success_on_a_paid_endpoint() {
    let (router, seen) = scripted(
        "/v3/search/companies",
        vec![
            (429, Some("1"), r#"{"detail":"Too many requests"}"#),
            (200, None, V3_EMPTY),
        ],
    );
    let base = serve(router).await;
    let c = Client::with_options(&base, TOKEN, fast_options()).unwrap();
    let started = Instant::now();
    let r: SearchCompaniesV3Request = req(json!({"size": 1}));
    c.search_companies_v3(&r)
        .await
        .expect("second attempt succeeds");
    assert_eq!(seen.hits.load(Ordering::SeqCst), 2);
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "waited Retry-After"
    );
}

#[tokio::test]
async fn retry_after_beyond_the_cap_is_returned_at_once() {
    let (router, seen) = scripted("/v3/search/companies", vec![(429, Some("120"), "{}")]);
    let c = Client::with_options(&serve(router).await, TOKEN, fast_options()).unwrap();
    let r: SearchCompaniesV3Request = req(json!({"size": 1}));
    assert_eq!(
        c.search_companies_v3(&r).await.unwrap_err(),
        ApiError::RateLimited {
            retry_after: Some(Duration::from_secs(120))
        }
    );
    assert_eq!(seen.hits.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn status_500_is_not_retried_for_a_paid_endpoint() {
    let (router, seen) = scripted(
        "/v3/search/companies",
        vec![
            (500, None, r#"{"detail":"Internal Server Error"}"#),
            (200, None, V3_EMPTY),
        ],
    );
    let c = Client::with_options(&serve(router).await, TOKEN, fast_options()).unwrap();
    let r: SearchCompaniesV3Request = req(json!({"size": 1}));
    assert_eq!(
        c.search_companies_v3(&r).await.unwrap_err(),
        ApiError::Server {
            status: 500,
            detail: Some("Internal Server Error".into())
        }
    );
    assert_eq!(seen.hits.load(Ordering::SeqCst), 1);
}

/// A 503 may come after the charge (issue 15): a paid request is never sent again after it;
/// a free read is, with bounded attempts.
#[tokio::test]
async fn status_503_is_never_resent_for_a_paid_request_and_retried_for_a_free_read() {
    let (router, seen) = scripted("/v3/search/companies", vec![(503, None, "{}")]);
    let c = Client::with_options(&serve(router).await, TOKEN, fast_options()).unwrap();
    let r: SearchCompaniesV3Request = req(json!({"size": 1}));
    assert!(matches!(
        c.search_companies_v3(&r).await,
        Err(ApiError::Server { status: 503, .. })
    ));
    assert_eq!(seen.hits.load(Ordering::SeqCst), 1, "sent once");

    let (router, seen) = scripted("/v2/credits/balance", vec![(503, None, "{}")]);
    let c = Client::with_options(&serve(router).await, TOKEN, fast_options()).unwrap();
    assert!(c.credit_balance().await.is_err());
    assert_eq!(seen.hits.load(Ordering::SeqCst), 3, "max_attempts = 3");
}

/// A redirect is an error, never followed: the other host gets nothing, so never the token.
#[tokio::test]
async fn a_redirect_is_an_error_and_never_followed() {
    let (elsewhere, seen_elsewhere) = scripted("/v2/lookup/companies", vec![(200, None, "{}")]);
    let elsewhere = serve(elsewhere).await;
    let target = format!("{elsewhere}/v2/lookup/companies?token=x");
    let router = Router::new().route(
        "/v2/lookup/companies",
        post(move || {
            let target = target.clone();
            async move {
                let mut r = (StatusCode::TEMPORARY_REDIRECT, "moved").into_response();
                r.headers_mut().insert("location", target.parse().unwrap());
                r
            }
        }),
    );
    let c = Client::with_options(&serve(router).await, TOKEN, fast_options()).unwrap();
    let r: LookupCompaniesRequest = req(json!({"domains": ["a.com"]}));
    let e = c.lookup_companies(&r).await.unwrap_err();
    match &e {
        ApiError::Redirected { status, location } => {
            assert_eq!(*status, 307);
            let l = location.as_deref().unwrap();
            assert!(
                l.ends_with("/v2/lookup/companies") && !l.contains("token"),
                "{l}"
            );
        }
        other => panic!("expected Redirected, got {other:?}"),
    }
    assert!(!e.user_message().contains(TOKEN));
    assert_eq!(seen_elsewhere.hits.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn free_reads_retry_500() {
    let (router, seen) = scripted(
        "/v2/credits/balance",
        vec![(500, None, "{}"), (200, None, BALANCE)],
    );
    let c = Client::with_options(&serve(router).await, TOKEN, fast_options()).unwrap();
    c.credit_balance().await.expect("retried");
    assert_eq!(seen.hits.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_paid_request_that_times_out_is_not_sent_again() {
    let hits = Arc::new(AtomicUsize::new(0));
    let h = hits.clone();
    let router = Router::new().route(
        "/v2/enrich/person",
        post(move || {
            let h = h.clone();
            async move {
                h.fetch_add(1, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_secs(3)).await;
                json_answer(200, "{}")
            }
        }),
    );
    let c = Client::with_options(
        &serve(router).await,
        TOKEN,
        ClientOptions {
            timeout: Duration::from_millis(300),
            ..fast_options()
        },
    )
    .unwrap();
    let r: EnrichPersonRequest = req(json!({"person": {"name": "Ada Lovelace"}}));
    assert_eq!(c.enrich_person(&r).await.unwrap_err(), ApiError::Timeout);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(hits.load(Ordering::SeqCst), 1);
}

/// What the server saw: the `x-api-token` header and the request URI.
type Received = (Option<String>, String);

#[tokio::test]
async fn the_token_travels_only_in_the_header() {
    let got: Arc<Mutex<Vec<Received>>> = Arc::default();
    let g = got.clone();
    let router = Router::new().route(
        "/v2/credits/balance",
        get(move |headers: HeaderMap, uri: Uri| {
            let g = g.clone();
            async move {
                let tok = headers
                    .get("x-api-token")
                    .map(|v| v.to_str().unwrap().to_string());
                g.lock().unwrap().push((tok, uri.to_string()));
                json_answer(200, BALANCE)
            }
        }),
    );
    let base = serve(router).await;
    Client::new(&base, TOKEN)
        .unwrap()
        .credit_balance()
        .await
        .unwrap();
    // An empty token sends no header at all (the service then answers MissingToken).
    Client::new(&base, "")
        .unwrap()
        .credit_balance()
        .await
        .unwrap();
    let got = got.lock().unwrap();
    assert_eq!(got[0].0.as_deref(), Some(TOKEN));
    assert!(
        !got[0].1.contains(TOKEN) && !got[0].1.contains('?'),
        "{}",
        got[0].1
    );
    assert_eq!(got[1].0, None);
}

#[tokio::test]
async fn enrich_201_is_gathering_and_404_is_not_found() {
    let (router, _) = scripted(
        "/v2/enrich/person",
        vec![
            (
                201,
                None,
                r#"{"detail":"Data gathering process has started. Please try again later."}"#,
            ),
            (404, None, r#"{"detail":"No matching record found"}"#),
        ],
    );
    let c = Client::with_options(&serve(router).await, TOKEN, fast_options()).unwrap();
    let r: EnrichPersonRequest = req(json!({"person": {"linkedin": "ada"}}));
    assert_eq!(
        c.enrich_person(&r).await.unwrap(),
        Enriched::Gathering {
            detail: "Data gathering process has started. Please try again later.".into()
        }
    );
    assert_eq!(
        c.enrich_person(&r).await.unwrap_err(),
        ApiError::NotFound {
            detail: Some("No matching record found".into())
        }
    );
}

#[tokio::test]
async fn section_7_answers_arrive_as_their_variants() {
    let (router, _) = scripted(
        "/v2/reveal/phones",
        vec![
            (402, None, r#"{"detail":"Insufficient phone credits"}"#),
            (
                403,
                None,
                r#"{"detail":"Current API token is not registered in our database"}"#,
            ),
            (
                422,
                None,
                r#"{"detail":[{"loc":["body","personIds"],"msg":"Field required","type":"missing"}]}"#,
            ),
        ],
    );
    let c = Client::with_options(&serve(router).await, TOKEN, fast_options()).unwrap();
    let r: RevealPhonesRequest = req(json!({"personIds": ["p1"], "webhookUrl": "http://h/x"}));
    assert_eq!(
        c.reveal_phones(&r).await.unwrap_err(),
        ApiError::InsufficientCredits {
            pool: prospect::api::cost::CreditPool::Phone
        }
    );
    assert_eq!(
        c.reveal_phones(&r).await.unwrap_err(),
        ApiError::UnknownToken
    );
    let ApiError::Validation { detail } = c.reveal_phones(&r).await.unwrap_err() else {
        panic!("expected Validation")
    };
    assert_eq!(detail[0].kind, "missing");
}

#[tokio::test]
async fn decode_errors_name_the_failing_path() {
    let (router, _) = scripted(
        "/v3/search/companies",
        vec![
            (
                200,
                None,
                r#"{"detail":"OK","creditsUsed":0,"companies":[{"company":{"domain":"a.com"}},{"company":{"domain":["not","a","string"]}}]}"#,
            ),
            (
                200,
                None,
                r#"{"detail":"OK","creditsUsed":0,"companies":[{"company":"ada@example.com"}]}"#,
            ),
        ],
    );
    let c = Client::with_options(&serve(router).await, TOKEN, fast_options()).unwrap();
    let r: SearchCompaniesV3Request = req(json!({"size": 2}));
    match c.search_companies_v3(&r).await {
        Err(ApiError::Decode { path, .. }) => {
            assert_eq!(path, "companies[1].company.domain")
        }
        other => panic!("expected Decode, got {other:?}"),
    }
    match c.search_companies_v3(&r).await {
        Err(e @ ApiError::Decode { .. }) => {
            let text = format!("{e} {e:?} {}", e.user_message());
            assert!(text.contains("companies[0].company"), "{text}");
            assert!(
                !text.contains("ada@example.com"),
                "input values are blanked: {text}"
            );
        }
        other => panic!("expected Decode, got {other:?}"),
    }
}

#[tokio::test]
async fn pager_v2_stays_inside_the_from_window() {
    let seen = Seen::default();
    let router = Router::new()
        .route(
            "/v2/search/people",
            post(
                |State(s): State<Seen>, axum::Json(body): axum::Json<Value>| async move {
                    s.bodies.lock().unwrap().push(body.clone());
                    let size = body["size"].as_u64().unwrap() as usize;
                    let from = body["from"].as_u64().unwrap_or(1) as usize;
                    let people: Vec<Value> = (from..from + size)
                        .map(|i| json!({"id": format!("p{i}"), "domain": "acme.com"}))
                        .collect();
                    axum::Json(json!({"detail": "OK", "creditsUsed": 0, "total": 50000,
                                      "people": people}))
                },
            ),
        )
        .with_state(seen.clone());
    let c = Client::with_options(&serve(router).await, TOKEN, fast_options()).unwrap();
    // onePersonPerDomain cannot be combined with searchAfter: pages with `from` only.
    let (items, report) = engine_search(
        &c,
        prospect::api::client::Endpoint::SearchPeopleV2,
        json!({"from": 9990, "onePersonPerDomain": true}),
        1000,
    )
    .await;
    assert_eq!(items.len(), 11, "9990..=10000");
    assert!(report.error.is_none(), "{:?}", report.error);
    let bodies = seen.bodies.lock().unwrap().clone();
    assert_eq!(bodies.len(), 1);
    assert_eq!(
        (bodies[0]["from"].as_u64(), bodies[0]["size"].as_u64()),
        (Some(9990), Some(11))
    );
    assert!(bodies[0].get("searchAfter").is_none_or(Value::is_null));
}

/// Pages through a search with the spend engine's pager over `c` and a store in memory:
/// the keys of the records (company domains, person ids) and the report.
async fn engine_search(
    c: &Client,
    endpoint: prospect::api::client::Endpoint,
    body: Value,
    limit: u64,
) -> (Vec<String>, engine::RunReport) {
    let s = Session::new(
        c.clone(),
        prospect::store::Store::open_in_memory().unwrap(),
        "test",
    );
    let stop = tokio_util::sync::CancellationToken::new();
    let mut keys = Vec::new();
    let report = engine::search(
        &s,
        engine::SearchOf {
            endpoint: endpoint.path(),
            body: &body,
            limit,
            set: None,
            rows: None,
        },
        Freshness::Refresh,
        None,
        &stop,
        |page| {
            let all: Vec<String> = match page.response {
                SearchResponse::CompaniesV3(r) => {
                    r.companies.into_iter().map(|c| c.company.domain).collect()
                }
                SearchResponse::CompaniesV2(r) => {
                    r.companies.into_iter().map(|c| c.company.domain).collect()
                }
                SearchResponse::PeopleV3(r) => r.people.into_iter().map(|p| p.person.id).collect(),
                SearchResponse::PeopleV2(r) => r.people.into_iter().map(|p| p.id).collect(),
            };
            keys.extend(all.into_iter().take(page.take));
            Ok(())
        },
    )
    .await;
    (keys, report)
}

/// A v3 company search over `total` companies `d0.com`.. that pages with `searchAfter`.
fn v3_search_server(total: usize, repeat_cursor: bool) -> (Router, Seen) {
    let seen = Seen::default();
    let router = Router::new()
        .route(
            "/v3/search/companies",
            post(
                move |State(s): State<Seen>, axum::Json(body): axum::Json<Value>| async move {
                    s.hits.fetch_add(1, Ordering::SeqCst);
                    s.bodies.lock().unwrap().push(body.clone());
                    let size = body["size"].as_u64().unwrap_or(50) as usize;
                    let start = body["searchAfter"]
                        .as_str()
                        .map(|c| c.trim_start_matches('c').parse::<usize>().unwrap())
                        .unwrap_or(0);
                    let start = if repeat_cursor { 0 } else { start };
                    let end = (start + size).min(total);
                    let companies: Vec<Value> = (start..end)
                        .map(|i| json!({"company": {"domain": format!("d{i}.com")}, "relevance": "A"}))
                        .collect();
                    let cursor = if repeat_cursor {
                        Some("c0".to_string())
                    } else {
                        (end < total).then(|| format!("c{end}"))
                    };
                    axum::Json(json!({"detail": "OK", "creditsUsed": 0, "total": total,
                                      "searchAfter": cursor, "companies": companies}))
                },
            ),
        )
        .with_state(seen.clone());
    (router, seen)
}

#[tokio::test]
async fn pager_follows_search_after_and_asks_only_for_what_is_needed() {
    let (router, seen) = v3_search_server(7, false);
    let c = Client::with_options(&serve(router).await, TOKEN, fast_options()).unwrap();
    let v3 = prospect::api::client::Endpoint::SearchCompaniesV3;
    // 505 results: pages of 500, the last asks only for what is needed.
    let (domains, _) = engine_search(&c, v3, json!({}), 5).await;
    assert_eq!(domains, ["d0.com", "d1.com", "d2.com", "d3.com", "d4.com"]);
    let bodies = seen.bodies.lock().unwrap().clone();
    assert_eq!(bodies.len(), 1);
    assert_eq!(bodies[0]["size"], 5, "asks only for what is needed");
    assert!(bodies[0].get("searchAfter").is_none_or(Value::is_null));

    // All of them: stops at the end of the cursor / total, never asks for an empty page.
    seen.bodies.lock().unwrap().clear();
    let (all, report) = engine_search(&c, v3, json!({}), 100).await;
    assert_eq!(all.len(), 7);
    assert_eq!(report.requests, 1);
    let bodies = seen.bodies.lock().unwrap().clone();
    let sizes: Vec<u64> = bodies.iter().map(|b| b["size"].as_u64().unwrap()).collect();
    assert_eq!(sizes, [100]);
}

#[tokio::test]
async fn pager_never_requests_a_page_twice() {
    // 5,000 results by its total, but every answer names the same cursor: the first page
    // asks without one, the second with it, and that answer's cursor is the one it was asked
    // with.
    let (router, seen) = v3_search_server(5000, true);
    let c = Client::with_options(&serve(router).await, TOKEN, fast_options()).unwrap();
    let v3 = prospect::api::client::Endpoint::SearchCompaniesV3;
    let (items, report) = engine_search(&c, v3, json!({}), 5000).await;
    assert!(
        report.stuck_cursor,
        "a cursor that does not advance stops the pager"
    );
    assert_eq!(
        seen.hits.load(Ordering::SeqCst),
        2,
        "the repeated cursor is not followed again"
    );
    assert_eq!(items.len(), 1000, "the two pages it paid for, nothing more");
}

/// Pages bought before a request fails are kept and written all the same, though the next
/// request goes out before they are written.
#[tokio::test]
async fn pages_bought_before_a_failure_are_written() {
    let seen = Seen::default();
    let router = Router::new()
        .route(
            "/v3/search/companies",
            post(
                |State(s): State<Seen>, axum::Json(body): axum::Json<Value>| async move {
                    let hit = s.hits.fetch_add(1, Ordering::SeqCst);
                    if hit == 2 {
                        return (
                            axum::http::StatusCode::BAD_REQUEST,
                            axum::Json(json!({"detail": "no"})),
                        );
                    }
                    let start = hit * 500;
                    let size = body["size"].as_u64().unwrap() as usize;
                    let companies: Vec<Value> = (start..start + size)
                        .map(|i| json!({"company": {"domain": format!("d{i}.com")}}))
                        .collect();
                    (
                        axum::http::StatusCode::OK,
                        axum::Json(json!({"detail": "OK", "total": 5000,
                            "searchAfter": format!("c{}", start + size), "companies": companies})),
                    )
                },
            ),
        )
        .with_state(seen.clone());
    let c = Client::with_options(&serve(router).await, TOKEN, fast_options()).unwrap();
    let v3 = prospect::api::client::Endpoint::SearchCompaniesV3;
    let (items, report) = engine_search(&c, v3, json!({}), 5000).await;
    assert!(report.error.is_some(), "the third request failed");
    assert_eq!(seen.hits.load(Ordering::SeqCst), 3);
    assert_eq!(items.len(), 1000, "the two pages bought before it");
    assert_eq!(items[999], "d999.com");
}

#[tokio::test]
async fn pager_v2_pages_with_from_when_there_is_no_cursor() {
    let seen = Seen::default();
    let router = Router::new()
        .route(
            "/v2/search/companies",
            post(
                |State(s): State<Seen>, axum::Json(body): axum::Json<Value>| async move {
                    s.bodies.lock().unwrap().push(body.clone());
                    let size = body["size"].as_u64().unwrap() as usize;
                    let from = body["from"].as_u64().unwrap_or(1) as usize;
                    let total = 9;
                    let companies: Vec<Value> = (from - 1..(from - 1 + size).min(total))
                        .map(|i| json!({"company": {"domain": format!("d{i}.com")}, "score": 0.9}))
                        .collect();
                    axum::Json(json!({"detail": "OK", "creditsUsed": 0, "total": total,
                                      "companies": companies}))
                },
            ),
        )
        .with_state(seen.clone());
    let c = Client::with_options(&serve(router).await, TOKEN, fast_options()).unwrap();
    let v2 = prospect::api::client::Endpoint::SearchCompaniesV2;
    let (items, _) = engine_search(&c, v2, json!({}), 9).await;
    assert_eq!(items.len(), 9);
    assert_eq!(items[8], "d8.com");
    let bodies = seen.bodies.lock().unwrap().clone();
    let pages: Vec<(u64, u64)> = bodies
        .iter()
        .map(|b| (b["from"].as_u64().unwrap_or(1), b["size"].as_u64().unwrap()))
        .collect();
    assert_eq!(pages, [(1, 9)]);
}

#[tokio::test]
async fn pager_yields_an_error_once_and_stops() {
    let (router, seen) = scripted(
        "/v3/search/companies",
        vec![(402, None, r#"{"detail":"Insufficient credits"}"#)],
    );
    let c = Client::with_options(&serve(router).await, TOKEN, fast_options()).unwrap();
    let v3 = prospect::api::client::Endpoint::SearchCompaniesV3;
    let (items, report) = engine_search(&c, v3, json!({}), 10).await;
    assert!(items.is_empty());
    assert!(matches!(
        report.error,
        Some(engine::RunError::Api(ApiError::InsufficientCredits { .. }))
    ));
    assert_eq!(seen.hits.load(Ordering::SeqCst), 1);
}
