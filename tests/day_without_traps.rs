//! Issue 38, a day's work without traps: what a new user trips on, each a test that failed
//! before its fix. Against the real sandbox over HTTP on 127.0.0.1 (the binary with assert_cmd,
//! the explorer's backend in-process).

#[path = "sandbox_service/support.rs"]
mod support;

#[path = "support/cli_run.rs"]
mod cli_run;

use cli_run::{known_domains, prospect, run, sandbox_with};
use prospect::core::session::{Freshness, Session};
use prospect::store::Store;
use prospect::tui::backend::{Backend, SessionBackend};
use prospect::tui::msg::{Ask, Call, Outcome, RanAnswer};
use prospect::tui::schema::SearchSubject;
use serde_json::Value;
use support::{RICH, client};

/// A HubSpot companies export of `domains` (their column is `Company Domain Name`).
fn hubspot_export(dir: &std::path::Path, domains: &[String]) -> std::path::PathBuf {
    let mut text = String::from("Record ID,Company name,Company Domain Name,Lifecycle Stage\n");
    for (i, d) in domains.iter().enumerate() {
        text.push_str(&format!("{},\"Company {i}, Inc.\",{d},customer\n", 100 + i));
    }
    let path = dir.join("hubspot-companies.csv");
    std::fs::write(&path, text).unwrap();
    path
}

/// Item 6: `lookup companies --file` with a CRM export and no `--column` reads the domains of
/// the column its header names (it sent whole lines as keys), and a CSV with no domain column
/// is refused before anything is paid, naming its columns.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lookup_reads_the_key_column_of_a_crm_export() {
    let sb = sandbox_with(10_000).await;
    let domains = known_domains(&sb, 3).await;
    let dir = tempfile::tempdir().unwrap();
    let file = hubspot_export(dir.path(), &domains);
    let args = ["lookup", "companies", "--file", file.to_str().unwrap()];
    let (code, out, err) = run(prospect(&sb.base_url, dir.path(), &args)).await;
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3, "{out}");
    for (row, d) in rows.iter().zip(&domains) {
        assert_eq!(row["query"], *d);
        assert_eq!(row["found"], true);
    }
    let names = dir.path().join("names.csv");
    std::fs::write(&names, "First name,Last name\nAnn,Lee\n").unwrap();
    let args = ["lookup", "companies", "--file", names.to_str().unwrap()];
    let (code, _, err) = run(prospect(&sb.base_url, dir.path(), &args)).await;
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("no domain column (its columns: First name, Last name)"),
        "{err}"
    );
}

/// Item 6 in the explorer: `Ctrl-l` with the same export reads its domains (it read 0 keys and
/// cleared the results): one plan of 3 keys, 3 rows found.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorers_lookup_reads_the_key_column_of_a_crm_export() {
    let sb = sandbox_with(10_000).await;
    let domains = known_domains(&sb, 3).await;
    let dir = tempfile::tempdir().unwrap();
    let file = hubspot_export(dir.path(), &domains);
    let store = Store::open(&dir.path().join("store.sqlite")).unwrap();
    let backend = SessionBackend::new(Session::new(client(&sb, RICH), store, "sandbox"));
    let ask = Ask::lookup(SearchSubject::Companies, vec![], Some(file));
    let prepare = Call::Prepare {
        ask,
        fresh: Freshness::Stored,
    };
    let Ok(Outcome::Prepared(p)) = backend.call(prepare).await else {
        panic!("a plan")
    };
    let plan = p.plan.clone().unwrap();
    assert_eq!(
        (plan.asked, plan.refused, plan.to_buy),
        (3, 0, 3),
        "{plan:?}"
    );
    let run = Call::Run {
        ask: p.ask.clone(),
        plan: Some(Box::new(plan)),
        fresh: Freshness::Stored,
    };
    let Ok(Outcome::Ran(ran)) = backend.call(run).await else {
        panic!("a run")
    };
    let RanAnswer::Lookup {
        rows, not_found, ..
    } = ran.answer
    else {
        panic!("a lookup's rows")
    };
    assert_eq!((rows.len(), not_found), (3, 0));
    let shown: Vec<String> = rows.iter().map(|r| r.record.key()).collect();
    assert_eq!(shown, domains);
}

/// Item 1 in the CLI: a set of both tabs gives `search companies` its companies search and
/// `search people` its people search; `curl` prints both; a one-tab set of people refuses a
/// companies search, naming both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_set_of_both_tabs_serves_each_subject() {
    let sb = sandbox_with(10_000).await;
    let dir = tempfile::tempdir().unwrap();
    let both = dir.path().join("both.json");
    std::fs::write(
        &both,
        r#"{"endpoint": "/v3/search/people", "size": 5,
            "peopleFilters": {"seniorities": ["Head"]},
            "otherTab": {"endpoint": "/v3/search/companies", "size": 7,
                         "companiesFilters": {"industries": [["Software Development"]]}}}"#,
    )
    .unwrap();
    let file = both.to_str().unwrap();
    for (subject, limit) in [("companies", 7), ("people", 5)] {
        let args = [
            "search",
            subject,
            "--filters",
            file,
            "--dry-run",
            "--format",
            "json",
        ];
        let (code, out, err) = run(prospect(&sb.base_url, dir.path(), &args)).await;
        assert_eq!(code, 0, "{subject}: {err}");
        let plan: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            plan["asked"], limit,
            "{subject}: its own size is the limit: {plan}"
        );
    }
    let (code, out, err) = run(prospect(&sb.base_url, dir.path(), &["curl", file])).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.contains("/v3/search/people") && out.contains("/v3/search/companies"));
    assert!(!out.contains("otherTab"), "{out}");
    let one = dir.path().join("people.json");
    std::fs::write(&one, r#"{"endpoint": "/v3/search/people", "size": 5}"#).unwrap();
    let args = [
        "search",
        "companies",
        "--filters",
        one.to_str().unwrap(),
        "--dry-run",
    ];
    let (code, _, err) = run(prospect(&sb.base_url, dir.path(), &args)).await;
    assert_eq!(code, 2);
    assert!(
        err.contains("the filter set is for /v3/search/people, not /v3/search/companies"),
        "{err}"
    );
}

/// Item 7: `suppress import` reads `in/handle` as a handle, as the README says (it was dropped
/// without a word), and says which entries it skipped, on stderr, without a terminal too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn suppress_import_reads_in_handles_and_names_what_it_skips() {
    let sb = sandbox_with(10_000).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("dnc.txt");
    std::fs::write(
        &file,
        "in/jane-doe\nhttps://www.linkedin.com/in/john-roe/\nacme.com\nbob@\n",
    )
    .unwrap();
    let args = [
        "suppress",
        "import",
        file.to_str().unwrap(),
        "--category",
        "do-not-contact",
    ];
    let (code, _, err) = run(prospect(&sb.base_url, dir.path(), &args)).await;
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("skipped 1 entry that is no domain, email or profile: \"bob@\""),
        "{err}"
    );
    let (code, out, err) = run(prospect(&sb.base_url, dir.path(), &["suppress", "list"])).await;
    assert_eq!(code, 0, "{err}");
    let row: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(row["handles"], 2, "{row}");
    assert_eq!(row["domains"], 1, "{row}");
}

/// Item 7 in the explorer: `Ctrl-l` with a suppressed domain shows its row as
/// `suppressed (customers)`, not "not found", and says it on the status line's count; a reveal
/// whose people are all suppressed says so, not "0 emails from the store".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_says_suppressed_where_it_said_not_found() {
    use prospect::store::SuppressKind;
    let sb = sandbox_with(10_000).await;
    let domains = known_domains(&sb, 2).await;
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("store.sqlite")).unwrap();
    store
        .suppress(
            "customers",
            "test",
            &[
                (SuppressKind::Domain, domains[0].clone()),
                (SuppressKind::Person, "p-suppressed-1".into()),
            ],
        )
        .unwrap();
    let backend = SessionBackend::new(Session::new(client(&sb, RICH), store, "sandbox"));
    let ask = Ask::lookup(SearchSubject::Companies, domains.clone(), None);
    let Ok(Outcome::Ran(ran)) = backend
        .call(Call::Run {
            ask,
            plan: None,
            fresh: Freshness::Stored,
        })
        .await
    else {
        panic!("a run")
    };
    let RanAnswer::Lookup {
        rows,
        not_found,
        suppressed,
        ..
    } = ran.answer
    else {
        panic!("a lookup")
    };
    assert_eq!(rows[0].cells[0], "suppressed (customers)");
    assert_eq!(not_found, 0);
    assert!(
        suppressed
            .as_deref()
            .is_some_and(|s| s.contains("customers")),
        "{suppressed:?}"
    );
    let ask = Ask::reveal(
        prospect::common::ContactKind::Email,
        vec!["p-suppressed-1".into()],
    );
    let out = backend
        .call(Call::Run {
            ask,
            plan: None,
            fresh: Freshness::Stored,
        })
        .await;
    let Ok(Outcome::Ran(ran)) = out else {
        panic!("a run: {out:?}")
    };
    let RanAnswer::Reveal {
        sent,
        from_store,
        suppressed,
        ..
    } = ran.answer
    else {
        panic!("a reveal")
    };
    assert!(sent.is_empty() && from_store.is_empty());
    assert!(suppressed.is_some_and(|s| s.contains("customers")));
}

/// Item 7: suppression covers outreach exports: a CRM export leaves a suppressed customer out
/// and says so (`--include-suppressed` keeps it); a plain export keeps it and says it is there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crm_export_leaves_suppressed_companies_out() {
    let sb = sandbox_with(10_000).await;
    let domains = known_domains(&sb, 3).await;
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["lookup", "companies"];
    args.extend(domains.iter().map(String::as_str));
    let (code, _, err) = run(prospect(&sb.base_url, dir.path(), &args)).await;
    assert_eq!(code, 0, "{err}");
    let customers = dir.path().join("customers.txt");
    std::fs::write(&customers, format!("{}\n", domains[0])).unwrap();
    let file = customers.to_str().unwrap();
    let args = ["suppress", "import", file, "--category", "customers"];
    let (code, _, err) = run(prospect(&sb.base_url, dir.path(), &args)).await;
    assert_eq!(code, 0, "{err}");
    let csv = dir.path().join("hubspot.csv");
    let out = csv.to_str().unwrap();
    let crm = [
        "export",
        "companies",
        "--preset",
        "hubspot-companies",
        "--out",
        out,
    ];
    let (code, _, err) = run(prospect(&sb.base_url, dir.path(), &crm)).await;
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 1 + 2, "{text}");
    assert!(!text.contains(&domains[0]), "{text}");
    assert!(err.contains("left out 1 suppressed (customers)"), "{err}");
    let mut all = crm.to_vec();
    all.push("--include-suppressed");
    let (code, _, err) = run(prospect(&sb.base_url, dir.path(), &all)).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap().lines().count(),
        1 + 3
    );
    let plain = ["export", "companies", "--format", "jsonl"];
    let (code, out, err) = run(prospect(&sb.base_url, dir.path(), &plain)).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 3);
    assert!(
        err.contains("1 suppressed (customers) in this export"),
        "{err}"
    );
}

/// Item 7: a search reopened from the history (`H`) leaves out what was suppressed since it
/// was bought and says so, and its form does not hold the excludes suppression added (from
/// where `Ctrl-s` saved them into the user's set).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reopened_search_leaves_out_what_is_suppressed_since() {
    let sb = sandbox_with(10_000).await;
    let dir = tempfile::tempdir().unwrap();
    let suppress = |domain: &str, category: &str| {
        let file = dir.path().join(format!("{category}.txt"));
        std::fs::write(&file, format!("{domain}\n")).unwrap();
        let f = file.to_str().unwrap().to_string();
        let c = category.to_string();
        let base = sb.base_url.clone();
        let home = dir.path().to_path_buf();
        async move {
            let args = ["suppress", "import", f.as_str(), "--category", c.as_str()];
            let (code, _, err) = run(prospect(&base, &home, &args)).await;
            assert_eq!(code, 0, "{err}");
        }
    };
    // Suppressed before the search: it goes out as an exclude.
    suppress("before-search.example", "competitors").await;
    let args = ["search", "companies", "--limit", "5", "--format", "jsonl"];
    let (code, out, err) = run(prospect(&sb.base_url, dir.path(), &args)).await;
    assert_eq!(code, 0, "{err}");
    let domains: Vec<String> = out
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["domain"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(domains.len(), 5);
    // Suppressed since.
    suppress(&domains[1], "customers").await;

    let store = Store::open(&dir.path().join("data").join("prospect.sqlite")).unwrap();
    // The CLI's target: the service it was pointed at.
    let target = sb.base_url.clone();
    let backend = SessionBackend::new(Session::new(client(&sb, RICH), store, &target));
    let Ok(Outcome::History(list)) = backend.call(Call::History).await else {
        panic!("the history")
    };
    let Ok(Outcome::Reopened(r)) = backend.call(Call::Reopen(list[0].id)).await else {
        panic!("reopened")
    };
    let shown: Vec<String> = r
        .pages
        .iter()
        .flat_map(|p| p.rows.iter().map(|row| row.record.key()))
        .collect();
    assert_eq!(shown.len(), 4, "{shown:?}");
    assert!(!shown.contains(&domains[1]), "{shown:?}");
    assert_eq!(r.suppressed.as_deref(), Some("1 suppressed (customers)"));
    let sent = r.request.body();
    assert!(
        sent["companiesFilters"]["excludeDomains"]
            .to_string()
            .contains("before-search.example"),
        "suppression went out as an exclude: {sent}"
    );
    assert!(
        r.body["companiesFilters"].get("excludeDomains").is_none(),
        "the form holds no exclude of suppression's: {}",
        r.body
    );
}
