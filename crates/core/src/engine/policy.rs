//! How the spend engine spends: the policy from the config, the time a caller looks in the
//! store, its owner name, and the leases of its claims.

use std::time::Duration;

use chrono::Utc;

use crate::config::Budget;

/// How the engine spends, from the config: how long a bought search is answered from the
/// store, and the daily budget per pool.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpendPolicy {
    /// A search bought within this long is answered from the store at 0 credits.
    pub search_fresh_for: Duration,
    /// Credits per pool per UTC day, for every process on the store.
    pub budget: Budget,
}

impl Default for SpendPolicy {
    fn default() -> Self {
        SpendPolicy {
            search_fresh_for: crate::config::DEFAULT_SEARCH_FRESH_FOR,
            budget: Budget::default(),
        }
    }
}

/// The time a caller looks in the store, as its claims' `planned_at` ([`Store::claim`]): now
/// when it refreshes (whatever was settled before is bought again); else now less
/// [`prospect_store::SETTLE_GRACE_MS`], so that an item another process was settling while the
/// caller looked (timed before its commit was seen) is read from the store, not bought again.
///
/// [`Store::claim`]: prospect_store::Store::claim
pub fn looked_at(refresh: bool) -> chrono::DateTime<Utc> {
    let now = Utc::now();
    if refresh {
        now
    } else {
        now - chrono::Duration::milliseconds(prospect_store::SETTLE_GRACE_MS)
    }
}

/// A new owner name for this process's claims and jobs: `pid-nonce@host` (the host tells a
/// team store's processes of this machine, whose liveness can be checked, from others').
pub fn new_owner() -> String {
    use rand::Rng;
    format!(
        "{}-{:08x}@{}",
        std::process::id(),
        rand::rng().random::<u32>(),
        prospect_store::this_host()
    )
}

/// Records per search page the engine asks for (fewer requests against the allowance).
pub const SEARCH_PAGE: u64 = 500;

/// How long a claim holds an item while its call is under way: the client's whole-request
/// timeout with room to spare. A buyer that died is taken over after it.
pub const CLAIM_LEASE: Duration = Duration::from_secs(120);

/// How long a reveal's ids stay `sent` (not sent again) while their webhook is awaited.
pub const REVEAL_LEASE: Duration = Duration::from_secs(30 * 60);
