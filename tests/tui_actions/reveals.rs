//! Reveals and enrichment over time: the gauge after a reveal, an overdue webhook, a reveal the store answers, enrichment pending with backoff.

use super::*;

/// Issue 35: one charge rule for a webhook delivery. A people-search reveal's delivery (its body
/// states no `creditsUsed`) with two verified emails and one guessed takes the same credits off
/// the explorer's gauge as the store's ledger records for it: 2 email credits.
#[test]
fn the_gauge_after_a_people_search_reveal_equals_the_ledgers_charge() {
    let mut app = with_people(1000.0, 3);
    let body = json!({"people": [
        {"id": "p0", "name": "Person 0", "email": {"address": "p0@acme.com", "status": "verified"}},
        {"id": "p1", "name": "Person 1", "email": {"address": "p1@acme.com", "status": "verified"}},
        {"id": "p2", "name": "Person 2", "email": {"address": "p2@acme.com", "status": "guessed"}}
    ], "detail": "OK", "total": 3});
    let bytes = serde_json::to_vec(&body).unwrap();
    let before = app.gauge.left(CreditPool::Email).unwrap();
    app.update(Msg::Webhook(Box::new(Delivery {
        event: WebhookEvent::PeopleSearchEmails,
        body: WebhookEvent::PeopleSearchEmails.parse_body(&bytes).unwrap(),
        new: true,
        received_at: t0(),
    })));
    let gauge_charge = before - app.gauge.left(CreditPool::Email).unwrap();

    let dir = tempfile::tempdir().unwrap();
    let mut store = prospect::store::Store::open(&dir.path().join("s.sqlite")).unwrap();
    store
        .record_delivery("people_search_emails", &bytes, t0())
        .unwrap();
    let ledger = store.spend_log(10, None).unwrap();
    assert_eq!(ledger.len(), 1, "{ledger:?}");
    assert_eq!(
        ledger[0].credits.email, 2.0,
        "the ledger charges the verified two"
    );
    assert_eq!(
        gauge_charge, ledger[0].credits.email,
        "the gauge says what the ledger records"
    );
    assert_eq!(app.gauge.spent_since_refresh(), ledger[0].credits);
}

/// A reveal whose webhook never comes does not stay "pending" for good: after
/// `REVEAL_PATIENCE` the job is marked failed, saying how many deliveries are missing, and
/// nothing is sent again (it may have been charged). A delivery that comes later still fills
/// the rows.
#[test]
fn a_reveal_whose_webhook_never_comes_is_reported_overdue() {
    let mut app = with_people(10.0, 2);
    let cmds = app.update(ch('r'));
    let (_, Call::Prepare { ask: action, .. }) = call_in(&cmds, Slot::Prepare) else {
        panic!("a store check first")
    };
    let one = Cost::in_pool(CreditPool::Email, 1.0);
    let cmds = answer(
        &mut app,
        &cmds,
        Slot::Prepare,
        Outcome::Prepared(prepared(action, one, 0, 1)),
    );
    let out = answer(&mut app, &cmds, Slot::Job(1), reveal_sent(&["p0"]));
    assert_eq!(app.activity.jobs[0].state, JobState::Pending);
    let generation = out
        .iter()
        .find_map(|c| match c {
            Command::Timer {
                id: TimerId::RevealDeadline(1),
                after,
                generation,
            } if *after == REVEAL_PATIENCE => Some(*generation),
            _ => None,
        })
        .expect("a deadline for the webhook");
    let after = app.update(Msg::Timer(TimerId::RevealDeadline(1), generation));
    assert!(
        !after.iter().any(|c| matches!(c, Command::Call { .. })),
        "nothing is sent again: {after:?}"
    );
    let JobState::Failed(why) = &app.activity.jobs[0].state else {
        panic!("overdue: {:?}", app.activity.jobs[0].state)
    };
    assert_eq!(
        why,
        "no webhook for 1 of 1 after 15 min; a later delivery is still stored"
    );
    assert!(
        app.status
            .as_ref()
            .unwrap()
            .text
            .starts_with("Reveal #1: no webhook")
    );
    app.update(emails_delivery(&["p0"], true));
    assert_eq!(
        contact_cells(&app)[0],
        "p0@acme.com",
        "a late delivery still fills the row"
    );
}

/// What the store holds is answered by the run at 0 credits, without a question, and shown
/// with its age; nothing is bought. The refresh key buys it again (after a new plan that does
/// not read the store).
#[test]
fn a_reveal_the_store_answers_spends_nothing_and_refresh_buys_again() {
    let mut app = with_people(10.0, 2);
    app.opts.confirm_above = 0.0;
    let cmds = app.update(ch('r'));
    let (_, Call::Prepare { ask: action, .. }) = call_in(&cmds, Slot::Prepare) else {
        panic!()
    };
    let at = t0() - chrono::Duration::days(3);
    let mut p = prepared(action, Cost::ZERO, 1, 0);
    p.stored_at = Some(at);
    let cmds = answer(&mut app, &cmds, Slot::Prepare, Outcome::Prepared(p));
    assert!(app.popups.is_empty(), "nothing to confirm at 0 credits");
    let (_, run) = call_in(&cmds, Slot::Job(1));
    assert!(
        matches!(run, Call::Run { .. }),
        "the run answers it: {run:?}"
    );
    let contact = Contact {
        person_id: "p0".into(),
        kind: ContactKind::Email,
        email: Some("p0@acme.com".into()),
        phones: vec![],
        status: "verified".into(),
        revealed_at: at,
    };
    let out = answer(
        &mut app,
        &cmds,
        Slot::Job(1),
        Outcome::Ran(Ran {
            charge: Charge::default(),
            stored_at: Some(at),
            provenance: None,
            store_error: None,
            unread: None,
            answer: RanAnswer::Reveal {
                kind: ContactKind::Email,
                suppressed: None,
                from_store: HashMap::from([("p0".to_string(), contact)]),
                sent: vec![],
            },
        }),
    );
    assert!(
        !out.iter().any(|c| matches!(c, Command::Call { .. })),
        "nothing more sent: {out:?}"
    );
    assert_eq!(
        app.status.clone().unwrap().text,
        "1 email from the store, revealed 3 days ago · 0 credits · F to refresh"
    );
    assert_eq!(contact_cells(&app)[0], "p0@acme.com");
    assert_eq!(app.activity.jobs[0].state, JobState::FromStore);
    let cmds = app.update(ch('F'));
    let (_, Call::Prepare { fresh, .. }) = call_in(&cmds, Slot::Prepare) else {
        panic!()
    };
    assert_eq!(fresh, Freshness::Refresh);
}

/// `E` on a company that answers 201 makes a pending job that tries again by itself with
/// backoff; when the record arrives it replaces the row in place.
#[test]
fn enrich_pending_retries_with_backoff_then_updates_in_place() {
    let mut app = started(10.0);
    let cmds = app.update(ctrl('r'));
    let page = records::page(SearchResponse::CompaniesV3(typed(
        json!({"companies": (0..3).map(company).collect::<Vec<_>>(), "total": 3}),
    )));
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(page),
    );
    app.update(ch('j'));
    let cmds = app.update(ch('E'));
    let (_, Call::Prepare { ask: action, .. }) = call_in(&cmds, Slot::Prepare) else {
        panic!()
    };
    assert_eq!(
        action,
        Ask::of(Action::EnrichCompany {
            domain: "acme1.com".into()
        })
    );
    let cmds = answer(
        &mut app,
        &cmds,
        Slot::Prepare,
        Outcome::Prepared(prepared(
            action,
            Cost::in_pool(CreditPool::Standard, 1.0),
            0,
            1,
        )),
    );
    let gathering = |app: &mut App, cmds: &[Command]| {
        answer(
            app,
            cmds,
            Slot::Job(1),
            Outcome::Ran(Ran {
                provenance: None,
                charge: Charge {
                    cost: Cost::ZERO,
                    requests: 1,
                },
                stored_at: None,
                store_error: None,
                unread: None,
                answer: RanAnswer::Company {
                    domain: "acme1.com".into(),
                    company: None,
                    detail: "Data gathering process has started. Please try again later.".into(),
                },
            }),
        )
    };
    let out = gathering(&mut app, &cmds);
    assert_eq!(app.activity.jobs[0].state, JobState::Pending);
    let timer = out
        .iter()
        .find_map(|c| match c {
            Command::Timer {
                id: TimerId::Retry(1),
                after,
                generation,
            } => Some((*after, *generation)),
            _ => None,
        })
        .expect("a retry timer");
    assert_eq!(timer.0, backoff(1));
    let retry = app.update(Msg::Timer(TimerId::Retry(1), timer.1));
    let (_, again) = call_in(&retry, Slot::Job(1));
    assert!(matches!(again, Call::Run { .. }));
    let out = gathering(&mut app, &retry);
    assert!(out.iter().any(|c| matches!(
        c,
        Command::Timer {
            id: TimerId::Retry(1),
            after,
            ..
        } if *after == backoff(2)
    )));
    let retry = app.update(Msg::Timer(TimerId::Retry(1), timer.1 + 1));
    let mut found: prospect::api::types::Company =
        typed(json!({"name": "Acme One Enriched", "domain": "acme1.com"}));
    found.year_founded = Some(1999);
    answer(
        &mut app,
        &retry,
        Slot::Job(1),
        Outcome::Ran(Ran {
            provenance: None,
            charge: Charge {
                cost: Cost::in_pool(CreditPool::Standard, 1.0),
                requests: 1,
            },
            stored_at: None,
            store_error: None,
            unread: None,
            answer: RanAnswer::Company {
                domain: "acme1.com".into(),
                company: Some(Box::new(found)),
                detail: String::new(),
            },
        }),
    );
    assert_eq!(app.activity.jobs[0].state, JobState::Arrived);
    assert_eq!(app.activity.jobs[0].attempts, 3);
    let rows = app.search(SearchSubject::Companies).rows();
    assert_eq!(rows[1].cells[0], "Acme One Enriched");
    assert_eq!(rows[1].cells[5], "1999");
    assert_eq!(rows[0].cells[0], "Acme 0", "the other rows are untouched");
    assert_eq!(backoff(1).as_secs(), 1);
    assert_eq!(backoff(4).as_secs(), 8);
    assert_eq!(backoff(20).as_secs(), 60);
}
