//! Searches and their pages as kept: the history of a search body and its stored pages,
//! read back in order with their cursors.

use super::*;

impl Store {
    /// Records that a search was run at `at` and returns its id: the same (`endpoint`, body,
    /// `target`) gives the same id and moves its `last_run_at` to `at` (if later). The body is
    /// compared in canonical form (sanitized, keys sorted); the paging members `size`, `from`
    /// and `searchAfter` are removed from its top level, so pass the request body as sent.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn record_search(
        &mut self,
        endpoint: Endpoint,
        body: &Value,
        target: &str,
        at: DateTime<Utc>,
    ) -> Result<SearchId> {
        let id = self
            .conn
            .prepare_cached(
                "INSERT INTO searches (endpoint, body, target, first_run_at, last_run_at)
                 VALUES (?1, ?2, ?3, ?4, ?4)
                 ON CONFLICT (endpoint, body, target)
                 DO UPDATE SET last_run_at = CASE WHEN excluded.last_run_at > searches.last_run_at
                       THEN excluded.last_run_at ELSE searches.last_run_at END
                 RETURNING id",
            )?
            .query_row(
                params![
                    endpoint.path(),
                    canonical_search_body(body),
                    clean_key(target),
                    to_millis(at)
                ],
                |r| r.get(0),
            )?;
        Ok(SearchId(id))
    }

    /// Stores a page of a search: the request as sent (its `searchAfter`, or `from` for a v2
    /// window, is the page's `cursor_in`; its `size` the size asked), the answer's paging facts
    /// ([`PageFacts`]: the next cursor, the record count, `total`), the answer itself unless a
    /// `purchase` holds it, and `page`, its position in the chain. The same search, cursor and
    /// size stored before is replaced unless it was fetched later.
    ///
    /// # Errors
    /// [`StoreError::NoSuchSearch`] / [`StoreError::NoSuchPurchase`] when `search` /
    /// `purchase` is not stored (nothing written); [`StoreError::Sqlite`].
    #[allow(clippy::too_many_arguments)]
    pub fn record_page(
        &mut self,
        search: SearchId,
        page: u32,
        request: &Value,
        response: &Value,
        purchase: Option<PurchaseId>,
        at: DateTime<Utc>,
    ) -> Result<()> {
        let facts = PageFacts::of_answer(response);
        let tx = self.conn.begin()?;
        write_page(&tx, search, page, request, response, &facts, purchase, at)?;
        tx.commit()?;
        Ok(())
    }

    /// The last `limit` searches, most recently run first, each with its number of pages and
    /// the `total` of its most recently fetched page. Rows whose JSON no longer parses are
    /// skipped.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn searches(&self, limit: usize) -> Result<Vec<SearchSummary>> {
        let mut st = self.conn.prepare_cached(
            "SELECT s.id, s.endpoint, s.body, s.target, s.first_run_at, s.last_run_at,
               (SELECT count(*) FROM pages p WHERE p.search_id = s.id),
               (SELECT p.total FROM pages p WHERE p.search_id = s.id
                  ORDER BY p.fetched_at DESC, p.page DESC LIMIT 1),
               c.standard, c.email, c.phone
             FROM searches s
             LEFT JOIN (SELECT p.search_id,
                               sum(pu.credits_standard) AS standard,
                               sum(pu.credits_email) AS email,
                               sum(pu.credits_phone) AS phone
                          FROM pages p JOIN purchases pu ON pu.id = p.purchase_id
                         GROUP BY p.search_id) c ON c.search_id = s.id
             ORDER BY s.last_run_at DESC, s.id DESC LIMIT ?1",
        )?;
        let rows = st.query_map(params![sql_limit(limit)], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, i64>(5)?,
                r.get::<_, i64>(6)?,
                r.get::<_, rusqlite::types::Value>(7)?,
                prospect_api::cost::Cost {
                    standard: r.get::<_, Option<f64>>(8)?.unwrap_or(0.0),
                    email: r.get::<_, Option<f64>>(9)?.unwrap_or(0.0),
                    phone: r.get::<_, Option<f64>>(10)?.unwrap_or(0.0),
                },
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, endpoint, body, target, first, last, pages, total, credits) = row?;
            let total = match total {
                rusqlite::types::Value::Integer(n) => Some(n),
                rusqlite::types::Value::Real(x) if x.is_finite() => Some(x.round() as i64),
                _ => None,
            };
            let parsed = (|| {
                Some(SearchSummary {
                    id: SearchId(id),
                    endpoint,
                    body: read_json(&body, "searches", &id)?,
                    target,
                    first_run_at: from_millis(first, "searches", &id)?,
                    last_run_at: from_millis(last, "searches", &id)?,
                    pages: u32::try_from(pages).unwrap_or(u32::MAX),
                    total,
                    credits,
                })
            })();
            out.extend(parsed);
        }
        Ok(out)
    }

    /// The stored pages of a search in cursor order: the first page (no cursor), then the
    /// page asked with its `cursor_out`, and so on until a cursor has no stored page (or
    /// repeats). Where pages of several sizes start at one cursor, the most recently fetched is
    /// followed. Pages are numbered 0.. in that order; only pages fetched at or after `since`
    /// count (`None`: all). Empty for an unknown search. Pages whose JSON no longer parses end
    /// the chain.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn pages_since(
        &self,
        search: SearchId,
        since: Option<DateTime<Utc>>,
    ) -> Result<Vec<StoredPage>> {
        let chain = self.chain(search, since)?;
        let mut out = Vec::with_capacity(chain.len());
        for (i, link) in chain.into_iter().enumerate() {
            let key = format!("{search}/{i}");
            let response = match link.purchase_id {
                Some(p) if link.response.is_empty() => self.purchase_answer(p)?,
                _ => read_json(&link.response, "pages", &key),
            };
            let (Some(request), Some(response)) =
                (read_json(&link.request, "pages", &key), response)
            else {
                break;
            };
            out.push(StoredPage {
                page: i as u32,
                request,
                response,
                purchase_id: link.purchase_id,
                fetched_at: link.fetched_at,
            });
        }
        Ok(out)
    }

    /// The stored page of `search` asked with `cursor` ([`cursor_in`]) and `size`, fetched at
    /// or after `since`, with its answer; `None` when there is none (or it does not read).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn stored_page(
        &self,
        search: SearchId,
        cursor: &str,
        size: i64,
        since: DateTime<Utc>,
    ) -> Result<Option<StoredPage>> {
        let row = self
            .conn
            .prepare_cached(
                "SELECT page, request, response, purchase_id, fetched_at FROM pages
                 WHERE search_id = ?1 AND cursor_in = ?2 AND size = ?3 AND fetched_at >= ?4",
            )?
            .query_row(params![search.0, cursor, size, to_millis(since)], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, Option<i64>>(3)?,
                    r.get::<_, i64>(4)?,
                ))
            })
            .optional()?;
        let Some((page, request, response, purchase_id, at)) = row else {
            return Ok(None);
        };
        let key = format!("{search}/{page}");
        let response = match purchase_id {
            Some(p) if response.is_empty() => self.purchase_answer(PurchaseId(p))?,
            _ => read_json(&response, "pages", &key),
        };
        Ok((|| {
            Some(StoredPage {
                page: u32::try_from(page).ok()?,
                request: read_json(&request, "pages", &key)?,
                response: response?,
                purchase_id: purchase_id.map(PurchaseId),
                fetched_at: from_millis(at, "pages", &key)?,
            })
        })())
    }

    /// The chain of [`Store::pages_since`] without the answers: each page's request, paging
    /// facts and purchase, read from the pages' own rows (no answer is decompressed or parsed).
    /// A page whose request no longer parses ends the chain.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn page_links_since(
        &self,
        search: SearchId,
        since: Option<DateTime<Utc>>,
    ) -> Result<Vec<PageLink>> {
        let mut out = Vec::new();
        for (i, link) in self.chain(search, since)?.into_iter().enumerate() {
            let Some(request) = read_json(&link.request, "pages", &format!("{search}/{i}")) else {
                break;
            };
            out.push(PageLink {
                page: i as u32,
                request,
                facts: PageFacts {
                    cursor_out: link.cursor_out,
                    n: link.n,
                    total: link.total,
                },
                purchase_id: link.purchase_id,
                fetched_at: link.fetched_at,
                response: link.response,
            });
        }
        Ok(out)
    }

    /// The answer of `link` as stored (compressed), read with the store held only for the
    /// read; [`PageAnswer::text`] makes it sanitized JSON text off the store, to decode
    /// straight into its typed response (issue 39: the pages of a search run again are
    /// decompressed on other threads while the store serves the next read). `None` when there
    /// is no such purchase (the chain ends there, as in [`Store::pages_since`]).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn page_answer(&self, link: &PageLink) -> Result<Option<PageAnswer>> {
        let Some(p) = link.purchase_id.filter(|_| link.response.is_empty()) else {
            return Ok(Some(PageAnswer::Text(link.response.clone().into_bytes())));
        };
        let row = self
            .conn
            .prepare_cached("SELECT response, raw FROM purchases WHERE id = ?1")?
            .query_row(params![p.0], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, Option<Vec<u8>>>(1)?))
            })
            .optional()?;
        Ok(row.map(|(text, raw)| match raw {
            Some(z) => PageAnswer::Compressed(p, z),
            None => PageAnswer::Text(text.into_bytes()),
        }))
    }

    /// [`Store::pages_since`] with every page, whenever fetched.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn pages(&self, search: SearchId) -> Result<Vec<StoredPage>> {
        self.pages_since(search, None)
    }

    /// The chain of stored pages of `search` (see [`Store::pages_since`]), without reading the
    /// answers.
    pub(crate) fn chain(
        &self,
        search: SearchId,
        since: Option<DateTime<Utc>>,
    ) -> Result<Vec<ChainLink>> {
        let mut st = self.conn.prepare_cached(
            "SELECT cursor_in, cursor_out, n, size, total, request, response, purchase_id,
               fetched_at
             FROM pages WHERE search_id = ?1 AND fetched_at >= ?2
             ORDER BY fetched_at DESC",
        )?;
        let since = since.map(to_millis).unwrap_or(i64::MIN);
        let rows = st.query_map(params![search.0, since], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, Option<i64>>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, String>(6)?,
                r.get::<_, Option<i64>>(7)?,
                r.get::<_, i64>(8)?,
            ))
        })?;
        // The newest page of each cursor.
        let mut by_cursor: std::collections::HashMap<String, ChainLink> = Default::default();
        for row in rows {
            let (cursor_in, cursor_out, n, size, total, request, response, purchase_id, at) = row?;
            let Some(fetched_at) = from_millis(at, "pages", &search) else {
                continue;
            };
            let _ = size;
            by_cursor.entry(cursor_in).or_insert(ChainLink {
                cursor_out,
                n: u64::try_from(n).unwrap_or(0),
                total,
                request,
                response,
                purchase_id: purchase_id.map(PurchaseId),
                fetched_at,
            });
        }
        let mut out: Vec<ChainLink> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut cursor = String::new();
        while let Some(link) = by_cursor.remove(&cursor) {
            if !seen.insert(cursor.clone()) {
                break;
            }
            let next = link.cursor_out.clone();
            let full = link.n > 0;
            out.push(link);
            match next {
                Some(c) if full && !seen.contains(&c) => cursor = c,
                _ => break,
            }
        }
        Ok(out)
    }
}

/// A stored page's answer as read by [`Store::page_answer`]: JSON text kept as text (a page
/// without a purchase, or a purchase older than schema 3), or the purchase's raw bytes as
/// received, compressed.
#[derive(Debug, Clone)]
pub enum PageAnswer {
    /// Sanitized JSON text, as kept.
    Text(Vec<u8>),
    /// The raw answer of the purchase, zstd-compressed (frames, see `pack_answer`).
    Compressed(PurchaseId, Vec<u8>),
}

impl PageAnswer {
    /// The answer as sanitized JSON text: the raw bytes as received when they hold nothing
    /// that sanitizing changes (checked on the bytes, [`crate::raw_json_bytes_are_clean`]),
    /// else those bytes with the strings that need it sanitized
    /// ([`crate::clean::sanitized_json_text`]). `None` when they do not decompress or are not
    /// JSON (logged).
    pub fn text(self) -> Option<Vec<u8>> {
        let (p, z) = match self {
            PageAnswer::Text(t) => return Some(t),
            PageAnswer::Compressed(p, z) => (p, z),
        };
        let Ok(bytes) = crate::frames::unpack_raw(&z) else {
            tracing::warn!(table = "purchases", id = %p, "store: raw answer does not decompress");
            return None;
        };
        if crate::raw_json_bytes_are_clean(&bytes) {
            return Some(bytes);
        }
        // Only the strings that need it are sanitized; the rest is copied.
        crate::clean::sanitized_json_text(&bytes)
    }
}
