//! Searches (issue 19, "The shape": `impl App` by concern): building and gating a search
//! page, sending it, its answer into the tab, paging, `P` (people at the company) and `L`
//! (lookalikes), and reopened searches and jobs.
use super::*;
use prospect_api::error::ApiError;
use prospect_core::engine::{PageAsk, PagedSearch};

impl App {
    /// The answer to the spend gate of a search page.
    pub(super) fn on_confirm(&mut self, answer: Answer) -> Vec<Command> {
        match answer {
            Answer::Yes => {
                if let Some(Popup::Confirm(p)) = self.popups.pop() {
                    return self.start_search(p);
                }
            }
            Answer::No => {
                self.popups.pop();
                return self.info("Cancelled; nothing was spent.");
            }
            Answer::ToggleNewOnly => return self.gate_toggle_new_only(),
            Answer::Undecided => {}
        }
        vec![]
    }

    /// A stored search read back into the tab of `kind`: its pages at no cost, its filters in
    /// the form; paging past the last stored page continues it as a paid search.
    pub(super) fn on_reopened(&mut self, kind: SearchSubject, r: Reopened) -> Vec<Command> {
        self.last_error = None;
        let n = r.pages.len();
        let total = r.pages.iter().rev().find_map(|p| p.total);
        let notes = r.pages.last().map(|p| p.notes.clone()).unwrap_or_default();
        let endpoint = r.request.endpoint();
        let paging = PagedSearch::reopened(r.request.clone(), r.pages.iter().map(|p| &p.end));
        *self.search_mut(kind) = SearchState {
            paging: Some(paging),
            request: Some(r.request),
            pages: r
                .pages
                .into_iter()
                .map(|p| Page {
                    rows: p.rows,
                    stored: true,
                })
                .collect(),
            total,
            notes,
            search_id: Some(r.id),
            stored_age: Some(r.age),
            ..SearchState::default()
        };
        self.form.load(endpoint, r.body);
        self.form.sel = self.form.sel.min(self.form_rows().len().saturating_sub(1));
        self.check_form();
        self.focus = Pane::Results;
        self.details.reset();
        let left_out = r
            .suppressed
            .map(|s| format!(" · {s} since, left out"))
            .unwrap_or_default();
        self.info(&format!(
            "Reopened from store, {} · {n} page{}{left_out} · nothing spent",
            describe_age(r.age),
            if n == 1 { "" } else { "s" }
        ))
    }

    /// Unfinished jobs of earlier runs: each listed in the activity pane as failed with how to
    /// resume it, and the status line says how many.
    pub(super) fn on_open_jobs(&mut self, list: Vec<crate::msg::OpenJob>) -> Vec<Command> {
        if list.is_empty() {
            return vec![];
        }
        for j in &list {
            let id = self.activity.next_id();
            self.activity.jobs.push(crate::components::activity::Job {
                id,
                label: format!("job {}: {}", j.id, j.what),
                action: None,
                fresh: prospect_core::session::Freshness::Stored,
                state: crate::components::activity::JobState::Failed(format!(
                    "{} ({}); {} kept — `prospect resume {}` buys only the rest",
                    j.state, j.detail, j.bought, j.id
                )),
                estimate: prospect_api::cost::Cost::ZERO,
                charged: prospect_api::cost::Cost::ZERO,
                sent_at: j.updated_at,
                waiting: Default::default(),
                sent_ids: 0,
                attempts: 1,
                note: String::new(),
            });
        }
        self.set_status(
            &format!(
                "{} unfinished paid action{} from an earlier run: see the activity pane \
                 (`prospect resume ID` buys only the rest)",
                list.len(),
                if list.len() == 1 { "" } else { "s" }
            ),
            StatusKind::Info,
        );
        vec![]
    }

    pub(super) fn on_page(&mut self, kind: SearchSubject, page: PageData) -> Vec<Command> {
        // A search that works again: the last error is history.
        self.last_error = None;
        let s = self.search_mut(kind);
        s.loading = false;
        s.error = None;
        s.total = page.total.or(s.total);
        s.notes = page.notes;
        s.search_id = page.search_id.or(s.search_id);
        let n = page.rows.len();
        let stored_at = page.stored_at;
        let set_facts = page.set.clone();
        if let Some(paging) = &mut s.paging {
            paging.answered(&page.end);
        }
        s.push_page(Page {
            rows: page.rows,
            stored: stored_at.is_some(),
        });
        s.page = s.pages.len() - 1;
        s.sel = 0;
        s.offset.set(0);
        let first = s.first_index();
        let total = s.total;
        let set_words = set_facts.map(|f| self.mark_new(kind, &f));
        self.details.reset();
        // A page answered from the store cost nothing now: its answer's `creditsUsed` is what
        // it cost when it was bought, not what this showing spent.
        let mut used = if !page.charge.cost.is_zero() {
            format!(" · {} used", page.charge.cost)
        } else if page.credits_used > 0.0 && stored_at.is_none() {
            format!(" · {} credits used", fmt_credits(page.credits_used))
        } else {
            String::new()
        };
        if let Some(e) = &page.store_error {
            used.push_str(&format!(" · NOT stored: {e}"));
        }
        if let Some(e) = &page.unread {
            used.push_str(&format!(" · {e}; the page is bought again when run again"));
        }
        if let Some(sup) = &page.suppressed {
            used.push_str(&format!(" · {sup}"));
        }
        if let Some(w) = set_words {
            used.push_str(&format!(" · {w}"));
        }
        if let Some(at) = stored_at {
            let refresh = self.opts.keymap.first_key_of(KeyAction::Refresh);
            used.push_str(&format!(
                " · from the store ({}) · 0 credits · {refresh} buys it again",
                prospect_core::spend::describe_age(self.now - at)
            ));
            self.last_stored_search = Some(kind);
        }
        let text = match (n, total) {
            (0, _) => format!(
                "No {} matched{used}",
                if kind == SearchSubject::Companies {
                    "companies"
                } else {
                    "people"
                }
            ),
            (n, Some(t)) => format!("Rows {}–{} of {t}{used}", first, first + n - 1),
            (n, None) => format!("Rows {}–{}{used}", first, first + n - 1),
        };
        self.info(&text)
    }

    /// The body of the first page of a search of the current endpoint.
    pub fn request_body(&self) -> Value {
        self.form.request_body()
    }

    pub(super) fn run_search(&mut self) -> Vec<Command> {
        match request::build_search(self.form.endpoint, &self.request_body()) {
            Ok(request) => match PagedSearch::first_page(request) {
                Ok((_, ask)) => self.gate(ask, false),
                Err(e) => self.not_asked(e),
            },
            Err(problems) => {
                self.form.problems = problems.clone();
                self.not_sent(&problems)
            }
        }
    }

    /// A page the core's paging would not ask (its request does not check): nothing is sent.
    pub(super) fn not_asked(&mut self, e: ApiError) -> Vec<Command> {
        match e {
            ApiError::Invalid(problems) => self.not_sent(&problems),
            e => self.info(&e.to_string()),
        }
    }

    /// A search the client would refuse: nothing is confirmed, sent or spent.
    pub(super) fn not_sent(&mut self, problems: &[ValidationError]) -> Vec<Command> {
        self.error_popup(format!("{NOT_SENT}{}", problems_text(problems)));
        vec![]
    }

    /// The spend gate of a search page. Its request has passed the client's checks.
    pub(super) fn gate(&mut self, ask: PageAsk, next_page: bool) -> Vec<Command> {
        let kind = ask.request().subject();
        let mut p = PendingSearch::new(ask, next_page);
        // A search of the open set is a run of it; a next page goes on with its tab's run. The
        // gate offers new-only to a new search of a set with earlier runs.
        p.set = match next_page {
            true => self.search(kind).set_run.as_ref().map(|r| r.set.clone()),
            false => self.set_of(kind),
        };
        p.offers_new_only = !next_page
            && p.set
                .as_ref()
                .is_some_and(|s| self.earlier_runs(&s.name, kind) > 0);
        self.gate_page(p)
    }

    /// A page estimated above the threshold, or any page under a budget, is planned first
    /// ([`Call::PlanPage`], free; [`App::on_page_planned`] goes on); else it starts at once.
    pub(super) fn gate_page(&mut self, p: PendingSearch) -> Vec<Command> {
        if p.needs_confirmation(self.opts.confirm_above) || self.opts.budgeted || p.offers_new_only
        {
            let call = Call::PlanPage {
                request: p.request().clone(),
                fresh: p.fresh,
                set: p.set.clone(),
            };
            self.planning = Some(p);
            self.set_status("Planning the search…", StatusKind::Progress);
            vec![self.call(Slot::Prepare, call)]
        } else {
            self.start_search(p)
        }
    }

    /// The plan of the page being planned: refused (over a budget) → said, nothing sent; owned
    /// by the store → read at 0 credits without asking; else confirmed above the threshold (the
    /// popup shows the plan), or started.
    pub(super) fn on_page_planned(&mut self, plan: prospect_core::engine::Plan) -> Vec<Command> {
        let Some(mut p) = self.planning.take() else {
            return vec![];
        };
        if let Some(r) = &plan.refusal {
            self.error_popup(format!("Search refused: {r}"));
            return vec![];
        }
        let free = plan.is_free();
        p.set_plan(plan);
        if free && !p.offers_new_only {
            return self.start_search(p);
        }
        if p.needs_confirmation(self.opts.confirm_above) || p.offers_new_only {
            self.status = None;
            self.popups.push(Popup::Confirm(p));
            vec![]
        } else {
            self.start_search(p)
        }
    }

    /// The search of `request` bought again from its first page (the refresh key after the
    /// store answered it), through the same gate as any search.
    pub(super) fn refresh_search(&mut self, request: SearchRequest) -> Vec<Command> {
        let ask = match PagedSearch::first_page(request) {
            Ok((_, ask)) => ask,
            Err(e) => return self.not_asked(e),
        };
        let mut p = PendingSearch::new(ask, false);
        p.fresh = prospect_core::session::Freshness::Refresh;
        self.gate_page(p)
    }

    pub(super) fn start_search(&mut self, p: PendingSearch) -> Vec<Command> {
        let kind = p.request().subject();
        let noun = if kind == SearchSubject::Companies {
            "companies"
        } else {
            "people"
        };
        let what = if p.next_page {
            "next page of"
        } else {
            "searching"
        };
        let cost = match &p.plan {
            Some(plan) if plan.is_free() => "the store has it (0 credits)".to_string(),
            _ => format!("estimated cost ≤ {}", p.cost),
        };
        self.set_status(
            &format!(
                "{} {noun} via {} · {cost}",
                capitalize(what),
                p.request().endpoint().path(),
            ),
            StatusKind::Progress,
        );
        let set_run = self.set_run_for(&p);
        let s = self.search_mut(kind);
        if !p.next_page {
            *s = SearchState {
                request: Some(p.request().clone()),
                paging: Some(PagedSearch::new(p.request().clone())),
                set_run: set_run.clone(),
                ..SearchState::default()
            };
        }
        s.loading = true;
        s.error = None;
        if let Some(paging) = &mut s.paging {
            paging.sent(&p.ask);
        }
        let page = p.ask.position();
        self.focus = if p.next_page {
            self.focus
        } else {
            Pane::Results
        };
        self.details.reset();
        vec![self.call(
            Slot::Search(kind),
            Call::Search {
                request: p.ask.request().clone(),
                page,
                fresh: p.fresh,
                set: set_run,
            },
        )]
    }

    pub(super) fn next_page(&mut self) -> Vec<Command> {
        let kind = self.tab();
        let s = self.search_mut(kind);
        if s.loading {
            return vec![];
        }
        if s.page + 1 < s.pages.len() {
            s.page += 1;
            s.sel = 0;
            s.offset.set(0);
            self.details.reset();
            return self.rows_status(kind);
        }
        let Some(first) = s.request.clone() else {
            return self.info("Run a search first (Ctrl-r).");
        };
        // The export's run is buying this search's next pages: a page asked beside it would
        // be bought twice.
        if self.export_job.as_ref().is_some_and(|j| j.kind == kind) {
            return self
                .info("The export is fetching the next pages; they join the tab as they come.");
        }
        let s = self.search_mut(kind);
        let shown: usize = s.pages.iter().map(|p| p.rows.len()).sum();
        let size = first.page_size();
        let by_total = s.total.is_some_and(|t| shown as u64 >= t);
        let ask = match &mut s.paging {
            Some(paging) if !by_total => paging.ask(size),
            _ => Ok(None),
        };
        let stuck = s.paging.as_ref().is_some_and(|p| p.stuck_cursor());
        match ask {
            Ok(Some(ask)) => self.gate(ask, true),
            Ok(None) => self.info(if stuck {
                "This is the last page: the service named the same cursor again, so nothing \
                 more was asked (a page is never bought twice)."
            } else {
                "This is the last page."
            }),
            Err(e) => self.not_asked(e),
        }
    }

    /// The domain of the selected company (companies tab).
    pub(super) fn selected_domain(&self) -> Option<String> {
        let row = self.search(SearchSubject::Companies).selected()?;
        let domain = &row.record.company()?.domain;
        (!domain.is_empty()).then(|| domain.clone())
    }

    pub(super) fn people_at_company(&mut self) -> Vec<Command> {
        if self.tab() != SearchSubject::Companies {
            return self.info("Select a company first (companies tab).");
        }
        let Some(domain) = self.selected_domain() else {
            return self.info("Select a company first.");
        };
        self.push_back(SearchSubject::People);
        // The company is carried over, nothing else: the people form starts from it alone
        // (the people filters it held come back with Back).
        self.form.show_kind(SearchSubject::People);
        let size = schema::get(&self.form.body, &["size"]).cloned();
        let mut body = serde_json::json!({});
        if let Some(size) = size {
            schema::set(&mut body, &["size"], size);
        }
        schema::set(
            &mut body,
            &["companiesFilters", "includeDomains"],
            Value::Array(vec![Value::String(domain.clone())]),
        );
        self.form.body = body;
        self.form.clamp_selection();
        let cmds = self.run_search();
        if self.popups.is_empty() {
            let p = format!(
                "People at {}: the company only (Only these domains), not the people filters \
                 ({} brings them back) · ",
                prospect_common::sanitize::sanitize(&domain),
                self.opts.keymap.first_key_of(KeyAction::Back)
            );
            if let Some(st) = &mut self.status {
                st.text.insert_str(0, &p);
            }
        }
        cmds
    }

    pub(super) fn lookalikes(&mut self) -> Vec<Command> {
        if self.tab() != SearchSubject::Companies {
            return self.info("Select a company first (companies tab).");
        }
        let Some(domain) = self.selected_domain() else {
            return self.info("Select a company first.");
        };
        self.push_back(SearchSubject::Companies);
        schema::set(
            &mut self.form.body,
            &["companiesFilters", "lookalikeDomains"],
            Value::Array(vec![Value::String(domain.clone())]),
        );
        schema::remove(&mut self.form.body, &["companiesFilters", "includeDomains"]);
        let cmds = self.run_search();
        if self.popups.is_empty() {
            let p = format!(
                "Companies like {}: the company carried over (Lookalikes of), your other company \
                 filters kept · ",
                prospect_common::sanitize::sanitize(&domain)
            );
            if let Some(st) = &mut self.status {
                st.text.insert_str(0, &p);
            }
        }
        cmds
    }

    /// "Rows 26–50 of 39726" for the page shown in the tab of `kind` (paging through pages
    /// already fetched refreshes the status line instead of leaving an old range).
    pub(super) fn rows_status(&mut self, kind: SearchSubject) -> Vec<Command> {
        let s = self.search(kind);
        let n = s.shown_len();
        if n == 0 {
            self.status = None;
            return vec![];
        }
        let a = s.first_index();
        let text = match s.total {
            Some(t) => format!("Rows {a}–{} of {t}", a + n - 1),
            None => format!("Rows {a}–{}", a + n - 1),
        };
        self.info(&text)
    }
}
