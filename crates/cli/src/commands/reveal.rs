//! `prospect reveal`: emails or phones of people, delivered by webhook to the receiver.

use crate::*;

/// Reveal emails or phones of person ids; results arrive by webhook.
#[derive(Debug, Clone, clap::Args)]
pub struct RevealArgs {
    /// Emails or phones.
    #[arg(value_parser = contact_kind_arg())]
    pub kind: ContactKind,
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
    let contact = a.kind;
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

/// Plans, gates and sends a reveal through the engine's door for webhook actions
/// ([`engine::run_by_webhook`], a job); waits up to `wait` seconds for its deliveries (stopping
/// early on Ctrl-C), then writes the contacts that arrived and those the store had.
pub(crate) async fn reveal(
    ctx: &Ctx,
    action: Action,
    wait: u64,
    spend: &SpendArgs,
    out: &OutArgs,
) -> CliResult {
    let Action::Reveal { keys, .. } = &action else {
        return Ok(());
    };
    let ids = keys.read_all().map_err(|e| CliError::usage(e.0))?;
    let Some(plan) = ctx.plan(&action, spend, out).await? else {
        return Ok(());
    };
    webhook_receiver(ctx, plan.to_buy > 0 || plan.pending > 0).await?;
    let plan = JobOptions::of(spend, out, Some(wait)).kept_in(&plan);
    let ran = by_webhook(ctx, &action, &plan, spend, wait).await;
    let Some(engine::Arrived::Contacts(_, r, arrived)) = &ran.arrived else {
        return ctx.settle(ran.report, ran.job);
    };
    let mut w = Writer::<ContactOut>::new(Format::resolve(out.format, &out.out), out.out.as_ref())?;
    for id in &ids {
        if let Some(c) = r.from_store.get(id) {
            w.write(&ContactOut::new(c, true))?;
        } else if let Some(c) = arrived.get(id) {
            w.write(&ContactOut::new(c, false))?;
        }
    }
    w.finish()?;
    ctx.note(&format!(
        "{} from the store, {} sent, {} awaited from before, {} arrived",
        r.from_store.len(),
        r.sent.len(),
        r.pending.len(),
        arrived.len()
    ));
    end_by_webhook(ctx, ran, "results", "reveal", wait)
}

/// Runs a webhook action confirmed with `plan` through the engine's door, with a bar of the
/// results arrived while it waits up to `wait` seconds.
pub(crate) async fn by_webhook(
    ctx: &Ctx,
    action: &Action,
    plan: &Plan,
    spend: &SpendArgs,
    wait: u64,
) -> engine::RanByWebhook {
    let pb = ctx.progress(0, "waiting for the webhook");
    let wait_for = Duration::from_secs(wait);
    let ran = engine::run_by_webhook(
        ctx.session(),
        action,
        plan,
        freshness(spend),
        wait_for,
        &ctx.stop,
        |event| {
            if let engine::Event::Delivered { arrived, awaited } = event {
                pb.set_length(awaited);
                pb.set_position(arrived);
            }
        },
    )
    .await;
    pb.finish_and_clear();
    ran
}

/// The exit of a webhook action: an error (network class) when awaited `noun` had not
/// arrived after `wait` s (unless Ctrl-C ended the wait, or `--wait 0` asked not to wait: then
/// a note), else [`Ctx::settle`]. `what` names the command to run again.
pub(crate) fn end_by_webhook(
    ctx: &Ctx,
    ran: engine::RanByWebhook,
    noun: &str,
    what: &str,
    wait: u64,
) -> CliResult {
    let left = ran.left;
    if left > 0 && wait == 0 {
        // Asked not to wait: nothing is lost, the results are stored when they arrive while a
        // prospect on this data dir runs (the webhook port is kept), and not sent again.
        if !ctx.quiet {
            eprintln!(
                "prospect: {left} result(s) not waited for (--wait 0); the same {what} run \
                 again later collects them at no cost"
            );
        }
        return ctx.settle(ran.report, ran.job);
    }
    if left > 0 && ctx.signal.load(Ordering::SeqCst) == 0 {
        return Err(CliError {
            code: ExitCode::Network,
            message: format!(
                "{left} of {} {noun} had not arrived after {wait} s; they are stored when \
                 they arrive while prospect runs, and are not sent again meanwhile (run the \
                 same {what} again later: it costs nothing for what arrived)",
                ran.awaited
            ),
        });
    }
    ctx.settle(ran.report, ran.job)
}

/// Starts the session's webhook receiver when one is `needed` (something is to be sent or
/// awaited): loopback on the embedded sandbox, the configured address for the real service.
/// Errors: a webhook configuration that does not read (exit 2), an address that cannot be
/// bound.
pub(crate) async fn webhook_receiver(ctx: &Ctx, needed: bool) -> CliResult {
    if !needed {
        return Ok(());
    }
    let target = ctx.target.clone().unwrap_or(Target {
        base_url: String::new(),
        token: String::new(),
        sandbox: true,
    });
    let cfg = prospect_core::webhooks::receiver_config(&ctx.settings, &target)
        .map_err(|e| CliError::usage(e.to_string()))?;
    ctx.session()
        .start_receiver(cfg)
        .await
        .map_err(|e| CliError::other(e.to_string()))?;
    Ok(())
}
