//! A search read one page at a time, as the explorer reads it (its `n` and its export; issue
//! 35), by the one paging rule ([`SearchPages`]). The front end holds a [`PagedSearch`] and
//! hands back what each answer said ([`PageEnd`], read from the answer by the engine); it
//! never builds a page's request, reads a `searchAfter` cursor or counts a `from` window.
//!
//! The life of a page: [`PagedSearch::ask`] says what the next page is ([`PageAsk`]: its
//! request, SPEC.md §4.2–§4.4), [`PagedSearch::sent`] gives it out, and
//! [`PagedSearch::answered`] (or [`PagedSearch::failed`]) takes its answer. While a page is
//! out, no other is asked.

use prospect_api::error::ApiError;

use super::pages::{SearchPages, page_request};
use crate::request::{SearchRequest, SearchResponse};

/// How a page's answer ended, for the paging rule: the `searchAfter` it named (an empty one
/// is none) and how many records it held. Read from the answer by [`PageEnd::of`]; front ends
/// carry it without looking inside.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageEnd {
    cursor: Option<String>,
    records: u64,
}

impl PageEnd {
    /// What `response` says for the next page: its cursor and its records (as shown: records
    /// left out after the answer, as suppressed, are not counted).
    pub fn of(response: &SearchResponse) -> PageEnd {
        PageEnd {
            cursor: super::run::cursor_of(response),
            records: super::run::records_of(response) as u64,
        }
    }
}

/// The next page of a [`PagedSearch`]: its request (`size`, `from` and `searchAfter` as the
/// paging rule says) and its 0-based number in the search (the history keeps one row per
/// page).
#[derive(Debug, Clone, PartialEq)]
pub struct PageAsk {
    request: SearchRequest,
    position: u32,
    /// Its size, as the paging rule gave it.
    size: u64,
}

impl PageAsk {
    /// The page's request, checked as the client checks it.
    pub fn request(&self) -> &SearchRequest {
        &self.request
    }

    /// The page's 0-based number in its search.
    pub fn position(&self) -> u32 {
        self.position
    }
}

/// A search read page by page: its first request and the paging rule's state after the pages
/// read so far.
#[derive(Debug, Clone, PartialEq)]
pub struct PagedSearch {
    first: SearchRequest,
    pages: SearchPages,
    /// Pages answered so far (the next page's number).
    read: u32,
}

impl PagedSearch {
    /// The search of `first` (the request of its first page, whose `size` is the page size of
    /// every page), before any page was read.
    pub fn new(first: SearchRequest) -> PagedSearch {
        let pages = SearchPages::new(first.endpoint(), &first.body(), 0, None);
        PagedSearch {
            first,
            pages,
            read: 0,
        }
    }

    /// The search of `first` with its first page asked and given out: the page's ask, and
    /// the search to hand its answer to. Errors: [`ApiError::Invalid`] when the request does
    /// not check; [`ApiError::Refused`] when it asks for no page at all (a v2 `from` past the
    /// window). Nothing is sent either way.
    pub fn first_page(first: SearchRequest) -> Result<(PagedSearch, PageAsk), ApiError> {
        let mut search = PagedSearch::new(first);
        let size = search.first.page_size();
        let ask = search.ask(size)?.ok_or_else(|| {
            ApiError::Refused("the search asks for no page (its `from` is past the window)".into())
        })?;
        search.sent(&ask);
        Ok((search, ask))
    }

    /// The search of `first` after its `stored` pages, in order (a stored search reopened, or
    /// the pages an export's run read and bought): the next page continues after the last
    /// one's cursor, or ends there: at an answer without one, or at a cursor that an earlier
    /// page had named already ([`PagedSearch::stuck_cursor`]).
    pub fn reopened<'a>(
        first: SearchRequest,
        stored: impl IntoIterator<Item = &'a PageEnd>,
    ) -> PagedSearch {
        let (mut got, mut read, mut cursor) = (0, 0, None);
        // The cursors the stored pages after the first were asked with.
        let mut followed = Vec::new();
        for end in stored {
            got += end.records;
            read += 1;
            followed.extend(cursor.take());
            cursor = end.cursor.clone();
        }
        let mut pages = SearchPages::new(first.endpoint(), &first.body(), got, cursor);
        // A stored chain whose last cursor was followed before repeats itself: it ends there.
        pages.followed(followed);
        PagedSearch { first, pages, read }
    }

    /// The next page for up to `want` more records, at most the first request's page size;
    /// not given out yet ([`PagedSearch::sent`]). `Ok(None)` when the search has ended (at a
    /// cursor that does not advance too: [`PagedSearch::stuck_cursor`]), `want` is 0, or a
    /// page is out. Errors: [`ApiError::Invalid`] when the page's request does not check
    /// (nothing is sent).
    pub fn ask(&mut self, want: u64) -> Result<Option<PageAsk>, ApiError> {
        let size = self.first.page_size();
        let Some((step, size)) = self.pages.peek(want, size) else {
            return Ok(None);
        };
        let request = page_request(self.first.endpoint(), &self.first.body(), size, step)?;
        Ok(Some(PageAsk {
            request,
            position: self.read,
            size,
        }))
    }

    /// `ask` is being sent: no other page is asked until its answer.
    pub fn sent(&mut self, ask: &PageAsk) {
        // The ask was peeked from this state: stepping gives out that same page.
        let size = ask.size;
        let _ = self.pages.step(size, size);
    }

    /// The page out was answered, ending as `end` said.
    pub fn answered(&mut self, end: &PageEnd) {
        self.pages.answered(end.cursor.clone(), end.records);
        self.read += 1;
    }

    /// The page out got no answer (nothing was read): it may be asked again.
    pub fn failed(&mut self) {
        self.pages.failed();
    }

    /// No page follows: the results ended, the cursor stopped advancing or the v2 window is
    /// full.
    pub fn ended(&self) -> bool {
        self.pages.ended()
    }

    /// The service named a cursor that does not advance; the search stopped there (a page is
    /// never bought twice).
    pub fn stuck_cursor(&self) -> bool {
        self.pages.stuck_cursor()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::build_search;
    use prospect_api::client::Endpoint;
    use serde_json::json;

    fn end(cursor: Option<&str>, records: u64) -> PageEnd {
        PageEnd {
            cursor: cursor.map(str::to_string),
            records,
        }
    }

    fn search(ep: Endpoint, body: serde_json::Value) -> SearchRequest {
        build_search(ep, &body).unwrap()
    }

    /// Pages follow the answers' cursors with the first request's size and number themselves;
    /// while a page is out none other is asked; a failed page is asked again as it was.
    #[test]
    fn pages_follow_cursors_one_out_at_a_time() {
        let first = search(Endpoint::SearchCompaniesV3, json!({"size": 25}));
        let (mut p, ask) = PagedSearch::first_page(first.clone()).unwrap();
        assert_eq!(ask.request(), &first);
        assert_eq!(ask.position(), 0);
        assert_eq!(p.ask(25).unwrap(), None, "the first page is out");
        p.answered(&end(Some("c1"), 25));
        let next = p.ask(25).unwrap().unwrap();
        assert_eq!(next.request().search_after(), Some("c1"));
        assert_eq!((next.position(), next.request().page_size()), (1, 25));
        p.sent(&next);
        p.failed();
        assert_eq!(
            p.ask(25).unwrap(),
            Some(next.clone()),
            "asked again as it was"
        );
        p.sent(&next);
        p.answered(&end(Some("c2"), 25));
        let last = p.ask(5).unwrap().unwrap();
        assert_eq!(
            last.request().page_size(),
            5,
            "a last page of what is missing"
        );
        assert_eq!(last.position(), 2);
    }

    /// An answer naming the cursor it was asked with ends the search there: no page is
    /// asked twice.
    #[test]
    fn a_cursor_that_does_not_advance_ends_the_search() {
        let first = search(Endpoint::SearchCompaniesV3, json!({"size": 10}));
        let (mut p, _) = PagedSearch::first_page(first).unwrap();
        p.answered(&end(Some("c"), 10));
        let next = p.ask(10).unwrap().unwrap();
        p.sent(&next);
        p.answered(&end(Some("c"), 10));
        assert_eq!(p.ask(10).unwrap(), None);
        assert!(p.ended() && p.stuck_cursor());
    }

    /// A v2 people search with `onePersonPerDomain` pages by `from` windows up to the cap.
    #[test]
    fn v2_pages_by_from_windows() {
        let body = json!({"size": 50, "onePersonPerDomain": true});
        let first = search(Endpoint::SearchPeopleV2, body);
        let (mut p, _) = PagedSearch::first_page(first).unwrap();
        p.answered(&end(None, 50));
        let next = p.ask(50).unwrap().unwrap();
        assert_eq!(next.request().search_after(), None);
        assert_eq!(next.request().body()["from"], json!(51));
    }

    /// A reopened search continues after its last stored page's cursor, numbered after its
    /// pages; one whose last page named no cursor has ended.
    #[test]
    fn a_reopened_search_continues_after_its_stored_pages() {
        let first = search(Endpoint::SearchCompaniesV3, json!({"size": 25}));
        let stored = [end(Some("c1"), 25), end(Some("c2"), 25)];
        let mut p = PagedSearch::reopened(first.clone(), &stored);
        let next = p.ask(25).unwrap().unwrap();
        assert_eq!(next.request().search_after(), Some("c2"));
        assert_eq!(next.position(), 2);
        let mut done = PagedSearch::reopened(first.clone(), &[end(None, 7)]);
        assert!(done.ended());
        assert_eq!(done.ask(25).unwrap(), None);
        // The last page named the cursor it was asked with: the chain ends, stuck.
        let repeated = [end(Some("c1"), 25), end(Some("c1"), 25)];
        let mut stuck = PagedSearch::reopened(first, &repeated);
        assert_eq!(stuck.ask(25).unwrap(), None);
        assert!(stuck.ended() && stuck.stuck_cursor());
    }

    /// An empty `searchAfter` in an answer is no cursor.
    #[test]
    fn an_empty_cursor_is_none() {
        let answer: prospect_api::types::SearchCompaniesV3Response =
            serde_json::from_value(json!({"companies": [], "searchAfter": ""})).unwrap();
        assert_eq!(
            PageEnd::of(&SearchResponse::CompaniesV3(answer)),
            end(None, 0)
        );
    }
}
