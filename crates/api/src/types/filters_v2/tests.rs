use super::*;

/// Every member example of openapi `CompaniesFiltersV1` (first example of each member).
pub(crate) const COMPANIES_V1_EXAMPLE: &str = r#"{"lookalikeDomains":["bestcustomer.com","idealcustomer.com"],"includeDomains":["interesting.com","amazing.com"],"excludeDomains":["boring.com","useless.com"],"companySizes":["2-10","51-200","100001-500000"],"ecommerce":true,"yearFounded":{"from":1960,"to":1990},"countriesCount":{"from":1,"to":5},"revenues":["0-1M","1-10M",">1000M"],"employeeCountService":{"from":10,"to":100},"mobileApps":{"from":1,"to":5},"mobileAppsFilter":{"count":{"from":1,"to":5}},"locationsCount":{"from":5,"to":10},"departmentSizes":[{"department":"Accounting and Finance","from":5,"to":10}],"employeeCountLinkedin":{"from":50,"to":100},"industries":{"industries":["Advertising Platforms","Biopharma"],"mode":"anyOf"},"excludeIndustries":["CRM","B2B"],"industryCategories":{"industryCategories":["Real Estate","Hardware"],"mode":"anyOf"},"excludeIndustryCategories":["Information Technology","Privacy and Security"],"linkedinIndustries":["Management Consulting","Computer Software"],"excludeLinkedinIndustries":["Management Consulting","Computer Software"],"fundingRound":{"date":{"from":"2020-01-01","to":"2023-01-01"},"raised":{"from":1000000,"to":5000000},"types":["Seed","Series A"]},"countries":["es","pt"],"primaryCountries":["de"],"states":[{"abbreviation":"CA","country":"us"},{"abbreviation":"YT","country":"ca"}],"primaryStates":[{"abbreviation":"NY","country":"us"}],"cities":[{"city":"New York","country":"us"},{"city":"Los Angeles","country":"us"}],"primaryCities":[{"city":"New York","country":"us"},{"city":"Los Angeles","country":"us"}],"headquarterGeolocation":{"latitude":38.880817,"longitude":-77.10216,"radius":1000},"geolocation":{"latitude":50.83348,"longitude":-0.1410065,"radius":5000},"webTrafficVisits":{"from":1000,"to":10000},"keywords":{"keywords":["premium copy paper","paper"],"mode":"anyOf"},"fieldsExist":["industries","emails","locations"],"fieldsNotExist":["industryCategories","phones"],"socialMedias":{"medias":["linkedin","facebook"],"mode":"anyOf"},"technologies":{"mode":"anyOf","technologies":["Amazon Advertising","Google Maps"]},"minScore":0.95}"#;

/// Every member example of openapi `PeopleFilters`.
pub(crate) const PEOPLE_V1_EXAMPLE: &str = r#"{"includeIds":["51e19df9c1d70c7c","971b1b1bfb1ffb1a"],"excludeIds":["51e19df9c1d70c7c","971b1b1bfb1ffb1a"],"seniorities":["Founder","Owner"],"jobTitles":["CEO","CTO"],"excludeJobTitles":["CEO","CTO"],"departments":["Management","Marketing and Advertising"],"countries":["us","dk"],"states":[{"abbreviation":"NY","country":"us"},{"abbreviation":"ON","country":"ca"},{"abbreviation":"5","country":"at"},{"abbreviation":"SH","country":"de"}],"excludeStates":[{"abbreviation":"NY","country":"us"},{"abbreviation":"ON","country":"ca"},{"abbreviation":"5","country":"at"},{"abbreviation":"SH","country":"de"}],"excludeCountries":["us","dk"],"names":["John Doe","Peter Pan"],"emails":["email_1@domain.com","email_2@domain.com"],"keywords":["engineering","research"],"fieldsExist":["name","country","linkedinUrl"],"fieldsNotExist":["firstName","location","jobTitleEnglish"],"changedPositionAfter":"2023-01","changedPositionBefore":"2023-01"}"#;

/// `json` read as `T`, written and read again: both reads equal. The value read.
pub(crate) fn round_trip<T>(json: &str) -> T
where
    T: serde::de::DeserializeOwned + Serialize + PartialEq + std::fmt::Debug,
{
    let v: T = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    let s = serde_json::to_string(&v).unwrap();
    let back: T = serde_json::from_str(&s).unwrap();
    assert_eq!(v, back, "round trip of {json}");
    v
}

#[test]
fn companies_v2_example_deserializes_round_trips_and_is_valid() {
    let f: CompaniesFiltersV2 = round_trip(COMPANIES_V1_EXAMPLE);
    assert_eq!(f.min_score, Some(0.95));
    assert_eq!(
        f.company_sizes.as_ref().unwrap()[2],
        CompanySize::S100001To500000
    );
    assert_eq!(f.revenues.as_ref().unwrap()[2], Revenue::Over1000M);
    assert_eq!(
        f.funding_round.as_ref().unwrap().types.as_ref().unwrap()[1],
        FundingRoundType::SeriesA
    );
    assert!(!f.is_empty());
    assert!(f.validate().is_empty(), "{:?}", f.validate());
    // the other member example
    let e: CompaniesFiltersV2 = round_trip(r#"{"ecommerce":false}"#);
    assert_eq!(e.ecommerce, Some(false));
}

#[test]
fn people_v2_example_deserializes_round_trips_and_is_valid() {
    let f: PeopleFiltersV2 = round_trip(PEOPLE_V1_EXAMPLE);
    assert_eq!(f.seniorities.as_ref().unwrap()[0], Seniority::Founder);
    assert_eq!(
        f.fields_exist.as_ref().unwrap()[2],
        PersonField::LinkedinUrl
    );
    assert!(f.validate().is_empty(), "{:?}", f.validate());
}

#[test]
fn sub_filter_examples_deserialize() {
    round_trip::<IndustriesFilter>(r#"{"industries":["Digital Agencies","Advertising Services"]}"#);
    round_trip::<FundingRoundFilter>(
        r#"{"raised":{"from":1000000,"to":5000000},"types":["Seed","Series A"],"date":{"from":"2023-01-01","to":"2024-01-01"}}"#,
    );
    round_trip::<StateFilter>(r#"{"country":"ca","abbreviation":"YT"}"#);
    round_trip::<CityFilter>(
        r#"{"city":"Los Angeles","country":"us","postalCode":"90001","region":{"abbreviation":"CA","country":"us"}}"#,
    );
    round_trip::<DepartmentSizeFilter>(
        r#"{"department":"Accounting and Finance","from":5,"to":10}"#,
    );
    round_trip::<GeolocationFilter>(
        r#"{"latitude":38.880817,"longitude":-77.10216,"radius":1000}"#,
    );
    // openapi's `region` example is an array although the schema says one `State`:
    // we follow the schema (as pydantic would).
    assert!(
        serde_json::from_str::<CityFilter>(
            r#"{"city":"New York","region":[{"abbreviation":"CA","country":"us"}]}"#
        )
        .is_err()
    );
}

#[test]
fn default_mode_is_not_serialized_and_empty_block_is_empty() {
    let f = IndustriesFilter {
        industries: vec!["Biopharma".into()],
        mode: FilterMode::AnyOf,
    };
    assert_eq!(
        serde_json::to_string(&f).unwrap(),
        r#"{"industries":["Biopharma"]}"#
    );
    let f = KeywordsFilterV2 {
        keywords: vec!["x".into()],
        mode: FilterMode::NoneOf,
    };
    assert_eq!(
        serde_json::to_string(&f).unwrap(),
        r#"{"keywords":["x"],"mode":"noneOf"}"#
    );
    assert!(CompaniesFiltersV2::default().is_empty());
    assert_eq!(
        serde_json::to_string(&CompaniesFiltersV2::default()).unwrap(),
        "{}"
    );
    assert!(PeopleFiltersV2::default().is_empty());
    let p = PeopleFiltersV2 {
        names: Some(vec![]),
        ..Default::default()
    };
    assert!(!p.is_empty());
}

#[test]
fn unknown_members_are_rejected() {
    assert!(serde_json::from_str::<CompaniesFiltersV2>(r#"{"minRelevance":"A"}"#).is_err());
    assert!(serde_json::from_str::<PeopleFiltersV2>(r#"{"jobTitle":["CEO"]}"#).is_err());
    assert!(serde_json::from_str::<IndustriesFilter>(r#"{"industries":[],"x":1}"#).is_err());
    assert!(
        serde_json::from_str::<StateFilter>(r#"{"country":"us","abbreviation":"CA","name":"x"}"#)
            .is_err()
    );
}

fn loc(e: &ValidationError) -> String {
    e.path()
}

#[test]
fn limits_are_refused_with_loc_and_type() {
    let f = CompaniesFiltersV2 {
        lookalike_domains: Some((0..12).map(|i| format!("d{i}.com")).collect()),
        company_sizes: Some(vec![
            CompanySize::S2To10,
            CompanySize::Unknown("2-9".into()),
        ]),
        min_score: Some(0.0),
        headquarter_geolocation: Some(GeolocationFilter {
            latitude: 91.0,
            longitude: -181.0,
            radius: 0,
        }),
        industries: Some(IndustriesFilter {
            industries: vec![],
            mode: FilterMode::NoneOf,
        }),
        fields_exist: Some(vec![CompanyField::Domain]),
        states: Some(vec![StateFilter {
            country: "us".into(),
            abbreviation: String::new(),
        }]),
        ..Default::default()
    };
    let errs = f.validate();
    let got: Vec<(String, &str)> = errs.iter().map(|e| (loc(e), e.kind.as_str())).collect();
    assert_eq!(
        got,
        vec![
            (
                "body.companiesFilters.lookalikeDomains".to_string(),
                "too_long"
            ),
            ("body.companiesFilters.companySizes.1".to_string(), "enum"),
            ("body.companiesFilters.industries.mode".to_string(), "enum"),
            (
                "body.companiesFilters.states.0.abbreviation".to_string(),
                "string_too_short"
            ),
            (
                "body.companiesFilters.headquarterGeolocation.latitude".to_string(),
                "less_than_equal"
            ),
            (
                "body.companiesFilters.headquarterGeolocation.longitude".to_string(),
                "greater_than_equal"
            ),
            (
                "body.companiesFilters.headquarterGeolocation.radius".to_string(),
                "greater_than_equal"
            ),
            ("body.companiesFilters.fieldsExist.0".to_string(), "enum"),
            ("body.companiesFilters.minScore".to_string(), "greater_than"),
        ]
    );
    assert_eq!(
        errs[0].msg,
        "List should have at most 10 items after validation, not 12"
    );
    assert_eq!(errs[2].msg, "Input should be 'anyOf' or 'allOf'");
    assert_eq!(errs[4].msg, "Input should be less than or equal to 90");
    assert_eq!(errs[8].msg, "Input should be greater than 0");
    assert_eq!(errs[8].ctx, Some(serde_json::json!({"gt": 0})));
    let f = CompaniesFiltersV2 {
        min_score: Some(1.5),
        ..Default::default()
    };
    assert_eq!(f.validate()[0].kind, "less_than_equal");
}

#[test]
fn unknown_people_enum_values_are_refused() {
    let f: PeopleFiltersV2 = serde_json::from_str(
        r#"{"seniorities":["Owner","Chief"],"departments":["Nope"],"fieldsExist":["email"]}"#,
    )
    .unwrap();
    let errs = f.validate();
    assert_eq!(errs.len(), 3);
    assert_eq!(errs[0].path(), "body.peopleFilters.seniorities.1");
    assert_eq!(errs[0].kind, "enum");
    assert_eq!(
        errs[0].msg,
        "Input should be 'Owner', 'Founder', 'Board Member', 'C-Level', 'Partner', 'VP', 'Head', 'Director', 'Manager' or 'Other'"
    );
    assert_eq!(errs[1].path(), "body.peopleFilters.departments.0");
    assert_eq!(errs[2].path(), "body.peopleFilters.fieldsExist.0");
}

#[test]
fn expected_text_follows_pydantic() {
    assert_eq!(wire_checks::expected(&["a"]), "'a'");
    assert_eq!(wire_checks::expected(&["a", "b"]), "'a' or 'b'");
    assert_eq!(wire_checks::expected(&["a", "b", "c"]), "'a', 'b' or 'c'");
}
