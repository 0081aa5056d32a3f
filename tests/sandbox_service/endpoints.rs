//! The API client against a real sandbox over HTTP on 127.0.0.1: every endpoint of SPEC.md §4
//! answers with sensible data, and `searchAfter` paging goes across three pages with no
//! result repeated or skipped.

use std::collections::HashSet;
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
async fn all_nineteen_endpoints_answer() {
    let h = start(vec![]).await;
    let c = client(&h, RICH);
    let before = c.credit_balance().await.expect("18. balance");
    assert!(before.credits.as_ref().unwrap().one_time > 0.0);
    assert!(before.daily_limit_rate_left.unwrap() > 0);

    // 17. data-fields
    let df = c.data_fields().await.expect("17. data-fields");
    assert!(!df.industries.is_empty() && !df.seniorities.is_empty() && !df.departments.is_empty());
    assert!(!df.technologies.is_empty() && !df.regions.is_empty());

    // 7. v3 company search
    let v3: SearchCompaniesV3Response = c
        .search_companies_v3(&req(json!({"size": 5})))
        .await
        .expect("7. v3 companies");
    assert_eq!(v3.companies.len(), 5);
    let domains: Vec<String> = v3
        .companies
        .iter()
        .map(|x| x.company.domain.clone())
        .collect();
    assert!(domains.iter().all(|d| d.contains('.')));
    assert!(
        (v3.credits_used - 1.0).abs() < 1e-9,
        "5 × 0.2 = {}",
        v3.credits_used
    );

    // 6. v2 lookalike company search
    let v2 = c
        .search_companies_v2(&req(
            json!({"size": 5, "companiesFilters": {"lookalikeDomains": [domains[0]]}}),
        ))
        .await
        .expect("6. v2 companies");
    assert!(!v2.companies.is_empty());
    assert!(v2.companies.iter().all(|x| x.score.unwrap_or(0.0) > 0.0));

    // 1. autocomplete companies: the first letters of a known name find it
    let name = v3.companies[0].company.name.clone().unwrap_or_default();
    let prefix: String = name.chars().take(4).collect();
    let ac = c
        .autocomplete_companies(&req(json!({"name": prefix})))
        .await
        .expect("1. autocomplete companies");
    assert!(!ac.companies.is_empty(), "suggestions for {prefix:?}");
    // 2-5. the other autocompletes
    let kw = c
        .autocomplete_keywords(&req(json!({"query": "soft"})))
        .await
        .expect("2. keywords");
    assert!(!kw.keywords.is_empty());
    let jt = c
        .autocomplete_job_titles(&req(json!({"query": "engin"})))
        .await
        .expect("3. job titles");
    assert!(!jt.job_titles.is_empty());
    let loc = c
        .autocomplete_locations(&req(json!({"query": "germ"})))
        .await
        .expect("4. locations");
    assert!(!loc.locations.is_empty());
    let sk = c
        .autocomplete_skills(&req(json!({"query": "pro"})))
        .await
        .expect("5. skills");
    assert!(!sk.skills.is_empty());

    // 8. v2 people search (legacy plan): 1 credit per person without lookalike domains
    let p2 = c
        .search_people_v2(&req(json!({"size": 3})))
        .await
        .expect("8. v2 people");
    assert_eq!(p2.people.len(), 3);
    assert!((p2.credits_used - 3.0).abs() < 1e-9);
    assert!(
        p2.people
            .iter()
            .all(|p| !p.id.is_empty() && !p.domain.is_empty())
    );
    // with lookalike domains: 3 credits per person
    let p2l = c
        .search_people_v2(&req(
            json!({"size": 2, "companiesFilters": {"lookalikeDomains": [domains[0]]}}),
        ))
        .await
        .expect("8. v2 people lookalike");
    assert!((p2l.credits_used - 3.0 * p2l.people.len() as f64).abs() < 1e-9);

    // 9. v3 people search
    let p3 = c
        .search_people_v3(&req(json!({"size": 4})))
        .await
        .expect("9. v3 people");
    assert_eq!(p3.people.len(), 4);
    assert!(p3.people.iter().all(|p| p.company.is_some()));
    // 10. preview (legacy plan may)
    let pv = c
        .search_people_preview(&req(json!({"size": 3})))
        .await
        .expect("10. preview");
    assert!(!pv.people.is_empty());

    // 11. enrich company by a known domain
    match c
        .enrich_company(&req(json!({"company": {"domain": domains[1]}})))
        .await
        .expect("11. enrich company")
    {
        Enriched::Found(e) => {
            assert_eq!(e.company.domain, domains[1]);
            assert!((e.credits_used - 0.1).abs() < 1e-9);
        }
        other => panic!("expected the company, got {other:?}"),
    }

    // 12. enrich person by id
    let pid = p3.people[0].person.id.clone();
    match c
        .enrich_person(&req(json!({"person": {"id": pid}})))
        .await
        .expect("12. enrich person")
    {
        Enriched::Found(e) => {
            assert_eq!(e.person.id, pid);
            assert!((e.credits_used - 3.0).abs() < 1e-9);
        }
        other => panic!("expected the person, got {other:?}"),
    }

    // 13. lookup companies: one entry per domain, null for unknown ones
    let lc = c
        .lookup_companies(&req(
            json!({"domains": [domains[0], domains[2], "no-such-company-zz.example"]}),
        ))
        .await
        .expect("13. lookup companies");
    assert_eq!(lc.companies.len(), 3);
    assert_eq!(lc.total_found, 2);
    assert!(lc.companies[2].company().is_none());
    assert!((lc.credits_used - 0.1).abs() < 1e-9);

    // 14. lookup people by service ids
    let ids: Vec<String> = p3.people.iter().map(|p| p.person.id.clone()).collect();
    let lp = c
        .lookup_people(&req(json!({"serviceIds": [ids[0], ids[1], "nobody-here"]})))
        .await
        .expect("14. lookup people");
    assert_eq!(lp.people.len(), 2);
    assert!((lp.credits_used - 0.1).abs() < 1e-9);

    // 15-16. reveal: acknowledged at once
    let recv = Receiver::start(0).await;
    let re = c
        .reveal_emails(&req(
            json!({"personIds": [ids[0]], "webhookUrl": recv.url("/e")}),
        ))
        .await
        .expect("15. reveal emails");
    assert_eq!(re.status, RevealStatus::InProgress);
    let rp = c
        .reveal_phones(&req(
            json!({"personIds": [ids[0]], "webhookUrl": recv.url("/p")}),
        ))
        .await
        .expect("16. reveal phones");
    assert_eq!(rp.status, RevealStatus::InProgress);

    // 19. warmup: known, unknown and invalid domains
    let w = c
        .warmup_companies(&req(
            json!({"domains": [domains[0], "fresh-startup-qq.io", "not a domain"]}),
        ))
        .await
        .expect("19. warmup");
    assert_eq!(w.successful_domains, vec![domains[0].clone()]);
    assert_eq!(w.triggered_domains, vec!["fresh-startup-qq.io".to_string()]);
    assert_eq!(w.ignored_domains, vec!["not a domain".to_string()]);

    // 18. the balance went down by exactly the standard credits charged above
    let after = c.credit_balance().await.expect("18. balance");
    let spent = before.credits.unwrap().one_time - after.credits.unwrap().one_time;
    let autocompletes = 5.0 * 0.1;
    let expected = v3.credits_used
        + v2.credits_used
        + autocompletes
        + p2.credits_used
        + p2l.credits_used
        + p3.credits_used
        + pv.credits_used
        + 0.1
        + 3.0
        + lc.credits_used
        + lp.credits_used;
    assert!(
        (spent - expected).abs() < 1e-6,
        "spent {spent}, charged {expected}"
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_company_is_gathered_then_found() {
    let mut cfg = config(vec![]);
    cfg.enrich_delay = Duration::from_millis(1000);
    let h = prospect::sandbox::service::spawn(cfg).await.unwrap();
    let c = client(&h, RICH);
    let body: EnrichCompanyRequest = req(json!({"company": {"domain": "brand-new-venture-kx.io"}}));
    match c.enrich_company(&body).await.expect("201") {
        Enriched::Gathering { detail } => {
            assert_eq!(
                detail,
                "Data gathering process has started. Please try again later."
            )
        }
        other => panic!("expected 201, got {other:?}"),
    }
    // still gathering right away, and lookup does not know it yet
    assert!(matches!(
        c.enrich_company(&body).await.unwrap(),
        Enriched::Gathering { .. }
    ));
    let lookup: LookupCompaniesRequest =
        req(json!({"domains": ["brand-new-venture-kx.io", "never-enriched-zq.io"]}));
    let before = c.lookup_companies(&lookup).await.unwrap();
    assert_eq!(before.total_found, 0);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    match c.enrich_company(&body).await.expect("200 after the delay") {
        Enriched::Found(e) => assert_eq!(e.company.domain, "brand-new-venture-kx.io"),
        other => panic!("expected the company, got {other:?}"),
    }
    // once gathered, lookup finds it too (and only it)
    let after = c.lookup_companies(&lookup).await.unwrap();
    assert_eq!(after.total_found, 1);
    assert_eq!(
        after.companies[0].company().map(|x| x.domain.as_str()),
        Some("brand-new-venture-kx.io")
    );
    assert!(after.companies[1].company().is_none());
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_after_pages_have_no_repeat_and_no_gap() {
    let h = start(vec![]).await;
    let c = client(&h, RICH);
    // companies, v3: three pages of 7 equal one page of 21
    let all: SearchCompaniesV3Response = c
        .search_companies_v3(&req(json!({"size": 21})))
        .await
        .unwrap();
    let mut paged = Vec::new();
    let mut cursor: Option<String> = None;
    for page in 0..3 {
        let mut body = json!({"size": 7});
        if let Some(cur) = &cursor {
            body["searchAfter"] = json!(cur);
        }
        let r: SearchCompaniesV3Response = c.search_companies_v3(&req(body)).await.unwrap();
        assert_eq!(r.companies.len(), 7, "page {page}");
        paged.extend(r.companies.iter().map(|x| x.company.domain.clone()));
        cursor = r.search_after.clone();
        assert!(cursor.is_some(), "a cursor after page {page}");
    }
    let whole: Vec<String> = all
        .companies
        .iter()
        .map(|x| x.company.domain.clone())
        .collect();
    assert_eq!(paged, whole);
    assert_eq!(paged.iter().collect::<HashSet<_>>().len(), 21);

    // people, v2: three pages of 5 equal one page of 15
    let all: SearchPeopleV2Response = c.search_people_v2(&req(json!({"size": 15}))).await.unwrap();
    let whole: Vec<String> = all.people.iter().map(|p| p.id.clone()).collect();
    let mut paged = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..3 {
        let mut body = json!({"size": 5});
        if let Some(cur) = &cursor {
            body["searchAfter"] = json!(cur);
        }
        let r: SearchPeopleV2Response = c.search_people_v2(&req(body)).await.unwrap();
        paged.extend(r.people.iter().map(|p| p.id.clone()));
        cursor = r.search_after.clone();
    }
    assert_eq!(paged, whole);
    assert_eq!(paged.iter().collect::<HashSet<_>>().len(), 15);

    // people, v3 with a filter, three pages of 4
    let mut seen = HashSet::new();
    let mut cursor: Option<String> = None;
    for _ in 0..3 {
        let mut body = json!({"size": 4});
        if let Some(cur) = &cursor {
            body["searchAfter"] = json!(cur);
        }
        let r: SearchPeopleV3Response = c.search_people_v3(&req(body)).await.unwrap();
        assert_eq!(r.people.len(), 4);
        for p in &r.people {
            assert!(seen.insert(p.person.id.clone()), "repeated {}", p.person.id);
        }
        cursor = r.search_after.clone();
    }
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_embedded_sandbox_serves_its_one_account() {
    let sb = prospect::sandbox::service::start_embedded(None)
        .await
        .expect("starts");
    assert!(sb.base_url.starts_with("http://127.0.0.1:"));
    assert!(!format!("{sb:?}").contains(&sb.token), "no token in Debug");
    let c = prospect::api::client::Client::new(&sb.base_url, sb.token.clone()).unwrap();
    let b = c.credit_balance().await.expect("balance");
    assert!(b.credits.unwrap().one_time >= 1_000_000.0);
    // legacy plan: the v2 searches and the preview work
    assert!(c.search_people_v2(&req(json!({"size": 1}))).await.is_ok());
    assert!(
        c.search_people_preview(&req(json!({"size": 1})))
            .await
            .is_ok()
    );
    let e = prospect::api::client::Client::new(&sb.base_url, "wrong")
        .unwrap()
        .credit_balance()
        .await;
    assert_eq!(e.unwrap_err(), prospect::api::error::ApiError::UnknownToken);
}

/// Issue 18, "Fidelity": a domain warmup ignores is never said to be gathering elsewhere: it
/// is bad content among lookalike domains and an invalid domain among `includeDomains`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_domain_is_refused_alike_by_search_and_warmup() {
    let h = start(vec![]).await;
    let c = client(&h, RICH);
    let bad = "under_score.example";
    let w = c
        .warmup_companies(&req(json!({"domains": [bad, "fresh-startup-zz.io"]})))
        .await
        .unwrap();
    assert_eq!(w.ignored_domains, vec![bad.to_string()]);
    let v3: SearchCompaniesV3Response = c
        .search_companies_v3(&req(json!({
            "size": 1,
            "companiesFilters": {"lookalikeDomains": [bad], "includeDomains": [bad, "fresh-startup-zz.io"]}
        })))
        .await
        .unwrap();
    assert_eq!(v3.missing_domains.unwrap()[bad], DomainStatus::BadContent);
    let statuses = v3.include_domains_statuses.unwrap();
    assert_eq!(statuses[bad], DomainStatus::InvalidDomain);
    assert_eq!(
        statuses["fresh-startup-zz.io"],
        DomainStatus::DataGatheringStarted
    );
    h.shutdown().await;
}

/// `POST /v3/search/companies/preview`: the v3 search's first page as masked previews, ranked
/// 1.., with relevance for a lookalike search; 0.2 credit each; `size` 5..=50.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_company_preview_is_the_first_page_of_the_v3_search_masked() {
    let h = start(vec![]).await;
    let c = client(&h, RICH);
    let body = json!({"size": 7, "companiesFilters": {"lookalikeDomains": ["stripe.com"]}});
    let full = c.search_companies_v3(&req(body.clone())).await.unwrap();
    let pv = c.search_companies_preview(&req(body)).await.unwrap();
    assert_eq!(pv.companies.len(), 7);
    assert_eq!(pv.total_hits, full.total.unwrap());
    assert!((pv.credits_used - 1.4).abs() < 1e-9, "{}", pv.credits_used);
    for (i, (p, f)) in pv.companies.iter().zip(&full.companies).enumerate() {
        assert_eq!(p.ranking, i as i64 + 1);
        assert_eq!(Some(&p.company.name), f.company.name.as_ref());
        assert_eq!(p.relevance, f.relevance);
        assert!(p.relevance.is_some());
    }
    let e = c
        .search_companies_preview(&req(json!({"size": 4})))
        .await
        .unwrap_err();
    assert_eq!(e.status(), None, "refused before sending: {e}");
    assert!(e.to_string().contains("greater than or equal to 5"), "{e}");
    let d = c.search_companies_preview(&req(json!({}))).await.unwrap();
    assert_eq!(d.companies.len(), 50, "50 unset");
}
