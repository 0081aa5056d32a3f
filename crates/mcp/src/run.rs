//! How a paid tool runs (issue 36): planned and gated ([`crate::gate`]), then run through the
//! one door ([`engine::run`], [`engine::run_by_webhook`]) with MCP progress and the call's
//! cancellation, what it reserved given back and what it charged added to the session; and its
//! answer ([`Ran::answer`]).

use rmcp::RoleServer;
use rmcp::model::ProgressNotificationParam;
use rmcp::service::RequestContext;

use crate::gate::{Call, charge, gate};
use crate::server::Prospect;
use crate::shapes::*;
use prospect_api::cost::Cost;
use prospect_core::engine::{self, Action, Event, Plan, RunReport};
use prospect_core::session::Freshness;

/// How a paid action ran: its plan, report, the session's spending and what is left after
/// it, and for a webhook action the results not arrived in time (left, awaited, seconds).
pub(crate) struct Ran {
    /// `Some(n)`: the search was trimmed to its first `n` results, what fit in the session.
    trimmed: Option<u64>,
    plan: Plan,
    report: RunReport,
    spent: Credits,
    left: Option<Credits>,
    not_arrived: Option<(usize, usize, u64)>,
}

impl Ran {
    /// The answer with `rows`: `stopped` on an error, a cancel or results not arrived in time
    /// (said in the message), else `done`.
    pub(crate) fn answer<R>(self, rows: Vec<R>) -> Paid<R> {
        let stopped = self.report.error.is_some() || self.report.interrupted;
        let mut message = summary(&self.report);
        if let Some(n) = self.trimmed {
            message = format!(
                "the first {} results, what fits in the session's budget: {message}",
                prospect_common::words::thousands(n)
            );
        }
        if let Some((left, awaited, secs)) = self.not_arrived {
            message.push_str(&format!(
                "; {left} of {awaited} had not arrived after {secs} s: they are kept when they \
                 arrive and not sent again (call again later: 0 credits for what arrived)"
            ));
        }
        Paid {
            status: if stopped || self.not_arrived.is_some() {
                Status::Stopped
            } else {
                Status::Done
            },
            message,
            plan: Some((&self.plan).into()),
            plan_id: None,
            spent: self.report.charged.into(),
            session_spent: self.spent,
            session_left: self.left,
            owned: self.report.owned,
            bought: self.report.bought,
            rows,
        }
    }
}

/// What a run's report says, in one line.
fn summary(report: &RunReport) -> String {
    let mut text = format!(
        "{} records: {} from the store (0 credits), {} bought in {} requests; charged {}",
        report.records,
        report.owned,
        report.bought,
        report.requests,
        prospect_core::spend::describe_pools(&report.charged)
    );
    if let Some(d) = report.suppressed.describe() {
        text.push_str(&format!("; {d}"));
    }
    if let Some(e) = &report.error {
        text.push_str(&format!(
            "; stopped: {e} (what was bought before it is kept, and not bought again)"
        ));
    } else if report.interrupted {
        text.push_str("; cancelled: what was in flight is kept");
    }
    text
}

impl Prospect {
    /// Plans `action` and passes the agent's gate ([`gate`]) with the call's spend controls,
    /// asking the person at the client where it offers elicitation.
    async fn pass<R>(
        &self,
        action: &Action,
        spend: &Spend,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<crate::gate::Passed, Paid<R>> {
        let call = Call {
            spend,
            peer: Some(&ctx.peer),
            ct: &ctx.ct,
        };
        gate(
            &self.session,
            &self.budget,
            self.confirm_above,
            action,
            call,
        )
        .await
    }

    /// Plans `action`, passes the agent's gate ([`gate`]) and runs it through the one door
    /// ([`engine::run`]), stopping on `ctx`'s cancellation and reporting progress: its events
    /// and how it ran. `Err`: the gate's answer (`refused`, `needs_confirmation`; nothing sent).
    pub(crate) async fn gate_and_run<R>(
        &self,
        action: &Action,
        spend: &Spend,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<(Vec<Event>, Ran), Paid<R>> {
        let passed = self.pass(action, spend, ctx).await?;
        let (plan, action) = (passed.plan, passed.trimmed.as_ref().unwrap_or(action));
        let mut events = Vec::new();
        let progress = progress(ctx, plan.asked);
        let ran = engine::run(
            &self.session,
            action,
            &plan,
            Freshness::Stored,
            &ctx.ct,
            |e| {
                let n = match &e {
                    Event::Page(p) => p.take as u64,
                    Event::Companies(v) => v.len() as u64,
                    Event::People(v) => v.len() as u64,
                    _ => 1,
                };
                if let Some((tx, _)) = &progress {
                    let _ = tx.send(n);
                }
                events.push(e);
                Ok(())
            },
        )
        .await;
        // Every progress notification goes out before the answer: a client forgets a
        // request's progress token once it has the answer.
        if let Some((tx, sending)) = progress {
            drop(tx);
            let _ = sending.await;
        }
        let charged = ran.report.charged;
        let ran = self.settle(
            (passed.reserved, passed.trimmed.is_some()),
            plan,
            ran.report,
            charged,
            None,
        );
        Ok((events, ran))
    }

    /// How a gated run ended: what the gate `reserved` given back and `counted` added to the
    /// session's spending ([`charge`]), with its plan (`trimmed` when the gate cut the search
    /// to what fits), report and the results not arrived.
    fn settle(
        &self,
        (reserved, trimmed): (Cost, bool),
        plan: Plan,
        report: RunReport,
        counted: Cost,
        not_arrived: Option<(usize, usize, u64)>,
    ) -> Ran {
        let (spent, left) = charge(&self.budget, reserved, counted);
        Ran {
            trimmed: trimmed.then_some(plan.asked),
            plan,
            report,
            spent,
            left,
            not_arrived,
        }
    }

    /// A webhook action (a reveal, a batch enrichment): planned and gated as
    /// [`Prospect::gate_and_run`], the receiver started when something is to be sent or
    /// awaited, sent through [`engine::run_by_webhook`] and awaited up to `wait_seconds`
    /// (default 120, at most 900): what arrived and how it ran. `Err`: the gate's answer, or a
    /// receiver that cannot start (nothing sent).
    pub(crate) async fn gate_and_send<R>(
        &self,
        action: &Action,
        spend: &Spend,
        wait_seconds: Option<u64>,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<(Option<engine::Arrived>, Ran), Paid<R>> {
        let passed = self.pass(action, spend, ctx).await?;
        let (plan, action) = (passed.plan, passed.trimmed.as_ref().unwrap_or(action));
        if (plan.to_buy > 0 || plan.pending > 0)
            && let Err(e) = self.receiver().await
        {
            charge(&self.budget, passed.reserved, Cost::ZERO);
            return Err(Paid::empty(
                Status::Refused,
                format!("{e}; nothing was sent"),
                Some(&plan),
            ));
        }
        let wait = std::time::Duration::from_secs(wait_seconds.unwrap_or(120).min(900));
        let ran = engine::run_by_webhook(
            &self.session,
            action,
            &plan,
            Freshness::Stored,
            wait,
            &ctx.ct,
            |_| {},
        )
        .await;
        // Results not arrived in time may still be charged when they arrive, after this call
        // has answered: the session counts the plan's whole cost for them, so no later call
        // can take it past the cap.
        let counted = match ran.left > 0 {
            true => Cost {
                standard: ran.report.charged.standard.max(plan.cost.standard),
                email: ran.report.charged.email.max(plan.cost.email),
                phone: ran.report.charged.phone.max(plan.cost.phone),
            },
            false => ran.report.charged,
        };
        let not_arrived = (ran.left > 0).then_some((ran.left, ran.awaited, wait.as_secs()));
        let settled = self.settle(
            (passed.reserved, passed.trimmed.is_some()),
            plan,
            ran.report,
            counted,
            not_arrived,
        );
        Ok((ran.arrived, settled))
    }
}

/// A sender of progress (items done) to the client, when it asked for progress
/// (`_meta.progressToken`), and the task that sends the notifications, which ends once the
/// sender is dropped and every notification is sent; `None` without a progress token.
fn progress(
    ctx: &RequestContext<RoleServer>,
    total: u64,
) -> Option<(
    tokio::sync::mpsc::UnboundedSender<u64>,
    tokio::task::JoinHandle<()>,
)> {
    let token = ctx.meta.get_progress_token()?;
    let peer = ctx.peer.clone();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<u64>();
    let sending = tokio::spawn(async move {
        let mut done = 0u64;
        while let Some(n) = rx.recv().await {
            done += n;
            let _ = peer
                .notify_progress(
                    ProgressNotificationParam::new(token.clone(), done as f64)
                        .with_total(total as f64),
                )
                .await;
        }
    });
    Some((tx, sending))
}
