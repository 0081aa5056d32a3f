//! The commands, one file each: its work through the spend engine and the writers.

mod autocomplete;
mod curl;
mod enrich;
mod export;
mod history;
mod jobs;
mod list;
mod lookup;
mod reveal;
mod search;
mod segment;
mod store;
mod suppress;
mod watch;

pub(crate) use autocomplete::*;
pub(crate) use curl::*;
pub(crate) use enrich::*;
pub(crate) use export::*;
pub(crate) use history::*;
pub(crate) use jobs::*;
pub(crate) use list::*;
pub(crate) use lookup::*;
pub(crate) use reveal::*;
pub(crate) use search::*;
pub(crate) use segment::*;
pub(crate) use store::*;
pub(crate) use suppress::*;
pub(crate) use watch::*;

pub use curl::CurlArgs;
pub use jobs::ResumeArgs;
pub use lookup::LookupArgs;
pub use reveal::RevealArgs;
pub use search::SearchArgs;
pub use watch::WatchArgs;
