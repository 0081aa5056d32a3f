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
    let list = dir.path().join("domains.txt");
    write_lines(&list, &domains);
    proxy.script([Fault::Rename("=HYPERLINK(\"http://x.example\",\"click\")")]);
    let (code, out, err) = run(prospect(
        &proxy.base_url,
        dir.path(),
        &[
            "lookup",
            "companies",
            "--file",
            list.to_str().unwrap(),
            "--format",
            "csv",
        ],
    ))
    .await;
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
    let (code, out, err) = run(prospect(
        &proxy.base_url,
        dir.path(),
        &[
            "lookup",
            "companies",
            "--file",
            list.to_str().unwrap(),
            "--format",
            "jsonl",
        ],
    ))
    .await;
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"=HYPERLINK("), "{out}");

    // The store's companies for HubSpot: its column names, one row a domain, defused too.
    let (code, out, err) = run(prospect(
        &proxy.base_url,
        dir.path(),
        &["export", "companies", "--preset", "hubspot-companies"],
    ))
    .await;
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
