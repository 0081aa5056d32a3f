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

fn people_v2(db: &Db, filters: Value) -> Vec<Person> {
    let req: SearchPeopleV2Request =
        serde_json::from_value(json!({"size": 10000, "peopleFilters": filters})).unwrap();
    db.search_people_v2(&req).unwrap().people
}

fn people_v3(db: &Db, body: Value) -> Vec<Person> {
    let mut body = body;
    body["size"] = json!(10000);
    let req: SearchPeopleV3Request = serde_json::from_value(body).unwrap();
    db.search_people_v3(&req)
        .unwrap()
        .people
        .into_iter()
        .map(|p| p.person)
        .collect()
}

#[test]
fn every_people_filter_member_filters() {
    let db = testdata::db();
    let all = people_v2(&db, json!({}));
    assert_eq!(all.len(), db.person_count());
    let a = &all[3];
    let b = &all[40];
    type Check = Box<dyn Fn(&Person) -> bool>;
    let (aid, bid) = (a.id.clone(), b.id.clone());
    let cases: Vec<(Value, Check)> = vec![
        (
            json!({"includeIds": [a.id, b.id]}),
            Box::new(move |p| p.id == aid || p.id == bid),
        ),
        (json!({"excludeIds": [a.id]}), {
            let aid = a.id.clone();
            Box::new(move |p| p.id != aid)
        }),
        (
            json!({"seniorities": ["Founder"]}),
            Box::new(|p| p.seniorities == vec![Seniority::Founder]),
        ),
        (
            json!({"jobTitles": ["engineer"]}),
            Box::new(|p| {
                p.job_title
                    .as_ref()
                    .unwrap()
                    .to_lowercase()
                    .contains("engineer")
            }),
        ),
        (
            json!({"excludeJobTitles": ["engineer"]}),
            Box::new(|p| {
                !p.job_title
                    .as_ref()
                    .unwrap()
                    .to_lowercase()
                    .contains("engineer")
            }),
        ),
        (
            json!({"departments": ["Sales"]}),
            Box::new(|p| p.departments == vec![Department::Sales]),
        ),
        (
            json!({"countries": ["fr"]}),
            Box::new(|p| p.country.as_deref() == Some("fr")),
        ),
        (
            json!({"excludeCountries": ["ca"]}),
            Box::new(|p| p.country.as_deref() != Some("ca")),
        ),
        (
            json!({"states": [{"abbreviation": "NY", "country": "us"}]}),
            Box::new(|p| p.domain == "paycorp.com"),
        ),
        (
            json!({"excludeStates": [{"abbreviation": "CA", "country": "us"}]}),
            Box::new(|p| p.domain != "acme.io"),
        ),
        (json!({"names": [a.name.clone().unwrap()]}), {
            let n = a.name.clone();
            Box::new(move |p| p.name == n)
        }),
        (
            json!({"names": [a.last_name.clone().unwrap().to_uppercase()]}),
            {
                let n = a.last_name.clone();
                Box::new(move |p| p.last_name == n || p.first_name == n)
            },
        ),
        (
            json!({"keywords": ["bread"]}),
            Box::new(|p| p.domain == "bakery.fr"),
        ),
        (
            json!({"changedPositionAfter": "2025-06"}),
            Box::new(|p| p.experiences[0].date_from.as_deref().unwrap() >= "2025-06"),
        ),
        (
            json!({"changedPositionBefore": "2020-01"}),
            Box::new(|p| p.experiences[0].date_from.as_deref().unwrap() < "2020-01"),
        ),
    ];
    for (filters, check) in cases {
        let got = people_v2(&db, filters.clone());
        assert!(!got.is_empty(), "peopleFilters {filters} matched nothing");
        assert!(
            got.len() < all.len(),
            "peopleFilters {filters} did not filter"
        );
        assert!(got.iter().all(&check), "peopleFilters {filters}");
    }
    assert!(people_v2(&db, json!({"fieldsExist": ["photo"]})).is_empty());
    let present = people_v2(
        &db,
        json!({"fieldsNotExist": ["photo"], "fieldsExist": ["linkedinUrl", "seniorities"]}),
    );
    assert_eq!(present.len(), all.len());
    // Emails: the generated address of a person finds that person.
    let email = {
        let pi = db.resolve_person_id(&a.id).unwrap();
        let p = &db.person_rows[pi as usize];
        db.people.email(&db.companies[p.company as usize], p)
    };
    let got = people_v2(&db, json!({"emails": [email]}));
    assert!(got.iter().any(|p| p.id == a.id) && got.len() < 3);
}

#[test]
fn every_v3_people_filter_member_filters() {
    let db = testdata::db();
    let all = people_v3(&db, json!({}));
    assert_eq!(all.len(), db.person_count());
    let a = all[5].clone();
    let handle = a.linkedin_url.clone().unwrap();
    type Check = Box<dyn Fn(&Person) -> bool>;
    let aid = a.id.clone();
    let cases: Vec<(Value, Check)> = vec![
        (
            json!({"includePeopleIds": [a.id]}),
            Box::new(move |p| p.id == aid),
        ),
        (json!({"includeLinkedinHandles": [handle]}), {
            let aid = a.id.clone();
            Box::new(move |p| p.id == aid)
        }),
        (json!({"excludePeopleIds": [a.id]}), {
            let aid = a.id.clone();
            Box::new(move |p| p.id != aid)
        }),
        (json!({"excludeLinkedinHandles": [handle]}), {
            let aid = a.id.clone();
            Box::new(move |p| p.id != aid)
        }),
        (
            json!({"skills": {"anyOf": ["python"]}}),
            Box::new(|p| p.skills.iter().any(|s| s == "Python")),
        ),
        (
            json!({"skills": {"noneOf": ["python", "sql"]}}),
            Box::new(|p| !p.skills.iter().any(|s| s == "Python" || s == "SQL")),
        ),
        (
            json!({"skills": {"allOf": ["python", "sql"]}}),
            Box::new(|p| {
                p.skills.iter().any(|s| s == "Python") && p.skills.iter().any(|s| s == "SQL")
            }),
        ),
        (
            json!({"jobTitleKeywords": {"anyOf": ["enginer"]}}),
            Box::new(|p| p.job_title.as_ref().unwrap().contains("Engineer")),
        ),
        (
            json!({"jobTitleKeywords": {"allOf": ["software", "senior"]}}),
            Box::new(|p| p.job_title.as_deref() == Some("Senior Software Engineer")),
        ),
        (
            json!({"jobTitleKeywords": {"noneOf": ["engineer"]}}),
            Box::new(|p| !p.job_title.as_ref().unwrap().contains("Engineer")),
        ),
        (
            json!({"currentJobDescription": {"anyOf": ["at acme"]}}),
            Box::new(|p| p.domain == "acme.io"),
        ),
        (
            json!({"allJobDescriptions": {"anyOf": ["la boulangerie"]}}),
            Box::new(|p| {
                p.experiences
                    .iter()
                    .any(|e| e.description.as_ref().unwrap().contains("La Boulangerie"))
            }),
        ),
        (
            json!({"profileDescription": {"allOf": ["skilled in"], "noneOf": ["python"]}}),
            Box::new(|p| !p.summary.as_ref().unwrap().contains("Python")),
        ),
        (
            json!({"regions": ["NY"]}),
            Box::new(|p| p.domain == "paycorp.com"),
        ),
        (
            json!({"cities": [{"city": "Paris", "country": "fr"}]}),
            Box::new(|p| p.domain == "bakery.fr"),
        ),
        (
            json!({"excludeCities": [{"city": "Paris"}]}),
            Box::new(|p| p.domain != "bakery.fr"),
        ),
        (
            json!({"departments": ["Engineering"], "excludeDepartments": ["Engineering"]}),
            Box::new(|_| false),
        ),
        (
            json!({"excludeDepartments": ["Engineering"]}),
            Box::new(|p| p.departments != vec![Department::Engineering]),
        ),
        (
            json!({"connections": {"from": 2000}}),
            Box::new(|p| p.connections_count.unwrap() >= 2000),
        ),
        (
            json!({"followers": {"to": 100}}),
            Box::new(|p| p.followers_count.unwrap() <= 100),
        ),
        (
            json!({"updatedWithinMonths": 2}),
            Box::new(|p| p.updated_at.as_deref().unwrap() >= "2026-09"),
        ),
        (
            json!({"seniorities": ["C-Level"], "countries": ["de"]}),
            Box::new(|p| p.domain == "autowerk.de"),
        ),
    ];
    for (filters, check) in cases {
        let got = people_v3(&db, json!({"peopleFilters": filters.clone()}));
        if filters.get("excludeDepartments").is_some() && filters.get("departments").is_some() {
            assert!(got.is_empty());
            continue;
        }
        assert!(
            !got.is_empty(),
            "v3 peopleFilters {filters} matched nothing"
        );
        assert!(
            got.len() < all.len(),
            "v3 peopleFilters {filters} did not filter"
        );
        assert!(got.iter().all(&check), "v3 peopleFilters {filters}");
    }
}

#[test]
fn people_per_company_and_one_per_domain() {
    let db = testdata::db();
    let req: SearchPeopleV2Request =
        serde_json::from_value(json!({"size": 1000, "onePersonPerDomain": true})).unwrap();
    let r = db.search_people_v2(&req).unwrap();
    assert_eq!(r.people.len(), 25);
    let req: SearchPeopleV3Request =
        serde_json::from_value(json!({"size": 1000, "peoplePerCompany": 2})).unwrap();
    assert_eq!(db.search_people_v3(&req).unwrap().people.len(), 50);
}

#[test]
fn lookalike_ranks_similar_companies_first() {
    let db = testdata::db();
    let req: SearchCompaniesV2Request = serde_json::from_value(json!({
        "size": 100,
        "companiesFilters": {"lookalikeDomains": ["acme.io", "unknown-startup.io", "not a domain"], "minScore": 0.01}
    }))
    .unwrap();
    let r = db.search_companies_v2(&req).unwrap();
    let domains: Vec<&str> = r
        .companies
        .iter()
        .map(|c| c.company.domain.as_str())
        .collect();
    assert!(!domains.contains(&"acme.io"), "targets are not results");
    let pos = |d: &str| domains.iter().position(|x| *x == d).unwrap();
    assert!(pos("paycorp.com") < pos("bakery.fr"));
    assert!(
        !domains.contains(&"autowerk.de"),
        "nothing in common: score 0 < minScore"
    );
    assert!(pos("payfast.co.uk") < pos("filler00.com"));
    let scores: Vec<f64> = r.companies.iter().map(|c| c.score.unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]));
    assert!(scores.iter().all(|s| (0.0..=1.0).contains(s)));
    let missing = r.missing_domains.unwrap();
    assert_eq!(
        missing["unknown-startup.io"],
        DomainStatus::DataGatheringStarted
    );
    assert_eq!(missing["not a domain"], DomainStatus::BadContent);
    // The default minScore (0.79) keeps only close matches.
    let req: SearchCompaniesV2Request = serde_json::from_value(json!({
        "companiesFilters": {"lookalikeDomains": ["acme.io"]}
    }))
    .unwrap();
    let strict = db.search_companies_v2(&req).unwrap();
    assert!(strict.companies.len() < r.companies.len());
    assert!(strict.companies.iter().all(|c| c.score.unwrap() >= 0.79));
    // v3: relevance bands, and minRelevance/maxRelevance.
    let v3req = |extra: Value| -> SearchCompaniesV3Request {
        let mut f = json!({"lookalikeDomains": ["paycorp.com"], "companyMatchingMode": "broad"});
        for (k, v) in extra.as_object().unwrap() {
            f[k] = v.clone();
        }
        serde_json::from_value(json!({"size": 100, "companiesFilters": f})).unwrap()
    };
    let r3 = db.search_companies_v3(&v3req(json!({}))).unwrap();
    assert_eq!(r3.companies[0].company.domain, "acme.io");
    assert_eq!(r3.companies[0].relevance, Some(Relevance::A));
    let bands: Vec<u8> = r3
        .companies
        .iter()
        .map(|c| super::lookalike::band_rank(c.relevance.as_ref().unwrap()))
        .collect();
    assert!(bands.windows(2).all(|w| w[0] <= w[1]));
    let only_a = db
        .search_companies_v3(&v3req(json!({"minRelevance": "A"})))
        .unwrap();
    assert!(!only_a.companies.is_empty());
    assert!(
        only_a
            .companies
            .iter()
            .all(|c| c.relevance == Some(Relevance::A))
    );
    assert!(only_a.companies.len() < r3.companies.len());
    let no_a = db
        .search_companies_v3(&v3req(json!({"maxRelevance": "B"})))
        .unwrap();
    assert!(!no_a.companies.is_empty());
    assert!(
        no_a.companies
            .iter()
            .all(|c| c.relevance != Some(Relevance::A))
    );
    // Only unknown domains: nothing to rank against, no result.
    let req: SearchCompaniesV3Request = serde_json::from_value(json!({
        "companiesFilters": {"lookalikeDomains": ["unknown-startup.io"]}
    }))
    .unwrap();
    let none = db.search_companies_v3(&req).unwrap();
    assert!(none.companies.is_empty());
    assert_eq!(none.missing_domains.unwrap().len(), 1);
}

#[test]
fn lookalike_people_rank_and_report_statuses() {
    let db = testdata::db();
    let acme = testdata::idx(&db, "acme.io");
    let target = records::person(&db, db.cols[acme as usize].people.0 + 2);
    let req: SearchPeopleV3Request = serde_json::from_value(json!({
        "size": 20,
        "peopleFilters": {"lookalikeLinkedinHandles": [target.linkedin_url, "nobody-12345678"]},
        "companiesFilters": {"companyMatchingMode": "broad"}
    }))
    .unwrap();
    let r = db.search_people_v3(&req).unwrap();
    let st = r.lookalike_people_statuses.unwrap();
    assert_eq!(st.successful_people.len(), 1);
    assert_eq!(st.not_found_people, vec!["nobody-12345678".to_string()]);
    assert!(!r.people.is_empty());
    assert!(
        r.people
            .iter()
            .all(|p| p.person.id != target.id && p.relevance.is_some())
    );
    assert_eq!(r.people[0].person.departments, target.departments);
}

#[test]
fn paging_by_cursor_and_from_agree_over_three_pages() {
    let db = testdata::db();
    // v2 companies: from vs searchAfter.
    let mut by_from = Vec::new();
    for page in 0..3 {
        let req: SearchCompaniesV2Request =
            serde_json::from_value(json!({"size": 8, "from": 1 + page * 8})).unwrap();
        let r = db.search_companies_v2(&req).unwrap();
        assert_eq!(r.total, Some(25));
        by_from.extend(r.companies.into_iter().map(|c| c.company.domain));
    }
    let mut by_cursor = Vec::new();
    let mut after: Option<String> = None;
    for _ in 0..3 {
        let req: SearchCompaniesV2Request =
            serde_json::from_value(json!({"size": 8, "searchAfter": after})).unwrap();
        let r = db.search_companies_v2(&req).unwrap();
        by_cursor.extend(r.companies.into_iter().map(|c| c.company.domain));
        after = r.search_after;
    }
    assert_eq!(by_from.len(), 24);
    assert_eq!(by_from, by_cursor);
    let mut dedup = by_from.clone();
    dedup.sort();
    dedup.dedup();
    assert_eq!(dedup.len(), 24, "no repeats");
    // The fourth page holds the last company and no cursor.
    let req: SearchCompaniesV2Request =
        serde_json::from_value(json!({"size": 8, "searchAfter": after})).unwrap();
    let last = db.search_companies_v2(&req).unwrap();
    assert_eq!(last.companies.len(), 1);
    assert!(last.search_after.is_none());

    // v3 people with a lookalike ranking: three pages by cursor equal one big page.
    let body = |size: usize, after: Option<String>| -> SearchPeopleV3Request {
        serde_json::from_value(json!({
            "size": size, "searchAfter": after,
            "companiesFilters": {"lookalikeDomains": ["acme.io"], "companyMatchingMode": "broad"}
        }))
        .unwrap()
    };
    let whole: Vec<String> = db
        .search_people_v3(&body(30, None))
        .unwrap()
        .people
        .into_iter()
        .map(|p| p.person.id)
        .collect();
    let mut pages = Vec::new();
    let mut after = None;
    for _ in 0..3 {
        let r = db.search_people_v3(&body(10, after.clone())).unwrap();
        pages.extend(r.people.into_iter().map(|p| p.person.id));
        after = r.search_after;
    }
    assert_eq!(pages, whole);
    // Preview ranks continue across pages.
    let preq: SearchPeoplePreviewRequest = serde_json::from_value(json!({"size": 5})).unwrap();
    let p1 = db.search_people_preview(&preq).unwrap();
    assert_eq!(
        p1.people.iter().map(|p| p.ranking).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5]
    );
    // A bad cursor is a validation error, not a panic.
    let bad: SearchCompaniesV3Request =
        serde_json::from_value(json!({"searchAfter": "definitely-not-a-cursor"})).unwrap();
    let err = db.search_companies_v3(&bad).unwrap_err();
    assert_eq!(err[0].path(), "body.searchAfter");
    let people_cursor = db
        .search_people_v3(&body(1, None))
        .unwrap()
        .search_after
        .unwrap();
    // The vendor's cursors carry no kind: a people cursor given to a company search names no
    // company, so it reads as a position after the companies of its rank; no error, no panic.
    let wrong_kind: SearchCompaniesV3Request =
        serde_json::from_value(json!({"searchAfter": people_cursor})).unwrap();
    assert!(db.search_companies_v3(&wrong_kind).is_ok());
    // openapi.json's own example cursors read.
    let vendor: SearchCompaniesV3Request = serde_json::from_value(
        json!({"searchAfter": "NoBgdA7BAsBMEgGwBoAEAiADgGwK4HN8BTAJwC8wBjAewFt0BdIA"}),
    )
    .unwrap();
    assert!(db.search_companies_v3(&vendor).is_ok());
    let vendor: SearchPeopleV3Request =
        serde_json::from_value(json!({"searchAfter": "N4IglgdgJgpgHiAXAVgL5A", "size": 3}))
            .unwrap();
    let from_index = db.search_people_v3(&vendor).unwrap();
    let from_6th = db
        .search_people_v3(&serde_json::from_value(json!({"size": 8})).unwrap())
        .unwrap();
    assert_eq!(
        from_index
            .people
            .iter()
            .map(|p| p.person.id.clone())
            .collect::<Vec<_>>(),
        from_6th.people[5..8]
            .iter()
            .map(|p| p.person.id.clone())
            .collect::<Vec<_>>(),
        "{{\"index\":5}} starts at the 6th result"
    );
}

#[test]
fn autocompletes_by_prefix_and_approximately() {
    let db = testdata::db();
    let ac = |name: &str, countries: Option<Vec<&str>>| -> Vec<String> {
        let req: AutocompleteCompaniesRequest = serde_json::from_value(json!({
            "name": name, "countryFilters": countries
        }))
        .unwrap();
        db.autocomplete_companies(&req)
            .companies
            .into_iter()
            .map(|c| c.domain)
            .collect()
    };
    assert_eq!(ac("acm", None)[0], "acme.io");
    assert_eq!(ac("paycrop", None)[0], "paycorp.com");
    assert_eq!(ac("boulang", None)[0], "bakery.fr");
    assert_eq!(
        ac("pay", Some(vec!["gb"])),
        vec!["paycorp.com".to_string(), "payfast.co.uk".to_string()]
    );
    assert_eq!(ac("pay", Some(vec!["fr"])), Vec::<String>::new());
    let kw: AutocompleteKeywordsRequest = serde_json::from_value(json!({"query": "fin"})).unwrap();
    assert_eq!(
        db.autocomplete_keywords(&kw).keywords,
        vec!["fintech".to_string()]
    );
    let kw: AutocompleteKeywordsRequest =
        serde_json::from_value(json!({"query": "paymnts"})).unwrap();
    assert_eq!(
        db.autocomplete_keywords(&kw).keywords,
        vec!["payments".to_string()]
    );
    let jt: AutocompleteJobTitlesRequest =
        serde_json::from_value(json!({"query": "software", "limit": 2})).unwrap();
    assert_eq!(
        db.autocomplete_job_titles(&jt).job_titles,
        vec![
            "Software Engineer".to_string(),
            "Senior Software Engineer".to_string()
        ]
    );
    let loc: AutocompleteLocationsRequest =
        serde_json::from_value(json!({"query": "calif"})).unwrap();
    let l = db.autocomplete_locations(&loc).locations;
    assert_eq!(
        (
            l[0].name.as_str(),
            l[0].filter_code.as_str(),
            l[0].country_code.as_str()
        ),
        ("California", "CA", "us")
    );
    let loc: AutocompleteLocationsRequest =
        serde_json::from_value(json!({"query": "berl"})).unwrap();
    assert_eq!(
        db.autocomplete_locations(&loc).locations[0].parent_name,
        "Germany"
    );
    let sk: AutocompleteSkillsRequest = serde_json::from_value(json!({"query": "pyt"})).unwrap();
    assert_eq!(
        db.autocomplete_skills(&sk).skills,
        vec!["Python".to_string()]
    );
}

#[test]
fn records_are_complete_and_safe() {
    let db = testdata::db();
    let c = records::company(&db, testdata::idx(&db, "acme.io"));
    assert_eq!(
        c.company_size.as_ref().map(|s| s.to_string()).as_deref(),
        Some("51-200")
    );
    assert_eq!(
        c.revenue.as_ref().map(|s| s.to_string()).as_deref(),
        Some("10-50M")
    );
    assert_eq!(c.locations[0].region_code.as_deref(), Some("US-CA"));
    assert!(c.medias.as_ref().unwrap().twitter.is_some());
    assert!(c.funding_round.is_some() && c.headcount_growth.is_some());
    assert_eq!(c.headcount_growth_per_department.len(), 2);
    let json = serde_json::to_value(&c).unwrap();
    assert_eq!(json["employeeCountService"], 120);
    let p = records::person(&db, 0);
    assert!(
        p.email.is_none() && p.phone.is_none(),
        "contacts only by reveal"
    );
    assert!(
        p.linkedin_url
            .as_ref()
            .unwrap()
            .starts_with("https://www.linkedin.com/in/")
    );
    assert!(!p.experiences.is_empty());
}

/// The embedded dataset (skipped while the asset is an empty placeholder).
#[test]
fn embedded_dataset_loads_and_answers() {
    let db = Db::load_embedded().expect("embedded asset");
    if db.company_count() == 0 {
        return;
    }
    assert!(db.company_count() > 30_000);
    subsets_answer_as_the_whole_dataset(&db);
    let again = Db::load_embedded().unwrap();
    let a = records::person(&db, 12_345.min(db.person_count() as u32 - 1));
    let b = records::person(&again, 12_345.min(again.person_count() as u32 - 1));
    assert_eq!(a.id, b.id, "the same person id on every load");
    assert_eq!(a.linkedin_url, b.linkedin_url);
    let req: SearchCompaniesV3Request = serde_json::from_value(json!({
        "size": 20, "companiesFilters": {"primaryLocations": {"includeCountries": ["us"]},
        "companySizes": ["51-200", "201-500"], "industries": {"industries": ["Software Development"]}}
    }))
    .unwrap();
    let r = db.search_companies_v3(&req).unwrap();
    assert!(!r.companies.is_empty());
    let lk: SearchCompaniesV2Request = serde_json::from_value(json!({
        "companiesFilters": {"lookalikeDomains": [r.companies[0].company.domain], "minScore": 0.5}
    }))
    .unwrap();
    assert!(!db.search_companies_v2(&lk).unwrap().companies.is_empty());
    // Job titles fit the company: no trade or field work at a software company.
    let software = db
        .company_index("teamviewer.com")
        .into_iter()
        .chain((0..db.company_count() as u32).filter(|&i| {
            let c = &db.cols[i as usize];
            c.industries_ord
                .iter()
                .any(|&x| db.vocab.industries.name(x) == "Software Development")
                && !c.categories_ord.iter().any(|&x| {
                    crate::engine::people::is_industrial_category(db.vocab.categories.name(x))
                })
        }))
        .take(300);
    let mut sample = Vec::new();
    for ci in software {
        let (s, e) = db.cols[ci as usize].people;
        for pi in s..e {
            let t = &db.people.titles[db.person_rows[pi as usize].title as usize].title;
            let l = t.to_lowercase();
            for bad in [
                "excavator",
                "operator",
                "elevator",
                "recording",
                "geodesist",
                "mapper",
            ] {
                assert!(
                    !l.contains(bad),
                    "{t} at {}",
                    db.companies[ci as usize].domain
                );
            }
            if sample.len() < 40 {
                sample.push(t.clone());
            }
        }
    }
    eprintln!("titles at software companies: {sample:?}");
}

/// A subset of the asset (issue 18, "Embedded start") answers a lookup of its companies exactly
/// as the whole dataset does, in every frame and for companies with an impressum (whose
/// generated manager must match too); aliases, unknown domains and requests spanning too many
/// frames are left to the whole dataset.
fn subsets_answer_as_the_whole_dataset(db: &Db) {
    use crate::dataset::format::COMPANIES_PER_FRAME;
    use prospect_api::types::LookupCompaniesRequest;
    let asset = Db::open_embedded().unwrap();
    let n = db.companies.base_len();
    let lookup = |db: &Db, domains: &[String]| {
        let req = LookupCompaniesRequest {
            domains: domains.to_vec(),
            ..Default::default()
        };
        serde_json::to_value(db.lookup_companies(&req)).unwrap()
    };
    let mut compared = 0;
    for start in (0..n).step_by(COMPANIES_PER_FRAME) {
        let end = (start + COMPANIES_PER_FRAME).min(n);
        let mut domains: Vec<String> = (start..end)
            .step_by(211)
            .map(|i| db.companies[i].domain.clone())
            .collect();
        domains.extend(
            (start..end)
                .filter(|&i| {
                    crate::engine::index::IMPRESSUM_COUNTRIES
                        .contains(&db.companies[i].country.as_str())
                })
                .take(5)
                .map(|i| db.companies[i].domain.clone()),
        );
        let sub = asset
            .subset_within(&domains, 1)
            .unwrap()
            .unwrap_or_else(|| panic!("no subset for the frame starting at {start}"));
        assert_eq!(sub.company_count(), domains.len());
        assert_eq!(
            lookup(&sub, &domains),
            lookup(db, &domains),
            "frame at {start}"
        );
        compared += domains.len();
    }
    assert!(compared > 150, "{compared}");
    assert!(asset.subset(&["stripe.com".to_string()]).unwrap().is_some());
    let alias = (0..n)
        .find_map(|i| db.companies[i].aliases.first().cloned())
        .expect("an alias");
    assert!(
        asset.subset(&[alias]).unwrap().is_none(),
        "aliases need the whole dataset"
    );
    assert!(
        asset
            .subset(&["not-in-the-dataset-at-all.example".to_string()])
            .unwrap()
            .is_none()
    );
    let spread: Vec<String> = (0..3)
        .map(|k| db.companies[k * COMPANIES_PER_FRAME].domain.clone())
        .collect();
    assert!(asset.subset(&spread).unwrap().is_none(), "three frames");
    assert!(asset.subset_within(&spread, 3).unwrap().is_some());
}
