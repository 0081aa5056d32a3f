//! The column picker of a results tab (issue 19, "Columns"): every column of the tab with
//! whether it is shown, in display order. Mark shows or hides the highlighted one, left and
//! right move it earlier or later, Enter sorts the loaded rows by it (ascending, descending,
//! then back to pages). The state owner applies each change at once and keeps the choice in
//! `columns.json`.
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph};

use super::columns::{ColumnChoice, Sort};
use super::widgets::{centered, dim, frame, selected};
use super::{Component, Ctx, Handled, Hint, Input, hint_line};
use crate::keymap::KeyAction;
use crate::records;
use crate::schema::SearchSubject;
use crate::theme::theme;

/// The picker's state.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnPicker {
    /// The tab whose columns these are.
    pub kind: SearchSubject,
    /// Its columns, in display order, with whether each is shown.
    pub cols: Vec<ColumnChoice>,
    /// The highlighted column.
    pub sel: usize,
    /// The sort of the tab's loaded rows.
    pub sort: Option<Sort>,
}

/// What the picker wants.
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnsEffect {
    /// Nothing beyond a redraw (moved, or a key it does not use).
    Nothing,
    /// The columns shown or their order changed: [`ColumnPicker::cols`] is the new choice.
    Changed,
    /// Sort the tab's loaded rows so (`None`: back to pages).
    Sorted(Option<Sort>),
    /// Hiding the last shown column was refused: say why.
    Refused(&'static str),
    /// Closed.
    Close,
}

impl ColumnPicker {
    /// The cell index of the highlighted column.
    fn cell(&self) -> Option<usize> {
        let c = self.cols.get(self.sel)?;
        records::columns(self.kind)
            .iter()
            .position(|t| *t == c.column)
    }

    fn on_action(&mut self, action: KeyAction) -> ColumnsEffect {
        let last = self.cols.len().saturating_sub(1);
        match action {
            KeyAction::Up => self.sel = self.sel.saturating_sub(1),
            KeyAction::Down => self.sel = (self.sel + 1).min(last),
            KeyAction::Top => self.sel = 0,
            KeyAction::Bottom => self.sel = last,
            KeyAction::Mark => {
                let shown = self.cols.iter().filter(|c| c.shown).count();
                if let Some(c) = self.cols.get_mut(self.sel) {
                    if c.shown && shown == 1 {
                        return ColumnsEffect::Refused("at least one column stays shown");
                    }
                    c.shown = !c.shown;
                    return ColumnsEffect::Changed;
                }
            }
            KeyAction::Left if self.sel > 0 => {
                self.cols.swap(self.sel, self.sel - 1);
                self.sel -= 1;
                return ColumnsEffect::Changed;
            }
            KeyAction::Right if self.sel < last => {
                self.cols.swap(self.sel, self.sel + 1);
                self.sel += 1;
                return ColumnsEffect::Changed;
            }
            KeyAction::Enter => {
                let Some(column) = self.cell() else {
                    return ColumnsEffect::Nothing;
                };
                // None → ascending → descending → none, per column.
                self.sort = match self.sort {
                    Some(s) if s.column == column && !s.descending => Some(Sort {
                        column,
                        descending: true,
                    }),
                    Some(s) if s.column == column => None,
                    _ => Some(Sort {
                        column,
                        descending: false,
                    }),
                };
                return ColumnsEffect::Sorted(self.sort);
            }
            KeyAction::Close | KeyAction::Quit | KeyAction::Columns => return ColumnsEffect::Close,
            _ => {}
        }
        ColumnsEffect::Nothing
    }
}

impl Component for ColumnPicker {
    type Effect = ColumnsEffect;

    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<ColumnsEffect> {
        match input.action() {
            Some(action) => Handled::Consumed(self.on_action(action)),
            None => Handled::Ignored,
        }
    }

    /// Draws the picker centred in `area`: one line per column (`[x]` shown, its sort arrow),
    /// the highlighted one marked, then the keys.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let r = centered(area, 64, self.cols.len() as u16 + 5);
        f.render_widget(Clear, r);
        let title = match self.kind {
            SearchSubject::Companies => " Columns of the companies tab ",
            SearchSubject::People => " Columns of the people tab ",
        };
        let block = frame(title, theme().accent);
        let inner = block.inner(r);
        f.render_widget(block, r);
        let [list, note, hint] = Layout::vertical([
            Constraint::Min(1),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(inner);
        let titles = records::columns(self.kind);
        let lines: Vec<Line> = self
            .cols
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let cell = titles.iter().position(|t| *t == c.column);
                let arrow = match self.sort {
                    Some(s) if Some(s.column) == cell && s.descending => "  sorted ↓",
                    Some(s) if Some(s.column) == cell => "  sorted ↑",
                    _ => "",
                };
                let mark = if c.shown { "[x]" } else { "[ ]" };
                let l = Line::from(format!(" {mark} {}{arrow}", c.column));
                if i == self.sel {
                    l.style(selected())
                } else {
                    l
                }
            })
            .collect();
        f.render_widget(Paragraph::new(lines), list);
        f.render_widget(
            Line::from(dim(" a sort orders every loaded row, not just the page")),
            note,
        );
        f.render_widget(
            Line::from(dim(format!(" {}", hint_line(&self.hints(), ctx.keys)))),
            hint,
        );
    }

    fn hints(&self) -> Vec<Hint> {
        vec![
            Hint::KeyAction(KeyAction::Mark, "show / hide"),
            Hint::Actions(&[KeyAction::Left, KeyAction::Right], "move"),
            Hint::KeyAction(KeyAction::Enter, "sort"),
            Hint::KeyAction(KeyAction::Close, "close"),
        ]
    }
}
