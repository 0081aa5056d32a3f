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
    /// A saved filter set (JSON file with the request body members).
    #[arg(long, conflicts_with = "body")]
    pub filters: Option<PathBuf>,
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
    let action = search_action(endpoint, a.filters, a.body, a.limit)?;
    run_action(ctx, action, &a.spend, &a.out).await
}

/// Reads the search body from `--filters`, `--body JSON` or `--body -` (stdin).
pub(crate) fn search_body(
    filters: Option<PathBuf>,
    body: Option<String>,
) -> CliResult<(Option<Endpoint>, Value)> {
    if let Some(f) = filters {
        let set =
            prospect_core::filter_set::load(&f).map_err(|e| CliError::usage(e.to_string()))?;
        return Ok((Some(set.endpoint), set.body));
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
    Ok((None, v))
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

/// Plans, gates and runs a search, lookup or enrich through the spend engine as a job, writing
/// its records as they are kept; the exit says what happened ([`Ctx::settle`]).
pub(crate) async fn run_action(
    ctx: &Ctx,
    action: Action,
    spend: &SpendArgs,
    out: &OutArgs,
) -> CliResult {
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
            if ep.search_subject() == Some(prospect_api::client::SearchSubject::People) {
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
pub(crate) struct SearchRun<'a> {
    pub(crate) ctx: &'a Ctx,
    pub(crate) endpoint: &'a str,
    pub(crate) body: &'a Value,
    pub(crate) limit: u64,
    pub(crate) fresh: Freshness,
    pub(crate) job: Option<JobId>,
    pub(crate) pb: &'a indicatif::ProgressBar,
}

impl SearchRun<'_> {
    /// Runs it, writing each page's records (`records` of the answer, up to the limit) to `w`.
    pub(crate) async fn write<T: Tabular>(
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
