//! Hostile and malformed bodies: a clear 4xx on every endpoint, 422 details in the model order, webhook URLs checked alike.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_bodies_get_a_clear_4xx_on_every_endpoint() {
    let h = start(vec![]).await;
    let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let bodies: Vec<String> = vec![
        String::new(),
        "null".into(),
        "[]".into(),
        "\"text\"".into(),
        "{\"size\": 1e309}".into(),
        "{\"size\": -5, \"from\": 99999999999999999999}".into(),
        "{\"size\": 10000000}".into(),
        "{\"searchAfter\": \"%%%not-a-cursor%%%\"}".into(),
        "{\"name\": \"\\u0000\\ud83d\", \"query\": 5}".into(),
        "{\"companiesFilters\": {\"lookalikeDomains\": [1, 2, 3]}}".into(),
        "{\"personIds\": [], \"webhookUrl\": \"javascript:alert(1)\"}".into(),
        deep,
        "{\"a\":".repeat(200),
        "\u{feff}{}".into(),
    ];
    let paths = [
        "/v2/autocomplete/companies",
        "/v2/autocomplete/keywords",
        "/v2/autocomplete/job-titles",
        "/v2/autocomplete/locations",
        "/v2/autocomplete/skills",
        "/v2/search/companies",
        "/v3/search/companies",
        "/v2/search/people",
        "/v3/search/people",
        "/v3/search/people/preview",
        "/v2/enrich/company",
        "/v2/enrich/person",
        "/v2/lookup/companies",
        "/v2/lookup/people",
        "/v2/reveal/emails",
        "/v2/reveal/phones",
        "/v2/warmup/companies",
    ];
    for p in paths {
        for b in &bodies {
            let r = raw()
                .post(format!("{}{p}", h.base_url))
                .header("x-api-token", RICH)
                .header("content-type", "application/json")
                .body(b.clone())
                .send()
                .await
                .unwrap();
            let s = r.status().as_u16();
            assert!(
                (400..500).contains(&s),
                "{p} {:?} → {s}",
                &b[..b.len().min(40)]
            );
        }
    }
    // a body that is not JSON by its content type
    let r = raw()
        .post(format!("{}/v3/search/companies", h.base_url))
        .header("x-api-token", RICH)
        .header("content-type", "text/plain")
        .body("size=1")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 422);
    assert!(client(&h, RICH).credit_balance().await.is_ok());
    h.shutdown().await;
}

/// Issue 38, item 12: one 422 lists a webhook URL's problem beside the body's others, and every
/// element of a list, entry for entry as pydantic 2.13 lists them for the same body (types
/// and locations; pydantic: `personIds.0 string_type`, `personIds.1 string_type`,
/// `webhookUrl url_scheme`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_422_lists_the_webhook_url_beside_every_element() {
    let sb = start(vec![]).await;
    let (status, _, v, _) = call(
        reqwest::Method::POST,
        format!("{}/v2/reveal/emails", sb.base_url),
        Some(RICH),
        Some(r#"{"personIds": [1, 2], "webhookUrl": "ftp://hooks.example/x"}"#),
    )
    .await;
    assert_eq!(status, 422, "{v}");
    let got = types_and_locs(&v);
    let want = [
        ("string_type", "body.personIds.0"),
        ("string_type", "body.personIds.1"),
        ("url_scheme", "body.webhookUrl"),
    ];
    assert_eq!(
        got,
        want.map(|(t, l)| (t.to_string(), l.to_string())),
        "{v}"
    );
}

/// Issue 38, item 12: an unknown top-level member no longer hides the enum checks of nested
/// filters: one 422 lists both, in pydantic's order (the members' problems, then the unknown).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_member_does_not_hide_nested_enum_problems() {
    let sb = start(vec![]).await;
    let (status, _, v, _) = call(
        reqwest::Method::POST,
        format!("{}/v3/search/companies", sb.base_url),
        Some(RICH),
        Some(r#"{"bogus": 1, "companiesFilters": {"companySizes": ["huge"]}}"#),
    )
    .await;
    assert_eq!(status, 422, "{v}");
    let got = types_and_locs(&v);
    let want = [
        ("enum", "body.companiesFilters.companySizes.0"),
        ("extra_forbidden", "body.bogus"),
    ];
    assert_eq!(
        got,
        want.map(|(t, l)| (t.to_string(), l.to_string())),
        "{v}"
    );
}

/// Issue 38, item 12: a segmentation body with three problems lists all three, in the model's
/// field order, entry for entry as pydantic 2.13 lists them (validated as FastAPI does, on the
/// parsed body, with `SegmentationInput`'s fields and its feature enum): a member of the wrong
/// type no longer hides the enum check of another, an integer in an enum list is `enum`, and
/// members come in openapi.json's order (`positiveDomains` before `negativeDomains`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_segmentation_body_lists_every_problem_in_the_model_order() {
    let sb = start(vec![]).await;
    let cases: [(&str, &[(&str, &str)]); 4] = [
        (
            r#"{"domains": "x", "numberOfSegmentsMode": "many", "leadScoringFeatures": ["bogus"]}"#,
            &[
                ("list_type", "body.domains"),
                ("enum", "body.leadScoringFeatures.0"),
                ("int_parsing", "body.numberOfSegmentsMode"),
            ],
        ),
        (
            r#"{"domains": [1], "positiveDomains": [2], "negativeDomains": [3]}"#,
            &[
                ("string_type", "body.domains.0"),
                ("string_type", "body.positiveDomains.0"),
                ("string_type", "body.negativeDomains.0"),
            ],
        ),
        (
            r#"{"numberOfSegmentsMode": 1.5, "leadScoringFeatures": "x"}"#,
            &[
                ("missing", "body.domains"),
                ("list_type", "body.leadScoringFeatures"),
                ("int_from_float", "body.numberOfSegmentsMode"),
            ],
        ),
        (
            r#"{"domains": ["a.com"], "leadScoringFeatures": ["bogus", "industry", 3]}"#,
            &[
                ("enum", "body.leadScoringFeatures.0"),
                ("enum", "body.leadScoringFeatures.1"),
                ("enum", "body.leadScoringFeatures.2"),
            ],
        ),
    ];
    for (body, want) in cases {
        let (status, _, v, _) = call(
            reqwest::Method::POST,
            format!("{}/v2/segmentation", sb.base_url),
            Some(RICH),
            Some(body),
        )
        .await;
        assert_eq!(status, 422, "{body}: {v}");
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(t, l)| (t.to_string(), l.to_string()))
            .collect();
        assert_eq!(types_and_locs(&v), want, "{body}: {v}");
    }
}

/// Issue 38, item 14: a `webhookUrl` is checked by one rule on every endpoint that takes one,
/// in pydantic `HttpUrl`'s words: an empty one is `url_parsing` "input is empty" on a reveal
/// and on a batch enrichment alike (it was `string_too_short` on reveals), a relative one
/// "relative URL without a base", another scheme `url_scheme`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_url_is_checked_the_same_everywhere() {
    let sb = start(vec![]).await;
    let bodies = |url: &str| {
        [
            (
                "/v2/reveal/emails",
                json!({"personIds": ["p1"], "webhookUrl": url}),
            ),
            (
                "/v2/reveal/phones",
                json!({"personIds": ["p1"], "webhookUrl": url}),
            ),
            (
                "/v2/enrich/companies",
                json!({"companyDataMapping": {"a.com": {"domain": "a.com"}}, "webhookUrl": url}),
            ),
        ]
    };
    for (url, kind, msg) in [
        (
            "",
            "url_parsing",
            "Input should be a valid URL, input is empty",
        ),
        (
            "hooks/x",
            "url_parsing",
            "Input should be a valid URL, relative URL without a base",
        ),
        (
            "ftp://hooks.example/x",
            "url_scheme",
            "URL scheme should be 'http' or 'https'",
        ),
    ] {
        for (path, body) in bodies(url) {
            let (status, _, v, _) = call(
                reqwest::Method::POST,
                format!("{}{path}", sb.base_url),
                Some(RICH),
                Some(&body.to_string()),
            )
            .await;
            assert_eq!(status, 422, "{path} {url:?}: {v}");
            let hit = v["detail"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["loc"] == json!(["body", "webhookUrl"]))
                .unwrap_or_else(|| panic!("{path} {url:?}: {v}"));
            assert_eq!(
                (hit["type"].as_str(), hit["msg"].as_str()),
                (Some(kind), Some(msg)),
                "{path} {url:?}"
            );
        }
    }
}
