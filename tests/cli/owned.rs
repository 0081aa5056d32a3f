//! Bought once, owned after, through the CLI: reveals in exports, lists of two searches, batch enrich of companies and people, a segmentation.

use super::*;

/// The CSV's cells of `column`, by header name.
fn csv_column(csv_text: &str, column: &str) -> Vec<String> {
    let mut rd = csv::Reader::from_reader(csv_text.as_bytes());
    let at = rd
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == column)
        .unwrap_or_else(|| panic!("no column {column}: {csv_text}"));
    rd.records().map(|r| r.unwrap()[at].to_string()).collect()
}

/// The non-empty cells of `column`, sorted (addresses to compare as sets).
fn filled(csv_text: &str, column: &str) -> Vec<String> {
    let mut v: Vec<String> = csv_column(csv_text, column)
        .into_iter()
        .filter(|e| !e.is_empty())
        .collect();
    v.sort();
    v
}

/// Contacts follow the people (issue 16): emails revealed for ten people of a search are in
/// `export people` and in the same search run again (from the store, at 0 credits).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn revealed_emails_follow_the_people_into_exports_and_searches() {
    let sb = start(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let c0 = client(&sb, RICH);
    let port = free_port();
    let search = ["search", "people", "--limit", "10", "--format", "csv"];
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(search);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let ids = csv_column(&out, "id");
    assert_eq!(ids.len(), 10);
    assert!(
        csv_column(&out, "email").iter().all(String::is_empty),
        "not revealed yet: {out}"
    );

    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["reveal", "emails", "--ids", &ids.join(","), "--wait", "20"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let contacts: Vec<Value> = out
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .collect();
    let mut revealed: Vec<String> = contacts
        .iter()
        .filter_map(|c| c["email"].as_str().map(str::to_string))
        .filter(|e| e.contains('@'))
        .collect();
    revealed.sort();
    // What an outreach list keeps: verified and catch-all addresses.
    let mut outreach: Vec<String> = contacts
        .iter()
        .filter(|c| matches!(c["status"].as_str(), Some("verified" | "catchAll")))
        .filter_map(|c| c["email"].as_str().map(str::to_string))
        .filter(|e| e.contains('@'))
        .collect();
    outreach.sort();
    assert!(!revealed.is_empty(), "{out}");

    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["export", "people", "--format", "csv"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        filled(&out, "email"),
        revealed,
        "export people carries the addresses"
    );

    // The same people for HubSpot: its own column names, verified and catch-all only.
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["export", "people", "--preset", "hubspot-contacts"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().next().unwrap(),
        "Email,First Name,Last Name,Job Title,Phone Number,Company Name,Website URL,Country/Region",
        "HubSpot's importer maps every column by itself"
    );
    let mut hubspot = csv_column(&out, "Email");
    hubspot.sort();
    assert_eq!(hubspot, outreach, "{out}");
    assert!(
        csv_column(&out, "Last Name").iter().all(|n| !n.is_empty()),
        "{out}"
    );
    assert!(err.is_empty(), "no note without a terminal: {err}");
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["export", "people", "--preset", "hubspot-companies"]);
    let (code, _, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is for companies, not people"), "{err}");

    let before = standard(&c0).await;
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(search);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        filled(&out, "email"),
        revealed,
        "the search run again shows them"
    );
    assert_eq!(standard(&c0).await, before, "from the store, nothing spent");
}

/// Lists (issue 16): 30 accounts from two searches added to a list are there in a later run,
/// with their stored data; a contact list's reveal plan buys only its unrevealed members.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_list_built_from_two_searches_is_kept_and_planned_on() {
    let sb = start(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut accounts: Vec<String> = Vec::new();
    for country in ["de", "fr"] {
        let body = format!(
            r#"{{"companiesFilters": {{"primaryLocations": {{"includeCountries": ["{country}"]}}}}}}"#
        );
        let mut c = prospect(&sb, RICH, dir.path(), port);
        c.args(["search", "companies", "--body", &body, "--limit", "15"]);
        c.args(["--format", "csv"]);
        let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
        assert_eq!(code, 0, "{err}");
        let domains = csv_column(&out, "domain");
        assert_eq!(domains.len(), 15, "{out}");
        let mut c = prospect(&sb, RICH, dir.path(), port);
        c.args(["list", "add", "targets", "--domains", &domains.join(",")]);
        let (code, _, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
        assert_eq!(code, 0, "{err}");
        accounts.extend(domains);
    }
    accounts.dedup();
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["list", "show", "targets", "--format", "csv"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        csv_column(&out, "domain"),
        accounts,
        "every member, in order"
    );
    assert_eq!(accounts.len(), 30);
    assert!(
        csv_column(&out, "name").iter().all(|n| !n.is_empty()),
        "joined with the stored companies: {out}"
    );
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["list", "ls", "--format", "jsonl"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let ls: Value = serde_json::from_str(out.trim()).unwrap();
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["list", "export", "targets", "--preset", "hubspot-companies"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    assert_eq!(csv_column(&out, "Company Domain Name"), accounts, "{out}");
    assert_eq!(
        (ls["name"].as_str(), ls["members"].as_u64()),
        (Some("targets"), Some(30))
    );

    // A contact list of 6, 2 of them revealed: the plan of revealing the list buys 4.
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["search", "people", "--limit", "6", "--format", "csv"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let ids = csv_column(&out, "id");
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["list", "add", "leads", "--ids", &ids.join(",")]);
    let (code, _, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args([
        "reveal",
        "emails",
        "--ids",
        &ids[..2].join(","),
        "--wait",
        "20",
    ]);
    let (code, _, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args([
        "reveal",
        "emails",
        "--list",
        "leads",
        "--dry-run",
        "--format",
        "json",
    ]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let plan: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (
            plan["asked"].as_u64(),
            plan["owned"].as_u64(),
            plan["toBuy"].as_u64()
        ),
        (Some(6), Some(2), Some(4)),
        "{out}"
    );
    // A list of the other kind is refused before anything is sent.
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["reveal", "emails", "--list", "targets", "--dry-run"]);
    let (code, _, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("holds accounts, not contacts"), "{err}");
}

/// Issue 18: a batch enrich of 1,000 domains (and one unknown, and one given twice) is sent as
/// one request, delivered by webhook in chunks, stored, and charged 0.1 per company found; the
/// same batch again is answered from the store: planned at 0, nothing sent, the balance kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_enrich_is_delivered_stored_and_costs_nothing_the_second_time() {
    let sb = start(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let c0 = client(&sb, RICH);
    let mut domains = support::company_domains(&c0, json!({"size": 1000})).await;
    assert_eq!(domains.len(), 1000);
    domains.push("no-such-company-zz.com".into());
    domains.push(domains[0].to_uppercase());
    let file = dir.path().join("customers.txt");
    std::fs::write(&file, domains.join("\n")).unwrap();
    let port = free_port();
    let before = standard(&c0).await;

    let enrich = |extra: &[&str]| {
        let mut c = prospect(&sb, RICH, dir.path(), port);
        c.args(["enrich", "companies", "--file", file.to_str().unwrap()])
            .args(["--max-credits", "1000", "--wait", "60"])
            .args(extra);
        c
    };
    let c = enrich(&["--dry-run", "--format", "json"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let plan: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(plan["asked"], 1001, "{plan}");
    assert_eq!(plan["toBuy"], 1001);
    assert_eq!(plan["requests"], 1);
    assert_eq!(standard(&c0).await, before, "a dry run sends nothing paid");

    let c = enrich(&[]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 1001, "one row per distinct domain");
    assert_eq!(
        rows.iter().filter(|r| r["found"] == json!(true)).count(),
        1000
    );
    assert_eq!(rows[1000]["query"], "no-such-company-zz.com");
    assert_eq!(rows[1000]["found"], json!(false));
    for (row, d) in rows.iter().zip(&domains) {
        assert_eq!(row["query"], d.as_str());
        if row["found"] == json!(true) {
            assert_eq!(row["record"]["domain"], d.as_str());
            assert_eq!(row["storedAt"], Value::Null, "bought now");
        }
    }
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let mid = standard(&c0).await;
    assert!(
        (before.0 - mid.0 - 100.0).abs() < 1e-6,
        "{before:?} → {mid:?}"
    );
    // The ledger records what the deliveries cost.
    let mut c = prospect(&sb, RICH, dir.path(), port);
    c.args(["history", "--spend", "--format", "jsonl"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let spent: f64 = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["what"] == "enrich_companies")
        .map(|v| v["credits"]["standard"].as_f64().unwrap())
        .sum();
    assert!((spent - 100.0).abs() < 1e-6, "{out}");

    // Again: the 1,000 found are owned; only the unknown one is asked (and costs nothing).
    let c = enrich(&["--dry-run", "--format", "json"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let plan: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(plan["owned"], 1000, "{plan}");
    assert_eq!(plan["toBuy"], 1);
    let c = enrich(&[]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 1001);
    assert!(
        rows[..1000].iter().all(|r| r["storedAt"].is_string()),
        "from the store"
    );
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert_eq!(standard(&c0).await, mid, "nothing charged the second time");
}

/// Issue 18: a batch enrich of people given by id, by professional-network URL and by name at
/// a company (and one nobody matches) is delivered by webhook, stored, and charged 3 per person
/// found; the same batch again is owned, the name-only person included (kept as matched), and
/// nothing is charged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_enrich_of_people_is_owned_the_second_time_however_they_were_given() {
    let sb = start(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let c0 = client(&sb, RICH);
    let found = c0
        .search_people_v3(&serde_json::from_value(json!({"size": 6})).unwrap())
        .await
        .unwrap()
        .people;
    let p: Vec<&Person> = found.iter().map(|p| &p.person).collect();
    let lines = [
        p[0].id.clone(),
        p[1].id.clone(),
        p[2].linkedin_url.clone().unwrap(),
        p[3].linkedin_url.clone().unwrap(),
        json!({"person": {"name": p[4].name}, "company": {"domain": p[4].domain}}).to_string(),
        "nobody@no-such-company-zz.com".to_string(),
    ];
    let file = dir.path().join("people.txt");
    std::fs::write(&file, lines.join("\n")).unwrap();
    let port = free_port();
    let before = standard(&c0).await;
    let enrich = |extra: &[&str]| {
        let mut c = prospect(&sb, RICH, dir.path(), port);
        // `--wait` alone, as the issue writes it: the default wait (the deliveries end it).
        c.args(["enrich", "people", "--file", file.to_str().unwrap()])
            .args(["--max-credits", "100", "--wait"])
            .args(extra);
        c
    };
    let c = enrich(&["--format", "jsonl"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 6, "{out}");
    for (i, row) in rows.iter().enumerate().take(5) {
        assert_eq!(row["query"], lines[i].as_str());
        assert_eq!(row["found"], json!(true), "{row}");
        assert_eq!(row["record"]["id"], p[i].id.as_str());
    }
    assert_eq!(rows[5]["found"], json!(false));
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let mid = standard(&c0).await;
    assert!(
        (before.0 - mid.0 - 15.0).abs() < 1e-6,
        "{before:?} → {mid:?}"
    );

    let c = enrich(&["--dry-run", "--format", "json"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let plan: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(plan["owned"], 5, "{plan}");
    let c = enrich(&["--format", "jsonl"]);
    let (code, out, err) = tokio::task::spawn_blocking(move || run(c)).await.unwrap();
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(rows[..5].iter().all(|r| r["storedAt"].is_string()), "{out}");
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert_eq!(standard(&c0).await, mid, "nothing charged the second time");
}

/// Issue 18: `segment create` plans 0.1 credit a distinct domain, buys once, waits for the
/// segments and prints them; the same customers again (another order, a repeat) are owned at
/// 0 credits; `segment attribute` prints one row per domain in order; `segment mark` steers
/// it; `segment list` reads the store without the service; a bad feature is a usage error
/// that sends nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_segmentation_is_bought_once_then_shown_attributed_and_marked() {
    let sb = start(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let c0 = client(&sb, RICH);
    let mut domains = Vec::new();
    for industry in ["Software Development", "Hospitals and Health Care"] {
        domains.extend(
            support::company_domains(
                &c0,
                json!({"size": 12, "companiesFilters": {"industries": {"industries": [industry]}}}),
            )
            .await,
        );
    }
    let file = dir.path().join("customers.txt");
    std::fs::write(&file, domains.join("\n")).unwrap();
    let port = free_port();
    let before = standard(&c0).await.0;
    let seg = |args: &[&str]| {
        let mut c = prospect(&sb, RICH, dir.path(), port);
        c.arg("segment").args(args);
        c
    };
    let go = |c| async move { tokio::task::spawn_blocking(move || run(c)).await.unwrap() };

    let (code, out, err) = go(seg(&[
        "create",
        "--file",
        file.to_str().unwrap(),
        "--dry-run",
        "--format",
        "json",
    ]))
    .await;
    assert_eq!(code, 0, "{err}");
    let plan: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (plan["asked"].clone(), plan["toBuy"].clone()),
        (json!(24), json!(24))
    );
    assert_eq!(plan["cost"]["standard"], json!(2.4));

    let (code, out, err) = go(seg(&[
        "create",
        "--file",
        file.to_str().unwrap(),
        "--wait",
        "60",
        "--max-credits",
        "10",
    ]))
    .await;
    assert_eq!(code, 0, "{err}");
    let segments: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(segments.len() >= 2, "{out}");
    let total: i64 = segments
        .iter()
        .map(|s| s["companyCount"].as_i64().unwrap())
        .sum();
    assert_eq!(total, 24);
    assert!(
        (before - standard(&c0).await.0 - 2.4).abs() < 1e-9,
        "charged 2.4 once"
    );
    let before = standard(&c0).await.0;

    // The same customers, reversed and one repeated: owned.
    let mut again = domains.clone();
    again.reverse();
    again.push(domains[0].to_uppercase());
    let (code, out, err) = go(seg(&[
        "create",
        "--domains",
        &again.join(","),
        "--format",
        "json",
    ]))
    .await;
    assert_eq!(code, 0, "{err}");
    let pair: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(pair["charged"], json!(0.0), "{pair}");
    assert!(pair["storedAt"].is_string());
    let id = pair["segmentationId"].as_i64().unwrap().to_string();
    assert_eq!(
        standard(&c0).await.0,
        before,
        "nothing charged the second time"
    );

    let (code, out, err) = go(seg(&["show", &id, "--format", "jsonl"])).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), segments.len());

    let member = domains[0].clone();
    let (code, out, err) = go(seg(&["attribute", &id, &member, "no-such-company-zz.com"])).await;
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["domain"], member.as_str());
    assert!(rows[0]["segmentId"].is_i64(), "{out}");
    assert_eq!(rows[1]["segmentId"], Value::Null);

    let (code, _, err) = go(seg(&["mark", &id, "--negative", &member])).await;
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = go(seg(&["attribute", &id, &member])).await;
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("\"segmentId\":null"),
        "a negative mark unattributes it: {out}"
    );

    let (code, out, err) = go(seg(&["list", "--format", "jsonl"])).await;
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("SUCCESSFUL"), "{out}");

    let (code, _, err) = go(seg(&[
        "create",
        "--domains",
        "a.com",
        "--features",
        "bogus",
    ]))
    .await;
    assert_eq!(code, 2, "a usage error: {err}");
    assert!(err.contains("bogus") && err.lines().count() == 1, "{err}");
    assert_eq!(standard(&c0).await.0, before);
    sb.shutdown().await;
}
