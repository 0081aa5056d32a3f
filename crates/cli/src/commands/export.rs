//! `prospect export`: what the store owns, plain or in a CRM's import layout (no network).

use crate::*;

pub(crate) fn export(ctx: &Ctx, kind: ExportKind, out: &OutArgs, crm: &CrmArgs) -> CliResult {
    let (store, path) = open_store(ctx)?;
    if crm.preset.is_some() || crm.emails.is_some() {
        return export_crm(ctx, &store, kind, out, crm, &path);
    }
    let format = Format::resolve(out.format, &out.out);
    let n = match kind {
        // Dispatched to `stored_search` with its id.
        ExportKind::Search => {
            return Err(CliError::usage(
                "`export search` needs a search id (see `prospect history`)",
            ));
        }
        ExportKind::Companies => {
            let mut w = Writer::<CompanyOut>::new(format, out.out.as_ref())?;
            store.for_each_company(|c| {
                w.write(&CompanyOut {
                    company: c.value,
                    relevance: None,
                    score: None,
                })
            })?;
            w.finish()?
        }
        ExportKind::People => {
            let mut w = Writer::<LookalikePerson>::new(format, out.out.as_ref())?;
            store.for_each_person_joined(|p| w.write(&p))?;
            w.finish()?
        }
        ExportKind::Contacts => {
            let mut w = Writer::<ContactOut>::new(format, out.out.as_ref())?;
            store.for_each_contact(|c| w.write(&ContactOut::new(&c, true)))?;
            w.finish()?
        }
    };
    ctx.note(&format!("{n} records from {}", path.display()));
    say_suppressed_in(ctx, &store, kind)?;
    Ok(())
}

/// The suppression an outreach (CRM) export leaves out: what is suppressed now, or nothing
/// with `--include-suppressed`.
pub(crate) fn outreach_screen(
    store: &prospect_core::owned::Owned,
    crm: &CrmArgs,
) -> CliResult<prospect_core::screen::Screen> {
    Ok(match crm.include_suppressed {
        true => prospect_core::screen::Screen::default(),
        false => prospect_core::screen::Screen::load(store)?,
    })
}

/// Says on stderr (without a terminal too, unless `--quiet`) what a CRM export left out.
pub(crate) fn say_left_out(ctx: &Ctx, screen: &prospect_core::screen::Screen) {
    if let Some(what) = screen.describe()
        && !ctx.quiet
    {
        eprintln!("prospect: left out {what}; --include-suppressed keeps them");
    }
}

/// Says on stderr what of a plain export is suppressed (kept: it is what the store owns; a
/// `--preset` export for outreach leaves them out).
fn say_suppressed_in(
    ctx: &Ctx,
    store: &prospect_core::owned::Owned,
    kind: ExportKind,
) -> CliResult {
    let mut screen = prospect_core::screen::Screen::load(store)?;
    if ctx.quiet || screen.is_empty() {
        return Ok(());
    }
    match kind {
        ExportKind::Companies => store.for_each_company(|c| {
            screen.company(&c.value);
            Ok(())
        })?,
        ExportKind::People => store.for_each_person_joined(|p| {
            screen.person(&p);
            Ok(())
        })?,
        ExportKind::Contacts => store.for_each_contact(|c| {
            screen.contact(&c);
            Ok(())
        })?,
        ExportKind::Search => {}
    }
    say_kept(ctx, &screen);
    Ok(())
}

/// Says on stderr what of a plain export is suppressed, kept in it.
pub(crate) fn say_kept(ctx: &Ctx, screen: &prospect_core::screen::Screen) {
    if let Some(what) = screen.describe()
        && !ctx.quiet
    {
        eprintln!(
            "prospect: {what} in this export; a --preset export for outreach leaves them out"
        );
    }
}

/// The CRM writer `crm` asks for (a preset, else `plain` with an email filter) of `subject`
/// rows to `out`. Errors: a `--format` other than CSV; a preset for the other subject.
pub(crate) fn crm_writer(
    crm: &CrmArgs,
    subject: SearchSubject,
    out: &OutArgs,
) -> Result<(prospect_core::crm::CrmWriter, prospect_core::crm::Preset), CliError> {
    use prospect_core::crm::{CrmError, CrmWriter, Preset};
    if out.format.is_some_and(|f| f != Format::Csv) {
        return Err(CliError::usage(
            "--preset and --emails write CSV: leave out --format or give --format csv",
        ));
    }
    let preset = crm.preset.unwrap_or(Preset::Plain);
    let w = CrmWriter::new(preset, subject, crm.emails, out.out.as_ref()).map_err(|e| match e {
        CrmError::Io(e) => CliError::from(e),
        other => CliError::usage(other.to_string()),
    })?;
    Ok((w, preset))
}

/// `export companies|people --preset … [--emails …]`: the store's companies or people (with
/// their contacts and employer joined) as a CRM import CSV (`prospect_core::crm`).
pub(crate) fn export_crm(
    ctx: &Ctx,
    store: &prospect_core::owned::Owned,
    kind: ExportKind,
    out: &OutArgs,
    crm: &CrmArgs,
    path: &std::path::Path,
) -> CliResult {
    let subject = match kind {
        ExportKind::Companies => SearchSubject::Companies,
        ExportKind::People => SearchSubject::People,
        ExportKind::Contacts | ExportKind::Search => {
            return Err(CliError::usage(
                "--preset and --emails are for `export companies` and `export people` (people carry their contacts)",
            ));
        }
    };
    let (mut w, preset) = crm_writer(crm, subject, out)?;
    let mut screen = outreach_screen(store, crm)?;
    match subject {
        SearchSubject::Companies => store.for_each_company(|c| match screen.company(&c.value) {
            Some(_) => Ok(()),
            None => w.company(&c.value),
        }),
        SearchSubject::People => store.for_each_person_joined(|p| match screen.person(&p) {
            Some(_) => Ok(()),
            None => w.person(&p),
        }),
    }?;
    let emails = w.emails();
    let counts = w.finish()?;
    say_left_out(ctx, &screen);
    ctx.note(&format!(
        "{} as {} from {}",
        counts.describe(emails),
        preset.name(),
        path.display()
    ));
    Ok(())
}
