//! The spend engine's ledger (issue 15; schema version 3): purchases kept as the raw answer
//! (zstd) beside the entities decoded from it, in one transaction with the claims they settle
//! ([`super::claims`]); the job of each, so an interrupted action is listed and resumed; and
//! the credits spent since a time, for budgets.

use super::claims::{Settling, settle};
use super::db::{OptionalExt, params};

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::entities::Rows;
use super::history::{PageFacts, write_page};
use super::{
    Entities, JobId, PurchaseId, Result, SearchId, Store, clean_json, clean_key, to_millis,
};
use prospect_api::client::Endpoint;
use prospect_api::cost::Cost;

/// Bytes written by one kept answer from which the connection's page cache is handed back
/// after the commit (`PRAGMA shrink_memory`).
const SHRINK_AFTER_BYTES: usize = 1 << 20;

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

/// How far (ms) a job's `updated_at` may lag the last answer kept for it: it shows when the
/// job last moved, to the second.
const JOB_TOUCH_MS: i64 = 1_000;

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
    /// Claim keys the answer settles (their claim sets made `done` with this purchase).
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
    request_z: Option<Vec<u8>>,
    raw: Vec<u8>,
    rows: Rows,
}

#[cfg(test)]
impl Packed {
    /// The raw answer as it will be kept (zstd frames).
    pub(crate) fn raw(&self) -> &[u8] {
        &self.raw
    }

    /// Each company's key and record frame.
    pub(crate) fn company_frames(&self) -> &[(String, Vec<u8>)] {
        self.rows.company_frames()
    }
}

/// Requests of at least this many bytes (JSON) are kept compressed ([`compact_request`]).
const COMPRESS_REQUEST_BYTES: usize = 1024;

/// The prefix of `purchases.request` when the request is kept compressed in `request_z`: no
/// JSON text starts with it.
pub(super) const REQUEST_Z_PREFIX: &str = "zstd:";

/// A request as kept (schema 11): a long one (a lookup's 1,000 domains are about 23 KB, most
/// of what a big lookup of unknown domains stores) is kept compressed in `request_z`, and
/// `request` holds [`REQUEST_Z_PREFIX`] and the SHA-256 of its text (what a store copy tells
/// purchases apart by); a short one is kept as it is.
///
/// # Errors
/// [`StoreError::Output`](super::StoreError::Output) (compression).
fn compact_request(request: String) -> Result<(String, Option<Vec<u8>>)> {
    use sha2::{Digest, Sha256};
    if request.len() < COMPRESS_REQUEST_BYTES {
        return Ok((request, None));
    }
    let z = super::entities::pack(request.as_bytes())?;
    let digest: String = Sha256::digest(request.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok((format!("{REQUEST_Z_PREFIX}{digest}"), Some(z)))
}

/// The request text of purchase `id`'s row (`request`, `request_z`), decompressed when it was
/// kept so; `None` (with a warning naming the purchase) when a compressed one does not read.
pub(super) fn request_text(
    request: String,
    request_z: Option<&[u8]>,
    id: &dyn std::fmt::Display,
) -> Option<String> {
    match request_z {
        Some(z) if request.starts_with(REQUEST_Z_PREFIX) => {
            let text = zstd::decode_all(z)
                .ok()
                .and_then(|b| String::from_utf8(b).ok());
            if text.is_none() {
                tracing::warn!(purchase = %id, "store: a compressed request does not read; skipped");
            }
            text
        }
        _ => Some(request),
    }
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
            None,
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
/// `spans`: where each company record lies in `raw` (byte ranges, in the order of
/// `entities.companies`), when the caller already read them off the answer (a search page,
/// whose cursor is read before it is kept: one scan instead of two, issue 39). Spans that are
/// not in `raw` in order, each an object, are not used; without them the records are found by
/// scanning `raw`.
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
    spans: Option<&[std::ops::Range<usize>]>,
) -> Result<Packed> {
    let texts = match spans.and_then(|s| super::entities::texts_at(raw, s)) {
        Some(t) if whole => Some(t),
        _ => whole
            .then(|| super::entities::company_texts(endpoint, raw))
            .flatten(),
    };
    let (rows, as_received) = Rows::of_answer(entities, at, texts.as_deref())?;
    let framed = match &texts {
        Some(t) if !t.is_empty() && as_received.iter().any(Option::is_some) => {
            super::entities::raw_frames(raw, t, &as_received, &rows)?
        }
        _ => None,
    };
    let raw = match framed {
        Some(f) => f,
        None => super::entities::pack(raw)?,
    };
    let (request, request_z) = compact_request(clean_json(request)?)?;
    Ok(Packed {
        request,
        request_z,
        raw,
        rows,
    })
}

impl Store {
    /// Keeps a charged answer, in one transaction: the purchase row with the raw bytes
    /// (zstd-compressed; `response` left empty, since every record is kept once as an entity
    /// pointing back at the purchase), the entities upserted, the search page recorded when it
    /// is one, the claims it settles made `done` ([`super::claims`]), and the job's count of items kept.
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
        let Packed {
            request,
            request_z,
            raw,
            rows,
        } = packed;
        let target = clean_key(k.target);
        let at = to_millis(k.at);
        let tx = self.conn.begin()?;
        let id = tx
            .prepare_cached(
                "INSERT INTO purchases (endpoint, request, response, credits_standard,
                   credits_email, credits_phone, target, at, raw, job_id, buyer, request_z)
                 VALUES (?1, ?2, '', ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
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
                request_z,
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
            let how = Settling::Kept {
                purchase: id,
                job: k.job,
            };
            settle(&tx, &mut self.unpacked, k.settles, how, settled_at)?;
        }
        if let Some(job) = k.job {
            // `bought` moves with every answer; `updated_at` at most once a second
            // (JOB_TOUCH_MS): both job indexes hold it, so writing it, even unchanged,
            // rewrites two index pages, at every answer of a lookup's thousand. On
            // PostgreSQL both go with the commit, in its round trip.
            tx.prepare_cached("UPDATE jobs SET bought = bought + ?2 WHERE id = ?1")?
                .execute_deferred(params![job.0, k.settles.len().max(1) as i64])?;
            tx.prepare_cached(
                "UPDATE jobs SET updated_at = ?2 WHERE id = ?1 AND updated_at <= ?3",
            )?
            .execute_deferred(params![job.0, at, at - JOB_TOUCH_MS])?;
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
            Some(z) => Some(crate::frames::unpack_raw(&z)?),
            None => None,
        })
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
