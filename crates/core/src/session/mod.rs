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
//!
//! This file is the handle (client, store, policy, owner, the paid call and the keep of its
//! answer) and names nothing of the spend engine above it but the keep, the lenient read and
//! the policy, which name no session; `tests/house.rs` fails on a loop of files. Its
//! lifecycles (`reads.rs`, `stored.rs`, `by_webhook.rs`) are the engine's callers.

use std::any::Any;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

mod by_webhook;
mod reads;
mod stored;
mod types;

pub(crate) use crate::store_task::with_store;
pub use reads::read_stored_search;
pub use types::*;

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
use prospect_store::{Contact, Entities, PurchaseId, SearchId, SearchSummary, Store};
use prospect_store::{JobId, JobRow};

use crate::engine::lenient::ReadAnswer;

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
    fn fresh(value: T, charged: Cost, kept: crate::engine::keep::KeepReport) -> Paid<T> {
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

type AutocompleteCache = HashMap<(Endpoint, String), Arc<dyn Any + Send + Sync>>;

/// Client + store + price table + spend policy; cheap to clone (shared state).
#[derive(Clone)]
pub struct Session {
    client: Client,
    store: Arc<Mutex<Store>>,
    target: String,
    prices: PriceTable,
    autocomplete: Arc<Mutex<AutocompleteCache>>,
    policy: crate::engine::policy::SpendPolicy,
    /// This process's name on claims and jobs: `pid-nonce@host`.
    owner: Arc<str>,
    /// The one webhook receiver of this session, once started ([`Session::start_receiver`]).
    receiver: Arc<tokio::sync::OnceCell<crate::webhooks::Receiver>>,
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

impl Session {
    /// A session over `client` and `store`; `target` is what purchases record as their target
    /// (`sandbox` or the base URL, never the token; see `core::config::Target::label`).
    ///
    /// The spend policy is the default ([`crate::engine::policy::SpendPolicy::default`]); answers
    /// the store cannot write go to `recovery/` beside the store file (none for a store in
    /// memory).
    pub fn new(client: Client, store: Store, target: impl Into<String>) -> Session {
        let recovery_dir = crate::engine::keep::recovery_dir_of(store.path());
        Session {
            client,
            store: Arc::new(Mutex::new(store)),
            target: target.into(),
            prices: DEFAULT_PRICES,
            autocomplete: Arc::new(Mutex::new(HashMap::new())),
            policy: crate::engine::policy::SpendPolicy::default(),
            owner: crate::engine::policy::new_owner().into(),
            receiver: Arc::default(),
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
    pub fn with_policy(mut self, policy: crate::engine::policy::SpendPolicy) -> Session {
        self.policy = policy;
        self
    }

    /// The spend policy plans are made with.
    pub fn policy(&self) -> &crate::engine::policy::SpendPolicy {
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
        let policy = crate::engine::policy::SpendPolicy {
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
        let recovery_dir =
            crate::engine::keep::recovery_dir_for(&store, settings.data_dir().as_deref());
        let mut session = Session::new(client, store, target.label()).with_policy(policy);
        session.recovery_dir = recovery_dir;
        session.damaged = damaged.map(Arc::from);
        match unreachable {
            // The recovery files there are the team's: they wait for its store.
            Some(why) => session.unreachable = Some(Arc::new(why)),
            None => {
                let (_, failed) = match session.recovery_dir() {
                    Some(dir) => crate::engine::keep::import_recovery_from(session.store(), dir),
                    None => (0, Vec::new()),
                };
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

    /// The runs of the saved filter sets `sets` (issue 37), newest first, at most `limit` a
    /// set. Errors: the store's, in words.
    pub async fn set_runs(
        &self,
        sets: Vec<String>,
        limit: usize,
    ) -> Result<Vec<prospect_store::SetRun>, String> {
        with_store(&self.store, move |st| {
            let mut out = Vec::new();
            for s in &sets {
                out.extend(st.set_runs(s, limit)?);
            }
            Ok(out)
        })
        .await
    }

    /// Job `id` of this store (`prospect resume ID`); `None` when there is no such job.
    /// Errors: the store's, in words.
    pub async fn job(&self, id: JobId) -> Result<Option<JobRow>, String> {
        with_store(&self.store, move |st| st.job(id)).await
    }

    /// Starts this session's webhook receiver with `config` (loopback on the embedded sandbox,
    /// the configured address for the real service), once: a second call hands back the one
    /// running. Deliveries are stored before they are broadcast ([`Self::receiver`]). Errors:
    /// the address cannot be bound.
    pub async fn start_receiver(
        &self,
        config: crate::webhooks::ReceiverConfig,
    ) -> anyhow::Result<&crate::webhooks::Receiver> {
        self.receiver
            .get_or_try_init(|| crate::webhooks::Receiver::start(config, self.store.clone()))
            .await
    }

    /// This session's webhook receiver, when it was started: the URLs webhook actions send,
    /// and the broadcast their waits and the explorer listen to.
    pub fn receiver(&self) -> Option<&crate::webhooks::Receiver> {
        self.receiver.get()
    }

    /// Keeps `k` in this session's store, or in a recovery file beside it when the store cannot
    /// write ([`crate::engine::keep::keep`]); never drops it.
    async fn keep(&self, k: crate::engine::keep::ToKeep) -> crate::engine::keep::KeepReport {
        crate::engine::keep::keep(&self.store, &self.target, self.recovery_dir(), k).await
    }

    /// Releases claims `keys` of this process (nothing was charged for them); a store that
    /// cannot be written leaves them to expire with their lease.
    pub(crate) async fn release(&self, keys: Vec<String>) {
        let owner = self.owner().to_string();
        let _ = with_store(self.store(), move |st| st.release(&keys, &owner)).await;
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
            q.results = prospect_common::keys::distinct_domains_in(request) as u64;
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
        self.keep_answer::<R>(request, status, raw, job, settles, page, None)
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

    /// An answer of which nothing decoded: its raw bytes are kept all the same, with no
    /// entities, and its claims `settles` are released (issue 34): no key is taken as "not
    /// found" unread, and the next run buys them again.
    #[allow(clippy::too_many_arguments)]
    async fn keep_unread(
        &self,
        endpoint: Endpoint,
        request: Value,
        raw: Vec<u8>,
        at: DateTime<Utc>,
        job: Option<JobId>,
        settles: Vec<String>,
        e: &ApiError,
    ) {
        let kept = self
            .keep(crate::engine::keep::ToKeep {
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
            })
            .await;
        self.release(settles).await;
        tracing::error!(endpoint = %endpoint, error = %e, purchase = ?kept.purchase,
            recovery = ?kept.recovery, "a paid answer did not decode; its raw bytes are kept");
    }

    /// The keeping half of [`Session::buy`], for an answer already received (`status`,
    /// `raw`) to `request`: decode what decodes, keep the raw bytes and the entities, return
    /// the typed answer. A pipeline calls it on its own task while the next request goes out.
    ///
    /// `spans`: where each company record lies in `raw` (byte ranges, in answer order), when
    /// the caller read them already (a search page's `peek`); see
    /// [`prospect_store::pack_answer`].
    ///
    /// Errors: [`ApiError::Decode`] when nothing decodes (the raw bytes are kept first).
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn keep_answer<R>(
        &self,
        request: Value,
        status: u16,
        raw: Vec<u8>,
        job: Option<prospect_store::JobId>,
        settles: Vec<String>,
        page: Option<(Value, u32)>,
        spans: Option<Vec<std::ops::Range<usize>>>,
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
        let read: ReadAnswer<R::Response> = crate::engine::lenient::read_lenient::<R>;
        let work = tokio::task::spawn_blocking(move || {
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let read = crate::engine::lenient::read_clean(read, status, &raw)?;
                let packed = prospect_store::pack_answer(
                    endpoint,
                    &request,
                    &raw,
                    at,
                    &read.0.entity_refs(at),
                    read.1.is_none(),
                    spans.as_deref(),
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
                self.keep_unread(endpoint, request, raw, at, job, settles, &e)
                    .await;
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
            value
                .page_facts()
                .map(|facts| crate::engine::keep::PageToKeep {
                    identity,
                    page: n,
                    facts,
                })
        });
        let kept = self
            .keep(crate::engine::keep::ToKeep {
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
            })
            .await;
        if !release.is_empty() {
            self.release(release).await;
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
}
