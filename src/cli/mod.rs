//! The headless CLI: `prospect <command> [options]`, a second thin front end over `core` for
//! scripts and cron. Every paid result goes through the session, so it is stored exactly as
//! in the explorer and never bought twice.
//!
//! - **Output**: records to stdout or `--out FILE` (atomic) as `--format jsonl|csv|json|table`
//!   (a table on a terminal, JSON Lines otherwise). Notices and progress go to stderr, only on
//!   a terminal; `--quiet` silences them.
//! - **Cost**: every paid command states its estimate per pool. Above `--max-credits` (default:
//!   config `confirm_above`) in any pool it asks on a terminal and refuses otherwise
//!   ([`ExitCode::SpendRefused`]): a cron job never overspends.
//! - **Errors**: one line on stderr, `prospect: …`, and an [`ExitCode`] per class; details go
//!   to the log, never a backtrace.

use std::collections::HashMap;
use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::api::client::{Endpoint, Enriched};
use crate::api::cost::{Cost, DEFAULT_PRICES, max_quantities};
use crate::api::error::ApiError;
use crate::api::types::webhooks::WebhookEvent;
use crate::api::types::*;
use crate::core::config::{Settings, Target};
use crate::core::export::{CompanyOut, ContactOut, Format, LookupOut, Pair, Tabular, Writer};
use crate::core::request::{SearchResponse, build_search};
use crate::core::session::{Freshness, Session};
use crate::core::spend::{self, lookup_cost, reveal_cost};
use crate::store::ContactKind;

/// The exit codes of every command (documented in README.md "Scripting").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum ExitCode {
    /// Success.
    Ok = 0,
    /// Anything not listed below (an internal error; see the log).
    Other = 1,
    /// Bad command line or input file (usage).
    Usage = 2,
    /// The token is missing, unknown, or the plan cannot use the endpoint (403, 400 plan).
    Auth = 3,
    /// Not enough credits (402).
    Credits = 4,
    /// The estimate is above `--max-credits` and nobody confirmed it: nothing was sent.
    SpendRefused = 5,
    /// Rate limited (429), per minute or the daily allowance.
    RateLimited = 6,
    /// Nothing matched (404).
    NotFound = 7,
    /// The request was refused as invalid, by the client before sending or by the service (422).
    Validation = 8,
    /// The network or the service failed (timeouts, 5xx, unreadable answers).
    Network = 9,
}

/// A command's failure: the one line to print and its exit code.
#[derive(Debug)]
pub struct CliError {
    /// The exit code.
    pub code: ExitCode,
    /// One line naming what was wrong.
    pub message: String,
}

impl CliError {
    /// A usage error (exit 2).
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError {
            code: ExitCode::Usage,
            message: message.into(),
        }
    }
    fn other(message: impl Into<String>) -> CliError {
        CliError {
            code: ExitCode::Other,
            message: message.into(),
        }
    }
}

impl From<ApiError> for CliError {
    fn from(e: ApiError) -> CliError {
        tracing::warn!(error = %e, "command failed");
        let code = match &e {
            ApiError::MissingToken
            | ApiError::UnknownToken
            | ApiError::ConflictingTokens
            | ApiError::PlanNotSupported => ExitCode::Auth,
            ApiError::InsufficientCredits { .. } | ApiError::VerificationsInProgress { .. } => {
                ExitCode::Credits
            }
            ApiError::RateLimited { .. } => ExitCode::RateLimited,
            ApiError::NotFound { .. } => ExitCode::NotFound,
            ApiError::Validation { .. }
            | ApiError::Invalid(_)
            | ApiError::EmptyBody
            | ApiError::EmptyPersonBody => ExitCode::Validation,
            ApiError::Server { .. }
            | ApiError::Timeout
            | ApiError::Network(_)
            | ApiError::Decode { .. }
            | ApiError::Unexpected { .. } => ExitCode::Network,
            ApiError::Config(_) => ExitCode::Usage,
        };
        CliError {
            code,
            message: e.user_message(),
        }
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> CliError {
        CliError::other(format!("writing the output: {e}"))
    }
}

type CliResult<T = ()> = Result<T, CliError>;

/// Options every record-printing command takes.
#[derive(Debug, Clone, clap::Args)]
pub struct OutArgs {
    /// Output format (default: a table on a terminal, JSON Lines otherwise).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Write the records to this file (atomically) instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Options every paid command takes.
#[derive(Debug, Clone, clap::Args)]
pub struct SpendArgs {
    /// Most credits this command may spend in any one pool without asking (default: config
    /// `confirm_above`). Above it, prospect asks on a terminal and refuses otherwise (exit 5).
    #[arg(long)]
    pub max_credits: Option<f64>,
    /// Buy again even what the store already holds.
    #[arg(long)]
    pub refresh: bool,
}

/// Companies or people.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Subject {
    /// Companies.
    Companies,
    /// People.
    People,
}

/// The five autocomplete kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AcKindArg {
    /// Company names and domains.
    Companies,
    /// Keywords.
    Keywords,
    /// Job titles.
    JobTitles,
    /// Locations.
    Locations,
    /// Skills.
    Skills,
}

/// What to export from the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportKind {
    /// Every stored company.
    Companies,
    /// Every stored person.
    People,
    /// Every revealed email and phone.
    Contacts,
}

/// Emails or phones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RevealKind {
    /// Emails (email credits).
    Emails,
    /// Phones (phone credits).
    Phones,
}

/// `enrich` targets.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum EnrichCmd {
    /// Enrich one company by domain (0.1 credit; 0 when stored).
    Company {
        /// The company's domain.
        #[arg(long)]
        domain: String,
        #[command(flatten)]
        spend: SpendArgs,
        #[command(flatten)]
        out: OutArgs,
    },
    /// Enrich one person (3 credits; 0 when stored) by id, email, professional-network URL,
    /// or name plus domain.
    Person {
        /// The service's person id.
        #[arg(long)]
        id: Option<String>,
        /// An email address.
        #[arg(long)]
        email: Option<String>,
        /// A professional-network profile URL or handle.
        #[arg(long)]
        linkedin: Option<String>,
        /// Full name (with --domain).
        #[arg(long, requires = "domain")]
        name: Option<String>,
        /// The employer's domain (with --name).
        #[arg(long)]
        domain: Option<String>,
        #[command(flatten)]
        spend: SpendArgs,
        #[command(flatten)]
        out: OutArgs,
    },
}

/// The headless commands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum Command {
    /// Run a search and print up to --limit results, paging with searchAfter.
    Search {
        /// Companies or people.
        subject: Subject,
        /// Use the legacy v2 endpoint instead of v3.
        #[arg(long)]
        v2: bool,
        /// A saved filter set (JSON file with the request body members).
        #[arg(long, conflicts_with = "body")]
        filters: Option<PathBuf>,
        /// The request body as JSON; `-` reads it from stdin.
        #[arg(long)]
        body: Option<String>,
        /// Most results to fetch (default: the body's size, else 50).
        #[arg(long)]
        limit: Option<u64>,
        #[command(flatten)]
        spend: SpendArgs,
        #[command(flatten)]
        out: OutArgs,
    },
    /// Type-ahead suggestions (0.1 credit).
    Autocomplete {
        /// Which autocomplete.
        kind: AcKindArg,
        /// The text typed so far.
        text: String,
        #[command(flatten)]
        spend: SpendArgs,
        #[command(flatten)]
        out: OutArgs,
    },
    /// Enrich one company or person.
    #[command(subcommand)]
    Enrich(EnrichCmd),
    /// Look up companies by domain or people by handle / service id, from arguments or a file.
    Lookup {
        /// Companies or people.
        subject: Subject,
        /// A file: one value per line, or a CSV with --column.
        #[arg(long)]
        file: Option<PathBuf>,
        /// The CSV column holding the values (name from the header, or a 1-based number).
        #[arg(long, requires = "file")]
        column: Option<String>,
        /// Values (domains; for people: handles/URLs, or ids with --ids).
        values: Vec<String>,
        /// For people: the values are service ids, not handles.
        #[arg(long)]
        ids: bool,
        #[command(flatten)]
        spend: SpendArgs,
        #[command(flatten)]
        out: OutArgs,
    },
    /// Reveal emails or phones of person ids; results arrive by webhook.
    Reveal {
        /// Emails or phones.
        kind: RevealKind,
        /// Person ids, comma-separated.
        #[arg(long, value_delimiter = ',', required = true)]
        ids: Vec<String>,
        /// Seconds to wait for the webhook deliveries (0: do not wait).
        #[arg(long, default_value_t = 180)]
        wait: u64,
        #[command(flatten)]
        spend: SpendArgs,
        #[command(flatten)]
        out: OutArgs,
    },
    /// Ask the service to gather data for domains (free).
    Warmup {
        /// Domains.
        #[arg(required = true)]
        domains: Vec<String>,
        #[command(flatten)]
        out: OutArgs,
    },
    /// The credit balance (free).
    Credits {
        #[command(flatten)]
        out: OutArgs,
    },
    /// The reference data: industries, technologies, regions, seniorities, departments (free).
    DataFields {
        #[command(flatten)]
        out: OutArgs,
    },
    /// Past searches kept in the store.
    History {
        /// How many, newest first.
        #[arg(long, default_value_t = 50)]
        limit: usize,
        #[command(flatten)]
        out: OutArgs,
    },
    /// Everything bought of one kind, from the store (free, no network).
    Export {
        /// Companies, people or contacts.
        kind: ExportKind,
        #[command(flatten)]
        out: OutArgs,
    },
    /// Print the curl command of a filter set (the token as $PROSPECT_API_TOKEN).
    Curl {
        /// The filter-set file.
        file: PathBuf,
    },
}

impl Command {
    fn needs_service(&self) -> bool {
        !matches!(
            self,
            Command::History { .. } | Command::Export { .. } | Command::Curl { .. }
        )
    }
}

/// Global CLI switches.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct CliFlags {
    /// No notices or progress on stderr.
    #[arg(long, short, global = true)]
    pub quiet: bool,
}

struct Ctx {
    settings: Settings,
    session: Option<Session>,
    target: Option<Target>,
    quiet: bool,
}

impl Ctx {
    fn session(&self) -> &Session {
        // Commands that need a service get one in `run` before they start.
        self.session
            .as_ref()
            .expect("session opened for this command")
    }

    fn note(&self, text: &str) {
        if !self.quiet && std::io::stderr().is_terminal() {
            eprintln!("{text}");
        }
    }

    /// The spend gate: states the estimate; above the limit in any pool, asks on a terminal
    /// and refuses otherwise.
    fn confirm(&self, what: &str, est: Cost, spend: &SpendArgs) -> CliResult {
        let limit = spend
            .max_credits
            .unwrap_or_else(|| self.settings.confirm_above());
        let words = spend::describe_estimate(&est);
        let above = spend::pools_above(&est, limit);
        if above.is_empty() {
            self.note(&format!("{what}: estimated {words}"));
            return Ok(());
        }
        let pools = above
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let interactive = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
        if interactive {
            eprint!("{what}: estimated {words}, above {limit} {pools} credits. Spend it? [y/N] ");
            let _ = std::io::stderr().flush();
            let mut answer = String::new();
            let _ = std::io::stdin().lock().read_line(&mut answer);
            if matches!(answer.trim(), "y" | "Y" | "yes") {
                return Ok(());
            }
        }
        Err(CliError {
            code: ExitCode::SpendRefused,
            message: format!(
                "{what}: estimated {words} is above --max-credits {limit} ({pools}); nothing was \
                 sent (raise --max-credits to allow it)"
            ),
        })
    }

    /// Says on stderr that an answer came from the store, and how old it is.
    fn note_stored(&self, stored_at: Option<chrono::DateTime<chrono::Utc>>) {
        if let Some(at) = stored_at {
            self.note(&format!(
                "from the store ({}), 0 credits; --refresh buys it again",
                spend::describe_age(chrono::Utc::now() - at)
            ));
        }
    }

    fn progress(&self, len: u64, what: &str) -> indicatif::ProgressBar {
        if self.quiet || !std::io::stderr().is_terminal() {
            return indicatif::ProgressBar::hidden();
        }
        let pb = indicatif::ProgressBar::new(len);
        pb.set_style(
            indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({eta})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        pb.set_message(what.to_string());
        pb
    }
}

/// How a front end gets a service: the real one from settings, or the embedded sandbox
/// (started by the caller, `main.rs`).
pub type StartSandbox =
    fn() -> std::pin::Pin<Box<dyn std::future::Future<Output = anyhow::Result<Target>> + Send>>;

/// Runs one command; returns its exit code after printing any error as one line.
pub async fn run(
    cmd: Command,
    flags: CliFlags,
    settings: Settings,
    start_sandbox: StartSandbox,
) -> ExitCode {
    let _guard = settings.init_logging();
    match run_inner(cmd, flags, settings, start_sandbox).await {
        Ok(()) => ExitCode::Ok,
        Err(e) => {
            tracing::error!(code = ?e.code, message = %e.message, "command failed");
            eprintln!("prospect: {}", crate::core::sanitize::sanitize(&e.message));
            e.code
        }
    }
}

async fn run_inner(
    cmd: Command,
    flags: CliFlags,
    settings: Settings,
    start_sandbox: StartSandbox,
) -> CliResult {
    let mut ctx = Ctx {
        settings,
        session: None,
        target: None,
        quiet: flags.quiet,
    };
    if cmd.needs_service() || matches!(cmd, Command::History { .. } | Command::Export { .. }) {
        let target = match ctx
            .settings
            .target()
            .map_err(|e| CliError::usage(e.to_string()))?
        {
            Some(t) => t,
            None if cmd.needs_service() => {
                if !ctx.quiet {
                    eprintln!("prospect: no API token set; using the embedded SANDBOX");
                }
                start_sandbox()
                    .await
                    .map_err(|e| CliError::other(format!("the sandbox did not start: {e}")))?
            }
            // The store of the embedded sandbox, without starting it.
            None => Target {
                base_url: String::new(),
                token: String::new(),
                sandbox: true,
            },
        };
        if cmd.needs_service() {
            ctx.session = Some(
                Session::open(&ctx.settings, &target)
                    .map_err(|e| CliError::usage(e.to_string()))?,
            );
        }
        ctx.target = Some(target);
    }
    match cmd {
        Command::Search {
            subject,
            v2,
            filters,
            body,
            limit,
            spend,
            out,
        } => search(&ctx, subject, v2, filters, body, limit, &spend, &out).await,
        Command::Autocomplete {
            kind,
            text,
            spend,
            out,
        } => autocomplete(&ctx, kind, &text, &spend, &out).await,
        Command::Enrich(e) => enrich(&ctx, e).await,
        Command::Lookup {
            subject,
            file,
            column,
            values,
            ids,
            spend,
            out,
        } => {
            let mut all = values;
            if let Some(f) = &file {
                all.extend(read_values(f, column.as_deref())?);
            }
            if all.is_empty() {
                return Err(CliError::usage("lookup: give values or --file"));
            }
            lookup(&ctx, subject, all, ids, &spend, &out).await
        }
        Command::Reveal {
            kind,
            ids,
            wait,
            spend,
            out,
        } => reveal(&ctx, kind, ids, wait, &spend, &out).await,
        Command::Warmup { domains, out } => {
            let r = ctx
                .session()
                .warmup(&WarmupCompaniesRequest { domains })
                .await?;
            let v = serde_json::to_value(&r).unwrap_or(Value::Null);
            write_pairs(&out, v)
        }
        Command::Credits { out } => {
            let b = ctx.session().balance().await?;
            let v = serde_json::to_value(&b).unwrap_or(Value::Null);
            write_pairs(&out, v)
        }
        Command::DataFields { out } => {
            let d = ctx.session().data_fields().await?;
            let format = Format::resolve(out.format, &out.out);
            let v = serde_json::to_value(&d).unwrap_or(Value::Null);
            if matches!(format, Format::Json | Format::Jsonl) {
                write_raw(&out, &v)
            } else {
                write_pairs(&out, v)
            }
        }
        Command::History { limit, out } => history(&ctx, limit, &out),
        Command::Export { kind, out } => export(&ctx, kind, &out),
        Command::Curl { file } => {
            let set =
                crate::core::filter_set::load(&file).map_err(|e| CliError::usage(e.to_string()))?;
            let base = ctx
                .settings
                .args
                .base_url
                .clone()
                .or(ctx.settings.config.base_url.clone())
                .unwrap_or_else(|| "$PROSPECT_BASE_URL".to_string());
            println!(
                "{}",
                crate::core::curl::curl_command(&base, set.endpoint, &set.body)
            );
            Ok(())
        }
    }
}

fn write_raw(out: &OutArgs, v: &Value) -> CliResult {
    let text = serde_json::to_string_pretty(v).unwrap_or_default() + "\n";
    match &out.out {
        Some(p) => crate::core::fsutil::write_atomic(
            p,
            text.as_bytes(),
            crate::core::fsutil::Access::Shared,
        )?,
        None => std::io::stdout().write_all(text.as_bytes())?,
    }
    Ok(())
}

/// Small answers (balance, warmup): one `key,value` row per top-level member, or the whole
/// object as one JSON record for jsonl/json.
fn write_pairs(out: &OutArgs, v: Value) -> CliResult {
    let format = Format::resolve(out.format, &out.out);
    if matches!(format, Format::Json | Format::Jsonl) {
        let text = serde_json::to_string(&v).unwrap_or_default() + "\n";
        return match &out.out {
            Some(p) => Ok(crate::core::fsutil::write_atomic(
                p,
                text.as_bytes(),
                crate::core::fsutil::Access::Shared,
            )?),
            None => Ok(std::io::stdout().write_all(text.as_bytes())?),
        };
    }
    let mut w = Writer::<Pair>::new(format, out.out.as_ref())?;
    if let Value::Object(m) = v {
        for (key, value) in m {
            match value {
                Value::Object(inner) => {
                    for (k, v) in inner {
                        w.write(&Pair {
                            key: format!("{key}.{k}"),
                            value: v,
                        })?;
                    }
                }
                value => w.write(&Pair { key, value })?,
            }
        }
    }
    w.finish()?;
    Ok(())
}

/// Reads values from a file: one per line (blank lines and `#` comments skipped), or the
/// column `column` (header name or 1-based number) of a CSV file.
fn read_values(path: &PathBuf, column: Option<&str>) -> CliResult<Vec<String>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::usage(format!("{}: {e}", path.display())))?;
    let Some(column) = column else {
        return Ok(text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect());
    };
    let mut rd = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(text.as_bytes());
    let headers = rd
        .headers()
        .map_err(|e| CliError::usage(format!("{}: {e}", path.display())))?
        .clone();
    let idx = match column.parse::<usize>() {
        Ok(n) if n >= 1 => n - 1,
        _ => headers
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(column.trim()))
            .ok_or_else(|| {
                CliError::usage(format!(
                    "{}: no column {column:?} (columns: {})",
                    path.display(),
                    headers.iter().collect::<Vec<_>>().join(", ")
                ))
            })?,
    };
    let mut out = Vec::new();
    for (i, rec) in rd.records().enumerate() {
        let rec =
            rec.map_err(|e| CliError::usage(format!("{} row {}: {e}", path.display(), i + 2)))?;
        if let Some(v) = rec.get(idx).map(str::trim).filter(|v| !v.is_empty()) {
            out.push(v.to_string());
        }
    }
    Ok(out)
}

/// Reads the search body from `--filters`, `--body JSON` or `--body -` (stdin).
fn search_body(
    filters: Option<PathBuf>,
    body: Option<String>,
) -> CliResult<(Option<Endpoint>, Value)> {
    if let Some(f) = filters {
        let set = crate::core::filter_set::load(&f).map_err(|e| CliError::usage(e.to_string()))?;
        return Ok((Some(set.endpoint), set.body));
    }
    let text = match body.as_deref() {
        None => "{}".to_string(),
        Some("-") => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| CliError::usage(format!("reading the body from stdin: {e}")))?;
            s
        }
        Some(s) => s.to_string(),
    };
    let v: Value = serde_json::from_str(&text).map_err(|e| {
        CliError::usage(format!(
            "the body is not JSON: line {}, column {}: {e}",
            e.line(),
            e.column()
        ))
    })?;
    if !v.is_object() {
        return Err(CliError::usage("the body must be a JSON object"));
    }
    Ok((None, v))
}

fn invalid(problems: Vec<ValidationError>) -> CliError {
    CliError::from(ApiError::Invalid(problems))
}

#[allow(clippy::too_many_arguments)]
async fn search(
    ctx: &Ctx,
    subject: Subject,
    v2: bool,
    filters: Option<PathBuf>,
    body: Option<String>,
    limit: Option<u64>,
    spend: &SpendArgs,
    out: &OutArgs,
) -> CliResult {
    let endpoint = match (subject, v2) {
        (Subject::Companies, false) => Endpoint::SearchCompaniesV3,
        (Subject::Companies, true) => Endpoint::SearchCompaniesV2,
        (Subject::People, false) => Endpoint::SearchPeopleV3,
        (Subject::People, true) => Endpoint::SearchPeopleV2,
    };
    let (file_endpoint, mut body) = search_body(filters, body)?;
    if let Some(fe) = file_endpoint
        && fe.search_subject() != endpoint.search_subject()
    {
        return Err(CliError::usage(format!(
            "the filter set is for {}, not {}",
            fe.path(),
            endpoint.path()
        )));
    }
    let limit = limit
        .or_else(|| body.get("size").and_then(Value::as_u64))
        .unwrap_or(50);
    if limit == 0 {
        return Err(CliError::usage("--limit must be at least 1"));
    }
    if let Value::Object(m) = &mut body {
        m.remove("searchAfter");
        m.remove("from");
    }
    // Validate the first page before anything is estimated or sent.
    let mut first_body = body.clone();
    first_body["size"] = Value::from(limit.min(SEARCH_PAGE));
    let first = build_search(endpoint, &first_body).map_err(invalid)?;
    let mut est_body = body.clone();
    est_body["size"] = Value::from(limit);
    let est = DEFAULT_PRICES.charge_for(endpoint, &max_quantities(endpoint, &est_body));
    ctx.confirm(
        &format!("search {} (up to {limit})", endpoint.path()),
        est,
        spend,
    )?;
    let format = Format::resolve(out.format, &out.out);
    let pb = ctx.progress(limit, "fetching");
    let pages = Pages {
        ctx,
        endpoint,
        body: &body,
        limit,
        first,
        pb: &pb,
    };
    let result = match subject {
        Subject::Companies => {
            pages
                .write(format, out, |r| match r {
                    SearchResponse::CompaniesV3(r) => (
                        r.companies
                            .into_iter()
                            .map(|c| CompanyOut {
                                company: c.company,
                                relevance: c.relevance,
                                score: None,
                            })
                            .collect(),
                        r.search_after,
                    ),
                    SearchResponse::CompaniesV2(r) => (
                        r.companies
                            .into_iter()
                            .map(|c| CompanyOut {
                                company: c.company,
                                relevance: None,
                                score: c.score,
                            })
                            .collect(),
                        r.search_after,
                    ),
                    _ => (Vec::new(), None),
                })
                .await
        }
        Subject::People => {
            pages
                .write(format, out, |r| match r {
                    SearchResponse::PeopleV3(r) => (r.people, r.search_after),
                    SearchResponse::PeopleV2(r) => (
                        r.people
                            .into_iter()
                            .map(|person| LookalikePerson {
                                person,
                                ..LookalikePerson::default()
                            })
                            .collect(),
                        r.search_after,
                    ),
                    _ => (Vec::new(), None),
                })
                .await
        }
    };
    pb.finish_and_clear();
    let (n, charged) = result?;
    ctx.note(&format!("{n} records; charged {}", charged.rounded()));
    Ok(())
}

/// Records per search page the CLI asks for (fewer requests against the 60-a-minute limit).
const SEARCH_PAGE: u64 = 500;

/// The pages of one search, fetched with `searchAfter` until `limit` records.
struct Pages<'a> {
    ctx: &'a Ctx,
    endpoint: Endpoint,
    body: &'a Value,
    limit: u64,
    first: crate::core::request::SearchRequest,
    pb: &'a indicatif::ProgressBar,
}

impl Pages<'_> {
    /// Fetches page after page through the session (each stored before it is written out),
    /// writes up to `limit` records of `split`'s type, and returns (records, charged).
    async fn write<T: Tabular>(
        self,
        format: Format,
        out: &OutArgs,
        split: impl Fn(SearchResponse) -> (Vec<T>, Option<String>),
    ) -> CliResult<(usize, Cost)> {
        let mut w = Writer::<T>::new(format, out.out.as_ref())?;
        let (mut req, mut page, mut got, mut charged) = (self.first, 0u32, 0u64, Cost::ZERO);
        loop {
            let (paid, _) = self.ctx.session().search(&req, page).await?;
            charged += paid.charged;
            let (items, next) = split(paid.value);
            let n = items.len() as u64;
            for it in items.iter().take((self.limit - got) as usize) {
                w.write(it)?;
            }
            got = (got + n).min(self.limit);
            self.pb.set_position(got);
            if got >= self.limit || n == 0 || next.is_none() {
                break;
            }
            page += 1;
            let mut b = self.body.clone();
            b["size"] = Value::from((self.limit - got).min(SEARCH_PAGE));
            req = build_search(self.endpoint, &b)
                .map_err(invalid)?
                .with_search_after(next);
        }
        Ok((w.finish()?, charged))
    }
}

async fn autocomplete(
    ctx: &Ctx,
    kind: AcKindArg,
    text: &str,
    spend: &SpendArgs,
    out: &OutArgs,
) -> CliResult {
    use crate::core::request::{AutocompleteResponse as A, build_autocomplete};
    let endpoint = match kind {
        AcKindArg::Companies => Endpoint::AutocompleteCompanies,
        AcKindArg::Keywords => Endpoint::AutocompleteKeywords,
        AcKindArg::JobTitles => Endpoint::AutocompleteJobTitles,
        AcKindArg::Locations => Endpoint::AutocompleteLocations,
        AcKindArg::Skills => Endpoint::AutocompleteSkills,
    };
    let req = build_autocomplete(endpoint, text, crate::api::client::SearchSubject::Companies)
        .map_err(invalid)?;
    ctx.confirm(
        &format!("autocomplete {}", endpoint.path()),
        crate::api::cost::estimate_endpoint(endpoint),
        spend,
    )?;
    let answer = ctx.session().suggest(&req).await?.value;
    let pairs: Vec<Pair> = match answer {
        A::Companies(r) => r
            .companies
            .into_iter()
            .map(|c| Pair {
                key: c.domain,
                value: c.name.map(Value::from).unwrap_or(Value::Null),
            })
            .collect(),
        A::Keywords(r) => strings(r.keywords),
        A::JobTitles(r) => strings(r.job_titles),
        A::Skills(r) => strings(r.skills),
        A::Locations(r) => r
            .locations
            .into_iter()
            .map(|l| Pair {
                key: l.name,
                value: serde_json::json!({
                    "countryCode": l.country_code,
                    "type": l.kind,
                    "parentName": l.parent_name,
                }),
            })
            .collect(),
    };
    let mut w = Writer::<Pair>::new(Format::resolve(out.format, &out.out), out.out.as_ref())?;
    for p in &pairs {
        w.write(p)?;
    }
    w.finish()?;
    Ok(())
}

fn strings(items: Vec<String>) -> Vec<Pair> {
    items
        .into_iter()
        .map(|s| Pair {
            key: s,
            value: Value::Null,
        })
        .collect()
}

/// Writes one record in the chosen format.
fn write_one<T: Tabular>(out: &OutArgs, rec: &T) -> CliResult {
    let mut w = Writer::<T>::new(Format::resolve(out.format, &out.out), out.out.as_ref())?;
    w.write(rec)?;
    w.finish()?;
    Ok(())
}

fn freshness(spend: &SpendArgs) -> Freshness {
    if spend.refresh {
        Freshness::Refresh
    } else {
        Freshness::Stored
    }
}

async fn enrich(ctx: &Ctx, cmd: EnrichCmd) -> CliResult {
    let s = ctx.session();
    match cmd {
        EnrichCmd::Company { domain, spend, out } => {
            let req = EnrichCompanyRequest {
                company: Some(crate::api::types::CompanyMatch {
                    domain: Some(domain.clone()),
                    ..Default::default()
                }),
                ..EnrichCompanyRequest::default()
            };
            crate::api::client::check(&req)?;
            let stored = !spend.refresh && s.store_has_company(&domain).await;
            let est = if stored {
                Cost::ZERO
            } else {
                crate::api::cost::estimate(&req)
            };
            ctx.confirm("enrich company", est, &spend)?;
            let paid = s.enrich_company(&req, freshness(&spend)).await?;
            ctx.note_stored(paid.stored_at);
            match paid.value {
                Enriched::Found(r) => write_one(
                    &out,
                    &CompanyOut {
                        company: r.company,
                        relevance: None,
                        score: None,
                    },
                ),
                Enriched::Gathering { detail } => Err(CliError {
                    code: ExitCode::NotFound,
                    message: format!("{domain}: {detail} (try again in a few minutes)"),
                }),
            }
        }
        EnrichCmd::Person {
            id,
            email,
            linkedin,
            name,
            domain,
            spend,
            out,
        } => {
            if id.is_none() && email.is_none() && linkedin.is_none() && name.is_none() {
                return Err(CliError::usage(
                    "enrich person: give --id, --email, --linkedin, or --name with --domain",
                ));
            }
            let req = EnrichPersonRequest {
                person: crate::api::types::PersonMatch {
                    id,
                    email,
                    linkedin,
                    name,
                    ..Default::default()
                },
                company: domain.map(|d| crate::api::types::CompanyMatch {
                    domain: Some(d),
                    ..Default::default()
                }),
                ..EnrichPersonRequest::default()
            };
            crate::api::client::check(&req)?;
            ctx.confirm("enrich person", crate::api::cost::estimate(&req), &spend)?;
            let paid = s.enrich_person(&req, freshness(&spend)).await?;
            ctx.note_stored(paid.stored_at);
            match paid.value {
                Enriched::Found(r) => write_one(
                    &out,
                    &LookalikePerson {
                        person: r.person,
                        ..LookalikePerson::default()
                    },
                ),
                Enriched::Gathering { detail } => Err(CliError {
                    code: ExitCode::NotFound,
                    message: format!("{detail} (try again in a few minutes)"),
                }),
            }
        }
    }
}

async fn lookup(
    ctx: &Ctx,
    subject: Subject,
    values: Vec<String>,
    ids: bool,
    spend: &SpendArgs,
    out: &OutArgs,
) -> CliResult {
    let s = ctx.session();
    let format = Format::resolve(out.format, &out.out);
    let fresh = freshness(spend);
    let stamp = |at: Option<chrono::DateTime<chrono::Utc>>| at.map(|t| t.to_rfc3339());
    match subject {
        Subject::Companies => {
            let to_send = if spend.refresh {
                values.len()
            } else {
                values.len() - s.stored_company_count(&values).await
            };
            let est = lookup_cost(Endpoint::LookupCompanies, to_send);
            ctx.confirm(
                &format!("lookup of {} domains ({to_send} not stored)", values.len()),
                est,
                spend,
            )?;
            let pb = ctx.progress(to_send as u64, "looking up");
            let l = s.lookup_companies(&values, fresh).await;
            pb.finish_and_clear();
            let l = l?;
            let mut w = Writer::<LookupOut<Company>>::new(format, out.out.as_ref())?;
            for e in l.entries {
                w.write(&LookupOut {
                    query: e.key,
                    found: e.record.is_some(),
                    stored_at: stamp(e.stored_at),
                    record: e.record,
                })?;
            }
            w.finish()?;
            ctx.note(&format!(
                "{} from the store, {} sent; charged {}",
                l.from_store,
                l.sent,
                l.charged.rounded()
            ));
        }
        Subject::People => {
            let (handles, service_ids) = if ids {
                (Vec::new(), values)
            } else {
                (values, Vec::new())
            };
            let n = handles.len() + service_ids.len();
            let est = lookup_cost(Endpoint::LookupPeople, n);
            ctx.confirm(&format!("lookup of {n} people"), est, spend)?;
            let l = s.lookup_people(&handles, &service_ids, fresh).await?;
            let mut w = Writer::<LookupOut<LookalikePerson>>::new(format, out.out.as_ref())?;
            for e in l.entries {
                w.write(&LookupOut {
                    query: e.key,
                    found: e.record.is_some(),
                    stored_at: stamp(e.stored_at),
                    record: e.record,
                })?;
            }
            w.finish()?;
            ctx.note(&format!(
                "{} from the store, {} sent; charged {}",
                l.from_store,
                l.sent,
                l.charged.rounded()
            ));
        }
    }
    Ok(())
}

async fn reveal(
    ctx: &Ctx,
    kind: RevealKind,
    ids: Vec<String>,
    wait: u64,
    spend: &SpendArgs,
    out: &OutArgs,
) -> CliResult {
    let s = ctx.session();
    let (ck, event) = match kind {
        RevealKind::Emails => (ContactKind::Email, WebhookEvent::RevealEmails),
        RevealKind::Phones => (ContactKind::Phone, WebhookEvent::RevealPhones),
    };
    let ids: Vec<String> = ids
        .into_iter()
        .map(|i| i.trim().to_string())
        .filter(|i| !i.is_empty())
        .collect();
    if ids.is_empty() {
        return Err(CliError::usage("reveal: --ids is empty"));
    }
    let stored = if spend.refresh {
        HashMap::new()
    } else {
        s.stored_contacts(&ids, ck).await
    };
    let to_send = ids.iter().filter(|i| !stored.contains_key(*i)).count();
    ctx.confirm(
        &format!(
            "reveal {} of {} people ({to_send} not stored)",
            ck.as_str(),
            ids.len()
        ),
        reveal_cost(ck, to_send),
        spend,
    )?;
    let target = ctx.target.clone().unwrap_or(Target {
        base_url: String::new(),
        token: String::new(),
        sandbox: true,
    });
    let receiver = if to_send > 0 {
        let cfg = crate::core::webhooks::receiver_config(&ctx.settings, &target)
            .map_err(|e| CliError::usage(e.to_string()))?;
        Some(
            crate::core::webhooks::Receiver::start(cfg, s.clone())
                .await
                .map_err(|e| CliError::other(e.to_string()))?,
        )
    } else {
        None
    };
    let url = receiver
        .as_ref()
        .map(|r| r.url_for(event))
        .unwrap_or_default();
    let r = s.reveal(ck, &ids, &url, freshness(spend)).await?;
    if !r.sent.is_empty() && wait > 0 {
        let pb = ctx.progress(r.sent.len() as u64, "waiting for the webhook");
        let deadline = Instant::now() + Duration::from_secs(wait);
        loop {
            let got = s.stored_contacts(&r.sent, ck).await.len();
            pb.set_position(got as u64);
            if got >= r.sent.len() || Instant::now() >= deadline {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        pb.finish_and_clear();
    }
    let arrived = s.stored_contacts(&r.sent, ck).await;
    let mut w = Writer::<ContactOut>::new(Format::resolve(out.format, &out.out), out.out.as_ref())?;
    for id in &ids {
        if let Some(c) = r.from_store.get(id) {
            w.write(&ContactOut::new(c, true))?;
        } else if let Some(c) = arrived.get(id) {
            w.write(&ContactOut::new(c, false))?;
        }
    }
    w.finish()?;
    let missing = r.sent.len() - arrived.len().min(r.sent.len());
    ctx.note(&format!(
        "{} from the store, {} sent, {} arrived",
        r.from_store.len(),
        r.sent.len(),
        arrived.len()
    ));
    if missing > 0 {
        return Err(CliError {
            code: ExitCode::Network,
            message: format!(
                "{missing} of {} results had not arrived after {wait} s; they are stored when \
                 they arrive while prospect runs (run the same reveal again later: it costs \
                 nothing for what arrived)",
                r.sent.len()
            ),
        });
    }
    Ok(())
}

fn history(ctx: &Ctx, limit: usize, out: &OutArgs) -> CliResult {
    let Some(path) = ctx
        .target
        .as_ref()
        .and_then(|t| ctx.settings.store_path(t.sandbox))
    else {
        return Err(CliError::usage("no data directory: pass --data-dir"));
    };
    let store = crate::store::Store::open(&path).map_err(|e| CliError::usage(e.to_string()))?;
    let searches = store
        .searches(limit)
        .map_err(|e| CliError::other(e.to_string()))?;
    let mut w = Writer::<Pair>::new(Format::resolve(out.format, &out.out), out.out.as_ref())?;
    for s in searches {
        w.write(&Pair {
            key: format!("{} {}", s.last_run_at.to_rfc3339(), s.endpoint),
            value: serde_json::json!({
                "id": s.id.0,
                "body": s.body,
                "pages": s.pages,
                "total": s.total,
            }),
        })?;
    }
    w.finish()?;
    Ok(())
}

fn export(ctx: &Ctx, kind: ExportKind, out: &OutArgs) -> CliResult {
    let Some(path) = ctx
        .target
        .as_ref()
        .and_then(|t| ctx.settings.store_path(t.sandbox))
    else {
        return Err(CliError::usage("no data directory: pass --data-dir"));
    };
    let store = crate::store::Store::open(&path).map_err(|e| CliError::usage(e.to_string()))?;
    let format = Format::resolve(out.format, &out.out);
    let fail = |e: crate::store::StoreError| CliError::other(e.to_string());
    let n = match kind {
        ExportKind::Companies => {
            let mut w = Writer::<CompanyOut>::new(format, out.out.as_ref())?;
            store
                .for_each_company(|c| {
                    w.write(&CompanyOut {
                        company: c.value,
                        relevance: None,
                        score: None,
                    })
                })
                .map_err(fail)?;
            w.finish()?
        }
        ExportKind::People => {
            let mut w = Writer::<LookalikePerson>::new(format, out.out.as_ref())?;
            store
                .for_each_person(|p| {
                    w.write(&LookalikePerson {
                        person: p.value,
                        ..LookalikePerson::default()
                    })
                })
                .map_err(fail)?;
            w.finish()?
        }
        ExportKind::Contacts => {
            let mut w = Writer::<ContactOut>::new(format, out.out.as_ref())?;
            store
                .for_each_contact(|c| w.write(&ContactOut::new(&c, true)))
                .map_err(fail)?;
            w.finish()?
        }
    };
    ctx.note(&format!("{n} records from {}", path.display()));
    Ok(())
}
