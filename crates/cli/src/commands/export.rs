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
    Ok(())
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
    match subject {
        SearchSubject::Companies => store.for_each_company(|c| w.company(&c.value)),
        SearchSubject::People => store.for_each_person_joined(|p| w.person(&p)),
    }?;
    let emails = w.emails();
    let counts = w.finish()?;
    ctx.note(&format!(
        "{} as {} from {}",
        counts.describe(emails),
        preset.name(),
        path.display()
    ));
    Ok(())
}
