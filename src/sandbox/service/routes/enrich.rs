//! 11-12. Enrich company (0.1 credit per company found; 201 while an unknown domain is being
//! gathered) and enrich person (3 credits per person found; reveal options as NOTES.md).

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde_json::Value;

use super::{Answer, Call, St, blocking, ok_typed};
use crate::api::client::Endpoint;
use crate::api::types::*;
use crate::sandbox::service::billing::{self, reveal_opts, settle_people, standard_price};
use crate::sandbox::service::error::{Failure, detail_answer, texts};
use crate::sandbox::service::gathering::Started;
use crate::sandbox::service::{engine_calls, validation};

/// `true` for an empty body or `{}`/`null` (SPEC.md §7 "Empty body").
fn is_blank_json(body: &[u8]) -> bool {
    if body.iter().all(u8::is_ascii_whitespace) {
        return true;
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Null) => true,
        Ok(Value::Object(m)) => m.is_empty(),
        _ => false,
    }
}

/// The domain an enrich-company request names (`company.domain`, else the domain of
/// `company.email`), normalized; `None` when it names none that looks like a domain.
fn requested_domain(req: &EnrichCompanyRequest) -> Option<String> {
    let c = req.company.as_ref()?;
    let raw = c
        .domain
        .clone()
        .filter(|d| !d.trim().is_empty())
        .or_else(|| {
            c.email
                .as_ref()
                .and_then(|e| e.rsplit_once('@').map(|(_, d)| d.to_string()))
        })?;
    Some(crate::sandbox::engine::normalize_domain(&raw))
}

/// POST /v2/enrich/company (SPEC.md §4.10, §3): 0.1 credit per company found; an unknown
/// domain answers 201 "Data gathering process has started..." and is known after the
/// configured delay; an unmatched request without a domain answers 404 with no body.
pub(in crate::sandbox::service) async fn enrich_company(State(st): St, call: Call) -> Answer {
    if is_blank_json(&call.body) {
        return Err(Failure::bad_request(texts::EMPTY_BODY));
    }
    let req: EnrichCompanyRequest =
        validation::parse_request(Endpoint::EnrichCompany, &call.headers, &call.body)?;
    if req.is_empty() {
        return Err(Failure::bad_request(texts::EMPTY_BODY));
    }
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    let db = st.db().await?;
    let found = {
        let req = req.clone();
        blocking(move || engine_calls::enrich_company(&db, &req)).await?
    };
    let mut answer = match found {
        Some(v) => v,
        None => {
            let Some(domain) = requested_domain(&req) else {
                return Err(Failure::NotFoundEmpty);
            };
            match st.gathering.start(&domain).await? {
                Started::NotADomain => return Err(Failure::NotFoundEmpty),
                Started::UnderWay => {
                    return Ok(
                        detail_answer(StatusCode::CREATED, texts::DATA_GATHERING_STARTED)
                            .into_response(),
                    );
                }
                Started::There => {
                    let db = st.db().await?;
                    blocking(move || engine_calls::enrich_company(&db, &req))
                        .await?
                        .ok_or(Failure::NotFoundEmpty)?
                }
            }
        }
    };
    answer.credits_used = billing::charge_results(&call.account, Endpoint::EnrichCompany, 1)?;
    ok_typed(answer).await
}

/// POST /v2/enrich/person (SPEC.md §4.4): 3 credits per person found; 404 "No matching record
/// found"; 400 "Empty `person` body"; reveal options deliver `enrich_person_email` /
/// `enrich_person_phone`.
pub(in crate::sandbox::service) async fn enrich_person(State(st): St, call: Call) -> Answer {
    if is_blank_json(&call.body) {
        return Err(Failure::bad_request(texts::EMPTY_PERSON_BODY));
    }
    let req: EnrichPersonRequest =
        validation::parse_request(Endpoint::EnrichPerson, &call.headers, &call.body)?;
    if req.person_is_empty() {
        return Err(Failure::bad_request(texts::EMPTY_PERSON_BODY));
    }
    let opts = reveal_opts(req.reveal_emails.as_ref(), req.reveal_phones.as_ref())?;
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    let db = st.db().await?;
    let found = {
        let db = db.clone();
        blocking(move || engine_calls::enrich_person(&db, &req)).await?
    };
    let Some(mut answer) = found else {
        return Err(Failure::detail(
            StatusCode::NOT_FOUND,
            texts::NO_MATCHING_RECORD,
        ));
    };
    let price = standard_price(Endpoint::EnrichPerson, 1, false);
    answer.credits_used = settle_people(
        &st,
        &db,
        &call.account,
        texts::INSUFFICIENT_CREDITS,
        price,
        std::slice::from_mut(&mut answer.person),
        &opts,
        None,
        true,
    )?;
    ok_typed(answer).await
}
