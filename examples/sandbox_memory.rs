//! Memory of the sandbox under concurrency (issue 10, item 6): 50 bursts of 200 concurrent
//! mixed searches (lookalike and filtered company searches v2/v3, people searches v2/v3) over
//! HTTP, printing `VmRSS` and `VmHWM` (MB) of the sandbox after loading, every 10 bursts and
//! at the end: right after the last burst, and 1 s later (the figure checked). Target: the
//! sandbox's `VmRSS` ≤ 400 MB at the end.
//!
//! The sandbox runs in a child process (this example started with `--serve`), so its figures
//! are its own: the 200 client connections and the answers they read (about 100 MB more at
//! the peak) are this process's, printed beside them.
//!
//! ```sh
//! cargo run --release --example sandbox_memory            # 50 bursts of 200
//! cargo run --release --example sandbox_memory -- 10 100  # 10 bursts of 100
//! ```
//!
//! Exits with status 1 when a request fails or the sandbox's final `VmRSS` is above 400 MB.

/// The process allocator of the binary, mimalloc, so figures match `prospect`'s own.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::{BufRead, Read};
use std::time::Instant;

use prospect::sandbox::service::accounts::AccountSpec;
use prospect::sandbox::service::{SandboxConfig, spawn};
use serde_json::{Value, json};

/// The token of the account the searches use.
const TOKEN: &str = "memory-token";

/// `VmRSS` and `VmHWM` in MB of process `pid` (`"self"` for this one).
fn memory_mb(pid: &str) -> (f64, f64) {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        s.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(f64::NAN, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// `--serve`: runs the sandbox, prints its base URL, serves until standard input closes.
async fn serve() {
    let sandbox = spawn(SandboxConfig {
        accounts: vec![AccountSpec::ample(TOKEN)],
        rate_per_minute: u32::MAX,
        daily_limit: u32::MAX,
        ..SandboxConfig::default()
    })
    .await
    .expect("the sandbox starts");
    println!("{}", sandbox.base_url);
    tokio::task::spawn_blocking(|| std::io::stdin().read_to_end(&mut Vec::new()))
        .await
        .ok();
    sandbox.shutdown().await;
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
    if std::env::args().any(|a| a == "--serve") {
        return serve().await;
    }
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let bursts = args.first().copied().unwrap_or(50);
    let concurrency = args.get(1).copied().unwrap_or(200);
    let mut child = std::process::Command::new(std::env::current_exe().expect("own path"))
        .arg("--serve")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the sandbox process starts");
    let pid = child.id().to_string();
    let mut base_url = String::new();
    std::io::BufReader::new(child.stdout.take().expect("piped"))
        .read_line(&mut base_url)
        .expect("the sandbox prints its address");
    let base_url = base_url.trim().to_string();
    let report = |when: &str| {
        let (rss, hwm) = memory_mb(&pid);
        let (own, own_hwm) = memory_mb("self");
        println!(
            "{when}: sandbox VmRSS {rss:.0} MB, VmHWM {hwm:.0} MB (client process: {own:.0} MB, peak {own_hwm:.0} MB)"
        );
        rss
    };
    report("loaded");
    let client = reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(concurrency)
        .build()
        .expect("a client");
    let mix = mix();
    let started = Instant::now();
    let mut failures = 0usize;
    let mut rss = f64::NAN;
    for burst in 1..=bursts {
        let calls = (0..concurrency).map(|i| {
            let (path, body) = &mix[(burst + i) % mix.len()];
            let req = client
                .post(format!("{base_url}{path}"))
                .header("x-api-token", TOKEN)
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
            rss = report(&format!(
                "after {burst} bursts of {concurrency} ({:.1} s, {failures} failed)",
                started.elapsed().as_secs_f64()
            ));
        }
    }
    // The steady state once the bursts are over: what the sandbox keeps, not what the last
    // burst still held (freed memory is handed back after it has been unused for a moment).
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    let settled = report("1 s after the last burst");
    println!("right after the last burst: sandbox VmRSS {rss:.0} MB");
    rss = settled;
    drop(child.stdin.take());
    child.wait().ok();
    println!(
        "final: sandbox VmRSS {rss:.0} MB after {bursts} bursts of {concurrency}, {failures} failed"
    );
    if rss > 400.0 || failures > 0 {
        std::process::exit(1);
    }
}
