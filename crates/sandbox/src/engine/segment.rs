//! ICP segmentation (openapi.json `POST /v2/segmentation`, `…/markDomains`,
//! `…/attribute-domains`): groups company domains by their traits and attributes other domains
//! to the closest group.
//!
//! **Features.** Each company becomes a vector over the features a request names
//! (`leadScoringFeatures`, else [`LeadScoringFeature::DEFAULT`]), in blocks, one per feature:
//! - lists (industries, industry categories, technologies, technology categories, keywords,
//!   countries): one column per value found in at least two input companies (in one, when
//!   fewer than six are segmented), the [`MAX_VALUES`] most frequent; a company's block is
//!   L2-normalized, so ten keywords weigh what one does;
//! - single values (primary country, LinkedIn industry, and the yes/no features ecommerce,
//!   small site, international presence, multiple locations): one-hot;
//! - ordered values (size range, revenue range, founding year, web visits, head-count growth):
//!   one column in `0..=1`.
//!
//! Each block is scaled by its weight ([`weight`]): industries count most.
//!
//! **Segments.** k-means (linfa-clustering, k-means++ with a fixed seed, so the same input gives
//! the same segments) for every k in `2..=`[`MAX_SEGMENTS`] (at most a third of the companies);
//! the k with the best mean silhouette (linfa) is the data's choice, and `numberOfSegmentsMode`
//! moves it (`-1`: one fewer, `+2`: two more, within the range). Fewer than four companies make
//! one segment; none known makes the segmentation `FAILED`. Positive domains join the input
//! (twice, so they pull harder); negative ones are left out of it.
//!
//! **Traits and names.** A trait is a feature value (`Software Development`, `51-200`,
//! `2010s`, `growing`) shared by at least [`TRAIT_MIN_SHARE`] of a segment; its weight is its
//! share in the segment times how much more common it is there than in the other segments. The
//! five strongest are the segment's `traits`, scored relative to the first (1.0); its name is
//! the first two values.
//!
//! **Lookalikes.** A segment's `lookalikeCount` is how many companies of the dataset the
//! lookalike engine ([`super::lookalike`]) ranks at relevance B or better against the
//! [`LOOKALIKE_SEEDS`] members closest to the segment's centre (the input companies excluded);
//! `totalAddressableMarket` counts each of those companies once over all segments.
//!
//! **Attribution.** A domain is scored against each segment's centre by cosine similarity
//! (`0..=1`: every column is non-negative); the best segment is its segment when the score is at
//! least [`ATTRIBUTION_THRESHOLD`], else it is unattributed (`null`, `null`), as is an unknown
//! domain. A domain closer to a negative-marked company than to its best segment is
//! unattributed; a positive-marked company moves the centre of its closest segment toward it.

use std::collections::HashMap;

use linfa::prelude::*;
use linfa_clustering::KMeans;
use ndarray::{Array1, Array2, ArrayView1, Axis};

use crate::dataset::load::Db;
use prospect_api::types::{
    AttributeDomainsResponse, AttributedDomain, CompanySize, LeadScoringFeature, MarkType, Revenue,
    ScoringFeature, Segment, WireEnum,
};

use super::index::{CompanyCols, NONE};
use super::lookalike::{BAND_B, CompanyScorer};

/// Most segments a segmentation makes.
pub const MAX_SEGMENTS: usize = 10;
/// Most columns of one list feature.
pub const MAX_VALUES: usize = 24;
/// Lowest attribution score that assigns a segment.
pub const ATTRIBUTION_THRESHOLD: f64 = 0.35;
/// Lowest share of a segment's companies a trait is found in.
pub const TRAIT_MIN_SHARE: f64 = 0.3;
/// Members closest to a segment's centre that seed its lookalike count.
pub const LOOKALIKE_SEEDS: usize = 10;
/// Most companies the silhouette of a k is measured on (an even sample of larger inputs).
const SILHOUETTE_SAMPLE: usize = 300;

/// The weight of a feature's block in the vector.
fn weight(f: &LeadScoringFeature) -> f64 {
    use LeadScoringFeature as F;
    match f {
        F::Industries => 1.0,
        F::IndustryCategories | F::LinkedinIndustry => 0.7,
        F::Keywords => 0.6,
        F::Technologies | F::CompanySize | F::PrimaryCountry => 0.5,
        F::TechnologyCategories | F::Countries | F::Revenue => 0.4,
        _ => 0.3,
    }
}

/// How a feature reads a company.
enum Reading {
    /// A list of value ids.
    List(Vec<u32>),
    /// One value id (none when `NONE`).
    One(u32),
    /// A position in `0..=1`, and the value id of its trait label.
    Ordered(f64, u32),
}

/// Web visits a month below which a site is small.
const SMALL_SITE_VISITS: u64 = 10_000;

fn growth_label(g: f64) -> u32 {
    match g {
        g if g < -0.02 => 0,
        g if g < 0.05 => 1,
        g if g < 0.20 => 2,
        _ => 3,
    }
}

const GROWTH_LABELS: [&str; 4] = ["shrinking", "flat", "growing", "fast-growing"];
const VISIT_LABELS: [&str; 4] = [
    "under 10k visits",
    "10k-100k visits",
    "100k-1M visits",
    "1M+ visits",
];

/// Reads feature `f` of company `c`.
fn read(f: &LeadScoringFeature, c: &CompanyCols) -> Reading {
    use LeadScoringFeature as F;
    let yes = |b: bool| Reading::One(u32::from(b));
    let growth = |i: usize| {
        let g = f64::from(c.growth[i]);
        Reading::Ordered(((g + 0.5) / 1.5).clamp(0.0, 1.0), growth_label(g))
    };
    match f {
        F::Industries => Reading::List(c.industries.to_vec()),
        F::IndustryCategories => Reading::List(c.categories.to_vec()),
        F::Technologies => Reading::List(c.technologies.to_vec()),
        F::TechnologyCategories => Reading::List(c.tech_categories.to_vec()),
        F::Keywords => Reading::List(c.keywords.to_vec()),
        F::Countries => Reading::List(c.countries.to_vec()),
        F::PrimaryCountry => Reading::One(c.country),
        F::LinkedinIndustry => Reading::One(c.linkedin_industry),
        F::Ecommerce => yes(c.ecommerce),
        F::IsSmallSite => yes(c.visits < SMALL_SITE_VISITS),
        F::InternationalPresence => yes(c.countries.len() > 1),
        F::MultipleLocations => yes(c.n_locations > 1),
        F::CompanySize => Reading::Ordered(
            f64::from(c.size) / (CompanySize::ALL.len() - 1) as f64,
            u32::from(c.size),
        ),
        F::Revenue => Reading::Ordered(
            f64::from(c.revenue) / (Revenue::ALL.len() - 1) as f64,
            u32::from(c.revenue),
        ),
        F::YearFounded => {
            let y = if c.year > 0 { c.year } else { 2000 };
            Reading::Ordered(
                (f64::from(y - 1950) / 75.0).clamp(0.0, 1.0),
                (y / 10 * 10) as u32,
            )
        }
        F::WebTrafficVisits => {
            let v = c.visits as f64;
            let label = match c.visits {
                0..10_000 => 0,
                10_000..100_000 => 1,
                100_000..1_000_000 => 2,
                _ => 3,
            };
            Reading::Ordered(((1.0 + v).log10() / 8.0).clamp(0.0, 1.0), label)
        }
        F::HeadcountGrowth3m | F::HeadcountGrowth3mPercentage => growth(0),
        F::HeadcountGrowth6m | F::HeadcountGrowth6mPercentage => growth(1),
        F::HeadcountGrowth12m | F::HeadcountGrowth12mPercentage | F::Unknown(_) => growth(2),
    }
}

/// The label of value `id` of feature `f`, for traits.
fn label(db: &Db, f: &LeadScoringFeature, id: u32) -> String {
    use LeadScoringFeature as F;
    let v = &db.vocab;
    let yes_no = |id: u32| if id == 1 { "yes" } else { "no" }.to_string();
    match f {
        F::Industries => v.industries.name(id).to_string(),
        F::IndustryCategories => v.categories.name(id).to_string(),
        F::Technologies => v.technologies.name(id).to_string(),
        F::TechnologyCategories => v.tech_categories.name(id).to_string(),
        F::Keywords => v.keywords.name(id).to_string(),
        F::Countries | F::PrimaryCountry => v.countries.name(id).to_ascii_uppercase(),
        F::LinkedinIndustry => v.linkedin_industries.name(id).to_string(),
        F::Ecommerce | F::IsSmallSite | F::InternationalPresence | F::MultipleLocations => {
            yes_no(id)
        }
        F::CompanySize => CompanySize::ALL
            .get(id as usize)
            .map_or_else(String::new, |s| format!("{} employees", s.as_str())),
        F::Revenue => Revenue::ALL
            .get(id as usize)
            .map_or_else(String::new, |s| format!("{} revenue", s.as_str())),
        F::YearFounded => format!("{id}s"),
        F::WebTrafficVisits => VISIT_LABELS[id as usize % 4].to_string(),
        _ => GROWTH_LABELS[id as usize % 4].to_string(),
    }
}

/// The column layout of a segmentation's vectors: what each column is, learnt from its input.
#[derive(Debug, Clone)]
pub struct Space {
    features: Vec<LeadScoringFeature>,
    /// `(feature index, value id)` → column, for list and single-value features.
    columns: HashMap<(usize, u32), usize>,
    /// Column of each ordered feature (by feature index).
    ordered: HashMap<usize, usize>,
    dim: usize,
}

impl Space {
    /// Learns the columns from the input companies' readings.
    fn learn(db: &Db, features: &[LeadScoringFeature], members: &[u32]) -> Space {
        let min_count = if members.len() < 6 { 1 } else { 2 };
        let mut columns = HashMap::new();
        let mut ordered = HashMap::new();
        let mut dim = 0;
        for (fi, f) in features.iter().enumerate() {
            let mut counts: HashMap<u32, usize> = HashMap::new();
            let mut is_ordered = false;
            for &m in members {
                match read(f, &db.cols[m as usize]) {
                    Reading::List(ids) => {
                        for id in ids {
                            *counts.entry(id).or_default() += 1;
                        }
                    }
                    Reading::One(id) if id != NONE => *counts.entry(id).or_default() += 1,
                    Reading::One(_) => {}
                    Reading::Ordered(..) => is_ordered = true,
                }
            }
            if is_ordered {
                ordered.insert(fi, dim);
                dim += 1;
                continue;
            }
            let mut values: Vec<(u32, usize)> = counts
                .into_iter()
                .filter(|&(_, n)| n >= min_count)
                .collect();
            values.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            for (id, _) in values.into_iter().take(MAX_VALUES) {
                columns.insert((fi, id), dim);
                dim += 1;
            }
        }
        Space {
            features: features.to_vec(),
            columns,
            ordered,
            dim: dim.max(1),
        }
    }

    /// The vector of company `c`.
    fn vector(&self, c: &CompanyCols) -> Array1<f64> {
        let mut v = Array1::zeros(self.dim);
        for (fi, f) in self.features.iter().enumerate() {
            let w = weight(f);
            match read(f, c) {
                Reading::List(ids) => {
                    let cols: Vec<usize> = ids
                        .iter()
                        .filter_map(|&id| self.columns.get(&(fi, id)).copied())
                        .collect();
                    if !cols.is_empty() {
                        let x = w / (cols.len() as f64).sqrt();
                        for col in cols {
                            v[col] = x;
                        }
                    }
                }
                Reading::One(id) => {
                    if let Some(&col) = self.columns.get(&(fi, id)) {
                        v[col] = w;
                    }
                }
                Reading::Ordered(x, _) => {
                    if let Some(&col) = self.ordered.get(&fi) {
                        v[col] = w * x;
                    }
                }
            }
        }
        v
    }
}

/// What a finished segmentation keeps to answer attributions: its column layout, each
/// segment's centre, and the companies marked negative.
#[derive(Debug, Clone)]
pub struct Model {
    space: Space,
    /// Centre of each segment (the order of [`Outcome::segments`]), as sums and weights so a
    /// positive mark can move it.
    sums: Vec<Array1<f64>>,
    weights: Vec<f64>,
    /// Vectors of the companies marked negative.
    negatives: Vec<Array1<f64>>,
    /// Segment ids, in the order of `sums`.
    ids: Vec<i64>,
}

/// A finished segmentation: its segments and model.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The segments, largest first, ids from 1.
    pub segments: Vec<Segment>,
    /// Lookalike companies over all segments, each once.
    pub total_addressable_market: i64,
    /// What attributions read.
    pub model: Model,
}

/// What a segmentation is asked to do (the request, read).
#[derive(Debug, Clone, Default)]
pub struct Ask {
    /// Domains to segment.
    pub domains: Vec<String>,
    /// Features; empty for the default set.
    pub features: Vec<LeadScoringFeature>,
    /// `numberOfSegmentsMode`.
    pub mode: i64,
    /// Good-fit domains.
    pub positive: Vec<String>,
    /// Poor-fit domains.
    pub negative: Vec<String>,
}

/// Why a segmentation failed (it is answered `FAILED`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failed(pub String);

fn cosine(a: ArrayView1<f64>, b: ArrayView1<f64>) -> f64 {
    let na = a.dot(&a).sqrt();
    let nb = b.dot(&b).sqrt();
    if na == 0.0 || nb == 0.0 {
        return 0.0;
    }
    (a.dot(&b) / (na * nb)).clamp(0.0, 1.0)
}

/// The distinct known companies of `domains`, in first-seen order, with the domain as given
/// (normalized).
fn known(db: &Db, domains: &[String]) -> Vec<(String, u32)> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for d in domains {
        let norm = super::normalize_domain(d);
        if let Some(i) = db.company_index_normalized(&norm)
            && seen.insert(i)
        {
            out.push((norm, i));
        }
    }
    out
}

/// Clusters `x` into `k` groups; the labels.
fn kmeans(x: &Array2<f64>, k: usize) -> Vec<usize> {
    if k <= 1 {
        return vec![0; x.nrows()];
    }
    let ds = DatasetBase::from(x.clone());
    match KMeans::params(k)
        .n_runs(3)
        .max_n_iterations(60)
        .tolerance(1e-4)
        .fit(&ds)
    {
        Ok(model) => model.predict(x).to_vec(),
        Err(_) => vec![0; x.nrows()],
    }
}

/// The mean silhouette of `labels` over an even sample of the rows.
fn silhouette(x: &Array2<f64>, labels: &[usize]) -> f64 {
    let n = x.nrows();
    let step = n.div_ceil(SILHOUETTE_SAMPLE).max(1);
    let rows: Vec<usize> = (0..n).step_by(step).collect();
    let sample = x.select(Axis(0), &rows);
    let targets: Array1<usize> = rows.iter().map(|&r| labels[r]).collect();
    let ds = DatasetBase::new(sample, targets);
    ds.silhouette_score().unwrap_or(-1.0)
}

/// Segments `ask` over the dataset. Deterministic: the same ask gives the same segments.
///
/// Errors: [`Failed`] when no domain of `ask.domains` (and the positives) is a known company.
pub fn segment(db: &Db, ask: &Ask) -> Result<Outcome, Failed> {
    let features: Vec<LeadScoringFeature> = if ask.features.is_empty() {
        LeadScoringFeature::DEFAULT.to_vec()
    } else {
        let mut f = ask.features.clone();
        f.dedup();
        f
    };
    let negative: Vec<(String, u32)> = known(db, &ask.negative);
    let is_negative = |i: u32| negative.iter().any(|&(_, n)| n == i);
    let input: Vec<(String, u32)> = known(db, &ask.domains)
        .into_iter()
        .filter(|&(_, i)| !is_negative(i))
        .collect();
    let positive: Vec<(String, u32)> = known(db, &ask.positive)
        .into_iter()
        .filter(|&(_, i)| !is_negative(i))
        .collect();
    // Members: the input, then positives not in it; weights: positives count twice.
    let mut members: Vec<(String, u32, f64)> =
        input.iter().map(|(d, i)| (d.clone(), *i, 1.0)).collect();
    for (d, i) in &positive {
        match members.iter_mut().find(|m| m.1 == *i) {
            Some(m) => m.2 = 2.0,
            None => members.push((d.clone(), *i, 2.0)),
        }
    }
    if members.is_empty() {
        return Err(Failed(
            "none of the domains is a company the service knows".into(),
        ));
    }
    let idx: Vec<u32> = members.iter().map(|m| m.1).collect();
    let space = Space::learn(db, &features, &idx);
    // Rows: each member once, a positive twice.
    let mut rows: Vec<usize> = Vec::new();
    for (r, m) in members.iter().enumerate() {
        rows.push(r);
        if m.2 > 1.0 {
            rows.push(r);
        }
    }
    let mut x = Array2::zeros((rows.len(), space.dim));
    for (i, &r) in rows.iter().enumerate() {
        x.row_mut(i)
            .assign(&space.vector(&db.cols[members[r].1 as usize]));
    }
    let n = members.len();
    let kmax = MAX_SEGMENTS.min(n / 3).max(1);
    let labels = if n < 4 || kmax < 2 {
        vec![0; rows.len()]
    } else {
        let mut best = (f64::MIN, 2usize, Vec::new());
        let mut all = Vec::new();
        for k in 2..=kmax {
            let labels = kmeans(&x, k);
            let s = silhouette(&x, &labels);
            if s > best.0 {
                best = (s, k, labels.clone());
            }
            all.push((k, labels));
        }
        let want = (best.1 as i64 + ask.mode).clamp(2, kmax as i64) as usize;
        all.into_iter()
            .find(|(k, _)| *k == want)
            .map_or(best.2, |(_, l)| l)
    };
    // Each member's label (its first row).
    // Each member's label and row (its first, for a positive that has two).
    let mut member_label = vec![0usize; n];
    let mut member_row = vec![usize::MAX; n];
    for (i, &r) in rows.iter().enumerate() {
        if member_row[r] == usize::MAX {
            member_row[r] = i;
            member_label[r] = labels[i];
        }
    }
    let k = labels.iter().copied().max().unwrap_or(0) + 1;
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); k];
    for (m, &l) in member_label.iter().enumerate() {
        groups[l].push(m);
    }
    groups.retain(|g| !g.is_empty());
    groups.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));

    let mut sums = Vec::new();
    let mut weights = Vec::new();
    let mut segments = Vec::new();
    let mut tam = vec![false; db.company_count()];
    let excluded: std::collections::HashSet<u32> = idx.iter().copied().collect();
    for (g, group) in groups.iter().enumerate() {
        let mut sum = Array1::zeros(space.dim);
        let mut w = 0.0;
        for &m in group {
            sum = sum + &x.row(member_row[m]) * members[m].2;
            w += members[m].2;
        }
        let centre = &sum / w.max(1.0);
        let traits = traits_of(db, &features, &idx, group, &groups);
        let name = name_of(&traits).unwrap_or_else(|| format!("Segment {}", g + 1));
        // Lookalikes of the members closest to the centre.
        let mut by_closeness: Vec<(f64, u32)> = group
            .iter()
            .map(|&m| (cosine(x.row(member_row[m]), centre.view()), members[m].1))
            .collect();
        by_closeness.sort_by(|a, b| b.0.total_cmp(&a.0));
        let seeds: Vec<u32> = by_closeness
            .iter()
            .take(LOOKALIKE_SEEDS)
            .map(|s| s.1)
            .collect();
        let scorer = CompanyScorer::new(db, &seeds);
        let mut count = 0i64;
        for c in 0..db.company_count() as u32 {
            if !excluded.contains(&c) && scorer.score_min(db, c, BAND_B).is_some() {
                count += 1;
                tam[c as usize] = true;
            }
        }
        drop(scorer);
        segments.push(Segment {
            segment_id: g as i64 + 1,
            name,
            domains: group.iter().map(|&m| members[m].0.clone()).collect(),
            company_count: group.len() as i64,
            traits: Some(traits),
            crm_metrics: None,
            lookalike_count: Some(count),
        });
        sums.push(sum);
        weights.push(w);
    }
    let ids = segments.iter().map(|s| s.segment_id).collect();
    let negatives = negative
        .iter()
        .map(|(_, i)| space.vector(&db.cols[*i as usize]))
        .collect();
    Ok(Outcome {
        segments,
        total_addressable_market: tam.iter().filter(|&&t| t).count() as i64,
        model: Model {
            space,
            sums,
            weights,
            negatives,
            ids,
        },
    })
}

/// `true` for the features that say what a company does (a segment's name starts with one).
fn says_what(feature_name: &str) -> bool {
    matches!(
        feature_name,
        "industries" | "linkedin_industry" | "industry_categories" | "keywords"
    )
}

/// A segment's name: its strongest trait that says what the companies do, then its strongest
/// other trait (`Hospitals and Health Care · 1001-5000 employees`); the first two traits when
/// none says what; `None` without traits.
fn name_of(traits: &[ScoringFeature]) -> Option<String> {
    let what = traits.iter().find(|t| says_what(&t.feature_name));
    let first = what.or(traits.first())?;
    let second = traits
        .iter()
        .find(|t| !std::ptr::eq(*t, first) && !says_what(&t.feature_name))
        .or_else(|| traits.iter().find(|t| !std::ptr::eq(*t, first)));
    Some(match second {
        Some(s) => format!("{} · {}", first.feature_value, s.feature_value),
        None => first.feature_value.clone(),
    })
}

/// The traits of `group` (member positions into `idx`) against the other groups.
fn traits_of(
    db: &Db,
    features: &[LeadScoringFeature],
    idx: &[u32],
    group: &[usize],
    groups: &[Vec<usize>],
) -> Vec<ScoringFeature> {
    let in_group: std::collections::HashSet<usize> = group.iter().copied().collect();
    let others = idx.len() - group.len();
    let mut scored: Vec<(f64, ScoringFeature)> = Vec::new();
    for f in features {
        // value id → (count in group, count elsewhere)
        let mut counts: HashMap<u32, (usize, usize)> = HashMap::new();
        for (m, &c) in idx.iter().enumerate() {
            let ids = match read(f, &db.cols[c as usize]) {
                Reading::List(ids) => ids,
                Reading::One(id) if id != NONE => vec![id],
                Reading::One(_) => vec![],
                Reading::Ordered(_, id) => vec![id],
            };
            for id in ids {
                let e = counts.entry(id).or_default();
                if in_group.contains(&m) {
                    e.0 += 1;
                } else {
                    e.1 += 1;
                }
            }
        }
        for (id, (inside, outside)) in counts {
            let share = inside as f64 / group.len() as f64;
            if share < TRAIT_MIN_SHARE {
                continue;
            }
            let score = if groups.len() <= 1 || others == 0 {
                share
            } else {
                share * (share - outside as f64 / others as f64).max(0.0)
            };
            if score > 0.0 {
                scored.push((
                    score,
                    ScoringFeature {
                        feature_name: f.as_str().to_string(),
                        feature_value: label(db, f, id),
                        score,
                    },
                ));
            }
        }
    }
    scored.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then_with(|| a.1.feature_value.cmp(&b.1.feature_value))
    });
    let top = scored.first().map_or(1.0, |s| s.0);
    scored
        .into_iter()
        .take(5)
        .map(|(s, mut t)| {
            t.score = (s / top * 100.0).round() / 100.0;
            t
        })
        .collect()
}

impl Model {
    /// Attributes `domains` (in order) to the closest segment ([`ATTRIBUTION_THRESHOLD`],
    /// negatives; see the module docs).
    pub fn attribute(&self, db: &Db, domains: &[String]) -> AttributeDomainsResponse {
        let centres: Vec<Array1<f64>> = self
            .sums
            .iter()
            .zip(&self.weights)
            .map(|(s, w)| s / w.max(1.0))
            .collect();
        let mut results = Vec::with_capacity(domains.len());
        for d in domains {
            let found = db.company_index(d).map(|i| {
                let v = self.space.vector(&db.cols[i as usize]);
                let (best, score) = centres
                    .iter()
                    .enumerate()
                    .map(|(s, c)| (s, cosine(v.view(), c.view())))
                    .fold((0, -1.0), |a, b| if b.1 > a.1 { b } else { a });
                let vetoed = self
                    .negatives
                    .iter()
                    .any(|n| cosine(v.view(), n.view()) > score);
                (best, score, vetoed)
            });
            let (segment_id, score) = match found {
                Some((best, score, false)) if score >= ATTRIBUTION_THRESHOLD => (
                    Some(self.ids[best]),
                    Some((score * 10_000.0).round() / 10_000.0),
                ),
                _ => (None, None),
            };
            results.push(AttributedDomain {
                domain: d.clone(),
                segment_id,
                score,
            });
        }
        let attributed = results.iter().filter(|r| r.segment_id.is_some()).count();
        AttributeDomainsResponse {
            total_requested: domains.len() as i64,
            total_attributed: attributed as i64,
            results,
        }
    }

    /// Marks `domains` positive (each moves the centre of its closest segment toward it, with
    /// weight 2) or negative (each vetoes the domains closer to it than to their segment).
    /// Unknown domains are kept by the caller's lists but change nothing here.
    pub fn mark(&mut self, db: &Db, kind: &MarkType, domains: &[String]) {
        for d in domains {
            let Some(i) = db.company_index(d) else {
                continue;
            };
            let v = self.space.vector(&db.cols[i as usize]);
            match kind {
                MarkType::Negative => self.negatives.push(v),
                _ => {
                    let best = self
                        .sums
                        .iter()
                        .zip(&self.weights)
                        .map(|(s, w)| cosine(v.view(), (s / w.max(1.0)).view()))
                        .enumerate()
                        .fold((0, -1.0), |a, b| if b.1 > a.1 { b } else { a })
                        .0;
                    if let Some(sum) = self.sums.get_mut(best) {
                        *sum = &*sum + &(v * 2.0);
                        self.weights[best] += 2.0;
                    }
                }
            }
        }
    }
}
