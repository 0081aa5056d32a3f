//! The state owner: [`App`] holds everything the explorer shows and changes only in
//! [`App::update`], which consumes one [`Msg`] and returns the [`Command`]s the loop must run
//! (spawn a call, abort one, set a timer, quit, suspend). It never awaits and never does I/O
//! except reading and writing filter-set files.
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::components::activity::Activity;
use super::components::details::Details;
pub use super::components::editor::{
    AcState, Editor, EditorBody, EditorEffect, ListEditor, TextEditor, parse_city,
    parse_text_editor,
};
pub use super::components::export::{
    Counts as ExportCounts, ExportChoice, ExportEffect, ExportPopup, Scope as ExportScope,
    Stage as ExportStage,
};
pub use super::components::facets::FacetsView;
pub use super::components::form::{DEFAULT_SIZE, Form, FormEffect, FormRow, estimate_cost};
use super::components::help;
pub use super::components::history::{HistoryEffect, HistoryPopup};
use super::components::lookup::LookupPopup;
use super::components::picker::PickerEvent;
pub use super::components::picker::{Picker, PickerPopup, fuzzy_filter};
pub use super::components::results::{Page, Results, ResultsEffect, SearchState};
pub use super::components::sets::{FilterSets, OpenSets, OpenSetsEffect, SaveName, SaveNameEffect};
use super::components::spend_gate::Answer;
pub use super::components::spend_gate::PendingSearch;
use super::fmt::{capitalize, fmt_credits, problems_text};
use super::keymap::{KeyAction, Keymap};
use super::msg::{
    ApiFailure, Ask, Call, Command, ExportFile, HistoryEntry, Msg, Outcome, PageData, Prepared,
    Reopened, Slot, TimerId,
};
use super::schema::{self, DataFields, Leaf, SearchSubject};
use prospect_api::client::Endpoint;
use prospect_api::error::ApiError;
use prospect_api::types::ValidationError;
use prospect_core::filter_set::FilterSet;
use prospect_core::gauge::{Gauge, Refresh};
use prospect_core::request::{self, SearchRequest};
use prospect_core::spend::describe_age;

mod calls;
mod dataout;
mod deliveries;
mod editing;
mod exporting;
mod input;
mod jobs;
mod mouse;
mod palette;
mod search;
mod segments;
mod sets;
mod watch;
pub use jobs::{ENRICH_PATIENCE, REVEAL_PATIENCE, backoff};
pub use sets::BACK_LIMIT;

/// Autocomplete debounce: a lookup starts this long after the last keystroke.
pub const DEBOUNCE: Duration = Duration::from_millis(120);
/// Info messages disappear from the status line after this long.
pub const STATUS_TTL: Duration = Duration::from_secs(6);
/// Wait before retrying a 429 that came without `Retry-After`.
pub const DEFAULT_RETRY_AFTER: Duration = Duration::from_secs(10);
/// How the status line starts during a 429 countdown.
pub const RATE_LIMITED: &str = "Rate limited; retrying in";

/// The focused pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// The filter form.
    Filters,
    /// The results table.
    Results,
    /// The record details.
    Details,
}

/// SearchSubject of status message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusKind {
    /// Neutral information.
    Info,
    /// Something is on its way.
    Progress,
    /// The last error, in plain words.
    Error,
}

/// The status line.
#[derive(Debug, Clone, PartialEq)]
pub struct Status {
    /// The text (sanitized when it came from the service).
    pub text: String,
    /// Its kind.
    pub kind: StatusKind,
}

/// Popups, drawn over the panes; the top one gets the keys.
#[derive(Debug)]
pub enum Popup {
    /// Help generated from the keymap, with its scroll position.
    Help(help::HelpView),
    /// "This will cost about N credits. Run it?"
    Confirm(PendingSearch),
    /// An error worth reading in full.
    Error(help::ErrorView),
    /// The member editor.
    Editor(Box<Editor>),
    /// Name for saving the filter set.
    SaveName(SaveName),
    /// Jump to a filter member by fuzzy name; the value of each option is its form row.
    Find(PickerPopup),
    /// The command palette (`:`, `Ctrl-p`): every action by name, fuzzy-matched, with its
    /// keys and whether it can run here; submit runs it.
    Palette(PickerPopup),
    /// Saved sets: open or delete.
    OpenSet(OpenSets),
    /// Past searches from the store: reopen one at no cost.
    History(HistoryPopup),
    /// Export the search (`Ctrl-e`): scope, format, file; the first-N job's progress.
    Export(Box<ExportPopup>),
    /// Bar charts of the loaded results (`f`).
    Facets(FacetsView),
    /// "This reveal / enrich / lookup may cost … Spend it?" (estimated above the threshold in
    /// some pool; nothing sent yet).
    ConfirmAction(Box<Prepared>),
    /// The activity pane: jobs, webhook deliveries and the store's last purchases.
    Activity,
    /// The lookup popup: a pasted list or a file of domains / people.
    Lookup(LookupPopup),
    /// The name of the list the marked / selected rows go into (`+`).
    ListName(super::components::lists::ListPrompt),
    /// The lists and the suppression categories: open a list at no cost.
    Lists(super::components::lists::ListsPopup),
    /// "Quit with unsaved filters?" (the quit key, when a tab's filters are not saved).
    Quit(super::components::sets::QuitPrompt),
    /// The column picker of the shown tab: show, hide, order, sort.
    Columns(super::components::column_picker::ColumnPicker),
    /// The Segments view (`S`): segmentations bought, their segments and traits.
    Segments(super::components::segments::SegmentsPopup),
}

/// An export of the first N results whose missing pages are planned, then fetched by the
/// engine's run ([`Slot::Export`]; each page is kept by the engine and added to its tab).
#[derive(Debug, Clone)]
pub struct ExportJob {
    /// The tab exported.
    pub kind: SearchSubject,
    /// The search's first request: pages of another search are not this job's.
    pub request: SearchRequest,
    /// Rows wanted.
    pub want: usize,
    /// Format and file.
    pub format: prospect_core::export::Format,
    /// The CRM layout of the CSV, if any.
    pub preset: Option<prospect_core::crm::Preset>,
    /// The file to write.
    pub path: PathBuf,
    /// Close was pressed: no page is sent after the one on its way.
    pub stopping: bool,
    /// Stops the run after the page on its way (close, or quitting).
    pub stop: crate::msg::Stop,
    /// The engine's plan of the first N, once planned.
    pub plan: Option<prospect_core::engine::Plan>,
    /// The tab's search changed while the run went on: its pages are not the tab's.
    pub changed: bool,
    /// The saved set's run the tab's search is (issue 37): the export goes on with that run
    /// ([`prospect_core::engine::SetSearch::run_at`]).
    pub set: Option<prospect_core::engine::SetSearch>,
}

impl ExportJob {
    /// The search of the first N ([`prospect_core::engine::Action::search`]): the action its
    /// job records, so `prospect resume ID` finishes it.
    pub fn action(&self) -> prospect_core::engine::Action {
        prospect_core::engine::Action::search(
            self.request.endpoint(),
            &self.request.body(),
            self.want as u64,
            self.set.clone(),
        )
    }
}

/// A call refused with a per-minute 429, waiting to be sent again.
#[derive(Debug, Clone)]
pub struct RateWait {
    /// The call to send again.
    pub call: Call,
    /// The slot's generation when it was refused; a newer call in the slot cancels the retry.
    pub generation: u64,
    /// Whole seconds left before the retry (one countdown tick a second).
    pub secs_left: u64,
}

/// Everything the explorer needs to start.
#[derive(Debug, Clone)]
pub struct AppOptions {
    /// Base URL shown in the header.
    pub base_url: String,
    /// Talking to the embedded sandbox.
    pub sandbox: bool,
    /// Key bindings.
    pub keymap: Keymap,
    /// Confirmation threshold in credits.
    pub confirm_above: f64,
    /// A daily budget is set (config `[budget]`): every paid search page is planned first, so
    /// the budget refuses it before it is sent (else only pages above `confirm_above` are).
    pub budgeted: bool,
    /// Directory of saved filter sets.
    pub filters_dir: PathBuf,
    /// Where exports are written (config `export_dir`, else the current directory).
    pub export_dir: prospect_core::config::ExportDir,
    /// The column choice of the results tabs as read at start ([`ColumnSet::load`]).
    pub columns: super::components::columns::ColumnSet,
    /// Where the column choice is kept (`columns.json` in the config directory); `None`: not
    /// kept across runs.
    pub columns_file: Option<PathBuf>,
}

/// The explorer's whole state.
pub struct App {
    /// Start options.
    pub opts: AppOptions,
    /// Focused pane.
    pub focus: Pane,
    /// The filter form: endpoint, request body, selection, problems.
    pub form: Form,
    /// Reference data for pickers.
    pub data_fields: DataFields,
    /// Data-fields load state: `None` loading, `Some(Ok)` loaded, `Some(Err)` failed.
    pub data_fields_state: Option<Result<(), String>>,
    /// The results of both tabs.
    pub results: Results,
    /// The details pane.
    pub details: Details,
    /// The credit gauge: the last balance less the charges of every answer since (dropped
    /// ones too); a pool the balance left out is unknown.
    pub gauge: Gauge,
    /// A balance refresh is on its way.
    pub balance_loading: bool,
    /// Calls refused with a per-minute 429, by slot, counting down to their retry.
    pub rate_waits: HashMap<Slot, RateWait>,
    /// The last call started in each slot (what a 429 retries).
    inflight: HashMap<Slot, Call>,
    /// Status line.
    pub status: Option<Status>,
    /// The last error, kept after the status moves on.
    pub last_error: Option<String>,
    /// Open popups, last on top.
    pub popups: Vec<Popup>,
    /// Saved filter sets: where they live and which one is open.
    pub sets: FilterSets,
    gens: HashMap<Slot, u64>,
    timer_gens: HashMap<TimerId, u64>,
    /// Something changed since the last draw.
    pub dirty: bool,
    /// The user asked to quit.
    pub quit: bool,
    /// "Save, then quit" was chosen: the save-as prompt's save quits too.
    quit_after_save: bool,
    /// The terminal area of the last frame drawn (set by the view): where mouse clicks land.
    pub screen: std::cell::Cell<ratatui::layout::Rect>,
    /// The last left click (when, column, row), for double clicks.
    last_click: Option<(std::time::Instant, u16, u16)>,
    /// Paid calls still in flight when the user quit without waiting for them (a second
    /// quit key while they finished): the front end says so once the terminal is restored.
    pub left_unfinished: usize,
    /// The export of the first N results still fetching pages, if any.
    pub export_job: Option<ExportJob>,
    /// The search page being planned ([`Call::PlanPage`]) before it is confirmed or sent.
    planning: Option<PendingSearch>,
    /// Searches replaced by `P` / `L`, most recent last: `Back` returns to them.
    pub back: Vec<BackEntry>,
    /// What `Undo` restores: the form before clear-all, or a deleted filter set.
    pub undo: Option<Undo>,
    /// For a service still starting (the embedded sandbox loading behind the first screen):
    /// its base URL once known; [`App::base_url`] reads it.
    pub connected: Option<super::lazy::Connected>,
    /// The jobs (reveals, enrichments, lookups, warmups) and the webhook deliveries.
    pub activity: Activity,
    /// Why reveals cannot be delivered here (no webhook receiver), if they cannot: the reveal
    /// keys then say so and spend nothing.
    pub reveals_disabled: Option<String>,
    /// The time as of the last message (the activity pane's "time since").
    pub now: DateTime<Utc>,
    /// A fixed time for `now` (tests); `None` reads the clock at each message.
    pub frozen_now: Option<DateTime<Utc>>,
    /// The last paid action the store answered at 0 credits: what the refresh key buys again.
    pub last_stored: Option<Ask>,
    /// The tab whose last search page the store answered at 0 credits (a search bought within
    /// `search_fresh_for`): the refresh key buys the search again.
    pub last_stored_search: Option<SearchSubject>,
    /// The runs of the open filter set the explorer knows of, newest first (issue 37).
    pub set_runs: Vec<prospect_core::owned::SetRun>,
    /// The user's new-only choice for the open set's searches; `None`: new-only when the set
    /// has earlier runs of the tab.
    pub new_only: Option<bool>,
}

/// A search replaced by `P` (people at the company) or `L` (lookalikes): the form and the
/// replaced tab's pages, as they were.
#[derive(Debug, Clone)]
pub struct BackEntry {
    /// The form's endpoint.
    pub endpoint: Endpoint,
    /// The form's body.
    pub body: Value,
    /// The other tab's form body.
    pub other: Value,
    /// The tab the new search replaced.
    pub kind: SearchSubject,
    /// That tab's search, pages and selection.
    pub state: SearchState,
    /// The tab shown.
    pub shown: SearchSubject,
}

/// Something `Undo` can restore.
#[derive(Debug, Clone)]
pub enum Undo {
    /// The form before clear-all.
    Form {
        /// Its endpoint.
        endpoint: Endpoint,
        /// Its body.
        body: Value,
    },
    /// A filter set deleted from the chooser.
    DeletedSet {
        /// Its name.
        name: String,
        /// Its content.
        set: FilterSet,
    },
}

/// How the status line starts when the form cannot be sent as it is.
const FORM_PROBLEM: &str = "Not sendable as it is: ";
/// How the status line (and the error popup) starts when a search was refused before sending.
const NOT_SENT: &str = "The search was not sent (nothing spent): ";

impl App {
    /// A new explorer on `endpoint` with an empty form.
    pub fn new(opts: AppOptions) -> App {
        let columns = opts.columns.clone();
        App {
            sets: FilterSets::new(opts.filters_dir.clone()),
            opts,
            focus: Pane::Filters,
            form: Form::new(),
            data_fields: DataFields::default(),
            data_fields_state: None,
            results: Results {
                columns,
                ..Results::default()
            },
            details: Details::default(),
            gauge: Gauge::new(),
            balance_loading: false,
            rate_waits: HashMap::new(),
            inflight: HashMap::new(),
            status: None,
            last_error: None,
            popups: Vec::new(),
            gens: HashMap::new(),
            timer_gens: HashMap::new(),
            dirty: true,
            quit: false,
            quit_after_save: false,
            left_unfinished: 0,
            screen: std::cell::Cell::new(ratatui::layout::Rect::default()),
            last_click: None,
            export_job: None,
            planning: None,
            back: Vec::new(),
            undo: None,
            connected: None,
            activity: Activity::default(),
            reveals_disabled: None,
            now: Utc::now(),
            frozen_now: None,
            last_stored: None,
            last_stored_search: None,
            set_runs: Vec::new(),
            new_only: None,
        }
    }

    /// The calls to make at start: reference data and the balance (both free).
    pub fn start(&mut self) -> Vec<Command> {
        self.set_status(
            "Loading reference data and credit balance…",
            StatusKind::Progress,
        );
        let mut cmds = vec![self.call(Slot::DataFields, Call::DataFields)];
        cmds.extend(self.refresh_balance(Refresh::Start));
        cmds.push(self.call(Slot::OpenJobs, Call::OpenJobs));
        cmds
    }

    /// Opens a filter set file given on the command line; errors go to an error popup and
    /// nothing is opened.
    pub fn open_file(&mut self, path: &std::path::Path) {
        match self.sets.open_path(path) {
            Ok((set, name)) => self.apply_set(set, name),
            Err(e) => self.error_popup(format!("Could not open the filter set: {e}")),
        }
    }

    fn apply_set(&mut self, set: FilterSet, name: Option<String>) {
        self.form.open(&set);
        self.form.saved = Some(set);
        self.form.sel = 1;
        self.set_status(
            &format!("Opened filter set {}", name.unwrap_or_default()),
            StatusKind::Info,
        );
    }

    /// The search of a tab.
    pub fn search(&self, kind: SearchSubject) -> &SearchState {
        self.results.get(kind)
    }

    fn search_mut(&mut self, kind: SearchSubject) -> &mut SearchState {
        self.results.get_mut(kind)
    }

    /// The shown tab.
    pub fn tab(&self) -> SearchSubject {
        self.form.kind()
    }

    /// The current generation of a slot.
    pub fn generation_of(&self, slot: Slot) -> u64 {
        self.gens.get(&slot).copied().unwrap_or(0)
    }

    fn bump(&mut self, slot: Slot) -> u64 {
        let g = self.gens.entry(slot).or_insert(0);
        *g += 1;
        *g
    }

    fn call(&mut self, slot: Slot, call: Call) -> Command {
        let generation = self.bump(slot);
        self.inflight.insert(slot, call.clone());
        Command::Call {
            slot,
            generation,
            call,
        }
    }

    fn timer(&mut self, id: TimerId, after: Duration) -> Command {
        let g = self.timer_gens.entry(id).or_insert(0);
        *g += 1;
        Command::Timer {
            id,
            after,
            generation: *g,
        }
    }

    fn set_status(&mut self, text: &str, kind: StatusKind) {
        self.status = Some(Status {
            text: text.to_string(),
            kind,
        });
        if kind == StatusKind::Error {
            self.last_error = Some(text.to_string());
        }
        self.dirty = true;
    }

    fn info(&mut self, text: &str) -> Vec<Command> {
        self.set_status(text, StatusKind::Info);
        vec![self.timer(TimerId::Status, STATUS_TTL)]
    }

    fn error_popup(&mut self, text: String) {
        self.set_status(&text, StatusKind::Error);
        self.popups.push(Popup::Error(help::ErrorView(text)));
    }

    /// Rows of the filter form for the current endpoint.
    pub fn form_rows(&self) -> Vec<FormRow> {
        self.form.rows()
    }

    /// Handles one message; returns what the loop must do. Sets `dirty` when the screen changed.
    pub fn update(&mut self, msg: Msg) -> Vec<Command> {
        self.now = self.frozen_now.unwrap_or_else(Utc::now);
        if matches!(msg, Msg::Key(_) | Msg::Paste(_)) {
            let selection = self.form.selection();
            let before = (self.form.endpoint, self.form.body.clone());
            let cmds = self.update_inner(msg);
            self.form.keep_selection(selection);
            if before.0 != self.form.endpoint || before.1 != self.form.body {
                self.check_form();
            }
            cmds
        } else {
            self.update_inner(msg)
        }
    }

    fn update_inner(&mut self, msg: Msg) -> Vec<Command> {
        match msg {
            Msg::Key(k) => self.on_key(k),
            Msg::Paste(s) => self.on_paste(&s),
            Msg::Mouse(m) => self.on_mouse(m),
            Msg::Resize(..) | Msg::Resumed => {
                self.dirty = true;
                vec![]
            }
            Msg::Copied(r) => match r {
                Ok(what) => self.info(&format!("copied {what}")),
                Err(why) => {
                    self.set_status(&format!("Not copied: {why}"), StatusKind::Error);
                    vec![]
                }
            },
            Msg::Exported(r) => match r {
                Ok(e) => self.info(&format!(
                    "Exported {} {} to {}{}",
                    e.count,
                    if e.count == 1 { "record" } else { "records" },
                    prospect_common::sanitize::sanitize(&e.path.display().to_string()),
                    e.detail.map(|d| format!(" · {d}")).unwrap_or_default()
                )),
                Err(why) => {
                    self.error_popup(format!(
                        "The export was not written: {why}. What it fetched is kept: \
                         exporting again reads it from the store at 0 credits."
                    ));
                    vec![]
                }
            },
            Msg::Progress {
                slot,
                generation,
                outcome,
            } => {
                if generation != self.generation_of(slot) {
                    return vec![];
                }
                self.dirty = true;
                match (slot, *outcome) {
                    (Slot::Export(_), Outcome::Page(page)) => self.on_export_progress(page),
                    _ => vec![],
                }
            }
            Msg::Timer(id, generation) => {
                if self.timer_gens.get(&id) != Some(&generation) {
                    return vec![];
                }
                match id {
                    TimerId::Status => {
                        if self
                            .status
                            .as_ref()
                            .is_some_and(|s| s.kind == StatusKind::Info)
                        {
                            self.status = None;
                            self.dirty = true;
                        }
                        vec![]
                    }
                    TimerId::Debounce => self.start_autocomplete(),
                    TimerId::RateLimit => self.rate_tick(),
                    TimerId::Retry(job) => self.retry_job(job),
                    TimerId::RevealDeadline(job) => self.reveal_overdue(job),
                    TimerId::Activity => self.activity_tick(),
                    TimerId::Segmentation => self.segmentation_tick(),
                    TimerId::Lists => self.lists_tick(),
                }
            }
            Msg::Webhook(d) => self.on_delivery(*d),
            Msg::Done {
                slot,
                generation,
                result,
            } => {
                // Every answer is accounted for, shown or not: a superseded search was paid.
                let mut cmds = self.account(&result);
                self.dirty |= !cmds.is_empty();
                if generation != self.generation_of(slot) {
                    // A superseded call: its answer is never shown (the session stored it).
                    tracing::debug!(?slot, generation, "dropped stale result");
                    return cmds;
                }
                self.dirty = true;
                cmds.extend(self.on_done(slot, result));
                cmds
            }
        }
    }

    /// The service's base URL: the one it started with, or, while a service still starting
    /// is loading, the address it got once known.
    pub fn base_url(&self) -> &str {
        self.connected
            .as_ref()
            .and_then(|c| c.get())
            .map_or(self.opts.base_url.as_str(), String::as_str)
    }
}
