//! The webhook receiver (SPEC.md §6, NOTES.md "Webhooks"): an axum server inside prospect that
//! takes the service's deliveries of reveal and enrich results.
//!
//! - **Where.** `POST {base}/webhooks/{event}?secret=…`, one path per event name of
//!   [`WebhookEvent`]. On the embedded sandbox it listens on 127.0.0.1 on a free port and the
//!   URL is given as it is; for the real service a public URL (a tunnel) forwards to the
//!   listen address ([`ReceiverConfig::public_url`]).
//! - **Security.** The service does not sign deliveries; the documented way is a secret in the
//!   callback URL's query. It is checked before any byte of the body is read: a delivery without
//!   the right secret gets 403 at once, its connection is closed, and nothing is stored. Bodies
//!   above [`ReceiverConfig::body_limit`] get 413.
//! - **Slow or idle peers.** The receiver serves HTTP/1.1 itself (hyper) so it can bound what a
//!   peer may hold: the request head must arrive within [`HEADER_TIMEOUT`], a whole exchange
//!   within [`EXCHANGE_TIMEOUT`], a connection serves one delivery and is closed (no idle
//!   keep-alive), and at most [`MAX_CONNECTIONS`] are open at once (past it a new connection is
//!   closed at once). A thousand slow unauthenticated connections cost a task each and do not
//!   delay a real delivery.
//! - **Validation.** A body that is not its event's shape, with the members openapi.json marks
//!   required ([`WebhookEvent::required_members`]), gets 422 with a `detail` array (SPEC.md
//!   §2.10) and is not stored; `[]` and `{}` included, so the service retries rather than
//!   dropping the results.
//! - **Where, without config.** Reveals on the embedded sandbox, or on a `prospect serve` at a
//!   loopback base URL, use a receiver on 127.0.0.1 with no config ([`receiver_config`]).
//! - **Durability.** A valid delivery is written to the store (through the session) before the
//!   200, so a crash after the 200 loses nothing; a retried delivery changes nothing. A store
//!   that cannot be written answers 500, so the service retries later.
//! - Front ends see deliveries on a broadcast channel ([`Receiver::subscribe`]).

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use std::convert::Infallible;
use std::time::Duration;

use axum::http::{HeaderValue, Response, StatusCode, header};
use chrono::{DateTime, Utc};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use tokio::sync::{Semaphore, broadcast};
use tokio_util::sync::CancellationToken;

use crate::store_task::with_store;
use prospect_api::types::common::{HttpValidationError, LocSegment, ValidationError};
use prospect_api::types::webhooks::{WebhookBody, WebhookEvent};
use prospect_common::fsutil;

/// Largest delivery body accepted by default: 4 MiB (a reveal of 500 ids is far below).
pub const DEFAULT_BODY_LIMIT: usize = 4 * 1024 * 1024;

/// How long a peer may take to send a request's head (request line and headers).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// How long one exchange (head, body, answer) may take in all; the connection is closed after.
pub const EXCHANGE_TIMEOUT: Duration = Duration::from_secs(30);

/// Most connections open at once; past it a new connection is closed at once.
pub const MAX_CONNECTIONS: usize = 4096;

/// Where the receiver listens and how the service reaches it.
#[derive(Clone)]
pub struct ReceiverConfig {
    /// The address to bind (port 0 takes a free port).
    pub listen: SocketAddr,
    /// The URL the service should POST to (e.g. a tunnel's `https://…`), without path;
    /// `None` uses `http://{bound address}`.
    pub public_url: Option<String>,
    /// The secret every delivery must carry as `?secret=`.
    pub secret: String,
    /// Largest body accepted, in bytes.
    pub body_limit: usize,
}

impl std::fmt::Debug for ReceiverConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReceiverConfig")
            .field("listen", &self.listen)
            .field("public_url", &self.public_url)
            .field("secret", &"<redacted>")
            .finish_non_exhaustive()
    }
}

impl ReceiverConfig {
    /// 127.0.0.1 on a free port, reached as it is (the embedded sandbox).
    pub fn loopback(secret: impl Into<String>) -> ReceiverConfig {
        ReceiverConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            public_url: None,
            secret: secret.into(),
            body_limit: DEFAULT_BODY_LIMIT,
        }
    }
}

/// The receiver's secret, kept in `path` (mode 0600): read when the file exists, else a new
/// random 32-byte hex secret is generated and written. Errors: the file cannot be read or
/// written.
pub fn load_or_create_secret(path: &Path) -> std::io::Result<String> {
    match std::fs::read_to_string(path) {
        Ok(s) if s.trim().len() >= 16 => return Ok(s.trim().to_string()),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    use rand::Rng;
    let bytes: [u8; 32] = rand::rng().random();
    let secret: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    fsutil::write_atomic(path, secret.as_bytes(), fsutil::Access::Private)?;
    Ok(secret)
}

/// The receiver for `target`: on the embedded sandbox, 127.0.0.1 on a free port reached as it
/// is; on the real service, config `webhook_listen` reached through `webhook_public_url`. The
/// secret is kept in the data directory ([`load_or_create_secret`]).
///
/// Errors, in words a user can act on: the real service without both config keys ("reveals
/// are disabled: …"), a `webhook_listen` that is not an address, no data directory, or a secret
/// file that cannot be read or written.
pub fn receiver_config(
    settings: &crate::config::Settings,
    target: &crate::config::Target,
) -> anyhow::Result<ReceiverConfig> {
    let secret_path = settings.webhook_secret_path().ok_or_else(|| {
        anyhow::anyhow!("no data directory for the webhook secret: pass --data-dir")
    })?;
    let secret = load_or_create_secret(&secret_path)
        .map_err(|e| anyhow::anyhow!("webhook secret {}: {e}", secret_path.display()))?;
    if target.sandbox || is_loopback_url(&target.base_url) {
        // One address per data dir (issue 34): `webhook_listen` when set, else a port kept in
        // the data dir, so a delivery the service retries after this process ended reaches
        // the next run on the same store.
        let listen = match settings
            .config
            .webhook_listen
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            Some(l) => l.parse().map_err(|_| {
                anyhow::anyhow!("webhook_listen {l:?} is not an address like 127.0.0.1:8788")
            })?,
            None => settings
                .data_dir()
                .map(|d| kept_loopback(&d.join("webhook_port")))
                .unwrap_or(SocketAddr::from(([127, 0, 0, 1], 0))),
        };
        return Ok(ReceiverConfig {
            listen,
            ..ReceiverConfig::loopback(secret)
        });
    }
    let (Some(public), Some(listen)) = (
        settings
            .config
            .webhook_public_url
            .clone()
            .filter(|s| !s.trim().is_empty()),
        settings
            .config
            .webhook_listen
            .clone()
            .filter(|s| !s.trim().is_empty()),
    ) else {
        anyhow::bail!(
            "reveals are disabled: the service delivers them by webhook and cannot reach this \
             machine; set webhook_public_url (e.g. a tunnel's https URL) and webhook_listen in \
             config.toml (see README.md)"
        );
    };
    let listen: SocketAddr = listen.trim().parse().map_err(|_| {
        anyhow::anyhow!("webhook_listen {listen:?} is not an address like 127.0.0.1:8788")
    })?;
    Ok(ReceiverConfig {
        listen,
        public_url: Some(public),
        secret,
        body_limit: DEFAULT_BODY_LIMIT,
    })
}

/// The loopback address of the port kept in `path` (issue 34): read when the file holds one,
/// else a free port is found and written there. A port that cannot be kept (the file cannot be
/// written) is 0, a free port for this run only.
fn kept_loopback(path: &Path) -> SocketAddr {
    let port = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| t.trim().parse::<u16>().ok())
        .filter(|p| *p >= 1024)
        .or_else(|| {
            let free = std::net::TcpListener::bind(("127.0.0.1", 0))
                .and_then(|l| l.local_addr())
                .ok()?
                .port();
            match prospect_common::fsutil::write_atomic(
                path,
                format!("{free}\n").as_bytes(),
                prospect_common::fsutil::Access::Private,
            ) {
                Ok(()) => Some(free),
                Err(e) => {
                    tracing::warn!(file = %path.display(), error = %e, "webhook port not kept");
                    None
                }
            }
        })
        .unwrap_or(0);
    SocketAddr::from(([127, 0, 0, 1], port))
}

/// `true` when `url`'s host is a loopback address (127.0.0.0/8, `::1`, `localhost`): a
/// service on this machine, which reaches a receiver on 127.0.0.1.
pub fn is_loopback_url(url: &str) -> bool {
    let Ok(u) = url::Url::parse(url.trim()) else {
        return false;
    };
    match u.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// A delivery that was accepted (and stored).
#[derive(Debug, Clone)]
pub struct Delivery {
    /// Which event.
    pub event: WebhookEvent,
    /// The typed body.
    pub body: WebhookBody,
    /// `false` when the same delivery had been stored before (a retry).
    pub new: bool,
    /// When it arrived.
    pub received_at: DateTime<Utc>,
}

struct Shared {
    secret: String,
    store: Arc<std::sync::Mutex<prospect_store::Store>>,
    tx: broadcast::Sender<Delivery>,
    body_limit: usize,
}

/// A running receiver; dropping it stops the server.
pub struct Receiver {
    base: String,
    secret: String,
    addr: SocketAddr,
    tx: broadcast::Sender<Delivery>,
    cancel: CancellationToken,
}

impl std::fmt::Debug for Receiver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Receiver")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// Compares two secrets in time that does not depend on where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

type Answer = Response<Full<Bytes>>;

fn answer(status: StatusCode, body: serde_json::Value) -> Answer {
    let mut r = Response::new(Full::new(Bytes::from(body.to_string())));
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

fn detail(status: StatusCode, text: &str) -> Answer {
    let mut r = answer(status, serde_json::json!({ "detail": text }));
    // Refused before the body was read: the connection is not kept.
    r.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    r
}

/// The `secret` of a query string (percent-decoded), if any.
fn query_secret(query: Option<&str>) -> Option<String> {
    url::form_urlencoded::parse(query?.as_bytes())
        .find(|(k, _)| k == "secret")
        .map(|(_, v)| v.into_owned())
}

/// A 422 with `problem` as its one `detail` entry (its message and input sanitized; an input
/// over 1 KB left out).
fn invalid(mut problem: ValidationError) -> Answer {
    problem.msg = prospect_common::sanitize::sanitize(&problem.msg);
    // The input is echoed (sanitized) unless it is large: a receiver does not send a
    // delivery back.
    if let Some(v) = &mut problem.input {
        prospect_common::sanitize::sanitize_value(v);
    }
    if problem
        .input
        .as_ref()
        .is_some_and(|v| v.to_string().len() > 1024)
    {
        problem.input = None;
    }
    let err = HttpValidationError {
        detail: vec![problem],
    };
    answer(
        StatusCode::UNPROCESSABLE_ENTITY,
        serde_json::to_value(err).unwrap_or_default(),
    )
}

/// pydantic's 422 entry for a body that is not JSON: `json_invalid`, "JSON decode error", at
/// `["body", position]` (the column where parsing stopped, from 0), the parser's reason in
/// `ctx.error`.
fn not_json(e: &serde_json::Error) -> ValidationError {
    ValidationError {
        ctx: Some(serde_json::json!({ "error": e.to_string() })),
        ..ValidationError::new(
            [
                LocSegment::from("body"),
                LocSegment::Index(e.column().saturating_sub(1) as u64),
            ],
            "JSON decode error",
            "json_invalid",
        )
    }
}

/// A body of the right shape that still does not read as the event's (a member of another
/// type deep inside): `model_attributes_type` for the body.
fn not_the_event(ev: WebhookEvent) -> ValidationError {
    ValidationError::new(
        [LocSegment::from("body")],
        format!(
            "Input should be a valid {} delivery body (openapi.json's webhooks)",
            ev.name()
        ),
        "model_attributes_type",
    )
}

/// One delivery: the path and secret first (nothing of the body read before), then the body
/// within the limit, its shape, the store, the 200.
async fn deliver(sh: Arc<Shared>, req: hyper::Request<Incoming>) -> Answer {
    if req.method() != hyper::Method::POST {
        return detail(StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed");
    }
    let Some(event) = req
        .uri()
        .path()
        .strip_prefix("/webhooks/")
        .map(str::to_string)
    else {
        return detail(StatusCode::NOT_FOUND, "Not Found");
    };
    if !query_secret(req.uri().query()).is_some_and(|s| same_secret(&s, &sh.secret)) {
        tracing::warn!(event = %prospect_common::sanitize::sanitize(&event), "webhook without the right secret refused");
        return detail(StatusCode::FORBIDDEN, "missing or wrong secret");
    }
    let Some(ev) = WebhookEvent::from_name(&event) else {
        return detail(StatusCode::NOT_FOUND, "unknown webhook event");
    };
    let body = match Limited::new(req.into_body(), sh.body_limit).collect().await {
        Ok(b) => b.to_bytes(),
        Err(e)
            if e.downcast_ref::<http_body_util::LengthLimitError>()
                .is_some() =>
        {
            return detail(StatusCode::PAYLOAD_TOO_LARGE, "Request body too large");
        }
        Err(_) => {
            return detail(
                StatusCode::BAD_REQUEST,
                "There was an error parsing the body",
            );
        }
    };
    let value = match serde_json::from_slice::<serde_json::Value>(&body) {
        Ok(v) => v,
        Err(e) => return invalid(not_json(&e)),
    };
    if let Err(problem) = ev.check_shape(&value) {
        return invalid(*problem);
    }
    let Ok(parsed) = ev.parse_body(&body) else {
        return invalid(not_the_event(ev));
    };
    let (name, kept) = (ev.name().to_string(), body.to_vec());
    let recorded = with_store(&sh.store, move |s| {
        s.record_delivery(&name, &kept, Utc::now())
            .map(|o| matches!(o, prospect_store::DeliveryOutcome::New(_)))
    })
    .await;
    match recorded {
        Ok(new) => {
            let _ = sh.tx.send(Delivery {
                event: ev,
                body: parsed,
                new,
                received_at: Utc::now(),
            });
            answer(StatusCode::OK, serde_json::json!({ "detail": "OK" }))
        }
        Err(e) => {
            tracing::error!(error = %e, "webhook delivery could not be stored");
            detail(
                StatusCode::INTERNAL_SERVER_ERROR,
                "could not store the delivery",
            )
        }
    }
}

/// Serves one connection: one exchange, its head within [`HEADER_TIMEOUT`], all of it within
/// [`EXCHANGE_TIMEOUT`], then closed.
async fn serve_connection(sh: Arc<Shared>, stream: tokio::net::TcpStream) {
    let io = hyper_util::rt::TokioIo::new(stream);
    let service = hyper::service::service_fn(move |req| {
        let sh = sh.clone();
        async move { Ok::<_, Infallible>(deliver(sh, req).await) }
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .keep_alive(false)
        .serve_connection(io, service);
    match tokio::time::timeout(EXCHANGE_TIMEOUT, conn).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => tracing::debug!(error = %e, "webhook connection ended"),
        Err(_) => tracing::debug!("webhook connection closed: exchange took too long"),
    }
}

impl Receiver {
    /// Binds `config.listen` and serves deliveries into `store` (see the module docs for the
    /// limits); a session starts its one receiver with [`crate::session::Session::start_receiver`].
    /// Errors: the address cannot be bound.
    pub async fn start(
        config: ReceiverConfig,
        store: Arc<std::sync::Mutex<prospect_store::Store>>,
    ) -> anyhow::Result<Receiver> {
        let listener = match tokio::net::TcpListener::bind(config.listen).await {
            Ok(l) => l,
            // The kept loopback port is taken (another prospect on this data dir listens
            // there and keeps what comes): a free port for this run.
            Err(e) if config.public_url.is_none() && config.listen.port() != 0 => {
                tracing::info!(addr = %config.listen, error = %e, "webhook port in use; a free one for this run");
                tokio::net::TcpListener::bind(SocketAddr::new(config.listen.ip(), 0))
                    .await
                    .map_err(|e| {
                        anyhow::anyhow!("webhook receiver cannot listen on {}: {e}", config.listen)
                    })?
            }
            Err(e) => {
                anyhow::bail!("webhook receiver cannot listen on {}: {e}", config.listen)
            }
        };
        let addr = listener.local_addr()?;
        let (tx, _) = broadcast::channel(1024);
        let shared = Arc::new(Shared {
            secret: config.secret.clone(),
            store,
            tx: tx.clone(),
            body_limit: config.body_limit,
        });
        let cancel = CancellationToken::new();
        let stop = cancel.clone();
        let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        tokio::spawn(async move {
            loop {
                let accepted = tokio::select! {
                    _ = stop.cancelled() => break,
                    a = listener.accept() => a,
                };
                let stream = match accepted {
                    Ok((s, _)) => s,
                    Err(e) => {
                        tracing::warn!(error = %e, "webhook receiver: accept failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let Ok(permit) = slots.clone().try_acquire_owned() else {
                    tracing::warn!("webhook receiver: too many connections; one closed");
                    drop(stream);
                    continue;
                };
                let sh = shared.clone();
                let stop = stop.clone();
                tokio::spawn(async move {
                    tokio::select! {
                        _ = serve_connection(sh, stream) => {}
                        _ = stop.cancelled() => {}
                    }
                    drop(permit);
                });
            }
        });
        let base = config
            .public_url
            .clone()
            .map(|u| u.trim_end_matches('/').to_string())
            .unwrap_or_else(|| format!("http://{addr}"));
        Ok(Receiver {
            base,
            secret: config.secret,
            addr,
            tx,
            cancel,
        })
    }

    /// The callback URL for `event`, secret included (give it only to the service).
    pub fn url_for(&self, event: WebhookEvent) -> String {
        format!(
            "{}/webhooks/{}?secret={}",
            self.base,
            event.name(),
            self.secret
        )
    }

    /// The address bound.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// A stream of accepted deliveries (after they are stored).
    pub fn subscribe(&self) -> broadcast::Receiver<Delivery> {
        self.tx.subscribe()
    }
}
