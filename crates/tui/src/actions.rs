//! The paid actions of the explorer (issue 8) on the backend side, off the UI loop: the plan
//! before spending ([`prepare`]), the run through the spend engine's one door ([`run`]:
//! reveal, enrich, lookup, segmentation; kept before they come back), warmup, and
//! splitting pasted lookup keys ([`split_keys`]; a file's are read by the engine, its CSV key
//! column found by its header).
//!
//! Every key from a file or the clipboard is sanitized before it is sent or shown.
use std::time::Duration;

use chrono::{DateTime, Utc};

use super::msg::{
    Action, ApiFailure, Ask, Charge, ExportRan, Outcome, PageData, Prepared, Ran, RanAnswer,
    Record, ResultRow,
};
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
use prospect_core::engine::{
    self, Event, KeyColumn, KeySource, Plan, PlanError, RunError, RunReport,
};
use prospect_core::session::{Freshness, LookupEntry, Session};
use prospect_core::spend::Estimate;
use tokio_util::sync::CancellationToken;

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

/// A company row for a lookup key the service did not find: the domain, "not found".
pub fn not_found_company(key: &str) -> ResultRow {
    missing_company(key, "not found")
}

/// A company row for a lookup key with no record: the domain, and `why` (`not found`,
/// `suppressed (customers)`) in the name's cell.
fn missing_company(key: &str, why: &str) -> ResultRow {
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
        *c = why.to_string();
    }
    ResultRow { cells, record }
}

/// A person row for a lookup key the service did not find: the key, "not found".
pub fn not_found_person(key: &str) -> ResultRow {
    missing_person(key, "not found")
}

/// A person row for a lookup key with no record: `why` and the key in the name's cell.
fn missing_person(key: &str, why: &str) -> ResultRow {
    let record = Record::Person {
        person: Person::default(),
        company: None,
        relevance: None,
    };
    let mut cells = record.cells();
    if let Some(c) = cells.first_mut() {
        *c = format!("{why}: {}", sanitize(key));
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

/// Plans `ask` through the spend engine ([`prospect_core::engine::plan`]: what the store owns,
/// what is to buy per pool, requests and ETA, the budget) and reads a lookup's file (its key
/// column found by its header: [`KeySource::file_of`]). Free: nothing paid is sent. Errors: a lookup
/// file that cannot be read or holds no key, a request the client would refuse, a plan the
/// engine cannot make.
pub async fn prepare(s: &Session, mut ask: Ask, fresh: Freshness) -> Result<Prepared, ApiFailure> {
    if let Some((keys, wanted)) = lookup_keys(&mut ask.action) {
        if let KeySource::File { path, column: None } = keys {
            // A CSV's key column is found by its header (a CRM export), as the CLI finds it.
            let path = path.clone();
            *keys = tokio::task::spawn_blocking(move || KeySource::file_of(path, wanted))
                .await
                .map_err(|e| ApiFailure::other(&format!("reading the list failed: {e}")))?
                .map_err(|e| ApiFailure::other(&e.0))?;
        }
        if matches!(keys, KeySource::List(k) if k.is_empty()) {
            return Err(ApiFailure::other("nothing to look up: the list is empty"));
        }
    }
    let plan = engine::plan(s, &ask.action, fresh)
        .await
        .map_err(plan_failure)?;
    let lookup = matches!(
        ask.action,
        Action::LookupCompanies { .. } | Action::LookupPeople { .. }
    );
    if lookup && plan.asked == 0 && plan.refused == 0 {
        return Err(ApiFailure::other(&format!(
            "{}: no key to look up in it",
            ask.describe()
        )));
    }
    Ok(Prepared {
        estimate: Estimate {
            cost: plan.cost.rounded(),
            from_store: plan.owned as usize,
            to_send: plan.to_buy as usize,
        },
        stored_at: plan.owned_oldest,
        plan: Some(plan),
        ask,
        fresh,
    })
}

/// The keys of a lookup and the kinds of CSV column they are read from; `None` for another
/// action.
fn lookup_keys(action: &mut Action) -> Option<(&mut KeySource, &'static [KeyColumn])> {
    match action {
        Action::LookupCompanies { keys } => Some((keys, &[KeyColumn::Domain])),
        Action::LookupPeople { keys, .. } => {
            Some((keys, &[KeyColumn::Profile, KeyColumn::PersonId]))
        }
        _ => None,
    }
}

/// A plan the engine could not make, in the explorer's words.
pub(crate) fn plan_failure(e: PlanError) -> ApiFailure {
    match e {
        PlanError::Invalid(api) => ApiFailure::from(api),
        other => ApiFailure::other(&other.to_string()),
    }
}

/// What stopped a run, in the explorer's words.
fn run_failure(e: RunError) -> ApiFailure {
    match e {
        RunError::Api(api) => ApiFailure::from(api),
        RunError::Plan(p) => plan_failure(p),
        other => ApiFailure::other(&other.to_string()),
    }
}

/// Runs `ask` through the spend engine's one door as a job (issue 35: [`engine::run`], or
/// [`engine::run_by_webhook`] for a reveal, whose results arrive later by webhook to the
/// session's receiver; `webhook_url` says why there is none, refusing the reveal before
/// anything is sent). `plan` is the one confirmed; `None` (a retry) plans again. Every paid
/// answer is kept before it comes back; once sent, it is never stopped. Errors: the engine's,
/// in plain words ([`ApiFailure`]).
pub async fn run(
    s: &Session,
    ask: Ask,
    plan: Option<Box<Plan>>,
    fresh: Freshness,
    webhook_url: impl Fn(WebhookEvent) -> Result<String, String>,
) -> Result<Ran, ApiFailure> {
    let plan = match plan {
        Some(p) => *p,
        None => engine::plan(s, &ask.action, fresh)
            .await
            .map_err(plan_failure)?,
    };
    // A paid call once sent is never aborted: this run's stop never fires.
    let stop = CancellationToken::new();
    let mut ran = Ran {
        charge: Charge::default(),
        stored_at: None,
        provenance: None,
        store_error: None,
        unread: None,
        answer: RanAnswer::Segmentation { id: 0 },
    };
    match &ask.action {
        Action::Reveal { contact, .. } => {
            // Nothing to buy (owned or refused) needs no receiver.
            if plan.to_buy > 0 {
                webhook_url(reveal_event(*contact)).map_err(|e| ApiFailure::other(&e))?;
            }
            let r =
                engine::run_by_webhook(s, &ask.action, &plan, fresh, Duration::ZERO, &stop, |_| {})
                    .await;
            if let Some(e) = r.report.error {
                return Err(run_failure(e));
            }
            let Some(engine::Arrived::Contacts(kind, r, _)) = r.arrived else {
                return Err(ApiFailure::other("the reveal sent nothing"));
            };
            ran.charge.requests = r.sent.len().div_ceil(prospect_api::types::REVEAL_MAX_IDS) as u32;
            ran.stored_at = r.from_store.values().map(|c| c.revealed_at).min();
            ran.answer = RanAnswer::Reveal {
                kind,
                suppressed: prospect_core::suppress::describe_refused(&r.suppressed),
                from_store: r.from_store,
                sent: r.sent,
            };
        }
        Action::LookupCompanies { .. } | Action::LookupPeople { .. } => {
            let mut rows = LookupRows::default();
            let r = engine::run(s, &ask.action, &plan, fresh, &stop, |event| {
                match event {
                    Event::Companies(e) => rows.add(e, company_row, missing_company),
                    Event::People(e) => rows.add(e, person_row, missing_person),
                    _ => {}
                }
                Ok(())
            })
            .await;
            ran_lookup(&mut ran, subject_of(&ask.action), rows, r.report)?;
        }
        _ => {
            let mut answer = None;
            let r = engine::run(s, &ask.action, &plan, fresh, &stop, |event| {
                if let Event::Answer(a) = event {
                    answer = Some(*a);
                }
                Ok(())
            })
            .await;
            match answer {
                Some(a) => ran_answer(&mut ran, &ask, a),
                None => {
                    let why = r.report.error.map(run_failure);
                    return Err(why.unwrap_or_else(|| ApiFailure::other("no answer came back")));
                }
            }
        }
    }
    Ok(ran)
}

/// Companies or people, by what a lookup looks up.
fn subject_of(action: &Action) -> SearchSubject {
    match action {
        Action::LookupPeople { .. } => SearchSubject::People,
        _ => SearchSubject::Companies,
    }
}

/// A single paid answer (an enrichment, a segmentation) into `ran`.
fn ran_answer(ran: &mut Ran, ask: &Ask, answer: engine::Answer) {
    fn paid_into<T>(ran: &mut Ran, paid: &prospect_core::session::Paid<T>) {
        ran.charge = charge_of(paid.charged, paid.stored_at);
        ran.stored_at = paid.stored_at;
        ran.provenance = paid.provenance;
        ran.store_error = paid.store_error.as_deref().map(sanitize);
    }
    ran.answer = match answer {
        engine::Answer::Company(paid) => {
            paid_into(ran, &paid);
            let domain = match &ask.action {
                Action::EnrichCompany { domain } => domain.clone(),
                _ => String::new(),
            };
            match paid.value {
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
            }
        }
        engine::Answer::Person(paid) => {
            paid_into(ran, &paid);
            let key = ask.row.clone();
            match paid.value {
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
            }
        }
        engine::Answer::Segmentation(paid) => {
            paid_into(ran, &paid);
            RanAnswer::Segmentation {
                id: paid.value.segmentation_id,
            }
        }
    };
}

/// A lookup's rows so far, in input order, with how many keys had no record and when the
/// oldest stored record was bought.
#[derive(Default)]
struct LookupRows {
    rows: Vec<ResultRow>,
    not_found: usize,
    oldest: Option<DateTime<Utc>>,
}

/// The rows of a lookup key with no record: `why` (`not found`, `suppressed (customers)`).
type MissingRow = fn(&str, &str) -> ResultRow;

impl LookupRows {
    /// One batch of `entries`: `row` for a found record, `missing` for a key with none (a
    /// suppressed key says so: it was never sent).
    fn add<T>(
        &mut self,
        entries: Vec<LookupEntry<T>>,
        row: fn(T) -> ResultRow,
        missing: MissingRow,
    ) {
        for e in entries {
            self.oldest = self.oldest.into_iter().chain(e.stored_at).min();
            self.rows.push(match (e.record, &e.suppressed) {
                (Some(r), _) => row(*r),
                (None, Some(category)) => {
                    missing(&e.key, &format!("suppressed ({})", sanitize(category)))
                }
                (None, None) => {
                    self.not_found += 1;
                    missing(&e.key, "not found")
                }
            });
        }
    }
}

/// A lookup's answer into `ran`: its rows (a "not found" row for a key with no record), its
/// charge and requests, the age of what the store answered, and what did not read. Errors:
/// what stopped the run (what it bought before is kept).
fn ran_lookup(
    ran: &mut Ran,
    subject: SearchSubject,
    rows: LookupRows,
    report: RunReport,
) -> Result<(), ApiFailure> {
    if let Some(e) = report.error {
        return Err(run_failure(e));
    }
    ran.charge = Charge {
        cost: report.charged,
        requests: report.requests.max(u32::from(report.bought > 0)),
    };
    ran.stored_at = rows.oldest;
    ran.store_error = report.store_errors.first().map(|e| sanitize(e));
    ran.unread = (report.unread > 0 || !report.decode_errors.is_empty()).then(|| {
        sanitize(&format!(
            "{} key(s) did not read ({}); looked up again, only they are bought",
            report.unread,
            report.decode_errors.first().map_or("", String::as_str)
        ))
    });
    ran.answer = RanAnswer::Lookup {
        subject,
        suppressed: report.suppressed.describe(),
        rows: rows.rows,
        not_found: rows.not_found,
        from_store: report.owned as usize,
        sent: report.bought as usize,
    };
    Ok(())
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

/// Runs the export of the first N of a search through the engine's one door ([`engine::run`],
/// as a job whose `plan` carries the file a resume writes): the search's stored pages are read
/// and the rest bought and kept, each page handed to `progress` as [`Outcome::Page`] once kept,
/// past the first `have` results (those the tab shows), its rows in pages of `first`'s size.
/// `stop` ends it after the page on its way. The end: the job, the search's paging after the
/// run (from `first`), and whether and why it stopped early.
pub async fn export_run(
    s: &Session,
    action: &Action,
    plan: &Plan,
    first: prospect_core::request::SearchRequest,
    have: u64,
    stop: &CancellationToken,
    progress: impl Fn(Outcome),
) -> Outcome {
    let size = first.page_size().max(1) as usize;
    let mut ends = Vec::new();
    let mut seen = 0u64;
    let ran = engine::run(s, action, plan, Freshness::Stored, stop, |event| {
        let Event::Page(page) = event else {
            return Ok(());
        };
        let engine::SearchRecords {
            response,
            take,
            stored_at,
            ..
        } = *page;
        ends.push(engine::PageEnd::of(&response));
        let mut data = crate::records::page(response);
        data.rows.truncate(take);
        let skip = have.saturating_sub(seen).min(take as u64) as usize;
        seen += take as u64;
        data.rows.drain(..skip);
        let mut rows = data.rows.into_iter().peekable();
        while rows.peek().is_some() {
            progress(Outcome::Page(PageData {
                rows: rows.by_ref().take(size).collect(),
                stored_at,
                total: data.total,
                ..PageData::default()
            }));
        }
        Ok(())
    })
    .await;
    let report = ran.report;
    let mut warnings: Vec<String> = report
        .store_errors
        .iter()
        .map(|e| format!("NOT stored: {e}"))
        .chain(report.recovery.iter().map(|p| {
            format!(
                "kept in the recovery file {} (imported at the next start)",
                p.display()
            )
        }))
        .chain(
            report
                .decode_errors
                .iter()
                .map(|e| format!("read in part: {e}")),
        )
        .map(|w| sanitize(&w))
        .collect();
    if report.unread > 0 {
        warnings.push(format!(
            "{} records did not read; a run again buys them",
            report.unread
        ));
    }
    Outcome::ExportRan(Box::new(ExportRan {
        warnings,
        job: ran.job,
        paging: engine::PagedSearch::reopened(first, &ends),
        stopped: report.interrupted,
        error: report.error.map(|e| sanitize(&run_failure(e).message)),
        charge: Charge {
            cost: report.charged,
            requests: report.requests,
        },
    }))
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
    fn not_found_rows_say_so() {
        let r = not_found_company("ghost.example");
        assert_eq!(r.cells[0], "not found");
        assert_eq!(r.cells[1], "ghost.example");
        assert_eq!(r.record.key(), "ghost.example");
    }
}
