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

#[path = "tui_snapshots/behaviour.rs"]
mod behaviour;
#[path = "tui_snapshots/layout.rs"]
mod layout;
#[path = "tui_snapshots/limits.rs"]
mod limits;
