//! The three credit pools of an account (SPEC.md §1, §2.9): the one name of each, which the
//! price table, the errors (a 402 names its pool) and every front end use.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One of the three credit pools of an account (SPEC.md §1, §2.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum CreditPool {
    /// Standard credits (`credits` in the balance): searches, enrich, lookup, autocomplete.
    Standard,
    /// Email credits (`emailCredits`): one per verified email revealed.
    Email,
    /// Phone credits (`phoneCredits`): one per verified phone revealed.
    Phone,
}

impl fmt::Display for CreditPool {
    /// `standard`, `email` or `phone`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CreditPool::Standard => "standard",
            CreditPool::Email => "email",
            CreditPool::Phone => "phone",
        })
    }
}
