//! One SQL connection, two engines: the statement API every store method is written against,
//! run on SQLite (rusqlite, in this process) or PostgreSQL (the `postgres` crate, on a thread of
//! its own). The store's SQL is written once, in SQLite's dialect with numbered parameters
//! (`?1`), and turned into PostgreSQL's by [`pg_sql`] (`$1`, `rarray(?1)` → `unnest($1::text[])`).
//!
//! - Values: integers are `i64` (PostgreSQL `BIGINT`), reals `f64` (`DOUBLE PRECISION`), text
//!   `String` (`TEXT`), bytes `Vec<u8>` (`BYTEA`), key lists [`Keys`] (`text[]`).
//! - Writes run in [`Tx`], begun by [`Conn::begin`]: one writer at a time on both engines
//!   (SQLite `BEGIN IMMEDIATE`; PostgreSQL a transaction that first takes the store's advisory
//!   lock, [`WRITE_LOCK`]), so a read-then-write (a claim) sees no other writer in between,
//!   whichever process or machine it runs on.
//! - PostgreSQL runs on its own thread because the `postgres` client drives a runtime of its own,
//!   which cannot be entered from async code; the store is called from both.
//!
//! Errors are [`StoreError::Sqlite`] / [`StoreError::Postgres`]; no message carries the URL's
//! password (the `postgres` errors never name the connection string).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::mpsc;

use rusqlite::types::{ToSqlOutput, Value as SqlValue};
use rusqlite::vtab::array::Array;
use tokio_postgres::types::{FromSql, IsNull, ToSql, Type, to_sql_checked};

use super::{Result, StoreError};

mod values;

pub(crate) use values::*;

/// The advisory lock key every PostgreSQL write transaction takes first: one writer at a time,
/// as in SQLite (`"prospect"` in ASCII).
pub const WRITE_LOCK: i64 = 0x0070_726f_7370_6563;

/// A connection of either engine.
pub(super) enum Conn {
    /// The local file (or memory).
    Lite(rusqlite::Connection),
    /// The team's server.
    Pg(PgConn),
}

/// A parameter of a statement, bound the same way on both engines.
pub(super) trait Param: rusqlite::ToSql {
    /// The value sent to PostgreSQL.
    fn pg(&self) -> PgValue;
}

/// Parameters as a slice: `params![a, b]`.
macro_rules! params {
    () => { &[] as &[&dyn $crate::db::Param] };
    ($($p:expr),+ $(,)?) => { &[$(&$p as &dyn $crate::db::Param),+] as &[&dyn $crate::db::Param] };
}
pub(super) use params;

/// A column index (rusqlite's `get::<_, T>(i)` shape, kept so call sites read the same).
pub(super) trait ColIndex: Copy {
    /// The 0-based index.
    fn index(self) -> usize;
}
impl ColIndex for usize {
    fn index(self) -> usize {
        self
    }
}

/// One row of an answer.
pub(super) enum Row<'a> {
    /// A SQLite row.
    Lite(&'a rusqlite::Row<'a>),
    /// A PostgreSQL row.
    Pg(&'a tokio_postgres::Row),
}

impl Row<'_> {
    /// Column `i` as `T`.
    ///
    /// # Errors
    /// The column is missing or holds another type.
    pub(super) fn get<I: ColIndex, T: FromCol>(&self, i: I) -> Result<T> {
        let i = i.index();
        match self {
            Row::Lite(r) => Ok(r.get::<_, T>(i)?),
            Row::Pg(r) => {
                let v: Loose = r.try_get(i)?;
                T::from_loose(v).map_err(|e| StoreError::Postgres(format!("column {i}: {e}")))
            }
        }
    }
}

/// Rows of a query, read one at a time.
pub(super) enum Rows<'s> {
    /// SQLite's cursor.
    Lite(rusqlite::Rows<'s>),
    /// PostgreSQL's answer, all fetched.
    Pg(
        std::vec::IntoIter<tokio_postgres::Row>,
        Option<tokio_postgres::Row>,
    ),
}

impl Rows<'_> {
    /// The next row, `None` at the end.
    ///
    /// # Errors
    /// A database error while stepping.
    pub(super) fn next(&mut self) -> Result<Option<Row<'_>>> {
        match self {
            Rows::Lite(r) => Ok(r.next()?.map(Row::Lite)),
            Rows::Pg(it, cur) => {
                *cur = it.next();
                Ok(cur.as_ref().map(Row::Pg))
            }
        }
    }
}

/// A prepared (and cached) statement.
pub(super) enum Stmt<'c> {
    /// SQLite's cached statement.
    Lite(rusqlite::CachedStatement<'c>),
    /// A SQLite statement used once (a long read that should not hold the cache).
    LiteOnce(rusqlite::Statement<'c>),
    /// The PostgreSQL text (already translated) and its connection.
    Pg(&'c PgConn, Arc<str>),
}

fn lite_params<'p>(
    p: &'p [&'p dyn Param],
) -> rusqlite::ParamsFromIter<impl Iterator<Item = &'p dyn rusqlite::ToSql>> {
    rusqlite::params_from_iter(p.iter().map(|p| *p as &dyn rusqlite::ToSql))
}

fn pg_params(p: &[&dyn Param]) -> Vec<PgValue> {
    p.iter().map(|p| p.pg()).collect()
}

impl Stmt<'_> {
    /// Runs the statement; the number of rows changed.
    ///
    /// # Errors
    /// A database error.
    pub(super) fn execute(&mut self, p: &[&dyn Param]) -> Result<usize> {
        match self {
            Stmt::Lite(s) => Ok(s.execute(lite_params(p))?),
            Stmt::LiteOnce(s) => Ok(s.execute(lite_params(p))?),
            Stmt::Pg(c, sql) => c.execute(sql.clone(), pg_params(p)),
        }
    }

    /// Runs the statement when its answer is not needed: at once on SQLite; on PostgreSQL
    /// sent with the next statements in one round trip (an error then comes from the next
    /// statement or the commit, and fails the transaction as it would have here).
    ///
    /// # Errors
    /// A database error (SQLite).
    pub(super) fn execute_deferred(&mut self, p: &[&dyn Param]) -> Result<()> {
        match self {
            Stmt::Lite(s) => s.execute(lite_params(p)).map(drop).map_err(Into::into),
            Stmt::LiteOnce(s) => s.execute(lite_params(p)).map(drop).map_err(Into::into),
            Stmt::Pg(c, sql) => {
                c.defer(sql.clone(), pg_params(p));
                Ok(())
            }
        }
    }

    /// Runs an `INSERT` into a table with an `id` row id; the id of the new row.
    ///
    /// # Errors
    /// A database error.
    pub(super) fn insert(&mut self, p: &[&dyn Param]) -> Result<i64> {
        match self {
            Stmt::Lite(s) => Ok(s.insert(lite_params(p))?),
            Stmt::LiteOnce(s) => Ok(s.insert(lite_params(p))?),
            Stmt::Pg(c, sql) => {
                let sql: Arc<str> = format!("{sql} RETURNING id").into();
                let rows = c.query(sql, pg_params(p))?;
                let row = rows.first().ok_or(StoreError::NoRows)?;
                Row::Pg(row).get(0)
            }
        }
    }

    /// Runs a query and reads its rows.
    ///
    /// # Errors
    /// A database error.
    pub(super) fn query(&mut self, p: &[&dyn Param]) -> Result<Rows<'_>> {
        match self {
            Stmt::Lite(s) => Ok(Rows::Lite(s.query(lite_params(p))?)),
            Stmt::LiteOnce(s) => Ok(Rows::Lite(s.query(lite_params(p))?)),
            Stmt::Pg(c, sql) => Ok(Rows::Pg(
                c.query(sql.clone(), pg_params(p))?.into_iter(),
                None,
            )),
        }
    }

    /// The first row of a query through `f`; [`StoreError::NoRows`] without one.
    ///
    /// # Errors
    /// A database error, `NoRows`, or `f`'s error.
    pub(super) fn query_row<T>(
        &mut self,
        p: &[&dyn Param],
        f: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<T> {
        let mut rows = self.query(p)?;
        match rows.next()? {
            Some(r) => f(&r),
            None => Err(StoreError::NoRows),
        }
    }

    /// Every row of a query through `f`, in order, each as `f` read it (rusqlite's
    /// `query_map` shape: an item is `Err` when `f` failed on its row).
    ///
    /// # Errors
    /// A database error while running or stepping.
    pub(super) fn query_map<T>(
        &mut self,
        p: &[&dyn Param],
        mut f: impl FnMut(&Row<'_>) -> Result<T>,
    ) -> Result<std::vec::IntoIter<Result<T>>> {
        let mut rows = self.query(p)?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            out.push(f(&r));
        }
        Ok(out.into_iter())
    }
}

/// `Ok(None)` for [`StoreError::NoRows`] (a query without a row).
pub(super) trait OptionalExt<T> {
    /// The value, `None` when there was no row.
    ///
    /// # Errors
    /// Any other error.
    fn optional(self) -> Result<Option<T>>;
}

impl<T> OptionalExt<T> for Result<T> {
    fn optional(self) -> Result<Option<T>> {
        match self {
            Ok(v) => Ok(Some(v)),
            Err(StoreError::NoRows)
            | Err(StoreError::Sqlite(rusqlite::Error::QueryReturnedNoRows)) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

impl Conn {
    /// The statement of `sql` (SQLite's dialect), prepared once per connection.
    ///
    /// # Errors
    /// SQL the engine refuses.
    pub(super) fn prepare_cached(&self, sql: &str) -> Result<Stmt<'_>> {
        match self {
            Conn::Lite(c) => Ok(Stmt::Lite(c.prepare_cached(sql)?)),
            Conn::Pg(c) => Ok(Stmt::Pg(c, c.translate(sql))),
        }
    }

    /// The statement of `sql`, not cached (SQLite; PostgreSQL caches every statement).
    ///
    /// # Errors
    /// SQL the engine refuses.
    pub(super) fn prepare(&self, sql: &str) -> Result<Stmt<'_>> {
        match self {
            Conn::Lite(c) => Ok(Stmt::LiteOnce(c.prepare(sql)?)),
            Conn::Pg(c) => Ok(Stmt::Pg(c, c.translate(sql))),
        }
    }

    /// Runs `sql`, statements without parameters, on SQLite only (pragmas); nothing on
    /// PostgreSQL.
    ///
    /// # Errors
    /// A database error.
    pub(super) fn lite_batch(&self, sql: &str) -> Result<()> {
        if let Conn::Lite(c) = self {
            c.execute_batch(sql)?;
        }
        Ok(())
    }

    /// [`Stmt::execute`] of `sql`.
    ///
    /// # Errors
    /// As there.
    pub(super) fn execute(&self, sql: &str, p: &[&dyn Param]) -> Result<usize> {
        self.prepare_cached(sql)?.execute(p)
    }

    /// [`Stmt::query_row`] of `sql`.
    ///
    /// # Errors
    /// As there.
    pub(super) fn query_row<T>(
        &self,
        sql: &str,
        p: &[&dyn Param],
        f: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<T> {
        self.prepare_cached(sql)?.query_row(p, f)
    }

    /// Begins a write transaction (one writer at a time; see the module docs). Dropped
    /// without [`Tx::commit`], it rolls back.
    ///
    /// # Errors
    /// Busy past the timeout, or the connection failed.
    pub(super) fn begin(&mut self) -> Result<Tx<'_>> {
        match self {
            Conn::Lite(c) => c.execute_batch("BEGIN IMMEDIATE")?,
            Conn::Pg(c) => c.batch(format!(
                "BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK});"
            ))?,
        }
        Ok(Tx {
            conn: self,
            done: false,
        })
    }

    /// `true` for PostgreSQL.
    pub(super) fn is_pg(&self) -> bool {
        matches!(self, Conn::Pg(_))
    }
}

/// A write transaction; derefs to its connection.
pub(super) struct Tx<'c> {
    conn: &'c Conn,
    done: bool,
}

impl std::ops::Deref for Tx<'_> {
    type Target = Conn;
    fn deref(&self) -> &Conn {
        self.conn
    }
}

impl Tx<'_> {
    /// Commits.
    ///
    /// # Errors
    /// The commit failed (then nothing of the transaction is kept).
    pub(super) fn commit(mut self) -> Result<()> {
        self.done = true;
        match self.conn {
            Conn::Lite(c) => {
                if let Err(e) = c.execute_batch("COMMIT") {
                    let _ = c.execute_batch("ROLLBACK");
                    return Err(e.into());
                }
            }
            Conn::Pg(c) => {
                if let Err(e) = c.batch("COMMIT".to_string()) {
                    c.discard();
                    let _ = c.batch("ROLLBACK".to_string());
                    return Err(e);
                }
            }
        }
        Ok(())
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if !self.done {
            let _ = match self.conn {
                Conn::Lite(c) => c.execute_batch("ROLLBACK").map_err(StoreError::from),
                Conn::Pg(c) => {
                    c.discard();
                    c.batch("ROLLBACK".to_string())
                }
            };
        }
    }
}

/// What the PostgreSQL thread runs: a closure over its client and statement cache.
type PgJob = Box<dyn FnOnce(&mut PgState) + Send>;

/// A statement whose answer nobody waits for: sent with the next ones in one round trip.
type Deferred = (Arc<str>, Vec<PgValue>);

/// The client, its runtime and its prepared statements, owned by the PostgreSQL thread.
pub(super) struct PgState {
    rt: tokio::runtime::Runtime,
    client: tokio_postgres::Client,
    cache: HashMap<Arc<str>, tokio_postgres::Statement>,
}

impl PgState {
    fn statement(
        &mut self,
        sql: &Arc<str>,
    ) -> std::result::Result<tokio_postgres::Statement, tokio_postgres::Error> {
        if let Some(s) = self.cache.get(sql) {
            return Ok(s.clone());
        }
        let s = self.rt.block_on(self.client.prepare(sql))?;
        self.cache.insert(sql.clone(), s.clone());
        Ok(s)
    }

    fn args(values: &[PgValue]) -> Vec<&(dyn ToSql + Sync)> {
        values.iter().map(|v| v as &(dyn ToSql + Sync)).collect()
    }

    /// Runs `deferred` pipelined (all sent before the first answer is read), in order.
    fn flush(&mut self, deferred: Vec<Deferred>) -> std::result::Result<(), tokio_postgres::Error> {
        if deferred.is_empty() {
            return Ok(());
        }
        let stmts = deferred
            .iter()
            .map(|(sql, _)| self.statement(sql))
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let client = &self.client;
        self.rt.block_on(async {
            let runs = stmts
                .iter()
                .zip(&deferred)
                .map(|(st, (_, values))| async move {
                    client.execute(st, &PgState::args(values)).await
                });
            futures::future::try_join_all(runs).await
        })?;
        Ok(())
    }

    fn execute(
        &mut self,
        sql: &Arc<str>,
        values: &[PgValue],
    ) -> std::result::Result<u64, tokio_postgres::Error> {
        let st = self.statement(sql)?;
        self.rt
            .block_on(self.client.execute(&st, &PgState::args(values)))
    }

    fn query(
        &mut self,
        sql: &Arc<str>,
        values: &[PgValue],
    ) -> std::result::Result<Vec<tokio_postgres::Row>, tokio_postgres::Error> {
        let st = self.statement(sql)?;
        self.rt
            .block_on(self.client.query(&st, &PgState::args(values)))
    }
}

/// A PostgreSQL connection on a thread of its own (see the module docs).
pub(super) struct PgConn {
    jobs: Option<mpsc::Sender<PgJob>>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// SQLite text → PostgreSQL text.
    translated: RefCell<HashMap<String, Arc<str>>>,
    /// Statements run with [`Stmt::execute_deferred`], sent before the next statement.
    deferred: RefCell<Vec<Deferred>>,
}

impl PgConn {
    /// Connects with `config` (TLS by rustls unless the URL says `sslmode=disable`).
    ///
    /// # Errors
    /// The server cannot be reached or refuses the login: [`StoreError::Postgres`].
    pub(super) fn connect(
        config: tokio_postgres::Config,
        root: Option<std::path::PathBuf>,
    ) -> Result<PgConn> {
        let (ready_tx, ready_rx) = mpsc::sync_channel::<std::result::Result<(), String>>(1);
        let (jobs_tx, jobs_rx) = mpsc::channel::<PgJob>();
        let thread = std::thread::Builder::new()
            .name("store-postgres".into())
            .spawn(move || {
                let mut state = match connect_client(&config, root.as_deref()) {
                    Ok(s) => s,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                // A writer waits for the write lock at most as long as SQLite's busy timeout,
                // then fails (the spend engine then hands the answer to a recovery file)
                // rather than waiting forever.
                let timeout = format!("SET lock_timeout = '{}ms'", super::BUSY_TIMEOUT.as_millis());
                if let Err(e) = state.rt.block_on(state.client.batch_execute(&timeout)) {
                    let _ = ready_tx.send(Err(super::error::pg_text(&e)));
                    return;
                }
                let _ = ready_tx.send(Ok(()));
                while let Ok(job) = jobs_rx.recv() {
                    job(&mut state);
                }
            })
            .map_err(|e| {
                StoreError::Postgres(format!("cannot start the connection's thread: {e}"))
            })?;
        match ready_rx.recv() {
            Ok(Ok(())) => Ok(PgConn {
                jobs: Some(jobs_tx),
                thread: Some(thread),
                translated: RefCell::new(HashMap::new()),
                deferred: RefCell::new(Vec::new()),
            }),
            Ok(Err(e)) => Err(StoreError::Postgres(e)),
            Err(_) => Err(StoreError::Postgres("the connection's thread ended".into())),
        }
    }

    /// Runs `f` on the connection's thread, after the deferred statements, and waits for its
    /// answer.
    fn run<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut PgState) -> std::result::Result<R, tokio_postgres::Error> + Send + 'static,
    ) -> Result<R> {
        let deferred = std::mem::take(&mut *self.deferred.borrow_mut());
        let (tx, rx) = mpsc::sync_channel(1);
        let job: PgJob = Box::new(move |st| {
            let r = st.flush(deferred).and_then(|()| f(st));
            let _ = tx.send(r);
        });
        self.jobs
            .as_ref()
            .and_then(|j| j.send(job).ok())
            .ok_or_else(|| StoreError::Postgres("the connection is closed".into()))?;
        match rx.recv() {
            Ok(r) => Ok(r?),
            Err(_) => Err(StoreError::Postgres("the connection's thread ended".into())),
        }
    }

    /// The PostgreSQL text of `sql`, translated once.
    fn translate(&self, sql: &str) -> Arc<str> {
        let mut t = self.translated.borrow_mut();
        if let Some(s) = t.get(sql) {
            return s.clone();
        }
        let s: Arc<str> = pg_sql(sql).into();
        t.insert(sql.to_string(), s.clone());
        s
    }

    fn execute(&self, sql: Arc<str>, values: Vec<PgValue>) -> Result<usize> {
        let n = self.run(move |st| st.execute(&sql, &values))?;
        Ok(n as usize)
    }

    fn defer(&self, sql: Arc<str>, values: Vec<PgValue>) {
        self.deferred.borrow_mut().push((sql, values));
    }

    fn query(&self, sql: Arc<str>, values: Vec<PgValue>) -> Result<Vec<tokio_postgres::Row>> {
        self.run(move |st| st.query(&sql, &values))
    }

    /// Runs statements without parameters (`batch_execute`), after the deferred ones.
    ///
    /// # Errors
    /// [`StoreError::Postgres`].
    pub(super) fn batch(&self, sql: String) -> Result<()> {
        self.run(move |st| st.rt.block_on(st.client.batch_execute(&sql)))
    }

    /// Drops the deferred statements unsent (a transaction rolled back).
    fn discard(&self) {
        self.deferred.borrow_mut().clear();
    }
}

impl Drop for PgConn {
    fn drop(&mut self) {
        self.jobs = None; // ends the thread's loop
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Connects the client: plain when the URL says `sslmode=disable`, else through rustls with
/// the web's root certificates (`sslmode=prefer`, the default, falls back to plain when the
/// server has no TLS; `require` does not).
fn connect_client(
    config: &tokio_postgres::Config,
    root: Option<&std::path::Path>,
) -> std::result::Result<PgState, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("runtime: {e}"))?;
    let client = if config.get_ssl_mode() == tokio_postgres::config::SslMode::Disable {
        rt.block_on(async {
            let (client, conn) = config.connect(tokio_postgres::NoTls).await?;
            tokio::spawn(drive(conn));
            Ok::<_, tokio_postgres::Error>(client)
        })
    } else {
        let roots = match root {
            Some(path) => root_certs(path)?,
            None => rustls::RootCertStore {
                roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
            },
        };
        let tls = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS setup: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
        let tls = tokio_postgres_rustls::MakeRustlsConnect::new(tls);
        rt.block_on(async {
            let (client, conn) = config.connect(tls).await?;
            tokio::spawn(drive(conn));
            Ok::<_, tokio_postgres::Error>(client)
        })
    }
    .map_err(|e| super::error::pg_text(&e))?;
    Ok(PgState {
        rt,
        client,
        cache: HashMap::new(),
    })
}

/// The certificates of PEM file `path` (`sslrootcert`), as the only roots a server's
/// certificate may chain to.
///
/// # Errors
/// The file cannot be read, or holds no certificate that rustls takes, naming it.
fn root_certs(path: &std::path::Path) -> std::result::Result<rustls::RootCertStore, String> {
    use rustls::pki_types::{CertificateDer, pem::PemObject};
    let shown = path.display();
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(path)
        .and_then(|it| it.collect::<std::result::Result<_, _>>())
        .map_err(|e| format!("sslrootcert {shown}: {e}"))?;
    let mut roots = rustls::RootCertStore::empty();
    let (added, _) = roots.add_parsable_certificates(certs);
    if added == 0 {
        return Err(format!("sslrootcert {shown}: no certificate in it"));
    }
    Ok(roots)
}

/// Drives the connection (its messages move while the thread runs a statement).
async fn drive<S, T>(conn: tokio_postgres::Connection<S, T>)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    if let Err(e) = conn.await {
        tracing::warn!(error = %e, "store: the PostgreSQL connection ended");
    }
}

/// `sql` without SQLite's `INDEXED BY <index>` hints (PostgreSQL has no such clause and
/// chooses its own plan).
fn without_index_hints(sql: &str) -> String {
    const HINT: &str = " INDEXED BY ";
    let mut out = String::with_capacity(sql.len());
    let mut rest = sql;
    while let Some(at) = rest.find(HINT) {
        out.push_str(&rest[..at]);
        let after = &rest[at + HINT.len()..];
        let name = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        rest = &after[name..];
    }
    out.push_str(rest);
    out
}

/// SQLite's dialect as the store writes it, in PostgreSQL's: `?N` → `$N`; the searches'
/// identity by `md5(body)` (its conflict target and its look-up);
/// `rarray(?N) AS k` → `unnest($N::text[]) AS k(value)`; `IN rarray(?N)` → `= ANY($N::text[])`.
/// Text in single quotes is left alone.
pub(super) fn pg_sql(sql: &str) -> String {
    // The searches' identity is unique by the body's md5 on PostgreSQL (schema version 10): its
    // b-tree entries cannot hold a long body.
    let sql = sql
        .replace(
            "ON CONFLICT (endpoint, body, target)",
            "ON CONFLICT (endpoint, md5(body), target)",
        )
        .replace(
            "endpoint = ?1 AND body = ?2 AND target = ?3",
            "endpoint = ?1 AND md5(body) = md5(?2) AND body = ?2 AND target = ?3",
        );
    let sql = without_index_hints(&sql);
    let sql = sql.as_str();
    let mut out = String::with_capacity(sql.len() + 16);
    let b = sql.as_bytes();
    let mut i = 0;
    let mut quoted = false;
    while i < b.len() {
        let c = b[i];
        if c == b'\'' {
            quoted = !quoted;
            out.push('\'');
            i += 1;
            continue;
        }
        if quoted {
            let ch = sql[i..].chars().next().unwrap_or('\0');
            out.push(ch);
            i += ch.len_utf8().max(1);
            continue;
        }
        let rest = &sql[i..];
        if let Some(tail) = rest.strip_prefix("IN rarray(?") {
            let n: String = tail.chars().take_while(char::is_ascii_digit).collect();
            out.push_str(&format!("= ANY(${n}::text[])"));
            i += "IN rarray(?".len() + n.len() + 1;
            continue;
        }
        if let Some(tail) = rest.strip_prefix("rarray(?") {
            let n: String = tail.chars().take_while(char::is_ascii_digit).collect();
            let after = &tail[n.len() + 1..];
            out.push_str(&format!("unnest(${n}::text[])"));
            i += "rarray(?".len() + n.len() + 1;
            // `AS k` names the column `value`, as SQLite's `rarray` does.
            let trimmed = after.trim_start();
            if let Some(alias) = trimmed.strip_prefix("AS ") {
                let name: String = alias
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                out.push_str(&format!(" AS {name}(value)"));
                i += (after.len() - trimmed.len()) + 3 + name.len();
            }
            continue;
        }
        if c == b'?' {
            out.push('$');
            i += 1;
            continue;
        }
        let ch = rest.chars().next().unwrap_or('\0');
        out.push(ch);
        i += ch.len_utf8().max(1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::pg_sql;

    #[test]
    fn sqlite_text_becomes_postgres_text() {
        assert_eq!(
            pg_sql("SELECT a FROM t WHERE b = ?1 AND c = '?'"),
            "SELECT a FROM t WHERE b = $1 AND c = '?'"
        );
        assert_eq!(
            pg_sql(
                "SELECT domain FROM rarray(?1) AS k JOIN companies ON companies.domain = k.value"
            ),
            "SELECT domain FROM unnest($1::text[]) AS k(value) JOIN companies ON companies.domain = k.value"
        );
        assert_eq!(
            pg_sql(
                "SELECT c.at FROM rarray(?1) AS k JOIN companies c INDEXED BY companies_fetched ON c.domain = k.value"
            ),
            "SELECT c.at FROM unnest($1::text[]) AS k(value) JOIN companies c ON c.domain = k.value"
        );
        assert_eq!(
            pg_sql("SELECT key FROM suppressed WHERE kind = ?1 AND key IN rarray(?2) GROUP BY key"),
            "SELECT key FROM suppressed WHERE kind = $1 AND key = ANY($2::text[]) GROUP BY key"
        );
    }
}
