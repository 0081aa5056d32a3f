//! Paid calls whose results come by webhook (SPEC.md §6): reveals of emails and phones
//! (§4.7, §4.10) and batch enrichments, claimed so no process sends them twice, and the
//! deliveries as they are recorded.

use super::*;

impl Session {
    /// Reveals emails (`kind` Email, SPEC.md §4.10) or phones (`kind` Phone, §4.7) of
    /// `person_ids` through the spend engine: contacts already stored are answered at 0
    /// credits (unless refreshing); ids sent before whose webhook is still awaited (by any
    /// process on the store) are not sent again ([`Reveal::pending`]); the rest are claimed,
    /// sent in batches of at most 500 with `webhook_url`, and marked sent, so nobody sends them
    /// again while their results come by webhook.
    ///
    /// Errors: the client's; ids of batches sent before the error stay marked sent.
    pub async fn reveal(
        &self,
        kind: ContactKind,
        person_ids: &[String],
        webhook_url: &str,
        fresh: Freshness,
    ) -> Result<Reveal, ApiError> {
        self.reveal_in(kind, person_ids, webhook_url, fresh, None)
            .await
    }

    /// [`Session::reveal`] as part of job `job`.
    pub async fn reveal_in(
        &self,
        kind: ContactKind,
        person_ids: &[String],
        webhook_url: &str,
        fresh: Freshness,
        job: Option<prospect_store::JobId>,
    ) -> Result<Reveal, ApiError> {
        let mut seen = HashSet::new();
        let ids: Vec<String> = person_ids
            .iter()
            .map(|i| i.trim().to_string())
            .filter(|i| !i.is_empty() && seen.insert(i.clone()))
            .collect();
        let suppressed = crate::suppress::refused_people(self, ids.clone()).await;
        let ids: Vec<String> = ids
            .into_iter()
            .filter(|i| !suppressed.contains_key(i))
            .collect();
        let from_store = if fresh == Freshness::Stored {
            self.stored_contacts(&ids, kind).await
        } else {
            HashMap::new()
        };
        let rest: Vec<String> = ids
            .into_iter()
            .filter(|i| !from_store.contains_key(i))
            .collect();
        let keys: Vec<String> = rest
            .iter()
            .map(|i| crate::engine::contact_key(kind, i))
            .collect();
        let (to_send, pending) = self.claim_awaited(rest, keys, fresh, job).await;
        let mut purchases = Vec::new();
        let mut sent = Vec::new();
        let mut store_error = None;
        for batch in to_send.chunks(REVEAL_MAX_IDS) {
            let ids: Vec<String> = batch.iter().map(|b| b.0.clone()).collect();
            let result = self.buy_reveal(kind, ids.clone(), webhook_url, job).await;
            let (purchase, err) = self.after_webhook_send(batch, result).await?;
            purchases.extend(purchase);
            store_error = store_error.or(err);
            sent.extend(ids);
        }
        Ok(ByWebhook {
            from_store,
            sent,
            purchases,
            pending,
            store_error,
            suppressed,
        })
    }

    /// Claims `keys` (the claim keys of `items`, in order) for a call answered by webhook: keys
    /// another call sent and still awaits (`sent`, within their lease) are pending, never sent
    /// again; the rest are claimed for this process. Returns (items claimed with their keys,
    /// items pending). A store that cannot write claims lets everything be sent (said in the
    /// log): the service is asked once all the same.
    async fn claim_awaited(
        &self,
        items: Vec<String>,
        keys: Vec<String>,
        fresh: Freshness,
        job: Option<prospect_store::JobId>,
    ) -> (Vec<(String, String)>, Vec<String>) {
        let owner = self.owner.to_string();
        let planned_at = crate::engine::looked_at(fresh == Freshness::Refresh);
        let lease =
            Utc::now() + chrono::Duration::from_std(crate::engine::CLAIM_LEASE).unwrap_or_default();
        let n_keys = keys.len();
        let verdicts = {
            let keys = keys.clone();
            with_store(&self.store, move |s| {
                let pending: HashSet<String> = s.pending(&keys)?.into_iter().collect();
                let free: Vec<String> = keys
                    .iter()
                    .filter(|k| !pending.contains(*k))
                    .cloned()
                    .collect();
                let claimed = s.claim(&free, &owner, job, lease, planned_at)?;
                let mut it = claimed.into_iter();
                Ok(keys
                    .iter()
                    .map(|k| {
                        if pending.contains(k) {
                            prospect_store::Claim::Held
                        } else {
                            it.next().unwrap_or(prospect_store::Claim::Held)
                        }
                    })
                    .collect::<Vec<_>>())
            })
            .await
            .unwrap_or_else(|e| {
                tracing::warn!(error = %e, "claims could not be written; sending unclaimed");
                vec![prospect_store::Claim::Mine; n_keys]
            })
        };
        let mut to_send = Vec::new();
        let mut pending = Vec::new();
        for ((item, key), v) in items.into_iter().zip(keys).zip(verdicts) {
            match v {
                prospect_store::Claim::Mine => to_send.push((item, key)),
                _ => pending.push(item),
            }
        }
        (to_send, pending)
    }

    /// After one request answered by webhook (`batch`: its items with their claim keys): an
    /// accepted request marks its keys `sent` for [`crate::engine::REVEAL_LEASE`], so
    /// nobody sends them again while the results come; a refused one that cannot have charged
    /// gives its claims back. Returns the accepted request's (purchase, store error).
    ///
    /// Errors: the request's own.
    async fn after_webhook_send(
        &self,
        batch: &[(String, String)],
        result: Result<(Option<PurchaseId>, Option<String>), ApiError>,
    ) -> Result<(Option<PurchaseId>, Option<String>), ApiError> {
        let keys: Vec<String> = batch.iter().map(|b| b.1.clone()).collect();
        let owner = self.owner.to_string();
        match result {
            Ok((purchase, err)) => {
                let until = Utc::now()
                    + chrono::Duration::from_std(crate::engine::REVEAL_LEASE).unwrap_or_default();
                if let Err(e) = with_store(&self.store, move |s| {
                    s.mark_sent(&keys, &owner, purchase, until)
                })
                .await
                {
                    tracing::warn!(error = %e, "could not mark keys sent");
                }
                Ok((purchase, err))
            }
            Err(e) => {
                if !e.may_have_charged() {
                    let _ = with_store(&self.store, move |s| s.release(&keys, &owner)).await;
                }
                Err(e)
            }
        }
    }

    /// Sends a batch enrichment's claimed items (`to_send`: item and claim key) in requests of
    /// at most 10,000, each made by `request` from its items, kept, and its keys marked sent
    /// ([`Session::after_webhook_send`]). Returns (items sent, purchases, why an
    /// acknowledgement could not be stored).
    ///
    /// Errors: a request's own; the batches sent before it stay marked sent.
    async fn send_batches<R>(
        &self,
        to_send: &[(String, String)],
        job: Option<prospect_store::JobId>,
        request: impl Fn(&[(String, String)]) -> R,
    ) -> Result<(Vec<String>, Vec<PurchaseId>, Option<String>), ApiError>
    where
        R: prospect_api::client::ApiRequest,
        R::Response: Bought + Serialize + Clone + Send + Sync + 'static,
    {
        let (mut sent, mut purchases, mut store_error) = (Vec::new(), Vec::new(), None);
        for batch in to_send.chunks(prospect_api::types::ENRICH_BATCH_MAX) {
            let result = self
                .buy(&request(batch), job, Vec::new(), None)
                .await
                .map(|paid| (paid.purchase, paid.store_error));
            let (purchase, err) = self.after_webhook_send(batch, result).await?;
            purchases.extend(purchase);
            store_error = store_error.or(err);
            sent.extend(batch.iter().map(|b| b.0.clone()));
        }
        Ok((sent, purchases, store_error))
    }

    /// A batch enrichment of people (`POST /v2/enrich/people`, openapi.json; issue 18) through
    /// the spend engine, as [`Session::enrich_companies`] for companies: `items` deduplicated
    /// by key; suppressed people refused; those the store holds (by id, handle, or an earlier
    /// match) answered at 0 credits (unless refreshing); those another call sent and still
    /// awaits not sent again; the rest claimed under their key (a lookup of the same id or
    /// handle holds the same claim), sent in batches of at most 10,000 with their key as
    /// `uniqueId` and `webhook_url`, and marked sent. The people come by the `enrich_people`
    /// webhook, whose delivery keeps them, ends the claims, keeps the matches and records the
    /// charge.
    ///
    /// Errors: the client's; items of batches sent before the error stay marked sent.
    pub async fn enrich_people(
        &self,
        items: &[crate::engine::PersonItem],
        webhook_url: &str,
        fresh: Freshness,
        job: Option<prospect_store::JobId>,
    ) -> Result<EnrichPeopleBatch, ApiError> {
        let mut seen = HashSet::new();
        let items: Vec<crate::engine::PersonItem> = items
            .iter()
            .filter(|i| seen.insert(i.key.clone()))
            .cloned()
            .collect();
        let suppressed = crate::suppress::refused_person_items(self, items.clone()).await;
        let items: Vec<_> = items
            .into_iter()
            .filter(|i| !suppressed.contains_key(&i.key))
            .collect();
        let from_store = if fresh == Freshness::Stored {
            self.stored_people_of(&items).await
        } else {
            HashMap::new()
        };
        let rest: Vec<_> = items
            .into_iter()
            .filter(|i| !from_store.contains_key(&i.key))
            .collect();
        let keys: Vec<String> = rest.iter().map(|i| i.key.clone()).collect();
        let requests: HashMap<String, prospect_api::types::PersonToMatch> =
            rest.into_iter().map(|i| (i.key, i.request)).collect();
        let (to_send, pending) = self.claim_awaited(keys.clone(), keys, fresh, job).await;
        let (sent, purchases, store_error) = self
            .send_batches(&to_send, job, |batch| {
                prospect_api::types::EnrichPeopleRequest {
                    people_data_mapping: batch
                        .iter()
                        .filter_map(|(k, _)| requests.get(k).map(|r| (k.clone(), r.clone())))
                        .collect(),
                    webhook_url: webhook_url.to_string(),
                }
            })
            .await?;
        Ok(ByWebhook {
            from_store,
            sent,
            purchases,
            pending,
            store_error,
            suppressed,
        })
    }

    /// A batch enrichment of companies by domain (`POST /v2/enrich/companies`, openapi.json;
    /// issue 18) through the spend engine: `domains` are normalized ([`prospect_common::keys::domain_key`];
    /// others are left out) and deduplicated; suppressed ones are refused; those the store holds
    /// are answered at 0 credits (unless refreshing); those another call sent and still awaits
    /// are not sent again ([`ByWebhook::pending`]); the rest are claimed (the lookup's claim
    /// `company:<domain>`: a lookup and a batch never buy one domain twice), sent in batches of
    /// at most 10,000 keyed by their domain, with `webhook_url`, and marked sent. The companies
    /// come by the `enrich_companies` webhook, whose delivery keeps them, ends the claims and
    /// records the charge ([`prospect_store::Store::record_delivery`]).
    ///
    /// Errors: the client's; domains of batches sent before the error stay marked sent.
    pub async fn enrich_companies(
        &self,
        domains: &[String],
        webhook_url: &str,
        fresh: Freshness,
        job: Option<prospect_store::JobId>,
    ) -> Result<EnrichBatch, ApiError> {
        let mut seen = HashSet::new();
        let domains: Vec<String> = domains
            .iter()
            .filter_map(|d| prospect_common::keys::domain_key(d))
            .filter(|d| seen.insert(d.clone()))
            .collect();
        let suppressed = crate::suppress::refused_domains(self, domains.clone()).await;
        let domains: Vec<String> = domains
            .into_iter()
            .filter(|d| !suppressed.contains_key(d))
            .collect();
        let from_store = if fresh == Freshness::Stored {
            let d = domains.clone();
            with_store(&self.store, move |s| s.companies_by_domains(&d))
                .await
                .unwrap_or_default()
        } else {
            HashMap::new()
        };
        let rest: Vec<String> = domains
            .into_iter()
            .filter(|d| !from_store.contains_key(d))
            .collect();
        let keys: Vec<String> = rest
            .iter()
            .map(|d| prospect_store::company_claim(d))
            .collect();
        let (to_send, pending) = self.claim_awaited(rest, keys, fresh, job).await;
        let (sent, purchases, store_error) = self
            .send_batches(&to_send, job, |batch| {
                prospect_api::types::EnrichCompaniesRequest {
                    company_data_mapping: batch
                        .iter()
                        .map(|(d, _)| (d.clone(), crate::engine::enrich_company_request(d)))
                        .collect(),
                    webhook_url: webhook_url.to_string(),
                    fields: None,
                }
            })
            .await?;
        Ok(ByWebhook {
            from_store,
            sent,
            purchases,
            pending,
            store_error,
            suppressed,
        })
    }

    /// Sends one reveal request of `kind` for `ids` (at most 500) and keeps its
    /// acknowledgement: (its purchase, why it could not be stored).
    async fn buy_reveal(
        &self,
        kind: ContactKind,
        ids: Vec<String>,
        webhook_url: &str,
        job: Option<prospect_store::JobId>,
    ) -> Result<(Option<PurchaseId>, Option<String>), ApiError> {
        let webhook_url = webhook_url.to_string();
        let paid = match kind {
            ContactKind::Email => {
                let req = RevealEmailsRequest {
                    person_ids: ids,
                    webhook_url,
                };
                self.buy(&req, job, Vec::new(), None).await?.map(|_| ())
            }
            ContactKind::Phone => {
                let req = RevealPhonesRequest {
                    person_ids: ids,
                    webhook_url,
                };
                self.buy(&req, job, Vec::new(), None).await?.map(|_| ())
            }
        };
        Ok((paid.purchase, paid.store_error))
    }
}
