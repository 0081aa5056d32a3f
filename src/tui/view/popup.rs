//! Popups: help (generated from the keymap), confirmation, error, the member editor with its
//! autocomplete list, the save-name prompt, the saved-set chooser and the search history.
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::core::sanitize::sanitize;
use crate::tui::app::{AcState, App, EditorBody, Popup, autocomplete_cost, fmt_credits};
use crate::tui::keymap::Action;
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
    for p in &app.popups {
        match p {
            Popup::Help => help(f, area, app),
            Popup::Confirm(p) => {
                let r = centered(area, 64, 8);
                f.render_widget(Clear, r);
                let noun = if p.request.subject() == crate::tui::schema::Kind::Companies {
                    "companies"
                } else {
                    "people"
                };
                let lines = vec![
                    Line::from(format!(
                        "{} {noun} via {}",
                        if p.next_page {
                            "Next page of"
                        } else {
                            "Search"
                        },
                        p.request.endpoint().path()
                    )),
                    Line::from(vec![
                        Span::raw("may cost up to "),
                        Span::styled(
                            p.cost.to_string(),
                            Style::default()
                                .fg(Color::Yellow)
                                .add_modifier(Modifier::BOLD),
                        ),
                        Span::raw(format!(
                            " (asks above {}).",
                            fmt_credits(app.opts.confirm_above)
                        )),
                    ]),
                    Line::from(""),
                    Line::from(vec![
                        Span::styled("Enter/y", Style::default().add_modifier(Modifier::BOLD)),
                        Span::raw(" run it   "),
                        Span::styled("Esc/n", Style::default().add_modifier(Modifier::BOLD)),
                        Span::raw(" cancel"),
                    ]),
                ];
                f.render_widget(
                    Paragraph::new(lines)
                        .block(frame(" Confirm spending ", Color::Yellow))
                        .wrap(Wrap { trim: true }),
                    r,
                );
            }
            Popup::Error(text) => {
                let r = centered(area, 70, 9);
                f.render_widget(Clear, r);
                let lines = vec![
                    Line::from(sanitize(text)),
                    Line::from(""),
                    Line::from(dim("Esc or Enter closes")),
                ];
                f.render_widget(
                    Paragraph::new(lines)
                        .block(frame(" Error ", Color::Red))
                        .wrap(Wrap { trim: true }),
                    r,
                );
            }
            Popup::SaveName(t) => {
                let r = centered(area, 56, 5);
                f.render_widget(Clear, r);
                let block = frame(" Save filter set as ", Color::Cyan);
                let inner = block.inner(r);
                f.render_widget(block, r);
                let [input, hint] =
                    Layout::vertical([Constraint::Length(1), Constraint::Length(1)]).areas(inner);
                f.render_widget(t, input);
                f.render_widget(
                    Line::from(dim(format!(
                        "Enter saves to {}/NAME.json · Esc cancels",
                        app.opts.filters_dir.display()
                    ))),
                    hint,
                );
            }
            Popup::OpenSet { names, sel } => {
                let h = (names.len() as u16 + 3)
                    .min(area.height.saturating_sub(2))
                    .max(5);
                let r = centered(area, 50, h);
                f.render_widget(Clear, r);
                let block = frame(" Filter sets ", Color::Cyan);
                let inner = block.inner(r);
                f.render_widget(block, r);
                let [list, hint] =
                    Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(inner);
                let visible = list.height as usize;
                let offset = super::filters::follow(0, *sel, visible);
                let lines: Vec<Line> = names
                    .iter()
                    .enumerate()
                    .skip(offset)
                    .take(visible)
                    .map(|(i, n)| {
                        let l = Line::from(format!(" {n}"));
                        if i == *sel {
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
                f.render_widget(Paragraph::new(lines), list);
                let k = &app.opts.keymap;
                f.render_widget(
                    Line::from(dim(format!(
                        "{} open · {} delete · {} close",
                        k.keys_of(Action::Enter),
                        k.keys_of(Action::Clear),
                        k.keys_of(Action::Close)
                    ))),
                    hint,
                );
            }
            Popup::Editor(ed) => editor(f, area, areas, app, ed),
            Popup::History(h) => history(f, area, app, h),
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

/// Cuts `s` to `w` columns (by characters), with `…` when cut.
fn fit(s: &str, w: usize) -> String {
    if s.chars().count() <= w {
        return s.to_string();
    }
    let mut out: String = s.chars().take(w.saturating_sub(1)).collect();
    out.push('…');
    out
}

fn history(f: &mut Frame<'_>, area: Rect, app: &App, h: &crate::tui::app::HistoryPopup) {
    let n = h.entries.as_ref().map_or(1, |e| e.len().max(1)) as u16;
    let r = centered(area, 110, (n + 4).clamp(6, area.height.saturating_sub(2)));
    f.render_widget(Clear, r);
    let block = frame(
        " Search history (stored; reopening costs nothing) ",
        Color::Cyan,
    );
    let inner = block.inner(r);
    f.render_widget(block, r);
    let [head, list_area, hint] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    // Columns: endpoint 13, pages 6, total 8, age 12, the rest the filters.
    let w = inner.width as usize;
    let filters_w = w.saturating_sub(13 + 6 + 8 + 12 + 5).max(10);
    let row = |ep: &str, filters: &str, pages: &str, total: &str, age: &str| {
        format!(
            " {:<13}{:<filters_w$} {:>6} {:>8} {:>12}",
            fit(ep, 13),
            fit(filters, filters_w),
            pages,
            total,
            fit(age, 12)
        )
    };
    f.render_widget(
        Line::from(Span::styled(
            row("endpoint", "filters", "pages", "total", "last run"),
            Style::default()
                .fg(Color::Blue)
                .add_modifier(Modifier::BOLD),
        )),
        head,
    );
    let lines: Vec<Line> = match (&h.entries, &h.error) {
        (_, Some(e)) => vec![Line::from(Span::styled(
            format!(" The history could not be read: {}", sanitize(e)),
            Style::default().fg(Color::Red),
        ))],
        (None, None) => vec![Line::from(dim(" reading the store…"))],
        (Some(entries), None) if entries.is_empty() => vec![Line::from(dim(format!(
            " No searches stored yet: a search run with {} is kept here.",
            app.opts.keymap.keys_of(Action::Search)
        )))],
        (Some(entries), None) => {
            let visible = (list_area.height as usize).max(1);
            let offset = super::filters::follow(0, h.sel, visible);
            entries
                .iter()
                .enumerate()
                .skip(offset)
                .take(visible)
                .map(|(i, e)| {
                    let ep = schema::label(e.endpoint);
                    let l = Line::from(row(
                        ep.split(" (").next().unwrap_or(ep),
                        &sanitize(&e.summary),
                        &e.pages.to_string(),
                        &e.total.map_or("?".to_string(), |t| t.to_string()),
                        &crate::core::spend::describe_age(e.age),
                    ));
                    if i == h.sel {
                        l.style(
                            Style::default()
                                .bg(Color::Rgb(40, 60, 90))
                                .add_modifier(Modifier::BOLD),
                        )
                    } else {
                        l
                    }
                })
                .collect()
        }
    };
    f.render_widget(Paragraph::new(lines), list_area);
    let k = &app.opts.keymap;
    f.render_widget(
        Line::from(dim(format!(
            " {} reopen (from the store, no cost) · {} more pages are paid · {} close",
            k.keys_of(Action::Enter),
            k.keys_of(Action::NextPage),
            k.keys_of(Action::Close)
        ))),
        hint,
    );
}

fn help(f: &mut Frame<'_>, area: Rect, app: &App) {
    let entries = app.opts.keymap.help();
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
    let pairs = app.opts.keymap.text_help();
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
