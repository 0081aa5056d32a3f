//! `prospect store`: the store's place, schema and repair, the team's budget, copies.

use crate::*;
use prospect_core::owned::{Budget, Owned};

/// The store of this target, opened for a command that needs no service: (what it owns, its
/// path). A team store out of reach is said in one line on stderr, and this machine's store
/// stands in ([`Owned::open`]).
pub(crate) fn open_store(ctx: &Ctx) -> Result<(Owned, PathBuf), CliError> {
    let (store, unreachable) = Owned::open(&ctx.settings, sandbox_of(ctx)?)?;
    if let Some(why) = unreachable {
        eprintln!("prospect: {why}");
    }
    let path = store.path().to_path_buf();
    Ok((store, path))
}

/// The store of this target itself, never a stand-in (`store migrate` and `store budget` are
/// for the team's server): a store that cannot be opened is an error, exit 1.
pub(crate) fn open_named_store(ctx: &Ctx) -> Result<Owned, CliError> {
    Ok(Owned::open_named(&ctx.settings, sandbox_of(ctx)?)?)
}

/// Whether the target is the embedded sandbox; an error (exit 2) without a data directory.
fn sandbox_of(ctx: &Ctx) -> Result<bool, CliError> {
    ctx.target
        .as_ref()
        .map(|t| t.sandbox)
        .ok_or_else(|| CliError::usage("no data directory: pass --data-dir"))
}

/// `prospect store migrate|copy` (issue 17).
pub(crate) fn store_cmd(ctx: &Ctx, cmd: StoreCmd) -> CliResult {
    let open = |url: &str| -> Result<Owned, CliError> { Ok(Owned::open_url(url)?) };
    match cmd {
        StoreCmd::Migrate { out } => {
            let mut store = open_named_store(ctx)?;
            let version = store.schema_version()?;
            // A table that went missing is made again (issue 34); the recovery files of the
            // answers it could not keep are imported at the next paid command's start.
            let repaired = store.repair()?;
            let check = store.quick_check()?;
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
                Budget::default()
            } else {
                store.team_budget()?
            };
            let changes = clear || standard.is_some() || email.is_some() || phone.is_some();
            budget.standard_per_day = standard.or(budget.standard_per_day);
            budget.email_per_day = email.or(budget.email_per_day);
            budget.phone_per_day = phone.or(budget.phone_per_day);
            if changes {
                store.set_team_budget(&budget)?;
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
