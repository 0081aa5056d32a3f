//! `prospect curl FILE`: the curl command of a filter set, the token as
//! `$PROSPECT_API_TOKEN` (never the token itself).

use crate::*;

/// Print the curl command of a filter set (the token as $PROSPECT_API_TOKEN).
#[derive(Debug, Clone, clap::Args)]
pub struct CurlArgs {
    /// The filter-set file.
    pub file: PathBuf,
}

/// Prints the curl command of the filter set `a.file`, one a line for each results tab it holds
/// (free, nothing sent).
///
/// Errors: a filter set that does not read (exit 2), a closed stdout is success.
pub(crate) fn curl(ctx: &Ctx, a: CurlArgs) -> CliResult {
    let set =
        prospect_core::filter_set::load(&a.file).map_err(|e| CliError::usage(e.to_string()))?;
    let base = ctx
        .settings
        .args
        .base_url
        .clone()
        .or(ctx.settings.config.base_url.clone())
        .unwrap_or_else(|| "$PROSPECT_BASE_URL".to_string());
    // A set of both results tabs gives both commands, one a line.
    let mut text = String::new();
    for one in std::iter::once(&set).chain(set.other.as_deref()) {
        text += &prospect_core::curl::curl_command(&base, one.endpoint, &one.body);
        text.push('\n');
    }
    match std::io::stdout().write_all(text.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => Ok(r?),
    }
}
