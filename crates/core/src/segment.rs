//! ICP segmentation for every front end (openapi.json `/v2/segmentation…`; issue 18): the one
//! paid call (creating a segmentation, 0.1 credit a distinct domain) goes through the spend
//! engine and is bought once per input; reading it, marking domains and attributing domains
//! are free and go straight to the service. Every answer read is kept in the store
//! ([`prospect_store::SegmentationRow`]), so a segmentation's segments are there without the
//! service.

use prospect_common::keys::distinct_domains;

use crate::session::{Freshness, Paid, Session, with_store};
use prospect_api::client::{Endpoint, ForSegmentation};
use prospect_api::error::ApiError;
use prospect_api::types::{
    ATTRIBUTE_MAX, AddMarkedDomainsInput, AttributeDomainsRequest, AttributeDomainsResponse,
    MarkType, Segmentation, SegmentationId, SegmentationInput,
};
use prospect_store::SegmentationRow;

/// How often a segmentation is read while waiting for it.
pub const READY_POLL: std::time::Duration = std::time::Duration::from_millis(250);
/// How long an attribution waits for a segmentation the store saw succeed.
pub const READY_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// The key of a segmentation's input, `segmentation:<16 hex>` (SHA-256 of its canonical form:
/// the distinct domains of each list sorted, the features sorted, the mode): the same
/// customers in another order or case, or given twice, are the same input, owned once bought.
pub fn input_key(input: &SegmentationInput) -> String {
    use sha2::{Digest, Sha256};
    let sorted = |list: Option<&Vec<String>>| {
        let mut d = list.map(distinct_domains).unwrap_or_default();
        d.sort();
        d
    };
    let mut features: Vec<String> = input
        .lead_scoring_features
        .iter()
        .flatten()
        .map(|f| f.to_string())
        .collect();
    features.sort();
    features.dedup();
    let canonical = serde_json::json!({
        "domains": sorted(Some(&input.domains)),
        "features": features,
        "mode": input.number_of_segments_mode.unwrap_or(0),
        "positive": sorted(input.positive_domains.as_ref()),
        "negative": sorted(input.negative_domains.as_ref()),
    });
    let digest = Sha256::digest(canonical.to_string().as_bytes());
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("segmentation:{hex}")
}

/// `answer` with every text made safe to show and keep (control characters and escape
/// sequences stripped: names and traits come from the service).
fn sanitized(answer: Segmentation) -> Segmentation {
    let Ok(mut v) = serde_json::to_value(&answer) else {
        return answer;
    };
    prospect_common::sanitize::sanitize_value(&mut v);
    serde_json::from_value(v).unwrap_or(answer)
}

impl Session {
    /// Creates a segmentation of `input` (`POST /v2/segmentation`; 0.1 credit per distinct
    /// domain), or answers the one the store bought for the same input ([`input_key`]) at 0
    /// credits unless `fresh` refreshes. Claimed under the input's key, so two processes never
    /// buy the same input twice; kept as a purchase and a segmentation row.
    ///
    /// Errors: [`ApiError::Invalid`] before sending (an unknown feature); the client's.
    pub async fn create_segmentation(
        &self,
        input: &SegmentationInput,
        fresh: Freshness,
    ) -> Result<Paid<SegmentationId>, ApiError> {
        prospect_api::client::check(input)?;
        let key = input_key(input);
        let looked = crate::engine::looked_at(fresh == Freshness::Refresh);
        let stored = || {
            let (store, target, key) =
                (self.store().clone(), self.target().to_string(), key.clone());
            async move {
                let (id, at) = with_store(&store, move |s| {
                    if let Some(row) = s.segmentation_by_input(&target, &key)? {
                        return Ok(Some((row.id, row.created_at)));
                    }
                    // Settled by another process that has not written its row yet: the
                    // purchase that settled the claim holds the id.
                    let Some((purchase, at)) = s.claim_purchase(&key)? else {
                        return Ok(None);
                    };
                    Ok(s.purchase_answer(purchase)?
                        .and_then(|v| serde_json::from_value::<SegmentationId>(v).ok())
                        .map(|a| (a.segmentation_id, at)))
                })
                .await
                .ok()
                .flatten()?;
                Some(Paid::from_store(
                    SegmentationId {
                        segmentation_id: id,
                    },
                    at,
                ))
            }
        };
        if fresh == Freshness::Stored
            && let Some(hit) = stored().await
        {
            return Ok(hit);
        }
        let paid = crate::engine::buy_claimed(self, input, key.clone(), looked, stored).await?;
        if paid.stored_at.is_none() {
            let (target, id, purchase) = (
                self.target().to_string(),
                paid.value.segmentation_id,
                paid.purchase,
            );
            let domains = distinct_domains(&input.domains).len() as i64;
            if let Err(e) = with_store(self.store(), move |s| {
                s.record_segmentation(&target, id, &key, domains, purchase)
            })
            .await
            {
                tracing::warn!(error = %e, id, "the segmentation row was not written; its purchase keeps its id");
            }
        }
        Ok(paid)
    }

    /// Reads segmentation `id` (`GET /v2/segmentation/{id}`, free) and keeps the answer in the
    /// store, sanitized.
    ///
    /// Errors: the client's ([`ApiError::NotFound`] for an id the account does not have).
    pub async fn segmentation(&self, id: i64) -> Result<Segmentation, ApiError> {
        let answer = sanitized(self.client().get_segmentation(id).await?);
        let (target, kept) = (self.target().to_string(), answer.clone());
        if let Err(e) = with_store(self.store(), move |s| {
            s.keep_segmentation_answer(&target, &kept)
        })
        .await
        {
            tracing::warn!(error = %e, id, "a segmentation answer was not kept");
        }
        Ok(answer)
    }

    /// Polls segmentation `id` every `every` until it is no longer `IN_PROGRESS` or `timeout`
    /// passed; the last answer read.
    ///
    /// Errors: the client's.
    pub async fn await_segmentation(
        &self,
        id: i64,
        every: std::time::Duration,
        timeout: std::time::Duration,
    ) -> Result<Segmentation, ApiError> {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let s = self.segmentation(id).await?;
            if s.status != prospect_api::types::SegmentationStatus::InProgress
                || std::time::Instant::now() >= deadline
            {
                return Ok(s);
            }
            tokio::time::sleep(every).await;
        }
    }

    /// `true` when the store kept a `SUCCESSFUL` answer of segmentation `id`.
    pub async fn succeeded_before(&self, id: i64) -> bool {
        self.stored_segmentation(id)
            .await
            .is_some_and(|r| r.status == prospect_api::types::SegmentationStatus::Successful)
    }

    /// The store's row of segmentation `id` of this session's service (its last answer read),
    /// without asking the service.
    pub async fn stored_segmentation(&self, id: i64) -> Option<SegmentationRow> {
        let target = self.target().to_string();
        with_store(self.store(), move |s| s.segmentation(&target, id))
            .await
            .ok()
            .flatten()
    }

    /// The segmentations the store has of this session's service, newest first.
    pub async fn stored_segmentations(&self, limit: usize) -> Vec<SegmentationRow> {
        let target = self.target().to_string();
        with_store(self.store(), move |s| s.segmentations(&target, limit))
            .await
            .unwrap_or_default()
    }

    /// Appends `domains` to segmentation `id`'s positive or negative list (free).
    ///
    /// Errors: [`ApiError::Invalid`] for no domain; the client's.
    pub async fn mark_segmentation(
        &self,
        id: i64,
        kind: MarkType,
        domains: Vec<String>,
    ) -> Result<(), ApiError> {
        if domains.is_empty() {
            return Err(ApiError::Refused("no domain to mark".into()));
        }
        self.client()
            .mark_segmentation_domains(&ForSegmentation {
                segmentation_id: id,
                body: AddMarkedDomainsInput { domains, kind },
            })
            .await?;
        Ok(())
    }

    /// Attributes `domains` to segmentation `id`'s segments (free), [`ATTRIBUTE_MAX`] a
    /// request: one result per domain, in order, with the totals summed.
    ///
    /// Errors: [`ApiError::SegmentationNotReady`] until it succeeded; the client's. Results of
    /// requests before a failing one are dropped with it (nothing was paid for them).
    pub async fn attribute_segmentation(
        &self,
        id: i64,
        domains: &[String],
    ) -> Result<AttributeDomainsResponse, ApiError> {
        let mut out = AttributeDomainsResponse::default();
        for chunk in domains.chunks(ATTRIBUTE_MAX) {
            let req = ForSegmentation {
                segmentation_id: id,
                body: AttributeDomainsRequest {
                    domains: chunk.to_vec(),
                },
            };
            let r = match self.client().attribute_segmentation_domains(&req).await {
                // The store saw it succeed: the service is computing it again (a sandbox that
                // started again); wait for it once.
                Err(ApiError::SegmentationNotReady) if self.succeeded_before(id).await => {
                    self.await_segmentation(id, READY_POLL, READY_WAIT).await?;
                    self.client().attribute_segmentation_domains(&req).await?
                }
                r => r?,
            };
            out.total_requested += r.total_requested;
            out.total_attributed += r.total_attributed;
            out.results.extend(r.results);
        }
        for r in &mut out.results {
            r.domain = prospect_common::sanitize::sanitize(&r.domain);
        }
        Ok(out)
    }
}

/// The price of segmenting `distinct` domains at the session's prices.
pub fn segmentation_cost(distinct: usize) -> prospect_api::cost::Cost {
    prospect_api::cost::DEFAULT_PRICES
        .charge_for(
            Endpoint::CreateSegmentation,
            &prospect_api::cost::Quantities {
                results: distinct as u64,
                ..Default::default()
            },
        )
        .rounded()
}

/// When the store holds a segmentation bought for `input` on this session's service: its row.
pub async fn owned(s: &Session, input: &SegmentationInput) -> Option<SegmentationRow> {
    let (target, key) = (s.target().to_string(), input_key(input));
    with_store(s.store(), move |st| st.segmentation_by_input(&target, &key))
        .await
        .ok()
        .flatten()
}
