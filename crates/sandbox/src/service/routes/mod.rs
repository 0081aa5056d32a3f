//! The router of the 19 endpoints (SPEC.md §4) and what every handler shares: the [`Call`]
//! extractor (body read or drained, authenticate, limits), the panic guard, engine work off the
//! async threads and typed 200 answers. The thin handlers live by area: `autocomplete`,
//! `search` (companies and people), `enrich`, `lookup`, `reveal` (by ids), `reference`
//! (data fields, warmup) and `credits`; each runs parse/validate → plan → engine → charge
//! ([`super::billing`]) → typed answer.

mod autocomplete;
mod call;
mod credits;
mod enrich;
mod lookup;
mod reference;
mod reveal;
mod router;
mod search;
mod segmentation;

pub(super) use call::collect_when_idle;
pub(super) use router::router;
pub(super) use segmentation::compute as compute_segmentation;
