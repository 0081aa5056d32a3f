//! The facets pane (`f`, issue 9): bar charts (ratatui `BarChart`, horizontal) of the loaded
//! results, counted by `core::facets`: companies by country, company size, industry and
//! year founded; people by seniority, department and country. The counts are over the rows
//! loaded (every fetched page of the tab), and the title says how many of the total that is
//! ("over 75 loaded of 39,726"). The counts are taken when the pane opens.
use crate::theme::theme;
use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Bar, BarChart, BarGroup, Block, Borders, Clear, Paragraph};

use super::export::thousands;
use super::widgets::{dim, frame};
use super::{Component, Ctx, Handled, Hint, Input, Stay, hint_line};
use crate::keymap::KeyAction;
use crate::msg::{Record, ResultRow};
use crate::schema::SearchSubject;
use prospect_core::facets::{Facet, company_facets, people_facets};

/// Longest bar label, in characters (longer values are cut with `…`).
const LABEL: usize = 18;

/// The facets of one tab's loaded rows.
#[derive(Debug, Clone, PartialEq)]
pub struct FacetsView {
    /// The tab counted.
    pub kind: SearchSubject,
    /// One chart per field, in display order.
    pub facets: Vec<Facet>,
    /// Rows counted (loaded).
    pub loaded: usize,
    /// `total` of the search, when known.
    pub total: Option<u64>,
}

impl FacetsView {
    /// Counts the facets of `rows` (the loaded rows of the tab of `kind`).
    pub fn new<'a>(
        kind: SearchSubject,
        rows: impl IntoIterator<Item = &'a ResultRow> + Clone,
        total: Option<u64>,
    ) -> FacetsView {
        let loaded = rows.clone().into_iter().count();
        let facets = match kind {
            SearchSubject::Companies => {
                company_facets(rows.into_iter().filter_map(|r| r.record.company()))
            }
            SearchSubject::People => {
                people_facets(rows.into_iter().filter_map(|r| match &r.record {
                    Record::Person { person, .. } => Some(person),
                    Record::Company { .. } => None,
                }))
            }
        };
        FacetsView {
            kind,
            facets,
            loaded,
            total,
        }
    }

    /// `over 75 loaded of 39,726`.
    pub fn coverage(&self) -> String {
        match self.total {
            Some(t) => format!(
                "over {} loaded of {}",
                thousands(self.loaded as u64),
                thousands(t)
            ),
            None => format!("over {} loaded", thousands(self.loaded as u64)),
        }
    }
}

impl Component for FacetsView {
    type Effect = Stay;

    /// Close, help, quit, enter or the facets key close the charts; every other key is used.
    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<Stay> {
        match input.action() {
            Some(a) if super::help::closes(a) || a == KeyAction::Facets => {
                Handled::Consumed(Stay::Close)
            }
            Some(_) => Handled::Consumed(Stay::Open),
            None => Handled::Ignored,
        }
    }

    /// Draws the pane over most of `area`: the charts in a 2 × 2 grid.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let keys = ctx.keys;
        let r = Rect {
            x: area.x + 1,
            y: area.y + 1,
            width: area.width.saturating_sub(2),
            height: area.height.saturating_sub(2),
        };
        f.render_widget(Clear, r);
        let title = format!(
            " Facets of the {} · {} ",
            match self.kind {
                SearchSubject::Companies => "companies",
                SearchSubject::People => "people",
            },
            self.coverage()
        );
        let block = frame(&title, theme().facets);
        let inner = block.inner(r);
        f.render_widget(block, r);
        let [grid, hint] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(inner);
        f.render_widget(
            Line::from(dim(format!(
                " counts over the loaded pages only · {}",
                hint_line(&self.hints(), keys)
            ))),
            hint,
        );
        let rows =
            Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).split(grid);
        let mut cells = Vec::new();
        for row in rows.iter() {
            let cols = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
                .split(*row);
            cells.extend(cols.iter().copied());
        }
        for (facet, cell) in self.facets.iter().zip(cells) {
            draw_facet(f, cell, facet);
        }
    }

    fn hints(&self) -> Vec<Hint> {
        vec![
            Hint::KeyAction(KeyAction::NextPage, "loads more"),
            Hint::KeyAction(KeyAction::Export, "exports the first N"),
            Hint::KeyAction(KeyAction::Close, "closes"),
        ]
    }
}

fn cut(s: &str) -> String {
    if s.chars().count() <= LABEL {
        return s.to_string();
    }
    let mut out: String = s.chars().take(LABEL - 1).collect();
    out.push('…');
    out
}

fn draw_facet(f: &mut Frame<'_>, area: Rect, facet: &Facet) {
    let title = if facet.missing > 0 {
        format!(" {} · {} without ", facet.name, facet.missing)
    } else {
        format!(" {} ", facet.name)
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .title(title)
        .border_style(Style::default().fg(theme().dim));
    if facet.buckets.is_empty() {
        f.render_widget(
            Paragraph::new(Line::from(dim(" no values in the loaded rows"))).block(block),
            area,
        );
        return;
    }
    let bars: Vec<Bar> = facet
        .buckets
        .iter()
        .map(|(label, n)| {
            Bar::default()
                .value(*n)
                .label(Line::from(format!("{} ", cut(label))))
                .text_value(n.to_string())
        })
        .collect();
    let chart = BarChart::default()
        .block(block)
        .direction(Direction::Horizontal)
        .bar_width(1)
        .bar_gap(0)
        .bar_style(Style::default().fg(theme().accent))
        .value_style(theme().badge(theme().accent))
        .data(BarGroup::default().bars(&bars));
    f.render_widget(chart, area);
}
