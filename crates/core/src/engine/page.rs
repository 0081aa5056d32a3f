//! One page of a search as the explorer asks it (issue 35: its `n`, its export, a reopened
//! search continued; the request built by [`super::PagedSearch`]), through the engine: the same
//! page bought within `search_fresh_for` is read from the store at 0 credits; else it is
//! claimed as the engine's search claims its pages (a page another process is buying is waited
//! for and read, not bought twice), bought, and kept with its history row before it is shown.
//! A page of a saved set's run adds the set's part ([`super::set_pages`]).

use chrono::{DateTime, Utc};

use super::set_pages::{SetFacts, search_set_page};
use super::sets::SetSearch;
use crate::request::{SearchRequest, SearchResponse};
use crate::session::{Freshness, Paid, Session};
use prospect_api::error::ApiError;
use prospect_store::SearchId;

/// A page of a search, kept: the answer as the explorer shows it (suppressed entities left
/// out, contacts the store holds joined), its history row, and what a set's run made of it.
#[derive(Debug)]
pub struct PageRead {
    /// The answer, with what it cost and when the store bought it (a page read at 0 credits).
    pub paid: Paid<SearchResponse>,
    /// The history row it is stored under (`None` when it could not be stored).
    pub search_id: Option<SearchId>,
    /// For a page of a saved set's run (issue 37): what is new to the set.
    pub set: Option<SetFacts>,
}

/// Page `page` (0-based) of a search, asked with `req` (built by [`super::PagedSearch::ask`]):
/// read from the store when [`Freshness::Stored`] and bought within `search_fresh_for`, else
/// bought and kept with its history row. With `set`, the page belongs to that set's run started
/// at the given time: a new-only page excludes what the set owned then and is bought fresh, and
/// its keys join the set's. Errors: the client's ([`ApiError`]); a new-only page whose set's
/// earlier runs cannot be read ([`ApiError::Refused`], nothing sent).
pub async fn search_page(
    s: &Session,
    req: &SearchRequest,
    page: u32,
    fresh: Freshness,
    set: Option<(&SetSearch, DateTime<Utc>)>,
) -> Result<PageRead, ApiError> {
    match set {
        Some((set, run_at)) => {
            let read = search_set_page(s, req, page, fresh, set, run_at).await?;
            Ok(PageRead {
                paid: read.paid,
                search_id: read.search_id,
                set: Some(read.facts),
            })
        }
        None => {
            let (paid, search_id) = super::buy_page(s, req, page, fresh).await?;
            Ok(PageRead {
                paid,
                search_id,
                set: None,
            })
        }
    }
}
