//! Issue 37, pay only for what is new: `search --new-only` and `prospect watch` against the
//! real sandbox over HTTP on 127.0.0.1 (the service `prospect serve` runs), with the binary
//! run as cron would run it (no terminal, stdout captured).

#[path = "sandbox_service/support.rs"]
mod support;

#[path = "support/cli_run.rs"]
mod cli_run;

#[path = "support/run_loop.rs"]
mod run_loop;

use std::path::Path;
use std::sync::{Arc, Mutex};

use cli_run::{CLI, prospect, run, sandbox_with};
use prospect::api::client::Client;
use prospect::api::types::*;
use serde_json::{Value, json};
use support::client;

/// A set of the companies headquartered in Germany and Italy (about 1,000 in the sandbox);
/// a gathered `.de` or `.it` domain matches it.
const COMPANIES_SET: &str = r#"{"endpoint": "/v3/search/companies", "companiesFilters": {"primaryLocations": {"includeCountries": ["de", "it"]}}}"#;

/// A set of the people of Austrian companies (about 1,000); a gathered `.at` domain's people
/// match it.
const PEOPLE_SET: &str = r#"{"endpoint": "/v3/search/people", "companiesFilters": {"primaryLocations": {"includeCountries": ["at"]}}}"#;

/// Saves `text` as the set `name` in the config directory of `dir` (`filters/NAME.json`).
fn save_set(dir: &Path, name: &str, text: &str) {
    let filters = dir.join(".config/prospect/filters");
    std::fs::create_dir_all(&filters).unwrap();
    std::fs::write(filters.join(format!("{name}.json")), text).unwrap();
}

async fn standard(c: &Client) -> f64 {
    let b = c.credit_balance().await.unwrap();
    b.credits.map_or(f64::NAN, |p| p.one_time + p.recurrent)
}

/// Warms up `domains` and waits until the sandbox's gathering has added them.
async fn warm_up(c: &Client, domains: &[&str]) {
    let req = WarmupCompaniesRequest {
        domains: domains.iter().map(|d| d.to_string()).collect(),
    };
    c.warmup_companies(&req).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
}

fn lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

async fn search_total(c: &Client, body: Value) -> i64 {
    let req: SearchPeopleV3Request = serde_json::from_value(body).unwrap();
    c.search_people_v3(&req).await.unwrap().total.unwrap()
}

/// Done when 1: a set of about 1,000 companies run once; two matching domains warmed up; the
/// watch prints exactly those two and the balance falls by the price of two results. Done
/// when 3: a watch with nothing new prints nothing, exits 0 and spends nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_of_a_company_set_prints_and_pays_for_the_two_new_only() {
    let sb = sandbox_with(10_000).await;
    let dir = tempfile::tempdir().unwrap();
    let (d, cli) = (dir.path(), client(&sb, CLI));
    save_set(d, "de-it", COMPANIES_SET);
    let before = standard(&cli).await;
    let args = [
        "search",
        "companies",
        "--filters",
        "de-it",
        "--limit",
        "5000",
    ];
    let (code, out, err) = run(prospect(
        &sb.base_url,
        d,
        &[&args[..], &["--max-credits", "1000"]].concat(),
    ))
    .await;
    assert_eq!(code, 0, "{err}");
    let full = lines(&out).len();
    assert!((900..1300).contains(&full), "{full} companies");
    let full_cost = before - standard(&cli).await;
    assert!((full_cost - full as f64 * 0.2).abs() < 1e-6, "{full_cost}");

    // Nothing new: nothing printed, exit 0, nothing spent.
    let b0 = standard(&cli).await;
    let (code, out, err) = run(prospect(&sb.base_url, d, &["watch", "de-it"])).await;
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert_eq!(standard(&cli).await, b0);

    warm_up(&cli, &["neuwerkstatt.de", "lanternaviva.it"]).await;
    let b1 = standard(&cli).await;
    let (code, out, err) = run(prospect(&sb.base_url, d, &["watch", "de-it"])).await;
    assert_eq!(code, 0, "{err}");
    let rows = lines(&out);
    let mut got: Vec<&str> = rows.iter().map(|r| r["domain"].as_str().unwrap()).collect();
    got.sort();
    assert_eq!(got, ["lanternaviva.it", "neuwerkstatt.de"], "{out}");
    assert!(
        rows.iter()
            .all(|r| r["set"] == "de-it" && r["tab"] == "companies")
    );
    let rerun_cost = b1 - standard(&cli).await;
    assert!((rerun_cost - 0.4).abs() < 1e-6, "{rerun_cost}");
    eprintln!(
        "re-run cost / full run cost = {rerun_cost:.1} / {full_cost:.1} = {:.4}",
        rerun_cost / full_cost
    );

    // The runs are recorded: the plain run, the empty watch and the one with news.
    let (code, out, err) = run(prospect(
        &sb.base_url,
        d,
        &["watch", "--history", "de-it", "--format", "jsonl"],
    ))
    .await;
    assert_eq!(code, 0, "{err}");
    let runs = lines(&out);
    assert_eq!(runs.len(), 3, "{out}");
    assert_eq!(
        (runs[0]["new"].as_u64(), runs[0]["newOnly"].as_bool()),
        (Some(2), Some(true))
    );
    assert_eq!(runs[1]["new"], 0);
    assert_eq!(
        (runs[2]["new"].as_u64(), runs[2]["newOnly"].as_bool()),
        (Some(full as u64), Some(false))
    );
}

/// Done when 2: the same for a people set, with `excludePeopleIds`: the watch prints exactly
/// the people the two warmed-up companies brought, and pays for them alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_of_a_people_set_pays_for_the_new_people_only() {
    let sb = sandbox_with(10_000).await;
    let dir = tempfile::tempdir().unwrap();
    let (d, cli) = (dir.path(), client(&sb, CLI));
    save_set(d, "at-people", PEOPLE_SET);
    let body =
        json!({"companiesFilters": {"primaryLocations": {"includeCountries": ["at"]}}, "size": 1});
    let total_before = search_total(&client(&sb, support::RICH), body.clone()).await;
    let args = [
        "search",
        "people",
        "--filters",
        "at-people",
        "--limit",
        "5000",
        "--max-credits",
        "1000",
    ];
    let (code, out, err) = run(prospect(&sb.base_url, d, &args)).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines(&out).len() as i64, total_before);

    warm_up(&cli, &["bergkristall.at", "donauwelle.at"]).await;
    let new = search_total(&client(&sb, support::RICH), body).await - total_before;
    assert!(new > 0, "the gathered companies have people");
    let b1 = standard(&cli).await;
    let (code, out, err) = run(prospect(
        &sb.base_url,
        d,
        &["watch", "at-people", "--max-credits", "100"],
    ))
    .await;
    assert_eq!(code, 0, "{err}");
    let rows = lines(&out);
    assert_eq!(rows.len() as i64, new, "{out}");
    assert!(
        rows.iter().all(|r| ["bergkristall.at", "donauwelle.at"]
            .contains(&r["domain"].as_str().unwrap())
            && r["tab"] == "people"),
        "{out}"
    );
    let cost = b1 - standard(&cli).await;
    assert!((cost - new as f64 * 0.2).abs() < 1e-6, "{cost} for {new}");
}

/// Done when 4: over the excludes cap, the plan counts what will be paid again, and the run
/// pays exactly that (and prints none of it: nothing is new).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_the_excludes_cap_the_plan_counts_what_is_paid_again() {
    let sb = sandbox_with(10_000).await;
    let dir = tempfile::tempdir().unwrap();
    let (d, cli) = (dir.path(), client(&sb, CLI));
    save_set(d, "de-it", COMPANIES_SET);
    let args = [
        "search",
        "companies",
        "--filters",
        "de-it",
        "--limit",
        "5000",
        "--max-credits",
        "1000",
    ];
    let (code, out, err) = run(prospect(&sb.base_url, d, &args)).await;
    assert_eq!(code, 0, "{err}");
    let owned = lines(&out).len() as u64;
    let cap = owned - 40;
    let watch = |extra: &[&str]| {
        let cap = cap.to_string();
        let mut a = vec![
            "watch",
            "de-it",
            "--max-credits",
            "20",
            "--exclude-cap",
            cap.as_str(),
        ];
        a.extend_from_slice(extra);
        prospect(&sb.base_url, d, &a)
    };
    let (code, out, err) = run(watch(&["--dry-run", "--format", "json"])).await;
    assert_eq!(code, 0, "{err}");
    let plan: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(plan["newOnly"]["excluded"], cap);
    assert_eq!(plan["newOnly"]["notSent"], 40);
    let b0 = standard(&cli).await;
    let (code, out, err) = run(watch(&[])).await;
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let paid = b0 - standard(&cli).await;
    assert!((paid - 40.0 * 0.2).abs() < 1e-6, "{paid}");
    let (_, out, _) = run(prospect(
        &sb.base_url,
        d,
        &["watch", "--history", "de-it", "--format", "jsonl"],
    ))
    .await;
    assert_eq!(lines(&out)[0]["paidAgain"], 40, "{out}");
}

/// What the notify receiver saw: the bodies it accepted, and every attempt.
#[derive(Default)]
struct Seen {
    attempts: usize,
    delivered: Vec<Value>,
    tokens: Vec<String>,
}

/// A notify receiver on 127.0.0.1 that answers the first `fail` attempts 500, then 200.
async fn receiver(fail: usize) -> (String, Arc<Mutex<Seen>>) {
    use axum::{Json, Router, http::HeaderMap, http::StatusCode, routing::post};
    let seen = Arc::new(Mutex::new(Seen::default()));
    let s = seen.clone();
    let app = Router::new().route(
        "/hook",
        post(move |headers: HeaderMap, Json(body): Json<Value>| {
            let s = s.clone();
            async move {
                let mut s = s.lock().unwrap();
                s.attempts += 1;
                for (_, v) in headers.iter() {
                    s.tokens.push(v.to_str().unwrap_or("").to_string());
                }
                if s.attempts <= fail {
                    return StatusCode::INTERNAL_SERVER_ERROR;
                }
                s.delivered.push(body);
                StatusCode::OK
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, seen)
}

/// Done when 5: `--notify` gets one digest per run with news and none without; a receiver
/// that answers 500 twice then 200 gets it once. The API token never goes with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notify_posts_one_digest_per_run_with_news_through_two_failures() {
    let sb = sandbox_with(10_000).await;
    let dir = tempfile::tempdir().unwrap();
    let (d, cli) = (dir.path(), client(&sb, CLI));
    save_set(d, "de-it", COMPANIES_SET);
    let (url, seen) = receiver(2).await;
    let watch = || {
        prospect(
            &sb.base_url,
            d,
            &[
                "watch",
                "de-it",
                "--max-credits",
                "1000",
                "--limit",
                "5000",
                "--notify",
                &url,
            ],
        )
    };
    // The first run: everything is new.
    let (code, out, err) = run(watch()).await;
    assert_eq!(code, 0, "{err}");
    let first = lines(&out).len();
    {
        let s = seen.lock().unwrap();
        assert_eq!(
            (s.attempts, s.delivered.len()),
            (3, 1),
            "two 500s, then delivered once"
        );
        let digest = &s.delivered[0];
        assert_eq!(digest["set"], "de-it");
        assert_eq!(digest["new"], first);
        assert_eq!(digest["rows"].as_array().unwrap().len(), 10);
        assert!(
            digest["text"]
                .as_str()
                .unwrap()
                .starts_with("prospect watch: "),
            "{digest}"
        );
        assert!(
            s.tokens.iter().all(|t| !t.contains(CLI)),
            "the token went with it"
        );
    }
    // Nothing new: no digest.
    let (code, out, err) = run(watch()).await;
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert_eq!(seen.lock().unwrap().delivered.len(), 1);
    // News: one more.
    warm_up(&cli, &["kleinehandwerk.de"]).await;
    let (code, out, err) = run(watch()).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines(&out).len(), 1);
    let s = seen.lock().unwrap();
    assert_eq!(s.delivered.len(), 2);
    assert_eq!(s.delivered[1]["new"], 1);
    assert_eq!(
        s.delivered[1]["text"],
        "prospect watch: 1 new company for \"de-it\" (0.2 credits)"
    );
}

/// What one frame of the explorer showed: the status line, whether the spend gate is open
/// (and its text), and the companies tab's rows as (domain, `new` cell).
#[derive(Debug, Clone)]
struct Frame {
    status: String,
    screen: String,
    gate: Option<String>,
    rows: Vec<(String, String)>,
    ready: bool,
}

fn observe(app: &prospect::tui::app::App, screen: &str) -> Frame {
    use prospect::tui::app::Popup;
    use prospect::tui::schema::SearchSubject;
    let new = prospect::tui::records::new_cell(SearchSubject::Companies);
    Frame {
        status: app
            .status
            .as_ref()
            .map(|s| s.text.clone())
            .unwrap_or_default(),
        screen: screen.to_string(),
        gate: matches!(app.popups.last(), Some(Popup::Confirm(_))).then(|| screen.to_string()),
        rows: app
            .search(SearchSubject::Companies)
            .rows()
            .iter()
            .map(|r| (r.cells[1].clone(), r.cells[new].clone()))
            .collect(),
        ready: matches!(app.data_fields_state, Some(Ok(()))) && app.gauge.balance().is_some(),
    }
}

/// Done when 6, the explorer: a set with an earlier run is opened (`Ctrl-o`, its last run
/// beside its name), its search gate offers new-only (on by default), and the run brings and
/// charges only the two companies warmed up since, each marked in the `new` column.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_runs_a_set_new_only_and_marks_and_pays_for_the_new_rows() {
    use prospect::core::session::Session;
    use prospect::tui::backend::{Backend, SessionBackend};
    let sb = sandbox_with(10_000).await;
    let cli = client(&sb, CLI);
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("filters")).unwrap();
    std::fs::write(
        dir.path().join("filters/austria.json"),
        r#"{"endpoint": "/v3/search/companies", "companiesFilters": {"primaryLocations": {"includeCountries": ["at"]}}, "size": 200}"#,
    )
    .unwrap();
    let store = prospect::store::Store::open(&dir.path().join("store.sqlite")).unwrap();
    let session = Session::new(cli.clone(), store, "sandbox");
    let backend: std::sync::Arc<dyn Backend> =
        std::sync::Arc::new(SessionBackend::new(session.clone()));
    let ex = run_loop::Explorer::start(session, backend, &sb.base_url, dir, (150, 40), observe);
    ex.wait("the explorer ready", |f| f.ready).await;

    // The first run of the set: no earlier run, everything new.
    ex.ctrl('o');
    ex.key(
        crossterm::event::KeyCode::Enter,
        crossterm::event::KeyModifiers::NONE,
    );
    ex.wait("the set opened", |f| {
        f.status.contains("Opened filter set austria")
    })
    .await;
    ex.ctrl('r');
    ex.wait("the gate of 200 results", |f| f.gate.is_some())
        .await;
    ex.ch('y');
    let first = ex
        .wait("the first run's rows", |f| {
            f.status.contains("new to the set")
        })
        .await;
    let owned = first.rows.len();
    assert!(
        owned > 50 && first.rows.iter().all(|(_, n)| n == "new"),
        "{first:#?}"
    );

    warm_up(&cli, &["alpenblick.at", "wienerwerk.at"]).await;
    let before = standard(&cli).await;
    // The chooser shows the set's last run; the gate offers new-only, on.
    let m = ex.mark();
    ex.ctrl('o');
    let chooser = ex
        .wait_since(m, "the chooser with the last run", |f| {
            f.screen.contains("austria  last run")
        })
        .await;
    assert!(
        chooser.screen.contains(&format!("{owned} new")),
        "{}",
        chooser.screen
    );
    ex.key(
        crossterm::event::KeyCode::Enter,
        crossterm::event::KeyModifiers::NONE,
    );
    let m = ex.mark();
    ex.ctrl('r');
    let gate = ex
        .wait_since(m, "the gate offering new-only", |f| f.gate.is_some())
        .await;
    let text = gate.gate.unwrap();
    assert!(
        text.contains(&format!("excluding {owned} owned (from 1 earlier run)")),
        "{text}"
    );
    assert!(
        text.contains("new-only on · switch to all results"),
        "{text}"
    );
    let m = ex.mark();
    ex.ch('y');
    let second = ex
        .wait_since(m, "the new-only run's rows", |f| {
            f.status.contains("new to the set")
        })
        .await;
    let mut got: Vec<&str> = second.rows.iter().map(|(d, _)| d.as_str()).collect();
    got.sort();
    assert_eq!(got, ["alpenblick.at", "wienerwerk.at"], "{second:#?}");
    assert!(second.rows.iter().all(|(_, n)| n == "new"));
    let paid = before - standard(&cli).await;
    assert!((paid - 0.4).abs() < 1e-6, "{paid}");
    let (app, _, _) = ex.quit().await;
    assert!(app.set_runs.iter().any(|r| r.new_only));
}

/// The sandbox's part (issue 37): with a state directory (the embedded sandbox's), a domain
/// warmed up in one process is a company of the next at once, so a watch can be tried from one
/// command to the next.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gathered_company_is_there_in_the_next_sandbox_process() {
    let dir = tempfile::tempdir().unwrap();
    let spawn = || {
        let mut c = support::config(cli_run::accounts());
        c.state_dir = Some(dir.path().to_path_buf());
        c.enrich_delay = std::time::Duration::from_secs(3600);
        prospect::sandbox::service::spawn(c)
    };
    let lookup = |c: Client| async move {
        let req = LookupCompaniesRequest {
            domains: vec!["gipfelsturm.at".into()],
            fields: None,
        };
        c.lookup_companies(&req).await.unwrap().total_found
    };
    let first = spawn().await.expect("sandbox starts");
    let c = client(&first, CLI);
    let req = WarmupCompaniesRequest {
        domains: vec!["gipfelsturm.at".into()],
    };
    c.warmup_companies(&req).await.unwrap();
    // Gathering takes an hour in this process…
    assert_eq!(lookup(c).await, 0);
    first.shutdown().await;
    // …and is done in the next one.
    let second = spawn().await.expect("sandbox starts again");
    assert_eq!(lookup(client(&second, CLI)).await, 1);
}

/// Issue 35 with issue 37: the explorer's export of a set's tab goes on with the tab's run.
/// The set ran once (5 results owned); a new-only run started at T shows two pages of 10 (as
/// the explorer's `n` buys them); the export of its first 30 then reads those 20 from the
/// store at 0 credits, buys only 10 with the same excludes (none of the 5 comes back; a
/// suppressed domain is excluded too, in the same place), and the run of T is recorded once
/// with its 30 results, not a second run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_of_a_set_tab_goes_on_with_its_run_and_pays_only_the_rest() {
    use prospect::api::client::Endpoint;
    use prospect::core::engine::{self, Action, Event, PagedSearch, SetSearch};
    use prospect::core::session::{Freshness, Session};
    let sb = sandbox_with(10_000).await;
    let cli = client(&sb, CLI);
    let dir = tempfile::tempdir().unwrap();
    let store = prospect::store::Store::open(&dir.path().join("store.sqlite")).unwrap();
    let s = Session::new(cli.clone(), store, "sandbox");
    let ep = Endpoint::SearchCompaniesV3;
    let body =
        json!({"companiesFilters": {"primaryLocations": {"includeCountries": ["de", "it"]}}});
    let set = |new_only: bool, run_at| SetSearch {
        name: "dach".into(),
        new_only,
        exclude_cap: None,
        run_at,
    };
    let stop = tokio_util::sync::CancellationToken::new();
    let keys = |e: Event, out: &mut Vec<String>| {
        if let Event::Page(p) = e {
            out.extend(engine::keys_of(&p.response).into_iter().take(p.take));
        }
    };
    // The set's first run: 5 results.
    let first = Action::search(ep, &body, 5, Some(set(false, None)));
    let plan = engine::plan(&s, &first, Freshness::Stored).await.unwrap();
    let mut owned = Vec::new();
    let ran = engine::run(&s, &first, &plan, Freshness::Stored, &stop, |e| {
        keys(e, &mut owned);
        Ok(())
    })
    .await;
    assert!(ran.report.error.is_none(), "{:?}", ran.report.error);
    assert_eq!(owned.len(), 5);
    // A suppression list: its domain goes into the same exclude list as the set's keys, in
    // the same order on the explorer's pages as in the engine's run.
    s.store()
        .lock()
        .unwrap()
        .suppress(
            "competitors",
            "test",
            &[(
                prospect::store::SuppressKind::Domain,
                "not-in-the-set.example".into(),
            )],
        )
        .unwrap();

    // The tab's new-only run started at T: two pages of 10, as the explorer buys them.
    let t = chrono::Utc::now();
    let mut sized = body.clone();
    sized["size"] = json!(10);
    let request = prospect::core::request::build_search(ep, &sized).unwrap();
    let (mut paging, mut ask) = PagedSearch::first_page(request.clone()).unwrap();
    let mut shown = Vec::new();
    for _ in 0..2 {
        let tab_set = set(true, None);
        let page = engine::search_page(
            &s,
            ask.request(),
            ask.position(),
            Freshness::Stored,
            Some((&tab_set, t)),
        )
        .await
        .unwrap();
        shown.extend(engine::keys_of(&page.paid.value));
        paging.answered(&engine::PageEnd::of(&page.paid.value));
        if let Some(next) = paging.ask(10).unwrap() {
            paging.sent(&next);
            ask = next;
        }
    }
    assert_eq!(shown.len(), 20);
    assert!(
        shown.iter().all(|k| !owned.contains(k)),
        "new-only left the 5 out"
    );

    // The export of the first 30 goes on with the run of T.
    let export = Action::search(ep, &sized, 30, Some(set(true, Some(t))));
    let plan = engine::plan(&s, &export, Freshness::Stored).await.unwrap();
    assert_eq!((plan.owned, plan.to_buy), (20, 10), "{plan:?}");
    let before = standard(&cli).await;
    let mut got = Vec::new();
    let ran = engine::run(&s, &export, &plan, Freshness::Stored, &stop, |e| {
        keys(e, &mut got);
        Ok(())
    })
    .await;
    assert!(ran.report.error.is_none(), "{:?}", ran.report.error);
    assert_eq!((ran.report.owned, ran.report.bought), (20, 10));
    assert!(
        (before - standard(&cli).await - 2.0).abs() < 1e-6,
        "10 results at 0.2"
    );
    assert_eq!(
        &got[..20],
        &shown[..],
        "the tab's pages, read from the store"
    );
    assert!(got.iter().all(|k| !owned.contains(k)), "the same excludes");
    let runs = s.set_runs(vec!["dach".into()], 10).await.unwrap();
    assert_eq!(runs.len(), 2, "the first run and the run of T: {runs:?}");
    let of_t = runs.iter().find(|r| r.new_only).unwrap();
    assert_eq!(of_t.results, 30, "{of_t:?}");
}
