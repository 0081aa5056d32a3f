//! Segmentations bought (schema version 9; issue 18): each `POST /v2/segmentation` bought, by
//! the service it was bought from (`target`) and its id, with the key of its input (so the same
//! input is owned, not bought again), the purchase that paid for it, and the last answer of
//! `GET /v2/segmentation/{id}` read (free), so its segments are there without the service.

use chrono::{DateTime, Utc};

use super::db::{OptionalExt, params};
use super::{PurchaseId, Result, Store, from_millis, to_millis};
use prospect_api::types::{Segmentation, SegmentationStatus, WireEnum};

/// One segmentation bought, as the store keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct SegmentationRow {
    /// The service it was bought from (a session's target).
    pub target: String,
    /// Its id at that service (`SegmentationId::segmentation_id`).
    pub id: i64,
    /// The key of its input (`segmentation:<16 hex>`, see `core::segment`): the same input has
    /// the same key.
    pub input_key: String,
    /// Distinct domains it segments.
    pub domains: i64,
    /// The purchase that paid for it.
    pub purchase_id: Option<PurchaseId>,
    /// The last status read (`IN_PROGRESS` until one was read).
    pub status: SegmentationStatus,
    /// The last answer read of it, when one was.
    pub answer: Option<Segmentation>,
    /// When it was bought.
    pub created_at: DateTime<Utc>,
    /// When it was last read.
    pub updated_at: DateTime<Utc>,
}

type Raw = (
    String,
    i64,
    String,
    i64,
    Option<i64>,
    String,
    Option<String>,
    i64,
    i64,
);

const COLUMNS: &str =
    "target, id, input_key, domains, purchase_id, status, body, created_at, updated_at";

fn row(r: Raw) -> SegmentationRow {
    let key = format!("{}/{}", r.0, r.1);
    SegmentationRow {
        status: r.5.parse().unwrap_or(SegmentationStatus::InProgress),
        answer: r
            .6
            .as_deref()
            .and_then(|t| serde_json::from_str::<Segmentation>(t).ok()),
        created_at: from_millis(r.7, "segmentations", &key).unwrap_or_default(),
        updated_at: from_millis(r.8, "segmentations", &key).unwrap_or_default(),
        target: r.0,
        id: r.1,
        input_key: r.2,
        domains: r.3,
        purchase_id: r.4.map(PurchaseId),
    }
}

fn read(r: &super::db::Row<'_>) -> Result<Raw> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get(7)?,
        r.get(8)?,
    ))
}

impl Store {
    /// Records segmentation `id` of `target`, just bought by `purchase` for the input keyed
    /// `input_key` (`domains` distinct domains); `IN_PROGRESS` until an answer is read. A row
    /// already there keeps its last answer.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn record_segmentation(
        &mut self,
        target: &str,
        id: i64,
        input_key: &str,
        domains: i64,
        purchase: Option<PurchaseId>,
    ) -> Result<()> {
        let now = to_millis(Utc::now());
        self.conn.execute(
            "INSERT INTO segmentations (target, id, input_key, domains, purchase_id, status, body,
                                        created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, 'IN_PROGRESS', NULL, ?6, ?6)
             ON CONFLICT (target, id) DO UPDATE SET input_key = excluded.input_key,
               domains = excluded.domains, purchase_id = excluded.purchase_id",
            params![target, id, input_key, domains, purchase.map(|p| p.0), now],
        )?;
        Ok(())
    }

    /// Keeps `answer`, just read from `target`, as the last answer of its segmentation (its
    /// status with it). A segmentation the store did not buy is kept too, with no input key.
    /// An `IN_PROGRESS` answer never replaces a finished one (a sandbox started again computes
    /// its segmentations again for a moment).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite); `Json` when it does not serialize.
    pub fn keep_segmentation_answer(&mut self, target: &str, answer: &Segmentation) -> Result<()> {
        let now = to_millis(Utc::now());
        let mut body = serde_json::to_value(answer)?;
        prospect_common::sanitize::sanitize_value(&mut body);
        let body = serde_json::to_string(&body)?;
        self.conn.execute(
            "INSERT INTO segmentations (target, id, input_key, domains, purchase_id, status, body,
                                        created_at, updated_at)
             VALUES (?1, ?2, '', ?3, NULL, ?4, ?5, ?6, ?6)
             ON CONFLICT (target, id) DO UPDATE SET status = excluded.status,
               body = excluded.body, updated_at = excluded.updated_at
             WHERE excluded.status <> 'IN_PROGRESS' OR segmentations.status = 'IN_PROGRESS'",
            params![
                target,
                answer.segmentation_id,
                answer.segments.iter().map(|s| s.company_count).sum::<i64>(),
                answer.status.as_str(),
                body,
                now
            ],
        )?;
        Ok(())
    }

    /// Segmentation `id` of `target`, when the store has it.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn segmentation(&self, target: &str, id: i64) -> Result<Option<SegmentationRow>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM segmentations WHERE target = ?1 AND id = ?2"
            ))?
            .query_row(params![target, id], read)
            .optional()?
            .map(row))
    }

    /// The newest segmentation of `target` bought for the input keyed `input_key`, when one
    /// was (it is owned: the same input is not bought again).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn segmentation_by_input(
        &self,
        target: &str,
        input_key: &str,
    ) -> Result<Option<SegmentationRow>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM segmentations WHERE target = ?1 AND input_key = ?2
                 ORDER BY created_at DESC, id DESC LIMIT 1"
            ))?
            .query_row(params![target, input_key], read)
            .optional()?
            .map(row))
    }

    /// The segmentations of `target`, newest first, at most `limit`.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`](super::StoreError::Sqlite).
    pub fn segmentations(&self, target: &str, limit: usize) -> Result<Vec<SegmentationRow>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM segmentations WHERE target = ?1
                 ORDER BY created_at DESC, id DESC LIMIT ?2"
            ))?
            .query_map(params![target, limit as i64], read)?
            .collect::<Result<Vec<Raw>>>()?
            .into_iter()
            .map(row)
            .collect())
    }
}
