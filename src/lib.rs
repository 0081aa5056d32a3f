//! prospect: a keyboard-driven terminal explorer for a B2B company and people data API.
//!
//! Three rooms, one direction (see `../shared/DESIGN.md`):
//! - [`api`]: the wire types (serde) of every schema and the async client. Knows nothing of the others.
//! - [`sandbox`]: a local implementation of the service (axum) over real company data in `assets/`.
//! - [`tui`]: the explorer. Talks to the service, real or sandbox, over HTTP only.
#![deny(unsafe_code)]

/// The process allocator: mimalloc. Loading the sandbox makes about a million small
/// allocations (strings, id lists, index entries) and a 1000-domain lookup about 95,000; with
/// glibc's allocator they were a quarter of start-up and of lookup time (issue 3, "Speed").
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod api;
pub mod sandbox;
pub mod tui;
