//! Popups, drawn over the panes bottom first; each popup is a component that draws itself
//! (`tui::components`): help, confirmation, error, the member editor, the save-name prompt,
//! find-a-member, the saved-set chooser and the search history.
use ratatui::Frame;
use ratatui::layout::Rect;

use crate::tui::app::{App, Popup};
use crate::tui::components;

use super::Areas;

/// Draws every open popup, bottom first.
pub fn draw(f: &mut Frame<'_>, area: Rect, areas: &Areas, app: &App) {
    let keys = &app.opts.keymap;
    for p in &app.popups {
        match p {
            Popup::Help(h) => h.draw(f, area, keys),
            Popup::Confirm(p) => {
                components::spend_gate::draw(f, area, p, app.opts.confirm_above, keys)
            }
            Popup::Error(text) => components::help::draw_error(f, area, text, keys),
            Popup::SaveName(prompt) => prompt.draw(f, area, &app.sets.dir, keys),
            Popup::OpenSet(o) => o.draw(f, area, keys),
            Popup::Editor(ed) => {
                // Under the selected row of the filters pane.
                let fa = areas.filters;
                let row_y = fa.y + 1 + app.form.sel.saturating_sub(app.form.offset.get()) as u16;
                ed.draw(f, area, fa, row_y, app.data_fields_state.as_ref(), keys)
            }
            Popup::Find(p) => p.draw_find(f, area, keys),
            Popup::Palette(p) => p.draw_palette(f, area, keys),
            Popup::History(h) => h.draw(f, area, keys),
            Popup::Lists(l) => l.draw(f, area, keys),
            Popup::Export(p) => p.draw(f, area, app.opts.confirm_above, keys),
            Popup::Facets(v) => v.draw(f, area, keys),
            Popup::ConfirmAction(p) => {
                components::spend_gate::draw_action(f, area, p, app.opts.confirm_above, keys)
            }
            Popup::Activity => app.activity.draw(f, area, app.now, keys),
            Popup::Lookup(l) => l.draw(f, area, keys),
            Popup::ListName(l) => l.draw(f, area, keys),
        }
    }
}
