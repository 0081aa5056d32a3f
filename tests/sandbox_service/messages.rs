//! A 422 names the real problem (issue 10, item 8): the v3 `industries` filter given as a list
//! says it must be an object `{industries, mode}` (at the member, not at `.0`); `person: null`
//! says `person` must be an object; a `webhookUrl` is an absolute http(s) URL (README.md, "The
//! sandbox alone"), and the answer says whether it is not a URL at all (`url_parsing`) or has
//! another scheme (`url_scheme`).

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
            json!({"companiesFilters": {"employeeCountService": {"from": "abc"}}}),
            "float_parsing",
            "Input should be a valid number, unable to parse string as a number",
        ),
        (
            json!({"companiesFilters": {"yearFounded": {"from": true}}}),
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
