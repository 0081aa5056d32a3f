//! The plan of each paid action (SPEC.md §4.4–§4.7, §4.10; openapi.json's batch enrichments
//! and segmentation): what the store owns, what is suppressed or pending, and what is left to
//! buy, per credit pool.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::gate::*;
use super::*;
use crate::session::{Freshness, Session, with_store};
use prospect_api::client::Endpoint;
use prospect_api::cost::Cost;
use prospect_api::types::{LOOKUP_COMPANIES_MAX, LOOKUP_PEOPLE_MAX, REVEAL_MAX_IDS};
use prospect_common::ContactKind;
use prospect_store::{EntityKey, Store};

/// Counts a lookup's keys as a stream, off the async threads: asked (distinct normalized
/// keys), owned (found by `owned_of` in batches of `batch`, unless refreshing, with the oldest
/// age), pending (with `pending_claim`, the claim key of a key: sent by an earlier call whose
/// webhook is still awaited, never sent again) and refused (keys `normalize` rejects), into
/// `p`. Memory is one batch, not the list.
#[allow(clippy::too_many_arguments)]
pub(super) async fn plan_lookup(
    s: &Session,
    p: &mut Plan,
    keys: &KeySource,
    normalize: fn(&str) -> Option<String>,
    owned_of: OwnedOf,
    batch: usize,
    suppress: prospect_store::SuppressKind,
    pending_claim: Option<fn(&str) -> String>,
) -> Result<(), PlanError> {
    let refresh = p.refresh;
    let store = s.store().clone();
    let keys = keys.clone();
    let counted = tokio::task::spawn_blocking(move || {
        let mut plan = Plan::new(String::new(), "", refresh);
        let mut seen: foldhash::HashSet<u64> = foldhash::HashSetExt::new();
        let mut chunk: Vec<String> = Vec::with_capacity(batch);
        let count = |chunk: &mut Vec<String>, plan: &mut Plan| -> Result<(), PlanError> {
            if chunk.is_empty() {
                return Ok(());
            }
            let g = store
                .lock()
                .map_err(|_| PlanError::Other("the store is unusable".into()))?;
            // Suppressed keys are refused (issue 16), neither owned nor bought.
            let refused = g
                .suppressed_among(suppress, chunk)
                .map_err(|e| PlanError::Other(e.to_string()))?;
            if !refused.is_empty() {
                plan.suppress(&refused);
                chunk.retain(|k| !refused.contains_key(k));
            }
            if !refresh {
                for at in owned_of(&g, chunk).map_err(|e| PlanError::Other(e.to_string()))? {
                    plan.own(at);
                }
            }
            if let Some(claim) = pending_claim {
                let claims: Vec<String> = chunk.iter().map(|k| claim(k)).collect();
                let sent = g
                    .pending(&claims)
                    .map_err(|e| PlanError::Other(e.to_string()))?;
                plan.pending += sent.len() as u64;
            }
            chunk.clear();
            Ok(())
        };
        // Read and normalized on a thread of its own while this one counts.
        let mut read = keys.read_ahead(normalize, batch)?;
        while let Some(stretch) = read.blocking_recv() {
            for key in stretch? {
                match key {
                    keys::ReadKey::Refused(key) => plan.refuse(&key),
                    keys::ReadKey::Key { norm, hash, .. } => {
                        if !seen.insert(hash) {
                            continue;
                        }
                        plan.asked += 1;
                        chunk.push(norm);
                        if chunk.len() == batch {
                            count(&mut chunk, &mut plan)?;
                        }
                    }
                }
            }
        }
        count(&mut chunk, &mut plan)?;
        Ok::<_, PlanError>(plan)
    })
    .await
    .map_err(|e| PlanError::Other(format!("planning failed: {e}")))??;
    p.asked = counted.asked;
    p.owned = counted.owned;
    p.owned_oldest = counted.owned_oldest;
    p.refused = counted.refused;
    p.refused_examples = counted.refused_examples;
    p.suppressed = counted.suppressed;
    p.suppressed_by = counted.suppressed_by;
    p.pending = counted.pending;
    p.to_buy = p.asked.saturating_sub(p.owned + p.suppressed + p.pending);
    p.refuse_if_all_suppressed();
    Ok(())
}

/// The fetch times of the stored records of some normalized keys.
pub(super) type OwnedOf =
    fn(&Store, &[String]) -> Result<Vec<DateTime<Utc>>, prospect_store::StoreError>;

pub(super) async fn plan_lookup_companies(
    s: &Session,
    keys: &KeySource,
    refresh: bool,
) -> Result<Plan, PlanError> {
    let what = CompanyBuy {
        kind: "lookup_companies",
        endpoint: Endpoint::LookupCompanies,
        batch: LOOKUP_COMPANIES_MAX,
        action: "lookup",
    };
    plan_companies(s, keys, refresh, what).await
}

/// A batch enrichment of companies is planned as a lookup of them is (owned domains at 0,
/// suppressed ones refused), in requests of at most 10,000 domains at the enrich-company price
/// each (what is found is charged, with the webhook delivery). Domains another call sent and
/// still awaits are pending (issue 34): not to buy, and the run does not send them again.
pub(super) async fn plan_enrich_companies(
    s: &Session,
    keys: &KeySource,
    refresh: bool,
) -> Result<Plan, PlanError> {
    let what = CompanyBuy {
        kind: "enrich_companies",
        endpoint: Endpoint::EnrichCompanies,
        batch: prospect_api::types::ENRICH_BATCH_MAX,
        action: "batch enrich",
    };
    plan_companies(s, keys, refresh, what).await
}

/// How companies are bought by domain: the job kind, the endpoint (its price per company), the
/// most domains a request and the action's word for the plan.
pub(super) struct CompanyBuy {
    kind: &'static str,
    endpoint: Endpoint,
    batch: usize,
    action: &'static str,
}

/// Plans buying the companies of `keys` by domain as `what` says (see [`plan_lookup`]).
pub(super) async fn plan_companies(
    s: &Session,
    keys: &KeySource,
    refresh: bool,
    what: CompanyBuy,
) -> Result<Plan, PlanError> {
    let mut p = Plan::new(String::new(), what.kind, refresh);
    plan_lookup(
        s,
        &mut p,
        keys,
        prospect_common::keys::domain_key,
        |st, chunk| st.fetched_times(EntityKey::Domain, chunk),
        what.batch,
        prospect_store::SuppressKind::Domain,
        // A batch enrichment sent before and still awaited is pending, not to buy (issue 34).
        (what.endpoint == Endpoint::EnrichCompanies)
            .then_some(prospect_store::company_claim as fn(&str) -> String),
    )
    .await?;
    p.cost = crate::spend::lookup_cost(what.endpoint, p.to_buy as usize);
    p.requests = p.to_buy.div_ceil(what.batch as u64) as u32;
    p.action = format!("{} of {} domains", what.action, p.asked);
    Ok(p)
}

/// A batch enrichment of people: each line read ([`person_item`]; lines that name nobody are
/// refused), deduplicated by key, suppressed people refused, those the store holds (by id, by
/// handle, or matched before) owned at 0, the rest bought in requests of at most 10,000 at the
/// enrich-person price each (what is found is charged, with the webhook delivery).
pub(super) async fn plan_enrich_people(
    s: &Session,
    keys: &KeySource,
    refresh: bool,
) -> Result<Plan, PlanError> {
    let batch = prospect_api::types::ENRICH_BATCH_MAX;
    let mut p = Plan::new(String::new(), "enrich_people", refresh);
    let mut seen = HashSet::new();
    let mut items = Vec::new();
    for line in keys.read_all()? {
        match person_item(&line) {
            None if line.trim().is_empty() => {}
            None => p.refuse(&line),
            Some(item) => {
                if seen.insert(item.key.clone()) {
                    items.push(item);
                }
            }
        }
    }
    p.asked = items.len() as u64;
    let refused = crate::suppress::refused_person_items(s, items.clone()).await;
    p.suppress(&refused);
    items.retain(|i| !refused.contains_key(&i.key));
    if !refresh {
        for hit in s.stored_people_of(&items).await.values() {
            p.own(hit.fetched_at);
        }
    }
    p.to_buy = p.asked - p.owned - p.suppressed;
    p.cost = crate::spend::lookup_cost(Endpoint::EnrichPeople, p.to_buy as usize);
    p.requests = p.to_buy.div_ceil(batch as u64) as u32;
    p.action = format!("batch enrich of {} people", p.asked);
    p.refuse_if_all_suppressed();
    Ok(p)
}

pub(super) async fn plan_lookup_people(
    s: &Session,
    keys: &KeySource,
    ids: bool,
    refresh: bool,
) -> Result<Plan, PlanError> {
    let mut p = Plan::new(String::new(), "lookup_people", refresh);
    if ids {
        plan_lookup(
            s,
            &mut p,
            keys,
            id_key,
            |st, chunk| st.fetched_times(EntityKey::PersonId, chunk),
            LOOKUP_PEOPLE_MAX,
            prospect_store::SuppressKind::Person,
            None,
        )
        .await?;
    } else {
        plan_lookup(
            s,
            &mut p,
            keys,
            prospect_common::keys::linkedin_handle,
            |st, chunk| st.fetched_times(EntityKey::Handle, chunk),
            LOOKUP_PEOPLE_MAX,
            prospect_store::SuppressKind::Handle,
            None,
        )
        .await?;
    }
    p.cost = crate::spend::lookup_cost(Endpoint::LookupPeople, p.to_buy as usize);
    p.requests = p.to_buy.div_ceil(LOOKUP_PEOPLE_MAX as u64) as u32;
    p.action = format!("lookup of {} people", p.asked);
    Ok(p)
}

/// Plans a people lookup whose keys mix handles and service ids: each part planned as
/// [`plan_lookup_people`] plans it, the counts added.
async fn plan_lookup_people_by_shape(
    s: &Session,
    keys: &KeySource,
    refresh: bool,
) -> Result<Plan, PlanError> {
    let (handles, ids) = super::split_people_keys(&keys.read_all()?);
    let mut p = Plan::new(String::new(), "lookup_people", refresh);
    for (part, ids) in [(handles, false), (ids, true)] {
        if part.is_empty() {
            continue;
        }
        let q = plan_lookup_people(s, &KeySource::List(part), ids, refresh).await?;
        p.asked += q.asked;
        p.owned += q.owned;
        p.owned_oldest = p.owned_oldest.into_iter().chain(q.owned_oldest).min();
        p.pending += q.pending;
        p.suppressed += q.suppressed;
        for (category, n) in q.suppressed_by {
            *p.suppressed_by.entry(category).or_default() += n;
        }
        p.refused += q.refused;
        p.refused_examples.extend(q.refused_examples);
        p.to_buy += q.to_buy;
        p.cost += q.cost;
        p.requests += q.requests;
    }
    p.refused_examples.truncate(5);
    p.action = format!("lookup of {} people", p.asked);
    Ok(p)
}

pub(super) async fn plan_reveal(
    s: &Session,
    contact: ContactKind,
    keys: &KeySource,
    refresh: bool,
) -> Result<Plan, PlanError> {
    let list = keys.read_all()?;
    let mut p = Plan::new(String::new(), "", refresh);
    p.kind = match contact {
        ContactKind::Email => "reveal_emails".into(),
        ContactKind::Phone => "reveal_phones".into(),
    };
    let mut seen = HashSet::new();
    let ids: Vec<String> = list
        .iter()
        .map(|i| i.trim().to_string())
        .filter(|i| !i.is_empty() && seen.insert(i.clone()))
        .collect();
    p.asked = ids.len() as u64;
    // People suppressed (by id, handle, email or the domain they work at) are refused.
    let refused = crate::suppress::refused_people(s, ids.clone()).await;
    p.suppress(&refused);
    let ids: Vec<String> = ids
        .into_iter()
        .filter(|i| !refused.contains_key(i))
        .collect();
    let claim_keys: Vec<String> = ids.iter().map(|i| run::contact_key(contact, i)).collect();
    let (stored, pending) = {
        let ids = ids.clone();
        with_store(s.store(), move |st| {
            Ok((st.contacts_for(&ids, contact)?, st.pending(&claim_keys)?))
        })
        .await
        .map_err(PlanError::Other)?
    };
    let pending: HashSet<String> = pending.into_iter().collect();
    for id in &ids {
        let final_contact = stored.get(id).filter(|c| c.status != "inProgress");
        match final_contact {
            Some(c) if !refresh => p.own(c.revealed_at),
            _ if pending.contains(&run::contact_key(contact, id)) => p.pending += 1,
            _ => p.to_buy += 1,
        }
    }
    p.cost = prospect_api::cost::reveal_cost(contact, p.to_buy as usize);
    p.requests = p.to_buy.div_ceil(REVEAL_MAX_IDS as u64) as u32;
    p.action = format!("reveal of {} {}s", p.asked, contact.as_str());
    p.refuse_if_all_suppressed();
    Ok(p)
}

pub(super) async fn plan_enrich_company(
    s: &Session,
    domain: &str,
    refresh: bool,
) -> Result<Plan, PlanError> {
    let req = run::enrich_company_request(domain);
    prospect_api::client::check(&req).map_err(PlanError::Invalid)?;
    let mut p = Plan::new(
        format!("enrich of {}", domain.trim()),
        "enrich_company",
        refresh,
    );
    let refused = crate::suppress::refused_domains(s, vec![domain.to_string()]).await;
    if !refused.is_empty() {
        p.asked = 1;
        p.suppress(&refused);
        p.refuse_if_all_suppressed();
        return Ok(p);
    }
    let stored = if refresh {
        None
    } else {
        s.stored_company_at(domain).await
    };
    one_item(&mut p, stored, prospect_api::cost::estimate(&req));
    Ok(p)
}

/// Plans a segmentation: its distinct domains are asked; all owned (0 credits) when the store
/// bought one for the same input ([`crate::segment::input_key`]) and `refresh` is off,
/// else one request of 0.1 credit a distinct domain.
pub(super) async fn plan_segment(
    s: &Session,
    request: &Value,
    refresh: bool,
) -> Result<Plan, PlanError> {
    let input: prospect_api::types::SegmentationInput = serde_json::from_value(request.clone())
        .map_err(|e| PlanError::Other(format!("the segmentation request does not read: {e}")))?;
    prospect_api::client::check(&input).map_err(PlanError::Invalid)?;
    let n = prospect_common::keys::distinct_domains(&input.domains).len();
    if n == 0 {
        return Err(PlanError::Other(
            "a segmentation needs at least one company domain".into(),
        ));
    }
    let mut p = Plan::new(
        format!("segmentation of {n} domains"),
        "segmentation",
        refresh,
    );
    let owned = if refresh {
        None
    } else {
        crate::segment::owned(s, &input).await
    };
    p.asked = n as u64;
    match owned {
        Some(row) => {
            p.own(row.created_at);
            p.owned = p.asked;
        }
        None => {
            p.to_buy = p.asked;
            p.cost = crate::segment::segmentation_cost(n);
            p.requests = 1;
        }
    }
    Ok(p)
}

/// A plan of one item: owned when the store has it (bought at `stored`), else one request of
/// at most `cost`.
pub(super) fn one_item(p: &mut Plan, stored: Option<DateTime<Utc>>, cost: Cost) {
    p.asked = 1;
    match stored {
        Some(at) => p.own(at),
        None => {
            p.to_buy = 1;
            p.cost = cost;
            p.requests = 1;
        }
    }
}

pub(super) async fn plan_enrich_person(
    s: &Session,
    request: &Value,
    refresh: bool,
) -> Result<Plan, PlanError> {
    let req: prospect_api::types::EnrichPersonRequest = serde_json::from_value(request.clone())
        .map_err(|e| PlanError::Other(format!("the enrich request does not read: {e}")))?;
    prospect_api::client::check(&req).map_err(PlanError::Invalid)?;
    let mut p = Plan::new("enrich of one person".into(), "enrich_person", refresh);
    let stored = if refresh {
        None
    } else {
        s.stored_person_for(&req).await.map(|hit| hit.fetched_at)
    };
    one_item(&mut p, stored, prospect_api::cost::estimate(&req));
    Ok(p)
}

/// Plans `action` against `s`'s store and allowances (see the module docs). Free: nothing paid
/// is sent (the credit balance, a free read, is asked for the daily allowance when the plan
/// has requests).
///
/// Errors: [`PlanError`].
pub async fn plan(s: &Session, action: &Action, fresh: Freshness) -> Result<Plan, PlanError> {
    let refresh = fresh == Freshness::Refresh;
    let mut p = match action {
        Action::Search {
            endpoint,
            body,
            limit,
            set,
        } => run::plan_search(s, endpoint, body, *limit, set.as_ref(), refresh).await?,
        Action::LookupCompanies { keys } => plan_lookup_companies(s, keys, refresh).await?,
        Action::LookupPeople {
            keys,
            ids,
            by_shape,
        } => match by_shape {
            true => plan_lookup_people_by_shape(s, keys, refresh).await?,
            false => plan_lookup_people(s, keys, *ids, refresh).await?,
        },
        Action::Reveal { contact, keys } => plan_reveal(s, *contact, keys, refresh).await?,
        Action::EnrichCompany { domain } => plan_enrich_company(s, domain, refresh).await?,
        Action::EnrichPerson { request } => plan_enrich_person(s, request, refresh).await?,
        Action::EnrichCompanies { keys } => plan_enrich_companies(s, keys, refresh).await?,
        Action::EnrichPeople { keys } => plan_enrich_people(s, keys, refresh).await?,
        Action::Segment { request } => plan_segment(s, request, refresh).await?,
    };
    finish_plan(s, &mut p).await;
    Ok(p)
}

/// Plans one page of a list search as the explorer asks it (SPEC.md §4.2, §4.3; `req` has
/// its cursor and size): owned when the same page (endpoint, body, cursor, size) was bought
/// within `search_fresh_for` and `fresh` lets the store answer (0 credits, with its age);
/// else one request of `req.page_size()` results costing at most [`SearchRequest::estimate`].
/// Paced and checked against the budgets as every plan is; the daily request allowance is not
/// read for it (one request: a day's last 429 refuses it without a charge). Free: reads the
/// store only.
///
/// [`SearchRequest::estimate`]: crate::request::SearchRequest::estimate
pub async fn plan_page(s: &Session, req: &crate::request::SearchRequest, fresh: Freshness) -> Plan {
    let refresh = fresh == Freshness::Refresh;
    let mut p = Plan::new(
        format!("a page of {}", req.endpoint().path()),
        "search",
        refresh,
    );
    p.asked = req.page_size();
    // The page as it is sent: with the suppressed entities excluded (issue 16).
    let (req, suppressed) = crate::suppress::apply_to_request(s, req).await;
    let req = &req;
    p.suppressed = suppressed.total();
    p.suppressed_by = suppressed.by_category.clone();
    let stored = match fresh {
        Freshness::Stored => s.stored_search_page(req).await,
        Freshness::Refresh => None,
    };
    match stored {
        Some((hit, _)) => {
            let at = hit.stored_at.unwrap_or(p.planned_at);
            p.owned = run::records_of(&hit.value) as u64;
            p.owned_oldest = Some(at);
        }
        None => {
            p.to_buy = p.asked;
            p.cost = req.estimate();
            p.requests = 1;
        }
    }
    pace_plan(s, &mut p);
    if p.requests > 0 {
        p.refusal = match s.paid_refusal() {
            Some(why) => Some(refused_words(why)),
            None => budget_refusal(s, &p.cost).await,
        };
        // The daily allowance used up, and the last balance known (no request made for it).
        if p.refusal.is_none()
            && let Some(pacer) = s.client().pacer()
            && let Some(b) = pacer.blocked()
        {
            p.refuse_for(
                RefusalCause::DailyAllowance,
                format!(
                    "the daily request allowance is used up{}; nothing was sent",
                    resets_at(b.resets_in.as_secs() as i64)
                ),
            );
        }
        if p.refusal.is_none()
            && let Some(b) = s.known_balance()
            && let Some(r) = balance_refusal(&p, &b)
        {
            p.refuse_for(RefusalCause::Credits, r);
        }
    }
    p
}
