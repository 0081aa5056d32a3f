//! The one error type of the API layer: every outcome of SPEC.md §7 with its exact meaning,
//! plus what can go wrong on our side of the wire (refused before sending, timeout, network,
//! a response that did not decode).
//!
//! Errors never carry the API token: the client sends it only in the `x-api-token` header,
//! transport messages are taken from `reqwest` without the URL, and every message built from
//! a transport error is passed through [`redact`] with the token.

use std::time::Duration;

use crate::pool::CreditPool;
use crate::types::common::{HttpValidationError, ValidationError};

/// The exact `detail` texts of SPEC.md §7 (and §3 for the 201), plus the few the sandbox adds
/// (FastAPI's 404/405 texts, 413, 429, 500): the one table, used by the client (to map answers
/// to variants) and by the sandbox (to answer with the same words).
pub mod detail {
    /// 400: token in query and header differ (SPEC.md §5, §7).
    pub const CONFLICTING_TOKENS: &str =
        "Conflicting API tokens provided in query parameters and headers";
    /// 400: v2 company / people search on an unsupported plan (SPEC.md §4.2, §4.3).
    pub const PLAN_NOT_SUPPORTED: &str = "Plan version not supported for this endpoint";
    /// 400: enrich company with an empty body (SPEC.md §4.10).
    pub const EMPTY_BODY: &str = "Empty body";
    /// 400: enrich person with an empty `person` (SPEC.md §4.4).
    pub const EMPTY_PERSON_BODY: &str = "Empty `person` body";
    /// 402: not enough standard credits (most endpoints).
    pub const INSUFFICIENT_CREDITS: &str = "Insufficient credits";
    /// 402: not enough standard credits (v2 people search).
    pub const INSUFFICIENT_STANDARD_CREDITS: &str = "Insufficient standard credits";
    /// 402: not enough email credits.
    pub const INSUFFICIENT_EMAIL_CREDITS: &str = "Insufficient email credits";
    /// 402: not enough phone credits.
    pub const INSUFFICIENT_PHONE_CREDITS: &str = "Insufficient phone credits";
    /// 402: pending email verifications may use the remaining email credits.
    pub const EMAIL_VERIFICATIONS_IN_PROGRESS: &str = "Some email verifications are already in progress and might use all your remaining email credits. Please try again later.";
    /// 402: pending phone verifications may use the remaining phone credits.
    pub const PHONE_VERIFICATIONS_IN_PROGRESS: &str = "Some phone verifications are already in progress and might use all your remaining phone credits. Please try again later.";
    /// 403: no token in header nor query (SPEC.md §5).
    pub const MISSING_TOKEN: &str = "API token should be provided in headers or query parameters";
    /// 403: the token is not known (SPEC.md §5).
    pub const UNKNOWN_TOKEN: &str = "Current API token is not registered in our database";
    /// 404 of enrich person (SPEC.md §4.4).
    pub const NO_MATCHING_RECORD: &str = "No matching record found";
    /// 201 of enrich company / person: not an error, retry later (SPEC.md §3, §7).
    pub const DATA_GATHERING_STARTED: &str =
        "Data gathering process has started. Please try again later.";
    /// 403 (openapi.json, companies preview): the preview search on a non-enterprise plan.
    pub const FEATURE_NOT_ALLOWED: &str = "You are not allowed to access this feature";
    /// 404 of the endpoints of one segmentation (openapi.json): an id the account does not
    /// have.
    pub const SEGMENTATION_NOT_FOUND: &str = "Segmentation not found";
    /// 412 of attribute-domains (openapi.json): the segmentation has not succeeded (still in
    /// progress, or failed).
    pub const SEGMENTATION_MUST_BE_RERUN: &str =
        "Segmentation must be re-run to enable attribution.";
    /// 404 for a path the service does not have (FastAPI's text).
    pub const NOT_FOUND: &str = "Not Found";
    /// 405 for a known path with another method (FastAPI's text).
    pub const METHOD_NOT_ALLOWED: &str = "Method Not Allowed";
    /// 413: body above the limit.
    pub const TOO_LARGE: &str = "Request body too large";
    /// 400: the request body stream broke off while being read (FastAPI's text).
    pub const BODY_UNREADABLE: &str = "There was an error parsing the body";
    /// 429: per-minute limit (the sandbox's text; NOTES.md "Rate limits").
    pub const RATE_LIMITED: &str = "Rate limit exceeded: too many requests per minute";
    /// 429: daily allowance used up (the sandbox's text; NOTES.md "Rate limits").
    pub const DAILY_LIMITED: &str = "Daily request limit exceeded";
    /// 500: a handler failed (the sandbox's panic guard's answer).
    pub const INTERNAL: &str = "Internal server error";
}

/// Every way a call to the service can fail (SPEC.md §7), plus client-side outcomes.
///
/// Built from an HTTP answer by [`ApiError::from_response`]. `Display` is a short technical
/// sentence (for logs); [`ApiError::user_message`] is the plain-words line for the status bar.
/// Neither ever contains the API token.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// 400 "Conflicting API tokens provided in query parameters and headers": the token in the
    /// query differs from the one in the `x-api-token` header (SPEC.md §5).
    #[error("400: conflicting API tokens in query and header")]
    ConflictingTokens,
    /// 400 "Plan version not supported for this endpoint": the account's plan cannot use the
    /// v2 company / people search (SPEC.md §4.2, §4.3).
    #[error("400: plan version not supported for this endpoint")]
    PlanNotSupported,
    /// 400 "Empty body": enrich company without any company data (SPEC.md §4.10).
    #[error("400: empty body")]
    EmptyBody,
    /// 400 "Empty `person` body": enrich person with an empty `person` (SPEC.md §4.4).
    #[error("400: empty `person` body")]
    EmptyPersonBody,
    /// 402 "Insufficient credits" / "Insufficient standard credits" (`Standard`),
    /// "Insufficient email credits" (`Email`), "Insufficient phone credits" (`Phone`):
    /// nothing was processed and nothing was charged (NOTES.md).
    #[error("402: insufficient {pool} credits")]
    InsufficientCredits {
        /// The credit pool that ran short.
        pool: CreditPool,
    },
    /// 402 "Some email/phone verifications are already in progress and might use all your
    /// remaining email/phone credits. Please try again later.": pending verifications may use
    /// the rest of that pool; retry when they are done.
    #[error("402: {pool} verifications already in progress")]
    VerificationsInProgress {
        /// `Email` or `Phone`.
        pool: CreditPool,
    },
    /// 403 "API token should be provided in headers or query parameters" (SPEC.md §5).
    #[error("403: API token missing")]
    MissingToken,
    /// 403 "Current API token is not registered in our database" (SPEC.md §5).
    #[error("403: API token not registered")]
    UnknownToken,
    /// 404: nothing matched. `detail` is "No matching record found" on enrich person; other
    /// endpoints give no body (`None`).
    #[error("404: not found{}", detail.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    NotFound {
        /// The `detail` text, when the answer had one.
        detail: Option<String>,
    },
    /// 422: the service refused the request body; `detail` is the array of SPEC.md §2.10.
    #[error("422: request failed validation: {}", join_validation(detail))]
    Validation {
        /// The service's `detail` entries (`loc`, `msg`, `type`).
        detail: Vec<ValidationError>,
    },
    /// Refused by the client BEFORE sending (the same checks as the service's 422, SPEC.md §8
    /// limits, or openapi.json bounds): nothing was sent, no credit was spent.
    #[error("request refused before sending: {}", join_validation(.0))]
    Invalid(Vec<ValidationError>),
    /// 429: rate limit reached (NOTES.md: 60/minute, 1,000/day); `retry_after` from the
    /// `Retry-After` header when present.
    #[error("429: rate limited{}", retry_after.map(|d| format!(" (retry after {}s)", d.as_secs())).unwrap_or_default())]
    RateLimited {
        /// How long the service asked us to wait.
        retry_after: Option<Duration>,
    },
    /// 5xx: the service failed. For a request that spends credits this is never retried
    /// (it may have been processed).
    #[error("{status}: server error{}", detail.as_deref().map(|d| format!(": {d}")).unwrap_or_default())]
    Server {
        /// HTTP status, 500..=599.
        status: u16,
        /// The `detail` text or a short excerpt of the body, when any.
        detail: Option<String>,
    },
    /// No complete answer within the configured timeout (`ClientOptions::timeout`). For a
    /// request that spends credits the service may still have processed it.
    #[error("timed out waiting for the service")]
    Timeout,
    /// The connection failed or broke (DNS, refused, reset, TLS, body read). Message without
    /// URL or token.
    #[error("network error: {0}")]
    Network(String),
    /// A 2xx answer whose body did not match the expected shape. `path` names the field that
    /// failed (e.g. `companies[3].company.employeeCountService`), `message` what was wrong.
    #[error("could not read the answer at `{path}`: {message}")]
    Decode {
        /// Path of the failing field, `.` for the top level.
        path: String,
        /// What serde reported.
        message: String,
    },
    /// 412 "Segmentation must be re-run to enable attribution." (openapi.json): attribute-domains
    /// on a segmentation that has not succeeded (in progress or failed). Nothing charged.
    #[error("412: segmentation must be re-run to enable attribution")]
    SegmentationNotReady,
    /// Any other answer: a status or `detail` text SPEC.md §7 does not list.
    #[error("unexpected answer {status}{}", detail.as_deref().map(|d| format!(": {d}")).unwrap_or_default())]
    Unexpected {
        /// HTTP status.
        status: u16,
        /// The `detail` text or a short excerpt of the body, when any.
        detail: Option<String>,
    },
    /// A 3xx redirect. The client never follows one: the request would go, token and all, to
    /// wherever `Location` says. `location` is the target's scheme, host and path only (no
    /// query, which could carry anything).
    #[error("{status}: redirect{} not followed", location.as_deref().map(|l| format!(" to {l}")).unwrap_or_default())]
    Redirected {
        /// HTTP status, 300..=399.
        status: u16,
        /// Where it pointed (scheme, host, path), when it said.
        location: Option<String>,
    },
    /// The client could not be built (bad base URL, token not a valid header value, TLS setup).
    #[error("client configuration: {0}")]
    Config(String),
    /// A paid request this session refuses before sending, with why in words (the team store
    /// cannot be reached, issue 17); nothing was sent.
    #[error("refused before sending: {0}")]
    Refused(String),
}

/// A wait in plain words, as every screen and message says one: `45s`, `12m 30s`, `5h 12m`
/// ([`prospect_common::words::duration`]; at least 1 s).
pub fn human_duration(d: Duration) -> String {
    prospect_common::words::duration(d.as_secs().max(1).min(i64::MAX as u64) as i64)
}

fn join_validation(detail: &[ValidationError]) -> String {
    if detail.is_empty() {
        return "no details".to_string();
    }
    detail
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

/// How many characters of a non-JSON error body are kept in `Server`/`Unexpected`.
const EXCERPT_CHARS: usize = 200;

/// The `detail` of an error body: the string member `detail` of a JSON object (or a bare JSON
/// string), else a short excerpt of a non-JSON body text (trimmed), else `None`.
fn detail_text(body: &[u8]) -> Option<String> {
    use serde_json::Value;
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => {
            return match map.get("detail") {
                Some(Value::String(s)) => Some(s.clone()),
                Some(Value::Null) | None => None,
                Some(other) => Some(other.to_string()),
            };
        }
        Ok(Value::String(s)) => return Some(s).filter(|s| !s.trim().is_empty()),
        Ok(Value::Null) => return None,
        _ => {}
    }
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    if text.is_empty() {
        None
    } else {
        Some(text.chars().take(EXCERPT_CHARS).collect())
    }
}

impl ApiError {
    /// Maps a non-2xx answer (status, `Retry-After`, body bytes) to its variant, by status and
    /// the exact `detail` texts of SPEC.md §7 (see [`detail`]).
    ///
    /// Tolerance for drift: a 402 whose text is not listed is still read by its words
    /// ("email"/"phone", "in progress"), defaulting to `InsufficientCredits { Standard }`;
    /// a 422 whose body is not the §2.10 array gives `Validation` with an empty `detail`.
    /// Other unlisted combinations give `Unexpected` (or `Server` for 5xx).
    pub fn from_response(status: u16, retry_after: Option<Duration>, body: &[u8]) -> ApiError {
        use detail::*;
        let text = detail_text(body);
        let t = text.as_deref().map(str::trim);
        match (status, t) {
            (400, Some(CONFLICTING_TOKENS)) => ApiError::ConflictingTokens,
            (400, Some(PLAN_NOT_SUPPORTED)) => ApiError::PlanNotSupported,
            (400, Some(EMPTY_BODY)) => ApiError::EmptyBody,
            (400, Some(EMPTY_PERSON_BODY)) => ApiError::EmptyPersonBody,
            (402, Some(INSUFFICIENT_CREDITS | INSUFFICIENT_STANDARD_CREDITS)) => {
                ApiError::InsufficientCredits {
                    pool: CreditPool::Standard,
                }
            }
            (402, Some(INSUFFICIENT_EMAIL_CREDITS)) => ApiError::InsufficientCredits {
                pool: CreditPool::Email,
            },
            (402, Some(INSUFFICIENT_PHONE_CREDITS)) => ApiError::InsufficientCredits {
                pool: CreditPool::Phone,
            },
            (402, Some(EMAIL_VERIFICATIONS_IN_PROGRESS)) => ApiError::VerificationsInProgress {
                pool: CreditPool::Email,
            },
            (402, Some(PHONE_VERIFICATIONS_IN_PROGRESS)) => ApiError::VerificationsInProgress {
                pool: CreditPool::Phone,
            },
            (402, other) => {
                let lower = other.unwrap_or_default().to_ascii_lowercase();
                let pool = if lower.contains("email") {
                    CreditPool::Email
                } else if lower.contains("phone") {
                    CreditPool::Phone
                } else {
                    CreditPool::Standard
                };
                if lower.contains("in progress") && pool != CreditPool::Standard {
                    ApiError::VerificationsInProgress { pool }
                } else {
                    ApiError::InsufficientCredits { pool }
                }
            }
            (403, Some(MISSING_TOKEN)) => ApiError::MissingToken,
            (403, Some(UNKNOWN_TOKEN)) => ApiError::UnknownToken,
            (404, _) => ApiError::NotFound { detail: text },
            (412, Some(SEGMENTATION_MUST_BE_RERUN)) => ApiError::SegmentationNotReady,
            (422, _) => ApiError::Validation {
                detail: serde_json::from_slice::<HttpValidationError>(body)
                    .map(|e| e.detail)
                    .unwrap_or_default(),
            },
            (429, _) => ApiError::RateLimited { retry_after },
            (500..=599, _) => ApiError::Server {
                status,
                detail: text,
            },
            _ => ApiError::Unexpected {
                status,
                detail: text,
            },
        }
    }

    /// The plain-words line for the status bar, e.g. "Insufficient email credits",
    /// "Token not registered". Never contains the token.
    pub fn user_message(&self) -> String {
        match self {
            ApiError::ConflictingTokens => {
                "Two different API tokens were sent (query and header)".into()
            }
            ApiError::PlanNotSupported => "Your plan does not support this endpoint".into(),
            ApiError::EmptyBody => "Nothing to enrich: the company is empty".into(),
            ApiError::EmptyPersonBody => "Nothing to enrich: the person is empty".into(),
            ApiError::InsufficientCredits { pool } => match pool {
                CreditPool::Standard => "Insufficient credits".into(),
                p => format!("Insufficient {p} credits"),
            },
            ApiError::VerificationsInProgress { pool } => match pool {
                CreditPool::Phone => "Phone verifications in progress; try again later".into(),
                _ => "Email verifications in progress; try again later".into(),
            },
            ApiError::MissingToken => "No API token set".into(),
            ApiError::UnknownToken => "Token not registered".into(),
            ApiError::NotFound {
                detail: Some(d), ..
            } if d == detail::SEGMENTATION_NOT_FOUND => d.clone(),
            ApiError::NotFound { .. } => "No matching record found".into(),
            ApiError::SegmentationNotReady => {
                "The segmentation has not succeeded yet (or failed); attribution needs a \
                 successful one"
                    .into()
            }
            ApiError::Validation { detail } => match detail.first() {
                Some(first) if detail.len() > 1 => format!(
                    "Rejected by the service: {first} (+{} more)",
                    detail.len() - 1
                ),
                Some(first) => format!("Rejected by the service: {first}"),
                None => "Rejected by the service: invalid request".into(),
            },
            ApiError::Invalid(detail) => match detail.first() {
                Some(first) if detail.len() > 1 => {
                    format!("Not sent: {first} (+{} more)", detail.len() - 1)
                }
                Some(first) => format!("Not sent: {first}"),
                None => "Not sent: invalid request".into(),
            },
            ApiError::RateLimited {
                retry_after: Some(d),
            } if self.is_daily_limit() => format!(
                "Daily request allowance used up; resets in {}",
                human_duration(*d)
            ),
            ApiError::RateLimited {
                retry_after: Some(d),
            } => format!("Rate limited; retry in {}s", d.as_secs().max(1)),
            ApiError::RateLimited { retry_after: None } => "Rate limited; retry later".into(),
            ApiError::Server { status, .. } => format!("Service error ({status})"),
            ApiError::Timeout => "The service did not answer in time".into(),
            ApiError::Network(m) => format!("Network error: {m}"),
            ApiError::Decode { path, .. } => format!("Could not read the answer (at {path})"),
            ApiError::Unexpected {
                status,
                detail: Some(d),
            } => format!("Unexpected answer {status}: {d}"),
            ApiError::Unexpected { status, .. } => format!("Unexpected answer {status}"),
            ApiError::Redirected { status, location } => format!(
                "The service answered {status}, a redirect{}; prospect does not follow \
                 redirects (the token would go with it): check the base URL",
                location
                    .as_deref()
                    .map(|l| format!(" to {l}"))
                    .unwrap_or_default()
            ),
            ApiError::Config(m) => format!("Client setup: {m}"),
            ApiError::Refused(m) => format!("Not sent: {m}"),
        }
    }

    /// `true` when nothing was sent or the service processed nothing for sure, so no credit can
    /// have been spent: `Invalid`, 400/402/403/422/429 answers, `Config`.
    pub fn nothing_charged(&self) -> bool {
        matches!(
            self,
            ApiError::Invalid(_)
                | ApiError::Config(_)
                | ApiError::Refused(_)
                | ApiError::ConflictingTokens
                | ApiError::PlanNotSupported
                | ApiError::EmptyBody
                | ApiError::EmptyPersonBody
                | ApiError::InsufficientCredits { .. }
                | ApiError::VerificationsInProgress { .. }
                | ApiError::MissingToken
                | ApiError::UnknownToken
                | ApiError::Validation { .. }
                | ApiError::RateLimited { .. }
                | ApiError::SegmentationNotReady
        )
    }

    /// `true` for a 429 that is the daily request allowance (NOTES.md: 1,000 a day), not the
    /// per-minute limit: the per-minute window never asks to wait more than 60 s, so a
    /// `Retry-After` above that can only be the daily reset.
    pub fn is_daily_limit(&self) -> bool {
        matches!(self, ApiError::RateLimited { retry_after: Some(d) } if d.as_secs() > 60)
    }

    /// The HTTP status of an answer-based error; `None` for client-side outcomes.
    pub fn status(&self) -> Option<u16> {
        Some(match self {
            ApiError::ConflictingTokens
            | ApiError::PlanNotSupported
            | ApiError::EmptyBody
            | ApiError::EmptyPersonBody => 400,
            ApiError::InsufficientCredits { .. } | ApiError::VerificationsInProgress { .. } => 402,
            ApiError::MissingToken | ApiError::UnknownToken => 403,
            ApiError::NotFound { .. } => 404,
            ApiError::SegmentationNotReady => 412,
            ApiError::Validation { .. } => 422,
            ApiError::RateLimited { .. } => 429,
            ApiError::Server { status, .. }
            | ApiError::Unexpected { status, .. }
            | ApiError::Redirected { status, .. } => *status,
            ApiError::Invalid(_)
            | ApiError::Timeout
            | ApiError::Network(_)
            | ApiError::Decode { .. }
            | ApiError::Config(_)
            | ApiError::Refused(_) => return None,
        })
    }

    /// `true` when a paid request that ended in this error may still have been processed and
    /// charged (5xx, a timeout, a broken connection after sending, an answer that did not
    /// read): it is never resent by itself; resume decides from the store. `false` for the
    /// refusals where the service charges nothing (4xx) and for what never left the client.
    pub fn may_have_charged(&self) -> bool {
        matches!(
            self,
            ApiError::Server { .. }
                | ApiError::Timeout
                | ApiError::Network(_)
                | ApiError::Decode { .. }
                | ApiError::Unexpected { .. }
        )
    }

    /// Builds `Decode` from a `serde_path_to_error` failure (path of the failing field). Quoted
    /// input values in serde's message (`invalid type: string "ada@example.com"`) are blanked,
    /// so contact data in a malformed answer never reaches the error text or logs.
    pub fn decode(err: serde_path_to_error::Error<serde_json::Error>) -> ApiError {
        let path = err.path().to_string();
        ApiError::Decode {
            path,
            message: blank_quoted(&err.into_inner().to_string()),
        }
    }

    /// Builds `Timeout` or `Network` from a transport error, without its URL, with `token`
    /// (when non-empty) replaced by `***`.
    pub fn transport(err: reqwest::Error, token: &str) -> ApiError {
        if err.is_timeout() {
            return ApiError::Timeout;
        }
        let err = err.without_url();
        let mut msg = err.to_string();
        let mut source = std::error::Error::source(&err);
        while let Some(s) = source {
            let s_text = s.to_string();
            if !msg.contains(&s_text) {
                msg.push_str(": ");
                msg.push_str(&s_text);
            }
            source = s.source();
        }
        ApiError::Network(redact(&msg, token))
    }
}

/// Replaces the contents of every `"..."` in `text` with `…`.
fn blank_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut inside = false;
    for c in text.chars() {
        if c == '"' {
            if inside {
                out.push('…');
            }
            inside = !inside;
            out.push(c);
        } else if !inside {
            out.push(c);
        }
    }
    out
}

/// Replaces every occurrence of `token` in `text` with `***` (no-op for an empty token) and
/// blanks any `apiToken=` query value.
pub fn redact(text: &str, token: &str) -> String {
    let mut out = if token.is_empty() {
        text.to_string()
    } else {
        text.replace(token, "***")
    };
    let mut from = 0;
    while let Some(i) = out[from..].find("apiToken=") {
        let start = from + i + "apiToken=".len();
        let end = out[start..]
            .find(['&', ' ', '"', ')', '#'])
            .map(|j| start + j)
            .unwrap_or(out.len());
        out.replace_range(start..end, "***");
        from = start + 3;
    }
    out
}
