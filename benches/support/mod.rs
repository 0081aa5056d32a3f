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
pub fn run_measured_io(mut c: Command) -> (Duration, f64, u64) {
    let t = Instant::now();
    let mut child = c.spawn().expect("prospect runs");
    let status_file = PathBuf::from(format!("/proc/{}/status", child.id()));
    let io_file = PathBuf::from(format!("/proc/{}/io", child.id()));
    let (mut peak_kb, mut written) = (0u64, 0u64);
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
        if let Some(st) = child.try_wait().expect("wait") {
            assert!(st.success(), "prospect failed: {st}");
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    (t.elapsed(), peak_kb as f64 / 1024.0, written)
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
