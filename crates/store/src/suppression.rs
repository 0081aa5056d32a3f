//! Suppression lists (issue 16): the companies and people a team never searches, reveals or
//! pays for (customers, open deals, do-not-contact, competitors), kept by kind and key in the
//! `suppressed` table (schema version 4). Keys are normalized the way entities are: domains by
//! [`normalize_domain`], handles by [`linkedin_handle`], emails lowercased.

use std::collections::HashMap;

use super::db::params;

use super::{Result, Store, to_millis};
use prospect_common::keys::linkedin_handle;

/// What a suppression entry names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SuppressKind {
    /// A company, by its domain.
    Domain,
    /// A person, by email address.
    Email,
    /// A person, by professional-network handle.
    Handle,
    /// A person, by the service's id.
    Person,
}

impl SuppressKind {
    /// As stored: `domain`, `email`, `handle`, `person`.
    pub fn as_str(self) -> &'static str {
        match self {
            SuppressKind::Domain => "domain",
            SuppressKind::Email => "email",
            SuppressKind::Handle => "handle",
            SuppressKind::Person => "person",
        }
    }

    fn parse(s: &str) -> Option<SuppressKind> {
        Some(match s {
            "domain" => SuppressKind::Domain,
            "email" => SuppressKind::Email,
            "handle" => SuppressKind::Handle,
            "person" => SuppressKind::Person,
            _ => return None,
        })
    }

    /// `key` as stored for this kind, or `None` when it is not one (an empty domain, a URL
    /// that is not a profile, an email without `@`).
    pub fn normalize(self, key: &str) -> Option<String> {
        let k = key.trim();
        let out = match self {
            SuppressKind::Domain => return prospect_common::keys::domain_key(k),
            SuppressKind::Email => {
                let e = prospect_common::sanitize::sanitize(k).trim().to_lowercase();
                if !e.contains('@') || e.starts_with('@') || e.ends_with('@') {
                    return None;
                }
                e
            }
            SuppressKind::Handle => linkedin_handle(k)?,
            SuppressKind::Person => prospect_common::sanitize::sanitize(k).trim().to_string(),
        };
        (!out.is_empty()).then_some(out)
    }
}

/// How many entries of each kind a category holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuppressionCount {
    /// The category, e.g. `customers`.
    pub category: String,
    /// Entries by kind.
    pub by_kind: Vec<(SuppressKind, u64)>,
}

impl SuppressionCount {
    /// Every entry of the category.
    pub fn total(&self) -> u64 {
        self.by_kind.iter().map(|(_, n)| n).sum()
    }
}

impl Store {
    /// Adds `entries` (kind, key as given) to `category`, from `source` (a file name), in one
    /// transaction; keys that are not of their kind are left out. Returns how many were new.
    ///
    /// # Errors
    /// [`super::StoreError::Sqlite`].
    pub fn suppress(
        &mut self,
        category: &str,
        source: &str,
        entries: &[(SuppressKind, String)],
    ) -> Result<usize> {
        let now = to_millis(chrono::Utc::now());
        let tx = self.conn.begin()?;
        let mut added = 0;
        {
            let mut st = tx.prepare_cached(
                "INSERT INTO suppressed (kind, key, category, added_at, source)
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
            )?;
            for (kind, key) in entries {
                if let Some(k) = kind.normalize(key) {
                    added += st.execute(params![kind.as_str(), k, category, now, source])?;
                }
            }
        }
        tx.commit()?;
        Ok(added)
    }

    /// Removes every entry of `category`; returns how many there were.
    ///
    /// # Errors
    /// [`super::StoreError::Sqlite`].
    pub fn clear_suppression(&mut self, category: &str) -> Result<usize> {
        self.conn.execute(
            "DELETE FROM suppressed WHERE category = ?1",
            params![category],
        )
    }

    /// Each category with its count per kind, by category name.
    ///
    /// # Errors
    /// [`super::StoreError::Sqlite`].
    pub fn suppression_counts(&self) -> Result<Vec<SuppressionCount>> {
        let mut st = self.conn.prepare_cached(
            "SELECT category, kind, count(*) FROM suppressed GROUP BY category, kind
             ORDER BY category, kind",
        )?;
        let mut rows = st.query(params![])?;
        let mut out: Vec<SuppressionCount> = Vec::new();
        while let Some(r) = rows.next()? {
            let (category, kind, n): (String, String, i64) = (r.get(0)?, r.get(1)?, r.get(2)?);
            let Some(kind) = SuppressKind::parse(&kind) else {
                continue;
            };
            match out.last_mut() {
                Some(c) if c.category == category => c.by_kind.push((kind, n as u64)),
                _ => out.push(SuppressionCount {
                    category,
                    by_kind: vec![(kind, n as u64)],
                }),
            }
        }
        Ok(out)
    }

    /// Every suppressed key of `kind` with its category (the first by name when a key is in
    /// several), sorted by key.
    ///
    /// # Errors
    /// [`super::StoreError::Sqlite`].
    pub fn suppressed_keys(&self, kind: SuppressKind) -> Result<Vec<(String, String)>> {
        let mut st = self.conn.prepare_cached(
            "SELECT key, min(category) FROM suppressed WHERE kind = ?1 GROUP BY key ORDER BY key",
        )?;
        let rows = st.query_map(params![kind.as_str()], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<Result<_>>()
    }

    /// Which of `keys` (as given; normalized for `kind`) are suppressed, with the category:
    /// by the key as given. A domain is suppressed also when its registrable domain is
    /// ([`super::registrable_domain`]).
    ///
    /// # Errors
    /// [`super::StoreError::Sqlite`].
    pub fn suppressed_among(
        &self,
        kind: SuppressKind,
        keys: &[String],
    ) -> Result<HashMap<String, String>> {
        // Most stores suppress nothing of a kind: one indexed probe, and no key is touched.
        let any: bool = self
            .conn
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM suppressed WHERE kind = ?1)")?
            .query_row(params![kind.as_str()], |r| r.get(0))?;
        if !any {
            return Ok(HashMap::new());
        }
        let mut by_norm: HashMap<String, Vec<&String>> = HashMap::new();
        for k in keys {
            if let Some(n) = kind.normalize(k) {
                // A suppressed domain covers its subdomains: `acme.com` suppresses
                // `shop.acme.com` (the registrable domain by the Public Suffix List).
                if kind == SuppressKind::Domain
                    && let Some(r) = prospect_common::keys::registrable_domain(&n)
                {
                    by_norm.entry(r).or_default().push(k);
                }
                by_norm.entry(n).or_default().push(k);
            }
        }
        let mut out = HashMap::new();
        if by_norm.is_empty() {
            return Ok(out);
        }
        let array = super::db::Keys::new(by_norm.keys().cloned());
        let mut st = self.conn.prepare_cached(
            "SELECT key, min(category) FROM suppressed
             WHERE kind = ?1 AND key IN rarray(?2) GROUP BY key",
        )?;
        let mut rows = st.query(params![kind.as_str(), array])?;
        while let Some(r) = rows.next()? {
            let (key, category): (String, String) = (r.get(0)?, r.get(1)?);
            for given in by_norm.get(&key).into_iter().flatten() {
                out.insert((*given).clone(), category.clone());
            }
        }
        Ok(out)
    }
}
