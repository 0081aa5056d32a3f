//! Writing what a command prints: records through the export writers, pairs, raw JSON, and the
//! rows of search answers.

use super::*;

/// Writes `text` to `--out` (atomically) or stdout.
pub(crate) fn write_text(out: &OutArgs, text: &str) -> CliResult {
    match &out.out {
        Some(p) => Ok(prospect_common::fsutil::write_atomic(
            p,
            text.as_bytes(),
            prospect_common::fsutil::Access::Shared,
        )?),
        None => match std::io::stdout().write_all(text.as_bytes()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            r => Ok(r?),
        },
    }
}

pub(crate) fn write_raw(out: &OutArgs, v: &Value) -> CliResult {
    let text = serde_json::to_string_pretty(v).unwrap_or_default() + "\n";
    match &out.out {
        Some(p) => prospect_common::fsutil::write_atomic(
            p,
            text.as_bytes(),
            prospect_common::fsutil::Access::Shared,
        )?,
        None => std::io::stdout().write_all(text.as_bytes())?,
    }
    Ok(())
}

/// Small answers (balance, warmup): one `key,value` row per top-level member, or the whole
/// object as one JSON record for jsonl/json.
pub(crate) fn write_pairs(out: &OutArgs, v: Value) -> CliResult {
    let format = Format::resolve(out.format, &out.out);
    if matches!(format, Format::Json | Format::Jsonl) {
        let text = serde_json::to_string(&v).unwrap_or_default() + "\n";
        return match &out.out {
            Some(p) => Ok(prospect_common::fsutil::write_atomic(
                p,
                text.as_bytes(),
                prospect_common::fsutil::Access::Shared,
            )?),
            None => Ok(std::io::stdout().write_all(text.as_bytes())?),
        };
    }
    let mut w = Writer::<Pair>::new(format, out.out.as_ref())?;
    if let Value::Object(m) = v {
        for (key, value) in m {
            match value {
                Value::Object(inner) => {
                    for (k, v) in inner {
                        w.write(&Pair {
                            key: format!("{key}.{k}"),
                            value: v,
                        })?;
                    }
                }
                value => w.write(&Pair { key, value })?,
            }
        }
    }
    w.finish()?;
    Ok(())
}

/// Writes a batch of lookup entries as `LookupOut` records and moves the bar.
pub(crate) fn write_entries<T>(
    w: &mut Writer<LookupOut<T>>,
    pb: &indicatif::ProgressBar,
    entries: Vec<prospect_core::session::LookupEntry<T>>,
) -> std::io::Result<()>
where
    LookupOut<T>: Tabular,
{
    pb.inc(entries.len() as u64);
    for e in entries {
        w.write(&LookupOut {
            query: e.key,
            found: e.record.is_some(),
            stored_at: e.stored_at.map(|t| t.to_rfc3339()),
            record: e.record,
            suppressed: e.suppressed,
        })?;
    }
    Ok(())
}

/// Finishes the output (the temp file renamed into place) unless the run already failed on it.
pub(crate) fn finish_writer<T: Tabular>(w: Writer<T>, mut report: RunReport) -> RunReport {
    if !matches!(report.error, Some(RunError::Output(_)))
        && let Err(e) = w.finish()
    {
        report.error = Some(RunError::Output(e));
    }
    report
}

pub(crate) fn strings(items: Vec<String>) -> Vec<Pair> {
    items
        .into_iter()
        .map(|s| Pair {
            key: s,
            value: Value::Null,
        })
        .collect()
}

/// Writes one record in the chosen format.
pub(crate) fn write_one<T: Tabular>(out: &OutArgs, rec: &T) -> CliResult {
    write_rows(out, std::iter::once(rec))
}

/// Writes `rows` in the format and to the place `out` says (atomically to a file).
pub(crate) fn write_rows<'a, T: Tabular + 'a>(
    out: &OutArgs,
    rows: impl IntoIterator<Item = &'a T>,
) -> CliResult {
    let mut w = Writer::<T>::new(Format::resolve(out.format, &out.out), out.out.as_ref())?;
    for r in rows {
        w.write(r)?;
    }
    w.finish()?;
    Ok(())
}
