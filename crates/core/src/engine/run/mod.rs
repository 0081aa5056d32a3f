//! Running a planned action: claims, paced calls, keeping, and the answers handed to the front
//! end as they come (so a list of a million domains streams through in batches).

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use futures::StreamExt;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::keys::{KeyError, KeySource, ReadKey};
use super::pages::{Next, SearchPages, page_request};
use super::sets::{SetReport, SetRunning, SetSearch};
use super::{CLAIM_LEASE, Plan, PlanError, SEARCH_PAGE, check_paging};
use crate::request::{SearchRequest, SearchResponse};
use crate::session::{Freshness, LookupEntry, Paid, Session, search_identity, with_store};
use prospect_api::client::{ApiRequest, Endpoint};
use prospect_api::cost::Cost;
use prospect_api::cost::search_cost;
use prospect_api::error::ApiError;
use prospect_api::types::*;
use prospect_common::ContactKind;
use prospect_common::keys::normalize_domain;
use prospect_store::{Claim, JobId, Stored};

mod lookup;
mod page;
mod search;

pub use lookup::*;
pub(crate) use page::buy_page;
pub use search::*;

/// Lookup batches on their way at once: the next is sent while the last is kept. Two, not
/// more: a process killed mid-run loses the answers in flight, paid and not yet kept
/// (`sigkill_mid_lookup_then_the_same_command_pays_at_most_the_batches_in_flight` bounds it);
/// three measured about 10% faster on a 1M-line lookup and lost a third batch to a kill.
const IN_FLIGHT: usize = 2;

/// How often a buyer waiting on another process's claim looks again.
const CLAIM_POLL: Duration = Duration::from_millis(200);

/// The claim key of a person's contact of `kind`: `email:<id>` or `phone:<id>`.
pub fn contact_key(kind: ContactKind, id: &str) -> String {
    format!("{}:{}", kind.as_str(), id.trim())
}

/// The enrich request of one company by domain (SPEC.md §4.10): `{"company": {"domain"}}`.
pub fn enrich_company_request(domain: &str) -> EnrichCompanyRequest {
    EnrichCompanyRequest {
        company: Some(CompanyMatch {
            domain: Some(domain.trim().to_string()),
            ..CompanyMatch::default()
        }),
        ..EnrichCompanyRequest::default()
    }
}

/// How a run went: what it cost, what it kept, and what went wrong without losing anything.
#[derive(Debug, Default)]
pub struct RunReport {
    /// Credits charged, per pool.
    pub charged: Cost,
    /// Items bought (sent and kept).
    pub bought: u64,
    /// Items answered from the store at 0 credits (owned, or bought by another process while
    /// this one waited).
    pub owned: u64,
    /// Paid requests sent.
    pub requests: u32,
    /// Records handed to the front end.
    pub records: u64,
    /// Why the store could not write an answer (each is then in a recovery file).
    pub store_errors: Vec<String>,
    /// The recovery files answers went to.
    pub recovery: Vec<PathBuf>,
    /// Answers that decoded only in part (their raw bytes are kept whole).
    pub decode_errors: Vec<String>,
    /// Keys of a lookup whose records were in a part of a paid answer that did not read (or
    /// an answer that did not read at all): not written, their claims released, bought again
    /// by the next run (issue 34).
    pub unread: u64,
    /// The run stopped early on the caller's signal; what was in flight was kept.
    pub interrupted: bool,
    /// A search stopped because the service gave a cursor that does not advance.
    pub stuck_cursor: bool,
    /// What suppression excluded from a search, or refused of a lookup (issue 16).
    pub suppressed: crate::suppress::Suppressed,
    /// What a run of a saved filter set's search found new and paid again (issue 37).
    pub set: Option<SetReport>,
    /// The first error that stopped the run (what was bought before it is kept).
    pub error: Option<RunError>,
}

impl RunReport {
    fn absorb<T>(&mut self, paid: &Paid<T>) {
        self.charged += paid.charged;
        self.store_errors.extend(paid.store_error.clone());
        self.recovery.extend(paid.recovery.clone());
        self.decode_errors.extend(paid.decode_error.clone());
    }

    /// Adds `from`'s counts, charge and notes to this report (two parts of one run: batches of
    /// a lookup, the handles and the ids of a people lookup); its error is kept when this
    /// report has none.
    pub(crate) fn merge(&mut self, from: RunReport) {
        for (c, n) in from.suppressed.by_category {
            *self.suppressed.by_category.entry(c).or_default() += n;
        }
        self.charged += from.charged;
        self.bought += from.bought;
        self.owned += from.owned;
        self.requests += from.requests;
        self.records += from.records;
        self.store_errors.extend(from.store_errors);
        self.recovery.extend(from.recovery);
        self.decode_errors.extend(from.decode_errors);
        self.unread += from.unread;
        self.interrupted |= from.interrupted;
        if let Some(e) = from.error {
            self.fail(e);
        }
    }

    fn fail(&mut self, e: RunError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }
}

/// What stopped a run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The service or the network ([`ApiError`]); for a paid request it was not resent.
    #[error("{}", .0.user_message())]
    Api(ApiError),
    /// The key list could not be read further.
    #[error("{0}")]
    Keys(#[from] KeyError),
    /// The front end could not write its output (e.g. a closed pipe).
    #[error("writing the output: {0}")]
    Output(std::io::Error),
    /// The store could not be read or claimed in (nothing was bought for it).
    #[error("the store: {0}")]
    Store(String),
    /// A request that is refused before sending.
    #[error("{0}")]
    Plan(#[from] PlanError),
}

impl From<ApiError> for RunError {
    fn from(e: ApiError) -> RunError {
        RunError::Api(e)
    }
}

/// Progress of a run, for a front end's bar: items done of the plan's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    /// Items handled (owned, bought or not found).
    pub done: u64,
}

/// One page of search records handed to the front end: the answer, how many of its records
/// to take (the rest are past the limit), and when it was bought if it came from the store.
#[derive(Debug, Clone)]
pub struct SearchRecords {
    /// The answer.
    pub response: SearchResponse,
    /// Records of it to show.
    pub take: usize,
    /// `Some(time bought)` when answered from the store at 0 credits.
    pub stored_at: Option<DateTime<Utc>>,
    /// The records to show rendered ahead in the form the run was asked for
    /// ([`SearchOf::rows`]), `take` of them: then `response` holds no records, only its other
    /// members (`total`, `searchAfter`). `None` when no form was asked (or the run is a
    /// set's, or of people): the records are in `response`.
    pub rows: Option<crate::export::PageRows>,
}

pub(super) fn records_of(r: &SearchResponse) -> usize {
    match r {
        SearchResponse::CompaniesV3(x) => x.companies.len(),
        SearchResponse::CompaniesV2(x) => x.companies.len(),
        SearchResponse::PeopleV3(x) => x.people.len(),
        SearchResponse::PeopleV2(x) => x.people.len(),
    }
}

pub(in crate::engine) fn cursor_of(r: &SearchResponse) -> Option<String> {
    match r {
        SearchResponse::CompaniesV3(x) => x.search_after.clone(),
        SearchResponse::CompaniesV2(x) => x.search_after.clone(),
        SearchResponse::PeopleV3(x) => x.search_after.clone(),
        SearchResponse::PeopleV2(x) => x.search_after.clone(),
    }
    .filter(|c| !c.is_empty())
}

fn total_of(r: &SearchResponse) -> Option<i64> {
    match r {
        SearchResponse::CompaniesV3(x) => x.total,
        SearchResponse::CompaniesV2(x) => x.total,
        SearchResponse::PeopleV3(x) => x.total,
        SearchResponse::PeopleV2(x) => x.total,
    }
}

/// The claim key of one search page: `page:<search>:<cursor in>:<size>`, where `<search>` is
/// 16 hex digits of the SHA-256 of the endpoint, the target and the search's canonical body
/// (what [`prospect_store::Store::keep`] records the page under), so two processes asking the
/// same page of the same search claim the same key.
pub(crate) fn page_key(s: &Session, ep: Endpoint, req: &SearchRequest) -> String {
    use sha2::{Digest, Sha256};
    let request = req.body();
    let identity = prospect_store::canonical_search_body(&search_identity(&request));
    let mut h = Sha256::new();
    for part in [ep.path(), s.target(), identity.as_str()] {
        h.update(part.as_bytes());
        h.update([0]);
    }
    let hex: String = h.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let size = request.get("size").and_then(Value::as_u64).unwrap_or(0);
    format!("page:{hex}:{}:{size}", prospect_store::cursor_in(&request))
}

/// Claims page `key` for this run (started at `started`): [`Claim::Mine`] to buy it,
/// [`Claim::Settled`] when another process bought it since (read it with [`settled_page`]).
/// While another live process holds it, looks again every [`CLAIM_POLL`], up to the lease
/// and 30 s more (then an error); [`Claim::Held`] when `stop` fires meanwhile.
async fn claim_page(
    s: &Session,
    key: &str,
    job: Option<JobId>,
    started: DateTime<Utc>,
    stop: &CancellationToken,
) -> Result<Claim, RunError> {
    let deadline = Instant::now() + CLAIM_LEASE + Duration::from_secs(30);
    let keys = [key.to_string()];
    loop {
        let (mine, settled, _held) = claim_once(s, &keys, job, started).await?;
        if !mine.is_empty() {
            return Ok(Claim::Mine);
        }
        if !settled.is_empty() {
            return Ok(Claim::Settled);
        }
        if stop.is_cancelled() {
            return Ok(Claim::Held);
        }
        if Instant::now() > deadline {
            return Err(RunError::Store(format!(
                "a search page stayed claimed by another process for over {} s",
                CLAIM_LEASE.as_secs() + 30
            )));
        }
        tokio::time::sleep(CLAIM_POLL).await;
    }
}

/// The page `req` asks, as another process kept it at or after `since`, with when it was
/// bought. An error when it cannot be read (the other process's store write failed: its
/// answer is in a recovery file, imported at the next start).
async fn settled_page(
    s: &Session,
    ep: Endpoint,
    req: &SearchRequest,
    since: DateTime<Utc>,
) -> Result<(SearchResponse, DateTime<Utc>), RunError> {
    let request = req.body();
    let identity = search_identity(&request);
    let cursor = prospect_store::cursor_in(&request);
    let size = request.get("size").and_then(Value::as_i64).unwrap_or(0);
    let target = s.target().to_string();
    // Times are kept in milliseconds: a page kept in the same millisecond counts.
    let since = since - chrono::Duration::milliseconds(1);
    let page = with_store(s.store(), move |st| {
        match st.find_search(ep, &identity, &target)? {
            Some(id) => st.stored_page(id, &cursor, size, since),
            None => Ok(None),
        }
    })
    .await
    .map_err(RunError::Store)?;
    let unreadable = || {
        RunError::Store(
            "another process bought a search page but it is not readable in the store yet \
             (its answer may be in a recovery file; run again to import it)"
                .into(),
        )
    };
    let page = page.ok_or_else(unreadable)?;
    let response = SearchResponse::decode(ep, page.response).map_err(|_| unreadable())?;
    Ok((response, page.fetched_at))
}

/// Buys one paid item under claim `key` (an enrich: `company:<domain>`, `person:<id>`,
/// `handle:<handle>`), so two processes never buy it at once: when this process holds the
/// claim it sends `req` and keeps the answer, settling the claim; when another process bought
/// it at or after `looked` (when the caller last looked in the store and did not find it),
/// `stored` reads it from the store at 0 credits; while another
/// holds it, it waits (polling every [`CLAIM_POLL`], up to the lease and 30 s more). A
/// settled item the store does not hold (the other answer had no record, e.g. data still
/// being gathered) is sent again.
///
/// Errors: the send's [`ApiError`] (the claim is released when nothing was charged);
/// [`ApiError::Network`] when the store cannot claim, or another process held the claim past
/// the wait.
pub(crate) async fn buy_claimed<R, F, Fut>(
    s: &Session,
    req: &R,
    key: String,
    looked: DateTime<Utc>,
    stored: F,
) -> Result<Paid<R::Response>, ApiError>
where
    R: ApiRequest,
    R::Response: prospect_store::Bought + serde::Serialize + Clone + Send + Sync + 'static,
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Option<Paid<R::Response>>>,
{
    if claim_one(s, &key, looked).await? {
        let keys = vec![key];
        return match s.buy(req, None, keys.clone(), None).await {
            Ok(paid) => Ok(paid),
            Err(e) => {
                if !e.may_have_charged() {
                    s.release(keys).await;
                }
                Err(e)
            }
        };
    }
    match stored().await {
        Some(hit) => Ok(hit),
        None => s.buy(req, None, Vec::new(), None).await,
    }
}

/// Claims one item, `key`, for this process: `true` when it holds it now (buy it, settling
/// the claim with the purchase, or release it when nothing was charged); `false` when another
/// process bought it at or after `looked` (read it from the store). While another live
/// process holds it, looks again every [`CLAIM_POLL`], up to the lease and 30 s more.
///
/// Errors: [`ApiError::Network`] when the store cannot claim, or the wait ran out.
pub(crate) async fn claim_one(
    s: &Session,
    key: &str,
    looked: DateTime<Utc>,
) -> Result<bool, ApiError> {
    let deadline = Instant::now() + CLAIM_LEASE + Duration::from_secs(30);
    let keys = [key.to_string()];
    loop {
        let (mine, settled, _held) = claim_once(s, &keys, None, looked)
            .await
            .map_err(|e| ApiError::Network(e.to_string()))?;
        if !mine.is_empty() {
            return Ok(true);
        }
        if !settled.is_empty() {
            return Ok(false);
        }
        if Instant::now() > deadline {
            return Err(ApiError::Network(format!(
                "{key} stayed claimed by another process for over {} s",
                CLAIM_LEASE.as_secs() + 30
            )));
        }
        tokio::time::sleep(CLAIM_POLL).await;
    }
}

/// Search pages received and being kept at once while the next is fetched: each is written
/// once this many newer ones are on their way.
const PAGES_KEEPING: usize = 2;

/// A page being kept on its own task while the next is fetched.
type KeepTask = tokio::task::JoinHandle<Result<Paid<SearchResponse>, ApiError>>;
