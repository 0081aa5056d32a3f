//! Companies outside the dataset whose "data gathering" finished (SPEC.md §3 and §7: enrich
//! company answers 201 "Data gathering process has started", warmup lists them in
//! `triggeredDomains`; after the gathering delay they are there).
//!
//! Once there, a gathered company is a company like any other: [`Db::with_gathered`] makes a
//! new snapshot of the database with its row, columns, key maps and generated people added
//! after the dataset's (company and person indexes past the dataset's, last in the default
//! order), so enrich, lookup, every company and people search and the lookalike ranking find
//! it. The dataset's parts are shared with the previous snapshot, not copied (see
//! [`super::layered`]).
//!
//! The row of a gathered domain is generated, plausibly and deterministically, from the domain
//! ([`Db::gathered_row`]); every string in it is one the dataset's vocabularies know, so its
//! columns need no new ids.

use std::collections::HashSet;
use std::sync::Arc;

use crate::dataset::format::CompanyRow;
use crate::dataset::load::Db;
use prospect_api::types::common::{Department, WireEnum};

pub use super::held::Gathered;
use super::index::{CompanyCols, KnownIds, RowView, company_cols};
use super::people::handle_tags;
use super::{SplitMix64, hash_str, normalize_domain};

/// Most keywords and technologies a gathered company takes from its peer.
const PEER_TERMS: usize = 8;
/// How many dataset companies of the drawn industry (in default order) the peer is drawn from.
const PEER_POOL: usize = 64;

/// `true` for a plausible registrable domain (normalized): labels of `[a-z0-9-]` not starting
/// or ending with `-`, at least two labels, a top-level label of at least two letters, at most
/// 253 characters.
pub fn looks_like_domain(d: &str) -> bool {
    let labels: Vec<&str> = d.split('.').collect();
    labels.len() >= 2
        && d.len() <= 253
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        })
        && labels
            .last()
            .is_some_and(|t| t.len() >= 2 && t.chars().all(|c| c.is_ascii_alphabetic()))
}

impl Db {
    /// The generated row of a gathered `domain` (normalized first); `None` for a string that is
    /// not a plausible domain ([`looks_like_domain`]) or a domain the database already has.
    ///
    /// Drawn with a seed from the domain hash: the country from a country-code top-level
    /// domain (`us` otherwise), the name from the first label, 2–2000 employees, one industry
    /// of the reference data; keywords, technologies and department shares come from a dataset
    /// company of the same industry (so lookalike searches can use it). No city, no
    /// socials, no phones.
    pub fn gathered_row(&self, domain: &str) -> Option<CompanyRow> {
        let d = normalize_domain(domain);
        if !looks_like_domain(&d) || self.company_index_normalized(&d).is_some() {
            return None;
        }
        let label = d.split('.').next().unwrap_or("");
        let tld = d.rsplit('.').next().unwrap_or("");
        let mut rng = SplitMix64(hash_str(&d) ^ 0x6E4E);
        let tld_country = if tld == "uk" { "gb" } else { tld };
        let country = if tld.len() == 2 && self.vocab.countries.get(tld_country).is_some() {
            tld_country.to_string()
        } else {
            "us".to_string()
        };
        let name: String = label
            .split('-')
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join(" ");
        let employees = (2.0 * 10f64.powf(rng.unit() * 3.0)).round() as u32;
        let (category, industry) = self
            .reference
            .industries
            .get(rng.below(self.reference.industries.len() as u64) as usize)
            .and_then(|(c, inds)| {
                inds.get(rng.below(inds.len() as u64) as usize)
                    .map(|i| (c.clone(), i.clone()))
            })
            .unwrap_or_else(|| {
                (
                    "Professional Services".into(),
                    "Business Consulting and Services".into(),
                )
            });
        let revenue_musd = employees as f64 * (0.05 + rng.unit() * 0.2);
        let peer = self.peer_of(&industry, &mut rng);
        let names = |f: super::index::VocabField, ids: &[u32]| -> Vec<String> {
            ids.iter()
                .take(PEER_TERMS)
                .map(|&i| self.vocab.interner(f).name(i).to_string())
                .collect()
        };
        use super::index::VocabField as F;
        let (keywords, technologies, technology_categories, department_sizes) = match peer {
            Some(p) => {
                let scale = employees as f64 / p.employees.max(1) as f64;
                (
                    names(F::Keywords, &p.keywords_ord),
                    names(F::Technologies, &p.technologies_ord),
                    names(F::TechCategories, &p.tech_categories_ord),
                    p.dept_sizes
                        .iter()
                        .map(|&(dept, n)| {
                            let dept = Department::ALL
                                .get(dept as usize)
                                .map_or("Other", |x| x.as_str());
                            (dept.to_string(), (n as f64 * scale).round().max(1.0) as u32)
                        })
                        .collect(),
                )
            }
            None => (Vec::new(), Vec::new(), Vec::new(), Vec::new()),
        };
        Some(CompanyRow {
            description: format!("{name} is a company in {industry}."),
            name,
            countries: vec![country.clone()],
            country,
            industry_categories: vec![category],
            industries: vec![industry],
            keywords,
            employees,
            employees_linkedin: (employees as f64 * 0.9).round() as u32,
            revenue_musd,
            technologies,
            technology_categories,
            department_sizes,
            domain: d,
            ..Default::default()
        })
    }

    /// A dataset company of `industry` with keywords, drawn from the first [`PEER_POOL`] of
    /// them in default order.
    fn peer_of(&self, industry: &str, rng: &mut SplitMix64) -> Option<&CompanyCols> {
        let id = self.vocab.industries.get(industry)?;
        let pool: Vec<u32> = self
            .index
            .default_order
            .iter()
            .copied()
            .filter(|&c| {
                let cols = &self.cols[c as usize];
                cols.industries.binary_search(&id).is_ok() && !cols.keywords.is_empty()
            })
            .take(PEER_POOL)
            .collect();
        let pick = *pool.get(rng.below(pool.len() as u64) as usize)?;
        Some(&self.cols[pick as usize])
    }

    /// A snapshot of this database with the gathered companies of `domains` added (each
    /// domain normalized; ones that are not plausible domains, already known, or repeated are
    /// skipped), with their generated people. `None` when none is new. The dataset's parts
    /// are shared, the earlier gathered ones copied (they are few).
    pub fn with_gathered(&self, domains: &[String]) -> Option<Db> {
        let mut seen = HashSet::new();
        let rows: Vec<CompanyRow> = domains
            .iter()
            .map(|d| normalize_domain(d))
            .filter(|d| seen.insert(d.clone()))
            .filter_map(|d| self.gathered_row(&d))
            .collect();
        if rows.is_empty() {
            return None;
        }
        let first = self.companies.len() as u32;
        let first_row = self.person_rows.len() as u32;
        let views: Vec<RowView<'_>> = rows.iter().map(RowView::of).collect();
        let mut ids = KnownIds(&self.vocab);
        let mut cols: Vec<CompanyCols> = views.iter().map(|v| company_cols(&mut ids, v)).collect();
        let (people, ranges, hashes) = self.people.generate_rows(&views, &cols, first, first_row);
        for (k, (c, r)) in cols.iter_mut().zip(ranges).enumerate() {
            c.default_rank = first + k as u32;
            c.people = r;
        }
        let mut g = self.gathered.as_ref().clone();
        g.index.add(&views, first);
        g.index
            .default_order
            .extend(first..first + views.len() as u32);
        g.by_domain_hash.extend(hashes);
        g.handle_tags.extend(handle_tags(&people, first_row));
        g.handle_tags.sort_unstable();
        let slim: Vec<CompanyRow> = views.iter().map(RowView::slim).collect();
        Some(Db {
            companies: self.companies.with_more(slim),
            reference: self.reference.clone(),
            vocab: self.vocab.clone(),
            cols: self.cols.with_more(cols),
            index: self.index.clone(),
            people: self.people.clone(),
            person_rows: self.person_rows.with_more(people),
            gathered: Arc::new(g),
            ac: self.ac.clone(),
            look: self.look.clone(),
            postings: self.postings.clone(),
            records: self.records.clone(),
            person_records: self.person_records.clone(),
            rankings: super::cache::ranking_cache(),
        })
    }

    /// The company of a social handle (`network` as in `SocialNetwork`, `x` for twitter).
    pub(crate) fn company_by_handle(&self, network: u8, handle: &str) -> Option<u32> {
        let key = (network, handle.to_string());
        [&self.index, &self.gathered.index]
            .into_iter()
            .find_map(|ix| ix.handles.get(&key).copied())
    }

    /// The company of a phone number's digits.
    pub(crate) fn company_by_phone(&self, digits: &str) -> Option<u32> {
        [&self.index, &self.gathered.index]
            .into_iter()
            .find_map(|ix| ix.phones.get(digits).copied())
    }

    /// The companies of a normalized name (`normalize_company_name`).
    pub(crate) fn companies_named(&self, key: &str) -> Vec<u32> {
        [&self.index, &self.gathered.index]
            .into_iter()
            .filter_map(|ix| ix.names.get(key))
            .flatten()
            .copied()
            .collect()
    }

    /// The companies whose domain's first label is `label`.
    pub(crate) fn companies_labelled(&self, label: &str) -> Vec<u32> {
        [&self.index, &self.gathered.index]
            .into_iter()
            .filter_map(|ix| ix.labels.get(label))
            .flatten()
            .copied()
            .collect()
    }

    /// The company a normalized domain redirects to, when it is an alias and not a domain.
    pub(crate) fn alias_target(&self, domain: &str) -> Option<u32> {
        let ixs = [&self.index, &self.gathered.index];
        if ixs.iter().any(|ix| ix.domains.contains_key(domain)) {
            return None;
        }
        ixs.iter().find_map(|ix| ix.aliases.get(domain).copied())
    }

    /// Number of gathered companies in this snapshot.
    pub fn gathered_count(&self) -> usize {
        self.companies.tail().len()
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::testdata;

    #[test]
    fn gathered_companies_join_the_database() {
        let db = testdata::db();
        assert!(db.gathered_row("acme.io").is_none());
        assert!(db.gathered_row("not a domain").is_none());
        let row = db.gathered_row("brand-new-startup.de").unwrap();
        assert_eq!(row.country, "de");
        assert_eq!(row.name, "Brand New Startup");
        let n = db.company_count();
        let g = db
            .with_gathered(&[
                "https://www.Brand-New-Startup.de/x".into(),
                "acme.io".into(),
            ])
            .unwrap();
        assert_eq!(g.company_count(), n + 1);
        assert_eq!(g.gathered_count(), 1);
        let i = g.company_index("brand-new-startup.de").unwrap();
        assert_eq!(i as usize, n);
        let (s, e) = g.cols[i as usize].people;
        assert!(e > s);
        let p = g.person(s);
        assert_eq!(p.company, i);
        let id = g.people.id(&g.companies, p);
        assert_eq!(g.resolve_person_id(&id), Some(s));
        let h = g.people.handle(p);
        assert_eq!(g.resolve_handle(&h), Some(s));
        // the dataset's people keep their indexes and ids
        let first = db.people.id(&db.companies, db.person(0));
        assert_eq!(g.resolve_person_id(&first), Some(0));
        // adding it again adds nothing; a second one comes after the first
        assert!(g.with_gathered(&["brand-new-startup.de".into()]).is_none());
        let g2 = g.with_gathered(&["another-one.io".into()]).unwrap();
        assert_eq!(g2.company_index("another-one.io"), Some(n as u32 + 1));
        assert_eq!(g2.company_index("brand-new-startup.de"), Some(n as u32));
        assert!(db.company_index("brand-new-startup.de").is_none());
    }
}
