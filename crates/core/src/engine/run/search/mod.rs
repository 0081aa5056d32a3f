//! The run of a search (SPEC.md §4.2–§4.4): its stored fresh pages first, then the rest
//! bought page by page by the one paging rule (`super::super::pages`), the request of page k+1
//! going out while page k is kept.

use super::*;
use crate::export::{PageRows, RowForm};
use prospect_api::client::SearchSubject;
use prospect_store::{PageLink, PurchaseId};
use tokio_util::task::AbortOnDropHandle;

mod stored;

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
) -> Vec<prospect_store::PageLink> {
    let identity = search_identity(body);
    let target = s.target().to_string();
    let fresh_for =
        chrono::Duration::from_std(s.policy().search_fresh_for).unwrap_or(chrono::Duration::zero());
    let since = Utc::now() - fresh_for;
    with_store(s.store(), move |st| {
        match st.find_search(endpoint, &identity, &target)? {
            Some(id) => st.page_links_since(id, Some(since)),
            None => Ok(Vec::new()),
        }
    })
    .await
    .unwrap_or_default()
}

/// Plans a search of up to `limit` results: stored pages bought within `search_fresh_for`
/// are owned; the rest is bought from the last stored cursor.
pub(in crate::engine) async fn plan_search(
    s: &Session,
    endpoint: &str,
    body: &Value,
    limit: u64,
    set: Option<&SetSearch>,
    refresh: bool,
) -> Result<Plan, PlanError> {
    let ep = search_endpoint(endpoint)?;
    if limit == 0 {
        return Err(PlanError::Other("the limit must be at least 1".into()));
    }
    check_paging(body).map_err(PlanError::Other)?;
    let (body, suppressed) = crate::suppress::apply_to_body(s, ep, body).await;
    let (body, new_only) = match set.filter(|set| set.new_only) {
        Some(set) => {
            let (body, n) = super::super::sets::apply(s, ep, &body, set, set.run_at)
                .await
                .map_err(|e| PlanError::Other(format!("the store: {e}")))?;
            (body, Some(n))
        }
        None => (body, None),
    };
    let body = &body;
    page_request(ep, body, limit.min(SEARCH_PAGE), Next::Start).map_err(PlanError::Invalid)?;
    let mut p = Plan::new(
        match set {
            Some(set) if set.new_only => format!(
                "new-only search {} of set {} of up to {limit}",
                ep.path(),
                set.name
            ),
            _ => format!("search {} of up to {limit}", ep.path()),
        },
        "search",
        refresh,
    );
    p.asked = limit;
    p.suppressed = suppressed.total();
    p.suppressed_by = suppressed.by_category.clone();
    let mut end = false;
    let mut total = None;
    // A new-only search asks the service what is new: no stored answer stands in for it,
    // unless it goes on with an earlier run (whose stored pages are this same search).
    let stored = !refresh && (new_only.is_none() || goes_on(set));
    p.new_only = new_only;
    if stored {
        for page in fresh_chain(s, ep, body).await {
            let facts = &page.facts;
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

/// Keeps a bought page's answer ([`Session::keep_answer`]) as page `position` of its search,
/// typed by its request; `spans` as [`peek`] read them (company searches only).
#[allow(clippy::too_many_arguments)]
async fn keep_page(
    s: Session,
    req: SearchRequest,
    status: u16,
    raw: Vec<u8>,
    position: u32,
    job: Option<JobId>,
    settles: Vec<String>,
    spans: Option<Vec<std::ops::Range<usize>>>,
) -> Result<Paid<SearchResponse>, ApiError> {
    let request = req.body();
    let identity = search_identity(&request);
    let page = Some((identity, position));
    Ok(match req {
        SearchRequest::CompaniesV3(_) => s
            .keep_answer::<SearchCompaniesV3Request>(
                request, status, raw, job, settles, page, spans,
            )
            .await?
            .map(SearchResponse::CompaniesV3),
        SearchRequest::CompaniesV2(_) => s
            .keep_answer::<SearchCompaniesV2Request>(
                request, status, raw, job, settles, page, spans,
            )
            .await?
            .map(SearchResponse::CompaniesV2),
        SearchRequest::PeopleV3(_) => s
            .keep_answer::<SearchPeopleV3Request>(request, status, raw, job, settles, page, None)
            .await?
            .map(SearchResponse::PeopleV3),
        SearchRequest::PeopleV2(_) => s
            .keep_answer::<SearchPeopleV2Request>(request, status, raw, job, settles, page, None)
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
    /// Where each company record lies in it, for the keep to frame them by
    /// ([`prospect_api::types::search::Skim::company_spans`]).
    spans: Option<Vec<std::ops::Range<usize>>>,
}

/// The `searchAfter`, record count, `total` and company record spans of a raw search answer,
/// read in one pass without decoding the records ([`prospect_api::types::search::skim`]);
/// nothing (no cursor, 0 records) when it does not scan as a search answer.
fn peek(raw: &[u8]) -> Peeked {
    match prospect_api::types::search::skim(raw) {
        Some(s) => Peeked {
            cursor: s.search_after,
            records: s.records,
            total: s.total,
            spans: s.company_spans,
        },
        None => Peeked {
            cursor: None,
            records: 0,
            total: None,
            spans: None,
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
                    s.release(vec![key]).await;
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
pub async fn search(
    s: &Session,
    what: SearchOf<'_>,
    fresh: Freshness,
    job: Option<JobId>,
    stop: &CancellationToken,
    on_page: impl FnMut(SearchRecords) -> std::io::Result<()>,
) -> RunReport {
    let mut report = RunReport::default();
    let SearchOf {
        endpoint,
        body,
        limit,
        set,
        rows,
    } = what;
    let ep = match search_endpoint(endpoint) {
        Ok(e) => e,
        Err(e) => {
            report.fail(e.into());
            return report;
        }
    };
    // Suppressed entities go into the request as the API's exclude filters.
    let (body, suppressed) = crate::suppress::apply_to_body(s, ep, body).await;
    report.suppressed = suppressed;
    // A new-only run sends the set's owned keys as excludes too (those bought before it
    // started), and reads no stored answer unless it goes on with an earlier run.
    let run_start = set.and_then(|set| set.run_at).unwrap_or_else(Utc::now);
    let (body, new_only) = match set.filter(|set| set.new_only) {
        Some(set) => match super::super::sets::apply(s, ep, &body, set, Some(run_start)).await {
            Ok((body, n)) => (body, Some(n)),
            Err(e) => {
                report.fail(RunError::Store(e));
                return report;
            }
        },
        None => (body, None),
    };
    let fresh = match new_only {
        Some(_) if !goes_on(set) => Freshness::Refresh,
        _ => fresh,
    };
    let mut run = SearchRun {
        s,
        ep,
        body: &body,
        limit,
        set: set.map(|set| SetRunning::new(set, ep, new_only, run_start)),
        job,
        started: crate::engine::looked_at(fresh == Freshness::Refresh),
        stop,
        on_page,
        report,
        got: 0,
        position: 0,
        end: false,
        total: None,
        uncounted: 0,
        output_failed: false,
        rows: rows
            .filter(|_| set.is_none() && ep.search_subject() == Some(SearchSubject::Companies)),
        rows_kept: Vec::new(),
    };
    let cursor = match fresh {
        Freshness::Stored => match run.stored_pages().await {
            Some(cursor) => cursor,
            None => return run.report,
        },
        Freshness::Refresh => None,
    };
    run.buy(cursor).await;
    if stop.is_cancelled() && run.got < limit && !run.end {
        run.report.interrupted = true;
    }
    run.finish().await
}

/// Whether the search goes on with an earlier run of its set ([`SetSearch::run_at`]).
fn goes_on(set: Option<&SetSearch>) -> bool {
    set.is_some_and(|set| set.run_at.is_some())
}

/// What a search run asks ([`search`]): the endpoint's path, the body without paging members,
/// the most results, and the saved filter set it runs (issue 37).
#[derive(Debug, Clone, Copy)]
pub struct SearchOf<'a> {
    /// The search endpoint's path, e.g. `/v3/search/companies`.
    pub endpoint: &'a str,
    /// The request body without paging members.
    pub body: &'a Value,
    /// Most results.
    pub limit: u64,
    /// The set it runs: its keys are recorded, and new-only excludes what it owns.
    pub set: Option<&'a SetSearch>,
    /// The form to hand the records on in, rendered ahead ([`SearchRecords::rows`]); the rows
    /// are kept beside each page's purchase, and a run of the same search again writes them
    /// without decoding its stored answers (issue 39). Only a search of companies that runs
    /// no set takes rows; others hand on their answers as when `None`.
    pub rows: Option<RowForm>,
}

/// A search under way ([`search`]): what it asks, and how far it got.
struct SearchRun<'a, F> {
    s: &'a Session,
    ep: Endpoint,
    /// The body as sent (suppression applied).
    body: &'a Value,
    limit: u64,
    /// The saved filter set it runs, when it runs one.
    set: Option<SetRunning>,
    job: Option<JobId>,
    started: DateTime<Utc>,
    stop: &'a CancellationToken,
    on_page: F,
    report: RunReport,
    /// Records handed on.
    got: u64,
    /// The next page's number in the search's chain.
    position: u32,
    /// The results ended (or stopped at a cursor that does not advance).
    end: bool,
    /// The service's `total`, once an answer said it.
    total: Option<i64>,
    /// Records of the pages being kept, not yet in `got`.
    uncounted: u64,
    /// Writing the output failed: nothing more is handed on.
    output_failed: bool,
    /// The form records are handed on in ([`SearchOf::rows`]), when the run takes one.
    rows: Option<RowForm>,
    /// Rows being kept beside their purchases, awaited before the run ends.
    rows_kept: Vec<tokio::task::JoinHandle<()>>,
}

/// A page received and being kept on its own task, with the records it counts for.
type Keeping = (KeepTask, u64);

impl<F: FnMut(SearchRecords) -> std::io::Result<()>> SearchRun<'_, F> {
    /// Buys the rest from `cursor`. The pipeline: the request of page k+1 goes out as soon as
    /// page k's answer is in (its cursor read with `peek`), while page k and the pages before
    /// it are kept on their own tasks and the oldest is handed on; so the service works while
    /// this process keeps and writes. Every request sent is awaited and its answer kept,
    /// whatever stops the run. The next page is asked by the one paging rule
    /// ([`SearchPages`]: the answer's `searchAfter`, else the v2 `from` window).
    async fn buy(&mut self, cursor: Option<String>) {
        let mut pages = SearchPages::new(self.ep, self.body, self.got, cursor);
        if pages.ended() {
            self.end = true;
        }
        let mut keeping: VecDeque<Keeping> = VecDeque::with_capacity(PAGES_KEEPING + 1);
        loop {
            let fetching = match self.wants_more() {
                true => self.send_next(&mut pages),
                false => None,
            };
            let oldest = if keeping.len() >= PAGES_KEEPING || fetching.is_none() {
                keeping.pop_front()
            } else {
                None
            };
            if let Some((task, counted)) = oldest {
                self.uncounted -= counted;
                self.hand_on(task).await;
            }
            let Some(InFlight { task, size }) = fetching else {
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
            if let Some(k) = self.received(fetched, size, &mut pages) {
                keeping.push_back(k);
            }
        }
    }

    /// Whether another page is to be asked: not at the end, the limit or `total`, not stopped,
    /// no error.
    fn wants_more(&self) -> bool {
        let want = self.limit.saturating_sub(self.got + self.uncounted);
        let total_left = self
            .total
            .map(|t| (t.max(0) as u64).saturating_sub(self.got));
        !self.end
            && want > 0
            && total_left.is_none_or(|t| t > self.uncounted)
            && !self.stop.is_cancelled()
            && self.report.error.is_none()
    }

    /// Sends the next page's request on its own task (claimed first: a page another process
    /// is buying is waited for and read from the store, not bought again); `None` when the
    /// paging rule has no next page.
    fn send_next(&mut self, pages: &mut SearchPages) -> Option<InFlight> {
        let want = self.limit.saturating_sub(self.got + self.uncounted);
        let Some((step, size)) = pages.step(want, SEARCH_PAGE) else {
            self.report.stuck_cursor |= pages.stuck_cursor();
            self.end |= pages.ended();
            return None;
        };
        let req = match page_request(self.ep, self.body, size, step) {
            Ok(req) => req,
            Err(e) => {
                self.report.fail(e.into());
                return None;
            }
        };
        let key = page_key(self.s, self.ep, &req);
        let task = tokio::spawn(fetch_page(
            self.s.clone(),
            self.ep,
            req,
            key,
            self.job,
            self.started,
            self.stop.clone(),
        ));
        Some(InFlight { task, size })
    }

    /// A kept page of a set's run ([`SetRunning::page`]): the records of its first `take` to
    /// hand on (all of them when no set runs). `None` when the set's keys could not be
    /// recorded: the run stops there (the page is kept, its error reported), as nothing it
    /// bought may be bought again by the next new-only run unknowingly.
    async fn set_page(
        &mut self,
        page: &mut SearchResponse,
        take: usize,
        stored: bool,
    ) -> Option<usize> {
        let Some(set) = &mut self.set else {
            return Some(take);
        };
        match set.page(self.s, page, take, stored).await {
            Ok(shown) => Some(shown),
            Err(e) => {
                self.report.fail(RunError::Store(format!(
                    "recording the results of the set's run: {e}"
                )));
                None
            }
        }
    }

    /// The run is over: a set's run is recorded with what it found and cost.
    async fn finish(mut self) -> RunReport {
        for kept in std::mem::take(&mut self.rows_kept) {
            let _ = kept.await;
        }
        if let Some(set) = self.set.take() {
            let mut errors = Vec::new();
            let report = set
                .finish(
                    self.s,
                    self.report.records,
                    self.report.charged.standard,
                    self.job,
                    &mut errors,
                )
                .await;
            self.report.store_errors.extend(errors);
            self.report.set = Some(report);
        }
        self.report
    }

    /// Waits for a page being kept and hands its records (up to the limit) on.
    async fn hand_on(&mut self, task: KeepTask) {
        match task.await {
            Ok(Ok(mut paid)) => {
                self.s.join_page_contacts(&mut paid.value).await;
                // Rows that do not render fail the run's output; the page still counts.
                let records = records_of(&paid.value);
                let rendered = self.render(&mut paid.value, paid.purchase);
                let failed = rendered.is_none();
                self.output_failed |= failed;
                self.report.suppressed.filter(&mut paid.value);
                let rows = rendered.flatten().map(|r| self.unsuppressed(r));
                self.report.absorb(&paid);
                let n = match &rows {
                    Some(rows) => rows.len(),
                    None if failed => records,
                    None => records_of(&paid.value),
                } as u64;
                self.total = total_of(&paid.value).or(self.total);
                let take = n.min(self.limit - self.got) as usize;
                self.got += take as u64;
                // A page another process bought meanwhile is owned, not bought.
                match paid.stored_at {
                    Some(_) => self.report.owned += take as u64,
                    None => self.report.bought += take as u64,
                }
                // A set's keys are recorded first; its owned records past the excludes cap
                // (paid again) are not handed on.
                let take = match self.set_page(&mut paid.value, take, false).await {
                    Some(shown) => shown,
                    None => {
                        self.output_failed = true;
                        0
                    }
                };
                self.report.records += take as u64;
                // Pages bought before a failure are still written; after the output itself
                // failed, nothing more is.
                if !self.output_failed
                    && let Err(e) = (self.on_page)(SearchRecords {
                        response: paid.value,
                        take,
                        stored_at: paid.stored_at,
                        rows: rows.map(|r| r.first(take)),
                    })
                {
                    self.output_failed = true;
                    self.report.fail(RunError::Output(e));
                }
            }
            Ok(Err(e)) => self.report.fail(e.into()),
            Err(e) => self
                .report
                .fail(RunError::Store(format!("keeping a page failed: {e}"))),
        }
    }

    /// A page's answer is in: its cursor and records advance the paging rule, and it is kept
    /// on its own task (bought), or read from the store (another process bought it).
    fn received(
        &mut self,
        fetched: Fetched,
        size: u64,
        pages: &mut SearchPages,
    ) -> Option<Keeping> {
        let (cursor_out, n, task) = match fetched {
            Fetched::Bought {
                req,
                key,
                status,
                raw,
            } => {
                self.report.requests += 1;
                let peeked = peek(&raw);
                self.total = peeked.total.or(self.total);
                let task = tokio::spawn(keep_page(
                    self.s.clone(),
                    req,
                    status,
                    raw,
                    self.position,
                    self.job,
                    vec![key],
                    peeked.spans,
                ));
                (peeked.cursor, peeked.records, task)
            }
            Fetched::Settled { response, at } => {
                let cursor_out = cursor_of(&response);
                let n = records_of(&response) as u64;
                let task = tokio::spawn(async move { Ok(Paid::from_store(*response, at)) });
                (cursor_out, n, task)
            }
            // Stopped while another process held the page: nothing was sent.
            Fetched::Held => return None,
            Fetched::Failed(e, was_sent) => {
                if was_sent {
                    self.report.requests += 1;
                }
                self.report.fail(e);
                return None;
            }
        };
        pages.answered(cursor_out, n);
        self.report.stuck_cursor |= pages.stuck_cursor();
        self.end |= pages.ended();
        self.position += 1;
        let counted = size.min(n.max(1));
        self.uncounted += counted;
        Some((task, counted))
    }
}
