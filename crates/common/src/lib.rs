//! The ground floor: what every room of the house needs and nothing of the house is under.
//! Sanitizing untrusted text ([`sanitize`]), the atomic write and file checks ([`fsutil`]), the
//! keys companies and people are known by ([`keys`]), the one contact kind ([`contact`]) and
//! the allocator's hooks ([`alloc`]), and JSON read from bytes ([`json`]).
#![deny(unsafe_code)]

pub mod alloc;
pub mod contact;
pub mod fsutil;
pub mod json;
pub mod keys;
pub mod sanitize;
pub mod words;

pub use contact::ContactKind;
