//! What the tools take and answer (issue 36): parameters with JSON schemas (derived here, the
//! filters being the API's own request members), and compact answers an agent can afford to
//! read: the columns a person would see, with `fields` selecting more of the full record.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use prospect_api::cost::Cost;
use prospect_api::types::{Company, LookalikePerson};
use prospect_core::engine::Plan;

/// Credits per pool.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Credits {
    /// Standard credits (searches, lookups, enrichment).
    pub standard: f64,
    /// Email credits (email reveals).
    pub email: f64,
    /// Phone credits (phone reveals).
    pub phone: f64,
}

impl From<Cost> for Credits {
    fn from(c: Cost) -> Credits {
        let c = c.rounded();
        Credits {
            standard: c.standard,
            email: c.email,
            phone: c.phone,
        }
    }
}

/// The plan of a paid call, computed before anything paid is sent
/// ([`prospect_core::engine::Plan`]).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanOut {
    /// The action in words.
    pub action: String,
    /// Items asked.
    pub asked: u64,
    /// Items the store owns: answered at 0 credits.
    pub owned: u64,
    /// Items suppressed (never sent, never charged), and by category.
    pub suppressed: u64,
    /// Suppressed items by category.
    pub suppressed_by: std::collections::BTreeMap<String, u64>,
    /// Items to buy.
    pub to_buy: u64,
    /// The most buying them can cost, per pool.
    pub cost: Credits,
    /// Requests it takes.
    pub requests: u32,
    /// The plan in lines, as a person reads it.
    pub lines: Vec<String>,
}

impl From<&Plan> for PlanOut {
    fn from(p: &Plan) -> PlanOut {
        PlanOut {
            action: p.action.clone(),
            asked: p.asked,
            owned: p.owned,
            suppressed: p.suppressed,
            suppressed_by: p.suppressed_by.clone(),
            to_buy: p.to_buy,
            cost: p.cost.into(),
            requests: p.requests,
            lines: p.lines(),
        }
    }
}

/// How a paid tool call ended.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// It ran: the rows are what it owned and bought.
    Done,
    /// Not run: the plan is over `max_credits` (or the server's `confirm_above`): call again
    /// with the same arguments and `plan_id` to run it. Or a search's plan is over what the
    /// session may still spend (`--max-credits`): the message says how many results fit; call
    /// again with `plan_id` and a `max_credits` that fits to buy the first of them.
    NeedsConfirmation,
    /// Not run, and confirming cannot run it: anything but a search over the session's
    /// `--max-credits`, a daily budget or the allowance, suppressed, a request the service
    /// would refuse, or declined by the person at the client (MCP elicitation).
    Refused,
    /// Stopped part-way (cancelled, or an error): what it bought is kept and listed.
    Stopped,
}

/// The answer of a paid tool: its status and message, the plan, what it spent and what is left
/// of the session's budget, and its rows.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Paid<R> {
    /// How it ended.
    pub status: Status,
    /// What happened, in one line.
    pub message: String,
    /// The plan (owned, suppressed, to buy per pool, requests).
    pub plan: Option<PlanOut>,
    /// With `needs_confirmation`: the id to call again with to run this plan.
    pub plan_id: Option<String>,
    /// Credits this call spent, per pool.
    pub spent: Credits,
    /// Credits this session has spent, per pool.
    pub session_spent: Credits,
    /// Credits left of the session's `--max-credits`, per pool (`None`: no session cap).
    pub session_left: Option<Credits>,
    /// Results answered from the store at 0 credits.
    pub owned: u64,
    /// Results bought.
    pub bought: u64,
    /// The rows.
    pub rows: Vec<R>,
}

impl<R> Paid<R> {
    /// An answer with no rows.
    pub fn empty(status: Status, message: String, plan: Option<&Plan>) -> Paid<R> {
        Paid {
            status,
            message,
            plan: plan.map(PlanOut::from),
            plan_id: None,
            spent: Credits::default(),
            session_spent: Credits::default(),
            session_left: None,
            owned: 0,
            bought: 0,
            rows: Vec::new(),
        }
    }
}

/// The spend controls every paid tool takes.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Spend {
    /// Most credits this call may spend in any one pool without confirming (default: the
    /// server's `confirm_above`). Above it the call answers `needs_confirmation` and a
    /// `plan_id` (or, when the client offers elicitation, the person is asked), and spends
    /// nothing. With the `plan_id` of a search over the session's budget: the credits to spend
    /// on its first results (at most what the session has left).
    #[serde(default)]
    pub max_credits: Option<f64>,
    /// The `plan_id` of an earlier `needs_confirmation` answer for these same arguments: runs
    /// that plan.
    #[serde(default)]
    pub plan_id: Option<String>,
}

/// A company, compact: what a person sees in the explorer's table, plus `extra` (the members
/// `fields` asked for).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompanyRow {
    /// The domain (the company's key).
    pub domain: String,
    /// Its name.
    pub name: Option<String>,
    /// Headquarters country (ISO alpha-2).
    pub country: Option<String>,
    /// First industry.
    pub industry: Option<String>,
    /// Size range, e.g. `51-200`.
    pub size: Option<String>,
    /// Employee count.
    pub employees: Option<i64>,
    /// Members of the full record that `fields` asked for.
    #[serde(skip_serializing_if = "Map::is_empty", default)]
    pub extra: Map<String, Value>,
}

/// A person, compact, with the contacts the store holds (revealed or not).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonRow {
    /// The service's person id (the key to reveal with).
    pub id: String,
    /// Full name.
    pub name: Option<String>,
    /// Job title.
    pub job_title: Option<String>,
    /// The employer's domain.
    pub domain: String,
    /// Country (ISO alpha-2).
    pub country: Option<String>,
    /// Professional-network profile URL.
    pub linkedin_url: Option<String>,
    /// A revealed email, when there is one.
    pub email: Option<String>,
    /// Revealed phone numbers.
    pub phones: Vec<String>,
    /// Members of the full record that `fields` asked for.
    #[serde(skip_serializing_if = "Map::is_empty", default)]
    pub extra: Map<String, Value>,
}

/// The members `fields` names, taken from `record` (its JSON form).
fn extra(record: &impl Serialize, fields: &[String]) -> Map<String, Value> {
    if fields.is_empty() {
        return Map::new();
    }
    let Ok(Value::Object(all)) = serde_json::to_value(record) else {
        return Map::new();
    };
    fields
        .iter()
        .filter_map(|f| all.get(f).map(|v| (f.clone(), v.clone())))
        .collect()
}

impl CompanyRow {
    /// The compact row of `c`, with the members `fields` names.
    pub fn of(c: &Company, fields: &[String]) -> CompanyRow {
        use prospect_api::types::WireEnum;
        CompanyRow {
            domain: c.domain.clone(),
            name: c.name.clone(),
            country: c.primary_country.clone(),
            industry: c
                .industries
                .first()
                .cloned()
                .or_else(|| c.linkedin_industry.clone()),
            size: c.company_size.as_ref().map(|s| s.as_str().to_string()),
            employees: c.employee_count_service,
            extra: extra(c, fields),
        }
    }
}

impl PersonRow {
    /// The compact row of `p`, with the members `fields` names.
    pub fn of(p: &LookalikePerson, fields: &[String]) -> PersonRow {
        let person = &p.person;
        PersonRow {
            id: person.id.clone(),
            name: person.name.clone(),
            job_title: person
                .job_title_english
                .clone()
                .or_else(|| person.job_title.clone()),
            domain: person.domain.clone(),
            country: person.country.clone(),
            linkedin_url: person.linkedin_url.clone(),
            email: person
                .email
                .as_ref()
                .and_then(|e| e.address.clone())
                .filter(|a| !a.is_empty()),
            phones: person
                .phone
                .as_ref()
                .map(|ph| ph.numbers.clone())
                .unwrap_or_default(),
            extra: extra(p, fields),
        }
    }
}

/// A company or people search.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct SearchParams {
    /// The request body's members, as the API takes them: `companiesFilters`, `peopleFilters`,
    /// `onePersonPerDomain`, … (SPEC.md §2.4, §2.5; paging members are the server's). Empty
    /// with `set`. Its schema is openapi.json's ([`crate::wire_schema`]).
    #[serde(default)]
    #[schemars(schema_with = "crate::wire_schema::filters_schema")]
    pub filters: Map<String, Value>,
    /// A saved filter set's name (`filters/NAME.json`): its search of this subject; its runs
    /// are recorded.
    #[serde(default)]
    pub set: Option<String>,
    /// Only results the set's earlier runs did not buy (needs `set`).
    #[serde(default)]
    pub new_only: bool,
    /// Most results (default 25).
    #[serde(default)]
    pub limit: Option<u64>,
    /// The legacy v2 endpoint instead of v3.
    #[serde(default)]
    pub v2: bool,
    /// More members of each record to include (e.g. `description`, `technologies`).
    #[serde(default)]
    pub fields: Vec<String>,
    /// Spend controls.
    #[serde(flatten)]
    pub spend: Spend,
}

/// A lookup of companies by domain.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct LookupCompaniesParams {
    /// Domains (or URLs; normalized), at most 10,000.
    pub domains: Vec<String>,
    /// More members of each record to include.
    #[serde(default)]
    pub fields: Vec<String>,
    /// Spend controls.
    #[serde(flatten)]
    pub spend: Spend,
}

/// A lookup of people by professional-network handle or profile URL, or by service id.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct LookupPeopleParams {
    /// Handles, profile URLs or service ids (each looked up by its shape).
    pub keys: Vec<String>,
    /// More members of each record to include.
    #[serde(default)]
    pub fields: Vec<String>,
    /// Spend controls.
    #[serde(flatten)]
    pub spend: Spend,
}

/// An enrichment of one company.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct EnrichCompanyParams {
    /// The company's domain.
    pub domain: String,
    /// More members of the record to include.
    #[serde(default)]
    pub fields: Vec<String>,
    /// Spend controls.
    #[serde(flatten)]
    pub spend: Spend,
}

/// A reveal of emails or phones, awaited through the webhook receiver.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct RevealParams {
    /// Person ids (from a people search or lookup), at most 500.
    pub person_ids: Vec<String>,
    /// Seconds to wait for the deliveries (default 120); what arrives later is kept and not
    /// sent again.
    #[serde(default)]
    pub wait_seconds: Option<u64>,
    /// Spend controls.
    #[serde(flatten)]
    pub spend: Spend,
}

/// A revealed contact.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactRow {
    /// The person's id.
    pub person_id: String,
    /// `email` or `phone`.
    pub kind: String,
    /// The address or number (empty when none was found).
    pub value: String,
    /// Its status (`verified`, `not_found`, …).
    pub status: String,
    /// It came from the store at 0 credits.
    pub from_store: bool,
}

/// A read of what is owned (lists, history, records): free.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct ListParams {
    /// A list's name: its members; none: every list with its member count.
    #[serde(default)]
    pub name: Option<String>,
}

/// Rows to add to a named list.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct ListAddParams {
    /// The list's name (created when missing).
    pub name: String,
    /// `accounts` (domains) or `contacts` (person ids).
    pub kind: String,
    /// The domains or person ids.
    pub keys: Vec<String>,
}

/// Keys to check against the suppression lists.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct SuppressionParams {
    /// Domains (companies) or person ids / handles (people).
    pub keys: Vec<String>,
    /// `companies` (default) or `people`.
    #[serde(default)]
    pub subject: Option<String>,
}

/// How many of the newest to list.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct LimitParams {
    /// At most this many (default 20).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One of the five autocompletes.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct AutocompleteParams {
    /// `companies`, `keywords`, `job_titles`, `locations` or `skills`.
    pub kind: String,
    /// What was typed so far.
    pub query: String,
}

/// An enrichment of one person.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct EnrichPersonParams {
    /// How to match the person, as the API takes it (SPEC.md §2.7): `id`, `linkedinUrl`,
    /// `email`, or `name` with `domain`.
    pub person: Map<String, Value>,
    /// More members of the record to include.
    #[serde(default)]
    pub fields: Vec<String>,
    /// Spend controls.
    #[serde(flatten)]
    pub spend: Spend,
}

/// A batch enrichment of companies, awaited through the webhook receiver.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct EnrichCompaniesParams {
    /// Domains.
    pub domains: Vec<String>,
    /// Seconds to wait for the deliveries (default 120).
    #[serde(default)]
    pub wait_seconds: Option<u64>,
    /// More members of each record to include.
    #[serde(default)]
    pub fields: Vec<String>,
    /// Spend controls.
    #[serde(flatten)]
    pub spend: Spend,
}

/// A segmentation of company domains (your customers).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct SegmentParams {
    /// Company domains to segment.
    pub domains: Vec<String>,
    /// Spend controls.
    #[serde(flatten)]
    pub spend: Spend,
}

/// A segmentation by id, with domains for the mark and attribute tools.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct SegmentationParams {
    /// The segmentation's id.
    pub id: i64,
    /// Domains (attribute: to score; mark: to steer with).
    #[serde(default)]
    pub domains: Vec<String>,
    /// For mark: `positive` (a good fit) or `negative` (a poor fit).
    #[serde(default)]
    pub mark: Option<String>,
}

/// What is owned, exported from the store at 0 credits.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct ExportParams {
    /// `companies`, `people` or `contacts`.
    pub kind: String,
    /// At most this many (default 100), the oldest first.
    #[serde(default)]
    pub limit: Option<usize>,
}

/// Entries to add to a suppression category.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct SuppressParams {
    /// The category (`customers`, `competitors`, `do-not-contact`, …).
    pub category: String,
    /// Company domains to suppress.
    #[serde(default)]
    pub domains: Vec<String>,
    /// Person ids to suppress.
    #[serde(default)]
    pub person_ids: Vec<String>,
}

/// Domains to warm up (free).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct WarmupParams {
    /// Domains, at most 500.
    pub domains: Vec<String>,
}
