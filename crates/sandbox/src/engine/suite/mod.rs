//! Engine tests over the hand-made dataset of [`super::testdata`]: every filter member
//! filters, lookalike ranking, paging, autocompletes; and a few over the embedded dataset.

use serde_json::{Value, json};

use crate::dataset::load::Db;
use prospect_api::types::autocomplete::{
    AutocompleteCompaniesRequest, AutocompleteJobTitlesRequest, AutocompleteKeywordsRequest,
    AutocompleteLocationsRequest, AutocompleteSkillsRequest,
};
use prospect_api::types::common::{Department, Relevance, Seniority};
use prospect_api::types::company::DomainStatus;
use prospect_api::types::person::Person;
use prospect_api::types::search::{
    SearchCompaniesV2Request, SearchCompaniesV3Request, SearchPeoplePreviewRequest,
    SearchPeopleV2Request, SearchPeopleV3Request,
};

use super::records;
use super::testdata;

fn v2(db: &Db, body: Value) -> (Vec<String>, usize) {
    let req: SearchCompaniesV2Request = serde_json::from_value(body).unwrap();
    let r = db.search_companies_v2(&req).unwrap();
    split(r.companies.iter().map(|c| c.company.domain.clone()))
}

fn v3(db: &Db, body: Value) -> (Vec<String>, usize) {
    let req: SearchCompaniesV3Request = serde_json::from_value(body).unwrap();
    let r = db.search_companies_v3(&req).unwrap();
    split(r.companies.iter().map(|c| c.company.domain.clone()))
}

/// (named domains sorted, number of filler companies).
fn split(domains: impl Iterator<Item = String>) -> (Vec<String>, usize) {
    let (fillers, mut named): (Vec<String>, Vec<String>) =
        domains.partition(|d| d.starts_with("filler"));
    named.sort();
    (named, fillers.len())
}

fn set(v: &[&str], fillers: usize) -> (Vec<String>, usize) {
    let mut n: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    n.sort();
    (n, fillers)
}

const NAMED: [&str; 5] = [
    "acme.io",
    "autowerk.de",
    "bakery.fr",
    "payfast.co.uk",
    "paycorp.com",
];

#[test]
fn every_v2_company_filter_member_filters() {
    let db = testdata::db();
    let cases: Vec<(Value, (Vec<String>, usize))> = vec![
        (json!({}), set(&NAMED, 20)),
        (
            json!({"includeDomains": ["acme.io", "paycorp.com", "nope.io"]}),
            set(&["acme.io", "paycorp.com"], 0),
        ),
        (
            json!({"excludeDomains": ["acme.io", "filler00.com"]}),
            set(&NAMED[1..], 19),
        ),
        (json!({"companySizes": ["2-10"]}), set(&["bakery.fr"], 1)),
        (json!({"ecommerce": true}), set(&["acme.io"], 0)),
        (
            json!({"yearFounded": {"from": 2000, "to": 2012}}),
            set(&["paycorp.com"], 0),
        ),
        (
            json!({"countriesCount": {"from": 2}}),
            set(&["paycorp.com"], 0),
        ),
        (json!({"revenues": [">1000M"]}), set(&["autowerk.de"], 0)),
        (
            json!({"employeeCountService": {"from": 10000}}),
            set(&["autowerk.de"], 0),
        ),
        (
            json!({"employeeCountLinkedin": {"from": 100}}),
            set(&["acme.io"], 0),
        ),
        (json!({"mobileApps": {"from": 1}}), set(&["acme.io"], 0)),
        (
            json!({"mobileAppsFilter": {"count": {"from": 1}, "downloads": {"from": 0}}}),
            set(&["acme.io"], 0),
        ),
        (
            json!({"locationsCount": {"from": 2}}),
            set(&["paycorp.com"], 0),
        ),
        (
            json!({"departmentSizes": [{"department": "Engineering", "from": 60}]}),
            set(&["acme.io"], 0),
        ),
        (
            json!({"industries": {"industries": ["Software Development"], "mode": "anyOf"}}),
            set(&["acme.io", "paycorp.com", "payfast.co.uk"], 0),
        ),
        (
            json!({"industries": {"industries": ["software development", "Financial Services"], "mode": "allOf"}}),
            set(&["paycorp.com"], 0),
        ),
        (
            json!({"industries": {"industries": ["Unknown Industry"]}}),
            set(&[], 0),
        ),
        (json!({"excludeIndustries": ["Retail"]}), set(&NAMED, 0)),
        (
            json!({"industryCategories": {"industryCategories": ["Manufacturing"]}}),
            set(&["autowerk.de", "bakery.fr"], 0),
        ),
        (
            json!({"excludeIndustryCategories": ["Manufacturing", "Retail"]}),
            set(&["acme.io", "paycorp.com", "payfast.co.uk"], 0),
        ),
        (
            json!({"linkedinIndustries": ["Computer Software"]}),
            set(&["acme.io"], 0),
        ),
        (
            json!({"excludeLinkedinIndustries": ["Computer Software"]}),
            set(&NAMED[1..], 20),
        ),
        (
            json!({"fundingRound": {"types": ["Series A"]}}),
            set(&["acme.io"], 0),
        ),
        (
            json!({"fundingRound": {"date": {"from": "2023-01-01"}}}),
            set(&[], 0),
        ),
        (
            json!({"fundingRound": {"raised": {"from": 10000000}}}),
            set(&["acme.io"], 0),
        ),
        (
            json!({"countries": ["gb"]}),
            set(&["paycorp.com", "payfast.co.uk"], 0),
        ),
        (
            json!({"primaryCountries": ["gb"]}),
            set(&["payfast.co.uk"], 0),
        ),
        (
            json!({"states": [{"abbreviation": "NY", "country": "us"}]}),
            set(&["paycorp.com"], 0),
        ),
        (
            json!({"primaryStates": [{"abbreviation": "CA", "country": "us"}]}),
            set(&["acme.io"], 0),
        ),
        (
            json!({"cities": [{"city": "paris"}]}),
            set(&["bakery.fr"], 0),
        ),
        (
            json!({"primaryCities": [{"city": "Berlin", "country": "de"}]}),
            set(&["autowerk.de"], 0),
        ),
        (
            json!({"cities": [{"city": "San Francisco", "postalCode": "94105"}]}),
            set(&["acme.io"], 0),
        ),
        (
            json!({"headquarterGeolocation": {"latitude": 48.85, "longitude": 2.35, "radius": 10000}}),
            set(&["bakery.fr"], 0),
        ),
        (
            json!({"geolocation": {"latitude": 51.5, "longitude": -0.12, "radius": 500000}}),
            set(&["bakery.fr", "payfast.co.uk"], 0),
        ),
        (
            json!({"webTrafficVisits": {"from": 2000}}),
            set(&["acme.io"], 0),
        ),
        (
            json!({"keywords": {"keywords": ["fintech"], "mode": "anyOf"}}),
            set(&["paycorp.com", "payfast.co.uk"], 0),
        ),
        (
            json!({"keywords": {"keywords": ["payments", "saas"], "mode": "allOf"}}),
            set(&["acme.io"], 0),
        ),
        (
            json!({"keywords": {"keywords": ["shop"], "mode": "noneOf"}}),
            set(&NAMED, 0),
        ),
        (json!({"fieldsExist": ["legalName"]}), set(&["acme.io"], 0)),
        (
            json!({"fieldsExist": ["impressum"]}),
            set(&["autowerk.de"], 0),
        ),
        (
            json!({"fieldsNotExist": ["yearFounded"]}),
            set(&["bakery.fr", "payfast.co.uk"], 20),
        ),
        (
            json!({"socialMedias": {"medias": ["xing"], "mode": "anyOf"}}),
            set(&["autowerk.de"], 0),
        ),
        (
            json!({"socialMedias": {"medias": ["linkedin", "x"], "mode": "allOf"}}),
            set(&["acme.io"], 0),
        ),
        (
            json!({"technologies": {"technologies": ["Stripe"]}}),
            set(&["acme.io", "payfast.co.uk"], 0),
        ),
        (
            json!({"technologies": {"technologies": ["React", "Stripe"], "mode": "allOf"}}),
            set(&["acme.io"], 0),
        ),
    ];
    for (filters, want) in cases {
        let got = v2(
            &db,
            json!({"size": 100, "companiesFilters": filters.clone()}),
        );
        assert_eq!(got, want, "v2 companiesFilters {filters}");
    }
}

#[test]
fn every_v3_company_filter_member_filters() {
    let db = testdata::db();
    let cases: Vec<(Value, (Vec<String>, usize))> = vec![
        (
            json!({"primaryLocations": {"includeCountries": ["us"]}}),
            set(&["acme.io", "paycorp.com"], 0),
        ),
        (
            json!({"primaryLocations": {"excludeCountries": ["ca"]}}),
            set(&NAMED, 0),
        ),
        (
            json!({"otherLocations": {"includeCountries": ["gb"]}}),
            set(&["paycorp.com"], 0),
        ),
        (
            json!({"primaryLocations": {"includeRegions": [{"abbreviation": "CA", "country": "us"}]}}),
            set(&["acme.io"], 0),
        ),
        (
            json!({"primaryLocations": {"excludeRegions": [{"abbreviation": "CA", "country": "us"}], "includeCountries": ["us"]}}),
            set(&["paycorp.com"], 0),
        ),
        (
            json!({"primaryLocations": {"includeCities": [{"city": "London"}]}}),
            set(&["payfast.co.uk"], 0),
        ),
        (
            json!({"primaryLocations": {"excludeCities": [{"city": "London"}], "includeCountries": ["gb"]}}),
            set(&[], 0),
        ),
        (
            json!({"primaryLocations": {"geolocation": {"latitude": 52.52, "longitude": 13.40, "radius": 1000}}}),
            set(&["autowerk.de"], 0),
        ),
        (
            json!({"webTraffic": {"views": {"from": 10000}}}),
            set(&["acme.io"], 0),
        ),
        (
            json!({"webTraffic": {"visits": {"to": 1000}}}),
            set(&NAMED[1..], 20),
        ),
        (
            json!({"socialMedias": {"medias": {"noneOf": ["linkedin"]}, "minCount": 1}}),
            set(&["autowerk.de"], 0),
        ),
        (
            json!({"socialMedias": {"medias": {"anyOf": ["x", "xing"]}}}),
            set(&["acme.io", "autowerk.de"], 0),
        ),
        (
            json!({"technologies": {"apps": {"allOf": ["React"]}, "categories": {"anyOf": ["Payment processors"]}}}),
            set(&["acme.io"], 0),
        ),
        (
            json!({"technologies": {"apps": {"noneOf": ["React"]}, "categories": {"anyOf": ["Payment processors"]}}}),
            set(&["payfast.co.uk"], 0),
        ),
        (
            json!({"keywords": {"noneOf": ["shop", "payments"]}}),
            set(&["autowerk.de", "bakery.fr"], 0),
        ),
        (
            json!({"keywords": {"anyOf": ["bread"], "allOf": ["pastry"]}}),
            set(&["bakery.fr"], 0),
        ),
        (
            json!({"headcountGrowth": {"asPercentage": true, "growthRange": {"from": 0.04}, "months": "Three months"}}),
            set(&["acme.io"], 0),
        ),
        (
            json!({"headcountGrowth": {"asPercentage": false, "growthRange": {"from": 5}, "months": "Twelve months"}}),
            set(&["acme.io", "paycorp.com"], 0),
        ),
        (
            json!({"departmentHeadcountGrowth": {"anyOf": [{"department": "Engineering", "asPercentage": true, "growthRange": {"from": 0.1}, "months": "Twelve months"}]}}),
            set(&["acme.io"], 0),
        ),
        (
            json!({"departmentHeadcountGrowth": {"allOf": [{"department": "Legal", "asPercentage": true, "growthRange": {"from": -1.0}, "months": "Six months"}]}}),
            set(&[], 0),
        ),
        (
            json!({"mobileAppsFilter": {"releaseYear": {"from": 2000, "to": 2100}}}),
            set(&["acme.io"], 0),
        ),
        (json!({"fundingRound": {"types": ["Seed"]}}), set(&[], 0)),
        (
            json!({"companySizes": ["10001-50000"], "revenues": [">1000M"]}),
            set(&["autowerk.de"], 0),
        ),
    ];
    for (filters, want) in cases {
        let got = v3(
            &db,
            json!({"size": 100, "companiesFilters": filters.clone()}),
        );
        assert_eq!(got, want, "v3 companiesFilters {filters}");
    }
    // updatedWithinMonths keeps exactly the recently updated companies.
    let recent = db.cols.iter().filter(|c| c.updated_ago < 3).count();
    let req: SearchCompaniesV3Request = serde_json::from_value(
        json!({"size": 100, "companiesFilters": {"updatedWithinMonths": 3}}),
    )
    .unwrap();
    assert_eq!(
        db.search_companies_v3(&req).unwrap().companies.len(),
        recent
    );
    assert!(recent < 25);
}

#[test]
fn company_search_with_people_filters() {
    let db = testdata::db();
    assert_eq!(
        v2(&db, json!({"peopleFilters": {"countries": ["fr"]}})),
        set(&["bakery.fr"], 0)
    );
    assert_eq!(
        v3(
            &db,
            json!({"peopleFilters": {"cities": [{"city": "Berlin"}]}})
        ),
        set(&["autowerk.de"], 0)
    );
}

mod more;
mod people;
