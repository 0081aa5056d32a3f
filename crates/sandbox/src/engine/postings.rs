//! People search by index (issue 39): postings of the dataset's people by seniority,
//! department and job title, so that a people filter that narrows reads the people it can
//! match rather than every person of every matching company.
//!
//! The postings only choose candidates: every candidate is still checked by
//! [`PeopleQuery::matches`], in ascending person index as the scan reads them, so a search
//! answers exactly what the scan answers (tested against it on random filter sets). The
//! gathered companies' people (after the dataset's) are not indexed and are scanned.

use super::filters::{PeopleQuery, Scratch, TitleSet};
use super::held::{PeoplePostings, PersonRow};
use crate::dataset::load::Db;

/// A condition narrows enough to be read from the postings when its people are at most this
/// share of the dataset's (1/4); above it, the scan of the matching companies is as fast.
const NARROW_SHARE: usize = 4;

impl PeoplePostings {
    /// The postings of `rows` (the dataset's people, in person index order).
    pub fn build(rows: &[PersonRow], titles: usize) -> PeoplePostings {
        let mut p = PeoplePostings {
            base: rows.len() as u32,
            by_seniority: Vec::new(),
            by_department: Vec::new(),
            by_title: vec![Vec::new(); titles],
        };
        let grow = |v: &mut Vec<Vec<u32>>, i: usize| {
            if v.len() <= i {
                v.resize_with(i + 1, Vec::new);
            }
        };
        for (pi, r) in rows.iter().enumerate() {
            let pi = pi as u32;
            grow(&mut p.by_seniority, r.seniority as usize);
            p.by_seniority[r.seniority as usize].push(pi);
            grow(&mut p.by_department, r.department as usize);
            p.by_department[r.department as usize].push(pi);
            grow(&mut p.by_title, r.title as usize);
            p.by_title[r.title as usize].push(pi);
        }
        p
    }

    /// Number of people indexed.
    pub fn base(&self) -> u32 {
        self.base
    }

    /// The dataset's people that can satisfy `pq`, sorted ascending: the postings of its most
    /// narrowing indexed condition (the `include` list, the seniorities, the departments, or
    /// one set of job titles every match must have). `None` when no condition narrows to at
    /// most 1/[`NARROW_SHARE`] of the people, or to fewer than `scan` (the people a scan of
    /// the matching companies would read), or when the query has text conditions, whose read
    /// budget follows the scan's order.
    pub fn candidates(&self, pq: &PeopleQuery, scan: usize) -> Option<Vec<u32>> {
        if !pq.texts.is_empty() || pq.never {
            return None;
        }
        let limit = (self.base as usize / NARROW_SHARE).min(scan.saturating_sub(1));
        let mut options: Vec<(usize, Source<'_>)> = Vec::new();
        if let Some(include) = &pq.include {
            options.push((include.len(), Source::Include(include)));
        }
        if let Some(mask) = pq.seniorities {
            options.push((
                masked_len(&self.by_seniority, mask),
                Source::Mask(&self.by_seniority, mask),
            ));
        }
        if let Some(mask) = pq.departments {
            options.push((
                masked_len(&self.by_department, mask),
                Source::Mask(&self.by_department, mask),
            ));
        }
        for set in &pq.titles_all {
            let size = self
                .by_title
                .iter()
                .enumerate()
                .filter(|(t, _)| set.contains(*t as u32))
                .map(|(_, v)| v.len())
                .sum();
            options.push((size, Source::Titles(set)));
        }
        let best = options
            .into_iter()
            .filter(|(size, _)| *size <= limit)
            .min_by_key(|(size, _)| *size);
        let (size, source) = best?;
        let mut out = Vec::with_capacity(size);
        match source {
            Source::Include(include) => {
                out.extend(include.iter().copied().filter(|&pi| pi < self.base))
            }
            Source::Mask(lists, mask) => {
                for (i, v) in lists.iter().enumerate() {
                    if i < 32 && mask & (1 << i) != 0 {
                        out.extend_from_slice(v);
                    }
                }
                out.sort_unstable();
            }
            Source::Titles(set) => {
                for (t, v) in self.by_title.iter().enumerate() {
                    if set.contains(t as u32) {
                        out.extend_from_slice(v);
                    }
                }
                out.sort_unstable();
            }
        }
        Some(out)
    }
}

/// Where the candidates of a query come from.
enum Source<'a> {
    /// The query's own `include` list (sorted).
    Include(&'a [u32]),
    /// The lists whose bit is set in the mask.
    Mask(&'a [Vec<u32>], u32),
    /// The lists of the titles in the set.
    Titles(&'a TitleSet),
}

/// How many people the lists whose bit is set in `mask` hold.
fn masked_len(lists: &[Vec<u32>], mask: u32) -> usize {
    lists
        .iter()
        .enumerate()
        .filter(|(i, _)| *i < 32 && mask & (1 << i) != 0)
        .map(|(_, v)| v.len())
        .sum()
}

impl Db {
    /// The postings of the dataset's people, built on first use ([`PeoplePostings::build`]).
    pub(crate) fn postings(&self) -> &PeoplePostings {
        self.postings.get_or_init(|| {
            PeoplePostings::build(self.person_rows.base(), self.people.titles.len())
        })
    }

    /// The people of `companies` (`(key, company index)`, in any order) who match `pq`, as
    /// `(company key, person index)`, at most `per_company` of each company (its first by
    /// person index), in no particular order: the same set as a scan of each company's
    /// people, read from the postings when a condition narrows ([`PeoplePostings::candidates`]);
    /// `None` when none does (the caller scans).
    pub(crate) fn people_from_postings(
        &self,
        companies: &[(u64, u32)],
        pq: &PeopleQuery,
        per_company: Option<usize>,
    ) -> Option<Vec<(u64, u32)>> {
        let postings = self.postings();
        let scan: usize = companies
            .iter()
            .map(|&(_, c)| {
                let (s, e) = self.cols[c as usize].people;
                (e - s) as usize
            })
            .sum();
        let candidates = postings.candidates(pq, scan)?;
        // The key of each matching company; `u64::MAX` for the others (no key reaches it: a
        // key is a rank, or a score above a rank, both far below).
        let mut key_of = vec![u64::MAX; self.companies.len()];
        for &(key, c) in companies {
            key_of[c as usize] = key;
        }
        let mut out = Vec::new();
        let mut scratch = Scratch::default();
        let (mut company, mut taken) = (u32::MAX, 0usize);
        for pi in candidates {
            let c = self.person_rows[pi as usize].company;
            let key = key_of[c as usize];
            if key == u64::MAX {
                continue;
            }
            if c != company {
                (company, taken) = (c, 0);
            }
            if per_company.is_some_and(|m| taken >= m) {
                continue;
            }
            if pq.matches(self, pi, &mut scratch) {
                out.push((key, pi));
                taken += 1;
            }
        }
        // The gathered companies' people are not indexed: scanned.
        for &(key, c) in companies {
            let (s, e) = self.cols[c as usize].people;
            if s < postings.base() {
                continue;
            }
            let mut n = 0;
            for pi in s..e {
                if per_company.is_some_and(|m| n >= m) {
                    break;
                }
                if pq.matches(self, pi, &mut scratch) {
                    out.push((key, pi));
                    n += 1;
                }
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::compile;
    use super::super::mix64;
    use super::super::search::Ranking;
    use crate::dataset::load::Db;
    use prospect_api::types::filters_v3::{CompaniesFiltersV3, PeopleFiltersV3};
    use serde_json::{Value, json};

    /// A random pick of up to `n` of `from`.
    fn some(seed: &mut u64, from: &[&str], n: usize) -> Vec<Value> {
        let mut out = Vec::new();
        for _ in 0..=(mix64(*seed) as usize % n) {
            *seed = mix64(*seed);
            out.push(json!(from[*seed as usize % from.len()]));
        }
        out
    }

    /// The postings answer what the scan answers: 300 random filter sets (seniorities,
    /// departments, job titles, countries, names, `include` ids, at most N a company) over the
    /// embedded dataset, each compared set for set with [`Db::scan_people`].
    #[test]
    fn the_postings_answer_as_the_scan_on_random_filters() {
        let db = Db::load_embedded().expect("embedded asset");
        if db.company_count() == 0 {
            return;
        }
        let seniorities = [
            "C-Level", "VP", "Head", "Director", "Manager", "Founder", "Other",
        ];
        let departments = [
            "Sales",
            "Engineering",
            "Marketing and Advertising",
            "Accounting and Finance",
            "HR",
            "Operations",
            "Legal",
        ];
        let titles = [
            "sales", "engineer", "chief", "manager", "account", "officer",
        ];
        let countries = ["us", "de", "gb", "fr", "in"];
        let ids: Vec<String> = (0..40u32)
            .map(|i| db.people.id(&db.companies, db.person(i * 977)))
            .collect();
        let mut seed = 0x5EED_u64;
        let mut narrowed = 0;
        for round in 0..300 {
            seed = mix64(seed ^ round);
            let mut people = serde_json::Map::new();
            let pick = |bit: u64| seed >> bit & 1 == 1;
            if pick(1) {
                people.insert(
                    "seniorities".into(),
                    some(&mut (seed ^ 11), &seniorities, 3).into(),
                );
            }
            if pick(2) {
                people.insert(
                    "departments".into(),
                    some(&mut (seed ^ 12), &departments, 2).into(),
                );
            }
            if pick(3) {
                people.insert(
                    "jobTitleKeywords".into(),
                    json!({"anyOf": some(&mut (seed ^ 13), &titles, 2)}),
                );
            }
            if pick(4) {
                people.insert(
                    "countries".into(),
                    some(&mut (seed ^ 14), &countries, 2).into(),
                );
            }
            if pick(5) {
                people.insert(
                    "includePeopleIds".into(),
                    json!(ids[..(round as usize % 40) + 1]),
                );
            }
            let companies: CompaniesFiltersV3 = serde_json::from_value(if pick(6) {
                json!({"primaryLocations": {"includeCountries": some(&mut (seed ^ 15), &countries, 2)}})
            } else {
                json!({})
            })
            .unwrap();
            let filters: PeopleFiltersV3 = serde_json::from_value(Value::Object(people)).unwrap();
            let pq = compile::people_v3(&db, &filters, 0.8);
            let q = compile::companies_v3(&db, &companies);
            let ranked = db.rank_companies(&q, None, &Ranking::default());
            let per = pick(7).then_some(1 + (seed >> 8) as usize % 3);
            let mut scanned = db.scan_people(&ranked, &pq, per);
            let mut collected = db.collect_people(&ranked, &pq, per);
            if db.people_from_postings(&ranked, &pq, per).is_some() {
                narrowed += 1;
            }
            scanned.sort_unstable();
            collected.sort_unstable();
            assert_eq!(
                collected, scanned,
                "round {round}: {filters:?} at {companies:?}, {per:?} a company"
            );
        }
        assert!(narrowed > 100, "the postings answered {narrowed} of 300");
    }
}
