//! The agent's spend gate (issue 36): every paid tool plans first through the engine, and a
//! plan runs only within what the session may still spend (`--max-credits`, per pool, for the
//! whole session) and within the call's `max_credits` (else the server's `confirm_above`).
//!
//! - A plan above the call's limit is confirmed by the person at the client when the client
//!   offers MCP elicitation (form mode), else answered with a plan id, and runs when the agent
//!   calls again with it.
//! - A search whose plan is over what the session may still spend is answered with a plan id
//!   and the number of results that fit; called again with it (and a `max_credits` that fits),
//!   it buys the first results that fit. Any other action over it is refused.
//! - What a call may spend is reserved while it runs, so calls in parallel never spend past the
//!   cap together.
//!
//! The daily budgets, the team's budget, suppression and claims bind as in every front end:
//! they are the engine's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rmcp::RoleServer;
use rmcp::service::{ElicitationError, Peer};
use sha2::{Digest, Sha256};
use tokio_util::sync::CancellationToken;

use crate::shapes::{Credits, Paid, Spend, Status};
use prospect_api::cost::Cost;
use prospect_core::engine::{self, Action, Plan};
use prospect_core::session::{Freshness, Session};
use prospect_core::spend::{describe_pools, pools_above};

/// What the session has spent and may spend, and the plans offered for confirmation.
#[derive(Debug, Default)]
pub struct Budget {
    /// `--max-credits`: most the whole session may spend in each pool.
    pub cap: Option<f64>,
    /// Spent so far, per pool.
    pub spent: Cost,
    /// The most the calls running now may spend, per pool (their plans' costs).
    pub reserved: Cost,
    /// Plan ids offered (`needs_confirmation`), each with the cost it was offered at.
    pub offered: HashMap<String, Cost>,
}

impl Budget {
    /// What is left of the cap after what is spent and reserved, per pool; `None` without a
    /// cap.
    pub fn left(&self) -> Option<Cost> {
        self.cap.map(|c| Cost {
            standard: (c - self.spent.standard - self.reserved.standard).max(0.0),
            email: (c - self.spent.email - self.reserved.email).max(0.0),
            phone: (c - self.spent.phone - self.reserved.phone).max(0.0),
        })
    }
}

/// The session's budget, shared by every tool call.
pub type SharedBudget = Arc<Mutex<Budget>>;

/// What the gate lets run: the plan, the action to run when it is not the one asked (a search
/// trimmed to what fits), and what is reserved for it (give it back with [`charge`]).
pub struct Passed {
    /// The plan to run.
    pub plan: Plan,
    /// `Some`: run this instead of the action asked (its first results that fit).
    pub trimmed: Option<Action>,
    /// What the session set aside for this run.
    pub reserved: Cost,
}

/// The id of `action`'s plan costing `cost`: 16 hex digits of the SHA-256 of the action's
/// fingerprint and the cost. The same arguments give the same id while the plan costs the same.
fn plan_id(action: &Action, cost: &Cost) -> String {
    let c = cost.rounded();
    let digest = Sha256::digest(format!(
        "{}|{}|{}|{}",
        action.fingerprint(),
        c.standard,
        c.email,
        c.phone
    ));
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// The first pool where `cost` is over `left`, in words.
fn over(cost: &Cost, left: &Cost) -> Option<String> {
    let c = cost.rounded();
    [
        ("standard", c.standard, left.standard),
        ("email", c.email, left.email),
        ("phone", c.phone, left.phone),
    ]
    .into_iter()
    .find(|(_, need, have)| need > &(have + 1e-9))
    .map(|(pool, need, have)| format!("{need} {pool} credits asked, {have} left"))
}

/// Locks the budget (a poisoned lock still holds the right numbers).
fn lock(budget: &SharedBudget) -> std::sync::MutexGuard<'_, Budget> {
    budget.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the agent's call comes with: its spend controls, the client to ask (elicitation) and
/// the call's cancellation.
pub struct Call<'a> {
    /// `max_credits` and `plan_id`.
    pub spend: &'a Spend,
    /// The client, asked to confirm when it offers elicitation.
    pub peer: Option<&'a Peer<RoleServer>>,
    /// The call's cancellation (stops a question to the person).
    pub ct: &'a CancellationToken,
}

/// Plans `action` and decides whether it may run now: `Ok` to run it (what it reserved is
/// given back with [`charge`]); `Err(answer)` (`refused` or `needs_confirmation`, nothing
/// spent) otherwise.
pub async fn gate<R>(
    s: &Session,
    budget: &SharedBudget,
    confirm_above: f64,
    action: &Action,
    call: Call<'_>,
) -> Result<Passed, Paid<R>> {
    let plan = plan_of(s, action).await?;
    let id = plan_id(action, &plan.cost);
    let left = lock(budget).left();
    if let Some(left) = left
        && let Some(why) = over(&plan.cost, &left)
    {
        return over_session(s, budget, action, plan, call.spend, id, why).await;
    }
    let limit = call.spend.max_credits.unwrap_or(confirm_above);
    let confirmed = pools_above(&plan.cost, limit).is_empty()
        || take_offer(budget, call.spend, &id)
        || match call.peer {
            Some(peer) => match ask(peer, &plan, limit, call.ct).await {
                Asked::Yes => true,
                Asked::No => {
                    return Err(Paid::empty(
                        Status::Refused,
                        format!(
                            "{}: the person at the client declined it; nothing was sent",
                            plan.action
                        ),
                        Some(&plan),
                    ));
                }
                Asked::Unanswered => false,
            },
            None => false,
        };
    if !confirmed {
        return Err(offer(
            budget,
            &plan,
            id,
            format!(
                "{}: estimated {} is above {limit} credits in a pool; nothing was sent. Call \
                 again with the same arguments and plan_id {{id}} to run it.",
                plan.action,
                describe_pools(&plan.cost)
            ),
        ));
    }
    match reserve_plan(budget, plan, None) {
        Ok(passed) => Ok(passed),
        // A call running at once took what was left since the check above: answered as any
        // plan over the session's budget.
        Err(e) => {
            let (plan, why) = *e;
            over_session(s, budget, action, plan, call.spend, id, why).await
        }
    }
}

/// The engine's plan of `action`; `Err`: it cannot be planned or may not run (a daily budget,
/// the allowance, a request the service would refuse).
async fn plan_of<R>(s: &Session, action: &Action) -> Result<Plan, Paid<R>> {
    let plan = engine::plan(s, action, Freshness::Stored)
        .await
        .map_err(|e| Paid::empty(Status::Refused, e.to_string(), None))?;
    match &plan.refusal {
        Some(why) => Err(Paid::empty(
            Status::Refused,
            format!("{}: {why}", plan.action),
            Some(&plan),
        )),
        None => Ok(plan),
    }
}

/// Whether the call names the plan id offered for `id` (and takes the offer).
fn take_offer(budget: &SharedBudget, spend: &Spend, id: &str) -> bool {
    spend.plan_id.as_deref() == Some(id) && lock(budget).offered.remove(id).is_some()
}

/// Reserves `plan`'s cost if it still fits what is left (calls in parallel may have taken
/// it since it was checked); `Err`: the plan back, and why it is over the cap.
fn reserve_plan(
    budget: &SharedBudget,
    plan: Plan,
    trimmed: Option<Action>,
) -> Result<Passed, Box<(Plan, String)>> {
    let mut b = lock(budget);
    if let Some(left) = b.left()
        && let Some(why) = over(&plan.cost, &left)
    {
        return Err(Box::new((plan, why)));
    }
    b.reserved += plan.cost;
    let reserved = plan.cost;
    Ok(Passed {
        plan,
        trimmed,
        reserved,
    })
}

/// The `refused` answer of `plan`, over what the session may still spend (`why`), with the
/// session's spending and what is left of it.
fn over_cap<R>(b: &Budget, plan: &Plan, why: &str) -> Paid<R> {
    let mut answer = Paid::empty(
        Status::Refused,
        format!(
            "{}: over what this session may still spend (--max-credits): {why}; nothing was \
             sent",
            plan.action
        ),
        Some(plan),
    );
    answer.session_spent = b.spent.into();
    answer.session_left = b.left().map(Credits::from);
    answer
}

/// A `needs_confirmation` answer offering `plan` under `id` (`{id}` in `message` is replaced).
fn offer<R>(budget: &SharedBudget, plan: &Plan, id: String, message: String) -> Paid<R> {
    let mut b = lock(budget);
    b.offered.insert(id.clone(), plan.cost);
    let mut answer = Paid::empty(
        Status::NeedsConfirmation,
        message.replace("{id}", &id),
        Some(plan),
    );
    answer.plan_id = Some(id);
    answer.session_spent = b.spent.into();
    answer.session_left = b.left().map(Credits::from);
    answer
}

/// A plan over what the session may still spend (`why`): a search is offered (or, called with
/// its plan id, run) for its first results that fit; anything else is refused.
async fn over_session<R>(
    s: &Session,
    budget: &SharedBudget,
    action: &Action,
    plan: Plan,
    spend: &Spend,
    id: String,
    why: String,
) -> Result<Passed, Paid<R>> {
    let left = lock(budget).left().unwrap_or_default();
    let refused = |plan: &Plan| over_cap(&lock(budget), plan, &why);
    let Some(fitting) = fitting(action, left.standard) else {
        return Err(refused(&plan));
    };
    if take_offer(budget, spend, &id) {
        let credits = spend
            .max_credits
            .map_or(left.standard, |m| m.min(left.standard));
        let Some(trimmed) = engine::search_within(action, credits) else {
            return Err(refused(&plan));
        };
        let small = plan_of(s, &trimmed).await?;
        if !pools_above(&small.cost, credits).is_empty() {
            return Err(refused(&small));
        }
        return reserve_plan(budget, small, Some(trimmed)).map_err(|e| {
            let (small, why) = *e;
            over_cap(&lock(budget), &small, &why)
        });
    }
    Err(offer(
        budget,
        &plan,
        id,
        format!(
            "{}: estimated {}, over what this session may still spend (--max-credits): {why}; \
             nothing was sent. The first {} results fit: call again with the same arguments, \
             plan_id {{id}} and max_credits up to {} to buy those.",
            plan.action,
            describe_pools(&plan.cost),
            prospect_common::words::thousands(fitting),
            (left.standard * 100.0).floor() / 100.0,
        ),
    ))
}

/// How many of a search's results fit in `credits` (fewer than it asks, at least one); `None`
/// for anything else, or when not one fits.
fn fitting(action: &Action, credits: f64) -> Option<u64> {
    match engine::search_within(action, credits)? {
        Action::Search { limit, .. } => Some(limit),
        _ => None,
    }
}

/// How the person at the client answered.
enum Asked {
    /// Run it.
    Yes,
    /// Do not.
    No,
    /// The client does not ask (no form elicitation), or the question failed or was dismissed.
    Unanswered,
}

/// The person's answer to "run this plan?".
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Confirm {
    /// Run it and spend the credits.
    run: bool,
}
rmcp::elicit_safe!(Confirm);

/// Asks the person at the client, through MCP elicitation, whether to run `plan` (above
/// `limit`); waits up to 10 minutes, or until the call is cancelled.
async fn ask(peer: &Peer<RoleServer>, plan: &Plan, limit: f64, ct: &CancellationToken) -> Asked {
    let message = format!(
        "{}: estimated {} (above {limit} credits in a pool); {} owned at 0 credits, {} to buy \
         in {} requests. Run it?",
        plan.action,
        describe_pools(&plan.cost),
        plan.owned,
        plan.to_buy,
        plan.requests
    );
    let asked =
        peer.elicit_with_timeout::<Confirm>(message, Some(std::time::Duration::from_secs(600)));
    tokio::select! {
        answer = asked => match answer {
            Ok(Some(Confirm { run: true })) => Asked::Yes,
            Ok(Some(Confirm { run: false })) | Err(ElicitationError::UserDeclined) => Asked::No,
            _ => Asked::Unanswered,
        },
        _ = ct.cancelled() => Asked::Unanswered,
    }
}

/// Gives back what a run `reserved` and adds what it `charged` to the session's spending;
/// returns (spent now, left).
pub fn charge(budget: &SharedBudget, reserved: Cost, charged: Cost) -> (Credits, Option<Credits>) {
    let mut b = lock(budget);
    b.reserved = Cost {
        standard: (b.reserved.standard - reserved.standard).max(0.0),
        email: (b.reserved.email - reserved.email).max(0.0),
        phone: (b.reserved.phone - reserved.phone).max(0.0),
    };
    b.spent += charged;
    (b.spent.into(), b.left().map(Credits::from))
}

/// Reserves `cost` for a call that is not an engine action (an autocomplete) if it fits in
/// what the session may still spend; give it back with [`charge`]. Errors: over the cap, in
/// words.
pub fn reserve(budget: &SharedBudget, cost: &Cost) -> Result<(), String> {
    let mut b = lock(budget);
    match b.left().and_then(|left| over(cost, &left)) {
        Some(why) => Err(format!(
            "over what this session may still spend (--max-credits): {why}"
        )),
        None => {
            b.reserved += *cost;
            Ok(())
        }
    }
}
