//! The segmentations of the sandbox's accounts (openapi.json `/v2/segmentation…`): each is
//! computed off the async threads as soon as it is created, and answered `IN_PROGRESS` until
//! both the work is done and the configured delay (`--segmentation-delay-ms`) has passed since
//! its creation; then `SUCCESSFUL` (or `FAILED`). An account sees only its own (another's id
//! is 404 "Segmentation not found").
//!
//! They live as long as the sandbox process, unless it has a state file
//! ([`SandboxConfig::state_dir`](super::SandboxConfig::state_dir), the embedded sandbox's
//! `segmentations.json` in the data directory): then what each was asked and its marks are
//! written there (atomically) and read back at the next start, and computed again (the same
//! input gives the same segments), so an id bought by one `prospect` command is there for the
//! next one. The embedded sandbox has one account, which owns every segmentation read back.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::dataset::load::Db;
use crate::engine::segment::{Ask, Failed, Model, Outcome};
use prospect_api::types::{MarkType, Segmentation, SegmentationStatus};

/// A segmentation read back from the state file, to compute again: its id, what was asked,
/// and the marks made since (kind, domains), in order.
pub(crate) type Recompute = (i64, Ask, Vec<(MarkType, Vec<String>)>);

/// A segmentation as the state file keeps it: what was asked and marked since.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Kept {
    id: i64,
    domains: Vec<String>,
    features: Vec<String>,
    mode: i64,
    positive: Vec<String>,
    negative: Vec<String>,
    /// Marks after creation, in order: (`positive`|`negative`, domains).
    #[serde(default)]
    marks: Vec<(String, Vec<String>)>,
}

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
    /// The owning account (its address: accounts live as long as the sandbox); [`ANY`] for one
    /// read back from the state file.
    owner: usize,
    created: Instant,
    work: Work,
    kept: Kept,
}

/// The owner of the segmentations read back from the state file: any account.
const ANY: usize = 0;

impl Entry {
    fn owned_by(&self, owner: usize) -> bool {
        self.owner == owner || self.owner == ANY
    }
}

/// Every segmentation of the sandbox, by id (from 1).
#[derive(Debug)]
pub(crate) struct Segmentations {
    delay: Duration,
    file: Option<PathBuf>,
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
    /// Each shows `IN_PROGRESS` for at least `delay`. With a state `file`, those it keeps are
    /// read back (a file that does not read is logged and left alone); see
    /// [`Segmentations::to_compute`].
    pub fn new(delay: Duration, file: Option<PathBuf>) -> Segmentations {
        let mut map = HashMap::new();
        let mut next = 0;
        if let Some(path) = &file {
            match std::fs::read(path) {
                Ok(bytes) => match serde_json::from_slice::<Vec<Kept>>(&bytes) {
                    Ok(list) => {
                        for kept in list {
                            next = next.max(kept.id);
                            map.insert(
                                kept.id,
                                Entry {
                                    owner: ANY,
                                    // Long ago: ready as soon as computed again.
                                    created: Instant::now()
                                        .checked_sub(delay)
                                        .unwrap_or_else(Instant::now),
                                    work: Work::Running,
                                    kept,
                                },
                            );
                        }
                    }
                    Err(e) => {
                        tracing::warn!(path = %path.display(), error = %e, "the sandbox's segmentations file does not read; starting without it");
                    }
                },
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => {
                    tracing::warn!(path = %path.display(), error = %e, "cannot read the sandbox's segmentations file");
                }
            }
        }
        Segmentations {
            delay,
            file,
            inner: Mutex::new((next, map)),
        }
    }

    fn lock(&self) -> MutexGuard<'_, (i64, HashMap<i64, Entry>)> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The segmentations read back from the state file, to compute again: id, what was asked,
    /// and the marks since.
    pub fn to_compute(&self) -> Vec<Recompute> {
        self.lock()
            .1
            .values()
            .filter(|e| matches!(e.work, Work::Running))
            .map(|e| {
                let k = &e.kept;
                let ask = Ask {
                    domains: k.domains.clone(),
                    features: k.features.iter().filter_map(|f| f.parse().ok()).collect(),
                    mode: k.mode,
                    positive: k.positive.clone(),
                    negative: k.negative.clone(),
                };
                let marks = k
                    .marks
                    .iter()
                    .map(|(t, d)| (t.parse().unwrap_or(MarkType::Positive), d.clone()))
                    .collect();
                (e.kept.id, ask, marks)
            })
            .collect()
    }

    /// Writes what the state file keeps (atomically), when there is one; a failure is logged.
    fn save(&self, map: &HashMap<i64, Entry>) {
        let Some(path) = &self.file else { return };
        let mut list: Vec<&Kept> = map.values().map(|e| &e.kept).collect();
        list.sort_by_key(|k| k.id);
        let written = serde_json::to_vec(&list)
            .map_err(std::io::Error::other)
            .and_then(|bytes| {
                prospect_common::fsutil::write_atomic(
                    path,
                    &bytes,
                    prospect_common::fsutil::Access::Private,
                )
            });
        if let Err(e) = written {
            tracing::warn!(path = %path.display(), error = %e, "cannot write the sandbox's segmentations file");
        }
    }

    /// Registers a new segmentation of `owner` for `ask` and returns its id; its work is
    /// [`Segmentations::finish`]ed later.
    pub fn start(&self, owner: usize, ask: &Ask) -> i64 {
        let mut g = self.lock();
        g.0 += 1;
        let id = g.0;
        g.1.insert(
            id,
            Entry {
                owner,
                created: Instant::now(),
                work: Work::Running,
                kept: Kept {
                    id,
                    domains: ask.domains.clone(),
                    features: ask.features.iter().map(|f| f.to_string()).collect(),
                    mode: ask.mode,
                    positive: ask.positive.clone(),
                    negative: ask.negative.clone(),
                    marks: Vec::new(),
                },
            },
        );
        self.save(&g.1);
        id
    }

    /// Records the result of segmentation `id`'s work; `marks` made before it was done (read
    /// back from the state file) steer it first.
    pub fn finish(
        &self,
        db: &Db,
        id: i64,
        result: Result<Outcome, Failed>,
        marks: &[(MarkType, Vec<String>)],
    ) {
        let result = result.map(|mut o| {
            for (kind, domains) in marks {
                o.model.mark(db, kind, domains);
            }
            o
        });
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
        let e = g.1.get(&id).filter(|e| e.owned_by(owner))?;
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
        let Some(e) = g.1.get_mut(&id).filter(|e| e.owned_by(owner)) else {
            return false;
        };
        e.kept.marks.push((kind.to_string(), domains.to_vec()));
        if let Work::Done(o) = &mut e.work {
            o.model.mark(db, kind, domains);
        }
        self.save(&g.1);
        true
    }

    /// The model of `owner`'s segmentation `id`, to attribute with (a copy: attribution runs
    /// outside the lock).
    pub fn model(&self, owner: usize, id: i64) -> Lookup<Arc<Model>> {
        let g = self.lock();
        let Some(e) = g.1.get(&id).filter(|e| e.owned_by(owner)) else {
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
