//! The five autocompletes (SPEC.md §4.1, §4.10; openapi `models__autocomplete_*__AutoCompletionBody`
//! / `...Result`, `AutoCompletionCompany`, `models__autocomplete_locations__Location`).
//!
//! Requests are strict (`additionalProperties: false`); responses are tolerant (openapi marks
//! them closed, but a tolerant reader ignores new members; a single string where a list of
//! suggestions is expected reads as a one-item list, as openapi.json's own examples show it).

use serde::{Deserialize, Deserializer, Serialize};

use super::common::{LocationSearchType, LocationType, Validate, ValidationError};
use super::company::unknown_enum;
use super::filters_v2::{LocPath, wire_checks};

/// Bounds of `limit` in the keyword, job-title, location and skill autocompletes (openapi).
pub const AUTOCOMPLETE_LIMIT_MAX: i64 = 15;

/// A list that also reads `null` (empty) and a single value (one item).
fn one_or_many<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany<T> {
        Many(Vec<T>),
        One(T),
    }
    Ok(match Option::<OneOrMany<T>>::deserialize(d)? {
        None => Vec::new(),
        Some(OneOrMany::Many(v)) => v,
        Some(OneOrMany::One(t)) => vec![t],
    })
}

fn validate_limit(limit: Option<i64>, out: &mut Vec<ValidationError>) {
    if let Some(l) = limit {
        let at = LocPath::body();
        let max = AUTOCOMPLETE_LIMIT_MAX as f64;
        wire_checks::range(l as f64, 1.0, max, &at.key("limit"), out);
    }
}

/// Body of `POST /v2/autocomplete/companies` (SPEC.md §4.1; openapi
/// `models__autocomplete_companies__AutoCompletionBody`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AutocompleteCompaniesRequest {
    /// Beginning of a company name or domain (required).
    pub name: String,
    /// Only suggest companies of these countries (lowercase two-letter codes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country_filters: Option<Vec<String>>,
    /// Domains to leave out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_domains: Option<Vec<String>>,
    /// `false` returns every matching company without checking it can seed a lookalike search
    /// (wire default `true`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub for_lookalike_search: Option<bool>,
}

impl Validate for AutocompleteCompaniesRequest {
    /// openapi sets no bounds on this body beyond its shape.
    fn validate(&self) -> Vec<ValidationError> {
        Vec::new()
    }
}

/// One suggestion of the company autocomplete (openapi `AutoCompletionCompany`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutocompleteCompany {
    /// Domain, the company's identifier.
    #[serde(default)]
    pub domain: String,
    /// Logo URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo: Option<String>,
    /// Company name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// Response 200 of `POST /v2/autocomplete/companies` (SPEC.md §4.1).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutocompleteCompaniesResponse {
    /// Suggestions; empty when nothing matched.
    #[serde(default, deserialize_with = "one_or_many")]
    pub companies: Vec<AutocompleteCompany>,
}

/// Body of `POST /v2/autocomplete/keywords` (openapi `models__autocomplete_keyword__AutoCompletionBody`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AutocompleteKeywordsRequest {
    /// Beginning of the keyword (required).
    pub query: String,
    /// Suggestions wanted, 1..=15 (wire default 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
}

impl Validate for AutocompleteKeywordsRequest {
    /// `limit` 1..=15.
    fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        validate_limit(self.limit, &mut out);
        out
    }
}

/// Response 200 of `POST /v2/autocomplete/keywords`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutocompleteKeywordsResponse {
    /// Suggested keywords; empty when nothing matched.
    #[serde(default, deserialize_with = "one_or_many")]
    pub keywords: Vec<String>,
}

/// Body of `POST /v2/autocomplete/job-titles` (openapi `models__autocomplete_job_title__AutoCompletionBody`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AutocompleteJobTitlesRequest {
    /// Beginning of the job title, 1..=100 characters (required).
    pub query: String,
    /// Suggestions wanted, 1..=15 (wire default 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
}

impl Validate for AutocompleteJobTitlesRequest {
    /// `query` 1..=100 characters, `limit` 1..=15.
    fn validate(&self) -> Vec<ValidationError> {
        let at = LocPath::body();
        let mut out = Vec::new();
        wire_checks::min_len(&self.query, 1, &at.key("query"), &mut out);
        wire_checks::max_len(&self.query, 100, &at.key("query"), &mut out);
        validate_limit(self.limit, &mut out);
        out
    }
}

/// Response 200 of `POST /v2/autocomplete/job-titles`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutocompleteJobTitlesResponse {
    /// Suggested job titles; empty when nothing matched.
    #[serde(default, deserialize_with = "one_or_many")]
    pub job_titles: Vec<String>,
}

/// Body of `POST /v2/autocomplete/locations` (openapi `models__autocomplete_locations__AutoCompletionBody`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AutocompleteLocationsRequest {
    /// Beginning of the location name (required).
    pub query: String,
    /// Suggestions wanted, 1..=15 (wire default 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
    /// `people` also suggests places only people filters use (wire default `companies`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location_type: Option<LocationSearchType>,
}

impl Validate for AutocompleteLocationsRequest {
    /// `limit` 1..=15, `locationType` known (`enum`).
    fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        validate_limit(self.limit, &mut out);
        if let Some(t) = &self.location_type {
            wire_checks::known(t, &LocPath::body().key("locationType"), &mut out);
        }
        out
    }
}

/// One location suggestion (openapi `models__autocomplete_locations__Location`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutocompleteLocation {
    /// Country (lowercase two-letter code), e.g. `"us"`.
    #[serde(default)]
    pub country_code: String,
    /// The code to put in a location filter, e.g. `"us-CA"`.
    #[serde(default)]
    pub filter_code: String,
    /// English name, e.g. `"California"`.
    #[serde(default)]
    pub name: String,
    /// Code of the enclosing location, e.g. `"us"`.
    #[serde(default)]
    pub parent_code: String,
    /// Name of the enclosing location, e.g. `"United States"`.
    #[serde(default)]
    pub parent_name: String,
    /// Granularity: country, region, municipality or city.
    #[serde(default = "unknown_enum", rename = "type")]
    pub kind: LocationType,
}

/// Response 200 of `POST /v2/autocomplete/locations`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutocompleteLocationsResponse {
    /// Suggestions; empty when nothing matched.
    #[serde(default, deserialize_with = "one_or_many")]
    pub locations: Vec<AutocompleteLocation>,
}

/// Body of `POST /v2/autocomplete/skills` (openapi `models__autocomplete_skills__AutoCompletionBody`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AutocompleteSkillsRequest {
    /// Beginning of the skill name (required).
    pub query: String,
    /// Suggestions wanted, 1..=15 (wire default 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
}

impl Validate for AutocompleteSkillsRequest {
    /// `limit` 1..=15.
    fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        validate_limit(self.limit, &mut out);
        out
    }
}

/// Response 200 of `POST /v2/autocomplete/skills`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutocompleteSkillsResponse {
    /// Suggested skills; empty when nothing matched.
    #[serde(default, deserialize_with = "one_or_many")]
    pub skills: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_bounds() {
        let ok = AutocompleteJobTitlesRequest {
            query: "dev".into(),
            limit: Some(15),
        };
        assert!(ok.validate().is_empty());
        let bad = AutocompleteJobTitlesRequest {
            query: String::new(),
            limit: Some(16),
        }
        .validate();
        assert_eq!(bad[0].kind, "string_too_short");
        assert_eq!(bad[0].msg, "String should have at least 1 character");
        assert_eq!(bad[1].msg, "Input should be less than or equal to 15");
        assert_eq!(bad[1].ctx, Some(serde_json::json!({"le": 15})));
        let long = AutocompleteJobTitlesRequest {
            query: "x".repeat(101),
            limit: None,
        }
        .validate();
        assert_eq!(long[0].kind, "string_too_long");
        let zero = AutocompleteSkillsRequest {
            query: "p".into(),
            limit: Some(0),
        }
        .validate();
        assert_eq!(zero[0].kind, "greater_than_equal");
        let loc: AutocompleteLocationsRequest =
            serde_json::from_str(r#"{"query":"lon","locationType":"planets"}"#).unwrap();
        let e = loc.validate();
        assert_eq!(e[0].msg, "Input should be 'companies' or 'people'");
        assert!(
            serde_json::from_str::<AutocompleteKeywordsRequest>(r#"{"query":"a","size":3}"#)
                .is_err()
        );
        assert!(
            serde_json::from_str::<AutocompleteCompaniesRequest>(r#"{"countryFilters":["dk"]}"#)
                .is_err()
        );
    }

    #[test]
    fn responses_are_tolerant() {
        let r: AutocompleteKeywordsResponse =
            serde_json::from_str(r#"{"keywords":"software","x":1}"#).unwrap();
        assert_eq!(r.keywords, ["software"]);
        let r: AutocompleteSkillsResponse = serde_json::from_str(r#"{"skills":null}"#).unwrap();
        assert!(r.skills.is_empty());
        let r: AutocompleteLocationsResponse = serde_json::from_str(
            r#"{"locations":[{"countryCode":"us","filterCode":"us-CA","name":"California","parentCode":"us",
                "parentName":"United States","type":"5-galaxy"}]}"#,
        )
        .unwrap();
        assert_eq!(
            r.locations[0].kind,
            LocationType::Unknown("5-galaxy".into())
        );
        let r: AutocompleteCompaniesResponse =
            serde_json::from_str(r#"{"companies":[{"domain":"a.com","logo":null,"extra":true}]}"#)
                .unwrap();
        assert_eq!(r.companies[0].domain, "a.com");
    }
}
