//! The credit gauge (`core::gauge::Gauge`): the three pools (SPEC.md §2.9) as of the last
//! balance less what answers charged since, the daily allowance left (less requests since)
//! and the time to its reset as of the last refresh. A pool the answer left out is drawn as
//! unknown (`?`), never as 0. A pool untouched since the refresh shows its one-time and
//! recurrent parts; one charged since shows how much was charged locally.
use crate::theme::theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::app::App;
use crate::fmt::fmt_credits;
use prospect_api::cost::CreditPool;
use prospect_api::types::Credits;
use prospect_core::gauge::Gauge;

/// `3h 05m`, `12m 30s`, `45s` ([`prospect_common::words::duration`]).
pub fn fmt_duration(secs: i64) -> String {
    prospect_common::words::duration(secs)
}

/// What the gauge shows for a pool the balance answer did not include.
pub const UNKNOWN_POOL: &str = "?";

/// How much the gauge line says: `Full` on a wide screen; narrower screens drop the legend,
/// then the one-time+recurrent parts, then shorten the labels, so the numbers are never cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Detail {
    Full,
    NoLegend,
    NoParts,
    Short,
}

fn pool(name: &str, gauge: &Gauge, which: CreditPool, detail: Detail) -> Vec<Span<'static>> {
    let parts: Option<&Credits> = gauge.balance().and_then(|b| match which {
        CreditPool::Standard => b.credits.as_ref(),
        CreditPool::Email => b.email_credits.as_ref(),
        CreditPool::Phone => b.phone_credits.as_ref(),
    });
    let (Some(p), Some(total)) = (parts, gauge.left(which)) else {
        return vec![
            Span::styled(format!("{name} "), Style::default().fg(theme().dim)),
            Span::styled(
                UNKNOWN_POOL,
                Style::default()
                    .fg(theme().warn)
                    .add_modifier(Modifier::BOLD),
            ),
            Span::raw("  "),
        ];
    };
    let spent = gauge.spent_since_refresh().get(which);
    let color = if total <= 0.0 {
        theme().bad
    } else if total < 10.0 {
        theme().warn
    } else {
        theme().good
    };
    vec![
        Span::styled(format!("{name} "), Style::default().fg(theme().dim)),
        Span::styled(
            fmt_credits(total),
            Style::default().fg(color).add_modifier(Modifier::BOLD),
        ),
        Span::styled(
            if detail >= Detail::NoParts {
                String::new()
            } else if spent.abs() < 1e-9 {
                format!(
                    " ({}+{})",
                    fmt_credits(p.one_time),
                    fmt_credits(p.recurrent)
                )
            } else {
                format!(" (−{} since refresh)", fmt_credits(spent))
            },
            Style::default().fg(theme().dim),
        ),
        Span::raw("  "),
    ]
}

/// Draws the gauge line: the most detailed form that fits the width.
pub fn draw(f: &mut Frame<'_>, area: Rect, app: &App) {
    let width = area.width as usize;
    let mut best = line(app, Detail::Short);
    for d in [Detail::Full, Detail::NoLegend, Detail::NoParts] {
        let l = line(app, d);
        if l.width() <= width {
            best = l;
            break;
        }
    }
    f.render_widget(best, area);
}

fn line(app: &App, detail: Detail) -> Line<'static> {
    let short = detail == Detail::Short;
    let mut spans = vec![
        Span::styled(
            " Credits ",
            theme()
                .badge(theme().heading)
                .remove_modifier(Modifier::BOLD),
        ),
        Span::raw(" "),
    ];
    let g = &app.gauge;
    match g.balance() {
        None if app.balance_loading => spans.push(Span::raw("loading…")),
        None => spans.push(Span::styled(
            format!(
                "unknown ({} refreshes)",
                app.opts.keymap.keys_of(crate::keymap::KeyAction::Credits)
            ),
            Style::default().fg(theme().dim),
        )),
        Some(b) => {
            let (std_l, email_l, phone_l) = if short {
                ("std", "email", "phone")
            } else {
                ("standard", "email", "phone")
            };
            spans.extend(pool(std_l, g, CreditPool::Standard, detail));
            spans.extend(pool(email_l, g, CreditPool::Email, detail));
            spans.extend(pool(phone_l, g, CreditPool::Phone, detail));
            if let Some(left) = g.daily_left() {
                spans.push(Span::styled("daily ", Style::default().fg(theme().dim)));
                spans.push(Span::styled(
                    if short {
                        format!("{left}")
                    } else {
                        format!("{left} left")
                    },
                    Style::default().add_modifier(Modifier::BOLD),
                ));
                if let Some(r) = g.used_up_reset().or(b.daily_limit_rate_seconds_to_reset) {
                    spans.push(Span::styled(
                        if short {
                            format!(" ↺{}", fmt_duration(r))
                        } else {
                            format!(", resets in {}", fmt_duration(r))
                        },
                        Style::default().fg(theme().dim),
                    ));
                }
            }
            if detail == Detail::Full {
                spans.push(Span::styled(
                    "  (one-time+recurrent)",
                    Style::default().fg(theme().dim),
                ));
            }
            if app.balance_loading {
                spans.push(Span::styled(" ↻", Style::default().fg(theme().warn)));
            }
        }
    }
    Line::from(spans)
}
