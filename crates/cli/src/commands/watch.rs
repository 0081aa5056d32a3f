//! `prospect watch SET…` (issue 37): runs saved filter sets as new-only searches through the
//! spend engine, each tab a set holds, and prints only the new rows, each with its set's name;
//! records each run; posts a digest of a run with news to `--notify`. `--history` lists a
//! set's runs. Exit codes as `search`'s; 0 with no output when nothing is new, so cron mails
//! only news.

use crate::*;
use prospect_core::watch::{Digest, SetRecord, SetRow, SetRunOut, TabRun};

/// Run saved filter sets for their new matches only, and print those.
#[derive(Debug, Clone, clap::Args)]
pub struct WatchArgs {
    /// Saved filter sets: names (`filters/NAME.json` in the config directory) or files.
    #[arg(required = true)]
    pub sets: Vec<PathBuf>,
    /// List the sets' recorded runs (when, new, paid again, cost) instead of running them.
    #[arg(long)]
    pub history: bool,
    /// Most results each tab's run may buy (default: what --max-credits, else the config's
    /// `confirm_above`, pays for).
    #[arg(long)]
    pub limit: Option<u64>,
    /// Most owned keys sent as excludes (default and most: 10,000); owned results past it
    /// come back, are paid again, and are left out of the output.
    #[arg(long)]
    pub exclude_cap: Option<u64>,
    /// POST a JSON digest of each run with news to this URL (config `watch_notify_url`):
    /// the set, counts, cost, the first rows and a `text` line; retried with backoff.
    #[arg(long)]
    pub notify: Option<String>,
    #[command(flatten)]
    pub spend: SpendArgs,
    #[command(flatten)]
    pub out: OutArgs,
}

/// One set to watch: its name and what it holds.
struct Watched {
    name: String,
    set: prospect_core::filter_set::FilterSet,
}

/// Runs `prospect watch`. Every set is read before anything is sent (a set that does not
/// read is exit 2, nothing spent); then each set's tabs run in turn, new rows written as
/// they are kept, and a digest posted for a set with news. The first failing run ends the
/// command with its exit code (what it bought is kept; the same command run again buys only
/// what is still new). Errors: as `search`'s; a notify URL that does not read (exit 2); a
/// digest not delivered after every attempt (exit 9, the rows were written).
pub(crate) async fn watch(ctx: &Ctx, a: WatchArgs) -> CliResult {
    let notify = match a.notify.clone().or_else(|| ctx.settings.watch_notify_url()) {
        Some(u) => Some(prospect_core::watch::check_notify_url(&u).map_err(CliError::usage)?),
        None => None,
    };
    let mut sets = Vec::new();
    for s in &a.sets {
        let (name, path) = set_file(ctx, s)?;
        let set =
            prospect_core::filter_set::load(&path).map_err(|e| CliError::usage(e.to_string()))?;
        sets.push(Watched { name, set });
    }
    let format = Format::resolve(a.out.format, &a.out.out);
    // A dry run prints plans only.
    let mut w = match a.spend.dry_run {
        true => None,
        false => Some(Writer::<SetRow>::new(format, a.out.out.as_ref())?),
    };
    let mut failed: Option<CliError> = None;
    for watched in &sets {
        let (tabs, rows, err) = watch_set(ctx, &a, watched, &mut w).await;
        if let (Some(url), true) = (&notify, tabs.iter().any(|t| t.new > 0)) {
            let digest = Digest::new(&watched.name, chrono::Utc::now(), tabs, rows);
            if let Err(e) = prospect_core::watch::notify(url, &digest, &ctx.stop).await {
                failed.get_or_insert(CliError {
                    code: ExitCode::Network,
                    message: format!("set {}: the digest was not delivered: {e}", watched.name),
                });
            }
        }
        if let Some(e) = err {
            failed = Some(e);
            break;
        }
    }
    if let Some(w) = w {
        w.finish()?;
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Runs each tab of one set new-only: its new rows written to `w`, what each tab found, the
/// rows for a digest, and the first error.
async fn watch_set(
    ctx: &Ctx,
    a: &WatchArgs,
    watched: &Watched,
    w: &mut Option<Writer<SetRow>>,
) -> (Vec<TabRun>, Vec<SetRow>, Option<CliError>) {
    let mut tabs = Vec::new();
    let mut rows = Vec::new();
    for (endpoint, body) in watched.set.searches() {
        let tab = engine::subject_name(endpoint);
        let action = match tab_action(ctx, a, &watched.name, endpoint, body) {
            Ok(action) => action,
            Err(e) => return (tabs, rows, Some(e)),
        };
        let plan = match ctx.plan(&action, &a.spend, &a.out).await {
            Ok(Some(plan)) => plan,
            Ok(None) => continue,
            Err(e) => return (tabs, rows, Some(e)),
        };
        let Some(w) = w.as_mut() else { continue };
        let plan = JobOptions::of(&a.spend, &a.out, None).kept_in(&plan);
        let pb = ctx.progress(plan.asked, "new");
        let ran = engine::run(
            ctx.session(),
            &action,
            &plan,
            Freshness::Refresh,
            &ctx.stop,
            |event| {
                let engine::Event::Page(page) = event else {
                    return Ok(());
                };
                pb.inc(page.take as u64);
                for row in set_rows(&watched.name, tab, *page) {
                    if rows.len() < prospect_core::watch::DIGEST_ROWS {
                        rows.push(row.clone());
                    }
                    w.write(&row)?;
                }
                Ok(())
            },
        )
        .await;
        pb.finish_and_clear();
        let set = ran.report.set.clone().unwrap_or_default();
        tabs.push(TabRun {
            tab,
            new: set.new,
            paid_again: set.paid_again,
            excluded: set.new_only.as_ref().map_or(0, |n| n.excluded),
            credits_used: ran.report.charged.standard,
        });
        if let Err(e) = ctx.settle(ran.report, ran.job) {
            return (tabs, rows, Some(e));
        }
    }
    (tabs, rows, None)
}

/// The new-only search of one tab of a set: its body without paging members, at most `limit`
/// results (else what `--max-credits`, or `confirm_above`, pays for at the search's price).
fn tab_action(
    ctx: &Ctx,
    a: &WatchArgs,
    name: &str,
    endpoint: Endpoint,
    body: &Value,
) -> CliResult<Action> {
    engine::check_paging(body).map_err(|m| CliError {
        code: ExitCode::Validation,
        message: format!("set {name}: {m}"),
    })?;
    let limit = match a.limit {
        Some(0) => return Err(CliError::usage("--limit must be at least 1")),
        Some(l) => l,
        None => {
            let cap = a
                .spend
                .max_credits
                .unwrap_or_else(|| ctx.settings.confirm_above());
            engine::affordable_results(endpoint, body, cap)
        }
    };
    let set = SetSearch {
        name: name.to_string(),
        new_only: true,
        exclude_cap: a.exclude_cap,
        run_at: None,
    };
    Ok(Action::search(endpoint, body, limit, Some(set)))
}

/// The rows of a page handed on (its first `take` records), with the set's name.
fn set_rows(set: &str, tab: &'static str, page: engine::SearchRecords) -> Vec<SetRow> {
    let row = |record| SetRow {
        set: set.to_string(),
        tab,
        record,
    };
    match tab {
        "people" => people_of(page.response)
            .into_iter()
            .take(page.take)
            .map(|p| row(SetRecord::Person(Box::new(p))))
            .collect(),
        _ => companies_of(page.response)
            .into_iter()
            .take(page.take)
            .map(|c| row(SetRecord::Company(Box::new(c))))
            .collect(),
    }
}

/// `prospect watch --history SET…`: the sets' recorded runs, newest first.
pub(crate) fn watch_history(ctx: &Ctx, a: &WatchArgs) -> CliResult {
    let (store, _) = open_store(ctx)?;
    let mut w = Writer::<SetRunOut>::new(
        Format::resolve(a.out.format, &a.out.out),
        a.out.out.as_ref(),
    )?;
    for s in &a.sets {
        let name = match set_file(ctx, s) {
            Ok((name, _)) => name,
            // A set deleted since keeps its history under its name.
            Err(_) => s.to_string_lossy().to_string(),
        };
        for run in store.set_runs(&name, a.limit.unwrap_or(50) as usize)? {
            w.write(&SetRunOut::from(run))?;
        }
    }
    w.finish()?;
    Ok(())
}
