//! The help popup (every binding, generated from the keymap's two layers) and the error
//! popup (a message worth reading in full). Both close on close / enter / help / quit.
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::widgets::{centered, dim, frame};
use crate::core::sanitize::sanitize;
use crate::tui::app::{autocomplete_cost, fmt_credits};
use crate::tui::keymap::{Action, Keymap};

/// `true` when `action` closes the help or an error popup.
pub fn closes(action: Action) -> bool {
    matches!(
        action,
        Action::Close | Action::Enter | Action::Help | Action::Quit
    )
}

/// Draws the help: the pane bindings in two columns, then the text-field layer.
pub fn draw_help(f: &mut Frame<'_>, area: Rect, keymap: &Keymap) {
    let entries = keymap.help();
    let key_style = Style::default()
        .fg(Color::Cyan)
        .add_modifier(Modifier::BOLD);
    // Each of the two columns: 14 for the keys, the rest for the description.
    let r_width = area.width.min(116);
    let desc_w = (r_width.saturating_sub(2) / 2).saturating_sub(15) as usize;
    let cell = |keys: &str, d: &str| -> Vec<Span<'static>> {
        let d: String = d.chars().take(desc_w).collect();
        vec![
            Span::styled(format!(" {keys:<13}"), key_style),
            Span::raw(format!("{d:<desc_w$} ")),
        ]
    };
    // Two columns of bindings.
    let half = entries.len().div_ceil(2);
    let mut lines: Vec<Line> = (0..half)
        .map(|i| {
            let mut spans = cell(&entries[i].0, entries[i].1);
            if let Some((k, d)) = entries.get(i + half) {
                spans.extend(cell(k, d));
            }
            Line::from(spans)
        })
        .collect();
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        " In a text field every printable key is text:",
        Style::default().add_modifier(Modifier::BOLD),
    )));
    let pairs = keymap.text_help();
    for ch in pairs.chunks(2) {
        let mut spans = cell(&ch[0].0, ch[0].1);
        if let Some((k, d)) = ch.get(1) {
            spans.extend(cell(k, d));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::from(dim(format!(
        " Autocomplete costs {} credit per lookup and runs after a short pause in typing.",
        fmt_credits(autocomplete_cost())
    ))));
    lines.push(Line::from(dim(
        " Bindings can be changed in the [keys] table of config.toml.",
    )));
    let h = (lines.len() as u16 + 2).min(area.height);
    let r = centered(area, 116, h);
    f.render_widget(Clear, r);
    f.render_widget(Paragraph::new(lines).block(frame(" Keys ", Color::Cyan)), r);
}

/// Draws an error popup with `text` (sanitized here) and how to close it.
pub fn draw_error(f: &mut Frame<'_>, area: Rect, text: &str, keymap: &Keymap) {
    let r = centered(area, 70, 9);
    f.render_widget(Clear, r);
    let lines = vec![
        Line::from(sanitize(text)),
        Line::from(""),
        Line::from(dim(format!(
            "{} or {} closes",
            keymap.keys_of(Action::Close),
            keymap.keys_of(Action::Enter)
        ))),
    ];
    f.render_widget(
        Paragraph::new(lines)
            .block(frame(" Error ", Color::Red))
            .wrap(Wrap { trim: true }),
        r,
    );
}
