//! The session: the one way every front end reaches the service. It holds the client
//! (`api::client::Client`) and the store (`store::Store`) and keeps three promises:
//!
//! - **Stored before shown.** Every paid call's request, full response and charge per pool
//!   (`creditsUsed` where the answer has it, else the price table) are written to the store,
//!   with the entities they carry, before the result is returned. A caller that stops
//!   listening loses nothing: the write happens in the call's own future.
//! - **Never pay twice.** Enrich, lookup and reveal look in the store first; what is there is
//!   answered at 0 credits with its age ([`Paid::stored_at`]) unless the caller asks for a
//!   refresh. A lookup of 1,000 domains of which 400 are stored sends only the other 600.
//!   Within a session an autocomplete with the same request is answered from memory.
//! - **Free reads stay free.** Data-fields, the credit balance and warmup pass straight through.
//!
//! A store that cannot be written does not lose the answer that was paid for: it is still
//! returned, with [`Paid::store_error`] saying why it was not kept (and the log has details).

use std::any::Any;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;

use crate::request::{
    AutocompleteRequest, AutocompleteResponse, SearchRequest, SearchResponse, build_search,
};
use prospect_api::client::{ApiRequest, Client, Endpoint, Enriched};
use prospect_api::cost::{Cost, DEFAULT_PRICES, PriceTable, max_quantities};
use prospect_api::error::ApiError;
use prospect_api::types::*;
use prospect_common::ContactKind;
use prospect_store::Bought;
use prospect_store::{Contact, Entities, PurchaseId, SearchId, SearchSummary, Store, StoreError};
use prospect_store::{JobId, JobRow};

/// How a 2xx answer of a paid call is read: [`crate::engine::read_lenient`] of its
/// request type, as a plain function so it can go to a blocking thread.
type ReadAnswer<T> = fn(u16, &[u8]) -> Result<(T, Option<String>), ApiError>;

/// A paid answer and what it cost.
#[derive(Debug, Clone)]
pub struct Paid<T> {
    /// The typed answer.
    pub value: T,
    /// Credits charged per pool (zero when answered from the store).
    pub charged: Cost,
    /// The purchase row it was stored as; `None` when answered from the store or not stored.
    pub purchase: Option<PurchaseId>,
    /// `Some(time it was bought)` when the answer came from the store at 0 credits.
    pub stored_at: Option<DateTime<Utc>>,
    /// Why a paid answer could not be stored (disk full, ...); `None` when it was. The answer
    /// is then in [`Paid::recovery`].
    pub store_error: Option<String>,
    /// The recovery file a paid answer went to when the store could not write it (imported at
    /// the next start).
    pub recovery: Option<std::path::PathBuf>,
    /// When the answer did not decode whole: the first failing field and how many records were
    /// left out. The raw answer is kept whole all the same.
    pub decode_error: Option<String>,
    /// For an answer from the store: how its record was bought, in words
    /// ([`crate::spend::provenance`]: "seen in a search", "enriched", …).
    pub provenance: Option<&'static str>,
    /// For a search page: what suppression excluded, in words (`5 suppressed (customers)`).
    pub suppressed: Option<String>,
}

impl<T> Paid<T> {
    fn fresh(value: T, charged: Cost, kept: crate::engine::KeepReport) -> Paid<T> {
        Paid {
            value,
            charged,
            purchase: kept.purchase,
            stored_at: None,
            store_error: kept.store_error,
            recovery: kept.recovery,
            decode_error: None,
            provenance: None,
            suppressed: None,
        }
    }

    /// The same answer with its value converted by `f` (charge, purchase, age and store error
    /// kept), e.g. a typed response into its endpoint-independent enum.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Paid<U> {
        Paid {
            value: f(self.value),
            charged: self.charged,
            purchase: self.purchase,
            stored_at: self.stored_at,
            store_error: self.store_error,
            recovery: self.recovery,
            decode_error: self.decode_error,
            provenance: self.provenance,
            suppressed: self.suppressed,
        }
    }

    pub(crate) fn from_store(value: T, at: DateTime<Utc>) -> Paid<T> {
        Paid {
            value,
            charged: Cost::ZERO,
            purchase: None,
            stored_at: Some(at),
            store_error: None,
            recovery: None,
            decode_error: None,
            provenance: None,
            suppressed: None,
        }
    }
}

/// One entry of a company lookup, in the order the domains were asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct LookupEntry<T> {
    /// The key as requested (a domain; a handle or service id for people).
    pub key: String,
    /// The record, `None` when the service did not find it ("not found").
    pub record: Option<T>,
    /// `Some(time it was bought)` when answered from the store at 0 credits.
    pub stored_at: Option<DateTime<Utc>>,
    /// The suppression category when the key was refused (issue 16): never sent.
    pub suppressed: Option<String>,
}

/// The answer of a lookup through the session: one entry per distinct requested key, what it
/// cost, and how it was split between the store and the service.
#[derive(Debug, Clone, PartialEq)]
pub struct Lookup<T> {
    /// One entry per distinct key, in request order.
    pub entries: Vec<LookupEntry<T>>,
    /// Credits charged for the part that was sent.
    pub charged: Cost,
    /// Keys answered from the store (0 credits).
    pub from_store: usize,
    /// Keys sent to the service.
    pub sent: usize,
    /// The purchases the sent batches were stored as (people lookups; empty for companies,
    /// whose batches the engine keeps).
    pub purchases: Vec<PurchaseId>,
    /// Paid requests sent.
    pub requests: usize,
    /// Why a bought batch could not be stored, if one could not.
    pub store_error: Option<String>,
    /// When a paid answer did not read whole (issue 34): where it stopped and how many keys
    /// did not read. Those keys have no entry (never "not found") and the same lookup run
    /// again buys only them.
    pub unread: Option<String>,
}

/// What a paid call answered by webhook did (a reveal, a batch enrichment): what the store
/// answered, what was sent, what another call is still awaiting. Keys are person ids for a
/// reveal, normalized domains for a batch enrichment of companies.
#[derive(Debug, Clone, PartialEq)]
pub struct ByWebhook<T> {
    /// Records answered from the store at 0 credits, by key.
    pub from_store: HashMap<String, T>,
    /// Keys sent to the service, in batches of at most the endpoint's size.
    pub sent: Vec<String>,
    /// The purchases the sent batches were stored as.
    pub purchases: Vec<PurchaseId>,
    /// Keys sent before (by this or another process) whose webhook is still awaited: not sent
    /// again.
    pub pending: Vec<String>,
    /// Why a sent batch's acknowledgement could not be stored (the keys were sent all the same).
    pub store_error: Option<String>,
    /// Keys refused because they are suppressed, with the category (issue 16): never sent, not
    /// answered from the store.
    pub suppressed: HashMap<String, String>,
}

impl<T> ByWebhook<T> {
    /// How many of the keys this call sent `arrived` holds records of that `counts`.
    fn sent_arrived(&self, arrived: &HashMap<String, T>, counts: impl Fn(&T) -> bool) -> usize {
        self.sent
            .iter()
            .filter_map(|k| arrived.get(k))
            .filter(|r| counts(r))
            .count()
    }
}

impl ByWebhook<Contact> {
    /// What this reveal's deliveries charge for what it sent and has arrived (`arrived`, by
    /// person id): one credit of `kind`'s pool per verified contact, from the one price table.
    /// Keys awaited from before were charged by their own reveal.
    pub fn delivered_cost(&self, kind: ContactKind, arrived: &HashMap<String, Contact>) -> Cost {
        let verified = self.sent_arrived(arrived, |c| c.status.eq_ignore_ascii_case("verified"));
        prospect_api::cost::reveal_cost(kind, verified)
    }
}

impl<T> ByWebhook<prospect_store::Stored<T>> {
    /// What this batch enrichment's deliveries charge for what it sent and has arrived
    /// (`arrived`, by key): the price of each record found at `endpoint`
    /// ([`Endpoint::EnrichCompanies`] or [`Endpoint::EnrichPeople`]), from the one price table.
    pub fn delivered_cost(
        &self,
        endpoint: Endpoint,
        arrived: &HashMap<String, prospect_store::Stored<T>>,
    ) -> Cost {
        crate::spend::lookup_cost(endpoint, self.sent_arrived(arrived, |_| true))
    }
}

/// What [`Session::reveal`] did: contacts by person id.
pub type Reveal = ByWebhook<Contact>;

/// What [`Session::enrich_companies`] did: stored companies by normalized domain.
pub type EnrichBatch = ByWebhook<prospect_store::Stored<prospect_api::types::Company>>;

/// What [`Session::enrich_people`] did: stored people by item key
/// ([`crate::engine::PersonItem::key`]).
pub type EnrichPeopleBatch = ByWebhook<prospect_store::Stored<prospect_api::types::Person>>;

/// Which store reads a paid call may be answered from, and whether to skip them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Freshness {
    /// Answer from the store when it holds the data (0 credits).
    #[default]
    Stored,
    /// Buy again even when the store holds the data.
    Refresh,
}

/// One page of a search read back from the history: the typed answer and when it was bought.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredSearchPage {
    /// 0-based page number.
    pub page: u32,
    /// The answer as it was received (sanitized when stored), read into the typed response of
    /// the search's endpoint.
    pub response: SearchResponse,
    /// When it was fetched (and paid for).
    pub fetched_at: DateTime<Utc>,
}

/// A list read from the store ([`Session::open_list`]): its members joined with what the
/// store holds of them, and the plan for buying the rest.
#[derive(Debug, Clone)]
pub struct OpenedList {
    /// Its name.
    pub name: String,
    /// Accounts or contacts.
    pub kind: prospect_store::ListKind,
    /// The members, in the order they were added.
    pub records: prospect_store::ListRecords,
    /// What revealing the contacts' emails (a contact list) or looking the accounts up (an
    /// account list) would cost, from the spend engine; `Err` with why it could not be planned.
    pub rest: Result<crate::engine::Plan, String>,
}

/// A stored search reopened from the history ([`Session::reopen`]): what is needed to show
/// its pages at no cost and to continue it with `searchAfter` as a normal paid search.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredSearch {
    /// Its history id.
    pub id: SearchId,
    /// The request of its first page (no `searchAfter`), read and checked as the client would
    /// ([`build_search`]).
    pub request: SearchRequest,
    /// The first page's request body as sent, without `searchAfter` (what a form edits).
    pub body: Value,
    /// The stored pages from page 0 on, without gaps (a page after a missing one is left out:
    /// its rows could not be numbered).
    pub pages: Vec<StoredSearchPage>,
}

type AutocompleteCache = HashMap<(Endpoint, String), Arc<dyn Any + Send + Sync>>;

/// Client + store + price table + spend policy; cheap to clone (shared state).
#[derive(Clone)]
pub struct Session {
    client: Client,
    store: Arc<Mutex<Store>>,
    target: String,
    prices: PriceTable,
    autocomplete: Arc<Mutex<AutocompleteCache>>,
    policy: crate::engine::SpendPolicy,
    /// This process's name on claims and jobs: `pid-nonce@host`.
    owner: Arc<str>,
    /// Where answers the store could not write go (imported at the next start).
    recovery_dir: Option<std::path::PathBuf>,
    /// The team store out of reach at start, when this machine's store stands in for it
    /// (issue 17, "Failures"): every paid call is then refused. Shared, not copied, by the
    /// session's clones.
    unreachable: Option<Arc<Unreachable>>,
    /// The last credit balance the service gave (issue 34: plans compare their cost with it).
    last_balance: Arc<Mutex<Option<CreditBalance>>>,
    /// Why the store cannot keep what is bought (a missing table, a damaged file, recovery
    /// files it cannot import; issue 34): every paid call is then refused, saying this.
    damaged: Option<Arc<str>>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("client", &self.client)
            .field("target", &self.target)
            .finish_non_exhaustive()
    }
}

/// A team store out of reach at start, and the store standing in for it (issue 17,
/// "Failures"). Its `Display` is the notice a front end shows at start, in one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreachable {
    /// Why, in words, the password shown as `***`: "the team store cannot be reached (…)"
    /// (or "cannot be used", for a store of a newer prospect).
    pub reason: String,
    /// This machine's store file, open in its place.
    pub stand_in: std::path::PathBuf,
}

impl std::fmt::Display for Unreachable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: paid calls are refused until it can; free calls and this machine's store ({}) \
             still work",
            self.reason,
            self.stand_in.display()
        )
    }
}

/// Opens the store `url` names for a front end (`sandbox`: the embedded sandbox's). A team
/// store that cannot be reached or opened is not fatal (issue 17, "Failures"): this machine's
/// own store file of [`crate::config::Settings::store_path`] stands in (the local cache:
/// what was bought before, and what free reads kept), and [`Unreachable`] says so. A caller
/// that must reach the team store itself (`prospect store migrate`) opens it with
/// [`Store::open_url`] instead.
///
/// Errors, in one line: the store cannot be opened (not a database, written by a newer
/// prospect, no permission); a team store only when no data directory is known.
pub fn open_store(
    settings: &crate::config::Settings,
    url: &prospect_store::StoreUrl,
    sandbox: bool,
) -> anyhow::Result<(Store, Option<Unreachable>)> {
    match (Store::open_url(url), url, settings.store_path(sandbox)) {
        (Ok(s), ..) => Ok((s, None)),
        (Err(e), prospect_store::StoreUrl::Postgres(_), Some(local)) => {
            // A server whose store is of a newer prospect is named as such; anything else
            // (no answer, a refused login) is out of reach.
            let what = match &e {
                prospect_store::StoreError::NewerSchema { .. } => "cannot be used",
                _ => "cannot be reached",
            };
            let why = Unreachable {
                reason: format!("the team store {what} ({e})"),
                stand_in: local,
            };
            tracing::warn!("{why}");
            let s = Store::open(&why.stand_in).map_err(|e| anyhow::anyhow!(e.to_string()))?;
            Ok((s, Some(why)))
        }
        (Err(e), ..) => Err(anyhow::anyhow!(e.to_string())),
    }
}

/// Runs `f` on the store off the async threads.
pub(crate) async fn with_store<T: Send + 'static>(
    store: &Arc<Mutex<Store>>,
    f: impl FnOnce(&mut Store) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, String> {
    let store = store.clone();
    tokio::task::spawn_blocking(move || {
        let mut guard = store
            .lock()
            .map_err(|_| "the store is unusable after an earlier failure".to_string())?;
        f(&mut guard).map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| format!("store task failed: {e}"))?
}

/// A request body without its paging members (`size`, `from`, `searchAfter`): what identifies
/// a search in the history.
pub fn search_identity(request: &Value) -> Value {
    let mut v = request.clone();
    if let Value::Object(m) = &mut v {
        for k in ["size", "from", "searchAfter"] {
            m.remove(k);
        }
    }
    v
}

/// A lookup's entries and its run report as the session's [`Lookup`]; the report's error as an
/// [`ApiError`] (another failure as [`ApiError::Network`] with its message).
fn lookup_of<T>(
    entries: Vec<LookupEntry<T>>,
    report: crate::engine::RunReport,
) -> Result<Lookup<T>, ApiError> {
    if let Some(e) = report.error {
        return Err(match e {
            crate::engine::RunError::Api(a) => a,
            other => ApiError::Network(other.to_string()),
        });
    }
    Ok(Lookup {
        from_store: entries.iter().filter(|e| e.stored_at.is_some()).count(),
        sent: report.bought as usize,
        entries,
        charged: report.charged,
        purchases: Vec::new(),
        requests: report.requests as usize,
        store_error: report.store_errors.into_iter().next(),
        unread: (report.unread > 0 || !report.decode_errors.is_empty()).then(|| {
            format!(
                "{} key(s) did not read ({}); looked up again, only they are bought",
                report.unread,
                report.decode_errors.first().map_or("", String::as_str)
            )
        }),
    })
}

impl Session {
    /// A session over `client` and `store`; `target` is what purchases record as their target
    /// (`sandbox` or the base URL, never the token; see `core::config::Target::label`).
    ///
    /// The spend policy is the default ([`crate::engine::SpendPolicy::default`]); answers
    /// the store cannot write go to `recovery/` beside the store file (none for a store in
    /// memory).
    pub fn new(client: Client, store: Store, target: impl Into<String>) -> Session {
        let recovery_dir = crate::engine::recovery_dir_of(store.path());
        Session {
            client,
            store: Arc::new(Mutex::new(store)),
            target: target.into(),
            prices: DEFAULT_PRICES,
            autocomplete: Arc::new(Mutex::new(HashMap::new())),
            policy: crate::engine::SpendPolicy::default(),
            owner: crate::engine::new_owner().into(),
            recovery_dir,
            unreachable: None,
            last_balance: Arc::new(Mutex::new(None)),
            damaged: None,
        }
    }

    /// The team store that could not be reached at start, when this machine's store stands in
    /// for it: what a front end says at start (its `Display`).
    pub fn unreachable(&self) -> Option<&Unreachable> {
        self.unreachable.as_deref()
    }

    /// Why paid calls are refused in this session, in words (`None` when they are not): the
    /// team store could not be reached at start (issue 17). Plans carry it as their refusal, and
    /// [`Session::send_paid`] sends nothing.
    pub fn paid_refusal(&self) -> Option<&str> {
        self.unreachable()
            .map(|u| u.reason.as_str())
            .or(self.damaged.as_deref())
    }

    /// The same session with spend policy `policy` (search freshness, budgets).
    pub fn with_policy(mut self, policy: crate::engine::SpendPolicy) -> Session {
        self.policy = policy;
        self
    }

    /// The spend policy plans are made with.
    pub fn policy(&self) -> &crate::engine::SpendPolicy {
        &self.policy
    }

    /// This process's owner name on claims and jobs.
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// Where answers the store could not write go; `None` for a store in memory.
    pub fn recovery_dir(&self) -> Option<&std::path::Path> {
        self.recovery_dir.as_deref()
    }

    /// The session of a front end: a client for `target` and the store of
    /// [`crate::config::Settings::store_url`] (a file of the data directory, the embedded
    /// sandbox's its own, or a team's PostgreSQL ledger, issue 17), buying as
    /// [`crate::config::Settings::user`]. A team store's recovery files stay in this
    /// machine's data directory.
    ///
    /// A team store that cannot be reached (or opened) is not fatal (issue 17, "Failures"):
    /// the session opens this machine's own store file instead (the local cache: what was
    /// bought before the team store, and free answers) and refuses every paid call, saying why
    /// ([`Session::paid_refusal`]); recovery files then wait for the team store.
    ///
    /// Errors, each one line naming what was wrong: the client cannot be built (bad base URL,
    /// token not usable in a header), no data directory is known (pass `--data-dir`), the store
    /// URL is not one prospect takes, the store cannot be opened (not a database, written by a
    /// newer prospect, no permission; a team store only when no local store can stand in; no
    /// password shown).
    pub fn open(
        settings: &crate::config::Settings,
        target: &crate::config::Target,
    ) -> anyhow::Result<Session> {
        Session::open_with(
            settings,
            target,
            prospect_api::client::ClientOptions::default(),
        )
    }

    /// [`Session::open`] with the client's transport options `options` (its pace is set from
    /// `settings`): the CLI passes its stop token and waits out per-minute 429s
    /// (`max_retry_after`) where the explorer counts them down itself. Errors: as
    /// [`Session::open`].
    pub fn open_with(
        settings: &crate::config::Settings,
        target: &crate::config::Target,
        options: prospect_api::client::ClientOptions,
    ) -> anyhow::Result<Session> {
        let options = prospect_api::client::ClientOptions {
            rate_per_minute: Some(settings.rate_per_minute(target.sandbox)),
            ..options
        };
        let client = Client::with_options(&target.base_url, target.token.clone(), options)
            .map_err(|e| anyhow::anyhow!(e.user_message()))?;
        let url = settings.store_url(target.sandbox)?.ok_or_else(|| {
            anyhow::anyhow!("no data directory for the store: pass --data-dir or set data_dir")
        })?;
        let policy = crate::engine::SpendPolicy {
            search_fresh_for: settings.search_fresh_for()?,
            budget: settings.config.budget,
        };
        let (mut store, unreachable) = open_store(settings, &url, target.sandbox)?;
        store.set_buyer(&settings.user());
        tracing::info!(store = %url.redacted(), "store opened");
        let unclean = match store.mark_interrupted() {
            Ok(n) => n > 0,
            Err(e) => {
                tracing::warn!(error = %e, "jobs: could not mark interrupted jobs");
                true
            }
        };
        let damaged = store.damage(unclean);
        let recovery_dir = crate::engine::recovery_dir_for(&store, settings.data_dir().as_deref());
        let mut session = Session::new(client, store, target.label()).with_policy(policy);
        session.recovery_dir = recovery_dir;
        session.damaged = damaged.map(Arc::from);
        match unreachable {
            // The recovery files there are the team's: they wait for its store.
            Some(why) => session.unreachable = Some(Arc::new(why)),
            None => {
                let (_, failed) = crate::engine::import_recovery(&session);
                // An answer paid for and not yet in the store: nothing more is bought until
                // it can be (issue 34), or the same items would be paid again.
                if let (Some(first), None) = (failed.first(), &session.damaged) {
                    session.damaged = Some(Arc::from(format!(
                        "{} recovery file(s) of paid answers cannot be imported ({first}); fix \
                         the store (`prospect store migrate`) or move the file away",
                        failed.len()
                    )));
                }
            }
        }
        Ok(session)
    }

    /// The client (for free reads a front end makes directly).
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The store, shared (lock it briefly, off the async threads for large reads).
    pub fn store(&self) -> &Arc<Mutex<Store>> {
        &self.store
    }

    /// The latest `limit` jobs of this store, newest first; `open_only` keeps those that did not
    /// finish (`interrupted`, `failed`, `running`): `prospect jobs` and the explorer's offer to
    /// resume. Errors: the store's, in words.
    pub async fn jobs(&self, limit: usize, open_only: bool) -> Result<Vec<JobRow>, String> {
        with_store(&self.store, move |st| {
            // A job whose process is gone (killed) is interrupted, not running.
            st.mark_interrupted()?;
            st.jobs(limit, open_only)
        })
        .await
    }

    /// Job `id` of this store (`prospect resume ID`); `None` when there is no such job.
    /// Errors: the store's, in words.
    pub async fn job(&self, id: JobId) -> Result<Option<JobRow>, String> {
        with_store(&self.store, move |st| st.job(id)).await
    }

    /// What purchases record as their target.
    pub fn target(&self) -> &str {
        &self.target
    }

    /// The charge of an answer: `creditsUsed` for the standard pool where the answer has it,
    /// else the price table over what was returned; email and phone from the price table.
    fn charge(&self, endpoint: Endpoint, request: &Value, answer: &dyn Bought) -> Cost {
        let mut q = answer.quantities();
        q.lookalike_domains = max_quantities(endpoint, request).lookalike_domains;
        if endpoint == Endpoint::CreateSegmentation {
            // The answer is the id alone: a segmentation is charged per distinct domain asked.
            q.results = crate::segment::distinct_domains_in(request) as u64;
        }
        let mut cost = self.prices.charge_for(endpoint, &q);
        if let Some(u) = answer.credits_used() {
            cost.standard = u;
        }
        cost.rounded()
    }

    /// The one paid call of every front end and every action (issue 15: paced call → keep the
    /// raw answer → entities): sends `req` (paced by the client; never resent after a possible
    /// charge), keeps the answer's bytes as received with the entities that decode from it in
    /// one transaction, or in a recovery file when the store cannot write, and returns it.
    ///
    /// `job`, `settles` and `page` go with the purchase (see [`prospect_store::Kept`]).
    ///
    /// Errors: the client's ([`ApiError`]); [`ApiError::Decode`] when nothing of the answer
    /// decodes, after its raw bytes were kept. A failed store write is reported in
    /// [`Paid::store_error`] / [`Paid::recovery`], never by dropping the answer; an answer that
    /// decoded only in part in [`Paid::decode_error`].
    pub(crate) async fn buy<R>(
        &self,
        req: &R,
        job: Option<prospect_store::JobId>,
        settles: Vec<String>,
        page: Option<(Value, u32)>,
    ) -> Result<Paid<R::Response>, ApiError>
    where
        R: ApiRequest,
        R::Response: Bought + Serialize + Clone + Send + Sync + 'static,
    {
        let (status, raw) = self.send_paid(req).await?;
        let request = serde_json::to_value(req).unwrap_or(Value::Null);
        self.keep_answer::<R>(request, status, raw, job, settles, page)
            .await
    }

    /// Sends paid request `req` as received (status, raw bytes), paced by the client: the one
    /// place a paid request leaves the process ([`Session::buy`], and the search pipeline that
    /// keeps its pages itself).
    ///
    /// Errors: the client's; [`ApiError::Refused`] naming why, before anything is sent, when the
    /// session refuses paid calls ([`Session::paid_refusal`]).
    pub(crate) async fn send_paid<R: ApiRequest>(
        &self,
        req: &R,
    ) -> Result<(u16, Vec<u8>), ApiError> {
        if let Some(why) = self.paid_refusal() {
            return Err(ApiError::Refused(why.to_string()));
        }
        self.client.send_raw(req).await
    }

    /// The keeping half of [`Session::buy`], for an answer already received (`status`,
    /// `raw`) to `request`: decode what decodes, keep the raw bytes and the entities, return
    /// the typed answer. A pipeline calls it on its own task while the next request goes out.
    ///
    /// Errors: [`ApiError::Decode`] when nothing decodes (the raw bytes are kept first).
    pub(crate) async fn keep_answer<R>(
        &self,
        request: Value,
        status: u16,
        raw: Vec<u8>,
        job: Option<prospect_store::JobId>,
        settles: Vec<String>,
        page: Option<(Value, u32)>,
    ) -> Result<Paid<R::Response>, ApiError>
    where
        R: ApiRequest,
        R::Response: Bought + Serialize + Clone + Send + Sync + 'static,
    {
        let at = Utc::now();
        let endpoint = R::ENDPOINT;
        // Decoding and packing a big answer are tens of milliseconds of CPU: done on a blocking
        // thread, so the async threads stay free for the requests in flight. The records are
        // packed from the typed answer, without a copy of them. A panic in either is caught:
        // the raw answer always comes back, to be kept.
        let read: ReadAnswer<R::Response> = crate::engine::read_lenient::<R>;
        let work = tokio::task::spawn_blocking(move || {
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let read = read(status, &raw)?;
                let packed = prospect_store::pack_answer(
                    endpoint,
                    &request,
                    &raw,
                    at,
                    &read.0.entity_refs(at),
                    read.1.is_none(),
                );
                Ok((read, packed))
            }))
            .unwrap_or_else(|_| {
                Err(ApiError::Decode {
                    path: ".".into(),
                    message: "decoding the answer failed (a panic)".into(),
                })
            });
            (request, raw, out)
        });
        let (request, raw, out) = work.await.map_err(|e| {
            // Only the closure's own moves run outside the catch: not reached in practice.
            tracing::error!(error = %e, "the decode task failed; a paid answer was lost");
            ApiError::Decode {
                path: ".".into(),
                message: format!("decode task failed: {e}"),
            }
        })?;
        let ((value, decode_error), packed) = match out {
            Ok(v) => v,
            Err(e) => {
                // Nothing decoded: the raw answer is kept all the same, with no entities, and
                // its claims are released (issue 34): no key is taken as "not found" unread,
                // the next run buys them again.
                let kept = crate::engine::keep(
                    self,
                    crate::engine::ToKeep {
                        endpoint,
                        request,
                        raw,
                        charged: Cost::ZERO,
                        at,
                        entities: Entities::default(),
                        job,
                        settles: Vec::new(),
                        page: None,
                        whole: false,
                        packed: None,
                    },
                )
                .await;
                crate::engine::release(self, settles).await;
                tracing::error!(endpoint = %endpoint, error = %e, purchase = ?kept.purchase,
                    recovery = ?kept.recovery, "a paid answer did not decode; its raw bytes are kept");
                return Err(e);
            }
        };
        let charged = self.charge(endpoint, &request, &value);
        // Packing failed (a record that does not serialize): the store tries again from an
        // owned copy, and says why when it cannot.
        let (entities, packed) = match packed {
            Ok(p) => (Entities::default(), Some(p)),
            Err(_) => (value.entities(at), None),
        };
        // An answer that did not read whole settles nothing and is no page of its search
        // (its cursor or records may be cut): once what read is kept, its claims are
        // released, so what did not read is bought again and what did is owned by its
        // entities (issue 34).
        let (settles, page, release) = if decode_error.is_some() {
            (Vec::new(), None, settles)
        } else {
            (settles, page, Vec::new())
        };
        let page = page.and_then(|(identity, n)| {
            value.page_facts().map(|facts| crate::engine::PageToKeep {
                identity,
                page: n,
                facts,
            })
        });
        let kept = crate::engine::keep(
            self,
            crate::engine::ToKeep {
                endpoint,
                request,
                raw,
                charged,
                at,
                entities,
                job,
                settles,
                page,
                whole: decode_error.is_none(),
                packed,
            },
        )
        .await;
        if !release.is_empty() {
            crate::engine::release(self, release).await;
        }
        let mut paid = Paid::fresh(value, charged, kept);
        paid.decode_error = decode_error;
        Ok(paid)
    }

    /// A paid call with no store-first answer (searches without history, autocompletes not
    /// cached, preview): sent, kept, returned (see [`Session::buy`]).
    pub async fn send<R>(&self, req: &R) -> Result<Paid<R::Response>, ApiError>
    where
        R: ApiRequest,
        R::Response: Bought + Serialize + Clone + Send + Sync + 'static,
    {
        self.buy(req, None, Vec::new(), None).await
    }

    /// One page (0-based position `page` in its chain) of a search: bought, kept, and recorded
    /// in the search history under its identity (the body without paging members) and the
    /// cursor it asked with, so it can be reopened and resumed at no cost. Returns the answer
    /// and the history id.
    pub async fn search_page<R>(
        &self,
        req: &R,
        page: u32,
    ) -> Result<(Paid<R::Response>, Option<SearchId>), ApiError>
    where
        R: ApiRequest,
        R::Response: Bought + Serialize + Clone + Send + Sync + 'static,
    {
        self.search_page_in(req, page, None, Vec::new()).await
    }

    /// [`Session::search_page`] as part of job `job`.
    pub(crate) async fn search_page_in<R>(
        &self,
        req: &R,
        page: u32,
        job: Option<prospect_store::JobId>,
        settles: Vec<String>,
    ) -> Result<(Paid<R::Response>, Option<SearchId>), ApiError>
    where
        R: ApiRequest,
        R::Response: Bought + Serialize + Clone + Send + Sync + 'static,
    {
        let request = serde_json::to_value(req).unwrap_or(Value::Null);
        let identity = search_identity(&request);
        let paid = self
            .buy(req, job, settles, Some((identity.clone(), page)))
            .await?;
        let target = self.target.clone();
        let sid = with_store(&self.store, move |s| {
            s.find_search(R::ENDPOINT, &identity, &target)
        })
        .await
        .ok()
        .flatten();
        Ok((paid, sid))
    }

    /// An autocomplete (0.1 credit a call): answered from this session's memory when the same
    /// request was made before, else bought and stored.
    pub async fn autocomplete<R>(&self, req: &R) -> Result<Paid<R::Response>, ApiError>
    where
        R: ApiRequest,
        R::Response: Bought + Serialize + Clone + Send + Sync + 'static,
    {
        let key = (R::ENDPOINT, serde_json::to_string(req).unwrap_or_default());
        let hit = self
            .autocomplete
            .lock()
            .ok()
            .and_then(|m| m.get(&key).cloned())
            .and_then(|a| a.downcast_ref::<R::Response>().cloned());
        if let Some(v) = hit {
            let mut paid = Paid::from_store(v, Utc::now());
            paid.stored_at = None;
            return Ok(paid);
        }
        let paid = self.send(req).await?;
        if let Ok(mut m) = self.autocomplete.lock() {
            m.insert(key, Arc::new(paid.value.clone()));
        }
        Ok(paid)
    }

    /// Enrich one company (SPEC.md §4.10): answered from the store when the domain is there
    /// (unless `fresh` is [`Freshness::Refresh`]), else bought. A 201 ("data gathering has
    /// started") is returned as `Enriched::Gathering` and costs nothing.
    pub async fn enrich_company(
        &self,
        req: &EnrichCompanyRequest,
        fresh: Freshness,
    ) -> Result<Paid<Enriched<EnrichCompanyResponse>>, ApiError> {
        prospect_api::client::check(req)?;
        let domain = req
            .company
            .as_ref()
            .and_then(|c| c.domain.clone())
            .filter(|d| !d.trim().is_empty());
        let Some(d) = domain else {
            return self.send(req).await;
        };
        // Before the store is read: what another process keeps after this is read, not bought.
        let looked = crate::engine::looked_at(fresh == Freshness::Refresh);
        let stored = || {
            let d = d.clone();
            async move {
                let hit = with_store(&self.store, move |s| s.company(&d))
                    .await
                    .ok()
                    .flatten()?;
                let value = Enriched::Found(EnrichCompanyResponse {
                    company: hit.value,
                    credits_used: 0.0,
                });
                Some(
                    self.stored_answer(value, hit.fetched_at, hit.purchase_id)
                        .await,
                )
            }
        };
        if fresh == Freshness::Stored
            && let Some(hit) = stored().await
        {
            return Ok(hit);
        }
        // Claimed under the lookup's key: a lookup and an enrich of one domain are one item.
        let key = prospect_store::company_claim(&prospect_common::keys::normalize_domain(&d));
        crate::engine::buy_claimed(self, req, key, looked, stored).await
    }

    /// `value` answered from the store at 0 credits: bought at `at` by `purchase`, whose
    /// endpoint says how ([`Paid::provenance`]; "bought" when it is unknown).
    async fn stored_answer<T>(
        &self,
        value: T,
        at: DateTime<Utc>,
        purchase: Option<PurchaseId>,
    ) -> Paid<T> {
        let source = match purchase {
            Some(id) => with_store(&self.store, move |s| s.purchase_endpoint(id))
                .await
                .ok()
                .flatten(),
            None => None,
        };
        let mut paid = Paid::from_store(value, at);
        paid.provenance = Some(crate::spend::provenance(source.as_deref()));
        paid
    }

    /// Enrich one person (SPEC.md §4.4): answered from the store when the person is there by
    /// id or professional-network handle (unless refreshing), else bought (3 credits).
    pub async fn enrich_person(
        &self,
        req: &EnrichPersonRequest,
        fresh: Freshness,
    ) -> Result<Paid<Enriched<EnrichPersonResponse>>, ApiError> {
        prospect_api::client::check(req)?;
        let looked = crate::engine::looked_at(fresh == Freshness::Refresh);
        let stored = || async {
            let hit = self.stored_person_for(req).await?;
            let value = Enriched::Found(EnrichPersonResponse {
                person: hit.value,
                credits_used: 0.0,
            });
            Some(
                self.stored_answer(value, hit.fetched_at, hit.purchase_id)
                    .await,
            )
        };
        if fresh == Freshness::Stored
            && let Some(hit) = stored().await
        {
            return Ok(hit);
        }
        // Claimed by id, else by handle (the keys of a people lookup); a match by name and
        // domain has no key to claim and is sent as it is. A reveal is never read from the
        // store, so it is not claimed either.
        let reveals = req.reveal_emails.as_ref().is_some_and(|r| r.include_emails)
            || req.reveal_phones.as_ref().is_some_and(|r| r.include_phones);
        let key = req
            .person
            .id
            .as_deref()
            .map(str::trim)
            .filter(|id| !id.is_empty())
            .map(|id| format!("person:{id}"))
            .or_else(|| {
                req.person
                    .linkedin
                    .as_deref()
                    .and_then(prospect_common::keys::linkedin_handle)
                    .map(|h| format!("handle:{h}"))
            });
        match key {
            Some(key) if !reveals => {
                crate::engine::buy_claimed(self, req, key, looked, stored).await
            }
            _ => self.send(req).await,
        }
    }

    /// The stored person an enrich of `req` is answered with at 0 credits: by id, else by
    /// professional-network handle; `None` when the store holds neither, or when the request
    /// asks for a reveal (that has to reach the service). The one rule the plan and the call
    /// both use.
    pub async fn stored_person_for(
        &self,
        req: &EnrichPersonRequest,
    ) -> Option<prospect_store::Stored<Person>> {
        let reveals = req.reveal_emails.as_ref().is_some_and(|r| r.include_emails)
            || req.reveal_phones.as_ref().is_some_and(|r| r.include_phones);
        if reveals {
            return None;
        }
        let id = req.person.id.clone().filter(|s| !s.trim().is_empty());
        let handle = req
            .person
            .linkedin
            .as_deref()
            .and_then(prospect_common::keys::linkedin_handle);
        with_store(&self.store, move |s| match (id, handle) {
            (Some(id), _) => s.person(&id),
            (None, Some(h)) => s.person_by_handle(&h),
            (None, None) => Ok(None),
        })
        .await
        .ok()
        .flatten()
    }

    /// Looks up companies by domain (SPEC.md §4.5) through the spend engine
    /// ([`crate::engine::lookup_companies`]): stored domains are answered from the store
    /// at 0 credits (unless refreshing); the rest are claimed, sent in batches of at most 1,000
    /// (two in flight) and kept; domains another process is buying are waited for and read.
    /// Duplicates (after normalization: case, `www.`, scheme) are asked once.
    ///
    /// Errors: the first failing batch's error; batches bought before it, and any already sent
    /// beside it, are kept, so a retry answers them from the store.
    pub async fn lookup_companies(
        &self,
        domains: &[String],
        fresh: Freshness,
    ) -> Result<Lookup<Company>, ApiError> {
        let keys = crate::engine::KeySource::List(domains.to_vec());
        let mut entries = Vec::new();
        let report = crate::engine::lookup_companies(
            self,
            Utc::now(),
            &keys,
            fresh,
            None,
            &tokio_util::sync::CancellationToken::new(),
            |batch| {
                entries.extend(batch);
                Ok(())
            },
        )
        .await;
        lookup_of(entries, report)
    }

    /// Looks up people by professional-network handle and/or service id (SPEC.md §4.6) through
    /// the spend engine's lookup (`core::engine::lookup_people`: stored people at 0 credits
    /// unless refreshing, the rest claimed, bought in batches of at most 1,000 and kept): the
    /// handles first, then the ids, one entry per distinct key.
    ///
    /// Errors: the first [`ApiError`] that stopped it (what was bought before is kept); any
    /// other failure as [`ApiError::Network`] with its message.
    pub async fn lookup_people(
        &self,
        handles: &[String],
        service_ids: &[String],
        fresh: Freshness,
    ) -> Result<Lookup<LookalikePerson>, ApiError> {
        let mut entries = Vec::new();
        let mut report = crate::engine::RunReport::default();
        for (keys, ids) in [(handles, false), (service_ids, true)] {
            if keys.is_empty() {
                continue;
            }
            let r = crate::engine::lookup_people(
                self,
                Utc::now(),
                &crate::engine::KeySource::List(keys.to_vec()),
                ids,
                fresh,
                None,
                &tokio_util::sync::CancellationToken::new(),
                |batch| {
                    entries.extend(batch);
                    Ok(())
                },
            )
            .await;
            report.charged += r.charged;
            report.bought += r.bought;
            report.requests += r.requests;
            report.store_errors.extend(r.store_errors);
            report.decode_errors.extend(r.decode_errors);
            report.unread += r.unread;
            if r.error.is_some() {
                report.error = r.error;
                break;
            }
        }
        lookup_of(entries, report)
    }

    /// `true` when the store holds the company of `domain` (an enrich would answer at 0).
    pub async fn store_has_company(&self, domain: &str) -> bool {
        let d = domain.to_string();
        matches!(
            with_store(&self.store, move |s| s.company(&d)).await,
            Ok(Some(_))
        )
    }

    /// When the store's record of the company of `domain` was bought, if it holds one (an
    /// enrich would answer at 0 credits with its age).
    pub async fn stored_company_at(&self, domain: &str) -> Option<DateTime<Utc>> {
        let d = domain.to_string();
        with_store(&self.store, move |s| s.company(&d))
            .await
            .ok()
            .flatten()
            .map(|hit| hit.fetched_at)
    }

    /// When the store's record of person `id` was bought, if it holds one (an enrich by id
    /// would answer at 0 credits with its age).
    pub async fn stored_person_at(&self, id: &str) -> Option<DateTime<Utc>> {
        let id = id.to_string();
        with_store(&self.store, move |s| s.person(&id))
            .await
            .ok()
            .flatten()
            .map(|hit| hit.fetched_at)
    }

    /// How many distinct `domains` (normalized) the store holds: a lookup sends the others.
    pub async fn stored_company_count(&self, domains: &[String]) -> usize {
        let d = domains.to_vec();
        with_store(&self.store, move |s| s.companies_by_domains(&d))
            .await
            .map(|m| m.len())
            .unwrap_or(0)
    }

    /// The people the store holds for batch items, by item key: by id (`person:`), by handle
    /// (`handle:`), or as matched by an earlier batch (`match:`); none when it cannot be read.
    pub async fn stored_people_of(
        &self,
        items: &[crate::engine::PersonItem],
    ) -> HashMap<String, prospect_store::Stored<prospect_api::types::Person>> {
        let ids: Vec<String> = items
            .iter()
            .filter_map(|i| i.id())
            .map(str::to_string)
            .collect();
        let handles: Vec<String> = items
            .iter()
            .filter_map(|i| i.handle())
            .map(str::to_string)
            .collect();
        let matches: Vec<String> = items
            .iter()
            .filter(|i| i.key.starts_with("match:"))
            .map(|i| i.key.clone())
            .collect();
        with_store(&self.store, move |s| {
            let mut out = HashMap::new();
            for (id, hit) in s.people_by_ids(&ids)? {
                out.insert(format!("person:{id}"), hit);
            }
            for (h, hit) in s.people_by_handles(&handles)? {
                out.insert(format!("handle:{h}"), hit);
            }
            out.extend(s.people_by_match_keys(&matches)?);
            Ok(out)
        })
        .await
        .unwrap_or_default()
    }

    /// How many of the claim `keys` a call answered by webhook still awaits: sent (by any
    /// process on the store) and neither delivered nor past their lease. 0 when the store
    /// cannot be read (nothing more to wait for).
    pub async fn awaited(&self, keys: &[String]) -> usize {
        let keys = keys.to_vec();
        with_store(&self.store, move |s| s.pending(&keys))
            .await
            .map_or(0, |p| p.len())
    }

    /// The companies the store holds of `domains` (normalized), by domain; none when it
    /// cannot be read.
    pub async fn stored_companies(
        &self,
        domains: &[String],
    ) -> HashMap<String, prospect_store::Stored<prospect_api::types::Company>> {
        let d = domains.to_vec();
        with_store(&self.store, move |s| s.companies_by_domains(&d))
            .await
            .unwrap_or_default()
    }

    /// Joins the contacts the store holds into `people` ([`prospect_store::StoredContacts::join`]):
    /// every view and output of people shows what was revealed, whichever view or process
    /// revealed it (issue 16). A store that cannot be read leaves the records as they are.
    pub async fn join_contacts(&self, people: &mut [&mut prospect_api::types::Person]) {
        if people.is_empty() {
            return;
        }
        let ids: Vec<String> = people.iter().map(|p| p.id.clone()).collect();
        if let Ok(stored) = with_store(&self.store, move |s| s.stored_contacts_of(&ids)).await {
            stored.join(people);
        }
    }

    /// [`Session::join_contacts`] into the people of a search answer (none for companies).
    pub async fn join_page_contacts(&self, page: &mut SearchResponse) {
        self.join_contacts(&mut page.people_mut()).await;
    }

    /// Contacts of `kind` the store holds for `person_ids` with a final status (anything but
    /// `inProgress`), by person id.
    pub async fn stored_contacts(
        &self,
        person_ids: &[String],
        kind: ContactKind,
    ) -> HashMap<String, Contact> {
        let ids = person_ids.to_vec();
        with_store(&self.store, move |s| s.contacts_for(&ids, kind))
            .await
            .unwrap_or_default()
            .into_iter()
            .filter(|(_, c)| c.status != "inProgress")
            .collect()
    }

    /// Reveals emails (`kind` Email, SPEC.md §4.10) or phones (`kind` Phone, §4.7) of
    /// `person_ids` through the spend engine: contacts already stored are answered at 0
    /// credits (unless refreshing); ids sent before whose webhook is still awaited (by any
    /// process on the store) are not sent again ([`Reveal::pending`]); the rest are claimed,
    /// sent in batches of at most 500 with `webhook_url`, and marked sent, so nobody sends them
    /// again while their results come by webhook.
    ///
    /// Errors: the client's; ids of batches sent before the error stay marked sent.
    pub async fn reveal(
        &self,
        kind: ContactKind,
        person_ids: &[String],
        webhook_url: &str,
        fresh: Freshness,
    ) -> Result<Reveal, ApiError> {
        self.reveal_in(kind, person_ids, webhook_url, fresh, None)
            .await
    }

    /// [`Session::reveal`] as part of job `job`.
    pub async fn reveal_in(
        &self,
        kind: ContactKind,
        person_ids: &[String],
        webhook_url: &str,
        fresh: Freshness,
        job: Option<prospect_store::JobId>,
    ) -> Result<Reveal, ApiError> {
        let mut seen = HashSet::new();
        let ids: Vec<String> = person_ids
            .iter()
            .map(|i| i.trim().to_string())
            .filter(|i| !i.is_empty() && seen.insert(i.clone()))
            .collect();
        let suppressed = crate::suppress::refused_people(self, ids.clone()).await;
        let ids: Vec<String> = ids
            .into_iter()
            .filter(|i| !suppressed.contains_key(i))
            .collect();
        let from_store = if fresh == Freshness::Stored {
            self.stored_contacts(&ids, kind).await
        } else {
            HashMap::new()
        };
        let rest: Vec<String> = ids
            .into_iter()
            .filter(|i| !from_store.contains_key(i))
            .collect();
        let keys: Vec<String> = rest
            .iter()
            .map(|i| crate::engine::contact_key(kind, i))
            .collect();
        let (to_send, pending) = self.claim_awaited(rest, keys, fresh, job).await;
        let mut purchases = Vec::new();
        let mut sent = Vec::new();
        let mut store_error = None;
        for batch in to_send.chunks(REVEAL_MAX_IDS) {
            let ids: Vec<String> = batch.iter().map(|b| b.0.clone()).collect();
            let result = self.buy_reveal(kind, ids.clone(), webhook_url, job).await;
            let (purchase, err) = self.after_webhook_send(batch, result).await?;
            purchases.extend(purchase);
            store_error = store_error.or(err);
            sent.extend(ids);
        }
        Ok(ByWebhook {
            from_store,
            sent,
            purchases,
            pending,
            store_error,
            suppressed,
        })
    }

    /// Claims `keys` (the claim keys of `items`, in order) for a call answered by webhook: keys
    /// another call sent and still awaits (`sent`, within their lease) are pending, never sent
    /// again; the rest are claimed for this process. Returns (items claimed with their keys,
    /// items pending). A store that cannot write claims lets everything be sent (said in the
    /// log): the service is asked once all the same.
    async fn claim_awaited(
        &self,
        items: Vec<String>,
        keys: Vec<String>,
        fresh: Freshness,
        job: Option<prospect_store::JobId>,
    ) -> (Vec<(String, String)>, Vec<String>) {
        let owner = self.owner.to_string();
        let planned_at = crate::engine::looked_at(fresh == Freshness::Refresh);
        let lease =
            Utc::now() + chrono::Duration::from_std(crate::engine::CLAIM_LEASE).unwrap_or_default();
        let n_keys = keys.len();
        let verdicts = {
            let keys = keys.clone();
            with_store(&self.store, move |s| {
                let pending: HashSet<String> = s.pending(&keys)?.into_iter().collect();
                let free: Vec<String> = keys
                    .iter()
                    .filter(|k| !pending.contains(*k))
                    .cloned()
                    .collect();
                let claimed = s.claim(&free, &owner, job, lease, planned_at)?;
                let mut it = claimed.into_iter();
                Ok(keys
                    .iter()
                    .map(|k| {
                        if pending.contains(k) {
                            prospect_store::Claim::Held
                        } else {
                            it.next().unwrap_or(prospect_store::Claim::Held)
                        }
                    })
                    .collect::<Vec<_>>())
            })
            .await
            .unwrap_or_else(|e| {
                tracing::warn!(error = %e, "claims could not be written; sending unclaimed");
                vec![prospect_store::Claim::Mine; n_keys]
            })
        };
        let mut to_send = Vec::new();
        let mut pending = Vec::new();
        for ((item, key), v) in items.into_iter().zip(keys).zip(verdicts) {
            match v {
                prospect_store::Claim::Mine => to_send.push((item, key)),
                _ => pending.push(item),
            }
        }
        (to_send, pending)
    }

    /// After one request answered by webhook (`batch`: its items with their claim keys): an
    /// accepted request marks its keys `sent` for [`crate::engine::REVEAL_LEASE`], so
    /// nobody sends them again while the results come; a refused one that cannot have charged
    /// gives its claims back. Returns the accepted request's (purchase, store error).
    ///
    /// Errors: the request's own.
    async fn after_webhook_send(
        &self,
        batch: &[(String, String)],
        result: Result<(Option<PurchaseId>, Option<String>), ApiError>,
    ) -> Result<(Option<PurchaseId>, Option<String>), ApiError> {
        let keys: Vec<String> = batch.iter().map(|b| b.1.clone()).collect();
        let owner = self.owner.to_string();
        match result {
            Ok((purchase, err)) => {
                let until = Utc::now()
                    + chrono::Duration::from_std(crate::engine::REVEAL_LEASE).unwrap_or_default();
                if let Err(e) = with_store(&self.store, move |s| {
                    s.mark_sent(&keys, &owner, purchase, until)
                })
                .await
                {
                    tracing::warn!(error = %e, "could not mark keys sent");
                }
                Ok((purchase, err))
            }
            Err(e) => {
                if !e.may_have_charged() {
                    let _ = with_store(&self.store, move |s| s.release(&keys, &owner)).await;
                }
                Err(e)
            }
        }
    }

    /// Sends a batch enrichment's claimed items (`to_send`: item and claim key) in requests of
    /// at most 10,000, each made by `request` from its items, kept, and its keys marked sent
    /// ([`Session::after_webhook_send`]). Returns (items sent, purchases, why an
    /// acknowledgement could not be stored).
    ///
    /// Errors: a request's own; the batches sent before it stay marked sent.
    async fn send_batches<R>(
        &self,
        to_send: &[(String, String)],
        job: Option<prospect_store::JobId>,
        request: impl Fn(&[(String, String)]) -> R,
    ) -> Result<(Vec<String>, Vec<PurchaseId>, Option<String>), ApiError>
    where
        R: prospect_api::client::ApiRequest,
        R::Response: Bought + Serialize + Clone + Send + Sync + 'static,
    {
        let (mut sent, mut purchases, mut store_error) = (Vec::new(), Vec::new(), None);
        for batch in to_send.chunks(prospect_api::types::ENRICH_BATCH_MAX) {
            let result = self
                .buy(&request(batch), job, Vec::new(), None)
                .await
                .map(|paid| (paid.purchase, paid.store_error));
            let (purchase, err) = self.after_webhook_send(batch, result).await?;
            purchases.extend(purchase);
            store_error = store_error.or(err);
            sent.extend(batch.iter().map(|b| b.0.clone()));
        }
        Ok((sent, purchases, store_error))
    }

    /// A batch enrichment of people (`POST /v2/enrich/people`, openapi.json; issue 18) through
    /// the spend engine, as [`Session::enrich_companies`] for companies: `items` deduplicated
    /// by key; suppressed people refused; those the store holds (by id, handle, or an earlier
    /// match) answered at 0 credits (unless refreshing); those another call sent and still
    /// awaits not sent again; the rest claimed under their key (a lookup of the same id or
    /// handle holds the same claim), sent in batches of at most 10,000 with their key as
    /// `uniqueId` and `webhook_url`, and marked sent. The people come by the `enrich_people`
    /// webhook, whose delivery keeps them, ends the claims, keeps the matches and records the
    /// charge.
    ///
    /// Errors: the client's; items of batches sent before the error stay marked sent.
    pub async fn enrich_people(
        &self,
        items: &[crate::engine::PersonItem],
        webhook_url: &str,
        fresh: Freshness,
        job: Option<prospect_store::JobId>,
    ) -> Result<EnrichPeopleBatch, ApiError> {
        let mut seen = HashSet::new();
        let items: Vec<crate::engine::PersonItem> = items
            .iter()
            .filter(|i| seen.insert(i.key.clone()))
            .cloned()
            .collect();
        let suppressed = crate::suppress::refused_person_items(self, items.clone()).await;
        let items: Vec<_> = items
            .into_iter()
            .filter(|i| !suppressed.contains_key(&i.key))
            .collect();
        let from_store = if fresh == Freshness::Stored {
            self.stored_people_of(&items).await
        } else {
            HashMap::new()
        };
        let rest: Vec<_> = items
            .into_iter()
            .filter(|i| !from_store.contains_key(&i.key))
            .collect();
        let keys: Vec<String> = rest.iter().map(|i| i.key.clone()).collect();
        let requests: HashMap<String, prospect_api::types::PersonToMatch> =
            rest.into_iter().map(|i| (i.key, i.request)).collect();
        let (to_send, pending) = self.claim_awaited(keys.clone(), keys, fresh, job).await;
        let (sent, purchases, store_error) = self
            .send_batches(&to_send, job, |batch| {
                prospect_api::types::EnrichPeopleRequest {
                    people_data_mapping: batch
                        .iter()
                        .filter_map(|(k, _)| requests.get(k).map(|r| (k.clone(), r.clone())))
                        .collect(),
                    webhook_url: webhook_url.to_string(),
                }
            })
            .await?;
        Ok(ByWebhook {
            from_store,
            sent,
            purchases,
            pending,
            store_error,
            suppressed,
        })
    }

    /// A batch enrichment of companies by domain (`POST /v2/enrich/companies`, openapi.json;
    /// issue 18) through the spend engine: `domains` are normalized ([`prospect_common::keys::domain_key`];
    /// others are left out) and deduplicated; suppressed ones are refused; those the store holds
    /// are answered at 0 credits (unless refreshing); those another call sent and still awaits
    /// are not sent again ([`ByWebhook::pending`]); the rest are claimed (the lookup's claim
    /// `company:<domain>`: a lookup and a batch never buy one domain twice), sent in batches of
    /// at most 10,000 keyed by their domain, with `webhook_url`, and marked sent. The companies
    /// come by the `enrich_companies` webhook, whose delivery keeps them, ends the claims and
    /// records the charge ([`prospect_store::Store::record_delivery`]).
    ///
    /// Errors: the client's; domains of batches sent before the error stay marked sent.
    pub async fn enrich_companies(
        &self,
        domains: &[String],
        webhook_url: &str,
        fresh: Freshness,
        job: Option<prospect_store::JobId>,
    ) -> Result<EnrichBatch, ApiError> {
        let mut seen = HashSet::new();
        let domains: Vec<String> = domains
            .iter()
            .filter_map(|d| prospect_common::keys::domain_key(d))
            .filter(|d| seen.insert(d.clone()))
            .collect();
        let suppressed = crate::suppress::refused_domains(self, domains.clone()).await;
        let domains: Vec<String> = domains
            .into_iter()
            .filter(|d| !suppressed.contains_key(d))
            .collect();
        let from_store = if fresh == Freshness::Stored {
            let d = domains.clone();
            with_store(&self.store, move |s| s.companies_by_domains(&d))
                .await
                .unwrap_or_default()
        } else {
            HashMap::new()
        };
        let rest: Vec<String> = domains
            .into_iter()
            .filter(|d| !from_store.contains_key(d))
            .collect();
        let keys: Vec<String> = rest
            .iter()
            .map(|d| prospect_store::company_claim(d))
            .collect();
        let (to_send, pending) = self.claim_awaited(rest, keys, fresh, job).await;
        let (sent, purchases, store_error) = self
            .send_batches(&to_send, job, |batch| {
                prospect_api::types::EnrichCompaniesRequest {
                    company_data_mapping: batch
                        .iter()
                        .map(|(d, _)| (d.clone(), crate::engine::enrich_company_request(d)))
                        .collect(),
                    webhook_url: webhook_url.to_string(),
                    fields: None,
                }
            })
            .await?;
        Ok(ByWebhook {
            from_store,
            sent,
            purchases,
            pending,
            store_error,
            suppressed,
        })
    }

    /// Sends one reveal request of `kind` for `ids` (at most 500) and keeps its
    /// acknowledgement: (its purchase, why it could not be stored).
    async fn buy_reveal(
        &self,
        kind: ContactKind,
        ids: Vec<String>,
        webhook_url: &str,
        job: Option<prospect_store::JobId>,
    ) -> Result<(Option<PurchaseId>, Option<String>), ApiError> {
        let webhook_url = webhook_url.to_string();
        let paid = match kind {
            ContactKind::Email => {
                let req = RevealEmailsRequest {
                    person_ids: ids,
                    webhook_url,
                };
                self.buy(&req, job, Vec::new(), None).await?.map(|_| ())
            }
            ContactKind::Phone => {
                let req = RevealPhonesRequest {
                    person_ids: ids,
                    webhook_url,
                };
                self.buy(&req, job, Vec::new(), None).await?.map(|_| ())
            }
        };
        Ok((paid.purchase, paid.store_error))
    }

    /// Records a webhook delivery (SPEC.md §6) and the contacts in it; a delivery retried by
    /// the service is stored once. Returns `true` when it was new.
    pub async fn record_delivery(&self, event: &str, body: Vec<u8>) -> Result<bool, String> {
        let event = event.to_string();
        with_store(&self.store, move |s| {
            s.record_delivery(&event, &body, Utc::now())
                .map(|o| matches!(o, prospect_store::DeliveryOutcome::New(_)))
        })
        .await
    }

    /// `GET /v2/credits/balance` (free; SPEC.md §4.9).
    pub async fn balance(&self) -> Result<CreditBalance, ApiError> {
        let b = self.client.credit_balance().await?;
        // A used-up daily allowance that resets later than a per-minute wait: every request
        // until then fails at once instead of being sent (issue 34). One that resets in 0 s is
        // not used up.
        if let (Some(0), Some(reset), Some(pacer)) = (
            b.daily_limit_rate_left,
            b.daily_limit_rate_seconds_to_reset,
            self.client.pacer(),
        ) && reset > 0
        {
            let d = std::time::Duration::from_secs(reset as u64);
            if d > prospect_api::pace::PER_MINUTE_RETRY_MAX {
                pacer.block(d);
            }
        }
        if let Ok(mut g) = self.last_balance.lock() {
            *g = Some(b.clone());
        }
        Ok(b)
    }

    /// The last credit balance [`Session::balance`] read, if any (no request is made).
    pub fn known_balance(&self) -> Option<CreditBalance> {
        self.last_balance.lock().ok().and_then(|g| g.clone())
    }

    /// `GET /v2/data-fields` (free; SPEC.md §4.8).
    pub async fn data_fields(&self) -> Result<DataFields, ApiError> {
        self.client.data_fields().await
    }

    /// `POST /v2/warmup/companies` (free).
    pub async fn warmup(
        &self,
        req: &WarmupCompaniesRequest,
    ) -> Result<WarmupCompaniesResponse, ApiError> {
        self.client.warmup_companies(req).await
    }

    /// One page (0-based) of any of the four list searches ([`SearchRequest`]): the same page
    /// (same body, cursor and size) bought within the policy's `search_fresh_for` is read from
    /// the store at 0 credits ([`Paid::stored_at`]); else bought through
    /// [`Session::search_page`], stored with its history row. Returned as the
    /// endpoint-independent [`SearchResponse`]. Errors: the client's ([`ApiError`]).
    pub async fn search(
        &self,
        req: &SearchRequest,
        page: u32,
    ) -> Result<(Paid<SearchResponse>, Option<SearchId>), ApiError> {
        self.search_with(req, page, Freshness::Stored).await
    }

    /// [`Session::search`], buying again when `fresh` is [`Freshness::Refresh`].
    pub async fn search_with(
        &self,
        req: &SearchRequest,
        page: u32,
        fresh: Freshness,
    ) -> Result<(Paid<SearchResponse>, Option<SearchId>), ApiError> {
        // Suppressed entities go into the request as the API's exclude filters (issue 16).
        let (req, suppressed) = crate::suppress::apply_to_request(self, req).await;
        let req = &req;
        // Before the store is read: a page another process keeps after this is read, not
        // bought (the page is claimed as the engine's search claims it).
        let looked = crate::engine::looked_at(fresh == Freshness::Refresh);
        if fresh == Freshness::Stored
            && let Some(mut hit) = self.stored_search_page(req).await
        {
            self.join_page_contacts(&mut hit.0.value).await;
            suppressed.filter(&mut hit.0.value);
            hit.0.suppressed = suppressed.describe();
            return Ok(hit);
        }
        let key = crate::engine::page_key(self, req.endpoint(), req);
        let settles = if crate::engine::claim_one(self, &key, looked).await? {
            vec![key]
        } else {
            match self.stored_search_page(req).await {
                Some(mut hit) => {
                    self.join_page_contacts(&mut hit.0.value).await;
                    suppressed.filter(&mut hit.0.value);
                    hit.0.suppressed = suppressed.describe();
                    return Ok(hit);
                }
                // Settled, but nothing readable (kept in another's recovery file, or older
                // than search_fresh_for): bought again, unclaimed.
                None => Vec::new(),
            }
        };
        let result = match req {
            SearchRequest::CompaniesV3(r) => self
                .search_page_in(&**r, page, None, settles.clone())
                .await
                .map(|(p, id)| (p.map(SearchResponse::CompaniesV3), id)),
            SearchRequest::CompaniesV2(r) => self
                .search_page_in(&**r, page, None, settles.clone())
                .await
                .map(|(p, id)| (p.map(SearchResponse::CompaniesV2), id)),
            SearchRequest::PeopleV3(r) => self
                .search_page_in(&**r, page, None, settles.clone())
                .await
                .map(|(p, id)| (p.map(SearchResponse::PeopleV3), id)),
            SearchRequest::PeopleV2(r) => self
                .search_page_in(&**r, page, None, settles.clone())
                .await
                .map(|(p, id)| (p.map(SearchResponse::PeopleV2), id)),
        };
        if let Err(e) = &result
            && !e.may_have_charged()
            && !settles.is_empty()
        {
            crate::engine::release(self, settles).await;
        }
        let mut result = result;
        if let Ok((paid, _)) = &mut result {
            self.join_page_contacts(&mut paid.value).await;
            suppressed.filter(&mut paid.value);
            paid.suppressed = suppressed.describe();
        }
        result
    }

    /// The stored answer of the page `req` asks for (same endpoint, body, cursor and size),
    /// bought within `search_fresh_for`, with its stored search's id; `None` when there is
    /// none or the store cannot be read.
    pub(crate) async fn stored_search_page(
        &self,
        req: &SearchRequest,
    ) -> Option<(Paid<SearchResponse>, Option<SearchId>)> {
        let endpoint = req.endpoint();
        let body = req.body();
        let identity = search_identity(&body);
        let cursor = prospect_store::cursor_in(&body);
        let size = req.page_size() as i64;
        let target = self.target.clone();
        let fresh_for =
            chrono::Duration::from_std(self.policy.search_fresh_for).unwrap_or_default();
        let since = Utc::now() - fresh_for;
        let (id, page) = with_store(&self.store, move |s| {
            let Some(id) = s.find_search(endpoint, &identity, &target)? else {
                return Ok(None);
            };
            Ok(s.stored_page(id, &cursor, size, since)?.map(|p| (id, p)))
        })
        .await
        .ok()
        .flatten()?;
        let response = SearchResponse::decode(endpoint, page.response).ok()?;
        Some((Paid::from_store(response, page.fetched_at), Some(id)))
    }

    /// Any of the five autocompletes ([`AutocompleteRequest`], 0.1 credit a call) through
    /// [`Session::autocomplete`] (answered from this session's memory when asked before, at 0
    /// credits). Errors: the client's ([`ApiError`]).
    pub async fn suggest(
        &self,
        req: &AutocompleteRequest,
    ) -> Result<Paid<AutocompleteResponse>, ApiError> {
        Ok(match req {
            AutocompleteRequest::Companies(r) => self
                .autocomplete(r)
                .await?
                .map(AutocompleteResponse::Companies),
            AutocompleteRequest::Keywords(r) => self
                .autocomplete(r)
                .await?
                .map(AutocompleteResponse::Keywords),
            AutocompleteRequest::JobTitles(r) => self
                .autocomplete(r)
                .await?
                .map(AutocompleteResponse::JobTitles),
            AutocompleteRequest::Locations(r) => self
                .autocomplete(r)
                .await?
                .map(AutocompleteResponse::Locations),
            AutocompleteRequest::Skills(r) => self
                .autocomplete(r)
                .await?
                .map(AutocompleteResponse::Skills),
        })
    }

    /// The last `limit` searches of this session's target (most recently run first), read off
    /// the async threads. Errors: the store's, in one line.
    pub async fn history(&self, limit: usize) -> Result<Vec<SearchSummary>, String> {
        let target = prospect_common::sanitize::sanitize(&self.target)
            .trim()
            .to_string();
        let all = with_store(&self.store, move |s| s.searches(limit)).await?;
        Ok(all.into_iter().filter(|s| s.target == target).collect())
    }

    /// Adds `keys` to the list `name` of `kind` (created when missing), off the async
    /// threads: (added, already members, members now). Errors: the store's, in one line.
    pub async fn add_to_list(
        &self,
        name: String,
        kind: prospect_store::ListKind,
        keys: Vec<String>,
    ) -> Result<(usize, usize, u64), String> {
        with_store(&self.store, move |st| {
            let (added, had, _) = st.add_to_list(&name, kind, &keys)?;
            let members = st.list(&name)?.map_or(0, |l| l.members);
            Ok((added, had, members))
        })
        .await
    }

    /// The store's last `limit` spends, newest first, each purchase with who bought it
    /// ([`Store::spend_log`]; issue 17: on a team store, every member's), off the async
    /// threads. Errors: the store's, in one line.
    pub async fn spend_log(&self, limit: usize) -> Result<Vec<prospect_store::Spend>, String> {
        with_store(&self.store, move |s| s.spend_log(limit, None)).await
    }

    /// Every list with its member count, and the suppression categories with their counts
    /// (issue 16: what the explorer's lists popup shows), off the async threads. Errors: the
    /// store's, in one line.
    pub async fn lists_overview(
        &self,
    ) -> Result<
        (
            Vec<prospect_store::ListSummary>,
            Vec<crate::suppress::CategoryRow>,
        ),
        String,
    > {
        with_store(&self.store, |st| {
            let lists = st.lists()?;
            let suppression = st
                .suppression_counts()?
                .into_iter()
                .map(Into::into)
                .collect();
            Ok((lists, suppression))
        })
        .await
    }

    /// List `name` read from the store at no cost, its members joined with what the store holds
    /// of them ([`prospect_store::Store::list_records`]), with the spend engine's plan for the
    /// rest (issue 16): for a contact list, revealing the members' emails
    /// ([`crate::engine::Action::Reveal`]); for an account list, looking the members up
    /// ([`crate::engine::Action::LookupCompanies`]). Owned and suppressed members cost 0
    /// in it. `rest` is `Err` with the reason when the plan could not be made.
    ///
    /// Errors: no such list, or the store's, in one line.
    pub async fn open_list(&self, name: String) -> Result<OpenedList, String> {
        let records = {
            let name = name.clone();
            with_store(&self.store, move |st| st.list_records(&name)).await?
        }
        .ok_or_else(|| format!("there is no list named {name}"))?;
        let (kind, keys) = match &records {
            prospect_store::ListRecords::Accounts(v) => (
                prospect_store::ListKind::Accounts,
                v.iter().map(|c| c.domain.clone()).collect::<Vec<_>>(),
            ),
            prospect_store::ListRecords::Contacts(v) => (
                prospect_store::ListKind::Contacts,
                v.iter().map(|p| p.person.id.clone()).collect(),
            ),
        };
        let keys = crate::engine::KeySource::List(keys);
        let action = match kind {
            prospect_store::ListKind::Accounts => crate::engine::Action::LookupCompanies { keys },
            prospect_store::ListKind::Contacts => crate::engine::Action::Reveal {
                contact: ContactKind::Email,
                keys,
            },
        };
        let rest = if records.is_empty() {
            Err("the list has no members".to_string())
        } else {
            crate::engine::plan(self, &action, Freshness::Stored)
                .await
                .map_err(|e| e.to_string())
        };
        Ok(OpenedList {
            name,
            kind,
            records,
            rest,
        })
    }

    /// Reads search `id` back from the history at no cost ([`read_stored_search`]), off the
    /// async threads.
    ///
    /// Errors: as [`read_stored_search`].
    pub async fn reopen(&self, id: SearchId) -> Result<StoredSearch, String> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || {
            let g = store
                .lock()
                .map_err(|_| "the store is unusable after an earlier failure".to_string())?;
            read_stored_search(&g, id)
        })
        .await
        .map_err(|e| format!("store task failed: {e}"))?
    }
}

/// Reads search `id` back from the store at no cost: its first request and its pages, each
/// stored answer read into the typed response of the search's endpoint, with the contacts the
/// store holds joined into its people (what `H`, `prospect history show` and `prospect export
/// search` show).
///
/// Errors, in one line: the store cannot be read; no such search or no stored first page;
/// the endpoint is not a list search; the first request no longer passes the client's
/// checks; a stored answer does not read as its endpoint's response (names the page).
pub fn read_stored_search(st: &Store, id: SearchId) -> Result<StoredSearch, String> {
    let summary = st
        .searches(usize::MAX)
        .map_err(|e| e.to_string())?
        .into_iter()
        .find(|x| x.id == id);
    let pages = st.pages(id).map_err(|e| e.to_string())?;
    let summary = summary.ok_or_else(|| format!("search {id} is not in the store"))?;
    let endpoint = Endpoint::from_path(&summary.endpoint)
        .filter(|e| e.is_search())
        .ok_or_else(|| format!("{} is not a list search", summary.endpoint))?;
    let first = pages
        .first()
        .filter(|p| p.page == 0)
        .ok_or_else(|| "the first page of this search is not stored".to_string())?;
    let mut body = first.request.clone();
    if let Value::Object(m) = &mut body {
        m.remove("searchAfter");
    }
    let request = build_search(endpoint, &body).map_err(|problems| {
        let first = problems.first().map(|p| p.to_string()).unwrap_or_default();
        format!("the stored request no longer passes the checks: {first}")
    })?;
    let mut out = Vec::new();
    for (i, p) in pages.into_iter().enumerate() {
        if p.page as usize != i {
            break;
        }
        let mut response = SearchResponse::decode(endpoint, p.response)
            .map_err(|e| format!("page {} of the stored search: {e}", p.page + 1))?;
        st.join_contacts(&mut response.people_mut())
            .map_err(|e| e.to_string())?;
        out.push(StoredSearchPage {
            page: p.page,
            response,
            fetched_at: p.fetched_at,
        });
    }
    Ok(StoredSearch {
        id,
        request,
        body,
        pages: out,
    })
}
