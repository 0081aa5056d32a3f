//! A 422 names the real problem (issue 10, item 8): the v3 `industries` filter given as a list
//! says it must be an object `{industries, mode}` (at the member, not at `.0`); `person: null`
//! says `person` must be an object; a `webhookUrl` is an absolute http(s) URL (README.md, "The
//! sandbox alone"), and the answer says whether it is not a URL at all (`url_parsing`) or has
//! another scheme (`url_scheme`).

use std::collections::HashSet;

use crate::support::*;
use serde_json::{Value, json};

/// POSTs `body` to `path` with the rich token: (status, JSON answer).
async fn post(base: &str, path: &str, body: &Value) -> (u16, Value) {
    let r = raw()
        .post(format!("{base}{path}"))
        .header("x-api-token", RICH)
        .json(body)
        .send()
        .await
        .unwrap();
    let s = r.status().as_u16();
    (s, r.json().await.unwrap_or(Value::Null))
}

/// `(status, type, loc joined with dots, msg)` of the first 422 entry.
async fn first(base: &str, path: &str, body: Value) -> (u16, String, String, String) {
    let (s, v) = post(base, path, &body).await;
    let e = &v["detail"][0];
    let loc: Vec<String> = e["loc"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|s| match s {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect();
    (
        s,
        e["type"].as_str().unwrap_or("").to_string(),
        loc.join("."),
        e["msg"].as_str().unwrap_or("").to_string(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn industries_as_a_list_must_be_an_object() {
    let h = start(vec![]).await;
    let b = h.base_url.as_str();
    for (path, body) in [
        (
            "/v3/search/companies",
            json!({"companiesFilters": {"industries": ["Biotechnology"]}}),
        ),
        (
            "/v3/search/people",
            json!({"companiesFilters": {"industries": ["Biotechnology", "Banking"]}}),
        ),
        (
            "/v2/search/companies",
            json!({"companiesFilters": {"industries": []}}),
        ),
    ] {
        let (s, kind, loc, msg) = first(b, path, body).await;
        assert_eq!(s, 422, "{path}");
        assert_eq!(kind, "model_attributes_type", "{path}: {msg}");
        assert_eq!(loc, "body.companiesFilters.industries", "{path}: {msg}");
        assert!(
            msg.ends_with("`industries` must be an object {industries, mode}"),
            "{path}: {msg}"
        );
    }
    // the object form is fine
    let (s, v) = post(
        b,
        "/v3/search/companies",
        &json!({"size": 1, "companiesFilters": {"industries": {"industries": ["Biotechnology"], "mode": "anyOf"}}}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn null_person_must_be_an_object() {
    let h = start(vec![]).await;
    let b = h.base_url.as_str();
    for body in [
        json!({"person": null}),
        json!({"person": null, "revealEmails": {"includeEmails": false}}),
        json!({"person": "someone"}),
    ] {
        let (s, kind, loc, msg) = first(b, "/v2/enrich/person", body.clone()).await;
        assert_eq!(
            (s, kind.as_str(), loc.as_str()),
            (422, "model_attributes_type", "body.person"),
            "{body}: {msg}"
        );
        assert!(
            msg.contains("`person` must be an object {"),
            "{body}: {msg}"
        );
    }
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_urls_are_http_urls() {
    let h = start(vec![]).await;
    let b = h.base_url.as_str();
    let ids = some_person_ids(&client(&h, RICH), 1).await;
    let cases = [
        ("nope", "url_parsing"),
        ("/relative/hook", "url_parsing"),
        ("http://", "url_parsing"),
        ("ftp://example.com/x", "url_scheme"),
        ("javascript:alert(1)", "url_scheme"),
    ];
    for (url, want) in cases {
        for path in ["/v2/reveal/emails", "/v2/reveal/phones"] {
            let body = json!({"personIds": [ids[0]], "webhookUrl": url});
            let (s, kind, loc, msg) = first(b, path, body).await;
            assert_eq!(
                (s, kind.as_str(), loc.as_str()),
                (422, want, "body.webhookUrl"),
                "{path} {url}: {msg}"
            );
        }
        let body = json!({
            "size": 1,
            "revealEmails": {"includeEmails": true, "webhookUrl": url},
        });
        let (s, kind, loc, msg) = first(b, "/v3/search/people", body).await;
        assert_eq!(
            (s, kind.as_str(), loc.as_str()),
            (422, want, "body.revealEmails.webhookUrl"),
            "{url}: {msg}"
        );
    }
    // the messages say what a webhook URL must be
    let (_, _, _, msg) = first(
        b,
        "/v2/reveal/emails",
        json!({"personIds": [ids[0]], "webhookUrl": "nope"}),
    )
    .await;
    assert!(msg.starts_with("Input should be a valid URL"), "{msg}");
    let (_, _, _, msg) = first(
        b,
        "/v2/reveal/emails",
        json!({"personIds": [ids[0]], "webhookUrl": "ftp://example.com/x"}),
    )
    .await;
    assert_eq!(msg, "URL scheme should be 'http' or 'https'");
    h.shutdown().await;
}

/// Issue 18, "Fidelity": a number member given a string, a boolean or a list is refused in
/// pydantic's words (`float_parsing`, `float_type`), never with serde's "invalid type: …,
/// expected a number".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn number_members_are_refused_in_pydantic_words() {
    let h = start(vec![]).await;
    let cases = [
        (
            // openapi `FromTo.from` is an integer.
            json!({"companiesFilters": {"employeeCountService": {"from": "abc"}}}),
            "int_parsing",
            "Input should be a valid integer, unable to parse string as an integer",
        ),
        (
            json!({"companiesFilters": {"yearFounded": {"from": {"year": 1999}}}}),
            "float_type",
            "Input should be a valid number",
        ),
        (
            json!({"companiesFilters": {"mobileAppsFilter": {"count": {"from": [1]}}}}),
            "float_type",
            "Input should be a valid number",
        ),
    ];
    for (body, kind, text) in cases {
        let (status, t, _, msg) = first(&h.base_url, "/v3/search/companies", body.clone()).await;
        assert_eq!(status, 422, "{body}");
        assert_eq!((t.as_str(), msg.as_str()), (kind, text), "{body}");
        assert!(
            !msg.contains("invalid type") && !msg.contains("expected"),
            "{msg}"
        );
    }
    h.shutdown().await;
}

/// Issue 18, "Fidelity": what pydantic's lax mode accepts is accepted: an integer, a number or a
/// boolean given as a string of one, a boolean for an integer or a number, 1 and 0 for a
/// boolean; what it does not read is refused in its words (`int_parsing`, `float_parsing`,
/// `bool_parsing`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lax_scalars_are_read_as_pydantic_reads_them() {
    let h = start(vec![]).await;
    let n = |v: &Value, key: &str| v[key].as_array().map_or(0, Vec::len);
    for (body, want) in [
        (json!({"size": "10"}), 10),
        (json!({"size": " 7 "}), 7),
        (json!({"size": "1_2"}), 12),
        (json!({"size": true}), 1),
        (json!({"size": 3.0}), 3),
    ] {
        let (status, v) = post(&h.base_url, "/v3/search/companies", &body).await;
        assert_eq!(status, 200, "{body}: {v}");
        assert_eq!(n(&v, "companies"), want, "{body}");
    }
    for flag in [
        json!("true"),
        json!("YES"),
        json!("on"),
        json!(1),
        json!("1"),
    ] {
        let body = json!({"size": 5, "onePersonPerDomain": flag});
        let (status, v) = post(&h.base_url, "/v2/search/people", &body).await;
        assert_eq!(status, 200, "{body}: {v}");
        let domains: HashSet<&str> = v["people"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["domain"].as_str().unwrap())
            .collect();
        assert_eq!(
            domains.len(),
            n(&v, "people"),
            "one person a domain: {body}"
        );
    }
    let body = json!({"size": 3, "jobTitleThreshold": "0.5"});
    let (status, v) = post(&h.base_url, "/v3/search/people", &body).await;
    assert_eq!(status, 200, "{body}: {v}");
    for (path, body, kind, text) in [
        (
            "/v3/search/companies",
            json!({"size": "ten"}),
            "int_parsing",
            "Input should be a valid integer, unable to parse string as an integer",
        ),
        (
            "/v3/search/companies",
            json!({"size": "1.5"}),
            "int_parsing",
            "Input should be a valid integer, unable to parse string as an integer",
        ),
        (
            "/v2/search/people",
            json!({"onePersonPerDomain": "maybe"}),
            "bool_parsing",
            "Input should be a valid boolean, unable to interpret input",
        ),
        (
            "/v2/search/people",
            json!({"onePersonPerDomain": 2}),
            "bool_parsing",
            "Input should be a valid boolean, unable to interpret input",
        ),
        (
            "/v3/search/people",
            json!({"jobTitleThreshold": "high"}),
            "float_parsing",
            "Input should be a valid number, unable to parse string as a number",
        ),
    ] {
        let (status, v) = post(&h.base_url, path, &body).await;
        assert_eq!(status, 422, "{body}: {v}");
        assert_eq!(v["detail"][0]["type"], kind, "{body}: {v}");
        assert_eq!(v["detail"][0]["msg"], text, "{body}");
    }
    h.shutdown().await;
}

/// Issue 18, "Fidelity": one 422 lists every problem of a body, as pydantic does: a wrong
/// shape no longer hides a wrong type, an unknown member or a bound elsewhere in the body.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_422_lists_every_problem_of_a_body() {
    let h = start(vec![]).await;
    let listed = |v: &Value| -> Vec<(String, String)> {
        v["detail"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let loc: Vec<String> = e["loc"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().map_or_else(|| s.to_string(), str::to_string))
                    .collect();
                (e["type"].as_str().unwrap().to_string(), loc.join("."))
            })
            .collect()
    };
    let body = json!({"size": "x", "companiesFilters": {"industries": 5}, "bogus": 1});
    let (status, v) = post(&h.base_url, "/v3/search/companies", &body).await;
    assert_eq!(status, 422);
    let got = listed(&v);
    for want in [
        ("model_attributes_type", "body.companiesFilters.industries"),
        ("int_parsing", "body.size"),
        ("extra_forbidden", "body.bogus"),
    ] {
        assert!(
            got.contains(&(want.0.to_string(), want.1.to_string())),
            "{want:?} in {got:?}"
        );
    }
    assert_eq!(got.len(), 3, "each place once: {got:?}");
    let body = json!({"size": 99999, "companiesFilters": {"industries": 5}});
    let (status, v) = post(&h.base_url, "/v3/search/companies", &body).await;
    assert_eq!(status, 422);
    // In the model's field order (openapi.json's: `size` before `companiesFilters`), as
    // pydantic lists them (issue 38, item 12).
    assert_eq!(
        listed(&v),
        [
            ("less_than_equal".to_string(), "body.size".to_string()),
            (
                "model_attributes_type".to_string(),
                "body.companiesFilters.industries".to_string()
            ),
        ]
    );
    h.shutdown().await;
}
