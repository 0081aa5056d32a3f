//! Request bodies are read as the service's pydantic models read them (openapi.json shapes):
//! every object must be a JSON object (item 2), integers accept `10.0` and `1e2` but not
//! `10.5` or `1e20` (item 3), `null` is refused where the schema does not allow it (item 4),
//! and a 422 names the real problem (item 8).

use crate::support::*;
use serde_json::{Value, json};

/// POSTs `body` to `path` with the rich token: (status, JSON answer).
async fn post(base: &str, path: &str, body: &str) -> (u16, Value) {
    let r = raw()
        .post(format!("{base}{path}"))
        .header("x-api-token", RICH)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let s = r.status().as_u16();
    (s, r.json().await.unwrap_or(Value::Null))
}

/// The `(type, loc)` of the first 422 entry, loc joined with dots.
fn first(v: &Value) -> (String, String) {
    let e = &v["detail"][0];
    let loc: Vec<String> = e["loc"]
        .as_array()
        .unwrap_or(&Vec::new())
        .iter()
        .map(|s| match s {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect();
    (e["type"].as_str().unwrap_or("").to_string(), loc.join("."))
}

async fn balance(base: &str) -> f64 {
    let r = raw()
        .get(format!("{base}/v2/credits/balance"))
        .header("x-api-token", RICH)
        .send()
        .await
        .unwrap();
    let v: Value = r.json().await.unwrap();
    v["credits"]["oneTime"].as_f64().unwrap() + v["credits"]["recurrent"].as_f64().unwrap()
}

/// The start of an answer, for assertion messages.
fn short(v: &Value) -> String {
    v.to_string().chars().take(300).collect()
}

const DICT: &str = "Input should be a valid dictionary or object to extract fields from";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arrays_are_not_objects() {
    let h = start(vec![]).await;
    let b = h.base_url.as_str();
    for path in ["/v3/search/companies", "/v2/search/companies"] {
        let (s, v) = post(b, path, r#"{"companiesFilters": [["stripe.com"]]}"#).await;
        assert_eq!(s, 422, "{path} {}", short(&v));
        assert_eq!(
            first(&v),
            (
                "model_attributes_type".into(),
                "body.companiesFilters".into()
            ),
            "{}",
            short(&v)
        );
        assert!(v["detail"][0]["msg"].as_str().unwrap().starts_with(DICT));
    }
    // nested objects and objects inside arrays
    let (s, v) = post(
        b,
        "/v2/search/companies",
        r#"{"companiesFilters": {"yearFounded": [1990, 2000]}}"#,
    )
    .await;
    assert_eq!(
        (s, first(&v)),
        (
            422,
            (
                "model_attributes_type".into(),
                "body.companiesFilters.yearFounded".into()
            )
        )
    );
    let (s, v) = post(
        b,
        "/v2/search/people",
        r#"{"companiesFilters": {"cities": [["Berlin", "de"]]}}"#,
    )
    .await;
    assert_eq!(
        (s, first(&v)),
        (
            422,
            (
                "model_attributes_type".into(),
                "body.companiesFilters.cities.0".into()
            )
        )
    );
    // enrich person with an array for `person`: refused, nothing charged
    let ids = some_person_ids(&client(&h, RICH), 1).await;
    let before = balance(b).await;
    let (s, v) = post(
        b,
        "/v2/enrich/person",
        &json!({"person": [ids[0]]}).to_string(),
    )
    .await;
    assert_eq!(
        (s, first(&v)),
        (422, ("model_attributes_type".into(), "body.person".into()))
    );
    assert_eq!(balance(b).await, before);
    // and the object form still works and is charged
    let (s, _) = post(
        b,
        "/v2/enrich/person",
        &json!({"person": {"id": ids[0]}}).to_string(),
    )
    .await;
    assert_eq!(s, 200);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn integers_as_pydantic_reads_them() {
    let h = start(vec![]).await;
    let b = h.base_url.as_str();
    for body in [
        r#"{"size": 10.0}"#,
        r#"{"size": 1e1}"#,
        r#"{"size": 0.1e2}"#,
    ] {
        let (s, v) = post(b, "/v3/search/companies", body).await;
        assert_eq!(s, 200, "{body}: {}", short(&v));
        assert_eq!(v["companies"].as_array().unwrap().len(), 10, "{body}");
    }
    let (s, v) = post(b, "/v3/search/companies", r#"{"size": 10.5}"#).await;
    assert_eq!(
        (s, first(&v)),
        (422, ("int_from_float".into(), "body.size".into()))
    );
    assert_eq!(
        v["detail"][0]["msg"],
        "Input should be a valid integer, got a number with a fractional part"
    );
    // Issue 38, item 14: a string of an integer with a point and zeros is that integer, as
    // pydantic 2.13 reads it; one with other decimals, a bare point or an exponent is not.
    for body in [
        r#"{"size": "10.0"}"#,
        r#"{"size": "10.00"}"#,
        r#"{"size": " +10.0 "}"#,
        r#"{"size": "1_0"}"#,
    ] {
        let (s, v) = post(b, "/v3/search/companies", body).await;
        assert_eq!(s, 200, "{body}: {}", short(&v));
        assert_eq!(v["companies"].as_array().unwrap().len(), 10, "{body}");
    }
    for text in ["10.5", "10.", "1e1", ".0"] {
        let (s, v) = post(
            b,
            "/v3/search/companies",
            &format!(r#"{{"size": "{text}"}}"#),
        )
        .await;
        assert_eq!(
            (s, first(&v)),
            (422, ("int_parsing".into(), "body.size".into())),
            "{text}"
        );
    }
    // Beyond 64 bits an integer literal is still an integer (a Python int has no bound): its
    // bound says so; a float that large does not fit an integer (`int_parsing_size`), one
    // below 2^63 meets the bound (pydantic 2.13, entry for entry).
    for (big, kind) in [
        ("1e20", "int_parsing_size"),
        ("9.3e18", "int_parsing_size"),
        ("-1.5e300", "int_parsing_size"),
        ("9.2e18", "less_than_equal"),
        ("1e18", "less_than_equal"),
        ("123456789012345678901234567890", "less_than_equal"),
        ("\"99999999999999999999999\"", "less_than_equal"),
    ] {
        let (s, v) = post(b, "/v3/search/companies", &format!(r#"{{"size": {big}}}"#)).await;
        assert_eq!(
            (s, first(&v)),
            (422, (kind.into(), "body.size".into())),
            "{big}"
        );
    }
    // integer range bounds
    let (s, v) = post(
        b,
        "/v3/search/companies",
        r#"{"companiesFilters": {"yearFounded": {"from": 1990.5}}}"#,
    )
    .await;
    assert_eq!(
        (s, first(&v)),
        (
            422,
            (
                "int_from_float".into(),
                "body.companiesFilters.yearFounded.from".into()
            )
        )
    );
    let (s, v) = post(
        b,
        "/v3/search/companies",
        r#"{"size": 3, "companiesFilters": {"yearFounded": {"from": 1990.0, "to": 2e3}}}"#,
    )
    .await;
    assert_eq!(s, 200, "{}", short(&v));
    let years: Vec<i64> = v["companies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["company"]["yearFounded"].as_i64().unwrap())
        .collect();
    assert!(years.iter().all(|y| (1990..=2000).contains(y)), "{years:?}");
    // the autocomplete `limit` too
    let (s, v) = post(
        b,
        "/v2/autocomplete/keywords",
        r#"{"query": "soft", "limit": 2.0}"#,
    )
    .await;
    assert_eq!((s, v["keywords"].as_array().map(Vec::len)), (200, Some(2)));
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn null_only_where_the_schema_allows_it() {
    let h = start(vec![]).await;
    let b = h.base_url.as_str();
    // nullable members: null is absent
    for body in [
        r#"{"companiesFilters": null, "size": 2}"#,
        r#"{"size": 2, "searchAfter": null, "peopleFilters": null, "fields": null}"#,
    ] {
        let (s, v) = post(b, "/v3/search/companies", body).await;
        assert_eq!(s, 200, "{body}: {}", short(&v));
    }
    let cases: [(&str, &str, (&str, &str)); 7] = [
        (
            "/v3/search/companies",
            r#"{"size": null}"#,
            ("int_type", "body.size"),
        ),
        (
            "/v2/search/people",
            r#"{"onePersonPerDomain": null}"#,
            ("bool_type", "body.onePersonPerDomain"),
        ),
        (
            "/v2/autocomplete/companies",
            r#"{"name": null}"#,
            ("string_type", "body.name"),
        ),
        (
            "/v2/autocomplete/locations",
            r#"{"query": "ber", "limit": null}"#,
            ("int_type", "body.limit"),
        ),
        (
            "/v2/enrich/person",
            r#"{"person": null}"#,
            ("model_attributes_type", "body.person"),
        ),
        (
            "/v3/search/companies",
            r#"{"companiesFilters": {"industries": {"industries": ["Biotechnology"], "mode": null}}}"#,
            ("enum", "body.companiesFilters.industries.mode"),
        ),
        (
            "/v2/lookup/companies",
            r#"{"domains": ["stripe.com", null]}"#,
            ("string_type", "body.domains.1"),
        ),
    ];
    for (path, body, (kind, loc)) in cases {
        let (s, v) = post(b, path, body).await;
        assert_eq!(
            (s, first(&v)),
            (422, (kind.to_string(), loc.to_string())),
            "{path} {body}: {}",
            short(&v)
        );
    }
    h.shutdown().await;
}
