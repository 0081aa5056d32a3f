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
