//! Snapshot tests of every pane and popup on ratatui's TestBackend, plus behaviour tests of
//! the state owner (generations, debounce, paging), driving `App` with messages only.
#[path = "support/app.rs"]
mod app_support;
use app_support::{answer, ch, ctrl, key, opts, render_at, screen, started_with, typed};
use crossterm::event::KeyCode;
use prospect::api::client::Endpoint;
use prospect::core::request::{AutocompleteResponse, SearchRequest, SearchResponse};
use prospect::tui::app::{App, Pane, Popup};
use prospect::tui::msg::{Call, Command, Msg, Outcome, PageData, Slot, TimerId};
use prospect::tui::records;
use prospect::tui::schema::{DataFields, SearchSubject};
use prospect::tui::view;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::{Value, json};

fn data_fields() -> Value {
    json!({
        "industries": [{"industryCategory": "Technology", "industries": ["Software", "IT Services", "Semiconductors"]},
                        {"industryCategory": "Finance", "industries": ["Banking", "Insurance"]}],
        "linkedinIndustries": ["Computer Software"],
        "technologies": [{"name": "React", "categories": ["JavaScript frameworks"]}, {"name": "Stripe", "categories": ["Payments"]}],
        "regions": {"us": [{"code": "CA", "englishName": "California", "localName": "California"}], "de": [{"code": "BE", "englishName": "Berlin", "localName": "Berlin"}]},
        "seniorities": ["Owner", "Founder", "C-Level", "VP", "Director", "Manager"],
        "departments": ["Engineering", "Sales", "Marketing and Advertising"]
    })
}

/// A v3 search answer of `kind` as the typed client reads it, made into a page.
fn page_from_response(kind: SearchSubject, resp: &Value) -> PageData {
    let resp = match kind {
        SearchSubject::Companies => {
            SearchResponse::CompaniesV3(serde_json::from_value(resp.clone()).unwrap())
        }
        SearchSubject::People => {
            SearchResponse::PeopleV3(serde_json::from_value(resp.clone()).unwrap())
        }
    };
    records::page(resp)
}

fn balance() -> Value {
    json!({"credits": {"oneTime": 950, "recurrent": 40.5}, "emailCredits": {"oneTime": 100, "recurrent": 0},
           "phoneCredits": {"oneTime": 0, "recurrent": 0}, "dailyLimitRateLeft": 987, "dailyLimitRateSecondsToReset": 3725})
}

fn company(i: usize) -> Value {
    let rel = ["A", "B", "C"][i % 3];
    json!({
        "company": {
            "name": format!("Acme {i}\u{1b}[31m"), "domain": format!("acme{i}.com"), "legalName": format!("Acme {i} GmbH"),
            "description": "Makes\nanvils\tand rockets.", "primaryCountry": "de", "countries": ["de", "fr"],
            "companySize": "51-200", "industries": ["Software"], "industryCategories": ["Technology"],
            "linkedinIndustry": "Computer Software", "yearFounded": 1990 + (i % 30), "employeeCountService": 120 + i,
            "revenue": "10-50M", "keywords": ["anvils", "rockets"], "technologies": ["React", "Stripe"],
            "technologyCategories": ["Payments"],
            "medias": {"linkedin": {"url": format!("https://linkedin.com/company/acme{i}"), "handle": "acme", "name": "Acme"}},
            "locations": [{"primary": true, "streetAddress": "Hauptstr. 1", "locality": "Berlin", "postalCode": "10115", "country": "de"}],
            "fundingRound": {"type": "Series A", "date": "2021-05-01", "moneyRaisedInUsd": 5000000},
            "headcountGrowth": {"threeMonths": 0.05, "sixMonths": 0.1, "twelveMonths": 0.2},
            "departmentSizes": [{"department": "Engineering", "size": 40}, {"department": "Sales", "size": 12}]
        },
        "relevance": rel
    })
}

fn person(i: usize) -> Value {
    json!({
        "id": format!("p{i}"), "domain": "acme1.com", "name": format!("Person {i}"), "jobTitle": "Head of Engineering",
        "country": "de", "seniorities": ["Head"], "departments": ["Engineering"], "location": "Berlin",
        "linkedinUrl": format!("https://linkedin.com/in/p{i}"),
        "email": {"address": format!("p{i}@acme1.com"), "status": "verified"},
        "phone": {"numbers": null, "status": "notFound"},
        "experiences": [{"dateFrom": "2019-01-01", "dateTo": null, "jobTitle": "Head of Engineering", "domain": "acme1.com", "description": "Leads 40 engineers."},
                        {"dateFrom": "2015-03-01", "dateTo": "2018-12-31", "jobTitle": "Engineer", "domain": "old.io"}],
        "company": {"name": "Acme 1", "companySize": "51-200"},
        "relevance": "A"
    })
}

fn companies_page(n: usize, total: u64, cursor: Option<&str>) -> Value {
    json!({"companies": (0..n).map(company).collect::<Vec<_>>(), "total": total, "searchAfter": cursor})
}

fn started() -> App {
    started_with(opts(), data_fields(), balance())
}

fn render(app: &App) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(120, 34)).unwrap();
    t.draw(|f| view::draw(f, app)).unwrap();
    t
}

fn run_search(app: &mut App, resp: Value) {
    let cmds = app.update(ctrl('r'));
    answer(
        app,
        &cmds,
        Slot::Search(app.tab()),
        Outcome::Page(page_from_response(app.tab(), &resp)),
    );
    app.status = None;
}

#[test]
fn snapshot_start_screen() {
    let mut app = App::new(opts());
    let _ = app.start();
    insta::assert_snapshot!(render(&app).backend());
}

#[test]
fn snapshot_filters_filled() {
    let mut app = started();
    app.form.body = json!({"size": 25, "companiesFilters": {
        "industries": {"industries": ["Software", "IT Services"]}, "employeeCountService": {"from": 50, "to": 500},
        "primaryLocations": {"includeCountries": ["de", "fr"]}, "keywords": {"anyOf": ["anvils"]},
        "countries": ["it"]}});
    app.form.sel = 8;
    insta::assert_snapshot!(render(&app).backend());
}

#[test]
fn snapshot_results_and_company_details() {
    let mut app = started();
    run_search(&mut app, companies_page(25, 137, Some("c1")));
    app.update(key(KeyCode::Down));
    insta::assert_snapshot!("results", render(&app).backend());
    app.update(key(KeyCode::Enter));
    assert_eq!(app.focus, Pane::Details);
    insta::assert_snapshot!("company_details", render(&app).backend());
}

#[test]
fn snapshot_people_and_person_details() {
    let mut app = started();
    app.update(ch('t'));
    assert_eq!(app.tab(), SearchSubject::People);
    run_search(
        &mut app,
        json!({"people": (0..8).map(person).collect::<Vec<_>>(), "total": 8}),
    );
    app.update(key(KeyCode::Enter));
    insta::assert_snapshot!(render(&app).backend());
}

#[test]
fn snapshot_empty_state_and_loading() {
    let mut app = started();
    let cmds = app.update(ctrl('r'));
    insta::assert_snapshot!("loading", render(&app).backend());
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(page_from_response(
            SearchSubject::Companies,
            &json!({"companies": [], "total": 0, "missingDomains": {"nosuch.example": "bad content"}}),
        )),
    );
    app.status = None;
    insta::assert_snapshot!("empty", render(&app).backend());
}

#[test]
fn snapshot_help_popup() {
    let mut app = started();
    app.update(ch('?'));
    assert!(matches!(app.popups.last(), Some(Popup::Help(_))));
    insta::assert_snapshot!(render(&app).backend());
    app.update(key(KeyCode::Esc));
    assert!(app.popups.is_empty());
}

/// The spend engine's plan of one page (`plan_page`) as the session would answer it: `owned`
/// results the store answers, `to_buy` at 0.2 standard credits each, refused when `refusal`.
fn page_plan(owned: u64, to_buy: u64, refusal: Option<&str>) -> prospect::core::engine::Plan {
    app_support::search_plan(owned, to_buy, u32::from(to_buy > 0), refusal)
}

/// Runs the search of the form: a page above the threshold is planned first (free), and the
/// plan comes back as `plan`. Returns what the app did with it.
fn run_planned(app: &mut App, plan: prospect::core::engine::Plan) -> Vec<Command> {
    let cmds = app.update(ctrl('r'));
    assert!(
        matches!(
            &cmds[..],
            [Command::Call {
                slot: Slot::Prepare,
                call: Call::PlanPage { .. },
                ..
            }]
        ),
        "the page is planned before anything is confirmed or spent: {cmds:?}"
    );
    answer(
        app,
        &cmds,
        Slot::Prepare,
        Outcome::PagePlanned(Box::new(plan)),
    )
}

fn searches(cmds: &[Command]) -> bool {
    cmds.iter().any(|c| {
        matches!(
            c,
            Command::Call {
                slot: Slot::Search(SearchSubject::Companies),
                ..
            }
        )
    })
}

#[test]
fn snapshot_confirm_popup() {
    let mut app = started();
    app.form.body = json!({"size": 500});
    let cmds = run_planned(&mut app, page_plan(0, 500, None));
    assert!(cmds.is_empty(), "nothing spent before confirmation");
    insta::assert_snapshot!(render(&app).backend());
    let cmds = app.update(ch('n'));
    assert!(!cmds.iter().any(|c| matches!(c, Command::Call { .. })));
    run_planned(&mut app, page_plan(0, 500, None));
    assert!(searches(&app.update(key(KeyCode::Enter))));
    run_planned(&mut app, page_plan(0, 500, None));
    assert!(searches(&app.update(ch('y'))), "y confirms");
}

/// A page above the threshold that the store owns is read at once, without a question; one
/// over a budget is refused with the budget named, and nothing is sent.
#[test]
fn a_planned_page_the_store_owns_is_not_confirmed_and_one_over_budget_is_refused() {
    let mut app = started();
    app.form.body = json!({"size": 500});
    let cmds = run_planned(&mut app, page_plan(500, 0, None));
    assert!(searches(&cmds), "the store answers it: {cmds:?}");
    assert!(app.popups.is_empty());

    let mut app = started();
    app.form.body = json!({"size": 500});
    let refusal = "over the standard budget of 50 credits a day by 70 credits";
    let cmds = run_planned(&mut app, page_plan(0, 500, Some(refusal)));
    assert!(!cmds.iter().any(|c| matches!(c, Command::Call { .. })));
    match app.popups.last() {
        Some(Popup::Error(text)) => assert!(text.0.contains(refusal), "{}", text.0),
        other => panic!("an error popup, not {other:?}"),
    }

    // Under a budget every page is planned, even below the threshold.
    let mut o = opts();
    o.budgeted = true;
    let mut app = started_with(o, data_fields(), balance());
    app.form.body = json!({"size": 5});
    let cmds = run_planned(&mut app, page_plan(0, 5, None));
    assert!(
        searches(&cmds),
        "below the threshold it goes without a question"
    );
}

#[test]
fn snapshot_error_popup() {
    let mut app = started();
    let cmds = app.update(ctrl('r'));
    let generation = match &cmds[..] {
        [Command::Call { generation, .. }] => *generation,
        other => panic!("{other:?}"),
    };
    app.update(Msg::Done {
        slot: Slot::Search(SearchSubject::Companies),
        generation,
        result: Err(prospect::api::error::ApiError::InsufficientCredits {
            pool: prospect::api::cost::CreditPool::Standard,
        }
        .into()),
    });
    insta::assert_snapshot!(render(&app).backend());
}

#[test]
fn snapshot_autocomplete_editor() {
    let mut app = started();
    // companiesFilters.lookalikeDomains is the first member after the request block.
    let rows = app.form_rows();
    app.form.sel = rows.iter().position(|r| matches!(r, prospect::tui::app::FormRow::Leaf(l) if l.path == ["companiesFilters", "lookalikeDomains"])).unwrap();
    app.update(key(KeyCode::Enter));
    for c in "acm".chars() {
        app.update(ch(c));
    }
    let cmds = app.update(ch('e'));
    let timer = cmds.iter().find_map(|c| match c {
        Command::Timer {
            id: TimerId::Debounce,
            generation,
            ..
        } => Some(*generation),
        _ => None,
    });
    let cmds = app.update(Msg::Timer(TimerId::Debounce, timer.unwrap()));
    match &cmds[..] {
        [
            Command::Call {
                call: Call::Autocomplete(req),
                ..
            },
        ] => assert_eq!(req.endpoint(), Endpoint::AutocompleteCompanies),
        other => panic!("{other:?}"),
    }
    let resp = AutocompleteResponse::Companies(typed(json!({"companies": [
        {"name": "Acme", "domain": "acme.com", "logo": ""}, {"name": "Acme Rockets", "domain": "acmerockets.io", "logo": ""}]})));
    answer(
        &mut app,
        &cmds,
        Slot::Autocomplete,
        Outcome::Suggestions {
            list: prospect::tui::schema::suggestions(&resp),
            charge: Default::default(),
        },
    );
    app.update(key(KeyCode::Down));
    insta::assert_snapshot!(render(&app).backend());
    app.update(key(KeyCode::Enter));
    assert_eq!(
        app.form.body["companiesFilters"]["lookalikeDomains"],
        json!(["acme.com"])
    );
}

#[test]
fn snapshot_picker_and_range_editor() {
    let mut app = started();
    let rows = app.form_rows();
    let find = |p: &[&str]| {
        rows.iter()
            .position(|r| matches!(r, prospect::tui::app::FormRow::Leaf(l) if l.path == p))
            .unwrap()
    };
    app.form.sel = find(&["companiesFilters", "industries", "industries"]);
    app.update(key(KeyCode::Enter));
    for c in "soft".chars() {
        app.update(ch(c));
    }
    app.update(key(KeyCode::Enter));
    insta::assert_snapshot!("picker", render(&app).backend());
    app.update(key(KeyCode::Esc));
    assert_eq!(
        app.form.body["companiesFilters"]["industries"]["industries"],
        json!(["Software"])
    );

    app.form.sel = find(&["companiesFilters", "yearFounded"]);
    app.update(key(KeyCode::Enter));
    for c in "2000".chars() {
        app.update(ch(c));
    }
    app.update(key(KeyCode::Tab));
    for c in "1990".chars() {
        app.update(ch(c));
    }
    app.update(key(KeyCode::Enter));
    insta::assert_snapshot!("range_error", render(&app).backend());
    app.update(key(KeyCode::Esc));
    assert!(
        app.form.body["companiesFilters"]
            .get("yearFounded")
            .is_none()
    );
}

#[test]
fn snapshot_save_and_open_popups() {
    let dir = tempfile::tempdir().unwrap();
    let mut o = opts();
    o.filters_dir = dir.path().join("filters");
    let mut app = App::new(o);
    app.form.body = json!({"size": 10, "peopleFilters": {"seniorities": ["VP"]}});
    app.update(ctrl('s'));
    for c in "my set".chars() {
        app.update(ch(c));
    }
    app.update(key(KeyCode::Enter));
    assert_eq!(app.sets.name.as_deref(), Some("my set"));
    app.form.body = json!({});
    app.update(ctrl('o'));
    let mut t = Terminal::new(TestBackend::new(120, 34)).unwrap();
    t.draw(|f| view::draw(f, &app)).unwrap();
    insta::assert_snapshot!(t.backend());
    app.update(key(KeyCode::Enter));
    assert_eq!(
        app.form.body,
        json!({"size": 10, "peopleFilters": {"seniorities": ["VP"]}})
    );
}

// ------------------------------------------------------------------ behaviour

#[test]
fn stale_autocomplete_answer_is_never_shown() {
    let mut app = started();
    let rows = app.form_rows();
    app.form.sel = rows.iter().position(|r| matches!(r, prospect::tui::app::FormRow::Leaf(l) if l.path == ["companiesFilters", "keywords", "anyOf"])).unwrap();
    app.update(key(KeyCode::Enter));
    app.update(ch('a'));
    let c1 = app.update(ch('n'));
    let t1 = c1
        .iter()
        .find_map(|c| {
            if let Command::Timer { generation, .. } = c {
                Some(*generation)
            } else {
                None
            }
        })
        .unwrap();
    let call1 = app.update(Msg::Timer(TimerId::Debounce, t1));
    let g1 = match &call1[..] {
        [Command::Call { generation, .. }] => *generation,
        other => panic!("{other:?}"),
    };
    // A newer keystroke: aborts the older request and makes its answer stale.
    let c2 = app.update(ch('v'));
    assert!(
        c2.iter()
            .any(|c| matches!(c, Command::Abort(Slot::Autocomplete)))
    );
    // The old debounce timer firing does nothing either.
    assert!(app.update(Msg::Timer(TimerId::Debounce, t1)).is_empty());
    app.update(Msg::Done {
        slot: Slot::Autocomplete,
        generation: g1,
        result: Ok(Outcome::Suggestions {
            list: vec![("stale".into(), json!("stale"))],
            charge: Default::default(),
        }),
    });
    match app.popups.last() {
        Some(Popup::Editor(ed)) => match &ed.body {
            prospect::tui::app::EditorBody::List(le) => {
                assert!(le.suggestions.is_empty(), "stale suggestions shown")
            }
            _ => panic!(),
        },
        _ => panic!(),
    }
}

#[test]
fn superseded_search_result_is_dropped_and_paging_uses_cursors() {
    let mut app = started();
    let first = app.update(ctrl('r'));
    let second = app.update(ctrl('r'));
    // The older answer arrives late: dropped.
    answer(
        &mut app,
        &first,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(page_from_response(
            SearchSubject::Companies,
            &companies_page(3, 3, None),
        )),
    );
    assert!(app.results.companies.pages.is_empty());
    answer(
        &mut app,
        &second,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(page_from_response(
            SearchSubject::Companies,
            &companies_page(25, 60, Some("cur1")),
        )),
    );
    assert_eq!(app.results.companies.rows().len(), 25);
    app.focus = Pane::Results;
    let next = app.update(ch('n'));
    match &next[..] {
        [
            Command::Call {
                call:
                    Call::Search {
                        request: SearchRequest::CompaniesV3(r),
                        page,
                        ..
                    },
                ..
            },
        ] => {
            assert_eq!(r.search_after.as_deref(), Some("cur1"));
            assert_eq!(*page, 1, "the history keeps the page number");
        }
        other => panic!("{other:?}"),
    }
    answer(
        &mut app,
        &next,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(page_from_response(
            SearchSubject::Companies,
            &companies_page(25, 60, Some("cur2")),
        )),
    );
    assert_eq!(
        (
            app.results.companies.page,
            app.results.companies.first_index()
        ),
        (1, 26)
    );
    // Back, then forward again: the kept page, no request.
    assert!(no_call(app.update(ch('p'))));
    assert_eq!(app.results.companies.page, 0);
    assert!(no_call(app.update(ch('n'))));
    assert_eq!(app.results.companies.page, 1);
}

#[test]
fn people_at_company_uses_include_domains() {
    let mut app = started();
    run_search(&mut app, companies_page(3, 3, None));
    let cmds = app.update(ch('P'));
    match &cmds[..] {
        [
            Command::Call {
                call:
                    Call::Search {
                        request: SearchRequest::PeopleV3(r),
                        ..
                    },
                ..
            },
        ] => {
            let f = r.companies_filters.as_ref().unwrap();
            assert_eq!(
                f.include_domains.as_deref(),
                Some(&["acme0.com".to_string()][..])
            )
        }
        other => panic!("{other:?}"),
    }
    app.update(ch('t'));
    let cmds = app.update(ch('L'));
    match &cmds[..] {
        [
            Command::Call {
                call:
                    Call::Search {
                        request: SearchRequest::CompaniesV3(r),
                        ..
                    },
                ..
            },
        ] => {
            let f = r.companies_filters.as_ref().unwrap();
            assert_eq!(
                f.lookalike_domains.as_deref(),
                Some(&["acme0.com".to_string()][..])
            )
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn printable_keys_are_text_in_fields() {
    let mut app = started();
    let rows = app.form_rows();
    app.form.sel = rows.iter().position(|r| matches!(r, prospect::tui::app::FormRow::Leaf(l) if l.path == ["companiesFilters", "excludeIndustries"])).unwrap();
    app.update(key(KeyCode::Enter));
    // q, ?, n, j would be actions outside a text field.
    for c in "qn?j".chars() {
        app.update(ch(c));
    }
    assert!(!app.quit);
    match app.popups.last() {
        Some(Popup::Editor(ed)) => match &ed.body {
            prospect::tui::app::EditorBody::Pick(p) => assert_eq!(p.query.lines()[0], "qn?j"),
            _ => panic!(),
        },
        _ => panic!(),
    }
}

/// Every member the form can set, filled at once with a plausible value, reads into the
/// typed request of its endpoint (T1's types deny unknown fields) and validates.
#[test]
fn every_form_member_fits_the_typed_requests() {
    use prospect::api::types::common::Validate;
    use prospect::tui::schema::{self, LeafKind, Num, SetId, Source};
    fn sample(l: &schema::Leaf) -> Value {
        let df = DataFields::default();
        match l.kind {
            LeafKind::List(Source::Closed(SetId::States)) => {
                json!([{"abbreviation": "CA", "country": "us"}])
            }
            LeafKind::List(Source::Ac(prospect::tui::schema::AutocompleteKind::Locations)) => {
                json!([{"city": "Berlin", "country": "de"}])
            }
            LeafKind::List(Source::Closed(set)) if !set.needs_data_fields() => {
                json!([set.options(&df)[0].value.clone()])
            }
            LeafKind::List(_) => json!(["x"]),
            LeafKind::One(set) => set.options(&df)[0].value.clone(),
            LeafKind::Range(Num::Int) => json!({"from": 1, "to": 2}),
            LeafKind::Range(Num::Float) => json!({"from": 0.5, "to": 1.5}),
            LeafKind::Range(_) => json!({"from": "2020-01-01", "to": "2021-01-01"}),
            LeafKind::Scalar(Num::Int) => json!(3),
            LeafKind::Scalar(Num::Float) => json!(0.5),
            LeafKind::Scalar(Num::Date) => json!("2020-01"),
            LeafKind::Scalar(Num::Text) => json!("x"),
            LeafKind::Json if l.path.last() == Some(&"departmentSizes") => {
                json!([{"department": "Sales", "from": 1, "to": 5}])
            }
            LeafKind::Json => {
                json!([{"department": "Sales", "growthRange": {"from": 0.0, "to": 1.0}, "months": "Three months", "asPercentage": false}])
            }
        }
    }
    fn check<T: serde::de::DeserializeOwned + Validate>(ep: Endpoint) {
        let mut body = json!({});
        for l in schema::leaves(ep) {
            schema::set(&mut body, l.path, sample(l));
        }
        let req: T = serde_path_to_error::deserialize(body.clone())
            .unwrap_or_else(|e| panic!("{ep:?}: {} at {}", e.inner(), e.path()));
        let problems = req.validate();
        assert!(problems.is_empty(), "{ep:?}: {problems:?}");
    }
    check::<prospect::api::types::SearchCompaniesV3Request>(Endpoint::SearchCompaniesV3);
    check::<prospect::api::types::SearchPeopleV3Request>(Endpoint::SearchPeopleV3);
    check::<prospect::api::types::SearchCompaniesV2Request>(Endpoint::SearchCompaniesV2);
    check::<prospect::api::types::SearchPeopleV2Request>(Endpoint::SearchPeopleV2);
    // The same bodies, through the builder every search goes through.
    for ep in prospect::tui::schema::SEARCHES {
        let mut body = json!({});
        for l in schema::leaves(ep) {
            schema::set(&mut body, l.path, sample(l));
        }
        let req = prospect::core::request::build_search(ep, &body)
            .unwrap_or_else(|e| panic!("{ep:?}: {e:?}"));
        assert_eq!(req.endpoint(), ep);
    }
}

/// Opens "find a filter member", types `text`, and returns the label of the best match.
fn find_first(app: &mut App, text: &str) -> String {
    app.update(ch('/'));
    for c in text.chars() {
        app.update(ch(c));
    }
    match app.popups.last() {
        Some(Popup::Find(p)) => p.picker.options[p.picker.filtered[0]].label.clone(),
        _ => panic!("no find popup"),
    }
}

#[test]
fn find_member_ranks_the_obvious_match_first() {
    let mut app = started();
    assert_eq!(find_first(&mut app, "size"), "Results per page  size");
    app.update(key(KeyCode::Esc));
    assert_eq!(
        find_first(&mut app, "keywords.anyOf"),
        "Keywords: any of  companiesFilters.keywords.anyOf"
    );
    app.update(key(KeyCode::Enter));
    assert!(
        matches!(app.popups.last(), Some(Popup::Editor(ed)) if ed.leaf.path == ["companiesFilters", "keywords", "anyOf"])
    );
    // By its label too (issue 19): "employees linkedin".
    app.update(key(KeyCode::Esc));
    assert_eq!(
        find_first(&mut app, "employees linkedin"),
        "Employees (LinkedIn, range)  companiesFilters.employeeCountLinkedin"
    );
}

#[test]
fn selection_stays_on_the_member_when_the_summary_grows_or_shrinks() {
    use prospect::tui::app::FormRow;
    let mut app = started();
    let is_year = |r: Option<&FormRow>| matches!(r, Some(FormRow::Leaf(l)) if l.path == ["companiesFilters", "yearFounded"]);
    app.form.sel = app
        .form_rows()
        .iter()
        .position(|r| is_year(Some(r)))
        .unwrap();
    app.update(key(KeyCode::Enter));
    for c in "1990".chars() {
        app.update(ch(c));
    }
    app.update(key(KeyCode::Enter));
    assert_eq!(
        app.form.body["companiesFilters"]["yearFounded"],
        json!({"from": 1990})
    );
    assert!(
        is_year(app.form_rows().get(app.form.sel)),
        "selection moved"
    );
    app.update(ch('x'));
    assert!(app.form.body.get("companiesFilters").is_none());
    assert!(
        is_year(app.form_rows().get(app.form.sel)),
        "selection moved after clearing"
    );
}

#[test]
fn a_pool_missing_from_the_balance_is_unknown_not_zero() {
    let mut app = started();
    app.gauge.on_balance(
        typed(json!({"credits": {"oneTime": 5, "recurrent": 0}, "dailyLimitRateLeft": 3})),
        std::time::Instant::now(),
    );
    let t = render(&app);
    let buf = t.backend().buffer();
    let line: String = (0..buf.area.width)
        .map(|x| buf[(x, 32)].symbol().to_string())
        .collect();
    assert!(line.contains("standard 5 (5+0)"), "{line}");
    assert!(line.contains("email ?"), "{line}");
    assert!(line.contains("phone ?"), "{line}");
    assert!(!line.contains("email 0"), "{line}");
}

#[test]
fn a_form_the_client_would_refuse_says_so_on_edit_and_is_never_confirmed() {
    let mut app = started();
    app.form.sel = app
        .form_rows()
        .iter()
        .position(|r| matches!(r, prospect::tui::app::FormRow::Leaf(l) if l.path == ["size"]))
        .unwrap();
    let set_size = |app: &mut App, text: &str| {
        app.update(key(KeyCode::Enter));
        for _ in 0..6 {
            app.update(key(KeyCode::Backspace));
        }
        for c in text.chars() {
            app.update(ch(c));
        }
        app.update(key(KeyCode::Enter));
    };
    set_size(&mut app, "20000");
    assert_eq!(app.form.body["size"], json!(20000));
    let status = app.status.clone().expect("a status");
    assert!(
        status
            .text
            .contains("body.size: Input should be less than or equal to 10000"),
        "{status:?}"
    );
    assert_eq!(app.form.problems.len(), 1);
    // Run: no confirmation of 4000 credits, no call; an error popup says why.
    let cmds = app.update(ctrl('r'));
    assert!(
        !cmds.iter().any(|c| matches!(c, Command::Call { .. })),
        "{cmds:?}"
    );
    match app.popups.last() {
        Some(Popup::Error(e)) => assert!(
            e.0.contains("not sent") && e.0.contains("body.size"),
            "{}",
            e.0
        ),
        other => panic!("{other:?}"),
    }
    app.update(key(KeyCode::Esc));
    // Fixed: the problem message goes away.
    set_size(&mut app, "50");
    assert!(app.form.problems.is_empty());
    assert!(app.status.is_none(), "{:?}", app.status);
}

fn search_generation(cmds: &[Command]) -> u64 {
    cmds.iter()
        .find_map(|c| match c {
            Command::Call {
                slot: Slot::Search(_),
                generation,
                ..
            } => Some(*generation),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no search call in {cmds:?}"))
}

fn rate_limit_tick(cmds: &[Command]) -> Option<u64> {
    cmds.iter().find_map(|c| match c {
        Command::Timer {
            id: TimerId::RateLimit,
            after,
            generation,
        } => {
            assert_eq!(
                *after,
                std::time::Duration::from_secs(1),
                "one tick a second"
            );
            Some(*generation)
        }
        _ => None,
    })
}

/// A per-minute 429 keeps its typed error, counts down on the status line each second and
/// sends the same page again when `Retry-After` has passed; nothing is charged for it.
#[test]
fn a_per_minute_429_counts_down_and_retries_the_same_call() {
    use prospect::api::error::ApiError;
    let mut app = started();
    let cmds = app.update(ctrl('r'));
    let first = search_generation(&cmds);
    let failure: prospect::tui::msg::ApiFailure = ApiError::RateLimited {
        retry_after: Some(std::time::Duration::from_secs(3)),
    }
    .into();
    assert_eq!(failure.message, "Rate limited; retry in 3s");
    assert!(matches!(failure.error, Some(ApiError::RateLimited { .. })));
    let cmds = app.update(Msg::Done {
        slot: Slot::Search(SearchSubject::Companies),
        generation: first,
        result: Err(failure),
    });
    assert!(
        app.popups.is_empty(),
        "no error popup for a 429 that is retried"
    );
    assert!(app.results.companies.loading && app.results.companies.error.is_none());
    assert_eq!(
        app.status.as_ref().map(|s| s.text.as_str()),
        Some("Rate limited; retrying in 3 s")
    );
    let mut tick = rate_limit_tick(&cmds).expect("a countdown timer");
    let cmds = app.update(Msg::Timer(TimerId::RateLimit, tick));
    assert_eq!(
        app.status.as_ref().map(|s| s.text.as_str()),
        Some("Rate limited; retrying in 2 s")
    );
    assert!(!cmds.iter().any(|c| matches!(c, Command::Call { .. })));
    tick = rate_limit_tick(&cmds).unwrap();
    let cmds = app.update(Msg::Timer(TimerId::RateLimit, tick));
    assert_eq!(
        app.status.as_ref().map(|s| s.text.as_str()),
        Some("Rate limited; retrying in 1 s")
    );
    tick = rate_limit_tick(&cmds).unwrap();
    let cmds = app.update(Msg::Timer(TimerId::RateLimit, tick));
    match &cmds[..] {
        [
            Command::Call {
                slot: Slot::Search(SearchSubject::Companies),
                generation,
                call: Call::Search { page: 0, .. },
            },
        ] => assert!(*generation > first),
        other => panic!("expected the retry, got {other:?}"),
    }
    assert!(app.rate_waits.is_empty());
}

/// The daily allowance's 429 is its own message and is not retried; a superseded 429 is not
/// retried either.
#[test]
fn the_daily_429_is_not_retried_and_a_newer_search_cancels_a_retry() {
    use prospect::api::error::ApiError;
    let mut app = started();
    let cmds = app.update(ctrl('r'));
    let cmds = app.update(Msg::Done {
        slot: Slot::Search(SearchSubject::Companies),
        generation: search_generation(&cmds),
        result: Err(ApiError::RateLimited {
            retry_after: Some(std::time::Duration::from_secs(5 * 3600 + 12 * 60)),
        }
        .into()),
    });
    assert!(rate_limit_tick(&cmds).is_none() && app.rate_waits.is_empty());
    assert_eq!(
        app.results.companies.error.as_deref(),
        Some("Daily request allowance used up; resets in 5h 12m")
    );
    assert!(
        matches!(app.popups.last(), Some(Popup::Error(e)) if e.0.contains("Daily request allowance"))
    );
    // Issue 38, item 11: the gauge no longer says what the last balance said (987 left).
    assert_eq!(app.gauge.daily_left(), Some(0));
    let reset = app
        .gauge
        .seconds_to_reset(std::time::Instant::now())
        .unwrap();
    assert!(
        (5 * 3600 + 11 * 60..=5 * 3600 + 12 * 60).contains(&reset),
        "{reset}"
    );
    app.update(key(KeyCode::Esc));

    let cmds = app.update(ctrl('r'));
    let cmds = app.update(Msg::Done {
        slot: Slot::Search(SearchSubject::Companies),
        generation: search_generation(&cmds),
        result: Err(ApiError::RateLimited {
            retry_after: Some(std::time::Duration::from_secs(1)),
        }
        .into()),
    });
    let tick = rate_limit_tick(&cmds).unwrap();
    // The user runs another search meanwhile: the old page is not asked again.
    let newer = app.update(ctrl('r'));
    search_generation(&newer);
    let cmds = app.update(Msg::Timer(TimerId::RateLimit, tick));
    assert!(
        !cmds.iter().any(|c| matches!(c, Command::Call { .. })),
        "{cmds:?}"
    );
}

/// Every answer's charge reaches the gauge, a superseded one too, and the balance is asked
/// only at start and then at most once a minute (not after every call).
#[test]
fn the_gauge_takes_every_charge_and_the_balance_is_not_asked_after_each_call() {
    use prospect::api::cost::{Cost, CreditPool};
    use prospect::tui::msg::Charge;
    let mut app = started();
    assert_eq!(app.gauge.left(CreditPool::Standard), Some(990.5));
    let first = app.update(ctrl('r'));
    let second = app.update(ctrl('r'));
    let paid = |n: usize, charged: f64| {
        let mut p = page_from_response(SearchSubject::Companies, &companies_page(n, 60, Some("c")));
        p.charge = Charge {
            cost: Cost::in_pool(CreditPool::Standard, charged),
            requests: 1,
        };
        Outcome::Page(p)
    };
    let cmds = answer(
        &mut app,
        &first,
        Slot::Search(SearchSubject::Companies),
        paid(3, 0.6),
    );
    assert!(
        app.results.companies.pages.is_empty(),
        "superseded: not shown"
    );
    assert!(
        !cmds.iter().any(|c| matches!(
            c,
            Command::Call {
                slot: Slot::Balance,
                ..
            }
        )),
        "{cmds:?}"
    );
    assert_eq!(
        app.gauge.left(CreditPool::Standard),
        Some(989.9),
        "but charged"
    );
    let cmds = answer(
        &mut app,
        &second,
        Slot::Search(SearchSubject::Companies),
        paid(25, 5.0),
    );
    assert!(
        !cmds.iter().any(|c| matches!(
            c,
            Command::Call {
                slot: Slot::Balance,
                ..
            }
        )),
        "{cmds:?}"
    );
    assert_eq!(app.gauge.left(CreditPool::Standard), Some(984.9));
    assert_eq!(app.gauge.daily_left(), Some(985));
    let t = render(&app);
    let buf = t.backend().buffer();
    let line: String = (0..buf.area.width)
        .map(|x| buf[(x, 32)].symbol().to_string())
        .collect();
    assert!(
        line.contains("standard 984.9 (−5.6 since refresh)"),
        "{line}"
    );
    assert!(line.contains("daily 985 left"), "{line}");
    // `c` asks at once.
    let cmds = app.update(ch('c'));
    assert!(cmds.iter().any(|c| matches!(
        c,
        Command::Call {
            slot: Slot::Balance,
            ..
        }
    )));
}

/// `H` lists the stored searches (endpoint, filters, pages kept, total, age); Enter reopens one
/// into its tab at no cost, titled "from store, N days old"; paging walks the stored pages
/// without a call, and past them continues with `searchAfter` as a paid page.
#[test]
fn snapshot_history_popup_and_reopened_search() {
    use prospect::store::SearchId;
    use prospect::tui::backend::summarize_filters;
    use prospect::tui::msg::{HistoryEntry, Reopened};
    let mut app = started();
    let cmds = app.update(ch('H'));
    assert!(
        cmds.iter().any(|c| matches!(
            c,
            Command::Call {
                slot: Slot::History,
                call: Call::History,
                ..
            }
        )),
        "{cmds:?}"
    );
    insta::assert_snapshot!("history_loading", render(&app).backend());
    let body = json!({"size": 25, "companiesFilters": {"keywords": {"anyOf": ["software", "saas"]},
        "yearFounded": {"from": 1990, "to": 2010}, "primaryLocations": {"includeCountries": ["de"]}}});
    let entries = vec![
        HistoryEntry {
            id: SearchId(4),
            endpoint: Endpoint::SearchPeopleV3,
            summary: summarize_filters(&json!({"peopleFilters": {"jobTitles": ["CTO"]}})),
            pages: 1,
            total: Some(8),
            age: chrono::Duration::minutes(5),
        },
        HistoryEntry {
            id: SearchId(7),
            endpoint: Endpoint::SearchCompaniesV3,
            summary: summarize_filters(&body),
            pages: 2,
            total: Some(137),
            age: chrono::Duration::days(3),
        },
        HistoryEntry {
            id: SearchId(2),
            endpoint: Endpoint::SearchCompaniesV2,
            summary: summarize_filters(&json!({"size": 10})),
            pages: 1,
            total: None,
            age: chrono::Duration::days(40),
        },
    ];
    answer(&mut app, &cmds, Slot::History, Outcome::History(entries));
    app.update(key(KeyCode::Down));
    insta::assert_snapshot!("history_popup", render(&app).backend());

    let cmds = app.update(key(KeyCode::Enter));
    assert!(app.popups.is_empty());
    match &cmds[..] {
        [
            Command::Call {
                slot: Slot::Search(SearchSubject::Companies),
                call: Call::Reopen(SearchId(7)),
                ..
            },
        ] => {}
        other => panic!("{other:?}"),
    }
    let request =
        prospect::core::request::build_search(Endpoint::SearchCompaniesV3, &body).unwrap();
    let stored = |n: usize, cursor: &str| {
        let mut p = page_from_response(
            SearchSubject::Companies,
            &companies_page(n, 137, Some(cursor)),
        );
        p.stored_at = Some(chrono::Utc::now());
        p
    };
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::Companies),
        Outcome::Reopened(Reopened {
            id: SearchId(7),
            request,
            body: body.clone(),
            pages: vec![stored(25, "c1"), stored(25, "c2")],
            age: chrono::Duration::days(3),
            suppressed: None,
        }),
    );
    assert_eq!(
        app.form.body, body,
        "the form holds the reopened search's filters"
    );
    assert_eq!(app.focus, Pane::Results);
    assert_eq!(
        app.status.as_ref().map(|s| s.text.as_str()),
        Some("Reopened from store, 3 days old · 2 pages · nothing spent")
    );
    app.status = None;
    insta::assert_snapshot!("reopened", render(&app).backend());
    // The second stored page: no call.
    assert!(no_call(app.update(ch('n'))));
    assert_eq!(
        (
            app.results.companies.page,
            app.results.companies.first_index()
        ),
        (1, 26)
    );
    // Past the stored pages: a paid page 2 with the last stored cursor.
    let cmds = app.update(ch('n'));
    match &cmds[..] {
        [
            Command::Call {
                call:
                    Call::Search {
                        request: SearchRequest::CompaniesV3(r),
                        page: 2,
                        ..
                    },
                ..
            },
        ] => assert_eq!(r.search_after.as_deref(), Some("c2")),
        other => panic!("{other:?}"),
    }
}

/// No call among `cmds` (a status timer may be there: the row range is refreshed).
fn no_call(cmds: Vec<Command>) -> bool {
    !cmds.iter().any(|c| matches!(c, Command::Call { .. }))
}

/// Below the minimum size the explorer says so, with the size it needs, instead of panes too
/// small to show a row; at the minimum it draws its panes.
#[test]
fn a_terminal_too_small_says_what_it_needs() {
    let app = started();
    let text = screen(&render_at(&app, 40, 10));
    assert!(
        text.contains("Terminal too small: 40×10.") && text.contains("needs 60×16"),
        "{text}"
    );
    let text = screen(&render_at(&app, view::MIN_WIDTH, view::MIN_HEIGHT));
    assert!(
        !text.contains("too small") && text.contains("Filters"),
        "{text}"
    );
}

/// "Save as" (`Ctrl-a`) starts empty, even when a named set is open: typing a new name never
/// appends to the old one.
#[test]
fn save_as_starts_empty() {
    let mut app = started();
    app.sets.name = Some("bmw".into());
    app.update(ctrl('a'));
    match app.popups.last() {
        Some(Popup::SaveName(p)) => assert_eq!(p.input.lines().join(""), ""),
        _ => panic!("no save prompt"),
    }
}

/// A mouse event at (`column`, `row`) of the screen.
fn mouse(kind: crossterm::event::MouseEventKind, column: u16, row: u16) -> Msg {
    Msg::Mouse(crossterm::event::MouseEvent {
        kind,
        column,
        row,
        modifiers: crossterm::event::KeyModifiers::NONE,
    })
}

/// The mouse (issue 19): a click on the third row of results selects it and focuses the
/// pane, the wheel moves the selection, a click on a filter line selects it, a click on the
/// People tab switches to it, and a double click opens the row (as Enter). With a popup open
/// clicks do nothing.
#[test]
fn clicks_select_rows_and_tabs_and_the_wheel_scrolls() {
    use crossterm::event::{MouseButton, MouseEventKind};
    let mut app = started();
    run_search(&mut app, companies_page(25, 137, Some("c1")));
    app.focus = Pane::Filters;
    let t = render(&app);
    let text = app_support::screen(&t);
    // The third row of results: the line showing "Acme 2".
    let row = text
        .lines()
        .position(|l| l.contains("Acme 2 "))
        .expect("the third row is on screen") as u16;
    let x = text
        .lines()
        .nth(row as usize)
        .unwrap()
        .find("Acme 2")
        .unwrap() as u16;
    let x = text.lines().nth(row as usize).unwrap()[..x as usize]
        .chars()
        .count() as u16;
    app.update(mouse(MouseEventKind::Down(MouseButton::Left), x, row));
    assert_eq!(app.focus, Pane::Results);
    assert_eq!(
        app.search(SearchSubject::Companies).sel,
        2,
        "the third row is selected"
    );
    app.update(mouse(MouseEventKind::ScrollDown, x, row));
    assert_eq!(
        app.search(SearchSubject::Companies).sel,
        5,
        "the wheel moves three rows"
    );
    app.update(mouse(MouseEventKind::ScrollUp, x, row));
    assert_eq!(app.search(SearchSubject::Companies).sel, 2);

    // A filter line: "Results per page 25" (`size`).
    let size = text
        .lines()
        .position(|l| l.contains("Results per page 25"))
        .unwrap() as u16;
    app.update(mouse(MouseEventKind::Down(MouseButton::Left), 3, size));
    assert_eq!(app.focus, Pane::Filters);
    assert!(
        matches!(app.form_rows().get(app.form.sel), Some(prospect::tui::app::FormRow::Leaf(l)) if l.path.join(".") == "size"),
        "the clicked filter line is selected"
    );

    // Double click on a results row opens it in details.
    render(&app);
    app.update(mouse(MouseEventKind::Down(MouseButton::Left), x, row));
    app.update(mouse(MouseEventKind::Down(MouseButton::Left), x, row));
    assert_eq!(app.focus, Pane::Details, "a double click opens the row");

    // The People tab, on the tabs line of the results pane.
    render(&app);
    let tabs = text
        .lines()
        .position(|l| l.contains("Companies │ People"))
        .unwrap() as u16;
    let line = text.lines().nth(tabs as usize).unwrap();
    let px = line[..line.find("People").unwrap()].chars().count() as u16;
    app.update(mouse(MouseEventKind::Down(MouseButton::Left), px + 1, tabs));
    assert_eq!(app.tab(), SearchSubject::People);

    // With a popup open, a click changes nothing behind it.
    app.update(ch('?'));
    let sel = app.form.sel;
    app.update(mouse(MouseEventKind::Down(MouseButton::Left), 3, size + 1));
    assert_eq!(app.form.sel, sel);
}

/// The typed search request a command list sends, if it sends one.
fn sent_search(cmds: &[Command]) -> Option<SearchRequest> {
    cmds.iter().find_map(|c| match c {
        Command::Call {
            call: Call::Search { request, .. },
            ..
        } => Some(request.clone()),
        _ => None,
    })
}

/// The people form's job-title keywords (`peopleFilters.jobTitleKeywords.anyOf`), if set.
fn people_keywords(app: &App) -> Option<&Value> {
    prospect::tui::schema::get(
        &app.form.body,
        &["peopleFilters", "jobTitleKeywords", "anyOf"],
    )
}

/// A form per tab (issue 19): a job-title keyword set on the people tab is not in the
/// companies search, and is still there back on the people tab; `P` from a company searches
/// its people with the company only, and Back brings the people filters back.
#[test]
fn each_tab_has_its_own_form() {
    let mut app = started();
    app.update(ch('t'));
    assert_eq!(app.tab(), SearchSubject::People);
    prospect::tui::schema::set(
        &mut app.form.body,
        &["peopleFilters", "jobTitleKeywords", "anyOf"],
        json!(["Head of Sales"]),
    );
    app.update(ch('t'));
    assert_eq!(app.tab(), SearchSubject::Companies);
    let cmds = app.update(ctrl('r'));
    let Some(SearchRequest::CompaniesV3(sent)) = sent_search(&cmds) else {
        panic!("the companies search is sent")
    };
    assert!(sent.people_filters.is_none(), "{sent:?}");
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(page_from_response(
            SearchSubject::Companies,
            &companies_page(3, 3, None),
        )),
    );
    app.update(ch('t'));
    assert_eq!(
        people_keywords(&app),
        Some(&json!(["Head of Sales"])),
        "the people form kept its keyword"
    );

    // P from the first company: the company only.
    app.update(ch('t'));
    app.focus = Pane::Results;
    let cmds = app.update(ch('P'));
    let Some(SearchRequest::PeopleV3(sent)) = sent_search(&cmds) else {
        panic!("the people search is sent")
    };
    assert_eq!(
        sent.companies_filters
            .as_ref()
            .and_then(|f| f.include_domains.clone()),
        Some(vec!["acme0.com".to_string()])
    );
    assert!(sent.people_filters.is_none(), "{sent:?}");
    assert!(
        app.status
            .as_ref()
            .is_some_and(|s| s.text.contains("the company only")),
        "{:?}",
        app.status
    );
    app.update(key(KeyCode::Backspace));
    assert_eq!(app.tab(), SearchSubject::Companies);
    app.update(ch('t'));
    assert_eq!(
        people_keywords(&app),
        Some(&json!(["Head of Sales"])),
        "Back brings the people filters back"
    );
}

/// A yes / no member is a toggle (issue 19): Enter on "Reveal emails with the search" sets it
/// to yes, then no, then unsets it; no picker opens.
#[test]
fn a_yes_no_member_is_a_toggle() {
    let mut app = started();
    app.update(ch('t'));
    app.update(ch('/'));
    for c in "reveal emails with".chars() {
        app.update(ch(c));
    }
    app.update(key(KeyCode::Enter));
    assert!(app.popups.is_empty(), "no picker: {:?}", app.popups.len());
    let path = ["revealEmails", "includeEmails"];
    assert_eq!(
        prospect::tui::schema::get(&app.form.body, &path),
        Some(&json!(true))
    );
    app.update(key(KeyCode::Enter));
    assert_eq!(
        prospect::tui::schema::get(&app.form.body, &path),
        Some(&json!(false))
    );
    app.update(key(KeyCode::Enter));
    assert_eq!(prospect::tui::schema::get(&app.form.body, &path), None);
    assert!(
        app.status
            .as_ref()
            .is_some_and(|s| s.text.contains("not set"))
    );
}

#[test]
fn sections_fold_and_find_unfolds_the_one_it_lands_in() {
    use prospect::tui::app::FormRow;
    use prospect::tui::labels::Section;
    let mut app = started();
    app.focus = Pane::Filters;
    let section_row = |app: &App, s: Section| {
        app.form_rows()
            .iter()
            .position(|r| *r == FormRow::Section(s))
            .unwrap()
    };
    let before = app.form_rows().len();
    // Enter on the "company" heading folds it: its members leave the form.
    app.form.sel = section_row(&app, Section::Company);
    app.update(key(KeyCode::Enter));
    let folded = app.form_rows().len();
    assert!(folded < before - 5, "{before} → {folded}");
    assert!(app.form.folded.contains(&Section::Company));
    let s = screen(&render_at(&app, 160, 48));
    assert!(s.contains("▸ company ("), "{s}");
    assert!(!s.contains("Industries"), "{s}");
    // Right unfolds it again, Left on a member folds its section.
    app.update(key(KeyCode::Right));
    assert_eq!(app.form_rows().len(), before);
    app.update(key(KeyCode::Down));
    app.update(key(KeyCode::Left));
    assert!(app.form.folded.contains(&Section::Company));
    assert_eq!(app.form.sel, section_row(&app, Section::Company));
    // `/` still finds a member of a folded section, and unfolds it to edit it.
    app.update(ch('/'));
    for c in "industries".chars() {
        app.update(ch(c));
    }
    app.update(key(KeyCode::Enter));
    assert!(!app.form.folded.contains(&Section::Company));
    match app.popups.last() {
        Some(Popup::Editor(ed)) => assert!(
            ed.leaf.label().starts_with("Industries"),
            "{}",
            ed.leaf.label()
        ),
        other => panic!("the editor of the member found: {other:?}"),
    }
}

/// Issue 18: `S` with no company marked opens the Segments view on the store's
/// segmentations; the one shown is read from the service, its segments listed with the
/// highlighted one's traits as bars; Enter runs a lookalike search seeded with the segment's
/// companies; `A` attributes the loaded companies, filling the `segment` and `fit` columns.
#[test]
fn snapshot_segments_view_lookalikes_and_fit_columns() {
    use prospect::api::types::{
        AttributedDomain, ScoringFeature, Segment, Segmentation, SegmentationStatus,
    };
    use prospect::store::SegmentationRow;
    let mut app = started();
    run_search(&mut app, companies_page(4, 4, None));
    let cmds = app.update(ch('S'));
    assert!(matches!(app.popups.last(), Some(Popup::Segments(_))));
    let traits = |v: &[(&str, &str, f64)]| {
        Some(
            v.iter()
                .map(|(n, val, s)| ScoringFeature {
                    feature_name: n.to_string(),
                    feature_value: val.to_string(),
                    score: *s,
                })
                .collect(),
        )
    };
    let answer_of = Segmentation {
        segmentation_id: 3,
        status: SegmentationStatus::Successful,
        total_addressable_market: Some(4168),
        total_untouched: None,
        segments: vec![
            Segment {
                segment_id: 1,
                name: "Software · Germany".into(),
                domains: vec!["acme0.com".into(), "acme1.com".into(), "acme2.com".into()],
                company_count: 3,
                traits: traits(&[
                    ("industries", "Software", 1.0),
                    ("primary_country", "DE", 0.5),
                    ("technologies", "React", 0.25),
                ]),
                crm_metrics: None,
                lookalike_count: Some(3792),
            },
            Segment {
                segment_id: 2,
                name: "Banking · France".into(),
                domains: vec!["bank.fr".into()],
                company_count: 1,
                traits: traits(&[("industries", "Banking", 1.0)]),
                crm_metrics: None,
                lookalike_count: Some(376),
            },
        ],
    };
    let row = SegmentationRow {
        target: "sandbox".into(),
        id: 3,
        input_key: "segmentation:x".into(),
        domains: 4,
        purchase_id: None,
        status: SegmentationStatus::InProgress,
        answer: None,
        created_at: chrono::Utc::now(),
        updated_at: chrono::Utc::now(),
    };
    answer(
        &mut app,
        &cmds,
        Slot::Segments,
        Outcome::Segmentations {
            rows: vec![row],
            focus: None,
        },
    );
    {
        // The list asked for segmentation 3 from the service: answer it.
        let g = app.generation_of(Slot::Segments);
        app.update(Msg::Done {
            slot: Slot::Segments,
            generation: g,
            result: Ok(Outcome::Segmentation(Box::new(answer_of.clone()))),
        });
        insta::assert_snapshot!("segments_view", render(&app).backend());
        // A: the loaded companies' fit, into the segment and fit columns.
        let cmds = app.update(ch('A'));
        assert!(
            cmds.iter().any(|c| matches!(
                c,
                Command::Call {
                    slot: Slot::SegmentWork,
                    call: Call::Attribute { id: 3, .. },
                    ..
                }
            )),
            "{cmds:?}"
        );
        let results = (0..4)
            .map(|i| AttributedDomain {
                domain: format!("acme{i}.com"),
                segment_id: (i < 3).then_some(1),
                score: (i < 3).then_some(0.9 - i as f64 / 10.0),
            })
            .collect();
        let g = app.generation_of(Slot::SegmentWork);
        app.update(Msg::Done {
            slot: Slot::SegmentWork,
            generation: g,
            result: Ok(Outcome::Attributed { id: 3, results }),
        });
        app.update(key(KeyCode::Esc));
        assert!(app.popups.is_empty());
        app.status = None;
        insta::assert_snapshot!("segments_fit_columns", render(&app).backend());
        // Enter on a segment: a lookalike search seeded with its companies.
        app.update(ch('S'));
        let g = app.generation_of(Slot::Segments);
        let mut done_row = row_with(answer_of);
        done_row.id = 3;
        app.update(Msg::Done {
            slot: Slot::Segments,
            generation: g,
            result: Ok(Outcome::Segmentations {
                rows: vec![done_row],
                focus: Some(3),
            }),
        });
        let cmds = app.update(key(KeyCode::Enter));
        assert!(app.popups.is_empty());
        assert_eq!(
            app.form.body["companiesFilters"]["lookalikeDomains"],
            json!(["acme0.com", "acme1.com", "acme2.com"])
        );
        assert!(
            cmds.iter().any(|c| matches!(
                c,
                Command::Call {
                    slot: Slot::Search(SearchSubject::Companies),
                    ..
                } | Command::Call {
                    slot: Slot::Prepare,
                    ..
                }
            )),
            "{cmds:?}"
        );
    }
}

/// Issue 38, item 5: `Enter` on a segment runs its lookalikes from the seeds alone (the
/// form's industries were silently combined with them), saying so and how to get the filters
/// back; `L` runs the seeds with the form's filters, saying that too.
#[test]
fn a_segments_lookalikes_are_seeds_only_unless_asked_with_my_filters() {
    use prospect::api::types::{Segment, Segmentation, SegmentationStatus};
    let seg = Segmentation {
        segmentation_id: 3,
        status: SegmentationStatus::Successful,
        total_addressable_market: Some(4168),
        total_untouched: None,
        segments: vec![Segment {
            segment_id: 1,
            name: "Software · Germany".into(),
            domains: vec!["acme0.com".into(), "acme1.com".into()],
            company_count: 2,
            traits: None,
            crm_metrics: None,
            lookalike_count: Some(3551),
        }],
    };
    let open = |app: &mut App| {
        app.update(ch('S'));
        let g = app.generation_of(Slot::Segments);
        app.update(Msg::Done {
            slot: Slot::Segments,
            generation: g,
            result: Ok(Outcome::Segmentations {
                rows: vec![row_with(seg.clone())],
                focus: Some(3),
            }),
        });
        assert!(matches!(app.popups.last(), Some(Popup::Segments(_))));
    };
    let mut app = started();
    let industries = json!({"industries": ["Software Development"]});
    app.form.body["companiesFilters"] = json!({"industries": industries});
    open(&mut app);
    app.update(key(KeyCode::Enter));
    assert!(app.popups.is_empty());
    assert_eq!(
        app.form.body["companiesFilters"],
        json!({"lookalikeDomains": ["acme0.com", "acme1.com"]}),
        "the seeds alone"
    );
    let status = app.status.clone().unwrap().text;
    assert!(
        status.starts_with(
            "Lookalikes of the segment, seeded with 2 of its companies, seeds only, without \
             your 1 filter (Backspace brings them back)"
        ),
        "{status}"
    );
    // Back: the form as it was.
    app.update(key(KeyCode::Backspace));
    assert_eq!(app.form.body["companiesFilters"]["industries"], industries);
    // L: the seeds and the filters.
    open(&mut app);
    app.update(ch('L'));
    assert_eq!(app.form.body["companiesFilters"]["industries"], industries);
    assert_eq!(
        app.form.body["companiesFilters"]["lookalikeDomains"],
        json!(["acme0.com", "acme1.com"])
    );
    let status = app.status.clone().unwrap().text;
    assert!(
        status.starts_with(
            "Lookalikes of the segment, seeded with 2 of its companies, seeds + your 1 filter"
        ),
        "{status}"
    );
}

fn row_with(answer: prospect::api::types::Segmentation) -> prospect::store::SegmentationRow {
    prospect::store::SegmentationRow {
        target: "sandbox".into(),
        id: answer.segmentation_id,
        input_key: String::new(),
        domains: 4,
        purchase_id: None,
        status: answer.status.clone(),
        answer: Some(answer),
        created_at: chrono::Utc::now(),
        updated_at: chrono::Utc::now(),
    }
}

/// Issue 38, item 11: at 60×16 the Results title says the rows short (`1–25/39726`) rather
/// than cut the total (`… of 3972`); at 120 columns it is whole.
#[test]
fn a_narrow_results_title_keeps_the_total_whole() {
    let mut app = started();
    run_search(&mut app, companies_page(25, 39726, Some("c1")));
    let mut t = Terminal::new(TestBackend::new(60, 16)).unwrap();
    t.draw(|f| view::draw(f, &app)).unwrap();
    let top: String = (0..60)
        .map(|x| t.backend().buffer()[(x, 1)].symbol().to_string())
        .collect();
    assert!(top.contains("Results · 1–25/39726"), "{top}");
    let wide = format!("{:?}", render(&app).backend());
    assert!(
        wide.contains("Results · rows 1–25 of 39726 · page 1"),
        "{wide}"
    );
}
