//! The explorer: filters with live autocomplete, paged results, record details and a credit
//! gauge (issue 4). One state owner ([`app::App`]), one message enum ([`msg::Msg`]), one loop
//! ([`runner::run_loop`]) that never awaits the network; see `../shared/DESIGN.md`.
use std::path::PathBuf;
use std::sync::Arc;

pub mod app;
pub mod backend;
pub mod config;
pub mod filter_sets;
pub mod keymap;
pub mod msg;
pub mod records;
pub mod runner;
pub mod schema;
pub mod terminal;
pub mod view;

/// Top-level options of `prospect` (the explorer).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TuiArgs {
    /// API token of the real service; without one prospect explores its embedded sandbox.
    #[arg(long, env = "PROSPECT_API_TOKEN", hide_env_values = true)]
    pub api_token: Option<String>,
    /// Base URL of the service, e.g. `https://api.example.com`.
    #[arg(long, env = "PROSPECT_BASE_URL")]
    pub base_url: Option<String>,
    /// Open with this saved filter set (a JSON file).
    #[arg(long)]
    pub filters: Option<PathBuf>,
    /// Config file (default: `config.toml` in the user's config directory).
    #[arg(long)]
    pub config: Option<PathBuf>,
}

/// Which service the explorer talks to.
#[derive(Clone)]
pub struct Target {
    /// Base URL, e.g. `http://127.0.0.1:40123`.
    pub base_url: String,
    /// API token; never printed.
    pub token: String,
    /// `true` for the embedded sandbox (the header shows SANDBOX).
    pub sandbox: bool,
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Target")
            .field("base_url", &self.base_url)
            .field("token", &"<redacted>")
            .field("sandbox", &self.sandbox)
            .finish()
    }
}

fn load_config(
    args: &TuiArgs,
) -> anyhow::Result<(config::Config, Option<String>, Option<config::Dirs>)> {
    let dirs = config::Dirs::user().ok();
    let (path, create) = match (&args.config, &dirs) {
        (Some(p), _) => (p.clone(), false),
        (None, Some(d)) => (d.config_file(), true),
        (None, None) => return Ok((config::Config::default(), None, None)),
    };
    let (cfg, warning) = config::load(&path, create)?;
    Ok((cfg, warning, dirs))
}

/// The real service to explore, from `--api-token`/`PROSPECT_API_TOKEN`/config `api_token`
/// and `--base-url`/`PROSPECT_BASE_URL`/config `base_url`; `None` when no token is configured
/// (then the caller starts the sandbox). Errors: a config file that does not parse (with line
/// and column), or a token without a base URL.
pub fn resolve_target(args: &TuiArgs) -> anyhow::Result<Option<Target>> {
    let (cfg, _, _) = load_config(args)?;
    let token = args
        .api_token
        .clone()
        .filter(|t| !t.is_empty())
        .or(cfg.api_token.clone().filter(|t| !t.is_empty()));
    let Some(token) = token else { return Ok(None) };
    let base_url = args.base_url.clone().or(cfg.base_url.clone()).filter(|u| !u.is_empty()).ok_or_else(|| {
        anyhow::anyhow!("an API token is set but no base URL: pass --base-url (or PROSPECT_BASE_URL, or base_url in config.toml)")
    })?;
    Ok(Some(Target {
        base_url,
        token,
        sandbox: false,
    }))
}

/// Sends `tracing` output to `prospect.log` in the user's state directory (never the
/// terminal). Level from `PROSPECT_LOG` (default `info`). Returns the guard to keep alive.
fn init_logging(
    dirs: Option<&config::Dirs>,
) -> Option<tracing_appender::non_blocking::WorkerGuard> {
    let dirs = dirs?;
    config::create_dir_private(&dirs.state_dir).ok()?;
    let appender = tracing_appender::rolling::never(&dirs.state_dir, "prospect.log");
    let (writer, guard) = tracing_appender::non_blocking(appender);
    let filter = tracing_subscriber::EnvFilter::try_from_env("PROSPECT_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(false)
        .try_init()
        .ok()?;
    Some(guard)
}

struct RealHooks;

impl runner::Hooks<ratatui::backend::CrosstermBackend<std::io::Stdout>> for RealHooks {
    fn suspend(&mut self, terminal: &mut ratatui::DefaultTerminal) -> std::io::Result<()> {
        terminal::suspend(terminal)
    }
}

/// Runs the explorer until the user quits; the terminal is restored on every exit path
/// (quit, error, panic, Ctrl-C, SIGTERM/SIGHUP).
pub async fn run(args: TuiArgs, target: Target) -> anyhow::Result<()> {
    let (cfg, warning, dirs) = load_config(&args)?;
    let _guard = init_logging(dirs.as_ref());
    tracing::info!(base_url = %target.base_url, sandbox = target.sandbox, "starting explorer");
    let (keymap, key_warnings) =
        keymap::Keymap::with_overrides(&cfg.keys).map_err(|e| anyhow::anyhow!(e))?;
    let backend: Arc<dyn backend::Backend> = Arc::new(backend::ClientBackend::new(&target)?);
    let filters_dir = dirs
        .as_ref()
        .map(|d| d.filters_dir())
        .unwrap_or_else(|| PathBuf::from("filters"));
    let mut app = app::App::new(app::AppOptions {
        base_url: target.base_url.clone(),
        sandbox: target.sandbox,
        keymap,
        confirm_above: cfg.confirm_above(),
        filters_dir,
    });
    let mut initial = app.start();
    if let Some(w) = warning.into_iter().chain(key_warnings).next() {
        tracing::warn!("{w}");
        app.status = Some(app::Status {
            text: w,
            kind: app::StatusKind::Error,
        });
    }
    if let Some(p) = &args.filters {
        app.open_file(p);
    }
    let mut term =
        terminal::init().map_err(|e| anyhow::anyhow!("cannot use this terminal: {e}"))?;
    let events = crossterm::event::EventStream::new();
    let result = runner::run_loop(
        &mut term,
        &mut app,
        backend,
        events,
        std::mem::take(&mut initial),
        &mut RealHooks,
    )
    .await;
    terminal::restore();
    if let Err(e) = &result {
        tracing::error!(error = %e, "explorer stopped");
    }
    result
}
