//! `prospect reveal`: emails or phones of people, delivered by webhook to the receiver.

use crate::*;

/// Reveal emails or phones of person ids; results arrive by webhook.
#[derive(Debug, Clone, clap::Args)]
pub struct RevealArgs {
    /// Emails or phones.
    pub kind: RevealKind,
    /// Person ids, comma-separated; `-` reads them from stdin, one per line.
    #[arg(long, value_delimiter = ',', required_unless_present_any = ["ids_file", "list"])]
    pub ids: Vec<String>,
    /// A file of person ids, one per line (UTF-8, BOM and CRLF accepted).
    #[arg(long, conflicts_with = "ids")]
    pub ids_file: Option<PathBuf>,
    /// The members of a contact list (`prospect list`): those revealed already cost 0.
    #[arg(long, conflicts_with_all = ["ids", "ids_file"])]
    pub list: Option<String>,
    /// Seconds to wait for the webhook deliveries (0: do not wait); `--wait` alone waits the
    /// default.
    #[arg(long, default_value = WEBHOOK_WAIT, num_args = 0..=1, default_missing_value = WEBHOOK_WAIT, value_name = "SECS")]
    pub wait: u64,
    #[command(flatten)]
    pub spend: SpendArgs,
    #[command(flatten)]
    pub out: OutArgs,
}

/// Runs `prospect reveal`: the person ids from `--ids`, `--ids-file`, stdin or `--list`, then
/// [`reveal`] (planned, sent, its webhook deliveries awaited up to `--wait`).
///
/// Errors: no ids, or a list that does not read (exit 2), and the reveal's.
pub(crate) async fn reveal_command(ctx: &Ctx, a: RevealArgs) -> CliResult {
    let keys = match (a.ids_file, a.ids.as_slice()) {
        _ if a.list.is_some() => {
            KeySource::List(list_keys(ctx, a.list.as_deref(), ListKind::Contacts)?)
        }
        (Some(f), _) => KeySource::File {
            path: f,
            column: None,
        },
        (None, [one]) if one.trim() == "-" => KeySource::List(
            engine::read_key_list(std::io::stdin(), "stdin").map_err(|e| CliError::usage(e.0))?,
        ),
        (None, _) => KeySource::List(a.ids.clone()),
    };
    let contact = match a.kind {
        RevealKind::Emails => ContactKind::Email,
        RevealKind::Phones => ContactKind::Phone,
    };
    let keys = KeySource::List(keys.read_all().map_err(|e| CliError::usage(e.0))?);
    if matches!(&keys, KeySource::List(l) if l.is_empty()) {
        return Err(CliError::usage("reveal: no person ids given"));
    }
    reveal(
        ctx,
        Action::Reveal { contact, keys },
        a.wait,
        &a.spend,
        &a.out,
    )
    .await
}

/// Plans, gates and sends a reveal as a job; waits up to `wait` seconds for its webhook
/// deliveries (stopping early on Ctrl-C), then writes the contacts that arrived and those the
/// store had.
pub(crate) async fn reveal(
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
pub(crate) async fn webhook_receiver(
    ctx: &Ctx,
    event: WebhookEvent,
    needed: bool,
) -> CliResult<(Option<prospect_core::webhooks::Receiver>, String)> {
    if !needed {
        return Ok((None, String::new()));
    }
    let target = ctx.target.clone().unwrap_or(Target {
        base_url: String::new(),
        token: String::new(),
        sandbox: true,
    });
    let cfg = prospect_core::webhooks::receiver_config(&ctx.settings, &target)
        .map_err(|e| CliError::usage(e.to_string()))?;
    let r = prospect_core::webhooks::Receiver::start(cfg, ctx.session().clone())
        .await
        .map_err(|e| CliError::other(e.to_string()))?;
    let url = r.url_for(event);
    Ok((Some(r), url))
}

/// Waits up to `wait` seconds (stopping early on Ctrl-C) until no claim of `keys` is awaited
/// any more (a batch enrichment's deliveries end them), with a bar; returns how many still are.
pub(crate) async fn await_deliveries(ctx: &Ctx, keys: &[String], wait: u64) -> usize {
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
