//! What happened, in order: purchases (every paid call, with its full answer), webhook
//! deliveries (deduplicated), and the search history with its pages.

use std::any::Any;

use super::db::{Conn, OptionalExt, params};
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::entities::{Rows, check_purchase};
use super::{
    DeliveryId, Entities, PurchaseId, Result, SearchId, Store, StoreError, clean_json, clean_key,
    from_millis, read_json, sql_limit, to_millis,
};
use prospect_api::client::Endpoint;
use prospect_api::cost::Cost;
use prospect_api::types::webhooks::{WebhookBody, WebhookEvent};
use prospect_common::sanitize::{sanitize, sanitize_value};

/// A paid call to record with [`Store::record_purchase`]. `A` is the type of the answer: the
/// typed response the session decoded (written out to JSON once, by the store), or a
/// [`Value`].
#[derive(Debug)]
pub struct NewPurchase<'a, A: ?Sized = Value> {
    /// The endpoint called (stored as its path).
    pub endpoint: Endpoint,
    /// The request body sent.
    pub request: &'a Value,
    /// The full answer (stored as sanitized JSON).
    pub response: &'a A,
    /// Credits charged, per pool.
    pub charged: Cost,
    /// Where it went: `"sandbox"` or the base URL. Never a token.
    pub target: &'a str,
    /// When it was answered.
    pub at: DateTime<Utc>,
    /// The records the answer returned (the session's [`Bought::entities`](crate::Bought::entities)).
    pub entities: &'a Entities,
}

/// A stored purchase (one paid call).
#[derive(Debug, Clone, PartialEq)]
pub struct Purchase {
    /// Its id.
    pub id: PurchaseId,
    /// The endpoint's path, e.g. `/v2/lookup/companies`.
    pub endpoint: String,
    /// The request body sent (sanitized).
    pub request: Value,
    /// The full answer, sanitized: read from the raw answer kept (zstd) for purchases of
    /// schema 3 on, from the stored JSON before.
    pub response: Value,
    /// Credits charged, per pool.
    pub charged: Cost,
    /// `"sandbox"` or the base URL.
    pub target: String,
    /// When it was answered (millisecond precision).
    pub at: DateTime<Utc>,
}

/// A purchase's answer as JSON (sanitized): the raw bytes kept (zstd) when there are, else the
/// stored JSON text; `None` (with a warning naming the row) when neither reads.
pub(super) fn answer_of(
    text: &str,
    raw: Option<&[u8]>,
    id: &dyn std::fmt::Display,
) -> Option<Value> {
    match raw {
        Some(z) => {
            let bytes = match zstd::decode_all(z) {
                Ok(b) => b,
                Err(error) => {
                    tracing::warn!(table = "purchases", %id, %error, "store: raw answer does not decompress");
                    return None;
                }
            };
            let mut v: Value = match serde_json::from_slice(&bytes) {
                Ok(v) => v,
                // A raw answer that was not JSON is kept as a JSON string of its text.
                Err(_) => Value::String(String::from_utf8_lossy(&bytes).into_owned()),
            };
            sanitize_value(&mut v);
            Some(v)
        }
        None => read_json(text, "purchases", id),
    }
}

impl Purchase {
    /// The endpoint of [`Purchase::endpoint`]; `None` for a path this build does not know.
    pub fn endpoint_kind(&self) -> Option<Endpoint> {
        Endpoint::ALL
            .into_iter()
            .find(|e| e.path() == self.endpoint)
    }
}

/// What [`Store::record_delivery`] did with a delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryOutcome {
    /// A delivery not seen before, stored under this id.
    New(DeliveryId),
    /// The same event with the same body was stored before; nothing changed.
    Duplicate,
}

/// What a batch enrichment's delivery settles, inside its transaction (see
/// [`settle_enriched_companies`], [`settle_enriched_people`]); `false` for other events.
fn settle_enriched(tx: &super::db::Tx<'_>, body: Option<&WebhookBody>, at: i64) -> Result<bool> {
    match body {
        Some(WebhookBody::EnrichCompanies(b)) => settle_enriched_companies(tx, b, at)?,
        Some(WebhookBody::EnrichPeople(b)) => settle_enriched_people(tx, b, at)?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// What an `enrich_companies` delivery settles (issue 18), inside its transaction. prospect asks
/// a batch enrichment with each company's normalized domain as its `uniqueId`: every item that
/// arrived, found or not, ends its `sent` claim `company:<uniqueId>` (the batch is answered, a
/// later run reads the store or asks again), and a company found under another domain keeps
/// the one asked as its alias (asked again, it is owned). Items of ids that are not domains
/// (a batch another client sent) change nothing.
fn settle_enriched_companies(
    tx: &super::db::Tx<'_>,
    b: &prospect_api::types::EnrichCompaniesWebhook,
    at: i64,
) -> Result<()> {
    let mut aliases = Vec::new();
    let mut st = tx.prepare_cached(
        "UPDATE claims SET state = 'done', at = ?2 WHERE key = ?1 AND state = 'sent'",
    )?;
    for item in &b.companies {
        let Some(asked) = prospect_common::keys::domain_key(&item.unique_id) else {
            continue;
        };
        st.execute_deferred(params![super::company_claim(&asked), at])?;
        if let Some(c) = &item.company {
            let own = prospect_common::keys::normalize_domain(&c.domain);
            if !own.is_empty() && own != asked {
                aliases.push((asked, own));
            }
        }
    }
    drop(st);
    super::entities::write_aliases(tx, &aliases)
}

/// What an `enrich_people` delivery settles (issue 18), inside its transaction. prospect asks
/// a batch enrichment of people with each item's claim key as its `uniqueId` (`person:<id>`,
/// `handle:<handle>` or `match:<hash>`): every item that arrived ends its `sent` claim, and a
/// person found for a `match:` key is kept as that key's match (asked again, it is owned).
fn settle_enriched_people(
    tx: &super::db::Tx<'_>,
    b: &prospect_api::types::EnrichPeopleWebhook,
    at: i64,
) -> Result<()> {
    let mut settle = tx.prepare_cached(
        "UPDATE claims SET state = 'done', at = ?2 WHERE key = ?1 AND state = 'sent'",
    )?;
    let mut matched = tx.prepare_cached(
        "INSERT INTO person_matches (key, person_id) VALUES (?1, ?2)
         ON CONFLICT (key) DO UPDATE SET person_id = excluded.person_id",
    )?;
    for item in &b.people {
        let key = clean_key(&item.unique_id);
        settle.execute_deferred(params![key, at])?;
        if key.starts_with("match:")
            && let Some(p) = &item.person
            && !p.id.trim().is_empty()
        {
            matched.execute_deferred(params![key, clean_key(&p.id)])?;
        }
    }
    Ok(())
}

/// One line of the ledger of what was spent ([`Store::spend_log`]): a purchase, or a webhook
/// delivery (a reveal's results, charged when they arrive), with its credits per pool.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Spend {
    /// When it was answered or received.
    pub at: DateTime<Utc>,
    /// `purchase` or `delivery`.
    pub kind: String,
    /// The purchase's or delivery's row id.
    pub id: i64,
    /// The endpoint path (`/v2/lookup/companies`) or the webhook event (`reveal_emails`).
    pub what: String,
    /// Credits charged, per pool.
    pub credits: Cost,
    /// The job that bought it, when one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job: Option<i64>,
    /// Who bought it (a purchase in a team store, issue 17); empty when not known (a delivery,
    /// or a purchase kept before buyers were recorded).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub buyer: String,
}

/// A stored webhook delivery.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivery {
    /// Its id.
    pub id: DeliveryId,
    /// The event name as received (sanitized), e.g. `reveal_emails`.
    pub event: String,
    /// SHA-256 of the raw body, lowercase hex (64 characters).
    pub sha256: String,
    /// The body, sanitized; a body that was not JSON is kept as a JSON string of its text
    /// (invalid UTF-8 replaced).
    pub body: Value,
    /// When it was received (millisecond precision).
    pub received_at: DateTime<Utc>,
}

/// One stored search, as listed by [`Store::searches`].
#[derive(Debug, Clone, PartialEq)]
pub struct SearchSummary {
    /// Its id.
    pub id: SearchId,
    /// The endpoint's path, e.g. `/v3/search/companies`.
    pub endpoint: String,
    /// The request body without paging members (sanitized, keys sorted).
    pub body: Value,
    /// `"sandbox"` or the base URL.
    pub target: String,
    /// When it was first run.
    pub first_run_at: DateTime<Utc>,
    /// When it was last run.
    pub last_run_at: DateTime<Utc>,
    /// Number of stored pages.
    pub pages: u32,
    /// `total` of the most recently fetched page's answer (a number; `None` when absent).
    pub total: Option<i64>,
    /// What its stored pages cost when they were bought, per pool (pages read from the store
    /// cost nothing and are not counted).
    pub credits: prospect_api::cost::Cost,
}

/// One stored page of a search.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredPage {
    /// 0-based page number.
    pub page: u32,
    /// The request body sent, paging members included (sanitized).
    pub request: Value,
    /// The answer (sanitized).
    pub response: Value,
    /// The purchase that paid for it, if any.
    pub purchase_id: Option<PurchaseId>,
    /// When it was fetched (millisecond precision).
    pub fetched_at: DateTime<Utc>,
}

/// Request members that only page through a search; a search is the same without them.
const PAGING_MEMBERS: [&str; 3] = ["size", "from", "searchAfter"];

/// The canonical text of a search body: sanitized, paging members removed from the top level,
/// object keys sorted at every depth, no whitespace.
pub fn canonical_search_body(body: &Value) -> String {
    let mut v = body.clone();
    sanitize_value(&mut v);
    if let Value::Object(m) = &mut v {
        for k in PAGING_MEMBERS {
            m.remove(k);
        }
    }
    canonical_json(&v).to_string()
}

/// `v` with object keys sorted at every depth (arrays keep their order): equal JSON values
/// give equal text.
pub fn canonical_json(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut entries: Vec<(&String, &Value)> = m.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.clone(), canonical_json(v)))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(canonical_json).collect()),
        other => other.clone(),
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

impl Store {
    /// Records a paid call whose answer is a typed value (or a [`Value`]) and stores the
    /// entities it returned, in one transaction: the answer is written out to JSON once and
    /// kept as its raw bytes, exactly as [`Store::keep`] keeps an answer received from the
    /// service (zstd, records once as entities). For answers built in code (tests, imports).
    ///
    /// # Errors
    /// As [`Store::keep`]; [`StoreError::Json`] when the answer cannot be written out.
    pub fn record_purchase<A: Serialize + Sync + Any>(
        &mut self,
        p: &NewPurchase<'_, A>,
    ) -> Result<PurchaseId> {
        let raw = serde_json::to_vec(p.response)?;
        self.keep(&super::Kept {
            endpoint: p.endpoint,
            request: p.request,
            raw: &raw,
            charged: p.charged,
            target: p.target,
            at: p.at,
            entities: p.entities,
            job: None,
            settles: &[],
            page: None,
            whole: false,
        })
    }

    /// The endpoint path of purchase `id` (e.g. `/v3/search/companies`): what a stored record
    /// came from. `None` when there is no such purchase.
    ///
    /// # Errors
    /// [`super::StoreError::Sqlite`].
    pub fn purchase_endpoint(&self, id: PurchaseId) -> Result<Option<String>> {
        self.conn
            .prepare_cached("SELECT endpoint FROM purchases WHERE id = ?1")?
            .query_row(params![id.0], |r| r.get(0))
            .optional()
    }

    /// The last `limit` purchases, newest first (by time, then id). Rows whose JSON no longer
    /// parses are skipped (see the module docs).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn purchases(&self, limit: usize) -> Result<Vec<Purchase>> {
        let mut st = self.conn.prepare_cached(
            "SELECT id, endpoint, request, response, credits_standard, credits_email,
               credits_phone, target, at, raw
             FROM purchases ORDER BY at DESC, id DESC LIMIT ?1",
        )?;
        let rows = st.query_map(params![sql_limit(limit)], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                Cost {
                    standard: r.get(4)?,
                    email: r.get(5)?,
                    phone: r.get(6)?,
                },
                r.get::<_, String>(7)?,
                r.get::<_, i64>(8)?,
                r.get::<_, Option<Vec<u8>>>(9)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, endpoint, request, response, charged, target, at, raw) = row?;
            let parsed = (|| {
                Some(Purchase {
                    id: PurchaseId(id),
                    endpoint,
                    request: read_json(&request, "purchases", &id)?,
                    response: answer_of(&response, raw.as_deref(), &id)?,
                    charged,
                    target,
                    at: from_millis(at, "purchases", &id)?,
                })
            })();
            out.extend(parsed);
        }
        Ok(out)
    }

    /// Records a webhook delivery, once: keyed by (`event`, SHA-256 of the raw `body`), a
    /// delivery seen before gives [`DeliveryOutcome::Duplicate`] and changes nothing.
    ///
    /// A new one is stored (body sanitized; a body that is not JSON is kept as a JSON string)
    /// and, in the same transaction, when `event` is one of the six webhook events and the body
    /// reads as it, its contacts are upserted (revealed at `received_at`): `reveal_emails` /
    /// `reveal_phones` results, and the `email` / `phone` of the people of `people_search_*`
    /// and `enrich_person_*`. A body that does not read is still stored (with a warning).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] (nothing written), [`StoreError::Json`].
    pub fn record_delivery(
        &mut self,
        event: &str,
        body: &[u8],
        received_at: DateTime<Utc>,
    ) -> Result<DeliveryOutcome> {
        let sha = Sha256::digest(body);
        let event_key = clean_key(event);
        let text = match serde_json::from_slice::<Value>(body) {
            Ok(v) => clean_json(&v)?,
            Err(_) => Value::String(sanitize(&String::from_utf8_lossy(body))).to_string(),
        };
        let parsed = match WebhookEvent::from_name(event) {
            Some(e) => match e.parse_body(body) {
                Ok(b) => Some(b),
                Err(error) => {
                    tracing::warn!(event = %event_key, %error, "store: webhook body not read; stored as is");
                    None
                }
            },
            None => None,
        };
        let entities = parsed
            .as_ref()
            .map_or_else(Entities::none, |b| Entities::from_webhook(b, received_at));
        let rows = Rows::of(&entities, received_at)?;
        let charged = parsed.as_ref().map_or(Cost::ZERO, WebhookBody::charge);
        let at = to_millis(received_at);
        let tx = self.conn.begin()?;
        let inserted: Option<i64> = tx
            .prepare_cached(
                "INSERT INTO deliveries (event, sha256, body, received_at, credits_email,
                   credits_phone, credits_standard) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (event, sha256) DO NOTHING RETURNING id",
            )?
            .query_row(
                params![
                    event_key,
                    sha.as_slice(),
                    text,
                    at,
                    charged.email,
                    charged.phone,
                    charged.standard
                ],
                |r| r.get(0),
            )
            .optional()?;
        let Some(id) = inserted else {
            // The same body came before: nothing is stored twice, but a batch enrichment's
            // items still end their claims (a later batch of the same unknown inputs is
            // answered with the same body).
            if settle_enriched(&tx, parsed.as_ref(), at)? {
                tx.commit()?;
            }
            return Ok(DeliveryOutcome::Duplicate); // else dropping `tx` rolls back
        };
        let id = DeliveryId(id);
        rows.write(&tx, at, None)?;
        settle_enriched(&tx, parsed.as_ref(), at)?;
        tx.commit()?;
        Ok(DeliveryOutcome::New(id))
    }

    /// The last `limit` spends of this store, newest first (by time, then id): every purchase
    /// and every webhook delivery, with its credits per pool (a reveal's cost is recorded with
    /// its delivery; issue 15), each purchase with its buyer. With `buyer`, only that team
    /// member's purchases (deliveries carry no buyer and are left out; issue 17).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn spend_log(&self, limit: usize, buyer: Option<&str>) -> Result<Vec<Spend>> {
        let mut st = self.conn.prepare_cached(
            "SELECT 'purchase', id, endpoint, at, credits_standard, credits_email, credits_phone,
                    job_id, buyer FROM purchases WHERE CAST(?2 AS TEXT) IS NULL OR buyer = ?2
             UNION ALL
             SELECT 'delivery', id, event, received_at, credits_standard, credits_email,
                    credits_phone, NULL, ''
               FROM deliveries WHERE CAST(?2 AS TEXT) IS NULL
             ORDER BY 4 DESC, 2 DESC LIMIT ?1",
        )?;
        let buyer = buyer.map(clean_key);
        let rows = st.query_map(params![super::sql_limit(limit), buyer], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                Cost {
                    standard: r.get(4)?,
                    email: r.get(5)?,
                    phone: r.get(6)?,
                },
                r.get::<_, Option<i64>>(7)?,
                r.get::<_, String>(8)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (kind, id, what, at, credits, job, buyer) = row?;
            let Some(at) = from_millis(at, "purchases", &id) else {
                continue;
            };
            out.push(Spend {
                at,
                kind,
                id,
                what: sanitize(&what),
                credits,
                job,
                buyer: sanitize(&buyer),
            });
        }
        Ok(out)
    }

    /// The last `limit` deliveries, newest first (by time received, then id). Rows whose JSON
    /// no longer parses are skipped.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn deliveries(&self, limit: usize) -> Result<Vec<Delivery>> {
        let mut st = self.conn.prepare_cached(
            "SELECT id, event, sha256, body, received_at FROM deliveries
             ORDER BY received_at DESC, id DESC LIMIT ?1",
        )?;
        let rows = st.query_map(params![sql_limit(limit)], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Vec<u8>>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, i64>(4)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, event, sha, body, received_at) = row?;
            let parsed = (|| {
                Some(Delivery {
                    id: DeliveryId(id),
                    event,
                    sha256: hex(&sha),
                    body: read_json(&body, "deliveries", &id)?,
                    received_at: from_millis(received_at, "deliveries", &id)?,
                })
            })();
            out.extend(parsed);
        }
        Ok(out)
    }

    /// Records that a search was run at `at` and returns its id: the same (`endpoint`, body,
    /// `target`) gives the same id and moves its `last_run_at` to `at` (if later). The body is
    /// compared in canonical form (sanitized, keys sorted); the paging members `size`, `from`
    /// and `searchAfter` are removed from its top level, so pass the request body as sent.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn record_search(
        &mut self,
        endpoint: Endpoint,
        body: &Value,
        target: &str,
        at: DateTime<Utc>,
    ) -> Result<SearchId> {
        let id = self
            .conn
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
                    endpoint.path(),
                    canonical_search_body(body),
                    clean_key(target),
                    to_millis(at)
                ],
                |r| r.get(0),
            )?;
        Ok(SearchId(id))
    }

    /// Stores a page of a search: the request as sent (its `searchAfter`, or `from` for a v2
    /// window, is the page's `cursor_in`; its `size` the size asked), the answer's paging facts
    /// ([`PageFacts`]: the next cursor, the record count, `total`), the answer itself unless a
    /// `purchase` holds it, and `page`, its position in the chain. The same search, cursor and
    /// size stored before is replaced unless it was fetched later.
    ///
    /// # Errors
    /// [`StoreError::NoSuchSearch`] / [`StoreError::NoSuchPurchase`] when `search` /
    /// `purchase` is not stored (nothing written); [`StoreError::Sqlite`].
    #[allow(clippy::too_many_arguments)]
    pub fn record_page(
        &mut self,
        search: SearchId,
        page: u32,
        request: &Value,
        response: &Value,
        purchase: Option<PurchaseId>,
        at: DateTime<Utc>,
    ) -> Result<()> {
        let facts = PageFacts::of_answer(response);
        let tx = self.conn.begin()?;
        write_page(&tx, search, page, request, response, &facts, purchase, at)?;
        tx.commit()?;
        Ok(())
    }

    /// The last `limit` searches, most recently run first, each with its number of pages and
    /// the `total` of its most recently fetched page. Rows whose JSON no longer parses are
    /// skipped.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn searches(&self, limit: usize) -> Result<Vec<SearchSummary>> {
        let mut st = self.conn.prepare_cached(
            "SELECT s.id, s.endpoint, s.body, s.target, s.first_run_at, s.last_run_at,
               (SELECT count(*) FROM pages p WHERE p.search_id = s.id),
               (SELECT p.total FROM pages p WHERE p.search_id = s.id
                  ORDER BY p.fetched_at DESC, p.page DESC LIMIT 1),
               c.standard, c.email, c.phone
             FROM searches s
             LEFT JOIN (SELECT p.search_id,
                               sum(pu.credits_standard) AS standard,
                               sum(pu.credits_email) AS email,
                               sum(pu.credits_phone) AS phone
                          FROM pages p JOIN purchases pu ON pu.id = p.purchase_id
                         GROUP BY p.search_id) c ON c.search_id = s.id
             ORDER BY s.last_run_at DESC, s.id DESC LIMIT ?1",
        )?;
        let rows = st.query_map(params![sql_limit(limit)], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, i64>(5)?,
                r.get::<_, i64>(6)?,
                r.get::<_, rusqlite::types::Value>(7)?,
                prospect_api::cost::Cost {
                    standard: r.get::<_, Option<f64>>(8)?.unwrap_or(0.0),
                    email: r.get::<_, Option<f64>>(9)?.unwrap_or(0.0),
                    phone: r.get::<_, Option<f64>>(10)?.unwrap_or(0.0),
                },
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, endpoint, body, target, first, last, pages, total, credits) = row?;
            let total = match total {
                rusqlite::types::Value::Integer(n) => Some(n),
                rusqlite::types::Value::Real(x) if x.is_finite() => Some(x.round() as i64),
                _ => None,
            };
            let parsed = (|| {
                Some(SearchSummary {
                    id: SearchId(id),
                    endpoint,
                    body: read_json(&body, "searches", &id)?,
                    target,
                    first_run_at: from_millis(first, "searches", &id)?,
                    last_run_at: from_millis(last, "searches", &id)?,
                    pages: u32::try_from(pages).unwrap_or(u32::MAX),
                    total,
                    credits,
                })
            })();
            out.extend(parsed);
        }
        Ok(out)
    }

    /// The stored pages of a search in cursor order: the first page (no cursor), then the
    /// page asked with its `cursor_out`, and so on until a cursor has no stored page (or
    /// repeats). Where pages of several sizes start at one cursor, the most recently fetched is
    /// followed. Pages are numbered 0.. in that order; only pages fetched at or after `since`
    /// count (`None`: all). Empty for an unknown search. Pages whose JSON no longer parses end
    /// the chain.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn pages_since(
        &self,
        search: SearchId,
        since: Option<DateTime<Utc>>,
    ) -> Result<Vec<StoredPage>> {
        let chain = self.chain(search, since)?;
        let mut out = Vec::with_capacity(chain.len());
        for (i, link) in chain.into_iter().enumerate() {
            let key = format!("{search}/{i}");
            let response = match link.purchase_id {
                Some(p) if link.response.is_empty() => self.purchase_answer(p)?,
                _ => read_json(&link.response, "pages", &key),
            };
            let (Some(request), Some(response)) =
                (read_json(&link.request, "pages", &key), response)
            else {
                break;
            };
            out.push(StoredPage {
                page: i as u32,
                request,
                response,
                purchase_id: link.purchase_id,
                fetched_at: link.fetched_at,
            });
        }
        Ok(out)
    }

    /// The stored page of `search` asked with `cursor` ([`cursor_in`]) and `size`, fetched at
    /// or after `since`, with its answer; `None` when there is none (or it does not read).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn stored_page(
        &self,
        search: SearchId,
        cursor: &str,
        size: i64,
        since: DateTime<Utc>,
    ) -> Result<Option<StoredPage>> {
        let row = self
            .conn
            .prepare_cached(
                "SELECT page, request, response, purchase_id, fetched_at FROM pages
                 WHERE search_id = ?1 AND cursor_in = ?2 AND size = ?3 AND fetched_at >= ?4",
            )?
            .query_row(params![search.0, cursor, size, to_millis(since)], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, Option<i64>>(3)?,
                    r.get::<_, i64>(4)?,
                ))
            })
            .optional()?;
        let Some((page, request, response, purchase_id, at)) = row else {
            return Ok(None);
        };
        let key = format!("{search}/{page}");
        let response = match purchase_id {
            Some(p) if response.is_empty() => self.purchase_answer(PurchaseId(p))?,
            _ => read_json(&response, "pages", &key),
        };
        Ok((|| {
            Some(StoredPage {
                page: u32::try_from(page).ok()?,
                request: read_json(&request, "pages", &key)?,
                response: response?,
                purchase_id: purchase_id.map(PurchaseId),
                fetched_at: from_millis(at, "pages", &key)?,
            })
        })())
    }

    /// [`Store::pages_since`] with every page, whenever fetched.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn pages(&self, search: SearchId) -> Result<Vec<StoredPage>> {
        self.pages_since(search, None)
    }

    /// The chain of stored pages of `search` (see [`Store::pages_since`]), without reading the
    /// answers.
    pub(super) fn chain(
        &self,
        search: SearchId,
        since: Option<DateTime<Utc>>,
    ) -> Result<Vec<ChainLink>> {
        let mut st = self.conn.prepare_cached(
            "SELECT cursor_in, cursor_out, n, size, total, request, response, purchase_id,
               fetched_at
             FROM pages WHERE search_id = ?1 AND fetched_at >= ?2
             ORDER BY fetched_at DESC",
        )?;
        let since = since.map(to_millis).unwrap_or(i64::MIN);
        let rows = st.query_map(params![search.0, since], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, Option<i64>>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, String>(6)?,
                r.get::<_, Option<i64>>(7)?,
                r.get::<_, i64>(8)?,
            ))
        })?;
        // The newest page of each cursor.
        let mut by_cursor: std::collections::HashMap<String, ChainLink> = Default::default();
        for row in rows {
            let (cursor_in, cursor_out, n, size, total, request, response, purchase_id, at) = row?;
            let Some(fetched_at) = from_millis(at, "pages", &search) else {
                continue;
            };
            let _ = (size, total);
            by_cursor.entry(cursor_in).or_insert(ChainLink {
                cursor_out,
                n: u64::try_from(n).unwrap_or(0),
                request,
                response,
                purchase_id: purchase_id.map(PurchaseId),
                fetched_at,
            });
        }
        let mut out: Vec<ChainLink> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut cursor = String::new();
        while let Some(link) = by_cursor.remove(&cursor) {
            if !seen.insert(cursor.clone()) {
                break;
            }
            let next = link.cursor_out.clone();
            let full = link.n > 0;
            out.push(link);
            match next {
                Some(c) if full && !seen.contains(&c) => cursor = c,
                _ => break,
            }
        }
        Ok(out)
    }
}

/// One stored page as a link of its search's chain.
#[derive(Debug, Clone)]
pub(super) struct ChainLink {
    pub(super) cursor_out: Option<String>,
    pub(super) n: u64,
    pub(super) request: String,
    pub(super) response: String,
    pub(super) purchase_id: Option<PurchaseId>,
    pub(super) fetched_at: DateTime<Utc>,
}

/// The paging facts of a search answer: the cursor of the next page (`searchAfter`), its
/// record count (`companies` or `people`), and `total`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageFacts {
    /// The answer's `searchAfter` (`None` at the end).
    pub cursor_out: Option<String>,
    /// Records in the answer.
    pub n: u64,
    /// The answer's `total`.
    pub total: Option<i64>,
}

impl PageFacts {
    /// The facts of an answer given as JSON (members absent: `None`, 0, `None`).
    pub fn of_answer(answer: &Value) -> PageFacts {
        let n = ["companies", "people"]
            .iter()
            .find_map(|k| answer.get(*k).and_then(Value::as_array))
            .map_or(0, |a| a.len() as u64);
        PageFacts {
            cursor_out: answer
                .get("searchAfter")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(sanitize),
            n,
            total: answer.get("total").and_then(|t| {
                t.as_i64().or_else(|| {
                    t.as_f64()
                        .filter(|x| x.is_finite())
                        .map(|x| x.round() as i64)
                })
            }),
        }
    }
}

/// The cursor a page request asks with: `''` for a first page, its `searchAfter`, or `from:N`
/// for a v2 window past the first (`from` > 1).
pub fn cursor_in(request: &Value) -> String {
    if let Some(s) = request
        .get("searchAfter")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
    {
        return sanitize(s);
    }
    match request.get("from").and_then(Value::as_i64) {
        Some(f) if f > 1 => format!("from:{f}"),
        _ => String::new(),
    }
}

/// Writes a page row inside the caller's transaction (see [`Store::record_page`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn write_page(
    tx: &Conn,
    search: SearchId,
    page: u32,
    request: &Value,
    response: &Value,
    facts: &PageFacts,
    purchase: Option<PurchaseId>,
    at: DateTime<Utc>,
) -> Result<()> {
    let cursor = cursor_in(request);
    let size = request
        .get("size")
        .and_then(Value::as_i64)
        .unwrap_or(prospect_api::cost::DEFAULT_SEARCH_SIZE as i64);
    let request = clean_json(request)?;
    // A page bought by a purchase is not kept twice: its answer is the purchase's.
    let response = match purchase {
        Some(_) => String::new(),
        None => clean_json(response)?,
    };
    let found = tx
        .prepare_cached("SELECT 1 FROM searches WHERE id = ?1")?
        .query_row(params![search.0], |_| Ok(()))
        .optional()?;
    if found.is_none() {
        return Err(StoreError::NoSuchSearch(search));
    }
    check_purchase(tx, purchase)?;
    tx.prepare_cached(
        "INSERT INTO pages (search_id, cursor_in, size, page, cursor_out, n, total, request,
           response, purchase_id, fetched_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
         ON CONFLICT (search_id, cursor_in, size) DO UPDATE SET page = excluded.page,
           cursor_out = excluded.cursor_out, n = excluded.n, total = excluded.total,
           request = excluded.request, response = excluded.response,
           purchase_id = excluded.purchase_id, fetched_at = excluded.fetched_at
         WHERE excluded.fetched_at >= pages.fetched_at",
    )?
    .execute(params![
        search.0,
        cursor,
        size,
        page,
        facts.cursor_out,
        i64::try_from(facts.n).unwrap_or(i64::MAX),
        facts.total,
        request,
        response,
        purchase.map(|p| p.0),
        to_millis(at)
    ])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_body_ignores_key_order_and_paging() {
        let a = canonical_search_body(
            &json!({"b": {"y": 1, "x": [2, {"q": 1, "p": 0}]}, "a": 1, "size": 25}),
        );
        let b = canonical_search_body(
            &json!({"a": 1, "searchAfter": "c", "from": 50, "b": {"x": [2, {"p": 0, "q": 1}], "y": 1}}),
        );
        assert_eq!(a, b);
        assert_eq!(a, r#"{"a":1,"b":{"x":[2,{"p":0,"q":1}],"y":1}}"#);
    }
}
