//! Rate limits and the gauge: a per-minute 429 counts down and retries, the daily one is not retried, every charge reaches the gauge.

use super::*;

fn rate_limit_tick(cmds: &[Command]) -> Option<u64> {
    cmds.iter().find_map(|c| match c {
        Command::Timer {
            id: TimerId::RateLimit,
            after,
            generation,
        } => {
            assert_eq!(
                *after,
                std::time::Duration::from_secs(1),
                "one tick a second"
            );
            Some(*generation)
        }
        _ => None,
    })
}

/// A per-minute 429 keeps its typed error, counts down on the status line each second and
/// sends the same page again when `Retry-After` has passed; nothing is charged for it.
#[test]
fn a_per_minute_429_counts_down_and_retries_the_same_call() {
    use prospect::api::error::ApiError;
    let mut app = started();
    let cmds = app.update(ctrl('r'));
    let first = search_generation(&cmds);
    let failure: prospect::tui::msg::ApiFailure = ApiError::RateLimited {
        retry_after: Some(std::time::Duration::from_secs(3)),
    }
    .into();
    assert_eq!(failure.message, "Rate limited; retry in 3s");
    assert!(matches!(failure.error, Some(ApiError::RateLimited { .. })));
    let cmds = app.update(Msg::Done {
        slot: Slot::Search(SearchSubject::Companies),
        generation: first,
        result: Err(failure),
    });
    assert!(
        app.popups.is_empty(),
        "no error popup for a 429 that is retried"
    );
    assert!(app.results.companies.loading && app.results.companies.error.is_none());
    assert_eq!(
        app.status.as_ref().map(|s| s.text.as_str()),
        Some("Rate limited; retrying in 3 s")
    );
    let mut tick = rate_limit_tick(&cmds).expect("a countdown timer");
    let cmds = app.update(Msg::Timer(TimerId::RateLimit, tick));
    assert_eq!(
        app.status.as_ref().map(|s| s.text.as_str()),
        Some("Rate limited; retrying in 2 s")
    );
    assert!(!cmds.iter().any(|c| matches!(c, Command::Call { .. })));
    tick = rate_limit_tick(&cmds).unwrap();
    let cmds = app.update(Msg::Timer(TimerId::RateLimit, tick));
    assert_eq!(
        app.status.as_ref().map(|s| s.text.as_str()),
        Some("Rate limited; retrying in 1 s")
    );
    tick = rate_limit_tick(&cmds).unwrap();
    let cmds = app.update(Msg::Timer(TimerId::RateLimit, tick));
    match &cmds[..] {
        [
            Command::Call {
                slot: Slot::Search(SearchSubject::Companies),
                generation,
                call: Call::Search { page: 0, .. },
            },
        ] => assert!(*generation > first),
        other => panic!("expected the retry, got {other:?}"),
    }
    assert!(app.rate_waits.is_empty());
}

/// The daily allowance's 429 is its own message and is not retried; a superseded 429 is not
/// retried either.
#[test]
fn the_daily_429_is_not_retried_and_a_newer_search_cancels_a_retry() {
    use prospect::api::error::ApiError;
    let mut app = started();
    let cmds = app.update(ctrl('r'));
    let cmds = app.update(Msg::Done {
        slot: Slot::Search(SearchSubject::Companies),
        generation: search_generation(&cmds),
        result: Err(ApiError::RateLimited {
            retry_after: Some(std::time::Duration::from_secs(5 * 3600 + 12 * 60)),
        }
        .into()),
    });
    assert!(rate_limit_tick(&cmds).is_none() && app.rate_waits.is_empty());
    assert_eq!(
        app.results.companies.error.as_deref(),
        Some("Daily request allowance used up; resets in 5h 12m")
    );
    assert!(
        matches!(app.popups.last(), Some(Popup::Error(e)) if e.0.contains("Daily request allowance"))
    );
    // Issue 38, item 11: the gauge no longer says what the last balance said (987 left).
    assert_eq!(app.gauge.daily_left(), Some(0));
    let reset = app
        .gauge
        .seconds_to_reset(std::time::Instant::now())
        .unwrap();
    assert!(
        (5 * 3600 + 11 * 60..=5 * 3600 + 12 * 60).contains(&reset),
        "{reset}"
    );
    app.update(key(KeyCode::Esc));

    let cmds = app.update(ctrl('r'));
    let cmds = app.update(Msg::Done {
        slot: Slot::Search(SearchSubject::Companies),
        generation: search_generation(&cmds),
        result: Err(ApiError::RateLimited {
            retry_after: Some(std::time::Duration::from_secs(1)),
        }
        .into()),
    });
    let tick = rate_limit_tick(&cmds).unwrap();
    // The user runs another search meanwhile: the old page is not asked again.
    let newer = app.update(ctrl('r'));
    search_generation(&newer);
    let cmds = app.update(Msg::Timer(TimerId::RateLimit, tick));
    assert!(
        !cmds.iter().any(|c| matches!(c, Command::Call { .. })),
        "{cmds:?}"
    );
}

/// Every answer's charge reaches the gauge, a superseded one too, and the balance is asked
/// only at start and then at most once a minute (not after every call).
#[test]
fn the_gauge_takes_every_charge_and_the_balance_is_not_asked_after_each_call() {
    use prospect::api::cost::{Cost, CreditPool};
    use prospect::tui::msg::Charge;
    let mut app = started();
    assert_eq!(app.gauge.left(CreditPool::Standard), Some(990.5));
    let first = app.update(ctrl('r'));
    let second = app.update(ctrl('r'));
    let paid = |n: usize, charged: f64| {
        let mut p = page_from_response(SearchSubject::Companies, &companies_page(n, 60, Some("c")));
        p.charge = Charge {
            cost: Cost::in_pool(CreditPool::Standard, charged),
            requests: 1,
        };
        Outcome::Page(p)
    };
    let cmds = answer(
        &mut app,
        &first,
        Slot::Search(SearchSubject::Companies),
        paid(3, 0.6),
    );
    assert!(
        app.results.companies.pages.is_empty(),
        "superseded: not shown"
    );
    assert!(
        !cmds.iter().any(|c| matches!(
            c,
            Command::Call {
                slot: Slot::Balance,
                ..
            }
        )),
        "{cmds:?}"
    );
    assert_eq!(
        app.gauge.left(CreditPool::Standard),
        Some(989.9),
        "but charged"
    );
    let cmds = answer(
        &mut app,
        &second,
        Slot::Search(SearchSubject::Companies),
        paid(25, 5.0),
    );
    assert!(
        !cmds.iter().any(|c| matches!(
            c,
            Command::Call {
                slot: Slot::Balance,
                ..
            }
        )),
        "{cmds:?}"
    );
    assert_eq!(app.gauge.left(CreditPool::Standard), Some(984.9));
    assert_eq!(app.gauge.daily_left(), Some(985));
    let t = render(&app);
    let buf = t.backend().buffer();
    let line: String = (0..buf.area.width)
        .map(|x| buf[(x, 32)].symbol().to_string())
        .collect();
    assert!(
        line.contains("standard 984.9 (−5.6 since refresh)"),
        "{line}"
    );
    assert!(line.contains("daily 985 left"), "{line}");
    // `c` asks at once.
    let cmds = app.update(ch('c'));
    assert!(cmds.iter().any(|c| matches!(
        c,
        Command::Call {
            slot: Slot::Balance,
            ..
        }
    )));
}
