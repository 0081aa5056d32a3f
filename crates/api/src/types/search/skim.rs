//! One pass over a raw search answer (SPEC.md §4.2–§4.4) that reads what paging and keeping
//! need without building a record (issue 39): its `searchAfter`, its `total`, how many records
//! it lists, and where each company record lies in it. The search run reads this before the
//! next page is asked, and the store frames each record by it, so an answer is scanned once
//! for both.

use std::fmt;
use std::ops::Range;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// What [`skim`] reads of a raw search answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skim {
    /// Its `searchAfter`, when a non-empty string.
    pub search_after: Option<String>,
    /// Its `total`, when a whole number.
    pub total: Option<i64>,
    /// How many entries its `companies` and `people` list (each counted, whatever its shape).
    pub records: u64,
    /// Where the record of each `companies` entry lies in the answer (byte ranges of its
    /// `company` member's JSON text, in answer order): `None` when there are no company entries,
    /// or when one is not an object with a `company` object.
    pub company_spans: Option<Vec<Range<usize>>>,
}

/// Reads [`Skim`] off the raw answer `raw`, skipping every record rather than building it;
/// `None` when `raw` is not one JSON object (a member of the wrong type counts as not one).
pub fn skim(raw: &[u8]) -> Option<Skim> {
    #[derive(Deserialize)]
    struct Answer<'a> {
        #[serde(rename = "searchAfter", default)]
        search_after: Option<String>,
        #[serde(default, borrow)]
        companies: Vec<Entry<'a>>,
        #[serde(default)]
        people: Vec<IgnoredAny>,
        #[serde(default)]
        total: Option<Value>,
    }
    let a: Answer<'_> = serde_json::from_slice(raw).ok()?;
    let base = raw.as_ptr() as usize;
    let company_spans = (!a.companies.is_empty())
        .then(|| {
            a.companies
                .iter()
                .map(|e| {
                    let text = e.0?.get();
                    let start = (text.as_ptr() as usize).checked_sub(base)?;
                    let span = start..start.checked_add(text.len())?;
                    (text.starts_with('{') && span.end <= raw.len()).then_some(span)
                })
                .collect::<Option<Vec<_>>>()
        })
        .flatten();
    Some(Skim {
        search_after: a.search_after.filter(|c| !c.is_empty()),
        total: a.total.as_ref().and_then(Value::as_i64),
        records: (a.companies.len() + a.people.len()) as u64,
        company_spans,
    })
}

/// An entry of a search answer's `companies`: the text of its `company` member. Any entry
/// reads, so that it still counts: one that is not an object, or has no `company`, reads as
/// `None`.
struct Entry<'a>(Option<&'a RawValue>);

impl<'de: 'a, 'a> Deserialize<'de> for Entry<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(EntryVisitor(std::marker::PhantomData))
    }
}

struct EntryVisitor<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for EntryVisitor<'a> {
    type Value = Entry<'a>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an entry of a search answer")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entry<'a>, A::Error> {
        let mut company = None;
        while let Some(is_company) = map.next_key_seed(IsCompany)? {
            if is_company {
                company = Some(map.next_value::<&'de RawValue>()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Entry(company))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Entry<'a>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Entry(None))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Entry<'a>, E> {
        Ok(Entry(None))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Entry<'a>, E> {
        Ok(Entry(None))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Entry<'a>, E> {
        Ok(Entry(None))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Entry<'a>, E> {
        Ok(Entry(None))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Entry<'a>, E> {
        Ok(Entry(None))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Entry<'a>, E> {
        Ok(Entry(None))
    }
}

/// A member name of an entry, read as whether it is `company` (without keeping it).
struct IsCompany;

impl<'de> DeserializeSeed<'de> for IsCompany {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for IsCompany {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<bool, E> {
        Ok(name == "company")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cursor, total and count of a company page, and each span the text of its entry's
    /// `company` object, escapes and nesting included.
    #[test]
    fn a_company_page_skims_to_its_cursor_count_and_record_spans() {
        let raw = br#"{"searchAfter":"c2","detail":null,"total":7,"creditsUsed":0.4,
            "companies":[{"company":{"domain":"a.com","name":"A \"quoted\" {x}"},"relevance":"A"},
            {"relevance":"B","company" : {"domain":"b.com","tags":[{"k":1}]}}]}"#;
        let s = skim(raw).unwrap();
        assert_eq!(s.search_after.as_deref(), Some("c2"));
        assert_eq!((s.total, s.records), (Some(7), 2));
        let texts: Vec<&str> = s
            .company_spans
            .unwrap()
            .into_iter()
            .map(|r| std::str::from_utf8(&raw[r]).unwrap())
            .collect();
        assert_eq!(
            texts,
            [
                r#"{"domain":"a.com","name":"A \"quoted\" {x}"}"#,
                r#"{"domain":"b.com","tags":[{"k":1}]}"#
            ]
        );
    }

    /// An entry of another shape still counts, but leaves the spans out; so does a `company`
    /// that is not an object. People, an empty cursor and a page without companies have none.
    #[test]
    fn entries_of_other_shapes_count_without_spans() {
        for raw in [
            &br#"{"companies":[{"company":{"domain":"a.com"}},"b.com"],"searchAfter":""}"#[..],
            br#"{"companies":[{"company":{"domain":"a.com"}},{"relevance":"A"}]}"#,
            br#"{"companies":[{"company":{"domain":"a.com"}},{"company":null}]}"#,
            br#"{"companies":[{"company":{"domain":"a.com"}},[1,{"company":{}}]]}"#,
        ] {
            let s = skim(raw).unwrap();
            assert_eq!((s.records, s.company_spans), (2, None), "{raw:?}");
            assert_eq!(s.search_after, None);
        }
        let people = skim(br#"{"people":[{"id":"1"},{"id":"2"},{"id":"3"}],"total":"x"}"#).unwrap();
        assert_eq!(
            (people.records, people.total, people.company_spans),
            (3, None, None)
        );
        assert!(skim(b"{\"companies\":[]}").unwrap().company_spans.is_none());
        assert!(skim(b"not json").is_none());
        assert!(skim(br#"{"companies":{"a":1}}"#).is_none());
    }
}
