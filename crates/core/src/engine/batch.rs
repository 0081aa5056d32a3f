//! The inputs of a batch enrichment of people (`POST /v2/enrich/people`, openapi.json; issue
//! 18): one line per person, read into the service's match body and the key the spend engine
//! claims it under, owns it by, and sends as its `uniqueId`.
//!
//! A line is one of:
//! - a JSON object: a `MatchPersonBaseBody` (`{"person": {...}, "company": {...}}`) or the
//!   person's members alone (`{"name": "Ada Lovelace", "email": "ada@acme.com"}`);
//! - a professional-network URL (`https://www.linkedin.com/in/ada`);
//! - an email address (`ada@acme.com`);
//! - anything else: the service's person id.
//!
//! The key is the one a lookup of the same person claims when the input names an id
//! (`person:<id>`) or a handle (`handle:<handle>`), so neither buys what the other is buying;
//! an input of neither (a name, an email) is keyed `match:` and 16 hex digits of the SHA-256 of
//! its canonical JSON, and the person the service matched for it is kept under that key
//! (schema 8's `person_matches`): asked again, it is owned.

use prospect_api::types::{PersonMatch, PersonToMatch};

/// One person of a batch enrichment: the line as given, its key and its match body.
#[derive(Debug, Clone, PartialEq)]
pub struct PersonItem {
    /// The line as given (trimmed).
    pub given: String,
    /// `person:<id>`, `handle:<handle>` or `match:<16 hex digits>` (see the module docs).
    pub key: String,
    /// What is sent for it.
    pub request: PersonToMatch,
}

impl PersonItem {
    /// The person id of a `person:` key.
    pub fn id(&self) -> Option<&str> {
        self.key.strip_prefix("person:")
    }

    /// The handle of a `handle:` key.
    pub fn handle(&self) -> Option<&str> {
        self.key.strip_prefix("handle:")
    }
}

/// Reads one line of a batch of people (see the module docs); `None` for a blank line, JSON
/// that is not a person, or an input with no member to match on.
pub fn person_item(line: &str) -> Option<PersonItem> {
    let given = line.trim();
    if given.is_empty() {
        return None;
    }
    let request = if given.starts_with('{') {
        serde_json::from_str::<PersonToMatch>(given)
            .ok()
            .or_else(|| {
                serde_json::from_str::<PersonMatch>(given)
                    .ok()
                    .map(|person| PersonToMatch {
                        person,
                        company: None,
                    })
            })?
    } else {
        let mut person = PersonMatch::default();
        if given.contains("linkedin.com/") {
            person.linkedin = Some(given.to_string());
        } else if given.contains('@') {
            person.email = Some(given.to_string());
        } else {
            person.id = Some(given.to_string());
        }
        PersonToMatch {
            person,
            company: None,
        }
    };
    if request.person.is_empty() {
        return None;
    }
    let id = request
        .person
        .id
        .as_deref()
        .map(str::trim)
        .filter(|i| !i.is_empty());
    let handle = request
        .person
        .linkedin
        .as_deref()
        .and_then(prospect_common::keys::linkedin_handle);
    let key = match (id, handle) {
        (Some(id), _) => format!("person:{id}"),
        (None, Some(h)) => format!("handle:{h}"),
        (None, None) => match_key(&request),
    };
    Some(PersonItem {
        given: given.to_string(),
        key,
        request,
    })
}

/// `match:` and 16 hex digits of the SHA-256 of the canonical JSON of `request` (members
/// sorted, blanks as given): the same input gives the same key in every process.
fn match_key(request: &PersonToMatch) -> String {
    use sha2::{Digest, Sha256};
    let canonical = prospect_store::canonical_json(
        &serde_json::to_value(request).unwrap_or(serde_json::Value::Null),
    );
    let digest = Sha256::digest(canonical.to_string().as_bytes());
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("match:{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_as_ids_handles_emails_or_json() {
        let id = person_item(" 123abc ").unwrap();
        assert_eq!(id.key, "person:123abc");
        assert_eq!(id.id(), Some("123abc"));
        let url = person_item("https://www.linkedin.com/in/Ada-L/").unwrap();
        assert_eq!(url.key, "handle:ada-l");
        assert_eq!(url.handle(), Some("ada-l"));
        let email = person_item("ada@acme.com").unwrap();
        assert!(email.key.starts_with("match:") && email.key.len() == 6 + 16);
        assert_eq!(email.request.person.email.as_deref(), Some("ada@acme.com"));
        let flat = person_item(r#"{"name":"Ada Lovelace","email":"ada@acme.com"}"#).unwrap();
        let nested =
            person_item(r#"{"person":{"email":"ada@acme.com","name":"Ada Lovelace"}}"#).unwrap();
        assert_eq!(
            flat.key, nested.key,
            "one input, one key, whatever its shape"
        );
        assert_ne!(flat.key, email.key);
        let with_company =
            person_item(r#"{"person":{"name":"Ada"},"company":{"domain":"acme.com"}}"#).unwrap();
        assert_eq!(
            with_company.request.company.unwrap().domain.as_deref(),
            Some("acme.com")
        );
        assert_eq!(person_item("   "), None);
        assert_eq!(person_item("{}"), None, "nothing to match on");
        assert_eq!(person_item(r#"{"nope": 1}"#), None);
    }
}
