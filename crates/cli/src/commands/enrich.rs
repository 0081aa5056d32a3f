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

/// Runs a planned enrich of one company or person through the engine's one door
/// ([`engine::run`], a job; answered from the store when owned) and writes the record. Exit
/// codes: not found (3) while the service still gathers its data, recovery (11) when the
/// store could not keep the answer, partial (10) when it read in part; a failed call as
/// [`Ctx::settle`] says it.
pub(crate) async fn enrich(
    ctx: &Ctx,
    action: &Action,
    plan: &engine::Plan,
    fresh: Freshness,
    out: &OutArgs,
) -> CliResult {
    let mut answer = None;
    let ran = engine::run(ctx.session(), action, plan, fresh, &ctx.stop, |event| {
        if let engine::Event::Answer(a) = event {
            answer = Some(*a);
        }
        Ok(())
    })
    .await;
    let Some(answer) = answer else {
        return ctx.settle(ran.report, ran.job);
    };
    let gathering = |what: String| CliError {
        code: ExitCode::NotFound,
        message: format!("{what} (try again in a few minutes)"),
    };
    let (stored_at, store_error, decode_error) = match answer {
        engine::Answer::Company(paid) => {
            let domain = match action {
                Action::EnrichCompany { domain } => domain.as_str(),
                _ => "",
            };
            let company = match paid.value {
                Enriched::Found(r) => r.company,
                Enriched::Gathering { detail } => {
                    return Err(gathering(format!("{domain}: {detail}")));
                }
            };
            let company = CompanyOut {
                company,
                relevance: None,
                score: None,
            };
            write_one(out, &company)?;
            (paid.stored_at, paid.store_error, paid.decode_error)
        }
        engine::Answer::Person(paid) => {
            let person = match paid.value {
                Enriched::Found(r) => r.person,
                Enriched::Gathering { detail } => return Err(gathering(detail)),
            };
            let person = LookalikePerson {
                person,
                ..LookalikePerson::default()
            };
            write_one(out, &person)?;
            (paid.stored_at, paid.store_error, paid.decode_error)
        }
        engine::Answer::Segmentation(_) => return Ok(()),
    };
    ctx.note_stored(stored_at);
    if let Some(e) = store_error {
        return Err(CliError {
            code: ExitCode::Recovery,
            message: e,
        });
    }
    if let Some(d) = decode_error {
        return Err(CliError {
            code: ExitCode::Partial,
            message: d,
        });
    }
    Ok(())
}

/// The items of a batch enrichment: the members of `--list` (a list of `kind`), else the
/// values, file or stdin given.
pub(crate) fn batch_keys(ctx: &Ctx, b: &BatchArgs, kind: ListKind) -> CliResult<KeySource> {
    match &b.list {
        Some(name) => Ok(KeySource::List(list_keys(ctx, Some(name), kind)?)),
        None => {
            // Companies: a CSV's domain column by its header; people: one person a line.
            let wanted: &[KeyColumn] = match kind {
                ListKind::Accounts => &[KeyColumn::Domain],
                ListKind::Contacts => &[],
            };
            key_source(b.values.clone(), b.file.clone(), b.column.clone(), wanted)
        }
    }
}

/// Plans, gates and sends a batch enrichment of companies through the engine's door for
/// webhook actions (a job; issue 18); waits up to `wait` seconds for its deliveries (stopping
/// early on Ctrl-C), then writes one record per domain asked, in input order: the company the
/// store had or the delivery brought, or `found: false`.
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
    webhook_receiver(ctx, plan.to_buy > 0).await?;
    let ran = by_webhook(ctx, &action, &plan, spend, wait).await;
    let Some(engine::Arrived::Companies(r, arrived)) = &ran.arrived else {
        return ctx.settle(ran.report, ran.job);
    };
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
            record: record.map(Box::new),
            suppressed: r.suppressed.get(&d).cloned(),
        })?;
    }
    w.finish()?;
    batch_note(ctx, r, arrived.len(), ran.left);
    end_by_webhook(ctx, ran, "companies", "enrich", wait)
}

/// The note of a batch enrichment: from the store, sent, awaited from before, found, not yet
/// arrived.
fn batch_note<T>(ctx: &Ctx, r: &prospect_core::session::ByWebhook<T>, found: usize, left: usize) {
    ctx.note(&format!(
        "{} from the store, {} sent, {} awaited from before, {} found, {} not yet arrived",
        r.from_store.len(),
        r.sent.len(),
        r.pending.len(),
        found,
        left
    ));
}

/// Plans, gates and sends a batch enrichment of people as [`enrich_companies`] does for
/// companies: one record per person asked (each line read by [`engine::person_item`]), in
/// input order.
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
    webhook_receiver(ctx, plan.to_buy > 0).await?;
    let ran = by_webhook(ctx, &action, &plan, spend, wait).await;
    let Some(engine::Arrived::People(r, arrived)) = &ran.arrived else {
        return ctx.settle(ran.report, ran.job);
    };
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
            record: record.map(|person| {
                Box::new(LookalikePerson {
                    person,
                    ..LookalikePerson::default()
                })
            }),
            suppressed: r.suppressed.get(&item.key).cloned(),
        })?;
    }
    w.finish()?;
    batch_note(ctx, r, found, ran.left);
    end_by_webhook(ctx, ran, "people", "enrich", wait)
}
