//! prospect: a keyboard-driven terminal explorer for a B2B company and people data API.
//!
//! The house is a workspace of crates whose dependency graph cargo enforces (issue 35), lower
//! floors first; this crate is the binary (`src/main.rs`, which owns the allocator) and hands
//! the crates on under short names for the integration tests, benchmarks and examples:
//! - [`common`] (`prospect-common`): the ground floor: sanitizing untrusted text, the atomic
//!   write, key normalization, the one contact kind, the allocator's hooks.
//! - [`api`] (`prospect-api`): the wire types (serde) of every schema, the async client with
//!   its pacer, the one error type and the price table.
//! - [`store`] (`prospect-store`): the durable store, a SQLite file or a team's PostgreSQL
//!   ledger: purchases (the raw answers), the entities they returned, contacts, webhook
//!   deliveries, search history, lists, suppression, claims and jobs.
//! - [`core`] (`prospect-core`): what every front end shares, no UI: the session, the spend
//!   engine (plan, confirm, claim, paced call, keep), validation, filter sets, config, export.
//! - [`sandbox`] (`prospect-sandbox`, on `api` and `common` only): a local implementation of
//!   the service (axum) over real company data in `assets/`.
//! - Front ends over `core`: [`tui`] (`prospect-tui`), the explorer, [`cli`]
//!   (`prospect-cli`), the headless commands (`prospect search …`), and [`mcp`]
//!   (`prospect-mcp`), the MCP server for agents (`prospect mcp`).
#![deny(unsafe_code)]

pub use prospect_api as api;
pub use prospect_cli as cli;
pub use prospect_common as common;
pub use prospect_core as core;
pub use prospect_mcp as mcp;
pub use prospect_sandbox as sandbox;
pub use prospect_store as store;
pub use prospect_tui as tui;
