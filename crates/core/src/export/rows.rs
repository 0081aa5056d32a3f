//! The rows each command writes, one `Tabular` per record kind: companies, people,
//! contacts, spend, searches, lists, segments, lookups and key/value pairs, with their columns.

use super::*;

/// A company as the CLI writes it: the company record with its relevance (v3) or score (v2)
/// beside its members.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CompanyOut {
    /// The company record.
    #[serde(flatten)]
    pub company: Company,
    /// v3 relevance category.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relevance: Option<Relevance>,
    /// v2 lookalike score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
}

const COMPANY_COLUMNS: &[&str] = &[
    "domain",
    "name",
    "relevance",
    "score",
    "primaryCountry",
    "countries",
    "companySize",
    "employeeCountService",
    "employeeCountLinkedin",
    "revenue",
    "yearFounded",
    "industries",
    "linkedinIndustry",
    "technologies",
    "keywords",
    "emails",
    "phones",
    "linkedin",
    "description",
];

/// A company's cells in [`COMPANY_COLUMNS`] order, relevance and score left empty (the
/// plain CSV layout of a company, shared with `core::crm`).
pub(crate) fn company_cells(c: &Company) -> Vec<String> {
    vec![
        c.domain.clone(),
        opt(&c.name),
        String::new(),
        String::new(),
        opt(&c.primary_country),
        join(&c.countries),
        opt_enum(&c.company_size),
        opt(&c.employee_count_service),
        opt(&c.employee_count_linkedin),
        opt_enum(&c.revenue),
        opt(&c.year_founded),
        join(&c.industries),
        opt(&c.linkedin_industry),
        join(&c.technologies),
        join(&c.keywords),
        join(&c.emails),
        c.phones
            .iter()
            .map(|p| p.number.clone())
            .filter(|n| !n.is_empty())
            .collect::<Vec<_>>()
            .join(";"),
        c.medias
            .as_ref()
            .and_then(|m| m.linkedin.as_ref())
            .map(|m| m.url.clone())
            .unwrap_or_default(),
        opt(&c.description),
    ]
}

impl Tabular for CompanyOut {
    fn columns() -> &'static [&'static str] {
        COMPANY_COLUMNS
    }
    fn cells(&self) -> Vec<String> {
        let mut cells = company_cells(&self.company);
        cells[2] = opt_enum(&self.relevance);
        cells[3] = opt(&self.score);
        cells
    }
}

const PERSON_COLUMNS: &[&str] = &[
    "id",
    "name",
    "firstName",
    "lastName",
    "jobTitle",
    "seniorities",
    "departments",
    "domain",
    "companyName",
    "country",
    "location",
    "linkedinUrl",
    "email",
    "emailStatus",
    "phones",
    "phoneStatus",
    "relevance",
];

impl Tabular for LookalikePerson {
    fn columns() -> &'static [&'static str] {
        PERSON_COLUMNS
    }
    fn cells(&self) -> Vec<String> {
        let p = &self.person;
        vec![
            p.id.clone(),
            opt(&p.name),
            opt(&p.first_name),
            opt(&p.last_name),
            opt(&p.job_title),
            enums(&p.seniorities),
            enums(&p.departments),
            p.domain.clone(),
            self.company
                .as_ref()
                .and_then(|c| c.name.clone())
                .unwrap_or_default(),
            opt(&p.country),
            opt(&p.location),
            opt(&p.linkedin_url),
            p.email
                .as_ref()
                .and_then(|e| e.address.clone())
                .unwrap_or_default(),
            p.email
                .as_ref()
                .map(|e| e.status.as_str().to_string())
                .unwrap_or_default(),
            p.phone
                .as_ref()
                .map(|x| join(&x.numbers))
                .unwrap_or_default(),
            p.phone
                .as_ref()
                .map(|x| x.status.as_str().to_string())
                .unwrap_or_default(),
            opt_enum(&self.relevance),
        ]
    }
}

/// A revealed contact as the CLI writes it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContactOut {
    /// The service's person id.
    pub person_id: String,
    /// `email` or `phone`.
    pub kind: &'static str,
    /// The address (emails).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// The numbers (phones).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub phones: Vec<String>,
    /// Verification status as on the wire.
    pub status: String,
    /// When it was revealed (RFC 3339, UTC).
    pub revealed_at: String,
    /// `true` when it came from the store (bought before) rather than this run.
    pub from_store: bool,
}

impl ContactOut {
    /// The output form of a stored contact.
    pub fn new(c: &Contact, from_store: bool) -> ContactOut {
        ContactOut {
            person_id: c.person_id.clone(),
            kind: c.kind.as_str(),
            email: c.email.clone(),
            phones: c.phones.clone(),
            status: c.status.clone(),
            revealed_at: c.revealed_at.to_rfc3339(),
            from_store,
        }
    }
}

impl Tabular for ContactOut {
    fn columns() -> &'static [&'static str] {
        &[
            "personId",
            "kind",
            "email",
            "phones",
            "status",
            "revealedAt",
            "fromStore",
        ]
    }
    fn cells(&self) -> Vec<String> {
        vec![
            self.person_id.clone(),
            self.kind.to_string(),
            opt(&self.email),
            join(&self.phones),
            self.status.clone(),
            self.revealed_at.clone(),
            self.from_store.to_string(),
        ]
    }
}

impl Tabular for prospect_store::Spend {
    fn columns() -> &'static [&'static str] {
        &[
            "at", "kind", "what", "standard", "email", "phone", "job", "buyer",
        ]
    }
    fn cells(&self) -> Vec<String> {
        vec![
            self.at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            self.kind.clone(),
            self.what.clone(),
            self.credits.standard.to_string(),
            self.credits.email.to_string(),
            self.credits.phone.to_string(),
            opt(&self.job),
            self.buyer.clone(),
        ]
    }
}

/// A job as `prospect jobs` writes it: one record with real fields (issue 38: it was a
/// `{key, value}` pair).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobOut {
    /// Its id (`prospect resume ID`).
    pub id: i64,
    /// `search`, `lookup_companies`, `reveal_emails`, …
    pub kind: String,
    /// `running`, `done`, `failed` or `interrupted`.
    pub state: prospect_store::JobStatus,
    /// What it asks, in words (its plan's), when it says.
    pub action: Option<String>,
    /// Items kept so far.
    pub bought: i64,
    /// When it was planned (RFC 3339, UTC).
    pub created_at: String,
    /// When it last changed (RFC 3339, UTC).
    pub updated_at: String,
    /// Why it failed or stopped (empty when done).
    pub detail: String,
    /// The command that finishes it.
    pub resume: String,
}

impl JobOut {
    /// The row of job `j`, its action described as `action` (its plan's words).
    pub fn of(j: &prospect_store::JobRow, action: Option<String>) -> JobOut {
        let at = |t: &chrono::DateTime<chrono::Utc>| {
            t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
        };
        JobOut {
            id: j.id.0,
            kind: j.kind.clone(),
            state: j.state,
            action: action.filter(|a| !a.is_empty()),
            bought: j.bought,
            created_at: at(&j.created_at),
            updated_at: at(&j.updated_at),
            detail: j.detail.clone(),
            resume: format!("prospect resume {}", j.id),
        }
    }
}

impl Tabular for JobOut {
    fn columns() -> &'static [&'static str] {
        &[
            "id",
            "kind",
            "state",
            "action",
            "bought",
            "createdAt",
            "updatedAt",
            "detail",
            "resume",
        ]
    }
    fn cells(&self) -> Vec<String> {
        vec![
            self.id.to_string(),
            self.kind.clone(),
            self.state.to_string(),
            self.action.clone().unwrap_or_default(),
            self.bought.to_string(),
            self.created_at.clone(),
            self.updated_at.clone(),
            self.detail.clone(),
            self.resume.clone(),
        ]
    }
}

/// A stored search as `prospect history` writes it: one record with real fields.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchOut {
    /// Its history id (for `history show ID`, `export search ID`).
    pub id: i64,
    /// When it was last run (RFC 3339, UTC).
    pub at: String,
    /// The endpoint's path, e.g. `/v3/search/companies`.
    pub endpoint: String,
    /// The request body without paging members.
    pub body: serde_json::Value,
    /// Stored pages.
    pub pages: u32,
    /// `total` of its latest page, when the service said.
    pub total: Option<i64>,
    /// What its pages cost when bought, per pool.
    pub credits: prospect_api::cost::Cost,
}

impl From<prospect_store::SearchSummary> for SearchOut {
    fn from(s: prospect_store::SearchSummary) -> SearchOut {
        SearchOut {
            id: s.id.0,
            at: s
                .last_run_at
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            endpoint: s.endpoint,
            body: s.body,
            pages: s.pages,
            total: s.total,
            credits: s.credits,
        }
    }
}

impl Tabular for SearchOut {
    fn columns() -> &'static [&'static str] {
        &["id", "at", "endpoint", "body", "pages", "total", "credits"]
    }
    fn cells(&self) -> Vec<String> {
        vec![
            self.id.to_string(),
            self.at.clone(),
            self.endpoint.clone(),
            self.body.to_string(),
            self.pages.to_string(),
            opt(&self.total),
            crate::spend::describe_pools(&self.credits),
        ]
    }
}

/// A list as `prospect list ls` writes it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListOut {
    /// Its name.
    pub name: String,
    /// `accounts` or `contacts`.
    pub kind: &'static str,
    /// Members.
    pub members: u64,
    /// When it was created (RFC 3339, UTC).
    pub created_at: String,
}

impl From<prospect_store::ListSummary> for ListOut {
    fn from(l: prospect_store::ListSummary) -> ListOut {
        ListOut {
            name: l.name,
            kind: l.kind.as_str(),
            members: l.members,
            created_at: l
                .created_at
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        }
    }
}

impl Tabular for ListOut {
    fn columns() -> &'static [&'static str] {
        &["name", "kind", "members", "createdAt"]
    }
    fn cells(&self) -> Vec<String> {
        vec![
            self.name.clone(),
            self.kind.to_string(),
            self.members.to_string(),
            self.created_at.clone(),
        ]
    }
}

/// A segment as `prospect segment show` writes it (openapi `Segment`): a table row of its id,
/// name, size, lookalike count, traits (`value (score)`, `;`-joined) and domains.
impl Tabular for prospect_api::types::Segment {
    fn columns() -> &'static [&'static str] {
        &[
            "segmentId",
            "name",
            "companyCount",
            "lookalikeCount",
            "traits",
            "domains",
        ]
    }
    fn cells(&self) -> Vec<String> {
        let traits: Vec<String> = self
            .traits
            .iter()
            .flatten()
            .map(|t| format!("{} ({:.2})", t.feature_value, t.score))
            .collect();
        vec![
            self.segment_id.to_string(),
            self.name.clone(),
            self.company_count.to_string(),
            opt(&self.lookalike_count),
            join(&traits),
            join(&self.domains),
        ]
    }
}

/// A domain attributed to a segment as `prospect segment attribute` writes it (openapi
/// `AttributedDomain`); segment and score empty when unattributed.
impl Tabular for prospect_api::types::AttributedDomain {
    fn columns() -> &'static [&'static str] {
        &["domain", "segmentId", "score"]
    }
    fn cells(&self) -> Vec<String> {
        vec![self.domain.clone(), opt(&self.segment_id), opt(&self.score)]
    }
}

/// A segmentation the store holds, as `prospect segment list` writes it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SegmentationOut {
    /// Its id at the service.
    pub segmentation_id: i64,
    /// The last status read.
    pub status: String,
    /// Distinct domains segmented.
    pub domains: i64,
    /// Segments in the last answer read (0 before one).
    pub segments: usize,
    /// Their names, `;`-joined in tables.
    pub names: Vec<String>,
    /// When it was bought (RFC 3339, UTC).
    pub created_at: String,
}

impl From<prospect_store::SegmentationRow> for SegmentationOut {
    fn from(r: prospect_store::SegmentationRow) -> SegmentationOut {
        let segments = r.answer.as_ref().map_or(&[][..], |a| &a.segments[..]);
        SegmentationOut {
            segmentation_id: r.id,
            status: r.status.to_string(),
            domains: r.domains,
            segments: segments.len(),
            names: segments.iter().map(|s| s.name.clone()).collect(),
            created_at: r
                .created_at
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        }
    }
}

impl Tabular for SegmentationOut {
    fn columns() -> &'static [&'static str] {
        &[
            "segmentationId",
            "status",
            "domains",
            "segments",
            "names",
            "createdAt",
        ]
    }
    fn cells(&self) -> Vec<String> {
        vec![
            self.segmentation_id.to_string(),
            self.status.clone(),
            self.domains.to_string(),
            self.segments.to_string(),
            join(&self.names),
            self.created_at.clone(),
        ]
    }
}

/// One entry of a lookup as the CLI writes it: what was asked, and the record or `null`
/// ("not found").
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LookupOut<T> {
    /// The domain, handle or id as given.
    pub query: String,
    /// `true` when the service (or the store) had it.
    pub found: bool,
    /// When it came from the store: when it was bought (RFC 3339); `null` when bought now.
    pub stored_at: Option<String>,
    /// The record, `null` when not found (boxed as [`crate::session::LookupEntry`]'s is).
    pub record: Option<Box<T>>,
    /// The suppression category when the key was refused (never sent); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suppressed: Option<String>,
}

impl Tabular for LookupOut<Company> {
    fn columns() -> &'static [&'static str] {
        &[
            "query",
            "found",
            "storedAt",
            "domain",
            "name",
            "primaryCountry",
            "companySize",
            "industries",
            "yearFounded",
        ]
    }
    fn cells(&self) -> Vec<String> {
        let c = self.record.as_ref();
        vec![
            self.query.clone(),
            self.found.to_string(),
            opt(&self.stored_at),
            c.map(|c| c.domain.clone()).unwrap_or_default(),
            c.and_then(|c| c.name.clone()).unwrap_or_default(),
            c.and_then(|c| c.primary_country.clone())
                .unwrap_or_default(),
            c.map(|c| opt_enum(&c.company_size)).unwrap_or_default(),
            c.map(|c| join(&c.industries)).unwrap_or_default(),
            c.map(|c| opt(&c.year_founded)).unwrap_or_default(),
        ]
    }
}

impl Tabular for LookupOut<LookalikePerson> {
    fn columns() -> &'static [&'static str] {
        &[
            "query",
            "found",
            "storedAt",
            "id",
            "name",
            "jobTitle",
            "domain",
            "linkedinUrl",
        ]
    }
    fn cells(&self) -> Vec<String> {
        let p = self.record.as_ref().map(|p| &p.person);
        vec![
            self.query.clone(),
            self.found.to_string(),
            opt(&self.stored_at),
            p.map(|p| p.id.clone()).unwrap_or_default(),
            p.and_then(|p| p.name.clone()).unwrap_or_default(),
            p.and_then(|p| p.job_title.clone()).unwrap_or_default(),
            p.map(|p| p.domain.clone()).unwrap_or_default(),
            p.and_then(|p| p.linkedin_url.clone()).unwrap_or_default(),
        ]
    }
}

/// A plain two-column row (`key`, `value`) for small answers: suggestions, credit pools,
/// warmup statuses, history lines.
#[derive(Debug, Clone, Serialize)]
pub struct Pair {
    /// The key.
    pub key: String,
    /// The value.
    pub value: serde_json::Value,
}

impl Tabular for Pair {
    fn columns() -> &'static [&'static str] {
        &["key", "value"]
    }
    fn cells(&self) -> Vec<String> {
        vec![
            self.key.clone(),
            match &self.value {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Null => String::new(),
                serde_json::Value::Array(a) => a
                    .iter()
                    .map(|v| {
                        v.as_str()
                            .map(str::to_string)
                            .unwrap_or_else(|| v.to_string())
                    })
                    .collect::<Vec<_>>()
                    .join(";"),
                other => other.to_string(),
            },
        ]
    }
}
