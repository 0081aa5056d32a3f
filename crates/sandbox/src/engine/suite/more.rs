//! Paging, autocompletes and records over the hand-made dataset, and the embedded dataset
//! answering as the whole.

use super::*;

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
