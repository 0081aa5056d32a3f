//! The agent's spend gate (issue 36): every paid tool plans first through the engine, and a
//! plan runs only within what the session may still spend (`--max-credits`, per pool, for the
//! whole session) and within the call's `max_credits` (else the server's `confirm_above`); a
//! plan above that is answered with a plan id, and runs when the agent calls again with it.
//! The daily budgets, the team's budget, suppression and claims bind as in every front end:
//! they are the engine's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

use crate::shapes::{Credits, Paid, Spend, Status};
use prospect_api::cost::Cost;
use prospect_core::engine::{self, Action, Plan};
use prospect_core::session::{Freshness, Session};
use prospect_core::spend::pools_above;

/// What the session has spent and may spend, and the plans offered for confirmation.
#[derive(Debug, Default)]
pub struct Budget {
    /// `--max-credits`: most the whole session may spend in each pool.
    pub cap: Option<f64>,
    /// Spent so far, per pool.
    pub spent: Cost,
    /// Plan ids offered (`needs_confirmation`), each with the cost it was offered at.
    pub offered: HashMap<String, Cost>,
}

impl Budget {
    /// What is left of the cap, per pool; `None` without a cap.
    pub fn left(&self) -> Option<Cost> {
        self.cap.map(|c| Cost {
            standard: (c - self.spent.standard).max(0.0),
            email: (c - self.spent.email).max(0.0),
            phone: (c - self.spent.phone).max(0.0),
        })
    }
}

/// The session's budget, shared by every tool call.
pub type SharedBudget = Arc<Mutex<Budget>>;

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

/// Plans `action` and decides whether it may run now: `Ok(plan)` to run it; `Err(answer)`
/// (`refused` or `needs_confirmation`, nothing spent) otherwise.
pub async fn gate<R>(
    s: &Session,
    budget: &SharedBudget,
    confirm_above: f64,
    action: &Action,
    spend: &Spend,
) -> Result<Plan, Paid<R>> {
    let plan = match engine::plan(s, action, Freshness::Stored).await {
        Ok(p) => p,
        Err(e) => return Err(Paid::empty(Status::Refused, e.to_string(), None)),
    };
    if let Some(why) = &plan.refusal {
        return Err(Paid::empty(
            Status::Refused,
            format!("{}: {why}", plan.action),
            Some(&plan),
        ));
    }
    let mut b = budget.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(left) = b.left()
        && let Some(why) = over(&plan.cost, &left)
    {
        let mut answer = Paid::empty(
            Status::Refused,
            format!(
                "{}: over what this session may still spend (--max-credits): {why}; nothing \
                 was sent",
                plan.action
            ),
            Some(&plan),
        );
        answer.session_spent = b.spent.into();
        answer.session_left = Some(left.into());
        return Err(answer);
    }
    let limit = spend.max_credits.unwrap_or(confirm_above);
    if pools_above(&plan.cost, limit).is_empty() {
        return Ok(plan);
    }
    let id = plan_id(action, &plan.cost);
    if spend.plan_id.as_deref() == Some(id.as_str()) && b.offered.contains_key(&id) {
        b.offered.remove(&id);
        return Ok(plan);
    }
    b.offered.insert(id.clone(), plan.cost);
    let mut answer = Paid::empty(
        Status::NeedsConfirmation,
        format!(
            "{}: estimated {} is above {limit} credits in a pool; nothing was sent. Call again \
             with the same arguments and plan_id {id} to run it.",
            plan.action,
            prospect_core::spend::describe_pools(&plan.cost)
        ),
        Some(&plan),
    );
    answer.plan_id = Some(id);
    answer.session_spent = b.spent.into();
    answer.session_left = b.left().map(Credits::from);
    Err(answer)
}

/// Adds what a run `charged` to the session's spending; returns (spent now, left).
pub fn charge(budget: &SharedBudget, charged: Cost) -> (Credits, Option<Credits>) {
    let mut b = budget.lock().unwrap_or_else(|e| e.into_inner());
    b.spent += charged;
    (b.spent.into(), b.left().map(Credits::from))
}

/// Whether `cost` fits in what the session may still spend (a call that is not an engine
/// action: an autocomplete). Errors: over the cap, in words.
pub fn fits(budget: &SharedBudget, cost: &Cost) -> Result<(), String> {
    let b = budget.lock().unwrap_or_else(|e| e.into_inner());
    match b.left().and_then(|left| over(cost, &left)) {
        Some(why) => Err(format!(
            "over what this session may still spend (--max-credits): {why}"
        )),
        None => Ok(()),
    }
}
