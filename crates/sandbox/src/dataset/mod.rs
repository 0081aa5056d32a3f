//! The sandbox dataset: its on-disk [`format`], the [`build`] step that makes it from
//! `../shared/data`, and the [`load`]er that turns it into the in-memory model.
pub mod build;
pub mod format;
pub mod load;
