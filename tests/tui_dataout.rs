//! Data out of the explorer (issue 9: export, copy, facets, help) and the new-user fixes of
//! issue 8 ("What a new user tripped over"), driving `App` with messages only; snapshots on
//! ratatui's TestBackend.
#[path = "support/app.rs"]
mod app_support;
use app_support::{
    answer, call_in, ch, ctrl, key, opts, render_at, screen, search_plan, started_with,
};
use crossterm::event::KeyCode;
use prospect::core::engine::{Action, PagedSearch};
use prospect::core::export::Format;
use prospect::core::owned::JobId;
use prospect::core::request::SearchResponse;
use prospect::tui::app::{App, ExportCounts, ExportPopup, ExportScope, ExportStage, Pane, Popup};
use prospect::tui::msg::{Call, Command, ExportRan, ExportRecords, Msg, Outcome, PageData, Slot};
use prospect::tui::records;
use prospect::tui::schema::{self, DataFields, SearchSubject};
use serde_json::{Value, json};

fn data_fields() -> Value {
    json!({
        "industries": [{"industryCategory": "Technology", "industries": ["Software", "IT Services"]}],
        "linkedinIndustries": ["Computer Software"],
        "technologies": [{"name": "React", "categories": ["JavaScript frameworks"]}],
        "regions": {"de": [{"code": "BE", "englishName": "Berlin", "localName": "Berlin"}]},
        "seniorities": ["Owner", "Founder", "C-Level", "VP", "Director", "Manager"],
        "departments": ["Engineering", "Sales"]
    })
}

fn balance() -> Value {
    json!({"credits": {"oneTime": 950, "recurrent": 40.5}, "emailCredits": {"oneTime": 100, "recurrent": 0},
           "phoneCredits": {"oneTime": 0, "recurrent": 0}, "dailyLimitRateLeft": 987, "dailyLimitRateSecondsToReset": 3725})
}

fn company(i: usize) -> Value {
    let cc = ["de", "us", "fr", "de"][i % 4];
    let size = ["11-50", "51-200", "201-500"][i % 3];
    let industry = ["Software", "IT Services", "Banking"][i % 3];
    let rel = ["A", "B", "C"][i % 3];
    json!({
        "company": {
            "name": format!("Acme {i}"), "domain": format!("acme{i}.com"),
            "description": "Makes anvils and rockets.", "primaryCountry": cc, "countries": [cc, "fr"],
            "companySize": size, "industries": [industry], "yearFounded": 1975 + (i * 7) % 45,
            "employeeCountService": 120 + i, "keywords": ["anvils", "rockets"],
            "technologies": ["React", "Stripe"]
        },
        "relevance": rel
    })
}

fn person(i: usize) -> Value {
    let cc = ["de", "us"][i % 2];
    let sen = ["Head", "Manager", "VP"][i % 3];
    let dep = ["Engineering", "Sales"][i % 2];
    json!({
        "id": format!("p{i}"), "domain": "acme1.com", "name": format!("Person {i}"),
        "jobTitle": "Head of Engineering", "country": cc,
        "seniorities": [sen], "departments": [dep],
        "company": {"name": "Acme 1", "companySize": "51-200"}, "relevance": "A"
    })
}

fn page(kind: SearchSubject, n: usize, from: usize, total: u64, cursor: Option<&str>) -> PageData {
    let resp = match kind {
        SearchSubject::Companies => SearchResponse::CompaniesV3(
            serde_json::from_value(json!({"companies": (from..from + n).map(company).collect::<Vec<_>>(), "total": total, "searchAfter": cursor})).unwrap(),
        ),
        SearchSubject::People => SearchResponse::PeopleV3(
            serde_json::from_value(json!({"people": (from..from + n).map(person).collect::<Vec<_>>(), "total": total, "searchAfter": cursor})).unwrap(),
        ),
    };
    records::page(resp)
}

/// The generation of the call the commands started in `slot`.
fn started() -> App {
    started_with(opts(), data_fields(), balance())
}

/// The app with one page of 25 companies of a total of 39,726 (cursor "c1").
fn with_companies() -> App {
    let mut app = started();
    let cmds = app.update(ctrl('r'));
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(page(SearchSubject::Companies, 25, 0, 39_726, Some("c1"))),
    );
    app.status = None;
    app
}

fn fixed_now() -> chrono::NaiveDateTime {
    chrono::NaiveDate::from_ymd_opt(2026, 11, 23)
        .unwrap()
        .and_hms_opt(14, 39, 0)
        .unwrap()
}

/// Opens the export popup with a fixed clock (the file name holds the time).
fn open_export(app: &mut App) {
    assert!(app.update(ctrl('e')).is_empty());
    let Some(Popup::Export(p)) = app.popups.pop() else {
        panic!("Ctrl-e opens the export popup: {:?}", app.popups);
    };
    app.popups.push(Popup::Export(Box::new(ExportPopup::new(
        p.kind,
        p.counts,
        fixed_now(),
        p.dir,
    ))));
}

fn export_popup(app: &App) -> &ExportPopup {
    match app.popups.last() {
        Some(Popup::Export(p)) => p,
        other => panic!("no export popup: {other:?}"),
    }
}

fn export_cmd(cmds: Vec<Command>) -> prospect::tui::msg::ExportFile {
    cmds.into_iter()
        .find_map(|c| match c {
            Command::Export(f) => Some(f),
            _ => None,
        })
        .expect("an export command")
}

// ------------------------------------------------------------------ export

#[test]
fn snapshot_export_popup() {
    let mut app = with_companies();
    open_export(&mut app);
    let p = export_popup(&app);
    assert_eq!(
        p.counts,
        ExportCounts {
            page: 25,
            fetched: 25,
            marked: 0,
            total: Some(39_726)
        }
    );
    insta::assert_snapshot!(render_at(&app, 120, 34).backend());
}

#[test]
fn export_of_the_first_n_asks_for_the_missing_pages_fetches_them_and_writes_n_rows() {
    let mut app = with_companies();
    open_export(&mut app);
    // Rows: this page → pages fetched → first N.
    app.update(key(KeyCode::Tab));
    app.update(key(KeyCode::Tab));
    assert_eq!(export_popup(&app).scope, ExportScope::FirstN);
    app.update(key(KeyCode::Down));
    for _ in 0..8 {
        app.update(key(KeyCode::Backspace));
    }
    for c in "80".chars() {
        app.update(ch(c));
    }
    // JSONL.
    app.update(key(KeyCode::Down));
    app.update(key(KeyCode::Tab));
    // Enter: the engine plans the search of the first 80 (free); nothing paid is sent.
    let cmds = app.update(key(KeyCode::Enter));
    let slot = Slot::Export(SearchSubject::Companies);
    match call_in(&cmds, slot).1 {
        Call::PlanExport { action } => assert!(
            matches!(&*action, Action::Search { limit: 80, endpoint, .. } if endpoint == "/v3/search/companies"),
            "{action:?}"
        ),
        other => panic!("{other:?}"),
    }
    // The store owns the 25 shown; 55 to buy, at 0.2 each 11 credits > 10 (the CLI's
    // `--dry-run` plans the same): asks first.
    let plan = search_plan(25, 55, 1, None);
    let asked = answer(
        &mut app,
        &cmds,
        slot,
        Outcome::ExportPlanned(Box::new(plan)),
    );
    assert!(
        asked.is_empty(),
        "nothing is sent before the answer: {asked:?}"
    );
    match export_popup(&app).stage {
        ExportStage::Confirm {
            results,
            requests,
            cost,
        } => {
            assert_eq!((results, requests), (55, 1));
            assert!((cost.standard - 11.0).abs() < 1e-9, "{cost:?}");
        }
        other => panic!("{other:?}"),
    }
    insta::assert_snapshot!("export_confirm", render_at(&app, 120, 34).backend());
    // Yes: one run through the engine's door (issue 35), a job with its file and format.
    let run = app.update(ch('y'));
    let (generation, call) = call_in(&run, slot);
    match call {
        Call::ExportRun {
            action, plan, have, ..
        } => {
            assert!(
                matches!(&*action, Action::Search { limit: 80, .. }),
                "{action:?}"
            );
            assert_eq!(have, 25, "the rows the tab shows are not handed on again");
            let options = plan.job_options.expect("the file a resume writes");
            assert_eq!(options["format"], "jsonl");
            assert!(
                plan.action
                    .starts_with("export of the first 80 companies to ")
            );
        }
        other => panic!("{other:?}"),
    }
    // Its pages come as each is kept, and join the tab.
    for i in 1..=3 {
        let n = if i == 3 { 5 } else { 25 };
        let page = page(SearchSubject::Companies, n, i * 25, 39_726, None);
        let cmds = app.update(Msg::Progress {
            slot,
            generation,
            outcome: Box::new(Outcome::Page(page)),
        });
        assert!(cmds.is_empty(), "{cmds:?}");
        if i == 2 {
            insta::assert_snapshot!("export_fetching", render_at(&app, 120, 34).backend());
        }
    }
    assert_eq!(
        app.results.companies.pages.len(),
        4,
        "bought pages join the tab"
    );
    // `n` past the tab's last page while the run goes on asks nothing: the run buys those
    // pages, and a page asked beside it would be bought twice.
    let popup = app.popups.pop();
    app.results.companies.page = 3;
    let cmds = app.update(ch('n'));
    assert!(
        !cmds.iter().any(|c| matches!(
            c,
            Command::Call {
                call: Call::Search { .. },
                ..
            }
        )),
        "{cmds:?}"
    );
    let status = &app.status.as_ref().unwrap().text;
    assert!(status.contains("The export is fetching"), "{status}");
    app.popups.extend(popup);
    let done = ran(&app, Some(JobId(7)), false);
    let file = export_cmd(answer(&mut app, &run, slot, done));
    assert_eq!(file.format, Format::Jsonl);
    assert!(
        file.path
            .display()
            .to_string()
            .ends_with("prospect-companies-20261123-1439.jsonl")
    );
    match &file.records {
        ExportRecords::Companies(c) => {
            assert_eq!(c.len(), 80);
            assert_eq!(c[79].company.domain, "acme79.com");
        }
        other => panic!("{other:?}"),
    }
    assert!(app.export_job.is_none());
}

/// Opens the export popup on "first N" (the default N) and presses Enter: the commands that
/// plan the export.
fn ask_first_n(app: &mut App) -> Vec<Command> {
    open_export(app);
    app.update(key(KeyCode::Tab));
    app.update(key(KeyCode::Tab));
    app.update(key(KeyCode::Enter))
}

/// [`ask_first_n`] under a threshold of 1,000 credits, answered with a plan of 25 owned and 25
/// to buy: the commands that run the export.
fn run_first_n(app: &mut App) -> Vec<Command> {
    app.opts.confirm_above = 1000.0;
    let planning = ask_first_n(app);
    let plan = search_plan(25, 25, 1, None);
    let slot = Slot::Export(SearchSubject::Companies);
    answer(app, &planning, slot, Outcome::ExportPlanned(Box::new(plan)))
}

/// The end of an export's run of the companies tab of `app`: its job, and whether it stopped.
fn ran(app: &App, job: Option<JobId>, stopped: bool) -> Outcome {
    let first = app.results.companies.request.clone().unwrap();
    Outcome::ExportRan(Box::new(ExportRan {
        job,
        paging: PagedSearch::new(first),
        stopped,
        error: None,
        charge: Default::default(),
        warnings: Vec::new(),
    }))
}

#[test]
fn marked_rows_scope_says_none_are_marked() {
    let mut app = with_companies();
    open_export(&mut app);
    for _ in 0..3 {
        app.update(key(KeyCode::Tab));
    }
    assert_eq!(export_popup(&app).scope, ExportScope::Marked);
    assert!(app.update(key(KeyCode::Enter)).is_empty());
    assert_eq!(
        export_popup(&app).problem.as_deref(),
        Some("no rows are marked")
    );
}

/// With rows marked, the export starts on them (issue 8: the default ignored the marks).
#[test]
fn export_starts_on_the_marked_rows_when_rows_are_marked() {
    let mut app = with_companies();
    app.focus = Pane::Results;
    app.update(ch(' '));
    app.update(ch('j'));
    app.update(ch(' '));
    open_export(&mut app);
    assert_eq!(export_popup(&app).scope, ExportScope::Marked);
    let file = export_cmd(app.update(key(KeyCode::Enter)));
    assert_eq!(file.records.len(), 2, "the two marked rows");
}

// ------------------------------------------------------------------ copy

fn copied(cmds: Vec<Command>) -> String {
    cmds.into_iter()
        .find_map(|c| match c {
            Command::Copy(t) => Some(t),
            _ => None,
        })
        .expect("a copy command")
}

// ------------------------------------------------------------------ facets

#[test]
fn snapshot_facets_pane() {
    let mut app = with_companies();
    // A second page: the charts count over both.
    let cmds = app.update(ch('n'));
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(page(SearchSubject::Companies, 25, 25, 39_726, Some("c2"))),
    );
    app.update(ch('f'));
    let Some(Popup::Facets(v)) = app.popups.last() else {
        panic!("f opens the facets pane");
    };
    assert_eq!(v.loaded, 50);
    assert_eq!(v.coverage(), "over 50 loaded of 39,726");
    let t = render_at(&app, 120, 40);
    assert!(screen(&t).contains("over 50 loaded of 39,726"));
    insta::assert_snapshot!(t.backend());
    app.update(ch('f'));
    assert!(app.popups.is_empty(), "f closes it again");
}

#[test]
fn people_facets_are_seniority_department_country() {
    let mut app = started();
    app.update(ch('t'));
    let cmds = app.update(ctrl('r'));
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::People),
        Outcome::Page(page(SearchSubject::People, 10, 0, 10, None)),
    );
    app.update(ch('f'));
    let Some(Popup::Facets(v)) = app.popups.last() else {
        panic!("f opens the facets pane");
    };
    let names: Vec<&str> = v.facets.iter().map(|f| f.name).collect();
    assert_eq!(names, ["seniority", "department", "country"]);
    assert!(screen(&render_at(&app, 120, 40)).contains("over 10 loaded of 10"));
}

// ------------------------------------------------------------------ help

#[test]
fn snapshot_help_lists_the_data_out_keys() {
    let mut app = started();
    app.update(ch('?'));
    let t = render_at(&app, 120, 40);
    let s = screen(&t);
    for (k, what) in [
        ("Ctrl-e", "export"),
        ("y ", "copy the selected field"),
        ("Y ", "copy the selected row as JSON"),
        ("C ", "copy the request as curl"),
        ("f ", "charts of the loaded results"),
    ] {
        assert!(
            s.lines().any(|l| l.contains(k) && l.contains(what)),
            "{k} {what} in\n{s}"
        );
    }
    insta::assert_snapshot!(t.backend());
}

/// At 80×24 the help does not fit: it is one column (no description cut to a stub), says which
/// lines it shows, and scrolls with the movement keys to its last line and back.
#[test]
fn help_at_80x24_is_one_column_and_scrolls_to_every_binding() {
    let mut app = started();
    app.update(ch('?'));
    let s = screen(&render_at(&app, 80, 24));
    assert!(s.contains("lines 1–"), "position shown:\n{s}");
    assert!(
        s.lines()
            .any(|l| l.contains("Ctrl-r") && l.contains("run the search")),
        "whole descriptions in one column:\n{s}"
    );
    assert!(!s.contains("Bindings can be changed"), "{s}");
    app.update(ch('G'));
    let bottom = screen(&render_at(&app, 80, 24));
    assert!(bottom.contains("Bindings can be changed"), "{bottom}");
    // Every binding of the keymap is reachable by scrolling.
    let mut seen = String::new();
    app.update(ch('g'));
    for _ in 0..80 {
        seen.push_str(&screen(&render_at(&app, 80, 24)));
        app.update(ch('j'));
    }
    for (keys, what) in app.opts.keymap.help() {
        let first = keys.split(' ').next().unwrap();
        assert!(
            seen.lines().any(|l| l.contains(first) && l.contains(what)),
            "{keys} {what} reachable"
        );
    }
    // One step up from the bottom moves at once (no dead scroll past the end).
    app.update(ch('G'));
    app.update(ch('k'));
    assert!(!screen(&render_at(&app, 80, 24)).contains("Bindings can be changed"));
    app.update(key(KeyCode::Esc));
    assert!(app.popups.is_empty());
}

// ------------------------------------------------------------------ issue 8: new-user fixes

#[test]
fn a_pasted_list_becomes_one_item_per_line_or_comma_and_is_sanitized() {
    let mut app = started();
    // Find the keywords member and open its editor.
    app.update(ch('/'));
    for c in "keywords".chars() {
        app.update(ch(c));
    }
    app.update(key(KeyCode::Enter));
    assert!(matches!(app.popups.last(), Some(Popup::Editor(_))));
    app.update(Msg::Paste("anvils\nrockets, \u{1b}[31mcoyote\r\n\n".into()));
    let body = app.request_body().to_string();
    assert!(body.contains(r#"["anvils","rockets","coyote"]"#), "{body}");
}

/// Companies with long names and the widest size range.
fn long_companies() -> App {
    let mut app = started();
    let cmds = app.update(ctrl('r'));
    let companies: Vec<Value> = (0..25)
        .map(|i| {
            let size = ["50001-100000", "11-50"][i % 2];
            json!({"company": {
                "name": format!("Globex International Holdings {i}"),
                "domain": format!("globex-international-{i}.example.com"),
                "primaryCountry": "de", "companySize": size,
                "industries": ["Software Development"], "yearFounded": 1998,
                "employeeCountService": 64_000 + i
            }, "relevance": "A"})
        })
        .collect();
    let resp = SearchResponse::CompaniesV3(
        serde_json::from_value(
            json!({"companies": companies, "total": 39_726, "searchAfter": "c1"}),
        )
        .unwrap(),
    );
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(records::page(resp)),
    );
    app
}

#[test]
fn snapshot_layout_80x24_keeps_names_readable_and_numbers_whole() {
    let app = long_companies();
    let t = render_at(&app, 80, 24);
    let s = screen(&t);
    assert!(s.contains("Globex Inter"), "names keep their minimum:\n{s}");
    assert!(
        s.contains("globex-inter"),
        "domains keep their minimum:\n{s}"
    );
    assert!(
        s.contains("50001-100000"),
        "a size range is never cut:\n{s}"
    );
    // The gauge line shows every pool and the daily allowance whole.
    let gauge = s.lines().find(|l| l.contains("Credits")).unwrap();
    assert!(
        gauge.contains("phone 0") && gauge.contains("daily 987"),
        "{gauge}"
    );
    insta::assert_snapshot!(t.backend());
}

#[test]
fn snapshot_layout_160x48_shows_every_column() {
    let app = long_companies();
    let t = render_at(&app, 160, 48);
    let s = screen(&t);
    for title in ["employees", "industry", "year", "rel."] {
        assert!(s.contains(title), "{title}:\n{s}");
    }
    assert!(s.contains("50001-100000"));
    assert!(s.contains("64000"));
    assert!(
        s.contains("rel. = relevance: A best match"),
        "the legend:\n{s}"
    );
    assert!(s.contains("(one-time+recurrent)"));
    insta::assert_snapshot!(t.backend());
}

#[test]
fn the_status_line_follows_the_page_shown_and_drops_a_stale_error() {
    let mut app = with_companies();
    app.last_error = Some("The search failed: old".into());
    let cmds = app.update(ch('n'));
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(page(SearchSubject::Companies, 25, 25, 39_726, Some("c2"))),
    );
    assert_eq!(
        app.last_error, None,
        "a search that works clears the old error"
    );
    assert_eq!(app.status.as_ref().unwrap().text, "Rows 26–50 of 39726");
    app.update(ch('p'));
    assert_eq!(app.status.as_ref().unwrap().text, "Rows 1–25 of 39726");
    app.update(ch('n'));
    assert_eq!(app.status.as_ref().unwrap().text, "Rows 26–50 of 39726");
    app.update(ch('t'));
    assert_eq!(app.status, None, "the other tab's range is not shown");
}

#[test]
fn the_country_picker_finds_germany_by_english_name_endonym_and_code() {
    let df: prospect::api::types::DataFields = serde_json::from_value(json!({
        "regions": {"bd": [], "de": [], "dk": [], "gb": [], "us": [], "at": []}
    }))
    .unwrap();
    let opts = schema::SetId::Countries.options(&DataFields::from_api(&df));
    for q in ["germany", "Deutschland", "de"] {
        let hits = prospect::tui::app::fuzzy_filter(&opts, q);
        assert_eq!(opts[hits[0]].value, json!("de"), "{q}: {:?}", opts[hits[0]]);
    }
    let hits = prospect::tui::app::fuzzy_filter(&opts, "uk");
    assert_eq!(opts[hits[0]].value, json!("gb"));
}

#[test]
fn a_rejected_token_at_start_is_said_once_with_the_fix_and_errors_are_plain_words() {
    use prospect::api::error::ApiError;
    use prospect::tui::msg::ApiFailure;
    let mut app = App::new(opts());
    let cmds = app.start();
    for slot in [Slot::DataFields, Slot::Balance] {
        let (generation, _) = call_in(&cmds, slot);
        app.update(Msg::Done {
            slot,
            generation,
            result: Err(ApiFailure::from(ApiError::UnknownToken)),
        });
    }
    let popups: Vec<&String> = app
        .popups
        .iter()
        .filter_map(|p| match p {
            Popup::Error(t) => Some(&t.0),
            _ => None,
        })
        .collect();
    assert_eq!(popups.len(), 1, "said once: {popups:?}");
    assert!(
        popups[0].starts_with("Token rejected by http://127.0.0.1:4000: check PROSPECT_API_TOKEN"),
        "{}",
        popups[0]
    );
    let net = ApiFailure::from(ApiError::Network(
        "error sending request for url (http://x/): tcp connect error: Connection refused (os error 111)".into(),
    ));
    assert_eq!(
        net.message,
        "Cannot reach the service (network error; details in the log)"
    );
}

/// The header line of the results table on `s` (the line naming the columns).
fn header_line(s: &str) -> String {
    s.lines()
        .find(|l| l.contains("name ") && l.contains("cc"))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn columns_can_be_hidden_ordered_and_sorted_remembered_and_widths_stay_across_pages() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("columns.json");
    let mut app = with_companies();
    app.opts.columns_file = Some(file.clone());
    app.focus = Pane::Results;
    let page1 = header_line(&screen(&render_at(&app, 120, 34)));
    let cmds = app.update(ch('n'));
    let mut long = page(SearchSubject::Companies, 25, 25, 39_726, Some("c2"));
    // A longer industry on page 2 only: the columns were already measured over page 1.
    long.rows[3].cells[4] = "Industrial Machinery Manufacturing".into();
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(long),
    );
    app.status = None;
    let page2 = header_line(&screen(&render_at(&app, 120, 34)));
    app.update(ch('p'));
    let back = header_line(&screen(&render_at(&app, 120, 34)));
    assert_eq!(back, page2, "page 1 again: the same widths as page 2");
    assert!(!page1.is_empty() && !page2.is_empty());

    // The picker: hide domain, move year before size, sort by employees, largest first.
    app.update(ch('o'));
    let s = screen(&render_at(&app, 120, 34));
    assert!(s.contains("Columns of the companies tab"), "{s}");
    assert!(
        s.contains("Space show / hide · ← h / → l move · Enter sort"),
        "{s}"
    );
    app.update(key(KeyCode::Down));
    app.update(ch(' '));
    for _ in 0..4 {
        app.update(key(KeyCode::Down));
    }
    app.update(key(KeyCode::Left));
    app.update(key(KeyCode::Left));
    app.update(key(KeyCode::Down));
    app.update(key(KeyCode::Down));
    app.update(key(KeyCode::Down));
    app.update(key(KeyCode::Enter));
    app.update(key(KeyCode::Enter));
    let s = screen(&render_at(&app, 120, 34));
    assert!(s.contains("employees  sorted ↓"), "{s}");
    app.update(key(KeyCode::Esc));
    assert!(app.popups.is_empty());
    let s = screen(&render_at(&app, 120, 34));
    assert!(
        s.contains("sorted by employees ↓, over the 50 loaded rows"),
        "{s}"
    );
    let header = header_line(&s);
    assert!(!header.contains("domain"), "{header}");
    let (y, size) = (header.find("year").unwrap(), header.find("size").unwrap());
    assert!(y < size, "year moved before size: {header}");
    // Every loaded row, largest first: Acme 49 has 169 employees.
    let first = app.search(SearchSubject::Companies).shown(0).unwrap();
    assert_eq!(first.cells[0], "Acme 49");
    assert_eq!(app.search(SearchSubject::Companies).shown_len(), 50);
    // Remembered: the file holds the choice, and a new explorer reads it back.
    let kept = prospect::tui::components::columns::ColumnSet::load(&file).unwrap();
    assert_eq!(kept, app.results.columns);
    let shown = kept.shown(SearchSubject::Companies);
    assert!(!shown.contains(&1), "domain hidden: {shown:?}");
    // The picker again (employees is 7th now): Enter a third time goes back to pages.
    app.update(ch('o'));
    for _ in 0..6 {
        app.update(key(KeyCode::Down));
    }
    app.update(key(KeyCode::Enter));
    app.update(key(KeyCode::Esc));
    assert!(app.search(SearchSubject::Companies).sorted.is_none());
}

/// Issue 19, "Columns": at 160 columns a revealed email of usual length is shown whole (the
/// job title gives way first).
#[test]
fn at_160_columns_an_email_is_shown_whole() {
    let mut app = started();
    app.update(ch('t'));
    let cmds = app.update(ctrl('r'));
    let mut p = page(SearchSubject::People, 25, 0, 100, None);
    let email = "karen.johnson-whitfield@globex-international.example";
    for row in &mut p.rows {
        if let prospect::tui::msg::Record::Person { person, .. } = &mut row.record {
            person.job_title = Some("Vice President of Global Strategic Partnerships".into());
            person.email = Some(
                serde_json::from_value(json!({"address": email, "status": "verified"})).unwrap(),
            );
        }
        row.cells = row.record.cells();
    }
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::People),
        Outcome::Page(p),
    );
    let s = screen(&render_at(&app, 160, 48));
    assert!(s.contains(email), "{s}");
    assert!(
        s.contains("Vice President of"),
        "the job title is shown, cut: {s}"
    );
}

#[path = "tui_dataout/copy.rs"]
mod copy;
#[path = "tui_dataout/editing.rs"]
mod editing;
#[path = "tui_dataout/export.rs"]
mod export;
