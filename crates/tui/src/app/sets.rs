//! Filter sets, history, lists, back and undo (issue 19, "The shape": `impl App` by
//! concern): saving and opening sets, reopening stored searches, adding rows to lists and
//! opening them, and what `Back` and `Undo` restore.
use super::*;
use crate::components::lists::{ListPromptEffect, ListsEffect};
use crate::components::sets::QuitEffect;

/// How many replaced searches `Back` can return to.
pub const BACK_LIMIT: usize = 20;

impl App {
    /// What the filter-set chooser asked for.
    pub(super) fn on_open_set(&mut self, e: OpenSetsEffect) -> Vec<Command> {
        match e {
            OpenSetsEffect::Undo => {
                let cmds = self.undo();
                if let Ok(names) = self.sets.list()
                    && let Some(Popup::OpenSet(o)) = self.popups.last_mut()
                {
                    *o = OpenSets::new(names);
                }
                return cmds;
            }
            OpenSetsEffect::Nothing => {}
            OpenSetsEffect::Closed => {
                self.popups.pop();
            }
            OpenSetsEffect::Open(name) => {
                self.popups.pop();
                match self.sets.open(&name) {
                    Ok(set) => {
                        self.apply_set(set, Some(name.clone()));
                        self.focus = Pane::Filters;
                        let runs = self.set_opened(&name);
                        return vec![self.timer(TimerId::Status, STATUS_TTL), runs];
                    }
                    Err(e) => self.error_popup(format!("Could not open the filter set: {e}")),
                }
            }
            OpenSetsEffect::Delete(name) => {
                // Kept for undo before it goes.
                let kept = prospect_core::filter_set::path_of(&self.sets.dir, &name)
                    .and_then(|p| prospect_core::filter_set::load(&p))
                    .ok();
                match self.sets.delete(&name) {
                    Ok(()) => {
                        // The open set is gone: its filters are saved nowhere now.
                        if self.sets.name.is_none() {
                            self.form.saved = None;
                        }
                        if let Some(Popup::OpenSet(o)) = self.popups.last_mut()
                            && o.remove(&name)
                        {
                            self.popups.pop();
                        }
                        let mut text = format!("Deleted filter set {name}");
                        if let Some(set) = kept {
                            self.undo = Some(Undo::DeletedSet {
                                name: name.clone(),
                                set,
                            });
                            let u = self.opts.keymap.first_key_of(KeyAction::Undo);
                            text.push_str(&format!(" · {u} undoes"));
                        }
                        return self.info(&text);
                    }
                    Err(e) => self.error_popup(e),
                }
            }
        }
        vec![]
    }

    /// Closes the popup on top, which was reading the store in `slot`: its answer, if it
    /// still comes, is dropped.
    pub(super) fn close_reading(&mut self, slot: Slot) -> Vec<Command> {
        self.popups.pop();
        self.bump(slot);
        vec![Command::Abort(slot)]
    }

    /// What the history popup asked for.
    pub(super) fn on_history(&mut self, e: HistoryEffect) -> Vec<Command> {
        match e {
            HistoryEffect::Nothing => vec![],
            HistoryEffect::Closed => self.close_reading(Slot::History),
            HistoryEffect::Reopen(entry) => {
                self.popups.pop();
                self.reopen(&entry)
            }
        }
    }

    /// What the lists popup asked for.
    pub(super) fn on_lists(&mut self, e: ListsEffect) -> Vec<Command> {
        match e {
            ListsEffect::Nothing => vec![],
            ListsEffect::Closed => self.close_reading(Slot::ListsView),
            ListsEffect::Open(name) => {
                let listed = match self.popups.last() {
                    Some(Popup::Lists(l)) => l.lists.as_deref().unwrap_or(&[]),
                    _ => &[],
                };
                let kind = match listed.iter().find(|s| s.name == name) {
                    Some(s) if s.kind == prospect_core::owned::ListKind::Contacts => {
                        SearchSubject::People
                    }
                    _ => SearchSubject::Companies,
                };
                self.popups.pop();
                let what = format!(
                    "Opening list {}",
                    prospect_common::sanitize::sanitize(&name)
                );
                self.read_into_tab(kind, &what, Call::OpenList(name))
            }
        }
    }

    /// A list read back into the tab of `kind`: its members as one page at no cost, with what
    /// buying the rest would cost; marks, reveals, lookups, `+` and the export act on it as on
    /// a search's rows. The form keeps its filters: a search replaces the list.
    pub(super) fn on_list_opened(
        &mut self,
        kind: SearchSubject,
        l: crate::msg::OpenedList,
    ) -> Vec<Command> {
        self.last_error = None;
        let n = l.rows.len();
        let name = prospect_common::sanitize::sanitize(&l.name);
        *self.search_mut(kind) = SearchState {
            pages: vec![Page {
                rows: l.rows,
                stored: true,
            }],
            total: Some(n as u64),
            list: Some(name.clone()),
            ..SearchState::default()
        };
        self.focus = Pane::Results;
        self.details.reset();
        let members = match l.kind {
            prospect_core::owned::ListKind::Accounts => format!("{n} accounts, {} stored", l.known),
            prospect_core::owned::ListKind::Contacts => {
                format!("{n} contacts, {} revealed", l.revealed)
            }
        };
        let rest = match (l.kind, l.rest) {
            (_, Err(why)) => format!("the rest not planned: {why}"),
            (prospect_core::owned::ListKind::Accounts, Ok(plan)) => {
                format!("looking them up: {plan}")
            }
            (prospect_core::owned::ListKind::Contacts, Ok(plan)) => {
                format!("revealing emails: {plan}")
            }
        };
        let act = match l.kind {
            prospect_core::owned::ListKind::Accounts => format!(
                ", then {} looks them up",
                self.opts.keymap.first_key_of(KeyAction::Lookup)
            ),
            prospect_core::owned::ListKind::Contacts => format!(
                ", then {} reveals",
                self.opts.keymap.first_key_of(KeyAction::RevealEmails)
            ),
        };
        self.info(&format!(
            "List {name}: {members} · nothing spent · {rest} · {} marks all{act}",
            self.opts.keymap.first_key_of(KeyAction::MarkAll)
        ))
    }

    /// Reads a stored search back into its tab (free; off the UI loop). Whatever ran in that
    /// tab is superseded: a paid page still on its way is stored but not shown.
    pub(super) fn reopen(&mut self, entry: &HistoryEntry) -> Vec<Command> {
        let what = format!("Reopening {}", schema::label(entry.endpoint));
        self.read_into_tab(
            schema::tab_of(entry.endpoint),
            &what,
            Call::Reopen(entry.id),
        )
    }

    /// Shows the tab of `kind` waiting for `call`, a free read of the store (a stored search,
    /// a list) into it, and says "`what` from the store (no cost)…".
    fn read_into_tab(&mut self, kind: SearchSubject, what: &str, call: Call) -> Vec<Command> {
        self.form.show_kind(kind);
        let s = self.search_mut(kind);
        s.loading = true;
        s.error = None;
        self.set_status(
            &format!("{what} from the store (no cost)…"),
            StatusKind::Progress,
        );
        vec![self.call(Slot::Search(kind), call)]
    }

    pub(super) fn save(&mut self, ask: bool) -> Vec<Command> {
        match (&self.sets.name, ask) {
            (Some(name), false) => {
                let name = name.clone();
                self.save_as(&name)
            }
            // "Save as" starts empty: typing a new name never appends to the current one.
            _ => {
                self.popups
                    .push(Popup::SaveName(SaveName::new("", &self.sets.dir)));
                vec![]
            }
        }
    }

    pub(super) fn save_as(&mut self, name: &str) -> Vec<Command> {
        // Both tabs' forms (issue 38): the other tab's too when it holds a filter.
        let set = self.form.filter_set();
        match self.sets.save(name, &set) {
            Ok(path) => {
                // What "unsaved" is measured against from now on.
                self.form.saved = Some(set);
                // Written back to the file it was opened from: say where.
                if self.sets.file.is_some() {
                    self.info(&format!(
                        "Saved filter set {name} to {}",
                        prospect_common::sanitize::sanitize(&path.display().to_string())
                    ))
                } else {
                    self.info(&format!("Saved filter set {name}"))
                }
            }
            Err(e) => {
                self.error_popup(format!("Could not save: {e}"));
                vec![]
            }
        }
    }

    /// `+`: the marked rows of the shown tab (or the selected one) into a named list, asked
    /// for in a prompt.
    pub(super) fn add_to_list(&mut self) -> Vec<Command> {
        let kind = self.tab();
        let keys: Vec<String> = self
            .targets(kind)
            .iter()
            .map(|r| r.record.key())
            .filter(|k| !k.is_empty())
            .collect();
        if keys.is_empty() {
            return self.info("Nothing to add: run a search, then mark rows (or select one).");
        }
        let list_kind = match kind {
            SearchSubject::Companies => prospect_core::owned::ListKind::Accounts,
            SearchSubject::People => prospect_core::owned::ListKind::Contacts,
        };
        self.popups
            .push(Popup::ListName(crate::components::lists::ListPrompt::new(
                list_kind, keys,
            )));
        vec![self.call(Slot::ListsView, Call::Lists)]
    }

    /// What the add-to-list prompt asked for.
    pub(super) fn on_list_name(&mut self, e: ListPromptEffect) -> Vec<Command> {
        match e {
            ListPromptEffect::Nothing => vec![],
            ListPromptEffect::Cancelled => {
                self.popups.pop();
                vec![]
            }
            ListPromptEffect::Invalid(why) => {
                self.set_status(&why, StatusKind::Error);
                vec![]
            }
            ListPromptEffect::Add(name) => {
                let Some(Popup::ListName(prompt)) = self.popups.pop() else {
                    return vec![];
                };
                vec![self.call(
                    Slot::Lists,
                    Call::AddToList {
                        name,
                        kind: prompt.kind,
                        keys: prompt.keys,
                    },
                )]
            }
        }
    }

    /// What the save-as prompt asked for.
    pub(super) fn on_save_name(&mut self, e: SaveNameEffect) -> Vec<Command> {
        match e {
            SaveNameEffect::Nothing => vec![],
            SaveNameEffect::Cancelled => {
                self.popups.pop();
                self.quit_after_save = false;
                vec![]
            }
            SaveNameEffect::Invalid(why) => {
                self.set_status(&why, StatusKind::Error);
                vec![]
            }
            SaveNameEffect::Save(name) => {
                self.popups.pop();
                let cmds = self.save_as(&name);
                self.quit_if_saved(cmds)
            }
        }
    }

    /// The answer to "quit with unsaved filters?".
    pub(super) fn on_quit(&mut self, e: QuitEffect) -> Vec<Command> {
        match e {
            QuitEffect::Nothing => vec![],
            QuitEffect::Stay => {
                self.popups.pop();
                vec![]
            }
            QuitEffect::Quit => {
                self.popups.pop();
                self.quit = true;
                vec![Command::Quit]
            }
            QuitEffect::Save => {
                self.popups.pop();
                self.quit_after_save = true;
                let cmds = self.save(false);
                self.quit_if_saved(cmds)
            }
        }
    }

    /// After a save asked for by the quit prompt: quits when both tabs' filters are now saved; waits while the save-as prompt asks for a name; a save that failed (its error
    /// popup open) quits nothing, and the next save is an ordinary one.
    fn quit_if_saved(&mut self, mut cmds: Vec<Command>) -> Vec<Command> {
        let asking_a_name = matches!(self.popups.last(), Some(Popup::SaveName(_)));
        if self.quit_after_save && !asking_a_name {
            self.quit_after_save = false;
            if self.popups.is_empty() && self.form.unsaved().is_empty() {
                self.quit = true;
                cmds.push(Command::Quit);
            }
        }
        cmds
    }

    /// Keeps the form and the tab of `kind` before `P` / `L` replace them.
    pub(super) fn push_back(&mut self, kind: SearchSubject) {
        if self.back.len() == BACK_LIMIT {
            self.back.remove(0);
        }
        self.back.push(BackEntry {
            endpoint: self.form.endpoint,
            body: self.form.body.clone(),
            other: self.form.other.clone(),
            kind,
            state: self.search(kind).clone(),
            shown: self.tab(),
        });
    }

    /// `Back`: the search before the last `P` / `L`, its form and its pages (no call; a page
    /// of the replacing search still on its way is stored but not shown).
    pub(super) fn go_back(&mut self) -> Vec<Command> {
        let Some(b) = self.back.pop() else {
            return self.info("No earlier search to go back to.");
        };
        self.bump(Slot::Search(b.kind));
        *self.search_mut(b.kind) = SearchState {
            loading: false,
            ..b.state
        };
        self.form.endpoint = schema::with_kind(b.endpoint, b.shown);
        self.form.body = b.body;
        self.form.other = b.other;
        self.form.sel = self.form.sel.min(self.form_rows().len().saturating_sub(1));
        self.details.reset();
        let n = self.search(b.shown).pages.len();
        self.info(&format!(
            "Back to the previous search ({n} page{} kept) · nothing spent",
            if n == 1 { "" } else { "s" }
        ))
    }

    /// `Undo`: the form before clear-all, or the filter set deleted last.
    pub(super) fn undo(&mut self) -> Vec<Command> {
        match self.undo.take() {
            None => self.info("Nothing to undo."),
            Some(Undo::Form { endpoint, body }) => {
                self.form.load(endpoint, body);
                self.info("Restored the filter members")
            }
            Some(Undo::DeletedSet { name, set }) => {
                match prospect_core::filter_set::save(&self.sets.dir, &name, &set) {
                    Ok(_) => self.info(&format!("Restored filter set {name}")),
                    Err(e) => {
                        self.error_popup(format!("Could not restore {name}: {e}"));
                        vec![]
                    }
                }
            }
        }
    }
}
