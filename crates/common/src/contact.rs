//! The one kind of contact a reveal buys (SPEC.md §4.7 phones, §4.10 emails): the store's
//! `kind` column, the price table's pool and the front ends' words all build on it.

use serde::{Deserialize, Serialize};

/// Which contact of a person: an email address or phone numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ContactKind {
    /// An email address (`Contact::email`).
    Email,
    /// Phone numbers (`Contact::phones`).
    Phone,
}

impl ContactKind {
    /// `"email"` or `"phone"` (the value of the `kind` column).
    pub fn as_str(self) -> &'static str {
        match self {
            ContactKind::Email => "email",
            ContactKind::Phone => "phone",
        }
    }
}
