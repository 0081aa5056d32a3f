//! Every example of openapi.json, for every schema reachable from the 19 endpoints of SPEC.md §4
//! and the six webhooks of SPEC.md §6, read into our wire type, written back, and checked
//! against the openapi schema (issue 2, "Done when").
//!
//! openapi.json (a copy in `tests/data/`) holds property-level `examples` only. For an example
//! of member `p` of schema `S`, the instance is a minimal `S` (required members synthesized from
//! their schemas) with `p` set to the example. The test then
//! 1. checks the instance against `S` (to tell openapi.json's own inconsistent examples apart:
//!    those must be listed in [`KNOWN_INVALID`] with what our types do with them);
//! 2. deserializes it into our type (requests must also pass `Validate`), serializes it back;
//! 3. validates the output against `S` with the `jsonschema` crate (openapi 3.0-style
//!    `nullable: true` rewritten to type unions, `$ref` resolved against the whole document);
//! 4. checks nothing was lost: every non-null input member is in the output with the same value
//!    (this catches misspelt member names, which a tolerant reader would silently drop).
//!
//! Besides, every schema is also exercised with a fully synthesized instance (every member set),
//! so schemas without examples (e.g. `ContactNumber`, `WebTraffic`) are checked too.

use std::collections::{BTreeMap, BTreeSet};

use prospect::api::types::*;
use serde::{Serialize, de::DeserializeOwned};
use serde_json::{Value, json};

type RoundTrip = fn(&Value) -> Result<Value, String>;

fn rt<T: DeserializeOwned + Serialize>(v: &Value) -> Result<Value, String> {
    let t: T = serde_json::from_value(v.clone()).map_err(|e| format!("read: {e}"))?;
    serde_json::to_value(&t).map_err(|e| format!("write: {e}"))
}

fn rtv<T: DeserializeOwned + Serialize + Validate>(v: &Value) -> Result<Value, String> {
    let t: T = serde_json::from_value(v.clone()).map_err(|e| format!("read: {e}"))?;
    let errs = t.validate();
    if !errs.is_empty() {
        return Err(format!("validate: {errs:?}"));
    }
    serde_json::to_value(&t).map_err(|e| format!("write: {e}"))
}

/// openapi schema name → our type.
fn table() -> BTreeMap<&'static str, RoundTrip> {
    let rows: Vec<(&'static str, RoundTrip)> = vec![
        // common.rs (lead)
        ("FromTo", rt::<FromTo>),
        ("FromToFloat", rt::<FromToFloat>),
        ("FromToStringDate", rt::<FromToStringDate>),
        ("RevealEmails", rt::<RevealEmails>),
        ("RevealPhones", rt::<RevealPhones>),
        ("ValidationError", rt::<ValidationError>),
        ("HTTPValidationError", rt::<HttpValidationError>),
        ("CompanyField", rt::<CompanyField>),
        ("Department", rt::<Department>),
        ("FundingRoundType", rt::<FundingRoundType>),
        ("HeadcountGrowthMonths", rt::<HeadcountGrowthMonths>),
        ("LocationSearchType", rt::<LocationSearchType>),
        ("LocationType", rt::<LocationType>),
        ("PersonCompanyField", rt::<PersonCompanyField>),
        ("PersonField", rt::<PersonField>),
        ("PublicCompanySize", rt::<CompanySize>),
        ("Revenue", rt::<Revenue>),
        ("Seniority", rt::<Seniority>),
        // company.rs
        ("PublicCompany", rt::<Company>),
        (
            "public_api__models__company__Location",
            rt::<CompanyLocation>,
        ),
        ("Medias", rt::<Medias>),
        ("Media", rt::<Media>),
        ("MobileApp", rt::<MobileApp>),
        ("WebTraffic", rt::<WebTraffic>),
        ("FundingRound", rt::<FundingRound>),
        ("Growth", rt::<HeadcountGrowth>),
        ("DepartmentSize", rt::<DepartmentSize>),
        ("DepartmentSizesGrowth", rt::<DepartmentSizesGrowth>),
        ("Impressum", rt::<Impressum>),
        ("ImpressumPerson", rt::<ImpressumPerson>),
        ("ContactNumber", rt::<ContactNumber>),
        ("PublicCompanyWithScore", rt::<CompanyWithScore>),
        ("PublicCompanyWithRelevance", rt::<CompanyWithRelevance>),
        (
            "PublicSearchCompaniesResult",
            rt::<SearchCompaniesV2Response>,
        ),
        (
            "PublicSearchCompaniesResultWithRelevance",
            rt::<SearchCompaniesV3Response>,
        ),
        // person.rs
        ("PublicPerson", rt::<Person>),
        ("Experience", rt::<Experience>),
        ("public_api__models__person__Email", rt::<Email>),
        ("public_api__models__person__Phone", rt::<Phone>),
        ("LookalikePerson", rt::<LookalikePerson>),
        ("PersonCompany", rt::<PersonCompany>),
        ("LookalikePeopleStatuses", rt::<LookalikePeopleStatuses>),
        (
            "PublicPersonWithCompanyPreview",
            rt::<PersonWithCompanyPreview>,
        ),
        ("PublicPersonPreviewBase", rt::<PersonPreviewBase>),
        ("PublicPreviewCompany", rt::<PreviewCompany>),
        ("PublicSearchPeopleResult", rt::<SearchPeopleV2Response>),
        ("LookalikePeopleResultV3", rt::<SearchPeopleV3Response>),
        (
            "PublicSearchPeopleResultPreviewV3",
            rt::<SearchPeoplePreviewResponse>,
        ),
        // enrich.rs
        ("Person", rt::<PersonMatch>),
        ("Company", rt::<CompanyMatch>),
        ("MatchPersonBody", rtv::<EnrichPersonRequest>),
        ("MatchCompanyBody", rtv::<EnrichCompanyRequest>),
        ("EnrichPersonResult", rt::<EnrichPersonResponse>),
        ("EnrichCompanyResult", rt::<EnrichCompanyResponse>),
        // lookup.rs
        ("LookupCompaniesRequest", rtv::<LookupCompaniesRequest>),
        ("LookupCompaniesResponse", rt::<LookupCompaniesResponse>),
        ("LookupPeopleRequest", rtv::<LookupPeopleRequest>),
        ("LookupPeopleResponse", rt::<LookupPeopleResponse>),
        // reveal.rs
        ("PublicRevealEmailBody", rtv::<RevealEmailsRequest>),
        ("PublicRevealPhoneBody", rtv::<RevealPhonesRequest>),
        ("PublicRevealEmailResult", rt::<RevealEmailsResponse>),
        ("PublicRevealPhoneResult", rt::<RevealPhonesResponse>),
        (
            "public_api__models__reveal_emails__Email",
            rt::<RevealEmail>,
        ),
        (
            "public_api__models__reveal_phones__Phone",
            rt::<RevealPhone>,
        ),
        // autocomplete.rs
        (
            "models__autocomplete_companies__AutoCompletionBody",
            rtv::<AutocompleteCompaniesRequest>,
        ),
        (
            "models__autocomplete_companies__AutoCompletionResult",
            rt::<AutocompleteCompaniesResponse>,
        ),
        ("AutoCompletionCompany", rt::<AutocompleteCompany>),
        (
            "models__autocomplete_keyword__AutoCompletionBody",
            rtv::<AutocompleteKeywordsRequest>,
        ),
        (
            "models__autocomplete_keyword__AutoCompletionResult",
            rt::<AutocompleteKeywordsResponse>,
        ),
        (
            "models__autocomplete_job_title__AutoCompletionBody",
            rtv::<AutocompleteJobTitlesRequest>,
        ),
        (
            "models__autocomplete_job_title__AutoCompletionResult",
            rt::<AutocompleteJobTitlesResponse>,
        ),
        (
            "models__autocomplete_locations__AutoCompletionBody",
            rtv::<AutocompleteLocationsRequest>,
        ),
        (
            "models__autocomplete_locations__AutoCompletionResult",
            rt::<AutocompleteLocationsResponse>,
        ),
        (
            "models__autocomplete_locations__Location",
            rt::<AutocompleteLocation>,
        ),
        (
            "models__autocomplete_skills__AutoCompletionBody",
            rtv::<AutocompleteSkillsRequest>,
        ),
        (
            "models__autocomplete_skills__AutoCompletionResult",
            rt::<AutocompleteSkillsResponse>,
        ),
        // account.rs
        ("GetCreditBalanceResponse", rt::<CreditBalance>),
        ("Credits", rt::<Credits>),
        ("PublicGetDataFieldsResponse", rt::<DataFields>),
        ("PublicIndustries", rt::<IndustryGroup>),
        ("PublicTechnology", rt::<Technology>),
        ("PublicCountryCodeToRegionMapping", rt::<Region>),
        ("WarmupCompaniesBody", rtv::<WarmupCompaniesRequest>),
        ("WarmupCompaniesResult", rt::<WarmupCompaniesResponse>),
        // webhooks.rs
        ("PublicRevealEmailWebhookResult", rt::<RevealEmailsWebhook>),
        ("PublicRevealPhoneWebhookResult", rt::<RevealPhonesWebhook>),
        (
            "PublicSearchPeopleEmailWebhookResult",
            rt::<PeopleSearchEmailsWebhook>,
        ),
        (
            "PublicSearchPeoplePhoneWebhookResult",
            rt::<PeopleSearchPhonesWebhook>,
        ),
        ("EmailWebhookPerson", rt::<EnrichPersonEmailWebhook>),
        ("PhoneWebhookPerson", rt::<EnrichPersonPhoneWebhook>),
        // filters_v2, filters_v3, search (T1)
        ("CompaniesFiltersV1", rt::<CompaniesFiltersV2>),
        ("PeopleFilters", rt::<PeopleFiltersV2>),
        ("IndustriesFilter", rt::<IndustriesFilter>),
        ("IndustryCategoriesFilter", rt::<IndustryCategoriesFilter>),
        ("KeywordsFilterV1", rt::<KeywordsFilterV2>),
        ("TechnologiesFilterV1", rt::<TechnologiesFilterV2>),
        ("SocialMediasFilterV1", rt::<SocialMediasFilterV2>),
        ("State", rt::<StateFilter>),
        ("CompaniesCityFilter", rt::<CityFilter>),
        ("GeolocationFilter", rt::<GeolocationFilter>),
        ("DepartmentSizeFilter", rt::<DepartmentSizeFilter>),
        ("FundingRoundFilter", rt::<FundingRoundFilter>),
        ("CompaniesFiltersV3", rt::<CompaniesFiltersV3>),
        ("PeopleFiltersV3", rt::<PeopleFiltersV3>),
        ("AllAnyNoneFilter", rt::<AllAnyNoneFilter>),
        (
            "AllAnyNoneFilterSocialMedia",
            rt::<AllAnyNoneFilterSocialMedia>,
        ),
        ("TechnologiesFilterV3", rt::<TechnologiesFilterV3>),
        ("SocialMediasFilterV3", rt::<SocialMediasFilterV3>),
        ("LocationsFilter", rt::<LocationsFilter>),
        ("HeadcountGrowthFilter", rt::<HeadcountGrowthFilter>),
        ("DepartmentGrowthFilter", rt::<DepartmentGrowthFilter>),
        (
            "DepartmentGrowthAllAnyFilter",
            rt::<DepartmentGrowthAllAnyFilter>,
        ),
        ("JobTitleKeywordsFilter", rt::<JobTitleKeywordsFilter>),
        ("SkillsFilter", rt::<SkillsFilter>),
        ("PeopleCityFilter", rt::<PeopleCityFilter>),
        ("ProfileDescriptionFilter", rt::<ProfileDescriptionFilter>),
        (
            "CurrentJobDescriptionFilter",
            rt::<CurrentJobDescriptionFilter>,
        ),
        ("AllJobDescriptionsFilter", rt::<AllJobDescriptionsFilter>),
        ("WebTrafficFilter", rt::<WebTrafficFilter>),
        ("MobileAppsFilter", rt::<MobileAppsFilter>),
        (
            "PublicSearchCompaniesBodyV1",
            rtv::<SearchCompaniesV2Request>,
        ),
        (
            "PublicSearchCompaniesBodyV3",
            rtv::<SearchCompaniesV3Request>,
        ),
        ("PublicSearchPeopleBody", rtv::<SearchPeopleV2Request>),
        ("PublicSearchPeopleBodyV3", rtv::<SearchPeopleV3Request>),
        (
            "PublicSearchPeopleBodyV3PreviewV3",
            rtv::<SearchPeoplePreviewRequest>,
        ),
    ];
    rows.into_iter().collect()
}

/// What our types do with an example that openapi.json's own schema rejects.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    /// Read (tolerant reader) and written back in a shape the schema accepts.
    Repaired,
    /// Read, and the unknown value is kept verbatim (so the output is as invalid as the input).
    Kept,
    /// Refused by a strict request type.
    Refused,
}

/// `(schema, member, example index, expectation)` for openapi.json's inconsistent examples.
const KNOWN_INVALID: &[(&str, &str, usize, Expect)] = &[
    // A single object where the schema says array (SPEC.md §2.8 shape; NOTES.md: accept both).
    (
        "PublicGetDataFieldsResponse",
        "technologies",
        0,
        Expect::Repaired,
    ),
    // Items without the required `address` / `numbers`: read as null / empty, written back.
    (
        "PublicRevealEmailWebhookResult",
        "emails",
        0,
        Expect::Repaired,
    ),
    (
        "PublicRevealPhoneWebhookResult",
        "phones",
        0,
        Expect::Repaired,
    ),
    // Items of a list given as separate examples: read as a one-item list.
    (
        "models__autocomplete_keyword__AutoCompletionResult",
        "keywords",
        0,
        Expect::Repaired,
    ),
    (
        "models__autocomplete_keyword__AutoCompletionResult",
        "keywords",
        1,
        Expect::Repaired,
    ),
    (
        "models__autocomplete_job_title__AutoCompletionResult",
        "jobTitles",
        0,
        Expect::Repaired,
    ),
    (
        "models__autocomplete_job_title__AutoCompletionResult",
        "jobTitles",
        1,
        Expect::Repaired,
    ),
    (
        "models__autocomplete_skills__AutoCompletionResult",
        "skills",
        0,
        Expect::Repaired,
    ),
    (
        "models__autocomplete_skills__AutoCompletionResult",
        "skills",
        1,
        Expect::Repaired,
    ),
    (
        "models__autocomplete_skills__AutoCompletionResult",
        "skills",
        2,
        Expect::Repaired,
    ),
    // "missing industry features" is not in the enum: kept as `DomainStatus::Unknown`.
    ("WarmupCompaniesResult", "dataErrors", 0, Expect::Kept),
    // An array for a single `region`: refused by T1's strict filter.
    ("CompaniesCityFilter", "region", 0, Expect::Refused),
    ("PeopleCityFilter", "region", 0, Expect::Refused),
    // snake_case `all_of`/`any_of`/`none_of`: T1 reads them as aliases and writes camelCase.
    ("CompaniesFiltersV3", "socialMedias", 0, Expect::Repaired),
    ("CompaniesFiltersV3", "technologies", 0, Expect::Repaired),
    ("CompaniesFiltersV3", "keywords", 0, Expect::Repaired),
];

fn load_openapi() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openapi.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("tests/data/openapi.json"))
        .expect("valid JSON")
}

/// openapi 3.0-style `nullable: true` → JSON Schema: a type union, `null` in `enum`, or
/// `anyOf [.., {type: null}]` around a `$ref`.
fn denull(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut o: serde_json::Map<String, Value> =
                m.iter().map(|(k, v)| (k.clone(), denull(v))).collect();
            if o.remove("nullable") == Some(Value::Bool(true)) {
                if let Some(t) = o.get("type").cloned() {
                    let mut ts = match t {
                        Value::Array(a) => a,
                        other => vec![other],
                    };
                    ts.push(json!("null"));
                    o.insert("type".into(), Value::Array(ts));
                    if let Some(Value::Array(e)) = o.get_mut("enum") {
                        e.push(Value::Null);
                    }
                } else {
                    let mut inner = serde_json::Map::new();
                    for k in ["$ref", "anyOf", "allOf", "oneOf"] {
                        if let Some(x) = o.remove(k) {
                            inner.insert(k.into(), x);
                        }
                    }
                    o.insert(
                        "anyOf".into(),
                        json!([Value::Object(inner), {"type": "null"}]),
                    );
                }
            }
            Value::Object(o)
        }
        Value::Array(a) => Value::Array(a.iter().map(denull).collect()),
        other => other.clone(),
    }
}

struct Doc {
    raw: Value,
    schemas_pre: Value,
}

impl Doc {
    fn schema(&self, name: &str) -> &Value {
        &self.raw["components"]["schemas"][name]
    }

    fn resolve<'a>(&'a self, s: &'a Value) -> &'a Value {
        match s.get("$ref").and_then(Value::as_str) {
            Some(r) => self.schema(r.rsplit('/').next().unwrap()),
            None => s,
        }
    }

    fn validator(&self, name: &str) -> jsonschema::Validator {
        let root = json!({"$ref": format!("#/components/schemas/{name}"), "components": {"schemas": self.schemas_pre}});
        jsonschema::draft202012::new(&root)
            .unwrap_or_else(|e| panic!("{name}: schema does not compile: {e}"))
    }

    /// A value of schema `s`: `full` sets every member (one item per list), else required only.
    fn synth(&self, s: &Value, full: bool, depth: usize) -> Value {
        let s = self.resolve(s);
        if let Some(e) = s.get("enum").and_then(Value::as_array) {
            return e[0].clone();
        }
        if let Some(a) = s.get("anyOf").and_then(Value::as_array) {
            let b = a
                .iter()
                .find(|b| b.get("type") != Some(&json!("null")))
                .unwrap_or(&a[0]);
            return self.synth(b, full, depth);
        }
        let ty = match s.get("type") {
            Some(Value::String(t)) => t.as_str(),
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .find(|t| *t != "null")
                .unwrap_or("null"),
            _ if s.get("properties").is_some() => "object",
            _ => "string",
        };
        match ty {
            "string" => json!("x"),
            "integer" => s
                .get("minimum")
                .and_then(Value::as_f64)
                .map_or(json!(1), |m| json!(m as i64)),
            "number" => match (
                s.get("minimum").and_then(Value::as_f64),
                s.get("maximum").and_then(Value::as_f64),
            ) {
                (Some(m), _) => json!(m),
                (None, Some(m)) if m < 1.5 => json!(m),
                _ => json!(1.5),
            },
            "boolean" => json!(false),
            "array" => {
                let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
                let n = if full && depth < 6 { min.max(1) } else { min };
                Value::Array(
                    (0..n)
                        .map(|_| self.synth(&s["items"], full, depth + 1))
                        .collect(),
                )
            }
            "object" => {
                let mut o = serde_json::Map::new();
                let required: BTreeSet<&str> = s
                    .get("required")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                if let Some(props) = s.get("properties").and_then(Value::as_object) {
                    for (k, p) in props {
                        if required.contains(k.as_str()) || (full && depth < 6) {
                            o.insert(k.clone(), self.synth(p, full, depth + 1));
                        }
                    }
                }
                if let Some(ap) = s.get("additionalProperties").filter(|a| a.is_object())
                    && full
                    && depth < 6
                {
                    o.insert("example.com".into(), self.synth(ap, full, depth + 1));
                }
                Value::Object(o)
            }
            _ => Value::Null,
        }
    }
}

/// Every schema reachable from the 19 endpoints (request and 200/201 bodies) and the 6 webhooks.
fn reachable(doc: &Doc) -> BTreeSet<String> {
    const PATHS: &[(&str, &str)] = &[
        ("/v2/autocomplete/companies", "post"),
        ("/v2/autocomplete/keywords", "post"),
        ("/v2/autocomplete/job-titles", "post"),
        ("/v2/autocomplete/locations", "post"),
        ("/v2/autocomplete/skills", "post"),
        ("/v2/search/companies", "post"),
        ("/v3/search/companies", "post"),
        ("/v2/search/people", "post"),
        ("/v3/search/people", "post"),
        ("/v3/search/people/preview", "post"),
        ("/v2/enrich/company", "post"),
        ("/v2/enrich/person", "post"),
        ("/v2/lookup/companies", "post"),
        ("/v2/lookup/people", "post"),
        ("/v2/reveal/emails", "post"),
        ("/v2/reveal/phones", "post"),
        ("/v2/data-fields", "get"),
        ("/v2/credits/balance", "get"),
        ("/v2/warmup/companies", "post"),
    ];
    const HOOKS: &[&str] = &[
        "reveal_emails",
        "reveal_phones",
        "people_search_emails",
        "people_search_phones",
        "enrich_person_email",
        "enrich_person_phone",
    ];
    fn walk(doc: &Doc, v: &Value, seen: &mut BTreeSet<String>) {
        match v {
            Value::Object(m) => {
                if let Some(r) = m.get("$ref").and_then(Value::as_str) {
                    let name = r.rsplit('/').next().unwrap().to_string();
                    if seen.insert(name.clone()) {
                        walk(doc, doc.schema(&name), seen);
                    }
                }
                m.values().for_each(|x| walk(doc, x, seen));
            }
            Value::Array(a) => a.iter().for_each(|x| walk(doc, x, seen)),
            _ => {}
        }
    }
    let mut seen = BTreeSet::new();
    for (p, m) in PATHS {
        let op = &doc.raw["paths"][p][m];
        assert!(op.is_object(), "{m} {p} missing from openapi.json");
        walk(doc, &op["requestBody"], &mut seen);
        walk(doc, &op["responses"], &mut seen);
    }
    for h in HOOKS {
        let hook = &doc.raw["webhooks"][h];
        assert!(hook.is_object(), "webhook {h} missing");
        walk(doc, hook, &mut seen);
    }
    seen
}

/// `input` ⊆ `output`: every non-null member of the input is in the output with an equal value
/// (numbers compared as f64; `null`, `[]` and `{}` may be dropped; a single value may come back as
/// a one-item list).
/// `(member name, default value)` of every property of openapi.json that declares a `default`:
/// a type may leave out a member whose value is the wire default.
static DEFAULTS: std::sync::OnceLock<BTreeSet<(String, String)>> = std::sync::OnceLock::new();

fn collect_defaults(v: &Value, out: &mut BTreeSet<(String, String)>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::Object(props)) = m.get("properties") {
                for (k, p) in props {
                    if let Some(d) = p.get("default") {
                        out.insert((k.clone(), d.to_string()));
                    }
                }
            }
            m.values().for_each(|x| collect_defaults(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_defaults(x, out)),
        _ => {}
    }
}

fn is_default(member: &str, v: &Value) -> bool {
    DEFAULTS
        .get()
        .is_some_and(|d| d.contains(&(member.to_string(), v.to_string())))
}

fn subset(input: &Value, output: Option<&Value>, path: &str) -> Result<(), String> {
    let empty = matches!(input, Value::Null)
        || input.as_array().is_some_and(Vec::is_empty)
        || input.as_object().is_some_and(|o| o.is_empty());
    let Some(output) = output else {
        let member = path.rsplit('.').next().unwrap_or_default();
        return if empty || is_default(member, input) {
            Ok(())
        } else {
            Err(format!("{path}: {input} lost"))
        };
    };
    match (input, output) {
        (Value::Null, _) => Ok(()),
        (Value::Number(a), Value::Number(b)) if a.as_f64() == b.as_f64() => Ok(()),
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .try_for_each(|(k, v)| subset(v, b.get(k), &format!("{path}.{k}"))),
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .try_for_each(|(i, (x, y))| subset(x, Some(y), &format!("{path}.{i}"))),
        (x, Value::Array(b)) if !x.is_array() && b.len() == 1 => subset(x, Some(&b[0]), path),
        (a, b) if a == b => Ok(()),
        (a, b) => Err(format!("{path}: {a} came back as {b}")),
    }
}

struct Outcome {
    checked: usize,
    failures: Vec<String>,
}

fn check_instance(
    doc: &Doc,
    validator: &jsonschema::Validator,
    f: RoundTrip,
    label: &str,
    instance: &Value,
    known: Option<Expect>,
    out: &mut Outcome,
) {
    out.checked += 1;
    let input_valid = validator.is_valid(instance);
    let _ = doc;
    match (input_valid, known) {
        (true, Some(_)) => out.failures.push(format!(
            "{label}: listed in KNOWN_INVALID but openapi accepts it"
        )),
        (false, None) => {
            let errs: Vec<String> = validator
                .iter_errors(instance)
                .map(|e| e.to_string())
                .take(3)
                .collect();
            out.failures.push(format!(
                "{label}: openapi.json rejects its own example (not listed): {errs:?}"
            ))
        }
        (_, Some(Expect::Refused)) => {
            if f(instance).is_ok() {
                out.failures
                    .push(format!("{label}: expected our strict type to refuse it"));
            }
        }
        (valid, expect) => match f(instance) {
            Err(e) => out
                .failures
                .push(format!("{label}: {e} (input {instance})")),
            Ok(output) => {
                if (valid || expect == Some(Expect::Repaired)) && !validator.is_valid(&output) {
                    let errs: Vec<String> = validator
                        .iter_errors(&output)
                        .map(|e| e.to_string())
                        .take(3)
                        .collect();
                    out.failures.push(format!(
                        "{label}: output rejected by openapi: {errs:?} (output {output})"
                    ));
                }
                if expect != Some(Expect::Repaired)
                    && let Err(e) = subset(instance, Some(&output), "")
                {
                    out.failures.push(format!("{label}: {e}"));
                }
            }
        },
    }
}

#[test]
fn every_openapi_example_round_trips_through_our_types() {
    let raw = load_openapi();
    let schemas_pre = denull(&raw["components"]["schemas"]);
    let mut defaults = BTreeSet::new();
    collect_defaults(&raw["components"]["schemas"], &mut defaults);
    DEFAULTS.get_or_init(|| defaults);
    let doc = Doc { raw, schemas_pre };
    let table = table();
    let reach = reachable(&doc);
    assert!(
        reach.len() >= 100,
        "only {} schemas reachable?",
        reach.len()
    );

    let missing: Vec<&String> = reach
        .iter()
        .filter(|n| !table.contains_key(n.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "reachable schemas without a Rust type row: {missing:?}"
    );

    let mut examples = Outcome {
        checked: 0,
        failures: vec![],
    };
    let mut synthesized = Outcome {
        checked: 0,
        failures: vec![],
    };
    let mut seen_known = BTreeSet::new();
    for name in &reach {
        let Some(&f) = table.get(name.as_str()) else {
            continue;
        };
        let schema = doc.schema(name);
        let validator = doc.validator(name);
        // Every member set (schemas without examples are covered here).
        let full = doc.synth(schema, true, 0);
        check_instance(
            &doc,
            &validator,
            f,
            &format!("{name} (synthesized)"),
            &full,
            None,
            &mut synthesized,
        );
        // Each property-level example inside a minimal instance.
        let Some(props) = schema.get("properties").and_then(Value::as_object) else {
            continue;
        };
        for (prop, pschema) in props {
            let Some(exs) = pschema.get("examples").and_then(Value::as_array) else {
                continue;
            };
            for (i, ex) in exs.iter().enumerate() {
                let mut inst = doc.synth(schema, false, 0);
                inst.as_object_mut()
                    .unwrap()
                    .insert(prop.clone(), ex.clone());
                let known = KNOWN_INVALID
                    .iter()
                    .find(|(s, p, j, _)| s == name && p == prop && *j == i)
                    .map(|k| k.3);
                if known.is_some() {
                    seen_known.insert((name.clone(), prop.clone(), i));
                }
                check_instance(
                    &doc,
                    &validator,
                    f,
                    &format!("{name}.{prop} example {i}"),
                    &inst,
                    known,
                    &mut examples,
                );
            }
        }
    }
    for (s, p, i, _) in KNOWN_INVALID {
        if table.contains_key(s) && !seen_known.contains(&(s.to_string(), p.to_string(), *i)) {
            examples.failures.push(format!(
                "KNOWN_INVALID entry {s}.{p}[{i}] matches no example"
            ));
        }
    }
    eprintln!(
        "wire_examples: {} schemas reachable, {} with a type; {} examples checked, {} synthesized instances",
        reach.len(),
        reach
            .iter()
            .filter(|n| table.contains_key(n.as_str()))
            .count(),
        examples.checked,
        synthesized.checked
    );
    let failures: Vec<String> = examples
        .failures
        .into_iter()
        .chain(synthesized.failures)
        .collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        examples.checked >= 300,
        "too few examples checked: {}",
        examples.checked
    );
}

#[test]
fn lookup_companies_by_domain_form_matches_the_schema_loosely() {
    // The sandbox's `{domain, company}` form (NOTES.md) round-trips; the flat form is covered above.
    let v = json!({"companies": [{"domain": "a.com", "company": null}, {"domain": "b.com", "company": {"domain": "b.com", "name": "B"}}],
                   "totalRequested": 2, "totalFound": 1, "creditsUsed": 0.05});
    let out = rt::<LookupCompaniesResponse>(&v).unwrap();
    assert_eq!(out, v);
}
