//! Data out (issue 9; issue 19, "The shape": `impl App` by concern): the export popup and
//! what it writes at once (the first N beyond the loaded rows run in `exporting.rs`), facets,
//! and copying a field, a row or the request as curl.
use super::*;

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
            ExportEffect::Confirmed => self.run_export(),
            ExportEffect::Declined => {
                self.export_job = None;
                self.info("Cancelled; nothing was fetched or spent.")
            }
            ExportEffect::Stop => {
                if let Some(job) = &mut self.export_job {
                    job.stopping = true;
                    job.stop.0.cancel();
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
                    return self.plan_fetch(kind, c);
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
