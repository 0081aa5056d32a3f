//! What every front end shares, with no UI in it (no ratatui, no crossterm): the session
//! through which every call goes (client + store), spend estimates and checks, the filter-set
//! file format, configuration and user directories.
//!
//! The explorer (`tui`) and the headless commands are thin front ends over this module.
#![deny(unsafe_code)]
pub mod config;
pub mod crm;
pub mod curl;
pub mod engine;
pub mod export;
pub mod facets;
pub mod filter_set;
pub mod gauge;
pub mod owned;
pub mod request;
pub mod screen;
pub mod segment;
pub mod session;
pub mod spend;
mod store_task;
pub mod suppress;
pub mod watch;
pub mod webhooks;
