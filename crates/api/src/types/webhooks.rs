//! The eight webhook bodies the service POSTs to a caller's `webhookUrl` (SPEC.md §6; openapi
//! `webhooks`: `PublicRevealEmailWebhookResult`, `PublicRevealPhoneWebhookResult`,
//! `PublicSearchPeopleEmailWebhookResult`, `PublicSearchPeoplePhoneWebhookResult`,
//! `EmailWebhookPerson`, `PhoneWebhookPerson`, and the batch enrichments'
//! `EnrichCompaniesWebhookResult`, `EnrichPeopleWebhookResult`) and [`WebhookEvent`], their
//! names.
//!
//! Deliveries may repeat (NOTES.md: retried with backoff), so receivers must be idempotent. The
//! bodies are read tolerantly, like responses.

use serde::{Deserialize, Serialize};

use super::common::{LocSegment, ValidationError, lenient};
use super::company::{Company, unknown_enum};
use super::person::{Email, Person, Phone};
use super::reveal::{RevealEmail, RevealPhone};
use prospect_common::ContactKind;

/// Body of the `reveal_emails` webhook (openapi `PublicRevealEmailWebhookResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RevealEmailsWebhook {
    /// One result per requested person id, in request order.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub emails: Vec<RevealEmail>,
    /// Email credits charged (0.0 when the sender omits it).
    #[serde(default)]
    pub credits_used: f64,
}

/// Body of the `reveal_phones` webhook (openapi `PublicRevealPhoneWebhookResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RevealPhonesWebhook {
    /// One result per requested person id, in request order.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub phones: Vec<RevealPhone>,
    /// Phone credits charged (0.0 when the sender omits it).
    #[serde(default)]
    pub credits_used: f64,
}

/// Body of the `enrich_person_email` webhook (SPEC.md §6; openapi `EmailWebhookPerson`): the
/// person record with its `email` filled in. Same shape as [`Person`].
pub type EnrichPersonEmailWebhook = Person;

/// Body of the `enrich_person_phone` webhook (SPEC.md §6; openapi `PhoneWebhookPerson`): the
/// person record with its `phone` filled in. Same shape as [`Person`].
pub type EnrichPersonPhoneWebhook = Person;

/// Body of the `people_search_emails` webhook (SPEC.md §6; openapi
/// `PublicSearchPeopleEmailWebhookResult`): the searched people with their `email`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PeopleSearchEmailsWebhook {
    /// The people of the search page, emails revealed.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub people: Vec<EnrichPersonEmailWebhook>,
    /// Status text, `"OK"`.
    #[serde(default)]
    pub detail: String,
    /// Total results of the search.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub total: Option<i64>,
}

/// Body of the `people_search_phones` webhook (SPEC.md §6; openapi
/// `PublicSearchPeoplePhoneWebhookResult`): the searched people with their `phone`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PeopleSearchPhonesWebhook {
    /// The people of the search page, phones revealed.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub people: Vec<EnrichPersonPhoneWebhook>,
    /// Status text, `"OK"`.
    #[serde(default)]
    pub detail: String,
    /// Total results of the search.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub total: Option<i64>,
}

crate::wire_enum!(
    /// Whether a batch enrichment processed everything (openapi `OverallEnrichmentStatus`).
    OverallEnrichmentStatus { Completed => "Completed", Incomplete => "Incomplete" }
);

crate::wire_enum!(
    /// How one item of a batch enrichment matched (openapi `MatchStatus`).
    MatchStatus {
        Success => "Success", NotEnoughData => "Not enough data", NotFound => "Not found",
        TooManyMatches => "Too many matches",
    }
);

/// One company of an `enrich_companies` delivery (openapi `PublicCompanyWithUniqueId`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompanyWithUniqueId {
    /// The enriched company; `None` unless `status` is `Success`.
    #[serde(default)]
    pub company: Option<Company>,
    /// The caller's id for this item, echoed back.
    #[serde(default)]
    pub unique_id: String,
    /// How it matched.
    #[serde(default = "unknown_enum")]
    pub status: MatchStatus,
}

/// One person of an `enrich_people` delivery (openapi `PublicPersonWithUniqueId`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonWithUniqueId {
    /// The enriched person; `None` unless `status` is `Success`.
    #[serde(default)]
    pub person: Option<Person>,
    /// The caller's id for this item, echoed back.
    #[serde(default)]
    pub unique_id: String,
    /// How it matched.
    #[serde(default = "unknown_enum")]
    pub status: MatchStatus,
}

/// Body of the `enrich_companies` webhook (openapi `EnrichCompaniesWebhookResult`): the
/// results of a batch company enrichment (`/v2/enrich/companies`, outside SPEC.md's scope).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnrichCompaniesWebhook {
    /// One result per requested company.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub companies: Vec<CompanyWithUniqueId>,
    /// `Completed`, or `Incomplete` when the batch timed out.
    #[serde(default = "unknown_enum")]
    pub overall_status: OverallEnrichmentStatus,
    /// Standard credits charged for the batch.
    #[serde(default)]
    pub credits_used: f64,
}

/// Body of the `enrich_people` webhook (openapi `EnrichPeopleWebhookResult`): the results of a
/// batch people enrichment (`/v2/enrich/people`, outside SPEC.md's scope).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnrichPeopleWebhook {
    /// One result per requested person.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub people: Vec<PersonWithUniqueId>,
    /// `Completed`, or `Incomplete` when the batch timed out.
    #[serde(default = "unknown_enum")]
    pub overall_status: OverallEnrichmentStatus,
    /// Standard credits charged for the batch.
    #[serde(default)]
    pub credits_used: f64,
}

/// The eight webhook events of openapi.json: the six of SPEC.md §6 and the two batch
/// enrichments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WebhookEvent {
    /// `reveal_emails`: results of `POST /v2/reveal/emails` → [`RevealEmailsWebhook`].
    RevealEmails,
    /// `reveal_phones`: results of `POST /v2/reveal/phones` → [`RevealPhonesWebhook`].
    RevealPhones,
    /// `people_search_emails`: email reveal of `POST /v3/search/people` → [`PeopleSearchEmailsWebhook`].
    PeopleSearchEmails,
    /// `people_search_phones`: phone reveal of `POST /v3/search/people` → [`PeopleSearchPhonesWebhook`].
    PeopleSearchPhones,
    /// `enrich_person_email`: email reveal of `POST /v2/enrich/person` → [`EnrichPersonEmailWebhook`].
    EnrichPersonEmail,
    /// `enrich_person_phone`: phone reveal of `POST /v2/enrich/person` → [`EnrichPersonPhoneWebhook`].
    EnrichPersonPhone,
    /// `enrich_companies`: results of a batch company enrichment → [`EnrichCompaniesWebhook`].
    EnrichCompanies,
    /// `enrich_people`: results of a batch people enrichment → [`EnrichPeopleWebhook`].
    EnrichPeople,
}

impl WebhookEvent {
    /// All eight: SPEC.md §6's six, then the two batch enrichments.
    pub const ALL: [WebhookEvent; 8] = [
        WebhookEvent::RevealEmails,
        WebhookEvent::RevealPhones,
        WebhookEvent::PeopleSearchEmails,
        WebhookEvent::PeopleSearchPhones,
        WebhookEvent::EnrichPersonEmail,
        WebhookEvent::EnrichPersonPhone,
        WebhookEvent::EnrichCompanies,
        WebhookEvent::EnrichPeople,
    ];

    /// The event's name, e.g. `"reveal_emails"` (openapi `webhooks` key).
    pub fn name(&self) -> &'static str {
        match self {
            WebhookEvent::RevealEmails => "reveal_emails",
            WebhookEvent::RevealPhones => "reveal_phones",
            WebhookEvent::PeopleSearchEmails => "people_search_emails",
            WebhookEvent::PeopleSearchPhones => "people_search_phones",
            WebhookEvent::EnrichPersonEmail => "enrich_person_email",
            WebhookEvent::EnrichPersonPhone => "enrich_person_phone",
            WebhookEvent::EnrichCompanies => "enrich_companies",
            WebhookEvent::EnrichPeople => "enrich_people",
        }
    }

    /// The event with this name, `None` for any other string.
    pub fn from_name(name: &str) -> Option<WebhookEvent> {
        WebhookEvent::ALL.into_iter().find(|e| e.name() == name)
    }

    /// Read a delivery body of this event (tolerant reading, like responses).
    /// The members openapi.json marks required in this event's body (its `webhooks`
    /// section): `emails` / `phones` and `creditsUsed` of the reveals, `people` and `detail` of
    /// the people searches, `id` and `domain` of an enriched person, `overallStatus` and
    /// `creditsUsed` of the batch enrichments.
    pub fn required_members(&self) -> &'static [&'static str] {
        match self {
            WebhookEvent::RevealEmails => &["emails", "creditsUsed"],
            WebhookEvent::RevealPhones => &["phones", "creditsUsed"],
            WebhookEvent::PeopleSearchEmails | WebhookEvent::PeopleSearchPhones => {
                &["people", "detail"]
            }
            WebhookEvent::EnrichPersonEmail | WebhookEvent::EnrichPersonPhone => &["id", "domain"],
            WebhookEvent::EnrichCompanies | WebhookEvent::EnrichPeople => {
                &["overallStatus", "creditsUsed"]
            }
        }
    }

    /// Checks a body's shape before it is read, as the service's pydantic models would: a JSON
    /// object (`model_attributes_type`) with every [`WebhookEvent::required_members`] present
    /// (`missing`), the list members (`emails`, `phones`, `people`, `companies`) arrays when
    /// present (`list_type`), `creditsUsed` a number (`float_type`), and a batch's
    /// `overallStatus` one of openapi's `OverallEnrichmentStatus` (`enum`: `Completed` or
    /// `Incomplete`). `Err`: the first problem, an entry of a 422 `detail` (issue 38, item 14).
    pub fn check_shape(&self, body: &serde_json::Value) -> Result<(), Box<ValidationError>> {
        let problem =
            |member: Option<&str>, msg: &str, kind: &str, input: Option<&serde_json::Value>| {
                let mut loc = vec![LocSegment::from("body")];
                loc.extend(member.map(LocSegment::from));
                ValidationError {
                    input: input.cloned(),
                    ..ValidationError::new(loc, msg, kind)
                }
            };
        let Some(obj) = body.as_object() else {
            return Err(Box::new(problem(
                None,
                "Input should be a valid dictionary or object to extract fields from",
                "model_attributes_type",
                Some(body),
            )));
        };
        for m in self.required_members() {
            if !obj.contains_key(*m) {
                return Err(Box::new(problem(
                    Some(m),
                    "Field required",
                    "missing",
                    Some(body),
                )));
            }
        }
        for list in ["emails", "phones", "people", "companies"] {
            if let Some(v) = obj.get(list)
                && !v.is_array()
                && !v.is_null()
            {
                return Err(Box::new(problem(
                    Some(list),
                    "Input should be a valid list",
                    "list_type",
                    Some(v),
                )));
            }
        }
        if let Some(v) = obj.get("creditsUsed")
            && !v.is_number()
        {
            return Err(Box::new(problem(
                Some("creditsUsed"),
                "Input should be a valid number",
                "float_type",
                Some(v),
            )));
        }
        if matches!(
            self,
            WebhookEvent::EnrichCompanies | WebhookEvent::EnrichPeople
        ) && let Some(v) = obj.get("overallStatus")
            && !matches!(v.as_str(), Some("Completed" | "Incomplete"))
        {
            let expected = "'Completed' or 'Incomplete'";
            return Err(Box::new(ValidationError {
                ctx: Some(serde_json::json!({ "expected": expected })),
                ..problem(
                    Some("overallStatus"),
                    &format!("Input should be {expected}"),
                    "enum",
                    Some(v),
                )
            }));
        }
        Ok(())
    }

    /// Reads a body of this event (tolerantly, like responses). Check its shape first with
    /// [`WebhookEvent::check_shape`]: this alone reads `{}` as an empty body.
    pub fn parse_body(&self, body: &[u8]) -> Result<WebhookBody, serde_json::Error> {
        Ok(match self {
            WebhookEvent::RevealEmails => WebhookBody::RevealEmails(serde_json::from_slice(body)?),
            WebhookEvent::RevealPhones => WebhookBody::RevealPhones(serde_json::from_slice(body)?),
            WebhookEvent::PeopleSearchEmails => {
                WebhookBody::PeopleSearchEmails(serde_json::from_slice(body)?)
            }
            WebhookEvent::PeopleSearchPhones => {
                WebhookBody::PeopleSearchPhones(serde_json::from_slice(body)?)
            }
            WebhookEvent::EnrichPersonEmail => {
                WebhookBody::EnrichPersonEmail(Box::new(serde_json::from_slice(body)?))
            }
            WebhookEvent::EnrichPersonPhone => {
                WebhookBody::EnrichPersonPhone(Box::new(serde_json::from_slice(body)?))
            }
            WebhookEvent::EnrichCompanies => {
                WebhookBody::EnrichCompanies(serde_json::from_slice(body)?)
            }
            WebhookEvent::EnrichPeople => WebhookBody::EnrichPeople(serde_json::from_slice(body)?),
        })
    }
}

impl std::fmt::Display for WebhookEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A webhook body of any of the eight events; serializes as the bare body (no tag).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum WebhookBody {
    /// `reveal_emails`.
    RevealEmails(RevealEmailsWebhook),
    /// `reveal_phones`.
    RevealPhones(RevealPhonesWebhook),
    /// `people_search_emails`.
    PeopleSearchEmails(PeopleSearchEmailsWebhook),
    /// `people_search_phones`.
    PeopleSearchPhones(PeopleSearchPhonesWebhook),
    /// `enrich_person_email`.
    EnrichPersonEmail(Box<EnrichPersonEmailWebhook>),
    /// `enrich_person_phone`.
    EnrichPersonPhone(Box<EnrichPersonPhoneWebhook>),
    /// `enrich_companies`.
    EnrichCompanies(EnrichCompaniesWebhook),
    /// `enrich_people`.
    EnrichPeople(EnrichPeopleWebhook),
}

impl WebhookBody {
    /// The event this body belongs to.
    pub fn event(&self) -> WebhookEvent {
        match self {
            WebhookBody::RevealEmails(_) => WebhookEvent::RevealEmails,
            WebhookBody::RevealPhones(_) => WebhookEvent::RevealPhones,
            WebhookBody::PeopleSearchEmails(_) => WebhookEvent::PeopleSearchEmails,
            WebhookBody::PeopleSearchPhones(_) => WebhookEvent::PeopleSearchPhones,
            WebhookBody::EnrichPersonEmail(_) => WebhookEvent::EnrichPersonEmail,
            WebhookBody::EnrichPersonPhone(_) => WebhookEvent::EnrichPersonPhone,
            WebhookBody::EnrichCompanies(_) => WebhookEvent::EnrichCompanies,
            WebhookBody::EnrichPeople(_) => WebhookEvent::EnrichPeople,
        }
    }
}

/// A contact a delivery brings for one person (SPEC.md §6), in the wire's shapes: what the
/// store keeps and the explorer shows of it, mapped from a body once ([`WebhookBody::contacts`]).
#[derive(Debug, Clone, PartialEq)]
pub enum DeliveredContact {
    /// An email with its status.
    Email {
        /// The person's id (trimmed).
        person_id: String,
        /// The address (`None`: not found) and its status.
        email: Email,
    },
    /// Phone numbers with their status.
    Phone {
        /// The person's id (trimmed).
        person_id: String,
        /// The numbers and their status.
        phone: Phone,
    },
}

impl DeliveredContact {
    /// The person it belongs to.
    pub fn person_id(&self) -> &str {
        match self {
            DeliveredContact::Email { person_id, .. }
            | DeliveredContact::Phone { person_id, .. } => person_id,
        }
    }

    /// Email or phone.
    pub fn kind(&self) -> ContactKind {
        match self {
            DeliveredContact::Email { .. } => ContactKind::Email,
            DeliveredContact::Phone { .. } => ContactKind::Phone,
        }
    }

    /// The email and phone a person record carries (none for a person without an id).
    pub fn of_person(p: &Person) -> Vec<DeliveredContact> {
        let person_id = p.id.trim();
        if person_id.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        if let Some(e) = &p.email {
            out.push(DeliveredContact::Email {
                person_id: person_id.to_string(),
                email: e.clone(),
            });
        }
        if let Some(ph) = &p.phone {
            out.push(DeliveredContact::Phone {
                person_id: person_id.to_string(),
                phone: ph.clone(),
            });
        }
        out
    }
}

impl WebhookBody {
    /// The contacts this delivery brings, in body order: a reveal's results, or the email and
    /// phone of the people it carries (a people-search reveal, a person enrichment, a batch
    /// enrichment of people). A result without a person id brings none.
    pub fn contacts(&self) -> Vec<DeliveredContact> {
        let id = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty());
        match self {
            WebhookBody::RevealEmails(r) => r
                .emails
                .iter()
                .filter_map(|e| {
                    Some(DeliveredContact::Email {
                        person_id: id(&e.person_id)?,
                        email: Email {
                            address: e.address.clone(),
                            status: e.status.clone(),
                        },
                    })
                })
                .collect(),
            WebhookBody::RevealPhones(r) => r
                .phones
                .iter()
                .filter_map(|p| {
                    Some(DeliveredContact::Phone {
                        person_id: id(&p.person_id)?,
                        phone: Phone {
                            numbers: p.numbers.clone(),
                            status: p.status.clone(),
                        },
                    })
                })
                .collect(),
            WebhookBody::PeopleSearchEmails(s) => s
                .people
                .iter()
                .flat_map(DeliveredContact::of_person)
                .collect(),
            WebhookBody::PeopleSearchPhones(s) => s
                .people
                .iter()
                .flat_map(DeliveredContact::of_person)
                .collect(),
            WebhookBody::EnrichPersonEmail(p) | WebhookBody::EnrichPersonPhone(p) => {
                DeliveredContact::of_person(p)
            }
            WebhookBody::EnrichPeople(b) => b
                .people
                .iter()
                .filter_map(|x| x.person.as_ref())
                .flat_map(DeliveredContact::of_person)
                .collect(),
            WebhookBody::EnrichCompanies(_) => Vec::new(),
        }
    }

    /// The company records it carries (a batch enrichment of companies; none otherwise).
    pub fn companies(&self) -> Vec<&Company> {
        match self {
            WebhookBody::EnrichCompanies(b) => b
                .companies
                .iter()
                .filter_map(|x| x.company.as_ref())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The person records it carries as records of their own (a batch enrichment of people;
    /// a reveal's people are kept by the purchase that found them).
    pub fn people(&self) -> Vec<&Person> {
        match self {
            WebhookBody::EnrichPeople(b) => {
                b.people.iter().filter_map(|x| x.person.as_ref()).collect()
            }
            _ => Vec::new(),
        }
    }

    /// How many results it answers: the rows of its list (1 for a person enrichment).
    pub fn results(&self) -> usize {
        match self {
            WebhookBody::RevealEmails(r) => r.emails.len(),
            WebhookBody::RevealPhones(r) => r.phones.len(),
            WebhookBody::PeopleSearchEmails(s) => s.people.len(),
            WebhookBody::PeopleSearchPhones(s) => s.people.len(),
            WebhookBody::EnrichPersonEmail(_) | WebhookBody::EnrichPersonPhone(_) => 1,
            WebhookBody::EnrichCompanies(b) => b.companies.len(),
            WebhookBody::EnrichPeople(b) => b.people.len(),
        }
    }

    /// The contact kind it reveals (`None` for a batch enrichment).
    pub fn contact_kind(&self) -> Option<ContactKind> {
        match self {
            WebhookBody::RevealEmails(_)
            | WebhookBody::PeopleSearchEmails(_)
            | WebhookBody::EnrichPersonEmail(_) => Some(ContactKind::Email),
            WebhookBody::RevealPhones(_)
            | WebhookBody::PeopleSearchPhones(_)
            | WebhookBody::EnrichPersonPhone(_) => Some(ContactKind::Phone),
            WebhookBody::EnrichCompanies(_) | WebhookBody::EnrichPeople(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::common::{EmailStatus, PhoneStatus};

    /// One mapping of a body to contacts (issue 35): a reveal's results by trimmed person id
    /// (a result without one brings none), and the email a people-search reveal's people carry.
    #[test]
    fn a_body_maps_to_contacts_once() {
        let reveal = WebhookEvent::RevealEmails
            .parse_body(
                br#"{"emails": [{"personId": " p1 ", "address": "a@x.io", "status": "verified"},
                            {"personId": "", "address": "b@x.io", "status": "verified"}],
                 "creditsUsed": 1}"#,
            )
            .unwrap();
        let c = reveal.contacts();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].person_id(), "p1");
        assert_eq!(c[0].kind(), ContactKind::Email);
        assert_eq!(reveal.results(), 2);
        assert_eq!(reveal.contact_kind(), Some(ContactKind::Email));
        let search = WebhookEvent::PeopleSearchPhones
            .parse_body(
                br#"{"people": [{"id": "p2", "domain": "x.io",
                             "phone": {"numbers": ["+4512345678"], "status": "verified"}}]}"#,
            )
            .unwrap();
        let DeliveredContact::Phone { person_id, phone } = &search.contacts()[0] else {
            panic!("a phone")
        };
        assert_eq!((person_id.as_str(), phone.numbers.len()), ("p2", 1));
        assert!(search.companies().is_empty() && search.people().is_empty());
    }

    #[test]
    fn names_round_trip() {
        let names: Vec<&str> = WebhookEvent::ALL.iter().map(|e| e.name()).collect();
        assert_eq!(
            names,
            [
                "reveal_emails",
                "reveal_phones",
                "people_search_emails",
                "people_search_phones",
                "enrich_person_email",
                "enrich_person_phone",
                "enrich_companies",
                "enrich_people"
            ]
        );
        for e in WebhookEvent::ALL {
            assert_eq!(WebhookEvent::from_name(e.name()), Some(e));
        }
        assert_eq!(WebhookEvent::from_name("enrich_nothing"), None);
        let b = WebhookEvent::EnrichCompanies
            .parse_body(br#"{"companies":[{"uniqueId":"1","status":"Not found","company":null},{"uniqueId":"2","status":"Success","company":{"domain":"a.com"}}],"overallStatus":"Completed","creditsUsed":0.1}"#)
            .unwrap();
        let WebhookBody::EnrichCompanies(b) = b else {
            panic!("wrong variant")
        };
        assert_eq!(b.companies[0].status, MatchStatus::NotFound);
        assert_eq!(b.companies[1].company.as_ref().unwrap().domain, "a.com");
        assert_eq!(b.overall_status, OverallEnrichmentStatus::Completed);
    }

    #[test]
    fn bodies_parse_tolerantly() {
        let b = WebhookEvent::RevealEmails
            .parse_body(br#"{"emails":[{"personId":"p3","status":"notFound"},{"personId":"p1","address":"a@b.c","status":"verified"}],"creditsUsed":1}"#)
            .unwrap();
        let WebhookBody::RevealEmails(r) = &b else {
            panic!("wrong variant")
        };
        assert_eq!(r.emails[0].address, None);
        assert_eq!(r.emails[1].status, EmailStatus::Verified);
        assert_eq!(b.event(), WebhookEvent::RevealEmails);
        let p = WebhookEvent::EnrichPersonPhone
            .parse_body(br#"{"id":"x","domain":"a.com","phone":{"numbers":null,"status":"inProgress"},"new":1}"#)
            .unwrap();
        let WebhookBody::EnrichPersonPhone(p) = p else {
            panic!("wrong variant")
        };
        assert_eq!(p.phone.unwrap().status, PhoneStatus::InProgress);
        let s = WebhookEvent::PeopleSearchPhones
            .parse_body(br#"{"people":[{"id":"1","domain":"d"}],"detail":"OK","total":1.0}"#)
            .unwrap();
        let WebhookBody::PeopleSearchPhones(s) = s else {
            panic!("wrong variant")
        };
        assert_eq!((s.people.len(), s.total), (1, Some(1)));
    }
}
