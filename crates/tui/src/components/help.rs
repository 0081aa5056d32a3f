//! The help popup (every binding, generated from the keymap's two layers) and the error
//! popup (a message worth reading in full). Both close on close / enter / help / quit.
use crate::theme::theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::widgets::{Scroll, centered, dim, frame, truncate};
use super::{Component, Ctx, Handled, Hint, Input, Stay, hint_line};
use crate::fmt::{autocomplete_cost, fmt_credits};
use crate::keymap::{KeyAction, Keymap};
use prospect_common::sanitize::sanitize;

/// `true` when `action` closes the help or an error popup.
pub fn closes(action: KeyAction) -> bool {
    matches!(
        action,
        KeyAction::Close | KeyAction::Enter | KeyAction::Help | KeyAction::Quit
    )
}

/// Widest the help popup gets (two columns of bindings).
const HELP_WIDTH: u16 = 116;

/// Below this popup width the bindings go in one column, so descriptions are not cut.
const TWO_COLUMNS_FROM: u16 = 100;

/// The help popup: every binding, scrolled with the keymap's movement actions when it is
/// taller than the screen (at 80×24 it is).
#[derive(Debug, Clone, Default)]
pub struct HelpView {
    scroll: Scroll,
}

impl Component for HelpView {
    type Effect = Stay;

    /// Movement actions scroll; [`closes`] closes; the help is modal, so every other key is
    /// used (and does nothing).
    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<Stay> {
        let Some(action) = input.action() else {
            return Handled::Ignored;
        };
        if self.scroll.handle(action) || !closes(action) {
            return Handled::Consumed(Stay::Open);
        }
        Handled::Consumed(Stay::Close)
    }

    /// Draws the help over `area`: the pane bindings (two columns when the popup is at least
    /// [`TWO_COLUMNS_FROM`] wide, else one), then the text-field layer, then notes; the bottom
    /// line says which lines are shown and how to scroll when they do not all fit.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let keymap = ctx.keys;
        let width = area.width.min(HELP_WIDTH);
        let lines = help_lines(keymap, width.saturating_sub(2));
        let h = (lines.len() as u16 + 2).min(area.height);
        let r = centered(area, width, h);
        f.render_widget(Clear, r);
        let block = frame(" Keys ", theme().accent);
        let inner = block.inner(r);
        f.render_widget(block, r);
        let window = inner.height as usize;
        let mut shown: Vec<Line> = if lines.len() <= window {
            lines
        } else {
            // One line goes to the position and the scroll hint.
            let h = window.saturating_sub(1);
            let top = self.scroll.window(lines.len(), h);
            let total = lines.len();
            let mut shown: Vec<Line> = lines.into_iter().skip(top).take(h).collect();
            shown.push(Line::from(dim(format!(
                " lines {}–{} of {total} · {}",
                top + 1,
                (top + h).min(total),
                hint_line(&self.hints(), keymap)
            ))));
            shown
        };
        let w = inner.width as usize;
        shown = shown.into_iter().map(|l| truncate(l, w)).collect();
        f.render_widget(Paragraph::new(shown), inner);
    }

    fn hints(&self) -> Vec<Hint> {
        vec![
            Hint::Actions(&[KeyAction::Down, KeyAction::Up], "scroll"),
            Hint::KeyAction(KeyAction::Close, "closes"),
        ]
    }
}

/// The help's lines for a popup whose inside is `inner` columns wide.
fn help_lines(keymap: &Keymap, inner: u16) -> Vec<Line<'static>> {
    let entries = keymap.help();
    let key_style = Style::default()
        .fg(theme().accent)
        .add_modifier(Modifier::BOLD);
    let columns: usize = if inner + 2 >= TWO_COLUMNS_FROM { 2 } else { 1 };
    // Each column: 14 for the keys, the rest for the description.
    let desc_w = (inner as usize / columns).saturating_sub(15);
    let cell = |keys: &str, d: &str| -> Vec<Span<'static>> {
        let d: String = d.chars().take(desc_w).collect();
        vec![
            Span::styled(format!(" {keys:<13}"), key_style),
            Span::raw(format!("{d:<desc_w$} ")),
        ]
    };
    // Row i holds entries i and i + rows (when two columns).
    let rows_of = |items: &[(String, &'static str)]| -> Vec<Line<'static>> {
        let rows = items.len().div_ceil(columns);
        (0..rows)
            .map(|i| {
                let mut spans = Vec::new();
                for c in 0..columns {
                    if let Some((k, d)) = items.get(i + c * rows) {
                        spans.extend(cell(k, d));
                    }
                }
                Line::from(spans)
            })
            .collect()
    };
    let mut lines = rows_of(&entries);
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        " In a text field every printable key is text:",
        Style::default().add_modifier(Modifier::BOLD),
    )));
    lines.extend(rows_of(&keymap.text_help()));
    lines.push(Line::from(dim(format!(
        " Autocomplete: {} credit per lookup, sent after a short pause in typing.",
        fmt_credits(autocomplete_cost())
    ))));
    lines.push(Line::from(dim(
        " Bindings can be changed in the [keys] table of config.toml.",
    )));
    lines
}

/// The error popup: a message worth reading in full (sanitized when drawn).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorView(pub String);

impl Component for ErrorView {
    type Effect = Stay;

    /// [`closes`] closes it; it is modal, so every other key is used and does nothing.
    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<Stay> {
        match input.action() {
            Some(a) if closes(a) => Handled::Consumed(Stay::Close),
            Some(_) => Handled::Consumed(Stay::Open),
            None => Handled::Ignored,
        }
    }

    /// Draws the message and how to close it, centred in `area`.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let r = centered(area, 70, 9);
        f.render_widget(Clear, r);
        let lines = vec![
            Line::from(sanitize(&self.0)),
            Line::from(""),
            Line::from(dim(hint_line(&self.hints(), ctx.keys))),
        ];
        f.render_widget(
            Paragraph::new(lines)
                .block(frame(" Error ", theme().bad))
                .wrap(Wrap { trim: true }),
            r,
        );
    }

    fn hints(&self) -> Vec<Hint> {
        vec![Hint::Actions(
            &[KeyAction::Close, KeyAction::Enter],
            "closes",
        )]
    }
}
