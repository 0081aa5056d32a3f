//! The router of the 19 endpoints (SPEC.md §4), with the panic guard and the 404 and 405
//! answers.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
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

async fn not_found() -> Failure {
    Failure::detail(StatusCode::NOT_FOUND, texts::NOT_FOUND)
}

async fn method_not_allowed() -> Failure {
    Failure::detail(StatusCode::METHOD_NOT_ALLOWED, texts::METHOD_NOT_ALLOWED)
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
        .with_state(state)
}
