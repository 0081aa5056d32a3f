//! What the engine keeps between requests so that repeated work is done once (issue 18,
//! "Speed"): the serialized JSON of the records it serves, and the ranked matches of recent
//! searches (a client paging through one filter sends the same filter for every page).
//!
//! Both are bounded ([`RECORDS_CACHED`], [`RANKINGS_CACHED`]) and only hold what the same
//! database would compute again: records of the dataset's own companies (which no gathering
//! changes), and the rankings of one snapshot keyed by the request's filters (a snapshot with
//! gathered companies starts with none).

use std::sync::Arc;

pub(crate) use super::held::ranking_cache;
use super::paging::Ranked;
use crate::dataset::load::Db;
use prospect_api::types::RecordJson;
use prospect_api::types::common::Relevance;

impl Db {
    /// The company record of company `i` (SPEC.md §2.3) as JSON: serialized once for the
    /// dataset's companies, then copied from the cache; a gathered company's is serialized
    /// each time (its index means another company in another sandbox sharing the dataset).
    /// The same JSON as `serde_json::to_string(&records::company(self, i))`.
    pub fn record_json(&self, i: u32) -> RecordJson {
        let cache = (i as usize) < self.companies.base_len();
        if cache && let Some(r) = self.records.get(&i) {
            return r;
        }
        let r = RecordJson::of(&super::records::company(self, i));
        if cache {
            self.records.insert(i, r.clone());
        }
        r
    }

    /// A v3 people result (openapi `LookalikePerson`: the person record without contacts, its
    /// employer's summary, `relevance`) as JSON: the person serialized once for the dataset's
    /// people, then copied from the cache, and the summary and relevance written after it.
    /// The same JSON as `serde_json::to_string(&records::lookalike_person(self, pi,
    /// relevance))`, for a person whose contacts are not revealed.
    pub fn lookalike_person_json(&self, pi: u32, relevance: Option<Relevance>) -> RecordJson {
        let cache = (pi as usize) < self.person_rows.base_len();
        let person = match cache.then(|| self.person_records.get(&pi)).flatten() {
            Some(p) => p,
            None => {
                let p = RecordJson::of_serialize(&super::records::person(self, pi));
                if cache {
                    self.person_records.insert(pi, p.clone());
                }
                p
            }
        };
        let ci = self.person_rows[pi as usize].company;
        let company = serde_json::to_string(&super::records::person_company(self, ci))
            .unwrap_or_else(|_| "{}".into());
        let person = person.0.get();
        let open = person.strip_suffix('}').unwrap_or(person);
        let mut text = String::with_capacity(person.len() + company.len() + 32);
        text.push_str(open);
        if open.len() > 1 {
            text.push(',');
        }
        text.push_str("\"company\":");
        text.push_str(&company);
        if let Some(r) = relevance {
            text.push_str(",\"relevance\":");
            text.push_str(&serde_json::to_string(&r).unwrap_or_else(|_| "null".into()));
        }
        text.push('}');
        RecordJson::from_json(text)
    }

    /// The ranked matches of the search `key` (the endpoint and its filters, as JSON) on this
    /// snapshot: `rank` runs the first time, the kept ranking is given the next times (it
    /// sorts the rest of its matches when a page first needs them, [`Ranked::page`]).
    pub(crate) fn ranked(&self, key: String, rank: impl FnOnce() -> Ranked) -> Arc<Ranked> {
        if let Some(r) = self.rankings.get(&key) {
            return r;
        }
        let r = Arc::new(rank());
        self.rankings.insert(key, r.clone());
        r
    }
}

#[cfg(test)]
mod tests {
    use super::super::{records, testdata};
    use prospect_api::types::common::Relevance;

    /// A v3 people result written from the cache is the JSON of the typed result, with and
    /// without a relevance, the first time and from the cache.
    #[test]
    fn a_cached_person_result_is_the_typed_one_serialized() {
        let db = testdata::db();
        for pi in 0..db.person_count() as u32 {
            for rel in [None, Some(Relevance::A), Some(Relevance::C)] {
                let typed = serde_json::to_string(&records::lookalike_person(&db, pi, rel.clone()))
                    .unwrap();
                for _ in 0..2 {
                    assert_eq!(db.lookalike_person_json(pi, rel.clone()).0.get(), typed);
                }
            }
        }
    }
}
