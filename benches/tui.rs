//! Explorer speed (issue 4):
//! 1. drawing a 200×50 frame with 10,000 rows loaded vs 50 rows (target ≤ 1 ms, ≤ 1.3×), and
//!    with 10,000 people whose contacts are joined, all shown or only the revealed (issue 16,
//!    target ≤ 1 ms);
//! 2. keystroke-to-screen latency while 16 requests are in flight against a slow HTTP server
//!    (target p99 ≤ 16 ms).
//!
//! 3. start-up on the embedded sandbox (issue 8): time to the first frame (target ≤ 100 ms),
//!    until the explorer is usable, reference data and balance loaded (target ≤ 600 ms), and
//!    until a first search (sent as soon as the sandbox listens) is answered, the dataset
//!    loaded cold each run, as `prospect` without a token does.
//!
//! Run: `cargo bench --bench tui`. The latency and start-up parts print their numbers after
//! criterion's output.

/// The process allocator of the binary, mimalloc, so figures match `prospect`'s own.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use prospect::api::client::Endpoint;
use prospect::core::request::{SearchResponse, build_search};
use prospect::tui::app::{App, AppOptions, FormRow, Pane};
use prospect::tui::backend::{Backend, SessionBackend};
use prospect::tui::keymap::Keymap;
use prospect::tui::msg::{Call, Msg, Outcome, Slot};
use prospect::tui::records;
use prospect::tui::runner::{Hooks, run_loop};
use prospect::tui::schema::SearchSubject;
use prospect::tui::view;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn opts() -> AppOptions {
    AppOptions {
        base_url: "http://127.0.0.1:1".into(),
        sandbox: true,
        keymap: Keymap::default(),
        confirm_above: 1e12,
        budgeted: false,
        filters_dir: std::env::temp_dir().join("prospect-bench-filters"),
        export_dir: prospect::core::config::ExportDir {
            path: "/home/user/exports".into(),
            from_config: false,
        },
        columns: Default::default(),
        columns_file: None,
    }
}

fn company(i: usize) -> Value {
    json!({"company": {"name": format!("Company number {i}"), "domain": format!("c{i}.example"), "primaryCountry": "de",
        "companySize": "51-200", "industries": ["Software"], "yearFounded": 2000 + (i % 20), "employeeCountService": i,
        "description": "A company.", "locations": [{"primary": true, "locality": "Berlin", "country": "de"}],
        "technologies": ["React"], "departmentSizes": [{"department": "Sales", "size": 3}]}, "relevance": "A"})
}

/// Runs the search of the shown tab (`Ctrl-r`), answers it with `resp` and focuses the results.
fn search_answered(app: &mut App, kind: SearchSubject, resp: SearchResponse) {
    let cmds = app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('r'),
        KeyModifiers::CONTROL,
    )));
    let generation = match &cmds[..] {
        [prospect::tui::msg::Command::Call { generation, .. }] => *generation,
        _ => panic!("no search started"),
    };
    app.update(Msg::Done {
        slot: Slot::Search(kind),
        generation,
        result: Ok(Outcome::Page(records::page(resp))),
    });
    app.focus = Pane::Results;
}

fn app_with_rows(n: usize) -> App {
    let mut app = App::new(opts());
    let resp = json!({"companies": (0..n).map(company).collect::<Vec<_>>(), "total": n, "searchAfter": "x"});
    search_answered(
        &mut app,
        SearchSubject::Companies,
        SearchResponse::CompaniesV3(serde_json::from_value(resp).unwrap()),
    );
    // Select a row in the middle so the window is not at the start.
    app.results.companies.sel = n / 2;
    app
}

fn person(i: usize) -> Value {
    // Every other person carries a revealed email and phone, as joined from the store.
    let contacts = if i.is_multiple_of(2) {
        json!({"email": {"address": format!("p{i}@c{i}.example"), "status": "verified"},
            "phone": {"numbers": [format!("+49301234{i:04}")], "status": "verified"}})
    } else {
        json!({})
    };
    let mut p = json!({"id": format!("{i:024x}"), "name": format!("Person number {i}"),
        "domain": format!("c{i}.example"), "jobTitle": "Head of Sales", "country": "de",
        "seniorities": ["Head"], "linkedinUrl": format!("https://linkedin.com/in/p{i}")});
    for (k, v) in contacts.as_object().unwrap() {
        p[k] = v.clone();
    }
    p["company"] = json!({"name": format!("Company number {i}")});
    p["relevance"] = json!("B");
    p
}

/// The explorer with `n` people on the people tab, half of them with joined contacts (the
/// revealed column filled), showing the rows that `filter` presses of `=` leave.
fn app_with_people(n: usize, filter: usize) -> App {
    let mut app = App::new(opts());
    app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('t'),
        KeyModifiers::NONE,
    )));
    let people: Vec<Value> = (0..n).map(person).collect();
    let resp = json!({"people": people, "total": n, "searchAfter": "x"});
    search_answered(
        &mut app,
        SearchSubject::People,
        SearchResponse::PeopleV3(serde_json::from_value(resp).unwrap()),
    );
    for _ in 0..filter {
        app.update(Msg::Key(KeyEvent::new(
            KeyCode::Char('='),
            KeyModifiers::NONE,
        )));
    }
    let shown = app.results.people.rows().len();
    assert!(shown >= n / 2, "{shown} of {n} shown");
    app.results.people.sel = shown / 2;
    app
}

fn draw_bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("draw_200x50");
    for n in [50usize, 10_000] {
        let app = app_with_rows(n);
        let mut term = Terminal::new(TestBackend::new(200, 50)).unwrap();
        g.bench_function(format!("{n}_rows"), |b| {
            b.iter(|| {
                term.draw(|f| view::draw(f, &app)).unwrap();
            })
        });
    }
    // People with joined contacts (issue 16): all rows, and only the revealed ones.
    for (name, filter) in [("people_joined", 0), ("people_joined_only_revealed", 1)] {
        let app = app_with_people(10_000, filter);
        let mut term = Terminal::new(TestBackend::new(200, 50)).unwrap();
        g.bench_function(format!("10000_{name}"), |b| {
            b.iter(|| {
                term.draw(|f| view::draw(f, &app)).unwrap();
            })
        });
    }
    g.finish();
}

criterion_group!(benches, draw_bench);

/// A server that answers every request after `delay` with `{}`.
async fn slow_server(delay: Duration) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((mut sock, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(async move {
                let mut buf = vec![0u8; 65536];
                let _ = sock.read(&mut buf).await;
                tokio::time::sleep(delay).await;
                let body = b"{}";
                let head = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                    body.len()
                );
                let _ = sock.write_all(head.as_bytes()).await;
                let _ = sock.write_all(body).await;
            });
        }
    });
    format!("http://{addr}")
}

struct Notify(tokio::sync::mpsc::UnboundedSender<Instant>);

impl Hooks<TestBackend> for Notify {
    fn drawn(&mut self, _t: &mut Terminal<TestBackend>) {
        let _ = self.0.send(Instant::now());
    }
}

fn latency() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let base = slow_server(Duration::from_secs(30)).await;
        let session = prospect::core::session::Session::new(
            prospect::api::client::Client::new(&base, "bench").unwrap(),
            prospect::store::Store::open_in_memory().unwrap(),
            "bench",
        );
        let backend: Arc<dyn Backend> = Arc::new(SessionBackend::new(session));
        // 16 requests in flight against the slow server for the whole measurement.
        let mut load = Vec::new();
        for i in 0..16 {
            let b = backend.clone();
            load.push(tokio::spawn(async move {
                let req = build_search(Endpoint::SearchCompaniesV3, &json!({"size": 10 + i})).unwrap();
                let _ = b
                    .call(Call::Search {
                        request: req,
                        page: 0,
                        fresh: prospect::core::session::Freshness::Refresh,
                        set: None,
                    })
                    .await;
            }));
        }
        let mut app = App::new(opts());
        // Open the keywords editor (autocomplete field): each keystroke also aborts and
        // re-schedules a lookup against the slow server.
        let rows = app.form_rows();
        app.form.sel = rows.iter().position(|r| matches!(r, FormRow::Leaf(l) if l.path == ["companiesFilters", "keywords", "anyOf"])).unwrap();
        app.update(Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
        let (ev_tx, ev_rx) = futures::channel::mpsc::unbounded::<std::io::Result<Event>>();
        let (drawn_tx, mut drawn_rx) = tokio::sync::mpsc::unbounded_channel();
        let initial = app.start();
        let ui = tokio::spawn(async move {
            let mut term = Terminal::new(TestBackend::new(200, 50)).unwrap();
            let mut hooks = Notify(drawn_tx);
            run_loop(&mut term, &mut app, backend, ev_rx, initial, &mut hooks).await.unwrap();
        });
        // First frame.
        drawn_rx.recv().await.unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
        while drawn_rx.try_recv().is_ok() {}
        let mut samples = Vec::new();
        for i in 0..600 {
            let code = if i % 4 == 3 { KeyCode::Backspace } else { KeyCode::Char((b'a' + (i % 26) as u8) as char) };
            let t0 = Instant::now();
            ev_tx.unbounded_send(Ok(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)))).unwrap();
            let t1 = drawn_rx.recv().await.unwrap();
            samples.push(t1.saturating_duration_since(t0));
            // Human-ish pace, and sometimes past the debounce so lookups start and get aborted.
            tokio::time::sleep(Duration::from_millis(if i % 10 == 0 { 150 } else { 8 })).await;
            while drawn_rx.try_recv().is_ok() {}
        }
        ev_tx.unbounded_send(Ok(Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)))).unwrap();
        let _ = ui.await;
        for l in load {
            l.abort();
        }
        samples.sort();
        let pct = |p: f64| samples[((samples.len() as f64 * p) as usize).min(samples.len() - 1)];
        println!(
            "keystroke_to_screen (16 requests in flight, {} samples): p50 {:?}  p99 {:?}  max {:?}",
            samples.len(),
            pct(0.5),
            pct(0.99),
            samples.last().unwrap()
        );
    });
}

/// Records when the first frame was drawn and when the explorer became usable.
struct StartWatch {
    t0: Instant,
    first: Option<Duration>,
    usable: Option<Duration>,
    done: Option<futures::channel::mpsc::UnboundedSender<std::io::Result<Event>>>,
}

impl Hooks<TestBackend> for StartWatch {
    fn drawn(&mut self, _t: &mut Terminal<TestBackend>) {
        self.first.get_or_insert(self.t0.elapsed());
    }
    fn observe(&mut self, app: &App) {
        let usable = matches!(app.data_fields_state, Some(Ok(()))) && app.gauge.balance().is_some();
        if usable && self.usable.is_none() {
            self.usable = Some(self.t0.elapsed());
            if let Some(tx) = self.done.take() {
                let _ = tx.unbounded_send(Ok(Event::Key(KeyEvent::new(
                    KeyCode::Char('c'),
                    KeyModifiers::CONTROL,
                ))));
            }
        }
    }
}

/// One start of the explorer on a sandbox that loads its dataset cold, as `prospect` without
/// a token does (`tui::run_pending`, the sandbox listening while its companies are indexed):
/// (first frame, usable, first search answered). The search is sent as soon as the sandbox
/// listens, as an impatient user would, so it measures when searches can be answered.
async fn one_start(store: &std::path::Path) -> (Duration, Duration, Duration) {
    use prospect::sandbox::service::accounts::AccountSpec;
    use prospect::sandbox::service::{DbSource, SandboxConfig, spawn};
    let t0 = Instant::now();
    let store = store.to_path_buf();
    let (searched_tx, searched_rx) = tokio::sync::oneshot::channel::<Duration>();
    let (source_tx, source_rx) = tokio::sync::oneshot::channel();
    let make: prospect::tui::backend::BoxFuture<anyhow::Result<SessionBackend>> =
        Box::pin(async move {
            // A fresh load each run (the process-wide `embedded_source` would load only once).
            let source = DbSource::load_embedded()?;
            let _ = source_tx.send(source.clone());
            let sb = spawn(SandboxConfig {
                accounts: vec![AccountSpec::ample("bench-token")],
                db: Some(source),
                ..SandboxConfig::default()
            })
            .await?;
            let base = sb.base_url.clone();
            sb.detach();
            let client = prospect::api::client::Client::new(&base, "bench-token")?;
            let searcher = client.clone();
            tokio::spawn(async move {
                let req: prospect::api::types::SearchCompaniesV3Request =
                    serde_json::from_value(json!({
                        "size": 25,
                        "companiesFilters": {"primaryLocations": {"includeCountries": ["us"]}}
                    }))
                    .unwrap();
                let found = searcher
                    .search_companies_v3(&req)
                    .await
                    .expect("first search");
                assert!(!found.companies.is_empty());
                let _ = searched_tx.send(t0.elapsed());
            });
            let st = prospect::store::Store::open(&store.join("store.sqlite"))?;
            Ok(SessionBackend::new(prospect::core::session::Session::new(
                client, st, "sandbox",
            )))
        });
    let connected = prospect::tui::lazy::Connected::default();
    let backend: Arc<dyn Backend> = Arc::new(prospect::tui::lazy::LazyBackend::spawn(
        make,
        |b| b.session().client().base_url().to_string(),
        connected.clone(),
    ));
    let (tx, events) = futures::channel::mpsc::unbounded::<std::io::Result<Event>>();
    let mut app = App::new(opts());
    app.connected = Some(connected);
    let initial = app.start();
    let mut term = Terminal::new(TestBackend::new(160, 48)).unwrap();
    let mut hooks = StartWatch {
        t0,
        first: None,
        usable: None,
        done: Some(tx.clone()),
    };
    run_loop(&mut term, &mut app, backend, events, initial, &mut hooks)
        .await
        .unwrap();
    drop(tx);
    let searched = searched_rx.await.expect("the first search answered");
    // Let the background work of this start (the autocompletes) end before the next start.
    let db = source_rx.await.unwrap().db().await.unwrap();
    tokio::task::spawn_blocking(move || {
        db.autocompletes();
    })
    .await
    .unwrap();
    (hooks.first.unwrap(), hooks.usable.unwrap(), searched)
}

fn startup() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (mut first, mut usable, mut search) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..5 {
        let sub = dir.path().join(i.to_string());
        std::fs::create_dir_all(&sub).unwrap();
        let (f, u, s) = rt.block_on(one_start(&sub));
        first.push(f);
        usable.push(u);
        search.push(s);
    }
    first.sort();
    usable.sort();
    search.sort();
    println!(
        "startup on the embedded sandbox (5 cold starts): first frame p50 {:?} max {:?} (target ≤ 100 ms); \
         usable p50 {:?} max {:?} (target ≤ 600 ms); first search answered p50 {:?} max {:?}",
        first[2], first[4], usable[2], usable[4], search[2], search[4]
    );
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    latency();
    startup();
}
