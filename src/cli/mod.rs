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

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use serde_json::Value;

use crate::api::client::{Endpoint, Enriched, SearchSubject};
use crate::api::cost::Cost;
use crate::api::error::ApiError;
use crate::api::types::webhooks::WebhookEvent;
use crate::api::types::*;
use crate::core::config::{Settings, Target};
use crate::core::engine::{self, Action, KeySource, Plan, PlanError, RunError, RunReport};
use crate::core::export::{CompanyOut, ContactOut, Format, LookupOut, Pair, Tabular, Writer};
use crate::core::request::SearchResponse;
use crate::core::session::{Freshness, Session};
use crate::core::spend;
use crate::store::ListKind;
use crate::store::{ContactKind, JobId};

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
    /// The network or the service failed (timeouts, 5xx, unreadable answers). A paid request
    /// that may have been charged is not resent: run the same command again, and what was
    /// kept is not bought again.
    Network = 9,
    /// A paid answer did not read whole: what read was written and stored, the raw answer is
    /// kept in the store, and the message names the field that failed.
    Partial = 10,
    /// The store could not write a paid answer (busy, disk full, read-only): it is in the
    /// recovery file the message names, imported at the next start. Nothing was lost.
    Recovery = 11,
    /// Stopped by Ctrl-C (SIGINT) after the paid calls in flight were kept; the same command
    /// run again buys only the rest.
    Interrupted = 130,
    /// Stopped by SIGTERM, as [`ExitCode::Interrupted`].
    Terminated = 143,
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
            | ApiError::EmptyPersonBody
            | ApiError::SegmentationNotReady => ExitCode::Validation,
            ApiError::Server { .. }
            | ApiError::Timeout
            | ApiError::Network(_)
            | ApiError::Unexpected { .. }
            | ApiError::Redirected { .. } => ExitCode::Network,
            ApiError::Config(_) => ExitCode::Usage,
            ApiError::Refused(_) => ExitCode::SpendRefused,
            // A 2xx answer that did not read (issue 34): its raw bytes are kept.
            ApiError::Decode { .. } => ExitCode::Partial,
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

/// `store` subcommands (issue 17).
#[derive(Debug, Clone, clap::Subcommand)]
pub enum StoreCmd {
    /// Open the store (`--store-url`, `PROSPECT_STORE_URL`, config `store_url`, else the data
    /// directory's file) and bring its schema up to date; prints where it is and its schema.
    Migrate {
        #[command(flatten)]
        out: OutArgs,
    },
    /// The team's daily budget, kept in the store itself so every member's plans obey it
    /// (credits per UTC day, per pool, against everything spent on this store today). Without
    /// options, prints it; with them, sets those pools; `--clear` removes it.
    Budget {
        /// Standard credits a day.
        #[arg(long, value_name = "CREDITS")]
        standard: Option<f64>,
        /// Email credits a day.
        #[arg(long, value_name = "CREDITS")]
        email: Option<f64>,
        /// Phone credits a day.
        #[arg(long, value_name = "CREDITS")]
        phone: Option<f64>,
        /// Remove every limit (before setting any given).
        #[arg(long)]
        clear: bool,
        #[command(flatten)]
        out: OutArgs,
    },
    /// Copy one store into another, merging without duplicates (run twice, the second adds
    /// nothing): e.g. a member's file into the team's PostgreSQL ledger. Claims and jobs are
    /// not copied.
    Copy {
        /// The store to read: `sqlite://PATH` or `postgres://USER@HOST:PORT/DB`.
        #[arg(long, value_name = "URL")]
        from: String,
        /// The store to write (made and migrated when new).
        #[arg(long, value_name = "URL")]
        to: String,
        #[command(flatten)]
        out: OutArgs,
    },
}

/// `list` subcommands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum ListCmd {
    /// Create a list (an existing one of that name is kept).
    Create {
        /// Its name.
        name: String,
        /// Accounts (companies by domain) or contacts (people by id).
        #[arg(long, value_enum, default_value = "accounts")]
        kind: ListKind,
    },
    /// Add members: domains to an account list, person ids to a contact list (the list is
    /// created when missing: accounts for --domains, contacts for --ids).
    Add {
        /// The list.
        name: String,
        /// Members as arguments; `-` reads them from stdin, one per line.
        values: Vec<String>,
        /// Domains, comma-separated.
        #[arg(long, value_delimiter = ',')]
        domains: Vec<String>,
        /// Person ids, comma-separated.
        #[arg(long, value_delimiter = ',')]
        ids: Vec<String>,
        /// A file of members, one per line (or a CSV column with --column).
        #[arg(long)]
        file: Option<PathBuf>,
        /// The CSV column holding the members (name from the header, or a 1-based number).
        #[arg(long, requires = "file")]
        column: Option<String>,
    },
    /// The members with what the store holds of them (records, revealed contacts, employers).
    Show {
        /// The list.
        name: String,
        #[command(flatten)]
        out: OutArgs,
    },
    /// The members as `show` gives them, or in a CRM's import layout with --preset.
    Export {
        /// The list.
        name: String,
        #[command(flatten)]
        out: OutArgs,
        #[command(flatten)]
        crm: CrmArgs,
    },
    /// Every list with its kind and member count.
    Ls {
        #[command(flatten)]
        out: OutArgs,
    },
    /// Delete a list (its companies and people stay stored).
    Rm {
        /// The list.
        name: String,
    },
}

/// `suppress` subcommands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum SuppressCmd {
    /// Add the domains, emails and profile URLs of a HubSpot or Salesforce export CSV (found
    /// by their usual column names) or of a plain list (one a line) to a category.
    Import {
        /// The CSV or list file.
        file: PathBuf,
        /// The category they go in.
        #[arg(long, value_enum)]
        category: crate::core::suppress::Category,
    },
    /// Each category with its count of domains, emails, handles and person ids.
    List {
        #[command(flatten)]
        out: OutArgs,
    },
    /// Remove every entry of a category.
    Clear {
        /// The category to empty.
        #[arg(long, value_enum)]
        category: crate::core::suppress::Category,
    },
}

/// The CRM layout of an export (`crate::core::crm`).
#[derive(Debug, Clone, clap::Args)]
pub struct CrmArgs {
    /// Write a CSV in a CRM's import layout: its column names, one row per entity deduped by
    /// the CRM's key (domain for companies, email for contacts and leads). Implies
    /// `--format csv`.
    #[arg(long, value_enum)]
    pub preset: Option<crate::core::crm::Preset>,
    /// Which people to keep by their email's verification status (default: verified+catchAll
    /// for hubspot-contacts and salesforce-leads, all otherwise).
    #[arg(long, value_enum)]
    pub emails: Option<crate::core::crm::EmailFilter>,
}

/// Options every paid command takes.
#[derive(Debug, Clone, clap::Args)]
pub struct SpendArgs {
    /// Most credits this command may spend in any one pool without asking (default: config
    /// `confirm_above`); a finite number ≥ 0. Above it, prospect asks on a terminal and
    /// refuses otherwise (exit 5).
    #[arg(long, value_parser = parse_credits)]
    pub max_credits: Option<f64>,
    /// Buy again even what the store already holds (a search bought within
    /// `search_fresh_for` too).
    #[arg(long)]
    pub refresh: bool,
    /// Print the plan (owned, to buy per pool, requests, ETA) and send nothing paid; as JSON
    /// with `--format json`.
    #[arg(long)]
    pub dry_run: bool,
}

/// `--max-credits`: a finite number of credits ≥ 0.
fn parse_credits(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!(
            "{text:?} is not a number of credits (a finite number, 0 or more)"
        )),
    }
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
    /// The records of one stored search (`export search ID`), contacts joined.
    Search,
    /// Every stored company.
    Companies,
    /// Every stored person.
    People,
    /// Every revealed email and phone.
    Contacts,
}

/// What `history` does besides listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HistoryAction {
    /// Print the records of one stored search again.
    Show,
}

/// Emails or phones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RevealKind {
    /// Emails (email credits).
    Emails,
    /// Phones (phone credits).
    Phones,
}

/// Seconds `enrich companies|people` and `reveal` wait for their webhook deliveries unless
/// `--wait SECS` says otherwise (also what `--wait` alone means), and `resume` waits: 180.
const WEBHOOK_WAIT: &str = "180";

/// [`WEBHOOK_WAIT`] as a number (read when compiling).
const WEBHOOK_WAIT_SECS: u64 = match u64::from_str_radix(WEBHOOK_WAIT, 10) {
    Ok(secs) => secs,
    Err(_) => panic!("WEBHOOK_WAIT is a number of seconds"),
};

/// What a batch enrichment (`enrich companies`, `enrich people`) asks for, and how long it
/// waits for the webhook.
#[derive(Debug, Clone, clap::Args)]
pub struct BatchArgs {
    /// A file: one item per line (a domain; a person), or a CSV with --column; `-` reads
    /// stdin.
    #[arg(long)]
    file: Option<PathBuf>,
    /// The CSV column holding the items (name from the header, or a 1-based number).
    #[arg(long, requires = "file")]
    column: Option<String>,
    /// Items: domains; for people, ids, profile URLs or emails.
    values: Vec<String>,
    /// The members of a list (`prospect list`): an account list's domains, a contact list's
    /// person ids.
    #[arg(long, conflicts_with_all = ["file", "values"])]
    list: Option<String>,
    /// Seconds to wait for the webhook deliveries (0: do not wait); `--wait` alone waits the
    /// default.
    #[arg(long, default_value = WEBHOOK_WAIT, num_args = 0..=1, default_missing_value = WEBHOOK_WAIT, value_name = "SECS")]
    wait: u64,
    #[command(flatten)]
    spend: SpendArgs,
    #[command(flatten)]
    out: OutArgs,
}

/// The company domains of a `segment` command: values, `--domains`, a file, or a list.
#[derive(Debug, Clone, clap::Args)]
pub struct DomainArgs {
    /// Domains, comma-separated (or give them as values).
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["file", "list"])]
    domains: Vec<String>,
    /// A file: one domain a line, or a CSV with --column; `-` reads stdin.
    #[arg(long)]
    file: Option<PathBuf>,
    /// The CSV column holding the domains (name from the header, or a 1-based number).
    #[arg(long, requires = "file")]
    column: Option<String>,
    /// The members of an account list (`prospect list`).
    #[arg(long, conflicts_with_all = ["file", "values"])]
    list: Option<String>,
    /// Domains, as values.
    values: Vec<String>,
}

/// `segment` subcommands: ICP segmentation (openapi.json `/v2/segmentation…`; issue 18).
#[derive(Debug, Clone, clap::Subcommand)]
pub enum SegmentCmd {
    /// Segment company domains (your customers) by their shared traits: 0.1 credit a distinct
    /// domain, 0 when the same domains were segmented before. Prints the segmentation's id,
    /// or with --wait its segments.
    Create {
        #[command(flatten)]
        from: DomainArgs,
        /// Features to group by, comma-separated (`industries,technologies,company_size`, …);
        /// default: industries, technologies, company_size, primary_country, keywords,
        /// year_founded, headcount_growth_12m_percentage.
        #[arg(long, value_delimiter = ',')]
        features: Vec<String>,
        /// Bias toward fewer (negative) or more (positive) segments than the data suggests.
        #[arg(long, allow_hyphen_values = true)]
        segments_mode: Option<i64>,
        /// Good-fit domains, comma-separated: the segments lean toward them.
        #[arg(long, value_delimiter = ',')]
        positive: Vec<String>,
        /// Poor-fit domains, comma-separated: the segments lean away from them.
        #[arg(long, value_delimiter = ',')]
        negative: Vec<String>,
        /// Wait up to SECS (default 120) for the segments and print them.
        #[arg(long, num_args = 0..=1, default_missing_value = "120", value_name = "SECS")]
        wait: Option<u64>,
        #[command(flatten)]
        spend: SpendArgs,
        #[command(flatten)]
        out: OutArgs,
    },
    /// A segmentation's segments (free; kept in the store): name, companies, traits, lookalike
    /// count. Without the service, or while the service computes it again, the last answer
    /// the store kept.
    Show {
        /// The segmentation id.
        id: i64,
        /// Seconds to wait while it is in progress (0: do not wait).
        #[arg(long, default_value_t = 30, value_name = "SECS")]
        wait: u64,
        #[command(flatten)]
        out: OutArgs,
    },
    /// The segmentations in the store, newest first (free, no network).
    List {
        #[command(flatten)]
        out: OutArgs,
    },
    /// Mark domains a good (--positive) or poor (--negative) fit: later attributions lean
    /// toward or away from them (free).
    Mark {
        /// The segmentation id.
        id: i64,
        /// Good-fit domains, comma-separated.
        #[arg(long, value_delimiter = ',', required_unless_present = "negative")]
        positive: Vec<String>,
        /// Poor-fit domains, comma-separated.
        #[arg(long, value_delimiter = ',')]
        negative: Vec<String>,
    },
    /// Attribute domains to the closest segment with a 0–1 fit score (free; null below the
    /// service's threshold), in input order.
    Attribute {
        /// The segmentation id.
        id: i64,
        #[command(flatten)]
        from: DomainArgs,
        #[command(flatten)]
        out: OutArgs,
    },
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
    /// Enrich a batch of companies by domain (0.1 credit per company found; 0 for those
    /// stored): sent in batches of up to 10,000, the companies arrive by webhook.
    Companies(BatchArgs),
    /// Enrich a batch of people (3 credits per person found; 0 for those stored): sent in
    /// batches of up to 10,000, the people arrive by webhook. One person a line: a service id,
    /// a professional-network URL, an email, or a JSON object of match members
    /// (`{"name": …, "email": …}` or `{"person": {…}, "company": {"domain": …}}`).
    People(BatchArgs),
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
        subject: SearchSubject,
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
    /// ICP segmentation: group your customers' domains into segments, read them, mark good
    /// and poor fits, and attribute other domains to the closest segment.
    #[command(subcommand)]
    Segment(SegmentCmd),
    /// Look up companies by domain or people by handle / service id, from arguments or a file.
    Lookup {
        /// Companies or people.
        subject: SearchSubject,
        /// A file: one value per line, or a CSV with --column; `-` reads stdin. Read as a
        /// stream (at most 256 MiB, lines of at most 4 KiB, 5,000,000 keys).
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
        /// The members of a list (`prospect list`): an account list's domains, or a contact
        /// list's person ids (implies --ids); those stored already cost 0.
        #[arg(long, conflicts_with_all = ["file", "values"])]
        list: Option<String>,
        #[command(flatten)]
        spend: SpendArgs,
        #[command(flatten)]
        out: OutArgs,
    },
    /// Reveal emails or phones of person ids; results arrive by webhook.
    Reveal {
        /// Emails or phones.
        kind: RevealKind,
        /// Person ids, comma-separated; `-` reads them from stdin, one per line.
        #[arg(long, value_delimiter = ',', required_unless_present_any = ["ids_file", "list"])]
        ids: Vec<String>,
        /// A file of person ids, one per line (UTF-8, BOM and CRLF accepted).
        #[arg(long, conflicts_with = "ids")]
        ids_file: Option<PathBuf>,
        /// The members of a contact list (`prospect list`): those revealed already cost 0.
        #[arg(long, conflicts_with_all = ["ids", "ids_file"])]
        list: Option<String>,
        /// Seconds to wait for the webhook deliveries (0: do not wait); `--wait` alone waits the
        /// default.
        #[arg(long, default_value = WEBHOOK_WAIT, num_args = 0..=1, default_missing_value = WEBHOOK_WAIT, value_name = "SECS")]
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
    /// Past searches kept in the store; with `--spend`, what was spent: every purchase and
    /// every webhook delivery (reveals, batch enrichments) with its credits per pool.
    History {
        /// `show ID`: print the records of stored search ID again (free, contacts joined).
        #[arg(value_enum)]
        action: Option<HistoryAction>,
        /// The search id (from `prospect history`), with `show`.
        id: Option<i64>,
        /// How many, newest first.
        #[arg(long, default_value_t = 50)]
        limit: usize,
        /// List what was spent (purchases and webhook deliveries, with their credits and who
        /// bought) instead of the searches.
        #[arg(long)]
        spend: bool,
        /// Only what team member NAME bought (config `user`, else the OS user name, as each
        /// member's prospect records it); implies `--spend`.
        #[arg(long, value_name = "NAME")]
        user: Option<String>,
        #[command(flatten)]
        out: OutArgs,
    },
    /// Everything bought of one kind, from the store (free, no network); with `--preset`, as
    /// a CSV a CRM imports without mapping columns.
    Export {
        /// Companies, people or contacts; or `search ID`, the records of a stored search.
        kind: ExportKind,
        /// The search id (from `prospect history`), with `search`.
        id: Option<i64>,
        #[command(flatten)]
        out: OutArgs,
        #[command(flatten)]
        crm: CrmArgs,
    },
    /// Print the curl command of a filter set (the token as $PROSPECT_API_TOKEN).
    Curl {
        /// The filter-set file.
        file: PathBuf,
    },
    /// Named account and contact lists, kept in the store (free, no network); act on one with
    /// `lookup … --list NAME` or `reveal … --list NAME`.
    #[command(subcommand)]
    List(ListCmd),
    /// The store itself: migrate it, or copy one store into another (free, no network).
    #[command(subcommand)]
    Store(StoreCmd),
    /// Suppression lists: customers, open deals, do-not-contact people and competitors are
    /// excluded from every search and refused by every paid call (free, no network).
    #[command(subcommand)]
    Suppress(SuppressCmd),
    /// Paid actions recorded in the store: those not done (interrupted by a kill, a crash or
    /// Ctrl-C, or failed), or all with --all.
    Jobs {
        /// List every job, done ones too.
        #[arg(long)]
        all: bool,
        /// How many, newest first.
        #[arg(long, default_value_t = 50)]
        limit: usize,
        #[command(flatten)]
        out: OutArgs,
    },
    /// Run a job again: only what it has not bought yet is bought.
    Resume {
        /// The job id (from `prospect jobs`).
        id: i64,
        #[command(flatten)]
        spend: SpendArgs,
        #[command(flatten)]
        out: OutArgs,
    },
}

impl Command {
    /// `true` for the commands that can spend credits (they stop gracefully on a signal).
    fn is_paid(&self) -> bool {
        matches!(
            self,
            Command::Search { .. }
                | Command::Autocomplete { .. }
                | Command::Enrich(_)
                | Command::Segment(SegmentCmd::Create { .. })
                | Command::Lookup { .. }
                | Command::Reveal { .. }
                | Command::Resume { .. }
        )
    }

    fn needs_service(&self) -> bool {
        !matches!(
            self,
            Command::History { .. }
                | Command::Export { .. }
                | Command::Curl { .. }
                | Command::Jobs { .. }
                | Command::Suppress(_)
                | Command::List(_)
                | Command::Store(_)
                | Command::Segment(SegmentCmd::List { .. })
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
    /// Cancelled on the first SIGINT / SIGTERM: no new paid request starts, those in flight
    /// are awaited and kept.
    stop: CancellationToken,
    /// The signal that stopped the command (2 or 15); 0 when none.
    signal: Arc<AtomicI32>,
    /// A FIFO or device `--out`, held open from its check until the command ends.
    held_out: std::sync::Mutex<Option<std::fs::File>>,
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

    /// Checks `--out` before anything is paid (issue 34): a dangling link, a missing folder or
    /// a folder is a usage error; a FIFO or device is opened here, waiting for its reader
    /// until a signal stops the command (exit 130 / 143, nothing sent), and held open so the
    /// writer's own open does not block.
    async fn check_out(&self, path: &std::path::Path) -> CliResult {
        use crate::core::fsutil::{Destination, check_destination};
        if check_destination(path).map_err(|e| CliError::usage(e.to_string()))?
            != Destination::Stream
        {
            return Ok(());
        }
        let p = path.to_path_buf();
        let open =
            tokio::task::spawn_blocking(move || std::fs::OpenOptions::new().write(true).open(&p));
        tokio::select! {
            opened = open => {
                let f = opened
                    .map_err(|e| CliError::other(e.to_string()))?
                    .map_err(|e| CliError::usage(format!("{}: {e}", path.display())))?;
                if let Ok(mut g) = self.held_out.lock() {
                    *g = Some(f);
                }
                Ok(())
            }
            _ = self.stop.cancelled() => Err(CliError {
                code: if self.signal.load(Ordering::SeqCst) == 15 {
                    ExitCode::Terminated
                } else {
                    ExitCode::Interrupted
                },
                message: format!(
                    "stopped while {} had no reader; nothing was sent",
                    path.display()
                ),
            }),
        }
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

    /// The spend engine's plan of `action`, shown and gated: with `--dry-run` it is printed
    /// (JSON with `--format json`) and `Ok(None)` is returned, nothing paid sent; a plan the
    /// engine refuses (budget, daily allowance) is exit 5; above `--max-credits` it asks on a
    /// terminal and refuses otherwise.
    async fn plan(
        &self,
        action: &Action,
        spend: &SpendArgs,
        out: &OutArgs,
    ) -> CliResult<Option<Plan>> {
        if let Some(path) = &out.out {
            self.check_out(path).await?;
        }
        let plan = engine::plan(self.session(), action, freshness(spend))
            .await
            .map_err(plan_error)?;
        if spend.dry_run {
            let text = if out.format == Some(Format::Json) {
                serde_json::to_string_pretty(&plan).unwrap_or_default() + "\n"
            } else {
                plan.lines().join("\n") + "\n"
            };
            write_text(out, &text)?;
            return Ok(None);
        }
        if let Some(why) = &plan.refusal {
            return Err(CliError {
                code: refusal_code(plan.refusal_cause),
                message: format!("{}: {why}", plan.action),
            });
        }
        if !self.quiet && std::io::stderr().is_terminal() {
            for l in plan.lines() {
                eprintln!("{l}");
            }
        }
        self.confirm(&plan.action, plan.cost, spend)?;
        Ok(Some(plan))
    }

    /// The exit of a run: output closed → quiet success; a recovery file → exit 11 naming it;
    /// a partial answer → exit 10; stopped on a signal → 130 / 143 saying how to resume; the
    /// first error → its code; else a note of what it cost.
    fn settle(&self, report: RunReport, job: Option<JobId>) -> CliResult {
        let job_hint = job
            .map(|j| format!(" (or `prospect resume {j}`)"))
            .unwrap_or_default();
        if let Some(RunError::Output(e)) = &report.error
            && e.kind() == std::io::ErrorKind::BrokenPipe
        {
            return Ok(());
        }
        if !report.recovery.is_empty() || !report.store_errors.is_empty() {
            let files = report
                .recovery
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ");
            return Err(CliError {
                code: ExitCode::Recovery,
                message: match report.recovery.is_empty() {
                    false => format!(
                        "the store could not write {} paid answer(s); they are kept in {files} \
                         and imported at the next start",
                        report.recovery.len()
                    ),
                    true => report.store_errors.join("; "),
                },
            });
        }
        let sig = self.signal.load(Ordering::SeqCst);
        if report.interrupted || sig != 0 {
            return Err(CliError {
                code: if sig == 15 {
                    ExitCode::Terminated
                } else {
                    ExitCode::Interrupted
                },
                message: format!(
                    "stopped: {} bought and kept, {} from the store, charged {}; run the same \
                     command again{job_hint} to buy only the rest",
                    report.bought,
                    report.owned,
                    spend::describe_pools(&report.charged)
                ),
            });
        }
        let unread = if report.unread > 0 {
            format!(
                "; {} key(s) did not read and are not written: the same command run again buys \
                 only them",
                report.unread
            )
        } else {
            String::new()
        };
        if let Some(e) = report.error {
            let kept = if report.bought > 0 {
                format!(
                    " ({} bought before it are kept; the same command run again does not buy them \
                     again)",
                    report.bought
                )
            } else {
                String::new()
            };
            return Err(match e {
                RunError::Api(a) => {
                    let decode = matches!(a, ApiError::Decode { .. });
                    let mut c = CliError::from(a);
                    if decode {
                        c.message
                            .push_str(": the answer did not read; its raw bytes are kept");
                    }
                    c.message.push_str(&kept);
                    c.message.push_str(&unread);
                    c
                }
                RunError::Keys(k) => CliError::usage(k.0),
                RunError::Plan(p) => plan_error(p),
                RunError::Output(o) => CliError::other(format!("writing the output: {o}{kept}")),
                RunError::Store(m) => CliError::other(format!("the store: {m}{kept}")),
            });
        }
        if let Some(first) = report.decode_errors.first() {
            return Err(CliError {
                code: ExitCode::Partial,
                message: format!(
                    "{first} ({} answer(s) read in part; what read was written{unread})",
                    report.decode_errors.len()
                ),
            });
        }
        self.note(&format!(
            "{} records: {} from the store, {} bought in {} requests; charged {}{}",
            report.records,
            report.owned,
            report.bought,
            report.requests,
            spend::describe_pools(&report.charged),
            report
                .suppressed
                .describe()
                .map(|d| format!("; {d}"))
                .unwrap_or_default()
        ));
        Ok(())
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

/// Says on stderr, once per pause, when the per-minute allowance holds requests back (a 429's
/// `Retry-After`): no wait is silent (issue 34). Runs until the process ends.
fn say_rate_waits(client: crate::api::client::Client) {
    tokio::spawn(async move {
        let mut said = false;
        loop {
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            match client.pacer().and_then(|p| p.paused_for()) {
                Some(d) if !said && d.as_secs() >= 2 => {
                    said = true;
                    eprintln!(
                        "prospect: rate limited (the per-minute allowance): waiting {} s, then \
                         going on (Ctrl-C stops)",
                        d.as_secs() + 1
                    );
                }
                Some(_) => {}
                None => said = false,
            }
        }
    });
}

/// The exit code of a plan refused for `cause` (issue 34): the used-up daily allowance is 6,
/// a cost over the known balance 4, any other refusal 5.
fn refusal_code(cause: Option<engine::RefusalCause>) -> ExitCode {
    match cause {
        Some(engine::RefusalCause::DailyAllowance) => ExitCode::RateLimited,
        Some(engine::RefusalCause::Credits) => ExitCode::Credits,
        Some(engine::RefusalCause::Spend) | None => ExitCode::SpendRefused,
    }
}

/// How a front end gets a service: the real one from settings, or the embedded sandbox
/// (started by the caller, `main.rs`).
/// It is given the data directory, where the sandbox keeps what outlives one command.
pub type StartSandbox =
    fn(
        Option<PathBuf>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = anyhow::Result<Target>> + Send>>;

/// Runs one command; returns its exit code after printing any error as one line.
///
/// A paid command stops on the first SIGINT or SIGTERM: nothing new is sent, the paid calls in
/// flight are awaited and kept, and it exits 130 (143 for SIGTERM) saying how to buy the rest;
/// a second Ctrl-C exits at once. Other commands exit at once on a signal.
pub async fn run(
    cmd: Command,
    flags: CliFlags,
    settings: Settings,
    start_sandbox: StartSandbox,
) -> ExitCode {
    let _guard = settings.init_logging();
    let stop = CancellationToken::new();
    let signal = Arc::new(AtomicI32::new(0));
    watch_signals(cmd.is_paid(), flags.quiet, stop.clone(), signal.clone());
    match run_inner(cmd, flags, settings, start_sandbox, stop, signal).await {
        Ok(()) => ExitCode::Ok,
        Err(e) => {
            tracing::error!(code = ?e.code, message = %e.message, "command failed");
            if !e.message.is_empty() {
                eprintln!("prospect: {}", crate::core::sanitize::sanitize(&e.message));
            }
            e.code
        }
    }
}

/// SIGINT / SIGTERM: a paid command stops gracefully on the first (see [`run`]) and at once on
/// a second; any other command at once.
fn watch_signals(paid: bool, quiet: bool, stop: CancellationToken, signal: Arc<AtomicI32>) {
    #[cfg(unix)]
    tokio::spawn(async move {
        use tokio::signal::unix::{SignalKind, signal as listen};
        let (Ok(mut int), Ok(mut term)) = (
            listen(SignalKind::interrupt()),
            listen(SignalKind::terminate()),
        ) else {
            return;
        };
        loop {
            let n = tokio::select! {
                _ = int.recv() => 2,
                _ = term.recv() => 15,
            };
            if !paid || stop.is_cancelled() {
                if paid {
                    eprintln!(
                        "prospect: stopped at once; answers still in flight may be lost. Run the \
                         same command again (what was kept is not bought again); `prospect jobs` \
                         lists what is left"
                    );
                }
                std::process::exit(128 + n);
            }
            signal.store(n, Ordering::SeqCst);
            stop.cancel();
            if !quiet {
                eprintln!(
                    "prospect: stopping: keeping the paid calls in flight (Ctrl-C again quits at once)"
                );
            }
        }
    });
    #[cfg(not(unix))]
    let _ = (paid, quiet, stop, signal);
}

async fn run_inner(
    cmd: Command,
    flags: CliFlags,
    settings: Settings,
    start_sandbox: StartSandbox,
    stop: CancellationToken,
    signal: Arc<AtomicI32>,
) -> CliResult {
    let mut ctx = Ctx {
        settings,
        session: None,
        target: None,
        quiet: flags.quiet,
        stop,
        signal,
        held_out: std::sync::Mutex::new(None),
    };
    if cmd.needs_service() || !matches!(cmd, Command::Curl { .. }) {
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
                start_sandbox(ctx.settings.data_dir())
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
            // Waits end on the first signal; a per-minute 429 is waited out (shown on stderr).
            let options = crate::api::client::ClientOptions {
                stop: ctx.stop.clone(),
                max_retry_after: crate::api::pace::PER_MINUTE_RETRY_MAX,
                ..Default::default()
            };
            let session = Session::open_with(&ctx.settings, &target, options)
                .map_err(|e| CliError::usage(e.to_string()))?;
            // Said at start, even with --quiet: every paid command is refused (exit 5).
            if let Some(why) = session.unreachable() {
                eprintln!("prospect: {why}");
            }
            if !ctx.quiet && std::io::stderr().is_terminal() {
                say_rate_waits(session.client().clone());
            }
            ctx.session = Some(session);
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
        } => {
            let endpoint = match (subject, v2) {
                (SearchSubject::Companies, false) => Endpoint::SearchCompaniesV3,
                (SearchSubject::Companies, true) => Endpoint::SearchCompaniesV2,
                (SearchSubject::People, false) => Endpoint::SearchPeopleV3,
                (SearchSubject::People, true) => Endpoint::SearchPeopleV2,
            };
            let action = search_action(endpoint, filters, body, limit)?;
            run_action(&ctx, action, &spend, &out).await
        }
        Command::Autocomplete {
            kind,
            text,
            spend,
            out,
        } => autocomplete(&ctx, kind, &text, &spend, &out).await,
        Command::Segment(cmd) => segment(&ctx, cmd).await,
        Command::Enrich(EnrichCmd::Companies(b)) => {
            let keys = batch_keys(&ctx, &b, ListKind::Accounts)?;
            let action = Action::EnrichCompanies { keys };
            enrich_companies(&ctx, action, b.wait, &b.spend, &b.out).await
        }
        Command::Enrich(EnrichCmd::People(b)) => {
            let keys = batch_keys(&ctx, &b, ListKind::Contacts)?;
            let action = Action::EnrichPeople { keys };
            enrich_people(&ctx, action, b.wait, &b.spend, &b.out).await
        }
        Command::Enrich(e) => {
            let (action, spend, out) = enrich_action(e)?;
            run_action(&ctx, action, &spend, &out).await
        }
        Command::Lookup {
            subject,
            file,
            column,
            values,
            ids,
            list,
            spend,
            out,
        } => {
            let (keys, ids) = match (&list, subject) {
                (Some(_), SearchSubject::Companies) => (
                    KeySource::List(list_keys(&ctx, list.as_deref(), ListKind::Accounts)?),
                    ids,
                ),
                (Some(_), SearchSubject::People) => (
                    KeySource::List(list_keys(&ctx, list.as_deref(), ListKind::Contacts)?),
                    true,
                ),
                (None, _) => (key_source(values, file, column)?, ids),
            };
            let action = match subject {
                SearchSubject::Companies => Action::LookupCompanies { keys },
                SearchSubject::People => Action::LookupPeople { keys, ids },
            };
            run_action(&ctx, action, &spend, &out).await
        }
        Command::Reveal {
            kind,
            ids,
            ids_file,
            list,
            wait,
            spend,
            out,
        } => {
            let keys = match (ids_file, ids.as_slice()) {
                _ if list.is_some() => {
                    KeySource::List(list_keys(&ctx, list.as_deref(), ListKind::Contacts)?)
                }
                (Some(f), _) => KeySource::File {
                    path: f,
                    column: None,
                },
                (None, [one]) if one.trim() == "-" => KeySource::List(
                    engine::read_key_list(std::io::stdin(), "stdin")
                        .map_err(|e| CliError::usage(e.0))?,
                ),
                (None, _) => KeySource::List(ids),
            };
            let contact = match kind {
                RevealKind::Emails => ContactKind::Email,
                RevealKind::Phones => ContactKind::Phone,
            };
            let keys = KeySource::List(keys.read_all().map_err(|e| CliError::usage(e.0))?);
            if matches!(&keys, KeySource::List(l) if l.is_empty()) {
                return Err(CliError::usage("reveal: no person ids given"));
            }
            reveal(&ctx, Action::Reveal { contact, keys }, wait, &spend, &out).await
        }
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
        Command::History {
            action: Some(HistoryAction::Show),
            id,
            out,
            ..
        } => stored_search(&ctx, id, "history show", &out),
        Command::History {
            limit,
            spend,
            user,
            out,
            ..
        } => history(&ctx, limit, spend, user.as_deref(), &out),
        Command::Export {
            kind: ExportKind::Search,
            id,
            out,
            ..
        } => stored_search(&ctx, id, "export search", &out),
        Command::Export { kind, out, crm, .. } => export(&ctx, kind, &out, &crm),
        Command::Jobs { all, limit, out } => jobs(&ctx, all, limit, &out),
        Command::Suppress(cmd) => suppress(&ctx, cmd),
        Command::List(cmd) => list(&ctx, cmd),
        Command::Store(cmd) => store_cmd(&ctx, cmd),
        Command::Resume { id, spend, out } => {
            let job = ctx
                .session()
                .store()
                .lock()
                .map_err(|_| CliError::other("the store is unusable"))?
                .job(JobId(id))
                .map_err(|e| CliError::other(e.to_string()))?
                .ok_or_else(|| {
                    CliError::usage(format!("no job {id} in the store (see `prospect jobs`)"))
                })?;
            let action: Action = serde_json::from_value(job.spec.clone()).map_err(|e| {
                CliError::usage(format!(
                    "job {id} cannot be run again by this prospect: {e}"
                ))
            })?;
            // The options the job was started with, unless given again (issue 34).
            let kept = JobOptions::of_job(&job);
            let (spend, out, wait) = kept.under(spend, out);
            let wait = wait.unwrap_or(WEBHOOK_WAIT_SECS);
            match action {
                Action::Reveal { .. } => reveal(&ctx, action, wait, &spend, &out).await,
                Action::EnrichCompanies { .. } => {
                    enrich_companies(&ctx, action, wait, &spend, &out).await
                }
                Action::EnrichPeople { .. } => {
                    enrich_people(&ctx, action, wait, &spend, &out).await
                }
                Action::Segment { .. } => {
                    create_segmentation(&ctx, action, kept.wait, &spend, &out).await
                }
                other => run_action(&ctx, other, &spend, &out).await,
            }
        }
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
            let text = crate::core::curl::curl_command(&base, set.endpoint, &set.body) + "\n";
            match std::io::stdout().write_all(text.as_bytes()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                r => Ok(r?),
            }
        }
    }
}

/// A plan error as the CLI reports it: a key list is a usage error (exit 2), a request the
/// service would refuse a validation error (exit 8).
fn plan_error(e: PlanError) -> CliError {
    match e {
        PlanError::Keys(k) => CliError::usage(k.0),
        PlanError::Invalid(a) => CliError::from(a),
        PlanError::Other(m) => CliError {
            code: ExitCode::Validation,
            message: m,
        },
    }
}

/// Writes `text` to `--out` (atomically) or stdout.
fn write_text(out: &OutArgs, text: &str) -> CliResult {
    match &out.out {
        Some(p) => Ok(crate::core::fsutil::write_atomic(
            p,
            text.as_bytes(),
            crate::core::fsutil::Access::Shared,
        )?),
        None => match std::io::stdout().write_all(text.as_bytes()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            r => Ok(r?),
        },
    }
}

/// The keys of a lookup: values, a file (`-`: stdin, read whole), or both.
fn key_source(
    values: Vec<String>,
    file: Option<PathBuf>,
    column: Option<String>,
) -> CliResult<KeySource> {
    let keys = match file {
        Some(f) if f.as_os_str() == "-" => {
            let mut all = values;
            all.extend(
                engine::read_key_list(std::io::stdin(), "stdin")
                    .map_err(|e| CliError::usage(e.0))?,
            );
            KeySource::List(all)
        }
        Some(path) if values.is_empty() => KeySource::File { path, column },
        Some(path) => {
            let mut all = values;
            all.extend(
                KeySource::File { path, column }
                    .read_all()
                    .map_err(|e| CliError::usage(e.0))?,
            );
            KeySource::List(all)
        }
        None => KeySource::List(values),
    };
    if matches!(&keys, KeySource::List(l) if l.is_empty()) {
        return Err(CliError::usage("lookup: give values or --file"));
    }
    Ok(keys)
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
        Some("-") => crate::core::fsutil::read_bounded(
            std::io::stdin().lock(),
            crate::core::fsutil::MAX_JSON_INPUT,
            "the body on stdin",
        )
        .map_err(|e| CliError::usage(e.to_string()))?,
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

/// The search action of the command line: the body from `--filters` / `--body`, checked
/// (its `size` and `from`, when given, must be whole numbers in range: never replaced), and
/// the limit (`--limit`, else the body's `size`, else 50).
fn search_action(
    endpoint: Endpoint,
    filters: Option<PathBuf>,
    body: Option<String>,
    limit: Option<u64>,
) -> CliResult<Action> {
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
    engine::check_paging(&body).map_err(|m| CliError {
        code: ExitCode::Validation,
        message: m,
    })?;
    let limit = limit
        .or_else(|| body.get("size").and_then(Value::as_u64))
        .unwrap_or(50);
    if limit == 0 {
        return Err(CliError::usage("--limit must be at least 1"));
    }
    if let Value::Object(m) = &mut body {
        m.remove("searchAfter");
        m.remove("from");
        m.remove("size");
    }
    Ok(Action::Search {
        endpoint: endpoint.path().to_string(),
        body,
        limit,
    })
}

/// The options of a command that shape its output and spending, kept with its job so that
/// `prospect resume ID` alone finishes it the same way (issue 34): into the same file, in the
/// same format, within the same `--max-credits`, waiting as long for webhooks.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct JobOptions {
    /// `--max-credits`.
    max_credits: Option<f64>,
    /// `--format`, by its name (`csv`, `jsonl`, …).
    format: Option<String>,
    /// `--out`, made absolute, so a resume from another directory writes the same file.
    out: Option<PathBuf>,
    /// `--wait` in seconds (reveals, batch enrichments, segmentations).
    wait: Option<u64>,
}

impl JobOptions {
    fn of(spend: &SpendArgs, out: &OutArgs, wait: Option<u64>) -> JobOptions {
        use clap::ValueEnum;
        JobOptions {
            max_credits: spend.max_credits,
            format: out
                .format
                .and_then(|f| f.to_possible_value())
                .map(|v| v.get_name().to_string()),
            out: out
                .out
                .as_ref()
                .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone())),
            wait,
        }
    }

    /// `plan` carrying these options, for its job.
    fn kept_in(&self, plan: &Plan) -> Plan {
        let mut p = plan.clone();
        p.job_options = serde_json::to_value(self).ok();
        p
    }

    /// The options kept with `job` (none for a job of an older prospect).
    fn of_job(job: &crate::store::JobRow) -> JobOptions {
        Plan::of_job(job)
            .and_then(|p| p.job_options)
            .and_then(|v| serde_json::from_value(v).ok())
            .unwrap_or_default()
    }

    /// The options of a resume: each given on its command line, else the kept one.
    fn under(&self, spend: SpendArgs, out: OutArgs) -> (SpendArgs, OutArgs, Option<u64>) {
        use clap::ValueEnum;
        let spend = SpendArgs {
            max_credits: spend.max_credits.or(self.max_credits),
            ..spend
        };
        let out = OutArgs {
            format: out.format.or_else(|| {
                self.format
                    .as_deref()
                    .and_then(|f| Format::from_str(f, true).ok())
            }),
            out: out.out.or_else(|| self.out.clone()),
        };
        (spend, out, self.wait)
    }
}

/// Plans, gates and runs a search, lookup or enrich through the spend engine as a job, writing
/// its records as they are kept; the exit says what happened ([`Ctx::settle`]).
async fn run_action(ctx: &Ctx, action: Action, spend: &SpendArgs, out: &OutArgs) -> CliResult {
    let Some(plan) = ctx.plan(&action, spend, out).await? else {
        return Ok(());
    };
    let s = ctx.session();
    let fresh = freshness(spend);
    let format = Format::resolve(out.format, &out.out);
    match &action {
        Action::EnrichCompany { .. } | Action::EnrichPerson { .. } => {
            return enrich(ctx, &action, fresh, out).await;
        }
        _ => {}
    }
    let job = engine::start_job(s, &action, &JobOptions::of(spend, out, None).kept_in(&plan)).await;
    let pb = ctx.progress(plan.asked, "buying");
    let report = match &action {
        Action::Search {
            endpoint,
            body,
            limit,
        } => {
            let ep = Endpoint::from_path(endpoint).unwrap_or(Endpoint::SearchCompaniesV3);
            let run = SearchRun {
                ctx,
                endpoint,
                body,
                limit: *limit,
                fresh,
                job,
                pb: &pb,
            };
            if ep.search_subject() == Some(crate::api::client::SearchSubject::People) {
                run.write(Writer::new(format, out.out.as_ref())?, people_of)
                    .await
            } else {
                run.write(Writer::new(format, out.out.as_ref())?, companies_of)
                    .await
            }
        }
        Action::LookupCompanies { keys } => {
            let mut w = Writer::<LookupOut<Company>>::new(format, out.out.as_ref())?;
            let r = engine::lookup_companies(
                s,
                plan.planned_at,
                keys,
                fresh,
                job,
                &ctx.stop,
                |entries| write_entries(&mut w, &pb, entries),
            )
            .await;
            finish_writer(w, r)
        }
        Action::LookupPeople { keys, ids } => {
            let mut w = Writer::<LookupOut<LookalikePerson>>::new(format, out.out.as_ref())?;
            let r = engine::lookup_people(
                s,
                plan.planned_at,
                keys,
                *ids,
                fresh,
                job,
                &ctx.stop,
                |entries| write_entries(&mut w, &pb, entries),
            )
            .await;
            finish_writer(w, r)
        }
        _ => RunReport::default(),
    };
    pb.finish_and_clear();
    engine::finish_job(s, job, &report).await;
    ctx.settle(report, job)
}

/// A search the CLI runs through the engine, its records written as they are kept.
struct SearchRun<'a> {
    ctx: &'a Ctx,
    endpoint: &'a str,
    body: &'a Value,
    limit: u64,
    fresh: Freshness,
    job: Option<JobId>,
    pb: &'a indicatif::ProgressBar,
}

impl SearchRun<'_> {
    /// Runs it, writing each page's records (`records` of the answer, up to the limit) to `w`.
    async fn write<T: Tabular>(
        self,
        mut w: Writer<T>,
        records: fn(SearchResponse) -> Vec<T>,
    ) -> RunReport {
        let s = self.ctx.session();
        let r = engine::search(
            s,
            self.endpoint,
            self.body,
            self.limit,
            self.fresh,
            self.job,
            &self.ctx.stop,
            |page| {
                self.pb.inc(page.take as u64);
                for rec in records(page.response).into_iter().take(page.take) {
                    w.write(&rec)?;
                }
                Ok(())
            },
        )
        .await;
        finish_writer(w, r)
    }
}

/// Writes a batch of lookup entries as `LookupOut` records and moves the bar.
fn write_entries<T>(
    w: &mut Writer<LookupOut<T>>,
    pb: &indicatif::ProgressBar,
    entries: Vec<crate::core::session::LookupEntry<T>>,
) -> std::io::Result<()>
where
    LookupOut<T>: Tabular,
{
    pb.inc(entries.len() as u64);
    for e in entries {
        w.write(&LookupOut {
            query: e.key,
            found: e.record.is_some(),
            stored_at: e.stored_at.map(|t| t.to_rfc3339()),
            record: e.record,
            suppressed: e.suppressed,
        })?;
    }
    Ok(())
}

/// Finishes the output (the temp file renamed into place) unless the run already failed on it.
fn finish_writer<T: Tabular>(w: Writer<T>, mut report: RunReport) -> RunReport {
    if !matches!(report.error, Some(RunError::Output(_)))
        && let Err(e) = w.finish()
    {
        report.error = Some(RunError::Output(e));
    }
    report
}

/// The companies of a search answer as the CLI writes them.
fn companies_of(r: SearchResponse) -> Vec<CompanyOut> {
    match r {
        SearchResponse::CompaniesV3(r) => r
            .companies
            .into_iter()
            .map(|c| CompanyOut {
                company: c.company,
                relevance: c.relevance,
                score: None,
            })
            .collect(),
        SearchResponse::CompaniesV2(r) => r
            .companies
            .into_iter()
            .map(|c| CompanyOut {
                company: c.company,
                relevance: None,
                score: c.score,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The people of a search answer as the CLI writes them.
fn people_of(r: SearchResponse) -> Vec<LookalikePerson> {
    match r {
        SearchResponse::PeopleV3(r) => r.people,
        SearchResponse::PeopleV2(r) => r
            .people
            .into_iter()
            .map(|person| LookalikePerson {
                person,
                ..LookalikePerson::default()
            })
            .collect(),
        _ => Vec::new(),
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
    write_rows(out, std::iter::once(rec))
}

/// Writes `rows` in the format and to the place `out` says (atomically to a file).
fn write_rows<'a, T: Tabular + 'a>(
    out: &OutArgs,
    rows: impl IntoIterator<Item = &'a T>,
) -> CliResult {
    let mut w = Writer::<T>::new(Format::resolve(out.format, &out.out), out.out.as_ref())?;
    for r in rows {
        w.write(r)?;
    }
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

/// The enrich action of the command line and its spend and output options (one company or
/// person; the batches run by [`enrich_companies`] and [`enrich_people`], which the dispatch
/// calls first).
fn enrich_action(cmd: EnrichCmd) -> CliResult<(Action, SpendArgs, OutArgs)> {
    match cmd {
        EnrichCmd::Company { domain, spend, out } => {
            Ok((Action::EnrichCompany { domain }, spend, out))
        }
        EnrichCmd::Companies(_) | EnrichCmd::People(_) => Err(CliError::usage(
            "enrich companies / people is a batch: it runs with its webhook receiver",
        )),
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
            let request = serde_json::to_value(&req).unwrap_or(Value::Null);
            Ok((Action::EnrichPerson { request }, spend, out))
        }
    }
}

/// Runs a planned enrich through the session (answered from the store when owned) and writes
/// the record.
async fn enrich(ctx: &Ctx, action: &Action, fresh: Freshness, out: &OutArgs) -> CliResult {
    let s = ctx.session();
    let paid_note = |store_error: &Option<String>, decode: &Option<String>| -> CliResult {
        if let Some(e) = store_error {
            return Err(CliError {
                code: ExitCode::Recovery,
                message: e.clone(),
            });
        }
        if let Some(d) = decode {
            return Err(CliError {
                code: ExitCode::Partial,
                message: d.clone(),
            });
        }
        Ok(())
    };
    match action {
        Action::EnrichCompany { domain } => {
            let req = EnrichCompanyRequest {
                company: Some(crate::api::types::CompanyMatch {
                    domain: Some(domain.clone()),
                    ..Default::default()
                }),
                ..EnrichCompanyRequest::default()
            };
            let paid = s.enrich_company(&req, fresh).await?;
            ctx.note_stored(paid.stored_at);
            match paid.value {
                Enriched::Found(r) => write_one(
                    out,
                    &CompanyOut {
                        company: r.company,
                        relevance: None,
                        score: None,
                    },
                )?,
                Enriched::Gathering { detail } => {
                    return Err(CliError {
                        code: ExitCode::NotFound,
                        message: format!("{domain}: {detail} (try again in a few minutes)"),
                    });
                }
            }
            paid_note(&paid.store_error, &paid.decode_error)
        }
        Action::EnrichPerson { request } => {
            let req: EnrichPersonRequest = serde_json::from_value(request.clone())
                .map_err(|e| CliError::usage(format!("enrich person: {e}")))?;
            let paid = s.enrich_person(&req, fresh).await?;
            ctx.note_stored(paid.stored_at);
            match paid.value {
                Enriched::Found(r) => write_one(
                    out,
                    &LookalikePerson {
                        person: r.person,
                        ..LookalikePerson::default()
                    },
                )?,
                Enriched::Gathering { detail } => {
                    return Err(CliError {
                        code: ExitCode::NotFound,
                        message: format!("{detail} (try again in a few minutes)"),
                    });
                }
            }
            paid_note(&paid.store_error, &paid.decode_error)
        }
        _ => Ok(()),
    }
}

/// Plans, gates and sends a reveal as a job; waits up to `wait` seconds for its webhook
/// deliveries (stopping early on Ctrl-C), then writes the contacts that arrived and those the
/// store had.
async fn reveal(
    ctx: &Ctx,
    action: Action,
    wait: u64,
    spend: &SpendArgs,
    out: &OutArgs,
) -> CliResult {
    let Action::Reveal { contact, keys } = &action else {
        return Ok(());
    };
    let (contact, ids) = (*contact, keys.read_all().map_err(|e| CliError::usage(e.0))?);
    let Some(plan) = ctx.plan(&action, spend, out).await? else {
        return Ok(());
    };
    let s = ctx.session();
    let event = match contact {
        ContactKind::Email => WebhookEvent::RevealEmails,
        ContactKind::Phone => WebhookEvent::RevealPhones,
    };
    let (_receiver, url) =
        webhook_receiver(ctx, event, plan.to_buy > 0 || plan.pending > 0).await?;
    let job = engine::start_job(
        s,
        &action,
        &JobOptions::of(spend, out, Some(wait)).kept_in(&plan),
    )
    .await;
    let r = match s
        .reveal_in(contact, &ids, &url, freshness(spend), job)
        .await
    {
        Ok(r) => r,
        Err(e) => {
            let report = RunReport {
                error: Some(RunError::Api(e)),
                ..RunReport::default()
            };
            engine::finish_job(s, job, &report).await;
            return ctx.settle(report, job);
        }
    };
    let awaited: Vec<String> = r.sent.iter().chain(&r.pending).cloned().collect();
    if !awaited.is_empty() && wait > 0 {
        let pb = ctx.progress(awaited.len() as u64, "waiting for the webhook");
        let deadline = Instant::now() + Duration::from_secs(wait);
        loop {
            let got = s.stored_contacts(&awaited, contact).await.len();
            pb.set_position(got as u64);
            if got >= awaited.len() || Instant::now() >= deadline || ctx.stop.is_cancelled() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        pb.finish_and_clear();
    }
    let arrived = s.stored_contacts(&awaited, contact).await;
    let mut w = Writer::<ContactOut>::new(Format::resolve(out.format, &out.out), out.out.as_ref())?;
    for id in &ids {
        if let Some(c) = r.from_store.get(id) {
            w.write(&ContactOut::new(c, true))?;
        } else if let Some(c) = arrived.get(id) {
            w.write(&ContactOut::new(c, false))?;
        }
    }
    w.finish()?;
    let report = RunReport {
        charged: r.delivered_cost(contact, &arrived),
        owned: r.from_store.len() as u64,
        bought: r.sent.len() as u64,
        requests: r.purchases.len() as u32,
        records: (r.from_store.len() + arrived.len()) as u64,
        store_errors: r.store_error.into_iter().collect(),
        ..RunReport::default()
    };
    engine::finish_job(s, job, &report).await;
    let missing = awaited.len() - arrived.len().min(awaited.len());
    ctx.note(&format!(
        "{} from the store, {} sent, {} awaited from before, {} arrived",
        r.from_store.len(),
        r.sent.len(),
        r.pending.len(),
        arrived.len()
    ));
    if missing > 0 && wait == 0 {
        // Asked not to wait: nothing is lost, the results are stored when they arrive while a
        // prospect on this data dir runs (the webhook port is kept), and not sent again.
        if !ctx.quiet {
            eprintln!(
                "prospect: {missing} result(s) not waited for (--wait 0); the same reveal run \
                 again later collects them at no cost"
            );
        }
        return ctx.settle(report, job);
    }
    if missing > 0 && ctx.signal.load(Ordering::SeqCst) == 0 {
        return Err(CliError {
            code: ExitCode::Network,
            message: format!(
                "{missing} of {} results had not arrived after {wait} s; they are stored when \
                 they arrive while prospect runs, and are not sent again meanwhile (run the \
                 same reveal again later: it costs nothing for what arrived)",
                awaited.len()
            ),
        });
    }
    ctx.settle(report, job)
}

/// The webhook receiver of a paid call answered by webhook, when one is `needed` (something is
/// to be sent or awaited), and the URL of `event` on it (empty without one).
async fn webhook_receiver(
    ctx: &Ctx,
    event: WebhookEvent,
    needed: bool,
) -> CliResult<(Option<crate::core::webhooks::Receiver>, String)> {
    if !needed {
        return Ok((None, String::new()));
    }
    let target = ctx.target.clone().unwrap_or(Target {
        base_url: String::new(),
        token: String::new(),
        sandbox: true,
    });
    let cfg = crate::core::webhooks::receiver_config(&ctx.settings, &target)
        .map_err(|e| CliError::usage(e.to_string()))?;
    let r = crate::core::webhooks::Receiver::start(cfg, ctx.session().clone())
        .await
        .map_err(|e| CliError::other(e.to_string()))?;
    let url = r.url_for(event);
    Ok((Some(r), url))
}

/// Waits up to `wait` seconds (stopping early on Ctrl-C) until no claim of `keys` is awaited
/// any more (a batch enrichment's deliveries end them), with a bar; returns how many still are.
async fn await_deliveries(ctx: &Ctx, keys: &[String], wait: u64) -> usize {
    let s = ctx.session();
    if keys.is_empty() || wait == 0 {
        return s.awaited(keys).await;
    }
    let pb = ctx.progress(keys.len() as u64, "waiting for the webhook");
    let deadline = Instant::now() + Duration::from_secs(wait);
    let left = loop {
        let left = s.awaited(keys).await;
        pb.set_position((keys.len() - left.min(keys.len())) as u64);
        if left == 0 || Instant::now() >= deadline || ctx.stop.is_cancelled() {
            break left;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    pb.finish_and_clear();
    left
}

/// Ends a batch enrichment: the job finished with its report (`found` records arrived; what
/// their deliveries `charged`, from [`crate::core::session::ByWebhook::delivered_cost`]), a
/// note of what happened, and the exit: an error (network class) when `left` of the awaited
/// `noun` had not arrived after `wait` s (unless Ctrl-C ended the wait), else [`Ctx::settle`].
#[allow(clippy::too_many_arguments)]
async fn end_batch<T>(
    ctx: &Ctx,
    job: Option<JobId>,
    noun: &str,
    r: &crate::core::session::ByWebhook<T>,
    found: usize,
    charged: crate::api::cost::Cost,
    left: usize,
    wait: u64,
) -> CliResult {
    let report = RunReport {
        charged,
        owned: r.from_store.len() as u64,
        bought: r.sent.len() as u64,
        requests: r.purchases.len() as u32,
        records: (r.from_store.len() + found) as u64,
        store_errors: r.store_error.clone().into_iter().collect(),
        ..RunReport::default()
    };
    engine::finish_job(ctx.session(), job, &report).await;
    let awaited = r.sent.len() + r.pending.len();
    ctx.note(&format!(
        "{} from the store, {} sent, {} awaited from before, {} found, {} not yet arrived",
        r.from_store.len(),
        r.sent.len(),
        r.pending.len(),
        found,
        left
    ));
    if left > 0 && ctx.signal.load(Ordering::SeqCst) == 0 {
        return Err(CliError {
            code: ExitCode::Network,
            message: format!(
                "{left} of {awaited} {noun} had not arrived after {wait} s; they are stored when \
                 they arrive while prospect runs, and are not sent again meanwhile (run the \
                 same enrich again later: it costs nothing for what arrived)"
            ),
        });
    }
    ctx.settle(report, job)
}

/// The job of a batch enrichment that could not be sent: finished failed, and the exit.
async fn batch_not_sent(
    ctx: &Ctx,
    job: Option<JobId>,
    e: crate::api::error::ApiError,
) -> CliResult {
    let report = RunReport {
        error: Some(RunError::Api(e)),
        ..RunReport::default()
    };
    engine::finish_job(ctx.session(), job, &report).await;
    ctx.settle(report, job)
}

/// The items of a batch enrichment: the members of `--list` (a list of `kind`), else the
/// values, file or stdin given.
fn batch_keys(ctx: &Ctx, b: &BatchArgs, kind: ListKind) -> CliResult<KeySource> {
    match &b.list {
        Some(name) => Ok(KeySource::List(list_keys(ctx, Some(name), kind)?)),
        None => key_source(b.values.clone(), b.file.clone(), b.column.clone()),
    }
}

/// The domains of a `segment` command ([`DomainArgs`]): `--list NAME`'s members, else the
/// file's, else the values and `--domains`.
fn segment_domains(ctx: &Ctx, from: DomainArgs) -> CliResult<Vec<String>> {
    let keys = match &from.list {
        Some(name) => KeySource::List(list_keys(ctx, Some(name), ListKind::Accounts)?),
        None => {
            let mut values = from.domains;
            values.extend(from.values);
            key_source(values, from.file, from.column)?
        }
    };
    let domains = keys.read_all().map_err(|e| CliError::usage(e.0))?;
    if domains.is_empty() {
        return Err(CliError::usage(
            "no domain given: --domains, --file, --list or values",
        ));
    }
    Ok(domains)
}

/// `prospect segment create|show|list|mark|attribute` (issue 18; [`crate::core::segment`]).
async fn segment(ctx: &Ctx, cmd: SegmentCmd) -> CliResult {
    match cmd {
        SegmentCmd::Create {
            from,
            features,
            segments_mode,
            positive,
            negative,
            wait,
            spend,
            out,
        } => {
            let domains = segment_domains(ctx, from)?;
            let features = features
                .iter()
                .map(|f| {
                    let f = f.trim();
                    let known = crate::api::types::LeadScoringFeature::ALL_STR.contains(&f);
                    if known {
                        Ok(f.parse()
                            .unwrap_or(crate::api::types::LeadScoringFeature::Industries))
                    } else {
                        Err(CliError::usage(format!(
                            "--features: {f:?} is not a feature; one of {}",
                            crate::api::types::LeadScoringFeature::ALL_STR.join(", ")
                        )))
                    }
                })
                .collect::<CliResult<Vec<_>>>()?;
            let input = crate::api::types::SegmentationInput {
                domains,
                lead_scoring_features: (!features.is_empty()).then_some(features),
                number_of_segments_mode: segments_mode,
                positive_domains: (!positive.is_empty()).then_some(positive),
                negative_domains: (!negative.is_empty()).then_some(negative),
            };
            let request = serde_json::to_value(&input).unwrap_or(Value::Null);
            create_segmentation(ctx, Action::Segment { request }, wait, &spend, &out).await
        }
        SegmentCmd::Show { id, wait, out } => {
            let s = ctx.session();
            let answer = s
                .await_segmentation(
                    id,
                    crate::core::segment::READY_POLL,
                    Duration::from_secs(wait),
                )
                .await;
            let kept = || async { s.stored_segmentation(id).await.and_then(|r| r.answer) };
            let answer = match answer {
                // Still computing (again): the store's finished answer, when it has one.
                Ok(a) if a.status == SegmentationStatus::InProgress => match kept().await {
                    Some(k) if k.status != SegmentationStatus::InProgress => {
                        ctx.note("in progress at the service; the store's last answer:");
                        k
                    }
                    _ => a,
                },
                Ok(a) => a,
                // The service cannot be reached: what the store kept, said so.
                Err(e @ (ApiError::Network(_) | ApiError::Timeout)) => match kept().await {
                    Some(a) => {
                        ctx.note(&format!("{}; the store's last answer:", e.user_message()));
                        a
                    }
                    None => return Err(e.into()),
                },
                Err(e) => return Err(e.into()),
            };
            write_segments(ctx, &answer, &out)
        }
        SegmentCmd::List { out } => {
            let (store, _) = open_store(ctx)?;
            let target = ctx.target.as_ref().map(Target::label).unwrap_or_default();
            let rows = store
                .segmentations(&target, 1000)
                .map_err(|e| CliError::other(e.to_string()))?;
            let rows: Vec<crate::core::export::SegmentationOut> =
                rows.into_iter().map(Into::into).collect();
            write_rows(&out, &rows)
        }
        SegmentCmd::Mark {
            id,
            positive,
            negative,
        } => {
            let s = ctx.session();
            for (kind, domains) in [
                (crate::api::types::MarkType::Positive, positive),
                (crate::api::types::MarkType::Negative, negative),
            ] {
                if domains.is_empty() {
                    continue;
                }
                let n = domains.len();
                s.mark_segmentation(id, kind.clone(), domains).await?;
                ctx.note(&format!("{n} domains marked {kind} on segmentation {id}"));
            }
            Ok(())
        }
        SegmentCmd::Attribute { id, from, out } => {
            let domains = segment_domains(ctx, from)?;
            let r = ctx.session().attribute_segmentation(id, &domains).await?;
            write_rows(&out, &r.results)?;
            ctx.note(&format!(
                "{} of {} domains attributed to a segment (free)",
                r.total_attributed, r.total_requested
            ));
            Ok(())
        }
    }
}

/// Plans, gates and buys a segmentation as a job (0 credits when the same input was bought);
/// prints its id and status, or with `wait` (seconds) waits for its segments and prints them.
async fn create_segmentation(
    ctx: &Ctx,
    action: Action,
    wait: Option<u64>,
    spend: &SpendArgs,
    out: &OutArgs,
) -> CliResult {
    let Action::Segment { request } = &action else {
        return Ok(());
    };
    let input: crate::api::types::SegmentationInput = serde_json::from_value(request.clone())
        .map_err(|e| CliError::usage(format!("segment create: {e}")))?;
    let Some(plan) = ctx.plan(&action, spend, out).await? else {
        return Ok(());
    };
    let s = ctx.session();
    let job = engine::start_job(s, &action, &JobOptions::of(spend, out, wait).kept_in(&plan)).await;
    let result = s.create_segmentation(&input, freshness(spend)).await;
    let mut report = RunReport::default();
    let paid = match result {
        Ok(p) => p,
        Err(e) => {
            report.error = Some(RunError::Api(e.clone()));
            engine::finish_job(s, job, &report).await;
            return Err(e.into());
        }
    };
    engine::finish_job(s, job, &report).await;
    ctx.note_stored(paid.stored_at);
    if let Some(e) = &paid.store_error {
        return Err(CliError {
            code: ExitCode::Recovery,
            message: e.clone(),
        });
    }
    let id = paid.value.segmentation_id;
    ctx.note(&format!(
        "segmentation {id}: {} ({})",
        if paid.stored_at.is_some() {
            "bought before, 0 credits"
        } else {
            "bought"
        },
        paid.charged
    ));
    match wait {
        Some(secs) => {
            let answer = s
                .await_segmentation(
                    id,
                    crate::core::segment::READY_POLL,
                    Duration::from_secs(secs),
                )
                .await?;
            write_segments(ctx, &answer, out)
        }
        None => write_pairs(
            out,
            serde_json::json!({
                "segmentationId": id,
                "charged": paid.charged.standard,
                "storedAt": paid.stored_at.map(|t| t.to_rfc3339()),
            }),
        ),
    }
}

/// Writes a segmentation's segments, one row each; a status line on stderr. In progress after
/// the wait: exit network-class, saying how to read it later; failed: exit not-found.
fn write_segments(ctx: &Ctx, answer: &crate::api::types::Segmentation, out: &OutArgs) -> CliResult {
    use crate::api::types::SegmentationStatus;
    let id = answer.segmentation_id;
    match answer.status {
        SegmentationStatus::InProgress => {
            return Err(CliError {
                code: ExitCode::Network,
                message: format!(
                    "segmentation {id} is still in progress: `prospect segment show {id} --wait`"
                ),
            });
        }
        SegmentationStatus::Failed => {
            return Err(CliError {
                code: ExitCode::NotFound,
                message: format!(
                    "segmentation {id} failed: the service could not segment those domains (are they \
                     companies it knows?); `segment create … --refresh` buys a new one"
                ),
            });
        }
        _ => {}
    }
    write_rows(out, &answer.segments)?;
    ctx.note(&format!(
        "segmentation {id}: {} segments, {} companies look like them",
        answer.segments.len(),
        answer
            .total_addressable_market
            .map_or_else(|| "an unknown number of".to_string(), |n| n.to_string())
    ));
    Ok(())
}

/// Plans, gates and sends a batch enrichment of companies as a job (issue 18); waits up to
/// `wait` seconds for its webhook deliveries (stopping early on Ctrl-C), then writes one
/// record per domain asked, in input order: the company the store had or the delivery
/// brought, or `found: false`.
async fn enrich_companies(
    ctx: &Ctx,
    action: Action,
    wait: u64,
    spend: &SpendArgs,
    out: &OutArgs,
) -> CliResult {
    let Action::EnrichCompanies { keys } = &action else {
        return Ok(());
    };
    let asked = keys.read_all().map_err(|e| CliError::usage(e.0))?;
    let Some(plan) = ctx.plan(&action, spend, out).await? else {
        return Ok(());
    };
    let s = ctx.session();
    let (_receiver, url) =
        webhook_receiver(ctx, WebhookEvent::EnrichCompanies, plan.to_buy > 0).await?;
    let job = engine::start_job(s, &action, &plan).await;
    let r = match s
        .enrich_companies(&asked, &url, freshness(spend), job)
        .await
    {
        Ok(r) => r,
        Err(e) => return batch_not_sent(ctx, job, e).await,
    };
    let awaited: Vec<String> = r.sent.iter().chain(&r.pending).cloned().collect();
    let claims: Vec<String> = awaited
        .iter()
        .map(|d| crate::store::company_claim(d))
        .collect();
    let left = await_deliveries(ctx, &claims, wait).await;
    let arrived = s.stored_companies(&awaited).await;
    let mut w =
        Writer::<LookupOut<Company>>::new(Format::resolve(out.format, &out.out), out.out.as_ref())?;
    let mut seen = std::collections::HashSet::new();
    for given in &asked {
        let Some(d) = crate::store::domain_key(given) else {
            continue;
        };
        if !seen.insert(d.clone()) {
            continue;
        }
        let (record, stored_at) = match (r.from_store.get(&d), arrived.get(&d)) {
            (Some(hit), _) => (Some(hit.value.clone()), Some(hit.fetched_at.to_rfc3339())),
            (None, Some(hit)) => (Some(hit.value.clone()), None),
            (None, None) => (None, None),
        };
        w.write(&LookupOut {
            query: given.trim().to_string(),
            found: record.is_some(),
            stored_at,
            record,
            suppressed: r.suppressed.get(&d).cloned(),
        })?;
    }
    w.finish()?;
    let charged = r.delivered_cost(Endpoint::EnrichCompanies, &arrived);
    end_batch(
        ctx,
        job,
        "companies",
        &r,
        arrived.len(),
        charged,
        left,
        wait,
    )
    .await
}

/// Plans, gates and sends a batch enrichment of people as a job (issue 18), as
/// [`enrich_companies`] does for companies: one record per person asked (each line read by
/// [`engine::person_item`]), in input order.
async fn enrich_people(
    ctx: &Ctx,
    action: Action,
    wait: u64,
    spend: &SpendArgs,
    out: &OutArgs,
) -> CliResult {
    let Action::EnrichPeople { keys } = &action else {
        return Ok(());
    };
    let items: Vec<engine::PersonItem> = keys
        .read_all()
        .map_err(|e| CliError::usage(e.0))?
        .iter()
        .filter_map(|l| engine::person_item(l))
        .collect();
    let Some(plan) = ctx.plan(&action, spend, out).await? else {
        return Ok(());
    };
    let s = ctx.session();
    let (_receiver, url) =
        webhook_receiver(ctx, WebhookEvent::EnrichPeople, plan.to_buy > 0).await?;
    let job = engine::start_job(s, &action, &plan).await;
    let r = match s.enrich_people(&items, &url, freshness(spend), job).await {
        Ok(r) => r,
        Err(e) => return batch_not_sent(ctx, job, e).await,
    };
    let awaited: Vec<String> = r.sent.iter().chain(&r.pending).cloned().collect();
    let left = await_deliveries(ctx, &awaited, wait).await;
    let waiting: Vec<engine::PersonItem> = items
        .iter()
        .filter(|i| !r.from_store.contains_key(&i.key))
        .cloned()
        .collect();
    let arrived = s.stored_people_of(&waiting).await;
    let mut w = Writer::<LookupOut<LookalikePerson>>::new(
        Format::resolve(out.format, &out.out),
        out.out.as_ref(),
    )?;
    let mut seen = std::collections::HashSet::new();
    let mut found = 0;
    for item in &items {
        if !seen.insert(item.key.clone()) {
            continue;
        }
        let (record, stored_at) = match (r.from_store.get(&item.key), arrived.get(&item.key)) {
            (Some(hit), _) => (Some(hit.value.clone()), Some(hit.fetched_at.to_rfc3339())),
            (None, Some(hit)) => {
                found += 1;
                (Some(hit.value.clone()), None)
            }
            (None, None) => (None, None),
        };
        w.write(&LookupOut {
            query: item.given.clone(),
            found: record.is_some(),
            stored_at,
            record: record.map(|person| LookalikePerson {
                person,
                ..LookalikePerson::default()
            }),
            suppressed: r.suppressed.get(&item.key).cloned(),
        })?;
    }
    w.finish()?;
    let charged = r.delivered_cost(Endpoint::EnrichPeople, &arrived);
    end_batch(ctx, job, "people", &r, found, charged, left, wait).await
}

/// The store of this target, opened for a command that needs no service: (store, its path).
/// A team store out of reach is said in one line on stderr, and this machine's store stands in
/// (see [`crate::core::session::open_store`]).
fn open_store(ctx: &Ctx) -> Result<(crate::store::Store, PathBuf), CliError> {
    let Some((url, sandbox)) = store_url(ctx)? else {
        return Err(CliError::usage("no data directory: pass --data-dir"));
    };
    let (store, unreachable) = crate::core::session::open_store(&ctx.settings, &url, sandbox)
        .map_err(|e| CliError::usage(e.to_string()))?;
    if let Some(why) = unreachable {
        eprintln!("prospect: {why}");
    }
    let path = store.path().to_path_buf();
    Ok((store, path))
}

/// The store of this target itself, never a stand-in (`store migrate` and `store budget` are
/// for the team's server): a store that cannot be opened is an error, exit 1.
fn open_named_store(ctx: &Ctx) -> Result<crate::store::Store, CliError> {
    let Some((url, _)) = store_url(ctx)? else {
        return Err(CliError::usage("no data directory: pass --data-dir"));
    };
    crate::store::Store::open_url(&url).map_err(|e| CliError::other(e.to_string()))
}

/// The store URL of this target and whether it is the embedded sandbox's; `None` without a
/// data directory.
fn store_url(ctx: &Ctx) -> Result<Option<(crate::store::StoreUrl, bool)>, CliError> {
    let Some(t) = &ctx.target else {
        return Ok(None);
    };
    let url = ctx
        .settings
        .store_url(t.sandbox)
        .map_err(|e| CliError::usage(e.to_string()))?;
    Ok(url.map(|u| (u, t.sandbox)))
}

/// The members of list `name` of `kind`, for `lookup`/`reveal --list`. Errors: no such list,
/// a list of the other kind, an empty list.
fn list_keys(ctx: &Ctx, name: Option<&str>, kind: ListKind) -> Result<Vec<String>, CliError> {
    let name = name.unwrap_or_default();
    let (store, _) = open_store(ctx)?;
    let (got, keys) = store
        .list_members(name)
        .map_err(|e| CliError::other(e.to_string()))?
        .ok_or_else(|| CliError::usage(format!("no list {name} (see `prospect list ls`)")))?;
    if got != kind {
        return Err(CliError::usage(format!(
            "list {name} holds {}, not {}",
            got.as_str(),
            kind.as_str()
        )));
    }
    if keys.is_empty() {
        return Err(CliError::usage(format!("list {name} has no members")));
    }
    Ok(keys)
}

/// `prospect list create|add|show|export|ls|rm` (`crate::store::lists`).
fn list(ctx: &Ctx, cmd: ListCmd) -> CliResult {
    let (mut store, _) = open_store(ctx)?;
    let fail = |e: crate::store::StoreError| match e {
        crate::store::StoreError::Invalid(m) => CliError::usage(m),
        other => CliError::other(other.to_string()),
    };
    match cmd {
        ListCmd::Create { name, kind } => {
            store.create_list(&name, kind).map_err(fail)?;
            ctx.note(&format!("list {name} ({})", kind.as_str()));
        }
        ListCmd::Add {
            name,
            values,
            domains,
            ids,
            file,
            column,
        } => {
            let existing = store.list(&name).map_err(fail)?.map(|l| l.kind);
            let kind = match (existing, domains.is_empty(), ids.is_empty()) {
                (Some(k), _, _) => k,
                (None, true, false) => ListKind::Contacts,
                _ => ListKind::Accounts,
            };
            let mut keys = domains;
            keys.extend(ids);
            if file.is_some() || !values.is_empty() {
                let source = match (file, values.as_slice()) {
                    (None, [one]) if one.trim() == "-" => KeySource::List(
                        engine::read_key_list(std::io::stdin(), "stdin")
                            .map_err(|e| CliError::usage(e.0))?,
                    ),
                    (file, _) => key_source(values, file, column)?,
                };
                keys.extend(source.read_all().map_err(|e| CliError::usage(e.0))?);
            }
            if keys.is_empty() {
                return Err(CliError::usage(
                    "list add: give members (--domains, --ids, --file, values or - for stdin)",
                ));
            }
            let (added, had, bad) = store.add_to_list(&name, kind, &keys).map_err(fail)?;
            ctx.note(&format!(
                "list {name}: {added} added, {had} already in it{}",
                if bad > 0 {
                    format!(
                        ", {bad} left out (not a {})",
                        kind.as_str().trim_end_matches('s')
                    )
                } else {
                    String::new()
                }
            ));
        }
        ListCmd::Show { name, out } => list_out(ctx, &store, &name, &out, None)?,
        ListCmd::Export { name, out, crm } => list_out(ctx, &store, &name, &out, Some(&crm))?,
        ListCmd::Ls { out } => {
            let mut w = Writer::<crate::core::export::ListOut>::new(
                Format::resolve(out.format, &out.out),
                out.out.as_ref(),
            )?;
            for l in store.lists().map_err(fail)? {
                w.write(&l.into())?;
            }
            w.finish()?;
        }
        ListCmd::Rm { name } => {
            if !store.remove_list(&name).map_err(fail)? {
                return Err(CliError::usage(format!("no list {name}")));
            }
            ctx.note(&format!("list {name} deleted"));
        }
    }
    Ok(())
}

/// A list's members with their stored data: as records, or in a CRM layout (`crm` with a
/// preset or an email filter).
fn list_out(
    ctx: &Ctx,
    store: &crate::store::Store,
    name: &str,
    out: &OutArgs,
    crm: Option<&CrmArgs>,
) -> CliResult {
    use crate::store::ListRecords;
    let records = store
        .list_records(name)
        .map_err(|e| CliError::other(e.to_string()))?
        .ok_or_else(|| CliError::usage(format!("no list {name} (see `prospect list ls`)")))?;
    if let Some(crm) = crm.filter(|c| c.preset.is_some() || c.emails.is_some()) {
        let subject = match records {
            ListRecords::Accounts(_) => SearchSubject::Companies,
            ListRecords::Contacts(_) => SearchSubject::People,
        };
        let (mut w, preset) = crm_writer(crm, subject, out)?;
        match &records {
            ListRecords::Accounts(v) => v.iter().try_for_each(|c| w.company(c))?,
            ListRecords::Contacts(v) => v.iter().try_for_each(|p| w.person(p))?,
        }
        let emails = w.emails();
        let counts = w.finish()?;
        ctx.note(&format!(
            "list {name}: {} as {}",
            counts.describe(emails),
            preset.name()
        ));
        return Ok(());
    }
    let format = Format::resolve(out.format, &out.out);
    let n = match records {
        ListRecords::Accounts(v) => {
            let mut w = Writer::<CompanyOut>::new(format, out.out.as_ref())?;
            for company in v {
                w.write(&CompanyOut {
                    company,
                    relevance: None,
                    score: None,
                })?;
            }
            w.finish()?
        }
        ListRecords::Contacts(v) => {
            let mut w = Writer::<LookalikePerson>::new(format, out.out.as_ref())?;
            for p in v {
                w.write(&p)?;
            }
            w.finish()?
        }
    };
    ctx.note(&format!("list {name}: {n} members"));
    Ok(())
}

/// `prospect store migrate|copy` (issue 17).
fn store_cmd(ctx: &Ctx, cmd: StoreCmd) -> CliResult {
    let open = |url: &str| -> Result<crate::store::Store, CliError> {
        let url = crate::store::StoreUrl::parse(url).map_err(CliError::usage)?;
        crate::store::Store::open_url(&url).map_err(|e| CliError::other(e.to_string()))
    };
    match cmd {
        StoreCmd::Migrate { out } => {
            let mut store = open_named_store(ctx)?;
            let version = store
                .schema_version()
                .map_err(|e| CliError::other(e.to_string()))?;
            // A table that went missing is made again (issue 34); the recovery files of the
            // answers it could not keep are imported at the next paid command's start.
            let repaired = store.repair().map_err(|e| CliError::other(e.to_string()))?;
            let check = store
                .quick_check()
                .map_err(|e| CliError::other(e.to_string()))?;
            write_pairs(
                &out,
                serde_json::json!({
                    "store": store.path().display().to_string(),
                    "shared": store.is_shared(),
                    "schema": version,
                    "repaired": repaired,
                    "check": check.as_deref().unwrap_or("ok"),
                }),
            )?;
            match check {
                None => Ok(()),
                Some(problems) => Err(CliError::other(format!(
                    "the store file is damaged (quick_check: {problems}); copy what reads into \
                     a new store with `prospect store copy`"
                ))),
            }
        }
        StoreCmd::Budget {
            standard,
            email,
            phone,
            clear,
            out,
        } => {
            let mut store = open_named_store(ctx)?;
            let mut budget = if clear {
                crate::store::Budget::default()
            } else {
                store
                    .team_budget()
                    .map_err(|e| CliError::other(e.to_string()))?
            };
            let changes = clear || standard.is_some() || email.is_some() || phone.is_some();
            budget.standard_per_day = standard.or(budget.standard_per_day);
            budget.email_per_day = email.or(budget.email_per_day);
            budget.phone_per_day = phone.or(budget.phone_per_day);
            if changes {
                store.set_team_budget(&budget).map_err(|e| match e {
                    crate::store::StoreError::Invalid(m) => CliError::usage(m),
                    e => CliError::other(e.to_string()),
                })?;
            }
            let limit = |v: Option<f64>| v.map_or(Value::from("none"), Value::from);
            write_pairs(
                &out,
                serde_json::json!({
                    "store": store.path().display().to_string(),
                    "standard_per_day": limit(budget.standard_per_day),
                    "email_per_day": limit(budget.email_per_day),
                    "phone_per_day": limit(budget.phone_per_day),
                }),
            )
        }
        StoreCmd::Copy { from, to, out } => {
            let source = open(&from)?;
            let mut dest = open(&to)?;
            let report = source.copy_into(&mut dest).map_err(|e| {
                CliError::other(format!("copy stopped (run it again to finish): {e}"))
            })?;
            write_pairs(&out, serde_json::to_value(&report).unwrap_or_default())
        }
    }
}

/// `prospect suppress import|list|clear` (`crate::core::suppress`).
fn suppress(ctx: &Ctx, cmd: SuppressCmd) -> CliResult {
    let (mut store, path) = open_store(ctx)?;
    let fail = |e: crate::store::StoreError| CliError::other(e.to_string());
    match cmd {
        SuppressCmd::Import { file, category } => {
            let entries = crate::core::suppress::read_suppression_file(&file)
                .map_err(|e| CliError::usage(e.to_string()))?;
            let source = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let added = store
                .suppress(category.as_str(), &source, &entries)
                .map_err(fail)?;
            ctx.note(&format!(
                "{added} new of {} entries read into {} ({})",
                entries.len(),
                category.as_str(),
                path.display()
            ));
        }
        SuppressCmd::List { out } => {
            let rows = store.suppression_counts().map_err(fail)?;
            let mut w = Writer::<crate::core::suppress::CategoryRow>::new(
                Format::resolve(out.format, &out.out),
                out.out.as_ref(),
            )?;
            for r in rows {
                w.write(&r.into())?;
            }
            w.finish()?;
        }
        SuppressCmd::Clear { category } => {
            let n = store.clear_suppression(category.as_str()).map_err(fail)?;
            ctx.note(&format!("{n} entries removed from {}", category.as_str()));
        }
    }
    Ok(())
}

/// `prospect jobs`: the jobs of the store (open ones, or all), newest first.
fn jobs(ctx: &Ctx, all: bool, limit: usize, out: &OutArgs) -> CliResult {
    let (mut store, _) = open_store(ctx)?;
    store
        .mark_interrupted()
        .map_err(|e| CliError::other(e.to_string()))?;
    let list = store
        .jobs(limit, !all)
        .map_err(|e| CliError::other(e.to_string()))?;
    let mut w = Writer::<Pair>::new(Format::resolve(out.format, &out.out), out.out.as_ref())?;
    for j in list {
        w.write(&Pair {
            key: format!("{} {} {}", j.id, j.state, j.kind),
            value: serde_json::json!({
                "id": j.id.0,
                "kind": j.kind,
                "state": j.state,
                "bought": j.bought,
                "createdAt": j.created_at.to_rfc3339(),
                "updatedAt": j.updated_at.to_rfc3339(),
                "detail": j.detail,
                "action": Plan::of_job(&j).map(|p| p.action).filter(|a| !a.is_empty()),
                "resume": format!("prospect resume {}", j.id),
            }),
        })?;
    }
    w.finish()?;
    Ok(())
}

/// `history show ID` and `export search ID`: the records of a stored search, page after page,
/// as the search wrote them (contacts joined), at 0 credits.
fn stored_search(ctx: &Ctx, id: Option<i64>, what: &str, out: &OutArgs) -> CliResult {
    let Some(id) = id else {
        return Err(CliError::usage(format!(
            "`{what}` needs a search id (see `prospect history`)"
        )));
    };
    let (store, _) = open_store(ctx)?;
    let found = crate::core::session::read_stored_search(&store, crate::store::SearchId(id))
        .map_err(CliError::usage)?;
    let format = Format::resolve(out.format, &out.out);
    let n = match found.request.subject() {
        crate::api::client::SearchSubject::Companies => {
            let mut w = Writer::<CompanyOut>::new(format, out.out.as_ref())?;
            for p in found.pages {
                for c in companies_of(p.response) {
                    w.write(&c)?;
                }
            }
            w.finish()?
        }
        crate::api::client::SearchSubject::People => {
            let mut w = Writer::<LookalikePerson>::new(format, out.out.as_ref())?;
            for p in found.pages {
                for person in people_of(p.response) {
                    w.write(&person)?;
                }
            }
            w.finish()?
        }
    };
    ctx.note(&format!("{n} records of stored search {id}, 0 credits"));
    Ok(())
}

fn history(ctx: &Ctx, limit: usize, spend: bool, user: Option<&str>, out: &OutArgs) -> CliResult {
    let (store, _) = open_store(ctx)?;
    if spend || user.is_some() {
        // Answers paid for and kept in recovery files are spent too (issue 34).
        let primary = match store.is_shared() {
            true => ctx.settings.data_dir().map(|d| d.join("recovery")),
            false => engine::recovery_dir_of(store.path()),
        };
        let store = std::sync::Mutex::new(store);
        if let Some(dir) = primary {
            let (_, failed) = engine::import_recovery_from(&store, &dir);
            if let Some(first) = failed.first() {
                eprintln!(
                    "prospect: {} recovery file(s) could not be imported and are not counted \
                     ({first})",
                    failed.len()
                );
            }
        }
        let store = store
            .into_inner()
            .map_err(|_| CliError::other("the store is unusable"))?;
        let log = store
            .spend_log(limit, user)
            .map_err(|e| CliError::other(e.to_string()))?;
        let mut w = Writer::<crate::store::Spend>::new(
            Format::resolve(out.format, &out.out),
            out.out.as_ref(),
        )?;
        for s in log {
            w.write(&s)?;
        }
        w.finish()?;
        return Ok(());
    }
    let searches = store
        .searches(limit)
        .map_err(|e| CliError::other(e.to_string()))?;
    let mut w = Writer::<crate::core::export::SearchOut>::new(
        Format::resolve(out.format, &out.out),
        out.out.as_ref(),
    )?;
    for s in searches {
        w.write(&s.into())?;
    }
    w.finish()?;
    Ok(())
}

fn export(ctx: &Ctx, kind: ExportKind, out: &OutArgs, crm: &CrmArgs) -> CliResult {
    let (store, path) = open_store(ctx)?;
    let fail = |e: crate::store::StoreError| CliError::other(e.to_string());
    if crm.preset.is_some() || crm.emails.is_some() {
        return export_crm(ctx, &store, kind, out, crm, &path);
    }
    let format = Format::resolve(out.format, &out.out);
    let n = match kind {
        // Dispatched to `stored_search` with its id.
        ExportKind::Search => {
            return Err(CliError::usage(
                "`export search` needs a search id (see `prospect history`)",
            ));
        }
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
                .for_each_person_joined(|p| w.write(&p))
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

/// The CRM writer `crm` asks for (a preset, else `plain` with an email filter) of `subject`
/// rows to `out`. Errors: a `--format` other than CSV; a preset for the other subject.
fn crm_writer(
    crm: &CrmArgs,
    subject: SearchSubject,
    out: &OutArgs,
) -> Result<(crate::core::crm::CrmWriter, crate::core::crm::Preset), CliError> {
    use crate::core::crm::{CrmError, CrmWriter, Preset};
    if out.format.is_some_and(|f| f != Format::Csv) {
        return Err(CliError::usage(
            "--preset and --emails write CSV: leave out --format or give --format csv",
        ));
    }
    let preset = crm.preset.unwrap_or(Preset::Plain);
    let w = CrmWriter::new(preset, subject, crm.emails, out.out.as_ref()).map_err(|e| match e {
        CrmError::Io(e) => CliError::from(e),
        other => CliError::usage(other.to_string()),
    })?;
    Ok((w, preset))
}

/// `export companies|people --preset … [--emails …]`: the store's companies or people (with
/// their contacts and employer joined) as a CRM import CSV (`crate::core::crm`).
fn export_crm(
    ctx: &Ctx,
    store: &crate::store::Store,
    kind: ExportKind,
    out: &OutArgs,
    crm: &CrmArgs,
    path: &std::path::Path,
) -> CliResult {
    let subject = match kind {
        ExportKind::Companies => SearchSubject::Companies,
        ExportKind::People => SearchSubject::People,
        ExportKind::Contacts | ExportKind::Search => {
            return Err(CliError::usage(
                "--preset and --emails are for `export companies` and `export people` (people carry their contacts)",
            ));
        }
    };
    let (mut w, preset) = crm_writer(crm, subject, out)?;
    let fail = |e: crate::store::StoreError| CliError::other(e.to_string());
    match subject {
        SearchSubject::Companies => store.for_each_company(|c| w.company(&c.value)),
        SearchSubject::People => store.for_each_person_joined(|p| w.person(&p)),
    }
    .map_err(fail)?;
    let emails = w.emails();
    let counts = w.finish()?;
    ctx.note(&format!(
        "{} as {} from {}",
        counts.describe(emails),
        preset.name(),
        path.display()
    ));
    Ok(())
}
