//! Wire types (serde) for every record, request and response body and webhook of the service
//! (SPEC.md §2, §4, §6; shapes from openapi.json where SPEC.md says "not shown").
//!
//! Responses are read tolerantly (unknown fields ignored, missing optional fields `None`,
//! unknown enum values kept as `Unknown`); request bodies are strict (`deny_unknown_fields`
//! where openapi.json says `additionalProperties: false`) and implement [`Validate`], so the
//! client refuses what the service would reject and the sandbox answers 422 from the same code.
#[macro_use]
pub mod common;
pub mod account;
pub mod autocomplete;
pub mod company;
pub mod enrich;
pub mod filters_v2;
pub mod filters_v3;
pub mod lookup;
pub mod person;
pub mod record_json;
pub mod reveal;
pub mod search;
pub mod segmentation;
pub mod webhooks;

pub use account::*;
pub use autocomplete::*;
pub use common::*;
pub use company::*;
pub use enrich::*;
pub use filters_v2::*;
pub use filters_v3::*;
pub use lookup::*;
pub use person::*;
pub use record_json::*;
pub use reveal::*;
pub use search::*;
pub use segmentation::*;
pub use webhooks::*;
