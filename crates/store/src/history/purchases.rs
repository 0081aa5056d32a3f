//! Purchases and webhook deliveries as kept: the raw answers, what they were charged, and
//! the ledger of spend (SPEC.md §6 for deliveries).

use super::*;

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
        self.keep(&crate::Kept {
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
    /// [`crate::StoreError::Sqlite`].
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
               credits_phone, target, at, raw, request_z
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
                r.get::<_, Option<Vec<u8>>>(10)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, endpoint, request, response, charged, target, at, raw, request_z) = row?;
            let parsed = (|| {
                let request =
                    super::super::ledger::request_text(request, request_z.as_deref(), &id)?;
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
        let rows = st.query_map(params![crate::sql_limit(limit), buyer], |r| {
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
}
