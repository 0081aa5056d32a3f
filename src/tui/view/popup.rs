//! Popups: help (generated from the keymap), confirmation, error, the member editor with its
//! autocomplete list, the save-name prompt, the saved-set chooser and the search history.
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::core::sanitize::sanitize;
use crate::tui::app::{AcState, App, EditorBody, Popup, autocomplete_cost, fmt_credits};
use crate::tui::components;
use crate::tui::schema::{self, LeafKind};

use super::Areas;

fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

fn frame<'a>(title: &'a str, color: Color) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .title(title)
        .border_style(Style::default().fg(color).add_modifier(Modifier::BOLD))
}

fn dim(s: impl Into<String>) -> Span<'static> {
    Span::styled(s.into(), Style::default().fg(Color::DarkGray))
}

/// Draws every open popup, bottom first.
pub fn draw(f: &mut Frame<'_>, area: Rect, areas: &Areas, app: &App) {
    let keys = &app.opts.keymap;
    for p in &app.popups {
        match p {
            Popup::Help => components::help::draw_help(f, area, keys),
            Popup::Confirm(p) => {
                components::spend_gate::draw(f, area, p, app.opts.confirm_above, keys)
            }
            Popup::Error(text) => components::help::draw_error(f, area, text, keys),
            Popup::SaveName(prompt) => prompt.draw(f, area, &app.sets.dir, keys),
            Popup::OpenSet(o) => o.draw(f, area, keys),
            Popup::Editor(ed) => editor(f, area, areas, app, ed),
            Popup::History(h) => h.draw(f, area, keys),
            Popup::Find(p) => {
                let r = centered(area, 60, 18);
                f.render_widget(Clear, r);
                let block = frame(" Find a filter member ", Color::Cyan);
                let inner = block.inner(r);
                f.render_widget(block, r);
                let [input, list, hint] = Layout::vertical([
                    Constraint::Length(1),
                    Constraint::Min(1),
                    Constraint::Length(1),
                ])
                .areas(inner);
                p.draw_query(f, input);
                p.draw_list(f, list, false, None);
                f.render_widget(
                    Line::from(dim("type to narrow · Enter edits · Esc closes")),
                    hint,
                );
            }
        }
    }
}

fn editor(f: &mut Frame<'_>, area: Rect, areas: &Areas, app: &App, ed: &crate::tui::app::Editor) {
    // Anchor under the selected field of the filters pane.
    let fa = areas.filters;
    let row_y = fa.y + 1 + app.form_sel.saturating_sub(app.form_offset.get()) as u16;
    let width = fa.width.max(72).min(area.width);
    let height: u16 = match &ed.body {
        EditorBody::Text(t) if t.inputs.len() == 1 => 6,
        EditorBody::Text(_) => 7,
        _ => 16,
    };
    let mut y = row_y + 1;
    if y + height > area.y + area.height {
        y = (area.y + area.height).saturating_sub(height);
    }
    let r = Rect {
        x: fa.x,
        y,
        width,
        height: height.min(area.height),
    };
    f.render_widget(Clear, r);
    let leaf = ed.leaf;
    let title = format!(" {} ", leaf.path.join("."));
    let block = frame(&title, Color::Cyan);
    let inner = block.inner(r);
    f.render_widget(block, r);
    match &ed.body {
        EditorBody::List(le) => {
            let [items, input, list, note] = Layout::vertical([
                Constraint::Length(2),
                Constraint::Length(1),
                Constraint::Min(1),
                Constraint::Length(2),
            ])
            .areas(inner);
            let chosen = if le.items.is_empty() {
                Line::from(dim("(none yet)"))
            } else {
                Line::from(
                    le.items
                        .iter()
                        .map(|v| {
                            Span::styled(
                                format!("[{}] ", sanitize(&schema::fmt_item(v))),
                                Style::default().fg(Color::Green),
                            )
                        })
                        .collect::<Vec<_>>(),
                )
            };
            f.render_widget(Paragraph::new(chosen).wrap(Wrap { trim: true }), items);
            let [prompt, field] =
                Layout::horizontal([Constraint::Length(2), Constraint::Min(1)]).areas(input);
            f.render_widget(Span::styled("› ", Style::default().fg(Color::Cyan)), prompt);
            f.render_widget(&le.input, field);
            let mut lines: Vec<Line> = le
                .suggestions
                .iter()
                .enumerate()
                .take(list.height as usize)
                .map(|(i, (label, _))| {
                    let l = Line::from(format!("  {}", sanitize(label)));
                    if Some(i) == le.sel {
                        l.style(
                            Style::default()
                                .bg(Color::Rgb(40, 60, 90))
                                .add_modifier(Modifier::BOLD),
                        )
                    } else {
                        l
                    }
                })
                .collect();
            if lines.is_empty() {
                lines.push(Line::from(dim(match (&le.ac_state, le.ac) {
                    (_, None) => "type a value, Enter adds it".to_string(),
                    (AcState::Idle, Some(_)) => {
                        "type at least 2 letters for suggestions".to_string()
                    }
                    (AcState::Waiting, _) => "…".to_string(),
                    (AcState::Loading, _) => "looking up suggestions…".to_string(),
                    (AcState::Ready, _) => "no suggestions; Enter adds what you typed".to_string(),
                    (AcState::Failed(e), _) => format!("suggestions failed: {}", sanitize(e)),
                })));
            }
            f.render_widget(Paragraph::new(lines), list);
            let mut n = vec![Line::from(dim(
                "Enter adds · ↓ picks · Backspace on empty removes · Esc done",
            ))];
            if let Some(ac) = le.ac {
                n.push(Line::from(Span::styled(
                    format!(
                        "suggestions: {} · {} credit per lookup",
                        ac.endpoint().path(),
                        fmt_credits(autocomplete_cost())
                    ),
                    Style::default().fg(Color::Yellow),
                )));
            }
            f.render_widget(Paragraph::new(n), note);
        }
        EditorBody::Pick(p) => {
            let [input, list, note] = Layout::vertical([
                Constraint::Length(1),
                Constraint::Min(1),
                Constraint::Length(1),
            ])
            .areas(inner);
            p.draw_query(f, input);
            let empty = Line::from(dim(if p.waiting_for_data {
                match &app.data_fields_state {
                    Some(Err(e)) => format!("reference data unavailable: {}", sanitize(e)),
                    _ => "loading /v2/data-fields…".to_string(),
                }
            } else {
                "nothing matches".to_string()
            }));
            p.draw_list(f, list, true, Some(empty));
            let hint = if p.multi {
                format!(
                    "{} chosen · {} of {} shown · Enter toggles · Esc done",
                    p.chosen.len(),
                    p.filtered.len(),
                    p.options.len()
                )
            } else {
                "Enter picks · Esc cancels".to_string()
            };
            f.render_widget(Line::from(dim(hint)), note);
        }
        EditorBody::Text(t) => {
            let (hint, labels): (&str, Vec<&str>) = match leaf.kind {
                LeafKind::Range(schema::Num::Date) => (
                    "YYYY-MM-DD; empty = open end · Tab switches · Enter applies · Esc cancels",
                    vec!["from", "to"],
                ),
                LeafKind::Range(_) => (
                    "empty = open end · Tab switches · Enter applies · Esc cancels",
                    vec!["from", "to"],
                ),
                LeafKind::Json => (
                    "JSON value, e.g. [{\"department\": \"Sales\", \"from\": 5}] · Enter applies",
                    vec!["json"],
                ),
                LeafKind::Scalar(schema::Num::Date) => (
                    "YYYY-MM or YYYY-MM-DD · empty clears · Enter applies",
                    vec!["value"],
                ),
                _ => ("empty clears · Enter applies · Esc cancels", vec!["value"]),
            };
            let mut cons: Vec<Constraint> =
                t.inputs.iter().map(|_| Constraint::Length(1)).collect();
            cons.push(Constraint::Length(1));
            cons.push(Constraint::Length(2));
            let rows = Layout::vertical(cons).split(inner);
            for (i, input) in t.inputs.iter().enumerate() {
                let [l, field] =
                    Layout::horizontal([Constraint::Length(7), Constraint::Min(1)]).areas(rows[i]);
                let style = if i == t.focus {
                    Style::default()
                        .fg(Color::Cyan)
                        .add_modifier(Modifier::BOLD)
                } else {
                    Style::default().fg(Color::DarkGray)
                };
                f.render_widget(
                    Span::styled(
                        format!("{:>5}: ", labels.get(i).copied().unwrap_or("")),
                        style,
                    ),
                    l,
                );
                f.render_widget(input, field);
            }
            let n = t.inputs.len();
            if let Some(e) = &t.error {
                f.render_widget(
                    Line::from(Span::styled(sanitize(e), Style::default().fg(Color::Red))),
                    rows[n],
                );
            }
            f.render_widget(
                Paragraph::new(Line::from(dim(hint))).wrap(Wrap { trim: true }),
                rows[n + 1],
            );
        }
    }
}
