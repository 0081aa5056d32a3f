//! Tests of the records module: result pages from typed v2 / v3 answers, the revealed states
//! of people, and the sections of the details pane.
use super::*;
use prospect_api::client::Endpoint;
use serde_json::{Value, json};

fn typed<T: serde::de::DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v).unwrap()
}

/// The cursor of the page the core's paging asks after `page`, the first page of a search of
/// one result per page at `ep`.
fn next_cursor(ep: Endpoint, page: &PageData) -> Option<String> {
    let first = prospect_core::request::build_search(ep, &json!({"size": 1})).unwrap();
    let (mut paging, _) = prospect_core::engine::PagedSearch::first_page(first).unwrap();
    paging.answered(&page.end);
    let ask = paging.ask(1).unwrap().expect("a next page");
    ask.request().search_after().map(str::to_string)
}

#[test]
fn company_pages_from_v2_and_v3_answers_are_sanitized() {
    let v3 = typed(
        json!({"total": 2, "searchAfter": "abc", "creditsUsed": 0.2, "companies": [
        {"company": {"name": "Acme\u{1b}[31m", "domain": "acme.com", "industries": ["Software"], "yearFounded": 1999}, "relevance": "A"}],
        "includeDomainsStatuses": {"y.io": "in progress"}}),
    );
    let p = page(SearchResponse::CompaniesV3(v3));
    assert_eq!(p.total, Some(2));
    assert_eq!(
        next_cursor(Endpoint::SearchCompaniesV3, &p),
        Some("abc".into())
    );
    assert_eq!(p.credits_used, 0.2);
    assert_eq!(p.rows[0].cells[0], "Acme");
    assert_eq!(p.rows[0].cells[4], "Software");
    assert_eq!(p.rows[0].cells[5], "1999");
    assert_eq!(p.rows[0].cells[7], "A");
    assert_eq!(p.notes, vec!["y.io: in progress"]);
    assert_eq!(
        p.rows[0].record.company().map(|c| c.domain.as_str()),
        Some("acme.com")
    );
    let v2 = typed(
        json!({"companies": [{"company": {"name": "B", "domain": "b.io", "linkedinIndustry": "Banking"}, "score": 0.912}],
        "missingDomains": {"x.io": "bad content"}, "searchAfter": ""}),
    );
    let p = page(SearchResponse::CompaniesV2(v2));
    assert_eq!(p.rows[0].cells[4], "Banking");
    assert_eq!(p.rows[0].cells[7], "0.91");
    assert_eq!(p.notes, vec!["x.io: bad content"]);
    assert_eq!(
        next_cursor(Endpoint::SearchCompaniesV2, &p),
        None,
        "an empty cursor is none"
    );
    let s = p.rows[0].record.sections();
    assert!(
        s[0].lines
            .contains(&("score".to_string(), "0.912".to_string()))
    );
}

#[test]
fn people_pages_from_v2_and_v3_answers() {
    let v3 = typed(
        json!({"total": 1, "people": [{"id": "p1", "domain": "x.io", "name": "Ann",
        "jobTitle": "Leiterin", "jobTitleEnglish": "Head", "seniorities": ["Head", "VP"],
        "email": {"address": "ann@x.io", "status": "verified"}, "company": {"name": "X"}, "relevance": "B"}]}),
    );
    let p = page(SearchResponse::PeopleV3(v3));
    assert_eq!(
        p.rows[0].cells,
        [
            "Ann", "Head", "X", "", "Head, VP", "ann@x.io", "B", "email", ""
        ]
    );
    assert!(p.rows[0].record.company().is_none());
    let v2 =
        typed(json!({"people": [{"id": "p2", "domain": "y.io", "name": "Bo\u{7}b"}], "total": -3}));
    let p = page(SearchResponse::PeopleV2(v2));
    assert_eq!(p.rows[0].cells, ["Bob", "", "y.io", "", "", "", "", "", ""]);
    assert_eq!(p.total, Some(0));
}

#[test]
fn revealed_states_of_people() {
    let cases = [
        (json!({"id": "1"}), Revealed::No, ""),
        (
            json!({"id": "1", "email": {"address": "a@x.io", "status": "verified"}}),
            Revealed::Yes,
            "email",
        ),
        (
            json!({"id": "1", "email": {"address": "a@x.io", "status": "catchAll"},
                "phone": {"numbers": ["+4512"], "status": "verified"}}),
            Revealed::Yes,
            "email+phone",
        ),
        (
            json!({"id": "1", "phone": {"numbers": ["+4512"], "status": "verified"}}),
            Revealed::Yes,
            "phone",
        ),
        (
            json!({"id": "1", "email": {"status": "notFound"}}),
            Revealed::Tried,
            "not found",
        ),
        (
            json!({"id": "1", "email": {"status": "inProgress"}}),
            Revealed::Pending,
            "pending",
        ),
    ];
    for (person, state, cell) in cases {
        let p: Person = typed(person.clone());
        assert_eq!(revealed(&p), state, "{person}");
        assert_eq!(revealed_cell(&p), cell, "{person}");
        let r = row(Record::Person {
            person: p,
            company: None,
            relevance: None,
        });
        assert_eq!(r.revealed(), state, "the cell gives the state back");
    }
}

#[test]
fn person_sections_show_status() {
    let p: Person = typed(json!({"id": "1", "domain": "x.io", "name": "Ann",
        "email": {"address": "ann@x.io", "status": "verified"}, "phone": null,
        "experiences": [{"dateFrom": "2020-01-01", "jobTitle": "CTO", "domain": "x.io"}]}));
    let s = person_sections(&p, None, None);
    assert_eq!(s[1].lines[0].1, "ann@x.io [verified]");
    assert_eq!(s[1].lines[1].1, "not revealed");
    assert_eq!(s[2].lines[0].0, "2020-01-01–now");
    assert_eq!(s[2].lines[0].1, "CTO @ x.io");
}

#[test]
fn company_sections_keep_their_labels() {
    let c: Company = typed(json!({"domain": "a.com", "name": "A",
        "medias": {"twitter": {"url": "", "handle": "a"}, "linkedin": {"url": "https://l/a"}},
        "locations": [{"primary": true, "locality": "Berlin", "country": "de"}, {"country": "fr"}],
        "departmentSizes": [{"department": "Sales", "size": 3}]}));
    let s = company_sections(&c, Some(&Relevance::C), None);
    assert_eq!(s[0].lines[0], ("name".to_string(), "A".to_string()));
    assert!(
        s[0].lines
            .contains(&("relevance".to_string(), "C".to_string()))
    );
    assert_eq!(
        s[1].lines,
        vec![
            ("primary".to_string(), "Berlin, de".to_string()),
            ("office".to_string(), "fr".to_string())
        ]
    );
    assert_eq!(
        s[4].lines,
        vec![
            ("linkedin".to_string(), "https://l/a".to_string()),
            ("twitter".to_string(), "a".to_string())
        ]
    );
    assert_eq!(s[7].lines, vec![("Sales".to_string(), "3".to_string())]);
}

/// Issue 38: a contact status is shown in words, not as the wire's `notFound`.
#[test]
fn contact_statuses_are_words() {
    let person: Person = serde_json::from_value(json!({
        "id": "p1",
        "email": {"status": "notFound"},
        "phone": {"status": "inProgress", "numbers": []}
    }))
    .unwrap();
    assert_eq!(super::contact_cell(&person), "not found · in progress");
    let person: Person = serde_json::from_value(json!({
        "id": "p2",
        "email": {"status": "catchAll", "address": "ann@x.io"}
    }))
    .unwrap();
    assert_eq!(super::contact_cell(&person), "ann@x.io (catch-all)");
}
