//! Rows of stored search pages as an output form renders them (schema 13, issue 39): a cache
//! of what the pages' records look like in one form (CSV of companies, say), kept beside the
//! purchase whose raw answer they were rendered from, so that a search run again writes them
//! out without decompressing and decoding its answers again. The raw answer stays the one
//! fact: rows are derived from it, named by their form with its version (`form`, chosen by
//! the renderer: a new rendering is a new name), and may be dropped at any time. The store
//! does not read them: it keeps and returns their bytes, zstd-compressed in between.

use super::db::{OptionalExt, params};
use super::{PageLink, PurchaseId, Result, Store};

impl Store {
    /// Keeps `rows`, the records of the answer of `purchase` rendered in `form` (opaque
    /// bytes, their layout the renderer's), replacing rows of that form kept before.
    ///
    /// # Errors
    /// [`crate::StoreError::Sqlite`]; compressing failed.
    pub fn keep_page_rows(&mut self, purchase: PurchaseId, form: &str, rows: &[u8]) -> Result<()> {
        let z = super::entities::pack(rows)?;
        self.conn
            .prepare_cached(
                "INSERT INTO page_rows (purchase_id, form, rows) VALUES (?1, ?2, ?3)
                 ON CONFLICT (purchase_id, form) DO UPDATE SET rows = excluded.rows",
            )?
            .execute(params![purchase.0, form, z])?;
        Ok(())
    }

    /// The rows of `form` kept for the answer of the page `link` ([`Store::keep_page_rows`]);
    /// `None` when none are (the page has no purchase, or its rows were never rendered in that
    /// form) or they do not decompress (logged: the caller renders them again).
    ///
    /// # Errors
    /// [`crate::StoreError::Sqlite`].
    pub fn page_rows(&self, link: &PageLink, form: &str) -> Result<Option<Vec<u8>>> {
        let Some(p) = link.purchase_id else {
            return Ok(None);
        };
        let z: Option<Vec<u8>> = self
            .conn
            .prepare_cached("SELECT rows FROM page_rows WHERE purchase_id = ?1 AND form = ?2")?
            .query_row(params![p.0, form], |r| r.get(0))
            .optional()?;
        Ok(z.and_then(|z| match crate::frames::unpack_raw(&z) {
            Ok(rows) => Some(rows),
            Err(e) => {
                tracing::warn!(table = "page_rows", id = %p, "store: rows do not decompress: {e}");
                None
            }
        }))
    }
}
