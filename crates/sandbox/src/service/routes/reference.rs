//! 17 and 19. Free endpoints: the reference data and the warmup of domains.

use axum::extract::State;

use super::call::{Answer, Call, St, blocking, ok_typed};
use crate::service::engine_calls;
use crate::service::validation;
use prospect_api::client::Endpoint;
use prospect_api::types::*;

/// GET /v2/data-fields (SPEC.md §4.8): free; answered from the reference data, so also while
/// the companies are still loading.
pub(crate) async fn data_fields(State(st): St, _call: Call) -> Answer {
    let reference = st.gathering.reference().clone();
    ok_typed(blocking(move || engine_calls::data_fields(&reference)).await?).await
}

/// POST /v2/warmup/companies (openapi `WarmupCompaniesBody`): free; known domains are
/// `successfulDomains`, plausible unknown ones start gathering (`triggeredDomains`), others are
/// `ignoredDomains` ([`crate::service::gathering::Gathering::warmup`]).
pub(crate) async fn warmup_companies(State(st): St, call: Call) -> Answer {
    let req: WarmupCompaniesRequest =
        validation::parse_request(Endpoint::WarmupCompanies, &call.headers, &call.body)?;
    ok_typed(st.gathering.warmup(&req.domains).await?).await
}
