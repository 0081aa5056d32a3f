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

/// The lookalike targets of one search, prepared for fast scoring: the id lists of each
/// target as bitmaps over the vocabularies, so an intersection is one bit test per candidate id.
#[derive(Debug, Clone)]
pub struct TargetSet {
    targets: Vec<Target>,
}

#[derive(Debug, Clone)]
struct Target {
    industries: Vec<u64>,
    categories: Vec<u64>,
    keywords: Vec<u64>,
    technologies: Vec<u64>,
    n_industries: usize,
    n_keywords: usize,
    n_technologies: usize,
    log_emp: f32,
    country: u32,
}

fn bitmap(ids: &[u32], len: usize) -> Vec<u64> {
    let mut b = vec![0u64; len.div_ceil(64)];
    for &i in ids {
        if let Some(w) = b.get_mut(i as usize / 64) {
            *w |= 1 << (i % 64);
        }
    }
    b
}

fn count(bits: &[u64], ids: &[u32]) -> usize {
    ids.iter()
        .filter(|&&i| {
            bits.get(i as usize / 64)
                .is_some_and(|w| w & (1 << (i % 64)) != 0)
        })
        .count()
}

impl TargetSet {
    /// Prepares the target companies.
    pub fn new(db: &Db, targets: &[u32]) -> TargetSet {
        let v = &db.vocab;
        TargetSet {
            targets: targets
                .iter()
                .map(|&t| {
                    let c = &db.cols[t as usize];
                    Target {
                        industries: bitmap(&c.industries, v.industries.len()),
                        categories: bitmap(&c.categories, v.categories.len()),
                        keywords: bitmap(&c.keywords, v.keywords.len()),
                        technologies: bitmap(&c.technologies, v.technologies.len()),
                        n_industries: c.industries.len(),
                        n_keywords: c.keywords.len(),
                        n_technologies: c.technologies.len(),
                        log_emp: c.log_emp,
                        country: c.country,
                    }
                })
                .collect(),
        }
    }

    /// `true` when there is no target.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// `raw(c, t)` of company `c` against each target, in target order, into `out`.
    pub fn raws(&self, db: &Db, c: u32, out: &mut Vec<f64>) {
        let cc = &db.cols[c as usize];
        out.clear();
        out.extend(self.targets.iter().map(|t| {
            let ni = count(&t.industries, &cc.industries);
            let jac = if cc.industries.is_empty() || t.n_industries == 0 {
                0.0
            } else {
                ni as f64 / (cc.industries.len() + t.n_industries - ni) as f64
            };
            let och = |bits: &[u64], ids: &[u32], n: usize| {
                if ids.is_empty() || n == 0 {
                    0.0
                } else {
                    count(bits, ids) as f64 / ((ids.len() * n) as f64).sqrt()
                }
            };
            let size = 1.0 - ((cc.log_emp - t.log_emp).abs() as f64 / 2.0);
            0.30 * jac
                + 0.25 * och(&t.keywords, &cc.keywords, t.n_keywords)
                + 0.10 * och(&t.technologies, &cc.technologies, t.n_technologies)
                + 0.15 * f64::from(count(&t.categories, &cc.categories) > 0)
                + 0.12 * size.max(0.0)
                + 0.08 * f64::from(cc.country == t.country)
        }));
    }

    /// The lookalike score of company `c` (module formula, same value as [`company_score`]),
    /// or `None` as soon as it is sure to stay below `min_score`: the cheap terms (industries,
    /// category, size, country) plus the largest possible keyword and technology terms bound
    /// `raw(c, t)` from above, and the combination never exceeds the largest `raw(c, t)`.
    pub fn score_min(&self, db: &Db, c: u32, min_score: f64) -> Option<f64> {
        let cc = &db.cols[c as usize];
        let needed = raw_for_score(min_score) - 1e-6;
        let cheap = |t: &Target| {
            let ni = count(&t.industries, &cc.industries);
            let jac = if cc.industries.is_empty() || t.n_industries == 0 {
                0.0
            } else {
                ni as f64 / (cc.industries.len() + t.n_industries - ni) as f64
            };
            let size = 1.0 - ((cc.log_emp - t.log_emp).abs() as f64 / 2.0);
            0.30 * jac
                + 0.15 * f64::from(count(&t.categories, &cc.categories) > 0)
                + 0.12 * size.max(0.0)
                + 0.08 * f64::from(cc.country == t.country)
        };
        if min_score > 0.0 && !self.targets.iter().any(|t| cheap(t) + 0.35 >= needed) {
            return None;
        }
        let och = |bits: &[u64], ids: &[u32], n: usize| {
            if ids.is_empty() || n == 0 {
                0.0
            } else {
                count(bits, ids) as f64 / ((ids.len() * n) as f64).sqrt()
            }
        };
        let (mut max, mut sum) = (0.0f64, 0.0);
        for t in &self.targets {
            let raw = cheap(t)
                + 0.25 * och(&t.keywords, &cc.keywords, t.n_keywords)
                + 0.10 * och(&t.technologies, &cc.technologies, t.n_technologies);
            max = max.max(raw);
            sum += raw;
        }
        let s = score_of(0.5 * max + 0.5 * sum / self.targets.len() as f64);
        (s >= min_score).then_some(s)
    }
}

/// How many dataset targets' similarities to every base company a [`BaseIndex`] keeps: each
/// is 8 bytes per company (about 320 KB on the real dataset, 20 MB in all), and makes any later
/// search with that target (another seed set holding it, other filters, a repeat) skip its
/// postings walk and its pass over the companies.
pub const TARGETS_KEPT: usize = 64;

impl Default for KeptRaws {
    fn default() -> KeptRaws {
        KeptRaws(quick_cache::sync::Cache::new(TARGETS_KEPT))
    }
}

impl std::fmt::Debug for KeptRaws {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KeptRaws({} targets)", self.0.len())
    }
}

impl Profile {
    fn of(c: &CompanyCols) -> Profile {
        Profile {
            log_emp: c.log_emp,
            country: c.country,
            n_industries: c.industries.len() as u32,
            n_keywords: c.keywords.len() as u32,
            n_technologies: c.technologies.len() as u32,
        }
    }
}

impl Postings {
    fn build(
        n_ids: usize,
        lists: impl Iterator<Item = (u32, impl Iterator<Item = u32>)> + Clone,
    ) -> Postings {
        let mut start = vec![0u32; n_ids + 2];
        for (_, l) in lists.clone() {
            for x in l {
                if let Some(s) = start.get_mut(x as usize + 2) {
                    *s += 1;
                }
            }
        }
        for i in 2..start.len() {
            start[i] += start[i - 1];
        }
        let mut ids = vec![0u32; start[start.len() - 1] as usize];
        for (c, l) in lists {
            for x in l {
                if let Some(s) = start.get_mut(x as usize + 1) {
                    ids[*s as usize] = c;
                    *s += 1;
                }
            }
        }
        start.pop();
        Postings { start, ids }
    }

    fn of(&self, id: u32) -> &[u32] {
        match (self.start.get(id as usize), self.start.get(id as usize + 1)) {
            (Some(&a), Some(&b)) => &self.ids[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Adds one to `counts[p]` for every occurrence of the company at position `p` in the
    /// postings of each distinct id of `list` (so `counts[p]` is how many of its ids the list
    /// holds, as [`TargetSet`]'s bitmaps count them; `ids` is scratch space).
    fn count(&self, list: &[u32], ids: &mut Vec<u32>, counts: &mut [u8]) {
        ids.clear();
        ids.extend_from_slice(list);
        ids.sort_unstable();
        ids.dedup();
        for &id in ids.iter() {
            for &c in self.of(id) {
                if let Some(n) = counts.get_mut(c as usize) {
                    *n = n.saturating_add(1);
                }
            }
        }
    }
}

/// `weight · n / sqrt(len · target_len)` (the weighted Ochiai term, the same value the formula
/// computes; 0 when `n` or the denominator is 0) for every company list length `len` up to
/// `longest` and shared count `n ≤ len`, at `len · (longest + 1) + n`.
fn ochiai_table(weight: f64, target_len: u32, longest: u32) -> Vec<f64> {
    let w = longest as usize + 1;
    let mut t = vec![0.0; w * w];
    for len in 0..w {
        let d = ((len * target_len as usize) as f64).sqrt();
        for n in 1..=len {
            if d > 0.0 {
                t[len * w + n] = weight * (n as f64 / d);
            }
        }
    }
    t
}

/// `0.30 · J(industries)` (the weighted Jaccard term, the same value the formula computes) for
/// every company list length `len` up to `longest` and shared count `n ≤ len`, at
/// `len · (longest + 1) + n`.
fn jaccard_table(target_len: u32, longest: u32) -> Vec<f64> {
    let w = longest as usize + 1;
    let mut t = vec![0.0; w * w];
    for len in 1..w {
        for n in 1..=len {
            if target_len > 0 {
                t[len * w + n] = 0.30 * (n as f64 / (len + target_len as usize - n) as f64);
            }
        }
    }
    t
}

impl BaseIndex {
    /// Builds the postings of the base layer of `db`.
    pub fn build(db: &Db) -> BaseIndex {
        let cols = db.cols.base();
        let v = &db.vocab;
        let mut order: Vec<u32> = (0..cols.len() as u32).collect();
        order.sort_unstable_by_key(|&c| (cols[c as usize].default_rank, c));
        let mut position = vec![0u32; cols.len()];
        for (p, &c) in order.iter().enumerate() {
            position[c as usize] = p as u32;
        }
        let lists = |f: fn(&CompanyCols) -> &[u32]| {
            order
                .iter()
                .enumerate()
                .map(move |(p, &c)| (p as u32, f(&cols[c as usize]).iter().copied()))
        };
        BaseIndex {
            profiles: order
                .iter()
                .map(|&c| Profile::of(&cols[c as usize]))
                .collect(),
            longest: cols.iter().fold((0, 0, 0), |(i, k, t), c| {
                (
                    i.max(c.industries.len() as u32),
                    k.max(c.keywords.len() as u32),
                    t.max(c.technologies.len() as u32),
                )
            }),
            industries: Postings::build(v.industries.len(), lists(|c| &c.industries)),
            categories: Postings::build(v.categories.len(), lists(|c| &c.categories)),
            keywords: Postings::build(v.keywords.len(), lists(|c| &c.keywords)),
            technologies: Postings::build(v.technologies.len(), lists(|c| &c.technologies)),
            kept: KeptRaws::default(),
            ranks: order
                .iter()
                .map(|&c| cols[c as usize].default_rank)
                .collect(),
            order,
            position,
        }
    }

    /// `raw(c, t)` of every base company `c` (by position) against company `t` of `db`: kept for dataset
    /// targets ([`TARGETS_KEPT`]), computed for others (module formula, the same values as
    /// [`TargetSet::raws`]).
    fn raws(&self, db: &Db, t: u32) -> Raws {
        let dataset = (t as usize) < self.profiles.len();
        if dataset && let Some(r) = self.kept.0.get(&t) {
            return r;
        }
        let r =
            BUFFERS.with(|b| self.compute_raws(&db.cols[t as usize], &mut b.borrow_mut().counts));
        if dataset {
            self.kept.0.insert(t, r.clone());
        }
        r
    }

    /// `raw(c, t)` of every base company (by position) against target columns `t`: the
    /// shared-id counts of each company from the target's postings, then one pass over the
    /// compact profiles with the formula's quotients from tables (the same divisions, made once
    /// per list length), written straight into the shared array (one allocation, no copy).
    fn compute_raws(&self, t: &CompanyCols, counts: &mut Counts) -> Raws {
        let n = self.profiles.len();
        for c in [
            &mut counts.industries,
            &mut counts.categories,
            &mut counts.keywords,
            &mut counts.technologies,
        ] {
            c.clear();
            c.resize(n, 0);
        }
        let ids = &mut counts.ids;
        self.industries
            .count(&t.industries, ids, &mut counts.industries);
        self.categories
            .count(&t.categories, ids, &mut counts.categories);
        self.keywords.count(&t.keywords, ids, &mut counts.keywords);
        self.technologies
            .count(&t.technologies, ids, &mut counts.technologies);
        let tp = Profile::of(t);
        let (li, lk, lt) = self.longest;
        let jac = jaccard_table(tp.n_industries, li);
        let kw = ochiai_table(0.25, tp.n_keywords, lk);
        let tech = ochiai_table(0.10, tp.n_technologies, lt);
        let (wi, wk, wt) = (li as usize + 1, lk as usize + 1, lt as usize + 1);
        let term = |table: &[f64], w: usize, len: u32, n: u8| {
            table
                .get(len as usize * w + n as usize)
                .copied()
                .unwrap_or(0.0)
        };
        // The formula's terms in its order of addition, so each sum is the same value.
        self.profiles
            .iter()
            .zip(&counts.industries)
            .zip(&counts.categories)
            .zip(&counts.keywords)
            .zip(&counts.technologies)
            .map(|((((p, &ni), &nc), &nk), &nt)| {
                let size = 1.0 - ((p.log_emp - tp.log_emp).abs() as f64 / 2.0);
                term(&jac, wi, p.n_industries, ni)
                    + if nc > 0 { 0.15 } else { 0.0 }
                    + 0.12 * size.max(0.0)
                    + if p.country == tp.country { 0.08 } else { 0.0 }
                    + term(&kw, wk, p.n_keywords, nk)
                    + term(&tech, wt, p.n_technologies, nt)
            })
            .collect()
    }
}

/// Shared-id counts of each base company (by position) against one target, by field (a company's count is
/// at most the length of its list, which the dataset keeps far below 255; the counts saturate
/// there), and scratch space for the target's distinct ids.
#[derive(Debug, Default)]
struct Counts {
    industries: Vec<u8>,
    categories: Vec<u8>,
    keywords: Vec<u8>,
    technologies: Vec<u8>,
    ids: Vec<u32>,
}

/// The per-thread work space of lookalike scoring, kept between searches so a search
/// allocates nothing large: the [`Counts`] of a target being scored, and the positions and
/// combined similarities of the base companies a search keeps ([`CompanyScorer::within`]).
#[derive(Debug, Default)]
struct Buffers {
    counts: Counts,
    positions: Vec<u32>,
    kept_raws: Vec<f64>,
}

thread_local! {
    static BUFFERS: std::cell::RefCell<Buffers> = std::cell::RefCell::default();
}

/// `0.5·max + 0.5·mean` of one target's raw similarity, summed from 0 as [`combine`] does
/// (the same value).
#[inline]
fn combine_1(x: f64) -> f64 {
    let (max, total) = (0.0f64.max(x), 0.0 + x);
    0.5 * max + 0.5 * total / 1.0
}

/// [`combine_1`] of two targets, in target order.
#[inline]
fn combine_2(x: f64, y: f64) -> f64 {
    let (max, total) = (0.0f64.max(x).max(y), 0.0 + x + y);
    0.5 * max + 0.5 * total / 2.0
}

/// [`combine_1`] of any number of targets, in target order: the combined raw similarity of
/// the base company at position `p`.
#[inline]
fn combine_at(raws: &[Raws], p: usize) -> f64 {
    match raws {
        [a] => combine_1(a[p]),
        [a, b] => combine_2(a[p], b[p]),
        _ => combine(raws.iter().map(|r| r.get(p).copied().unwrap_or(0.0))),
    }
}

/// The lookalike targets of one company search, with every base company already scored: each
/// target's `raw(c, t)` over the base companies ([`BaseIndex`], kept for recent targets),
/// combined into `0.5·max + 0.5·mean` per company as it is read. Gathered companies are scored
/// through a [`TargetSet`]. Scores are the same values as [`TargetSet::score_min`] gives.
#[derive(Debug)]
pub struct CompanyScorer<'a> {
    base: &'a BaseIndex,
    /// The targets (company indexes), and their [`TargetSet`] for gathered companies, made on
    /// the first one asked for (most snapshots have none).
    targets: Vec<u32>,
    set: std::cell::OnceCell<TargetSet>,
    /// `raw(c, t)` of every base company by position, one array per target.
    raws: Vec<Raws>,
    /// The last `min_score` asked of [`CompanyScorer::score_min`] and the smallest raw
    /// similarity that reaches it.
    needed: std::cell::Cell<(f64, f64)>,
    /// [`score_of`] by table.
    levels: &'static Levels,
}

impl<'a> CompanyScorer<'a> {
    /// Prepares `targets` (company indexes): their similarities to every base company of `db`,
    /// kept or computed ([`BaseIndex::raws`]).
    pub fn new(db: &'a Db, targets: &[u32]) -> CompanyScorer<'a> {
        let base = db.look.get_or_init(|| BaseIndex::build(db));
        CompanyScorer {
            base,
            raws: targets.iter().map(|&t| base.raws(db, t)).collect(),
            targets: targets.to_vec(),
            set: std::cell::OnceCell::new(),
            needed: std::cell::Cell::new((f64::NAN, 0.0)),
            levels: Levels::get(),
        }
    }

    /// The lookalike score of company `c`, or `None` below `min_score` (as
    /// [`TargetSet::score_min`], with the same values).
    #[inline]
    pub fn score_min(&self, db: &Db, c: u32, min_score: f64) -> Option<f64> {
        let Some(&p) = self.base.position.get(c as usize) else {
            let set = self.set.get_or_init(|| TargetSet::new(db, &self.targets));
            return set.score_min(db, c, min_score);
        };
        if self.raws.is_empty() {
            return None;
        }
        let needed = match self.needed.get() {
            (m, needed) if m == min_score => needed,
            _ => {
                let needed = self.levels.lowest_raw(level_at_least(min_score));
                self.needed.set((min_score, needed));
                needed
            }
        };
        let raw = combine_at(&self.raws, p as usize);
        if raw < needed {
            return None;
        }
        let s = self.levels.score(raw);
        (s >= min_score).then_some(s)
    }

    /// The base companies (indexes below [`CompanyScorer::base_len`]) whose score level
    /// (`score · 10000`) is in `lowest..=highest`, the targets themselves left out, in the
    /// default order, each with its combined raw similarity: one pass over the targets' arrays
    /// that compares each combined value with the two levels' bounds ([`Levels::lowest_raw`])
    /// and keeps it without a branch; no level is computed.
    pub fn within(&self, lowest: u32, highest: u32) -> Vec<Scored> {
        if self.raws.is_empty() {
            return Vec::new();
        }
        let lo = self.levels.lowest_raw(lowest);
        let hi = self.levels.lowest_raw(highest.saturating_add(1));
        let n = self.base_len();
        BUFFERS.with(move |b| {
            let Buffers {
                positions,
                kept_raws,
                ..
            } = &mut *b.borrow_mut();
            if positions.len() <= n {
                positions.resize(n + 1, 0);
                kept_raws.resize(n + 1, 0.0);
            }
            let (positions, kept_raws) = (&mut positions[..=n], &mut kept_raws[..=n]);
            // Each value is written at the next free slot, which moves on only when it is kept
            // (the slot is at most its position, so always in bounds); `&`, not `&&`, so there
            // is no branch to mispredict.
            let mut kept = 0usize;
            match self.raws.as_slice() {
                [a] => {
                    for (p, &x) in a.iter().enumerate() {
                        let raw = combine_1(x);
                        positions[kept] = p as u32;
                        kept_raws[kept] = raw;
                        kept += usize::from(raw >= lo) & usize::from(raw < hi);
                    }
                }
                [a, b] => {
                    for (p, (&x, &y)) in a.iter().zip(b.iter()).enumerate() {
                        let raw = combine_2(x, y);
                        positions[kept] = p as u32;
                        kept_raws[kept] = raw;
                        kept += usize::from(raw >= lo) & usize::from(raw < hi);
                    }
                }
                raws => {
                    for p in 0..n {
                        let raw = combine_at(raws, p);
                        positions[kept] = p as u32;
                        kept_raws[kept] = raw;
                        kept += usize::from(raw >= lo) & usize::from(raw < hi);
                    }
                }
            }
            // The targets' own positions, ascending, skipped as the kept positions pass them.
            let mut targets: Vec<u32> = (self.targets.iter())
                .filter_map(|&t| self.base.position.get(t as usize).copied())
                .collect();
            targets.sort_unstable();
            let mut targets = targets.into_iter().peekable();
            let (order, ranks) = (&self.base.order, &self.base.ranks);
            let mut scored = Vec::with_capacity(kept);
            for (&p, &raw) in positions[..kept].iter().zip(&kept_raws[..kept]) {
                while targets.next_if(|&t| t < p).is_some() {}
                if targets.next_if_eq(&p).is_some() {
                    continue;
                }
                scored.push(Scored {
                    raw,
                    company: order[p as usize],
                    default_rank: ranks[p as usize],
                });
            }
            scored
        })
    }

    /// A gathered company (index at or above [`CompanyScorer::base_len`]) whose score level is
    /// in `lowest..=highest`, scored through the targets' [`TargetSet`]; `None` outside it or
    /// when it is a target. Its `raw` is the lowest of its level ([`Levels::lowest_raw`]),
    /// which has the same level.
    pub fn gathered_within(&self, db: &Db, c: u32, lowest: u32, highest: u32) -> Option<Scored> {
        if self.targets.contains(&c) {
            return None;
        }
        let score = self.score_min(db, c, lowest as f64 / 10_000.0)?;
        let level = round_units(score * 10_000.0) as u32;
        (lowest..=highest).contains(&level).then(|| Scored {
            raw: self.levels.lowest_raw(level),
            company: c,
            default_rank: db.cols[c as usize].default_rank,
        })
    }

    /// How many companies are base companies (scored by [`CompanyScorer::within`]); the
    /// others, gathered, are scored one by one ([`CompanyScorer::gathered_within`]).
    pub fn base_len(&self) -> usize {
        self.base.order.len()
    }
}

/// A company matched by a lookalike search ([`CompanyScorer::within`]), before ordering.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scored {
    /// Its combined raw similarity to the targets, `0..=1` (its score is `raw^0.4`).
    pub raw: f64,
    /// Its company index.
    pub company: u32,
    /// Its position in the default order (`CompanyCols::default_rank`), for the sort key.
    pub default_rank: u32,
}

impl Scored {
    /// Its score level: `score · 10000`, `0..=10000` (the score is `level / 10000`).
    #[inline]
    pub fn level(&self) -> u32 {
        Levels::get().level(self.raw) as u32
    }
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

fn title_words(db: &Db, p: &PersonRow) -> Vec<u64> {
    let mut w: Vec<u64> = db.people.titles[p.title as usize]
        .lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|s| s.len() > 2)
        .map(super::hash_str)
        .collect();
    w.sort_unstable();
    w.dedup();
    w
}

/// Lookalike score (`0..=1`) of person `p` against target people (module formula).
pub fn person_score(db: &Db, p: u32, targets: &[u32]) -> f64 {
    PersonTargets::new(db, targets).score(db, p)
}

/// The target people of one search, prepared for scoring many candidates: their title words
/// once, and the candidates' title words once per title.
#[derive(Debug)]
pub struct PersonTargets {
    targets: Vec<(u32, Vec<u64>)>,
    /// Per candidate title, `0.35·[same department] + 0.25·[same seniority] + 0.15·J(title
    /// words)` against each target (department and seniority come with the title).
    by_title: super::FastMap<u32, Vec<f64>>,
    /// The target people's companies.
    companies: TargetSet,
    /// The last candidate company and its `raw` against each target's company.
    last: Option<(u32, Vec<f64>)>,
}

impl PersonTargets {
    /// Prepares the target people (person indexes).
    pub fn new(db: &Db, targets: &[u32]) -> PersonTargets {
        let companies: Vec<u32> = targets
            .iter()
            .map(|&t| db.person_rows[t as usize].company)
            .collect();
        PersonTargets {
            targets: targets
                .iter()
                .map(|&t| (t, title_words(db, &db.person_rows[t as usize])))
                .collect(),
            by_title: super::FastMap::default(),
            companies: TargetSet::new(db, &companies),
            last: None,
        }
    }

    /// Lookalike score (`0..=1`) of person `p` (module formula, same value as
    /// [`person_score`]).
    pub fn score(&mut self, db: &Db, p: u32) -> f64 {
        let pr = &db.person_rows[p as usize];
        // Candidates come grouped by company: their company's similarities are kept.
        if self.last.as_ref().is_none_or(|(c, _)| *c != pr.company) {
            let mut raws = self.last.take().map(|(_, r)| r).unwrap_or_default();
            self.companies.raws(db, pr.company, &mut raws);
            self.last = Some((pr.company, raws));
        }
        let company_raws = self.last.as_ref().map(|(_, r)| r.as_slice()).unwrap_or(&[]);
        let targets = &self.targets;
        let title_part = self.by_title.entry(pr.title).or_insert_with(|| {
            let pw = title_words(db, pr);
            targets
                .iter()
                .map(|(t, tw)| {
                    let tr = &db.person_rows[*t as usize];
                    let common = pw.iter().filter(|x| tw.contains(x)).count();
                    let union = pw.len() + tw.len() - common;
                    let jt = if union == 0 {
                        0.0
                    } else {
                        common as f64 / union as f64
                    };
                    0.35 * f64::from(pr.department == tr.department)
                        + 0.25 * f64::from(pr.seniority == tr.seniority)
                        + 0.15 * jt
                })
                .collect()
        });
        score_of(combine(
            title_part
                .iter()
                .zip(company_raws)
                .map(|(part, raw)| part + 0.25 * raw),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(ind: &[u32], kw: &[u32], emp: u32, country: u32) -> CompanyCols {
        CompanyCols {
            log_emp: (1.0 + emp as f64).log10() as f32,
            industries: ind.into(),
            categories: [ind[0] / 10].into(),
            keywords: kw.into(),
            employees: emp,
            country,
            ..Default::default()
        }
    }

    #[test]
    fn same_profile_scores_one_and_unrelated_low() {
        let a = cols(&[1, 2], &[10, 11, 12], 100, 0);
        assert!((score_of(raw_pair(&a, &a)) - 0.9587).abs() < 0.001);
        let b = cols(&[55], &[90], 100_000, 3);
        assert!(score_of(raw_pair(&b, &a)) < 0.35);
        assert!((raw_for_score(score_of(0.5)) - 0.5).abs() < 1e-3);
        assert_eq!(relevance_of(0.9, false), Some(Relevance::A));
        assert_eq!(relevance_of(0.4, false), None);
        assert_eq!(relevance_of(0.4, true), Some(Relevance::C));
    }

    /// The score table gives `score_of` exactly: at every level boundary, next to it, and at
    /// spread raw similarities.
    #[test]
    fn score_table_is_score_of() {
        let levels = Levels::get();
        let mut raws: Vec<f64> = (0..=200_000).map(|i| i as f64 / 200_000.0).collect();
        for &b in &levels.lo {
            raws.push(b);
            raws.push(f64::from_bits(b.to_bits() + 1));
            if b > 0.0 {
                raws.push(f64::from_bits(b.to_bits() - 1));
            }
        }
        for raw in raws {
            assert_eq!(levels.score(raw), score_of(raw), "raw {raw:e}");
        }
        // Each level's lowest raw similarity is of that level, and the one below it is not.
        for l in 0..=10_000u32 {
            let lo = lowest_raw(l);
            assert_eq!(levels.level(lo), l as usize, "level {l}");
            if lo > 0.0 {
                assert!(levels.level(f64::from_bits(lo.to_bits() - 1)) < l as usize);
            }
        }
        assert_eq!(lowest_raw(10_001), f64::INFINITY);
        // The lowest level reaching a score, against a scan of every level.
        let scan = |score: f64| {
            (0..=10_000u32)
                .find(|&l| l as f64 / 10_000.0 >= score)
                .unwrap_or(10_001)
        };
        for score in [
            -1.0f64, 0.0, 0.35, 0.5, 0.7, 0.79, 0.85, 1.0, 1.5, 0.123_45, 0.999_95,
        ] {
            for s in [score, f64::from_bits(score.to_bits() + 1), score - 1e-12] {
                assert_eq!(level_at_least(s), scan(s), "score {s}");
            }
        }
        for x in [
            0.0,
            0.4,
            0.5,
            0.49999999999999994,
            1.5,
            2.5,
            9999.5,
            1234.4999,
        ] {
            assert_eq!(round_units(x), x.round(), "{x}");
        }
    }

    /// [`TargetSet`] and [`CompanyScorer`] against `targets` give the formula's raw
    /// similarities and scores for every company, and [`CompanyScorer::within`] gives exactly
    /// the companies whose score is in a range of levels, with their scores, in the default
    /// order.
    fn prepared_companies_score_as_the_formula(db: &Db, targets: &[u32]) {
        let n = db.company_count() as u32;
        let set = TargetSet::new(db, targets);
        let scorer = CompanyScorer::new(db, targets);
        let mut raws = Vec::new();
        for c in 0..n {
            set.raws(db, c, &mut raws);
            for (t, r) in targets.iter().zip(&raws) {
                let want = raw_pair(&db.cols[c as usize], &db.cols[*t as usize]);
                assert!((r - want).abs() < 1e-9, "{c} {t}: {r} vs {want}");
            }
            let s = company_score(db, c, targets);
            assert_eq!(set.score_min(db, c, 0.0), Some(s));
            assert_eq!(scorer.score_min(db, c, 0.0), Some(s), "company {c}");
            assert_eq!(
                scorer.score_min(db, c, 0.8),
                set.score_min(db, c, 0.8),
                "company {c}"
            );
        }
        let levels = Levels::get();
        for (lowest, highest) in [(0, 10_000), (3_500, 10_000), (5_000, 6_999), (8_000, 8_499)] {
            let within = scorer.within(lowest, highest);
            let mut want: Vec<(u32, f64)> = (0..n)
                .filter(|c| !targets.contains(c))
                .filter_map(|c| {
                    set.score_min(db, c, lowest as f64 / 10_000.0)
                        .map(|s| (c, s))
                })
                .filter(|&(_, s)| s <= highest as f64 / 10_000.0)
                .collect();
            want.sort_by_key(|&(c, _)| db.cols[c as usize].default_rank);
            let got: Vec<(u32, f64)> = within
                .iter()
                .map(|m| (m.company, levels.score(m.raw)))
                .collect();
            assert_eq!(
                got,
                want,
                "levels {lowest}..={highest}, {} targets",
                targets.len()
            );
            for m in &within {
                assert_eq!(m.level() as f64 / 10_000.0, levels.score(m.raw));
                assert_eq!(m.default_rank, db.cols[m.company as usize].default_rank);
            }
        }
    }

    /// The prepared forms give the formula's values.
    #[test]
    fn prepared_targets_score_as_the_formula() {
        let db = crate::engine::testdata::db();
        let n = db.company_count() as u32;
        // One and two targets have their own combining loops; three take the general one.
        for take in [1, 2, 3] {
            let targets: Vec<u32> = (0..n).step_by(7).take(take).collect();
            prepared_companies_score_as_the_formula(&db, &targets);
        }
        let people: Vec<u32> = (0..db.person_count() as u32).step_by(11).take(4).collect();
        let mut pt = PersonTargets::new(&db, &people);
        for p in 0..db.person_count() as u32 {
            let want = {
                let pr = &db.person_rows[p as usize];
                let pw = title_words(&db, pr);
                score_of(combine(people.iter().map(|&t| {
                    let tr = &db.person_rows[t as usize];
                    let tw = title_words(&db, tr);
                    let common = pw.iter().filter(|x| tw.contains(x)).count();
                    let union = pw.len() + tw.len() - common;
                    let jt = if union == 0 {
                        0.0
                    } else {
                        common as f64 / union as f64
                    };
                    0.35 * f64::from(pr.department == tr.department)
                        + 0.25 * f64::from(pr.seniority == tr.seniority)
                        + 0.15 * jt
                        + 0.25
                            * raw_pair(&db.cols[pr.company as usize], &db.cols[tr.company as usize])
                })))
            };
            assert_eq!(pt.score(&db, p), want, "person {p}");
        }
    }
}
