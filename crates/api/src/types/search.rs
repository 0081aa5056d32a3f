//! Request bodies of the five searches (SPEC.md §4.2, §4.3, §4.10, §8; openapi
//! `PublicSearchCompaniesBodyV1`, `PublicSearchCompaniesBodyV3`, `PublicSearchPeopleBody`,
//! `PublicSearchPeopleBodyV3`, `PublicSearchPeopleBodyV3PreviewV3`).
//!
//! Members with a service default (`size` 50, `from` 1, `onePersonPerDomain` false,
//! `jobTitleThreshold` 0.8) are `Option`s: `None` is not sent and the service applies the
//! default; the `*_or_default()` accessors give the effective value. Every body is strict
//! (`deny_unknown_fields`) and implements [`Validate`] with pydantic-v2 texts.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::common::{
    CompanyField, PersonCompanyField, PersonField, RevealEmails, RevealPhones, Validate,
    ValidationError, WireEnum,
};
use super::filters_v2::{CompaniesFiltersV2, LocPath, PeopleFiltersV2, wire_checks};
use super::filters_v3::{CompaniesFiltersV3, PeopleFiltersV3};

/// Default page size of every search (openapi `size.default`).
pub const SEARCH_DEFAULT_SIZE: i64 = 50;
/// Default 1-based start index of the v2 searches (openapi `from.default`).
pub const SEARCH_DEFAULT_FROM: i64 = 1;
/// Largest `size` of the v2/v3 searches (SPEC.md §8).
pub const SEARCH_MAX_SIZE: i64 = 10_000;
/// Largest `from` of the v2 searches (SPEC.md §8).
pub const SEARCH_MAX_FROM: i64 = 10_001;
/// Largest `size + from` of the v2 searches (SPEC.md §8).
pub const SEARCH_MAX_SIZE_PLUS_FROM: i64 = 10_001;
/// Largest `size` of the people preview (openapi).
pub const PREVIEW_MAX_SIZE: i64 = 50;
/// Default `jobTitleThreshold` of the v3 people searches.
pub const DEFAULT_JOB_TITLE_THRESHOLD: f64 = 0.8;

/// A field name of v3 people `fields`: a person field or a company-of-person field
/// (openapi `anyOf [PersonField, PersonCompanyField]`), on the wire a plain string.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PersonOrCompanyField {
    /// A person field, e.g. `jobTitle` (or an unknown name, kept verbatim).
    Person(PersonField),
    /// A company-of-person field, e.g. `company.revenue`.
    Company(PersonCompanyField),
}

impl PersonOrCompanyField {
    /// The wire string.
    pub fn as_str(&self) -> &str {
        match self {
            PersonOrCompanyField::Person(f) => f.as_str(),
            PersonOrCompanyField::Company(f) => f.as_str(),
        }
    }

    /// `false` when the name is known to neither set.
    pub fn is_known(&self) -> bool {
        match self {
            PersonOrCompanyField::Person(f) => f.is_known(),
            PersonOrCompanyField::Company(f) => f.is_known(),
        }
    }

    /// Parses a wire string; an unknown name becomes `Person(PersonField::Unknown(..))`.
    pub fn from_wire(s: &str) -> Self {
        match PersonCompanyField::from_wire(s) {
            c if c.is_known() => PersonOrCompanyField::Company(c),
            _ => PersonOrCompanyField::Person(PersonField::from_wire(s)),
        }
    }
}

impl Serialize for PersonOrCompanyField {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for PersonOrCompanyField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Ok(PersonOrCompanyField::from_wire(&s))
    }
}

/// Wire names accepted in v3 people `fields`, for the `enum` error text.
fn person_or_company_field_names() -> Vec<&'static str> {
    PersonField::ALL_STR
        .iter()
        .chain(PersonCompanyField::ALL_STR)
        .copied()
        .collect()
}

fn check_fields_v3(
    list: &Option<Vec<PersonOrCompanyField>>,
    at: &LocPath<'_>,
    out: &mut Vec<ValidationError>,
) {
    if let Some(list) = list
        && list.iter().any(|f| !f.is_known())
    {
        let names = person_or_company_field_names();
        let l = at.key("fields");
        for (i, f) in list.iter().enumerate() {
            if !f.is_known() {
                let probe = PersonField::from_wire(f.as_str());
                wire_checks::one_of(&probe, &names, &l.index(i), out);
            }
        }
    }
}

/// `size` in `1..=max`.
fn check_size(size: Option<i64>, max: i64, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
    if let Some(n) = size {
        wire_checks::range(n as f64, 1.0, max as f64, &at.key("size"), out);
    }
}

/// `from` in `1..=10001` (v2 only).
fn check_from(from: Option<i64>, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
    if let Some(f) = from {
        wire_checks::range(f as f64, 1.0, SEARCH_MAX_FROM as f64, &at.key("from"), out);
    }
}

/// `size + from <= 10001` with defaults applied (v2 only; a model-level rule, `loc` `["body"]`).
fn check_size_plus_from(
    size: Option<i64>,
    from: Option<i64>,
    at: &LocPath<'_>,
    out: &mut Vec<ValidationError>,
) {
    let s = size.unwrap_or(SEARCH_DEFAULT_SIZE);
    let f = from.unwrap_or(SEARCH_DEFAULT_FROM);
    if s.saturating_add(f) > SEARCH_MAX_SIZE_PLUS_FROM {
        wire_checks::value_error("`size + from` cannot be higher than 10,001", at, out);
    }
}

/// `peoplePerCompany` in `1..=max`.
fn check_people_per_company(
    v: Option<i64>,
    max: i64,
    at: &LocPath<'_>,
    out: &mut Vec<ValidationError>,
) {
    if let Some(n) = v {
        wire_checks::range(n as f64, 1.0, max as f64, &at.key("peoplePerCompany"), out);
    }
}

/// `jobTitleThreshold` in `0..=1`.
fn check_threshold(v: Option<f64>, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
    if let Some(t) = v {
        wire_checks::range(t, 0.0, 1.0, &at.key("jobTitleThreshold"), out);
    }
}

fn check_company_fields(
    list: &Option<Vec<CompanyField>>,
    at: &LocPath<'_>,
    out: &mut Vec<ValidationError>,
) {
    wire_checks::all_known(list, &at.key("fields"), out);
}

/// Body of `POST /v2/search/companies` (SPEC.md §4.2, deprecated; openapi
/// `PublicSearchCompaniesBodyV1`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SearchCompaniesV2Request {
    /// Page size, 1..=10000 (default 50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
    /// 1-based index of the first result, 1..=10001 (default 1); `size + from <= 10001`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<i64>,
    /// Cursor from the previous page's response (to go past 10000 results).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_after: Option<String>,
    /// Company filters (SPEC.md §2.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub companies_filters: Option<CompaniesFiltersV2>,
    /// People filters: companies having at least one matching person (SPEC.md §2.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub people_filters: Option<PeopleFiltersV2>,
    /// Company fields to return (all when unset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<CompanyField>>,
}

impl SearchCompaniesV2Request {
    /// Effective `size` (50 when unset).
    pub fn size_or_default(&self) -> i64 {
        self.size.unwrap_or(SEARCH_DEFAULT_SIZE)
    }
    /// Effective `from` (1 when unset).
    pub fn from_or_default(&self) -> i64 {
        self.from.unwrap_or(SEARCH_DEFAULT_FROM)
    }
}

impl Validate for SearchCompaniesV2Request {
    fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        let body = LocPath::body();
        check_size(self.size, SEARCH_MAX_SIZE, &body, &mut out);
        check_from(self.from, &body, &mut out);
        if let Some(f) = &self.companies_filters {
            f.validate_at(&body.key("companiesFilters"), &mut out);
        }
        if let Some(f) = &self.people_filters {
            f.validate_at(&body.key("peopleFilters"), &mut out);
        }
        check_company_fields(&self.fields, &body, &mut out);
        // model-level rules run only once every field is valid (pydantic `model_validator`)
        if out.is_empty() {
            check_size_plus_from(self.size, self.from, &body, &mut out);
        }
        out
    }
}

/// Body of `POST /v3/search/companies` (SPEC.md §4.10; openapi `PublicSearchCompaniesBodyV3`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SearchCompaniesV3Request {
    /// Page size, 1..=10000 (default 50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
    /// Cursor from the previous page's response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_after: Option<String>,
    /// Company filters (v3 block).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub companies_filters: Option<CompaniesFiltersV3>,
    /// People filters: companies having at least one matching person (v3 block).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub people_filters: Option<PeopleFiltersV3>,
    /// Company fields to return (all when unset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<CompanyField>>,
}

impl SearchCompaniesV3Request {
    /// Effective `size` (50 when unset).
    pub fn size_or_default(&self) -> i64 {
        self.size.unwrap_or(SEARCH_DEFAULT_SIZE)
    }
}

impl Validate for SearchCompaniesV3Request {
    fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        let body = LocPath::body();
        check_size(self.size, SEARCH_MAX_SIZE, &body, &mut out);
        if let Some(f) = &self.companies_filters {
            f.validate_at(&body.key("companiesFilters"), &mut out);
        }
        if let Some(f) = &self.people_filters {
            f.validate_at(&body.key("peopleFilters"), &mut out);
        }
        check_company_fields(&self.fields, &body, &mut out);
        out
    }
}

/// Body of `POST /v2/search/people` (SPEC.md §4.3, legacy; openapi `PublicSearchPeopleBody`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SearchPeopleV2Request {
    /// Page size, 1..=10000 (default 50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
    /// 1-based index of the first result, 1..=10001 (default 1); `size + from <= 10001`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<i64>,
    /// Cursor from the previous page; not with `onePersonPerDomain: true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_after: Option<String>,
    /// People filters (SPEC.md §2.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub people_filters: Option<PeopleFiltersV2>,
    /// Company filters: people tied to those companies (SPEC.md §2.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub companies_filters: Option<CompaniesFiltersV2>,
    /// Email reveal (SPEC.md §2.6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal_emails: Option<RevealEmails>,
    /// Phone reveal (SPEC.md §2.6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal_phones: Option<RevealPhones>,
    /// Only one person per company (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_person_per_domain: Option<bool>,
    /// People per company, 1..=5; all when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub people_per_company: Option<i64>,
}

impl SearchPeopleV2Request {
    /// Effective `size` (50 when unset).
    pub fn size_or_default(&self) -> i64 {
        self.size.unwrap_or(SEARCH_DEFAULT_SIZE)
    }
    /// Effective `from` (1 when unset).
    pub fn from_or_default(&self) -> i64 {
        self.from.unwrap_or(SEARCH_DEFAULT_FROM)
    }
    /// `true` when the request holds at least one lookalike company domain (the price of
    /// each person returned is then 3 credits instead of 1, SPEC.md §8).
    pub fn has_lookalike_domains(&self) -> bool {
        self.companies_filters
            .as_ref()
            .and_then(|c| c.lookalike_domains.as_ref())
            .is_some_and(|d| !d.is_empty())
    }
}

impl Validate for SearchPeopleV2Request {
    fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        let body = LocPath::body();
        check_size(self.size, SEARCH_MAX_SIZE, &body, &mut out);
        check_from(self.from, &body, &mut out);
        if let Some(f) = &self.people_filters {
            f.validate_at(&body.key("peopleFilters"), &mut out);
        }
        if let Some(f) = &self.companies_filters {
            f.validate_at(&body.key("companiesFilters"), &mut out);
        }
        check_people_per_company(self.people_per_company, 5, &body, &mut out);
        // model-level rules run only once every field is valid (pydantic `model_validator`)
        if out.is_empty() {
            check_size_plus_from(self.size, self.from, &body, &mut out);
            if self.search_after.is_some() && self.one_person_per_domain == Some(true) {
                wire_checks::value_error(
                    "`searchAfter` cannot be used together with `onePersonPerDomain` enabled",
                    &body,
                    &mut out,
                );
            }
        }
        out
    }
}

/// Body of `POST /v3/search/people` (SPEC.md §4.10; openapi `PublicSearchPeopleBodyV3`, plus
/// `revealEmails` / `revealPhones` which SPEC.md places in the request, NOTES.md).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SearchPeopleV3Request {
    /// Page size, 1..=10000 (default 50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
    /// People filters (v3 block).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub people_filters: Option<PeopleFiltersV3>,
    /// Company filters: people tied to those companies (v3 block).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub companies_filters: Option<CompaniesFiltersV3>,
    /// People per company, 1..=20; all when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub people_per_company: Option<i64>,
    /// Job-title similarity threshold, 0..=1 (default 0.8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_title_threshold: Option<f64>,
    /// Cursor from the previous page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_after: Option<String>,
    /// Person (and `company.*`) fields to return; a default set when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<PersonOrCompanyField>>,
    /// Email reveal, delivered by the `people_search_emails` webhook (SPEC.md §2.6, §6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal_emails: Option<RevealEmails>,
    /// Phone reveal, delivered by the `people_search_phones` webhook (SPEC.md §2.6, §6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal_phones: Option<RevealPhones>,
}

impl SearchPeopleV3Request {
    /// Effective `size` (50 when unset).
    pub fn size_or_default(&self) -> i64 {
        self.size.unwrap_or(SEARCH_DEFAULT_SIZE)
    }
    /// Effective `jobTitleThreshold` (0.8 when unset).
    pub fn job_title_threshold_or_default(&self) -> f64 {
        self.job_title_threshold
            .unwrap_or(DEFAULT_JOB_TITLE_THRESHOLD)
    }
}

impl Validate for SearchPeopleV3Request {
    fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        let body = LocPath::body();
        check_size(self.size, SEARCH_MAX_SIZE, &body, &mut out);
        if let Some(f) = &self.people_filters {
            f.validate_at(&body.key("peopleFilters"), &mut out);
        }
        if let Some(f) = &self.companies_filters {
            f.validate_at(&body.key("companiesFilters"), &mut out);
        }
        check_people_per_company(self.people_per_company, 20, &body, &mut out);
        check_threshold(self.job_title_threshold, &body, &mut out);
        check_fields_v3(&self.fields, &body, &mut out);
        out
    }
}

/// Body of `POST /v3/search/people/preview` (SPEC.md §4.10, enterprise only; openapi
/// `PublicSearchPeopleBodyV3PreviewV3`). No reveal options: a preview returns no contacts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SearchPeoplePreviewRequest {
    /// Page size, 1..=50 (default 50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
    /// People filters (v3 block).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub people_filters: Option<PeopleFiltersV3>,
    /// Company filters (v3 block).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub companies_filters: Option<CompaniesFiltersV3>,
    /// People per company, 1..=20; all when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub people_per_company: Option<i64>,
    /// Job-title similarity threshold, 0..=1 (default 0.8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_title_threshold: Option<f64>,
    /// Cursor from the previous page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_after: Option<String>,
    /// Person (and `company.*`) fields to return.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<PersonOrCompanyField>>,
}

/// Least `size` of the company preview (openapi `minimum` of
/// `PublicPreviewSearchCompaniesV3Body.size`).
pub const COMPANIES_PREVIEW_MIN_SIZE: i64 = 5;

/// Body of `POST /v3/search/companies/preview` (openapi `PublicPreviewSearchCompaniesV3Body`;
/// enterprise plans only, outside SPEC.md's scope): the first page of a v3 company search, as
/// masked previews. No cursor and no `fields`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SearchCompaniesPreviewRequest {
    /// Results, 5..=50 (default 50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
    /// Company filters (v3 block).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub companies_filters: Option<CompaniesFiltersV3>,
    /// People filters: companies having at least one matching person (v3 block).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub people_filters: Option<PeopleFiltersV3>,
}

impl SearchCompaniesPreviewRequest {
    /// Effective `size` (50 when unset).
    pub fn size_or_default(&self) -> i64 {
        self.size.unwrap_or(PREVIEW_MAX_SIZE)
    }
}

impl Validate for SearchCompaniesPreviewRequest {
    fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        let body = LocPath::body();
        if let Some(n) = self.size {
            wire_checks::range(
                n as f64,
                COMPANIES_PREVIEW_MIN_SIZE as f64,
                PREVIEW_MAX_SIZE as f64,
                &body.key("size"),
                &mut out,
            );
        }
        if let Some(f) = &self.companies_filters {
            f.validate_at(&body.key("companiesFilters"), &mut out);
        }
        if let Some(f) = &self.people_filters {
            f.validate_at(&body.key("peopleFilters"), &mut out);
        }
        out
    }
}

impl SearchPeoplePreviewRequest {
    /// Effective `size` (50 when unset).
    pub fn size_or_default(&self) -> i64 {
        self.size.unwrap_or(SEARCH_DEFAULT_SIZE)
    }
}

impl Validate for SearchPeoplePreviewRequest {
    fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        let body = LocPath::body();
        check_size(self.size, PREVIEW_MAX_SIZE, &body, &mut out);
        if let Some(f) = &self.people_filters {
            f.validate_at(&body.key("peopleFilters"), &mut out);
        }
        if let Some(f) = &self.companies_filters {
            f.validate_at(&body.key("companiesFilters"), &mut out);
        }
        check_people_per_company(self.people_per_company, 20, &body, &mut out);
        check_threshold(self.job_title_threshold, &body, &mut out);
        check_fields_v3(&self.fields, &body, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::common::Seniority;
    use serde_json::json;

    fn round_trip<T>(json: &str) -> T
    where
        T: serde::de::DeserializeOwned + Serialize + PartialEq + std::fmt::Debug,
    {
        let v: T = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
        let s = serde_json::to_string(&v).unwrap();
        let back: T = serde_json::from_str(&s).unwrap();
        assert_eq!(v, back, "round trip of {json}");
        v
    }

    fn kinds(errs: &[ValidationError]) -> Vec<(String, String)> {
        errs.iter().map(|e| (e.path(), e.kind.clone())).collect()
    }

    fn one(path: &str, kind: &str) -> Vec<(String, String)> {
        vec![(path.to_string(), kind.to_string())]
    }

    const COMPANY_FIELDS: &str = r#"["domain","countries","primaryCountry","companySize","industryCategories","industries","linkedinIndustry","ecommerce","keywords","employeeCountService","employeeCountLinkedin","revenue","yearFounded","description","emails","phones","logo","technologies","technologyCategories","mobileApps","webTraffic","medias","name","legalName","locations","departmentSizes","rootUrl","faxes","impressum","fundingRound","updatedAt"]"#;
    const PERSON_FIELDS: &str = r#"["id","domain","name","firstName","lastName","country","state","location","linkedinUrl","seniorities","departments","photo","jobTitle","jobTitleEnglish","currentJobDescription","experiences","summary","skills","headline","updatedAt","connectionsCount","followersCount","company.revenue","company.peopleCount","company.industries","company.technologies","company.latestFundingRound"]"#;

    fn with_filters(json: &str, companies: &str, people: &str) -> String {
        let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
        v["companiesFilters"] = serde_json::from_str(companies).unwrap();
        v["peopleFilters"] = serde_json::from_str(people).unwrap();
        v.to_string()
    }

    #[test]
    fn openapi_examples_deserialize_round_trip_and_validate() {
        use crate::types::filters_v2::tests::{COMPANIES_V1_EXAMPLE, PEOPLE_V1_EXAMPLE};
        use crate::types::filters_v3::tests::{COMPANIES_V3_EXAMPLE, PEOPLE_V3_EXAMPLE};
        let after = "NoBgdA7BAsBMEgGwBoAEAiADgGwK4HN8BTAJwC8wBjAewFt0BdIA";

        let j =
            format!(r#"{{"size":10,"from":10,"searchAfter":"{after}","fields":{COMPANY_FIELDS}}}"#);
        let r: SearchCompaniesV2Request =
            round_trip(&with_filters(&j, COMPANIES_V1_EXAMPLE, PEOPLE_V1_EXAMPLE));
        assert_eq!(r.fields.as_ref().unwrap().len(), 31);
        assert!(r.validate().is_empty(), "{:?}", r.validate());

        let j = format!(r#"{{"size":10,"searchAfter":"{after}","fields":{COMPANY_FIELDS}}}"#);
        let r: SearchCompaniesV3Request =
            round_trip(&with_filters(&j, COMPANIES_V3_EXAMPLE, PEOPLE_V3_EXAMPLE));
        assert!(r.validate().is_empty(), "{:?}", r.validate());

        let j = format!(
            r#"{{"size":10,"from":10,"searchAfter":"{after}","revealEmails":{{"includeEmails":true,"webhookUrl":"https://url.com/webhook"}},"revealPhones":{{"includePhones":true,"webhookUrl":"https://url.com/webhook"}},"onePersonPerDomain":false,"peoplePerCompany":3}}"#
        );
        let r: SearchPeopleV2Request =
            round_trip(&with_filters(&j, COMPANIES_V1_EXAMPLE, PEOPLE_V1_EXAMPLE));
        assert!(r.has_lookalike_domains());
        assert!(r.validate().is_empty(), "{:?}", r.validate());
        let r: SearchPeopleV2Request = round_trip(r#"{"peoplePerCompany":null}"#);
        assert_eq!(r, SearchPeopleV2Request::default());

        let j = format!(
            r#"{{"size":10,"peoplePerCompany":3,"jobTitleThreshold":0.8,"searchAfter":"N4IglgdgJgpgHiAXAVgL5A","fields":{PERSON_FIELDS},"revealEmails":{{"includeEmails":true}}}}"#
        );
        let r: SearchPeopleV3Request =
            round_trip(&with_filters(&j, COMPANIES_V3_EXAMPLE, PEOPLE_V3_EXAMPLE));
        let fields = r.fields.as_ref().unwrap();
        assert_eq!(fields[0], PersonOrCompanyField::Person(PersonField::Id));
        assert_eq!(
            fields[22],
            PersonOrCompanyField::Company(PersonCompanyField::Revenue)
        );
        assert!(r.validate().is_empty(), "{:?}", r.validate());

        let j = format!(
            r#"{{"size":50,"peoplePerCompany":3,"jobTitleThreshold":0.8,"searchAfter":"N4IglgdgJgpgHiAXAVgL5A","fields":{PERSON_FIELDS}}}"#
        );
        let r: SearchPeoplePreviewRequest =
            round_trip(&with_filters(&j, COMPANIES_V3_EXAMPLE, PEOPLE_V3_EXAMPLE));
        assert!(r.validate().is_empty(), "{:?}", r.validate());
    }

    #[test]
    fn serialization_is_minimal_and_curl_ready() {
        let r = SearchPeopleV2Request {
            people_filters: Some(PeopleFiltersV2 {
                seniorities: Some(vec![Seniority::CLevel]),
                ..Default::default()
            }),
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_value(&r).unwrap(),
            json!({"peopleFilters": {"seniorities": ["C-Level"]}})
        );
        assert_eq!(
            serde_json::to_string(&SearchCompaniesV3Request::default()).unwrap(),
            "{}"
        );
        assert_eq!(r.size_or_default(), 50);
        assert_eq!(r.from_or_default(), 1);
        assert!(!r.has_lookalike_domains());
        assert_eq!(
            SearchPeopleV3Request::default().job_title_threshold_or_default(),
            0.8
        );
    }

    #[test]
    fn unknown_keys_are_rejected_by_requests() {
        assert!(serde_json::from_str::<SearchCompaniesV2Request>(r#"{"page":2}"#).is_err());
        assert!(serde_json::from_str::<SearchCompaniesV3Request>(r#"{"from":2}"#).is_err());
        assert!(
            serde_json::from_str::<SearchPeopleV2Request>(r#"{"jobTitleThreshold":0.5}"#).is_err()
        );
        assert!(
            serde_json::from_str::<SearchPeopleV3Request>(r#"{"onePersonPerDomain":true}"#)
                .is_err()
        );
        assert!(
            serde_json::from_str::<SearchPeoplePreviewRequest>(
                r#"{"revealEmails":{"includeEmails":true}}"#
            )
            .is_err()
        );
        // v3 people accepts the reveal options (NOTES.md)
        let r: SearchPeopleV3Request = serde_json::from_str(
            r#"{"revealPhones":{"includePhones":true,"webhookUrl":"https://h/x"}}"#,
        )
        .unwrap();
        assert!(r.reveal_phones.unwrap().include_phones);
        // nested blocks are strict too
        assert!(
            serde_json::from_str::<SearchPeopleV2Request>(r#"{"peopleFilters":{"foo":1}}"#)
                .is_err()
        );
    }

    #[test]
    fn v2_size_and_from_limits() {
        let r = SearchCompaniesV2Request {
            size: Some(0),
            ..Default::default()
        };
        let e = r.validate();
        assert_eq!(kinds(&e), one("body.size", "greater_than_equal"));
        assert_eq!(e[0].msg, "Input should be greater than or equal to 1");
        assert_eq!(e[0].ctx, Some(json!({"ge": 1})));
        assert_eq!(e[0].input, Some(json!(0)));

        let r = SearchCompaniesV2Request {
            size: Some(10_001),
            from: Some(1),
            ..Default::default()
        };
        let e = r.validate();
        // the model-level `size + from` rule is not reported while a field is invalid
        assert_eq!(kinds(&e), one("body.size", "less_than_equal"));
        assert_eq!(e[0].msg, "Input should be less than or equal to 10000");
        assert_eq!(e[0].ctx, Some(json!({"le": 10000})));

        let r = SearchPeopleV2Request {
            from: Some(0),
            ..Default::default()
        };
        assert_eq!(kinds(&r.validate()), one("body.from", "greater_than_equal"));
        let r = SearchPeopleV2Request {
            size: Some(1),
            from: Some(10_002),
            ..Default::default()
        };
        assert_eq!(
            kinds(&r.validate())[0],
            ("body.from".to_string(), "less_than_equal".to_string())
        );

        // size + from <= 10001, defaults applied
        let ok = SearchPeopleV2Request {
            size: Some(10_000),
            from: Some(1),
            ..Default::default()
        };
        assert!(ok.validate().is_empty());
        let ok = SearchCompaniesV2Request {
            size: Some(1),
            from: Some(10_000),
            ..Default::default()
        };
        assert!(ok.validate().is_empty());
        let bad = SearchCompaniesV2Request {
            size: Some(2),
            from: Some(10_000),
            ..Default::default()
        };
        let e = bad.validate();
        assert_eq!(kinds(&e), one("body", "value_error"));
        assert_eq!(
            e[0].msg,
            "Value error, `size + from` cannot be higher than 10,001"
        );
        let bad = SearchPeopleV2Request {
            from: Some(9_999),
            ..Default::default()
        };
        assert_eq!(kinds(&bad.validate()), one("body", "value_error"));
    }

    #[test]
    fn v3_and_preview_size_limits() {
        assert!(
            SearchCompaniesV3Request {
                size: Some(10_000),
                ..Default::default()
            }
            .validate()
            .is_empty()
        );
        assert_eq!(
            kinds(
                &SearchCompaniesV3Request {
                    size: Some(10_001),
                    ..Default::default()
                }
                .validate()
            ),
            one("body.size", "less_than_equal")
        );
        assert_eq!(
            kinds(
                &SearchPeopleV3Request {
                    size: Some(0),
                    ..Default::default()
                }
                .validate()
            ),
            one("body.size", "greater_than_equal")
        );
        assert!(
            SearchPeoplePreviewRequest {
                size: Some(50),
                ..Default::default()
            }
            .validate()
            .is_empty()
        );
        let e = SearchPeoplePreviewRequest {
            size: Some(51),
            ..Default::default()
        }
        .validate();
        assert_eq!(kinds(&e), one("body.size", "less_than_equal"));
        assert_eq!(e[0].msg, "Input should be less than or equal to 50");
    }

    #[test]
    fn search_after_with_one_person_per_domain_is_refused() {
        let r = SearchPeopleV2Request {
            search_after: Some("abc".into()),
            one_person_per_domain: Some(true),
            ..Default::default()
        };
        let e = r.validate();
        assert_eq!(kinds(&e), one("body", "value_error"));
        assert!(e[0].msg.contains("searchAfter") && e[0].msg.contains("onePersonPerDomain"));
        let ok = SearchPeopleV2Request {
            one_person_per_domain: Some(false),
            ..r.clone()
        };
        assert!(ok.validate().is_empty());
        let ok = SearchPeopleV2Request {
            search_after: None,
            ..r
        };
        assert!(ok.validate().is_empty());
    }

    #[test]
    fn people_per_company_and_threshold_bounds() {
        for (n, ok) in [(0, false), (1, true), (5, true), (6, false)] {
            let r = SearchPeopleV2Request {
                people_per_company: Some(n),
                ..Default::default()
            };
            assert_eq!(r.validate().is_empty(), ok, "v2 {n}");
        }
        assert_eq!(
            kinds(
                &SearchPeopleV2Request {
                    people_per_company: Some(6),
                    ..Default::default()
                }
                .validate()
            ),
            one("body.peoplePerCompany", "less_than_equal")
        );
        for (n, ok) in [(0, false), (1, true), (20, true), (21, false)] {
            let r = SearchPeopleV3Request {
                people_per_company: Some(n),
                ..Default::default()
            };
            assert_eq!(r.validate().is_empty(), ok, "v3 {n}");
            let r = SearchPeoplePreviewRequest {
                people_per_company: Some(n),
                ..Default::default()
            };
            assert_eq!(r.validate().is_empty(), ok, "preview {n}");
        }
        assert_eq!(
            kinds(
                &SearchPeopleV3Request {
                    people_per_company: Some(0),
                    ..Default::default()
                }
                .validate()
            ),
            one("body.peoplePerCompany", "greater_than_equal")
        );
        assert_eq!(
            kinds(
                &SearchPeopleV3Request {
                    job_title_threshold: Some(1.1),
                    ..Default::default()
                }
                .validate()
            ),
            one("body.jobTitleThreshold", "less_than_equal")
        );
        assert_eq!(
            kinds(
                &SearchPeoplePreviewRequest {
                    job_title_threshold: Some(-0.1),
                    ..Default::default()
                }
                .validate()
            ),
            one("body.jobTitleThreshold", "greater_than_equal")
        );
    }

    #[test]
    fn unknown_enum_values_in_requests_are_refused() {
        let r: SearchCompaniesV2Request = serde_json::from_str(
            r#"{"fields":["domain","shoeSize"],"companiesFilters":{"revenues":["1-10M","huge"]}}"#,
        )
        .unwrap();
        assert_eq!(
            kinds(&r.validate()),
            vec![
                (
                    "body.companiesFilters.revenues.1".to_string(),
                    "enum".to_string()
                ),
                ("body.fields.1".to_string(), "enum".to_string()),
            ]
        );
        let r: SearchPeopleV3Request =
            serde_json::from_str(r#"{"fields":["id","company.shoeSize"]}"#).unwrap();
        let e = r.validate();
        assert_eq!(kinds(&e), one("body.fields.1", "enum"));
        assert!(
            e[0].msg
                .ends_with("'company.technologies' or 'company.latestFundingRound'"),
            "{}",
            e[0].msg
        );
        let r: SearchPeoplePreviewRequest =
            serde_json::from_str(r#"{"peopleFilters":{"seniorities":["Wizard"]},"companiesFilters":{"maxRelevance":"Z"}}"#).unwrap();
        assert_eq!(
            kinds(&r.validate()),
            vec![
                (
                    "body.peopleFilters.seniorities.0".to_string(),
                    "enum".to_string()
                ),
                (
                    "body.companiesFilters.maxRelevance".to_string(),
                    "enum".to_string()
                ),
            ]
        );
    }

    #[test]
    fn valid_requests_give_no_errors() {
        assert!(SearchCompaniesV2Request::default().validate().is_empty());
        assert!(SearchCompaniesV3Request::default().validate().is_empty());
        assert!(SearchPeopleV2Request::default().validate().is_empty());
        assert!(SearchPeopleV3Request::default().validate().is_empty());
        assert!(SearchPeoplePreviewRequest::default().validate().is_empty());
        let r: SearchPeopleV2Request = serde_json::from_str(
            r#"{"size":100,"from":9901,"companiesFilters":{"lookalikeDomains":["a.com"],"minScore":1},"peopleFilters":{"departments":["R&D"]},"onePersonPerDomain":true,"peoplePerCompany":5}"#,
        )
        .unwrap();
        assert!(r.validate().is_empty(), "{:?}", r.validate());
    }
}
