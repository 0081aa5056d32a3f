//! `prospect lookup`: companies by domain or people by handle or service id (SPEC.md §4.5,
//! §4.6), from arguments, a file, stdin or a list.

use crate::*;

/// Look up companies by domain or people by handle / service id, from arguments or a file.
#[derive(Debug, Clone, clap::Args)]
pub struct LookupArgs {
    /// Companies or people.
    pub subject: SearchSubject,
    /// A file: one value per line, or a CSV with --column; `-` reads stdin. Read as a
    /// stream (at most 256 MiB, lines of at most 4 KiB, 5,000,000 keys).
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// The CSV column holding the values (name from the header, or a 1-based number).
    #[arg(long, requires = "file")]
    pub column: Option<String>,
    /// Values (domains; for people: handles/URLs, or ids with --ids).
    pub values: Vec<String>,
    /// For people: the values are service ids, not handles.
    #[arg(long)]
    pub ids: bool,
    /// The members of a list (`prospect list`): an account list's domains, or a contact
    /// list's person ids (implies --ids); those stored already cost 0.
    #[arg(long, conflicts_with_all = ["file", "values"])]
    pub list: Option<String>,
    #[command(flatten)]
    pub spend: SpendArgs,
    #[command(flatten)]
    pub out: OutArgs,
}

/// Runs `prospect lookup`: the keys from the arguments, `--file` (streamed) or `--list`,
/// planned, gated and run as a job ([`run_action`]).
///
/// Errors: no keys, or a key list that does not read (exit 2), and the run's.
pub(crate) async fn lookup(ctx: &Ctx, a: LookupArgs) -> CliResult {
    let (keys, ids) = match (&a.list, a.subject) {
        (Some(_), SearchSubject::Companies) => (
            KeySource::List(list_keys(ctx, a.list.as_deref(), ListKind::Accounts)?),
            a.ids,
        ),
        (Some(_), SearchSubject::People) => (
            KeySource::List(list_keys(ctx, a.list.as_deref(), ListKind::Contacts)?),
            true,
        ),
        (None, subject) => {
            // A CSV's key column is found by its header (a CRM export) unless --column names it.
            let wanted: &[KeyColumn] = match (subject, a.ids) {
                (SearchSubject::Companies, _) => &[KeyColumn::Domain],
                (SearchSubject::People, true) => &[KeyColumn::PersonId],
                (SearchSubject::People, false) => &[KeyColumn::Profile],
            };
            (key_source(a.values, a.file, a.column, wanted)?, a.ids)
        }
    };
    let action = match a.subject {
        SearchSubject::Companies => Action::LookupCompanies { keys },
        SearchSubject::People => Action::LookupPeople {
            keys,
            ids,
            by_shape: false,
        },
    };
    run_action(ctx, action, &a.spend, &a.out).await
}

/// The keys of a lookup: values, a file (`-`: stdin, read whole), or both. A file that is a
/// CSV is read from `column`, else from its first column of a `wanted` kind found by its header
/// ([`KeySource::file_of`]: `Company Domain Name` in a HubSpot export); no kind wanted reads it
/// one key a line.
///
/// Errors (exit 2): no keys; a CSV with no column of a wanted kind; a list that does not read.
pub(crate) fn key_source(
    values: Vec<String>,
    file: Option<PathBuf>,
    column: Option<String>,
    wanted: &[KeyColumn],
) -> CliResult<KeySource> {
    let file_keys = |path: PathBuf, column: Option<String>| match column {
        None if !wanted.is_empty() => {
            KeySource::file_of(path, wanted).map_err(|e| CliError::usage(e.0))
        }
        column => Ok(KeySource::File { path, column }),
    };
    let keys = match file {
        Some(f) if f.as_os_str() == "-" => {
            let mut all = values;
            all.extend(
                engine::read_key_list(std::io::stdin(), "stdin")
                    .map_err(|e| CliError::usage(e.0))?,
            );
            KeySource::List(all)
        }
        Some(path) if values.is_empty() => file_keys(path, column)?,
        Some(path) => {
            let mut all = values;
            all.extend(
                file_keys(path, column)?
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
