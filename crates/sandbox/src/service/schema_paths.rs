//! Where a problem's place (`loc`) leads in a request's openapi.json schema (issue 38, item
//! 12): the order pydantic lists a body's problems in, and a value that can stand in for a
//! member whose problem is already listed, so the rest of the body is read for more.
//!
//! pydantic (as FastAPI runs it, on the parsed body) lists a model's problems in the order its
//! fields are defined, the members it does not know after them, and a list's elements by
//! index. The field order is openapi.json's `properties` order, which a `serde_json::Value`
//! does not keep (its maps are sorted), so it is read once from the text.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use serde::Deserialize;
use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde_json::{Value, json};

use prospect_api::types::LocSegment;

/// Member names in the order a JSON object gives them (the values are skipped).
#[derive(Debug, Default)]
struct Keys(Vec<String>);

impl<'de> Deserialize<'de> for Keys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Keys, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Keys;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Keys, A::Error> {
                let mut keys = Vec::new();
                while let Some(k) = m.next_key::<String>()? {
                    m.next_value::<IgnoredAny>()?;
                    keys.push(k);
                }
                Ok(Keys(keys))
            }
        }
        d.deserialize_map(V)
    }
}

/// A component schema's `properties`, in order.
#[derive(Deserialize, Default)]
struct Component {
    #[serde(default)]
    properties: Keys,
}

#[derive(Deserialize, Default)]
struct Components {
    #[serde(default)]
    schemas: HashMap<String, Component>,
}

#[derive(Deserialize, Default)]
struct Doc {
    #[serde(default)]
    components: Components,
}

/// Each component schema's member names in definition order, by component name.
fn field_order() -> &'static HashMap<String, Vec<String>> {
    static ORDER: OnceLock<HashMap<String, Vec<String>>> = OnceLock::new();
    ORDER.get_or_init(|| {
        serde_json::from_str::<Doc>(super::shapes::openapi_text())
            .map(|d| {
                d.components
                    .schemas
                    .into_iter()
                    .map(|(name, c)| (name, c.properties.0))
                    .collect()
            })
            .unwrap_or_default()
    })
}

/// Follows `$ref`s, one-member `allOf`s and the first non-null branch of an `anyOf`: the
/// schema reached and the component it is (its name), if it is one.
fn resolve<'a>(doc: &'a Value, mut s: &'a Value) -> (&'a Value, Option<&'a str>) {
    let mut name = None;
    for _ in 0..32 {
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let Some(t) = r
                .strip_prefix("#/")
                .and_then(|p| p.split('/').try_fold(doc, |v, k| v.get(k)))
            else {
                break;
            };
            name = r.rsplit('/').next();
            s = t;
            continue;
        }
        if let Some([one]) = s.get("allOf").and_then(Value::as_array).map(Vec::as_slice) {
            s = one;
            continue;
        }
        if let Some(branch) = s.get("anyOf").and_then(Value::as_array).and_then(|b| {
            b.iter()
                .find(|x| x.get("type").and_then(Value::as_str) != Some("null"))
        }) {
            s = branch;
            continue;
        }
        break;
    }
    (s, name)
}

/// Where `loc` (starting with `"body"`) sits in `schema`, as a sort key: per step, the
/// member's place in its model's definition order (a member the model does not know after
/// every known one), or the element's index. Sorting a body's problems by it gives pydantic's
/// order.
pub fn order_key(schema: &Value, loc: &[LocSegment]) -> Vec<usize> {
    let doc = super::shapes::openapi_doc();
    let mut s = Some(schema);
    let mut key = Vec::with_capacity(loc.len());
    for seg in loc.iter().skip(1) {
        let (here, name) = match s {
            Some(x) => resolve(doc, x),
            None => (&Value::Null, None),
        };
        match seg {
            LocSegment::Key(k) => {
                let props = here.get("properties").and_then(Value::as_object);
                let place = name
                    .and_then(|n| field_order().get(n))
                    .and_then(|order| order.iter().position(|p| p == k))
                    .or_else(|| props.and_then(|p| p.keys().position(|p| p == k)))
                    .unwrap_or(usize::MAX);
                key.push(place);
                s = props.and_then(|p| p.get(k));
            }
            LocSegment::Index(i) => {
                key.push(*i as usize);
                s = here.get("items");
            }
        }
    }
    key
}

/// A value of the type the member at `loc` asks for (an empty string or list, 0, false, or
/// its enum's first value) to stand in for it once its problem is listed, so the rest of the
/// body reads on; `None` for an object (a stand-in would miss its members) or a place the
/// schema does not describe.
pub fn stand_in(schema: &Value, loc: &[LocSegment]) -> Option<Value> {
    let doc = super::shapes::openapi_doc();
    let mut s = schema;
    for seg in loc.iter().skip(1) {
        let (here, _) = resolve(doc, s);
        s = match seg {
            LocSegment::Key(k) => here.get("properties")?.get(k)?,
            LocSegment::Index(_) => here.get("items")?,
        };
    }
    let (s, _) = resolve(doc, s);
    if let Some(first) = s
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return Some(first.clone());
    }
    match s.get("type").and_then(Value::as_str)? {
        "string" => Some(json!("")),
        "array" => Some(json!([])),
        "integer" => Some(json!(0)),
        "number" => Some(json!(0.0)),
        "boolean" => Some(json!(false)),
        _ => None,
    }
}
