//! Suppression for outreach exports (issue 38): what is suppressed now, to leave out of (or
//! count in) an export of what the store owns, as searches and paid calls leave it out (issue
//! 16). A company is suppressed by its domain or the registrable domain above it (`shop.acme.com`
//! under a suppressed `acme.com`); a person by their service id, their professional-network
//! handle, their email address, or the domain of the company they work at.

use std::collections::{BTreeMap, HashMap};

use prospect_api::types::{Company, LookalikePerson, Person};
use serde_json::Value;

use crate::request::SearchResponse;
use prospect_common::keys::{linkedin_handle, normalize_domain, registrable_domain};

use crate::owned::{Contact, Owned, OwnedError, SuppressKind};

/// One exclude list of a search body: its filter group, its member, the suppressed keys it
/// may hold and how a member's value is keyed.
type ExcludeList<'a> = (
    &'static str,
    &'static str,
    &'a HashMap<String, String>,
    fn(&str) -> Option<String>,
);

/// The suppressed keys of every kind with their category, read once from the store.
#[derive(Debug, Default)]
pub struct Screen {
    domains: HashMap<String, String>,
    emails: HashMap<String, String>,
    handles: HashMap<String, String>,
    ids: HashMap<String, String>,
    /// What [`Screen::company`], [`Screen::person`] and [`Screen::contact`] found, by category.
    pub hits: BTreeMap<String, u64>,
}

impl Screen {
    /// Reads every suppressed key of `owned`. Errors: the store cannot be read.
    pub fn load(owned: &Owned) -> Result<Screen, OwnedError> {
        Screen::of(|kind| owned.suppressed_keys(kind))
    }

    /// Reads every suppressed key of the store `st` (a session's). Errors: it cannot be read.
    pub(crate) fn load_store(st: &prospect_store::Store) -> Result<Screen, String> {
        Screen::of(|kind| st.suppressed_keys(kind).map_err(|e| e.to_string()))
    }

    /// The screen of the keys `keys` gives for each kind.
    fn of<E>(keys: impl Fn(SuppressKind) -> Result<Vec<(String, String)>, E>) -> Result<Screen, E> {
        let map =
            |kind| -> Result<HashMap<String, String>, E> { Ok(keys(kind)?.into_iter().collect()) };
        Ok(Screen {
            domains: map(SuppressKind::Domain)?,
            emails: map(SuppressKind::Email)?,
            handles: map(SuppressKind::Handle)?,
            ids: map(SuppressKind::Person)?,
            hits: BTreeMap::new(),
        })
    }

    /// `true` when nothing is suppressed.
    pub fn is_empty(&self) -> bool {
        self.domains.is_empty()
            && self.emails.is_empty()
            && self.handles.is_empty()
            && self.ids.is_empty()
    }

    fn domain(&self, domain: &str) -> Option<&String> {
        if domain.trim().is_empty() {
            return None;
        }
        let d = normalize_domain(domain);
        self.domains.get(&d).or_else(|| {
            registrable_domain(&d)
                .filter(|r| *r != d)
                .and_then(|r| self.domains.get(&r))
        })
    }

    fn hit(&mut self, category: Option<String>) -> Option<String> {
        if let Some(c) = &category {
            *self.hits.entry(c.clone()).or_default() += 1;
        }
        category
    }

    /// The category suppressing company `c`, if one does (counted in [`Screen::hits`]).
    pub fn company(&mut self, c: &Company) -> Option<String> {
        let found = self.domain(&c.domain).cloned();
        self.hit(found)
    }

    /// The category suppressing person `p` (by id, handle, email or employer's domain), if
    /// one does (counted in [`Screen::hits`]).
    pub fn person(&mut self, p: &LookalikePerson) -> Option<String> {
        self.person_record(&p.person)
    }

    /// [`Screen::person`] of a person record (a v2 search's, which has no employer summary).
    pub fn person_record(&mut self, person: &Person) -> Option<String> {
        let email = person
            .email
            .as_ref()
            .and_then(|e| e.address.as_deref())
            .map(|a| a.trim().to_lowercase());
        let found = self
            .ids
            .get(person.id.trim())
            .or_else(|| {
                let h = person.linkedin_url.as_deref().and_then(linkedin_handle)?;
                self.handles.get(&h)
            })
            .or_else(|| email.and_then(|e| self.emails.get(&e)))
            .or_else(|| self.domain(&person.domain))
            .cloned();
        self.hit(found)
    }

    /// The category suppressing the person of contact `c` (by id or email), if one does.
    pub fn contact(&mut self, c: &Contact) -> Option<String> {
        let email = c.email.as_deref().map(|a| a.trim().to_lowercase());
        let found = self
            .ids
            .get(c.person_id.trim())
            .or_else(|| email.and_then(|e| self.emails.get(&e)))
            .or_else(|| {
                let e = c.email.as_deref()?;
                self.domain(e.rsplit('@').next()?)
            })
            .cloned();
        self.hit(found)
    }

    /// Leaves out of `page` the records suppressed now (a stored page reopened: what was
    /// suppressed after it was bought); returns how many (counted in [`Screen::hits`]).
    pub fn page(&mut self, page: &mut SearchResponse) -> usize {
        fn keep<T>(v: &mut Vec<T>, mut hit: impl FnMut(&T) -> bool) -> usize {
            let n = v.len();
            v.retain(|x| !hit(x));
            n - v.len()
        }
        match page {
            SearchResponse::CompaniesV3(r) => {
                keep(&mut r.companies, |c| self.company(&c.company).is_some())
            }
            SearchResponse::CompaniesV2(r) => {
                keep(&mut r.companies, |c| self.company(&c.company).is_some())
            }
            SearchResponse::PeopleV3(r) => keep(&mut r.people, |p| self.person(p).is_some()),
            SearchResponse::PeopleV2(r) => keep(&mut r.people, |p| self.person_record(p).is_some()),
        }
    }

    /// Takes out of a search body's exclude lists (`companiesFilters.excludeDomains`,
    /// `peopleFilters.excludeLinkedinHandles`, `excludePeopleIds`) the keys suppression adds
    /// to every search anyway, so a reopened search's form holds the user's own excludes only
    /// (and a set saved from it never holds suppression's); a list left empty goes.
    pub fn strip_excludes(&self, body: &mut Value) {
        let lists: [ExcludeList<'_>; 3] = [
            ("companiesFilters", "excludeDomains", &self.domains, |d| {
                Some(normalize_domain(d))
            }),
            (
                "peopleFilters",
                "excludeLinkedinHandles",
                &self.handles,
                linkedin_handle,
            ),
            ("peopleFilters", "excludePeopleIds", &self.ids, |i| {
                Some(i.trim().to_string())
            }),
        ];
        for (group, member, keys, norm) in lists {
            let Some(filters) = body.get_mut(group).and_then(Value::as_object_mut) else {
                continue;
            };
            if let Some(Value::Array(list)) = filters.get_mut(member) {
                list.retain(|v| {
                    v.as_str()
                        .and_then(norm)
                        .is_none_or(|k| !keys.contains_key(&k))
                });
                if list.is_empty() {
                    filters.remove(member);
                }
            }
        }
    }

    /// What was found, in words: `3 suppressed (customers)`; `None` when nothing was.
    pub fn describe(&self) -> Option<String> {
        crate::suppress::describe_by(&self.hits)
    }
}
