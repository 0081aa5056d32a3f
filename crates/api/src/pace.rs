//! Pacing (issue 15): every request of a client, free or paid, keeps inside the account's
//! per-minute allowance (NOTES.md "Rate limits": 60 a minute for a self-serve account), so the
//! service never has to answer 429.
//!
//! The service counts requests in a sliding one-minute window, from when it admits each one —
//! somewhere between when the client sent it and when its answer came back (a service may hold
//! a request before it counts it). So the pacer counts each of its requests from the later of
//! the two: a request in flight counts as "now", a finished one from when its answer arrived
//! ([`Pacer::finish`]). A new request goes only when fewer than `per_minute` counted in the last
//! [`WINDOW`] (a minute plus a margin). A 429's `Retry-After` pauses every request of the client
//! until it has passed ([`Pacer::pause`]), never longer than the window it waits for; and the
//! pacer learns the allowance from it for a while ([`Pacer::learn`], [`LEARNED_FOR`]), so an
//! account allowed fewer requests than prospect was told is paced to what it has.
//!
//! A 429 whose `Retry-After` is longer than a minute is the daily allowance (issue 34): waiting
//! is useless, so [`Pacer::block`] makes every later [`Pacer::admit`] fail at once with the time
//! left until the reset, instead of sleeping through it.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The window the pacer counts in: the service's minute plus 750 ms for a request's way there.
pub const WINDOW: Duration = Duration::from_millis(60_750);

#[derive(Debug, Default)]
struct State {
    /// The requests of the window, in the order they were let go: (ticket, when the answer
    /// came back; `None` while in flight).
    sent: VecDeque<(u64, Option<Instant>)>,
    /// The next ticket.
    next: u64,
    /// No request before this (a 429's `Retry-After`).
    paused_until: Option<Instant>,
    /// The daily allowance is used up until then: requests fail at once.
    blocked_until: Option<Instant>,
    /// The allowance learned from a 429, when lower than the one configured, and when.
    learned: Option<(u32, Instant)>,
}

/// A request let go by [`Pacer::admit`]; give it back to [`Pacer::finish`] when its answer (or
/// its failure) came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ticket(u64);

/// How often a request waiting behind requests still in flight looks again.
const IN_FLIGHT_POLL: Duration = Duration::from_millis(100);

/// How long an allowance learned from a 429 holds ([`Pacer::learn`]): the 429 may have come
/// from requests of other processes on the same account, so the configured pace comes back
/// after it (and a new 429 teaches it again).
pub const LEARNED_FOR: Duration = Duration::from_secs(5 * 60);

/// The longest `Retry-After` that is the per-minute limit; a longer one can only be the daily
/// allowance's reset (the window never asks more than a minute, NOTES.md "Rate limits").
pub const PER_MINUTE_RETRY_MAX: Duration = Duration::from_secs(61);

/// Why a request may not go: the daily allowance is used up for this long (see
/// [`Pacer::block`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyAllowanceUsed {
    /// Time left until the allowance resets.
    pub resets_in: Duration,
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

    /// The allowance it paces to, requests per minute: the configured one, or the lower one
    /// learned from a 429 ([`Pacer::learn`]).
    pub fn per_minute(&self) -> u32 {
        let st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        self.pace_at(&st, Instant::now())
    }

    /// The allowance in force at `now`: a learned one while it holds ([`LEARNED_FOR`]), else
    /// the configured one.
    fn pace_at(&self, st: &State, now: Instant) -> u32 {
        match st.learned {
            Some((n, at)) if now.saturating_duration_since(at) < LEARNED_FOR => {
                n.min(self.per_minute)
            }
            _ => self.per_minute,
        }
    }

    /// How long a request asked at `now` must wait (`Err`), or its ticket when it may go.
    fn try_admit(&self, now: Instant) -> Result<Ticket, Duration> {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let per_minute = self.pace_at(&st, now);
        if let Some(until) = st.paused_until {
            if until > now {
                return Err(until - now);
            }
            st.paused_until = None;
        }
        st.sent
            .retain(|(_, done)| done.is_none_or(|d| now.duration_since(d) < WINDOW));
        if st.sent.len() < per_minute as usize {
            let t = st.next;
            st.next += 1;
            st.sent.push_back((t, None));
            return Ok(Ticket(t));
        }
        // The window is full: wait for its oldest finished request to leave it, or look again
        // soon when they are all still in flight.
        let oldest = st.sent.iter().filter_map(|(_, d)| *d).min();
        Err(match oldest {
            Some(o) => (o + WINDOW)
                .saturating_duration_since(now)
                .max(Duration::from_millis(1)),
            None => IN_FLIGHT_POLL,
        })
    }

    /// The daily allowance's block at `now`, when one is in force.
    fn blocked_at(&self, now: Instant) -> Option<DailyAllowanceUsed> {
        let st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        st.blocked_until
            .filter(|u| *u > now)
            .map(|u| DailyAllowanceUsed { resets_in: u - now })
    }

    /// Waits until a request may go, and counts it; give the ticket to [`Pacer::finish`]. No
    /// wait is longer than the window (or a 429's pause, itself at most
    /// [`PER_MINUTE_RETRY_MAX`]).
    ///
    /// Errors: [`DailyAllowanceUsed`] at once while the daily allowance is used up
    /// ([`Pacer::block`]): nothing is counted and nothing should be sent.
    pub async fn admit(&self) -> Result<Ticket, DailyAllowanceUsed> {
        loop {
            let now = Instant::now();
            if let Some(b) = self.blocked_at(now) {
                if b.resets_in > PER_MINUTE_RETRY_MAX {
                    return Err(b);
                }
                // The reset is close: as short a wait as a per-minute one.
                tokio::time::sleep(b.resets_in).await;
                continue;
            }
            match self.try_admit(now) {
                Ok(t) => return Ok(t),
                Err(wait) => {
                    tracing::debug!(
                        wait_ms = wait.as_millis() as u64,
                        "pacing: waiting for the window"
                    );
                    tokio::time::sleep(wait).await;
                }
            }
        }
    }

    /// The answer of `ticket`'s request came back (or it failed): it counts from now on.
    pub fn finish(&self, ticket: Ticket) {
        self.finish_at(ticket, Instant::now());
    }

    fn finish_at(&self, ticket: Ticket, at: Instant) {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(e) = st.sent.iter_mut().find(|(t, _)| *t == ticket.0) {
            e.1 = Some(at);
        }
    }

    /// Holds every request back for `d` (a per-minute 429's `Retry-After`), at most
    /// [`PER_MINUTE_RETRY_MAX`]: a pause never outlives the window it waits for.
    pub fn pause(&self, d: Duration) {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let until = Instant::now() + d.min(PER_MINUTE_RETRY_MAX);
        st.paused_until = Some(st.paused_until.map_or(until, |u| u.max(until)));
    }

    /// How long requests are still held back by a 429's pause (for a front end's countdown);
    /// `None` when they are not.
    pub fn paused_for(&self) -> Option<Duration> {
        let st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        st.paused_until
            .filter(|u| *u > now)
            .map(|u| u.saturating_duration_since(now))
    }

    /// The daily allowance is used up for `resets_in` (a 429 with a `Retry-After` over
    /// [`PER_MINUTE_RETRY_MAX`], or a balance saying 0 left): every [`Pacer::admit`] until then
    /// fails at once.
    pub fn block(&self, resets_in: Duration) {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let until = Instant::now() + resets_in;
        st.blocked_until = Some(st.blocked_until.map_or(until, |u| u.max(until)));
    }

    /// The daily allowance's block in force now, if any ([`Pacer::block`]).
    pub fn blocked(&self) -> Option<DailyAllowanceUsed> {
        self.blocked_at(Instant::now())
    }

    /// A per-minute 429 answered the request of `ticket`: the account allows fewer requests
    /// than this pacer let go, so for [`LEARNED_FOR`] it paces to those counted in the window
    /// before it (at least 1).
    pub fn learn(&self, ticket: Ticket) {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        let counted = st
            .sent
            .iter()
            .filter(|(t, done)| {
                *t != ticket.0 && done.is_none_or(|d| now.duration_since(d) < WINDOW)
            })
            .count() as u32;
        let learned = counted.max(1).min(self.per_minute);
        let pace = self.pace_at(&st, now);
        if learned < pace {
            tracing::info!(
                per_minute = learned,
                "pacing: the account allows fewer requests a minute; paced to it for 5 min"
            );
        }
        if learned <= pace {
            st.learned = Some((learned, now));
        }
        // The refused request did not count with the service.
        st.sent.retain(|(t, _)| *t != ticket.0);
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
            .filter(|(_, d)| d.is_none_or(|d| now.duration_since(d) < WINDOW))
            .count() as u32;
        let per_minute = self.pace_at(&st, now);
        eta_of(per_minute, recent, requests) + paused
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
    fn lets_per_minute_go_then_waits_for_the_oldest_answer_to_leave_the_window() {
        let p = Pacer::new(3);
        let t0 = Instant::now();
        let tickets: Vec<Ticket> = (0..3).map(|_| p.try_admit(t0).unwrap()).collect();
        // All three in flight: look again soon.
        assert_eq!(p.try_admit(t0).unwrap_err(), IN_FLIGHT_POLL);
        // Answers came back at +1 s, +2 s, +3 s: the window counts from them.
        for (i, t) in tickets.iter().enumerate() {
            p.finish_at(*t, t0 + Duration::from_secs(1 + i as u64));
        }
        let wait = p.try_admit(t0 + Duration::from_secs(10)).unwrap_err();
        assert_eq!(wait, WINDOW - Duration::from_secs(9));
        assert!(p.try_admit(t0 + Duration::from_secs(1) + WINDOW).is_ok());
    }

    #[test]
    fn a_pause_holds_everything_back() {
        let p = Pacer::new(100);
        p.pause(Duration::from_secs(5));
        assert!(p.try_admit(Instant::now()).unwrap_err() > Duration::from_secs(4));
    }

    #[test]
    fn a_pause_never_outlives_the_minute_and_a_daily_block_fails_at_once() {
        let p = Pacer::new(100);
        p.pause(Duration::from_secs(5 * 3600));
        assert!(p.paused_for().unwrap() <= PER_MINUTE_RETRY_MAX);
        let p = Pacer::new(100);
        p.block(Duration::from_secs(3600));
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let got = rt.block_on(p.admit()).unwrap_err();
        assert!(got.resets_in > Duration::from_secs(3500));
    }

    #[test]
    fn a_429_teaches_the_allowance() {
        let p = Pacer::new(60);
        let t0 = Instant::now();
        let tickets: Vec<Ticket> = (0..7).map(|_| p.try_admit(t0).unwrap()).collect();
        p.learn(tickets[6]);
        assert_eq!(p.per_minute(), 6);
        assert!(p.try_admit(t0).is_err(), "the window is full at 6");
        // Learned from one 429, not for ever: other processes may have used that window.
        let st = p.state.lock().unwrap();
        assert_eq!(p.pace_at(&st, Instant::now() + LEARNED_FOR), 60);
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
