//! `prospect mcp` (issue 36): a Model Context Protocol server over stdio, built with the
//! official Rust SDK (`rmcp`), as a third front end on the spend engine's one door. It uses
//! the same config, store (SQLite or the team's PostgreSQL), budgets and suppression as the
//! explorer and the CLI; every paid tool plans first, and the session never spends past
//! `--max-credits` ([`gate`]).
//!
//! - [`shapes`]: the tools' parameters and compact answers, with their JSON schemas.
//! - [`gate`]: the agent's spend gate (session cap, `max_credits`, plan ids).
//! - [`server`]: the tools and the server's handler; [`resources`]: the full records.
#![deny(unsafe_code)]

pub mod gate;
pub mod resources;
pub mod server;
pub mod shapes;

use rmcp::ServiceExt;

use prospect_core::config::{Settings, Target};
use prospect_core::session::Session;

/// `prospect mcp`: serve the MCP tools over stdio.
#[derive(Debug, Clone, clap::Args)]
pub struct McpArgs {
    /// Most credits the whole session may spend, in each pool (standard, email, phone): a plan
    /// over what is left is refused, whatever the agent confirms. Default: no session cap
    /// (the config's daily budgets still bind).
    #[arg(long, value_parser = parse_credits)]
    pub max_credits: Option<f64>,
}

fn parse_credits(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!(
            "{text:?} is not a number of credits (a finite number, 0 or more)"
        )),
    }
}

/// Starts the embedded sandbox when no token is set: the service's [`Target`].
pub type StartSandbox =
    fn(
        Option<std::path::PathBuf>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = anyhow::Result<Target>> + Send>>;

/// Serves the MCP tools on stdin/stdout until the client closes them. Stdout carries the
/// protocol only; notices go to stderr. Errors: the config (no usable target), a session that
/// cannot open its store, the transport failing.
pub async fn serve(
    args: McpArgs,
    settings: Settings,
    start_sandbox: StartSandbox,
) -> anyhow::Result<()> {
    let target = match settings.target()? {
        Some(t) => t,
        None => {
            eprintln!("prospect mcp: no API token set; using the embedded SANDBOX");
            start_sandbox(settings.data_dir()).await?
        }
    };
    let session = Session::open_with(&settings, &target, Default::default())?;
    if let Some(why) = session.unreachable() {
        eprintln!("prospect mcp: {why}");
    }
    let receiver = prospect_core::webhooks::receiver_config(&settings, &target).ok();
    let server = server::Prospect::new(
        session,
        args.max_credits,
        settings.confirm_above(),
        settings.filters_dir(),
        receiver,
    );
    let running = server
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| anyhow::anyhow!("the MCP session did not start: {e}"))?;
    running
        .waiting()
        .await
        .map_err(|e| anyhow::anyhow!("the MCP session failed: {e}"))?;
    Ok(())
}
