//! The `prospect` binary: the explorer by default, `prospect serve` for the sandbox alone,
//! `prospect build-assets` to rebuild the sandbox dataset from `../shared/data`.
use clap::{Parser, Subcommand};

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
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the sandbox service alone, for any HTTP client.
    Serve(prospect::sandbox::service::ServeArgs),
    /// Rebuild assets/dataset.postcard.zst from the raw public data.
    BuildAssets(prospect::sandbox::dataset::build::BuildArgs),
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Serve(args)) => prospect::sandbox::service::serve(args).await,
        Some(Command::BuildAssets(args)) => {
            tokio::task::spawn_blocking(move || prospect::sandbox::dataset::build::run(args))
                .await?
        }
        None => {
            let settings = prospect::core::config::Settings::load(&cli.tui.connect)?;
            let target = match settings.target()? {
                Some(target) => target,
                None => {
                    // Before the alternate screen: loading and indexing the dataset takes a
                    // moment (about a second in a release build), so say what is happening.
                    eprintln!(
                        "prospect: no API token set; starting the embedded SANDBOX \
                         (real companies, synthetic people)..."
                    );
                    let sb = prospect::sandbox::service::start_embedded().await?;
                    prospect::tui::Target {
                        base_url: sb.base_url,
                        token: sb.token,
                        sandbox: true,
                    }
                }
            };
            prospect::tui::run(cli.tui, settings, target).await
        }
    }
}
