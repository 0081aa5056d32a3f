//! Request limits per account (NOTES.md "Rate limits"): a sliding one-minute window and a daily
//! allowance that resets at midnight UTC. Past either, the service answers 429 with
//! `Retry-After` (seconds); `/v2/credits/balance` reports the daily remainder as
//! `dailyLimitRateLeft` / `dailyLimitRateSecondsToReset` (SPEC.md §2.9).
//!
//! Every authenticated request counts, whatever its outcome; a request refused with 429 does
//! not count.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use chrono::{DateTime, NaiveTime, Utc};

use super::error::{Failure, texts};

const MINUTE: Duration = Duration::from_secs(60);

/// The limit state of one account.
#[derive(Debug, Default)]
pub struct LimitState {
    /// Instants of the requests of the last minute, oldest first.
    minute: VecDeque<Instant>,
    /// The UTC day the daily count belongs to.
    day: Option<chrono::NaiveDate>,
    /// Requests counted on `day`.
    day_count: u32,
}

/// Seconds from `now` to the next midnight UTC (at least 1).
pub fn seconds_to_midnight(now: DateTime<Utc>) -> u64 {
    let next = (now.date_naive() + chrono::Days::new(1))
        .and_time(NaiveTime::MIN)
        .and_utc();
    (next - now).num_seconds().max(1) as u64
}

impl LimitState {
    fn roll(&mut self, now: Instant, today: chrono::NaiveDate) {
        while self
            .minute
            .front()
            .is_some_and(|t| now.duration_since(*t) >= MINUTE)
        {
            self.minute.pop_front();
        }
        if self.day != Some(today) {
            self.day = Some(today);
            self.day_count = 0;
        }
    }

    /// Counts a request now, or refuses it with 429 (`Retry-After` = seconds until the oldest
    /// request of the minute leaves the window, or until midnight UTC for the daily limit).
    pub fn admit(&mut self, per_minute: u32, daily: u32) -> Result<(), Failure> {
        self.admit_at(Instant::now(), Utc::now(), per_minute, daily)
    }

    /// [`LimitState::admit`] at given clocks (for tests).
    pub fn admit_at(
        &mut self,
        now: Instant,
        wall: DateTime<Utc>,
        per_minute: u32,
        daily: u32,
    ) -> Result<(), Failure> {
        self.roll(now, wall.date_naive());
        if self.day_count >= daily {
            return Err(Failure::RateLimited {
                retry_after: seconds_to_midnight(wall),
                detail: texts::DAILY_LIMITED,
            });
        }
        if self.minute.len() >= per_minute as usize {
            let oldest = self.minute.front().copied().unwrap_or(now);
            let wait = MINUTE.saturating_sub(now.duration_since(oldest));
            return Err(Failure::RateLimited {
                retry_after: wait.as_secs_f64().ceil().max(1.0) as u64,
                detail: texts::RATE_LIMITED,
            });
        }
        self.minute.push_back(now);
        self.day_count += 1;
        Ok(())
    }

    /// `(dailyLimitRateLeft, dailyLimitRateSecondsToReset)` now.
    pub fn daily_left(&mut self, daily: u32) -> (u32, u64) {
        let wall = Utc::now();
        self.roll(Instant::now(), wall.date_naive());
        (
            daily.saturating_sub(self.day_count),
            seconds_to_midnight(wall),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minute_window_and_daily_allowance() {
        let mut s = LimitState::default();
        let t0 = Instant::now();
        let wall = Utc::now();
        assert!(s.admit_at(t0, wall, 2, 10).is_ok());
        assert!(
            s.admit_at(t0 + Duration::from_secs(10), wall, 2, 10)
                .is_ok()
        );
        match s.admit_at(t0 + Duration::from_secs(20), wall, 2, 10) {
            Err(Failure::RateLimited { retry_after, .. }) => assert_eq!(retry_after, 40),
            other => panic!("{other:?}"),
        }
        assert!(
            s.admit_at(t0 + Duration::from_secs(61), wall, 2, 10)
                .is_ok()
        );
        assert!(
            s.admit_at(t0 + Duration::from_secs(200), wall, 100, 3)
                .is_err()
        );
        assert_eq!(s.daily_left(3).0, 0);
    }

    #[test]
    fn midnight() {
        let t = DateTime::parse_from_rfc3339("2026-01-01T23:59:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(seconds_to_midnight(t), 60);
    }
}
