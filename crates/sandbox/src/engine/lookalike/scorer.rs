//! Lookalike scoring at search speed: the targets as bitmaps ([`TargetSet`]), the base index
//! of postings and kept similarities ([`BaseIndex`]), and the scorer that walks them
//! ([`CompanyScorer`]).

use super::*;

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
