//! Typed requests built from what a front end edits.
//!
//! A front end keeps a search form as its JSON request body (`companiesFilters`,
//! `peopleFilters`, `size`, ... : that body is also what a filter set saves), but everything it
//! sends is typed: [`build_search`] reads the body into the request type of its endpoint and
//! runs the client's own checks on it ([`prospect_api::client::check`]: the `Validate` rules of
//! SPEC.md §8 and openapi.json, then the empty-body prechecks of SPEC.md §7). The same function
//! runs when the user edits, before a spend is confirmed and (in the client) before sending, so
//! nothing can be confirmed that the client would refuse.
//!
//! Problems are [`ValidationError`]s (SPEC.md §2.10): `loc` from `"body"` down to the member,
//! e.g. `["body", "companiesFilters", "yearFounded", "from"]`, and a message in plain words.
use serde::de::DeserializeOwned;
use serde_json::Value;

use prospect_api::client::{self, ApiRequest, Client, Endpoint, SearchSubject};
use prospect_api::cost::{self, Cost};
use prospect_api::error::ApiError;
use prospect_api::types::{
    AutocompleteCompaniesRequest, AutocompleteCompaniesResponse, AutocompleteJobTitlesRequest,
    AutocompleteJobTitlesResponse, AutocompleteKeywordsRequest, AutocompleteKeywordsResponse,
    AutocompleteLocationsRequest, AutocompleteLocationsResponse, AutocompleteSkillsRequest,
    AutocompleteSkillsResponse, LocSegment, LocationSearchType, SearchCompaniesV2Request,
    SearchCompaniesV2Response, SearchCompaniesV3Request, SearchCompaniesV3Response,
    SearchPeopleV2Request, SearchPeopleV2Response, SearchPeopleV3Request, SearchPeopleV3Response,
    ValidationError,
};

/// A request of one of the four paged list searches (SPEC.md §4 rows 6-9: §4.2 v2 companies,
/// §4.3 v2 people, §4.10 v3 companies and people), ready to send.
///
/// The requests are boxed: with both filter blocks a request is close to 3 KB, and it travels
/// in messages, commands and the confirmation popup.
#[derive(Debug, Clone, PartialEq)]
pub enum SearchRequest {
    /// `POST /v3/search/companies` (openapi `PublicSearchCompaniesBodyV3`).
    CompaniesV3(Box<SearchCompaniesV3Request>),
    /// `POST /v2/search/companies`, deprecated (SPEC.md §4.2).
    CompaniesV2(Box<SearchCompaniesV2Request>),
    /// `POST /v3/search/people` (openapi `PublicSearchPeopleBodyV3`).
    PeopleV3(Box<SearchPeopleV3Request>),
    /// `POST /v2/search/people`, legacy (SPEC.md §4.3).
    PeopleV2(Box<SearchPeopleV2Request>),
}

/// The 200 answer of a [`SearchRequest`], of the same variant.
#[derive(Debug, Clone, PartialEq)]
pub enum SearchResponse {
    /// Answer of `POST /v3/search/companies` (companies with relevance A/B/C).
    CompaniesV3(SearchCompaniesV3Response),
    /// Answer of `POST /v2/search/companies` (companies with a score).
    CompaniesV2(SearchCompaniesV2Response),
    /// Answer of `POST /v3/search/people` (people with their company and relevance).
    PeopleV3(SearchPeopleV3Response),
    /// Answer of `POST /v2/search/people` (person records).
    PeopleV2(SearchPeopleV2Response),
}

impl SearchResponse {
    /// The person records of a people answer, to join stored contacts into
    /// ([`prospect_store::StoredContacts::join`]); empty for a companies answer.
    pub fn people_mut(&mut self) -> Vec<&mut prospect_api::types::Person> {
        match self {
            SearchResponse::PeopleV3(r) => r.people.iter_mut().map(|p| &mut p.person).collect(),
            SearchResponse::PeopleV2(r) => r.people.iter_mut().collect(),
            SearchResponse::CompaniesV3(_) | SearchResponse::CompaniesV2(_) => Vec::new(),
        }
    }

    /// Reads a stored answer of `endpoint` (one of the four list searches) into its typed
    /// response, with the same tolerant reading as the client (unknown members ignored).
    ///
    /// Errors, in plain words: another endpoint; an answer that does not read as the response
    /// type (the path of the failing member, e.g. `at companies[3].company.yearFounded:
    /// expected a whole number, not text`).
    pub fn decode(endpoint: Endpoint, answer: Value) -> Result<SearchResponse, String> {
        SearchResponse::decode_from(endpoint, answer)
    }

    /// [`SearchResponse::decode`] of an answer given as JSON text (a stored page's,
    /// [`prospect_store::PageAnswer::text`]), read straight into the typed response.
    ///
    /// Errors as [`SearchResponse::decode`]; also text that is not JSON.
    pub fn decode_slice(endpoint: Endpoint, answer: &[u8]) -> Result<SearchResponse, String> {
        // Stored text nearly always reads: read it plainly (a third faster than tracking the
        // path of every member), and again with the path only to say where it fails.
        if let Ok(response) = SearchResponse::decode_with(endpoint, Plain(answer)) {
            return Ok(response);
        }
        let mut de = serde_json::Deserializer::from_slice(answer);
        let response = SearchResponse::decode_from(endpoint, &mut de)?;
        de.end().map_err(|e| plain_message(&e.to_string()))?;
        Ok(response)
    }

    /// The typed answer of `endpoint` read from `de` (a `Value` or JSON text), the failing
    /// member's path in the error.
    fn decode_from<'de, D: serde::Deserializer<'de>>(
        endpoint: Endpoint,
        de: D,
    ) -> Result<SearchResponse, String> {
        SearchResponse::decode_with(endpoint, Tracked(de))
    }

    /// The one match of a list search's endpoint to its response type: the answer of
    /// `endpoint` as `read` reads it.
    fn decode_with<'de, R: ReadAs<'de>>(endpoint: Endpoint, read: R) -> Result<Self, String> {
        Ok(match endpoint {
            Endpoint::SearchCompaniesV3 => SearchResponse::CompaniesV3(read.read()?),
            Endpoint::SearchCompaniesV2 => SearchResponse::CompaniesV2(read.read()?),
            Endpoint::SearchPeopleV3 => SearchResponse::PeopleV3(read.read()?),
            Endpoint::SearchPeopleV2 => SearchResponse::PeopleV2(read.read()?),
            other => return Err(format!("{} is not a list search", other.path())),
        })
    }
}

/// How [`SearchResponse::decode_with`] reads an answer into a response type.
trait ReadAs<'de> {
    /// The answer as `T`; the error in plain words.
    fn read<T: serde::Deserialize<'de>>(self) -> Result<T, String>;
}

/// JSON text read plainly (fast; the error does not say where).
struct Plain<'a>(&'a [u8]);

impl<'a> ReadAs<'a> for Plain<'a> {
    fn read<T: serde::Deserialize<'a>>(self) -> Result<T, String> {
        prospect_common::json::from_json_bytes(self.0).map_err(|e| plain_message(&e.to_string()))
    }
}

/// A deserializer read with the path of every member, named in the error.
struct Tracked<D>(D);

impl<'de, D: serde::Deserializer<'de>> ReadAs<'de> for Tracked<D> {
    fn read<T: serde::Deserialize<'de>>(self) -> Result<T, String> {
        serde_path_to_error::deserialize(self.0)
            .map_err(|e| format!("at {}: {}", e.path(), plain_message(&e.inner().to_string())))
    }
}

impl SearchRequest {
    /// The endpoint this request is sent to.
    pub fn endpoint(&self) -> Endpoint {
        match self {
            SearchRequest::CompaniesV3(_) => Endpoint::SearchCompaniesV3,
            SearchRequest::CompaniesV2(_) => Endpoint::SearchCompaniesV2,
            SearchRequest::PeopleV3(_) => Endpoint::SearchPeopleV3,
            SearchRequest::PeopleV2(_) => Endpoint::SearchPeopleV2,
        }
    }

    /// Companies or people.
    pub fn subject(&self) -> SearchSubject {
        match self {
            SearchRequest::CompaniesV3(_) | SearchRequest::CompaniesV2(_) => {
                SearchSubject::Companies
            }
            SearchRequest::PeopleV3(_) | SearchRequest::PeopleV2(_) => SearchSubject::People,
        }
    }

    /// The request body as JSON (what is sent).
    pub fn body(&self) -> Value {
        match self {
            SearchRequest::CompaniesV3(r) => serde_json::to_value(&**r),
            SearchRequest::CompaniesV2(r) => serde_json::to_value(&**r),
            SearchRequest::PeopleV3(r) => serde_json::to_value(&**r),
            SearchRequest::PeopleV2(r) => serde_json::to_value(&**r),
        }
        .unwrap_or(Value::Null)
    }

    /// The `searchAfter` cursor (SPEC.md §4.2, §4.3: the next page), if set.
    pub fn search_after(&self) -> Option<&str> {
        match self {
            SearchRequest::CompaniesV3(r) => r.search_after.as_deref(),
            SearchRequest::CompaniesV2(r) => r.search_after.as_deref(),
            SearchRequest::PeopleV3(r) => r.search_after.as_deref(),
            SearchRequest::PeopleV2(r) => r.search_after.as_deref(),
        }
    }

    /// This request for the page after `cursor` (the `searchAfter` of the previous answer).
    /// Check it again ([`SearchRequest::check`]): v2 people refuse a cursor with
    /// `onePersonPerDomain: true`.
    pub fn with_search_after(mut self, cursor: Option<String>) -> SearchRequest {
        match &mut self {
            SearchRequest::CompaniesV3(r) => r.search_after = cursor,
            SearchRequest::CompaniesV2(r) => r.search_after = cursor,
            SearchRequest::PeopleV3(r) => r.search_after = cursor,
            SearchRequest::PeopleV2(r) => r.search_after = cursor,
        }
        self
    }

    /// Results per page: `size`, or the service's default ([`cost::DEFAULT_SEARCH_SIZE`], 50)
    /// when the request leaves it out; at least 1.
    pub fn page_size(&self) -> u64 {
        let size = match self {
            SearchRequest::CompaniesV3(r) => r.size,
            SearchRequest::CompaniesV2(r) => r.size,
            SearchRequest::PeopleV3(r) => r.size,
            SearchRequest::PeopleV2(r) => r.size,
        };
        size.map_or(cost::DEFAULT_SEARCH_SIZE, |s| s.max(1) as u64)
    }

    /// Every check the client makes before sending ([`client::check`]); `Err` lists the
    /// problems (SPEC.md §2.10 shape, `loc` from `"body"`).
    pub fn check(&self) -> Result<(), Vec<ValidationError>> {
        match self {
            SearchRequest::CompaniesV3(r) => checked(&**r),
            SearchRequest::CompaniesV2(r) => checked(&**r),
            SearchRequest::PeopleV3(r) => checked(&**r),
            SearchRequest::PeopleV2(r) => checked(&**r),
        }
    }

    /// The most this request's page can spend at the default prices, per pool (NOTES.md price
    /// table: 0.2 per company or v3 person; v2 people 1, or 3 with `lookalikeDomains`; reveals
    /// per person), assuming `size` results: [`SearchRequest::estimate_results`] of its size.
    pub fn estimate(&self) -> Cost {
        self.estimate_results(self.page_size())
    }

    /// The most `n` results of this search can spend, per pool, however they are paged: the
    /// one estimate of "N more" ([`cost::search_cost`]) that the CLI's plan and the explorer's
    /// gate and export quote alike (issue 35).
    pub fn estimate_results(&self, n: u64) -> Cost {
        cost::search_cost(self.endpoint(), &self.body(), n)
    }

    /// Sends the request with the typed client method of its endpoint.
    ///
    /// Errors: those of [`Client::send`] (`Invalid` without sending, the SPEC.md §7 answers,
    /// `Timeout`, `Network`, `Decode`).
    pub async fn send(&self, client: &Client) -> Result<SearchResponse, ApiError> {
        Ok(match self {
            SearchRequest::CompaniesV3(r) => {
                SearchResponse::CompaniesV3(client.search_companies_v3(r).await?)
            }
            SearchRequest::CompaniesV2(r) => {
                SearchResponse::CompaniesV2(client.search_companies_v2(r).await?)
            }
            SearchRequest::PeopleV3(r) => {
                SearchResponse::PeopleV3(client.search_people_v3(r).await?)
            }
            SearchRequest::PeopleV2(r) => {
                SearchResponse::PeopleV2(client.search_people_v2(r).await?)
            }
        })
    }
}

/// The searches a filter set and the front ends can run, in the order the explorer's endpoint
/// chooser cycles through them (SPEC.md §4 rows 7, 9, 6, 8). The people preview (row 10,
/// enterprise only) is not offered.
pub const SEARCHES: [Endpoint; 4] = [
    Endpoint::SearchCompaniesV3,
    Endpoint::SearchPeopleV3,
    Endpoint::SearchCompaniesV2,
    Endpoint::SearchPeopleV2,
];

/// Reads the JSON request `body` of a search form into the typed request of `endpoint` and
/// checks it as the client would before sending.
///
/// `endpoint` must be one of the four list searches (`SearchCompaniesV3`, `SearchCompaniesV2`,
/// `SearchPeopleV3`, `SearchPeopleV2`). `body` is the wire form (openapi member names, e.g.
/// `{"size": 25, "companiesFilters": {"yearFounded": {"from": 1990}}}`); it must not hold
/// members the endpoint does not know (the request types deny unknown fields).
///
/// Errors (SPEC.md §2.10 shape):
/// - a body that does not read as the request: one [`ValidationError`] of type
///   `"body_shape"` whose `loc` is the path of the member that failed, e.g.
///   `["body", "companiesFilters", "yearFounded", "from"]` with "expected a number, not text", or
///   `["body", "companiesFilters", "countries"]` with "not a member of this request";
/// - a request that reads but breaks a rule of SPEC.md §8 / openapi.json: the entries of
///   `Validate::validate` (e.g. `["body", "size"]`, "Input should be less than or equal to
///   10000");
/// - another endpoint: one entry at `["body"]` of type `"endpoint"`.
pub fn build_search(
    endpoint: Endpoint,
    body: &Value,
) -> Result<SearchRequest, Vec<ValidationError>> {
    let req = match endpoint {
        Endpoint::SearchCompaniesV3 => SearchRequest::CompaniesV3(Box::new(read(body)?)),
        Endpoint::SearchCompaniesV2 => SearchRequest::CompaniesV2(Box::new(read(body)?)),
        Endpoint::SearchPeopleV3 => SearchRequest::PeopleV3(Box::new(read(body)?)),
        Endpoint::SearchPeopleV2 => SearchRequest::PeopleV2(Box::new(read(body)?)),
        other => return Err(vec![not_this(other, "a list search (SPEC.md §4 rows 6-9)")]),
    };
    req.check()?;
    Ok(req)
}

/// Suggestions asked of an autocomplete call: within the 1..=15 openapi allows.
pub const SUGGESTIONS_WANTED: i64 = 10;

/// A request of one of the five autocompletes (SPEC.md §4 rows 1-5: §4.1 companies, §4.10 the
/// others), ready to send. Each call costs 0.1 credit.
#[derive(Debug, Clone, PartialEq)]
pub enum AutocompleteRequest {
    /// `POST /v2/autocomplete/companies`: `{name}`.
    Companies(AutocompleteCompaniesRequest),
    /// `POST /v2/autocomplete/keywords`: `{query, limit}`.
    Keywords(AutocompleteKeywordsRequest),
    /// `POST /v2/autocomplete/job-titles`: `{query, limit}`.
    JobTitles(AutocompleteJobTitlesRequest),
    /// `POST /v2/autocomplete/locations`: `{query, limit, locationType}`.
    Locations(AutocompleteLocationsRequest),
    /// `POST /v2/autocomplete/skills`: `{query, limit}`.
    Skills(AutocompleteSkillsRequest),
}

/// The 200 answer of an [`AutocompleteRequest`], of the same variant.
#[derive(Debug, Clone, PartialEq)]
pub enum AutocompleteResponse {
    /// Company suggestions (`{domain, name, logo}`).
    Companies(AutocompleteCompaniesResponse),
    /// Keyword suggestions.
    Keywords(AutocompleteKeywordsResponse),
    /// Job title suggestions.
    JobTitles(AutocompleteJobTitlesResponse),
    /// Location suggestions (`{name, countryCode, type, parentName, ...}`).
    Locations(AutocompleteLocationsResponse),
    /// Skill suggestions.
    Skills(AutocompleteSkillsResponse),
}

impl AutocompleteRequest {
    /// The endpoint this request is sent to.
    pub fn endpoint(&self) -> Endpoint {
        match self {
            AutocompleteRequest::Companies(_) => Endpoint::AutocompleteCompanies,
            AutocompleteRequest::Keywords(_) => Endpoint::AutocompleteKeywords,
            AutocompleteRequest::JobTitles(_) => Endpoint::AutocompleteJobTitles,
            AutocompleteRequest::Locations(_) => Endpoint::AutocompleteLocations,
            AutocompleteRequest::Skills(_) => Endpoint::AutocompleteSkills,
        }
    }

    /// Every check the client makes before sending ([`client::check`]).
    pub fn check(&self) -> Result<(), Vec<ValidationError>> {
        match self {
            AutocompleteRequest::Companies(r) => checked(r),
            AutocompleteRequest::Keywords(r) => checked(r),
            AutocompleteRequest::JobTitles(r) => checked(r),
            AutocompleteRequest::Locations(r) => checked(r),
            AutocompleteRequest::Skills(r) => checked(r),
        }
    }

    /// Sends the request with the typed client method of its endpoint; errors as
    /// [`Client::send`].
    pub async fn send(&self, client: &Client) -> Result<AutocompleteResponse, ApiError> {
        Ok(match self {
            AutocompleteRequest::Companies(r) => {
                AutocompleteResponse::Companies(client.autocomplete_companies(r).await?)
            }
            AutocompleteRequest::Keywords(r) => {
                AutocompleteResponse::Keywords(client.autocomplete_keywords(r).await?)
            }
            AutocompleteRequest::JobTitles(r) => {
                AutocompleteResponse::JobTitles(client.autocomplete_job_titles(r).await?)
            }
            AutocompleteRequest::Locations(r) => {
                AutocompleteResponse::Locations(client.autocomplete_locations(r).await?)
            }
            AutocompleteRequest::Skills(r) => {
                AutocompleteResponse::Skills(client.autocomplete_skills(r).await?)
            }
        })
    }
}

/// The autocomplete request of `endpoint` for the typed text `query`, for a filter of a
/// `subject` search (locations: `locationType` `companies` or `people`), asking
/// [`SUGGESTIONS_WANTED`] suggestions where the endpoint takes a `limit`.
///
/// Shapes (openapi `models__autocomplete_*__AutoCompletionBody`): companies `{name}`; keywords,
/// job titles, skills `{query, limit}`; locations `{query, limit, locationType}`.
///
/// Errors (SPEC.md §2.10 shape): the client's checks (e.g. a job title query longer than 100
/// characters at `["body", "query"]`); another endpoint gives one entry at `["body"]` of type
/// `"endpoint"`.
pub fn build_autocomplete(
    endpoint: Endpoint,
    query: &str,
    subject: SearchSubject,
) -> Result<AutocompleteRequest, Vec<ValidationError>> {
    let query = query.to_string();
    let limit = Some(SUGGESTIONS_WANTED);
    let req = match endpoint {
        Endpoint::AutocompleteCompanies => {
            AutocompleteRequest::Companies(AutocompleteCompaniesRequest {
                name: query,
                ..Default::default()
            })
        }
        Endpoint::AutocompleteKeywords => {
            AutocompleteRequest::Keywords(AutocompleteKeywordsRequest { query, limit })
        }
        Endpoint::AutocompleteJobTitles => {
            AutocompleteRequest::JobTitles(AutocompleteJobTitlesRequest { query, limit })
        }
        Endpoint::AutocompleteLocations => {
            AutocompleteRequest::Locations(AutocompleteLocationsRequest {
                query,
                limit,
                location_type: Some(match subject {
                    SearchSubject::Companies => LocationSearchType::Companies,
                    SearchSubject::People => LocationSearchType::People,
                }),
            })
        }
        Endpoint::AutocompleteSkills => {
            AutocompleteRequest::Skills(AutocompleteSkillsRequest { query, limit })
        }
        other => {
            return Err(vec![not_this(
                other,
                "an autocomplete (SPEC.md §4 rows 1-5)",
            )]);
        }
    };
    req.check()?;
    Ok(req)
}

/// [`client::check`] with the problems as a list: `Invalid` gives its entries, any other
/// refusal (the empty-body prechecks) one entry at `["body"]` with the client's words.
fn checked<R: ApiRequest>(req: &R) -> Result<(), Vec<ValidationError>> {
    client::check(req).map_err(|e| match e {
        ApiError::Invalid(problems) => problems,
        other => vec![ValidationError::new(
            [LocSegment::from("body")],
            other.user_message(),
            "precheck",
        )],
    })
}

fn not_this(endpoint: Endpoint, wanted: &str) -> ValidationError {
    ValidationError::new(
        [LocSegment::from("body")],
        format!("{} is not {wanted}", endpoint.path()),
        "endpoint",
    )
}

/// Reads `body` as `T`; a failure is one entry at the failing member's path.
fn read<T: DeserializeOwned>(body: &Value) -> Result<T, Vec<ValidationError>> {
    serde_path_to_error::deserialize(body).map_err(|e| {
        let mut loc = vec![LocSegment::from("body")];
        for seg in e.path().iter() {
            use serde_path_to_error::Segment;
            match seg {
                Segment::Map { key } => loc.push(LocSegment::Key(key.clone())),
                Segment::Enum { variant } => loc.push(LocSegment::Key(variant.clone())),
                Segment::Seq { index } => loc.push(LocSegment::from(*index)),
                Segment::Unknown => {}
            }
        }
        let msg = plain_message(&e.inner().to_string());
        vec![ValidationError::new(loc, msg, "body_shape")]
    })
}

/// serde's message in plain words, without echoing the offending value (it may be contact
/// data): "unknown field `x`, expected one of ..." → "not a member of this request".
fn plain_message(msg: &str) -> String {
    let msg = msg.split(" at line ").next().unwrap_or(msg);
    let quoted = |rest: &str| rest.split('`').next().unwrap_or("").to_string();
    if msg.starts_with("unknown field `") {
        return "not a member of this request".into();
    }
    if let Some(rest) = msg.strip_prefix("missing field `") {
        return format!("`{}` is required here", quoted(rest));
    }
    if msg.starts_with("unknown variant `") {
        return "not one of the accepted values".into();
    }
    if let Some(rest) = msg
        .strip_prefix("invalid type: ")
        .or_else(|| msg.strip_prefix("invalid value: "))
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        return format!(
            "expected {}, not {}",
            plain_type(expected),
            plain_found(found)
        );
    }
    if msg.starts_with("data did not match any variant") {
        return "not a value this member accepts".into();
    }
    msg.to_string()
}

fn plain_type(expected: &str) -> String {
    let e = expected.trim();
    match e {
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "usize" | "isize"
        | "an integer" => "a whole number".into(),
        "f32" | "f64" | "a number" => "a number".into(),
        "a string" | "a borrowed string" => "text".into(),
        "a boolean" => "true or false".into(),
        "a sequence" => "a list".into(),
        _ if e.starts_with("struct ") || e.starts_with("a map") => "an object".into(),
        _ => e.to_string(),
    }
}

fn plain_found(found: &str) -> &'static str {
    match found.split_whitespace().next().unwrap_or("") {
        "string" => "text",
        "integer" => "a whole number",
        "floating" => "a number",
        "boolean" => "true or false",
        "sequence" => "a list",
        "map" => "an object",
        "null" | "unit" => "null",
        _ => "this value",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn locs(errs: &[ValidationError]) -> Vec<String> {
        errs.iter().map(ValidationError::path).collect()
    }

    #[test]
    fn a_good_search_body_builds_the_typed_request() {
        let body = json!({"size": 25, "companiesFilters": {
            "yearFounded": {"from": 1990, "to": 2000},
            "primaryLocations": {"includeCountries": ["de"]},
            "keywords": {"anyOf": ["anvils"]}}});
        let req = build_search(Endpoint::SearchCompaniesV3, &body).unwrap();
        assert_eq!(req.endpoint(), Endpoint::SearchCompaniesV3);
        assert_eq!(req.subject(), SearchSubject::Companies);
        let SearchRequest::CompaniesV3(r) = &req else {
            panic!("{req:?}")
        };
        assert_eq!(r.size, Some(25));
        assert_eq!(serde_json::to_value(r).unwrap(), body, "nothing lost");
        assert_eq!(req.estimate().standard, 5.0);
        let next = req.with_search_after(Some("c1".into()));
        assert_eq!(next.search_after(), Some("c1"));
        assert!(next.check().is_ok());

        let people = build_search(
            Endpoint::SearchPeopleV2,
            &json!({"size": 10, "peopleFilters": {"seniorities": ["VP"]}}),
        )
        .unwrap();
        assert!(matches!(people, SearchRequest::PeopleV2(_)));
    }

    #[test]
    fn a_bad_search_body_names_its_path() {
        let e = build_search(
            Endpoint::SearchCompaniesV3,
            &json!({"companiesFilters": {"yearFounded": {"from": "nineteen"}}}),
        )
        .unwrap_err();
        assert_eq!(e.len(), 1);
        assert_eq!(
            e[0].loc,
            ["body", "companiesFilters", "yearFounded", "from"]
                .map(LocSegment::from)
                .to_vec()
        );
        assert_eq!(e[0].msg, "expected a number, not text");
        assert!(!e[0].msg.contains("nineteen"), "the value is not echoed");

        // A member of the other version.
        let e = build_search(
            Endpoint::SearchCompaniesV3,
            &json!({"companiesFilters": {"countries": ["fr"]}}),
        )
        .unwrap_err();
        assert_eq!(locs(&e), ["body.companiesFilters.countries"]);
        assert_eq!(e[0].msg, "not a member of this request");

        // A wrong type in a list.
        let e = build_search(
            Endpoint::SearchPeopleV3,
            &json!({"peopleFilters": {"skills": {"anyOf": ["rust", 3]}}}),
        )
        .unwrap_err();
        assert_eq!(locs(&e), ["body.peopleFilters.skills.anyOf.1"]);
        assert_eq!(e[0].msg, "expected text, not a whole number");
    }

    #[test]
    fn the_client_checks_run_on_the_typed_request() {
        let e = build_search(Endpoint::SearchCompaniesV3, &json!({"size": 10_001})).unwrap_err();
        assert_eq!(locs(&e), ["body.size"]);
        assert_eq!(e[0].msg, "Input should be less than or equal to 10000");
        // v2 people: a cursor with onePersonPerDomain is refused (SPEC.md §4.3).
        let req = build_search(
            Endpoint::SearchPeopleV2,
            &json!({"size": 5, "onePersonPerDomain": true}),
        )
        .unwrap();
        let e = req.with_search_after(Some("x".into())).check().unwrap_err();
        assert_eq!(locs(&e), ["body"]);
        let e = build_search(Endpoint::EnrichCompany, &json!({})).unwrap_err();
        assert_eq!(e[0].kind, "endpoint");
    }

    #[test]
    fn autocomplete_requests_are_built_per_endpoint() {
        let r = build_autocomplete(
            Endpoint::AutocompleteCompanies,
            "acm",
            SearchSubject::People,
        )
        .unwrap();
        assert_eq!(r.endpoint(), Endpoint::AutocompleteCompanies);
        let AutocompleteRequest::Companies(c) = &r else {
            panic!("{r:?}")
        };
        assert_eq!(serde_json::to_value(c).unwrap(), json!({"name": "acm"}));
        let r = build_autocomplete(
            Endpoint::AutocompleteLocations,
            "ber",
            SearchSubject::People,
        )
        .unwrap();
        let AutocompleteRequest::Locations(l) = &r else {
            panic!("{r:?}")
        };
        assert_eq!(
            serde_json::to_value(l).unwrap(),
            json!({"query": "ber", "limit": 10, "locationType": "people"})
        );
        for ep in Endpoint::ALL.into_iter().filter(|e| e.is_autocomplete()) {
            let r = build_autocomplete(ep, "so", SearchSubject::Companies).unwrap();
            assert_eq!(r.endpoint(), ep);
        }
    }

    #[test]
    fn a_bad_autocomplete_request_names_its_path() {
        let e = build_autocomplete(
            Endpoint::AutocompleteJobTitles,
            &"x".repeat(101),
            SearchSubject::People,
        )
        .unwrap_err();
        assert_eq!(locs(&e), ["body.query"]);
        assert_eq!(e[0].kind, "string_too_long");
        let e =
            build_autocomplete(Endpoint::SearchPeopleV3, "x", SearchSubject::People).unwrap_err();
        assert_eq!(
            (locs(&e), e[0].kind.as_str()),
            (vec!["body".to_string()], "endpoint")
        );
    }

    /// A stored answer is read plainly, and only one that does not read is read again to say
    /// where (the path of the failing member); both give the typed answer `decode` gives.
    #[test]
    fn a_stored_answer_reads_as_decode_reads_it_and_says_where_it_fails() {
        let good = json!({"companies": [{"company": {"domain": "acme.com", "yearFounded": 1990},
            "relevance": "A"}], "total": 1, "searchAfter": "c1"});
        let text = serde_json::to_vec(&good).unwrap();
        let from_text = SearchResponse::decode_slice(Endpoint::SearchCompaniesV3, &text).unwrap();
        let from_value = SearchResponse::decode(Endpoint::SearchCompaniesV3, good).unwrap();
        assert_eq!(from_text, from_value);
        let bad = br#"{"companies": [{"company": {"domain": "a.com"}},
            {"company": {"domain": "b.com", "yearFounded": "old"}}]}"#;
        let err = SearchResponse::decode_slice(Endpoint::SearchCompaniesV3, bad).unwrap_err();
        assert!(err.contains("companies[1].company.yearFounded"), "{err}");
        let err = SearchResponse::decode_slice(Endpoint::SearchCompaniesV3, b"{} x").unwrap_err();
        assert!(!err.is_empty());
        let err = SearchResponse::decode_slice(Endpoint::LookupCompanies, &text).unwrap_err();
        assert!(err.contains("not a list search"), "{err}");
    }
}
