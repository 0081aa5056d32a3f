//! The command line's shape (clap): every command, its arguments and the options the paid
//! commands share (`--max-credits`, `--dry-run`, `--format`, `--out`).

use super::*;

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
        category: prospect_core::suppress::Category,
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
        category: prospect_core::suppress::Category,
    },
}

/// The CRM layout of an export (`prospect_core::crm`).
#[derive(Debug, Clone, clap::Args)]
pub struct CrmArgs {
    /// Write a CSV in a CRM's import layout: its column names, one row per entity deduped by
    /// the CRM's key (domain for companies, email for contacts and leads). Implies
    /// `--format csv`.
    #[arg(long, value_enum)]
    pub preset: Option<prospect_core::crm::Preset>,
    /// Which people to keep by their email's verification status (default: verified+catchAll
    /// for hubspot-contacts and salesforce-leads, all otherwise).
    #[arg(long, value_enum)]
    pub emails: Option<prospect_core::crm::EmailFilter>,
    /// Keep suppressed companies and people (`prospect suppress`) in a CRM export; they are
    /// left out by default, since suppression covers outreach too, and counted on stderr.
    #[arg(long)]
    pub include_suppressed: bool,
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
pub(crate) fn parse_credits(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!(
            "{text:?} is not a number of credits (a finite number, 0 or more)"
        )),
    }
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

/// The contact kind of `reveal emails|phones` (the one kind, [`ContactKind`]), by its plural
/// name on the command line.
pub(crate) fn contact_kind_arg() -> impl clap::builder::TypedValueParser<Value = ContactKind> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new([
        clap::builder::PossibleValue::new("emails").help("Emails (email credits)"),
        clap::builder::PossibleValue::new("phones").help("Phones (phone credits)"),
    ])
    .map(|s| match s.as_str() {
        "emails" => ContactKind::Email,
        _ => ContactKind::Phone,
    })
}

/// Seconds `enrich companies|people` and `reveal` wait for their webhook deliveries unless
/// `--wait SECS` says otherwise (also what `--wait` alone means), and `resume` waits: 180.
pub(crate) const WEBHOOK_WAIT: &str = "180";

/// [`WEBHOOK_WAIT`] as a number (read when compiling).
pub(crate) const WEBHOOK_WAIT_SECS: u64 = match u64::from_str_radix(WEBHOOK_WAIT, 10) {
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
    pub(crate) file: Option<PathBuf>,
    /// The CSV column holding the items (name from the header, or a 1-based number).
    #[arg(long, requires = "file")]
    pub(crate) column: Option<String>,
    /// Items: domains; for people, ids, profile URLs or emails.
    pub(crate) values: Vec<String>,
    /// The members of a list (`prospect list`): an account list's domains, a contact list's
    /// person ids.
    #[arg(long, conflicts_with_all = ["file", "values"])]
    pub(crate) list: Option<String>,
    /// Seconds to wait for the webhook deliveries (0: do not wait); `--wait` alone waits the
    /// default.
    #[arg(long, default_value = WEBHOOK_WAIT, num_args = 0..=1, default_missing_value = WEBHOOK_WAIT, value_name = "SECS")]
    pub(crate) wait: u64,
    #[command(flatten)]
    pub(crate) spend: SpendArgs,
    #[command(flatten)]
    pub(crate) out: OutArgs,
}

/// The company domains of a `segment` command: values, `--domains`, a file, or a list.
#[derive(Debug, Clone, clap::Args)]
pub struct DomainArgs {
    /// Domains, comma-separated (or give them as values).
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["file", "list"])]
    pub(crate) domains: Vec<String>,
    /// A file: one domain a line, or a CSV with --column; `-` reads stdin.
    #[arg(long)]
    pub(crate) file: Option<PathBuf>,
    /// The CSV column holding the domains (name from the header, or a 1-based number).
    #[arg(long, requires = "file")]
    pub(crate) column: Option<String>,
    /// The members of an account list (`prospect list`).
    #[arg(long, conflicts_with_all = ["file", "values"])]
    pub(crate) list: Option<String>,
    /// Domains, as values.
    pub(crate) values: Vec<String>,
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
    Search(SearchArgs),
    /// Run saved filter sets for their new matches only (what their earlier runs bought is
    /// excluded, and not paid for again) and print those, each row with its set's name.
    Watch(WatchArgs),
    /// Type-ahead suggestions (0.1 credit).
    Autocomplete {
        /// Which autocomplete.
        kind: prospect_api::client::AutocompleteKind,
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
    Lookup(LookupArgs),
    /// Reveal emails or phones of person ids; results arrive by webhook.
    Reveal(RevealArgs),
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
    Curl(CurlArgs),
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
    Resume(ResumeArgs),
}

impl Command {
    /// `true` for the commands that can spend credits (they stop gracefully on a signal).
    pub(crate) fn is_paid(&self) -> bool {
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

    pub(crate) fn needs_service(&self) -> bool {
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
                | Command::Watch(WatchArgs { history: true, .. })
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
