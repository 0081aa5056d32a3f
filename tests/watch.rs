//! Issue 37, pay only for what is new: `search --new-only` and `prospect watch` against the
//! real sandbox over HTTP on 127.0.0.1 (the service `prospect serve` runs), with the binary
//! run as cron would run it (no terminal, stdout captured).

#[path = "sandbox_service/support.rs"]
mod support;

#[path = "support/cli_run.rs"]
mod cli_run;

use std::path::Path;
use std::sync::{Arc, Mutex};

use cli_run::{CLI, prospect, run, sandbox_with};
use prospect::api::client::Client;
use prospect::api::types::*;
use serde_json::{Value, json};
use support::client;

/// A set of the companies headquartered in Germany and Italy (about 1,000 in the sandbox);
/// a gathered `.de` or `.it` domain matches it.
const COMPANIES_SET: &str = r#"{"endpoint": "/v3/search/companies", "companiesFilters": {"primaryLocations": {"includeCountries": ["de", "it"]}}}"#;

/// A set of the people of Austrian companies (about 1,000); a gathered `.at` domain's people
/// match it.
const PEOPLE_SET: &str = r#"{"endpoint": "/v3/search/people", "companiesFilters": {"primaryLocations": {"includeCountries": ["at"]}}}"#;

/// Saves `text` as the set `name` in the config directory of `dir` (`filters/NAME.json`).
fn save_set(dir: &Path, name: &str, text: &str) {
    let filters = dir.join(".config/prospect/filters");
    std::fs::create_dir_all(&filters).unwrap();
    std::fs::write(filters.join(format!("{name}.json")), text).unwrap();
}

async fn standard(c: &Client) -> f64 {
    let b = c.credit_balance().await.unwrap();
    b.credits.map_or(f64::NAN, |p| p.one_time + p.recurrent)
}

/// Warms up `domains` and waits until the sandbox's gathering has added them.
async fn warm_up(c: &Client, domains: &[&str]) {
    let req = WarmupCompaniesRequest {
        domains: domains.iter().map(|d| d.to_string()).collect(),
    };
    c.warmup_companies(&req).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
}

fn lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

async fn search_total(c: &Client, body: Value) -> i64 {
    let req: SearchPeopleV3Request = serde_json::from_value(body).unwrap();
    c.search_people_v3(&req).await.unwrap().total.unwrap()
}

/// Done when 1: a set of about 1,000 companies run once; two matching domains warmed up; the
/// watch prints exactly those two and the balance falls by the price of two results. Done
/// when 3: a watch with nothing new prints nothing, exits 0 and spends nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_of_a_company_set_prints_and_pays_for_the_two_new_only() {
    let sb = sandbox_with(10_000).await;
    let dir = tempfile::tempdir().unwrap();
    let (d, cli) = (dir.path(), client(&sb, CLI));
    save_set(d, "de-it", COMPANIES_SET);
    let before = standard(&cli).await;
    let args = [
        "search",
        "companies",
        "--filters",
        "de-it",
        "--limit",
        "5000",
    ];
    let (code, out, err) = run(prospect(
        &sb.base_url,
        d,
        &[&args[..], &["--max-credits", "1000"]].concat(),
    ))
    .await;
    assert_eq!(code, 0, "{err}");
    let full = lines(&out).len();
    assert!((900..1300).contains(&full), "{full} companies");
    let full_cost = before - standard(&cli).await;
    assert!((full_cost - full as f64 * 0.2).abs() < 1e-6, "{full_cost}");

    // Nothing new: nothing printed, exit 0, nothing spent.
    let b0 = standard(&cli).await;
    let (code, out, err) = run(prospect(&sb.base_url, d, &["watch", "de-it"])).await;
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert_eq!(standard(&cli).await, b0);

    warm_up(&cli, &["neuwerkstatt.de", "lanternaviva.it"]).await;
    let b1 = standard(&cli).await;
    let (code, out, err) = run(prospect(&sb.base_url, d, &["watch", "de-it"])).await;
    assert_eq!(code, 0, "{err}");
    let rows = lines(&out);
    let mut got: Vec<&str> = rows.iter().map(|r| r["domain"].as_str().unwrap()).collect();
    got.sort();
    assert_eq!(got, ["lanternaviva.it", "neuwerkstatt.de"], "{out}");
    assert!(
        rows.iter()
            .all(|r| r["set"] == "de-it" && r["tab"] == "companies")
    );
    let rerun_cost = b1 - standard(&cli).await;
    assert!((rerun_cost - 0.4).abs() < 1e-6, "{rerun_cost}");
    eprintln!(
        "re-run cost / full run cost = {rerun_cost:.1} / {full_cost:.1} = {:.4}",
        rerun_cost / full_cost
    );

    // The runs are recorded: the plain run, the empty watch and the one with news.
    let (code, out, err) = run(prospect(
        &sb.base_url,
        d,
        &["watch", "--history", "de-it", "--format", "jsonl"],
    ))
    .await;
    assert_eq!(code, 0, "{err}");
    let runs = lines(&out);
    assert_eq!(runs.len(), 3, "{out}");
    assert_eq!(
        (runs[0]["new"].as_u64(), runs[0]["newOnly"].as_bool()),
        (Some(2), Some(true))
    );
    assert_eq!(runs[1]["new"], 0);
    assert_eq!(
        (runs[2]["new"].as_u64(), runs[2]["newOnly"].as_bool()),
        (Some(full as u64), Some(false))
    );
}

/// Done when 2: the same for a people set, with `excludePeopleIds`: the watch prints exactly
/// the people the two warmed-up companies brought, and pays for them alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_of_a_people_set_pays_for_the_new_people_only() {
    let sb = sandbox_with(10_000).await;
    let dir = tempfile::tempdir().unwrap();
    let (d, cli) = (dir.path(), client(&sb, CLI));
    save_set(d, "at-people", PEOPLE_SET);
    let body =
        json!({"companiesFilters": {"primaryLocations": {"includeCountries": ["at"]}}, "size": 1});
    let total_before = search_total(&client(&sb, support::RICH), body.clone()).await;
    let args = [
        "search",
        "people",
        "--filters",
        "at-people",
        "--limit",
        "5000",
        "--max-credits",
        "1000",
    ];
    let (code, out, err) = run(prospect(&sb.base_url, d, &args)).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines(&out).len() as i64, total_before);

    warm_up(&cli, &["bergkristall.at", "donauwelle.at"]).await;
    let new = search_total(&client(&sb, support::RICH), body).await - total_before;
    assert!(new > 0, "the gathered companies have people");
    let b1 = standard(&cli).await;
    let (code, out, err) = run(prospect(
        &sb.base_url,
        d,
        &["watch", "at-people", "--max-credits", "100"],
    ))
    .await;
    assert_eq!(code, 0, "{err}");
    let rows = lines(&out);
    assert_eq!(rows.len() as i64, new, "{out}");
    assert!(
        rows.iter().all(|r| ["bergkristall.at", "donauwelle.at"]
            .contains(&r["domain"].as_str().unwrap())
            && r["tab"] == "people"),
        "{out}"
    );
    let cost = b1 - standard(&cli).await;
    assert!((cost - new as f64 * 0.2).abs() < 1e-6, "{cost} for {new}");
}

/// Done when 4: over the excludes cap, the plan counts what will be paid again, and the run
/// pays exactly that (and prints none of it: nothing is new).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_the_excludes_cap_the_plan_counts_what_is_paid_again() {
    let sb = sandbox_with(10_000).await;
    let dir = tempfile::tempdir().unwrap();
    let (d, cli) = (dir.path(), client(&sb, CLI));
    save_set(d, "de-it", COMPANIES_SET);
    let args = [
        "search",
        "companies",
        "--filters",
        "de-it",
        "--limit",
        "5000",
        "--max-credits",
        "1000",
    ];
    let (code, out, err) = run(prospect(&sb.base_url, d, &args)).await;
    assert_eq!(code, 0, "{err}");
    let owned = lines(&out).len() as u64;
    let cap = owned - 40;
    let watch = |extra: &[&str]| {
        let cap = cap.to_string();
        let mut a = vec![
            "watch",
            "de-it",
            "--max-credits",
            "20",
            "--exclude-cap",
            cap.as_str(),
        ];
        a.extend_from_slice(extra);
        prospect(&sb.base_url, d, &a)
    };
    let (code, out, err) = run(watch(&["--dry-run", "--format", "json"])).await;
    assert_eq!(code, 0, "{err}");
    let plan: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(plan["newOnly"]["excluded"], cap);
    assert_eq!(plan["newOnly"]["notSent"], 40);
    let b0 = standard(&cli).await;
    let (code, out, err) = run(watch(&[])).await;
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let paid = b0 - standard(&cli).await;
    assert!((paid - 40.0 * 0.2).abs() < 1e-6, "{paid}");
    let (_, out, _) = run(prospect(
        &sb.base_url,
        d,
        &["watch", "--history", "de-it", "--format", "jsonl"],
    ))
    .await;
    assert_eq!(lines(&out)[0]["paidAgain"], 40, "{out}");
}

/// What the notify receiver saw: the bodies it accepted, and every attempt.
#[derive(Default)]
struct Seen {
    attempts: usize,
    delivered: Vec<Value>,
    tokens: Vec<String>,
}

/// A notify receiver on 127.0.0.1 that answers the first `fail` attempts 500, then 200.
async fn receiver(fail: usize) -> (String, Arc<Mutex<Seen>>) {
    use axum::{Json, Router, http::HeaderMap, http::StatusCode, routing::post};
    let seen = Arc::new(Mutex::new(Seen::default()));
    let s = seen.clone();
    let app = Router::new().route(
        "/hook",
        post(move |headers: HeaderMap, Json(body): Json<Value>| {
            let s = s.clone();
            async move {
                let mut s = s.lock().unwrap();
                s.attempts += 1;
                for (_, v) in headers.iter() {
                    s.tokens.push(v.to_str().unwrap_or("").to_string());
                }
                if s.attempts <= fail {
                    return StatusCode::INTERNAL_SERVER_ERROR;
                }
                s.delivered.push(body);
                StatusCode::OK
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, seen)
}

/// Done when 5: `--notify` gets one digest per run with news and none without; a receiver
/// that answers 500 twice then 200 gets it once. The API token never goes with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notify_posts_one_digest_per_run_with_news_through_two_failures() {
    let sb = sandbox_with(10_000).await;
    let dir = tempfile::tempdir().unwrap();
    let (d, cli) = (dir.path(), client(&sb, CLI));
    save_set(d, "de-it", COMPANIES_SET);
    let (url, seen) = receiver(2).await;
    let watch = || {
        prospect(
            &sb.base_url,
            d,
            &[
                "watch",
                "de-it",
                "--max-credits",
                "1000",
                "--limit",
                "5000",
                "--notify",
                &url,
            ],
        )
    };
    // The first run: everything is new.
    let (code, out, err) = run(watch()).await;
    assert_eq!(code, 0, "{err}");
    let first = lines(&out).len();
    {
        let s = seen.lock().unwrap();
        assert_eq!(
            (s.attempts, s.delivered.len()),
            (3, 1),
            "two 500s, then delivered once"
        );
        let digest = &s.delivered[0];
        assert_eq!(digest["set"], "de-it");
        assert_eq!(digest["new"], first);
        assert_eq!(digest["rows"].as_array().unwrap().len(), 10);
        assert!(
            digest["text"]
                .as_str()
                .unwrap()
                .starts_with("prospect watch: "),
            "{digest}"
        );
        assert!(
            s.tokens.iter().all(|t| !t.contains(CLI)),
            "the token went with it"
        );
    }
    // Nothing new: no digest.
    let (code, out, err) = run(watch()).await;
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert_eq!(seen.lock().unwrap().delivered.len(), 1);
    // News: one more.
    warm_up(&cli, &["kleinehandwerk.de"]).await;
    let (code, out, err) = run(watch()).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines(&out).len(), 1);
    let s = seen.lock().unwrap();
    assert_eq!(s.delivered.len(), 2);
    assert_eq!(s.delivered[1]["new"], 1);
    assert_eq!(
        s.delivered[1]["text"],
        "prospect watch: 1 new company for \"de-it\" (0.2 credits)"
    );
}
