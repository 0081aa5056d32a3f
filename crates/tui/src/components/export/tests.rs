//! Tests of the export popup: cycling its choices and formats, the CRM layouts it writes,
//! and bad input that exports nothing.
use super::*;
use crate::keymap::Keymap;
use crate::msg::{ExportFile, ExportRecords};
use crossterm::event::{KeyCode, KeyModifiers};

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn popup() -> ExportPopup {
    let now = chrono::NaiveDate::from_ymd_opt(2026, 11, 23)
        .unwrap()
        .and_hms_opt(14, 39, 0)
        .unwrap();
    ExportPopup::new(
        SearchSubject::Companies,
        Counts {
            page: 25,
            fetched: 50,
            marked: 0,
            total: Some(39_726),
        },
        now,
        exports(),
    )
}

/// The export folder of the tests (not from a config).
fn exports() -> ExportDir {
    ExportDir {
        path: "/home/user/exports".into(),
        from_config: false,
    }
}

#[test]
fn tab_cycles_choices_and_the_default_name_follows_the_format() {
    let keys = Keymap::default();
    let mut p = popup();
    assert_eq!(p.path_text(), "prospect-companies-20261123-1439.csv");
    let press = |p: &mut ExportPopup, code| {
        let k = key(code);
        p.on_key(k, keys.text_action(&k), keys.action(&k))
    };
    press(&mut p, KeyCode::Tab);
    press(&mut p, KeyCode::Tab);
    assert_eq!(p.scope, Scope::FirstN);
    press(&mut p, KeyCode::Down);
    // N: typed digits replace nothing but append; clear it first.
    for _ in 0..6 {
        press(&mut p, KeyCode::Backspace);
    }
    press(&mut p, KeyCode::Char('6'));
    press(&mut p, KeyCode::Char('0'));
    press(&mut p, KeyCode::Down);
    press(&mut p, KeyCode::Tab);
    assert_eq!(p.format, Format::Jsonl);
    assert_eq!(p.path_text(), "prospect-companies-20261123-1439.jsonl");
    match press(&mut p, KeyCode::Enter) {
        ExportEffect::Export(c) => {
            assert_eq!(c.scope, Scope::FirstN);
            assert_eq!(c.n, 60);
            assert_eq!(c.format, Format::Jsonl);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_format_cycles_to_the_crm_layouts_of_the_tab_and_writes_them() {
    let keys = Keymap::default();
    let now = chrono::NaiveDate::from_ymd_opt(2026, 11, 23)
        .unwrap()
        .and_hms_opt(14, 39, 0)
        .unwrap();
    let counts = Counts {
        page: 2,
        fetched: 2,
        marked: 0,
        total: Some(2),
    };
    let mut p = ExportPopup::new(SearchSubject::People, counts, now, exports());
    let press = |p: &mut ExportPopup, code| {
        let k = key(code);
        p.on_key(k, keys.text_action(&k), keys.action(&k))
    };
    press(&mut p, KeyCode::Down);
    press(&mut p, KeyCode::Down);
    press(&mut p, KeyCode::Tab);
    press(&mut p, KeyCode::Tab);
    assert_eq!(
        (p.format, p.preset),
        (Format::Csv, Some(Preset::HubspotContacts))
    );
    assert_eq!(p.path_text(), "prospect-people-20261123-1439.csv");
    press(&mut p, KeyCode::Tab);
    assert_eq!(p.preset, Some(Preset::SalesforceLeads));
    press(&mut p, KeyCode::BackTab);
    let dir = tempfile::tempdir().unwrap();
    p.path = textarea(&dir.path().join("hs.csv").display().to_string());
    let ExportEffect::Export(c) = press(&mut p, KeyCode::Enter) else {
        panic!("no export");
    };
    assert_eq!(c.preset, Some(Preset::HubspotContacts));
    let person = |id: &str, status: &str| prospect_api::types::LookalikePerson {
        person: prospect_api::types::Person {
            id: id.into(),
            first_name: Some("Ann".into()),
            last_name: Some(format!("Lee{id}")),
            email: Some(prospect_api::types::person::Email {
                address: Some(format!("ann{id}@acme.com")),
                status: prospect_api::types::WireEnum::from_wire(status),
            }),
            ..Default::default()
        },
        ..Default::default()
    };
    let written = write_file(&ExportFile {
        path: c.path.clone(),
        format: c.format,
        preset: c.preset,
        records: ExportRecords::People(vec![person("1", "verified"), person("2", "guessed")]),
    })
    .unwrap();
    assert_eq!(written.count, 1);
    assert_eq!(
        written.detail.as_deref(),
        Some("hubspot-contacts: 1 row (1 left out without a verified or catch-all email)")
    );
    let text = std::fs::read_to_string(&c.path).unwrap();
    assert!(text.starts_with("Email,First Name,Last Name,"), "{text}");
    assert!(text.contains("ann1@acme.com,Ann,Lee1,"), "{text}");
}

#[test]
fn bad_input_is_named_and_nothing_is_exported() {
    let keys = Keymap::default();
    let mut p = popup();
    p.scope = Scope::Marked;
    let k = key(KeyCode::Enter);
    assert_eq!(
        p.on_key(k, keys.text_action(&k), keys.action(&k)),
        ExportEffect::Nothing
    );
    assert_eq!(p.problem.as_deref(), Some("no rows are marked"));
    assert_eq!(thousands(39_726), "39,726");
    assert_eq!(thousands(100), "100");
}

/// Issue 38: an export onto a file that exists asks first. `n` keeps the file and offers the
/// first free name beside it (`-2`, then `-3` once that exists too); Enter on a free name
/// exports at once; `y` on the question replaces the file.
#[test]
fn an_existing_file_is_never_replaced_without_asking() {
    let keys = Keymap::default();
    let dir = tempfile::tempdir().unwrap();
    let mut p = popup();
    p.dir = ExportDir {
        path: dir.path().to_path_buf(),
        from_config: true,
    };
    let taken = dir.path().join("prospect-companies-20261123-1439.csv");
    std::fs::write(&taken, "kept\n").unwrap();
    std::fs::write(
        dir.path().join("prospect-companies-20261123-1439-2.csv"),
        "kept\n",
    )
    .unwrap();
    let press = |p: &mut ExportPopup, code| {
        let k = key(code);
        p.on_key(k, keys.text_action(&k), keys.action(&k))
    };
    assert_eq!(press(&mut p, KeyCode::Enter), ExportEffect::Nothing);
    assert_eq!(p.stage, Stage::Overwrite, "asks before replacing");
    assert_eq!(press(&mut p, KeyCode::Char('n')), ExportEffect::Nothing);
    assert_eq!(p.stage, Stage::Edit);
    assert_eq!(p.path_text(), "prospect-companies-20261123-1439-3.csv");
    assert!(p.problem.as_deref().unwrap().contains("exists and is kept"));
    match press(&mut p, KeyCode::Enter) {
        ExportEffect::Export(c) => assert_eq!(
            c.path,
            dir.path().join("prospect-companies-20261123-1439-3.csv")
        ),
        other => panic!("a free name exports at once: {other:?}"),
    }
    // Back to the taken name: `y` replaces it.
    p.path = textarea("prospect-companies-20261123-1439.csv");
    press(&mut p, KeyCode::Enter);
    assert_eq!(p.stage, Stage::Overwrite);
    match press(&mut p, KeyCode::Char('y')) {
        ExportEffect::Export(c) => assert_eq!(c.path, taken),
        other => panic!("y replaces it: {other:?}"),
    }
    assert_eq!(
        std::fs::read_to_string(&taken).unwrap(),
        "kept\n",
        "nothing written yet"
    );
}
