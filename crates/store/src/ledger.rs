//! The spend engine's ledger (issue 15; schema version 3): purchases kept as the raw answer
//! (zstd) beside the entities decoded from it, in one transaction; claims on the items being
//! bought, so two processes on one store never buy the same item at once; jobs, so an
//! interrupted action is listed and resumed; and the credits spent since a time, for budgets.
//!
//! Claim keys are `kind:canonical key`: `company:acme.com` (a lookup or enrich of a domain),
//! `person:<id>` and `handle:<handle>` (a lookup or enrich of a person), `email:<person id>`,
//! `phone:<person id>` (a reveal), `page:<search>:<cursor in>:<size>` (a search page; `<search>`
//! is 16 hex digits of the SHA-256 of the endpoint, target and canonical body).

use super::db::{Keys, OptionalExt, params};
use prospect_common::fsutil::pid_alive;
use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::entities::Rows;
use super::history::{PageFacts, write_page};
use super::{Entities, PurchaseId, Result, SearchId, Store, clean_json, clean_key, to_millis};
use prospect_api::client::Endpoint;
use prospect_api::cost::Cost;

/// zstd level of kept answers: the fastest (about 500 MB/s) and still about 6–8× smaller on
/// JSON.
const RAW_LEVEL: i32 = 1;

/// Bytes written by one kept answer from which the connection's page cache is handed back
/// after the commit (`PRAGMA shrink_memory`).
const SHRINK_AFTER_BYTES: usize = 1 << 20;

/// The row id of a job (one planned paid action).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct JobId(pub i64);

impl std::fmt::Display for JobId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The page of a search a purchase bought, recorded with it (see [`Store::keep`]).
#[derive(Debug, Clone)]
pub struct PageOf<'a> {
    /// The search endpoint.
    pub endpoint: Endpoint,
    /// The request body without paging members (the search's identity).
    pub identity: &'a Value,
    /// 0-based position of the page in its chain.
    pub page: u32,
    /// Its paging facts (next cursor, records, total).
    pub facts: PageFacts,
}

/// A charged answer to keep with [`Store::keep`]: the raw bytes as received, the entities
/// that decoded from them, the claims it settles.
#[derive(Debug)]
pub struct Kept<'a> {
    /// The endpoint called.
    pub endpoint: Endpoint,
    /// The request body sent.
    pub request: &'a Value,
    /// The answer's bytes exactly as received.
    pub raw: &'a [u8],
    /// Credits charged, per pool.
    pub charged: Cost,
    /// `"sandbox"` or the base URL, never a token.
    pub target: &'a str,
    /// When it was answered.
    pub at: DateTime<Utc>,
    /// The records that decoded from it (all of them, or those that did when the answer did
    /// not decode whole).
    pub entities: &'a Entities,
    /// The job that bought it.
    pub job: Option<JobId>,
    /// Claim keys the answer settles (marked `done` with this purchase).
    pub settles: &'a [String],
    /// The search page it is, when it is one.
    pub page: Option<PageOf<'a>>,
    /// `true` when `entities` are the whole answer, decoded with nothing left out: then a
    /// record whose text as received needs no sanitizing is stored as that text, instead of
    /// being serialized again. `false` always takes the typed records.
    pub whole: bool,
}

/// A [`Kept`] answer serialized, sanitized and compressed, ready for [`Store::keep_packed`].
#[derive(Debug, Clone)]
pub struct Packed {
    request: String,
    raw: Vec<u8>,
    rows: Rows,
}

impl Kept<'_> {
    /// [`pack_answer`] of this answer: the CPU part of [`Store::keep`], which needs no store.
    ///
    /// # Errors
    /// As [`pack_answer`].
    pub fn pack(&self) -> Result<Packed> {
        pack_answer(
            self.endpoint,
            self.request,
            self.raw,
            self.at,
            &self.entities.refs(),
            self.whole,
        )
    }
}

/// Packs a charged answer of `endpoint` for [`Store::keep_packed`]: sanitizes the request,
/// compresses the raw bytes (zstd) and packs every entity as a stored record, fetched `at`.
/// `whole` as in [`Kept::whole`]. The entities are borrowed from the typed answer, so it is
/// packed without a copy of its records.
///
/// When the answer's company records are stored as received, the raw answer is kept as their
/// frames and the stretches between them ([`raw_frames`](super::entities::raw_frames)): each
/// record is compressed once.
///
/// # Errors
/// [`StoreError::Json`](super::StoreError::Json), [`StoreError::Output`](super::StoreError::Output)
/// (compression).
pub fn pack_answer(
    endpoint: Endpoint,
    request: &Value,
    raw: &[u8],
    at: DateTime<Utc>,
    entities: &super::EntityRefs<'_>,
    whole: bool,
) -> Result<Packed> {
    let texts = whole
        .then(|| super::entities::company_texts(endpoint, raw))
        .flatten();
    let (rows, as_received) = Rows::of_answer(entities, at, texts.as_deref())?;
    let framed = match &texts {
        Some(t) if !t.is_empty() && as_received.iter().any(Option::is_some) => {
            super::entities::raw_frames(raw, t, &as_received, &rows)?
        }
        _ => None,
    };
    let raw = match framed {
        Some(f) => f,
        None => zstd::bulk::compress(raw, RAW_LEVEL)?,
    };
    Ok(Packed {
        request: clean_json(request)?,
        raw,
        rows,
    })
}

/// What [`Store::claim`] found for one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// Claimed by the caller now: buy it.
    Mine,
    /// Another live buyer holds it (claimed or sent, lease not expired): wait, then read it.
    Held,
    /// Bought and kept by someone at or after the caller's plan: read it from the store.
    Settled,
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

/// How long before a caller's look in the store a claim settled by another process still
/// counts as news to it, ms: the time of a settle is taken inside the transaction that keeps
/// the answer, and the commit that makes it visible comes after (a moment on SQLite; one round
/// trip, with the transaction's pipelined writes, on a team's PostgreSQL). Without it, a
/// caller that looked in between found nothing, then took the settled claim as old and bought
/// the item again (seen on PostgreSQL: eight processes enriching one company sent two). A
/// caller that refreshes (buys again whatever the store holds) takes no grace.
pub const SETTLE_GRACE_MS: i64 = 2_000;

impl Store {
    /// Keeps a charged answer, in one transaction: the purchase row with the raw bytes
    /// (zstd-compressed; `response` left empty, since every record is kept once as an entity
    /// pointing back at the purchase), the entities upserted, the search page recorded when it
    /// is one, the settled claims marked `done`, and the job's count of items kept.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite) (nothing written: busy past the
    /// timeout, disk full, read-only, schema missing), [`StoreError::Json`](super::StoreError::Json).
    pub fn keep(&mut self, k: &Kept<'_>) -> Result<PurchaseId> {
        let packed = k.pack()?;
        self.keep_packed(k, packed)
    }

    /// [`Store::keep`] of an answer already packed ([`Kept::pack`], done without the store so
    /// that compressing one answer does not hold the store from another).
    ///
    /// # Errors
    /// As [`Store::keep`].
    pub fn keep_packed(&mut self, k: &Kept<'_>, packed: Packed) -> Result<PurchaseId> {
        let Packed { request, raw, rows } = packed;
        let target = clean_key(k.target);
        let at = to_millis(k.at);
        let tx = self.conn.begin()?;
        let id = tx
            .prepare_cached(
                "INSERT INTO purchases (endpoint, request, response, credits_standard,
                   credits_email, credits_phone, target, at, raw, job_id, buyer)
                 VALUES (?1, ?2, '', ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?
            .insert(params![
                k.endpoint.path(),
                request,
                k.charged.standard,
                k.charged.email,
                k.charged.phone,
                target,
                at,
                raw,
                k.job.map(|j| j.0),
                self.buyer,
            ])?;
        let id = PurchaseId(id);
        rows.write(&tx, at, Some(id))?;
        if let Some(page) = &k.page {
            let search = tx
                .prepare_cached(
                    "INSERT INTO searches (endpoint, body, target, first_run_at, last_run_at)
                     VALUES (?1, ?2, ?3, ?4, ?4)
                     ON CONFLICT (endpoint, body, target)
                     DO UPDATE SET last_run_at = CASE WHEN excluded.last_run_at > searches.last_run_at
                       THEN excluded.last_run_at ELSE searches.last_run_at END
                     RETURNING id",
                )?
                .query_row(
                    params![
                        page.endpoint.path(),
                        super::history::canonical_search_body(page.identity),
                        target,
                        at
                    ],
                    |r| r.get::<_, i64>(0),
                )?;
            write_page(
                &tx,
                SearchId(search),
                page.page,
                k.request,
                &Value::Null,
                &page.facts,
                Some(id),
                k.at,
            )?;
        }
        if !k.settles.is_empty() {
            // Settled as of now, inside the write: a buyer that looked in the store before this
            // commit and found nothing sees the claim settled after it looked (and reads the
            // answer), whatever time the answer came back.
            let settled_at = to_millis(Utc::now()).max(at);
            let mut st = tx.prepare_cached(
                "INSERT INTO claims (key, state, owner, job_id, purchase_id, lease_until, at)
                 VALUES (?1, 'done', '', ?2, ?3, 0, ?4)
                 ON CONFLICT (key) DO UPDATE SET state = 'done', job_id = excluded.job_id,
                   purchase_id = excluded.purchase_id, lease_until = 0, at = excluded.at",
            )?;
            for key in k.settles {
                st.execute_deferred(params![key, k.job.map(|j| j.0), id.0, settled_at])?;
            }
        }
        if let Some(job) = k.job {
            tx.prepare_cached(
                "UPDATE jobs SET bought = bought + ?2, updated_at = ?3 WHERE id = ?1",
            )?
            .execute(params![job.0, k.settles.len().max(1) as i64, at])?;
        }
        tx.commit()?;
        let wrote = raw.len() + rows.bytes();
        if let Some(c) = &mut self.checkpointer {
            c.wrote(wrote);
        }
        if wrote >= SHRINK_AFTER_BYTES {
            // The pages a big answer wrote are in the log and rarely read again: the cache
            // they filled is handed back rather than kept (a 10,000-company export otherwise
            // holds the whole 32 MiB cache of them).
            let _ = self.conn.lite_batch("PRAGMA shrink_memory");
        }
        Ok(id)
    }

    /// The answer of purchase `id` as JSON (sanitized), from its raw bytes or stored JSON;
    /// `None` when there is no such purchase or it does not read.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn purchase_answer(&self, id: PurchaseId) -> Result<Option<Value>> {
        let row = self
            .conn
            .prepare_cached("SELECT response, raw FROM purchases WHERE id = ?1")?
            .query_row(params![id.0], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, Option<Vec<u8>>>(1)?))
            })
            .optional()?;
        Ok(row.and_then(|(text, raw)| super::history::answer_of(&text, raw.as_deref(), &id)))
    }

    /// The raw bytes of purchase `id` as received (decompressed); `None` when it has none
    /// (stored before schema 3) or does not exist.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite), [`StoreError::Output`](super::StoreError::Output)
    /// when the kept bytes do not decompress.
    pub fn purchase_raw(&self, id: PurchaseId) -> Result<Option<Vec<u8>>> {
        let raw = self
            .conn
            .prepare_cached("SELECT raw FROM purchases WHERE id = ?1")?
            .query_row(params![id.0], |r| r.get::<_, Option<Vec<u8>>>(0))
            .optional()?
            .flatten();
        Ok(match raw {
            Some(z) => Some(zstd::decode_all(&z[..])?),
            None => None,
        })
    }

    /// Claims `keys` for `owner` in one transaction, until `lease_until`. For each key:
    /// [`Claim::Mine`] when it was free, released, settled before `planned_at` (the caller's
    /// plan already knew the store then; a caller that reads the store passes its look's time
    /// less [`SETTLE_GRACE_MS`], see `core::engine::looked_at`), or held under a lease that
    /// expired or by a process of this machine that is gone (taken over);
    /// [`Claim::Held`] when another owner holds it under a live lease; [`Claim::Settled`] when
    /// it was kept at or after `planned_at` (read it from the store).
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
        let lease = to_millis(lease_until);
        let tx = self.conn.begin()?;
        let mut out = Vec::with_capacity(keys.len());
        {
            // Every key's row in one statement (one round trip to a team store).
            let mut rows: HashMap<String, (String, String, i64, i64)> = tx
                .prepare_cached(
                    "SELECT key, state, owner, lease_until, at FROM rarray(?1) AS k
                     JOIN claims ON claims.key = k.value",
                )?
                .query_map(params![Keys::new(keys.iter().cloned())], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?),
                    ))
                })?
                .collect::<Result<_>>()?;
            let mut put = tx.prepare_cached(
                "INSERT INTO claims (key, state, owner, job_id, purchase_id, lease_until, at)
                 VALUES (?1, 'claimed', ?2, ?3, NULL, ?4, ?5)
                 ON CONFLICT (key) DO UPDATE SET state = 'claimed', owner = excluded.owner,
                   job_id = excluded.job_id, purchase_id = NULL,
                   lease_until = excluded.lease_until, at = excluded.at",
            )?;
            for key in keys {
                let found = rows.get(key).cloned();
                let verdict = match found {
                    Some((state, _, _, at)) if state == "done" && at >= planned => Claim::Settled,
                    Some((state, who, until, _))
                        if state != "done"
                            && who != owner
                            && until > now
                            && (state == "sent" || owner_alive(&who)) =>
                    {
                        Claim::Held
                    }
                    _ => Claim::Mine,
                };
                if verdict == Claim::Mine {
                    put.execute_deferred(params![key, owner, job.map(|j| j.0), lease, now])?;
                    // A key asked twice is this owner's the second time.
                    rows.insert(
                        key.clone(),
                        ("claimed".into(), owner.to_string(), lease, now),
                    );
                }
                out.push(verdict);
            }
        }
        tx.commit()?;
        Ok(out)
    }

    /// The purchase that settled claim `key` and when, if it is `done` with one.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn claim_purchase(&self, key: &str) -> Result<Option<(PurchaseId, DateTime<Utc>)>> {
        let row: Option<(Option<i64>, i64)> = self
            .conn
            .prepare_cached("SELECT purchase_id, at FROM claims WHERE key = ?1 AND state = 'done'")?
            .query_row(params![key], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        Ok(row.and_then(|(p, at)| Some((PurchaseId(p?), super::from_millis(at, "claims", &key)?))))
    }

    /// Releases the caller's claims on `keys` that are still `claimed` (nothing was charged for
    /// them: refused before sending, or a 4xx): another buyer may take them at once.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn release(&mut self, keys: &[String], owner: &str) -> Result<()> {
        let tx = self.conn.begin()?;
        {
            let mut st = tx.prepare_cached(
                "DELETE FROM claims WHERE key = ?1 AND owner = ?2 AND state = 'claimed'",
            )?;
            for k in keys {
                st.execute_deferred(params![k, owner])?;
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
        let tx = self.conn.begin()?;
        {
            let mut st = tx.prepare_cached(
                "UPDATE claims SET state = 'sent', purchase_id = ?3, lease_until = ?4, at = ?5
                 WHERE key = ?1 AND owner = ?2",
            )?;
            for k in keys {
                st.execute_deferred(params![
                    k,
                    owner,
                    purchase.map(|p| p.0),
                    to_millis(lease_until),
                    now
                ])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// The keys of `keys` that are `sent` (a reveal awaiting its webhook) under a live lease.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn pending(&self, keys: &[String]) -> Result<Vec<String>> {
        let now = to_millis(Utc::now());
        let sent: std::collections::HashSet<String> = self
            .conn
            .prepare_cached(
                "SELECT key FROM rarray(?1) AS k JOIN claims ON claims.key = k.value
                 WHERE state = 'sent' AND lease_until > ?2",
            )?
            .query_map(params![Keys::new(keys.iter().cloned()), now], |r| r.get(0))?
            .collect::<Result<_>>()?;
        Ok(keys.iter().filter(|k| sent.contains(*k)).cloned().collect())
    }

    /// Credits charged at or after `since`, per pool, by every purchase and every webhook
    /// delivery (a reveal's charge comes with its results): the ledger budgets are checked
    /// against (all processes on this store).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn spent_since(&self, since: DateTime<Utc>) -> Result<Cost> {
        self.conn.query_row(
            "SELECT coalesce(sum(s), 0), coalesce(sum(e), 0), coalesce(sum(p), 0) FROM (
               SELECT credits_standard AS s, credits_email AS e, credits_phone AS p
                 FROM purchases WHERE at >= ?1
               UNION ALL
               SELECT credits_standard, credits_email, credits_phone
                 FROM deliveries WHERE received_at >= ?1) AS spent",
            params![to_millis(since)],
            |r| {
                Ok(Cost {
                    standard: r.get(0)?,
                    email: r.get(1)?,
                    phone: r.get(2)?,
                })
            },
        )
    }

    /// The freshest stored search of (`endpoint`, identity body, `target`), if any.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite), [`StoreError::Json`](super::StoreError::Json).
    pub fn find_search(
        &self,
        endpoint: Endpoint,
        identity: &Value,
        target: &str,
    ) -> Result<Option<SearchId>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT id FROM searches WHERE endpoint = ?1 AND body = ?2 AND target = ?3",
            )?
            .query_row(
                params![
                    endpoint.path(),
                    super::history::canonical_search_body(identity),
                    clean_key(target)
                ],
                |r| r.get::<_, i64>(0),
            )
            .optional()?
            .map(SearchId))
    }
}

/// The claim key of a company (a [`domain_key`](prospect_common::keys::domain_key)): `company:acme.com`. A lookup and a batch
/// enrichment of one domain hold the same claim, so neither buys what the other is buying.
pub fn company_claim(domain: &str) -> String {
    format!("company:{domain}")
}
