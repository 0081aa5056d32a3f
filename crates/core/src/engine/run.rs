//! Running a planned action: claims, paced calls, keeping, and the answers handed to the front
//! end as they come (so a list of a million domains streams through in batches).

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use futures::StreamExt;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::keys::{KeyError, KeySource, hash_key};
use super::pages::{Next, SearchPages, page_request};
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

/// Lookup batches on their way at once: the next is sent while the last is kept.
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
}

pub(super) fn records_of(r: &SearchResponse) -> usize {
    match r {
        SearchResponse::CompaniesV3(x) => x.companies.len(),
        SearchResponse::CompaniesV2(x) => x.companies.len(),
        SearchResponse::PeopleV3(x) => x.people.len(),
        SearchResponse::PeopleV2(x) => x.people.len(),
    }
}

fn cursor_of(r: &SearchResponse) -> Option<String> {
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

/// The search endpoint of a path, or a plan error naming it.
fn search_endpoint(path: &str) -> Result<Endpoint, PlanError> {
    Endpoint::from_path(path)
        .filter(|e| e.is_search())
        .ok_or_else(|| PlanError::Other(format!("{path} is not a list search")))
}

/// The stored, fresh pages of a search (see [`prospect_store::Store::pages_since`]).
async fn fresh_chain(
    s: &Session,
    endpoint: Endpoint,
    body: &Value,
) -> Vec<prospect_store::StoredPage> {
    let identity = search_identity(body);
    let target = s.target().to_string();
    let fresh_for =
        chrono::Duration::from_std(s.policy().search_fresh_for).unwrap_or(chrono::Duration::zero());
    let since = Utc::now() - fresh_for;
    with_store(s.store(), move |st| {
        match st.find_search(endpoint, &identity, &target)? {
            Some(id) => st.pages_since(id, Some(since)),
            None => Ok(Vec::new()),
        }
    })
    .await
    .unwrap_or_default()
}

/// Plans a search of up to `limit` results: stored pages bought within `search_fresh_for`
/// are owned; the rest is bought from the last stored cursor.
pub(super) async fn plan_search(
    s: &Session,
    endpoint: &str,
    body: &Value,
    limit: u64,
    refresh: bool,
) -> Result<Plan, PlanError> {
    let ep = search_endpoint(endpoint)?;
    if limit == 0 {
        return Err(PlanError::Other("the limit must be at least 1".into()));
    }
    check_paging(body).map_err(PlanError::Other)?;
    let (body, suppressed) = crate::suppress::apply_to_body(s, ep, body).await;
    let body = &body;
    page_request(ep, body, limit.min(SEARCH_PAGE), Next::Start).map_err(PlanError::Invalid)?;
    let mut p = Plan::new(
        format!("search {} of up to {limit}", ep.path()),
        "search",
        refresh,
    );
    p.asked = limit;
    p.suppressed = suppressed.total();
    p.suppressed_by = suppressed.by_category.clone();
    let mut end = false;
    let mut total = None;
    if !refresh {
        for page in fresh_chain(s, ep, body).await {
            let facts = prospect_store::PageFacts::of_answer(&page.response);
            let take = facts.n.min(limit - p.owned);
            for _ in 0..take {
                p.own(page.fetched_at);
            }
            total = facts.total.or(total);
            let size = page
                .request
                .get("size")
                .and_then(Value::as_u64)
                .unwrap_or(50);
            if facts.cursor_out.is_none() || facts.n < size {
                end = true;
            }
            if p.owned >= limit || end {
                break;
            }
        }
    }
    let mut to_buy = if end { 0 } else { limit - p.owned };
    if let Some(t) = total {
        to_buy = to_buy.min((t.max(0) as u64).saturating_sub(p.owned));
    }
    p.to_buy = to_buy;
    p.cost = search_cost(ep, body, to_buy);
    p.requests = to_buy.div_ceil(SEARCH_PAGE) as u32;
    Ok(p)
}

async fn send_page(s: &Session, req: &SearchRequest) -> Result<(u16, Vec<u8>), ApiError> {
    match req {
        SearchRequest::CompaniesV3(r) => s.send_paid(&**r).await,
        SearchRequest::CompaniesV2(r) => s.send_paid(&**r).await,
        SearchRequest::PeopleV3(r) => s.send_paid(&**r).await,
        SearchRequest::PeopleV2(r) => s.send_paid(&**r).await,
    }
}

async fn keep_page(
    s: Session,
    req: SearchRequest,
    status: u16,
    raw: Vec<u8>,
    position: u32,
    job: Option<JobId>,
    settles: Vec<String>,
) -> Result<Paid<SearchResponse>, ApiError> {
    let request = req.body();
    let identity = search_identity(&request);
    let page = Some((identity, position));
    Ok(match req {
        SearchRequest::CompaniesV3(_) => s
            .keep_answer::<SearchCompaniesV3Request>(request, status, raw, job, settles, page)
            .await?
            .map(SearchResponse::CompaniesV3),
        SearchRequest::CompaniesV2(_) => s
            .keep_answer::<SearchCompaniesV2Request>(request, status, raw, job, settles, page)
            .await?
            .map(SearchResponse::CompaniesV2),
        SearchRequest::PeopleV3(_) => s
            .keep_answer::<SearchPeopleV3Request>(request, status, raw, job, settles, page)
            .await?
            .map(SearchResponse::PeopleV3),
        SearchRequest::PeopleV2(_) => s
            .keep_answer::<SearchPeopleV2Request>(request, status, raw, job, settles, page)
            .await?
            .map(SearchResponse::PeopleV2),
    })
}

/// What [`peek`] reads of a raw search answer.
struct Peeked {
    /// Its `searchAfter`, when not empty.
    cursor: Option<String>,
    /// Its records (companies or people).
    records: u64,
    /// Its `total`, when a whole number.
    total: Option<i64>,
}

/// The `searchAfter`, record count and `total` of a raw search answer, read without decoding
/// the records (each is skipped, not built); nothing (no cursor, 0 records) when it does not
/// scan as a search answer.
fn peek(raw: &[u8]) -> Peeked {
    #[derive(serde::Deserialize)]
    struct Peek {
        #[serde(rename = "searchAfter", default)]
        search_after: Option<String>,
        #[serde(default)]
        companies: Vec<serde::de::IgnoredAny>,
        #[serde(default)]
        people: Vec<serde::de::IgnoredAny>,
        #[serde(default)]
        total: Option<Value>,
    }
    match serde_json::from_slice::<Peek>(raw) {
        Ok(p) => Peeked {
            cursor: p.search_after.filter(|c| !c.is_empty()),
            records: (p.companies.len() + p.people.len()) as u64,
            total: p.total.as_ref().and_then(Value::as_i64),
        },
        Err(_) => Peeked {
            cursor: None,
            records: 0,
            total: None,
        },
    }
}

/// A page request on its own task ([`fetch_page`]), with where it starts and its size.
struct InFlight {
    task: tokio::task::JoinHandle<Fetched>,
    size: u64,
}

/// What became of one page request ([`fetch_page`]).
enum Fetched {
    /// Claimed and bought: the answer as received, to keep.
    Bought {
        req: SearchRequest,
        key: String,
        status: u16,
        raw: Vec<u8>,
    },
    /// Another process bought it meanwhile: read from the store.
    Settled {
        response: Box<SearchResponse>,
        at: DateTime<Utc>,
    },
    /// Stopped while another process held it: nothing was sent.
    Held,
    /// Failed; `true` when the request was sent (the claim is released only when nothing
    /// can have been charged).
    Failed(RunError, bool),
}

/// Claims the page `key` and sends `req` ([`claim_page`], then [`send_page`]); a page another
/// process bought is read from the store instead ([`settled_page`]).
async fn fetch_page(
    s: Session,
    ep: Endpoint,
    req: SearchRequest,
    key: String,
    job: Option<JobId>,
    started: DateTime<Utc>,
    stop: CancellationToken,
) -> Fetched {
    match claim_page(&s, &key, job, started, &stop).await {
        Ok(Claim::Mine) => match send_page(&s, &req).await {
            Ok((status, raw)) => Fetched::Bought {
                req,
                key,
                status,
                raw,
            },
            Err(e) => {
                if !e.may_have_charged() {
                    release(&s, vec![key]).await;
                }
                Fetched::Failed(e.into(), true)
            }
        },
        Ok(Claim::Settled) => match settled_page(&s, ep, &req, started).await {
            Ok((response, at)) => Fetched::Settled {
                response: Box::new(response),
                at,
            },
            Err(e) => Fetched::Failed(e, false),
        },
        Ok(Claim::Held) => Fetched::Held,
        Err(e) => Fetched::Failed(e, false),
    }
}

/// Runs a search of up to `limit` results: the fresh stored pages first (0 credits), then
/// pages of [`SEARCH_PAGE`] bought from the last stored cursor, each kept before it is handed
/// to `on_page`, in order. The request of the next page goes out as soon as a page's answer is
/// in, while up to `PAGES_KEEPING` (3) pages are kept on their own tasks. Stops at the limit, at
/// `total`, at an empty page or the end of the cursor, at a cursor that does not advance
/// ([`RunReport::stuck_cursor`]), on `stop` (the page in flight is kept), or on the first error;
/// pages bought before an error are still kept and handed to `on_page` (unless writing them is
/// what failed).
#[allow(clippy::too_many_arguments)]
pub async fn search(
    s: &Session,
    endpoint: &str,
    body: &Value,
    limit: u64,
    fresh: Freshness,
    job: Option<JobId>,
    stop: &CancellationToken,
    mut on_page: impl FnMut(SearchRecords) -> std::io::Result<()>,
) -> RunReport {
    let mut report = RunReport::default();
    let ep = match search_endpoint(endpoint) {
        Ok(e) => e,
        Err(e) => {
            report.fail(e.into());
            return report;
        }
    };
    // Suppressed entities go into the request as the API's exclude filters.
    let (body, suppressed) = crate::suppress::apply_to_body(s, ep, body).await;
    let body = &body;
    report.suppressed = suppressed;
    let started = super::looked_at(fresh == Freshness::Refresh);
    let mut got = 0u64;
    let mut cursor: Option<String> = None;
    let mut position = 0u32;
    let mut end = false;
    let mut total: Option<i64> = None;
    if fresh == Freshness::Stored {
        for page in fresh_chain(s, ep, body).await {
            let Ok(mut response) = SearchResponse::decode(ep, page.response.clone()) else {
                break;
            };
            s.join_page_contacts(&mut response).await;
            // The page's own length says whether the results end; what suppression leaves
            // out here (past what a request carries) is not written.
            let full = records_of(&response) as u64;
            report.suppressed.filter(&mut response);
            let n = records_of(&response) as u64;
            let take = n.min(limit - got) as usize;
            total = total_of(&response).or(total);
            let size = page
                .request
                .get("size")
                .and_then(Value::as_u64)
                .unwrap_or(50);
            let before = cursor.take();
            cursor = cursor_of(&response);
            if cursor.is_none() || full < size {
                end = true;
            }
            // A stored chain whose cursor did not advance repeats itself (issue 34): it stops
            // there, as a bought one does.
            if cursor.is_some() && cursor == before {
                report.stuck_cursor = true;
                end = true;
            }
            if let Err(e) = on_page(SearchRecords {
                response,
                take,
                stored_at: Some(page.fetched_at),
            }) {
                report.fail(RunError::Output(e));
                return report;
            }
            got += take as u64;
            report.owned += take as u64;
            report.records += take as u64;
            position += 1;
            if got >= limit || end {
                return report;
            }
        }
    }
    // Buy the rest: the request of page k+1 goes out while page k is kept. The next page is
    // asked with the answer's `searchAfter`; a v2 answer without one (or a v2 people search
    // with `onePersonPerDomain`, which refuses a cursor) pages with the `from` window while
    // `size + from <= 10001`.
    let mut pages = SearchPages::new(ep, body, got, cursor.clone());
    if pages.ended() {
        end = true;
    }
    // The pipeline: the request of page k+1 goes out as soon as page k's answer is in (its
    // cursor read with `peek`), while page k and the pages before it are kept on their own
    // tasks and the oldest is handed to `on_page`; so the service works while this process
    // keeps and writes. Every request sent is awaited and its answer kept, whatever stops
    // the run.
    let mut fetching: Option<InFlight> = None;
    // The pages received and not yet written, oldest first, each being kept on its own task
    // with the records it counts for.
    let mut keeping: VecDeque<(KeepTask, u64)> = VecDeque::with_capacity(PAGES_KEEPING + 1);
    // Records of `keeping`, not yet in `got`.
    let mut uncounted = 0u64;
    let mut output_failed = false;
    loop {
        let want = limit.saturating_sub(got + uncounted);
        let total_left = total.map(|t| (t.max(0) as u64).saturating_sub(got));
        let more = !end
            && want > 0
            && total_left.is_none_or(|t| t > uncounted)
            && !stop.is_cancelled()
            && report.error.is_none();
        if more {
            match pages.step(want, SEARCH_PAGE) {
                Some((step, size)) => match page_request(ep, body, size, step) {
                    Ok(req) => {
                        // The page is claimed first: a page another process is buying is
                        // waited for and read from the store, not bought again.
                        let key = page_key(s, ep, &req);
                        fetching = Some(InFlight {
                            task: tokio::spawn(fetch_page(
                                s.clone(),
                                ep,
                                req,
                                key,
                                job,
                                started,
                                stop.clone(),
                            )),
                            size,
                        });
                    }
                    Err(e) => report.fail(e.into()),
                },
                None => {
                    report.stuck_cursor |= pages.stuck_cursor();
                    end |= pages.ended();
                }
            }
        }
        let oldest = if keeping.len() >= PAGES_KEEPING || fetching.is_none() {
            keeping.pop_front()
        } else {
            None
        };
        if let Some((task, counted)) = oldest {
            uncounted -= counted;
            match task.await {
                Ok(Ok(mut paid)) => {
                    s.join_page_contacts(&mut paid.value).await;
                    report.suppressed.filter(&mut paid.value);
                    report.absorb(&paid);
                    let n = records_of(&paid.value) as u64;
                    total = total_of(&paid.value).or(total);
                    let take = n.min(limit - got) as usize;
                    got += take as u64;
                    // A page another process bought meanwhile is owned, not bought.
                    match paid.stored_at {
                        Some(_) => report.owned += take as u64,
                        None => report.bought += take as u64,
                    }
                    report.records += take as u64;
                    // Pages bought before a failure are still written; after the output
                    // itself failed, nothing more is.
                    if !output_failed
                        && let Err(e) = on_page(SearchRecords {
                            response: paid.value,
                            take,
                            stored_at: paid.stored_at,
                        })
                    {
                        output_failed = true;
                        report.fail(RunError::Output(e));
                    }
                }
                Ok(Err(e)) => report.fail(e.into()),
                Err(e) => report.fail(RunError::Store(format!("keeping a page failed: {e}"))),
            }
        }
        let Some(InFlight { task, size }) = fetching.take() else {
            if keeping.is_empty() {
                break;
            }
            continue;
        };
        let fetched = task.await.unwrap_or_else(|e| {
            Fetched::Failed(
                RunError::Store(format!("fetching a page failed: {e}")),
                true,
            )
        });
        let got_page = match fetched {
            Fetched::Bought {
                req,
                key,
                status,
                raw,
            } => {
                report.requests += 1;
                let peeked = peek(&raw);
                total = peeked.total.or(total);
                let task = tokio::spawn(keep_page(
                    s.clone(),
                    req,
                    status,
                    raw,
                    position,
                    job,
                    vec![key],
                ));
                Some((peeked.cursor, peeked.records, task))
            }
            Fetched::Settled { response, at } => {
                let cursor_out = cursor_of(&response);
                let n = records_of(&response) as u64;
                let task = tokio::spawn(async move { Ok(Paid::from_store(*response, at)) });
                Some((cursor_out, n, task))
            }
            // Stopped while another process held the page: nothing was sent.
            Fetched::Held => None,
            Fetched::Failed(e, was_sent) => {
                if was_sent {
                    report.requests += 1;
                }
                report.fail(e);
                None
            }
        };
        if let Some((cursor_out, n, task)) = got_page {
            pages.answered(cursor_out, n);
            report.stuck_cursor |= pages.stuck_cursor();
            end |= pages.ended();
            position += 1;
            let counted = size.min(n.max(1));
            uncounted += counted;
            keeping.push_back((task, counted));
        }
    }
    if stop.is_cancelled() && got < limit && !end {
        report.interrupted = true;
    }
    report
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
                    release(s, keys).await;
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

/// Releases claims `keys` of this process (nothing was charged for them).
pub(crate) async fn release(s: &Session, keys: Vec<String>) {
    let owner = s.owner().to_string();
    let _ = with_store(s.store(), move |st| st.release(&keys, &owner)).await;
}

/// Search pages received and being kept at once while the next is fetched: each is written
/// once this many newer ones are on their way.
const PAGES_KEEPING: usize = 3;

/// A page being kept on its own task while the next is fetched.
type KeepTask = tokio::task::JoinHandle<Result<Paid<SearchResponse>, ApiError>>;

/// What one lookup batch gave.
#[derive(Debug)]
struct Batch<T> {
    entries: Vec<LookupEntry<T>>,
    report: RunReport,
}

impl<T> Default for Batch<T> {
    fn default() -> Self {
        Batch {
            entries: Vec::new(),
            report: RunReport::default(),
        }
    }
}

/// Claims `keys` (claim keys) once. Returns indexes into `keys`: (mine: buy them; settled:
/// read them from the store; held: another buyer holds them, look again later).
async fn claim_once(
    s: &Session,
    keys: &[String],
    job: Option<JobId>,
    planned_at: DateTime<Utc>,
) -> Result<(Vec<usize>, Vec<usize>, Vec<usize>), RunError> {
    let ask = keys.to_vec();
    let owner = s.owner().to_string();
    let lease = Utc::now() + chrono::Duration::from_std(CLAIM_LEASE).unwrap_or_default();
    let verdicts = with_store(s.store(), move |st| {
        st.claim(&ask, &owner, job, lease, planned_at)
    })
    .await
    .map_err(RunError::Store)?;
    let (mut mine, mut settled, mut held) = (Vec::new(), Vec::new(), Vec::new());
    for (i, v) in verdicts.into_iter().enumerate() {
        match v {
            Claim::Mine => mine.push(i),
            Claim::Settled => settled.push(i),
            Claim::Held => held.push(i),
        }
    }
    Ok((mine, settled, held))
}

/// What a lookup of one kind of key needs: how a key is claimed, read from the store and
/// bought. One of [`COMPANIES`], [`PEOPLE_BY_HANDLE`], [`PEOPLE_BY_ID`].
struct LookupKind<T> {
    /// The claim key of a normalized key (`company:acme.com`, `handle:ada`, `person:<id>`).
    claim: fn(&str) -> String,
    /// The stored records of these normalized keys, by key.
    stored: fn(Session, Vec<String>) -> BoxFuture<'static, StoredBy<T>>,
    /// Buys these normalized keys in one request (settling `settles`, for `job`): what it cost
    /// and what it found, by normalized key.
    buy: BuyFn<T>,
    /// How its keys are suppressed (issue 16): suppressed keys are refused, never sent.
    suppress: prospect_store::SuppressKind,
}

/// Buys normalized keys in one request: (session, keys, job, claim keys it settles).
type BuyFn<T> =
    fn(Session, Vec<String>, Option<JobId>, Vec<String>) -> BoxFuture<'static, BoughtBy<T>>;

/// Stored records by normalized key.
type StoredBy<T> = HashMap<String, Stored<T>>;

/// What one lookup request cost (its [`Paid`] without the answer) and the records it found,
/// by normalized key.
type BoughtBy<T> = Result<(Paid<()>, HashMap<String, T>), ApiError>;

type BoxFuture<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;

/// Companies by domain (SPEC.md §4.5).
const COMPANIES: LookupKind<Company> = LookupKind {
    claim: prospect_store::company_claim,
    stored: |s, names| {
        Box::pin(async move {
            with_store(s.store(), move |st| st.companies_by_domains(&names))
                .await
                .unwrap_or_default()
        })
    },
    buy: |s, domains, job, settles| {
        Box::pin(async move {
            let req = LookupCompaniesRequest {
                domains,
                fields: None,
            };
            let mut paid = s.buy(&req, job, settles, None).await?;
            let redirects: HashMap<String, String> = paid
                .value
                .redirect_map
                .clone()
                .unwrap_or_default()
                .into_iter()
                .map(|(from, to)| (normalize_domain(&to), normalize_domain(&from)))
                .collect();
            if !redirects.is_empty() {
                // Old domains answer for the companies they redirect to: asked again, owned.
                let pairs: Vec<(String, String)> = redirects
                    .iter()
                    .map(|(to, from)| (from.clone(), to.clone()))
                    .collect();
                if let Err(e) =
                    with_store(s.store(), move |st| st.put_company_aliases(&pairs)).await
                {
                    tracing::warn!(error = %e, "lookup: the redirect aliases were not kept");
                }
            }
            let mut found = HashMap::new();
            for entry in std::mem::take(&mut paid.value.companies) {
                let key = normalize_domain(entry.domain());
                let key = redirects.get(&key).cloned().unwrap_or(key);
                let company = match entry {
                    LookupCompanyEntry::ByDomain { company, .. } => company.map(|c| *c),
                    LookupCompanyEntry::Matched(c) => Some(*c),
                };
                if let Some(c) = company {
                    found.entry(key).or_insert(c);
                }
            }
            Ok((paid.map(|_| ()), found))
        })
    },
    suppress: prospect_store::SuppressKind::Domain,
};

/// People by professional-network handle (SPEC.md §4.6, `linkedinHandles`).
const PEOPLE_BY_HANDLE: LookupKind<LookalikePerson> = LookupKind {
    claim: |h| format!("handle:{h}"),
    stored: |s, names| Box::pin(stored_people(s, names, true)),
    buy: |s, handles, job, settles| Box::pin(buy_people(s, handles, true, job, settles)),
    suppress: prospect_store::SuppressKind::Handle,
};

/// People by the service's id (SPEC.md §4.6, `serviceIds`).
const PEOPLE_BY_ID: LookupKind<LookalikePerson> = LookupKind {
    claim: |id| format!("person:{id}"),
    stored: |s, names| Box::pin(stored_people(s, names, false)),
    buy: |s, ids, job, settles| Box::pin(buy_people(s, ids, false, job, settles)),
    suppress: prospect_store::SuppressKind::Person,
};

/// The stored people of `keys` (handles when `by_handle`, else ids) as lookup records (no
/// score), by key, with their stored contacts joined; none when the store cannot be read.
async fn stored_people(
    s: Session,
    keys: Vec<String>,
    by_handle: bool,
) -> StoredBy<LookalikePerson> {
    with_store(s.store(), move |st| {
        let mut found = if by_handle {
            st.people_by_handles(&keys)?
        } else {
            st.people_by_ids(&keys)?
        };
        st.join_contacts(&mut found.values_mut().map(|p| &mut p.value).collect::<Vec<_>>())?;
        Ok(found)
    })
    .await
    .unwrap_or_default()
    .into_iter()
    .map(|(k, v)| {
        let v = v.map(|person| LookalikePerson {
            person,
            ..LookalikePerson::default()
        });
        (k, v)
    })
    .collect()
}

/// One people lookup request of `keys` (handles when `by_handle`, else service ids): what it
/// cost and the people found, by handle or id, with the contacts the store holds joined.
async fn buy_people(
    s: Session,
    keys: Vec<String>,
    by_handle: bool,
    job: Option<JobId>,
    settles: Vec<String>,
) -> Result<(Paid<()>, HashMap<String, LookalikePerson>), ApiError> {
    let req = if by_handle {
        LookupPeopleRequest {
            linkedin_handles: Some(keys),
            service_ids: None,
        }
    } else {
        LookupPeopleRequest {
            linkedin_handles: None,
            service_ids: Some(keys),
        }
    };
    let mut paid = s.buy(&req, job, settles, None).await?;
    let mut found = HashMap::new();
    for p in std::mem::take(&mut paid.value.people) {
        let key = if by_handle {
            p.person
                .linkedin_url
                .as_deref()
                .and_then(prospect_common::keys::linkedin_handle)
        } else {
            Some(p.person.id.trim().to_string())
        };
        if let Some(k) = key.filter(|k| !k.is_empty()) {
            found.entry(k).or_insert(p);
        }
    }
    s.join_contacts(
        &mut found
            .values_mut()
            .map(|p| &mut p.person)
            .collect::<Vec<_>>(),
    )
    .await;
    Ok((paid.map(|_| ()), found))
}

/// One batch of a lookup: stored keys from the store, the rest claimed, bought (one request)
/// and kept; keys another process holds are waited for and read. `chunk` holds (key as asked,
/// normalized key); the entries come back in its order.
async fn lookup_batch<T: Clone + Send + 'static>(
    s: Session,
    kind: &'static LookupKind<T>,
    chunk: Vec<(String, String)>,
    fresh: Freshness,
    planned_at: DateTime<Utc>,
    job: Option<JobId>,
) -> Batch<T> {
    let mut out = Batch::default();
    let norms: Vec<String> = chunk.iter().map(|c| c.1.clone()).collect();
    // Suppressed keys are refused (issue 16): neither read nor bought.
    let refused: HashMap<String, String> = {
        let (k, n) = (kind.suppress, norms.clone());
        with_store(s.store(), move |st| st.suppressed_among(k, &n))
            .await
            .unwrap_or_default()
    };
    for c in refused.values() {
        *out.report
            .suppressed
            .by_category
            .entry(c.clone())
            .or_default() += 1;
    }
    let norms: Vec<String> = norms
        .into_iter()
        .filter(|n| !refused.contains_key(n))
        .collect();
    let mut known: HashMap<String, Stored<T>> = if fresh == Freshness::Stored {
        (kind.stored)(s.clone(), norms.clone()).await
    } else {
        HashMap::new()
    };
    out.report.owned += known.len() as u64;
    let mut found: HashMap<String, Option<T>> = HashMap::new();
    let mut todo: Vec<String> = norms
        .iter()
        .filter(|n| !known.contains_key(*n))
        .cloned()
        .collect();
    let deadline = Instant::now() + CLAIM_LEASE + Duration::from_secs(30);
    while !todo.is_empty() {
        let claim_keys: Vec<String> = todo.iter().map(|k| (kind.claim)(k)).collect();
        let (mine, settled, held) = match claim_once(&s, &claim_keys, job, planned_at).await {
            Ok(x) => x,
            Err(e) => {
                out.report.fail(e);
                break;
            }
        };
        let held: Vec<String> = held.into_iter().map(|i| todo[i].clone()).collect();
        if !mine.is_empty() {
            let names: Vec<String> = mine.iter().map(|i| todo[*i].clone()).collect();
            let settles: Vec<String> = mine.iter().map(|i| claim_keys[*i].clone()).collect();
            out.report.requests += 1;
            match (kind.buy)(s.clone(), names.clone(), job, settles.clone()).await {
                Ok((paid, mut got)) => {
                    out.report.absorb(&paid);
                    // An answer that did not read whole: a key missing from it may be in the
                    // part that did not read, so it is unread, never "not found" (issue 34);
                    // its claim was released and the next run buys it.
                    let partial = paid.decode_error.is_some();
                    for n in names {
                        match got.remove(&n) {
                            Some(record) => {
                                out.report.bought += 1;
                                found.insert(n, Some(record));
                            }
                            None if partial => out.report.unread += 1,
                            None => {
                                out.report.bought += 1;
                                found.insert(n, None);
                            }
                        }
                    }
                }
                Err(e) => {
                    if !e.may_have_charged() {
                        release(&s, settles).await;
                    }
                    if matches!(e, ApiError::Decode { .. }) {
                        out.report.unread += names.len() as u64;
                    }
                    out.report.fail(e.into());
                    break;
                }
            }
        }
        if !settled.is_empty() {
            let names: Vec<String> = settled.iter().map(|i| todo[*i].clone()).collect();
            let mut got = (kind.stored)(s.clone(), names.clone()).await;
            out.report.owned += names.len() as u64;
            for n in names {
                match got.remove(&n) {
                    Some(hit) => {
                        known.insert(n, hit);
                    }
                    None => {
                        found.insert(n, None);
                    }
                }
            }
        }
        todo = held;
        if !todo.is_empty() {
            if Instant::now() > deadline {
                out.report.fail(RunError::Store(format!(
                    "{} keys stayed claimed by another process for over {} s",
                    todo.len(),
                    CLAIM_LEASE.as_secs() + 30
                )));
                // Their answer is another process's: not known here, so not written.
                todo.clear();
                break;
            }
            tokio::time::sleep(CLAIM_POLL).await;
        }
    }
    // One entry per key whose outcome is known: owned, bought (found or not), or refused. A
    // key left unread (an answer that did not read, an error before it) has none: it is
    // bought by the next run, never written as "not found".
    for (asked, norm) in chunk {
        let entry = match known.remove(&norm) {
            Some(hit) => LookupEntry {
                key: asked,
                record: Some(hit.value),
                stored_at: Some(hit.fetched_at),
                suppressed: None,
            },
            None if refused.contains_key(&norm) => LookupEntry {
                key: asked,
                record: None,
                stored_at: None,
                suppressed: refused.get(&norm).cloned(),
            },
            None => match found.remove(&norm) {
                Some(record) => LookupEntry {
                    key: asked,
                    record,
                    stored_at: None,
                    suppressed: None,
                },
                None => continue,
            },
        };
        out.entries.push(entry);
    }
    out
}

/// Runs a lookup: `keys` streamed in batches of at most `batch` distinct normalized keys
/// (`normalize` gives `None` for a key that is not one), each answered from the store, claimed
/// and bought, or waited for (see [`lookup_batch`]); [`IN_FLIGHT`] batches at once; each
/// batch's entries handed to `on_entries` in input order once kept. Stops taking new batches
/// on `stop` or the first error; batches in flight are always awaited and kept.
#[allow(clippy::too_many_arguments)]
async fn lookup_stream<T: Clone + Send + 'static>(
    s: &Session,
    kind: &'static LookupKind<T>,
    normalize: fn(&str) -> Option<String>,
    batch: usize,
    planned_at: DateTime<Utc>,
    keys: &KeySource,
    fresh: Freshness,
    job: Option<JobId>,
    stop: &CancellationToken,
    mut on_entries: impl FnMut(Vec<LookupEntry<T>>) -> std::io::Result<()>,
) -> RunReport {
    let mut report = RunReport::default();
    let mut it = match keys.iter() {
        Ok(i) => i,
        Err(e) => {
            report.fail(e.into());
            return report;
        }
    };
    let mut seen = HashSet::new();
    let mut exhausted = false;
    let mut inflight = futures::stream::FuturesOrdered::new();
    // A batch's entries are written after the next batch is on its way, so the service
    // answers it while they are.
    let mut ready: Option<Vec<LookupEntry<T>>> = None;
    loop {
        while inflight.len() < IN_FLIGHT
            && !exhausted
            && !stop.is_cancelled()
            && report.error.is_none()
        {
            let mut chunk = Vec::with_capacity(batch);
            while chunk.len() < batch {
                match it.next() {
                    None => {
                        exhausted = true;
                        break;
                    }
                    Some(Err(e)) => {
                        report.fail(e.into());
                        exhausted = true;
                        break;
                    }
                    Some(Ok(k)) => {
                        let Some(n) = normalize(&k) else { continue };
                        if seen.insert(hash_key(&n)) {
                            chunk.push((k.trim().to_string(), n));
                        }
                    }
                }
            }
            if chunk.is_empty() {
                break;
            }
            inflight.push_back(tokio::spawn(lookup_batch(
                s.clone(),
                kind,
                chunk,
                fresh,
                planned_at,
                job,
            )));
        }
        if let Some(entries) = ready.take()
            && report.error.is_none()
            && let Err(e) = on_entries(entries)
        {
            report.fail(RunError::Output(e));
        }
        let Some(done) = inflight.next().await else {
            break;
        };
        match done {
            Ok(batch) => {
                merge(&mut report, batch.report);
                report.records += batch.entries.len() as u64;
                ready = Some(batch.entries);
            }
            Err(e) => report.fail(RunError::Store(format!("a lookup batch failed: {e}"))),
        }
    }
    if stop.is_cancelled() && !exhausted {
        report.interrupted = true;
    }
    report
}

/// Runs a lookup of companies: `keys` streamed in batches of 1,000 distinct domains (a key
/// that is not a domain is left out), each answered from the store, claimed and bought, or
/// waited for; two batches in flight; each batch's entries handed to `on_entries` in input
/// order once kept (see [`lookup_stream`]).
#[allow(clippy::too_many_arguments)]
pub async fn lookup_companies(
    s: &Session,
    planned_at: DateTime<Utc>,
    keys: &KeySource,
    fresh: Freshness,
    job: Option<JobId>,
    stop: &CancellationToken,
    on_entries: impl FnMut(Vec<LookupEntry<Company>>) -> std::io::Result<()>,
) -> RunReport {
    lookup_stream(
        s,
        &COMPANIES,
        prospect_common::keys::domain_key,
        LOOKUP_COMPANIES_MAX,
        planned_at,
        keys,
        fresh,
        job,
        stop,
        on_entries,
    )
    .await
}

fn merge(into: &mut RunReport, from: RunReport) {
    for (c, n) in from.suppressed.by_category {
        *into.suppressed.by_category.entry(c).or_default() += n;
    }
    into.charged += from.charged;
    into.bought += from.bought;
    into.owned += from.owned;
    into.requests += from.requests;
    into.store_errors.extend(from.store_errors);
    into.recovery.extend(from.recovery);
    into.decode_errors.extend(from.decode_errors);
    into.unread += from.unread;
    if let Some(e) = from.error {
        into.fail(e);
    }
}

/// Runs a lookup of people by professional-network handle, or by service id when `ids`, as
/// [`lookup_companies`] does for domains: streamed in batches of 1,000 distinct keys, stored
/// people answered at 0 credits, the rest claimed (`handle:…` / `person:…`), bought and kept.
#[allow(clippy::too_many_arguments)]
pub async fn lookup_people(
    s: &Session,
    planned_at: DateTime<Utc>,
    keys: &KeySource,
    ids: bool,
    fresh: Freshness,
    job: Option<JobId>,
    stop: &CancellationToken,
    on_entries: impl FnMut(Vec<LookupEntry<LookalikePerson>>) -> std::io::Result<()>,
) -> RunReport {
    let kind: &'static LookupKind<LookalikePerson> = if ids {
        &PEOPLE_BY_ID
    } else {
        &PEOPLE_BY_HANDLE
    };
    let normalize: fn(&str) -> Option<String> = if ids {
        super::id_key
    } else {
        prospect_common::keys::linkedin_handle
    };
    lookup_stream(
        s,
        kind,
        normalize,
        LOOKUP_PEOPLE_MAX,
        planned_at,
        keys,
        fresh,
        job,
        stop,
        on_entries,
    )
    .await
}
