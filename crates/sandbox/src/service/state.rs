//! The shared state of the service's handlers.

use std::sync::Arc;

use super::accounts::Accounts;
use super::error::Failure;
use super::gathering::Gathering;
use super::segmentation::Segmentations;
use super::webhooks::Webhooks;
use crate::dataset::load::Db;

/// The shared state of the handlers.
pub(crate) struct AppState {
    /// The database snapshots (the dataset plus the gathered companies) and the gatherings
    /// under way; [`AppState::db`] is the snapshot a request works on.
    pub gathering: Gathering,
    /// Accounts by token.
    pub accounts: Accounts,
    /// The webhook queue.
    pub webhooks: Webhooks,
    /// The accounts' segmentations.
    pub segmentations: Segmentations,
    /// Body limit in bytes.
    pub body_limit: usize,
}

impl AppState {
    /// The current database snapshot (every company whose gathering finished included); waits
    /// while the dataset loads. Errors: 500 when it failed to load.
    pub async fn db(&self) -> Result<Arc<Db>, Failure> {
        self.gathering.db().await
    }
}
