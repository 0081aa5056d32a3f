//! prospect: a keyboard-driven terminal explorer for a B2B company and people data API.
//!
//! The house (see `../shared/DESIGN.md`), lower rooms first:
//! - [`api`]: the wire types (serde) of every schema, the async client with its pacer, the one
//!   error type and the price table.
//! - [`store`]: the durable store, a SQLite file or a team's PostgreSQL ledger: purchases (the
//!   raw answers), the entities they returned, contacts, webhook deliveries, search history,
//!   lists, suppression, claims and jobs, so nothing bought is bought twice or lost.
//! - [`core`]: what every front end shares, no UI: the session, the spend engine (plan,
//!   confirm, claim, paced call, keep), validation, filter sets, config, export.
//! - [`sandbox`]: a local implementation of the service (axum) over real company data in
//!   `assets/`.
//! - Front ends over `core`: [`tui`], the explorer, and [`cli`], the headless commands
//!   (`prospect search …`).
#![deny(unsafe_code)]

pub mod api;
pub mod cli;
pub mod common;
pub mod core;
pub mod sandbox;
pub mod store;
pub mod tui;
