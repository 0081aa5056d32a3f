//! Authentication (SPEC.md §5): the token comes as query parameter `apiToken` or header
//! `x-api-token`; both present and different → 400, none → 403, unknown → 403.
//! Empty values count as absent. Tokens are never logged; see [`super::accounts::token_tag`].

use std::sync::Arc;

use axum::http::{HeaderMap, Uri};

use super::accounts::{Account, Accounts};
use super::error::{Failure, texts};

/// Name of the token header.
pub const TOKEN_HEADER: &str = "x-api-token";
/// Name of the token query parameter.
pub const TOKEN_QUERY: &str = "apiToken";

/// The token given in the query string, if any (last `apiToken` wins, empty is absent).
fn query_token(uri: &Uri) -> Option<String> {
    let q = uri.query()?;
    url::form_urlencoded::parse(q.as_bytes())
        .filter(|(k, _)| k == TOKEN_QUERY)
        .map(|(_, v)| v.into_owned())
        .last()
        .filter(|v| !v.is_empty())
}

/// The token given in the header, if any (a header that is not valid text counts as a token no
/// account has).
fn header_token(headers: &HeaderMap) -> Option<String> {
    let v = headers.get(TOKEN_HEADER)?;
    let s = String::from_utf8_lossy(v.as_bytes()).into_owned();
    (!s.is_empty()).then_some(s)
}

/// Finds the account of the request (SPEC.md §5), or the 400/403 answer.
pub fn authenticate(
    accounts: &Accounts,
    headers: &HeaderMap,
    uri: &Uri,
) -> Result<Arc<Account>, Failure> {
    let token = match (query_token(uri), header_token(headers)) {
        (Some(q), Some(h)) if q != h => {
            return Err(Failure::bad_request(texts::CONFLICTING_TOKENS));
        }
        (Some(t), _) | (None, Some(t)) => t,
        (None, None) => return Err(Failure::forbidden(texts::MISSING_TOKEN)),
    };
    accounts
        .get(&token)
        .ok_or_else(|| Failure::forbidden(texts::UNKNOWN_TOKEN))
}

#[cfg(test)]
mod tests {
    use super::super::accounts::AccountSpec;
    use super::*;

    #[test]
    fn the_four_cases() {
        let acc = Accounts::new(&[AccountSpec::ample("good")], 60, 1000);
        let mut h = HeaderMap::new();
        let u: Uri = "/v2/data-fields".parse().unwrap();
        assert_eq!(
            authenticate(&acc, &h, &u).unwrap_err(),
            Failure::forbidden(texts::MISSING_TOKEN)
        );
        let u2: Uri = "/v2/data-fields?apiToken=good".parse().unwrap();
        assert!(authenticate(&acc, &h, &u2).is_ok());
        h.insert(TOKEN_HEADER, "good".parse().unwrap());
        assert!(authenticate(&acc, &h, &u2).is_ok());
        assert!(authenticate(&acc, &h, &u).is_ok());
        h.insert(TOKEN_HEADER, "other".parse().unwrap());
        assert_eq!(
            authenticate(&acc, &h, &u2).unwrap_err(),
            Failure::bad_request(texts::CONFLICTING_TOKENS)
        );
        assert_eq!(
            authenticate(&acc, &h, &u).unwrap_err(),
            Failure::forbidden(texts::UNKNOWN_TOKEN)
        );
    }
}
