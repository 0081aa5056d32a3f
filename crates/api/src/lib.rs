//! The API layer: wire types for every schema of SPEC.md and openapi.json, and the async client.
//! Knows nothing of the sandbox or the TUI.
#![deny(unsafe_code)]
mod calls;
pub mod client;
pub mod cost;
pub mod endpoint;
pub mod error;
pub mod pace;
pub mod pool;
pub mod types;
