//! Saved sets' runs in the explorer (issue 37, `impl App` by concern): the search of an open
//! set is a run of it (its pages' keys join the set's, rows new to it are marked in the `new`
//! column, which `=` filters); when the set has earlier runs the search gate offers new-only
//! (the key switches it), and the chooser shows each set's last run.
use super::*;
use crate::msg::{SetPageFacts, SetRunOf};
use prospect_core::engine::SetSearch;
use prospect_core::owned::SetRun;

impl App {
    /// The open set's search of the tab of `kind`, when the tab's filters are the set's (not
    /// changed since it was opened or saved): a run of the set, new-only when chosen (by
    /// default when the set has earlier runs of that tab).
    pub(super) fn set_of(&self, kind: SearchSubject) -> Option<SetSearch> {
        let name = self.sets.name.clone()?;
        let holds = self.form.saved.as_ref().and_then(|s| s.for_subject(kind));
        if holds.is_none() || self.form.unsaved().contains(&kind) {
            return None;
        }
        let runs = self.earlier_runs(&name, kind);
        Some(SetSearch {
            new_only: self.new_only.unwrap_or(runs > 0),
            name,
            exclude_cap: None,
            run_at: None,
        })
    }

    /// Runs of set `name` of the tab of `kind` that the explorer knows of.
    pub(super) fn earlier_runs(&self, name: &str, kind: SearchSubject) -> usize {
        let subject = subject_word(kind);
        self.set_runs
            .iter()
            .filter(|r| r.set_name == name && r.subject == subject)
            .count()
    }

    /// The runs of sets read from the store ([`Call::SetRuns`]): kept for the open set, and
    /// shown in the chooser when it is open.
    pub(super) fn on_set_runs(&mut self, runs: Vec<SetRun>) -> Vec<Command> {
        if let Some(Popup::OpenSet(o)) = self.popups.last_mut() {
            o.last_runs(&runs, self.now);
        }
        if let Some(name) = &self.sets.name {
            let mine: Vec<SetRun> = runs.into_iter().filter(|r| &r.set_name == name).collect();
            if !mine.is_empty() {
                self.set_runs = mine;
            }
        }
        vec![]
    }

    /// A set was opened: its runs are read (free), and the new-only choice starts again (the
    /// runs known of a set opened again are kept meanwhile).
    pub(super) fn set_opened(&mut self, name: &str) -> Command {
        self.set_runs.retain(|r| r.set_name == name);
        self.new_only = None;
        self.call(Slot::SetRuns, Call::SetRuns(vec![name.to_string()]))
    }

    /// The new-only key outside the gate: switches the choice for the open set's next search.
    pub(super) fn toggle_new_only(&mut self) -> Vec<Command> {
        let kind = self.tab();
        let Some(set) = self.set_of(kind) else {
            let open = self.opts.keymap.keys_of(KeyAction::Open);
            return self.info(&format!(
                "New-only is for a saved set's search: open one ({open}) and search it unchanged."
            ));
        };
        let on = !set.new_only;
        self.new_only = Some(on);
        let runs = self.earlier_runs(&set.name, kind);
        self.info(&match (on, runs) {
            (true, 0) => format!(
                "New-only on for set {}: it has no earlier run of this tab yet, so everything is new.",
                set.name
            ),
            (true, n) => format!(
                "New-only on: the next search of set {} leaves out what its {} bought.",
                set.name,
                prospect_common::words::counted(n, "earlier run", "earlier runs")
            ),
            (false, _) => format!("New-only off: the next search of set {} asks for every result.", set.name),
        })
    }

    /// The gate's new-only key: the choice switches and the page is planned again.
    pub(super) fn gate_toggle_new_only(&mut self) -> Vec<Command> {
        let Some(Popup::Confirm(mut p)) = self.popups.pop() else {
            return vec![];
        };
        if let Some(set) = &mut p.set {
            set.new_only = !set.new_only;
            self.new_only = Some(set.new_only);
        }
        p.plan = None;
        self.gate_page(p)
    }

    /// The set's run a search page belongs to: a new search of the open set starts one now;
    /// a next page continues its tab's.
    pub(super) fn set_run_for(&mut self, p: &PendingSearch) -> Option<SetRunOf> {
        let kind = p.request().subject();
        if p.next_page {
            return self.search(kind).set_run.clone();
        }
        p.set.clone().map(|set| SetRunOf {
            set,
            run_at: Utc::now(),
        })
    }

    /// A page of a set's run arrived: rows new to the set are marked in the `new` column
    /// (shown from now on); returns words for the status line (`2 new since the set's last
    /// run · excluding 1,086 owned (from 3 earlier runs)`).
    pub(super) fn mark_new(&mut self, kind: SearchSubject, facts: &SetPageFacts) -> String {
        let cell = crate::records::new_cell(kind);
        let s = self.search_mut(kind);
        let mut new = 0;
        if let Some(page) = s.pages.last_mut() {
            for row in &mut page.rows {
                if facts.new_keys.contains(&row.record.key()) {
                    if row.cells.len() <= cell {
                        row.cells.resize(cell + 1, String::new());
                    }
                    row.cells[cell] = crate::records::NEW_MARK.to_string();
                    new += 1;
                }
            }
        }
        s.rows_changed();
        self.results.columns.show(kind, &["new"]);
        if let Some(run) = &self.search(kind).set_run {
            let name = run.set.name.clone();
            self.set_runs.insert(
                0,
                SetRun {
                    set_name: name,
                    subject: subject_word(kind).to_string(),
                    ran_at: run.run_at,
                    new_only: run.set.new_only,
                    results: 0,
                    new_results: new as u64,
                    paid_again: facts.paid_again,
                    credits: 0.0,
                    job: None,
                },
            );
            self.set_runs
                .dedup_by(|a, b| a.ran_at == b.ran_at && a.subject == b.subject);
        }
        let filter = self.opts.keymap.first_key_of(KeyAction::RevealedFilter);
        let mut text = format!("{new} new to the set ({filter} shows only them)");
        if let Some(n) = &facts.new_only {
            text.push_str(&format!(" · new-only, {n}"));
        }
        if facts.paid_again > 0 {
            text.push_str(&format!(" · {} owned paid again", facts.paid_again));
        }
        text
    }
}

/// `companies` or `people`, as set runs are recorded.
fn subject_word(kind: SearchSubject) -> &'static str {
    match kind {
        SearchSubject::Companies => "companies",
        SearchSubject::People => "people",
    }
}
