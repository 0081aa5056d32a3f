//! The explorer: filters with live autocomplete, paged results, record details, a credit
//! gauge and the search history (issue 4; "One core for every front end, and a durable
//! store"): every call goes through `core::session::Session`, so paid answers are stored. One state owner ([`app::App`]), one message enum ([`msg::Msg`]), one loop
//! ([`runner::run_loop`]) that never awaits the network; see `../shared/DESIGN.md`.
use std::path::PathBuf;
use std::sync::Arc;

use crate::core::config::Settings;

pub mod actions;
pub mod app;
pub mod backend;
pub mod clipboard;
pub mod components;
pub mod keymap;
pub mod msg;
pub mod records;
pub mod runner;
pub mod schema;
pub mod terminal;
pub mod view;

pub use crate::core::config::Target;

/// Top-level options of `prospect` (the explorer).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TuiArgs {
    /// Service, config and store options shared with the other commands.
    #[command(flatten)]
    pub connect: crate::core::config::ConnectArgs,
    /// Open with this saved filter set (a JSON file).
    #[arg(long)]
    pub filters: Option<PathBuf>,
}

struct RealHooks;

impl runner::Hooks<ratatui::backend::CrosstermBackend<std::io::Stdout>> for RealHooks {
    fn suspend(&mut self, terminal: &mut ratatui::DefaultTerminal) -> std::io::Result<()> {
        terminal::suspend(terminal)
    }
}

/// Runs the explorer until the user quits; the terminal is restored on every exit path
/// (quit, error, panic, Ctrl-C, SIGTERM/SIGHUP).
pub async fn run(args: TuiArgs, settings: Settings, target: Target) -> anyhow::Result<()> {
    let cfg = &settings.config;
    let warning = settings.warning.clone();
    let _guard = settings.init_logging();
    tracing::info!(base_url = %target.base_url, sandbox = target.sandbox, "starting explorer");
    let (keymap, key_warnings) =
        keymap::Keymap::with_overrides(&cfg.keys).map_err(|e| anyhow::anyhow!(e))?;
    // Every call goes through the session, which stores each paid answer before it returns;
    // the embedded sandbox has its own store file.
    let session = crate::core::session::Session::open(&settings, &target)?;
    // The webhook receiver starts with the explorer: loopback on the embedded sandbox, the
    // configured address for the real service; without one, reveals say why and spend nothing.
    let receiver = match crate::core::webhooks::receiver_config(&settings, &target) {
        Ok(cfg) => crate::core::webhooks::Receiver::start(cfg, session.clone())
            .await
            .map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    let reveals_disabled = receiver.as_ref().err().cloned();
    if let Some(why) = &reveals_disabled {
        tracing::warn!("{why}");
    }
    let backend: Arc<dyn backend::Backend> =
        Arc::new(backend::SessionBackend::new(session).with_receiver(receiver));
    let filters_dir = settings.filters_dir();
    let mut app = app::App::new(app::AppOptions {
        base_url: target.base_url.clone(),
        sandbox: target.sandbox,
        keymap,
        confirm_above: cfg.confirm_above(),
        filters_dir,
    });
    app.reveals_disabled = reveals_disabled;
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
