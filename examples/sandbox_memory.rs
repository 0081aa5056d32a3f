//! Memory of the sandbox under concurrency (issue 10, item 6): 50 bursts of 200 concurrent
//! mixed searches (lookalike and filtered company searches v2/v3, people searches v2/v3) over
//! HTTP against an in-process sandbox, printing `VmRSS` and `VmHWM` of `/proc/self/status`
//! (MB) after loading and every 10 bursts. Target: `VmRSS` ≤ 400 MB at the end.
//!
//! ```sh
//! cargo run --release --example sandbox_memory            # 50 bursts of 200
//! cargo run --release --example sandbox_memory -- 10 100  # 10 bursts of 100
//! ```
//!
//! Exits with status 1 when the final `VmRSS` is above 400 MB.

use std::time::Instant;

use prospect::sandbox::service::accounts::AccountSpec;
use prospect::sandbox::service::{SandboxConfig, spawn};
use serde_json::{Value, json};

/// `VmRSS` and `VmHWM` of this process in MB.
fn memory_mb() -> (f64, f64) {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        s.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(f64::NAN, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// The mixed searches, by path and body; burst request `i` sends `mix[i % len]`.
fn mix() -> Vec<(&'static str, Value)> {
    let seeds = ["stripe.com", "docker.com", "shopify.com"];
    vec![
        (
            "/v3/search/companies",
            json!({"size": 50, "companiesFilters": {"lookalikeDomains": seeds}}),
        ),
        (
            "/v2/search/companies",
            json!({"size": 50, "companiesFilters": {"lookalikeDomains": seeds}}),
        ),
        (
            "/v3/search/companies",
            json!({"size": 100, "companiesFilters": {"primaryLocations": {"includeCountries": ["us", "de"]}, "yearFounded": {"from": 2000}}}),
        ),
        (
            "/v2/search/companies",
            json!({"size": 100, "companiesFilters": {"primaryCountries": ["us", "gb"], "companySizes": ["51-200", "201-500"]}}),
        ),
        (
            "/v2/search/people",
            json!({"size": 50, "companiesFilters": {"lookalikeDomains": seeds}, "peopleFilters": {"seniorities": ["C-Level", "VP"]}}),
        ),
        (
            "/v3/search/people",
            json!({"size": 50, "peopleFilters": {"jobTitleKeywords": {"anyOf": ["engineer", "manager"]}}}),
        ),
        (
            "/v3/search/companies",
            json!({"size": 1000, "companiesFilters": {"lookalikeDomains": seeds, "companyMatchingMode": "broad"}}),
        ),
    ]
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let bursts = args.first().copied().unwrap_or(50);
    let concurrency = args.get(1).copied().unwrap_or(200);
    let token = "memory-token";
    let sandbox = spawn(SandboxConfig {
        accounts: vec![AccountSpec::ample(token)],
        rate_per_minute: u32::MAX,
        daily_limit: u32::MAX,
        ..SandboxConfig::default()
    })
    .await
    .expect("the sandbox starts");
    let (rss, hwm) = memory_mb();
    println!("loaded: VmRSS {rss:.0} MB, VmHWM {hwm:.0} MB");
    let client = reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(concurrency)
        .build()
        .expect("a client");
    let mix = mix();
    let started = Instant::now();
    let mut failures = 0usize;
    for burst in 1..=bursts {
        let calls = (0..concurrency).map(|i| {
            let (path, body) = &mix[(burst + i) % mix.len()];
            let req = client
                .post(format!("{}{path}", sandbox.base_url))
                .header("x-api-token", token)
                .json(body);
            async move {
                match req.send().await {
                    Ok(r) if r.status().is_success() => r.bytes().await.map_err(|e| e.to_string()),
                    Ok(r) => {
                        let s = r.status();
                        Err(format!(
                            "{path}: {s} {}",
                            r.text().await.unwrap_or_default()
                        ))
                    }
                    Err(e) => Err(format!("{path}: {e}")),
                }
                .map(|_| ())
            }
        });
        for r in futures::future::join_all(calls).await {
            if let Err(e) = r {
                if failures < 5 {
                    eprintln!("failure: {}", e.chars().take(400).collect::<String>());
                }
                failures += 1;
            }
        }
        if burst % 10 == 0 || burst == bursts {
            let (rss, hwm) = memory_mb();
            println!(
                "after {burst} bursts of {concurrency}: VmRSS {rss:.0} MB, VmHWM {hwm:.0} MB ({:.1} s, {failures} failed)",
                started.elapsed().as_secs_f64()
            );
        }
    }
    sandbox.shutdown().await;
    let (rss, hwm) = memory_mb();
    println!("final: VmRSS {rss:.0} MB, VmHWM {hwm:.0} MB");
    if rss > 400.0 || failures > 0 {
        std::process::exit(1);
    }
}
