//! The explorer's actions (issue 8) driven through the state owner with messages only: marks,
//! reveal (cost shown, store first, confirm per pool, webhook fills the rows), enrich (a 201
//! becomes a pending job retried with backoff), lookup, warmup, refresh; and snapshots of the
//! new panes on ratatui's TestBackend (marked rows, the filled email column, the confirm line,
//! the activity pane, the lookup popup).
#[path = "support/app.rs"]
mod app_support;
use app_support::{
    answer, call_in, ch, ctrl, key, opts_above, render_at, screen, started_with, typed,
};
use std::collections::HashMap;

use chrono::{DateTime, TimeZone, Utc};
use crossterm::event::KeyCode;
use prospect::api::cost::{Cost, CreditPool};
use prospect::api::types::webhooks::{RevealEmailsWebhook, WebhookBody, WebhookEvent};
use prospect::common::ContactKind;
use prospect::core::engine::KeySource;
use prospect::core::request::SearchResponse;
use prospect::core::session::Freshness;
use prospect::core::spend::Estimate;
use prospect::core::webhooks::Delivery;
use prospect::store::Contact;
use prospect::tui::app::{App, Popup, REVEAL_PATIENCE, backoff};
use prospect::tui::components::activity::JobState;
use prospect::tui::keymap::{KeyAction, Keymap};
use prospect::tui::msg::{
    Action, Ask, Call, Charge, Command, Msg, Outcome, Prepared, Ran, RanAnswer, Slot, TimerId,
};
use prospect::tui::records;
use prospect::tui::schema::SearchSubject;
use serde_json::{Value, json};

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 23, 12, 0, 0).unwrap()
}

fn started(confirm_above: f64) -> App {
    let df = json!({"seniorities": ["Head"], "departments": ["Engineering"]});
    let balance = json!({"credits": {"oneTime": 950, "recurrent": 0}, "emailCredits": {"oneTime": 100, "recurrent": 0},
        "phoneCredits": {"oneTime": 10, "recurrent": 0}, "dailyLimitRateLeft": 987, "dailyLimitRateSecondsToReset": 3725});
    let mut app = started_with(opts_above(confirm_above), df, balance);
    app.frozen_now = Some(t0());
    app
}

fn person(i: usize) -> Value {
    json!({"id": format!("p{i}"), "domain": "acme.com", "name": format!("Person {i}"),
           "jobTitle": "Head of Sales", "country": "de", "seniorities": ["Head"],
           "company": {"name": "Acme"}, "relevance": "A"})
}

fn company(i: usize) -> Value {
    json!({"company": {"name": format!("Acme {i}"), "domain": format!("acme{i}.com"), "primaryCountry": "de",
           "companySize": "51-200", "industries": ["Software"], "yearFounded": 2000, "employeeCountService": 120}, "relevance": "A"})
}

/// The app on the people tab with `n` people (no contacts revealed).
fn with_people(confirm_above: f64, n: usize) -> App {
    let mut app = started(confirm_above);
    app.update(ch('t'));
    let cmds = app.update(ctrl('r'));
    let page = records::page(SearchResponse::PeopleV3(typed(
        json!({"people": (0..n).map(person).collect::<Vec<_>>(), "total": n}),
    )));
    answer(
        &mut app,
        &cmds,
        Slot::Search(SearchSubject::People),
        Outcome::Page(page),
    );
    app.status = None;
    app
}

fn prepared(ask: Ask, cost: Cost, from_store: usize, to_send: usize) -> Box<Prepared> {
    Box::new(Prepared {
        ask,
        fresh: Freshness::Stored,
        estimate: Estimate {
            cost,
            from_store,
            to_send,
        },
        stored_at: None,
        plan: None,
    })
}

/// The outcome of a reveal job that sent `ids` (one request, nothing charged yet: emails are
/// charged when their webhook arrives) and found none of them in the store.
fn reveal_sent(ids: &[&str]) -> Outcome {
    Outcome::Ran(Ran {
        provenance: None,
        charge: Charge {
            cost: Cost::ZERO,
            requests: 1,
        },
        stored_at: None,
        store_error: None,
        unread: None,
        answer: RanAnswer::Reveal {
            kind: ContactKind::Email,
            suppressed: None,
            from_store: HashMap::new(),
            sent: ids.iter().map(|i| i.to_string()).collect(),
        },
    })
}

fn emails_delivery(ids: &[&str], new: bool) -> Msg {
    let body: RevealEmailsWebhook = typed(json!({
        "emails": ids.iter().map(|i| json!({"personId": i, "address": format!("{i}@acme.com"), "status": "verified"})).collect::<Vec<_>>(),
        "creditsUsed": ids.len()
    }));
    Msg::Webhook(Box::new(Delivery {
        event: WebhookEvent::RevealEmails,
        body: WebhookBody::RevealEmails(body),
        new,
        received_at: t0() + chrono::Duration::seconds(3),
    }))
}

fn contact_cells(app: &App) -> Vec<String> {
    app.search(SearchSubject::People)
        .rows()
        .iter()
        .map(|r| r.cells[5].clone())
        .collect()
}

/// Marks two people and reveals their emails: the store check comes first (free), the job is
/// sent with the estimate on the status line, the webhook fills exactly those rows, the
/// details and the gauge's email pool; a retried delivery changes nothing.
#[test]
fn reveal_marked_people_then_the_webhook_fills_the_rows() {
    let mut app = with_people(10.0, 4);
    app.update(ch(' '));
    app.update(ch(' '));
    assert_eq!(app.search(SearchSubject::People).marked.len(), 2);
    insta::assert_snapshot!("marked_rows", render_at(&app, 120, 30).backend());

    let cmds = app.update(ch('r'));
    let (_, call) = call_in(&cmds, Slot::Prepare);
    let Call::Prepare { ask: action, fresh } = call else {
        panic!("a store check first: {call:?}")
    };
    assert_eq!(fresh, Freshness::Stored);
    assert_eq!(
        action,
        Ask::reveal(ContactKind::Email, vec!["p0".into(), "p1".into()])
    );
    let two = Cost::in_pool(CreditPool::Email, 2.0);
    let cmds = answer(
        &mut app,
        &cmds,
        Slot::Prepare,
        Outcome::Prepared(prepared(action.clone(), two, 0, 2)),
    );
    let (_, run) = call_in(&cmds, Slot::Job(1));
    assert!(matches!(run, Call::Run { .. }), "{run:?}");
    assert!(run.is_paid_job());
    let status = app.status.clone().unwrap().text;
    assert_eq!(status, "Reveal emails of 2 people · ≤ 2 email credits…");
    answer(&mut app, &cmds, Slot::Job(1), reveal_sent(&["p0", "p1"]));
    assert_eq!(app.activity.jobs[0].state, JobState::Pending);
    let email_before = app.gauge.left(CreditPool::Email).unwrap();
    app.update(emails_delivery(&["p0", "p1"], true));
    assert_eq!(
        contact_cells(&app),
        ["p0@acme.com", "p1@acme.com", "", ""],
        "exactly the marked rows are filled"
    );
    assert_eq!(app.activity.jobs[0].state, JobState::Arrived);
    assert_eq!(app.activity.jobs[0].charged, two);
    assert_eq!(
        app.gauge.left(CreditPool::Email).unwrap(),
        email_before - 2.0
    );
    app.status = None;
    insta::assert_snapshot!("filled_email_column", render_at(&app, 120, 30).backend());
    // A retried delivery: stored once, charged once.
    app.update(emails_delivery(&["p0", "p1"], false));
    assert_eq!(
        app.gauge.left(CreditPool::Email).unwrap(),
        email_before - 2.0
    );
    assert!(
        app.status
            .unwrap()
            .text
            .contains("a retry: nothing changed")
    );
}

/// The command palette (issue 19): `:` lists every action; `rev em` narrows it to "reveal
/// emails" first, and Enter runs it exactly as `r` does (the free store check of a reveal of
/// the selected person). On the companies tab the same entry says it needs the people tab.
#[test]
fn the_palette_finds_reveal_emails_from_rev_em_and_runs_it() {
    let mut app = with_people(10.0, 4);
    app.update(ch(':'));
    assert!(matches!(app.popups.last(), Some(Popup::Palette(_))));
    for c in "rev em".chars() {
        app.update(ch(c));
    }
    let Some(Popup::Palette(pp)) = app.popups.last() else {
        panic!("the palette is open")
    };
    let p = &pp.picker;
    let first = p.highlighted().expect("something matches").clone();
    assert_eq!(first.value, Value::from("reveal_emails"));
    assert!(
        first.label.contains("reveal emails")
            && first.label.contains(" r ")
            && first.label.ends_with(" reveal_emails"),
        "{}",
        first.label
    );
    insta::assert_snapshot!("palette", render_at(&app, 120, 30).backend());
    let cmds = app.update(key(KeyCode::Enter));
    assert!(app.popups.is_empty(), "the palette closes");
    let (_, call) = call_in(&cmds, Slot::Prepare);
    let Call::Prepare { ask: action, .. } = call else {
        panic!("the reveal's store check: {call:?}")
    };
    assert_eq!(action, Ask::reveal(ContactKind::Email, vec!["p0".into()]));
    // Ctrl-p opens it too; on the companies tab a reveal says where it can run.
    app.update(ch('t'));
    app.update(ctrl('p'));
    let Some(Popup::Palette(pp)) = app.popups.last() else {
        panic!("Ctrl-p opens the palette")
    };
    let p = &pp.picker;
    let reveal = p
        .options
        .iter()
        .find(|o| o.value == "reveal_emails")
        .unwrap();
    assert!(
        reveal.label.contains("(on the people tab)"),
        "{}",
        reveal.label
    );
    assert!(
        p.options.iter().all(|o| o.value != "palette"),
        "every action but the palette itself"
    );
    assert_eq!(p.options.len(), KeyAction::ALL.len() - 1);
}

/// Above `confirm_above` in one pool the reveal waits for a yes; `n` cancels and nothing is
/// sent.
#[test]
fn a_reveal_above_the_threshold_asks_first() {
    let mut app = with_people(10.0, 3);
    app.opts.confirm_above = 1.0;
    for _ in 0..3 {
        app.update(ch(' '));
    }
    let cmds = app.update(ch('r'));
    let (_, Call::Prepare { ask: action, .. }) = call_in(&cmds, Slot::Prepare) else {
        panic!()
    };
    let out = answer(
        &mut app,
        &cmds,
        Slot::Prepare,
        Outcome::Prepared(prepared(
            action,
            Cost::in_pool(CreditPool::Email, 3.0),
            0,
            3,
        )),
    );
    assert!(out.is_empty(), "nothing sent before the yes: {out:?}");
    assert!(matches!(app.popups.last(), Some(Popup::ConfirmAction(_))));
    assert_eq!(
        app.status.clone().unwrap().text,
        "Reveal emails of 3 people may cost ≤ 3 email credits: confirm first"
    );
    insta::assert_snapshot!("reveal_confirm", render_at(&app, 120, 30).backend());
    let out = app.update(ch('n'));
    assert!(out.iter().all(|c| !matches!(c, Command::Call { .. })));
    assert!(app.popups.is_empty());
    assert_eq!(app.activity.jobs.len(), 0);
}

/// Without a webhook receiver the reveal keys say why and spend nothing.
#[test]
fn reveals_disabled_say_why() {
    let mut app = with_people(10.0, 1);
    app.reveals_disabled = Some("reveals are disabled: set webhook_public_url".into());
    let cmds = app.update(ch('R'));
    assert!(cmds.iter().all(|c| !matches!(c, Command::Call { .. })));
    let Some(Popup::Error(text)) = app.popups.last() else {
        panic!("an error popup")
    };
    assert_eq!(
        text.0,
        "Reveals are disabled: set webhook_public_url (nothing was spent)"
    );
}

/// The lookup popup takes a pasted list (line breaks kept), Enter checks the store and the
/// cost first; the answer opens in the results with "not found" rows.
#[test]
fn lookup_a_pasted_list() {
    let mut app = started(10.0);
    app.update(ctrl('l'));
    app.update(Msg::Paste(
        "acme0.com\nacme1.com, acme2.com\nacme3.com ghost-nowhere.com\n".into(),
    ));
    insta::assert_snapshot!("lookup_popup", render_at(&app, 120, 30).backend());
    let cmds = app.update(key(KeyCode::Enter));
    let (_, Call::Prepare { ask: action, .. }) = call_in(&cmds, Slot::Prepare) else {
        panic!()
    };
    let Action::LookupCompanies {
        keys: KeySource::List(keys),
    } = &action.action
    else {
        panic!("{action:?}")
    };
    assert_eq!(keys.len(), 5);
    let cmds = answer(
        &mut app,
        &cmds,
        Slot::Prepare,
        Outcome::Prepared(prepared(
            action.clone(),
            Cost::in_pool(CreditPool::Standard, 0.6),
            2,
            3,
        )),
    );
    assert_eq!(
        app.status.clone().unwrap().text,
        "Lookup of 5 domains · ≤ 0.6 credits (2 from the store at 0)…"
    );
    let mut rows: Vec<_> = (0..4)
        .map(|i| {
            records::page(SearchResponse::CompaniesV3(typed(
                json!({"companies": [company(i)]}),
            )))
            .rows
            .remove(0)
        })
        .collect();
    rows.push(prospect::tui::actions::not_found_company(
        "ghost-nowhere.com",
    ));
    answer(
        &mut app,
        &cmds,
        Slot::Job(1),
        Outcome::Ran(Ran {
            provenance: None,
            charge: Charge {
                cost: Cost::in_pool(CreditPool::Standard, 0.6),
                requests: 1,
            },
            stored_at: Some(t0() - chrono::Duration::hours(2)),
            store_error: None,
            unread: None,
            answer: RanAnswer::Lookup {
                suppressed: None,
                subject: SearchSubject::Companies,
                rows,
                not_found: 1,
                from_store: 2,
                sent: 3,
            },
        }),
    );
    assert_eq!(app.tab(), SearchSubject::Companies);
    let names: Vec<String> = app
        .search(SearchSubject::Companies)
        .rows()
        .iter()
        .map(|r| r.cells[0].clone())
        .collect();
    assert_eq!(names[4], "not found");
    assert_eq!(
        app.status.clone().unwrap().text,
        "Lookup: 4 found, 1 not found · 2 from the store (2 h ago) · 0.6 credits"
    );
    // An empty popup says what it wants.
    app.update(ctrl('l'));
    app.update(key(KeyCode::Enter));
    assert!(matches!(app.popups.last(), Some(Popup::Lookup(_))));
    assert!(
        app.status
            .clone()
            .unwrap()
            .text
            .starts_with("Nothing to look up")
    );
}

/// `W` warms up the marked / selected domains: free, listed as a job.
#[test]
fn warmup_the_selected_domain() {
    let mut app = with_people(10.0, 2);
    let cmds = app.update(ch('W'));
    let (_, call) = call_in(&cmds, Slot::Job(1));
    assert_eq!(call, Call::Warmup(vec!["acme.com".into()]));
    assert!(!call.is_paid_job());
    answer(
        &mut app,
        &cmds,
        Slot::Job(1),
        Outcome::Warmed(typed(json!({"successfulDomains": ["acme.com"]}))),
    );
    assert_eq!(app.activity.jobs[0].state, JobState::Arrived);
    assert_eq!(
        app.status.unwrap().text,
        "Warmup: 1 known, 0 being crawled, 0 ignored · free"
    );
}

/// The activity pane lists jobs (pending, arrived, failed, from the store) with credits per
/// pool and the time since they were sent, then the deliveries.
#[test]
fn snapshot_activity_pane() {
    let mut app = with_people(10.0, 3);
    app.update(ch(' '));
    app.update(ch(' '));
    let cmds = app.update(ch('r'));
    let (_, Call::Prepare { ask: action, .. }) = call_in(&cmds, Slot::Prepare) else {
        panic!()
    };
    let cmds = answer(
        &mut app,
        &cmds,
        Slot::Prepare,
        Outcome::Prepared(prepared(
            action,
            Cost::in_pool(CreditPool::Email, 2.0),
            0,
            2,
        )),
    );
    answer(
        &mut app,
        &cmds,
        Slot::Job(1),
        Outcome::Ran(Ran {
            charge: Charge::default(),
            stored_at: None,
            provenance: None,
            store_error: None,
            unread: None,
            answer: RanAnswer::Reveal {
                kind: ContactKind::Email,
                suppressed: None,
                from_store: HashMap::new(),
                sent: vec!["p0".into(), "p1".into()],
            },
        }),
    );
    app.update(emails_delivery(&["p0"], true));
    let cmds = app.update(ch('W'));
    app.update(Msg::Done {
        slot: Slot::Job(2),
        generation: call_in(&cmds, Slot::Job(2)).0,
        result: Err(prospect::tui::msg::ApiFailure::other(
            "the service is unreachable",
        )),
    });
    app.frozen_now = Some(t0() + chrono::Duration::seconds(75));
    let cmds = app.update(ch('a'));
    assert!(
        cmds.iter().any(|c| matches!(
            c,
            Command::Timer {
                id: TimerId::Activity,
                ..
            }
        )),
        "the pane ticks while open"
    );
    assert!(matches!(app.popups.last(), Some(Popup::Activity)));
    // Opening it reads the store's last purchases, with who bought each (issue 17).
    assert!(matches!(call_in(&cmds, Slot::Purchases).1, Call::Purchases));
    let spend =
        |kind: &str, what: &str, secs: i64, credits: Cost, buyer: &str| prospect::store::Spend {
            at: t0() + chrono::Duration::seconds(secs),
            kind: kind.into(),
            id: 1,
            what: what.into(),
            credits,
            job: None,
            buyer: buyer.into(),
        };
    answer(
        &mut app,
        &cmds,
        Slot::Purchases,
        Outcome::Purchases(vec![
            spend(
                "delivery",
                "reveal_emails",
                60,
                Cost::in_pool(CreditPool::Email, 1.0),
                "",
            ),
            spend(
                "purchase",
                "/v3/search/companies",
                30,
                Cost::in_pool(CreditPool::Standard, 5.0),
                "ann",
            ),
        ]),
    );
    let t = render_at(&app, 130, 30);
    let s = screen(&t);
    assert!(s.contains("pending 1/2"), "{s}");
    assert!(s.contains("ann"), "{s}");
    insta::assert_snapshot!("activity_pane", t.backend());
    // At 80 columns the age of every job, delivery and purchase stays visible.
    let narrow = screen(&render_at(&app, 80, 24));
    assert_eq!(narrow.matches(" ago").count(), 5, "{narrow}");
    app.update(ch('a'));
    assert!(app.popups.is_empty());
}

/// The help overlay lists every action of issue 8, from the keymap.
#[test]
fn help_lists_every_new_action() {
    let k = Keymap::default();
    let help = k.help();
    for (a, keys) in [
        (KeyAction::Mark, "Space"),
        (KeyAction::RevealEmails, "r"),
        (KeyAction::RevealPhones, "R"),
        (KeyAction::Enrich, "E"),
        (KeyAction::Warmup, "W"),
        (KeyAction::Activity, "a"),
        (KeyAction::Lookup, "Ctrl-l"),
        (KeyAction::Refresh, "F"),
    ] {
        assert!(
            help.iter().any(|(k, d)| k == keys && *d == a.help()),
            "{a:?} missing from help: {help:?}"
        );
    }
    let mut app = started(10.0);
    app.update(ch('?'));
    let s = screen(&render_at(&app, 120, 40));
    for d in [
        "reveal emails",
        "reveal phones",
        "enrich",
        "warm up",
        "jobs, webhook deliveries, purchases",
        "look up",
    ] {
        assert!(s.contains(d), "{d} not on the help screen:\n{s}");
    }
}

/// Jobs an earlier run left unfinished (a kill, a crash) are read at start and listed in the
/// activity pane, with how to resume them; the status line says how many.
#[test]
fn unfinished_jobs_of_an_earlier_run_are_listed_at_start() {
    let mut app = App::new(app_support::opts());
    let cmds = app.start();
    let (_, call) = call_in(&cmds, Slot::OpenJobs);
    assert_eq!(call, Call::OpenJobs);
    answer(
        &mut app,
        &cmds,
        Slot::OpenJobs,
        Outcome::OpenJobs(vec![prospect::tui::msg::OpenJob {
            id: 7,
            what: "lookup of 5000 domains".into(),
            state: prospect::core::owned::JobStatus::Interrupted,
            detail: "its process ended before it did".into(),
            bought: 2000,
            updated_at: t0(),
        }]),
    );
    let job = app.activity.jobs.last().expect("listed");
    assert_eq!(job.label, "job 7: lookup of 5000 domains");
    match &job.state {
        JobState::Failed(why) => {
            assert!(why.contains("prospect resume 7"), "{why}");
            assert!(why.contains("2000 kept"), "{why}");
        }
        other => panic!("expected failed, got {other:?}"),
    }
    let status = app
        .status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default();
    assert!(status.contains("1 unfinished paid action"), "{status}");
}

/// Issue 38, item 7: a reveal whose people are all suppressed says so (it said "0 phones from
/// the store, revealed earlier").
#[test]
fn a_reveal_of_suppressed_people_says_they_were_refused() {
    let mut app = with_people(10.0, 2);
    let cmds = app.update(ch('R'));
    let (_, Call::Prepare { ask: action, .. }) = call_in(&cmds, Slot::Prepare) else {
        panic!()
    };
    let cmds = answer(
        &mut app,
        &cmds,
        Slot::Prepare,
        Outcome::Prepared(prepared(action, Cost::ZERO, 0, 0)),
    );
    answer(
        &mut app,
        &cmds,
        Slot::Job(1),
        Outcome::Ran(Ran {
            charge: Charge::default(),
            stored_at: None,
            provenance: None,
            store_error: None,
            unread: None,
            answer: RanAnswer::Reveal {
                kind: ContactKind::Phone,
                suppressed: Some("1 suppressed (customers 1)".into()),
                from_store: HashMap::new(),
                sent: vec![],
            },
        }),
    );
    assert_eq!(
        app.status.clone().unwrap().text,
        "Nothing to reveal · refused: 1 suppressed (customers 1) · 0 credits"
    );
}

#[path = "tui_actions/reveals.rs"]
mod reveals;
