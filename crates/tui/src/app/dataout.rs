//! Data out (issue 9; issue 19, "The shape": `impl App` by concern): the export popup and
//! its first-N job, facets, and copying a field, a row or the request as curl.
use super::*;
use prospect_core::engine::JobEnd;
use prospect_core::owned::JobId;

impl App {
    pub(super) fn noun(kind: SearchSubject) -> &'static str {
        match kind {
            SearchSubject::Companies => "companies",
            SearchSubject::People => "people",
        }
    }

    /// `Ctrl-e`: the export popup for the shown tab (nothing to export before a search).
    pub(super) fn open_export(&mut self) -> Vec<Command> {
        if self.export_job.is_some() {
            return self.info("An export is already fetching its pages.");
        }
        let kind = self.tab();
        let s = self.search(kind);
        let fetched = self.results.fetched(kind).count();
        if fetched == 0 {
            let run = self.opts.keymap.keys_of(KeyAction::Search);
            return self.info(&format!(
                "Nothing to export yet: run a search first ({run})."
            ));
        }
        let counts = ExportCounts {
            page: s.shown_len(),
            fetched,
            marked: self.results.marked(kind).len(),
            total: s.total,
        };
        let now = chrono::Local::now().naive_local();
        self.popups.push(Popup::Export(Box::new(ExportPopup::new(
            kind,
            counts,
            now,
            self.opts.export_dir.clone(),
        ))));
        vec![]
    }

    /// What the export popup asked for.
    pub(super) fn on_export(&mut self, e: ExportEffect) -> Vec<Command> {
        match e {
            ExportEffect::Nothing => vec![],
            ExportEffect::Close => {
                self.popups.pop();
                vec![]
            }
            ExportEffect::Export(choice) => self.export(choice),
            ExportEffect::Confirmed => self.begin_export_job(),
            ExportEffect::Declined => {
                self.export_job = None;
                self.info("Cancelled; nothing was fetched or spent.")
            }
            ExportEffect::Stop => {
                if let Some(job) = &mut self.export_job {
                    job.stopping = true;
                }
                if let Some(Popup::Export(p)) = self.popups.last_mut()
                    && let ExportStage::Fetching { stopping, .. } = &mut p.stage
                {
                    *stopping = true;
                }
                self.set_status(
                    "Stopping the export after the page on its way…",
                    StatusKind::Progress,
                );
                vec![]
            }
        }
    }

    /// Carries out a choice of the export popup: writes at once when the rows are loaded;
    /// for a first N beyond them, estimates the missing pages and asks (above
    /// `confirm_above`, per pool) before fetching them.
    pub(super) fn export(&mut self, c: ExportChoice) -> Vec<Command> {
        let Some(Popup::Export(p)) = self.popups.last() else {
            return vec![];
        };
        let kind = p.kind;
        let s = self.search(kind);
        let fetched = self.results.fetched(kind).count();
        let rows: Vec<&crate::msg::ResultRow> = match c.scope {
            ExportScope::Page => s.rows(),
            ExportScope::Fetched => self.results.fetched(kind).collect(),
            ExportScope::Marked => self.results.marked(kind),
            ExportScope::FirstN => {
                let exhausted = s.total.is_some_and(|t| fetched as u64 >= t)
                    || s.paging.as_ref().is_none_or(|p| p.ended());
                if fetched >= c.n || exhausted {
                    self.results.fetched(kind).take(c.n).collect()
                } else {
                    return self.plan_fetch(kind, c, fetched);
                }
            }
        };
        let records = crate::components::export::records(kind, rows);
        self.write_export(kind, c.format, c.preset, c.path, records)
    }

    pub(super) fn write_export(
        &mut self,
        kind: SearchSubject,
        format: prospect_core::export::Format,
        preset: Option<prospect_core::crm::Preset>,
        path: PathBuf,
        records: crate::msg::ExportRecords,
    ) -> Vec<Command> {
        if matches!(self.popups.last(), Some(Popup::Export(_))) {
            self.popups.pop();
        }
        self.set_status(
            &format!(
                "Writing {} {} to {}…",
                records.len(),
                Self::noun(kind),
                prospect_common::sanitize::sanitize(&path.display().to_string())
            ),
            StatusKind::Progress,
        );
        vec![Command::Export(ExportFile {
            path,
            format,
            preset,
            records,
        })]
    }

    /// The first N need more pages: their estimate (per page at the request's size), asked
    /// above the threshold, else fetched at once.
    pub(super) fn plan_fetch(
        &mut self,
        kind: SearchSubject,
        c: ExportChoice,
        fetched: usize,
    ) -> Vec<Command> {
        let Some(request) = self.search(kind).request.clone() else {
            return self.info("Run a search first.");
        };
        // The one estimate of N more (the CLI's `--dry-run` says the same): the last page asks
        // only for what is missing, so 70 more at 50 a page are 70 results, not 100.
        let size = request.page_size() as usize;
        let pages = (c.n - fetched).div_ceil(size) as u64;
        let cost = request.estimate_results((c.n - fetched) as u64);
        self.export_job = Some(ExportJob {
            kind,
            request,
            want: c.n,
            format: c.format,
            preset: c.preset,
            path: c.path,
            stopping: false,
            job: None,
        });
        if prospect_core::spend::pools_above(&cost, self.opts.confirm_above).is_empty() {
            self.begin_export_job()
        } else {
            if let Some(Popup::Export(p)) = self.popups.last_mut() {
                p.stage = ExportStage::Confirm { pages, cost };
            }
            vec![]
        }
    }

    /// Records the export of the first N as a job before its first page is bought (issue 35):
    /// the search and N, with its file and format, so `prospect resume ID` finishes it.
    pub(super) fn begin_export_job(&mut self) -> Vec<Command> {
        let Some(job) = &self.export_job else {
            return vec![];
        };
        let action = prospect_core::engine::Action::search(
            job.request.endpoint(),
            &job.request.body(),
            job.want as u64,
            None,
        );
        use clap::ValueEnum;
        let options = serde_json::json!({
            "format": job.format.to_possible_value().map(|v| v.get_name().to_string()),
            "out": std::path::absolute(&job.path).unwrap_or_else(|_| job.path.clone()),
        });
        let what = format!(
            "export of the first {} {} to {}",
            job.want,
            Self::noun(job.kind),
            job.path.display()
        );
        let got = self.results.fetched(job.kind).count();
        let want = job.want;
        if let Some(Popup::Export(p)) = self.popups.last_mut() {
            p.stage = ExportStage::Fetching {
                got,
                want,
                stopping: false,
            };
        }
        vec![self.call(
            Slot::ExportJob,
            Call::BeginJob {
                action: Box::new(action),
                what,
                options,
            },
        )]
    }

    /// The export's job is recorded: its pages are bought now (or, when the export was closed
    /// meanwhile, the job ends).
    pub(super) fn on_export_job_begun(&mut self, id: Option<JobId>) -> Vec<Command> {
        match &mut self.export_job {
            Some(job) if !job.stopping => {
                job.job = id;
                self.fetch_for_export()
            }
            _ => {
                // Stopped before its first page: nothing was bought.
                self.export_job = None;
                if matches!(self.popups.last(), Some(Popup::Export(_))) {
                    self.popups.pop();
                }
                let mut cmds =
                    self.end_export_job(id, JobEnd::Interrupted("stopped before a page".into()));
                cmds.extend(self.info("Export stopped before any page; nothing was spent."));
                cmds
            }
        }
    }

    /// Records how the export's job ended (nothing when it was not recorded).
    pub(super) fn end_export_job(&mut self, id: Option<JobId>, end: JobEnd) -> Vec<Command> {
        match id {
            Some(id) => vec![self.call(Slot::ExportJob, Call::EndJob { id, end })],
            None => vec![],
        }
    }

    /// Sends the next page the export job needs (its answer comes back in [`Slot::Export`]).
    pub(super) fn fetch_for_export(&mut self) -> Vec<Command> {
        let Some(job) = self.export_job.clone() else {
            return vec![];
        };
        let got = self.results.fetched(job.kind).count();
        let want = (job.want.saturating_sub(got)) as u64;
        let s = self.search_mut(job.kind);
        // The core's one paging rule: the next page's start, and a last page only as large
        // as what is missing.
        let ask = match s.paging.as_mut().map(|p| p.ask(want)) {
            Some(Ok(ask)) => ask,
            Some(Err(e)) => {
                self.export_job = None;
                self.popups.pop();
                let mut cmds = self.end_export_job(job.job, JobEnd::Failed(e.to_string()));
                cmds.extend(self.not_asked(e));
                return cmds;
            }
            None => None,
        };
        let Some(ask) = ask else {
            self.export_job = None;
            self.export_record = job.job;
            let rows: Vec<&crate::msg::ResultRow> =
                self.results.fetched(job.kind).take(job.want).collect();
            let records = crate::components::export::records(job.kind, rows);
            return self.write_export(job.kind, job.format, job.preset, job.path, records);
        };
        if let Some(Popup::Export(p)) = self.popups.last_mut() {
            p.stage = ExportStage::Fetching {
                got,
                want: job.want,
                stopping: false,
            };
        }
        if let Some(paging) = &mut self.search_mut(job.kind).paging {
            paging.sent(&ask);
        }
        let request = ask.request().clone();
        self.set_status(
            &format!(
                "Fetching {} for the export: {got} of {} rows · each page ≤ {}",
                Self::noun(job.kind),
                job.want,
                request.estimate()
            ),
            StatusKind::Progress,
        );
        vec![self.call(
            Slot::Export(job.kind),
            Call::Search {
                request,
                page: ask.position(),
                fresh: prospect_core::session::Freshness::Stored,
                set: self.search(job.kind).set_run.clone(),
            },
        )]
    }

    /// A page of the export job arrived (it was stored by the session): it joins its tab's
    /// pages; then the next page, or the file when there are enough rows (or no more).
    pub(super) fn on_export_page(&mut self, result: Result<Outcome, ApiFailure>) -> Vec<Command> {
        let Some(job) = self.export_job.clone() else {
            return vec![];
        };
        let page = match result {
            Ok(Outcome::Page(page)) => page,
            Ok(_) => return vec![],
            Err(e) => {
                self.export_job = None;
                if let Some(paging) = &mut self.search_mut(job.kind).paging {
                    paging.failed();
                }
                if matches!(self.popups.last(), Some(Popup::Export(_))) {
                    self.popups.pop();
                }
                self.error_popup(format!(
                    "The export stopped: {}. Nothing was written; the pages bought so far are kept.",
                    e.message
                ));
                return self.end_export_job(job.job, JobEnd::Failed(e.message));
            }
        };
        let s = self.search_mut(job.kind);
        let same = s.request.as_ref() == Some(&job.request);
        let mut more = false;
        if same {
            if let Some(paging) = &mut s.paging {
                paging.answered(&page.end);
                more = !paging.ended();
            }
            s.total = page.total.or(s.total);
            s.search_id = page.search_id.or(s.search_id);
            s.push_page(Page {
                rows: page.rows,
                stored: false,
            });
        }
        let got = self.results.fetched(job.kind).count();
        let total_reached = self.search(job.kind).total.is_some_and(|t| got as u64 >= t);
        if !same {
            self.export_job = None;
            if matches!(self.popups.last(), Some(Popup::Export(_))) {
                self.popups.pop();
            }
            let mut cmds =
                self.end_export_job(job.job, JobEnd::Interrupted("the search changed".into()));
            cmds.extend(
                self.info("The search changed; the export stopped and nothing was written."),
            );
            return cmds;
        }
        if job.stopping {
            self.export_job = None;
            if matches!(self.popups.last(), Some(Popup::Export(_))) {
                self.popups.pop();
            }
            let mut cmds = self.end_export_job(job.job, JobEnd::Interrupted("stopped".into()));
            cmds.extend(self.info(&format!(
                "Export stopped: {got} rows fetched (kept in the results and the store); nothing written."
            )));
            return cmds;
        }
        if got >= job.want || !more || total_reached {
            self.export_job = None;
            self.export_record = job.job;
            let rows: Vec<&crate::msg::ResultRow> =
                self.results.fetched(job.kind).take(job.want).collect();
            let records = crate::components::export::records(job.kind, rows);
            return self.write_export(job.kind, job.format, job.preset, job.path, records);
        }
        self.fetch_for_export()
    }

    /// `f`: the facets of the shown tab's loaded rows.
    pub(super) fn open_facets(&mut self) -> Vec<Command> {
        let kind = self.tab();
        if self.results.fetched(kind).next().is_none() {
            let run = self.opts.keymap.keys_of(KeyAction::Search);
            return self.info(&format!(
                "No results loaded yet: run a search first ({run})."
            ));
        }
        let view = FacetsView::new(kind, self.results.fetched(kind), self.search(kind).total);
        self.popups.push(Popup::Facets(view));
        vec![]
    }

    /// `y`: in the details, the field at the top of the pane; elsewhere the selected row's
    /// name (its domain when it has no name).
    pub(super) fn copy_field(&mut self) -> Vec<Command> {
        let kind = self.tab();
        let Some(row) = self.search(kind).selected() else {
            return self.info("Nothing selected to copy.");
        };
        let text = if self.focus == Pane::Details {
            self.details
                .field(row)
                .map(|(label, v)| crate::components::details::copy_text(&label, v))
        } else {
            row.cells
                .first()
                .filter(|c| !c.is_empty())
                .cloned()
                .or_else(|| row.cells.get(1).cloned())
        };
        match text.filter(|t| !t.is_empty()) {
            Some(t) => vec![Command::Copy(t)],
            None => self.info("That field is empty."),
        }
    }

    /// `Y`: the selected row's typed record as JSON.
    pub(super) fn copy_row(&mut self) -> Vec<Command> {
        match self.search(self.tab()).selected() {
            Some(row) => vec![Command::Copy(crate::components::export::row_json(row))],
            None => self.info("Nothing selected to copy."),
        }
    }

    /// `C`: the form's request as a curl command; the token is `$PROSPECT_API_TOKEN`.
    pub(super) fn copy_curl(&mut self) -> Vec<Command> {
        let cmd = prospect_core::curl::curl_command(
            self.base_url(),
            self.form.endpoint,
            &self.request_body(),
        );
        vec![Command::Copy(cmd)]
    }
}
