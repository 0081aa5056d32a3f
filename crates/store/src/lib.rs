//! The durable store: a SQLite file, or a team's PostgreSQL ledger behind the same statements
//! (`db.rs`), that keeps every paid call (purchases), the entities they returned (companies,
//! people, revealed contacts), webhook deliveries, the search history, lists, suppression,
//! claims and jobs, so that nothing bought is bought twice and nothing is lost on exit. Every
//! table is checked at open (`whole.rs`, issue 34): a store missing one refuses paid calls
//! until [`Store::repair`] makes it again.
//!
//! - One file per target: [`Store::default_file_name`] gives `prospect.sqlite` for the real
//!   service and `sandbox.sqlite` for the embedded sandbox, so sandbox data never mixes with paid
//!   data.
//! - The file is opened in WAL mode (`synchronous=NORMAL`, `foreign_keys=ON`, a 5 s busy
//!   timeout, statement journals and temporary tables in memory, a page cache of up to 32 MiB,
//!   the first GiB read through a memory map); the schema is migrated at open inside one
//!   transaction (version in `PRAGMA user_version`, see [`SCHEMA_VERSION`]).
//!   Every write is committed before its method returns: with WAL and `synchronous=NORMAL` a
//!   commit survives the process being killed (it is in the log file); a power loss may take
//!   back the last commits but never corrupts the file. The log is copied back into the file
//!   by a checkpoint thread with its own connection, not by the commit that fills it (see
//!   `checkpoint.rs`); that changes when the file catches up, not what a commit keeps. A file
//!   written by a newer prospect is refused and left untouched ([`StoreError::NewerSchema`]).
//! - Everything stored that came from the API or a webhook is untrusted: JSON goes through
//!   [`sanitize_value`](prospect_common::sanitize::sanitize_value) and text keys through [`sanitize`] before it is written.
//! - Units everywhere: times are `DateTime<Utc>` in the API and unix milliseconds UTC in the file
//!   (sub-millisecond precision is dropped); credits are `f64` per pool ([`Cost`](prospect_api::cost::Cost)).
//! - Bad stored data never panics: a row whose JSON no longer parses (or whose time is out of
//!   range) is skipped with a `tracing::warn!` naming the table and key, so getters answer `None`
//!   for it and lists leave it out. A column holding the wrong SQL type is a [`StoreError::Sqlite`].
//!
//! The store is synchronous; async code holds it as `Arc<std::sync::Mutex<Store>>` and calls it
//! inside `spawn_blocking` ([`Store`] is `Send`).
#![deny(unsafe_code)]

mod bought;
mod checkpoint;
mod claims;
mod clean;
mod copy;
mod db;
mod entities;
mod error;
mod export;
mod frames;
mod history;
mod jobs;
mod ledger;
mod lists;
pub mod pg_server;
mod rendered;
mod schema;
mod segmentations;
mod set_runs;
mod settings;
mod suppression;
#[cfg(test)]
mod tests;
mod whole;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OpenFlags, TransactionBehavior};

use db::{Conn, OptionalExt};
use serde::Serialize;
use serde::de::DeserializeOwned;

use clean::clean_json;
use prospect_common::sanitize::sanitize;

pub use bought::Bought;
pub use claims::{Claim, SETTLE_GRACE_MS, company_claim, this_host};
pub use clean::{raw_json_bytes_are_clean, raw_json_is_clean, sanitized_json_text};
pub use copy::CopyReport;
pub use db::WRITE_LOCK;
pub use entities::{Contact, Entities, EntityKey, EntityRefs, StoredContacts, contacts_of};
pub use error::{Result, StoreError};
pub use history::{
    Delivery, DeliveryOutcome, NewPurchase, PageAnswer, PageFacts, PageLink, Purchase,
    SearchSummary, Spend, StoredPage, canonical_json, canonical_search_body, cursor_in,
};
pub use jobs::{JobRow, JobStatus};
pub use ledger::{Kept, Packed, PageOf, pack_answer};
pub use lists::{ListKind, ListRecords, ListSummary};
pub use segmentations::SegmentationRow;
pub use set_runs::SetRun;
pub use settings::Budget;
pub use suppression::{SuppressKind, SuppressionCount};

/// The newest schema version this build reads and writes (`PRAGMA user_version`).
pub const SCHEMA_VERSION: i64 = schema::MIGRATIONS.len() as i64;

/// The page size of a new file, bytes. A company record (kept as a zstd frame, a few KB) fits
/// in one page. 8 KiB rather than 16 (issue 39): every page a commit touches is written whole
/// to the log, and a lookup batch's commits touch about ten small pages (its claim set, the
/// purchase, their indexes, the job), so a 1,000,000-line lookup wrote 173 MB with 16 KiB pages
/// and writes 91 MB with 8 KiB, for 51 MB of answers; buying and reading 10,000 companies
/// measured the same on both. 4 KiB was measured too and not taken: the 1,000,000-line lookup
/// then wrote 68 MB besides its output rather than 100 (counted by `strace` over every write,
/// checkpoints included), but the file after a 10,000-company export grew from 54 to 67 MB,
/// since a record's frame of 4–8 KB no longer fits in one page; wall and CPU time were the same
/// within noise. Files made before keep the size they were made with.
const PAGE_SIZE: i64 = 8 * 1024;

/// Bytes written to the log before it is copied back into the file: `wal_autocheckpoint` is
/// set to this many bytes' worth of the file's own pages (SQLite's default, 1000 pages, is
/// 8 MiB at [`PAGE_SIZE`]). Counted in bytes, not pages: at 4,096 pages, the smaller pages
/// of issue 39 made a checkpoint (with its two fsyncs) come every 32 MiB instead of 64, and
/// keeping 1,000 companies over and over took a median 1.31× as long as with 16 KiB pages
/// (store bench, side by side); counted in bytes, 1.10×.
const WAL_CHECKPOINT_BYTES: i64 = 64 * 1024 * 1024;

/// Size the log is cut back to after a checkpoint, bytes.
const WAL_LIMIT_BYTES: i64 = 64 * 1024 * 1024;

/// Most memory the page cache of the connection takes, KiB (grows with use up to this).
const CACHE_KIB: i64 = 32 * 1024;

/// Bytes of the file read through a memory map rather than `read` calls (the first GiB).
const MMAP_BYTES: i64 = 1 << 30;

/// How long a statement waits for another connection's lock before failing with "busy".
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The TLS members of a PostgreSQL URL that tokio-postgres does not take, read off it: returns
/// the URL without `sslrootcert` and with libpq's `sslmode=verify-ca|verify-full` as `require`
/// (rustls always verifies the server's certificate and name), and the `sslrootcert` file (PEM
/// certificates the server's must chain to, instead of the web's roots; `~/` is the home
/// folder).
///
/// # Errors
/// `sslrootcert` without a file.
pub(crate) fn tls_options(url: &str) -> std::result::Result<(String, Option<PathBuf>), String> {
    let Some((base, query)) = url.split_once('?') else {
        return Ok((url.to_string(), None));
    };
    let mut root = None;
    // The other members are passed on as written (tokio-postgres decodes them).
    let mut kept = Vec::new();
    for member in query.split('&').filter(|m| !m.is_empty()) {
        let (k, v) = member.split_once('=').unwrap_or((member, ""));
        match k {
            "sslrootcert" => {
                let path = url::form_urlencoded::parse(format!("p={v}").as_bytes())
                    .next()
                    .map(|(_, p)| p.into_owned())
                    .filter(|p| !p.is_empty())
                    .ok_or("sslrootcert names no file")?;
                root = Some(prospect_common::fsutil::expand_home(&path));
            }
            "sslmode" if matches!(v, "verify-ca" | "verify-full") => {
                kept.push("sslmode=require".to_string());
            }
            _ => kept.push(member.to_string()),
        }
    }
    let url = if kept.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    Ok((url, root))
}

/// How long opening a team store waits for its server before it is taken as out of reach,
/// unless the URL's `connect_timeout` (seconds) says otherwise; the system's own wait for a
/// host that does not answer is minutes.
const PG_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long [`Store::open`] waits before trying again after a busy open.
const OPEN_RETRY: Duration = Duration::from_millis(20);

macro_rules! row_id {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

row_id!(
    /// The row id of a stored purchase (one paid call), increasing with each purchase.
    PurchaseId
);
row_id!(
    /// The row id of a stored webhook delivery.
    DeliveryId
);
row_id!(
    /// The row id of a stored search (one endpoint + body + target, all its pages).
    SearchId
);
row_id!(
    /// The row id of a job (one planned paid action).
    JobId
);

/// An entity read from the store with where and when it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored<T> {
    /// The typed record, as returned by the service (sanitized).
    pub value: T,
    /// When it was fetched (the time of the purchase that returned it).
    pub fetched_at: DateTime<Utc>,
    /// The purchase that returned it; `None` when it came otherwise (e.g. by webhook).
    pub purchase_id: Option<PurchaseId>,
}

impl<T> Stored<T> {
    /// How old the record is at `now` (`now - fetched_at`); zero when `fetched_at` is after
    /// `now` (a clock that went back).
    pub fn age(&self, now: DateTime<Utc>) -> chrono::Duration {
        (now - self.fetched_at).max(chrono::Duration::zero())
    }

    /// The same stored record with its value converted by `f` (time and purchase kept).
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Stored<U> {
        Stored {
            value: f(self.value),
            fetched_at: self.fetched_at,
            purchase_id: self.purchase_id,
        }
    }
}

/// The durable local store: one SQLite connection. See the module docs for units and rules.
///
/// Writes take `&mut self` and run in one `BEGIN IMMEDIATE` transaction each; reads take
/// `&self`. `Store` is `Send`, not `Sync`: share it as `Arc<Mutex<Store>>`.
pub struct Store {
    conn: Conn,
    path: PathBuf,
    /// Who buys through this store handle, recorded with each purchase ([`Store::set_buyer`]).
    buyer: String,
    /// Copies the log into the file on its own thread (a file only). Declared after `conn`,
    /// so it is dropped (its thread ended) after the writer's connection is closed.
    checkpointer: Option<checkpoint::Checkpointer>,
    /// The claim sets settled by others that this handle's last claim read, kept for the next
    /// claim of the same caller and plan (see [`Store::claim`]).
    settled_seen: Option<claims::SettledSeen>,
    /// The keys of the claim sets in flight this handle has read, unpacked once each.
    unpacked: claims::Unpacked,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

// The store is used from async code through `Arc<Mutex<Store>>` inside `spawn_blocking`.
const _: fn() = || {
    fn assert_send<T: Send>() {}
    assert_send::<Store>();
};

impl Store {
    /// Opens (or creates) the store file at `path` and brings its schema up to
    /// [`SCHEMA_VERSION`].
    ///
    /// Missing parent folders are created (mode 0700 on unix), a new file is created with mode
    /// 0600. An existing file is first opened read-only to read its schema version, so a file
    /// that is refused is never modified.
    ///
    /// # Errors
    /// [`StoreError::CreateDir`] / [`StoreError::CreateFile`] when a folder or the file cannot
    /// be created; [`StoreError::NotADatabase`]
    /// for a file that is not SQLite; [`StoreError::NewerSchema`] for a file of a newer
    /// prospect (left untouched); [`StoreError::UnknownSchema`] for a negative version;
    /// [`StoreError::Migration`] when a step fails (rolled back); [`StoreError::Open`] for any
    /// other failure to open or configure (permissions, lock held more than 5 s ...).
    ///
    /// Processes opening one new file at once race while the first creates the schema and
    /// switches it to WAL; some of those moments answer "database is locked" at once, without
    /// SQLite's busy wait (a read-only connection meeting a log being set up). Such an open is
    /// tried again every [`OPEN_RETRY`] for up to [`BUSY_TIMEOUT`].
    pub fn open(path: &Path) -> Result<Store> {
        let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
        loop {
            match Store::open_once(path) {
                Err(e) if e.is_busy() && std::time::Instant::now() < deadline => {
                    tracing::debug!(path = %path.display(), error = %e, "store: busy while opening; trying again");
                    std::thread::sleep(OPEN_RETRY);
                }
                other => return other,
            }
        }
    }

    /// One attempt of [`Store::open`].
    fn open_once(path: &Path) -> Result<Store> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            create_dir(dir).map_err(|source| StoreError::CreateDir {
                path: path.to_path_buf(),
                dir: dir.to_path_buf(),
                source,
            })?;
        }
        match std::fs::metadata(path) {
            Ok(m) if m.len() > 0 => {
                writable_logs(path, &m);
                // Read the version without the right to write anything.
                let ro = Connection::open_with_flags(
                    path,
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )
                .map_err(|e| classify(e, path))?;
                ro.busy_timeout(BUSY_TIMEOUT)
                    .map_err(|e| classify(e, path))?;
                let found = user_version(&ro).map_err(|e| classify(e, path))?;
                check_version(found, path)?;
                ro.close().map_err(|(_, e)| classify(e, path))?;
            }
            Ok(_) => {}
            Err(_) => create_file(path).map_err(|source| StoreError::CreateFile {
                path: path.to_path_buf(),
                source,
            })?,
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| classify(e, path))?;
        Store::setup(conn, path.to_path_buf(), true)
    }

    /// A store in memory, gone when dropped (for tests). Same schema and rules as a file.
    ///
    /// # Errors
    /// [`StoreError::Open`] or [`StoreError::Migration`] (not expected).
    pub fn open_in_memory() -> Result<Store> {
        let path = PathBuf::from(":memory:");
        let conn = Connection::open_in_memory().map_err(|e| classify(e, &path))?;
        Store::setup(conn, path, false)
    }

    /// Opens the team store on the PostgreSQL server of `url` (`postgres://USER[:PASSWORD]@HOST[:PORT]/DB`,
    /// with `?sslmode=disable|prefer|require` and `sslrootcert=PEM-FILE`; see [`StoreUrl`] and
    /// [`tls_options`]) and brings its schema up to
    /// [`SCHEMA_VERSION`] in one transaction under the store's write lock (processes starting
    /// together migrate once).
    ///
    /// # Errors
    /// [`StoreError::Postgres`] when the server cannot be reached, refuses the login or a
    /// migration step (rolled back); [`StoreError::NewerSchema`] for a database of a newer
    /// prospect (left untouched). No message carries the password.
    pub fn open_postgres(url: &str) -> Result<Store> {
        let shown = StoreUrl::redact(url);
        let (url, root) = tls_options(url)
            .map_err(|m| StoreError::Postgres(format!("{shown}: not a PostgreSQL URL: {m}")))?;
        let mut config: tokio_postgres::Config =
            url.parse().map_err(|e: tokio_postgres::Error| {
                StoreError::Postgres(format!("{shown}: not a PostgreSQL URL: {e}"))
            })?;
        // A server that does not answer is given up on in seconds, not the system's minutes
        // (`connect_timeout` in the URL, in seconds, overrides it).
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(PG_CONNECT_TIMEOUT);
        }
        let pg = db::PgConn::connect(config, root).map_err(|e| match e {
            StoreError::Postgres(m) => StoreError::Postgres(format!("{shown}: {m}")),
            other => other,
        })?;
        let mut conn = Conn::Pg(pg);
        let path = PathBuf::from(shown);
        migrate_pg(&mut conn, &path)?;
        Ok(Store {
            conn,
            path,
            buyer: String::new(),
            checkpointer: None,
            settled_seen: None,
            unpacked: claims::Unpacked::default(),
        })
    }

    /// Opens the store `url` names: [`Store::open`] for SQLite, [`Store::open_postgres`] for
    /// PostgreSQL.
    ///
    /// # Errors
    /// As those.
    pub fn open_url(url: &StoreUrl) -> Result<Store> {
        match url {
            StoreUrl::Sqlite(path) => Store::open(path),
            StoreUrl::Postgres(url) => Store::open_postgres(url),
        }
    }

    /// The SQLite connection of a local store (tests that look under the store).
    ///
    /// # Panics
    /// On a PostgreSQL store.
    #[cfg(test)]
    pub(crate) fn lite(&self) -> &Connection {
        match &self.conn {
            Conn::Lite(c) => c,
            Conn::Pg(_) => panic!("a PostgreSQL store has no SQLite connection"),
        }
    }

    /// Records `name` (sanitized, trimmed) as the buyer of every purchase kept from now on
    /// (issue 17: a team store shows who bought what; `prospect history --spend --user`).
    pub fn set_buyer(&mut self, name: &str) {
        self.buyer = clean_key(name);
    }

    /// `true` when the store is the team's PostgreSQL ledger.
    pub fn is_shared(&self) -> bool {
        self.conn.is_pg()
    }

    /// The file name of the store in the data folder: `"sandbox.sqlite"` for the embedded
    /// sandbox, `"prospect.sqlite"` for the real service.
    pub fn default_file_name(sandbox: bool) -> &'static str {
        if sandbox {
            "sandbox.sqlite"
        } else {
            "prospect.sqlite"
        }
    }

    /// The store file (`":memory:"` for [`Store::open_in_memory`]).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version of the open file (equal to [`SCHEMA_VERSION`] once opened).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] when the pragma cannot be read.
    pub fn schema_version(&self) -> Result<i64> {
        match &self.conn {
            Conn::Lite(c) => Ok(user_version(c)?),
            Conn::Pg(_) => self.conn.query_row(PG_VERSION, db::params![], |r| r.get(0)),
        }
    }

    /// Connection settings, migrations, then WAL (a file only; WAL cannot be set inside the
    /// migration transaction, and must not be set before the version is checked).
    fn setup(mut conn: Connection, path: PathBuf, file: bool) -> Result<Store> {
        let configure = |conn: &Connection| -> rusqlite::Result<()> {
            conn.busy_timeout(BUSY_TIMEOUT)?;
            // Takes effect only when the file is new (nothing is written here): rows of a few
            // KB (a company record, a page of results) then fit in one page, and a 6 MB answer
            // spans half the pages it would with the 4 KiB default (see `PAGE_SIZE`).
            conn.pragma_update(None, "page_size", PAGE_SIZE)?;
            conn.pragma_update(None, "foreign_keys", true)?;
            conn.pragma_update(None, "synchronous", "NORMAL")?;
            // Statement journals (an upsert that may abort saves each page it changes first)
            // and temporary tables stay in memory rather than in a temporary file: saving a
            // 1,000-company answer otherwise writes its pages twice through the kernel.
            conn.pragma_update(None, "temp_store", "MEMORY")?;
            // A checkpoint (with its two fsyncs) per 64 MiB written rather than per 16 MiB:
            // one large answer then rarely pays for one. The log is cut back to 64 MiB after.
            // The page size a file has (an older file keeps its own; a new one has PAGE_SIZE).
            let page: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
            conn.pragma_update(
                None,
                "wal_autocheckpoint",
                WAL_CHECKPOINT_BYTES / page.max(512),
            )?;
            conn.pragma_update(None, "journal_size_limit", WAL_LIMIT_BYTES)?;
            // Pages of the file are read through a memory map (no `read` call and no copy per
            // page): finding 1,000 companies among 100,000 touches about 2,000 pages, many more
            // than the 2 MiB page cache holds. Address space only; the memory is the kernel's
            // file cache. (Pages still in the log are read as before.)
            conn.pragma_update(None, "mmap_size", MMAP_BYTES)?;
            // A page cache of up to 32 MiB (SQLite's default: 2 MiB): a 1,000-company answer
            // changes about 12 MB of pages in one transaction; with the default cache most of
            // them are spilled to the log before the commit and read back from it.
            conn.pragma_update(None, "cache_size", -CACHE_KIB)?;
            conn.set_prepared_statement_cache_capacity(64);
            Ok(())
        };
        configure(&conn).map_err(|e| classify(e, &path))?;
        // `rarray(?)`: a list of keys as one parameter, for the batch getters.
        rusqlite::vtab::array::load_module(&conn).map_err(|e| classify(e, &path))?;
        migrate(&mut conn, &path)?;
        if file {
            let mode: String = conn
                .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
                .map_err(|e| classify(e, &path))?;
            if !mode.eq_ignore_ascii_case("wal") {
                tracing::warn!(path = %path.display(), mode, "store: WAL mode not available; using the rollback journal");
            }
        }
        let checkpointer = file.then(|| checkpoint::Checkpointer::new(&path));
        Ok(Store {
            conn: Conn::Lite(conn),
            path,
            buyer: String::new(),
            checkpointer,
            settled_seen: None,
            unpacked: claims::Unpacked::default(),
        })
    }
}

/// Gives the store's `-wal` and `-shm` files the write permission the store file `db` has
/// (issue 34): SQLite makes them with the file's mode, so a run on a store made read-only for
/// a while leaves them read-only, and every later run fails to open it once the file is
/// writable again. Nothing is changed for a store that is itself read-only; a failure is logged.
fn writable_logs(db: &Path, meta: &std::fs::Metadata) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o200 == 0 {
            return;
        }
        for suffix in ["-wal", "-shm"] {
            let mut name = db.as_os_str().to_os_string();
            name.push(suffix);
            let log = PathBuf::from(name);
            let Ok(m) = std::fs::metadata(&log) else {
                continue;
            };
            if m.permissions().mode() & 0o200 == 0
                && let Err(e) =
                    std::fs::set_permissions(&log, std::fs::Permissions::from_mode(mode))
            {
                tracing::warn!(file = %log.display(), error = %e, "store: a read-only log file");
            }
        }
    }
    #[cfg(not(unix))]
    let _ = (db, meta);
}

/// Runs the missing migration steps in one immediate transaction; refuses a newer file before
/// writing anything.
fn migrate(conn: &mut Connection, path: &Path) -> Result<()> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| classify(e, path))?;
    let found = user_version(&tx).map_err(|e| classify(e, path))?;
    check_version(found, path)?;
    if found == SCHEMA_VERSION {
        return Ok(()); // dropping `tx` ends the empty transaction
    }
    for (i, step) in schema::MIGRATIONS.iter().enumerate().skip(found as usize) {
        let version = i as i64 + 1;
        tx.execute_batch(step)
            .map_err(|source| StoreError::Migration {
                path: path.to_path_buf(),
                version,
                source,
            })?;
    }
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)
        .and_then(|()| tx.commit())
        .map_err(|source| StoreError::Migration {
            path: path.to_path_buf(),
            version: SCHEMA_VERSION,
            source,
        })?;
    if found > 0 {
        tracing::info!(path = %path.display(), from = found, to = SCHEMA_VERSION, "store: schema migrated");
    }
    Ok(())
}

/// The schema version of a PostgreSQL store (the one row of `prospect_schema`).
const PG_VERSION: &str = "SELECT version FROM prospect_schema";

/// [`migrate`] on PostgreSQL: the missing steps of [`schema::PG_MIGRATIONS`] in one
/// transaction under the write lock.
fn migrate_pg(conn: &mut Conn, path: &Path) -> Result<()> {
    let tx = conn.begin()?;
    tx.execute(
        "CREATE TABLE IF NOT EXISTS prospect_schema (version BIGINT NOT NULL)",
        db::params![],
    )?;
    let found: i64 = tx
        .query_row(PG_VERSION, db::params![], |r| r.get(0))
        .optional()?
        .unwrap_or(0);
    check_version(found, path)?;
    if found == SCHEMA_VERSION {
        return Ok(());
    }
    let Conn::Pg(pg) = &*tx else {
        unreachable!("migrate_pg is given a PostgreSQL connection")
    };
    for (i, step) in schema::PG_MIGRATIONS
        .iter()
        .enumerate()
        .skip(found as usize)
    {
        pg.batch((*step).to_string()).map_err(|e| {
            StoreError::Postgres(format!(
                "{}: migration to schema {} failed: {e}",
                path.display(),
                i + 1
            ))
        })?;
    }
    tx.execute("DELETE FROM prospect_schema", db::params![])?;
    tx.execute(
        "INSERT INTO prospect_schema (version) VALUES (?1)",
        db::params![SCHEMA_VERSION],
    )?;
    tx.commit()?;
    tracing::info!(store = %path.display(), from = found, to = SCHEMA_VERSION, "store: schema migrated");
    Ok(())
}

/// Where the store lives, as `store_url`, `--store-url` or `PROSPECT_STORE_URL` name it (issue
/// 17): `sqlite://PATH` (a file; a bare path too) or `postgres://USER@HOST:PORT/DB` (also
/// `postgresql://`). Shown and logged only through [`StoreUrl::redacted`] (no password).
#[derive(Clone, PartialEq, Eq)]
pub enum StoreUrl {
    /// A local SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL server, the whole URL (it may hold a password: never print it).
    Postgres(String),
}

impl fmt::Debug for StoreUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StoreUrl({})", self.redacted())
    }
}

impl StoreUrl {
    /// Reads `s`: `sqlite://PATH`, `postgres://…` / `postgresql://…`, or a plain file path.
    ///
    /// # Errors
    /// An empty value, or another scheme (`mysql://…`), in words naming the schemes taken.
    pub fn parse(s: &str) -> std::result::Result<StoreUrl, String> {
        let t = s.trim();
        if t.is_empty() {
            return Err(
                "store URL is empty (use sqlite://PATH or postgres://USER@HOST:PORT/DB)".into(),
            );
        }
        if let Some(path) = t.strip_prefix("sqlite://") {
            if path.is_empty() {
                return Err("store URL sqlite:// names no file".into());
            }
            return Ok(StoreUrl::Sqlite(PathBuf::from(path)));
        }
        if t.starts_with("postgres://") || t.starts_with("postgresql://") {
            return Ok(StoreUrl::Postgres(t.to_string()));
        }
        if let Some((scheme, _)) = t.split_once("://") {
            return Err(format!(
                "store URL scheme {scheme}:// is not supported (use sqlite://PATH or postgres://USER@HOST:PORT/DB)"
            ));
        }
        Ok(StoreUrl::Sqlite(PathBuf::from(t)))
    }

    /// The URL without its password (`postgres://ann:***@db:5432/team`), for screens and logs.
    pub fn redacted(&self) -> String {
        match self {
            StoreUrl::Sqlite(p) => format!("sqlite://{}", p.display()),
            StoreUrl::Postgres(u) => StoreUrl::redact(u),
        }
    }

    /// `url` with the password of its user part (and any `password=` parameter) replaced by
    /// `***`.
    fn redact(url: &str) -> String {
        let mut out = url.to_string();
        if let Some(scheme_end) = out.find("://") {
            let rest_start = scheme_end + 3;
            let auth_end = out[rest_start..]
                .find(['/', '?'])
                .map_or(out.len(), |i| rest_start + i);
            if let Some(at) = out[rest_start..auth_end].rfind('@') {
                let userinfo = &out[rest_start..rest_start + at];
                if let Some(colon) = userinfo.find(':') {
                    out.replace_range(rest_start + colon + 1..rest_start + at, "***");
                }
            }
        }
        if let Some(i) = out.find("password=") {
            let end = out[i..].find('&').map_or(out.len(), |j| i + j);
            out.replace_range(i + "password=".len()..end, "***");
        }
        out
    }
}

fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
}

fn check_version(found: i64, path: &Path) -> Result<()> {
    if found > SCHEMA_VERSION {
        Err(StoreError::NewerSchema {
            found,
            supported: SCHEMA_VERSION,
            path: path.to_path_buf(),
        })
    } else if found < 0 {
        Err(StoreError::UnknownSchema {
            found,
            path: path.to_path_buf(),
        })
    } else {
        Ok(())
    }
}

/// An error of opening: "not a database" gets its own variant, the rest names the path.
fn classify(e: rusqlite::Error, path: &Path) -> StoreError {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase) => StoreError::NotADatabase {
            path: path.to_path_buf(),
        },
        _ => StoreError::Open {
            path: path.to_path_buf(),
            source: e,
        },
    }
}

fn create_dir(dir: &Path) -> std::io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(0o700);
    }
    b.create(dir)
}

/// Creates an empty file readable by its owner only (SQLite gives its `-wal` and `-shm` files
/// the same mode). An existing file is left as it is.
fn create_file(path: &Path) -> std::io::Result<()> {
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    match o.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// Unix milliseconds UTC of a time (the file's unit).
fn to_millis(at: DateTime<Utc>) -> i64 {
    at.timestamp_millis()
}

/// The time of stored unix milliseconds; `None` (with a warning naming the row) when out of range.
fn from_millis(ms: i64, table: &str, key: &dyn fmt::Display) -> Option<DateTime<Utc>> {
    let t = DateTime::from_timestamp_millis(ms);
    if t.is_none() {
        tracing::warn!(table, %key, ms, "store: skipping a row whose time is out of range");
    }
    t
}

/// A text key (person id, event name, target) sanitized and trimmed.
fn clean_key(s: &str) -> String {
    let s = sanitize(s);
    let t = s.trim();
    if t.len() == s.len() { s } else { t.to_string() }
}

/// Stored JSON read back; `None` (with a warning naming the row) when it no longer parses.
fn read_json<T: DeserializeOwned>(text: &str, table: &str, key: &dyn fmt::Display) -> Option<T> {
    match serde_json::from_str(text) {
        Ok(v) => Some(v),
        Err(error) => {
            tracing::warn!(table, %key, %error, "store: skipping a row whose JSON does not parse");
            None
        }
    }
}

/// `limit` as an SQL `LIMIT` value.
fn sql_limit(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}
