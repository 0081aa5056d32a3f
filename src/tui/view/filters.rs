//! The Filters pane: endpoint, run, then every member of the endpoint's body; filled members
//! show their value compactly.
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::core::sanitize::sanitize;
use crate::tui::app::{App, FormRow, Pane, estimate_cost};
use crate::tui::keymap::Action;
use crate::tui::schema;

/// Keeps `sel` inside the window `[offset, offset + height)`, moving `offset` as little as possible.
pub fn follow(offset: usize, sel: usize, height: usize) -> usize {
    if height == 0 {
        return sel;
    }
    if sel < offset {
        sel
    } else if sel >= offset + height {
        sel + 1 - height
    } else {
        offset
    }
}

/// Draws the pane.
pub fn draw(f: &mut Frame<'_>, area: Rect, app: &App) {
    let focused = app.focus == Pane::Filters && app.popups.is_empty();
    let n = app.filled_count();
    let title = format!(" Filters · {n} set ");
    let block = Block::default()
        .borders(Borders::ALL)
        .title(title)
        .border_style(super::border_style(focused));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let rows = app.form_rows();
    let h = inner.height as usize;
    let sel = app.form_sel.min(rows.len().saturating_sub(1));
    // Unfocused, the pane shows its top: the endpoint and the summary of what is set.
    let offset = if app.focus == Pane::Filters {
        let o = follow(app.form_offset.get(), sel, h);
        app.form_offset.set(o);
        o
    } else {
        0
    };
    let width = inner.width as usize;
    let keys = &app.opts.keymap;
    let lines: Vec<Line> = rows
        .iter()
        .enumerate()
        .skip(offset)
        .take(h)
        .map(|(i, row)| {
            let selected = i == sel;
            let mut line = match row {
                FormRow::Endpoint => Line::from(vec![
                    Span::styled("endpoint ", Style::default().fg(Color::DarkGray)),
                    Span::styled(
                        format!("◂ {} ▸", schema::label(app.endpoint)),
                        Style::default()
                            .fg(Color::Green)
                            .add_modifier(Modifier::BOLD),
                    ),
                ]),
                FormRow::Run => {
                    let est = estimate_cost(app.endpoint, &app.request_body());
                    Line::from(vec![
                        Span::styled(
                            "▶ run search",
                            Style::default().add_modifier(Modifier::BOLD),
                        ),
                        Span::styled(
                            format!(" ({}) est. ≤ {est}", keys.keys_of(Action::Search)),
                            Style::default().fg(Color::DarkGray),
                        ),
                    ])
                }
                FormRow::Header(h) => Line::from(Span::styled(
                    format!("── {h} "),
                    Style::default()
                        .fg(Color::Blue)
                        .add_modifier(Modifier::BOLD),
                )),
                FormRow::Leaf(leaf) | FormRow::Set(leaf) => {
                    let v = schema::get(&app.body, leaf.path);
                    if schema::is_filled(v) {
                        let value = sanitize(&schema::fmt_value(
                            leaf.kind,
                            v.unwrap_or(&serde_json::Value::Null),
                        ));
                        Line::from(vec![
                            Span::styled(
                                format!("{} ", leaf.label()),
                                Style::default().add_modifier(Modifier::BOLD),
                            ),
                            Span::styled(value, Style::default().fg(Color::Green)),
                        ])
                    } else {
                        Line::from(Span::styled(
                            leaf.label(),
                            Style::default().fg(Color::DarkGray),
                        ))
                    }
                }
                FormRow::Extra(p, v) => Line::from(vec![
                    Span::styled(
                        format!("! {} ", p.join(".")),
                        Style::default().fg(Color::Red),
                    ),
                    Span::styled(sanitize(&v.to_string()), Style::default().fg(Color::Red)),
                ]),
            };
            if selected {
                // A visible marker as well as the colour (snapshots, monochrome terminals).
                line.spans.insert(
                    0,
                    Span::styled(
                        "›",
                        Style::default()
                            .fg(Color::Cyan)
                            .add_modifier(Modifier::BOLD),
                    ),
                );
            } else {
                line.spans.insert(0, Span::raw(" "));
            }
            line = truncate(line, width);
            if selected {
                line = line.patch_style(Style::default().bg(if focused {
                    Color::Rgb(40, 60, 90)
                } else {
                    Color::Rgb(45, 45, 45)
                }));
                let pad = width.saturating_sub(line.width());
                line.spans.push(Span::raw(" ".repeat(pad)));
                line = line.patch_style(Style::default().bg(if focused {
                    Color::Rgb(40, 60, 90)
                } else {
                    Color::Rgb(45, 45, 45)
                }));
            }
            line
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}

/// Cuts a line to `width` columns, ending with `…` when cut.
pub fn truncate(line: Line<'_>, width: usize) -> Line<'_> {
    if line.width() <= width {
        return line;
    }
    let mut out = Vec::new();
    let mut used = 0;
    for span in line.spans {
        let w = span.width();
        if used + w < width {
            used += w;
            out.push(span);
            continue;
        }
        let mut s = String::new();
        for c in span.content.chars() {
            let cw = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
            if used + cw + 1 > width {
                break;
            }
            used += cw;
            s.push(c);
        }
        s.push('…');
        out.push(Span::styled(s, span.style));
        break;
    }
    Line::from(out).style(line.style)
}
