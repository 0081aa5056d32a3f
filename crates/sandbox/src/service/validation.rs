//! Request bodies → typed requests, or the 422 answer of a FastAPI/pydantic-v2 service
//! (SPEC.md §2.10, §7): `{"detail": [{"type", "loc", "msg", "input", "ctx"?}]}` with `loc`
//! starting at `"body"`.
//!
//! Steps: the content type must be JSON (or absent); the bytes must be JSON (`json_invalid`
//! otherwise); the JSON must deserialize into the strict request type (serde errors are mapped
//! onto pydantic's types: `missing`, `extra_forbidden`, `int_parsing`, `int_type`,
//! `int_from_float`, `float_type`, `string_type`, `bool_type`, `list_type`,
//! `model_attributes_type`, `enum`, `greater_than_equal`, `value_error`); finally
//! [`Validate::validate`] (the very checks the client runs) must find nothing.

use axum::http::{HeaderMap, header};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::error::Failure;
use super::shapes;
use prospect_api::client::Endpoint;
use prospect_api::types::common::{LocSegment, Validate, ValidationError};

fn entry(
    loc: Vec<LocSegment>,
    kind: &str,
    msg: impl Into<String>,
    input: Option<Value>,
    ctx: Option<Value>,
) -> ValidationError {
    ValidationError {
        loc,
        msg: msg.into(),
        kind: kind.to_string(),
        input,
        ctx,
    }
}

fn body_loc() -> Vec<LocSegment> {
    vec![LocSegment::Key("body".into())]
}

/// `true` when the content type is absent or JSON (`application/json`, `*/*+json`).
fn is_json_content_type(headers: &HeaderMap) -> bool {
    let Some(ct) = headers.get(header::CONTENT_TYPE) else {
        return true;
    };
    let ct = String::from_utf8_lossy(ct.as_bytes()).to_ascii_lowercase();
    let mime = ct.split(';').next().unwrap_or("").trim();
    mime.is_empty() || mime == "application/json" || mime.ends_with("+json")
}

/// The JSON value of a body, or the 422 (`model_attributes_type` for a non-JSON content type,
/// `missing` for an empty body, `json_invalid` for malformed JSON).
pub fn parse_value(headers: &HeaderMap, body: &[u8]) -> Result<Value, Failure> {
    if !is_json_content_type(headers) {
        return Err(Failure::invalid(entry(
            body_loc(),
            "model_attributes_type",
            "Input should be a valid dictionary or object to extract fields from",
            Some(Value::String(
                String::from_utf8_lossy(body).chars().take(200).collect(),
            )),
            None,
        )));
    }
    if body.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Failure::invalid(entry(
            body_loc(),
            "missing",
            "Field required",
            Some(Value::Null),
            None,
        )));
    }
    serde_json::from_slice(body).map_err(|e| {
        // FastAPI: loc ["body", <byte offset>], msg "JSON decode error", ctx {"error": ...}.
        let offset = line_col_to_offset(body, e.line(), e.column());
        let mut loc = body_loc();
        loc.push(LocSegment::Index(offset as u64));
        let reason = e.to_string();
        let reason = reason
            .split(" at line ")
            .next()
            .unwrap_or(&reason)
            .to_string();
        Failure::invalid(entry(
            loc,
            "json_invalid",
            "JSON decode error",
            Some(json!({})),
            Some(json!({ "error": reason })),
        ))
    })
}

fn line_col_to_offset(body: &[u8], line: usize, col: usize) -> usize {
    let mut off = 0;
    for (i, l) in body.split(|b| *b == b'\n').enumerate() {
        if i + 1 == line {
            return off + col.saturating_sub(1);
        }
        off += l.len() + 1;
    }
    body.len()
}

/// Deserializes a JSON value into `T`, or the 422 with pydantic-style entries: every problem
/// found, up to `max_errors` (at least the first).
pub fn from_value<T: DeserializeOwned>(value: Value, max_errors: usize) -> Result<T, Failure> {
    from_value_then(value, max_errors, |_: &T| Vec::new())
}

/// [`from_value`], and once the body with its problems taken out reads, the checks `then` finds
/// in it are listed too (issue 38: an unknown member hid the enum checks of nested filters).
fn from_value_then<T: DeserializeOwned>(
    value: Value,
    max_errors: usize,
    then: impl Fn(&T) -> Vec<ValidationError>,
) -> Result<T, Failure> {
    // Read from a borrow: a body that reads (nearly all) is not copied first.
    let first = match serde_path_to_error::deserialize::<_, T>(&value) {
        Ok(t) => return Ok(t),
        Err(e) => serde_error_entry(&value, &e),
    };
    let mut work = value;
    // pydantic lists every problem of a body at once; serde stops at the first. So the
    // offending member is taken out and the body read again for the next problem, until it
    // reads, a place repeats (a required member taken out), or the member cannot be taken out
    // (a missing member, an array element: taking it out would shift the later indexes).
    let mut errors = vec![first];
    while errors.len() < max_errors {
        let last = &errors[errors.len() - 1];
        // A value of its type stands in for the member or element (taking an element out would
        // shift the later indexes, a required member out would read as missing), so what comes
        // after it is read too (issue 38); a member of no such type is taken out.
        if last.kind == "missing"
            || !(stand_in(&mut work, last) || remove_member(&mut work, &last.loc))
        {
            break;
        }
        match serde_path_to_error::deserialize::<_, T>(&work) {
            Ok(rest) => {
                for e in then(&rest) {
                    if errors.len() < max_errors && !errors.iter().any(|x| x.loc == e.loc) {
                        errors.push(e);
                    }
                }
                break;
            }
            Err(e) => {
                let next = serde_error_entry(&work, &e);
                if errors.iter().any(|x| x.loc == next.loc) {
                    break;
                }
                errors.push(next);
            }
        }
    }
    Err(Failure::Validation(errors))
}

/// Puts in place of the member or array element a problem names a value of the type it should
/// have (a string, a number, a boolean, a list, or the first allowed value of an enum), so the
/// body reads on past it (taking a required member out would stop the reading at "missing");
/// `false` when the place is not there or its type cannot stand in (an object: a stand-in
/// would be missing its members).
fn stand_in(root: &mut Value, problem: &ValidationError) -> bool {
    let Some(path) = problem.loc.get(1..).filter(|p| !p.is_empty()) else {
        return false;
    };
    let value = match problem.kind.as_str() {
        "string_type" => json!(""),
        "int_type" | "int_parsing" | "int_from_float" | "greater_than_equal" => json!(0),
        "float_type" | "float_parsing" => json!(0.0),
        "bool_type" | "bool_parsing" => json!(false),
        "list_type" => json!([]),
        "enum" => {
            // ctx.expected: `'a', 'b' or 'c'`.
            let expected = problem
                .ctx
                .as_ref()
                .and_then(|c| c.get("expected"))
                .and_then(Value::as_str)
                .unwrap_or("");
            match expected.split('\'').nth(1) {
                Some(first) => json!(first),
                None => return false,
            }
        }
        _ => return false,
    };
    match at_mut(root, path) {
        Some(slot) => {
            *slot = value;
            true
        }
        None => false,
    }
}

/// Most problems one 422 lists.
const MAX_ERRORS: usize = 20;

/// Largest body (bytes) for which every problem is looked for: each one more costs another
/// read of the body, so a larger one gets its first problem only.
const ALL_ERRORS_BODY_LIMIT: usize = 64 * 1024;

/// The value at `path` (member names and array indexes, after `"body"`) inside `root`.
fn at_mut<'a>(root: &'a mut Value, path: &[LocSegment]) -> Option<&'a mut Value> {
    path.iter().try_fold(root, |v, seg| match (seg, v) {
        (LocSegment::Key(k), Value::Object(m)) => m.get_mut(k),
        (LocSegment::Index(i), Value::Array(a)) => a.get_mut(*i as usize),
        _ => None,
    })
}

/// Removes the object member at `loc` (after `"body"`) from `root`; `false` when `loc` does not
/// end in a member name of an object that holds it.
fn remove_member(root: &mut Value, loc: &[LocSegment]) -> bool {
    let Some((LocSegment::Key(last), parents)) = loc.get(1..).and_then(<[_]>::split_last) else {
        return false;
    };
    let Some(v) = at_mut(root, parents) else {
        return false;
    };
    match v {
        Value::Object(m) => m.remove(last).is_some(),
        _ => false,
    }
}

/// Parses, deserializes and validates a request body (all the steps of this module), with no
/// schema check ([`parse_request`] has it).
pub fn parse_body<T: DeserializeOwned + Validate>(
    headers: &HeaderMap,
    body: &[u8],
) -> Result<T, Failure> {
    parse_with(None, headers, body)
}

/// Parses the body of a request to `endpoint`, checks its shapes against the endpoint's
/// openapi.json schema ([`shapes::check`]: objects, lax scalars, `null`), deserializes and
/// validates it. Errors: the 422 of the first step that finds a problem; a body whose shapes
/// are refused gets one 422 that also lists what the later steps find in the rest of it.
pub fn parse_request<T: DeserializeOwned + Validate>(
    endpoint: Endpoint,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<T, Failure> {
    parse_with(shapes::request_schema(endpoint.path()), headers, body)
}

fn parse_with<T: DeserializeOwned + Validate>(
    schema: Option<&Value>,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<T, Failure> {
    let value = parse_value(headers, body)?;
    // A top-level `webhookUrl` is checked beside the rest (issue 38): its problem is listed in
    // the same 422 as the others, as pydantic's `HttpUrl` member would be.
    let webhook = value
        .get("webhookUrl")
        .and_then(Value::as_str)
        .map(str::to_string);
    let long_integers = shapes::long_integer_literals(body);
    match parse_value_with::<T>(schema, value, body.len(), &long_integers) {
        Err(Failure::Validation(mut v)) => {
            if let Some(url) = webhook
                && let Err(Failure::Validation(w)) = check_webhook_url(&url, &["webhookUrl"])
            {
                for e in w {
                    if !v.iter().any(|x| x.loc == e.loc) {
                        v.push(e);
                    }
                }
            }
            // pydantic lists a model's problems in its fields' order, the members it does
            // not know after them, a list's elements by index.
            match schema {
                Some(schema) => {
                    v.sort_by_cached_key(|e| super::schema_paths::order_key(schema, &e.loc))
                }
                None => v.sort_by_key(|e| e.kind == "extra_forbidden"),
            }
            Err(Failure::Validation(v))
        }
        other => other,
    }
}

/// [`parse_with`] of a body already parsed into `value` (`len` bytes, with the integer
/// literals beyond 64 bits `long_integers`).
fn parse_value_with<T: DeserializeOwned + Validate>(
    schema: Option<&Value>,
    mut value: Value,
    len: usize,
    long_integers: &[f64],
) -> Result<T, Failure> {
    if !value.is_object() {
        // serde would read a struct from an array; pydantic wants an object.
        return Err(Failure::invalid(entry(
            body_loc(),
            "model_attributes_type",
            "Input should be a valid dictionary or object to extract fields from",
            Some(value),
            None,
        )));
    }
    let max_errors = if len <= ALL_ERRORS_BODY_LIMIT {
        MAX_ERRORS
    } else {
        1
    };
    if let Some(schema) = schema {
        let problems = shapes::check(schema, &mut value, long_integers);
        if !problems.is_empty() {
            return Err(Failure::Validation(every_problem::<T>(
                schema, problems, value, max_errors,
            )));
        }
    }
    let req: T = from_value_then(value, max_errors, T::validate)?;
    let problems = req.validate();
    if problems.is_empty() {
        Ok(req)
    } else {
        Err(Failure::Validation(problems))
    }
}

/// Every problem of a body whose shapes [`shapes::check`] refused (issue 18: pydantic lists
/// them all in one 422): a value of its type stands in for each member it refused (else the
/// member is taken out), and what the typed reading, or once it reads the checks ([`Validate`]),
/// find in the rest is listed after them, each place once, at most `max_errors` in all.
fn every_problem<T: DeserializeOwned + Validate>(
    schema: &Value,
    mut problems: Vec<ValidationError>,
    mut rest: Value,
    max_errors: usize,
) -> Vec<ValidationError> {
    if problems.len() < max_errors {
        for p in &problems {
            // A value of the right type stands in for a member listed already (a required
            // one taken out would stop the reading at "missing"); else it is taken out.
            let stood_in = super::schema_paths::stand_in(schema, &p.loc)
                .zip(at_mut(&mut rest, &p.loc[1..]))
                .map(|(v, at)| *at = v)
                .is_some();
            if !stood_in {
                remove_member(&mut rest, &p.loc);
            }
        }
        let more = match from_value_then::<T>(rest, max_errors, T::validate) {
            Ok(req) => req.validate(),
            Err(Failure::Validation(more)) => more,
            Err(_) => Vec::new(),
        };
        for m in more {
            if !problems.iter().any(|p| p.loc == m.loc) {
                problems.push(m);
            }
        }
    }
    problems.truncate(max_errors.max(1));
    problems
}

/// The value at `loc` (after `"body"`) inside `root`.
fn value_at<'a>(root: &'a Value, loc: &[LocSegment]) -> Option<&'a Value> {
    let mut v = root;
    for seg in loc.iter().skip(1) {
        v = match (seg, v) {
            (LocSegment::Key(k), Value::Object(m)) => m.get(k)?,
            (LocSegment::Index(i), Value::Array(a)) => a.get(*i as usize)?,
            _ => return None,
        };
    }
    Some(v)
}

/// Text between the first pair of backticks after `prefix`.
fn backticked(msg: &str, prefix: &str) -> Option<String> {
    let rest = msg.strip_prefix(prefix)?;
    let rest = rest.strip_prefix('`')?;
    Some(rest.split('`').next()?.to_string())
}

/// The allowed values of an "unknown variant `x`, expected one of `a`, `b`" message, in
/// pydantic's form `'a', 'b' or 'c'`.
fn expected_values(msg: &str) -> Option<String> {
    let list = msg
        .split("expected one of ")
        .nth(1)
        .or_else(|| msg.split("expected ").nth(1))?;
    let vals: Vec<String> = list
        .split(", ")
        .map(|s| format!("'{}'", s.trim_matches('`')))
        .collect();
    Some(match vals.len() {
        0 => return None,
        1 => vals[0].clone(),
        n => format!("{} or {}", vals[..n - 1].join(", "), vals[n - 1]),
    })
}

/// Maps one serde error (with its path) to a pydantic-v2 style entry.
fn serde_error_entry(
    root: &Value,
    e: &serde_path_to_error::Error<serde_json::Error>,
) -> ValidationError {
    use serde_path_to_error::Segment;
    let mut loc = body_loc();
    for seg in e.path().iter() {
        match seg {
            Segment::Seq { index } => loc.push(LocSegment::Index(*index as u64)),
            Segment::Map { key } => loc.push(LocSegment::Key(key.clone())),
            Segment::Enum { variant } => loc.push(LocSegment::Key(variant.clone())),
            Segment::Unknown => {}
        }
    }
    let msg = e.inner().to_string();
    if let Some(field) = backticked(&msg, "missing field ") {
        let input = value_at(root, &loc).cloned();
        loc.push(LocSegment::Key(field));
        return entry(loc, "missing", "Field required", input, None);
    }
    if let Some(field) = backticked(&msg, "unknown field ") {
        if !matches!(loc.last(), Some(LocSegment::Key(k)) if *k == field) {
            loc.push(LocSegment::Key(field));
        }
        let input = value_at(root, &loc).cloned();
        return entry(
            loc,
            "extra_forbidden",
            "Extra inputs are not permitted",
            input,
            None,
        );
    }
    let input = value_at(root, &loc).cloned();
    if msg.starts_with("unknown variant ") {
        let expected = expected_values(&msg).unwrap_or_default();
        return entry(
            loc,
            "enum",
            format!("Input should be {expected}"),
            input,
            Some(json!({ "expected": expected })),
        );
    }
    let expected = msg.rsplit("expected ").next().unwrap_or("").to_string();
    let is_int = [
        "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "usize", "isize",
    ]
    .iter()
    .any(|t| expected.starts_with(t));
    if msg.starts_with("invalid value: integer") && expected.starts_with('u') {
        return entry(
            loc,
            "greater_than_equal",
            "Input should be greater than or equal to 0",
            input,
            Some(json!({ "ge": 0 })),
        );
    }
    if msg.starts_with("invalid length") && expected.starts_with("struct") {
        // a struct given as an array
        return entry(
            loc,
            "model_attributes_type",
            "Input should be a valid dictionary or object to extract fields from",
            input,
            None,
        );
    }
    if msg.starts_with("invalid type:") || msg.starts_with("invalid value:") {
        let got_string = msg.starts_with("invalid type: string");
        let (kind, text) = if is_int {
            if got_string {
                (
                    "int_parsing",
                    "Input should be a valid integer, unable to parse string as an integer",
                )
            } else if msg.starts_with("invalid type: floating point") {
                (
                    "int_from_float",
                    "Input should be a valid integer, got a number with a fractional part",
                )
            } else {
                ("int_type", "Input should be a valid integer")
            }
        } else if expected.starts_with("f32")
            || expected.starts_with("f64")
            // The API's number members (`Num`: an integer or a float) say "a number".
            || expected.contains("number")
        {
            if got_string {
                (
                    "float_parsing",
                    "Input should be a valid number, unable to parse string as a number",
                )
            } else {
                ("float_type", "Input should be a valid number")
            }
        } else if expected.contains("string") || expected.contains("str") {
            ("string_type", "Input should be a valid string")
        } else if expected.contains("bool") {
            if got_string {
                (
                    "bool_parsing",
                    "Input should be a valid boolean, unable to interpret input",
                )
            } else {
                ("bool_type", "Input should be a valid boolean")
            }
        } else if expected.contains("sequence") || expected.contains("tuple") {
            ("list_type", "Input should be a valid list")
        } else if expected.starts_with("struct") || expected.contains("map") {
            (
                "model_attributes_type",
                "Input should be a valid dictionary or object to extract fields from",
            )
        } else {
            ("value_error", "")
        };
        if kind != "value_error" {
            return entry(loc, kind, text, input, None);
        }
    }
    entry(
        loc,
        "value_error",
        format!("Value error, {msg}"),
        input,
        Some(json!({ "error": msg })),
    )
}

/// 422 unless `url` is an absolute `http` or `https` URL with a host (webhook targets), as
/// pydantic's `HttpUrl` says it ([`wire_checks::webhook_url`], the one rule the client and the
/// sandbox share): `url_parsing` or `url_scheme`. `loc` is the member path after `"body"`.
pub fn check_webhook_url(url: &str, loc: &[&str]) -> Result<(), Failure> {
    let mut out = Vec::new();
    let body = prospect_api::types::LocPath::body();
    prospect_api::types::wire_checks::webhook_url(url, &body, &mut out);
    for e in &mut out {
        e.loc = body_loc();
        e.loc
            .extend(loc.iter().map(|s| LocSegment::Key(s.to_string())));
    }
    match out.is_empty() {
        true => Ok(()),
        false => Err(Failure::Validation(out)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct Inner {
        #[allow(dead_code)]
        size: Option<u32>,
        #[allow(dead_code)]
        flag: Option<bool>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct Req {
        #[allow(dead_code)]
        name: String,
        #[allow(dead_code)]
        items: Option<Vec<Inner>>,
        #[allow(dead_code)]
        count: Option<i64>,
    }

    impl Validate for Req {
        fn validate(&self) -> Vec<ValidationError> {
            Vec::new()
        }
    }

    fn err(body: &str) -> ValidationError {
        match parse_body::<Req>(&HeaderMap::new(), body.as_bytes()) {
            Err(Failure::Validation(mut v)) => v.remove(0),
            other => panic!("{other:?}"),
        }
    }

    fn loc(e: &ValidationError) -> String {
        e.path()
    }

    fn all(body: &str) -> Vec<(String, String)> {
        match parse_body::<Req>(&HeaderMap::new(), body.as_bytes()) {
            Err(Failure::Validation(v)) => v.iter().map(|e| (e.kind.clone(), loc(e))).collect(),
            other => panic!("{other:?}"),
        }
    }

    /// Like pydantic, one 422 lists every problem of the body, each once, and no "missing" for
    /// a member that is there but wrong.
    #[test]
    fn every_problem_is_listed() {
        let kinds = all(r#"{"name":5,"count":"x","bogus":1,"items":[{"size":-1,"nope":1}]}"#);
        let set: std::collections::BTreeSet<(String, String)> = kinds.iter().cloned().collect();
        assert_eq!(set.len(), kinds.len(), "{kinds:?}");
        for want in [
            ("string_type", "body.name"),
            ("int_parsing", "body.count"),
            ("extra_forbidden", "body.bogus"),
        ] {
            assert!(
                set.contains(&(want.0.to_string(), want.1.to_string())),
                "{want:?} not in {kinds:?}"
            );
        }
        assert!(
            !set.iter().any(|(k, l)| k == "missing" && l == "body.name"),
            "{kinds:?}"
        );
        // a missing member and a wrong one
        let kinds = all(r#"{"count":"x"}"#);
        assert_eq!(kinds.len(), 2, "{kinds:?}");
    }

    /// Issue 38: an array element's problem does not end the list: every element is read, as
    /// pydantic reads them (`{"domains":[1,2],"bogus":1}` lists bogus, domains.0, domains.1).
    #[test]
    fn every_array_element_is_read() {
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Lookup {
            #[allow(dead_code)]
            domains: Vec<String>,
        }
        impl Validate for Lookup {
            fn validate(&self) -> Vec<ValidationError> {
                Vec::new()
            }
        }
        let body = br#"{"domains":[1,2],"bogus":1}"#;
        let got: Vec<(String, String)> = match parse_body::<Lookup>(&HeaderMap::new(), body) {
            Err(Failure::Validation(v)) => v.iter().map(|e| (e.kind.clone(), loc(e))).collect(),
            other => panic!("{other:?}"),
        };
        // pydantic 2.13's order: the members' problems, then the unknown members.
        let want = [
            ("string_type", "body.domains.0"),
            ("string_type", "body.domains.1"),
            ("extra_forbidden", "body.bogus"),
        ];
        assert_eq!(
            got,
            want.map(|(k, l)| (k.to_string(), l.to_string())),
            "{got:?}"
        );
        // Elements of a list of objects too: both sizes, then the unknown member.
        let kinds = all(r#"{"name":"n","items":[{"size":-1},{"size":"x"}]}"#);
        assert!(
            kinds.iter().any(|(_, l)| l == "body.items.1.size"),
            "{kinds:?}"
        );
    }

    #[test]
    fn pydantic_like_entries() {
        let e = err("{");
        assert_eq!(
            (e.kind.as_str(), e.msg.as_str()),
            ("json_invalid", "JSON decode error")
        );
        let e = err("{}");
        assert_eq!(
            (e.kind.as_str(), loc(&e).as_str()),
            ("missing", "body.name")
        );
        let e = err(r#"{"name":"a","bogus":1}"#);
        assert_eq!(
            (e.kind.as_str(), loc(&e).as_str()),
            ("extra_forbidden", "body.bogus")
        );
        let e = err(r#"{"name":"a","items":[{"size":1},{"nope":true}]}"#);
        assert_eq!(
            (e.kind.as_str(), loc(&e).as_str()),
            ("extra_forbidden", "body.items.1.nope")
        );
        let e = err(r#"{"name":"a","count":"x"}"#);
        assert_eq!(
            (e.kind.as_str(), loc(&e).as_str()),
            ("int_parsing", "body.count")
        );
        let e = err(r#"{"name":"a","count":1.5}"#);
        assert_eq!(e.kind, "int_from_float");
        let e = err(r#"{"name":5}"#);
        assert_eq!(e.kind, "string_type");
        let e = err(r#"{"name":"a","items":{}}"#);
        assert_eq!(e.kind, "list_type");
        let e = err(r#"{"name":"a","items":[{"size":-1}]}"#);
        assert_eq!(
            (e.kind.as_str(), loc(&e).as_str()),
            ("greater_than_equal", "body.items.0.size")
        );
        let e = err(r#"{"name":"a","items":[{"flag":"x"}]}"#);
        assert_eq!(e.kind, "bool_parsing");
        let e = err("[]");
        assert_eq!(
            (e.kind.as_str(), loc(&e).as_str()),
            ("model_attributes_type", "body")
        );
        let e = err("");
        assert_eq!(e.kind, "missing");
        let mut h = HeaderMap::new();
        h.insert(header::CONTENT_TYPE, "text/plain".parse().unwrap());
        assert!(matches!(
            parse_body::<Req>(&h, b"{}"),
            Err(Failure::Validation(_))
        ));
    }

    #[test]
    fn webhook_urls() {
        assert!(check_webhook_url("http://127.0.0.1:9/x?secret=1", &["webhookUrl"]).is_ok());
        let kind = |u: &str| match check_webhook_url(u, &["webhookUrl"]) {
            Err(Failure::Validation(v)) => v[0].kind.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(kind("ftp://x"), "url_scheme");
        assert_eq!(kind("nope"), "url_parsing");
        assert_eq!(kind("http://"), "url_parsing");
    }
}
