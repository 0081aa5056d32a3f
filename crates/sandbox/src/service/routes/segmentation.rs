//! ICP segmentation (openapi.json only): create (0.1 credit per distinct domain, computed in the
//! background), get, mark domains, attribute domains (free). See
//! [`crate::engine::segment`] for the method and [`super::super::segmentation`] for
//! the lifecycle.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;

use super::call::{Answer, Call, St, blocking, ok_typed};
use crate::engine::segment::{self, Ask};
use crate::service::accounts::Account;
use crate::service::billing;
use crate::service::error::{Failure, texts};
use crate::service::segmentation::Lookup;
use crate::service::shapes;
use crate::service::validation;
use prospect_api::client::Endpoint;
use prospect_api::types::*;

/// The account's key in [`super::super::segmentation::Segmentations`].
fn owner(account: &Arc<Account>) -> usize {
    Arc::as_ptr(account) as usize
}

/// Reads the `{segmentation_id}` of a path as pydantic reads an integer (`" 7 "`, `"1_0"`);
/// 422 `int_parsing` at `["path", "segmentation_id"]` otherwise.
fn segmentation_id(raw: &str) -> Result<i64, Box<ValidationError>> {
    shapes::lax_integer(raw).ok_or_else(|| {
        Box::new(ValidationError {
            input: Some(raw.into()),
            ..ValidationError::new(
                [
                    LocSegment::from("path"),
                    LocSegment::from("segmentation_id"),
                ],
                "Input should be a valid integer, unable to parse string as an integer",
                "int_parsing",
            )
        })
    })
}

/// The id and the body of a request to one segmentation, with every problem of both in one 422.
fn id_and_body<T: serde::de::DeserializeOwned + Validate>(
    endpoint: Endpoint,
    raw_id: &str,
    call: &Call,
) -> Result<(i64, T), Failure> {
    let id = segmentation_id(raw_id);
    let body = validation::parse_request::<T>(endpoint, &call.headers, &call.body);
    match (id, body) {
        (Ok(id), Ok(body)) => Ok((id, body)),
        (Ok(_), Err(f)) => Err(f),
        (Err(e), Ok(_)) => Err(Failure::invalid(*e)),
        (Err(e), Err(Failure::Validation(mut rest))) => {
            rest.insert(0, *e);
            Err(Failure::Validation(rest))
        }
        (Err(_), Err(f)) => Err(f),
    }
}

/// Segments `ask` off the async threads and records the outcome of segmentation `id` (with
/// `marks` made before it was done).
pub(crate) fn compute(
    st: Arc<crate::service::state::AppState>,
    db: Arc<crate::dataset::load::Db>,
    id: i64,
    ask: Ask,
    marks: Vec<(MarkType, Vec<String>)>,
) {
    tokio::spawn(async move {
        let work_db = db.clone();
        let result = blocking(move || Ok(segment::segment(&work_db, &ask))).await;
        let result = result.unwrap_or_else(|_| {
            Err(segment::Failed(
                "the segmentation could not be computed".into(),
            ))
        });
        st.segmentations.finish(&db, id, result, &marks);
    });
}

fn not_found() -> Failure {
    Failure::detail(StatusCode::NOT_FOUND, texts::SEGMENTATION_NOT_FOUND)
}

/// POST /v2/segmentation (openapi `SegmentationInput` → `SegmentationId`): charges 0.1 credit
/// per distinct domain of `domains` (402 "Insufficient credits" before anything starts), answers
/// the new id at once, and segments in the background.
pub(crate) async fn create_segmentation(State(st): St, call: Call) -> Answer {
    let endpoint = Endpoint::CreateSegmentation;
    let req: SegmentationInput = validation::parse_request(endpoint, &call.headers, &call.body)?;
    let distinct: std::collections::HashSet<String> = req
        .domains
        .iter()
        .map(|d| crate::engine::normalize_domain(d))
        .filter(|d| !d.is_empty())
        .collect();
    billing::charge_results(&call.account, endpoint, distinct.len())?;
    let db = st.db().await?;
    let ask = Ask {
        domains: req.domains,
        features: req.lead_scoring_features.unwrap_or_default(),
        mode: req.number_of_segments_mode.unwrap_or(0),
        positive: req.positive_domains.unwrap_or_default(),
        negative: req.negative_domains.unwrap_or_default(),
    };
    let id = st.segmentations.start(owner(&call.account), &ask);
    compute(st.clone(), db, id, ask, Vec::new());
    ok_typed(SegmentationId {
        segmentation_id: id,
    })
    .await
}

/// GET /v2/segmentation/{segmentation_id} (openapi `Segmentation`): `IN_PROGRESS`, then
/// `SUCCESSFUL` with the segments (`crmMetrics` and `totalUntouched` `null`: the sandbox has no
/// CRM), or `FAILED`; 404 "Segmentation not found" for an id the account does not have. Free.
pub(crate) async fn get_segmentation(State(st): St, Path(raw): Path<String>, call: Call) -> Answer {
    let id = segmentation_id(&raw).map_err(|e| Failure::invalid(*e))?;
    let answer = st
        .segmentations
        .get(owner(&call.account), id)
        .ok_or_else(not_found)?;
    ok_typed(answer).await
}

/// POST /v2/segmentation/{segmentation_id}/markDomains (openapi `AddMarkedDomainsInput` →
/// `StatusResponse` `{"status":"ok"}`): appends to the positive or negative list, which steers
/// later attributions. Free.
pub(crate) async fn mark_segmentation_domains(
    State(st): St,
    Path(raw): Path<String>,
    call: Call,
) -> Answer {
    let (id, req): (i64, AddMarkedDomainsInput) =
        id_and_body(Endpoint::MarkSegmentationDomains, &raw, &call)?;
    let db = st.db().await?;
    if !st
        .segmentations
        .mark(&db, owner(&call.account), id, &req.kind, &req.domains)
    {
        return Err(not_found());
    }
    ok_typed(StatusResponse {
        status: "ok".into(),
    })
    .await
}

/// POST /v2/segmentation/{segmentation_id}/attribute-domains (openapi
/// `AttributeSegmentationDomainsRequest` → `…Response`): each domain with its closest segment
/// and score, in order; 412 "Segmentation must be re-run to enable attribution." until the
/// segmentation has succeeded; 404 for an id the account does not have. Free.
pub(crate) async fn attribute_segmentation_domains(
    State(st): St,
    Path(raw): Path<String>,
    call: Call,
) -> Answer {
    let (id, req): (i64, AttributeDomainsRequest) =
        id_and_body(Endpoint::AttributeSegmentationDomains, &raw, &call)?;
    let model = match st.segmentations.model(owner(&call.account), id) {
        Lookup::NotFound => return Err(not_found()),
        Lookup::NotReady => {
            return Err(Failure::detail(
                StatusCode::PRECONDITION_FAILED,
                texts::SEGMENTATION_MUST_BE_RERUN,
            ));
        }
        Lookup::Ready(m) => m,
    };
    let db = st.db().await?;
    let answer = blocking(move || Ok(model.attribute(&db, &req.domains))).await?;
    ok_typed(answer).await
}
