//! What a command runs with: the settings, the session, the stop token and the signal that
//! ended it; the plan gate (`--dry-run`, refusals, `--max-credits`), `--out` checks, and how a
//! run's report becomes an exit code.

use super::*;

pub(crate) struct Ctx {
    pub(crate) settings: Settings,
    pub(crate) session: Option<Session>,
    pub(crate) target: Option<Target>,
    pub(crate) quiet: bool,
    /// Cancelled on the first SIGINT / SIGTERM: no new paid request starts, those in flight
    /// are awaited and kept.
    pub(crate) stop: CancellationToken,
    /// The signal that stopped the command (2 or 15); 0 when none.
    pub(crate) signal: Arc<AtomicI32>,
    /// A FIFO or device `--out`, held open from its check until the command ends.
    pub(crate) held_out: std::sync::Mutex<Option<std::fs::File>>,
}

impl Ctx {
    pub(crate) fn session(&self) -> &Session {
        // Commands that need a service get one in `run` before they start.
        self.session
            .as_ref()
            .expect("session opened for this command")
    }

    pub(crate) fn note(&self, text: &str) {
        if !self.quiet && std::io::stderr().is_terminal() {
            eprintln!("{text}");
        }
    }

    /// The spend gate: states the estimate; above the limit in any pool, asks on a terminal
    /// and refuses otherwise.
    pub(crate) fn confirm(&self, what: &str, est: Cost, spend: &SpendArgs) -> CliResult {
        let limit = spend
            .max_credits
            .unwrap_or_else(|| self.settings.confirm_above());
        let words = spend::describe_estimate(&est);
        let above = spend::pools_above(&est, limit);
        if above.is_empty() {
            self.note(&format!("{what}: estimated {words}"));
            return Ok(());
        }
        let pools = above
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let interactive = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
        if interactive {
            eprint!("{what}: estimated {words}, above {limit} {pools} credits. Spend it? [y/N] ");
            let _ = std::io::stderr().flush();
            let mut answer = String::new();
            let _ = std::io::stdin().lock().read_line(&mut answer);
            if matches!(answer.trim(), "y" | "Y" | "yes") {
                return Ok(());
            }
        }
        Err(CliError {
            code: ExitCode::SpendRefused,
            message: format!(
                "{what}: estimated {words} is above --max-credits {limit} ({pools}); nothing was \
                 sent (raise --max-credits to allow it)"
            ),
        })
    }

    /// Checks `--out` before anything is paid (issue 34): a dangling link, a missing folder or
    /// a folder is a usage error; a FIFO or device is opened here, waiting for its reader
    /// until a signal stops the command (exit 130 / 143, nothing sent), and held open so the
    /// writer's own open does not block.
    pub(crate) async fn check_out(&self, path: &std::path::Path) -> CliResult {
        use prospect_common::fsutil::{Destination, check_destination};
        if check_destination(path).map_err(|e| CliError::usage(e.to_string()))?
            != Destination::Stream
        {
            return Ok(());
        }
        let p = path.to_path_buf();
        let open =
            tokio::task::spawn_blocking(move || std::fs::OpenOptions::new().write(true).open(&p));
        tokio::select! {
            opened = open => {
                let f = opened
                    .map_err(|e| CliError::other(e.to_string()))?
                    .map_err(|e| CliError::usage(format!("{}: {e}", path.display())))?;
                if let Ok(mut g) = self.held_out.lock() {
                    *g = Some(f);
                }
                Ok(())
            }
            _ = self.stop.cancelled() => Err(CliError {
                code: if self.signal.load(Ordering::SeqCst) == 15 {
                    ExitCode::Terminated
                } else {
                    ExitCode::Interrupted
                },
                message: format!(
                    "stopped while {} had no reader; nothing was sent",
                    path.display()
                ),
            }),
        }
    }

    /// Says on stderr that an answer came from the store, and how old it is.
    pub(crate) fn note_stored(&self, stored_at: Option<chrono::DateTime<chrono::Utc>>) {
        if let Some(at) = stored_at {
            self.note(&format!(
                "from the store ({}), 0 credits; --refresh buys it again",
                spend::describe_age(chrono::Utc::now() - at)
            ));
        }
    }

    /// The spend engine's plan of `action`, shown and gated: with `--dry-run` it is printed
    /// (JSON with `--format json`) and `Ok(None)` is returned, nothing paid sent; a plan the
    /// engine refuses (budget, daily allowance) is exit 5; above `--max-credits` it asks on a
    /// terminal and refuses otherwise.
    pub(crate) async fn plan(
        &self,
        action: &Action,
        spend: &SpendArgs,
        out: &OutArgs,
    ) -> CliResult<Option<Plan>> {
        if let Some(path) = &out.out {
            self.check_out(path).await?;
        }
        let plan = engine::plan(self.session(), action, freshness(spend))
            .await
            .map_err(plan_error)?;
        if spend.dry_run {
            let text = if out.format == Some(Format::Json) {
                serde_json::to_string_pretty(&plan).unwrap_or_default() + "\n"
            } else {
                plan.lines().join("\n") + "\n"
            };
            write_text(out, &text)?;
            return Ok(None);
        }
        if let Some(why) = &plan.refusal {
            return Err(CliError {
                code: refusal_code(plan.refusal_cause),
                message: format!("{}: {why}", plan.action),
            });
        }
        if !self.quiet && std::io::stderr().is_terminal() {
            for l in plan.lines() {
                eprintln!("{l}");
            }
        }
        self.confirm(&plan.action, plan.cost, spend)?;
        Ok(Some(plan))
    }

    /// The exit of a run: output closed → quiet success; a recovery file → exit 11 naming it;
    /// a partial answer → exit 10; stopped on a signal → 130 / 143 saying how to resume; the
    /// first error → its code; else a note of what it cost.
    pub(crate) fn settle(&self, report: RunReport, job: Option<JobId>) -> CliResult {
        let job_hint = job
            .map(|j| format!(" (or `prospect resume {j}`)"))
            .unwrap_or_default();
        if let Some(RunError::Output(e)) = &report.error
            && e.kind() == std::io::ErrorKind::BrokenPipe
        {
            return Ok(());
        }
        if !report.recovery.is_empty() || !report.store_errors.is_empty() {
            let files = report
                .recovery
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ");
            return Err(CliError {
                code: ExitCode::Recovery,
                message: match report.recovery.is_empty() {
                    false => format!(
                        "the store could not write {} paid answer(s); they are kept in {files} \
                         and imported at the next start",
                        report.recovery.len()
                    ),
                    true => report.store_errors.join("; "),
                },
            });
        }
        let sig = self.signal.load(Ordering::SeqCst);
        if report.interrupted || sig != 0 {
            return Err(CliError {
                code: if sig == 15 {
                    ExitCode::Terminated
                } else {
                    ExitCode::Interrupted
                },
                message: format!(
                    "stopped: {} bought and kept, {} from the store, charged {}; run the same \
                     command again{job_hint} to buy only the rest",
                    report.bought,
                    report.owned,
                    spend::describe_pools(&report.charged)
                ),
            });
        }
        let unread = if report.unread > 0 {
            format!(
                "; {} key(s) did not read and are not written: the same command run again buys \
                 only them",
                report.unread
            )
        } else {
            String::new()
        };
        if let Some(e) = report.error {
            let kept = if report.bought > 0 {
                format!(
                    " ({} bought before it are kept; the same command run again does not buy them \
                     again)",
                    report.bought
                )
            } else {
                String::new()
            };
            return Err(match e {
                RunError::Api(a) => {
                    let decode = matches!(a, ApiError::Decode { .. });
                    let mut c = CliError::from(a);
                    if decode {
                        c.message
                            .push_str(": the answer did not read; its raw bytes are kept");
                    }
                    c.message.push_str(&kept);
                    c.message.push_str(&unread);
                    c
                }
                RunError::Keys(k) => CliError::usage(k.0),
                RunError::Plan(p) => plan_error(p),
                RunError::Output(o) => CliError::other(format!("writing the output: {o}{kept}")),
                RunError::Store(m) => CliError::other(format!("the store: {m}{kept}")),
            });
        }
        if let Some(first) = report.decode_errors.first() {
            return Err(CliError {
                code: ExitCode::Partial,
                message: format!(
                    "{first} ({} answer(s) read in part; what read was written{unread})",
                    report.decode_errors.len()
                ),
            });
        }
        self.note(&format!(
            "{} records: {} from the store, {} bought in {} requests; charged {}{}",
            report.records,
            report.owned,
            report.bought,
            report.requests,
            spend::describe_pools(&report.charged),
            report
                .suppressed
                .describe()
                .map(|d| format!("; {d}"))
                .unwrap_or_default()
                + &report.set.as_ref().map(set_words).unwrap_or_default()
        ));
        Ok(())
    }

    pub(crate) fn progress(&self, len: u64, what: &str) -> indicatif::ProgressBar {
        if self.quiet || !std::io::stderr().is_terminal() {
            return indicatif::ProgressBar::hidden();
        }
        let pb = indicatif::ProgressBar::new(len);
        pb.set_style(
            indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({eta})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        pb.set_message(what.to_string());
        pb
    }
}

/// `; set de-it: 2 new, excluding 1,086 owned (from 1 earlier run)`: what a set's run found.
pub(crate) fn set_words(r: &engine::SetReport) -> String {
    let mut text = format!("; set {}: {} new", r.name, r.new);
    if r.paid_again > 0 {
        text.push_str(&format!(", {} owned paid again", r.paid_again));
    }
    if let Some(n) = &r.new_only {
        text.push_str(&format!(", {}", n.describe()));
    }
    text
}

/// Says on stderr, once per pause, when the per-minute allowance holds requests back (a 429's
/// `Retry-After`): no wait is silent (issue 34). Runs until the process ends.
pub(crate) fn say_rate_waits(client: prospect_api::client::Client) {
    tokio::spawn(async move {
        let mut said = false;
        loop {
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            match client.pacer().and_then(|p| p.paused_for()) {
                Some(d) if !said && d.as_secs() >= 2 => {
                    said = true;
                    eprintln!(
                        "prospect: rate limited (the per-minute allowance): waiting {} s, then \
                         going on (Ctrl-C stops)",
                        d.as_secs() + 1
                    );
                }
                Some(_) => {}
                None => said = false,
            }
        }
    });
}

/// The exit code of a plan refused for `cause` (issue 34): the used-up daily allowance is 6,
/// a cost over the known balance 4, any other refusal 5.
pub(crate) fn refusal_code(cause: Option<engine::RefusalCause>) -> ExitCode {
    match cause {
        Some(engine::RefusalCause::DailyAllowance) => ExitCode::RateLimited,
        Some(engine::RefusalCause::Credits) => ExitCode::Credits,
        Some(engine::RefusalCause::Spend) | None => ExitCode::SpendRefused,
    }
}

/// A plan error as the CLI reports it: a key list is a usage error (exit 2), a request the
/// service would refuse a validation error (exit 8).
pub(crate) fn plan_error(e: PlanError) -> CliError {
    match e {
        PlanError::Keys(k) => CliError::usage(k.0),
        PlanError::Invalid(a) => CliError::from(a),
        PlanError::Other(m) => CliError {
            code: ExitCode::Validation,
            message: m,
        },
    }
}
