//! The answers of the service that are not a success: status, `detail` text, and extra headers
//! (SPEC.md §7). Every handler returns `Result<_, Failure>`; [`Failure`] renders itself.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::api::types::common::ValidationError;

/// The exact `detail` texts of SPEC.md §7 (and the few the sandbox adds), in one place.
pub mod texts {
    /// 400, SPEC.md §5: token in query and header differ.
    pub const CONFLICTING_TOKENS: &str =
        "Conflicting API tokens provided in query parameters and headers";
    /// 403, SPEC.md §5: no token at all.
    pub const NO_TOKEN: &str = "API token should be provided in headers or query parameters";
    /// 403, SPEC.md §5: token not known.
    pub const UNKNOWN_TOKEN: &str = "Current API token is not registered in our database";
    /// 400, SPEC.md §4.2/§4.3: v2 searches on a plan that does not include them.
    pub const PLAN_NOT_SUPPORTED: &str = "Plan version not supported for this endpoint";
    /// 403 (openapi.json, companies preview): the preview search on a non-enterprise plan.
    pub const FEATURE_NOT_ALLOWED: &str = "You are not allowed to access this feature";
    /// 400: enrich company with an empty body.
    pub const EMPTY_BODY: &str = "Empty body";
    /// 400: enrich person with an empty `person`.
    pub const EMPTY_PERSON: &str = "Empty `person` body";
    /// 402: standard pool (most endpoints).
    pub const INSUFFICIENT_CREDITS: &str = "Insufficient credits";
    /// 402: standard pool, v2 people search.
    pub const INSUFFICIENT_STANDARD: &str = "Insufficient standard credits";
    /// 402: email pool.
    pub const INSUFFICIENT_EMAIL: &str = "Insufficient email credits";
    /// 402: phone pool.
    pub const INSUFFICIENT_PHONE: &str = "Insufficient phone credits";
    /// 402: pending email verifications may use the rest of the email pool.
    pub const EMAIL_IN_PROGRESS: &str = "Some email verifications are already in progress and might use all your remaining email credits. Please try again later.";
    /// 402: pending phone verifications may use the rest of the phone pool.
    pub const PHONE_IN_PROGRESS: &str = "Some phone verifications are already in progress and might use all your remaining phone credits. Please try again later.";
    /// 404 of enrich person.
    pub const NO_MATCH: &str = "No matching record found";
    /// 201 of enrich company / person.
    pub const GATHERING: &str = "Data gathering process has started. Please try again later.";
    /// 404 for a path the service does not have (FastAPI's text).
    pub const NOT_FOUND: &str = "Not Found";
    /// 405 for a known path with another method (FastAPI's text).
    pub const METHOD_NOT_ALLOWED: &str = "Method Not Allowed";
    /// 413: body above the limit.
    pub const TOO_LARGE: &str = "Request body too large";
    /// 400: the request body stream broke off while being read (FastAPI's text).
    pub const BODY_UNREADABLE: &str = "There was an error parsing the body";
    /// 429: per-minute limit.
    pub const RATE_LIMITED: &str = "Rate limit exceeded: too many requests per minute";
    /// 429: daily allowance used up.
    pub const DAILY_LIMITED: &str = "Daily request limit exceeded";
    /// 500: a handler failed (should not happen; the panic guard's answer).
    pub const INTERNAL: &str = "Internal server error";
}

/// A non-success answer of the service.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// `{"detail": "<text>"}` with the given status (400, 402, 403, 404, 405, 413, 500).
    Detail(StatusCode, String),
    /// 404 with no body (SPEC.md §7: "other endpoints give no body").
    NotFoundEmpty,
    /// 422 `{"detail": [ValidationError...]}` (SPEC.md §2.10).
    Validation(Vec<ValidationError>),
    /// 429 `{"detail": "<text>"}` with header `Retry-After: <seconds>`.
    RateLimited {
        /// Seconds until a request can succeed again (at least 1).
        retry_after: u64,
        /// The detail text.
        detail: &'static str,
    },
}

impl Failure {
    /// `{"detail": text}` with `status`.
    pub fn detail(status: StatusCode, text: impl Into<String>) -> Failure {
        Failure::Detail(status, text.into())
    }
    /// 400 with `text`.
    pub fn bad_request(text: &str) -> Failure {
        Failure::detail(StatusCode::BAD_REQUEST, text)
    }
    /// 402 with `text`.
    pub fn payment(text: &str) -> Failure {
        Failure::detail(StatusCode::PAYMENT_REQUIRED, text)
    }
    /// 403 with `text`.
    pub fn forbidden(text: &str) -> Failure {
        Failure::detail(StatusCode::FORBIDDEN, text)
    }
    /// 422 with one entry.
    pub fn invalid(e: ValidationError) -> Failure {
        Failure::Validation(vec![e])
    }
    /// 500 with a generic text.
    pub fn internal() -> Failure {
        Failure::detail(StatusCode::INTERNAL_SERVER_ERROR, texts::INTERNAL)
    }
    /// The HTTP status of this answer.
    pub fn status(&self) -> StatusCode {
        match self {
            Failure::Detail(s, _) => *s,
            Failure::NotFoundEmpty => StatusCode::NOT_FOUND,
            Failure::Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Failure::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
        }
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        match self {
            Failure::Detail(status, text) => {
                (status, axum::Json(json!({ "detail": text }))).into_response()
            }
            Failure::NotFoundEmpty => StatusCode::NOT_FOUND.into_response(),
            Failure::Validation(detail) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                axum::Json(json!({ "detail": detail })),
            )
                .into_response(),
            Failure::RateLimited {
                retry_after,
                detail,
            } => {
                let mut r = (
                    StatusCode::TOO_MANY_REQUESTS,
                    axum::Json(json!({ "detail": detail })),
                )
                    .into_response();
                r.headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from(retry_after.max(1)));
                r
            }
        }
    }
}
