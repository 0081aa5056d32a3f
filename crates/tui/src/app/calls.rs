//! Answers of the calls the explorer made (issue 19, "The shape": `impl App` by concern): the
//! credits they charged, 429 countdowns and retries, the free calls' answers (reference data,
//! balance, autocomplete) and a rejected token.
use super::*;

impl App {
    /// Takes an answer's charge and request into the credit gauge and says whether the balance
    /// is due: after a 402 at once, otherwise at most once a minute ([`Gauge::should_refresh`]).
    pub(super) fn account(&mut self, result: &Result<Outcome, ApiFailure>) -> Vec<Command> {
        let why = match result {
            Ok(o) => {
                let c = o.charge();
                if c.cost.is_zero() && c.requests == 0 {
                    return vec![];
                }
                self.gauge.on_charge(c.cost);
                for _ in 0..c.requests {
                    self.gauge.on_request();
                }
                self.dirty = true;
                Refresh::AfterCall
            }
            Err(e) => match &e.error {
                Some(
                    ApiError::InsufficientCredits { .. } | ApiError::VerificationsInProgress { .. },
                ) => {
                    self.gauge.on_request();
                    Refresh::InsufficientCredits
                }
                // A 429 is refused before it counts; other answers reached the service. The
                // daily allowance's 429 says the gauge's "daily N left" is stale: it is 0.
                Some(err @ ApiError::RateLimited { retry_after }) => {
                    if err.is_daily_limit()
                        && let Some(wait) = retry_after
                    {
                        self.gauge
                            .on_daily_used_up(*wait, std::time::Instant::now());
                        self.dirty = true;
                    }
                    return vec![];
                }
                Some(err) if err.status().is_some() => {
                    self.gauge.on_request();
                    return vec![];
                }
                _ => return vec![],
            },
        };
        self.refresh_balance(why).into_iter().collect()
    }

    /// A call of `slot` was refused with a per-minute 429: it is sent again after
    /// `Retry-After` (a 429 is never charged, so this is safe for searches too), with a
    /// countdown on the status line. The daily allowance is not retried (see `on_done`).
    pub(super) fn rate_limited(
        &mut self,
        slot: Slot,
        retry_after: Option<Duration>,
    ) -> Vec<Command> {
        let Some(call) = self.inflight.get(&slot).cloned() else {
            return vec![];
        };
        let wait = retry_after.unwrap_or(DEFAULT_RETRY_AFTER);
        let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        let ticking = !self.rate_waits.is_empty();
        self.rate_waits.insert(
            slot,
            RateWait {
                call,
                generation: self.generation_of(slot),
                secs_left: secs.max(1),
            },
        );
        tracing::info!(?slot, secs, "rate limited; retry scheduled");
        self.show_countdown();
        if ticking {
            vec![]
        } else {
            vec![self.timer(TimerId::RateLimit, Duration::from_secs(1))]
        }
    }

    pub(super) fn show_countdown(&mut self) {
        if let Some(secs) = self.rate_waits.values().map(|w| w.secs_left).max() {
            self.set_status(&format!("{RATE_LIMITED} {secs} s"), StatusKind::Progress);
        }
    }

    /// One second of the 429 countdown: retries that are due are sent again (unless a newer
    /// call in their slot made them pointless), the status line shows the rest.
    pub(super) fn rate_tick(&mut self) -> Vec<Command> {
        let gens: HashMap<Slot, u64> = self
            .rate_waits
            .keys()
            .map(|s| (*s, self.generation_of(*s)))
            .collect();
        self.rate_waits
            .retain(|s, w| gens.get(s) == Some(&w.generation));
        let mut due = Vec::new();
        for (slot, w) in &mut self.rate_waits {
            w.secs_left = w.secs_left.saturating_sub(1);
            if w.secs_left == 0 {
                due.push(*slot);
            }
        }
        let mut cmds = Vec::new();
        for slot in due {
            if let Some(w) = self.rate_waits.remove(&slot) {
                tracing::info!(?slot, "retrying after 429");
                cmds.push(self.call(slot, w.call));
            }
        }
        self.dirty = true;
        if self.rate_waits.is_empty() {
            if self
                .status
                .as_ref()
                .is_some_and(|s| s.text.starts_with(RATE_LIMITED))
            {
                if cmds.is_empty() {
                    self.status = None;
                } else {
                    self.set_status("Retrying…", StatusKind::Progress);
                }
            }
        } else {
            self.show_countdown();
            cmds.push(self.timer(TimerId::RateLimit, Duration::from_secs(1)));
        }
        cmds
    }

    /// Checks the form's request as the client will ([`request::build_search`]) and says what
    /// is wrong on the status line when that changed; clears its own message once the form
    /// can be sent again.
    pub(super) fn check_form(&mut self) {
        if !self.form.recheck() {
            return;
        }
        let shown = self
            .status
            .as_ref()
            .is_some_and(|s| s.text.starts_with(FORM_PROBLEM) || s.text.starts_with(NOT_SENT));
        if self.form.problems.is_empty() {
            if shown {
                self.status = None;
                self.dirty = true;
            }
        } else {
            let text = format!("{FORM_PROBLEM}{}", problems_text(&self.form.problems));
            self.set_status(&text, StatusKind::Error);
        }
    }

    pub(super) fn on_done(
        &mut self,
        slot: Slot,
        result: Result<Outcome, ApiFailure>,
    ) -> Vec<Command> {
        if let Err(ApiFailure {
            error: Some(e @ ApiError::RateLimited { retry_after }),
            ..
        }) = &result
            && !e.is_daily_limit()
        {
            return self.rate_limited(slot, *retry_after);
        }
        match (slot, result) {
            (Slot::DataFields, Ok(Outcome::DataFields(df))) => {
                self.data_fields = df;
                self.data_fields_state = Some(Ok(()));
                self.refresh_picker();
                if self
                    .status
                    .as_ref()
                    .is_some_and(|s| s.kind == StatusKind::Progress)
                    && !self.any_loading()
                {
                    return self.info("Ready. Enter edits a filter member; Ctrl-r runs the search; ? shows the keys.");
                }
                vec![]
            }
            (Slot::DataFields | Slot::Balance, Err(e)) if self.token_rejected(&e) => vec![],
            (Slot::DataFields, Err(e)) => {
                self.data_fields_failed(&e.message);
                self.set_status(
                    &format!("Reference data unavailable: {}", e.message),
                    StatusKind::Error,
                );
                vec![]
            }
            (Slot::Balance, Ok(Outcome::Balance(b))) => {
                self.gauge.on_balance(b, std::time::Instant::now());
                self.balance_loading = false;
                vec![]
            }
            (Slot::Balance, Err(e)) => {
                self.gauge.on_balance_failed();
                self.balance_loading = false;
                self.set_status(
                    &format!("Credit balance unavailable: {}", e.message),
                    StatusKind::Error,
                );
                vec![]
            }
            (Slot::Export(_), Ok(Outcome::ExportPlanned(plan))) => self.on_export_planned(*plan),
            (Slot::Export(_), Ok(Outcome::ExportRan(ran))) => self.on_export_ran(*ran),
            (Slot::Export(_), Err(e)) => self.on_export_failed(e),
            (Slot::Export(_), Ok(_)) => vec![],
            (Slot::Search(kind), Ok(Outcome::Page(page))) => self.on_page(kind, page),
            (Slot::OpenJobs, Ok(Outcome::OpenJobs(list))) => self.on_open_jobs(list),
            // The list of unfinished jobs is a courtesy: a store that cannot be read says so
            // elsewhere.
            (Slot::OpenJobs, _) => vec![],
            (Slot::SetRuns, Ok(Outcome::SetRuns(runs))) => self.on_set_runs(runs),
            // A set's runs are a courtesy too: the set opens and searches without them.
            (Slot::SetRuns, _) => vec![],
            (Slot::Search(kind), Ok(Outcome::Reopened(r))) => self.on_reopened(kind, r),
            (Slot::Search(kind), Ok(Outcome::ListOpened(l))) => self.on_list_opened(kind, *l),
            (Slot::Search(kind), Err(e)) => {
                let what = match self.inflight.get(&slot) {
                    Some(Call::Reopen(_)) => "The stored search could not be shown",
                    Some(Call::OpenList(_)) => "The list could not be shown",
                    _ => "The search failed",
                };
                let s = self.search_mut(kind);
                s.loading = false;
                s.error = Some(e.message.clone());
                if let Some(paging) = &mut s.paging {
                    paging.failed();
                }
                self.error_popup(format!("{what}: {}", e.message));
                vec![]
            }
            (Slot::Purchases | Slot::ListsView | Slot::Autocomplete | Slot::History, result) => {
                self.answer_popup(slot, result)
            }
            (Slot::Job(_) | Slot::Prepare, result) => self.on_job_done(slot, result),
            (Slot::Segments | Slot::SegmentWork, result) => self.on_segments_answer(slot, result),
            (
                Slot::Lists,
                Ok(Outcome::ListAdded {
                    name,
                    added,
                    had,
                    members,
                }),
            ) => {
                let name = prospect_common::sanitize::sanitize(&name);
                self.info(&format!(
                    "List {name}: {added} added{} · {members} members · `prospect list show {name}`",
                    if had > 0 {
                        format!(", {had} already in it")
                    } else {
                        String::new()
                    }
                ))
            }
            (Slot::Lists, Err(e)) => {
                self.error_popup(format!("The list was not changed: {}", e.message));
                vec![]
            }
            (slot, Ok(other)) => {
                tracing::warn!(?slot, ?other, "unexpected outcome");
                vec![]
            }
        }
    }

    /// The answer of a free read a popup waits for (the store's purchases, the lists, the
    /// autocomplete suggestions, the history): into that popup, when it is still open.
    fn answer_popup(&mut self, slot: Slot, result: Result<Outcome, ApiFailure>) -> Vec<Command> {
        match (slot, result) {
            (Slot::Purchases, result) => {
                self.activity.purchases = Some(match result {
                    Ok(Outcome::Purchases(spends)) => Ok(spends),
                    Ok(_) => Err("an unexpected answer".into()),
                    Err(e) => Err(e.message),
                });
                vec![]
            }
            (Slot::ListsView, Ok(Outcome::Lists { lists, .. }))
                if matches!(self.popups.last(), Some(Popup::ListName(_))) =>
            {
                if let Some(Popup::ListName(p)) = self.popups.last_mut() {
                    p.lists_loaded(&lists);
                }
                vec![]
            }
            (Slot::ListsView, result) => {
                if let Some(Popup::Lists(l)) = self.popups.last_mut() {
                    l.loaded(match result {
                        Ok(Outcome::Lists { lists, suppression }) => Ok((lists, suppression)),
                        Ok(_) => Err("an unexpected answer".into()),
                        Err(e) => Err(e.message),
                    });
                }
                vec![]
            }
            (Slot::Autocomplete, Ok(Outcome::Suggestions { list, .. })) => {
                if let Some(Popup::Editor(ed)) = self.popups.last_mut() {
                    ed.show_suggestions(list);
                }
                vec![]
            }
            (Slot::History, Ok(Outcome::History(entries))) => {
                if let Some(Popup::History(h)) = self.popups.last_mut() {
                    h.loaded(Ok(entries));
                }
                vec![]
            }
            (Slot::History, Err(e)) => {
                if let Some(Popup::History(h)) = self.popups.last_mut() {
                    h.loaded(Err(e.message));
                }
                vec![]
            }
            (Slot::Autocomplete, Err(e)) => {
                if let Some(Popup::Editor(ed)) = self.popups.last_mut() {
                    ed.lookup_failed(&e.message);
                }
                self.set_status(
                    &format!("Autocomplete failed: {}", e.message),
                    StatusKind::Error,
                );
                vec![]
            }
            (slot, Ok(other)) => {
                tracing::warn!(?slot, ?other, "unexpected outcome");
                vec![]
            }
            (_, Err(_)) => vec![],
        }
    }

    /// Stops waiting for the page this tab is loading: the view no longer waits, and drops
    /// the answer when it comes. A page is a paid call, so its task goes on and the session
    /// stores the answer all the same (`H` reopens it at no cost).
    pub(super) fn stop_waiting(&mut self) -> Vec<Command> {
        let kind = self.tab();
        let slot = Slot::Search(kind);
        let paid = matches!(self.inflight.remove(&slot), Some(Call::Search { .. }));
        self.bump(slot);
        let s = self.search_mut(kind);
        s.loading = false;
        // Its answer is stored when it comes: asked again, it is read at no cost.
        if let Some(paging) = &mut s.paging {
            paging.failed();
        }
        // A first page stopped for: the pane is as before any search, not "nothing matched".
        if s.pages.is_empty() {
            s.request = None;
        }
        if paid {
            let history = self.opts.keymap.first_key_of(KeyAction::History);
            self.info(&format!(
                "Stopped waiting for the page. It is a paid call: its answer is still stored \
                 when it comes ({history} reopens it at no cost)."
            ))
        } else {
            self.info("Stopped waiting.")
        }
    }

    pub(super) fn any_loading(&self) -> bool {
        self.results.companies.loading || self.results.people.loading
    }

    /// A balance call when the gauge says one is due for `why` (at start, on `c`, after a
    /// 402, else at most once a minute): the service's request allowance is precious.
    pub(super) fn refresh_balance(&mut self, why: Refresh) -> Option<Command> {
        if !self.gauge.should_refresh(why, std::time::Instant::now()) {
            return None;
        }
        self.balance_loading = true;
        Some(self.call(Slot::Balance, Call::Balance))
    }

    /// A start-up call refused for the token (missing or not registered): said once, plainly,
    /// in a popup with the fix, not only on the status line. `false` for other failures.
    pub(super) fn token_rejected(&mut self, e: &ApiFailure) -> bool {
        if !matches!(
            e.error,
            Some(ApiError::UnknownToken | ApiError::MissingToken)
        ) {
            return false;
        }
        if matches!(self.status.as_ref(), Some(s) if s.text.starts_with("Token rejected")) {
            // The other start-up call said it already.
            self.balance_loading = false;
            return true;
        }
        if matches!(e.error, Some(ApiError::UnknownToken)) {
            self.gauge.on_balance_failed();
        }
        self.balance_loading = false;
        self.data_fields_failed(&e.message);
        self.error_popup(format!(
            "Token rejected by {}: check PROSPECT_API_TOKEN (or unset it to use the embedded sandbox).",
            prospect_common::sanitize::sanitize(self.base_url())
        ));
        true
    }
}
