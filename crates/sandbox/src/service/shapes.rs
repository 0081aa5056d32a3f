//! The shapes of request bodies as openapi.json declares them (NOTES.md: the sandbox follows
//! SPEC.md first, then openapi.json), checked on the raw JSON before the typed decoding of
//! [`super::validation`], the way the service's pydantic-v2 models read a body. serde's derived
//! structs are more lenient than pydantic in three ways, and this pass closes them for every
//! request type at once, driven by the schema rather than by each Rust type:
//!
//! - **Objects must be JSON objects.** serde reads a struct from an array (`[["stripe.com"]]`
//!   as `companiesFilters`); here any value whose schema is an object (a `$ref` to a model,
//!   `type: object`) and that is not a JSON object is refused with pydantic's
//!   `model_attributes_type`, "Input should be a valid dictionary or object to extract fields
//!   from", followed by what the member must be (`` `industries` must be an object
//!   {industries, mode}``, SPEC.md §9: the v3 industries filter was an array once).
//! - **Scalars as pydantic's lax mode reads them** (issue 18), rewritten before decoding: a
//!   number with no fractional part, a string of an integer (`"10"`) or a boolean is an
//!   integer; `10.5` is `int_from_float`, `"ten"` `int_parsing`; an integer beyond 64 bits (a
//!   Python int has no bound) is kept at the nearest 64-bit value, so a bound says what it is.
//!   A string of a number (`"0.5"`) is a number (`float_parsing` otherwise). `"true"`, `"yes"`,
//!   `"on"`, `"1"`, `1` and their opposites are booleans (`bool_parsing` otherwise).
//! - **`null` only where the schema allows it** (`nullable: true`, or an `anyOf` branch
//!   `{"type": "null"}`); elsewhere it gets the error pydantic gives for `None` in that type:
//!   `string_type`, `int_type`, `float_type`, `bool_type`, `list_type`, `enum`,
//!   `model_attributes_type`.
//!
//! Members the schema does not describe (the sandbox accepts a few more, e.g. the reveal
//! options of the v3 people search, NOTES.md) are left to the typed decoding, as are strings
//! of the wrong type, unknown members and bounds ([`Validate`]).
//!
//! The schemas are openapi.json's, embedded from `tests/data/openapi.json` (the copy of
//! `../shared/api/openapi.json` the wire tests check the types against) and parsed once.
//!
//! [`Validate`]: prospect_api::types::common::Validate

use std::sync::OnceLock;

use serde_json::{Map, Value, json};

use prospect_api::types::common::{LocSegment, ValidationError};
use prospect_api::types::filters_v2::wire_checks;

/// openapi.json, as embedded.
static OPENAPI: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/openapi.json"
));

/// pydantic's text for a value that should be a model.
pub const DICT_TEXT: &str = "Input should be a valid dictionary or object to extract fields from";

/// Most problems one walk reports.
const MAX_PROBLEMS: usize = 20;

/// Deepest schema nesting followed (the request schemas nest about six deep).
const MAX_DEPTH: usize = 32;

/// Most member names a `model_attributes_type` message lists.
const MAX_NAMED_MEMBERS: usize = 6;

/// A string pydantic's lax mode reads as an integer: optional whitespace around an optional
/// sign and ASCII digits (underscores between digits allowed, as in Python), optionally
/// followed by a point and zeros (`"10.0"` is 10; `"10."`, `"10.5"` and `"1e1"` are not);
/// beyond 64 bits it is kept at the nearest 64-bit value (see [`Walker::integer`]). `None` for
/// anything else.
pub(crate) fn lax_integer(text: &str) -> Option<i64> {
    let t = text.trim();
    let t = match t.split_once('.') {
        Some((whole, zeros)) if !zeros.is_empty() && zeros.bytes().all(|b| b == b'0') => whole,
        Some(_) => return None,
        None => t,
    };
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let well_formed = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit() || b == b'_')
        && !digits.starts_with('_')
        && !digits.ends_with('_')
        && !digits.contains("__");
    if !well_formed {
        return None;
    }
    let plain: String = digits.chars().filter(|c| *c != '_').collect();
    match plain.parse::<i64>() {
        Ok(i) => Some(if negative { -i } else { i }),
        Err(_) => Some(if negative { i64::MIN } else { i64::MAX }),
    }
}

/// The text of the embedded openapi.json.
pub(crate) fn openapi_text() -> &'static str {
    OPENAPI
}

/// The parsed openapi.json ([`doc`]).
pub(crate) fn openapi_doc() -> &'static Value {
    doc()
}

/// The parsed openapi.json (`Value::Null` if it did not parse: then nothing is checked here).
fn doc() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| {
        serde_json::from_str(OPENAPI).unwrap_or_else(|e| {
            tracing::error!(error = %e, "the embedded openapi.json does not parse");
            Value::Null
        })
    })
}

/// The request body schema of `POST path` (openapi `requestBody.content.application/json`),
/// if the path has one.
pub fn request_schema(path: &str) -> Option<&'static Value> {
    doc()
        .get("paths")?
        .get(path)?
        .get("post")?
        .get("requestBody")?
        .get("content")?
        .get("application/json")?
        .get("schema")
}

/// Checks `body` against `schema` (see the module docs) and rewrites whole numbers given for
/// integers as integers. Returns the problems found (members in name order), at most 20; an empty
/// list means the typed decoding can go ahead.
///
/// `long_integers` are the values of the integer literals of the body's text that do not fit
/// in 64 bits ([`long_integer_literals`]): JSON parsing made them floats, but pydantic reads
/// them as (Python) integers, where a float that large is `int_parsing_size`.
pub fn check(schema: &Value, body: &mut Value, long_integers: &[f64]) -> Vec<ValidationError> {
    let mut w = Walker {
        doc: doc(),
        long_integers,
        out: Vec::new(),
    };
    let mut loc = vec![LocSegment::Key("body".into())];
    w.walk(schema, body, &mut loc, 0);
    w.out
}

/// What a schema describes, as far as this pass is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Object,
    Array,
    Integer,
    Number,
    String,
    Enum,
    Boolean,
    Other,
}

fn kind(s: &Value) -> Kind {
    match s.get("type").and_then(Value::as_str) {
        Some("object") => Kind::Object,
        Some("array") => Kind::Array,
        Some("integer") => Kind::Integer,
        Some("number") => Kind::Number,
        Some("string") if s.get("enum").is_some() => Kind::Enum,
        Some("string") => Kind::String,
        Some("boolean") => Kind::Boolean,
        None if s.get("properties").is_some() => Kind::Object,
        _ => Kind::Other,
    }
}

/// `true` for a schema that admits `null` by itself (`{"type": "null"}`, `nullable: true`).
fn admits_null(s: &Value) -> bool {
    s.get("nullable") == Some(&Value::Bool(true))
        || s.get("type").and_then(Value::as_str) == Some("null")
        || s.get("anyOf")
            .and_then(Value::as_array)
            .is_some_and(|b| b.iter().any(admits_null))
}

struct Walker<'a> {
    doc: &'a Value,
    /// Integer literals of the body beyond 64 bits, as parsed (floats).
    long_integers: &'a [f64],
    out: Vec<ValidationError>,
}

/// The values of the integer literals (no point, no exponent) in the JSON text `body` that do
/// not fit in 64 bits, as `serde_json` parses them (floats). Strings are skipped.
pub fn long_integer_literals(body: &[u8]) -> Vec<f64> {
    let mut out = Vec::new();
    let (mut i, mut in_string) = (0, false);
    while i < body.len() {
        let b = body[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if b == b'"' {
            in_string = true;
            i += 1;
            continue;
        }
        if b == b'-' || b.is_ascii_digit() {
            let start = i;
            while i < body.len()
                && matches!(body[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
            {
                i += 1;
            }
            let token = std::str::from_utf8(&body[start..i]).unwrap_or("");
            let integer = !token.contains(['.', 'e', 'E']);
            if integer
                && token.parse::<i64>().is_err()
                && let Ok(f) = token.parse::<f64>()
            {
                out.push(f);
            }
            continue;
        }
        i += 1;
    }
    out
}

impl<'a> Walker<'a> {
    /// Follows `$ref`s and one-member `allOf`s: the schema reached, and whether any level on
    /// the way admits `null`.
    fn resolve(&self, mut s: &'a Value) -> (&'a Value, bool) {
        let mut nullable = false;
        for _ in 0..MAX_DEPTH {
            nullable |= admits_null(s);
            if let Some(r) = s.get("$ref").and_then(Value::as_str) {
                match r
                    .strip_prefix("#/")
                    .and_then(|p| p.split('/').try_fold(self.doc, |v, k| v.get(k)))
                {
                    Some(t) => {
                        s = t;
                        continue;
                    }
                    None => break,
                }
            }
            match s.get("allOf").and_then(Value::as_array).map(Vec::as_slice) {
                Some([one]) => s = one,
                _ => break,
            }
        }
        (s, nullable)
    }

    fn push(
        &mut self,
        loc: &[LocSegment],
        kind: &str,
        msg: String,
        input: Value,
        ctx: Option<Value>,
    ) {
        if self.out.len() < MAX_PROBLEMS {
            self.out.push(ValidationError {
                loc: loc.to_vec(),
                msg,
                kind: kind.to_string(),
                input: Some(input),
                ctx,
            });
        }
    }

    fn walk(&mut self, schema: &'a Value, v: &mut Value, loc: &mut Vec<LocSegment>, depth: usize) {
        if depth > MAX_DEPTH || self.out.len() >= MAX_PROBLEMS {
            return;
        }
        let (s, nullable) = self.resolve(schema);
        if v.is_null() {
            if !nullable {
                self.refuse_null(s, loc);
            }
            return;
        }
        if let Some(branches) = s.get("anyOf").and_then(Value::as_array) {
            // The first branch that takes the value as it is (with its integers rewritten);
            // when none does, the typed decoding says what is wrong.
            let not_null = |b: &&Value| b.get("type").and_then(Value::as_str) != Some("null");
            for b in branches.iter().filter(not_null) {
                let mut trial = Walker {
                    doc: self.doc,
                    long_integers: self.long_integers,
                    out: Vec::new(),
                };
                let mut copy = v.clone();
                trial.walk(b, &mut copy, loc, depth + 1);
                if trial.out.is_empty() {
                    *v = copy;
                    return;
                }
            }
            return;
        }
        match kind(s) {
            Kind::Object => {
                let Value::Object(members) = v else {
                    let input = v.clone();
                    self.push(
                        loc,
                        "model_attributes_type",
                        model_text(s, loc),
                        input,
                        None,
                    );
                    return;
                };
                let props = s.get("properties").and_then(Value::as_object);
                let extra = s.get("additionalProperties").filter(|a| a.is_object());
                for (k, child) in members.iter_mut() {
                    let Some(sub) = props.and_then(|p| p.get(k)).or(extra) else {
                        continue;
                    };
                    loc.push(LocSegment::Key(k.clone()));
                    self.walk(sub, child, loc, depth + 1);
                    loc.pop();
                }
            }
            Kind::Array => {
                if let (Value::Array(items), Some(sub)) = (v, s.get("items")) {
                    for (i, x) in items.iter_mut().enumerate() {
                        loc.push(LocSegment::Index(i as u64));
                        self.walk(sub, x, loc, depth + 1);
                        loc.pop();
                        if self.out.len() >= MAX_PROBLEMS {
                            break;
                        }
                    }
                }
            }
            Kind::Integer => self.integer(v, loc),
            Kind::Number => self.number(v, loc),
            Kind::Boolean => self.boolean(v, loc),
            Kind::Enum if !v.is_string() => {
                let input = v.clone();
                self.refuse(s, loc, input);
            }
            _ => {}
        }
    }

    /// An integer as pydantic's lax mode reads one: a whole number (`10.0`, `1e2`), a string of
    /// one (`"10"`, `" -3 "`) or a boolean (`true` is 1) becomes that integer; a fractional
    /// number is `int_from_float`, another string `int_parsing`. An integer beyond 64 bits (a
    /// Python int has no bound) is kept at the nearest 64-bit value, so a bounded member says
    /// what its bound is (`less_than_equal`) and an unbounded one takes it, as the service does.
    /// Other types are left to the typed decoding.
    fn integer(&mut self, v: &mut Value, loc: &[LocSegment]) {
        let input = v.clone();
        match &*v {
            Value::Number(n) if n.is_i64() => {}
            Value::Number(n) => {
                let (f, literal) = match n.as_u64() {
                    Some(_) => (f64::INFINITY, true), // above i64::MAX
                    None => {
                        let f = n.as_f64().unwrap_or(f64::NAN);
                        (f, self.long_integers.contains(&f))
                    }
                };
                // 2^63: a float at or past it does not fit a 64-bit integer.
                let beyond = f.abs() >= 9_223_372_036_854_775_808.0;
                if f.is_finite() && f.fract() != 0.0 {
                    self.push(
                        loc,
                        "int_from_float",
                        "Input should be a valid integer, got a number with a fractional part"
                            .into(),
                        input,
                        None,
                    );
                } else if f.is_nan() {
                    self.push(
                        loc,
                        "int_type",
                        "Input should be a valid integer".into(),
                        input,
                        None,
                    );
                } else if beyond && !literal {
                    self.push(
                        loc,
                        "int_parsing_size",
                        "Unable to parse input string as an integer, exceeded maximum size".into(),
                        input,
                        None,
                    );
                } else {
                    // `as` saturates: beyond 64 bits is the nearest 64-bit value.
                    *v = Value::from(f as i64);
                }
            }
            Value::String(t) => match lax_integer(t) {
                Some(i) => *v = Value::from(i),
                None => self.push(
                    loc,
                    "int_parsing",
                    "Input should be a valid integer, unable to parse string as an integer".into(),
                    input,
                    None,
                ),
            },
            Value::Bool(b) => *v = Value::from(i64::from(*b)),
            _ => {}
        }
    }

    /// A number as pydantic's lax mode reads one: a string of one (`"0.5"`) or a boolean
    /// becomes that number; another string is `float_parsing`. Other types are left to the
    /// typed decoding.
    fn number(&mut self, v: &mut Value, loc: &[LocSegment]) {
        let input = v.clone();
        match &*v {
            Value::String(t) => match t.trim().parse::<f64>().ok().filter(|f| f.is_finite()) {
                Some(f) => *v = json!(f),
                None => self.push(
                    loc,
                    "float_parsing",
                    "Input should be a valid number, unable to parse string as a number".into(),
                    input,
                    None,
                ),
            },
            Value::Bool(b) => *v = json!(if *b { 1.0 } else { 0.0 }),
            _ => {}
        }
    }

    /// A boolean as pydantic's lax mode reads one: the strings `true`/`false`, `yes`/`no`,
    /// `on`/`off`, `t`/`f`, `y`/`n`, `1`/`0` (any case) and the numbers 1 and 0 become that
    /// boolean; any other string or number is `bool_parsing`. Other types are left to the typed
    /// decoding.
    fn boolean(&mut self, v: &mut Value, loc: &[LocSegment]) {
        let input = v.clone();
        let read = match &*v {
            Value::String(t) => match t.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" | "t" | "y" | "1" => Some(true),
                "false" | "no" | "off" | "f" | "n" | "0" => Some(false),
                _ => None,
            },
            Value::Number(n) => match n.as_f64() {
                Some(1.0) => Some(true),
                Some(0.0) => Some(false),
                _ => None,
            },
            _ => return,
        };
        match read {
            Some(b) => *v = Value::Bool(b),
            None => self.push(
                loc,
                "bool_parsing",
                "Input should be a valid boolean, unable to interpret input".into(),
                input,
                None,
            ),
        }
    }

    /// The problem of a `null` where `s` does not admit it: what pydantic says for `None`.
    fn refuse_null(&mut self, s: &Value, loc: &[LocSegment]) {
        self.refuse(s, loc, Value::Null)
    }

    /// The problem of `input`, not of `s`'s type: what pydantic says (for an enum member given
    /// a number, `enum`, as for any value it does not list).
    fn refuse(&mut self, s: &Value, loc: &[LocSegment], input: Value) {
        let (kind, msg, ctx) = match kind(s) {
            Kind::Object => ("model_attributes_type", model_text(s, loc), None),
            Kind::Array => ("list_type", "Input should be a valid list".into(), None),
            Kind::Integer => ("int_type", "Input should be a valid integer".into(), None),
            Kind::Number => ("float_type", "Input should be a valid number".into(), None),
            Kind::Boolean => ("bool_type", "Input should be a valid boolean".into(), None),
            Kind::String => ("string_type", "Input should be a valid string".into(), None),
            Kind::Enum => {
                let values: Vec<&str> = s
                    .get("enum")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let expected = wire_checks::expected(&values);
                (
                    "enum",
                    format!("Input should be {expected}"),
                    Some(json!({ "expected": expected })),
                )
            }
            Kind::Other => return,
        };
        self.push(loc, kind, msg, input, ctx);
    }
}

/// pydantic's `model_attributes_type` text followed by what the member at `loc` must be:
/// `` …: `industries` must be an object {industries, mode}`` (required members first, at
/// most six named).
fn model_text(s: &Value, loc: &[LocSegment]) -> String {
    let empty = Map::new();
    let props = s
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let required: Vec<&str> = s
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut names: Vec<&str> = required.clone();
    names.extend(
        props
            .keys()
            .map(String::as_str)
            .filter(|k| !required.contains(k)),
    );
    let more = names.len() > MAX_NAMED_MEMBERS;
    names.truncate(MAX_NAMED_MEMBERS);
    let mut members = names.join(", ");
    if more {
        members.push_str(", …");
    }
    let what = match loc.iter().rev().find_map(|s| match s {
        LocSegment::Key(k) if loc.len() > 1 => Some(k.as_str()),
        _ => None,
    }) {
        Some(k) if !matches!(loc.last(), Some(LocSegment::Index(_))) => format!("`{k}`"),
        Some(k) => format!("each item of `{k}`"),
        None => "the body".to_string(),
    };
    format!("{DICT_TEXT}: {what} must be an object {{{members}}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(path: &str, body: &str) -> (Vec<(String, String)>, Value) {
        let mut v: Value = serde_json::from_str(body).unwrap();
        let errs = check(
            request_schema(path).expect("a schema"),
            &mut v,
            &long_integer_literals(body.as_bytes()),
        );
        (errs.iter().map(|e| (e.kind.clone(), e.path())).collect(), v)
    }

    #[test]
    fn objects_integers_and_nulls() {
        let (e, _) = run(
            "/v3/search/companies",
            r#"{"companiesFilters": [["x.com"]]}"#,
        );
        assert_eq!(
            e,
            vec![(
                "model_attributes_type".into(),
                "body.companiesFilters".into()
            )]
        );
        let (e, v) = run(
            "/v2/search/companies",
            r#"{"size": 1e1, "companiesFilters": {"yearFounded": {"from": 1990.0}}}"#,
        );
        assert!(e.is_empty(), "{e:?}");
        assert!(v["size"].is_i64() && v["companiesFilters"]["yearFounded"]["from"].is_i64());
        // An integer literal beyond 64 bits is kept at the largest (its bound, checked later,
        // says what is wrong); the float 1e300 does not fit an integer (pydantic:
        // `int_parsing_size`); 2.5 is not a whole number.
        let (e, v) = run(
            "/v2/search/companies",
            r#"{"size": 2.5, "from": 100000000000000000000000}"#,
        );
        assert_eq!(e, vec![("int_from_float".into(), "body.size".into())]);
        assert_eq!(v["from"], i64::MAX);
        let (e, _) = run("/v2/search/companies", r#"{"size": 2.5, "from": 1e300}"#);
        assert_eq!(
            e,
            vec![
                ("int_parsing_size".into(), "body.from".into()),
                ("int_from_float".into(), "body.size".into())
            ]
        );
        let (e, _) = run(
            "/v2/search/companies",
            r#"{"searchAfter": null, "companiesFilters": null, "size": null}"#,
        );
        assert_eq!(e, vec![("int_type".into(), "body.size".into())]);
        let (e, _) = run("/v2/enrich/person", r#"{"person": null}"#);
        assert_eq!(
            e,
            vec![("model_attributes_type".into(), "body.person".into())]
        );
    }

    #[test]
    fn messages_say_what_is_expected() {
        let mut v: Value =
            serde_json::from_str(r#"{"companiesFilters": {"industries": ["Biotechnology"]}}"#)
                .unwrap();
        let e = check(request_schema("/v3/search/companies").unwrap(), &mut v, &[]);
        assert_eq!(e.len(), 1);
        assert_eq!(
            e[0].msg,
            format!("{DICT_TEXT}: `industries` must be an object {{industries, mode}}")
        );
        let mut v: Value = serde_json::from_str(r#"{"person": null}"#).unwrap();
        let e = check(request_schema("/v2/enrich/person").unwrap(), &mut v, &[]);
        assert!(
            e[0].msg.contains("`person` must be an object {"),
            "{}",
            e[0].msg
        );
        let mut v: Value =
            serde_json::from_str(r#"{"companiesFilters": {"cities": [["Berlin"]]}}"#).unwrap();
        let e = check(request_schema("/v2/search/companies").unwrap(), &mut v, &[]);
        assert!(
            e[0].msg.ends_with(
                "each item of `cities` must be an object {city, country, postalCode, region}"
            ),
            "{}",
            e[0].msg
        );
    }

    #[test]
    fn every_endpoint_of_the_spec_has_its_schema() {
        for p in [
            "/v2/autocomplete/companies",
            "/v2/search/companies",
            "/v3/search/people/preview",
            "/v2/enrich/person",
            "/v2/lookup/people",
            "/v2/reveal/phones",
            "/v2/warmup/companies",
        ] {
            assert!(request_schema(p).is_some(), "{p}");
        }
        assert!(request_schema("/v2/data-fields").is_none());
    }
}
