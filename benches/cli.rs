//! The headless CLI end to end, as a script runs it (issue "Data out" targets): the real binary
//! against `prospect serve` in another process, stdout to a file, a fresh store each run.
//!
//! - exporting 10,000 companies (`prospect search companies --limit 10000 --out F`):
//!   ≤ 3 s, and peak RSS of the CLI process ≤ 150 MB (the sandbox runs in its own process, so
//!   the CLI's own peak is what is reported);
//! - a lookup of 10,000 domains from a file (`prospect lookup companies --file F`): ≤ 3 s
//!   (nothing stored yet: all 10,000 are sent, in batches of 1,000).
//!
//! Run: `cargo bench --bench cli -- --quick` (uses the release profile's binary).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
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

/// Runs `c` to the end, sampling its peak resident memory (`VmHWM`) every few milliseconds;
/// returns (wall time, peak RSS in MB).
fn run_measured(mut c: Command) -> (Duration, f64) {
    let t = Instant::now();
    let mut child = c.spawn().expect("prospect runs");
    let status_file = PathBuf::from(format!("/proc/{}/status", child.id()));
    let mut peak_kb = 0u64;
    loop {
        if let Ok(s) = std::fs::read_to_string(&status_file)
            && let Some(kb) = s
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse::<u64>().ok())
        {
            peak_kb = peak_kb.max(kb);
        }
        if let Some(st) = child.try_wait().expect("wait") {
            assert!(st.success(), "prospect failed: {st}");
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    (t.elapsed(), peak_kb as f64 / 1024.0)
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

    let mut g = c.benchmark_group("cli");
    g.sample_size(10).measurement_time(Duration::from_secs(30));
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
