//! The dataset a sandbox serves, possibly still loading (issue 8, "Start-up").
//!
//! Indexing the embedded dataset takes a few hundred milliseconds, but the asset's header
//! frame, decoded first, already holds the reference data. So a sandbox binds and answers at
//! once: what needs no company (`/v2/credits/balance`, `/v2/data-fields`, authentication, the
//! limits) is served immediately, and every handler that needs the companies awaits the
//! [`Db`] ([`DbSource::db`]) instead of failing. Nothing is answered differently; answers that
//! need the companies only take longer while the dataset loads.

use std::sync::Arc;

use tokio::sync::watch;

use crate::sandbox::dataset::format::Reference;
use crate::sandbox::dataset::load::Db;

/// What the loading thread publishes: nothing yet, the indexed database, or why it failed.
type Slot = Option<Result<Arc<Db>, Arc<str>>>;

/// A sandbox dataset: its reference data at once, its indexed [`Db`] once loaded. Cheap to
/// clone (every clone waits for the same load).
#[derive(Clone)]
pub struct DbSource {
    reference: Arc<Reference>,
    db: watch::Receiver<Slot>,
}

impl std::fmt::Debug for DbSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match &*self.db.borrow() {
            None => "loading",
            Some(Ok(_)) => "ready",
            Some(Err(_)) => "failed",
        };
        f.debug_struct("DbSource").field("db", &state).finish()
    }
}

impl From<Arc<Db>> for DbSource {
    /// A source whose database is already there.
    fn from(db: Arc<Db>) -> DbSource {
        let (_tx, rx) = watch::channel(Some(Ok(db.clone())));
        DbSource {
            reference: db.reference.clone(),
            db: rx,
        }
    }
}

impl DbSource {
    /// Starts loading the dataset embedded in the binary: decodes its header now (a few
    /// milliseconds) and indexes the companies on a background thread. Each call loads anew
    /// (the benchmark measures cold starts); [`super::embedded_source`] shares one load per
    /// process.
    ///
    /// Errors when the header cannot be read ([`Db::open_embedded`]); a later failure is
    /// reported by [`DbSource::db`].
    pub fn load_embedded() -> anyhow::Result<DbSource> {
        let opened = Db::open_embedded()?;
        let reference = opened.reference().clone();
        let (tx, rx) = watch::channel(None);
        std::thread::Builder::new()
            .name("sandbox-load".into())
            .spawn(move || {
                let t = std::time::Instant::now();
                let slot = match opened.index() {
                    Ok((db, _)) => {
                        tracing::info!(
                            ms = t.elapsed().as_millis() as u64,
                            companies = db.company_count(),
                            "sandbox dataset indexed"
                        );
                        Ok(Arc::new(db))
                    }
                    Err(e) => {
                        tracing::error!(error = %format!("{e:#}"), "the sandbox dataset did not load");
                        Err(Arc::from(format!("{e:#}")))
                    }
                };
                // Nobody may be listening any more (the sandbox stopped): nothing to do then.
                let _ = tx.send(Some(slot));
            })?;
        Ok(DbSource { reference, db: rx })
    }

    /// The reference data (SPEC.md §2.8), there from the start.
    pub fn reference(&self) -> &Arc<Reference> {
        &self.reference
    }

    /// The indexed database, waiting for the load to finish if it has not.
    ///
    /// Errors when the load failed (a damaged company frame), with the loader's message.
    pub async fn db(&self) -> anyhow::Result<Arc<Db>> {
        let mut rx = self.db.clone();
        let slot = rx
            .wait_for(Option::is_some)
            .await
            .map_err(|_| anyhow::anyhow!("the sandbox dataset loader stopped"))?;
        match &*slot {
            Some(Ok(db)) => Ok(db.clone()),
            Some(Err(e)) => Err(anyhow::anyhow!("the sandbox dataset did not load: {e}")),
            None => Err(anyhow::anyhow!("the sandbox dataset loader stopped")),
        }
    }

    /// The database if it is loaded already (never waits).
    pub fn try_db(&self) -> Option<Arc<Db>> {
        match &*self.db.borrow() {
            Some(Ok(db)) => Some(db.clone()),
            _ => None,
        }
    }
}
