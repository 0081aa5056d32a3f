//! A store that is whole (issue 34): every table of the current schema is there, and a file
//! that may have been cut short reads. A store missing a table would take paid answers it
//! cannot keep (each to a recovery file that cannot be imported, and paid again on every run),
//! so the session refuses paid calls until `prospect store migrate` puts back what is missing
//! ([`Store::repair`]).
//!
//! The reference is the schema itself: the migration steps run on an empty database in memory
//! give every table, index and trigger of the current version with the statement that makes
//! it, so a table found missing is made again exactly as a new store has it.

use std::collections::HashSet;
use std::sync::OnceLock;

use super::db::Conn;
use super::{Result, Store, StoreError, schema};

/// One object of the reference schema (`sqlite_master`'s row).
struct Object {
    /// `table`, `index` or `trigger`.
    kind: String,
    /// The table it is, or belongs to.
    table: String,
    /// The statement that makes it.
    sql: String,
}

/// The current schema's objects in the order they were made ([`schema::MIGRATIONS`] run on an
/// empty database in memory); empty if that fails (never expected: every new store runs them).
fn reference() -> &'static [Object] {
    static REFERENCE: OnceLock<Vec<Object>> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let build = || -> rusqlite::Result<Vec<Object>> {
            let conn = rusqlite::Connection::open_in_memory()?;
            for step in schema::MIGRATIONS {
                conn.execute_batch(step)?;
            }
            let mut st = conn.prepare(
                "SELECT type, tbl_name, sql FROM sqlite_master
                 WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
            )?;
            st.query_map([], |r| {
                Ok(Object {
                    kind: r.get(0)?,
                    table: r.get(1)?,
                    sql: r.get(2)?,
                })
            })?
            .collect()
        };
        build().unwrap_or_else(|e| {
            tracing::error!(error = %e, "store: the reference schema could not be built");
            Vec::new()
        })
    })
}

/// The tables of the current schema, by name.
fn tables() -> impl Iterator<Item = &'static str> {
    reference()
        .iter()
        .filter(|o| o.kind == "table")
        .map(|o| o.table.as_str())
}

impl Store {
    /// The tables of the current schema this store does not have (a file whose table was
    /// dropped or lost), in schema order; empty when it is whole. On PostgreSQL, the tables
    /// its own migrations make.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] / [`StoreError::Postgres`] when the catalogue cannot be read.
    pub fn missing_tables(&self) -> Result<Vec<String>> {
        let have: HashSet<String> = match &self.conn {
            Conn::Lite(c) => {
                let mut st = c.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")?;
                st.query_map([], |r| r.get::<_, String>(0))?
                    .collect::<rusqlite::Result<_>>()?
            }
            Conn::Pg(_) => self
                .conn
                .prepare(
                    "SELECT table_name::text FROM information_schema.tables
                     WHERE table_schema = current_schema()",
                )?
                .query_map(super::db::params![], |r| r.get::<_, String>(0))?
                .collect::<Result<_>>()?,
        };
        let pg = self.conn.is_pg();
        Ok(tables()
            .filter(|t| !have.contains(*t))
            // A table of SQLite's steps that the team store's steps do not make is not missing.
            .filter(|t| {
                !pg || schema::PG_MIGRATIONS
                    .iter()
                    .any(|m| m.contains(&format!("TABLE {t} ")))
            })
            .map(str::to_string)
            .collect())
    }

    /// Makes again every table [`Store::missing_tables`] names, with its indexes and triggers,
    /// as a new store has them, in one transaction; returns their names (empty when the store
    /// was whole). What they held is gone; what was kept elsewhere (recovery files) is imported
    /// at the next start.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] / [`StoreError::Postgres`] (nothing changed).
    pub fn repair(&mut self) -> Result<Vec<String>> {
        let missing = self.missing_tables()?;
        if missing.is_empty() {
            return Ok(missing);
        }
        if self.conn.is_pg() {
            self.repair_pg(&missing)?;
            tracing::warn!(tables = %missing.join(", "), "store: missing tables made again");
            return Ok(missing);
        }
        let gone: HashSet<&str> = missing.iter().map(String::as_str).collect();
        let tx = self.conn.begin()?;
        for o in reference()
            .iter()
            .filter(|o| gone.contains(o.table.as_str()))
        {
            tx.lite_batch(&o.sql)?;
        }
        tx.commit()?;
        tracing::warn!(tables = %missing.join(", "), "store: missing tables made again");
        Ok(missing)
    }

    /// [`Store::repair`] on PostgreSQL: the team store's own migration steps run in a schema
    /// of their own inside one transaction, each missing table is made like its reference
    /// there (`LIKE … INCLUDING ALL`: columns, defaults, identity, constraints and indexes; not
    /// its foreign keys), and that schema is dropped.
    fn repair_pg(&mut self, missing: &[String]) -> Result<()> {
        let home: String =
            self.conn
                .query_row("SELECT current_schema()::text", super::db::params![], |r| {
                    r.get(0)
                })?;
        let reference = format!("prospect_reference_{}", std::process::id());
        let mut sql = format!("CREATE SCHEMA {reference}; SET LOCAL search_path TO {reference};\n");
        for step in schema::PG_MIGRATIONS {
            sql.push_str(step);
            sql.push_str(";\n");
        }
        sql.push_str(&format!("SET LOCAL search_path TO \"{home}\";\n"));
        for t in missing {
            sql.push_str(&format!(
                "CREATE TABLE \"{home}\".{t} (LIKE {reference}.{t} INCLUDING ALL);\n"
            ));
        }
        sql.push_str(&format!("DROP SCHEMA {reference} CASCADE;\n"));
        let tx = self.conn.begin()?;
        let Conn::Pg(pg) = &*tx else {
            return Err(StoreError::Postgres("not a team store".into()));
        };
        pg.batch(sql).map_err(|e| {
            StoreError::Postgres(format!(
                "the team store's missing table(s) {} could not be made again: {e}",
                missing.join(", ")
            ))
        })?;
        tx.commit()
    }

    /// Why this store cannot keep paid answers, in words (issue 34): a table missing (checked
    /// at every open), or, after an unclean exit (`unclean`: a job whose process died), a file
    /// [`Store::quick_check`] finds damaged. `None` when it is whole; a check that cannot run
    /// says so.
    pub fn damage(&self, unclean: bool) -> Option<String> {
        match self.missing_tables() {
            Ok(missing) if !missing.is_empty() => {
                return Some(format!(
                    "the store is missing table(s) {}; `prospect store migrate` makes them again",
                    missing.join(", ")
                ));
            }
            Ok(_) => {}
            Err(e) => return Some(format!("the store's tables cannot be read ({e})")),
        }
        if !unclean {
            return None;
        }
        match self.quick_check() {
            Ok(None) => None,
            Ok(Some(problems)) => Some(format!(
                "the store file is damaged (quick_check: {problems}); copy what reads into a new \
                 store with `prospect store copy`"
            )),
            Err(e) => Some(format!("the store file cannot be checked ({e})")),
        }
    }

    /// SQLite's `PRAGMA quick_check` of the file: `None` when it is sound (and always for a
    /// team store, whose server checks itself), else the first problems it names, in one line.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] when the check cannot run at all (the file is not readable).
    pub fn quick_check(&self) -> Result<Option<String>> {
        let Conn::Lite(c) = &self.conn else {
            return Ok(None);
        };
        let mut st = c.prepare("PRAGMA quick_check(5)")?;
        let lines: Vec<String> = st
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<_>>()?;
        Ok((lines.first().map(String::as_str) != Some("ok")).then(|| lines.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_table_is_named_and_made_again() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("s.sqlite");
        let mut s = Store::open(&path).unwrap();
        assert!(s.missing_tables().unwrap().is_empty());
        assert_eq!(s.quick_check().unwrap(), None);
        s.conn.lite_batch("DROP TABLE purchases").unwrap();
        assert_eq!(s.missing_tables().unwrap(), vec!["purchases".to_string()]);
        assert_eq!(s.repair().unwrap(), vec!["purchases".to_string()]);
        assert!(s.missing_tables().unwrap().is_empty());
        assert!(s.repair().unwrap().is_empty());
    }

    /// The same on the team store, when `PROSPECT_TEST_PG_URL` names a server (`.ci/run`).
    #[test]
    fn a_team_store_missing_a_table_is_made_whole_again() {
        let Ok(server) = std::env::var("PROSPECT_TEST_PG_URL") else {
            return;
        };
        let db = format!("whole{}", std::process::id());
        let url = super::super::pg_server::create_database(&server, &db).unwrap();
        let mut s = Store::open_postgres(&url).unwrap();
        assert!(s.missing_tables().unwrap().is_empty());
        s.conn
            .execute("DROP TABLE purchases CASCADE", super::super::db::params![])
            .unwrap();
        assert_eq!(s.missing_tables().unwrap(), vec!["purchases".to_string()]);
        assert_eq!(s.repair().unwrap(), vec!["purchases".to_string()]);
        assert!(s.missing_tables().unwrap().is_empty());
        assert_eq!(s.purchases(5).unwrap().len(), 0, "the table reads");
    }

    /// A store left with read-only `-wal` and `-shm` files (a run while it was read-only)
    /// opens again once the file is writable: the log files get its mode back.
    #[test]
    fn read_only_log_files_are_made_writable_at_open() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("s.sqlite");
        drop(Store::open(&path).unwrap());
        let logs = [d.path().join("s.sqlite-wal"), d.path().join("s.sqlite-shm")];
        for log in &logs {
            std::fs::write(log, b"").unwrap();
            std::fs::set_permissions(log, std::fs::Permissions::from_mode(0o400)).unwrap();
        }
        let _s = Store::open(&path).unwrap();
        for log in &logs {
            let mode = std::fs::metadata(log).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode & 0o200, 0o200, "{}: {mode:o}", log.display());
        }
    }
}
