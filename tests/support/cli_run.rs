//! Running the real binary against a sandbox started in the test's process: the account it
//! spends from, a sandbox with a chosen rate, the command with a fresh HOME and data dir, and
//! helpers to feed it domains. Shared by the CLI test files that include it with `#[path]`
//! (each also includes `sandbox_service/support.rs` as `support`).
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Stdio};

use prospect::api::types::*;
use prospect::sandbox::service::SandboxHandle;
use prospect::sandbox::service::accounts::{AccountSpec, Plan as AccountPlan};

use crate::support::{RICH, account, client, config};

/// The account every CLI of these tests spends from (the rich one is for setting up).
pub const CLI: &str = "cli-token";

/// The sandbox's accounts: the CLI's, with a million credits in every pool.
pub fn accounts() -> Vec<AccountSpec> {
    vec![account(CLI, AccountPlan::Legacy, 1e6, 1e6, 1e6)]
}

/// A sandbox on 127.0.0.1 with [`accounts`], allowing `rate_per_minute` requests a minute.
pub async fn sandbox_with(rate_per_minute: u32) -> SandboxHandle {
    let mut c = config(accounts());
    c.rate_per_minute = rate_per_minute;
    prospect::sandbox::service::spawn(c)
        .await
        .expect("sandbox starts")
}

/// The binary with a fresh HOME, `dir/data` as its data dir, and `base` as the service.
pub fn prospect(base: &str, dir: &Path, args: &[&str]) -> Command {
    let cfg = dir.join("config.toml");
    if !cfg.exists() {
        std::fs::write(&cfg, "").unwrap();
    }
    let mut c = Command::new(assert_cmd::cargo::cargo_bin!("prospect"));
    c.env_clear()
        .env("HOME", dir)
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("PROSPECT_API_TOKEN", CLI)
        .env("PROSPECT_BASE_URL", base)
        .arg("--config")
        .arg(&cfg)
        .arg("--data-dir")
        .arg(dir.join("data"))
        .args(args)
        .stdin(Stdio::null());
    if let Some(url) = team_store_for(dir) {
        c.env("PROSPECT_STORE_URL", url);
    }
    c
}

/// The store the binary of [`prospect`] uses for data dir `dir`: its team database under
/// `PROSPECT_TEST_PG_URL`, else `dir/data/prospect.sqlite`.
pub fn open_store(dir: &Path) -> prospect::store::Store {
    match team_store_for(dir) {
        Some(url) => prospect::store::Store::open_postgres(&url).unwrap(),
        None => prospect::store::Store::open(&dir.join("data/prospect.sqlite")).unwrap(),
    }
}

/// Holds the team store's write lock (from another connection) until dropped: a process's
/// writes then fail after the lock timeout, as a SQLite file's do when locked. For
/// `PROSPECT_TEST_PG_URL` runs.
pub struct PgWriteLock(
    Option<std::sync::mpsc::Sender<()>>,
    Option<std::thread::JoinHandle<()>>,
);

impl PgWriteLock {
    /// Takes the lock of the database at `url` and returns once it is held.
    pub fn take(url: &str) -> PgWriteLock {
        let url = url.to_string();
        let (held_tx, held_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = std::sync::mpsc::channel::<()>();
        let t = std::thread::spawn(move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            c.batch_execute(&format!(
                "SELECT pg_advisory_lock({})",
                prospect::store::WRITE_LOCK
            ))
            .unwrap();
            held_tx.send(()).unwrap();
            let _ = stop_rx.recv();
        });
        held_rx.recv().unwrap();
        PgWriteLock(Some(stop_tx), Some(t))
    }
}

impl Drop for PgWriteLock {
    fn drop(&mut self) {
        self.0 = None;
        if let Some(t) = self.1.take() {
            let _ = t.join();
        }
    }
}

/// With `PROSPECT_TEST_PG_URL` set (a PostgreSQL server `.ci/run` starts), the store of data
/// dir `dir` is a database of its own on that server rather than the SQLite file: the same
/// tests then run on the team store (issue 17). `None` without it.
pub fn team_store_for(dir: &Path) -> Option<String> {
    let server = std::env::var("PROSPECT_TEST_PG_URL").ok()?;
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    dir.hash(&mut h);
    let db = format!("cli_{:016x}", h.finish());
    Some(
        prospect::store::pg_server::create_database(&server, &db).expect("a database for the test"),
    )
}

/// `lookup companies --file LIST --max-credits 1000`: the lookup these tests run.
pub fn lookup_file_args(list: &Path) -> [&str; 6] {
    [
        "lookup",
        "companies",
        "--file",
        list.to_str().expect("a UTF-8 path"),
        "--max-credits",
        "1000",
    ]
}

/// Checks a paid run whose store could not write (issue 15's recovery files): it exited 11
/// naming the recovery file, printed its `records` all the same, and left exactly one file in
/// `dir/data/recovery`.
pub fn assert_kept_in_recovery(out: &std::process::Output, records: usize, dir: &Path) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(11), "{err}");
    assert!(err.contains("recovery"), "{err}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().count(),
        records,
        "every record printed all the same"
    );
    assert_eq!(
        std::fs::read_dir(dir.join("data/recovery"))
            .unwrap()
            .count(),
        1,
        "one recovery file"
    );
}

/// Runs `c` to its end off the async threads: (exit code, stdout, stderr).
pub async fn run(mut c: Command) -> (i32, String, String) {
    tokio::task::spawn_blocking(move || {
        let out = c.output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    })
    .await
    .unwrap()
}

/// `n` domains the sandbox knows, from a search of the rich account.
pub async fn known_domains(sb: &SandboxHandle, n: usize) -> Vec<String> {
    let c = client(sb, RICH);
    let mut out = Vec::new();
    let mut after = None;
    while out.len() < n {
        let r = c
            .search_companies_v3(&SearchCompaniesV3Request {
                size: Some(((n - out.len()).min(1000)) as i64),
                search_after: after.clone(),
                ..Default::default()
            })
            .await
            .unwrap();
        out.extend(r.companies.into_iter().map(|c| c.company.domain));
        after = r.search_after;
        if after.is_none() {
            break;
        }
    }
    out
}

pub fn write_lines(path: &Path, lines: &[String]) {
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// Sends signal `sig` (`-INT`, `-TERM`, `-KILL`) to process `pid` with `kill`.
pub fn signal(pid: u32, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill {sig} {pid}");
}
