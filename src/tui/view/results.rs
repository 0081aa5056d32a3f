//! The Results pane: companies/people tabs, a table built for the visible rows only,
//! "rows a–b of total", "from store, 3 days old" for a page read back from the history, a
//! loading indicator and an empty state that says why.
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table, Tabs, Wrap};

use crate::tui::app::{App, Pane};
use crate::tui::keymap::Action;
use crate::tui::records;
use crate::tui::schema::Kind;

use super::filters::follow;

/// Draws the pane.
pub fn draw(f: &mut Frame<'_>, area: Rect, app: &App) {
    let focused = app.focus == Pane::Results && app.popups.is_empty();
    let kind = app.tab();
    let s = app.search(kind);
    let rows = s.rows();
    let mut title = String::from(" Results ");
    if !rows.is_empty() {
        let a = s.first_index();
        let b = a + rows.len() - 1;
        match s.total {
            Some(t) => title.push_str(&format!("· rows {a}–{b} of {t} · page {} ", s.page + 1)),
            None => title.push_str(&format!("· rows {a}–{b} · page {} ", s.page + 1)),
        }
    }
    if let Some(label) = s.stored_label() {
        title.push_str(&format!("· {label} "));
    }
    if s.loading {
        title.push_str("· loading… ");
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .title(title)
        .border_style(super::border_style(focused));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let [tabs_area, body] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(inner);
    let tabs = Tabs::new(vec!["Companies", "People"])
        .select(if kind == Kind::Companies { 0 } else { 1 })
        .highlight_style(
            Style::default()
                .fg(Color::Black)
                .bg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
        )
        .divider("│");
    f.render_widget(tabs, tabs_area);

    if rows.is_empty() {
        let keys = &app.opts.keymap;
        let noun = if kind == Kind::Companies {
            "companies"
        } else {
            "people"
        };
        let mut lines = vec![];
        if s.loading {
            lines.push(Line::from(format!("Loading {noun}…")));
        } else if let Some(e) = &s.error {
            lines.push(Line::from(Span::styled(
                format!("The search failed: {e}"),
                Style::default().fg(Color::Red),
            )));
        } else if s.request.is_none() {
            lines.push(Line::from(format!("No search run yet for {noun}.")));
            lines.push(Line::from(format!(
                "Set filters on the left, then {} (or Enter on \"run search\").",
                keys.keys_of(Action::Search)
            )));
        } else {
            let n = app.filled_count();
            lines.push(Line::from(format!(
                "No {noun} match these filters ({n} member(s) set)."
            )));
            lines.push(Line::from(
                "Every member must match; clear one (x) or widen a range, then search again.",
            ));
        }
        for note in &s.notes {
            lines.push(Line::from(Span::styled(
                format!("note: {note}"),
                Style::default().fg(Color::Yellow),
            )));
        }
        f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), body);
        return;
    }

    // Only the visible slice becomes `Row`s: drawing cost does not grow with the page size.
    let h = body.height.saturating_sub(1) as usize;
    let sel = s.sel.min(rows.len() - 1);
    let offset = follow(s.offset.get(), sel, h);
    s.offset.set(offset);
    let end = (offset + h).min(rows.len());
    let visible: Vec<Row> = rows[offset..end]
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mark = if offset + i == sel { "›" } else { " " };
            let row = Row::new(
                std::iter::once(Cell::from(mark))
                    .chain(r.cells.iter().map(|c| Cell::from(c.as_str()))),
            );
            if offset + i == sel {
                row.style(
                    Style::default()
                        .bg(if focused {
                            Color::Rgb(40, 60, 90)
                        } else {
                            Color::Rgb(45, 45, 45)
                        })
                        .add_modifier(Modifier::BOLD),
                )
            } else {
                row
            }
        })
        .collect();
    let widths: Vec<Constraint> = std::iter::once(Constraint::Length(1))
        .chain(records::widths(kind))
        .collect();
    let header = Row::new(
        std::iter::once(Cell::from(" "))
            .chain(records::columns(kind).iter().map(|c| Cell::from(*c))),
    )
    .style(
        Style::default()
            .fg(Color::Blue)
            .add_modifier(Modifier::BOLD),
    );
    let table = Table::new(visible, widths).header(header).column_spacing(1);
    f.render_widget(table, body);
}
