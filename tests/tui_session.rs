//! The explorer's run loop against the real thing: `runner::run_loop` with the real
//! `Session` (real client, a store in a temp dir) and an in-process sandbox
//! (`sandbox::service::spawn`), keys fed from a channel as the event stream, frames drawn on
//! `TestBackend`. What was persisted is read back from the store and the balance is checked at
//! the sandbox.

#[path = "support/fault_proxy.rs"]
mod fault_proxy;
#[path = "support/run_loop.rs"]
mod run_loop;
#[path = "sandbox_service/support.rs"]
mod support;

use std::sync::Arc;
use std::time::Duration;

use crossterm::event::{KeyCode, KeyModifiers};
use prospect::api::client::{Client, Endpoint};
use prospect::api::cost::CreditPool;
use prospect::core::session::Session;
use prospect::sandbox::service::SandboxHandle;
use prospect::sandbox::service::accounts::AccountSpec;
use prospect::store::Store;
use prospect::tui::app::{App, Popup};
use prospect::tui::backend::{Backend, SessionBackend};
use support::{RICH, client, start};

/// What one drawn frame showed.
#[derive(Debug, Clone)]
struct Seen {
    screen: String,
    endpoint: Endpoint,
    companies_pages: usize,
    stored_label: Option<String>,
    standard_left: Option<f64>,
    spent_standard: f64,
    status: Option<String>,
    history_entries: Option<usize>,
    data_fields_loaded: bool,
    popups: usize,
    help_open: bool,
    /// A search tab waits for its page (the explorer's own state, not the proxy's).
    loading: bool,
}

/// The state a frame shows.
fn observe(app: &App, screen: &str) -> Seen {
    let history_entries = match app.popups.last() {
        Some(Popup::History(h)) => h.entries.as_ref().map(Vec::len),
        _ => None,
    };
    Seen {
        screen: screen.to_string(),
        endpoint: app.form.endpoint,
        companies_pages: app.results.companies.pages.len(),
        stored_label: app.results.companies.stored_label(),
        standard_left: app.gauge.left(CreditPool::Standard),
        spent_standard: app.gauge.spent_since_refresh().standard,
        status: app.status.as_ref().map(|s| s.text.clone()),
        history_entries,
        data_fields_loaded: matches!(app.data_fields_state, Some(Ok(()))),
        popups: app.popups.len(),
        help_open: matches!(app.popups.last(), Some(Popup::Help(_))),
        loading: app.results.companies.loading || app.results.people.loading,
    }
}

type Explorer = run_loop::Explorer<Seen>;

/// The explorer on `sb` as the account of `token`, with a fresh store.
fn open(sb: &SandboxHandle, token: &str) -> Explorer {
    open_at(&sb.base_url, token)
}

/// The explorer on the service at `base_url` (a sandbox, or a proxy in front of one).
fn open_at(base_url: &str, token: &str) -> Explorer {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("store.sqlite")).unwrap();
    let client = Client::new(base_url, token).expect("client builds");
    let session = Session::new(client, store, "sandbox");
    let backend: Arc<dyn Backend> = Arc::new(SessionBackend::new(session.clone()));
    Explorer::start(session, backend, base_url, dir, (120, 34), observe)
}

impl Explorer {
    fn ctrl_r(&self) {
        self.ctrl('r');
    }

    /// Closes popups (errors a failure opened, help) with `Esc` until none is open.
    async fn close_popups(&self) {
        for _ in 0..6 {
            if self.latest().is_none_or(|s| s.popups == 0) {
                return;
            }
            let m = self.mark();
            self.key(KeyCode::Esc, KeyModifiers::NONE);
            self.wait_since(m, "a frame after Esc", |_| true).await;
        }
        panic!("popups stay open: {:#?}", self.latest());
    }

    async fn ready(&self) -> Seen {
        self.wait("reference data and balance", |s| {
            s.data_fields_loaded && s.standard_left.is_some()
        })
        .await
    }

    fn every_status(&self) -> Vec<String> {
        self.frames().into_iter().filter_map(|s| s.status).collect()
    }
}

fn stored_pages(session: &Session) -> Vec<(Endpoint, u32)> {
    let st = session.store().lock().unwrap();
    st.searches(100)
        .unwrap()
        .into_iter()
        .map(|s| (Endpoint::from_path(&s.endpoint).unwrap(), s.pages))
        .collect()
}

async fn standard_at_sandbox(c: &Client) -> f64 {
    let b = c.credit_balance().await.expect("balance");
    let p = b.credits.expect("standard pool");
    p.one_time + p.recurrent
}

/// Issue 35: the explorer pages by the core's one rule. Through a proxy that answers the second
/// page with the cursor it was asked with, `n` shows that page, and the next `n` asks for
/// nothing: it says the cursor did not advance, as the CLI's run stops there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorers_pager_stops_on_a_cursor_that_does_not_advance() {
    use fault_proxy::{Fault, FaultProxy};
    let sb = start(vec![]).await;
    let proxy = FaultProxy::start_unmeasured(&sb.base_url, RICH).await;
    proxy.set_faults(false);
    proxy.script([Fault::Pass, Fault::SameCursor]);
    let ex = open_at(&proxy.base_url, RICH);
    ex.ready().await;
    ex.ctrl_r();
    ex.wait("page 1", |s| s.companies_pages == 1).await;
    ex.ch('n');
    ex.wait("page 2", |s| s.companies_pages == 2).await;
    let m = ex.mark();
    ex.ch('n');
    let last = ex
        .wait_since(m, "the last page said", |s| {
            s.status
                .as_deref()
                .is_some_and(|t| t.contains("named the same cursor again"))
        })
        .await;
    assert_eq!(last.companies_pages, 2);
    let searches: Vec<_> = proxy
        .log()
        .into_iter()
        .filter(|e| e.endpoint() == Some(Endpoint::SearchCompaniesV3))
        .collect();
    assert_eq!(searches.len(), 2, "the repeated cursor is not asked again");
    let (_app, _session, _dir) = ex.quit().await;
}

/// An account allowed 6 requests a minute: opening the explorer (reference data, balance), a
/// search and two more pages fit, because the balance is not asked again after each call; the
/// gauge falls locally with each page's charge.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn six_requests_a_minute_are_enough_for_a_search_and_two_more_pages() {
    let sb = start(vec![AccountSpec {
        rate_per_minute: Some(6),
        ..AccountSpec::ample("six-a-minute")
    }])
    .await;
    let ex = open(&sb, "six-a-minute");
    let start = ex.ready().await.standard_left.unwrap();
    ex.ctrl_r();
    let p1 = ex.wait("page 1", |s| s.companies_pages == 1).await;
    ex.ch('n');
    let p2 = ex.wait("page 2", |s| s.companies_pages == 2).await;
    ex.ch('n');
    let p3 = ex.wait("page 3", |s| s.companies_pages == 3).await;
    assert!(p3.screen.contains("rows 51–75"), "{}", p3.screen);
    let left: Vec<f64> = [&p1, &p2, &p3]
        .iter()
        .map(|s| s.standard_left.unwrap())
        .collect();
    assert!(
        start > left[0] && left[0] > left[1] && left[1] > left[2],
        "the standard pool falls after each page: {start} {left:?}"
    );
    assert!((start - left[2] - 15.0).abs() < 1e-6, "3 × 25 × 0.2");
    let statuses = ex.every_status();
    assert!(
        !statuses.iter().any(|s| s.contains("ate limited")),
        "no 429: {statuses:?}"
    );
    let (app, session, _dir) = ex.quit().await;
    assert_eq!(app.last_error, None);
    assert_eq!(
        stored_pages(&session),
        vec![(Endpoint::SearchCompaniesV3, 3)]
    );
}

/// A search superseded by another before it answered is not thrown away: it was paid, so the
/// session stores it and the gauge takes its charge, though it is never shown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_superseded_paid_search_is_stored_and_charged() {
    let sb = start(vec![]).await;
    let ex = open(&sb, RICH);
    ex.ready().await;
    // Run v3, switch to the legacy v2 company search, run again: both are queued before
    // either can answer, so the first is superseded while in flight.
    ex.ctrl_r();
    ex.ch('v');
    ex.ctrl_r();
    ex.wait("the v2 page", |s| {
        s.companies_pages == 1 && s.endpoint == Endpoint::SearchCompaniesV2
    })
    .await;
    // Both charges reach the gauge (25 × 0.2 each), the dropped one included.
    ex.wait("both charges in the gauge", |s| {
        (s.spent_standard - 10.0).abs() < 1e-6
    })
    .await;
    let (app, session, _dir) = ex.quit().await;
    assert_eq!(
        app.results.companies.pages.len(),
        1,
        "only the newer search is shown"
    );
    let mut stored = stored_pages(&session);
    stored.sort();
    assert_eq!(
        stored,
        vec![
            (Endpoint::SearchCompaniesV2, 1),
            (Endpoint::SearchCompaniesV3, 1)
        ],
        "both searches' pages are in the store"
    );
}

/// Quitting while a paid page is on its way waits for it: its answer is in the store when
/// the loop returns.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quitting_with_a_paid_call_in_flight_still_stores_it() {
    let sb = start(vec![]).await;
    let ex = open(&sb, RICH);
    ex.ready().await;
    ex.ctrl_r();
    let (app, session, _dir) = ex.quit().await;
    assert!(app.quit);
    assert_eq!(
        stored_pages(&session),
        vec![(Endpoint::SearchCompaniesV3, 1)],
        "the page paid for while quitting was stored"
    );
}

/// The explorer through a proxy that holds the answer of its first paid page `delay_ms`, with
/// that page sent (Ctrl-r) and on its way: (the sandbox, the proxy, the explorer).
async fn a_page_on_its_way(delay_ms: u64) -> (SandboxHandle, fault_proxy::FaultProxy, Explorer) {
    use fault_proxy::{Fault, FaultProxy};
    let sb = start(vec![]).await;
    let proxy = FaultProxy::start(&sb.base_url, RICH, 7).await;
    proxy.set_faults(false);
    proxy.script([Fault::Delay(delay_ms)]);
    let ex = open_at(&proxy.base_url, RICH);
    ex.ready().await;
    let arrived = proxy.arrived();
    ex.ctrl_r();
    let t0 = std::time::Instant::now();
    while proxy.arrived() == arrived {
        assert!(t0.elapsed() < run_loop::WAIT, "the page is sent");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    (sb, proxy, ex)
}

/// `Esc` while a page is on its way stops waiting for it (issue 19, "Control"): the view is
/// free at once and never shows the late answer, and the answer, a paid one, is still stored
/// when it comes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn esc_stops_waiting_for_a_page_and_its_answer_is_still_stored() {
    let (_sb, _proxy, ex) = a_page_on_its_way(1500).await;
    let m = ex.mark();
    ex.key(KeyCode::Esc, KeyModifiers::NONE);
    ex.wait_since(m, "the view to stop waiting", |s| {
        s.status
            .as_deref()
            .is_some_and(|t| t.contains("Stopped waiting for the page"))
    })
    .await;
    // The answer comes 1.5 s after it was sent: stored, not shown.
    let t0 = std::time::Instant::now();
    while stored_pages(&ex.session).is_empty() {
        assert!(t0.elapsed() < run_loop::WAIT, "the late answer is stored");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (app, session, _dir) = ex.quit().await;
    assert!(
        app.results.companies.pages.is_empty(),
        "the late page is not shown"
    );
    assert_eq!(
        stored_pages(&session),
        vec![(Endpoint::SearchCompaniesV3, 1)]
    );
}

/// A second quit key while quitting waits for a paid call stops the wait (issue 19, "Control"):
/// the loop ends with the call still out (its answer delayed 30 s by a proxy), says how many
/// were left, and has not stored it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_quit_stops_waiting_for_paid_calls() {
    let (_sb, _proxy, ex) = a_page_on_its_way(30_000).await;
    let (app, session, _dir) = ex
        .force_quit(|s| {
            s.status.as_deref().is_some_and(|t| {
                t.contains("finishing 1 paid call") && t.contains("again quits now")
            })
        })
        .await;
    assert!(app.quit);
    assert_eq!(app.left_unfinished, 1, "one paid call left unfinished");
    assert!(
        stored_pages(&session).is_empty(),
        "its answer was not waited for"
    );
}

/// `H` lists the stored search; Enter reopens it from the store: its pages are shown "from
/// store" and nothing is spent (checked at the sandbox). Paging past the stored pages is a
/// normal paid page, kept under the same history row.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reopening_a_stored_search_spends_nothing_and_paging_past_it_continues() {
    let sb = start(vec![]).await;
    let c = client(&sb, RICH);
    let ex = open(&sb, RICH);
    ex.ready().await;
    ex.ctrl_r();
    ex.wait("page 1", |s| s.companies_pages == 1).await;
    ex.ch('n');
    ex.wait("page 2", |s| s.companies_pages == 2).await;
    let before = standard_at_sandbox(&c).await;

    ex.ch('H');
    let popup = ex
        .wait("the history", |s| s.history_entries == Some(1))
        .await;
    assert!(popup.screen.contains("Search history"), "{}", popup.screen);
    assert!(
        popup.screen.contains("v3 companies") && popup.screen.contains("just now"),
        "{}",
        popup.screen
    );
    ex.key(KeyCode::Enter, KeyModifiers::NONE);
    let reopened = ex
        .wait("the reopened search", |s| {
            s.stored_label.is_some() && s.companies_pages == 2 && s.history_entries.is_none()
        })
        .await;
    assert!(
        reopened.screen.contains("from store, just now"),
        "{}",
        reopened.screen
    );
    assert_eq!(
        standard_at_sandbox(&c).await,
        before,
        "reopening spent nothing"
    );

    // Back to the first stored page, then forward through the stored page (no call) and
    // past it: page 3 is bought with the stored cursor.
    ex.ch('p');
    ex.ch('n');
    ex.ch('n');
    ex.wait("page 3", |s| s.companies_pages == 3).await;
    assert!(standard_at_sandbox(&c).await < before, "page 3 was paid");
    let (_app, session, _dir) = ex.quit().await;
    assert_eq!(
        stored_pages(&session),
        vec![(Endpoint::SearchCompaniesV3, 3)],
        "the third page continues the same stored search"
    );
}

/// Issue 10's fault-injection test: the explorer (run loop, real client, real store) against the
/// sandbox through a proxy that delays requests, refuses them before they arrive (429 with
/// `Retry-After`, 503, 500), answers 500 after the sandbox has charged, and cuts answers off
/// mid-body. Over a dozen search actions it checks that nothing panics, keys are answered while
/// calls are out, no paid call that may have been charged is sent again by itself, everything
/// delivered is in the store (read back from disk), and the balance fell by exactly the charges:
/// those stored plus those lost in transit. `PROSPECT_FAULT_SEED` picks another fault draw.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_between_explorer_and_service_lose_nothing_and_never_pay_twice() {
    use fault_proxy::{Fault, FaultProxy};

    let sb = start(vec![]).await;
    let direct = client(&sb, RICH);
    let seed = std::env::var("PROSPECT_FAULT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let proxy = FaultProxy::start(&sb.base_url, RICH, seed).await;
    let initial = proxy.balance().await;
    let ex = open_at(&proxy.base_url, RICH);
    ex.wait("the first frame", |_| true).await;
    let quiet = Duration::from_millis(1800);

    for _ in 0..12 {
        // The last action is over in the explorer (its page shown or its error said) and at
        // the proxy: a call still being planned has not reached the proxy yet, and a key sent
        // then would supersede it.
        ex.wait_now("the explorer to stop waiting for a page", |s| !s.loading)
            .await;
        proxy.settle(quiet, run_loop::WAIT).await;
        ex.close_popups().await;
        let pages = ex.latest().map_or(0, |s| s.companies_pages);
        proxy.begin_action();
        if pages == 0 {
            ex.ctrl_r();
        } else {
            ex.ch('n');
        }
        // The explorer answers keys while the call is out (or failing): help opens and closes.
        let m = ex.mark();
        ex.ch('?');
        ex.wait_since(m, "help to open while a call is out", |s| s.help_open)
            .await;
        ex.close_popups().await;
    }

    // Faults off: the balance asked for with `c` is the sandbox's own.
    proxy.set_faults(false);
    ex.wait_now("the explorer to stop waiting for a page", |s| !s.loading)
        .await;
    proxy.settle(quiet, run_loop::WAIT).await;
    ex.close_popups().await;
    let standard_now = standard_at_sandbox(&direct).await;
    let m = ex.mark();
    ex.ch('c');
    ex.wait_since(m, "the gauge to show the sandbox's balance", |s| {
        s.standard_left
            .is_some_and(|l| (l - standard_now).abs() < 1e-6)
    })
    .await;
    let (app, _session, dir) = ex.quit().await;
    drop(app);

    let log = proxy.log();
    let searches: Vec<_> = log
        .iter()
        .enumerate()
        .filter(|(_, e)| e.endpoint().is_some_and(Endpoint::is_search))
        .collect();
    let faulted_paid: Vec<_> = searches
        .iter()
        .filter(|(_, e)| e.fault.forwarded() && !e.fault.delivered())
        .collect();
    assert!(
        faulted_paid
            .iter()
            .any(|(_, e)| e.fault == Fault::CutMidBody && e.charged > 0.0)
            && faulted_paid
                .iter()
                .any(|(_, e)| e.fault == Fault::ServerErrorAfter && e.charged > 0.0),
        "the script met a charged answer cut off and one replaced by a 500: {searches:#?}"
    );
    // A paid call that may have been charged is never sent again by itself (the user may send
    // it again, in a later action).
    for (i, e) in &faulted_paid {
        let again = log[i + 1..]
            .iter()
            .find(|l| l.action == e.action && l.path == e.path && l.body == e.body);
        assert!(
            again.is_none(),
            "a charged search was sent again without the user: {e:#?} then {again:#?}"
        );
    }
    // A 429 is refused before it counts: it is retried, and the retry is answered.
    assert!(
        searches.iter().any(|(i, e)| e.fault == Fault::Refuse(429)
            && log[i + 1..]
                .iter()
                .any(|l| l.action == e.action && l.body == e.body && l.fault.delivered())),
        "a search refused with 429 was retried: {searches:#?}"
    );

    // Nothing delivered is lost: the store, read back from disk, holds every search answer the
    // client received whole, and exactly their charges.
    let store = Store::open(&dir.path().join("store.sqlite")).unwrap();
    let purchases = store.purchases(10_000).unwrap();
    let stored: f64 = purchases
        .iter()
        .map(|p| p.charged.standard + p.charged.email + p.charged.phone)
        .sum();
    let delivered: f64 = log
        .iter()
        .filter(|e| e.fault.delivered())
        .map(|e| e.charged)
        .sum();
    let in_transit: f64 = log
        .iter()
        .filter(|e| e.fault.forwarded() && !e.fault.delivered())
        .map(|e| e.charged)
        .sum();
    let delivered_pages = searches
        .iter()
        .filter(|(_, e)| e.fault.delivered() && e.status == 200)
        .count();
    let stored_pages = purchases
        .iter()
        .filter(|p| p.endpoint_kind().is_some_and(Endpoint::is_search))
        .count();
    assert_eq!(
        stored_pages, delivered_pages,
        "every page delivered whole is stored"
    );
    assert!(
        (stored - delivered).abs() < 1e-6,
        "stored charges {stored} = charges of delivered answers {delivered}"
    );
    // The balance fell by exactly the charges: stored ones plus those lost in transit.
    let spent = initial - proxy.balance().await;
    assert!(
        (spent - (stored + in_transit)).abs() < 1e-6,
        "spent {spent} = stored {stored} + lost in transit {in_transit}"
    );
    assert!(stored > 0.0 && in_transit > 0.0, "{stored} {in_transit}");
}

/// `Ctrl-e`, first 60 results with pages of 25: the engine's run reads the page shown from the
/// store and buys the 35 missing results in one request (stored under the same history row);
/// they join the tab as pages of 25; the file is written atomically to the path typed in the
/// popup, and it parses back to 60 distinct companies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exporting_the_first_60_buys_the_missing_pages_and_writes_60_rows() {
    let sb = start(vec![]).await;
    let ex = open(&sb, RICH);
    ex.ready().await;
    ex.ctrl_r();
    ex.wait("page 1", |s| s.companies_pages == 1).await;
    ex.key(KeyCode::Char('e'), KeyModifiers::CONTROL);
    ex.wait("the export popup", |s| {
        s.screen.contains("Export companies")
    })
    .await;
    // Rows: first N; N = 60; format JSONL; the file in the test's temp dir.
    ex.key(KeyCode::Tab, KeyModifiers::NONE);
    ex.key(KeyCode::Tab, KeyModifiers::NONE);
    ex.key(KeyCode::Down, KeyModifiers::NONE);
    for _ in 0..8 {
        ex.key(KeyCode::Backspace, KeyModifiers::NONE);
    }
    ex.ch('6');
    ex.ch('0');
    ex.key(KeyCode::Down, KeyModifiers::NONE);
    ex.key(KeyCode::Tab, KeyModifiers::NONE);
    ex.key(KeyCode::Down, KeyModifiers::NONE);
    for _ in 0..80 {
        ex.key(KeyCode::Backspace, KeyModifiers::NONE);
    }
    let path = ex.dir().join("first-60.jsonl");
    ex.paste(&path.display().to_string());
    // 35 results × 0.2 = 7 credits: not above confirm_above (10), no question.
    ex.key(KeyCode::Enter, KeyModifiers::NONE);
    let done = ex
        .wait("the export written", |s| {
            s.status
                .as_deref()
                .is_some_and(|t| t.starts_with("Exported 60 records"))
        })
        .await;
    assert_eq!(done.companies_pages, 3, "the bought pages joined the tab");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON record a line"))
        .collect();
    assert_eq!(lines.len(), 60);
    let domains: std::collections::HashSet<&str> =
        lines.iter().filter_map(|v| v["domain"].as_str()).collect();
    assert_eq!(domains.len(), 60, "60 distinct companies");
    let (app, session, _dir) = ex.quit().await;
    assert_eq!(app.last_error, None);
    assert_eq!(
        stored_pages(&session),
        vec![(Endpoint::SearchCompaniesV3, 2)],
        "the page bought for the export is in the store, after the first"
    );
}

/// Under a daily budget every page is planned first (issue 15): the first page (5 credits)
/// goes; the next would pass the budget of 6, so an error popup names the budget and nothing
/// is sent; the first page asked again is owned, so the store answers it at 0 credits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daily_budget_refuses_the_page_that_would_pass_it_and_the_store_still_answers() {
    let sb = start(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("store.sqlite")).unwrap();
    let c = client(&sb, RICH);
    let session = Session::new(c.clone(), store, "sandbox").with_policy(
        prospect::core::engine::SpendPolicy {
            budget: prospect::core::config::Budget {
                standard_per_day: Some(6.0),
                ..Default::default()
            },
            ..Default::default()
        },
    );
    let backend: Arc<dyn Backend> = Arc::new(SessionBackend::new(session.clone()));
    let ex = Explorer::start_with(
        session,
        backend,
        &sb.base_url,
        dir,
        (120, 34),
        observe,
        |o| o.budgeted = true,
    );
    ex.ready().await;
    let before = standard_at_sandbox(&c).await;
    ex.ctrl_r();
    ex.wait("page 1", |s| s.companies_pages == 1).await;
    ex.ch('n');
    let refused = ex
        .wait("the budget's refusal", |s| s.screen.contains("budget"))
        .await;
    assert_eq!(refused.companies_pages, 1, "{}", refused.screen);
    assert!(refused.popups > 0);
    ex.close_popups().await;
    let m = ex.mark();
    ex.ctrl_r();
    let again = ex
        .wait_since(m, "page 1 from the store", |s| {
            s.status
                .as_deref()
                .is_some_and(|t| t.contains("from the store") && t.contains("0 credits"))
        })
        .await;
    assert_eq!(again.companies_pages, 1);
    assert!(!again.screen.contains("budget"), "{}", again.screen);
    let (app, _session, _dir) = ex.quit().await;
    assert_eq!(
        ((before - standard_at_sandbox(&c).await) * 1000.0).round() / 1000.0,
        5.0,
        "only the first page (25 × 0.2) was bought"
    );
    drop(app);
}

/// Issue 18, the run loop against the real sandbox: a page of companies, all marked, `S`
/// segments them (one paid request: 0.1 credit each, under the confirm threshold) and the
/// Segments view follows it until it has segments; `A` fills the fit column; `S` again on the
/// same marks owns the segmentation (0 credits, nothing sent).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn segmenting_the_marked_companies_pays_once_and_shows_the_segments() {
    let sb = start(vec![]).await;
    let c = client(&sb, RICH);
    let ex = open(&sb, RICH);
    ex.ready().await;
    ex.ctrl_r();
    ex.wait("page 1", |s| s.companies_pages == 1).await;
    ex.key(KeyCode::Tab, KeyModifiers::NONE);
    ex.ch('*');
    let before = standard_at_sandbox(&c).await;
    ex.ch('S');
    let shown = ex
        .wait("the segments", |s| {
            s.screen.contains("Segments") && s.screen.contains("companies look like them")
        })
        .await;
    assert!(shown.screen.contains("segmentation 1"), "{}", shown.screen);
    let after = standard_at_sandbox(&c).await;
    assert!(
        (before - after - 2.5).abs() < 1e-6,
        "25 companies at 0.1: {before} → {after}"
    );
    ex.ch('A');
    ex.wait("the fit", |s| {
        s.status
            .as_deref()
            .is_some_and(|t| t.contains("fit a segment"))
            || s.screen.contains("fit a segment")
    })
    .await;
    ex.key(KeyCode::Esc, KeyModifiers::NONE);
    let cols = ex
        .wait("the fit column", |s| s.screen.contains(" fit"))
        .await;
    assert!(cols.screen.contains("fit"), "{}", cols.screen);
    // The same companies again: owned. The status says "0 credits" when the job is sent;
    // the job's answer then opens the view again, so the test waits for that answer (a `q`
    // sent before it would land in the view it opens).
    let mark = ex.mark();
    ex.ch('S');
    ex.wait_since(mark, "the segments again", |s| {
        s.status
            .as_deref()
            .is_some_and(|t| t.contains("were segmented") && t.contains("0 credits"))
            && s.popups > 0
    })
    .await;
    assert!(
        (standard_at_sandbox(&c).await - after).abs() < 1e-9,
        "nothing charged again"
    );
    ex.close_popups().await;
    let (app, session, _dir) = ex.quit().await;
    assert_eq!(app.last_error, None);
    assert_eq!(session.stored_segmentations(10).await.len(), 1);
}

/// A used-up daily allowance (every call, the balance's too, answered 429 with hours to wait;
/// issue 34): the explorer's search says so with the reset time within 15 s, never an endless
/// "Searching…", and the loop stays free.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_used_up_daily_allowance_is_said_not_waited_for() {
    let sb = start(vec![]).await;
    let proxy = fault_proxy::FaultProxy::start_unmeasured(&sb.base_url, RICH).await;
    proxy.set_daily_limit(true);
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("store.sqlite")).unwrap();
    let options = prospect::api::client::ClientOptions {
        rate_per_minute: Some(60),
        ..Default::default()
    };
    let client = Client::with_options(&proxy.base_url, RICH, options).unwrap();
    let session = Session::new(client, store, "sandbox");
    let backend: Arc<dyn Backend> = Arc::new(SessionBackend::new(session.clone()));
    let ex = Explorer::start(session, backend, &proxy.base_url, dir, (120, 34), observe);
    ex.wait("the first frame", |_| true).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    ex.close_popups().await;
    let t0 = std::time::Instant::now();
    let m = ex.mark();
    ex.ctrl_r();
    let seen = ex
        .wait_since(m, "the used-up allowance to be said", |s| {
            s.screen.contains("resets in")
                || s.status.as_deref().is_some_and(|t| t.contains("resets in"))
        })
        .await;
    assert!(t0.elapsed() < Duration::from_secs(15), "{:?}", t0.elapsed());
    assert!(!seen.screen.contains("Searching"), "{}", seen.screen);
    // The loop answers keys: help opens.
    ex.close_popups().await;
    let m = ex.mark();
    ex.ch('?');
    ex.wait_since(m, "help to open", |s| s.help_open).await;
}

/// A search page whose answer is cut off (issue 34): the rows that read are shown, the status
/// line says where it stopped, and `Ctrl-r` again buys the page again (it was not kept as a
/// page) and shows it whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_cut_off_shows_what_read_and_says_so() {
    let sb = start(vec![]).await;
    let proxy = fault_proxy::FaultProxy::start_unmeasured(&sb.base_url, RICH).await;
    proxy.set_faults(false);
    let ex = open_at(&proxy.base_url, RICH);
    ex.ready().await;
    proxy.script([fault_proxy::Fault::Truncate]);
    let m = ex.mark();
    ex.ctrl_r();
    let cut = ex
        .wait_since(m, "the cut page", |s| {
            s.status
                .as_deref()
                .is_some_and(|t| t.contains("stopped reading"))
        })
        .await;
    assert_eq!(cut.companies_pages, 1, "{:?}", cut.status);
    let m = ex.mark();
    ex.ctrl_r();
    let whole = ex
        .wait_since(m, "the page again", |s| {
            s.status
                .as_deref()
                .is_some_and(|t| t.contains("credits used") && !t.contains("stopped reading"))
        })
        .await;
    assert!(
        !whole.screen.contains("stopped reading"),
        "{}",
        whole.screen
    );
    let searches = proxy
        .log()
        .iter()
        .filter(|e| e.endpoint().is_some_and(Endpoint::is_search))
        .count();
    assert_eq!(searches, 2, "bought again, not read from the store");
}
