//! Cost estimates for every request type of the 19 endpoints, from the one price table
//! (NOTES.md "Credit costs").

use prospect::api::client::{ApiRequest, Endpoint};
use prospect::api::cost::{
    Cost, CreditPool, DEFAULT_PRICES, PriceTable, estimate, estimate_endpoint,
};
use prospect::api::types::*;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

fn req<T: DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{v}: {e}"))
}

fn est<R: ApiRequest + DeserializeOwned>(v: Value) -> Cost {
    estimate(&req::<R>(v)).rounded()
}

fn std(x: f64) -> Cost {
    Cost {
        standard: x,
        ..Cost::ZERO
    }
}

#[test]
fn the_price_table_is_the_notes_table() {
    let p = PriceTable::default();
    assert_eq!(p, DEFAULT_PRICES);
    assert_eq!(p.enrich_person, 3.0);
    assert_eq!(p.search_people_v2_lookalike, 3.0);
    assert_eq!(p.search_people_v2, 1.0);
    assert_eq!(p.search_per_result, 0.2);
    assert_eq!(p.enrich_company, 0.1);
    assert_eq!(p.lookup_per_result, 0.05);
    assert_eq!(p.autocomplete, 0.1);
    assert_eq!(p.email_reveal, 1.0);
    assert_eq!(p.phone_reveal, 1.0);
}

#[test]
fn autocomplete_costs_a_tenth_per_call() {
    assert_eq!(
        est::<AutocompleteCompaniesRequest>(json!({"name": "acm"})),
        std(0.1)
    );
    assert_eq!(
        est::<AutocompleteKeywordsRequest>(json!({"query": "saas"})),
        std(0.1)
    );
    assert_eq!(
        est::<AutocompleteJobTitlesRequest>(json!({"query": "cto"})),
        std(0.1)
    );
    assert_eq!(
        est::<AutocompleteLocationsRequest>(json!({"query": "ber", "locationType": "companies"})),
        std(0.1)
    );
    assert_eq!(
        est::<AutocompleteSkillsRequest>(json!({"query": "rust"})),
        std(0.1)
    );
}

#[test]
fn searches_cost_per_result_up_to_size() {
    assert_eq!(
        est::<SearchCompaniesV2Request>(json!({})),
        std(10.0),
        "default size 50"
    );
    assert_eq!(
        est::<SearchCompaniesV3Request>(json!({"size": 100})),
        std(20.0)
    );
    assert_eq!(est::<SearchPeopleV3Request>(json!({"size": 10})), std(2.0));
    assert_eq!(
        est::<SearchPeoplePreviewRequest>(json!({"size": 5})),
        std(1.0)
    );
    assert_eq!(est::<SearchPeopleV2Request>(json!({"size": 10})), std(10.0));
    assert_eq!(
        est::<SearchPeopleV2Request>(json!({
            "size": 10,
            "companiesFilters": {"lookalikeDomains": ["acme.com"]},
        })),
        std(30.0)
    );
    assert_eq!(
        est::<SearchPeopleV2Request>(json!({
            "size": 4,
            "revealEmails": {"includeEmails": true, "webhookUrl": "http://h/e"},
            "revealPhones": {"includePhones": true, "webhookUrl": "http://h/p"},
        })),
        Cost {
            standard: 4.0,
            email: 4.0,
            phone: 4.0
        }
    );
}

#[test]
fn enrich_lookup_reveal_and_free_endpoints() {
    assert_eq!(
        est::<EnrichCompanyRequest>(json!({"company": {"domain": "acme.com"}})),
        std(0.1)
    );
    assert_eq!(
        est::<EnrichPersonRequest>(json!({"person": {"name": "Ada"}})),
        std(3.0)
    );
    assert_eq!(
        est::<EnrichPersonRequest>(json!({
            "person": {"name": "Ada"},
            "revealEmails": {"includeEmails": true},
            "revealPhones": {"includePhones": true, "webhookUrl": "http://h/p"},
        })),
        Cost {
            standard: 3.0,
            email: 1.0,
            phone: 1.0
        }
    );
    let domains: Vec<String> = (0..20).map(|i| format!("d{i}.com")).collect();
    assert_eq!(
        est::<LookupCompaniesRequest>(json!({ "domains": domains })),
        std(1.0)
    );
    assert_eq!(
        est::<LookupPeopleRequest>(json!({"linkedinHandles": ["a", "b"], "serviceIds": ["c"]})),
        std(0.15)
    );
    assert_eq!(
        est::<RevealEmailsRequest>(json!({"personIds": ["1", "2", "3"], "webhookUrl": "http://h"})),
        Cost::in_pool(CreditPool::Email, 3.0)
    );
    assert_eq!(
        est::<RevealPhonesRequest>(json!({"personIds": ["1", "2"], "webhookUrl": "http://h"})),
        Cost::in_pool(CreditPool::Phone, 2.0)
    );
    assert!(est::<WarmupCompaniesRequest>(json!({"domains": ["a.com"]})).is_zero());
    assert!(estimate_endpoint(Endpoint::DataFields).is_zero());
    assert!(estimate_endpoint(Endpoint::CreditBalance).is_zero());
}
