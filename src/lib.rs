//! prospect: a keyboard-driven terminal explorer for a B2B company and people data API.
//!
//! Three rooms, one direction (see `../shared/DESIGN.md`):
//! - [`api`]: the wire types (serde) of every schema and the async client. Knows nothing of the others.
//! - [`cli`]: the headless commands (`prospect search …`), a second front end over `core`.
//! - [`core`]: what every front end shares (session, spend, filter sets, config), no UI.
//! - [`store`]: the durable local store (SQLite): purchases, the entities they returned, webhook
//!   deliveries and search history, so nothing bought is bought twice.
//! - [`sandbox`]: a local implementation of the service (axum) over real company data in `assets/`.
//! - [`tui`]: the explorer. Talks to the service, real or sandbox, over HTTP only.
#![deny(unsafe_code)]

pub mod alloc;
pub mod api;
pub mod cli;
pub mod core;
pub mod sandbox;
pub mod store;
pub mod tui;
