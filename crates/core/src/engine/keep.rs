//! Keep what was paid for (issue 15): a charged answer's raw bytes and the entities that decode
//! from it go to the store in one transaction ([`keep`]); an answer that decodes only in part
//! keeps every record that does ([`read_lenient`]); an answer the store cannot write goes to a
//! recovery file beside the store, imported at the next start ([`import_recovery`]).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use base64::Engine as _;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use prospect_api::client::Endpoint;
use prospect_api::cost::Cost;
use prospect_store::{Entities, JobId, Kept, Packed, PageFacts, PageOf, PurchaseId};

/// A search page to record with the purchase that bought it.
#[derive(Debug, Clone)]
pub struct PageToKeep {
    /// The request body without paging members.
    pub identity: Value,
    /// 0-based position in its chain.
    pub page: u32,
    /// Its paging facts.
    pub facts: PageFacts,
}

/// A charged answer to keep ([`keep`]); owned, so it can go to the store's thread.
#[derive(Debug, Clone)]
pub struct ToKeep {
    /// The endpoint called.
    pub endpoint: Endpoint,
    /// The request body sent.
    pub request: Value,
    /// The answer's bytes as received.
    pub raw: Vec<u8>,
    /// Credits charged, per pool.
    pub charged: Cost,
    /// When it was answered.
    pub at: DateTime<Utc>,
    /// The records that decoded.
    pub entities: Entities,
    /// The job that bought it.
    pub job: Option<JobId>,
    /// Claim keys it settles.
    pub settles: Vec<String>,
    /// The search page it is.
    pub page: Option<PageToKeep>,
    /// `entities` are the whole answer (it decoded with nothing left out); see
    /// [`Kept::whole`](prospect_store::Kept::whole).
    pub whole: bool,
    /// The answer already packed ([`prospect_store::pack_answer`], from the typed answer): then
    /// `entities` may be empty and [`keep`] writes this.
    pub packed: Option<Packed>,
}

/// Where a kept answer went.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KeepReport {
    /// The purchase row, when the store wrote it.
    pub purchase: Option<PurchaseId>,
    /// Why the store could not write it (then it is in `recovery`), in one line.
    pub store_error: Option<String>,
    /// The recovery file it went to; `None` when stored (or when even that failed: then
    /// `store_error` says both).
    pub recovery: Option<PathBuf>,
}

/// The recovery folder of a store file: `recovery/` beside it; `None` for a store in memory.
pub fn recovery_dir_of(store: &Path) -> Option<PathBuf> {
    if store.as_os_str() == ":memory:" {
        return None;
    }
    Some(
        store
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .join("recovery"),
    )
}

/// The recovery folder of `store`: `recovery/` beside a store file ([`recovery_dir_of`]); for
/// a team store, `recovery/` in this machine's data directory `data_dir`, where its answers
/// that cannot be written wait. `None` for a store in memory, or a team store without one.
pub fn recovery_dir_for(store: &prospect_store::Store, data_dir: Option<&Path>) -> Option<PathBuf> {
    if store.is_shared() {
        data_dir.map(|d| d.join("recovery"))
    } else {
        recovery_dir_of(store.path())
    }
}

/// The recovery file's content: everything [`keep`] needs to write the answer later.
#[derive(Debug, Serialize, Deserialize)]
struct Recovery {
    /// Format version (1).
    version: u32,
    endpoint: String,
    request: Value,
    /// The raw answer, standard base64.
    raw: String,
    charged: Cost,
    target: String,
    at: DateTime<Utc>,
    job: Option<JobId>,
    settles: Vec<String>,
    /// `(identity, page)` of a search page.
    page: Option<(Value, u32)>,
}

/// Keeps `k` in `store` (see [`prospect_store::Store::keep`]) off the async threads, its
/// purchase recording `target` (the service's address); when the store cannot write (busy past
/// its timeout, disk full, read-only, schema missing), writes it to a recovery file in
/// `recovery_dir` (or its [`fallback_recovery_dir`]) instead, atomically, mode 0600, and says so
/// in the report. Never drops it.
pub async fn keep(
    store: &std::sync::Arc<std::sync::Mutex<prospect_store::Store>>,
    target: &str,
    recovery_dir: Option<&Path>,
    mut k: ToKeep,
) -> KeepReport {
    let target = target.to_string();
    let store = store.clone();
    // The answer goes to the store's thread and comes back with the outcome, so a failed
    // write still has it for the recovery file (no copy of an 8 MB answer is made).
    let task = {
        let target = target.clone();
        let packed = k.packed.take();
        tokio::task::spawn_blocking(move || {
            let kept = Kept {
                endpoint: k.endpoint,
                request: &k.request,
                raw: &k.raw,
                charged: k.charged,
                target: &target,
                at: k.at,
                entities: &k.entities,
                job: k.job,
                settles: &k.settles,
                page: k.page.as_ref().map(|p| PageOf {
                    endpoint: k.endpoint,
                    identity: &p.identity,
                    page: p.page,
                    facts: p.facts.clone(),
                }),
                whole: k.whole,
            };
            // Packing (serializing, compressing) needs no store: done before the lock. A
            // panic in either is caught, so the answer still comes back for its recovery file.
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let packed = match packed {
                    Some(p) => Ok(p),
                    None => kept.pack(),
                };
                packed.map_err(|e| e.to_string()).and_then(|packed| {
                    let mut guard = store.lock().map_err(|_| {
                        "the store is unusable after an earlier failure".to_string()
                    })?;
                    guard.keep_packed(&kept, packed).map_err(|e| e.to_string())
                })
            }))
            .unwrap_or_else(|_| Err("the store failed while writing (a panic)".to_string()));
            drop(kept);
            (result, k)
        })
    };
    let (stored, k) = match task.await {
        Ok((r, k)) => (r, k),
        Err(e) => {
            // The task panicked: the answer went with it; say so loudly.
            tracing::error!(error = %e, "the store task failed; a paid answer was lost");
            return KeepReport {
                purchase: None,
                store_error: Some(format!("store task failed: {e}; the answer is lost")),
                recovery: None,
            };
        }
    };
    match stored {
        Ok(id) => KeepReport {
            purchase: Some(id),
            ..KeepReport::default()
        },
        Err(e) => {
            tracing::error!(endpoint = %k.endpoint, error = %e, "a paid answer could not be stored; writing a recovery file");
            match write_recovery(recovery_dir, &k, &target) {
                Ok(path) => KeepReport {
                    purchase: None,
                    store_error: Some(format!(
                        "the store could not write a paid answer ({e}); it is kept in {}",
                        path.display()
                    )),
                    recovery: Some(path),
                },
                Err(w) => KeepReport {
                    purchase: None,
                    store_error: Some(format!(
                        "the store could not write a paid answer ({e}), nor the recovery file ({w})"
                    )),
                    recovery: None,
                },
            }
        }
    }
}

static RECOVERY_SEQ: AtomicU64 = AtomicU64::new(0);

/// The second place recovery files of the store whose recovery folder is `primary` go when
/// that folder cannot be written (a full disk, issue 34): a folder of the runtime directory
/// (`XDG_RUNTIME_DIR`, usually memory-backed), else the temp directory, named after `primary`
/// so each store imports only its own.
pub fn fallback_recovery_dir(primary: Option<&Path>) -> PathBuf {
    use sha2::Digest;
    // SHA-256 of the path: the same name from every build of prospect, so a newer one finds
    // what an older one left.
    let digest = sha2::Sha256::digest(
        primary
            .map(|p| p.as_os_str().as_encoded_bytes())
            .unwrap_or_default(),
    );
    let name: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    let base = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
        .unwrap_or_else(std::env::temp_dir);
    base.join(format!("prospect-recovery-{name}"))
}

/// Writes `k`'s recovery file in `dir` (beside the store), else in its
/// [`fallback_recovery_dir`]; returns where. Errors: neither could be written (both named).
fn write_recovery(dir: Option<&Path>, k: &ToKeep, target: &str) -> std::io::Result<PathBuf> {
    match dir.map(|d| write_recovery_in(d, k, target)) {
        Some(Ok(p)) => Ok(p),
        first => {
            let second = fallback_recovery_dir(dir);
            write_recovery_in(&second, k, target).map_err(|e2| {
                let e1 = match first {
                    Some(Err(e)) => format!(
                        "{}: {e}; ",
                        dir.map(|d| d.display().to_string()).unwrap_or_default()
                    ),
                    _ => String::new(),
                };
                std::io::Error::new(e2.kind(), format!("{e1}{}: {e2}", second.display()))
            })
        }
    }
}

fn write_recovery_in(dir: &Path, k: &ToKeep, target: &str) -> std::io::Result<PathBuf> {
    let rec = Recovery {
        version: 1,
        endpoint: k.endpoint.path().to_string(),
        request: k.request.clone(),
        raw: base64::engine::general_purpose::STANDARD.encode(&k.raw),
        charged: k.charged,
        target: target.to_string(),
        at: k.at,
        job: k.job,
        settles: k.settles.clone(),
        page: k.page.as_ref().map(|p| (p.identity.clone(), p.page)),
    };
    let name = format!(
        "{}-{}-{}.json",
        k.at.timestamp_millis(),
        std::process::id(),
        RECOVERY_SEQ.fetch_add(1, Ordering::Relaxed)
    );
    let path = dir.join(name);
    let text = serde_json::to_vec(&rec).map_err(std::io::Error::other)?;
    prospect_common::fsutil::write_atomic(&path, &text, prospect_common::fsutil::Access::Private)?;
    Ok(path)
}

/// Imports the recovery files of `store` (answers it could not write before), from its
/// recovery folder `primary` and that folder's [`fallback_recovery_dir`]: each is decoded as
/// its endpoint's answer (what decodes), kept in the store with its raw bytes, and its file
/// removed. A file that cannot be imported is left in place with a warning. Returns how many
/// were imported, and for each file left, its name and why in one line. The session does this
/// at its start; `history --spend` without one (it would under-report without them).
pub fn import_recovery_from(
    store: &std::sync::Mutex<prospect_store::Store>,
    primary: &Path,
) -> (usize, Vec<String>) {
    let dirs = [
        Some(primary.to_path_buf()),
        Some(fallback_recovery_dir(Some(primary))),
    ];
    let mut files: Vec<PathBuf> = dirs
        .iter()
        .flatten()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|entries| entries.flatten().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut n = 0;
    let mut failed = Vec::new();
    for path in files {
        match import_one(store, &path) {
            Ok(()) => {
                if let Err(e) = std::fs::remove_file(&path) {
                    tracing::warn!(file = %path.display(), error = %e, "recovery: imported but not removed");
                }
                n += 1;
            }
            Err(e) => {
                tracing::warn!(file = %path.display(), error = %e, "recovery: file not imported");
                failed.push(format!("{}: {e}", path.display()));
            }
        }
    }
    if n > 0 {
        tracing::info!(files = n, "recovery: answers imported into the store");
    }
    (n, failed)
}

fn import_one(store: &std::sync::Mutex<prospect_store::Store>, path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let rec: Recovery = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
    let endpoint = Endpoint::from_path(&rec.endpoint)
        .ok_or_else(|| format!("unknown endpoint {}", rec.endpoint))?;
    let raw = base64::engine::general_purpose::STANDARD
        .decode(rec.raw.as_bytes())
        .map_err(|e| e.to_string())?;
    let (entities, facts) = super::decode::entities_of(endpoint, &rec.request, &raw, rec.at);
    let page = match (rec.page, facts) {
        (Some((identity, page)), Some(facts)) => Some((identity, page, facts)),
        _ => None,
    };
    let mut guard = store
        .lock()
        .map_err(|_| "the store is unusable".to_string())?;
    let page_of = page.as_ref().map(|(identity, page, facts)| PageOf {
        endpoint,
        identity,
        page: *page,
        facts: facts.clone(),
    });
    guard
        .keep(&Kept {
            endpoint,
            request: &rec.request,
            raw: &raw,
            charged: rec.charged,
            target: &rec.target,
            at: rec.at,
            entities: &entities,
            job: rec.job,
            settles: &rec.settles,
            page: page_of,
            whole: false,
        })
        .map_err(|e| e.to_string())?;
    Ok(())
}
