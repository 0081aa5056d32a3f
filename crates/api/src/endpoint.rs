//! The requests of the service (SPEC.md §4): the one [`Endpoint`] enum (path, method, version,
//! whether it spends), the [`ApiRequest`] trait every request body implements (its endpoint,
//! its checks before sending, how its answer is read), and the empty-body rules of SPEC.md §7.
//! The client ([`crate::client`]) sends them; the price table ([`crate::cost`]) prices them.

use std::fmt;

use reqwest::Method;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::{ApiError, detail};
use crate::types::*;

/// The 19 endpoints of SPEC.md §4, in its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Endpoint {
    /// Endpoint 1, POST /v2/autocomplete/companies
    AutocompleteCompanies,
    /// Endpoint 2, POST /v2/autocomplete/keywords
    AutocompleteKeywords,
    /// Endpoint 3, POST /v2/autocomplete/job-titles
    AutocompleteJobTitles,
    /// Endpoint 4, POST /v2/autocomplete/locations
    AutocompleteLocations,
    /// Endpoint 5, POST /v2/autocomplete/skills
    AutocompleteSkills,
    /// Endpoint 6, POST /v2/search/companies (deprecated)
    SearchCompaniesV2,
    /// Endpoint 7, POST /v3/search/companies
    SearchCompaniesV3,
    /// Endpoint 8, POST /v2/search/people (legacy)
    SearchPeopleV2,
    /// Endpoint 9, POST /v3/search/people
    SearchPeopleV3,
    /// Endpoint 10, POST /v3/search/people/preview (enterprise customers only)
    SearchPeoplePreview,
    /// Endpoint 11, POST /v2/enrich/company
    EnrichCompany,
    /// Endpoint 12, POST /v2/enrich/person
    EnrichPerson,
    /// Endpoint 13, POST /v2/lookup/companies
    LookupCompanies,
    /// Endpoint 14, POST /v2/lookup/people
    LookupPeople,
    /// Endpoint 15, POST /v2/reveal/emails
    RevealEmails,
    /// Endpoint 16, POST /v2/reveal/phones
    RevealPhones,
    /// Endpoint 17, GET /v2/data-fields (free)
    DataFields,
    /// Endpoint 18, GET /v2/credits/balance (free)
    CreditBalance,
    /// Endpoint 19, POST /v2/warmup/companies (free)
    WarmupCompanies,
    /// POST /v3/search/companies/preview (openapi.json only; enterprise customers only): masked
    /// previews of a v3 company search's first page.
    SearchCompaniesPreview,
    /// POST /v2/enrich/companies (openapi.json only): a batch of up to 10,000 companies keyed by
    /// the caller's ids, delivered by the `enrich_companies` webhook.
    EnrichCompanies,
    /// POST /v2/enrich/people (openapi.json only): a batch of up to 10,000 people keyed by the
    /// caller's ids, delivered by the `enrich_people` webhook.
    EnrichPeople,
    /// POST /v2/segmentation (openapi.json only): starts a segmentation of company domains;
    /// runs asynchronously.
    CreateSegmentation,
    /// GET /v2/segmentation/{segmentation_id} (openapi.json only; free): a segmentation, with
    /// its segments once `SUCCESSFUL`.
    GetSegmentation,
    /// POST /v2/segmentation/{segmentation_id}/markDomains (openapi.json only; free): appends
    /// domains to a segmentation's positive or negative list.
    MarkSegmentationDomains,
    /// POST /v2/segmentation/{segmentation_id}/attribute-domains (openapi.json only; free):
    /// assigns domains to the closest segment with a 0–1 score.
    AttributeSegmentationDomains,
}

impl Endpoint {
    /// All 26: the 19 of SPEC.md §4 in its order, then the seven openapi.json adds.
    pub const ALL: [Endpoint; 26] = [
        Endpoint::AutocompleteCompanies,
        Endpoint::AutocompleteKeywords,
        Endpoint::AutocompleteJobTitles,
        Endpoint::AutocompleteLocations,
        Endpoint::AutocompleteSkills,
        Endpoint::SearchCompaniesV2,
        Endpoint::SearchCompaniesV3,
        Endpoint::SearchPeopleV2,
        Endpoint::SearchPeopleV3,
        Endpoint::SearchPeoplePreview,
        Endpoint::EnrichCompany,
        Endpoint::EnrichPerson,
        Endpoint::LookupCompanies,
        Endpoint::LookupPeople,
        Endpoint::RevealEmails,
        Endpoint::RevealPhones,
        Endpoint::DataFields,
        Endpoint::CreditBalance,
        Endpoint::WarmupCompanies,
        Endpoint::SearchCompaniesPreview,
        Endpoint::EnrichCompanies,
        Endpoint::EnrichPeople,
        Endpoint::CreateSegmentation,
        Endpoint::GetSegmentation,
        Endpoint::MarkSegmentationDomains,
        Endpoint::AttributeSegmentationDomains,
    ];

    /// The path relative to the base URL, e.g. `/v3/search/companies`.
    pub fn path(self) -> &'static str {
        match self {
            Endpoint::AutocompleteCompanies => "/v2/autocomplete/companies",
            Endpoint::AutocompleteKeywords => "/v2/autocomplete/keywords",
            Endpoint::AutocompleteJobTitles => "/v2/autocomplete/job-titles",
            Endpoint::AutocompleteLocations => "/v2/autocomplete/locations",
            Endpoint::AutocompleteSkills => "/v2/autocomplete/skills",
            Endpoint::SearchCompaniesV2 => "/v2/search/companies",
            Endpoint::SearchCompaniesV3 => "/v3/search/companies",
            Endpoint::SearchPeopleV2 => "/v2/search/people",
            Endpoint::SearchPeopleV3 => "/v3/search/people",
            Endpoint::SearchPeoplePreview => "/v3/search/people/preview",
            Endpoint::EnrichCompany => "/v2/enrich/company",
            Endpoint::EnrichPerson => "/v2/enrich/person",
            Endpoint::LookupCompanies => "/v2/lookup/companies",
            Endpoint::LookupPeople => "/v2/lookup/people",
            Endpoint::RevealEmails => "/v2/reveal/emails",
            Endpoint::RevealPhones => "/v2/reveal/phones",
            Endpoint::DataFields => "/v2/data-fields",
            Endpoint::CreditBalance => "/v2/credits/balance",
            Endpoint::WarmupCompanies => "/v2/warmup/companies",
            Endpoint::SearchCompaniesPreview => "/v3/search/companies/preview",
            Endpoint::EnrichCompanies => "/v2/enrich/companies",
            Endpoint::EnrichPeople => "/v2/enrich/people",
            Endpoint::CreateSegmentation => "/v2/segmentation",
            Endpoint::GetSegmentation => "/v2/segmentation/{segmentation_id}",
            Endpoint::MarkSegmentationDomains => "/v2/segmentation/{segmentation_id}/markDomains",
            Endpoint::AttributeSegmentationDomains => {
                "/v2/segmentation/{segmentation_id}/attribute-domains"
            }
        }
    }

    /// The path of one call: [`Endpoint::path`] with `{segmentation_id}` replaced by `id` for
    /// the three endpoints of one segmentation (e.g. `/v2/segmentation/7/markDomains`); the
    /// plain path for the others.
    pub fn path_for(self, id: i64) -> String {
        self.path().replace("{segmentation_id}", &id.to_string())
    }

    /// `GET` for data-fields, credit balance and get segmentation, `POST` for the others.
    pub fn method(self) -> Method {
        if self.is_free_read() {
            Method::GET
        } else {
            Method::POST
        }
    }

    /// `true` for the three bodiless, free, side-effect-free reads (data-fields, credit
    /// balance, get segmentation): these may be retried after a timeout or a 5xx.
    pub fn is_free_read(self) -> bool {
        matches!(
            self,
            Endpoint::DataFields | Endpoint::CreditBalance | Endpoint::GetSegmentation
        )
    }

    /// The endpoint whose [`Endpoint::path`] is `path` (e.g. `/v3/search/companies`); `None`
    /// for any other text.
    pub fn from_path(path: &str) -> Option<Endpoint> {
        Endpoint::ALL.into_iter().find(|e| e.path() == path)
    }

    /// The version in the endpoint's path: [`ApiVersion::V3`] for `/v3/...` (rows 7, 9, 10 of
    /// SPEC.md §4), [`ApiVersion::V2`] for the others.
    pub fn version(self) -> ApiVersion {
        if self.path().starts_with("/v3/") {
            ApiVersion::V3
        } else {
            ApiVersion::V2
        }
    }

    /// `true` for the five autocompletes (SPEC.md §4 rows 1-5; 0.1 credit per call).
    pub fn is_autocomplete(self) -> bool {
        matches!(
            self,
            Endpoint::AutocompleteCompanies
                | Endpoint::AutocompleteKeywords
                | Endpoint::AutocompleteJobTitles
                | Endpoint::AutocompleteLocations
                | Endpoint::AutocompleteSkills
        )
    }

    /// `true` for the five searches (SPEC.md §4 rows 6-10), the people preview included.
    pub fn is_search(self) -> bool {
        self.search_subject().is_some()
    }

    /// What a search returns: companies (rows 6, 7) or people (rows 8, 9, 10); `None` for an
    /// endpoint that is not a search.
    pub fn search_subject(self) -> Option<SearchSubject> {
        match self {
            Endpoint::SearchCompaniesV2 | Endpoint::SearchCompaniesV3 => {
                Some(SearchSubject::Companies)
            }
            Endpoint::SearchPeopleV2 | Endpoint::SearchPeopleV3 | Endpoint::SearchPeoplePreview => {
                Some(SearchSubject::People)
            }
            _ => None,
        }
    }

    /// The paged list search of `subject` in `version` (rows 6-9; never the preview), e.g.
    /// `(People, V3)` → [`Endpoint::SearchPeopleV3`].
    pub fn search(subject: SearchSubject, version: ApiVersion) -> Endpoint {
        match (subject, version) {
            (SearchSubject::Companies, ApiVersion::V2) => Endpoint::SearchCompaniesV2,
            (SearchSubject::Companies, ApiVersion::V3) => Endpoint::SearchCompaniesV3,
            (SearchSubject::People, ApiVersion::V2) => Endpoint::SearchPeopleV2,
            (SearchSubject::People, ApiVersion::V3) => Endpoint::SearchPeopleV3,
        }
    }

    /// The same search in the other version (v2 ↔ v3 of companies or people); `None` for the
    /// preview (v3 only) and for endpoints that are not searches.
    pub fn other_search_version(self) -> Option<Endpoint> {
        match self {
            Endpoint::SearchCompaniesV2 => Some(Endpoint::SearchCompaniesV3),
            Endpoint::SearchCompaniesV3 => Some(Endpoint::SearchCompaniesV2),
            Endpoint::SearchPeopleV2 => Some(Endpoint::SearchPeopleV3),
            Endpoint::SearchPeopleV3 => Some(Endpoint::SearchPeopleV2),
            _ => None,
        }
    }
}

/// The API version of an endpoint, from its path (SPEC.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ApiVersion {
    /// `/v2/...`
    V2,
    /// `/v3/...`
    V3,
}

/// What a search endpoint returns (SPEC.md §4 rows 6-10): company records (§2.3) or person
/// records (§2.1). The explorer's results tabs are these two.
///
/// The one name of this concept in every layer: the explorer's tabs, the CLI's `--subject`,
/// what the rows of an export are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum SearchSubject {
    /// Companies.
    Companies,
    /// People.
    People,
}

/// One of the five autocompletes (SPEC.md §4 rows 1-5: §4.1 companies, §4.10 the others; 0.1
/// credit a call). The one name of this concept in every layer: the explorer's list members
/// that suggest, the CLI's `autocomplete KIND`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum AutocompleteKind {
    /// Company names: suggestions are domains.
    Companies,
    /// Keywords.
    Keywords,
    /// Job titles.
    JobTitles,
    /// Locations: suggestions become `{city, country}` items.
    Locations,
    /// Skills.
    Skills,
}

impl AutocompleteKind {
    /// The endpoint, e.g. [`Endpoint::AutocompleteKeywords`].
    pub fn endpoint(self) -> Endpoint {
        match self {
            AutocompleteKind::Companies => Endpoint::AutocompleteCompanies,
            AutocompleteKind::Keywords => Endpoint::AutocompleteKeywords,
            AutocompleteKind::JobTitles => Endpoint::AutocompleteJobTitles,
            AutocompleteKind::Locations => Endpoint::AutocompleteLocations,
            AutocompleteKind::Skills => Endpoint::AutocompleteSkills,
        }
    }
}

impl fmt::Display for Endpoint {
    /// `METHOD /path`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.method(), self.path())
    }
}

/// Outcome of enrich company / enrich person (SPEC.md §3, §4.4, §7).
#[derive(Debug, Clone, PartialEq)]
pub enum Enriched<T> {
    /// 200: the matched record.
    Found(T),
    /// 201: "Data gathering process has started. Please try again later." Not an error and
    /// nothing returned: retry later.
    Gathering {
        /// The service's `detail` text.
        detail: String,
    },
}

impl<T: Serialize> Serialize for Enriched<T> {
    /// `Found` writes the record's answer as the service sent it; `Gathering` writes the 201
    /// body `{"detail": "..."}` (SPEC.md §7).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Enriched::Found(t) => t.serialize(s),
            Enriched::Gathering { detail } => {
                use serde::ser::SerializeMap;
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("detail", detail)?;
                m.end()
            }
        }
    }
}

/// A request body of one endpoint: binds it to its [`Endpoint`] and its 2xx result.
/// Implemented for the 17 request types of the contract (all but data-fields and balance).
pub trait ApiRequest: Serialize + Validate {
    /// The endpoint this body is POSTed to.
    const ENDPOINT: Endpoint;
    /// What a successful call yields.
    type Response;

    /// Checks the service would make with a 400 and that need no server (SPEC.md §7
    /// "Empty body", "Empty `person` body"); runs after [`Validate::validate`] found nothing.
    fn precheck(&self) -> Result<(), ApiError> {
        Ok(())
    }

    /// Reads a 2xx answer (status, body).
    fn read_answer(status: u16, body: &[u8]) -> Result<Self::Response, ApiError>;

    /// The path this body is POSTed to: [`Endpoint::path`], or for the endpoints of one
    /// segmentation [`Endpoint::path_for`] its id ([`ForSegmentation`]).
    fn path(&self) -> std::borrow::Cow<'static, str> {
        Self::ENDPOINT.path().into()
    }
}

/// A body sent to one segmentation (`POST /v2/segmentation/{segmentation_id}/…`): the id goes
/// in the path, `body` is what is POSTed.
#[derive(Debug, Clone, PartialEq)]
pub struct ForSegmentation<B> {
    /// The segmentation (`SegmentationId::segmentation_id`).
    pub segmentation_id: i64,
    /// The body.
    pub body: B,
}

impl<B: Serialize> Serialize for ForSegmentation<B> {
    /// The body alone (the id is in the path).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.body.serialize(s)
    }
}

impl<B: Validate> Validate for ForSegmentation<B> {
    /// The body's checks.
    fn validate(&self) -> Vec<ValidationError> {
        self.body.validate()
    }
}

macro_rules! segmentation_request {
    ($($req:ty => $ep:ident, $resp:ty;)+) => {$(
        impl ApiRequest for ForSegmentation<$req> {
            const ENDPOINT: Endpoint = Endpoint::$ep;
            type Response = $resp;
            fn read_answer(_status: u16, body: &[u8]) -> Result<$resp, ApiError> {
                decode(body)
            }
            fn path(&self) -> std::borrow::Cow<'static, str> {
                Endpoint::$ep.path_for(self.segmentation_id).into()
            }
        }
    )+};
}

segmentation_request! {
    AddMarkedDomainsInput => MarkSegmentationDomains, StatusResponse;
    AttributeDomainsRequest => AttributeSegmentationDomains, AttributeDomainsResponse;
}

/// Decodes `body` as `T`, naming the path of the field that failed ([`ApiError::Decode`]).
///
/// The answer is decoded once, at full speed; only when that fails is it read again, with the
/// path tracked, to name the field.
pub fn decode<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    prospect_common::json::from_json_bytes(body).or_else(|_| {
        let de = &mut serde_json::Deserializer::from_slice(body);
        serde_path_to_error::deserialize(de).map_err(ApiError::decode)
    })
}

/// `true` when a JSON value carries no information: null, a blank string, an empty array or an
/// object whose members all carry none. `false` and numbers carry information.
fn is_blank(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Array(a) => a.iter().all(is_blank),
        Value::Object(m) => m.values().all(is_blank),
        Value::Bool(_) | Value::Number(_) => false,
    }
}

/// The "Empty `person` body" rule of enrich person (SPEC.md §4.4), on the wire form: the
/// `person` member is absent or has no non-blank member. Shared with the sandbox.
pub fn enrich_person_is_empty(body: &Value) -> bool {
    body.get("person").is_none_or(is_blank)
}

/// The "Empty body" rule of enrich company (SPEC.md §4.10), on the wire form: neither
/// `company` nor any of `people` has a non-blank member (`fields` alone is not data).
/// Shared with the sandbox.
pub fn enrich_company_is_empty(body: &Value) -> bool {
    body.get("company").is_none_or(is_blank) && body.get("people").is_none_or(is_blank)
}

/// Runs every check that needs no server: [`Validate::validate`] (→ [`ApiError::Invalid`])
/// then [`ApiRequest::precheck`]. `Ok(())` means the request may be sent.
pub fn check<R: ApiRequest>(req: &R) -> Result<(), ApiError> {
    let problems = req.validate();
    if !problems.is_empty() {
        return Err(ApiError::Invalid(problems));
    }
    req.precheck()
}

macro_rules! plain_request {
    ($($req:ty => $ep:ident, $resp:ty;)+) => {$(
        impl ApiRequest for $req {
            const ENDPOINT: Endpoint = Endpoint::$ep;
            type Response = $resp;
            fn read_answer(_status: u16, body: &[u8]) -> Result<$resp, ApiError> {
                decode(body)
            }
        }
    )+};
}

plain_request! {
    AutocompleteCompaniesRequest => AutocompleteCompanies, AutocompleteCompaniesResponse;
    AutocompleteKeywordsRequest => AutocompleteKeywords, AutocompleteKeywordsResponse;
    AutocompleteJobTitlesRequest => AutocompleteJobTitles, AutocompleteJobTitlesResponse;
    AutocompleteLocationsRequest => AutocompleteLocations, AutocompleteLocationsResponse;
    AutocompleteSkillsRequest => AutocompleteSkills, AutocompleteSkillsResponse;
    SearchCompaniesV2Request => SearchCompaniesV2, SearchCompaniesV2Response;
    SearchCompaniesV3Request => SearchCompaniesV3, SearchCompaniesV3Response;
    SearchPeopleV2Request => SearchPeopleV2, SearchPeopleV2Response;
    SearchPeopleV3Request => SearchPeopleV3, SearchPeopleV3Response;
    SearchPeoplePreviewRequest => SearchPeoplePreview, SearchPeoplePreviewResponse;
    SearchCompaniesPreviewRequest => SearchCompaniesPreview, SearchCompaniesPreviewResponse;
    EnrichCompaniesRequest => EnrichCompanies, EnrichBatchAccepted;
    EnrichPeopleRequest => EnrichPeople, EnrichBatchAccepted;
    SegmentationInput => CreateSegmentation, SegmentationId;
    LookupCompaniesRequest => LookupCompanies, LookupCompaniesResponse;
    LookupPeopleRequest => LookupPeople, LookupPeopleResponse;
    RevealEmailsRequest => RevealEmails, RevealEmailsResponse;
    RevealPhonesRequest => RevealPhones, RevealPhonesResponse;
    WarmupCompaniesRequest => WarmupCompanies, WarmupCompaniesResponse;
}

/// Reads an enrich answer: 201 → `Gathering`, any other 2xx → `Found`.
fn read_enriched<T: DeserializeOwned>(status: u16, body: &[u8]) -> Result<Enriched<T>, ApiError> {
    if status == 201 {
        let detail = serde_json::from_slice::<Value>(body)
            .ok()
            .and_then(|v| v.get("detail").and_then(Value::as_str).map(str::to_string))
            .unwrap_or_else(|| detail::DATA_GATHERING_STARTED.to_string());
        return Ok(Enriched::Gathering { detail });
    }
    decode(body).map(Enriched::Found)
}

impl ApiRequest for EnrichCompanyRequest {
    const ENDPOINT: Endpoint = Endpoint::EnrichCompany;
    type Response = Enriched<EnrichCompanyResponse>;
    fn precheck(&self) -> Result<(), ApiError> {
        let wire = serde_json::to_value(self).unwrap_or(Value::Null);
        if enrich_company_is_empty(&wire) {
            return Err(ApiError::EmptyBody);
        }
        Ok(())
    }
    fn read_answer(status: u16, body: &[u8]) -> Result<Self::Response, ApiError> {
        read_enriched(status, body)
    }
}

impl ApiRequest for EnrichPersonRequest {
    const ENDPOINT: Endpoint = Endpoint::EnrichPerson;
    type Response = Enriched<EnrichPersonResponse>;
    fn precheck(&self) -> Result<(), ApiError> {
        let wire = serde_json::to_value(self).unwrap_or(Value::Null);
        if enrich_person_is_empty(&wire) {
            return Err(ApiError::EmptyPersonBody);
        }
        Ok(())
    }
    fn read_answer(status: u16, body: &[u8]) -> Result<Self::Response, ApiError> {
        read_enriched(status, body)
    }
}
