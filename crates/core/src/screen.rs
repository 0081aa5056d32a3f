//! Suppression for outreach exports (issue 38): what is suppressed now, to leave out of (or
//! count in) an export of what the store owns, as searches and paid calls leave it out (issue
//! 16). A company is suppressed by its domain or the registrable domain above it (`shop.acme.com`
//! under a suppressed `acme.com`); a person by their service id, their professional-network
//! handle, their email address, or the domain of the company they work at.

use std::collections::{BTreeMap, HashMap};

use prospect_api::types::{Company, LookalikePerson};
use prospect_common::keys::{linkedin_handle, normalize_domain, registrable_domain};

use crate::owned::{Contact, Owned, OwnedError, SuppressKind};

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
        let map = |kind| -> Result<HashMap<String, String>, OwnedError> {
            Ok(owned.suppressed_keys(kind)?.into_iter().collect())
        };
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
        let person = &p.person;
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

    /// What was found, in words: `3 suppressed (customers)`; `None` when nothing was.
    pub fn describe(&self) -> Option<String> {
        crate::suppress::describe_by(&self.hits)
    }
}
