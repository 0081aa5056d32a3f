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
            let added = store.suppress(category.as_str(), &source, &entries)?;
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
