//! The answers of the service that are not a success: status, `detail` text, and extra headers
//! (SPEC.md §7). Every handler returns `Result<_, Failure>`; [`Failure`] renders itself.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use prospect_api::types::common::ValidationError;

pub use prospect_api::error::detail as texts;

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

/// `{"detail": text}` with `status`: the body of every `Detail` failure and of the 201 "Data
/// gathering process has started" of enrich (SPEC.md §3, §7).
pub fn detail_answer(status: StatusCode, text: &str) -> Response {
    (status, axum::Json(json!({ "detail": text }))).into_response()
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        match self {
            Failure::Detail(status, text) => detail_answer(status, &text),
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
