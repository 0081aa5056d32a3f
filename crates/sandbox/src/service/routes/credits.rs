//! GET /v2/credits/balance (SPEC.md §4.9, §2.9): free.

use super::call::{Answer, Call, St, ok_typed};
use crate::service::accounts::{Pool, PoolBalance};
use prospect_api::types::{CreditBalance, Credits};

fn credits(b: PoolBalance) -> Option<Credits> {
    Some(Credits {
        one_time: b.one_time,
        recurrent: b.recurrent,
    })
}

/// GET /v2/credits/balance: the three pools and the daily allowance left.
pub(crate) async fn credit_balance(_st: St, call: Call) -> Answer {
    let (left, reset) = {
        let acc = &call.account;
        acc.limits().daily_left(acc.daily_limit)
    };
    let answer = {
        let l = call.account.ledger();
        CreditBalance {
            credits: credits(l.balance(Pool::Standard)),
            email_credits: credits(l.balance(Pool::Email)),
            phone_credits: credits(l.balance(Pool::Phone)),
            preview_credits: None,
            daily_limit_rate_left: Some(i64::from(left)),
            daily_limit_rate_seconds_to_reset: Some(reset as i64),
        }
    };
    ok_typed(answer).await
}
