//! The search history popup: the stored searches of this target (endpoint, a summary of the
//! filters, pages kept, total, age), listed from the store off the UI loop. Enter reopens one
//! at no cost; it owns its list, highlight and keys, and draws itself.
use crate::theme::theme;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use super::widgets::{centered, dim, fit, frame, selected};
use super::{Component, Ctx, Handled, Hint, Input, hint_line};
use crate::keymap::KeyAction;
use crate::msg::HistoryEntry;
use crate::schema;
use prospect_common::sanitize::sanitize;

/// The history popup's state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HistoryPopup {
    /// The stored searches, most recent first; `None` while they load.
    pub entries: Option<Vec<HistoryEntry>>,
    /// Highlighted entry.
    pub sel: usize,
    /// Why the history could not be read.
    pub error: Option<String>,
}

/// What the popup wants.
#[derive(Debug, Clone, PartialEq)]
pub enum HistoryEffect {
    /// Nothing to do (moved, or a key it does not use).
    Nothing,
    /// Closed.
    Closed,
    /// Reopen this stored search.
    Reopen(HistoryEntry),
}

/// Rows a page key moves.
const PAGE: usize = 10;

impl HistoryPopup {
    /// The listing arrived (or failed).
    pub fn loaded(&mut self, result: Result<Vec<HistoryEntry>, String>) {
        match result {
            Ok(entries) => {
                self.sel = 0;
                self.entries = Some(entries);
                self.error = None;
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Handles an action.
    fn on_action(&mut self, action: KeyAction) -> HistoryEffect {
        let n = self.entries.as_ref().map_or(0, Vec::len);
        let last = n.saturating_sub(1);
        match action {
            KeyAction::Up => self.sel = self.sel.saturating_sub(1),
            KeyAction::Down => self.sel = (self.sel + 1).min(last),
            KeyAction::PageUp => self.sel = self.sel.saturating_sub(PAGE),
            KeyAction::PageDown => self.sel = (self.sel + PAGE).min(last),
            KeyAction::Top => self.sel = 0,
            KeyAction::Bottom => self.sel = last,
            KeyAction::Close | KeyAction::History | KeyAction::Quit => {
                return HistoryEffect::Closed;
            }
            KeyAction::Enter => {
                if let Some(e) = self.entries.as_ref().and_then(|e| e.get(self.sel)) {
                    return HistoryEffect::Reopen(e.clone());
                }
            }
            _ => {}
        }
        HistoryEffect::Nothing
    }
}

impl Component for HistoryPopup {
    type Effect = HistoryEffect;

    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<HistoryEffect> {
        let Some(action) = input.action() else {
            return Handled::Ignored;
        };
        Handled::Consumed(self.on_action(action))
    }

    /// Draws the popup.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let keys = ctx.keys;

        let n = self.entries.as_ref().map_or(1, |e| e.len().max(1)) as u16;
        let r = centered(area, 110, (n + 4).clamp(6, area.height.saturating_sub(2)));
        f.render_widget(Clear, r);
        let block = frame(
            " Search history (stored; reopening costs nothing) ",
            theme().accent,
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
                    .fg(theme().heading)
                    .add_modifier(Modifier::BOLD),
            )),
            head,
        );
        let lines: Vec<Line> = match (&self.entries, &self.error) {
            (_, Some(e)) => vec![Line::from(Span::styled(
                format!(" The history could not be read: {}", sanitize(e)),
                Style::default().fg(theme().bad),
            ))],
            (None, None) => vec![Line::from(dim(" reading the store…"))],
            (Some(entries), None) if entries.is_empty() => vec![Line::from(dim(format!(
                " No searches stored yet: a search run with {} is kept here.",
                keys.keys_of(KeyAction::Search)
            )))],
            (Some(entries), None) => {
                let visible = (list_area.height as usize).max(1);
                let offset = super::widgets::follow(0, self.sel, visible);
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
                            &prospect_core::spend::describe_age(e.age),
                        ));
                        if i == self.sel {
                            l.style(selected())
                        } else {
                            l
                        }
                    })
                    .collect()
            }
        };
        f.render_widget(Paragraph::new(lines), list_area);
        f.render_widget(
            Line::from(dim(format!(" {}", hint_line(&self.hints(), keys)))),
            hint,
        );
    }

    fn hints(&self) -> Vec<Hint> {
        vec![
            Hint::KeyAction(KeyAction::Enter, "reopen (from the store, no cost)"),
            Hint::KeyAction(KeyAction::NextPage, "more pages are paid"),
            Hint::KeyAction(KeyAction::Close, "close"),
        ]
    }
}
