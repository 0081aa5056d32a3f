//! A request as a curl command, for sharing and debugging (the CLI's `curl FILE`, the
//! explorer's `C`): the token appears as `$PROSPECT_API_TOKEN`, never its value.

use serde_json::Value;

use prospect_api::client::Endpoint;

/// The curl command of a request: POST of `body` to `endpoint`, the token as
/// `$PROSPECT_API_TOKEN` (never its value), the body single-quoted for a POSIX shell.
pub fn curl_command(base_url: &str, endpoint: Endpoint, body: &Value) -> String {
    let json = serde_json::to_string(body).unwrap_or_else(|_| "{}".into());
    let quoted = format!("'{}'", json.replace('\'', "'\\''"));
    format!(
        "curl -s -X {} \"{}{}\" -H \"x-api-token: $PROSPECT_API_TOKEN\" -H 'content-type: application/json' -d {quoted}",
        endpoint.method(),
        base_url.trim_end_matches('/'),
        endpoint.path()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curl_never_holds_the_token_and_quotes_the_body() {
        let c = curl_command(
            "https://api.example.com/",
            Endpoint::SearchCompaniesV3,
            &serde_json::json!({"companiesFilters": {"keywords": {"keywords": ["it's"]}}}),
        );
        assert!(c.contains("$PROSPECT_API_TOKEN"));
        assert!(c.contains("https://api.example.com/v3/search/companies"));
        assert!(c.contains(r#"it'\''s"#), "{c}");
    }
}
