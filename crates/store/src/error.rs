//! What can go wrong with the store, each message naming what was wrong.

use std::path::PathBuf;

use super::{PurchaseId, SearchId};

/// An error of [`super::Store`]. Messages name the store file where it matters, e.g. "store
/// /x/y.sqlite was written by a newer prospect (schema 5, this build reads up to 1); not opened".
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The folder of the store file could not be created.
    #[error("store {}: cannot create its folder {}: {source}", path.display(), dir.display())]
    CreateDir {
        /// The store file.
        path: PathBuf,
        /// The folder that could not be created.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The store file could not be created.
    #[error("store {}: cannot create the file: {source}", path.display())]
    CreateFile {
        /// The store file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file exists but is not an SQLite database (nothing was written to it).
    #[error("store {} is not an SQLite database (not a prospect store?); not opened", path.display())]
    NotADatabase {
        /// The file.
        path: PathBuf,
    },
    /// The file's schema (`PRAGMA user_version`) is newer than this build reads; the file was
    /// not modified.
    #[error(
        "store {} was written by a newer prospect (schema {found}, this build reads up to {supported}); not opened",
        path.display()
    )]
    NewerSchema {
        /// The file's schema version.
        found: i64,
        /// The newest schema version this build reads ([`super::SCHEMA_VERSION`]).
        supported: i64,
        /// The file.
        path: PathBuf,
    },
    /// The file's schema version is negative: no prospect wrote it; the file was not modified.
    #[error("store {} has schema version {found}, which no prospect writes; not opened", path.display())]
    UnknownSchema {
        /// The file's `PRAGMA user_version`.
        found: i64,
        /// The file.
        path: PathBuf,
    },
    /// The file could not be opened or configured (permissions, locked, disk ...).
    #[error("store {}: cannot open: {source}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// The SQLite error.
        source: rusqlite::Error,
    },
    /// A migration step failed; the transaction was rolled back, the file keeps its old schema.
    #[error("store {}: migration to schema {version} failed: {source}", path.display())]
    Migration {
        /// The file.
        path: PathBuf,
        /// The schema version the failed step leads to.
        version: i64,
        /// The SQLite error.
        source: rusqlite::Error,
    },
    /// [`super::Store::record_page`] named a search that is not stored.
    #[error("store: no search with id {0}")]
    NoSuchSearch(SearchId),
    /// A write named a purchase that is not stored.
    #[error("store: no purchase with id {0}")]
    NoSuchPurchase(PurchaseId),
    /// Any other SQLite error (a read or write after opening).
    #[error("store: database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// An error of the PostgreSQL store (the server refused a statement, or the connection
    /// failed); never carries the URL's password.
    #[error("store: PostgreSQL error: {0}")]
    Postgres(String),
    /// A query that must answer one row answered none (read as `None` by `optional()`).
    #[error("store: no row")]
    NoRows,
    /// The caller's sink failed while records were read out (e.g. the export file's disk is
    /// full); the store itself is fine.
    #[error("writing records out of the store: {0}")]
    Output(#[from] std::io::Error),
    /// A value could not be written as JSON.
    #[error("store: JSON error: {0}")]
    Json(#[from] serde_json::Error),
    /// A request the store refuses, in words (e.g. a list without a name).
    #[error("{0}")]
    Invalid(String),
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> StoreError {
        StoreError::Postgres(pg_text(&e))
    }
}

/// The words of a PostgreSQL error: the server's message with its SQLSTATE code, or the
/// client's with its cause. `tokio_postgres::Error` never names the connection string, so no
/// password is in it.
pub(super) fn pg_text(e: &tokio_postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return format!("{} ({})", db.message(), db.code().code());
    }
    match std::error::Error::source(e) {
        Some(src) => format!("{e}: {src}"),
        None => e.to_string(),
    }
}

/// A result of the store.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

impl StoreError {
    /// `true` for an open that failed only because another connection held a lock ("database
    /// is locked" or "busy", SQLITE_BUSY / SQLITE_LOCKED): trying again later may succeed.
    pub fn is_busy(&self) -> bool {
        matches!(
            self,
            StoreError::Open { source, .. } if matches!(
                source.sqlite_error_code(),
                Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
            )
        )
    }
}
