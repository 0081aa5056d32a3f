//! Location autocomplete names real places (issue 10, item 7): a city is suggested only in the
//! country it belongs to. Sources that put a company's city in the wrong country (a startup
//! with a San Francisco office listed under its home country) must not make "San Francisco" a
//! city of nine countries or "London" a city of the US with no state.

use crate::support::*;
use serde_json::{Value, json};

/// The city suggestions for `query` (limit 15): `(name, countryCode, parentCode)`.
async fn cities(base: &str, query: &str) -> Vec<(String, String, String)> {
    let r = raw()
        .post(format!("{base}/v2/autocomplete/locations"))
        .header("x-api-token", RICH)
        .json(&json!({"query": query, "limit": 15}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let v: Value = r.json().await.unwrap();
    v["locations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["locationType"] == "4-city" || l["type"] == "4-city")
        .map(|l| {
            let s = |k: &str| l[k].as_str().unwrap_or("").to_string();
            (s("name"), s("countryCode"), s("parentCode"))
        })
        .collect()
}

/// The countries of the suggestions named exactly `name`.
fn countries_of(cs: &[(String, String, String)], name: &str) -> Vec<String> {
    cs.iter()
        .filter(|c| c.0 == name)
        .map(|c| c.1.clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cities_belong_to_their_real_country() {
    let h = start(vec![]).await;
    let b = h.base_url.as_str();
    let sf = cities(b, "San Francisco").await;
    assert_eq!(countries_of(&sf, "San Francisco"), vec!["us"], "{sf:?}");
    assert!(sf.iter().any(|c| c.2 == "US-CA"), "{sf:?}");
    let london = cities(b, "London").await;
    assert!(
        !london.iter().any(|c| c.1 == "us" && c.2 == "us"),
        "{london:?}"
    );
    let countries = countries_of(&london, "London");
    assert!(countries.contains(&"gb".to_string()), "{london:?}");
    // London, Ontario is a real London
    assert!(
        london.iter().any(|c| c.0 == "London" && c.2 == "CA-ON"),
        "{london:?}"
    );
    for (query, country) in [("Sydney", "au"), ("New York", "us"), ("Toronto", "ca")] {
        let cs = cities(b, query).await;
        let found = countries_of(&cs, query);
        assert!(!found.is_empty(), "{query}: {cs:?}");
        assert!(found.iter().all(|c| c == country), "{query}: {cs:?}");
    }
    h.shutdown().await;
}
