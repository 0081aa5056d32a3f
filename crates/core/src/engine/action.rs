//! A paid action, as a job stores it to run again (what to buy, never how), and the check of a
//! search body's paging members before anything is planned.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use prospect_api::client::Endpoint;
use prospect_common::ContactKind;

use super::keys::KeySource;

/// A paid action, as a job stores it to run it again: what to buy, never how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// Up to `limit` results of a list search (SPEC.md §4.2, §4.3), paging with `searchAfter`.
    Search {
        /// The search endpoint's path, e.g. `/v3/search/companies`.
        endpoint: String,
        /// The request body without paging members.
        body: Value,
        /// Most results.
        limit: u64,
        /// The saved filter set it runs, recorded with its results (issue 37); new-only sends
        /// what the set's earlier runs bought as excludes. Absent in jobs recorded before.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        set: Option<super::SetSearch>,
    },
    /// A lookup of companies by domain (SPEC.md §4.5).
    LookupCompanies {
        /// The domains.
        keys: KeySource,
    },
    /// A lookup of people by professional-network handle, or service id with `ids` (§4.6).
    LookupPeople {
        /// The handles or ids.
        keys: KeySource,
        /// The keys are service ids.
        ids: bool,
        /// Each key is looked up by its shape (a list that mixes them, as the explorer's
        /// `Ctrl-l` takes): a service id ([`super::is_service_id`]) by id, anything else by
        /// handle; `ids` is then ignored. Absent in jobs recorded before it (`false`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        by_shape: bool,
    },
    /// A reveal of emails or phones of person ids (§4.10, §4.7); results by webhook.
    Reveal {
        /// Email or phone.
        contact: ContactKind,
        /// The person ids.
        keys: KeySource,
    },
    /// An enrichment of one company by domain (§4.10).
    EnrichCompany {
        /// The domain.
        domain: String,
    },
    /// An enrichment of one person (§4.4): the request body.
    EnrichPerson {
        /// `EnrichPersonRequest` as JSON.
        request: Value,
    },
    /// A batch enrichment of companies by domain (`POST /v2/enrich/companies`, openapi.json;
    /// issue 18); results by webhook.
    EnrichCompanies {
        /// The domains.
        keys: KeySource,
    },
    /// A batch enrichment of people (`POST /v2/enrich/people`, openapi.json; issue 18); results
    /// by webhook.
    EnrichPeople {
        /// One person a line ([`person_item`]).
        keys: KeySource,
    },
    /// A segmentation of company domains (`POST /v2/segmentation`, openapi.json; issue 18):
    /// bought once per input ([`crate::segment::input_key`]).
    Segment {
        /// `SegmentationInput` as JSON.
        request: Value,
    },
}

impl Action {
    /// The search of up to `limit` results of `body` at `endpoint` (SPEC.md §4.2–§4.4), running
    /// `set` when given: the body's paging members (`searchAfter`, `from`, `size`) are left
    /// out, as the run pages by the one paging rule. Check them first with [`check_paging`].
    pub fn search(
        endpoint: Endpoint,
        body: &Value,
        limit: u64,
        set: Option<super::SetSearch>,
    ) -> Action {
        let mut body = body.clone();
        if let Value::Object(m) = &mut body {
            for member in ["searchAfter", "from", "size"] {
                m.remove(member);
            }
        }
        Action::Search {
            endpoint: endpoint.path().to_string(),
            body,
            limit,
            set,
        }
    }

    /// The job kind: `search`, `lookup_companies`, `lookup_people`, `reveal_emails`,
    /// `reveal_phones`, `enrich_company`, `enrich_person`, `enrich_companies`, `enrich_people`.
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Search { .. } => "search",
            Action::LookupCompanies { .. } => "lookup_companies",
            Action::LookupPeople { .. } => "lookup_people",
            Action::Reveal {
                contact: ContactKind::Email,
                ..
            } => "reveal_emails",
            Action::Reveal {
                contact: ContactKind::Phone,
                ..
            } => "reveal_phones",
            Action::EnrichCompany { .. } => "enrich_company",
            Action::EnrichPerson { .. } => "enrich_person",
            Action::EnrichCompanies { .. } => "enrich_companies",
            Action::EnrichPeople { .. } => "enrich_people",
            Action::Segment { .. } => "segmentation",
        }
    }

    /// What it asks, canonical: the same command gives the same text (a job's fingerprint).
    pub fn fingerprint(&self) -> String {
        serde_json::to_string(&prospect_store::canonical_json(
            &serde_json::to_value(self).unwrap_or(Value::Null),
        ))
        .unwrap_or_default()
    }

    /// The endpoint it buys from.
    pub fn endpoint(&self) -> Option<Endpoint> {
        Some(match self {
            Action::Search { endpoint, .. } => return Endpoint::from_path(endpoint),
            Action::LookupCompanies { .. } => Endpoint::LookupCompanies,
            Action::LookupPeople { .. } => Endpoint::LookupPeople,
            Action::Reveal { contact, .. } => prospect_api::cost::reveal_endpoint(*contact),
            Action::EnrichCompany { .. } => Endpoint::EnrichCompany,
            Action::EnrichPerson { .. } => Endpoint::EnrichPerson,
            Action::EnrichCompanies { .. } => Endpoint::EnrichCompanies,
            Action::EnrichPeople { .. } => Endpoint::EnrichPeople,
            Action::Segment { .. } => Endpoint::CreateSegmentation,
        })
    }
}

/// Checks a search body's paging members before anything is planned or sent: `size` and
/// `from`, when present, must be integers in range (SPEC.md §8: size 1..=10000, from
/// 1..=10001), never replaced by a default. Errors name the member and the value.
pub fn check_paging(body: &Value) -> Result<(), String> {
    for (member, lo, hi) in [("size", 1i64, 10_000i64), ("from", 1, 10_001)] {
        let Some(v) = body.get(member) else { continue };
        let ok = match v {
            Value::Number(n) => n.as_i64().is_some_and(|x| (lo..=hi).contains(&x)),
            _ => false,
        };
        if !ok {
            return Err(format!(
                "body member {member} is {v}; it must be a whole number from {lo} to {hi}"
            ));
        }
    }
    Ok(())
}
