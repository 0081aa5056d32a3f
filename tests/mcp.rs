//! Issue 36: `prospect mcp` driven by a real MCP client, the official Python SDK
//! (`tests/mcp/client.py`), over stdio, on the embedded sandbox with a fresh store. The SDK is
//! installed from PyPI into `target/mcp-venv` the first time (pinned).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The pinned version of the Python SDK.
const MCP_SDK: &str = "mcp==2.3.0";

/// The venv's python with the SDK, installed when missing.
fn python() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    let venv = target.join("mcp-venv");
    let py = venv.join("bin/python");
    let has = Command::new(&py)
        .args(["-c", "import mcp"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has {
        let ok = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .expect("python3 runs")
            .success();
        assert!(ok, "python3 -m venv {}", venv.display());
        let ok = Command::new(venv.join("bin/pip"))
            .args(["install", "--quiet", "--disable-pip-version-check", MCP_SDK])
            .status()
            .expect("pip runs")
            .success();
        assert!(ok, "pip install {MCP_SDK}");
    }
    py
}

/// Lists the tools, plans and confirms a paid search, checks the session cap, the store's
/// answers at 0 credits, a resource, progress, and a reveal awaited through the receiver.
#[test]
fn an_mcp_client_plans_confirms_and_cannot_overspend() {
    let py = python();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = Command::new(py)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/client.py"))
        .arg(assert_cmd::cargo::cargo_bin!("prospect"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", d)
        .env("XDG_CONFIG_HOME", d.join(".config"))
        .env("XDG_DATA_HOME", d.join(".local/share"))
        .output()
        .expect("the client runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("all checks passed"),
        "{stdout}\n{stderr}"
    );
}
