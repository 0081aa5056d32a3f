//! Property tests (proptest) over hostile input, sized for CI (issue 10, "Fuzzing"): each
//! property runs [`CASES`] cases (10,000 unless `PROPTEST_CASES` says otherwise) and never
//! panics.
//!
//! - **Response decoding** (`api::client::decode`, the client's decode path for every 2xx
//!   answer, and `WebhookEvent::parse_body` for the 8 webhook bodies): any bytes, any JSON, and
//!   openapi.json's examples of every answer with members replaced by arbitrary JSON give `Ok`
//!   or `ApiError::Decode` naming the path of what failed — never a panic.
//! - **The filter-set loader** (`core::filter_set::parse`): any text gives a set (whose
//!   endpoint is a search and which survives `render` → `parse`) or a syntax/shape error that
//!   names the file — never a panic.
//! - **The sandbox's request validation** (`sandbox::service::validation::parse_request`, what
//!   every handler runs first): any bytes, any JSON and mutated openapi.json examples of every
//!   request body give a request or a 422 with at least one entry whose `loc` starts at
//!   `body` — never a panic, never another status.
//!
//! Arbitrary JSON is built from the member names and enum values openapi.json uses, so the
//! decoders are driven deep into the bodies, not only refused at the first key.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::http::HeaderMap;
use proptest::prelude::*;
use proptest::test_runner::Config;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use prospect::api::client::{Endpoint, decode};
use prospect::api::error::ApiError;
use prospect::api::types::common::{LocSegment, Validate};
use prospect::api::types::webhooks::WebhookEvent;
use prospect::api::types::*;
use prospect::core::filter_set;
use prospect::sandbox::service::error::Failure;
use prospect::sandbox::service::validation::parse_request;

/// Cases per property (override with `PROPTEST_CASES`).
const CASES: u32 = 10_000;

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(CASES);
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

fn openapi() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| {
        serde_json::from_str(include_str!("data/openapi.json")).expect("openapi.json parses")
    })
}

/// Every property name and string enum value in openapi.json's schemas.
fn vocabulary() -> &'static (Vec<String>, Vec<String>) {
    static V: OnceLock<(Vec<String>, Vec<String>)> = OnceLock::new();
    V.get_or_init(|| {
        let (mut keys, mut values) = (Vec::new(), Vec::new());
        fn walk(v: &Value, keys: &mut Vec<String>, values: &mut Vec<String>) {
            match v {
                Value::Object(m) => {
                    if let Some(Value::Object(p)) = m.get("properties") {
                        keys.extend(p.keys().cloned());
                    }
                    if let Some(Value::Array(e)) = m.get("enum") {
                        values.extend(e.iter().filter_map(Value::as_str).map(str::to_string));
                    }
                    m.values().for_each(|x| walk(x, keys, values));
                }
                Value::Array(a) => a.iter().for_each(|x| walk(x, keys, values)),
                _ => {}
            }
        }
        walk(openapi(), &mut keys, &mut values);
        keys.sort();
        keys.dedup();
        values.sort();
        values.dedup();
        (keys, values)
    })
}

/// A JSON leaf: null, booleans, edge numbers, openapi's enum values, odd strings.
fn leaf() -> impl Strategy<Value = Value> {
    let values = vocabulary().1.clone();
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop_oneof![
            Just(0.5f64),
            Just(1e20),
            Just(-1e300),
            Just(10.0),
            any::<f64>()
        ]
        .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        prop::sample::select(values).prop_map(Value::String),
        ".{0,12}".prop_map(Value::String),
        Just(Value::String("http://127.0.0.1:9/hook?secret=s".into())),
        Just(Value::String("2024-01-31T12:00:00Z".into())),
    ]
}

/// Arbitrary JSON with openapi.json's member names (and some others) as keys.
fn json() -> impl Strategy<Value = Value> {
    let keys = vocabulary().0.clone();
    let key = prop_oneof![4 => prop::sample::select(keys), 1 => "[a-zA-Z]{0,6}"];
    leaf().prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// An example value of `schema` built from openapi.json's `examples` (first one), or a plain
/// value of its type.
fn example_of(schema: &Value, depth: usize) -> Value {
    let doc = openapi();
    let mut s = schema;
    for _ in 0..16 {
        match s.get("$ref").and_then(Value::as_str) {
            Some(r) => {
                s = r
                    .trim_start_matches("#/")
                    .split('/')
                    .try_fold(doc, |v, k| v.get(k))
                    .unwrap_or(&Value::Null)
            }
            None => break,
        }
    }
    if depth > 8 {
        return Value::Null;
    }
    if let Some(Value::Array(ex)) = s.get("examples")
        && let Some(first) = ex.first()
    {
        return first.clone();
    }
    if let Some(Value::Array(branches)) = s.get("anyOf").or_else(|| s.get("allOf")) {
        let b = branches
            .iter()
            .find(|b| b.get("type").and_then(Value::as_str) != Some("null"));
        return b.map_or(Value::Null, |b| example_of(b, depth + 1));
    }
    if let Some(Value::Array(e)) = s.get("enum")
        && let Some(first) = e.first()
    {
        return first.clone();
    }
    match s.get("type").and_then(Value::as_str) {
        Some("array") => match s.get("items") {
            Some(items) => Value::Array(vec![example_of(items, depth + 1)]),
            None => Value::Array(vec![]),
        },
        Some("integer") => Value::from(1),
        Some("number") => Value::from(1.5),
        Some("boolean") => Value::Bool(true),
        Some("string") => Value::String("x".into()),
        _ => match s.get("properties").and_then(Value::as_object) {
            Some(p) => Value::Object(
                p.iter()
                    .map(|(k, v)| (k.clone(), example_of(v, depth + 1)))
                    .collect(),
            ),
            None => Value::Object(Map::new()),
        },
    }
}

/// The request (`true`) or 200 answer (`false`) schema of `method path`.
fn schema_of(path: &str, request: bool) -> Option<&'static Value> {
    let op = openapi()
        .get("paths")?
        .get(path)?
        .as_object()?
        .values()
        .next()?;
    let content = if request {
        op.get("requestBody")?.get("content")?
    } else {
        op.get("responses")?.get("200")?.get("content")?
    };
    content.get("application/json")?.get("schema")
}

/// How many values `v` holds (itself included).
fn count(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(count).sum(),
        Value::Object(m) => m.values().map(count).sum(),
        _ => 0,
    }
}

/// The `k`-th value inside `v` in document order (0 is `v`).
fn nth_mut<'a>(v: &'a mut Value, k: &mut usize) -> Option<&'a mut Value> {
    if *k == 0 {
        return Some(v);
    }
    *k -= 1;
    match v {
        Value::Array(a) => {
            for x in a.iter_mut() {
                if let Some(found) = nth_mut(x, k) {
                    return Some(found);
                }
            }
            None
        }
        Value::Object(m) => {
            for x in m.values_mut() {
                if let Some(found) = nth_mut(x, k) {
                    return Some(found);
                }
            }
            None
        }
        _ => None,
    }
}

/// `example` with the values picked by `picks` (index modulo the number of values) replaced.
fn mutate(mut example: Value, picks: &[(usize, Value)]) -> Value {
    for (pick, with) in picks {
        let mut k = pick % count(&example);
        if let Some(place) = nth_mut(&mut example, &mut k) {
            *place = with.clone();
        }
    }
    example
}

/// A body for the properties: any bytes, arbitrary JSON, or a mutated example.
fn body(example: Value) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..256),
        json().prop_map(|v| serde_json::to_vec(&v).unwrap()),
        prop::collection::vec((any::<usize>(), json()), 0..4)
            .prop_map(move |picks| serde_json::to_vec(&mutate(example.clone(), &picks)).unwrap()),
    ]
}

// ---------------------------------------------------------------------------------------------
// Response decoding.

/// Decodes `body` as `T` with the client's decoder: Ok, or `Decode` naming a path.
fn decodes_or_names_the_path<T: DeserializeOwned>(body: &[u8]) -> Result<(), TestCaseError> {
    match decode::<T>(body) {
        Ok(_) => {
            ANSWERS_OK.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
        Err(ApiError::Decode { path, message }) => {
            prop_assert!(!path.is_empty(), "no path: {message}");
            prop_assert!(!message.is_empty());
            Ok(())
        }
        Err(other) => Err(TestCaseError::fail(format!(
            "not a decode error: {other:?}"
        ))),
    }
}

/// Answers that decoded (the properties check that the mutations do not only make junk).
static ANSWERS_OK: AtomicUsize = AtomicUsize::new(0);
/// Request bodies the sandbox read.
static REQUESTS_OK: AtomicUsize = AtomicUsize::new(0);

/// At least 2% of `cases` were read: the inputs reach past the first refusal.
fn some_were_read(ok: &AtomicUsize) {
    let cases = config().cases as usize;
    let ok = ok.load(Ordering::Relaxed);
    eprintln!("{ok} of {cases} read");
    assert!(ok * 50 >= cases, "only {ok} of {cases} read");
}

/// The 19 endpoints with the decoder of their 200 answer.
type Decoder = fn(&[u8]) -> Result<(), TestCaseError>;

fn answer_decoders() -> Vec<(Endpoint, Decoder)> {
    use Endpoint::*;
    vec![
        (
            AutocompleteCompanies,
            decodes_or_names_the_path::<AutocompleteCompaniesResponse>,
        ),
        (
            AutocompleteKeywords,
            decodes_or_names_the_path::<AutocompleteKeywordsResponse>,
        ),
        (
            AutocompleteJobTitles,
            decodes_or_names_the_path::<AutocompleteJobTitlesResponse>,
        ),
        (
            AutocompleteLocations,
            decodes_or_names_the_path::<AutocompleteLocationsResponse>,
        ),
        (
            AutocompleteSkills,
            decodes_or_names_the_path::<AutocompleteSkillsResponse>,
        ),
        (
            SearchCompaniesV2,
            decodes_or_names_the_path::<SearchCompaniesV2Response>,
        ),
        (
            SearchCompaniesV3,
            decodes_or_names_the_path::<SearchCompaniesV3Response>,
        ),
        (
            SearchPeopleV2,
            decodes_or_names_the_path::<SearchPeopleV2Response>,
        ),
        (
            SearchPeopleV3,
            decodes_or_names_the_path::<SearchPeopleV3Response>,
        ),
        (
            SearchPeoplePreview,
            decodes_or_names_the_path::<SearchPeoplePreviewResponse>,
        ),
        (
            EnrichCompany,
            decodes_or_names_the_path::<EnrichCompanyResponse>,
        ),
        (
            EnrichPerson,
            decodes_or_names_the_path::<EnrichPersonResponse>,
        ),
        (
            LookupCompanies,
            decodes_or_names_the_path::<LookupCompaniesResponse>,
        ),
        (
            LookupPeople,
            decodes_or_names_the_path::<LookupPeopleResponse>,
        ),
        (
            RevealEmails,
            decodes_or_names_the_path::<RevealEmailsResponse>,
        ),
        (
            RevealPhones,
            decodes_or_names_the_path::<RevealPhonesResponse>,
        ),
        (
            DataFields,
            decodes_or_names_the_path::<prospect::api::types::DataFields>,
        ),
        (
            CreditBalance,
            decodes_or_names_the_path::<prospect::api::types::CreditBalance>,
        ),
        (
            WarmupCompanies,
            decodes_or_names_the_path::<WarmupCompaniesResponse>,
        ),
    ]
}

/// (endpoint index, body) over the 19 answers.
fn answer_case() -> impl Strategy<Value = (usize, Vec<u8>)> {
    let n = answer_decoders().len();
    (0..n).prop_flat_map(|i| {
        let (endpoint, _) = answer_decoders()[i];
        let example = schema_of(endpoint.path(), false)
            .map(|s| example_of(s, 0))
            .unwrap_or(Value::Null);
        (Just(i), body(example))
    })
}

#[test]
fn every_answer_decodes_or_names_the_path() {
    assert_eq!(answer_decoders().len(), 19);
    let decoders = answer_decoders();
    proptest!(config(), |((i, bytes) in answer_case())| {
        (decoders[i].1)(&bytes)?;
    });
    some_were_read(&ANSWERS_OK);
}

/// The examples themselves decode (so the mutations start from valid answers).
#[test]
fn answer_examples_decode() {
    for (endpoint, decoder) in answer_decoders() {
        let schema = schema_of(endpoint.path(), false).expect("a 200 schema");
        let v = example_of(schema, 0);
        let bytes = serde_json::to_vec(&v).unwrap();
        decoder(&bytes).unwrap_or_else(|e| panic!("{endpoint:?}: {e}"));
    }
}

#[test]
fn every_webhook_body_parses_or_errs() {
    let events: Vec<WebhookEvent> = [
        "reveal_emails",
        "people_search_emails",
        "enrich_person_email",
        "reveal_phones",
        "people_search_phones",
        "enrich_person_phone",
        "enrich_companies",
        "enrich_people",
    ]
    .iter()
    .map(|n| WebhookEvent::from_name(n).expect("a known event"))
    .collect();
    let n = events.len();
    let case = (0..n).prop_flat_map(move |i| {
        let name = [
            "reveal_emails",
            "people_search_emails",
            "enrich_person_email",
            "reveal_phones",
            "people_search_phones",
            "enrich_person_phone",
            "enrich_companies",
            "enrich_people",
        ][i];
        let example = openapi()["webhooks"][name]
            .as_object()
            .and_then(|m| m.values().next())
            .and_then(|op| op.pointer("/requestBody/content/application~1json/schema"))
            .map(|s| example_of(s, 0))
            .unwrap_or(Value::Null);
        (Just(i), body(example))
    });
    proptest!(config(), |((i, bytes) in case)| {
        // Ok or a serde error: never a panic.
        let _ = events[i].parse_body(&bytes);
    });
}

// ---------------------------------------------------------------------------------------------
// The filter-set loader.

fn filter_set_text() -> impl Strategy<Value = String> {
    let endpoints: Vec<Value> = [
        "/v3/search/companies",
        "/v2/search/companies",
        "/v3/search/people",
        "/v2/search/people",
        "/v3/search/people/preview",
        "/v2/lookup/people",
        "",
    ]
    .iter()
    .map(|s| Value::String(s.to_string()))
    .collect();
    prop_oneof![
        ".{0,64}",
        prop::collection::vec(any::<u8>(), 0..128)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        json().prop_map(|v| v.to_string()),
        (
            prop::sample::select(endpoints),
            json(),
            json(),
            prop::option::of(json())
        )
            .prop_map(|(e, c, p, extra)| {
                let mut m = Map::new();
                m.insert("endpoint".into(), e);
                m.insert("companiesFilters".into(), c);
                m.insert("peopleFilters".into(), p);
                if let Some(x) = extra {
                    m.insert("size".into(), x);
                }
                serde_json::to_string_pretty(&Value::Object(m)).unwrap()
            }),
    ]
}

#[test]
fn filter_sets_load_or_say_what_is_wrong() {
    proptest!(config(), |(text in filter_set_text())| {
        match filter_set::parse("set.json", &text) {
            Ok(set) => {
                prop_assert!(set.endpoint.is_search(), "{:?}", set.endpoint);
                let again = filter_set::parse("set.json", &filter_set::render(&set));
                prop_assert_eq!(again.ok(), Some(set));
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(msg.starts_with("set.json"), "{}", msg);
                if let filter_set::FilterSetError::Syntax { line, column, .. } = e {
                    prop_assert!(line >= 1 && column <= text.len() + 1, "{}", msg);
                }
            }
        }
    });
}

// ---------------------------------------------------------------------------------------------
// The sandbox's request validation.

/// `parse_request` of `endpoint` as type `T`: Ok, or a 422 with entries at `body...`.
fn validates_or_422<T: DeserializeOwned + Validate>(
    endpoint: Endpoint,
    body: &[u8],
) -> Result<(), TestCaseError> {
    match parse_request::<T>(endpoint, &HeaderMap::new(), body) {
        Ok(_) => {
            REQUESTS_OK.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
        Err(Failure::Validation(entries)) => {
            prop_assert!(!entries.is_empty());
            for e in &entries {
                prop_assert_eq!(e.loc.first(), Some(&LocSegment::Key("body".into())));
                prop_assert!(!e.kind.is_empty() && !e.msg.is_empty(), "{:?}", e);
            }
            Ok(())
        }
        Err(other) => Err(TestCaseError::fail(format!(
            "{endpoint:?}: {} instead of 422",
            other.status()
        ))),
    }
}

type Validator = fn(Endpoint, &[u8]) -> Result<(), TestCaseError>;

fn request_validators() -> Vec<(Endpoint, Validator)> {
    use Endpoint::*;
    vec![
        (
            AutocompleteCompanies,
            validates_or_422::<AutocompleteCompaniesRequest>,
        ),
        (
            AutocompleteKeywords,
            validates_or_422::<AutocompleteKeywordsRequest>,
        ),
        (
            AutocompleteJobTitles,
            validates_or_422::<AutocompleteJobTitlesRequest>,
        ),
        (
            AutocompleteLocations,
            validates_or_422::<AutocompleteLocationsRequest>,
        ),
        (
            AutocompleteSkills,
            validates_or_422::<AutocompleteSkillsRequest>,
        ),
        (
            SearchCompaniesV2,
            validates_or_422::<SearchCompaniesV2Request>,
        ),
        (
            SearchCompaniesV3,
            validates_or_422::<SearchCompaniesV3Request>,
        ),
        (SearchPeopleV2, validates_or_422::<SearchPeopleV2Request>),
        (SearchPeopleV3, validates_or_422::<SearchPeopleV3Request>),
        (
            SearchPeoplePreview,
            validates_or_422::<SearchPeoplePreviewRequest>,
        ),
        (EnrichCompany, validates_or_422::<EnrichCompanyRequest>),
        (EnrichPerson, validates_or_422::<EnrichPersonRequest>),
        (LookupCompanies, validates_or_422::<LookupCompaniesRequest>),
        (LookupPeople, validates_or_422::<LookupPeopleRequest>),
        (RevealEmails, validates_or_422::<RevealEmailsRequest>),
        (RevealPhones, validates_or_422::<RevealPhonesRequest>),
        (WarmupCompanies, validates_or_422::<WarmupCompaniesRequest>),
    ]
}

#[test]
fn every_request_body_is_read_or_refused_with_a_422() {
    let validators = request_validators();
    let n = validators.len();
    let case = (0..n).prop_flat_map(|i| {
        let (endpoint, _) = request_validators()[i];
        let example = schema_of(endpoint.path(), true)
            .map(|s| example_of(s, 0))
            .unwrap_or(Value::Null);
        (Just(i), body(example))
    });
    proptest!(config(), |((i, bytes) in case)| {
        let (endpoint, check) = validators[i];
        check(endpoint, &bytes)?;
    });
    some_were_read(&REQUESTS_OK);
}
