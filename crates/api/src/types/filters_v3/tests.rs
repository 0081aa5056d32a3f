use super::*;
use crate::types::common::FilterMode;
use crate::types::filters_v2::tests::round_trip;

/// Every member example of openapi `CompaniesFiltersV3` (first example of each member;
/// note openapi's snake_case keys in `socialMedias`, `technologies`, `keywords`).
pub(crate) const COMPANIES_V3_EXAMPLE: &str = r#"{"lookalikeDomains":["bestcustomer.com","idealcustomer.com"],"includeDomains":["interesting.com","amazing.com"],"excludeDomains":["boring.com","useless.com"],"companySizes":["2-10","51-200","100001-500000"],"ecommerce":true,"yearFounded":{"from":1960,"to":1990},"countriesCount":{"from":1,"to":5},"revenues":["0-1M","1-10M",">1000M"],"employeeCountService":{"from":10,"to":100},"mobileApps":{"from":1,"to":5},"mobileAppsFilter":{"count":{"from":1,"to":5}},"locationsCount":{"from":5,"to":10},"departmentSizes":[{"department":"Accounting and Finance","from":5,"to":10}],"employeeCountLinkedin":{"from":50,"to":100},"industries":{"industries":["Advertising Platforms","Biopharma"],"mode":"anyOf"},"excludeIndustries":["CRM","B2B"],"industryCategories":{"industryCategories":["Real Estate","Hardware"],"mode":"anyOf"},"excludeIndustryCategories":["Information Technology","Privacy and Security"],"linkedinIndustries":["Management Consulting","Computer Software"],"excludeLinkedinIndustries":["Management Consulting","Computer Software"],"fundingRound":{"date":{"from":"2020-01-01","to":"2023-01-01"},"raised":{"from":1000000,"to":5000000},"types":["Seed","Series A"]},"webTraffic":{"views":{"from":1000,"to":1000000},"visits":{"from":1000,"to":10000}},"socialMedias":{"medias":{"all_of":["facebook","x"],"any_of":["youtube","xing"],"none_of":["instagram","tiktok"]},"min_count":3},"technologies":{"apps":{"all_of":["Amazon Advertising","Google Maps"],"any_of":["BrightEdge","Nette Framework"],"none_of":["Kount","Nativo"]},"categories":{"all_of":["Analytics","Security"],"any_of":["Advertising","WordPress themes"],"none_of":["CMS","Reviews"]}},"keywords":{"all_of":["lead generation","marketing"],"any_of":["smart prospecting","data platform"],"none_of":["seo"]},"minRelevance":"B","maxRelevance":"B","headcountGrowth":{"asPercentage":false,"growthRange":{"from":-1.0,"to":3.0},"months":"Three months"},"departmentHeadcountGrowth":{"anyOf":[{"asPercentage":false,"department":"Accounting and Finance","growthRange":{"from":-1.0,"to":3.0},"months":"Three months"}]},"updatedWithinMonths":1,"fieldsExist":["industries","emails","locations"],"fieldsNotExist":["industryCategories","phones"],"companyMatchingMode":"precise"}"#;

/// Every member example of openapi `PeopleFiltersV3`.
pub(crate) const PEOPLE_V3_EXAMPLE: &str = r#"{"lookalikeLinkedinHandles":["michael-scott-13532","dwight-schrute"],"countries":["us","dk"],"includePeopleIds":["43g19df9c1d70f9a","54hb1b1bfb1ffc5t"],"includeLinkedinHandles":["jim-halpert-5343","toby-67832"],"excludePeopleIds":["43g19df9c1d70f9a","54hb1b1bfb1ffc5t"],"excludeLinkedinHandles":["jim-halpert-5343","toby-67832"],"seniorities":["Founder","Owner"],"regions":["CA","TX"],"states":[{"abbreviation":"NY","country":"us"},{"abbreviation":"ENG","country":"gb"},{"abbreviation":"5","country":"at"},{"abbreviation":"SH","country":"de"}],"excludeStates":[{"abbreviation":"NY","country":"us"},{"abbreviation":"ENG","country":"gb"},{"abbreviation":"5","country":"at"},{"abbreviation":"SH","country":"de"}],"excludeCountries":["us","dk"],"cities":[{"city":"New York","country":"us"},{"city":"Los Angeles","country":"us"}],"excludeCities":[{"city":"New York","country":"us"},{"city":"Los Angeles","country":"us"}],"names":["John Doe","Peter Pan"],"departments":["Management","Marketing and Advertising"],"excludeDepartments":["Management","Marketing and Advertising"],"fieldsExist":["name","country","linkedinUrl"],"fieldsNotExist":["firstName","location","jobTitleEnglish"],"changedPositionAfter":"2023-01","changedPositionBefore":"2023-01","updatedWithinMonths":1,"connections":{"from":100,"to":400},"followers":{"from":100,"to":5000},"skills":{"allOf":["Product Management","Entrepreneurship"],"anyOf":["Social Media","Competitive Analysis"],"noneOf":["Writing","Project Management"]},"jobTitleKeywords":{"allOf":["Manager"],"anyOf":["Marketing","designer"],"noneOf":["content"]},"allJobDescriptions":{"allOf":["software engineer"],"anyOf":["software engineer"],"noneOf":["entry-level"]},"currentJobDescription":{"allOf":["software engineer","big tech company"],"anyOf":["software engineer"],"noneOf":["entry-level"]},"profileDescription":{"allOf":["software engineer"],"anyOf":["software engineer"],"noneOf":["entry-level"]}}"#;

#[test]
fn companies_v3_example_deserializes_round_trips_and_is_valid() {
    let f: CompaniesFiltersV3 = round_trip(COMPANIES_V3_EXAMPLE);
    let sm = f.social_medias.as_ref().unwrap();
    assert_eq!(sm.min_count, Some(3));
    assert_eq!(
        sm.medias.as_ref().unwrap().all_of,
        Some(vec![SocialNetwork::Facebook, SocialNetwork::X])
    );
    assert_eq!(f.min_relevance, Some(Relevance::B));
    assert_eq!(f.company_matching_mode, Some(CompanyMatchingMode::Precise));
    assert_eq!(f.industries.as_ref().unwrap().mode, FilterMode::AnyOf);
    assert!(f.validate().is_empty(), "{:?}", f.validate());
    // we send camelCase
    let s = serde_json::to_string(&f).unwrap();
    assert!(s.contains(r#""minCount":3"#) && s.contains(r#""allOf""#) && !s.contains("all_of"));
    for extra in [
        r#"{"ecommerce":false}"#,
        r#"{"updatedWithinMonths":3}"#,
        r#"{"updatedWithinMonths":12}"#,
    ] {
        let f: CompaniesFiltersV3 = round_trip(extra);
        assert!(f.validate().is_empty());
    }
}

#[test]
fn people_v3_example_deserializes_round_trips_and_is_valid() {
    let f: PeopleFiltersV3 = round_trip(PEOPLE_V3_EXAMPLE);
    assert_eq!(
        f.job_title_keywords.as_ref().unwrap().all_of,
        Some(vec!["Manager".to_string()])
    );
    assert!(f.validate().is_empty(), "{:?}", f.validate());
    for extra in [
        r#"{"connections":{"from":500}}"#,
        r#"{"followers":{"from":1000}}"#,
        r#"{"updatedWithinMonths":12}"#,
    ] {
        let f: PeopleFiltersV3 = round_trip(extra);
        assert!(f.validate().is_empty());
    }
}

#[test]
fn sub_filter_examples_deserialize() {
    round_trip::<LocationsFilter>(
        r#"{"includeCountries":["es"],"excludeCountries":["br","de"],"includeRegions":[{"abbreviation":"CA","country":"us"},{"abbreviation":"YT","country":"ca"}],"excludeRegions":[{"abbreviation":"CA","country":"us"},{"abbreviation":"YT","country":"ca"}],"includeCities":[{"city":"New York","country":"us"},{"city":"Los Angeles","country":"us"}],"excludeCities":[{"city":"New York","country":"us"},{"city":"Los Angeles","country":"us"}],"geolocation":{"latitude":38.880817,"longitude":-77.10216,"radius":1000}}"#,
    );
    round_trip::<HeadcountGrowthFilter>(
        r#"{"asPercentage":true,"growthRange":{"from":-1.0,"to":3.0},"months":"Three months"}"#,
    );
    round_trip::<DepartmentGrowthAllAnyFilter>(
        r#"{"anyOf":[{"asPercentage":false,"department":"Accounting and Finance","growthRange":{"from":-1.0,"to":3.0},"months":"Three months"}],"allOf":[{"asPercentage":true,"department":"HR","growthRange":{"from":0.1},"months":"Six months"}]}"#,
    );
    round_trip::<WebTrafficFilter>(
        r#"{"visits":{"from":1000,"to":10000},"views":{"from":1000,"to":1000000}}"#,
    );
    round_trip::<MobileAppsFilter>(
        r#"{"count":{"from":1,"to":5},"downloads":{"from":1000000,"to":5000000},"releaseYear":{"from":2018,"to":2023}}"#,
    );
    round_trip::<PeopleCityFilter>(
        r#"{"city":"Los Angeles","country":"ca","region":{"abbreviation":"CA","country":"us"}}"#,
    );
    // PeopleCityFilter has no postalCode
    assert!(serde_json::from_str::<PeopleCityFilter>(r#"{"city":"x","postalCode":"1"}"#).is_err());
}

#[test]
fn v2_and_v3_blocks_differ_on_the_wire() {
    assert!(serde_json::from_str::<CompaniesFiltersV3>(r#"{"minScore":0.9}"#).is_err());
    assert!(
        serde_json::from_str::<CompaniesFiltersV3>(
            r#"{"keywords":{"keywords":["a"],"mode":"anyOf"}}"#
        )
        .is_err()
    );
    assert!(serde_json::from_str::<PeopleFiltersV3>(r#"{"jobTitles":["CEO"]}"#).is_err());
    assert!(CompaniesFiltersV3::default().is_empty() && PeopleFiltersV3::default().is_empty());
    assert_eq!(
        serde_json::to_string(&PeopleFiltersV3::default()).unwrap(),
        "{}"
    );
}

#[test]
fn limits_are_refused_with_loc_and_type() {
    let f: CompaniesFiltersV3 = serde_json::from_str(
        r#"{"lookalikeDomains":["1","2","3","4","5","6","7","8","9","10","11"],
            "socialMedias":{"medias":{"anyOf":["myspace"]},"minCount":51},
            "minRelevance":"D","updatedWithinMonths":0,
            "headcountGrowth":{"asPercentage":true,"growthRange":{},"months":"Ten months"},
            "departmentHeadcountGrowth":{"allOf":[{"asPercentage":true,"growthRange":{},"months":"Six months","department":"Sorcery"}]},
            "primaryLocations":{"geolocation":{"latitude":0,"longitude":0,"radius":1000001}},
            "companyMatchingMode":"fuzzy"}"#,
    )
    .unwrap();
    let got: Vec<(String, String)> = f
        .validate()
        .into_iter()
        .map(|e| (e.path(), e.kind))
        .collect();
    let want = [
        ("body.companiesFilters.lookalikeDomains", "too_long"),
        (
            "body.companiesFilters.primaryLocations.geolocation.radius",
            "less_than_equal",
        ),
        ("body.companiesFilters.socialMedias.medias.anyOf.0", "enum"),
        (
            "body.companiesFilters.socialMedias.minCount",
            "less_than_equal",
        ),
        ("body.companiesFilters.minRelevance", "enum"),
        ("body.companiesFilters.headcountGrowth.months", "enum"),
        (
            "body.companiesFilters.departmentHeadcountGrowth.allOf.0.department",
            "enum",
        ),
        ("body.companiesFilters.updatedWithinMonths", "greater_than"),
        ("body.companiesFilters.companyMatchingMode", "enum"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(got, want);

    let p: PeopleFiltersV3 = serde_json::from_str(
        r#"{"updatedWithinMonths":61,"excludeDepartments":["Magic"],"cities":[{"city":"x","region":{"country":"","abbreviation":"CA"}}]}"#,
    )
    .unwrap();
    let got: Vec<(String, String)> = p
        .validate()
        .into_iter()
        .map(|e| (e.path(), e.kind))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "body.peopleFilters.cities.0.region.country".to_string(),
                "string_too_short".to_string()
            ),
            (
                "body.peopleFilters.excludeDepartments.0".to_string(),
                "enum".to_string()
            ),
            (
                "body.peopleFilters.updatedWithinMonths".to_string(),
                "less_than_equal".to_string()
            ),
        ]
    );
}
