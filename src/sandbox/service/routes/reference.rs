//! 17 and 19. Free endpoints: the reference data and the warmup of domains.

use axum::extract::State;

use super::{Answer, Call, St, blocking, ok_typed};
use crate::api::client::Endpoint;
use crate::api::types::*;
use crate::sandbox::service::{engine_calls, validation};

/// GET /v2/data-fields (SPEC.md §4.8): free; answered from the reference data, so also while
/// the companies are still loading.
pub(in crate::sandbox::service) async fn data_fields(State(st): St, _call: Call) -> Answer {
    let reference = st.gathering.reference().clone();
    ok_typed(blocking(move || engine_calls::data_fields(&reference)).await?).await
}

/// POST /v2/warmup/companies (openapi `WarmupCompaniesBody`): free; known domains are
/// `successfulDomains`, plausible unknown ones start gathering (`triggeredDomains`), others are
/// `ignoredDomains` ([`crate::sandbox::service::gathering::Gathering::warmup`]).
pub(in crate::sandbox::service) async fn warmup_companies(State(st): St, call: Call) -> Answer {
    let req: WarmupCompaniesRequest =
        validation::parse_request(Endpoint::WarmupCompanies, &call.headers, &call.body)?;
    ok_typed(st.gathering.warmup(&req.domains).await?).await
}
