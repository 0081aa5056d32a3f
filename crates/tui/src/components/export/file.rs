//! Writing an export: the typed records of the rows ([`records`]), one row as JSON
//! ([`row_json`]), and the file, atomically ([`write_file`]).

use std::path::PathBuf;

use crate::msg::{ExportFile, ExportRecords, Exported, Record, ResultRow};
use crate::schema::SearchSubject;
use prospect_core::crm::{CrmWriter, Preset};
use prospect_core::export::{CompanyOut, Format, Writer};

/// The typed records of `rows` as the export writes them: companies with relevance / score,
/// people with their employer summary and relevance.
pub fn records<'a>(
    kind: SearchSubject,
    rows: impl IntoIterator<Item = &'a ResultRow>,
) -> ExportRecords {
    match kind {
        SearchSubject::Companies => ExportRecords::Companies(
            rows.into_iter()
                .filter_map(|r| match &r.record {
                    Record::Company {
                        company,
                        relevance,
                        score,
                    } => Some(CompanyOut {
                        company: company.clone(),
                        relevance: relevance.clone(),
                        score: *score,
                    }),
                    Record::Person { .. } => None,
                })
                .collect(),
        ),
        SearchSubject::People => ExportRecords::People(
            rows.into_iter()
                .filter_map(|r| match &r.record {
                    Record::Person {
                        person,
                        company,
                        relevance,
                    } => Some(prospect_api::types::LookalikePerson {
                        person: person.clone(),
                        company: company.clone(),
                        relevance: relevance.clone(),
                    }),
                    Record::Company { .. } => None,
                })
                .collect(),
        ),
    }
}

/// The typed record of one row as pretty JSON (what `Y` copies).
pub fn row_json(row: &ResultRow) -> String {
    let json = match records(
        match row.record {
            Record::Company { .. } => SearchSubject::Companies,
            Record::Person { .. } => SearchSubject::People,
        },
        [row],
    ) {
        ExportRecords::Companies(v) => serde_json::to_string_pretty(&v[0]),
        ExportRecords::People(v) => serde_json::to_string_pretty(&v[0]),
    };
    json.unwrap_or_default()
}

/// Writes `file` through `core::export::Writer` (a temp file renamed into place: the target
/// is replaced whole or left as it was). Errors in plain words naming the file.
pub fn write_file(file: &ExportFile) -> Result<Exported, String> {
    fn write_all<T: prospect_core::export::Tabular>(
        format: Format,
        path: &PathBuf,
        items: &[T],
    ) -> std::io::Result<usize> {
        let mut w = Writer::<T>::new(format, Some(path))?;
        for it in items {
            w.write(it)?;
        }
        w.finish()
    }
    /// The records in a CRM layout: (rows written, what was left out).
    fn write_crm(
        preset: Preset,
        path: &PathBuf,
        records: &ExportRecords,
    ) -> std::io::Result<(usize, Option<String>)> {
        let subject = match records {
            ExportRecords::Companies(_) => SearchSubject::Companies,
            ExportRecords::People(_) => SearchSubject::People,
        };
        let mut w = CrmWriter::new(preset, subject, None, Some(path)).map_err(|e| match e {
            prospect_core::crm::CrmError::Io(e) => e,
            other => std::io::Error::other(other.to_string()),
        })?;
        match records {
            ExportRecords::Companies(v) => v.iter().try_for_each(|c| w.company(&c.company))?,
            ExportRecords::People(v) => v.iter().try_for_each(|p| w.person(p))?,
        }
        let emails = w.emails();
        let counts = w.finish()?;
        let left_out = counts.without_email + counts.duplicates;
        Ok((
            counts.written,
            (left_out > 0).then(|| format!("{}: {}", preset.name(), counts.describe(emails))),
        ))
    }
    let r = match (&file.records, file.preset) {
        (records, Some(preset)) => write_crm(preset, &file.path, records),
        (ExportRecords::Companies(v), None) => {
            write_all(file.format, &file.path, v).map(|n| (n, None))
        }
        (ExportRecords::People(v), None) => {
            write_all(file.format, &file.path, v).map(|n| (n, None))
        }
    };
    match r {
        Ok((count, detail)) => Ok(Exported {
            path: file.path.clone(),
            count,
            detail,
        }),
        Err(e) => {
            tracing::warn!(path = %file.path.display(), error = %e, "export failed");
            Err(format!(
                "could not write {}: {}",
                file.path.display(),
                plain_io(&e)
            ))
        }
    }
}

/// An I/O error in plain words (no OS error codes).
fn plain_io(e: &std::io::Error) -> &'static str {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::NotFound => "the folder does not exist",
        K::PermissionDenied => "permission denied",
        K::StorageFull => "the disk is full",
        K::AlreadyExists => "it already exists",
        K::IsADirectory => "it is a folder",
        _ => "the file could not be written",
    }
}
