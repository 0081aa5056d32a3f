//! Company and people searches (SPEC.md §4.2, §4.3, §4.10): compile the wire filter blocks
//! into [`super::filters`] queries, rank (default order or lookalike, see [`super::lookalike`]),
//! page (see [`super::paging`]) and build the wire records of the returned page only.
//!
//! Request limits (`size`, `from`, `size + from`, `peoplePerCompany`, `searchAfter` with
//! `onePersonPerDomain`) are checked by the request types' `Validate` in the service before
//! these functions run; here `size` is clamped to `1..=10000` and a `searchAfter` that does not
//! decode is the only semantic error (`Err` with one `ValidationError`). `creditsUsed` is left
//! 0: the service fills it after charging.

use std::collections::BTreeMap;

use crate::dataset::load::Db;
use prospect_api::types::common::{Relevance, ValidationError};
use prospect_api::types::company::{
    CompanyPreviewResult, CompanyWithRelevance, CompanyWithScore, DomainStatus,
    SearchCompaniesPreviewResponse, SearchCompaniesV2Response, SearchCompaniesV3Response,
};
use prospect_api::types::filters_v2::CompaniesFiltersV2;
use prospect_api::types::filters_v3::{CompaniesFiltersV3, CompanyMatchingMode};
use prospect_api::types::person::{
    LookalikePeopleStatuses, PersonWithCompanyPreview, SearchPeoplePreviewResponse,
    SearchPeopleV2Response, SearchPeopleV3Response,
};
use prospect_api::types::search::{
    PREVIEW_MAX_SIZE, SearchCompaniesPreviewRequest, SearchCompaniesV2Request,
    SearchCompaniesV3Request, SearchPeoplePreviewRequest, SearchPeopleV2Request,
    SearchPeopleV3Request,
};

use super::compile;
use super::filters::{CompanyQuery, PeopleQuery, Scratch};
use super::lookalike::{self, band_rank};
use super::paging::{CursorKind, Page, Ranked, parse_cursor};
use super::records;
use super::{caps, normalize_domain};

/// Default page size of the searches.
pub const DEFAULT_SIZE: i64 = 50;
/// Largest page size.
pub const MAX_SIZE: i64 = 10_000;

/// How companies are ranked.
#[derive(Debug, Clone, Default)]
pub struct Ranking {
    /// Lookalike target companies (empty: default order).
    pub targets: Vec<u32>,
    /// Minimum score (v2 `minScore`).
    pub min_score: Option<f64>,
    /// Allowed v3 relevance bands, by [`band_rank`]: `(best, worst)` inclusive.
    pub bands: Option<(u8, u8)>,
    /// `companyMatchingMode: broad`.
    pub broad: bool,
    /// The lookalike domains were given but none could be used: no result.
    pub no_usable_target: bool,
}

impl Ranking {
    /// The score levels (`score · 10000`) a lookalike match may have: `(lowest, highest)`,
    /// inclusive, from `min_score` and the allowed bands (a band of rank `r` holds the scores
    /// from its floor, [`lookalike::band_floor`], up to the next better band's floor).
    fn levels(&self) -> (u32, u32) {
        let at_least = lookalike::level_at_least;
        let mut lowest = at_least(self.min_score.unwrap_or(0.0));
        let mut highest = 10_000;
        if let Some((best, worst)) = self.bands {
            lowest = lowest.max(at_least(lookalike::band_floor(worst, self.broad)));
            if best > 0 {
                highest = at_least(lookalike::band_floor(best - 1, self.broad)).saturating_sub(1);
            }
        }
        (lowest, highest)
    }
}

/// Sort key of a company in the default order: its default rank (a lookalike match's key puts
/// its score above the rank, [`level_key`]).
fn company_key(db: &Db, c: u32) -> u64 {
    db.cols[c as usize].default_rank as u64
}

impl Db {
    /// A company cursor's label (a domain) read back: its index and default rank.
    fn company_cursor_label(&self, domain: &str) -> Option<(u32, u32)> {
        let c = self.company_index(domain)?;
        Some((c, self.cols[c as usize].default_rank))
    }

    /// A person cursor's label (a person id) read back: the person's index and the default
    /// rank of their company (the rank under a person's score).
    fn person_cursor_label(&self, id: &str) -> Option<(u32, u32)> {
        let p = self.resolve_person_id(id)?;
        let c = self.person_rows[p as usize].company;
        Some((p, self.cols[c as usize].default_rank))
    }
}

/// The sort key of a lookalike match of default rank `rank` and score level `level` (`score ·
/// 10000`, `0..=10000`): `(10000 − level) << 32 | rank`, so better scores come first and equal
/// scores keep the default order.
fn level_key(rank: u32, level: u32) -> u64 {
    ((10_000 - level.min(10_000) as u64) << 32) | rank as u64
}

/// [`level_key`] of a lookalike match.
fn scored_key(m: &lookalike::Scored) -> u64 {
    level_key(m.default_rank, m.level())
}

/// `(key, company)` of lookalike matches.
fn keyed(matches: &[lookalike::Scored]) -> Vec<(u64, u32)> {
    matches.iter().map(|m| (scored_key(m), m.company)).collect()
}

/// Lookalike matches ranked as far as the first `wanted` of them need: every match whose score
/// level is at least the `wanted`-th best's is sorted now (a selection by raw similarity finds
/// that level; the levels of the others are never computed), and the rest when a page first
/// reaches past them ([`Ranked::page`]). Few matches (or `wanted` near their number) are all
/// sorted now.
fn ranked_scored(mut matches: Vec<lookalike::Scored>, wanted: usize) -> Ranked {
    let total = matches.len();
    if wanted == 0 || wanted.saturating_mul(4) >= total {
        return Ranked::sorted(keyed(&matches));
    }
    matches.select_nth_unstable_by(wanted - 1, |a, b| b.raw.total_cmp(&a.raw));
    // Every match from here on has a raw similarity at most the wanted-th's, so a level at
    // most its level; those of its level join the head.
    let lowest = lookalike::lowest_raw(matches[wanted - 1].level());
    let mut split = wanted;
    for i in wanted..total {
        if matches[i].raw >= lowest {
            matches.swap(i, split);
            split += 1;
        }
    }
    let rest = matches.split_off(split);
    let mut head = keyed(&matches);
    head.sort_unstable();
    Ranked::split(head, total, move || {
        let mut rest = keyed(&rest);
        rest.sort_unstable();
        rest
    })
}

/// The lookalike score encoded in a key.
fn key_score(key: u64) -> f64 {
    (10_000 - (key >> 32).min(10_000)) as f64 / 10_000.0
}

/// A page of a v3 people search: the page, each result's relevance, the lookalike-handle
/// statuses, and the redirect map.
type PeoplePage = (
    Page,
    Vec<Option<Relevance>>,
    LookalikePeopleStatuses,
    BTreeMap<String, String>,
);

/// What the lookalike domains resolved to.
#[derive(Debug, Default)]
struct Lookalike {
    targets: Vec<u32>,
    missing: BTreeMap<String, DomainStatus>,
    redirects: BTreeMap<String, String>,
    given: bool,
}

fn resolve_lookalike(db: &Db, domains: Option<&[String]>) -> Lookalike {
    let mut l = Lookalike::default();
    let Some(domains) = domains.filter(|d| !d.is_empty()) else {
        return l;
    };
    l.given = true;
    for d in domains {
        let n = normalize_domain(d);
        // The one test of a domain, as warmup's (issue 18, "Fidelity"): what warmup ignores
        // is bad content here, never a gathering started.
        if !super::gathered::looks_like_domain(&n) {
            l.missing.insert(d.clone(), DomainStatus::BadContent);
            continue;
        }
        match db.company_index(&n) {
            Some(i) => {
                let row = &db.companies[i as usize];
                if row.domain != n {
                    l.redirects.insert(n.clone(), row.domain.clone());
                }
                let c = &db.cols[i as usize];
                if c.industries.is_empty() && c.keywords.is_empty() && c.technologies.is_empty() {
                    l.missing
                        .insert(d.clone(), DomainStatus::MissingContextVector);
                } else if !l.targets.contains(&i) {
                    l.targets.push(i);
                }
            }
            None => {
                l.missing
                    .insert(d.clone(), DomainStatus::DataGatheringStarted);
            }
        }
    }
    l
}

fn redirects_of(db: &Db, domains: Option<&[String]>, out: &mut BTreeMap<String, String>) {
    for d in caps::domains(domains.unwrap_or(&[])) {
        let n = normalize_domain(d);
        if let Some(i) = db.alias_target(&n) {
            out.insert(n, db.companies[i as usize].domain.clone());
        }
    }
}

fn clamp_size(size: Option<i64>, max: i64) -> usize {
    size.unwrap_or(DEFAULT_SIZE).clamp(1, max) as usize
}

/// The key of a company search's ranking ([`Db::ranked`]): the endpoint (`v2`, `v3`) and its
/// company and people filters as JSON, which are all the ranking depends on.
fn search_key(
    endpoint: &str,
    companies: &impl serde::Serialize,
    people: Option<&impl serde::Serialize>,
) -> String {
    let mut key = String::from(endpoint);
    for part in [
        serde_json::to_string(companies),
        serde_json::to_string(&people),
    ] {
        key.push('\u{1}');
        key.push_str(&part.unwrap_or_default());
    }
    key
}

fn clamp_from(from: Option<i64>) -> usize {
    (from.unwrap_or(1).clamp(1, 10_001) - 1) as usize
}

/// The companies a search matches, before ordering ([`Db::company_matches`]).
enum Matches {
    /// Without lookalike: `(key, company)`, the key being the default rank.
    Keyed(Vec<(u64, u32)>),
    /// Lookalike matches, with their raw similarities (their keys come from their levels).
    Scored(Vec<lookalike::Scored>),
}

mod run;

#[cfg(test)]
mod tests;
