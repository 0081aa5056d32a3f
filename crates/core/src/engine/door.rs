//! The one door of a confirmed paid action (issue 35): [`run`] records the action as a job,
//! runs it through the engine and records its end; the front end renders the [`Event`]s it
//! hands on and the report. Webhook actions (a reveal, a batch enrichment) send, then await
//! their deliveries through the receiver's broadcast ([`crate::webhooks::Receiver::subscribe`]),
//! with [`run_by_webhook`]. Front ends hold no job, claim, paging or store logic of their own.

use std::collections::HashMap;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::jobs::{finish_job, start_job};
use super::{Action, Plan, PlanError, RunError, RunReport, SearchRecords, person_item};
use crate::session::{ByWebhook, Freshness, LookupEntry, Paid, Session};
use crate::webhooks::Receiver;
use prospect_api::client::{Endpoint, Enriched};
use prospect_api::types::{
    Company, EnrichCompanyResponse, EnrichPersonResponse, LookalikePerson, Person, SegmentationId,
};
use prospect_store::{Contact, JobId, Stored};

/// What a run hands its front end as it goes, each after it is kept.
#[derive(Debug)]
pub enum Event {
    /// A page of search records (`take` of them within the limit).
    Page(Box<SearchRecords>),
    /// Companies looked up, owned or bought, in the order asked (`record: None`: not found).
    Companies(Vec<LookupEntry<Company>>),
    /// People looked up, as [`Event::Companies`].
    People(Vec<LookupEntry<LookalikePerson>>),
    /// The one answer of a single paid call (an enrichment of one company or one person, a
    /// segmentation), kept.
    Answer(Box<Answer>),
    /// Of the results a webhook action awaits, how many have arrived so far.
    Delivered {
        /// Arrived (stored) so far.
        arrived: u64,
        /// Awaited in all (sent now, or sent before and still awaited).
        awaited: u64,
    },
}

/// The answer of a single paid call as kept, with what it cost, when the store bought it (an
/// answer at 0 credits) and how ([`Paid`]).
// Moved once, boxed in its event: boxing each record too would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Answer {
    /// An enrichment of one company (SPEC.md §4.10): its record, or data still being gathered.
    Company(Paid<Enriched<EnrichCompanyResponse>>),
    /// An enrichment of one person (SPEC.md §4.4), as [`Answer::Company`].
    Person(Paid<Enriched<EnrichPersonResponse>>),
    /// A segmentation (`POST /v2/segmentation`, openapi.json): its id.
    Segmentation(Paid<SegmentationId>),
}

/// How a run ended: what it did and cost, and its job (`None` when the store could not
/// record one; the action ran all the same).
#[derive(Debug)]
pub struct Ran {
    /// What it cost, kept and met.
    pub report: RunReport,
    /// The job it ran as (`prospect resume ID`).
    pub job: Option<JobId>,
}

/// Runs `action`, confirmed with `plan` (whose `job_options` the job keeps for a resume), as a
/// job: recorded before its first paid request, its end (`done`, `interrupted` on `stop`,
/// `failed` with why) after. Searches and lookups hand their records on as [`Event`]s, a single
/// enrichment or a segmentation its [`Event::Answer`]; an error of `on_event` (the front end's
/// output) stops the run, and what was bought is kept. Webhook actions go through
/// [`run_by_webhook`]; here they are refused ([`RunError::Plan`]), sending nothing.
pub async fn run(
    s: &Session,
    action: &Action,
    plan: &Plan,
    fresh: Freshness,
    stop: &CancellationToken,
    on_event: impl FnMut(Event) -> std::io::Result<()>,
) -> Ran {
    run_with_rows(s, action, plan, fresh, None, stop, on_event).await
}

/// [`run`], a search of companies handing its records on rendered ahead in `rows`
/// ([`super::SearchOf::rows`], [`SearchRecords::rows`]): what a front end that writes them in
/// one output form asks, so that the same search run again writes them without decoding its
/// stored answers (issue 39). Other actions run as [`run`] runs them.
pub async fn run_with_rows(
    s: &Session,
    action: &Action,
    plan: &Plan,
    fresh: Freshness,
    rows: Option<crate::export::RowForm>,
    stop: &CancellationToken,
    mut on_event: impl FnMut(Event) -> std::io::Result<()>,
) -> Ran {
    let job = start_job(s, action, plan).await;
    let report = match action {
        Action::Search {
            endpoint,
            body,
            limit,
            set,
        } => {
            let on_page = |p| on_event(Event::Page(Box::new(p)));
            let what = super::SearchOf {
                endpoint,
                body,
                limit: *limit,
                set: set.as_ref(),
                rows,
            };
            super::search(s, what, fresh, job, stop, on_page).await
        }
        Action::LookupCompanies { keys } => {
            let on = |e| on_event(Event::Companies(e));
            super::lookup_companies(s, plan.planned_at, keys, fresh, job, stop, on).await
        }
        Action::LookupPeople {
            keys,
            by_shape: true,
            ..
        } => {
            let on = |e| on_event(Event::People(e));
            super::lookup_people_by_shape(s, plan.planned_at, keys, fresh, job, stop, on).await
        }
        Action::LookupPeople { keys, ids, .. } => {
            let on = |e| on_event(Event::People(e));
            super::lookup_people(s, plan.planned_at, keys, *ids, fresh, job, stop, on).await
        }
        Action::EnrichCompany { domain } => {
            let req = super::enrich_company_request(domain);
            let paid = s.enrich_company(&req, fresh).await.map(Answer::Company);
            single(paid, &mut on_event)
        }
        Action::EnrichPerson { request } => match serde_json::from_value(request.clone()) {
            Ok(req) => {
                let paid = s.enrich_person(&req, fresh).await.map(Answer::Person);
                single(paid, &mut on_event)
            }
            Err(e) => refused(format!("enrich person: {e}")),
        },
        Action::Segment { request } => match serde_json::from_value(request.clone()) {
            Ok(input) => {
                let paid = s.create_segmentation(&input, fresh).await;
                single(paid.map(Answer::Segmentation), &mut on_event)
            }
            Err(e) => refused(format!("segmentation: {e}")),
        },
        other => refused(format!("{} is answered by webhook", other.kind())),
    };
    finish_job(s, job, &report).await;
    Ran { report, job }
}

/// A report of a run refused before sending anything, saying why.
fn refused(why: String) -> RunReport {
    RunReport {
        error: Some(RunError::Plan(PlanError::Other(why))),
        ..RunReport::default()
    }
}

/// The report of a single paid call: what it cost and kept (owned when the store answered at 0
/// credits), its answer handed to `on_event`; its error, with nothing charged for it.
fn single(
    answer: Result<Answer, prospect_api::error::ApiError>,
    on_event: &mut impl FnMut(Event) -> std::io::Result<()>,
) -> RunReport {
    let answer = match answer {
        Ok(a) => a,
        Err(e) => {
            return RunReport {
                error: Some(RunError::Api(e)),
                ..RunReport::default()
            };
        }
    };
    fn of<T>(paid: &Paid<T>) -> RunReport {
        let owned = paid.stored_at.is_some();
        RunReport {
            charged: paid.charged,
            bought: u64::from(!owned),
            owned: u64::from(owned),
            requests: u32::from(!owned),
            records: 1,
            store_errors: paid.store_error.clone().into_iter().collect(),
            recovery: paid.recovery.clone().into_iter().collect(),
            decode_errors: paid.decode_error.clone().into_iter().collect(),
            ..RunReport::default()
        }
    }
    let mut report = match &answer {
        Answer::Company(p) => of(p),
        Answer::Person(p) => of(p),
        Answer::Segmentation(p) => of(p),
    };
    if let Err(e) = on_event(Event::Answer(Box::new(answer))) {
        report.error = Some(RunError::Output(e));
    }
    report
}

/// What a webhook action's deliveries brought, by key: contacts by person id (a reveal),
/// companies by normalized domain, people by item key ([`super::PersonItem::key`]).
#[derive(Debug)]
pub enum Arrived {
    /// A reveal's contacts of one kind.
    Contacts(
        prospect_common::ContactKind,
        ByWebhook<Contact>,
        HashMap<String, Contact>,
    ),
    /// A batch enrichment's companies.
    Companies(ByWebhook<Stored<Company>>, HashMap<String, Stored<Company>>),
    /// A batch enrichment's people.
    People(ByWebhook<Stored<Person>>, HashMap<String, Stored<Person>>),
}

/// How a webhook action ended: what was sent and what arrived ([`Arrived`]), how many awaited
/// results had not arrived when the wait ended (`left`), the report (its charge is what the
/// arrived deliveries charge), and its job.
#[derive(Debug)]
pub struct RanByWebhook {
    /// What was owned, sent, awaited and what arrived; `None` when nothing could be sent.
    pub arrived: Option<Arrived>,
    /// Awaited results that had not arrived when the wait ended.
    pub left: usize,
    /// Awaited in all.
    pub awaited: usize,
    /// What it cost and kept; `error` when the request failed (nothing was charged for it).
    pub report: RunReport,
    /// The job it ran as.
    pub job: Option<JobId>,
}

/// Runs a webhook action (a reveal, a batch enrichment of companies or people) confirmed with
/// `plan`, as a job: sends what the store does not own to the session's receiver
/// ([`Session::start_receiver`]) for its event, then waits up to `wait` for the deliveries (stopping early on `stop`), waking on each delivery
/// the receiver broadcasts (and once a second for deliveries another process on this store
/// received), handing [`Event::Delivered`] on as they arrive. Results not arrived in time are
/// not lost: they are stored when they arrive while a prospect on this data dir runs, and are
/// not sent again meanwhile. Another action is refused ([`RunError::Plan`]).
pub async fn run_by_webhook(
    s: &Session,
    action: &Action,
    plan: &Plan,
    fresh: Freshness,
    wait: Duration,
    stop: &CancellationToken,
    mut on_event: impl FnMut(Event),
) -> RanByWebhook {
    let receiver = s.receiver();
    if receiver.is_none() && plan.to_buy > 0 {
        // The results would have nowhere to go: refused, nothing sent (what the store owns
        // needs no receiver).
        let why = "no webhook receiver runs, so the results could not be delivered; nothing \
                   was sent";
        return RanByWebhook {
            arrived: None,
            left: 0,
            awaited: 0,
            report: refused(why.into()),
            job: None,
        };
    }
    let job = start_job(s, action, plan).await;
    let sent = send_by_webhook(s, action, fresh, receiver, job).await;
    let mut ran = match sent {
        Err(e) => RanByWebhook {
            arrived: None,
            left: 0,
            awaited: 0,
            report: RunReport {
                error: Some(e),
                ..RunReport::default()
            },
            job,
        },
        Ok(sent) => {
            let awaited = sent.awaited();
            let total = awaited.len();
            let left = await_deliveries(s, &sent, receiver, wait, stop, |arrived| {
                on_event(Event::Delivered {
                    arrived: arrived as u64,
                    awaited: total as u64,
                })
            })
            .await;
            let arrived = sent.arrived(s).await;
            let report = arrived.report();
            RanByWebhook {
                arrived: Some(arrived),
                left,
                awaited: total,
                report,
                job,
            }
        }
    };
    ran.report.interrupted = stop.is_cancelled() && ran.left > 0;
    finish_job(s, job, &ran.report).await;
    ran
}

/// What a webhook action sent, before its deliveries arrive.
enum Sent {
    Contacts(prospect_common::ContactKind, ByWebhook<Contact>),
    Companies(ByWebhook<Stored<Company>>),
    People(Vec<super::PersonItem>, ByWebhook<Stored<Person>>),
}

/// Sends `action`'s request(s) for what the store does not own.
async fn send_by_webhook(
    s: &Session,
    action: &Action,
    fresh: Freshness,
    receiver: Option<&Receiver>,
    job: Option<JobId>,
) -> Result<Sent, RunError> {
    use prospect_api::types::WebhookEvent;
    let url = |event| receiver.map(|r| r.url_for(event)).unwrap_or_default();
    Ok(match action {
        Action::Reveal { contact, keys } => {
            let ids = keys.read_all()?;
            let event = match contact {
                prospect_common::ContactKind::Email => WebhookEvent::RevealEmails,
                prospect_common::ContactKind::Phone => WebhookEvent::RevealPhones,
            };
            let r = s.reveal_in(*contact, &ids, &url(event), fresh, job).await?;
            Sent::Contacts(*contact, r)
        }
        Action::EnrichCompanies { keys } => {
            let asked = keys.read_all()?;
            let u = url(WebhookEvent::EnrichCompanies);
            Sent::Companies(s.enrich_companies(&asked, &u, fresh, job).await?)
        }
        Action::EnrichPeople { keys } => {
            let items: Vec<super::PersonItem> = keys
                .read_all()?
                .iter()
                .filter_map(|l| person_item(l))
                .collect();
            let u = url(WebhookEvent::EnrichPeople);
            let r = s.enrich_people(&items, &u, fresh, job).await?;
            Sent::People(items, r)
        }
        other => {
            return Err(RunError::Plan(PlanError::Other(format!(
                "{} is not answered by webhook",
                other.kind()
            ))));
        }
    })
}

impl Sent {
    /// The keys whose results are awaited: sent now, or sent before and still awaited.
    fn awaited(&self) -> Vec<String> {
        fn of<T>(r: &ByWebhook<T>) -> Vec<String> {
            r.sent.iter().chain(&r.pending).cloned().collect()
        }
        match self {
            Sent::Contacts(_, r) => of(r),
            Sent::Companies(r) => of(r),
            Sent::People(_, r) => of(r),
        }
    }

    /// How many awaited results have not arrived yet (read from the store, which every
    /// receiver on it writes to).
    async fn left(&self, s: &Session) -> usize {
        let awaited = self.awaited();
        match self {
            Sent::Contacts(kind, _) => {
                awaited.len()
                    - s.stored_contacts(&awaited, *kind)
                        .await
                        .len()
                        .min(awaited.len())
            }
            Sent::Companies(_) => {
                let claims: Vec<String> = awaited
                    .iter()
                    .map(|d| prospect_store::company_claim(d))
                    .collect();
                s.awaited(&claims).await
            }
            Sent::People(..) => s.awaited(&awaited).await,
        }
    }

    /// What arrived, read from the store.
    async fn arrived(self, s: &Session) -> Arrived {
        let awaited = self.awaited();
        match self {
            Sent::Contacts(kind, r) => {
                let got = s.stored_contacts(&awaited, kind).await;
                Arrived::Contacts(kind, r, got)
            }
            Sent::Companies(r) => {
                let got = s.stored_companies(&awaited).await;
                Arrived::Companies(r, got)
            }
            Sent::People(items, r) => {
                let waiting: Vec<super::PersonItem> = items
                    .into_iter()
                    .filter(|i| !r.from_store.contains_key(&i.key))
                    .collect();
                let got = s.stored_people_of(&waiting).await;
                Arrived::People(r, got)
            }
        }
    }
}

impl Arrived {
    /// The run's report: owned, bought, requests, records, and the charge of what arrived
    /// (from the one price table; results awaited from before were charged by their own call).
    fn report(&self) -> RunReport {
        fn of<T>(r: &ByWebhook<T>, found: usize, charged: prospect_api::cost::Cost) -> RunReport {
            RunReport {
                charged,
                owned: r.from_store.len() as u64,
                bought: r.sent.len() as u64,
                requests: r.purchases.len() as u32,
                records: (r.from_store.len() + found) as u64,
                store_errors: r.store_error.clone().into_iter().collect(),
                ..RunReport::default()
            }
        }
        match self {
            Arrived::Contacts(kind, r, got) => of(r, got.len(), r.delivered_cost(*kind, got)),
            Arrived::Companies(r, got) => of(
                r,
                got.len(),
                r.delivered_cost(Endpoint::EnrichCompanies, got),
            ),
            Arrived::People(r, got) => {
                of(r, got.len(), r.delivered_cost(Endpoint::EnrichPeople, got))
            }
        }
    }
}

/// Waits up to `wait` (stopping early on `stop`) until no awaited result of `sent` is left,
/// recounting on each delivery `receiver` broadcasts and at least once a second; hands the
/// count arrived to `on_arrived` each time. Returns how many are left.
async fn await_deliveries(
    s: &Session,
    sent: &Sent,
    receiver: Option<&Receiver>,
    wait: Duration,
    stop: &CancellationToken,
    mut on_arrived: impl FnMut(usize),
) -> usize {
    let total = sent.awaited().len();
    let deadline = tokio::time::Instant::now() + wait;
    let mut deliveries = receiver.map(Receiver::subscribe);
    loop {
        let left = sent.left(s).await;
        on_arrived(total - left.min(total));
        let now = tokio::time::Instant::now();
        if left == 0 || now >= deadline || stop.is_cancelled() {
            return left;
        }
        let tick = deadline.min(now + Duration::from_secs(1));
        tokio::select! {
            _ = stop.cancelled() => {}
            _ = tokio::time::sleep_until(tick) => {}
            got = async {
                match deliveries.as_mut() {
                    Some(rx) => rx.recv().await,
                    None => std::future::pending().await,
                }
            } => {
                if let Err(tokio::sync::broadcast::error::RecvError::Closed) = got {
                    // The receiver stopped: recount by the tick from now on.
                    deliveries = None;
                }
            }
        }
    }
}
