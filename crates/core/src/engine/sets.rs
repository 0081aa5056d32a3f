//! Searches of a saved filter set (issue 37): each run of a set's search is recorded, with
//! every result key it bought (a normalized domain, a person id); a *new-only* run sends the
//! keys the set's earlier runs bought as the API's own excludes, so only results the store
//! does not own come back and are charged.
//!
//! - The excludes go to `companiesFilters.excludeDomains` (company searches, SPEC.md §2.4),
//!   `peopleFilters.excludePeopleIds` (v3 people search, openapi.json `PeopleFilters`) and
//!   `peopleFilters.excludeIds` (v2 people search, §2.5), after the user's own excludes and
//!   the suppressed keys; the user's excludes are never written into the set.
//! - At most [`EXCLUDES_MAX`] keys a list are sent (about 300 KB of JSON: a request stays
//!   well under 1 MB; `body_size_at_the_cap_is_under_a_megabyte` measures it), fewer with
//!   `exclude_cap`. Owned keys past it are not sent: those results come back, are paid for
//!   again, and are left out of the new rows here. The plan counts them
//!   ([`NewOnly::not_sent`]), the run reports them ([`SetReport::paid_again`]); never hidden.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::request::SearchResponse;
use crate::session::{Session, with_store};
use prospect_api::client::{Endpoint, SearchSubject};
use prospect_common::keys::normalize_domain;
use prospect_store::JobId;

/// Most owned keys a new-only search sends in one exclude list: [`crate::suppress::MAX_EXCLUDED`]
/// (10,000), counting the keys already in it.
pub const EXCLUDES_MAX: usize = crate::suppress::MAX_EXCLUDED;

/// The saved filter set a search runs (issue 37), as a job keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SetSearch {
    /// The set's name (its file stem, `filters/NAME.json`).
    pub name: String,
    /// Send what the set's earlier runs bought as excludes: only new results are bought.
    #[serde(default)]
    pub new_only: bool,
    /// Most owned keys sent as excludes (default and ceiling [`EXCLUDES_MAX`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_cap: Option<u64>,
    /// The run of the set this search goes on with, by when it started (the explorer's export
    /// of a set's tab): new-only excludes what the set owned then, as that run's pages did,
    /// so its stored pages are the same search and are read at 0 credits; its results add to
    /// that run's record. `None`: a run of its own, starting now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_at: Option<DateTime<Utc>>,
}

/// What new-only did to one search: the set's owned keys, how many were sent as excludes, and
/// those past the cap (left out of the answers here, and paid for again).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct NewOnly {
    /// Result keys the set's earlier runs bought (for this tab).
    pub owned: u64,
    /// The set's earlier runs of this tab.
    pub earlier_runs: u64,
    /// Owned keys sent as the API's excludes.
    pub excluded: u64,
    /// Owned keys past the cap: if they still match they come back, are charged again, and
    /// are left out of the new rows here.
    pub not_sent: u64,
    /// Those keys.
    #[serde(skip)]
    overflow: HashSet<String>,
}

impl NewOnly {
    /// The owned keys past the cap (not sent).
    pub(super) fn overflow(&self) -> &HashSet<String> {
        &self.overflow
    }

    /// `excluding 1,000 owned (from 3 earlier runs)`, with `; 200 past the cap of 800 may
    /// come back and are paid again` when some were not sent.
    pub fn describe(&self) -> String {
        let mut text = format!(
            "excluding {} owned (from {})",
            prospect_common::words::thousands(self.excluded),
            counted(self.earlier_runs, "earlier run", "earlier runs")
        );
        if self.not_sent > 0 {
            text.push_str(&format!(
                "; {} more past the excludes cap of {} may come back and are paid again",
                prospect_common::words::thousands(self.not_sent),
                prospect_common::words::thousands(self.excluded)
            ));
        }
        text
    }
}

fn counted(n: u64, one: &str, many: &str) -> String {
    format!(
        "{} {}",
        prospect_common::words::thousands(n),
        if n == 1 { one } else { many }
    )
}

/// What a run of a set's search did for the set: how many results were new to it, how many
/// owned ones were paid for again (past the excludes cap), and what new-only sent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SetReport {
    /// The set's name.
    pub name: String,
    /// Results handed on that no earlier run of the set had bought.
    pub new: u64,
    /// Owned results bought again (past the cap) and left out of the output.
    pub paid_again: u64,
    /// What new-only sent (`None` for a plain run of the set).
    pub new_only: Option<NewOnly>,
}

/// The most results a search of `body` at `ep` may buy for `credits` standard credits at the
/// price table's search price (at least 1, at most 10,000; 10,000 when results are free): a
/// watch's default limit, so it never plans above what it may spend.
pub fn affordable_results(ep: Endpoint, body: &Value, credits: f64) -> u64 {
    let price = prospect_api::cost::search_cost(ep, body, 1).standard;
    match price > 0.0 {
        true => ((credits / price + 1e-9).floor() as u64).clamp(1, 10_000),
        false => 10_000,
    }
}

/// `action` (a search) asking only its first results that fit in `credits` standard credits
/// at the price table's search price ([`affordable_results`]): fewer than it asks, at least
/// one. `None` for any other action, when every result fits, or when not one does. The agent
/// front end offers it for a search over what its session may still spend.
pub fn search_within(action: &super::Action, credits: f64) -> Option<super::Action> {
    let super::Action::Search {
        endpoint,
        body,
        limit,
        set,
    } = action
    else {
        return None;
    };
    let ep = Endpoint::from_path(endpoint)?;
    let price = prospect_api::cost::search_cost(ep, body, 1).standard;
    let n = affordable_results(ep, body, credits).min(*limit);
    (n < *limit && (n as f64) * price <= credits + 1e-9).then(|| super::Action::Search {
        endpoint: endpoint.clone(),
        body: body.clone(),
        limit: n,
        set: set.clone(),
    })
}

/// `companies` or `people`: the tab of a search endpoint, as set runs are recorded.
pub fn subject_name(ep: Endpoint) -> &'static str {
    match ep.search_subject() {
        Some(SearchSubject::People) => "people",
        _ => "companies",
    }
}

/// The set's owned keys for the tab of `ep` bought before `before` (every one with `None`),
/// and its runs before it, from the store. Errors: the store cannot be read (a new-only
/// search is then not planned: it would buy everything).
async fn owned(
    s: &Session,
    set: &str,
    ep: Endpoint,
    before: Option<DateTime<Utc>>,
) -> Result<(Vec<String>, u64), String> {
    let (set, subject) = (set.to_string(), subject_name(ep));
    with_store(s.store(), move |st| {
        Ok((
            st.set_keys(&set, subject, before)?,
            st.set_run_count(&set, subject, before)?,
        ))
    })
    .await
}

/// Where owned keys of a search at `ep` go: (filters member, list member).
fn exclude_member(ep: Endpoint) -> (&'static str, &'static str) {
    match ep {
        Endpoint::SearchPeopleV3 => ("peopleFilters", "excludePeopleIds"),
        Endpoint::SearchPeopleV2 => ("peopleFilters", "excludeIds"),
        _ => ("companiesFilters", "excludeDomains"),
    }
}

/// Adds the set's owned keys (those its runs bought before `before`: the same for every page
/// of one run) to `body` (a search at `ep`) as excludes, after what the list holds, up to
/// `cap` keys of the set and [`EXCLUDES_MAX`] in the list; the rest are the overflow. Returns
/// the body to send and what was done.
pub(super) async fn apply(
    s: &Session,
    ep: Endpoint,
    body: &Value,
    set: &SetSearch,
    before: Option<DateTime<Utc>>,
) -> Result<(Value, NewOnly), String> {
    let (keys, runs) = owned(s, &set.name, ep, before).await?;
    Ok(apply_keys(ep, body, keys, runs, set.exclude_cap))
}

fn apply_keys(
    ep: Endpoint,
    body: &Value,
    keys: Vec<String>,
    runs: u64,
    cap: Option<u64>,
) -> (Value, NewOnly) {
    let mut out = body.clone();
    let mut done = NewOnly {
        owned: keys.len() as u64,
        earlier_runs: runs,
        ..NewOnly::default()
    };
    if keys.is_empty() {
        return (out, done);
    }
    let cap = cap.map_or(EXCLUDES_MAX, |c| (c as usize).min(EXCLUDES_MAX));
    let (filters, member) = exclude_member(ep);
    let Some(root) = out.as_object_mut() else {
        return (out, done);
    };
    let f = root
        .entry(filters)
        .or_insert_with(|| Value::Object(Default::default()));
    if !f.is_object() {
        *f = Value::Object(Default::default());
    }
    let list = f
        .as_object_mut()
        .map(|f| f.entry(member).or_insert_with(|| Value::Array(Vec::new())));
    let Some(list) = list else {
        return (out, done);
    };
    if !list.is_array() {
        *list = Value::Array(Vec::new());
    }
    let Some(list) = list.as_array_mut() else {
        return (out, done);
    };
    let present: HashSet<String> = list
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    for k in keys {
        if present.contains(&k) {
            done.excluded += 1;
        } else if (done.excluded as usize) < cap && list.len() < EXCLUDES_MAX {
            list.push(Value::String(k));
            done.excluded += 1;
        } else {
            done.overflow.insert(k);
            done.not_sent += 1;
        }
    }
    (out, done)
}

/// The result keys of a page's records: normalized domains (companies), person ids (people).
pub fn keys_of(page: &SearchResponse) -> Vec<String> {
    let keys: Vec<String> = match page {
        SearchResponse::CompaniesV3(r) => r
            .companies
            .iter()
            .map(|c| normalize_domain(&c.company.domain))
            .collect(),
        SearchResponse::CompaniesV2(r) => r
            .companies
            .iter()
            .map(|c| normalize_domain(&c.company.domain))
            .collect(),
        SearchResponse::PeopleV3(r) => r.people.iter().map(|p| p.person.id.clone()).collect(),
        SearchResponse::PeopleV2(r) => r.people.iter().map(|p| p.id.clone()).collect(),
    };
    keys.into_iter().filter(|k| !k.is_empty()).collect()
}

/// A set's run under way: records each page's keys, leaves the overflow out.
#[derive(Debug)]
pub(super) struct SetRunning {
    set: SetSearch,
    subject: &'static str,
    started: DateTime<Utc>,
    report: SetReport,
    /// Records handed on from the stored pages of the run this one goes on with
    /// ([`SetSearch::run_at`]): that run counted them already.
    carried: u64,
}

impl SetRunning {
    /// A run of `set` at `ep`, with what new-only sent (`None`: a plain run).
    pub(super) fn new(
        set: &SetSearch,
        ep: Endpoint,
        new_only: Option<NewOnly>,
        started: DateTime<Utc>,
    ) -> SetRunning {
        SetRunning {
            subject: subject_name(ep),
            started,
            report: SetReport {
                name: set.name.clone(),
                new_only,
                ..SetReport::default()
            },
            set: set.clone(),
            carried: 0,
        }
    }

    /// A page of the run, kept (`stored`: read from the store): its keys join the set's (before
    /// anything is handed on, so a run killed after it excludes them next time); the owned
    /// records among its first `take` that were not sent as excludes are left out. Returns the
    /// records to hand on.
    /// A store that cannot record the keys is an error: the next new-only run would pay for
    /// them again.
    pub(super) async fn page(
        &mut self,
        s: &Session,
        page: &mut SearchResponse,
        take: usize,
        stored: bool,
    ) -> Result<usize, String> {
        let keys = keys_of(page);
        let (name, subject, at) = (self.set.name.clone(), self.subject, self.started);
        let new = with_store(s.store(), move |st| {
            st.add_set_keys(&name, subject, &keys, at)
        })
        .await?
        .len();
        let again = match &self.report.new_only {
            Some(n) if !n.overflow.is_empty() => drop_overflow(page, &n.overflow, take),
            _ => 0,
        };
        // A stored page of the run this one goes on with was counted by that run.
        if stored && self.set.run_at.is_some() {
            self.carried += (take - again) as u64;
        } else {
            self.report.paid_again += again as u64;
        }
        // New to the set: keys it had not bought before (of a new-only page: all handed on).
        self.report.new += new.min(take - again) as u64;
        Ok(take - again)
    }

    /// Records the run ([`prospect_store::SetRun`]; one that goes on with an earlier run adds
    /// to its record, without the stored pages that run counted); returns the set's report. A
    /// run that cannot be recorded is noted in `store_errors` (its keys are recorded already).
    pub(super) async fn finish(
        self,
        s: &Session,
        results: u64,
        credits: f64,
        job: Option<JobId>,
        store_errors: &mut Vec<String>,
    ) -> SetReport {
        let row = prospect_store::SetRun {
            set_name: self.set.name.clone(),
            subject: self.subject.to_string(),
            ran_at: self.started,
            new_only: self.set.new_only,
            results: results.saturating_sub(self.carried),
            new_results: self.report.new,
            paid_again: self.report.paid_again,
            credits,
            job,
        };
        if let Err(e) = with_store(s.store(), move |st| st.record_set_run(&row)).await {
            store_errors.push(format!("recording the run of set {}: {e}", self.set.name));
        }
        self.report
    }
}

/// Leaves out of the first `take` records of `page` those whose key is in `overflow`, keeping
/// the order; the records past `take` stay. Returns how many were left out.
pub(super) fn drop_overflow(
    page: &mut SearchResponse,
    overflow: &HashSet<String>,
    take: usize,
) -> usize {
    fn retain<T>(v: &mut Vec<T>, take: usize, hit: impl Fn(&T) -> bool) -> usize {
        let n = v.len();
        let mut i = 0;
        v.retain(|r| {
            i += 1;
            i > take || !hit(r)
        });
        n - v.len()
    }
    match page {
        SearchResponse::CompaniesV3(r) => retain(&mut r.companies, take, |c| {
            overflow.contains(&normalize_domain(&c.company.domain))
        }),
        SearchResponse::CompaniesV2(r) => retain(&mut r.companies, take, |c| {
            overflow.contains(&normalize_domain(&c.company.domain))
        }),
        SearchResponse::PeopleV3(r) => {
            retain(&mut r.people, take, |p| overflow.contains(&p.person.id))
        }
        SearchResponse::PeopleV2(r) => retain(&mut r.people, take, |p| overflow.contains(&p.id)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn owned_keys_follow_the_users_excludes_up_to_the_cap() {
        let body = json!({"companiesFilters": {"excludeDomains": ["mine.com", "b.com"]}});
        let keys = vec!["a.com".to_string(), "b.com".into(), "c.com".into()];
        let (out, done) = apply_keys(Endpoint::SearchCompaniesV3, &body, keys, 2, Some(2));
        assert_eq!(
            out["companiesFilters"]["excludeDomains"],
            json!(["mine.com", "b.com", "a.com"])
        );
        assert_eq!((done.owned, done.excluded, done.not_sent), (3, 2, 1));
        assert!(done.overflow.contains("c.com"));
        assert_eq!(
            done.describe(),
            "excluding 2 owned (from 2 earlier runs); 1 more past the excludes cap of 2 may come back and are paid again"
        );
        let (out, _) = apply_keys(
            Endpoint::SearchPeopleV3,
            &json!({}),
            vec!["p1".into()],
            1,
            None,
        );
        assert_eq!(out["peopleFilters"]["excludePeopleIds"], json!(["p1"]));
        let (out, _) = apply_keys(
            Endpoint::SearchPeopleV2,
            &json!({}),
            vec!["p1".into()],
            1,
            None,
        );
        assert_eq!(out["peopleFilters"]["excludeIds"], json!(["p1"]));
    }

    /// The request of a new-only search at the cap stays well under 1 MB (issue 37).
    #[test]
    fn body_size_at_the_cap_is_under_a_megabyte() {
        let domains: Vec<String> = (0..EXCLUDES_MAX * 2)
            .map(|i| format!("a-rather-long-company-name-{i:06}.co.uk"))
            .collect();
        let (out, done) = apply_keys(Endpoint::SearchCompaniesV3, &json!({}), domains, 1, None);
        assert_eq!(done.excluded as usize, EXCLUDES_MAX);
        let bytes = serde_json::to_vec(&out).unwrap().len();
        assert!(bytes < 1_000_000, "{bytes} bytes");
        let ids: Vec<String> = (0..EXCLUDES_MAX).map(|i| format!("{i:024x}")).collect();
        let (out, _) = apply_keys(Endpoint::SearchPeopleV3, &json!({}), ids, 1, None);
        assert!(serde_json::to_vec(&out).unwrap().len() < 1_000_000);
    }
}
