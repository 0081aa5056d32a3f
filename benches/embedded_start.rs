//! A CLI command on the embedded sandbox, as a script runs it (issue 18, "Embedded start"):
//! the real binary with no token, so it starts its own sandbox in-process, stdout to a file.
//!
//! - `prospect lookup companies stripe.com` with a fresh store (it buys the record): ≤ 150 ms
//!   wall time; the dataset is not loaded, the record is read from the one asset frame that
//!   holds it;
//! - the same lookup again (owned: answered from the store, no call);
//! - the peak RSS of each (the whole dataset in memory was ~420 MB).
//!
//! Run: `cargo bench --bench embedded_start` (uses the release profile's binary).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

#[path = "support/mod.rs"]
mod support;
use support::run_measured;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

const BIN: &str = env!("CARGO_BIN_EXE_prospect");

/// `prospect lookup companies stripe.com` on the embedded sandbox, with its store in `data`.
fn lookup(data: &Path) -> Command {
    let mut c = Command::new(BIN);
    c.env_remove("PROSPECT_API_TOKEN")
        .env_remove("PROSPECT_BASE_URL")
        .env("HOME", data)
        .arg("--data-dir")
        .arg(data.join("data"))
        .arg("--quiet")
        .args(["lookup", "companies", "stripe.com"])
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    c
}

fn bench(c: &mut Criterion) {
    let mut peaks = Vec::new();
    let mut walls = Vec::new();
    for _ in 0..9 {
        let dir = tempfile::tempdir().unwrap();
        let (t, peak) = run_measured(lookup(dir.path()));
        walls.push(t);
        peaks.push(peak);
    }
    walls.sort();
    peaks.sort_by(f64::total_cmp);
    eprintln!(
        "embedded `lookup companies stripe.com`, fresh store (buys it): median {:.0} ms wall, \
         peak RSS {:.0} MB (target ≤ 150 ms)",
        walls[4].as_secs_f64() * 1e3,
        peaks[4]
    );
    let owned = tempfile::tempdir().unwrap();
    run_measured(lookup(owned.path()));
    let (t, peak) = run_measured(lookup(owned.path()));
    eprintln!(
        "the same lookup again (owned, from the store): {:.0} ms wall, peak RSS {peak:.0} MB",
        t.as_secs_f64() * 1e3
    );

    let mut g = c.benchmark_group("embedded start");
    g.sample_size(20).measurement_time(Duration::from_secs(10));
    g.bench_function("lookup companies stripe.com, fresh store (buys)", |b| {
        b.iter_batched(
            || tempfile::tempdir().unwrap(),
            |dir| assert!(lookup(dir.path()).status().unwrap().success()),
            BatchSize::PerIteration,
        )
    });
    g.bench_function("lookup companies stripe.com, owned", |b| {
        b.iter(|| assert!(lookup(owned.path()).status().unwrap().success()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
