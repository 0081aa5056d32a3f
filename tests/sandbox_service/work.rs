//! The work of one request is bounded (item 5): a 1 MB autocomplete `name` or 10,000
//! `jobTitleKeywords` are cut before matching (engine `caps`), so hostile bodies are answered
//! about as fast as ordinary ones. Timed over HTTP against a debug build, so the bound is
//! loose: it separates milliseconds from seconds, not 20 ms from 50 ms (the benchmark
//! `cargo bench --bench sandbox -- --quick hostile` measures the release build).

use std::time::{Duration, Instant};

use crate::support::*;
use serde_json::{Value, json};

/// Wall time a hostile request may take here (debug build, shared machine).
const BOUND: Duration = Duration::from_millis(1500);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_bodies_cost_little() {
    let h = start(vec![]).await;
    let long = "x".repeat(1_000_000);
    let words: Vec<String> = (0..10_000)
        .map(|i| format!("engineer{i} manager"))
        .collect();
    let cases: Vec<(&str, &str, Value)> = vec![
        (
            "1 MB company name",
            "/v2/autocomplete/companies",
            json!({ "name": long }),
        ),
        (
            "1 MB keyword query",
            "/v2/autocomplete/keywords",
            json!({ "query": long }),
        ),
        (
            "10,000 jobTitleKeywords",
            "/v3/search/people",
            json!({ "size": 5, "peopleFilters": {"jobTitleKeywords": {"anyOf": words, "allOf": words}} }),
        ),
        (
            "10,000 job titles and names",
            "/v2/search/people",
            json!({ "size": 5, "peopleFilters": {"jobTitles": words, "names": words} }),
        ),
        (
            "10,000 skills",
            "/v3/search/people",
            json!({ "size": 5, "peopleFilters": {"skills": {"anyOf": words}} }),
        ),
    ];
    // warm up (the first request of a process pays for lazily built tables)
    let _ = raw()
        .post(format!("{}/v2/autocomplete/keywords", h.base_url))
        .header("x-api-token", RICH)
        .json(&json!({"query": "soft"}))
        .send()
        .await
        .unwrap();
    for (what, path, body) in cases {
        let body = body.to_string();
        let t = Instant::now();
        let r = raw()
            .post(format!("{}{path}", h.base_url))
            .header("x-api-token", RICH)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let _ = r.bytes().await.unwrap();
        let took = t.elapsed();
        eprintln!("{what}: {status} in {took:?}");
        assert_eq!(status, 200, "{what}");
        assert!(took < BOUND, "{what} took {took:?}");
    }
    h.shutdown().await;
}
