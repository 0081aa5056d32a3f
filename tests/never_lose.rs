//! Never lose, never hang (issue 34): the real binary against a sandbox started in this process
//! on 127.0.0.1, through the fault proxy, with a store in a temp dir. Each test is one of the
//! issue's "Done when" items.

#[path = "sandbox_service/support.rs"]
mod support;

#[path = "support/fault_proxy.rs"]
mod fault_proxy;

#[path = "support/cli_run.rs"]
mod cli_run;

use std::process::Stdio;
use std::time::{Duration, Instant};

use cli_run::{CLI, known_domains, prospect, run, sandbox_with, signal, write_lines};
use fault_proxy::{Fault, FaultProxy};
use prospect::api::client::Endpoint;
use prospect::sandbox::service::accounts::Plan as AccountPlan;
use serde_json::Value;

/// The domains a proxy's forwarded lookups asked for, over `log`.
fn looked_up(log: &[fault_proxy::Exchange]) -> usize {
    log.iter()
        .filter(|e| e.endpoint() == Some(Endpoint::LookupCompanies) && e.fault.forwarded())
        .map(|e| {
            let v: Value = serde_json::from_slice(&e.body).unwrap();
            v["domains"].as_array().map_or(0, Vec::len)
        })
        .sum()
}

/// A proxy in front of `upstream` for the CLI's account that passes everything unless
/// scripted, without reading balances (they would count against the account's allowance).
async fn quiet_proxy(upstream: &str) -> FaultProxy {
    let proxy = FaultProxy::start_unmeasured(upstream, CLI).await;
    proxy.set_faults(false);
    proxy
}

fn lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A truncated, a garbage and a `companies: {}` answer to a 2,000-domain lookup: exit 10, the
/// complete records before the cut kept and written (no key written "not found"), and the
/// rerun finds every domain, buying only what was not kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_answer_keeps_what_reads_and_the_rerun_buys_only_the_rest() {
    let sb = sandbox_with(10_000).await;
    let proxy = quiet_proxy(&sb.base_url).await;
    let domains = known_domains(&sb, 2000).await;
    assert_eq!(domains.len(), 2000);
    for fault in [
        Fault::Truncate,
        Fault::Garbage,
        Fault::NotAList,
        Fault::CutMidBody,
    ] {
        let dir = tempfile::tempdir().unwrap();
        let list = dir.path().join("domains.txt");
        write_lines(&list, &domains);
        let args = cli_run::lookup_file_args(&list);
        proxy.script([fault]);
        let before = proxy.log().len();
        let (code, out, err) = run(prospect(&proxy.base_url, dir.path(), &args)).await;
        assert_eq!(code, 10, "{fault:?}: {err}");
        assert!(
            err.contains("run again") || err.contains("again buys"),
            "{fault:?}: {err}"
        );
        let first = lines(&out);
        assert!(
            first.iter().all(|e| e["found"] == true),
            "{fault:?}: no key is written as not found"
        );
        let kept = first.len();
        assert!(kept >= 1000, "{fault:?}: the other batch is whole: {kept}");
        if matches!(fault, Fault::Truncate | Fault::Garbage | Fault::CutMidBody) {
            assert!(
                kept > 1000,
                "{fault:?}: records before the cut are kept: {kept}"
            );
        }
        assert_eq!(looked_up(&proxy.log()[before..]), 2000);

        let before = proxy.log().len();
        let (code, out, err) = run(prospect(&proxy.base_url, dir.path(), &args)).await;
        assert_eq!(code, 0, "{fault:?}: {err}");
        let again = lines(&out);
        assert_eq!(again.len(), 2000, "{fault:?}");
        assert!(
            again.iter().all(|e| e["found"] == true),
            "{fault:?}: every domain the sandbox has is found"
        );
        assert_eq!(
            looked_up(&proxy.log()[before..]),
            2000 - kept,
            "{fault:?}: the rerun buys only what was not kept"
        );
        eprintln!("{fault:?}: {kept} of 2000 kept from the first run");
    }
}

/// A search page that does not read: exit 10, and the next run buys that page again without a
/// false "another process" message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_search_page_is_bought_again_by_the_next_run() {
    let sb = sandbox_with(10_000).await;
    let proxy = quiet_proxy(&sb.base_url).await;
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "search",
        "companies",
        "--limit",
        "40",
        "--max-credits",
        "100",
    ];
    proxy.script([Fault::Truncate]);
    let (code, out, err) = run(prospect(&proxy.base_url, dir.path(), &args)).await;
    assert_eq!(code, 10, "{err}");
    assert!(out.lines().count() < 40, "{out}");
    let (code, out, err) = run(prospect(&proxy.base_url, dir.path(), &args)).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 40);
    assert!(!err.contains("another process"), "{err}");
}

/// A used-up daily allowance (the balance call itself answered 429 with hours to wait): every
/// paid command fails within 15 s with exit 6 and the reset time; nothing hangs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_used_up_daily_allowance_fails_fast() {
    let sb = sandbox_with(10_000).await;
    let proxy = FaultProxy::start_unmeasured(&sb.base_url, CLI).await;
    proxy.set_daily_limit(true);
    let commands: [&[&str]; 4] = [
        &["search", "companies", "--limit", "5"],
        &["lookup", "companies", "stripe.com"],
        &["enrich", "company", "--domain", "stripe.com"],
        &["search", "people", "--limit", "5", "--max-credits", "50"],
    ];
    for args in commands {
        let dir = tempfile::tempdir().unwrap();
        let t0 = Instant::now();
        let (code, _, err) = run(prospect(&proxy.base_url, dir.path(), args)).await;
        let took = t0.elapsed();
        assert_eq!(code, 6, "{args:?}: {err}");
        assert!(err.contains("resets in"), "{args:?}: {err}");
        assert!(took < Duration::from_secs(15), "{args:?} took {took:?}");
    }
}

/// An account allowed 6 requests a minute, prospect not told: a 9-batch lookup waits the
/// per-minute 429s out and exits 0, each batch paid once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_six_a_minute_account_finishes_a_nine_batch_lookup() {
    let mut acct = support::account(CLI, AccountPlan::Legacy, 1e6, 1e6, 1e6);
    acct.rate_per_minute = Some(6);
    let mut cfg = support::config(vec![acct]);
    cfg.rate_per_minute = 10_000;
    let sb = prospect::sandbox::service::spawn(cfg).await.unwrap();
    let proxy = quiet_proxy(&sb.base_url).await;
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("domains.txt");
    let domains: Vec<String> = (0..9000).map(|i| format!("nine-{i}.example.com")).collect();
    write_lines(&list, &domains);
    let (code, out, err) = run(prospect(
        &proxy.base_url,
        dir.path(),
        &cli_run::lookup_file_args(&list),
    ))
    .await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 9000);
    let log = proxy.log();
    let paid: Vec<_> = log
        .iter()
        .filter(|e| e.endpoint() == Some(Endpoint::LookupCompanies) && e.status == 200)
        .collect();
    assert_eq!(paid.len(), 9, "each batch answered (and paid) once");
    let limited = log.iter().filter(|e| e.status == 429).count();
    eprintln!("9 batches at 6 a minute: {limited} answered 429 on the way");
    if limited > 0 {
        assert!(err.contains("rate limited"), "the wait is said: {err}");
    }
}

/// A search over the balance is refused with exit 4 before anything is sent, saying how many
/// rows fit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_over_the_balance_is_refused_before_sending() {
    let acct = support::account(CLI, AccountPlan::Legacy, 3.0, 0.0, 0.0);
    let sb = prospect::sandbox::service::spawn(support::config(vec![acct]))
        .await
        .unwrap();
    let proxy = quiet_proxy(&sb.base_url).await;
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = run(prospect(
        &proxy.base_url,
        dir.path(),
        &[
            "search",
            "companies",
            "--limit",
            "100",
            "--max-credits",
            "50",
        ],
    ))
    .await;
    assert_eq!(code, 4, "{err}");
    assert!(out.is_empty());
    assert!(err.contains("credits left") && err.contains("fit"), "{err}");
    assert!(
        proxy
            .log()
            .iter()
            .all(|e| !e.endpoint().is_some_and(Endpoint::is_search)),
        "nothing paid was sent"
    );
}

/// `--out` checks before anything is paid: a dangling link creates nothing; a FIFO without a
/// reader ends on one SIGTERM; `--filters /dev/zero` is refused at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outputs_and_inputs_are_checked_before_anything_is_paid() {
    let sb = sandbox_with(10_000).await;
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("leads.csv");
    let nowhere = dir.path().join("nowhere/deep/leads.csv");
    std::os::unix::fs::symlink(&nowhere, &link).unwrap();
    let search = |out: &str| {
        [
            "search",
            "companies",
            "--limit",
            "5",
            "--format",
            "csv",
            "--out",
        ]
        .into_iter()
        .map(str::to_string)
        .chain([out.to_string()])
        .collect::<Vec<_>>()
    };
    let args = search(link.to_str().unwrap());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, _, err) = run(prospect(&sb.base_url, dir.path(), &args)).await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("does not exist"), "{err}");
    assert!(!dir.path().join("nowhere").exists(), "nothing created");

    let t0 = Instant::now();
    let (code, _, err) = run(prospect(
        &sb.base_url,
        dir.path(),
        &["search", "companies", "--filters", "/dev/zero"],
    ))
    .await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("larger than"), "{err}");
    assert!(t0.elapsed() < Duration::from_secs(5));

    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let args = search(fifo.to_str().unwrap());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let child = prospect(&sb.base_url, dir.path(), &args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let t0 = Instant::now();
    signal(child.id(), "-TERM");
    let out = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    assert!(t0.elapsed() < Duration::from_secs(5), "one SIGTERM ends it");
    assert_eq!(
        out.status.code(),
        Some(143),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `prospect resume ID` with no options finishes an interrupted `search --format csv --out F
/// --max-credits N` into F, as CSV.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resume_alone_finishes_a_job_with_its_own_options() {
    let sb = sandbox_with(10_000).await;
    let proxy = quiet_proxy(&sb.base_url).await;
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("z.csv");
    // The second page waits, so the search is stopped while it is in flight.
    proxy.script([Fault::Pass, Fault::Delay(3000)]);
    let child = prospect(
        &proxy.base_url,
        dir.path(),
        &[
            "search",
            "companies",
            "--limit",
            "3000",
            "--max-credits",
            "700",
            "--format",
            "csv",
            "--out",
            out_file.to_str().unwrap(),
        ],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let t0 = Instant::now();
    while proxy
        .log()
        .iter()
        .filter(|e| e.endpoint().is_some_and(Endpoint::is_search))
        .count()
        < 1
        || proxy.arrived() < 3
    {
        assert!(t0.elapsed() < Duration::from_secs(30));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    signal(child.id(), "-INT");
    let out = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    let id = err
        .split("prospect resume ")
        .nth(1)
        .and_then(|t| t.split(|c: char| !c.is_ascii_digit()).next())
        .unwrap_or_else(|| panic!("names the job: {err}"))
        .to_string();
    let (code, _, err) = run(prospect(&proxy.base_url, dir.path(), &["resume", &id])).await;
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out_file).unwrap();
    let mut rows = text.lines();
    assert!(rows.next().unwrap().contains("domain"), "a CSV header");
    assert_eq!(rows.count(), 3000, "every row, as CSV");
}

/// A store whose `purchases` table was dropped: nothing is paid until `store migrate` makes it
/// again, and then nothing is paid twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_missing_a_table_pays_nothing_until_repaired() {
    let sb = sandbox_with(10_000).await;
    let proxy = quiet_proxy(&sb.base_url).await;
    let domains = known_domains(&sb, 20).await;
    let dir = tempfile::tempdir().unwrap();
    let lookup = |d: &[String]| {
        let mut a = vec!["lookup".to_string(), "companies".to_string()];
        a.extend(d.iter().cloned());
        a
    };
    let first = lookup(&domains[..10]);
    let first: Vec<&str> = first.iter().map(String::as_str).collect();
    let (code, _, err) = run(prospect(&proxy.base_url, dir.path(), &first)).await;
    assert_eq!(code, 0, "{err}");
    let db = dir.path().join("data/prospect.sqlite");
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch("DROP TABLE purchases")
        .unwrap();

    let second = lookup(&domains[10..]);
    let second: Vec<&str> = second.iter().map(String::as_str).collect();
    let before = proxy.log().len();
    let (code, out, err) = run(prospect(&proxy.base_url, dir.path(), &second)).await;
    assert_eq!(code, 5, "{err}");
    assert!(err.contains("missing table(s) purchases"), "{err}");
    assert!(out.is_empty());
    assert_eq!(looked_up(&proxy.log()[before..]), 0, "nothing paid");

    let (code, out, err) = run(prospect(&proxy.base_url, dir.path(), &["store", "migrate"])).await;
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("purchases"), "{out}");
    let (code, out, err) = run(prospect(&proxy.base_url, dir.path(), &second)).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 10);
    let before = proxy.log().len();
    let (code, _, err) = run(prospect(&proxy.base_url, dir.path(), &second)).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(looked_up(&proxy.log()[before..]), 0, "nothing paid twice");
}

/// A full disk: the store cannot write and the recovery folder beside it cannot be made, so the
/// answer goes to the second recovery folder, is named (exit 11) and imported at the next
/// start, which pays nothing more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_no_store_can_write_is_kept_in_the_second_place() {
    let sb = sandbox_with(10_000).await;
    let domains = known_domains(&sb, 10).await;
    let proxy = quiet_proxy(&sb.base_url).await;
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = run(prospect(&proxy.base_url, dir.path(), &["jobs"])).await;
    assert_eq!(code, 0, "{err}");
    // The recovery folder cannot be made: a file holds its name.
    std::fs::write(dir.path().join("data/recovery"), "not a folder").unwrap();
    let second =
        prospect::core::engine::fallback_recovery_dir(Some(&dir.path().join("data/recovery")));
    let _ = std::fs::remove_dir_all(&second);
    let mut args = vec!["lookup", "companies"];
    args.extend(domains.iter().map(String::as_str));
    let child = proxy
        .spawn_held(prospect(&proxy.base_url, dir.path(), &args), 1500)
        .await;
    // Hold the store's write lock while the answer comes back.
    let db = dir.path().join("data/prospect.sqlite");
    let (locked_tx, locked_rx) = std::sync::mpsc::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let holder = std::thread::spawn(move || {
        let c = rusqlite::Connection::open(&db).unwrap();
        c.execute_batch("BEGIN IMMEDIATE").unwrap();
        locked_tx.send(()).unwrap();
        let _ = release_rx.recv();
        c.execute_batch("ROLLBACK").unwrap();
    });
    locked_rx.recv().unwrap();
    let out = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    release_tx.send(()).unwrap();
    holder.join().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(11), "{err}");
    assert!(
        err.contains(&second.display().to_string()),
        "names where: {err}"
    );
    assert_eq!(std::fs::read_dir(&second).unwrap().count(), 1);

    let before = proxy.log().len();
    let (code, out, err) = run(prospect(&proxy.base_url, dir.path(), &args)).await;
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().all(|l| l.contains("storedAt")), "{out}");
    assert_eq!(
        looked_up(&proxy.log()[before..]),
        0,
        "imported, not bought again"
    );
    assert_eq!(std::fs::read_dir(&second).unwrap().count(), 0);
}

/// A reveal whose delivery comes after the CLI exited (`--wait 0`), on a loopback service: the
/// webhook port is kept per data dir, so the service's retry reaches the next run, which keeps
/// it and pays nothing more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delivery_after_the_cli_exited_is_kept_by_the_next_run() {
    let mut cfg = support::config(cli_run::accounts());
    cfg.webhooks.delay = Duration::from_millis(2500);
    cfg.webhooks.first_retry = Duration::from_millis(500);
    cfg.webhooks.max_attempts = 8;
    let sb = prospect::sandbox::service::spawn(cfg).await.unwrap();
    let proxy = quiet_proxy(&sb.base_url).await;
    let ids = support::some_person_ids(&support::client(&sb, support::RICH), 2)
        .await
        .join(",");
    let dir = tempfile::tempdir().unwrap();
    let reveal = |wait: &str| {
        ["reveal", "emails", "--ids", &ids, "--wait", wait]
            .map(str::to_string)
            .to_vec()
    };
    // `--wait 0`: sent, not waited for; nothing is lost, so it succeeds and says so.
    let args = reveal("0");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, _, err) = run(prospect(&proxy.base_url, dir.path(), &args)).await;
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("not waited for"), "{err}");
    let kept = std::fs::read_to_string(dir.path().join("data/webhook_port")).unwrap();
    assert!(kept.trim().parse::<u16>().is_ok(), "{kept}");
    tokio::time::sleep(Duration::from_millis(2000)).await;

    let args = reveal("30");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = run(prospect(&proxy.base_url, dir.path(), &args)).await;
    assert_eq!(code, 0, "{err}");
    let rows = lines(&out);
    assert_eq!(rows.len(), 2, "{out}");
    let reveals = proxy
        .log()
        .iter()
        .filter(|e| e.endpoint() == Some(Endpoint::RevealEmails))
        .count();
    assert_eq!(reveals, 1, "the reveal was paid once");
}

/// A per-minute 429 is waited out, and one SIGTERM ends the wait within seconds (exit 143),
/// nothing sent after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_ends_a_rate_limit_wait_at_once() {
    let mut acct = support::account(CLI, AccountPlan::Legacy, 1e6, 1e6, 1e6);
    acct.rate_per_minute = Some(1);
    let sb = prospect::sandbox::service::spawn(support::config(vec![acct]))
        .await
        .unwrap();
    let proxy = quiet_proxy(&sb.base_url).await;
    let dir = tempfile::tempdir().unwrap();
    let child = prospect(
        &proxy.base_url,
        dir.path(),
        &["lookup", "companies", "stripe.com"],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let t0 = Instant::now();
    while !proxy.log().iter().any(|e| e.status == 429) {
        assert!(t0.elapsed() < Duration::from_secs(20), "a 429 comes");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let sent = proxy.log().len();
    let t0 = Instant::now();
    signal(child.id(), "-TERM");
    let out = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{err}");
    assert_eq!(proxy.log().len(), sent, "nothing sent after the signal");
}

/// A batch enrichment whose deliveries are still awaited: its dry run counts them pending, not
/// to buy, and the run does not send them again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_enrichment_awaited_is_pending_in_the_plan() {
    let mut cfg = support::config(cli_run::accounts());
    cfg.webhooks.delay = Duration::from_secs(30);
    let sb = prospect::sandbox::service::spawn(cfg).await.unwrap();
    let proxy = quiet_proxy(&sb.base_url).await;
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("domains.txt");
    write_lines(&list, &known_domains(&sb, 5).await);
    let file = list.to_str().unwrap();
    let args = ["enrich", "companies", "--file", file, "--wait", "1"];
    let (code, _, err) = run(prospect(&proxy.base_url, dir.path(), &args)).await;
    assert_eq!(code, 9, "not delivered in time: {err}");
    let (code, out, err) = run(prospect(
        &proxy.base_url,
        dir.path(),
        &[
            "enrich",
            "companies",
            "--file",
            file,
            "--dry-run",
            "--format",
            "json",
        ],
    ))
    .await;
    assert_eq!(code, 0, "{err}");
    let plan: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(plan["pending"], 5, "{plan}");
    assert_eq!(plan["toBuy"], 0, "{plan}");
    let sent = proxy.log().len();
    let (code, _, _) = run(prospect(&proxy.base_url, dir.path(), &args)).await;
    assert_eq!(code, 9);
    let enrich = proxy.log()[sent..]
        .iter()
        .filter(|e| e.endpoint() == Some(Endpoint::EnrichCompanies))
        .count();
    assert_eq!(enrich, 0, "not sent again");
}
