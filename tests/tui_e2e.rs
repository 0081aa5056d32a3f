//! End to end: the real binary in a pseudo-terminal (portable-pty) with a terminal emulator
//! (vt100) reading its output, against the embedded sandbox. Types a filter with an
//! autocomplete pick, runs the search, pages, opens details, saves a filter set, reopens it,
//! quits, and checks the terminal was restored. Every wait is for screen text, with a timeout.
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

#[path = "sandbox_service/support.rs"]
mod support;

#[path = "support/fault_proxy.rs"]
mod fault_proxy;

#[path = "support/cli_run.rs"]
mod cli_run;

const ROWS: u16 = 40;
const COLS: u16 = 150;
const TIMEOUT: Duration = Duration::from_secs(60);

struct Tui {
    parser: Arc<Mutex<vt100::Parser>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
}

impl Tui {
    fn screen(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    fn wait_until(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if pred(&s) {
                return s;
            }
            if start.elapsed() > TIMEOUT {
                panic!("timed out waiting for {what}; screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    fn wait_for(&self, text: &str) -> String {
        self.wait_until(text, |s| s.contains(text))
    }

    fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).unwrap();
        self.writer.flush().unwrap();
    }

    fn keys(&mut self, s: &str) {
        for b in s.bytes() {
            self.send(&[b]);
        }
    }
}

const ENTER: &[u8] = b"\r";
const ESC: &[u8] = b"\x1b";
const DOWN: &[u8] = b"\x1b[B";
const TAB: &[u8] = b"\t";
const BACKSPACE: &[u8] = b"\x7f";
fn ctrl(c: char) -> Vec<u8> {
    vec![(c as u8) & 0x1f]
}

fn start(home: &std::path::Path) -> Tui {
    start_with(home, &[])
}

/// [`start`] with `env` set for the binary.
fn start_with(home: &std::path::Path, env: &[(&str, &str)]) -> Tui {
    start_with_args(home, env, &[])
}

/// [`start_with`], with `args` on the binary's command line.
fn start_with_args(home: &std::path::Path, env: &[(&str, &str)], args: &[&str]) -> Tui {
    let pty = native_pty_system();
    let pair = pty
        .openpty(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_prospect"));
    cmd.args(args);
    cmd.cwd(home);
    cmd.env("HOME", home);
    cmd.env("XDG_CONFIG_HOME", home.join("config"));
    cmd.env("XDG_STATE_HOME", home.join("state"));
    cmd.env("XDG_DATA_HOME", home.join("data"));
    cmd.env("XDG_CACHE_HOME", home.join("cache"));
    cmd.env("TERM", "xterm-256color");
    cmd.env_remove("PROSPECT_API_TOKEN");
    cmd.env_remove("PROSPECT_BASE_URL");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let writer = pair.master.take_writer().unwrap();
    let parser = Arc::new(Mutex::new(vt100::Parser::new(ROWS, COLS, 0)));
    let p = parser.clone();
    std::thread::spawn(move || {
        // Keep the master alive as long as the reader runs.
        let _master = pair.master;
        let mut buf = [0u8; 8192];
        loop {
            match reader.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => p.lock().unwrap().process(&buf[..n]),
            }
        }
    });
    Tui {
        parser,
        writer,
        child,
    }
}

/// The line right under the editor's input line (`› text`): the first suggestion, if any.
fn first_suggestion(screen: &str, typed: &str) -> Option<String> {
    let lines: Vec<&str> = screen.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.contains(&format!("› {typed}")))?;
    let next = lines.get(i + 1)?;
    // Inside the popup border: "│  suggestion   │"
    let inner = next.split('│').nth(1)?.trim().to_string();
    let placeholder = [
        "…",
        "looking up",
        "type at least",
        "no suggestions",
        "suggestions failed",
    ];
    (!inner.is_empty() && !placeholder.iter().any(|p| inner.starts_with(p))).then_some(inner)
}

#[test]
fn explore_the_sandbox_end_to_end() {
    let home = tempfile::tempdir().unwrap();
    let mut t = start(home.path());
    t.wait_for("SANDBOX");
    // Reference data and balance arrive.
    t.wait_until("the credit balance", |s| {
        s.contains("daily") && s.contains("standard")
    });

    // A smaller page so there are several pages: find "size", replace 25 by 5.
    t.keys("/");
    t.wait_for("Find a filter member");
    t.keys("size");
    t.send(ENTER);
    t.wait_for("empty clears");
    t.send(BACKSPACE);
    t.send(BACKSPACE);
    t.keys("5");
    t.send(ENTER);
    t.wait_until("size 5", |s| {
        s.lines().any(|l| l.contains("Results per page 5"))
    });

    // A keyword with an autocomplete pick.
    t.keys("/");
    t.wait_for("Find a filter member");
    t.keys("keywords.anyOf");
    t.send(ENTER);
    t.wait_for("suggestions: /v2/autocomplete/keywords");
    t.keys("soft");
    let screen = t.wait_until("a keyword suggestion", |s| {
        first_suggestion(s, "soft").is_some()
    });
    let pick = first_suggestion(&screen, "soft").unwrap();
    t.send(DOWN);
    t.send(ENTER);
    t.send(ESC);
    t.wait_until("the picked keyword in the form", |s| {
        s.lines()
            .map(|l| l.split("││").next().unwrap_or(l))
            .any(|l| l.contains("Keywords: any of") && l.contains(&pick))
    });

    // Run the search, page forward and back, open details.
    t.send(&ctrl('r'));
    t.wait_for("rows 1–5 of");
    t.keys("n");
    t.wait_for("rows 6–10 of");
    t.keys("p");
    t.wait_for("rows 1–5 of");
    t.send(ENTER);
    t.wait_for("Overview");
    t.wait_for("[details]");

    // Save the filter set.
    t.send(&ctrl('s'));
    t.wait_for("Save filter set as");
    t.keys("e2e set");
    t.send(ENTER);
    t.wait_for("Saved filter set e2e set");
    let file = home.path().join("config/prospect/filters/e2e set.json");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved["endpoint"], "/v3/search/companies");
    assert_eq!(saved["size"], 5);
    assert_eq!(
        saved["companiesFilters"]["keywords"]["anyOf"][0]
            .as_str()
            .map(|s| pick.contains(s)),
        Some(true),
        "{saved}"
    );

    // Clear the form, then reopen the set.
    t.send(TAB);
    t.wait_for("[filters]");
    t.keys("X");
    t.wait_for("Cleared every filter member");
    t.wait_until("an empty form", |s| {
        !s.lines()
            .map(|l| l.split("││").next().unwrap_or(l))
            .any(|l| l.contains("Keywords: any of") && l.contains(&pick))
    });
    t.send(&ctrl('o'));
    t.wait_for("Filter sets");
    t.send(ENTER);
    t.wait_for("Opened filter set e2e set");
    t.wait_until("the keyword back in the form", |s| {
        s.lines()
            .map(|l| l.split("││").next().unwrap_or(l))
            .any(|l| l.contains("Keywords: any of") && l.contains(&pick))
    });

    // Quit: the alternate screen is left and the process exits cleanly.
    t.keys("q");
    let start = Instant::now();
    let status = loop {
        if let Some(st) = t.child.try_wait().unwrap() {
            break st;
        }
        assert!(start.elapsed() < TIMEOUT, "prospect did not exit");
        std::thread::sleep(Duration::from_millis(25));
    };
    assert!(status.success(), "exit status {status:?}");
    let restored = Instant::now();
    loop {
        let alt = t.parser.lock().unwrap().screen().alternate_screen();
        if !alt {
            break;
        }
        assert!(
            restored.elapsed() < Duration::from_secs(5),
            "terminal still on the alternate screen"
        );
        std::thread::sleep(Duration::from_millis(25));
    }
    // A log file was written to the state directory, and it holds no token.
    let log = std::fs::read_to_string(home.path().join("state/prospect/prospect.log"))
        .unwrap_or_default();
    assert!(log.contains("starting explorer"), "log: {log}");
}

/// The `domain:` line of the details pane, if shown.
fn details_domain(screen: &str) -> Option<String> {
    screen.lines().find_map(|l| {
        let i = l.find("domain: ")?;
        let rest = &l[i + "domain: ".len()..];
        let d: String = rest
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '│')
            .collect();
        (!d.is_empty()).then_some(d)
    })
}

/// Issue 8 on the real binary: people at one company, mark two, reveal their emails and see
/// the addresses arrive in the table by webhook; reveal again from the store at 0 credits;
/// look up a pasted list of 5 domains (one unknown: "not found"); enrich the unknown one: it
/// goes pending, then arrives in place.
#[test]
fn reveal_lookup_and_enrich_end_to_end() {
    let home = tempfile::tempdir().unwrap();
    let mut t = start(home.path());
    t.wait_for("SANDBOX");
    t.wait_until("the credit balance", |s| {
        s.contains("daily") && s.contains("standard")
    });

    // Four known domains, read from the details of the first four companies.
    t.send(&ctrl('r'));
    t.wait_for("rows 1–");
    let mut known: Vec<String> = Vec::new();
    for i in 0..4 {
        let s = t.wait_until("a domain in the details", |s| {
            details_domain(s).is_some_and(|d| !known.contains(&d))
        });
        known.push(details_domain(&s).unwrap());
        if i < 3 {
            t.keys("j");
        }
    }
    t.keys("g");

    // People at the first company; mark two; reveal their emails.
    t.keys("P");
    t.wait_until("people at the company", |s| {
        s.contains("email / phone") && s.contains("rows 1–")
    });
    t.keys("  ");
    t.wait_for("2 marked");
    t.keys("r");
    t.wait_for("Reveal of 2 emails sent");
    let s = t.wait_for("2 emails arrived, 2 shown in the table");
    let filled = s
        .lines()
        .filter(|l| l.contains('●') && (l.contains('@') || l.contains("not found")))
        .count();
    assert_eq!(filled, 2, "both marked rows filled:\n{s}");

    // Again: from the store, nothing spent.
    t.keys("r");
    t.wait_for("2 emails from the store, revealed just now · 0 credits");

    // Look up a pasted list of 5 domains, one unknown.
    t.send(&ctrl('l'));
    t.wait_for("Look up people");
    t.send(TAB);
    t.wait_for("Look up companies");
    let list = format!(
        "{}\n{}, {}\n{} unknown-e2e-prospect.com\n",
        known[0], known[1], known[2], known[3]
    );
    t.send(format!("\x1b[200~{list}\x1b[201~").as_bytes());
    t.wait_for("5 domains");
    t.send(ENTER);
    let s = t.wait_for("Lookup: 4 found, 1 not found");
    assert!(s.contains("not found"), "{s}");

    // Enrich the unknown one: pending, then arrived in place.
    t.keys("G");
    t.wait_until("the unknown row selected", |s| {
        details_domain(s).as_deref() == Some("unknown-e2e-prospect.com")
    });
    t.keys("E");
    t.wait_for("trying again by itself");
    t.wait_for("Enriched unknown-e2e-prospect.com");
    t.keys("a");
    let s = t.wait_for("Activity: jobs, webhook deliveries, purchases");
    assert!(s.contains("reveal_emails"), "{s}");
    assert!(s.contains("enrich unknown-e2e-prospect.com"), "{s}");
    // The store's purchases, each with who bought it (issue 17), read from the real store.
    let s = t.wait_for("In the store: the last purchases, by whom");
    assert!(!s.contains("not read:"), "{s}");
    t.send(ESC);
    // (Esc and q sent together would read as Alt-q.)
    t.wait_until("the activity pane closed", |s| {
        !s.contains("Activity: jobs, webhook deliveries, purchases")
    });
    // The filters were never saved: q asks first (issue 19), a second q quits.
    t.keys("q");
    t.wait_for("have changes not in a saved set");
    t.keys("q");
    let start = Instant::now();
    while t.child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < TIMEOUT, "prospect did not exit");
        std::thread::sleep(Duration::from_millis(25));
    }
    // Every paid action of the explorer was a job (issue 35), each done.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_prospect"))
        .args(["jobs", "--all", "--format", "jsonl"])
        .env_clear()
        .env("HOME", home.path())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_STATE_HOME", home.path().join("state"))
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env("XDG_CACHE_HOME", home.path().join("cache"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let jobs: Vec<(String, String)> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        // One record with real fields per job (issue 38), not a {key, value} pair.
        .inspect(|j| assert!(j.get("value").is_none() && j.get("id").is_some(), "{j}"))
        .map(|j| {
            (
                j["kind"].as_str().unwrap_or_default().to_string(),
                j["state"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    for kind in ["reveal_emails", "lookup_companies", "enrich_company"] {
        assert!(
            jobs.iter().any(|(k, s)| k == kind && s == "done"),
            "{kind} is a done job: {jobs:?}"
        );
    }
}

/// `NO_COLOR=1` (issue 19, "Themes"): the real binary draws its screen without one colour;
/// every cell the terminal shows has its default foreground and background.
#[test]
fn no_color_draws_without_colour_end_to_end() {
    let home = tempfile::tempdir().unwrap();
    let mut t = start_with(home.path(), &[("NO_COLOR", "1")]);
    t.wait_for("SANDBOX");
    t.wait_until("the credit balance", |s| {
        s.contains("daily") && s.contains("standard")
    });
    t.send(DOWN);
    std::thread::sleep(Duration::from_millis(200));
    {
        let parser = t.parser.lock().unwrap();
        let screen = parser.screen();
        let mut coloured = Vec::new();
        let mut reversed = 0;
        for r in 0..ROWS {
            for c in 0..COLS {
                if let Some(cell) = screen.cell(r, c) {
                    if cell.fgcolor() != vt100::Color::Default
                        || cell.bgcolor() != vt100::Color::Default
                    {
                        coloured.push((r, c));
                    }
                    reversed += usize::from(cell.inverse());
                }
            }
        }
        assert!(coloured.is_empty(), "cells with a colour: {coloured:?}");
        assert!(reversed > 0, "the selection and badges are reversed");
    }
    t.keys("q");
    let _ = t.child.wait();
}

/// SIGHUP (the terminal went away) while a search waits for the per-minute allowance (issue
/// 34): the explorer stops waiting and the process ends within seconds, terminal restored.
#[test]
fn sighup_ends_an_explorer_waiting_for_the_allowance() {
    use prospect::sandbox::service::accounts::{AccountSpec, PoolSpec};
    let rt = tokio::runtime::Runtime::new().unwrap();
    let account = AccountSpec {
        token: "slow-token".into(),
        credits: Some(PoolSpec::one_time(1e6)),
        rate_per_minute: Some(2),
        ..AccountSpec::default()
    };
    let config = prospect::sandbox::service::SandboxConfig {
        accounts: vec![account],
        rate_per_minute: 10_000,
        daily_limit: 100_000,
        ..Default::default()
    };
    let sb = rt
        .block_on(prospect::sandbox::service::spawn(config))
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let mut t = start_with(
        home.path(),
        &[
            ("PROSPECT_API_TOKEN", "slow-token"),
            ("PROSPECT_BASE_URL", sb.base_url.as_str()),
        ],
    );
    t.wait_for("Filters");
    // Reference data and the balance take the minute's two requests; the search then waits.
    std::thread::sleep(Duration::from_millis(1500));
    // The first search is refused (429) and counted down; the second waits in the client for
    // the minute to pass: a paid call on its way when the terminal goes.
    t.send(&ctrl('r'));
    std::thread::sleep(Duration::from_millis(1000));
    t.send(&ctrl('r'));
    std::thread::sleep(Duration::from_millis(1000));
    let pid = t.child.process_id().expect("a pid");
    let hup = std::process::Command::new("kill")
        .args(["-HUP", &pid.to_string()])
        .status()
        .unwrap();
    assert!(hup.success());
    let t0 = Instant::now();
    loop {
        if t.child.try_wait().unwrap().is_some() {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "still running {:?} after SIGHUP; screen:\n{}",
            t0.elapsed(),
            t.screen()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(rt);
}

#[path = "tui_e2e/resume.rs"]
mod resume;
