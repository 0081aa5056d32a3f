//! `prospect search` (and the runs of lookups and resumed jobs): a search planned, gated and
//! run through the spend engine as a job, its records written as they are kept.

use crate::*;

/// Run a search and print up to --limit results, paging with searchAfter.
#[derive(Debug, Clone, clap::Args)]
pub struct SearchArgs {
    /// Companies or people.
    pub subject: SearchSubject,
    /// Use the legacy v2 endpoint instead of v3.
    #[arg(long)]
    pub v2: bool,
    /// A saved filter set: its name (`filters/NAME.json` in the config directory) or a JSON
    /// file with the request body members. Its runs are recorded under its name.
    #[arg(long, conflicts_with = "body")]
    pub filters: Option<PathBuf>,
    /// Only results the set's earlier runs did not buy: those go in as the API's excludes
    /// (`excludeDomains`, `excludePeopleIds`), so only new results are charged.
    #[arg(long, requires = "filters")]
    pub new_only: bool,
    /// Most owned keys sent as excludes by --new-only (default and most: 10,000); owned
    /// results past it come back, are paid again, and are left out of the output.
    #[arg(long, requires = "new_only")]
    pub exclude_cap: Option<u64>,
    /// The request body as JSON; `-` reads it from stdin.
    #[arg(long)]
    pub body: Option<String>,
    /// Most results to fetch (default: the body's size, else 50).
    #[arg(long)]
    pub limit: Option<u64>,
    #[command(flatten)]
    pub spend: SpendArgs,
    #[command(flatten)]
    pub out: OutArgs,
}

/// Runs `prospect search`: the endpoint of the subject and version (SPEC.md §4.2, §4.3), the
/// body from `--filters` or `--body`, planned, gated and run as a job ([`run_action`]).
///
/// Errors: a filter file or body that does not read (exit 2), a body the service would refuse
/// (exit 8), and the run's ([`Ctx::settle`]).
pub(crate) async fn search(ctx: &Ctx, a: SearchArgs) -> CliResult {
    let endpoint = match (a.subject, a.v2) {
        (SearchSubject::Companies, false) => Endpoint::SearchCompaniesV3,
        (SearchSubject::Companies, true) => Endpoint::SearchCompaniesV2,
        (SearchSubject::People, false) => Endpoint::SearchPeopleV3,
        (SearchSubject::People, true) => Endpoint::SearchPeopleV2,
    };
    let (filters, set) = match &a.filters {
        Some(f) => {
            let (name, path) = set_file(ctx, f)?;
            let set = SetSearch {
                name,
                new_only: a.new_only,
                exclude_cap: a.exclude_cap,
                run_at: None,
            };
            (Some(path), Some(set))
        }
        None => (None, None),
    };
    let mut action = search_action(endpoint, filters, a.body, a.limit)?;
    if let Action::Search { set: s, .. } = &mut action {
        *s = set;
    }
    run_action(ctx, action, &a.spend, &a.out).await
}

/// The name and file of the set `--filters` (or `watch`) names: a file, else a saved set's
/// name ([`prospect_core::filter_set::resolve`]). Errors (exit 2): neither.
pub(crate) fn set_file(ctx: &Ctx, what: &std::path::Path) -> CliResult<(String, PathBuf)> {
    prospect_core::filter_set::resolve(&ctx.settings.filters_dir(), &what.to_string_lossy())
        .map_err(|e| CliError::usage(e.to_string()))
}

/// Reads the search body of `endpoint` from `--filters` (the set's search of the endpoint's
/// subject: its own, or its other tab's when it holds both), `--body JSON` or `--body -`
/// (stdin). Errors (exit 2): a file or body that does not read; a set with no search of the
/// subject.
pub(crate) fn search_body(
    endpoint: Endpoint,
    filters: Option<PathBuf>,
    body: Option<String>,
) -> CliResult<Value> {
    if let Some(f) = filters {
        let set =
            prospect_core::filter_set::load(&f).map_err(|e| CliError::usage(e.to_string()))?;
        let found = endpoint
            .search_subject()
            .and_then(|subject| set.for_subject(subject));
        return match found {
            Some((_, body)) => Ok(body.clone()),
            None => Err(CliError::usage(format!(
                "the filter set is for {}, not {}",
                set.endpoint.path(),
                endpoint.path()
            ))),
        };
    }
    let text = match body.as_deref() {
        None => "{}".to_string(),
        Some("-") => prospect_common::fsutil::read_bounded(
            std::io::stdin().lock(),
            prospect_common::fsutil::MAX_JSON_INPUT,
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
    Ok(v)
}

pub(crate) fn invalid(problems: Vec<ValidationError>) -> CliError {
    CliError::from(ApiError::Invalid(problems))
}

/// The search action of the command line: the body from `--filters` / `--body`, checked
/// (its `size` and `from`, when given, must be whole numbers in range: never replaced), and
/// the limit (`--limit`, else the body's `size`, else 50).
pub(crate) fn search_action(
    endpoint: Endpoint,
    filters: Option<PathBuf>,
    body: Option<String>,
    limit: Option<u64>,
) -> CliResult<Action> {
    // The set's search of the endpoint's subject (refused when it holds none).
    let body = search_body(endpoint, filters, body)?;
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
    Ok(Action::search(endpoint, &body, limit, None))
}

/// Plans, gates and runs a search, lookup or enrich through the spend engine's one door
/// ([`engine::run`], a job), writing its records as they are kept; the exit says what happened
/// ([`Ctx::settle`]).
pub(crate) async fn run_action(
    ctx: &Ctx,
    action: Action,
    spend: &SpendArgs,
    out: &OutArgs,
) -> CliResult {
    let Some(plan) = ctx.plan(&action, spend, out).await? else {
        return Ok(());
    };
    let fresh = freshness(spend);
    let plan = JobOptions::of(spend, out, None).kept_in(&plan);
    if let Action::EnrichCompany { .. } | Action::EnrichPerson { .. } = &action {
        return enrich(ctx, &action, &plan, fresh, out).await;
    }
    let format = Format::resolve(out.format, &out.out);
    let pb = ctx.progress(plan.asked, "buying");
    let people = match &action {
        Action::Search { endpoint, .. } => {
            Endpoint::from_path(endpoint).and_then(|e| e.search_subject())
                == Some(prospect_api::client::SearchSubject::People)
        }
        _ => matches!(action, Action::LookupPeople { .. }),
    };
    let mut w = match (&action, people) {
        (Action::Search { .. }, false) => {
            Records::Companies(Writer::new(format, out.out.as_ref())?)
        }
        (Action::Search { .. }, true) => Records::People(Writer::new(format, out.out.as_ref())?),
        (_, false) => Records::LookedUpCompanies(Writer::new(format, out.out.as_ref())?),
        (_, true) => Records::LookedUpPeople(Writer::new(format, out.out.as_ref())?),
    };
    // Companies are handed on rendered in the output's form: a run of the same search again
    // then writes the rows kept with its pages (issue 39).
    let rows = match &w {
        Records::Companies(_) => RowForm::of(format),
        _ => None,
    };
    let ran = engine::run_with_rows(
        ctx.session(),
        &action,
        &plan,
        fresh,
        rows,
        &ctx.stop,
        |event| w.write(&pb, event),
    )
    .await;
    pb.finish_and_clear();
    let report = w.finish(ran.report);
    ctx.settle(report, ran.job)
}

/// Where a run's records go, by what it returns.
enum Records {
    Companies(Writer<CompanyOut>),
    People(Writer<LookalikePerson>),
    LookedUpCompanies(Writer<LookupOut<Company>>),
    LookedUpPeople(Writer<LookupOut<LookalikePerson>>),
}

impl Records {
    /// Writes the records of one event of the run (each page's up to the limit).
    fn write(&mut self, pb: &indicatif::ProgressBar, event: engine::Event) -> std::io::Result<()> {
        match (self, event) {
            (Records::Companies(w), engine::Event::Page(page)) => {
                pb.inc(page.take as u64);
                match page.rows {
                    Some(rows) => {
                        for (_, row) in rows.iter() {
                            w.write_rendered(row)?;
                        }
                    }
                    None => {
                        for rec in companies_of(page.response).into_iter().take(page.take) {
                            w.write(&rec)?;
                        }
                    }
                }
            }
            (Records::People(w), engine::Event::Page(page)) => {
                pb.inc(page.take as u64);
                for rec in people_of(page.response).into_iter().take(page.take) {
                    w.write(&rec)?;
                }
            }
            (Records::LookedUpCompanies(w), engine::Event::Companies(e)) => {
                write_entries(w, pb, e)?
            }
            (Records::LookedUpPeople(w), engine::Event::People(e)) => write_entries(w, pb, e)?,
            _ => {}
        }
        Ok(())
    }

    /// Finishes the output; a failure to is the report's error (unless it already has one).
    fn finish(self, report: RunReport) -> RunReport {
        match self {
            Records::Companies(w) => finish_writer(w, report),
            Records::People(w) => finish_writer(w, report),
            Records::LookedUpCompanies(w) => finish_writer(w, report),
            Records::LookedUpPeople(w) => finish_writer(w, report),
        }
    }
}
