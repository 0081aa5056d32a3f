//! Copying one store into another (issue 17: `prospect store copy --from sqlite://… --to
//! postgres://…` moves a member's store into the team's ledger), merging without duplicates:
//! run twice, the second run changes nothing.
//!
//! What is copied, and how a row already there is recognized:
//! - purchases by (endpoint, at, target, request), with their raw answers and buyers; a row id
//!   of the source becomes the destination's row id wherever it is named;
//! - companies, people and contacts by their keys, a newer row kept (as every write does);
//!   company aliases by alias;
//! - webhook deliveries by (event, sha256);
//! - searches by (endpoint, body, target), their pages by (search, cursor, size);
//! - lists by name (members by key), suppression entries by (kind, key, category).
//!
//! Not copied: claims (a copy is not a purchase in flight) and jobs (this machine's processes).
//! Rows are read and written 1,000 at a time, one transaction per run of rows.

use std::collections::HashMap;

use rusqlite::types::Value as SqlValue;

use super::db::{Conn, Param, params};
use super::entities::pack;
use super::{Result, Store};

/// Rows read and written at a time.
const RUN: i64 = 1000;

/// What [`Store::copy_into`] did: rows of each table the destination did not hold before.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct CopyReport {
    /// Purchases added.
    pub purchases: u64,
    /// Companies added or made newer.
    pub companies: u64,
    /// People added or made newer.
    pub people: u64,
    /// Contacts added or made newer.
    pub contacts: u64,
    /// Webhook deliveries added.
    pub deliveries: u64,
    /// Searches added.
    pub searches: u64,
    /// List members added.
    pub list_members: u64,
    /// Suppression entries added.
    pub suppressed: u64,
    /// Segmentations added.
    pub segmentations: u64,
}

/// The integer of a column value, if it is one.
fn int(v: &SqlValue) -> Option<i64> {
    match v {
        SqlValue::Integer(i) => Some(*i),
        _ => None,
    }
}

/// A record column as the store writes it: a zstd frame (old SQLite rows hold JSON text).
fn packed_record(v: SqlValue) -> Result<SqlValue> {
    Ok(match v {
        SqlValue::Text(t) => SqlValue::Blob(pack(t.as_bytes())?),
        other => other,
    })
}

/// A row id of the source mapped through `ids` (kept as `NULL` when unknown).
fn mapped(v: &SqlValue, ids: &HashMap<i64, i64>) -> SqlValue {
    match int(v).and_then(|i| ids.get(&i)) {
        Some(id) => SqlValue::Integer(*id),
        None => SqlValue::Null,
    }
}

/// Reads `sql` in runs of [`RUN`] rows of `n` columns, calling `f` with each run. `sql` takes
/// the keyset: `?1` the first column of the last row read, `?2` true for the first run (then
/// `?1` means nothing), `?3` the run's size; it orders by its first column.
fn runs(
    from: &Conn,
    sql: &str,
    n: usize,
    mut f: impl FnMut(Vec<Vec<SqlValue>>) -> Result<()>,
) -> Result<()> {
    let mut after = SqlValue::Integer(i64::MIN);
    let mut first = true;
    loop {
        let rows: Vec<Vec<SqlValue>> = from
            .prepare(sql)?
            .query_map(params![after, first, RUN], |r| {
                (0..n).map(|i| r.get::<_, SqlValue>(i)).collect()
            })?
            .collect::<Result<_>>()?;
        let Some(last) = rows.last() else {
            return Ok(());
        };
        after = last[0].clone();
        first = false;
        let len = rows.len() as i64;
        f(rows)?;
        if len < RUN {
            return Ok(());
        }
    }
}

impl Store {
    /// Copies everything of this store into `to`, merging (see the module docs): what `to`
    /// already holds is not added again. Returns the rows `to` did not hold.
    ///
    /// # Errors
    /// A database error of either store; what was copied before it stays (each run of rows is
    /// its own transaction), and running the copy again completes it.
    pub fn copy_into(&self, to: &mut Store) -> Result<CopyReport> {
        let mut report = CopyReport::default();
        let purchases = self.copy_purchases(to, &mut report)?;
        self.copy_entities(to, &purchases, &mut report)?;
        self.copy_history(to, &purchases, &mut report)?;
        self.copy_lists(to, &mut report)?;
        self.copy_segmentations(to, &purchases, &mut report)?;
        Ok(report)
    }

    /// Segmentations (schema 9), each with its purchase's id in `to`.
    fn copy_segmentations(
        &self,
        to: &mut Store,
        purchases: &HashMap<i64, i64>,
        report: &mut CopyReport,
    ) -> Result<()> {
        runs(
            &self.conn,
            "SELECT target || '/' || id, target, id, input_key, domains, purchase_id, status, body,
                    created_at, updated_at
             FROM segmentations WHERE ?2 OR target || '/' || id > ?1 ORDER BY 1 LIMIT ?3",
            10,
            |rows| {
                let tx = to.conn.begin()?;
                let mut st = tx.prepare_cached(
                    "INSERT INTO segmentations (target, id, input_key, domains, purchase_id,
                                                status, body, created_at, updated_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT DO NOTHING",
                )?;
                for mut r in rows {
                    r[5] = match int(&r[5]).and_then(|p| purchases.get(&p)) {
                        Some(&p) => SqlValue::Integer(p),
                        None => SqlValue::Null,
                    };
                    let p: Vec<&dyn Param> = r[1..].iter().map(|c| c as &dyn Param).collect();
                    report.segmentations += st.execute(&p)? as u64;
                }
                drop(st);
                tx.commit()
            },
        )
    }

    /// Purchases, by (endpoint, at, target, request); source id → destination id.
    fn copy_purchases(&self, to: &mut Store, report: &mut CopyReport) -> Result<HashMap<i64, i64>> {
        let mut ids = HashMap::new();
        runs(
            &self.conn,
            "SELECT id, endpoint, request, response, credits_standard, credits_email,
                    credits_phone, target, at, raw, buyer, request_z FROM purchases
             WHERE ?2 OR id > ?1 ORDER BY id LIMIT ?3",
            12,
            |rows| {
                let tx = to.conn.begin()?;
                for r in rows {
                    let found: Option<i64> = super::db::OptionalExt::optional(tx.query_row(
                        "SELECT id FROM purchases WHERE endpoint = ?1 AND at = ?2 AND target = ?3
                           AND request = ?4 ORDER BY id LIMIT 1",
                        params![r[1], r[8], r[7], r[2]],
                        |row| row.get(0),
                    ))?;
                    let id = match found {
                        Some(id) => id,
                        None => {
                            report.purchases += 1;
                            tx.prepare_cached(
                                "INSERT INTO purchases (endpoint, request, response,
                                   credits_standard, credits_email, credits_phone, target, at,
                                   raw, buyer, request_z)
                                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                            )?
                            .insert(params![
                                r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11]
                            ])?
                        }
                    };
                    if let Some(src) = int(&r[0]) {
                        ids.insert(src, id);
                    }
                }
                tx.commit()
            },
        )?;
        Ok(ids)
    }

    /// Companies, people, contacts and company aliases, a newer row kept.
    fn copy_entities(
        &self,
        to: &mut Store,
        purchases: &HashMap<i64, i64>,
        report: &mut CopyReport,
    ) -> Result<()> {
        type Upsert = (&'static str, &'static str, usize, Option<usize>, usize);
        // (read, write, columns, record column, purchase column)
        let tables: [(&str, Upsert); 3] = [
            (
                "companies",
                (
                    "SELECT domain, record, fetched_at, purchase_id FROM companies
                     WHERE ?2 OR domain > ?1 ORDER BY domain LIMIT ?3",
                    "INSERT INTO companies (domain, record, fetched_at, purchase_id)
                     VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (domain) DO UPDATE SET record = excluded.record,
                       fetched_at = excluded.fetched_at, purchase_id = excluded.purchase_id
                     WHERE excluded.fetched_at > companies.fetched_at",
                    4,
                    Some(1),
                    3,
                ),
            ),
            (
                "people",
                (
                    "SELECT id, handle, record, fetched_at, purchase_id FROM people
                     WHERE ?2 OR id > ?1 ORDER BY id LIMIT ?3",
                    "INSERT INTO people (id, handle, record, fetched_at, purchase_id)
                     VALUES (?1, ?2, ?3, ?4, ?5)
                     ON CONFLICT (id) DO UPDATE SET handle = excluded.handle,
                       record = excluded.record, fetched_at = excluded.fetched_at,
                       purchase_id = excluded.purchase_id
                     WHERE excluded.fetched_at > people.fetched_at",
                    5,
                    Some(2),
                    4,
                ),
            ),
            (
                "contacts",
                (
                    "SELECT person_id || ':' || kind, person_id, kind, email, phones, status,
                            revealed_at, purchase_id FROM contacts
                     WHERE ?2 OR person_id || ':' || kind > ?1 ORDER BY 1 LIMIT ?3",
                    "INSERT INTO contacts (person_id, kind, email, phones, status, revealed_at,
                       purchase_id)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                     ON CONFLICT (person_id, kind) DO UPDATE SET email = excluded.email,
                       phones = excluded.phones, status = excluded.status,
                       revealed_at = excluded.revealed_at, purchase_id = excluded.purchase_id
                     WHERE excluded.revealed_at > contacts.revealed_at",
                    8,
                    None,
                    7,
                ),
            ),
        ];
        for (table, (read, write, n, record, purchase)) in tables {
            runs(&self.conn, read, n, |rows| {
                let tx = to.conn.begin()?;
                let mut st = tx.prepare_cached(write)?;
                for mut r in rows {
                    if let Some(c) = record {
                        let cell = std::mem::replace(&mut r[c], SqlValue::Null);
                        r[c] = packed_record(cell)?;
                    }
                    r[purchase] = mapped(&r[purchase], purchases);
                    // Contacts' first column is only their keyset, not written.
                    let skip = usize::from(table == "contacts");
                    let p: Vec<&dyn Param> = r[skip..].iter().map(|c| c as &dyn Param).collect();
                    let changed = st.execute(&p)? as u64;
                    match table {
                        "companies" => report.companies += changed,
                        "people" => report.people += changed,
                        _ => report.contacts += changed,
                    }
                }
                drop(st);
                tx.commit()
            })?;
        }
        runs(
            &self.conn,
            "SELECT alias, domain FROM company_aliases WHERE ?2 OR alias > ?1 ORDER BY alias LIMIT ?3",
            2,
            |rows| {
                let tx = to.conn.begin()?;
                let pairs: Vec<(String, String)> = rows
                    .into_iter()
                    .filter_map(|r| match (&r[0], &r[1]) {
                        (SqlValue::Text(a), SqlValue::Text(d)) => Some((a.clone(), d.clone())),
                        _ => None,
                    })
                    .collect();
                super::entities::write_aliases(&tx, &pairs)?;
                tx.commit()
            },
        )?;
        runs(
            &self.conn,
            "SELECT key, person_id FROM person_matches WHERE ?2 OR key > ?1 ORDER BY key LIMIT ?3",
            2,
            |rows| {
                let tx = to.conn.begin()?;
                let mut st = tx.prepare_cached(
                    "INSERT INTO person_matches (key, person_id) VALUES (?1, ?2)
                     ON CONFLICT (key) DO NOTHING",
                )?;
                for r in rows {
                    let p: Vec<&dyn Param> = r.iter().map(|c| c as &dyn Param).collect();
                    st.execute(&p)?;
                }
                drop(st);
                tx.commit()
            },
        )
    }

    /// Webhook deliveries, searches and their pages.
    fn copy_history(
        &self,
        to: &mut Store,
        purchases: &HashMap<i64, i64>,
        report: &mut CopyReport,
    ) -> Result<()> {
        runs(
            &self.conn,
            "SELECT id, event, sha256, body, received_at, credits_email, credits_phone,
                    credits_standard
             FROM deliveries WHERE ?2 OR id > ?1 ORDER BY id LIMIT ?3",
            8,
            |rows| {
                let tx = to.conn.begin()?;
                let mut st = tx.prepare_cached(
                    "INSERT INTO deliveries (event, sha256, body, received_at, credits_email,
                       credits_phone, credits_standard) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                     ON CONFLICT (event, sha256) DO NOTHING",
                )?;
                for r in rows {
                    let p: Vec<&dyn Param> = r[1..].iter().map(|c| c as &dyn Param).collect();
                    report.deliveries += st.execute(&p)? as u64;
                }
                drop(st);
                tx.commit()
            },
        )?;
        let mut searches: HashMap<i64, i64> = HashMap::new();
        runs(
            &self.conn,
            "SELECT id, endpoint, body, target, first_run_at, last_run_at FROM searches
             WHERE ?2 OR id > ?1 ORDER BY id LIMIT ?3",
            6,
            |rows| {
                let tx = to.conn.begin()?;
                for r in rows {
                    let known: Option<i64> = super::db::OptionalExt::optional(tx.query_row(
                        "SELECT id FROM searches WHERE endpoint = ?1 AND body = ?2 AND target = ?3",
                        params![r[1], r[2], r[3]],
                        |row| row.get(0),
                    ))?;
                    let id = match known {
                        Some(id) => id,
                        None => {
                            report.searches += 1;
                            tx.prepare_cached(
                                "INSERT INTO searches (endpoint, body, target, first_run_at,
                                   last_run_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                            )?
                            .insert(params![r[1], r[2], r[3], r[4], r[5]])?
                        }
                    };
                    if let Some(src) = int(&r[0]) {
                        searches.insert(src, id);
                    }
                }
                tx.commit()
            },
        )?;
        runs(
            &self.conn,
            "SELECT search_id || ':' || cursor_in || ':' || size, search_id, cursor_in, size,
                    page, cursor_out, n, total, request, response, purchase_id, fetched_at
             FROM pages WHERE ?2 OR search_id || ':' || cursor_in || ':' || size > ?1
             ORDER BY 1 LIMIT ?3",
            12,
            |rows| {
                let tx = to.conn.begin()?;
                let mut st = tx.prepare_cached(
                    "INSERT INTO pages (search_id, cursor_in, size, page, cursor_out, n, total,
                       request, response, purchase_id, fetched_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                     ON CONFLICT (search_id, cursor_in, size) DO NOTHING",
                )?;
                for mut r in rows {
                    let search = mapped(&r[1], &searches);
                    if search == SqlValue::Null {
                        continue;
                    }
                    r[1] = search;
                    r[10] = mapped(&r[10], purchases);
                    let p: Vec<&dyn Param> = r[1..].iter().map(|c| c as &dyn Param).collect();
                    st.execute(&p)?;
                }
                drop(st);
                tx.commit()
            },
        )
    }

    /// Lists (members kept in the order they were added) and suppression entries.
    fn copy_lists(&self, to: &mut Store, report: &mut CopyReport) -> Result<()> {
        for list in self.lists()? {
            let Some((kind, members)) = self.list_members(&list.name)? else {
                continue;
            };
            to.create_list(&list.name, kind)?;
            report.list_members += to.add_to_list(&list.name, kind, &members)?.0 as u64;
        }
        runs(
            &self.conn,
            "SELECT kind || ':' || key || ':' || category, kind, key, category, added_at, source
             FROM suppressed WHERE ?2 OR kind || ':' || key || ':' || category > ?1
             ORDER BY 1 LIMIT ?3",
            6,
            |rows| {
                let tx = to.conn.begin()?;
                let mut st = tx.prepare_cached(
                    "INSERT INTO suppressed (kind, key, category, added_at, source)
                     VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
                )?;
                for r in rows {
                    let p: Vec<&dyn Param> = r[1..].iter().map(|c| c as &dyn Param).collect();
                    report.suppressed += st.execute(&p)? as u64;
                }
                drop(st);
                tx.commit()
            },
        )
    }
}
