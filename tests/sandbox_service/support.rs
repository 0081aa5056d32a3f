//! Shared helpers of the sandbox integration tests: one dataset load per test binary, a
//! sandbox on 127.0.0.1:0 with given accounts, the API client, and a tiny webhook receiver.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::routing::post;
use prospect::api::client::Client;
use prospect::sandbox::service::accounts::{AccountSpec, Plan, PoolSpec};
use prospect::sandbox::service::webhooks::WebhookConfig;
use prospect::sandbox::service::{SandboxConfig, SandboxHandle, spawn};
use serde_json::Value;

/// The token of the rich legacy account every sandbox of [`start`] has.
pub const RICH: &str = "rich-token";

/// A config with fast timings (webhooks after 50 ms, retries from 20 ms, gathering 150 ms),
/// generous limits and the rich account plus `extra`.
pub fn config(extra: Vec<AccountSpec>) -> SandboxConfig {
    let mut accounts = vec![AccountSpec::ample(RICH)];
    accounts.extend(extra);
    SandboxConfig {
        accounts,
        rate_per_minute: 10_000,
        daily_limit: 100_000,
        webhooks: WebhookConfig {
            delay: Duration::from_millis(50),
            first_retry: Duration::from_millis(20),
            max_attempts: 6,
            timeout: Duration::from_secs(5),
        },
        enrich_delay: Duration::from_millis(150),
        db: None, // the embedded dataset, loaded once per process
        ..SandboxConfig::default()
    }
}

/// A sandbox with [`config`]`(extra)`.
pub async fn start(extra: Vec<AccountSpec>) -> SandboxHandle {
    spawn(config(extra)).await.expect("sandbox starts")
}

/// An account with `plan` and the given standard / email / phone one-time credits.
pub fn account(token: &str, plan: Plan, standard: f64, email: f64, phone: f64) -> AccountSpec {
    AccountSpec {
        token: token.into(),
        plan,
        credits: Some(PoolSpec::one_time(standard)),
        email_credits: Some(PoolSpec::one_time(email)),
        phone_credits: Some(PoolSpec::one_time(phone)),
        ..AccountSpec::default()
    }
}

/// The API client for `token` on sandbox `h`.
pub fn client(h: &SandboxHandle, token: &str) -> Client {
    Client::new(&h.base_url, token).expect("client builds")
}

/// A raw HTTP client (no proxy).
pub fn raw() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().unwrap()
}

/// One POST received by a [`Receiver`].
#[derive(Debug, Clone)]
pub struct Hit {
    /// Path and query of the request, e.g. `/hook?secret=s`.
    pub uri: String,
    /// The JSON body.
    pub body: Value,
    /// The status answered.
    pub answered: u16,
}

#[derive(Default)]
struct RecvState {
    hits: Mutex<Vec<Hit>>,
    fail_first: Mutex<usize>,
}

/// A tiny webhook receiver on 127.0.0.1:0 that records every POST; it answers 500 to the
/// first `fail_first` requests and 200 afterwards.
pub struct Receiver {
    /// e.g. `http://127.0.0.1:40000`.
    pub base: String,
    state: Arc<RecvState>,
    _task: tokio::task::JoinHandle<()>,
}

async fn receive(
    State(st): State<Arc<RecvState>>,
    uri: Uri,
    body: axum::body::Bytes,
) -> StatusCode {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let fail = {
        let mut f = st.fail_first.lock().unwrap();
        if *f > 0 {
            *f -= 1;
            true
        } else {
            false
        }
    };
    let answered = if fail { 500 } else { 200 };
    st.hits.lock().unwrap().push(Hit {
        uri: uri.to_string(),
        body,
        answered,
    });
    StatusCode::from_u16(answered).unwrap()
}

impl Receiver {
    /// Starts a receiver.
    pub async fn start(fail_first: usize) -> Receiver {
        let state = Arc::new(RecvState {
            fail_first: Mutex::new(fail_first),
            ..RecvState::default()
        });
        let app = axum::Router::new()
            .route("/{*path}", post(receive))
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Receiver {
            base,
            state,
            _task: task,
        }
    }

    /// A URL of this receiver with `path` (e.g. `/emails?secret=s`).
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    /// Every hit so far.
    pub fn hits(&self) -> Vec<Hit> {
        self.state.hits.lock().unwrap().clone()
    }

    /// Waits (at most `timeout`) until `pred` holds for the hits; returns them.
    pub async fn wait_until(&self, timeout: Duration, pred: impl Fn(&[Hit]) -> bool) -> Vec<Hit> {
        let t0 = Instant::now();
        loop {
            let hits = self.hits();
            if pred(&hits) || t0.elapsed() > timeout {
                return hits;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// The successful (200) hits whose path starts with `path`.
    pub fn delivered(&self, path: &str) -> Vec<Hit> {
        self.hits()
            .into_iter()
            .filter(|h| h.answered == 200 && h.uri.starts_with(path))
            .collect()
    }
}

/// The domains a v3 company search of `body` answers, in order.
pub async fn company_domains(c: &Client, body: serde_json::Value) -> Vec<String> {
    let req = serde_json::from_value(body).expect("a v3 company search body");
    let r = c
        .search_companies_v3(&req)
        .await
        .expect("v3 company search");
    r.companies.into_iter().map(|c| c.company.domain).collect()
}

/// Some person ids of the dataset, from a v3 people search.
pub async fn some_person_ids(c: &Client, n: usize) -> Vec<String> {
    let req = serde_json::from_value(serde_json::json!({ "size": n })).unwrap();
    let r = c.search_people_v3(&req).await.expect("v3 people search");
    r.people.iter().map(|p| p.person.id.clone()).collect()
}
