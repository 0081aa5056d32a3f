//! `prospect jobs`, and the options a job keeps so `prospect resume ID` finishes it the same
//! way.

use crate::*;

/// Run a job again: only what it has not bought yet is bought.
#[derive(Debug, Clone, clap::Args)]
pub struct ResumeArgs {
    /// The job id (from `prospect jobs`).
    pub id: i64,
    #[command(flatten)]
    pub spend: SpendArgs,
    #[command(flatten)]
    pub out: OutArgs,
}

/// Runs `prospect resume ID`: job ID's action again, with the options it was started with
/// ([`JobOptions`]) unless given again; only what it has not bought yet is bought.
///
/// Errors: no such job, or one this prospect cannot read (exit 2), and the run's.
pub(crate) async fn resume(ctx: &Ctx, a: ResumeArgs) -> CliResult {
    let job = ctx
        .session()
        .job(JobId(a.id))
        .await
        .map_err(CliError::other)?
        .ok_or_else(|| {
            CliError::usage(format!(
                "no job {} in the store (see `prospect jobs`)",
                a.id
            ))
        })?;
    let action: Action = serde_json::from_value(job.spec.clone()).map_err(|e| {
        CliError::usage(format!(
            "job {} cannot be run again by this prospect: {e}",
            a.id
        ))
    })?;
    // The options the job was started with, unless given again (issue 34).
    let kept = JobOptions::of_job(&job);
    let (spend, out, wait) = kept.under(a.spend, a.out);
    let wait = wait.unwrap_or(WEBHOOK_WAIT_SECS);
    match action {
        Action::Reveal { .. } => reveal(ctx, action, wait, &spend, &out).await,
        Action::EnrichCompanies { .. } => enrich_companies(ctx, action, wait, &spend, &out).await,
        Action::EnrichPeople { .. } => enrich_people(ctx, action, wait, &spend, &out).await,
        Action::Segment { .. } => create_segmentation(ctx, action, kept.wait, &spend, &out).await,
        other => run_action(ctx, other, &spend, &out).await,
    }
}

/// The options of a command that shape its output and spending, kept with its job so that
/// `prospect resume ID` alone finishes it the same way (issue 34): into the same file, in the
/// same format, within the same `--max-credits`, waiting as long for webhooks.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct JobOptions {
    /// `--max-credits`.
    pub(crate) max_credits: Option<f64>,
    /// `--format`, by its name (`csv`, `jsonl`, …).
    pub(crate) format: Option<String>,
    /// `--out`, made absolute, so a resume from another directory writes the same file.
    pub(crate) out: Option<PathBuf>,
    /// `--wait` in seconds (reveals, batch enrichments, segmentations).
    pub(crate) wait: Option<u64>,
}

impl JobOptions {
    pub(crate) fn of(spend: &SpendArgs, out: &OutArgs, wait: Option<u64>) -> JobOptions {
        use clap::ValueEnum;
        JobOptions {
            max_credits: spend.max_credits,
            format: out
                .format
                .and_then(|f| f.to_possible_value())
                .map(|v| v.get_name().to_string()),
            out: out
                .out
                .as_ref()
                .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone())),
            wait,
        }
    }

    /// `plan` carrying these options, for its job.
    pub(crate) fn kept_in(&self, plan: &Plan) -> Plan {
        let mut p = plan.clone();
        p.job_options = serde_json::to_value(self).ok();
        p
    }

    /// The options kept with `job` (none for a job of an older prospect).
    pub(crate) fn of_job(job: &prospect_core::owned::JobRow) -> JobOptions {
        Plan::of_job(job)
            .and_then(|p| p.job_options)
            .and_then(|v| serde_json::from_value(v).ok())
            .unwrap_or_default()
    }

    /// The options of a resume: each given on its command line, else the kept one.
    pub(crate) fn under(
        &self,
        spend: SpendArgs,
        out: OutArgs,
    ) -> (SpendArgs, OutArgs, Option<u64>) {
        use clap::ValueEnum;
        let spend = SpendArgs {
            max_credits: spend.max_credits.or(self.max_credits),
            ..spend
        };
        let out = OutArgs {
            format: out.format.or_else(|| {
                self.format
                    .as_deref()
                    .and_then(|f| Format::from_str(f, true).ok())
            }),
            out: out.out.or_else(|| self.out.clone()),
        };
        (spend, out, self.wait)
    }
}

/// `prospect jobs`: the jobs of the store (open ones, or all), newest first.
pub(crate) fn jobs(ctx: &Ctx, all: bool, limit: usize, out: &OutArgs) -> CliResult {
    let (mut store, _) = open_store(ctx)?;
    let list = store.jobs(limit, !all)?;
    let mut w = Writer::<prospect_core::export::JobOut>::new(
        Format::resolve(out.format, &out.out),
        out.out.as_ref(),
    )?;
    for j in list {
        let action = Plan::of_job(&j).map(|p| p.action);
        w.write(&prospect_core::export::JobOut::of(&j, action))?;
    }
    w.finish()?;
    Ok(())
}
