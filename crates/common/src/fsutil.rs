//! The one atomic-write helper: every file prospect writes (config, filter sets, exports, the
//! sandbox's asset file) goes through [`write_atomic`] or an [`Output`] (the CLI's `--out`, the
//! explorer's exports), so a crash or a full disk never leaves a half-written file behind —
//! readers see the old content or the new, nothing in between.
//!
//! What is at the path decides how (issue 15):
//! - nothing, or a regular file: a temp file in the same folder, fsync, rename over it;
//! - a symlink: followed; its target is written by these rules (the link stays a link);
//! - a FIFO, a character or block device, a socket: written in place (`/dev/null`, a named
//!   pipe; `/dev/full` gives a clean "no space" error and stays a device);
//! - a folder: an error naming it.
//!
//! Temp files are named `.{file name}.{pid}.{random}.prospect-tmp`; one left behind by a process
//! that was killed is removed the next time the same path is written.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Who may read a file written by [`write_atomic`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Mode 0600 on unix (config that may hold a token); its directory is created 0700.
    Private,
    /// The process's usual mode for new files (umask applies).
    Shared,
}

/// `path` with a leading `~/` (or a bare `~`) read as the user's home directory; any other
/// path as it is, and this one too when there is no home directory.
pub fn expand_home(path: &str) -> PathBuf {
    let rest = match path.strip_prefix("~/") {
        Some(rest) => rest,
        None if path == "~" => "",
        None => return PathBuf::from(path),
    };
    match directories::BaseDirs::new() {
        Some(d) => d.home_dir().join(rest),
        None => PathBuf::from(path),
    }
}

/// Most bytes prospect reads of a JSON input (a filter set, `--body -`, `curl FILE`): far past
/// any request the service takes, and read in well under a second (issue 34: `--filters
/// /dev/zero` is refused, not read without bound).
pub const MAX_JSON_INPUT: u64 = 16 << 20;

/// Reads at most `limit` bytes of `r` as UTF-8 text (`what` names it in errors).
///
/// Errors, naming `what`: more than `limit` bytes (`InvalidData`, "… is larger than 16 MiB"),
/// not UTF-8, or the read failed.
pub fn read_bounded(r: impl std::io::Read, limit: u64, what: &str) -> std::io::Result<String> {
    use std::io::Read;
    let mut buf = Vec::new();
    r.take(limit + 1)
        .read_to_end(&mut buf)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{what}: {e}")))?;
    if buf.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "{what} is larger than {} MiB; nothing was read",
                limit >> 20
            ),
        ));
    }
    String::from_utf8(buf).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{what} is not UTF-8 text"),
        )
    })
}

/// Reads file `path` as [`read_bounded`] does, at most [`MAX_JSON_INPUT`] bytes. Errors: as
/// [`read_bounded`], naming the file.
pub fn read_json_input(path: &Path) -> std::io::Result<String> {
    let what = path.display().to_string();
    let f = std::fs::File::open(path)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{what}: {e}")))?;
    read_bounded(f, MAX_JSON_INPUT, &what)
}

/// What an output destination is (see [`check_destination`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Destination {
    /// A regular file, or none yet: written atomically.
    File,
    /// A FIFO, a device or a socket: written in place, as a stream.
    Stream,
}

/// Checks an output path before anything is paid for it (issue 34): a symlink whose target is
/// missing (writing would create it, and its folders, anywhere) and a missing parent folder
/// are refused, as is a folder.
///
/// Errors: one line naming the path and what is wrong.
pub fn check_destination(path: &Path) -> std::io::Result<Destination> {
    let bad = |what: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, what);
    if let Ok(m) = std::fs::symlink_metadata(path)
        && m.file_type().is_symlink()
        && std::fs::metadata(path).is_err()
    {
        let to = std::fs::read_link(path)
            .map(|t| t.display().to_string())
            .unwrap_or_default();
        return Err(bad(format!(
            "{} is a link to {to}, which does not exist; nothing is written through it",
            path.display()
        )));
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(bad(format!("{} is a folder, not a file", path.display()))),
        Ok(m) if !m.is_file() => Ok(Destination::Stream),
        Ok(_) => Ok(Destination::File),
        Err(_) => {
            let parent = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            if parent.is_dir() {
                Ok(Destination::File)
            } else {
                Err(bad(format!(
                    "the folder of {} does not exist ({}); create it first",
                    path.display(),
                    parent.display()
                )))
            }
        }
    }
}

/// Writes `bytes` to `path` atomically: a temp file in the same directory, fsync, then rename
/// over `path`. Creates the parent directory (mode 0700 on unix) when missing.
///
/// Errors: any I/O error (directory not creatable, disk full, rename refused); `path` is then
/// left as it was.
pub fn write_atomic(path: &Path, bytes: &[u8], access: Access) -> std::io::Result<()> {
    let mut out = Output::create(path, access)?;
    out.write_all(bytes)?;
    out.commit()
}

/// Where an [`Output`] writes.
enum Sink {
    /// A temp file beside the target, renamed over it on commit.
    Temp {
        tmp: tempfile::NamedTempFile,
        target: PathBuf,
        access: Access,
        /// Flushes what is written to the disk while the rest is written ([`Flusher`]).
        flusher: Flusher,
    },
    /// The target itself (a FIFO, a device, a socket), written in place.
    InPlace(std::fs::File),
}

/// Bytes written to a temp file after which its data so far is flushed to the disk on a
/// thread of its own ([`Flusher`]).
const FLUSH_EVERY: u64 = 8 << 20;

/// Flushes a big temp file's data to the disk while the rest is still written (`fdatasync` on a
/// thread of its own each [`FLUSH_EVERY`] bytes), so the sync of [`Output::commit`] has only the
/// last stretch left: for an 80 MB export that is about 60 ms less at the end. A failed flush
/// is left for the commit's own sync to report.
#[derive(Default)]
struct Flusher {
    /// Bytes written so far.
    written: u64,
    /// Wakes the thread; `None` until the first [`FLUSH_EVERY`] bytes.
    wake: Option<std::sync::mpsc::SyncSender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Flusher {
    /// Counts `n` more bytes written to `file`; wakes (or starts) the thread each
    /// [`FLUSH_EVERY`] bytes.
    fn wrote(&mut self, file: &std::fs::File, n: usize) {
        let before = self.written / FLUSH_EVERY;
        self.written += n as u64;
        if self.written / FLUSH_EVERY == before {
            return;
        }
        if self.wake.is_none() {
            let Ok(f) = file.try_clone() else { return };
            // One wake-up waits at most: a flush asked while one runs is one more after it.
            let (tx, rx) = std::sync::mpsc::sync_channel::<()>(1);
            let spawned = std::thread::Builder::new()
                .name("output-flush".into())
                .spawn(move || {
                    while rx.recv().is_ok() {
                        let _ = f.sync_data();
                    }
                });
            let Ok(handle) = spawned else { return };
            self.wake = Some(tx);
            self.thread = Some(handle);
        }
        if let Some(tx) = &self.wake {
            let _ = tx.try_send(());
        }
    }

    /// Stops the thread after its flush in progress.
    fn finish(&mut self) {
        self.wake = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Flusher {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A file being written by the rules of the module docs: bytes go to a temp file (or, for a
/// FIFO or device, the target itself) and [`Output::commit`] puts them in place. Dropped
/// without a commit, the target is left as it was and the temp file removed.
pub struct Output {
    sink: Sink,
}

impl Output {
    /// Opens `path` for writing (see the module docs).
    ///
    /// Errors, naming the path: it is a folder; its folder cannot be created or hold a temp
    /// file; a device or FIFO cannot be opened for writing.
    pub fn create(path: &Path, access: Access) -> std::io::Result<Output> {
        let named =
            |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let target = resolve(path).map_err(named)?;
        match std::fs::metadata(&target) {
            Ok(m) if m.is_dir() => Err(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                format!("{} is a folder, not a file", path.display()),
            )),
            Ok(m) if !m.is_file() => {
                // A FIFO, a device or a socket: written in place, never replaced.
                let f = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&target)
                    .map_err(named)?;
                Ok(Output {
                    sink: Sink::InPlace(f),
                })
            }
            _ => {
                let dir = match target.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                    _ => PathBuf::from("."),
                };
                create_dir_private(&dir).map_err(named)?;
                remove_stale_temps(&target);
                let name = target
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                // NamedTempFile is created 0600 on unix.
                let tmp = tempfile::Builder::new()
                    .prefix(&format!(".{name}.{}.", std::process::id()))
                    .suffix(TEMP_SUFFIX)
                    .tempfile_in(&dir)
                    .map_err(|e| {
                        std::io::Error::new(e.kind(), format!("{}: {e}", dir.display()))
                    })?;
                Ok(Output {
                    sink: Sink::Temp {
                        tmp,
                        target,
                        access,
                        flusher: Flusher::default(),
                    },
                })
            }
        }
    }

    /// Puts what was written in place: for a file, fsync and rename over the target; for a
    /// FIFO or device, a flush. Errors: the sync or rename failed (the target is unchanged).
    pub fn commit(self) -> std::io::Result<()> {
        match self.sink {
            Sink::Temp {
                tmp,
                target,
                access,
                mut flusher,
            } => {
                flusher.finish();
                if access == Access::Shared {
                    make_shared(tmp.as_file())?;
                }
                tmp.as_file().sync_all()?;
                tmp.persist(&target).map_err(|e| {
                    std::io::Error::new(
                        e.error.kind(),
                        format!("{}: {}", target.display(), e.error),
                    )
                })?;
                Ok(())
            }
            Sink::InPlace(mut f) => f.flush(),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.sink {
            Sink::Temp { tmp, flusher, .. } => {
                let n = tmp.write(buf)?;
                flusher.wrote(tmp.as_file(), n);
                Ok(n)
            }
            Sink::InPlace(f) => f.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.sink {
            Sink::Temp { tmp, .. } => tmp.flush(),
            Sink::InPlace(f) => f.flush(),
        }
    }
}

/// The suffix of temp files ([`Output`]).
const TEMP_SUFFIX: &str = ".prospect-tmp";

/// `path`, or the file its symlinks lead to (a dangling link: where it points).
fn resolve(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// Removes temp files of `target` left by processes that are gone (killed mid-write).
fn remove_stale_temps(target: &Path) {
    let (Some(dir), Some(name)) = (target.parent(), target.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = format!(".{}.", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let file = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = file
            .strip_prefix(&prefix)
            .and_then(|r| r.strip_suffix(TEMP_SUFFIX))
        else {
            continue;
        };
        let pid = rest.split('.').next().and_then(|p| p.parse::<i64>().ok());
        if let Some(pid) = pid
            && !pid_alive(pid)
        {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Gives a temp file (created 0600) the usual mode of a new file shared with other programs
/// (0644 on unix: exports, filter sets); nothing elsewhere.
pub fn make_shared(file: &std::fs::File) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o666 & !default_umask()))?;
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

/// The umask is not readable without changing it (and without `unsafe`); files shared with
/// other programs (exports) get the common default 022.
#[cfg(unix)]
fn default_umask() -> u32 {
    0o022
}

/// Creates `dir` and its parents; the leaf gets mode 0700 on unix. An existing directory is
/// left as it is.
pub fn create_dir_private(dir: &Path) -> std::io::Result<()> {
    if dir.as_os_str().is_empty() || dir.is_dir() {
        return Ok(());
    }
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir)
}

/// `true` when a process with id `pid` is running on this machine.
pub fn pid_alive(pid: i64) -> bool {
    if pid <= 0 {
        return false;
    }
    #[cfg(target_os = "linux")]
    {
        std::path::Path::new(&format!("/proc/{pid}")).exists()
    }
    #[cfg(not(target_os = "linux"))]
    {
        pid == std::process::id() as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dangling_link_or_a_missing_folder_is_refused_and_nothing_is_created() {
        let d = tempfile::tempdir().unwrap();
        let link = d.path().join("out.csv");
        std::os::unix::fs::symlink(d.path().join("nowhere/deep/x.csv"), &link).unwrap();
        let e = check_destination(&link).unwrap_err().to_string();
        assert!(e.contains("does not exist"), "{e}");
        assert!(!d.path().join("nowhere").exists());
        let e = check_destination(&d.path().join("missing/x.csv"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("does not exist"), "{e}");
        assert_eq!(
            check_destination(&d.path().join("x.csv")).unwrap(),
            Destination::File
        );
        assert_eq!(
            check_destination(Path::new("/dev/null")).unwrap(),
            Destination::Stream
        );
    }

    #[test]
    fn a_bounded_read_refuses_an_endless_input_at_once() {
        let e = read_json_input(Path::new("/dev/zero"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("larger than 16 MiB"), "{e}");
    }

    #[test]
    fn a_big_file_flushed_while_written_commits_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.jsonl");
        let mut out = Output::create(&path, Access::Private).unwrap();
        let chunk: Vec<u8> = (0..=255u8).cycle().take(64 * 1024).collect();
        // 20 MiB: the flush thread wakes twice on the way.
        for _ in 0..320 {
            out.write_all(&chunk).unwrap();
        }
        out.commit().unwrap();
        let back = std::fs::read(&path).unwrap();
        assert_eq!(back.len(), 320 * chunk.len());
        assert!(back.chunks(chunk.len()).all(|c| c == &chunk[..]));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_followed_and_devices_written_in_place() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.csv");
        std::fs::write(&real, b"old").unwrap();
        let link = dir.path().join("link.csv");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomic(&link, b"new", Access::Shared).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        // /dev/null takes it in place; /dev/full says "no space" and stays a device.
        write_atomic(Path::new("/dev/null"), b"x", Access::Shared).unwrap();
        let e = write_atomic(Path::new("/dev/full"), b"x", Access::Shared).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(28), "{e}");
        assert!(
            std::fs::metadata("/dev/full")
                .unwrap()
                .file_type()
                .is_char_device()
        );
        // A FIFO is written in place (read on another thread), not replaced.
        let fifo = dir.path().join("pipe");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        write_atomic(&fifo, b"through the pipe", Access::Shared).unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        assert!(
            std::fs::symlink_metadata(&fifo)
                .unwrap()
                .file_type()
                .is_fifo()
        );
        // A folder is an error naming it.
        let e = write_atomic(dir.path(), b"x", Access::Shared).unwrap_err();
        assert!(e.to_string().contains("is a folder"), "{e}");
    }

    #[test]
    fn a_temp_file_left_by_a_dead_process_is_removed_at_the_next_write() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.jsonl");
        let dead = dir.path().join(".out.jsonl.999999999.abc123.prospect-tmp");
        let mine = dir.path().join(format!(
            ".out.jsonl.{}.keep.prospect-tmp",
            std::process::id()
        ));
        std::fs::write(&dead, b"partial").unwrap();
        std::fs::write(&mine, b"in use").unwrap();
        write_atomic(&p, b"whole", Access::Shared).unwrap();
        assert!(!dead.exists(), "the dead process's temp file is gone");
        assert!(mine.exists(), "a live process's is kept");
        assert_eq!(std::fs::read(&p).unwrap(), b"whole");
    }

    #[test]
    fn writes_whole_files_and_replaces_old_content() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a/b/file.json");
        write_atomic(&p, b"one", Access::Private).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        write_atomic(&p, b"two", Access::Shared).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        // No temp files are left behind.
        assert_eq!(std::fs::read_dir(p.parent().unwrap()).unwrap().count(), 1);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&p), 0o644);
            write_atomic(&p, b"three", Access::Private).unwrap();
            assert_eq!(mode(&p), 0o600);
            assert_eq!(mode(p.parent().unwrap()), 0o700);
        }
    }

    #[test]
    fn a_failed_write_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        write_atomic(&p, b"old", Access::Shared).unwrap();
        // A directory in the way of the target: the rename fails, the old file is untouched.
        let blocked = dir.path().join("d");
        std::fs::create_dir(&blocked).unwrap();
        std::fs::write(blocked.join("x"), b"x").unwrap();
        assert!(write_atomic(&blocked, b"new", Access::Shared).is_err());
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
    }
}
