//! The results: one search per tab (companies, people), its pages (bought, or read back from
//! the store), the selection. It moves on keymap actions, tells the state owner when to run,
//! switch tabs or open details, and draws the Results pane: a table built for the visible rows
//! only, "rows a–b of total", "from store, 3 days old", a loading indicator and an empty state
//! that says why.
use crate::theme::theme;
use std::cell::Cell;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell as TableCell, Paragraph, Row, Table, Tabs, Wrap};

use super::columns::{ColumnSet, Sort};
use super::widgets::follow;
use super::{Component, Ctx, Handled, Hint, Input};
use crate::keymap::KeyAction;
use crate::msg::ResultRow;
use crate::records;
use crate::schema::SearchSubject;
use prospect_core::owned::SearchId;
use prospect_core::request::SearchRequest;
use prospect_core::spend::describe_age;

/// Rows a page key moves.
const PAGE: usize = 10;

/// One fetched page.
#[derive(Debug, Clone, Default)]
pub struct Page {
    /// Its rows.
    pub rows: Vec<ResultRow>,
    /// Read back from the store (no cost), not bought now.
    pub stored: bool,
}

/// The search shown in a results tab.
#[derive(Debug, Default, Clone)]
pub struct SearchState {
    /// The request of the first page; `None` before the first search.
    pub request: Option<SearchRequest>,
    /// Pages fetched so far (kept; `n`/`p` move between them).
    pub pages: Vec<Page>,
    /// The search page by page, by the core's one paging rule (where the next page starts,
    /// when the search has ended), fed every page this tab receives; `None` before the first
    /// search.
    pub paging: Option<prospect_core::engine::PagedSearch>,
    /// Index of the shown page.
    pub page: usize,
    /// `total` of the last response.
    pub total: Option<u64>,
    /// A page is on its way.
    pub loading: bool,
    /// Selected row within the shown page.
    pub sel: usize,
    /// First visible row (kept by the view to follow the selection).
    pub offset: Cell<usize>,
    /// Why the last request failed.
    pub error: Option<String>,
    /// Notes of the last response (unknown lookalike domains...).
    pub notes: Vec<String>,
    /// The history row the pages are stored under.
    pub search_id: Option<SearchId>,
    /// For a search reopened from the store: the age of its stored pages (as of reopening).
    pub stored_age: Option<chrono::Duration>,
    /// Keys ([`crate::msg::Record::key`]) of the marked rows, across pages: the actions
    /// apply to them, else to the selected row. A new search clears them.
    pub marked: std::collections::BTreeSet<String>,
    /// Which rows of a people tab are shown: all, only those with a revealed contact, or only
    /// those not yet revealed (issue 16; the revealed-filter key cycles it).
    pub only: Shown,
    /// The name of the list the rows are the members of, for a list opened from the lists
    /// popup (issue 16); `None` for a search.
    pub list: Option<String>,
    /// The saved filter set's run this search is (issue 37): every page of it asks with the
    /// same set and start, so a new-only run's excludes stay the same from page to page.
    pub set_run: Option<crate::msg::SetRunOf>,
    /// The sort of the loaded rows and their order as `(page, row)` positions (issue 19,
    /// "Columns"): when set, the table shows every loaded row in this order, not a page.
    pub sorted: Option<(Sort, Vec<(usize, usize)>)>,
    /// Bumped when rows change in place (a revealed email): the column widths are measured
    /// again.
    pub revision: u64,
    /// The natural column widths over every loaded row, with the `(rows loaded, revision)`
    /// they were measured at.
    pub widths: std::cell::RefCell<Option<WidthCache>>,
}

/// Natural column widths with the `(rows loaded, revision)` they were measured at.
pub type WidthCache = ((usize, u64), Vec<u16>);

/// The revealed filter of a results tab (issue 16), and the new filter of a saved set's run
/// (issue 37): which rows it shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Shown {
    /// Every row.
    #[default]
    All,
    /// People whose email or phone is revealed ([`records::Revealed::Yes`]).
    Revealed,
    /// People with nothing revealed yet, those a reveal would buy ([`records::Revealed::No`]).
    Unrevealed,
    /// Rows the saved set's run had not bought before ([`records::NEW_MARK`]).
    New,
}

impl Shown {
    /// The next filter of the cycle of a tab of `kind`: people All → Revealed → Unrevealed,
    /// then New when `new` (some rows are marked new), then All; companies All → New → All
    /// (All when none are new).
    pub fn next(self, kind: SearchSubject, new: bool) -> Shown {
        match (kind, self) {
            (SearchSubject::People, Shown::All) => Shown::Revealed,
            (SearchSubject::People, Shown::Revealed) => Shown::Unrevealed,
            (_, Shown::All | Shown::Unrevealed | Shown::Revealed) if new => Shown::New,
            _ => Shown::All,
        }
    }

    /// Whether `row` passes.
    pub fn keeps(self, row: &ResultRow) -> bool {
        match self {
            Shown::All => true,
            Shown::Revealed => row.revealed() == records::Revealed::Yes,
            Shown::Unrevealed => row.revealed() == records::Revealed::No,
            Shown::New => row.cells.last().is_some_and(|c| c == records::NEW_MARK),
        }
    }

    /// `only revealed` / `only not yet revealed` / `only new`; `None` for all rows.
    pub fn label(self) -> Option<&'static str> {
        match self {
            Shown::All => None,
            Shown::Revealed => Some("only revealed"),
            Shown::Unrevealed => Some("only not yet revealed"),
            Shown::New => Some("only new since the set's last run"),
        }
    }
}

impl SearchState {
    /// Rows loaded, over every page.
    pub fn loaded(&self) -> usize {
        self.pages.iter().map(|p| p.rows.len()).sum()
    }

    /// Sorts the loaded rows by `sort` (or back to pages, `None`); the selection goes to the
    /// first row.
    pub fn set_sort(&mut self, sort: Option<Sort>) {
        self.sorted = sort.map(|s| (s, Vec::new()));
        self.resort();
        self.sel = 0;
        self.offset.set(0);
    }

    /// Adds a fetched page after the loaded ones; a sorted tab sorts its rows in.
    pub fn push_page(&mut self, page: Page) {
        self.pages.push(page);
        self.resort();
    }

    /// Cells of loaded rows changed in place (a reveal, an enrichment): the column widths are
    /// measured again, and a sort by them is redone.
    pub fn rows_changed(&mut self) {
        self.revision += 1;
        self.resort();
    }

    /// Puts the loaded rows in the order of the sort again.
    fn resort(&mut self) {
        if let Some((sort, _)) = self.sorted {
            let all: Vec<(usize, usize, &ResultRow)> = self
                .pages
                .iter()
                .enumerate()
                .flat_map(|(p, page)| page.rows.iter().enumerate().map(move |(i, r)| (p, i, r)))
                .collect();
            let order = super::columns::sorted_order(&all, sort);
            self.sorted = Some((sort, order));
        }
    }

    /// The widest cell of each column over every loaded row, 0 for an empty column (measured
    /// again only when rows were loaded or changed): widths that stay from page to page.
    pub fn natural_widths(&self, titles: &[&str]) -> Vec<u16> {
        let key = (self.loaded(), self.revision);
        if let Some((k, w)) = &*self.widths.borrow()
            && *k == key
            && w.len() == titles.len()
        {
            return w.clone();
        }
        let w =
            super::columns::natural_widths(titles, self.pages.iter().flat_map(|p| p.rows.iter()));
        *self.widths.borrow_mut() = Some((key, w.clone()));
        w
    }

    /// How many rows the table lists before the revealed filter: the loaded rows when
    /// sorted, else the shown page's.
    fn base_len(&self) -> usize {
        match &self.sorted {
            Some((_, order)) => order.len(),
            None => self.page_slice().len(),
        }
    }

    /// The `i`-th row the table lists before the revealed filter.
    fn base_get(&self, i: usize) -> Option<&ResultRow> {
        match &self.sorted {
            Some((_, order)) => order
                .get(i)
                .and_then(|(p, r)| self.pages.get(*p)?.rows.get(*r)),
            None => self.page_slice().get(i),
        }
    }

    /// Calls `f` with the rows the table lists before the revealed filter, in order (a plain
    /// slice iterator when not sorted: the 10,000-row frame filters it with no indirection).
    fn with_base<'a, R>(
        &'a self,
        f: impl FnOnce(&mut dyn Iterator<Item = &'a ResultRow>) -> R,
    ) -> R {
        match &self.sorted {
            Some((_, order)) => f(&mut order
                .iter()
                .filter_map(|(p, r)| self.pages.get(*p)?.rows.get(*r))),
            None => f(&mut self.page_slice().iter()),
        }
    }

    /// Rows of the shown page that pass the revealed filter ([`SearchState::only`]): what the
    /// table shows and `sel` indexes. Builds a `Vec` of all of them: the view and the keys use
    /// [`SearchState::shown_len`], [`SearchState::shown`] and [`SearchState::shown_range`].
    pub fn rows(&self) -> Vec<&ResultRow> {
        self.shown_range(0, usize::MAX)
    }
    /// Every row of the shown page, filtered or not.
    fn page_slice(&self) -> &[ResultRow] {
        self.pages
            .get(self.page)
            .map_or(&[][..], |p| p.rows.as_slice())
    }
    /// Rows the table lists, filtered or not: the shown page's, or every loaded row when
    /// sorted.
    pub fn page_rows(&self) -> usize {
        self.base_len()
    }
    /// How many listed rows pass the revealed filter (no allocation; a count of the page when
    /// it shows all).
    pub fn shown_len(&self) -> usize {
        match self.only {
            Shown::All => self.base_len(),
            only if self.sorted.is_none() => {
                self.page_slice().iter().filter(|r| only.keeps(r)).count()
            }
            only => self.with_base(|rows| rows.filter(|r| only.keeps(r)).count()),
        }
    }
    /// The `i`-th shown row.
    pub fn shown(&self, i: usize) -> Option<&ResultRow> {
        match self.only {
            Shown::All => self.base_get(i),
            only if self.sorted.is_none() => {
                self.page_slice().iter().filter(|r| only.keeps(r)).nth(i)
            }
            only => self.with_base(|rows| rows.filter(|r| only.keeps(r)).nth(i)),
        }
    }
    /// The shown rows `from..to` (clipped to what there is).
    pub fn shown_range(&self, from: usize, to: usize) -> Vec<&ResultRow> {
        match self.only {
            Shown::All => (from..to.min(self.base_len()))
                .filter_map(|i| self.base_get(i))
                .collect(),
            only if self.sorted.is_none() => self
                .page_slice()
                .iter()
                .filter(|r| only.keeps(r))
                .skip(from)
                .take(to.saturating_sub(from))
                .collect(),
            only => self.with_base(|rows| {
                rows.filter(|r| only.keeps(r))
                    .skip(from)
                    .take(to.saturating_sub(from))
                    .collect()
            }),
        }
    }
    /// 1-based index of the first row of the shown page among all results.
    pub fn first_index(&self) -> usize {
        self.pages[..self.page.min(self.pages.len())]
            .iter()
            .map(|p| p.rows.len())
            .sum::<usize>()
            + 1
    }
    /// The selected record.
    pub fn selected(&self) -> Option<&ResultRow> {
        self.shown(self.sel)
    }
    /// `"from store, 3 days old"` when the shown page was read back from the store.
    pub fn stored_label(&self) -> Option<String> {
        let page = self.pages.get(self.page)?;
        let age = self.stored_age.filter(|_| page.stored)?;
        Some(format!("from store, {}", describe_age(age)))
    }
}

/// The searches of both tabs.
#[derive(Debug, Default)]
pub struct Results {
    /// Results of the companies tab.
    pub companies: SearchState,
    /// Results of the people tab.
    pub people: SearchState,
    /// Which columns each tab shows, in what order (the column picker; `columns.json`).
    pub columns: ColumnSet,
}

/// What a key on the results wants from the state owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultsEffect {
    /// Nothing beyond a redraw.
    Nothing,
    /// The selected row changed: the details start at the top.
    Moved,
    /// Show the tab of this kind.
    ShowKind(SearchSubject),
    /// Enter on an empty tab: run the search.
    Run,
    /// Enter on a row: show its details.
    OpenDetails,
}

impl Results {
    /// The search of a tab.
    pub fn get(&self, kind: SearchSubject) -> &SearchState {
        match kind {
            SearchSubject::Companies => &self.companies,
            SearchSubject::People => &self.people,
        }
    }

    /// The search of a tab, to change.
    pub fn get_mut(&mut self, kind: SearchSubject) -> &mut SearchState {
        match kind {
            SearchSubject::Companies => &mut self.companies,
            SearchSubject::People => &mut self.people,
        }
    }

    /// The marked rows (`Space`) of the tab of `kind`, in page order: what the actions and
    /// the export's "marked rows" scope apply to. Empty when none is marked.
    pub fn marked(&self, kind: SearchSubject) -> Vec<&ResultRow> {
        let s = self.get(kind);
        if s.marked.is_empty() {
            return Vec::new();
        }
        self.fetched(kind)
            .filter(|r| s.marked.contains(&r.record.key()))
            .collect()
    }

    /// Every fetched row of the tab of `kind`, page after page.
    pub fn fetched(&self, kind: SearchSubject) -> impl Iterator<Item = &ResultRow> + Clone {
        self.get(kind).pages.iter().flat_map(|p| p.rows.iter())
    }

    /// Handles an action while the results of `kind` have the focus.
    fn on_action(&mut self, action: KeyAction, kind: SearchSubject) -> ResultsEffect {
        let s = self.get_mut(kind);
        let n = s.shown_len();
        let before = s.sel;
        match action {
            KeyAction::Up => s.sel = s.sel.saturating_sub(1),
            KeyAction::Down => s.sel = (s.sel + 1).min(n.saturating_sub(1)),
            KeyAction::PageUp => s.sel = s.sel.saturating_sub(PAGE),
            KeyAction::PageDown => s.sel = (s.sel + PAGE).min(n.saturating_sub(1)),
            KeyAction::Top => s.sel = 0,
            KeyAction::Bottom => s.sel = n.saturating_sub(1),
            KeyAction::Left => return ResultsEffect::ShowKind(SearchSubject::Companies),
            KeyAction::Right => return ResultsEffect::ShowKind(SearchSubject::People),
            KeyAction::Enter if n == 0 => return ResultsEffect::Run,
            KeyAction::Enter => return ResultsEffect::OpenDetails,
            _ => {}
        }
        if s.sel != before {
            ResultsEffect::Moved
        } else {
            ResultsEffect::Nothing
        }
    }
}

impl Component for Results {
    type Effect = ResultsEffect;

    /// Moves in the shown tab's rows (`ctx.tab`), switches tabs, opens details.
    fn handle(&mut self, input: Input<'_>, ctx: &Ctx<'_>) -> Handled<ResultsEffect> {
        match input.action() {
            Some(action) => Handled::Consumed(self.on_action(action, ctx.tab)),
            None => Handled::Ignored,
        }
    }

    /// Draws the Results pane for the tab shown (`ctx.tab`); a bright border when
    /// `ctx.focused`; the empty state counts the members set in the form (`ctx.filled`).
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let (kind, focused, filled, keys) = (ctx.tab, ctx.focused, ctx.filled, ctx.keys);
        let s = self.get(kind);
        let n = s.shown_len();
        let title = title_of(s, kind, n, area.width.saturating_sub(2) as usize);
        let mut block = Block::default()
            .borders(Borders::ALL)
            .title(title)
            .border_style(crate::theme::border_style(focused));
        if n > 0 {
            let mut legend = rel_legend(s);
            if legend.chars().count() + 4 > area.width as usize {
                legend = short_rel_legend(s);
            }
            block = block.title_bottom(Line::from(legend).right_aligned());
        }
        let inner = block.inner(area);
        f.render_widget(block, area);
        let [tabs_area, body] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(inner);
        let tabs = Tabs::new(vec!["Companies", "People"])
            .select(if kind == SearchSubject::Companies {
                0
            } else {
                1
            })
            .highlight_style(theme().badge(theme().accent))
            .divider("│");
        f.render_widget(tabs, tabs_area);

        if n == 0 {
            let lines = empty_lines(s, kind, filled, keys);
            f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), body);
            return;
        }

        // Only the visible slice becomes `Row`s: drawing cost does not grow with the page size.
        let h = body.height.saturating_sub(1) as usize;
        let sel = s.sel.min(n - 1);
        let offset = follow(s.offset.get(), sel, h);
        s.offset.set(offset);
        let end = (offset + h).min(n);
        let window = s.shown_range(offset, end);
        // The columns chosen, by priority and minimum width, sized over every loaded row:
        // values never cut, widths the same on every page.
        let titles = records::columns(kind);
        let natural = s.natural_widths(titles);
        let cols = super::columns::layout(
            kind,
            &self.columns.shown(kind),
            titles,
            &natural,
            s.sorted.as_ref().map(|(sort, _)| sort.column),
            body.width.saturating_sub(2),
            1,
        );
        let visible: Vec<Row> = window
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let marked = !s.marked.is_empty() && s.marked.contains(&r.record.key());
                // The selected row is also highlighted: a marked one keeps its mark.
                let mark = match (offset + i == sel, marked) {
                    (_, true) => "●",
                    (true, false) => "›",
                    (false, false) => " ",
                };
                let row = Row::new(
                    std::iter::once(TableCell::from(mark)).chain(cols.iter().map(|(c, w)| {
                        TableCell::from(cut(r.cells.get(*c).map_or("", String::as_str), *w))
                    })),
                );
                if offset + i == sel {
                    row.style(theme().selection(focused).add_modifier(Modifier::BOLD))
                } else {
                    row
                }
            })
            .collect();
        let widths: Vec<Constraint> = std::iter::once(Constraint::Length(1))
            .chain(cols.iter().map(|(_, w)| Constraint::Length(*w)))
            .collect();
        let header = Row::new(
            std::iter::once(TableCell::from(" ")).chain(
                cols.iter()
                    .map(|(c, _)| TableCell::from(titles.get(*c).copied().unwrap_or(""))),
            ),
        )
        .style(
            Style::default()
                .fg(theme().heading)
                .add_modifier(Modifier::BOLD),
        );
        let table = Table::new(visible, widths).header(header).column_spacing(1);
        f.render_widget(table, body);
    }

    fn hints(&self) -> Vec<Hint> {
        vec![
            Hint::KeyAction(KeyAction::Enter, "details"),
            Hint::KeyAction(KeyAction::NextPage, "next page"),
            Hint::KeyAction(KeyAction::Export, "export"),
        ]
    }
}

/// `s` cut to `w` columns, ending in `…` when cut (text columns only: value columns are laid
/// out wide enough).
fn cut(s: &str, w: u16) -> String {
    use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};
    let w = w as usize;
    if s.width() <= w {
        return s.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let cw = c.width().unwrap_or(0);
        if used + cw + 1 > w {
            break;
        }
        used += cw;
        out.push(c);
    }
    out.push('…');
    out
}

/// The legend of the `rel.` column for the search shown: v3 relevance categories, v2 scores.
pub fn rel_legend(s: &SearchState) -> &'static str {
    use prospect_api::client::Endpoint;
    match s.request.as_ref().map(SearchRequest::endpoint) {
        Some(Endpoint::SearchCompaniesV2) => " rel. = lookalike score, 1.00 closest ",
        Some(Endpoint::SearchPeopleV2) => "",
        _ => " rel. = relevance: A best match · B good · C weaker ",
    }
}

/// [`rel_legend`] for a narrow pane.
pub fn short_rel_legend(s: &SearchState) -> &'static str {
    use prospect_api::client::Endpoint;
    match s.request.as_ref().map(SearchRequest::endpoint) {
        Some(Endpoint::SearchCompaniesV2) => " rel.: score, 1 closest ",
        Some(Endpoint::SearchPeopleV2) => "",
        _ => " rel.: A best · C weaker ",
    }
}

/// The Results pane's title: what is shown of the page (a filter, a list, a sort, the rows and
/// page), where it came from, what is marked, whether it is loading. When it is wider than
/// `width` columns, the rows are said short (`1–25/39726`, no page), so the total is never cut
/// (issue 38, item 11: at 60 columns `39726` read `3972`).
fn title_of(s: &SearchState, kind: SearchSubject, n: usize, width: usize) -> String {
    let title = full_title(s, kind, n);
    if title.chars().count() <= width || n == 0 || s.only.label().is_some() || s.list.is_some() {
        return title;
    }
    let a = s.first_index();
    let b = a + n - 1;
    let rows = match s.total {
        Some(t) => format!(" Results · {a}–{b}/{t} "),
        None => format!(" Results · {a}–{b} "),
    };
    if s.sorted.is_some() || rows.chars().count() > width {
        return title;
    }
    rows
}

/// [`title_of`], whole.
fn full_title(s: &SearchState, kind: SearchSubject, n: usize) -> String {
    let mut title = String::from(" Results ");
    if let Some(only) = s.only.label() {
        title.push_str(&format!("· {} of {} shown, {only} ", n, s.page_rows()));
        if let Some(name) = &s.list {
            title.push_str(&format!("· list {name} "));
        }
    } else if let Some(name) = &s.list {
        title.push_str(&format!("· list {name}, {} members ", n));
    } else if let (Some((sort, _)), true) = (&s.sorted, n > 0) {
        let by = records::columns(kind)
            .get(sort.column)
            .copied()
            .unwrap_or("?");
        let arrow = if sort.descending { "↓" } else { "↑" };
        title.push_str(&format!(
            "· sorted by {by} {arrow}, over the {n} loaded rows "
        ));
    } else if n > 0 {
        let a = s.first_index();
        let b = a + n - 1;
        match s.total {
            Some(t) => title.push_str(&format!("· rows {a}–{b} of {t} · page {} ", s.page + 1)),
            None => title.push_str(&format!("· rows {a}–{b} · page {} ", s.page + 1)),
        }
    }
    if let Some(label) = s.stored_label() {
        title.push_str(&format!("· {label} "));
    }
    if !s.marked.is_empty() {
        title.push_str(&format!("· {} marked ", s.marked.len()));
    }
    if s.loading {
        title.push_str("· loading… ");
    }
    title
}

/// What the Results pane says when no row is shown: why (a filter, loading, an error, an empty
/// list, no search yet, no match) and what to do, then the search's notes.
fn empty_lines(
    s: &SearchState,
    kind: SearchSubject,
    filled: usize,
    keys: &crate::keymap::Keymap,
) -> Vec<Line<'static>> {
    let noun = if kind == SearchSubject::Companies {
        "companies"
    } else {
        "people"
    };
    let mut lines = vec![];
    if let (Some(only), false) = (s.only.label(), s.loading) {
        lines.push(Line::from(format!(
            "None of the {} rows of this page is shown: {only} ({} shows all).",
            s.page_rows(),
            keys.first_key_of(KeyAction::RevealedFilter)
        )));
    } else if s.loading {
        lines.push(Line::from(format!("Loading {noun}…")));
    } else if let Some(e) = &s.error {
        lines.push(Line::from(Span::styled(
            format!("The search failed: {e}"),
            Style::default().fg(theme().bad),
        )));
    } else if let Some(name) = &s.list {
        lines.push(Line::from(format!("The list {name} has no members yet.")));
    } else if s.request.is_none() {
        lines.push(Line::from(format!("No search run yet for {noun}.")));
        lines.push(Line::from(format!(
            "Set filters on the left, then {} (or Enter on \"run search\").",
            keys.keys_of(KeyAction::Search)
        )));
    } else {
        let n = filled;
        lines.push(Line::from(format!(
            "No {noun} match these filters ({n} member(s) set)."
        )));
        lines.push(Line::from(format!(
            "Every member must match; clear one ({}) or widen a range, then search again.",
            keys.first_key_of(KeyAction::Clear)
        )));
    }
    for note in &s.notes {
        lines.push(Line::from(Span::styled(
            format!("note: {note}"),
            Style::default().fg(theme().warn),
        )));
    }
    lines
}
