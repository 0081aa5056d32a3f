//! What an agent reads at 0 credits (issue 36), as JSON: the full records
//! (`prospect://company/{domain}`, `prospect://person/{id}`, from the store, contacts joined),
//! and what the user keeps: saved filter sets (`prospect://sets`, `prospect://sets/{name}`),
//! lists (`prospect://lists`), segmentations (`prospect://segmentations`) and the recent history
//! of searches bought (`prospect://history`).

use rmcp::ErrorData as McpError;
use rmcp::model::{ReadResourceResponse, ReadResourceResult, ResourceContents, ResourceTemplate};

use prospect_core::session::Session;

/// The fixed resources: the sets, lists, segmentations and history.
pub fn fixed() -> Vec<rmcp::model::Resource> {
    use rmcp::model::Resource;
    [
        (
            "prospect://sets",
            "sets",
            "The saved filter sets, by name, each with its searches.",
        ),
        (
            "prospect://lists",
            "lists",
            "The named lists with their member counts, and the suppression categories.",
        ),
        (
            "prospect://segmentations",
            "segmentations",
            "The segmentations bought, newest first.",
        ),
        (
            "prospect://history",
            "history",
            "The 50 searches bought most recently.",
        ),
    ]
    .into_iter()
    .map(|(uri, name, what)| {
        let mut r = Resource::new(uri, name);
        r.description = Some(what.to_string());
        r.mime_type = Some("application/json".into());
        r
    })
    .collect()
}

/// The company, person and set templates.
pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new("prospect://search/{id}", "search")
            .with_description(
                "A search bought (its id from the history): its request and every stored page's rows, compact (0 credits).",
            )
            .with_mime_type("application/json"),
        ResourceTemplate::new("prospect://sets/{name}", "set")
            .with_description("A saved filter set: the request bodies of its searches.")
            .with_mime_type("application/json"),
        ResourceTemplate::new("prospect://company/{domain}", "company")
            .with_description("A company the store holds, by domain: its full record (0 credits).")
            .with_mime_type("application/json"),
        ResourceTemplate::new("prospect://person/{id}", "person")
            .with_description(
                "A person the store holds, by the service's id: the full record with the contacts revealed (0 credits).",
            )
            .with_mime_type("application/json"),
    ]
}

fn json(uri: &str, v: &impl serde::Serialize) -> ReadResourceResponse {
    let mut contents = ResourceContents::text(
        serde_json::to_string_pretty(v).unwrap_or_default(),
        uri.to_string(),
    );
    if let ResourceContents::TextResourceContents { mime_type, .. } = &mut contents {
        *mime_type = Some("application/json".into());
    }
    ReadResourceResult::new(vec![contents]).into()
}

/// The saved set `name` of `dir` as JSON: each search's endpoint and body.
fn set_json(dir: &std::path::Path, name: &str) -> Option<serde_json::Value> {
    let path = prospect_core::filter_set::path_of(dir, name).ok()?;
    let set = prospect_core::filter_set::load(&path).ok()?;
    Some(serde_json::Value::Array(
        set.searches()
            .into_iter()
            .map(|(e, body)| serde_json::json!({"endpoint": e.path(), "body": body}))
            .collect(),
    ))
}

/// Reads `uri`: a record from the store, or what the user keeps (sets from `sets_dir`).
/// Errors: not one of the resources (invalid params), or nothing stored under it (resource
/// not found: it was never bought or saved).
pub async fn read(
    s: &Session,
    sets_dir: &std::path::Path,
    uri: &str,
) -> Result<ReadResourceResponse, McpError> {
    if let Some(answer) = kept(s, sets_dir, uri).await? {
        return Ok(answer);
    }
    if let Some(id) = uri.strip_prefix("prospect://search/") {
        return search(s, uri, id).await;
    }
    record(s, sets_dir, uri).await
}

/// The fixed resources (sets, lists, segmentations, history); `None` for another URI.
async fn kept(
    s: &Session,
    sets_dir: &std::path::Path,
    uri: &str,
) -> Result<Option<ReadResourceResponse>, McpError> {
    let store = |e: String| McpError::internal_error(format!("the store: {e}"), None);
    Ok(Some(match uri {
        "prospect://sets" => {
            let names = prospect_core::filter_set::list(sets_dir)
                .map_err(|e| McpError::internal_error(e.to_string(), None))?;
            let all: serde_json::Map<String, serde_json::Value> = names
                .iter()
                .filter_map(|n| set_json(sets_dir, n).map(|v| (n.clone(), v)))
                .collect();
            json(uri, &all)
        }
        "prospect://lists" => {
            let (lists, suppression) = s.lists_overview().await.map_err(store)?;
            let lists: Vec<serde_json::Value> = lists
                .iter()
                .map(|l| serde_json::json!({"name": l.name, "kind": l.kind.as_str(), "members": l.members}))
                .collect();
            json(
                uri,
                &serde_json::json!({"lists": lists, "suppression": suppression}),
            )
        }
        "prospect://segmentations" => {
            let rows: Vec<serde_json::Value> = s
                .stored_segmentations(100)
                .await
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "id": r.id, "domains": r.domains, "status": prospect_api::types::WireEnum::as_str(&r.status),
                        "createdAt": r.created_at.to_rfc3339(), "segments": r.answer.as_ref().map(|a| &a.segments),
                    })
                })
                .collect();
            json(uri, &rows)
        }
        "prospect://history" => {
            let rows: Vec<serde_json::Value> = s
                .history(50)
                .await
                .map_err(store)?
                .iter()
                .map(|h| {
                    serde_json::json!({
                        "id": h.id.0, "endpoint": h.endpoint, "body": h.body, "pages": h.pages,
                        "total": h.total, "lastRunAt": h.last_run_at.to_rfc3339(),
                    })
                })
                .collect();
            json(uri, &rows)
        }
        _ => return Ok(None),
    }))
}

/// `prospect://search/{id}`: a search bought, its rows compact.
async fn search(s: &Session, uri: &str, id: &str) -> Result<ReadResourceResponse, McpError> {
    let id: i64 = id
        .parse()
        .map_err(|_| McpError::invalid_params(format!("{uri}: the id is a number"), None))?;
    let stored = s
        .reopen(prospect_core::owned::SearchId(id))
        .await
        .map_err(|e| McpError::resource_not_found(format!("{uri}: {e}"), None))?;
    let mut rows: Vec<serde_json::Value> = Vec::new();
    for page in stored.pages {
        let people = prospect_core::export::people_of(page.response.clone());
        if people.is_empty() {
            for c in prospect_core::export::companies_of(page.response) {
                rows.push(
                    serde_json::to_value(crate::shapes::CompanyRow::of(&c.company, &[]))
                        .unwrap_or_default(),
                );
            }
        } else {
            for p in people {
                rows.push(
                    serde_json::to_value(crate::shapes::PersonRow::of(&p, &[])).unwrap_or_default(),
                );
            }
        }
    }
    Ok(json(
        uri,
        &serde_json::json!({
            "id": id, "endpoint": stored.request.endpoint().path(), "body": stored.body,
            "rows": rows, "suppressedSince": stored.suppressed,
        }),
    ))
}

/// A saved set, a company or a person.
async fn record(
    s: &Session,
    sets_dir: &std::path::Path,
    uri: &str,
) -> Result<ReadResourceResponse, McpError> {
    if let Some(name) = uri.strip_prefix("prospect://sets/") {
        return set_json(sets_dir, name)
            .map(|v| json(uri, &v))
            .ok_or_else(|| {
                McpError::resource_not_found(format!("{uri}: no saved set of that name"), None)
            });
    }
    let not_found = || {
        McpError::resource_not_found(
            format!("{uri}: the store holds no such record (buy it with a lookup first)"),
            None,
        )
    };
    if let Some(domain) = uri.strip_prefix("prospect://company/") {
        let key = prospect_common::keys::normalize_domain(domain);
        let found = s.stored_companies(std::slice::from_ref(&key)).await;
        let c = found.into_values().next().ok_or_else(not_found)?;
        return Ok(json(uri, &c.value));
    }
    if let Some(id) = uri.strip_prefix("prospect://person/") {
        let item = prospect_core::engine::person_item(id).ok_or_else(not_found)?;
        let found = s.stored_people_of(std::slice::from_ref(&item)).await;
        let p = found.into_values().next().ok_or_else(not_found)?;
        let mut person = p.value;
        s.join_contacts(&mut [&mut person]).await;
        return Ok(json(uri, &person));
    }
    Err(McpError::invalid_params(
        format!("{uri}: not a prospect:// company or person"),
        None,
    ))
}
