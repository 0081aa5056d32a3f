//! Lists, suppression and cut answers through the run loop: the status counts the suppressed, the lists popup sees imports, a contact list opens with its plan, a cut lookup answer buys only the rest.

use super::*;

/// Suppressed companies are left out of the explorer's search, and its status line says how
/// many, by category (issue 16).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_search_status_counts_the_suppressed() {
    let sb = start(vec![]).await;
    let c = client(&sb, RICH);
    let top = support::company_domains(&c, serde_json::json!({ "size": 3 })).await;
    let ex = open(&sb, RICH).await;
    ex.wait("ready", |s| s.ready).await;
    ex.session
        .store()
        .lock()
        .unwrap()
        .suppress(
            "competitors",
            "test",
            &[
                (prospect::store::SuppressKind::Domain, top[0].clone()),
                (prospect::store::SuppressKind::Domain, top[1].clone()),
            ],
        )
        .unwrap();
    ex.ctrl('r');
    let shown = ex
        .wait("the page", |s| {
            !s.company_names.is_empty() && s.status.is_some()
        })
        .await;
    assert!(
        shown
            .status
            .as_deref()
            .is_some_and(|t| t.contains("2 suppressed (competitors)")),
        "{:?}",
        shown.status
    );
    let (app, _session, _dir) = ex.quit().await;
    let domains: Vec<String> = app
        .search(SearchSubject::Companies)
        .rows()
        .iter()
        .map(|r| r.record.key())
        .collect();
    assert!(
        !domains.contains(&top[0]) && !domains.contains(&top[1]),
        "{domains:?}"
    );
}

/// Issue 38 (item 7): the lists popup left open reads its counts again, so a suppression
/// imported by another process (the CLI, its own connection to the store) meanwhile shows
/// without closing and reopening it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_open_lists_popup_shows_a_suppression_imported_meanwhile() {
    let sb = start(vec![]).await;
    let ex = open(&sb, RICH).await;
    ex.wait("ready", |s| s.ready).await;
    ex.ch('O');
    ex.wait("the lists popup", |s| {
        s.screen.contains("No suppression yet")
    })
    .await;
    let mut other = Store::open(&ex.dir().join("store.sqlite")).unwrap();
    other
        .suppress(
            "customers",
            "a CLI import",
            &[
                (prospect::store::SuppressKind::Domain, "sage.com".into()),
                (prospect::store::SuppressKind::Domain, "bmw.com".into()),
            ],
        )
        .unwrap();
    drop(other);
    let seen = ex
        .wait("the new counts", |s| s.screen.contains("2 domains"))
        .await;
    assert!(seen.screen.contains("customers"), "{}", seen.screen);
    assert!(
        !seen.screen.contains("No suppression yet"),
        "{}",
        seen.screen
    );
    ex.key(KeyCode::Esc, KeyModifiers::NONE);
    ex.wait("the popup closed", |s| {
        !s.screen.contains("Lists and suppression")
    })
    .await;
    ex.quit().await;
}

/// The lists view (issue 16): people revealed, then added to a contact list with `+`; after a
/// restart, `O` shows the list and the suppression categories, Enter opens the list in the
/// people tab at no cost with the revealed contacts joined and the spend engine's plan for
/// the rest (only the unrevealed members are to buy); the revealed filter `=` shows only the
/// revealed rows, then only the others, and `*` marks every shown row.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_contact_list_opens_with_its_contacts_and_the_plan_for_the_rest() {
    let sb = start(vec![]).await;
    let c = client(&sb, RICH);
    let ex = open(&sb, RICH).await;
    ex.wait("ready", |s| s.ready).await;
    ex.ch('t'); // people tab
    ex.ctrl('r');
    ex.wait("people", |s| s.people_rows > 4).await;
    ex.ch(' ');
    ex.ch(' ');
    ex.wait("two marked", |s| s.marked == 2).await;
    ex.ch('r');
    ex.wait("the emails in the table", |s| {
        s.deliveries >= 1 && s.people_contacts[..2].iter().all(|e| !e.is_empty())
    })
    .await;
    // Two more (the selection is on the third row): four marked, into a new list.
    ex.ch(' ');
    ex.ch(' ');
    ex.wait("four marked", |s| s.marked == 4).await;
    ex.ch('+');
    ex.wait("the prompt", |s| s.screen.contains("Add 4 to contact list"))
        .await;
    ex.paste("champions");
    ex.key(KeyCode::Enter, KeyModifiers::NONE);
    status_where(&ex, "added", |t| t.starts_with("List champions: 4 added")).await;
    let (_app, session, dir) = ex.quit().await;
    session
        .store()
        .lock()
        .unwrap()
        .suppress(
            "customers",
            "test",
            &[(prospect::store::SuppressKind::Domain, "acme.com".into())],
        )
        .unwrap();
    drop(session);

    let ex = open_in(&sb, RICH, dir).await;
    ex.wait("ready again", |s| s.ready).await;
    let before = email_credits_at_sandbox(&c).await;
    ex.ch('O');
    let popup = ex
        .wait("the lists popup", |s| {
            s.screen.contains("Lists and suppression") && s.screen.contains("champions")
        })
        .await;
    assert!(popup.screen.contains("contacts"), "{}", popup.screen);
    assert!(
        popup.screen.contains("customers") && popup.screen.contains("1 domains"),
        "{}",
        popup.screen
    );
    ex.key(KeyCode::Enter, KeyModifiers::NONE);
    let status = status_where(&ex, "the list opened", |t| {
        t.starts_with("List champions: 4 contacts")
    })
    .await;
    assert!(status.contains("nothing spent"), "{status}");
    assert!(
        status.contains("revealing emails: 2 to buy") && status.contains("2 owned"),
        "only the unrevealed members are to buy: {status}"
    );
    let opened = ex.wait("the members", |s| s.people_rows == 4).await;
    assert!(
        opened.people_contacts[..2].iter().all(|e| !e.is_empty())
            && opened.people_contacts[2..].iter().all(String::is_empty),
        "the revealed contacts are joined: {:?}",
        opened.people_contacts
    );
    let revealed = opened.people_contacts[..2]
        .iter()
        .filter(|e| e.contains('@'))
        .count();
    ex.ch('=');
    ex.wait("only the revealed", |s| s.people_rows == revealed)
        .await;
    ex.ch('=');
    let unrevealed = ex
        .wait("only the unrevealed", |s| {
            s.people_rows == 2 && s.people_contacts.iter().all(String::is_empty)
        })
        .await;
    assert!(
        unrevealed
            .screen
            .contains("2 of 4 shown, only not yet revealed"),
        "{}",
        unrevealed.screen
    );
    ex.ch('*');
    ex.wait("both marked", |s| s.marked == 2).await;
    // Ctrl-l on an opened list fills in its marked members.
    ex.ctrl('l');
    ex.wait("the lookup popup with the members", |s| {
        s.screen.contains("Look up people") && s.screen.contains("2 keys ·")
    })
    .await;
    ex.key(KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(
        email_credits_at_sandbox(&c).await,
        before,
        "opening a list spends nothing"
    );
    ex.quit().await;
}

/// A lookup whose paid answer is cut off (issue 34): the records before the cut are shown and
/// kept, no key is shown "not found" for a record that did not read, the status says so, and
/// the same lookup again buys only the rest and finds every one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lookup_answer_cut_off_shows_what_read_and_buys_only_the_rest() {
    let sb = start(vec![]).await;
    let c = client(&sb, RICH);
    let proxy = fault_proxy::FaultProxy::start_unmeasured(&sb.base_url, RICH).await;
    proxy.set_faults(false);
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("store.sqlite")).unwrap();
    let session = Session::new(
        Client::new(&proxy.base_url, RICH).unwrap(),
        store,
        "sandbox",
    );
    let backend: Arc<dyn Backend> = Arc::new(SessionBackend::new(session.clone()));
    let ex = Explorer::start(session, backend, &proxy.base_url, dir, (140, 36), observe);
    ex.wait("ready", |s| s.ready).await;
    let known = support::company_domains(&c, serde_json::json!({ "size": 40 })).await;
    assert_eq!(known.len(), 40);
    proxy.script([fault_proxy::Fault::Truncate]);
    ex.ctrl('l');
    ex.paste(&known.join("\n"));
    ex.key(KeyCode::Enter, KeyModifiers::NONE);
    let cut = status_where(&ex, "the lookup to end", |t| t.contains("did not read")).await;
    let seen = ex.latest().unwrap();
    let shown = seen.company_names.len();
    assert!(shown > 0 && shown < 40, "{shown}: {cut}");
    assert!(
        seen.company_names.iter().all(|n| n != "not found"),
        "{:?}",
        seen.company_names
    );
    ex.ctrl('l');
    ex.paste(&known.join("\n"));
    ex.key(KeyCode::Enter, KeyModifiers::NONE);
    let again = ex.wait("every row", |s| s.company_names.len() == 40).await;
    assert!(again.company_names.iter().all(|n| n != "not found"));
    let bought: usize = proxy
        .log()
        .iter()
        .filter(|e| e.endpoint() == Some(prospect::api::client::Endpoint::LookupCompanies))
        .map(|e| {
            let v: serde_json::Value = serde_json::from_slice(&e.body).unwrap();
            v["domains"].as_array().map_or(0, Vec::len)
        })
        .sum();
    assert_eq!(
        bought,
        40 + (40 - shown),
        "the rest, and only the rest, bought again"
    );
}
