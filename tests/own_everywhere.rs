//! What the user bought follows them (issue 16): exports a CRM can import, cells a spreadsheet
//! will not run, people found by handle in every form. The real binary against a sandbox
//! started in this process on 127.0.0.1, through the fault proxy where an answer must carry a
//! chosen text.

#[path = "sandbox_service/support.rs"]
mod support;

#[path = "support/fault_proxy.rs"]
mod fault_proxy;

#[path = "support/cli_run.rs"]
mod cli_run;

use cli_run::{CLI, known_domains, prospect, run, sandbox_with, write_lines};
use fault_proxy::{Fault, FaultProxy};

/// A company name the service returns as a spreadsheet formula is written to CSV defused
/// (a leading `'`), and stays as received in JSON.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_formula_in_a_company_name_is_defused_in_csv() {
    let sb = sandbox_with(10_000).await;
    let proxy = FaultProxy::start(&sb.base_url, CLI, 7).await;
    proxy.set_faults(false);
    let domains = known_domains(&sb, 3).await;
    let dir = tempfile::tempdir().unwrap();
    // The binary through the proxy, on this test's store.
    let cli = |args: &[&str]| run(prospect(&proxy.base_url, dir.path(), args));
    let list = dir.path().join("domains.txt");
    write_lines(&list, &domains);
    proxy.script([Fault::Rename("=HYPERLINK(\"http://x.example\",\"click\")")]);
    let lookup = |format| {
        cli(&[
            "lookup",
            "companies",
            "--file",
            list.to_str().unwrap(),
            "--format",
            format,
        ])
    };
    let (code, out, err) = lookup("csv").await;
    assert_eq!(code, 0, "{err}");
    let mut rd = csv::Reader::from_reader(out.as_bytes());
    let names: Vec<String> = rd
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect::<Vec<_>>())
        .flat_map(|r| r.into_iter().filter(|c| c.contains("HYPERLINK")))
        .collect();
    assert_eq!(
        names,
        ["'=HYPERLINK(\"http://x.example\",\"click\")"],
        "the formula is written once, defused: {out}"
    );
    assert!(
        !out.lines().any(|l| l.starts_with('=') || l.contains(",=")),
        "{out}"
    );

    // JSON keeps the name as the service sent it: it is data, not a cell.
    let (code, out, err) = lookup("jsonl").await;
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"=HYPERLINK("), "{out}");

    // The store's companies for HubSpot: its column names, one row a domain, defused too.
    let (code, out, err) = cli(&["export", "companies", "--preset", "hubspot-companies"]).await;
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("Company Domain Name,Company name,"),
        "{out}"
    );
    let mut rd = csv::Reader::from_reader(out.as_bytes());
    let rows: Vec<csv::StringRecord> = rd.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 3);
    assert!(
        rows.iter()
            .any(|r| &r[1] == "'=HYPERLINK(\"http://x.example\",\"click\")"),
        "{out}"
    );
}

/// Suppression (issue 16): a HubSpot companies export of 5 domains, one of them a lookalike of
/// stripe.com, imported as customers, goes into the lookalike search's `excludeDomains`: none
/// of the 5 comes back, and the plan reports them. A reveal of a person at a suppressed domain
/// is refused before it is sent, naming the category.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn suppressed_companies_are_excluded_from_searches_and_refused_by_reveals() {
    use prospect::api::client::Endpoint;
    use serde_json::{Value, json};

    let sb = sandbox_with(10_000).await;
    let proxy = FaultProxy::start(&sb.base_url, CLI, 7).await;
    proxy.set_faults(false);
    let rich = support::client(&sb, support::RICH);
    let before = support::company_domains(
        &rich,
        json!({"size": 10, "companiesFilters": {"lookalikeDomains": ["stripe.com"]}}),
    )
    .await;
    assert!(before.len() >= 2, "{before:?}");
    let mut five = vec![before[0].clone()];
    five.extend(known_domains(&sb, 4).await);
    let dir = tempfile::tempdir().unwrap();
    // The binary through the proxy, on this test's store.
    let cli = |args: &[&str]| run(prospect(&proxy.base_url, dir.path(), args));
    let csv_path = dir.path().join("hubspot-companies.csv");
    let mut csv_text = String::from("Record ID,Company name,Company Domain Name,Industry\n");
    for (i, d) in five.iter().enumerate() {
        csv_text.push_str(&format!("{i},Customer {i},https://www.{d}/,Software\n"));
    }
    std::fs::write(&csv_path, csv_text).unwrap();
    let (code, _, err) = cli(&[
        "suppress",
        "import",
        csv_path.to_str().unwrap(),
        "--category",
        "customers",
    ])
    .await;
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = cli(&["suppress", "list", "--format", "jsonl"]).await;
    assert_eq!(code, 0, "{err}");
    let listed: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (listed["category"].as_str(), listed["domains"].as_u64()),
        (Some("customers"), Some(5)),
        "{out}"
    );

    let body = r#"{"companiesFilters": {"lookalikeDomains": ["stripe.com"]}}"#;
    let search = [
        "search",
        "companies",
        "--body",
        body,
        "--limit",
        "20",
        "--format",
        "jsonl",
    ];
    let dry = [
        "search",
        "companies",
        "--body",
        body,
        "--limit",
        "20",
        "--dry-run",
        "--format",
        "json",
    ];
    let (code, out, err) = cli(&dry).await;
    assert_eq!(code, 0, "{err}");
    let plan: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(plan["suppressed"], json!(5), "{out}");
    assert_eq!(plan["suppressedBy"], json!({"customers": 5}), "{out}");

    let sent_before = proxy.log().len();
    let (code, out, err) = cli(&search).await;
    assert_eq!(code, 0, "{err}");
    let got: Vec<String> = out
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["domain"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert!(!got.is_empty());
    assert!(
        got.iter().all(|d| !five.contains(d)),
        "none of the 5 comes back: {got:?}"
    );
    let searches: Vec<Value> = proxy.log()[sent_before..]
        .iter()
        .filter(|e| e.endpoint() == Some(Endpoint::SearchCompaniesV3))
        .map(|e| serde_json::from_slice(&e.body).unwrap())
        .collect();
    assert!(!searches.is_empty());
    for b in &searches {
        let excluded: Vec<&str> = b["companiesFilters"]["excludeDomains"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        for d in &five {
            assert!(excluded.contains(&d.as_str()), "{d} in {b}");
        }
    }

    // A person at a suppressed domain: the reveal is refused before it is sent.
    let (code, out, err) = cli(&["search", "people", "--limit", "3", "--format", "jsonl"]).await;
    assert_eq!(code, 0, "{err}");
    let person: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let (id, domain) = (
        person["id"].as_str().unwrap().to_string(),
        person["domain"].as_str().unwrap().to_string(),
    );
    let list = dir.path().join("dnc.txt");
    write_lines(&list, std::slice::from_ref(&domain));
    let (code, _, err) = cli(&[
        "suppress",
        "import",
        list.to_str().unwrap(),
        "--category",
        "do-not-contact",
    ])
    .await;
    assert_eq!(code, 0, "{err}");
    let sent_before = proxy.log().len();
    let (code, out, err) = cli(&["reveal", "emails", "--ids", &id, "--wait", "5"]).await;
    assert_eq!(code, 5, "refused before sending: {err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("do-not-contact"),
        "the category is named: {err}"
    );
    assert!(err.contains("0 credits"), "{err}");
    let reveals = proxy.log()[sent_before..]
        .iter()
        .filter(|e| {
            matches!(
                e.endpoint(),
                Some(Endpoint::RevealEmails | Endpoint::RevealPhones)
            )
        })
        .count();
    assert_eq!(reveals, 0, "nothing paid was sent");
}

/// Issue 39: what a command writes of records it bought is what it writes of the same records
/// read back from the store: a name the service sends with C1 control characters and an escape
/// sequence (mis-decoded quotes, as 13 of 10,000 real companies have) is written sanitized
/// both times, byte for byte the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bought_and_owned_records_are_written_the_same() {
    let sb = sandbox_with(10_000).await;
    let proxy = FaultProxy::start(&sb.base_url, CLI, 7).await;
    proxy.set_faults(false);
    let dir = tempfile::tempdir().unwrap();
    let cli = |args: &[&str]| run(prospect(&proxy.base_url, dir.path(), args));
    proxy.script([Fault::Rename(
        "Sabra \u{93}Health\u{94} \u{1b}[31mCare\u{1b}[0m \u{9f}REIT",
    )]);
    let search = |format| {
        cli(&[
            "search",
            "companies",
            "--body",
            r#"{"companiesFilters": {"primaryLocations": {"includeCountries": ["at"]}}}"#,
            "--limit",
            "5",
            "--format",
            format,
        ])
    };
    for format in ["csv", "jsonl"] {
        let (code, bought, err) = search(format).await;
        assert_eq!(code, 0, "{err}");
        assert!(bought.contains("Sabra Health Care"), "{bought}");
        let (code, owned, err) = search(format).await;
        assert_eq!(code, 0, "{err}");
        assert_eq!(bought, owned, "{format}: bought and owned differ");
        assert!(
            !bought
                .chars()
                .any(|c| ('\u{80}'..='\u{9f}').contains(&c) || c == '\u{1b}'),
            "{format}: {bought}"
        );
    }
}

/// Issue 38 (item 11): a person looked up from the store shows its employer's name where the
/// store knows the company (it showed the bare domain): the stored company's summary is joined
/// as the record's `company`, as a v3 people answer carries it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_from_the_store_carries_its_stored_employer() {
    let sb = sandbox_with(10_000).await;
    let dir = tempfile::tempdir().unwrap();
    let cli = |args: &[&str]| run(prospect(&sb.base_url, dir.path(), args));
    let (code, out, err) = cli(&["search", "people", "--limit", "1", "--format", "jsonl"]).await;
    assert_eq!(code, 0, "{err}");
    let person: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let handle = person["linkedinUrl"]
        .as_str()
        .expect("a handle")
        .to_string();
    let domain = person["domain"].as_str().expect("a domain").to_string();
    let (code, out, err) = cli(&["lookup", "companies", &domain, "--format", "jsonl"]).await;
    assert_eq!(code, 0, "{err}");
    let company: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let name = company["record"]["name"]
        .as_str()
        .expect("a name")
        .to_string();
    let (code, out, err) = cli(&["lookup", "people", &handle, "--format", "jsonl"]).await;
    assert_eq!(code, 0, "{err}");
    let looked: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert!(looked["storedAt"].is_string(), "from the store: {looked}");
    assert_eq!(
        looked["record"]["company"]["name"],
        name.as_str(),
        "{looked}"
    );
}

/// Issue 39: a company search run again as CSV writes the rows it rendered when it bought them,
/// kept beside each page's purchase, without reading the answers again: with every stored
/// answer of the search made unreadable, the run again still writes the same bytes, sends
/// nothing and spends nothing (`--max-credits 0`). JSON output keeps no rows (it is read from
/// the answers).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_run_again_writes_the_rows_kept_with_its_pages() {
    let sb = sandbox_with(10_000).await;
    let dir = tempfile::tempdir().unwrap();
    let cli = |args: &[&str]| run(prospect(&sb.base_url, dir.path(), args));
    let search = |format, credits| {
        let args = [
            "search",
            "companies",
            "--body",
            r#"{"companiesFilters": {"primaryLocations": {"includeCountries": ["de"]}}}"#,
            "--limit",
            "120",
            "--max-credits",
            credits,
            "--format",
            format,
        ];
        cli(&args.map(String::from).each_ref().map(String::as_str))
    };
    let (code, bought, err) = search("csv", "1000").await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        bought.lines().next().unwrap().split(',').next(),
        Some("domain")
    );
    let (code, json, err) = search("json", "0").await;
    assert_eq!(code, 0, "{err}");
    let records: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
    assert_eq!(records.len(), 120);
    let store =
        rusqlite::Connection::open(dir.path().join("data").join("prospect.sqlite")).unwrap();
    let forms: Vec<(String, i64)> = store
        .prepare("SELECT form, count(*) FROM page_rows GROUP BY form ORDER BY form")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let pages: i64 = store
        .query_row(
            "SELECT count(*) FROM pages WHERE purchase_id IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(pages >= 1);
    assert_eq!(forms, [("companies.csv/1".to_string(), pages)]);
    // The answers no longer read: only the rows can answer now.
    store
        .execute(
            "UPDATE purchases SET raw = x'00', response = 'not JSON'",
            [],
        )
        .unwrap();
    drop(store);
    let (code, again, err) = search("csv", "0").await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(again, bought, "csv: bought and run again differ");
    assert_eq!(bought.lines().count(), 121);
}
