//! What an answer kept raw holds, by endpoint: for answers read back later (recovery files)
//! rather than at the call, where the request's type gives it.

use chrono::{DateTime, Utc};
use serde_json::Value;

use prospect_api::client::{ApiRequest, Endpoint};
use prospect_api::types::*;
use prospect_store::Bought;
use prospect_store::{Entities, PageFacts};

fn of<R: ApiRequest>(raw: &[u8], at: DateTime<Utc>) -> (Entities, Option<PageFacts>)
where
    R::Response: Bought,
{
    match super::lenient::read_lenient::<R>(200, raw) {
        Ok((answer, _)) => (answer.entities(at), answer.page_facts()),
        Err(_) => (Entities::default(), None),
    }
}

/// The entities (and a search page's facts) of the 2xx answer `raw` of `endpoint`, as far as
/// it decodes; nothing for an answer that does not, or an endpoint that charges nothing.
pub fn entities_of(
    endpoint: Endpoint,
    _request: &Value,
    raw: &[u8],
    at: DateTime<Utc>,
) -> (Entities, Option<PageFacts>) {
    match endpoint {
        Endpoint::SearchCompaniesV2 => of::<SearchCompaniesV2Request>(raw, at),
        Endpoint::SearchCompaniesV3 => of::<SearchCompaniesV3Request>(raw, at),
        Endpoint::SearchPeopleV2 => of::<SearchPeopleV2Request>(raw, at),
        Endpoint::SearchPeopleV3 => of::<SearchPeopleV3Request>(raw, at),
        Endpoint::SearchPeoplePreview => of::<SearchPeoplePreviewRequest>(raw, at),
        Endpoint::EnrichCompany => of::<EnrichCompanyRequest>(raw, at),
        Endpoint::EnrichPerson => of::<EnrichPersonRequest>(raw, at),
        Endpoint::LookupCompanies => of::<LookupCompaniesRequest>(raw, at),
        Endpoint::LookupPeople => of::<LookupPeopleRequest>(raw, at),
        _ => (Entities::default(), None),
    }
}
