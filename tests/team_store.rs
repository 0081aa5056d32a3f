//! The team store (issue 17): processes with their own data directories sharing one ledger on
//! a real PostgreSQL server, started by the test in a temporary folder (`initdb`, `pg_ctl`).
//! Without PostgreSQL on the machine these tests are compiled as ignored (see `build.rs`).

#[path = "sandbox_service/support.rs"]
mod support;

#[path = "support/cli_run.rs"]
mod cli_run;

use cli_run::{CLI, known_domains, prospect, run, sandbox_with, write_lines};
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
            let mut cmd = prospect(
                &sb.base_url,
                d.path(),
                &[
                    "lookup",
                    "companies",
                    "--file",
                    list.to_str().unwrap(),
                    "--max-credits",
                    "1000",
                ],
            );
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
