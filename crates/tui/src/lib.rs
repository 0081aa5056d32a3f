//! The explorer: filters with live autocomplete, paged results, record details, a credit
//! gauge and the search history (issue 4; "One core for every front end, and a durable
//! store"): every call goes through `core::session::Session`, so paid answers are stored. One state owner ([`app::App`]), one message enum ([`msg::Msg`]), one loop
//! ([`runner::run_loop`]) that never awaits the network; see `../shared/DESIGN.md`.
#![deny(unsafe_code)]
use std::path::PathBuf;
use std::sync::Arc;

use crate::components::columns::ColumnSet;
use prospect_core::config::Settings;

pub mod actions;
pub mod app;
pub mod backend;
pub mod clipboard;
pub mod components;
pub mod countries;
pub mod fmt;
pub mod keymap;
pub mod labels;
pub mod lazy;
pub mod msg;
pub mod records;
pub mod runner;
pub mod schema;
pub mod terminal;
pub mod theme;
pub mod view;

pub use prospect_core::config::Target;

/// Top-level options of `prospect` (the explorer).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TuiArgs {
    /// Service, config and store options shared with the other commands.
    #[command(flatten)]
    pub connect: prospect_core::config::ConnectArgs,
    /// Open with this saved filter set (a JSON file).
    #[arg(long)]
    pub filters: Option<PathBuf>,
    /// The explorer's colours (default: config `theme`, else dark). `NO_COLOR` in the
    /// environment draws without colour whatever the theme.
    #[arg(long, value_enum)]
    pub theme: Option<theme::ThemeName>,
}

struct RealHooks;

impl runner::Hooks<ratatui::backend::CrosstermBackend<std::io::Stdout>> for RealHooks {
    fn suspend(&mut self, terminal: &mut ratatui::DefaultTerminal) -> std::io::Result<()> {
        terminal::suspend(terminal)
    }

    /// OSC 52 through the terminal's own writer (between frames), and the system clipboard
    /// where this machine has one.
    fn copy(
        &mut self,
        terminal: &mut ratatui::DefaultTerminal,
        text: &str,
    ) -> Result<String, String> {
        use std::io::Write;
        let mut ways = Vec::new();
        if let Some(seq) = clipboard::osc52(text) {
            let w = terminal.backend_mut();
            match w.write_all(seq.as_bytes()).and_then(|_| w.flush()) {
                Ok(()) => ways.push("OSC 52"),
                Err(e) => tracing::warn!(error = %e, "OSC 52 write failed"),
            }
        }
        match clipboard::system_copy(text) {
            Ok(cmd) => ways.push(cmd),
            Err(e) => tracing::debug!(error = %e, "no system clipboard"),
        }
        if ways.is_empty() {
            return Err(format!(
                "nothing copied: {} bytes is too long for OSC 52 and there is no system clipboard",
                text.len()
            ));
        }
        Ok(format!("{} bytes ({})", text.len(), ways.join(" + ")))
    }
}

/// Runs the explorer until the user quits; the terminal is restored on every exit path
/// (quit, error, panic, Ctrl-C, SIGTERM/SIGHUP).
pub async fn run(args: TuiArgs, settings: Settings, target: Target) -> anyhow::Result<Ended> {
    let _guard = settings.init_logging();
    tracing::info!(base_url = %target.base_url, sandbox = target.sandbox, "starting explorer");
    // Every call goes through the session, which stores each paid answer before it returns;
    // the embedded sandbox has its own store file.
    // Every wait of the client ends when the explorer does (issue 34: nothing outlives it).
    let stop = tokio_util::sync::CancellationToken::new();
    let _ends_waits = stop.clone().drop_guard();
    let session = prospect_core::session::Session::open_with(
        &settings,
        &target,
        prospect_api::client::ClientOptions {
            stop,
            ..Default::default()
        },
    )?;
    let store_notice = session.unreachable().map(ToString::to_string);
    let receiver = start_receiver(&settings, &target, &session).await;
    let reveals_disabled = receiver.as_ref().err().cloned();
    let backend: Arc<dyn backend::Backend> =
        Arc::new(backend::SessionBackend::new(session).with_receiver(receiver));
    explore(
        args,
        &settings,
        target.base_url.clone(),
        target.sandbox,
        backend,
        None,
        Limits {
            reveals_disabled,
            store_notice,
        },
    )
    .await
}

/// Starts the webhook receiver with the explorer: loopback on the embedded sandbox, the
/// configured address (`webhook_listen`, `webhook_public_url`) for the real service. `Err` says
/// in plain words why there is none; reveals then say so and spend nothing.
async fn start_receiver(
    settings: &Settings,
    target: &Target,
    session: &prospect_core::session::Session,
) -> Result<(), String> {
    let receiver = match prospect_core::webhooks::receiver_config(settings, target) {
        Ok(cfg) => session
            .start_receiver(cfg)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    if let Err(why) = &receiver {
        tracing::warn!("{why}");
    }
    receiver
}

/// Runs the explorer on a service that is still starting (the embedded sandbox): the first
/// screen is drawn at once, the calls wait for `pending` (see [`lazy::LazyBackend`]), and the
/// header shows the address once it is known. The webhook receiver starts once the service is
/// there; its deliveries reach the loop through the lazy backend.
pub async fn run_pending(
    args: TuiArgs,
    settings: Settings,
    pending: std::pin::Pin<Box<dyn std::future::Future<Output = anyhow::Result<Target>> + Send>>,
) -> anyhow::Result<Ended> {
    let _guard = settings.init_logging();
    tracing::info!("starting explorer; the embedded sandbox loads behind it");
    let connected = lazy::Connected::default();
    let s2 = settings.clone();
    let make: backend::BoxFuture<anyhow::Result<backend::SessionBackend>> = Box::pin(async move {
        let target = pending.await?;
        let session = prospect_core::session::Session::open(&s2, &target)?;
        let receiver = start_receiver(&s2, &target, &session).await;
        Ok(backend::SessionBackend::new(session).with_receiver(receiver))
    });
    let backend: Arc<dyn backend::Backend> = Arc::new(lazy::LazyBackend::spawn(
        make,
        |b| {
            b.session()
                .client()
                .base_url()
                .as_str()
                .trim_end_matches('/')
                .to_string()
        },
        connected.clone(),
    ));
    explore(
        args,
        &settings,
        "embedded sandbox (starting…)".into(),
        true,
        backend,
        Some(connected),
        // Known once the session opens: a reveal or a plan then says it.
        Limits::default(),
    )
    .await
}

/// Sets the theme drawn with: `flag` (`--theme`), else config `theme`, else dark; no colour
/// under `NO_COLOR`. Returns a warning naming a config value that is not a theme.
fn choose_theme(flag: Option<theme::ThemeName>, configured: Option<&str>) -> Option<String> {
    use clap::ValueEnum;
    let (name, warning) = match (flag, configured) {
        (Some(t), _) => (t, None),
        (None, None) => (theme::ThemeName::default(), None),
        (None, Some(c)) => match theme::ThemeName::from_str(c.trim(), true) {
            Ok(t) => (t, None),
            Err(_) => (
                theme::ThemeName::default(),
                Some(format!(
                    "config theme {:?} is not a theme (dark, light, high-contrast); drawing dark",
                    prospect_common::sanitize::sanitize(c)
                )),
            ),
        },
    };
    theme::set(name, theme::no_color_env());
    warning
}

/// What the session the explorer runs on cannot do, said at start.
#[derive(Debug, Default)]
struct Limits {
    /// Why reveals are off (no webhook receiver), in words.
    reveals_disabled: Option<String>,
    /// The team store out of reach, with this machine's store standing in (issue 17).
    store_notice: Option<String>,
}

async fn explore(
    args: TuiArgs,
    settings: &Settings,
    base_url: String,
    sandbox: bool,
    backend: Arc<dyn backend::Backend>,
    connected: Option<lazy::Connected>,
    limits: Limits,
) -> anyhow::Result<Ended> {
    let Limits {
        reveals_disabled,
        store_notice,
    } = limits;
    let cfg = &settings.config;
    let warning = settings.warning.clone();
    let theme_warning = choose_theme(args.theme, cfg.theme.as_deref());
    let (keymap, key_warnings) =
        keymap::Keymap::with_overrides(&cfg.keys).map_err(|e| anyhow::anyhow!(e))?;
    let filters_dir = settings.filters_dir();
    // The column choice of the results tabs (issue 19): a file that cannot be read leaves the
    // default columns, and says why.
    let columns_file = settings.columns_file();
    let (columns, columns_warning) = match columns_file.as_deref().map(ColumnSet::load) {
        Some(Ok(c)) => (c, None),
        Some(Err(e)) => (
            ColumnSet::default(),
            Some(format!("Columns reset to the default: {e}")),
        ),
        None => (ColumnSet::default(), None),
    };
    let mut app = app::App::new(app::AppOptions {
        base_url,
        sandbox,
        keymap,
        confirm_above: cfg.confirm_above(),
        budgeted: cfg.budget != prospect_core::config::Budget::default(),
        filters_dir,
        export_dir: settings.export_dir(),
        columns,
        columns_file,
    });
    app.connected = connected;
    app.reveals_disabled = reveals_disabled;
    let mut initial = app.start();
    // The team store out of reach comes first: nothing paid can be done until it is back.
    if let Some(w) = store_notice
        .into_iter()
        .chain(warning)
        .chain(theme_warning)
        .chain(columns_warning)
        .chain(key_warnings)
        .next()
    {
        tracing::warn!("{w}");
        app.status = Some(app::Status {
            text: w,
            kind: app::StatusKind::Error,
        });
    }
    if let Some(p) = &args.filters {
        app.open_file(p);
    }
    let mut term = terminal::init(cfg.mouse.unwrap_or(true))
        .map_err(|e| anyhow::anyhow!("cannot use this terminal: {e}"))?;
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
    result.map(|()| Ended {
        left_unfinished: app.left_unfinished,
    })
}

/// How the explorer ended, for the binary to say once the terminal is back (nothing is
/// printed while the explorer owns the screen).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Ended {
    /// Paid calls still in flight when the user quit without waiting for them (the quit key
    /// pressed again while they finished).
    pub left_unfinished: usize,
}

impl Ended {
    /// The line to print after the explorer, if any: how many paid calls were left.
    pub fn notice(&self) -> Option<String> {
        let n = self.left_unfinished;
        (n > 0).then(|| {
            format!(
                "quit with {n} paid call{} unfinished: they may be charged without their \
                 answers kept; run them again for the rest (what was kept is not bought again)",
                if n == 1 { "" } else { "s" }
            )
        })
    }
}
