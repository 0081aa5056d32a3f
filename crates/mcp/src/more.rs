//! The rest of the service as tools (issue 36): the five autocompletes, enrichment of one
//! person and of many companies (awaited by webhook), segmentation (create, read, mark,
//! attribute), warmup, the export of what is owned (0 credits) and suppression writes. Paid
//! ones plan through the engine and pass the agent's gate as the others do.

use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, tool, tool_router};
use serde_json::Value;

use crate::gate::charge;
use crate::server::{Prospect, failed, text};
use crate::shapes::*;
use prospect_api::client::Enriched;
use prospect_api::types::{
    AutocompleteCompaniesRequest, AutocompleteJobTitlesRequest, AutocompleteKeywordsRequest,
    AutocompleteLocationsRequest, AutocompleteSkillsRequest, MarkType, WarmupCompaniesRequest,
};
use prospect_core::engine::{self, Action, Event, KeySource};
use prospect_core::request::{AutocompleteRequest, AutocompleteResponse};

/// The request of autocomplete `kind` for `query`. Errors: an unknown kind.
fn autocomplete_request(kind: &str, query: &str) -> Result<AutocompleteRequest, String> {
    let q = query.to_string();
    Ok(match kind {
        "companies" => AutocompleteRequest::Companies(AutocompleteCompaniesRequest {
            name: q,
            ..Default::default()
        }),
        "keywords" => AutocompleteRequest::Keywords(AutocompleteKeywordsRequest {
            query: q,
            ..Default::default()
        }),
        "job_titles" => AutocompleteRequest::JobTitles(AutocompleteJobTitlesRequest {
            query: q,
            ..Default::default()
        }),
        "locations" => AutocompleteRequest::Locations(AutocompleteLocationsRequest {
            query: q,
            ..Default::default()
        }),
        "skills" => AutocompleteRequest::Skills(AutocompleteSkillsRequest {
            query: q,
            ..Default::default()
        }),
        other => {
            return Err(format!(
                "kind {other:?}: companies, keywords, job_titles, locations or skills"
            ));
        }
    })
}

fn suggestions(r: &AutocompleteResponse) -> Value {
    let v = match r {
        AutocompleteResponse::Companies(x) => serde_json::to_value(x),
        AutocompleteResponse::Keywords(x) => serde_json::to_value(x),
        AutocompleteResponse::JobTitles(x) => serde_json::to_value(x),
        AutocompleteResponse::Locations(x) => serde_json::to_value(x),
        AutocompleteResponse::Skills(x) => serde_json::to_value(x),
    };
    v.unwrap_or(Value::Null)
}

#[tool_router(router = more_tools, vis = "pub(crate)")]
impl Prospect {
    /// Type-ahead suggestions.
    #[tool(
        description = "Type-ahead suggestions for a filter's values: companies (by name), keywords, job_titles, locations or skills. Costs 0.1 standard credits a call (the same query again in this session is free).",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn autocomplete(&self, Parameters(p): Parameters<AutocompleteParams>) -> CallToolResult {
        let req = match autocomplete_request(&p.kind, &p.query) {
            Ok(r) => r,
            Err(e) => return failed(e),
        };
        let price = prospect_api::cost::estimate_endpoint(req.endpoint());
        if let Err(why) = crate::gate::reserve(&self.budget, &price) {
            return failed(format!("autocomplete: {why}; nothing was sent"));
        }
        let answer = self.session.suggest(&req).await;
        let charged = answer.as_ref().map_or(price, |paid| paid.charged);
        let (spent, left) = charge(&self.budget, price, charged);
        match answer {
            Ok(paid) => text(&serde_json::json!({
                "suggestions": suggestions(&paid.value),
                "spent": Credits::from(paid.charged),
                "sessionSpent": spent,
                "sessionLeft": left,
            })),
            Err(e) => failed(e.user_message()),
        }
    }

    /// An enrichment of one person.
    #[tool(
        description = "Enrich one person (POST /v2/enrich/person), matched by id, linkedinUrl, email, or name with domain. Costs 3 standard credits; a person the store owns costs 0. Plans first, as search_companies.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn enrich_person(
        &self,
        Parameters(p): Parameters<EnrichPersonParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Json<Paid<PersonRow>> {
        let action = Action::EnrichPerson {
            request: serde_json::json!({ "person": p.person }),
        };
        let (events, ran) = match self.gate_and_run(&action, &p.spend, &ctx).await {
            Ok(r) => r,
            Err(answer) => return Json(answer),
        };
        let mut rows = Vec::new();
        for e in events {
            if let Event::Answer(a) = e
                && let engine::Answer::Person(paid) = *a
                && let Enriched::Found(r) = paid.value
            {
                let person = prospect_api::types::LookalikePerson {
                    person: r.person,
                    ..Default::default()
                };
                rows.push(PersonRow::of(&person, &p.fields));
            }
        }
        Json(ran.answer(rows))
    }

    /// A batch enrichment of companies.
    #[tool(
        description = "Enrich many companies by domain (POST /v2/enrich/companies), results by webhook, awaited up to wait_seconds. Costs 0.1 standard credits per company; companies the store owns cost 0. Plans first, as search_companies.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn enrich_companies(
        &self,
        Parameters(p): Parameters<EnrichCompaniesParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Json<Paid<CompanyRow>> {
        let action = Action::EnrichCompanies {
            keys: KeySource::List(p.domains.clone()),
        };
        let (arrived, ran) = match self
            .gate_and_send(&action, &p.spend, p.wait_seconds, &ctx)
            .await
        {
            Ok(r) => r,
            Err(answer) => return Json(answer),
        };
        let mut rows = Vec::new();
        if let Some(engine::Arrived::Companies(r, arrived)) = &arrived {
            for c in r.from_store.values().chain(arrived.values()) {
                rows.push(CompanyRow::of(&c.value, &p.fields));
            }
        }
        Json(ran.answer(rows))
    }

    /// A segmentation of company domains.
    #[tool(
        description = "Segment company domains (your customers) into groups with shared traits (POST /v2/segmentation). Costs 0.1 standard credits per distinct domain, once per input (the same input again is owned). Returns its id; read it with segmentation_read. Plans first, as search_companies.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn segmentation_create(
        &self,
        Parameters(p): Parameters<SegmentParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Json<Paid<i64>> {
        let action = Action::Segment {
            request: serde_json::json!({ "domains": p.domains }),
        };
        let (events, ran) = match self.gate_and_run(&action, &p.spend, &ctx).await {
            Ok(r) => r,
            Err(answer) => return Json(answer),
        };
        let rows = events
            .into_iter()
            .filter_map(|e| match e {
                Event::Answer(a) => match *a {
                    engine::Answer::Segmentation(paid) => Some(paid.value.segmentation_id),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        Json(ran.answer(rows))
    }

    /// A segmentation's segments.
    #[tool(
        description = "A segmentation's status and segments (name, companies, traits, lookalike count). Free.",
        annotations(read_only_hint = true, open_world_hint = true)
    )]
    async fn segmentation_read(
        &self,
        Parameters(p): Parameters<SegmentationParams>,
    ) -> CallToolResult {
        match self.session.segmentation(p.id).await {
            Ok(s) => text(&s),
            Err(e) => failed(e.user_message()),
        }
    }

    /// Marks domains a good or poor fit.
    #[tool(
        description = "Mark domains a good (positive) or poor (negative) fit of a segmentation, to steer later attributions. Free.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn segmentation_mark(
        &self,
        Parameters(p): Parameters<SegmentationParams>,
    ) -> CallToolResult {
        let kind = match p.mark.as_deref() {
            Some("negative") => MarkType::Negative,
            Some("positive") | None => MarkType::Positive,
            Some(other) => return failed(format!("mark {other:?}: positive or negative")),
        };
        let n = p.domains.len();
        match self.session.mark_segmentation(p.id, kind, p.domains).await {
            Ok(()) => text(&serde_json::json!({ "marked": n })),
            Err(e) => failed(e.user_message()),
        }
    }

    /// Attributes domains to segments.
    #[tool(
        description = "Each domain's closest segment of a segmentation and its fit score. Free.",
        annotations(read_only_hint = true, open_world_hint = true)
    )]
    async fn segmentation_attribute(
        &self,
        Parameters(p): Parameters<SegmentationParams>,
    ) -> CallToolResult {
        match self.session.attribute_segmentation(p.id, &p.domains).await {
            Ok(r) => text(&r),
            Err(e) => failed(e.user_message()),
        }
    }

    /// Warms up domains.
    #[tool(
        description = "Ask the service to gather data on domains it may not know yet (POST /v2/warmup/companies). Free.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn warmup(&self, Parameters(p): Parameters<WarmupParams>) -> CallToolResult {
        match self
            .session
            .warmup(&WarmupCompaniesRequest { domains: p.domains })
            .await
        {
            Ok(r) => text(&r),
            Err(e) => failed(e.user_message()),
        }
    }

    /// What the store owns.
    #[tool(
        description = "Export what the store owns, at 0 credits: companies, people (contacts joined) or contacts (revealed emails and phones), oldest first, at most limit (default 100).",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn export_owned(&self, Parameters(p): Parameters<ExportParams>) -> CallToolResult {
        let Some(owned) = self.owned.clone() else {
            return failed("the store cannot be read here");
        };
        let limit = p.limit.unwrap_or(100);
        let kind = p.kind.clone();
        let rows = tokio::task::spawn_blocking(move || {
            let o = owned.lock().unwrap_or_else(|e| e.into_inner());
            let mut rows: Vec<Value> = Vec::new();
            let full = || std::io::Error::other("enough");
            let r = match kind.as_str() {
                "companies" => o.for_each_company(|c| {
                    rows.push(serde_json::to_value(CompanyRow::of(&c.value, &[]))?);
                    if rows.len() >= limit {
                        Err(full())
                    } else {
                        Ok(())
                    }
                }),
                "people" => o.for_each_person_joined(|p| {
                    rows.push(serde_json::to_value(PersonRow::of(&p, &[]))?);
                    if rows.len() >= limit {
                        Err(full())
                    } else {
                        Ok(())
                    }
                }),
                "contacts" => o.for_each_contact(|c| {
                    rows.push(serde_json::json!({
                        "personId": c.person_id, "kind": c.kind.as_str(), "email": c.email,
                        "phones": c.phones, "status": c.status,
                    }));
                    if rows.len() >= limit {
                        Err(full())
                    } else {
                        Ok(())
                    }
                }),
                other => return Err(format!("kind {other:?}: companies, people or contacts")),
            };
            match r {
                Err(e) if rows.len() < limit => Err(e.to_string()),
                _ => Ok(rows),
            }
        })
        .await;
        match rows {
            Ok(Ok(rows)) => text(&rows),
            Ok(Err(e)) => failed(e),
            Err(e) => failed(e),
        }
    }

    /// Adds entries to a suppression category.
    #[tool(
        description = "Add company domains or person ids to a suppression category (customers, competitors, do-not-contact…): suppressed entities are never searched, revealed or paid for again, by any front end on this store. Free; writes the store.",
        annotations(
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn suppress(&self, Parameters(p): Parameters<SuppressParams>) -> CallToolResult {
        use prospect_core::owned::SuppressKind;
        let Some(owned) = self.owned.clone() else {
            return failed("the store cannot be written here");
        };
        let entries: Vec<(SuppressKind, String)> = p
            .domains
            .iter()
            .filter_map(|d| prospect_common::keys::domain_key(d))
            .map(|d| (SuppressKind::Domain, d))
            .chain(
                p.person_ids
                    .iter()
                    .map(|i| (SuppressKind::Person, i.trim().to_string())),
            )
            .collect();
        let category = p.category.clone();
        let r = tokio::task::spawn_blocking(move || {
            let mut o = owned.lock().unwrap_or_else(|e| e.into_inner());
            o.suppress(&category, "mcp", &entries)
                .map_err(|e| e.to_string())
        })
        .await;
        match r {
            Ok(Ok(added)) => text(&serde_json::json!({ "category": p.category, "added": added })),
            Ok(Err(e)) => failed(e),
            Err(e) => failed(e),
        }
    }
}
