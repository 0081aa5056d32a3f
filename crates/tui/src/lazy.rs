//! Start-up without a blank terminal (issue 8, "Start-up"): the explorer draws its first
//! screen at once while the embedded sandbox loads behind it. [`LazyBackend`] answers calls
//! once the service is there (the first calls, reference data and balance, simply take longer)
//! and [`Connected`] tells the view the service's address when it is known. Webhook deliveries
//! are passed on from the session's receiver once it runs.
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use futures::FutureExt;
use futures::future::Shared;

use tokio::sync::broadcast;

use prospect_core::webhooks::Delivery;

use super::backend::{Backend, BoxFuture, Progress, SessionBackend};
use super::msg::{ApiFailure, Call, Outcome};

/// How many webhook deliveries wait for the loop before the oldest are dropped (they are
/// stored all the same).
const DELIVERY_BUFFER: usize = 256;

/// The service's base URL once it is known (shared by the loader and the state owner).
pub type Connected = Arc<OnceLock<String>>;

type Ready = Shared<BoxFuture<Result<Arc<SessionBackend>, String>>>;

/// A backend whose session is still being made (e.g. the embedded sandbox loading its
/// dataset): every call waits for it, then goes through it. If it could not be made, every
/// call fails with the reason in plain words.
pub struct LazyBackend {
    ready: Ready,
    timeout: Duration,
    /// Deliveries of the session's receiver, passed on once it runs.
    deliveries: broadcast::Sender<Delivery>,
}

impl LazyBackend {
    /// Starts making the session with `make` (spawned at once on the runtime, so it loads
    /// while the first frame is drawn); `connected` gets the base URL when it is up.
    pub fn spawn(
        make: BoxFuture<anyhow::Result<SessionBackend>>,
        base_url_of: fn(&SessionBackend) -> String,
        connected: Connected,
    ) -> LazyBackend {
        let (deliveries, _) = broadcast::channel(DELIVERY_BUFFER);
        let forward = deliveries.clone();
        let fut: BoxFuture<Result<Arc<SessionBackend>, String>> = Box::pin(async move {
            match make.await {
                Ok(b) => {
                    let _ = connected.set(base_url_of(&b));
                    if let Some(mut rx) = b.deliveries() {
                        tokio::spawn(async move {
                            loop {
                                match rx.recv().await {
                                    Ok(d) => {
                                        let _ = forward.send(d);
                                    }
                                    Err(broadcast::error::RecvError::Lagged(n)) => {
                                        tracing::warn!(
                                            missed = n,
                                            "deliveries not passed on (stored)"
                                        );
                                    }
                                    Err(broadcast::error::RecvError::Closed) => break,
                                }
                            }
                        });
                    }
                    Ok(Arc::new(b))
                }
                Err(e) => {
                    tracing::error!(error = %format!("{e:#}"), "the service did not start");
                    Err(format!("the sandbox did not start: {e}"))
                }
            }
        });
        let ready = fut.shared();
        tokio::spawn(ready.clone());
        LazyBackend {
            ready,
            timeout: Duration::from_secs(30),
            deliveries,
        }
    }
}

impl Backend for LazyBackend {
    fn call_streamed(
        &self,
        call: Call,
        progress: Progress,
    ) -> BoxFuture<Result<Outcome, ApiFailure>> {
        let ready = self.ready.clone();
        Box::pin(async move {
            let b = ready.await.map_err(|e| ApiFailure::other(&e))?;
            b.call_streamed(call, progress).await
        })
    }

    fn deliveries(&self) -> Option<broadcast::Receiver<Delivery>> {
        Some(self.deliveries.subscribe())
    }

    fn timeout(&self) -> Duration {
        match self.ready.peek() {
            Some(Ok(b)) => b.timeout(),
            _ => self.timeout,
        }
    }

    fn stop_waits(&self) {
        if let Some(Ok(b)) = self.ready.peek() {
            b.stop_waits();
        }
    }
}
