//! Reading entities back: companies by domain or alias, people by id, handle or match key,
//! and their contacts, decoded in parallel for large reads.

use super::*;

impl Store {
    /// Runs `sql` (one `rarray(?1)` of keys; columns key / record / fetched_at / purchase_id,
    /// oldest first) once for all keys and reads the typed records: for a key with several
    /// rows the newest readable one is kept; keys without a row, or with only bad rows, are
    /// absent.
    pub(crate) fn entities_in<T: serde::de::DeserializeOwned + Send>(
        &self,
        sql: &str,
        table: &str,
        keys: Keys,
    ) -> Result<HashMap<String, Stored<T>>> {
        if keys.is_empty() {
            return Ok(HashMap::new());
        }
        let mut raw: Vec<(String, EntityRow)> = Vec::new();
        let mut bytes = 0;
        {
            let mut st = self.conn.prepare_cached(sql)?;
            let mut rows = st.query(params![keys])?;
            while let Some(r) = rows.next()? {
                let row: EntityRow = (r.get(1)?, r.get(2)?, r.get(3)?);
                bytes += row.0.len();
                raw.push((r.get(0)?, row));
            }
        }
        // Sized by the rows found, not the keys asked: a record is large (a company is about a
        // kilobyte), and most keys of a big lookup of unknown domains find none.
        let mut out = HashMap::with_capacity(raw.len());
        // Rows keep their order, so the newest readable row of a key wins (a later bad row
        // does not hide an earlier good one).
        let mut keep = |key: String, s: Option<Stored<T>>| {
            if let Some(s) = s {
                out.insert(key, s);
            }
        };
        // Reading the JSON is most of the work for large records (a 1,000-company answer is
        // about 6 MB): from `PARALLEL_PARSE_BYTES` of JSON the second half of the rows is read
        // on a second thread. Small records (or few) are read here, straight into the map.
        if bytes >= PARALLEL_PARSE_BYTES && raw.len() >= 2 {
            let second = raw.split_off(raw.len() / 2);
            let parse = |part: Vec<(String, EntityRow)>| -> Vec<(String, Option<Stored<T>>)> {
                part.into_iter()
                    .map(|(key, row)| {
                        let s = stored(row, table, &key);
                        (key, s)
                    })
                    .collect()
            };
            let (first, later) = std::thread::scope(|s| {
                let later = s.spawn(|| parse(second));
                let first = parse(raw);
                let later = later
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                (first, later)
            });
            for (key, s) in first.into_iter().chain(later) {
                keep(key, s);
            }
        } else {
            for (key, row) in raw {
                let s = stored(row, table, &key);
                keep(key, s);
            }
        }
        Ok(out)
    }

    pub(crate) fn entity_by<T: serde::de::DeserializeOwned>(
        &self,
        sql: &str,
        table: &str,
        key: &str,
    ) -> Result<Option<Stored<T>>> {
        if key.is_empty() {
            return Ok(None);
        }
        let row: Option<EntityRow> = self
            .conn
            .prepare_cached(sql)?
            .query_row(params![key], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .optional()?;
        Ok(row.and_then(|row| stored(row, table, key)))
    }

    /// Keeps `(alias, domain)` pairs of company domains (any form: normalized with
    /// [`normalize_domain`]), e.g. a lookup answer's `redirectMap` (SPEC.md §4.5): the company
    /// of `domain` then answers for `alias` ([`Store::company`], [`Store::companies_by_domains`],
    /// [`Store::fetched_times`]) unless `alias` has a stored company of its own. One
    /// transaction.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn put_company_aliases(&mut self, pairs: &[(String, String)]) -> Result<()> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(a, d)| (normalize_domain(a), normalize_domain(d)))
            .filter(|(a, d)| !a.is_empty() && !d.is_empty())
            .collect();
        let tx = self.conn.begin()?;
        write_aliases(&tx, &pairs)?;
        tx.commit()?;
        Ok(())
    }

    /// The stored company of `domain` (any form: normalized with [`normalize_domain`]).
    /// `None` when not stored (or its row is bad, see the module docs).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn company(&self, domain: &str) -> Result<Option<Stored<Company>>> {
        let key = normalize_domain(domain);
        match self.entity_by(COMPANY_BY_DOMAIN, "companies", &key)? {
            Some(c) => Ok(Some(c)),
            None => self.entity_by(COMPANY_BY_ALIAS, "companies", &key),
        }
    }

    /// `true` when some company alias is kept: the alias reads are skipped otherwise.
    pub(crate) fn has_aliases(&self) -> Result<bool> {
        self.conn
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM company_aliases)")?
            .query_row(params![], |r| r.get(0))
    }

    /// The stored companies of `domains`, keyed by normalized domain; domains not stored are
    /// absent. One statement for the whole list (the keys bound as one `rarray`), so 1,000
    /// domains cost one query (see `benches/store.rs`).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn companies_by_domains(
        &self,
        domains: &[String],
    ) -> Result<HashMap<String, Stored<Company>>> {
        let keys: Vec<String> = domains.iter().map(|d| normalize_domain(d)).collect();
        let mut found: HashMap<String, Stored<Company>> =
            self.entities_in(COMPANIES_IN, "companies", Keys::new(keys.iter().cloned()))?;
        if found.len() < keys.len() && self.has_aliases()? {
            let missing: Vec<String> = keys
                .into_iter()
                .filter(|d| !d.is_empty() && !found.contains_key(d))
                .collect();
            if !missing.is_empty() {
                found.extend(self.entities_in(
                    COMPANIES_BY_ALIAS_IN,
                    "companies",
                    Keys::new(missing),
                )?);
            }
        }
        Ok(found)
    }

    /// When each stored entity of `keys` was fetched, one time per stored key (keys not stored
    /// give none): what a plan counts as owned, read from the index without reading the
    /// records themselves. `keys` are normalized as the matching `*_by_*` read does.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn fetched_times(&self, by: EntityKey, keys: &[String]) -> Result<Vec<DateTime<Utc>>> {
        let (sql, keys) = match by {
            EntityKey::Domain if self.has_aliases()? => (
                FETCHED_BY_DOMAIN_OR_ALIAS,
                Keys::new(keys.iter().map(|d| normalize_domain(d))),
            ),
            EntityKey::Domain => (
                FETCHED_BY_DOMAIN,
                Keys::new(keys.iter().map(|d| normalize_domain(d))),
            ),
            EntityKey::PersonId => (
                "SELECT p.fetched_at FROM rarray(?1) AS k JOIN people p ON p.id = k.value",
                Keys::new(keys.iter().map(|i| clean_key(i))),
            ),
            EntityKey::Handle => (
                "SELECT max(fetched_at) FROM people WHERE handle IN rarray(?1) GROUP BY handle",
                Keys::new(keys.iter().filter_map(|h| linkedin_handle(h))),
            ),
        };
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let mut st = self.conn.prepare_cached(sql)?;
        let times = st
            .query_map(params![keys], |r| r.get::<_, i64>(0))?
            .filter_map(|t| t.ok().and_then(DateTime::from_timestamp_millis))
            .collect();
        Ok(times)
    }

    /// The stored person with this service id. `None` when not stored.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn person(&self, id: &str) -> Result<Option<Stored<Person>>> {
        self.entity_by(PERSON_BY_ID, "people", &clean_key(id))
    }

    /// The stored people of `ids`, keyed by (sanitized, trimmed) id; ids not stored are absent.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn people_by_ids(&self, ids: &[String]) -> Result<HashMap<String, Stored<Person>>> {
        self.entities_in(
            PEOPLE_IN,
            "people",
            Keys::new(ids.iter().map(|i| clean_key(i))),
        )
    }

    /// The stored person with this professional-network handle, given as a profile URL or a
    /// bare handle (read with [`linkedin_handle`]); the most recently fetched when several
    /// people share it. `None` when not stored or `handle` holds no handle.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn person_by_handle(&self, handle: &str) -> Result<Option<Stored<Person>>> {
        match linkedin_handle(handle) {
            Some(h) => self.entity_by(PERSON_BY_HANDLE, "people", &h),
            None => Ok(None),
        }
    }

    /// The stored people a batch enrichment matched for inputs of no id and no handle, by their
    /// match key (`match:<hash>`, see `core::engine::person_item`; schema 8's
    /// `person_matches`); keys never matched are absent.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn people_by_match_keys(&self, keys: &[String]) -> Result<HashMap<String, Stored<Person>>> {
        self.entities_in(
            PEOPLE_BY_MATCH_IN,
            "people",
            Keys::new(keys.iter().cloned()),
        )
    }

    /// The stored people of `handles` (URLs or bare handles), keyed by the handle as
    /// [`linkedin_handle`] reads it (lowercase); handles not stored are absent.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn people_by_handles(&self, handles: &[String]) -> Result<HashMap<String, Stored<Person>>> {
        self.entities_in(
            PEOPLE_BY_HANDLE_IN,
            "people",
            Keys::new(handles.iter().filter_map(|h| linkedin_handle(h))),
        )
    }

    /// The stored contact of this kind of a person. `None` when none was revealed.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn contact(&self, person_id: &str, kind: ContactKind) -> Result<Option<Contact>> {
        let id = clean_key(person_id);
        if id.is_empty() {
            return Ok(None);
        }
        let mut st = self.conn.prepare_cached(CONTACT)?;
        read_contact(&mut st, id, kind)
    }

    /// The stored contacts of this kind of `ids`, keyed by person id; ids without one are
    /// absent.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn contacts_for(
        &self,
        ids: &[String],
        kind: ContactKind,
    ) -> Result<HashMap<String, Contact>> {
        let keys = Keys::new(ids.iter().map(|i| clean_key(i)));
        let mut out = HashMap::with_capacity(keys.len());
        if keys.is_empty() {
            return Ok(out);
        }
        let mut st = self.conn.prepare_cached(CONTACTS_IN)?;
        let mut rows = st.query(params![keys, kind.as_str()])?;
        while let Some(r) = rows.next()? {
            let person_id: String = r.get(0)?;
            let row = (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?);
            if let Some(c) = contact_of_row(person_id, kind, row) {
                out.insert(c.person_id.clone(), c);
            }
        }
        Ok(out)
    }

    /// Joins the freshest stored contacts into `people` ([`StoredContacts::join`] of
    /// [`Store::stored_contacts_of`] their ids). Returns how many people got at least one.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn join_contacts(&self, people: &mut [&mut Person]) -> Result<usize> {
        let ids: Vec<String> = people.iter().map(|p| p.id.clone()).collect();
        Ok(self.stored_contacts_of(&ids)?.join(people))
    }

    /// The stored emails and phones of the people `ids` (two indexed reads), to join into
    /// records with [`StoredContacts::join`]. Empty for no ids.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn stored_contacts_of(&self, ids: &[String]) -> Result<StoredContacts> {
        if ids.is_empty() {
            return Ok(StoredContacts::default());
        }
        Ok(StoredContacts {
            emails: self.contacts_for(ids, ContactKind::Email)?,
            phones: self.contacts_for(ids, ContactKind::Phone)?,
        })
    }

    /// Stores contacts that arrived outside a purchase answer (e.g. by webhook), linked to
    /// `purchase` when given. Per (person id, kind), a contact replaces the stored one unless
    /// that one was revealed later. One transaction.
    ///
    /// # Errors
    /// [`StoreError::NoSuchPurchase`] when `purchase` is not stored (nothing written);
    /// [`StoreError::Sqlite`], [`StoreError::Json`].
    pub fn put_contacts(
        &mut self,
        contacts: &[Contact],
        purchase: Option<PurchaseId>,
    ) -> Result<()> {
        let rows = Rows {
            contacts: Rows::contact_rows(contacts)?,
            ..Rows::default()
        };
        let tx = self.conn.begin()?;
        check_purchase(&tx, purchase)?;
        // `at_ms` only applies to companies and people, of which there are none here.
        rows.write(&tx, 0, purchase)?;
        tx.commit()?;
        Ok(())
    }
}

fn stored<T: serde::de::DeserializeOwned>(
    (record, fetched_at, purchase_id): EntityRow,
    table: &str,
    key: &str,
) -> Option<Stored<T>> {
    Some(Stored {
        value: record.read(table, &key)?,
        fetched_at: from_millis(fetched_at, table, &key)?,
        purchase_id: purchase_id.map(PurchaseId),
    })
}

/// One contact row: email, phones JSON, status, revealed_at.
type ContactColumns = (Option<String>, String, String, i64);

fn read_contact(
    st: &mut Stmt<'_>,
    person_id: String,
    kind: ContactKind,
) -> Result<Option<Contact>> {
    let row: Option<ContactColumns> = st
        .query_row(params![person_id, kind.as_str()], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .optional()?;
    Ok(row.and_then(|row| contact_of_row(person_id, kind, row)))
}

/// The contact of a row; `None` (with a warning) when its phones or time are bad.
fn contact_of_row(
    person_id: String,
    kind: ContactKind,
    (email, phones, status, revealed_at): ContactColumns,
) -> Option<Contact> {
    let key = format!("{person_id}/{}", kind.as_str());
    Some(Contact {
        phones: read_json::<Vec<String>>(&phones, "contacts", &key)?,
        revealed_at: from_millis(revealed_at, "contacts", &key)?,
        person_id,
        kind,
        email,
        status,
    })
}

/// The fetch times of stored companies by domain (`?1`: a `rarray` of normalized domains),
/// answered from the index `companies_fetched` without reading a record (schema 12). SQLite
/// is told the index: left to itself it takes the unique index of `domain` (one row each) and
/// then reads the row. (PostgreSQL is not told; `db::pg_sql` drops the hint.)
pub(crate) const FETCHED_BY_DOMAIN: &str = "SELECT c.fetched_at FROM rarray(?1) AS k
     JOIN companies c INDEXED BY companies_fetched ON c.domain = k.value";

/// [`FETCHED_BY_DOMAIN`], and for an alias without a company of its own, the fetch time of the
/// company it names.
pub(crate) const FETCHED_BY_DOMAIN_OR_ALIAS: &str = "SELECT c.fetched_at FROM rarray(?1) AS k
       JOIN companies c INDEXED BY companies_fetched ON c.domain = k.value
     UNION ALL
     SELECT c.fetched_at FROM rarray(?1) AS k
       JOIN company_aliases a ON a.alias = k.value
       JOIN companies c INDEXED BY companies_fetched ON c.domain = a.domain
     WHERE NOT EXISTS (SELECT 1 FROM companies WHERE domain = k.value)";
