//! Search records rendered ahead in an output form (issue 39): a company search run again on
//! the same store writes the rows it rendered when it bought them, kept beside the purchase
//! (`prospect_store::Store::keep_page_rows`), instead of decompressing and decoding its
//! answers again. The rows are rendered by the functions [`super::Writer::write`] uses, so the
//! bytes written are the same whether a run bought its records or read them.

use std::io;

use super::{CompanyOut, Format, csv_row};

/// An output form of company records that is rendered ahead and kept: CSV lines. JSON output
/// is not: its rows are the whole records, nearly the raw answers again (rendering, packing
/// and keeping them cost the buying run more CPU, memory and store than the run again saves);
/// a table is laid out from all its cells at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowForm {
    /// [`csv_row`] of each company: its CSV line, `\n` included.
    CompaniesCsv,
}

impl RowForm {
    /// The form a writer of companies in `format` takes rendered rows in; `None` but for CSV.
    pub fn of(format: Format) -> Option<RowForm> {
        match format {
            Format::Csv => Some(RowForm::CompaniesCsv),
            Format::Jsonl | Format::Json | Format::Table => None,
        }
    }

    /// The name rows of this form are kept under. It carries the rendering's version: rows
    /// kept by a build that rendered otherwise are not read (a change of `CompanyOut`, the
    /// company columns, CSV quoting or defusing bumps it; the test
    /// `rendered_rows_are_what_the_writer_writes` fails until it is).
    pub fn key(self) -> &'static str {
        match self {
            RowForm::CompaniesCsv => "companies.csv/1",
        }
    }

    /// Appends the row of `rec` in this form to `out`.
    pub fn render(self, rec: &CompanyOut, out: &mut Vec<u8>) {
        match self {
            RowForm::CompaniesCsv => out.extend_from_slice(csv_row(rec).as_bytes()),
        }
    }
}

/// The rows of one page's records in one [`RowForm`], in answer order, each with the domain of
/// its company (as the service wrote it), so suppression can leave rows out by domain.
///
/// Layout (also as kept in the store): for each row, the domain's length (`u32`, little
/// endian) and its UTF-8 bytes, then the row's length and its bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageRows {
    packed: Vec<u8>,
    len: usize,
}

/// `n` as the `u32` of a length in [`PageRows`]' layout.
fn len32(n: usize) -> io::Result<[u8; 4]> {
    u32::try_from(n)
        .map(u32::to_le_bytes)
        .map_err(|_| io::Error::other("a rendered row of 4 GiB or more"))
}

impl PageRows {
    /// The rows of `records` rendered in `form`.
    ///
    /// # Errors
    /// A record's row is 4 GiB or more.
    pub fn render(form: RowForm, records: &[CompanyOut]) -> io::Result<PageRows> {
        let mut rows = PageRows::default();
        let mut row = Vec::new();
        for rec in records {
            row.clear();
            form.render(rec, &mut row);
            rows.push(&rec.company.domain, &row)?;
        }
        Ok(rows)
    }

    fn push(&mut self, key: &str, row: &[u8]) -> io::Result<()> {
        self.packed.extend_from_slice(&len32(key.len())?);
        self.packed.extend_from_slice(key.as_bytes());
        self.packed.extend_from_slice(&len32(row.len())?);
        self.packed.extend_from_slice(row);
        self.len += 1;
        Ok(())
    }

    /// Rows kept in their layout (`bytes`, as [`PageRows::as_bytes`] gave them); `None` when
    /// they are not in it (cut, or a domain that is not UTF-8).
    pub fn from_bytes(bytes: Vec<u8>) -> Option<PageRows> {
        let mut len = 0;
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            let (key, after) = split_field(rest)?;
            std::str::from_utf8(key).ok()?;
            let (_, after) = split_field(after)?;
            rest = after;
            len += 1;
        }
        Some(PageRows { packed: bytes, len })
    }

    /// The rows in their layout, to keep.
    pub fn as_bytes(&self) -> &[u8] {
        &self.packed
    }

    /// How many rows.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Each row with its company's domain, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[u8])> {
        let mut rest = &self.packed[..];
        std::iter::from_fn(move || {
            let (key, after) = split_field(rest)?;
            let (row, after) = split_field(after)?;
            rest = after;
            // Checked UTF-8 when made (`push` takes a `str`, `from_bytes` checks).
            Some((std::str::from_utf8(key).unwrap_or_default(), row))
        })
    }

    /// The rows whose domain `keep` keeps, in order.
    pub fn kept(self, mut keep: impl FnMut(&str) -> bool) -> PageRows {
        let mut out = PageRows::default();
        for (key, row) in self.iter().filter(|(key, _)| keep(key)) {
            // Lengths of rows that were already kept in this layout fit.
            let _ = out.push(key, row);
        }
        out
    }

    /// The first `n` rows (all of them, not copied, when there are no more).
    pub fn first(self, n: usize) -> PageRows {
        if n >= self.len {
            return self;
        }
        let mut out = PageRows::default();
        for (key, row) in self.iter().take(n) {
            let _ = out.push(key, row);
        }
        out
    }
}

/// The field at the start of `b` (its `u32` length, then its bytes) and what follows it;
/// `None` when `b` is cut.
fn split_field(b: &[u8]) -> Option<(&[u8], &[u8])> {
    let len = u32::from_le_bytes(b.get(..4)?.try_into().ok()?) as usize;
    let rest = &b[4..];
    (rest.len() >= len).then(|| rest.split_at(len))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::Writer;
    use prospect_api::types::{Company, Relevance};

    fn companies() -> Vec<CompanyOut> {
        let acme = Company {
            domain: "acme.com".into(),
            name: Some("Acme, \"the\" company".into()),
            description: Some("=cmd|' /C calc'!A0\nsecond line".into()),
            keywords: vec!["rockets".into(), "anvils".into()],
            ..Company::default()
        };
        let globex = Company {
            domain: "shop.globex.io".into(),
            year_founded: Some(1989),
            ..Company::default()
        };
        vec![
            CompanyOut {
                company: acme,
                relevance: Some(Relevance::A),
                score: None,
            },
            CompanyOut {
                company: globex,
                relevance: None,
                score: Some(0.5),
            },
        ]
    }

    /// What a writer in `format` writes for `recs`, record by record or from rows rendered
    /// ahead.
    fn written(format: Format, recs: &[CompanyOut], rendered: bool) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let mut w: Writer<CompanyOut> = Writer::new(format, Some(&path)).unwrap();
        if rendered {
            let rows = PageRows::render(RowForm::of(format).unwrap(), recs).unwrap();
            for (_, row) in rows.iter() {
                w.write_rendered(row).unwrap();
            }
        } else {
            for r in recs {
                w.write(r).unwrap();
            }
        }
        w.finish().unwrap();
        std::fs::read(&path).unwrap()
    }

    /// Rows rendered ahead write the bytes the writer writes for the records, in every format
    /// that takes them; the rendering of a fixed record is pinned, so that a change of it
    /// fails here until [`RowForm::key`] is bumped (rows kept by the old rendering are then
    /// not read).
    #[test]
    fn rendered_rows_are_what_the_writer_writes() {
        let recs = companies();
        assert_eq!(
            written(Format::Csv, &recs, true),
            written(Format::Csv, &recs, false)
        );
        for format in [Format::Jsonl, Format::Json, Format::Table] {
            assert!(RowForm::of(format).is_none(), "{format:?}");
        }
        let pinned = [(
            RowForm::CompaniesCsv,
            "companies.csv/1",
            "acme.com,\"Acme, \"\"the\"\" company\",A,,,,,,,,,,,,rockets;anvils,,,,\"'=cmd|' /C calc'!A0\nsecond line\"\n",
        )];
        for (form, key, row) in pinned {
            let mut out = Vec::new();
            form.render(&recs[0], &mut out);
            assert_eq!(
                (form.key(), String::from_utf8(out).unwrap().as_str()),
                (key, row),
                "the rendering of {form:?} changed: bump RowForm::key and pin the new row"
            );
        }
    }

    /// Rows survive their layout, and are kept by domain and count; a cut layout is refused.
    #[test]
    fn page_rows_round_trip_and_filter() {
        let rows = PageRows::render(RowForm::CompaniesCsv, &companies()).unwrap();
        assert_eq!(rows.len(), 2);
        let back = PageRows::from_bytes(rows.as_bytes().to_vec()).unwrap();
        assert_eq!(back, rows);
        let domains: Vec<&str> = back.iter().map(|(d, _)| d).collect();
        assert_eq!(domains, ["acme.com", "shop.globex.io"]);
        let kept = back.clone().kept(|d| d != "acme.com");
        assert_eq!(kept.len(), 1);
        assert_eq!(kept.iter().next().unwrap().0, "shop.globex.io");
        assert_eq!(back.clone().first(1).len(), 1);
        assert_eq!(back.clone().first(1).iter().next().unwrap().0, "acme.com");
        assert_eq!(back.clone().first(3), back);
        let bytes = rows.as_bytes();
        assert!(PageRows::from_bytes(bytes[..bytes.len() - 1].to_vec()).is_none());
        assert!(PageRows::from_bytes(Vec::new()).unwrap().is_empty());
    }
}
