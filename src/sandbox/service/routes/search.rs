//! 6-10. Company searches (0.2 credit per company returned) and people searches (v2: 1 credit
//! per person, 3 with `lookalikeDomains`; v3 and preview: 0.2 per person), with the reveal
//! options of NOTES.md.

use axum::extract::State;

use super::{Answer, Call, St, answer_with};
use crate::api::client::Endpoint;
use crate::api::types::*;
use crate::sandbox::service::billing::{self, reveal_opts, settle_people, standard_price};
use crate::sandbox::service::error::{Failure, texts};
use crate::sandbox::service::{engine_calls, validation};

/// POST /v2/search/companies (SPEC.md §4.2): legacy plan only.
pub(in crate::sandbox::service) async fn search_companies_v2(State(st): St, call: Call) -> Answer {
    let req: SearchCompaniesV2Request =
        validation::parse_request(Endpoint::SearchCompaniesV2, &call.headers, &call.body)?;
    if !call.account.plan.allows_v2_search() {
        return Err(Failure::bad_request(texts::PLAN_NOT_SUPPORTED));
    }
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    let db = st.db().await?;
    answer_with(move || {
        let mut answer = engine_calls::search_companies_v2(&db, &req)?;
        answer.credits_used = billing::charge_results(
            &call.account,
            Endpoint::SearchCompaniesV2,
            answer.companies.len(),
        )?;
        Ok(answer)
    })
    .await
}

/// POST /v3/search/companies (SPEC.md §4.10; openapi `PublicSearchCompaniesBodyV3`).
pub(in crate::sandbox::service) async fn search_companies_v3(State(st): St, call: Call) -> Answer {
    let req: SearchCompaniesV3Request =
        validation::parse_request(Endpoint::SearchCompaniesV3, &call.headers, &call.body)?;
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    let db = st.db().await?;
    answer_with(move || {
        let mut answer = engine_calls::search_companies_v3(&db, &req)?;
        answer.credits_used = billing::charge_results(
            &call.account,
            Endpoint::SearchCompaniesV3,
            answer.companies.len(),
        )?;
        Ok(answer)
    })
    .await
}

/// POST /v2/search/people (SPEC.md §4.3): legacy plan only; 3 credits per person with
/// `lookalikeDomains`, 1 without; 402 "Insufficient standard credits".
pub(in crate::sandbox::service) async fn search_people_v2(State(st): St, call: Call) -> Answer {
    let req: SearchPeopleV2Request =
        validation::parse_request(Endpoint::SearchPeopleV2, &call.headers, &call.body)?;
    if !call.account.plan.allows_v2_search() {
        return Err(Failure::bad_request(texts::PLAN_NOT_SUPPORTED));
    }
    let opts = reveal_opts(req.reveal_emails.as_ref(), req.reveal_phones.as_ref())?;
    call.account
        .require_standard(texts::INSUFFICIENT_STANDARD_CREDITS)?;
    let lookalike = req
        .companies_filters
        .as_ref()
        .and_then(|f| f.lookalike_domains.as_ref())
        .is_some_and(|d| !d.is_empty());
    let db = st.db().await?;
    answer_with(move || {
        let mut answer = engine_calls::search_people_v2(&db, &req)?;
        let price = standard_price(Endpoint::SearchPeopleV2, answer.people.len(), lookalike);
        answer.credits_used = settle_people(
            &st,
            &db,
            &call.account,
            texts::INSUFFICIENT_STANDARD_CREDITS,
            price,
            &mut answer.people,
            &opts,
            answer.total,
            false,
        )?;
        Ok(answer)
    })
    .await
}

/// POST /v3/search/people (SPEC.md §4.10): 0.2 credit per person; reveal options as NOTES.md.
pub(in crate::sandbox::service) async fn search_people_v3(State(st): St, call: Call) -> Answer {
    let req: SearchPeopleV3Request =
        validation::parse_request(Endpoint::SearchPeopleV3, &call.headers, &call.body)?;
    let opts = reveal_opts(req.reveal_emails.as_ref(), req.reveal_phones.as_ref())?;
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    let db = st.db().await?;
    answer_with(move || {
        let mut answer = engine_calls::search_people_v3(&db, &req)?;
        let price = standard_price(Endpoint::SearchPeopleV3, answer.people.len(), false);
        answer.credits_used = settle_people(
            &st,
            &db,
            &call.account,
            texts::INSUFFICIENT_CREDITS,
            price,
            &mut answer.people,
            &opts,
            answer.total,
            false,
        )?;
        Ok(answer)
    })
    .await
}

/// POST /v3/search/people/preview (SPEC.md §4.10): enterprise and legacy plans only (403
/// otherwise); 0.2 credit per person.
pub(in crate::sandbox::service) async fn search_people_preview(
    State(st): St,
    call: Call,
) -> Answer {
    let req: SearchPeoplePreviewRequest =
        validation::parse_request(Endpoint::SearchPeoplePreview, &call.headers, &call.body)?;
    if !call.account.plan.allows_preview() {
        return Err(Failure::forbidden(texts::FEATURE_NOT_ALLOWED));
    }
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    let db = st.db().await?;
    answer_with(move || {
        let mut answer = engine_calls::search_people_preview(&db, &req)?;
        answer.credits_used = billing::charge_results(
            &call.account,
            Endpoint::SearchPeoplePreview,
            answer.people.len(),
        )?;
        Ok(answer)
    })
    .await
}
