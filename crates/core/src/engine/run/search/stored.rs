//! A search run again (issue 39): its stored, fresh pages handed on in order at 0 credits,
//! read and decoded ahead on other threads, or written from the rows kept with them in the
//! form the run asks; and the rows of pages rendered and kept.

use super::*;

/// Stored pages of a search run again that are read and decoded ahead of the one being
/// written out.
const STORED_AHEAD: usize = 2;

/// A stored page as read for a run ([`read_stored_page`]).
enum StoredRead {
    /// Its records' rows in the form the run asked for, kept when they were rendered.
    Rows(PageRows),
    /// Its answer, decoded.
    Decoded(Box<SearchResponse>),
}

/// The stored answer of `link` read from the store: the rows of its records in `form` when
/// they were kept (issue 39: nothing to decompress and decode), else its answer decompressed
/// and decoded into its typed answer on a blocking thread (the store is held only for the
/// reads); `None` when it is gone or does not read (the run buys from there).
fn read_stored_page(
    s: &Session,
    ep: Endpoint,
    link: PageLink,
    form: Option<RowForm>,
) -> AbortOnDropHandle<Option<StoredRead>> {
    let store = s.store().clone();
    AbortOnDropHandle::new(tokio::spawn(async move {
        if let Some(form) = form {
            let l = link.clone();
            let kept = with_store(&store, move |st| st.page_rows(&l, form.key())).await;
            if let Some(rows) = kept.ok().flatten().and_then(PageRows::from_bytes) {
                return Some(StoredRead::Rows(rows));
            }
        }
        let answer = with_store(&store, move |st| st.page_answer(&link))
            .await
            .ok()
            .flatten()?;
        tokio::task::spawn_blocking(move || SearchResponse::decode_slice(ep, &answer.text()?).ok())
            .await
            .ok()?
            .map(|r| StoredRead::Decoded(Box::new(r)))
    }))
}

/// A page answer of `ep` with no records, its `searchAfter` and `total` those kept with
/// `link` (what a run reads of a page whose rows it writes).
fn bare_page(ep: Endpoint, link: &PageLink) -> SearchResponse {
    let (search_after, total) = (link.facts.cursor_out.clone(), link.facts.total);
    match ep {
        Endpoint::SearchCompaniesV2 => SearchResponse::CompaniesV2(SearchCompaniesV2Response {
            search_after,
            total,
            ..Default::default()
        }),
        _ => SearchResponse::CompaniesV3(SearchCompaniesV3Response {
            search_after,
            total,
            ..Default::default()
        }),
    }
}

impl<F: FnMut(SearchRecords) -> std::io::Result<()>> SearchRun<'_, F> {
    /// Hands on the stored, fresh pages of the search (0 credits), in order. `Some(cursor)`
    /// to buy the rest from; `None` when the run is over (the limit, the end of the results,
    /// or the output failed).
    pub(super) async fn stored_pages(&mut self) -> Option<Option<String>> {
        let mut cursor: Option<String> = None;
        let chain = fresh_chain(self.s, self.ep, self.body).await;
        // Pages are read and decoded ahead on other threads while this one writes out the
        // page before (issue 39): at most `STORED_AHEAD` answers in memory, each decoded from
        // its text straight into the typed answer (no `Value` of every page held at once).
        let mut ahead: VecDeque<AbortOnDropHandle<Option<StoredRead>>> =
            VecDeque::with_capacity(STORED_AHEAD);
        let mut queued = 0;
        for page in &chain {
            while queued < chain.len() && ahead.len() < STORED_AHEAD {
                let link = chain[queued].clone();
                ahead.push_back(read_stored_page(self.s, self.ep, link, self.rows));
                queued += 1;
            }
            let Some(loading) = ahead.pop_front() else {
                break;
            };
            let Ok(Some(read)) = loading.await else {
                break;
            };
            let (mut response, rows) = match read {
                StoredRead::Rows(rows) => (bare_page(self.ep, page), Some(rows)),
                StoredRead::Decoded(mut response) => {
                    let rows = self.render(&mut response, page.purchase_id)?;
                    (*response, rows)
                }
            };
            self.s.join_page_contacts(&mut response).await;
            // The page's own length says whether the results end; what suppression leaves
            // out here (past what a request carries) is not written.
            let full = rows
                .as_ref()
                .map_or_else(|| records_of(&response), PageRows::len) as u64;
            self.report.suppressed.filter(&mut response);
            let rows = rows.map(|r| self.unsuppressed(r));
            let n = rows
                .as_ref()
                .map_or_else(|| records_of(&response), PageRows::len) as u64;
            let take = n.min(self.limit - self.got) as usize;
            let shown = self.set_page(&mut response, take, true).await?;
            self.total = total_of(&response).or(self.total);
            let size = page
                .request
                .get("size")
                .and_then(Value::as_u64)
                .unwrap_or(50);
            let before = cursor.take();
            cursor = cursor_of(&response);
            if cursor.is_none() || full < size {
                self.end = true;
            }
            // A stored chain whose cursor did not advance repeats itself (issue 34): it stops
            // there, as a bought one does.
            if cursor.is_some() && cursor == before {
                self.report.stuck_cursor = true;
                self.end = true;
            }
            if let Err(e) = (self.on_page)(SearchRecords {
                response,
                take: shown,
                stored_at: Some(page.fetched_at),
                rows: rows.map(|r| r.first(shown)),
            }) {
                self.report.fail(RunError::Output(e));
                return None;
            }
            self.got += take as u64;
            self.report.owned += take as u64;
            self.report.records += shown as u64;
            self.position += 1;
            if self.got >= self.limit || self.end {
                return None;
            }
        }
        Some(cursor)
    }

    /// The companies of `page`, taken out of it, as rows in the run's form, kept beside
    /// `purchase` on a task of their own (awaited by [`SearchRun::finish`]); `Some(None)` when
    /// the run takes no rows (`page` is left whole). `None` when they do not render: the
    /// run fails there, as writing them would have.
    pub(super) fn render(
        &mut self,
        page: &mut SearchResponse,
        purchase: Option<PurchaseId>,
    ) -> Option<Option<PageRows>> {
        let Some(form) = self.rows else {
            return Some(None);
        };
        let rows = match PageRows::render(form, &crate::export::take_companies(page)) {
            Ok(rows) => rows,
            Err(e) => {
                self.report.fail(RunError::Output(e));
                return None;
            }
        };
        if let Some(p) = purchase {
            let (store, bytes) = (self.s.store().clone(), rows.as_bytes().to_vec());
            self.rows_kept.push(tokio::spawn(async move {
                let kept = with_store(&store, move |st| st.keep_page_rows(p, form.key(), &bytes));
                if let Err(e) = kept.await {
                    tracing::warn!(purchase = %p, "keeping rendered rows: {e}");
                }
            }));
        }
        Some(Some(rows))
    }

    /// `rows` without those suppression leaves out ([`Suppressed::filter`] of a page).
    pub(super) fn unsuppressed(&self, rows: PageRows) -> PageRows {
        let sup = &self.report.suppressed;
        match sup.filters() {
            true => rows.kept(|domain| !sup.hits_domain(domain)),
            false => rows,
        }
    }
}
