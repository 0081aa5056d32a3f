//! `prospect enrich`: one company or person, or a batch delivered by webhook.

use crate::*;

/// The enrich action of the command line and its spend and output options (one company or
/// person; the batches run by [`enrich_companies`] and [`enrich_people`], which the dispatch
/// calls first).
pub(crate) fn enrich_action(cmd: EnrichCmd) -> CliResult<(Action, SpendArgs, OutArgs)> {
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
                person: prospect_api::types::PersonMatch {
                    id,
                    email,
                    linkedin,
                    name,
                    ..Default::default()
                },
                company: domain.map(|d| prospect_api::types::CompanyMatch {
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
pub(crate) async fn enrich(
    ctx: &Ctx,
    action: &Action,
    fresh: Freshness,
    out: &OutArgs,
) -> CliResult {
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
                company: Some(prospect_api::types::CompanyMatch {
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

/// Ends a batch enrichment: the job finished with its report (`found` records arrived; what
/// their deliveries `charged`, from [`prospect_core::session::ByWebhook::delivered_cost`]), a
/// note of what happened, and the exit: an error (network class) when `left` of the awaited
/// `noun` had not arrived after `wait` s (unless Ctrl-C ended the wait), else [`Ctx::settle`].
#[allow(clippy::too_many_arguments)]
pub(crate) async fn end_batch<T>(
    ctx: &Ctx,
    job: Option<JobId>,
    noun: &str,
    r: &prospect_core::session::ByWebhook<T>,
    found: usize,
    charged: prospect_api::cost::Cost,
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
pub(crate) async fn batch_not_sent(
    ctx: &Ctx,
    job: Option<JobId>,
    e: prospect_api::error::ApiError,
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
pub(crate) fn batch_keys(ctx: &Ctx, b: &BatchArgs, kind: ListKind) -> CliResult<KeySource> {
    match &b.list {
        Some(name) => Ok(KeySource::List(list_keys(ctx, Some(name), kind)?)),
        None => key_source(b.values.clone(), b.file.clone(), b.column.clone()),
    }
}

/// Plans, gates and sends a batch enrichment of companies as a job (issue 18); waits up to
/// `wait` seconds for its webhook deliveries (stopping early on Ctrl-C), then writes one
/// record per domain asked, in input order: the company the store had or the delivery
/// brought, or `found: false`.
pub(crate) async fn enrich_companies(
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
        .map(|d| prospect_store::company_claim(d))
        .collect();
    let left = await_deliveries(ctx, &claims, wait).await;
    let arrived = s.stored_companies(&awaited).await;
    let mut w =
        Writer::<LookupOut<Company>>::new(Format::resolve(out.format, &out.out), out.out.as_ref())?;
    let mut seen = std::collections::HashSet::new();
    for given in &asked {
        let Some(d) = prospect_common::keys::domain_key(given) else {
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
pub(crate) async fn enrich_people(
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
