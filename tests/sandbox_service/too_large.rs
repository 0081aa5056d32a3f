//! The 413 answer (issue 10, item 9): a client that writes the whole body before reading (as
//! Python's `http.client` does) reads the 413 `Request body too large`, not a broken pipe or a
//! reset, because the sandbox reads and discards an oversized body up to a bound before it
//! answers. Tested with a raw TCP client, so nothing reads early on the client's behalf.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use crate::support::*;
use serde_json::Value;

/// How the raw client frames the body.
#[derive(Clone, Copy, Debug)]
enum Framing {
    /// `Content-Length: n`.
    Length,
    /// `Transfer-Encoding: chunked`, in 64 KiB chunks.
    Chunked,
}

/// Writes a POST with a JSON body of `size` bytes to `path` (token `token` when given), all of
/// it, and only then reads the whole answer: `(status, JSON body)`, or the I/O error met.
fn write_all_then_read(
    addr: SocketAddr,
    path: &str,
    token: Option<&str>,
    size: usize,
    framing: Framing,
) -> std::io::Result<(u16, Value)> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(30)))?;
    s.set_write_timeout(Some(Duration::from_secs(30)))?;
    // {"domains":["a.com","a.com",...,"x.com"]} of about `size` bytes
    let head = b"{\"domains\":[";
    let item = b"\"a.com\",";
    let tail = b"\"x.com\"]}";
    let n = (size - head.len() - tail.len()) / item.len();
    let mut body = Vec::with_capacity(size);
    body.extend_from_slice(head);
    for _ in 0..n {
        body.extend_from_slice(item);
    }
    body.extend_from_slice(tail);
    let mut req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nConnection: close\r\n"
    );
    if let Some(t) = token {
        req.push_str(&format!("x-api-token: {t}\r\n"));
    }
    match framing {
        Framing::Length => req.push_str(&format!("Content-Length: {}\r\n\r\n", body.len())),
        Framing::Chunked => req.push_str("Transfer-Encoding: chunked\r\n\r\n"),
    }
    s.write_all(req.as_bytes())?;
    match framing {
        Framing::Length => s.write_all(&body)?,
        Framing::Chunked => {
            for c in body.chunks(64 * 1024) {
                s.write_all(format!("{:x}\r\n", c.len()).as_bytes())?;
                s.write_all(c)?;
                s.write_all(b"\r\n")?;
            }
            s.write_all(b"0\r\n\r\n")?;
        }
    }
    s.flush()?;
    let mut answer = Vec::new();
    s.read_to_end(&mut answer)?;
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let json = text
        .split_once("\r\n\r\n")
        .and_then(|(_, b)| serde_json::from_str(b.trim()).ok())
        .unwrap_or(Value::Null);
    Ok((status, json))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_bodies_written_whole_get_the_413() {
    let h = start(vec![]).await;
    let addr = h.addr;
    // The body limit is 2 MiB; 3 MiB is just above it, 16 and 48 MiB far above it (the bound
    // of what is read and thrown away is 64 MiB).
    let cases = [
        (3usize << 20, Framing::Length, Some(RICH), 413),
        (3 << 20, Framing::Chunked, Some(RICH), 413),
        (16 << 20, Framing::Length, Some(RICH), 413),
        (16 << 20, Framing::Chunked, Some(RICH), 413),
        (48 << 20, Framing::Length, Some(RICH), 413),
        // no token: the 403 comes through the same way
        (16 << 20, Framing::Length, None, 403),
    ];
    for (size, framing, token, want) in cases {
        let got = tokio::task::spawn_blocking(move || {
            write_all_then_read(addr, "/v2/lookup/companies", token, size, framing)
        })
        .await
        .unwrap();
        let what = format!("{} MiB, {framing:?}, token {}", size >> 20, token.is_some());
        let (status, v) = got.unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(status, want, "{what}: {v}");
        if want == 413 {
            assert_eq!(v["detail"], "Request body too large", "{what}");
        }
    }
    // and the sandbox still answers
    assert!(client(&h, RICH).credit_balance().await.is_ok());
    h.shutdown().await;
}
