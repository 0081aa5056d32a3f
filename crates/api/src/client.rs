//! The async client of the service: one method per endpoint of SPEC.md §4 (19), on reqwest
//! with rustls.
//!
//! - The token travels only in the `x-api-token` header (SPEC.md §5), marked sensitive; it is
//!   never put in a URL and never appears in `Debug`/`Display`, logs or errors.
//! - Every request is checked before sending ([`Validate`] plus the empty-body checks of
//!   SPEC.md §7): a request the service would refuse gives [`ApiError::Invalid`] /
//!   [`ApiError::EmptyBody`] / [`ApiError::EmptyPersonBody`] without any traffic, so no
//!   credit is spent on it.
//! - Retries only where they cannot charge twice (issue 15): a connection that failed before
//!   the request was sent, and a 429 (refused before the charge; after `Retry-After`, capped).
//!   A request that spends credits is never resent after it may have reached the service
//!   (500/502/503/504, a timeout, a broken read): the spend engine's resume decides instead,
//!   from the store and the claims. The free reads (data-fields, credit balance) retry those
//!   too. Attempts are bounded, with jittered exponential backoff.
//! - Redirects are never followed (`redirect::Policy::none()`): a 3xx is
//!   [`ApiError::Redirected`], so the token never travels to another host.
//! - With [`ClientOptions::rate_per_minute`], every request (free ones too) is paced to the
//!   account's allowance ([`crate::pace`]); a 429's `Retry-After` pauses the pacer.
//! - Responses are decoded tolerantly (see `types`); a body that still does not fit gives
//!   [`ApiError::Decode`] naming the failing field's path.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::Rng;
use reqwest::Url;
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderValue, RETRY_AFTER};
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::pace::PER_MINUTE_RETRY_MAX;
use crate::types::*;

pub use crate::endpoint::{
    ApiRequest, ApiVersion, AutocompleteKind, Endpoint, Enriched, ForSegmentation, SearchSubject,
    check, decode, enrich_company_is_empty, enrich_person_is_empty,
};

/// Most per-minute 429s one call waits out before it gives up (each at most
/// [`PER_MINUTE_RETRY_MAX`]): about ten minutes of a service that keeps refusing.
const MAX_LIMITED_WAITS: u32 = 10;

/// The error of a wait ended by [`ClientOptions::stop`]: nothing was sent.
fn stopped() -> ApiError {
    ApiError::Refused("stopped before sending".into())
}

/// Reads an answer's body chunk by chunk. Errors: the transport error with the bytes that
/// arrived before it (a cut connection keeps what came).
async fn read_body(mut resp: reqwest::Response) -> Result<Vec<u8>, (Vec<u8>, reqwest::Error)> {
    let mut out = Vec::with_capacity(
        resp.content_length()
            .map_or(0, |n| n.min(64 << 20) as usize),
    );
    loop {
        match resp.chunk().await {
            Ok(Some(c)) => out.extend_from_slice(&c),
            Ok(None) => return Ok(out),
            Err(e) => return Err((out, e)),
        }
    }
}

/// Transport settings of a [`Client`].
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// Whole-request timeout (connect, send, read the body). Default 30 s.
    pub timeout: Duration,
    /// Connection setup timeout. Default 10 s.
    pub connect_timeout: Duration,
    /// Most attempts per call, including the first (≥ 1; 0 is read as 1). Default 3.
    pub max_attempts: u32,
    /// Backoff before the 2nd attempt; doubles each time, with jitter (×0.5..×1.0).
    /// Default 250 ms.
    pub base_backoff: Duration,
    /// Longest `Retry-After` the client waits by itself on a 429; a longer one is returned at
    /// once as [`ApiError::RateLimited`] so the caller can show it. Default 10 s.
    pub max_retry_after: Duration,
    /// `User-Agent` header. Default `prospect/<version>`.
    pub user_agent: String,
    /// Requests per minute every request of the client (free ones too) is paced to
    /// ([`crate::pace::Pacer`]); `None` sends at once. Default `None`; a front end's
    /// session sets the account's allowance (config `rate_per_minute`).
    pub rate_per_minute: Option<u32>,
    /// Ends every wait of the client (pacing, a 429's `Retry-After`, a backoff) when cancelled:
    /// the call then fails with [`ApiError::Refused`] ("stopped before sending") and nothing
    /// more is sent. A request already sent is awaited. Default: never cancelled.
    pub stop: tokio_util::sync::CancellationToken,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            max_attempts: 3,
            base_backoff: Duration::from_millis(250),
            max_retry_after: Duration::from_secs(10),
            user_agent: concat!("prospect/", env!("CARGO_PKG_VERSION")).to_string(),
            rate_per_minute: None,
            stop: tokio_util::sync::CancellationToken::new(),
        }
    }
}

/// The API token. `Debug` prints `***`; the value is reachable only inside this module.
#[derive(Clone)]
struct Token(String);

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_empty() { "<none>" } else { "***" })
    }
}

struct Inner {
    http: reqwest::Client,
    base: Url,
    token: Token,
    header: Option<HeaderValue>,
    options: ClientOptions,
    pacer: Option<crate::pace::Pacer>,
}

/// The client of the service (SPEC.md §4, §5, §7). Cheap to clone (shared connection pool).
///
/// `Debug` and `Display` show the base URL only, never the token.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("base_url", &self.inner.base.as_str())
            .field("token", &self.inner.token)
            .field("options", &self.inner.options)
            .finish()
    }
}

impl fmt::Display for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "client of {}", self.inner.base)
    }
}

impl Client {
    /// A client for the service at `base_url` (e.g. `http://127.0.0.1:8787`, optionally with
    /// a path prefix) with [`ClientOptions::default`].
    ///
    /// Errors: [`ApiError::Config`] when the URL is not an absolute http(s) URL without query
    /// or fragment, or the token (trimmed) is not a valid header value. An empty token is
    /// allowed: no header is sent and the service answers [`ApiError::MissingToken`].
    pub fn new(base_url: &str, token: impl Into<String>) -> Result<Client, ApiError> {
        Client::with_options(base_url, token, ClientOptions::default())
    }

    /// A client with explicit transport options; see [`Client::new`] for errors.
    pub fn with_options(
        base_url: &str,
        token: impl Into<String>,
        options: ClientOptions,
    ) -> Result<Client, ApiError> {
        // Surrounding whitespace (a pasted newline) is never part of a token.
        let token = Token(token.into().trim().to_string());
        let mut base = Url::parse(base_url.trim())
            .map_err(|e| ApiError::Config(format!("base URL is not a valid URL: {e}")))?;
        if !matches!(base.scheme(), "http" | "https") {
            return Err(ApiError::Config(format!(
                "base URL must be http or https, not {}",
                base.scheme()
            )));
        }
        if base.query().is_some() || base.fragment().is_some() {
            return Err(ApiError::Config(
                "base URL must not have a query or fragment".into(),
            ));
        }
        if !base.username().is_empty() || base.password().is_some() {
            return Err(ApiError::Config(
                "base URL must not carry credentials".into(),
            ));
        }
        if !base.path().ends_with('/') {
            let p = format!("{}/", base.path());
            base.set_path(&p);
        }
        let header = if token.0.is_empty() {
            None
        } else {
            let mut v = HeaderValue::from_str(&token.0).map_err(|_| {
                ApiError::Config("API token contains characters not allowed in a header".into())
            })?;
            v.set_sensitive(true);
            Some(v)
        };
        let http = reqwest::Client::builder()
            // A redirect is an error, never followed: the token must not go to another host.
            .redirect(reqwest::redirect::Policy::none())
            .timeout(options.timeout)
            .connect_timeout(options.connect_timeout)
            .user_agent(options.user_agent.clone())
            .build()
            .map_err(|e| ApiError::Config(redact_err(&e.without_url().to_string(), &token)))?;
        Ok(Client {
            inner: Arc::new(Inner {
                http,
                base,
                token,
                header,
                pacer: options.rate_per_minute.map(crate::pace::Pacer::new),
                options,
            }),
        })
    }

    /// The base URL (always ending in `/`).
    pub fn base_url(&self) -> &Url {
        &self.inner.base
    }

    /// The transport options.
    pub fn options(&self) -> &ClientOptions {
        &self.inner.options
    }

    /// The absolute URL of an endpoint (no token in it).
    pub fn url_of(&self, endpoint: Endpoint) -> Url {
        self.url_at(endpoint.path())
    }

    /// The absolute URL of a path of the service (e.g. `/v2/segmentation/7`).
    fn url_at(&self, path: &str) -> Url {
        self.inner
            .base
            .join(path.trim_start_matches('/'))
            .expect("endpoint paths are valid relative URLs")
    }

    /// Checks, sends and reads any request body: the generic form of the 17 POST methods.
    ///
    /// Errors: [`ApiError::Invalid`] / `EmptyBody` / `EmptyPersonBody` without sending; the
    /// §7 variants from the answer; `Timeout`, `Network`, `Decode`.
    pub async fn send<R: ApiRequest>(&self, req: &R) -> Result<R::Response, ApiError> {
        let (status, body) = self.send_raw(req).await?;
        R::read_answer(status, &body)
    }

    /// Like [`Client::send`], but decodes a 2xx body as `T` (e.g. a lighter view of a page).
    pub async fn send_as<R: ApiRequest, T: DeserializeOwned>(
        &self,
        req: &R,
    ) -> Result<T, ApiError> {
        let (_, body) = self.send_raw(req).await?;
        decode(&body)
    }

    /// Ends every wait of this client and its clones (cancels [`ClientOptions::stop`]): calls
    /// waiting to be sent fail at once with [`ApiError::Refused`], calls already sent are not
    /// touched. For a front end that is quitting.
    pub fn stop_waits(&self) {
        self.inner.options.stop.cancel();
    }

    /// The pacer every request of this client waits on, when it paces
    /// ([`ClientOptions::rate_per_minute`]).
    pub fn pacer(&self) -> Option<&crate::pace::Pacer> {
        self.inner.pacer.as_ref()
    }

    /// Checks and sends `req` and returns the 2xx status and the answer's bytes exactly as
    /// received, undecoded (the spend engine keeps them raw, then decodes).
    ///
    /// Errors: as [`Client::send`], but never [`ApiError::Decode`].
    pub async fn send_raw<R: ApiRequest>(&self, req: &R) -> Result<(u16, Vec<u8>), ApiError> {
        check(req)?;
        let body = serde_json::to_vec(req).map_err(|e| {
            ApiError::Invalid(vec![ValidationError::new(
                [LocSegment::from("body")],
                format!("could not serialize the request: {e}"),
                "serialization",
            )])
        })?;
        self.execute(R::ENDPOINT, &req.path(), Some(body)).await
    }

    /// One call with the retry policy of the module docs, to `path` (the endpoint's own, or one
    /// with its id filled in). Returns the 2xx status and body, or the error the answer maps to.
    pub(crate) async fn execute(
        &self,
        endpoint: Endpoint,
        path: &str,
        body: Option<Vec<u8>>,
    ) -> Result<(u16, Vec<u8>), ApiError> {
        let inner = &*self.inner;
        let url = self.url_at(path);
        let max_attempts = inner.options.max_attempts.max(1);
        let liberal = endpoint.is_free_read();
        let mut attempt: u32 = 0;
        // Per-minute 429s waited out for this call: they are refused before they count, so
        // they do not use up attempts, but a call is not held forever.
        let mut limited: u32 = 0;
        loop {
            attempt += 1;
            let last = attempt >= max_attempts;
            let ticket = match &inner.pacer {
                Some(p) => Some(self.admit(p).await?),
                None => None,
            };
            let started = Instant::now();
            let sent = self.request(endpoint, &url, body.as_deref()).send().await;
            if let (Some(p), Some(t)) = (&inner.pacer, ticket) {
                p.finish(t);
            }
            let resp = match sent {
                Ok(r) => r,
                Err(e) => {
                    // A connect error means nothing reached the service: always safe to retry.
                    let retry = !last && (e.is_connect() || liberal);
                    let err = ApiError::transport(e, &inner.token.0);
                    tracing::warn!(
                        method = %endpoint.method(), path = endpoint.path(), attempt,
                        elapsed_ms = started.elapsed().as_millis() as u64, retry,
                        error = %err, "request failed"
                    );
                    if retry {
                        self.wait(self.backoff(attempt)).await?;
                        continue;
                    }
                    return Err(err);
                }
            };
            let status = resp.status().as_u16();
            let retry_after = parse_retry_after(resp.headers());
            let location = resp
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            let bytes = match read_body(resp).await {
                Ok(b) => b,
                // A paid answer cut off after it came (and was charged): what arrived is
                // returned, so the engine keeps every record that reads (issue 34); it never
                // reads whole, so it is never taken for a complete answer.
                Err((partial, e)) if !liberal && (200..300).contains(&status) => {
                    let err = ApiError::transport(e, &inner.token.0);
                    tracing::warn!(
                        method = %endpoint.method(), path = endpoint.path(), status, attempt,
                        bytes = partial.len(), error = %err,
                        "a paid answer was cut off; what arrived is kept"
                    );
                    return Ok((status, partial));
                }
                Err((_, e)) => {
                    let retry = !last && liberal;
                    let err = ApiError::transport(e, &inner.token.0);
                    tracing::warn!(
                        method = %endpoint.method(), path = endpoint.path(), status, attempt,
                        elapsed_ms = started.elapsed().as_millis() as u64, retry,
                        error = %err, "reading the answer failed"
                    );
                    if retry {
                        self.wait(self.backoff(attempt)).await?;
                        continue;
                    }
                    return Err(err);
                }
            };
            let elapsed_ms = started.elapsed().as_millis() as u64;
            if (200..300).contains(&status) {
                tracing::info!(
                    method = %endpoint.method(), path = endpoint.path(), status, attempt,
                    elapsed_ms, bytes = bytes.len(), "answer"
                );
                return Ok((status, bytes));
            }
            let answer = Refusal {
                status,
                retry_after,
                location,
                bytes,
                ticket,
                elapsed_ms,
            };
            let w = self.after_refusal(endpoint, answer, &mut attempt, &mut limited, last)?;
            self.wait(w).await?;
        }
    }

    /// After an answer that is not 2xx: how long to wait before sending again, or the error it
    /// maps to. A redirect is not followed. A 429 pauses (per-minute) or blocks (daily) the
    /// pacer and does not count as an attempt (at most `MAX_LIMITED_WAITS` of them); a paid
    /// request is sent again only after a 429 (refused before charging), a free read also
    /// after a 5xx.
    fn after_refusal(
        &self,
        endpoint: Endpoint,
        a: Refusal,
        attempt: &mut u32,
        limited: &mut u32,
        last: bool,
    ) -> Result<Duration, ApiError> {
        let inner = &*self.inner;
        let Refusal {
            status,
            retry_after,
            location,
            bytes,
            ticket,
            elapsed_ms,
        } = a;
        if (300..400).contains(&status) {
            let location = resp_location(&bytes, location.as_deref());
            tracing::warn!(
                method = %endpoint.method(), path = endpoint.path(), status, attempt,
                elapsed_ms, "redirect not followed"
            );
            return Err(ApiError::Redirected { status, location });
        }
        let daily = status == 429 && retry_after.is_some_and(|d| d > PER_MINUTE_RETRY_MAX);
        if status == 429
            && let Some(p) = &inner.pacer
        {
            let d = retry_after.unwrap_or(Duration::from_secs(1));
            if daily {
                // The daily allowance: every later request fails at once until the reset.
                p.block(d);
            } else {
                p.pause(d);
                if let Some(t) = ticket {
                    p.learn(t);
                }
            }
        }
        // A paid request is sent again only when the service refused it before charging
        // (429); after a 5xx it may have been processed and charged.
        let retryable = match status {
            429 => !daily,
            500 | 502 | 503 | 504 => endpoint.is_free_read(),
            _ => false,
        };
        let wait = match (status, retry_after) {
            (429, Some(d)) if d > inner.options.max_retry_after => None,
            (429 | 503, Some(d)) => Some(d.min(inner.options.max_retry_after)),
            _ => Some(self.backoff(*attempt)),
        };
        let retry = if status == 429 {
            *limited += 1;
            // A 429 does not count as an attempt; at most MAX_LIMITED_WAITS of them.
            *attempt -= 1;
            retryable && *limited <= MAX_LIMITED_WAITS && wait.is_some()
        } else {
            retryable && !last && wait.is_some()
        };
        tracing::warn!(
            method = %endpoint.method(), path = endpoint.path(), status, attempt,
            elapsed_ms, retry, "error answer"
        );
        match wait {
            Some(w) if retry => {
                if status == 429 {
                    tracing::info!(
                        wait_s = w.as_secs(),
                        "rate limited: waiting for the per-minute window"
                    );
                }
                Ok(w)
            }
            _ => Err(ApiError::from_response(status, retry_after, &bytes)),
        }
    }

    /// The request of `endpoint` to `url` with the token header and the JSON `body`.
    fn request(
        &self,
        endpoint: Endpoint,
        url: &Url,
        body: Option<&[u8]>,
    ) -> reqwest::RequestBuilder {
        let inner = &*self.inner;
        let mut rb = inner.http.request(endpoint.method(), url.clone());
        if let Some(h) = &inner.header {
            rb = rb.header("x-api-token", h.clone());
        }
        if let Some(b) = body {
            rb = rb.header(CONTENT_TYPE, "application/json").body(b.to_vec());
        }
        rb
    }

    /// Waits for the pacer to let a request go, or for the client's stop
    /// ([`ClientOptions::stop`]).
    ///
    /// Errors: [`ApiError::RateLimited`] at once (with the time to the reset) while the daily
    /// allowance is used up; [`ApiError::Refused`] when stopped; nothing was sent.
    async fn admit(&self, p: &crate::pace::Pacer) -> Result<crate::pace::Ticket, ApiError> {
        let stop = &self.inner.options.stop;
        tokio::select! {
            biased;
            _ = stop.cancelled() => Err(stopped()),
            t = p.admit() => t.map_err(|b| ApiError::RateLimited {
                retry_after: Some(b.resets_in),
            }),
        }
    }

    /// Sleeps `d`, or less when the client's stop is cancelled.
    ///
    /// Errors: [`ApiError::Refused`] when stopped (nothing more is sent).
    async fn wait(&self, d: Duration) -> Result<(), ApiError> {
        let stop = &self.inner.options.stop;
        tokio::select! {
            biased;
            _ = stop.cancelled() => Err(stopped()),
            _ = tokio::time::sleep(d) => Ok(()),
        }
    }

    /// Backoff before attempt `attempt + 1`: `base_backoff × 2^(attempt-1)`, capped at 10 s,
    /// times a random factor in 0.5..=1.0.
    fn backoff(&self, attempt: u32) -> Duration {
        let base = self.inner.options.base_backoff;
        let exp = base.saturating_mul(1u32 << (attempt.saturating_sub(1)).min(10));
        let capped = exp.min(Duration::from_secs(10));
        capped.mul_f64(rand::rng().random_range(0.5..=1.0))
    }
}

/// An answer that is not 2xx, as [`Client::after_refusal`] weighs it.
struct Refusal {
    status: u16,
    retry_after: Option<Duration>,
    location: Option<String>,
    bytes: Vec<u8>,
    ticket: Option<crate::pace::Ticket>,
    elapsed_ms: u64,
}

fn redact_err(msg: &str, token: &Token) -> String {
    crate::error::redact(msg, &token.0)
}

/// Where a redirect pointed, without its query or credentials: `scheme://host[:port]/path`
/// (a relative `Location` as it is, cut at `?`); `None` when absent.
fn resp_location(_body: &[u8], location: Option<&str>) -> Option<String> {
    let l = location?.trim();
    Some(match Url::parse(l) {
        Ok(u) => format!(
            "{}://{}{}{}",
            u.scheme(),
            u.host_str().unwrap_or_default(),
            u.port().map(|p| format!(":{p}")).unwrap_or_default(),
            u.path()
        ),
        Err(_) => l.split(['?', '#']).next().unwrap_or_default().to_string(),
    })
    .map(|s| prospect_common::sanitize::sanitize(&s))
}

/// `Retry-After` as delay seconds or an HTTP date (RFC 9110 §10.2.3); `None` when absent or
/// unreadable.
pub fn parse_retry_after(headers: &HeaderMap) -> Option<Duration> {
    let v = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    if let Ok(secs) = v.parse::<f64>()
        && secs.is_finite()
        && secs >= 0.0
    {
        return Some(Duration::from_secs_f64(secs));
    }
    let when = chrono::DateTime::parse_from_rfc2822(v).ok()?;
    let delta = when.with_timezone(&chrono::Utc) - chrono::Utc::now();
    Some(delta.to_std().unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::Method;
    use serde_json::json;

    #[test]
    fn retry_after_seconds_and_http_dates() {
        let mut h = HeaderMap::new();
        assert_eq!(parse_retry_after(&h), None);
        h.insert(RETRY_AFTER, HeaderValue::from_static("7"));
        assert_eq!(parse_retry_after(&h), Some(Duration::from_secs(7)));
        h.insert(
            RETRY_AFTER,
            HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"),
        );
        assert_eq!(
            parse_retry_after(&h),
            Some(Duration::ZERO),
            "a past date: no wait"
        );
        h.insert(RETRY_AFTER, HeaderValue::from_static("soon"));
        assert_eq!(parse_retry_after(&h), None);
    }

    #[test]
    fn empty_enrich_bodies() {
        assert!(enrich_person_is_empty(&json!({})));
        assert!(enrich_person_is_empty(
            &json!({"person": {"name": " ", "email": null}})
        ));
        assert!(!enrich_person_is_empty(
            &json!({"person": {"linkedin": "ada"}})
        ));
        assert!(enrich_company_is_empty(&json!({"fields": ["domain"]})));
        assert!(enrich_company_is_empty(
            &json!({"company": {}, "people": [{}]})
        ));
        assert!(!enrich_company_is_empty(
            &json!({"company": {"domain": "acme.com"}})
        ));
        assert!(!enrich_company_is_empty(
            &json!({"people": [{"name": "Ada"}]})
        ));
    }

    #[test]
    fn endpoints_paths_and_methods() {
        assert_eq!(Endpoint::ALL.len(), 26);
        let gets: Vec<_> = Endpoint::ALL
            .iter()
            .filter(|e| e.method() == Method::GET)
            .collect();
        assert_eq!(
            gets,
            [
                &Endpoint::DataFields,
                &Endpoint::CreditBalance,
                &Endpoint::GetSegmentation
            ]
        );
        assert_eq!(
            Endpoint::AttributeSegmentationDomains.path_for(7),
            "/v2/segmentation/7/attribute-domains"
        );
        assert_eq!(
            Endpoint::AutocompleteJobTitles.to_string(),
            "POST /v2/autocomplete/job-titles"
        );
    }

    #[test]
    fn endpoint_facts() {
        for e in Endpoint::ALL {
            assert_eq!(Endpoint::from_path(e.path()), Some(e));
        }
        assert_eq!(Endpoint::from_path("/v3/search/nothing"), None);
        assert_eq!(
            Endpoint::ALL.iter().filter(|e| e.is_autocomplete()).count(),
            5
        );
        assert_eq!(Endpoint::ALL.iter().filter(|e| e.is_search()).count(), 5);
        let v3: Vec<_> = Endpoint::ALL
            .into_iter()
            .filter(|e| e.version() == ApiVersion::V3)
            .collect();
        assert_eq!(
            v3,
            [
                Endpoint::SearchCompaniesV3,
                Endpoint::SearchPeopleV3,
                Endpoint::SearchPeoplePreview,
                Endpoint::SearchCompaniesPreview
            ]
        );
        // The company preview is not one of the paged searches of SPEC.md §4.
        assert_eq!(Endpoint::SearchCompaniesPreview.search_subject(), None);
        for subject in [SearchSubject::Companies, SearchSubject::People] {
            for version in [ApiVersion::V2, ApiVersion::V3] {
                let e = Endpoint::search(subject, version);
                assert_eq!(e.search_subject(), Some(subject));
                assert_eq!(e.version(), version);
                let other = e.other_search_version().unwrap();
                assert_eq!(other.other_search_version(), Some(e));
                assert_eq!(other.search_subject(), Some(subject));
                assert_ne!(other.version(), version);
            }
        }
        assert_eq!(Endpoint::SearchPeoplePreview.other_search_version(), None);
        assert_eq!(Endpoint::DataFields.search_subject(), None);
    }

    #[test]
    fn backoff_is_bounded_and_jittered() {
        let c = Client::with_options(
            "http://127.0.0.1:9",
            "t",
            ClientOptions {
                base_backoff: Duration::from_millis(100),
                ..ClientOptions::default()
            },
        )
        .unwrap();
        for attempt in 1..=40 {
            let b = c.backoff(attempt);
            let full = Duration::from_millis(100)
                .saturating_mul(1 << (attempt - 1).min(10))
                .min(Duration::from_secs(10));
            assert!(b >= full / 2 && b <= full, "attempt {attempt}: {b:?}");
        }
    }
}
