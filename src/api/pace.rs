//! Pacing (issue 15): every request of a client, free or paid, keeps inside the account's
//! per-minute allowance (NOTES.md "Rate limits": 60 a minute for a self-serve account), so the
//! service never has to answer 429.
//!
//! The service counts requests in a sliding one-minute window. The pacer keeps the instants of
//! its own last requests and lets a new one go only when fewer than `per_minute` went in the
//! last [`WINDOW`] (a minute plus a margin for the time a request takes to arrive). A 429's
//! `Retry-After` pauses every request of the client until it has passed ([`Pacer::pause`]).

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The window the pacer counts in: the service's minute plus 750 ms for a request's way there.
pub const WINDOW: Duration = Duration::from_millis(60_750);

#[derive(Debug, Default)]
struct State {
    /// Instants requests were let go, oldest first (at most `per_minute`).
    sent: VecDeque<Instant>,
    /// No request before this (a 429's `Retry-After`).
    paused_until: Option<Instant>,
}

/// A sliding-window pacer of `per_minute` requests (see the module docs). Shared by every
/// clone of a client.
#[derive(Debug)]
pub struct Pacer {
    per_minute: u32,
    state: Mutex<State>,
}

impl Pacer {
    /// A pacer letting at most `per_minute` requests go in any [`WINDOW`] (0 is read as 1).
    pub fn new(per_minute: u32) -> Pacer {
        Pacer {
            per_minute: per_minute.max(1),
            state: Mutex::new(State::default()),
        }
    }

    /// The allowance it paces to, requests per minute.
    pub fn per_minute(&self) -> u32 {
        self.per_minute
    }

    /// How long a request asked at `now` must wait; records it as sent when that is zero.
    fn try_admit(&self, now: Instant) -> Duration {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(until) = st.paused_until {
            if until > now {
                return until - now;
            }
            st.paused_until = None;
        }
        while st
            .sent
            .front()
            .is_some_and(|t| now.duration_since(*t) >= WINDOW)
        {
            st.sent.pop_front();
        }
        if st.sent.len() < self.per_minute as usize {
            st.sent.push_back(now);
            return Duration::ZERO;
        }
        let oldest = st.sent.front().copied().unwrap_or(now);
        (oldest + WINDOW).saturating_duration_since(now)
    }

    /// Waits until a request may go, and counts it.
    pub async fn admit(&self) {
        loop {
            let wait = self.try_admit(Instant::now());
            if wait.is_zero() {
                return;
            }
            tracing::debug!(
                wait_ms = wait.as_millis() as u64,
                "pacing: waiting for the window"
            );
            tokio::time::sleep(wait).await;
        }
    }

    /// Holds every request back for `d` (a 429's `Retry-After`).
    pub fn pause(&self, d: Duration) {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let until = Instant::now() + d;
        st.paused_until = Some(st.paused_until.map_or(until, |u| u.max(until)));
    }

    /// How long `requests` more requests take from now at this pace, the first ones going at
    /// once while the window has room (the plan's ETA, not counting the answers' own time).
    pub fn eta(&self, requests: u32) -> Duration {
        let now = Instant::now();
        let st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let paused = st
            .paused_until
            .map_or(Duration::ZERO, |u| u.saturating_duration_since(now));
        let recent = st
            .sent
            .iter()
            .filter(|t| now.duration_since(**t) < WINDOW)
            .count() as u32;
        eta_of(self.per_minute, recent, requests) + paused
    }
}

/// The time `requests` take at `per_minute` when `recent` went in the current window: the
/// windows they fill beyond the first, each a minute.
pub fn eta_of(per_minute: u32, recent: u32, requests: u32) -> Duration {
    if requests == 0 {
        return Duration::ZERO;
    }
    let per = per_minute.max(1);
    let room = per.saturating_sub(recent);
    if requests <= room {
        return Duration::ZERO;
    }
    let windows = (requests - room).div_ceil(per);
    WINDOW * windows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lets_per_minute_go_then_waits_for_the_oldest_to_leave_the_window() {
        let p = Pacer::new(3);
        let t0 = Instant::now();
        for _ in 0..3 {
            assert_eq!(p.try_admit(t0), Duration::ZERO);
        }
        let wait = p.try_admit(t0 + Duration::from_secs(10));
        assert_eq!(wait, WINDOW - Duration::from_secs(10));
        assert_eq!(p.try_admit(t0 + WINDOW), Duration::ZERO);
    }

    #[test]
    fn a_pause_holds_everything_back() {
        let p = Pacer::new(100);
        p.pause(Duration::from_secs(5));
        assert!(p.try_admit(Instant::now()) > Duration::from_secs(4));
    }

    #[test]
    fn eta_counts_whole_windows() {
        assert_eq!(eta_of(6, 0, 6), Duration::ZERO);
        assert_eq!(eta_of(6, 0, 10), WINDOW);
        assert_eq!(eta_of(6, 1, 10), WINDOW);
        assert_eq!(eta_of(60, 0, 9), Duration::ZERO);
        assert_eq!(eta_of(6, 0, 13), WINDOW * 2);
    }
}
