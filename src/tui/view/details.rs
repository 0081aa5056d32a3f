//! The Details pane: the selected record in sections, scrollable.
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::tui::app::{App, Pane};
use crate::tui::keymap::Action;
use crate::tui::records::Section;

/// The lines of the details of the selected record (empty when nothing is selected).
pub fn lines(app: &App) -> Vec<Line<'static>> {
    let kind = app.tab();
    let Some(row) = app.search(kind).selected() else {
        return vec![];
    };
    let sections: Vec<Section> = row.record.sections();
    let mut out = Vec::new();
    if row.record.company().is_some() {
        let k = &app.opts.keymap;
        out.push(Line::from(Span::styled(
            format!(
                "{} people at this company · {} lookalike companies",
                k.keys_of(Action::PeopleAtCompany),
                k.keys_of(Action::Lookalikes)
            ),
            Style::default().fg(Color::DarkGray),
        )));
    }
    for s in sections {
        out.push(Line::from(Span::styled(
            s.title.to_string(),
            Style::default()
                .fg(Color::Blue)
                .add_modifier(Modifier::BOLD),
        )));
        if s.lines.is_empty() {
            out.push(Line::from(Span::styled(
                "  —",
                Style::default().fg(Color::DarkGray),
            )));
        }
        for (label, value) in s.lines {
            let label = if label.is_empty() {
                "    ".to_string()
            } else {
                format!("  {label}: ")
            };
            out.push(Line::from(vec![
                Span::styled(label, Style::default().fg(Color::DarkGray)),
                Span::raw(value),
            ]));
        }
    }
    out
}

/// Draws the pane.
pub fn draw(f: &mut Frame<'_>, area: Rect, app: &App) {
    let focused = app.focus == Pane::Details && app.popups.is_empty();
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" Details ")
        .border_style(super::border_style(focused));
    let content = lines(app);
    if content.is_empty() {
        let p = Paragraph::new(Line::from(Span::styled(
            "Select a row to see everything about it.",
            Style::default().fg(Color::DarkGray),
        )))
        .block(block);
        f.render_widget(p, area);
        return;
    }
    // Never scroll past the last line (wrapping can only add lines, so this is a safe bound).
    let max = content.len().saturating_sub(1).min(u16::MAX as usize) as u16;
    let p = Paragraph::new(content)
        .block(block)
        .wrap(Wrap { trim: false })
        .scroll((app.details_scroll.min(max), 0));
    f.render_widget(p, area);
}
