//! The headless CLI: `prospect <command> [options]`, a second thin front end over `core` for
//! scripts and cron. Every paid result goes through the session, so it is stored exactly as
//! in the explorer and never bought twice.
//!
//! - **Output**: records to stdout or `--out FILE` (atomic) as `--format jsonl|csv|json|table`
//!   (a table on a terminal, JSON Lines otherwise). Notices and progress go to stderr, only on
//!   a terminal; `--quiet` silences them.
//! - **Cost**: every paid command states its estimate per pool. Above `--max-credits` (default:
//!   config `confirm_above`) in any pool it asks on a terminal and refuses otherwise
//!   ([`ExitCode::SpendRefused`]): a cron job never overspends.
//! - **Errors**: one line on stderr, `prospect: …`, and an [`ExitCode`] per class; details go
//!   to the log, never a backtrace.
//!
//! The layout (issue 35, "the CLI as commands"): this file runs a command (signals, the
//! context, the dispatch, the exit codes); `args.rs` is the command line's shape, `ctx.rs`
//! what a command runs with (the plan gate, `--out` checks, a run's exit), `out.rs` the
//! writers, and `commands/` one file per command with its work (and, for `search`, `lookup`,
//! `reveal`, `resume` and `curl`, its arguments).
#![deny(unsafe_code)]

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use serde_json::Value;

use prospect_api::client::{Endpoint, Enriched, SearchSubject};
use prospect_api::cost::Cost;
use prospect_api::error::ApiError;
use prospect_api::types::*;
use prospect_common::ContactKind;
use prospect_core::config::{Settings, Target};
use prospect_core::engine::{
    self, Action, KeyColumn, KeySource, Plan, PlanError, RunError, RunReport, SetSearch,
};
use prospect_core::export::{
    CompanyOut, ContactOut, Format, LookupOut, Pair, RowForm, Tabular, Writer, companies_of,
    people_of,
};
use prospect_core::owned::JobId;
use prospect_core::owned::ListKind;
use prospect_core::session::{Freshness, Session};
use prospect_core::spend;

mod args;
mod commands;
mod ctx;
mod out;

pub use args::*;
use commands::*;
pub use commands::{CurlArgs, LookupArgs, ResumeArgs, RevealArgs, SearchArgs, WatchArgs};
use ctx::*;
use out::*;

/// The exit codes of every command (documented in README.md "Scripting").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum ExitCode {
    /// Success.
    Ok = 0,
    /// Anything not listed below (an internal error; see the log).
    Other = 1,
    /// Bad command line or input file (usage).
    Usage = 2,
    /// The token is missing, unknown, or the plan cannot use the endpoint (403, 400 plan).
    Auth = 3,
    /// Not enough credits (402).
    Credits = 4,
    /// The estimate is above `--max-credits` and nobody confirmed it: nothing was sent.
    SpendRefused = 5,
    /// Rate limited (429), per minute or the daily allowance.
    RateLimited = 6,
    /// Nothing matched (404).
    NotFound = 7,
    /// The request was refused as invalid, by the client before sending or by the service (422).
    Validation = 8,
    /// The network or the service failed (timeouts, 5xx, unreadable answers). A paid request
    /// that may have been charged is not resent: run the same command again, and what was
    /// kept is not bought again.
    Network = 9,
    /// A paid answer did not read whole: what read was written and stored, the raw answer is
    /// kept in the store, and the message names the field that failed.
    Partial = 10,
    /// The store could not write a paid answer (busy, disk full, read-only): it is in the
    /// recovery file the message names, imported at the next start. Nothing was lost.
    Recovery = 11,
    /// Stopped by Ctrl-C (SIGINT) after the paid calls in flight were kept; the same command
    /// run again buys only the rest.
    Interrupted = 130,
    /// Stopped by SIGTERM, as [`ExitCode::Interrupted`].
    Terminated = 143,
}

/// A command's failure: the one line to print and its exit code.
#[derive(Debug)]
pub struct CliError {
    /// The exit code.
    pub code: ExitCode,
    /// One line naming what was wrong.
    pub message: String,
}

impl CliError {
    /// A usage error (exit 2).
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError {
            code: ExitCode::Usage,
            message: message.into(),
        }
    }
    fn other(message: impl Into<String>) -> CliError {
        CliError {
            code: ExitCode::Other,
            message: message.into(),
        }
    }
}

impl From<ApiError> for CliError {
    fn from(e: ApiError) -> CliError {
        tracing::warn!(error = %e, "command failed");
        let code = match &e {
            ApiError::MissingToken
            | ApiError::UnknownToken
            | ApiError::ConflictingTokens
            | ApiError::PlanNotSupported => ExitCode::Auth,
            ApiError::InsufficientCredits { .. } | ApiError::VerificationsInProgress { .. } => {
                ExitCode::Credits
            }
            ApiError::RateLimited { .. } => ExitCode::RateLimited,
            ApiError::NotFound { .. } => ExitCode::NotFound,
            ApiError::Validation { .. }
            | ApiError::Invalid(_)
            | ApiError::EmptyBody
            | ApiError::EmptyPersonBody
            | ApiError::SegmentationNotReady => ExitCode::Validation,
            ApiError::Server { .. }
            | ApiError::Timeout
            | ApiError::Network(_)
            | ApiError::Unexpected { .. }
            | ApiError::Redirected { .. } => ExitCode::Network,
            ApiError::Config(_) => ExitCode::Usage,
            ApiError::Refused(_) => ExitCode::SpendRefused,
            // A 2xx answer that did not read (issue 34): its raw bytes are kept.
            ApiError::Decode { .. } => ExitCode::Partial,
        };
        CliError {
            code,
            message: e.user_message(),
        }
    }
}

impl From<prospect_core::owned::OwnedError> for CliError {
    fn from(e: prospect_core::owned::OwnedError) -> CliError {
        match e {
            prospect_core::owned::OwnedError::Invalid(m) => CliError::usage(m),
            other => CliError::other(other.to_string()),
        }
    }
}

impl From<std::io::Error> for CliError {
    /// A write that failed; a reader that went away (`| head`, a broken pipe) is not a failure
    /// of the command: it ends quietly, exit 0 (issue 38), as a paid run's output does.
    fn from(e: std::io::Error) -> CliError {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return CliError {
                code: ExitCode::Ok,
                message: String::new(),
            };
        }
        CliError::other(format!("writing the output: {e}"))
    }
}

type CliResult<T = ()> = Result<T, CliError>;

/// How a front end gets a service: the real one from settings, or the embedded sandbox
/// (started by the caller, `main.rs`).
/// It is given the data directory, where the sandbox keeps what outlives one command.
pub type StartSandbox =
    fn(
        Option<PathBuf>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = anyhow::Result<Target>> + Send>>;

/// Runs one command; returns its exit code after printing any error as one line.
///
/// A paid command stops on the first SIGINT or SIGTERM: nothing new is sent, the paid calls in
/// flight are awaited and kept, and it exits 130 (143 for SIGTERM) saying how to buy the rest;
/// a second Ctrl-C exits at once. Other commands exit at once on a signal.
pub async fn run(
    cmd: Command,
    flags: CliFlags,
    settings: Settings,
    start_sandbox: StartSandbox,
) -> ExitCode {
    let _guard = settings.init_logging();
    let stop = CancellationToken::new();
    let signal = Arc::new(AtomicI32::new(0));
    watch_signals(cmd.is_paid(), flags.quiet, stop.clone(), signal.clone());
    match run_inner(cmd, flags, settings, start_sandbox, stop, signal).await {
        Ok(()) => ExitCode::Ok,
        Err(e) => {
            tracing::error!(code = ?e.code, message = %e.message, "command failed");
            if !e.message.is_empty() {
                eprintln!(
                    "prospect: {}",
                    prospect_common::sanitize::sanitize(&e.message)
                );
            }
            e.code
        }
    }
}

/// SIGINT / SIGTERM: a paid command stops gracefully on the first (see [`run`]) and at once on
/// a second; any other command at once.
fn watch_signals(paid: bool, quiet: bool, stop: CancellationToken, signal: Arc<AtomicI32>) {
    #[cfg(unix)]
    tokio::spawn(async move {
        use tokio::signal::unix::{SignalKind, signal as listen};
        let (Ok(mut int), Ok(mut term)) = (
            listen(SignalKind::interrupt()),
            listen(SignalKind::terminate()),
        ) else {
            return;
        };
        loop {
            let n = tokio::select! {
                _ = int.recv() => 2,
                _ = term.recv() => 15,
            };
            if !paid || stop.is_cancelled() {
                if paid {
                    eprintln!(
                        "prospect: stopped at once; answers still in flight may be lost. Run the \
                         same command again (what was kept is not bought again); `prospect jobs` \
                         lists what is left"
                    );
                }
                std::process::exit(128 + n);
            }
            signal.store(n, Ordering::SeqCst);
            stop.cancel();
            if !quiet {
                eprintln!(
                    "prospect: stopping: keeping the paid calls in flight (Ctrl-C again quits at once)"
                );
            }
        }
    });
    #[cfg(not(unix))]
    let _ = (paid, quiet, stop, signal);
}

async fn run_inner(
    cmd: Command,
    flags: CliFlags,
    settings: Settings,
    start_sandbox: StartSandbox,
    stop: CancellationToken,
    signal: Arc<AtomicI32>,
) -> CliResult {
    let ctx = open_ctx(&cmd, flags, settings, start_sandbox, stop, signal).await?;
    dispatch(ctx, cmd).await
}

/// The context `cmd` runs in: the target (the embedded sandbox, started, when no token is set
/// and the command needs the service), and the session of a command that needs the service,
/// its client's waits ending on the first signal and per-minute 429s waited out (issue 34).
///
/// Errors: settings that do not name a target (exit 2), a sandbox that does not start (exit
/// 1), a session that cannot open (exit 2).
async fn open_ctx(
    cmd: &Command,
    flags: CliFlags,
    settings: Settings,
    start_sandbox: StartSandbox,
    stop: CancellationToken,
    signal: Arc<AtomicI32>,
) -> CliResult<Ctx> {
    let mut ctx = Ctx {
        settings,
        session: None,
        target: None,
        quiet: flags.quiet,
        stop,
        signal,
        held_out: std::sync::Mutex::new(None),
    };
    if cmd.needs_service() || !matches!(cmd, Command::Curl { .. }) {
        let target = match ctx
            .settings
            .target()
            .map_err(|e| CliError::usage(e.to_string()))?
        {
            Some(t) => t,
            None if cmd.needs_service() => {
                if !ctx.quiet {
                    eprintln!("prospect: no API token set; using the embedded SANDBOX");
                }
                start_sandbox(ctx.settings.data_dir())
                    .await
                    .map_err(|e| CliError::other(format!("the sandbox did not start: {e}")))?
            }
            // The store of the embedded sandbox, without starting it.
            None => Target {
                base_url: String::new(),
                token: String::new(),
                sandbox: true,
            },
        };
        if cmd.needs_service() {
            // Waits end on the first signal; a per-minute 429 is waited out (shown on stderr).
            let options = prospect_api::client::ClientOptions {
                stop: ctx.stop.clone(),
                max_retry_after: prospect_api::pace::PER_MINUTE_RETRY_MAX,
                ..Default::default()
            };
            let session = Session::open_with(&ctx.settings, &target, options)
                .map_err(|e| CliError::usage(e.to_string()))?;
            // Said at start, even with --quiet: every paid command is refused (exit 5).
            if let Some(why) = session.unreachable() {
                eprintln!("prospect: {why}");
            }
            // Said even without a terminal (a cron job's mail): no wait is silent (issue 34).
            if !ctx.quiet {
                say_rate_waits(session.client().clone());
            }
            ctx.session = Some(session);
        }
        ctx.target = Some(target);
    }
    Ok(ctx)
}

/// Runs `cmd` in `ctx`: each command's own file does its work.
async fn dispatch(ctx: Ctx, cmd: Command) -> CliResult {
    match cmd {
        Command::Search(a) => search(&ctx, a).await,
        Command::Watch(a) if a.history => watch_history(&ctx, &a),
        Command::Watch(a) => watch(&ctx, a).await,
        Command::Autocomplete {
            kind,
            text,
            spend,
            out,
        } => autocomplete(&ctx, kind, &text, &spend, &out).await,
        Command::Segment(cmd) => segment(&ctx, cmd).await,
        Command::Enrich(EnrichCmd::Companies(b)) => {
            let keys = batch_keys(&ctx, &b, ListKind::Accounts)?;
            let action = Action::EnrichCompanies { keys };
            enrich_companies(&ctx, action, b.wait, &b.spend, &b.out).await
        }
        Command::Enrich(EnrichCmd::People(b)) => {
            let keys = batch_keys(&ctx, &b, ListKind::Contacts)?;
            let action = Action::EnrichPeople { keys };
            enrich_people(&ctx, action, b.wait, &b.spend, &b.out).await
        }
        Command::Enrich(e) => {
            let (action, spend, out) = enrich_action(e)?;
            run_action(&ctx, action, &spend, &out).await
        }
        Command::Lookup(a) => lookup(&ctx, a).await,
        Command::Reveal(a) => reveal_command(&ctx, a).await,
        Command::Warmup { domains, out } => {
            let r = ctx
                .session()
                .warmup(&WarmupCompaniesRequest { domains })
                .await?;
            let v = serde_json::to_value(&r).unwrap_or(Value::Null);
            write_pairs(&out, v)
        }
        Command::Credits { out } => {
            let b = ctx.session().balance().await?;
            let v = serde_json::to_value(&b).unwrap_or(Value::Null);
            write_pairs(&out, v)
        }
        Command::DataFields { out } => {
            let d = ctx.session().data_fields().await?;
            let format = Format::resolve(out.format, &out.out);
            let v = serde_json::to_value(&d).unwrap_or(Value::Null);
            if matches!(format, Format::Json | Format::Jsonl) {
                write_raw(&out, &v)
            } else {
                write_pairs(&out, v)
            }
        }
        Command::History {
            action: Some(HistoryAction::Show),
            id,
            out,
            ..
        } => stored_search(&ctx, id, "history show", &out),
        Command::History {
            limit,
            spend,
            user,
            out,
            ..
        } => history(&ctx, limit, spend, user.as_deref(), &out),
        Command::Export {
            kind: ExportKind::Search,
            id,
            out,
            ..
        } => stored_search(&ctx, id, "export search", &out),
        Command::Export { kind, out, crm, .. } => export(&ctx, kind, &out, &crm),
        Command::Jobs { all, limit, out } => jobs(&ctx, all, limit, &out),
        Command::Suppress(cmd) => suppress(&ctx, cmd),
        Command::List(cmd) => list(&ctx, cmd),
        Command::Store(cmd) => store_cmd(&ctx, cmd),
        Command::Resume(a) => resume(&ctx, a).await,
        Command::Curl(a) => curl(&ctx, a),
    }
}

fn freshness(spend: &SpendArgs) -> Freshness {
    if spend.refresh {
        Freshness::Refresh
    } else {
        Freshness::Stored
    }
}
