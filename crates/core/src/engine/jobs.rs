//! Paid actions as jobs (issue 20; issue 35: every paid action of every front end): a job is
//! recorded `running`, with its action and plan, before its first paid request, and its end
//! after. A process killed meanwhile leaves it `running` under a dead owner, which
//! [`prospect_store::Store::mark_interrupted`] turns into `interrupted`: `prospect jobs` lists
//! it, `prospect resume ID` buys only the rest, and the explorer offers it at its next start.
//!
//! The engine's doors ([`super::run`], [`super::run_by_webhook`]) record their runs with
//! [`start_job`] and [`finish_job`]; no front end records a job of its own (the explorer's
//! export of the first N is one [`super::run`]).

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
