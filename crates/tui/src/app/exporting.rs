//! The export of the first N results of a tab's search (issue 9; issue 35: through the
//! engine's one door). The search of the first N is planned by the engine (what the store owns,
//! what is to buy, the budget), asked above `confirm_above`, then run as one job
//! ([`Call::ExportRun`]): the engine reads the stored pages, buys the rest and keeps each page
//! before it comes back as progress and joins the tab. The file is written from the tab's first
//! N rows when the run is done; stopped, failed or with its search changed, nothing is written
//! and what was bought is kept (`prospect resume ID` finishes the job into its file).
use super::*;
use crate::msg::{ExportRan, Stop};
use prospect_core::engine::SetSearch;

impl App {
    /// The first N need more pages: the engine plans the search of the first N
    /// ([`Call::PlanExport`]); [`App::on_export_planned`] goes on.
    pub(super) fn plan_fetch(&mut self, kind: SearchSubject, c: ExportChoice) -> Vec<Command> {
        let Some(request) = self.search(kind).request.clone() else {
            return self.info("Run a search first.");
        };
        // A set's run goes on: new-only, its excludes as they stood when the run started.
        let set = self.search(kind).set_run.clone().map(|r| SetSearch {
            run_at: Some(r.run_at),
            ..r.set
        });
        let job = ExportJob {
            kind,
            request,
            want: c.n,
            format: c.format,
            preset: c.preset,
            path: c.path,
            stopping: false,
            stop: Stop::default(),
            plan: None,
            changed: false,
            set,
        };
        let action = Box::new(job.action());
        self.export_job = Some(job);
        self.set_status("Planning the export…", StatusKind::Progress);
        vec![self.call(Slot::Export(kind), Call::PlanExport { action })]
    }

    /// The plan of the export's first N: refused → said, nothing sent; above the threshold
    /// (per pool) → asked in the popup; else run at once. The popup closed meanwhile: dropped.
    pub(super) fn on_export_planned(&mut self, plan: prospect_core::engine::Plan) -> Vec<Command> {
        // The popup was closed while the plan was made: nothing is fetched.
        if !matches!(self.popups.last(), Some(Popup::Export(_))) {
            self.export_job = None;
            return vec![];
        }
        let Some(job) = &mut self.export_job else {
            return vec![];
        };
        if let Some(r) = &plan.refusal {
            let why = format!("Export refused: {r}");
            self.export_job = None;
            if matches!(self.popups.last(), Some(Popup::Export(_))) {
                self.popups.pop();
            }
            self.error_popup(why);
            return vec![];
        }
        let (results, requests, cost) = (plan.to_buy, plan.requests, plan.cost);
        job.plan = Some(plan);
        self.status = None;
        if prospect_core::spend::pools_above(&cost, self.opts.confirm_above).is_empty() {
            self.run_export()
        } else {
            if let Some(Popup::Export(p)) = self.popups.last_mut() {
                p.stage = ExportStage::Confirm {
                    results,
                    requests,
                    cost,
                };
            }
            vec![]
        }
    }

    /// Runs the planned export as a job ([`Call::ExportRun`]): its words in `prospect jobs` and
    /// the file and format a resume writes go with its plan.
    pub(super) fn run_export(&mut self) -> Vec<Command> {
        let Some(job) = &self.export_job else {
            return vec![];
        };
        let have = self.results.fetched(job.kind).count() as u64;
        let Some(mut plan) = job.plan.clone() else {
            return vec![];
        };
        use clap::ValueEnum;
        plan.job_options = Some(serde_json::json!({
            "format": job.format.to_possible_value().map(|v| v.get_name().to_string()),
            "out": std::path::absolute(&job.path).unwrap_or_else(|_| job.path.clone()),
        }));
        plan.action = format!(
            "export of the first {} {} to {}",
            job.want,
            Self::noun(job.kind),
            job.path.display()
        );
        let call = Call::ExportRun {
            action: Box::new(job.action()),
            plan: Box::new(plan),
            first: job.request.clone(),
            have,
            stop: job.stop.clone(),
        };
        let (kind, want) = (job.kind, job.want);
        if let Some(Popup::Export(p)) = self.popups.last_mut() {
            p.stage = ExportStage::Fetching {
                got: have as usize,
                want,
                stopping: false,
            };
        }
        self.set_status(
            &format!(
                "Fetching {} for the export: {have} of {want} rows",
                Self::noun(kind)
            ),
            StatusKind::Progress,
        );
        vec![self.call(Slot::Export(kind), call)]
    }

    /// A page of the export's run, kept by the engine: it joins its tab (unless the tab's search
    /// changed meanwhile: then the run is stopped after the page on its way).
    pub(super) fn on_export_progress(&mut self, page: PageData) -> Vec<Command> {
        let Some(job) = &self.export_job else {
            return vec![];
        };
        let (kind, want) = (job.kind, job.want);
        if self.results_request(kind) != Some(&job.request) {
            if let Some(job) = &mut self.export_job {
                job.changed = true;
                job.stop.0.cancel();
            }
            return vec![];
        }
        let s = self.search_mut(kind);
        s.total = page.total.or(s.total);
        s.push_page(Page {
            rows: page.rows,
            stored: page.stored_at.is_some(),
        });
        let got = self.results.fetched(kind).count();
        if let Some(Popup::Export(p)) = self.popups.last_mut()
            && let ExportStage::Fetching { got: g, .. } = &mut p.stage
        {
            *g = got;
        }
        if !self.export_job.as_ref().is_some_and(|j| j.stopping) {
            self.set_status(
                &format!(
                    "Fetching {} for the export: {got} of {want} rows",
                    Self::noun(kind)
                ),
                StatusKind::Progress,
            );
        }
        vec![]
    }

    /// The export's run ended: the file is written from the tab's first N rows, or, stopped,
    /// failed or with its search changed, nothing is written and what was bought is kept.
    pub(super) fn on_export_ran(&mut self, ran: ExportRan) -> Vec<Command> {
        let Some(job) = self.export_job.take() else {
            return vec![];
        };
        if matches!(self.popups.last(), Some(Popup::Export(_))) {
            self.popups.pop();
        }
        let kind = job.kind;
        let mut resume = ran
            .job
            .map(|id| format!(" (`prospect resume {id}` finishes it)"))
            .unwrap_or_default();
        for w in &ran.warnings {
            resume.push_str(&format!(" · {w}"));
        }
        if job.changed {
            return self.info(&format!(
                "The search changed; the export stopped and nothing was written{resume}."
            ));
        }
        self.search_mut(kind).paging = Some(ran.paging);
        let got = self.results.fetched(kind).count();
        if let Some(e) = ran.error {
            self.error_popup(format!(
                "The export stopped: {e}. Nothing was written; the pages bought so far are \
                 kept{resume}."
            ));
            return vec![];
        }
        if job.stopping || ran.stopped {
            return self.info(&format!(
                "Export stopped: {got} rows fetched (kept in the results and the store); \
                 nothing written{resume}."
            ));
        }
        if !ran.warnings.is_empty() {
            self.error_popup(format!(
                "The export's pages were bought, with trouble: {}. The file is written with \
                 what read.",
                ran.warnings.join("; ")
            ));
        }
        let rows: Vec<&crate::msg::ResultRow> = self.results.fetched(kind).take(job.want).collect();
        let records = crate::components::export::records(kind, rows);
        self.write_export(kind, job.format, job.preset, job.path, records)
    }

    /// The export's plan or run failed before it ended (nothing more is sent; what was bought
    /// is kept).
    pub(super) fn on_export_failed(&mut self, e: ApiFailure) -> Vec<Command> {
        if self.export_job.take().is_none() {
            return vec![];
        }
        if matches!(self.popups.last(), Some(Popup::Export(_))) {
            self.popups.pop();
        }
        self.error_popup(format!(
            "The export stopped: {}. Nothing was written; the pages bought so far are kept.",
            e.message
        ));
        vec![]
    }

    /// The first request of the search in the tab of `kind`.
    fn results_request(&self, kind: SearchSubject) -> Option<&SearchRequest> {
        self.search(kind).request.as_ref()
    }

    /// Stops the paid runs that go on by themselves (the export's) after the page on its way:
    /// for quitting, which waits for what is in flight, not for pages not yet asked.
    pub fn stop_runs(&mut self) {
        if let Some(job) = &mut self.export_job {
            job.stopping = true;
            job.stop.0.cancel();
        }
    }
}
