//! The command palette (issue 19, "A command palette"): `:` or `Ctrl-p` lists every action of
//! the keymap by its description and its config name, fuzzy-matched as you type (nucleo,
//! through the one [`Picker`]), each with the keys bound to it and, when it cannot run here,
//! why; submit runs the highlighted action exactly as its key would. A child of `app`, sharing
//! its state.
use serde_json::Value;

use super::{App, Popup};
use crate::components::picker::{Picker, PickerEvent, PickerKind, PickerPopup};
use crate::keymap::KeyAction;
use crate::msg::Command;
use crate::schema::{Opt, SearchSubject};

/// Width of an entry's description (with why it cannot run, if so) before its keys.
const DESCRIPTION: usize = 62;

/// Width of an entry's keys before its config name.
const KEYS: usize = 12;

impl App {
    /// Opens the palette over everything else.
    pub(super) fn open_palette(&mut self) -> Vec<Command> {
        let options = KeyAction::ALL
            .iter()
            .filter(|a| **a != KeyAction::Palette)
            .map(|&a| {
                let keys = self.opts.keymap.keys_of(a);
                let what = match self.unavailable(a) {
                    Some(why) => format!("{} ({why})", a.help()),
                    None => a.help().to_string(),
                };
                let label = format!("{what:<DESCRIPTION$} {keys:<KEYS$} {}", a.name());
                Opt {
                    label,
                    value: Value::from(a.name()),
                }
            })
            .collect();
        self.popups.push(Popup::Palette(PickerPopup {
            picker: Picker::new(options, false, vec![]),
            kind: PickerKind::Palette,
        }));
        vec![]
    }

    /// Why `action` cannot do anything here, in a few words; `None` when it can.
    pub(super) fn unavailable(&self, action: KeyAction) -> Option<&'static str> {
        let kind = self.tab();
        let row = self.search(kind).selected().is_some();
        match action {
            KeyAction::RevealEmails | KeyAction::RevealPhones if kind != SearchSubject::People => {
                Some("on the people tab")
            }
            KeyAction::PeopleAtCompany | KeyAction::Lookalikes
                if kind != SearchSubject::Companies =>
            {
                Some("on the companies tab")
            }
            KeyAction::RevealEmails
            | KeyAction::RevealPhones
            | KeyAction::PeopleAtCompany
            | KeyAction::Lookalikes
            | KeyAction::Enrich
            | KeyAction::Warmup
            | KeyAction::AddToList
            | KeyAction::Mark
            | KeyAction::MarkAll
            | KeyAction::CopyRow
            | KeyAction::Export
            | KeyAction::Facets
            | KeyAction::NextPage
            | KeyAction::PrevPage
                if !row =>
            {
                Some("needs results")
            }
            _ => None,
        }
    }

    /// A key in the palette: typing narrows, the text layer moves, submit runs the highlighted
    /// action as if its key had been pressed with no popup open, cancel closes.
    pub(super) fn on_palette(&mut self, e: PickerEvent) -> Vec<Command> {
        match e {
            PickerEvent::Cancelled => {
                self.popups.pop();
                vec![]
            }
            PickerEvent::Picked(opt) => {
                self.popups.pop();
                match opt.value.as_str().and_then(KeyAction::from_name) {
                    Some(action) => self.dispatch(action),
                    None => vec![],
                }
            }
            PickerEvent::Changed | PickerEvent::Nothing => vec![],
        }
    }
}
