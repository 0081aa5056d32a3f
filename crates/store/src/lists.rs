//! Named lists (issue 16): account lists (members keyed by domain, as companies are) and
//! contact lists (members keyed by the service's person id), kept in `lists` and
//! `list_members` (schema version 4) so a list built over many searches survives the view and
//! the process, and can be acted on and exported as a whole.

use super::db::{OptionalExt, params};

use super::{Result, Store, StoreError, from_millis, to_millis};
use prospect_common::keys::normalize_domain;

/// What a list holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ListKind {
    /// Companies, by domain.
    Accounts,
    /// People, by the service's id.
    Contacts,
}

impl ListKind {
    /// As stored: `accounts`, `contacts`.
    pub fn as_str(self) -> &'static str {
        match self {
            ListKind::Accounts => "accounts",
            ListKind::Contacts => "contacts",
        }
    }

    fn parse(s: &str) -> Option<ListKind> {
        match s {
            "accounts" => Some(ListKind::Accounts),
            "contacts" => Some(ListKind::Contacts),
            _ => None,
        }
    }

    /// `key` as a member of this kind of list: a domain normalized as companies are, a person
    /// id trimmed; `None` when it is not one.
    pub fn member_key(self, key: &str) -> Option<String> {
        match self {
            ListKind::Accounts => prospect_common::keys::domain_key(key),
            ListKind::Contacts => Some(prospect_common::sanitize::sanitize(key).trim().to_string())
                .filter(|k| !k.is_empty()),
        }
    }
}

/// A list with its member count.
#[derive(Debug, Clone, PartialEq)]
pub struct ListSummary {
    /// Its name.
    pub name: String,
    /// Accounts or contacts.
    pub kind: ListKind,
    /// Members.
    pub members: u64,
    /// When it was created.
    pub created_at: chrono::DateTime<chrono::Utc>,
}

impl Store {
    /// Creates the list `name` of `kind`; an existing list of that name and kind is kept as it
    /// is. Errors: [`StoreError::Invalid`] for an empty name or a list of that name of the
    /// other kind; [`StoreError::Sqlite`].
    pub fn create_list(&mut self, name: &str, kind: ListKind) -> Result<()> {
        let name = list_name(name)?;
        if let Some(existing) = self.list(&name)? {
            if existing.kind != kind {
                return Err(StoreError::Invalid(format!(
                    "list {name} exists and holds {}",
                    existing.kind.as_str()
                )));
            }
            return Ok(());
        }
        self.conn.execute(
            "INSERT INTO lists (name, kind, created_at) VALUES (?1, ?2, ?3)",
            params![name, kind.as_str(), to_millis(chrono::Utc::now())],
        )?;
        Ok(())
    }

    /// The list `name` with its member count; `None` when there is none.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn list(&self, name: &str) -> Result<Option<ListSummary>> {
        Ok(self.lists()?.into_iter().find(|l| l.name == name.trim()))
    }

    /// Every list with its member count, by name.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn lists(&self) -> Result<Vec<ListSummary>> {
        let mut st = self.conn.prepare_cached(
            "SELECT l.name, l.kind, l.created_at,
                    (SELECT count(*) FROM list_members m WHERE m.list_id = l.id)
             FROM lists l ORDER BY l.name",
        )?;
        let rows = st.query_map(params![], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (name, kind, at, n) = row?;
            let (Some(kind), Some(created_at)) =
                (ListKind::parse(&kind), from_millis(at, "lists", &name))
            else {
                continue;
            };
            out.push(ListSummary {
                name,
                kind,
                members: n.max(0) as u64,
                created_at,
            });
        }
        Ok(out)
    }

    /// Adds `keys` to the list `name` (created as `kind` when missing), in one transaction;
    /// keys that are not of the list's kind are left out. Returns (added, already members,
    /// left out).
    ///
    /// # Errors
    /// As [`Store::create_list`].
    pub fn add_to_list(
        &mut self,
        name: &str,
        kind: ListKind,
        keys: &[String],
    ) -> Result<(usize, usize, usize)> {
        self.create_list(name, kind)?;
        let name = list_name(name)?;
        let now = to_millis(chrono::Utc::now());
        let tx = self.conn.begin()?;
        let id: i64 = tx.query_row(
            "SELECT id FROM lists WHERE name = ?1",
            params![&name],
            |r| r.get(0),
        )?;
        let (mut added, mut had, mut bad) = (0, 0, 0);
        {
            let mut st = tx.prepare_cached(
                "INSERT INTO list_members (list_id, key, added_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT DO NOTHING",
            )?;
            for k in keys {
                match kind.member_key(k) {
                    Some(k) => match st.execute(params![id, k, now])? {
                        0 => had += 1,
                        _ => added += 1,
                    },
                    None => bad += 1,
                }
            }
        }
        tx.commit()?;
        Ok((added, had, bad))
    }

    /// The members of list `name`, in the order they were added; `None` when there is no such
    /// list.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn list_members(&self, name: &str) -> Result<Option<(ListKind, Vec<String>)>> {
        let Some(l) = self.list(name)? else {
            return Ok(None);
        };
        let mut st = self.conn.prepare_cached(
            "SELECT m.key FROM list_members m JOIN lists l ON l.id = m.list_id
             WHERE l.name = ?1 ORDER BY m.rowid",
        )?;
        let keys = st
            .query_map(params![&l.name], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>>>()?;
        Ok(Some((l.kind, keys)))
    }

    /// Deletes list `name` and its members (the companies and people stay stored). Returns
    /// whether there was one.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn remove_list(&mut self, name: &str) -> Result<bool> {
        let id: Option<i64> = self
            .conn
            .query_row(
                "SELECT id FROM lists WHERE name = ?1",
                params![name.trim()],
                |r| r.get(0),
            )
            .optional()?;
        let Some(id) = id else { return Ok(false) };
        self.conn
            .execute("DELETE FROM list_members WHERE list_id = ?1", params![id])?;
        self.conn
            .execute("DELETE FROM lists WHERE id = ?1", params![id])?;
        Ok(true)
    }
}

/// The members of a list with what the store holds of them ([`Store::list_records`]).
#[derive(Debug, Clone)]
pub enum ListRecords {
    /// An account list: each member's stored company (only its `domain` when none is stored).
    Accounts(Vec<prospect_api::types::Company>),
    /// A contact list: each member's stored person with its freshest contacts and its
    /// employer's summary joined (only its `id` when none is stored).
    Contacts(Vec<prospect_api::types::LookalikePerson>),
}

impl ListRecords {
    /// Members of the list.
    pub fn len(&self) -> usize {
        match self {
            ListRecords::Accounts(v) => v.len(),
            ListRecords::Contacts(v) => v.len(),
        }
    }

    /// `true` for a list without members.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Store {
    /// The members of list `name`, in the order they were added, joined with what the store
    /// holds of them (records, contacts, employers); `None` when there is no such list.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`].
    pub fn list_records(&self, name: &str) -> Result<Option<ListRecords>> {
        use prospect_api::types::{Company, LookalikePerson, Person};
        let Some((kind, keys)) = self.list_members(name)? else {
            return Ok(None);
        };
        Ok(Some(match kind {
            ListKind::Accounts => {
                let mut stored = self.companies_by_domains(&keys)?;
                ListRecords::Accounts(
                    keys.into_iter()
                        .map(|d| match stored.remove(&d) {
                            Some(c) => c.value,
                            None => Company {
                                domain: d,
                                ..Company::default()
                            },
                        })
                        .collect(),
                )
            }
            ListKind::Contacts => {
                let mut stored = self.people_by_ids(&keys)?;
                let mut people: Vec<LookalikePerson> = keys
                    .into_iter()
                    .map(|id| LookalikePerson {
                        person: match stored.remove(&id) {
                            Some(p) => p.value,
                            None => Person {
                                id,
                                ..Person::default()
                            },
                        },
                        ..LookalikePerson::default()
                    })
                    .collect();
                self.join_contacts(
                    &mut people.iter_mut().map(|p| &mut p.person).collect::<Vec<_>>(),
                )?;
                let domains: Vec<String> = people.iter().map(|p| p.person.domain.clone()).collect();
                let employers = self.companies_by_domains(&domains)?;
                for p in &mut people {
                    if let Some(c) = employers.get(&normalize_domain(&p.person.domain)) {
                        p.company = Some((&c.value).into());
                    }
                }
                ListRecords::Contacts(people)
            }
        }))
    }
}

/// A list name, trimmed and sanitized; an empty one is refused.
fn list_name(name: &str) -> Result<String> {
    let n = prospect_common::sanitize::sanitize(name).trim().to_string();
    if n.is_empty() {
        return Err(StoreError::Invalid("a list needs a name".into()));
    }
    Ok(n)
}
