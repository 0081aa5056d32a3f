use super::*;
use crate::types::common::Seniority;
use crate::types::filters_v2::tests::round_trip;
use serde_json::json;

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

    let j = format!(r#"{{"size":10,"from":10,"searchAfter":"{after}","fields":{COMPANY_FIELDS}}}"#);
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
    assert!(serde_json::from_str::<SearchPeopleV2Request>(r#"{"jobTitleThreshold":0.5}"#).is_err());
    assert!(
        serde_json::from_str::<SearchPeopleV3Request>(r#"{"onePersonPerDomain":true}"#).is_err()
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
        serde_json::from_str::<SearchPeopleV2Request>(r#"{"peopleFilters":{"foo":1}}"#).is_err()
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
    let r: SearchPeoplePreviewRequest = serde_json::from_str(
        r#"{"peopleFilters":{"seniorities":["Wizard"]},"companiesFilters":{"maxRelevance":"Z"}}"#,
    )
    .unwrap();
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
