//! Company records serialized once ([`RecordJson`]), and answers written around them without
//! copying them ([`to_pieces`]): the sandbox serializes each record it serves once and hands
//! the same bytes to every answer that holds it, straight to the socket (issue 18, "Speed").

use std::cell::RefCell;
use std::io;
use std::rc::Rc;
use std::sync::Arc;

use bytes::Bytes;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// A company record already serialized to JSON (SPEC.md §2.3 `Company`). Serializes as the
/// JSON it holds (copied by `serde_json::to_vec`, shared by [`to_pieces`]); deserializes any
/// JSON value.
#[derive(Debug, Clone)]
pub struct RecordJson(pub Arc<RawValue>);

impl RecordJson {
    /// `company` serialized once, as `serde_json::to_string` writes it.
    pub fn of(company: &super::Company) -> RecordJson {
        // A `Company` has string keys and finite numbers only: it always serializes.
        let json = serde_json::value::to_raw_value(company).expect("a company record serializes");
        RecordJson(Arc::from(json))
    }
}

impl RecordJson {
    /// Any record serialized once, as `serde_json::to_string` writes it (a record of the
    /// wire types: string keys and finite numbers, so it always serializes; `{}` otherwise).
    pub fn of_serialize<T: Serialize>(record: &T) -> RecordJson {
        match serde_json::value::to_raw_value(record) {
            Ok(json) => RecordJson(Arc::from(json)),
            Err(_) => RecordJson::default(),
        }
    }

    /// The JSON text `json` as it is (`{}` when it is not JSON).
    pub fn from_json(json: String) -> RecordJson {
        match RawValue::from_string(json) {
            Ok(json) => RecordJson(Arc::from(json)),
            Err(_) => RecordJson::default(),
        }
    }
}

impl PartialEq for RecordJson {
    /// The same JSON text.
    fn eq(&self, other: &Self) -> bool {
        self.0.get() == other.0.get()
    }
}

impl Default for RecordJson {
    /// `{}`.
    fn default() -> Self {
        RecordJson(Arc::from(
            RawValue::from_string("{}".into()).expect("{} is JSON"),
        ))
    }
}

impl Serialize for RecordJson {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Under `to_pieces`, its formatter takes this record's bytes as they are written.
        SHARED.with(|shared| {
            if let Some(next) = shared.borrow_mut().as_mut() {
                *next = Some(self.0.clone());
            }
        });
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for RecordJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(d)?;
        Ok(RecordJson(Arc::from(raw)))
    }
}

thread_local! {
    /// While [`to_pieces`] runs on this thread: `Some(the record being serialized)`.
    static SHARED: RefCell<Option<Option<Arc<RawValue>>>> = const { RefCell::new(None) };
}

/// The record bytes of a [`RecordJson`], as a [`Bytes`] owner.
struct RecordBytes(Arc<RawValue>);

impl AsRef<[u8]> for RecordBytes {
    fn as_ref(&self) -> &[u8] {
        self.0.get().as_bytes()
    }
}

/// One piece of a [`to_pieces`] answer while it is built.
enum Mark {
    /// `text[start..end]` of [`Built::text`].
    Text(usize, usize),
    /// A record's own bytes.
    Record(Arc<RawValue>),
}

/// What the writer and the formatter of [`to_pieces`] build together: all the JSON around the
/// records in one buffer (no allocation per piece), and the pieces in order.
#[derive(Default)]
struct Built {
    /// Every byte written that is not a record's, in order.
    text: Vec<u8>,
    /// Where in `text` the current run of text began.
    run: usize,
    /// The pieces so far.
    marks: Vec<Mark>,
}

impl Built {
    fn end_run(&mut self) {
        if self.text.len() > self.run {
            self.marks.push(Mark::Text(self.run, self.text.len()));
            self.run = self.text.len();
        }
    }
}

/// Appends to [`Built::text`].
struct PieceWriter(Rc<RefCell<Built>>);

impl io::Write for PieceWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().text.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.borrow_mut().text.extend_from_slice(buf);
        Ok(())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Compact JSON, except that a [`RecordJson`]'s bytes become a piece of their own, shared.
struct PieceFormatter(Rc<RefCell<Built>>);

impl serde_json::ser::Formatter for PieceFormatter {
    fn write_raw_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let record = SHARED.with(|shared| shared.borrow_mut().as_mut().and_then(Option::take));
        match record {
            // The fragment is that record's own text: share it.
            Some(r) if std::ptr::eq(r.get().as_ptr(), fragment.as_ptr()) => {
                let mut built = self.0.borrow_mut();
                built.end_run();
                built.marks.push(Mark::Record(r));
                Ok(())
            }
            _ => writer.write_all(fragment.as_bytes()),
        }
    }
}

/// `value` as compact JSON in pieces, in order: the text around the records, and each
/// [`RecordJson`]'s bytes shared rather than copied; the text around the records is written
/// into one buffer, each piece of it a slice. Their concatenation is `serde_json::to_vec(value)`.
///
/// Errors as `serde_json::to_vec` (a map with non-string keys, a failing `Serialize`).
pub fn to_pieces<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<Bytes>> {
    let built = Rc::new(RefCell::new(Built::default()));
    let outer = SHARED.with(|shared| shared.borrow_mut().replace(None));
    let mut ser = serde_json::Serializer::with_formatter(
        PieceWriter(built.clone()),
        PieceFormatter(built.clone()),
    );
    let done = value.serialize(&mut ser);
    SHARED.with(|shared| *shared.borrow_mut() = outer);
    done?;
    drop(ser);
    let mut built = Rc::try_unwrap(built)
        .map_err(|_| ())
        .expect("the serializer is dropped")
        .into_inner();
    built.end_run();
    let text = Bytes::from(built.text);
    Ok(built
        .marks
        .into_iter()
        .map(|m| match m {
            Mark::Text(start, end) => text.slice(start..end),
            Mark::Record(r) => Bytes::from_owner(RecordBytes(r)),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces are the JSON `to_vec` writes; each record is one piece, its bytes shared.
    #[test]
    fn pieces_are_the_json_with_records_shared() {
        let a = RecordJson(Arc::from(
            RawValue::from_string(r#"{"domain":"a.com","n":[1,2]}"#.into()).unwrap(),
        ));
        let b = RecordJson(Arc::from(
            RawValue::from_string(r#"{"domain":"b.com"}"#.into()).unwrap(),
        ));
        let value = serde_json::json!(null);
        let answer = (
            vec![Some(a.clone()), None, Some(b.clone()), Some(a.clone())],
            "x\u{1}",
            value,
        );
        let pieces = to_pieces(&answer).unwrap();
        let joined: Vec<u8> = pieces.iter().flat_map(|p| p.iter().copied()).collect();
        assert_eq!(joined, serde_json::to_vec(&answer).unwrap());
        let shared = pieces
            .iter()
            .filter(|p| std::ptr::eq(p.as_ptr(), a.0.get().as_ptr()))
            .count();
        assert_eq!(shared, 2, "{pieces:?}");
        assert!(
            pieces
                .iter()
                .any(|p| std::ptr::eq(p.as_ptr(), b.0.get().as_ptr()))
        );
        // A raw value that is not a RecordJson is copied like any other text.
        let other: Box<RawValue> = RawValue::from_string("[true]".into()).unwrap();
        let pieces = to_pieces(&(&other, &b)).unwrap();
        let joined: Vec<u8> = pieces.iter().flat_map(|p| p.iter().copied()).collect();
        assert_eq!(joined, br#"[[true],{"domain":"b.com"}]"#);
    }
}
