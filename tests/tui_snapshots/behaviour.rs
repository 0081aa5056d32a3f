//! Behaviour behind the screens: stale and superseded answers, owned pages, include domains, text keys, the form against the typed requests, member search and selection, pools, refused forms.

use super::*;

/// A page above the threshold that the store owns is read at once, without a question; one
/// over a budget is refused with the budget named, and nothing is sent.
#[test]
fn a_planned_page_the_store_owns_is_not_confirmed_and_one_over_budget_is_refused() {
    let mut app = started();
    app.form.body = json!({"size": 500});
    let cmds = run_planned(&mut app, page_plan(500, 0, None));
    assert!(searches(&cmds), "the store answers it: {cmds:?}");
    assert!(app.popups.is_empty());

    let mut app = started();
    app.form.body = json!({"size": 500});
    let refusal = "over the standard budget of 50 credits a day by 70 credits";
    let cmds = run_planned(&mut app, page_plan(0, 500, Some(refusal)));
    assert!(!cmds.iter().any(|c| matches!(c, Command::Call { .. })));
    match app.popups.last() {
        Some(Popup::Error(text)) => assert!(text.0.contains(refusal), "{}", text.0),
        other => panic!("an error popup, not {other:?}"),
    }

    // Under a budget every page is planned, even below the threshold.
    let mut o = opts();
    o.budgeted = true;
    let mut app = started_with(o, data_fields(), balance());
    app.form.body = json!({"size": 5});
    let cmds = run_planned(&mut app, page_plan(0, 5, None));
    assert!(
        searches(&cmds),
        "below the threshold it goes without a question"
    );
}

#[test]
fn stale_autocomplete_answer_is_never_shown() {
    let mut app = started();
    let rows = app.form_rows();
    app.form.sel = rows.iter().position(|r| matches!(r, prospect::tui::app::FormRow::Leaf(l) if l.path == ["companiesFilters", "keywords", "anyOf"])).unwrap();
    app.update(key(KeyCode::Enter));
    app.update(ch('a'));
    let c1 = app.update(ch('n'));
    let t1 = c1
        .iter()
        .find_map(|c| {
            if let Command::Timer { generation, .. } = c {
                Some(*generation)
            } else {
                None
            }
        })
        .unwrap();
    let call1 = app.update(Msg::Timer(TimerId::Debounce, t1));
    let g1 = match &call1[..] {
        [Command::Call { generation, .. }] => *generation,
        other => panic!("{other:?}"),
    };
    // A newer keystroke: aborts the older request and makes its answer stale.
    let c2 = app.update(ch('v'));
    assert!(
        c2.iter()
            .any(|c| matches!(c, Command::Abort(Slot::Autocomplete)))
    );
    // The old debounce timer firing does nothing either.
    assert!(app.update(Msg::Timer(TimerId::Debounce, t1)).is_empty());
    app.update(Msg::Done {
        slot: Slot::Autocomplete,
        generation: g1,
        result: Ok(Outcome::Suggestions {
            list: vec![("stale".into(), json!("stale"))],
            charge: Default::default(),
        }),
    });
    match app.popups.last() {
        Some(Popup::Editor(ed)) => match &ed.body {
            prospect::tui::app::EditorBody::List(le) => {
                assert!(le.suggestions.is_empty(), "stale suggestions shown")
            }
            _ => panic!(),
        },
        _ => panic!(),
    }
}

#[test]
fn superseded_search_result_is_dropped_and_paging_uses_cursors() {
    let mut app = started();
    let first = app.update(ctrl('r'));
    let second = app.update(ctrl('r'));
    // The older answer arrives late: dropped.
    answer(
        &mut app,
        &first,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(page_from_response(
            SearchSubject::Companies,
            &companies_page(3, 3, None),
        )),
    );
    assert!(app.results.companies.pages.is_empty());
    answer(
        &mut app,
        &second,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(page_from_response(
            SearchSubject::Companies,
            &companies_page(25, 60, Some("cur1")),
        )),
    );
    assert_eq!(app.results.companies.rows().len(), 25);
    app.focus = Pane::Results;
    let next = app.update(ch('n'));
    match &next[..] {
        [
            Command::Call {
                call:
                    Call::Search {
                        request: SearchRequest::CompaniesV3(r),
                        page,
                        ..
                    },
                ..
            },
        ] => {
            assert_eq!(r.search_after.as_deref(), Some("cur1"));
            assert_eq!(*page, 1, "the history keeps the page number");
        }
        other => panic!("{other:?}"),
    }
    answer(
        &mut app,
        &next,
        Slot::Search(SearchSubject::Companies),
        Outcome::Page(page_from_response(
            SearchSubject::Companies,
            &companies_page(25, 60, Some("cur2")),
        )),
    );
    assert_eq!(
        (
            app.results.companies.page,
            app.results.companies.first_index()
        ),
        (1, 26)
    );
    // Back, then forward again: the kept page, no request.
    assert!(no_call(app.update(ch('p'))));
    assert_eq!(app.results.companies.page, 0);
    assert!(no_call(app.update(ch('n'))));
    assert_eq!(app.results.companies.page, 1);
}

#[test]
fn people_at_company_uses_include_domains() {
    let mut app = started();
    run_search(&mut app, companies_page(3, 3, None));
    let cmds = app.update(ch('P'));
    match &cmds[..] {
        [
            Command::Call {
                call:
                    Call::Search {
                        request: SearchRequest::PeopleV3(r),
                        ..
                    },
                ..
            },
        ] => {
            let f = r.companies_filters.as_ref().unwrap();
            assert_eq!(
                f.include_domains.as_deref(),
                Some(&["acme0.com".to_string()][..])
            )
        }
        other => panic!("{other:?}"),
    }
    app.update(ch('t'));
    let cmds = app.update(ch('L'));
    match &cmds[..] {
        [
            Command::Call {
                call:
                    Call::Search {
                        request: SearchRequest::CompaniesV3(r),
                        ..
                    },
                ..
            },
        ] => {
            let f = r.companies_filters.as_ref().unwrap();
            assert_eq!(
                f.lookalike_domains.as_deref(),
                Some(&["acme0.com".to_string()][..])
            )
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn printable_keys_are_text_in_fields() {
    let mut app = started();
    let rows = app.form_rows();
    app.form.sel = rows.iter().position(|r| matches!(r, prospect::tui::app::FormRow::Leaf(l) if l.path == ["companiesFilters", "excludeIndustries"])).unwrap();
    app.update(key(KeyCode::Enter));
    // q, ?, n, j would be actions outside a text field.
    for c in "qn?j".chars() {
        app.update(ch(c));
    }
    assert!(!app.quit);
    match app.popups.last() {
        Some(Popup::Editor(ed)) => match &ed.body {
            prospect::tui::app::EditorBody::Pick(p) => assert_eq!(p.query.lines()[0], "qn?j"),
            _ => panic!(),
        },
        _ => panic!(),
    }
}

/// Every member the form can set, filled at once with a plausible value, reads into the
/// typed request of its endpoint (T1's types deny unknown fields) and validates.
#[test]
fn every_form_member_fits_the_typed_requests() {
    use prospect::api::types::common::Validate;
    use prospect::tui::schema::{self, LeafKind, Num, SetId, Source};
    fn sample(l: &schema::Leaf) -> Value {
        let df = DataFields::default();
        match l.kind {
            LeafKind::List(Source::Closed(SetId::States)) => {
                json!([{"abbreviation": "CA", "country": "us"}])
            }
            LeafKind::List(Source::Ac(prospect::tui::schema::AutocompleteKind::Locations)) => {
                json!([{"city": "Berlin", "country": "de"}])
            }
            LeafKind::List(Source::Closed(set)) if !set.needs_data_fields() => {
                json!([set.options(&df)[0].value.clone()])
            }
            LeafKind::List(_) => json!(["x"]),
            LeafKind::One(set) => set.options(&df)[0].value.clone(),
            LeafKind::Range(Num::Int) => json!({"from": 1, "to": 2}),
            LeafKind::Range(Num::Float) => json!({"from": 0.5, "to": 1.5}),
            LeafKind::Range(_) => json!({"from": "2020-01-01", "to": "2021-01-01"}),
            LeafKind::Scalar(Num::Int) => json!(3),
            LeafKind::Scalar(Num::Float) => json!(0.5),
            LeafKind::Scalar(Num::Date) => json!("2020-01"),
            LeafKind::Scalar(Num::Text) => json!("x"),
            LeafKind::Json if l.path.last() == Some(&"departmentSizes") => {
                json!([{"department": "Sales", "from": 1, "to": 5}])
            }
            LeafKind::Json => {
                json!([{"department": "Sales", "growthRange": {"from": 0.0, "to": 1.0}, "months": "Three months", "asPercentage": false}])
            }
        }
    }
    fn check<T: serde::de::DeserializeOwned + Validate>(ep: Endpoint) {
        let mut body = json!({});
        for l in schema::leaves(ep) {
            schema::set(&mut body, l.path, sample(l));
        }
        let req: T = serde_path_to_error::deserialize(body.clone())
            .unwrap_or_else(|e| panic!("{ep:?}: {} at {}", e.inner(), e.path()));
        let problems = req.validate();
        assert!(problems.is_empty(), "{ep:?}: {problems:?}");
    }
    check::<prospect::api::types::SearchCompaniesV3Request>(Endpoint::SearchCompaniesV3);
    check::<prospect::api::types::SearchPeopleV3Request>(Endpoint::SearchPeopleV3);
    check::<prospect::api::types::SearchCompaniesV2Request>(Endpoint::SearchCompaniesV2);
    check::<prospect::api::types::SearchPeopleV2Request>(Endpoint::SearchPeopleV2);
    // The same bodies, through the builder every search goes through.
    for ep in prospect::tui::schema::SEARCHES {
        let mut body = json!({});
        for l in schema::leaves(ep) {
            schema::set(&mut body, l.path, sample(l));
        }
        let req = prospect::core::request::build_search(ep, &body)
            .unwrap_or_else(|e| panic!("{ep:?}: {e:?}"));
        assert_eq!(req.endpoint(), ep);
    }
}

#[test]
fn find_member_ranks_the_obvious_match_first() {
    let mut app = started();
    assert_eq!(find_first(&mut app, "size"), "Results per page  size");
    app.update(key(KeyCode::Esc));
    assert_eq!(
        find_first(&mut app, "keywords.anyOf"),
        "Keywords: any of  companiesFilters.keywords.anyOf"
    );
    app.update(key(KeyCode::Enter));
    assert!(
        matches!(app.popups.last(), Some(Popup::Editor(ed)) if ed.leaf.path == ["companiesFilters", "keywords", "anyOf"])
    );
    // By its label too (issue 19): "employees linkedin".
    app.update(key(KeyCode::Esc));
    assert_eq!(
        find_first(&mut app, "employees linkedin"),
        "Employees (LinkedIn, range)  companiesFilters.employeeCountLinkedin"
    );
}

#[test]
fn selection_stays_on_the_member_when_the_summary_grows_or_shrinks() {
    use prospect::tui::app::FormRow;
    let mut app = started();
    let is_year = |r: Option<&FormRow>| matches!(r, Some(FormRow::Leaf(l)) if l.path == ["companiesFilters", "yearFounded"]);
    app.form.sel = app
        .form_rows()
        .iter()
        .position(|r| is_year(Some(r)))
        .unwrap();
    app.update(key(KeyCode::Enter));
    for c in "1990".chars() {
        app.update(ch(c));
    }
    app.update(key(KeyCode::Enter));
    assert_eq!(
        app.form.body["companiesFilters"]["yearFounded"],
        json!({"from": 1990})
    );
    assert!(
        is_year(app.form_rows().get(app.form.sel)),
        "selection moved"
    );
    app.update(ch('x'));
    assert!(app.form.body.get("companiesFilters").is_none());
    assert!(
        is_year(app.form_rows().get(app.form.sel)),
        "selection moved after clearing"
    );
}

#[test]
fn a_pool_missing_from_the_balance_is_unknown_not_zero() {
    let mut app = started();
    app.gauge.on_balance(
        typed(json!({"credits": {"oneTime": 5, "recurrent": 0}, "dailyLimitRateLeft": 3})),
        std::time::Instant::now(),
    );
    let t = render(&app);
    let buf = t.backend().buffer();
    let line: String = (0..buf.area.width)
        .map(|x| buf[(x, 32)].symbol().to_string())
        .collect();
    assert!(line.contains("standard 5 (5+0)"), "{line}");
    assert!(line.contains("email ?"), "{line}");
    assert!(line.contains("phone ?"), "{line}");
    assert!(!line.contains("email 0"), "{line}");
}

#[test]
fn a_form_the_client_would_refuse_says_so_on_edit_and_is_never_confirmed() {
    let mut app = started();
    app.form.sel = app
        .form_rows()
        .iter()
        .position(|r| matches!(r, prospect::tui::app::FormRow::Leaf(l) if l.path == ["size"]))
        .unwrap();
    let set_size = |app: &mut App, text: &str| {
        app.update(key(KeyCode::Enter));
        for _ in 0..6 {
            app.update(key(KeyCode::Backspace));
        }
        for c in text.chars() {
            app.update(ch(c));
        }
        app.update(key(KeyCode::Enter));
    };
    set_size(&mut app, "20000");
    assert_eq!(app.form.body["size"], json!(20000));
    let status = app.status.clone().expect("a status");
    assert!(
        status
            .text
            .contains("body.size: Input should be less than or equal to 10000"),
        "{status:?}"
    );
    assert_eq!(app.form.problems.len(), 1);
    // Run: no confirmation of 4000 credits, no call; an error popup says why.
    let cmds = app.update(ctrl('r'));
    assert!(
        !cmds.iter().any(|c| matches!(c, Command::Call { .. })),
        "{cmds:?}"
    );
    match app.popups.last() {
        Some(Popup::Error(e)) => assert!(
            e.0.contains("not sent") && e.0.contains("body.size"),
            "{}",
            e.0
        ),
        other => panic!("{other:?}"),
    }
    app.update(key(KeyCode::Esc));
    // Fixed: the problem message goes away.
    set_size(&mut app, "50");
    assert!(app.form.problems.is_empty());
    assert!(app.status.is_none(), "{:?}", app.status);
}
