//! `prospect segment`: segmentations of customer domains (create, show, attribute, mark, list).

use crate::*;

/// The domains of a `segment` command ([`DomainArgs`]): `--list NAME`'s members, else the
/// file's, else the values and `--domains`.
pub(crate) fn segment_domains(ctx: &Ctx, from: DomainArgs) -> CliResult<Vec<String>> {
    let keys = match &from.list {
        Some(name) => KeySource::List(list_keys(ctx, Some(name), ListKind::Accounts)?),
        None => {
            let mut values = from.domains;
            values.extend(from.values);
            key_source(values, from.file, from.column, &[KeyColumn::Domain])?
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

/// `prospect segment create|show|list|mark|attribute` (issue 18; [`prospect_core::segment`]).
pub(crate) async fn segment(ctx: &Ctx, cmd: SegmentCmd) -> CliResult {
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
                    let known = prospect_api::types::LeadScoringFeature::ALL_STR.contains(&f);
                    if known {
                        Ok(f.parse()
                            .unwrap_or(prospect_api::types::LeadScoringFeature::Industries))
                    } else {
                        Err(CliError::usage(format!(
                            "--features: {f:?} is not a feature; one of {}",
                            prospect_api::types::LeadScoringFeature::ALL_STR.join(", ")
                        )))
                    }
                })
                .collect::<CliResult<Vec<_>>>()?;
            let input = prospect_api::types::SegmentationInput {
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
                    prospect_core::segment::READY_POLL,
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
            let rows = store.segmentations(&target, 1000)?;
            let rows: Vec<prospect_core::export::SegmentationOut> =
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
                (prospect_api::types::MarkType::Positive, positive),
                (prospect_api::types::MarkType::Negative, negative),
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

/// Plans, gates and buys a segmentation through the engine's one door ([`engine::run`], a job) (0 credits when the same input was bought);
/// prints its id and status, or with `wait` (seconds) waits for its segments and prints them.
pub(crate) async fn create_segmentation(
    ctx: &Ctx,
    action: Action,
    wait: Option<u64>,
    spend: &SpendArgs,
    out: &OutArgs,
) -> CliResult {
    let Action::Segment { request } = &action else {
        return Ok(());
    };
    serde_json::from_value::<prospect_api::types::SegmentationInput>(request.clone())
        .map_err(|e| CliError::usage(format!("segment create: {e}")))?;
    let Some(plan) = ctx.plan(&action, spend, out).await? else {
        return Ok(());
    };
    let s = ctx.session();
    let plan = JobOptions::of(spend, out, wait).kept_in(&plan);
    let mut answer = None;
    let ran = engine::run(s, &action, &plan, freshness(spend), &ctx.stop, |event| {
        if let engine::Event::Answer(a) = event {
            answer = Some(*a);
        }
        Ok(())
    })
    .await;
    let Some(engine::Answer::Segmentation(paid)) = answer else {
        return ctx.settle(ran.report, ran.job);
    };
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
                    prospect_core::segment::READY_POLL,
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
pub(crate) fn write_segments(
    ctx: &Ctx,
    answer: &prospect_api::types::Segmentation,
    out: &OutArgs,
) -> CliResult {
    use prospect_api::types::SegmentationStatus;
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
        "segmentation {id}: {}, {} companies look like them",
        prospect_common::words::counted(answer.segments.len(), "segment", "segments"),
        answer
            .total_addressable_market
            .map_or_else(|| "an unknown number of".to_string(), |n| n.to_string())
    ));
    Ok(())
}
