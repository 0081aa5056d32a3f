//! [`Owned`]: this target's store opened for a command that needs no service.

use std::path::Path;

use prospect_api::types::{Company, LookalikePerson};
use prospect_store::{
    Budget, Contact, CopyReport, JobRow, ListKind, ListRecords, ListSummary, SearchSummary,
    SegmentationRow, SetRun, Spend, Store, StoreError, StoreUrl, Stored, SuppressKind,
    SuppressionCount,
};

use crate::config::Settings;

/// Why a read or change of what is owned failed, in one line.
#[derive(Debug, thiserror::Error)]
pub enum OwnedError {
    /// What was asked cannot be done as given (a list name, a budget, a store URL, no data
    /// directory): the CLI's usage class (exit 2).
    #[error("{0}")]
    Invalid(String),
    /// The store could not do it (cannot be opened, read or written).
    #[error("{0}")]
    Store(String),
}

impl From<StoreError> for OwnedError {
    fn from(e: StoreError) -> OwnedError {
        match e {
            StoreError::Invalid(m) => OwnedError::Invalid(m),
            other => OwnedError::Store(other.to_string()),
        }
    }
}

/// Result of an [`Owned`] call.
pub type Result<T> = std::result::Result<T, OwnedError>;

/// The store of a target, opened for a command that needs no service (no session, no
/// recovery import unless asked): what is owned, read and arranged through the store's one
/// interface (SQLite or the team's PostgreSQL).
pub struct Owned {
    store: Store,
}

impl Owned {
    /// The store of the target (`sandbox`: the embedded sandbox's) as `settings` name it; a team
    /// store out of reach has this machine's store stand in, and the second value says why
    /// ([`crate::session::open_store`]). Errors: no data directory, a store URL that does not
    /// read ([`OwnedError::Invalid`]); a store that cannot be opened.
    pub fn open(settings: &Settings, sandbox: bool) -> Result<(Owned, Option<String>)> {
        let url = store_url(settings, sandbox)?;
        let (store, unreachable) = crate::session::open_store(settings, &url, sandbox)
            .map_err(|e| OwnedError::Invalid(e.to_string()))?;
        Ok((Owned { store }, unreachable.map(|u| u.to_string())))
    }

    /// The target's store itself, never a stand-in (`store migrate`, `store budget` are for
    /// the team's server). Errors: as [`Owned::open`], and a store that cannot be opened.
    pub fn open_named(settings: &Settings, sandbox: bool) -> Result<Owned> {
        let url = store_url(settings, sandbox)?;
        Ok(Owned {
            store: Store::open_url(&url).map_err(|e| OwnedError::Store(e.to_string()))?,
        })
    }

    /// The store at `url` (a file path, `sqlite:…` or `postgres://…`; `store copy`). Errors: a
    /// URL that does not read ([`OwnedError::Invalid`]); a store that cannot be opened.
    pub fn open_url(url: &str) -> Result<Owned> {
        let url = StoreUrl::parse(url).map_err(OwnedError::Invalid)?;
        Ok(Owned {
            store: Store::open_url(&url).map_err(|e| OwnedError::Store(e.to_string()))?,
        })
    }

    /// Where it is: the file, or the server's redacted URL.
    pub fn path(&self) -> &Path {
        self.store.path()
    }

    /// Whether it is a team's store (PostgreSQL).
    pub fn is_shared(&self) -> bool {
        self.store.is_shared()
    }

    /// Its schema version.
    pub fn schema_version(&self) -> Result<i64> {
        Ok(self.store.schema_version()?)
    }

    /// Makes its missing tables again (issue 34); the tables made.
    pub fn repair(&mut self) -> Result<Vec<String>> {
        Ok(self.store.repair()?)
    }

    /// `None` when whole, else the problems found (SQLite's `quick_check`).
    pub fn quick_check(&self) -> Result<Option<String>> {
        Ok(self.store.quick_check()?)
    }

    /// The team's daily budget per pool (issue 17).
    pub fn team_budget(&self) -> Result<Budget> {
        Ok(self.store.team_budget()?)
    }

    /// Sets the team's daily budget. Errors: a negative limit ([`OwnedError::Invalid`]).
    pub fn set_team_budget(&mut self, budget: &Budget) -> Result<()> {
        Ok(self.store.set_team_budget(budget)?)
    }

    /// Copies what it owns into `to` (what `to` has newer is kept); run again to finish a copy
    /// that stopped.
    pub fn copy_into(&self, to: &mut Owned) -> Result<CopyReport> {
        Ok(self.store.copy_into(&mut to.store)?)
    }

    /// The kind and members of list `name`; `None` when there is none.
    pub fn list_members(&self, name: &str) -> Result<Option<(ListKind, Vec<String>)>> {
        Ok(self.store.list_members(name)?)
    }

    /// Makes list `name` of `kind` (nothing when it exists with that kind). Errors: a bad name
    /// or a list of the other kind ([`OwnedError::Invalid`]).
    pub fn create_list(&mut self, name: &str, kind: ListKind) -> Result<()> {
        Ok(self.store.create_list(name, kind)?)
    }

    /// List `name`, when there is one.
    pub fn list(&self, name: &str) -> Result<Option<ListSummary>> {
        Ok(self.store.list(name)?)
    }

    /// Every list.
    pub fn lists(&self) -> Result<Vec<ListSummary>> {
        Ok(self.store.lists()?)
    }

    /// Adds `keys` to list `name` of `kind` (made when missing): (added, already in it, left
    /// out as not of its kind).
    pub fn add_to_list(
        &mut self,
        name: &str,
        kind: ListKind,
        keys: &[String],
    ) -> Result<(usize, usize, usize)> {
        Ok(self.store.add_to_list(name, kind, keys)?)
    }

    /// Deletes list `name`; `false` when there was none.
    pub fn remove_list(&mut self, name: &str) -> Result<bool> {
        Ok(self.store.remove_list(name)?)
    }

    /// The members of list `name` with what is stored of them; `None` when there is none.
    pub fn list_records(&self, name: &str) -> Result<Option<ListRecords>> {
        Ok(self.store.list_records(name)?)
    }

    /// Adds `entries` to suppression `category` (from file `source`); how many were new.
    pub fn suppress(
        &mut self,
        category: &str,
        source: &str,
        entries: &[(SuppressKind, String)],
    ) -> Result<usize> {
        Ok(self.store.suppress(category, source, entries)?)
    }

    /// Every suppressed key of `kind` with its category, sorted by key.
    pub fn suppressed_keys(&self, kind: SuppressKind) -> Result<Vec<(String, String)>> {
        Ok(self.store.suppressed_keys(kind)?)
    }

    /// Entries per suppression category and kind.
    pub fn suppression_counts(&self) -> Result<Vec<SuppressionCount>> {
        Ok(self.store.suppression_counts()?)
    }

    /// Empties suppression `category`; how many entries went.
    pub fn clear_suppression(&mut self, category: &str) -> Result<usize> {
        Ok(self.store.clear_suppression(category)?)
    }

    /// Hands each stored company to `f`, oldest first; an error of `f` stops the walk and is
    /// returned ([`OwnedError::Store`], in words).
    pub fn for_each_company(
        &self,
        f: impl FnMut(Stored<Company>) -> std::io::Result<()>,
    ) -> Result<()> {
        Ok(self.store.for_each_company(f)?)
    }

    /// Hands each stored person, with contacts and employer joined, to `f`.
    pub fn for_each_person_joined(
        &self,
        f: impl FnMut(LookalikePerson) -> std::io::Result<()>,
    ) -> Result<()> {
        Ok(self.store.for_each_person_joined(f)?)
    }

    /// Hands each revealed contact to `f`.
    pub fn for_each_contact(&self, f: impl FnMut(Contact) -> std::io::Result<()>) -> Result<()> {
        Ok(self.store.for_each_contact(f)?)
    }

    /// The spend log, newest first (`buyer`: one user's only).
    pub fn spend_log(&self, limit: usize, buyer: Option<&str>) -> Result<Vec<Spend>> {
        Ok(self.store.spend_log(limit, buyer)?)
    }

    /// The runs of saved filter set `set` (both tabs), newest first, at most `limit` (issue 37).
    pub fn set_runs(&self, set: &str, limit: usize) -> Result<Vec<SetRun>> {
        Ok(self.store.set_runs(set, limit)?)
    }

    /// The searches bought, newest first.
    pub fn searches(&self, limit: usize) -> Result<Vec<SearchSummary>> {
        Ok(self.store.searches(limit)?)
    }

    /// A stored search, page after page, at 0 credits ([`crate::session::read_stored_search`]).
    /// Errors: no such search, in words.
    pub fn stored_search(
        &self,
        id: prospect_store::SearchId,
    ) -> std::result::Result<crate::session::StoredSearch, String> {
        crate::session::read_stored_search(&self.store, id)
    }

    /// Imports the recovery files of answers it could not keep before, from the recovery
    /// folder of data dir `data_dir` (issue 34), so the spend log counts them: itself again,
    /// and the files left, each with why. Errors: a store left unusable by a failed import.
    pub fn import_recovery(self, data_dir: Option<&Path>) -> Result<(Owned, Vec<String>)> {
        let Some(dir) = crate::engine::recovery_dir_for(&self.store, data_dir) else {
            return Ok((self, Vec::new()));
        };
        let store = std::sync::Mutex::new(self.store);
        let (_, failed) = crate::engine::import_recovery_from(&store, &dir);
        let store = store
            .into_inner()
            .map_err(|_| OwnedError::Store("the store is unusable".into()))?;
        Ok((Owned { store }, failed))
    }

    /// The jobs, newest first (`open_only`: not done), jobs of dead owners marked
    /// `interrupted` first.
    pub fn jobs(&mut self, limit: usize, open_only: bool) -> Result<Vec<JobRow>> {
        self.store.mark_interrupted()?;
        Ok(self.store.jobs(limit, open_only)?)
    }

    /// The segmentations of `target`, newest first.
    pub fn segmentations(&self, target: &str, limit: usize) -> Result<Vec<SegmentationRow>> {
        Ok(self.store.segmentations(target, limit)?)
    }
}

/// The store URL of the target; an error without a data directory.
fn store_url(settings: &Settings, sandbox: bool) -> Result<StoreUrl> {
    settings
        .store_url(sandbox)
        .map_err(|e| OwnedError::Invalid(e.to_string()))?
        .ok_or_else(|| OwnedError::Invalid("no data directory: pass --data-dir".into()))
}
