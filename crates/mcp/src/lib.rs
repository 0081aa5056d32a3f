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
mod more;
mod prompts;
pub mod resources;
mod run;
pub mod server;
pub mod shapes;
pub mod wire_schema;

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
    /// Serve Streamable HTTP at `http://ADDR/mcp` instead of stdio; a loopback address only
    /// (e.g. `127.0.0.1:8790`): the store and the token's credits are behind it.
    #[arg(long)]
    pub listen: Option<std::net::SocketAddr>,
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
    // What is owned, for exports and suppression writes; without it those tools say why.
    let owned = match prospect_core::owned::Owned::open(&settings, target.sandbox) {
        Ok((o, _)) => Some(o),
        Err(e) => {
            eprintln!("prospect mcp: the store's exports are unavailable: {e}");
            None
        }
    };
    let server = server::Prospect::new(
        session,
        args.max_credits,
        settings.confirm_above(),
        settings.filters_dir(),
        receiver,
        owned,
    );
    match args.listen {
        Some(addr) => serve_http(server, addr).await,
        None => {
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
    }
}

/// Serves Streamable HTTP at `http://addr/mcp` until Ctrl-C or SIGTERM; every client session
/// gets the same tools over the same session and budget. Errors: a non-loopback address, one
/// that cannot be bound.
async fn serve_http(server: server::Prospect, addr: std::net::SocketAddr) -> anyhow::Result<()> {
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    };
    if !addr.ip().is_loopback() {
        anyhow::bail!("--listen {addr}: only a loopback address is served (127.0.0.1, ::1)");
    }
    let stop = tokio_util::sync::CancellationToken::new();
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        LocalSessionManager::default().into(),
        StreamableHttpServerConfig::default().with_cancellation_token(stop.child_token()),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("--listen {addr}: {e}"))?;
    eprintln!(
        "prospect mcp: Streamable HTTP on http://{}/mcp",
        listener.local_addr()?
    );
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
                .ok();
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = async { match term.as_mut() { Some(t) => { t.recv().await; } None => std::future::pending::<()>().await } } => {}
            }
            stop.cancel();
        })
        .await?;
    Ok(())
}
