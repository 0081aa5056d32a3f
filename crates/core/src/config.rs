//! prospect's config file and the user directories it uses, loaded once for every front end
//! ([`Settings::load`]).
//!
//! `config.toml` lives in the user's config directory (`directories::ProjectDirs` for
//! `prospect`, e.g. `~/.config/prospect/config.toml`); saved filter sets in `filters/` beside
//! it; the store (SQLite) in the user's data directory (`~/.local/share/prospect/`); the log
//! file in the user's state directory (falling back to the data-local directory where the
//! platform has no state directory).
//!
//! ```toml
//! api_token = "..."          # optional; the file is then kept at mode 0600
//! base_url = "https://..."   # optional
//! confirm_above = 10.0       # credits; a call estimated above this (in any pool) asks first
//! data_dir = "/path"         # optional; where the store lives (default: the data directory)
//! store_url = "postgres://ann@db.internal:5432/prospect"  # optional; a team's shared store
//! user = "ann"               # optional; who bought, in a team store (default: the OS user)
//! theme = "light"            # optional; the explorer's colours: dark, light, high-contrast
//! mouse = false              # optional; the explorer leaves the mouse to the terminal
//! export_dir = "~/exports"   # optional; where the explorer writes exports (default: the current directory)
//! [keys]                     # optional overrides: action name -> keys
//! quit = ["q", "ctrl-q"]
//! ```
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use prospect_common::fsutil;

/// Default confirmation threshold in credits.
pub const DEFAULT_CONFIRM_ABOVE: f64 = 10.0;

/// Contents of `config.toml`. Unknown keys are ignored. `Debug` never shows the token.
#[derive(Clone, Default, Deserialize)]
#[serde(default)]
pub struct Config {
    /// API token of the real service.
    pub api_token: Option<String>,
    /// Base URL of the real service.
    pub base_url: Option<String>,
    /// Calls estimated to cost more than this many credits (in any one pool) ask first.
    pub confirm_above: Option<f64>,
    /// Where the store lives (default: the user's data directory).
    pub data_dir: Option<PathBuf>,
    /// The store itself, as a URL (issue 17): `sqlite://PATH`, or the team's ledger
    /// `postgres://USER@HOST:PORT/DB`. Default: the file in [`Config::data_dir`]. Used for the
    /// real service only (the embedded sandbox keeps its own file unless `--store-url` or
    /// `PROSPECT_STORE_URL` names one). `Debug` hides its password.
    pub store_url: Option<String>,
    /// Who this member of the team is, recorded with each purchase (default: the OS user).
    pub user: Option<String>,
    /// The public URL the real service POSTs webhooks to (e.g. a tunnel's `https://…`),
    /// forwarding to [`Config::webhook_listen`]. Without it, reveals on the real service are
    /// disabled (the service cannot reach a laptop).
    pub webhook_public_url: Option<String>,
    /// The address the webhook receiver binds for the real service, e.g. `127.0.0.1:8788`.
    pub webhook_listen: Option<String>,
    /// Keymap overrides: action name -> key strings (see `prospect_tui::keymap`).
    pub keys: BTreeMap<String, Vec<String>>,
    /// The explorer's colours: `dark` (the default), `light` or `high-contrast` (`--theme`
    /// overrides it; `NO_COLOR` in the environment turns colour off whatever it says).
    pub theme: Option<String>,
    /// Mouse reports in the explorer: clicks, double clicks and the wheel (default on; `false`
    /// leaves the mouse to the terminal, e.g. for selecting text).
    pub mouse: Option<bool>,
    /// Where the explorer's exports are written (a file name typed in the export popup is
    /// taken in it; an absolute path is kept). Default: the directory prospect was started in,
    /// which the popup says.
    pub export_dir: Option<PathBuf>,
    /// The account's per-minute request allowance every request is paced to (default 60,
    /// NOTES.md "Rate limits"; the embedded sandbox allows 600).
    pub rate_per_minute: Option<u32>,
    /// How long a bought search is answered from the store at 0 credits: a number with a unit,
    /// `90s`, `30m`, `24h`, `7d` (default `24h`; `0s` buys every search again).
    pub search_fresh_for: Option<String>,
    /// Where `prospect watch` posts the digest of a run with news (`--notify` overrides it):
    /// an `http://` or `https://` URL, a chat's incoming webhook say. The API token never goes
    /// with it.
    pub watch_notify_url: Option<String>,
    /// Credits that may be spent per UTC day, per pool, by every process on this store.
    pub budget: Budget,
}

/// `[budget]` of `config.toml`: credits per UTC day, per pool (absent: no limit). Enforced by
/// the spend engine on each plan against the store's ledger (what every process on the store
/// spent today; on a team store, the whole team). The team's own budget is kept in the store
/// (`prospect store budget`, [`prospect_store::Store::team_budget`]).
pub use prospect_store::Budget;

/// Where the explorer writes exports ([`Settings::export_dir`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportDir {
    /// The directory (absolute).
    pub path: PathBuf,
    /// `true` when `export_dir` of the config named it; `false`: the current directory.
    pub from_config: bool,
}

/// Default of [`Config::search_fresh_for`]: 24 hours.
pub const DEFAULT_SEARCH_FRESH_FOR: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// Default of [`Config::rate_per_minute`] for the real service (NOTES.md "Rate limits").
pub const DEFAULT_RATE_PER_MINUTE: u32 = 60;

/// Reads a duration written as a number and a unit: `90s`, `30m`, `24h`, `7d` (a bare number
/// is seconds). Errors: anything else, in words naming the text.
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let t = text.trim();
    let (num, unit) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
    let n: u64 = num
        .parse()
        .map_err(|_| format!("{text:?} is not a duration like 90s, 30m, 24h or 7d"))?;
    let secs = match unit.trim() {
        "" | "s" => n,
        "m" => n * 60,
        "h" => n * 3600,
        "d" => n * 86_400,
        _ => {
            return Err(format!(
                "{text:?} is not a duration like 90s, 30m, 24h or 7d"
            ));
        }
    };
    Ok(std::time::Duration::from_secs(secs))
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("api_token", &self.api_token.as_ref().map(|_| "<redacted>"))
            .field("base_url", &self.base_url)
            .field("confirm_above", &self.confirm_above)
            .field("data_dir", &self.data_dir)
            .field(
                "store_url",
                &self
                    .store_url
                    .as_deref()
                    .map(|u| prospect_store::StoreUrl::parse(u).map(|u| u.redacted())),
            )
            .field("user", &self.user)
            .field("webhook_public_url", &self.webhook_public_url)
            .field("webhook_listen", &self.webhook_listen)
            .field("keys", &self.keys)
            .field("rate_per_minute", &self.rate_per_minute)
            .field("search_fresh_for", &self.search_fresh_for)
            // A chat's incoming-webhook URL is a secret of its own.
            .field(
                "watch_notify_url",
                &self.watch_notify_url.as_ref().map(|_| "<set>"),
            )
            .field("budget", &self.budget)
            .finish()
    }
}

impl Config {
    /// The confirmation threshold in credits.
    pub fn confirm_above(&self) -> f64 {
        self.confirm_above
            .filter(|v| v.is_finite() && *v >= 0.0)
            .unwrap_or(DEFAULT_CONFIRM_ABOVE)
    }
}

/// The directories prospect reads and writes.
#[derive(Debug, Clone)]
pub struct Dirs {
    /// `config.toml` and `filters/` live here.
    pub config_dir: PathBuf,
    /// The log file lives here.
    pub state_dir: PathBuf,
    /// The store lives here (`prospect.sqlite`, and `sandbox.sqlite` for the embedded sandbox).
    pub data_dir: PathBuf,
}

impl Dirs {
    /// The user's directories for `prospect`; errors when the platform has no home directory.
    pub fn user() -> anyhow::Result<Dirs> {
        let p = directories::ProjectDirs::from("", "", "prospect")
            .ok_or_else(|| anyhow::anyhow!("cannot find the home directory for config and logs"))?;
        let state_dir = p
            .state_dir()
            .unwrap_or_else(|| p.data_local_dir())
            .to_path_buf();
        Ok(Dirs {
            config_dir: p.config_dir().to_path_buf(),
            state_dir,
            data_dir: p.data_dir().to_path_buf(),
        })
    }

    /// The default config file path.
    pub fn config_file(&self) -> PathBuf {
        self.config_dir.join("config.toml")
    }

    /// The directory of saved filter sets.
    pub fn filters_dir(&self) -> PathBuf {
        self.config_dir.join("filters")
    }
}

const TEMPLATE: &str = "# prospect configuration\n\
# api_token = \"...\"        # token of the real service (this file is kept at mode 0600)\n\
# base_url = \"https://...\" # base URL of the real service\n\
# confirm_above = 10.0       # ask before a call estimated to cost more credits than this\n\
# data_dir = \"/path\"       # where the store of everything bought lives\n\
# webhook_public_url = \"https://…\" # a tunnel to webhook_listen, for reveals on the real service\n\
# webhook_listen = \"127.0.0.1:8788\"\n\
# watch_notify_url = \"https://…\" # where `prospect watch` posts the digest of a run with news\n\
# [keys]                     # key overrides, e.g.\n\
# quit = [\"q\", \"ctrl-q\"]\n";

/// Reads the config file. A missing file gives the defaults; when `create` is set a commented
/// template is written there first, with mode 0600. A file that does not parse is an error
/// naming the path, line and column. Also returns a warning when a file holding a token is
/// readable by others (unix).
pub fn load(path: &Path, create: bool) -> anyhow::Result<(Config, Option<String>)> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if create {
                // Best effort: a read-only home must not stop the explorer.
                let _ = write_private(path, TEMPLATE);
            }
            return Ok((Config::default(), None));
        }
        Err(e) => return Err(anyhow::anyhow!("cannot read {}: {e}", path.display())),
    };
    let cfg: Config = toml::from_str(&text).map_err(|e| {
        let pos = e
            .span()
            .map(|s| line_col(&text, s.start))
            .map(|(l, c)| format!(" at line {l}, column {c}"))
            .unwrap_or_default();
        anyhow::anyhow!("{}{pos}: {}", path.display(), e.message())
    })?;
    let mut warning = None;
    #[cfg(unix)]
    if cfg.api_token.is_some() {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(m) = std::fs::metadata(path)
            && m.permissions().mode() & 0o077 != 0
        {
            warning = Some(format!(
                "{} holds a token but is readable by others; run chmod 600 on it",
                path.display()
            ));
        }
    }
    Ok((cfg, warning))
}

/// Writes `text` to `path` atomically with mode 0600 (see [`fsutil::write_atomic`]).
pub fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    fsutil::write_atomic(path, text.as_bytes(), fsutil::Access::Private)
}

/// 1-based line and column (in characters) of byte offset `at` in `text`.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}

/// How to reach the service and where to keep things: the options every front end shares
/// (`prospect`, `prospect search ...`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ConnectArgs {
    /// API token of the real service; without one prospect uses its embedded sandbox.
    #[arg(
        long,
        env = "PROSPECT_API_TOKEN",
        hide_env_values = true,
        global = true
    )]
    pub api_token: Option<String>,
    /// Base URL of the service, e.g. `https://api.example.com`.
    #[arg(long, env = "PROSPECT_BASE_URL", global = true)]
    pub base_url: Option<String>,
    /// Config file (default: `config.toml` in the user's config directory).
    #[arg(long, global = true)]
    pub config: Option<PathBuf>,
    /// Directory of the store (default: config `data_dir`, else the user's data directory,
    /// e.g. `~/.local/share/prospect`).
    #[arg(long, env = "PROSPECT_DATA_DIR", global = true)]
    pub data_dir: Option<PathBuf>,
    /// The store as a URL: `sqlite://PATH` or a team's `postgres://USER@HOST:PORT/DB`
    /// (default: config `store_url`, else the file in the data directory).
    #[arg(
        long,
        env = "PROSPECT_STORE_URL",
        hide_env_values = true,
        global = true
    )]
    pub store_url: Option<String>,
    /// The account's requests per minute, which every request is paced to (default: config
    /// `rate_per_minute`, else 60; 600 for the embedded sandbox).
    #[arg(long, env = "PROSPECT_RATE_PER_MINUTE", global = true, value_parser = clap::value_parser!(u32).range(1..))]
    pub rate_per_minute: Option<u32>,
}

/// Which service to talk to.
#[derive(Clone)]
pub struct Target {
    /// Base URL, e.g. `http://127.0.0.1:40123`.
    pub base_url: String,
    /// API token; never printed (`Debug` redacts it).
    pub token: String,
    /// `true` for the embedded sandbox (front ends show SANDBOX; the store uses its own file).
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

impl Target {
    /// What the store records as a purchase's target: `sandbox`, or the base URL (never the
    /// token).
    pub fn label(&self) -> String {
        if self.sandbox {
            "sandbox".to_string()
        } else {
            self.base_url.clone()
        }
    }
}

/// Config, directories and command-line options, resolved once at start for every front end.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The config file's contents (defaults when there is none).
    pub config: Config,
    /// A warning to show once (e.g. a config holding a token readable by others).
    pub warning: Option<String>,
    /// The user's directories; `None` on a platform without a home directory.
    pub dirs: Option<Dirs>,
    /// The command-line options.
    pub args: ConnectArgs,
}

impl Settings {
    /// Reads the config file (`--config`, else the user's `config.toml`, created from a
    /// template when missing). Errors: a config file that cannot be read or does not parse
    /// (naming path, line and column).
    pub fn load(args: &ConnectArgs) -> anyhow::Result<Settings> {
        let dirs = Dirs::user().ok();
        let (path, create) = match (&args.config, &dirs) {
            (Some(p), _) => (Some(p.clone()), false),
            (None, Some(d)) => (Some(d.config_file()), true),
            (None, None) => (None, false),
        };
        let (config, warning) = match path {
            Some(p) => load(&p, create)?,
            None => (Config::default(), None),
        };
        Ok(Settings {
            config,
            warning,
            dirs,
            args: args.clone(),
        })
    }

    /// The real service to use, from `--api-token`/`PROSPECT_API_TOKEN`/config `api_token` and
    /// `--base-url`/`PROSPECT_BASE_URL`/config `base_url`; `None` when no token is configured
    /// (then the caller starts the embedded sandbox). Errors: a token without a base URL, and a
    /// `--base-url` (or `PROSPECT_BASE_URL`) without a token.
    pub fn target(&self) -> anyhow::Result<Option<Target>> {
        let token = self
            .args
            .api_token
            .clone()
            .filter(|t| !t.trim().is_empty())
            .or(self
                .config
                .api_token
                .clone()
                .filter(|t| !t.trim().is_empty()));
        let Some(token) = token else {
            // A service named on the command line (or PROSPECT_BASE_URL) with no token is a
            // mistake to name, not to paper over with the embedded sandbox (issue 38).
            if let Some(url) = self
                .args
                .base_url
                .as_deref()
                .filter(|u| !u.trim().is_empty())
            {
                anyhow::bail!(
                    "a base URL is set ({}) but no API token: pass --api-token (or \
                     PROSPECT_API_TOKEN, or api_token in config.toml); without both, prospect \
                     runs on the embedded sandbox",
                    prospect_common::sanitize::sanitize(url)
                );
            }
            return Ok(None);
        };
        let base_url = self
            .args
            .base_url
            .clone()
            .or(self.config.base_url.clone())
            .filter(|u| !u.is_empty())
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "an API token is set but no base URL: pass --base-url (or PROSPECT_BASE_URL, \
                     or base_url in config.toml)"
                )
            })?;
        Ok(Some(Target {
            base_url,
            token,
            sandbox: false,
        }))
    }

    /// The directory of the store: `--data-dir`, else config `data_dir`, else the user's data
    /// directory; `None` when none can be found.
    pub fn data_dir(&self) -> Option<PathBuf> {
        self.args
            .data_dir
            .clone()
            .or(self.config.data_dir.clone())
            .or(self.dirs.as_ref().map(|d| d.data_dir.clone()))
    }

    /// The per-minute allowance to pace to: `--rate-per-minute`, else config
    /// `rate_per_minute`, else [`DEFAULT_RATE_PER_MINUTE`] (600 for the embedded sandbox, which
    /// allows that many).
    pub fn rate_per_minute(&self, sandbox: bool) -> u32 {
        self.args
            .rate_per_minute
            .or(self.config.rate_per_minute)
            .filter(|n| *n > 0)
            .unwrap_or(if sandbox {
                600
            } else {
                DEFAULT_RATE_PER_MINUTE
            })
    }

    /// How long a bought search is answered from the store (config `search_fresh_for`,
    /// default 24 h). Errors: a value that is not a duration, naming it.
    pub fn search_fresh_for(&self) -> anyhow::Result<std::time::Duration> {
        match &self.config.search_fresh_for {
            None => Ok(DEFAULT_SEARCH_FRESH_FOR),
            Some(t) => parse_duration(t).map_err(|e| anyhow::anyhow!("search_fresh_for: {e}")),
        }
    }

    /// The store file for `target`: `prospect.sqlite` for the real service, `sandbox.sqlite`
    /// for the embedded sandbox, so sandbox data never mixes with data that was paid for.
    pub fn store_path(&self, sandbox: bool) -> Option<PathBuf> {
        let name = if sandbox {
            "sandbox.sqlite"
        } else {
            "prospect.sqlite"
        };
        self.data_dir().map(|d| d.join(name))
    }

    /// The store for `target` (issue 17): `--store-url` / `PROSPECT_STORE_URL`, else (the real
    /// service only) config `store_url`, else the file of [`Settings::store_path`]; `Ok(None)`
    /// when no data directory is known.
    ///
    /// # Errors
    /// A URL of another scheme, or empty, in words.
    pub fn store_url(&self, sandbox: bool) -> anyhow::Result<Option<prospect_store::StoreUrl>> {
        let configured = if sandbox {
            None
        } else {
            self.config.store_url.clone()
        };
        match self.args.store_url.clone().or(configured) {
            Some(u) => prospect_store::StoreUrl::parse(&u)
                .map(Some)
                .map_err(|e| anyhow::anyhow!(e)),
            None => Ok(self
                .store_path(sandbox)
                .map(prospect_store::StoreUrl::Sqlite)),
        }
    }

    /// Who is buying, recorded with each purchase of a team store: config `user`, else the OS
    /// user name, else `unknown`.
    pub fn user(&self) -> String {
        self.config
            .user
            .clone()
            .filter(|u| !u.trim().is_empty())
            .or_else(|| whoami::username().ok())
            .map(|u| prospect_common::sanitize::sanitize(u.trim()))
            .unwrap_or_else(|| "unknown".to_string())
    }

    /// The directory of saved filter sets (`filters/` in the config directory, else
    /// `./filters`).
    pub fn filters_dir(&self) -> PathBuf {
        self.dirs
            .as_ref()
            .map(|d| d.filters_dir())
            .unwrap_or_else(|| PathBuf::from("filters"))
    }

    /// Where the explorer writes exports: `export_dir` of the config (a leading `~/` is the
    /// home directory; a relative path is taken from the current directory), else the current
    /// directory.
    pub fn export_dir(&self) -> ExportDir {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        match &self.config.export_dir {
            Some(dir) => {
                let dir = prospect_common::fsutil::expand_home(&dir.to_string_lossy());
                ExportDir {
                    path: cwd.join(dir),
                    from_config: true,
                }
            }
            None => ExportDir {
                path: cwd,
                from_config: false,
            },
        }
    }

    /// Where the explorer keeps the columns chosen for its results tabs (`columns.json` in
    /// the config directory); `None` without one.
    pub fn columns_file(&self) -> Option<PathBuf> {
        self.dirs
            .as_ref()
            .map(|d| d.config_dir.join("columns.json"))
    }

    /// The confirmation threshold in credits per pool.
    pub fn confirm_above(&self) -> f64 {
        self.config.confirm_above()
    }

    /// Config `watch_notify_url`, when set (issue 37).
    pub fn watch_notify_url(&self) -> Option<String> {
        self.config
            .watch_notify_url
            .clone()
            .filter(|u| !u.trim().is_empty())
    }

    /// Where the webhook receiver's secret is kept (`webhook_secret` in the data directory,
    /// mode 0600).
    pub fn webhook_secret_path(&self) -> Option<PathBuf> {
        self.data_dir().map(|d| d.join("webhook_secret"))
    }

    /// Sends `tracing` output to `prospect.log` in the user's state directory (never the
    /// terminal). Level from `PROSPECT_LOG` (default `info`). Returns the guard to keep alive;
    /// `None` when there is no state directory or a subscriber is already set.
    pub fn init_logging(&self) -> Option<tracing_appender::non_blocking::WorkerGuard> {
        let dirs = self.dirs.as_ref()?;
        fsutil::create_dir_private(&dirs.state_dir).ok()?;
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--base-url` without a token is named, not answered by the embedded sandbox (issue 38).
    #[test]
    fn a_base_url_without_a_token_is_an_error() {
        let settings = |base_url: Option<&str>| Settings {
            config: Config::default(),
            warning: None,
            dirs: None,
            args: ConnectArgs {
                base_url: base_url.map(str::to_string),
                ..ConnectArgs::default()
            },
        };
        let e = settings(Some("http://127.0.0.1:9")).target().unwrap_err();
        assert!(e.to_string().contains("no API token"), "{e}");
        assert!(
            settings(None).target().unwrap().is_none(),
            "no service named: the sandbox"
        );
    }

    #[test]
    fn missing_file_is_created_private_and_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/config.toml");
        let (cfg, w) = load(&path, true).unwrap();
        assert!(cfg.api_token.is_none() && w.is_none());
        assert_eq!(cfg.confirm_above(), DEFAULT_CONFIRM_ABOVE);
        assert!(path.exists());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o600
            );
        }
    }

    #[test]
    fn token_and_keys_are_read_and_redacted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        write_private(
            &path,
            "api_token = \"sekret\"\nconfirm_above = 2.5\n[keys]\nquit = [\"ctrl-q\"]\n",
        )
        .unwrap();
        let (cfg, w) = load(&path, false).unwrap();
        assert_eq!(cfg.api_token.as_deref(), Some("sekret"));
        assert_eq!(cfg.confirm_above(), 2.5);
        assert_eq!(cfg.keys["quit"], vec!["ctrl-q".to_string()]);
        assert!(w.is_none());
        assert!(!format!("{cfg:?}").contains("sekret"));
    }

    #[test]
    fn bad_file_says_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "base_url = \"x\"\nconfirm_above = = 3\n").unwrap();
        let err = load(&path, false).unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
    }

    #[test]
    fn line_col_counts_chars() {
        assert_eq!(line_col("ab\ncdé\nx", 7), (2, 4));
        assert_eq!(line_col("", 0), (1, 1));
    }
}
