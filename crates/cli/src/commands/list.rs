//! `prospect list`: named lists of companies and people.

use crate::*;

/// The members of list `name` of `kind`, for `lookup`/`reveal --list`. Errors: no such list,
/// a list of the other kind, an empty list.
pub(crate) fn list_keys(
    ctx: &Ctx,
    name: Option<&str>,
    kind: ListKind,
) -> Result<Vec<String>, CliError> {
    let name = name.unwrap_or_default();
    let (store, _) = open_store(ctx)?;
    let (got, keys) = store
        .list_members(name)?
        .ok_or_else(|| CliError::usage(format!("no list {name} (see `prospect list ls`)")))?;
    if got != kind {
        return Err(CliError::usage(format!(
            "list {name} holds {}, not {}",
            got.as_str(),
            kind.as_str()
        )));
    }
    if keys.is_empty() {
        return Err(CliError::usage(format!("list {name} has no members")));
    }
    Ok(keys)
}

/// `prospect list create|add|show|export|ls|rm` ([`prospect_core::owned::Owned`]).
pub(crate) fn list(ctx: &Ctx, cmd: ListCmd) -> CliResult {
    let (mut store, _) = open_store(ctx)?;
    match cmd {
        ListCmd::Create { name, kind } => {
            store.create_list(&name, kind)?;
            ctx.note(&format!("list {name} ({})", kind.as_str()));
        }
        ListCmd::Add {
            name,
            values,
            domains,
            ids,
            file,
            column,
        } => {
            let existing = store.list(&name)?.map(|l| l.kind);
            let kind = match (existing, domains.is_empty(), ids.is_empty()) {
                (Some(k), _, _) => k,
                (None, true, false) => ListKind::Contacts,
                _ => ListKind::Accounts,
            };
            let mut keys = domains;
            keys.extend(ids);
            if file.is_some() || !values.is_empty() {
                let source = match (file, values.as_slice()) {
                    (None, [one]) if one.trim() == "-" => KeySource::List(
                        engine::read_key_list(std::io::stdin(), "stdin")
                            .map_err(|e| CliError::usage(e.0))?,
                    ),
                    (file, _) => {
                        let wanted = match kind {
                            ListKind::Accounts => KeyColumn::Domain,
                            ListKind::Contacts => KeyColumn::PersonId,
                        };
                        key_source(values, file, column, &[wanted])?
                    }
                };
                keys.extend(source.read_all().map_err(|e| CliError::usage(e.0))?);
            }
            if keys.is_empty() {
                return Err(CliError::usage(
                    "list add: give members (--domains, --ids, --file, values or - for stdin)",
                ));
            }
            let (added, had, bad) = store.add_to_list(&name, kind, &keys)?;
            ctx.note(&format!(
                "list {name}: {added} added, {had} already in it{}",
                if bad > 0 {
                    format!(
                        ", {bad} left out (not a {})",
                        kind.as_str().trim_end_matches('s')
                    )
                } else {
                    String::new()
                }
            ));
        }
        ListCmd::Show { name, out } => list_out(ctx, &store, &name, &out, None)?,
        ListCmd::Export { name, out, crm } => list_out(ctx, &store, &name, &out, Some(&crm))?,
        ListCmd::Ls { out } => {
            let mut w = Writer::<prospect_core::export::ListOut>::new(
                Format::resolve(out.format, &out.out),
                out.out.as_ref(),
            )?;
            for l in store.lists()? {
                w.write(&l.into())?;
            }
            w.finish()?;
        }
        ListCmd::Rm { name } => {
            if !store.remove_list(&name)? {
                return Err(CliError::usage(format!("no list {name}")));
            }
            ctx.note(&format!("list {name} deleted"));
        }
    }
    Ok(())
}

/// A list's members with their stored data: as records, or in a CRM layout (`crm` with a
/// preset or an email filter).
pub(crate) fn list_out(
    ctx: &Ctx,
    store: &prospect_core::owned::Owned,
    name: &str,
    out: &OutArgs,
    crm: Option<&CrmArgs>,
) -> CliResult {
    use prospect_core::owned::ListRecords;
    let records = store
        .list_records(name)?
        .ok_or_else(|| CliError::usage(format!("no list {name} (see `prospect list ls`)")))?;
    if let Some(crm) = crm.filter(|c| c.preset.is_some() || c.emails.is_some()) {
        let subject = match records {
            ListRecords::Accounts(_) => SearchSubject::Companies,
            ListRecords::Contacts(_) => SearchSubject::People,
        };
        let (mut w, preset) = crm_writer(crm, subject, out)?;
        let mut screen = super::export::outreach_screen(store, crm)?;
        match &records {
            ListRecords::Accounts(v) => v
                .iter()
                .filter(|c| screen.company(c).is_none())
                .try_for_each(|c| w.company(c))?,
            ListRecords::Contacts(v) => v
                .iter()
                .filter(|p| screen.person(p).is_none())
                .try_for_each(|p| w.person(p))?,
        }
        let emails = w.emails();
        let counts = w.finish()?;
        super::export::say_left_out(ctx, &screen);
        ctx.note(&format!(
            "list {name}: {} as {}",
            counts.describe(emails),
            preset.name()
        ));
        return Ok(());
    }
    let format = Format::resolve(out.format, &out.out);
    // Kept (a list is what the user made), but said (issue 38).
    let mut screen = prospect_core::screen::Screen::load(store)?;
    match &records {
        ListRecords::Accounts(v) => {
            for c in v {
                screen.company(c);
            }
        }
        ListRecords::Contacts(v) => {
            for p in v {
                screen.person(p);
            }
        }
    }
    super::export::say_kept(ctx, &screen);
    let n = match records {
        ListRecords::Accounts(v) => {
            let mut w = Writer::<CompanyOut>::new(format, out.out.as_ref())?;
            for company in v {
                w.write(&CompanyOut {
                    company,
                    relevance: None,
                    score: None,
                })?;
            }
            w.finish()?
        }
        ListRecords::Contacts(v) => {
            let mut w = Writer::<LookalikePerson>::new(format, out.out.as_ref())?;
            for p in v {
                w.write(&p)?;
            }
            w.finish()?
        }
    };
    ctx.note(&format!("list {name}: {n} members"));
    Ok(())
}
