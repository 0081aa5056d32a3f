//! Human labels of the filter members (issue 19, "Labels and groups"): one table, written from
//! openapi.json's descriptions (`CompaniesFiltersV3`, `PeopleFiltersV3`, the search bodies),
//! giving each member the words a salesperson reads and its unit ("Employees (LinkedIn,
//! range)", "Founded (year range)"), and the section of the form it sits in. The API name
//! (`companiesFilters.employeeCountLinkedin`) stays visible as a dim hint and in the editor.

/// The sections of the filters form, in the order they are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    /// Members of the request itself: page size, people per company, reveals with the search.
    Request,
    /// What the company is: lookalikes, domains, industries, keywords, web presence.
    Company,
    /// How big it is and how it grows: bands, headcounts, departments, growth.
    SizeGrowth,
    /// Where it is: countries, regions, cities, places near a point.
    Location,
    /// What it runs: technologies and their categories.
    Technology,
    /// How it is funded: the last round.
    Funding,
    /// Who the people are (people searches).
    People,
}

impl Section {
    /// Its heading in the form.
    pub fn title(self) -> &'static str {
        match self {
            Section::Request => "request",
            Section::Company => "company",
            Section::SizeGrowth => "size and growth",
            Section::Location => "location",
            Section::Technology => "technology",
            Section::Funding => "funding",
            Section::People => "people",
        }
    }
}

use Section::{
    Company as C, Funding as F, Location as L, People as P, Request as R, SizeGrowth as S,
    Technology as T,
};

/// (API path, section, label) of every filter member the form edits.
static LABELS: &[(&str, Section, &str)] = &[
    ("size", R, "Results per page"),
    ("peoplePerCompany", R, "People per company (at most)"),
    ("onePersonPerDomain", R, "One person per company (yes / no)"),
    ("jobTitleThreshold", R, "Job title similarity (0–1)"),
    (
        "revealEmails.includeEmails",
        R,
        "Reveal emails with the search (yes / no)",
    ),
    (
        "revealPhones.includePhones",
        R,
        "Reveal phones with the search (yes / no)",
    ),
    // Company.
    (
        "companiesFilters.lookalikeDomains",
        C,
        "Lookalikes of (domains)",
    ),
    (
        "companiesFilters.companyMatchingMode",
        C,
        "Lookalike matching (precise / broad)",
    ),
    ("companiesFilters.minScore", C, "Lookalike score (at least)"),
    (
        "companiesFilters.minRelevance",
        C,
        "Relevance (at least, A–C)",
    ),
    (
        "companiesFilters.maxRelevance",
        C,
        "Relevance (at most, A–C)",
    ),
    ("companiesFilters.includeDomains", C, "Only these domains"),
    ("companiesFilters.excludeDomains", C, "Exclude domains"),
    ("companiesFilters.industries.industries", C, "Industries"),
    (
        "companiesFilters.industries.mode",
        C,
        "Industries: match (any / all)",
    ),
    (
        "companiesFilters.excludeIndustries",
        C,
        "Exclude industries",
    ),
    (
        "companiesFilters.industryCategories.industryCategories",
        C,
        "Industry categories",
    ),
    (
        "companiesFilters.industryCategories.mode",
        C,
        "Industry categories: match (any / all)",
    ),
    (
        "companiesFilters.excludeIndustryCategories",
        C,
        "Exclude industry categories",
    ),
    (
        "companiesFilters.linkedinIndustries",
        C,
        "LinkedIn industries",
    ),
    (
        "companiesFilters.excludeLinkedinIndustries",
        C,
        "Exclude LinkedIn industries",
    ),
    ("companiesFilters.keywords.keywords", C, "Keywords"),
    (
        "companiesFilters.keywords.mode",
        C,
        "Keywords: match (any / all)",
    ),
    ("companiesFilters.keywords.anyOf", C, "Keywords: any of"),
    ("companiesFilters.keywords.allOf", C, "Keywords: all of"),
    ("companiesFilters.keywords.noneOf", C, "Keywords: none of"),
    ("companiesFilters.ecommerce", C, "E-commerce (yes / no)"),
    ("companiesFilters.yearFounded", C, "Founded (year range)"),
    (
        "companiesFilters.webTrafficVisits",
        C,
        "Web visits a month (range)",
    ),
    (
        "companiesFilters.webTraffic.visits",
        C,
        "Web visits a month (range)",
    ),
    (
        "companiesFilters.webTraffic.views",
        C,
        "Page views a month (range)",
    ),
    (
        "companiesFilters.mobileApps",
        C,
        "Mobile apps (count range)",
    ),
    (
        "companiesFilters.mobileAppsFilter.count",
        C,
        "App filter: apps (count range)",
    ),
    (
        "companiesFilters.mobileAppsFilter.downloads",
        C,
        "App filter: downloads (range)",
    ),
    (
        "companiesFilters.mobileAppsFilter.releaseYear",
        C,
        "App filter: released (year range)",
    ),
    ("companiesFilters.socialMedias.medias", C, "Social networks"),
    (
        "companiesFilters.socialMedias.medias.anyOf",
        C,
        "Social networks: any of",
    ),
    (
        "companiesFilters.socialMedias.medias.allOf",
        C,
        "Social networks: all of",
    ),
    (
        "companiesFilters.socialMedias.medias.noneOf",
        C,
        "Social networks: none of",
    ),
    (
        "companiesFilters.socialMedias.mode",
        C,
        "Social networks: match (any / all)",
    ),
    (
        "companiesFilters.socialMedias.minCount",
        C,
        "Social networks (more than n)",
    ),
    ("companiesFilters.fieldsExist", C, "Company has fields"),
    ("companiesFilters.fieldsNotExist", C, "Company lacks fields"),
    (
        "companiesFilters.updatedWithinMonths",
        C,
        "Company updated within (months)",
    ),
    // Size and growth.
    (
        "companiesFilters.companySizes",
        S,
        "Company size (employee bands)",
    ),
    ("companiesFilters.revenues", S, "Revenue (bands)"),
    (
        "companiesFilters.employeeCountService",
        S,
        "Employees (service count, range)",
    ),
    (
        "companiesFilters.employeeCountLinkedin",
        S,
        "Employees (LinkedIn, range)",
    ),
    (
        "companiesFilters.departmentSizes",
        S,
        "Department sizes (employees)",
    ),
    (
        "companiesFilters.headcountGrowth.months",
        S,
        "Headcount growth: over (3 / 6 / 12 months)",
    ),
    (
        "companiesFilters.headcountGrowth.growthRange",
        S,
        "Headcount growth (range)",
    ),
    (
        "companiesFilters.headcountGrowth.asPercentage",
        S,
        "Headcount growth in % (yes / no)",
    ),
    (
        "companiesFilters.departmentHeadcountGrowth.anyOf",
        S,
        "Department growth: any of",
    ),
    (
        "companiesFilters.departmentHeadcountGrowth.allOf",
        S,
        "Department growth: all of",
    ),
    (
        "companiesFilters.countriesCount",
        S,
        "Countries operated in (range)",
    ),
    (
        "companiesFilters.locationsCount",
        S,
        "Locations (count range)",
    ),
    // Location.
    ("companiesFilters.countries", L, "Countries"),
    ("companiesFilters.primaryCountries", L, "HQ countries"),
    ("companiesFilters.states", L, "States / regions"),
    ("companiesFilters.primaryStates", L, "HQ states / regions"),
    ("companiesFilters.cities", L, "Cities"),
    ("companiesFilters.primaryCities", L, "HQ cities"),
    (
        "companiesFilters.geolocation.latitude",
        L,
        "Near: latitude (°)",
    ),
    (
        "companiesFilters.geolocation.longitude",
        L,
        "Near: longitude (°)",
    ),
    ("companiesFilters.geolocation.radius", L, "Near: radius (m)"),
    (
        "companiesFilters.headquarterGeolocation.latitude",
        L,
        "HQ near: latitude (°)",
    ),
    (
        "companiesFilters.headquarterGeolocation.longitude",
        L,
        "HQ near: longitude (°)",
    ),
    (
        "companiesFilters.headquarterGeolocation.radius",
        L,
        "HQ near: radius (m)",
    ),
    (
        "companiesFilters.primaryLocations.includeCountries",
        L,
        "HQ countries",
    ),
    (
        "companiesFilters.primaryLocations.excludeCountries",
        L,
        "HQ countries: exclude",
    ),
    (
        "companiesFilters.primaryLocations.includeRegions",
        L,
        "HQ regions",
    ),
    (
        "companiesFilters.primaryLocations.excludeRegions",
        L,
        "HQ regions: exclude",
    ),
    (
        "companiesFilters.primaryLocations.includeCities",
        L,
        "HQ cities",
    ),
    (
        "companiesFilters.primaryLocations.excludeCities",
        L,
        "HQ cities: exclude",
    ),
    (
        "companiesFilters.primaryLocations.geolocation.latitude",
        L,
        "HQ near: latitude (°)",
    ),
    (
        "companiesFilters.primaryLocations.geolocation.longitude",
        L,
        "HQ near: longitude (°)",
    ),
    (
        "companiesFilters.primaryLocations.geolocation.radius",
        L,
        "HQ near: radius (m)",
    ),
    (
        "companiesFilters.otherLocations.includeCountries",
        L,
        "Other offices: countries",
    ),
    (
        "companiesFilters.otherLocations.excludeCountries",
        L,
        "Other offices: exclude countries",
    ),
    (
        "companiesFilters.otherLocations.includeRegions",
        L,
        "Other offices: regions",
    ),
    (
        "companiesFilters.otherLocations.excludeRegions",
        L,
        "Other offices: exclude regions",
    ),
    (
        "companiesFilters.otherLocations.includeCities",
        L,
        "Other offices: cities",
    ),
    (
        "companiesFilters.otherLocations.excludeCities",
        L,
        "Other offices: exclude cities",
    ),
    (
        "companiesFilters.otherLocations.geolocation.latitude",
        L,
        "Other offices near: latitude (°)",
    ),
    (
        "companiesFilters.otherLocations.geolocation.longitude",
        L,
        "Other offices near: longitude (°)",
    ),
    (
        "companiesFilters.otherLocations.geolocation.radius",
        L,
        "Other offices near: radius (m)",
    ),
    // Technology.
    (
        "companiesFilters.technologies.technologies",
        T,
        "Technologies",
    ),
    (
        "companiesFilters.technologies.mode",
        T,
        "Technologies: match (any / all)",
    ),
    (
        "companiesFilters.technologies.apps.anyOf",
        T,
        "Technologies: any of",
    ),
    (
        "companiesFilters.technologies.apps.allOf",
        T,
        "Technologies: all of",
    ),
    (
        "companiesFilters.technologies.apps.noneOf",
        T,
        "Technologies: none of",
    ),
    (
        "companiesFilters.technologies.categories.anyOf",
        T,
        "Technology categories: any of",
    ),
    (
        "companiesFilters.technologies.categories.allOf",
        T,
        "Technology categories: all of",
    ),
    (
        "companiesFilters.technologies.categories.noneOf",
        T,
        "Technology categories: none of",
    ),
    // Funding.
    (
        "companiesFilters.fundingRound.types",
        F,
        "Last funding round (types)",
    ),
    (
        "companiesFilters.fundingRound.raised",
        F,
        "Raised in the round (USD range)",
    ),
    (
        "companiesFilters.fundingRound.date",
        F,
        "Round date (date range)",
    ),
    // People.
    ("peopleFilters.jobTitles", P, "Job titles"),
    ("peopleFilters.excludeJobTitles", P, "Exclude job titles"),
    (
        "peopleFilters.jobTitleKeywords.anyOf",
        P,
        "Job title words: any of",
    ),
    (
        "peopleFilters.jobTitleKeywords.allOf",
        P,
        "Job title words: all of",
    ),
    (
        "peopleFilters.jobTitleKeywords.noneOf",
        P,
        "Job title words: none of",
    ),
    ("peopleFilters.seniorities", P, "Seniorities"),
    ("peopleFilters.departments", P, "Departments"),
    ("peopleFilters.excludeDepartments", P, "Exclude departments"),
    ("peopleFilters.countries", P, "Person's countries"),
    (
        "peopleFilters.excludeCountries",
        P,
        "Person's countries: exclude",
    ),
    ("peopleFilters.regions", P, "Person's regions"),
    ("peopleFilters.states", P, "Person's states / regions"),
    ("peopleFilters.excludeStates", P, "Person's states: exclude"),
    ("peopleFilters.cities", P, "Person's cities"),
    ("peopleFilters.excludeCities", P, "Person's cities: exclude"),
    ("peopleFilters.names", P, "Names"),
    ("peopleFilters.emails", P, "Emails"),
    ("peopleFilters.keywords", P, "Profile keywords"),
    ("peopleFilters.skills.anyOf", P, "Skills: any of"),
    ("peopleFilters.skills.allOf", P, "Skills: all of"),
    ("peopleFilters.skills.noneOf", P, "Skills: none of"),
    (
        "peopleFilters.profileDescription.anyOf",
        P,
        "Profile text: any of",
    ),
    (
        "peopleFilters.profileDescription.allOf",
        P,
        "Profile text: all of",
    ),
    (
        "peopleFilters.profileDescription.noneOf",
        P,
        "Profile text: none of",
    ),
    (
        "peopleFilters.currentJobDescription.anyOf",
        P,
        "Current job text: any of",
    ),
    (
        "peopleFilters.currentJobDescription.allOf",
        P,
        "Current job text: all of",
    ),
    (
        "peopleFilters.currentJobDescription.noneOf",
        P,
        "Current job text: none of",
    ),
    (
        "peopleFilters.allJobDescriptions.anyOf",
        P,
        "Any job's text: any of",
    ),
    (
        "peopleFilters.allJobDescriptions.allOf",
        P,
        "Any job's text: all of",
    ),
    (
        "peopleFilters.allJobDescriptions.noneOf",
        P,
        "Any job's text: none of",
    ),
    (
        "peopleFilters.changedPositionAfter",
        P,
        "Changed job after (date)",
    ),
    (
        "peopleFilters.changedPositionBefore",
        P,
        "Changed job before (date)",
    ),
    (
        "peopleFilters.connections",
        P,
        "LinkedIn connections (range)",
    ),
    ("peopleFilters.followers", P, "LinkedIn followers (range)"),
    (
        "peopleFilters.lookalikeLinkedinHandles",
        P,
        "Lookalikes of (LinkedIn handles)",
    ),
    (
        "peopleFilters.includeLinkedinHandles",
        P,
        "Only these LinkedIn handles",
    ),
    (
        "peopleFilters.excludeLinkedinHandles",
        P,
        "Exclude LinkedIn handles",
    ),
    ("peopleFilters.includeIds", P, "Only these people (ids)"),
    (
        "peopleFilters.includePeopleIds",
        P,
        "Only these people (ids)",
    ),
    ("peopleFilters.excludeIds", P, "Exclude people (ids)"),
    ("peopleFilters.excludePeopleIds", P, "Exclude people (ids)"),
    ("peopleFilters.fieldsExist", P, "Person has fields"),
    ("peopleFilters.fieldsNotExist", P, "Person lacks fields"),
    (
        "peopleFilters.updatedWithinMonths",
        P,
        "Person updated within (months)",
    ),
];

/// The section and label of the member at API path `path` (dotted, from the body's root);
/// `None` for a path the table does not know.
pub fn of(path: &str) -> Option<(Section, &'static str)> {
    LABELS
        .iter()
        .find(|(p, ..)| *p == path)
        .map(|(_, s, l)| (*s, *l))
}

/// [`of`] for a form member's path, looked up without building its dotted text: the form
/// asks for every member's section and label on every frame.
pub fn of_path(path: &'static [&'static str]) -> Option<(Section, &'static str)> {
    type Map = std::collections::HashMap<&'static [&'static str], (Section, &'static str)>;
    static MAP: std::sync::OnceLock<Map> = std::sync::OnceLock::new();
    MAP.get_or_init(|| {
        crate::schema::LEAVES
            .iter()
            .filter_map(|l| of(&l.path.join(".")).map(|v| (l.path, v)))
            .collect()
    })
    .get(path)
    .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every member the form edits has a label and a section, and no label reads as an API
    /// name (no dots, no camelCase).
    #[test]
    fn every_member_has_a_label_that_is_not_an_api_name() {
        for leaf in crate::schema::LEAVES {
            let path = leaf.path.join(".");
            let (_, label) = of(&path).unwrap_or_else(|| panic!("no label for {path}"));
            assert!(!label.contains('.'), "{path}: {label}");
            assert!(
                !label.split_whitespace().any(|w| {
                    let w = w.trim_matches(|c: char| !c.is_alphanumeric());
                    w != "LinkedIn"
                        && w.as_bytes()
                            .windows(2)
                            .any(|p| p[0].is_ascii_lowercase() && p[1].is_ascii_uppercase())
                }),
                "{path}: {label} reads as camelCase"
            );
        }
        let mut seen = std::collections::HashSet::new();
        for (p, ..) in LABELS {
            assert!(seen.insert(*p), "{p} twice");
        }
    }
}
