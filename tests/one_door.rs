//! Issue 35, one door to paid work: the explorer and the CLI quote a search from the one
//! estimate of "N more results" and page it by the one rule.
//!
//! - For the same search and N, over several N and page sizes: the explorer's estimate of a page
//!   (N = its size) and its export's question for the first N (the engine's plan, asked by the
//!   explorer's backend) equal what `prospect search --dry-run --limit N` plans (the binary
//!   against a sandbox over HTTP).
//! - A v2 people search with `onePersonPerDomain` (which refuses a cursor) pages with the
//!   `from` window in the explorer, as in the CLI.

#[path = "sandbox_service/support.rs"]
mod support;

#[path = "support/cli_run.rs"]
mod cli_run;

#[path = "support/app.rs"]
mod app_support;

use app_support::{answer, call_in, ch, ctrl, key, opts_above, started_with, typed};
use cli_run::{prospect, run, sandbox_with};
use crossterm::event::KeyCode;
use prospect::api::client::Endpoint;
use prospect::core::request::SearchResponse;
use prospect::core::session::Session;
use prospect::tui::app::{App, ExportScope, ExportStage, Popup};
use prospect::tui::backend::{Backend, SessionBackend};
use prospect::tui::msg::{Call, Command, Outcome, Slot};
use prospect::tui::records;
use prospect::tui::schema::SearchSubject;
use serde_json::{Value, json};

fn company(i: usize) -> Value {
    json!({"company": {"name": format!("Acme {i}"), "domain": format!("acme{i}.com"),
           "primaryCountry": "de", "companySize": "51-200", "industries": ["Software"]},
           "relevance": "A"})
}

fn person(i: usize) -> Value {
    json!({"id": format!("p{i}"), "domain": format!("acme{i}.com"), "name": format!("Person {i}"),
           "jobTitle": "Head of Sales", "country": "de", "seniorities": ["Head"],
           "company": {"name": "Acme"}, "relevance": "A"})
}

fn started() -> App {
    let df = json!({"seniorities": ["Head"], "departments": ["Sales"]});
    let balance = json!({"credits": {"oneTime": 100000, "recurrent": 0},
        "emailCredits": {"oneTime": 100, "recurrent": 0}, "phoneCredits": {"oneTime": 10, "recurrent": 0},
        "dailyLimitRateLeft": 987, "dailyLimitRateSecondsToReset": 3725});
    // Nothing asks first, so the first page goes out at once.
    started_with(opts_above(1e9), df, balance)
}

/// The search request of the first `Call::Search` among `cmds`.
fn sent_search(cmds: &[Command]) -> Option<prospect::core::request::SearchRequest> {
    cmds.iter().find_map(|c| match c {
        Command::Call {
            call: Call::Search { request, .. },
            ..
        } => Some(request.clone()),
        _ => None,
    })
}

/// The explorer's two quotes for a companies search of pages of `size`: its first page's
/// estimate, and its export's question for the first `n` as its backend plans it against
/// `base_url` (a store that owns nothing), in standard credits.
async fn explorer_quotes(base_url: &str, size: u64, n: usize) -> (f64, f64) {
    let mut app = started();
    app.form.body["size"] = json!(size);
    let cmds = app.update(ctrl('r'));
    let first = sent_search(&cmds).expect("the first page goes out");
    assert_eq!(first.page_size(), size);
    let page_estimate = first.estimate().standard;
    let rows = (0..size as usize).map(company).collect::<Vec<_>>();
    let resp = SearchResponse::CompaniesV3(typed(
        json!({"companies": rows, "total": 39_726, "searchAfter": "c1"}),
    ));
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(records::page(resp)),
    );
    // Every spend asks now: the export's question is shown, not skipped.
    app.opts.confirm_above = 0.0;
    assert!(app.update(ctrl('e')).is_empty());
    app.update(key(KeyCode::Tab));
    app.update(key(KeyCode::Tab));
    let Some(Popup::Export(p)) = app.popups.last() else {
        panic!("the export popup: {:?}", app.popups);
    };
    assert_eq!(p.scope, ExportScope::FirstN);
    app.update(key(KeyCode::Down));
    for _ in 0..8 {
        app.update(key(KeyCode::Backspace));
    }
    for c in n.to_string().chars() {
        app.update(ch(c));
    }
    let planning = app.update(key(KeyCode::Enter));
    let slot = Slot::Export(SearchSubject::Companies);
    let Call::PlanExport { .. } = call_in(&planning, slot).1 else {
        panic!("the export is planned first: {planning:?}");
    };
    let dir = tempfile::tempdir().unwrap();
    let store = prospect::store::Store::open(&dir.path().join("store.sqlite")).unwrap();
    let client = prospect::api::client::Client::new(base_url, cli_run::CLI).unwrap();
    let backend = SessionBackend::new(Session::new(client, store, "sandbox"));
    let planned = backend
        .call(call_in(&planning, slot).1)
        .await
        .expect("the plan");
    assert!(
        answer(&mut app, &planning, slot, planned).is_empty(),
        "asks first"
    );
    let Some(Popup::Export(p)) = app.popups.last() else {
        panic!("the export popup stays for its question");
    };
    match &p.stage {
        ExportStage::Confirm { cost, .. } => (page_estimate, cost.standard),
        other => panic!("the export asks: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_and_the_cli_quote_the_same_credits_for_n_results() {
    let sb = sandbox_with(10_000).await;
    let dir = tempfile::tempdir().unwrap();
    for size in [10u64, 25, 50] {
        let one_page = dry_run(&sb.base_url, dir.path(), size, size as usize).await;
        for n in [size as usize + 1, 70, 130] {
            let (page, export) = explorer_quotes(&sb.base_url, size, n).await;
            assert!(
                (page - one_page).abs() < 1e-9,
                "pages of {size}: the explorer's page asks {page}, the CLI plans {one_page}"
            );
            let cli = dry_run(&sb.base_url, dir.path(), size, n).await;
            assert!(
                (export - cli).abs() < 1e-9,
                "pages of {size}, first {n}: the explorer's export asks {export}, \
                 the CLI plans {cli}"
            );
        }
    }
}

/// What `prospect search companies --dry-run --limit n` plans for pages of `size`, in standard
/// credits.
async fn dry_run(base_url: &str, dir: &std::path::Path, size: u64, n: usize) -> f64 {
    let body = json!({"size": size}).to_string();
    let limit = n.to_string();
    let args = [
        "search",
        "companies",
        "--body",
        &body,
        "--limit",
        &limit,
        "--dry-run",
        "--format",
        "json",
    ];
    let (code, out, err) = run(prospect(base_url, dir, &args)).await;
    assert_eq!(code, 0, "{err}");
    let plan: Value = serde_json::from_str(&out).unwrap();
    plan["cost"]["standard"].as_f64().unwrap()
}

#[test]
fn a_v2_search_one_person_per_domain_pages_with_the_from_window() {
    let mut app = started();
    app.form.load(
        Endpoint::SearchPeopleV2,
        json!({"size": 20, "onePersonPerDomain": true}),
    );
    let cmds = app.update(ctrl('r'));
    let first = sent_search(&cmds).expect("the first page goes out");
    assert_eq!(first.endpoint(), Endpoint::SearchPeopleV2);
    let resp = SearchResponse::PeopleV2(typed(json!({
        "people": (0..20).map(person).collect::<Vec<_>>(), "total": 500
    })));
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::People),
        Outcome::Page(records::page(resp)),
    );
    let cmds = app.update(ch('n'));
    let next = sent_search(&cmds).expect("n asks for the next window");
    assert_eq!(next.search_after(), None, "no cursor: v2 refuses one here");
    assert_eq!(next.body()["from"], json!(21), "{}", next.body());
    assert_eq!(next.page_size(), 20);
}
