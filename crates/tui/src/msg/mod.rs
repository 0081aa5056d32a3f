//! The one message enum the state owner consumes, and the commands it hands back to the loop.
use std::collections::HashMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use crossterm::event::KeyEvent;
use serde_json::Value;

use super::schema::{DataFields, SearchSubject};
use prospect_api::client::Endpoint;
use prospect_api::cost::Cost;
use prospect_api::error::ApiError;
use prospect_api::types::WarmupCompaniesResponse;
use prospect_api::types::{Company, CreditBalance, Person, PersonCompany, Relevance};
use prospect_common::ContactKind;
use prospect_common::sanitize::sanitize;
use prospect_core::owned::{Contact, SearchId};
use prospect_core::request::{AutocompleteRequest, SearchRequest};
use prospect_core::session::Freshness;
use prospect_core::spend::Estimate;
use prospect_core::webhooks::Delivery;

mod paid;

pub use paid::*;

/// Everything that can change the explorer's state. The event loop turns terminal events,
/// task results and timer expiries into `Msg`s and feeds them to [`super::app::App::update`].
// A message is moved once from a task to the loop; boxing the large outcome would only add an
// allocation per message.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Msg {
    /// A key press.
    Key(KeyEvent),
    /// Pasted text (bracketed paste); goes to the focused text field, if any.
    Paste(String),
    /// The terminal was resized to (columns, rows).
    Resize(u16, u16),
    /// A click, a drag or the wheel (when the mouse is on).
    Mouse(crossterm::event::MouseEvent),
    /// A background call finished. `generation` is the generation it was started with; results of
    /// an older generation than the slot's current one are dropped.
    Done {
        /// Which slot the call ran in.
        slot: Slot,
        /// Generation at spawn time.
        generation: u64,
        /// The outcome, already parsed off the UI loop.
        result: Result<Outcome, ApiFailure>,
    },
    /// Part of the answer of a call still running (the pages of an export as each is kept):
    /// dropped, as its [`Msg::Done`] would be, when the slot has moved to a newer generation.
    Progress {
        /// Which slot the call runs in.
        slot: Slot,
        /// Generation at spawn time.
        generation: u64,
        /// What came so far.
        outcome: Box<Outcome>,
    },
    /// A timer set by [`Command::Timer`] fired.
    Timer(TimerId, u64),
    /// The terminal came back from a suspend (Ctrl-Z); everything must be redrawn.
    Resumed,
    /// A webhook delivery the receiver accepted and stored before its 200 (typed body,
    /// SPEC.md §6); `new` is `false` for a retried delivery (it changes nothing).
    Webhook(Box<Delivery>),
    /// A [`Command::Copy`] was carried out: `Ok("312 bytes (OSC 52)")` says how much went
    /// where, `Err` why nothing could be copied (plain words).
    Copied(Result<String, String>),
    /// A [`Command::Export`] finished: the file written and its record count, or why not
    /// (plain words; the target file is then untouched).
    Exported(Result<Exported, String>),
}

/// A written export file.
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    /// Where it was written.
    pub path: std::path::PathBuf,
    /// Records written (one CSV row or JSON line each).
    pub count: usize,
    /// What a CRM layout left out (people without an allowed email, duplicates), in words.
    pub detail: Option<String>,
}

/// Records to write to an export file, typed as `core::export` writes them.
#[derive(Debug, Clone)]
pub enum ExportRecords {
    /// Companies with their relevance (v3) or score (v2).
    Companies(Vec<prospect_core::export::CompanyOut>),
    /// People with their employer summary and relevance (v3).
    People(Vec<prospect_api::types::LookalikePerson>),
}

impl ExportRecords {
    /// How many records.
    pub fn len(&self) -> usize {
        match self {
            ExportRecords::Companies(v) => v.len(),
            ExportRecords::People(v) => v.len(),
        }
    }

    /// `true` when there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An export to write off the UI loop ([`Command::Export`]).
#[derive(Debug, Clone)]
pub struct ExportFile {
    /// The target file (replaced atomically).
    pub path: std::path::PathBuf,
    /// CSV (header, flattened, lists joined with `;`) or JSONL (one full record a line).
    pub format: prospect_core::export::Format,
    /// A CRM layout of the CSV ([`prospect_core::crm`]); `None` for prospect's own columns.
    pub preset: Option<prospect_core::crm::Preset>,
    /// The records.
    pub records: ExportRecords,
}

/// A place where the newest call's answer is the one shown: each call gets the slot's next
/// generation and older answers are dropped. A new free call (or autocomplete) aborts the
/// previous one in its slot; a paid search is a job that is never aborted once sent (its answer
/// is stored and charged even when nobody shows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slot {
    /// The search of a results tab (paid pages, and stored searches reopened into the tab).
    Search(SearchSubject),
    /// The search history listed by the history popup (free: read from the store).
    History,
    /// The autocomplete of the open editor.
    Autocomplete,
    /// `/v2/data-fields`.
    DataFields,
    /// `/v2/credits/balance`.
    Balance,
    /// The export of the first N results of a tab's search: its plan (free), then its run
    /// through the engine's one door (paid, a job; its pages come as [`Msg::Progress`]; stopping
    /// it keeps the page on its way and sends no more).
    Export(SearchSubject),
    /// A job by id — a paid action (reveal, enrich, lookup) or a warmup — listed in the
    /// activity pane; never superseded by another.
    Job(u64),
    /// The store check and estimate before a paid action (free; a new one supersedes).
    Prepare,
    /// The unfinished jobs of earlier runs, read at start.
    OpenJobs,
    /// Writes to the named lists (free: the store).
    Lists,
    /// The lists and suppression categories listed by the lists popup (free: the store).
    ListsView,
    /// The store's last purchases with who bought them, listed by the activity pane (free:
    /// the store).
    Purchases,
    /// The Segments view's reads: the store's segmentations, one from the service (free); a
    /// new one supersedes.
    Segments,
    /// An attribution or a mark of the Segments view (free: the service).
    SegmentWork,
    /// The runs of saved filter sets, for the chooser and the open set (free: the store).
    SetRuns,
}

/// How many of the store's last purchases and deliveries the activity pane lists.
pub const PURCHASES_SHOWN: usize = 20;

/// Named timers; setting one replaces its previous deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimerId {
    /// Autocomplete debounce (about 120 ms after the last keystroke).
    Debounce,
    /// Status message expiry.
    Status,
    /// One second of a 429 countdown ("rate limited; retrying in 12 s").
    RateLimit,
    /// The next try of a pending enrich job (by job id), with backoff.
    Retry(u64),
    /// A reveal job (by id) has waited [`crate::app::REVEAL_PATIENCE`] for its webhook
    /// deliveries: what has not arrived by then is reported as overdue.
    RevealDeadline(u64),
    /// One second while the activity pane is open (its "time since" column).
    Activity,
    /// The next read of a segmentation in progress shown by the Segments view.
    Segmentation,
    /// The next read of the lists and suppression counts while the lists popup is open (a
    /// `prospect suppress import` or `list add` run meanwhile shows without reopening it).
    Lists,
}

/// What an answer cost and whether its call reached the service, for the credit gauge.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Charge {
    /// Credits charged per pool (zero when answered from the store or from memory).
    pub cost: Cost,
    /// Requests that reached the service (they count against the daily allowance).
    pub requests: u32,
}

/// A failed call: the plain words for the status line and, when the client produced it, the
/// typed error (SPEC.md §7 variants), so the UI can react to what happened (a 429 countdown,
/// a 402 that names the pool).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiFailure {
    /// The message shown to the user, sanitized; never holds the token. E.g. "Insufficient
    /// email credits".
    pub message: String,
    /// The client's error; `None` for failures outside the client (e.g. a panic in the task).
    pub error: Option<ApiError>,
}

impl ApiFailure {
    /// A failure that did not come from the client: `message` only (sanitized here).
    pub fn other(message: &str) -> ApiFailure {
        ApiFailure {
            message: sanitize(message),
            error: None,
        }
    }
}

impl From<ApiError> for ApiFailure {
    /// The error's [`ApiError::user_message`] in plain words, sanitized, and the error itself.
    /// Transport and decoding failures are not shown as their technical text (that goes to the
    /// log): "Cannot reach the service", "The service's answer could not be read".
    fn from(e: ApiError) -> ApiFailure {
        let message = match &e {
            ApiError::Network(m) => {
                tracing::warn!(error = %m, "network error");
                "Cannot reach the service (network error; details in the log)".to_string()
            }
            ApiError::Decode { .. } => {
                tracing::warn!(error = ?e, "answer not readable");
                "The service's answer could not be read (details in the log)".to_string()
            }
            other => other.user_message(),
        };
        ApiFailure {
            message: sanitize(&message),
            error: Some(e),
        }
    }
}

/// What the loop should do for the state owner.
#[derive(Debug)]
pub enum Command {
    /// Spawn `call` in `slot` with generation `generation`. A free call aborts what ran there
    /// before; a paid call ([`Call::is_paid_job`]) runs as a job that is never aborted.
    Call {
        /// The slot.
        slot: Slot,
        /// Generation to tag the result with.
        generation: u64,
        /// The request.
        call: Call,
    },
    /// Abort whatever runs in the slot.
    Abort(Slot),
    /// Deliver `Msg::Timer(id, generation)` after `after`, replacing a pending timer of that id.
    Timer {
        /// Which timer.
        id: TimerId,
        /// Delay.
        after: Duration,
        /// Generation echoed back.
        generation: u64,
    },
    /// Leave the loop and restore the terminal.
    Quit,
    /// Restore the terminal, stop the process (SIGTSTP), re-initialize on resume.
    Suspend,
    /// Put this text on the clipboard: OSC 52 written through the terminal between frames
    /// (never inside one), and the system clipboard where there is one. Answered with
    /// [`Msg::Copied`].
    Copy(String),
    /// Write an export file off the UI loop (atomically, through `core::export::Writer`).
    /// Answered with [`Msg::Exported`].
    Export(ExportFile),
}

/// A request to the service, typed (the form's JSON body is read into its request type by
/// [`prospect_core::request::build_search`] before it becomes a call).
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    /// `GET /v2/data-fields` (free; SPEC.md §4.8).
    DataFields,
    /// `GET /v2/credits/balance` (free; SPEC.md §4.9).
    Balance,
    /// One page of a search (SPEC.md §4.2, §4.3, §4.10), paid and stored by the session with
    /// its history row: `size` and, past the first page, `searchAfter` are in the request.
    Search {
        /// The request of this page.
        request: SearchRequest,
        /// 0-based page number (the history keeps one row per page).
        page: u32,
        /// [`Freshness::Stored`]: a page bought within `search_fresh_for` is read from the
        /// store at 0 credits; [`Freshness::Refresh`] (the refresh key) buys it again.
        fresh: prospect_core::session::Freshness,
        /// The saved filter set this search runs, and when its run started (issue 37).
        set: Option<SetRunOf>,
    },
    /// An autocomplete lookup (0.1 credit; SPEC.md §4.1, §4.10; free when the session
    /// remembers the same request).
    Autocomplete(AutocompleteRequest),
    /// The stored searches of this target, most recent first (free: the store).
    History,
    /// The paid actions an earlier run left unfinished (interrupted by a kill, a crash or a
    /// signal, or failed), newest first (free: the store).
    OpenJobs,
    /// Reads a stored search back, pages and all (free: the store).
    Reopen(SearchId),
    /// The lists with their member counts and the suppression categories with theirs (free:
    /// the store; [`Outcome::Lists`]).
    Lists,
    /// The store's last [`PURCHASES_SHOWN`] spends, newest first, with who bought each (free:
    /// the store; [`Outcome::Purchases`]; issue 17: a team store shows every member's).
    Purchases,
    /// Reads a list back with its members' joined data and the plan for the rest (free: the
    /// store and the spend engine's plan; [`Outcome::ListOpened`]).
    OpenList(String),
    /// Adds members to a named list, created when missing (free: the store;
    /// [`Outcome::ListAdded`]).
    AddToList {
        /// The list.
        name: String,
        /// Accounts (domains) or contacts (person ids).
        kind: prospect_core::owned::ListKind,
        /// The members: domains or person ids.
        keys: Vec<String>,
    },
    /// Reads the store and estimates a paid action before it is sent (free): what the store
    /// answers at 0 credits and what the rest may cost per pool ([`Outcome::Prepared`]). A
    /// lookup's `file` is read here, off the UI loop.
    Prepare {
        /// The ask.
        ask: Ask,
        /// Whether the store may answer.
        fresh: Freshness,
    },
    /// Plans one page of a search before it is sent (free: the store; the spend engine's
    /// [`prospect_core::engine::plan_page`]): owned at 0 credits when a fresh stored page answers
    /// it, else one request at most its estimate, with the budget checked
    /// ([`Outcome::PagePlanned`]).
    PlanPage {
        /// The page's request (cursor and size included).
        request: SearchRequest,
        /// Whether the store may answer.
        fresh: Freshness,
        /// The saved filter set it runs: new-only plans its excludes (issue 37).
        set: Option<prospect_core::engine::SetSearch>,
    },
    /// The runs of saved filter sets, newest first, at most 20 a set (free: the store).
    SetRuns(Vec<String>),
    /// Runs a paid action through the engine's one door as a job that is never aborted once
    /// sent; its answer is kept before it comes back ([`Outcome::Ran`]).
    Run {
        /// The ask (keys resolved by its [`Call::Prepare`]).
        ask: Ask,
        /// The plan confirmed; `None` (a retry) plans it again first.
        plan: Option<Box<prospect_core::engine::Plan>>,
        /// Whether the store may answer.
        fresh: Freshness,
    },
    /// `POST /v2/warmup/companies` for these domains, in requests of at most 500 (free).
    Warmup(Vec<String>),
    /// The segmentations the store holds of this service, newest first (free: the store;
    /// [`Outcome::Segmentations`]); `focus` is shown first.
    Segmentations {
        /// The segmentation to show, when one was just bought.
        focus: Option<i64>,
    },
    /// `GET /v2/segmentation/{id}` (free; kept in the store; [`Outcome::Segmentation`]).
    Segmentation(i64),
    /// Attributes `domains` to segmentation `id`'s segments (free; [`Outcome::Attributed`]).
    Attribute {
        /// The segmentation.
        id: i64,
        /// The loaded companies' domains.
        domains: Vec<String>,
    },
    /// Marks `domains` a good or poor fit of segmentation `id` (free; [`Outcome::Marked`]).
    MarkFit {
        /// The segmentation.
        id: i64,
        /// Good (`positive`) or poor (`negative`).
        kind: prospect_api::types::MarkType,
        /// The companies' domains.
        domains: Vec<String>,
    },
    /// Plans the export of the first N of a search (free: the store; the spend engine's
    /// [`prospect_core::engine::plan`]): what the store owns, what is to buy, the requests and
    /// the budget check ([`Outcome::ExportPlanned`]).
    PlanExport {
        /// The search of the first N ([`prospect_core::engine::Action::search`]).
        action: Box<prospect_core::engine::Action>,
    },
    /// Runs the export's search through the engine's one door ([`prospect_core::engine::run`]):
    /// recorded as a job with the file a resume writes, its stored pages read and the rest
    /// bought and kept; each page past the first `have` results (those its tab shows) comes as
    /// [`Msg::Progress`] ([`Outcome::Page`]), the end as [`Outcome::ExportRan`].
    ExportRun {
        /// The search of the first N.
        action: Box<prospect_core::engine::Action>,
        /// Its confirmed plan, with its words in `prospect jobs` and the output a resume writes
        /// (`format`, `out`) as its job options.
        plan: Box<prospect_core::engine::Plan>,
        /// The tab's first request (its page size): the search's paging after the run.
        first: SearchRequest,
        /// Results the tab shows already (not handed on again).
        have: u64,
        /// Stops the run after the page on its way (kept).
        stop: Stop,
    },
}

/// A stop signal carried in a call ([`Call::ExportRun`]): cancelled by the state owner, seen by
/// the engine's run. Two stops compare equal: the signal is not part of what is asked.
#[derive(Debug, Clone, Default)]
pub struct Stop(pub tokio_util::sync::CancellationToken);

impl PartialEq for Stop {
    fn eq(&self, _: &Stop) -> bool {
        true
    }
}

/// How an export's run ended ([`Call::ExportRun`]).
#[derive(Debug, Clone)]
pub struct ExportRan {
    /// The job it ran as (`prospect resume ID`), when the store could record one.
    pub job: Option<prospect_core::owned::JobId>,
    /// The search's paging after the run: `n` continues after its last page.
    pub paging: prospect_core::engine::PagedSearch,
    /// Stopped before the end (the stop, or the search ended at a cursor that did not
    /// advance is not a stop).
    pub stopped: bool,
    /// Why it stopped early, in plain words (the pages before are kept).
    pub error: Option<String>,
    /// What it cost, and the requests it sent.
    pub charge: Charge,
    /// What did not go as it should and was kept all the same, in plain words: answers the
    /// store could not write (in a recovery file), answers read in part, records unread.
    pub warnings: Vec<String>,
}

impl Call {
    /// `true` for a free read of the store (open jobs, history, lists, purchases, a stored
    /// search or list reopened), answered without the service.
    pub fn reads_the_store(&self) -> bool {
        matches!(
            self,
            Call::OpenJobs
                | Call::History
                | Call::SetRuns(_)
                | Call::AddToList { .. }
                | Call::Purchases
                | Call::Lists
                | Call::OpenList(_)
                | Call::Reopen(_)
        )
    }

    /// `true` for a call that must never be aborted once sent: a paid call (a search page, a
    /// paid action), whose answer is stored and charged even when the explorer no longer
    /// wants it, and the record of a job around paid calls.
    pub fn is_paid_job(&self) -> bool {
        matches!(
            self,
            Call::Search { .. } | Call::Run { .. } | Call::ExportRun { .. }
        )
    }
}

/// A call's result, built from the typed response in the call's task (off the UI loop) and
/// ready for the state owner.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// The runs of the sets asked ([`Call::SetRuns`]), newest first.
    SetRuns(Vec<prospect_core::owned::SetRun>),
    /// The store's segmentations ([`Call::Segmentations`]) and the one to show.
    Segmentations {
        /// Newest first.
        rows: Vec<prospect_core::owned::SegmentationRow>,
        /// The one to show first.
        focus: Option<i64>,
    },
    /// A segmentation read from the service, sanitized ([`Call::Segmentation`]).
    Segmentation(Box<prospect_api::types::Segmentation>),
    /// An attribution ([`Call::Attribute`]): one result per domain, in order.
    Attributed {
        /// The segmentation.
        id: i64,
        /// The results.
        results: Vec<prospect_api::types::AttributedDomain>,
    },
    /// The plan of an export's first N ([`Call::PlanExport`]).
    ExportPlanned(Box<prospect_core::engine::Plan>),
    /// An export's run ended ([`Call::ExportRun`]).
    ExportRan(Box<ExportRan>),
    /// Domains marked ([`Call::MarkFit`]).
    Marked {
        /// Good or poor fit.
        kind: prospect_api::types::MarkType,
        /// How many.
        count: usize,
    },
    /// Reference data, flattened for the pickers (from `prospect_api::types::DataFields`).
    DataFields(DataFields),
    /// The credit balance as received: a pool the answer left out is `None` (shown as unknown).
    Balance(CreditBalance),
    /// One page of a search, rows and cells built and sanitized.
    Page(PageData),
    /// Autocomplete suggestions `(label shown, value put into the request body)` and what
    /// the lookup cost.
    Suggestions {
        /// The suggestions, sanitized.
        list: Vec<(String, Value)>,
        /// Its charge (zero when the session answered from memory).
        charge: Charge,
    },
    /// The stored searches, most recent first.
    History(Vec<HistoryEntry>),
    /// A stored search read back at no cost.
    Reopened(Reopened),
    /// A paid action checked against the store and estimated (nothing spent yet).
    Prepared(Box<Prepared>),
    /// A search page planned (nothing spent yet).
    PagePlanned(Box<prospect_core::engine::Plan>),
    /// A paid action's answer, stored by the session before it came back.
    Ran(Ran),
    /// What a warmup did (free).
    Warmed(WarmupCompaniesResponse),
    /// The unfinished paid actions of earlier runs ([`Call::OpenJobs`]).
    OpenJobs(Vec<OpenJob>),
    /// The store's last spends ([`Call::Purchases`]).
    Purchases(Vec<prospect_core::owned::Spend>),
    /// The lists and the suppression categories ([`Call::Lists`]).
    Lists {
        /// Every list, by name.
        lists: Vec<prospect_core::owned::ListSummary>,
        /// Every suppression category with its counts.
        suppression: Vec<prospect_core::suppress::CategoryRow>,
    },
    /// A list read back ([`Call::OpenList`]).
    ListOpened(Box<OpenedList>),
    /// Members added to a list ([`Call::AddToList`]).
    ListAdded {
        /// The list.
        name: String,
        /// New members.
        added: usize,
        /// Members it had already.
        had: usize,
        /// Its members now.
        members: u64,
    },
}

/// A paid action an earlier run left unfinished, as the activity pane lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenJob {
    /// The store's job id (`prospect resume ID`).
    pub id: i64,
    /// What it did, in words (its plan's), sanitized.
    pub what: String,
    /// Interrupted or failed.
    pub state: prospect_core::owned::JobStatus,
    /// Why it stopped, sanitized.
    pub detail: String,
    /// Items it kept before it stopped.
    pub bought: i64,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

impl Outcome {
    /// The charge the outcome carries (pages and suggestions); zero for free reads.
    pub fn charge(&self) -> Charge {
        match self {
            Outcome::Page(p) => p.charge,
            Outcome::Suggestions { charge, .. } => *charge,
            Outcome::Ran(r) => r.charge,
            Outcome::ExportRan(r) => r.charge,
            Outcome::Warmed(_) => Charge {
                cost: Cost::ZERO,
                requests: 1,
            },
            _ => Charge::default(),
        }
    }
}

/// One line of the history popup: a stored search.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryEntry {
    /// Its history id.
    pub id: SearchId,
    /// Its endpoint (one of the four list searches).
    pub endpoint: Endpoint,
    /// A short summary of its filters, sanitized, e.g. `keywords.anyOf: software · size…`.
    pub summary: String,
    /// Pages kept in the store.
    pub pages: u32,
    /// `total` of the most recently fetched page.
    pub total: Option<i64>,
    /// How long ago it was last run, as of the listing.
    pub age: chrono::Duration,
}

/// A list read back into a results tab: its members as rows (joined data, built off the UI
/// loop) and the plan for buying the rest.
#[derive(Debug, Clone)]
pub struct OpenedList {
    /// The list's name.
    pub name: String,
    /// Accounts (the companies tab) or contacts (the people tab).
    pub kind: prospect_core::owned::ListKind,
    /// One row per member, in the order they were added.
    pub rows: Vec<ResultRow>,
    /// Members the store holds data of (a stored company, a stored person).
    pub known: usize,
    /// Members with a revealed email or phone (contact lists).
    pub revealed: usize,
    /// The spend engine's plan for the rest, in one line ([`prospect_core::engine::Plan::summary`]),
    /// or why it could not be made.
    pub rest: Result<String, String>,
}

/// A stored search read back: its request, its pages (rows built off the UI loop) and age.
#[derive(Debug, Clone)]
pub struct Reopened {
    /// Its history id.
    pub id: SearchId,
    /// The request of its first page (no `searchAfter`).
    pub request: SearchRequest,
    /// The first request body, without `searchAfter`, for the form.
    pub body: Value,
    /// The pages from page 0 on.
    pub pages: Vec<PageData>,
    /// Age of its most recently fetched page, as of the reading.
    pub age: chrono::Duration,
    /// Records left out because they are suppressed now, in words (issue 38).
    pub suppressed: Option<String>,
}

/// A record of a results table, as the search returned it (SPEC.md §2.1, §2.3; openapi
/// `PublicCompanyWithRelevance`, `PublicCompanyWithScore`, `LookalikePerson`, `PublicPerson`).
// Records are built once per page, in the call's task, and then stay in their page's `Vec`;
// boxing the company would add an allocation per row to save space only on people pages.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    /// A company result: v3 carries a `relevance` (A/B/C), v2 a `score` (0..=1).
    Company {
        /// The company record.
        company: Company,
        /// v3 relevance category.
        relevance: Option<Relevance>,
        /// v2 lookalike score.
        score: Option<f64>,
    },
    /// A person result: v3 carries the employer summary and a relevance, v2 neither.
    Person {
        /// The person record.
        person: Person,
        /// v3 employer summary.
        company: Option<PersonCompany>,
        /// v3 relevance category.
        relevance: Option<Relevance>,
    },
}

impl From<prospect_core::export::SearchItem> for Record {
    fn from(item: prospect_core::export::SearchItem) -> Record {
        match item {
            prospect_core::export::SearchItem::Company(c) => Record::Company {
                company: c.company,
                relevance: c.relevance,
                score: c.score,
            },
            prospect_core::export::SearchItem::Person(p) => Record::Person {
                person: p.person,
                company: p.company,
                relevance: p.relevance,
            },
        }
    }
}

impl Record {
    /// The company of a company result; `None` for a person.
    pub fn company(&self) -> Option<&Company> {
        match self {
            Record::Company { company, .. } => Some(company),
            Record::Person { .. } => None,
        }
    }

    /// The person of a person result; `None` for a company.
    pub fn person(&self) -> Option<&Person> {
        match self {
            Record::Person { person, .. } => Some(person),
            Record::Company { .. } => None,
        }
    }

    /// What marks and actions know a row by: the person id, or the company domain
    /// (normalized: lowercase, no `www.`); `""` when the record has neither.
    pub fn key(&self) -> String {
        match self {
            Record::Person { person, .. } => person.id.trim().to_string(),
            Record::Company { company, .. } => {
                prospect_common::keys::normalize_domain(&company.domain)
            }
        }
    }

    /// The domain of the row: the company's, or the person's employer's; `None` when empty.
    pub fn domain(&self) -> Option<&str> {
        let d = match self {
            Record::Person { person, .. } => person.domain.trim(),
            Record::Company { company, .. } => company.domain.trim(),
        };
        (!d.is_empty()).then_some(d)
    }
}

/// One row of a results table: sanitized cells for the key columns, and the whole record
/// (for details and the actions on the selected row).
#[derive(Debug, Clone)]
pub struct ResultRow {
    /// Cell texts, sanitized, one per column of the tab.
    pub cells: Vec<String>,
    /// The typed record.
    pub record: Record,
}

/// A search page, built from a typed search response (`prospect_core::request::SearchResponse`).
#[derive(Debug, Clone, Default)]
pub struct PageData {
    /// The rows.
    pub rows: Vec<ResultRow>,
    /// `total` of the response (negative values read as 0).
    pub total: Option<u64>,
    /// How the page ended, for the search's paging (read by the core from the answer).
    pub end: prospect_core::engine::PageEnd,
    /// Notes worth showing, sanitized: `domain: reason` for each of `missingDomains` and
    /// `includeDomainsStatuses` (lookalike / included domains the service could not use).
    pub notes: Vec<String>,
    /// `creditsUsed` (0 when the service does not report it).
    pub credits_used: f64,
    /// What the page cost (zero when read from the store).
    pub charge: Charge,
    /// When it was bought, for a page read back from the store; `None` for a fresh answer.
    pub stored_at: Option<DateTime<Utc>>,
    /// The history row the page was recorded under (`None` if it could not be stored).
    pub search_id: Option<SearchId>,
    /// When the paid page did not read whole (issue 34): where it stopped, in words. Its rows
    /// are those that read; it is not kept as a page of its search, so it is bought again.
    pub unread: Option<String>,
    /// Why a paid page could not be stored, if it could not (it is shown all the same).
    pub store_error: Option<String>,
    /// What suppression excluded from the page, e.g. `5 suppressed (customers)`.
    pub suppressed: Option<String>,
    /// For a page of a saved set's run: what is new to the set (issue 37).
    pub set: Option<SetPageFacts>,
}

/// The run of a saved filter set a search belongs to (issue 37): the set, and when the run
/// started (its pages exclude what the set owned then).
#[derive(Debug, Clone, PartialEq)]
pub struct SetRunOf {
    /// The set, new-only or not.
    pub set: prospect_core::engine::SetSearch,
    /// When the run's first page was asked.
    pub run_at: DateTime<Utc>,
}

/// What a page of a set's run brought the set ([`prospect_core::engine::SetFacts`]), in words.
#[derive(Debug, Clone, Default)]
pub struct SetPageFacts {
    /// Keys ([`Record::key`]) of its records new to the set.
    pub new_keys: std::collections::HashSet<String>,
    /// What new-only excluded, in words (`excluding 1,086 owned (from 3 earlier runs)`).
    pub new_only: Option<String>,
    /// Owned records bought again past the excludes cap (left out).
    pub paid_again: u64,
}
