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

mod skim;
pub use skim::{Skim, skim};

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
mod tests;
