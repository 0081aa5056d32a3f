//! The event loop: one owner of the state, `select!` (biased) over terminal input, task results
//! and timers. It never awaits an API call: calls run on tokio tasks that own their inputs and
//! report back over a channel, tagged with a generation; a new call in a slot aborts the old.
//! It draws only when something changed, after draining what is already queued (a burst of
//! results costs one frame).
use std::collections::HashMap;
use std::io;
use std::sync::Arc;

use crossterm::event::Event;
use std::task::Poll;

use futures::{FutureExt, Stream, StreamExt};
use ratatui::Terminal;
use tokio::sync::mpsc;
use tokio::task::AbortHandle;
use tokio::time::Instant;

use super::app::App;
use super::backend::Backend;
use super::msg::{ApiFailure, Command, Msg, Slot, TimerId};
use super::view;

/// Hooks the loop calls; the real terminal suspends, tests and benches observe frames.
pub trait Hooks<B: ratatui::backend::Backend> {
    /// Called after every frame is drawn.
    fn drawn(&mut self, _terminal: &mut Terminal<B>) {}
    /// Ctrl-Z: restore the terminal, stop, and re-initialize on resume. Default: nothing.
    fn suspend(&mut self, _terminal: &mut Terminal<B>) -> io::Result<()> {
        Ok(())
    }
}

/// Hooks that do nothing.
pub struct NoHooks;
impl<B: ratatui::backend::Backend> Hooks<B> for NoHooks {}

/// Runs background calls and timers for the loop.
pub struct Executor {
    backend: Arc<dyn Backend>,
    tx: mpsc::UnboundedSender<Msg>,
    tasks: HashMap<Slot, AbortHandle>,
    timers: HashMap<TimerId, (Instant, u64)>,
}

impl Executor {
    /// A new executor sending results to `tx`.
    pub fn new(backend: Arc<dyn Backend>, tx: mpsc::UnboundedSender<Msg>) -> Executor {
        Executor {
            backend,
            tx,
            tasks: HashMap::new(),
            timers: HashMap::new(),
        }
    }

    /// Number of calls currently running.
    pub fn in_flight(&self) -> usize {
        self.tasks.values().filter(|h| !h.is_finished()).count()
    }

    /// Carries out commands; returns `true` when the loop should suspend.
    pub fn execute(&mut self, cmds: Vec<Command>) -> bool {
        let mut suspend = false;
        for c in cmds {
            match c {
                Command::Call {
                    slot,
                    generation,
                    call,
                } => {
                    if let Some(h) = self.tasks.remove(&slot) {
                        h.abort();
                    }
                    tracing::debug!(?slot, generation, "call");
                    let backend = self.backend.clone();
                    let tx = self.tx.clone();
                    let handle = tokio::spawn(async move {
                        let result = std::panic::AssertUnwindSafe(backend.call(call))
                            .catch_unwind()
                            .await
                            .unwrap_or_else(|_| {
                                Err(ApiFailure::other(
                                    "internal error while handling the answer (see the log)",
                                ))
                            });
                        if let Err(e) = &result {
                            tracing::info!(?slot, generation, error = %e.message, "call failed");
                        }
                        let _ = tx.send(Msg::Done {
                            slot,
                            generation,
                            result,
                        });
                    });
                    self.tasks.insert(slot, handle.abort_handle());
                }
                Command::Abort(slot) => {
                    if let Some(h) = self.tasks.remove(&slot) {
                        h.abort();
                    }
                }
                Command::Timer {
                    id,
                    after,
                    generation,
                } => {
                    self.timers.insert(id, (Instant::now() + after, generation));
                }
                Command::Quit => {}
                Command::Suspend => suspend = true,
            }
        }
        suspend
    }

    /// The earliest timer deadline.
    fn next_timer(&self) -> Option<(TimerId, Instant, u64)> {
        self.timers
            .iter()
            .min_by_key(|(_, (t, _))| *t)
            .map(|(id, (t, g))| (*id, *t, *g))
    }

    /// Aborts every running call.
    pub fn abort_all(&mut self) {
        for (_, h) in self.tasks.drain() {
            h.abort();
        }
    }
}

/// Turns a terminal event into a message (`None` for events the explorer ignores).
pub fn event_msg(ev: Event) -> Option<Msg> {
    match ev {
        Event::Key(k) => Some(Msg::Key(k)),
        Event::Paste(s) => Some(Msg::Paste(s)),
        Event::Resize(w, h) => Some(Msg::Resize(w, h)),
        Event::FocusGained => Some(Msg::Resumed),
        _ => None,
    }
}

/// Runs the loop until the app quits or `events` ends. `initial` are the commands to run
/// first (usually [`App::start`]).
pub async fn run_loop<B, S, H>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    backend: Arc<dyn Backend>,
    mut events: S,
    initial: Vec<Command>,
    hooks: &mut H,
) -> anyhow::Result<()>
where
    B: ratatui::backend::Backend,
    B::Error: Send + Sync + 'static,
    S: Stream<Item = io::Result<Event>> + Unpin,
    H: Hooks<B>,
{
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut exec = Executor::new(backend, tx);
    let mut pending = initial;
    let mut term_signals = TermSignals::new();
    loop {
        if exec.execute(std::mem::take(&mut pending)) {
            hooks.suspend(terminal)?;
            terminal.clear()?;
            pending.extend(app.update(Msg::Resumed));
            continue;
        }
        if app.quit {
            break;
        }
        // Coalesce: take everything already queued before drawing.
        let mut drained = false;
        for _ in 0..256 {
            if let Ok(m) = rx.try_recv() {
                pending.extend(app.update(m));
                drained = true;
                continue;
            }
            // Polled with this task's own waker (`poll!`), so a pending stream still wakes the loop.
            match futures::poll!(events.next()) {
                Poll::Ready(Some(Ok(ev))) => {
                    if let Some(m) = event_msg(ev) {
                        pending.extend(app.update(m));
                    }
                    drained = true;
                }
                Poll::Ready(Some(Err(e))) => return Err(e.into()),
                Poll::Ready(None) => {
                    app.quit = true;
                    break;
                }
                Poll::Pending => break,
            }
        }
        if drained || !pending.is_empty() {
            continue;
        }
        if app.dirty {
            app.dirty = false;
            terminal.draw(|f| view::draw(f, app))?;
            hooks.drawn(terminal);
        }
        let timer = exec.next_timer();
        let sleep = async {
            match timer {
                Some((_, at, _)) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        let msg = tokio::select! {
            biased;
            ev = events.next() => match ev {
                Some(Ok(ev)) => event_msg(ev),
                Some(Err(e)) => return Err(e.into()),
                None => { app.quit = true; None }
            },
            Some(m) = rx.recv() => Some(m),
            _ = sleep => {
                let (id, _, generation) = timer.expect("sleep only completes with a timer");
                exec.timers.remove(&id);
                Some(Msg::Timer(id, generation))
            }
            _ = term_signals.recv() => { app.quit = true; None }
        };
        if let Some(m) = msg {
            pending.extend(app.update(m));
        }
    }
    exec.abort_all();
    Ok(())
}

/// SIGTERM / SIGHUP: leave the loop so the terminal is restored.
struct TermSignals {
    #[cfg(unix)]
    sigs: Option<(tokio::signal::unix::Signal, tokio::signal::unix::Signal)>,
}

impl TermSignals {
    fn new() -> TermSignals {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let sigs = match (
                signal(SignalKind::terminate()),
                signal(SignalKind::hangup()),
            ) {
                (Ok(a), Ok(b)) => Some((a, b)),
                _ => None,
            };
            TermSignals { sigs }
        }
        #[cfg(not(unix))]
        TermSignals {}
    }

    async fn recv(&mut self) {
        #[cfg(unix)]
        if let Some((a, b)) = &mut self.sigs {
            tokio::select! {
                _ = a.recv() => return,
                _ = b.recv() => return,
            }
        }
        std::future::pending::<()>().await
    }
}
