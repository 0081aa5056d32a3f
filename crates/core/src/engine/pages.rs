//! The one paging rule of a search (SPEC.md §4.2–§4.4, §8; issue 35): where the next page
//! starts, how large it may be, and when the search has ended. The CLI's run
//! ([`super::search`]), and the explorer's `n` and its export (through a
//! [`super::PagedSearch`]) all page through a [`SearchPages`], so they stop at the same place
//! and ask for the same pages.
//!
//! - A page is asked after the previous answer's `searchAfter`. A v2 answer without one (or a
//!   v2 people search with `onePersonPerDomain`, which refuses a cursor) pages with the `from`
//!   window while `size + from <= 10001` ([`V2_WINDOW`]).
//! - A cursor that does not advance (an answer naming the cursor it was asked with, or one
//!   already followed) ends the search: a page is never asked for twice
//!   ([`SearchPages::stuck_cursor`]).
//! - An empty page, or an answer with no way on, ends it.
//!
//! The estimate of N more results of a search is [`prospect_api::cost::search_cost`], the one
//! price-table rule every front end quotes.

use std::collections::HashSet;

use prospect_api::client::Endpoint;
use prospect_api::error::ApiError;
use serde_json::Value;

use crate::request::{SearchRequest, build_search};

/// Highest `size + from` of the v2 searches (SPEC.md §8).
pub const V2_WINDOW: u64 = 10_001;

/// Where the next page of a search starts.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// The first page.
    Start,
    /// After this `searchAfter` cursor.
    After(String),
    /// At this 1-based `from` (v2 windows).
    From(u64),
}

/// The paging state of one search: see the module's rule. Give out a page with
/// [`SearchPages::step`], then say what its answer was with [`SearchPages::answered`] (or
/// [`SearchPages::failed`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchPages {
    v2: bool,
    one_per_domain: bool,
    /// Where the next page starts; `None` while a page is out, or once ended.
    next: Option<Next>,
    /// Records asked for so far in this chain (the next v2 window's `from`, less one).
    asked_records: u64,
    /// Cursors already followed.
    asked_after: HashSet<String>,
    /// The page given out and not yet answered, with its size.
    out: Option<(Next, u64)>,
    stuck_cursor: bool,
    ended: bool,
}

impl SearchPages {
    /// The paging of search `body` at `endpoint`, after `got` records already read (stored
    /// pages) whose last answer's cursor was `cursor`; `got == 0` starts at the first page
    /// (or at the body's v2 `from`).
    pub fn new(endpoint: Endpoint, body: &Value, got: u64, cursor: Option<String>) -> Self {
        let v2 = matches!(
            endpoint,
            Endpoint::SearchCompaniesV2 | Endpoint::SearchPeopleV2
        );
        let one_per_domain = body
            .get("onePersonPerDomain")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let start_from = body
            .get("from")
            .and_then(Value::as_u64)
            .filter(|f| v2 && *f > 1);
        let next = match (&cursor, v2 && one_per_domain, start_from) {
            (_, true, f) => Some(Next::From(f.unwrap_or(1) + got)),
            (Some(c), false, _) => Some(Next::After(c.clone())),
            (None, false, Some(f)) if got == 0 => Some(Next::From(f)),
            (None, false, None) if got == 0 => Some(Next::Start),
            (None, false, _) => None,
        };
        SearchPages {
            v2,
            one_per_domain,
            ended: next.is_none(),
            next,
            asked_records: got + start_from.unwrap_or(1) - 1,
            ..SearchPages::default()
        }
    }

    /// The next page for `want` more records in pages of at most `max_size`, without giving
    /// it out: where it starts and its size. `None` when the search has ended (a cursor
    /// already followed ends it here: [`SearchPages::stuck_cursor`]), when `want` is 0, or
    /// while the page given out before is not answered.
    pub fn peek(&mut self, want: u64, max_size: u64) -> Option<(Next, u64)> {
        if self.ended || want == 0 {
            return None;
        }
        let step = self.next.clone()?;
        let mut size = want.min(max_size);
        if let Next::From(f) = step {
            size = size.min(V2_WINDOW.saturating_sub(f));
        }
        if let Next::After(c) = &step
            && self.asked_after.contains(c)
        {
            self.stuck_cursor = true;
            self.ended = true;
            return None;
        }
        if size == 0 {
            self.ended = true;
            return None;
        }
        Some((step, size))
    }

    /// [`SearchPages::peek`], and the page given out: it is being asked for now.
    pub fn step(&mut self, want: u64, max_size: u64) -> Option<(Next, u64)> {
        let (step, size) = self.peek(want, max_size)?;
        if let Next::After(c) = &step {
            self.asked_after.insert(c.clone());
        }
        self.next = None;
        self.out = Some((step.clone(), size));
        Some((step, size))
    }

    /// The answer to the page given out: its `searchAfter` and how many records it held.
    pub fn answered(&mut self, cursor_out: Option<String>, n: u64) {
        let Some((step, size)) = self.out.take() else {
            return;
        };
        self.asked_records += n;
        self.next = match (cursor_out, &step) {
            (Some(c), Next::After(prev)) if c == *prev => {
                self.stuck_cursor = true;
                None
            }
            (Some(c), _) if !(self.v2 && self.one_per_domain) => Some(Next::After(c)),
            _ if self.v2 && n == size => Some(Next::From(1 + self.asked_records)),
            _ => None,
        };
        if n == 0 || self.next.is_none() {
            self.ended = true;
        }
    }

    /// The page given out got no answer (an error; nothing was read): it may be asked again.
    pub fn failed(&mut self) {
        if let Some((step, _)) = self.out.take() {
            if let Next::After(c) = &step {
                self.asked_after.remove(c);
            }
            self.next = Some(step);
        }
    }

    /// Cursors already followed (the stored pages before the last one were asked with them):
    /// one of them named again ends the search at [`SearchPages::stuck_cursor`].
    pub(super) fn followed(&mut self, cursors: impl IntoIterator<Item = String>) {
        self.asked_after.extend(cursors);
        if let Some(Next::After(c)) = &self.next
            && self.asked_after.contains(c)
        {
            self.next = None;
            self.stuck_cursor = true;
            self.ended = true;
        }
    }

    /// No page follows: the results ended, the cursor stopped advancing or the v2 window
    /// is full.
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// The service named a cursor that does not advance; the search stopped there.
    pub fn stuck_cursor(&self) -> bool {
        self.stuck_cursor
    }
}

/// The request of the page of `size` records starting at `next` of search `body` at
/// `endpoint` (`size`, `from` and `searchAfter` set as the step says).
///
/// Errors: [`ApiError::Invalid`] when the body does not build or check (nothing is sent).
pub fn page_request(
    endpoint: Endpoint,
    body: &Value,
    size: u64,
    next: Next,
) -> Result<SearchRequest, ApiError> {
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
        .map_err(ApiError::Invalid)?
        .with_search_after(cursor);
    req.check().map_err(ApiError::Invalid)?;
    Ok(req)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A v3 chain follows cursors and ends on an empty page or one without a cursor.
    #[test]
    fn follows_cursors_to_the_end() {
        let mut p = SearchPages::new(Endpoint::SearchCompaniesV3, &json!({}), 0, None);
        assert_eq!(p.step(120, 50), Some((Next::Start, 50)));
        assert_eq!(p.step(70, 50), None, "one page out at a time");
        p.answered(Some("c1".into()), 50);
        assert_eq!(p.step(70, 50), Some((Next::After("c1".into()), 50)));
        p.answered(None, 20);
        assert!(p.ended() && !p.stuck_cursor());
        assert_eq!(p.step(50, 50), None);
    }

    /// An answer naming the cursor it was asked with, or a cursor followed before, ends the
    /// chain: no page is asked for twice.
    #[test]
    fn a_cursor_that_does_not_advance_ends_it() {
        let mut p = SearchPages::new(Endpoint::SearchCompaniesV3, &json!({}), 0, None);
        p.step(500, 50);
        p.answered(Some("c".into()), 50);
        assert_eq!(p.step(500, 50), Some((Next::After("c".into()), 50)));
        p.answered(Some("c".into()), 50);
        assert!(p.stuck_cursor() && p.ended());
        assert_eq!(p.step(500, 50), None);
    }

    /// A v2 people search with `onePersonPerDomain` pages with `from` windows, the last
    /// clamped to `size + from <= 10001`.
    #[test]
    fn v2_pages_in_from_windows_up_to_the_cap() {
        let body = json!({"onePersonPerDomain": true});
        let mut p = SearchPages::new(Endpoint::SearchPeopleV2, &body, 0, None);
        assert_eq!(p.step(100, 50), Some((Next::From(1), 50)));
        p.answered(None, 50);
        assert_eq!(p.step(50, 50), Some((Next::From(51), 50)));
        let mut p = SearchPages::new(Endpoint::SearchPeopleV2, &body, 9_990, None);
        assert_eq!(p.step(50, 50), Some((Next::From(9_991), 10)));
        p.answered(None, 10);
        assert_eq!(p.step(50, 50), None, "the window is full");
        assert!(p.ended());
    }

    /// A page that got no answer may be asked again.
    #[test]
    fn a_failed_page_may_be_asked_again() {
        let mut p = SearchPages::new(Endpoint::SearchCompaniesV3, &json!({}), 0, None);
        p.step(100, 50);
        p.answered(Some("c1".into()), 50);
        let first = p.step(50, 50);
        p.failed();
        assert_eq!(p.step(50, 50), first);
        assert!(!p.stuck_cursor());
    }
}
