//! Batch lookup of companies by domain and of people by handle / person id (SPEC.md §4.5, §4.6,
//! §8; openapi `LookupCompaniesRequest`, `LookupCompaniesResponse`, `LookupPeopleRequest`,
//! `LookupPeopleResponse`; NOTES.md "lookup/companies response"). Validation uses the shared
//! pydantic-v2-style checks of [`super::filters_v2::wire_checks`].

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};

use super::common::{CompanyField, Validate, ValidationError, lenient};
use super::company::Company;
use super::filters_v2::{LocPath, wire_checks};
use super::person::LookalikePerson;
use super::record_json::RecordJson;

/// Most domains in one lookup-companies request (SPEC.md §8).
pub const LOOKUP_COMPANIES_MAX: usize = 1000;
/// Most handles plus person ids in one lookup-people request (SPEC.md §8).
pub const LOOKUP_PEOPLE_MAX: usize = 1000;

/// Body of `POST /v2/lookup/companies` (SPEC.md §4.5; openapi `LookupCompaniesRequest`).
/// Valid when it holds 1..=1000 domains and only known field names.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LookupCompaniesRequest {
    /// Company domains to look up, 1..=1000; redirections are followed by the service.
    pub domains: Vec<String>,
    /// Company members to return (all when `None`); fewer members answer faster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<CompanyField>>,
}

impl Validate for LookupCompaniesRequest {
    /// `domains` 1..=1000 (`too_short` / `too_long`), `fields` known (`enum`).
    fn validate(&self) -> Vec<ValidationError> {
        let at = LocPath::body();
        let mut out = Vec::new();
        wire_checks::min_items(self.domains.len(), 1, &at.key("domains"), &mut out);
        wire_checks::max_items(
            self.domains.len(),
            LOOKUP_COMPANIES_MAX,
            &at.key("domains"),
            &mut out,
        );
        wire_checks::all_known(&self.fields, &at.key("fields"), &mut out);
        out
    }
}

/// One entry of a lookup-companies response. Servers send either shape (NOTES.md): the flat
/// matched company of openapi.json, or SPEC.md §4.5's `{domain, company}` with `company: null`
/// for an unmatched domain. The shape read is kept so that writing gives the same shape back.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum LookupCompanyEntry {
    /// `{"domain": "...", "company": {...} | null}`: one entry per requested domain (the sandbox's form).
    ByDomain {
        /// The domain as requested.
        domain: String,
        /// The matched company, `None` when the domain did not match.
        company: Option<Box<Company>>,
    },
    /// A matched company record, flat (openapi.json's form).
    Matched(Box<Company>),
}

impl LookupCompanyEntry {
    /// The requested domain (`ByDomain`) or the matched company's domain (`Matched`).
    pub fn domain(&self) -> &str {
        match self {
            LookupCompanyEntry::ByDomain { domain, .. } => domain,
            LookupCompanyEntry::Matched(c) => &c.domain,
        }
    }

    /// The matched company, if any.
    pub fn company(&self) -> Option<&Company> {
        match self {
            LookupCompanyEntry::ByDomain { company, .. } => company.as_deref(),
            LookupCompanyEntry::Matched(c) => Some(c),
        }
    }
}

impl<'de> Deserialize<'de> for LookupCompanyEntry {
    /// An object with a `company` member is the `ByDomain` form; anything else is a flat company.
    ///
    /// The entry is taken as raw JSON text first (no tree is built), its `domain` and `company`
    /// members are peeked at, and the company is decoded once from its own text; a failure
    /// names the field inside the company (`company.yearFounded: …`).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        use serde_json::value::RawValue;

        /// The members that decide the shape; everything else is skipped unparsed.
        #[derive(Deserialize)]
        struct Peek<'a> {
            #[serde(default, borrow, deserialize_with = "lenient::raw_member")]
            company: Option<&'a RawValue>,
            #[serde(default)]
            domain: Option<serde_json::Value>,
        }
        /// `text` decoded as a company; on failure, the path of the field inside it.
        fn company<E: Error>(text: &str, prefix: &str) -> Result<Company, E> {
            serde_json::from_str::<Company>(text).map_err(|e| {
                let de = &mut serde_json::Deserializer::from_str(text);
                match serde_path_to_error::deserialize::<_, Company>(de) {
                    Err(p) if p.path().to_string() != "." => {
                        E::custom(format!("{prefix}{}: {}", p.path(), p.inner()))
                    }
                    _ => E::custom(format!("{prefix}{e}")),
                }
            })
        }

        /// The usual `ByDomain` entry in one pass, its company decoded in place; anything
        /// else (a flat company, a member that does not read) takes the way below, which
        /// names what failed.
        #[derive(Deserialize)]
        struct ByDomain {
            #[serde(default, deserialize_with = "present")]
            company: Option<Option<Box<Company>>>,
            #[serde(default)]
            domain: Option<serde_json::Value>,
        }
        /// `Some` whenever the member is there (`Some(None)` for `null`).
        fn present<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<Option<Box<Company>>>, D::Error> {
            Option::<Box<Company>>::deserialize(d).map(Some)
        }

        let raw = Box::<RawValue>::deserialize(d)?;
        if let Ok(ByDomain {
            company: Some(company),
            domain,
        }) = serde_json::from_str::<ByDomain>(raw.get())
        {
            // `domain` as below: absent or null is empty, another kind is an error named there.
            let domain = match domain {
                Some(serde_json::Value::String(s)) => Some(s),
                Some(serde_json::Value::Null) | None => Some(String::new()),
                Some(_) => None,
            };
            if let Some(domain) = domain {
                return Ok(LookupCompanyEntry::ByDomain { domain, company });
            }
        }
        let peek: Peek<'_> = serde_json::from_str(raw.get()).map_err(D::Error::custom)?;
        match peek.company {
            Some(c) => {
                let domain = match peek.domain {
                    Some(serde_json::Value::String(s)) => s,
                    Some(serde_json::Value::Null) | None => String::new(),
                    Some(other) => {
                        return Err(D::Error::custom(format!(
                            "domain: expected a string, got {other}"
                        )));
                    }
                };
                let company = if c.get().trim() == "null" {
                    None
                } else {
                    Some(Box::new(company::<D::Error>(c.get(), "company.")?))
                };
                Ok(LookupCompanyEntry::ByDomain { domain, company })
            }
            None => Ok(LookupCompanyEntry::Matched(Box::new(company::<D::Error>(
                raw.get(),
                "",
            )?))),
        }
    }
}

/// The sandbox's entry of a lookup-companies answer: [`LookupCompanyEntry::ByDomain`] with the
/// record serialized once ([`RecordJson`]; issue 18, "Speed"). Written only.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LookupEntryJson {
    /// The domain as requested.
    pub domain: String,
    /// The matched company, `None` (`null`) when the domain did not match.
    pub company: Option<RecordJson>,
}

/// Response 200 of `POST /v2/lookup/companies` (SPEC.md §4.5; openapi `LookupCompaniesResponse`).
/// `E` is the entry's type: [`LookupCompanyEntry`], except in the sandbox ([`LookupEntryJson`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", bound(deserialize = "E: Deserialize<'de>"))]
pub struct LookupCompaniesResponse<E = LookupCompanyEntry> {
    /// The entries, in either shape (see [`LookupCompanyEntry`]).
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub companies: Vec<E>,
    /// Number of domains requested.
    #[serde(default, deserialize_with = "lenient::i64_or_zero")]
    pub total_requested: i64,
    /// Number of companies found.
    #[serde(default, deserialize_with = "lenient::i64_or_zero")]
    pub total_found: i64,
    /// Requested domains mapped to the domains they redirect to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_map: Option<BTreeMap<String, String>>,
    /// Standard credits charged (0.05 per result by NOTES.md; 0.0 when the server omits it).
    #[serde(default)]
    pub credits_used: f64,
}

/// Body of `POST /v2/lookup/people` (SPEC.md §4.6; openapi `LookupPeopleRequest`). Valid when at
/// least one list is given and the two lists hold at most 1000 values together.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LookupPeopleRequest {
    /// Professional-network profile handles, e.g. `"john-doe"` (each list at most 1000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linkedin_handles: Option<Vec<String>>,
    /// The service's person ids, e.g. `"abc123"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_ids: Option<Vec<String>>,
}

impl LookupPeopleRequest {
    /// Handles plus ids (the count SPEC.md §8 bounds by 1000).
    pub fn total(&self) -> usize {
        self.linkedin_handles.as_ref().map_or(0, Vec::len)
            + self.service_ids.as_ref().map_or(0, Vec::len)
    }
}

impl Validate for LookupPeopleRequest {
    /// Each list at most 1000 (`too_long`); neither list or both empty, or more than 1000 in
    /// total: `value_error` at `["body"]`.
    fn validate(&self) -> Vec<ValidationError> {
        let at = LocPath::body();
        let mut out = Vec::new();
        if let Some(h) = &self.linkedin_handles {
            wire_checks::max_items(
                h.len(),
                LOOKUP_PEOPLE_MAX,
                &at.key("linkedinHandles"),
                &mut out,
            );
        }
        if let Some(s) = &self.service_ids {
            wire_checks::max_items(s.len(), LOOKUP_PEOPLE_MAX, &at.key("serviceIds"), &mut out);
        }
        let total = self.total();
        if total == 0 {
            wire_checks::value_error(
                "At least one of `linkedinHandles` or `serviceIds` must be provided",
                &at,
                &mut out,
            );
        } else if total > LOOKUP_PEOPLE_MAX && out.is_empty() {
            let text = format!(
                "At most {LOOKUP_PEOPLE_MAX} `linkedinHandles` and `serviceIds` in total, not {total}"
            );
            wire_checks::value_error(&text, &at, &mut out);
        }
        out
    }
}

/// Response 200 of `POST /v2/lookup/people` (SPEC.md §4.6; openapi `LookupPeopleResponse`): only
/// the people that matched.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LookupPeopleResponse {
    /// The matched people.
    #[serde(default, deserialize_with = "lenient::vec_or_null")]
    pub people: Vec<LookalikePerson>,
    /// Number of handles plus ids requested.
    #[serde(default, deserialize_with = "lenient::i64_or_zero")]
    pub total_requested: i64,
    /// Number of people found.
    #[serde(default, deserialize_with = "lenient::i64_or_zero")]
    pub total_found: i64,
    /// Standard credits charged (0.0 when the server omits it).
    #[serde(default)]
    pub credits_used: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_companies_reads_both_shapes() {
        let r: LookupCompaniesResponse = serde_json::from_str(
            r#"{"companies":[{"domain":"a.com","name":"A"},
                             {"domain":"b.com","company":null},
                             {"domain":"c.com","company":{"domain":"c.com","yearFounded":1999.0}}],
                "totalRequested":3,"totalFound":2.0,"creditsUsed":0.1}"#,
        )
        .unwrap();
        assert_eq!(r.companies.len(), 3);
        assert_eq!(r.companies[0].company().unwrap().name.as_deref(), Some("A"));
        assert!(matches!(r.companies[0], LookupCompanyEntry::Matched(_)));
        assert_eq!(r.companies[1].domain(), "b.com");
        assert!(r.companies[1].company().is_none());
        assert_eq!(r.companies[2].company().unwrap().year_founded, Some(1999));
        assert_eq!(r.total_found, 2);
        let back = serde_json::to_value(&r).unwrap();
        assert_eq!(
            back["companies"][1],
            serde_json::json!({"domain": "b.com", "company": null})
        );
        assert_eq!(back["companies"][0]["name"], "A");
    }

    #[test]
    fn an_entry_that_does_not_read_names_its_field() {
        let read = |entry: &str| {
            serde_json::from_str::<LookupCompaniesResponse>(&format!(
                r#"{{"companies":[{entry}]}}"#
            ))
        };
        let e = read(r#"{"domain":"d.com","company":{"domain":"d.com","yearFounded":{"x":1}}}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("company.yearFounded"), "{e}");
        let e = read(r#"{"domain":5,"company":{"domain":"d.com"}}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("domain: expected a string"), "{e}");
        let r = read(r#"{"company":{"domain":"d.com"}}"#).unwrap();
        assert_eq!(
            r.companies[0].domain(),
            "",
            "no domain member reads as empty"
        );
        assert_eq!(r.companies[0].company().unwrap().domain, "d.com");
    }

    #[test]
    fn lookup_limits() {
        let ok = LookupCompaniesRequest {
            domains: vec!["a.com".into()],
            fields: None,
        };
        assert!(ok.validate().is_empty());
        let empty = LookupCompaniesRequest::default().validate();
        assert_eq!(empty[0].kind, "too_short");
        let big = LookupCompaniesRequest {
            domains: vec!["a.com".into(); 1200],
            fields: Some(vec![CompanyField::Unknown("x".into())]),
        };
        let e = big.validate();
        assert_eq!(
            e[0].msg,
            "List should have at most 1000 items after validation, not 1200"
        );
        assert_eq!(e[0].path(), "body.domains");
        assert_eq!(e[1].kind, "enum");
        assert_eq!(e[1].path(), "body.fields.0");

        let none = LookupPeopleRequest::default().validate();
        assert_eq!(
            (none.len(), none[0].kind.as_str(), none[0].path()),
            (1, "value_error", "body".to_string())
        );
        let both = LookupPeopleRequest {
            linkedin_handles: Some(vec!["h".into(); 600]),
            service_ids: Some(vec!["i".into(); 500]),
        };
        let e = both.validate();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].kind, "value_error");
        let fine = LookupPeopleRequest {
            linkedin_handles: None,
            service_ids: Some(vec!["i".into(); 1000]),
        };
        assert!(fine.validate().is_empty());
        let one_too_long = LookupPeopleRequest {
            linkedin_handles: Some(vec!["h".into(); 1001]),
            service_ids: None,
        };
        assert_eq!(one_too_long.validate()[0].kind, "too_long");
    }

    #[test]
    fn enum_message_is_pydantic_style() {
        use super::super::common::Seniority;
        let mut out = Vec::new();
        wire_checks::known(
            &Seniority::Unknown("x".into()),
            &LocPath::body().key("s"),
            &mut out,
        );
        let e = &out[0];
        assert!(e.msg.starts_with("Input should be 'Owner', 'Founder', "));
        assert!(e.msg.ends_with("'Manager' or 'Other'"));
    }
}
