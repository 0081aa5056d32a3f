//! Companies gathered by enrich (201, then there after the gathering delay) or by warmup are
//! companies like any other once they are there: the company searches find them by
//! `includeDomains` and use them as `lookalikeDomains`, and the people searches find their
//! people (issue item 1).

use std::time::Duration;

use crate::support::*;
use prospect::api::client::Enriched;
use prospect::api::types::*;
use serde::de::DeserializeOwned;
use serde_json::json;

fn req<T: DeserializeOwned>(v: serde_json::Value) -> T {
    serde_json::from_value(v).expect("a valid request body")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gathered_companies_are_searchable() {
    let h = start(vec![]).await;
    let c = client(&h, RICH);
    let enriched = "brand-new-gathered-qx.de";
    let warmed = "fresh-warmup-venture-zk.io";
    let body: EnrichCompanyRequest = req(json!({"company": {"domain": enriched}}));
    assert!(matches!(
        c.enrich_company(&body).await.expect("201"),
        Enriched::Gathering { .. }
    ));
    let w = c
        .warmup_companies(&req(json!({"domains": [warmed]})))
        .await
        .expect("warmup");
    assert_eq!(w.triggered_domains, vec![warmed.to_string()]);

    // Not there yet: searches do not know them.
    let v3: SearchCompaniesV3Response = c
        .search_companies_v3(&req(
            json!({"companiesFilters": {"includeDomains": [enriched, warmed]}}),
        ))
        .await
        .unwrap();
    assert!(v3.companies.is_empty());

    tokio::time::sleep(Duration::from_millis(250)).await;

    // v3 and v2 company searches by includeDomains
    let v3: SearchCompaniesV3Response = c
        .search_companies_v3(&req(
            json!({"companiesFilters": {"includeDomains": [enriched, warmed]}}),
        ))
        .await
        .unwrap();
    let mut found: Vec<&str> = v3
        .companies
        .iter()
        .map(|x| x.company.domain.as_str())
        .collect();
    found.sort();
    assert_eq!(found, vec![enriched, warmed]);
    assert!(v3.include_domains_statuses.is_none(), "{v3:?}");
    let v2 = c
        .search_companies_v2(&req(
            json!({"companiesFilters": {"includeDomains": [enriched]}}),
        ))
        .await
        .unwrap();
    assert_eq!(v2.companies.len(), 1);
    assert_eq!(v2.companies[0].company.domain, enriched);

    // as lookalike domains: used, not "data gathering started"
    let look: SearchCompaniesV3Response = c
        .search_companies_v3(&req(
            json!({"size": 5, "companiesFilters": {"lookalikeDomains": [enriched]}}),
        ))
        .await
        .unwrap();
    assert!(look.missing_domains.is_none(), "{:?}", look.missing_domains);
    assert!(!look.companies.is_empty());
    assert!(look.companies.iter().all(|x| x.company.domain != enriched));
    let look2 = c
        .search_companies_v2(&req(
            json!({"size": 5, "companiesFilters": {"lookalikeDomains": [warmed], "minScore": 0.01}}),
        ))
        .await
        .unwrap();
    assert!(
        look2.missing_domains.is_none(),
        "{:?}",
        look2.missing_domains
    );
    assert!(!look2.companies.is_empty());

    // people searches find their people
    let p3 = c
        .search_people_v3(&req(
            json!({"size": 50, "companiesFilters": {"includeDomains": [enriched]}}),
        ))
        .await
        .unwrap();
    assert!(!p3.people.is_empty());
    assert!(p3.people.iter().all(|p| p.person.domain == enriched));
    let p2 = c
        .search_people_v2(&req(
            json!({"size": 50, "companiesFilters": {"includeDomains": [warmed]}}),
        ))
        .await
        .unwrap();
    assert!(!p2.people.is_empty());
    assert!(p2.people.iter().all(|p| p.domain == warmed));
    // and a person found there can be enriched and looked up by id
    let id = p3.people[0].person.id.clone();
    let lp = c
        .lookup_people(&req(json!({"serviceIds": [id]})))
        .await
        .unwrap();
    assert_eq!(lp.total_found, 1);

    // enrich and lookup agree with the searches
    match c.enrich_company(&body).await.unwrap() {
        Enriched::Found(e) => assert_eq!(e.company.domain, enriched),
        other => panic!("{other:?}"),
    }
    let l = c
        .lookup_companies(&req(json!({"domains": [enriched, warmed]})))
        .await
        .unwrap();
    assert_eq!(l.total_found, 2);
    h.shutdown().await;
}
