//! Reading and writing members at a JSON path of the request body, formatting and parsing
//! their values, and finding the members an endpoint does not take ([`extras`]).
use serde_json::{Map, Value};

use super::leaves::{LeafKind, Num, leaves};
use prospect_api::client::Endpoint;

/// The value at `path`, if set.
pub fn get<'a>(body: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(body, |v, k| v.get(*k))
}

/// Sets `path` to `v`, creating objects on the way (a non-object in the way is replaced).
pub fn set(body: &mut Value, path: &[&str], v: Value) {
    let mut cur = body;
    for (i, k) in path.iter().enumerate() {
        if !cur.is_object() {
            *cur = Value::Object(Map::new());
        }
        let Some(obj) = cur.as_object_mut() else {
            return;
        };
        if i + 1 == path.len() {
            obj.insert((*k).to_string(), v);
            return;
        }
        cur = obj
            .entry((*k).to_string())
            .or_insert_with(|| Value::Object(Map::new()));
    }
}

/// Removes `path`, then every object on the way that became empty.
pub fn remove(body: &mut Value, path: &[&str]) {
    fn go(v: &mut Value, path: &[&str]) {
        let Some(obj) = v.as_object_mut() else { return };
        if path.len() == 1 {
            obj.remove(path[0]);
            return;
        }
        if let Some(child) = obj.get_mut(path[0]) {
            go(child, &path[1..]);
            if child.as_object().is_some_and(Map::is_empty) {
                obj.remove(path[0]);
            }
        }
    }
    if !path.is_empty() {
        go(body, path);
    }
}

/// `true` when the member holds something worth sending (not null, not an empty list/object).
pub fn is_filled(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
        Some(Value::String(s)) => !s.is_empty(),
        Some(_) => true,
    }
}

/// A list item in a few words: strings as is, `{city, country}` as `city (cc)`,
/// `{abbreviation, country}` as `CA (us)`, anything else as compact JSON.
pub fn fmt_item(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(o) => {
            let s = |k: &str| o.get(k).and_then(Value::as_str);
            if let (Some(c), Some(cc)) = (s("city"), s("country")) {
                format!("{c} ({cc})")
            } else if let (Some(a), Some(cc)) = (s("abbreviation"), s("country")) {
                format!("{a} ({cc})")
            } else {
                v.to_string()
            }
        }
        other => other.to_string(),
    }
}

/// A member's value in one line: lists joined with `, `, ranges as `from..to`.
pub fn fmt_value(kind: LeafKind, v: &Value) -> String {
    match (kind, v) {
        (LeafKind::List(_), Value::Array(a)) => {
            a.iter().map(fmt_item).collect::<Vec<_>>().join(", ")
        }
        (LeafKind::Range(_), Value::Object(o)) => {
            let end = |k: &str| {
                o.get(k)
                    .filter(|v| !v.is_null())
                    .map(fmt_item)
                    .unwrap_or_default()
            };
            format!("{}..{}", end("from"), end("to"))
        }
        (_, Value::String(s)) => s.clone(),
        (_, other) => other.to_string(),
    }
}

/// Parses one end of a range or a scalar as typed; empty gives `Ok(None)`.
pub fn parse_num(num: Num, s: &str) -> Result<Option<Value>, String> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(None);
    }
    match num {
        Num::Int => s
            .replace('_', "")
            .parse::<i64>()
            .map(|n| Some(Value::from(n)))
            .map_err(|_| format!("{s:?} is not a whole number")),
        Num::Float => s
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .and_then(serde_json::Number::from_f64)
            .map(|n| Some(Value::Number(n)))
            .ok_or_else(|| format!("{s:?} is not a number")),
        Num::Date => {
            let ok = s.len() >= 7 && s.chars().all(|c| c.is_ascii_digit() || c == '-');
            if ok {
                Ok(Some(Value::String(s.to_string())))
            } else {
                Err(format!("{s:?} is not a date (YYYY-MM-DD)"))
            }
        }
        Num::Text => Ok(Some(Value::String(s.to_string()))),
    }
}

/// Members set in `body` that no leaf of `ep` covers (e.g. v3 members after switching to v2),
/// as `(dotted path, value)`. `endpoint` is ignored (it names the endpoint of a filter set).
pub fn extras(body: &Value, ep: Endpoint) -> Vec<(Vec<String>, Value)> {
    let paths: Vec<&[&str]> = leaves(ep).iter().map(|l| l.path).collect();
    let mut out = Vec::new();
    fn walk(
        v: &Value,
        prefix: &mut Vec<String>,
        paths: &[&[&str]],
        out: &mut Vec<(Vec<String>, Value)>,
    ) {
        let Some(obj) = v.as_object() else { return };
        for (k, child) in obj {
            if prefix.is_empty() && k == "endpoint" {
                continue;
            }
            prefix.push(k.clone());
            let is_leaf = paths.iter().any(|p| {
                p.len() == prefix.len() && p.iter().zip(prefix.iter()).all(|(a, b)| a == b)
            });
            let is_prefix = paths.iter().any(|p| {
                p.len() > prefix.len() && p.iter().zip(prefix.iter()).all(|(a, b)| a == b)
            });
            if is_leaf {
            } else if is_prefix && child.is_object() {
                walk(child, prefix, paths, out);
            } else {
                out.push((prefix.clone(), child.clone()));
            }
            prefix.pop();
        }
    }
    walk(body, &mut Vec::new(), &paths, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Source;
    use serde_json::json;

    #[test]
    fn set_get_remove_prune() {
        let mut b = json!({});
        set(
            &mut b,
            &["companiesFilters", "industries", "mode"],
            json!("allOf"),
        );
        set(&mut b, &["size"], json!(10));
        assert_eq!(
            get(&b, &["companiesFilters", "industries", "mode"]),
            Some(&json!("allOf"))
        );
        remove(&mut b, &["companiesFilters", "industries", "mode"]);
        assert_eq!(b, json!({"size": 10}));
    }

    #[test]
    fn extras_lists_members_of_other_versions() {
        let b = json!({"size": 5, "endpoint": "/v3/search/companies",
            "companiesFilters": {"primaryLocations": {"includeCountries": ["de"]}, "countries": ["fr"]}});
        let e = extras(&b, Endpoint::SearchCompaniesV2);
        assert_eq!(e.len(), 1);
        assert_eq!(
            e[0].0,
            vec![
                "companiesFilters".to_string(),
                "primaryLocations".to_string()
            ]
        );
        assert!(
            extras(&b, Endpoint::SearchCompaniesV3)
                .iter()
                .any(|(p, _)| p[1] == "countries")
        );
    }

    #[test]
    fn formatting_and_parsing() {
        assert_eq!(
            fmt_value(LeafKind::Range(Num::Int), &json!({"from": 10})),
            "10.."
        );
        assert_eq!(
            fmt_value(
                LeafKind::List(Source::Free),
                &json!([{"city": "Berlin", "country": "de"}, "x"])
            ),
            "Berlin (de), x"
        );
        assert_eq!(parse_num(Num::Int, " 1_000 ").unwrap(), Some(json!(1000)));
        assert!(parse_num(Num::Int, "ten").is_err());
        assert_eq!(parse_num(Num::Float, "").unwrap(), None);
    }
}
