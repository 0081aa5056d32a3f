//! Where each pane goes on the screen.

use ratatui::layout::{Constraint, Layout, Rect};

/// Where each pane goes on a screen of `area`.
#[derive(Debug, Clone, Copy)]
pub struct Areas {
    /// Title line.
    pub header: Rect,
    /// Filters pane.
    pub filters: Rect,
    /// Results pane.
    pub results: Rect,
    /// Details pane.
    pub details: Rect,
    /// Credit gauge line.
    pub credits: Rect,
    /// Status line.
    pub status: Rect,
}

/// The layout of the screen.
pub fn areas(area: Rect) -> Areas {
    let [header, main, credits, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(5),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let filters_w = (main.width * 2 / 5).clamp(30.min(main.width), 64);
    let [filters, right] =
        Layout::horizontal([Constraint::Length(filters_w), Constraint::Min(10)]).areas(main);
    let [results, details] =
        Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(right);
    Areas {
        header,
        filters,
        results,
        details,
        credits,
        status,
    }
}
