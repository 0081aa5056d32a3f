//! The filter form: the endpoint, "run search", then every member of the endpoint's request
//! body, filled ones repeated at the top. It owns the body being built, the selection and the
//! problems the client would find; it moves and clears on keymap actions, hands the state
//! owner what to do (run, edit a member, say something), and draws the Filters pane.
use crate::theme::theme;
use std::cell::Cell;
use std::collections::BTreeSet;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use serde_json::Value;

use super::widgets::{follow, truncate};
use super::{Component, Ctx, Handled, Hint, Input};
use crate::keymap::{KeyAction, Keymap};
use crate::labels::Section;
use crate::schema::{self, Leaf, SEARCHES, SearchSubject};
use prospect_api::client::Endpoint;
use prospect_api::cost::{self, Cost};
use prospect_api::types::ValidationError;
use prospect_common::sanitize::sanitize;
use prospect_core::filter_set::FilterSet;
use prospect_core::request;

/// Page size used when the form has no `size`.
pub const DEFAULT_SIZE: i64 = 25;
/// Rows a page key moves.
const PAGE: usize = 10;

/// One line of the filter form.
#[derive(Debug, Clone, PartialEq)]
pub enum FormRow {
    /// The endpoint chooser.
    Endpoint,
    /// "run the search".
    Run,
    /// A group heading (not selectable): the filled members, the extra ones.
    Header(&'static str),
    /// A section of the members (issue 19, "Labels and groups"): selectable, it folds (its
    /// members hidden) and unfolds.
    Section(Section),
    /// An editable member (the full list of the endpoint's members).
    Leaf(&'static Leaf),
    /// A filled member, repeated in the "set" summary at the top.
    Set(&'static Leaf),
    /// A member set in the body that this endpoint does not accept.
    Extra(Vec<String>, Value),
}

/// Identity of a form row across re-layouts.
fn row_key(r: &FormRow) -> String {
    match r {
        FormRow::Endpoint => "endpoint".into(),
        FormRow::Run => "run".into(),
        FormRow::Header(h) => format!("header:{h}"),
        FormRow::Section(s) => format!("section:{}", s.title()),
        FormRow::Leaf(l) => format!("leaf:{}", l.path.join(".")),
        FormRow::Set(l) => format!("set:{}", l.path.join(".")),
        FormRow::Extra(p, _) => format!("extra:{}", p.join(".")),
    }
}

/// The most the form's request can spend, per pool, from the team's price table
/// (`prospect_api::cost`, NOTES.md): v3 searches and v2 company search 0.2 per result; v2
/// people search 3 per person with lookalike domains, 1 without; `size` results assumed.
/// Read from the body so that it shows while the form is still being filled; a search that is
/// run is estimated again from its typed request
/// ([`SearchRequest::estimate`](prospect_core::request::SearchRequest::estimate)).
pub fn estimate_cost(endpoint: Endpoint, body: &Value) -> Cost {
    cost::DEFAULT_PRICES.charge_for(endpoint, &cost::max_quantities(endpoint, body))
}

/// The filter form's state.
#[derive(Debug, Clone)]
pub struct Form {
    /// The selected search endpoint; its kind is the shown results tab.
    pub endpoint: Endpoint,
    /// The request body being built (wire member names), of the shown tab.
    pub body: Value,
    /// The other tab's body, kept while this one is shown (issue 19: a form per tab, so a
    /// companies search never sends what was set for people, and back).
    pub other: Value,
    /// Selected row.
    pub sel: usize,
    /// First visible row (kept by drawing).
    pub offset: Cell<usize>,
    /// Why the form's request cannot be sent as it is ([`request::build_search`] on
    /// [`Form::request_body`]), updated on every edit; empty when it can.
    pub problems: Vec<ValidationError>,
    /// The filter set last opened or saved (what "unsaved" is measured against; issue 19,
    /// "Editing"); `None` when none was.
    pub saved: Option<FilterSet>,
    /// The folded sections: their members are hidden (filled ones still show under "set").
    pub folded: BTreeSet<Section>,
}

/// Members set among `rows` (the "set" summary and the extra ones).
fn filled_in(rows: &[FormRow]) -> usize {
    rows.iter()
        .filter(|r| matches!(r, FormRow::Set(_) | FormRow::Extra(..)))
        .count()
}

/// `true` when `body` holds a filter: any member other than `size` with something in it
/// (nested objects count when one of their members does).
pub fn has_filters(body: &Value) -> bool {
    fn deep(v: &Value) -> bool {
        match v {
            Value::Object(o) => o.values().any(deep),
            other => schema::is_filled(Some(other)),
        }
    }
    body.as_object()
        .is_some_and(|o| o.iter().any(|(k, v)| k != "size" && deep(v)))
}

/// What a key on the form wants from the state owner.
#[derive(Debug, Clone, PartialEq)]
pub enum FormEffect {
    /// Nothing beyond a redraw.
    Nothing,
    /// Run the search.
    Run,
    /// Open the editor of this member.
    Edit(&'static Leaf),
    /// Say this on the status line.
    Info(String),
}

impl Default for Form {
    fn default() -> Form {
        Form::new()
    }
}

impl Form {
    /// A v3 company search with an empty form (`size` 25), "run search" selected.
    pub fn new() -> Form {
        Form {
            endpoint: Endpoint::SearchCompaniesV3,
            body: serde_json::json!({ "size": DEFAULT_SIZE }),
            other: serde_json::json!({ "size": DEFAULT_SIZE }),
            sel: 1,
            offset: Cell::new(0),
            saved: None,
            folded: BTreeSet::new(),
            problems: Vec::new(),
        }
    }

    /// Companies or people: the results tab of the endpoint.
    pub fn kind(&self) -> SearchSubject {
        schema::tab_of(self.endpoint)
    }

    /// Rows of the filter form for the current endpoint.
    pub fn rows(&self) -> Vec<FormRow> {
        let mut rows = vec![FormRow::Endpoint, FormRow::Run];
        let leaves = schema::leaves(self.endpoint);
        // Filled members first, compactly, so they are seen (and cleared) at a glance.
        let filled: Vec<&'static Leaf> = leaves
            .iter()
            .copied()
            .filter(|l| l.path != ["size"] && schema::is_filled(schema::get(&self.body, l.path)))
            .collect();
        if !filled.is_empty() {
            rows.push(FormRow::Header("set"));
            rows.extend(filled.into_iter().map(FormRow::Set));
        }
        let extras = schema::extras(&self.body, self.endpoint);
        if !extras.is_empty() {
            rows.push(FormRow::Header("not used by this endpoint"));
            rows.extend(extras.into_iter().map(|(p, v)| FormRow::Extra(p, v)));
        }
        // By section (issue 19), each in the table's order of its members; a folded section
        // is its heading only.
        let mut section = None;
        for (s, leaf) in schema::leaves_by_section(self.endpoint) {
            if section != Some(s) {
                section = Some(s);
                rows.push(FormRow::Section(s));
            }
            if !self.folded.contains(&s) {
                rows.push(FormRow::Leaf(leaf));
            }
        }
        rows
    }

    /// Folds `section` (`true`) or unfolds it, keeping the selection on its heading.
    pub fn fold(&mut self, section: Section, fold: bool) {
        if fold {
            self.folded.insert(section);
        } else {
            self.folded.remove(&section);
        }
        if let Some(i) = self
            .rows()
            .iter()
            .position(|r| *r == FormRow::Section(section))
        {
            self.sel = i;
        }
    }

    /// Selects the member `leaf` (unfolding its section when it is folded); `false` when this
    /// endpoint has no such member.
    pub fn select_leaf(&mut self, leaf: &'static Leaf) -> bool {
        self.folded.remove(&leaf.section());
        match self
            .rows()
            .iter()
            .position(|r| matches!(r, FormRow::Leaf(l) if std::ptr::eq(*l, leaf)))
        {
            Some(i) => {
                self.sel = i;
                true
            }
            None => false,
        }
    }

    /// Members of `section` in this endpoint, and how many of them are set.
    fn section_counts(&self, section: Section) -> (usize, usize) {
        let leaves: Vec<&Leaf> = schema::leaves_by_section(self.endpoint)
            .into_iter()
            .filter(|(s, _)| *s == section)
            .map(|(_, l)| l)
            .collect();
        let set = leaves
            .iter()
            .filter(|l| schema::is_filled(schema::get(&self.body, l.path)))
            .count();
        (leaves.len(), set)
    }

    /// Number of members set in the form (the endpoint's and the extra ones).
    pub fn filled_count(&self) -> usize {
        filled_in(&self.rows())
    }

    /// The body of the first page of a search of the current endpoint.
    pub fn request_body(&self) -> Value {
        let mut b = self.body.clone();
        if let Some(o) = b.as_object_mut() {
            o.remove("endpoint");
            o.remove("searchAfter");
            if !o.contains_key("size") {
                o.insert("size".into(), Value::from(DEFAULT_SIZE));
            }
        }
        b
    }

    /// The selection and the identity of the selected row, before a change.
    pub fn selection(&self) -> (usize, Option<String>) {
        (self.sel, self.rows().get(self.sel).map(row_key))
    }

    /// Keeps the selection on the same row when rows appear or vanish above it (a member
    /// filled or cleared moves the "set" summary), unless the user moved the selection.
    pub fn keep_selection(&mut self, (before_sel, before_key): (usize, Option<String>)) {
        let Some(key) = before_key else { return };
        if self.sel != before_sel {
            return;
        }
        let rows = self.rows();
        if rows.get(self.sel).map(row_key).as_deref() == Some(key.as_str()) {
            return;
        }
        if let Some(i) = rows.iter().position(|r| row_key(r) == key) {
            self.sel = i;
            return;
        }
        let mut i = self.sel.min(rows.len().saturating_sub(1));
        while matches!(rows.get(i), Some(FormRow::Header(_))) && i + 1 < rows.len() {
            i += 1;
        }
        self.sel = i;
    }

    /// Checks the request as the client will ([`request::build_search`]); returns `true` when
    /// the problems changed (they are in [`Form::problems`]).
    pub fn recheck(&mut self) -> bool {
        let problems = request::build_search(self.endpoint, &self.request_body())
            .err()
            .unwrap_or_default();
        if problems == self.problems {
            return false;
        }
        self.problems = problems;
        true
    }

    /// Keeps the selection inside the rows.
    pub fn clamp_selection(&mut self) {
        self.sel = self.sel.min(self.rows().len().saturating_sub(1));
    }

    /// Shows the form of `kind` in the same version: the shown body is kept aside and the
    /// other tab's comes back (its members moved to this version where they must be).
    pub fn show_kind(&mut self, kind: SearchSubject) {
        let to = schema::with_kind(self.endpoint, kind);
        if kind != self.kind() {
            let mut next = std::mem::take(&mut self.other);
            if !next.is_object() {
                next = serde_json::json!({ "size": DEFAULT_SIZE });
            }
            schema::switch_version(&mut next, to);
            self.other = std::mem::replace(&mut self.body, next);
        }
        self.endpoint = to;
    }

    /// The tabs whose filters have changes not in a saved set: against the set last opened or
    /// saved for its tab ([`Form::saved`]; its endpoint too when that tab is shown), else any
    /// filter at all. Companies first.
    pub fn unsaved(&self) -> Vec<SearchSubject> {
        [SearchSubject::Companies, SearchSubject::People]
            .into_iter()
            .filter(|&kind| {
                let body = if kind == self.kind() {
                    &self.body
                } else {
                    &self.other
                };
                match self.saved.as_ref().and_then(|s| s.for_subject(kind)) {
                    Some((endpoint, saved)) => {
                        body != saved || (kind == self.kind() && self.endpoint != endpoint)
                    }
                    _ => has_filters(body),
                }
            })
            .collect()
    }

    /// The filter set of this form (issue 38): the shown tab's search, and the other tab's
    /// when it holds a filter.
    pub fn filter_set(&self) -> FilterSet {
        let other_kind = match self.kind() {
            SearchSubject::Companies => SearchSubject::People,
            SearchSubject::People => SearchSubject::Companies,
        };
        let mut set = FilterSet::one(self.endpoint, self.body.clone());
        if has_filters(&self.other) {
            let endpoint = schema::with_kind(self.endpoint, other_kind);
            set.other = Some(Box::new(FilterSet::one(endpoint, self.other.clone())));
        }
        set
    }

    /// Opens filter set `set`: its search in its tab's form, shown, and its other tab's search
    /// (when it holds one) in the other form; a one-tab set keeps the other form as it is.
    pub fn open(&mut self, set: &FilterSet) {
        self.load(set.endpoint, set.body.clone());
        if let Some(other) = &set.other {
            self.other = other.body.clone();
        }
    }

    /// Puts `body` of search `endpoint` in its tab's form (a filter set, a reopened search, an
    /// undo), keeping the other tab's form as it is.
    pub fn load(&mut self, endpoint: Endpoint, body: Value) {
        self.show_kind(schema::tab_of(endpoint));
        self.endpoint = endpoint;
        self.body = body;
    }

    /// Handles an action while the form has the focus; `keys` names keys in messages.
    fn on_action(&mut self, action: KeyAction, keys: &Keymap) -> FormEffect {
        let rows = self.rows();
        let selectable = |i: usize| !matches!(rows.get(i), Some(FormRow::Header(_)) | None);
        let step = |from: usize, down: bool, n: usize| -> usize {
            let mut i = from;
            for _ in 0..n {
                let mut j = i;
                loop {
                    j = if down {
                        j + 1
                    } else {
                        match j.checked_sub(1) {
                            Some(j) => j,
                            None => return i,
                        }
                    };
                    if j >= rows.len() {
                        return i;
                    }
                    if selectable(j) {
                        break;
                    }
                }
                i = j;
            }
            i
        };
        self.sel = self.sel.min(rows.len().saturating_sub(1));
        match action {
            KeyAction::Up => self.sel = step(self.sel, false, 1),
            KeyAction::Down => self.sel = step(self.sel, true, 1),
            KeyAction::PageUp => self.sel = step(self.sel, false, PAGE),
            KeyAction::PageDown => self.sel = step(self.sel, true, PAGE),
            KeyAction::Top => self.sel = 0,
            KeyAction::Bottom => self.sel = step(self.sel, true, rows.len()),
            // Sections fold: Enter toggles, Left folds, Right unfolds; Left on a member folds
            // its section.
            KeyAction::Enter | KeyAction::Left | KeyAction::Right
                if matches!(rows.get(self.sel), Some(FormRow::Section(_))) =>
            {
                if let Some(FormRow::Section(s)) = rows.get(self.sel) {
                    let fold = match action {
                        KeyAction::Left => true,
                        KeyAction::Right => false,
                        _ => !self.folded.contains(s),
                    };
                    self.fold(*s, fold);
                }
            }
            KeyAction::Left if matches!(rows.get(self.sel), Some(FormRow::Leaf(_))) => {
                if let Some(FormRow::Leaf(l)) = rows.get(self.sel) {
                    self.fold(l.section(), true);
                }
            }
            KeyAction::Left | KeyAction::Right
                if rows.get(self.sel) == Some(&FormRow::Endpoint) =>
            {
                let n = SEARCHES.len();
                let i = SEARCHES
                    .iter()
                    .position(|e| *e == self.endpoint)
                    .unwrap_or(0);
                self.endpoint =
                    SEARCHES[(i + if action == KeyAction::Right { 1 } else { n - 1 }) % n];
            }
            KeyAction::Enter => match rows.get(self.sel) {
                Some(FormRow::Endpoint) => {
                    let i = SEARCHES
                        .iter()
                        .position(|e| *e == self.endpoint)
                        .unwrap_or(0);
                    self.endpoint = SEARCHES[(i + 1) % SEARCHES.len()];
                }
                Some(FormRow::Run) => return FormEffect::Run,
                Some(FormRow::Leaf(leaf) | FormRow::Set(leaf)) => return FormEffect::Edit(leaf),
                Some(FormRow::Extra(p, _)) => {
                    return FormEffect::Info(format!(
                        "{} is not part of {}; {} clears it",
                        p.join("."),
                        self.endpoint.path(),
                        keys.first_key_of(KeyAction::Clear)
                    ));
                }
                _ => {}
            },
            KeyAction::Clear => match rows.get(self.sel) {
                Some(FormRow::Leaf(leaf) | FormRow::Set(leaf)) => {
                    schema::remove(&mut self.body, leaf.path);
                    return FormEffect::Info(format!("Cleared {}", leaf.label()));
                }
                Some(FormRow::Extra(p, _)) => {
                    let path: Vec<&str> = p.iter().map(String::as_str).collect();
                    schema::remove(&mut self.body, &path);
                    let msg = format!("Cleared {}", p.join("."));
                    self.clamp_selection();
                    return FormEffect::Info(msg);
                }
                _ => {}
            },
            KeyAction::ClearAll => {
                let size = schema::get(&self.body, &["size"]).cloned();
                self.body = serde_json::json!({});
                if let Some(s) = size {
                    schema::set(&mut self.body, &["size"], s);
                }
                self.clamp_selection();
                return FormEffect::Info("Cleared every filter member".into());
            }
            _ => {}
        }
        FormEffect::Nothing
    }
}

impl Form {
    /// The line of one row of the pane (without its selection marker): the endpoint, the run
    /// row with its estimate, a header, a section (folded: its counts), a member with its value
    /// (or its API name as a hint when selected and there is room), or a member the schema does
    /// not know.
    fn row_line(
        &self,
        row: &FormRow,
        selected: bool,
        width: usize,
        keys: &crate::keymap::Keymap,
    ) -> Line<'static> {
        match row {
            FormRow::Endpoint => Line::from(vec![
                Span::styled("endpoint ", Style::default().fg(theme().dim)),
                Span::styled(
                    format!("◂ {} ▸", schema::label(self.endpoint)),
                    Style::default()
                        .fg(theme().good)
                        .add_modifier(Modifier::BOLD),
                ),
            ]),
            FormRow::Run => {
                let est = estimate_cost(self.endpoint, &self.request_body());
                Line::from(vec![
                    Span::styled(
                        "▶ run search",
                        Style::default().add_modifier(Modifier::BOLD),
                    ),
                    Span::styled(
                        format!(" ({}) est. ≤ {est}", keys.keys_of(KeyAction::Search)),
                        Style::default().fg(theme().dim),
                    ),
                ])
            }
            FormRow::Header(h) => Line::from(Span::styled(
                format!("── {h} "),
                Style::default()
                    .fg(theme().heading)
                    .add_modifier(Modifier::BOLD),
            )),
            FormRow::Section(s) => {
                let folded = self.folded.contains(s);
                let mut spans = vec![Span::styled(
                    format!("{} {} ", if folded { "▸" } else { "▾" }, s.title()),
                    Style::default()
                        .fg(theme().heading)
                        .add_modifier(Modifier::BOLD),
                )];
                if folded {
                    let (n, set) = self.section_counts(*s);
                    let set = if set > 0 {
                        format!(", {set} set")
                    } else {
                        String::new()
                    };
                    spans.push(Span::styled(
                        format!("({n} members{set})"),
                        Style::default().fg(theme().dim),
                    ));
                }
                Line::from(spans)
            }
            FormRow::Leaf(leaf) | FormRow::Set(leaf) => {
                let v = schema::get(&self.body, leaf.path);
                if schema::is_filled(v) {
                    let value = sanitize(&schema::fmt_value(
                        leaf.kind,
                        v.unwrap_or(&serde_json::Value::Null),
                    ));
                    Line::from(vec![
                        Span::styled(
                            format!("{} ", leaf.label()),
                            Style::default().add_modifier(Modifier::BOLD),
                        ),
                        Span::styled(value, Style::default().fg(theme().good)),
                    ])
                } else {
                    // The label; on the selected line, the API name as a dim hint where
                    // there is room (it is also in the editor's title).
                    let label = leaf.label();
                    let shown = label.chars().count();
                    let mut spans = vec![Span::raw(label)];
                    let hint = selected.then(|| leaf.api_name());
                    if let Some(hint) = hint
                        && shown + hint.chars().count() + 4 <= width
                    {
                        let pad = width - 2 - shown - hint.chars().count();
                        spans.push(Span::raw(" ".repeat(pad)));
                        spans.push(Span::styled(hint, Style::default().fg(theme().dim)));
                    }
                    Line::from(spans)
                }
            }
            FormRow::Extra(p, v) => Line::from(vec![
                Span::styled(
                    format!("! {} ", p.join(".")),
                    Style::default().fg(theme().bad),
                ),
                Span::styled(sanitize(&v.to_string()), Style::default().fg(theme().bad)),
            ]),
        }
    }
}

impl Component for Form {
    type Effect = FormEffect;

    fn handle(&mut self, input: Input<'_>, ctx: &Ctx<'_>) -> Handled<FormEffect> {
        match input.action() {
            Some(action) => Handled::Consumed(self.on_action(action, ctx.keys)),
            None => Handled::Ignored,
        }
    }

    /// Draws the pane in `area`: it follows the selection when it has the focus
    /// (`ctx.has_focus`), else it shows its top; a bright border when `ctx.focused`.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let (has_focus, focused, keys) = (ctx.has_focus, ctx.focused, ctx.keys);
        let rows = self.rows();
        let n = filled_in(&rows);
        // The unsaved marker (issue 19): changes not in the set last opened or saved.
        let unsaved = if self.unsaved().contains(&self.kind()) {
            "· unsaved ● "
        } else {
            ""
        };
        let title = format!(" Filters · {n} set {unsaved}");
        let block = Block::default()
            .borders(Borders::ALL)
            .title(title)
            .border_style(crate::theme::border_style(focused));
        let inner = block.inner(area);
        f.render_widget(block, area);
        let h = inner.height as usize;
        let sel = self.sel.min(rows.len().saturating_sub(1));
        // Unfocused, the pane shows its top: the endpoint and the summary of what is set.
        let offset = if has_focus {
            let o = follow(self.offset.get(), sel, h);
            self.offset.set(o);
            o
        } else {
            0
        };
        let width = inner.width as usize;
        let lines: Vec<Line> = rows
            .iter()
            .enumerate()
            .skip(offset)
            .take(h)
            .map(|(i, row)| {
                let selected = i == sel;
                let mut line = self.row_line(row, selected, width, keys);
                if selected {
                    // A visible marker as well as the colour (snapshots, monochrome terminals).
                    line.spans.insert(
                        0,
                        Span::styled(
                            "›",
                            Style::default()
                                .fg(theme().accent)
                                .add_modifier(Modifier::BOLD),
                        ),
                    );
                } else {
                    line.spans.insert(0, Span::raw(" "));
                }
                line = truncate(line, width);
                if selected {
                    line = line.patch_style(theme().selection(focused));
                    let pad = width.saturating_sub(line.width());
                    line.spans.push(Span::raw(" ".repeat(pad)));
                    line = line.patch_style(theme().selection(focused));
                }
                line
            })
            .collect();
        f.render_widget(Paragraph::new(lines), inner);
    }

    fn hints(&self) -> Vec<Hint> {
        vec![
            Hint::KeyAction(KeyAction::Enter, "edit"),
            Hint::KeyAction(KeyAction::Clear, "clear"),
            Hint::KeyAction(KeyAction::Search, "search"),
        ]
    }
}
