//! Reveal emails and phones of given person ids (SPEC.md §4.7, §4.10, §8; openapi
//! `PublicRevealEmailBody`, `PublicRevealPhoneBody`, `PublicRevealEmailResult`,
//! `PublicRevealPhoneResult`, `reveal_emails__Email`, `reveal_phones__Phone`).
//!
//! The immediate answer is only an acknowledgement; the results are POSTed to `webhookUrl`
//! (webhooks `reveal_emails` / `reveal_phones`, see [`super::webhooks`]).

use serde::{Deserialize, Serialize};

use super::common::{EmailStatus, PhoneStatus, Validate, ValidationError, lenient};
use super::company::unknown_enum;
use super::filters_v2::{LocPath, wire_checks};

/// Most person ids in one reveal request (SPEC.md §8 / openapi `maxItems`).
pub const REVEAL_MAX_IDS: usize = 500;

crate::wire_enum!(
    /// Acknowledgement status of a reveal request (SPEC.md §4.7; openapi
    /// `PublicRevealEmailResult.status`; NOTES.md: both values are valid acks).
    RevealStatus { InProgress => "in progress", WebhookSent => "webhook sent" }
);

fn validate_reveal(ids: &[String], webhook_url: &str) -> Vec<ValidationError> {
    let at = LocPath::body();
    let mut out = Vec::new();
    wire_checks::min_items(ids.len(), 1, &at.key("personIds"), &mut out);
    wire_checks::max_items(ids.len(), REVEAL_MAX_IDS, &at.key("personIds"), &mut out);
    // A blank URL is refused here, in `HttpUrl`'s words (the sandbox checks the rest of a URL
    // with the same rule, `wire_checks::webhook_url`, before it queues anything).
    if webhook_url.trim().is_empty() {
        wire_checks::webhook_url(webhook_url, &at.key("webhookUrl"), &mut out);
    }
    out
}

/// Body of `POST /v2/reveal/emails` (openapi `PublicRevealEmailBody`). One email credit per
/// verified email found (NOTES.md).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RevealEmailsRequest {
    /// The service's person ids, 1..=500.
    pub person_ids: Vec<String>,
    /// Where the `reveal_emails` webhook is POSTed (required; an absolute http(s) URL).
    pub webhook_url: String,
}

impl Validate for RevealEmailsRequest {
    /// `personIds` 1..=500 (`too_short` / `too_long`); a blank `webhookUrl` is
    /// `url_parsing` ([`wire_checks::webhook_url`]).
    fn validate(&self) -> Vec<ValidationError> {
        validate_reveal(&self.person_ids, &self.webhook_url)
    }
}

/// Body of `POST /v2/reveal/phones` (SPEC.md §4.7; openapi `PublicRevealPhoneBody`). One phone
/// credit per verified phone found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RevealPhonesRequest {
    /// The service's person ids, 1..=500.
    pub person_ids: Vec<String>,
    /// Where the `reveal_phones` webhook is POSTed (required; an absolute http(s) URL).
    pub webhook_url: String,
}

impl Validate for RevealPhonesRequest {
    /// `personIds` 1..=500 (`too_short` / `too_long`); a blank `webhookUrl` is
    /// `url_parsing` ([`wire_checks::webhook_url`]).
    fn validate(&self) -> Vec<ValidationError> {
        validate_reveal(&self.person_ids, &self.webhook_url)
    }
}

/// Response 200 of `POST /v2/reveal/emails` (openapi `PublicRevealEmailResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RevealEmailsResponse {
    /// `in progress` while verifications run, `webhook sent` when the results were already sent.
    #[serde(default = "unknown_enum")]
    pub status: RevealStatus,
}

/// Response 200 of `POST /v2/reveal/phones` (SPEC.md §4.7; openapi `PublicRevealPhoneResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RevealPhonesResponse {
    /// `in progress` while verifications run, `webhook sent` when the results were already sent.
    #[serde(default = "unknown_enum")]
    pub status: RevealStatus,
}

/// One email result of the `reveal_emails` webhook (openapi `reveal_emails__Email`).
/// `address` is always written (`null` when none was found).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RevealEmail {
    /// The address; `None` when not found.
    #[serde(default)]
    pub address: Option<String>,
    /// Verification status (`notFound` is not charged).
    #[serde(default = "unknown_enum")]
    pub status: EmailStatus,
    /// The person id this result is for.
    #[serde(default)]
    pub person_id: String,
}

/// One phone result of the `reveal_phones` webhook (openapi `reveal_phones__Phone`).
/// `numbers` is always written (`null` reads as empty).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RevealPhone {
    /// Phone numbers found.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub numbers: Vec<String>,
    /// Verification status (one phone credit per `verified`).
    #[serde(default = "unknown_enum")]
    pub status: PhoneStatus,
    /// The person id this result is for.
    #[serde(default)]
    pub person_id: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reveal_limits() {
        let ok = RevealPhonesRequest {
            person_ids: vec!["a".into()],
            webhook_url: "https://h/x?secret=1".into(),
        };
        assert!(ok.validate().is_empty());
        let none = RevealEmailsRequest {
            person_ids: vec![],
            webhook_url: " ".into(),
        }
        .validate();
        assert_eq!(
            none.iter().map(|e| e.kind.as_str()).collect::<Vec<_>>(),
            ["too_short", "url_parsing"]
        );
        assert_eq!(
            none[0].msg,
            "List should have at least 1 item after validation, not 0"
        );
        let big = RevealEmailsRequest {
            person_ids: vec!["a".into(); 501],
            webhook_url: "u".into(),
        }
        .validate();
        assert_eq!(
            big[0].msg,
            "List should have at most 500 items after validation, not 501"
        );
        assert!(serde_json::from_str::<RevealEmailsRequest>(r#"{"personIds":["a"]}"#).is_err());
        assert!(
            serde_json::from_str::<RevealEmailsRequest>(
                r#"{"personIds":["a"],"webhookUrl":"u","x":1}"#
            )
            .is_err()
        );
    }

    #[test]
    fn acks_and_results_are_tolerant() {
        let a: RevealPhonesResponse =
            serde_json::from_str(r#"{"status":"webhook sent","x":1}"#).unwrap();
        assert_eq!(a.status, RevealStatus::WebhookSent);
        let a: RevealEmailsResponse = serde_json::from_str(r#"{"status":"queued"}"#).unwrap();
        assert_eq!(a.status, RevealStatus::Unknown("queued".into()));
        let e: RevealEmail =
            serde_json::from_str(r#"{"personId":"p","status":"notFound"}"#).unwrap();
        assert_eq!(e.address, None);
        assert_eq!(
            serde_json::to_value(&e).unwrap()["address"],
            serde_json::Value::Null
        );
    }
}
