//! Shared helpers of the tests that drive the explorer's state owner (`App`) with messages
//! only: the options of a sandbox session and key messages.
#![allow(dead_code)]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use prospect::tui::app::AppOptions;
use prospect::tui::keymap::Keymap;
use prospect::tui::msg::Msg;

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
        filters_dir: "/home/user/.config/prospect/filters".into(),
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
