//! The company record and the company-search responses (SPEC.md §2.3, §4.2, §4.10; openapi
//! `PublicCompany`, `PublicCompanyWithScore`, `PublicCompanyWithRelevance`,
//! `PublicSearchCompaniesResult`, `PublicSearchCompaniesResultWithRelevance` and their parts).
//!
//! All types here are *responses*: tolerant readers. Unknown members are ignored, missing
//! optional members are `None` / empty, `null` arrays read as empty, integers accept `1.0`,
//! numbers accept `1`, and unknown enum values are kept as `Unknown(..)`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::common::{
    CompanySize, Department, FundingRoundType, Relevance, Revenue, WireEnum, lenient,
};

/// `Default` for a required enum member of a response that the server left out: `Unknown("")`.
pub(crate) fn unknown_enum<T: WireEnum>() -> T {
    T::from_wire("")
}

crate::wire_enum!(
    /// Why a domain given in `lookalikeDomains` / `includeDomains` (or to warmup) did not yield a
    /// result (SPEC.md §3 "missingDomains reasons"; openapi `missingDomains`,
    /// `includeDomainsStatuses`, `WarmupCompaniesResult.missingDomains` / `dataErrors`).
    /// The first four are data errors of a known domain, the rest crawl outcomes.
    DomainStatus {
        MissingContextVector => "missing context vector", MissingIndustries => "missing industries",
        MissingKeywords => "missing keywords", MissingIndustryCategories => "missing industry categories",
        BadContent => "bad content", CrawlerFailed => "crawler failed",
        DataGatheringStarted => "data gathering started", InProgress => "in progress",
        InvalidDomain => "invalid domain", OtherError => "other error",
        RobotsDisallowed => "robots disallowed", UnsupportedLanguage => "unsupported language",
        InvalidRedirect => "invalid redirect", SslCertificateError => "ssl certificate error",
    }
);

/// A company record (SPEC.md §2.3; openapi `PublicCompany`), as returned by company search v2/v3,
/// enrich company and lookup companies. Only `domain` is required; every other member may be
/// absent or `null`. Country codes are lowercase ISO 3166-1 alpha-2.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Company {
    /// Domain of the company, its unique identifier, e.g. `"dundermifflinpaper.com"`.
    #[serde(default)]
    pub domain: String,
    /// Every country the company operates in (lowercase two-letter codes).
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub countries: Vec<String>,
    /// Main country (lowercase two-letter code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primary_country: Option<String>,
    /// Head-count range label, one of the 12 `PublicCompanySize` labels (NOTES.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company_size: Option<CompanySize>,
    /// Industry categories (values listed by `/v2/data-fields`).
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub industry_categories: Vec<String>,
    /// Industries (values listed by `/v2/data-fields`).
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub industries: Vec<String>,
    /// Professional-network industry label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linkedin_industry: Option<String>,
    /// `true` for an e-commerce company.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ecommerce: Option<bool>,
    /// Keywords describing the company.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub keywords: Vec<String>,
    /// Number of people working at the company in the service's database (persons).
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub employee_count_service: Option<i64>,
    /// Number of people linked to the company's professional-network page (persons).
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub employee_count_linkedin: Option<i64>,
    /// Annual revenue range label (USD).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revenue: Option<Revenue>,
    /// Year founded, e.g. `1999`.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub year_founded: Option<i64>,
    /// Free-text description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Public email addresses of the company.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub emails: Vec<String>,
    /// Phone numbers of the company.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub phones: Vec<ContactNumber>,
    /// Logo URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo: Option<String>,
    /// Software technologies used by the company.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub technologies: Vec<String>,
    /// Categories of those technologies.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub technology_categories: Vec<String>,
    /// Mobile apps published by the company.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub mobile_apps: Vec<MobileApp>,
    /// Web traffic of the domain for the last available month.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub web_traffic: Option<WebTraffic>,
    /// Social-media pages, keyed by network.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub medias: Option<Medias>,
    /// Name of the company.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Legal name of the company.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal_name: Option<String>,
    /// Offices and addresses.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub locations: Vec<CompanyLocation>,
    /// Number of employees per department.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub department_sizes: Vec<DepartmentSize>,
    /// Root URL of the website, e.g. `"https://dundermifflinpaper.com/"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root_url: Option<String>,
    /// Fax numbers (same shape as `phones`).
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub faxes: Vec<ContactNumber>,
    /// Imprint data (Germany, Austria, Switzerland only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub impressum: Option<Impressum>,
    /// Latest funding round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub funding_round: Option<FundingRound>,
    /// Domains that redirect to this one (at most 10).
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub redirected_from: Vec<String>,
    /// Last update of the record, RFC 3339 timestamp, e.g. `"2022-08-22T12:09:37Z"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// Head-count growth of the whole company.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headcount_growth: Option<HeadcountGrowth>,
    /// Head-count growth per department.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub headcount_growth_per_department: Vec<DepartmentSizesGrowth>,
}

/// A phone or fax number of a company (SPEC.md §2.3 `phones`/`faxes`; openapi `ContactNumber`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContactNumber {
    /// The number as published, e.g. `"+1 212 456 7890"`.
    #[serde(default)]
    pub number: String,
    /// Country of the number (lowercase two-letter code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// `true` for the company's primary number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primary: Option<bool>,
}

/// A mobile app of a company (SPEC.md §2.3 `mobileApps`; openapi `MobileApp`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MobileApp {
    /// Store or website address of the app.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// App name.
    #[serde(default)]
    pub name: String,
}

/// Web traffic of a domain for the last available month (SPEC.md §2.3; openapi `WebTraffic`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebTraffic {
    /// Visits in the month.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub visits: Option<i64>,
    /// Page views in the month.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub page_views: Option<i64>,
    /// Average pages per visit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pages_per_visit: Option<f64>,
    /// Bounce rate as a fraction (0.5227 = 52.27 %).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounce_rate: Option<f64>,
}

/// Social-media pages of a company keyed by network (SPEC.md §2.3 `medias`; openapi `Medias`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Medias {
    /// Professional-network company page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linkedin: Option<Media>,
    /// Twitter / X page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twitter: Option<Media>,
    /// YouTube channel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub youtube: Option<Media>,
    /// Facebook page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facebook: Option<Media>,
    /// Xing page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xing: Option<Media>,
    /// TikTok account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiktok: Option<Media>,
    /// Instagram account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instagram: Option<Media>,
}

/// One social-media page (SPEC.md §2.3; openapi `Media`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Media {
    /// URL of the page (required on the wire).
    #[serde(default)]
    pub url: String,
    /// Handle extracted from the URL, e.g. `"dunder-mifflin"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handle: Option<String>,
    /// Name of the company as shown on the page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Specialties listed on the page (professional network only).
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub specialties: Vec<String>,
}

/// An office or address of a company (SPEC.md §2.3 `locations`; openapi
/// `public_api__models__company__Location`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompanyLocation {
    /// `true` for the headquarters (wire default `false`).
    #[serde(default)]
    pub primary: bool,
    /// Latitude, degrees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latitude: Option<f64>,
    /// Longitude, degrees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub longitude: Option<f64>,
    /// Country (lowercase two-letter code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// Locality (city).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locality: Option<String>,
    /// Region name, e.g. `"Lackawanna County"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// Postal code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub postal_code: Option<String>,
    /// Street address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub street_address: Option<String>,
    /// State abbreviation, e.g. `"pa"` (deprecated by the service; use `regionCode`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Region code, e.g. `"PA"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region_code: Option<String>,
}

/// Employees in one department (SPEC.md §2.3 `departmentSizes`; openapi `DepartmentSize`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DepartmentSize {
    /// The department.
    #[serde(default = "unknown_enum")]
    pub department: Department,
    /// Number of employees (persons).
    #[serde(default, deserialize_with = "lenient::i64_or_zero")]
    pub size: i64,
}

/// Company imprint data (SPEC.md §2.3 `impressum`; openapi `Impressum`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Impressum {
    /// Company name as written in the imprint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company: Option<String>,
    /// Postal address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// Email address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Phone number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// Fax number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fax: Option<String>,
    /// VAT number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vat: Option<String>,
    /// URL of the imprint page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// People named in the imprint.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub people: Vec<ImpressumPerson>,
}

/// A person named in an imprint (openapi `ImpressumPerson`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImpressumPerson {
    /// Full name (required on the wire).
    #[serde(default)]
    pub name: String,
    /// Position, e.g. `"Regional Manager"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
}

/// Latest funding round of a company (SPEC.md §2.3 `fundingRound`; openapi `FundingRound`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FundingRound {
    /// Date of the round, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Round type, e.g. `Seed`.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<FundingRoundType>,
    /// Money raised, USD (openapi: integer; fractions are rounded).
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub money_raised_in_usd: Option<i64>,
    /// URL of the round on Crunchbase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cb_url: Option<String>,
}

/// Head-count growth (SPEC.md §2.3 `headcountGrowth`; openapi `Growth`): absolute changes in
/// persons and relative changes as fractions (0.15 = +15 %).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HeadcountGrowth {
    /// Change over the last 3 months, persons (may be negative).
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub three_months: Option<i64>,
    /// Change over the last 3 months, fraction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub three_months_percentage: Option<f64>,
    /// Change over the last 6 months, persons.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub six_months: Option<i64>,
    /// Change over the last 6 months, fraction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub six_months_percentage: Option<f64>,
    /// Change over the last 12 months, persons.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub twelve_months: Option<i64>,
    /// Change over the last 12 months, fraction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twelve_months_percentage: Option<f64>,
}

/// Head-count growth of one department (SPEC.md §2.3; openapi `DepartmentSizesGrowth`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DepartmentSizesGrowth {
    /// The department.
    #[serde(default = "unknown_enum")]
    pub department: Department,
    /// Its growth; `null` on the wire when unknown (always written, the member is required).
    #[serde(default)]
    pub growth: Option<HeadcountGrowth>,
}

/// One result of company search v2: the company and its lookalike score (SPEC.md §4.2; openapi
/// `PublicCompanyWithScore`). `C` is the company record's type: [`Company`], except in the
/// sandbox, which writes records it serialized before ([`super::RecordJson`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompanyWithScore<C = Company> {
    /// The company found.
    #[serde(default)]
    pub company: C,
    /// Similarity score, 0.0..=1.0 (higher is closer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
}

/// One result of company search v3: the company and its relevance category (openapi
/// `PublicCompanyWithRelevance`). `C` as in [`CompanyWithScore`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompanyWithRelevance<C = Company> {
    /// The company found.
    #[serde(default)]
    pub company: C,
    /// Relevance category, `A` the most relevant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relevance: Option<Relevance>,
}

/// Response 200 of `POST /v2/search/companies` (SPEC.md §4.2; openapi `PublicSearchCompaniesResult`).
/// `C` as in [`CompanyWithScore`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(
    rename_all = "camelCase",
    bound(deserialize = "C: Deserialize<'de> + Default")
)]
pub struct SearchCompaniesV2Response<C = Company> {
    /// Cursor for the next page (send it back as `searchAfter`); `None` on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_after: Option<String>,
    /// Status text, `"OK"` on success.
    #[serde(default)]
    pub detail: String,
    /// Total number of results reachable by paging.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub total: Option<i64>,
    /// `lookalikeDomains` that could not be used, with the reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing_domains: Option<BTreeMap<String, DomainStatus>>,
    /// Domains given in filters mapped to the domains they redirect to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_map: Option<BTreeMap<String, String>>,
    /// Standard credits charged for this request (0.0 when the server omits it).
    #[serde(default)]
    pub credits_used: f64,
    /// The page of results, best first; empty when nothing matched.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub companies: Vec<CompanyWithScore<C>>,
}

/// Response 200 of `POST /v3/search/companies` (SPEC.md §4.10; openapi
/// `PublicSearchCompaniesResultWithRelevance`). `C` as in [`CompanyWithScore`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(
    rename_all = "camelCase",
    bound(deserialize = "C: Deserialize<'de> + Default")
)]
pub struct SearchCompaniesV3Response<C = Company> {
    /// Cursor for the next page; `None` on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_after: Option<String>,
    /// Status text, `"OK"` on success.
    #[serde(default)]
    pub detail: String,
    /// Total number of results reachable by paging.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub total: Option<i64>,
    /// `lookalikeDomains` that could not be used, with the reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing_domains: Option<BTreeMap<String, DomainStatus>>,
    /// Domains given in filters mapped to the domains they redirect to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_map: Option<BTreeMap<String, String>>,
    /// Standard credits charged for this request (0.0 when the server omits it).
    #[serde(default)]
    pub credits_used: f64,
    /// The page of results, most relevant first; empty when nothing matched.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub companies: Vec<CompanyWithRelevance<C>>,
    /// `includeDomains` that are not in the results, with the reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_domains_statuses: Option<BTreeMap<String, DomainStatus>>,
}

/// The company of a preview result (openapi `PublicPreviewCompany`). The nullable members are
/// required on the wire, so they are always written (`null` when `None`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PreviewCompany {
    /// Company name.
    #[serde(default)]
    pub name: String,
    /// Logo URL.
    #[serde(default)]
    pub logo: String,
    /// Up to 3 top industries.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub top_industries: Vec<String>,
    /// Size range label, e.g. `"501-1000"` (kept as text: the preview is not bound to the 12 labels).
    #[serde(default)]
    pub size: Option<String>,
    /// Description.
    #[serde(default)]
    pub description: String,
    /// Primary country (lowercase two-letter code).
    #[serde(default)]
    pub primary_country: Option<String>,
    /// Primary region code, e.g. `"CA"`.
    #[serde(default)]
    pub primary_region: Option<String>,
    /// Professional-network company handle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linkedin_handle: Option<String>,
}

/// One result of the company preview (openapi `PublicPreviewCompanyV3Result`): its 1-based rank,
/// relevance category and the masked company.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompanyPreviewResult {
    /// 1-based position in the results.
    #[serde(default, deserialize_with = "lenient::i64_or_zero")]
    pub ranking: i64,
    /// Relevance category, `A` the most relevant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relevance: Option<Relevance>,
    /// The masked company (openapi `PublicPreviewCompanyV3`, the shape of
    /// `PublicPreviewCompany`): no domain, so nothing to keep as an entity.
    #[serde(default)]
    pub company: PreviewCompany,
}

/// Response 200 of `POST /v3/search/companies/preview` (openapi
/// `PublicPreviewSearchCompaniesV3Response`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchCompaniesPreviewResponse {
    /// Companies matching the filters.
    #[serde(default, deserialize_with = "lenient::i64_or_zero")]
    pub total_hits: i64,
    /// Domains given in filters mapped to the domains they redirect to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_map: Option<BTreeMap<String, String>>,
    /// Standard credits charged (0.0 when the server omits it).
    #[serde(default)]
    pub credits_used: f64,
    /// The previews, most relevant first.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub companies: Vec<CompanyPreviewResult>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn company_tolerates_unknown_missing_null_and_number_shapes() {
        let c: Company = serde_json::from_str(
            r#"{"domain":"a.com","brandNewField":{"x":1},"countries":null,"employeeCountService":57.0,
                "webTraffic":{"visits":10.0,"bounceRate":1},"companySize":"1-2-3",
                "departmentSizes":[{"department":"Vibes","size":3.0}]}"#,
        )
        .unwrap();
        assert_eq!(c.domain, "a.com");
        assert!(c.countries.is_empty());
        assert_eq!(c.name, None);
        assert_eq!(c.employee_count_service, Some(57));
        let wt = c.web_traffic.as_ref().unwrap();
        assert_eq!((wt.visits, wt.bounce_rate), (Some(10), Some(1.0)));
        assert_eq!(c.company_size, Some(CompanySize::Unknown("1-2-3".into())));
        assert_eq!(
            c.department_sizes[0].department,
            Department::Unknown("Vibes".into())
        );
        assert_eq!(c.department_sizes[0].size, 3);
        let back = serde_json::to_value(&c).unwrap();
        assert!(back.get("countries").is_none() && back.get("brandNewField").is_none());
    }

    #[test]
    fn search_page_survives_unknown_enum_values() {
        let r: SearchCompaniesV3Response = serde_json::from_str(
            r#"{"detail":"OK","creditsUsed":1,"total":2.0,
                "companies":[{"company":{"domain":"a.com","revenue":"huge"},"relevance":"Z"},
                             {"company":{"domain":"b.com"},"relevance":"A"}],
                "includeDomainsStatuses":{"x.com":"moon phase"}}"#,
        )
        .unwrap();
        assert_eq!(r.companies.len(), 2);
        assert_eq!(
            r.companies[0].relevance,
            Some(Relevance::Unknown("Z".into()))
        );
        assert_eq!(r.companies[1].relevance, Some(Relevance::A));
        assert_eq!(r.total, Some(2));
        assert_eq!(r.credits_used, 1.0);
        let v2: SearchCompaniesV2Response = serde_json::from_str(r#"{"companies":null}"#).unwrap();
        assert!(v2.companies.is_empty() && v2.search_after.is_none());
    }
}
