//! Copying the log back into the file off the write path. With SQLite's automatic checkpoint,
//! the commit that crosses the threshold copies the whole log (64 MiB) into the file and syncs
//! both before it returns: about a fifth of the time of storing a 1,000-company answer, paid by
//! every fifth one. Here a second connection, on its own thread (started on first use), runs a
//! passive checkpoint whenever the store has written [`NUDGE_BYTES`] since the last one; the
//! writer's own automatic checkpoint stays as the backstop for when this thread falls behind.
//!
//! Durability does not change: a commit is in the log before its method returns, whether or not
//! it has been copied into the file yet.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, SyncSender, TrySendError};
use std::thread::JoinHandle;

use rusqlite::{Connection, OpenFlags};

use super::BUSY_TIMEOUT;

/// Bytes written to the log (about) after which the checkpoint thread is asked to run.
pub(super) const NUDGE_BYTES: usize = 16 * 1024 * 1024;

/// The checkpoint thread of one store file; ended (and waited for) when dropped.
pub(super) struct Checkpointer {
    path: PathBuf,
    written: usize,
    running: Option<(SyncSender<()>, JoinHandle<()>)>,
}

impl Checkpointer {
    /// A checkpointer for the file at `path`; its thread starts on the first nudge.
    pub(super) fn new(path: &Path) -> Checkpointer {
        Checkpointer {
            path: path.to_path_buf(),
            written: 0,
            running: None,
        }
    }

    /// Counts `bytes` written to the log by a commit that has returned; from [`NUDGE_BYTES`]
    /// on, asks the thread for a checkpoint (a request while one runs is merged into it).
    pub(super) fn wrote(&mut self, bytes: usize) {
        self.written += bytes;
        if self.written < NUDGE_BYTES {
            return;
        }
        self.written = 0;
        if self.running.is_none() {
            self.running = self.start();
        }
        if let Some((nudge, _)) = &self.running
            && let Err(TrySendError::Disconnected(())) = nudge.try_send(())
        {
            // The thread has ended (its connection failed): the writer's automatic
            // checkpoint does the work from now on.
            self.running = None;
        }
    }

    fn start(&self) -> Option<(SyncSender<()>, JoinHandle<()>)> {
        let conn = Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .and_then(|c| c.busy_timeout(BUSY_TIMEOUT).map(|()| c));
        let conn = match conn {
            Ok(c) => c,
            Err(error) => {
                tracing::warn!(path = %self.path.display(), %error, "store: no checkpoint thread; the writer checkpoints");
                return None;
            }
        };
        let (nudge, nudged) = mpsc::sync_channel::<()>(1);
        let path = self.path.clone();
        let thread = std::thread::Builder::new()
            .name("store-checkpoint".into())
            .spawn(move || {
                while nudged.recv().is_ok() {
                    // PASSIVE: copies what no reader still needs, never waits for the writer.
                    if let Err(error) =
                        conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
                    {
                        tracing::debug!(path = %path.display(), %error, "store: checkpoint not done");
                    }
                }
            })
            .ok()?;
        Some((nudge, thread))
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        if let Some((nudge, thread)) = self.running.take() {
            drop(nudge);
            let _ = thread.join();
        }
    }
}
