//! The store's work off the async threads: one blocking task per call, under the store's lock.

use std::sync::{Arc, Mutex};

use prospect_store::{Store, StoreError};

/// Runs `f` on the store off the async threads.
pub(crate) async fn with_store<T: Send + 'static>(
    store: &Arc<Mutex<Store>>,
    f: impl FnOnce(&mut Store) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, String> {
    let store = store.clone();
    tokio::task::spawn_blocking(move || {
        let mut guard = store
            .lock()
            .map_err(|_| "the store is unusable after an earlier failure".to_string())?;
        f(&mut guard).map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| format!("store task failed: {e}"))?
}
