//! Exports from the explorer: layouts at 80 columns, this page as CSV, closed or troubled or stopped exports, a set tab's export, nothing to export, the export directory.

use super::*;

/// Issue 38 (item 11): at 80×24 the CRM layouts' names stay on their line: what a layout holds
/// is said on the line below, never wrapped out of the popup's field (it wrapped to column 0).
#[test]
fn the_export_layouts_stay_on_their_line_at_80_columns() {
    let mut app = started();
    app.update(ch('t'));
    let cmds = app.update(ctrl('r'));
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::People),
        Outcome::Page(page(SearchSubject::People, 25, 0, 900, None)),
    );
    open_export(&mut app);
    app.update(key(KeyCode::Down));
    app.update(key(KeyCode::Down));
    for name in ["JSONL", "HubSpot contacts CSV", "Salesforce leads CSV"] {
        app.update(key(KeyCode::Tab));
        let screen = render_at(&app, 80, 24).backend().to_string();
        let format = screen
            .lines()
            .find(|l| l.contains("Format  ‹"))
            .unwrap_or_else(|| panic!("{screen}"));
        assert!(format.contains(&format!("‹ {name} ›")), "{screen}");
        let at = screen.lines().position(|l| l == format).unwrap();
        let below = screen.lines().nth(at + 1).unwrap();
        assert!(
            below.contains("│         "),
            "the note is indented: {screen}"
        );
        if name != "JSONL" {
            assert!(below.contains("verified + catch-all emails"), "{screen}");
        }
    }
}

#[test]
fn export_of_this_page_writes_every_row_as_csv_that_parses_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = with_companies();
    open_export(&mut app);
    // Down to the file, replace the name by a path in the temp dir.
    for _ in 0..3 {
        app.update(key(KeyCode::Down));
    }
    for _ in 0..60 {
        app.update(key(KeyCode::Backspace));
    }
    let path = dir.path().join("out.csv");
    app.update(Msg::Paste(path.display().to_string()));
    let file = export_cmd(app.update(key(KeyCode::Enter)));
    assert!(app.popups.is_empty(), "the popup closes");
    assert_eq!(file.path, path);
    assert_eq!(file.format, Format::Csv);
    assert_eq!(file.records.len(), 25);
    let done = prospect::tui::components::export::write_file(&file).unwrap();
    assert_eq!(done.count, 25);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644, "an export is readable by other programs");
    }
    let mut r = csv::Reader::from_path(&path).unwrap();
    let header = r.headers().unwrap().clone();
    assert_eq!(&header[0], "domain");
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 25);
    assert_eq!(&rows[3][0], "acme3.com");
    let kw = header.iter().position(|h| h == "keywords").unwrap();
    assert_eq!(&rows[3][kw], "anvils;rockets", "lists joined with ;");
    app.update(Msg::Exported(Ok(done)));
    let status = app.status.as_ref().unwrap().text.clone();
    assert!(status.starts_with("Exported 25 records to "), "{status}");
}

/// The export popup closed while its plan was being made: the plan that comes back fetches
/// nothing.
#[test]
fn an_export_closed_while_planned_fetches_nothing() {
    let mut app = with_companies();
    app.opts.confirm_above = 1000.0;
    let slot = Slot::Export(SearchSubject::Companies);
    let planning = ask_first_n(&mut app);
    app.update(key(KeyCode::Esc));
    assert!(app.popups.is_empty());
    let plan = search_plan(25, 25, 1, None);
    let after = answer(
        &mut app,
        &planning,
        slot,
        Outcome::ExportPlanned(Box::new(plan)),
    );
    assert!(after.is_empty(), "{after:?}");
    assert!(app.export_job.is_none());
}

/// An export whose run kept an answer only in a recovery file says so, and writes its file.
#[test]
fn an_export_whose_pages_had_trouble_says_so_and_still_writes() {
    let mut app = with_companies();
    let run = run_first_n(&mut app);
    let slot = Slot::Export(SearchSubject::Companies);
    let Outcome::ExportRan(mut end) = ran(&app, Some(JobId(4)), false) else {
        unreachable!()
    };
    end.warnings = vec!["NOT stored: disk full".into()];
    let cmds = answer(&mut app, &run, slot, Outcome::ExportRan(end));
    assert!(
        cmds.iter().any(|c| matches!(c, Command::Export(_))),
        "{cmds:?}"
    );
    match app.popups.last() {
        Some(Popup::Error(e)) => assert!(e.0.contains("NOT stored: disk full"), "{e:?}"),
        other => panic!("{other:?}"),
    }
}

/// The export of a tab that runs a saved set goes on with that run (issue 37): its search
/// carries the set, new-only, with the run's start, so the engine reads the run's pages and
/// sends the same excludes.
#[test]
fn the_export_of_a_set_tab_goes_on_with_the_tabs_run() {
    let mut app = with_companies();
    let run_at = chrono::Utc::now() - chrono::Duration::minutes(3);
    let set = prospect::core::engine::SetSearch {
        name: "dach".into(),
        new_only: true,
        exclude_cap: None,
        run_at: None,
    };
    app.results.companies.set_run = Some(prospect::tui::msg::SetRunOf {
        set: set.clone(),
        run_at,
    });
    let cmds = ask_first_n(&mut app);
    match call_in(&cmds, Slot::Export(SearchSubject::Companies)).1 {
        Call::PlanExport { action } => match *action {
            Action::Search { set: Some(s), .. } => {
                assert_eq!(s.run_at, Some(run_at));
                assert_eq!((s.name.as_str(), s.new_only), ("dach", true));
            }
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

#[test]
fn stopping_a_first_n_export_keeps_the_pages_and_writes_nothing() {
    let mut app = with_companies();
    let run = run_first_n(&mut app);
    let slot = Slot::Export(SearchSubject::Companies);
    let (generation, call) = call_in(&run, slot);
    let Call::ExportRun { stop, .. } = call else {
        panic!("below the threshold the run starts at once: {call:?}");
    };
    assert!(matches!(
        export_popup(&app).stage,
        ExportStage::Fetching { .. }
    ));
    // Esc while a page is on its way: the run is told to stop after it (a paid page is never
    // aborted), and that page still joins the tab.
    assert!(app.update(key(KeyCode::Esc)).is_empty());
    assert!(stop.0.is_cancelled(), "the run is stopped");
    let page = page(SearchSubject::Companies, 25, 25, 39_726, Some("c2"));
    app.update(Msg::Progress {
        slot,
        generation,
        outcome: Box::new(Outcome::Page(page)),
    });
    let end = ran(&app, Some(JobId(3)), true);
    let after = answer(&mut app, &run, slot, end);
    assert!(
        !after.iter().any(|c| matches!(
            c,
            Command::Call {
                call: Call::ExportRun { .. },
                ..
            } | Command::Export(_)
        )),
        "{after:?}"
    );
    assert_eq!(app.results.companies.pages.len(), 2);
    assert!(app.popups.is_empty());
    let status = &app.status.as_ref().unwrap().text;
    assert!(status.contains("nothing written"), "{status}");
    // Its job was left interrupted by the engine: `prospect resume 3` buys the rest.
    assert!(status.contains("prospect resume 3"), "{status}");
}

#[test]
fn nothing_to_export_before_a_search() {
    let mut app = started();
    assert!(
        app.update(ctrl('e'))
            .iter()
            .all(|c| !matches!(c, Command::Export(_)))
    );
    assert!(app.popups.is_empty());
    assert!(
        app.status
            .as_ref()
            .unwrap()
            .text
            .contains("run a search first")
    );
}

#[test]
fn an_export_named_in_the_popup_goes_to_export_dir_and_the_popup_shows_the_whole_path() {
    let dir = tempfile::tempdir().unwrap();
    let exports = dir
        .path()
        .join("a-rather-long-folder-name-for-exports")
        .join("of-this-week");
    let mut app = with_companies();
    app.opts.export_dir = prospect::core::config::ExportDir {
        path: exports.clone(),
        from_config: true,
    };
    open_export(&mut app);
    let Some(Popup::Export(p)) = app.popups.last() else {
        panic!("the export popup is open")
    };
    let want = exports.join("prospect-companies-20261123-1439.csv");
    assert_eq!(p.full_path(), want);
    // The whole path is on screen (wrapped, never cut), and where the folder comes from.
    let s = screen(&render_at(&app, 100, 30));
    let rows: Vec<Vec<char>> = s.lines().map(|l| l.chars().collect()).collect();
    let top = rows
        .iter()
        .position(|r| r.iter().collect::<String>().contains("┌ Export companies"))
        .unwrap();
    let left = rows[top].iter().position(|&c| c == '┌').unwrap();
    let right = rows[top].iter().rposition(|&c| c == '┐').unwrap();
    let inside: String = rows[top + 1..]
        .iter()
        .map(|r| {
            r[left + 1..right]
                .iter()
                .collect::<String>()
                .trim()
                .to_string()
        })
        .collect();
    assert!(inside.contains(&format!("→ {}", want.display())), "{s}");
    assert!(s.contains("(export_dir of config.toml)"), "{s}");
    let cmds = app.update(key(KeyCode::Enter));
    let file = cmds
        .into_iter()
        .find_map(|c| match c {
            Command::Export(f) => Some(f),
            _ => None,
        })
        .expect("an export command");
    assert_eq!(file.path, want);
}
