//! Paid actions as jobs (issue 20; issue 35: every paid action of every front end): a job is
//! recorded `running`, with its action and plan, before its first paid request, and its end
//! after. A process killed meanwhile leaves it `running` under a dead owner, which
//! [`prospect_store::Store::mark_interrupted`] turns into `interrupted`: `prospect jobs` lists
//! it, `prospect resume ID` buys only the rest, and the explorer offers it at its next start.
//!
//! The engine's doors ([`super::run`], [`super::run_by_webhook`]) record their runs with
//! [`start_job`] and [`finish_job`]; a front end that drives a paid action in steps of its own
//! (the explorer's export of the first N, page by page) uses [`begin_job`] and [`end_job`]
//! around the steps.

use prospect_store::{JobId, JobStatus};
use serde_json::Value;

use super::{Action, Plan, RunReport};
use crate::session::{Session, with_store};

/// Records `action` with its `plan` as a running job of this process before its first paid
/// request, and returns its id; `None` (with a warning) when the store cannot write it (the
/// action still runs; it just cannot be listed as interrupted).
pub(crate) async fn start_job(s: &Session, action: &Action, plan: &Plan) -> Option<JobId> {
    let kind = action.kind();
    let fp = action.fingerprint();
    let spec = serde_json::to_value(action).unwrap_or(Value::Null);
    let plan = serde_json::to_value(plan).unwrap_or(Value::Null);
    let owner = s.owner().to_string();
    match with_store(s.store(), move |st| {
        st.create_job(kind, &fp, &spec, &plan, &owner)
    })
    .await
    {
        Ok(id) => Some(id),
        Err(e) => {
            tracing::warn!(error = %e, "jobs: could not record the job");
            None
        }
    }
}

/// Records how job `job` ended: `done`, `interrupted` (stopped on a signal; run it again to
/// buy the rest) or `failed` (with why).
pub(crate) async fn finish_job(s: &Session, job: Option<JobId>, report: &RunReport) {
    let Some(id) = job else { return };
    let (state, detail) = if report.interrupted {
        (JobStatus::Interrupted, "stopped on a signal".to_string())
    } else if let Some(e) = &report.error {
        (JobStatus::Failed, e.to_string())
    } else {
        (JobStatus::Done, String::new())
    };
    if let Err(e) = with_store(s.store(), move |st| st.set_job_state(id, state, &detail)).await {
        tracing::warn!(error = %e, "jobs: could not record the end of a job");
    }
}

/// How a front end's job ended.
#[derive(Debug, Clone, PartialEq)]
pub enum JobEnd {
    /// Everything it was for is bought and kept.
    Done,
    /// Stopped before the end (the user stopped it); `prospect resume ID` buys the rest.
    Interrupted(String),
    /// It failed, with why; `prospect resume ID` tries the rest again.
    Failed(String),
}

/// Records `action` as a running job of this process, described as `what` (the words of
/// `prospect jobs`), with the output `options` a resume should use (`format`, `out`, as the
/// CLI keeps them); its id, or `None` when the store cannot write it (the action runs all the
/// same).
pub async fn begin_job(
    s: &Session,
    action: &Action,
    what: &str,
    options: Option<Value>,
) -> Option<JobId> {
    let mut plan = Plan::new(what.to_string(), action.kind(), false);
    plan.job_options = options;
    start_job(s, action, &plan).await
}

/// Records how job `job` ended (nothing when it was not recorded).
pub async fn end_job(s: &Session, job: Option<JobId>, end: JobEnd) {
    let Some(id) = job else { return };
    let (state, detail) = match end {
        JobEnd::Done => (JobStatus::Done, String::new()),
        JobEnd::Interrupted(why) => (JobStatus::Interrupted, why),
        JobEnd::Failed(why) => (JobStatus::Failed, why),
    };
    if let Err(e) = with_store(s.store(), move |st| st.set_job_state(id, state, &detail)).await {
        tracing::warn!(error = %e, "jobs: could not record the end of a job");
    }
}
