//! The headless CLI as a script runs it: the real binary (assert_cmd), no terminal, stdout to a
//! pipe, against a sandbox started in this test process on 127.0.0.1 and a store in a temp dir.

#[path = "sandbox_service/support.rs"]
mod support;

use std::collections::HashSet;
use std::path::Path;

use assert_cmd::Command;
use prospect::api::client::Client;
use prospect::api::types::*;
use prospect::sandbox::service::SandboxHandle;
use prospect::sandbox::service::accounts::{AccountSpec, Plan};
use serde_json::{Value, json};
use support::{RICH, account, client, start};

/// The binary with a fresh HOME, data dir and config pointing at the sandbox `sb` as the
/// "real" service with `token`; the webhook receiver listens on `hook_port`.
fn prospect(sb: &SandboxHandle, token: &str, dir: &Path, hook_port: u16) -> Command {
    let cfg = dir.join("config.toml");
    if !cfg.exists() {
        std::fs::write(
            &cfg,
            format!(
                "webhook_public_url = \"http://127.0.0.1:{hook_port}\"\nwebhook_listen = \"127.0.0.1:{hook_port}\"\n"
            ),
        )
        .unwrap();
    }
    let mut c = Command::cargo_bin("prospect").unwrap();
    c.env_clear()
        .env("HOME", dir)
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("RUST_BACKTRACE", "1")
        .env("PROSPECT_API_TOKEN", token)
        .env("PROSPECT_BASE_URL", &sb.base_url)
        .arg("--config")
        .arg(&cfg)
        .arg("--data-dir")
        .arg(dir.join("data"));
    c
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn standard(c: &Client) -> (f64, f64) {
    let b = c.credit_balance().await.unwrap();
    let t = |p: Option<Credits>| p.map_or(f64::NAN, |p| p.one_time + p.recurrent);
    (t(b.credits), t(b.email_credits))
}

fn run(mut c: Command) -> (i32, String, String) {
    let out = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_to_jsonl_and_csv_and_export_from_the_store() {
    let sb = start(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();

    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args([
        "search",
        "companies",
        "--limit",
        "120",
        "--max-credits",
        "100",
    ]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 120);
    let domains: HashSet<&str> = lines
        .iter()
        .map(|v| v["domain"].as_str().unwrap())
        .collect();
    assert_eq!(domains.len(), 120, "distinct domains");
    assert!(err.is_empty() || !err.contains("panicked"), "{err}");

    // The same search as CSV: a header and 120 rows that parse back.
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args([
        "search",
        "companies",
        "--limit",
        "120",
        "--max-credits",
        "100",
        "--format",
        "csv",
    ]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let mut rd = csv::Reader::from_reader(out.as_bytes());
    let headers = rd.headers().unwrap().clone();
    assert_eq!(&headers[0], "domain");
    let rows: Vec<csv::StringRecord> = rd.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 120);
    let csv_domains: HashSet<String> = rows.iter().map(|r| r[0].to_string()).collect();
    assert_eq!(csv_domains.len(), 120);
    assert!(csv_domains.iter().all(|d| domains.contains(d.as_str())));

    // Export from the store: exactly what was bought, written atomically to --out.
    let file = dir.path().join("companies.jsonl");
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["export", "companies", "--out"]).arg(&file);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "data went to --out, not stdout");
    let exported: HashSet<String> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["domain"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(exported, csv_domains);

    // History lists the search once (two runs of the same filters).
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["history", "--format", "json"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 1, "{out}");
    // With real fields (issue 16): id, at, endpoint, body, pages, total, credits.
    let h = &v[0];
    assert_eq!(h["endpoint"], json!("/v3/search/companies"), "{out}");
    assert!(
        h["id"].is_i64() && h["at"].is_string() && h["body"].is_object(),
        "{out}"
    );
    assert!(h["pages"].as_u64().unwrap() >= 1, "{out}");
    assert!(h["credits"]["standard"].as_f64().unwrap() > 0.0, "{out}");
    let id = h["id"].as_i64().unwrap().to_string();

    // The stored search printed again, by `history show` and `export search`: free, the same
    // 120 companies in the same order.
    let c0 = client(&sb, RICH);
    let before = standard(&c0).await;
    for args in [["history", "show"], ["export", "search"]] {
        let mut c = prospect(&sb, RICH, dir.path(), port);
        c.args(args).arg(&id).args(["--format", "csv"]);
        let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
        assert_eq!(code, 0, "{args:?}: {err}");
        let again: Vec<String> = csv::Reader::from_reader(out.as_bytes())
            .records()
            .map(|r| r.unwrap()[0].to_string())
            .collect();
        let first: Vec<String> = rows.iter().map(|r| r[0].to_string()).collect();
        assert_eq!(again, first, "{args:?}");
    }
    assert_eq!(standard(&c0).await, before, "nothing spent");
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["history", "show", "999"]);
    let (code, _, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("search 999 is not in the store"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lookup_from_a_file_finds_the_known_domains() {
    let sb = start(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let c0 = client(&sb, RICH);
    let r = c0
        .search_companies_v3(&serde_json::from_value(json!({"size": 9})).unwrap())
        .await
        .unwrap();
    let mut domains: Vec<String> = r
        .companies
        .iter()
        .map(|c| c.company.domain.clone())
        .collect();
    domains.insert(4, "no-such-company-zz9.example".to_string());
    let file = dir.path().join("domains.txt");
    std::fs::write(&file, domains.join("\n") + "\n").unwrap();
    let mut c = prospect(&sb, RICH, dir.path(), free_port());
    c.args(["lookup", "companies", "--file"]).arg(&file);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let entries: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(entries.len(), 10);
    assert_eq!(
        entries.iter().filter(|e| e["found"] == json!(true)).count(),
        9
    );
    assert_eq!(entries[4]["query"], json!("no-such-company-zz9.example"));
    assert_eq!(entries[4]["record"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reveal_waits_for_the_webhook_and_never_pays_twice() {
    let sb = start(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let c0 = client(&sb, RICH);
    let ids = support::some_person_ids(&c0, 3).await.join(",");
    let port = free_port();
    let before = standard(&c0).await;
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["reveal", "emails", "--ids", &ids, "--wait", "20"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let contacts: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(contacts.len(), 3, "{out}");
    assert!(
        contacts
            .iter()
            .any(|c| c["email"].as_str().is_some_and(|e| e.contains('@'))),
        "{out}"
    );
    assert!(contacts.iter().all(|c| c["fromStore"] == json!(false)));
    let mid = standard(&c0).await;
    assert!(mid.1 <= before.1);

    // Again: from the store, nothing spent (the balance is checked).
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["reveal", "emails", "--ids", &ids, "--wait", "20"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let again: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(again.len(), 3);
    assert!(again.iter().all(|c| c["fromStore"] == json!(true)));
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert_eq!(standard(&c0).await, mid);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_credits_below_the_estimate_sends_nothing() {
    let sb = start(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let c0 = client(&sb, RICH);
    let before = standard(&c0).await;
    let mut c = prospect(&sb, RICH, dir.path(), free_port());
    c.args(["search", "people", "--limit", "100", "--max-credits", "5"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 5, "{err}");
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains("nothing was sent"), "{err}");
    assert_eq!(standard(&c0).await, before, "nothing spent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_exit_code_class_is_produced_in_one_line() {
    // One request a day: the second is the used-up daily allowance (exit 6 at once; a
    // per-minute 429 is waited out instead, issue 34).
    let limited = AccountSpec {
        daily_limit: Some(1),
        ..AccountSpec::ample("limited")
    };
    let sb = start(vec![account("broke", Plan::Legacy, 0.0, 0.0, 0.0), limited]).await;
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut cases: Vec<(i32, &str, Command)> = Vec::new();

    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["search", "companies", "--limit", "nope"]);
    cases.push((2, "usage", c));

    let mut c = prospect(&sb, "not-a-token", dir.path(), port);
    c.args(["credits"]);
    cases.push((3, "authentication", c));

    let mut c = prospect(&sb, "broke", dir.path(), port);
    c.args(["search", "companies", "--limit", "5"]);
    cases.push((4, "credits", c));

    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args([
        "search",
        "companies",
        "--limit",
        "500",
        "--max-credits",
        "1",
    ]);
    cases.push((5, "spend refused", c));

    let mut c = prospect(&sb, "limited", dir.path(), port);
    c.args(["credits"]);
    cases.push((0, "the day's one request", c));
    let mut c = prospect(&sb, "limited", dir.path(), port);
    c.args(["credits"]);
    cases.push((6, "daily allowance used up", c));

    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["enrich", "person", "--id", "no-such-person-id-000"]);
    cases.push((7, "not found", c));

    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args([
        "search",
        "companies",
        "--body",
        r#"{"companiesFilters": {"bogus": 1}}"#,
    ]);
    cases.push((8, "validation", c));

    let mut c = Command::cargo_bin("prospect").unwrap();
    c.env_clear()
        .env("HOME", dir.path())
        .env("RUST_BACKTRACE", "1")
        .args([
            "--api-token",
            "t",
            "--base-url",
            &format!("http://127.0.0.1:{}", free_port()),
        ])
        .arg("--data-dir")
        .arg(dir.path().join("data2"))
        .args(["credits"]);
    cases.push((9, "network", c));

    for (want, what, c) in cases {
        let (code, _, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
        assert_eq!(code, want, "{what}: {err}");
        if want != 0 && want != 2 {
            assert_eq!(err.trim_end().lines().count(), 1, "{what}: one line: {err}");
            assert!(err.starts_with("prospect: "), "{what}: {err}");
        }
        assert!(
            !err.contains("backtrace") && !err.contains("panicked"),
            "{what}: {err}"
        );
        assert!(!err.contains(RICH), "{what}: the token never shows");
    }
}

#[test]
fn serve_failing_to_bind_is_one_line() {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let out = Command::cargo_bin("prospect")
        .unwrap()
        .env("RUST_BACKTRACE", "1")
        .args(["serve", "--addr", &addr.to_string(), "--token", "t"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(
        err.trim_end()
            .lines()
            .last()
            .map(|l| l.starts_with("prospect: ")),
        Some(true),
        "{err}"
    );
    assert!(!err.contains("backtrace"), "{err}");
    drop(l);
}

/// `serve --quiet` (issue 18, "Fidelity"): nothing on stderr, and it serves all the same.
#[test]
fn serve_quiet_is_quiet() {
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let err_path = dir.path().join("stderr");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("prospect"))
        .args([
            "serve",
            "--quiet",
            "--addr",
            &addr.to_string(),
            "--token",
            "t",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    // It answers once the dataset is indexed: the reference data needs it.
    let start = std::time::Instant::now();
    let ready = loop {
        let answered = std::net::TcpStream::connect(addr).is_ok_and(|mut s| {
            use std::io::{Read, Write};
            let _ = s.write_all(
                b"GET /v2/data-fields HTTP/1.1\r\nHost: x\r\nx-api-token: t\r\nConnection: close\r\n\r\n",
            );
            let mut text = String::new();
            let _ = s.read_to_string(&mut text);
            text.starts_with("HTTP/1.1 200")
        });
        if answered || start.elapsed() > std::time::Duration::from_secs(60) {
            break answered;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    // A moment for any late notice to be written.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let _ = child.kill();
    let _ = child.wait();
    assert!(ready, "the quiet sandbox serves");
    let err = std::fs::read_to_string(&err_path).unwrap();
    assert_eq!(err, "", "nothing on stderr");
}

#[test]
fn the_explorer_without_a_terminal_says_so_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("prospect")
        .unwrap()
        .env_clear()
        .env("HOME", dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty(), "no escape sequences on stdout");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("needs a terminal"), "{err}");
    assert!(!err.contains('\u{1b}'));
}

/// A reader that goes away (`| head`) ends a command quietly, exit 0, not with "Broken pipe"
/// (issue 38); and `--base-url` without a token is named, exit 2, not answered by the
/// embedded sandbox.
#[test]
fn a_closed_pipe_is_quiet_and_a_base_url_needs_a_token() {
    let dir = tempfile::tempdir().unwrap();
    let base = |c: &mut std::process::Command| {
        c.env_clear()
            .env("HOME", dir.path())
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .arg("--data-dir")
            .arg(dir.path());
    };
    let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("prospect"));
    base(&mut c);
    let mut child = c
        .arg("data-fields")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The reader is gone before the first line is written.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("Broken pipe"), "{err}");
    let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("prospect"));
    base(&mut c);
    let out = c
        .args(["--base-url", "http://127.0.0.1:9", "credits"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no API token"), "{err}");
}

#[path = "cli/owned.rs"]
mod owned;
