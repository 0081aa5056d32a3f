//! The person record and the people-search responses (SPEC.md §2.1, §2.2, §4.3, §4.10; openapi
//! `PublicPerson`, `LookalikePerson`, `PersonCompany`, `Experience`, person `Email` / `Phone`,
//! `PublicSearchPeopleResult`, `LookalikePeopleResultV3`, `PublicSearchPeopleResultPreviewV3`).
//!
//! All types here are *responses*: tolerant readers (unknown members ignored, missing optional
//! members `None`, `null` arrays empty, integers accept `1.0`, unknown enum values kept).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::common::{
    CompanySize, Department, EmailStatus, PhoneStatus, Relevance, Revenue, Seniority, lenient,
};
use super::company::{DomainStatus, FundingRound, PreviewCompany, unknown_enum};

/// A person record (SPEC.md §2.1; openapi `PublicPerson`), as returned by people search v2,
/// enrich person, and the `enrich_person_*` / `people_search_*` webhooks. `id` and `domain` are
/// required on the wire (read as empty strings when a server leaves them out).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Person {
    /// The service's person id, e.g. `"e9447c74eafa8a19"` (used by reveal and lookup `serviceIds`).
    #[serde(default)]
    pub id: String,
    /// Domain of the company the person works for.
    #[serde(default)]
    pub domain: String,
    /// Full name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// First name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_name: Option<String>,
    /// Last name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    /// Country (lowercase two-letter code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// State code, e.g. `"CA"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Free-text place, e.g. `"Copenhagen, Capital Region, Denmark"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// URL of the professional-network profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linkedin_url: Option<String>,
    /// Seniorities computed from the job title.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub seniorities: Vec<Seniority>,
    /// Departments computed from the job title.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub departments: Vec<Department>,
    /// Profile picture URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub photo: Option<String>,
    /// Job title in its original language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_title: Option<String>,
    /// Job title translated to English.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_title_english: Option<String>,
    /// Description of the current position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_job_description: Option<String>,
    /// Work history, most recent first as the service sends it.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub experiences: Vec<Experience>,
    /// Text the person wrote about themselves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Skills.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub skills: Vec<String>,
    /// Revealed phone numbers (SPEC.md §2.2); `None` when not revealed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<Phone>,
    /// Revealed email (SPEC.md §2.2); `None` when not revealed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<Email>,
    /// Inferred (pattern-based, unverified) addresses.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub inferred_emails: Vec<String>,
    /// Last update of the record, RFC 3339 timestamp.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// Professional-network connections (count).
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub connections_count: Option<i64>,
    /// Professional-network followers (count).
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub followers_count: Option<i64>,
    /// Profile headline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headline: Option<String>,
}

/// One position of a person's work history (SPEC.md §2.1 `experiences`; openapi `Experience`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Experience {
    /// Domain of the employer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// Job title held.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_title: Option<String>,
    /// Start date, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_from: Option<String>,
    /// End date, `YYYY-MM-DD`; `None` for a current position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_to: Option<String>,
    /// Description of the position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Professional-network handle of the employer, e.g. `"colliers"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linkedin_company_handle: Option<String>,
}

/// A person's email and its verification status (SPEC.md §2.2; openapi
/// `public_api__models__person__Email`). `address` is always written (`null` when none).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Email {
    /// The address; `None` when not found.
    #[serde(default)]
    pub address: Option<String>,
    /// Verification status.
    #[serde(default = "unknown_enum")]
    pub status: EmailStatus,
}

/// A person's phone numbers and their verification status (SPEC.md §2.2; openapi
/// `public_api__models__person__Phone`). `numbers` is always written (`null` reads as empty).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Phone {
    /// Phone numbers as published, e.g. `"+4512345678"`.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub numbers: Vec<String>,
    /// Verification status.
    #[serde(default = "unknown_enum")]
    pub status: PhoneStatus,
}

/// A summary of the employer attached to each v3 people-search result (openapi `PersonCompany`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonCompany {
    /// Head-count range label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company_size: Option<CompanySize>,
    /// Logo URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo: Option<String>,
    /// Company name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Revenue range label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revenue: Option<Revenue>,
    /// People of the company in the service's database (persons).
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub employee_count_service: Option<i64>,
    /// Industries.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub industries: Vec<String>,
    /// Technologies used.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub technologies: Vec<String>,
    /// Latest funding round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub funding_round: Option<FundingRound>,
}

impl From<&crate::types::company::Company> for PersonCompany {
    /// The summary of a full company record (what a v3 people search attaches), for people
    /// joined with their stored employer.
    fn from(c: &crate::types::company::Company) -> PersonCompany {
        PersonCompany {
            company_size: c.company_size.clone(),
            logo: c.logo.clone(),
            name: c.name.clone(),
            revenue: c.revenue.clone(),
            employee_count_service: c.employee_count_service,
            industries: c.industries.clone(),
            technologies: c.technologies.clone(),
            funding_round: c.funding_round.clone(),
        }
    }
}

/// A result of people search v3 and lookup people: the person record plus its employer summary
/// and relevance (SPEC.md §4.10; openapi `LookalikePerson`). The person's members are flattened
/// into the same JSON object.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LookalikePerson {
    /// The person record members (`id`, `domain`, `name`, ...).
    #[serde(flatten)]
    pub person: Person,
    /// Employer summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company: Option<PersonCompany>,
    /// Relevance category, `A` the most relevant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relevance: Option<Relevance>,
}

/// Which of the `lookalikePeople` handles could be used (openapi `LookalikePeopleStatuses`);
/// each list holds person ids / handles as given.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LookalikePeopleStatuses {
    /// Found in the database.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub successful_people: Vec<String>,
    /// Not found.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub not_found_people: Vec<String>,
    /// Linked to a company not crawled yet (crawl triggered).
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub triggered_domain_people: Vec<String>,
    /// Linked to a company that lacks the data needed.
    #[serde(
        default,
        deserialize_with = "lenient::vec_or_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub missing_company_information_people: Vec<String>,
}

/// The masked person of a preview result (openapi `PublicPersonPreviewBase`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonPreviewBase {
    /// Partly masked full name, e.g. `"John ***"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Job title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_title: Option<String>,
}

/// One preview result: rank, masked person, company (openapi `PublicPersonWithCompanyPreview`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonWithCompanyPreview {
    /// 1-based position in the results.
    #[serde(default, deserialize_with = "lenient::i64_or_zero")]
    pub ranking: i64,
    /// The masked person.
    #[serde(default)]
    pub person: PersonPreviewBase,
    /// The person's company.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company: Option<PreviewCompany>,
}

/// Response 200 of `POST /v2/search/people` (SPEC.md §4.3; openapi `PublicSearchPeopleResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchPeopleV2Response {
    /// The page of people (person records, SPEC.md §2.1).
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub people: Vec<Person>,
    /// Cursor for the next page; `None` on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_after: Option<String>,
    /// Status text, `"OK"` on success.
    #[serde(default)]
    pub detail: String,
    /// Total number of results reachable by paging.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub total: Option<i64>,
    /// Domains given in filters mapped to the domains they redirect to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_map: Option<BTreeMap<String, String>>,
    /// Standard credits charged (0.0 when the server omits it).
    #[serde(default)]
    pub credits_used: f64,
}

/// Response 200 of `POST /v3/search/people` (SPEC.md §4.10; openapi `LookalikePeopleResultV3`).
/// `P` is the type of a result: [`LookalikePerson`], or a record already serialized
/// ([`crate::types::RecordJson`], what the sandbox writes).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(
    rename_all = "camelCase",
    bound(deserialize = "P: Deserialize<'de> + Default")
)]
pub struct SearchPeopleV3Response<P = LookalikePerson> {
    /// The page of people, each with its `company` and `relevance`.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub people: Vec<P>,
    /// Status text, `"OK"` on success.
    #[serde(default)]
    pub detail: String,
    /// What became of the `lookalikePeople` given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lookalike_people_statuses: Option<LookalikePeopleStatuses>,
    /// Total number of results reachable by paging.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub total: Option<i64>,
    /// Cursor for the next page; `None` on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_after: Option<String>,
    /// Domains given in filters mapped to the domains they redirect to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_map: Option<BTreeMap<String, String>>,
    /// Standard credits charged (0.0 when the server omits it).
    #[serde(default)]
    pub credits_used: f64,
    /// `includeDomains` that are not in the results, with the reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_domains_statuses: Option<BTreeMap<String, DomainStatus>>,
}

/// Response 200 of `POST /v3/search/people/preview` (SPEC.md §4.10; openapi
/// `PublicSearchPeopleResultPreviewV3`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchPeoplePreviewResponse {
    /// Status text, `"OK"` on success.
    #[serde(default)]
    pub detail: String,
    /// Number of available results.
    #[serde(
        default,
        deserialize_with = "lenient::opt_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub total: Option<i64>,
    /// Domains given in filters mapped to the domains they redirect to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_map: Option<BTreeMap<String, String>>,
    /// Credits charged (0.0 when the server omits it).
    #[serde(default)]
    pub credits_used: f64,
    /// The preview results.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub people: Vec<PersonWithCompanyPreview>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_enum_in_one_person_does_not_fail_the_page() {
        let page: SearchPeopleV2Response = serde_json::from_str(
            r#"{"detail":"OK","creditsUsed":3,"total":2.0,"futureField":true,"people":[
                {"id":"1","domain":"a.com","seniorities":["Chief Vibes Officer","VP"],
                 "departments":["Time Travel"],"email":{"address":null,"status":"bounced"}},
                {"id":"2","domain":"b.com","seniorities":null,"phone":{"numbers":null,"status":"verified"},
                 "connectionsCount":500.0}]}"#,
        )
        .unwrap();
        assert_eq!(page.people.len(), 2);
        let p0 = &page.people[0];
        assert_eq!(
            p0.seniorities,
            vec![
                Seniority::Unknown("Chief Vibes Officer".into()),
                Seniority::Vp
            ]
        );
        assert_eq!(
            p0.email.as_ref().unwrap().status,
            EmailStatus::Unknown("bounced".into())
        );
        assert_eq!(p0.name, None);
        let p1 = &page.people[1];
        assert!(p1.seniorities.is_empty());
        assert_eq!(p1.phone.as_ref().unwrap().numbers, Vec::<String>::new());
        assert_eq!(p1.connections_count, Some(500));
        assert_eq!(page.credits_used, 3.0);
        assert_eq!(page.total, Some(2));
    }

    #[test]
    fn lookalike_person_flattens_and_keeps_required_nulls() {
        let p: LookalikePerson = serde_json::from_str(
            r#"{"id":"x","domain":"a.com","name":"Ann","relevance":"B","company":{"name":"A","employeeCountService":5.0},
                "email":{"status":"notFound"}}"#,
        )
        .unwrap();
        assert_eq!(p.person.name.as_deref(), Some("Ann"));
        assert_eq!(p.relevance, Some(Relevance::B));
        assert_eq!(p.company.as_ref().unwrap().employee_count_service, Some(5));
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(
            v["email"],
            serde_json::json!({"address": null, "status": "notFound"})
        );
        assert_eq!(v["id"], "x");
    }

    #[test]
    fn preview_company_writes_required_nullable_members() {
        let c = PreviewCompany {
            name: "A".into(),
            ..Default::default()
        };
        let v = serde_json::to_value(&c).unwrap();
        assert!(
            v["size"].is_null() && v["primaryCountry"].is_null() && v["primaryRegion"].is_null()
        );
        assert!(v.get("linkedinHandle").is_none());
    }
}
