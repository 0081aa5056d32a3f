//! ICP segmentation (openapi.json only; outside SPEC.md's scope): group a set of company domains
//! (typically the caller's customers) into segments by their shared traits, then attribute other
//! domains to the closest segment (openapi `SegmentationInput`, `SegmentationId`,
//! `Segmentation`, `Segment`, `ScoringFeature`, `SegmentCrmMetrics`, `SegmentationStatus`,
//! `AddMarkedDomainsInput`, `StatusResponse`, `AttributeSegmentationDomainsRequest`,
//! `AttributeSegmentationDomainsResponse`, `AttributedDomain`).
//!
//! - `POST /v2/segmentation` ([`SegmentationInput`] → [`SegmentationId`]) starts one; it runs
//!   asynchronously.
//! - `GET /v2/segmentation/{segmentation_id}` ([`Segmentation`]) reads it: `IN_PROGRESS`, then
//!   `SUCCESSFUL` with its segments (or `FAILED`).
//! - `POST …/markDomains` ([`AddMarkedDomainsInput`] → [`StatusResponse`]) appends domains to
//!   its positive or negative list.
//! - `POST …/attribute-domains` ([`AttributeDomainsRequest`] → [`AttributeDomainsResponse`])
//!   assigns up to 1,000 domains to segments with a 0–1 score; 412 "Segmentation must be re-run
//!   to enable attribution." when the segmentation has not succeeded.
//!
//! Requests are not strict here: openapi.json does not forbid extra members on these bodies.

use serde::{Deserialize, Serialize};

use super::common::{Validate, ValidationError};
use super::filters_v2::{LocPath, wire_checks};

wire_enum!(
    /// A company attribute a segmentation groups and scores by (openapi
    /// `SegmentationInput.leadScoringFeatures` items).
    LeadScoringFeature {
        CompanySize => "company_size", IndustryCategories => "industry_categories",
        Industries => "industries", LinkedinIndustry => "linkedin_industry",
        Countries => "countries", PrimaryCountry => "primary_country", Ecommerce => "ecommerce",
        IsSmallSite => "is_small_site", Technologies => "technologies",
        TechnologyCategories => "technology_categories", Keywords => "keywords",
        YearFounded => "year_founded", InternationalPresence => "international_presence",
        MultipleLocations => "multiple_locations", WebTrafficVisits => "web_traffic_visits",
        Revenue => "revenue", HeadcountGrowth3m => "headcount_growth_3m",
        HeadcountGrowth6m => "headcount_growth_6m", HeadcountGrowth12m => "headcount_growth_12m",
        HeadcountGrowth3mPercentage => "headcount_growth_3m_percentage",
        HeadcountGrowth6mPercentage => "headcount_growth_6m_percentage",
        HeadcountGrowth12mPercentage => "headcount_growth_12m_percentage",
    }
);

impl LeadScoringFeature {
    /// The set used when a request names none (`leadScoringFeatures` omitted or null): industries,
    /// technologies, size, primary country, keywords, founding year and 12-month head-count
    /// growth.
    pub const DEFAULT: [LeadScoringFeature; 7] = [
        LeadScoringFeature::Industries,
        LeadScoringFeature::Technologies,
        LeadScoringFeature::CompanySize,
        LeadScoringFeature::PrimaryCountry,
        LeadScoringFeature::Keywords,
        LeadScoringFeature::YearFounded,
        LeadScoringFeature::HeadcountGrowth12mPercentage,
    ];
}

wire_enum!(
    /// Where a segmentation is (openapi `SegmentationStatus`).
    SegmentationStatus { InProgress => "IN_PROGRESS", Successful => "SUCCESSFUL", Failed => "FAILED" }
);

wire_enum!(
    /// Which list `markDomains` appends to (openapi `AddMarkedDomainsInput.type`).
    MarkType { Positive => "positive", Negative => "negative" }
);

/// Body of `POST /v2/segmentation` (openapi `SegmentationInput`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SegmentationInput {
    /// Company domains to segment (typically the caller's customers).
    pub domains: Vec<String>,
    /// Company attributes to group and score by; `None` for [`LeadScoringFeature::DEFAULT`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead_scoring_features: Option<Vec<LeadScoringFeature>>,
    /// Bias toward fewer (negative) or more (positive) segments; `None` lets the service choose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number_of_segments_mode: Option<i64>,
    /// Companies that are a good fit: the segmentation leans toward them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub positive_domains: Option<Vec<String>>,
    /// Companies that are a poor fit: the segmentation leans away from them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub negative_domains: Option<Vec<String>>,
}

impl Validate for SegmentationInput {
    /// Every `leadScoringFeatures` item a known feature (`enum`).
    fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        let body = LocPath::body();
        wire_checks::all_known(
            &self.lead_scoring_features,
            &body.key("leadScoringFeatures"),
            &mut out,
        );
        out
    }
}

/// Response 200 of `POST /v2/segmentation` (openapi `SegmentationId`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SegmentationId {
    /// The new segmentation's id; poll it with `GET /v2/segmentation/{segmentation_id}`.
    pub segmentation_id: i64,
}

/// A company attribute that defines a segment (openapi `ScoringFeature`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoringFeature {
    /// The feature, a [`LeadScoringFeature`] wire name (e.g. `industries`).
    #[serde(default)]
    pub feature_name: String,
    /// The value that defines the segment (e.g. `Software Development`, `51-200`).
    #[serde(default)]
    pub feature_value: String,
    /// Its relative weight in the segment, 0–1 (the strongest trait of a segment is 1).
    #[serde(default)]
    pub score: f64,
}

/// Deal performance of a segment from the caller's CRM (openapi `SegmentCrmMetrics`); the
/// sandbox has no CRM and answers `null` instead.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SegmentCrmMetrics {
    /// Average deal value.
    #[serde(default)]
    pub average_deal_value: Option<f64>,
    /// Average time to close, days.
    #[serde(default)]
    pub average_time_to_close: Option<f64>,
    /// Win rate, 0–1.
    #[serde(default)]
    pub win_rate: Option<f64>,
    /// Companies of the segment with no CRM activity yet.
    #[serde(default)]
    pub untouched_count: Option<i64>,
}

/// One segment of a segmentation (openapi `Segment`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Segment {
    /// Its id within the segmentation (1, 2, …).
    pub segment_id: i64,
    /// A label from its defining traits, e.g. `Software Development · United States`.
    #[serde(default)]
    pub name: String,
    /// The domains of the input assigned to it.
    #[serde(default)]
    pub domains: Vec<String>,
    /// `domains.len()`.
    #[serde(default)]
    pub company_count: i64,
    /// Its defining traits, strongest first.
    #[serde(default)]
    pub traits: Option<Vec<ScoringFeature>>,
    /// Deal performance from a connected CRM; `None` without one.
    #[serde(default)]
    pub crm_metrics: Option<SegmentCrmMetrics>,
    /// How many companies of the whole dataset look like it.
    #[serde(default)]
    pub lookalike_count: Option<i64>,
}

/// Response 200 of `GET /v2/segmentation/{segmentation_id}` (openapi `Segmentation`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Segmentation {
    /// Its id.
    pub segmentation_id: i64,
    /// The segments; empty while [`SegmentationStatus::InProgress`].
    #[serde(default)]
    pub segments: Vec<Segment>,
    /// Where it is.
    pub status: SegmentationStatus,
    /// Lookalike companies across all segments, each counted once.
    #[serde(default)]
    pub total_addressable_market: Option<i64>,
    /// Companies of the addressable market with no CRM activity; `None` without a CRM.
    #[serde(default)]
    pub total_untouched: Option<i64>,
}

// The enum is made by `wire_enum!`, which takes no `#[default]`.
#[allow(clippy::derivable_impls)]
impl Default for SegmentationStatus {
    fn default() -> Self {
        SegmentationStatus::InProgress
    }
}

/// Body of `POST /v2/segmentation/{segmentation_id}/markDomains` (openapi
/// `AddMarkedDomainsInput`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AddMarkedDomainsInput {
    /// The domains to add to the list.
    pub domains: Vec<String>,
    /// Which list: good fit (`positive`) or poor fit (`negative`).
    #[serde(rename = "type")]
    pub kind: MarkType,
}

impl Validate for AddMarkedDomainsInput {
    /// `type` one of `positive`, `negative`.
    fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        wire_checks::known(&self.kind, &LocPath::body().key("type"), &mut out);
        out
    }
}

/// Response 200 of `markDomains` (openapi `StatusResponse`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusResponse {
    /// `"ok"` in the sandbox.
    #[serde(default)]
    pub status: String,
}

/// Most domains of one attribution (openapi `AttributeSegmentationDomainsRequest.domains`
/// `maxItems`).
pub const ATTRIBUTE_MAX: usize = 1000;

/// Body of `POST /v2/segmentation/{segmentation_id}/attribute-domains` (openapi
/// `AttributeSegmentationDomainsRequest`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttributeDomainsRequest {
    /// 1..=[`ATTRIBUTE_MAX`] domains.
    pub domains: Vec<String>,
}

impl Validate for AttributeDomainsRequest {
    /// 1..=1,000 domains (`too_short` / `too_long`).
    fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        let at = LocPath::body();
        let at = at.key("domains");
        wire_checks::min_items(self.domains.len(), 1, &at, &mut out);
        wire_checks::max_items(self.domains.len(), ATTRIBUTE_MAX, &at, &mut out);
        out
    }
}

/// One domain of an attribution (openapi `AttributedDomain`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttributedDomain {
    /// The domain as asked.
    pub domain: String,
    /// The closest segment; `None` when none is close enough (or the domain is unknown).
    #[serde(default)]
    pub segment_id: Option<i64>,
    /// How close, 0–1; `None` with no segment.
    #[serde(default)]
    pub score: Option<f64>,
}

/// Response 200 of `attribute-domains` (openapi `AttributeSegmentationDomainsResponse`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttributeDomainsResponse {
    /// One per input domain, in input order.
    #[serde(default)]
    pub results: Vec<AttributedDomain>,
    /// How many were asked.
    #[serde(default)]
    pub total_requested: i64,
    /// How many got a segment.
    #[serde(default)]
    pub total_attributed: i64,
}
