//! Facets of loaded results: counts per value of a few fields, for the explorer's charts (and
//! any front end). Companies: country, company size, industry, year founded (by decade).
//! People: seniority, department, country. Counts are over the records given (the pages
//! loaded), never the whole result set; the caller says how many of the total that is.

use std::collections::HashMap;

use prospect_api::types::{Company, CompanySize, Person, WireEnum};
use prospect_common::sanitize::sanitize;

/// At most this many bars per facet; the rest are summed into `other`.
pub const MAX_BUCKETS: usize = 10;

/// One chart: a field and its values with their counts, in display order.
#[derive(Debug, Clone, PartialEq)]
pub struct Facet {
    /// The field, e.g. `country`.
    pub name: &'static str,
    /// `(value, count)`, at most [`MAX_BUCKETS`] (+ `other`); values sanitized.
    pub buckets: Vec<(String, u64)>,
    /// Records without a value for this field.
    pub missing: u64,
}

#[derive(Default)]
struct Tally {
    counts: HashMap<String, u64>,
    missing: u64,
}

impl Tally {
    fn add(&mut self, v: Option<String>) {
        match v.filter(|s| !s.trim().is_empty()) {
            Some(v) => *self.counts.entry(sanitize(&v)).or_default() += 1,
            None => self.missing += 1,
        }
    }

    fn add_all<I: IntoIterator<Item = String>>(&mut self, vs: I) {
        let mut any = false;
        for v in vs {
            any = true;
            self.add(Some(v));
        }
        if !any {
            self.missing += 1;
        }
    }

    /// Buckets by count (ties by value), top [`MAX_BUCKETS`] and `other`.
    fn by_count(self, name: &'static str) -> Facet {
        let mut b: Vec<(String, u64)> = self.counts.into_iter().collect();
        b.sort_by(|a, c| c.1.cmp(&a.1).then_with(|| a.0.cmp(&c.0)));
        finish(name, b, self.missing)
    }

    /// Buckets in the order of `key` (sizes, decades), top [`MAX_BUCKETS`] by order.
    fn by_key<K: Ord>(self, name: &'static str, key: impl Fn(&str) -> K) -> Facet {
        let mut b: Vec<(String, u64)> = self.counts.into_iter().collect();
        b.sort_by_key(|(v, _)| key(v));
        finish(name, b, self.missing)
    }
}

fn finish(name: &'static str, mut b: Vec<(String, u64)>, missing: u64) -> Facet {
    if b.len() > MAX_BUCKETS {
        let rest: u64 = b[MAX_BUCKETS - 1..].iter().map(|x| x.1).sum();
        b.truncate(MAX_BUCKETS - 1);
        b.push(("other".to_string(), rest));
    }
    Facet {
        name,
        buckets: b,
        missing,
    }
}

/// Country, company size, industry and year founded (by decade) of `companies`.
pub fn company_facets<'a>(companies: impl IntoIterator<Item = &'a Company>) -> Vec<Facet> {
    let (mut country, mut size, mut industry, mut year) = (
        Tally::default(),
        Tally::default(),
        Tally::default(),
        Tally::default(),
    );
    for c in companies {
        country.add(c.primary_country.clone().map(|s| s.to_uppercase()));
        size.add(c.company_size.as_ref().map(|s| s.as_str().to_string()));
        industry.add_all(c.industries.iter().cloned());
        year.add(
            c.year_founded
                .map(|y| format!("{}s", y.div_euclid(10) * 10)),
        );
    }
    let size_rank = |v: &str| {
        CompanySize::ALL
            .iter()
            .position(|s| s.as_str() == v)
            .unwrap_or(usize::MAX)
    };
    vec![
        country.by_count("country"),
        size.by_key("company size", size_rank),
        industry.by_count("industry"),
        year.by_key("year founded", |v| {
            v.trim_end_matches('s').parse::<i64>().unwrap_or(i64::MAX)
        }),
    ]
}

/// Seniority, department and country of `people`.
pub fn people_facets<'a>(people: impl IntoIterator<Item = &'a Person>) -> Vec<Facet> {
    let (mut seniority, mut department, mut country) =
        (Tally::default(), Tally::default(), Tally::default());
    for p in people {
        seniority.add_all(p.seniorities.iter().map(|s| s.as_str().to_string()));
        department.add_all(p.departments.iter().map(|s| s.as_str().to_string()));
        country.add(p.country.clone().map(|s| s.to_uppercase()));
    }
    vec![
        seniority.by_count("seniority"),
        department.by_count("department"),
        country.by_count("country"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn company(country: &str, size: &str, industries: &[&str], year: i64) -> Company {
        serde_json::from_value(serde_json::json!({
            "domain": format!("{country}{year}.example"),
            "primaryCountry": country, "companySize": size,
            "industries": industries, "yearFounded": year,
        }))
        .unwrap()
    }

    #[test]
    fn counts_order_and_other() {
        let cs = vec![
            company("us", "51-200", &["Software Development"], 1998),
            company("us", "2-10", &["Software Development", "Banking"], 2004),
            company("de", "51-200", &[], 2009),
        ];
        let f = company_facets(&cs);
        assert_eq!(f[0].buckets, vec![("US".into(), 2), ("DE".into(), 1)]);
        // Sizes in their natural order, not by count.
        assert_eq!(f[1].buckets, vec![("2-10".into(), 1), ("51-200".into(), 2)]);
        assert_eq!(f[2].buckets[0], ("Software Development".into(), 2));
        assert_eq!(f[2].missing, 1);
        assert_eq!(f[3].buckets, vec![("1990s".into(), 1), ("2000s".into(), 2)]);
        let many: Vec<Company> = (0..30)
            .map(|i| company(&format!("c{i}"), "2-10", &[], 2000))
            .collect();
        let f = company_facets(&many);
        assert_eq!(f[0].buckets.len(), MAX_BUCKETS);
        assert_eq!(f[0].buckets.last().unwrap(), &("other".to_string(), 21));
    }
}
