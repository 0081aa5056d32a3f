//! The spend engine (issue 15): the one lifecycle of every paid action of every front end,
//! **plan → confirm → claim → paced call → keep the raw answer → entities**.
//!
//! - **Plan** ([`plan`]): before anything paid is sent, what the store already owns (0 credits,
//!   with its age), what is pending (a reveal awaiting its webhook) or refused (a key that is
//!   not one), what is to buy with the credits per pool, the requests against the per-minute
//!   and daily allowances, an ETA, and the budget check ([`SpendPolicy::budget`], per pool per
//!   UTC day, against the store's ledger of every process). The explorer's confirm popup and
//!   the CLI's `--dry-run` print this one value.
//! - **Claim**: each item (a company domain, a person's email, …) is claimed in the store before
//!   its call ([`prospect_store::Store::claim`]); a second process planning the same item waits for
//!   the first one's answer and reads it at 0 credits. A claim whose lease expired (its buyer
//!   died) is taken over.
//! - **Paced call**: the client paces every request to the per-minute allowance
//!   ([`prospect_api::pace`]) and never resends a paid request after a possible charge.
//! - **Keep**: the raw answer, byte for byte (zstd), with the entities that decode from it, in
//!   one transaction ([`keep()`]); what does not decode is left out and named; a store that
//!   cannot write hands the answer to a recovery file imported at the next start.
//! - **Jobs**: an action is a job in the store with its spec, so an interrupted one is listed
//!   (`prospect jobs`) and run again (`prospect resume ID`, or the same command): what was bought
//!   is owned, so only the rest is bought. A search resumes from its stored `searchAfter`.

mod batch;
mod decode;
mod gate;
mod jobs;
mod keep;
mod keys;
mod pages;
mod planners;
mod run;
mod salvage;

use std::collections::HashSet;
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use batch::{PersonItem, person_item};
pub use decode::entities_of;
use gate::*;
pub use jobs::{JobEnd, begin_job, end_job, finish_job, run_as_job, start_job};
pub use keep::{
    KeepReport, PageToKeep, ToKeep, fallback_recovery_dir, import_recovery, import_recovery_from,
    keep, read_lenient, recovery_dir_for, recovery_dir_of,
};
pub use keys::{
    KeyError, KeySource, MAX_INPUT_BYTES, MAX_KEYS, MAX_LINE_BYTES, is_service_id, read_key_list,
    split_people_keys,
};
pub use pages::{Next, SearchPages, V2_WINDOW, page_request};
use planners::*;
pub use run::{
    Progress, RunError, RunReport, SearchRecords, contact_key, enrich_company_request,
    lookup_companies, lookup_people, search,
};
pub(crate) use run::{buy_claimed, claim_one, page_key, release};

use crate::config::Budget;
use crate::session::{Freshness, Session, with_store};
use crate::spend::{POOLS, describe_pools};
use prospect_api::client::Endpoint;
use prospect_api::cost::{Cost, CreditPool};
use prospect_api::error::ApiError;
use prospect_api::types::{CreditBalance, LOOKUP_COMPANIES_MAX, LOOKUP_PEOPLE_MAX, REVEAL_MAX_IDS};
use prospect_common::ContactKind;
use prospect_store::{EntityKey, Store};

/// How the engine spends, from the config: how long a bought search is answered from the
/// store, and the daily budget per pool.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpendPolicy {
    /// A search bought within this long is answered from the store at 0 credits.
    pub search_fresh_for: Duration,
    /// Credits per pool per UTC day, for every process on the store.
    pub budget: Budget,
}

impl Default for SpendPolicy {
    fn default() -> Self {
        SpendPolicy {
            search_fresh_for: crate::config::DEFAULT_SEARCH_FRESH_FOR,
            budget: Budget::default(),
        }
    }
}

/// The time a caller looks in the store, as its claims' `planned_at` ([`Store::claim`]): now
/// when it refreshes (whatever was settled before is bought again); else now less
/// [`prospect_store::SETTLE_GRACE_MS`], so that an item another process was settling while the
/// caller looked (timed before its commit was seen) is read from the store, not bought again.
///
/// [`Store::claim`]: prospect_store::Store::claim
pub fn looked_at(refresh: bool) -> chrono::DateTime<Utc> {
    let now = Utc::now();
    if refresh {
        now
    } else {
        now - chrono::Duration::milliseconds(prospect_store::SETTLE_GRACE_MS)
    }
}

/// A new owner name for this process's claims and jobs: `pid-nonce@host` (the host tells a
/// team store's processes of this machine, whose liveness can be checked, from others').
pub fn new_owner() -> String {
    use rand::Rng;
    format!(
        "{}-{:08x}@{}",
        std::process::id(),
        rand::rng().random::<u32>(),
        prospect_store::this_host()
    )
}

/// Records per search page the engine asks for (fewer requests against the allowance).
pub const SEARCH_PAGE: u64 = 500;

/// How long a claim holds an item while its call is under way: the client's whole-request
/// timeout with room to spare. A buyer that died is taken over after it.
pub const CLAIM_LEASE: Duration = Duration::from_secs(120);

/// How long a reveal's ids stay `sent` (not sent again) while their webhook is awaited.
pub const REVEAL_LEASE: Duration = Duration::from_secs(30 * 60);

/// A paid action, as a job stores it to run it again: what to buy, never how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// Up to `limit` results of a list search (SPEC.md §4.2, §4.3), paging with `searchAfter`.
    Search {
        /// The search endpoint's path, e.g. `/v3/search/companies`.
        endpoint: String,
        /// The request body without paging members.
        body: Value,
        /// Most results.
        limit: u64,
    },
    /// A lookup of companies by domain (SPEC.md §4.5).
    LookupCompanies {
        /// The domains.
        keys: KeySource,
    },
    /// A lookup of people by professional-network handle, or service id with `ids` (§4.6).
    LookupPeople {
        /// The handles or ids.
        keys: KeySource,
        /// The keys are service ids.
        ids: bool,
    },
    /// A reveal of emails or phones of person ids (§4.10, §4.7); results by webhook.
    Reveal {
        /// Email or phone.
        contact: ContactKind,
        /// The person ids.
        keys: KeySource,
    },
    /// An enrichment of one company by domain (§4.10).
    EnrichCompany {
        /// The domain.
        domain: String,
    },
    /// An enrichment of one person (§4.4): the request body.
    EnrichPerson {
        /// `EnrichPersonRequest` as JSON.
        request: Value,
    },
    /// A batch enrichment of companies by domain (`POST /v2/enrich/companies`, openapi.json;
    /// issue 18); results by webhook.
    EnrichCompanies {
        /// The domains.
        keys: KeySource,
    },
    /// A batch enrichment of people (`POST /v2/enrich/people`, openapi.json; issue 18); results
    /// by webhook.
    EnrichPeople {
        /// One person a line ([`person_item`]).
        keys: KeySource,
    },
    /// A segmentation of company domains (`POST /v2/segmentation`, openapi.json; issue 18):
    /// bought once per input ([`crate::segment::input_key`]).
    Segment {
        /// `SegmentationInput` as JSON.
        request: Value,
    },
}

impl Action {
    /// The job kind: `search`, `lookup_companies`, `lookup_people`, `reveal_emails`,
    /// `reveal_phones`, `enrich_company`, `enrich_person`, `enrich_companies`, `enrich_people`.
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Search { .. } => "search",
            Action::LookupCompanies { .. } => "lookup_companies",
            Action::LookupPeople { .. } => "lookup_people",
            Action::Reveal {
                contact: ContactKind::Email,
                ..
            } => "reveal_emails",
            Action::Reveal {
                contact: ContactKind::Phone,
                ..
            } => "reveal_phones",
            Action::EnrichCompany { .. } => "enrich_company",
            Action::EnrichPerson { .. } => "enrich_person",
            Action::EnrichCompanies { .. } => "enrich_companies",
            Action::EnrichPeople { .. } => "enrich_people",
            Action::Segment { .. } => "segmentation",
        }
    }

    /// What it asks, canonical: the same command gives the same text (a job's fingerprint).
    pub fn fingerprint(&self) -> String {
        serde_json::to_string(&prospect_store::canonical_json(
            &serde_json::to_value(self).unwrap_or(Value::Null),
        ))
        .unwrap_or_default()
    }

    /// The endpoint it buys from.
    pub fn endpoint(&self) -> Option<Endpoint> {
        Some(match self {
            Action::Search { endpoint, .. } => return Endpoint::from_path(endpoint),
            Action::LookupCompanies { .. } => Endpoint::LookupCompanies,
            Action::LookupPeople { .. } => Endpoint::LookupPeople,
            Action::Reveal { contact, .. } => prospect_api::cost::reveal_endpoint(*contact),
            Action::EnrichCompany { .. } => Endpoint::EnrichCompany,
            Action::EnrichPerson { .. } => Endpoint::EnrichPerson,
            Action::EnrichCompanies { .. } => Endpoint::EnrichCompanies,
            Action::EnrichPeople { .. } => Endpoint::EnrichPeople,
            Action::Segment { .. } => Endpoint::CreateSegmentation,
        })
    }
}

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
    fn new(action: String, kind: &str, refresh: bool) -> Plan {
        Plan {
            action,
            kind: kind.to_string(),
            asked: 0,
            owned: 0,
            owned_oldest: None,
            pending: 0,
            suppressed: 0,
            suppressed_by: Default::default(),
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
    fn refuse(&mut self, key: &str) {
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
    fn own(&mut self, at: DateTime<Utc>) {
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
    fn suppress(&mut self, refused: &std::collections::HashMap<String, String>) {
        self.suppressed += refused.len() as u64;
        for c in refused.values() {
            *self.suppressed_by.entry(c.clone()).or_default() += 1;
        }
    }

    /// When every item asked is suppressed, the plan is refused, naming the categories: a paid
    /// call on a suppressed entity is never sent (issue 16).
    fn refuse_if_all_suppressed(&mut self) {
        if self.suppressed > 0 && self.suppressed >= self.asked && self.refusal.is_none() {
            self.refusal = Some(format!(
                "suppressed ({}): nothing was sent, 0 credits",
                crate::suppress::counts_by_category(&self.suppressed_by)
            ));
        }
    }

    /// Refuses the plan for `cause`, saying `why`.
    fn refuse_for(&mut self, cause: RefusalCause, why: String) {
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

/// `0 s`, `45 s`, `3 min`, `2 h 5 min`.
pub fn describe_eta(secs: u64) -> String {
    match secs {
        0..=59 => format!("{secs} s"),
        60..=3599 => format!("{} min", secs.div_ceil(60)),
        _ => format!("{} h {} min", secs / 3600, (secs % 3600) / 60),
    }
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

/// Plans `action` against `s`'s store and allowances (see the module docs). Free: nothing paid
/// is sent (the credit balance, a free read, is asked for the daily allowance when the plan
/// has requests).
///
/// Errors: [`PlanError`].
pub async fn plan(s: &Session, action: &Action, fresh: Freshness) -> Result<Plan, PlanError> {
    let refresh = fresh == Freshness::Refresh;
    let mut p = match action {
        Action::Search {
            endpoint,
            body,
            limit,
        } => run::plan_search(s, endpoint, body, *limit, refresh).await?,
        Action::LookupCompanies { keys } => plan_lookup_companies(s, keys, refresh).await?,
        Action::LookupPeople { keys, ids } => plan_lookup_people(s, keys, *ids, refresh).await?,
        Action::Reveal { contact, keys } => plan_reveal(s, *contact, keys, refresh).await?,
        Action::EnrichCompany { domain } => plan_enrich_company(s, domain, refresh).await?,
        Action::EnrichPerson { request } => plan_enrich_person(s, request, refresh).await?,
        Action::EnrichCompanies { keys } => plan_enrich_companies(s, keys, refresh).await?,
        Action::EnrichPeople { keys } => plan_enrich_people(s, keys, refresh).await?,
        Action::Segment { request } => plan_segment(s, request, refresh).await?,
    };
    finish_plan(s, &mut p).await;
    Ok(p)
}

/// Plans one page of a list search as the explorer asks it (SPEC.md §4.2, §4.3; `req` has
/// its cursor and size): owned when the same page (endpoint, body, cursor, size) was bought
/// within `search_fresh_for` and `fresh` lets the store answer (0 credits, with its age);
/// else one request of `req.page_size()` results costing at most [`SearchRequest::estimate`].
/// Paced and checked against the budgets as every plan is; the daily request allowance is not
/// read for it (one request: a day's last 429 refuses it without a charge). Free: reads the
/// store only.
///
/// [`SearchRequest::estimate`]: crate::request::SearchRequest::estimate
pub async fn plan_page(s: &Session, req: &crate::request::SearchRequest, fresh: Freshness) -> Plan {
    let refresh = fresh == Freshness::Refresh;
    let mut p = Plan::new(
        format!("a page of {}", req.endpoint().path()),
        "search",
        refresh,
    );
    p.asked = req.page_size();
    // The page as it is sent: with the suppressed entities excluded (issue 16).
    let (req, suppressed) = crate::suppress::apply_to_request(s, req).await;
    let req = &req;
    p.suppressed = suppressed.total();
    p.suppressed_by = suppressed.by_category.clone();
    let stored = match fresh {
        Freshness::Stored => s.stored_search_page(req).await,
        Freshness::Refresh => None,
    };
    match stored {
        Some((hit, _)) => {
            let at = hit.stored_at.unwrap_or(p.planned_at);
            p.owned = run::records_of(&hit.value) as u64;
            p.owned_oldest = Some(at);
        }
        None => {
            p.to_buy = p.asked;
            p.cost = req.estimate();
            p.requests = 1;
        }
    }
    pace_plan(s, &mut p);
    if p.requests > 0 {
        p.refusal = match s.paid_refusal() {
            Some(why) => Some(refused_words(why)),
            None => budget_refusal(s, &p.cost).await,
        };
        // The daily allowance used up, and the last balance known (no request made for it).
        if p.refusal.is_none()
            && let Some(pacer) = s.client().pacer()
            && let Some(b) = pacer.blocked()
        {
            p.refuse_for(
                RefusalCause::DailyAllowance,
                format!(
                    "the daily request allowance is used up{}; nothing was sent",
                    resets_at(b.resets_in.as_secs() as i64)
                ),
            );
        }
        if p.refusal.is_none()
            && let Some(b) = s.known_balance()
            && let Some(r) = balance_refusal(&p, &b)
        {
            p.refuse_for(RefusalCause::Credits, r);
        }
    }
    p
}

/// Checks a search body's paging members before anything is planned or sent: `size` and
/// `from`, when present, must be integers in range (SPEC.md §8: size 1..=10000, from
/// 1..=10001), never replaced by a default. Errors name the member and the value.
pub fn check_paging(body: &Value) -> Result<(), String> {
    for (member, lo, hi) in [("size", 1i64, 10_000i64), ("from", 1, 10_001)] {
        let Some(v) = body.get(member) else { continue };
        let ok = match v {
            Value::Number(n) => n.as_i64().is_some_and(|x| (lo..=hi).contains(&x)),
            _ => false,
        };
        if !ok {
            return Err(format!(
                "body member {member} is {v}; it must be a whole number from {lo} to {hi}"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The daily allowance in a plan (issue 34): a balance showing 0 left that resets in 0 s
    /// refuses nothing; 0 left with a later reset is the used-up allowance (exit 6); too few
    /// left is a spend refusal (exit 5).
    #[test]
    fn the_daily_allowance_refuses_only_what_it_cannot_send() {
        assert_eq!(daily_refusal(3, Some(0), Some(0)), None);
        assert_eq!(daily_refusal(3, Some(5), Some(3600)), None);
        assert_eq!(daily_refusal(3, None, Some(3600)), None);
        let (cause, words) = daily_refusal(1, Some(0), Some(3600)).unwrap();
        assert_eq!(cause, RefusalCause::DailyAllowance);
        assert!(words.contains("resets in 1 h 0 min"), "{words}");
        let (cause, words) = daily_refusal(9, Some(4), Some(60)).unwrap();
        assert_eq!(cause, RefusalCause::Spend);
        assert!(words.contains("4 left today"), "{words}");
    }

    /// A plan over the known balance says what fits (issue 34: "3 credits left: 15 rows fit").
    #[test]
    fn a_plan_over_the_balance_says_what_fits() {
        let mut p = Plan::new("search".into(), "search", false);
        p.to_buy = 25;
        p.cost = Cost {
            standard: 5.0,
            ..Cost::ZERO
        };
        let b = |standard: f64| CreditBalance {
            credits: Some(prospect_api::types::Credits {
                one_time: standard,
                recurrent: 0.0,
            }),
            ..CreditBalance::default()
        };
        let words = balance_refusal(&p, &b(3.0)).unwrap();
        assert!(
            words.contains("3 standard credits left: 15 of 25 rows fit"),
            "{words}"
        );
        assert_eq!(balance_refusal(&p, &b(5.0)), None);
        assert_eq!(balance_refusal(&p, &CreditBalance::default()), None);
    }

    /// A job's stored plan reads back typed; a plan lacking members takes their defaults, and
    /// JSON that is not a plan leaves the job's kind as what it does.
    #[test]
    fn a_jobs_plan_reads_back_typed() {
        let mut plan = Plan::new("lookup of 2,000 domains".into(), "lookup_companies", false);
        plan.to_buy = 2_000;
        let mut job = prospect_store::JobRow {
            id: prospect_store::JobId(1),
            kind: "lookup_companies".into(),
            fingerprint: String::new(),
            spec: serde_json::Value::Null,
            plan: serde_json::to_value(&plan).unwrap(),
            state: "interrupted".into(),
            pid: 1,
            detail: String::new(),
            bought: 0,
            created_at: plan.planned_at,
            updated_at: plan.planned_at,
        };
        assert_eq!(Plan::of_job(&job), Some(plan));
        assert_eq!(Plan::job_action(&job), "lookup of 2,000 domains");
        job.plan = serde_json::json!({"action": "search of up to 50"});
        assert_eq!(Plan::job_action(&job), "search of up to 50");
        job.plan = serde_json::json!([1, 2]);
        assert_eq!(Plan::of_job(&job), None);
        assert_eq!(Plan::job_action(&job), "lookup_companies");
    }

    #[test]
    fn paging_members_are_refused_not_replaced() {
        assert!(check_paging(&serde_json::json!({"size": 25})).is_ok());
        for bad in [
            serde_json::json!({"size": -5}),
            serde_json::json!({"size": 2.5}),
            serde_json::json!({"size": 1e300}),
            serde_json::json!({"size": "10"}),
            serde_json::json!({"size": 0}),
            serde_json::json!({"from": 10_002}),
        ] {
            let e = check_paging(&bad).unwrap_err();
            assert!(e.contains("must be a whole number"), "{e}");
        }
    }

    #[test]
    fn the_same_action_has_the_same_fingerprint() {
        let a = Action::Search {
            endpoint: "/v3/search/companies".into(),
            body: serde_json::json!({"b": 1, "a": {"y": 2, "x": 1}}),
            limit: 100,
        };
        let b = Action::Search {
            endpoint: "/v3/search/companies".into(),
            body: serde_json::json!({"a": {"x": 1, "y": 2}, "b": 1}),
            limit: 100,
        };
        assert_eq!(a.fingerprint(), b.fingerprint());
        assert_eq!(a.kind(), "search");
    }

    #[test]
    fn eta_words() {
        assert_eq!(describe_eta(0), "0 s");
        assert_eq!(describe_eta(61), "2 min");
        assert_eq!(describe_eta(3660), "1 h 1 min");
    }
}
