//! The run of a search (SPEC.md §4.2–§4.4): its stored fresh pages first, then the rest
//! bought page by page by the one paging rule (`super::super::pages`), the request of page k+1
//! going out while page k is kept.

use super::*;

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
pub(in crate::engine) async fn plan_search(
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
    let started = crate::engine::looked_at(fresh == Freshness::Refresh);
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
