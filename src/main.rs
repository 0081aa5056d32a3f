//! The `prospect` binary: the explorer by default; the headless commands (`prospect search …`,
//! see `prospect::cli`); `prospect serve` for the sandbox alone; `prospect build-assets` to
//! rebuild the sandbox dataset from `../shared/data`.
//!
//! Errors are one line on stderr (`prospect: …`) and an exit code (`prospect::cli::ExitCode`),
//! never a backtrace, whatever `RUST_BACKTRACE` says; details go to the log.
use clap::{Parser, Subcommand};

/// The process allocator, mimalloc; its policies are `prospect::common::alloc`'s.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A keyboard-driven terminal explorer for a B2B company and people data API.
///
/// Without an API token it starts its embedded sandbox (real companies, synthetic people) on
/// 127.0.0.1 and explores that.
#[derive(Debug, Parser)]
#[command(name = "prospect", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    tui: prospect::tui::TuiArgs,
    #[command(flatten)]
    flags: prospect::cli::CliFlags,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the sandbox service alone, for any HTTP client.
    Serve(prospect::sandbox::service::ServeArgs),
    /// Rebuild assets/dataset.postcard.zst from the raw public data.
    BuildAssets(prospect::sandbox::dataset::build::BuildArgs),
    /// Serve prospect's tools to an AI agent over MCP (stdio): search, lookup, enrich and
    /// reveal through the same plans, claims, budgets and store, never past --max-credits.
    Mcp(prospect::mcp::McpArgs),
    #[command(flatten)]
    Headless(prospect::cli::Command),
}

/// The embedded sandbox for a CLI command: its dataset loads only if a request needs the whole
/// of it (a lookup of a few known companies does not).
fn start_sandbox(
    state_dir: Option<std::path::PathBuf>,
) -> std::pin::Pin<
    Box<dyn std::future::Future<Output = anyhow::Result<prospect::core::config::Target>> + Send>,
> {
    Box::pin(start_embedded(state_dir, false))
}

/// Starts the embedded sandbox; `load_now` starts indexing its whole dataset at once (the
/// explorer, which searches at once), otherwise the first request that needs it does.
async fn start_embedded(
    state_dir: Option<std::path::PathBuf>,
    load_now: bool,
) -> anyhow::Result<prospect::core::config::Target> {
    let sb = prospect::sandbox::service::start_embedded(state_dir).await?;
    if load_now {
        sb.source.start()?;
    }
    Ok(prospect::core::config::Target {
        base_url: sb.base_url,
        token: sb.token,
        sandbox: true,
    })
}

/// One line for an error: the message and its causes, sanitized.
fn one_line(e: &anyhow::Error) -> String {
    prospect::common::sanitize::sanitize(&format!("{e:#}"))
}

fn main() -> std::process::ExitCode {
    // A panic is a bug: say so in one line (the explorer restores the terminal first through
    // its own hook, installed later and chained before this one).
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        tracing::error!("panic{at}: {msg}");
        eprintln!("prospect: internal error{at}: {msg}");
    }));
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // --help and --version print to stdout and succeed; usage errors exit 2.
            let _ = e.print();
            return std::process::ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    prospect::common::alloc::init();
    let rt = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("prospect: cannot start the async runtime: {e}");
            return std::process::ExitCode::from(1);
        }
    };
    let code = rt.block_on(async_main(cli));
    // What is left (a wait, a blocking read of a terminal that is gone) never keeps the process
    // alive: every paid answer was kept before `async_main` returned (issue 34).
    rt.shutdown_timeout(std::time::Duration::from_secs(2));
    code
}

async fn async_main(cli: Cli) -> std::process::ExitCode {
    let fail = |code: u8, e: anyhow::Error| {
        eprintln!("prospect: {}", one_line(&e));
        std::process::ExitCode::from(code)
    };
    let settings = match prospect::core::config::Settings::load(&cli.tui.connect) {
        Ok(s) => s,
        Err(e) => return fail(2, e),
    };
    match cli.command {
        Some(Command::Serve(args)) => {
            match prospect::sandbox::service::serve(args, cli.flags.quiet).await {
                Ok(()) => std::process::ExitCode::SUCCESS,
                Err(e) => fail(1, e),
            }
        }
        Some(Command::BuildAssets(args)) => {
            match tokio::task::spawn_blocking(move || prospect::sandbox::dataset::build::run(args))
                .await
                .map_err(anyhow::Error::from)
                .and_then(|r| r)
            {
                Ok(()) => std::process::ExitCode::SUCCESS,
                Err(e) => fail(1, e),
            }
        }
        Some(Command::Mcp(args)) => {
            match prospect::mcp::serve(args, settings, start_sandbox).await {
                Ok(()) => std::process::ExitCode::SUCCESS,
                Err(e) => fail(1, e),
            }
        }
        Some(Command::Headless(cmd)) => {
            let code = prospect::cli::run(cmd, cli.flags, settings, start_sandbox).await;
            std::process::ExitCode::from(code as u8)
        }
        None => {
            use std::io::IsTerminal;
            if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
                eprintln!(
                    "prospect: the explorer needs a terminal (stdin and stdout); for scripts use \
                     the commands, e.g. `prospect search companies --limit 10` (see --help)"
                );
                return std::process::ExitCode::from(2);
            }
            let run = match settings.target() {
                Ok(Some(t)) => prospect::tui::run(cli.tui, settings, t).await,
                // The first screen is drawn at once; the sandbox loads behind it.
                Ok(None) => {
                    let state = settings.data_dir();
                    prospect::tui::run_pending(
                        cli.tui,
                        settings,
                        Box::pin(start_embedded(state, true)),
                    )
                    .await
                }
                Err(e) => return fail(2, e),
            };
            match run {
                Ok(ended) => {
                    // The terminal is back: what the explorer could not say on screen.
                    if let Some(notice) = ended.notice() {
                        eprintln!("prospect: {notice}");
                    }
                    std::process::ExitCode::SUCCESS
                }
                Err(e) => fail(1, e),
            }
        }
    }
}
