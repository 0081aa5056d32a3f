//! What the user owns, for the commands that read or arrange it without the service (lists,
//! suppression, history, jobs, exports, the store's own upkeep), and the shapes the session
//! hands the front ends: lists and their members, revealed contacts, search ids, spend rows,
//! segmentations and jobs. The store keeps them; the front ends reach them here and never the
//! store (issue 35: the explorer and the CLI depend on this crate, not on `prospect-store`).

mod handle;

pub use handle::{Owned, OwnedError};
pub use prospect_store::{
    Budget, Contact, CopyReport, JobId, JobRow, JobStatus, ListKind, ListRecords, ListSummary,
    SearchId, SearchSummary, SegmentationRow, SetRun, Spend, Stored, SuppressKind,
    SuppressionCount,
};
