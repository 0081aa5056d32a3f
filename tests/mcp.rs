//! Issue 36: `prospect mcp` driven by a real MCP client, the official Python SDK
//! (`tests/mcp/client.py`), over stdio, on the embedded sandbox with a fresh store. The SDK is
//! installed from PyPI into `target/mcp-venv` the first time (pinned).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The pinned version of the Python SDK.
const MCP_SDK: &str = "mcp==2.3.0";

/// The venv's python with the SDK, installed once per test binary when missing. The tests of
/// this file run in parallel threads, so the install is behind a `OnceLock`; it is built in a
/// directory of its own and renamed into place, so a run in another process never sees half.
fn python() -> PathBuf {
    static PYTHON: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    PYTHON.get_or_init(install).clone()
}

/// Whether `py` runs and imports the SDK.
fn has_sdk(py: &Path) -> bool {
    Command::new(py)
        .args(["-c", "import mcp"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Installs the pinned SDK into `target/mcp-venv` unless it is there; returns its python.
fn install() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    let venv = target.join("mcp-venv");
    let py = venv.join("bin/python");
    if has_sdk(&py) {
        return py;
    }
    let _ = std::fs::remove_dir_all(&venv);
    let building = target.join(format!("mcp-venv.{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&building);
    let ok = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&building)
        .status()
        .expect("python3 runs")
        .success();
    assert!(ok, "python3 -m venv {}", building.display());
    let ok = Command::new(building.join("bin/pip"))
        .args(["install", "--quiet", "--disable-pip-version-check", MCP_SDK])
        .status()
        .expect("pip runs")
        .success();
    assert!(ok, "pip install {MCP_SDK}");
    if std::fs::rename(&building, &venv).is_err() {
        // Another process put its venv in place first; use that one.
        let _ = std::fs::remove_dir_all(&building);
    }
    assert!(has_sdk(&py), "the SDK imports from {}", venv.display());
    py
}

/// Runs the client's scenario `which` against the binary; fails with its output.
fn client(which: &str) {
    client_with(which, None)
}

/// [`client`], its servers that share a store on `store_url` when given.
fn client_with(which: &str, store_url: Option<String>) {
    let py = python();
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(py);
    if let Some(url) = store_url {
        cmd.env("MCP_TEST_STORE_URL", url);
    }
    let out = cmd
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/client.py"))
        .arg(assert_cmd::cargo::cargo_bin!("prospect"))
        .arg(dir.path())
        .arg(which)
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .output()
        .expect("the client runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}");
    assert!(
        out.status.success() && stdout.contains("all checks passed"),
        "{stdout}\n{stderr}"
    );
}

/// Lists the tools (annotations, output schemas, prices) and the resource templates, plans
/// and confirms a paid search, answers owned results at 0, refuses past `--max-credits` and a
/// suppressed domain, reads full records as resources, awaits a reveal charged once, and calls
/// every tool at least once, over stdio.
#[test]
fn an_agent_plans_confirms_and_calls_every_tool() {
    client("every_tool");
}

/// `--max-credits 10`: a 100-company search gets a plan and spends nothing; called again with
/// its plan id and a budget of 10 it buys the first 50 results; the same 50 again spend 0; a
/// 25-row answer is at most 6 KB.
#[test]
fn the_session_never_spends_past_its_cap() {
    client("cap_and_size");
}

/// `--max-credits 10`: 20 rounds of random calls (searches, confirmations with random budgets,
/// autocompletes; one to three at once) never spend past 10 in all.
#[test]
fn random_calls_in_turn_and_at_once_stay_under_the_cap() {
    client("never_past_the_cap");
}

/// A client that offers MCP elicitation is asked to confirm a plan above the call's limit:
/// yes runs it, no refuses it and spends nothing.
#[test]
fn a_client_that_can_ask_its_person_confirms_by_elicitation() {
    client("asks_the_person");
}

/// A cancel during a 3,000-company search keeps what was bought; the same call again buys only
/// the rest: 600 credits in all.
#[test]
fn a_cancelled_search_keeps_what_it_bought() {
    client("cancel");
}

/// Two servers on one store asked for the same 2,000 domains at once pay once; on the team's
/// PostgreSQL store when `PROSPECT_TEST_PG_URL` names a server (`.ci/run`'s second pass).
#[test]
fn two_servers_on_one_store_pay_once() {
    let url = std::env::var("PROSPECT_TEST_PG_URL").ok().map(|server| {
        let db = format!("mcp_{}", std::process::id());
        prospect::store::pg_server::create_database(&server, &db).expect("a database for the test")
    });
    client_with("two_servers", url);
}

/// The README's `mcpServers` config works as written: `prospect` found on PATH, its args, a
/// search on the embedded sandbox.
#[test]
fn the_readme_client_config_works_as_written() {
    client("readme_config");
}

/// The same tools over Streamable HTTP (`--listen`).
#[test]
fn the_tools_answer_over_streamable_http() {
    client("http");
}
