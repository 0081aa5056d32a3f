//! The webhook receiver (SPEC.md §6, NOTES.md "Webhooks"): an axum server inside prospect that
//! takes the service's deliveries of reveal and enrich results.
//!
//! - **Where.** `POST {base}/webhooks/{event}?secret=…`, one path per event name of
//!   [`WebhookEvent`]. On the embedded sandbox it listens on 127.0.0.1 on a free port and the
//!   URL is given as it is; for the real service a public URL (a tunnel) forwards to the
//!   listen address ([`ReceiverConfig::public_url`]).
//! - **Security.** The service does not sign deliveries; the documented way is a secret in the
//!   callback URL's query. A delivery without the right secret gets 403 and is never stored.
//!   Bodies above [`ReceiverConfig::body_limit`] get 413.
//! - **Validation.** A body that does not parse as its event's type gets 422 with a `detail`
//!   array (SPEC.md §2.10).
//! - **Durability.** A valid delivery is written to the store (through the session) before the
//!   200, so a crash after the 200 loses nothing; a retried delivery changes nothing. A store
//!   that cannot be written answers 500, so the service retries later.
//! - Front ends see deliveries on a broadcast channel ([`Receiver::subscribe`]).

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Path as UrlPath, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use chrono::{DateTime, Utc};
use serde::Deserialize;
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use super::fsutil;
use super::session::Session;
use crate::api::types::common::{HttpValidationError, LocSegment, ValidationError};
use crate::api::types::webhooks::{WebhookBody, WebhookEvent};

/// Largest delivery body accepted by default: 4 MiB (a reveal of 500 ids is far below).
pub const DEFAULT_BODY_LIMIT: usize = 4 * 1024 * 1024;

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
    settings: &crate::core::config::Settings,
    target: &crate::core::config::Target,
) -> anyhow::Result<ReceiverConfig> {
    let secret_path = settings.webhook_secret_path().ok_or_else(|| {
        anyhow::anyhow!("no data directory for the webhook secret: pass --data-dir")
    })?;
    let secret = load_or_create_secret(&secret_path)
        .map_err(|e| anyhow::anyhow!("webhook secret {}: {e}", secret_path.display()))?;
    if target.sandbox {
        return Ok(ReceiverConfig::loopback(secret));
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
    session: Session,
    tx: broadcast::Sender<Delivery>,
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

#[derive(Deserialize)]
struct SecretQuery {
    secret: Option<String>,
}

/// Compares two secrets in time that does not depend on where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

fn detail(status: StatusCode, text: &str) -> Response {
    (status, axum::Json(serde_json::json!({ "detail": text }))).into_response()
}

async fn deliver(
    State(sh): State<Arc<Shared>>,
    UrlPath(event): UrlPath<String>,
    Query(q): Query<SecretQuery>,
    body: axum::body::Bytes,
) -> Response {
    if !q
        .secret
        .as_deref()
        .is_some_and(|s| same_secret(s, &sh.secret))
    {
        tracing::warn!(event = %crate::core::sanitize::sanitize(&event), "webhook without the right secret refused");
        return detail(StatusCode::FORBIDDEN, "missing or wrong secret");
    }
    let Some(ev) = WebhookEvent::from_name(&event) else {
        return detail(StatusCode::NOT_FOUND, "unknown webhook event");
    };
    let parsed = {
        let de = &mut serde_json::Deserializer::from_slice(&body);
        serde_path_to_error::deserialize::<_, serde_json::Value>(de)
            .map_err(|e| (e.path().to_string(), e.inner().to_string()))
            .and_then(|_| {
                ev.parse_body(&body)
                    .map_err(|e| (".".to_string(), e.to_string()))
            })
    };
    let parsed = match parsed {
        Ok(b) => b,
        Err((path, msg)) => {
            let mut loc: Vec<LocSegment> = vec!["body".into()];
            loc.extend(
                path.split('.')
                    .filter(|s| !s.is_empty() && *s != "?")
                    .map(LocSegment::from),
            );
            let err = HttpValidationError {
                detail: vec![ValidationError::new(
                    loc,
                    crate::core::sanitize::sanitize(&msg),
                    "json_invalid",
                )],
            };
            return (StatusCode::UNPROCESSABLE_ENTITY, axum::Json(err)).into_response();
        }
    };
    match sh.session.record_delivery(ev.name(), body.to_vec()).await {
        Ok(new) => {
            let _ = sh.tx.send(Delivery {
                event: ev,
                body: parsed,
                new,
                received_at: Utc::now(),
            });
            StatusCode::OK.into_response()
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

impl Receiver {
    /// Binds `config.listen` and serves deliveries into `session`'s store. Errors: the
    /// address cannot be bound.
    pub async fn start(config: ReceiverConfig, session: Session) -> anyhow::Result<Receiver> {
        let listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .map_err(|e| {
                anyhow::anyhow!("webhook receiver cannot listen on {}: {e}", config.listen)
            })?;
        let addr = listener.local_addr()?;
        let (tx, _) = broadcast::channel(1024);
        let shared = Arc::new(Shared {
            secret: config.secret.clone(),
            session,
            tx: tx.clone(),
        });
        let app = axum::Router::new()
            .route("/webhooks/{event}", post(deliver))
            .layer(DefaultBodyLimit::max(config.body_limit))
            .with_state(shared);
        let cancel = CancellationToken::new();
        let stop = cancel.clone();
        tokio::spawn(async move {
            let server = axum::serve(listener, app).with_graceful_shutdown(stop.cancelled_owned());
            if let Err(e) = server.await {
                tracing::error!(error = %e, "webhook receiver stopped");
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
