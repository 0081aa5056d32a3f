//! The event loop: one owner of the state, `select!` (biased) over terminal input, task results
//! and timers. It never awaits an API call: calls run on tokio tasks that own their inputs and
//! report back over a channel, tagged with a generation. A new free call in a slot aborts the
//! old one; a paid call (a search page) is a job with an id that is never aborted once sent:
//! the session stores its answer, and the state owner drops it by generation if it is stale.
//! Quitting waits (bounded by the client timeout) for paid jobs still in flight.
//! It draws only when something changed, after draining what is already queued (a burst of
//! results costs one frame).
use std::collections::HashMap;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use crossterm::event::Event;
use std::task::Poll;

use futures::{FutureExt, Stream, StreamExt};
use ratatui::Terminal;
use tokio::sync::{broadcast, mpsc};
use tokio::task::{AbortHandle, JoinHandle};
use tokio::time::Instant;

use super::app::{App, Status, StatusKind};
use super::backend::Backend;
use super::msg::{ApiFailure, Command, Msg, Slot, TimerId};
use super::view;
use prospect_core::webhooks::Delivery;

/// Hooks the loop calls; the real terminal suspends, tests and benches observe frames.
pub trait Hooks<B: ratatui::backend::Backend> {
    /// Called after every frame is drawn.
    fn drawn(&mut self, _terminal: &mut Terminal<B>) {}
    /// Called after every frame is drawn, with the state it shows (tests observe the gauge).
    fn observe(&mut self, _app: &App) {}
    /// Ctrl-Z: restore the terminal, stop, and re-initialize on resume. Default: nothing.
    fn suspend(&mut self, _terminal: &mut Terminal<B>) -> io::Result<()> {
        Ok(())
    }
    /// Puts `text` on the clipboard, called between frames (so an OSC 52 sequence is never
    /// written inside one). `Ok` says how much went where ("312 bytes (OSC 52)"), `Err` why
    /// nothing was copied. Default: no clipboard.
    fn copy(&mut self, _terminal: &mut Terminal<B>, _text: &str) -> Result<String, String> {
        Err("this front end has no clipboard".into())
    }
}

/// Hooks that do nothing.
pub struct NoHooks;
impl<B: ratatui::backend::Backend> Hooks<B> for NoHooks {}

/// The id of a paid call's task in this loop (a search page, a paid action): a counter, in
/// spawn order. Not a stored job (`prospect_core::owned::JobId`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TaskId(pub u64);

/// After this long, quitting with paid jobs in flight says so on screen.
pub const FINISHING_NOTICE_AFTER: Duration = Duration::from_millis(100);

/// Runs background calls and timers for the loop.
pub struct Executor {
    backend: Arc<dyn Backend>,
    tx: mpsc::UnboundedSender<Msg>,
    /// Free calls and autocompletes, one per slot; a new one aborts the old.
    tasks: HashMap<Slot, AbortHandle>,
    /// Paid jobs, never aborted; finished ones are pruned as new ones start.
    jobs: HashMap<TaskId, JoinHandle<()>>,
    next_job: u64,
    timers: HashMap<TimerId, (Instant, u64)>,
    /// Texts to copy, carried out by the loop between frames (it owns the terminal).
    copies: Vec<String>,
}

impl Executor {
    /// A new executor sending results to `tx`.
    pub fn new(backend: Arc<dyn Backend>, tx: mpsc::UnboundedSender<Msg>) -> Executor {
        Executor {
            backend,
            tx,
            tasks: HashMap::new(),
            jobs: HashMap::new(),
            next_job: 0,
            timers: HashMap::new(),
            copies: Vec::new(),
        }
    }

    /// Number of calls currently running (free and paid).
    pub fn in_flight(&self) -> usize {
        self.tasks.values().filter(|h| !h.is_finished()).count() + self.paid_in_flight()
    }

    /// Number of paid jobs still running.
    pub fn paid_in_flight(&self) -> usize {
        self.jobs.values().filter(|h| !h.is_finished()).count()
    }

    /// Waits until every paid job has finished (its answer stored by the session and sent to
    /// the loop's channel). Cancel-safe: dropping the future leaves the jobs running.
    pub async fn finish_paid(&mut self) {
        for h in self.jobs.values_mut() {
            let _ = h.await;
        }
        self.jobs.clear();
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
                    // A free call still running in the slot is superseded: abort it. A paid
                    // job that ran there is not in `tasks` and goes on.
                    if let Some(h) = self.tasks.remove(&slot) {
                        h.abort();
                    }
                    let paid = call.is_paid_job();
                    let job = paid.then(|| {
                        self.next_job += 1;
                        TaskId(self.next_job)
                    });
                    tracing::debug!(?slot, generation, ?job, "call");
                    let backend = self.backend.clone();
                    let tx = self.tx.clone();
                    let progress = {
                        let tx = tx.clone();
                        super::backend::Progress::new(move |outcome| {
                            let _ = tx.send(Msg::Progress {
                                slot,
                                generation,
                                outcome: Box::new(outcome),
                            });
                        })
                    };
                    let handle = tokio::spawn(async move {
                        let call = backend.call_streamed(call, progress);
                        let result = std::panic::AssertUnwindSafe(call)
                            .catch_unwind()
                            .await
                            .unwrap_or_else(|_| {
                                Err(ApiFailure::other(
                                    "internal error while handling the answer (see the log)",
                                ))
                            });
                        if let Err(e) = &result {
                            tracing::info!(?slot, generation, ?job, error = %e.message, "call failed");
                        }
                        let _ = tx.send(Msg::Done {
                            slot,
                            generation,
                            result,
                        });
                    });
                    match job {
                        Some(id) => {
                            self.jobs.retain(|_, h| !h.is_finished());
                            self.jobs.insert(id, handle);
                        }
                        None => {
                            self.tasks.insert(slot, handle.abort_handle());
                        }
                    }
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
                Command::Copy(text) => self.copies.push(text),
                Command::Export(file) => {
                    let tx = self.tx.clone();
                    tokio::task::spawn_blocking(move || {
                        let r = super::components::export::write_file(&file);
                        let _ = tx.send(Msg::Exported(r));
                    });
                }
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

    /// Aborts every running free call and autocomplete; paid jobs go on (see
    /// [`Executor::finish_paid`]).
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
        Event::Mouse(m) => Some(Msg::Mouse(m)),
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
    let mut deliveries = backend.deliveries();
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
        // Between frames: the clipboard's escape sequence never lands inside a frame.
        for text in std::mem::take(&mut exec.copies) {
            let r = hooks.copy(terminal, &text);
            pending.extend(app.update(Msg::Copied(r)));
        }
        if !pending.is_empty() {
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
            if let Some(d) = try_delivery(&mut deliveries) {
                pending.extend(app.update(Msg::Webhook(Box::new(d))));
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
            hooks.observe(app);
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
            Some(d) = next_delivery(&mut deliveries) => Some(Msg::Webhook(Box::new(d))),
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
    // A run that goes on page by page (an export) ends after the page on its way.
    app.stop_runs();
    finish_paid_jobs(
        terminal,
        app,
        &mut exec,
        &mut events,
        &mut term_signals,
        hooks,
    )
    .await?;
    Ok(())
}

/// The next webhook delivery, when a receiver runs; pending forever otherwise (and once the
/// receiver is gone). Deliveries missed because the loop lagged are logged: they are in the
/// store all the same. Cancel-safe.
async fn next_delivery(rx: &mut Option<broadcast::Receiver<Delivery>>) -> Option<Delivery> {
    loop {
        let Some(r) = rx.as_mut() else {
            return std::future::pending().await;
        };
        match r.recv().await {
            Ok(d) => return Some(d),
            Err(broadcast::error::RecvError::Lagged(n)) => {
                tracing::warn!(
                    missed = n,
                    "webhook deliveries missed by the explorer (stored)"
                );
            }
            Err(broadcast::error::RecvError::Closed) => *rx = None,
        }
    }
}

/// A webhook delivery already queued, if any (the loop drains before drawing).
fn try_delivery(rx: &mut Option<broadcast::Receiver<Delivery>>) -> Option<Delivery> {
    loop {
        match rx.as_mut()?.try_recv() {
            Ok(d) => return Some(d),
            Err(broadcast::error::TryRecvError::Lagged(n)) => {
                tracing::warn!(
                    missed = n,
                    "webhook deliveries missed by the explorer (stored)"
                );
            }
            Err(broadcast::error::TryRecvError::Closed) => {
                *rx = None;
                return None;
            }
            Err(broadcast::error::TryRecvError::Empty) => return None,
        }
    }
}

/// Quitting: waits for paid jobs still in flight, so that no charged answer is thrown away
/// (the session stores each one before its task ends). Bounded by the backend's timeout plus
/// a few seconds; after [`FINISHING_NOTICE_AFTER`] the status line says "finishing N paid
/// calls…" and how to stop waiting. The quit key again (a second `Ctrl-c`), SIGTERM or SIGHUP
/// stop the wait: [`App::left_unfinished`] then counts the paid calls left, which the front
/// end reports once the terminal is restored.
async fn finish_paid_jobs<B, S, H>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    exec: &mut Executor,
    events: &mut S,
    signals: &mut TermSignals,
    hooks: &mut H,
) -> anyhow::Result<()>
where
    B: ratatui::backend::Backend,
    B::Error: Send + Sync + 'static,
    S: Stream<Item = io::Result<Event>> + Unpin,
    H: Hooks<B>,
{
    let n = exec.paid_in_flight();
    if n == 0 {
        return Ok(());
    }
    // A paid call still waiting to be sent (pacing, a per-minute 429) is not sent now: only
    // the calls already on their way are awaited (issue 34: no wait outlives quitting).
    exec.backend.stop_waits();
    tracing::info!(paid_jobs = n, "waiting for paid calls before quitting");
    let limit = exec.backend.timeout() + Duration::from_secs(5);
    let deadline = Instant::now() + limit;
    let notice = tokio::time::sleep(FINISHING_NOTICE_AFTER);
    tokio::pin!(notice);
    let mut noticed = false;
    let done = {
        let wait = exec.finish_paid();
        tokio::pin!(wait);
        loop {
            tokio::select! {
                biased;
                _ = &mut wait => break true,
                _ = &mut notice, if !noticed => {
                    noticed = true;
                    app.status = Some(Status {
                        text: format!(
                            "finishing {n} paid call{}… (their answers are being stored; {} \
                             again quits now, leaving them unfinished)",
                            if n == 1 { "" } else { "s" },
                            app.opts.keymap.first_key_of(crate::keymap::KeyAction::Quit),
                        ),
                        kind: StatusKind::Progress,
                    });
                    terminal.draw(|f| view::draw(f, app))?;
                    hooks.drawn(terminal);
                    hooks.observe(app);
                }
                _ = tokio::time::sleep_until(deadline) => break false,
                _ = signals.recv() => break false,
                ev = events.next() => match ev {
                    Some(Ok(Event::Key(k)))
                        if k.kind != crossterm::event::KeyEventKind::Release
                            && app.opts.keymap.action(&k)
                                == Some(crate::keymap::KeyAction::Quit) =>
                    {
                        break false;
                    }
                    Some(Ok(_)) => {}
                    // The terminal is gone: nobody to wait for.
                    Some(Err(_)) | None => break false,
                },
            }
        }
    };
    if !done {
        let left = exec.paid_in_flight();
        tracing::warn!(paid_jobs = left, "quit before every paid call finished");
        app.left_unfinished = left;
    }
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
