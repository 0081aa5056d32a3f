//! Input routing (issue 19, "The shape"): a key, a paste or a palette / mouse action becomes
//! one [`Input`]; the popup on top gets it through its [`Component`] implementation, in the
//! one match over [`Popup`] kinds below, and its effect becomes commands; with no popup, the
//! global actions run ([`App::dispatch`]), then the focused pane's.
use chrono::{DateTime, Utc};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;
use serde_json::Value;

use super::jobs::LISTS_REREAD;
use super::{App, AppOptions, Pane, Popup, StatusKind, Undo};
use crate::components::column_picker::{ColumnPicker, ColumnsEffect};
use crate::components::details::DetailsEffect;
use crate::components::form::FormEffect;
use crate::components::help;
use crate::components::history::HistoryPopup;
use crate::components::picker::{Picker, PickerKind, PickerPopup};
use crate::components::results::ResultsEffect;
use crate::components::sets::{OpenSets, QuitPrompt};
use crate::components::{Component, Ctx, Handled, Input, Stay};
use crate::keymap::KeyAction;
use crate::msg::{Call, Command, Slot, TimerId};
use crate::schema::{self, Opt, SearchSubject};
use prospect_core::gauge::Refresh;

/// The context lent to components for input: the keymap, the tab shown, the spend threshold
/// and the time (drawing fills in the rest, in the view).
pub(super) fn ctx_of(opts: &AppOptions, tab: SearchSubject, now: DateTime<Utc>) -> Ctx<'_> {
    Ctx {
        has_focus: true,
        filled: 0,
        selected: None,
        keys: &opts.keymap,
        tab,
        focused: true,
        confirm_above: opts.confirm_above,
        now,
        anchor: Rect::default(),
    }
}

impl App {
    /// A key press: suspend and force-quit first, then the popup on top or the panes.
    pub(super) fn on_key(&mut self, k: KeyEvent) -> Vec<Command> {
        if k.kind == KeyEventKind::Release {
            return vec![];
        }
        self.dirty = true;
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && k.code == KeyCode::Char('z') {
            return vec![Command::Suspend];
        }
        if ctrl && k.code == KeyCode::Char('c') {
            self.quit = true;
            return vec![Command::Quit];
        }
        let input = Input::Key {
            key: k,
            action: self.opts.keymap.action(&k),
            text: self.opts.keymap.text_action(&k),
        };
        if !self.popups.is_empty() {
            return self.popup_input(input);
        }
        match input.action() {
            Some(action) => self.dispatch(action),
            None => vec![],
        }
    }

    /// Pasted text: to the popup on top (text fields take it, sanitized); panes ignore it.
    pub(super) fn on_paste(&mut self, raw: &str) -> Vec<Command> {
        if self.popups.is_empty() {
            return vec![];
        }
        self.dirty = true;
        self.popup_input(Input::Paste(raw))
    }

    /// The one place popups get their input: the top one handles it, and what it asks for
    /// becomes commands. Popups are modal: what the top one ignores goes nowhere else.
    pub(super) fn popup_input(&mut self, input: Input<'_>) -> Vec<Command> {
        let ctx = ctx_of(&self.opts, self.tab(), self.now);
        let Some(top) = self.popups.last_mut() else {
            return vec![];
        };
        match top {
            Popup::Help(h) => {
                let e = h.handle(input, &ctx);
                self.on_stay(e)
            }
            Popup::Error(v) => {
                let e = v.handle(input, &ctx);
                self.on_stay(e)
            }
            Popup::Facets(v) => {
                let e = v.handle(input, &ctx);
                self.on_stay(e)
            }
            Popup::Activity => {
                use crate::components::activity::ActivityEffect;
                match self.activity.handle(input, &ctx) {
                    Handled::Consumed(ActivityEffect::Close) => {
                        self.on_stay(Handled::Consumed(Stay::Close))
                    }
                    _ => vec![],
                }
            }
            Popup::Confirm(p) => match p.handle(input, &ctx) {
                Handled::Consumed(a) => self.on_confirm(a),
                Handled::Ignored => vec![],
            },
            Popup::ConfirmAction(p) => match p.handle(input, &ctx) {
                Handled::Consumed(a) => self.on_confirm_action(a),
                Handled::Ignored => vec![],
            },
            Popup::Editor(ed) => {
                let leaf = ed.leaf;
                match ed.handle(input, &ctx) {
                    Handled::Consumed(e) => self.on_editor(leaf, e),
                    Handled::Ignored => vec![],
                }
            }
            Popup::SaveName(p) => match p.handle(input, &ctx) {
                Handled::Consumed(e) => self.on_save_name(e),
                Handled::Ignored => vec![],
            },
            Popup::ListName(p) => match p.handle(input, &ctx) {
                Handled::Consumed(e) => self.on_list_name(e),
                Handled::Ignored => vec![],
            },
            Popup::Find(p) => match p.handle(input, &ctx) {
                Handled::Consumed(e) => self.on_find(e),
                Handled::Ignored => vec![],
            },
            Popup::Palette(p) => match p.handle(input, &ctx) {
                Handled::Consumed(e) => self.on_palette(e),
                Handled::Ignored => vec![],
            },
            Popup::OpenSet(p) => match p.handle(input, &ctx) {
                Handled::Consumed(e) => self.on_open_set(e),
                Handled::Ignored => vec![],
            },
            Popup::History(p) => match p.handle(input, &ctx) {
                Handled::Consumed(e) => self.on_history(e),
                Handled::Ignored => vec![],
            },
            Popup::Lists(p) => match p.handle(input, &ctx) {
                Handled::Consumed(e) => self.on_lists(e),
                Handled::Ignored => vec![],
            },
            Popup::Export(p) => match p.handle(input, &ctx) {
                Handled::Consumed(e) => self.on_export(e),
                Handled::Ignored => vec![],
            },
            Popup::Lookup(p) => match p.handle(input, &ctx) {
                Handled::Consumed(e) => self.on_lookup(e),
                Handled::Ignored => vec![],
            },
            Popup::Quit(p) => match p.handle(input, &ctx) {
                Handled::Consumed(e) => self.on_quit(e),
                Handled::Ignored => vec![],
            },
            Popup::Columns(p) => match p.handle(input, &ctx) {
                Handled::Consumed(e) => self.on_columns(e),
                Handled::Ignored => vec![],
            },
            Popup::Segments(p) => match p.handle(input, &ctx) {
                Handled::Consumed(e) => self.on_segments(e),
                Handled::Ignored => vec![],
            },
        }
    }

    /// What the column picker asked for: a change applies at once (and is kept in
    /// `columns.json`); a sort orders the tab's loaded rows.
    fn on_columns(&mut self, e: ColumnsEffect) -> Vec<Command> {
        let Some(Popup::Columns(p)) = self.popups.last() else {
            return vec![];
        };
        let kind = p.kind;
        match e {
            ColumnsEffect::Nothing => vec![],
            ColumnsEffect::Close => {
                self.popups.pop();
                vec![]
            }
            ColumnsEffect::Refused(why) => self.info(why),
            ColumnsEffect::Changed => {
                *self.results.columns.of_mut(kind) = p.cols.clone();
                match &self.opts.columns_file {
                    Some(path) => match self.results.columns.save(path) {
                        Ok(()) => vec![],
                        Err(e) => {
                            let text = format!("The columns are not kept for the next run: {e}");
                            self.set_status(&text, StatusKind::Error);
                            vec![]
                        }
                    },
                    None => vec![],
                }
            }
            ColumnsEffect::Sorted(sort) => {
                self.search_mut(kind).set_sort(sort);
                self.details.reset();
                match sort {
                    Some(_) => vec![],
                    None => self.info("Back to pages, as loaded"),
                }
            }
        }
    }

    /// `v`: the other version of the search; members with a counterpart follow, the others
    /// are named (issue 19).
    fn toggle_version(&mut self) -> Vec<Command> {
        let to = self
            .form
            .endpoint
            .other_search_version()
            .unwrap_or(self.form.endpoint);
        // Members with a counterpart follow the switch; the others are named (issue 19).
        let switch = schema::switch_version(&mut self.form.body, to);
        self.form.endpoint = to;
        let mut text = format!("Search endpoint: {}", to.path());
        if !switch.moved.is_empty() {
            let moved: Vec<String> = switch
                .moved
                .iter()
                .map(|(a, b)| format!("{a} → {b}"))
                .collect();
            text.push_str(&format!(" · kept: {}", moved.join(", ")));
        }
        if !switch.unmatched.is_empty() {
            text.push_str(&format!(
                " · not in this version: {}",
                switch.unmatched.join(", ")
            ));
        }
        self.info(&text)
    }

    /// `/`: find a member of the endpoint by label or API name, folded sections too.
    fn open_find(&mut self) -> Vec<Command> {
        // Every member of the endpoint, folded sections too; the value is its API
        // name, by which it is found again.
        let options: Vec<Opt> = schema::leaves_by_section(self.form.endpoint)
            .into_iter()
            .map(|(_, l)| Opt {
                // By label or by API name (issue 19).
                label: format!("{}  {}", l.label(), l.path.join(".")),
                value: Value::from(l.path.join(".")),
            })
            .collect();
        self.popups.push(Popup::Find(PickerPopup {
            picker: Picker::new(options, false, vec![]),
            kind: PickerKind::Find,
        }));
        vec![]
    }

    /// The column picker of the shown tab.
    fn open_columns(&mut self) -> Vec<Command> {
        let kind = self.tab();
        self.popups.push(Popup::Columns(ColumnPicker {
            kind,
            cols: self.results.columns.of(kind).clone(),
            sel: 0,
            sort: self.search(kind).sorted.as_ref().map(|(s, _)| *s),
        }));
        vec![]
    }

    /// `t`: the other tab, with its own form (issue 19).
    fn switch_tab(&mut self) -> Vec<Command> {
        // Each tab has its own form (issue 19).
        self.form.show_kind(match self.tab() {
            SearchSubject::Companies => SearchSubject::People,
            SearchSubject::People => SearchSubject::Companies,
        });
        self.form.clamp_selection();
        self.details.reset();
        // A row range or note on the status line was about the other tab.
        if self
            .status
            .as_ref()
            .is_some_and(|s| s.kind == StatusKind::Info)
        {
            self.status = None;
        }
        vec![]
    }

    /// A popup that stays or closes.
    fn on_stay(&mut self, e: Handled<Stay>) -> Vec<Command> {
        if e == Handled::Consumed(Stay::Close) {
            self.popups.pop();
        }
        vec![]
    }

    /// What `action` does with no popup open, whatever key or palette entry asked for it.
    pub(super) fn dispatch(&mut self, action: KeyAction) -> Vec<Command> {
        // Esc while this tab's page is on its way stops waiting for it (issue 19, "Control").
        if action == KeyAction::Close && self.search(self.tab()).loading {
            return self.stop_waiting();
        }
        if let Some(cmds) = self.action_key(action) {
            return cmds;
        }
        match action {
            KeyAction::Quit => {
                // Unsaved filters are not dropped silently (issue 19); Ctrl-c never asks.
                let tabs = self.form.unsaved();
                if !tabs.is_empty() {
                    self.popups.push(Popup::Quit(QuitPrompt { tabs }));
                    return vec![];
                }
                self.quit = true;
                vec![Command::Quit]
            }
            KeyAction::Help => {
                self.popups.push(Popup::Help(help::HelpView::default()));
                vec![]
            }
            KeyAction::NextPane | KeyAction::PrevPane => {
                let order = [Pane::Filters, Pane::Results, Pane::Details];
                let i = order.iter().position(|p| *p == self.focus).unwrap_or(0);
                let d = if action == KeyAction::NextPane { 1 } else { 2 };
                self.focus = order[(i + d) % 3];
                vec![]
            }
            KeyAction::Search => self.run_search(),
            KeyAction::SwitchTab => self.switch_tab(),
            KeyAction::ToggleVersion => self.toggle_version(),
            KeyAction::Save => self.save(false),
            KeyAction::SaveAs => self.save(true),
            KeyAction::Open => {
                match self.sets.list() {
                    Ok(names) if names.is_empty() => {
                        let save = self.opts.keymap.keys_of(KeyAction::Save);
                        return self.info(&format!("No saved filter sets yet ({save} saves one)."));
                    }
                    Ok(names) => {
                        self.popups
                            .push(Popup::OpenSet(OpenSets::new(names.clone())));
                        // Each set's last run, shown beside its name when read.
                        return vec![self.call(Slot::SetRuns, Call::SetRuns(names))];
                    }
                    Err(e) => self.error_popup(e),
                }
                vec![]
            }
            KeyAction::Credits => match self.refresh_balance(Refresh::User) {
                Some(c) => vec![c],
                None => self.info("The credit balance is already on its way."),
            },
            KeyAction::History => {
                self.popups.push(Popup::History(HistoryPopup::default()));
                vec![self.call(Slot::History, Call::History)]
            }
            KeyAction::Lists => {
                self.popups.push(Popup::Lists(Default::default()));
                vec![
                    self.call(Slot::ListsView, Call::Lists),
                    self.timer(TimerId::Lists, LISTS_REREAD),
                ]
            }
            KeyAction::Segments => self.segments_key(),
            KeyAction::Find => self.open_find(),
            KeyAction::NextPage => self.next_page(),
            KeyAction::PrevPage => {
                let s = self.search_mut(self.tab());
                if s.page > 0 {
                    s.page -= 1;
                    s.sel = 0;
                    s.offset.set(0);
                    self.details.reset();
                    return self.rows_status(self.tab());
                }
                vec![]
            }
            KeyAction::PeopleAtCompany => self.people_at_company(),
            KeyAction::Lookalikes => self.lookalikes(),
            KeyAction::Export => self.open_export(),
            KeyAction::CopyField => self.copy_field(),
            KeyAction::CopyRow => self.copy_row(),
            KeyAction::CopyCurl => self.copy_curl(),
            KeyAction::Facets => self.open_facets(),
            KeyAction::Columns => self.open_columns(),
            KeyAction::Back => self.go_back(),
            KeyAction::Palette => self.open_palette(),
            KeyAction::Undo => self.undo(),
            _ => match self.focus {
                Pane::Filters => self.filters_key(action),
                Pane::Results => self.results_key(action),
                Pane::Details => self.details_key(action),
            },
        }
    }

    fn filters_key(&mut self, action: KeyAction) -> Vec<Command> {
        if action == KeyAction::ClearAll && schema::is_filled(Some(&self.form.body)) {
            self.undo = Some(Undo::Form {
                endpoint: self.form.endpoint,
                body: self.form.body.clone(),
            });
            let ctx = ctx_of(&self.opts, self.tab(), self.now);
            self.form.handle(Input::KeyAction(action), &ctx);
            let u = self.opts.keymap.first_key_of(KeyAction::Undo);
            return self.info(&format!("Cleared every filter member · {u} undoes"));
        }
        let ctx = ctx_of(&self.opts, self.tab(), self.now);
        match self
            .form
            .handle(Input::KeyAction(action), &ctx)
            .or(FormEffect::Nothing)
        {
            FormEffect::Nothing => vec![],
            FormEffect::Run => self.run_search(),
            FormEffect::Edit(leaf) if leaf.kind == schema::LeafKind::One(schema::SetId::Bool) => {
                self.toggle_member(leaf)
            }
            FormEffect::Edit(leaf) => {
                self.open_editor(leaf);
                vec![]
            }
            FormEffect::Info(text) => self.info(&text),
        }
    }

    fn results_key(&mut self, action: KeyAction) -> Vec<Command> {
        let ctx = ctx_of(&self.opts, self.tab(), self.now);
        match self
            .results
            .handle(Input::KeyAction(action), &ctx)
            .or(ResultsEffect::Nothing)
        {
            ResultsEffect::Nothing => {}
            ResultsEffect::Moved => self.details.reset(),
            ResultsEffect::ShowKind(kind) => self.form.show_kind(kind),
            ResultsEffect::Run => return self.run_search(),
            ResultsEffect::OpenDetails => {
                self.focus = Pane::Details;
                self.details.reset();
            }
        }
        vec![]
    }

    fn details_key(&mut self, action: KeyAction) -> Vec<Command> {
        let ctx = ctx_of(&self.opts, self.tab(), self.now);
        if self.details.handle(Input::KeyAction(action), &ctx)
            == Handled::Consumed(DetailsEffect::Leave)
        {
            self.focus = Pane::Results;
        }
        vec![]
    }
}
