//! What the store already holds, answered at 0 credits: enrichments, lookups and the store
//! reads front ends make before they spend (SPEC.md §4.4–§4.6, §4.10).

use super::*;

impl Session {
    /// Enrich one company (SPEC.md §4.10): answered from the store when the domain is there
    /// (unless `fresh` is [`Freshness::Refresh`]), else bought. A 201 ("data gathering has
    /// started") is returned as `Enriched::Gathering` and costs nothing.
    pub async fn enrich_company(
        &self,
        req: &EnrichCompanyRequest,
        fresh: Freshness,
    ) -> Result<Paid<Enriched<EnrichCompanyResponse>>, ApiError> {
        prospect_api::client::check(req)?;
        let domain = req
            .company
            .as_ref()
            .and_then(|c| c.domain.clone())
            .filter(|d| !d.trim().is_empty());
        let Some(d) = domain else {
            return self.send(req).await;
        };
        // Before the store is read: what another process keeps after this is read, not bought.
        let looked = crate::engine::looked_at(fresh == Freshness::Refresh);
        let stored = || {
            let d = d.clone();
            async move {
                let hit = with_store(&self.store, move |s| s.company(&d))
                    .await
                    .ok()
                    .flatten()?;
                let value = Enriched::Found(EnrichCompanyResponse {
                    company: hit.value,
                    credits_used: 0.0,
                });
                Some(
                    self.stored_answer(value, hit.fetched_at, hit.purchase_id)
                        .await,
                )
            }
        };
        if fresh == Freshness::Stored
            && let Some(hit) = stored().await
        {
            return Ok(hit);
        }
        // Claimed under the lookup's key: a lookup and an enrich of one domain are one item.
        let key = prospect_store::company_claim(&prospect_common::keys::normalize_domain(&d));
        crate::engine::buy_claimed(self, req, key, looked, stored).await
    }

    /// `value` answered from the store at 0 credits: bought at `at` by `purchase`, whose
    /// endpoint says how ([`Paid::provenance`]; "bought" when it is unknown).
    async fn stored_answer<T>(
        &self,
        value: T,
        at: DateTime<Utc>,
        purchase: Option<PurchaseId>,
    ) -> Paid<T> {
        let source = match purchase {
            Some(id) => with_store(&self.store, move |s| s.purchase_endpoint(id))
                .await
                .ok()
                .flatten(),
            None => None,
        };
        let mut paid = Paid::from_store(value, at);
        paid.provenance = Some(crate::spend::provenance(source.as_deref()));
        paid
    }

    /// Enrich one person (SPEC.md §4.4): answered from the store when the person is there by
    /// id or professional-network handle (unless refreshing), else bought (3 credits).
    pub async fn enrich_person(
        &self,
        req: &EnrichPersonRequest,
        fresh: Freshness,
    ) -> Result<Paid<Enriched<EnrichPersonResponse>>, ApiError> {
        prospect_api::client::check(req)?;
        let looked = crate::engine::looked_at(fresh == Freshness::Refresh);
        let stored = || async {
            let hit = self.stored_person_for(req).await?;
            let value = Enriched::Found(EnrichPersonResponse {
                person: hit.value,
                credits_used: 0.0,
            });
            Some(
                self.stored_answer(value, hit.fetched_at, hit.purchase_id)
                    .await,
            )
        };
        if fresh == Freshness::Stored
            && let Some(hit) = stored().await
        {
            return Ok(hit);
        }
        // Claimed by id, else by handle (the keys of a people lookup); a match by name and
        // domain has no key to claim and is sent as it is. A reveal is never read from the
        // store, so it is not claimed either.
        let reveals = req.reveal_emails.as_ref().is_some_and(|r| r.include_emails)
            || req.reveal_phones.as_ref().is_some_and(|r| r.include_phones);
        let key = req
            .person
            .id
            .as_deref()
            .map(str::trim)
            .filter(|id| !id.is_empty())
            .map(|id| format!("person:{id}"))
            .or_else(|| {
                req.person
                    .linkedin
                    .as_deref()
                    .and_then(prospect_common::keys::linkedin_handle)
                    .map(|h| format!("handle:{h}"))
            });
        match key {
            Some(key) if !reveals => {
                crate::engine::buy_claimed(self, req, key, looked, stored).await
            }
            _ => self.send(req).await,
        }
    }

    /// The stored person an enrich of `req` is answered with at 0 credits: by id, else by
    /// professional-network handle; `None` when the store holds neither, or when the request
    /// asks for a reveal (that has to reach the service). The one rule the plan and the call
    /// both use.
    pub async fn stored_person_for(
        &self,
        req: &EnrichPersonRequest,
    ) -> Option<prospect_store::Stored<Person>> {
        let reveals = req.reveal_emails.as_ref().is_some_and(|r| r.include_emails)
            || req.reveal_phones.as_ref().is_some_and(|r| r.include_phones);
        if reveals {
            return None;
        }
        let id = req.person.id.clone().filter(|s| !s.trim().is_empty());
        let handle = req
            .person
            .linkedin
            .as_deref()
            .and_then(prospect_common::keys::linkedin_handle);
        with_store(&self.store, move |s| match (id, handle) {
            (Some(id), _) => s.person(&id),
            (None, Some(h)) => s.person_by_handle(&h),
            (None, None) => Ok(None),
        })
        .await
        .ok()
        .flatten()
    }

    /// Looks up companies by domain (SPEC.md §4.5) through the spend engine
    /// ([`crate::engine::lookup_companies`]): stored domains are answered from the store
    /// at 0 credits (unless refreshing); the rest are claimed, sent in batches of at most 1,000
    /// (two in flight) and kept; domains another process is buying are waited for and read.
    /// Duplicates (after normalization: case, `www.`, scheme) are asked once.
    ///
    /// Errors: the first failing batch's error; batches bought before it, and any already sent
    /// beside it, are kept, so a retry answers them from the store.
    pub async fn lookup_companies(
        &self,
        domains: &[String],
        fresh: Freshness,
    ) -> Result<Lookup<Company>, ApiError> {
        let keys = crate::engine::KeySource::List(domains.to_vec());
        let mut entries = Vec::new();
        let report = crate::engine::lookup_companies(
            self,
            Utc::now(),
            &keys,
            fresh,
            None,
            &tokio_util::sync::CancellationToken::new(),
            |batch| {
                entries.extend(batch);
                Ok(())
            },
        )
        .await;
        lookup_of(entries, report)
    }

    /// `true` when the store holds the company of `domain` (an enrich would answer at 0).
    pub async fn store_has_company(&self, domain: &str) -> bool {
        let d = domain.to_string();
        matches!(
            with_store(&self.store, move |s| s.company(&d)).await,
            Ok(Some(_))
        )
    }

    /// When the store's record of the company of `domain` was bought, if it holds one (an
    /// enrich would answer at 0 credits with its age).
    pub async fn stored_company_at(&self, domain: &str) -> Option<DateTime<Utc>> {
        let d = domain.to_string();
        with_store(&self.store, move |s| s.company(&d))
            .await
            .ok()
            .flatten()
            .map(|hit| hit.fetched_at)
    }

    /// When the store's record of person `id` was bought, if it holds one (an enrich by id
    /// would answer at 0 credits with its age).
    pub async fn stored_person_at(&self, id: &str) -> Option<DateTime<Utc>> {
        let id = id.to_string();
        with_store(&self.store, move |s| s.person(&id))
            .await
            .ok()
            .flatten()
            .map(|hit| hit.fetched_at)
    }

    /// How many distinct `domains` (normalized) the store holds: a lookup sends the others.
    pub async fn stored_company_count(&self, domains: &[String]) -> usize {
        let d = domains.to_vec();
        with_store(&self.store, move |s| s.companies_by_domains(&d))
            .await
            .map(|m| m.len())
            .unwrap_or(0)
    }

    /// The people the store holds for batch items, by item key: by id (`person:`), by handle
    /// (`handle:`), or as matched by an earlier batch (`match:`); none when it cannot be read.
    pub async fn stored_people_of(
        &self,
        items: &[crate::engine::PersonItem],
    ) -> HashMap<String, prospect_store::Stored<prospect_api::types::Person>> {
        let ids: Vec<String> = items
            .iter()
            .filter_map(|i| i.id())
            .map(str::to_string)
            .collect();
        let handles: Vec<String> = items
            .iter()
            .filter_map(|i| i.handle())
            .map(str::to_string)
            .collect();
        let matches: Vec<String> = items
            .iter()
            .filter(|i| i.key.starts_with("match:"))
            .map(|i| i.key.clone())
            .collect();
        with_store(&self.store, move |s| {
            let mut out = HashMap::new();
            for (id, hit) in s.people_by_ids(&ids)? {
                out.insert(format!("person:{id}"), hit);
            }
            for (h, hit) in s.people_by_handles(&handles)? {
                out.insert(format!("handle:{h}"), hit);
            }
            out.extend(s.people_by_match_keys(&matches)?);
            Ok(out)
        })
        .await
        .unwrap_or_default()
    }

    /// How many of the claim `keys` a call answered by webhook still awaits: sent (by any
    /// process on the store) and neither delivered nor past their lease. 0 when the store
    /// cannot be read (nothing more to wait for).
    pub async fn awaited(&self, keys: &[String]) -> usize {
        let keys = keys.to_vec();
        with_store(&self.store, move |s| s.pending(&keys))
            .await
            .map_or(0, |p| p.len())
    }

    /// The companies the store holds of `domains` (normalized), by domain; none when it
    /// cannot be read.
    pub async fn stored_companies(
        &self,
        domains: &[String],
    ) -> HashMap<String, prospect_store::Stored<prospect_api::types::Company>> {
        let d = domains.to_vec();
        with_store(&self.store, move |s| s.companies_by_domains(&d))
            .await
            .unwrap_or_default()
    }

    /// Joins the contacts the store holds into `people` ([`prospect_store::StoredContacts::join`]):
    /// every view and output of people shows what was revealed, whichever view or process
    /// revealed it (issue 16). A store that cannot be read leaves the records as they are.
    pub async fn join_contacts(&self, people: &mut [&mut prospect_api::types::Person]) {
        if people.is_empty() {
            return;
        }
        let ids: Vec<String> = people.iter().map(|p| p.id.clone()).collect();
        if let Ok(stored) = with_store(&self.store, move |s| s.stored_contacts_of(&ids)).await {
            stored.join(people);
        }
    }

    /// [`Session::join_contacts`] into the people of a search answer (none for companies).
    pub async fn join_page_contacts(&self, page: &mut SearchResponse) {
        self.join_contacts(&mut page.people_mut()).await;
    }

    /// Contacts of `kind` the store holds for `person_ids` with a final status (anything but
    /// `inProgress`), by person id.
    pub async fn stored_contacts(
        &self,
        person_ids: &[String],
        kind: ContactKind,
    ) -> HashMap<String, Contact> {
        let ids = person_ids.to_vec();
        with_store(&self.store, move |s| s.contacts_for(&ids, kind))
            .await
            .unwrap_or_default()
            .into_iter()
            .filter(|(_, c)| c.status != "inProgress")
            .collect()
    }
}

/// A lookup's entries and its run report as the session's [`Lookup`]; the report's error as an
/// [`ApiError`] (another failure as [`ApiError::Network`] with its message).
fn lookup_of<T>(
    entries: Vec<LookupEntry<T>>,
    report: crate::engine::RunReport,
) -> Result<Lookup<T>, ApiError> {
    if let Some(e) = report.error {
        return Err(match e {
            crate::engine::RunError::Api(a) => a,
            other => ApiError::Network(other.to_string()),
        });
    }
    Ok(Lookup {
        from_store: entries.iter().filter(|e| e.stored_at.is_some()).count(),
        sent: report.bought as usize,
        entries,
        charged: report.charged,
        purchases: Vec::new(),
        requests: report.requests as usize,
        store_error: report.store_errors.into_iter().next(),
        unread: (report.unread > 0 || !report.decode_errors.is_empty()).then(|| {
            format!(
                "{} key(s) did not read ({}); looked up again, only they are bought",
                report.unread,
                report.decode_errors.first().map_or("", String::as_str)
            )
        }),
    })
}
