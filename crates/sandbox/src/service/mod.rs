//! The HTTP service of the sandbox (axum on 127.0.0.1): the 19 endpoints of SPEC.md §4 over
//! the embedded dataset, with the authentication of §5, the accounts, plans and credit ledger of
//! §1/§7 and NOTES.md, the request limits of NOTES.md, the 422 validation answers of §2.10 and
//! the webhooks of §6.
//!
//! - [`serve`]: `prospect serve` (runs until Ctrl-C);
//! - [`start_embedded`]: the explorer's own sandbox, one account with a random token;
//! - [`spawn`]: a sandbox with a given [`SandboxConfig`] on a free port (tests), stopped by
//!   [`SandboxHandle::shutdown`] or on drop.
//!
//! Request path of every endpoint (see `routes`): read the body (a too-large one is read and
//! thrown away up to 4× the limit, at least 64 MiB, so the client gets its answer, not a broken
//! pipe) → authenticate (§5) →
//! count against the limits (429) → 413 above the body limit → parse and validate (422) →
//! plan check (400/403) → engine → charge (402 charges nothing) → answer.

pub mod accounts;
pub mod auth;
pub mod error;
pub mod limits;
pub mod shapes;
pub mod validation;
pub mod webhooks;

mod billing;
mod engine_calls;
mod gathering;
mod reveal;
mod routes;
mod schema_paths;
mod segmentation;
mod source;
mod state;

pub use source::DbSource;
pub(crate) use state::AppState;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use accounts::{AccountSpec, Accounts, PoolSpec};
use webhooks::{WebhookConfig, WebhookStats, Webhooks};

/// Arguments of `prospect serve`.
///
/// Every `--token` is an account on the `legacy` plan (every endpoint, v2 searches and the
/// preview included) with one million one-time credits in each pool; `--accounts FILE` adds
/// accounts with their own plan, pools and limits (see [`accounts::AccountSpec`]).
/// `Debug` never shows the tokens.
#[derive(Clone, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (loopback by default).
    #[arg(long, default_value = "127.0.0.1:8787")]
    pub addr: SocketAddr,
    /// An API token to accept (an account with ample credits); repeatable.
    #[arg(long = "token")]
    pub tokens: Vec<String>,
    /// A JSON file of accounts: `[{"token", "plan", "credits": {"oneTime", "recurrent"},
    /// "emailCredits", "phoneCredits", "dailyLimit", "ratePerMinute"}]`.
    #[arg(long = "accounts")]
    pub accounts: Option<PathBuf>,
    /// Milliseconds from a reveal request to its webhook delivery.
    #[arg(long, default_value_t = 2000)]
    pub webhook_delay_ms: u64,
    /// Milliseconds after which an unknown company asked to enrich (201) is there.
    #[arg(long, default_value_t = 5000)]
    pub enrich_delay_ms: u64,
    /// Milliseconds a new segmentation stays `IN_PROGRESS` (at least; longer while it is
    /// still being computed).
    #[arg(long, default_value_t = 3000)]
    pub segmentation_delay_ms: u64,
    /// Requests per minute per account (unless its accounts-file entry says otherwise).
    #[arg(long, default_value_t = 60)]
    pub rate_per_minute: u32,
    /// Requests per UTC day per account (unless its accounts-file entry says otherwise).
    #[arg(long, default_value_t = 1000)]
    pub daily_limit: u32,
}

impl std::fmt::Debug for ServeArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServeArgs")
            .field("addr", &self.addr)
            .field("tokens", &format_args!("[{} redacted]", self.tokens.len()))
            .field("accounts", &self.accounts)
            .field("webhook_delay_ms", &self.webhook_delay_ms)
            .field("enrich_delay_ms", &self.enrich_delay_ms)
            .field("segmentation_delay_ms", &self.segmentation_delay_ms)
            .field("rate_per_minute", &self.rate_per_minute)
            .field("daily_limit", &self.daily_limit)
            .finish()
    }
}

/// Everything a sandbox instance needs.
#[derive(Debug, Clone)]
pub struct SandboxConfig {
    /// Where to listen; port 0 takes a free port.
    pub addr: SocketAddr,
    /// The accounts.
    pub accounts: Vec<AccountSpec>,
    /// Per-minute limit of accounts that do not set one.
    pub rate_per_minute: u32,
    /// Daily limit of accounts that do not set one.
    pub daily_limit: u32,
    /// Webhook timing.
    pub webhooks: WebhookConfig,
    /// Time after which a company whose enrichment answered 201 is known.
    pub enrich_delay: Duration,
    /// Time a new segmentation stays `IN_PROGRESS` at least.
    pub segmentation_delay: Duration,
    /// Where the sandbox keeps what must outlive its process (its segmentations, in
    /// `sandbox-segmentations.json`, and the domains gathered, in `sandbox-gathered.json`);
    /// `None` keeps nothing.
    pub state_dir: Option<PathBuf>,
    /// Largest request body accepted (bytes); larger ones get 413.
    pub body_limit: usize,
    /// The dataset to serve (`Some(Arc<Db>.into())` for one already loaded); `None` uses the
    /// embedded one, loaded once per process ([`embedded_source`]).
    pub db: Option<DbSource>,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        SandboxConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            accounts: Vec::new(),
            rate_per_minute: 60,
            daily_limit: 1000,
            webhooks: WebhookConfig::default(),
            enrich_delay: Duration::from_secs(5),
            segmentation_delay: Duration::from_millis(500),
            state_dir: None,
            body_limit: 2 * 1024 * 1024,
            db: None,
        }
    }
}

/// The file in [`SandboxConfig::state_dir`] that keeps the segmentations.
pub const SEGMENTATIONS_FILE: &str = "sandbox-segmentations.json";

/// The file in [`SandboxConfig::state_dir`] that keeps the domains whose data gathering was
/// started (warmup, enrich), so they are there in the next process.
pub const GATHERED_FILE: &str = "sandbox-gathered.json";

/// A running sandbox started by [`spawn`]. Dropping it stops the server.
/// `Debug` shows the address, never the tokens.
pub struct SandboxHandle {
    /// e.g. `http://127.0.0.1:40123` (no trailing slash).
    pub base_url: String,
    /// The address bound.
    pub addr: SocketAddr,
    /// The tokens of its accounts, in the order of the config.
    pub tokens: Vec<String>,
    /// Counters of the webhook queue.
    pub webhook_stats: Arc<WebhookStats>,
    /// The dataset it serves (e.g. to wait until it is indexed: [`DbSource::db`]).
    pub source: DbSource,
    cancel: CancellationToken,
    task: Option<tokio::task::JoinHandle<()>>,
    detached: bool,
}

impl std::fmt::Debug for SandboxHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SandboxHandle")
            .field("base_url", &self.base_url)
            .field("accounts", &self.tokens.len())
            .finish_non_exhaustive()
    }
}

impl SandboxHandle {
    /// Stops the server and its webhook jobs, and waits for the server task to end.
    pub async fn shutdown(mut self) {
        self.cancel.cancel();
        if let Some(t) = self.task.take() {
            let _ = t.await;
        }
    }
}

impl SandboxHandle {
    /// Lets the server run for the life of the runtime (dropping the handle no longer stops it).
    pub fn detach(mut self) {
        self.detached = true;
    }
}

impl Drop for SandboxHandle {
    fn drop(&mut self) {
        if !self.detached {
            self.cancel.cancel();
        }
    }
}

/// The embedded dataset, loaded once per process and shared read-only by every sandbox
/// started with `db: None`: its header (the reference data) is decoded on the first call, its
/// companies are indexed in the background from the first request that needs them
/// ([`DbSource::load_embedded`]).
///
/// Errors when the asset's header cannot be read (a later failure is answered 500 by the
/// endpoints that need the companies, and logged).
pub async fn embedded_source() -> anyhow::Result<DbSource> {
    static SOURCE: tokio::sync::OnceCell<DbSource> = tokio::sync::OnceCell::const_new();
    SOURCE
        .get_or_try_init(|| async { DbSource::load_embedded() })
        .await
        .cloned()
}

/// Starts a sandbox with `config` in the background of the current runtime. It listens at
/// once: while its dataset still loads, the endpoints that need no company (the balance, the
/// data fields) answer, and the others wait for it.
/// Errors: the address cannot be bound, the dataset's header does not load.
pub async fn spawn(config: SandboxConfig) -> anyhow::Result<SandboxHandle> {
    let source = match config.db.clone() {
        Some(source) => source,
        None => embedded_source().await?,
    };
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", config.addr))?;
    let addr = listener.local_addr()?;
    // Answers are written in pieces (records straight from where they are kept): each is sent
    // at once rather than held back for the peer's acknowledgement (Nagle's algorithm).
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "cannot set TCP_NODELAY");
        }
    });
    let cancel = CancellationToken::new();
    let webhooks = Webhooks::new(config.webhooks.clone(), cancel.child_token());
    let webhook_stats = webhooks.stats.clone();
    let state = Arc::new(AppState {
        gathering: gathering::Gathering::new(
            source.clone(),
            config.enrich_delay,
            config.state_dir.as_ref().map(|d| d.join(GATHERED_FILE)),
        ),
        accounts: Accounts::new(&config.accounts, config.rate_per_minute, config.daily_limit),
        webhooks,
        segmentations: segmentation::Segmentations::new(
            config.segmentation_delay,
            config
                .state_dir
                .as_ref()
                .map(|d| d.join(SEGMENTATIONS_FILE)),
        ),
        body_limit: config.body_limit,
    });
    let kept = state.segmentations.to_compute();
    if !kept.is_empty() {
        let state = state.clone();
        tokio::spawn(async move {
            let Ok(db) = state.db().await else { return };
            for (id, ask, marks) in kept {
                routes::compute_segmentation(state.clone(), db.clone(), id, ask, marks);
            }
        });
    }
    let app = routes::router(state);
    tokio::spawn(routes::collect_when_idle(cancel.child_token()));
    let stop = cancel.clone();
    let task = tokio::spawn(async move {
        let server = axum::serve(listener, app).with_graceful_shutdown(stop.cancelled_owned());
        if let Err(e) = server.await {
            tracing::error!(error = %e, "sandbox server stopped");
        }
    });
    Ok(SandboxHandle {
        base_url: format!("http://{addr}"),
        addr,
        tokens: config.accounts.iter().map(|a| a.token.clone()).collect(),
        webhook_stats,
        source,
        cancel,
        task: Some(task),
        detached: false,
    })
}

/// Runs the sandbox until Ctrl-C; says where it listens and when the dataset is indexed on
/// stderr, unless `quiet` (`--quiet`: nothing on stderr but errors). Errors: no account is
/// given, the accounts file cannot be read, the address cannot be bound, the dataset does not
/// load.
pub async fn serve(args: ServeArgs, quiet: bool) -> anyhow::Result<()> {
    let mut accounts: Vec<AccountSpec> = args
        .tokens
        .iter()
        .map(|t| AccountSpec::ample(t.clone()))
        .collect();
    if let Some(path) = &args.accounts {
        accounts.extend(accounts::read_accounts_file(path)?);
    }
    if accounts.is_empty() {
        anyhow::bail!("no account: give at least one --token TOKEN or --accounts FILE");
    }
    if accounts.iter().any(|a| a.token.is_empty()) {
        anyhow::bail!("an account has an empty token");
    }
    let started = Instant::now();
    let n = accounts.len();
    let handle = spawn(SandboxConfig {
        addr: args.addr,
        accounts,
        rate_per_minute: args.rate_per_minute,
        daily_limit: args.daily_limit,
        webhooks: WebhookConfig {
            delay: Duration::from_millis(args.webhook_delay_ms),
            ..WebhookConfig::default()
        },
        enrich_delay: Duration::from_millis(args.enrich_delay_ms),
        segmentation_delay: Duration::from_millis(args.segmentation_delay_ms),
        ..SandboxConfig::default()
    })
    .await?;
    if !quiet {
        eprintln!(
            "prospect sandbox listening on {} ({n} account{}, in {} ms); Ctrl-C stops it",
            handle.base_url,
            if n == 1 { "" } else { "s" },
            started.elapsed().as_millis()
        );
    }
    let source = handle.source.clone();
    tokio::select! {
        loaded = source.db() => {
            loaded?;
            if !quiet {
                eprintln!(
                    "prospect sandbox: dataset indexed, every endpoint ready in {} ms",
                    started.elapsed().as_millis()
                );
            }
            tokio::signal::ctrl_c().await?;
        }
        stop = tokio::signal::ctrl_c() => stop?,
    }
    handle.shutdown().await;
    Ok(())
}

/// A sandbox started inside this process on a free port of 127.0.0.1, for the explorer and
/// the CLI commands. `Debug` shows the URL, never the token.
pub struct EmbeddedSandbox {
    /// e.g. `http://127.0.0.1:40123`.
    pub base_url: String,
    /// The token of the one account it has.
    pub token: String,
    /// Its dataset: the whole load starts on the first request that needs it; the explorer
    /// starts it at once ([`DbSource::start`]).
    pub source: DbSource,
}

impl std::fmt::Debug for EmbeddedSandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbeddedSandbox")
            .field("base_url", &self.base_url)
            .finish_non_exhaustive()
    }
}

/// Starts an embedded sandbox on a free loopback port, in the background of the current runtime.
///
/// One account: a random token, the `legacy` plan (every endpoint), one million credits in
/// each pool, 600 requests per minute and 100,000 per day; webhooks after 1.5 s, enriched
/// companies known 3 s after their 201. The server lives as long as the runtime.
pub async fn start_embedded(state_dir: Option<PathBuf>) -> anyhow::Result<EmbeddedSandbox> {
    let token = random_token();
    let handle = spawn(SandboxConfig {
        accounts: vec![AccountSpec {
            token: token.clone(),
            credits: Some(PoolSpec::one_time(accounts::AMPLE)),
            ..AccountSpec::default()
        }],
        rate_per_minute: 600,
        daily_limit: 100_000,
        webhooks: WebhookConfig {
            delay: Duration::from_millis(1500),
            ..WebhookConfig::default()
        },
        enrich_delay: Duration::from_secs(3),
        segmentation_delay: Duration::from_millis(1500),
        state_dir,
        ..SandboxConfig::default()
    })
    .await?;
    let base_url = handle.base_url.clone();
    let source = handle.source.clone();
    handle.detach();
    Ok(EmbeddedSandbox {
        base_url,
        token,
        source,
    })
}

/// 32 random hex digits.
fn random_token() -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..32)
        .map(|_| format!("{:x}", rng.random_range(0..16u8)))
        .collect()
}
