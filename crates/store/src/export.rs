//! Reading everything of one kind out of the store, oldest first, one record at a time (for
//! `prospect export`): memory stays flat however large the store is.

use super::db::params;

use super::{Contact, Result, Store, Stored, from_millis, read_json};
use prospect_api::types::{Company, LookalikePerson, Person};
use prospect_common::ContactKind;

/// People read at a time when their contacts are joined in ([`Store::for_each_person_joined`]).
const JOIN_RUN: usize = 1000;

impl Store {
    /// Calls `f` with every stored company, in the order they were first fetched (then by
    /// domain). Rows whose JSON no longer reads are skipped with a warning.
    ///
    /// # Errors
    /// [`super::StoreError::Sqlite`]; an error returned by `f` stops the walk and is returned.
    pub fn for_each_company(
        &self,
        f: impl FnMut(Stored<Company>) -> std::io::Result<()>,
    ) -> Result<()> {
        self.for_each_entity(
            "SELECT domain, record, fetched_at, purchase_id FROM companies ORDER BY fetched_at, domain",
            "companies",
            f,
        )
    }

    /// Calls `f` with every stored person, in the order they were first fetched (then by id).
    ///
    /// # Errors
    /// As [`Store::for_each_company`].
    pub fn for_each_person(
        &self,
        f: impl FnMut(Stored<Person>) -> std::io::Result<()>,
    ) -> Result<()> {
        self.for_each_entity(
            "SELECT id, record, fetched_at, purchase_id FROM people ORDER BY fetched_at, id",
            "people",
            f,
        )
    }

    /// Calls `f` with every stored person as [`Store::for_each_person`] does, as a lookup
    /// record (no score) with the contacts the store holds joined in
    /// ([`super::StoredContacts::join`]) and the summary of its stored employer (by `domain`)
    /// as its `company`: what `prospect export people` writes. People are read in runs of
    /// [`JOIN_RUN`], so memory stays flat.
    ///
    /// # Errors
    /// As [`Store::for_each_company`].
    pub fn for_each_person_joined(
        &self,
        mut f: impl FnMut(LookalikePerson) -> std::io::Result<()>,
    ) -> Result<()> {
        let mut run: Vec<LookalikePerson> = Vec::with_capacity(JOIN_RUN);
        let flush = |run: &mut Vec<LookalikePerson>,
                     f: &mut dyn FnMut(LookalikePerson) -> std::io::Result<()>|
         -> Result<()> {
            self.join_contacts(&mut run.iter_mut().map(|p| &mut p.person).collect::<Vec<_>>())?;
            self.join_employers(&mut run.iter_mut().collect::<Vec<_>>())?;
            for p in run.drain(..) {
                f(p)?;
            }
            Ok(())
        };
        self.for_each_person(|p| {
            run.push(LookalikePerson {
                person: p.value,
                ..LookalikePerson::default()
            });
            if run.len() >= JOIN_RUN {
                flush(&mut run, &mut f).map_err(std::io::Error::other)?;
            }
            Ok(())
        })?;
        flush(&mut run, &mut f)
    }

    /// Sets the `company` of each of `people` that has none to the summary of its stored
    /// employer (by the person's `domain`, [`Store::companies_by_domains`]), as a v3 people
    /// answer carries it (SPEC.md §4.10): a person read back from the store shows its
    /// company's name where the store knows it. People whose employer is not stored are left
    /// as they are.
    ///
    /// # Errors
    /// The store's, reading the companies.
    pub fn join_employers(&self, people: &mut [&mut LookalikePerson]) -> Result<()> {
        let domains: Vec<String> = people
            .iter()
            .filter(|p| p.company.is_none() && !p.person.domain.is_empty())
            .map(|p| p.person.domain.clone())
            .collect();
        if domains.is_empty() {
            return Ok(());
        }
        let employers = self.companies_by_domains(&domains)?;
        for p in people.iter_mut().filter(|p| p.company.is_none()) {
            let key = prospect_common::keys::normalize_domain(&p.person.domain);
            if let Some(c) = employers.get(&key) {
                p.company = Some((&c.value).into());
            }
        }
        Ok(())
    }

    /// Walks `sql`'s rows of (key, record JSON, fetched_at, purchase_id) of `table`.
    fn for_each_entity<T: serde::de::DeserializeOwned>(
        &self,
        sql: &str,
        table: &str,
        mut f: impl FnMut(Stored<T>) -> std::io::Result<()>,
    ) -> Result<()> {
        let mut st = self.conn.prepare(sql)?;
        let mut rows = st.query(params![])?;
        while let Some(r) = rows.next()? {
            let (key, record, at, purchase): (String, super::entities::Record, i64, Option<i64>) =
                (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?);
            let (Some(value), Some(fetched_at)) =
                (record.read::<T>(table, &key), from_millis(at, table, &key))
            else {
                continue;
            };
            f(Stored {
                value,
                fetched_at,
                purchase_id: purchase.map(super::PurchaseId),
            })?;
        }
        Ok(())
    }

    /// Calls `f` with every revealed contact (emails and phones), oldest first.
    ///
    /// # Errors
    /// As [`Store::for_each_company`].
    pub fn for_each_contact(
        &self,
        mut f: impl FnMut(Contact) -> std::io::Result<()>,
    ) -> Result<()> {
        let mut st = self.conn.prepare(
            "SELECT person_id, kind, email, phones, status, revealed_at FROM contacts \
             ORDER BY revealed_at, person_id, kind",
        )?;
        let mut rows = st.query(params![])?;
        while let Some(r) = rows.next()? {
            let (person_id, kind, email, phones, status, at): (
                String,
                String,
                Option<String>,
                String,
                String,
                i64,
            ) = (
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            );
            let kind = if kind == "phone" {
                ContactKind::Phone
            } else {
                ContactKind::Email
            };
            let key = format!("{person_id}/{}", kind.as_str());
            let (Some(phones), Some(revealed_at)) = (
                read_json::<Vec<String>>(&phones, "contacts", &key),
                from_millis(at, "contacts", &key),
            ) else {
                continue;
            };
            f(Contact {
                person_id,
                kind,
                email,
                phones,
                status,
                revealed_at,
            })?;
        }
        Ok(())
    }
}
