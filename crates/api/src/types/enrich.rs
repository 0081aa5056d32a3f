//! Enrich one company or one person (SPEC.md §2.7, §4.4, §4.10, §7; openapi `MatchPersonBody`,
//! `MatchCompanyBody`, `Person` and `Company` match inputs, `EnrichPersonResult`,
//! `EnrichCompanyResult`).
//!
//! Requests are strict (`additionalProperties: false` → unknown members refused). An empty
//! match input is not a 422 but a 400 (`Empty body` / ``Empty `person` body``): see
//! [`EnrichCompanyRequest::is_empty`] and [`EnrichPersonRequest::person_is_empty`].

use serde::{Deserialize, Serialize};

use super::common::{CompanyField, RevealEmails, RevealPhones, Validate, ValidationError};
use super::company::Company;
use super::filters_v2::{LocPath, wire_checks};
use super::person::Person;

fn blank(s: &Option<String>) -> bool {
    s.as_deref().is_none_or(|s| s.trim().is_empty())
}

/// Who to match in enrich person (SPEC.md §2.7 `person`; openapi `Person`). All members are
/// optional strings; at least one must be non-blank (else the service answers 400
/// ``Empty `person` body``).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PersonMatch {
    /// The service's person id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Full name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// First name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_name: Option<String>,
    /// Last name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    /// Job title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_title: Option<String>,
    /// Email address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Phone number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// Facebook profile URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facebook: Option<String>,
    /// Twitter profile URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twitter: Option<String>,
    /// Professional-network profile URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linkedin: Option<String>,
    /// Country (lowercase two-letter code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
}

impl PersonMatch {
    /// `true` when every member is absent or blank.
    pub fn is_empty(&self) -> bool {
        [
            &self.id,
            &self.name,
            &self.first_name,
            &self.last_name,
            &self.job_title,
            &self.email,
            &self.phone,
            &self.facebook,
            &self.twitter,
            &self.linkedin,
            &self.country,
        ]
        .into_iter()
        .all(blank)
    }
}

/// The company to match (SPEC.md §2.7 `company`; openapi `Company`). All members optional strings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CompanyMatch {
    /// Company name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Registration (company register) number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registration_number: Option<String>,
    /// Email address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Phone number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// Country of the headquarters (lowercase two-letter code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country_code: Option<String>,
    /// State or region name, e.g. `"Arkansas"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// City.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub city: Option<String>,
    /// Street address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub street_address: Option<String>,
    /// Postal code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub postal_code: Option<String>,
    /// Full address in one line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// Facebook page URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facebook: Option<String>,
    /// Twitter page URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twitter: Option<String>,
    /// Professional-network page URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linkedin: Option<String>,
    /// Instagram page URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instagram: Option<String>,
    /// Xing page URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xing: Option<String>,
    /// Website domain, e.g. `"example.com"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// YouTube channel URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub youtube: Option<String>,
}

impl CompanyMatch {
    /// `true` when every member is absent or blank.
    pub fn is_empty(&self) -> bool {
        [
            &self.name,
            &self.registration_number,
            &self.email,
            &self.phone,
            &self.country_code,
            &self.state,
            &self.city,
            &self.street_address,
            &self.postal_code,
            &self.address,
            &self.facebook,
            &self.twitter,
            &self.linkedin,
            &self.instagram,
            &self.xing,
            &self.domain,
            &self.youtube,
        ]
        .into_iter()
        .all(blank)
    }
}

/// Body of `POST /v2/enrich/person` (SPEC.md §4.4; openapi `MatchPersonBody`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EnrichPersonRequest {
    /// The person to match (required; must not be empty).
    pub person: PersonMatch,
    /// The person's company, to help the match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company: Option<CompanyMatch>,
    /// Reveal the email (delivered by the `enrich_person_email` webhook).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal_emails: Option<RevealEmails>,
    /// Reveal the phones (delivered by the `enrich_person_phone` webhook).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal_phones: Option<RevealPhones>,
}

impl EnrichPersonRequest {
    /// The detail text of the 400 the service answers for an empty `person` (SPEC.md §7).
    pub const EMPTY_PERSON_DETAIL: &'static str = "Empty `person` body";

    /// `true` when `person` has no non-blank member: the service answers 400
    /// [`Self::EMPTY_PERSON_DETAIL`] (not a 422), so this is not part of [`Validate`].
    pub fn person_is_empty(&self) -> bool {
        self.person.is_empty()
    }
}

impl Validate for EnrichPersonRequest {
    /// The body has no 422 rules beyond its shape (closed by `deny_unknown_fields`); an empty
    /// `person` is the 400 of [`EnrichPersonRequest::person_is_empty`].
    fn validate(&self) -> Vec<ValidationError> {
        Vec::new()
    }
}

/// Body of `POST /v2/enrich/company` (SPEC.md §4.10; openapi `MatchCompanyBody`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EnrichCompanyRequest {
    /// The company to match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company: Option<CompanyMatch>,
    /// People known to work there, to help the match.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub people: Vec<PersonMatch>,
    /// Company members to return (all when `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<CompanyField>>,
}

impl EnrichCompanyRequest {
    /// The detail text of the 400 the service answers for an empty body (SPEC.md §7).
    pub const EMPTY_BODY_DETAIL: &'static str = "Empty body";

    /// `true` when neither `company` nor any of `people` has a non-blank member: the service
    /// answers 400 [`Self::EMPTY_BODY_DETAIL`] (not a 422).
    pub fn is_empty(&self) -> bool {
        self.company.as_ref().is_none_or(CompanyMatch::is_empty)
            && self.people.iter().all(PersonMatch::is_empty)
    }
}

impl Validate for EnrichCompanyRequest {
    /// `fields` must hold known company field names (`enum`).
    fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        wire_checks::all_known(&self.fields, &LocPath::body().key("fields"), &mut out);
        out
    }
}

/// Response 200 of `POST /v2/enrich/person` (SPEC.md §4.4; openapi `EnrichPersonResult`): the
/// person record (members flattened) and the credits charged.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnrichPersonResponse {
    /// The matched person, with experiences, phone and email.
    #[serde(flatten)]
    pub person: Person,
    /// Standard credits charged (3 by SPEC.md §8; 0.0 when the server omits it).
    #[serde(default)]
    pub credits_used: f64,
}

/// Response 200 of `POST /v2/enrich/company` (SPEC.md §4.10; openapi `EnrichCompanyResult`): the
/// company record (members flattened) and the credits charged.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnrichCompanyResponse {
    /// The matched company.
    #[serde(flatten)]
    pub company: Company,
    /// Standard credits charged (0.0 when the server omits it).
    #[serde(default)]
    pub credits_used: f64,
}

/// Most items of one batch enrichment (openapi `maxProperties` of `companyDataMapping` and
/// `peopleDataMapping`).
pub const ENRICH_BATCH_MAX: usize = 10_000;

/// Body of `POST /v2/enrich/companies` (openapi `MatchCompaniesBody`; outside SPEC.md's scope):
/// up to [`ENRICH_BATCH_MAX`] companies to match, keyed by the caller's own ids, answered
/// `{"status":"in progress"}` and delivered by the `enrich_companies` webhook
/// ([`super::EnrichCompaniesWebhook`]) with those ids. Each item is a [`EnrichCompanyRequest`]
/// (openapi `MatchCompanyBody`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EnrichCompaniesRequest {
    /// The caller's id → the company to match (1..=10,000 entries).
    pub company_data_mapping: std::collections::BTreeMap<String, EnrichCompanyRequest>,
    /// Where the results are delivered (`enrich_companies`).
    pub webhook_url: String,
    /// Company members to return (all when `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<CompanyField>>,
}

impl Validate for EnrichCompaniesRequest {
    /// 1..=10,000 entries (`too_short` / `too_long`, as pydantic words a dictionary); every
    /// `fields` (the body's and each item's) of known company field names.
    fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        let body = LocPath::body();
        let map = body.key("companyDataMapping");
        wire_checks::min_entries(self.company_data_mapping.len(), 1, &map, &mut out);
        wire_checks::max_entries(
            self.company_data_mapping.len(),
            ENRICH_BATCH_MAX,
            &map,
            &mut out,
        );
        wire_checks::all_known(&self.fields, &body.key("fields"), &mut out);
        for (id, item) in &self.company_data_mapping {
            let at = map.key(id);
            wire_checks::all_known(&item.fields, &at.key("fields"), &mut out);
        }
        out
    }
}

/// One person of a batch enrichment (openapi `MatchPersonBaseBody`): who, and optionally where
/// they work.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PersonToMatch {
    /// The person to match (required).
    pub person: PersonMatch,
    /// The person's company, to help the match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company: Option<CompanyMatch>,
}

/// Body of `POST /v2/enrich/people` (openapi `MatchPeopleBody`; outside SPEC.md's scope): up to
/// [`ENRICH_BATCH_MAX`] people to match, keyed by the caller's own ids, answered
/// `{"status":"in progress"}` and delivered by the `enrich_people` webhook
/// ([`super::EnrichPeopleWebhook`]) with those ids.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EnrichPeopleRequest {
    /// The caller's id → the person to match (1..=10,000 entries).
    pub people_data_mapping: std::collections::BTreeMap<String, PersonToMatch>,
    /// Where the results are delivered (`enrich_people`).
    pub webhook_url: String,
}

impl Validate for EnrichPeopleRequest {
    /// 1..=10,000 entries (`too_short` / `too_long`, as pydantic words a dictionary).
    fn validate(&self) -> Vec<ValidationError> {
        let mut out = Vec::new();
        let map = LocPath::body();
        let map = map.key("peopleDataMapping");
        wire_checks::min_entries(self.people_data_mapping.len(), 1, &map, &mut out);
        wire_checks::max_entries(
            self.people_data_mapping.len(),
            ENRICH_BATCH_MAX,
            &map,
            &mut out,
        );
        out
    }
}

/// Response 200 of `POST /v2/enrich/companies` and `POST /v2/enrich/people` (openapi
/// `EnrichCompaniesResult`, `EnrichPeopleResult`, the same shape): always `"in progress"`; the
/// results and their charge come by webhook.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnrichBatchAccepted {
    /// `"in progress"` ([`EnrichBatchAccepted::IN_PROGRESS`]).
    #[serde(default)]
    pub status: String,
}

impl EnrichBatchAccepted {
    /// The one status the service answers.
    pub const IN_PROGRESS: &'static str = "in progress";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_person_and_empty_company_are_detected() {
        let r: EnrichPersonRequest = serde_json::from_str(r#"{"person":{}}"#).unwrap();
        assert!(r.person_is_empty());
        let r: EnrichPersonRequest = serde_json::from_str(r#"{"person":{"name":"  "}}"#).unwrap();
        assert!(r.person_is_empty());
        let r: EnrichPersonRequest =
            serde_json::from_str(r#"{"person":{"linkedin":"x"}}"#).unwrap();
        assert!(!r.person_is_empty());
        assert!(r.validate().is_empty());
        assert!(EnrichCompanyRequest::default().is_empty());
        let c: EnrichCompanyRequest =
            serde_json::from_str(r#"{"company":{},"people":[{}]}"#).unwrap();
        assert!(c.is_empty());
        let c: EnrichCompanyRequest =
            serde_json::from_str(r#"{"company":{"domain":"a.com"}}"#).unwrap();
        assert!(!c.is_empty());
    }

    #[test]
    fn requests_refuse_unknown_members_and_fields() {
        assert!(serde_json::from_str::<EnrichPersonRequest>(r#"{"person":{"nick":"x"}}"#).is_err());
        assert!(serde_json::from_str::<EnrichPersonRequest>(r#"{"person":{},"extra":1}"#).is_err());
        assert!(serde_json::from_str::<EnrichPersonRequest>(r#"{}"#).is_err());
        let c: EnrichCompanyRequest =
            serde_json::from_str(r#"{"fields":["domain","shoeSize"]}"#).unwrap();
        let e = c.validate();
        assert_eq!(e.len(), 1);
        assert_eq!(
            (e[0].kind.as_str(), e[0].path()),
            ("enum", "body.fields.1".to_string())
        );
    }

    #[test]
    fn responses_flatten_the_record() {
        let r: EnrichPersonResponse = serde_json::from_str(
            r#"{"id":"p","domain":"a.com","creditsUsed":3,"followersCount":1.0,"x":1}"#,
        )
        .unwrap();
        assert_eq!(
            (
                r.person.id.as_str(),
                r.credits_used,
                r.person.followers_count
            ),
            ("p", 3.0, Some(1))
        );
        let c: EnrichCompanyResponse =
            serde_json::from_str(r#"{"domain":"a.com","creditsUsed":0.1}"#).unwrap();
        assert_eq!(c.company.domain, "a.com");
        let v = serde_json::to_value(&c).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"domain": "a.com", "creditsUsed": 0.1})
        );
    }
}
