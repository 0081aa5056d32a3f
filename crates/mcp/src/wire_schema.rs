//! The schema of a search tool's `filters` (issue 36: "JSON schemas derived from the wire
//! types"), read from openapi.json, the wire contract the API types implement: the members of
//! the v3 company and people search bodies but the paging ones (`size`, `searchAfter`) and
//! `fields`, each filter object with its members' types and descriptions. Objects nested
//! deeper are named, not spelled out, which keeps `tools/list` small (about 8 KB a tool).

use std::sync::OnceLock;

use serde_json::{Map, Value};

/// openapi.json, as embedded (the same file the sandbox validates against).
static OPENAPI: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/openapi.json"
));

/// The request bodies whose members `filters` takes.
const BODIES: [&str; 2] = ["PublicSearchCompaniesBodyV3", "PublicSearchPeopleBodyV3"];

/// Body members the server sets itself, or that a tool takes apart.
const NOT_FILTERS: [&str; 4] = ["size", "searchAfter", "from", "fields"];

/// `x` with each `$ref` replaced by its schema while `depth` lasts, then by an object named
/// after it; `examples` and `title` left out.
fn resolve(schemas: &Map<String, Value>, x: &Value, depth: u32) -> Value {
    match x {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get("$ref") {
                let name = r.rsplit('/').next().unwrap_or(r);
                return match (depth, schemas.get(name)) {
                    (d, Some(s)) if d > 0 => resolve(schemas, s, d - 1),
                    _ => serde_json::json!({"type": "object", "description": name}),
                };
            }
            Value::Object(
                m.iter()
                    .filter(|(k, _)| !matches!(k.as_str(), "examples" | "example" | "title"))
                    .map(|(k, v)| (k.clone(), resolve(schemas, v, depth)))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(|v| resolve(schemas, v, depth)).collect()),
        other => other.clone(),
    }
}

/// The schema of `filters`, built once from openapi.json; an open object when the embedded
/// file does not read (it always does: a test reads it).
pub fn filters() -> Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let doc: Value = serde_json::from_str(OPENAPI).unwrap_or_default();
            let schemas = doc
                .pointer("/components/schemas")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            let mut props = Map::new();
            for body in BODIES {
                let Some(members) = schemas
                    .get(body)
                    .and_then(|b| b.get("properties"))
                    .and_then(Value::as_object)
                else {
                    continue;
                };
                for (k, v) in members {
                    if !NOT_FILTERS.contains(&k.as_str()) && !props.contains_key(k) {
                        props.insert(k.clone(), resolve(&schemas, v, 1));
                    }
                }
            }
            serde_json::json!({
                "type": "object",
                "description": "The request body's members as the API takes them (openapi.json's v3 search bodies; the v2 bodies' members are taken with v2=true). Values of enumerations: reference_data and autocomplete.",
                "properties": props,
            })
        })
        .clone()
}

/// [`filters`] for schemars' `schema_with`.
pub fn filters_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    match filters() {
        Value::Object(m) => schemars::Schema::from(m),
        _ => schemars::Schema::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filters_name_the_wire_members_and_stay_small() {
        let f = filters();
        let props = f["properties"].as_object().unwrap();
        for k in ["companiesFilters", "peopleFilters", "peoplePerCompany"] {
            assert!(props.contains_key(k), "{k}");
        }
        assert!(!props.contains_key("size") && !props.contains_key("searchAfter"));
        let cf = &props["companiesFilters"];
        let text = cf.to_string();
        assert!(
            text.contains("excludeDomains") && text.contains("primaryLocations"),
            "{text}"
        );
        let size = f.to_string().len();
        assert!(size < 16_000, "{size} bytes");
    }
}
