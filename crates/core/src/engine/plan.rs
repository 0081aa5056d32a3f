//! The plan of a paid action: what it will do and cost before anything paid is sent, and why
//! it is refused.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::keys::KeyError;
use super::policy::looked_at;
use crate::spend::describe_pools;
use prospect_api::cost::Cost;

/// What a paid action will do and cost, computed before anything paid is sent: the one value
/// the explorer's confirm popup, its status line and the CLI's `--dry-run` show.
///
/// Stored with its job as JSON ([`prospect_store::JobRow::plan`]); read back with
/// [`Plan::of_job`] (members a plan of an older prospect lacks take their defaults).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Plan {
    /// The action in words, e.g. `lookup of 2,000 domains`.
    pub action: String,
    /// The job kind ([`Action::kind`]).
    pub kind: String,
    /// Items asked: distinct keys, or results for a search.
    pub asked: u64,
    /// Items the store already owns (0 credits).
    pub owned: u64,
    /// When the oldest owned item was bought.
    pub owned_oldest: Option<DateTime<Utc>>,
    /// Items under way elsewhere (a reveal awaiting its webhook): not sent again.
    pub pending: u64,
    /// Items suppressed (issue 16): excluded from a search by the API's exclude filters, or
    /// refused before sending.
    pub suppressed: u64,
    /// [`Plan::suppressed`] by category (`customers`, `open-deals`, …).
    pub suppressed_by: std::collections::BTreeMap<String, u64>,
    /// What a new-only search of a saved filter set excludes, and what it may pay for again
    /// (issue 37); `None` for any other action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_only: Option<super::NewOnly>,
    /// Keys refused before sending (not a domain, empty), with the first few.
    pub refused: u64,
    /// Up to 5 refused keys, as given.
    pub refused_examples: Vec<String>,
    /// Items to buy.
    pub to_buy: u64,
    /// The most the items to buy can cost, per pool.
    pub cost: Cost,
    /// Requests it takes.
    pub requests: u32,
    /// The per-minute allowance it is paced to.
    pub rate_per_minute: Option<u32>,
    /// Requests left today (from the credit balance), when known.
    pub daily_left: Option<i64>,
    /// Seconds the requests take at that pace (not counting the answers' own time).
    pub eta_seconds: u64,
    /// Why it may not run (over a daily budget, or over the daily request allowance); `None`
    /// when it may.
    pub refusal: Option<String>,
    /// What kind of refusal [`Plan::refusal`] is (a front end's exit code); `None` with a
    /// refusal reads as [`RefusalCause::Spend`].
    pub refusal_cause: Option<RefusalCause>,
    /// Buys again what the store owns.
    pub refresh: bool,
    /// When it was planned (claims settled after it are read, not bought).
    pub planned_at: DateTime<Utc>,
    /// What the front end that runs it as a job needs to finish it the same way (the CLI's
    /// `--max-credits`, `--format`, `--out`, `--wait`), kept with the job so that `resume ID`
    /// alone finishes it (issue 34); opaque to the engine.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_options: Option<Value>,
}

impl Plan {
    pub(super) fn new(action: String, kind: &str, refresh: bool) -> Plan {
        Plan {
            action,
            kind: kind.to_string(),
            asked: 0,
            owned: 0,
            owned_oldest: None,
            pending: 0,
            suppressed: 0,
            suppressed_by: Default::default(),
            new_only: None,
            refused: 0,
            refused_examples: Vec::new(),
            to_buy: 0,
            cost: Cost::ZERO,
            requests: 0,
            rate_per_minute: None,
            daily_left: None,
            eta_seconds: 0,
            refusal: None,
            refusal_cause: None,
            refresh,
            planned_at: looked_at(refresh),
            job_options: None,
        }
    }

    /// Notes a refused key.
    pub(super) fn refuse(&mut self, key: &str) {
        self.refused += 1;
        if self.refused_examples.len() < 5 {
            // Shown as given, its hidden characters escaped (`\u{1b}[31mred.com`), never
            // cleaned into another key.
            self.refused_examples.push(
                prospect_common::sanitize::visible(key)
                    .chars()
                    .take(80)
                    .collect(),
            );
        }
    }

    /// Notes an owned item bought at `at`.
    pub(super) fn own(&mut self, at: DateTime<Utc>) {
        self.owned += 1;
        self.owned_oldest = Some(self.owned_oldest.map_or(at, |o| o.min(at)));
    }

    /// The plan `job` was confirmed with, typed; `None` when its stored JSON is not a plan.
    pub fn of_job(job: &prospect_store::JobRow) -> Option<Plan> {
        serde_json::from_value(job.plan.clone()).ok()
    }

    /// What `job` does in words: its plan's action (e.g. `lookup of 2,000 domains`), else its
    /// kind (`lookup_companies`).
    pub fn job_action(job: &prospect_store::JobRow) -> String {
        Plan::of_job(job)
            .map(|p| p.action)
            .filter(|a| !a.is_empty())
            .unwrap_or_else(|| job.kind.clone())
    }

    /// Counts `refused` (key → category, [`crate::suppress`]) as suppressed.
    pub(super) fn suppress(&mut self, refused: &std::collections::HashMap<String, String>) {
        self.suppressed += refused.len() as u64;
        for c in refused.values() {
            *self.suppressed_by.entry(c.clone()).or_default() += 1;
        }
    }

    /// When every item asked is suppressed, the plan is refused, naming the categories: a paid
    /// call on a suppressed entity is never sent (issue 16).
    pub(super) fn refuse_if_all_suppressed(&mut self) {
        if self.suppressed > 0 && self.suppressed >= self.asked && self.refusal.is_none() {
            self.refusal = Some(format!(
                "suppressed ({}): nothing was sent, 0 credits",
                crate::suppress::counts_by_category(&self.suppressed_by)
            ));
        }
    }

    /// Refuses the plan for `cause`, saying `why`.
    pub(super) fn refuse_for(&mut self, cause: RefusalCause, why: String) {
        self.refusal = Some(why);
        self.refusal_cause = Some(cause);
    }

    /// `true` when it sends nothing paid.
    pub fn is_free(&self) -> bool {
        self.requests == 0
    }

    /// The plan in one line for a status line: `18 to buy (at most 18 email credits) · 12
    /// owned · 2 suppressed (customers)`; the pending, refused and refusal parts only when
    /// there are some.
    pub fn summary(&self) -> String {
        let mut parts = vec![if self.cost.is_zero() {
            format!("{} to buy (0 credits)", self.to_buy)
        } else {
            format!(
                "{} to buy (at most {})",
                self.to_buy,
                describe_pools(&self.cost)
            )
        }];
        parts.push(format!("{} owned", self.owned));
        if self.pending > 0 {
            parts.push(format!("{} pending", self.pending));
        }
        if self.suppressed > 0 {
            parts.push(format!(
                "{} suppressed ({})",
                self.suppressed,
                crate::suppress::counts_by_category(&self.suppressed_by)
            ));
        }
        if let Some(n) = &self.new_only {
            parts.push(n.describe());
        }
        if self.refused > 0 {
            parts.push(format!("{} refused", self.refused));
        }
        if let Some(r) = &self.refusal {
            parts.push(format!("refused: {r}"));
        }
        parts.join(" · ")
    }

    /// The plan as lines for a person: owned, pending, refused, to buy with cost, requests
    /// and ETA, and the refusal when there is one.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let age = |at: Option<DateTime<Utc>>| {
            at.map(|t| format!(" ({})", crate::spend::describe_age(Utc::now() - t)))
                .unwrap_or_default()
        };
        out.push(format!("{}: {} asked", self.action, self.asked));
        out.push(format!(
            "  owned      {} (0 credits){}",
            self.owned,
            age(self.owned_oldest)
        ));
        if self.pending > 0 {
            out.push(format!(
                "  pending    {} (sent before, awaiting the webhook; not sent again)",
                self.pending
            ));
        }
        if self.suppressed > 0 {
            out.push(format!(
                "  suppressed {} ({}; never sent, never charged)",
                self.suppressed,
                crate::suppress::counts_by_category(&self.suppressed_by)
            ));
        }
        if let Some(n) = &self.new_only {
            out.push(format!("  new-only   {}", n.describe()));
        }
        if self.refused > 0 {
            out.push(format!(
                "  refused    {} (not a key: {})",
                self.refused,
                self.refused_examples.join(", ")
            ));
        }
        out.push(if self.cost.is_zero() {
            format!("  to buy     {} (0 credits)", self.to_buy)
        } else {
            format!(
                "  to buy     {} (at most {})",
                self.to_buy,
                describe_pools(&self.cost)
            )
        });
        let pace = self
            .rate_per_minute
            .map(|r| format!(" at {r}/min"))
            .unwrap_or_default();
        let daily = self
            .daily_left
            .map(|d| format!(", {d} left today"))
            .unwrap_or_default();
        out.push(format!(
            "  requests   {}{pace}{daily}, ETA {}",
            self.requests,
            describe_eta(self.eta_seconds)
        ));
        if let Some(r) = &self.refusal {
            out.push(format!("  refused: {r}"));
        }
        out
    }
}

/// Why a plan is refused before anything is sent ([`Plan::refusal_cause`]; issue 34).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefusalCause {
    /// A spend rule: a daily budget, more requests than the daily allowance has left, every
    /// item suppressed, paid calls refused in this session (CLI exit 5).
    Spend,
    /// The daily request allowance is used up until its reset (CLI exit 6).
    DailyAllowance,
    /// It may cost more than the known credit balance (CLI exit 4).
    Credits,
}

/// `0s`, `45s`, `3m 05s`, `2h 05m` ([`prospect_common::words::duration`]: one form everywhere).
pub fn describe_eta(secs: u64) -> String {
    prospect_common::words::duration(secs.min(i64::MAX as u64) as i64)
}

/// Why planning failed: a key list that cannot be read, a request the client would refuse, or
/// a store that cannot be read. One line naming what was wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlanError {
    /// The key list (file, stdin) could not be read or is past a limit.
    #[error("{0}")]
    Keys(#[from] KeyError),
    /// The request would be refused by the service; nothing is sent.
    #[error("{0}")]
    Invalid(prospect_api::error::ApiError),
    /// Anything else, in words.
    #[error("{0}")]
    Other(String),
}
