//! The headless CLI end to end, as a script runs it (issue "Data out" targets): the real binary
//! against `prospect serve` in another process, stdout to a file, a fresh store each run.
//!
//! - exporting 10,000 companies (`prospect search companies --limit 10000 --out F`):
//!   ≤ 3 s, and peak RSS of the CLI process ≤ 150 MB (the sandbox runs in its own process, so
//!   the CLI's own peak is what is reported);
//! - a lookup of 10,000 domains from a file (`prospect lookup companies --file F`): ≤ 3 s
//!   (nothing stored yet: all 10,000 are sent, in batches of 1,000).
//!
//! Issue 15 adds, each measured in the same run against the same `prospect serve`:
//! - the lookup and the export against a minimal keep-alive client (reqwest, one connection)
//!   that fetches the same pages and writes the raw JSON: prospect ≤ 2× its wall time;
//! - the store file after the 10,000-company export: ≤ 100 MB;
//! - a lookup of a 1,000,000-line file: the CLI's peak RSS ≤ 200 MB.
//!
//! Issue 39 adds the owned path: the 10,000-company search as CSV run again on the same store
//! (0 credits, nothing sent): its wall time beside `sqlite3` reading the same purchases'
//! rows to a file (target ≤ 2×), its peak RSS (target ≤ 150 MB), and its output
//! byte-identical to the buying run's. And the client's CPU per 1,000 records bought (the
//! 10,000-company export; target ≤ 0.06 s) beside the minimal Rust client writing the raw
//! answers and a Python client that parses each answer and inserts each record into SQLite.
//!
//! Run: `cargo bench --bench cli -- --quick` (uses the release profile's binary).

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[path = "support/mod.rs"]
mod support;
use support::{Measured, run_measured, run_measured_all, run_measured_io, self_cpu};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

const BIN: &str = env!("CARGO_BIN_EXE_prospect");

struct Serve(Child, String);

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve() -> Serve {
    let port = support::free_port();
    let child = Command::new(BIN)
        .args([
            "serve",
            "--addr",
            &format!("127.0.0.1:{port}"),
            "--token",
            "bench",
            "--rate-per-minute",
            "1000000",
            "--daily-limit",
            "10000000",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("prospect serve starts");
    let base = format!("http://127.0.0.1:{port}");
    let t = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "serve did not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Serve(child, base)
}

fn cli(base: &str, data: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.env("PROSPECT_API_TOKEN", "bench")
        .env("PROSPECT_BASE_URL", base)
        .env("HOME", data)
        .arg("--data-dir")
        .arg(data.join("data"))
        .arg("--quiet")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    c
}

/// The issue-39 figures of the owned path: the 10,000-company CSV search bought, then run
/// again on the same store, beside `sqlite3` reading the purchases' rows to a file. Returns
/// the data dir holding that store, for the criterion rows of the same two.
fn owned_again(base: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let (bought, again) = (dir.path().join("bought.csv"), dir.path().join("again.csv"));
    let mut buy = owned_search(base, dir.path(), "1000000");
    buy.stdout(std::fs::File::create(&bought).unwrap());
    let (t_bought, peak_bought) = run_measured(buy);
    let (t_again, peak_again) = run_measured(owned_search(base, dir.path(), "0"));
    let same = std::fs::read(&bought).unwrap() == std::fs::read(&again).unwrap();
    let rows = dir.path().join("rows.out");
    let t = Instant::now();
    let st = sqlite_reading(dir.path()).status();
    let sqlite = t.elapsed();
    match st {
        Ok(s) if s.success() => eprintln!(
            "owned: the 10,000-company CSV search again: {:.2} s, CLI peak RSS {peak_again:.0} MB \
             (bought: {:.2} s, {peak_bought:.0} MB); sqlite3 reading the purchases: {:.3} s \
             ({} bytes) = {:.1}× (targets ≤ 2×, ≤ 150 MB); outputs byte-identical: {same}",
            t_again.as_secs_f64(),
            t_bought.as_secs_f64(),
            sqlite.as_secs_f64(),
            std::fs::metadata(&rows).map_or(0, |m| m.len()),
            t_again.as_secs_f64() / sqlite.as_secs_f64()
        ),
        _ => eprintln!(
            "owned: the 10,000-company CSV search again: {:.2} s, CLI peak RSS {peak_again:.0} MB; \
             sqlite3 not run (not installed?); outputs byte-identical: {same}",
            t_again.as_secs_f64()
        ),
    }
    assert!(same, "the owned run wrote other bytes than the buying run");
    dir
}

/// The 10,000-company CSV search of [`owned_again`] on the store in `dir` with
/// `--max-credits credits` (`0` when run again: it spends nothing), its CSV to `dir/again.csv`.
fn owned_search(base: &str, dir: &Path, credits: &str) -> Command {
    let mut c = cli(
        base,
        dir,
        &[
            "search",
            "companies",
            "--limit",
            "10000",
            "--format",
            "csv",
            "--max-credits",
            credits,
        ],
    );
    c.stdout(std::fs::File::create(dir.join("again.csv")).unwrap());
    c
}

/// `sqlite3` reading the purchases of the store in `dir` to `dir/rows.out`, the reference of
/// the owned path.
fn sqlite_reading(dir: &Path) -> Command {
    let mut c = Command::new("sqlite3");
    // `.mode quote` writes each blob whole (as hex): in the default mode a blob stops at its
    // first NUL byte.
    c.args(["-cmd", ".mode quote"])
        .arg(dir.join("data").join("prospect.sqlite"))
        .arg("SELECT id, endpoint, response, raw FROM purchases")
        .stdout(std::fs::File::create(dir.join("rows.out")).unwrap());
    c
}

/// What the minimal client does: POSTs `bodies` one after another on one keep-alive
/// connection, each answer written raw to `out`; for a search, each next body takes the
/// previous answer's `searchAfter`. Returns the wall time.
fn minimal(
    base: &str,
    path: &str,
    bodies: Vec<serde_json::Value>,
    chain: bool,
    out: &Path,
) -> Duration {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let t = Instant::now();
        let http = reqwest::Client::builder().no_proxy().build().unwrap();
        let mut file = std::io::BufWriter::new(std::fs::File::create(out).unwrap());
        let mut cursor: Option<String> = None;
        for mut body in bodies {
            if chain && let Some(c) = &cursor {
                body["searchAfter"] = serde_json::Value::from(c.clone());
            }
            let bytes = http
                .post(format!("{base}{path}"))
                .header("x-api-token", "bench")
                .json(&body)
                .send()
                .await
                .unwrap()
                .bytes()
                .await
                .unwrap();
            if chain {
                #[derive(serde::Deserialize)]
                struct Peek {
                    #[serde(rename = "searchAfter")]
                    search_after: Option<String>,
                }
                cursor = serde_json::from_slice::<Peek>(&bytes).unwrap().search_after;
            }
            std::io::Write::write_all(&mut file, &bytes).unwrap();
            std::io::Write::write_all(&mut file, b"\n").unwrap();
        }
        std::io::Write::flush(&mut file).unwrap();
        t.elapsed()
    })
}

/// The issue's own reference client (issue 39): Python's `http.client` on one keep-alive
/// connection, POSTing the domains of `list` to `/v2/lookup/companies` 1,000 a request and
/// writing each answer raw to `out`. Its wall time; `None` when `python3` cannot run here.
fn python_raw(base: &str, list: &Path, out: &Path) -> Option<Duration> {
    const SCRIPT: &str = r#"
import http.client, json, sys, urllib.parse
u = urllib.parse.urlsplit(sys.argv[1])
doms = [l.strip() for l in open(sys.argv[2]) if l.strip()]
c = http.client.HTTPConnection(u.hostname, u.port)
with open(sys.argv[3], 'wb') as out:
    for i in range(0, len(doms), 1000):
        c.request('POST', '/v2/lookup/companies', json.dumps({'domains': doms[i:i + 1000]}),
                  {'x-api-token': 'bench', 'Content-Type': 'application/json'})
        out.write(c.getresponse().read())
"#;
    let t = Instant::now();
    let status = std::process::Command::new("python3")
        .args(["-c", SCRIPT, base, list.to_str()?, out.to_str()?])
        .status()
        .ok()?;
    status.success().then(|| t.elapsed())
}

/// The issue's other reference client (issue 39): Python's `http.client` on one keep-alive
/// connection pages `/v3/search/companies` by `searchAfter`, `pages` pages of `size`, parses
/// each answer and inserts each company into a SQLite table (domain, record as JSON), a
/// transaction per answer. What it measured; `None` when `python3` cannot run here.
fn python_parse_store(base: &str, pages: u32, size: u32, db: &Path) -> Option<Measured> {
    const SCRIPT: &str = r#"
import http.client, json, sqlite3, sys, urllib.parse
u = urllib.parse.urlsplit(sys.argv[1])
pages, size = int(sys.argv[2]), int(sys.argv[3])
db = sqlite3.connect(sys.argv[4])
db.execute('CREATE TABLE IF NOT EXISTS companies (domain TEXT PRIMARY KEY, record TEXT)')
c = http.client.HTTPConnection(u.hostname, u.port)
after = None
for _ in range(pages):
    body = {'size': size}
    if after:
        body['searchAfter'] = after
    c.request('POST', '/v3/search/companies', json.dumps(body),
              {'x-api-token': 'bench', 'Content-Type': 'application/json'})
    answer = json.loads(c.getresponse().read())
    with db:
        db.executemany('INSERT OR REPLACE INTO companies VALUES (?, ?)',
                       [(r.get('domain'), json.dumps(r)) for r in answer.get('companies', [])])
    after = answer.get('searchAfter')
    if not after:
        break
"#;
    let runs = Command::new("python3")
        .args(["-c", "import sqlite3"])
        .status()
        .is_ok_and(|s| s.success());
    if !runs {
        return None;
    }
    let mut c = Command::new("python3");
    c.args(["-c", SCRIPT, base, &pages.to_string(), &size.to_string()])
        .arg(db)
        .stdout(Stdio::null());
    Some(run_measured_all(c))
}

/// Bytes of a store file with its log.
fn store_bytes(data: &Path) -> u64 {
    ["prospect.sqlite", "prospect.sqlite-wal"]
        .iter()
        .filter_map(|f| std::fs::metadata(data.join(f)).ok())
        .map(|m| m.len())
        .sum()
}

/// Median of the runs of `f` (wall time).
fn median(n: usize, mut f: impl FnMut() -> Duration) -> Duration {
    let mut v: Vec<Duration> = (0..n).map(|_| f()).collect();
    v.sort();
    v[n / 2]
}

/// The issue-15 figures: prospect against the minimal client, the store size, and the peak
/// memory of a 1,000,000-line lookup.
fn versus_minimal(base: &str, list: &Path, domains: &[String]) {
    let work = tempfile::tempdir().unwrap();
    let raw = work.path().join("raw.jsonl");
    let lookup_bodies: Vec<serde_json::Value> = domains
        .chunks(1000)
        .map(|c| serde_json::json!({ "domains": c }))
        .collect();
    let export_bodies: Vec<serde_json::Value> =
        (0..20).map(|_| serde_json::json!({"size": 500})).collect();
    let runs = 5;
    let mini_lookup = median(runs, || {
        minimal(
            base,
            "/v2/lookup/companies",
            lookup_bodies.clone(),
            false,
            &raw,
        )
    });
    let ours_lookup = median(runs, || {
        let dir = tempfile::tempdir().unwrap();
        run_measured(cli(
            base,
            dir.path(),
            &[
                "lookup",
                "companies",
                "--file",
                list.to_str().unwrap(),
                "--max-credits",
                "1000000",
                "--format",
                "jsonl",
                "--out",
                dir.path().join("out.jsonl").to_str().unwrap(),
            ],
        ))
        .0
    });
    let mut mini_cpu = Vec::new();
    let mini_export = median(runs, || {
        let cpu0 = self_cpu();
        let t = minimal(
            base,
            "/v3/search/companies",
            export_bodies.clone(),
            true,
            &raw,
        );
        mini_cpu.push(self_cpu() - cpu0);
        t
    });
    let mut store_mb = 0.0;
    let mut ours_cpu = Vec::new();
    let ours_export = median(runs, || {
        let dir = tempfile::tempdir().unwrap();
        let m = run_measured_all(cli(
            base,
            dir.path(),
            &[
                "search",
                "companies",
                "--limit",
                "10000",
                "--max-credits",
                "1000000",
                "--format",
                "jsonl",
                "--out",
                dir.path().join("out.jsonl").to_str().unwrap(),
            ],
        ));
        store_mb = store_bytes(&dir.path().join("data")) as f64 / 1e6;
        ours_cpu.push(m.cpu);
        m.wall
    });
    let mut python_cpu = Vec::new();
    for _ in 0..runs {
        let db = work.path().join("python-store.sqlite");
        let _ = std::fs::remove_file(&db);
        if let Some(m) = python_parse_store(base, 20, 500, &db) {
            python_cpu.push(m.cpu);
        }
    }
    let per_1000 = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).map(|s| s / 10.0)
    };
    let show = |c: Option<f64>| c.map_or("not run".to_string(), |c| format!("{c:.3} s"));
    let ours_1000 = per_1000(&mut ours_cpu);
    eprintln!(
        "client CPU per 1,000 records bought (the 10,000-company export, median of {runs}): \
         prospect {} (target ≤ 0.06 s); minimal Rust client writing raw {}; Python client \
         parsing and storing in SQLite {}",
        show(ours_1000),
        show(per_1000(&mut mini_cpu)),
        show(per_1000(&mut python_cpu)),
    );
    let raw_mb = std::fs::metadata(&raw).map(|m| m.len()).unwrap_or(0) as f64 / 1e6;
    eprintln!(
        "lookup of 10,000: prospect {:.2} s, minimal client {:.2} s: {:.2}× (target ≤ 2×)",
        ours_lookup.as_secs_f64(),
        mini_lookup.as_secs_f64(),
        ours_lookup.as_secs_f64() / mini_lookup.as_secs_f64()
    );
    eprintln!(
        "export of 10,000: prospect {:.2} s, minimal client {:.2} s: {:.2}× (target ≤ 2×)",
        ours_export.as_secs_f64(),
        mini_export.as_secs_f64(),
        ours_export.as_secs_f64() / mini_export.as_secs_f64()
    );
    eprintln!(
        "store after the 10,000-company export: {store_mb:.1} MB for {raw_mb:.1} MB received (target ≤ 100 MB)"
    );

    // A 1,000,000-line file of unknown domains (1,000 batches), paced to the serve's limit.
    let big = work.path().join("million.txt");
    let million: Vec<String> = (0..1_000_000)
        .map(|i| format!("unknown-{i}.example"))
        .collect();
    std::fs::write(&big, million.join("\n") + "\n").unwrap();
    // The minimal client asks the same domains, 1,000 a request, and writes the answers raw.
    let million_bodies: Vec<serde_json::Value> = million
        .chunks(1000)
        .map(|c| serde_json::json!({ "domains": c }))
        .collect();
    let mini_million = minimal(base, "/v2/lookup/companies", million_bodies, false, &raw);
    let answers = std::fs::metadata(&raw).map(|m| m.len()).unwrap_or(0);
    let python_million = python_raw(base, &big, &work.path().join("python-raw.json"));
    let dir = tempfile::tempdir().unwrap();
    let (t, peak, written) = run_measured_io(cli(
        base,
        dir.path(),
        &[
            "--rate-per-minute",
            "1000000",
            "lookup",
            "companies",
            "--file",
            big.to_str().unwrap(),
            "--max-credits",
            "1000000",
            "--format",
            "jsonl",
            "--out",
            dir.path().join("out.jsonl").to_str().unwrap(),
        ],
    ));
    let out = std::fs::metadata(dir.path().join("out.jsonl")).map_or(0, |m| m.len());
    match python_million {
        Some(p) => eprintln!(
            "lookup of a 1,000,000-line file against the issue's Python raw client: {:.1} s: \
             {:.2}× (target ≤ 3×)",
            p.as_secs_f64(),
            t.as_secs_f64() / p.as_secs_f64()
        ),
        None => {
            eprintln!("lookup of a 1,000,000-line file: python3 not found, no Python reference")
        }
    }
    eprintln!(
        "lookup of a 1,000,000-line file: {:.1} s, CLI peak RSS {peak:.0} MB (target ≤ 200 MB); \
         minimal client {:.1} s: {:.2}× (target ≤ 3×); written {:.0} MB, of which the output \
         {:.0} MB, for {:.0} MB of answers: {:.1}× (target ≤ 2×), {:.1}× beside the output; \
         store {:.1} MB",
        t.as_secs_f64(),
        mini_million.as_secs_f64(),
        t.as_secs_f64() / mini_million.as_secs_f64(),
        written as f64 / 1e6,
        out as f64 / 1e6,
        answers as f64 / 1e6,
        written as f64 / answers.max(1) as f64,
        written.saturating_sub(out) as f64 / answers.max(1) as f64,
        store_bytes(&dir.path().join("data")) as f64 / 1e6
    );
}

fn bench(c: &mut Criterion) {
    let sv = serve();
    let base = sv.1.clone();
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("companies.jsonl");
    let export_args = [
        "search",
        "companies",
        "--limit",
        "10000",
        "--max-credits",
        "1000000",
        "--format",
        "jsonl",
        "--out",
        out.to_str().unwrap(),
    ];

    // One measured run for the memory figure, and the domains for the lookup file.
    let dir = tempfile::tempdir().unwrap();
    let (t, peak) = run_measured(cli(&base, dir.path(), &export_args));
    let text = std::fs::read_to_string(&out).unwrap();
    let domains: Vec<String> = text
        .lines()
        .filter_map(|l| {
            serde_json::from_str::<serde_json::Value>(l).ok()?["domain"]
                .as_str()
                .map(str::to_string)
        })
        .collect();
    assert_eq!(domains.len(), 10_000);
    eprintln!(
        "export of 10,000 companies: {:.2} s, CLI peak RSS {peak:.0} MB (targets: 3 s, 150 MB)",
        t.as_secs_f64()
    );
    let list = work.path().join("domains.txt");
    std::fs::write(&list, domains.join("\n")).unwrap();
    let (t, peak) = run_measured(cli(
        &base,
        tempfile::tempdir().unwrap().path(),
        &[
            "lookup",
            "companies",
            "--file",
            list.to_str().unwrap(),
            "--max-credits",
            "1000000",
            "--format",
            "jsonl",
        ],
    ));
    eprintln!(
        "lookup of 10,000 domains: {:.2} s, CLI peak RSS {peak:.0} MB (target: 3 s)",
        t.as_secs_f64()
    );

    versus_minimal(&base, &list, &domains);
    let owned = owned_again(&base);

    let mut g = c.benchmark_group("cli");
    g.sample_size(10).measurement_time(Duration::from_secs(30));
    // Issue 39, side by side: the owned search again, and sqlite3 reading the same purchases.
    let bought = std::fs::read(owned.path().join("bought.csv")).unwrap();
    g.bench_function("search again of 10,000 owned companies (csv)", |b| {
        b.iter(|| {
            let st = owned_search(&base, owned.path(), "0").status().unwrap();
            assert!(st.success());
        })
    });
    let again = std::fs::read(owned.path().join("again.csv")).unwrap();
    assert!(
        again == bought,
        "the owned run wrote other bytes than the buying run"
    );
    if sqlite_reading(owned.path())
        .status()
        .is_ok_and(|s| s.success())
    {
        g.bench_function("sqlite3 reading the same purchases (reference)", |b| {
            b.iter(|| assert!(sqlite_reading(owned.path()).status().unwrap().success()))
        });
    }
    g.bench_function(
        "export 10,000 companies (search --limit 10000 --out)",
        |b| {
            b.iter_batched(
                || tempfile::tempdir().unwrap(),
                |dir| {
                    let st = cli(&base, dir.path(), &export_args).status().unwrap();
                    assert!(st.success());
                },
                BatchSize::PerIteration,
            )
        },
    );
    g.bench_function("lookup of 10,000 domains from a file", |b| {
        b.iter_batched(
            || tempfile::tempdir().unwrap(),
            |dir| {
                let st = cli(
                    &base,
                    dir.path(),
                    &[
                        "lookup",
                        "companies",
                        "--file",
                        list.to_str().unwrap(),
                        "--max-credits",
                        "1000000",
                        "--format",
                        "jsonl",
                    ],
                )
                .status()
                .unwrap();
                assert!(st.success());
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
