//! People search over the hand-made dataset: every people filter member filters (v2 and v3),
//! people per company, and lookalike ranking of companies and people.

use super::*;

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
        .map(|c| crate::engine::lookalike::band_rank(c.relevance.as_ref().unwrap()))
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
