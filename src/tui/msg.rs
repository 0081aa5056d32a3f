//! The one message enum the state owner consumes, and the commands it hands back to the loop.
use std::time::Duration;

use crossterm::event::KeyEvent;
use serde_json::Value;

use super::schema::{DataFields, Kind};
use crate::api::error::ApiError;
use crate::api::types::{Company, CreditBalance, Person, PersonCompany, Relevance};
use crate::core::request::{AutocompleteRequest, SearchRequest};
use crate::core::sanitize::sanitize;

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
    /// A timer set by [`Command::Timer`] fired.
    Timer(TimerId, u64),
    /// The terminal came back from a suspend (Ctrl-Z); everything must be redrawn.
    Resumed,
}

/// A place where at most one call runs at a time; a new call aborts the previous one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slot {
    /// The search of a results tab.
    Search(Kind),
    /// The autocomplete of the open editor.
    Autocomplete,
    /// `/v2/data-fields`.
    DataFields,
    /// `/v2/credits/balance`.
    Balance,
}

/// Named timers; setting one replaces its previous deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimerId {
    /// Autocomplete debounce (about 120 ms after the last keystroke).
    Debounce,
    /// Status message expiry.
    Status,
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
    /// The error's [`ApiError::user_message`], sanitized, and the error itself.
    fn from(e: ApiError) -> ApiFailure {
        ApiFailure {
            message: sanitize(&e.user_message()),
            error: Some(e),
        }
    }
}

/// What the loop should do for the state owner.
#[derive(Debug)]
pub enum Command {
    /// Spawn `call` in `slot` with generation `generation`, aborting what ran there before.
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
}

/// A request to the service, typed (the form's JSON body is read into its request type by
/// [`crate::core::request::build_search`] before it becomes a call).
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    /// `GET /v2/data-fields` (free; SPEC.md §4.8).
    DataFields,
    /// `GET /v2/credits/balance` (free; SPEC.md §4.9).
    Balance,
    /// One page of a search (SPEC.md §4.2, §4.3, §4.10): `size` and, past the first page,
    /// `searchAfter` are in the request.
    Search(SearchRequest),
    /// An autocomplete lookup (0.1 credit; SPEC.md §4.1, §4.10).
    Autocomplete(AutocompleteRequest),
}

/// A call's result, built from the typed response in the call's task (off the UI loop) and
/// ready for the state owner.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Reference data, flattened for the pickers (from `crate::api::types::DataFields`).
    DataFields(DataFields),
    /// The credit balance as received: a pool the answer left out is `None` (shown as unknown).
    Balance(CreditBalance),
    /// One page of a search, rows and cells built and sanitized.
    Page(PageData),
    /// Autocomplete suggestions `(label shown, value put into the request body)`.
    Suggestions(Vec<(String, Value)>),
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

impl Record {
    /// The company of a company result; `None` for a person.
    pub fn company(&self) -> Option<&Company> {
        match self {
            Record::Company { company, .. } => Some(company),
            Record::Person { .. } => None,
        }
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

/// A search page, built from a typed search response (`crate::core::request::SearchResponse`).
#[derive(Debug, Clone, Default)]
pub struct PageData {
    /// The rows.
    pub rows: Vec<ResultRow>,
    /// `total` of the response (negative values read as 0).
    pub total: Option<u64>,
    /// `searchAfter` cursor for the next page (`None` when absent or empty).
    pub search_after: Option<String>,
    /// Notes worth showing, sanitized: `domain: reason` for each of `missingDomains` and
    /// `includeDomainsStatuses` (lookalike / included domains the service could not use).
    pub notes: Vec<String>,
    /// `creditsUsed` (0 when the service does not report it).
    pub credits_used: f64,
}
