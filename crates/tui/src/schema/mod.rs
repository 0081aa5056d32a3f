//! The filter form's model: which members each search endpoint accepts (SPEC.md §2.4 and §2.5
//! for v2; openapi.json `CompaniesFiltersV3`, `PeopleFiltersV3`, `PublicSearch*BodyV3` for v3),
//! how each is edited, and reading/writing them at a JSON path of the request body.
//!
//! The form's state *is* the request body (a JSON object with `companiesFilters`,
//! `peopleFilters`, `size`...), so a saved filter set is the body itself and nothing is lost
//! when switching between endpoints: members the current endpoint does not know are listed
//! as "extra" and can be cleared.
mod body;
mod leaves;
mod sets;
mod switch;

use serde_json::Value;

use prospect_api::client::Endpoint;
use prospect_api::types::common::WireEnum;
use prospect_common::sanitize::sanitize;
use prospect_core::request::AutocompleteResponse;

pub use body::{extras, fmt_item, fmt_value, get, is_filled, parse_num, remove, set};
pub use leaves::{LEAVES, Leaf, LeafKind, Num, Source, leaves, leaves_by_section};
pub use sets::{DataFields, Opt, SetId};
pub use switch::{VersionSwitch, switch_version};

/// Results tab: what a search returns (companies or people). The tab is the API's
/// [`prospect_api::client::SearchSubject`]: one fact, one place.
pub use prospect_api::client::SearchSubject;

pub use prospect_core::request::SEARCHES;

/// The chooser's short label of a search, e.g. `v3 companies`; the path for anything else.
pub fn label(ep: Endpoint) -> &'static str {
    match ep {
        Endpoint::SearchCompaniesV3 => "v3 companies",
        Endpoint::SearchPeopleV3 => "v3 people",
        Endpoint::SearchCompaniesV2 => "v2 companies (deprecated)",
        Endpoint::SearchPeopleV2 => "v2 people (legacy)",
        other => other.path(),
    }
}

/// The results tab of a search endpoint (companies for anything that is not a search).
pub fn tab_of(ep: Endpoint) -> SearchSubject {
    ep.search_subject().unwrap_or(SearchSubject::Companies)
}

/// The search of `kind` in the version of `ep` (e.g. v3 companies → v3 people).
pub fn with_kind(ep: Endpoint, kind: SearchSubject) -> Endpoint {
    Endpoint::search(kind, ep.version())
}

/// The autocomplete a list member takes its suggestions from (each call costs 0.1 credit).
pub use prospect_api::client::AutocompleteKind;

/// Suggestions of an autocomplete answer: `(label shown, value put into the request body)`.
/// Labels are sanitized; values are built from the typed fields: a domain (companies), the
/// text (keywords, job titles, skills) or `{"city": name, "country": cc}` (locations, the
/// shape of the city filters). Company entries without a domain are skipped, as are locations
/// without a name.
pub fn suggestions(resp: &AutocompleteResponse) -> Vec<(String, Value)> {
    let strings = |list: &[String]| -> Vec<(String, Value)> {
        list.iter()
            .map(|s| (sanitize(s), Value::String(s.clone())))
            .collect()
    };
    match resp {
        AutocompleteResponse::Companies(r) => r
            .companies
            .iter()
            .filter(|c| !c.domain.is_empty())
            .map(|c| {
                let label = match c.name.as_deref().filter(|n| !n.is_empty()) {
                    Some(name) => format!("{name} ({})", c.domain),
                    None => c.domain.clone(),
                };
                (sanitize(&label), Value::String(c.domain.clone()))
            })
            .collect(),
        AutocompleteResponse::Keywords(r) => strings(&r.keywords),
        AutocompleteResponse::JobTitles(r) => strings(&r.job_titles),
        AutocompleteResponse::Skills(r) => strings(&r.skills),
        AutocompleteResponse::Locations(r) => r
            .locations
            .iter()
            .filter(|l| !l.name.is_empty())
            .map(|l| {
                let cc = l.country_code.to_lowercase();
                let ty = l.kind.as_str();
                let label = if l.parent_name.is_empty() {
                    format!("{} ({cc}) {ty}", l.name)
                } else {
                    format!("{}, {} ({cc}) {ty}", l.name, l.parent_name)
                };
                (
                    sanitize(&label),
                    serde_json::json!({ "city": l.name, "country": cc }),
                )
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn suggestions_come_from_the_typed_answers() {
        use prospect_api::types::{AutocompleteCompaniesResponse, AutocompleteLocationsResponse};
        let r: AutocompleteCompaniesResponse = serde_json::from_value(json!({"companies": [
            {"name": "Acme\u{1b}[31m", "domain": "acme.com"}, {"domain": ""}, {"domain": "b.io"}]}))
        .unwrap();
        let s = suggestions(&AutocompleteResponse::Companies(r));
        assert_eq!(
            s,
            vec![
                ("Acme (acme.com)".to_string(), json!("acme.com")),
                ("b.io".to_string(), json!("b.io"))
            ]
        );
        let r: AutocompleteLocationsResponse = serde_json::from_value(json!({"locations": [
            {"name": "Berlin", "countryCode": "DE", "type": "4-city", "parentName": "Berlin"}]}))
        .unwrap();
        let s = suggestions(&AutocompleteResponse::Locations(r));
        assert_eq!(s[0].0, "Berlin, Berlin (de) 4-city");
        assert_eq!(s[0].1, json!({"city": "Berlin", "country": "de"}));
    }

    #[test]
    fn ac_kinds_are_the_autocomplete_endpoints() {
        for k in [
            AutocompleteKind::Companies,
            AutocompleteKind::Keywords,
            AutocompleteKind::JobTitles,
            AutocompleteKind::Locations,
            AutocompleteKind::Skills,
        ] {
            assert!(k.endpoint().is_autocomplete());
        }
        assert_eq!(tab_of(Endpoint::SearchPeopleV2), SearchSubject::People);
        assert_eq!(
            with_kind(Endpoint::SearchPeopleV2, SearchSubject::Companies),
            Endpoint::SearchCompaniesV2
        );
    }
}
