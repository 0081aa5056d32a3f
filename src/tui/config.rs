//! The explorer's config file and the user directories it uses.
//!
//! `config.toml` lives in the user's config directory (`directories::ProjectDirs` for
//! `prospect`, e.g. `~/.config/prospect/config.toml`); saved filter sets in `filters/` beside
//! it; the log file in the user's state directory (falling back to the data-local directory
//! where the platform has no state directory).
//!
//! ```toml
//! api_token = "..."          # optional; the file is then kept at mode 0600
//! base_url = "https://..."   # optional
//! confirm_above = 10.0       # credits; a call estimated above this asks first
//! [keys]                     # optional overrides: action name -> keys
//! quit = ["q", "ctrl-q"]
//! ```
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

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
    /// Calls estimated to cost more than this many credits ask for confirmation first.
    pub confirm_above: Option<f64>,
    /// Keymap overrides: action name -> key strings (see [`crate::tui::keymap`]).
    pub keys: BTreeMap<String, Vec<String>>,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("api_token", &self.api_token.as_ref().map(|_| "<redacted>"))
            .field("base_url", &self.base_url)
            .field("confirm_above", &self.confirm_above)
            .field("keys", &self.keys)
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

/// The directories the explorer reads and writes.
#[derive(Debug, Clone)]
pub struct Dirs {
    /// `config.toml` and `filters/` live here.
    pub config_dir: PathBuf,
    /// The log file lives here.
    pub state_dir: PathBuf,
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

/// Writes `text` to `path` atomically (temp file + rename) with mode 0600, creating the
/// directory (mode 0700 on unix) if needed.
pub fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    create_dir_private(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    // NamedTempFile is created 0600 on unix.
    std::io::Write::write_all(&mut tmp, text.as_bytes())?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Creates `dir` and its parents; the leaf gets mode 0700 on unix.
pub fn create_dir_private(dir: &Path) -> std::io::Result<()> {
    if dir.as_os_str().is_empty() || dir.is_dir() {
        return Ok(());
    }
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir)
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

#[cfg(test)]
mod tests {
    use super::*;

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
