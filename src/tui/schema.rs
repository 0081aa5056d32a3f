//! The filter form's model: which members each search endpoint accepts (SPEC.md §2.4 and §2.5
//! for v2; openapi.json `CompaniesFiltersV3`, `PeopleFiltersV3`, `PublicSearch*BodyV3` for v3),
//! how each is edited, and reading/writing them at a JSON path of the request body.
//!
//! The form's state *is* the request body (a JSON object with `companiesFilters`,
//! `peopleFilters`, `size`...), so a saved filter set is the body itself and nothing is lost
//! when switching between endpoints: members the current endpoint does not know are listed
//! as "extra" and can be cleared.
use serde_json::{Map, Value};

use crate::api::client::Endpoint;
use crate::api::types::common::{
    CompanySize, FundingRoundType, HeadcountGrowthMonths, Relevance, Revenue, SocialNetwork,
    WireEnum,
};
use crate::core::request::AutocompleteResponse;
use crate::core::sanitize::sanitize;

/// Results tab: what a search returns (companies or people). The tab is the API's
/// [`crate::api::client::SearchSubject`]: one fact, one place.
pub use crate::api::client::SearchSubject as Kind;

pub use crate::core::request::SEARCHES;

/// The chooser's short label of a search, e.g. `v3 companies`; the path for anything else.
pub fn label(ep: Endpoint) -> &'static str {
    match ep {
        Endpoint::SearchCompaniesV3 => "v3 companies",
        Endpoint::SearchPeopleV3 => "v3 people",
        Endpoint::SearchCompaniesV2 => "v2 companies (deprecated)",
        Endpoint::SearchPeopleV2 => "v2 people (legacy)",
        other => other.path(),
    }
}

/// The results tab of a search endpoint (companies for anything that is not a search).
pub fn tab_of(ep: Endpoint) -> Kind {
    ep.search_subject().unwrap_or(Kind::Companies)
}

/// The search of `kind` in the version of `ep` (e.g. v3 companies → v3 people).
pub fn with_kind(ep: Endpoint, kind: Kind) -> Endpoint {
    Endpoint::search(kind, ep.version())
}

/// The leaf-mask bit of one of the four searches; 0 for other endpoints.
fn bit(ep: Endpoint) -> u8 {
    match ep {
        Endpoint::SearchCompaniesV2 => C2,
        Endpoint::SearchCompaniesV3 => C3,
        Endpoint::SearchPeopleV2 => P2,
        Endpoint::SearchPeopleV3 => P3,
        _ => 0,
    }
}

const C2: u8 = 1;
const C3: u8 = 2;
const P2: u8 = 4;
const P3: u8 = 8;
const V2: u8 = C2 | P2;
const V3: u8 = C3 | P3;
const ALL: u8 = V2 | V3;

/// An autocomplete a list member takes its suggestions from; each maps to one of the five
/// autocomplete endpoints (SPEC.md §4 rows 1-5), each call costs 0.1 credit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AcKind {
    /// Company names: suggestions are domains.
    Companies,
    /// Keywords.
    Keywords,
    /// Job titles.
    JobTitles,
    /// Locations: suggestions become `{city, country}` items.
    Locations,
    /// Skills.
    Skills,
}

impl AcKind {
    /// The endpoint, e.g. [`Endpoint::AutocompleteKeywords`].
    pub fn endpoint(self) -> Endpoint {
        match self {
            AcKind::Companies => Endpoint::AutocompleteCompanies,
            AcKind::Keywords => Endpoint::AutocompleteKeywords,
            AcKind::JobTitles => Endpoint::AutocompleteJobTitles,
            AcKind::Locations => Endpoint::AutocompleteLocations,
            AcKind::Skills => Endpoint::AutocompleteSkills,
        }
    }
}

/// Suggestions of an autocomplete answer: `(label shown, value put into the request body)`.
/// Labels are sanitized; values are built from the typed fields: a domain (companies), the
/// text (keywords, job titles, skills) or `{"city": name, "country": cc}` (locations, the
/// shape of the city filters). Company entries without a domain are skipped, as are locations
/// without a name.
pub fn suggestions(resp: &AutocompleteResponse) -> Vec<(String, Value)> {
    let strings = |list: &[String]| -> Vec<(String, Value)> {
        list.iter()
            .map(|s| (sanitize(s), Value::String(s.clone())))
            .collect()
    };
    match resp {
        AutocompleteResponse::Companies(r) => r
            .companies
            .iter()
            .filter(|c| !c.domain.is_empty())
            .map(|c| {
                let label = match c.name.as_deref().filter(|n| !n.is_empty()) {
                    Some(name) => format!("{name} ({})", c.domain),
                    None => c.domain.clone(),
                };
                (sanitize(&label), Value::String(c.domain.clone()))
            })
            .collect(),
        AutocompleteResponse::Keywords(r) => strings(&r.keywords),
        AutocompleteResponse::JobTitles(r) => strings(&r.job_titles),
        AutocompleteResponse::Skills(r) => strings(&r.skills),
        AutocompleteResponse::Locations(r) => r
            .locations
            .iter()
            .filter(|l| !l.name.is_empty())
            .map(|l| {
                let cc = l.country_code.to_lowercase();
                let ty = l.kind.as_str();
                let label = if l.parent_name.is_empty() {
                    format!("{} ({cc}) {ty}", l.name)
                } else {
                    format!("{}, {} ({cc}) {ty}", l.name, l.parent_name)
                };
                (
                    sanitize(&label),
                    serde_json::json!({ "city": l.name, "country": cc }),
                )
            })
            .collect(),
    }
}

/// A closed value set offered in a picker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SetId {
    /// `/v2/data-fields` industries (flattened).
    Industries,
    /// `/v2/data-fields` industry categories.
    IndustryCategories,
    /// `/v2/data-fields` linkedinIndustries.
    LinkedinIndustries,
    /// `/v2/data-fields` technology names.
    Technologies,
    /// `/v2/data-fields` technology categories.
    TechnologyCategories,
    /// Country codes (keys of `/v2/data-fields` regions).
    Countries,
    /// `{abbreviation, country}` states from `/v2/data-fields` regions.
    States,
    /// Region codes (strings) from `/v2/data-fields` regions.
    RegionCodes,
    /// Seniorities (data-fields, else the built-in list).
    Seniorities,
    /// Departments (data-fields, else the built-in list).
    Departments,
    /// `PublicCompanySize` labels.
    CompanySizes,
    /// `Revenue` labels.
    Revenues,
    /// `FundingRoundType`.
    FundingTypes,
    /// Social networks.
    SocialNetworks,
    /// Company field names for fieldsExist/fieldsNotExist.
    CompanyFields,
    /// Person field names for fieldsExist/fieldsNotExist.
    PersonFields,
    /// Relevance A/B/C.
    Relevance,
    /// `anyOf` / `allOf` (industries modes).
    AnyAll,
    /// `anyOf` / `allOf` / `noneOf`.
    AnyAllNone,
    /// `precise` / `broad`.
    MatchingMode,
    /// Head-count growth months.
    GrowthMonths,
    /// `true` / `false`.
    Bool,
}

/// `fieldsExist` / `fieldsNotExist` names of company filters (the wire types' list).
const COMPANY_FIELDS: &[&str] = crate::api::types::COMPANY_FILTER_FIELDS;
/// `fieldsExist` / `fieldsNotExist` names of people filters (the wire types' list).
const PERSON_FIELDS: &[&str] = crate::api::types::PERSON_FILTER_FIELDS;

/// One pickable option: what the user sees and what goes into the body.
#[derive(Debug, Clone, PartialEq)]
pub struct Opt {
    /// Shown in the picker (sanitized by the view).
    pub label: String,
    /// Stored in the body.
    pub value: Value,
}

/// The reference data of `/v2/data-fields`, flattened for pickers (SPEC.md §2.8).
#[derive(Debug, Clone, Default)]
pub struct DataFields {
    /// Industry names, sorted, unique.
    pub industries: Vec<String>,
    /// Industry category names.
    pub industry_categories: Vec<String>,
    /// Professional-network industries.
    pub linkedin_industries: Vec<String>,
    /// Technology names.
    pub technologies: Vec<String>,
    /// Technology categories.
    pub technology_categories: Vec<String>,
    /// Country codes.
    pub countries: Vec<String>,
    /// `(country, code, englishName)` of every region.
    pub regions: Vec<(String, String, String)>,
    /// Seniorities.
    pub seniorities: Vec<String>,
    /// Departments.
    pub departments: Vec<String>,
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort_by_key(|s| s.to_lowercase());
    v.dedup();
    v
}

impl DataFields {
    /// Flattens the typed `/v2/data-fields` answer (SPEC.md §2.8) for the pickers: names sorted
    /// case-insensitively without duplicates, regions without a code left out, seniorities and
    /// departments in the service's order (their wire strings).
    pub fn from_api(df: &crate::api::types::DataFields) -> DataFields {
        let mut industries = Vec::new();
        let mut cats = Vec::new();
        for g in &df.industries {
            cats.extend(g.industry_category.clone());
            industries.extend(g.industries.iter().cloned());
        }
        let mut tech_names = Vec::new();
        let mut tech_cats = Vec::new();
        for t in &df.technologies {
            tech_names.extend(t.name.clone());
            tech_cats.extend(t.categories.iter().cloned());
        }
        let mut regions = Vec::new();
        for (cc, list) in &df.regions {
            for r in list {
                if let Some(code) = r.code.as_ref().filter(|c| !c.is_empty()) {
                    let name = r.english_name.clone().unwrap_or_default();
                    regions.push((cc.clone(), code.clone(), name));
                }
            }
        }
        regions.sort();
        DataFields {
            industries: sorted(industries),
            industry_categories: sorted(cats),
            linkedin_industries: sorted(df.linkedin_industries.clone()),
            technologies: sorted(tech_names),
            technology_categories: sorted(tech_cats),
            countries: sorted(df.regions.keys().cloned().collect()),
            regions,
            seniorities: df
                .seniorities
                .iter()
                .map(|s| s.as_str().to_string())
                .collect(),
            departments: df
                .departments
                .iter()
                .map(|d| d.as_str().to_string())
                .collect(),
        }
    }
}

fn strs(list: &[&str]) -> Vec<Opt> {
    list.iter()
        .map(|s| Opt {
            label: s.to_string(),
            value: Value::String(s.to_string()),
        })
        .collect()
}

fn owned(list: &[String]) -> Vec<Opt> {
    list.iter()
        .map(|s| Opt {
            label: s.clone(),
            value: Value::String(s.clone()),
        })
        .collect()
}

impl SetId {
    /// `true` when the options come from `/v2/data-fields` (empty until it has loaded).
    pub fn needs_data_fields(self) -> bool {
        matches!(
            self,
            SetId::Industries
                | SetId::IndustryCategories
                | SetId::LinkedinIndustries
                | SetId::Technologies
                | SetId::TechnologyCategories
                | SetId::Countries
                | SetId::States
                | SetId::RegionCodes
        )
    }

    /// The options of this set.
    pub fn options(self, df: &DataFields) -> Vec<Opt> {
        match self {
            SetId::Industries => owned(&df.industries),
            SetId::IndustryCategories => owned(&df.industry_categories),
            SetId::LinkedinIndustries => owned(&df.linkedin_industries),
            SetId::Technologies => owned(&df.technologies),
            SetId::TechnologyCategories => owned(&df.technology_categories),
            // Labelled with names, so "germany" or "Deutschland" find `de`.
            SetId::Countries => df
                .countries
                .iter()
                .map(|c| Opt {
                    label: super::countries::label(c),
                    value: Value::String(c.clone()),
                })
                .collect(),
            SetId::States => df
                .regions
                .iter()
                .map(|(cc, code, name)| Opt {
                    label: format!("{code} {name} ({cc})"),
                    value: serde_json::json!({ "abbreviation": code, "country": cc }),
                })
                .collect(),
            SetId::RegionCodes => df
                .regions
                .iter()
                .map(|(cc, code, name)| Opt {
                    label: format!("{code} {name} ({cc})"),
                    value: Value::String(code.clone()),
                })
                .collect(),
            SetId::Seniorities if !df.seniorities.is_empty() => owned(&df.seniorities),
            SetId::Seniorities => strs(crate::api::types::common::Seniority::ALL_STR),
            SetId::Departments if !df.departments.is_empty() => owned(&df.departments),
            SetId::Departments => strs(crate::api::types::common::Department::ALL_STR),
            SetId::CompanySizes => strs(CompanySize::ALL_STR),
            SetId::Revenues => strs(Revenue::ALL_STR),
            SetId::FundingTypes => strs(FundingRoundType::ALL_STR),
            SetId::SocialNetworks => strs(SocialNetwork::ALL_STR),
            SetId::CompanyFields => strs(COMPANY_FIELDS),
            SetId::PersonFields => strs(PERSON_FIELDS),
            SetId::Relevance => strs(Relevance::ALL_STR),
            SetId::AnyAll => strs(&["anyOf", "allOf"]),
            SetId::AnyAllNone => strs(&["anyOf", "allOf", "noneOf"]),
            SetId::MatchingMode => strs(&["precise", "broad"]),
            SetId::GrowthMonths => strs(HeadcountGrowthMonths::ALL_STR),
            SetId::Bool => vec![
                Opt {
                    label: "true".into(),
                    value: Value::Bool(true),
                },
                Opt {
                    label: "false".into(),
                    value: Value::Bool(false),
                },
            ],
        }
    }
}

/// Where the items of a list member come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Typed freely.
    Free,
    /// Typed, with suggestions from an autocomplete endpoint.
    Ac(AcKind),
    /// Picked from a closed set (fuzzy narrowed).
    Closed(SetId),
}

/// The scalar type of ranges and single values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Num {
    /// Integer.
    Int,
    /// Number.
    Float,
    /// `YYYY-MM-DD` (ranges) or `YYYY-MM` strings.
    Date,
    /// Free text.
    Text,
}

/// How a member is edited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeafKind {
    /// An array of items.
    List(Source),
    /// One value of a closed set.
    One(SetId),
    /// A `{from, to}` range.
    Range(Num),
    /// A single scalar.
    Scalar(Num),
    /// Any JSON (arrays of objects such as `departmentSizes`), validated on entry.
    Json,
}

/// One editable member of a request body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Leaf {
    /// JSON path from the body root, e.g. `["companiesFilters", "industries", "mode"]`.
    pub path: &'static [&'static str],
    /// How it is edited.
    pub kind: LeafKind,
    mask: u8,
}

impl Leaf {
    /// The API name: the path joined with dots, without the block name (`industries.mode`),
    /// shown as a dim hint beside [`Leaf::label`].
    pub fn api_name(&self) -> String {
        let p = if self.path.len() > 1 {
            &self.path[1..]
        } else {
            self.path
        };
        p.join(".")
    }

    /// Its human label with its unit, e.g. "Employees (LinkedIn, range)" (issue 19; the one
    /// table in [`crate::tui::labels`]); the API name for a member the table lacks.
    pub fn label(&self) -> String {
        match crate::tui::labels::of_path(self.path) {
            Some((_, l)) => l.to_string(),
            None => self.api_name(),
        }
    }

    /// The section of the form it sits in.
    pub fn section(&self) -> crate::tui::labels::Section {
        crate::tui::labels::of_path(self.path)
            .map_or(crate::tui::labels::Section::Request, |(s, _)| s)
    }
    /// The block (`companiesFilters`, `peopleFilters`) or `""` for top-level members.
    pub fn block(&self) -> &'static str {
        if self.path.len() > 1 {
            self.path[0]
        } else {
            ""
        }
    }
    /// `true` when the endpoint accepts this member.
    pub fn applies_to(&self, ep: Endpoint) -> bool {
        self.mask & bit(ep) != 0
    }
}

use LeafKind::{Json, List, One, Range, Scalar};
use Source::{Ac, Closed, Free};

const fn l(path: &'static [&'static str], kind: LeafKind, mask: u8) -> Leaf {
    Leaf { path, kind, mask }
}

const CF: &str = "companiesFilters";
const PF: &str = "peopleFilters";

/// Every member the form can edit, in display order.
pub static LEAVES: &[Leaf] = &[
    l(&["size"], Scalar(Num::Int), ALL),
    l(&["peoplePerCompany"], Scalar(Num::Int), P2 | P3),
    l(&["onePersonPerDomain"], One(SetId::Bool), P2),
    l(&["jobTitleThreshold"], Scalar(Num::Float), P3),
    // Reveals with the search (SPEC.md §2.6): the explorer sets their `webhookUrl` to its
    // receiver, and the deliveries fill the rows like a reveal's.
    l(
        &["revealEmails", "includeEmails"],
        One(SetId::Bool),
        P2 | P3,
    ),
    l(
        &["revealPhones", "includePhones"],
        One(SetId::Bool),
        P2 | P3,
    ),
    // companiesFilters, both versions
    l(&[CF, "lookalikeDomains"], List(Ac(AcKind::Companies)), ALL),
    l(&[CF, "includeDomains"], List(Ac(AcKind::Companies)), ALL),
    l(&[CF, "excludeDomains"], List(Ac(AcKind::Companies)), ALL),
    l(&[CF, "companyMatchingMode"], One(SetId::MatchingMode), V3),
    l(&[CF, "minScore"], Scalar(Num::Float), V2),
    l(&[CF, "minRelevance"], One(SetId::Relevance), V3),
    l(&[CF, "maxRelevance"], One(SetId::Relevance), V3),
    l(
        &[CF, "companySizes"],
        List(Closed(SetId::CompanySizes)),
        ALL,
    ),
    l(&[CF, "revenues"], List(Closed(SetId::Revenues)), ALL),
    l(&[CF, "ecommerce"], One(SetId::Bool), ALL),
    l(&[CF, "yearFounded"], Range(Num::Int), ALL),
    l(&[CF, "employeeCountService"], Range(Num::Int), ALL),
    l(&[CF, "employeeCountLinkedin"], Range(Num::Int), ALL),
    l(&[CF, "countriesCount"], Range(Num::Int), ALL),
    l(&[CF, "locationsCount"], Range(Num::Int), ALL),
    l(&[CF, "mobileApps"], Range(Num::Int), ALL),
    l(&[CF, "mobileAppsFilter", "count"], Range(Num::Int), ALL),
    l(&[CF, "mobileAppsFilter", "downloads"], Range(Num::Int), ALL),
    l(
        &[CF, "mobileAppsFilter", "releaseYear"],
        Range(Num::Int),
        ALL,
    ),
    l(&[CF, "departmentSizes"], Json, ALL),
    l(
        &[CF, "industries", "industries"],
        List(Closed(SetId::Industries)),
        ALL,
    ),
    l(&[CF, "industries", "mode"], One(SetId::AnyAll), ALL),
    l(
        &[CF, "excludeIndustries"],
        List(Closed(SetId::Industries)),
        ALL,
    ),
    l(
        &[CF, "industryCategories", "industryCategories"],
        List(Closed(SetId::IndustryCategories)),
        ALL,
    ),
    l(&[CF, "industryCategories", "mode"], One(SetId::AnyAll), ALL),
    l(
        &[CF, "excludeIndustryCategories"],
        List(Closed(SetId::IndustryCategories)),
        ALL,
    ),
    l(
        &[CF, "linkedinIndustries"],
        List(Closed(SetId::LinkedinIndustries)),
        ALL,
    ),
    l(
        &[CF, "excludeLinkedinIndustries"],
        List(Closed(SetId::LinkedinIndustries)),
        ALL,
    ),
    l(
        &[CF, "fundingRound", "types"],
        List(Closed(SetId::FundingTypes)),
        ALL,
    ),
    l(&[CF, "fundingRound", "raised"], Range(Num::Int), ALL),
    l(&[CF, "fundingRound", "date"], Range(Num::Date), ALL),
    // v2 locations
    l(&[CF, "countries"], List(Closed(SetId::Countries)), V2),
    l(
        &[CF, "primaryCountries"],
        List(Closed(SetId::Countries)),
        V2,
    ),
    l(&[CF, "states"], List(Closed(SetId::States)), V2),
    l(&[CF, "primaryStates"], List(Closed(SetId::States)), V2),
    l(&[CF, "cities"], List(Ac(AcKind::Locations)), V2),
    l(&[CF, "primaryCities"], List(Ac(AcKind::Locations)), V2),
    l(
        &[CF, "headquarterGeolocation", "latitude"],
        Scalar(Num::Float),
        V2,
    ),
    l(
        &[CF, "headquarterGeolocation", "longitude"],
        Scalar(Num::Float),
        V2,
    ),
    l(
        &[CF, "headquarterGeolocation", "radius"],
        Scalar(Num::Int),
        V2,
    ),
    l(&[CF, "geolocation", "latitude"], Scalar(Num::Float), V2),
    l(&[CF, "geolocation", "longitude"], Scalar(Num::Float), V2),
    l(&[CF, "geolocation", "radius"], Scalar(Num::Int), V2),
    l(&[CF, "webTrafficVisits"], Range(Num::Int), V2),
    // v3 locations
    l(
        &[CF, "primaryLocations", "includeCountries"],
        List(Closed(SetId::Countries)),
        V3,
    ),
    l(
        &[CF, "primaryLocations", "excludeCountries"],
        List(Closed(SetId::Countries)),
        V3,
    ),
    l(
        &[CF, "primaryLocations", "includeRegions"],
        List(Closed(SetId::States)),
        V3,
    ),
    l(
        &[CF, "primaryLocations", "excludeRegions"],
        List(Closed(SetId::States)),
        V3,
    ),
    l(
        &[CF, "primaryLocations", "includeCities"],
        List(Ac(AcKind::Locations)),
        V3,
    ),
    l(
        &[CF, "primaryLocations", "excludeCities"],
        List(Ac(AcKind::Locations)),
        V3,
    ),
    l(
        &[CF, "primaryLocations", "geolocation", "latitude"],
        Scalar(Num::Float),
        V3,
    ),
    l(
        &[CF, "primaryLocations", "geolocation", "longitude"],
        Scalar(Num::Float),
        V3,
    ),
    l(
        &[CF, "primaryLocations", "geolocation", "radius"],
        Scalar(Num::Int),
        V3,
    ),
    l(
        &[CF, "otherLocations", "includeCountries"],
        List(Closed(SetId::Countries)),
        V3,
    ),
    l(
        &[CF, "otherLocations", "excludeCountries"],
        List(Closed(SetId::Countries)),
        V3,
    ),
    l(
        &[CF, "otherLocations", "includeRegions"],
        List(Closed(SetId::States)),
        V3,
    ),
    l(
        &[CF, "otherLocations", "excludeRegions"],
        List(Closed(SetId::States)),
        V3,
    ),
    l(
        &[CF, "otherLocations", "includeCities"],
        List(Ac(AcKind::Locations)),
        V3,
    ),
    l(
        &[CF, "otherLocations", "excludeCities"],
        List(Ac(AcKind::Locations)),
        V3,
    ),
    l(
        &[CF, "otherLocations", "geolocation", "latitude"],
        Scalar(Num::Float),
        V3,
    ),
    l(
        &[CF, "otherLocations", "geolocation", "longitude"],
        Scalar(Num::Float),
        V3,
    ),
    l(
        &[CF, "otherLocations", "geolocation", "radius"],
        Scalar(Num::Int),
        V3,
    ),
    l(&[CF, "webTraffic", "visits"], Range(Num::Int), V3),
    l(&[CF, "webTraffic", "views"], Range(Num::Int), V3),
    // keywords, technologies, social
    l(
        &[CF, "keywords", "keywords"],
        List(Ac(AcKind::Keywords)),
        V2,
    ),
    l(&[CF, "keywords", "mode"], One(SetId::AnyAllNone), V2),
    l(&[CF, "keywords", "anyOf"], List(Ac(AcKind::Keywords)), V3),
    l(&[CF, "keywords", "allOf"], List(Ac(AcKind::Keywords)), V3),
    l(&[CF, "keywords", "noneOf"], List(Ac(AcKind::Keywords)), V3),
    l(
        &[CF, "technologies", "technologies"],
        List(Closed(SetId::Technologies)),
        V2,
    ),
    l(&[CF, "technologies", "mode"], One(SetId::AnyAllNone), V2),
    l(
        &[CF, "technologies", "apps", "anyOf"],
        List(Closed(SetId::Technologies)),
        V3,
    ),
    l(
        &[CF, "technologies", "apps", "allOf"],
        List(Closed(SetId::Technologies)),
        V3,
    ),
    l(
        &[CF, "technologies", "apps", "noneOf"],
        List(Closed(SetId::Technologies)),
        V3,
    ),
    l(
        &[CF, "technologies", "categories", "anyOf"],
        List(Closed(SetId::TechnologyCategories)),
        V3,
    ),
    l(
        &[CF, "technologies", "categories", "allOf"],
        List(Closed(SetId::TechnologyCategories)),
        V3,
    ),
    l(
        &[CF, "technologies", "categories", "noneOf"],
        List(Closed(SetId::TechnologyCategories)),
        V3,
    ),
    l(
        &[CF, "socialMedias", "medias"],
        List(Closed(SetId::SocialNetworks)),
        V2,
    ),
    l(&[CF, "socialMedias", "mode"], One(SetId::AnyAllNone), V2),
    l(
        &[CF, "socialMedias", "medias", "anyOf"],
        List(Closed(SetId::SocialNetworks)),
        V3,
    ),
    l(
        &[CF, "socialMedias", "medias", "allOf"],
        List(Closed(SetId::SocialNetworks)),
        V3,
    ),
    l(
        &[CF, "socialMedias", "medias", "noneOf"],
        List(Closed(SetId::SocialNetworks)),
        V3,
    ),
    l(&[CF, "socialMedias", "minCount"], Scalar(Num::Int), V3),
    l(
        &[CF, "headcountGrowth", "growthRange"],
        Range(Num::Float),
        V3,
    ),
    l(
        &[CF, "headcountGrowth", "months"],
        One(SetId::GrowthMonths),
        V3,
    ),
    l(
        &[CF, "headcountGrowth", "asPercentage"],
        One(SetId::Bool),
        V3,
    ),
    l(&[CF, "departmentHeadcountGrowth", "anyOf"], Json, V3),
    l(&[CF, "departmentHeadcountGrowth", "allOf"], Json, V3),
    l(&[CF, "updatedWithinMonths"], Scalar(Num::Int), V3),
    l(
        &[CF, "fieldsExist"],
        List(Closed(SetId::CompanyFields)),
        ALL,
    ),
    l(
        &[CF, "fieldsNotExist"],
        List(Closed(SetId::CompanyFields)),
        ALL,
    ),
    // peopleFilters v2 (SPEC.md §2.5)
    l(&[PF, "includeIds"], List(Free), V2),
    l(&[PF, "excludeIds"], List(Free), V2),
    l(&[PF, "jobTitles"], List(Ac(AcKind::JobTitles)), V2),
    l(&[PF, "excludeJobTitles"], List(Ac(AcKind::JobTitles)), V2),
    l(&[PF, "keywords"], List(Ac(AcKind::Keywords)), V2),
    l(&[PF, "emails"], List(Free), V2),
    // peopleFilters v3
    l(&[PF, "lookalikeLinkedinHandles"], List(Free), V3),
    l(&[PF, "includePeopleIds"], List(Free), V3),
    l(&[PF, "excludePeopleIds"], List(Free), V3),
    l(&[PF, "includeLinkedinHandles"], List(Free), V3),
    l(&[PF, "excludeLinkedinHandles"], List(Free), V3),
    l(
        &[PF, "jobTitleKeywords", "anyOf"],
        List(Ac(AcKind::JobTitles)),
        V3,
    ),
    l(
        &[PF, "jobTitleKeywords", "allOf"],
        List(Ac(AcKind::JobTitles)),
        V3,
    ),
    l(
        &[PF, "jobTitleKeywords", "noneOf"],
        List(Ac(AcKind::JobTitles)),
        V3,
    ),
    l(&[PF, "skills", "anyOf"], List(Ac(AcKind::Skills)), V3),
    l(&[PF, "skills", "allOf"], List(Ac(AcKind::Skills)), V3),
    l(&[PF, "skills", "noneOf"], List(Ac(AcKind::Skills)), V3),
    l(&[PF, "currentJobDescription", "anyOf"], List(Free), V3),
    l(&[PF, "currentJobDescription", "allOf"], List(Free), V3),
    l(&[PF, "currentJobDescription", "noneOf"], List(Free), V3),
    l(&[PF, "allJobDescriptions", "anyOf"], List(Free), V3),
    l(&[PF, "allJobDescriptions", "allOf"], List(Free), V3),
    l(&[PF, "allJobDescriptions", "noneOf"], List(Free), V3),
    l(&[PF, "profileDescription", "anyOf"], List(Free), V3),
    l(&[PF, "profileDescription", "allOf"], List(Free), V3),
    l(&[PF, "profileDescription", "noneOf"], List(Free), V3),
    // peopleFilters, both versions
    l(&[PF, "seniorities"], List(Closed(SetId::Seniorities)), ALL),
    l(&[PF, "departments"], List(Closed(SetId::Departments)), ALL),
    l(
        &[PF, "excludeDepartments"],
        List(Closed(SetId::Departments)),
        V3,
    ),
    l(&[PF, "countries"], List(Closed(SetId::Countries)), ALL),
    l(
        &[PF, "excludeCountries"],
        List(Closed(SetId::Countries)),
        ALL,
    ),
    l(&[PF, "states"], List(Closed(SetId::States)), ALL),
    l(&[PF, "excludeStates"], List(Closed(SetId::States)), ALL),
    l(&[PF, "regions"], List(Closed(SetId::RegionCodes)), V3),
    l(&[PF, "cities"], List(Ac(AcKind::Locations)), V3),
    l(&[PF, "excludeCities"], List(Ac(AcKind::Locations)), V3),
    l(&[PF, "names"], List(Free), ALL),
    l(&[PF, "changedPositionAfter"], Scalar(Num::Date), ALL),
    l(&[PF, "changedPositionBefore"], Scalar(Num::Date), ALL),
    l(&[PF, "connections"], Range(Num::Int), V3),
    l(&[PF, "followers"], Range(Num::Int), V3),
    l(&[PF, "updatedWithinMonths"], Scalar(Num::Int), V3),
    l(&[PF, "fieldsExist"], List(Closed(SetId::PersonFields)), ALL),
    l(
        &[PF, "fieldsNotExist"],
        List(Closed(SetId::PersonFields)),
        ALL,
    ),
];

/// The members `ep` accepts, in display order.
pub fn leaves(ep: Endpoint) -> Vec<&'static Leaf> {
    LEAVES.iter().filter(|l| l.applies_to(ep)).collect()
}

/// [`leaves`] in the form's order, each with its section: by section (issue 19), each section
/// in [`LEAVES`]' order. The order is worked out once; the form draws from it on every frame.
pub fn leaves_by_section(ep: Endpoint) -> Vec<(crate::tui::labels::Section, &'static Leaf)> {
    type Order = Vec<(crate::tui::labels::Section, &'static Leaf)>;
    static ORDER: std::sync::OnceLock<Order> = std::sync::OnceLock::new();
    ORDER
        .get_or_init(|| {
            let mut all: Order = LEAVES.iter().map(|l| (l.section(), l)).collect();
            all.sort_by_key(|(s, _)| *s);
            all
        })
        .iter()
        .copied()
        .filter(|(_, l)| l.applies_to(ep))
        .collect()
}

/// Members with the same meaning and value shape in both search versions (issue 19): (v2
/// path, v3 path). `v` moves a set value from one to the other.
static VERSION_PAIRS: &[(&[&str], &[&str])] = &[
    (
        &[CF, "primaryCountries"],
        &[CF, "primaryLocations", "includeCountries"],
    ),
    (
        &[CF, "primaryStates"],
        &[CF, "primaryLocations", "includeRegions"],
    ),
    (
        &[CF, "primaryCities"],
        &[CF, "primaryLocations", "includeCities"],
    ),
    (
        &[CF, "headquarterGeolocation", "latitude"],
        &[CF, "primaryLocations", "geolocation", "latitude"],
    ),
    (
        &[CF, "headquarterGeolocation", "longitude"],
        &[CF, "primaryLocations", "geolocation", "longitude"],
    ),
    (
        &[CF, "headquarterGeolocation", "radius"],
        &[CF, "primaryLocations", "geolocation", "radius"],
    ),
    (&[CF, "webTrafficVisits"], &[CF, "webTraffic", "visits"]),
    (&[PF, "includeIds"], &[PF, "includePeopleIds"]),
    (&[PF, "excludeIds"], &[PF, "excludePeopleIds"]),
];

/// Lists that v2 writes as `{LIST: [...], mode: "anyOf"|"allOf"|"noneOf"}` and v3 as
/// `{anyOf: [...], allOf: [...], noneOf: [...]}`: (v2 list path, v2 mode path, v3 parent path).
static VERSION_MODES: &[(&[&str], &[&str], &[&str])] = &[
    (
        &[CF, "keywords", "keywords"],
        &[CF, "keywords", "mode"],
        &[CF, "keywords"],
    ),
    (
        &[CF, "technologies", "technologies"],
        &[CF, "technologies", "mode"],
        &[CF, "technologies", "apps"],
    ),
    (
        &[CF, "socialMedias", "medias"],
        &[CF, "socialMedias", "mode"],
        &[CF, "socialMedias", "medias"],
    ),
];

/// What switching a body to the other search version did ([`switch_version`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VersionSwitch {
    /// Members moved to their counterpart: (from, to), dotted paths.
    pub moved: Vec<(String, String)>,
    /// Members set in the body that the new endpoint does not take (kept in the body, listed
    /// as "not used by this endpoint"), dotted paths.
    pub unmatched: Vec<String>,
}

/// Moves the members of `body` that have a counterpart in endpoint `to`'s version to it
/// (issue 19: `v` from v3 to v2 keeps a country filter), and names the set members `to` does
/// not take. A v3 `anyOf` / `allOf` / `noneOf` list becomes v2's list with its `mode` (the
/// first set one; the others stay, named as unmatched), and back.
pub fn switch_version(body: &mut Value, to: Endpoint) -> VersionSwitch {
    let mut out = VersionSwitch::default();
    let to_v2 = to.version() == crate::api::client::ApiVersion::V2;
    for (v2, v3) in VERSION_PAIRS {
        let (from, into) = if to_v2 { (*v3, *v2) } else { (*v2, *v3) };
        if let Some(v) = get(body, from).filter(|v| is_filled(Some(v))).cloned() {
            remove(body, from);
            set(body, into, v);
            out.moved.push((from.join("."), into.join(".")));
        }
    }
    for (list, mode, v3) in VERSION_MODES {
        if to_v2 {
            let keys = ["anyOf", "allOf", "noneOf"];
            let Some(key) = keys.iter().find(|k| {
                let mut p = v3.to_vec();
                p.push(k);
                is_filled(get(body, &p))
            }) else {
                continue;
            };
            let mut from = v3.to_vec();
            from.push(key);
            let v = get(body, &from).cloned().unwrap_or(Value::Null);
            remove(body, &from);
            // The v3 object may share the v2 list's path (socialMedias.medias): take what is
            // left of it aside, then write the v2 members.
            let rest = get(body, v3).cloned();
            remove(body, v3);
            set(body, list, v);
            set(body, mode, Value::from(*key));
            // The other lists stay in the body (listed as not used by v2, back with `v`), unless
            // the v2 list now sits where they were (socialMedias.medias): those are named.
            if let Some(Value::Object(rest)) = rest {
                for (k, v) in rest.into_iter().filter(|(_, v)| is_filled(Some(v))) {
                    let mut p: Vec<&str> = v3.to_vec();
                    p.push(&k);
                    if get(body, v3).is_none_or(Value::is_object) {
                        set(body, &p, v);
                    } else {
                        out.unmatched.push(format!("{} (dropped)", p.join(".")));
                    }
                }
            }
            out.moved.push((from.join("."), list.join(".")));
        } else if let Some(v) = get(body, list).filter(|v| is_filled(Some(v))).cloned() {
            let key = get(body, mode)
                .and_then(Value::as_str)
                .filter(|k| ["anyOf", "allOf", "noneOf"].contains(k))
                .unwrap_or("anyOf")
                .to_string();
            remove(body, list);
            remove(body, mode);
            let mut into = v3.to_vec();
            into.push(&key);
            set(body, &into, v);
            out.moved.push((list.join("."), into.join(".")));
        }
    }
    out.unmatched.extend(
        extras(body, to)
            .into_iter()
            .filter(|(_, v)| is_filled(Some(v)))
            .map(|(p, _)| p.join(".")),
    );
    out.unmatched.sort();
    out.unmatched.dedup();
    out
}

/// The value at `path`, if set.
pub fn get<'a>(body: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(body, |v, k| v.get(*k))
}

/// Sets `path` to `v`, creating objects on the way (a non-object in the way is replaced).
pub fn set(body: &mut Value, path: &[&str], v: Value) {
    let mut cur = body;
    for (i, k) in path.iter().enumerate() {
        if !cur.is_object() {
            *cur = Value::Object(Map::new());
        }
        let Some(obj) = cur.as_object_mut() else {
            return;
        };
        if i + 1 == path.len() {
            obj.insert((*k).to_string(), v);
            return;
        }
        cur = obj
            .entry((*k).to_string())
            .or_insert_with(|| Value::Object(Map::new()));
    }
}

/// Removes `path`, then every object on the way that became empty.
pub fn remove(body: &mut Value, path: &[&str]) {
    fn go(v: &mut Value, path: &[&str]) {
        let Some(obj) = v.as_object_mut() else { return };
        if path.len() == 1 {
            obj.remove(path[0]);
            return;
        }
        if let Some(child) = obj.get_mut(path[0]) {
            go(child, &path[1..]);
            if child.as_object().is_some_and(Map::is_empty) {
                obj.remove(path[0]);
            }
        }
    }
    if !path.is_empty() {
        go(body, path);
    }
}

/// `true` when the member holds something worth sending (not null, not an empty list/object).
pub fn is_filled(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
        Some(Value::String(s)) => !s.is_empty(),
        Some(_) => true,
    }
}

/// A list item in a few words: strings as is, `{city, country}` as `city (cc)`,
/// `{abbreviation, country}` as `CA (us)`, anything else as compact JSON.
pub fn fmt_item(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(o) => {
            let s = |k: &str| o.get(k).and_then(Value::as_str);
            if let (Some(c), Some(cc)) = (s("city"), s("country")) {
                format!("{c} ({cc})")
            } else if let (Some(a), Some(cc)) = (s("abbreviation"), s("country")) {
                format!("{a} ({cc})")
            } else {
                v.to_string()
            }
        }
        other => other.to_string(),
    }
}

/// A member's value in one line: lists joined with `, `, ranges as `from..to`.
pub fn fmt_value(kind: LeafKind, v: &Value) -> String {
    match (kind, v) {
        (LeafKind::List(_), Value::Array(a)) => {
            a.iter().map(fmt_item).collect::<Vec<_>>().join(", ")
        }
        (LeafKind::Range(_), Value::Object(o)) => {
            let end = |k: &str| {
                o.get(k)
                    .filter(|v| !v.is_null())
                    .map(fmt_item)
                    .unwrap_or_default()
            };
            format!("{}..{}", end("from"), end("to"))
        }
        (_, Value::String(s)) => s.clone(),
        (_, other) => other.to_string(),
    }
}

/// Parses one end of a range or a scalar as typed; empty gives `Ok(None)`.
pub fn parse_num(num: Num, s: &str) -> Result<Option<Value>, String> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(None);
    }
    match num {
        Num::Int => s
            .replace('_', "")
            .parse::<i64>()
            .map(|n| Some(Value::from(n)))
            .map_err(|_| format!("{s:?} is not a whole number")),
        Num::Float => s
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .and_then(serde_json::Number::from_f64)
            .map(|n| Some(Value::Number(n)))
            .ok_or_else(|| format!("{s:?} is not a number")),
        Num::Date => {
            let ok = s.len() >= 7 && s.chars().all(|c| c.is_ascii_digit() || c == '-');
            if ok {
                Ok(Some(Value::String(s.to_string())))
            } else {
                Err(format!("{s:?} is not a date (YYYY-MM-DD)"))
            }
        }
        Num::Text => Ok(Some(Value::String(s.to_string()))),
    }
}

/// Members set in `body` that no leaf of `ep` covers (e.g. v3 members after switching to v2),
/// as `(dotted path, value)`. `endpoint` is ignored (it names the endpoint of a filter set).
pub fn extras(body: &Value, ep: Endpoint) -> Vec<(Vec<String>, Value)> {
    let paths: Vec<&[&str]> = leaves(ep).iter().map(|l| l.path).collect();
    let mut out = Vec::new();
    fn walk(
        v: &Value,
        prefix: &mut Vec<String>,
        paths: &[&[&str]],
        out: &mut Vec<(Vec<String>, Value)>,
    ) {
        let Some(obj) = v.as_object() else { return };
        for (k, child) in obj {
            if prefix.is_empty() && k == "endpoint" {
                continue;
            }
            prefix.push(k.clone());
            let is_leaf = paths.iter().any(|p| {
                p.len() == prefix.len() && p.iter().zip(prefix.iter()).all(|(a, b)| a == b)
            });
            let is_prefix = paths.iter().any(|p| {
                p.len() > prefix.len() && p.iter().zip(prefix.iter()).all(|(a, b)| a == b)
            });
            if is_leaf {
            } else if is_prefix && child.is_object() {
                walk(child, prefix, paths, out);
            } else {
                out.push((prefix.clone(), child.clone()));
            }
            prefix.pop();
        }
    }
    walk(body, &mut Vec::new(), &paths, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn set_get_remove_prune() {
        let mut b = json!({});
        set(
            &mut b,
            &["companiesFilters", "industries", "mode"],
            json!("allOf"),
        );
        set(&mut b, &["size"], json!(10));
        assert_eq!(
            get(&b, &["companiesFilters", "industries", "mode"]),
            Some(&json!("allOf"))
        );
        remove(&mut b, &["companiesFilters", "industries", "mode"]);
        assert_eq!(b, json!({"size": 10}));
    }

    #[test]
    fn every_endpoint_has_unique_paths() {
        for ep in SEARCHES {
            let ls = leaves(ep);
            let mut seen = std::collections::HashSet::new();
            for l in &ls {
                assert!(seen.insert(l.path), "{ep:?} {:?}", l.path);
                // No leaf is a prefix of another leaf of the same endpoint.
                for m in &ls {
                    if m.path.len() > l.path.len() {
                        assert!(
                            !m.path.starts_with(l.path),
                            "{:?} prefixes {:?}",
                            l.path,
                            m.path
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn switching_versions_keeps_the_members_with_a_counterpart() {
        let v3 = json!({"size": 5, "companiesFilters": {
            "primaryLocations": {"includeCountries": ["de"]},
            "keywords": {"anyOf": ["saas"], "noneOf": ["agency"]},
            "technologies": {"apps": {"allOf": ["React"]}, "categories": {"anyOf": ["CRM"]}},
            "socialMedias": {"medias": {"anyOf": ["linkedin"], "allOf": ["x"]}},
            "minRelevance": "B"}});
        let mut body = v3.clone();
        let s = switch_version(&mut body, Endpoint::SearchCompaniesV2);
        assert_eq!(
            get(&body, &[CF, "primaryCountries"]),
            Some(&json!(["de"])),
            "{body}"
        );
        assert!(get(&body, &[CF, "primaryLocations"]).is_none(), "{body}");
        assert_eq!(
            get(&body, &[CF, "keywords", "keywords"]),
            Some(&json!(["saas"]))
        );
        assert_eq!(get(&body, &[CF, "keywords", "mode"]), Some(&json!("anyOf")));
        assert_eq!(
            get(&body, &[CF, "technologies", "technologies"]),
            Some(&json!(["React"]))
        );
        assert_eq!(
            get(&body, &[CF, "technologies", "mode"]),
            Some(&json!("allOf"))
        );
        assert_eq!(
            get(&body, &[CF, "socialMedias", "medias"]),
            Some(&json!(["linkedin"]))
        );
        assert!(s.moved.contains(&(
            "companiesFilters.primaryLocations.includeCountries".into(),
            "companiesFilters.primaryCountries".into()
        )));
        // Named: what v2 does not take (kept in the body), and what could not be kept.
        for named in [
            "companiesFilters.minRelevance",
            "companiesFilters.keywords.noneOf",
            "companiesFilters.technologies.categories",
            "companiesFilters.socialMedias.medias.allOf (dropped)",
        ] {
            assert!(
                s.unmatched.iter().any(|u| u == named),
                "{named}: {:?}",
                s.unmatched
            );
        }
        // And back: the country, keywords and technologies return where they were.
        let back = switch_version(&mut body, Endpoint::SearchCompaniesV3);
        assert_eq!(
            get(&body, &[CF, "primaryLocations", "includeCountries"]),
            Some(&json!(["de"])),
            "{body}"
        );
        assert_eq!(
            get(&body, &[CF, "keywords", "anyOf"]),
            Some(&json!(["saas"]))
        );
        assert_eq!(
            get(&body, &[CF, "keywords", "noneOf"]),
            Some(&json!(["agency"]))
        );
        assert_eq!(
            get(&body, &[CF, "technologies", "apps", "allOf"]),
            Some(&json!(["React"]))
        );
        assert_eq!(
            get(&body, &[CF, "technologies", "categories", "anyOf"]),
            Some(&json!(["CRM"]))
        );
        assert!(back.unmatched.is_empty(), "{:?}", back.unmatched);
        // People ids follow too.
        let mut p = json!({"peopleFilters": {"includePeopleIds": ["p1"]}});
        switch_version(&mut p, Endpoint::SearchPeopleV2);
        assert_eq!(get(&p, &[PF, "includeIds"]), Some(&json!(["p1"])));
    }

    #[test]
    fn extras_lists_members_of_other_versions() {
        let b = json!({"size": 5, "endpoint": "/v3/search/companies",
            "companiesFilters": {"primaryLocations": {"includeCountries": ["de"]}, "countries": ["fr"]}});
        let e = extras(&b, Endpoint::SearchCompaniesV2);
        assert_eq!(e.len(), 1);
        assert_eq!(
            e[0].0,
            vec![
                "companiesFilters".to_string(),
                "primaryLocations".to_string()
            ]
        );
        assert!(
            extras(&b, Endpoint::SearchCompaniesV3)
                .iter()
                .any(|(p, _)| p[1] == "countries")
        );
    }

    #[test]
    fn formatting_and_parsing() {
        assert_eq!(
            fmt_value(LeafKind::Range(Num::Int), &json!({"from": 10})),
            "10.."
        );
        assert_eq!(
            fmt_value(
                LeafKind::List(Source::Free),
                &json!([{"city": "Berlin", "country": "de"}, "x"])
            ),
            "Berlin (de), x"
        );
        assert_eq!(parse_num(Num::Int, " 1_000 ").unwrap(), Some(json!(1000)));
        assert!(parse_num(Num::Int, "ten").is_err());
        assert_eq!(parse_num(Num::Float, "").unwrap(), None);
    }

    fn typed(v: Value) -> crate::api::types::DataFields {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn data_fields_flatten_the_typed_answer() {
        let a = DataFields::from_api(&typed(
            json!({"technologies": [{"name": "React", "categories": ["JS"]}],
            "industries": [{"industryCategory": "Tech", "industries": ["Software", "AI"]}],
            "regions": {"us": [{"code": "CA", "englishName": "California", "localName": "California"}, {"englishName": "No code"}]},
            "seniorities": ["VP", "Galactic"]}),
        ));
        assert_eq!(a.technologies, vec!["React"]);
        assert_eq!(a.industries, vec!["AI", "Software"]);
        assert_eq!(a.industry_categories, vec!["Tech"]);
        assert_eq!(a.countries, vec!["us"]);
        assert_eq!(a.regions.len(), 1);
        assert_eq!(a.seniorities, vec!["VP", "Galactic"]);
        assert_eq!(
            SetId::States.options(&a)[0].value,
            json!({"abbreviation": "CA", "country": "us"})
        );
        let b = DataFields::from_api(&typed(
            json!({"technologies": {"name": "Vue", "categories": []}}),
        ));
        assert_eq!(b.technologies, vec!["Vue"]);
    }

    #[test]
    fn suggestions_come_from_the_typed_answers() {
        use crate::api::types::{AutocompleteCompaniesResponse, AutocompleteLocationsResponse};
        let r: AutocompleteCompaniesResponse = serde_json::from_value(json!({"companies": [
            {"name": "Acme\u{1b}[31m", "domain": "acme.com"}, {"domain": ""}, {"domain": "b.io"}]}))
        .unwrap();
        let s = suggestions(&AutocompleteResponse::Companies(r));
        assert_eq!(
            s,
            vec![
                ("Acme (acme.com)".to_string(), json!("acme.com")),
                ("b.io".to_string(), json!("b.io"))
            ]
        );
        let r: AutocompleteLocationsResponse = serde_json::from_value(json!({"locations": [
            {"name": "Berlin", "countryCode": "DE", "type": "4-city", "parentName": "Berlin"}]}))
        .unwrap();
        let s = suggestions(&AutocompleteResponse::Locations(r));
        assert_eq!(s[0].0, "Berlin, Berlin (de) 4-city");
        assert_eq!(s[0].1, json!({"city": "Berlin", "country": "de"}));
    }

    #[test]
    fn ac_kinds_are_the_autocomplete_endpoints() {
        for k in [
            AcKind::Companies,
            AcKind::Keywords,
            AcKind::JobTitles,
            AcKind::Locations,
            AcKind::Skills,
        ] {
            assert!(k.endpoint().is_autocomplete());
        }
        assert_eq!(tab_of(Endpoint::SearchPeopleV2), Kind::People);
        assert_eq!(
            with_kind(Endpoint::SearchPeopleV2, Kind::Companies),
            Endpoint::SearchCompaniesV2
        );
    }
}
