//! Reference data: countries and regions (iso-codes, CLDR) in `geo`, LinkedIn industries,
//! Wappalyzer technologies and skills in `catalogs`, job titles with seniority/department
//! (O*NET, ESCO) in `titles`. Name lists are in `names.rs`.

use std::path::Path;

use anyhow::Context;
use serde_json::Value;

mod catalogs;
mod geo;
mod titles;

pub use catalogs::*;
pub use geo::*;
pub use titles::*;

/// Reads a JSON file, naming it in the error.
pub fn read_json(path: &Path) -> anyhow::Result<Value> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

/// Reads a text file, naming it in the error.
pub fn read_text(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}
