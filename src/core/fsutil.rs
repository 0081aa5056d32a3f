//! The one atomic-write helper: every file prospect writes (config, filter sets, exports, the
//! sandbox's asset file) goes through [`write_atomic`], so a crash or a full disk never leaves a
//! half-written file behind — readers see the old content or the new, nothing in between.

use std::io::Write;
use std::path::Path;

/// Who may read a file written by [`write_atomic`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Mode 0600 on unix (config that may hold a token); its directory is created 0700.
    Private,
    /// The process's usual mode for new files (umask applies).
    Shared,
}

/// Writes `bytes` to `path` atomically: a temp file in the same directory, fsync, then rename
/// over `path`. Creates the parent directory (mode 0700 on unix) when missing.
///
/// Errors: any I/O error (directory not creatable, disk full, rename refused); `path` is then
/// left as it was.
pub fn write_atomic(path: &Path, bytes: &[u8], access: Access) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    create_dir_private(dir)?;
    // NamedTempFile is created 0600 on unix.
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    if access == Access::Shared {
        make_shared(tmp.as_file())?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

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
