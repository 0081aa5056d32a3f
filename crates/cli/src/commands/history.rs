//! `prospect history`: past searches, a stored search shown again, the spend log.

use crate::*;

/// `history show ID` and `export search ID`: the records of a stored search, page after page,
/// as the search wrote them (contacts joined), at 0 credits.
pub(crate) fn stored_search(ctx: &Ctx, id: Option<i64>, what: &str, out: &OutArgs) -> CliResult {
    let Some(id) = id else {
        return Err(CliError::usage(format!(
            "`{what}` needs a search id (see `prospect history`)"
        )));
    };
    let (store, _) = open_store(ctx)?;
    let found = store
        .stored_search(prospect_core::owned::SearchId(id))
        .map_err(CliError::usage)?;
    let format = Format::resolve(out.format, &out.out);
    let n = match found.request.subject() {
        prospect_api::client::SearchSubject::Companies => {
            let mut w = Writer::<CompanyOut>::new(format, out.out.as_ref())?;
            for p in found.pages {
                for c in companies_of(p.response) {
                    w.write(&c)?;
                }
            }
            w.finish()?
        }
        prospect_api::client::SearchSubject::People => {
            let mut w = Writer::<LookalikePerson>::new(format, out.out.as_ref())?;
            for p in found.pages {
                for person in people_of(p.response) {
                    w.write(&person)?;
                }
            }
            w.finish()?
        }
    };
    ctx.note(&format!("{n} records of stored search {id}, 0 credits"));
    Ok(())
}

pub(crate) fn history(
    ctx: &Ctx,
    limit: usize,
    spend: bool,
    user: Option<&str>,
    out: &OutArgs,
) -> CliResult {
    let (store, _) = open_store(ctx)?;
    if spend || user.is_some() {
        // Answers paid for and kept in recovery files are spent too (issue 34).
        let (store, failed) = store.import_recovery(ctx.settings.data_dir().as_deref())?;
        if let Some(first) = failed.first() {
            eprintln!(
                "prospect: {} recovery file(s) could not be imported and are not counted \
                 ({first})",
                failed.len()
            );
        }
        let log = store.spend_log(limit, user)?;
        let mut w = Writer::<prospect_core::owned::Spend>::new(
            Format::resolve(out.format, &out.out),
            out.out.as_ref(),
        )?;
        for s in log {
            w.write(&s)?;
        }
        w.finish()?;
        return Ok(());
    }
    let searches = store.searches(limit)?;
    let mut w = Writer::<prospect_core::export::SearchOut>::new(
        Format::resolve(out.format, &out.out),
        out.out.as_ref(),
    )?;
    for s in searches {
        w.write(&s.into())?;
    }
    w.finish()?;
    Ok(())
}
