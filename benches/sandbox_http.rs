//! The sandbox over HTTP, against Prism serving openapi.json's examples, in the same run
//! (issue 18, "Speed"; the machine has 2 cores, shared by the server and the client):
//!
//! - a filtered v3 search of 50 records: ≥ 2,500 requests/s over 16 connections;
//! - a lookalike v3 search of 50 records: ≥ 2,000 requests/s (the same request again; a random
//!   pair of 40 seeds each time, whose rankings are not kept but whose seeds' similarities are;
//!   and pairs of seeds never seen before, scored from nothing);
//! - a lookup of 1,000 domains: ≥ 300 requests/s;
//! - lookalike latency paced at 85 requests/s: p50 ≤ 1 ms, p99 ≤ 10 ms (printed);
//! - a v3 people search of 50 (issue 39): ≥ 2,000 requests/s and at least Prism's, the same
//!   request again and filters never seen before (each a seniority, a department and a number
//!   a company that no kept ranking holds: read from the people postings); p99 ≤ 10 ms paced
//!   at 85 requests/s (printed).
//!
//! Criterion reports each as time per request with a throughput in requests/s (elem/s);
//! requests go out 16 at a time on 16 keep-alive connections, and each answer is read to its
//! end and thrown away, as wrk does. Prism: set `PRISM` to its command (e.g.
//! `/tmp/prism/node_modules/.bin/prism`, from `npm install @stoplight/prism-cli`); without it
//! only the sandbox is measured, and the note says so. Prism answers the one static
//! example of each operation (a few KB); the sandbox answers real records (370 KB for 50
//! companies, 7.6 MB for 1,000).
//!
//! Run: `PRISM=… cargo bench --bench sandbox_http`.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[path = "support/mod.rs"]
mod support;
use support::{LOOKALIKE_SEEDS as SEEDS, free_port};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use futures::StreamExt;
use prospect::sandbox::service::accounts::{AccountSpec, PoolSpec};
use prospect::sandbox::service::{SandboxConfig, spawn};
use serde_json::{Value, json};

/// Requests in flight at once (wrk's `-c16`).
const CONNECTIONS: usize = 16;

/// A server under test: its base URL and, for Prism, its process.
struct Server {
    base: String,
    child: Option<Child>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(c) = &mut self.child {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Prism mocking openapi.json, when `PRISM` names its command.
fn prism() -> Option<Server> {
    let cmd = std::env::var("PRISM").ok()?;
    let spec = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/api/openapi.json");
    let port = free_port();
    let child = Command::new(cmd)
        .args(["mock", "-p", &port.to_string(), spec])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let t = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if t.elapsed() > Duration::from_secs(60) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Some(Server {
        base: format!("http://127.0.0.1:{port}"),
        child: Some(child),
    })
}

/// One request of a measurement: path and body.
type Request = (&'static str, Value);

/// Reads an answer's body to its end and keeps none of it, as wrk does: the client's share of
/// the 2 cores goes to receiving, not to joining the chunks of a 7.6 MB answer into one buffer.
/// Returns its length in bytes.
async fn drain(mut r: reqwest::Response) -> usize {
    let mut n = 0;
    while let Some(chunk) = r.chunk().await.expect("a body") {
        n += chunk.len();
    }
    n
}

/// Sends `n` requests made by `make(i)`, `CONNECTIONS` at a time; returns the elapsed time.
/// Panics on an answer other than 200 (a run out of credits or limits would measure errors).
fn fire(
    rt: &tokio::runtime::Runtime,
    http: &reqwest::Client,
    base: &str,
    n: u64,
    make: &(dyn Fn(u64) -> Request + Sync),
) -> Duration {
    rt.block_on(async {
        let t = Instant::now();
        futures::stream::iter(0..n)
            .map(|i| {
                let (path, body) = make(i);
                let req = http
                    .post(format!("{base}{path}"))
                    .header("x-api-token", "bench")
                    .json(&body);
                async move {
                    let r = req.send().await.expect("answered");
                    assert_eq!(r.status(), 200, "{path}");
                    drain(r).await
                }
            })
            .buffer_unordered(CONNECTIONS)
            .for_each(|_| async {})
            .await;
        t.elapsed()
    })
}

/// Latencies of `n` requests sent one at a time at `per_second`: (p50, p99).
fn paced_latency(
    rt: &tokio::runtime::Runtime,
    http: &reqwest::Client,
    base: &str,
    n: u64,
    per_second: f64,
    make: &(dyn Fn(u64) -> Request + Sync),
) -> (Duration, Duration) {
    let mut lat: Vec<Duration> = rt.block_on(async {
        let mut out = Vec::new();
        let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / per_second));
        for i in 0..n {
            tick.tick().await;
            let (path, body) = make(i);
            let t = Instant::now();
            let r = http
                .post(format!("{base}{path}"))
                .header("x-api-token", "bench")
                .json(&body)
                .send()
                .await
                .expect("answered");
            assert_eq!(r.status(), 200);
            drain(r).await;
            out.push(t.elapsed());
        }
        out
    });
    lat.sort();
    (lat[lat.len() / 2], lat[lat.len() * 99 / 100])
}

fn bench(c: &mut Criterion) {
    let server_rt = tokio::runtime::Runtime::new().unwrap();
    let sandbox = server_rt.block_on(async {
        let sb = spawn(SandboxConfig {
            accounts: vec![AccountSpec {
                token: "bench".into(),
                credits: Some(PoolSpec::one_time(1e15)),
                ..AccountSpec::default()
            }],
            rate_per_minute: u32::MAX,
            daily_limit: u32::MAX,
            ..SandboxConfig::default()
        })
        .await
        .expect("the sandbox starts");
        sb.source.db().await.expect("the dataset loads");
        sb
    });
    let db = server_rt.block_on(sandbox.source.db()).unwrap();
    let ours = Server {
        base: sandbox.base_url.clone(),
        child: None,
    };
    let theirs = prism();
    if theirs.is_none() {
        eprintln!("Prism: not measured (set PRISM to the prism command)");
    }
    let domains: Vec<String> = (0..1_000)
        .map(|i| {
            db.company_row_at(i * (db.company_count() / 1_000))
                .unwrap()
                .domain
                .clone()
        })
        .collect();
    let filtered: Request = (
        "/v3/search/companies",
        json!({"size": 50, "companiesFilters": {
            "industries": {"industries": ["Software Development"]},
            "primaryLocations": {"includeCountries": ["us"]}}}),
    );
    let lookalike: Request = (
        "/v3/search/companies",
        json!({"size": 50, "companiesFilters": {"lookalikeDomains": ["stripe.com"]}}),
    );
    let varied = |i: u64| -> Request {
        let a = SEEDS[(i as usize * 7) % SEEDS.len()];
        let b = SEEDS[(i as usize * 13 + i as usize / SEEDS.len()) % SEEDS.len()];
        (
            "/v3/search/companies",
            json!({"size": 50, "companiesFilters": {"lookalikeDomains": [a, b]}}),
        )
    };
    // Seeds never seen before: pairs of the 1,000 lookup domains in turn, far more targets than
    // the sandbox keeps the similarities of (64), so every search scores its two seeds anew.
    let unseen = |i: u64| -> Request {
        let p = (i as usize * 2) % domains.len();
        (
            "/v3/search/companies",
            json!({"size": 50, "companiesFilters": {"lookalikeDomains": [&domains[p], &domains[p + 1]]}}),
        )
    };
    let lookup: Request = ("/v2/lookup/companies", json!({ "domains": domains }));
    let people: Request = (
        "/v3/search/people",
        json!({"size": 50, "peopleFilters": {
            "seniorities": ["C-Level", "VP"], "departments": ["Sales"]}}),
    );
    // 7 × 7 × 20 = 980 filter sets in turn: far more than the sandbox keeps the rankings of
    // (64), so every search is ranked anew.
    let people_unseen = |i: u64| -> Request {
        const SENIORITIES: [&str; 7] = [
            "C-Level", "VP", "Head", "Director", "Manager", "Founder", "Other",
        ];
        const DEPARTMENTS: [&str; 7] = [
            "Sales",
            "Engineering",
            "Marketing and Advertising",
            "Accounting and Finance",
            "HR",
            "Operations",
            "Product",
        ];
        let i = i as usize;
        (
            "/v3/search/people",
            json!({"size": 50, "peoplePerCompany": 1 + (i / 49) % 20, "peopleFilters": {
                "seniorities": [SENIORITIES[i % 7]], "departments": [DEPARTMENTS[(i / 7) % 7]]}}),
        )
    };

    let client_rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let http = reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(CONNECTIONS)
        .build()
        .unwrap();

    for (who, server) in [("sandbox", Some(&ours)), ("Prism", theirs.as_ref())] {
        let Some(server) = server else { continue };
        for (what, make) in [
            (
                "lookalike (the same request)",
                &(|_| lookalike.clone()) as &(dyn Fn(u64) -> Request + Sync),
            ),
            ("lookalike (random seeds)", &varied),
            ("lookalike (seeds never seen)", &unseen),
            ("people search (the same request)", &|_| people.clone()),
            ("people search (filters never seen)", &people_unseen),
        ] {
            // Warm the connection and the kept ranking, as a running service would be.
            paced_latency(&client_rt, &http, &server.base, 20, 200.0, make);
            let (p50, p99) = paced_latency(&client_rt, &http, &server.base, 850, 85.0, make);
            eprintln!(
                "{who}: {what} at 85 requests/s: p50 {:.2} ms, p99 {:.2} ms (targets 1 ms, 10 ms)",
                p50.as_secs_f64() * 1e3,
                p99.as_secs_f64() * 1e3
            );
        }
    }

    let mut g = c.benchmark_group("sandbox http, 16 connections");
    g.throughput(Throughput::Elements(1));
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    let cases: [(&str, &(dyn Fn(u64) -> Request + Sync)); 7] = [
        ("filtered search of 50", &|_| filtered.clone()),
        ("lookalike search of 50, the same", &|_| lookalike.clone()),
        ("lookalike search of 50, random seeds", &varied),
        ("lookalike search of 50, seeds never seen", &unseen),
        ("lookup of 1,000 domains", &|_| lookup.clone()),
        ("people search of 50, the same", &|_| people.clone()),
        ("people search of 50, filters never seen", &people_unseen),
    ];
    for (what, make) in cases {
        for (who, server) in [("sandbox", Some(&ours)), ("Prism", theirs.as_ref())] {
            let Some(server) = server else { continue };
            g.bench_function(format!("{what}: {who}"), |b| {
                b.iter_custom(|iters| fire(&client_rt, &http, &server.base, iters, make))
            });
        }
    }
    g.finish();
    drop(theirs);
    server_rt.block_on(sandbox.shutdown());
}

criterion_group!(benches, bench);
criterion_main!(benches);
