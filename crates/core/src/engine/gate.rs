//! What refuses a plan before anything is sent (issue 20, issue 34): the pacer's block on a
//! used-up daily allowance, the known balance, and the config's and the team's daily budgets
//! per pool.

use chrono::Utc;

use super::*;
use crate::config::Budget;
use crate::session::{Session, with_store};
use crate::spend::POOLS;
use prospect_api::cost::{Cost, CreditPool};
use prospect_api::error::ApiError;
use prospect_api::types::CreditBalance;

/// A plan's refusal when the session refuses paid calls (`why`, see `Session::paid_refusal`).
pub(super) fn refused_words(why: &str) -> String {
    format!("{why}: paid calls are refused; nothing was sent")
}

/// The pace a plan's requests keep and their ETA.
pub(super) fn pace_plan(s: &Session, p: &mut Plan) {
    if let Some(pacer) = s.client().pacer() {
        p.rate_per_minute = Some(pacer.per_minute());
        p.eta_seconds = pacer.eta(p.requests).as_secs();
    }
}

/// Pace, ETA, the daily allowance and the budget of a plan whose items are counted.
pub(super) async fn finish_plan(s: &Session, p: &mut Plan) {
    pace_plan(s, p);
    if p.requests == 0 {
        return;
    }
    if let Some(why) = s.paid_refusal() {
        p.refusal = Some(refused_words(why));
        return;
    }
    match s.balance().await {
        Ok(b) => {
            p.daily_left = b.daily_limit_rate_left;
            if let Some((cause, words)) = daily_refusal(
                p.requests,
                b.daily_limit_rate_left,
                b.daily_limit_rate_seconds_to_reset,
            ) {
                p.refuse_for(cause, words);
                return;
            }
            if let Some(r) = balance_refusal(p, &b) {
                p.refuse_for(RefusalCause::Credits, r);
                return;
            }
        }
        // The balance call itself refused for the day: so would every paid call.
        Err(e) if e.is_daily_limit() => {
            let reset = match e {
                ApiError::RateLimited {
                    retry_after: Some(d),
                } => d.as_secs() as i64,
                _ => 0,
            };
            p.refuse_for(
                RefusalCause::DailyAllowance,
                format!(
                    "the daily request allowance is used up{}; nothing was sent",
                    resets_at(reset)
                ),
            );
            return;
        }
        Err(_) => {}
    }
    if let Some(r) = budget_refusal(s, &p.cost).await {
        p.refusal = Some(r);
    }
}

/// Whether `requests` fit the daily allowance a balance gives (`left` requests, resetting in
/// `reset` seconds): `None` when they do or it is not known, else why not. An allowance that
/// resets in 0 s is whole again (the vendor's own balance example says 0 left, 0 s to reset);
/// one used up is [`RefusalCause::DailyAllowance`], one too small for the plan
/// [`RefusalCause::Spend`].
pub(super) fn daily_refusal(
    requests: u32,
    left: Option<i64>,
    reset: Option<i64>,
) -> Option<(RefusalCause, String)> {
    let (left, reset) = (left?, reset?);
    if i64::from(requests) <= left || reset <= 0 {
        return None;
    }
    Some(if left <= 0 {
        (
            RefusalCause::DailyAllowance,
            format!(
                "the daily request allowance is used up{}; nothing was sent",
                resets_at(reset)
            ),
        )
    } else {
        (
            RefusalCause::Spend,
            format!(
                "it needs {requests} requests and the account has {left} left today (the \
                 allowance resets in {}); nothing was sent",
                describe_eta(reset as u64)
            ),
        )
    })
}

/// ` (it resets in 3 h 5 min, at 00:00 UTC)` for a reset `secs` from now.
pub(super) fn resets_at(secs: i64) -> String {
    let at = Utc::now() + chrono::Duration::seconds(secs.max(0));
    format!(
        " (it resets in {}, at {} UTC)",
        describe_eta(secs.max(0) as u64),
        at.format("%H:%M")
    )
}

/// Words for a plan that may cost more than balance `b` has in a pool (issue 34: a 402 is
/// foreseen, not provoked): the credits left and how many of the items fit; `None` when every
/// pool has enough, or the balance does not say.
pub(super) fn balance_refusal(p: &Plan, b: &CreditBalance) -> Option<String> {
    POOLS.into_iter().find_map(|pool| {
        let need = p.cost.get(pool);
        let left = match pool {
            CreditPool::Standard => b.credits.as_ref(),
            CreditPool::Email => b.email_credits.as_ref(),
            CreditPool::Phone => b.phone_credits.as_ref(),
        }?
        .total();
        if need <= left + 1e-9 {
            return None;
        }
        let unit = if p.to_buy > 0 {
            need / p.to_buy as f64
        } else {
            need
        };
        let fit = if unit > 0.0 {
            (left / unit + 1e-9).floor().max(0.0) as u64
        } else {
            0
        };
        let what = if p.kind == "search" { "rows" } else { "items" };
        Some(format!(
            "{} {pool} credits left: {fit} of {} {what} fit (this may cost up to {}); nothing \
             was sent",
            round2(left),
            p.to_buy,
            round2(need)
        ))
    })
}

/// The budgets a plan costing `cost` would pass, per pool, from the store's ledger of today
/// (UTC): this member's `[budget]` and the team's, kept in the store (issue 17); `Some(words)`
/// naming the budget and the amount over when one would be.
pub(super) async fn budget_refusal(s: &Session, cost: &Cost) -> Option<String> {
    let mine = s.policy().budget;
    let midnight = Utc::now()
        .date_naive()
        .and_hms_opt(0, 0, 0)
        .map(|t| t.and_utc())
        .unwrap_or_else(Utc::now);
    // One read: the team's budget (not set on most stores) and what was spent today.
    let (team, spent) = with_store(s.store(), move |st| {
        let team = st.team_budget()?;
        if mine.is_unlimited() && team.is_unlimited() {
            return Ok((team, Cost::default()));
        }
        Ok((team, st.spent_since(midnight)?))
    })
    .await
    .unwrap_or_default();
    [(mine, false), (team, true)]
        .into_iter()
        .find_map(|(b, teams)| over_budget(&b, teams, &spent, cost))
}

/// Words for the first pool where `spent` plus `cost` is over budget `b` (`teams`: the team's
/// budget kept in the store, else this member's `[budget]`), `None` when every pool passes.
pub(super) fn over_budget(b: &Budget, teams: bool, spent: &Cost, cost: &Cost) -> Option<String> {
    let (whose, how) = if teams {
        ("the team's", " (`prospect store budget`)")
    } else {
        ("the", "")
    };
    POOLS.into_iter().find_map(|pool| {
        let limit = match pool {
            CreditPool::Standard => b.standard_per_day,
            CreditPool::Email => b.email_per_day,
            CreditPool::Phone => b.phone_per_day,
        }?;
        let after = spent.get(pool) + cost.get(pool);
        (after > limit + 1e-9).then(|| {
            format!(
                "over {whose} {pool} budget of {limit} credits a day{how}: {} spent today, this \
                 needs up to {}, {} over; nothing was sent",
                round2(spent.get(pool)),
                round2(cost.get(pool)),
                round2(after - limit)
            )
        })
    })
}

pub(super) fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The normalized key of a person's service id to look up: `None` when blank.
pub(super) fn id_key(k: &str) -> Option<String> {
    Some(k.trim().to_string()).filter(|k| !k.is_empty())
}
