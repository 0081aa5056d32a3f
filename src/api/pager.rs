//! Paging through a search, for export: fetch up to N results page by page, following
//! `searchAfter` (v2 and v3) or `from` (v2), as a [`Pager`] or a `futures::Stream` of items
//! (SPEC.md §4.2, §4.3, §8: "results beyond 10000: use `searchAfter`").
//!
//! Rules:
//! - Pages have the request's `size` (default 50); the last one asks only for what is still
//!   needed, so no credit is spent on results beyond N (searches are priced per result).
//! - v3: the next page is requested with the `searchAfter` of the previous answer; no cursor
//!   means the end. v2: the same, except with `onePersonPerDomain: true` (which cannot be
//!   combined with `searchAfter`) or when the answer has no cursor, where `from` advances by the
//!   page length while `size + from <= 10001` holds.
//! - Stops at N results, at `total`, at an empty page, at the end of the cursor, or on the
//!   first error (yielded once). A page is never requested twice: a cursor already used, or a
//!   `from` that does not advance, ends the pager.

use std::collections::HashSet;

use futures::Stream;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::api::client::{ApiRequest, Client};
use crate::api::cost::DEFAULT_SEARCH_SIZE;
use crate::api::error::ApiError;
use crate::api::types::common::lenient;
use crate::api::types::*;

/// Highest `size + from` of v2 searches (SPEC.md §8).
pub const V2_WINDOW: u64 = 10_001;

/// A search request that can be paged. Implemented for the v2 and v3 company and people
/// searches (the preview answer has no cursor, so it is one page).
pub trait Paginated: ApiRequest + DeserializeOwned + Clone + Send + Sync + 'static {
    /// One result: `CompanyWithScore` (v2 companies), `CompanyWithRelevance` (v3 companies),
    /// `Person` (v2 people), `LookalikePerson` (v3 people).
    type Item: DeserializeOwned + Send + 'static;
    /// `true` for the v2 searches, which also page with `from`.
    const HAS_FROM: bool;
}

impl Paginated for SearchCompaniesV2Request {
    type Item = CompanyWithScore;
    const HAS_FROM: bool = true;
}
impl Paginated for SearchCompaniesV3Request {
    type Item = CompanyWithRelevance;
    const HAS_FROM: bool = false;
}
impl Paginated for SearchPeopleV2Request {
    type Item = Person;
    const HAS_FROM: bool = true;
}
impl Paginated for SearchPeopleV3Request {
    type Item = LookalikePerson;
    const HAS_FROM: bool = false;
}

/// The paging members of any search answer: `searchAfter`, `total`, and the results under
/// `companies` or `people`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", bound = "I: DeserializeOwned")]
struct PageEnvelope<I> {
    #[serde(default)]
    search_after: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    total: Option<i64>,
    #[serde(
        default = "Vec::new",
        rename = "companies",
        alias = "people",
        deserialize_with = "lenient::vec_or_null"
    )]
    items: Vec<I>,
}

/// Fetches up to `limit` results of a search page by page (see the module docs).
pub struct Pager<R: Paginated> {
    client: Client,
    base: Value,
    limit: u64,
    page_size: u64,
    fetched: u64,
    first_from: u64,
    from: u64,
    cursor: Option<String>,
    use_from: bool,
    seen: HashSet<String>,
    total: Option<u64>,
    pages: u32,
    done: bool,
    _req: std::marker::PhantomData<fn() -> R>,
}

impl<R: Paginated> Pager<R> {
    /// A pager over `req` (its filters, `size` as page size, `from` / `searchAfter` as the
    /// starting point) fetching at most `limit` results in total.
    pub fn new(client: &Client, req: &R, limit: u64) -> Pager<R> {
        let base = serde_json::to_value(req).unwrap_or(Value::Null);
        let page_size = base
            .get("size")
            .and_then(Value::as_u64)
            .unwrap_or(DEFAULT_SEARCH_SIZE)
            .max(1);
        let cursor = base
            .get("searchAfter")
            .and_then(Value::as_str)
            .map(str::to_string);
        let from = if R::HAS_FROM && cursor.is_none() {
            base.get("from").and_then(Value::as_u64).unwrap_or(1).max(1)
        } else {
            1
        };
        let one_per_domain = base
            .get("onePersonPerDomain")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        Pager {
            client: client.clone(),
            base,
            limit,
            page_size,
            fetched: 0,
            first_from: from,
            from,
            cursor,
            use_from: R::HAS_FROM && one_per_domain,
            seen: HashSet::new(),
            total: None,
            pages: 0,
            done: limit == 0,
            _req: std::marker::PhantomData,
        }
    }

    /// Results yielded so far.
    pub fn fetched(&self) -> u64 {
        self.fetched
    }

    /// `total` of the last answer, when the service gave one.
    pub fn total(&self) -> Option<u64> {
        self.total
    }

    /// Pages requested so far.
    pub fn pages(&self) -> u32 {
        self.pages
    }

    /// `true` once no further page will be requested.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The request for the next page: the base body with `size`, and `searchAfter` or `from`.
    fn next_request(&self, size: u64) -> Result<R, ApiError> {
        let mut v = self.base.clone();
        if let Some(obj) = v.as_object_mut() {
            obj.insert("size".into(), Value::from(size));
            obj.remove("searchAfter");
            if R::HAS_FROM {
                obj.remove("from");
            }
            match &self.cursor {
                Some(c) => {
                    obj.insert("searchAfter".into(), Value::from(c.clone()));
                }
                None if R::HAS_FROM => {
                    obj.insert("from".into(), Value::from(self.from));
                }
                None => {}
            }
        }
        serde_json::from_value(v).map_err(|e| ApiError::Decode {
            path: "request".into(),
            message: e.to_string(),
        })
    }

    /// Fetches the next page: `None` when done, `Some(Err)` once on failure (then done).
    pub async fn next_page(&mut self) -> Option<Result<Vec<R::Item>, ApiError>> {
        if self.done {
            return None;
        }
        let mut size = self.page_size.min(self.limit - self.fetched);
        if let Some(t) = self.total {
            let position = self.first_from - 1 + self.fetched;
            size = size.min(t.saturating_sub(position));
        }
        if R::HAS_FROM && self.cursor.is_none() {
            size = size.min(V2_WINDOW.saturating_sub(self.from));
        }
        if size == 0 {
            self.done = true;
            return None;
        }
        if let Some(c) = &self.cursor
            && !self.seen.insert(c.clone())
        {
            // This cursor was used already: asking again would re-request a page.
            self.done = true;
            return None;
        }
        let req = match self.next_request(size) {
            Ok(r) => r,
            Err(e) => {
                self.done = true;
                return Some(Err(e));
            }
        };
        self.pages += 1;
        let page: PageEnvelope<R::Item> = match self.client.send_as(&req).await {
            Ok(p) => p,
            Err(e) => {
                self.done = true;
                return Some(Err(e));
            }
        };
        let mut items = page.items;
        items.truncate(size as usize);
        let n = items.len() as u64;
        self.fetched += n;
        if let Some(t) = page.total {
            self.total = Some(t.max(0) as u64);
        }
        let next_cursor = page.search_after.filter(|c| !c.is_empty());
        if n == 0 || self.fetched >= self.limit {
            self.done = true;
        } else if let Some(t) = self.total
            && self.first_from - 1 + self.fetched >= t
        {
            self.done = true;
        } else if !self.use_from && next_cursor.is_some() {
            self.cursor = next_cursor;
        } else if R::HAS_FROM && self.cursor.is_none() {
            // v2 without a cursor (or with onePersonPerDomain): advance `from`.
            self.from += n;
            if self.from >= V2_WINDOW {
                self.done = true;
            }
        } else {
            // v3 without a cursor, or a cursor-paged v2 whose cursor ran out.
            self.done = true;
        }
        Some(Ok(items))
    }

    /// The results one by one as a stream; an error is yielded once and ends it.
    pub fn into_stream(self) -> impl Stream<Item = Result<R::Item, ApiError>> + Send + 'static
    where
        R::Item: Send,
    {
        use futures::StreamExt;
        futures::stream::unfold(self, |mut pager| async move {
            let page = pager.next_page().await?;
            let items: Vec<Result<R::Item, ApiError>> = match page {
                Ok(v) => v.into_iter().map(Ok).collect(),
                Err(e) => vec![Err(e)],
            };
            Some((futures::stream::iter(items), pager))
        })
        .flatten()
    }
}

/// Up to `limit` results of `req` as a stream, for export: `Pager::new(client, req, limit)
/// .into_stream()`.
pub fn search_stream<R: Paginated>(
    client: &Client,
    req: &R,
    limit: u64,
) -> impl Stream<Item = Result<R::Item, ApiError>> + Send + 'static {
    Pager::new(client, req, limit).into_stream()
}
