//! Integration tests of the sandbox service: the API client of `prospect::api` against a real
//! sandbox over HTTP on 127.0.0.1 (one dataset load for the whole binary).
//!
//! - `endpoints`: all 19 endpoints answer with sensible data; `searchAfter` paging over three
//!   pages; 201 "data gathering" then 200 after the delay.
//! - `errors`: every text of SPEC.md §7 and its client variant; 404, 413, 422, 429.
//! - `webhooks`: deliveries to a test receiver with retries; the credit ledger under
//!   concurrent requests.

mod endpoints;
mod errors;
mod gathered;
mod keep_alive;
mod locations;
mod messages;
mod segmentation;
mod shapes;
mod support;
mod too_large;
mod webhooks;
mod work;
