//! The state owner: [`App`] holds everything the explorer shows and changes only in
//! [`App::update`], which consumes one [`Msg`] and returns the [`Command`]s the loop must run
//! (spawn a call, abort one, set a timer, quit, suspend). It never awaits and never does I/O
//! except reading and writing filter-set files.
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use chrono::{DateTime, Utc};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use serde_json::Value;

use super::components::activity::Activity;
use super::components::details::{Details, DetailsEffect};
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
pub use super::components::picker::{Picker, fuzzy_filter};
pub use super::components::results::{Page, Results, ResultsEffect, SearchState};
pub use super::components::sets::{FilterSets, OpenSets, OpenSetsEffect, SaveName, SaveNameEffect};
pub use super::components::spend_gate::PendingSearch;
use super::components::spend_gate::{self, Answer};
use super::keymap::{Action, Keymap};
use super::msg::{
    ApiFailure, Call, Command, ExportFile, HistoryEntry, Msg, Outcome, PageData, PaidAction,
    Prepared, Reopened, Slot, TimerId,
};
use super::schema::{self, DataFields, Kind, Leaf, Opt};
use crate::api::client::Endpoint;
use crate::api::cost;
use crate::api::error::ApiError;
use crate::api::types::ValidationError;
use crate::core::filter_set::FilterSet;
use crate::core::gauge::{Gauge, Refresh};
use crate::core::request::{self, SearchRequest};
use crate::core::spend::describe_age;

mod jobs;
mod mouse;
mod palette;
pub use jobs::{ENRICH_PATIENCE, REVEAL_PATIENCE, backoff};

/// Autocomplete debounce: a lookup starts this long after the last keystroke.
pub const DEBOUNCE: Duration = Duration::from_millis(120);
/// Info messages disappear from the status line after this long.
pub const STATUS_TTL: Duration = Duration::from_secs(6);
/// Wait before retrying a 429 that came without `Retry-After`.
pub const DEFAULT_RETRY_AFTER: Duration = Duration::from_secs(10);
/// How the status line starts during a 429 countdown.
pub const RATE_LIMITED: &str = "Rate limited; retrying in";
/// Credits per autocomplete call, from the team's price table (NOTES.md: 0.1).
pub fn autocomplete_cost() -> f64 {
    cost::estimate_endpoint(Endpoint::AutocompleteKeywords).standard
}

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

/// Kind of status message.
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
    Error(String),
    /// The member editor.
    Editor(Box<Editor>),
    /// Name for saving the filter set.
    SaveName(SaveName),
    /// Jump to a filter member by fuzzy name; the value of each option is its form row.
    Find(Picker),
    /// The command palette (`:`, `Ctrl-p`): every action by name, fuzzy-matched, with its
    /// keys and whether it can run here; submit runs it.
    Palette(Picker),
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
}

/// An export of the first N results whose missing pages are being fetched (a paid job in
/// [`Slot::Export`]; each page is stored by the session and added to its tab).
#[derive(Debug, Clone)]
pub struct ExportJob {
    /// The tab exported.
    pub kind: Kind,
    /// The search's first request: pages of another search are not this job's.
    pub request: SearchRequest,
    /// Rows wanted.
    pub want: usize,
    /// Format and file.
    pub format: crate::core::export::Format,
    /// The CRM layout of the CSV, if any.
    pub preset: Option<crate::core::crm::Preset>,
    /// The file to write.
    pub path: PathBuf,
    /// Close was pressed: no page is sent after the one on its way.
    pub stopping: bool,
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
    pub last_stored: Option<PaidAction>,
    /// The tab whose last search page the store answered at 0 credits (a search bought within
    /// `search_fresh_for`): the refresh key buys the search again.
    pub last_stored_search: Option<Kind>,
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
    pub kind: Kind,
    /// That tab's search, pages and selection.
    pub state: SearchState,
    /// The tab shown.
    pub shown: Kind,
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

/// The problems of a request in one line: the first one, and how many more.
pub fn problems_text(problems: &[ValidationError]) -> String {
    match problems {
        [] => String::new(),
        [one] => one.to_string(),
        [first, rest @ ..] => format!("{first} (+{} more)", rest.len()),
    }
}

/// How the status line starts when the form cannot be sent as it is.
const FORM_PROBLEM: &str = "Not sendable as it is: ";
/// How the status line (and the error popup) starts when a search was refused before sending.
const NOT_SENT: &str = "The search was not sent (nothing spent): ";

/// Formats credits: whole numbers without decimals, else up to two.
pub fn fmt_credits(c: f64) -> String {
    if (c - c.round()).abs() < 1e-9 {
        format!("{}", c.round() as i64)
    } else {
        let s = format!("{c:.2}");
        s.trim_end_matches('0').to_string()
    }
}

impl App {
    /// A new explorer on `endpoint` with an empty form.
    pub fn new(opts: AppOptions) -> App {
        App {
            sets: FilterSets::new(opts.filters_dir.clone()),
            opts,
            focus: Pane::Filters,
            form: Form::new(),
            data_fields: DataFields::default(),
            data_fields_state: None,
            results: Results::default(),
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
        self.form.load(set.endpoint, set.body);
        self.form.sel = 1;
        self.set_status(
            &format!("Opened filter set {}", name.unwrap_or_default()),
            StatusKind::Info,
        );
    }

    /// The search of a tab.
    pub fn search(&self, kind: Kind) -> &SearchState {
        self.results.get(kind)
    }

    fn search_mut(&mut self, kind: Kind) -> &mut SearchState {
        self.results.get_mut(kind)
    }

    /// The shown tab.
    pub fn tab(&self) -> Kind {
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
        self.popups.push(Popup::Error(text));
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
            Msg::Paste(s) => {
                self.on_paste(&s);
                vec![]
            }
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
                    crate::core::sanitize::sanitize(&e.path.display().to_string()),
                    e.detail.map(|d| format!(" · {d}")).unwrap_or_default()
                )),
                Err(why) => {
                    self.error_popup(format!("The export was not written: {why}"));
                    vec![]
                }
            },
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

    /// Takes an answer's charge and request into the credit gauge and says whether the balance
    /// is due: after a 402 at once, otherwise at most once a minute ([`Gauge::should_refresh`]).
    fn account(&mut self, result: &Result<Outcome, ApiFailure>) -> Vec<Command> {
        let why = match result {
            Ok(o) => {
                let c = o.charge();
                if c.cost.is_zero() && c.requests == 0 {
                    return vec![];
                }
                self.gauge.on_charge(c.cost);
                for _ in 0..c.requests {
                    self.gauge.on_request();
                }
                self.dirty = true;
                Refresh::AfterCall
            }
            Err(e) => match &e.error {
                Some(
                    ApiError::InsufficientCredits { .. } | ApiError::VerificationsInProgress { .. },
                ) => {
                    self.gauge.on_request();
                    Refresh::InsufficientCredits
                }
                // A 429 is refused before it counts; other answers reached the service.
                Some(ApiError::RateLimited { .. }) => return vec![],
                Some(err) if err.status().is_some() => {
                    self.gauge.on_request();
                    return vec![];
                }
                _ => return vec![],
            },
        };
        self.refresh_balance(why).into_iter().collect()
    }

    /// A call of `slot` was refused with a per-minute 429: it is sent again after
    /// `Retry-After` (a 429 is never charged, so this is safe for searches too), with a
    /// countdown on the status line. The daily allowance is not retried (see `on_done`).
    fn rate_limited(&mut self, slot: Slot, retry_after: Option<Duration>) -> Vec<Command> {
        let Some(call) = self.inflight.get(&slot).cloned() else {
            return vec![];
        };
        let wait = retry_after.unwrap_or(DEFAULT_RETRY_AFTER);
        let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        let ticking = !self.rate_waits.is_empty();
        self.rate_waits.insert(
            slot,
            RateWait {
                call,
                generation: self.generation_of(slot),
                secs_left: secs.max(1),
            },
        );
        tracing::info!(?slot, secs, "rate limited; retry scheduled");
        self.show_countdown();
        if ticking {
            vec![]
        } else {
            vec![self.timer(TimerId::RateLimit, Duration::from_secs(1))]
        }
    }

    fn show_countdown(&mut self) {
        if let Some(secs) = self.rate_waits.values().map(|w| w.secs_left).max() {
            self.set_status(&format!("{RATE_LIMITED} {secs} s"), StatusKind::Progress);
        }
    }

    /// One second of the 429 countdown: retries that are due are sent again (unless a newer
    /// call in their slot made them pointless), the status line shows the rest.
    fn rate_tick(&mut self) -> Vec<Command> {
        let gens: HashMap<Slot, u64> = self
            .rate_waits
            .keys()
            .map(|s| (*s, self.generation_of(*s)))
            .collect();
        self.rate_waits
            .retain(|s, w| gens.get(s) == Some(&w.generation));
        let mut due = Vec::new();
        for (slot, w) in &mut self.rate_waits {
            w.secs_left = w.secs_left.saturating_sub(1);
            if w.secs_left == 0 {
                due.push(*slot);
            }
        }
        let mut cmds = Vec::new();
        for slot in due {
            if let Some(w) = self.rate_waits.remove(&slot) {
                tracing::info!(?slot, "retrying after 429");
                cmds.push(self.call(slot, w.call));
            }
        }
        self.dirty = true;
        if self.rate_waits.is_empty() {
            if self
                .status
                .as_ref()
                .is_some_and(|s| s.text.starts_with(RATE_LIMITED))
            {
                if cmds.is_empty() {
                    self.status = None;
                } else {
                    self.set_status("Retrying…", StatusKind::Progress);
                }
            }
        } else {
            self.show_countdown();
            cmds.push(self.timer(TimerId::RateLimit, Duration::from_secs(1)));
        }
        cmds
    }

    /// Checks the form's request as the client will ([`request::build_search`]) and says what
    /// is wrong on the status line when that changed; clears its own message once the form
    /// can be sent again.
    fn check_form(&mut self) {
        if !self.form.recheck() {
            return;
        }
        let shown = self
            .status
            .as_ref()
            .is_some_and(|s| s.text.starts_with(FORM_PROBLEM) || s.text.starts_with(NOT_SENT));
        if self.form.problems.is_empty() {
            if shown {
                self.status = None;
                self.dirty = true;
            }
        } else {
            let text = format!("{FORM_PROBLEM}{}", problems_text(&self.form.problems));
            self.set_status(&text, StatusKind::Error);
        }
    }

    fn on_done(&mut self, slot: Slot, result: Result<Outcome, ApiFailure>) -> Vec<Command> {
        if let Err(ApiFailure {
            error: Some(e @ ApiError::RateLimited { retry_after }),
            ..
        }) = &result
            && !e.is_daily_limit()
        {
            return self.rate_limited(slot, *retry_after);
        }
        match (slot, result) {
            (Slot::DataFields, Ok(Outcome::DataFields(df))) => {
                self.data_fields = df;
                self.data_fields_state = Some(Ok(()));
                self.refresh_picker();
                if self
                    .status
                    .as_ref()
                    .is_some_and(|s| s.kind == StatusKind::Progress)
                    && !self.any_loading()
                {
                    return self.info("Ready. Enter edits a filter member; Ctrl-r runs the search; ? shows the keys.");
                }
                vec![]
            }
            (Slot::DataFields | Slot::Balance, Err(e)) if self.token_rejected(&e) => vec![],
            (Slot::DataFields, Err(e)) => {
                self.data_fields_state = Some(Err(e.message.clone()));
                self.set_status(
                    &format!("Reference data unavailable: {}", e.message),
                    StatusKind::Error,
                );
                vec![]
            }
            (Slot::Balance, Ok(Outcome::Balance(b))) => {
                self.gauge.on_balance(b, std::time::Instant::now());
                self.balance_loading = false;
                vec![]
            }
            (Slot::Balance, Err(e)) => {
                self.gauge.on_balance_failed();
                self.balance_loading = false;
                self.set_status(
                    &format!("Credit balance unavailable: {}", e.message),
                    StatusKind::Error,
                );
                vec![]
            }
            (Slot::Export(_), result) => self.on_export_page(result),
            (Slot::Search(kind), Ok(Outcome::Page(page))) => self.on_page(kind, page),
            (Slot::OpenJobs, Ok(Outcome::OpenJobs(list))) => self.on_open_jobs(list),
            // The list of unfinished jobs is a courtesy: a store that cannot be read says so
            // elsewhere.
            (Slot::OpenJobs, _) => vec![],
            (Slot::Search(kind), Ok(Outcome::Reopened(r))) => self.on_reopened(kind, r),
            (Slot::Search(kind), Ok(Outcome::ListOpened(l))) => self.on_list_opened(kind, *l),
            (Slot::Search(kind), Err(e)) => {
                let what = match self.inflight.get(&slot) {
                    Some(Call::Reopen(_)) => "The stored search could not be shown",
                    Some(Call::OpenList(_)) => "The list could not be shown",
                    _ => "The search failed",
                };
                let s = self.search_mut(kind);
                s.loading = false;
                s.error = Some(e.message.clone());
                self.error_popup(format!("{what}: {}", e.message));
                vec![]
            }
            (Slot::Purchases, result) => {
                self.activity.purchases = Some(match result {
                    Ok(Outcome::Purchases(spends)) => Ok(spends),
                    Ok(_) => Err("an unexpected answer".into()),
                    Err(e) => Err(e.message),
                });
                vec![]
            }
            (Slot::ListsView, Ok(Outcome::Lists { lists, .. }))
                if matches!(self.popups.last(), Some(Popup::ListName(_))) =>
            {
                if let Some(Popup::ListName(p)) = self.popups.last_mut() {
                    p.lists_loaded(&lists);
                }
                vec![]
            }
            (Slot::ListsView, result) => {
                if let Some(Popup::Lists(l)) = self.popups.last_mut() {
                    l.loaded(match result {
                        Ok(Outcome::Lists { lists, suppression }) => Ok((lists, suppression)),
                        Ok(_) => Err("an unexpected answer".into()),
                        Err(e) => Err(e.message),
                    });
                }
                vec![]
            }
            (Slot::Autocomplete, Ok(Outcome::Suggestions { list, .. })) => {
                if let Some(Popup::Editor(ed)) = self.popups.last_mut() {
                    ed.show_suggestions(list);
                }
                vec![]
            }
            (Slot::History, Ok(Outcome::History(entries))) => {
                if let Some(Popup::History(h)) = self.popups.last_mut() {
                    h.loaded(Ok(entries));
                }
                vec![]
            }
            (Slot::History, Err(e)) => {
                if let Some(Popup::History(h)) = self.popups.last_mut() {
                    h.loaded(Err(e.message));
                }
                vec![]
            }
            (Slot::Autocomplete, Err(e)) => {
                if let Some(Popup::Editor(ed)) = self.popups.last_mut() {
                    ed.lookup_failed(&e.message);
                }
                self.set_status(
                    &format!("Autocomplete failed: {}", e.message),
                    StatusKind::Error,
                );
                vec![]
            }
            (Slot::Job(_) | Slot::Prepare, result) => self.on_job_done(slot, result),
            (
                Slot::Lists,
                Ok(Outcome::ListAdded {
                    name,
                    added,
                    had,
                    members,
                }),
            ) => {
                let name = crate::core::sanitize::sanitize(&name);
                self.info(&format!(
                    "List {name}: {added} added{} · {members} members · `prospect list show {name}`",
                    if had > 0 {
                        format!(", {had} already in it")
                    } else {
                        String::new()
                    }
                ))
            }
            (Slot::Lists, Err(e)) => {
                self.error_popup(format!("The list was not changed: {}", e.message));
                vec![]
            }
            (slot, Ok(other)) => {
                tracing::warn!(?slot, ?other, "unexpected outcome");
                vec![]
            }
        }
    }

    /// Stops waiting for the page this tab is loading: the view no longer waits, and drops
    /// the answer when it comes. A page is a paid call, so its task goes on and the session
    /// stores the answer all the same (`H` reopens it at no cost).
    fn stop_waiting(&mut self) -> Vec<Command> {
        let kind = self.tab();
        let slot = Slot::Search(kind);
        let paid = matches!(self.inflight.remove(&slot), Some(Call::Search { .. }));
        self.bump(slot);
        let s = self.search_mut(kind);
        s.loading = false;
        // A first page stopped for: the pane is as before any search, not "nothing matched".
        if s.pages.is_empty() {
            s.request = None;
        }
        if paid {
            let history = self.opts.keymap.first_key_of(Action::History);
            self.info(&format!(
                "Stopped waiting for the page. It is a paid call: its answer is still stored \
                 when it comes ({history} reopens it at no cost)."
            ))
        } else {
            self.info("Stopped waiting.")
        }
    }

    fn any_loading(&self) -> bool {
        self.results.companies.loading || self.results.people.loading
    }

    /// A balance call when the gauge says one is due for `why` (at start, on `c`, after a
    /// 402, else at most once a minute): the service's request allowance is precious.
    fn refresh_balance(&mut self, why: Refresh) -> Option<Command> {
        if !self.gauge.should_refresh(why, std::time::Instant::now()) {
            return None;
        }
        self.balance_loading = true;
        Some(self.call(Slot::Balance, Call::Balance))
    }

    /// A stored search read back into the tab of `kind`: its pages at no cost, its filters in
    /// the form; paging past the last stored page continues it as a paid search.
    fn on_reopened(&mut self, kind: Kind, r: Reopened) -> Vec<Command> {
        self.last_error = None;
        let n = r.pages.len();
        let total = r.pages.iter().rev().find_map(|p| p.total);
        let notes = r.pages.last().map(|p| p.notes.clone()).unwrap_or_default();
        let endpoint = r.request.endpoint();
        *self.search_mut(kind) = SearchState {
            request: Some(r.request),
            pages: r
                .pages
                .into_iter()
                .map(|p| Page {
                    rows: p.rows,
                    next: p.search_after,
                    stored: true,
                })
                .collect(),
            total,
            notes,
            search_id: Some(r.id),
            stored_age: Some(r.age),
            ..SearchState::default()
        };
        self.form.load(endpoint, r.body);
        self.form.sel = self.form.sel.min(self.form_rows().len().saturating_sub(1));
        self.check_form();
        self.focus = Pane::Results;
        self.details.scroll = 0;
        self.info(&format!(
            "Reopened from store, {} · {n} page{} · nothing spent",
            describe_age(r.age),
            if n == 1 { "" } else { "s" }
        ))
    }

    /// Unfinished jobs of earlier runs: each listed in the activity pane as failed with how to
    /// resume it, and the status line says how many.
    fn on_open_jobs(&mut self, list: Vec<crate::tui::msg::OpenJob>) -> Vec<Command> {
        if list.is_empty() {
            return vec![];
        }
        for j in &list {
            let id = self.activity.next_id();
            self.activity
                .jobs
                .push(crate::tui::components::activity::Job {
                    id,
                    label: format!("job {}: {}", j.id, j.what),
                    action: None,
                    fresh: crate::core::session::Freshness::Stored,
                    state: crate::tui::components::activity::JobState::Failed(format!(
                        "{} ({}); {} kept — `prospect resume {}` buys only the rest",
                        j.state, j.detail, j.bought, j.id
                    )),
                    estimate: crate::api::cost::Cost::ZERO,
                    charged: crate::api::cost::Cost::ZERO,
                    sent_at: j.updated_at,
                    waiting: Default::default(),
                    sent_ids: 0,
                    attempts: 1,
                    note: String::new(),
                });
        }
        self.set_status(
            &format!(
                "{} unfinished paid action{} from an earlier run: see the activity pane \
                 (`prospect resume ID` buys only the rest)",
                list.len(),
                if list.len() == 1 { "" } else { "s" }
            ),
            StatusKind::Info,
        );
        vec![]
    }

    fn on_page(&mut self, kind: Kind, page: PageData) -> Vec<Command> {
        // A search that works again: the last error is history.
        self.last_error = None;
        let s = self.search_mut(kind);
        s.loading = false;
        s.error = None;
        s.total = page.total.or(s.total);
        s.notes = page.notes;
        s.search_id = page.search_id.or(s.search_id);
        let n = page.rows.len();
        let stored_at = page.stored_at;
        s.pages.push(Page {
            rows: page.rows,
            next: page.search_after,
            stored: stored_at.is_some(),
        });
        s.page = s.pages.len() - 1;
        s.sel = 0;
        s.offset.set(0);
        let first = s.first_index();
        let total = s.total;
        self.details.scroll = 0;
        // A page answered from the store cost nothing now: its answer's `creditsUsed` is what
        // it cost when it was bought, not what this showing spent.
        let mut used = if !page.charge.cost.is_zero() {
            format!(" · {} used", page.charge.cost)
        } else if page.credits_used > 0.0 && stored_at.is_none() {
            format!(" · {} credits used", fmt_credits(page.credits_used))
        } else {
            String::new()
        };
        if let Some(e) = &page.store_error {
            used.push_str(&format!(" · NOT stored: {e}"));
        }
        if let Some(sup) = &page.suppressed {
            used.push_str(&format!(" · {sup}"));
        }
        if let Some(at) = stored_at {
            let refresh = self.opts.keymap.first_key_of(Action::Refresh);
            used.push_str(&format!(
                " · from the store ({}) · 0 credits · {refresh} buys it again",
                crate::core::spend::describe_age(self.now - at)
            ));
            self.last_stored_search = Some(kind);
        }
        let text = match (n, total) {
            (0, _) => format!(
                "No {} matched{used}",
                if kind == Kind::Companies {
                    "companies"
                } else {
                    "people"
                }
            ),
            (n, Some(t)) => format!("Rows {}–{} of {t}{used}", first, first + n - 1),
            (n, None) => format!("Rows {}–{}{used}", first, first + n - 1),
        };
        self.info(&text)
    }

    // ---------------------------------------------------------------- keys

    fn on_key(&mut self, k: KeyEvent) -> Vec<Command> {
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
        // Text fields take every printable key.
        match self.popups.last() {
            Some(Popup::Editor(_)) => return self.editor_key(k),
            Some(Popup::SaveName(_)) => return self.save_name_key(k),
            Some(Popup::ListName(_)) => return self.list_name_key(k),
            Some(Popup::Find(_)) => return self.find_key(k),
            Some(Popup::Palette(_)) => return self.palette_key(k),
            Some(Popup::Export(_)) => return self.export_key(k),
            // y / n answer the confirmation whatever the keymap says.
            Some(Popup::Confirm(_)) => {
                let action = self.opts.keymap.action(&k);
                return self.confirm_key(action, k);
            }
            Some(Popup::Lookup(_)) => return self.lookup_key(k),
            Some(Popup::ConfirmAction(_)) => {
                let action = self.opts.keymap.action(&k);
                return self.confirm_action_key(action, k);
            }
            _ => {}
        }
        let Some(action) = self.opts.keymap.action(&k) else {
            return vec![];
        };
        if let Some(Popup::Help(h)) = self.popups.last_mut() {
            if h.handle(action) {
                self.popups.pop();
            }
            return vec![];
        }
        if let Some(p) = self.popups.last() {
            return match p {
                Popup::Error(_) => {
                    if help::closes(action) {
                        self.popups.pop();
                    }
                    vec![]
                }
                Popup::Confirm(_) => self.confirm_key(Some(action), k),
                Popup::OpenSet(_) => self.open_set_key(action),
                Popup::History(_) => self.history_key(action),
                Popup::Lists(_) => self.lists_key(action),
                Popup::Facets(_) => {
                    if help::closes(action) || action == Action::Facets {
                        self.popups.pop();
                    }
                    vec![]
                }
                Popup::Activity => self.activity_key(action),
                _ => vec![],
            };
        }
        self.dispatch(action)
    }

    /// What `action` does with no popup open, whatever key or palette entry asked for it.
    fn dispatch(&mut self, action: Action) -> Vec<Command> {
        // Esc while this tab's page is on its way stops waiting for it (issue 19, "Control").
        if action == Action::Close && self.search(self.tab()).loading {
            return self.stop_waiting();
        }
        if let Some(cmds) = self.action_key(action) {
            return cmds;
        }
        match action {
            Action::Quit => {
                self.quit = true;
                vec![Command::Quit]
            }
            Action::Help => {
                self.popups.push(Popup::Help(help::HelpView::default()));
                vec![]
            }
            Action::NextPane | Action::PrevPane => {
                let order = [Pane::Filters, Pane::Results, Pane::Details];
                let i = order.iter().position(|p| *p == self.focus).unwrap_or(0);
                let d = if action == Action::NextPane { 1 } else { 2 };
                self.focus = order[(i + d) % 3];
                vec![]
            }
            Action::Search => self.run_search(),
            Action::SwitchTab => {
                // Each tab has its own form (issue 19).
                self.form.show_kind(match self.tab() {
                    Kind::Companies => Kind::People,
                    Kind::People => Kind::Companies,
                });
                self.form.clamp_selection();
                self.details.scroll = 0;
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
            Action::ToggleVersion => {
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
            Action::Save => self.save(false),
            Action::SaveAs => self.save(true),
            Action::Open => {
                match self.sets.list() {
                    Ok(names) if names.is_empty() => {
                        let save = self.opts.keymap.keys_of(Action::Save);
                        return self.info(&format!("No saved filter sets yet ({save} saves one)."));
                    }
                    Ok(names) => self.popups.push(Popup::OpenSet(OpenSets::new(names))),
                    Err(e) => self.error_popup(e),
                }
                vec![]
            }
            Action::Credits => match self.refresh_balance(Refresh::User) {
                Some(c) => vec![c],
                None => self.info("The credit balance is already on its way."),
            },
            Action::History => {
                self.popups.push(Popup::History(HistoryPopup::default()));
                vec![self.call(Slot::History, Call::History)]
            }
            Action::Lists => {
                self.popups.push(Popup::Lists(Default::default()));
                vec![self.call(Slot::ListsView, Call::Lists)]
            }
            Action::Find => {
                let options: Vec<Opt> = self
                    .form_rows()
                    .iter()
                    .enumerate()
                    .filter_map(|(i, r)| match r {
                        FormRow::Leaf(l) => Some(Opt {
                            // By label or by API name (issue 19).
                            label: format!("{}  {}", l.label(), l.path.join(".")),
                            value: Value::from(i),
                        }),
                        _ => None,
                    })
                    .collect();
                self.popups
                    .push(Popup::Find(Picker::new(options, false, vec![])));
                vec![]
            }
            Action::NextPage => self.next_page(),
            Action::PrevPage => {
                let s = self.search_mut(self.tab());
                if s.page > 0 {
                    s.page -= 1;
                    s.sel = 0;
                    s.offset.set(0);
                    self.details.scroll = 0;
                    return self.rows_status(self.tab());
                }
                vec![]
            }
            Action::PeopleAtCompany => self.people_at_company(),
            Action::Lookalikes => self.lookalikes(),
            Action::Export => self.open_export(),
            Action::CopyField => self.copy_field(),
            Action::CopyRow => self.copy_row(),
            Action::CopyCurl => self.copy_curl(),
            Action::Facets => self.open_facets(),
            Action::Back => self.go_back(),
            Action::Palette => self.open_palette(),
            Action::Undo => self.undo(),
            _ => match self.focus {
                Pane::Filters => self.filters_key(action),
                Pane::Results => self.results_key(action),
                Pane::Details => self.details_key(action),
            },
        }
    }

    fn on_paste(&mut self, raw: &str) {
        if let Some(Popup::Lookup(l)) = self.popups.last_mut() {
            // Line breaks separate the keys: kept, every line sanitized.
            l.paste(raw);
            self.dirty = true;
            return;
        }
        let s = crate::core::sanitize::sanitize(raw);
        match self.popups.last_mut() {
            Some(Popup::Editor(ed)) => {
                // The editor splits a pasted list before sanitizing (newlines separate items).
                let leaf = ed.leaf;
                if let EditorEffect::Write(v) = ed.paste(raw) {
                    self.write_member(leaf, v);
                }
                self.dirty = true;
            }
            Some(Popup::Find(p) | Popup::Palette(p)) => {
                p.paste(&s);
                self.dirty = true;
            }
            Some(Popup::SaveName(t)) => {
                t.input.insert_str(&s);
                self.dirty = true;
            }
            Some(Popup::ListName(t)) => {
                t.input.insert_str(&s);
                self.dirty = true;
            }
            Some(Popup::Export(p)) => {
                p.paste(&s);
                self.dirty = true;
            }
            _ => {}
        }
    }

    fn filters_key(&mut self, action: Action) -> Vec<Command> {
        if action == Action::ClearAll && schema::is_filled(Some(&self.form.body)) {
            self.undo = Some(Undo::Form {
                endpoint: self.form.endpoint,
                body: self.form.body.clone(),
            });
            self.form.handle(action, &self.opts.keymap);
            let u = self.opts.keymap.first_key_of(Action::Undo);
            return self.info(&format!("Cleared every filter member · {u} undoes"));
        }
        match self.form.handle(action, &self.opts.keymap) {
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

    fn results_key(&mut self, action: Action) -> Vec<Command> {
        match self.results.handle(action, self.tab()) {
            ResultsEffect::Nothing => {}
            ResultsEffect::Moved => self.details.scroll = 0,
            ResultsEffect::ShowKind(kind) => self.form.show_kind(kind),
            ResultsEffect::Run => return self.run_search(),
            ResultsEffect::OpenDetails => {
                self.focus = Pane::Details;
                self.details.scroll = 0;
            }
        }
        vec![]
    }

    fn details_key(&mut self, action: Action) -> Vec<Command> {
        if self.details.handle(action) == DetailsEffect::Leave {
            self.focus = Pane::Results;
        }
        vec![]
    }

    fn confirm_key(&mut self, action: Option<Action>, k: KeyEvent) -> Vec<Command> {
        match spend_gate::answer(action, &k) {
            Answer::Yes => {
                if let Some(Popup::Confirm(p)) = self.popups.pop() {
                    return self.start_search(p);
                }
            }
            Answer::No => {
                self.popups.pop();
                return self.info("Cancelled; nothing was spent.");
            }
            Answer::Undecided => {}
        }
        vec![]
    }

    fn open_set_key(&mut self, action: Action) -> Vec<Command> {
        if action == Action::Undo {
            let cmds = self.undo();
            if let Ok(names) = self.sets.list()
                && let Some(Popup::OpenSet(o)) = self.popups.last_mut()
            {
                *o = OpenSets::new(names);
            }
            return cmds;
        }
        let Some(Popup::OpenSet(o)) = self.popups.last_mut() else {
            return vec![];
        };
        match o.handle(action) {
            OpenSetsEffect::Nothing => {}
            OpenSetsEffect::Closed => {
                self.popups.pop();
            }
            OpenSetsEffect::Open(name) => {
                self.popups.pop();
                match self.sets.open(&name) {
                    Ok(set) => {
                        self.apply_set(set, Some(name));
                        self.focus = Pane::Filters;
                        return vec![self.timer(TimerId::Status, STATUS_TTL)];
                    }
                    Err(e) => self.error_popup(format!("Could not open the filter set: {e}")),
                }
            }
            OpenSetsEffect::Delete(name) => {
                // Kept for undo before it goes.
                let kept = crate::core::filter_set::path_of(&self.sets.dir, &name)
                    .and_then(|p| crate::core::filter_set::load(&p))
                    .ok();
                match self.sets.delete(&name) {
                    Ok(()) => {
                        if o.remove(&name) {
                            self.popups.pop();
                        }
                        let mut text = format!("Deleted filter set {name}");
                        if let Some(set) = kept {
                            self.undo = Some(Undo::DeletedSet {
                                name: name.clone(),
                                set,
                            });
                            let u = self.opts.keymap.first_key_of(Action::Undo);
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
    fn close_reading(&mut self, slot: Slot) -> Vec<Command> {
        self.popups.pop();
        self.bump(slot);
        vec![Command::Abort(slot)]
    }

    fn history_key(&mut self, action: Action) -> Vec<Command> {
        let Some(Popup::History(h)) = self.popups.last_mut() else {
            return vec![];
        };
        match h.handle(action) {
            HistoryEffect::Nothing => vec![],
            HistoryEffect::Closed => self.close_reading(Slot::History),
            HistoryEffect::Reopen(entry) => {
                self.popups.pop();
                self.reopen(&entry)
            }
        }
    }

    fn lists_key(&mut self, action: Action) -> Vec<Command> {
        use super::components::lists::ListsEffect;
        let Some(Popup::Lists(l)) = self.popups.last_mut() else {
            return vec![];
        };
        match l.handle(action) {
            ListsEffect::Nothing => vec![],
            ListsEffect::Closed => self.close_reading(Slot::ListsView),
            ListsEffect::Open(name) => {
                let kind = match l.lists.iter().flatten().find(|s| s.name == name) {
                    Some(s) if s.kind == crate::store::ListKind::Contacts => Kind::People,
                    _ => Kind::Companies,
                };
                self.popups.pop();
                self.form.show_kind(kind);
                let s = self.search_mut(kind);
                s.loading = true;
                s.error = None;
                self.set_status(
                    &format!(
                        "Opening list {} from the store (no cost)…",
                        crate::core::sanitize::sanitize(&name)
                    ),
                    StatusKind::Progress,
                );
                vec![self.call(Slot::Search(kind), Call::OpenList(name))]
            }
        }
    }

    /// A list read back into the tab of `kind`: its members as one page at no cost, with what
    /// buying the rest would cost; marks, reveals, lookups, `+` and the export act on it as on
    /// a search's rows. The form keeps its filters: a search replaces the list.
    fn on_list_opened(&mut self, kind: Kind, l: super::msg::OpenedList) -> Vec<Command> {
        self.last_error = None;
        let n = l.rows.len();
        let name = crate::core::sanitize::sanitize(&l.name);
        *self.search_mut(kind) = SearchState {
            pages: vec![Page {
                rows: l.rows,
                next: None,
                stored: true,
            }],
            total: Some(n as u64),
            list: Some(name.clone()),
            ..SearchState::default()
        };
        self.focus = Pane::Results;
        self.details.scroll = 0;
        let members = match l.kind {
            crate::store::ListKind::Accounts => format!("{n} accounts, {} stored", l.known),
            crate::store::ListKind::Contacts => {
                format!("{n} contacts, {} revealed", l.revealed)
            }
        };
        let rest = match (l.kind, l.rest) {
            (_, Err(why)) => format!("the rest not planned: {why}"),
            (crate::store::ListKind::Accounts, Ok(plan)) => format!("looking them up: {plan}"),
            (crate::store::ListKind::Contacts, Ok(plan)) => {
                format!("revealing emails: {plan}")
            }
        };
        let act = match l.kind {
            crate::store::ListKind::Accounts => format!(
                ", then {} looks them up",
                self.opts.keymap.first_key_of(Action::Lookup)
            ),
            crate::store::ListKind::Contacts => format!(
                ", then {} reveals",
                self.opts.keymap.first_key_of(Action::RevealEmails)
            ),
        };
        self.info(&format!(
            "List {name}: {members} · nothing spent · {rest} · {} marks all{act}",
            self.opts.keymap.first_key_of(Action::MarkAll)
        ))
    }

    /// Reads a stored search back into its tab (free; off the UI loop). Whatever ran in that
    /// tab is superseded: a paid page still on its way is stored but not shown.
    fn reopen(&mut self, entry: &HistoryEntry) -> Vec<Command> {
        let kind = schema::tab_of(entry.endpoint);
        self.form.show_kind(kind);
        let s = self.search_mut(kind);
        s.loading = true;
        s.error = None;
        self.set_status(
            &format!(
                "Reopening {} from the store (no cost)…",
                schema::label(entry.endpoint)
            ),
            StatusKind::Progress,
        );
        vec![self.call(Slot::Search(kind), Call::Reopen(entry.id))]
    }

    fn save(&mut self, ask: bool) -> Vec<Command> {
        match (&self.sets.name, ask) {
            (Some(name), false) => {
                let name = name.clone();
                self.save_as(&name)
            }
            // "Save as" starts empty: typing a new name never appends to the current one.
            _ => {
                self.popups.push(Popup::SaveName(SaveName::new("")));
                vec![]
            }
        }
    }

    fn save_as(&mut self, name: &str) -> Vec<Command> {
        let set = FilterSet {
            endpoint: self.form.endpoint,
            body: self.form.body.clone(),
        };
        match self.sets.save(name, &set) {
            // Written back to the file it was opened from: say where.
            Ok(path) if self.sets.file.is_some() => self.info(&format!(
                "Saved filter set {name} to {}",
                crate::core::sanitize::sanitize(&path.display().to_string())
            )),
            Ok(_) => self.info(&format!("Saved filter set {name}")),
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
            Kind::Companies => crate::store::ListKind::Accounts,
            Kind::People => crate::store::ListKind::Contacts,
        };
        self.popups
            .push(Popup::ListName(super::components::lists::ListPrompt::new(
                list_kind, keys,
            )));
        vec![self.call(Slot::ListsView, Call::Lists)]
    }

    fn list_name_key(&mut self, k: KeyEvent) -> Vec<Command> {
        use super::components::lists::ListPromptEffect;
        let text = self.opts.keymap.text_action(&k);
        let Some(Popup::ListName(prompt)) = self.popups.last_mut() else {
            return vec![];
        };
        match prompt.handle(k, text) {
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

    fn save_name_key(&mut self, k: KeyEvent) -> Vec<Command> {
        let text = self.opts.keymap.text_action(&k);
        let Some(Popup::SaveName(prompt)) = self.popups.last_mut() else {
            return vec![];
        };
        match prompt.handle(k, text) {
            SaveNameEffect::Nothing => vec![],
            SaveNameEffect::Cancelled => {
                self.popups.pop();
                vec![]
            }
            SaveNameEffect::Invalid(why) => {
                self.set_status(&why, StatusKind::Error);
                vec![]
            }
            SaveNameEffect::Save(name) => {
                self.popups.pop();
                self.save_as(&name)
            }
        }
    }

    // ---------------------------------------------------------------- searches

    /// The body of the first page of a search of the current endpoint.
    pub fn request_body(&self) -> Value {
        self.form.request_body()
    }

    fn run_search(&mut self) -> Vec<Command> {
        match request::build_search(self.form.endpoint, &self.request_body()) {
            Ok(request) => self.gate(request, false),
            Err(problems) => {
                self.form.problems = problems.clone();
                self.not_sent(&problems)
            }
        }
    }

    /// A search the client would refuse: nothing is confirmed, sent or spent.
    fn not_sent(&mut self, problems: &[ValidationError]) -> Vec<Command> {
        self.error_popup(format!("{NOT_SENT}{}", problems_text(problems)));
        vec![]
    }

    /// The spend gate of a search page. `request` has passed the client's checks.
    fn gate(&mut self, request: SearchRequest, next_page: bool) -> Vec<Command> {
        self.gate_page(PendingSearch::new(request, next_page))
    }

    /// A page estimated above the threshold, or any page under a budget, is planned first
    /// ([`Call::PlanPage`], free; [`App::on_page_planned`] goes on); else it starts at once.
    fn gate_page(&mut self, p: PendingSearch) -> Vec<Command> {
        if p.needs_confirmation(self.opts.confirm_above) || self.opts.budgeted {
            let call = Call::PlanPage {
                request: p.request.clone(),
                fresh: p.fresh,
            };
            self.planning = Some(p);
            self.set_status("Planning the search…", StatusKind::Progress);
            vec![self.call(Slot::Prepare, call)]
        } else {
            self.start_search(p)
        }
    }

    /// The plan of the page being planned: refused (over a budget) → said, nothing sent; owned
    /// by the store → read at 0 credits without asking; else confirmed above the threshold (the
    /// popup shows the plan), or started.
    pub(super) fn on_page_planned(&mut self, plan: crate::core::engine::Plan) -> Vec<Command> {
        let Some(mut p) = self.planning.take() else {
            return vec![];
        };
        if let Some(r) = &plan.refusal {
            self.error_popup(format!("Search refused: {r}"));
            return vec![];
        }
        let free = plan.is_free();
        p.set_plan(plan);
        if free {
            return self.start_search(p);
        }
        if p.needs_confirmation(self.opts.confirm_above) {
            self.status = None;
            self.popups.push(Popup::Confirm(p));
            vec![]
        } else {
            self.start_search(p)
        }
    }

    /// The search of `request` bought again from its first page (the refresh key after the
    /// store answered it), through the same gate as any search.
    pub(super) fn refresh_search(&mut self, request: SearchRequest) -> Vec<Command> {
        let mut p = PendingSearch::new(request, false);
        p.fresh = crate::core::session::Freshness::Refresh;
        self.gate_page(p)
    }

    fn start_search(&mut self, p: PendingSearch) -> Vec<Command> {
        let kind = p.request.subject();
        let noun = if kind == Kind::Companies {
            "companies"
        } else {
            "people"
        };
        let what = if p.next_page {
            "next page of"
        } else {
            "searching"
        };
        let cost = match &p.plan {
            Some(plan) if plan.is_free() => "the store has it (0 credits)".to_string(),
            _ => format!("estimated cost ≤ {}", p.cost),
        };
        self.set_status(
            &format!(
                "{} {noun} via {} · {cost}",
                capitalize(what),
                p.request.endpoint().path(),
            ),
            StatusKind::Progress,
        );
        let s = self.search_mut(kind);
        if !p.next_page {
            *s = SearchState {
                request: Some(p.request.clone()),
                ..SearchState::default()
            };
        }
        s.loading = true;
        s.error = None;
        let page = if p.next_page { s.pages.len() as u32 } else { 0 };
        self.focus = if p.next_page {
            self.focus
        } else {
            Pane::Results
        };
        self.details.scroll = 0;
        vec![self.call(
            Slot::Search(kind),
            Call::Search {
                request: p.request,
                page,
                fresh: p.fresh,
            },
        )]
    }

    fn next_page(&mut self) -> Vec<Command> {
        let kind = self.tab();
        let s = self.search_mut(kind);
        if s.loading {
            return vec![];
        }
        if s.page + 1 < s.pages.len() {
            s.page += 1;
            s.sel = 0;
            s.offset.set(0);
            self.details.scroll = 0;
            return self.rows_status(kind);
        }
        let Some(first) = s.request.clone() else {
            return self.info("Run a search first (Ctrl-r).");
        };
        let shown: usize = s.pages.iter().map(|p| p.rows.len()).sum();
        let cursor = s.pages.last().and_then(|p| p.next.clone());
        let done = s.total.is_some_and(|t| shown as u64 >= t)
            || s.pages.last().is_some_and(|p| p.rows.is_empty());
        let Some(cursor) = cursor.filter(|_| !done) else {
            return self.info("This is the last page.");
        };
        let request = first.with_search_after(Some(cursor));
        match request.check() {
            Ok(()) => self.gate(request, true),
            Err(problems) => self.not_sent(&problems),
        }
    }

    /// The domain of the selected company (companies tab).
    fn selected_domain(&self) -> Option<String> {
        let row = self.search(Kind::Companies).selected()?;
        let domain = &row.record.company()?.domain;
        (!domain.is_empty()).then(|| domain.clone())
    }

    fn people_at_company(&mut self) -> Vec<Command> {
        if self.tab() != Kind::Companies {
            return self.info("Select a company first (companies tab).");
        }
        let Some(domain) = self.selected_domain() else {
            return self.info("Select a company first.");
        };
        self.push_back(Kind::People);
        // The company is carried over, nothing else: the people form starts from it alone
        // (the people filters it held come back with Back).
        self.form.show_kind(Kind::People);
        let size = schema::get(&self.form.body, &["size"]).cloned();
        let mut body = serde_json::json!({});
        if let Some(size) = size {
            schema::set(&mut body, &["size"], size);
        }
        schema::set(
            &mut body,
            &["companiesFilters", "includeDomains"],
            Value::Array(vec![Value::String(domain.clone())]),
        );
        self.form.body = body;
        self.form.clamp_selection();
        let cmds = self.run_search();
        if self.popups.is_empty() {
            let p = format!(
                "People at {}: the company only (Only these domains), not the people filters \
                 ({} brings them back) · ",
                crate::core::sanitize::sanitize(&domain),
                self.opts.keymap.first_key_of(Action::Back)
            );
            if let Some(st) = &mut self.status {
                st.text.insert_str(0, &p);
            }
        }
        cmds
    }

    fn lookalikes(&mut self) -> Vec<Command> {
        if self.tab() != Kind::Companies {
            return self.info("Select a company first (companies tab).");
        }
        let Some(domain) = self.selected_domain() else {
            return self.info("Select a company first.");
        };
        self.push_back(Kind::Companies);
        schema::set(
            &mut self.form.body,
            &["companiesFilters", "lookalikeDomains"],
            Value::Array(vec![Value::String(domain.clone())]),
        );
        schema::remove(&mut self.form.body, &["companiesFilters", "includeDomains"]);
        let cmds = self.run_search();
        if self.popups.is_empty() {
            let p = format!(
                "Companies like {}: the company carried over (Lookalikes of), your other company \
                 filters kept · ",
                crate::core::sanitize::sanitize(&domain)
            );
            if let Some(st) = &mut self.status {
                st.text.insert_str(0, &p);
            }
        }
        cmds
    }

    // ---------------------------------------------------------------- editor

    /// A yes / no member is a toggle (issue 19): Enter turns it on, off, then unset (the
    /// service's default), without a picker.
    fn toggle_member(&mut self, leaf: &'static Leaf) -> Vec<Command> {
        let next = match schema::get(&self.form.body, leaf.path) {
            None | Some(Value::Null) => Some(Value::Bool(true)),
            Some(Value::Bool(true)) => Some(Value::Bool(false)),
            Some(_) => None,
        };
        let said = match &next {
            Some(Value::Bool(true)) => "yes",
            Some(_) => "no",
            None => "not set (the service's default)",
        };
        let selection = self.form.selection();
        self.write_member(leaf, next);
        self.form.keep_selection(selection);
        self.check_form();
        self.info(&format!("{}: {said}", leaf.label()))
    }

    fn open_editor(&mut self, leaf: &'static Leaf) {
        let editor = Editor::open(
            leaf,
            schema::get(&self.form.body, leaf.path),
            &self.data_fields,
        );
        self.popups.push(Popup::Editor(Box::new(editor)));
    }

    fn refresh_picker(&mut self) {
        for p in &mut self.popups {
            if let Popup::Editor(ed) = p {
                ed.refresh_options(&self.data_fields);
            }
        }
    }

    fn close_editor(&mut self) -> Vec<Command> {
        self.popups.pop();
        // An answer (or a 429 retry) still on its way is for a field no longer open.
        self.bump(Slot::Autocomplete);
        vec![Command::Abort(Slot::Autocomplete)]
    }

    fn editor_key(&mut self, k: KeyEvent) -> Vec<Command> {
        let text = self.opts.keymap.text_action(&k);
        let Some(Popup::Editor(ed)) = self.popups.last_mut() else {
            return vec![];
        };
        let leaf = ed.leaf;
        match ed.handle(k, text) {
            EditorEffect::Nothing => vec![],
            EditorEffect::Write(v) => {
                self.write_member(leaf, v);
                vec![]
            }
            EditorEffect::WriteAndClose(v) => {
                self.write_member(leaf, v);
                self.popups.pop();
                vec![]
            }
            EditorEffect::Added(v) => {
                self.write_member(leaf, v);
                vec![Command::Abort(Slot::Autocomplete)]
            }
            EditorEffect::Close => {
                self.popups.pop();
                vec![]
            }
            EditorEffect::CloseLookup => self.close_editor(),
            EditorEffect::KeepAndClose(v) => {
                self.write_member(leaf, v);
                self.close_editor()
            }
            EditorEffect::Typed { lookup } => {
                // Any lookup still on its way is for older text.
                let mut cmds = vec![Command::Abort(Slot::Autocomplete)];
                self.bump(Slot::Autocomplete);
                if lookup {
                    cmds.push(self.timer(TimerId::Debounce, DEBOUNCE));
                }
                cmds
            }
        }
    }

    fn find_key(&mut self, k: KeyEvent) -> Vec<Command> {
        let text = self.opts.keymap.text_action(&k);
        let Some(Popup::Find(p)) = self.popups.last_mut() else {
            return vec![];
        };
        match p.handle(k, text) {
            PickerEvent::Cancelled => {
                self.popups.pop();
            }
            PickerEvent::Picked(opt) => {
                self.popups.pop();
                if let Some(row) = opt.value.as_u64() {
                    self.form.sel = row as usize;
                    self.focus = Pane::Filters;
                    if let Some(FormRow::Leaf(leaf)) = self.form_rows().get(row as usize) {
                        if leaf.kind == schema::LeafKind::One(schema::SetId::Bool) {
                            return self.toggle_member(leaf);
                        }
                        self.open_editor(leaf);
                    }
                }
            }
            PickerEvent::Changed | PickerEvent::Nothing => {}
        }
        vec![]
    }

    /// Sets the member `leaf` of the form to `value`, or removes it (`None`).
    /// Every string is sanitized on the way in (suggestions carry the service's raw text), so
    /// the body, and the filter set saved from it, never hold control bytes.
    fn write_member(&mut self, leaf: &Leaf, value: Option<Value>) {
        match value {
            Some(mut v) => {
                crate::core::sanitize::sanitize_value(&mut v);
                schema::set(&mut self.form.body, leaf.path, v)
            }
            None => schema::remove(&mut self.form.body, leaf.path),
        }
    }

    /// The typing pause is over: look the editor's text up.
    fn start_autocomplete(&mut self) -> Vec<Command> {
        let kind = self.tab();
        let Some(Popup::Editor(ed)) = self.popups.last_mut() else {
            return vec![];
        };
        self.dirty = true;
        match ed.start_lookup(kind) {
            Some(req) => vec![self.call(Slot::Autocomplete, Call::Autocomplete(req))],
            None => vec![],
        }
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

// -------------------------------------------------------------------- data out (issue 9)

impl App {
    fn noun(kind: Kind) -> &'static str {
        match kind {
            Kind::Companies => "companies",
            Kind::People => "people",
        }
    }

    /// `Ctrl-e`: the export popup for the shown tab (nothing to export before a search).
    fn open_export(&mut self) -> Vec<Command> {
        if self.export_job.is_some() {
            return self.info("An export is already fetching its pages.");
        }
        let kind = self.tab();
        let s = self.search(kind);
        let fetched = self.results.fetched(kind).count();
        if fetched == 0 {
            let run = self.opts.keymap.keys_of(Action::Search);
            return self.info(&format!(
                "Nothing to export yet: run a search first ({run})."
            ));
        }
        let counts = ExportCounts {
            page: s.shown_len(),
            fetched,
            marked: self.results.marked(kind).len(),
            total: s.total,
        };
        let now = chrono::Local::now().naive_local();
        self.popups
            .push(Popup::Export(Box::new(ExportPopup::new(kind, counts, now))));
        vec![]
    }

    fn export_key(&mut self, k: KeyEvent) -> Vec<Command> {
        let text = self.opts.keymap.text_action(&k);
        let action = self.opts.keymap.action(&k);
        let Some(Popup::Export(p)) = self.popups.last_mut() else {
            return vec![];
        };
        match p.handle(k, text, action) {
            ExportEffect::Nothing => vec![],
            ExportEffect::Close => {
                self.popups.pop();
                vec![]
            }
            ExportEffect::Export(choice) => self.export(choice),
            ExportEffect::Confirmed => self.fetch_for_export(),
            ExportEffect::Declined => {
                self.export_job = None;
                self.info("Cancelled; nothing was fetched or spent.")
            }
            ExportEffect::Stop => {
                if let Some(job) = &mut self.export_job {
                    job.stopping = true;
                }
                if let Some(Popup::Export(p)) = self.popups.last_mut()
                    && let ExportStage::Fetching { stopping, .. } = &mut p.stage
                {
                    *stopping = true;
                }
                self.set_status(
                    "Stopping the export after the page on its way…",
                    StatusKind::Progress,
                );
                vec![]
            }
        }
    }

    /// Carries out a choice of the export popup: writes at once when the rows are loaded;
    /// for a first N beyond them, estimates the missing pages and asks (above
    /// `confirm_above`, per pool) before fetching them.
    fn export(&mut self, c: ExportChoice) -> Vec<Command> {
        let Some(Popup::Export(p)) = self.popups.last() else {
            return vec![];
        };
        let kind = p.kind;
        let s = self.search(kind);
        let fetched = self.results.fetched(kind).count();
        let rows: Vec<&super::msg::ResultRow> = match c.scope {
            ExportScope::Page => s.rows(),
            ExportScope::Fetched => self.results.fetched(kind).collect(),
            ExportScope::Marked => self.results.marked(kind),
            ExportScope::FirstN => {
                let exhausted = s.total.is_some_and(|t| fetched as u64 >= t)
                    || s.pages
                        .last()
                        .is_none_or(|p| p.rows.is_empty() || p.next.is_none());
                if fetched >= c.n || exhausted {
                    self.results.fetched(kind).take(c.n).collect()
                } else {
                    return self.plan_fetch(kind, c, fetched);
                }
            }
        };
        let records = super::components::export::records(kind, rows);
        self.write_export(kind, c.format, c.preset, c.path, records)
    }

    fn write_export(
        &mut self,
        kind: Kind,
        format: crate::core::export::Format,
        preset: Option<crate::core::crm::Preset>,
        path: PathBuf,
        records: super::msg::ExportRecords,
    ) -> Vec<Command> {
        if matches!(self.popups.last(), Some(Popup::Export(_))) {
            self.popups.pop();
        }
        self.set_status(
            &format!(
                "Writing {} {} to {}…",
                records.len(),
                Self::noun(kind),
                crate::core::sanitize::sanitize(&path.display().to_string())
            ),
            StatusKind::Progress,
        );
        vec![Command::Export(ExportFile {
            path,
            format,
            preset,
            records,
        })]
    }

    /// The first N need more pages: their estimate (per page at the request's size), asked
    /// above the threshold, else fetched at once.
    fn plan_fetch(&mut self, kind: Kind, c: ExportChoice, fetched: usize) -> Vec<Command> {
        let Some(request) = self.search(kind).request.clone() else {
            return self.info("Run a search first.");
        };
        let size = request.page_size() as usize;
        let pages = (c.n - fetched).div_ceil(size) as u64;
        let mut cost = crate::api::cost::Cost::ZERO;
        for _ in 0..pages {
            cost += request.estimate();
        }
        self.export_job = Some(ExportJob {
            kind,
            request,
            want: c.n,
            format: c.format,
            preset: c.preset,
            path: c.path,
            stopping: false,
        });
        if crate::core::spend::pools_above(&cost, self.opts.confirm_above).is_empty() {
            self.fetch_for_export()
        } else {
            if let Some(Popup::Export(p)) = self.popups.last_mut() {
                p.stage = ExportStage::Confirm { pages, cost };
            }
            vec![]
        }
    }

    /// Sends the next page the export job needs (its answer comes back in [`Slot::Export`]).
    fn fetch_for_export(&mut self) -> Vec<Command> {
        let Some(job) = self.export_job.clone() else {
            return vec![];
        };
        let s = self.search(job.kind);
        let got = self.results.fetched(job.kind).count();
        let cursor = s.pages.last().and_then(|p| p.next.clone());
        let page = s.pages.len() as u32;
        if let Some(Popup::Export(p)) = self.popups.last_mut() {
            p.stage = ExportStage::Fetching {
                got,
                want: job.want,
                stopping: false,
            };
        }
        let request = job.request.clone().with_search_after(cursor);
        if let Err(problems) = request.check() {
            self.export_job = None;
            self.popups.pop();
            return self.not_sent(&problems);
        }
        self.set_status(
            &format!(
                "Fetching {} for the export: {got} of {} rows · each page ≤ {}",
                Self::noun(job.kind),
                job.want,
                request.estimate()
            ),
            StatusKind::Progress,
        );
        vec![self.call(
            Slot::Export(job.kind),
            Call::Search {
                request,
                page,
                fresh: crate::core::session::Freshness::Stored,
            },
        )]
    }

    /// A page of the export job arrived (it was stored by the session): it joins its tab's
    /// pages; then the next page, or the file when there are enough rows (or no more).
    fn on_export_page(&mut self, result: Result<Outcome, ApiFailure>) -> Vec<Command> {
        let Some(job) = self.export_job.clone() else {
            return vec![];
        };
        let page = match result {
            Ok(Outcome::Page(page)) => page,
            Ok(_) => return vec![],
            Err(e) => {
                self.export_job = None;
                if matches!(self.popups.last(), Some(Popup::Export(_))) {
                    self.popups.pop();
                }
                self.error_popup(format!(
                    "The export stopped: {}. Nothing was written; the pages bought so far are kept.",
                    e.message
                ));
                return vec![];
            }
        };
        let s = self.search_mut(job.kind);
        let same = s.request.as_ref() == Some(&job.request);
        let n = page.rows.len();
        let more = page.search_after.is_some() && n > 0;
        if same {
            s.total = page.total.or(s.total);
            s.search_id = page.search_id.or(s.search_id);
            s.pages.push(Page {
                rows: page.rows,
                next: page.search_after,
                stored: false,
            });
        }
        let got = self.results.fetched(job.kind).count();
        let total_reached = self.search(job.kind).total.is_some_and(|t| got as u64 >= t);
        if !same {
            self.export_job = None;
            if matches!(self.popups.last(), Some(Popup::Export(_))) {
                self.popups.pop();
            }
            return self.info("The search changed; the export stopped and nothing was written.");
        }
        if job.stopping {
            self.export_job = None;
            if matches!(self.popups.last(), Some(Popup::Export(_))) {
                self.popups.pop();
            }
            return self.info(&format!(
                "Export stopped: {got} rows fetched (kept in the results and the store); nothing written."
            ));
        }
        if got >= job.want || !more || total_reached {
            self.export_job = None;
            let rows: Vec<&super::msg::ResultRow> =
                self.results.fetched(job.kind).take(job.want).collect();
            let records = super::components::export::records(job.kind, rows);
            return self.write_export(job.kind, job.format, job.preset, job.path, records);
        }
        self.fetch_for_export()
    }

    /// `f`: the facets of the shown tab's loaded rows.
    fn open_facets(&mut self) -> Vec<Command> {
        let kind = self.tab();
        if self.results.fetched(kind).next().is_none() {
            let run = self.opts.keymap.keys_of(Action::Search);
            return self.info(&format!(
                "No results loaded yet: run a search first ({run})."
            ));
        }
        let view = FacetsView::new(kind, self.results.fetched(kind), self.search(kind).total);
        self.popups.push(Popup::Facets(view));
        vec![]
    }

    /// `y`: in the details, the field at the top of the pane; elsewhere the selected row's
    /// name (its domain when it has no name).
    fn copy_field(&mut self) -> Vec<Command> {
        let kind = self.tab();
        let Some(row) = self.search(kind).selected() else {
            return self.info("Nothing selected to copy.");
        };
        let text = if self.focus == Pane::Details {
            super::components::details::field_at(row, self.details.scroll).map(|(_, v)| v)
        } else {
            row.cells
                .first()
                .filter(|c| !c.is_empty())
                .cloned()
                .or_else(|| row.cells.get(1).cloned())
        };
        match text.filter(|t| !t.is_empty()) {
            Some(t) => vec![Command::Copy(t)],
            None => self.info("That field is empty."),
        }
    }

    /// `Y`: the selected row's typed record as JSON.
    fn copy_row(&mut self) -> Vec<Command> {
        match self.search(self.tab()).selected() {
            Some(row) => vec![Command::Copy(super::components::export::row_json(row))],
            None => self.info("Nothing selected to copy."),
        }
    }

    /// `C`: the form's request as a curl command; the token is `$PROSPECT_API_TOKEN`.
    fn copy_curl(&mut self) -> Vec<Command> {
        let cmd = crate::core::curl::curl_command(
            self.base_url(),
            self.form.endpoint,
            &self.request_body(),
        );
        vec![Command::Copy(cmd)]
    }
}

// -------------------------------------------------------------------- back and undo (issue 8)

/// How many replaced searches `Back` can return to.
pub const BACK_LIMIT: usize = 20;

impl App {
    /// Keeps the form and the tab of `kind` before `P` / `L` replace them.
    fn push_back(&mut self, kind: Kind) {
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
    fn go_back(&mut self) -> Vec<Command> {
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
        self.details.scroll = 0;
        let n = self.search(b.shown).pages.len();
        self.info(&format!(
            "Back to the previous search ({n} page{} kept) · nothing spent",
            if n == 1 { "" } else { "s" }
        ))
    }

    /// `Undo`: the form before clear-all, or the filter set deleted last.
    fn undo(&mut self) -> Vec<Command> {
        match self.undo.take() {
            None => self.info("Nothing to undo."),
            Some(Undo::Form { endpoint, body }) => {
                self.form.load(endpoint, body);
                self.info("Restored the filter members")
            }
            Some(Undo::DeletedSet { name, set }) => {
                match crate::core::filter_set::save(&self.sets.dir, &name, &set) {
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

impl App {
    /// "Rows 26–50 of 39726" for the page shown in the tab of `kind` (paging through pages
    /// already fetched refreshes the status line instead of leaving an old range).
    fn rows_status(&mut self, kind: Kind) -> Vec<Command> {
        let s = self.search(kind);
        let n = s.shown_len();
        if n == 0 {
            self.status = None;
            return vec![];
        }
        let a = s.first_index();
        let text = match s.total {
            Some(t) => format!("Rows {a}–{} of {t}", a + n - 1),
            None => format!("Rows {a}–{}", a + n - 1),
        };
        self.info(&text)
    }
}

impl App {
    /// A start-up call refused for the token (missing or not registered): said once, plainly,
    /// in a popup with the fix, not only on the status line. `false` for other failures.
    fn token_rejected(&mut self, e: &ApiFailure) -> bool {
        if !matches!(
            e.error,
            Some(ApiError::UnknownToken | ApiError::MissingToken)
        ) {
            return false;
        }
        if matches!(self.status.as_ref(), Some(s) if s.text.starts_with("Token rejected")) {
            // The other start-up call said it already.
            self.balance_loading = false;
            return true;
        }
        if matches!(e.error, Some(ApiError::UnknownToken)) {
            self.gauge.on_balance_failed();
        }
        self.balance_loading = false;
        self.data_fields_state = Some(Err(e.message.clone()));
        self.error_popup(format!(
            "Token rejected by {}: check PROSPECT_API_TOKEN (or unset it to use the embedded sandbox).",
            crate::core::sanitize::sanitize(self.base_url())
        ));
        true
    }
}

impl App {
    /// The service's base URL: the one it started with, or, while a service still starting
    /// is loading, the address it got once known.
    pub fn base_url(&self) -> &str {
        self.connected
            .as_ref()
            .and_then(|c| c.get())
            .map_or(self.opts.base_url.as_str(), String::as_str)
    }
}
