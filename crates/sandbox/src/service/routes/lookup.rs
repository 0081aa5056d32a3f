//! 13-14. Lookup (SPEC.md §4.5, §4.6): 0.05 credit per record found.

use axum::extract::State;

use super::call::{Answer, Call, St, answer_with};
use crate::engine::normalize_domain;
use crate::service::billing::{self, PersonRecord};
use crate::service::engine_calls;
use crate::service::error::texts;
use crate::service::reveal::{self, Channel};
use crate::service::validation;
use prospect_api::client::Endpoint;
use prospect_api::types::*;

/// POST /v2/lookup/companies (SPEC.md §4.5; NOTES.md: one `{domain, company|null}` entry per
/// requested domain plus the totals). Up to 1000 records, built and serialized off the async
/// threads; gathered companies are in the database snapshot.
pub(crate) async fn lookup_companies(State(st): St, call: Call) -> Answer {
    let req: LookupCompaniesRequest =
        validation::parse_request(Endpoint::LookupCompanies, &call.headers, &call.body)?;
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    let domains: Vec<String> = req.domains.iter().map(|d| normalize_domain(d)).collect();
    let db = st.gathering.db_for_domains(&domains).await?;
    answer_with(move || {
        let mut answer = engine_calls::lookup_companies(&db, &req)?;
        let found = answer.total_found.max(0) as usize;
        answer.credits_used =
            billing::charge_results(&call.account, Endpoint::LookupCompanies, found)?;
        Ok(answer)
    })
    .await
}

/// POST /v2/lookup/people (SPEC.md §4.6): only matched people; no email or phone revealed.
pub(crate) async fn lookup_people(State(st): St, call: Call) -> Answer {
    let req: LookupPeopleRequest =
        validation::parse_request(Endpoint::LookupPeople, &call.headers, &call.body)?;
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    let db = st.db().await?;
    answer_with(move || {
        let mut answer = engine_calls::lookup_people(&db, &req)?;
        {
            let mut people: Vec<_> = answer
                .people
                .iter_mut()
                .map(PersonRecord::person_mut)
                .collect();
            reveal::mask(&mut people, Channel::Email);
            reveal::mask(&mut people, Channel::Phone);
        }
        answer.credits_used =
            billing::charge_results(&call.account, Endpoint::LookupPeople, answer.people.len())?;
        Ok(answer)
    })
    .await
}
