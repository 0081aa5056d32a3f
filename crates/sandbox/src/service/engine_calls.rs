//! The one place where the service calls the query engine (`Db` methods, written by the engine's
//! owner as pure functions). Each adapter returns the engine's typed answer (`api::types`), an
//! engine refusal as a 422, so the handlers stay independent of the engine's exact signatures.

use super::error::Failure;
use crate::dataset::load::Db;
use prospect_api::types::*;

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

/// v2 company search (SPEC.md §4.2): the answer, its records serialized once
/// ([`Db::record_json`]); `companies` are what is charged.
pub(crate) fn search_companies_v2(
    db: &Db,
    r: &SearchCompaniesV2Request,
) -> Result<SearchCompaniesV2Response<RecordJson>, Failure> {
    db.search_companies_v2_with(r, Db::record_json)
        .map_err(refused)
}
/// v3 company search (SPEC.md §4.10), its records serialized once ([`Db::record_json`]).
pub(crate) fn search_companies_v3(
    db: &Db,
    r: &SearchCompaniesV3Request,
) -> Result<SearchCompaniesV3Response<RecordJson>, Failure> {
    db.search_companies_v3_with(r, Db::record_json)
        .map_err(refused)
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
/// v3 people search, each result serialized once ([`Db::lookalike_person_json`]): for an
/// answer that reveals no contact.
pub(crate) fn search_people_v3_json(
    db: &Db,
    r: &SearchPeopleV3Request,
) -> Result<SearchPeopleV3Response<RecordJson>, Failure> {
    db.search_people_v3_with(r, Db::lookalike_person_json)
        .map_err(refused)
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
) -> Result<LookupCompaniesResponse<LookupEntryJson>, Failure> {
    Ok(
        db.lookup_companies_with(r, |db, domain, found| LookupEntryJson {
            domain: domain.to_string(),
            company: found.map(|(i, alias)| match alias {
                // The record names the alias it was reached by: not the one serialized for all.
                Some(alias) => {
                    let mut c = crate::engine::records::company(db, i);
                    c.redirected_from = vec![alias.to_string()];
                    RecordJson::of(&c)
                }
                None => db.record_json(i),
            }),
        }),
    )
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
pub(crate) fn person_contact(db: &Db, id: &str) -> Option<crate::engine::people::PersonContact> {
    db.person_contact(id)
}

/// Reference data (SPEC.md §2.8), from the dataset's reference data alone.
pub(crate) fn data_fields(
    reference: &crate::dataset::format::Reference,
) -> Result<DataFields, Failure> {
    Ok(crate::engine::enrich::data_fields(reference))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testdata;
    use serde_json::json;

    /// The answers the service writes from records serialized once (issue 18, "Speed") are the
    /// JSON the typed answers give, the first time and from the caches; an alias's record names
    /// it in `redirectedFrom` while the same company's cached record does not.
    #[test]
    fn answers_from_serialized_records_are_the_typed_answers() {
        let db = testdata::db();
        let v3: SearchCompaniesV3Request = serde_json::from_value(json!({
            "size": 3,
            "companiesFilters": {"primaryLocations": {"includeCountries": ["us", "de", "gb"]}}
        }))
        .unwrap();
        let typed = serde_json::to_value(db.search_companies_v3(&v3).unwrap()).unwrap();
        assert!(!typed["companies"].as_array().unwrap().is_empty());
        for _ in 0..2 {
            let raw = serde_json::to_value(search_companies_v3(&db, &v3).unwrap()).unwrap();
            assert_eq!(raw, typed);
        }
        let next: SearchCompaniesV3Request = serde_json::from_value(json!({
            "size": 3,
            "searchAfter": typed["searchAfter"],
            "companiesFilters": {"primaryLocations": {"includeCountries": ["us", "de", "gb"]}}
        }))
        .unwrap();
        assert_eq!(
            serde_json::to_value(search_companies_v3(&db, &next).unwrap()).unwrap(),
            serde_json::to_value(db.search_companies_v3(&next).unwrap()).unwrap(),
            "the next page from the kept ranking"
        );
        let v2: SearchCompaniesV2Request = serde_json::from_value(json!({
            "size": 5,
            "companiesFilters": {"lookalikeDomains": ["acme.io"], "minScore": 0.1}
        }))
        .unwrap();
        let typed = serde_json::to_value(db.search_companies_v2(&v2).unwrap()).unwrap();
        for _ in 0..2 {
            let raw = serde_json::to_value(search_companies_v2(&db, &v2).unwrap()).unwrap();
            assert_eq!(raw, typed);
        }
        let lookup = LookupCompaniesRequest {
            domains: vec![
                "acme.io".into(),
                "https://www.acme-old.com/".into(),
                "nowhere.example".into(),
                "acme.io".into(),
            ],
            ..Default::default()
        };
        let typed = serde_json::to_value(db.lookup_companies(&lookup)).unwrap();
        assert_eq!(typed["totalFound"], 3);
        assert_eq!(typed["redirectMap"], json!({"acme-old.com": "acme.io"}));
        assert_eq!(
            typed["companies"][1]["company"]["redirectedFrom"],
            json!(["acme-old.com"])
        );
        for _ in 0..2 {
            let raw = serde_json::to_value(lookup_companies(&db, &lookup).unwrap()).unwrap();
            assert_eq!(raw, typed);
        }
    }
}
