//! Reference data, credit balance and warmup (SPEC.md §2.8, §2.9, §4.8, §4.9, §4.10; openapi
//! `PublicGetDataFieldsResponse`, `PublicIndustries`, `PublicTechnology`,
//! `PublicCountryCodeToRegionMapping`, `GetCreditBalanceResponse`, `Credits`,
//! `WarmupCompaniesBody`, `WarmupCompaniesResult`).

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};

use super::common::{Department, Seniority, Validate, ValidationError, lenient};
use super::company::DomainStatus;
use super::filters_v2::{LocPath, wire_checks};

/// Response 200 of `GET /v2/data-fields` (SPEC.md §2.8, §4.8): the searchable values. Free.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DataFields {
    /// Industries grouped by category.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub industries: Vec<IndustryGroup>,
    /// Professional-network industry labels.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub linkedin_industries: Vec<String>,
    /// Technologies with their categories. Read from an array (openapi.json) or from a single
    /// object (SPEC.md §2.8); always written as an array (NOTES.md).
    #[serde(default, deserialize_with = "technologies_one_or_many")]
    pub technologies: Vec<Technology>,
    /// Regions per country, keyed by lowercase two-letter country code.
    #[serde(default)]
    pub regions: BTreeMap<String, Vec<Region>>,
    /// Every seniority value.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub seniorities: Vec<Seniority>,
    /// Every department value.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub departments: Vec<Department>,
}

fn technologies_one_or_many<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Technology>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        Many(Vec<Technology>),
        One(Technology),
    }
    Ok(match Option::<OneOrMany>::deserialize(d)? {
        None => Vec::new(),
        Some(OneOrMany::Many(v)) => v,
        Some(OneOrMany::One(t)) => vec![t],
    })
}

/// An industry category and its industries (openapi `PublicIndustries`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndustryGroup {
    /// Industries of the category.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub industries: Vec<String>,
    /// Category name, e.g. `"Administrative Services"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub industry_category: Option<String>,
}

/// A technology and its categories (openapi `PublicTechnology`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Technology {
    /// Technology name, e.g. `"ChatStack"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Categories, e.g. `["Chat"]`.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub categories: Vec<String>,
}

/// A region of a country (openapi `PublicCountryCodeToRegionMapping`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Region {
    /// ISO 3166-2 code, e.g. `"nl-NH"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// English name, e.g. `"North Holland"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub english_name: Option<String>,
    /// Local name, e.g. `"Noord-Holland"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_name: Option<String>,
}

/// One credit pool (SPEC.md §2.9; openapi `Credits`). Numbers, not integers: costs have
/// fractions (NOTES.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Credits {
    /// One-time credits left.
    #[serde(default)]
    pub one_time: f64,
    /// Recurrent (per-period) credits left.
    #[serde(default)]
    pub recurrent: f64,
}

impl Credits {
    /// One-time plus recurrent credits left.
    pub fn total(&self) -> f64 {
        self.one_time + self.recurrent
    }
}

/// Response 200 of `GET /v2/credits/balance` (SPEC.md §2.9, §4.9; openapi `GetCreditBalanceResponse`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreditBalance {
    /// Standard credits (searches, enrich, lookup, autocomplete).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credits: Option<Credits>,
    /// Email credits (email reveals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email_credits: Option<Credits>,
    /// Phone credits (phone reveals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone_credits: Option<Credits>,
    /// Preview credits (people search preview).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview_credits: Option<Credits>,
    /// Requests left today.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub daily_limit_rate_left: Option<i64>,
    /// Seconds until the daily allowance resets.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub daily_limit_rate_seconds_to_reset: Option<i64>,
}

/// Most domains in one warmup request (openapi `maxItems`).
pub const WARMUP_MAX_DOMAINS: usize = 500;

/// Body of `POST /v2/warmup/companies` (SPEC.md §4.10; openapi `WarmupCompaniesBody`): domains to
/// check and crawl when missing. Free.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WarmupCompaniesRequest {
    /// Domains, 1..=500.
    pub domains: Vec<String>,
}

impl Validate for WarmupCompaniesRequest {
    /// `domains` 1..=500 (`too_short` / `too_long`).
    fn validate(&self) -> Vec<ValidationError> {
        let at = LocPath::body();
        let at = at.key("domains");
        let mut out = Vec::new();
        wire_checks::min_items(self.domains.len(), 1, &at, &mut out);
        wire_checks::max_items(self.domains.len(), WARMUP_MAX_DOMAINS, &at, &mut out);
        out
    }
}

/// Response 200 of `POST /v2/warmup/companies` (openapi `WarmupCompaniesResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WarmupCompaniesResponse {
    /// Already in the database.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub successful_domains: Vec<String>,
    /// Not in the database; a crawl was started.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub triggered_domains: Vec<String>,
    /// Invalid domains.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub ignored_domains: Vec<String>,
    /// Not in the database, with the crawl outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing_domains: Option<BTreeMap<String, DomainStatus>>,
    /// In the database but lacking data needed for lookalike search, with what is missing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_errors: Option<BTreeMap<String, DomainStatus>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn technologies_accept_array_and_single_object() {
        let a: DataFields =
            serde_json::from_str(r#"{"technologies":[{"name":"A","categories":["Chat"]}]}"#)
                .unwrap();
        let b: DataFields =
            serde_json::from_str(r#"{"technologies":{"name":"A","categories":["Chat"]}}"#).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.technologies.len(), 1);
        let v = serde_json::to_value(&b).unwrap();
        assert!(v["technologies"].is_array());
        let c: DataFields =
            serde_json::from_str(r#"{"seniorities":["Owner","Galactic"],"unknown":1}"#).unwrap();
        assert_eq!(c.seniorities[1], Seniority::Unknown("Galactic".into()));
    }

    #[test]
    fn credits_are_numbers_and_integers_read() {
        let b: CreditBalance = serde_json::from_str(
            r#"{"credits":{"oneTime":100,"recurrent":0.5},"emailCredits":{"oneTime":1.0},"dailyLimitRateLeft":10.0}"#,
        )
        .unwrap();
        assert_eq!(b.credits.unwrap().total(), 100.5);
        assert_eq!(b.email_credits.unwrap().recurrent, 0.0);
        assert_eq!(b.daily_limit_rate_left, Some(10));
        assert_eq!(b.phone_credits, None);
    }

    #[test]
    fn warmup_limits() {
        assert_eq!(
            WarmupCompaniesRequest::default().validate()[0].kind,
            "too_short"
        );
        let big = WarmupCompaniesRequest {
            domains: vec!["a".into(); 501],
        };
        assert_eq!(big.validate()[0].kind, "too_long");
        assert!(
            WarmupCompaniesRequest {
                domains: vec!["a".into()]
            }
            .validate()
            .is_empty()
        );
    }
}
