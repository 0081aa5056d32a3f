//! Editing filters and sets: list editors, sanitized picks, writing back a filters file, going back, undo, unsaved filters at quit, a set saved at quit.

use super::*;

#[test]
fn esc_in_a_list_editor_keeps_the_typed_text() {
    let mut app = started();
    app.update(ch('/'));
    for c in "keywords".chars() {
        app.update(ch(c));
    }
    app.update(key(KeyCode::Enter));
    for c in "fintech".chars() {
        app.update(ch(c));
    }
    app.update(key(KeyCode::Esc));
    assert!(app.popups.is_empty());
    assert!(
        app.request_body().to_string().contains(r#"["fintech"]"#),
        "{}",
        app.request_body()
    );
}

#[test]
fn values_picked_from_suggestions_are_stored_sanitized() {
    let mut app = started();
    app.update(ch('/'));
    for c in "keywords".chars() {
        app.update(ch(c));
    }
    app.update(key(KeyCode::Enter));
    let Some(Popup::Editor(ed)) = app.popups.last_mut() else {
        panic!("editor");
    };
    ed.show_suggestions(vec![(
        "evil".into(),
        Value::String("ev\u{1b}]52;c;AAAA\u{7}il\u{7}".into()),
    )]);
    app.update(key(KeyCode::Down));
    app.update(key(KeyCode::Enter));
    let body = app.request_body().to_string();
    assert!(body.contains(r#"["evil"]"#), "{body}");
    assert!(!body.contains('\u{1b}') && !body.contains('\u{7}'));
}

#[test]
fn ctrl_s_after_filters_file_writes_back_to_that_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.json");
    std::fs::write(
        &file,
        r#"{"endpoint": "/v3/search/companies", "companiesFilters": {"keywords": {"anyOf": ["a"]}}}"#,
    )
    .unwrap();
    let mut o = opts();
    o.filters_dir = dir.path().join("config-filters");
    let mut app = App::new(o);
    app.open_file(&file);
    assert!(app.popups.is_empty(), "{:?}", app.popups);
    schema::set(&mut app.form.body, &["size"], json!(7));
    app.update(ctrl('s'));
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.contains("\"size\": 7"), "{saved}");
    assert!(
        !dir.path().join("config-filters").exists(),
        "nothing in the config dir"
    );
}

#[test]
fn backspace_returns_to_the_search_before_p_and_its_pages() {
    let mut app = with_companies();
    let cmds = app.update(ch('n'));
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(page(SearchSubject::Companies, 25, 25, 39_726, Some("c2"))),
    );
    app.focus = Pane::Results;
    app.update(key(KeyCode::Down));
    let before = app.request_body();
    // L replaces the companies search (lookalikes of acme26.com).
    let cmds = app.update(ch('L'));
    assert!(
        app.request_body().to_string().contains("lookalikeDomains"),
        "{}",
        app.request_body()
    );
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(page(SearchSubject::Companies, 5, 100, 5, None)),
    );
    assert_eq!(app.results.companies.pages.len(), 1);
    assert!(
        !app.update(key(KeyCode::Backspace))
            .iter()
            .any(|c| matches!(c, Command::Call { .. })),
        "no call"
    );
    assert_eq!(app.request_body(), before);
    assert_eq!(app.results.companies.pages.len(), 2, "its pages are back");
    assert_eq!(app.results.companies.page, 1);
    assert_eq!(app.results.companies.sel, 1);
    assert!(
        app.status
            .as_ref()
            .unwrap()
            .text
            .starts_with("Back to the previous search (2 pages kept)"),
        "{:?}",
        app.status
    );
    app.update(key(KeyCode::Backspace));
    assert!(
        app.status
            .as_ref()
            .unwrap()
            .text
            .contains("No earlier search")
    );
}

#[test]
fn clear_all_and_deleting_a_filter_set_can_be_undone() {
    let dir = tempfile::tempdir().unwrap();
    let mut o = opts();
    o.filters_dir = dir.path().join("filters");
    let mut app = App::new(o);
    let body = json!({"size": 10, "companiesFilters": {"yearFounded": {"from": 1990}}});
    app.form.body = body.clone();
    app.update(ch('X'));
    assert_eq!(app.form.body, json!({"size": 10}));
    assert!(
        app.status.as_ref().unwrap().text.contains("u undoes"),
        "{:?}",
        app.status
    );
    app.update(ch('u'));
    assert_eq!(app.form.body, body);
    // Save a set, delete it in the chooser, undo brings the file back.
    app.update(ctrl('s'));
    for c in "keep".chars() {
        app.update(ch(c));
    }
    app.update(key(KeyCode::Enter));
    let file = dir.path().join("filters").join("keep.json");
    assert!(file.exists());
    app.update(ctrl('o'));
    app.update(ch('x'));
    assert!(!file.exists(), "deleted");
    assert!(app.status.as_ref().unwrap().text.contains("u undoes"));
    app.update(ch('u'));
    assert!(file.exists(), "restored");
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .contains("\"from\": 1990")
    );
}

#[test]
fn unsaved_filters_are_marked_and_the_quit_key_asks_before_dropping_them() {
    let dir = tempfile::tempdir().unwrap();
    let mut o = opts();
    o.filters_dir = dir.path().join("filters");
    let mut app = App::new(o);
    // A blank form quits at once.
    assert!(!screen(&render_at(&app, 120, 30)).contains("unsaved"));
    let cmds = app.update(ch('q'));
    assert!(cmds.iter().any(|c| matches!(c, Command::Quit)));
    let mut app = App::new({
        let mut o = opts();
        o.filters_dir = dir.path().join("filters");
        o
    });
    app.form.body = json!({"size": 10, "companiesFilters": {"yearFounded": {"from": 1990}}});
    let s = screen(&render_at(&app, 120, 30));
    assert!(s.contains("Filters · 1 set · unsaved ●"), "{s}");
    // q asks; Esc stays.
    let cmds = app.update(ch('q'));
    assert!(!app.quit && cmds.iter().all(|c| !matches!(c, Command::Quit)));
    let s = screen(&render_at(&app, 120, 30));
    assert!(
        s.contains("The companies filters have changes not in a saved set."),
        "{s}"
    );
    assert!(
        s.contains("Ctrl-s save, then quit · q Ctrl-c quit without saving · Esc stay"),
        "{s}"
    );
    app.update(key(KeyCode::Esc));
    assert!(app.popups.is_empty() && !app.quit);
    // q, then Ctrl-s: no set is open, so the name is asked; saving it quits.
    app.update(ch('q'));
    app.update(ctrl('s'));
    assert!(matches!(app.popups.last(), Some(Popup::SaveName(_))));
    for c in "mine".chars() {
        app.update(ch(c));
    }
    // The prompt shows the whole file it writes.
    let file = dir.path().join("filters").join("mine.json");
    let s = screen(&render_at(&app, 120, 30));
    assert!(s.contains(&format!("→ {}", file.display())), "{s}");
    let cmds = app.update(key(KeyCode::Enter));
    assert!(dir.path().join("filters").join("mine.json").exists());
    assert!(app.quit && cmds.iter().any(|c| matches!(c, Command::Quit)));
    assert!(
        !screen(&render_at(&app, 120, 30)).contains("unsaved"),
        "saved"
    );
    // A saved set changed again is unsaved; q then q quits without saving.
    let mut app = App::new({
        let mut o = opts();
        o.filters_dir = dir.path().join("filters");
        o
    });
    app.update(ctrl('o'));
    app.update(key(KeyCode::Enter));
    assert!(
        !screen(&render_at(&app, 120, 30)).contains("unsaved"),
        "just opened"
    );
    app.form.body["size"] = json!(50);
    assert!(screen(&render_at(&app, 120, 30)).contains("unsaved ●"));
    app.update(ch('q'));
    let cmds = app.update(ch('q'));
    assert!(app.quit && cmds.iter().any(|c| matches!(c, Command::Quit)));
}

/// Issue 38, item 1: with filters on both tabs, "Ctrl-s save, then quit" saves both tabs'
/// forms in the one set (the companies filters were lost), and opening it puts each back in its
/// tab, with nothing unsaved.
#[test]
fn a_set_saved_at_quit_keeps_both_tabs() {
    let dir = tempfile::tempdir().unwrap();
    let with_dir = || {
        let mut o = opts();
        o.filters_dir = dir.path().join("filters");
        o
    };
    let mut app = App::new(with_dir());
    let companies = json!({"size": 25, "companiesFilters": {
        "industries": [["Motor Vehicle Manufacturing"]]}});
    let people = json!({"size": 25, "peopleFilters": {"jobTitles": ["Head of Sales"]},
        "companiesFilters": {"domains": ["bmw.com"]}});
    app.form.body = companies.clone();
    app.update(ch('t'));
    assert_eq!(app.tab(), SearchSubject::People);
    app.form.body = people.clone();
    app.update(ch('q'));
    let s = screen(&render_at(&app, 120, 30));
    assert!(s.contains("companies and people filters"), "{s}");
    app.update(ctrl('s'));
    for c in "both".chars() {
        app.update(ch(c));
    }
    let cmds = app.update(key(KeyCode::Enter));
    assert!(app.quit && cmds.iter().any(|c| matches!(c, Command::Quit)));
    let text = std::fs::read_to_string(dir.path().join("filters").join("both.json")).unwrap();
    assert!(text.contains("Motor Vehicle Manufacturing"), "{text}");
    assert!(text.contains("Head of Sales"), "{text}");

    let mut app = App::new(with_dir());
    app.update(ctrl('o'));
    app.update(key(KeyCode::Enter));
    assert_eq!(app.tab(), SearchSubject::People);
    assert_eq!(app.form.body, people);
    assert_eq!(app.form.other, companies);
    assert!(app.form.unsaved().is_empty(), "{:?}", app.form.unsaved());
    app.update(ch('t'));
    assert_eq!(app.tab(), SearchSubject::Companies);
    assert_eq!(app.form.body, companies);
    assert!(app.form.unsaved().is_empty());
}
