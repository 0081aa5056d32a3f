//! Shared helpers of the tests that drive the explorer's state owner (`App`) with messages
//! only: the options of a sandbox session, key messages, answering the calls the app asked
//! for, and drawing it on ratatui's `TestBackend`.
#![allow(dead_code)]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use prospect::tui::app::{App, AppOptions};
use prospect::tui::keymap::Keymap;
use prospect::tui::msg::{Call, Command, Msg, Outcome, Slot};
use prospect::tui::schema::DataFields;
use prospect::tui::view;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use serde_json::Value;

/// Options of an explorer on a sandbox at 127.0.0.1:4000, confirming spends above 10 credits.
pub fn opts() -> AppOptions {
    opts_above(10.0)
}

/// The same options, confirming spends above `confirm_above` credits (checked per pool).
pub fn opts_above(confirm_above: f64) -> AppOptions {
    AppOptions {
        base_url: "http://127.0.0.1:4000".into(),
        sandbox: true,
        keymap: Keymap::default(),
        confirm_above,
        budgeted: false,
        filters_dir: "/home/user/.config/prospect/filters".into(),
        export_dir: prospect::core::config::ExportDir {
            path: "/home/user/exports".into(),
            from_config: false,
        },
        columns: Default::default(),
        columns_file: None,
    }
}

/// A press of `c` with no modifier.
pub fn key(c: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(c, KeyModifiers::NONE))
}

/// A press of the character `c`.
pub fn ch(c: char) -> Msg {
    key(KeyCode::Char(c))
}

/// A press of Ctrl-`c`.
pub fn ctrl(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

/// A wire type from its JSON (panics on a shape the test got wrong).
pub fn typed<T: serde::de::DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v).unwrap()
}

/// The call the commands started in `slot`: its generation and the call.
pub fn call_in(cmds: &[Command], slot: Slot) -> (u64, Call) {
    cmds.iter()
        .find_map(|c| match c {
            Command::Call {
                slot: s,
                generation,
                call,
            } if *s == slot => Some((*generation, call.clone())),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no call in {slot:?}: {cmds:?}"))
}

/// Feeds the result of the call the commands started in `slot`, with the generation it got.
pub fn answer(app: &mut App, cmds: &[Command], slot: Slot, outcome: Outcome) -> Vec<Command> {
    let (generation, _) = call_in(cmds, slot);
    app.update(Msg::Done {
        slot,
        generation,
        result: Ok(outcome),
    })
}

/// A started app with `opts` whose reference data (`/v2/data-fields` JSON) and balance
/// (`/v2/credits/balance` JSON) have arrived; the status line cleared.
pub fn started_with(opts: AppOptions, data_fields: Value, balance: Value) -> App {
    let mut app = App::new(opts);
    let cmds = app.start();
    answer(
        &mut app,
        &cmds,
        Slot::DataFields,
        Outcome::DataFields(DataFields::from_api(&typed(data_fields))),
    );
    answer(
        &mut app,
        &cmds,
        Slot::Balance,
        Outcome::Balance(typed(balance)),
    );
    app.status = None;
    app
}

/// The app drawn on a `w` × `h` test terminal.
pub fn render_at(app: &App, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| view::draw(f, app)).unwrap();
    t
}

/// The text of a drawn buffer, rows joined by `\n`.
pub fn buffer_text(buf: &Buffer) -> String {
    let mut s = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            s.push_str(buf[(x, y)].symbol());
        }
        s.push('\n');
    }
    s
}

/// The text of a test terminal's screen.
pub fn screen(t: &Terminal<TestBackend>) -> String {
    buffer_text(t.backend().buffer())
}

/// A spend-engine plan of a search as the session would answer it: `owned` results the store
/// answers, `to_buy` at 0.2 standard credits each in `requests` requests, refused when
/// `refusal`.
pub fn search_plan(
    owned: u64,
    to_buy: u64,
    requests: u32,
    refusal: Option<&str>,
) -> prospect::core::engine::Plan {
    prospect::core::engine::Plan {
        action: "search /v3/search/companies".into(),
        kind: "search".into(),
        asked: owned + to_buy,
        owned,
        owned_oldest: (owned > 0).then(|| chrono::Utc::now() - chrono::Duration::hours(3)),
        pending: 0,
        suppressed: 0,
        suppressed_by: Default::default(),
        new_only: None,
        refused: 0,
        refused_examples: vec![],
        to_buy,
        cost: prospect::api::cost::Cost {
            standard: to_buy as f64 * 0.2,
            ..prospect::api::cost::Cost::ZERO
        },
        requests,
        rate_per_minute: Some(600),
        daily_left: None,
        eta_seconds: 0,
        refusal: refusal.map(str::to_string),
        refusal_cause: None,
        refresh: false,
        planned_at: chrono::Utc::now(),
        job_options: None,
    }
}
