//! The one message enum the state owner consumes, and the commands it hands back to the loop.
use std::time::Duration;

use crossterm::event::KeyEvent;
use serde_json::Value;

use super::schema::{AcKind, DataFields, Endpoint, Kind};

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

/// A failed call, in plain words for the status line (e.g. "Insufficient email credits").
#[derive(Debug, Clone, PartialEq)]
pub struct ApiFailure {
    /// The message shown to the user; never holds the token.
    pub message: String,
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

/// A request to the service.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    /// `GET /v2/data-fields` (free).
    DataFields,
    /// `GET /v2/credits/balance` (free).
    Balance,
    /// A search page: the body includes `size` and, past the first page, `searchAfter`.
    Search {
        /// Which search endpoint.
        endpoint: Endpoint,
        /// The request body.
        body: Value,
    },
    /// An autocomplete lookup (0.1 credit).
    Autocomplete {
        /// Which autocomplete endpoint.
        kind: AcKind,
        /// The request body.
        body: Value,
    },
}

/// A parsed result, ready for the state owner.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Reference data.
    DataFields(DataFields),
    /// Credit balance.
    Balance(Balance),
    /// One page of a search.
    Page(PageData),
    /// Autocomplete suggestions `(label, value)`.
    Suggestions(Vec<(String, Value)>),
}

/// One pool of credits (SPEC.md §2.9).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pool {
    /// One-time part.
    pub one_time: f64,
    /// Recurrent part.
    pub recurrent: f64,
}

/// The credit balance (SPEC.md §2.9; numbers per NOTES.md).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Balance {
    /// Standard credits.
    pub credits: Pool,
    /// Email credits.
    pub email: Pool,
    /// Phone credits.
    pub phone: Pool,
    /// Requests left today.
    pub daily_left: Option<i64>,
    /// Seconds until the daily allowance resets, as of the fetch.
    pub reset_secs: Option<i64>,
}

impl Balance {
    /// Reads a balance response tolerantly (missing pools are zero).
    pub fn from_json(v: &Value) -> Balance {
        let pool = |k: &str| Pool {
            one_time: v
                .get(k)
                .and_then(|p| p.get("oneTime"))
                .and_then(Value::as_f64)
                .unwrap_or(0.0),
            recurrent: v
                .get(k)
                .and_then(|p| p.get("recurrent"))
                .and_then(Value::as_f64)
                .unwrap_or(0.0),
        };
        let int = |k: &str| {
            v.get(k)
                .and_then(|n| n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)))
        };
        Balance {
            credits: pool("credits"),
            email: pool("emailCredits"),
            phone: pool("phoneCredits"),
            daily_left: int("dailyLimitRateLeft"),
            reset_secs: int("dailyLimitRateSecondsToReset"),
        }
    }
}

/// One row of a results table: sanitized cells for the key columns, and the whole record
/// (for details).
#[derive(Debug, Clone)]
pub struct ResultRow {
    /// Cell texts, sanitized, one per column of the tab.
    pub cells: Vec<String>,
    /// The record as received (company items keep `{company, relevance|score}`).
    pub record: Value,
}

/// A search page as received.
#[derive(Debug, Clone, Default)]
pub struct PageData {
    /// The rows.
    pub rows: Vec<ResultRow>,
    /// `total` of the response.
    pub total: Option<u64>,
    /// `searchAfter` cursor for the next page.
    pub search_after: Option<String>,
    /// Notes worth showing (e.g. lookalike domains the service does not know), sanitized.
    pub notes: Vec<String>,
    /// `creditsUsed`, when the service reports it.
    pub credits_used: Option<f64>,
}
