//! The table of every editable member of a request body ([`LEAVES`]): its JSON path, how it
//! is edited ([`LeafKind`]) and which of the four searches accept it.
use prospect_api::client::Endpoint;

use super::AutocompleteKind;
use super::sets::SetId;

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

/// Where the items of a list member come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Typed freely.
    Free,
    /// Typed, with suggestions from an autocomplete endpoint.
    Ac(AutocompleteKind),
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
    /// table in [`crate::labels`]); the API name for a member the table lacks.
    pub fn label(&self) -> String {
        match crate::labels::of_path(self.path) {
            Some((_, l)) => l.to_string(),
            None => self.api_name(),
        }
    }

    /// The section of the form it sits in.
    pub fn section(&self) -> crate::labels::Section {
        crate::labels::of_path(self.path).map_or(crate::labels::Section::Request, |(s, _)| s)
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

pub(super) const CF: &str = "companiesFilters";
pub(super) const PF: &str = "peopleFilters";

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
    l(
        &[CF, "lookalikeDomains"],
        List(Ac(AutocompleteKind::Companies)),
        ALL,
    ),
    l(
        &[CF, "includeDomains"],
        List(Ac(AutocompleteKind::Companies)),
        ALL,
    ),
    l(
        &[CF, "excludeDomains"],
        List(Ac(AutocompleteKind::Companies)),
        ALL,
    ),
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
    l(&[CF, "cities"], List(Ac(AutocompleteKind::Locations)), V2),
    l(
        &[CF, "primaryCities"],
        List(Ac(AutocompleteKind::Locations)),
        V2,
    ),
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
        List(Ac(AutocompleteKind::Locations)),
        V3,
    ),
    l(
        &[CF, "primaryLocations", "excludeCities"],
        List(Ac(AutocompleteKind::Locations)),
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
        List(Ac(AutocompleteKind::Locations)),
        V3,
    ),
    l(
        &[CF, "otherLocations", "excludeCities"],
        List(Ac(AutocompleteKind::Locations)),
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
        List(Ac(AutocompleteKind::Keywords)),
        V2,
    ),
    l(&[CF, "keywords", "mode"], One(SetId::AnyAllNone), V2),
    l(
        &[CF, "keywords", "anyOf"],
        List(Ac(AutocompleteKind::Keywords)),
        V3,
    ),
    l(
        &[CF, "keywords", "allOf"],
        List(Ac(AutocompleteKind::Keywords)),
        V3,
    ),
    l(
        &[CF, "keywords", "noneOf"],
        List(Ac(AutocompleteKind::Keywords)),
        V3,
    ),
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
    l(
        &[PF, "jobTitles"],
        List(Ac(AutocompleteKind::JobTitles)),
        V2,
    ),
    l(
        &[PF, "excludeJobTitles"],
        List(Ac(AutocompleteKind::JobTitles)),
        V2,
    ),
    l(&[PF, "keywords"], List(Ac(AutocompleteKind::Keywords)), V2),
    l(&[PF, "emails"], List(Free), V2),
    // peopleFilters v3
    l(&[PF, "lookalikeLinkedinHandles"], List(Free), V3),
    l(&[PF, "includePeopleIds"], List(Free), V3),
    l(&[PF, "excludePeopleIds"], List(Free), V3),
    l(&[PF, "includeLinkedinHandles"], List(Free), V3),
    l(&[PF, "excludeLinkedinHandles"], List(Free), V3),
    l(
        &[PF, "jobTitleKeywords", "anyOf"],
        List(Ac(AutocompleteKind::JobTitles)),
        V3,
    ),
    l(
        &[PF, "jobTitleKeywords", "allOf"],
        List(Ac(AutocompleteKind::JobTitles)),
        V3,
    ),
    l(
        &[PF, "jobTitleKeywords", "noneOf"],
        List(Ac(AutocompleteKind::JobTitles)),
        V3,
    ),
    l(
        &[PF, "skills", "anyOf"],
        List(Ac(AutocompleteKind::Skills)),
        V3,
    ),
    l(
        &[PF, "skills", "allOf"],
        List(Ac(AutocompleteKind::Skills)),
        V3,
    ),
    l(
        &[PF, "skills", "noneOf"],
        List(Ac(AutocompleteKind::Skills)),
        V3,
    ),
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
    l(&[PF, "cities"], List(Ac(AutocompleteKind::Locations)), V3),
    l(
        &[PF, "excludeCities"],
        List(Ac(AutocompleteKind::Locations)),
        V3,
    ),
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
pub fn leaves_by_section(ep: Endpoint) -> Vec<(crate::labels::Section, &'static Leaf)> {
    type Order = Vec<(crate::labels::Section, &'static Leaf)>;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::SEARCHES;

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
}
