//! Webhook delivery (SPEC.md §6; webhooks.yml "delivery"; NOTES.md "Webhooks").
//!
//! Each accepted reveal becomes a job: after the configured delay (the "verification" time)
//! the job builds its body — this is when reveal credits are charged, per verified email or
//! phone found — and POSTs it as JSON to the caller's `webhookUrl`. A non-2xx answer, a
//! transport error or a timeout is retried with exponential backoff (`first_retry`, doubled
//! each time) up to `max_attempts` attempts in all; the same body is sent each time, so a
//! receiver must be idempotent. No signing (the documented way to authenticate a callback is a
//! secret in the URL's query). Logs name the event and the URL's host only, never the query.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// Delivery timing.
#[derive(Debug, Clone)]
pub struct WebhookConfig {
    /// Time from the request to the first delivery attempt (verification time).
    pub delay: Duration,
    /// Wait before the first retry; doubled after each failed attempt.
    pub first_retry: Duration,
    /// Attempts in all (first + retries), at least 1.
    pub max_attempts: u32,
    /// Timeout of one attempt.
    pub timeout: Duration,
}

impl Default for WebhookConfig {
    fn default() -> Self {
        WebhookConfig {
            delay: Duration::from_secs(2),
            first_retry: Duration::from_millis(500),
            max_attempts: 6,
            timeout: Duration::from_secs(10),
        }
    }
}

/// Counters of the delivery queue (for tests and logs).
#[derive(Debug, Default)]
pub struct WebhookStats {
    /// POST attempts made.
    pub attempts: AtomicU64,
    /// Jobs delivered (a 2xx answer).
    pub delivered: AtomicU64,
    /// Jobs given up after `max_attempts`.
    pub failed: AtomicU64,
}

/// Builds a job's body when its verification is done (and charges what it reveals); polled
/// only after the delay. `None`: nothing to deliver (the dataset failed to load; logged).
pub type BuildBody = futures::future::BoxFuture<'static, Option<Value>>;

/// The delivery queue: one background task per pending job, cancelled on shutdown.
#[derive(Debug, Clone)]
pub struct Webhooks {
    client: reqwest::Client,
    config: WebhookConfig,
    cancel: CancellationToken,
    /// Counters.
    pub stats: Arc<WebhookStats>,
}

fn describe(url: &str) -> String {
    url::Url::parse(url)
        .map(|u| {
            format!(
                "{}://{}{}",
                u.scheme(),
                u.host_str().unwrap_or("?"),
                u.path()
            )
        })
        .unwrap_or_else(|_| "<invalid url>".into())
}

impl Webhooks {
    /// A queue with `config`; its jobs stop when `cancel` is cancelled.
    pub fn new(config: WebhookConfig, cancel: CancellationToken) -> Webhooks {
        let client = reqwest::Client::builder()
            .timeout(config.timeout)
            .user_agent(concat!(
                "prospect-sandbox-webhooks/",
                env!("CARGO_PKG_VERSION")
            ))
            .build()
            .unwrap_or_default();
        Webhooks {
            client,
            config,
            cancel,
            stats: Arc::default(),
        }
    }

    /// The timing in use.
    pub fn config(&self) -> &WebhookConfig {
        &self.config
    }

    /// Queues a delivery of event `event` to `url` (already checked to be http(s)); `build`
    /// runs once, after the delay, even if the delivery later fails. On shutdown before the
    /// delay ends, `build` is dropped unpolled (nothing is charged).
    pub fn enqueue(&self, event: &'static str, url: String, build: BuildBody) {
        let this = self.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = this.cancel.cancelled() => return,
                _ = tokio::time::sleep(this.config.delay) => {}
            }
            if let Some(body) = build.await {
                this.deliver(event, &url, &body).await;
            }
        });
    }

    async fn deliver(&self, event: &'static str, url: &str, body: &Value) {
        let mut wait = self.config.first_retry;
        let attempts = self.config.max_attempts.max(1);
        for attempt in 1..=attempts {
            self.stats.attempts.fetch_add(1, Ordering::Relaxed);
            let res = self.client.post(url).json(body).send().await;
            match res {
                Ok(r) if r.status().is_success() => {
                    self.stats.delivered.fetch_add(1, Ordering::Relaxed);
                    tracing::debug!(event, target = %describe(url), attempt, "webhook delivered");
                    return;
                }
                Ok(r) => {
                    tracing::debug!(event, target = %describe(url), attempt, status = %r.status(), "webhook refused");
                }
                Err(e) => {
                    tracing::debug!(event, target = %describe(url), attempt, error = %e.without_url(), "webhook failed");
                }
            }
            if attempt == attempts {
                break;
            }
            tokio::select! {
                _ = self.cancel.cancelled() => return,
                _ = tokio::time::sleep(wait) => {}
            }
            wait = wait.saturating_mul(2);
        }
        self.stats.failed.fetch_add(1, Ordering::Relaxed);
        tracing::warn!(event, target = %describe(url), attempts, "webhook given up");
    }
}
