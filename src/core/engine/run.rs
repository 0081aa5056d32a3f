//! Running a planned action: claims, paced calls, keeping, and the answers handed to the front
//! end as they come (so a list of a million domains streams through in batches).

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use futures::StreamExt;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::keys::{KeyError, KeySource, hash_key};
use super::{CLAIM_LEASE, Plan, PlanError, SEARCH_PAGE, check_paging, search_cost};
use crate::api::client::Endpoint;
use crate::api::cost::Cost;
use crate::api::error::ApiError;
use crate::api::types::*;
use crate::core::request::{SearchRequest, SearchResponse, build_search};
use crate::core::session::{Freshness, LookupEntry, Paid, Session, search_identity, with_store};
use crate::store::{Claim, ContactKind, JobId, Stored, normalize_domain};

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
    /// The run stopped early on the caller's signal; what was in flight was kept.
    pub interrupted: bool,
    /// A search stopped because the service gave a cursor that does not advance.
    pub stuck_cursor: bool,
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

fn records_of(r: &SearchResponse) -> usize {
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

/// The request of the page of `size` after `cursor` of search `body`.
fn page_request(
    endpoint: Endpoint,
    body: &Value,
    size: u64,
    next: Next,
) -> Result<SearchRequest, PlanError> {
    let mut b = body.clone();
    if let Value::Object(m) = &mut b {
        m.remove("searchAfter");
        m.remove("from");
        m.insert("size".into(), Value::from(size));
        if let Next::From(f) = next
            && f > 1
        {
            m.insert("from".into(), Value::from(f));
        }
    }
    let cursor = match next {
        Next::After(c) => Some(c),
        _ => None,
    };
    let req = build_search(endpoint, &b)
        .map_err(|p| PlanError::Invalid(ApiError::Invalid(p)))?
        .with_search_after(cursor);
    req.check()
        .map_err(|p| PlanError::Invalid(ApiError::Invalid(p)))?;
    Ok(req)
}

/// The stored, fresh pages of a search (see [`crate::store::Store::pages_since`]).
async fn fresh_chain(
    s: &Session,
    endpoint: Endpoint,
    body: &Value,
) -> Vec<crate::store::StoredPage> {
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
    page_request(ep, body, limit.min(SEARCH_PAGE), Next::Start)?;
    let mut p = Plan::new(
        format!("search {} of up to {limit}", ep.path()),
        "search",
        refresh,
    );
    p.asked = limit;
    let mut end = false;
    let mut total = None;
    if !refresh {
        for page in fresh_chain(s, ep, body).await {
            let facts = crate::store::PageFacts::of_answer(&page.response);
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
        SearchRequest::CompaniesV3(r) => s.client().send_raw(&**r).await,
        SearchRequest::CompaniesV2(r) => s.client().send_raw(&**r).await,
        SearchRequest::PeopleV3(r) => s.client().send_raw(&**r).await,
        SearchRequest::PeopleV2(r) => s.client().send_raw(&**r).await,
    }
}

async fn keep_page(
    s: Session,
    req: SearchRequest,
    status: u16,
    raw: Vec<u8>,
    position: u32,
    job: Option<JobId>,
) -> Result<Paid<SearchResponse>, ApiError> {
    let (request, identity) = {
        let v = match &req {
            SearchRequest::CompaniesV3(r) => serde_json::to_value(&**r),
            SearchRequest::CompaniesV2(r) => serde_json::to_value(&**r),
            SearchRequest::PeopleV3(r) => serde_json::to_value(&**r),
            SearchRequest::PeopleV2(r) => serde_json::to_value(&**r),
        }
        .unwrap_or(Value::Null);
        let id = search_identity(&v);
        (v, id)
    };
    let page = Some((identity, position));
    Ok(match req {
        SearchRequest::CompaniesV3(_) => s
            .keep_answer::<SearchCompaniesV3Request>(request, status, raw, job, Vec::new(), page)
            .await?
            .map(SearchResponse::CompaniesV3),
        SearchRequest::CompaniesV2(_) => s
            .keep_answer::<SearchCompaniesV2Request>(request, status, raw, job, Vec::new(), page)
            .await?
            .map(SearchResponse::CompaniesV2),
        SearchRequest::PeopleV3(_) => s
            .keep_answer::<SearchPeopleV3Request>(request, status, raw, job, Vec::new(), page)
            .await?
            .map(SearchResponse::PeopleV3),
        SearchRequest::PeopleV2(_) => s
            .keep_answer::<SearchPeopleV2Request>(request, status, raw, job, Vec::new(), page)
            .await?
            .map(SearchResponse::PeopleV2),
    })
}

/// The `searchAfter` of a raw search answer and its record count, read without decoding the
/// records (each is skipped, not built).
fn peek(raw: &[u8]) -> (Option<String>, u64) {
    #[derive(serde::Deserialize)]
    struct Peek {
        #[serde(rename = "searchAfter", default)]
        search_after: Option<String>,
        #[serde(default)]
        companies: Vec<serde::de::IgnoredAny>,
        #[serde(default)]
        people: Vec<serde::de::IgnoredAny>,
    }
    match serde_json::from_slice::<Peek>(raw) {
        Ok(p) => (
            p.search_after.filter(|c| !c.is_empty()),
            (p.companies.len() + p.people.len()) as u64,
        ),
        Err(_) => (None, 0),
    }
}

/// Runs a search of up to `limit` results: the fresh stored pages first (0 credits), then
/// pages of [`SEARCH_PAGE`] bought from the last stored cursor, each kept before it is handed
/// to `on_page`; keeping one page overlaps fetching the next. Stops at the limit, at `total`,
/// at an empty page or the end of the cursor, at a cursor that does not advance
/// ([`RunReport::stuck_cursor`]), on `stop` (the page in flight is kept), or on the first error.
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
    let mut got = 0u64;
    let mut cursor: Option<String> = None;
    let mut position = 0u32;
    let mut end = false;
    let mut total: Option<i64> = None;
    if fresh == Freshness::Stored {
        for page in fresh_chain(s, ep, body).await {
            let Ok(response) = SearchResponse::decode(ep, page.response.clone()) else {
                break;
            };
            let n = records_of(&response) as u64;
            let take = n.min(limit - got) as usize;
            total = total_of(&response).or(total);
            let size = page
                .request
                .get("size")
                .and_then(Value::as_u64)
                .unwrap_or(50);
            cursor = cursor_of(&response);
            if cursor.is_none() || n < size {
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
    let v2 = matches!(ep, Endpoint::SearchCompaniesV2 | Endpoint::SearchPeopleV2);
    let one_per_domain = body
        .get("onePersonPerDomain")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let start_from = body
        .get("from")
        .and_then(Value::as_u64)
        .filter(|f| v2 && *f > 1);
    let mut next = match (&cursor, v2 && one_per_domain, start_from) {
        (_, true, f) => Some(Next::From(f.unwrap_or(1) + got)),
        (Some(c), false, _) => Some(Next::After(c.clone())),
        (None, false, Some(f)) if got == 0 => Some(Next::From(f)),
        (None, false, None) if got == 0 => Some(Next::Start),
        (None, false, _) => None,
    };
    let base_from = start_from.unwrap_or(1);
    if next.is_none() {
        end = true;
    }
    // Records asked for so far in this chain (the `from` of the next window, less one).
    let mut asked_records = got + base_from - 1;
    let mut pending: Option<(KeepTask, u64)> = None;
    let mut asked_after: HashSet<String> = HashSet::new();
    loop {
        let in_flight = pending.as_ref().map_or(0, |p| p.1);
        let want = limit.saturating_sub(got + in_flight);
        let total_left = total.map(|t| (t.max(0) as u64).saturating_sub(got));
        let more = !end
            && want > 0
            && total_left.is_none_or(|t| t > in_flight)
            && !stop.is_cancelled()
            && report.error.is_none();
        let mut sent = None;
        if let (true, Some(step)) = (more, next.clone()) {
            let mut size = want.min(SEARCH_PAGE);
            if let Next::From(f) = step {
                size = size.min(V2_WINDOW.saturating_sub(f));
            }
            if let Next::After(c) = &step
                && !asked_after.insert(c.clone())
            {
                report.stuck_cursor = true;
                end = true;
            } else if size == 0 {
                end = true;
            } else {
                match page_request(ep, body, size, step.clone()) {
                    Ok(req) => {
                        report.requests += 1;
                        match send_page(s, &req).await {
                            Ok((status, raw)) => {
                                let (cursor_out, n) = peek(&raw);
                                asked_records += n;
                                next = match (cursor_out, &step) {
                                    (Some(c), Next::After(prev)) if c == *prev => {
                                        report.stuck_cursor = true;
                                        None
                                    }
                                    (Some(c), _) if !(v2 && one_per_domain) => Some(Next::After(c)),
                                    _ if v2 && n == size => Some(Next::From(1 + asked_records)),
                                    _ => None,
                                };
                                if n == 0 || next.is_none() {
                                    end = true;
                                }
                                let task = tokio::spawn(keep_page(
                                    s.clone(),
                                    req,
                                    status,
                                    raw,
                                    position,
                                    job,
                                ));
                                position += 1;
                                sent = Some((task, size.min(n.max(1))));
                            }
                            Err(e) => report.fail(e.into()),
                        }
                    }
                    Err(e) => report.fail(e.into()),
                }
            }
        }
        if let Some((task, _)) = pending.take() {
            match task.await {
                Ok(Ok(paid)) => {
                    report.absorb(&paid);
                    let n = records_of(&paid.value) as u64;
                    total = total_of(&paid.value).or(total);
                    let take = n.min(limit - got) as usize;
                    got += take as u64;
                    report.bought += take as u64;
                    report.records += take as u64;
                    if let Err(e) = on_page(SearchRecords {
                        response: paid.value,
                        take,
                        stored_at: None,
                    }) {
                        report.fail(RunError::Output(e));
                    }
                }
                Ok(Err(e)) => report.fail(e.into()),
                Err(e) => report.fail(RunError::Store(format!("keeping a page failed: {e}"))),
            }
        }
        match sent {
            Some(p) => pending = Some(p),
            None => break,
        }
    }
    if stop.is_cancelled() && got < limit && !end {
        report.interrupted = true;
    }
    report
}

/// Highest `size + from` of the v2 searches (SPEC.md §8).
pub const V2_WINDOW: u64 = 10_001;

/// A page being kept on its own task while the next is fetched.
type KeepTask = tokio::task::JoinHandle<Result<Paid<SearchResponse>, ApiError>>;

/// Where the next page of a search starts.
#[derive(Debug, Clone, PartialEq)]
enum Next {
    /// The first page.
    Start,
    /// After this `searchAfter` cursor.
    After(String),
    /// At this 1-based `from` (v2 windows).
    From(u64),
}

/// What one lookup batch gave.
#[derive(Debug, Default)]
struct Batch<T> {
    entries: Vec<LookupEntry<T>>,
    report: RunReport,
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

/// One batch of a company lookup: stored domains from the store, the rest claimed, bought
/// (one request) and kept; domains another process holds are waited for and read.
async fn lookup_companies_batch(
    s: Session,
    chunk: Vec<(String, String)>,
    fresh: Freshness,
    planned_at: DateTime<Utc>,
    job: Option<JobId>,
) -> Batch<Company> {
    let mut out = Batch::default();
    let norms: Vec<String> = chunk.iter().map(|c| c.1.clone()).collect();
    let mut known: HashMap<String, Stored<Company>> = if fresh == Freshness::Stored {
        let n = norms.clone();
        with_store(s.store(), move |st| st.companies_by_domains(&n))
            .await
            .unwrap_or_default()
    } else {
        HashMap::new()
    };
    out.report.owned += known.len() as u64;
    let mut found: HashMap<String, Option<Company>> = HashMap::new();
    let mut todo: Vec<String> = norms
        .iter()
        .filter(|n| !known.contains_key(*n))
        .cloned()
        .collect();
    let deadline = Instant::now() + CLAIM_LEASE + Duration::from_secs(30);
    while !todo.is_empty() {
        let claim_keys: Vec<String> = todo.iter().map(|d| format!("company:{d}")).collect();
        let (mine, settled, held) = match claim_once(&s, &claim_keys, job, planned_at).await {
            Ok(x) => x,
            Err(e) => {
                out.report.fail(e);
                break;
            }
        };
        let held: Vec<String> = held.into_iter().map(|i| todo[i].clone()).collect();
        if !mine.is_empty() {
            let domains: Vec<String> = mine.iter().map(|i| todo[*i].clone()).collect();
            let settles: Vec<String> = mine.iter().map(|i| claim_keys[*i].clone()).collect();
            let req = LookupCompaniesRequest {
                domains: domains.clone(),
                fields: None,
            };
            out.report.requests += 1;
            match s.buy(&req, job, settles.clone(), None).await {
                Ok(paid) => {
                    out.report.absorb(&paid);
                    out.report.bought += domains.len() as u64;
                    let redirects: HashMap<String, String> = paid
                        .value
                        .redirect_map
                        .clone()
                        .unwrap_or_default()
                        .into_iter()
                        .map(|(from, to)| (normalize_domain(&to), normalize_domain(&from)))
                        .collect();
                    for d in &domains {
                        found.entry(d.clone()).or_insert(None);
                    }
                    for entry in paid.value.companies {
                        let key = normalize_domain(entry.domain());
                        let key = redirects.get(&key).cloned().unwrap_or(key);
                        let company = entry.company().cloned();
                        let slot = found.entry(key).or_insert(None);
                        if slot.is_none() {
                            *slot = company;
                        }
                    }
                }
                Err(e) => {
                    if !e.may_have_charged() {
                        let owner = s.owner().to_string();
                        let _ = with_store(s.store(), move |st| st.release(&settles, &owner)).await;
                    }
                    out.report.fail(e.into());
                    break;
                }
            }
        }
        if !settled.is_empty() {
            let names: Vec<String> = settled.iter().map(|i| todo[*i].clone()).collect();
            let n = names.clone();
            let got = with_store(s.store(), move |st| st.companies_by_domains(&n))
                .await
                .unwrap_or_default();
            out.report.owned += names.len() as u64;
            for d in names {
                match got.get(&d) {
                    Some(hit) => {
                        known.insert(d, hit.clone());
                    }
                    None => {
                        found.insert(d, None);
                    }
                }
            }
        }
        todo = held;
        if !todo.is_empty() {
            if Instant::now() > deadline {
                out.report.fail(RunError::Store(format!(
                    "{} domains stayed claimed by another process for over {} s",
                    todo.len(),
                    CLAIM_LEASE.as_secs() + 30
                )));
                for d in std::mem::take(&mut todo) {
                    found.insert(d, None);
                }
                break;
            }
            tokio::time::sleep(CLAIM_POLL).await;
        }
    }
    for (asked, norm) in chunk {
        let entry = match known.remove(&norm) {
            Some(hit) => LookupEntry {
                key: asked,
                record: Some(hit.value),
                stored_at: Some(hit.fetched_at),
            },
            None => LookupEntry {
                key: asked,
                record: found.get(&norm).cloned().flatten(),
                stored_at: None,
            },
        };
        out.entries.push(entry);
    }
    out
}

/// Runs a lookup of companies: `keys` streamed in batches of 1,000 distinct domains, each
/// answered from the store, claimed and bought, or waited for (see
/// [`lookup_companies_batch`]); two batches in flight; each batch's entries handed to
/// `on_entries` in input order once kept. Stops taking new batches on `stop` or the first
/// error; batches in flight are always awaited and kept.
#[allow(clippy::too_many_arguments)]
pub async fn lookup_companies(
    s: &Session,
    planned_at: DateTime<Utc>,
    keys: &KeySource,
    fresh: Freshness,
    job: Option<JobId>,
    stop: &CancellationToken,
    mut on_entries: impl FnMut(Vec<LookupEntry<Company>>) -> std::io::Result<()>,
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
    loop {
        while inflight.len() < IN_FLIGHT
            && !exhausted
            && !stop.is_cancelled()
            && report.error.is_none()
        {
            let mut chunk = Vec::with_capacity(LOOKUP_COMPANIES_MAX);
            while chunk.len() < LOOKUP_COMPANIES_MAX {
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
                        let n = normalize_domain(&k);
                        if n.is_empty() || !n.contains('.') || !seen.insert(hash_key(&n)) {
                            continue;
                        }
                        chunk.push((k.trim().to_string(), n));
                    }
                }
            }
            if chunk.is_empty() {
                break;
            }
            inflight.push_back(tokio::spawn(lookup_companies_batch(
                s.clone(),
                chunk,
                fresh,
                planned_at,
                job,
            )));
        }
        let Some(done) = inflight.next().await else {
            break;
        };
        match done {
            Ok(batch) => {
                merge(&mut report, batch.report);
                report.records += batch.entries.len() as u64;
                if report.error.is_none()
                    && let Err(e) = on_entries(batch.entries)
                {
                    report.fail(RunError::Output(e));
                }
            }
            Err(e) => report.fail(RunError::Store(format!("a lookup batch failed: {e}"))),
        }
    }
    if stop.is_cancelled() && !exhausted {
        report.interrupted = true;
    }
    report
}

fn merge(into: &mut RunReport, from: RunReport) {
    into.charged += from.charged;
    into.bought += from.bought;
    into.owned += from.owned;
    into.requests += from.requests;
    into.store_errors.extend(from.store_errors);
    into.recovery.extend(from.recovery);
    into.decode_errors.extend(from.decode_errors);
    if let Some(e) = from.error {
        into.fail(e);
    }
}

/// Runs a lookup of people through the session's batches (stored people answered at 0
/// credits), handing the entries to `on_entries` once kept.
pub async fn lookup_people(
    s: &Session,
    keys: &KeySource,
    ids: bool,
    fresh: Freshness,
    mut on_entries: impl FnMut(Vec<LookupEntry<LookalikePerson>>) -> std::io::Result<()>,
) -> RunReport {
    let mut report = RunReport::default();
    let list = match keys.read_all() {
        Ok(l) => l,
        Err(e) => {
            report.fail(e.into());
            return report;
        }
    };
    let (handles, service_ids) = if ids {
        (Vec::new(), list)
    } else {
        (list, Vec::new())
    };
    match s.lookup_people(&handles, &service_ids, fresh).await {
        Ok(l) => {
            report.charged += l.charged;
            report.owned += l.from_store as u64;
            report.bought += l.sent as u64;
            report.requests += l.requests as u32;
            report.store_errors.extend(l.store_error);
            report.records += l.entries.len() as u64;
            if let Err(e) = on_entries(l.entries) {
                report.fail(RunError::Output(e));
            }
        }
        Err(e) => report.fail(e.into()),
    }
    report
}
