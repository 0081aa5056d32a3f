//! The export popup (`Ctrl-e`, issue 9): which rows (this page, the pages already fetched,
//! the first N results, the marked rows), which format (CSV or JSONL, written by
//! `core::export`) and which file (editable; by default `prospect-companies-YYYYMMDD-HHMM.csv`
//! in the working directory). For the first N, the pages still missing are a paid job: the
//! popup shows their estimate and asks above `confirm_above` (the spend gate's rule, per
//! pool), then a progress bar while they arrive; close stops the job after the page on its
//! way (pages already bought are kept, in the results and the store).
//!
//! The popup owns its state and keys (text layer for its fields, `y` / `n` for the spend
//! question) and hands the state owner a typed [`ExportEffect`]; the file itself is written
//! off the UI loop by [`write_file`].
use crate::theme::theme;
use std::path::PathBuf;

use chrono::NaiveDateTime;
use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, LineGauge, Paragraph, Wrap};
use ratatui_textarea::TextArea;

use super::spend_gate::{self, Answer};
use super::text::{input_text, textarea, type_key};
use super::widgets::{centered, dim, frame, selected};
use super::{Component, Ctx, Handled, Hint, Input, hint_line};
use crate::fmt::fmt_credits;
use crate::keymap::{KeyAction, TextAction};
use crate::schema::SearchSubject;
use prospect_api::cost::Cost;
use prospect_common::sanitize::sanitize;
use prospect_core::config::ExportDir;
use prospect_core::crm::Preset;
use prospect_core::export::Format;

/// Which rows an export takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The rows of the shown page.
    Page,
    /// Every page fetched so far.
    Fetched,
    /// The first N results of the search, fetching the pages still missing.
    FirstN,
    /// The marked rows.
    Marked,
}

impl Scope {
    /// Every scope, in the order Tab cycles through them.
    pub const ALL: [Scope; 4] = [Scope::Page, Scope::Fetched, Scope::FirstN, Scope::Marked];
}

/// How many rows each scope has now, for the labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// Rows of the shown page.
    pub page: usize,
    /// Rows of every fetched page.
    pub fetched: usize,
    /// Marked rows.
    pub marked: usize,
    /// `total` of the search, when the service said.
    pub total: Option<u64>,
}

/// Where the popup is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stage {
    /// Choosing scope, N, format and file.
    Edit,
    /// The first N need `results` more results in `requests` requests that may cost `cost`
    /// (the engine's plan): asks before spending.
    Confirm {
        /// Results still to buy.
        results: u64,
        /// Requests they take.
        requests: u32,
        /// Their estimate, per pool.
        cost: Cost,
    },
    /// The file chosen exists already (issue 38): asks before replacing it.
    Overwrite,
    /// Pages are being fetched: `got` of `want` rows so far.
    Fetching {
        /// Rows fetched so far (all pages of the tab).
        got: usize,
        /// Rows wanted.
        want: usize,
        /// Close was pressed: no page is sent after the one on its way.
        stopping: bool,
    },
}

/// What the user chose.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportChoice {
    /// The rows.
    pub scope: Scope,
    /// N of [`Scope::FirstN`] (at least 1).
    pub n: usize,
    /// CSV or JSONL.
    pub format: Format,
    /// A CRM layout of the CSV ([`prospect_core::crm`]); `None` for prospect's own columns.
    pub preset: Option<Preset>,
    /// The file to write (relative paths are in the working directory).
    pub path: PathBuf,
}

/// What a key in the popup wants from the state owner.
#[derive(Debug, Clone, PartialEq)]
pub enum ExportEffect {
    /// Nothing beyond a redraw.
    Nothing,
    /// Close the popup; nothing was done.
    Close,
    /// Export this.
    Export(ExportChoice),
    /// The spend question was answered yes: fetch the missing pages.
    Confirmed,
    /// The spend question was answered no: nothing fetched, nothing spent.
    Declined,
    /// Stop fetching after the page on its way.
    Stop,
}

/// Fields of the popup, top to bottom.
const FIELDS: usize = 4;
const F_SCOPE: usize = 0;
const F_N: usize = 1;
const F_FORMAT: usize = 2;
const F_PATH: usize = 3;

/// The export popup's state.
#[derive(Debug)]
pub struct ExportPopup {
    /// The tab exported.
    pub kind: SearchSubject,
    /// The field with the cursor (scope, first N, format, file).
    pub field: usize,
    /// Chosen scope.
    pub scope: Scope,
    /// Chosen format (CSV or JSONL).
    pub format: Format,
    /// Chosen CRM layout of the CSV, if any.
    pub preset: Option<Preset>,
    /// Row counts for the labels.
    pub counts: Counts,
    /// Where the popup is.
    pub stage: Stage,
    /// Why the last Enter was refused (bad N, empty file name...).
    pub problem: Option<String>,
    n: TextArea<'static>,
    path: TextArea<'static>,
    /// Where a file name typed here is written (config `export_dir`, else the current
    /// directory).
    pub dir: ExportDir,
}

/// Columns of the export popup's full-path lines (its inside, less a margin).
const PATH_LINE: usize = 72;

/// The default file name: `prospect-companies-20261123-1439.csv` (local time `now`).
pub fn default_file(kind: SearchSubject, format: Format, now: NaiveDateTime) -> String {
    format!(
        "prospect-{}-{}.{}",
        noun(kind),
        now.format("%Y%m%d-%H%M"),
        extension(format)
    )
}

fn noun(kind: SearchSubject) -> &'static str {
    match kind {
        SearchSubject::Companies => "companies",
        SearchSubject::People => "people",
    }
}

fn extension(format: Format) -> &'static str {
    match format {
        Format::Csv => "csv",
        _ => "jsonl",
    }
}

/// The name of a format or CRM layout, and what it holds (shown dim on the line below, so a
/// long one never wraps out of its field).
fn format_label(format: Format, preset: Option<Preset>) -> (&'static str, &'static str) {
    match (format, preset) {
        (_, Some(Preset::HubspotCompanies)) => (
            "HubSpot companies CSV",
            "its column names, one row a domain",
        ),
        (_, Some(Preset::HubspotContacts)) => (
            "HubSpot contacts CSV",
            "its column names, verified + catch-all emails",
        ),
        (_, Some(Preset::SalesforceLeads)) => (
            "Salesforce leads CSV",
            "its column names, verified + catch-all emails",
        ),
        (Format::Csv, _) => ("CSV", "header, one row per record, lists joined with ;"),
        _ => ("JSONL", "one full record per line"),
    }
}

/// The formats the popup offers for a tab, in the order Tab cycles through them: prospect's
/// CSV and JSONL, then the CRM layouts of the tab's records.
fn layouts(kind: SearchSubject) -> &'static [(Format, Option<Preset>)] {
    match kind {
        SearchSubject::Companies => &[
            (Format::Csv, None),
            (Format::Jsonl, None),
            (Format::Csv, Some(Preset::HubspotCompanies)),
        ],
        SearchSubject::People => &[
            (Format::Csv, None),
            (Format::Jsonl, None),
            (Format::Csv, Some(Preset::HubspotContacts)),
            (Format::Csv, Some(Preset::SalesforceLeads)),
        ],
    }
}

pub use prospect_common::words::thousands;

impl ExportPopup {
    /// A popup for the tab of `kind` with `counts`; the scope starts at the marked rows when
    /// some are marked, else this page; N starts at the total (at most 1,000) or what is
    /// fetched; the file is [`default_file`] for `now`.
    pub fn new(
        kind: SearchSubject,
        counts: Counts,
        now: NaiveDateTime,
        dir: ExportDir,
    ) -> ExportPopup {
        let n = counts
            .total
            .map_or(counts.fetched as u64, |t| t.min(1000))
            .max(1);
        ExportPopup {
            kind,
            field: F_SCOPE,
            // Marked rows are what the user picked: export them unless told otherwise.
            scope: if counts.marked > 0 {
                Scope::Marked
            } else {
                Scope::Page
            },
            format: Format::Csv,
            preset: None,
            counts,
            stage: Stage::Edit,
            problem: None,
            n: textarea(&n.to_string()),
            path: textarea(&default_file(kind, Format::Csv, now)),
            dir,
        }
    }

    /// The file the export writes: the name as typed, in [`ExportPopup::dir`] unless it is
    /// an absolute path.
    pub fn full_path(&self) -> PathBuf {
        self.dir.path.join(self.path_text().trim())
    }

    /// The file name as typed.
    pub fn path_text(&self) -> String {
        input_text(&self.path)
    }

    fn scope_label(&self, s: Scope) -> String {
        let c = &self.counts;
        match s {
            Scope::Page => format!("this page ({} rows)", c.page),
            Scope::Fetched => format!("pages fetched ({} rows)", c.fetched),
            Scope::FirstN => match c.total {
                Some(t) => format!("first N results (of {})", thousands(t)),
                None => "first N results".to_string(),
            },
            Scope::Marked => format!("marked rows ({})", c.marked),
        }
    }

    fn cycle(&mut self, forward: bool) {
        match self.field {
            F_SCOPE => {
                let i = Scope::ALL
                    .iter()
                    .position(|s| *s == self.scope)
                    .unwrap_or(0);
                let n = Scope::ALL.len();
                self.scope = Scope::ALL[if forward {
                    (i + 1) % n
                } else {
                    (i + n - 1) % n
                }];
            }
            F_FORMAT => {
                let old = extension(self.format);
                let all = layouts(self.kind);
                let i = all
                    .iter()
                    .position(|l| *l == (self.format, self.preset))
                    .unwrap_or(0);
                let n = all.len();
                (self.format, self.preset) = all[if forward {
                    (i + 1) % n
                } else {
                    (i + n - 1) % n
                }];
                // The default name follows the format; a name the user typed is kept.
                let path = self.path_text();
                if let Some(stem) = path.strip_suffix(&format!(".{old}")) {
                    self.path = textarea(&format!("{stem}.{}", extension(self.format)));
                }
            }
            _ => {}
        }
    }

    fn choice(&self) -> Result<ExportChoice, String> {
        let n = match input_text(&self.n)
            .trim()
            .replace([',', '_'], "")
            .parse::<usize>()
        {
            Ok(n) if n >= 1 => n,
            _ if self.scope != Scope::FirstN => 1,
            _ => return Err("N must be a whole number of at least 1".into()),
        };
        let path = self.path_text().trim().to_string();
        if path.is_empty() {
            return Err("the file name is empty".into());
        }
        let rows = match self.scope {
            Scope::Page => self.counts.page,
            Scope::Fetched => self.counts.fetched,
            Scope::FirstN => n,
            Scope::Marked => self.counts.marked,
        };
        if rows == 0 {
            return Err(match self.scope {
                Scope::Marked => "no rows are marked".into(),
                _ => "there are no rows to export".into(),
            });
        }
        Ok(ExportChoice {
            scope: self.scope,
            n,
            format: self.format,
            preset: self.preset,
            path: self.full_path(),
        })
    }

    /// Handles a key: `text` is its meaning in a text field, `action` in a pane (for the
    /// spend question, as the spend gate reads it).
    fn on_key(
        &mut self,
        key: KeyEvent,
        text: Option<TextAction>,
        action: Option<KeyAction>,
    ) -> ExportEffect {
        match self.stage {
            Stage::Fetching { stopping, .. } => {
                if text == Some(TextAction::Cancel) && !stopping {
                    return ExportEffect::Stop;
                }
                ExportEffect::Nothing
            }
            Stage::Overwrite => match spend_gate::answer(action, &key) {
                Answer::Yes => {
                    self.stage = Stage::Edit;
                    match self.choice() {
                        Ok(c) => ExportEffect::Export(c),
                        Err(why) => {
                            self.problem = Some(why);
                            ExportEffect::Nothing
                        }
                    }
                }
                Answer::No => {
                    self.stage = Stage::Edit;
                    self.offer_free_name();
                    ExportEffect::Nothing
                }
                Answer::Undecided | Answer::ToggleNewOnly => ExportEffect::Nothing,
            },
            Stage::Confirm { .. } => match spend_gate::answer(action, &key) {
                Answer::Yes => ExportEffect::Confirmed,
                Answer::No => {
                    self.stage = Stage::Edit;
                    ExportEffect::Declined
                }
                Answer::Undecided | Answer::ToggleNewOnly => ExportEffect::Nothing,
            },
            Stage::Edit => {
                self.problem = None;
                match text {
                    Some(TextAction::Cancel) => return ExportEffect::Close,
                    Some(TextAction::Up) => self.field = self.field.saturating_sub(1),
                    Some(TextAction::Down) => self.field = (self.field + 1).min(FIELDS - 1),
                    Some(TextAction::NextField | TextAction::PrevField) => {
                        let forward = text == Some(TextAction::NextField);
                        if matches!(self.field, F_SCOPE | F_FORMAT) {
                            self.cycle(forward);
                        } else if forward {
                            self.field = (self.field + 1) % FIELDS;
                        } else {
                            self.field = (self.field + FIELDS - 1) % FIELDS;
                        }
                    }
                    Some(TextAction::Submit) => match self.choice() {
                        // Never replace a file without asking.
                        Ok(c) if c.path.exists() => self.stage = Stage::Overwrite,
                        Ok(c) => return ExportEffect::Export(c),
                        Err(why) => self.problem = Some(why),
                    },
                    _ => match self.field {
                        F_N => {
                            type_key(&mut self.n, key);
                        }
                        F_PATH => {
                            type_key(&mut self.path, key);
                        }
                        _ => {}
                    },
                }
                ExportEffect::Nothing
            }
        }
    }

    /// After "keep the file": the file field gets the first free name beside it
    /// (`prospect-people-20261123-1439-2.csv`, `-3`, …) and the popup says so.
    fn offer_free_name(&mut self) {
        let taken = self.full_path();
        let typed = PathBuf::from(self.path_text().trim());
        let stem = typed
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let ext = typed
            .extension()
            .map(|e| format!(".{}", e.to_string_lossy()))
            .unwrap_or_default();
        let free = (2..1000)
            .map(|i| typed.with_file_name(format!("{stem}-{i}{ext}")))
            .find(|p| {
                !taken
                    .with_file_name(p.file_name().unwrap_or_default())
                    .exists()
            });
        if let Some(free) = free {
            self.path = textarea(&free.display().to_string());
            self.field = F_PATH;
        }
        self.problem = Some(format!(
            "{} exists and is kept; a free name is offered",
            sanitize(&taken.display().to_string())
        ));
    }

    /// Pasted text (sanitized) goes to the N or file field when it has the cursor.
    fn paste(&mut self, s: &str) {
        match self.field {
            F_N => {
                self.n.insert_str(s.trim());
            }
            F_PATH => {
                self.path.insert_str(s.trim());
            }
            _ => {}
        }
    }

    /// The stage's question or problem and its keys, under the fields.
    fn stage_lines(&self, keys: &crate::keymap::Keymap, confirm_above: f64) -> Vec<Line<'static>> {
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let mut lines = Vec::new();
        match self.stage {
            Stage::Edit => {
                if let Some(p) = &self.problem {
                    lines.push(Line::from(Span::styled(
                        format!(" {p}"),
                        Style::default().fg(theme().bad),
                    )));
                }
                lines.push(Line::from(dim(format!(
                    " {}",
                    hint_line(&self.stage_hints(), keys)
                ))));
            }
            Stage::Confirm {
                results,
                requests,
                cost,
            } => {
                lines.push(super::spend_gate::may_cost(
                    format!(
                        " {results} more result{} in {requests} request{} may cost up to ",
                        if results == 1 { "" } else { "s" },
                        if requests == 1 { "" } else { "s" }
                    ),
                    cost.to_string(),
                    format!(" (asks above {}).", fmt_credits(confirm_above)),
                ));
                lines.push(Line::from(vec![
                    Span::styled(format!(" {}/y", keys.keys_of(KeyAction::Enter)), bold),
                    Span::raw(" fetch and export   "),
                    Span::styled(format!("{}/n", keys.keys_of(KeyAction::Close)), bold),
                    Span::raw(" cancel (nothing spent)"),
                ]));
            }
            Stage::Overwrite => {
                lines.push(Line::from(Span::styled(
                    format!(
                        " {} exists already. Replace it?",
                        sanitize(&self.full_path().display().to_string())
                    ),
                    Style::default().fg(theme().warn),
                )));
                lines.push(Line::from(vec![
                    Span::styled(format!(" {}/y", keys.keys_of(KeyAction::Enter)), bold),
                    Span::raw(" replace it   "),
                    Span::styled(format!("{}/n", keys.keys_of(KeyAction::Close)), bold),
                    Span::raw(" keep it (choose another name)"),
                ]));
            }
            Stage::Fetching { .. } => {}
        }
        lines
    }

    /// The keys of the stage the popup is in, for its help line.
    fn stage_hints(&self) -> Vec<Hint> {
        match self.stage {
            Stage::Edit => vec![
                Hint::Texts(&[TextAction::Up, TextAction::Down], "field"),
                Hint::Text(TextAction::NextField, "change choice"),
                Hint::Text(TextAction::Submit, "export"),
                Hint::Text(TextAction::Cancel, "cancel"),
            ],
            Stage::Overwrite => vec![
                Hint::KeyAction(KeyAction::Enter, "replace it"),
                Hint::KeyAction(KeyAction::Close, "keep it (choose another name)"),
            ],
            Stage::Confirm { .. } => vec![
                Hint::KeyAction(KeyAction::Enter, "fetch and export"),
                Hint::KeyAction(KeyAction::Close, "cancel (nothing spent)"),
            ],
            Stage::Fetching { .. } => vec![Hint::Text(
                TextAction::Cancel,
                "stops after the page on its way (pages bought are kept)",
            )],
        }
    }
}

impl Component for ExportPopup {
    type Effect = ExportEffect;

    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<ExportEffect> {
        match input {
            Input::Key { key, action, text } => Handled::Consumed(self.on_key(key, text, action)),
            Input::Paste(raw) => {
                self.paste(&sanitize(raw));
                Handled::Consumed(ExportEffect::Nothing)
            }
            Input::KeyAction(_) => Handled::Ignored,
        }
    }

    /// Draws the popup: the fields, then the stage's question or progress, and its keys.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let (keys, confirm_above) = (ctx.keys, ctx.confirm_above);
        // The whole path, in as many lines as it takes: the popup grows by the extra ones.
        let path = super::widgets::path_lines(&self.full_path(), PATH_LINE);
        let extra = path.len().saturating_sub(1) as u16;
        let r = centered(area, 76, 15 + extra);
        f.render_widget(Clear, r);
        let title = format!(" Export {} ", noun(self.kind));
        let block = frame(&title, theme().good);
        let inner = block.inner(r);
        f.render_widget(block, r);
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let field_line = |i: usize, label: &str, value: Vec<Span<'static>>| -> Line<'static> {
            let mut spans = vec![Span::styled(format!(" {label:<8}"), bold)];
            spans.extend(value);
            let line = Line::from(spans);
            if i == self.field && self.stage == Stage::Edit {
                line.style(selected())
            } else {
                line
            }
        };
        let n_dim = self.scope != Scope::FirstN;
        let (format_name, format_note) = format_label(self.format, self.preset);
        let n_value = input_text(&self.n);
        let mut lines = vec![
            field_line(
                F_SCOPE,
                "Rows",
                vec![Span::raw(format!("‹ {} ›", self.scope_label(self.scope)))],
            ),
            field_line(
                F_N,
                "N",
                vec![if n_dim {
                    dim(format!("{n_value}  (for first N)"))
                } else {
                    Span::raw(n_value)
                }],
            ),
            field_line(
                F_FORMAT,
                "Format",
                vec![Span::raw(format!("‹ {format_name} ›"))],
            ),
            Line::from(dim(format!("{:9}{format_note}", ""))),
            field_line(F_PATH, "File", vec![Span::raw(self.path_text())]),
        ];
        // The whole path, in as many lines as it takes rather than cut, and where the folder
        // comes from.
        lines.extend(path);
        lines.extend([
            Line::from(dim(if self.dir.from_config {
                " (export_dir of config.toml)".to_string()
            } else {
                " (the current directory: export_dir in config.toml changes it)".to_string()
            })),
            Line::from(""),
        ]);
        lines.extend(self.stage_lines(keys, confirm_above));
        let [text_area, gauge_area, hint_area] = Layout::vertical([
            Constraint::Min(0),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(inner);
        f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), text_area);
        if let Stage::Fetching {
            got,
            want,
            stopping,
        } = self.stage
        {
            let ratio = (got as f64 / want.max(1) as f64).clamp(0.0, 1.0);
            f.render_widget(
                LineGauge::default()
                    .filled_style(Style::default().fg(theme().good))
                    .label(format!(" {} / {} rows ", got.min(want), want))
                    .ratio(ratio),
                gauge_area,
            );
            let hint = if stopping {
                " stopping after the page on its way…".to_string()
            } else {
                format!(" {}", hint_line(&self.stage_hints(), keys))
            };
            f.render_widget(Line::from(dim(hint)), hint_area);
        }
    }

    fn hints(&self) -> Vec<Hint> {
        self.stage_hints()
    }
}

mod file;
pub use file::{records, row_json, write_file};

#[cfg(test)]
mod tests;
