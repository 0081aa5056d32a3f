//! The explorer's actions (issue 8) through the real run loop: `runner::run_loop` with the
//! real `Session` (real client, a store in a temp dir), the real webhook receiver on
//! 127.0.0.1 and an in-process sandbox (`sandbox::service::spawn`, fast webhook and gathering
//! timings). Keys are fed from a channel; balances are checked at the sandbox and what was
//! persisted is read back from the store.

#[path = "support/fault_proxy.rs"]
mod fault_proxy;
#[path = "support/run_loop.rs"]
mod run_loop;
#[path = "sandbox_service/support.rs"]
mod support;

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyModifiers};
use prospect::api::client::Client;
use prospect::common::ContactKind;
use prospect::core::session::Session;
use prospect::core::webhooks::ReceiverConfig;
use prospect::sandbox::service::SandboxHandle;
use prospect::store::Store;
use prospect::tui::app::App;
use prospect::tui::backend::{Backend, SessionBackend};
use prospect::tui::components::activity::JobState;
use prospect::tui::schema::SearchSubject;
use support::{RICH, client, start};

/// What one drawn frame showed.
#[derive(Debug, Clone)]
struct Seen {
    screen: String,
    status: Option<String>,
    ready: bool,
    /// The email / phone cells of the people tab's shown page.
    people_contacts: Vec<String>,
    people_rows: usize,
    marked: usize,
    /// Name cells of the companies tab's shown page.
    company_names: Vec<String>,
    jobs: Vec<(String, JobState)>,
    deliveries: usize,
}

/// The state a frame shows.
fn observe(app: &App, screen: &str) -> Seen {
    let people = app.search(SearchSubject::People);
    let companies = app.search(SearchSubject::Companies);
    Seen {
        screen: screen.to_string(),
        status: app.status.as_ref().map(|s| s.text.clone()),
        ready: matches!(app.data_fields_state, Some(Ok(()))) && app.gauge.balance().is_some(),
        people_contacts: people.rows().iter().map(|r| r.cells[5].clone()).collect(),
        people_rows: people.rows().len(),
        marked: people.marked.len(),
        company_names: companies
            .rows()
            .iter()
            .map(|r| r.cells[0].clone())
            .collect(),
        jobs: app
            .activity
            .jobs
            .iter()
            .map(|j| (j.label.clone(), j.state.clone()))
            .collect(),
        deliveries: app.activity.deliveries.len(),
    }
}

type Explorer = run_loop::Explorer<Seen>;

/// Waits for a frame whose status line `ok` accepts; returns that line.
async fn status_where(ex: &Explorer, what: &str, ok: impl Fn(&str) -> bool) -> String {
    ex.wait(what, |s| s.status.as_deref().is_some_and(&ok))
        .await
        .status
        .unwrap_or_default()
}

/// The explorer on `sb` as `token`, with a fresh store and a loopback webhook receiver.
async fn open(sb: &SandboxHandle, token: &str) -> Explorer {
    open_in(sb, token, tempfile::tempdir().unwrap()).await
}

/// [`open`] on the store in `dir` (a restart when an explorer used it before).
async fn open_in(sb: &SandboxHandle, token: &str, dir: tempfile::TempDir) -> Explorer {
    let store = Store::open(&dir.path().join("store.sqlite")).unwrap();
    let session = Session::new(client(sb, token), store, "sandbox");
    session
        .start_receiver(ReceiverConfig::loopback("a-test-secret-0123456789abcdef"))
        .await
        .expect("the receiver starts");
    let backend: Arc<dyn Backend> =
        Arc::new(SessionBackend::new(session.clone()).with_receiver(Ok(())));
    Explorer::start(session, backend, &sb.base_url, dir, (140, 36), observe)
}

async fn email_credits_at_sandbox(c: &Client) -> f64 {
    let b = c.credit_balance().await.expect("balance");
    let p = b.email_credits.expect("email pool");
    p.one_time + p.recurrent
}

fn reveal_purchases(session: &Session) -> usize {
    let st = session.store().lock().unwrap();
    st.purchases(1000)
        .unwrap()
        .into_iter()
        .filter(|p| p.endpoint == "/v2/reveal/emails")
        .count()
}

/// Search people, mark two, `r`: the cost is shown, the reveal goes out with the receiver's
/// URL, the webhook fills the email column of exactly those two rows, the store holds the
/// contacts and the sandbox charged email credits. `r` again answers from the store: nothing
/// is sent and the email pool does not move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reveal_fills_the_rows_by_webhook_and_again_spends_nothing() {
    let sb = start(vec![]).await;
    let c = client(&sb, RICH);
    let ex = open(&sb, RICH).await;
    ex.wait("ready", |s| s.ready).await;
    ex.ch('t'); // people tab
    ex.ctrl('r');
    ex.wait("people", |s| s.people_rows > 2).await;
    let before = email_credits_at_sandbox(&c).await;
    ex.ch(' ');
    ex.ch(' ');
    let marked = ex.wait("two marked", |s| s.marked == 2).await;
    assert!(marked.screen.contains("2 marked"), "{}", marked.screen);
    assert!(
        marked.people_contacts.iter().all(|e| e.is_empty()),
        "search results are not revealed: {:?}",
        marked.people_contacts
    );
    ex.ch('r');
    let sent = ex
        .wait("the reveal sent", |s| {
            s.status
                .as_deref()
                .is_some_and(|t| t.starts_with("Reveal of 2 emails sent (≤ 2 email credits)"))
        })
        .await;
    assert!(
        ex.frames().iter().any(|s| s
            .status
            .as_deref()
            .is_some_and(|t| t.contains("≤ 2 email credits"))),
        "the cost was shown: {:?}",
        sent.status
    );
    let arrived = ex
        .wait("the emails in the table", |s| {
            s.people_contacts.len() > 2
                && s.people_contacts[..2].iter().all(|e| !e.is_empty())
                && s.deliveries == 1
        })
        .await;
    assert!(
        arrived.people_contacts[2..].iter().all(|e| e.is_empty()),
        "only the marked rows are filled: {:?}",
        arrived.people_contacts
    );
    assert!(
        arrived
            .jobs
            .iter()
            .any(|(l, st)| l == "reveal emails of 2 people" && *st == JobState::Arrived),
        "{:?}",
        arrived.jobs
    );
    let verified = arrived.people_contacts[..2]
        .iter()
        .filter(|e| e.contains('@') && !e.contains('('))
        .count();
    let spent = before - email_credits_at_sandbox(&c).await;
    assert!(
        (spent - verified as f64).abs() < 1e-9,
        "one email credit per verified email: spent {spent}, {verified} verified"
    );
    assert_eq!(reveal_purchases(&ex.session), 1);

    // Again: from the store, nothing sent, nothing spent.
    let n = ex.mark();
    ex.ch('r');
    let again = ex
        .wait_since(n, "the store's answer", |s| {
            // The run answers it (a job at 0 credits); its progress line says "from the
            // store" too, so wait for the answer's.
            s.status
                .as_deref()
                .is_some_and(|t| t.contains("from the store, revealed"))
        })
        .await;
    let text = again.status.unwrap();
    assert!(
        text.starts_with("2 emails from the store, revealed just now · 0 credits · F to refresh"),
        "{text}"
    );
    assert_eq!(email_credits_at_sandbox(&c).await, before - spent);
    let (app, session, _dir) = ex.quit().await;
    assert_eq!(
        reveal_purchases(&session),
        1,
        "the second reveal was not sent"
    );
    let ids: Vec<String> = app.search(SearchSubject::People).rows()[..2]
        .iter()
        .map(|r| r.record.key())
        .collect();
    let stored = session
        .store()
        .lock()
        .unwrap()
        .contacts_for(&ids, ContactKind::Email)
        .unwrap();
    assert_eq!(stored.len(), 2, "the receiver stored both contacts");
}

/// Look up a pasted list of 5 domains, one unknown: both kinds of rows are shown ("not
/// found"); `E` on the unknown one answers 201, the job waits and tries again by itself, and
/// the row is filled in place when the service has gathered it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lookup_then_enrich_an_unknown_domain_pending_then_arrived() {
    let sb = start(vec![]).await;
    let c = client(&sb, RICH);
    let ex = open(&sb, RICH).await;
    ex.wait("ready", |s| s.ready).await;
    // Four known domains from a search, one unknown.
    let known = support::company_domains(&c, serde_json::json!({ "size": 4 })).await;
    assert_eq!(known.len(), 4);
    ex.ctrl('l');
    ex.paste(&format!(
        "{}\n{}, {}\n{} unknown-prospect-test.com\n",
        known[0], known[1], known[2], known[3]
    ));
    ex.key(KeyCode::Enter, KeyModifiers::NONE);
    let looked = ex
        .wait("the lookup rows", |s| s.company_names.len() == 5)
        .await;
    assert_eq!(looked.company_names[4], "not found");
    assert!(
        looked.company_names[..4]
            .iter()
            .all(|n| n != "not found" && !n.is_empty()),
        "{:?}",
        looked.company_names
    );
    assert!(
        looked
            .status
            .as_deref()
            .is_some_and(|t| t.starts_with("Lookup: 4 found, 1 not found")),
        "{:?}",
        looked.status
    );
    // Select the unknown row and enrich it.
    ex.key(KeyCode::End, KeyModifiers::NONE);
    ex.ch('E');
    ex.wait("pending", |s| {
        s.jobs
            .iter()
            .any(|(l, st)| l == "enrich unknown-prospect-test.com" && *st == JobState::Pending)
    })
    .await;
    let done = ex
        .wait("arrived", |s| {
            s.jobs
                .iter()
                .any(|(l, st)| l == "enrich unknown-prospect-test.com" && *st == JobState::Arrived)
        })
        .await;
    assert_ne!(
        done.company_names[4], "not found",
        "the row was filled in place"
    );
    assert!(!done.company_names[4].is_empty());
    let (_app, session, _dir) = ex.quit().await;
    assert!(
        session
            .store()
            .lock()
            .unwrap()
            .company("unknown-prospect-test.com")
            .unwrap()
            .is_some(),
        "the enriched company is stored"
    );
}

/// Without a webhook receiver, `r` says why reveals are disabled and sends nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reveals_without_a_receiver_spend_nothing() {
    let sb = start(vec![]).await;
    let c = client(&sb, RICH);
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("store.sqlite")).unwrap();
    let session = Session::new(client(&sb, RICH), store, "sandbox");
    let backend = SessionBackend::new(session.clone())
        .with_receiver(Err("reveals are disabled: no receiver in this test".into()));
    assert!(backend.deliveries().is_none());
    let out = backend
        .call(prospect::tui::msg::Call::Run {
            ask: prospect::tui::msg::Ask::reveal(ContactKind::Email, vec!["p1".into()]),
            plan: None,
            fresh: prospect::core::session::Freshness::Stored,
        })
        .await;
    let e = out.expect_err("refused");
    assert!(e.message.contains("reveals are disabled"), "{}", e.message);
    assert_eq!(reveal_purchases(&session), 0);
    let _ = c;
}

/// `Ctrl-l` on the people tab with a bare handle finds the person (sent as a handle, not as a
/// service id), and the profile URL of the same person, in another case with a trailing `/`,
/// is the same key: one row, one result bought.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bare_handle_and_its_url_find_one_person() {
    let sb = start(vec![]).await;
    let c = client(&sb, RICH);
    let req = serde_json::from_value(serde_json::json!({ "size": 5 })).unwrap();
    let handle = c
        .search_people_v3(&req)
        .await
        .unwrap()
        .people
        .into_iter()
        .find_map(|p| {
            p.person
                .linkedin_url
                .as_deref()
                .and_then(prospect::common::keys::linkedin_handle)
        })
        .expect("a person with a profile URL");
    let ex = open(&sb, RICH).await;
    ex.wait("ready", |s| s.ready).await;
    ex.ch('t'); // people tab
    ex.ctrl('l');
    ex.paste(&format!(
        "{handle}\nhttps://www.linkedin.com/in/{}/\n",
        handle.to_uppercase()
    ));
    ex.key(KeyCode::Enter, KeyModifiers::NONE);
    let status = status_where(&ex, "the lookup row", |t| t.starts_with("Lookup: ")).await;
    assert!(
        status.starts_with("Lookup: 1 found, 0 not found"),
        "{status}"
    );
    assert_eq!(ex.latest().unwrap().people_rows, 1, "one person, one row");
    let (_app, session, _dir) = ex.quit().await;
    let store = session.store().lock().unwrap();
    assert!(
        store.person_by_handle(&handle).unwrap().is_some(),
        "the person is stored under the handle"
    );
}

/// Issue 35, one door: `Ctrl-l` on the people tab with a list that mixes a handle and a
/// service id is one ask of the engine (`LookupPeople` by shape): one plan counting both, one
/// run through `engine::run` that is one job in `prospect jobs`, both people found, and a
/// second run answered from the store at 0 credits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mixed_people_lookup_is_one_plan_and_one_job() {
    use prospect::core::session::Freshness;
    use prospect::tui::msg::{Ask, Call, Outcome, RanAnswer};
    let sb = start(vec![]).await;
    let c = client(&sb, RICH);
    let req = serde_json::from_value(serde_json::json!({ "size": 10 })).unwrap();
    let people = c.search_people_v3(&req).await.unwrap().people;
    let (at, handle) = people
        .iter()
        .enumerate()
        .find_map(|(i, p)| {
            p.person
                .linkedin_url
                .as_deref()
                .and_then(prospect::common::keys::linkedin_handle)
                .map(|h| (i, h))
        })
        .expect("a person with a profile URL");
    // Another person, by service id (the same person would be owned once the handle bought it).
    let id = people
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != at)
        .map(|(_, p)| p.person.id.clone())
        .find(|i| prospect::core::engine::is_service_id(i))
        .expect("another person with a service id");
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("store.sqlite")).unwrap();
    let session = Session::new(client(&sb, RICH), store, "sandbox");
    let backend = SessionBackend::new(session.clone());
    let ask = Ask::lookup(
        SearchSubject::People,
        vec![handle.clone(), id.clone()],
        None,
    );
    let run = |plan| Call::Run {
        ask: ask.clone(),
        plan,
        fresh: Freshness::Stored,
    };
    let prepare = Call::Prepare {
        ask: ask.clone(),
        fresh: Freshness::Stored,
    };
    let Ok(Outcome::Prepared(p)) = backend.call(prepare).await else {
        panic!("a plan")
    };
    let plan = p.plan.clone().expect("the engine's plan");
    assert_eq!((plan.asked, plan.owned, plan.to_buy), (2, 0, 2), "{plan:?}");
    assert_eq!(plan.requests, 2, "one by handle, one by id");
    let Ok(Outcome::Ran(ran)) = backend.call(run(Some(Box::new(plan)))).await else {
        panic!("a run")
    };
    let RanAnswer::Lookup {
        rows,
        not_found,
        from_store,
        sent,
        ..
    } = ran.answer
    else {
        panic!("a lookup's rows")
    };
    assert_eq!((rows.len(), not_found, from_store, sent), (2, 0, 0, 2));
    assert_eq!(ran.charge.requests, 2);
    let jobs = session.jobs(10, false).await.unwrap();
    assert_eq!(jobs.len(), 1, "one job: {jobs:?}");
    assert_eq!(jobs[0].kind, "lookup_people");
    assert_eq!(jobs[0].state, prospect::store::JobStatus::Done);
    assert_eq!(jobs[0].spec["by_shape"], serde_json::json!(true));

    // Again (a retry plans anew): both from the store, nothing sent.
    let Ok(Outcome::Ran(again)) = backend.call(run(None)).await else {
        panic!("a second run")
    };
    let RanAnswer::Lookup {
        from_store, sent, ..
    } = again.answer
    else {
        panic!("a lookup's rows")
    };
    assert_eq!((from_store, sent), (2, 0));
    assert!(again.charge.cost.is_zero());
    assert_eq!(again.charge.requests, 0);
}

/// Contacts follow the people (issue 16): emails revealed for ten people of a search are in
/// the table again after a restart, when the search is reopened from the history with `H`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn revealed_emails_are_in_a_search_reopened_after_a_restart() {
    let sb = start(vec![]).await;
    let ex = open(&sb, RICH).await;
    ex.wait("ready", |s| s.ready).await;
    ex.ch('t'); // people tab
    ex.ctrl('r');
    ex.wait("people", |s| s.people_rows > 10).await;
    for _ in 0..10 {
        ex.ch(' ');
    }
    ex.wait("ten marked", |s| s.marked == 10).await;
    ex.ch('r');
    let arrived = ex
        .wait("the emails in the table", |s| {
            s.deliveries >= 1 && s.people_contacts[..10].iter().all(|e| !e.is_empty())
        })
        .await;
    let revealed = arrived.people_contacts[..10].to_vec();
    assert!(
        revealed.iter().filter(|e| e.contains('@')).count() >= 5,
        "{revealed:?}"
    );
    let (_app, session, dir) = ex.quit().await;
    drop(session);

    // A restart on the same store: the search reopened from the history shows them.
    let ex = open_in(&sb, RICH, dir).await;
    ex.wait("ready again", |s| s.ready).await;
    ex.ch('H');
    // The list is read off the loop: Enter once the stored search is listed.
    ex.wait("the history", |s| {
        s.screen.contains("Search history") && s.screen.contains("v3 people")
    })
    .await;
    ex.key(KeyCode::Enter, KeyModifiers::NONE);
    let reopened = ex
        .wait("the reopened search", |s| {
            s.people_rows > 10 && s.people_contacts[..10] == revealed[..]
        })
        .await;
    assert!(
        reopened.people_contacts[10..].iter().all(String::is_empty),
        "only the revealed rows: {:?}",
        reopened.people_contacts
    );
    ex.quit().await;
}

/// `+` puts the marked rows into a named list, created on the spot and kept in the store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plus_adds_the_marked_rows_to_a_named_list() {
    let sb = start(vec![]).await;
    let ex = open(&sb, RICH).await;
    ex.wait("ready", |s| s.ready).await;
    ex.ctrl('r');
    ex.wait("companies", |s| s.company_names.len() > 3).await;
    ex.ch(' ');
    ex.ch(' ');
    ex.ch('+');
    ex.wait("the prompt", |s| s.screen.contains("Add 2 to account list"))
        .await;
    ex.paste("targets");
    ex.key(KeyCode::Enter, KeyModifiers::NONE);
    let status = status_where(&ex, "added", |t| t.starts_with("List targets: 2 added")).await;
    assert!(status.contains("2 members"), "{status}");
    let (app, session, _dir) = ex.quit().await;
    let rows: Vec<String> = app.search(SearchSubject::Companies).rows()[..2]
        .iter()
        .map(|r| r.record.key())
        .collect();
    let (kind, members) = session
        .store()
        .lock()
        .unwrap()
        .list_members("targets")
        .unwrap()
        .expect("the list is stored");
    assert_eq!(kind, prospect::store::ListKind::Accounts);
    assert_eq!(members, rows);
}

/// Provenance is honest (issue 16): `E` on a company seen only in a search answers from the
/// store and says it was seen in a search, not enriched.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enrich_of_a_company_seen_in_a_search_says_where_it_came_from() {
    let sb = start(vec![]).await;
    let ex = open(&sb, RICH).await;
    ex.wait("ready", |s| s.ready).await;
    ex.ctrl('r');
    ex.wait("companies", |s| !s.company_names.is_empty()).await;
    ex.ch('E');
    let status = status_where(&ex, "answered from the store", |t| {
        t.contains("from the store, ")
    })
    .await;
    assert!(status.contains("seen in a search"), "{status}");
    assert!(!status.contains("enriched"), "{status}");
    ex.quit().await;
}

#[path = "tui_actions_session/lists.rs"]
mod lists;
