//! The segmentations of the sandbox's accounts (openapi.json `/v2/segmentation…`): each is
//! computed off the async threads as soon as it is created, and answered `IN_PROGRESS` until
//! both the work is done and the configured delay (`--segmentation-delay-ms`) has passed since
//! its creation; then `SUCCESSFUL` (or `FAILED`). They live as long as the sandbox process, and
//! an account sees only its own (another's id is 404 "Segmentation not found").

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::api::types::{MarkType, Segmentation, SegmentationStatus};
use crate::sandbox::dataset::load::Db;
use crate::sandbox::engine::segment::{Failed, Model, Outcome};

/// Where one segmentation's work is.
#[derive(Debug)]
enum Work {
    /// Being computed.
    Running,
    /// Done.
    Done(Box<Outcome>),
    /// Could not be done (why is logged).
    Failed,
}

#[derive(Debug)]
struct Entry {
    /// The owning account (its address: accounts live as long as the sandbox).
    owner: usize,
    created: Instant,
    work: Work,
    positive: Vec<String>,
    negative: Vec<String>,
}

/// Every segmentation of the sandbox, by id (from 1).
#[derive(Debug)]
pub(crate) struct Segmentations {
    delay: Duration,
    inner: Mutex<(i64, HashMap<i64, Entry>)>,
}

/// What an account may do with a segmentation it asked for.
pub(crate) enum Lookup<T> {
    /// No such segmentation for this account.
    NotFound,
    /// It has not succeeded (running, within its delay, or failed).
    NotReady,
    /// The answer.
    Ready(T),
}

impl Segmentations {
    /// None yet; each shows `IN_PROGRESS` for at least `delay`.
    pub fn new(delay: Duration) -> Segmentations {
        Segmentations {
            delay,
            inner: Mutex::new((0, HashMap::new())),
        }
    }

    fn lock(&self) -> MutexGuard<'_, (i64, HashMap<i64, Entry>)> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers a new segmentation of `owner` and returns its id; its work is
    /// [`Segmentations::finish`]ed later.
    pub fn start(&self, owner: usize, positive: Vec<String>, negative: Vec<String>) -> i64 {
        let mut g = self.lock();
        g.0 += 1;
        let id = g.0;
        g.1.insert(
            id,
            Entry {
                owner,
                created: Instant::now(),
                work: Work::Running,
                positive,
                negative,
            },
        );
        id
    }

    /// Records the result of segmentation `id`'s work.
    pub fn finish(&self, id: i64, result: Result<Outcome, Failed>) {
        if let Some(e) = self.lock().1.get_mut(&id) {
            e.work = match result {
                Ok(o) => Work::Done(Box::new(o)),
                Err(Failed(why)) => {
                    tracing::info!(id, why, "segmentation failed");
                    Work::Failed
                }
            };
        }
    }

    /// The wire answer of `GET /v2/segmentation/{id}` for `owner`; `None` when it has none.
    pub fn get(&self, owner: usize, id: i64) -> Option<Segmentation> {
        let g = self.lock();
        let e = g.1.get(&id).filter(|e| e.owner == owner)?;
        let due = e.created.elapsed() >= self.delay;
        Some(match &e.work {
            Work::Done(o) if due => Segmentation {
                segmentation_id: id,
                segments: o.segments.clone(),
                status: SegmentationStatus::Successful,
                total_addressable_market: Some(o.total_addressable_market),
                total_untouched: None,
            },
            Work::Failed if due => Segmentation {
                segmentation_id: id,
                status: SegmentationStatus::Failed,
                ..Segmentation::default()
            },
            _ => Segmentation {
                segmentation_id: id,
                status: SegmentationStatus::InProgress,
                ..Segmentation::default()
            },
        })
    }

    /// Appends `domains` to the positive or negative list of `owner`'s segmentation `id`, and,
    /// once it is done, steers its model ([`Model::mark`]). `false` when it has no such id.
    pub fn mark(
        &self,
        db: &Db,
        owner: usize,
        id: i64,
        kind: &MarkType,
        domains: &[String],
    ) -> bool {
        let mut g = self.lock();
        let Some(e) = g.1.get_mut(&id).filter(|e| e.owner == owner) else {
            return false;
        };
        match kind {
            MarkType::Negative => e.negative.extend_from_slice(domains),
            _ => e.positive.extend_from_slice(domains),
        }
        if let Work::Done(o) = &mut e.work {
            o.model.mark(db, kind, domains);
        }
        true
    }

    /// The model of `owner`'s segmentation `id`, to attribute with (a copy: attribution runs
    /// outside the lock).
    pub fn model(&self, owner: usize, id: i64) -> Lookup<Arc<Model>> {
        let g = self.lock();
        let Some(e) = g.1.get(&id).filter(|e| e.owner == owner) else {
            return Lookup::NotFound;
        };
        match &e.work {
            Work::Done(o) if e.created.elapsed() >= self.delay => {
                Lookup::Ready(Arc::new(o.model.clone()))
            }
            _ => Lookup::NotReady,
        }
    }
}
