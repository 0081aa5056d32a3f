//! What every handler shares: the [`Call`] extractor (body read or drained, authenticate,
//! limits), engine work off the async threads in slots ([`blocking`]) and typed 200 answers.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::service::accounts::Account;
use crate::service::auth;
use crate::service::error::{Failure, texts};
use crate::service::state::AppState;

pub(super) type St = State<Arc<AppState>>;

/// An authenticated, admitted request with its body read (at most the body limit).
pub(crate) struct Call {
    /// The caller's account.
    pub account: Arc<Account>,
    /// Request headers (content type).
    pub headers: HeaderMap,
    /// The raw body.
    pub body: Bytes,
}

impl FromRequest<Arc<AppState>> for Call {
    type Rejection = Failure;

    async fn from_request(req: Request, state: &Arc<AppState>) -> Result<Self, Failure> {
        let (parts, body) = req.into_parts();
        // The body is read (or drained) before any rejection is answered: a server that answers
        // and closes while the client is still writing makes the client see a broken pipe
        // instead of the 401/429/413 it was sent.
        let declared = parts
            .headers
            .get(axum::http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        let body = read_body(body, declared, state.body_limit).await;
        let account = auth::authenticate(&state.accounts, &parts.headers, &parts.uri)?;
        account.admit()?;
        Ok(Call {
            account,
            headers: parts.headers,
            body: body?,
        })
    }
}

/// Reads a request body of at most `limit` bytes. A larger one (declared or streamed) is read
/// and thrown away (nothing kept) up to [`drain_cap`]`(limit)` bytes, so a client that writes
/// the whole body before reading (Python's `http.client`) can finish writing and read the 413;
/// only a body declared or streamed past that bound is answered at once and the connection let
/// go unread (the client may then see a reset).
///
/// Errors: 413 `Request body too large` above the limit; 400 when the body stream breaks.
pub(super) async fn read_body(
    body: axum::body::Body,
    declared: Option<u64>,
    limit: usize,
) -> Result<Bytes, Failure> {
    use futures::StreamExt;
    let too_large = || Failure::detail(StatusCode::PAYLOAD_TOO_LARGE, texts::TOO_LARGE);
    let drain_cap = drain_cap(limit);
    if declared.is_some_and(|n| n > drain_cap as u64) {
        return Err(too_large());
    }
    let mut over = declared.is_some_and(|n| n > limit as u64);
    let mut buf = Vec::with_capacity(if over {
        0
    } else {
        declared.unwrap_or(0) as usize
    });
    let mut seen = 0usize;
    let mut stream = body.into_data_stream();
    while let Some(chunk) = stream.next().await {
        let chunk =
            chunk.map_err(|_| Failure::detail(StatusCode::BAD_REQUEST, texts::BODY_UNREADABLE))?;
        seen = seen.saturating_add(chunk.len());
        if seen > drain_cap {
            return Err(too_large());
        }
        if !over && seen > limit {
            over = true;
            buf = Vec::new();
        }
        if !over {
            buf.extend_from_slice(&chunk);
        }
    }
    if over {
        Err(too_large())
    } else {
        Ok(Bytes::from(buf))
    }
}

/// Most bytes of a too-large body read and thrown away before the 413: four times the body
/// limit, and at least 64 MiB (about 50 ms of reading on the loopback; nothing is kept).
fn drain_cap(limit: usize) -> usize {
    limit.saturating_mul(4).max(64 << 20)
}

/// The result of a handler: an answer, or the failure it renders.
pub(super) type Answer = Result<Response, Failure>;

/// A 200 with `v` serialized off the async threads (large answers take milliseconds).
pub(super) async fn ok_typed<T: serde::Serialize + Send + 'static>(v: T) -> Answer {
    answer_with(move || Ok(v)).await
}

/// A 200 with the answer `f` builds (engine work, then billing), serialized in the same engine
/// slot ([`blocking`]): a typed answer never waits for a second slot, so at most one per core
/// is alive at a time and a burst of requests holds only their JSON bodies (issue 10, item 6),
/// written in pieces that share the kept records' bytes ([`prospect_api::types::to_pieces`]).
pub(super) async fn answer_with<T: serde::Serialize>(
    f: impl FnOnce() -> Result<T, Failure> + Send + 'static,
) -> Answer {
    let pieces = blocking(move || {
        let v = f()?;
        prospect_api::types::to_pieces(&v).map_err(|e| {
            tracing::error!(error = %e, "cannot serialize an answer");
            Failure::internal()
        })
    })
    .await?;
    Ok((
        [(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/json"),
        )],
        axum::body::Body::new(Pieces::new(pieces)),
    )
        .into_response())
}

/// A response body of JSON pieces ([`prospect_api::types::to_pieces`]): the records' bytes are
/// written from where they are kept, not copied into one buffer first. Its exact length is
/// known (`Content-Length`).
struct Pieces {
    /// The pieces not written yet, in reverse order.
    rest: Vec<bytes::Bytes>,
    /// Bytes not written yet.
    left: u64,
}

impl Pieces {
    fn new(mut pieces: Vec<bytes::Bytes>) -> Pieces {
        pieces.reverse();
        let left = pieces.iter().map(|p| p.len() as u64).sum();
        Pieces { rest: pieces, left }
    }
}

impl http_body::Body for Pieces {
    type Data = bytes::Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<bytes::Bytes>, Self::Error>>> {
        let next = self.rest.pop();
        if let Some(p) = &next {
            self.left -= p.len() as u64;
        }
        std::task::Poll::Ready(next.map(|p| Ok(http_body::Frame::data(p))))
    }

    fn is_end_stream(&self) -> bool {
        self.rest.is_empty()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::SizeHint::with_exact(self.left)
    }
}

/// How many pieces of engine work have ended (for [`collect_when_idle`]).
static WORK_DONE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How often [`collect_when_idle`] looks whether the engine went idle.
const IDLE_CHECK: std::time::Duration = std::time::Duration::from_millis(500);

/// Hands back the memory a burst of engine work freed once the engine is idle (issue 10, item
/// 6), until `stop`: every [`IDLE_CHECK`], when work ended since the last look and none is
/// running now, mimalloc collects ([`prospect_common::alloc::collect`]). Freed memory is otherwise handed
/// back lazily, by the thread that owns it the next time it allocates, so threads a burst used
/// and then left idle kept it; requests that follow each other closely are not slowed.
pub(crate) async fn collect_when_idle(stop: tokio_util::sync::CancellationToken) {
    let mut seen = WORK_DONE.load(std::sync::atomic::Ordering::Relaxed);
    loop {
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = tokio::time::sleep(IDLE_CHECK) => {}
        }
        let done = WORK_DONE.load(std::sync::atomic::Ordering::Relaxed);
        if done != seen && engine_slots().available_permits() == engine_cores() {
            seen = done;
            let _ = tokio::task::spawn_blocking(prospect_common::alloc::collect).await;
        }
    }
}

/// Slots for engine work: as many as the machine has cores. A burst of requests queues for a
/// slot instead of running hundreds of searches (each with its own buffers) at once, which
/// bounds the memory a burst takes (issue 10, item 6) and costs no throughput.
fn engine_slots() -> &'static Arc<tokio::sync::Semaphore> {
    static SLOTS: std::sync::OnceLock<Arc<tokio::sync::Semaphore>> = std::sync::OnceLock::new();
    SLOTS.get_or_init(|| Arc::new(tokio::sync::Semaphore::new(engine_cores())))
}

/// How many pieces of engine work may run at once: the machine's cores (2 when unknown).
fn engine_cores() -> usize {
    std::thread::available_parallelism().map_or(2, usize::from)
}

/// Runs CPU-bound engine work off the async threads, at most one piece per core at a time
/// ([`engine_slots`]; the slot is held until the work ends, even if the request is dropped);
/// a panic there becomes a 500.
pub(super) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, Failure> + Send + 'static,
) -> Result<T, Failure> {
    let slot = engine_slots()
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| Failure::internal())?;
    tokio::task::spawn_blocking(move || {
        let _slot = slot;
        let r = f();
        WORK_DONE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        r
    })
    .await
    .map_err(|_| Failure::internal())?
}
