//! Where a filter value sits in a request body (`LocPath`, SPEC.md §2.10's `loc`) and the
//! wire checks every filter struct of v2 and v3 runs with it before sending.

use super::*;

/// `true` when a list-filter `mode` is the default `anyOf` (then it is not serialized).
pub(crate) fn is_any_of(m: &FilterMode) -> bool {
    *m == FilterMode::AnyOf
}

// ---------------------------------------------------------------------------------------------
// Validation helpers
// ---------------------------------------------------------------------------------------------

/// One segment of a [`LocPath`]: a member name (a schema's, or a caller's id in a dictionary
/// such as `companyDataMapping`) or an array index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocPathSeg<'a> {
    /// A member name, e.g. `"companiesFilters"`.
    Key(&'a str),
    /// An array index.
    Index(usize),
}

/// A validation location built on the stack while walking a request (a linked list of
/// segments, no allocation); turned into a `Vec<LocSegment>` only when an error is reported.
///
/// Start with [`LocPath::body`], descend with [`LocPath::key`] / [`LocPath::index`].
#[derive(Debug, Clone, Copy)]
pub struct LocPath<'a> {
    parent: Option<&'a LocPath<'a>>,
    seg: LocPathSeg<'a>,
}

impl LocPath<'static> {
    /// The root location `["body"]` of every request error.
    pub const fn body() -> LocPath<'static> {
        LocPath {
            parent: None,
            seg: LocPathSeg::Key("body"),
        }
    }
}

impl<'a> LocPath<'a> {
    /// The location of member `k` below this one.
    pub fn key(&'a self, k: &'a str) -> LocPath<'a> {
        LocPath {
            parent: Some(self),
            seg: LocPathSeg::Key(k),
        }
    }

    /// The location of array item `i` below this one.
    pub fn index(&'a self, i: usize) -> LocPath<'a> {
        LocPath {
            parent: Some(self),
            seg: LocPathSeg::Index(i),
        }
    }

    /// The segments from the root, e.g. `["body", "companiesFilters", "revenues", 0]`.
    pub fn to_vec(&self) -> Vec<LocSegment> {
        let mut depth = 1;
        let mut cur = self;
        while let Some(p) = cur.parent {
            depth += 1;
            cur = p;
        }
        let mut out = Vec::with_capacity(depth);
        let mut cur = Some(self);
        while let Some(l) = cur {
            out.push(match l.seg {
                LocPathSeg::Key(k) => LocSegment::Key(k.to_string()),
                LocPathSeg::Index(i) => LocSegment::Index(i as u64),
            });
            cur = l.parent;
        }
        out.reverse();
        out
    }
}

/// Checks with pydantic-v2 texts (the real service is FastAPI): each pushes one
/// [`ValidationError`] to `out` when the value is out of bounds, and allocates nothing otherwise.
pub mod wire_checks {
    use super::*;
    use serde_json::{Value, json};

    fn err(
        at: &LocPath<'_>,
        msg: String,
        kind: &str,
        input: Option<Value>,
        ctx: Option<Value>,
    ) -> ValidationError {
        ValidationError {
            loc: at.to_vec(),
            msg,
            kind: kind.to_string(),
            input,
            ctx,
        }
    }

    fn num(v: f64) -> Value {
        if v.fract() == 0.0 && v.abs() < 1e15 {
            json!(v as i64)
        } else {
            json!(v)
        }
    }

    /// `v >= min` (type `greater_than_equal`).
    pub fn ge(v: f64, min: f64, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        if v.is_nan() || v < min {
            let n = num(min);
            out.push(err(
                at,
                format!("Input should be greater than or equal to {n}"),
                "greater_than_equal",
                Some(num(v)),
                Some(json!({ "ge": n })),
            ));
        }
    }

    /// `v > min` (type `greater_than`; openapi `exclusiveMinimum`).
    pub fn gt(v: f64, min: f64, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        if v.is_nan() || v <= min {
            let n = num(min);
            out.push(err(
                at,
                format!("Input should be greater than {n}"),
                "greater_than",
                Some(num(v)),
                Some(json!({ "gt": n })),
            ));
        }
    }

    /// `v <= max` (type `less_than_equal`).
    pub fn le(v: f64, max: f64, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        if v.is_nan() || v > max {
            let n = num(max);
            out.push(err(
                at,
                format!("Input should be less than or equal to {n}"),
                "less_than_equal",
                Some(num(v)),
                Some(json!({ "le": n })),
            ));
        }
    }

    /// `min <= v <= max` (one error at most: the bound that is violated).
    pub fn range(v: f64, min: f64, max: f64, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        if v < min || v.is_nan() {
            ge(v, min, at, out)
        } else if v > max {
            le(v, max, at, out)
        }
    }

    fn items(n: usize) -> &'static str {
        if n == 1 { "item" } else { "items" }
    }

    /// A list has at least `min` items (type `too_short`; openapi `minItems`).
    pub fn min_items(len: usize, min: usize, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        if len < min {
            out.push(length_error("List", len, min, true, at));
        }
    }

    /// A list has at most `max` items (type `too_long`; openapi `maxItems`).
    pub fn max_items(len: usize, max: usize, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        if len > max {
            out.push(length_error("List", len, max, false, at));
        }
    }

    /// An object (a dictionary of ids) has at least `min` members (type `too_short`; openapi
    /// `minProperties`).
    pub fn min_entries(len: usize, min: usize, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        if len < min {
            out.push(length_error("Dictionary", len, min, true, at));
        }
    }

    /// An object (a dictionary of ids) has at most `max` members (type `too_long`; openapi
    /// `maxProperties`).
    pub fn max_entries(len: usize, max: usize, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        if len > max {
            out.push(length_error("Dictionary", len, max, false, at));
        }
    }

    /// pydantic's `too_short` (`at_least`) or `too_long` of a `kind` ("List", "Dictionary") of
    /// `len` items against `bound`.
    fn length_error(
        kind: &str,
        len: usize,
        bound: usize,
        at_least: bool,
        at: &LocPath<'_>,
    ) -> ValidationError {
        let (which, code, key) = if at_least {
            ("least", "too_short", "min_length")
        } else {
            ("most", "too_long", "max_length")
        };
        err(
            at,
            format!(
                "{kind} should have at {which} {bound} {} after validation, not {len}",
                items(bound)
            ),
            code,
            None,
            Some(json!({ "field_type": kind, key: bound, "actual_length": len })),
        )
    }

    /// A string has at least `min` characters (type `string_too_short`; openapi `minLength`).
    pub fn min_len(s: &str, min: usize, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        if s.chars().count() < min {
            let unit = if min == 1 { "character" } else { "characters" };
            out.push(err(
                at,
                format!("String should have at least {min} {unit}"),
                "string_too_short",
                Some(json!(s)),
                Some(json!({ "min_length": min })),
            ));
        }
    }

    /// A webhook target (`webhookUrl`, SPEC.md §4.6–§4.7, §2.6) is what pydantic's `HttpUrl`
    /// takes: an absolute `http` or `https` URL with a host. Otherwise `url_parsing` ("Input
    /// should be a valid URL, <why>": "input is empty", "relative URL without a base", "empty
    /// host", …) or `url_scheme` ("URL scheme should be 'http' or 'https'"), the same for every
    /// endpoint that takes one (issue 38).
    pub fn webhook_url(s: &str, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        let why = match reqwest::Url::parse(s) {
            _ if s.is_empty() => "input is empty".to_string(),
            Ok(u) if !matches!(u.scheme(), "http" | "https") => {
                out.push(err(
                    at,
                    "URL scheme should be 'http' or 'https'".into(),
                    "url_scheme",
                    Some(json!(s)),
                    Some(json!({ "expected_schemes": "'http' or 'https'" })),
                ));
                return;
            }
            Ok(u) if u.host_str().is_some_and(|h| !h.is_empty()) => return,
            Ok(_) => "empty host".to_string(),
            Err(e) => e.to_string(),
        };
        out.push(err(
            at,
            format!("Input should be a valid URL, {why}"),
            "url_parsing",
            Some(json!(s)),
            Some(json!({ "error": why })),
        ));
    }

    /// A string has at most `max` characters (type `string_too_long`; openapi `maxLength`).
    pub fn max_len(s: &str, max: usize, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        if s.chars().count() > max {
            let unit = if max == 1 { "character" } else { "characters" };
            out.push(err(
                at,
                format!("String should have at most {max} {unit}"),
                "string_too_long",
                Some(json!(s)),
                Some(json!({ "max_length": max })),
            ));
        }
    }

    /// pydantic's rendering of the expected values: `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`.
    pub fn expected(values: &[&str]) -> String {
        let mut s = String::new();
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                s.push_str(if i + 1 == values.len() { " or " } else { ", " });
            }
            s.push('\'');
            s.push_str(v);
            s.push('\'');
        }
        s
    }

    /// The value is one of `allowed` (type `enum`, msg `Input should be 'a', 'b' or 'c'`).
    pub fn one_of<E: WireEnum>(
        v: &E,
        allowed: &[&str],
        at: &LocPath<'_>,
        out: &mut Vec<ValidationError>,
    ) {
        let s = v.as_str();
        if !allowed.contains(&s) {
            let exp = expected(allowed);
            out.push(err(
                at,
                format!("Input should be {exp}"),
                "enum",
                Some(json!(s)),
                Some(json!({ "expected": exp })),
            ));
        }
    }

    /// The value is a known member of its closed set (`WireEnum::is_known`), else type `enum`.
    pub fn known<E: WireEnum>(v: &E, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        if !v.is_known() {
            one_of(v, E::ALL_STR, at, out)
        }
    }

    /// Every item of an optional list is known; locations carry the item index.
    pub fn all_known<E: WireEnum>(
        list: &Option<Vec<E>>,
        at: &LocPath<'_>,
        out: &mut Vec<ValidationError>,
    ) {
        if let Some(list) = list {
            for (i, v) in list.iter().enumerate() {
                if !v.is_known() {
                    known(v, &at.index(i), out);
                }
            }
        }
    }

    /// Every item of an optional list is one of `allowed` (a subset of its closed set).
    pub fn all_one_of<E: WireEnum>(
        list: &Option<Vec<E>>,
        allowed: &[&str],
        at: &LocPath<'_>,
        out: &mut Vec<ValidationError>,
    ) {
        if let Some(list) = list {
            for (i, v) in list.iter().enumerate() {
                one_of(v, allowed, &at.index(i), out);
            }
        }
    }

    /// A cross-field rule (type `value_error`, msg `Value error, <text>`).
    pub fn value_error(text: &str, at: &LocPath<'_>, out: &mut Vec<ValidationError>) {
        out.push(err(
            at,
            format!("Value error, {text}"),
            "value_error",
            None,
            Some(json!({ "error": text })),
        ));
    }
}
