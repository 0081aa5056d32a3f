//! Helpers shared by the benchmarks that run the real binary or a server (each bench includes
//! this file with `#[path]`; not every bench uses every helper).
#![allow(dead_code)]

/// The process allocator of the binary, mimalloc, so figures match `prospect`'s own.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// A free TCP port of 127.0.0.1 (free when asked; a server binds it right after).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Runs `c` to the end, sampling its peak resident memory (`VmHWM`) every millisecond;
/// returns (wall time, peak RSS in MB). Panics when the command fails.
pub fn run_measured(c: Command) -> (Duration, f64) {
    let (t, peak, _) = run_measured_io(c);
    (t, peak)
}

/// [`run_measured`] that also samples the bytes the process has written to storage
/// (`write_bytes` of `/proc/<pid>/io`, its files and the store's log and checkpoints, the
/// last sample before it exits): (wall time, peak RSS in MB, bytes written).
pub fn run_measured_io(c: Command) -> (Duration, f64, u64) {
    let m = run_measured_all(c);
    (m.wall, m.peak_mb, m.written)
}

/// What [`run_measured_all`] samples of one run of a command.
#[derive(Debug, Clone, Copy, Default)]
pub struct Measured {
    /// Wall time from spawn to exit.
    pub wall: Duration,
    /// Peak resident memory (`VmHWM`), MB.
    pub peak_mb: f64,
    /// Bytes written to storage (`write_bytes`), the last sample before it exits.
    pub written: u64,
    /// CPU time of all its threads, user and system, seconds (`utime` + `stime` of
    /// `/proc/<pid>/stat`, the last sample before it exits: at most a millisecond and one
    /// clock tick short).
    pub cpu: f64,
}

/// Clock ticks per second of `/proc/<pid>/stat` (`USER_HZ`, 100 on Linux).
const USER_HZ: f64 = 100.0;

/// CPU seconds (user + system, all threads) of the process whose `/proc/<pid>/stat` is
/// `stat`; `None` when it cannot be read.
pub fn cpu_of(stat: &str) -> Option<f64> {
    let text = std::fs::read_to_string(stat).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let rest = &text[text.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (state): utime and stime are fields 14 and 15.
    let ticks = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / USER_HZ)
}

/// CPU seconds this process has used so far (all its threads), for a client run in-process.
pub fn self_cpu() -> f64 {
    cpu_of("/proc/self/stat").unwrap_or(0.0)
}

/// Runs `c` to the end, sampling every millisecond its peak memory, bytes written and CPU
/// time ([`Measured`]). Panics when the command fails.
pub fn run_measured_all(mut c: Command) -> Measured {
    let t = Instant::now();
    let mut child = c.spawn().expect("prospect runs");
    let status_file = PathBuf::from(format!("/proc/{}/status", child.id()));
    let io_file = PathBuf::from(format!("/proc/{}/io", child.id()));
    let stat_file = format!("/proc/{}/stat", child.id());
    let (mut peak_kb, mut written, mut cpu) = (0u64, 0u64, 0f64);
    loop {
        let field = |file: &PathBuf, name: &str| {
            std::fs::read_to_string(file).ok().and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with(name))
                    .and_then(|l| l.split_whitespace().nth(1))
                    .and_then(|n| n.parse::<u64>().ok())
            })
        };
        if let Some(kb) = field(&status_file, "VmHWM:") {
            peak_kb = peak_kb.max(kb);
        }
        if let Some(b) = field(&io_file, "write_bytes:") {
            written = written.max(b);
        }
        if let Some(s) = cpu_of(&stat_file) {
            cpu = cpu.max(s);
        }
        if let Some(st) = child.try_wait().expect("wait") {
            assert!(st.success(), "prospect failed: {st}");
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    Measured {
        wall: t.elapsed(),
        peak_mb: peak_kb as f64 / 1024.0,
        written,
        cpu,
    }
}

/// Well-known domains whose pairs seed the varied lookalike searches of the `sandbox` and
/// `sandbox_http` benches (the same 40 as the wrk script of stop 29's note).
pub const LOOKALIKE_SEEDS: [&str; 40] = [
    "stripe.com",
    "shopify.com",
    "zendesk.com",
    "hubspot.com",
    "atlassian.com",
    "slack.com",
    "dropbox.com",
    "figma.com",
    "airbnb.com",
    "uber.com",
    "spotify.com",
    "netflix.com",
    "adobe.com",
    "salesforce.com",
    "twilio.com",
    "google.com",
    "microsoft.com",
    "apple.com",
    "amazon.com",
    "ibm.com",
    "oracle.com",
    "sap.com",
    "intel.com",
    "cisco.com",
    "paypal.com",
    "ebay.com",
    "etsy.com",
    "zoom.us",
    "github.com",
    "gitlab.com",
    "datadoghq.com",
    "snowflake.com",
    "mongodb.com",
    "elastic.co",
    "cloudflare.com",
    "okta.com",
    "box.com",
    "asana.com",
    "canva.com",
    "docusign.com",
];
