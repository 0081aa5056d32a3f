//! Writing untrusted values as sanitized JSON text in one pass: a `serde_json` formatter that
//! passes every string (and object key) through [`sanitize`] as it is written. The text is the
//! same as `sanitize_value` on a copy followed by `to_string`, without the copy and the extra
//! walks (a 1,000-company lookup answer is about 6 MB of JSON).

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};

use prospect_common::sanitize::sanitize;

/// `v` as compact JSON text with every string and key sanitized ([`sanitize`]).
pub(super) fn clean_json<T: Serialize + ?Sized>(v: &T) -> serde_json::Result<String> {
    let mut out = Vec::with_capacity(256);
    let f = Sanitizing {
        out: &mut out,
        raw: Vec::new(),
        start: 0,
        in_string: false,
        dirty: false,
    };
    // Everything goes to `out` through the formatter; the serializer's own writer gets nothing.
    v.serialize(&mut serde_json::Serializer::with_formatter(io::sink(), f))?;
    // Everything written is UTF-8: strings come from `&str` or `sanitize`, the rest is ASCII.
    String::from_utf8(out).map_err(|e| serde_json::Error::io(io::Error::other(e)))
}

/// `true` when [`sanitize`] would change `s`: it holds a C0 or C1 control character, DEL, or a
/// bidi override or isolate (U+202A..U+202E, U+2066..U+2069). Checked on bytes, without
/// allocating; kept equal to `sanitize(s) != s` by a test over every character.
pub(super) fn needs_sanitizing(s: &str) -> bool {
    let b = s.as_bytes();
    (0..b.len()).any(|i| matches!(b[i], 0x00..=0x1f | 0x7f) || c1_or_bidi_at(b, i))
}

/// `true` when a C1 control (U+0080..U+009F) or a bidi override or isolate (U+202A..U+202E,
/// U+2066..U+2069) starts at byte `i` of the UTF-8 text `b`.
fn c1_or_bidi_at(b: &[u8], i: usize) -> bool {
    match b[i] {
        0xc2 => matches!(b.get(i + 1), Some(0x80..=0x9f)),
        0xe2 => matches!(
            (b.get(i + 1), b.get(i + 2)),
            (Some(0x80), Some(0xaa..=0xae)) | (Some(0x81), Some(0xa6..=0xa9))
        ),
        _ => false,
    }
}

/// `true` when the JSON text `json` (valid JSON, e.g. one record of a raw answer) decodes to
/// nothing [`sanitize`] would change: no escape other than `\"`, `\\` and `\/` (an escape
/// may encode a control character), and no control character, DEL, C1 or bidi character except
/// the whitespace JSON allows between tokens. Such a text can be stored as it is.
pub fn raw_json_is_clean(json: &str) -> bool {
    json_bytes_clean(json.as_bytes(), true)
}

/// [`raw_json_is_clean`] of JSON text given as bytes, without checking first that they are
/// UTF-8: for text that is decoded afterwards (which checks it), such as a stored answer read
/// back (issue 39: the separate check was a tenth of re-running a search).
pub fn raw_json_bytes_are_clean(json: &[u8]) -> bool {
    json_bytes_clean(json, true)
}

/// The check of [`raw_json_is_clean`] on bytes; `whitespace` allows the newline, carriage
/// return and tab JSON allows between tokens (not inside one string literal).
fn json_bytes_clean(b: &[u8], whitespace: bool) -> bool {
    /// Bytes that start something to look at: a control byte, `\`, DEL, or the lead byte of
    /// a C1 (`c2`) or bidi (`e2`) character.
    fn suspect(c: u8) -> bool {
        c < 0x20 || c == b'\\' || c == 0x7f || c == 0xc2 || c == 0xe2
    }
    let mut i = 0;
    while i < b.len() {
        // Most text has nothing to look at: 32 bytes at a time, without an early exit, so the
        // check vectorizes.
        let end = (i + 32).min(b.len());
        if !b[i..end].iter().fold(false, |a, &c| a | suspect(c)) {
            i = end;
            continue;
        }
        while i < end {
            match b[i] {
                b'\\' => match b.get(i + 1) {
                    Some(b'"' | b'\\' | b'/') => i += 2,
                    _ => return false,
                },
                b'\n' | b'\r' | b'\t' if whitespace => i += 1,
                0x00..=0x1f | 0x7f => return false,
                _ if c1_or_bidi_at(b, i) => return false,
                _ => i += 1,
            }
        }
    }
    true
}

/// The JSON text `json` with every string (and object key) that [`raw_json_is_clean`] would
/// refuse decoded, passed through [`sanitize`] and written again; everything else (the other
/// strings, numbers, punctuation) copied as it is. It decodes to what `sanitize_value` on the
/// parsed text gives, without building a value of it: the stored answers of a search read
/// back at disk speed (issue 39). `None` when a string to sanitize does not decode, or a string
/// does not end (not JSON). A string with nothing to sanitize is copied unchecked: its UTF-8 is
/// checked when the text is decoded.
pub fn sanitized_json_text(json: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(json.len());
    let mut i = 0;
    while i < json.len() {
        // Up to the next string: copied.
        let Some(open) = memchr::memchr(b'"', &json[i..]) else {
            out.extend_from_slice(&json[i..]);
            break;
        };
        out.extend_from_slice(&json[i..i + open]);
        let start = i + open;
        // Its end: the next quote no backslash escapes.
        let mut j = start + 1;
        loop {
            j += memchr::memchr2(b'"', b'\\', json.get(j..)?)?;
            if json[j] == b'"' {
                break;
            }
            j += 2;
        }
        let literal = &json[start..=j];
        // A clean literal is copied unchecked: its UTF-8 is checked when the text is decoded.
        if json_bytes_clean(literal, false) {
            out.extend_from_slice(literal);
        } else {
            let text = std::str::from_utf8(literal).ok()?;
            let decoded: String = serde_json::from_str(text).ok()?;
            serde_json::to_writer(&mut out, &sanitize(&decoded)).ok()?;
        }
        i = j + 1;
    }
    Some(out)
}

/// A compact formatter that writes into `out` (never into the serializer's writer) and
/// sanitizes strings. A string is written as it comes while it is clean; at the first control
/// character, DEL, C1 or bidi character in it, what was written of it is taken back into `raw`
/// (unescaped), the rest is collected there too, and the whole string is written sanitized when
/// it ends. Numbers or booleans written inside a string (map keys of those types) are part of
/// it.
struct Sanitizing<'a> {
    out: &'a mut Vec<u8>,
    /// The content of the current string (escapes decoded), once it is dirty.
    raw: Vec<u8>,
    /// Where the current string's opening quote is in `out`.
    start: usize,
    in_string: bool,
    dirty: bool,
}

impl Sanitizing<'_> {
    /// The current string needs sanitizing: move what was written of it into `raw`.
    fn go_dirty(&mut self) {
        self.raw.clear();
        let mut written = self.out[self.start + 1..].iter();
        // A clean prefix holds no escapes but `\"`, `\\` and `\/`.
        while let Some(&b) = written.next() {
            if b == b'\\' {
                if let Some(&next) = written.next() {
                    self.raw.push(next);
                }
            } else {
                self.raw.push(b);
            }
        }
        self.out.truncate(self.start);
        self.dirty = true;
    }

    /// Where the bytes of a value go: `raw` inside a dirty string, else `out`.
    fn sink(&mut self) -> &mut Vec<u8> {
        if self.in_string && self.dirty {
            &mut self.raw
        } else {
            self.out
        }
    }
}

macro_rules! to_sink {
    ($($method:ident($($arg:ident: $t:ty),*)),* $(,)?) => {
        $(
            fn $method<W: ?Sized + Write>(&mut self, _w: &mut W $(, $arg: $t)*) -> io::Result<()> {
                CompactFormatter.$method(self.sink() $(, $arg)*)
            }
        )*
    };
}

impl Formatter for Sanitizing<'_> {
    to_sink!(
        write_null(),
        write_bool(value: bool),
        write_i8(value: i8),
        write_i16(value: i16),
        write_i32(value: i32),
        write_i64(value: i64),
        write_i128(value: i128),
        write_u8(value: u8),
        write_u16(value: u16),
        write_u32(value: u32),
        write_u64(value: u64),
        write_u128(value: u128),
        write_f32(value: f32),
        write_f64(value: f64),
        write_number_str(value: &str),
        write_raw_fragment(fragment: &str),
        begin_array(),
        end_array(),
        begin_array_value(first: bool),
        end_array_value(),
        begin_object(),
        end_object(),
        begin_object_key(first: bool),
        end_object_key(),
        begin_object_value(),
        end_object_value(),
    );

    fn begin_string<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.in_string = true;
        self.dirty = false;
        self.start = self.out.len();
        self.out.push(b'"');
        Ok(())
    }

    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        _w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        if !self.dirty && needs_sanitizing(fragment) {
            self.go_dirty();
        }
        self.sink().extend_from_slice(fragment.as_bytes());
        Ok(())
    }

    fn write_char_escape<W: ?Sized + Write>(
        &mut self,
        _w: &mut W,
        escape: CharEscape,
    ) -> io::Result<()> {
        let byte = match escape {
            CharEscape::Quote => b'"',
            CharEscape::ReverseSolidus => b'\\',
            CharEscape::Solidus => b'/',
            CharEscape::Backspace => 0x08,
            CharEscape::FormFeed => 0x0c,
            CharEscape::LineFeed => b'\n',
            CharEscape::CarriageReturn => b'\r',
            CharEscape::Tab => b'\t',
            CharEscape::AsciiControl(b) => b,
        };
        if !self.dirty {
            if matches!(byte, b'"' | b'\\' | b'/') {
                self.out.extend_from_slice(&[b'\\', byte]);
                return Ok(());
            }
            self.go_dirty();
        }
        self.raw.push(byte);
        Ok(())
    }

    fn end_string<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.in_string = false;
        if !self.dirty {
            self.out.push(b'"');
            return Ok(());
        }
        self.dirty = false;
        let text = String::from_utf8_lossy(&self.raw);
        // The plain compact serializer writes the quotes and the escapes.
        serde_json::to_writer(&mut *self.out, &sanitize(&text)).map_err(io::Error::other)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::{Value, json};

    use super::*;
    use prospect_api::types::company::Company;

    /// The sanitized text decodes to what `sanitize_value` makes of the parsed text: strings
    /// and keys with escapes, C1 and bidi characters and escape sequences, clean strings
    /// (copied as they are), numbers, nesting and whitespace between tokens.
    #[test]
    fn sanitized_text_decodes_as_the_sanitized_value() {
        let texts = [
            r#"{"companies":[{"name":"Sabra \u0093Health\u0094 \u001b[31mCare\u001b[0m","n":1.5e3}]}"#,
            "{\"a\u{9f}b\": [\"x\u{202e}y\", \"plain \\\"quoted\\\" \\/ ok\", null, true, -0.0],\n \"t\": \"tab\\there\\nline\"}",
            r#"{"description":"caf\u00e9 \ud83d\ude00 in one","empty":"","k\u0000":"v"}"#,
            "[]",
            r#""just a string\u0007""#,
        ];
        for text in texts {
            let mut want: Value = serde_json::from_str(text).unwrap();
            prospect_common::sanitize::sanitize_value(&mut want);
            let got = sanitized_json_text(text.as_bytes()).expect("JSON");
            let got: Value = serde_json::from_slice(&got).expect("still JSON");
            assert_eq!(got, want, "{text}");
        }
        assert_eq!(
            sanitized_json_text(br#"{"a":"open"#),
            None,
            "a string not closed"
        );
        assert_eq!(
            sanitized_json_text(br#"{"a":"\x"}"#),
            None,
            "an escape JSON has not"
        );
    }
    use prospect_common::sanitize::sanitize_value;

    #[test]
    fn raw_json_is_clean_agrees_with_sanitize_at_every_offset() {
        // Each suspect placed at every offset around the 32-byte steps, so an escape or a
        // multi-byte character that straddles a step is still seen.
        let dirty = [
            "\\u001b", "\\n", "\\t", "\u{85}", "\u{202e}", "\u{2067}", "\u{7f}",
        ];
        let clean = ["\\\"", "\\\\", "\\/", "\u{2013}", "\u{a9}", "é"];
        for pad in 0..70 {
            let p = "x".repeat(pad);
            for d in dirty {
                let text = format!("{{\"a\":\"{p}{d}y\"}}");
                assert!(!raw_json_is_clean(&text), "{text:?}");
            }
            for c in clean {
                let text = format!("{{\"a\":\"{p}{c}y\"}}");
                assert!(raw_json_is_clean(&text), "{text:?}");
                let v: Value = serde_json::from_str(&text).unwrap();
                let s = v["a"].as_str().unwrap();
                assert_eq!(sanitize(s), s, "clean text decodes to clean strings");
            }
        }
        assert!(
            raw_json_is_clean("{\n  \"a\": 1\n}"),
            "whitespace between tokens"
        );
    }

    #[test]
    fn needs_sanitizing_agrees_with_sanitize_on_every_char() {
        for c in (0..=0x10ffff_u32).filter_map(char::from_u32) {
            let s = format!("a{c}b");
            assert_eq!(
                needs_sanitizing(&s),
                sanitize(&s) != s,
                "U+{:04X}",
                c as u32
            );
        }
    }

    #[test]
    fn same_text_as_sanitize_value() {
        let v = json!({
            "plain": "Acme GmbH — Zürich 東京 \"q\" \\ /",
            "k\u{1b}[1mey": ["x\u{202e}y", {"n": "\u{9b}2Jz", "nl": "a\n\tb\r\nc"}],
            "osc": "\u{1b}]0;pwned\u{7}title",
            "nums": [1, -2, 3.5, 1e300, null, true, false],
            "": ""
        });
        let mut expected = v.clone();
        sanitize_value(&mut expected);
        assert_eq!(clean_json(&v).unwrap(), expected.to_string());
        let back: Value = serde_json::from_str(&clean_json(&v).unwrap()).unwrap();
        assert_eq!(back, expected);
    }

    #[test]
    fn clean_data_is_written_as_serde_json_writes_it() {
        let mut c = Company {
            domain: "acme.com".into(),
            name: Some("Acme \"Q\" \\ / ünï".into()),
            year_founded: Some(1999),
            keywords: vec!["a".into(), "".into()],
            ..Default::default()
        };
        c.employee_count_service = Some(-3);
        assert_eq!(clean_json(&c).unwrap(), serde_json::to_string(&c).unwrap());
        let v = json!({"a": [1, 2.5, -0.0, null, true, {"b": {}}, []], "c": "d", "e": 18446744073709551615u64});
        assert_eq!(clean_json(&v).unwrap(), v.to_string());
    }

    #[test]
    fn mixed_strings_match_sanitize_value() {
        // Every sequence of three of these pieces, in a string and as a key.
        let pieces = [
            "a",
            " ",
            "\n",
            "\"",
            "\\",
            "\u{1b}[",
            "1m",
            "\u{1b}]0;t\u{7}",
            "\u{9b}",
            "\u{202e}",
            "\u{7f}",
            "é",
            "\t",
            "/",
        ];
        for a in &pieces {
            for b in &pieces {
                for c in &pieces {
                    let s = format!("{a}{b}{c}");
                    let v = json!({ s.clone(): [s.clone(), {"k": s}] });
                    let mut expected = v.clone();
                    sanitize_value(&mut expected);
                    assert_eq!(clean_json(&v).unwrap(), expected.to_string(), "{v}");
                }
            }
        }
    }

    #[test]
    fn non_string_keys_stay_strings() {
        let m: BTreeMap<i64, &str> = [(1, "a\u{1b}[31mb"), (-20, "c")].into();
        assert_eq!(clean_json(&m).unwrap(), r#"{"-20":"c","1":"ab"}"#);
        let b: BTreeMap<bool, u8> = [(true, 1)].into();
        assert_eq!(clean_json(&b).unwrap(), r#"{"true":1}"#);
    }
}
