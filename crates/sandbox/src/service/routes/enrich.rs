//! 11-12. Enrich company (0.1 credit per company found; 201 while an unknown domain is being
//! gathered) and enrich person (3 credits per person found; reveal options as NOTES.md).

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde_json::Value;

use super::call::{Answer, Call, St, blocking, ok_typed};
use crate::service::billing::{self, reveal_opts, settle_people, standard_price};
use crate::service::engine_calls;
use crate::service::error::{Failure, detail_answer, texts};
use crate::service::gathering::Started;
use crate::service::validation;
use prospect_api::client::Endpoint;
use prospect_api::types::*;

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
    Some(crate::engine::normalize_domain(&raw))
}

/// POST /v2/enrich/company (SPEC.md §4.10, §3): 0.1 credit per company found; an unknown
/// domain answers 201 "Data gathering process has started..." and is known after the
/// configured delay; an unmatched request without a domain answers 404 with no body.
pub(crate) async fn enrich_company(State(st): St, call: Call) -> Answer {
    if is_blank_json(&call.body) {
        return Err(Failure::bad_request(texts::EMPTY_BODY));
    }
    let req: EnrichCompanyRequest =
        validation::parse_request(Endpoint::EnrichCompany, &call.headers, &call.body)?;
    if req.is_empty() {
        return Err(Failure::bad_request(texts::EMPTY_BODY));
    }
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    // A company named by its domain is matched by it first (SPEC.md §2.7), so the companies of
    // that domain alone can answer.
    let db = match req
        .company
        .as_ref()
        .and_then(|c| c.domain.as_deref())
        .filter(|d| !d.trim().is_empty())
    {
        Some(d) => {
            let d = crate::engine::normalize_domain(d);
            st.gathering.db_for_domains(&[d]).await?
        }
        None => st.db().await?,
    };
    let found = {
        let req = req.clone();
        blocking(move || engine_calls::enrich_company(&db, &req)).await?
    };
    let mut answer = match found {
        Some(v) => v,
        None => {
            let Some(domain) = requested_domain(&req) else {
                return Err(Failure::NotFoundEmpty);
            };
            match st.gathering.start(&domain).await? {
                Started::NotADomain => return Err(Failure::NotFoundEmpty),
                Started::UnderWay => {
                    return Ok(
                        detail_answer(StatusCode::CREATED, texts::DATA_GATHERING_STARTED)
                            .into_response(),
                    );
                }
                Started::There => {
                    let db = st.db().await?;
                    blocking(move || engine_calls::enrich_company(&db, &req))
                        .await?
                        .ok_or(Failure::NotFoundEmpty)?
                }
            }
        }
    };
    answer.credits_used = billing::charge_results(&call.account, Endpoint::EnrichCompany, 1)?;
    ok_typed(answer).await
}

/// POST /v2/enrich/person (SPEC.md §4.4): 3 credits per person found; 404 "No matching record
/// found"; 400 "Empty `person` body"; reveal options deliver `enrich_person_email` /
/// `enrich_person_phone`.
pub(crate) async fn enrich_person(State(st): St, call: Call) -> Answer {
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
    let db = st.db().await?;
    let found = {
        let db = db.clone();
        blocking(move || engine_calls::enrich_person(&db, &req)).await?
    };
    let Some(mut answer) = found else {
        return Err(Failure::detail(
            StatusCode::NOT_FOUND,
            texts::NO_MATCHING_RECORD,
        ));
    };
    let price = standard_price(Endpoint::EnrichPerson, 1, false);
    answer.credits_used = settle_people(
        &st,
        &db,
        &call.account,
        texts::INSUFFICIENT_CREDITS,
        price,
        std::slice::from_mut(&mut answer.person),
        &opts,
        None,
        true,
    )?;
    ok_typed(answer).await
}

/// Items of a batch enrichment per webhook delivery, each delivery charged for what it carries.
/// A company record is about 8 KB of JSON, so a delivery stays near 1.6 MB: under the 4 MiB a
/// webhook receiver (prospect's own among them) takes in one body, and the 2 MB of axum's
/// default. A batch of 10,000 arrives in 50 deliveries.
pub(crate) const ENRICH_CHUNK: usize = 200;

/// How one item of a batch matched: `Success` when the engine found it, `Not enough data` for an
/// item with no non-blank member, `Not found` otherwise.
fn match_status(found: bool, empty: bool) -> MatchStatus {
    if found {
        MatchStatus::Success
    } else if empty {
        MatchStatus::NotEnoughData
    } else {
        MatchStatus::NotFound
    }
}

/// Queues the webhook deliveries of a batch enrichment: `items` (the caller's id and item) in
/// chunks of [`ENRICH_CHUNK`], each matched by `one` when its delivery is due, charged for
/// what `found` says it found, as much of it as the account still pays for
/// ([`billing::charge_what_fits`]; the found items it cannot pay for, the last ones, are left
/// out and the delivery is `Incomplete`), and sent to `url` as `event` with the body `body`
/// makes of its results, status and charge.
#[allow(clippy::too_many_arguments)]
fn queue_batch<I, R>(
    st: &std::sync::Arc<crate::service::state::AppState>,
    account: &std::sync::Arc<crate::service::accounts::Account>,
    endpoint: Endpoint,
    event: WebhookEvent,
    url: &str,
    items: Vec<(String, I)>,
    one: fn(&crate::dataset::load::Db, String, I) -> R,
    found: fn(&R) -> bool,
    body: fn(Vec<R>, OverallEnrichmentStatus, f64) -> Option<Value>,
) where
    I: Clone + Send + 'static,
    R: Send + 'static,
{
    for chunk in items.chunks(ENRICH_CHUNK) {
        let chunk = chunk.to_vec();
        let (state, account) = (st.clone(), account.clone());
        st.webhooks.enqueue(
            event.name(),
            url.to_string(),
            Box::pin(async move {
                let db = state.db().await.ok()?;
                let results: Vec<R> = blocking(move || {
                    Ok(chunk
                        .into_iter()
                        .map(|(id, item)| one(&db, id, item))
                        .collect())
                })
                .await
                .ok()?;
                let n = results.iter().filter(|r| found(r)).count();
                let (paid, credits_used) = billing::charge_what_fits(&account, endpoint, n);
                // What the account could not pay for is left out, so the caller can tell
                // which items were dropped (and send them again); the rest is delivered.
                let status = match paid == n {
                    true => OverallEnrichmentStatus::Completed,
                    false => OverallEnrichmentStatus::Incomplete,
                };
                let mut unpaid = n - paid;
                let mut results = results;
                for i in (0..results.len()).rev() {
                    if unpaid > 0 && found(&results[i]) {
                        results.remove(i);
                        unpaid -= 1;
                    }
                }
                body(results, status, credits_used)
            }),
        );
    }
}

/// POST /v2/enrich/companies (openapi `MatchCompaniesBody`): answers `{"status":"in progress"}`
/// and delivers `enrich_companies` webhooks of [`ENRICH_CHUNK`] items each, with the caller's
/// ids, after the webhook delay; each delivery charges 0.1 credit per company found. `fields`
/// is validated and, as everywhere in the sandbox, whole records are answered.
pub(crate) async fn enrich_companies(State(st): St, call: Call) -> Answer {
    let endpoint = Endpoint::EnrichCompanies;
    let req: EnrichCompaniesRequest =
        validation::parse_request(endpoint, &call.headers, &call.body)?;
    crate::service::validation::check_webhook_url(&req.webhook_url, &["webhookUrl"])?;
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    queue_batch(
        &st,
        &call.account,
        endpoint,
        WebhookEvent::EnrichCompanies,
        &req.webhook_url,
        req.company_data_mapping.into_iter().collect(),
        |db, id, item: EnrichCompanyRequest| {
            let company = db.enrich_company(&item).map(|r| r.company);
            CompanyWithUniqueId {
                status: match_status(company.is_some(), item.is_empty()),
                company,
                unique_id: id,
            }
        },
        |c| c.company.is_some(),
        |companies, overall_status, credits_used| {
            serde_json::to_value(EnrichCompaniesWebhook {
                companies,
                overall_status,
                credits_used,
            })
            .ok()
        },
    );
    ok_typed(EnrichBatchAccepted {
        status: EnrichBatchAccepted::IN_PROGRESS.into(),
    })
    .await
}

/// POST /v2/enrich/people (openapi `MatchPeopleBody`): answers `{"status":"in progress"}` and
/// delivers `enrich_people` webhooks of [`ENRICH_CHUNK`] items each, with the caller's ids,
/// after the webhook delay; each delivery charges 3 credits per person found. A name several
/// people at the company match equally well is `Too many matches` (not guessed, not charged).
/// No contacts are revealed.
pub(crate) async fn enrich_people(State(st): St, call: Call) -> Answer {
    let endpoint = Endpoint::EnrichPeople;
    let req: EnrichPeopleRequest = validation::parse_request(endpoint, &call.headers, &call.body)?;
    crate::service::validation::check_webhook_url(&req.webhook_url, &["webhookUrl"])?;
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    queue_batch(
        &st,
        &call.account,
        endpoint,
        WebhookEvent::EnrichPeople,
        &req.webhook_url,
        req.people_data_mapping.into_iter().collect(),
        |db, id, item: PersonToMatch| {
            let one = EnrichPersonRequest {
                person: item.person,
                company: item.company,
                reveal_emails: None,
                reveal_phones: None,
            };
            let (person, status) = match db.enrich_person_item(&one) {
                Ok(p) => (Some(p), MatchStatus::Success),
                Err(MatchStatus::NotFound) => (None, match_status(false, one.person_is_empty())),
                Err(other) => (None, other),
            };
            PersonWithUniqueId {
                status,
                person,
                unique_id: id,
            }
        },
        |p| p.person.is_some(),
        |people, overall_status, credits_used| {
            serde_json::to_value(EnrichPeopleWebhook {
                people,
                overall_status,
                credits_used,
            })
            .ok()
        },
    );
    ok_typed(EnrichBatchAccepted {
        status: EnrichBatchAccepted::IN_PROGRESS.into(),
    })
    .await
}
