//! Free reads and the store's views: the balance, reference data, warmup, searches and their
//! stored pages, autocomplete suggestions, history, lists and spend.

use super::*;

impl Session {
    /// `GET /v2/credits/balance` (free; SPEC.md §4.9).
    pub async fn balance(&self) -> Result<CreditBalance, ApiError> {
        let b = self.client.credit_balance().await?;
        // A used-up daily allowance that resets later than a per-minute wait: every request
        // until then fails at once instead of being sent (issue 34). One that resets in 0 s is
        // not used up.
        if let (Some(0), Some(reset), Some(pacer)) = (
            b.daily_limit_rate_left,
            b.daily_limit_rate_seconds_to_reset,
            self.client.pacer(),
        ) && reset > 0
        {
            let d = std::time::Duration::from_secs(reset as u64);
            if d > prospect_api::pace::PER_MINUTE_RETRY_MAX {
                pacer.block(d);
            }
        }
        if let Ok(mut g) = self.last_balance.lock() {
            *g = Some(b.clone());
        }
        Ok(b)
    }

    /// The last credit balance [`Session::balance`] read, if any (no request is made).
    pub fn known_balance(&self) -> Option<CreditBalance> {
        self.last_balance.lock().ok().and_then(|g| g.clone())
    }

    /// `GET /v2/data-fields` (free; SPEC.md §4.8).
    pub async fn data_fields(&self) -> Result<DataFields, ApiError> {
        self.client.data_fields().await
    }

    /// `POST /v2/warmup/companies` (free).
    pub async fn warmup(
        &self,
        req: &WarmupCompaniesRequest,
    ) -> Result<WarmupCompaniesResponse, ApiError> {
        self.client.warmup_companies(req).await
    }

    /// The stored answer of the page `req` asks for (same endpoint, body, cursor and size),
    /// bought within `search_fresh_for`, with its stored search's id; `None` when there is
    /// none or the store cannot be read.
    pub(crate) async fn stored_search_page(
        &self,
        req: &SearchRequest,
    ) -> Option<(Paid<SearchResponse>, Option<SearchId>)> {
        let endpoint = req.endpoint();
        let body = req.body();
        let identity = search_identity(&body);
        let cursor = prospect_store::cursor_in(&body);
        let size = req.page_size() as i64;
        let target = self.target.clone();
        let fresh_for =
            chrono::Duration::from_std(self.policy.search_fresh_for).unwrap_or_default();
        let since = Utc::now() - fresh_for;
        let (id, page) = with_store(&self.store, move |s| {
            let Some(id) = s.find_search(endpoint, &identity, &target)? else {
                return Ok(None);
            };
            Ok(s.stored_page(id, &cursor, size, since)?.map(|p| (id, p)))
        })
        .await
        .ok()
        .flatten()?;
        let response = SearchResponse::decode(endpoint, page.response).ok()?;
        Some((Paid::from_store(response, page.fetched_at), Some(id)))
    }

    /// Any of the five autocompletes ([`AutocompleteRequest`], 0.1 credit a call) through
    /// [`Session::autocomplete`] (answered from this session's memory when asked before, at 0
    /// credits). Errors: the client's ([`ApiError`]).
    pub async fn suggest(
        &self,
        req: &AutocompleteRequest,
    ) -> Result<Paid<AutocompleteResponse>, ApiError> {
        Ok(match req {
            AutocompleteRequest::Companies(r) => self
                .autocomplete(r)
                .await?
                .map(AutocompleteResponse::Companies),
            AutocompleteRequest::Keywords(r) => self
                .autocomplete(r)
                .await?
                .map(AutocompleteResponse::Keywords),
            AutocompleteRequest::JobTitles(r) => self
                .autocomplete(r)
                .await?
                .map(AutocompleteResponse::JobTitles),
            AutocompleteRequest::Locations(r) => self
                .autocomplete(r)
                .await?
                .map(AutocompleteResponse::Locations),
            AutocompleteRequest::Skills(r) => self
                .autocomplete(r)
                .await?
                .map(AutocompleteResponse::Skills),
        })
    }

    /// The last `limit` searches of this session's target (most recently run first), read off
    /// the async threads. Errors: the store's, in one line.
    pub async fn history(&self, limit: usize) -> Result<Vec<SearchSummary>, String> {
        let target = prospect_common::sanitize::sanitize(&self.target)
            .trim()
            .to_string();
        let all = with_store(&self.store, move |s| s.searches(limit)).await?;
        Ok(all.into_iter().filter(|s| s.target == target).collect())
    }

    /// Adds `keys` to the list `name` of `kind` (created when missing), off the async
    /// threads: (added, already members, members now). Errors: the store's, in one line.
    pub async fn add_to_list(
        &self,
        name: String,
        kind: prospect_store::ListKind,
        keys: Vec<String>,
    ) -> Result<(usize, usize, u64), String> {
        with_store(&self.store, move |st| {
            let (added, had, _) = st.add_to_list(&name, kind, &keys)?;
            let members = st.list(&name)?.map_or(0, |l| l.members);
            Ok((added, had, members))
        })
        .await
    }

    /// The store's last `limit` spends, newest first, each purchase with who bought it
    /// ([`Store::spend_log`]; issue 17: on a team store, every member's), off the async
    /// threads. Errors: the store's, in one line.
    pub async fn spend_log(&self, limit: usize) -> Result<Vec<prospect_store::Spend>, String> {
        with_store(&self.store, move |s| s.spend_log(limit, None)).await
    }

    /// Every list with its member count, and the suppression categories with their counts
    /// (issue 16: what the explorer's lists popup shows), off the async threads. Errors: the
    /// store's, in one line.
    pub async fn lists_overview(
        &self,
    ) -> Result<
        (
            Vec<prospect_store::ListSummary>,
            Vec<crate::suppress::CategoryRow>,
        ),
        String,
    > {
        with_store(&self.store, |st| {
            let lists = st.lists()?;
            let suppression = st
                .suppression_counts()?
                .into_iter()
                .map(Into::into)
                .collect();
            Ok((lists, suppression))
        })
        .await
    }

    /// List `name` read from the store at no cost, its members joined with what the store holds
    /// of them ([`prospect_store::Store::list_records`]), with the spend engine's plan for the
    /// rest (issue 16): for a contact list, revealing the members' emails
    /// ([`crate::engine::Action::Reveal`]); for an account list, looking the members up
    /// ([`crate::engine::Action::LookupCompanies`]). Owned and suppressed members cost 0
    /// in it. `rest` is `Err` with the reason when the plan could not be made.
    ///
    /// Errors: no such list, or the store's, in one line.
    pub async fn open_list(&self, name: String) -> Result<OpenedList, String> {
        let records = {
            let name = name.clone();
            with_store(&self.store, move |st| st.list_records(&name)).await?
        }
        .ok_or_else(|| format!("there is no list named {name}"))?;
        let (kind, keys) = match &records {
            prospect_store::ListRecords::Accounts(v) => (
                prospect_store::ListKind::Accounts,
                v.iter().map(|c| c.domain.clone()).collect::<Vec<_>>(),
            ),
            prospect_store::ListRecords::Contacts(v) => (
                prospect_store::ListKind::Contacts,
                v.iter().map(|p| p.person.id.clone()).collect(),
            ),
        };
        let keys = crate::engine::KeySource::List(keys);
        let action = match kind {
            prospect_store::ListKind::Accounts => crate::engine::Action::LookupCompanies { keys },
            prospect_store::ListKind::Contacts => crate::engine::Action::Reveal {
                contact: ContactKind::Email,
                keys,
            },
        };
        let rest = if records.is_empty() {
            Err("the list has no members".to_string())
        } else {
            crate::engine::plan(self, &action, Freshness::Stored)
                .await
                .map_err(|e| e.to_string())
        };
        Ok(OpenedList {
            name,
            kind,
            records,
            rest,
        })
    }

    /// Reads search `id` back from the history at no cost ([`read_stored_search`]), off the
    /// async threads, as a search run now would answer (issue 38): records suppressed since
    /// they were bought are left out ([`StoredSearch::suppressed`] says how many), and the
    /// excludes suppression added are taken out of its body.
    ///
    /// Errors: as [`read_stored_search`].
    pub async fn reopen(&self, id: SearchId) -> Result<StoredSearch, String> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || {
            let g = store
                .lock()
                .map_err(|_| "the store is unusable after an earlier failure".to_string())?;
            let mut search = read_stored_search(&g, id)?;
            // As a search run now would be (issue 38): what is suppressed since it was bought is
            // left out, and suppression's excludes are not the form's.
            // Suppression never stops a read: a store whose suppression cannot be read
            // reopens the search as stored (said in the log).
            let mut screen = crate::screen::Screen::load_store(&g).unwrap_or_else(|e| {
                tracing::warn!(error = %e, "reopen: suppression could not be read");
                crate::screen::Screen::default()
            });
            for p in &mut search.pages {
                screen.page(&mut p.response);
            }
            screen.strip_excludes(&mut search.body);
            search.suppressed = screen.describe();
            Ok(search)
        })
        .await
        .map_err(|e| format!("store task failed: {e}"))?
    }
}

/// Reads search `id` back from the store at no cost: its first request and its pages, each
/// stored answer read into the typed response of the search's endpoint, with the contacts the
/// store holds joined into its people (what `H`, `prospect history show` and `prospect export
/// search` show).
///
/// Errors, in one line: the store cannot be read; no such search or no stored first page;
/// the endpoint is not a list search; the first request no longer passes the client's
/// checks; a stored answer does not read as its endpoint's response (names the page).
pub fn read_stored_search(st: &Store, id: SearchId) -> Result<StoredSearch, String> {
    let summary = st
        .searches(usize::MAX)
        .map_err(|e| e.to_string())?
        .into_iter()
        .find(|x| x.id == id);
    let pages = st.pages(id).map_err(|e| e.to_string())?;
    let summary = summary.ok_or_else(|| format!("search {id} is not in the store"))?;
    let endpoint = Endpoint::from_path(&summary.endpoint)
        .filter(|e| e.is_search())
        .ok_or_else(|| format!("{} is not a list search", summary.endpoint))?;
    let first = pages
        .first()
        .filter(|p| p.page == 0)
        .ok_or_else(|| "the first page of this search is not stored".to_string())?;
    let mut body = first.request.clone();
    if let Value::Object(m) = &mut body {
        m.remove("searchAfter");
    }
    let request = build_search(endpoint, &body).map_err(|problems| {
        let first = problems.first().map(|p| p.to_string()).unwrap_or_default();
        format!("the stored request no longer passes the checks: {first}")
    })?;
    let mut out = Vec::new();
    for (i, p) in pages.into_iter().enumerate() {
        if p.page as usize != i {
            break;
        }
        let mut response = SearchResponse::decode(endpoint, p.response)
            .map_err(|e| format!("page {} of the stored search: {e}", p.page + 1))?;
        st.join_contacts(&mut response.people_mut())
            .map_err(|e| e.to_string())?;
        out.push(StoredSearchPage {
            page: p.page,
            response,
            fetched_at: p.fetched_at,
        });
    }
    Ok(StoredSearch {
        id,
        request,
        body,
        pages: out,
        suppressed: None,
    })
}
