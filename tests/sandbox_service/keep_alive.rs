//! Keep-alive after a refusal (issue 38, item 13): a client that pools its connections (as
//! Python's `http.client` and every HTTP library do) sends its next request on the connection
//! that carried a 405 or a 413. The sandbox reads (or drains) the refused request's body first,
//! so that connection stays usable, or says `Connection: close` when it cannot; either way the
//! next request succeeds. Tested with a raw TCP client, so nothing is retried on its behalf.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use crate::support::*;

/// One answer read off a kept-alive connection: its status and whether it said
/// `Connection: close`.
fn read_answer(r: &mut BufReader<TcpStream>) -> std::io::Result<(u16, bool)> {
    let mut line = String::new();
    if r.read_line(&mut line)? == 0 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "the connection was closed",
        ));
    }
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let (mut length, mut close, mut chunked) = (0usize, false, false);
    loop {
        let mut h = String::new();
        r.read_line(&mut h)?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (name, value) = h.split_once(':').unwrap_or((h, ""));
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().unwrap_or(0),
            "connection" => close = value.trim().eq_ignore_ascii_case("close"),
            "transfer-encoding" => chunked = value.contains("chunked"),
            _ => {}
        }
    }
    if chunked {
        loop {
            let mut size = String::new();
            r.read_line(&mut size)?;
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk)?;
            if n == 0 {
                break;
            }
        }
    } else {
        let mut body = vec![0; length];
        r.read_exact(&mut body)?;
    }
    Ok((status, close))
}

/// Sends `method path` with a body of `size` bytes on `s`, then reads its answer.
fn send(
    s: &mut TcpStream,
    r: &mut BufReader<TcpStream>,
    addr: SocketAddr,
    method: &str,
    path: &str,
    size: usize,
) -> std::io::Result<(u16, bool)> {
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nx-api-token: {RICH}\r\n\
         Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n"
    );
    s.write_all(head.as_bytes())?;
    let mut body = vec![b' '; size];
    if size >= 2 {
        body[0] = b'{';
        body[size - 1] = b'}';
    }
    s.write_all(&body)?;
    s.flush()?;
    read_answer(r)
}

/// A refused request of `size` bytes to `method path` answered `want`; the next request goes
/// on the same connection unless the answer said `Connection: close`, and succeeds.
fn refused_then_next(addr: SocketAddr, method: &str, path: &str, size: usize, want: u16) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut r = BufReader::new(s.try_clone().unwrap());
    let (status, close) = send(&mut s, &mut r, addr, method, path, size).unwrap();
    assert_eq!(status, want, "{method} {path}");
    if close {
        s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        r = BufReader::new(s.try_clone().unwrap());
    }
    let next = send(&mut s, &mut r, addr, "POST", "/v2/autocomplete/keywords", 0);
    let next = next.map(|(st, _)| st);
    // An empty body is a 422: what matters is that an answer comes.
    assert!(
        matches!(next, Ok(400..=499) | Ok(200)),
        "after {want}: the next request on a pooled connection: {next:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pooled_connection_is_usable_after_a_405_and_a_413() {
    let sb = start(vec![]).await;
    let addr: SocketAddr = sb.base_url.trim_start_matches("http://").parse().unwrap();
    tokio::task::spawn_blocking(move || {
        refused_then_next(addr, "PUT", "/v2/credits/balance", 100 * 1024, 405);
        refused_then_next(addr, "POST", "/v2/lookup/companies", 3 * 1024 * 1024, 413);
        refused_then_next(addr, "POST", "/v2/nowhere", 100 * 1024, 404);
    })
    .await
    .unwrap();
}
