//! The full records an agent reads at 0 credits (issue 36): `prospect://company/{domain}` and
//! `prospect://person/{id}`, from the store (what was bought, contacts joined), as JSON.

use rmcp::ErrorData as McpError;
use rmcp::model::{ReadResourceResponse, ReadResourceResult, ResourceContents, ResourceTemplate};

use prospect_core::session::Session;

/// The company and person templates.
pub fn templates() -> Vec<ResourceTemplate> {
    vec![
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

/// Reads `uri` from the store. Errors: not one of the templates (invalid params), or nothing
/// stored under it (resource not found: it was never bought).
pub async fn read(s: &Session, uri: &str) -> Result<ReadResourceResponse, McpError> {
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
