//! Settings kept in the store itself (schema version 7), so every process and every machine
//! using it obeys the same ones (issue 17): the team's daily budget, set once on the team's
//! ledger with `prospect store budget`.

use serde::{Deserialize, Serialize};

use super::db::{OptionalExt, params};
use super::{Result, Store};

/// Credits that may be spent per UTC day, per pool (`None`: no limit), counted against the
/// store's ledger (what every process on the store spent today, purchases and reveal
/// deliveries). `[budget]` of `config.toml` is one; [`Store::team_budget`] is another, kept in
/// the store.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct Budget {
    /// Standard credits per day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standard_per_day: Option<f64>,
    /// Email credits per day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email_per_day: Option<f64>,
    /// Phone credits per day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone_per_day: Option<f64>,
}

impl Budget {
    /// `true` when no pool has a limit.
    pub fn is_unlimited(&self) -> bool {
        *self == Budget::default()
    }
}

/// The `settings` row of the team budget.
const TEAM_BUDGET: &str = "team_budget";

impl Store {
    /// The team's daily budget kept in this store (no limit when none was set): every plan of
    /// every member is checked against it, whatever their own config says.
    ///
    /// # Errors
    /// The store cannot be read, or the setting is not a budget (named).
    pub fn team_budget(&self) -> Result<Budget> {
        let text: Option<String> = self
            .conn
            .query_row(
                "SELECT value FROM settings WHERE name = ?1",
                params![TEAM_BUDGET],
                |r| r.get(0),
            )
            .optional()?;
        match text {
            None => Ok(Budget::default()),
            Some(t) => serde_json::from_str(&t).map_err(|e| {
                super::StoreError::Invalid(format!("the store's {TEAM_BUDGET} setting: {e}"))
            }),
        }
    }

    /// Sets the team's daily budget to `budget` (an unlimited one removes it).
    ///
    /// # Errors
    /// The store cannot write; a limit below 0 or not a number.
    pub fn set_team_budget(&mut self, budget: &Budget) -> Result<()> {
        for (pool, v) in [
            ("standard", budget.standard_per_day),
            ("email", budget.email_per_day),
            ("phone", budget.phone_per_day),
        ] {
            if let Some(v) = v
                && !(v.is_finite() && v >= 0.0)
            {
                return Err(super::StoreError::Invalid(format!(
                    "the {pool} budget must be a number of credits, 0 or more (got {v})"
                )));
            }
        }
        if budget.is_unlimited() {
            self.conn
                .execute("DELETE FROM settings WHERE name = ?1", params![TEAM_BUDGET])?;
            return Ok(());
        }
        let text = serde_json::to_string(budget)?;
        self.conn.execute(
            "INSERT INTO settings (name, value) VALUES (?1, ?2)
             ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            params![TEAM_BUDGET, text],
        )?;
        Ok(())
    }
}
