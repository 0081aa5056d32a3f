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

mod purchases;
mod searches;
pub use searches::PageAnswer;

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
            let bytes = match crate::frames::unpack_raw(z) {
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
    let settled = match body {
        Some(WebhookBody::EnrichCompanies(b)) => settle_enriched_companies(tx, b)?,
        Some(WebhookBody::EnrichPeople(b)) => settle_enriched_people(tx, b)?,
        _ => return Ok(false),
    };
    super::claims::settle(
        tx,
        &mut super::claims::Unpacked::default(),
        &settled,
        super::claims::Settling::Delivered,
        at,
    )?;
    Ok(true)
}

/// What an `enrich_companies` delivery settles (issue 18), inside its transaction. prospect asks
/// a batch enrichment with each company's normalized domain as its `uniqueId`: every item that
/// arrived, found or not, ends its `sent` claim `company:<uniqueId>` (the batch is answered, a
/// later run reads the store or asks again), and a company found under another domain keeps
/// the one asked as its alias (asked again, it is owned). Items of ids that are not domains
/// (a batch another client sent) change nothing. Returns the claim keys it settles, which
/// [`settle_enriched`] ends.
fn settle_enriched_companies(
    tx: &super::db::Tx<'_>,
    b: &prospect_api::types::EnrichCompaniesWebhook,
) -> Result<Vec<String>> {
    let mut aliases = Vec::new();
    let mut settled = Vec::with_capacity(b.companies.len());
    for item in &b.companies {
        let Some(asked) = prospect_common::keys::domain_key(&item.unique_id) else {
            continue;
        };
        settled.push(super::company_claim(&asked));
        if let Some(c) = &item.company {
            let own = prospect_common::keys::normalize_domain(&c.domain);
            if !own.is_empty() && own != asked {
                aliases.push((asked, own));
            }
        }
    }
    super::entities::write_aliases(tx, &aliases)?;
    Ok(settled)
}

/// What an `enrich_people` delivery settles (issue 18), inside its transaction. prospect asks
/// a batch enrichment of people with each item's claim key as its `uniqueId` (`person:<id>`,
/// `handle:<handle>` or `match:<hash>`): every item that arrived ends its `sent` claim, and a
/// person found for a `match:` key is kept as that key's match (asked again, it is owned).
/// Returns the claim keys it settles, which [`settle_enriched`] ends.
fn settle_enriched_people(
    tx: &super::db::Tx<'_>,
    b: &prospect_api::types::EnrichPeopleWebhook,
) -> Result<Vec<String>> {
    let mut settled = Vec::with_capacity(b.people.len());
    let mut matched = tx.prepare_cached(
        "INSERT INTO person_matches (key, person_id) VALUES (?1, ?2)
         ON CONFLICT (key) DO UPDATE SET person_id = excluded.person_id",
    )?;
    for item in &b.people {
        let key = clean_key(&item.unique_id);
        if key.starts_with("match:")
            && let Some(p) = &item.person
            && !p.id.trim().is_empty()
        {
            matched.execute_deferred(params![key, clean_key(&p.id)])?;
        }
        settled.push(key);
    }
    Ok(settled)
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

impl Store {}

/// One stored page as a link of its search's chain.
#[derive(Debug, Clone)]
pub(super) struct ChainLink {
    pub(super) cursor_out: Option<String>,
    pub(super) n: u64,
    pub(super) total: Option<i64>,
    pub(super) request: String,
    pub(super) response: String,
    pub(super) purchase_id: Option<PurchaseId>,
    pub(super) fetched_at: DateTime<Utc>,
}

/// A page of a stored search chain without its answer ([`Store::page_links_since`]): what
/// plans a re-run (its paging facts) and what reads its answer when it is written
/// ([`Store::page_answer`]), one page at a time.
#[derive(Debug, Clone)]
pub struct PageLink {
    /// 0-based page number in the chain.
    pub page: u32,
    /// The request body sent, paging members included (sanitized).
    pub request: Value,
    /// The answer's paging facts, as kept with the page.
    pub facts: PageFacts,
    /// The purchase that paid for it, if any.
    pub purchase_id: Option<PurchaseId>,
    /// When it was fetched (millisecond precision).
    pub fetched_at: DateTime<Utc>,
    /// The answer kept with the page itself (sanitized JSON), when not read from its purchase.
    response: String,
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
