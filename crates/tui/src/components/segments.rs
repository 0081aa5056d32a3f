//! The Segments view (issue 18): the segmentations bought (from the store, free), one at a
//! time with its segments (name, companies, lookalike count, traits as bars), kept up to date
//! while the service computes it. It owns its list, the segmentation shown, the highlighted
//! segment and its keys, and draws itself; the state owner does what its effects ask: read a
//! segmentation (free), run a lookalike search seeded with a segment's companies, attribute
//! the loaded companies to the segments (the `segment` and `fit` columns), mark the marked
//! companies a good or a poor fit. Creating a segmentation (paid) starts from the marked
//! companies, through the spend gate, before this view opens.
use crate::theme::theme;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use super::widgets::{centered, dim, fit, frame, selected};
use super::{Component, Ctx, Handled, Hint, Input, hint_line};
use crate::keymap::KeyAction;
use prospect_api::types::{MarkType, Segment, Segmentation, SegmentationStatus};
use prospect_common::sanitize::sanitize;
use prospect_core::owned::SegmentationRow;

/// The Segments view's state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SegmentsPopup {
    /// The segmentations of the store, newest first; `None` while they load.
    pub rows: Option<Vec<SegmentationRow>>,
    /// The one shown (index into `rows`).
    pub at: usize,
    /// Its last answer read (the store's until the service answers).
    pub shown: Option<Segmentation>,
    /// The highlighted segment.
    pub sel: usize,
    /// A line about what is under way or went wrong, sanitized.
    pub note: Option<String>,
}

/// What the view wants.
#[derive(Debug, Clone, PartialEq)]
pub enum SegmentsEffect {
    /// Nothing to do.
    Nothing,
    /// Closed.
    Closed,
    /// Read segmentation `id` from the service (free).
    Load(i64),
    /// A lookalike search seeded with these domains (a segment's companies).
    Lookalikes {
        /// The segment's companies the search is seeded with.
        seeds: Vec<String>,
        /// `true`: the form's other companies filters stay (seeds + my filters); `false`: the
        /// search is the seeds alone, as the segment's lookalike count is.
        keep_filters: bool,
    },
    /// Attribute the loaded companies to segmentation `id` (free).
    Attribute(i64),
    /// Mark the marked (or selected) companies a good / poor fit of segmentation `id` (free).
    Mark(i64, MarkType),
}

/// Most domains a segment seeds a lookalike search with.
pub const LOOKALIKE_SEEDS: usize = 10;

/// Width of a trait's bar.
const BAR: usize = 12;

impl SegmentsPopup {
    /// The store's segmentations arrived: the newest (or segmentation `focus`) is shown, from
    /// the store's last answer until the service's comes. The id to read, if any.
    pub fn loaded(&mut self, rows: Vec<SegmentationRow>, focus: Option<i64>) -> Option<i64> {
        self.at = focus
            .and_then(|id| rows.iter().position(|r| r.id == id))
            .unwrap_or(0);
        self.rows = Some(rows);
        self.show_row()
    }

    /// Shows the row at `at` (its stored answer); the id to read.
    fn show_row(&mut self) -> Option<i64> {
        let row = self.rows.as_ref()?.get(self.at)?;
        self.shown = row.answer.clone();
        self.sel = 0;
        Some(row.id)
    }

    /// The id of the segmentation shown.
    pub fn id(&self) -> Option<i64> {
        self.rows.as_ref()?.get(self.at).map(|r| r.id)
    }

    /// An answer of segmentation `answer.segmentation_id` arrived; shown when it is the one
    /// shown (an in-progress answer does not hide a finished one kept before).
    pub fn answered(&mut self, answer: Segmentation) {
        if Some(answer.segmentation_id) != self.id() {
            return;
        }
        let kept_done = self
            .shown
            .as_ref()
            .is_some_and(|s| s.status != SegmentationStatus::InProgress);
        if answer.status == SegmentationStatus::InProgress && kept_done {
            return;
        }
        self.sel = self.sel.min(answer.segments.len().saturating_sub(1));
        self.shown = Some(answer);
    }

    /// `true` while the one shown is being computed.
    pub fn in_progress(&self) -> bool {
        self.id().is_some()
            && self
                .shown
                .as_ref()
                .is_none_or(|s| s.status == SegmentationStatus::InProgress)
    }

    fn segments(&self) -> &[Segment] {
        self.shown.as_ref().map_or(&[], |s| &s.segments[..])
    }

    fn on_action(&mut self, action: KeyAction) -> SegmentsEffect {
        let n = self.segments().len();
        let last = n.saturating_sub(1);
        let count = self.rows.as_ref().map_or(0, Vec::len);
        match action {
            KeyAction::Up => self.sel = self.sel.saturating_sub(1),
            KeyAction::Down => self.sel = (self.sel + 1).min(last),
            KeyAction::Top => self.sel = 0,
            KeyAction::Bottom => self.sel = last,
            KeyAction::Left | KeyAction::Right if count > 1 => {
                self.at = if action == KeyAction::Right {
                    (self.at + 1) % count
                } else {
                    (self.at + count - 1) % count
                };
                self.note = None;
                return self
                    .show_row()
                    .map_or(SegmentsEffect::Nothing, SegmentsEffect::Load);
            }
            KeyAction::Close | KeyAction::Segments | KeyAction::Quit => {
                return SegmentsEffect::Closed;
            }
            // Enter: the seeds alone (what the segment's lookalike count counts); `L`: the
            // seeds with the form's other companies filters (issue 38).
            KeyAction::Enter | KeyAction::Lookalikes => {
                if let Some(s) = self.segments().get(self.sel) {
                    let seeds = s.domains.iter().take(LOOKALIKE_SEEDS).cloned().collect();
                    return SegmentsEffect::Lookalikes {
                        seeds,
                        keep_filters: action == KeyAction::Lookalikes,
                    };
                }
            }
            KeyAction::Attribute if !self.in_progress() => {
                if let Some(id) = self.id() {
                    return SegmentsEffect::Attribute(id);
                }
            }
            KeyAction::FitGood | KeyAction::FitPoor => {
                if let Some(id) = self.id() {
                    let kind = if action == KeyAction::FitGood {
                        MarkType::Positive
                    } else {
                        MarkType::Negative
                    };
                    return SegmentsEffect::Mark(id, kind);
                }
            }
            _ => {}
        }
        SegmentsEffect::Nothing
    }

    /// The header line: which segmentation, its status, segments and market.
    fn head(&self) -> String {
        let Some(id) = self.id() else {
            return String::new();
        };
        let count = self.rows.as_ref().map_or(0, Vec::len);
        let which = if count > 1 {
            format!("segmentation {id} ({} of {count})", self.at + 1)
        } else {
            format!("segmentation {id}")
        };
        match &self.shown {
            None => format!("{which} · reading…"),
            Some(s) => match s.status {
                SegmentationStatus::InProgress => format!("{which} · in progress…"),
                SegmentationStatus::Failed => {
                    format!("{which} · failed: none of its domains is a company the service knows")
                }
                _ => format!(
                    "{which} · {} · {} companies look like them",
                    prospect_common::words::counted(s.segments.len(), "segment", "segments"),
                    s.total_addressable_market
                        .map_or_else(|| "an unknown number of".into(), group)
                ),
            },
        }
    }

    /// The lines of one segment: its row, then (when highlighted) its traits as bars.
    fn segment_lines(&self, s: &Segment, on: bool, width: usize) -> Vec<Line<'static>> {
        let name_w = width.saturating_sub(34).max(10);
        let row = format!(
            " {:>2} {:<name_w$} {:>9} {:>18}",
            s.segment_id,
            fit(&sanitize(&s.name), name_w),
            format!("{} cos", s.company_count),
            s.lookalike_count
                .map_or_else(String::new, |n| format!("{} lookalikes", group(n))),
        );
        let mut out = vec![if on {
            Line::from(row).style(selected())
        } else {
            Line::from(row)
        }];
        if on {
            for t in s.traits.iter().flatten() {
                let filled = (t.score.clamp(0.0, 1.0) * BAR as f64).round() as usize;
                let label_w = width.saturating_sub(BAR + 30).max(8);
                out.push(Line::from(vec![
                    Span::raw(format!(
                        "    {:<label_w$} ",
                        fit(&sanitize(&t.feature_value), label_w)
                    )),
                    Span::styled("█".repeat(filled), Style::default().fg(theme().accent)),
                    Span::raw(format!(
                        "{} {:.2}  ",
                        " ".repeat(BAR - filled.min(BAR)),
                        t.score
                    )),
                    dim(sanitize(&t.feature_name)),
                ]));
            }
        }
        out
    }
}

/// `12,345`.
fn group(n: i64) -> String {
    let s = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

impl Component for SegmentsPopup {
    type Effect = SegmentsEffect;

    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<SegmentsEffect> {
        let Some(action) = input.action() else {
            return Handled::Ignored;
        };
        Handled::Consumed(self.on_action(action))
    }

    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let keys = ctx.keys;
        let traits = self
            .segments()
            .get(self.sel)
            .and_then(|s| s.traits.as_ref())
            .map_or(0, Vec::len);
        let want = (self.segments().len().max(1) + traits + 5) as u16;
        let r = centered(area, 110, want.clamp(8, area.height.saturating_sub(2)));
        f.render_widget(Clear, r);
        let block = frame(" Segments ", theme().accent);
        let inner = block.inner(r);
        f.render_widget(block, r);
        let [head, list_area, note, hint] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(1),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(inner);
        f.render_widget(
            Line::from(Span::styled(
                fit(&format!(" {}", self.head()), inner.width as usize),
                Style::default()
                    .fg(theme().heading)
                    .add_modifier(Modifier::BOLD),
            )),
            head,
        );
        let width = inner.width as usize;
        let lines: Vec<Line> = match &self.rows {
            None => vec![Line::from(dim(" reading the store…"))],
            Some(rows) if rows.is_empty() => vec![
                Line::from(dim(
                    " No segmentation yet. Mark your customers in the companies tab (a list, a",
                )),
                Line::from(dim(format!(
                    " lookup of a file, a search), then {}: 0.1 credit a company, once.",
                    keys.keys_of(KeyAction::Segments)
                ))),
            ],
            Some(_) => {
                let mut out = Vec::new();
                for (i, s) in self.segments().iter().enumerate() {
                    out.extend(self.segment_lines(s, i == self.sel, width));
                }
                if out.is_empty() && !self.in_progress() {
                    out.push(Line::from(dim(" No segments.")));
                }
                // The highlighted segment stays in view.
                let visible = (list_area.height as usize).max(1);
                let before: usize = self.sel;
                let skip = before.saturating_sub(visible.saturating_sub(traits + 1));
                out.into_iter().skip(skip).collect()
            }
        };
        f.render_widget(Paragraph::new(lines), list_area);
        if let Some(n) = &self.note {
            f.render_widget(Line::from(dim(format!(" {}", sanitize(n)))), note);
        }
        f.render_widget(
            Line::from(dim(format!(" {}", hint_line(&self.hints(), keys)))),
            hint,
        );
    }

    fn hints(&self) -> Vec<Hint> {
        let mut h = vec![
            Hint::KeyAction(KeyAction::Enter, "lookalikes (seeds)"),
            Hint::KeyAction(KeyAction::Lookalikes, "seeds + my filters"),
        ];
        if !self.in_progress() {
            h.push(Hint::KeyAction(KeyAction::Attribute, "fit of the loaded"));
        }
        h.push(Hint::KeyAction(KeyAction::FitGood, "good fit"));
        h.push(Hint::KeyAction(KeyAction::FitPoor, "poor fit"));
        if self.rows.as_ref().is_some_and(|r| r.len() > 1) {
            h.push(Hint::KeyAction(KeyAction::Right, "next"));
        }
        h.push(Hint::KeyAction(KeyAction::Close, "close"));
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped() {
        assert_eq!(group(3792), "3,792");
        assert_eq!(group(12), "12");
        assert_eq!(group(1_234_567), "1,234,567");
    }
}
