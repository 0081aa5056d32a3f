//! Filter blocks of the v3 searches (openapi `CompaniesFiltersV3`, `PeopleFiltersV3` and their
//! sub-filters; SPEC.md §4.10 leaves these shapes to openapi.json).
//!
//! They differ on the wire from the v2 blocks (NOTES.md): keywords, technologies and social
//! medias are `{anyOf, allOf, noneOf}` objects, locations are grouped into
//! `primaryLocations` / `otherLocations`, `minScore` is replaced by `minRelevance` /
//! `maxRelevance` (A/B/C), and people are filtered by professional-network handles, job-title
//! keywords, skills and descriptions. Shared sub-filters (`IndustriesFilter`, `StateFilter`,
//! `CityFilter`, ...) come from `filters_v2`.
//!
//! openapi's own examples of `socialMedias`, `technologies` and `keywords` use snake_case keys
//! (`any_of`, `min_count`); the service (pydantic, populate-by-name) accepts both spellings, so
//! these types accept them as aliases and always send camelCase.

use serde::{Deserialize, Serialize};

use super::common::{
    CompanyField, CompanySize, Department, FromTo, FromToFloat, HeadcountGrowthMonths, PersonField,
    Relevance, Revenue, Seniority, SocialNetwork, ValidationError,
};
use super::filters_v2::{
    COMPANY_FILTER_FIELDS, CityFilter, DepartmentSizeFilter, FundingRoundFilter, GeolocationFilter,
    IndustriesFilter, IndustryCategoriesFilter, LocPath, MobileAppsFilter, PERSON_FILTER_FIELDS,
    StateFilter, validate_cities, validate_department_sizes, validate_states, wire_checks,
};

wire_enum!(
    /// How strictly lookalike companies are matched (openapi `CompaniesFiltersV3.companyMatchingMode`).
    CompanyMatchingMode {
        /// Similar products / services (semantic similarity; the default).
        Precise => "precise",
        /// Same industries, a wider net.
        Broad => "broad",
    }
);

/// `{anyOf, allOf, noneOf}` lists of strings (openapi `AllAnyNoneFilter`; v3 `keywords`,
/// `technologies.apps`, `technologies.categories`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AllAnyNoneFilter {
    /// Match at least one of these.
    #[serde(default, alias = "any_of", skip_serializing_if = "Option::is_none")]
    pub any_of: Option<Vec<String>>,
    /// Match all of these.
    #[serde(default, alias = "all_of", skip_serializing_if = "Option::is_none")]
    pub all_of: Option<Vec<String>>,
    /// Match none of these.
    #[serde(default, alias = "none_of", skip_serializing_if = "Option::is_none")]
    pub none_of: Option<Vec<String>>,
}

impl AllAnyNoneFilter {
    /// `true` when no list is set.
    pub fn is_empty(&self) -> bool {
        self.any_of.is_none() && self.all_of.is_none() && self.none_of.is_none()
    }
}

/// `{anyOf, allOf, noneOf}` lists of social networks (openapi `AllAnyNoneFilterSocialMedia`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AllAnyNoneFilterSocialMedia {
    /// Present on at least one of these networks.
    #[serde(default, alias = "any_of", skip_serializing_if = "Option::is_none")]
    pub any_of: Option<Vec<SocialNetwork>>,
    /// Present on all of these networks.
    #[serde(default, alias = "all_of", skip_serializing_if = "Option::is_none")]
    pub all_of: Option<Vec<SocialNetwork>>,
    /// Present on none of these networks.
    #[serde(default, alias = "none_of", skip_serializing_if = "Option::is_none")]
    pub none_of: Option<Vec<SocialNetwork>>,
}

impl AllAnyNoneFilterSocialMedia {
    /// Pushes errors for unknown network names.
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        wire_checks::all_known(&self.any_of, &at.key("anyOf"), out);
        wire_checks::all_known(&self.all_of, &at.key("allOf"), out);
        wire_checks::all_known(&self.none_of, &at.key("noneOf"), out);
    }
}

/// Technologies on the company's website (openapi `TechnologiesFilterV3`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TechnologiesFilterV3 {
    /// Technology names (`/v2/data-fields`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apps: Option<AllAnyNoneFilter>,
    /// Technology categories (`/v2/data-fields`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub categories: Option<AllAnyNoneFilter>,
}

/// Social-network presence (openapi `SocialMediasFilterV3`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SocialMediasFilterV3 {
    /// Networks by any / all / none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub medias: Option<AllAnyNoneFilterSocialMedia>,
    /// Present on at least this many networks, 1..=50.
    #[serde(default, alias = "min_count", skip_serializing_if = "Option::is_none")]
    pub min_count: Option<i64>,
}

impl SocialMediasFilterV3 {
    /// Pushes errors for unknown networks and an out-of-range `minCount`.
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        if let Some(m) = &self.medias {
            m.validate_at(&at.key("medias"), out);
        }
        if let Some(n) = self.min_count {
            wire_checks::range(n as f64, 1.0, 50.0, &at.key("minCount"), out);
        }
    }
}

/// Countries, regions, cities and a circle, each to include or exclude (openapi
/// `LocationsFilter`; v3 `primaryLocations` = headquarters, `otherLocations` = other offices).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LocationsFilter {
    /// Present in any of these countries, alpha-2 codes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_countries: Option<Vec<String>>,
    /// Not present in these countries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_countries: Option<Vec<String>>,
    /// Present in any of these regions (states, provinces).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_regions: Option<Vec<StateFilter>>,
    /// Not present in these regions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_regions: Option<Vec<StateFilter>>,
    /// Present in any of these cities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_cities: Option<Vec<CityFilter>>,
    /// Not present in these cities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_cities: Option<Vec<CityFilter>>,
    /// Within a circle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub geolocation: Option<GeolocationFilter>,
}

impl LocationsFilter {
    /// Pushes errors for empty region codes and an out-of-range circle.
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        validate_states(&self.include_regions, &at.key("includeRegions"), out);
        validate_states(&self.exclude_regions, &at.key("excludeRegions"), out);
        validate_cities(&self.include_cities, &at.key("includeCities"), out);
        validate_cities(&self.exclude_cities, &at.key("excludeCities"), out);
        if let Some(g) = &self.geolocation {
            g.validate_at(&at.key("geolocation"), out);
        }
    }
}

/// Company head-count growth over a period (openapi `HeadcountGrowthFilter`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HeadcountGrowthFilter {
    /// `true`: `growthRange` is a fraction (0.5 = 50 %); `false`: absolute head count.
    pub as_percentage: bool,
    /// Growth bounds (valid -10,000,000..=10,000,000).
    pub growth_range: FromToFloat,
    /// `Three months`, `Six months` or `Twelve months`.
    pub months: HeadcountGrowthMonths,
}

impl HeadcountGrowthFilter {
    /// Pushes an error for an unknown period.
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        wire_checks::known(&self.months, &at.key("months"), out);
    }
}

/// Head-count growth of one department (openapi `DepartmentGrowthFilter`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DepartmentGrowthFilter {
    /// `true`: `growthRange` is a fraction; `false`: absolute head count.
    pub as_percentage: bool,
    /// Growth bounds (valid -10,000,000..=10,000,000).
    pub growth_range: FromToFloat,
    /// `Three months`, `Six months` or `Twelve months`.
    pub months: HeadcountGrowthMonths,
    /// The functional department.
    pub department: Department,
}

impl DepartmentGrowthFilter {
    /// Pushes errors for an unknown period or department.
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        wire_checks::known(&self.months, &at.key("months"), out);
        wire_checks::known(&self.department, &at.key("department"), out);
    }
}

/// Department growth filters combined by any / all (openapi `DepartmentGrowthAllAnyFilter`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DepartmentGrowthAllAnyFilter {
    /// Match at least one.
    #[serde(default, alias = "any_of", skip_serializing_if = "Option::is_none")]
    pub any_of: Option<Vec<DepartmentGrowthFilter>>,
    /// Match all.
    #[serde(default, alias = "all_of", skip_serializing_if = "Option::is_none")]
    pub all_of: Option<Vec<DepartmentGrowthFilter>>,
}

impl DepartmentGrowthAllAnyFilter {
    /// Pushes the errors of every item.
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        for (name, list) in [("anyOf", &self.any_of), ("allOf", &self.all_of)] {
            if let Some(list) = list {
                let l = at.key(name);
                for (i, f) in list.iter().enumerate() {
                    f.validate_at(&l.index(i), out);
                }
            }
        }
    }
}

macro_rules! all_any_none_text {
    ($(#[$meta:meta])* $name:ident, $what:literal) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields, rename_all = "camelCase")]
        pub struct $name {
            #[doc = concat!("All of these ", $what, " must match.")]
            #[serde(default, alias = "all_of", skip_serializing_if = "Option::is_none")]
            pub all_of: Option<Vec<String>>,
            #[doc = concat!("At least one of these ", $what, " must match.")]
            #[serde(default, alias = "any_of", skip_serializing_if = "Option::is_none")]
            pub any_of: Option<Vec<String>>,
            #[doc = concat!("None of these ", $what, " may match.")]
            #[serde(default, alias = "none_of", skip_serializing_if = "Option::is_none")]
            pub none_of: Option<Vec<String>>,
        }

        impl $name {
            /// `true` when no list is set.
            pub fn is_empty(&self) -> bool {
                self.any_of.is_none() && self.all_of.is_none() && self.none_of.is_none()
            }
        }
    };
}

all_any_none_text!(
    /// Keywords of the job title (openapi `JobTitleKeywordsFilter`).
    JobTitleKeywordsFilter,
    "job-title keywords"
);
all_any_none_text!(
    /// Profile skills (openapi `SkillsFilter`).
    SkillsFilter,
    "skills"
);
all_any_none_text!(
    /// Keywords of the profile description (openapi `ProfileDescriptionFilter`).
    ProfileDescriptionFilter,
    "profile-description keywords"
);
all_any_none_text!(
    /// Keywords of the current job description (openapi `CurrentJobDescriptionFilter`).
    CurrentJobDescriptionFilter,
    "current-job-description keywords"
);
all_any_none_text!(
    /// Keywords of any job description (openapi `AllJobDescriptionsFilter`).
    AllJobDescriptionsFilter,
    "job-description keywords"
);

/// A city of v3 people filters (openapi `PeopleCityFilter`; no postal code, unlike [`CityFilter`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PeopleCityFilter {
    /// City name (required).
    pub city: String,
    /// Alpha-2 ISO 3166 country code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// Region of the city.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<StateFilter>,
}

fn validate_people_cities(
    list: &Option<Vec<PeopleCityFilter>>,
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

/// Web traffic (openapi `WebTrafficFilter`), monthly counts (valid 0..=100,000,000,000).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WebTrafficFilter {
    /// Visits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visits: Option<FromTo>,
    /// Page views.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub views: Option<FromTo>,
}

/// Company filters of the v3 searches (openapi `CompaniesFiltersV3`). All members optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CompaniesFiltersV3 {
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
    /// Number of countries of presence (valid 0..=300).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub countries_count: Option<FromTo>,
    /// Revenue range labels, USD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revenues: Option<Vec<Revenue>>,
    /// Employee profiles in the service's database (valid 0..=10,000,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub employee_count_service: Option<FromTo>,
    /// Number of mobile apps (deprecated, use `mobileAppsFilter`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mobile_apps: Option<FromTo>,
    /// Mobile app count, downloads and release year.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mobile_apps_filter: Option<MobileAppsFilter>,
    /// Number of locations (valid 0..=100,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locations_count: Option<FromTo>,
    /// Department head counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub department_sizes: Option<Vec<DepartmentSizeFilter>>,
    /// Employees on the professional network (valid 0..=10,000,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub employee_count_linkedin: Option<FromTo>,
    /// Industries to include, an object `{industries, mode}`.
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
    /// Headquarters location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primary_locations: Option<LocationsFilter>,
    /// Other offices' locations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_locations: Option<LocationsFilter>,
    /// Web visits and page views.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub web_traffic: Option<WebTrafficFilter>,
    /// Social networks `{medias: {anyOf, allOf, noneOf}, minCount}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub social_medias: Option<SocialMediasFilterV3>,
    /// Technologies `{apps, categories}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub technologies: Option<TechnologiesFilterV3>,
    /// Keywords `{anyOf, allOf, noneOf}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keywords: Option<AllAnyNoneFilter>,
    /// Least relevant category to return, inclusive (`A` is the most relevant).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_relevance: Option<Relevance>,
    /// Most relevant category to return, inclusive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_relevance: Option<Relevance>,
    /// Company head-count growth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headcount_growth: Option<HeadcountGrowthFilter>,
    /// Department head-count growth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub department_headcount_growth: Option<DepartmentGrowthAllAnyFilter>,
    /// Updated within the last N months, 0 < N <= 60.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_within_months: Option<i64>,
    /// Company fields that must be present (subset [`COMPANY_FILTER_FIELDS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields_exist: Option<Vec<CompanyField>>,
    /// Company fields that must be absent (subset [`COMPANY_FILTER_FIELDS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields_not_exist: Option<Vec<CompanyField>>,
    /// `precise` (default) or `broad` lookalike matching.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company_matching_mode: Option<CompanyMatchingMode>,
}

/// `0 < v <= 60` for `updatedWithinMonths`.
fn check_updated_within(v: Option<i64>, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
    if let Some(n) = v {
        let l = at.key("updatedWithinMonths");
        if n <= 0 {
            wire_checks::gt(n as f64, 0.0, &l, out);
        } else {
            wire_checks::le(n as f64, 60.0, &l, out);
        }
    }
}

impl CompaniesFiltersV3 {
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
        if let Some(f) = &self.primary_locations {
            f.validate_at(&at.key("primaryLocations"), out);
        }
        if let Some(f) = &self.other_locations {
            f.validate_at(&at.key("otherLocations"), out);
        }
        if let Some(f) = &self.social_medias {
            f.validate_at(&at.key("socialMedias"), out);
        }
        if let Some(r) = &self.min_relevance {
            wire_checks::known(r, &at.key("minRelevance"), out);
        }
        if let Some(r) = &self.max_relevance {
            wire_checks::known(r, &at.key("maxRelevance"), out);
        }
        if let Some(f) = &self.headcount_growth {
            f.validate_at(&at.key("headcountGrowth"), out);
        }
        if let Some(f) = &self.department_headcount_growth {
            f.validate_at(&at.key("departmentHeadcountGrowth"), out);
        }
        check_updated_within(self.updated_within_months, at, out);
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
        if let Some(m) = &self.company_matching_mode {
            wire_checks::known(m, &at.key("companyMatchingMode"), out);
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

/// People filters of the v3 searches and the preview (openapi `PeopleFiltersV3`). All members
/// optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PeopleFiltersV3 {
    /// Find people similar to these professional-network handles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lookalike_linkedin_handles: Option<Vec<String>>,
    /// Countries, alpha-2 codes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub countries: Option<Vec<String>>,
    /// Only these person ids.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_people_ids: Option<Vec<String>>,
    /// Only these professional-network handles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_linkedin_handles: Option<Vec<String>>,
    /// Never these person ids.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_people_ids: Option<Vec<String>>,
    /// Never these professional-network handles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_linkedin_handles: Option<Vec<String>>,
    /// Seniorities (SPEC.md §2.1 values).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seniorities: Option<Vec<Seniority>>,
    /// Skills `{allOf, anyOf, noneOf}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skills: Option<SkillsFilter>,
    /// Job-title keywords `{allOf, anyOf, noneOf}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_title_keywords: Option<JobTitleKeywordsFilter>,
    /// Keywords of any job description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_job_descriptions: Option<AllJobDescriptionsFilter>,
    /// Keywords of the current job description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_job_description: Option<CurrentJobDescriptionFilter>,
    /// Keywords of the profile description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile_description: Option<ProfileDescriptionFilter>,
    /// Region codes (deprecated, use `states`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regions: Option<Vec<String>>,
    /// States / regions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub states: Option<Vec<StateFilter>>,
    /// States / regions to exclude.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_states: Option<Vec<StateFilter>>,
    /// Countries to exclude, alpha-2 codes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_countries: Option<Vec<String>>,
    /// Cities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cities: Option<Vec<PeopleCityFilter>>,
    /// Cities to exclude.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_cities: Option<Vec<PeopleCityFilter>>,
    /// Full names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub names: Option<Vec<String>>,
    /// Departments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub departments: Option<Vec<Department>>,
    /// Departments to exclude.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_departments: Option<Vec<Department>>,
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
    /// Updated within the last N months, 0 < N <= 60.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_within_months: Option<i64>,
    /// Professional-network connections.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connections: Option<FromTo>,
    /// Professional-network followers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub followers: Option<FromTo>,
}

impl PeopleFiltersV3 {
    /// `true` when no member is set (every member `None`).
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// Pushes every problem of this block with locations below `at`.
    pub fn validate_at(&self, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        wire_checks::all_known(&self.seniorities, &at.key("seniorities"), out);
        validate_states(&self.states, &at.key("states"), out);
        validate_states(&self.exclude_states, &at.key("excludeStates"), out);
        validate_people_cities(&self.cities, &at.key("cities"), out);
        validate_people_cities(&self.exclude_cities, &at.key("excludeCities"), out);
        wire_checks::all_known(&self.departments, &at.key("departments"), out);
        wire_checks::all_known(
            &self.exclude_departments,
            &at.key("excludeDepartments"),
            out,
        );
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
        check_updated_within(self.updated_within_months, at, out);
    }

    /// Every problem of this block, located at `["body", "peopleFilters", ...]`.
    pub fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        let body = LocPath::body();
        self.validate_at(&body.key("peopleFilters"), &mut out);
        out
    }
}

#[cfg(test)]
pub(crate) mod tests;
