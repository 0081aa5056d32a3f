//! The sandbox: a local implementation of the service (axum, on 127.0.0.1) over real company
//! data shipped in `assets/`. It uses the wire types of [`prospect_api::types`] and never imports
//! the TUI.
//!
//! - [`dataset`]: the asset format, its build from `../shared/data`, and its loader.
//! - [`engine`]: indexes, filter evaluation, lookalike ranking, autocomplete, paging.
//! - [`service`]: the HTTP service: routes, authentication, accounts and credits, limits, webhooks.
#![deny(unsafe_code)]
pub mod dataset;
pub mod engine;
pub mod service;
