//! The team store and the rest: URLs, TLS, the budget, segmentations, set runs, rendered rows.

use super::*;

/// Store URLs (issue 17): the schemes taken, and the password never shown, in the URL as
/// printed or in the error of a server that cannot be reached.
#[test]
fn store_urls_parse_and_never_show_the_password() {
    use crate::StoreUrl;
    assert_eq!(
        StoreUrl::parse("sqlite:///x/y.sqlite").unwrap(),
        StoreUrl::Sqlite("/x/y.sqlite".into())
    );
    assert_eq!(
        StoreUrl::parse("/x/y.sqlite").unwrap(),
        StoreUrl::Sqlite("/x/y.sqlite".into())
    );
    let e = StoreUrl::parse("mysql://db/team").unwrap_err();
    assert!(e.contains("mysql://") && e.contains("postgres://"), "{e}");
    assert!(StoreUrl::parse(" ").is_err());
    let u = StoreUrl::parse("postgres://ann:s3cret@db:5432/team?sslmode=require").unwrap();
    assert_eq!(
        u.redacted(),
        "postgres://ann:***@db:5432/team?sslmode=require"
    );
    assert!(!format!("{u:?}").contains("s3cret"));
    let u = StoreUrl::parse("postgresql://ann@db/team?password=s3cret&sslmode=disable").unwrap();
    assert_eq!(
        u.redacted(),
        "postgresql://ann@db/team?password=***&sslmode=disable"
    );
    // Nothing listens on port 1.
    let e = Store::open_postgres(
        "postgres://ann:s3cret@127.0.0.1:1/team?sslmode=disable&connect_timeout=3",
    )
    .unwrap_err()
    .to_string();
    assert!(!e.contains("s3cret"), "{e}");
    assert!(e.contains("postgres://ann:***@127.0.0.1:1/team"), "{e}");
}

/// The team store over TLS (issue 17, "Failures": rustls when the URL asks for it), on a real
/// server with `ssl = on` and a certificate of a throwaway authority: with `sslrootcert` naming
/// that authority the connection is encrypted (`pg_stat_ssl`), libpq's `verify-full` is taken
/// too, and without it the server's certificate is refused (the web's roots do not know it).
#[cfg_attr(no_postgres, ignore = "needs PostgreSQL (initdb)")]
#[test]
fn a_team_store_over_tls_verifies_the_server() {
    let server = crate::pg_server::TempServer::start_tls().unwrap();
    server.create_db("tls").unwrap();
    let base = format!("postgres://prospect@127.0.0.1:{}/tls", server.port());
    let ca = server.root_cert();
    let encrypted = |store: &Store| -> bool {
        let mut st = store
            .conn
            .prepare("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
            .unwrap();
        st.query_row(crate::db::params![], |r| r.get::<_, bool>(0))
            .unwrap()
    };
    for mode in ["require", "verify-full", "prefer"] {
        let url = format!("{base}?sslmode={mode}&sslrootcert={}", ca.display());
        let store = Store::open_postgres(&url).unwrap_or_else(|e| panic!("{mode}: {e}"));
        assert!(encrypted(&store), "sslmode={mode} is encrypted");
    }
    let plain = Store::open_postgres(&format!("{base}?sslmode=disable")).unwrap();
    assert!(!encrypted(&plain));
    let Err(refused) = Store::open_postgres(&format!("{base}?sslmode=require")) else {
        panic!("a certificate of an unknown authority is refused");
    };
    assert!(
        refused.to_string().to_lowercase().contains("certificate"),
        "{refused}"
    );
    let Err(missing) = Store::open_postgres(&format!(
        "{base}?sslmode=require&sslrootcert=/nonexistent.pem"
    )) else {
        panic!("a root file that is not there");
    };
    assert!(
        missing.to_string().contains("/nonexistent.pem"),
        "{missing}"
    );
}

/// `sslrootcert` is read off a team store's URL and libpq's `verify-*` modes become `require`;
/// every other member is passed on as written.
#[test]
fn tls_options_read_the_root_file_off_the_url() {
    use crate::tls_options;
    let (url, root) = tls_options(
        "postgres://u:p@h:5432/db?application_name=a%20b&sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem",
    )
    .unwrap();
    assert_eq!(
        url,
        "postgres://u:p@h:5432/db?application_name=a%20b&sslmode=require"
    );
    assert_eq!(root.as_deref(), Some(std::path::Path::new("/etc/ca.pem")));
    let (url, root) = tls_options("postgres://u@h/db?sslrootcert=/ca.pem").unwrap();
    assert_eq!((url.as_str(), root.is_some()), ("postgres://u@h/db", true));
    assert_eq!(
        tls_options("postgres://u@h/db").unwrap(),
        ("postgres://u@h/db".to_string(), None)
    );
    assert!(tls_options("postgres://u@h/db?sslrootcert=").is_err());
}

/// The team's budget is kept in the store (schema 7): none at first, set per pool, read back
/// by any connection, removed when unlimited; a negative limit is refused.
#[test]
fn the_team_budget_is_kept_in_the_store() {
    let mut store = test_store();
    assert!(store.team_budget().unwrap().is_unlimited());
    let b = crate::Budget {
        standard_per_day: Some(500.0),
        email_per_day: Some(0.0),
        phone_per_day: None,
    };
    store.set_team_budget(&b).unwrap();
    assert_eq!(store.team_budget().unwrap(), b);
    let wider = crate::Budget {
        standard_per_day: Some(800.0),
        ..b
    };
    store.set_team_budget(&wider).unwrap();
    assert_eq!(store.team_budget().unwrap(), wider);
    let bad = crate::Budget {
        phone_per_day: Some(-1.0),
        ..b
    };
    assert!(matches!(
        store.set_team_budget(&bad),
        Err(StoreError::Invalid(m)) if m.contains("phone")
    ));
    store.set_team_budget(&crate::Budget::default()).unwrap();
    assert!(store.team_budget().unwrap().is_unlimited());
}

#[test]
fn segmentations_are_kept_by_service_and_input_and_a_finished_answer_is_not_undone() {
    use prospect_api::types::{Segment, Segmentation, SegmentationStatus};
    let mut s = test_store();
    s.record_segmentation("sandbox", 7, "segmentation:abc", 30, None)
        .unwrap();
    s.record_segmentation("https://api.example", 7, "segmentation:abc", 30, None)
        .unwrap();
    let row = s
        .segmentation_by_input("sandbox", "segmentation:abc")
        .unwrap()
        .unwrap();
    assert_eq!((row.id, row.domains), (7, 30));
    assert_eq!(row.status, SegmentationStatus::InProgress);
    assert!(row.answer.is_none());
    assert!(
        s.segmentation_by_input("sandbox", "segmentation:other")
            .unwrap()
            .is_none()
    );
    let done = Segmentation {
        segmentation_id: 7,
        status: SegmentationStatus::Successful,
        segments: vec![Segment {
            segment_id: 1,
            name: "Software\u{1b}[31m".into(),
            domains: vec!["stripe.com".into()],
            company_count: 1,
            ..Segment::default()
        }],
        total_addressable_market: Some(12),
        total_untouched: None,
    };
    s.keep_segmentation_answer("sandbox", &done).unwrap();
    // A later in-progress answer (a sandbox computing it again) keeps the finished one.
    let again = Segmentation {
        segmentation_id: 7,
        status: SegmentationStatus::InProgress,
        ..Segmentation::default()
    };
    s.keep_segmentation_answer("sandbox", &again).unwrap();
    let row = s.segmentation("sandbox", 7).unwrap().unwrap();
    assert_eq!(row.status, SegmentationStatus::Successful);
    let kept = row.answer.unwrap();
    assert_eq!(
        kept.segments[0].name, "Software",
        "escape sequences are stripped"
    );
    assert_eq!(row.input_key, "segmentation:abc");
    // The other service's row is its own.
    let other = s.segmentation("https://api.example", 7).unwrap().unwrap();
    assert_eq!(other.status, SegmentationStatus::InProgress);
    assert_eq!(s.segmentations("sandbox", 10).unwrap().len(), 1);
}

/// A set's runs (issue 37): keys bought are kept once per set and tab (what a new-only run
/// excludes: those before its start), runs are listed newest first and a run's later pages add
/// to it, and another set or tab shares nothing.
#[test]
fn a_sets_keys_and_runs_are_kept_per_set_and_tab() {
    let mut store = test_store();
    let at = chrono::Utc::now();
    let keys = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let first = store.add_set_keys("de", "companies", &keys(&["a.de", "b.de"]), at);
    assert_eq!(first.unwrap(), keys(&["a.de", "b.de"]));
    let later = at + chrono::Duration::seconds(1);
    let second = store.add_set_keys("de", "companies", &keys(&["b.de", "c.de"]), later);
    assert_eq!(second.unwrap(), keys(&["c.de"]));
    let all = store.set_keys("de", "companies", None).unwrap();
    assert_eq!(all, keys(&["a.de", "b.de", "c.de"]));
    let before = store.set_keys("de", "companies", Some(later)).unwrap();
    assert_eq!(before, keys(&["a.de", "b.de"]));
    assert!(store.set_keys("de", "people", None).unwrap().is_empty());
    assert!(
        store
            .set_keys("other", "companies", None)
            .unwrap()
            .is_empty()
    );
    for (i, new) in [2u64, 1].into_iter().enumerate() {
        let run = crate::SetRun {
            set_name: "de".into(),
            subject: "companies".into(),
            ran_at: at + chrono::Duration::seconds(i as i64),
            new_only: i > 0,
            results: new,
            new_results: new,
            paid_again: 0,
            credits: new as f64 * 0.2,
            job: None,
        };
        store.record_set_run(&run).unwrap();
    }
    // A page more of the last run adds to it.
    let mut more = store.set_runs("de", 1).unwrap().remove(0);
    more.results = 3;
    more.new_results = 3;
    store.record_set_run(&more).unwrap();
    let runs = store.set_runs("de", 10).unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!((runs[0].results, runs[0].new_results), (4, 4));
    assert!(runs[0].new_only);
    assert_eq!(store.set_run_count("de", "companies", None).unwrap(), 2);
    assert_eq!(
        store.set_run_count("de", "companies", Some(later)).unwrap(),
        1
    );
    assert_eq!(store.set_run_count("de", "people", None).unwrap(), 0);
}

/// Rows rendered from a page's answer are kept beside its purchase, read back by the page's
/// link in their form only, and replaced when kept again (schema 13); a page kept without a
/// purchase has none.
#[test]
fn page_rows_are_kept_by_purchase_and_form() {
    let mut store = test_store();
    let s = store
        .record_search(Endpoint::SearchCompaniesV3, &json!({}), "sandbox", t(1))
        .unwrap();
    let answer = json!({"companies": [{"company": {"domain": "acme.com"}}], "total": 1});
    let p = buy(
        &mut store,
        Endpoint::SearchCompaniesV3,
        answer.clone(),
        &Entities::default(),
        t(1),
    );
    store
        .record_page(s, 0, &json!({"size": 10}), &answer, Some(p), t(1))
        .unwrap();
    let link = store.page_links_since(s, None).unwrap().remove(0);
    assert_eq!(store.page_rows(&link, "companies.csv/1").unwrap(), None);
    store
        .keep_page_rows(p, "companies.csv/1", b"acme.com,Acme\n")
        .unwrap();
    store.keep_page_rows(p, "companies.json/1", b"{}").unwrap();
    assert_eq!(
        store
            .page_rows(&link, "companies.csv/1")
            .unwrap()
            .as_deref(),
        Some(&b"acme.com,Acme\n"[..])
    );
    store
        .keep_page_rows(p, "companies.csv/1", b"acme.com,ACME\n")
        .unwrap();
    assert_eq!(
        store
            .page_rows(&link, "companies.csv/1")
            .unwrap()
            .as_deref(),
        Some(&b"acme.com,ACME\n"[..])
    );
    assert_eq!(store.page_rows(&link, "companies.csv/2").unwrap(), None);
    let s2 = store
        .record_search(
            Endpoint::SearchCompaniesV3,
            &json!({"q": 2}),
            "sandbox",
            t(2),
        )
        .unwrap();
    store
        .record_page(s2, 0, &json!({"size": 10}), &answer, None, t(2))
        .unwrap();
    let bare = store.page_links_since(s2, None).unwrap().remove(0);
    assert_eq!(store.page_rows(&bare, "companies.csv/1").unwrap(), None);
}

/// A job's `bought` moves with every answer kept for it; its `updated_at`, which both job
/// indexes hold, at most once a second, so a lookup's thousand answers a minute do not
/// rewrite two index pages each.
#[test]
fn a_jobs_count_moves_with_each_answer_and_its_time_once_a_second() {
    let mut store = test_store();
    let job = store
        .create_job("lookup_companies", "f", &json!({}), &json!({}), "me")
        .unwrap();
    let created = store.job(job).unwrap().unwrap().updated_at;
    let raw = br#"{"companies":[],"totalRequested":0,"totalFound":0,"creditsUsed":0}"#;
    let mut keep_at = |at: DateTime<Utc>| {
        store
            .keep(&Kept {
                endpoint: Endpoint::LookupCompanies,
                request: &json!({"domains": []}),
                raw,
                charged: Cost::ZERO,
                target: "sandbox",
                at,
                entities: &Entities::default(),
                job: Some(job),
                settles: &[],
                page: None,
                whole: true,
            })
            .unwrap();
    };
    let ms = chrono::Duration::milliseconds;
    keep_at(created + ms(200));
    keep_at(created + ms(5_000));
    keep_at(created + ms(5_500));
    let row = store.job(job).unwrap().unwrap();
    assert_eq!(row.bought, 3, "every answer counts");
    assert_eq!(
        row.updated_at.timestamp_millis(),
        (created + ms(5_000)).timestamp_millis(),
        "moved by the answer a second or more after it, not by those within one"
    );
}
