//! `prospect suppress`: the suppression categories (never searched, revealed or paid for).

use crate::*;

/// `prospect suppress import|list|clear` (`prospect_core::suppress`).
pub(crate) fn suppress(ctx: &Ctx, cmd: SuppressCmd) -> CliResult {
    let (mut store, path) = open_store(ctx)?;
    match cmd {
        SuppressCmd::Import { file, category } => {
            let entries = prospect_core::suppress::read_suppression_file(&file)
                .map_err(|e| CliError::usage(e.to_string()))?;
            let source = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let skipped = prospect_core::suppress::unreadable(&entries);
            let added = store.suppress(category.as_str(), &source, &entries)?;
            // Said without a terminal too: an entry not suppressed is one a script must know.
            if !skipped.is_empty() && !ctx.quiet {
                eprintln!(
                    "prospect: skipped {} that {} no domain, email or profile: {}",
                    prospect_common::words::counted(skipped.len(), "entry", "entries"),
                    if skipped.len() == 1 { "is" } else { "are" },
                    skipped
                        .iter()
                        .take(5)
                        .map(|k| format!("{k:?}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
            ctx.note(&format!(
                "{added} new of {} entries read into {} ({})",
                entries.len(),
                category.as_str(),
                path.display()
            ));
        }
        SuppressCmd::List { out } => {
            let rows = store.suppression_counts()?;
            let mut w = Writer::<prospect_core::suppress::CategoryRow>::new(
                Format::resolve(out.format, &out.out),
                out.out.as_ref(),
            )?;
            for r in rows {
                w.write(&r.into())?;
            }
            w.finish()?;
        }
        SuppressCmd::Clear { category } => {
            let n = store.clear_suppression(category.as_str())?;
            ctx.note(&format!("{n} entries removed from {}", category.as_str()));
        }
    }
    Ok(())
}
