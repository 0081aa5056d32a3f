//! The runs of saved filter sets (schema version 10; issue 37): what each run of a set's search
//! cost and found, and every result key the set's runs bought, which a new-only run sends as
//! the API's excludes so that only what the store does not own comes back and is charged.

use chrono::{DateTime, Utc};

use super::db::params;
use super::{JobId, Result, Store, from_millis, to_millis};

/// One run of a saved filter set's search, as recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct SetRun {
    /// The set's name (its file stem).
    pub set_name: String,
    /// The tab it searched: `companies` or `people`.
    pub subject: String,
    /// When it ran.
    pub ran_at: DateTime<Utc>,
    /// It sent the set's earlier results as excludes (`--new-only`, `prospect watch`).
    pub new_only: bool,
    /// Results it handed on.
    pub results: u64,
    /// Of those, results no earlier run of the set had bought.
    pub new_results: u64,
    /// Owned results it bought again (past the excludes cap).
    pub paid_again: u64,
    /// Credits it cost (standard pool).
    pub credits: f64,
    /// The job it ran as.
    pub job: Option<JobId>,
}

type Raw = (String, String, i64, i64, i64, i64, i64, f64, Option<i64>);

fn read(r: &super::db::Row<'_>) -> Result<Raw> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get(7)?,
        r.get(8)?,
    ))
}

fn row(r: Raw) -> SetRun {
    SetRun {
        ran_at: from_millis(r.2, "set_runs", &r.0).unwrap_or_default(),
        set_name: r.0,
        subject: r.1,
        new_only: r.3 != 0,
        results: r.4.max(0) as u64,
        new_results: r.5.max(0) as u64,
        paid_again: r.6.max(0) as u64,
        credits: r.7,
        job: r.8.map(JobId),
    }
}

const COLUMNS: &str =
    "set_name, subject, ran_at, new_only, results, new_results, paid_again, credits, job_id";

impl Store {
    /// The result keys (normalized domains or person ids) the runs of set `set` bought for
    /// `subject` before `before` (every one with `None`), oldest first: what a run that started
    /// at `before` excludes, the same for each of its pages.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn set_keys(
        &self,
        set: &str,
        subject: &str,
        before: Option<DateTime<Utc>>,
    ) -> Result<Vec<String>> {
        let before = before.map_or(i64::MAX, to_millis);
        self.conn
            .prepare_cached(
                "SELECT key FROM set_keys WHERE set_name = ?1 AND subject = ?2 AND first_at < ?3
                 ORDER BY first_at, key",
            )?
            .query_map(params![set, subject, before], |r| r.get::<_, String>(0))?
            .collect()
    }

    /// How many runs set `set` had for `subject` before `before` (every one with `None`).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn set_run_count(
        &self,
        set: &str,
        subject: &str,
        before: Option<DateTime<Utc>>,
    ) -> Result<u64> {
        let before = before.map_or(i64::MAX, to_millis);
        let n: i64 = self.conn.query_row(
            "SELECT count(*) FROM set_runs WHERE set_name = ?1 AND subject = ?2 AND ran_at < ?3",
            params![set, subject, before],
            |r| r.get(0),
        )?;
        Ok(n.max(0) as u64)
    }

    /// Adds `keys`, bought at `at` by a run of set `set` for `subject`, in one transaction;
    /// keys the set had already are kept as they were. Returns the keys new to the set.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn add_set_keys(
        &mut self,
        set: &str,
        subject: &str,
        keys: &[String],
        at: DateTime<Utc>,
    ) -> Result<Vec<String>> {
        let at = to_millis(at);
        let tx = self.conn.begin()?;
        let mut added = Vec::new();
        {
            let mut st = tx.prepare_cached(
                "INSERT INTO set_keys (set_name, subject, key, first_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT DO NOTHING",
            )?;
            for k in keys {
                if st.execute(params![set, subject, k, at])? > 0 {
                    added.push(k.clone());
                }
            }
        }
        tx.commit()?;
        Ok(added)
    }

    /// Records a run of a set's search, or adds to it: a run is one row per set, tab and start
    /// (`ran_at`); its counts and credits are added to a row already there (the explorer
    /// records each page of a run as it comes).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn record_set_run(&mut self, run: &SetRun) -> Result<()> {
        let tx = self.conn.begin()?;
        let updated = tx.execute(
            "UPDATE set_runs SET results = results + ?4, new_results = new_results + ?5,
               paid_again = paid_again + ?6, credits = credits + ?7,
               job_id = coalesce(?8, job_id)
             WHERE set_name = ?1 AND subject = ?2 AND ran_at = ?3",
            params![
                &run.set_name,
                &run.subject,
                to_millis(run.ran_at),
                run.results as i64,
                run.new_results as i64,
                run.paid_again as i64,
                run.credits,
                run.job.map(|j| j.0)
            ],
        )?;
        if updated == 0 {
            tx.execute(
                &format!(
                    "INSERT INTO set_runs ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
                ),
                params![
                    &run.set_name,
                    &run.subject,
                    to_millis(run.ran_at),
                    i64::from(run.new_only),
                    run.results as i64,
                    run.new_results as i64,
                    run.paid_again as i64,
                    run.credits,
                    run.job.map(|j| j.0)
                ],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The last run of each of `sets` that has one (either tab), by name.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn last_set_runs(&self, sets: &[String]) -> Result<Vec<SetRun>> {
        let mut out = Vec::new();
        for s in sets {
            out.extend(self.set_runs(s, 1)?);
        }
        Ok(out)
    }

    /// The runs of set `set` (both tabs), newest first, at most `limit`.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn set_runs(&self, set: &str, limit: usize) -> Result<Vec<SetRun>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM set_runs WHERE set_name = ?1
                 ORDER BY ran_at DESC LIMIT ?2"
            ))?
            .query_map(params![set, limit as i64], read)?
            .collect::<Result<Vec<Raw>>>()?
            .into_iter()
            .map(row)
            .collect())
    }
}
