//! Key lists for lookups and reveals (issue 15, "Streams and files"): a list given inline, a
//! file, or standard input (`-`). Files are read as a stream, line by line (or one CSV column),
//! so a list of a million domains is never held whole: peak memory is one batch.
//!
//! Accepted: UTF-8 with or without a byte-order mark, LF or CRLF line ends; blank lines and
//! lines starting with `#` are skipped. Refused, with a line naming the file and the limit:
//! a file over [`MAX_INPUT_BYTES`], a line over [`MAX_LINE_BYTES`] (e.g. `/dev/zero`), more than
//! [`MAX_KEYS`] keys, text that is not UTF-8.

use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Largest input a key list may be: 256 MiB.
pub const MAX_INPUT_BYTES: u64 = 256 * 1024 * 1024;
/// Longest line of a key list: 4 KiB.
pub const MAX_LINE_BYTES: usize = 4 * 1024;
/// Most keys in one list: 5,000,000.
pub const MAX_KEYS: u64 = 5_000_000;

/// Where a list of keys comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KeySource {
    /// Keys given inline (arguments, pasted text, stdin read up front).
    List(Vec<String>),
    /// A file, one key per line, or the CSV column `column` (header name or 1-based number).
    File {
        /// The file.
        path: PathBuf,
        /// The CSV column, when the file is CSV.
        column: Option<String>,
    },
}

/// A key list that cannot be read, in one line naming the file and what was wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct KeyError(pub String);

/// A stable 64-bit hash of a normalized key (for de-duplicating a stream without keeping it).
pub(super) fn hash_key(k: &str) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    k.hash(&mut h);
    h.finish()
}

impl KeySource {
    /// The keys, in order, as a stream (see the module docs for what is accepted).
    ///
    /// Errors: the file cannot be opened; each item is an error past a limit or on bad text.
    pub fn iter(
        &self,
    ) -> Result<Box<dyn Iterator<Item = Result<String, KeyError>> + Send>, KeyError> {
        match self {
            KeySource::List(v) => Ok(Box::new(v.clone().into_iter().map(Ok))),
            KeySource::File { path, column } => {
                let shown = prospect_common::sanitize::sanitize(&path.display().to_string());
                let file = std::fs::File::open(path)
                    .map_err(|e| KeyError(format!("cannot read {shown}: {e}")))?;
                let reader = BufReader::new(file.take(MAX_INPUT_BYTES + 1));
                match column {
                    None => Ok(Box::new(Lines::new(reader, shown))),
                    Some(c) => Ok(Box::new(csv_column(reader, shown, c)?)),
                }
            }
        }
    }

    /// Every key, read whole (for short lists: reveals, people lookups).
    ///
    /// Errors: as [`KeySource::iter`].
    pub fn read_all(&self) -> Result<Vec<String>, KeyError> {
        self.iter()?.collect()
    }
}

/// A key of a list as [`KeySource::read_ahead`] hands it on.
#[derive(Debug)]
pub(super) enum ReadKey {
    /// A key the normalizer accepts: as given (trimmed), normalized, and the [`hash_key`] of
    /// the normalized key (a stream is de-duplicated by it).
    Key {
        given: String,
        norm: String,
        hash: u64,
    },
    /// A key the normalizer rejects, as given.
    Refused(String),
}

/// A stretch of keys read ahead ([`KeySource::read_ahead`]), or what stopped the reading (then
/// the last item).
pub(super) type Stretch = Result<Vec<ReadKey>, KeyError>;

/// How many stretches [`KeySource::read_ahead`] reads ahead of its caller at most.
const READ_AHEAD: usize = 4;

impl KeySource {
    /// Reads the keys on a thread of its own, each normalized by `normalize` and hashed there,
    /// and hands them on in order, in stretches of `stretch` keys read (blank and comment lines
    /// are not keys), at most [`READ_AHEAD`] stretches ahead: the caller de-duplicates, counts
    /// and buys while the next stretch is read. A read error is the last item; the thread ends
    /// there, at the end of the keys, or when the receiver is dropped. Memory: a few stretches.
    ///
    /// Errors: the file cannot be opened, or no thread can be started.
    pub(super) fn read_ahead(
        &self,
        normalize: fn(&str) -> Option<String>,
        stretch: usize,
    ) -> Result<tokio::sync::mpsc::Receiver<Stretch>, KeyError> {
        let keys = self.iter()?;
        let (tx, rx) = tokio::sync::mpsc::channel(READ_AHEAD);
        std::thread::Builder::new()
            .name("key-reader".into())
            .spawn(move || read_stretches(keys, normalize, stretch.max(1), &tx))
            .map_err(|e| KeyError(format!("cannot start reading the keys: {e}")))?;
        Ok(rx)
    }
}

/// The reading of [`KeySource::read_ahead`]: `keys` normalized and sent on `tx` in stretches.
fn read_stretches(
    keys: impl Iterator<Item = Result<String, KeyError>>,
    normalize: fn(&str) -> Option<String>,
    stretch: usize,
    tx: &tokio::sync::mpsc::Sender<Stretch>,
) {
    let mut part = Vec::with_capacity(stretch);
    for key in keys {
        let key = match key {
            Ok(k) => k,
            Err(e) => {
                if !part.is_empty() && tx.blocking_send(Ok(part)).is_err() {
                    return;
                }
                let _ = tx.blocking_send(Err(e));
                return;
            }
        };
        part.push(match normalize(&key) {
            Some(norm) => ReadKey::Key {
                hash: hash_key(&norm),
                given: trimmed(key),
                norm,
            },
            None => ReadKey::Refused(key),
        });
        if part.len() == stretch {
            let full = std::mem::replace(&mut part, Vec::with_capacity(stretch));
            if tx.blocking_send(Ok(full)).is_err() {
                return;
            }
        }
    }
    if !part.is_empty() {
        let _ = tx.blocking_send(Ok(part));
    }
}

/// `key` without white space at its ends (itself when it has none, as a read key mostly is).
fn trimmed(key: String) -> String {
    if key.trim().len() == key.len() {
        key
    } else {
        key.trim().to_string()
    }
}

/// Reads a list from standard input (`--ids -`) whole, with the same rules as a file.
///
/// Errors: past a limit, or text that is not UTF-8.
pub fn read_key_list(
    input: impl Read + Send + 'static,
    name: &str,
) -> Result<Vec<String>, KeyError> {
    Lines::new(
        BufReader::new(input.take(MAX_INPUT_BYTES + 1)),
        name.to_string(),
    )
    .collect()
}

/// Line-by-line keys of a plain list.
struct Lines<R> {
    reader: R,
    name: String,
    line: u64,
    keys: u64,
    bytes: u64,
    buf: Vec<u8>,
    done: bool,
}

impl<R: BufRead> Lines<R> {
    fn new(reader: R, name: String) -> Lines<R> {
        Lines {
            reader,
            name,
            line: 0,
            keys: 0,
            bytes: 0,
            buf: Vec::with_capacity(256),
            done: false,
        }
    }

    fn fail(&mut self, msg: String) -> Option<Result<String, KeyError>> {
        self.done = true;
        Some(Err(KeyError(msg)))
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = Result<String, KeyError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            self.buf.clear();
            // Read at most one line past the limit, so a file with no line end stops early.
            let got = match (&mut self.reader)
                .take(MAX_LINE_BYTES as u64 + 1)
                .read_until(b'\n', &mut self.buf)
            {
                Ok(n) => n,
                Err(e) => return self.fail(format!("cannot read {}: {e}", self.name)),
            };
            if got == 0 {
                self.done = true;
                return None;
            }
            self.line += 1;
            self.bytes += got as u64;
            if self.bytes > MAX_INPUT_BYTES {
                let msg = format!(
                    "{} is larger than the {} MiB a key list may be; split it",
                    self.name,
                    MAX_INPUT_BYTES / (1024 * 1024)
                );
                return self.fail(msg);
            }
            if self.buf.len() > MAX_LINE_BYTES && !self.buf.ends_with(b"\n") {
                let msg = format!(
                    "{} line {} is longer than {} bytes; is it a list of keys, one per line?",
                    self.name, self.line, MAX_LINE_BYTES
                );
                return self.fail(msg);
            }
            let mut text = match std::str::from_utf8(&self.buf) {
                Ok(t) => t,
                Err(_) => {
                    let msg = format!("{} line {} is not UTF-8 text", self.name, self.line);
                    return self.fail(msg);
                }
            };
            if self.line == 1 {
                text = text.strip_prefix('\u{feff}').unwrap_or(text);
            }
            let key = text.trim();
            if key.is_empty() || key.starts_with('#') {
                continue;
            }
            self.keys += 1;
            if self.keys > MAX_KEYS {
                let msg = format!("{} has more than {MAX_KEYS} keys; split it", self.name);
                return self.fail(msg);
            }
            return Some(Ok(prospect_common::sanitize::sanitize(key)));
        }
        None
    }
}

/// The keys of one column of a CSV file, streamed.
fn csv_column<R: Read + Send + 'static>(
    reader: R,
    name: String,
    column: &str,
) -> Result<impl Iterator<Item = Result<String, KeyError>> + Send + use<R>, KeyError> {
    // The delimiter of the header line (`,`, `;` or a tab, as `csv_header` reads it).
    let mut reader = BufReader::new(reader);
    let head = reader
        .fill_buf()
        .map_err(|e| KeyError(format!("{name}: {e}")))?;
    let first = String::from_utf8_lossy(head.split(|b| *b == b'\n').next().unwrap_or_default());
    let delimiter = csv_header(&first).map_or(b',', |(d, _)| d);
    let mut rd = csv::ReaderBuilder::new()
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(reader);
    let headers = rd
        .headers()
        .map_err(|e| KeyError(format!("{name}: {e}")))?
        .clone();
    let clean = |h: &str| h.trim_start_matches('\u{feff}').trim().to_string();
    let idx = match column.parse::<usize>() {
        Ok(n) if n >= 1 => n - 1,
        _ => headers
            .iter()
            .position(|h| clean(h).eq_ignore_ascii_case(column.trim()))
            .ok_or_else(|| {
                KeyError(format!(
                    "{name}: no column {column:?} (columns: {})",
                    headers.iter().map(clean).collect::<Vec<_>>().join(", ")
                ))
            })?,
    };
    let mut keys = 0u64;
    let mut failed = false;
    Ok(rd.into_records().enumerate().filter_map(move |(i, rec)| {
        if failed {
            return None;
        }
        let rec = match rec {
            Ok(r) => r,
            Err(e) => {
                failed = true;
                return Some(Err(KeyError(format!("{name} row {}: {e}", i + 2))));
            }
        };
        let v = rec.get(idx).map(str::trim).filter(|v| !v.is_empty())?;
        keys += 1;
        if keys > MAX_KEYS {
            failed = true;
            return Some(Err(KeyError(format!(
                "{name} has more than {MAX_KEYS} keys; split it"
            ))));
        }
        Some(Ok(prospect_common::sanitize::sanitize(v)))
    }))
}

/// Whether a bare people key is a service person id rather than a professional-network
/// handle: 16 to 32 hexadecimal characters with at least one digit, the shape of the ids the
/// service gives (`e9447c74eafa8a19`, SPEC.md §4.6). Anything else (a profile URL, `in/jane`,
/// a bare handle such as `jane-doe` or `JaneDoe`) is a handle.
pub fn is_service_id(key: &str) -> bool {
    let k = key.trim();
    (16..=32).contains(&k.len())
        && k.bytes().all(|b| b.is_ascii_hexdigit())
        && k.bytes().any(|b| b.is_ascii_digit())
}

/// Splits a mixed list of people keys (the explorer's `Ctrl-l`) into professional-network
/// handles and service person ids ([`is_service_id`]), each in its input order: `(handles,
/// ids)`. A bare handle is sent as a handle (`linkedinHandles`), never as an id, and the lookup
/// keys every form of one handle (URL, bare, trailing `/`, case) as one
/// ([`prospect_common::keys::linkedin_handle`]).
pub fn split_people_keys(keys: &[String]) -> (Vec<String>, Vec<String>) {
    keys.iter().cloned().partition(|k| !is_service_id(k))
}

// ---------------------------------------------------------------- CSV columns (issue 38)
//
// The columns of a key file that is a CSV (a CRM export: HubSpot, Salesforce, or plain names),
// found by their header: one reader for the CLI's `lookup --file`, the explorer's `Ctrl-l` and
// `suppress import`.

/// What a column of keys holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyColumn {
    /// Company domains or websites.
    Domain,
    /// Email addresses.
    Email,
    /// Professional-network profile URLs or handles.
    Profile,
    /// The service's person ids.
    PersonId,
}

impl KeyColumn {
    /// Column titles read as this kind, compared without case, spaces, `_` and `-`.
    pub fn titles(self) -> &'static [&'static str] {
        match self {
            KeyColumn::Domain => &[
                "company domain name",
                "company domain",
                "domain",
                "domains",
                "domain name",
                "website",
                "website url",
                "company website",
                "account website",
                "web site",
                "url",
            ],
            KeyColumn::Email => &["email", "email address", "work email", "business email"],
            KeyColumn::Profile => &[
                "linkedin url",
                "linkedin",
                "linkedin profile",
                "linkedin profile url",
                "profile url",
                "linkedin bio",
                "linkedin handle",
                "handle",
            ],
            KeyColumn::PersonId => &["person id", "id", "service id"],
        }
    }

    /// In words, for an error: `domain`, `email`, `profile`, `person id`.
    pub fn word(self) -> &'static str {
        match self {
            KeyColumn::Domain => "domain",
            KeyColumn::Email => "email",
            KeyColumn::Profile => "profile",
            KeyColumn::PersonId => "person id",
        }
    }
}

/// A column title without case, spaces, `_`, `-` and quotes: `Company Domain Name` →
/// `companydomainname`.
fn squeezed(title: &str) -> String {
    title
        .trim()
        .trim_start_matches('\u{feff}')
        .trim_matches('"')
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The kind of the column titled `title`, among `wanted` (all kinds when empty).
pub fn column_kind(title: &str, wanted: &[KeyColumn]) -> Option<KeyColumn> {
    let t = squeezed(title);
    [
        KeyColumn::Domain,
        KeyColumn::Email,
        KeyColumn::Profile,
        KeyColumn::PersonId,
    ]
    .into_iter()
    .filter(|k| wanted.is_empty() || wanted.contains(k))
    .find(|k| k.titles().iter().any(|known| squeezed(known) == t))
}

/// The header of a CSV file, when `first` (its first line) is one: separated fields (by `,`,
/// `;` or a tab, whichever the line has most) of which one is a known column title, or none
/// looks like a key (no `.` or `@`: `Name,Phone` is a header, `acme.com,globex.com` is not);
/// or a line that is one known column title alone (`domain` atop a one-column list).
/// Returns the delimiter (`,` for one title) and the titles.
pub fn csv_header(first: &str) -> Option<(u8, Vec<String>)> {
    let first = first.trim_start_matches('\u{feff}').trim_end();
    let delimiter = [b',', b';', b'\t']
        .into_iter()
        .max_by_key(|d| first.bytes().filter(|b| b == d).count())
        .filter(|d| first.as_bytes().contains(d));
    let Some(delimiter) = delimiter else {
        let title = first.trim();
        return column_kind(title, &[]).map(|_| (b',', vec![title.to_string()]));
    };
    let titles: Vec<String> = csv::ReaderBuilder::new()
        .has_headers(false)
        .delimiter(delimiter)
        .from_reader(first.as_bytes())
        .records()
        .next()?
        .ok()?
        .iter()
        .map(|t| t.trim().to_string())
        .collect();
    let known = titles.iter().any(|t| column_kind(t, &[]).is_some());
    (known || titles.iter().all(|t| !t.contains(['.', '@']))).then_some((delimiter, titles))
}

impl KeySource {
    /// The keys of the file at `path` for a command that reads keys of `wanted` kinds: a CSV
    /// (its first line a header, [`csv_header`]) gives its first column of a wanted kind, by its
    /// title (`Company Domain Name` in a HubSpot companies export); any other file is a list,
    /// one key a line. Reads the first line only.
    ///
    /// Errors, naming the file: it cannot be read; it is a CSV with no column of a wanted kind
    /// (its columns listed, and `--column` named).
    pub fn file_of(path: PathBuf, wanted: &[KeyColumn]) -> Result<KeySource, KeyError> {
        let shown = prospect_common::sanitize::sanitize(&path.display().to_string());
        let file = std::fs::File::open(&path)
            .map_err(|e| KeyError(format!("cannot read {shown}: {e}")))?;
        let mut first = Vec::new();
        BufReader::new(file.take(MAX_LINE_BYTES as u64 + 1))
            .read_until(b'\n', &mut first)
            .map_err(|e| KeyError(format!("cannot read {shown}: {e}")))?;
        let first = String::from_utf8_lossy(&first);
        let Some((_, titles)) = csv_header(&first) else {
            return Ok(KeySource::File { path, column: None });
        };
        match titles.iter().find(|t| column_kind(t, wanted).is_some()) {
            Some(t) => Ok(KeySource::File {
                column: Some(t.clone()),
                path,
            }),
            None => Err(KeyError(format!(
                "{shown} is a CSV with no {} column (its columns: {}); name one with --column",
                wanted
                    .iter()
                    .map(|k| k.word())
                    .collect::<Vec<_>>()
                    .join(" or "),
                titles
                    .iter()
                    .map(|t| prospect_common::sanitize::sanitize(t))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn bare_handles_are_handles_and_hex_ids_are_ids() {
        let keys: Vec<String> = [
            "https://www.linkedin.com/in/ann",
            "e9447c74eafa8a19",
            "in/bob",
            "jane-doe",
            "JaneDoe",
            "0a1b2c3d4e5f60718293a4b5",
            "deadbeef",
            "abcdefabcdefabcdef",
        ]
        .map(String::from)
        .to_vec();
        let (h, i) = super::split_people_keys(&keys);
        assert_eq!(
            h,
            [
                "https://www.linkedin.com/in/ann",
                "in/bob",
                "jane-doe",
                "JaneDoe",
                "deadbeef",
                "abcdefabcdefabcdef"
            ]
        );
        assert_eq!(i, ["e9447c74eafa8a19", "0a1b2c3d4e5f60718293a4b5"]);
    }

    use super::*;

    #[test]
    fn keys_read_ahead_come_in_order_with_their_error_last() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keys.txt");
        let mut text: Vec<u8> = Vec::new();
        for i in 0..2_500 {
            text.extend_from_slice(format!(" Acme-{i}.COM \n").as_bytes());
        }
        text.extend_from_slice(b"not a domain\n\xff\xfe.com\nlater.com\n");
        std::fs::write(&path, text).unwrap();
        let source = KeySource::File { path, column: None };
        let mut read = source
            .read_ahead(prospect_common::keys::domain_key, 1_000)
            .unwrap();
        let mut sizes = Vec::new();
        let mut keys = Vec::new();
        let mut last = None;
        while let Some(stretch) = read.blocking_recv() {
            match stretch {
                Ok(s) => {
                    sizes.push(s.len());
                    keys.extend(s);
                }
                Err(e) => last = Some(e),
            }
        }
        // Whole stretches of 1,000, then what was read before the bad line, then its error.
        assert_eq!(sizes, [1_000, 1_000, 501]);
        let err = last.expect("the bad line ends the stream").0;
        assert!(err.contains("line 2502 is not UTF-8"), "{err}");
        for (i, key) in keys.iter().take(2_500).enumerate() {
            let ReadKey::Key { given, norm, hash } = key else {
                panic!("key {i} refused: {key:?}");
            };
            assert_eq!(given, &format!("Acme-{i}.COM"));
            assert_eq!(norm, &format!("acme-{i}.com"));
            assert_eq!(*hash, hash_key(norm));
        }
        assert!(matches!(&keys[2_500], ReadKey::Refused(k) if k == "not a domain"));
    }

    #[test]
    fn bom_crlf_comments_and_blank_lines() {
        let text = "\u{feff}a.com\r\n\r\n# note\r\nb.com\r\n  c.com  \n";
        let keys = read_key_list(std::io::Cursor::new(text.as_bytes().to_vec()), "stdin").unwrap();
        assert_eq!(keys, vec!["a.com", "b.com", "c.com"]);
    }

    #[test]
    fn a_line_without_end_past_the_limit_is_refused_early() {
        let zeros = std::io::repeat(0).take(10 * 1024 * 1024);
        let e = read_key_list(zeros, "/dev/zero").unwrap_err();
        assert!(e.0.contains("longer than 4096 bytes"), "{e}");
    }

    #[test]
    fn csv_columns_by_name_or_number() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("l.csv");
        std::fs::write(&p, "\u{feff}name,Domain\r\nA,a.com\r\nB,\r\nC,c.com\r\n").unwrap();
        let by_name = KeySource::File {
            path: p.clone(),
            column: Some("domain".into()),
        };
        assert_eq!(by_name.read_all().unwrap(), vec!["a.com", "c.com"]);
        let by_number = KeySource::File {
            path: p.clone(),
            column: Some("2".into()),
        };
        assert_eq!(by_number.read_all().unwrap(), vec!["a.com", "c.com"]);
        let missing = KeySource::File {
            path: p,
            column: Some("website".into()),
        };
        assert!(missing.read_all().unwrap_err().0.contains("no column"));
    }

    #[test]
    fn crm_headers_name_their_columns() {
        let hubspot = "Record ID,Company name,Company Domain Name,Lifecycle Stage";
        let (d, titles) = csv_header(hubspot).expect("a header");
        assert_eq!(d, b',');
        assert_eq!(titles.len(), 4);
        assert_eq!(
            column_kind(&titles[2], &[KeyColumn::Domain]),
            Some(KeyColumn::Domain)
        );
        assert_eq!(column_kind("Record ID", &[]), None);
        assert_eq!(column_kind("LinkedIn_URL", &[]), Some(KeyColumn::Profile));
        assert_eq!(column_kind("E-mail", &[]), Some(KeyColumn::Email));
        assert!(csv_header("Name;Phone").is_some(), "no key in it: a header");
        assert!(
            csv_header("acme.com,globex.com").is_none(),
            "keys, not a header"
        );
        assert!(csv_header("acme.com").is_none(), "one key a line");
        assert_eq!(
            csv_header("Domain\r"),
            Some((b',', vec!["Domain".to_string()])),
            "one known title alone is a header"
        );
        assert!(csv_header("Acme").is_none(), "one unknown word is a key");
    }

    /// One reader of key files (issue 38): a CRM export's key column is found by its header,
    /// with `,` or `;` between fields; a CSV with no wanted column is refused, naming its
    /// columns; any other file is one key a line.
    #[test]
    fn a_key_file_is_read_from_the_column_its_header_names() {
        use super::{KeyColumn, KeySource};
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str, text: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, text).unwrap();
            p
        };
        let hubspot = file(
            "hubspot.csv",
            "\u{feff}Record ID,Company name,Company Domain Name,Lifecycle Stage\r\n\
             102,Sage,sage.com,customer\r\n103,\"Acme, Inc.\",acme.com,lead\r\n",
        );
        let keys = KeySource::file_of(hubspot, &[KeyColumn::Domain]).unwrap();
        assert_eq!(keys.read_all().unwrap(), ["sage.com", "acme.com"]);
        let semicolons = file("sf.csv", "Name;Website\nAcme;acme.com\nBeta;\"beta.io\"\n");
        let keys = KeySource::file_of(semicolons, &[KeyColumn::Domain]).unwrap();
        assert_eq!(keys.read_all().unwrap(), ["acme.com", "beta.io"]);
        let people = file(
            "people.csv",
            "First,LinkedIn URL\nAnn,https://www.linkedin.com/in/ann\n",
        );
        let keys = KeySource::file_of(people.clone(), &[KeyColumn::Profile]).unwrap();
        assert_eq!(
            keys.read_all().unwrap(),
            ["https://www.linkedin.com/in/ann"]
        );
        let e = KeySource::file_of(people, &[KeyColumn::Domain]).unwrap_err();
        assert!(
            e.0.contains("no domain column (its columns: First, LinkedIn URL)"),
            "{e}"
        );
        let plain = file("list.txt", "acme.com\nbeta.io\n");
        let keys = KeySource::file_of(plain, &[KeyColumn::Domain]).unwrap();
        assert!(matches!(keys, KeySource::File { column: None, .. }));
        assert_eq!(keys.read_all().unwrap(), ["acme.com", "beta.io"]);
    }
}
