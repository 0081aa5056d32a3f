//! The explorer's real run loop driven from a test: `runner::run_loop` on a `TestBackend`
//! terminal with a caller-made `Session` and backend, keys fed from a channel as the event
//! stream, and every drawn frame recorded as the caller's snapshot type `S` (made by an
//! `observe` function from the state and the screen text).
#![allow(dead_code)]

#[path = "app.rs"]
mod app_support;

use std::io;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use prospect::core::session::Session;
use prospect::tui::app::{App, AppOptions};
use prospect::tui::backend::Backend;
use prospect::tui::keymap::Keymap;
use prospect::tui::runner::{Hooks, run_loop};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// How long a wait for a frame may take before the test fails.
pub const WAIT: Duration = Duration::from_secs(30);

/// Makes a frame's record from the state it shows and its screen text (rows joined by `\n`).
type Observe<S> = Box<dyn FnMut(&App, &str) -> S + Send>;

/// Records every frame: the screen text, then the caller's record of it.
struct Recorder<S> {
    frames: Arc<Mutex<Vec<S>>>,
    screen: String,
    observe: Observe<S>,
}

impl<S: Send> Hooks<TestBackend> for Recorder<S> {
    fn drawn(&mut self, t: &mut Terminal<TestBackend>) {
        self.screen = app_support::screen(t);
    }
    fn observe(&mut self, app: &App) {
        let seen = (self.observe)(app, &self.screen);
        self.frames.lock().unwrap().push(seen);
    }
}

/// The explorer running in a task, with its key channel and the frames it drew.
pub struct Explorer<S> {
    keys: futures::channel::mpsc::UnboundedSender<io::Result<Event>>,
    frames: Arc<Mutex<Vec<S>>>,
    ui: tokio::task::JoinHandle<(App, anyhow::Result<()>)>,
    /// The session every call goes through (its store can be read while the loop runs).
    pub session: Session,
    dir: tempfile::TempDir,
}

impl<S: Clone + Send + std::fmt::Debug + 'static> Explorer<S> {
    /// Starts the loop on a `width` × `height` terminal over `backend` (which wraps
    /// `session`), for the service at `base_url`, with the sandbox marker, the default keymap,
    /// a 10-credit confirmation threshold and filter sets under `dir`.
    pub fn start(
        session: Session,
        backend: Arc<dyn Backend>,
        base_url: &str,
        dir: tempfile::TempDir,
        size: (u16, u16),
        observe: impl FnMut(&App, &str) -> S + Send + 'static,
    ) -> Explorer<S> {
        Self::start_with(session, backend, base_url, dir, size, observe, |_| {})
    }

    /// [`Explorer::start`] with the options changed by `tweak` first.
    pub fn start_with(
        session: Session,
        backend: Arc<dyn Backend>,
        base_url: &str,
        dir: tempfile::TempDir,
        (width, height): (u16, u16),
        observe: impl FnMut(&App, &str) -> S + Send + 'static,
        tweak: impl FnOnce(&mut AppOptions),
    ) -> Explorer<S> {
        let mut opts = AppOptions {
            base_url: base_url.to_string(),
            sandbox: true,
            keymap: Keymap::default(),
            confirm_above: 10.0,
            budgeted: false,
            filters_dir: dir.path().join("filters"),
            export_dir: prospect::core::config::ExportDir {
                path: dir.path().to_path_buf(),
                from_config: false,
            },
            columns: Default::default(),
            columns_file: None,
        };
        tweak(&mut opts);
        let mut app = App::new(opts);
        let (keys, events) = futures::channel::mpsc::unbounded::<io::Result<Event>>();
        let frames = Arc::new(Mutex::new(Vec::new()));
        let mut hooks = Recorder {
            frames: frames.clone(),
            screen: String::new(),
            observe: Box::new(observe),
        };
        let ui = tokio::spawn(async move {
            let mut term = Terminal::new(TestBackend::new(width, height)).unwrap();
            let initial = app.start();
            let r = run_loop(&mut term, &mut app, backend, events, initial, &mut hooks).await;
            (app, r)
        });
        Explorer {
            keys,
            frames,
            ui,
            session,
            dir,
        }
    }

    /// Sends a key with `mods`.
    pub fn key(&self, code: KeyCode, mods: KeyModifiers) {
        self.keys
            .unbounded_send(Ok(Event::Key(KeyEvent::new(code, mods))))
            .unwrap();
    }

    /// Sends a plain character key.
    pub fn ch(&self, c: char) {
        self.key(KeyCode::Char(c), KeyModifiers::NONE);
    }

    /// Sends `Ctrl-c` for the character `c`.
    pub fn ctrl(&self, c: char) {
        self.key(KeyCode::Char(c), KeyModifiers::CONTROL);
    }

    /// Sends a bracketed paste of `s`.
    pub fn paste(&self, s: &str) {
        self.keys
            .unbounded_send(Ok(Event::Paste(s.to_string())))
            .unwrap();
    }

    /// The temp dir of the store and filter sets (the test may write files there).
    pub fn dir(&self) -> &std::path::Path {
        self.dir.path()
    }

    /// How many frames have been drawn so far (for [`Explorer::wait_since`]).
    pub fn mark(&self) -> usize {
        self.frames.lock().unwrap().len()
    }

    /// The newest frame.
    pub fn latest(&self) -> Option<S> {
        self.frames.lock().unwrap().last().cloned()
    }

    /// Every frame drawn so far, oldest first.
    pub fn frames(&self) -> Vec<S> {
        self.frames.lock().unwrap().clone()
    }

    /// Waits until some frame satisfies `pred` (the newest such); fails the test after
    /// [`WAIT`] naming `what` and showing the last frame.
    pub async fn wait(&self, what: &str, pred: impl Fn(&S) -> bool) -> S {
        self.wait_for(what, || {
            self.frames
                .lock()
                .unwrap()
                .iter()
                .rev()
                .find(|s| pred(s))
                .cloned()
        })
        .await
    }

    /// Waits until the newest frame satisfies `pred` (a state the explorer is in now, not one
    /// it passed through), and returns it; fails as [`Explorer::wait`].
    pub async fn wait_now(&self, what: &str, pred: impl Fn(&S) -> bool) -> S {
        self.wait_for(what, || self.latest().filter(|s| pred(s)))
            .await
    }

    /// Waits until a frame drawn after `mark` satisfies `pred` (the first such).
    pub async fn wait_since(&self, mark: usize, what: &str, pred: impl Fn(&S) -> bool) -> S {
        self.wait_for(what, || {
            let frames = self.frames.lock().unwrap();
            frames[mark.min(frames.len())..]
                .iter()
                .find(|s| pred(s))
                .cloned()
        })
        .await
    }

    async fn wait_for(&self, what: &str, find: impl Fn() -> Option<S>) -> S {
        let t0 = Instant::now();
        loop {
            if let Some(s) = find() {
                return s;
            }
            if t0.elapsed() > WAIT {
                panic!(
                    "timed out waiting for {what}; last frame: {:#?}",
                    self.latest()
                );
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Quits (`q`) and returns the app, the session and the temp dir once the loop has ended
    /// without error.
    pub async fn quit(self) -> (App, Session, tempfile::TempDir) {
        self.ch('q');
        self.ended().await
    }

    /// Quits (`q`), and once a frame satisfies `finishing` (the loop waiting for paid calls)
    /// quits again, which stops the wait; returns as [`Explorer::quit`].
    pub async fn force_quit(
        self,
        finishing: impl Fn(&S) -> bool,
    ) -> (App, Session, tempfile::TempDir) {
        let m = self.mark();
        self.ch('q');
        self.wait_since(m, "the wait for paid calls", finishing)
            .await;
        self.ch('q');
        self.ended().await
    }

    async fn ended(self) -> (App, Session, tempfile::TempDir) {
        let (app, r) = tokio::time::timeout(WAIT + Duration::from_secs(10), self.ui)
            .await
            .expect("the loop ends")
            .unwrap();
        r.expect("the loop ends without error");
        (app, self.session, self.dir)
    }
}
