//! The activity pane (`a`): the explorer's jobs (reveals, enrichments, lookups, warmups) and
//! the webhook deliveries that arrived — pending, arrived or failed, the credits per pool
//! (estimated before sending, charged once known) and the time since each was sent — then the
//! store's last purchases with who bought each (on a team store, every member's; issue 17). It owns
//! the list and its scroll position, moves on keymap actions and draws itself; the state owner
//! changes the jobs as their answers and deliveries come in.
use crate::theme::theme;
use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use super::widgets::{Scroll, centered, dim, frame, truncate};
use super::{Component, Ctx, Handled, Hint, Input, hint_line};
use crate::keymap::{KeyAction, Keymap};
use crate::msg::Ask;
use prospect_api::cost::Cost;
use prospect_api::types::webhooks::WebhookEvent;
use prospect_core::session::Freshness;
use prospect_core::spend::describe_pools;

/// Where a job is.
#[derive(Debug, Clone, PartialEq)]
pub enum JobState {
    /// Sent; its answer is on its way.
    Sent,
    /// Answered, its results still to come: a reveal waiting for its webhook, an enrich whose
    /// data the service is gathering (it retries by itself).
    Pending,
    /// Done: the results are in the table, the details and the store.
    Arrived,
    /// Answered from the store at 0 credits.
    FromStore,
    /// Failed, with the plain words of why.
    Failed(String),
}

impl JobState {
    /// The word shown in the pane.
    pub fn word(&self) -> &'static str {
        match self {
            JobState::Sent => "sent",
            JobState::Pending => "pending",
            JobState::Arrived => "arrived",
            JobState::FromStore => "from store",
            JobState::Failed(_) => "failed",
        }
    }
}

/// One job: a paid action (or a free warmup) with its id.
#[derive(Debug, Clone)]
pub struct Job {
    /// Its id (also its slot, `Slot::Job(id)`).
    pub id: u64,
    /// What it does, e.g. `reveal emails of 2 people`.
    pub label: String,
    /// The action, to retry a pending enrich; `None` for a warmup.
    pub action: Option<Ask>,
    /// Whether the store may answer its retries.
    pub fresh: Freshness,
    /// Where it is.
    pub state: JobState,
    /// The most it may cost, per pool, as estimated before it was sent.
    pub estimate: Cost,
    /// What it was charged so far (a reveal's charge arrives with its webhook).
    pub charged: Cost,
    /// When it was sent.
    pub sent_at: DateTime<Utc>,
    /// Person ids whose webhook results are still to come (reveals).
    pub waiting: BTreeSet<String>,
    /// Person ids the reveal was sent for.
    pub sent_ids: usize,
    /// Tries so far (an enrich that answered 201 is tried again with backoff).
    pub attempts: u32,
    /// A short note, e.g. `data gathering has started`, sanitized.
    pub note: String,
}

/// One webhook delivery that arrived.
#[derive(Debug, Clone, PartialEq)]
pub struct DeliveryEntry {
    /// Its event.
    pub event: WebhookEvent,
    /// Results it carried.
    pub results: usize,
    /// Credits it reports, per pool.
    pub credits: Cost,
    /// When it arrived.
    pub at: DateTime<Utc>,
    /// `false` for a retried delivery (already stored; it changed nothing).
    pub new: bool,
}

/// The activity list and its scroll position.
#[derive(Debug, Clone, Default)]
pub struct Activity {
    /// Jobs, oldest first.
    pub jobs: Vec<Job>,
    /// Deliveries, oldest first.
    pub deliveries: Vec<DeliveryEntry>,
    /// The store's last purchases and reveal deliveries, newest first, each purchase with who
    /// bought it (issue 17: on a team store, every member's), read when the pane opens; `None`
    /// until read, `Err` with why it could not be.
    pub purchases: Option<Result<Vec<prospect_core::owned::Spend>, String>>,
    /// The scroll position.
    pub scroll: Scroll,
    next_id: u64,
}

/// What a key on the pane wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActivityEffect {
    /// Nothing beyond a redraw.
    Nothing,
    /// Close the pane.
    Close,
}

/// `12 s`, `3 min`, `2 h`, `4 d`: the time since `then`, as of `now` (never negative).
pub fn since(then: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let s = (now - then).num_seconds().max(0);
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min", s / 60),
        3600..=86_399 => format!("{} h", s / 3600),
        _ => format!("{} d", s / 86_400),
    }
}

impl Activity {
    /// A new job id (1, 2, ...).
    pub fn next_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// The job of `id`.
    pub fn job_mut(&mut self, id: u64) -> Option<&mut Job> {
        self.jobs.iter_mut().find(|j| j.id == id)
    }

    /// Jobs not yet done (sent or pending).
    pub fn open_jobs(&self) -> usize {
        self.jobs
            .iter()
            .filter(|j| matches!(j.state, JobState::Sent | JobState::Pending))
            .count()
    }

    /// Handles an action while the pane is open.
    fn on_action(&mut self, action: KeyAction) -> ActivityEffect {
        if self.scroll.handle(action) {
            return ActivityEffect::Nothing;
        }
        match action {
            KeyAction::Close | KeyAction::Activity | KeyAction::Quit | KeyAction::Enter => {
                return ActivityEffect::Close;
            }
            _ => {}
        }
        ActivityEffect::Nothing
    }

    fn lines(&self, now: DateTime<Utc>, width: usize, keys: &Keymap) -> Vec<Line<'static>> {
        // Narrow screens: the label and credits columns give way so the age stays visible.
        let narrow = width < 110;
        let label_w = if narrow {
            width.saturating_sub(4 + 6 + 14 + 17 + 9).clamp(12, 34)
        } else {
            34
        };
        let credits_w = if narrow { 16 } else { 22 };
        let bold = Style::default()
            .fg(theme().heading)
            .add_modifier(Modifier::BOLD);
        let mut out = vec![Line::from(Span::styled(
            format!("Jobs ({} open)", self.open_jobs()),
            bold,
        ))];
        if self.jobs.is_empty() {
            out.push(Line::from(dim(format!(
                "  none yet: {} / {} reveal, {} enrich, {} warm up, {} look up",
                keys.first_key_of(KeyAction::RevealEmails),
                keys.first_key_of(KeyAction::RevealPhones),
                keys.first_key_of(KeyAction::Enrich),
                keys.first_key_of(KeyAction::Warmup),
                keys.first_key_of(KeyAction::Lookup)
            ))));
        }
        for j in self.jobs.iter().rev() {
            let color = match j.state {
                JobState::Sent | JobState::Pending => theme().warn,
                JobState::Arrived | JobState::FromStore => theme().good,
                JobState::Failed(_) => theme().bad,
            };
            let mut state = j.state.word().to_string();
            if j.sent_ids > 0 && j.state == JobState::Pending {
                state.push_str(&format!(" {}/{}", j.sent_ids - j.waiting.len(), j.sent_ids));
            }
            let done = matches!(j.state, JobState::Arrived | JobState::FromStore);
            let credits = if done && j.charged.is_zero() {
                "0 credits".to_string()
            } else if j.charged.is_zero() {
                if j.estimate.is_zero() {
                    "free".to_string()
                } else {
                    format!("≤ {}", describe_pools(&j.estimate))
                }
            } else {
                describe_pools(&j.charged)
            };
            let mut spans = vec![
                Span::raw(format!("  #{:<3} ", j.id)),
                Span::raw(format!(
                    "{:<label_w$} ",
                    j.label.chars().take(label_w).collect::<String>()
                )),
                Span::styled(format!("{state:<13} "), Style::default().fg(color)),
                Span::raw(format!("{credits:<credits_w$} ")),
                Span::styled(
                    format!("{} ago", since(j.sent_at, now)),
                    Style::default().fg(theme().dim),
                ),
            ];
            let note = match &j.state {
                JobState::Failed(why) => why.clone(),
                _ => j.note.clone(),
            };
            if !note.is_empty() {
                spans.push(Span::styled(
                    format!(" · {note}"),
                    Style::default().fg(theme().dim),
                ));
            }
            out.push(Line::from(spans));
        }
        out.push(Line::from(""));
        out.push(Line::from(Span::styled(
            format!("Webhook deliveries ({})", self.deliveries.len()),
            bold,
        )));
        if self.deliveries.is_empty() {
            out.push(Line::from(dim(
                "  none yet: reveal results arrive here by webhook",
            )));
        }
        for d in self.deliveries.iter().rev() {
            let mut spans = vec![
                Span::raw(format!("  {:<22} ", d.event.name())),
                Span::raw(format!(
                    "{:<12} ",
                    format!(
                        "{} result{}",
                        d.results,
                        if d.results == 1 { "" } else { "s" }
                    )
                )),
                Span::styled("arrived       ", Style::default().fg(theme().good)),
                Span::raw(format!(
                    "{:<credits_w$} ",
                    if d.credits.is_zero() {
                        "0 credits".to_string()
                    } else {
                        describe_pools(&d.credits)
                    }
                )),
                Span::styled(
                    format!("{} ago", since(d.at, now)),
                    Style::default().fg(theme().dim),
                ),
            ];
            if !d.new {
                spans.push(Span::styled(
                    " · a retry, already stored",
                    Style::default().fg(theme().dim),
                ));
            }
            out.push(Line::from(spans));
        }
        out.push(Line::from(""));
        out.extend(self.purchase_lines(now, label_w, credits_w, bold));
        out
    }

    /// The "In the store" section: the store's last spends with who bought each.
    fn purchase_lines(
        &self,
        now: DateTime<Utc>,
        label_w: usize,
        credits_w: usize,
        bold: Style,
    ) -> Vec<Line<'static>> {
        let mut out = vec![Line::from(Span::styled(
            "In the store: the last purchases, by whom",
            bold,
        ))];
        match &self.purchases {
            None => out.push(Line::from(dim("  reading the store…"))),
            Some(Err(why)) => out.push(Line::from(Span::styled(
                format!("  not read: {why}"),
                Style::default().fg(theme().bad),
            ))),
            Some(Ok(spends)) if spends.is_empty() => {
                out.push(Line::from(dim("  nothing bought yet")));
            }
            Some(Ok(spends)) => {
                for p in spends {
                    let who = match (p.kind.as_str(), p.buyer.as_str()) {
                        ("delivery", _) => "webhook".to_string(),
                        (_, "") => "—".to_string(),
                        (_, b) => b.to_string(),
                    };
                    let credits = if p.credits.is_zero() {
                        "0 credits".to_string()
                    } else {
                        describe_pools(&p.credits)
                    };
                    out.push(Line::from(vec![
                        Span::raw(format!(
                            "  {:<label_w$} ",
                            p.what.chars().take(label_w).collect::<String>()
                        )),
                        Span::styled(
                            format!("{:<13} ", who.chars().take(13).collect::<String>()),
                            Style::default().fg(theme().accent),
                        ),
                        Span::raw(format!("{credits:<credits_w$} ")),
                        Span::styled(
                            format!("{} ago", since(p.at, now)),
                            Style::default().fg(theme().dim),
                        ),
                    ]));
                }
            }
        }
        out
    }
}

impl Component for Activity {
    type Effect = ActivityEffect;

    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<ActivityEffect> {
        let Some(action) = input.action() else {
            return Handled::Ignored;
        };
        Handled::Consumed(self.on_action(action))
    }

    /// Draws the pane over `area` as of `now`.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let (keys, now) = (ctx.keys, ctx.now);

        let r = centered(area, 120, area.height.saturating_sub(4).max(8));
        f.render_widget(Clear, r);
        let block = frame(
            " Activity: jobs, webhook deliveries, purchases ",
            theme().accent,
        );
        let inner = block.inner(r);
        f.render_widget(block, r);
        let mut lines = self.lines(now, inner.width as usize, keys);
        let h = inner.height.saturating_sub(1) as usize;
        let top = self.scroll.window(lines.len(), h);
        let w = inner.width as usize;
        let mut shown: Vec<Line> = lines.drain(top..).take(h).map(|l| truncate(l, w)).collect();
        while shown.len() < h {
            shown.push(Line::from(""));
        }
        shown.push(Line::from(dim(format!(
            "{} · paid jobs are never aborted once sent",
            hint_line(&self.hints(), keys)
        ))));
        f.render_widget(Paragraph::new(shown), inner);
    }

    fn hints(&self) -> Vec<Hint> {
        vec![
            Hint::KeyAction(KeyAction::Down, "scroll"),
            Hint::Actions(&[KeyAction::Activity, KeyAction::Close], "closes"),
        ]
    }
}
