//! The paid actions of the explorer (issue 8) on the backend side, off the UI loop: the store
//! check and estimate before spending ([`prepare`]), sending them through the
//! [`Session`] ([`run`]: reveal, enrich, lookup; stored before they come back), warmup, and
//! reading a list of lookup keys from pasted text or a file ([`split_keys`], [`read_keys`]).
//!
//! Every key from a file or the clipboard is sanitized before it is sent or shown.
use std::collections::HashMap;
use std::path::Path;

use chrono::{DateTime, Utc};

use super::msg::{ApiFailure, Charge, PaidAction, Prepared, Ran, RanAnswer, Record, ResultRow};
use super::schema::SearchSubject;
use prospect_api::client::Enriched;
use prospect_api::cost::Cost;
use prospect_api::types::webhooks::WebhookEvent;
use prospect_api::types::{
    Company, LookalikePerson, Person, WARMUP_MAX_DOMAINS, WarmupCompaniesRequest,
    WarmupCompaniesResponse,
};
use prospect_common::ContactKind;
use prospect_common::sanitize::sanitize;
use prospect_core::engine::{self, JobEnd, KeySource, PlanError, split_people_keys};
use prospect_core::session::{Freshness, Session};
use prospect_core::spend::Estimate;

/// Splits pasted text into keys: on newlines, commas, semicolons, tabs and spaces; empty
/// pieces dropped, each sanitized and trimmed; duplicates kept once (first occurrence).
pub fn split_keys(text: &str) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    sanitize_keys(
        text.split(|c: char| c == ',' || c == ';' || c.is_whitespace())
            .map(str::to_string),
    )
    .into_iter()
    .filter(|k| seen.insert(k.clone()))
    .collect()
}

fn sanitize_keys(keys: impl Iterator<Item = String>) -> Vec<String> {
    keys.map(|k| {
        sanitize(&k)
            .trim()
            .trim_matches(|c| c == '"' || c == '\'')
            .to_string()
    })
    .filter(|k| !k.is_empty())
    .collect()
}

/// Column names a CSV file's header may use for the keys, by subject (lowercase, compared
/// without spaces, `_` and `-`).
fn key_columns(subject: SearchSubject) -> &'static [&'static str] {
    match subject {
        SearchSubject::Companies => &["domain", "domains", "website", "url", "companydomain"],
        SearchSubject::People => &[
            "linkedin",
            "linkedinurl",
            "linkedinhandle",
            "handle",
            "id",
            "personid",
            "serviceid",
        ],
    }
}

/// Reads lookup keys from `path`: a `.csv` / `.tsv` file gives the column whose header names
/// the keys (`domain`, `website`... for companies; `linkedinUrl`, `handle`, `id`... for
/// people), else its first column (header row included when it does not name a column); any
/// other file is a plain list split like pasted text ([`split_keys`]).
///
/// Errors, in one line naming the file: it cannot be read, it is not UTF-8 or not CSV, or it
/// holds no key.
pub fn read_keys(path: &Path, subject: SearchSubject) -> Result<Vec<String>, String> {
    let shown = sanitize(&path.display().to_string());
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{shown} is not UTF-8 text"))?;
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let keys = match ext.as_deref() {
        Some(e @ ("csv" | "tsv")) => {
            let mut rdr = csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .delimiter(if e == "tsv" { b'\t' } else { b',' })
                .from_reader(text.as_bytes());
            let mut rows = Vec::new();
            for r in rdr.records() {
                rows.push(r.map_err(|e| format!("{shown} is not CSV: {e}"))?);
            }
            let wanted = key_columns(subject);
            let norm = |s: &str| s.trim().to_ascii_lowercase().replace([' ', '_', '-'], "");
            let col = rows
                .first()
                .and_then(|h| h.iter().position(|c| wanted.contains(&norm(c).as_str())));
            let (skip, col) = match col {
                Some(c) => (1, c),
                None => (0, 0),
            };
            let mut seen = std::collections::HashSet::new();
            sanitize_keys(
                rows.iter()
                    .skip(skip)
                    .filter_map(|r| r.get(col).map(str::to_string)),
            )
            .into_iter()
            .filter(|k| seen.insert(k.clone()))
            .collect()
        }
        _ => split_keys(&text),
    };
    if keys.is_empty() {
        return Err(format!("{shown} holds no key to look up"));
    }
    Ok(keys)
}

/// A company row for a lookup key the service did not find: the domain, "not found".
pub fn not_found_company(key: &str) -> ResultRow {
    let record = Record::Company {
        company: Company {
            domain: sanitize(key),
            ..Company::default()
        },
        relevance: None,
        score: None,
    };
    let mut cells = record.cells();
    if let Some(c) = cells.first_mut() {
        *c = "not found".to_string();
    }
    ResultRow { cells, record }
}

/// A person row for a lookup key the service did not find: the key, "not found".
pub fn not_found_person(key: &str) -> ResultRow {
    let record = Record::Person {
        person: Person::default(),
        company: None,
        relevance: None,
    };
    let mut cells = record.cells();
    if let Some(c) = cells.first_mut() {
        *c = format!("not found: {}", sanitize(key));
    }
    ResultRow { cells, record }
}

fn company_row(c: Company) -> ResultRow {
    let record = Record::Company {
        company: c,
        relevance: None,
        score: None,
    };
    ResultRow {
        cells: record.cells(),
        record,
    }
}

fn person_row(p: LookalikePerson) -> ResultRow {
    let record = Record::Person {
        person: p.person,
        company: p.company,
        relevance: p.relevance,
    };
    ResultRow {
        cells: record.cells(),
        record,
    }
}

/// The reveal event of `kind` (where its webhook is delivered).
pub fn reveal_event(kind: ContactKind) -> WebhookEvent {
    match kind {
        ContactKind::Email => WebhookEvent::RevealEmails,
        ContactKind::Phone => WebhookEvent::RevealPhones,
    }
}

/// Plans `action` through the spend engine ([`prospect_core::engine::plan`]: what the store
/// owns, what is to buy per pool, requests and ETA, the budget) and reads a lookup's file. Free:
/// nothing paid is sent. The stored contacts of a reveal come along to fill its rows at once.
/// Errors: a lookup file that cannot be read, a request the client would refuse, a plan the
/// engine cannot make.
pub async fn prepare(
    s: &Session,
    action: PaidAction,
    fresh: Freshness,
) -> Result<Prepared, ApiFailure> {
    let action = match action {
        PaidAction::Lookup {
            subject,
            keys: _,
            file: Some(path),
        } => {
            let keys = tokio::task::spawn_blocking(move || read_keys(&path, subject))
                .await
                .map_err(|e| ApiFailure::other(&format!("reading the list failed: {e}")))?
                .map_err(|e| ApiFailure::other(&e))?;
            PaidAction::Lookup {
                subject,
                keys,
                file: None,
            }
        }
        PaidAction::Lookup { keys, .. } if keys.is_empty() => {
            return Err(ApiFailure::other("nothing to look up: the list is empty"));
        }
        other => other,
    };
    let spec = engine_action(&action);
    let plan = engine::plan(s, &spec, fresh).await.map_err(|e| match e {
        PlanError::Invalid(api) => ApiFailure::from(api),
        other => ApiFailure::other(&other.to_string()),
    })?;
    let stored_contacts = match (&action, fresh) {
        (PaidAction::Reveal { kind, ids }, Freshness::Stored) => {
            s.stored_contacts(ids, *kind).await
        }
        _ => HashMap::new(),
    };
    Ok(Prepared {
        estimate: Estimate {
            cost: plan.cost.rounded(),
            from_store: plan.owned as usize,
            to_send: plan.to_buy as usize,
        },
        stored_at: plan.owned_oldest,
        stored_contacts,
        plan: Some(plan),
        action,
        fresh,
    })
}

/// The request of a segmentation of `domains` with the default features.
fn segmentation_input(domains: &[String]) -> prospect_api::types::SegmentationInput {
    prospect_api::types::SegmentationInput {
        domains: domains.to_vec(),
        ..Default::default()
    }
}

/// The spend engine's action of an explorer action (its keys already read).
fn engine_action(action: &PaidAction) -> engine::Action {
    match action {
        PaidAction::Reveal { kind, ids } => engine::Action::Reveal {
            contact: *kind,
            keys: KeySource::List(ids.clone()),
        },
        PaidAction::EnrichCompany { domain } => engine::Action::EnrichCompany {
            domain: domain.clone(),
        },
        PaidAction::Segment { domains } => engine::Action::Segment {
            request: serde_json::to_value(segmentation_input(domains)).unwrap_or_default(),
        },
        PaidAction::EnrichPerson { request, .. } => engine::Action::EnrichPerson {
            request: serde_json::to_value(&**request).unwrap_or_default(),
        },
        PaidAction::Lookup {
            subject: SearchSubject::Companies,
            keys,
            ..
        } => engine::Action::LookupCompanies {
            keys: KeySource::List(keys.clone()),
        },
        PaidAction::Lookup {
            subject: SearchSubject::People,
            keys,
            ..
        } => {
            // Handles and ids mixed: the plan counts them as handles where they are ones.
            let (handles, ids) = split_people_keys(keys);
            if handles.is_empty() {
                engine::Action::LookupPeople {
                    keys: KeySource::List(ids),
                    ids: true,
                }
            } else {
                engine::Action::LookupPeople {
                    keys: KeySource::List(keys.clone()),
                    ids: false,
                }
            }
        }
    }
}

/// Sends `action` through the session (which answers from the store when `fresh` allows it
/// and stores every paid answer before returning). A reveal's results arrive by webhook at
/// `webhook_url(event)`; `Err` from it (no receiver) refuses the reveal before anything is
/// sent. Errors: the client's, in plain words ([`ApiFailure`]).
pub async fn run(
    s: &Session,
    action: PaidAction,
    fresh: Freshness,
    webhook_url: impl Fn(WebhookEvent) -> Result<String, String>,
) -> Result<Ran, ApiFailure> {
    // Every paid action is a job (issue 35): killed meanwhile, `prospect jobs` lists it and
    // `prospect resume ID` buys only the rest.
    let what = action.describe();
    let mut jobs = Vec::new();
    for a in job_actions(&action) {
        jobs.push(engine::begin_job(s, &a, &what, None).await);
    }
    let out = run_action(s, action, fresh, webhook_url).await;
    let end = match &out {
        Ok(r) => match &r.unread {
            Some(why) => JobEnd::Failed(why.clone()),
            None => JobEnd::Done,
        },
        Err(e) => JobEnd::Failed(e.message.clone()),
    };
    for job in jobs {
        engine::end_job(s, job, end.clone()).await;
    }
    out
}

/// The engine's actions a paid action of the explorer is recorded as, so `prospect resume ID`
/// can finish it: one each, but two for a lookup of people by handles and by service ids.
fn job_actions(action: &PaidAction) -> Vec<engine::Action> {
    use engine::Action;
    match action {
        PaidAction::Reveal { kind, ids } => vec![Action::Reveal {
            contact: *kind,
            keys: KeySource::List(ids.clone()),
        }],
        PaidAction::EnrichCompany { domain } => vec![Action::EnrichCompany {
            domain: domain.clone(),
        }],
        PaidAction::EnrichPerson { request, .. } => vec![Action::EnrichPerson {
            request: serde_json::to_value(&**request).unwrap_or_default(),
        }],
        PaidAction::Lookup {
            subject: SearchSubject::Companies,
            keys,
            ..
        } => vec![Action::LookupCompanies {
            keys: KeySource::List(keys.clone()),
        }],
        PaidAction::Lookup { keys, .. } => {
            let (handles, ids) = split_people_keys(keys);
            [(handles, false), (ids, true)]
                .into_iter()
                .filter(|(k, _)| !k.is_empty())
                .map(|(k, ids)| Action::LookupPeople {
                    keys: KeySource::List(k),
                    ids,
                })
                .collect()
        }
        PaidAction::Segment { domains } => vec![Action::Segment {
            request: serde_json::to_value(segmentation_input(domains)).unwrap_or_default(),
        }],
    }
}

/// [`run`] without its job.
async fn run_action(
    s: &Session,
    action: PaidAction,
    fresh: Freshness,
    webhook_url: impl Fn(WebhookEvent) -> Result<String, String>,
) -> Result<Ran, ApiFailure> {
    let mut ran = Ran {
        charge: Charge::default(),
        stored_at: None,
        provenance: None,
        store_error: None,
        unread: None,
        answer: RanAnswer::Reveal {
            kind: ContactKind::Email,
            from_store: HashMap::new(),
            sent: Vec::new(),
        },
    };
    match action {
        PaidAction::Reveal { kind, ids } => {
            let url = webhook_url(reveal_event(kind)).map_err(|e| ApiFailure::other(&e))?;
            let r = s.reveal(kind, &ids, &url, fresh).await?;
            ran.charge.requests = r.sent.len().div_ceil(prospect_api::types::REVEAL_MAX_IDS) as u32;
            ran.stored_at = r.from_store.values().map(|c| c.revealed_at).min();
            ran.answer = RanAnswer::Reveal {
                kind,
                from_store: r.from_store,
                sent: r.sent,
            };
        }
        PaidAction::EnrichCompany { domain } => {
            let req = engine::enrich_company_request(&domain);
            let paid = s.enrich_company(&req, fresh).await?;
            ran.charge = charge_of(paid.charged, paid.stored_at);
            ran.stored_at = paid.stored_at;
            ran.provenance = paid.provenance;
            ran.store_error = paid.store_error.map(|e| sanitize(&e));
            ran.answer = match paid.value {
                Enriched::Found(r) => RanAnswer::Company {
                    domain,
                    company: Some(Box::new(r.company)),
                    detail: String::new(),
                },
                Enriched::Gathering { detail } => RanAnswer::Company {
                    domain,
                    company: None,
                    detail: sanitize(&detail),
                },
            };
        }
        PaidAction::EnrichPerson { request, key, .. } => {
            let paid = s.enrich_person(&request, fresh).await?;
            ran.charge = charge_of(paid.charged, paid.stored_at);
            ran.stored_at = paid.stored_at;
            ran.provenance = paid.provenance;
            ran.store_error = paid.store_error.map(|e| sanitize(&e));
            ran.answer = match paid.value {
                Enriched::Found(r) => RanAnswer::Person {
                    key,
                    person: Some(Box::new(r.person)),
                    detail: String::new(),
                },
                Enriched::Gathering { detail } => RanAnswer::Person {
                    key,
                    person: None,
                    detail: sanitize(&detail),
                },
            };
        }
        PaidAction::Lookup { subject, keys, .. } => {
            ran_lookup(s, subject, &keys, fresh, &mut ran).await?;
        }
        PaidAction::Segment { domains } => {
            let paid = s
                .create_segmentation(&segmentation_input(&domains), fresh)
                .await?;
            ran.charge = charge_of(paid.charged, paid.stored_at);
            ran.stored_at = paid.stored_at;
            ran.store_error = paid.store_error.map(|e| sanitize(&e));
            ran.answer = RanAnswer::Segmentation {
                id: paid.value.segmentation_id,
            };
        }
    }
    Ok(ran)
}

/// A lookup's answer into `ran`: its rows (a "not found" row for a key with no record), its
/// charge and requests, the age of what the store answered, and what did not read.
async fn ran_lookup(
    s: &Session,
    subject: SearchSubject,
    keys: &[String],
    fresh: Freshness,
    ran: &mut Ran,
) -> Result<(), ApiFailure> {
    let (rows, not_found, from_store, sent, charged, purchases, store_error, oldest, unread) =
        match subject {
            SearchSubject::Companies => lookup_rows(
                s.lookup_companies(keys, fresh).await?,
                company_row,
                not_found_company,
            ),
            SearchSubject::People => {
                let (handles, ids) = split_people_keys(keys);
                lookup_rows(
                    s.lookup_people(&handles, &ids, fresh).await?,
                    person_row,
                    not_found_person,
                )
            }
        };
    ran.charge = Charge {
        cost: charged,
        requests: purchases.max(usize::from(sent > 0)) as u32,
    };
    ran.stored_at = oldest;
    ran.store_error = store_error.map(|e| sanitize(&e));
    ran.unread = unread.map(|e| sanitize(&e));
    ran.answer = RanAnswer::Lookup {
        subject,
        rows,
        not_found,
        from_store,
        sent,
    };
    Ok(())
}

/// What a lookup through the session gave, as the explorer shows it: one row per key in
/// request order (a "not found" row for a key with no record), then the number not found, the
/// keys answered from the store, the keys sent, the charge, the purchases made, why a bought
/// batch could not be stored (if so), the age of the oldest stored answer, and what did not
/// read (if an answer did not read whole).
type LookupRows = (
    Vec<ResultRow>,
    usize,
    usize,
    usize,
    Cost,
    usize,
    Option<String>,
    Option<DateTime<Utc>>,
    Option<String>,
);

/// The rows of lookup `l`: `row` for a found record, `missing` for a key with none.
fn lookup_rows<T>(
    l: prospect_core::session::Lookup<T>,
    row: fn(T) -> ResultRow,
    missing: fn(&str) -> ResultRow,
) -> LookupRows {
    let oldest = l.entries.iter().filter_map(|e| e.stored_at).min();
    let not_found = l.entries.iter().filter(|e| e.record.is_none()).count();
    let rows = l
        .entries
        .into_iter()
        .map(|e| match e.record {
            Some(r) => row(r),
            None => missing(&e.key),
        })
        .collect();
    (
        rows,
        not_found,
        l.from_store,
        l.sent,
        l.charged,
        l.requests,
        l.store_error,
        oldest,
        l.unread,
    )
}

fn charge_of(charged: Cost, stored_at: Option<DateTime<Utc>>) -> Charge {
    Charge {
        cost: charged,
        requests: u32::from(stored_at.is_none()),
    }
}

/// Warms up `domains` (free), in requests of at most 500, the answers merged.
pub async fn warmup(
    s: &Session,
    domains: &[String],
) -> Result<WarmupCompaniesResponse, ApiFailure> {
    let mut all = WarmupCompaniesResponse::default();
    for chunk in domains.chunks(WARMUP_MAX_DOMAINS) {
        let r = s
            .warmup(&WarmupCompaniesRequest {
                domains: chunk.to_vec(),
            })
            .await?;
        all.successful_domains.extend(r.successful_domains);
        all.triggered_domains.extend(r.triggered_domains);
        all.ignored_domains.extend(r.ignored_domains);
        if let Some(m) = r.missing_domains {
            all.missing_domains
                .get_or_insert_with(Default::default)
                .extend(m);
        }
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pasted_text_splits_on_newlines_commas_and_spaces() {
        assert_eq!(
            split_keys("a.com, b.io\nc.de\r\n  d.fr;e.org\ta.com\u{1b}[31m"),
            ["a.com", "b.io", "c.de", "d.fr", "e.org"]
        );
        assert!(split_keys(" \n , ").is_empty());
    }

    #[test]
    fn csv_files_give_the_named_column_else_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("accounts.csv");
        std::fs::write(&p, "name,Website\nAcme,acme.com\nBeta,\"beta.io\"\n").unwrap();
        assert_eq!(
            read_keys(&p, SearchSubject::Companies).unwrap(),
            ["acme.com", "beta.io"]
        );
        let p2 = dir.path().join("plain.csv");
        std::fs::write(&p2, "acme.com,x\nbeta.io,y\n").unwrap();
        assert_eq!(
            read_keys(&p2, SearchSubject::Companies).unwrap(),
            ["acme.com", "beta.io"]
        );
        let p3 = dir.path().join("list.txt");
        std::fs::write(&p3, "acme.com\nbeta.io, gamma.de\n").unwrap();
        assert_eq!(
            read_keys(&p3, SearchSubject::Companies).unwrap(),
            ["acme.com", "beta.io", "gamma.de"]
        );
        let e = read_keys(&dir.path().join("missing.txt"), SearchSubject::Companies).unwrap_err();
        assert!(e.starts_with("cannot read "), "{e}");
        let empty = dir.path().join("empty.txt");
        std::fs::write(&empty, "\n\n").unwrap();
        assert!(
            read_keys(&empty, SearchSubject::People)
                .unwrap_err()
                .contains("no key")
        );
    }

    #[test]
    fn not_found_rows_say_so() {
        let r = not_found_company("ghost.example");
        assert_eq!(r.cells[0], "not found");
        assert_eq!(r.cells[1], "ghost.example");
        assert_eq!(r.record.key(), "ghost.example");
    }
}
