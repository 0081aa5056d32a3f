//! The mouse (issue 19, "Mouse"; on unless config `mouse = false`): a click focuses the pane
//! under it and selects the filter line, the results row or the results tab clicked; a double
//! click opens (as `Enter` does); the wheel moves the selection of the pane under it. Clicks
//! are placed with the layout of the last frame drawn ([`App::screen`]); with a popup open the
//! mouse does nothing, so a stray click never changes what is behind it.
use std::time::{Duration, Instant};

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::{App, Pane};
use crate::keymap::KeyAction;
use crate::msg::Command;
use crate::schema::SearchSubject;

/// Two clicks on the same cell within this time are a double click.
pub const DOUBLE_CLICK: Duration = Duration::from_millis(400);

/// Rows the wheel moves a selection per notch.
const WHEEL_ROWS: usize = 3;

impl App {
    /// Handles a mouse event (see the module docs).
    pub(super) fn on_mouse(&mut self, m: MouseEvent) -> Vec<Command> {
        if !self.popups.is_empty() {
            return vec![];
        }
        let screen = self.screen.get();
        if screen.width < crate::view::MIN_WIDTH || screen.height < crate::view::MIN_HEIGHT {
            return vec![];
        }
        let a = crate::view::areas(screen);
        let at = Position::new(m.column, m.row);
        let pane = [
            (a.filters, Pane::Filters),
            (a.results, Pane::Results),
            (a.details, Pane::Details),
        ]
        .into_iter()
        .find(|(r, _)| r.contains(at));
        let Some((area, pane)) = pane else {
            return vec![];
        };
        match m.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                self.dirty = true;
                let now = Instant::now();
                let double = self.last_click.is_some_and(|(t, x, y)| {
                    (x, y) == (m.column, m.row) && now.duration_since(t) <= DOUBLE_CLICK
                });
                self.last_click = (!double).then_some((now, m.column, m.row));
                self.focus = pane;
                let mut cmds = match pane {
                    Pane::Filters => self.click_filters(area, m.row),
                    Pane::Results => self.click_results(area, m.column, m.row),
                    Pane::Details => vec![],
                };
                if double {
                    cmds.extend(self.dispatch(KeyAction::Enter));
                }
                cmds
            }
            MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
                self.dirty = true;
                self.focus = pane;
                let action = if m.kind == MouseEventKind::ScrollDown {
                    KeyAction::Down
                } else {
                    KeyAction::Up
                };
                let mut cmds = Vec::new();
                for _ in 0..WHEEL_ROWS {
                    cmds.extend(self.dispatch(action));
                }
                cmds
            }
            _ => vec![],
        }
    }

    /// A click on line `y` of the filters pane `area` selects that line.
    fn click_filters(&mut self, area: Rect, y: u16) -> Vec<Command> {
        let Some(line) = y.checked_sub(area.y + 1) else {
            return vec![];
        };
        let i = self.form.offset.get() + usize::from(line);
        if i < self.form_rows().len() {
            self.form.sel = i;
        }
        vec![]
    }

    /// A click in the results pane `area`: on the tabs line, switches to the tab clicked; on a
    /// row of the table (under its header), selects it.
    fn click_results(&mut self, area: Rect, x: u16, y: u16) -> Vec<Command> {
        // Border, then the tabs line, then the table's header, then its rows.
        let tabs_y = area.y + 1;
        if y == tabs_y {
            // " Companies " then "│" then " People ".
            let clicked = if x < area.x + 1 + 12 {
                SearchSubject::Companies
            } else {
                SearchSubject::People
            };
            if clicked != self.tab() {
                return self.dispatch(KeyAction::SwitchTab);
            }
            return vec![];
        }
        let Some(line) = y.checked_sub(tabs_y + 2) else {
            return vec![];
        };
        let kind = self.tab();
        let s = self.search_mut(kind);
        let i = s.offset.get() + usize::from(line);
        if i < s.shown_len() {
            s.sel = i;
            self.details.reset();
        }
        vec![]
    }
}
