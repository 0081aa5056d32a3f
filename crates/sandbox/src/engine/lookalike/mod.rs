//! Lookalike ranking: how similar a company is to the `lookalikeDomains` (SPEC.md §2.4, §4.2).
//!
//! For a candidate company `c` and one target company `t`:
//!
//! ```text
//! raw(c, t) = 0.30 · J(industries)                 Jaccard |A∩B| / |A∪B|
//!           + 0.25 · O(keywords)                   Ochiai  |A∩B| / sqrt(|A|·|B|)
//!           + 0.10 · O(technologies)
//!           + 0.15 · [share an industry category]
//!           + 0.12 · max(0, 1 − |log10(1+e_c) − log10(1+e_t)| / 2)   size closeness (0 at 100×)
//!           + 0.08 · [same primary country]
//! ```
//!
//! Over several targets: `raw(c) = 0.5 · max_t raw(c, t) + 0.5 · mean_t raw(c, t)` (a candidate
//! close to one target ranks high; one close to all ranks higher). The reported score is
//! `score = raw^0.4` in `0..=1`, rounded to 4 decimals: identical profiles score 1; the same
//! industry, category and country with a similar size and a few shared keywords scores ≈ 0.8,
//! which is where v2's default `minScore` (0.79, openapi `CompaniesFiltersV1.minScore`) cuts
//! (`raw ≥ 0.555`). On the real dataset, `docker.com` finds apollographql.com, coreos.com,
//! goteleport.com... first.
//!
//! v3 reports `relevance` by score band: **A** `score ≥ 0.85`, **B** `0.70 ≤ score < 0.85`,
//! **C** `0.50 ≤ score < 0.70` (`companyMatchingMode: broad` lowers C's floor to 0.35); lower
//! scores are not returned by a v3 lookalike search. The target companies themselves are never
//! in the results.
//!
//! People (v3 `lookalikeLinkedinHandles`), person `p` against target person `q`:
//! `0.35·[same department] + 0.25·[same seniority] + 0.15·J(title words) + 0.25·raw(company(p), company(q))`,
//! aggregated and turned into a score the same way.

use crate::dataset::load::Db;
use prospect_api::types::common::Relevance;

pub(crate) use super::held::{BaseIndex, KeptRaws, Postings, Profile, Raws};
use super::index::CompanyCols;
use super::people::PersonRow;

/// Lower bound of relevance A.
pub const BAND_A: f64 = 0.85;
/// Lower bound of relevance B.
pub const BAND_B: f64 = 0.70;
/// Lower bound of relevance C (precise matching).
pub const BAND_C: f64 = 0.50;
/// Lower bound of relevance C with `companyMatchingMode: broad`.
pub const BAND_C_BROAD: f64 = 0.35;

fn inter(a: &[u32], b: &[u32]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

fn jaccard(a: &[u32], b: &[u32]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let n = inter(a, b);
    n as f64 / (a.len() + b.len() - n) as f64
}

fn ochiai(a: &[u32], b: &[u32]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    inter(a, b) as f64 / ((a.len() * b.len()) as f64).sqrt()
}

/// `raw(c, t)` of the module formula, in `0..=1`.
pub fn raw_pair(c: &CompanyCols, t: &CompanyCols) -> f64 {
    let size = 1.0 - ((c.log_emp - t.log_emp).abs() as f64 / 2.0);
    0.30 * jaccard(&c.industries, &t.industries)
        + 0.25 * ochiai(&c.keywords, &t.keywords)
        + 0.10 * ochiai(&c.technologies, &t.technologies)
        + 0.15 * f64::from(inter(&c.categories, &t.categories) > 0)
        + 0.12 * size.max(0.0)
        + 0.08 * f64::from(c.country == t.country)
}

/// Combines per-target raw similarities: `0.5·max + 0.5·mean`.
pub fn combine(raws: impl Iterator<Item = f64>) -> f64 {
    let (mut max, mut sum, mut n) = (0.0f64, 0.0, 0usize);
    for r in raws {
        max = max.max(r);
        sum += r;
        n += 1;
    }
    if n == 0 {
        return 0.0;
    }
    0.5 * max + 0.5 * sum / n as f64
}

/// Exponent turning a raw similarity into the reported score.
pub const SCORE_EXPONENT: f64 = 0.4;

/// The reported score of a raw similarity: `raw^0.4`, clamped to `0..=1`, 4 decimals.
pub fn score_of(raw: f64) -> f64 {
    round_units(raw.clamp(0.0, 1.0).powf(SCORE_EXPONENT) * 10_000.0) / 10_000.0
}

/// `x.round()` for `0 <= x < 2^52` (half away from zero), without a call into libm (`round` is
/// a function call on the baseline x86-64 target, a tenth of a lookalike search).
#[inline]
pub fn round_units(x: f64) -> f64 {
    let whole = x as u64 as f64;
    if x - whole >= 0.5 { whole + 1.0 } else { whole }
}

/// The score level of a raw similarity: `score_of(raw) · 10000` as an integer (`0..=10000`).
fn level_of(raw: f64) -> usize {
    round_units(raw.clamp(0.0, 1.0).powf(SCORE_EXPONENT) * 10_000.0) as usize
}

/// Mantissa bits of a raw similarity that pick its bucket in [`Levels::bucket`] (with its
/// exponent): a bucket is `2^-12` of an octave wide, never more than about one score level.
const BUCKET_BITS: u32 = 12;

/// [`score_of`] without `powf`: the smallest raw similarity of every score level, found against
/// [`level_of`] itself (so the levels are the same), and the level at the start of each bucket
/// of raw similarities by their leading bits. Built once per process on the first lookalike
/// search (about 40,000 `powf`, a millisecond or two; 80 KB and about 300 KB).
#[derive(Debug)]
struct Levels {
    /// `lo[l]`: the smallest raw similarity of level `l` or more.
    lo: Vec<f64>,
    /// The level at the start of each bucket: raw similarity `x` in `lo[1]..1` is in bucket
    /// `(x.to_bits() >> (52 − BUCKET_BITS)) − first` (the bits of its exponent and the first
    /// [`BUCKET_BITS`] of its mantissa; no `sqrt` or `powf`).
    bucket: Vec<u16>,
    /// The bucket key of `lo[1]`, the first bucket's.
    first: u64,
}

impl Levels {
    fn get() -> &'static Levels {
        static LEVELS: std::sync::OnceLock<Levels> = std::sync::OnceLock::new();
        LEVELS.get_or_init(Levels::build)
    }

    fn build() -> Levels {
        let next = |x: f64| f64::from_bits(x.to_bits() + 1);
        let prev = |x: f64| f64::from_bits(x.to_bits() - 1);
        let mut lo = vec![0.0f64; 10_001];
        for (l, slot) in lo.iter_mut().enumerate().skip(1) {
            // The formula's inverse lands within a few units in the last place; walk to the
            // exact boundary (bisection if it is ever far).
            let mut x = ((l as f64 - 0.5) / 10_000.0)
                .powf(1.0 / SCORE_EXPONENT)
                .min(1.0);
            let mut steps = 0;
            if level_of(x) >= l {
                while x > 0.0 && level_of(prev(x)) >= l && steps < 64 {
                    x = prev(x);
                    steps += 1;
                }
            } else {
                while level_of(x) < l && steps < 64 {
                    x = next(x);
                    steps += 1;
                }
            }
            if steps == 64 {
                let (mut a, mut b) = (0u64, 1.0f64.to_bits());
                while a < b {
                    let m = a + (b - a) / 2;
                    if level_of(f64::from_bits(m)) >= l {
                        b = m;
                    } else {
                        a = m + 1;
                    }
                }
                x = f64::from_bits(a);
            }
            *slot = x;
        }
        let key = |x: f64| x.to_bits() >> (52 - BUCKET_BITS);
        let first = key(lo[1]);
        let mut bucket = Vec::with_capacity((key(1.0) - first + 1) as usize);
        let mut l = 0usize;
        for k in first..=key(1.0) {
            let start = f64::from_bits(k << (52 - BUCKET_BITS));
            while l < 10_000 && lo[l + 1] <= start {
                l += 1;
            }
            bucket.push(l as u16);
        }
        Levels { lo, bucket, first }
    }

    /// The smallest raw similarity of level `level` or more (`lo[level]`; infinity above
    /// 10000): `self.level(raw) >= level` exactly when `raw >= self.lowest_raw(level)`.
    #[inline]
    fn lowest_raw(&self, level: u32) -> f64 {
        self.lo
            .get(level as usize)
            .copied()
            .unwrap_or(f64::INFINITY)
    }

    /// `score_of(raw)`, the same value.
    #[inline]
    fn score(&self, raw: f64) -> f64 {
        self.level(raw) as f64 / 10_000.0
    }

    /// `score_of(raw) · 10000` as an integer (`0..=10000`), the same value as [`level_of`].
    #[inline]
    fn level(&self, raw: f64) -> usize {
        let raw = raw.clamp(0.0, 1.0);
        let b = (raw.to_bits() >> (52 - BUCKET_BITS)).saturating_sub(self.first);
        let mut l = self.bucket.get(b as usize).map_or(0, |&l| l as usize);
        while l > 0 && self.lo[l] > raw {
            l -= 1;
        }
        while l < 10_000 && self.lo[l + 1] <= raw {
            l += 1;
        }
        l
    }
}

/// The raw similarity needed for a score (inverse of [`score_of`], before rounding).
pub fn raw_for_score(score: f64) -> f64 {
    score.clamp(0.0, 1.0).powf(1.0 / SCORE_EXPONENT)
}

/// Lookalike score (`0..=1`) of company `c` against the target companies.
pub fn company_score(db: &Db, c: u32, targets: &[u32]) -> f64 {
    let cc = &db.cols[c as usize];
    score_of(combine(
        targets.iter().map(|&t| raw_pair(cc, &db.cols[t as usize])),
    ))
}

/// The lowest score level (`score · 10000`) whose score (`level / 10000`) is at least
/// `score`: `0..=10000`, or 10001 when no level reaches it (a score above 1).
pub fn level_at_least(score: f64) -> u32 {
    let mut l = (score * 10_000.0).ceil().clamp(0.0, 10_001.0) as u32;
    while l > 0 && (l - 1) as f64 / 10_000.0 >= score {
        l -= 1;
    }
    while l <= 10_000 && (l as f64 / 10_000.0) < score {
        l += 1;
    }
    l
}

/// The smallest raw similarity of score level `level` or more ([`Levels::lowest_raw`]): a
/// company's level is at least `level` exactly when its combined raw similarity is at least
/// this (levels above 10000: infinity).
pub fn lowest_raw(level: u32) -> f64 {
    Levels::get().lowest_raw(level)
}

/// The lowest score of the band of rank `worst` (0 = A, 1 = B, 2 = C).
pub fn band_floor(worst: u8, broad: bool) -> f64 {
    match worst {
        0 => BAND_A,
        1 => BAND_B,
        _ if broad => BAND_C_BROAD,
        _ => BAND_C,
    }
}

/// The v3 relevance band of a score, `None` below the C floor.
pub fn relevance_of(score: f64, broad: bool) -> Option<Relevance> {
    let floor = if broad { BAND_C_BROAD } else { BAND_C };
    if score >= BAND_A {
        Some(Relevance::A)
    } else if score >= BAND_B {
        Some(Relevance::B)
    } else if score >= floor {
        Some(Relevance::C)
    } else {
        None
    }
}

/// Rank of a band for comparisons: A = 0, B = 1, C = 2.
pub fn band_rank(r: &Relevance) -> u8 {
    match r {
        Relevance::A => 0,
        Relevance::B => 1,
        _ => 2,
    }
}

mod people;
mod scorer;
pub use people::*;
pub use scorer::*;

#[cfg(test)]
mod tests;
