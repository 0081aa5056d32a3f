//! The on-disk format of the sandbox dataset in `assets/` (written by [`super::build`], read by
//! [`super::load`]).
//!
//! `assets/dataset.postcard.zst` is a sequence of zstd frames (one valid `.zst` stream, so
//! `zstd -d` reads it whole), each holding one postcard value:
//! - frame 0: a [`Header`]: the format version (first, so another version is refused before
//!   anything else is parsed), the number of company frames, and the reference data;
//! - frames 1..: a `Vec<CompanyRow>` of up to [`COMPANIES_PER_FRAME`] companies each, in
//!   domain order.
//!
//! The company frames are independent so that start-up decompresses and parses them on every
//! core at once. Postcard keeps parsing ~40,000 companies fast; zstd keeps the committed file
//! small. Generated fields (those no open source has) are generated at build time,
//! deterministically from the domain, so the asset is the single truth and the sandbox does no
//! random work at start-up except generating people (see `load`).
//!
//! Bump [`FORMAT_VERSION`] whenever a struct here or the frame layout changes; the loader
//! refuses other versions.

use serde::{Deserialize, Serialize};

/// Version of this format; stored in [`Dataset::version`].
pub const FORMAT_VERSION: u32 = 2;

/// File name of the dataset inside `assets/`.
pub const DATASET_FILE: &str = "dataset.postcard.zst";

/// Companies per company frame of the asset (the last frame may hold fewer).
pub const COMPANIES_PER_FRAME: usize = 5_000;

/// Frame 0 of the asset.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Header {
    /// Must equal [`FORMAT_VERSION`].
    pub version: u32,
    /// Number of company frames that follow.
    pub company_frames: u32,
    /// Number of companies in them, all frames together.
    pub companies: u32,
    /// Reference data: `/v2/data-fields` and the vocabularies of the autocompletes.
    pub reference: Reference,
}

/// The uncompressed frames of `ds` in asset order: the postcard bytes of its [`Header`], then of
/// each chunk of [`COMPANIES_PER_FRAME`] companies. Errors only if serialization fails.
pub fn postcard_frames(ds: &Dataset) -> Result<Vec<Vec<u8>>, postcard::Error> {
    let chunks: Vec<&[CompanyRow]> = ds.companies.chunks(COMPANIES_PER_FRAME).collect();
    let header = Header {
        version: ds.version,
        company_frames: chunks.len() as u32,
        companies: ds.companies.len() as u32,
        reference: ds.reference.clone(),
    };
    let mut frames = vec![postcard::to_stdvec(&header)?];
    for chunk in chunks {
        frames.push(postcard::to_stdvec(chunk)?);
    }
    Ok(frames)
}

/// The whole sandbox dataset in memory: companies plus reference data (the asset stores it as
/// a [`Header`] and company frames, see the module docs).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Dataset {
    /// Must equal [`FORMAT_VERSION`].
    pub version: u32,
    /// Companies, de-duplicated by domain, sorted by domain.
    pub companies: Vec<CompanyRow>,
    /// Reference data: `/v2/data-fields` and the vocabularies of the autocompletes.
    pub reference: Reference,
}

/// One real company with its real fields and its deterministically generated ones
/// (SPEC.md §2.3 company record). Strings are already scrubbed of emails and phone numbers.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct CompanyRow {
    /// Registrable domain, lowercase, no `www.`, e.g. `stripe.com`.
    pub domain: String,
    /// Other domains that redirect to this one (lookup follows them), lowercase.
    pub aliases: Vec<String>,
    /// Display name.
    pub name: String,
    /// Legal name where a source has it.
    pub legal_name: Option<String>,
    /// Description, scrubbed; at most ~600 characters.
    pub description: String,
    /// Primary country, lowercase ISO 3166-1 alpha-2, e.g. `us`.
    pub country: String,
    /// All countries the company is in (primary first).
    pub countries: Vec<String>,
    /// ISO 3166-2 code of the HQ region, e.g. `US-CA`, where known.
    pub region_code: Option<String>,
    /// English name of the HQ region, e.g. `California`.
    pub region: Option<String>,
    /// HQ city.
    pub city: Option<String>,
    /// HQ postal code.
    pub postal_code: Option<String>,
    /// HQ street address (generated where unknown).
    pub street_address: Option<String>,
    /// HQ latitude and longitude in degrees (approximate; generated near the country/region).
    pub lat_lon: Option<(f64, f64)>,
    /// LinkedIn V2 top-level categories (`industryCategories`), e.g. `Technology, Information and Media`.
    pub industry_categories: Vec<String>,
    /// LinkedIn V2 industries (`industries`), e.g. `Software Development`.
    pub industries: Vec<String>,
    /// The single `linkedinIndustry` label.
    pub linkedin_industry: Option<String>,
    /// Lowercase keywords from tags and descriptions.
    pub keywords: Vec<String>,
    /// Year founded where known (real from sources; else generated or absent).
    pub year_founded: Option<i32>,
    /// Employee count (`employeeCountService`): real for YC/Wikipedia rows, else generated.
    pub employees: u32,
    /// `true` when `employees` comes from a source, not generated.
    pub employees_real: bool,
    /// Employee count on the professional network (`employeeCountLinkedin`), generated near `employees`.
    pub employees_linkedin: u32,
    /// Annual revenue, USD millions (generated).
    pub revenue_musd: f64,
    /// Sells online (generated from industry and keywords).
    pub ecommerce: bool,
    /// Technology names from the Wappalyzer list (generated).
    pub technologies: Vec<String>,
    /// Categories of those technologies.
    pub technology_categories: Vec<String>,
    /// Latest funding round (generated; YC batch/stage where present).
    pub funding: Option<FundingRow>,
    /// Web traffic (generated; anchored on the Majestic rank where present).
    pub traffic: TrafficRow,
    /// Majestic Million rank where present.
    pub majestic_rank: Option<u32>,
    /// Head-count growth as fractions over 3, 6 and 12 months, e.g. `0.05` = +5 %.
    pub headcount_growth: [f64; 3],
    /// Department sizes (SPEC.md §2.1 department names) summing to about `employees`.
    pub department_sizes: Vec<(String, u32)>,
    /// Company phones, from ranges reserved for fiction, with ISO country code.
    pub phones: Vec<(String, String)>,
    /// Company emails on a reserved domain (`.example`).
    pub emails: Vec<String>,
    /// Social profiles: (network, handle), network one of linkedin, twitter, facebook, youtube,
    /// instagram, xing, tiktok; the LinkedIn handle is real where the YC data has it.
    pub medias: Vec<(String, String)>,
    /// Mobile apps: (name, link).
    pub mobile_apps: Vec<(String, String)>,
    /// Where the row came from: any of `financedatabase`, `yc`, `wikipedia`, `sp500`.
    pub sources: Vec<String>,
}

/// A funding round (SPEC.md §2.3 `fundingRound`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct FundingRow {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// One of openapi `FundingRoundType`, e.g. `Series A`.
    pub kind: String,
    /// Amount raised in USD.
    pub money_raised_usd: f64,
}

/// Web traffic per month (SPEC.md §2.3 `webTraffic`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct TrafficRow {
    /// Visits per month.
    pub visits: u64,
    /// Page views per month.
    pub page_views: u64,
    /// Pages per visit.
    pub pages_per_visit: f64,
    /// Bounce rate as a fraction 0..1.
    pub bounce_rate: f64,
}

/// Reference data (SPEC.md §2.8 and the autocomplete vocabularies).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Reference {
    /// LinkedIn V2: (category, industries of that category), 20 categories.
    pub industries: Vec<(String, Vec<String>)>,
    /// Classic LinkedIn industry labels (`linkedinIndustries`).
    pub linkedin_industries: Vec<String>,
    /// Wappalyzer technologies: (name, categories).
    pub technologies: Vec<(String, Vec<String>)>,
    /// ISO 3166-1 countries: (lowercase alpha-2, English name).
    pub countries: Vec<(String, String)>,
    /// ISO 3166-2 regions: (lowercase country, code e.g. `US-CA`, English name, local name).
    pub regions: Vec<(String, String, String, String)>,
    /// Job titles with their mapping: (title, seniority, department) using SPEC.md §2.1 values.
    pub job_titles: Vec<JobTitleRow>,
    /// Skills vocabulary (O*NET technology skills, ESCO skills), de-duplicated.
    pub skills: Vec<String>,
    /// First names by country group: (lowercase country codes, first names).
    pub first_names: Vec<(Vec<String>, Vec<String>)>,
    /// Last names by country group: (lowercase country codes, last names).
    pub last_names: Vec<(Vec<String>, Vec<String>)>,
}

/// A job title and where it sits (SPEC.md §2.1 seniorities and departments).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct JobTitleRow {
    /// English job title, e.g. `Senior Software Engineer`.
    pub title: String,
    /// One SPEC.md seniority, e.g. `Manager`, `Other`.
    pub seniority: String,
    /// One SPEC.md department, e.g. `Engineering`.
    pub department: String,
}
