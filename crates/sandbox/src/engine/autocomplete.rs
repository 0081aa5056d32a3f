//! Autocomplete structures: prefix search over word starts plus approximate matching by
//! trigrams (SPEC.md §4.1 and §4.10; openapi `models__autocomplete_*`).
//!
//! A [`TextIndex`] holds, for every entry, one sorted key per word start of its lowercase,
//! ASCII-folded text (so `"bank"` finds `"Deutsche Bank"`), and trigram postings. A query first
//! takes the entries whose key starts with the query (whole-text prefix matches before word
//! prefix matches, then by the entry's rank); when that gives fewer than `limit`, entries
//! sharing at least half of the query's trigrams are verified with Jaro–Winkler similarity
//! (≥ 0.8 against the text or any word) and appended best first: `"stirpe"` still finds Stripe.

use std::collections::HashMap;

use crate::dataset::format::{CompanyRow, Reference};
use crate::dataset::load::Db;
use prospect_api::types::autocomplete::{
    AutocompleteCompaniesRequest, AutocompleteCompaniesResponse, AutocompleteCompany,
    AutocompleteJobTitlesRequest, AutocompleteJobTitlesResponse, AutocompleteKeywordsRequest,
    AutocompleteKeywordsResponse, AutocompleteLocation, AutocompleteLocationsRequest,
    AutocompleteLocationsResponse, AutocompleteSkillsRequest, AutocompleteSkillsResponse,
};
use prospect_api::types::common::LocationType;

pub use super::held::{Autocompletes, LocationEntry, TextIndex};
use super::index::{CompanyCols, Vocab};
use super::people::People;
use super::{caps, fold, normalize_domain};

/// The first eight bytes of `s` as a big-endian number, zero-padded: ordering these agrees
/// with ordering the strings whenever the numbers differ.
fn prefix8(s: &str) -> u64 {
    let mut b = [0u8; 8];
    let n = s.len().min(8);
    b[..n].copy_from_slice(&s.as_bytes()[..n]);
    u64::from_be_bytes(b)
}

fn tri(w: &[u8]) -> u32 {
    (w[0] as u32) << 16 | (w[1] as u32) << 8 | w[2] as u32
}

impl TextIndex {
    /// Builds an index over `(text, item, rank)`; lower rank = suggested first.
    pub fn build<S: AsRef<str>>(items: impl IntoIterator<Item = (S, u32, u32)>) -> TextIndex {
        let mut ix = TextIndex::default();
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        let mut seen: Vec<u32> = Vec::new();
        for (text, item, rank) in items {
            let f = fold(text.as_ref());
            if f.is_empty() {
                continue;
            }
            let e = ix.entries.len() as u32;
            let mut at_start = true;
            for (pos, ch) in f.char_indices() {
                if at_start && ch != ' ' && ch != '-' {
                    ix.keys.push((e, pos as u32));
                }
                at_start = ch == ' ' || ch == '-' || ch == '.' || ch == '(';
            }
            seen.clear();
            seen.extend(f.as_bytes().windows(3).map(tri));
            seen.sort_unstable();
            seen.dedup();
            pairs.extend(seen.iter().map(|&t| (t, e)));
            ix.entries.push((f.into(), item, rank));
        }
        // Sorted by text: on the first eight bytes as one number first, the whole text only on
        // a tie (most comparisons then cost no string compare).
        let mut keyed: Vec<(u64, (u32, u32))> =
            ix.keys.iter().map(|&k| (prefix8(ix.key(k)), k)).collect();
        keyed.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| ix.key(a.1).cmp(ix.key(b.1)))
                .then(a.1.0.cmp(&b.1.0))
        });
        ix.keys = keyed.into_iter().map(|(_, k)| k).collect();
        ix.entries.shrink_to_fit();
        pairs.sort_unstable();
        for (k, e) in pairs {
            if ix.tri_keys.last() != Some(&k) {
                ix.tri_keys.push(k);
                ix.tri_start.push(ix.tri_entries.len() as u32);
            }
            ix.tri_entries.push(e);
        }
        ix.tri_start.push(ix.tri_entries.len() as u32);
        ix
    }

    /// The text of a word-start key: the entry's folded text from the key's offset.
    fn key(&self, (e, off): (u32, u32)) -> &str {
        &self.entries[e as usize].0[off as usize..]
    }

    fn trigram_entries(&self, t: u32) -> &[u32] {
        match self.tri_keys.binary_search(&t) {
            Ok(k) => &self.tri_entries[self.tri_start[k] as usize..self.tri_start[k + 1] as usize],
            Err(_) => &[],
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` when empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Up to `limit` distinct items matching `query` by prefix, then approximately; `accept`
    /// filters items (country restrictions, exclusions).
    /// Only the first [`caps::QUERY_CHARS`] characters of `query` are matched.
    pub fn search(&self, query: &str, limit: usize, accept: impl Fn(u32) -> bool) -> Vec<u32> {
        let q = fold(caps::cut(query, caps::QUERY_CHARS));
        let mut out: Vec<u32> = Vec::with_capacity(limit);
        if q.is_empty() || limit == 0 {
            return out;
        }
        let start = self.keys.partition_point(|k| self.key(*k) < q.as_str());
        // (whole-text match?, rank, length, item)
        let mut cands: Vec<(bool, u32, usize, u32)> = Vec::new();
        for &(e, off) in &self.keys[start..] {
            let k = self.key((e, off));
            if !k.starts_with(q.as_str()) {
                break;
            }
            let e = &e;
            let (text, item, rank) = &self.entries[*e as usize];
            if !accept(*item) {
                continue;
            }
            cands.push((text.len() != k.len(), *rank, text.len(), *item));
            if cands.len() > 20_000 {
                break;
            }
        }
        cands.sort_unstable();
        for c in cands {
            if !out.contains(&c.3) {
                out.push(c.3);
                if out.len() >= limit {
                    return out;
                }
            }
        }
        if q.len() < 3 {
            return out;
        }
        // Approximate: count shared trigrams, verify the best candidates.
        let qb = q.as_bytes();
        let mut qtri: Vec<u32> = qb.windows(3).map(tri).collect();
        qtri.sort_unstable();
        qtri.dedup();
        let mut hits: Vec<u32> = Vec::new();
        for &t in &qtri {
            let list = self.trigram_entries(t);
            if list.len() <= 20_000 {
                hits.extend_from_slice(list);
            }
        }
        hits.sort_unstable();
        let need = qtri.len().div_ceil(2).max(1);
        let mut best: Vec<(usize, u32)> = Vec::new();
        let mut i = 0;
        while i < hits.len() {
            let mut j = i;
            while j < hits.len() && hits[j] == hits[i] {
                j += 1;
            }
            if j - i >= need {
                best.push((j - i, hits[i]));
            }
            i = j;
        }
        best.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        best.truncate(150);
        let mut verify: Vec<u32> = best.into_iter().map(|(_, e)| e).collect();
        // Transpositions share few trigrams ("stirpe"/"stripe"): also verify entries with a
        // word starting with the query's first two characters.
        let p2: String = q.chars().take(2).collect();
        let s2 = self.keys.partition_point(|k| self.key(*k) < p2.as_str());
        for &(e, off) in self.keys[s2..].iter().take(250) {
            if !self.key((e, off)).starts_with(p2.as_str()) {
                break;
            }
            verify.push(e);
        }
        verify.sort_unstable();
        verify.dedup();
        let mut scored: Vec<(f64, u32, u32)> = Vec::new();
        for e in verify {
            let (text, item, rank) = &self.entries[e as usize];
            if out.contains(item) || !accept(*item) {
                continue;
            }
            let mut s = strsim::jaro_winkler(&q, text);
            for w in text.split([' ', '-']) {
                s = s.max(strsim::jaro_winkler(&q, w));
            }
            if s >= 0.8 {
                scored.push((s, *rank, *item));
            }
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for (_, _, item) in scored {
            if !out.contains(&item) {
                out.push(item);
                if out.len() >= limit {
                    break;
                }
            }
        }
        out
    }
}

impl Autocompletes {
    /// Builds the indexes. Company ranks come from the default order; keyword ranks from how
    /// many companies use the keyword.
    pub fn build(
        companies: &[CompanyRow],
        reference: &Reference,
        vocab: &Vocab,
        people: &People,
        cols: &[CompanyCols],
    ) -> Autocompletes {
        // The company index is the largest: it is built on its own thread meanwhile.
        std::thread::scope(|s| {
            let company_index = s.spawn(|| {
                let rank: Vec<u32> = cols.iter().map(|c| c.default_rank).collect();
                TextIndex::build(companies.iter().enumerate().flat_map(|(i, c)| {
                    [
                        (c.name.as_str(), i as u32, rank[i]),
                        (c.domain.as_str(), i as u32, rank[i]),
                    ]
                }))
            });
            let mut kw_count = vec![0u32; vocab.keywords.len()];
            for c in cols {
                for &k in c.keywords.iter() {
                    kw_count[k as usize] += 1;
                }
            }
            let keywords = TextIndex::build(
                vocab
                    .keywords
                    .names()
                    .iter()
                    .enumerate()
                    .map(|(i, k)| (k.as_str(), i as u32, u32::MAX - kw_count[i])),
            );
            let job_titles = TextIndex::build(
                people
                    .titles
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (t.title.as_str(), i as u32, t.title.len() as u32)),
            );
            let skills = TextIndex::build(
                people
                    .skills
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (s.as_str(), i as u32, s.len() as u32)),
            );
            // Locations: countries, regions, and the cities companies are in.
            let country_name: HashMap<&str, &str> = reference
                .countries
                .iter()
                .map(|(c, n)| (c.as_str(), n.as_str()))
                .collect();
            let mut locations = Vec::new();
            let mut ranks = Vec::new();
            let mut company_count: HashMap<&str, u32> = HashMap::new();
            for c in companies {
                *company_count.entry(c.country.as_str()).or_default() += 1;
            }
            for (cc, name) in &reference.countries {
                ranks.push(u32::MAX - company_count.get(cc.as_str()).copied().unwrap_or(0));
                locations.push(LocationEntry {
                    kind: 1,
                    name: name.clone(),
                    country: cc.clone(),
                    filter_code: cc.clone(),
                    parent_code: String::new(),
                    parent_name: String::new(),
                });
            }
            for (cc, code, en, _local) in &reference.regions {
                ranks.push(u32::MAX / 2);
                locations.push(LocationEntry {
                    kind: 2,
                    name: en.clone(),
                    country: cc.clone(),
                    filter_code: code.split('-').nth(1).unwrap_or(code).to_string(),
                    parent_code: cc.clone(),
                    parent_name: country_name.get(cc.as_str()).unwrap_or(&"").to_string(),
                });
            }
            // (city, country) → (companies there, region code, region name)
            let mut cities: HashMap<(String, String), CityInfo> = HashMap::new();
            for c in companies {
                if let Some(city) = c.city.as_deref().filter(|s| !s.trim().is_empty()) {
                    let e = cities
                        .entry((city.trim().to_string(), c.country.to_string()))
                        .or_insert((0, c.region_code.clone(), c.region.clone()));
                    e.0 += 1;
                }
            }
            let mut cities = real_cities(cities);
            cities.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(&b.0)));
            for ((city, cc), (n, rcode, rname)) in cities {
                ranks.push(u32::MAX - n as u32);
                let (parent_code, parent_name) = match (rcode, rname) {
                    (Some(code), Some(name)) => (code, name),
                    _ => (
                        cc.clone(),
                        country_name.get(cc.as_str()).unwrap_or(&"").to_string(),
                    ),
                };
                locations.push(LocationEntry {
                    kind: 4,
                    name: city.clone(),
                    country: cc,
                    filter_code: city,
                    parent_code,
                    parent_name,
                });
            }
            let location_index = TextIndex::build(
                locations
                    .iter()
                    .enumerate()
                    .map(|(i, l)| (l.name.as_str(), i as u32, ranks[i])),
            );
            Autocompletes {
                companies: company_index.join().expect("company autocomplete thread"),
                keywords,
                job_titles,
                skills,
                location_index,
                locations,
            }
        })
    }
}

/// What is known of a city: (companies there, ISO 3166-2 region code, region name).
type CityInfo = (usize, Option<String>, Option<String>);

/// A city of the location autocomplete: (city, lowercase country) → [`CityInfo`].
type CityEntry = ((String, String), CityInfo);

/// The cities of `cities` that belong to their country. Sources sometimes give a company the
/// city of one of its offices with the country of its home (a startup in "San Francisco" listed
/// under India): such a city has no region in that country. A city with a region (from the
/// source's state, or the build's city table, both checked against ISO 3166-2) is real and
/// kept (London in GB-ENG and in CA-ON). One without a region is kept only when no country has
/// that city (same folded name) with a region: if its own country has one, its companies join
/// that entry (the most used one); if another country has one, the city belongs there and the
/// entry is dropped. Cities no source places in a region anywhere are kept as they are.
fn real_cities(cities: HashMap<(String, String), CityInfo>) -> Vec<CityEntry> {
    // folded name → countries where it has a region, with the index of its most used entry
    let mut all: Vec<CityEntry> = cities.into_iter().collect();
    all.sort_by(|a, b| a.0.cmp(&b.0));
    let mut regioned: HashMap<String, Vec<(String, usize)>> = HashMap::new();
    for (i, ((city, cc), (n, code, _))) in all.iter().enumerate() {
        if code.is_none() {
            continue;
        }
        let list = regioned.entry(fold(city)).or_default();
        match list.iter_mut().find(|(c, _)| c == cc) {
            Some(best) if all[best.1].1.0 < *n => best.1 = i,
            Some(_) => {}
            None => list.push((cc.clone(), i)),
        }
    }
    let mut keep = vec![true; all.len()];
    let mut extra = vec![0usize; all.len()];
    for (i, ((city, cc), (n, code, _))) in all.iter().enumerate() {
        if code.is_some() {
            continue;
        }
        let Some(list) = regioned.get(&fold(city)) else {
            continue;
        };
        keep[i] = false;
        if let Some((_, j)) = list.iter().find(|(c, _)| c == cc) {
            extra[*j] += n;
        }
    }
    all.into_iter()
        .zip(keep.into_iter().zip(extra))
        .filter(|(_, (k, _))| *k)
        .map(|(mut e, (_, x))| {
            e.1.0 += x;
            e
        })
        .collect()
}

/// Suggestions returned by the keyword, job title, location and skill autocompletes when no
/// `limit` is given (openapi default).
pub const DEFAULT_LIMIT: i64 = 5;
/// Largest `limit` (openapi maximum).
pub const MAX_LIMIT: i64 = 15;
/// Suggestions returned by the company autocomplete (it has no `limit`).
pub const COMPANY_LIMIT: usize = 10;

fn limit(l: Option<i64>) -> usize {
    l.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT) as usize
}

impl Db {
    /// `POST /v2/autocomplete/companies` (SPEC.md §4.1): up to 10 companies whose name or domain
    /// starts with `name` (also at a word start), then approximate matches; `countryFilters`
    /// restricts to companies present in those countries, `excludeDomains` leaves domains out,
    /// `forLookalikeSearch` (default true) keeps only companies usable as lookalike domains
    /// (with industries, keywords or technologies).
    pub fn autocomplete_companies(
        &self,
        req: &AutocompleteCompaniesRequest,
    ) -> AutocompleteCompaniesResponse {
        let countries: Option<Vec<u32>> = req.country_filters.as_ref().map(|v| {
            v.iter()
                .filter_map(|c| self.vocab.countries.get(c))
                .collect()
        });
        let excluded: Vec<String> = req
            .exclude_domains
            .iter()
            .flatten()
            .map(|d| normalize_domain(d))
            .collect();
        let lookalike = req.for_lookalike_search.unwrap_or(true);
        let hits = self
            .autocompletes()
            .companies
            .search(&req.name, COMPANY_LIMIT, |i| {
                let c = &self.cols[i as usize];
                countries
                    .as_ref()
                    .is_none_or(|cs| c.countries.iter().any(|x| cs.contains(x)))
                    && !excluded.contains(&self.companies[i as usize].domain)
                    && !(lookalike
                        && c.industries.is_empty()
                        && c.keywords.is_empty()
                        && c.technologies.is_empty())
            });
        AutocompleteCompaniesResponse {
            companies: hits
                .into_iter()
                .map(|i| {
                    let row = &self.companies[i as usize];
                    AutocompleteCompany {
                        domain: row.domain.clone(),
                        logo: Some(super::records::logo(&row.domain)),
                        name: Some(row.name.clone()),
                    }
                })
                .collect(),
        }
    }

    /// `POST /v2/autocomplete/keywords` (openapi `models__autocomplete_keyword__*`): company
    /// keywords by prefix then approximately, most used first; `limit` default 5, at most 15.
    pub fn autocomplete_keywords(
        &self,
        req: &AutocompleteKeywordsRequest,
    ) -> AutocompleteKeywordsResponse {
        let hits = self
            .autocompletes()
            .keywords
            .search(&req.query, limit(req.limit), |_| true);
        AutocompleteKeywordsResponse {
            keywords: hits
                .into_iter()
                .map(|i| self.vocab.keywords.name(i).to_string())
                .collect(),
        }
    }

    /// `POST /v2/autocomplete/job-titles`: job titles of the title vocabulary, shortest first
    /// among prefix matches; `limit` default 5, at most 15.
    pub fn autocomplete_job_titles(
        &self,
        req: &AutocompleteJobTitlesRequest,
    ) -> AutocompleteJobTitlesResponse {
        let hits = self
            .autocompletes()
            .job_titles
            .search(&req.query, limit(req.limit), |_| true);
        AutocompleteJobTitlesResponse {
            job_titles: hits
                .into_iter()
                .map(|i| self.people.titles[i as usize].title.clone())
                .collect(),
        }
    }

    /// `POST /v2/autocomplete/locations`: countries, regions (ISO 3166-2) and the cities
    /// companies are in; `filterCode` is what the location filters take (country code, region
    /// abbreviation, city name). `locationType` (companies/people) selects the same places:
    /// people are located at their company. `limit` default 5, at most 15.
    pub fn autocomplete_locations(
        &self,
        req: &AutocompleteLocationsRequest,
    ) -> AutocompleteLocationsResponse {
        let ac = self.autocompletes();
        let hits = ac
            .location_index
            .search(&req.query, limit(req.limit), |_| true);
        AutocompleteLocationsResponse {
            locations: hits
                .into_iter()
                .map(|i| {
                    let l = &ac.locations[i as usize];
                    AutocompleteLocation {
                        country_code: l.country.clone(),
                        filter_code: l.filter_code.clone(),
                        name: l.name.clone(),
                        parent_code: l.parent_code.clone(),
                        parent_name: l.parent_name.clone(),
                        kind: match l.kind {
                            1 => LocationType::Country,
                            2 => LocationType::Region,
                            _ => LocationType::City,
                        },
                    }
                })
                .collect(),
        }
    }

    /// `POST /v2/autocomplete/skills`: skills of the skills vocabulary; `limit` default 5, at most 15.
    pub fn autocomplete_skills(
        &self,
        req: &AutocompleteSkillsRequest,
    ) -> AutocompleteSkillsResponse {
        let hits = self
            .autocompletes()
            .skills
            .search(&req.query, limit(req.limit), |_| true);
        AutocompleteSkillsResponse {
            skills: hits
                .into_iter()
                .map(|i| self.people.skills[i as usize].clone())
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cities_without_a_region_join_or_leave_for_the_real_one() {
        let e = |city: &str, cc: &str, n: usize, code: Option<&str>| {
            (
                (city.to_string(), cc.to_string()),
                (
                    n,
                    code.map(str::to_string),
                    code.map(|c| format!("{c} name")),
                ),
            )
        };
        let cities: HashMap<_, _> = [
            e("San Francisco", "us", 50, Some("US-CA")),
            e("San Francisco", "in", 2, None),
            e("London", "gb", 40, Some("GB-ENG")),
            e("London", "ca", 3, Some("CA-ON")),
            e("London", "us", 2, None),
            e("New York", "us", 30, Some("US-NY")),
            e("New york", "us", 4, None),
            e("Bernin", "fr", 1, None),
        ]
        .into_iter()
        .collect();
        let mut got: Vec<(String, String, usize)> = real_cities(cities)
            .into_iter()
            .map(|((c, cc), (n, _, _))| (c, cc, n))
            .collect();
        got.sort();
        let want: Vec<(String, String, usize)> = [
            ("Bernin", "fr", 1),
            ("London", "ca", 3),
            ("London", "gb", 40),
            ("New York", "us", 34),
            ("San Francisco", "us", 50),
        ]
        .iter()
        .map(|(a, b, n)| (a.to_string(), b.to_string(), *n))
        .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn prefix_word_prefix_and_typos() {
        let ix = TextIndex::build(vec![
            ("Stripe".to_string(), 0, 5),
            ("Deutsche Bank".to_string(), 1, 1),
            ("Bank of Stuff".to_string(), 2, 9),
            ("Strapi".to_string(), 3, 2),
        ]);
        assert_eq!(ix.search("str", 10, |_| true), vec![3, 0]);
        assert_eq!(ix.search("bank", 10, |_| true), vec![2, 1]);
        assert_eq!(ix.search("stirpe", 10, |_| true)[0], 0);
        assert_eq!(ix.search("str", 10, |i| i != 3), vec![0]);
        assert!(ix.search("zzzz", 10, |_| true).is_empty());
    }
}
