//! The spend gate: a search estimated above `confirm_above` credits waits for a yes. It owns
//! the waiting search, answers to submit / `y` (run) and close / `n` (cancel), and draws the
//! "Confirm spending" popup. The request in it has already passed the client's checks.
use crate::theme::theme;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::widgets::{centered, frame};
use super::{Component, Ctx, Handled, Hint, Input};
use crate::fmt::fmt_credits;
use crate::keymap::{KeyAction, Keymap};
use crate::schema::SearchSubject;
use prospect_api::cost::Cost;
use prospect_core::engine::PageAsk;
use prospect_core::request::SearchRequest;

/// A search waiting for confirmation (already checked as the client will check it).
#[derive(Debug, Clone, PartialEq)]
pub struct PendingSearch {
    /// The page to fetch, as the core's paging asks it ([`PendingSearch::request`]).
    pub ask: PageAsk,
    /// `true` for a next page of the current search, `false` for a new search.
    pub next_page: bool,
    /// Estimated cost in credits (all pools).
    pub estimate: f64,
    /// Estimated cost per pool.
    pub cost: Cost,
    /// Whether a fresh stored page may answer (the refresh key asks for a new one).
    pub fresh: prospect_core::session::Freshness,
    /// The spend engine's plan of the page ([`prospect_core::engine::plan_page`]), which the
    /// popup shows; `None` until planned.
    pub plan: Option<prospect_core::engine::Plan>,
    /// The saved filter set the search runs (issue 37), new-only or not.
    pub set: Option<prospect_core::engine::SetSearch>,
    /// The gate offers new-only (the set has earlier runs): it is shown whatever the cost,
    /// and the new-only key switches it.
    pub offers_new_only: bool,
}

impl PendingSearch {
    /// The page of `ask` with its estimate ([`SearchRequest::estimate`]).
    pub fn new(ask: PageAsk, next_page: bool) -> PendingSearch {
        let cost = ask.request().estimate();
        PendingSearch {
            ask,
            next_page,
            estimate: cost.standard + cost.email + cost.phone,
            cost,
            fresh: prospect_core::session::Freshness::Stored,
            plan: None,
            set: None,
            offers_new_only: false,
        }
    }

    /// The request of the page to fetch (its endpoint says the tab).
    pub fn request(&self) -> &SearchRequest {
        self.ask.request()
    }

    /// Takes `plan`'s cost (per pool) as the page's and keeps the plan to show.
    pub fn set_plan(&mut self, plan: prospect_core::engine::Plan) {
        self.cost = plan.cost;
        self.estimate = plan.cost.standard + plan.cost.email + plan.cost.phone;
        self.plan = Some(plan);
    }

    /// `true` when it must be confirmed first: its estimate in any one pool is above
    /// `confirm_above` credits ([`prospect_core::spend::pools_above`]; pools are never summed).
    pub fn needs_confirmation(&self, confirm_above: f64) -> bool {
        !prospect_core::spend::pools_above(&self.cost, confirm_above).is_empty()
    }
}

/// The answer to the gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Run it.
    Yes,
    /// Cancel: nothing is spent.
    No,
    /// Switch new-only on or off (the gate of a saved set with earlier runs).
    ToggleNewOnly,
    /// Not an answer.
    Undecided,
}

/// The answer a key gives: enter (`action`) or `y` runs, close or `n` cancels, whatever else
/// the keymap binds `y` / `n` to.
pub fn answer(action: Option<KeyAction>, key: &KeyEvent) -> Answer {
    if action == Some(KeyAction::Enter) || matches!(key.code, KeyCode::Char('y' | 'Y')) {
        Answer::Yes
    } else if action == Some(KeyAction::Close) || matches!(key.code, KeyCode::Char('n' | 'N')) {
        Answer::No
    } else if action == Some(KeyAction::NewOnly) {
        Answer::ToggleNewOnly
    } else {
        Answer::Undecided
    }
}

/// The plan's lines below its heading (owned, to buy per pool, requests and ETA;
/// [`prospect_core::engine::Plan::lines`]), then the threshold it was asked above.
fn plan_lines(plan: &prospect_core::engine::Plan, confirm_above: f64) -> Vec<Line<'static>> {
    let mut lines: Vec<Line<'static>> = plan.lines().into_iter().skip(1).map(Line::from).collect();
    lines.push(Line::from(format!(
        "Asks above {} in any one pool.",
        fmt_credits(confirm_above)
    )));
    lines
}

/// The gate's answer to `input` ([`answer`]); pasted text is ignored.
fn handle_answer(input: Input<'_>) -> Handled<Answer> {
    match input {
        Input::Key { key, action, .. } => Handled::Consumed(answer(action, &key)),
        Input::KeyAction(a @ (KeyAction::Enter | KeyAction::Close | KeyAction::NewOnly)) => {
            Handled::Consumed(answer(Some(a), &KeyEvent::from(KeyCode::Null)))
        }
        Input::KeyAction(_) => Handled::Consumed(Answer::Undecided),
        Input::Paste(_) => Handled::Ignored,
    }
}

/// An estimate's line: `lead` (e.g. "may cost up to "), the cost in bold warning colour, then
/// `tail` (which threshold it was asked above). The search and paid-action gates and the
/// export's first-N question say it alike.
pub fn may_cost(lead: String, cost: String, tail: String) -> Line<'static> {
    Line::from(vec![
        Span::raw(lead),
        Span::styled(
            cost,
            Style::default()
                .fg(theme().warn)
                .add_modifier(Modifier::BOLD),
        ),
        Span::raw(tail),
    ])
}

/// The keys of both confirmations: yes, or cancel.
fn confirm_hints(yes: &'static str) -> Vec<Hint> {
    vec![
        Hint::KeyAction(KeyAction::Enter, yes),
        Hint::KeyAction(KeyAction::Close, "cancel"),
    ]
}

impl Component for PendingSearch {
    type Effect = Answer;

    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<Answer> {
        handle_answer(input)
    }

    /// Draws the confirmation: the page, and its plan when planned (else its estimate).
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let p = self;
        let confirm_above = ctx.confirm_above;
        let noun = if p.request().subject() == SearchSubject::Companies {
            "companies"
        } else {
            "people"
        };
        let mut lines = vec![Line::from(format!(
            "{} {noun} via {}",
            if p.next_page {
                "Next page of"
            } else {
                "Search"
            },
            p.request().endpoint().path()
        ))];
        match &p.plan {
            Some(plan) => lines.extend(plan_lines(plan, confirm_above)),
            None => lines.push(may_cost(
                "may cost up to ".into(),
                p.cost.to_string(),
                format!(" (asks above {}).", fmt_credits(confirm_above)),
            )),
        }
        draw_confirm(f, area, lines, &self.hints(), ctx.keys);
    }

    fn hints(&self) -> Vec<Hint> {
        let mut hints = confirm_hints("run it");
        if self.offers_new_only {
            let on = self.set.as_ref().is_some_and(|s| s.new_only);
            hints.push(Hint::KeyAction(
                KeyAction::NewOnly,
                if on {
                    "new-only on · switch to all results"
                } else {
                    "new-only off · switch to only what is new"
                },
            ));
        }
        hints
    }
}

/// Draws a "Confirm spending" popup of `lines` with the keys' line (`Enter/y <yes>`,
/// `Esc/n cancel`, from the keymap and `hints`) below, as tall as they are.
fn draw_confirm(
    f: &mut Frame<'_>,
    area: Rect,
    mut lines: Vec<Line<'_>>,
    hints: &[Hint],
    keys: &Keymap,
) {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    lines.push(Line::from(""));
    let mut spans = Vec::new();
    for (h, letter) in hints.iter().zip(["y", "n"]) {
        if let Hint::KeyAction(a, words) = h {
            spans.push(Span::styled(format!("{}/{letter}", keys.keys_of(*a)), bold));
            spans.push(Span::raw(format!(" {words}   ")));
        }
    }
    lines.push(Line::from(spans));
    // Keys past yes and cancel, each on its own line.
    for h in hints.iter().skip(2) {
        if let Hint::KeyAction(a, words) = h {
            lines.push(Line::from(vec![
                Span::styled(keys.keys_of(*a), bold),
                Span::raw(format!(" {words}")),
            ]));
        }
    }
    let r = centered(area, 64, lines.len() as u16 + 2);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .block(frame(" Confirm spending ", theme().warn))
            .wrap(Wrap { trim: true }),
        r,
    );
}

impl Component for crate::msg::Prepared {
    type Effect = Answer;

    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<Answer> {
        handle_answer(input)
    }

    /// Draws the confirmation of a paid action (reveal, enrich, lookup) estimated above
    /// `confirm_above` in some pool: what it does, its cost per pool, what the store answers
    /// at 0.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let p = self;
        let confirm_above = ctx.confirm_above;
        let mut lines = vec![Line::from(crate::fmt::capitalize(&p.ask.describe()))];
        if let Some(plan) = &p.plan {
            lines.extend(plan_lines(plan, confirm_above));
        } else {
            lines.push(may_cost(
                "may cost up to ".into(),
                prospect_core::spend::describe_pools(&p.estimate.cost),
                format!(
                    " (asks above {} in any one pool).",
                    fmt_credits(confirm_above)
                ),
            ));
            if p.estimate.from_store > 0 {
                lines.push(Line::from(format!(
                    "{} answered from the store at 0 credits; {} to send.",
                    p.estimate.from_store, p.estimate.to_send
                )));
            }
        }
        draw_confirm(f, area, lines, &self.hints(), ctx.keys);
    }

    fn hints(&self) -> Vec<Hint> {
        confirm_hints("spend it")
    }
}
