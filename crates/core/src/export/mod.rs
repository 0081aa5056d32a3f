//! Records out of prospect, for every front end (the CLI's output and `export`, the explorer's
//! `Ctrl-e`): JSON Lines (one full typed record per line), CSV (flattened columns with a header,
//! lists joined with `;`), one JSON array, or a readable table. Data goes to stdout or to a
//! file, which is written atomically (a temp file renamed into place when everything was
//! written; nothing is left behind on failure).

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use serde::Serialize;

use prospect_api::types::{Company, LookalikePerson, Relevance, WireEnum};
use prospect_common::sanitize::sanitize;
use prospect_store::Contact;

mod items;
mod rendered;
mod rows;

pub use items::{SearchItem, companies_of, items_of, people_of, take_companies};
pub use rendered::{PageRows, RowForm};
pub use rows::*;

/// An output format (the CLI's `--format`, the explorer's export popup).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One JSON record per line (the default when stdout is not a terminal).
    Jsonl,
    /// Comma-separated values with a header row; lists joined with `;`.
    Csv,
    /// One JSON array.
    Json,
    /// Aligned columns for reading (the default on a terminal).
    Table,
}

impl Format {
    /// `--format` if given, else a table on a terminal and JSON Lines otherwise.
    pub fn resolve(given: Option<Format>, out: &Option<PathBuf>) -> Format {
        given.unwrap_or(if out.is_none() && io::stdout().is_terminal() {
            Format::Table
        } else {
            Format::Jsonl
        })
    }
}

/// A record that can be written in every format: its full JSON form and its flat cells.
pub trait Tabular: Serialize {
    /// Column titles (the CSV header).
    fn columns() -> &'static [&'static str];
    /// One cell per column; lists joined with `;`, absent values empty.
    fn cells(&self) -> Vec<String>;
}

fn join<T: AsRef<str>>(items: &[T]) -> String {
    items
        .iter()
        .map(|s| s.as_ref().to_string())
        .collect::<Vec<_>>()
        .join(";")
}

fn enums<T: WireEnum>(items: &[T]) -> String {
    items
        .iter()
        .map(|s| s.as_str().to_string())
        .collect::<Vec<_>>()
        .join(";")
}

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(|x| x.to_string()).unwrap_or_default()
}

fn opt_enum<T: WireEnum>(v: &Option<T>) -> String {
    v.as_ref()
        .map(|x| x.as_str().to_string())
        .unwrap_or_default()
}

enum Dest {
    Stdout(io::BufWriter<io::Stdout>),
    File(io::BufWriter<prospect_common::fsutil::Output>),
}

impl Dest {
    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Dest::Stdout(w) => w,
            Dest::File(f) => f,
        }
    }
}

/// Writes records of one type in one format to stdout or a file; call [`Writer::finish`] at
/// the end (for a file: fsync and rename into place; dropping without `finish` leaves the
/// target untouched).
pub struct Writer<T: Tabular> {
    format: Format,
    dest: Dest,
    /// One record's JSON, serialized here first and written in one call (serde_json writes
    /// many small pieces; each through `dyn Write` costs more than the copy).
    buf: Vec<u8>,
    count: usize,
    table: Vec<Vec<String>>,
    /// The column titles (the CSV header, the table's head).
    columns: &'static [&'static str],
    _t: std::marker::PhantomData<T>,
}

impl<T: Tabular> Writer<T> {
    /// A writer to `out` (stdout when `None`), by the rules of [`prospect_common::fsutil`]: a
    /// regular file is replaced atomically, a symlink followed, a FIFO or device written in
    /// place. Errors: as [`prospect_common::fsutil::Output::create`].
    pub fn new(format: Format, out: Option<&PathBuf>) -> io::Result<Writer<T>> {
        Writer::with_columns(format, out, T::columns())
    }

    /// [`Writer::new`] with other column titles than `T::columns()` (a CRM preset's,
    /// [`crate::crm`]); `T::cells` must give one cell per title.
    pub fn with_columns(
        format: Format,
        out: Option<&PathBuf>,
        columns: &'static [&'static str],
    ) -> io::Result<Writer<T>> {
        let dest = match out {
            None => Dest::Stdout(io::BufWriter::new(io::stdout())),
            Some(path) => Dest::File(io::BufWriter::with_capacity(
                1 << 16,
                prospect_common::fsutil::Output::create(
                    path,
                    prospect_common::fsutil::Access::Shared,
                )?,
            )),
        };
        let mut w = Writer {
            format,
            dest,
            buf: Vec::new(),
            count: 0,
            table: Vec::new(),
            columns,
            _t: std::marker::PhantomData,
        };
        match format {
            Format::Csv => {
                let header = csv_line(columns.iter().map(|s| s.to_string()));
                w.dest.writer().write_all(header.as_bytes())?;
            }
            Format::Json => w.dest.writer().write_all(b"[")?,
            Format::Jsonl | Format::Table => {}
        }
        Ok(w)
    }

    /// Writes one record.
    pub fn write(&mut self, rec: &T) -> io::Result<()> {
        match self.format {
            Format::Jsonl | Format::Json => {
                self.buf.clear();
                json_row(rec, &mut self.buf)?;
                let row = std::mem::take(&mut self.buf);
                let written = self.write_rendered(&row);
                self.buf = row;
                return written;
            }
            Format::Csv => {
                let line = csv_row(rec);
                self.dest.writer().write_all(line.as_bytes())?;
            }
            Format::Table => self.table.push(rec.cells()),
        }
        self.count += 1;
        Ok(())
    }

    /// Writes one record rendered ahead in this writer's format ([`RowForm::of`]): a CSV
    /// line as [`csv_row`] makes it, or a record's JSON as [`json_row`] does (a line of JSON
    /// Lines, an element of the array). The bytes are the same [`Writer::write`] writes for
    /// that record.
    ///
    /// # Errors
    /// Writing failed; a table cannot take rendered rows (`InvalidInput`).
    pub fn write_rendered(&mut self, row: &[u8]) -> io::Result<()> {
        let w = self.dest.writer();
        match self.format {
            Format::Csv => w.write_all(row)?,
            Format::Jsonl => {
                w.write_all(row)?;
                w.write_all(b"\n")?;
            }
            Format::Json => {
                w.write_all(if self.count > 0 { b",\n" } else { b"\n" })?;
                w.write_all(row)?;
            }
            Format::Table => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a table is laid out from cells, not rendered rows",
                ));
            }
        }
        self.count += 1;
        Ok(())
    }

    /// How many records were written.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Ends the output: closes the JSON array, lays out the table, and for a file syncs it and
    /// renames it over the target. Returns the number of records.
    pub fn finish(mut self) -> io::Result<usize> {
        match self.format {
            Format::Json => {
                self.dest
                    .writer()
                    .write_all(if self.count > 0 { b"\n]\n" } else { b"]\n" })?
            }
            Format::Table => {
                let text = table(self.columns, &self.table);
                self.dest.writer().write_all(text.as_bytes())?;
            }
            Format::Csv | Format::Jsonl => {}
        }
        match self.dest {
            Dest::Stdout(mut w) => w.flush()?,
            // An export is for other programs: shared mode, not the temp file's private one.
            Dest::File(f) => f.into_inner().map_err(|e| e.into_error())?.commit()?,
        }
        Ok(self.count)
    }
}

/// The CSV line of `rec` (its [`Tabular::cells`], by [`csv_line`]): what [`Writer::write`]
/// writes for it in CSV.
pub fn csv_row<T: Tabular>(rec: &T) -> String {
    csv_line(rec.cells().into_iter())
}

/// Appends the compact JSON of `rec` to `out`: what [`Writer::write`] writes for it in JSON
/// Lines (then `\n`) and in a JSON array.
///
/// # Errors
/// `rec` does not serialize (a map with keys that are not strings).
pub fn json_row<T: Serialize>(rec: &T, out: &mut Vec<u8>) -> io::Result<()> {
    serde_json::to_writer(out, rec).map_err(io::Error::other)
}

/// One CSV line (RFC 4180 quoting), ending in `\n`, each cell defused ([`defuse_cell`]).
fn csv_line(cells: impl Iterator<Item = String>) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let cells: Vec<String> = cells.map(defuse_cell).collect();
    // Writing to a Vec cannot fail.
    let _ = w.write_record(&cells);
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// A CSV cell a spreadsheet will not run as a formula (OWASP "CSV Injection"): a cell that
/// starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, which
/// spreadsheets show as text and do not evaluate. A cell that is a plain number (`-12`,
/// `+3.5`, `-1e3`) is left as it is: a number is not a formula, and growth figures are often
/// negative. Company and person texts come from third parties, so every CSV prospect writes
/// goes through this.
///
/// `"=HYPERLINK(\"x\")"` → `"'=HYPERLINK(\"x\")"`; `"-0.05"` → `"-0.05"`; `"@acme"` → `"'@acme"`.
pub fn defuse_cell(cell: String) -> String {
    let risky = cell
        .as_bytes()
        .first()
        .is_some_and(|b| matches!(b, b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r'));
    if risky && !cell.trim().parse::<f64>().is_ok_and(f64::is_finite) && !is_phone_number(&cell) {
        format!("'{cell}")
    } else {
        cell
    }
}

/// Whether `cell` is an international phone number as the service gives them (`+44 7700
/// 900623`, `+1 (555) 010-9999`): a leading `+`, then only digits, spaces and `( ) - . /`, at
/// least 7 digits. Such a cell calls no function, and a CRM reads it as the number it is
/// (issue 38: the presets put `'` before every phone number).
fn is_phone_number(cell: &str) -> bool {
    let Some(rest) = cell.strip_prefix('+') else {
        return false;
    };
    rest.chars()
        .all(|c| c.is_ascii_digit() || matches!(c, ' ' | '(' | ')' | '-' | '.' | '/'))
        && rest.starts_with(|c: char| c.is_ascii_digit() || c == '(')
        && rest.chars().filter(char::is_ascii_digit).count() >= 7
}

/// Aligned columns (each at most 40 characters wide, cut with `…`), cells sanitized.
fn table(columns: &[&str], rows: &[Vec<String>]) -> String {
    use unicode_width::UnicodeWidthStr;
    const MAX: usize = 40;
    let cut = |s: &str| -> String {
        let s = sanitize(s);
        if s.width() <= MAX {
            return s;
        }
        let mut out = String::new();
        for c in s.chars() {
            if out.width() + 1 >= MAX {
                break;
            }
            out.push(c);
        }
        out.push('…');
        out
    };
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.iter().map(|c| cut(c)).collect())
        .collect();
    // Columns empty in every row are left out.
    let keep: Vec<usize> = (0..columns.len())
        .filter(|&i| {
            cells
                .iter()
                .any(|r| r.get(i).is_some_and(|c| !c.is_empty()))
        })
        .collect();
    let widths: Vec<usize> = keep
        .iter()
        .map(|&i| {
            cells
                .iter()
                .map(|r| r.get(i).map_or(0, |c| c.width()))
                .max()
                .unwrap_or(0)
                .max(columns[i].width())
        })
        .collect();
    let mut out = String::new();
    let line = |out: &mut String, vals: Vec<&str>| {
        let mut l = String::new();
        for (k, v) in vals.iter().enumerate() {
            l.push_str(v);
            if k + 1 < vals.len() {
                l.push_str(&" ".repeat(widths[k].saturating_sub(v.width()) + 2));
            }
        }
        out.push_str(l.trim_end());
        out.push('\n');
    };
    line(&mut out, keep.iter().map(|&i| columns[i]).collect());
    for r in &cells {
        line(
            &mut out,
            keep.iter()
                .map(|&i| r.get(i).map_or("", String::as_str))
                .collect(),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_that_a_spreadsheet_would_run_are_defused() {
        for (cell, want) in [
            ("=HYPERLINK(\"x\")", "'=HYPERLINK(\"x\")"),
            ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("\rx", "'\rx"),
            ("-12", "-12"),
            ("+3.5", "+3.5"),
            ("-0.05", "-0.05"),
            ("-inf", "'-inf"),
            ("Acme = Co", "Acme = Co"),
            ("", ""),
            // A phone number is a phone number (issue 38); a `+` formula is not one.
            ("+44 7700 900623", "+44 7700 900623"),
            ("+1 (555) 010-9999", "+1 (555) 010-9999"),
            ("+4512345678", "+4512345678"),
            ("+1+2345678", "'+1+2345678"),
            ("+12 34", "'+12 34"),
            ("+(1)2345678*A1", "'+(1)2345678*A1"),
        ] {
            assert_eq!(defuse_cell(cell.to_string()), want, "{cell:?}");
        }
        assert_eq!(
            csv_line(["=1+1".to_string(), "a".to_string()].into_iter()),
            "'=1+1,a\n"
        );
    }

    #[test]
    fn csv_quotes_and_tables_align() {
        assert_eq!(
            csv_line(["a".to_string(), "b,c".to_string(), "d\"e".to_string()].into_iter()),
            "a,\"b,c\",\"d\"\"e\"\n"
        );
        let t = table(
            &["k", "value", "empty"],
            &[
                vec!["a".into(), "1".into(), String::new()],
                vec!["long key".into(), "\u{1b}[31mred".into(), String::new()],
            ],
        );
        assert_eq!(t, "k         value\na         1\nlong key  red\n");
    }
}
