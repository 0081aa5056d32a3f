//! The router and the thin handlers of the 19 endpoints (SPEC.md §4): authenticate → limits →
//! parse/validate → plan → engine → charge → answer.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures::FutureExt;
use serde_json::{Value, json};

use super::AppState;
use super::accounts::{Account, Milli, Pool, from_milli, to_milli};
use super::error::{Failure, texts};
use super::gathering::Started;
use super::reveal::{self, Channel};
use super::{auth, engine_calls, validation};
use crate::api::client::Endpoint;
use crate::api::cost::{DEFAULT_PRICES, Quantities};
use crate::api::types::*;

type St = State<Arc<AppState>>;

/// An authenticated, admitted request with its body read (at most the body limit).
pub(crate) struct Call {
    /// The caller's account.
    pub account: Arc<Account>,
    /// Request headers (content type).
    pub headers: HeaderMap,
    /// The raw body.
    pub body: Bytes,
}

impl FromRequest<Arc<AppState>> for Call {
    type Rejection = Failure;

    async fn from_request(req: Request, state: &Arc<AppState>) -> Result<Self, Failure> {
        let (parts, body) = req.into_parts();
        // The body is read (or drained) before any rejection is answered: a server that answers
        // and closes while the client is still writing makes the client see a broken pipe
        // instead of the 401/429/413 it was sent.
        let declared = parts
            .headers
            .get(axum::http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        let body = read_body(body, declared, state.body_limit).await;
        let account = auth::authenticate(&state.accounts, &parts.headers, &parts.uri)?;
        account.admit()?;
        Ok(Call {
            account,
            headers: parts.headers,
            body: body?,
        })
    }
}

/// Reads a request body of at most `limit` bytes. A larger one (declared or streamed) is read
/// and thrown away (nothing kept) up to [`drain_cap`]`(limit)` bytes, so a client that writes
/// the whole body before reading (Python's `http.client`) can finish writing and read the 413;
/// only a body declared or streamed past that bound is answered at once and the connection let
/// go unread (the client may then see a reset).
///
/// Errors: 413 `Request body too large` above the limit; 400 when the body stream breaks.
async fn read_body(
    body: axum::body::Body,
    declared: Option<u64>,
    limit: usize,
) -> Result<Bytes, Failure> {
    use futures::StreamExt;
    let too_large = || Failure::detail(StatusCode::PAYLOAD_TOO_LARGE, texts::TOO_LARGE);
    let drain_cap = drain_cap(limit);
    if declared.is_some_and(|n| n > drain_cap as u64) {
        return Err(too_large());
    }
    let mut over = declared.is_some_and(|n| n > limit as u64);
    let mut buf = Vec::with_capacity(if over {
        0
    } else {
        declared.unwrap_or(0) as usize
    });
    let mut seen = 0usize;
    let mut stream = body.into_data_stream();
    while let Some(chunk) = stream.next().await {
        let chunk =
            chunk.map_err(|_| Failure::detail(StatusCode::BAD_REQUEST, texts::BODY_UNREADABLE))?;
        seen = seen.saturating_add(chunk.len());
        if seen > drain_cap {
            return Err(too_large());
        }
        if !over && seen > limit {
            over = true;
            buf = Vec::new();
        }
        if !over {
            buf.extend_from_slice(&chunk);
        }
    }
    if over {
        Err(too_large())
    } else {
        Ok(Bytes::from(buf))
    }
}

/// Most bytes of a too-large body read and thrown away before the 413: four times the body
/// limit, and at least 64 MiB (about 50 ms of reading on the loopback; nothing is kept).
fn drain_cap(limit: usize) -> usize {
    limit.saturating_mul(4).max(64 << 20)
}

/// Last guard: a panic in a handler becomes a 500 JSON answer, never a dropped connection.
async fn catch_panic(req: Request, next: Next) -> Response {
    match AssertUnwindSafe(next.run(req)).catch_unwind().await {
        Ok(r) => r,
        Err(_) => {
            tracing::error!("a handler panicked");
            Failure::internal().into_response()
        }
    }
}

async fn not_found() -> Failure {
    Failure::detail(StatusCode::NOT_FOUND, texts::NOT_FOUND)
}

async fn method_not_allowed() -> Failure {
    Failure::detail(StatusCode::METHOD_NOT_ALLOWED, texts::METHOD_NOT_ALLOWED)
}

/// The router of the service.
pub(crate) fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/v2/autocomplete/companies", post(autocomplete_companies))
        .route("/v2/autocomplete/keywords", post(autocomplete_keywords))
        .route("/v2/autocomplete/job-titles", post(autocomplete_job_titles))
        .route("/v2/autocomplete/locations", post(autocomplete_locations))
        .route("/v2/autocomplete/skills", post(autocomplete_skills))
        .route("/v2/search/companies", post(search_companies_v2))
        .route("/v3/search/companies", post(search_companies_v3))
        .route("/v2/search/people", post(search_people_v2))
        .route("/v3/search/people", post(search_people_v3))
        .route("/v3/search/people/preview", post(search_people_preview))
        .route("/v2/enrich/company", post(enrich_company))
        .route("/v2/enrich/person", post(enrich_person))
        .route("/v2/lookup/companies", post(lookup_companies))
        .route("/v2/lookup/people", post(lookup_people))
        .route("/v2/reveal/emails", post(reveal_emails))
        .route("/v2/reveal/phones", post(reveal_phones))
        .route("/v2/data-fields", get(data_fields))
        .route("/v2/credits/balance", get(credit_balance))
        .route("/v2/warmup/companies", post(warmup_companies))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn(catch_panic))
        .with_state(state)
}

fn pool_json(b: super::accounts::PoolBalance) -> Value {
    json!({ "oneTime": b.one_time, "recurrent": b.recurrent })
}

/// GET /v2/credits/balance (SPEC.md §4.9, §2.9): free.
async fn credit_balance(State(_st): St, call: Call) -> Result<axum::Json<Value>, Failure> {
    let (left, reset) = {
        let acc = &call.account;
        acc.limits().daily_left(acc.daily_limit)
    };
    let l = call.account.ledger();
    Ok(axum::Json(json!({
        "credits": pool_json(l.balance(Pool::Standard)),
        "emailCredits": pool_json(l.balance(Pool::Email)),
        "phoneCredits": pool_json(l.balance(Pool::Phone)),
        "dailyLimitRateLeft": left,
        "dailyLimitRateSecondsToReset": reset,
    })))
}

// ---------------------------------------------------------------------------------------------
// Pricing (C's price table, NOTES.md) in thousandths of a standard credit.

fn standard_price(endpoint: Endpoint, results: usize, lookalike: bool) -> Milli {
    let q = Quantities {
        results: results as u64,
        lookalike_domains: lookalike,
        emails: 0,
        phones: 0,
    };
    to_milli(DEFAULT_PRICES.charge_for(endpoint, &q).standard)
}

/// Sets `creditsUsed` of an object answer.
fn with_credits(mut v: Value, charged: Milli) -> Value {
    if let Some(m) = v.as_object_mut() {
        m.insert("creditsUsed".into(), json!(from_milli(charged)));
    }
    v
}

type Answer = Result<Response, Failure>;

fn ok(v: Value) -> Answer {
    Ok(axum::Json(v).into_response())
}

/// A 200 with `v` serialized off the async threads (large answers take milliseconds).
async fn ok_typed<T: serde::Serialize + Send + 'static>(v: T) -> Answer {
    let body = blocking(move || {
        serde_json::to_vec(&v).map_err(|e| {
            tracing::error!(error = %e, "cannot serialize an answer");
            Failure::internal()
        })
    })
    .await?;
    Ok((
        [(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response())
}

/// Runs CPU-bound engine work off the async threads; a panic there becomes a 500.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, Failure> + Send + 'static,
) -> Result<T, Failure> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|_| Failure::internal())?
}

// ---------------------------------------------------------------------------------------------
// 1-5. Autocomplete (SPEC.md §4.1, §4.10): 0.1 credit per call.

macro_rules! autocomplete_handler {
    ($name:ident, $req:ty, $endpoint:ident) => {
        /// POST autocomplete: 0.1 standard credit per call.
        async fn $name(State(st): St, call: Call) -> Answer {
            let req: $req =
                validation::parse_request(Endpoint::$endpoint, &call.headers, &call.body)?;
            call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
            let db = st.db();
            let v = blocking(move || engine_calls::$name(&db, &req)).await?;
            let price = standard_price(Endpoint::$endpoint, 1, false);
            call.account
                .charge(texts::INSUFFICIENT_CREDITS, &[(Pool::Standard, price)])?;
            ok(v)
        }
    };
}

autocomplete_handler!(
    autocomplete_companies,
    AutocompleteCompaniesRequest,
    AutocompleteCompanies
);
autocomplete_handler!(
    autocomplete_keywords,
    AutocompleteKeywordsRequest,
    AutocompleteKeywords
);
autocomplete_handler!(
    autocomplete_job_titles,
    AutocompleteJobTitlesRequest,
    AutocompleteJobTitles
);
autocomplete_handler!(
    autocomplete_locations,
    AutocompleteLocationsRequest,
    AutocompleteLocations
);
autocomplete_handler!(
    autocomplete_skills,
    AutocompleteSkillsRequest,
    AutocompleteSkills
);

// ---------------------------------------------------------------------------------------------
// 6-7. Company searches: 0.2 credit per company returned.

/// POST /v2/search/companies (SPEC.md §4.2): legacy plan only.
async fn search_companies_v2(State(st): St, call: Call) -> Answer {
    let req: SearchCompaniesV2Request =
        validation::parse_request(Endpoint::SearchCompaniesV2, &call.headers, &call.body)?;
    if !call.account.plan.allows_v2_search() {
        return Err(Failure::bad_request(texts::PLAN_NOT_SUPPORTED));
    }
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    let db = st.db();
    let mut answer = blocking(move || engine_calls::search_companies_v2(&db, &req)).await?;
    let price = standard_price(Endpoint::SearchCompaniesV2, answer.companies.len(), false);
    call.account
        .charge(texts::INSUFFICIENT_CREDITS, &[(Pool::Standard, price)])?;
    answer.credits_used = from_milli(price);
    ok_typed(answer).await
}

/// POST /v3/search/companies (SPEC.md §4.10; openapi `PublicSearchCompaniesBodyV3`).
async fn search_companies_v3(State(st): St, call: Call) -> Answer {
    let req: SearchCompaniesV3Request =
        validation::parse_request(Endpoint::SearchCompaniesV3, &call.headers, &call.body)?;
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    let db = st.db();
    let mut answer = blocking(move || engine_calls::search_companies_v3(&db, &req)).await?;
    let price = standard_price(Endpoint::SearchCompaniesV3, answer.companies.len(), false);
    call.account
        .charge(texts::INSUFFICIENT_CREDITS, &[(Pool::Standard, price)])?;
    answer.credits_used = from_milli(price);
    ok_typed(answer).await
}

// ---------------------------------------------------------------------------------------------
// 8-10. People searches.

/// The reveal options of a request, checked (422 for a webhook URL that is not http(s)).
struct RevealOpts {
    emails: Option<Option<String>>,
    phones: Option<Option<String>>,
}

fn reveal_opts(
    emails: Option<&RevealEmails>,
    phones: Option<&RevealPhones>,
) -> Result<RevealOpts, Failure> {
    let emails = emails
        .filter(|r| r.include_emails)
        .map(|r| r.webhook_url.clone());
    let phones = phones
        .filter(|r| r.include_phones)
        .map(|r| r.webhook_url.clone());
    if let Some(Some(u)) = &emails {
        validation::check_webhook_url(u, &["revealEmails", "webhookUrl"])?;
    }
    if let Some(Some(u)) = &phones {
        validation::check_webhook_url(u, &["revealPhones", "webhookUrl"])?;
    }
    Ok(RevealOpts { emails, phones })
}

/// Applies the reveal options to the person objects of an answer and charges everything at
/// once: `standard` plus the inline reveals; webhook reveals reserve their pool and are queued.
/// On a 402 nothing is charged and no reservation is kept. Returns the standard credits
/// charged (thousandths), the answer's `creditsUsed`.
#[allow(clippy::too_many_arguments)]
fn settle_people(
    st: &Arc<AppState>,
    account: &Arc<Account>,
    standard_text: &'static str,
    standard: Milli,
    people: &mut [Value],
    opts: &RevealOpts,
    total: Option<i64>,
    single: bool,
) -> Result<Milli, Failure> {
    let mut charges = vec![(Pool::Standard, standard)];
    let mut queued: Vec<(Channel, String, Milli)> = Vec::new();
    let originals: Vec<Value> = people.to_vec();
    for (channel, opt) in [
        (Channel::Email, &opts.emails),
        (Channel::Phone, &opts.phones),
    ] {
        match opt {
            None => reveal::mask(people, channel),
            Some(None) => {
                let due = reveal::reveal_inline(st, channel, people);
                charges.push((channel.pool(), due));
            }
            Some(Some(url)) => {
                match reveal::reserve(account, channel, people.len()) {
                    Ok(r) => queued.push((channel, url.clone(), r)),
                    Err(e) => {
                        for (c, _, r) in &queued {
                            reveal::release(account, *c, *r);
                        }
                        return Err(e);
                    }
                }
                reveal::mask(people, channel);
                if single && channel == Channel::Phone {
                    for p in people.iter_mut() {
                        p["phone"] = json!({ "numbers": null, "status": PhoneStatus::InProgress });
                    }
                }
            }
        }
    }
    if let Err(e) = account.charge(standard_text, &charges) {
        for (c, _, r) in &queued {
            reveal::release(account, *c, *r);
        }
        return Err(e);
    }
    let mut originals_masked = originals;
    for p in originals_masked.iter_mut() {
        if let Some(m) = p.as_object_mut() {
            m.remove("email");
            m.remove("phone");
        }
    }
    for (channel, url, reserved) in &queued {
        reveal::queue_people(
            st,
            account.clone(),
            *channel,
            originals_masked.clone(),
            total,
            single,
            url.clone(),
            *reserved,
        );
    }
    Ok(charges
        .iter()
        .filter(|(p, _)| *p == Pool::Standard)
        .map(|(_, m)| m)
        .sum())
}

fn people_of(v: &mut Value) -> &mut [Value] {
    match v.get_mut("people").and_then(Value::as_array_mut) {
        Some(a) => a.as_mut_slice(),
        None => &mut [],
    }
}

/// POST /v2/search/people (SPEC.md §4.3): legacy plan only; 3 credits per person with
/// `lookalikeDomains`, 1 without; 402 "Insufficient standard credits".
async fn search_people_v2(State(st): St, call: Call) -> Answer {
    let req: SearchPeopleV2Request =
        validation::parse_request(Endpoint::SearchPeopleV2, &call.headers, &call.body)?;
    if !call.account.plan.allows_v2_search() {
        return Err(Failure::bad_request(texts::PLAN_NOT_SUPPORTED));
    }
    let opts = reveal_opts(req.reveal_emails.as_ref(), req.reveal_phones.as_ref())?;
    call.account
        .require_standard(texts::INSUFFICIENT_STANDARD_CREDITS)?;
    let lookalike = req
        .companies_filters
        .as_ref()
        .and_then(|f| f.lookalike_domains.as_ref())
        .is_some_and(|d| !d.is_empty());
    let db = st.db();
    let v = blocking(move || engine_calls::search_people_v2(&db, &req)).await?;
    let price = (
        Endpoint::SearchPeopleV2,
        lookalike,
        texts::INSUFFICIENT_STANDARD_CREDITS,
    );
    answer_people_search(&st, &call.account, price, &opts, v)
}

/// POST /v3/search/people (SPEC.md §4.10): 0.2 credit per person; reveal options as NOTES.md.
async fn search_people_v3(State(st): St, call: Call) -> Answer {
    let req: SearchPeopleV3Request =
        validation::parse_request(Endpoint::SearchPeopleV3, &call.headers, &call.body)?;
    let opts = reveal_opts(req.reveal_emails.as_ref(), req.reveal_phones.as_ref())?;
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    let db = st.db();
    let v = blocking(move || engine_calls::search_people_v3(&db, &req)).await?;
    let price = (Endpoint::SearchPeopleV3, false, texts::INSUFFICIENT_CREDITS);
    answer_people_search(&st, &call.account, price, &opts, v)
}

/// The common end of the people searches: prices the people the engine returned (`price`:
/// endpoint, lookalike pricing, the 402 text of the standard pool), settles the standard charge
/// and the reveal options, and answers with `creditsUsed`.
fn answer_people_search(
    st: &Arc<AppState>,
    account: &Arc<Account>,
    (endpoint, lookalike, insufficient): (Endpoint, bool, &'static str),
    opts: &RevealOpts,
    mut v: Value,
) -> Answer {
    let n = engine_calls::count(&v, "people");
    let total = v.get("total").and_then(Value::as_i64);
    let price = standard_price(endpoint, n, lookalike);
    let people = people_of(&mut v);
    let charged = settle_people(st, account, insufficient, price, people, opts, total, false)?;
    ok(with_credits(v, charged))
}

/// POST /v3/search/people/preview (SPEC.md §4.10): enterprise and legacy plans only (403
/// otherwise); 0.2 credit per person.
async fn search_people_preview(State(st): St, call: Call) -> Answer {
    let req: SearchPeoplePreviewRequest =
        validation::parse_request(Endpoint::SearchPeoplePreview, &call.headers, &call.body)?;
    if !call.account.plan.allows_preview() {
        return Err(Failure::forbidden(texts::FEATURE_NOT_ALLOWED));
    }
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    let db = st.db();
    let v = blocking(move || engine_calls::search_people_preview(&db, &req)).await?;
    let price = standard_price(
        Endpoint::SearchPeoplePreview,
        engine_calls::count(&v, "people"),
        false,
    );
    call.account
        .charge(texts::INSUFFICIENT_CREDITS, &[(Pool::Standard, price)])?;
    ok(with_credits(v, price))
}

// ---------------------------------------------------------------------------------------------
// 11-12. Enrich.

/// `true` for an empty body or `{}`/`null` (SPEC.md §7 "Empty body").
fn is_blank_json(body: &[u8]) -> bool {
    if body.iter().all(u8::is_ascii_whitespace) {
        return true;
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Null) => true,
        Ok(Value::Object(m)) => m.is_empty(),
        _ => false,
    }
}

/// The domain an enrich-company request names (`company.domain`, else the domain of
/// `company.email`), normalized; `None` when it names none that looks like a domain.
fn requested_domain(req: &EnrichCompanyRequest) -> Option<String> {
    let c = req.company.as_ref()?;
    let raw = c
        .domain
        .clone()
        .filter(|d| !d.trim().is_empty())
        .or_else(|| {
            c.email
                .as_ref()
                .and_then(|e| e.rsplit_once('@').map(|(_, d)| d.to_string()))
        })?;
    Some(crate::sandbox::engine::normalize_domain(&raw))
}

/// POST /v2/enrich/company (SPEC.md §4.10, §3): 0.1 credit per company found; an unknown
/// domain answers 201 "Data gathering process has started..." and is known after the
/// configured delay; an unmatched request without a domain answers 404 with no body.
async fn enrich_company(State(st): St, call: Call) -> Answer {
    if is_blank_json(&call.body) {
        return Err(Failure::bad_request(texts::EMPTY_BODY));
    }
    let req: EnrichCompanyRequest =
        validation::parse_request(Endpoint::EnrichCompany, &call.headers, &call.body)?;
    if req.is_empty() {
        return Err(Failure::bad_request(texts::EMPTY_BODY));
    }
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    let db = st.db();
    let found = {
        let req = req.clone();
        blocking(move || engine_calls::enrich_company(&db, &req)).await?
    };
    let v = match found {
        Some(v) => v,
        None => {
            let Some(domain) = requested_domain(&req) else {
                return Err(Failure::NotFoundEmpty);
            };
            match st.gathering.start(&domain) {
                Started::NotADomain => return Err(Failure::NotFoundEmpty),
                Started::UnderWay => {
                    return Ok((
                        StatusCode::CREATED,
                        axum::Json(json!({ "detail": texts::DATA_GATHERING_STARTED })),
                    )
                        .into_response());
                }
                Started::There => {
                    let db = st.db();
                    blocking(move || engine_calls::enrich_company(&db, &req))
                        .await?
                        .ok_or(Failure::NotFoundEmpty)?
                }
            }
        }
    };
    let price = standard_price(Endpoint::EnrichCompany, 1, false);
    call.account
        .charge(texts::INSUFFICIENT_CREDITS, &[(Pool::Standard, price)])?;
    ok(with_credits(v, price))
}

/// POST /v2/enrich/person (SPEC.md §4.4): 3 credits per person found; 404 "No matching record
/// found"; 400 "Empty `person` body"; reveal options deliver `enrich_person_email` /
/// `enrich_person_phone`.
async fn enrich_person(State(st): St, call: Call) -> Answer {
    if is_blank_json(&call.body) {
        return Err(Failure::bad_request(texts::EMPTY_PERSON_BODY));
    }
    let req: EnrichPersonRequest =
        validation::parse_request(Endpoint::EnrichPerson, &call.headers, &call.body)?;
    if req.person_is_empty() {
        return Err(Failure::bad_request(texts::EMPTY_PERSON_BODY));
    }
    let opts = reveal_opts(req.reveal_emails.as_ref(), req.reveal_phones.as_ref())?;
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    let db = st.db();
    let found = blocking(move || engine_calls::enrich_person(&db, &req)).await?;
    let Some(person) = found else {
        return Err(Failure::detail(
            StatusCode::NOT_FOUND,
            texts::NO_MATCHING_RECORD,
        ));
    };
    let price = standard_price(Endpoint::EnrichPerson, 1, false);
    let mut people = vec![person];
    let charged = settle_people(
        &st,
        &call.account,
        texts::INSUFFICIENT_CREDITS,
        price,
        &mut people,
        &opts,
        None,
        true,
    )?;
    let person = people.pop().unwrap_or(Value::Null);
    ok(with_credits(person, charged))
}

// ---------------------------------------------------------------------------------------------
// 13-14. Lookup: 0.05 credit per record found.

/// POST /v2/lookup/companies (SPEC.md §4.5; NOTES.md: one `{domain, company|null}` entry per
/// requested domain plus the totals).
async fn lookup_companies(State(st): St, call: Call) -> Answer {
    let req: LookupCompaniesRequest =
        validation::parse_request(Endpoint::LookupCompanies, &call.headers, &call.body)?;
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    // Up to 1000 records: built and (below) serialized off the async threads, and straight
    // from the typed answer (no intermediate JSON tree). Gathered companies are in `db`.
    let db = st.db();
    let mut answer = blocking(move || Ok(db.lookup_companies(&req))).await?;
    let found = answer.total_found.max(0) as usize;
    let price = standard_price(Endpoint::LookupCompanies, found, false);
    call.account
        .charge(texts::INSUFFICIENT_CREDITS, &[(Pool::Standard, price)])?;
    answer.credits_used = from_milli(price);
    ok_typed(answer).await
}

/// POST /v2/lookup/people (SPEC.md §4.6): only matched people; no email or phone revealed.
async fn lookup_people(State(st): St, call: Call) -> Answer {
    let req: LookupPeopleRequest =
        validation::parse_request(Endpoint::LookupPeople, &call.headers, &call.body)?;
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    let db = st.db();
    let mut v = blocking(move || engine_calls::lookup_people(&db, &req)).await?;
    reveal::mask(people_of(&mut v), Channel::Email);
    reveal::mask(people_of(&mut v), Channel::Phone);
    let price = standard_price(
        Endpoint::LookupPeople,
        engine_calls::count(&v, "people"),
        false,
    );
    call.account
        .charge(texts::INSUFFICIENT_CREDITS, &[(Pool::Standard, price)])?;
    ok(with_credits(v, price))
}

// ---------------------------------------------------------------------------------------------
// 15-16. Reveal by ids.

async fn reveal_ids(
    st: Arc<AppState>,
    call: Call,
    channel: Channel,
    ids: Vec<String>,
    url: String,
) -> Answer {
    validation::check_webhook_url(&url, &["webhookUrl"])?;
    let reserved = reveal::reserve(&call.account, channel, ids.len())?;
    reveal::queue_reveal_ids(&st, call.account.clone(), channel, ids, url, reserved);
    ok(json!({ "status": "in progress" }))
}

/// POST /v2/reveal/emails (SPEC.md §4.10, §6): acknowledges at once; the `reveal_emails`
/// webhook follows; one email credit per verified email.
async fn reveal_emails(State(st): St, call: Call) -> Answer {
    let req: RevealEmailsRequest =
        validation::parse_request(Endpoint::RevealEmails, &call.headers, &call.body)?;
    reveal_ids(st, call, Channel::Email, req.person_ids, req.webhook_url).await
}

/// POST /v2/reveal/phones (SPEC.md §4.7): as reveal emails, phone pool, `reveal_phones`.
async fn reveal_phones(State(st): St, call: Call) -> Answer {
    let req: RevealPhonesRequest =
        validation::parse_request(Endpoint::RevealPhones, &call.headers, &call.body)?;
    reveal_ids(st, call, Channel::Phone, req.person_ids, req.webhook_url).await
}

// ---------------------------------------------------------------------------------------------
// 17-19. Free endpoints.

/// GET /v2/data-fields (SPEC.md §4.8): free.
async fn data_fields(State(st): St, _call: Call) -> Answer {
    let db = st.db();
    ok(blocking(move || engine_calls::data_fields(&db)).await?)
}

/// POST /v2/warmup/companies (openapi `WarmupCompaniesBody`): free; known domains are
/// `successfulDomains`, plausible unknown ones start gathering (`triggeredDomains`), others are
/// `ignoredDomains`.
async fn warmup_companies(State(st): St, call: Call) -> Answer {
    let req: WarmupCompaniesRequest =
        validation::parse_request(Endpoint::WarmupCompanies, &call.headers, &call.body)?;
    let (mut ok_d, mut trig, mut ign) = (Vec::new(), Vec::new(), Vec::new());
    for raw in &req.domains {
        match st.gathering.start(raw) {
            Started::NotADomain => ign.push(raw.clone()),
            Started::There => ok_d.push(raw.clone()),
            Started::UnderWay => trig.push(raw.clone()),
        }
    }
    ok(json!({ "successfulDomains": ok_d, "triggeredDomains": trig, "ignoredDomains": ign }))
}
