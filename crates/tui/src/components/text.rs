//! Text fields: a `ratatui_textarea::TextArea` of one line, fed only the keys the keymap's
//! text layer ([`TextAction`](crate::keymap::TextAction)) leaves as text.
use crossterm::event::KeyEvent;
use ratatui_textarea::TextArea;

/// A one-line text field holding `text`, cursor at the end, no cursor-line highlight.
pub fn textarea(text: &str) -> TextArea<'static> {
    let mut t = TextArea::new(vec![text.to_string()]);
    t.set_cursor_line_style(ratatui::style::Style::default());
    t.move_cursor(ratatui_textarea::CursorMove::End);
    t
}

/// The text of a field (lines joined by a space).
pub fn input_text(t: &TextArea<'_>) -> String {
    t.lines().join(" ")
}

/// Types `key` into `t`; returns the text when it changed.
pub fn type_key(t: &mut TextArea<'static>, key: KeyEvent) -> Option<String> {
    let before = input_text(t);
    t.input(key);
    let after = input_text(t);
    (before != after).then_some(after)
}
