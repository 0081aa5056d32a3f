//! Popups, drawn over the panes bottom first; each popup is a component that draws itself
//! (`tui::components`, through [`Component::draw`]): help, confirmation, error, the member
//! editor, the save-name prompt, find-a-member, the palette, the saved-set chooser, the search
//! history and the rest of [`Popup`].
use ratatui::Frame;
use ratatui::layout::Rect;

use crate::app::{App, Popup};
use crate::components::{Component, Ctx};

use super::layout::Areas;

/// Draws every open popup, bottom first; `ctx` is the view's context (the member editor opens
/// under the filters pane's selected row).
pub fn draw(f: &mut Frame<'_>, area: Rect, areas: &Areas, app: &App, ctx: &Ctx<'_>) {
    let fa = areas.filters;
    let row_y = fa.y + 1 + app.form.sel.saturating_sub(app.form.offset.get()) as u16;
    let ctx = Ctx {
        anchor: Rect {
            y: row_y,
            height: 1,
            ..fa
        },
        focused: true,
        ..*ctx
    };
    for p in &app.popups {
        match p {
            Popup::Help(c) => c.draw(f, area, &ctx),
            Popup::Confirm(c) => c.draw(f, area, &ctx),
            Popup::Error(c) => c.draw(f, area, &ctx),
            Popup::SaveName(c) => c.draw(f, area, &ctx),
            Popup::OpenSet(c) => c.draw(f, area, &ctx),
            Popup::Editor(c) => c.draw(f, area, &ctx),
            Popup::Find(c) | Popup::Palette(c) => c.draw(f, area, &ctx),
            Popup::History(c) => c.draw(f, area, &ctx),
            Popup::Lists(c) => c.draw(f, area, &ctx),
            Popup::Segments(c) => c.draw(f, area, &ctx),
            Popup::Export(c) => c.draw(f, area, &ctx),
            Popup::Facets(c) => c.draw(f, area, &ctx),
            Popup::ConfirmAction(c) => c.draw(f, area, &ctx),
            Popup::Activity => app.activity.draw(f, area, &ctx),
            Popup::Lookup(c) => c.draw(f, area, &ctx),
            Popup::ListName(c) => c.draw(f, area, &ctx),
            Popup::Quit(c) => c.draw(f, area, &ctx),
            Popup::Columns(c) => c.draw(f, area, &ctx),
        }
    }
}
