//! Accounts of the sandbox: plan, the three credit pools and the request limits of each token
//! (SPEC.md §1, §2.9, §5, §7; NOTES.md "Credit costs", "Rate limits").
//!
//! The ledger keeps every pool in thousandths of a credit (`i64`), so sums of fractional prices
//! (0.2, 0.1, 0.05) are exact and the balance reported as `f64` equals the sum of what was
//! charged. Every check-and-charge happens under the account's mutex, so concurrent requests
//! can never spend a credit twice nor push a pool below zero. Recurrent credits are spent before
//! one-time credits (recurrent ones expire with the billing period, one-time ones do not).
//!
//! Email and phone reveals are charged when the verification is done (webhook time). Until
//! then the request *reserves* at most one credit per requested id in the pool's `pending`
//! part; a new reveal is refused with the "verifications already in progress" 402 while the
//! pending reservations could use all of the pool's remaining credits (SPEC.md §7).

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use serde::{Deserialize, Serialize};

use super::error::{Failure, texts};
use super::limits::LimitState;

/// Thousandths of a credit: the ledger's unit.
pub type Milli = i64;

/// Converts credits (`f64`, e.g. `0.2`) to thousandths, rounded to the nearest.
pub fn to_milli(credits: f64) -> Milli {
    if credits.is_finite() {
        (credits * 1000.0).round() as Milli
    } else {
        0
    }
}

/// Converts thousandths back to credits.
pub fn from_milli(m: Milli) -> f64 {
    m as f64 / 1000.0
}

/// What an account may call.
///
/// - `legacy`: everything, including the v2 searches and the preview search (the default of
///   `--token` accounts, so every endpoint works in the sandbox);
/// - `enterprise`: everything except the v2 searches (400 "Plan version not supported for this
///   endpoint");
/// - `standard`: neither the v2 searches (400) nor the preview search (403 "You are not allowed
///   to access this feature").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Plan {
    /// Self-serve plan of the v3 API.
    Standard,
    /// v3 API plus the people preview search.
    Enterprise,
    /// Old plan: every endpoint, v2 searches included.
    #[default]
    Legacy,
}

impl Plan {
    /// May call `/v2/search/companies` and `/v2/search/people`.
    pub fn allows_v2_search(self) -> bool {
        matches!(self, Plan::Legacy)
    }
    /// May call `/v3/search/people/preview`.
    pub fn allows_preview(self) -> bool {
        matches!(self, Plan::Legacy | Plan::Enterprise)
    }
}

/// One of the three credit pools (SPEC.md §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pool {
    /// `credits`: searches, enrich, lookup, autocomplete.
    Standard,
    /// `emailCredits`: email reveals.
    Email,
    /// `phoneCredits`: phone reveals.
    Phone,
}

impl Pool {
    fn idx(self) -> usize {
        match self {
            Pool::Standard => 0,
            Pool::Email => 1,
            Pool::Phone => 2,
        }
    }
    /// The 402 text when the pool cannot pay (standard: "Insufficient credits").
    pub fn insufficient_text(self) -> &'static str {
        match self {
            Pool::Standard => texts::INSUFFICIENT_CREDITS,
            Pool::Email => texts::INSUFFICIENT_EMAIL_CREDITS,
            Pool::Phone => texts::INSUFFICIENT_PHONE_CREDITS,
        }
    }
    /// The 402 text when pending verifications could use the rest of the pool.
    pub fn in_progress_text(self) -> &'static str {
        match self {
            Pool::Email => texts::EMAIL_VERIFICATIONS_IN_PROGRESS,
            Pool::Phone => texts::PHONE_VERIFICATIONS_IN_PROGRESS,
            Pool::Standard => texts::INSUFFICIENT_CREDITS,
        }
    }
}

/// A pool's two parts in credits, as in the accounts file and the balance answer
/// (`{"oneTime": 100.0, "recurrent": 50.0}`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PoolSpec {
    /// Credits that never expire.
    #[serde(default)]
    pub one_time: f64,
    /// Credits of the billing period, spent first.
    #[serde(default)]
    pub recurrent: f64,
}

impl PoolSpec {
    /// `amount` one-time credits and no recurrent ones.
    pub fn one_time(amount: f64) -> PoolSpec {
        PoolSpec {
            one_time: amount,
            recurrent: 0.0,
        }
    }
}

/// Credits given to an account when nothing says otherwise ("ample"): one million per part.
pub const AMPLE: f64 = 1_000_000.0;

/// Everything that defines one account; one entry of the accounts file.
///
/// Accounts file (`prospect serve --accounts FILE`): a JSON array of these, or an object
/// `{"accounts": [...]}`, e.g.
/// `[{"token": "poor", "plan": "standard", "credits": {"oneTime": 1, "recurrent": 0},
///    "emailCredits": {"oneTime": 0}, "dailyLimit": 100, "ratePerMinute": 10}]`.
/// Missing pools get [`AMPLE`] one-time credits; missing limits get the server's defaults.
#[derive(Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccountSpec {
    /// The API token (never logged).
    pub token: String,
    /// The plan; default `legacy`.
    #[serde(default)]
    pub plan: Plan,
    /// Standard pool.
    #[serde(default)]
    pub credits: Option<PoolSpec>,
    /// Email pool.
    #[serde(default)]
    pub email_credits: Option<PoolSpec>,
    /// Phone pool.
    #[serde(default)]
    pub phone_credits: Option<PoolSpec>,
    /// Requests per UTC day; default: the server's `--daily-limit`.
    #[serde(default)]
    pub daily_limit: Option<u32>,
    /// Requests per minute; default: the server's `--rate-per-minute`.
    #[serde(default)]
    pub rate_per_minute: Option<u32>,
}

impl std::fmt::Debug for AccountSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AccountSpec")
            .field("token", &token_tag(&self.token))
            .field("plan", &self.plan)
            .field("credits", &self.credits)
            .field("email_credits", &self.email_credits)
            .field("phone_credits", &self.phone_credits)
            .field("daily_limit", &self.daily_limit)
            .field("rate_per_minute", &self.rate_per_minute)
            .finish()
    }
}

impl AccountSpec {
    /// An account with `token`, the legacy plan and ample credits in every pool.
    pub fn ample(token: impl Into<String>) -> AccountSpec {
        AccountSpec {
            token: token.into(),
            ..AccountSpec::default()
        }
    }
}

/// Reads an accounts file: a JSON array of [`AccountSpec`] or `{"accounts": [...]}`.
pub fn read_accounts_file(path: &Path) -> anyhow::Result<Vec<AccountSpec>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read accounts file {}: {e}", path.display()))?;
    let bad =
        |what: String| anyhow::anyhow!("accounts file {} is not valid: {what}", path.display());
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    // A list of accounts, or `{"accounts": [...]}`; each member's problem is named by its path
    // (`[1].credits.oneTime: invalid type: string "a", expected f64`).
    let (list, at) = match v {
        serde_json::Value::Array(_) => (v, ""),
        serde_json::Value::Object(mut m) if m.contains_key("accounts") => {
            (m.remove("accounts").unwrap_or_default(), "accounts")
        }
        _ => {
            return Err(bad(
                "expected a JSON array of accounts, or an object {\"accounts\": [...]}".into(),
            ));
        }
    };
    serde_path_to_error::deserialize::<_, Vec<AccountSpec>>(list).map_err(|e| {
        let path = e.path().to_string();
        let path = match (at, path.as_str()) {
            ("", p) => p.to_string(),
            (a, ".") => a.to_string(),
            (a, p) => format!("{a}{p}"),
        };
        bad(format!("{path}: {}", e.into_inner()))
    })
}

/// A short, non-reversible tag of a token for logs: `tok:` + 8 hex digits of a hash.
pub fn token_tag(token: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    token.hash(&mut h);
    format!("tok:{:08x}", h.finish() as u32)
}

#[derive(Debug, Clone, Copy, Default)]
struct PoolState {
    one_time: Milli,
    recurrent: Milli,
    /// Reserved by reveals whose verification is not done yet.
    pending: Milli,
}

impl PoolState {
    fn total(&self) -> Milli {
        self.one_time + self.recurrent
    }
    /// Spends `amount` (recurrent first). Caller checked `amount <= total()`.
    fn spend(&mut self, amount: Milli) {
        let from_recurrent = amount.min(self.recurrent);
        self.recurrent -= from_recurrent;
        self.one_time -= amount - from_recurrent;
        debug_assert!(self.one_time >= 0 && self.recurrent >= 0);
    }
}

/// The credit ledger of one account (three pools).
#[derive(Debug, Default)]
pub struct Ledger {
    pools: [PoolState; 3],
}

/// A pool's balance in credits, as `/v2/credits/balance` reports it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PoolBalance {
    /// One-time credits left.
    pub one_time: f64,
    /// Recurrent credits left.
    pub recurrent: f64,
}

impl PoolBalance {
    /// One-time plus recurrent.
    pub fn total(&self) -> f64 {
        self.one_time + self.recurrent
    }
}

impl Ledger {
    fn new(spec: &AccountSpec) -> Ledger {
        let mk = |p: Option<PoolSpec>| {
            let p = p.unwrap_or(PoolSpec::one_time(AMPLE));
            PoolState {
                one_time: to_milli(p.one_time).max(0),
                recurrent: to_milli(p.recurrent).max(0),
                pending: 0,
            }
        };
        Ledger {
            pools: [
                mk(spec.credits),
                mk(spec.email_credits),
                mk(spec.phone_credits),
            ],
        }
    }

    /// The balance of `pool`.
    pub fn balance(&self, pool: Pool) -> PoolBalance {
        let p = &self.pools[pool.idx()];
        PoolBalance {
            one_time: from_milli(p.one_time),
            recurrent: from_milli(p.recurrent),
        }
    }

    /// Thousandths left in `pool` (both parts).
    pub fn total(&self, pool: Pool) -> Milli {
        self.pools[pool.idx()].total()
    }

    /// Thousandths reserved by pending verifications in `pool`.
    pub fn pending(&self, pool: Pool) -> Milli {
        self.pools[pool.idx()].pending
    }

    /// Charges every `(pool, amount)` at once, or nothing: `Err(pool)` names the first pool
    /// that cannot pay (its free part, total minus pending, is smaller than the amount).
    pub fn charge_all(&mut self, charges: &[(Pool, Milli)]) -> Result<(), Pool> {
        let mut need = [0 as Milli; 3];
        for &(pool, amount) in charges {
            need[pool.idx()] += amount.max(0);
        }
        for pool in [Pool::Standard, Pool::Email, Pool::Phone] {
            let p = &self.pools[pool.idx()];
            if need[pool.idx()] > 0 && need[pool.idx()] > p.total() - p.pending {
                return Err(pool);
            }
        }
        for (i, n) in need.iter().enumerate() {
            if *n > 0 {
                self.pools[i].spend(*n);
            }
        }
        Ok(())
    }

    /// Reserves up to `units` whole credits of `pool` for a reveal whose verification runs in
    /// the background. Returns the thousandths reserved (at least one credit).
    ///
    /// Errors (the 402 texts): pending reservations exist and leave less than one credit free
    /// → "... verifications are already in progress ..."; no pending ones and less than one
    /// credit left → "Insufficient email/phone credits".
    pub fn reserve(&mut self, pool: Pool, units: usize) -> Result<Milli, &'static str> {
        let p = &mut self.pools[pool.idx()];
        let free = p.total() - p.pending;
        if free < 1000 {
            return Err(if p.pending > 0 {
                pool.in_progress_text()
            } else {
                pool.insufficient_text()
            });
        }
        let want = (units as Milli).saturating_mul(1000);
        let reserved = want.min(free / 1000 * 1000);
        p.pending += reserved;
        Ok(reserved)
    }

    /// Ends a reservation made by [`Ledger::reserve`]: releases `reserved` and charges
    /// `amount` (at most `reserved`, at most what is left). Returns what was charged.
    pub fn settle(&mut self, pool: Pool, reserved: Milli, amount: Milli) -> Milli {
        let p = &mut self.pools[pool.idx()];
        p.pending = (p.pending - reserved).max(0);
        let charged = amount.clamp(0, reserved).min(p.total());
        p.spend(charged);
        charged
    }
}

/// One account: its plan, its ledger and its request-limit state.
pub struct Account {
    /// Short tag of the token for logs (never the token).
    pub tag: String,
    /// The plan.
    pub plan: Plan,
    /// Requests per minute allowed.
    pub rate_per_minute: u32,
    /// Requests per UTC day allowed.
    pub daily_limit: u32,
    ledger: Mutex<Ledger>,
    limits: Mutex<LimitState>,
}

impl std::fmt::Debug for Account {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Account")
            .field("tag", &self.tag)
            .field("plan", &self.plan)
            .finish()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock leaves consistent data (every update is a few
    // arithmetic steps); keep serving.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Account {
    /// Builds an account from its spec; missing limits come from the defaults given.
    pub fn new(spec: &AccountSpec, default_rate: u32, default_daily: u32) -> Account {
        Account {
            tag: token_tag(&spec.token),
            plan: spec.plan,
            rate_per_minute: spec.rate_per_minute.unwrap_or(default_rate),
            daily_limit: spec.daily_limit.unwrap_or(default_daily),
            ledger: Mutex::new(Ledger::new(spec)),
            limits: Mutex::new(LimitState::default()),
        }
    }

    /// Locks the ledger (held only for a few arithmetic steps).
    pub fn ledger(&self) -> MutexGuard<'_, Ledger> {
        lock(&self.ledger)
    }

    /// Locks the limit state.
    pub fn limits(&self) -> MutexGuard<'_, LimitState> {
        lock(&self.limits)
    }

    /// Counts one request against the per-minute and daily limits; 429 when over.
    pub fn admit(&self) -> Result<(), Failure> {
        self.limits().admit(self.rate_per_minute, self.daily_limit)
    }

    /// Refuses up front (402 with `text`) when the standard pool has nothing free.
    pub fn require_standard(&self, text: &'static str) -> Result<(), Failure> {
        let l = self.ledger();
        if l.total(Pool::Standard) - l.pending(Pool::Standard) <= 0 {
            return Err(Failure::payment(text));
        }
        Ok(())
    }

    /// Charges `amount` thousandths of the standard pool plus the extra pools, all or nothing;
    /// a pool that cannot pay gives 402 (standard: `standard_text`; email/phone: their texts).
    pub fn charge(
        &self,
        standard_text: &'static str,
        charges: &[(Pool, Milli)],
    ) -> Result<(), Failure> {
        self.ledger().charge_all(charges).map_err(|pool| {
            Failure::payment(match pool {
                Pool::Standard => standard_text,
                other => other.insufficient_text(),
            })
        })
    }
}

/// Every account of the sandbox, by token (`Debug` shows the count, never the tokens).
#[derive(Default)]
pub struct Accounts {
    by_token: HashMap<String, Arc<Account>>,
}

impl std::fmt::Debug for Accounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Accounts")
            .field("len", &self.by_token.len())
            .finish()
    }
}

impl Accounts {
    /// Builds the accounts; a later spec of the same token replaces an earlier one.
    pub fn new(specs: &[AccountSpec], default_rate: u32, default_daily: u32) -> Accounts {
        let by_token = specs
            .iter()
            .map(|s| {
                (
                    s.token.clone(),
                    Arc::new(Account::new(s, default_rate, default_daily)),
                )
            })
            .collect();
        Accounts { by_token }
    }

    /// The account of `token`, if registered.
    pub fn get(&self, token: &str) -> Option<Arc<Account>> {
        self.by_token.get(token).cloned()
    }

    /// Number of accounts.
    pub fn len(&self) -> usize {
        self.by_token.len()
    }

    /// `true` when there is no account.
    pub fn is_empty(&self) -> bool {
        self.by_token.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poor(credits: f64, email: f64) -> Ledger {
        Ledger::new(&AccountSpec {
            token: "t".into(),
            credits: Some(PoolSpec {
                one_time: credits,
                recurrent: 1.0,
            }),
            email_credits: Some(PoolSpec::one_time(email)),
            ..AccountSpec::default()
        })
    }

    #[test]
    fn recurrent_is_spent_first_and_never_below_zero() {
        let mut l = poor(2.0, 0.0);
        l.charge_all(&[(Pool::Standard, 1500)]).unwrap();
        let b = l.balance(Pool::Standard);
        assert_eq!((b.recurrent, b.one_time), (0.0, 1.5));
        assert_eq!(l.charge_all(&[(Pool::Standard, 1600)]), Err(Pool::Standard));
        assert_eq!(l.balance(Pool::Standard).one_time, 1.5);
        // all or nothing across pools
        assert_eq!(
            l.charge_all(&[(Pool::Standard, 100), (Pool::Email, 1000)]),
            Err(Pool::Email)
        );
        assert_eq!(l.balance(Pool::Standard).one_time, 1.5);
    }

    #[test]
    fn reservations_give_in_progress_then_settle() {
        let mut l = poor(0.0, 3.0);
        assert_eq!(l.reserve(Pool::Email, 5), Ok(3000));
        assert_eq!(
            l.reserve(Pool::Email, 1),
            Err(texts::EMAIL_VERIFICATIONS_IN_PROGRESS)
        );
        assert_eq!(l.settle(Pool::Email, 3000, 2000), 2000);
        assert_eq!(l.reserve(Pool::Email, 4), Ok(1000));
        assert_eq!(l.settle(Pool::Email, 1000, 1000), 1000);
        assert_eq!(
            l.reserve(Pool::Email, 1),
            Err(texts::INSUFFICIENT_EMAIL_CREDITS)
        );
        assert_eq!(l.reserve(Pool::Phone, 1), Ok(1000));
    }

    #[test]
    fn accounts_file_both_forms() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.json");
        std::fs::write(
            &p,
            r#"[{"token": "poor", "plan": "standard", "credits": {"oneTime": 1, "recurrent": 2},
                "emailCredits": {"oneTime": 0}, "dailyLimit": 100, "ratePerMinute": 10}]"#,
        )
        .unwrap();
        let a = read_accounts_file(&p).unwrap();
        assert_eq!(a[0].plan, Plan::Standard);
        assert_eq!(
            a[0].credits,
            Some(PoolSpec {
                one_time: 1.0,
                recurrent: 2.0
            })
        );
        assert_eq!(
            (a[0].daily_limit, a[0].rate_per_minute),
            (Some(100), Some(10))
        );
        assert!(!format!("{:?}", a[0]).contains("poor"), "no token in Debug");
        std::fs::write(&p, r#"{"accounts": [{"token": "x"}]}"#).unwrap();
        let a = read_accounts_file(&p).unwrap();
        assert_eq!((a[0].plan, a[0].credits), (Plan::Legacy, None));
        std::fs::write(&p, r#"[{"token": "x", "colour": 1}]"#).unwrap();
        assert!(read_accounts_file(&p).is_err());
        // A wrongly typed member is named by its path, not by serde's untagged-enum words.
        std::fs::write(&p, r#"[{"token": "t", "credits": {"oneTime": "lots"}}]"#).unwrap();
        let e = read_accounts_file(&p).unwrap_err().to_string();
        assert!(
            e.contains("[0].credits.oneTime: invalid type: string \"lots\""),
            "{e}"
        );
        std::fs::write(&p, r#"{"accounts": [{"token": 5}]}"#).unwrap();
        let e = read_accounts_file(&p).unwrap_err().to_string();
        assert!(
            e.contains("accounts[0].token: invalid type: integer `5`"),
            "{e}"
        );
    }

    #[test]
    fn milli_roundtrip_is_exact_for_prices() {
        assert_eq!(to_milli(0.2) * 5, 1000);
        assert_eq!(to_milli(0.05) * 20, 1000);
        assert_eq!(from_milli(to_milli(0.1)), 0.1);
    }
}
