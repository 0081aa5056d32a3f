//! Claims (issue 15, made compact by issue 39; schema version 11): so two processes on one
//! store never buy the same item at once, and a buyer that planned before another's purchase
//! reads that purchase instead of buying the item again.
//!
//! A claim is a set of keys taken at once (one lookup batch, one search page, one reveal
//! request), one row of `claim_sets` with its keys packed ([`pack_keys`]). A set is `claimed`
//! while its request is in flight, `sent` while a reveal's answer is awaited by webhook, and
//! `done` once its answer is kept: the done row is the fact "these keys were settled at `at` by
//! this purchase", found or not. Nothing is written per key: a 1,000-domain lookup batch writes
//! one row when it is claimed and changes it in place when it is kept, where a row per domain
//! made a 1,000,000-line lookup write a random-key b-tree of a million rows, twice.
//!
//! Claim keys are `kind:canonical key`: `company:acme.com` (a lookup or enrich of a domain),
//! `person:<id>` and `handle:<handle>` (a lookup or enrich of a person), `email:<person id>`,
//! `phone:<person id>` (a reveal), `page:<search>:<cursor in>:<size>` (a search page; `<search>`
//! is 16 hex digits of the SHA-256 of the endpoint, target and canonical body).

use std::collections::HashMap;

// Claim keys are hashed by the thousand at every claim and settle: foldhash, not SipHash.
use foldhash::{HashSet, HashSetExt};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::db::{Conn, OptionalExt, Row, params};
use super::{JobId, PurchaseId, Result, Store, to_millis};
use prospect_common::fsutil::pid_alive;

/// zstd level of a packed key set: the fastest; a batch of 1,000 domains packs to a few KB.
const KEYS_LEVEL: i32 = 1;

/// What [`Store::claim`] found for one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// Claimed by the caller now: buy it.
    Mine,
    /// Another live buyer holds it (claimed or sent, lease not expired): wait, then read it.
    Held,
    /// Bought and kept by another buyer at or after the caller's plan: read it from the store.
    Settled,
}

/// How long before a caller's look in the store a claim settled by another process still
/// counts as news to it, ms: the time of a settle is taken inside the transaction that keeps
/// the answer, and the commit that makes it visible comes after (a moment on SQLite; one round
/// trip, with the transaction's pipelined writes, on a team's PostgreSQL). Without it, a
/// caller that looked in between found nothing, then took the settled claim as old and bought
/// the item again (seen on PostgreSQL: eight processes enriching one company sent two). A
/// caller that refreshes (buys again whatever the store holds) takes no grace.
pub const SETTLE_GRACE_MS: i64 = 2_000;

/// The claim key of a company (a [`domain_key`](prospect_common::keys::domain_key)):
/// `company:acme.com`. A lookup and a batch enrichment of one domain hold the same claim, so
/// neither buys what the other is buying.
pub fn company_claim(domain: &str) -> String {
    format!("company:{domain}")
}

/// `true` unless `owner` (`pid-nonce@host`, see `core::engine::new_owner`) names a process of
/// this machine that is gone: a claim of a buyer that crashed or was killed is taken over at
/// once, not only when its lease ends. An owner of another machine (a team store, issue 17),
/// or of another form, is taken as alive: only its lease ends its claims.
fn owner_alive(owner: &str) -> bool {
    match local_pid(owner) {
        Some(pid) => pid_alive(pid),
        None => true,
    }
}

/// The process id of `owner` when it is a process of this machine (`pid-nonce@host` with this
/// host, or `pid-nonce` of a store older than hosts in owner names).
pub(super) fn local_pid(owner: &str) -> Option<i64> {
    let (who, host) = match owner.rsplit_once('@') {
        Some((who, host)) => (who, Some(host)),
        None => (owner, None),
    };
    if host.is_some_and(|h| h != this_host()) {
        return None;
    }
    who.split_once('-')
        .and_then(|(pid, _)| pid.parse::<i64>().ok())
}

/// This machine's host name (empty when the system does not tell).
pub fn this_host() -> &'static str {
    static HOST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        prospect_common::sanitize::sanitize(&whoami::hostname().unwrap_or_default())
    })
}

/// A key set as stored: the JSON array of its keys, zstd-compressed. JSON, so a key may hold any
/// character; compressed, since a batch's keys share most of their text.
///
/// # Errors
/// [`StoreError::Json`](super::StoreError::Json), [`StoreError::Output`](super::StoreError::Output)
/// (compression).
pub(super) fn pack_keys<S: AsRef<str> + serde::Serialize>(keys: &[S]) -> Result<Vec<u8>> {
    thread_local! {
        // One compression context per thread, made once: making one is a good part of the cost
        // of packing a batch's keys.
        static PACKER: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> =
            const { std::cell::RefCell::new(None) };
    }
    let json = serde_json::to_vec(keys)?;
    PACKER.with(|p| {
        let mut p = p.borrow_mut();
        let packer = match p.as_mut() {
            Some(c) => c,
            None => p.insert(zstd::bulk::Compressor::new(KEYS_LEVEL)?),
        };
        Ok(packer.compress(&json)?)
    })
}

/// The keys of a stored set ([`pack_keys`]); a set written by the step that made this table
/// (the JSON array as it is, not compressed) reads too.
///
/// # Errors
/// [`StoreError::Output`](super::StoreError::Output) (a frame that does not decompress),
/// [`StoreError::Json`](super::StoreError::Json).
pub(super) fn unpack_keys(stored: &[u8]) -> Result<Vec<String>> {
    const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];
    if stored.starts_with(&ZSTD_MAGIC) {
        let json = crate::frames::unpack_raw(stored)?;
        Ok(serde_json::from_slice(&json)?)
    } else {
        Ok(serde_json::from_slice(stored)?)
    }
}

/// One claim set in flight (`claimed` or `sent`), as read by [`in_flight`].
#[derive(Debug)]
struct InFlight {
    id: i64,
    state: String,
    owner: String,
    job: Option<i64>,
    purchase: Option<i64>,
    lease_until: i64,
    keys: Arc<Vec<String>>,
}

/// The keys of the sets in flight this handle has unpacked, by set id with the packed bytes
/// they came from: a set is read by each claim and settle while it is in flight, and unpacked
/// again only when its bytes changed (another process split it). Holds only sets in flight.
#[derive(Debug, Default)]
pub(super) struct Unpacked(HashMap<i64, (Vec<u8>, Arc<Vec<String>>)>);

impl Unpacked {
    /// The keys of set `id` packed as `packed`, unpacked once.
    fn keys(&mut self, id: i64, packed: Vec<u8>) -> Result<Arc<Vec<String>>> {
        if let Some((bytes, keys)) = self.0.get(&id)
            && *bytes == packed
        {
            return Ok(keys.clone());
        }
        let keys = Arc::new(unpack_keys(&packed)?);
        self.0.insert(id, (packed, keys.clone()));
        Ok(keys)
    }
}

impl InFlight {
    /// `true` while it holds its keys at `now`: its lease runs, and a `claimed` set's owner is
    /// alive (a `sent` one waits for its webhook whoever sent it).
    fn live(&self, now: i64) -> bool {
        self.lease_until > now && (self.state == "sent" || owner_alive(&self.owner))
    }
}

/// Every claim set in flight, oldest first, its keys unpacked through `unpacked` (which then
/// holds these sets only).
fn in_flight(c: &Conn, unpacked: &mut Unpacked) -> Result<Vec<InFlight>> {
    let rows = c
        .prepare_cached(
            "SELECT id, state, owner, job_id, purchase_id, lease_until, keys FROM claim_sets
             WHERE state <> 'done' ORDER BY id",
        )?
        .query_map(params![], in_flight_row)?;
    let sets = unpack_in_flight(rows, unpacked)?;
    unpacked.0.retain(|id, _| sets.iter().any(|s| s.id == *id));
    Ok(sets)
}

/// What a claim of `owner` at `now` must read, in one query (one round trip on PostgreSQL):
/// the sets in flight that may stand in its way, another owner's (they may hold its keys, or
/// be stale) and its own whose lease has run out (stale), returned; and the done sets of other
/// owners that `seen` has not read yet, whose keys go into `seen`. Its own sets under a lease
/// hold nothing against it and are not stale (its process is alive), so they are not read: a
/// buyer with many sets in flight (claimed and not yet kept) does not read them all again at
/// every claim, nor, on PostgreSQL, fetch them over the wire.
fn read_for_claim(
    c: &Conn,
    unpacked: &mut Unpacked,
    seen: &mut SettledSeen,
    owner: &str,
    planned: i64,
    now: i64,
) -> Result<Vec<InFlight>> {
    seen.look(owner, planned);
    let rows = c
        .prepare_cached(
            "SELECT id, state, owner, job_id, purchase_id, lease_until, keys FROM claim_sets
             WHERE state <> 'done' AND (owner <> ?1 OR lease_until <= ?2)
             UNION ALL
             SELECT id, state, owner, job_id, purchase_id, lease_until, keys FROM claim_sets
             WHERE state = 'done' AND at >= ?3 AND owner <> ?1
             ORDER BY id",
        )?
        .query_map(params![owner, now, seen.read_from], in_flight_row)?;
    let mut sets = Vec::new();
    for row in rows {
        let (mut set, packed) = row?;
        if set.state == "done" {
            seen.keys.extend(unpack_keys(&packed)?);
        } else {
            set.keys = unpacked.keys(set.id, packed)?;
            sets.push(set);
        }
    }
    seen.read_from = planned.max(now - SETTLE_GRACE_MS);
    Ok(sets)
}

/// A row of `claim_sets` as [`in_flight`] selects it: the set without its keys, and its
/// packed keys.
fn in_flight_row(r: &Row<'_>) -> Result<(InFlight, Vec<u8>)> {
    Ok((
        InFlight {
            id: r.get(0)?,
            state: r.get(1)?,
            owner: r.get(2)?,
            job: r.get(3)?,
            purchase: r.get(4)?,
            lease_until: r.get(5)?,
            keys: Arc::default(),
        },
        r.get::<_, Vec<u8>>(6)?,
    ))
}

/// The sets of `rows` with their keys unpacked through `unpacked`.
fn unpack_in_flight(
    rows: impl Iterator<Item = Result<(InFlight, Vec<u8>)>>,
    unpacked: &mut Unpacked,
) -> Result<Vec<InFlight>> {
    let mut sets = Vec::new();
    for row in rows {
        let (mut set, packed) = row?;
        set.keys = unpacked.keys(set.id, packed)?;
        sets.push(set);
    }
    Ok(sets)
}

/// The insert of one claim set: state, owner, job, purchase, lease (unix ms), time (unix ms),
/// packed keys.
const INSERT_SET: &str =
    "INSERT INTO claim_sets (state, owner, job_id, purchase_id, lease_until, at, keys)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

/// Inserts a claim set of `keys` (none: nothing written); its id and packed keys.
#[allow(clippy::too_many_arguments)]
fn insert_set(
    c: &Conn,
    state: &str,
    owner: &str,
    job: Option<i64>,
    purchase: Option<i64>,
    lease_until: i64,
    at: i64,
    keys: &[&str],
) -> Result<Option<(i64, Vec<u8>)>> {
    if keys.is_empty() {
        return Ok(None);
    }
    let packed = pack_keys(keys)?;
    let id = c.prepare_cached(INSERT_SET)?.insert(params![
        state,
        owner,
        job,
        purchase,
        lease_until,
        at,
        packed
    ])?;
    Ok(Some((id, packed)))
}

/// Leaves set `id` holding only `rest` of its keys (none left: the set goes).
fn keep_only(c: &Conn, id: i64, rest: &[&str]) -> Result<()> {
    if rest.is_empty() {
        c.prepare_cached("DELETE FROM claim_sets WHERE id = ?1")?
            .execute(params![id])?;
    } else {
        c.prepare_cached("UPDATE claim_sets SET keys = ?2 WHERE id = ?1")?
            .execute(params![id, pack_keys(rest)?])?;
    }
    Ok(())
}

/// Which sets in flight a settle ends ([`settle`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Settling {
    /// A kept answer ([`Store::keep`]): whatever holds its keys, and keys nothing holds
    /// (bought unclaimed: a store that could not write claims) get a done set of their own.
    Kept {
        purchase: PurchaseId,
        job: Option<JobId>,
    },
    /// A webhook delivery: only `sent` sets, each keeping its own purchase and job.
    Delivered,
}

/// Settles `keys` at `at` (unix ms), inside the caller's transaction: each set in flight that
/// holds some of them (of `how`) becomes `done` for those keys (in place when it holds only
/// them; else split, the rest left as they were). A kept answer's keys that no set held are
/// written as a done set of their own (owner `''`: news to every buyer).
///
/// # Errors
/// [`StoreError::Sqlite`](super::StoreError::Sqlite) /
/// [`StoreError::Postgres`](super::StoreError::Postgres), [`StoreError::Json`](super::StoreError::Json).
pub(super) fn settle<S: AsRef<str>>(
    c: &Conn,
    unpacked: &mut Unpacked,
    keys: &[S],
    how: Settling,
    at: i64,
) -> Result<()> {
    let mut left: HashSet<&str> = keys.iter().map(AsRef::as_ref).collect();
    if left.is_empty() {
        return Ok(());
    }
    let asked = left.clone();
    let (purchase, job) = match how {
        Settling::Kept { purchase, job } => (Some(purchase.0), job.map(|j| j.0)),
        Settling::Delivered => (None, None),
    };
    for set in in_flight(c, unpacked)? {
        if how == Settling::Delivered && set.state != "sent" {
            continue;
        }
        let (ours, rest): (Vec<&str>, Vec<&str>) = set
            .keys
            .iter()
            .map(String::as_str)
            .partition(|k| asked.contains(k));
        if ours.is_empty() {
            continue;
        }
        let (purchase, job) = (purchase.or(set.purchase), job.or(set.job));
        if rest.is_empty() {
            c.prepare_cached(
                "UPDATE claim_sets SET state = 'done', purchase_id = ?2, job_id = ?3,
                   lease_until = 0, at = ?4 WHERE id = ?1",
            )?
            .execute(params![set.id, purchase, job, at])?;
        } else {
            keep_only(c, set.id, &rest)?;
            insert_set(c, "done", &set.owner, job, purchase, 0, at, &ours)?;
        }
        for k in ours {
            left.remove(k);
        }
    }
    if matches!(how, Settling::Kept { .. }) {
        let mut rest: Vec<&str> = left.into_iter().collect();
        rest.sort_unstable();
        insert_set(c, "done", "", job, purchase, 0, at, &rest)?;
    }
    Ok(())
}

/// The keys settled by owners other than `owner` at or after `planned` (unix ms), read since
/// the last look of the same caller ([`Store::claim`]'s memory of them).
#[derive(Debug, Default)]
pub(super) struct SettledSeen {
    /// The plan they are news to.
    planned: i64,
    /// The caller they are news to.
    owner: String,
    /// Done sets at or after this time (unix ms) are read again at the next look: one that
    /// committed since may carry an earlier time ([`SETTLE_GRACE_MS`]).
    read_from: i64,
    /// The keys seen settled so far.
    keys: HashSet<String>,
}

impl SettledSeen {
    /// Starts a look of `owner` for its plan of `planned` (unix ms): the keys seen so far stay
    /// when the caller and plan are the same ones as at the last look (only the sets done since
    /// are read then); else it starts over from `planned`.
    fn look(&mut self, owner: &str, planned: i64) {
        if self.planned != planned || self.owner != owner {
            *self = SettledSeen {
                planned,
                owner: owner.to_string(),
                read_from: planned,
                keys: HashSet::new(),
            };
        }
    }
}

impl Store {
    /// Claims `keys` for `owner` in one transaction, until `lease_until`. For each key:
    /// [`Claim::Held`] when a set of another owner holds it under a live lease (`claimed` by a
    /// process that is alive, or `sent`); else [`Claim::Settled`] when another owner's answer
    /// settled it at or after `planned_at` (the caller's plan already knew the store then; a
    /// caller that reads the store passes its look's time less [`SETTLE_GRACE_MS`], see
    /// `core::engine::looked_at`); else [`Claim::Mine`]: free, released, settled before the
    /// plan, held by the caller itself, or held under a lease that expired or by a process of
    /// this machine that is gone (taken over). The keys that are the caller's are written as
    /// one set; sets that hold nothing any more (expired, their owner gone) are removed.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite) (nothing claimed).
    pub fn claim(
        &mut self,
        keys: &[String],
        owner: &str,
        job: Option<JobId>,
        lease_until: DateTime<Utc>,
        planned_at: DateTime<Utc>,
    ) -> Result<Vec<Claim>> {
        let now = to_millis(Utc::now());
        let planned = to_millis(planned_at);
        let asked: HashSet<&str> = keys.iter().map(String::as_str).collect();
        let tx = self.conn.begin()?;
        let mut held: HashSet<&str> = HashSet::new();
        let seen = self.settled_seen.get_or_insert_with(SettledSeen::default);
        let sets = read_for_claim(&tx, &mut self.unpacked, seen, owner, planned, now)?;
        for set in &sets {
            if !set.live(now) {
                tx.prepare_cached("DELETE FROM claim_sets WHERE id = ?1")?
                    .execute_deferred(params![set.id])?;
            } else if set.owner != owner {
                held.extend(
                    set.keys
                        .iter()
                        .map(String::as_str)
                        .filter(|k| asked.contains(k)),
                );
            }
        }
        let mut mine: Vec<&str> = Vec::new();
        let verdicts: Vec<Claim> = keys
            .iter()
            .map(|k| {
                if held.contains(k.as_str()) {
                    Claim::Held
                } else if seen.keys.contains(k) {
                    Claim::Settled
                } else {
                    mine.push(k);
                    Claim::Mine
                }
            })
            .collect();
        mine.sort_unstable();
        mine.dedup();
        if !mine.is_empty() {
            // Its id is not needed: on PostgreSQL the insert goes with the commit, in one
            // round trip.
            let lease = to_millis(lease_until);
            tx.prepare_cached(INSERT_SET)?.execute_deferred(params![
                "claimed",
                owner,
                job.map(|j| j.0),
                None::<i64>,
                lease,
                now,
                pack_keys(&mine)?
            ])?;
        }
        tx.commit()?;
        Ok(verdicts)
    }

    /// The purchase that settled `key` last and when, if a done set with a purchase holds it.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite), a set that does not unpack.
    pub fn claim_purchase(&self, key: &str) -> Result<Option<(PurchaseId, DateTime<Utc>)>> {
        let sets = self
            .conn
            .prepare_cached(
                "SELECT purchase_id, at, keys FROM claim_sets
                 WHERE state = 'done' AND purchase_id IS NOT NULL ORDER BY at DESC, id DESC",
            )?
            .query_map(params![], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, Vec<u8>>(2)?,
                ))
            })?;
        for set in sets {
            let (purchase, at, keys) = set?;
            if unpack_keys(&keys)?.iter().any(|k| k == key) {
                return Ok(
                    super::from_millis(at, "claim_sets", &key).map(|at| (PurchaseId(purchase), at))
                );
            }
        }
        Ok(None)
    }

    /// Releases the caller's claims on `keys` that are still `claimed` (nothing was charged for
    /// them: refused before sending, or a 4xx): another buyer may take them at once.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn release(&mut self, keys: &[String], owner: &str) -> Result<()> {
        let gone: HashSet<&str> = keys.iter().map(String::as_str).collect();
        let tx = self.conn.begin()?;
        for set in in_flight(&tx, &mut self.unpacked)? {
            if set.state != "claimed" || set.owner != owner {
                continue;
            }
            let rest: Vec<&str> = set
                .keys
                .iter()
                .map(String::as_str)
                .filter(|k| !gone.contains(k))
                .collect();
            if rest.len() < set.keys.len() {
                keep_only(&tx, set.id, &rest)?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Marks the caller's claims on `keys` `sent` until `lease_until`: a reveal the service
    /// accepted, whose results arrive by webhook. Nobody sends them again before the lease
    /// ends (a webhook that never comes).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn mark_sent(
        &mut self,
        keys: &[String],
        owner: &str,
        purchase: Option<PurchaseId>,
        lease_until: DateTime<Utc>,
    ) -> Result<()> {
        let now = to_millis(Utc::now());
        let lease = to_millis(lease_until);
        let purchase = purchase.map(|p| p.0);
        let sent: HashSet<&str> = keys.iter().map(String::as_str).collect();
        let tx = self.conn.begin()?;
        for set in in_flight(&tx, &mut self.unpacked)? {
            if set.owner != owner {
                continue;
            }
            let (ours, rest): (Vec<&str>, Vec<&str>) = set
                .keys
                .iter()
                .map(String::as_str)
                .partition(|k| sent.contains(k));
            if ours.is_empty() {
                continue;
            }
            if rest.is_empty() {
                tx.prepare_cached(
                    "UPDATE claim_sets SET state = 'sent', purchase_id = ?2, lease_until = ?3,
                       at = ?4 WHERE id = ?1",
                )?
                .execute(params![set.id, purchase, lease, now])?;
            } else {
                keep_only(&tx, set.id, &rest)?;
                insert_set(&tx, "sent", owner, set.job, purchase, lease, now, &ours)?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// The keys of `keys` that are `sent` (a reveal awaiting its webhook) under a live lease,
    /// in the order asked.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn pending(&self, keys: &[String]) -> Result<Vec<String>> {
        let now = to_millis(Utc::now());
        let mut sent: HashSet<String> = HashSet::new();
        for set in in_flight(&self.conn, &mut Unpacked::default())? {
            if set.state == "sent" && set.lease_until > now {
                sent.extend(set.keys.iter().cloned());
            }
        }
        Ok(keys.iter().filter(|k| sent.contains(*k)).cloned().collect())
    }

    /// Every claimed or sent key with its state, owner and lease (unix ms): what holds what,
    /// for tests and `doctor`-style reports.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn claims_in_flight(&self) -> Result<HashMap<String, (String, String, i64)>> {
        let mut out = HashMap::new();
        for set in in_flight(&self.conn, &mut Unpacked::default())? {
            for k in set.keys.iter().cloned() {
                out.insert(k, (set.state.clone(), set.owner.clone(), set.lease_until));
            }
        }
        Ok(out)
    }

    /// How many claim sets the store holds (in flight and done), for the benchmarks' and tests'
    /// account of what a run wrote.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn claim_set_count(&self) -> Result<i64> {
        self.conn
            .prepare_cached("SELECT count(*) FROM claim_sets")?
            .query_row(params![], |r| r.get(0))
            .optional()
            .map(Option::unwrap_or_default)
    }
}
