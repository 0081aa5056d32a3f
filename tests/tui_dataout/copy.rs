//! Copying out: y, Y and c, an email without its status, the details' field cursor.

use super::*;

#[test]
fn y_copies_the_name_or_a_details_field_upper_y_the_row_and_c_the_curl() {
    let mut app = with_companies();
    app.focus = Pane::Results;
    app.update(key(KeyCode::Down));
    assert_eq!(copied(app.update(ch('y'))), "Acme 1");
    let row: Value = serde_json::from_str(&copied(app.update(ch('Y')))).unwrap();
    assert_eq!(row["domain"], "acme1.com");
    assert_eq!(row["relevance"], "B");
    assert_eq!(row["keywords"], json!(["anvils", "rockets"]));
    let curl = copied(app.update(ch('C')));
    assert!(curl.contains("$PROSPECT_API_TOKEN"), "{curl}");
    assert!(
        curl.contains("http://127.0.0.1:4000/v3/search/companies"),
        "{curl}"
    );
    assert!(curl.contains(r#""size":25"#), "{curl}");
    // In the details, the field at the top of the pane.
    app.focus = Pane::Details;
    let first = copied(app.update(ch('y')));
    assert!(!first.is_empty());
    app.update(Msg::Copied(Ok("312 bytes (OSC 52)".into())));
    assert_eq!(
        app.status.as_ref().unwrap().text,
        "copied 312 bytes (OSC 52)"
    );
    app.update(Msg::Copied(Err("no clipboard".into())));
    assert!(app.status.as_ref().unwrap().text.contains("Not copied"));
}

/// `y` on a revealed email in the details copies the address alone, not its status
/// (issue 38: it copied `a@acme1.com [verified]`).
#[test]
fn y_on_an_email_copies_the_address_without_its_status() {
    let mut app = started();
    app.update(ch('t'));
    let cmds = app.update(ctrl('r'));
    let mut p = person(0);
    p["email"] = json!({"address": "florian.schmidt@teamviewer.example", "status": "verified"});
    let resp = SearchResponse::PeopleV3(
        serde_json::from_value(json!({"people": [p], "total": 1})).unwrap(),
    );
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::People),
        Outcome::Page(records::page(resp)),
    );
    app.focus = Pane::Details;
    let row = app
        .search(SearchSubject::People)
        .selected()
        .unwrap()
        .clone();
    let at = (0..)
        .find(|&i| {
            prospect::tui::components::details::field_at(&row, i).map(|f| f.0)
                == Some("email".to_string())
        })
        .unwrap();
    // The pane knows how many fields it has once drawn.
    render_at(&app, 120, 40);
    for _ in 0..at {
        app.update(key(KeyCode::Down));
    }
    assert_eq!(
        copied(app.update(ch('y'))),
        "florian.schmidt@teamviewer.example"
    );
}

#[test]
fn details_have_a_field_cursor_the_pane_follows_and_y_copies_its_field() {
    let mut app = with_companies();
    app.focus = Pane::Details;
    render_at(&app, 120, 34);
    let fields = app.details.fields.get();
    assert!(
        app.details.max_scroll.get() > 0,
        "the company details are longer than the pane"
    );
    assert!(fields > 10, "{fields}");
    app.update(ch('G'));
    assert_eq!(app.details.cursor, fields - 1);
    for _ in 0..50 {
        app.update(ch('j'));
    }
    assert_eq!(app.details.cursor, fields - 1, "j stops at the last field");
    // The pane scrolled to the last field, which is on screen and highlighted.
    let s = screen(&render_at(&app, 120, 34));
    let row = app
        .search(SearchSubject::Companies)
        .selected()
        .unwrap()
        .clone();
    let (last, _) = prospect::tui::components::details::field_at(&row, fields - 1).unwrap();
    assert!(s.contains(&format!("{last}: ")), "{last}: {s}");
    assert_eq!(app.details.scroll.get(), app.details.max_scroll.get());
    app.update(ch('g'));
    assert_eq!(app.details.cursor, 0);
    render_at(&app, 120, 34);
    assert_eq!(app.details.scroll.get(), 0, "back at the top");
    // y copies the highlighted field: the third one after two moves down.
    app.update(ch('j'));
    app.update(ch('j'));
    let row = app
        .search(SearchSubject::Companies)
        .selected()
        .unwrap()
        .clone();
    let (label, value) = prospect::tui::components::details::field_at(&row, 2).unwrap();
    assert_eq!(copied(app.update(ch('y'))), value, "field {label}");
    // The highlighted line is drawn in the selection style.
    let term = render_at(&app, 120, 34);
    let buf = term.backend().buffer();
    let needle = format!("{label}: ");
    let (x, y) = (0..34u16)
        .find_map(|y| {
            let cells: Vec<String> = (0..120u16)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect();
            let text = cells.concat();
            let at = text.find(&needle)?;
            Some((text[..at].chars().count() as u16, y))
        })
        .expect("the field is on screen");
    assert_eq!(
        buf[(x, y)].style().bg,
        prospect::tui::components::widgets::selected().bg,
        "the field under the cursor is highlighted"
    );
}
