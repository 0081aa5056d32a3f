//! What the user owns, in the shapes the session hands the front ends: lists and their
//! members, revealed contacts, search ids, spend rows, segmentations and jobs. The store keeps
//! them; the front ends name them here and never the store (issue 35: the explorer and the
//! CLI depend on this crate, not on `prospect-store`).

pub use prospect_store::{
    Contact, JobId, JobRow, ListKind, ListRecords, ListSummary, SearchId, SegmentationRow, Spend,
};
