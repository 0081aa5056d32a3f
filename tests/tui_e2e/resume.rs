//! An explorer killed mid-way (lookup, export, reveal) is resumed by the next one, paying only the rest.

use super::*;

/// Waits until `proxy` has answered at least `n` requests to `endpoint` and holds another
/// (arrived, not yet answered), then kills the explorer `t` with SIGKILL and waits for it.
fn kill_while_held(
    t: Tui,
    proxy: &fault_proxy::FaultProxy,
    endpoint: prospect::api::client::Endpoint,
    n: usize,
) {
    let t0 = Instant::now();
    while !{
        let log = proxy.log();
        log.iter()
            .filter(|e| e.endpoint() == Some(endpoint))
            .count()
            >= n
            && proxy.arrived() > log.len()
    } {
        assert!(
            t0.elapsed() < TIMEOUT,
            "the requests are sent; screen:\n{}",
            t.screen()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Time to keep what was answered.
    std::thread::sleep(Duration::from_millis(1500));
    let mut t = t;
    let pid = t.child.process_id().expect("a pid");
    let kill = std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let t0 = Instant::now();
    while t.child.try_wait().unwrap().is_none() {
        assert!(t0.elapsed() < TIMEOUT, "killed");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The job of `kind` that `prospect jobs` lists for data dir `home/data`, as its JSON.
fn listed_job(
    rt: &tokio::runtime::Runtime,
    base: &str,
    home: &std::path::Path,
    kind: &str,
) -> serde_json::Value {
    let (code, out, err) = rt.block_on(cli_run::run(cli_run::prospect(
        base,
        home,
        &["jobs", "--format", "jsonl"],
    )));
    assert_eq!(code, 0, "{err}");
    out.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        // One record with real fields per job (issue 38), not a {key, value} pair.
        .inspect(|j| assert!(j.get("value").is_none() && j.get("id").is_some(), "{j}"))
        .find(|j| j["kind"] == kind)
        .unwrap_or_else(|| panic!("a {kind} job is listed: {out}"))
}

/// Issue 35: a lookup started in the explorer is a job. The explorer looks up 2,500 known
/// domains (three requests of at most 1,000) through a proxy that passes the first and holds
/// the others; killed with SIGKILL while they are held, `prospect jobs` lists the lookup as
/// interrupted, the explorer started again offers it, and `prospect resume ID` finishes it
/// sending only the 1,500 domains the first request did not buy.
#[test]
fn a_lookup_in_the_explorer_killed_mid_way_is_resumed_paying_only_the_rest() {
    use fault_proxy::{Fault, FaultProxy};
    let rt = tokio::runtime::Runtime::new().unwrap();
    let sb = rt.block_on(cli_run::sandbox_with(10_000));
    let domains = rt.block_on(cli_run::known_domains(&sb, 2500));
    let proxy = rt.block_on(FaultProxy::start_unmeasured(&sb.base_url, cli_run::CLI));
    proxy.set_faults(false);
    proxy.script([Fault::Pass, Fault::Delay(60_000), Fault::Delay(60_000)]);
    let home = tempfile::tempdir().unwrap();
    let cfg = home.path().join("config.toml");
    std::fs::write(&cfg, "confirm_above = 1000000.0\n").unwrap();
    let data = home.path().join("data");
    let list = home.path().join("domains.txt");
    cli_run::write_lines(&list, &domains);
    let args = [
        "--config",
        cfg.to_str().unwrap(),
        "--data-dir",
        data.to_str().unwrap(),
    ];
    let env = |base: &str| {
        vec![
            ("PROSPECT_API_TOKEN".to_string(), cli_run::CLI.to_string()),
            ("PROSPECT_BASE_URL".to_string(), base.to_string()),
        ]
    };
    let explorer = |base: &str| {
        let e = env(base);
        let e: Vec<(&str, &str)> = e.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        start_with_args(home.path(), &e, &args)
    };

    let mut t = explorer(&proxy.base_url);
    t.wait_until("the credit balance", |s| s.contains("standard"));
    // On the companies tab, Ctrl-l looks up companies.
    t.send(&ctrl('l'));
    t.wait_for("Look up companies");
    t.send(format!("\x1b[200~{}\x1b[201~", list.display()).as_bytes());
    t.wait_for("file ");
    t.send(ENTER);
    // The first request answered, the second held: kill it there.
    kill_while_held(
        t,
        &proxy,
        prospect::api::client::Endpoint::LookupCompanies,
        1,
    );

    // `prospect jobs`: the lookup, interrupted.
    let after = rt.block_on(FaultProxy::start_unmeasured(&sb.base_url, cli_run::CLI));
    after.set_faults(false);
    let job = listed_job(&rt, &after.base_url, home.path(), "lookup_companies");
    assert_eq!(job["state"], "interrupted", "{job}");
    let id = job["id"].as_i64().unwrap();

    // The explorer, started again, offers it.
    let mut t = explorer(&after.base_url);
    t.wait_for("unfinished paid action");
    t.keys("q");
    let t0 = Instant::now();
    while t.child.try_wait().unwrap().is_none() {
        assert!(
            t0.elapsed() < TIMEOUT,
            "prospect did not exit; screen:\n{}",
            t.screen()
        );
        std::thread::sleep(Duration::from_millis(25));
        if t0.elapsed() > Duration::from_secs(2) {
            t.keys("q");
        }
    }

    // `prospect resume ID`: only the rest is sent, and every domain comes out found.
    let (code, out, err) = rt.block_on(cli_run::run(cli_run::prospect(
        &after.base_url,
        home.path(),
        &["resume", &id.to_string(), "--format", "jsonl"],
    )));
    assert_eq!(code, 0, "{err}");
    let sent: usize = after
        .log()
        .iter()
        .filter(|e| e.endpoint() == Some(prospect::api::client::Endpoint::LookupCompanies))
        .map(|e| {
            let v: serde_json::Value = serde_json::from_slice(&e.body).unwrap();
            v["domains"].as_array().map_or(0, Vec::len)
        })
        .sum();
    assert_eq!(sent, 1500, "only what the first request did not buy");
    let found = out
        .lines()
        .filter(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["found"] == true)
        .count();
    assert_eq!(found, 2500, "{err}");
    drop(rt);
}

/// Issue 35: the export of the first N started in the explorer is a job of the engine's one
/// door. With the first page (25) shown, the export of the first 100 reads that page from the
/// store and asks for the 75 others in one request, which a proxy holds; killed with SIGKILL
/// then, `prospect jobs` lists it interrupted, and `prospect resume ID` writes the file,
/// buying only the 75 results no page had bought, in one request.
#[test]
fn an_export_in_the_explorer_killed_mid_way_is_resumed_into_its_file() {
    use fault_proxy::{Fault, FaultProxy};
    let rt = tokio::runtime::Runtime::new().unwrap();
    let sb = rt.block_on(cli_run::sandbox_with(10_000));
    let proxy = rt.block_on(FaultProxy::start_unmeasured(&sb.base_url, cli_run::CLI));
    proxy.set_faults(false);
    proxy.script([Fault::Pass, Fault::Delay(60_000)]);
    let home = tempfile::tempdir().unwrap();
    let cfg = home.path().join("config.toml");
    std::fs::write(&cfg, "confirm_above = 1000000.0\n").unwrap();
    let data = home.path().join("data");
    let file = home.path().join("first-100.csv");
    let mut t = start_with_args(
        home.path(),
        &[
            ("PROSPECT_API_TOKEN", cli_run::CLI),
            ("PROSPECT_BASE_URL", proxy.base_url.as_str()),
        ],
        &[
            "--config",
            cfg.to_str().unwrap(),
            "--data-dir",
            data.to_str().unwrap(),
        ],
    );
    t.wait_until("the credit balance", |s| s.contains("standard"));
    t.send(&ctrl('r'));
    t.wait_for("rows 1–25");
    // Ctrl-e: rows ‹ first N ›, N 100, the file; Enter fetches at once (nothing asks).
    t.send(&ctrl('e'));
    t.wait_for("Export companies");
    t.send(TAB);
    t.send(TAB);
    t.send(DOWN);
    for _ in 0..8 {
        t.send(BACKSPACE);
    }
    t.keys("100");
    t.send(DOWN);
    t.send(DOWN);
    for _ in 0..120 {
        t.send(BACKSPACE);
    }
    t.send(format!("\x1b[200~{}\x1b[201~", file.display()).as_bytes());
    t.wait_for("first-100.csv");
    t.send(ENTER);
    kill_while_held(
        t,
        &proxy,
        prospect::api::client::Endpoint::SearchCompaniesV3,
        1,
    );
    assert!(!file.exists(), "nothing was written before the kill");

    // The same service (searches are kept per service): the held page is not forwarded until
    // long after the resume.
    let after = &proxy;
    let before = after.log().len();
    let job = listed_job(&rt, &after.base_url, home.path(), "search");
    assert_eq!(job["state"], "interrupted", "{job}");
    let id = job["id"].as_i64().unwrap();
    let (code, _, err) = rt.block_on(cli_run::run(cli_run::prospect(
        &after.base_url,
        home.path(),
        &["resume", &id.to_string()],
    )));
    assert_eq!(code, 0, "{err}");
    let sizes: Vec<u64> = after.log()[before..]
        .iter()
        .filter(|e| e.endpoint() == Some(prospect::api::client::Endpoint::SearchCompaniesV3))
        .map(|e| {
            let v: serde_json::Value = serde_json::from_slice(&e.body).unwrap();
            v["size"].as_u64().unwrap_or(0)
        })
        .collect();
    assert_eq!(sizes, [75], "only the 75 results no page had bought");
    let written = std::fs::read_to_string(&file).expect("the resume writes the export's file");
    assert_eq!(
        written.lines().count(),
        1 + 100,
        "a header and the first 100"
    );
    drop(rt);
}

/// Issue 35: a reveal started in the explorer is a job. Three people are revealed through a
/// proxy that holds the reveal request; killed with SIGKILL while it is held, `prospect jobs`
/// lists the reveal as interrupted, and `prospect resume ID` finishes it: the three ids sent in
/// one request, their emails printed, nothing else bought.
#[test]
fn a_reveal_in_the_explorer_killed_mid_way_is_resumed() {
    use fault_proxy::{Fault, FaultProxy};
    use prospect::api::client::Endpoint;
    let rt = tokio::runtime::Runtime::new().unwrap();
    let sb = rt.block_on(cli_run::sandbox_with(10_000));
    let proxy = rt.block_on(FaultProxy::start_unmeasured(&sb.base_url, cli_run::CLI));
    proxy.set_faults(false);
    // The people search passes; the reveal is held.
    proxy.script([Fault::Pass, Fault::Delay(60_000)]);
    let home = tempfile::tempdir().unwrap();
    let cfg = home.path().join("config.toml");
    std::fs::write(&cfg, "confirm_above = 1000000.0\n").unwrap();
    let data = home.path().join("data");
    let mut t = start_with_args(
        home.path(),
        &[
            ("PROSPECT_API_TOKEN", cli_run::CLI),
            ("PROSPECT_BASE_URL", proxy.base_url.as_str()),
        ],
        &[
            "--config",
            cfg.to_str().unwrap(),
            "--data-dir",
            data.to_str().unwrap(),
        ],
    );
    t.wait_until("the credit balance", |s| s.contains("standard"));
    t.keys("t");
    t.send(&ctrl('r'));
    t.wait_for("rows 1–25");
    t.send(TAB);
    t.keys("   ");
    t.wait_for("3 marked");
    t.keys("r");
    kill_while_held(t, &proxy, Endpoint::RevealEmails, 0);

    let job = listed_job(&rt, &proxy.base_url, home.path(), "reveal_emails");
    assert_eq!(job["state"], "interrupted", "{job}");
    let id = job["id"].as_i64().unwrap();
    let before = proxy.log().len();
    let (code, out, err) = rt.block_on(cli_run::run(cli_run::prospect(
        &proxy.base_url,
        home.path(),
        &["resume", &id.to_string(), "--format", "jsonl"],
    )));
    assert_eq!(code, 0, "{err}");
    let sent: Vec<usize> = proxy.log()[before..]
        .iter()
        .filter(|e| e.endpoint() == Some(Endpoint::RevealEmails))
        .map(|e| {
            let v: serde_json::Value = serde_json::from_slice(&e.body).unwrap();
            v["personIds"].as_array().map_or(0, Vec::len)
        })
        .collect();
    assert_eq!(sent, [3], "one request for the three: {err}");
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3, "{out}");
    drop(rt);
}
