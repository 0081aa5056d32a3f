//! The team store (issue 17): processes with their own data directories sharing one ledger on
//! a real PostgreSQL server, started by the test in a temporary folder (`initdb`, `pg_ctl`).
//! Without PostgreSQL on the machine these tests are compiled as ignored (see `build.rs`).

#[path = "sandbox_service/support.rs"]
mod support;

#[path = "support/cli_run.rs"]
mod cli_run;

#[path = "support/fault_proxy.rs"]
mod fault_proxy;

use cli_run::{CLI, known_domains, prospect, run, sandbox_with, write_lines};
use fault_proxy::{Fault, FaultProxy};
use prospect::api::client::Client;
use prospect::store::pg_server::TempServer;
use support::client;

/// (standard, email) credits of the CLI account.
async fn pools(c: &Client) -> (f64, f64) {
    let b = c.credit_balance().await.unwrap();
    let t =
        |p: Option<prospect::api::types::Credits>| p.map_or(f64::NAN, |p| p.one_time + p.recurrent);
    (t(b.credits), t(b.email_credits))
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// A server and a fresh database on it, off the async threads.
async fn team_db(name: &str) -> (TempServer, String) {
    let name = name.to_string();
    tokio::task::spawn_blocking(move || {
        let server = TempServer::start().expect("PostgreSQL starts");
        let url = server.create_db(&name).unwrap();
        (server, url)
    })
    .await
    .unwrap()
}

/// Two processes with different data directories, one PostgreSQL store, started at the same
/// moment, look up the same 2,000 domains: they pay once between them and both print all
/// 2,000 entries.
#[cfg_attr(no_postgres, ignore = "needs PostgreSQL (initdb)")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_look_up_the_same_domains_once() {
    let (_server, url) = team_db("lookups").await;
    let sb = sandbox_with(10_000).await;
    let domains = known_domains(&sb, 2_000).await;
    let work = tempfile::tempdir().unwrap();
    let list = work.path().join("domains.txt");
    write_lines(&list, &domains);
    let c = client(&sb, CLI);
    let before = pools(&c).await;
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let runs: Vec<_> = dirs
        .iter()
        .map(|d| {
            let mut cmd = prospect(&sb.base_url, d.path(), &cli_run::lookup_file_args(&list));
            cmd.env("PROSPECT_STORE_URL", &url);
            run(cmd)
        })
        .collect();
    let results = futures::future::join_all(runs).await;
    for (code, out, err) in &results {
        assert_eq!(*code, 0, "{err}");
        assert_eq!(out.lines().count(), 2_000);
    }
    let spent = round(before.0 - pools(&c).await.0);
    eprintln!("two processes on one PostgreSQL store spent {spent} credits for 2,000 domains");
    assert_eq!(spent, 100.0, "2,000 × 0.05, once");
    // Neither data directory holds a store file: everything went to the team's.
    for d in &dirs {
        assert!(!d.path().join("data/prospect.sqlite").exists());
    }
}

/// Two processes revealing the emails of the same 100 people at once on one PostgreSQL store
/// drain the email pool as one run alone does, not twice, and both print all 100 contacts,
/// whichever process's receiver got the webhook.
#[cfg_attr(no_postgres, ignore = "needs PostgreSQL (initdb)")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_reveal_the_same_people_once() {
    let (_server, url) = team_db("reveals").await;
    let sb = sandbox_with(10_000).await;
    let rich = client(&sb, support::RICH);
    let ids = support::some_person_ids(&rich, 100).await;
    assert_eq!(ids.len(), 100);
    let ids = ids.join(",");
    let c = client(&sb, CLI);
    let reveal = |dir: &std::path::Path, store: Option<&str>| {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        std::fs::write(
            dir.join("config.toml"),
            format!(
                "webhook_public_url = \"http://127.0.0.1:{port}\"\nwebhook_listen = \"127.0.0.1:{port}\"\n"
            ),
        )
        .unwrap();
        let mut cmd = prospect(
            &sb.base_url,
            dir,
            &[
                "reveal",
                "emails",
                "--ids",
                &ids,
                "--wait",
                "60",
                "--max-credits",
                "1000",
            ],
        );
        if let Some(u) = store {
            cmd.env("PROSPECT_STORE_URL", u);
        }
        run(cmd)
    };
    // One run alone, on its own SQLite store: what revealing them costs.
    let alone = tempfile::tempdir().unwrap();
    let b0 = pools(&c).await;
    let (code, out, err) = reveal(alone.path(), None).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 100, "{out}");
    let b1 = pools(&c).await;
    let one_run = round(b0.1 - b1.1);
    assert!(one_run > 0.0, "revealing 100 people costs email credits");
    // Two at once on the team store.
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let runs: Vec<_> = dirs.iter().map(|d| reveal(d.path(), Some(&url))).collect();
    let results = futures::future::join_all(runs).await;
    let emails = |out: &str| out.lines().filter(|l| l.contains('@')).count();
    let expected = emails(&out);
    for (code, out, err) in &results {
        assert_eq!(*code, 0, "{err}");
        assert_eq!(out.lines().count(), 100, "{out}");
        assert_eq!(emails(out), expected, "every address, in both processes");
    }
    // Deliveries are charged when they arrive: give late ones a moment before reading.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let two = round(b1.1 - pools(&c).await.1);
    eprintln!(
        "revealing 100 people: alone {one_run} email credits; two processes on one store {two}"
    );
    assert_eq!(two, one_run, "the two pay once between them");
}

/// Counts (companies, people, contacts) of a store.
fn counts(store: &prospect::store::Store) -> (usize, usize, usize) {
    let (mut c, mut p, mut k) = (0, 0, 0);
    store
        .for_each_company(|_| {
            c += 1;
            Ok(())
        })
        .unwrap();
    store
        .for_each_person(|_| {
            p += 1;
            Ok(())
        })
        .unwrap();
    store
        .for_each_contact(|_| {
            k += 1;
            Ok(())
        })
        .unwrap();
    (c, p, k)
}

/// `prospect store copy` of a store of 10,000 companies and 1,000 contacts into PostgreSQL is
/// idempotent: run twice, the counts are unchanged and the second run adds nothing.
#[cfg_attr(no_postgres, ignore = "needs PostgreSQL (initdb)")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn store_copy_into_postgres_is_idempotent() {
    use prospect::api::client::Endpoint;
    use prospect::api::cost::Cost;
    use prospect::api::types::company::Company;
    use prospect::common::ContactKind;
    use prospect::store::{Contact, Entities, NewPurchase, Store};
    let (_server, url) = team_db("copied").await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.sqlite");
    {
        let mut store = Store::open(&file).unwrap();
        let companies: Vec<Company> = (0..10_000)
            .map(|i| Company {
                domain: format!("company-{i:05}.example"),
                name: Some(format!("Company {i}")),
                ..Default::default()
            })
            .collect();
        let now = chrono::Utc::now();
        store
            .record_purchase(&NewPurchase {
                endpoint: Endpoint::LookupCompanies,
                request: &serde_json::json!({"domains": ["…"]}),
                response: &serde_json::json!({}),
                charged: Cost::ZERO,
                target: "sandbox",
                at: now,
                entities: &Entities::companies(companies),
            })
            .unwrap();
        let contacts: Vec<Contact> = (0..1_000)
            .map(|i| Contact {
                person_id: format!("p{i:04}"),
                kind: ContactKind::Email,
                email: Some(format!("person{i}@company-{i:05}.example")),
                phones: vec![],
                status: "verified".into(),
                revealed_at: now,
            })
            .collect();
        store.put_contacts(&contacts, None).unwrap();
        store
            .create_list("targets", prospect::store::ListKind::Accounts)
            .unwrap();
        store
            .add_to_list(
                "targets",
                prospect::store::ListKind::Accounts,
                &[
                    "company-00001.example".into(),
                    "company-00002.example".into(),
                ],
            )
            .unwrap();
        assert_eq!(counts(&store), (10_000, 0, 1_000));
    }
    let copy = |n: usize| {
        let work = tempfile::tempdir().unwrap();
        let mut cmd = prospect(
            "http://127.0.0.1:9",
            work.path(),
            &[
                "store",
                "copy",
                "--from",
                &format!("sqlite://{}", file.display()),
                "--to",
                &url,
                "--format",
                "json",
            ],
        );
        cmd.env_remove("PROSPECT_STORE_URL");
        async move {
            let (code, out, err) = run(cmd).await;
            assert_eq!(code, 0, "copy {n}: {err}");
            drop(work);
            serde_json::from_str::<serde_json::Value>(out.trim()).unwrap()
        }
    };
    let first = copy(1).await;
    assert_eq!(first["companies"], 10_000, "{first}");
    assert_eq!(first["contacts"], 1_000, "{first}");
    assert_eq!(first["purchases"], 1, "{first}");
    assert_eq!(first["list_members"], 2, "{first}");
    let second = copy(2).await;
    for (k, v) in second.as_object().unwrap() {
        assert_eq!(v, 0, "the second copy added {k}: {second}");
    }
    let url2 = url.clone();
    let team = tokio::task::spawn_blocking(move || {
        let s = Store::open_postgres(&url2).unwrap();
        let members = s.list_members("targets").unwrap().unwrap().1;
        (counts(&s), members, s.purchases(10).unwrap().len())
    })
    .await
    .unwrap();
    assert_eq!(team.0, (10_000, 0, 1_000));
    assert_eq!(team.1, ["company-00001.example", "company-00002.example"]);
    assert_eq!(team.2, 1);
}

/// A buyer killed (SIGKILL) while it holds claims on the team store: the other buyer, waiting
/// on them, takes them over (at once on the same machine, whose processes it can see; after
/// the lease for another machine's) and the 1,000 domains are paid once in all.
#[cfg_attr(no_postgres, ignore = "needs PostgreSQL (initdb)")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_buyers_claims_are_taken_over_once() {
    let (_server, url) = team_db("killed").await;
    let sb = sandbox_with(10_000).await;
    let domains = known_domains(&sb, 1_000).await;
    let work = tempfile::tempdir().unwrap();
    let list = work.path().join("domains.txt");
    write_lines(&list, &domains);
    let args = cli_run::lookup_file_args(&list);
    let c = client(&sb, CLI);
    let before = pools(&c).await;
    // The first buyer's lookup is refused (429, nothing charged) again and again: it holds
    // its claims while it waits to try again.
    let proxy = FaultProxy::start(&sb.base_url, CLI, 7).await;
    proxy.set_faults(false);
    // (The script is for paid requests only: the plan's balance request passes.)
    proxy.script(std::iter::repeat_n(Fault::Refuse(429), 60));
    let first = tempfile::tempdir().unwrap();
    let mut a = prospect(&proxy.base_url, first.path(), &args);
    a.env("PROSPECT_STORE_URL", &url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut a = a.spawn().unwrap();
    let t0 = std::time::Instant::now();
    // The balance, then the lookup (refused).
    while proxy.arrived() < 2 {
        assert!(
            t0.elapsed() < std::time::Duration::from_secs(30),
            "the first buyer sends"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // The second buyer (straight to the service) finds the domains claimed and waits.
    let second = tempfile::tempdir().unwrap();
    let mut b = prospect(&sb.base_url, second.path(), &args);
    b.env("PROSPECT_STORE_URL", &url);
    let b = tokio::spawn(run(b));
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    a.kill().unwrap();
    let _ = a.wait();
    let (code, out, err) = b.await.unwrap();
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1_000);
    assert!(
        proxy.log().iter().all(|e| e.endpoint()
            != Some(prospect::api::client::Endpoint::LookupCompanies)
            || e.charged == 0.0),
        "the first buyer was never answered (nothing charged to it)"
    );
    let spent = round(before.0 - pools(&c).await.0);
    eprintln!("a killed buyer and a second one: {spent} credits for 1,000 domains");
    assert_eq!(spent, 50.0, "1,000 × 0.05, once");
}

/// A team store that cannot be reached at start (issue 17, "Failures"): every command says so
/// in one line with the password as `***`; what this machine's store already holds is read at
/// 0 credits; a paid call is refused before sending (exit 5, nothing spent, nothing kept); free
/// calls and store reads still work. Needs no PostgreSQL: the server is a closed port.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_team_store_refuses_paid_calls_and_reads_the_local_store() {
    let sb = sandbox_with(10_000).await;
    let domains = known_domains(&sb, 2).await;
    let dir = tempfile::tempdir().unwrap();
    let c = client(&sb, CLI);
    // Bought before, into this machine's own store.
    let mut first = prospect(
        &sb.base_url,
        dir.path(),
        &["lookup", "companies", &domains[0], "--max-credits", "10"],
    );
    first.env_remove("PROSPECT_STORE_URL");
    let (code, _, err) = run(first).await;
    assert_eq!(code, 0, "{err}");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let team = format!("postgres://prospect:hunter2secret@127.0.0.1:{port}/team");
    let offline = |args: &[&str]| {
        let mut cmd = prospect(
            &sb.base_url,
            dir.path(),
            &[&["--store-url", &team], args].concat(),
        );
        cmd.env_remove("PROSPECT_STORE_URL");
        run(cmd)
    };
    let before = pools(&c).await;

    // Owned: read from this machine's store, at 0 credits.
    let (code, out, err) =
        offline(&["lookup", "companies", &domains[0], "--max-credits", "10"]).await;
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&domains[0]), "{out}");
    let notice: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("the team store cannot be reached"))
        .collect();
    assert_eq!(notice.len(), 1, "one line at start: {err}");
    assert!(notice[0].contains("paid calls are refused"), "{err}");
    assert!(notice[0].contains("prospect:***@127.0.0.1"), "{err}");

    // Not owned: refused before sending, and said why.
    let (code, out, err) =
        offline(&["lookup", "companies", &domains[1], "--max-credits", "10"]).await;
    assert_eq!(code, 5, "refused before sending: {err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("nothing was sent"), "{err}");
    // A paid call without a plan of owned items (autocomplete, 0.1 credit) is refused too.
    let (code, _, err) = offline(&["autocomplete", "job-titles", "head of sal"]).await;
    assert_eq!(code, 5, "{err}");
    // Free calls and reads of the store still work.
    let (code, out, err) = offline(&["credits"]).await;
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("dailyLimitRateLeft"), "{out}");
    let (code, out, err) = offline(&["history", "--spend", "--format", "json"]).await;
    assert_eq!(code, 0, "{err}");
    let spends: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        spends.as_array().map(Vec::len),
        Some(1),
        "only the first lookup bought: {out}"
    );

    assert_eq!(
        pools(&c).await,
        before,
        "nothing spent while the team store was out of reach"
    );
    for (_, out, err) in [
        offline(&["credits"]).await,
        offline(&["lookup", "companies", &domains[1]]).await,
    ] {
        assert!(
            !out.contains("hunter2secret") && !err.contains("hunter2secret"),
            "{err}"
        );
    }
    // `store migrate` is for the team's server itself: no stand-in, exit 1.
    let (code, _, err) = offline(&["store", "migrate"]).await;
    assert_eq!(code, 1, "{err}");
    assert!(!err.contains("hunter2secret"), "{err}");
}

/// The team store's connection is lost in the middle of a job (the server ends it while the
/// paid answer is on its way; issue 17, "Failures"): as with a store that cannot write, the
/// answer goes to a recovery file on this machine, every record is still printed, and the
/// command exits 11; the next start imports it, and the same lookup is then read at 0 credits.
#[cfg_attr(no_postgres, ignore = "needs PostgreSQL (initdb)")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_lost_mid_job_hands_the_answer_to_a_recovery_file() {
    let (_server, url) = team_db("lost").await;
    let sb = sandbox_with(10_000).await;
    let domains = known_domains(&sb, 10).await;
    let proxy = FaultProxy::start(&sb.base_url, CLI, 7).await;
    proxy.set_faults(false);
    let c = client(&sb, CLI);
    let before = pools(&c).await;
    let dir = tempfile::tempdir().unwrap();
    proxy.script([Fault::Delay(1500)]);
    let mut args = vec!["lookup", "companies"];
    args.extend(domains.iter().map(String::as_str));
    let mut cmd = prospect(&proxy.base_url, dir.path(), &args);
    cmd.env("PROSPECT_STORE_URL", &url)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let child = cmd.spawn().unwrap();
    // The plan asks for the balance (free), then the lookup arrives and waits 1.5 s: the server
    // ends the buyer's connection meanwhile.
    let t0 = std::time::Instant::now();
    while proxy.arrived() < 2 {
        assert!(t0.elapsed() < std::time::Duration::from_secs(20));
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let ended = {
        let url = url.clone();
        tokio::task::spawn_blocking(move || {
            let mut admin = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            admin
                .query(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                     WHERE datname = current_database() AND pid <> pg_backend_pid()",
                    &[],
                )
                .unwrap()
                .len()
        })
        .await
        .unwrap()
    };
    assert!(ended >= 1, "the buyer's connection was there to end");
    let out = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    cli_run::assert_kept_in_recovery(&out, 10, dir.path());
    let recovery = dir.path().join("data/recovery");
    let spent = round(before.0 - pools(&c).await.0);
    assert_eq!(spent, 0.5, "10 × 0.05, bought once");
    // The next start imports it into the team store: the lookup is read at 0 credits.
    let mut again = prospect(&sb.base_url, dir.path(), &args);
    again.env("PROSPECT_STORE_URL", &url);
    let (code, out, err) = run(again).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 10);
    assert!(out.lines().all(|l| l.contains("storedAt")), "{out}");
    assert_eq!(
        round(before.0 - pools(&c).await.0),
        0.5,
        "nothing bought again"
    );
    assert_eq!(std::fs::read_dir(&recovery).unwrap().count(), 0);
}

/// The team's daily budget is kept in the store (`prospect store budget`), so it binds every
/// member whatever their own config says: a plan over it is refused before sending (exit 5,
/// naming it), one under it runs; `--clear` lifts it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_team_budget_in_the_store_binds_every_member() {
    let sb = sandbox_with(10_000).await;
    let domains = known_domains(&sb, 40).await;
    let dir = tempfile::tempdir().unwrap();
    let c = client(&sb, CLI);
    let (code, out, err) = run(prospect(
        &sb.base_url,
        dir.path(),
        &["store", "budget", "--standard", "1", "--format", "json"],
    ))
    .await;
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"standard_per_day\":1.0"), "{out}");
    let before = pools(&c).await;
    // 40 domains: 2 credits, over the team's 1 a day.
    let mut args = vec!["lookup", "companies", "--max-credits", "100"];
    args.extend(domains.iter().map(String::as_str));
    let (code, _, err) = run(prospect(&sb.base_url, dir.path(), &args)).await;
    assert_eq!(code, 5, "{err}");
    assert!(
        err.contains("over the team's standard budget of 1 credits a day"),
        "{err}"
    );
    assert_eq!(pools(&c).await, before, "nothing sent");
    // 10 domains: 0.5 credits, under it.
    let mut small = vec!["lookup", "companies", "--max-credits", "100"];
    small.extend(domains[..10].iter().map(String::as_str));
    let (code, out, err) = run(prospect(&sb.base_url, dir.path(), &small)).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 10);
    let (code, _, err) = run(prospect(
        &sb.base_url,
        dir.path(),
        &["store", "budget", "--clear"],
    ))
    .await;
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(prospect(&sb.base_url, dir.path(), &args)).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 40);
    assert_eq!(
        round(before.0 - pools(&c).await.0),
        2.0,
        "0.5, then the 30 not owned: 1.5"
    );
}
