//! What reads of an answer that is not JSON whole (issue 34, "keep what reads"): a body cut off
//! by a dropped connection, or garbled part way. The answer is read as a stream of items: every
//! member of the top-level object that is complete, and of each list every element that is
//! complete and reads as JSON, up to the first that is not. What follows that point is left
//! out, and the place is named, so the engine keeps every record before the cut and buys only
//! the rest again.

use serde_json::{Map, Value};

/// An answer read up to where it stopped reading ([`salvage`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Salvaged {
    /// The top-level object with every complete member, its lists cut at the first element
    /// that is not whole.
    pub value: Value,
    /// The byte offset where the answer stopped reading (its length when only a closing
    /// bracket was missing).
    pub stopped_at: usize,
    /// The dotted path of the member or list element that did not read (`companies[497]`).
    pub at_path: String,
    /// Complete list elements kept, over every list.
    pub kept_items: usize,
}

/// Reads what is complete of `raw`, a JSON object that does not parse whole (see the module
/// docs). `None` when not even the object's start reads (not JSON, or not an object).
pub fn salvage(raw: &[u8]) -> Option<Salvaged> {
    let mut r = Reader {
        b: raw,
        i: 0,
        items: 0,
    };
    r.ws();
    if r.peek()? != b'{' {
        return None;
    }
    let mut path = String::new();
    let (value, stop) = r.object(&mut path, 0);
    let stopped_at = stop.unwrap_or(r.i);
    Some(Salvaged {
        value,
        stopped_at,
        at_path: if path.is_empty() { ".".into() } else { path },
        kept_items: r.items,
    })
}

/// Deepest nesting salvaged member by member; deeper values are taken whole or not at all.
const MAX_DEPTH: usize = 2;

struct Reader<'a> {
    b: &'a [u8],
    i: usize,
    items: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// The end (exclusive) of the string starting at `self.i` (a `"`), or `None` when cut.
    fn string_end(&self, from: usize) -> Option<usize> {
        let mut j = from + 1;
        while j < self.b.len() {
            match self.b[j] {
                b'\\' => j += 2,
                b'"' => return Some(j + 1),
                _ => j += 1,
            }
        }
        None
    }

    /// The end (exclusive) of the JSON value starting at `self.i`, by its brackets and strings
    /// (not checked further); `None` when the bytes end first.
    fn value_end(&self) -> Option<usize> {
        let start = self.i;
        match self.b.get(start)? {
            b'"' => self.string_end(start),
            b'{' | b'[' => {
                let mut depth = 0usize;
                let mut j = start;
                while j < self.b.len() {
                    match self.b[j] {
                        b'"' => {
                            j = self.string_end(j)?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return Some(j + 1);
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                None
            }
            _ => {
                let mut j = start;
                while j < self.b.len()
                    && !matches!(self.b[j], b',' | b']' | b'}' | b' ' | b'\n' | b'\r' | b'\t')
                {
                    j += 1;
                }
                // A scalar running to the end of the bytes may have been cut.
                (j < self.b.len()).then_some(j)
            }
        }
    }

    /// One value taken whole at `self.i`; `None` (position unchanged) when it is cut or does
    /// not read.
    fn whole(&mut self) -> Option<Value> {
        let end = self.value_end()?;
        let v = serde_json::from_slice(&self.b[self.i..end]).ok()?;
        self.i = end;
        Some(v)
    }

    /// A value at `self.i`: objects and lists up to [`MAX_DEPTH`] read member by member.
    /// Returns the value and, when it stopped reading, where; `path` is then where.
    fn value(&mut self, path: &mut String, depth: usize) -> (Option<Value>, Option<usize>) {
        match self.peek() {
            Some(b'{') if depth < MAX_DEPTH => {
                let (v, stop) = self.object(path, depth);
                (Some(v), stop)
            }
            Some(b'[') if depth < MAX_DEPTH => {
                let (v, stop) = self.array(path);
                (Some(v), stop)
            }
            _ => match self.whole() {
                Some(v) => (Some(v), None),
                None => (None, Some(self.i)),
            },
        }
    }

    fn object(&mut self, path: &mut String, depth: usize) -> (Value, Option<usize>) {
        let mut m = Map::new();
        self.i += 1; // '{'
        loop {
            self.ws();
            match self.peek() {
                Some(b'}') => {
                    self.i += 1;
                    return (Value::Object(m), None);
                }
                Some(b',') if !m.is_empty() => {
                    self.i += 1;
                    self.ws();
                }
                Some(_) if m.is_empty() => {}
                _ => return (Value::Object(m), Some(self.i)),
            }
            let Some(end) = (self.peek() == Some(b'"'))
                .then(|| self.string_end(self.i))
                .flatten()
            else {
                return (Value::Object(m), Some(self.i));
            };
            let Ok(key) = serde_json::from_slice::<String>(&self.b[self.i..end]) else {
                return (Value::Object(m), Some(self.i));
            };
            self.i = end;
            self.ws();
            if self.peek() != Some(b':') {
                return (Value::Object(m), Some(self.i));
            }
            self.i += 1;
            self.ws();
            let base = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(&key);
            let (v, stop) = self.value(path, depth + 1);
            if let Some(v) = v {
                m.insert(key, v);
            }
            if stop.is_some() {
                return (Value::Object(m), stop);
            }
            path.truncate(base);
        }
    }

    fn array(&mut self, path: &mut String) -> (Value, Option<usize>) {
        let mut out = Vec::new();
        self.i += 1; // '['
        loop {
            self.ws();
            match self.peek() {
                Some(b']') => {
                    self.i += 1;
                    return (Value::Array(out), None);
                }
                Some(b',') if !out.is_empty() => {
                    self.i += 1;
                    self.ws();
                }
                Some(_) if out.is_empty() => {}
                _ => return (Value::Array(out), Some(self.i)),
            }
            match self.whole() {
                Some(v) => {
                    out.push(v);
                    self.items += 1;
                }
                None => {
                    path.push_str(&format!("[{}]", out.len()));
                    return (Value::Array(out), Some(self.i));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(n: usize) -> Vec<u8> {
        let companies: Vec<Value> = (0..n)
            .map(|i| serde_json::json!({"domain": format!("d{i}.com"), "company": {"name": format!("N \"{i}\" ]}}")}}))
            .collect();
        serde_json::to_vec(&serde_json::json!({"companies": companies, "totalFound": n})).unwrap()
    }

    #[test]
    fn a_cut_answer_keeps_every_whole_record_before_the_cut() {
        let raw = answer(10);
        for cut in 1..raw.len() {
            let Some(s) = salvage(&raw[..cut]) else {
                continue;
            };
            let got = s.value["companies"].as_array().map_or(0, Vec::len);
            // Every element kept is whole and in order.
            for (i, c) in s.value["companies"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
            {
                assert_eq!(c["domain"], format!("d{i}.com"));
            }
            assert_eq!(got, s.kept_items);
            assert!(s.stopped_at <= cut);
        }
        let s = salvage(&raw[..raw.len() / 2]).unwrap();
        assert!(s.kept_items >= 4, "{s:?}");
        assert!(s.at_path.starts_with("companies["), "{}", s.at_path);
    }

    #[test]
    fn garbage_part_way_stops_there() {
        let mut raw = answer(6);
        // The fourth record starts at the fourth `{"company"`.
        let start = raw
            .windows(10)
            .enumerate()
            .filter(|(_, w)| *w == b"{\"company\"")
            .nth(3)
            .unwrap()
            .0;
        raw.splice(start..start + 1, b"\x00\xff{".iter().copied());
        let s = salvage(&raw).unwrap();
        assert_eq!(s.kept_items, 3);
        assert_eq!(s.at_path, "companies[3]");
    }

    #[test]
    fn not_an_object_is_nothing() {
        assert!(salvage(b"<html>").is_none());
        assert!(salvage(b"").is_none());
        assert!(salvage(b"[1,2").is_none());
    }
}
