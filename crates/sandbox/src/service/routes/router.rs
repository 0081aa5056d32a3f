//! The router of the 19 endpoints (SPEC.md §4), with the panic guard and the 404 and 405
//! answers.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures::FutureExt;

use super::autocomplete::*;
use super::credits::*;
use super::enrich::*;
use super::lookup::*;
use super::reference::*;
use super::reveal::*;
use super::search::*;
use super::segmentation::*;
use crate::service::error::{Failure, texts};
use crate::service::state::AppState;

/// Last guard: a panic in a handler becomes a 500 JSON answer, never a dropped connection.
async fn catch_panic(req: Request, next: Next) -> Response {
    match AssertUnwindSafe(next.run(req)).catch_unwind().await {
        Ok(r) => r,
        Err(_) => {
            tracing::error!("a handler panicked");
            Failure::internal().into_response()
        }
    }
}

/// Reads and throws away the body of a request answered without it (a 404, a 405), as
/// [`super::call::read_body`] reads a refused one, so the client's connection stays usable for
/// its next request (issue 38: a pooling client's next request failed on it).
async fn drain(state: &AppState, req: Request) {
    let declared = req
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let _ = super::call::read_body(req.into_body(), declared, state.body_limit).await;
}

async fn not_found(State(state): State<Arc<AppState>>, req: Request) -> Failure {
    drain(&state, req).await;
    Failure::detail(StatusCode::NOT_FOUND, texts::NOT_FOUND)
}

async fn method_not_allowed(State(state): State<Arc<AppState>>, req: Request) -> Failure {
    drain(&state, req).await;
    Failure::detail(StatusCode::METHOD_NOT_ALLOWED, texts::METHOD_NOT_ALLOWED)
}

/// A 413 says `Connection: close`: its body may have been left unread (past the drain cap),
/// and a client must not send its next request on that connection.
async fn close_after_too_large(req: Request, next: Next) -> Response {
    let mut r = next.run(req).await;
    if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
        r.headers_mut().insert(
            axum::http::header::CONNECTION,
            axum::http::HeaderValue::from_static("close"),
        );
    }
    r
}

/// The router of the service.
pub(crate) fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/v2/autocomplete/companies", post(autocomplete_companies))
        .route("/v2/autocomplete/keywords", post(autocomplete_keywords))
        .route("/v2/autocomplete/job-titles", post(autocomplete_job_titles))
        .route("/v2/autocomplete/locations", post(autocomplete_locations))
        .route("/v2/autocomplete/skills", post(autocomplete_skills))
        .route("/v2/search/companies", post(search_companies_v2))
        .route("/v3/search/companies", post(search_companies_v3))
        .route("/v2/search/people", post(search_people_v2))
        .route("/v3/search/people", post(search_people_v3))
        .route("/v3/search/people/preview", post(search_people_preview))
        .route("/v2/enrich/company", post(enrich_company))
        .route("/v2/enrich/person", post(enrich_person))
        .route("/v2/lookup/companies", post(lookup_companies))
        .route("/v2/lookup/people", post(lookup_people))
        .route("/v2/reveal/emails", post(reveal_emails))
        .route("/v2/reveal/phones", post(reveal_phones))
        .route("/v2/data-fields", get(data_fields))
        .route("/v2/credits/balance", get(credit_balance))
        .route("/v2/warmup/companies", post(warmup_companies))
        .route(
            "/v3/search/companies/preview",
            post(search_companies_preview),
        )
        .route("/v2/enrich/companies", post(enrich_companies))
        .route("/v2/enrich/people", post(enrich_people))
        .route("/v2/segmentation", post(create_segmentation))
        .route("/v2/segmentation/{segmentation_id}", get(get_segmentation))
        .route(
            "/v2/segmentation/{segmentation_id}/markDomains",
            post(mark_segmentation_domains),
        )
        .route(
            "/v2/segmentation/{segmentation_id}/attribute-domains",
            post(attribute_segmentation_domains),
        )
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn(catch_panic))
        .layer(axum::middleware::from_fn(close_after_too_large))
        .with_state(state)
}
