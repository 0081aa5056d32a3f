//! Jobs (issue 20): each paid action recorded with its spec and plan before its first paid
//! request, and how it ended, so an interrupted one is listed and run again.

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::Store;
use super::claims::local_pid;
use super::clean::clean_json;
use super::db::params;
use super::{JobId, Result, from_millis, sql_limit, to_millis};
use prospect_common::fsutil::pid_alive;

/// Where a job stands: `running` (its process is at it), `done`, `failed` (why is in its
/// detail) or `interrupted` (stopped on a signal, or its process ended before it did). Stored
/// as those words; a word of another prospect reads as `failed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobStatus {
    /// Its process is at it.
    Running,
    /// Everything it was for is bought and kept.
    Done,
    /// It failed; `prospect resume ID` tries the rest again.
    Failed,
    /// It stopped before the end; `prospect resume ID` buys the rest.
    Interrupted,
}

impl JobStatus {
    /// The stored word: `running`, `done`, `failed`, `interrupted`.
    pub fn as_str(self) -> &'static str {
        match self {
            JobStatus::Running => "running",
            JobStatus::Done => "done",
            JobStatus::Failed => "failed",
            JobStatus::Interrupted => "interrupted",
        }
    }

    /// The status of a stored word (an unknown one is `failed`: it is offered again).
    pub fn of_word(word: &str) -> JobStatus {
        match word {
            "running" => JobStatus::Running,
            "done" => JobStatus::Done,
            "interrupted" => JobStatus::Interrupted,
            _ => JobStatus::Failed,
        }
    }

    /// Whether `prospect resume` and the explorer's start offer it: interrupted or failed.
    pub fn is_resumable(self) -> bool {
        matches!(self, JobStatus::Interrupted | JobStatus::Failed)
    }
}

impl std::fmt::Display for JobStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A job as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct JobRow {
    /// Its id.
    pub id: JobId,
    /// `search`, `lookup_companies`, `lookup_people`, `reveal_emails`, `reveal_phones`,
    /// `enrich_company`, `enrich_person`.
    pub kind: String,
    /// What it asks, canonical: the same command gives the same text.
    pub fingerprint: String,
    /// What runs it again (JSON, see `core::engine::Action`).
    pub spec: Value,
    /// The plan it was confirmed with (JSON of `core::engine::Plan`).
    pub plan: Value,
    /// Where it stands.
    pub state: JobStatus,
    /// The process that ran it.
    pub pid: i64,
    /// Why it failed or stopped (empty when done).
    pub detail: String,
    /// Items kept so far.
    pub bought: i64,
    /// When it was planned.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

impl Store {
    /// Records a planned job as `running` for `owner` (process `pid`) and returns its id.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite), [`StoreError::Json`](super::StoreError::Json).
    pub fn create_job(
        &mut self,
        kind: &str,
        fingerprint: &str,
        spec: &Value,
        plan: &Value,
        owner: &str,
    ) -> Result<JobId> {
        let now = to_millis(Utc::now());
        let id = self
            .conn
            .prepare_cached(
                "INSERT INTO jobs (kind, fingerprint, spec, plan, state, owner, pid, created_at,
                   updated_at)
                 VALUES (?1, ?2, ?3, ?4, 'running', ?5, ?6, ?7, ?7)",
            )?
            .insert(params![
                kind,
                fingerprint,
                clean_json(spec)?,
                clean_json(plan)?,
                owner,
                std::process::id() as i64,
                now
            ])?;
        Ok(JobId(id))
    }

    /// Sets the status of job `id` (done, failed, interrupted) with why.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn set_job_state(&mut self, id: JobId, state: JobStatus, detail: &str) -> Result<()> {
        self.conn
            .prepare_cached(
                "UPDATE jobs SET state = ?2, detail = ?3, updated_at = ?4 WHERE id = ?1",
            )?
            .execute(params![
                id.0,
                state.as_str(),
                prospect_common::sanitize::sanitize(detail),
                to_millis(Utc::now())
            ])?;
        Ok(())
    }

    /// Marks `interrupted` every `running` job whose process is gone (killed, crashed, power
    /// cut), and `done` every older job of the same fingerprint that a later job finished.
    /// Returns how many were marked interrupted.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn mark_interrupted(&mut self) -> Result<usize> {
        let running: Vec<(i64, i64)> = {
            let mut st = self
                .conn
                .prepare_cached("SELECT id, owner FROM jobs WHERE state = 'running'")?;
            st.query_map(params![], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
            })?
            .filter_map(|row| match row {
                // Only this machine's jobs can be seen to have lost their process.
                Ok((id, owner)) => local_pid(&owner).map(|pid| Ok((id, pid))),
                Err(e) => Some(Err(e)),
            })
            .collect::<Result<_>>()?
        };
        let mut n = 0;
        for (id, pid) in running {
            if !pid_alive(pid) {
                self.set_job_state(
                    JobId(id),
                    JobStatus::Interrupted,
                    "its process ended before it did",
                )?;
                n += 1;
            }
        }
        self.conn.execute(
            "UPDATE jobs SET state = 'done', detail = 'finished by job ' || (
                SELECT max(l.id) FROM jobs l WHERE l.fingerprint = jobs.fingerprint
                  AND l.id > jobs.id AND l.state = 'done')
             WHERE state = 'interrupted' AND EXISTS (SELECT 1 FROM jobs l
                WHERE l.fingerprint = jobs.fingerprint AND l.id > jobs.id AND l.state = 'done')",
            params![],
        )?;
        Ok(n)
    }

    /// The last `limit` jobs, newest first; only those not `done` when `open_only`.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn jobs(&self, limit: usize, open_only: bool) -> Result<Vec<JobRow>> {
        let sql = if open_only {
            "SELECT id, kind, fingerprint, spec, plan, state, pid, detail, bought, created_at,
               updated_at FROM jobs WHERE state <> 'done' ORDER BY id DESC LIMIT ?1"
        } else {
            "SELECT id, kind, fingerprint, spec, plan, state, pid, detail, bought, created_at,
               updated_at FROM jobs ORDER BY id DESC LIMIT ?1"
        };
        self.job_rows(sql, params![sql_limit(limit)])
    }

    /// Job `id`, if stored.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn job(&self, id: JobId) -> Result<Option<JobRow>> {
        Ok(self
            .job_rows(
                "SELECT id, kind, fingerprint, spec, plan, state, pid, detail, bought, created_at,
                   updated_at FROM jobs WHERE id = ?1",
                params![id.0],
            )?
            .pop())
    }

    fn job_rows(&self, sql: &str, p: &[&dyn super::db::Param]) -> Result<Vec<JobRow>> {
        let mut st = self.conn.prepare_cached(sql)?;
        let rows = st.query_map(p, |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, i64>(6)?,
                r.get::<_, String>(7)?,
                r.get::<_, i64>(8)?,
                r.get::<_, i64>(9)?,
                r.get::<_, i64>(10)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, kind, fingerprint, spec, plan, state, pid, detail, bought, c, u) = row?;
            let parsed = (|| {
                Some(JobRow {
                    id: JobId(id),
                    kind,
                    fingerprint,
                    spec: super::read_json(&spec, "jobs", &id)?,
                    plan: super::read_json(&plan, "jobs", &id)?,
                    state: JobStatus::of_word(&state),
                    pid,
                    detail,
                    bought,
                    created_at: from_millis(c, "jobs", &id)?,
                    updated_at: from_millis(u, "jobs", &id)?,
                })
            })();
            out.extend(parsed);
        }
        Ok(out)
    }
}
