//! The credit gauge's bookkeeping, for any front end: the last `/v2/credits/balance` answer
//! (SPEC.md §2.9, §4.9) minus what was charged since, and when to ask the service again.
//!
//! The service allows 60 requests a minute and 1,000 a day (NOTES.md "Rate limits"), and a
//! balance call counts against both. So the balance is fetched at start, when the user asks,
//! after a 402, and otherwise at most once a minute ([`BALANCE_MIN_INTERVAL`]); in between the
//! gauge is kept current locally from each answer's charge ([`Gauge::on_charge`]).

use std::time::{Duration, Instant};

use prospect_api::cost::{Cost, CreditPool};
use prospect_api::types::CreditBalance;

/// The shortest time between two balance calls that nobody asked for.
pub const BALANCE_MIN_INTERVAL: Duration = Duration::from_secs(60);

/// Why a front end considers refreshing the balance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refresh {
    /// The front end just started.
    Start,
    /// The user asked (the explorer's `c`).
    User,
    /// A call was refused with 402: the pools are not what the gauge thinks.
    InsufficientCredits,
    /// A paid call finished; refresh only when the last balance is older than a minute.
    AfterCall,
}

/// The gauge's state: the last balance, the charges since, and the requests made since.
#[derive(Debug, Clone, Default)]
pub struct Gauge {
    balance: Option<CreditBalance>,
    fetched_at: Option<Instant>,
    spent: Cost,
    requests: i64,
    in_flight: bool,
    /// The service said the daily allowance is used up (a 429 with hours to wait): when, and
    /// the seconds to its reset it gave. Cleared by the next balance answer.
    used_up: Option<(Instant, i64)>,
}

impl Gauge {
    /// A gauge that knows nothing yet (every pool "unknown").
    pub fn new() -> Gauge {
        Gauge::default()
    }

    /// Takes a fresh balance answer received at `now`; local charges and request counts since
    /// the previous answer are dropped (the service's numbers include them).
    pub fn on_balance(&mut self, balance: CreditBalance, now: Instant) {
        self.balance = Some(balance);
        self.fetched_at = Some(now);
        self.spent = Cost::ZERO;
        self.requests = 0;
        self.in_flight = false;
        self.used_up = None;
    }

    /// The service refused a call because the daily allowance is used up (issue 38, item 11:
    /// the gauge said "daily 1 left" meanwhile): the gauge says 0 left, resetting in
    /// `resets_in` from `now`, until the next balance answer.
    pub fn on_daily_used_up(&mut self, resets_in: Duration, now: Instant) {
        self.used_up = Some((now, resets_in.as_secs() as i64));
    }

    /// A balance call failed: another may be tried.
    pub fn on_balance_failed(&mut self) {
        self.in_flight = false;
    }

    /// An answer charged `cost`: the gauge falls by it at once.
    pub fn on_charge(&mut self, cost: Cost) {
        self.spent += cost;
    }

    /// One request reached the service (it counts against the daily allowance).
    pub fn on_request(&mut self) {
        self.requests += 1;
    }

    /// `true` when a balance call should be sent now for `why`; the caller then sends it and
    /// the gauge counts it as in flight until [`Gauge::on_balance`] or
    /// [`Gauge::on_balance_failed`].
    pub fn should_refresh(&mut self, why: Refresh, now: Instant) -> bool {
        if self.in_flight {
            return false;
        }
        let due = match why {
            Refresh::Start | Refresh::User | Refresh::InsufficientCredits => true,
            Refresh::AfterCall => self
                .fetched_at
                .is_none_or(|t| now.duration_since(t) >= BALANCE_MIN_INTERVAL),
        };
        if due {
            self.in_flight = true;
        }
        due
    }

    /// The last balance answer, if any.
    pub fn balance(&self) -> Option<&CreditBalance> {
        self.balance.as_ref()
    }

    /// Credits left in `pool` (one-time + recurrent, less local charges since the last
    /// answer); `None` ("unknown") before any answer or when the answer lacked the pool.
    pub fn left(&self, pool: CreditPool) -> Option<f64> {
        let b = self.balance.as_ref()?;
        let p = match pool {
            CreditPool::Standard => b.credits.as_ref(),
            CreditPool::Email => b.email_credits.as_ref(),
            CreditPool::Phone => b.phone_credits.as_ref(),
        }?;
        Some(((p.one_time + p.recurrent - self.spent.get(pool)) * 1000.0).round() / 1000.0)
    }

    /// Requests left today (the answer's `dailyLimitRateLeft` less the requests since);
    /// `None` when unknown.
    pub fn daily_left(&self) -> Option<i64> {
        if self.used_up.is_some() {
            return Some(0);
        }
        let left = self.balance.as_ref()?.daily_limit_rate_left?;
        Some((left - self.requests).max(0))
    }

    /// Seconds until the daily allowance resets, as of `now`; `None` when unknown.
    pub fn seconds_to_reset(&self, now: Instant) -> Option<i64> {
        if let Some((at, secs)) = self.used_up {
            return Some((secs - now.duration_since(at).as_secs() as i64).max(0));
        }
        let secs = self.balance.as_ref()?.daily_limit_rate_seconds_to_reset?;
        let since = self
            .fetched_at
            .map_or(0, |t| now.duration_since(t).as_secs() as i64);
        Some((secs - since).max(0))
    }

    /// The seconds to the daily reset the service gave when it said the allowance is used up
    /// ([`Gauge::on_daily_used_up`]); `None` otherwise.
    pub fn used_up_reset(&self) -> Option<i64> {
        self.used_up.map(|(_, secs)| secs)
    }

    /// Charges applied locally since the last balance answer.
    pub fn spent_since_refresh(&self) -> Cost {
        self.spent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prospect_api::types::Credits;

    fn balance() -> CreditBalance {
        CreditBalance {
            credits: Some(Credits {
                one_time: 100.0,
                recurrent: 50.0,
            }),
            email_credits: Some(Credits {
                one_time: 10.0,
                recurrent: 0.0,
            }),
            phone_credits: None,
            daily_limit_rate_left: Some(1000),
            daily_limit_rate_seconds_to_reset: Some(3600),
            ..CreditBalance::default()
        }
    }

    #[test]
    fn falls_locally_and_missing_pools_are_unknown() {
        let t0 = Instant::now();
        let mut g = Gauge::new();
        assert_eq!(g.left(CreditPool::Standard), None);
        g.on_balance(balance(), t0);
        assert_eq!(g.left(CreditPool::Standard), Some(150.0));
        assert_eq!(
            g.left(CreditPool::Phone),
            None,
            "absent pool is unknown, not 0"
        );
        g.on_charge(Cost {
            standard: 5.2,
            email: 2.0,
            phone: 0.0,
        });
        g.on_request();
        assert_eq!(g.left(CreditPool::Standard), Some(144.8));
        assert_eq!(g.left(CreditPool::Email), Some(8.0));
        assert_eq!(g.daily_left(), Some(999));
        assert_eq!(
            g.seconds_to_reset(t0 + Duration::from_secs(600)),
            Some(3000)
        );
        // A fresh answer replaces the local bookkeeping.
        g.on_balance(balance(), t0);
        assert_eq!(g.left(CreditPool::Standard), Some(150.0));
    }

    #[test]
    fn refreshes_at_most_once_a_minute_unless_asked() {
        let t0 = Instant::now();
        let mut g = Gauge::new();
        assert!(g.should_refresh(Refresh::Start, t0));
        assert!(
            !g.should_refresh(Refresh::User, t0),
            "one in flight at a time"
        );
        g.on_balance(balance(), t0);
        assert!(!g.should_refresh(Refresh::AfterCall, t0 + Duration::from_secs(30)));
        assert!(g.should_refresh(Refresh::AfterCall, t0 + Duration::from_secs(61)));
        g.on_balance_failed();
        assert!(g.should_refresh(Refresh::User, t0 + Duration::from_secs(62)));
        g.on_balance(balance(), t0 + Duration::from_secs(62));
        assert!(g.should_refresh(Refresh::InsufficientCredits, t0 + Duration::from_secs(63)));
    }
}
