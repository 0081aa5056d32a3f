//! The MCP server's tools and resources (issue 36): every paid tool plans through the engine
//! and passes the agent's spend gate ([`crate::gate`]) before it runs through the one door
//! ([`engine::run`], [`engine::run_by_webhook`]); free reads answer from the service's free
//! endpoints or the store. A cancelled call stops like Ctrl-C: what is in flight is kept.

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{
    ErrorData as McpError, RoleServer, ServerHandler, prompt_handler, tool, tool_handler,
    tool_router,
};
use serde_json::Value;

use crate::gate::SharedBudget;
use crate::shapes::*;
use prospect_api::client::Endpoint;
use prospect_common::ContactKind;
use prospect_core::engine::{self, Action, Event, KeySource, SetSearch};
use prospect_core::export::{companies_of, people_of};
use prospect_core::session::Session;

/// The server: the session (client, store, policy), the session's budget and the settings it
/// reads sets and thresholds from.
#[derive(Clone)]
pub struct Prospect {
    pub(crate) session: Session,
    pub(crate) budget: SharedBudget,
    pub(crate) confirm_above: f64,
    filters_dir: std::path::PathBuf,
    receiver: Arc<tokio::sync::OnceCell<Result<(), String>>>,
    receiver_config: Option<prospect_core::webhooks::ReceiverConfig>,
    /// The store of what is owned, for exports and suppression writes (opened once).
    pub(crate) owned: Option<Arc<std::sync::Mutex<prospect_core::owned::Owned>>>,
    tool_router: ToolRouter<Prospect>,
}

/// A free read's answer: its JSON as text.
pub(crate) fn text(v: &impl serde::Serialize) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(
        serde_json::to_string_pretty(v).unwrap_or_default(),
    )])
}

pub(crate) fn failed(e: impl std::fmt::Display) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(
        prospect_common::sanitize::sanitize(&e.to_string()),
    )])
}

impl Prospect {
    /// A server over `session`, spending at most `cap` credits per pool in all (`None`: no
    /// cap), asking above `confirm_above`, reading saved sets from `filters_dir`; reveals start
    /// the webhook receiver of `receiver_config` the first time one is sent.
    pub fn new(
        session: Session,
        cap: Option<f64>,
        confirm_above: f64,
        filters_dir: std::path::PathBuf,
        receiver_config: Option<prospect_core::webhooks::ReceiverConfig>,
        owned: Option<prospect_core::owned::Owned>,
    ) -> Prospect {
        Prospect {
            session,
            budget: Arc::new(std::sync::Mutex::new(crate::gate::Budget {
                cap,
                ..Default::default()
            })),
            confirm_above,
            filters_dir,
            receiver: Arc::new(tokio::sync::OnceCell::new()),
            receiver_config,
            owned: owned.map(|o| Arc::new(std::sync::Mutex::new(o))),
            tool_router: Self::tool_router() + Self::more_tools(),
        }
    }

    /// The search action of `p` at `endpoint`: the set's search of the endpoint's subject, or
    /// `filters`; paging members dropped. Errors: a set that does not read, bad paging.
    fn search_action(&self, p: &SearchParams, endpoint: Endpoint) -> Result<Action, String> {
        let body = match &p.set {
            Some(name) => {
                let (_, path) = prospect_core::filter_set::resolve(&self.filters_dir, name)
                    .map_err(|e| e.to_string())?;
                let set = prospect_core::filter_set::load(&path).map_err(|e| e.to_string())?;
                let subject = endpoint.search_subject().ok_or("not a search")?;
                set.for_subject(subject)
                    .map(|(_, b)| b.clone())
                    .ok_or_else(|| format!("set {name} holds no search of this subject"))?
            }
            None => Value::Object(p.filters.clone()),
        };
        engine::check_paging(&body)?;
        if p.new_only && p.set.is_none() {
            return Err(
                "new_only needs a saved set (set): its earlier runs are what is left out".into(),
            );
        }
        let set = p.set.clone().map(|name| SetSearch {
            name,
            new_only: p.new_only,
            exclude_cap: None,
            run_at: None,
        });
        let limit = p.limit.unwrap_or(25).clamp(1, 10_000);
        Ok(Action::search(endpoint, &body, limit, set))
    }

    async fn search<R>(
        &self,
        p: SearchParams,
        endpoint: Endpoint,
        ctx: RequestContext<RoleServer>,
        rows_of: impl Fn(engine::SearchRecords, &[String]) -> Vec<R>,
    ) -> Paid<R> {
        let action = match self.search_action(&p, endpoint) {
            Ok(a) => a,
            Err(e) => return Paid::empty(Status::Refused, e, None),
        };
        let (events, ran) = match self.gate_and_run(&action, &p.spend, &ctx).await {
            Ok(r) => r,
            Err(answer) => return answer,
        };
        let rows = events
            .into_iter()
            .filter_map(|e| match e {
                Event::Page(page) => Some(rows_of(*page, &p.fields)),
                _ => None,
            })
            .flatten()
            .collect();
        ran.answer(rows)
    }

    /// Starts the webhook receiver the first time a reveal needs it.
    pub(crate) async fn receiver(&self) -> Result<(), String> {
        self.receiver
            .get_or_init(|| async {
                let Some(cfg) = self.receiver_config.clone() else {
                    return Err("no webhook receiver is configured (webhook_public_url)".into());
                };
                self.session
                    .start_receiver(cfg)
                    .await
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            })
            .await
            .clone()
    }

    async fn reveal(
        &self,
        p: RevealParams,
        contact: ContactKind,
        ctx: RequestContext<RoleServer>,
    ) -> Paid<ContactRow> {
        let action = Action::Reveal {
            contact,
            keys: KeySource::List(p.person_ids.clone()),
        };
        let (arrived, ran) = match self
            .gate_and_send(&action, &p.spend, p.wait_seconds, &ctx)
            .await
        {
            Ok(r) => r,
            Err(answer) => return answer,
        };
        let mut rows = Vec::new();
        if let Some(engine::Arrived::Contacts(_, r, arrived)) = &arrived {
            for id in &p.person_ids {
                let (c, from_store) = match (r.from_store.get(id), arrived.get(id)) {
                    (Some(c), _) => (c, true),
                    (None, Some(c)) => (c, false),
                    _ => continue,
                };
                rows.push(ContactRow {
                    person_id: c.person_id.clone(),
                    kind: c.kind.as_str().to_string(),
                    value: match c.kind {
                        ContactKind::Email => c.email.clone().unwrap_or_default(),
                        ContactKind::Phone => c.phones.join(", "),
                    },
                    status: c.status.clone(),
                    from_store,
                });
            }
        }
        ran.answer(rows)
    }
}

#[tool_router]
impl Prospect {
    /// The credit balance and the daily request allowance (free).
    #[tool(
        description = "The credit balance per pool (standard, email, phone) and the daily request allowance left. Free.",
        annotations(read_only_hint = true, open_world_hint = true)
    )]
    async fn credits(&self) -> CallToolResult {
        match self.session.balance().await {
            Ok(b) => text(&b),
            Err(e) => failed(e.user_message()),
        }
    }

    /// The reference data: industries, countries, sizes, technologies… (free).
    #[tool(
        description = "Reference data for filters: the values of industries, countries, company sizes, seniorities, departments and the other enumerations (GET /v2/data-fields). Free.",
        annotations(read_only_hint = true, open_world_hint = true)
    )]
    async fn reference_data(&self) -> CallToolResult {
        match self.session.data_fields().await {
            Ok(d) => text(&d),
            Err(e) => failed(e.user_message()),
        }
    }

    /// A company search.
    #[tool(
        description = "Search companies (v3; v2 with v2=true) by the API's companiesFilters, or a saved filter set. Costs 0.2 standard credits per result bought; results the store bought within search_fresh_for cost 0. Plans first: above max_credits (default: the server's confirm_above) nothing is sent and the answer carries a plan_id to call again with. new_only (with set) leaves out what the set's earlier runs bought.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn search_companies(
        &self,
        Parameters(p): Parameters<SearchParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Json<Paid<CompanyRow>> {
        let endpoint = if p.v2 {
            Endpoint::SearchCompaniesV2
        } else {
            Endpoint::SearchCompaniesV3
        };
        Json(
            self.search(p, endpoint, ctx, |page, fields| {
                companies_of(page.response)
                    .into_iter()
                    .take(page.take)
                    .map(|c| CompanyRow::of(&c.company, fields))
                    .collect()
            })
            .await,
        )
    }

    /// A people search.
    #[tool(
        description = "Search people (v3; v2 with v2=true) by the API's peopleFilters and companiesFilters, or a saved filter set. Costs 0.2 standard credits per person bought (v2: 1, or 3 with lookalike domains); owned results cost 0. Plans first, as search_companies. Rows carry the contacts already revealed.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn search_people(
        &self,
        Parameters(p): Parameters<SearchParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Json<Paid<PersonRow>> {
        let endpoint = if p.v2 {
            Endpoint::SearchPeopleV2
        } else {
            Endpoint::SearchPeopleV3
        };
        Json(
            self.search(p, endpoint, ctx, |page, fields| {
                people_of(page.response)
                    .into_iter()
                    .take(page.take)
                    .map(|person| PersonRow::of(&person, fields))
                    .collect()
            })
            .await,
        )
    }

    /// A lookup of companies by domain.
    #[tool(
        description = "Look up companies by domain (POST /v2/lookup/companies). Costs 0.05 standard credits per company found; companies the store owns cost 0; suppressed domains are refused. Plans first, as search_companies.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn lookup_companies(
        &self,
        Parameters(p): Parameters<LookupCompaniesParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Json<Paid<CompanyRow>> {
        let action = Action::LookupCompanies {
            keys: KeySource::List(p.domains.clone()),
        };
        let (events, ran) = match self.gate_and_run(&action, &p.spend, &ctx).await {
            Ok(r) => r,
            Err(answer) => return Json(answer),
        };
        let rows = events
            .into_iter()
            .filter_map(|e| match e {
                Event::Companies(v) => Some(v),
                _ => None,
            })
            .flatten()
            .filter_map(|entry| entry.record.map(|c| CompanyRow::of(&c, &p.fields)))
            .collect();
        Json(ran.answer(rows))
    }

    /// A lookup of people by handle, profile URL or id.
    #[tool(
        description = "Look up people by professional-network handle, profile URL or service id (POST /v2/lookup/people). Costs 0.05 standard credits per person found; owned people cost 0. Plans first, as search_companies.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn lookup_people(
        &self,
        Parameters(p): Parameters<LookupPeopleParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Json<Paid<PersonRow>> {
        let action = Action::LookupPeople {
            keys: KeySource::List(p.keys.clone()),
            ids: false,
            by_shape: true,
        };
        let (events, ran) = match self.gate_and_run(&action, &p.spend, &ctx).await {
            Ok(r) => r,
            Err(answer) => return Json(answer),
        };
        let rows = events
            .into_iter()
            .filter_map(|e| match e {
                Event::People(v) => Some(v),
                _ => None,
            })
            .flatten()
            .filter_map(|entry| entry.record.map(|person| PersonRow::of(&person, &p.fields)))
            .collect();
        Json(ran.answer(rows))
    }

    /// An enrichment of one company.
    #[tool(
        description = "Enrich one company by domain (POST /v2/enrich/company). Costs 0.1 standard credits; a company the store owns costs 0. An unknown domain starts data gathering (try again later).",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn enrich_company(
        &self,
        Parameters(p): Parameters<EnrichCompanyParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Json<Paid<CompanyRow>> {
        let action = Action::EnrichCompany {
            domain: p.domain.clone(),
        };
        let (events, ran) = match self.gate_and_run(&action, &p.spend, &ctx).await {
            Ok(r) => r,
            Err(answer) => return Json(answer),
        };
        let mut rows = Vec::new();
        let mut note = None;
        for e in events {
            if let Event::Answer(a) = e
                && let engine::Answer::Company(paid) = *a
            {
                match paid.value {
                    prospect_api::client::Enriched::Found(r) => {
                        rows.push(CompanyRow::of(&r.company, &p.fields))
                    }
                    prospect_api::client::Enriched::Gathering { detail } => {
                        note = Some(prospect_common::sanitize::sanitize(&detail))
                    }
                }
            }
        }
        let mut answer = ran.answer(rows);
        if let Some(n) = note {
            answer.message.push_str(&format!("; {n}"));
        }
        Json(answer)
    }

    /// A reveal of emails.
    #[tool(
        description = "Reveal the emails of people by id (POST /v2/reveal/emails), awaited through the webhook receiver up to wait_seconds. Costs 1 email credit per verified email; contacts the store holds cost 0 and are never bought again; suppressed people are refused. Plans first, as search_companies.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn reveal_emails(
        &self,
        Parameters(p): Parameters<RevealParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Json<Paid<ContactRow>> {
        Json(self.reveal(p, ContactKind::Email, ctx).await)
    }

    /// A reveal of phones.
    #[tool(
        description = "Reveal the phones of people by id (POST /v2/reveal/phones), awaited through the webhook receiver. Costs 1 phone credit per verified phone; owned contacts cost 0. Plans first, as search_companies.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn reveal_phones(
        &self,
        Parameters(p): Parameters<RevealParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Json<Paid<ContactRow>> {
        Json(self.reveal(p, ContactKind::Phone, ctx).await)
    }

    /// The named lists, or one list's members.
    #[tool(
        description = "Your named lists with their member counts, or (with name) one list's members as records. Free: read from the store.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn lists(&self, Parameters(p): Parameters<ListParams>) -> CallToolResult {
        match p.name {
            None => match self.session.lists_overview().await {
                Ok((lists, suppression)) => text(&serde_json::json!({
                    "lists": lists.iter().map(|l| serde_json::json!({
                        "name": l.name, "kind": l.kind.as_str(), "members": l.members,
                    })).collect::<Vec<_>>(),
                    "suppression": suppression,
                })),
                Err(e) => failed(e),
            },
            Some(name) => match self.session.open_list(name).await {
                Ok(list) => match list.records {
                    prospect_core::owned::ListRecords::Accounts(v) => {
                        text(&v.iter().map(|c| CompanyRow::of(c, &[])).collect::<Vec<_>>())
                    }
                    prospect_core::owned::ListRecords::Contacts(v) => {
                        text(&v.iter().map(|p| PersonRow::of(p, &[])).collect::<Vec<_>>())
                    }
                },
                Err(e) => failed(e),
            },
        }
    }

    /// Adds keys to a named list.
    #[tool(
        description = "Add domains (kind accounts) or person ids (kind contacts) to a named list, created when missing. Free; writes the store.",
        annotations(
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn list_add(&self, Parameters(p): Parameters<ListAddParams>) -> CallToolResult {
        let kind = match p.kind.as_str() {
            "accounts" => prospect_core::owned::ListKind::Accounts,
            "contacts" => prospect_core::owned::ListKind::Contacts,
            other => return failed(format!("kind {other:?}: accounts or contacts")),
        };
        match self.session.add_to_list(p.name.clone(), kind, p.keys).await {
            Ok((added, had, members)) => text(&serde_json::json!({
                "list": p.name, "added": added, "alreadyMembers": had, "members": members,
            })),
            Err(e) => failed(e),
        }
    }

    /// Which keys are suppressed.
    #[tool(
        description = "Which of these domains (subject companies) or person ids and handles (subject people) are on a suppression list, with the category. Free: read from the store. Suppressed entities are never searched, revealed or paid for.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn suppression_check(
        &self,
        Parameters(p): Parameters<SuppressionParams>,
    ) -> CallToolResult {
        let refused = match p.subject.as_deref() {
            Some("people") => prospect_core::suppress::refused_people(&self.session, p.keys).await,
            _ => prospect_core::suppress::refused_domains(&self.session, p.keys).await,
        };
        text(&refused)
    }

    /// The searches bought.
    #[tool(
        description = "The searches bought, newest first: endpoint, filters, pages, total, when. Free: read from the store.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn history(&self, Parameters(p): Parameters<LimitParams>) -> CallToolResult {
        match self.session.history(p.limit.unwrap_or(20)).await {
            Ok(list) => text(
                &list
                    .iter()
                    .map(|s| {
                        serde_json::json!({
                            "id": s.id.0, "endpoint": s.endpoint, "body": s.body,
                            "pages": s.pages, "total": s.total,
                            "lastRunAt": s.last_run_at.to_rfc3339(),
                        })
                    })
                    .collect::<Vec<_>>(),
            ),
            Err(e) => failed(e),
        }
    }
}

#[tool_handler(router = self.tool_router)]
#[prompt_handler(router = Self::prompt_router())]
impl ServerHandler for Prospect {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
        .with_server_info(Implementation::new("prospect", env!("CARGO_PKG_VERSION")))
        .with_instructions(
            "prospect: company and people search, lookup, enrichment and contact reveals of a \
             B2B data API, with a store of everything bought. Every paid tool plans first and \
             answers needs_confirmation with a plan_id above max_credits; what the store owns \
             costs 0; the session cannot spend past the server's --max-credits. Full records: \
             resources prospect://company/{domain} and prospect://person/{id} (0 credits)."
                .to_string(),
        )
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        Ok(ListResourceTemplatesResult {
            resource_templates: crate::resources::templates(),
            ..Default::default()
        })
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        crate::resources::read(&self.session, &self.filters_dir, &request.uri).await
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Ok(ListResourcesResult {
            resources: crate::resources::fixed(),
            ..Default::default()
        })
    }
}
