//! Layout and input: too small a terminal, mouse clicks and the wheel, a form per tab, toggles, folded sections, lookalike seeds, narrow titles.

use super::*;

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
