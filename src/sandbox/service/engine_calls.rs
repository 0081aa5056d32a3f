//! The one place where the service calls the query engine (`Db` methods, written by the engine's
//! owner as pure functions). Each adapter returns the engine's typed answer (`api::types`), an
//! engine refusal as a 422, so the handlers stay independent of the engine's exact signatures.

use super::error::Failure;
use crate::api::types::*;
use crate::sandbox::dataset::load::Db;

/// An engine refusal of a request (e.g. a `searchAfter` cursor it cannot read) → 422.
fn refused(errors: Vec<ValidationError>) -> Failure {
    Failure::Validation(errors)
}

/// Autocomplete of company names (SPEC.md §4.1).
pub(crate) fn autocomplete_companies(
    db: &Db,
    r: &AutocompleteCompaniesRequest,
) -> Result<AutocompleteCompaniesResponse, Failure> {
    Ok(db.autocomplete_companies(r))
}
/// Autocomplete of keywords.
pub(crate) fn autocomplete_keywords(
    db: &Db,
    r: &AutocompleteKeywordsRequest,
) -> Result<AutocompleteKeywordsResponse, Failure> {
    Ok(db.autocomplete_keywords(r))
}
/// Autocomplete of job titles.
pub(crate) fn autocomplete_job_titles(
    db: &Db,
    r: &AutocompleteJobTitlesRequest,
) -> Result<AutocompleteJobTitlesResponse, Failure> {
    Ok(db.autocomplete_job_titles(r))
}
/// Autocomplete of locations.
pub(crate) fn autocomplete_locations(
    db: &Db,
    r: &AutocompleteLocationsRequest,
) -> Result<AutocompleteLocationsResponse, Failure> {
    Ok(db.autocomplete_locations(r))
}
/// Autocomplete of skills.
pub(crate) fn autocomplete_skills(
    db: &Db,
    r: &AutocompleteSkillsRequest,
) -> Result<AutocompleteSkillsResponse, Failure> {
    Ok(db.autocomplete_skills(r))
}

/// v2 company search (SPEC.md §4.2): the answer; `companies` are what is charged.
pub(crate) fn search_companies_v2(
    db: &Db,
    r: &SearchCompaniesV2Request,
) -> Result<SearchCompaniesV2Response, Failure> {
    db.search_companies_v2(r).map_err(refused)
}
/// v3 company search.
pub(crate) fn search_companies_v3(
    db: &Db,
    r: &SearchCompaniesV3Request,
) -> Result<SearchCompaniesV3Response, Failure> {
    db.search_companies_v3(r).map_err(refused)
}
/// v2 people search (SPEC.md §4.3).
pub(crate) fn search_people_v2(
    db: &Db,
    r: &SearchPeopleV2Request,
) -> Result<SearchPeopleV2Response, Failure> {
    db.search_people_v2(r).map_err(refused)
}
/// v3 people search.
pub(crate) fn search_people_v3(
    db: &Db,
    r: &SearchPeopleV3Request,
) -> Result<SearchPeopleV3Response, Failure> {
    db.search_people_v3(r).map_err(refused)
}
/// v3 people preview search.
/// Company preview search (openapi `PublicPreviewSearchCompaniesV3Body`).
pub(crate) fn search_companies_preview(
    db: &Db,
    r: &SearchCompaniesPreviewRequest,
) -> Result<SearchCompaniesPreviewResponse, Failure> {
    db.search_companies_preview(r).map_err(refused)
}

pub(crate) fn search_people_preview(
    db: &Db,
    r: &SearchPeoplePreviewRequest,
) -> Result<SearchPeoplePreviewResponse, Failure> {
    db.search_people_preview(r).map_err(refused)
}

/// Enrich company: the matched company record, if any.
pub(crate) fn enrich_company(
    db: &Db,
    r: &EnrichCompanyRequest,
) -> Result<Option<EnrichCompanyResponse>, Failure> {
    Ok(db.enrich_company(r))
}

/// Enrich person: the matched person record, if any.
pub(crate) fn enrich_person(
    db: &Db,
    r: &EnrichPersonRequest,
) -> Result<Option<EnrichPersonResponse>, Failure> {
    Ok(db.enrich_person(r))
}

/// Lookup companies (SPEC.md §4.5; gathered companies included).
pub(crate) fn lookup_companies(
    db: &Db,
    r: &LookupCompaniesRequest,
) -> Result<LookupCompaniesResponse, Failure> {
    Ok(db.lookup_companies(r))
}

/// Lookup people (SPEC.md §4.6).
pub(crate) fn lookup_people(
    db: &Db,
    r: &LookupPeopleRequest,
) -> Result<LookupPeopleResponse, Failure> {
    Ok(db.lookup_people(r))
}

/// The email and phone of a person id as verification finds them (the engine's
/// `PersonContact`: address, statuses, numbers).
pub(crate) fn person_contact(
    db: &Db,
    id: &str,
) -> Option<crate::sandbox::engine::people::PersonContact> {
    db.person_contact(id)
}

/// Reference data (SPEC.md §2.8), from the dataset's reference data alone.
pub(crate) fn data_fields(
    reference: &crate::sandbox::dataset::format::Reference,
) -> Result<DataFields, Failure> {
    Ok(crate::sandbox::engine::enrich::data_fields(reference))
}
