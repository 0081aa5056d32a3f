//! `prospect mcp` answering its first `tools/list` (issue 36: within 300 ms of start on the
//! embedded sandbox): the real binary spawned with no token (it starts its embedded sandbox),
//! the MCP handshake (`initialize`, `notifications/initialized`) and `tools/list` written on its
//! stdin as JSON-RPC lines, timed from the spawn to the answer's line.
//!
//! Run: `cargo bench --bench mcp` (uses the release profile's binary).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};

const BIN: &str = env!("CARGO_BIN_EXE_prospect");

/// Spawns `prospect mcp` with a fresh HOME and times it to the `tools/list` answer.
fn start_to_tools_list() -> Duration {
    let dir = tempfile::tempdir().unwrap();
    let t0 = Instant::now();
    let mut child = Command::new(BIN)
        .env_remove("PROSPECT_API_TOKEN")
        .env_remove("PROSPECT_BASE_URL")
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path().join(".config"))
        .env("XDG_DATA_HOME", dir.path().join(".local/share"))
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("prospect mcp starts");
    let mut stdin = child.stdin.take().unwrap();
    let lines = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    ];
    for l in lines {
        writeln!(stdin, "{l}").unwrap();
    }
    stdin.flush().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let took = loop {
        line.clear();
        if out.read_line(&mut line).unwrap() == 0 {
            panic!("prospect mcp closed stdout before answering tools/list");
        }
        if line.contains(r#""id":2"#) && line.contains("search_companies") {
            break t0.elapsed();
        }
    };
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    took
}

fn bench(c: &mut Criterion) {
    let mut runs: Vec<Duration> = (0..9).map(|_| start_to_tools_list()).collect();
    runs.sort();
    eprintln!(
        "prospect mcp, spawn to the tools/list answer on the embedded sandbox: median {:.0} ms, \
         worst {:.0} ms of 9 (target ≤ 300 ms)",
        runs[4].as_secs_f64() * 1e3,
        runs[8].as_secs_f64() * 1e3
    );
    let mut g = c.benchmark_group("mcp");
    g.sample_size(10);
    g.bench_function("start_to_tools_list", |b| {
        b.iter_custom(|n| (0..n).map(|_| start_to_tools_list()).sum())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
