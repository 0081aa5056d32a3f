//! A fault-injecting HTTP proxy for reliability tests: it sits between prospect's client and
//! the sandbox and, per request, passes it through, delays it, refuses it before it reaches
//! the sandbox (429 with `Retry-After: 1`, 503 or 500), answers 500 after the sandbox has
//! answered (and charged), or cuts the connection halfway through the sandbox's answer.
//!
//! Forwarded requests go through one at a time, and the proxy reads the account's balance
//! straight from the sandbox before and after each, so every exchange in its log carries the
//! exact credits it cost and whether its answer reached the client whole.
#![allow(dead_code)]

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use prospect::api::client::{Client, Endpoint};
use prospect::api::error::detail;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// What the proxy did to one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Passed through untouched.
    Pass,
    /// Passed through after this many milliseconds.
    Delay(u64),
    /// Answered with this status without forwarding (nothing reached the sandbox).
    Refuse(u16),
    /// Forwarded (the sandbox answered and charged), then answered 500 to the client.
    ServerErrorAfter,
    /// Forwarded, then the answer was cut off halfway through its body.
    CutMidBody,
    /// Forwarded (charged), then answered with this status instead of the sandbox's answer.
    StatusAfter(u16),
    /// Answered `307 Temporary Redirect` to this port on 127.0.0.1 (same path), not forwarded.
    Redirect(u16),
    /// Forwarded, then one record's `name` in the answer replaced by an object (an answer
    /// that does not decode whole).
    Mutate,
    /// Forwarded, then one record's `name` in the answer replaced by this text (an answer
    /// that decodes, carrying a name the test chose, e.g. a spreadsheet formula).
    Rename(&'static str),
    /// Forwarded (charged), then only the first half of the answer sent, as a whole HTTP
    /// answer: a body that is not JSON whole.
    Truncate,
    /// Forwarded (charged), then the answer's second half replaced by garbage bytes.
    Garbage,
    /// Forwarded (charged), then answered `{"companies": {}, …}`: a member that is not a list.
    NotAList,
    /// Answered 429 with a `Retry-After` of 11 hours without forwarding: the daily allowance.
    DailyLimit,
    /// Forwarded (charged), then the answer's `searchAfter` replaced by the request's own: a
    /// cursor that does not advance.
    SameCursor,
}

impl Fault {
    /// Whether the sandbox saw the request.
    pub fn forwarded(self) -> bool {
        !matches!(
            self,
            Fault::Refuse(_) | Fault::Redirect(_) | Fault::DailyLimit
        )
    }

    /// Whether the client got the sandbox's whole answer.
    pub fn delivered(self) -> bool {
        matches!(self, Fault::Pass | Fault::Delay(_))
    }
}

/// One request through the proxy.
#[derive(Debug, Clone)]
pub struct Exchange {
    /// Path and query, e.g. `/v3/search/companies`.
    pub path: String,
    /// The request body.
    pub body: Bytes,
    /// What was done to it.
    pub fault: Fault,
    /// Credits the sandbox took for it, over all pools (0 when not forwarded).
    pub charged: f64,
    /// The sandbox's status (0 when not forwarded).
    pub status: u16,
    /// The user action (see [`FaultProxy::begin_action`]) during which it arrived.
    pub action: usize,
}

impl Exchange {
    /// The endpoint, when the path is one of the API's.
    pub fn endpoint(&self) -> Option<Endpoint> {
        Endpoint::from_path(self.path.split('?').next().unwrap_or_default())
    }
}

/// Faults for paid searches, in turn: every kind comes up within a short script.
const SEARCH_SCHEDULE: [Fault; 10] = [
    Fault::Pass,
    Fault::CutMidBody,
    Fault::Delay(300),
    Fault::ServerErrorAfter,
    Fault::Refuse(429),
    Fault::Pass,
    Fault::Refuse(503),
    Fault::Refuse(500),
    Fault::Delay(50),
    Fault::CutMidBody,
];

struct Inner {
    upstream: String,
    /// The sandbox itself, for balances.
    direct: Client,
    http: reqwest::Client,
    rng: Mutex<StdRng>,
    searches: AtomicUsize,
    enabled: AtomicBool,
    /// Every request, the balance's too, is answered as the used-up daily allowance.
    daily: AtomicBool,
    action: AtomicUsize,
    serial: tokio::sync::Mutex<()>,
    inflight: AtomicUsize,
    last_activity: Mutex<Instant>,
    log: Mutex<Vec<Exchange>>,
    /// Faults for the next paid requests, in order, before the random ones.
    script: Mutex<std::collections::VecDeque<Fault>>,
    /// Requests that arrived, counted before anything is done with them.
    arrived: AtomicUsize,
    /// Whether each forwarded request's charge is measured (two balance reads around it,
    /// which count against the account's rate limit).
    measure: bool,
}

/// A running proxy on 127.0.0.1.
pub struct FaultProxy {
    /// Where clients should point, e.g. `http://127.0.0.1:41234`.
    pub base_url: String,
    inner: Arc<Inner>,
    task: tokio::task::JoinHandle<()>,
}

impl FaultProxy {
    /// Starts a proxy in front of `upstream` (a sandbox base URL) for the account of `token`
    /// (whose balance it reads directly), with faults drawn from `seed`.
    pub async fn start(upstream: &str, token: &str, seed: u64) -> FaultProxy {
        FaultProxy::start_with(upstream, token, seed, true).await
    }

    /// A proxy that does not read balances around requests (their `charged` is 0): for tests
    /// of the rate limit, where those reads would count.
    pub async fn start_unmeasured(upstream: &str, token: &str) -> FaultProxy {
        FaultProxy::start_with(upstream, token, 0, false).await
    }

    async fn start_with(upstream: &str, token: &str, seed: u64, measure: bool) -> FaultProxy {
        let inner = Arc::new(Inner {
            upstream: upstream.trim_end_matches('/').to_string(),
            direct: Client::new(upstream, token).expect("client"),
            http: reqwest::Client::builder().no_proxy().build().unwrap(),
            rng: Mutex::new(StdRng::seed_from_u64(seed)),
            searches: AtomicUsize::new(0),
            enabled: AtomicBool::new(true),
            daily: AtomicBool::new(false),
            action: AtomicUsize::new(0),
            serial: tokio::sync::Mutex::new(()),
            inflight: AtomicUsize::new(0),
            last_activity: Mutex::new(Instant::now()),
            log: Mutex::new(Vec::new()),
            script: Mutex::new(Default::default()),
            arrived: AtomicUsize::new(0),
            measure,
        });
        let app = axum::Router::new()
            .fallback(handle)
            .with_state(inner.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.ok();
        });
        FaultProxy {
            base_url,
            inner,
            task,
        }
    }

    /// Spawns `cmd` (stdout and stderr piped) with its first paid request held back `hold_ms`
    /// milliseconds, and returns once that request reached the proxy (after the plan's
    /// balance read): the test can then act while the answer is on its way.
    pub async fn spawn_held(
        &self,
        mut cmd: std::process::Command,
        hold_ms: u64,
    ) -> std::process::Child {
        self.script([Fault::Delay(hold_ms)]);
        let arrived = self.arrived();
        let child = cmd
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let t0 = Instant::now();
        while self.arrived() < arrived + 2 {
            assert!(
                t0.elapsed() < Duration::from_secs(20),
                "the paid request is sent"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        child
    }

    /// Answers every request, free or paid, as the used-up daily allowance
    /// ([`Fault::DailyLimit`]) while `on`.
    pub fn set_daily_limit(&self, on: bool) {
        self.inner.daily.store(on, Ordering::SeqCst);
    }

    /// Turns faults on or off (off: every request passes).
    pub fn set_faults(&self, on: bool) {
        self.inner.enabled.store(on, Ordering::SeqCst);
    }

    /// Faults for the next paid requests (every endpoint but the free reads), in order; once
    /// used up, faults are drawn as before (or none, with [`FaultProxy::set_faults`] off).
    pub fn script(&self, faults: impl IntoIterator<Item = Fault>) {
        self.inner.script.lock().unwrap().extend(faults);
    }

    /// Requests that have arrived so far (counted on arrival, before any fault or forwarding).
    pub fn arrived(&self) -> usize {
        self.inner.arrived.load(Ordering::SeqCst)
    }

    /// Marks the start of the next user action; exchanges are tagged with it.
    pub fn begin_action(&self) -> usize {
        self.inner.action.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// Every exchange so far, in arrival order.
    pub fn log(&self) -> Vec<Exchange> {
        self.inner.log.lock().unwrap().clone()
    }

    /// The account's total balance over all pools, read from the sandbox directly.
    pub async fn balance(&self) -> f64 {
        total_balance(&self.inner.direct).await
    }

    /// Waits until nothing is in flight and nothing arrived for `quiet` (at most `limit`).
    pub async fn settle(&self, quiet: Duration, limit: Duration) {
        let t0 = Instant::now();
        loop {
            let idle = self.inner.inflight.load(Ordering::SeqCst) == 0
                && self.inner.last_activity.lock().unwrap().elapsed() >= quiet;
            if idle || t0.elapsed() > limit {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn total_balance(c: &Client) -> f64 {
    let b = c.credit_balance().await.expect("balance from the sandbox");
    [b.credits, b.email_credits, b.phone_credits]
        .into_iter()
        .flatten()
        .map(|p| p.one_time + p.recurrent)
        .sum()
}

impl Inner {
    fn pick(&self, path: &str) -> Fault {
        if self.daily.load(Ordering::SeqCst) {
            return Fault::DailyLimit;
        }
        let paid = Endpoint::from_path(path).is_some_and(|e| {
            !matches!(
                e,
                Endpoint::DataFields | Endpoint::CreditBalance | Endpoint::WarmupCompanies
            )
        });
        if paid && let Some(f) = self.script.lock().unwrap().pop_front() {
            return f;
        }
        if !self.enabled.load(Ordering::SeqCst) {
            return Fault::Pass;
        }
        let is_search = Endpoint::from_path(path).is_some_and(Endpoint::is_search);
        if is_search {
            let n = self.searches.fetch_add(1, Ordering::SeqCst);
            return SEARCH_SCHEDULE[n % SEARCH_SCHEDULE.len()];
        }
        let mut rng = self.rng.lock().unwrap();
        match rng.random_range(0..100) {
            0..10 => Fault::Delay(rng.random_range(10..400)),
            10..15 => Fault::Refuse(429),
            15..20 => Fault::Refuse(503),
            20..25 => Fault::Refuse(500),
            25..30 => Fault::ServerErrorAfter,
            30..35 => Fault::CutMidBody,
            _ => Fault::Pass,
        }
    }

    fn touch(&self) {
        *self.last_activity.lock().unwrap() = Instant::now();
    }
}

struct InFlight<'a>(&'a Inner);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.touch();
        self.0.inflight.fetch_sub(1, Ordering::SeqCst);
    }
}

fn json(status: u16, text: &str) -> Response {
    let mut r = Response::new(Body::from(
        serde_json::json!({ "detail": text }).to_string(),
    ));
    *r.status_mut() = StatusCode::from_u16(status).unwrap();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

async fn handle(State(p): State<Arc<Inner>>, req: Request) -> Response {
    p.inflight.fetch_add(1, Ordering::SeqCst);
    p.arrived.fetch_add(1, Ordering::SeqCst);
    p.touch();
    let _guard = InFlight(&p);
    let (parts, body) = req.into_parts();
    let body = axum::body::to_bytes(body, 64 << 20)
        .await
        .unwrap_or_default();
    let path = parts
        .uri
        .path_and_query()
        .map(|pq| pq.to_string())
        .unwrap_or_else(|| "/".into());
    let fault = p.pick(parts.uri.path());
    let action = p.action.load(Ordering::SeqCst);
    let record = |charged: f64, status: u16| {
        p.log.lock().unwrap().push(Exchange {
            path: path.clone(),
            body: body.clone(),
            fault,
            charged,
            status,
            action,
        });
    };
    match fault {
        Fault::Refuse(429) => {
            record(0.0, 0);
            let mut r = json(429, detail::RATE_LIMITED);
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            return r;
        }
        Fault::Refuse(code) => {
            record(0.0, 0);
            return json(code, detail::INTERNAL);
        }
        Fault::DailyLimit => {
            record(0.0, 0);
            let mut r = json(429, detail::RATE_LIMITED);
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("39600"));
            return r;
        }
        Fault::Delay(ms) => tokio::time::sleep(Duration::from_millis(ms)).await,
        Fault::Redirect(port) => {
            record(0.0, 0);
            let mut r = json(307, "moved");
            r.headers_mut().insert(
                header::LOCATION,
                HeaderValue::from_str(&format!("http://127.0.0.1:{port}{path}")).unwrap(),
            );
            return r;
        }
        _ => {}
    }

    // Forward, one at a time, with the balance read around it.
    let serial = p.serial.lock().await;
    let before = if p.measure {
        total_balance(&p.direct).await
    } else {
        0.0
    };
    let mut up = p
        .http
        .request(parts.method.clone(), format!("{}{}", p.upstream, path))
        .body(body.clone());
    for (name, value) in &parts.headers {
        if name != header::HOST && name != header::CONTENT_LENGTH {
            up = up.header(name, value);
        }
    }
    let (status, headers, answer) = match up.send().await {
        Ok(r) => {
            let status = r.status();
            let headers = r.headers().clone();
            let bytes = r.bytes().await.unwrap_or_default();
            (status, headers, bytes)
        }
        Err(_) => {
            drop(serial);
            record(0.0, 0);
            return json(502, "upstream unreachable");
        }
    };
    let after = if p.measure {
        total_balance(&p.direct).await
    } else {
        0.0
    };
    drop(serial);
    record(
        ((before - after) * 1000.0).round() / 1000.0,
        status.as_u16(),
    );

    match fault {
        Fault::ServerErrorAfter => json(500, detail::INTERNAL),
        Fault::StatusAfter(code) => json(code, detail::INTERNAL),
        Fault::Mutate | Fault::Rename(_) => {
            let name = match fault {
                Fault::Rename(text) => serde_json::json!(text),
                _ => serde_json::json!({"mutated": true}),
            };
            let mut v: serde_json::Value = serde_json::from_slice(&answer).unwrap_or_default();
            if let Some(list) = v.get_mut("companies").and_then(|c| c.as_array_mut()) {
                let i = 1.min(list.len().saturating_sub(1));
                if let Some(item) = list.get_mut(i) {
                    let target = match item.get_mut("company") {
                        Some(c) if c.is_object() => c,
                        _ => item,
                    };
                    target["name"] = name;
                }
            }
            let mut r = Response::new(Body::from(serde_json::to_vec(&v).unwrap()));
            *r.status_mut() = StatusCode::from_u16(status.as_u16()).unwrap();
            r.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            r
        }
        Fault::SameCursor => {
            let asked: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
            let mut v: serde_json::Value = serde_json::from_slice(&answer).unwrap_or_default();
            v["searchAfter"] = asked.get("searchAfter").cloned().unwrap_or_default();
            let mut r = Response::new(Body::from(serde_json::to_vec(&v).unwrap()));
            *r.status_mut() = StatusCode::from_u16(status.as_u16()).unwrap();
            r.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            r
        }
        Fault::Truncate | Fault::Garbage | Fault::NotAList => {
            let body: Vec<u8> = match fault {
                Fault::Truncate => answer[..answer.len() / 2].to_vec(),
                Fault::Garbage => {
                    let mut b = answer[..answer.len() / 2].to_vec();
                    b.extend((0..answer.len() / 2).map(|i| [0u8, 0xff, b'{', b'"'][i % 4]));
                    b
                }
                _ => {
                    let mut v: serde_json::Value =
                        serde_json::from_slice(&answer).unwrap_or_default();
                    v["companies"] = serde_json::json!({});
                    serde_json::to_vec(&v).unwrap()
                }
            };
            let mut r = Response::new(Body::from(body));
            *r.status_mut() = StatusCode::from_u16(status.as_u16()).unwrap();
            r.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            r
        }
        Fault::CutMidBody => {
            let half = answer.slice(..answer.len() / 2);
            let chunks: Vec<Result<Bytes, std::io::Error>> = vec![
                Ok(half),
                Err(std::io::Error::other("connection cut by the fault proxy")),
            ];
            let mut r = Response::new(Body::from_stream(futures::stream::iter(chunks)));
            *r.status_mut() = StatusCode::from_u16(status.as_u16()).unwrap();
            if let Some(ct) = headers.get(header::CONTENT_TYPE) {
                r.headers_mut().insert(header::CONTENT_TYPE, ct.clone());
            }
            r.headers_mut()
                .insert(header::CONTENT_LENGTH, HeaderValue::from(answer.len()));
            r
        }
        _ => {
            let mut r = Response::new(Body::from(answer));
            *r.status_mut() = StatusCode::from_u16(status.as_u16()).unwrap();
            for (name, value) in &headers {
                if name != header::CONTENT_LENGTH && name != header::TRANSFER_ENCODING {
                    r.headers_mut().insert(name, value.clone());
                }
            }
            r
        }
    }
}
