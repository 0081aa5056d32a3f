//! Filter blocks of the v2 searches (SPEC.md §2.4 `companiesFilters`, §2.5 `peopleFilters`;
//! openapi `CompaniesFiltersV1`, `PeopleFilters` and their sub-filters), plus the small
//! allocation-free validation helpers ([`LocPath`], [`wire_checks`]) that every search request uses.
//!
//! The sub-filters defined here (`IndustriesFilter`, `StateFilter`, `CityFilter`,
//! `GeolocationFilter`, `DepartmentSizeFilter`, `FundingRoundFilter`, ...) are shared by the v3
//! blocks of `filters_v3` where openapi.json references the same schema.
//!
//! Every block is strict (`deny_unknown_fields`, openapi `additionalProperties: false`) and
//! serializes minimally: unset members are omitted, and a `mode` equal to its default `anyOf`
//! is omitted too, so a saved filter set is short and is the very JSON one would send by curl.

use serde::{Deserialize, Serialize};

use super::common::{
    CompanyField, CompanySize, Department, FilterMode, FromTo, FromToStringDate, FundingRoundType,
    LocSegment, PersonField, Revenue, Seniority, SocialNetwork, ValidationError, WireEnum,
};

mod paths;

pub use paths::*;

/// Allowed `mode` values of industries / industry categories / technologies / social medias.
pub const MODES_ANY_ALL: &[&str] = &["anyOf", "allOf"];

/// Company field names accepted by `fieldsExist` / `fieldsNotExist` of company filters
/// (openapi inline enum of `CompaniesFiltersV1` and `CompaniesFiltersV3`, a subset of [`CompanyField`]).
pub const COMPANY_FILTER_FIELDS: &[&str] = &[
    "companySize",
    "countries",
    "departmentSizes",
    "description",
    "emails",
    "faxes",
    "impressum",
    "industries",
    "industryCategories",
    "keywords",
    "legalName",
    "linkedinIndustry",
    "locations",
    "logo",
    "medias",
    "mobileApps",
    "name",
    "phones",
    "primaryCountry",
    "revenue",
    "rootUrl",
    "technologies",
    "technologyCategories",
    "webTraffic",
    "yearFounded",
];

/// Person field names accepted by `fieldsExist` / `fieldsNotExist` of people filters
/// (openapi inline enum of `PeopleFilters` and `PeopleFiltersV3`, a subset of [`PersonField`]).
pub const PERSON_FILTER_FIELDS: &[&str] = &[
    "country",
    "departments",
    "firstName",
    "jobTitle",
    "jobTitleEnglish",
    "lastName",
    "linkedinUrl",
    "location",
    "name",
    "photo",
    "seniorities",
    "summary",
];

// ---------------------------------------------------------------------------------------------
// Sub-filters
// ---------------------------------------------------------------------------------------------

/// Industries to include and how they combine (openapi `IndustriesFilter`; SPEC.md §2.4
/// `industries`). Values are listed by `/v2/data-fields`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct IndustriesFilter {
    /// Industries to include (required on the wire, may be empty).
    pub industries: Vec<String>,
    /// `anyOf` (default: at least one) or `allOf`.
    #[serde(default, skip_serializing_if = "is_any_of")]
    pub mode: FilterMode,
}

impl IndustriesFilter {
    /// Pushes an error for a `mode` other than `anyOf` / `allOf`.
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        wire_checks::one_of(&self.mode, MODES_ANY_ALL, &at.key("mode"), out);
    }
}

/// Industry categories to include (openapi `IndustryCategoriesFilter`; SPEC.md §2.4).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct IndustryCategoriesFilter {
    /// Industry categories to include (required on the wire, may be empty).
    pub industry_categories: Vec<String>,
    /// `anyOf` (default) or `allOf`.
    #[serde(default, skip_serializing_if = "is_any_of")]
    pub mode: FilterMode,
}

impl IndustryCategoriesFilter {
    /// Pushes an error for a `mode` other than `anyOf` / `allOf`.
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        wire_checks::one_of(&self.mode, MODES_ANY_ALL, &at.key("mode"), out);
    }
}

/// Company keywords and how they combine (openapi `KeywordsFilterV1`; SPEC.md §2.4 `keywords`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct KeywordsFilterV2 {
    /// The keywords (required on the wire, may be empty).
    pub keywords: Vec<String>,
    /// `anyOf` (default), `allOf` or `noneOf`.
    #[serde(default, skip_serializing_if = "is_any_of")]
    pub mode: FilterMode,
}

impl KeywordsFilterV2 {
    /// Pushes an error for an unknown `mode`.
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        wire_checks::known(&self.mode, &at.key("mode"), out);
    }
}

/// Software technologies used by the company (openapi `TechnologiesFilterV1`; SPEC.md §2.4).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TechnologiesFilterV2 {
    /// Technology names as listed by `/v2/data-fields` (required, may be empty).
    pub technologies: Vec<String>,
    /// `anyOf` (default) or `allOf`.
    #[serde(default, skip_serializing_if = "is_any_of")]
    pub mode: FilterMode,
}

impl TechnologiesFilterV2 {
    /// Pushes an error for a `mode` other than `anyOf` / `allOf`.
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        wire_checks::one_of(&self.mode, MODES_ANY_ALL, &at.key("mode"), out);
    }
}

/// Social-network presence (openapi `SocialMediasFilterV1`; SPEC.md §2.4 `socialMedias`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SocialMediasFilterV2 {
    /// Networks (`linkedin`, `x`, `facebook`, ...; required, may be empty).
    pub medias: Vec<SocialNetwork>,
    /// `anyOf` (default) or `allOf`.
    #[serde(default, skip_serializing_if = "is_any_of")]
    pub mode: FilterMode,
}

impl SocialMediasFilterV2 {
    /// Pushes errors for unknown networks and a `mode` other than `anyOf` / `allOf`.
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        let medias = at.key("medias");
        for (i, m) in self.medias.iter().enumerate() {
            wire_checks::known(m, &medias.index(i), out);
        }
        wire_checks::one_of(&self.mode, MODES_ANY_ALL, &at.key("mode"), out);
    }
}

/// A state / region of a country (openapi `State`; SPEC.md §2.4 `states`, §2.5 `states`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StateFilter {
    /// Alpha-2 ISO 3166 country code, e.g. `us` (minLength 1).
    pub country: String,
    /// ISO-3166-2 region abbreviation, e.g. `CA` (minLength 1; list in `/v2/data-fields`).
    pub abbreviation: String,
}

impl StateFilter {
    /// Pushes `string_too_short` errors for empty members.
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        wire_checks::min_len(&self.country, 1, &at.key("country"), out);
        wire_checks::min_len(&self.abbreviation, 1, &at.key("abbreviation"), out);
    }
}

/// Validates every item of an optional list of states.
pub(crate) fn validate_states(
    list: &Option<Vec<StateFilter>>,
    at: &LocPath<'_>,
    out: &mut Vec<ValidationError>,
) {
    if let Some(list) = list {
        for (i, s) in list.iter().enumerate() {
            s.validate_at(&at.index(i), out);
        }
    }
}

/// A city of company filters (openapi `CompaniesCityFilter`; SPEC.md §2.4 `cities`).
///
/// Note: openapi's example of `region` is an array, contrary to its own `$ref: State`; this
/// type follows the schema (one state).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CityFilter {
    /// City name, e.g. `New York` (required).
    pub city: String,
    /// Alpha-2 ISO 3166 country code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// Region of the city.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<StateFilter>,
    /// Postal code, e.g. `10001`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub postal_code: Option<String>,
}

/// Validates every item of an optional list of company cities.
pub(crate) fn validate_cities(
    list: &Option<Vec<CityFilter>>,
    at: &LocPath<'_>,
    out: &mut Vec<ValidationError>,
) {
    if let Some(list) = list {
        for (i, c) in list.iter().enumerate() {
            if let Some(r) = &c.region {
                r.validate_at(&at.index(i).key("region"), out);
            }
        }
    }
}

/// A circle on the map (openapi `GeolocationFilter`; SPEC.md §2.4 `geolocation`,
/// `headquarterGeolocation`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GeolocationFilter {
    /// Degrees, -90..=90.
    pub latitude: f64,
    /// Degrees, -180..=180.
    pub longitude: f64,
    /// Meters, 1..=1,000,000.
    pub radius: i64,
}

impl GeolocationFilter {
    /// Pushes errors for out-of-range latitude, longitude or radius.
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        wire_checks::range(self.latitude, -90.0, 90.0, &at.key("latitude"), out);
        wire_checks::range(self.longitude, -180.0, 180.0, &at.key("longitude"), out);
        wire_checks::range(self.radius as f64, 1.0, 1_000_000.0, &at.key("radius"), out);
    }
}

/// Head count of one department (openapi `DepartmentSizeFilter`; SPEC.md §2.4 `departmentSizes`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DepartmentSizeFilter {
    /// The department (required).
    pub department: Department,
    /// At least this many people (inclusive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<i64>,
    /// At most this many people (inclusive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<i64>,
}

/// Validates every item of an optional list of department sizes.
pub(crate) fn validate_department_sizes(
    list: &Option<Vec<DepartmentSizeFilter>>,
    at: &LocPath<'_>,
    out: &mut Vec<ValidationError>,
) {
    if let Some(list) = list {
        for (i, d) in list.iter().enumerate() {
            if !d.department.is_known() {
                wire_checks::known(&d.department, &at.index(i).key("department"), out);
            }
        }
    }
}

/// Funding rounds (openapi `FundingRoundFilter`; SPEC.md §2.4 `fundingRound`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FundingRoundFilter {
    /// Money raised in the round, USD (valid range 0..=100,000,000,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raised: Option<FromTo>,
    /// Round types, e.g. `Seed`, `Series A`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub types: Option<Vec<FundingRoundType>>,
    /// Date of the round, `YYYY-MM-DD` bounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<FromToStringDate>,
}

impl FundingRoundFilter {
    /// Pushes errors for unknown round types.
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        wire_checks::all_known(&self.types, &at.key("types"), out);
    }
}

// ---------------------------------------------------------------------------------------------
// The v2 blocks
// ---------------------------------------------------------------------------------------------

/// Company filters of the v2 searches (SPEC.md §2.4 `companiesFilters`; openapi
/// `CompaniesFiltersV1`). All members optional; `None` means "not filtered".
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CompaniesFiltersV2 {
    /// Find companies similar to these domains (at most 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lookalike_domains: Option<Vec<String>>,
    /// Only these domains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_domains: Option<Vec<String>>,
    /// Never these domains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_domains: Option<Vec<String>>,
    /// Head-count range labels, e.g. `51-200`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company_sizes: Option<Vec<CompanySize>>,
    /// `true`: only e-commerce; `false`: no e-commerce.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ecommerce: Option<bool>,
    /// Year founded range (valid 0..=2100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year_founded: Option<FromTo>,
    /// Number of countries the company operates in (valid 0..=300).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub countries_count: Option<FromTo>,
    /// Revenue range labels, USD, e.g. `1-10M`, `>1000M`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revenues: Option<Vec<Revenue>>,
    /// Employee profiles in the service's database (valid 0..=10,000,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub employee_count_service: Option<FromTo>,
    /// Number of mobile apps (valid 0..=10,000; deprecated, use `mobileAppsFilter`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mobile_apps: Option<FromTo>,
    /// Mobile app count, downloads and release year.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mobile_apps_filter: Option<MobileAppsFilter>,
    /// Number of locations (valid 0..=100,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locations_count: Option<FromTo>,
    /// Department head counts (valid 0..=10,000,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub department_sizes: Option<Vec<DepartmentSizeFilter>>,
    /// Employees on the professional network (valid 0..=10,000,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub employee_count_linkedin: Option<FromTo>,
    /// Industries to include, `{industries, mode}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub industries: Option<IndustriesFilter>,
    /// Industries to exclude.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_industries: Option<Vec<String>>,
    /// Industry categories to include, `{industryCategories, mode}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub industry_categories: Option<IndustryCategoriesFilter>,
    /// Industry categories to exclude.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_industry_categories: Option<Vec<String>>,
    /// Professional-network industries (OR).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linkedin_industries: Option<Vec<String>>,
    /// Professional-network industries to exclude.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_linkedin_industries: Option<Vec<String>>,
    /// Funding rounds `{date, raised, types}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub funding_round: Option<FundingRoundFilter>,
    /// Any country of presence, alpha-2 codes (OR).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub countries: Option<Vec<String>>,
    /// Primary country, alpha-2 codes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primary_countries: Option<Vec<String>>,
    /// Any state of presence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub states: Option<Vec<StateFilter>>,
    /// Primary state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primary_states: Option<Vec<StateFilter>>,
    /// Any city of presence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cities: Option<Vec<CityFilter>>,
    /// Primary city.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primary_cities: Option<Vec<CityFilter>>,
    /// Headquarters within a circle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headquarter_geolocation: Option<GeolocationFilter>,
    /// Other offices within a circle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub geolocation: Option<GeolocationFilter>,
    /// Monthly web visits (valid 0..=100,000,000,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub web_traffic_visits: Option<FromTo>,
    /// Keywords `{keywords, mode}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keywords: Option<KeywordsFilterV2>,
    /// Company fields that must be present (subset [`COMPANY_FILTER_FIELDS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields_exist: Option<Vec<CompanyField>>,
    /// Company fields that must be absent (subset [`COMPANY_FILTER_FIELDS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields_not_exist: Option<Vec<CompanyField>>,
    /// Social networks `{medias, mode}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub social_medias: Option<SocialMediasFilterV2>,
    /// Technologies `{technologies, mode}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technologies: Option<TechnologiesFilterV2>,
    /// Minimum lookalike score, 0 < minScore <= 1 (service default 0.79; v2 only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_score: Option<f64>,
}

impl CompaniesFiltersV2 {
    /// Service default of `minScore` when unset.
    pub const DEFAULT_MIN_SCORE: f64 = 0.79;

    /// `true` when no member is set (every member `None`).
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// Pushes every problem of this block (openapi bounds, unknown enum values) with
    /// locations below `at` (e.g. `["body", "companiesFilters"]`).
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        if let Some(l) = &self.lookalike_domains {
            wire_checks::max_items(l.len(), 10, &at.key("lookalikeDomains"), out);
        }
        wire_checks::all_known(&self.company_sizes, &at.key("companySizes"), out);
        wire_checks::all_known(&self.revenues, &at.key("revenues"), out);
        validate_department_sizes(&self.department_sizes, &at.key("departmentSizes"), out);
        if let Some(f) = &self.industries {
            f.validate_at(&at.key("industries"), out);
        }
        if let Some(f) = &self.industry_categories {
            f.validate_at(&at.key("industryCategories"), out);
        }
        if let Some(f) = &self.funding_round {
            f.validate_at(&at.key("fundingRound"), out);
        }
        validate_states(&self.states, &at.key("states"), out);
        validate_states(&self.primary_states, &at.key("primaryStates"), out);
        validate_cities(&self.cities, &at.key("cities"), out);
        validate_cities(&self.primary_cities, &at.key("primaryCities"), out);
        if let Some(g) = &self.headquarter_geolocation {
            g.validate_at(&at.key("headquarterGeolocation"), out);
        }
        if let Some(g) = &self.geolocation {
            g.validate_at(&at.key("geolocation"), out);
        }
        if let Some(f) = &self.keywords {
            f.validate_at(&at.key("keywords"), out);
        }
        wire_checks::all_one_of(
            &self.fields_exist,
            COMPANY_FILTER_FIELDS,
            &at.key("fieldsExist"),
            out,
        );
        wire_checks::all_one_of(
            &self.fields_not_exist,
            COMPANY_FILTER_FIELDS,
            &at.key("fieldsNotExist"),
            out,
        );
        if let Some(f) = &self.social_medias {
            f.validate_at(&at.key("socialMedias"), out);
        }
        if let Some(f) = &self.technologies {
            f.validate_at(&at.key("technologies"), out);
        }
        if let Some(s) = self.min_score {
            let l = at.key("minScore");
            if s.is_nan() || s <= 0.0 {
                wire_checks::gt(s, 0.0, &l, out);
            } else {
                wire_checks::le(s, 1.0, &l, out);
            }
        }
    }

    /// Every problem of this block, located at `["body", "companiesFilters", ...]`.
    pub fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        let body = LocPath::body();
        self.validate_at(&body.key("companiesFilters"), &mut out);
        out
    }
}

/// People filters of the v2 searches (SPEC.md §2.5 `peopleFilters`; openapi `PeopleFilters`).
/// All members optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PeopleFiltersV2 {
    /// Only these person ids (the service notes: not implemented yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_ids: Option<Vec<String>>,
    /// Never these person ids (the service notes: not implemented yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_ids: Option<Vec<String>>,
    /// Seniorities (SPEC.md §2.1 values).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seniorities: Option<Vec<Seniority>>,
    /// Job titles to match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_titles: Option<Vec<String>>,
    /// Job titles to exclude.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_job_titles: Option<Vec<String>>,
    /// Departments (SPEC.md §2.1 values).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub departments: Option<Vec<Department>>,
    /// Countries, alpha-2 codes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub countries: Option<Vec<String>>,
    /// States / regions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub states: Option<Vec<StateFilter>>,
    /// States / regions to exclude.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_states: Option<Vec<StateFilter>>,
    /// Countries to exclude, alpha-2 codes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_countries: Option<Vec<String>>,
    /// Full names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub names: Option<Vec<String>>,
    /// Email addresses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emails: Option<Vec<String>>,
    /// Keywords of the profile summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keywords: Option<Vec<String>>,
    /// Person fields that must be present (subset [`PERSON_FILTER_FIELDS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields_exist: Option<Vec<PersonField>>,
    /// Person fields that must be absent (subset [`PERSON_FILTER_FIELDS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields_not_exist: Option<Vec<PersonField>>,
    /// Started a new job at or after this month, `YYYY-MM`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changed_position_after: Option<String>,
    /// Started the current job at or before this month, `YYYY-MM`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changed_position_before: Option<String>,
}

impl PeopleFiltersV2 {
    /// `true` when no member is set (every member `None`).
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// Pushes every problem of this block with locations below `at`.
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        wire_checks::all_known(&self.seniorities, &at.key("seniorities"), out);
        wire_checks::all_known(&self.departments, &at.key("departments"), out);
        validate_states(&self.states, &at.key("states"), out);
        validate_states(&self.exclude_states, &at.key("excludeStates"), out);
        wire_checks::all_one_of(
            &self.fields_exist,
            PERSON_FILTER_FIELDS,
            &at.key("fieldsExist"),
            out,
        );
        wire_checks::all_one_of(
            &self.fields_not_exist,
            PERSON_FILTER_FIELDS,
            &at.key("fieldsNotExist"),
            out,
        );
    }

    /// Every problem of this block, located at `["body", "peopleFilters", ...]`.
    pub fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        let body = LocPath::body();
        self.validate_at(&body.key("peopleFilters"), &mut out);
        out
    }
}

/// Mobile apps (openapi `MobileAppsFilter`; a member of the v2 and v3 company filters).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MobileAppsFilter {
    /// Number of apps (valid 0..=10,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<FromTo>,
    /// Number of downloads (valid 0..=10,000,000,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub downloads: Option<FromTo>,
    /// Release year (valid 2000..=2100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release_year: Option<FromTo>,
}

#[cfg(test)]
pub(crate) mod tests;
