//! Data gathering of companies the dataset does not have (SPEC.md §3; §7: enrich company
//! answers 201 "Data gathering process has started. Please try again later."; warmup lists
//! them in `triggeredDomains`), and the database snapshot every request works on.
//!
//! A gathering started for a plausible domain finishes after the configured delay; the first
//! request after that adds the company to a new snapshot of the database
//! ([`Db::with_gathered`]), so from then on enrich, lookup, every search and the lookalike
//! ranking find it and its people. A request works on the snapshot it took at its start.
//! While the dataset is still loading ([`DbSource`]), taking a snapshot waits for it.
//!
//! With a state file (the embedded sandbox's, [`super::GATHERED_FILE`] in its state directory),
//! the domains gathered are kept there and are there again, at once, in the next process: a
//! company warmed up by one command is found by the next (issue 37: a watch of a saved set
//! finds it as new on the embedded sandbox).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use tokio::sync::OnceCell;

use super::error::Failure;
use super::source::DbSource;
use crate::dataset::load::Db;
use crate::engine::gathered::looks_like_domain;
use crate::engine::normalize_domain;
use prospect_api::types::WarmupCompaniesResponse;

/// The current database snapshot and the gatherings under way.
pub(crate) struct Gathering {
    /// The dataset, possibly still loading.
    source: DbSource,
    /// The current snapshot, from when the dataset is loaded.
    db: OnceCell<RwLock<Arc<Db>>>,
    /// Normalized domain → when its gathering started (removed once added to the database).
    pending: Mutex<HashMap<String, Instant>>,
    delay: Duration,
    /// The state file of the domains gathered (or under way), in the order started, and
    /// those domains; `None` keeps nothing past the process.
    kept: Option<(std::path::PathBuf, Mutex<Vec<String>>)>,
}

/// What [`Gathering::start`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Started {
    /// The database has the domain (now, or already).
    There,
    /// Gathering is under way (just started or earlier).
    UnderWay,
    /// Not a plausible domain: nothing is gathered.
    NotADomain,
}

impl Gathering {
    /// Gathering over the dataset of `source`; a gathering takes `delay`. With `file`, the
    /// domains it lists (a JSON array of domains, written by an earlier process) are gathered
    /// already (added with the first snapshot), and each gathering started is added to it; a
    /// file that does not read is logged and started afresh.
    pub fn new(source: DbSource, delay: Duration, file: Option<std::path::PathBuf>) -> Gathering {
        let mut pending = HashMap::new();
        let kept = file.map(|path| {
            let list: Vec<String> = match std::fs::read(&path) {
                Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_else(|e| {
                    tracing::warn!(path = %path.display(), error = %e, "the sandbox's gathered domains do not read");
                    Vec::new()
                }),
                Err(_) => Vec::new(),
            };
            // Finished in an earlier process: due at once.
            let long_ago = Instant::now().checked_sub(delay).unwrap_or_else(Instant::now);
            for d in &list {
                pending.insert(d.clone(), long_ago);
            }
            (path, Mutex::new(list))
        });
        Gathering {
            source,
            db: OnceCell::new(),
            pending: Mutex::new(pending),
            delay,
            kept,
        }
    }

    /// Adds `domains` to the state file, when there is one, in one write (atomically; a
    /// failure is logged).
    fn keep(&self, domains: &[String]) {
        let Some((path, list)) = &self.kept else {
            return;
        };
        let mut list = list.lock().unwrap_or_else(|e| e.into_inner());
        let before = list.len();
        for d in domains {
            if !list.contains(d) {
                list.push(d.clone());
            }
        }
        if list.len() == before {
            return;
        }
        let written = serde_json::to_vec(&*list)
            .map_err(std::io::Error::other)
            .and_then(|bytes| {
                prospect_common::fsutil::write_atomic(
                    path,
                    &bytes,
                    prospect_common::fsutil::Access::Private,
                )
            });
        if let Err(e) = written {
            tracing::warn!(path = %path.display(), error = %e, "cannot write the sandbox's gathered domains");
        }
    }

    /// The dataset's reference data (there while the companies still load).
    pub fn reference(&self) -> &Arc<crate::dataset::format::Reference> {
        self.source.reference()
    }

    /// The current snapshot, with every company whose gathering has finished added; waits
    /// while the dataset loads.
    ///
    /// Errors: 500 when the dataset failed to load (logged; a damaged asset).
    pub async fn db(&self) -> Result<Arc<Db>, Failure> {
        let lock = self
            .db
            .get_or_try_init(|| async {
                self.source.db().await.map(RwLock::new).map_err(|e| {
                    tracing::error!(error = %format!("{e:#}"), "no dataset to answer from");
                    Failure::internal()
                })
            })
            .await?;
        Ok(self.snapshot(lock))
    }

    /// The snapshot to answer a request about the companies of `domains` (normalized) only:
    /// while the whole dataset has not started loading, a database of just those companies
    /// ([`DbSource::subset`]), whose records of them are the whole dataset's; otherwise, and
    /// whenever the subset cannot answer alone (an unknown domain, an alias), [`Gathering::db`].
    /// A gathering only starts once the whole dataset is loaded, so no gathered company can be
    /// missing from a subset.
    ///
    /// Errors as [`Gathering::db`].
    pub async fn db_for_domains(&self, domains: &[String]) -> Result<Arc<Db>, Failure> {
        if self.db.get().is_none()
            && let Some(db) = self.source.subset(domains.to_vec()).await
        {
            return Ok(db);
        }
        self.db().await
    }

    /// [`Gathering::db`] once loaded: the snapshot in `lock`, updated with the finished
    /// gatherings.
    fn snapshot(&self, lock: &RwLock<Arc<Db>>) -> Arc<Db> {
        let due: Vec<String> = {
            let pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            pending
                .iter()
                .filter(|(_, t)| t.elapsed() >= self.delay)
                .map(|(d, _)| d.clone())
                .collect()
        };
        if due.is_empty() {
            return lock.read().unwrap_or_else(|e| e.into_inner()).clone();
        }
        let mut db = lock.write().unwrap_or_else(|e| e.into_inner());
        // Another request may have added some meanwhile: `with_gathered` skips known domains.
        if let Some(next) = db.with_gathered(&due) {
            *db = Arc::new(next);
        }
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        for d in &due {
            pending.remove(d);
        }
        db.clone()
    }

    /// Starts gathering `domain` (normalized first) unless the database has it or it is under
    /// way; with no delay it is there at once.
    ///
    /// Errors as [`Gathering::db`].
    pub async fn start(&self, domain: &str) -> Result<Started, Failure> {
        let (started, new) = self.begin(domain).await?;
        self.keep(&new);
        Ok(started)
    }

    /// [`Gathering::start`] without writing the state file: what it found, and the domain when
    /// a gathering was started or is under way (to keep).
    async fn begin(&self, domain: &str) -> Result<(Started, Vec<String>), Failure> {
        let d = normalize_domain(domain);
        if !looks_like_domain(&d) {
            return Ok((Started::NotADomain, Vec::new()));
        }
        if self.db().await?.company_index(&d).is_some() {
            return Ok((Started::There, Vec::new()));
        }
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(d.clone())
            .or_insert_with(Instant::now);
        if self.delay.is_zero() && self.db().await?.company_index(&d).is_some() {
            return Ok((Started::There, vec![d]));
        }
        Ok((Started::UnderWay, vec![d]))
    }

    /// Warms up `domains` (POST /v2/warmup/companies): each one the database has is a
    /// `successfulDomain`, each plausible unknown one starts gathering (`triggeredDomains`),
    /// the others are `ignoredDomains`; domains are reported as given.
    ///
    /// Errors as [`Gathering::db`].
    pub async fn warmup(&self, domains: &[String]) -> Result<WarmupCompaniesResponse, Failure> {
        let mut answer = WarmupCompaniesResponse::default();
        let mut gathered = Vec::new();
        for raw in domains {
            let (started, new) = self.begin(raw).await?;
            gathered.extend(new);
            let list = match started {
                Started::NotADomain => &mut answer.ignored_domains,
                Started::There => &mut answer.successful_domains,
                Started::UnderWay => &mut answer.triggered_domains,
            };
            list.push(raw.clone());
        }
        self.keep(&gathered);
        Ok(answer)
    }
}
