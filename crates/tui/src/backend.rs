//! How the explorer reaches the service: the [`Backend`] trait, one typed [`Call`] in, one
//! typed [`Outcome`] out. The outcome (rows and cells, picker lists, suggestions) is built in
//! the call's task from the typed response, never on the UI loop.
//!
//! The production backend is [`SessionBackend`]: every call goes through the
//! [`Session`](prospect_core::session::Session), which stores each paid answer (and a search's
//! history row) before it returns. Tests and benches may bring their own backend.
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use chrono::Utc;
use serde_json::Value;

use super::actions;
use super::msg::{ApiFailure, Call, Charge, HistoryEntry, Outcome, PageData, Reopened};
use super::records;
use super::schema::{self, DataFields};
use prospect_api::client::Endpoint;
use prospect_api::types::webhooks::WebhookEvent;
use prospect_common::sanitize::sanitize;
use prospect_core::request::SearchRequest;
use prospect_core::session::Session;
use prospect_core::webhooks::Delivery;
use std::collections::HashMap;
use tokio::sync::broadcast;

/// A boxed future that owns its inputs.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// How many stored searches the history popup lists.
pub const HISTORY_LIMIT: usize = 200;

/// Where a call still running hands on part of its answer (the loop's
/// [`super::msg::Msg::Progress`]); nowhere for a call that answers once.
#[derive(Clone, Default)]
pub struct Progress(Option<std::sync::Arc<dyn Fn(Outcome) + Send + Sync>>);

impl Progress {
    /// Progress handed to `f`, on the call's task.
    pub fn new(f: impl Fn(Outcome) + Send + Sync + 'static) -> Progress {
        Progress(Some(std::sync::Arc::new(f)))
    }

    /// Hands `outcome` on (dropped when nobody listens).
    pub fn send(&self, outcome: Outcome) {
        if let Some(f) = &self.0 {
            f(outcome);
        }
    }
}

/// Something that answers [`Call`]s.
pub trait Backend: Send + Sync + 'static {
    /// Performs `call` and builds its outcome: [`Call::DataFields`] → [`Outcome::DataFields`],
    /// [`Call::Balance`] → [`Outcome::Balance`], [`Call::Search`] → [`Outcome::Page`],
    /// [`Call::Autocomplete`] → [`Outcome::Suggestions`], [`Call::History`] →
    /// [`Outcome::History`], [`Call::Reopen`] → [`Outcome::Reopened`]. A failure carries plain
    /// words (sanitized, never the token) and the client's typed error when there is one.
    /// Provided: [`Backend::call_streamed`] with nobody listening to its progress.
    fn call(&self, call: Call) -> BoxFuture<Result<Outcome, ApiFailure>> {
        self.call_streamed(call, Progress::default())
    }

    /// [`Backend::call`], handing part of the answer to `progress` as it comes (the pages of
    /// [`Call::ExportRun`]; other calls answer once).
    fn call_streamed(
        &self,
        call: Call,
        progress: Progress,
    ) -> BoxFuture<Result<Outcome, ApiFailure>>;

    /// The longest a call can take (the client's whole-request timeout): how long quitting
    /// waits for paid calls still in flight. Default 30 s.
    fn timeout(&self) -> Duration {
        Duration::from_secs(30)
    }

    /// The webhook deliveries the receiver accepted, each after it was stored (SPEC.md §6);
    /// the loop turns them into [`super::msg::Msg::Webhook`]. `None` (the default): no
    /// receiver runs.
    fn deliveries(&self) -> Option<broadcast::Receiver<Delivery>> {
        None
    }

    /// Ends every wait of the calls not yet sent (pacing, a 429's `Retry-After`; issue 34):
    /// they fail at once, nothing more is sent, and calls already sent are still awaited.
    /// For quitting. Default: nothing to end.
    fn stop_waits(&self) {}
}

/// The production backend: every call through the [`Session`] (client + store).
pub struct SessionBackend {
    session: Session,
    /// Why the session has no webhook receiver, when it has none (reveals are then refused
    /// before anything is sent).
    receiver: Result<(), String>,
}

impl SessionBackend {
    /// A backend over `session`.
    pub fn new(session: Session) -> SessionBackend {
        SessionBackend {
            session,
            receiver: Err("no webhook receiver runs".to_string()),
        }
    }

    /// The same backend once the session's webhook receiver started (`Ok`), or the reason
    /// there is none (`Err`, e.g. "reveals are disabled: … set webhook_public_url…"), shown
    /// when a reveal is refused.
    pub fn with_receiver(mut self, receiver: Result<(), String>) -> SessionBackend {
        self.receiver = receiver;
        self
    }

    /// The callback URL of `event` on the session's receiver, secret included, or why reveals
    /// are disabled.
    fn webhook_url(&self, event: WebhookEvent) -> Result<String, String> {
        match (&self.receiver, self.session.receiver()) {
            (Ok(()), Some(r)) => Ok(r.url_for(event)),
            (Err(e), _) => Err(e.clone()),
            (Ok(()), None) => Err("no webhook receiver runs".to_string()),
        }
    }

    /// The session (shared state: cloning it is cheap).
    pub fn session(&self) -> &Session {
        &self.session
    }
}

/// A one-line summary of a search body's filters for the history: `member: value` for each
/// filled leaf (the `companiesFilters.` / `peopleFilters.` prefix dropped, lists joined with
/// `, `), joined with ` · `; paging members left out; sanitized. `"no filters"` when empty.
pub fn summarize_filters(body: &Value) -> String {
    fn walk(prefix: &str, v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                for (k, v) in m {
                    let p = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    if v.is_object() && !is_range(v) {
                        walk(&p, v, out);
                    } else if schema::is_filled(Some(v)) {
                        out.push(format!("{p}: {}", value_text(v)));
                    }
                }
            }
            other => out.push(value_text(other)),
        }
    }
    fn is_range(v: &Value) -> bool {
        v.as_object()
            .is_some_and(|m| !m.is_empty() && m.keys().all(|k| k == "from" || k == "to"))
    }
    fn value_text(v: &Value) -> String {
        match v {
            Value::Array(a) => a
                .iter()
                .map(schema::fmt_item)
                .collect::<Vec<_>>()
                .join(", "),
            Value::Object(m) if is_range(v) => {
                let end = |k: &str| m.get(k).map(schema::fmt_item).unwrap_or_default();
                format!("{}–{}", end("from"), end("to"))
            }
            other => schema::fmt_item(other),
        }
    }
    let mut parts = Vec::new();
    if let Value::Object(m) = body {
        for (k, v) in m {
            if matches!(k.as_str(), "size" | "from" | "searchAfter") {
                continue;
            }
            let prefix = match k.as_str() {
                "companiesFilters" | "peopleFilters" => String::new(),
                other => other.to_string(),
            };
            if v.is_object() && !is_range(v) {
                walk(&prefix, v, &mut parts);
            } else if schema::is_filled(Some(v)) {
                parts.push(format!("{k}: {}", value_text(v)));
            }
        }
    }
    if parts.is_empty() {
        "no filters".to_string()
    } else {
        sanitize(&parts.join(" · "))
    }
}

/// A people search with `revealEmails` / `revealPhones` asked: their `webhookUrl` set to the
/// receiver's (`people_search_emails` / `people_search_phones`), so the deliveries are handled
/// like a reveal's. Unchanged when nothing is asked or no receiver runs (the service then
/// answers inline where it can).
fn with_search_webhooks(
    request: SearchRequest,
    url: impl Fn(WebhookEvent) -> Result<String, String>,
) -> SearchRequest {
    macro_rules! set {
        ($r:expr) => {{
            if let Some(e) = $r.reveal_emails.as_mut().filter(|e| e.include_emails) {
                if let Ok(u) = url(WebhookEvent::PeopleSearchEmails) {
                    e.webhook_url = Some(u);
                }
            }
            if let Some(p) = $r.reveal_phones.as_mut().filter(|p| p.include_phones) {
                if let Ok(u) = url(WebhookEvent::PeopleSearchPhones) {
                    p.webhook_url = Some(u);
                }
            }
        }};
    }
    let mut request = request;
    match &mut request {
        SearchRequest::PeopleV3(r) => set!(r),
        SearchRequest::PeopleV2(r) => set!(r),
        _ => {}
    }
    request
}

impl Backend for SessionBackend {
    fn deliveries(&self) -> Option<broadcast::Receiver<Delivery>> {
        self.session.receiver().map(|r| r.subscribe())
    }

    fn call_streamed(
        &self,
        call: Call,
        progress: Progress,
    ) -> BoxFuture<Result<Outcome, ApiFailure>> {
        let s = self.session.clone();
        let urls: HashMap<WebhookEvent, Result<String, String>> = WebhookEvent::ALL
            .into_iter()
            .map(|e| (e, self.webhook_url(e)))
            .collect();
        let url = move |e: WebhookEvent| {
            urls.get(&e)
                .cloned()
                .unwrap_or_else(|| Err("no webhook receiver runs".to_string()))
        };
        Box::pin(async move {
            if call.reads_the_store() {
                return store_call(&s, call).await;
            }
            Ok(match call {
                Call::DataFields => {
                    Outcome::DataFields(DataFields::from_api(&s.data_fields().await?))
                }
                Call::Balance => Outcome::Balance(s.balance().await?),
                Call::Search {
                    request,
                    page,
                    fresh,
                    set,
                } => {
                    let request = with_search_webhooks(request, &url);
                    let of = set.as_ref().map(|of| (&of.set, of.run_at));
                    let read =
                        prospect_core::engine::search_page(&s, &request, page, fresh, of).await?;
                    let mut data = page_data(read.paid, read.search_id);
                    data.set = read.set.map(|f| crate::msg::SetPageFacts {
                        new_keys: f.new_keys,
                        new_only: f.new_only.map(|n| n.describe()),
                        paid_again: f.paid_again,
                    });
                    Outcome::Page(data)
                }
                Call::Autocomplete(req) => {
                    let paid = s.suggest(&req).await?;
                    // Answered from the session's memory: no purchase, nothing charged.
                    let sent = paid.purchase.is_some() || paid.store_error.is_some();
                    Outcome::Suggestions {
                        list: schema::suggestions(&paid.value),
                        charge: Charge {
                            cost: paid.charged,
                            requests: u32::from(sent),
                        },
                    }
                }
                Call::PlanPage {
                    request,
                    fresh,
                    set,
                } => Outcome::PagePlanned(Box::new(match set {
                    Some(set) => {
                        prospect_core::engine::plan_set_page(&s, &request, fresh, &set).await
                    }
                    None => prospect_core::engine::plan_page(&s, &request, fresh).await,
                })),
                Call::Prepare { ask, fresh } => {
                    Outcome::Prepared(Box::new(actions::prepare(&s, ask, fresh).await?))
                }
                Call::Run { ask, plan, fresh } => {
                    Outcome::Ran(actions::run(&s, ask, plan, fresh, &url).await?)
                }
                Call::Warmup(domains) => Outcome::Warmed(actions::warmup(&s, &domains).await?),
                Call::PlanExport { action } => Outcome::ExportPlanned(Box::new(
                    prospect_core::engine::plan(
                        &s,
                        &action,
                        prospect_core::session::Freshness::Stored,
                    )
                    .await
                    .map_err(actions::plan_failure)?,
                )),
                Call::ExportRun {
                    action,
                    plan,
                    first,
                    have,
                    stop,
                } => {
                    let progress = |o| progress.send(o);
                    actions::export_run(&s, &action, &plan, first, have, &stop.0, progress).await
                }
                Call::Segmentations { focus } => Outcome::Segmentations {
                    rows: s.stored_segmentations(100).await,
                    focus,
                },
                Call::Segmentation(id) => {
                    Outcome::Segmentation(Box::new(s.segmentation(id).await?))
                }
                Call::Attribute { id, domains } => Outcome::Attributed {
                    id,
                    results: s.attribute_segmentation(id, &domains).await?.results,
                },
                Call::MarkFit { id, kind, domains } => {
                    let count = domains.len();
                    s.mark_segmentation(id, kind.clone(), domains).await?;
                    Outcome::Marked { kind, count }
                }
                other => return store_call(&s, other).await,
            })
        })
    }

    fn timeout(&self) -> Duration {
        self.session.client().options().timeout
    }

    fn stop_waits(&self) {
        self.session.client().stop_waits();
    }
}

/// A page as the explorer shows it: its rows, what it cost, when it was bought (from the
/// store), its history row, and what did not read or could not be kept.
fn page_data(
    paid: prospect_core::session::Paid<prospect_core::request::SearchResponse>,
    search_id: Option<prospect_core::owned::SearchId>,
) -> crate::msg::PageData {
    let mut data = records::page(paid.value);
    data.stored_at = paid.stored_at;
    data.charge = Charge {
        cost: paid.charged,
        requests: u32::from(paid.stored_at.is_none()),
    };
    data.search_id = search_id;
    data.store_error = paid.store_error.map(|e| sanitize(&e));
    data.unread = paid.decode_error.map(|e| sanitize(&e));
    data.suppressed = paid.suppressed;
    data
}

/// A call answered from the store, free: the open jobs, the history, lists, purchases and a
/// stored search reopened.
async fn store_call(s: &Session, call: Call) -> Result<Outcome, ApiFailure> {
    Ok(match call {
        Call::OpenJobs => {
            let jobs = s
                .jobs(20, true)
                .await
                .map_err(|e| ApiFailure::other(&format!("the store: {e}")))?;
            Outcome::OpenJobs(
                jobs.into_iter()
                    .filter(|j| j.state.is_resumable())
                    .map(|j| crate::msg::OpenJob {
                        id: j.id.0,
                        what: sanitize(&prospect_core::engine::Plan::job_action(&j)),
                        state: j.state,
                        detail: sanitize(&j.detail),
                        bought: j.bought,
                        updated_at: j.updated_at,
                    })
                    .collect(),
            )
        }
        Call::SetRuns(names) => Outcome::SetRuns(
            s.set_runs(names, 20)
                .await
                .map_err(|e| ApiFailure::other(&format!("the store: {e}")))?,
        ),
        Call::History => {
            let now = Utc::now();
            let list = s
                .history(HISTORY_LIMIT)
                .await
                .map_err(|e| ApiFailure::other(&format!("the store: {e}")))?;
            Outcome::History(
                list.into_iter()
                    .filter_map(|h| {
                        Some(HistoryEntry {
                            id: h.id,
                            endpoint: Endpoint::from_path(&h.endpoint)?,
                            summary: summarize_filters(&h.body),
                            pages: h.pages,
                            total: h.total,
                            age: (now - h.last_run_at).max(chrono::Duration::zero()),
                        })
                    })
                    .collect(),
            )
        }
        Call::AddToList { name, kind, keys } => {
            let (added, had, members) = s
                .add_to_list(name.clone(), kind, keys)
                .await
                .map_err(|e| ApiFailure::other(&format!("not added to {name}: {e}")))?;
            Outcome::ListAdded {
                name,
                added,
                had,
                members,
            }
        }
        Call::Purchases => {
            let spends = s
                .spend_log(crate::msg::PURCHASES_SHOWN)
                .await
                .map_err(|e| ApiFailure::other(&format!("the store: {e}")))?;
            Outcome::Purchases(spends)
        }
        Call::Lists => {
            let (lists, suppression) = s
                .lists_overview()
                .await
                .map_err(|e| ApiFailure::other(&format!("the store: {e}")))?;
            Outcome::Lists { lists, suppression }
        }
        Call::OpenList(name) => {
            let opened = s
                .open_list(name)
                .await
                .map_err(|e| ApiFailure::other(&format!("cannot open the list: {e}")))?;
            let (rows, known) = records::list_rows(opened.records);
            let revealed = rows
                .iter()
                .filter(|r| r.revealed() == records::Revealed::Yes)
                .count();
            Outcome::ListOpened(Box::new(crate::msg::OpenedList {
                name: opened.name,
                kind: opened.kind,
                rows,
                known,
                revealed,
                rest: opened.rest.map(|p| p.summary()),
            }))
        }
        Call::Reopen(id) => reopened(s, id).await?,
        other => {
            return Err(ApiFailure::other(&format!(
                "internal error: {other:?} is not a store read"
            )));
        }
    })
}

/// A stored search read back ([`Call::Reopen`]): its pages at no cost, as a search run now
/// would answer (what is suppressed since left out).
async fn reopened(s: &Session, id: prospect_core::owned::SearchId) -> Result<Outcome, ApiFailure> {
    let stored = s
        .reopen(id)
        .await
        .map_err(|e| ApiFailure::other(&format!("cannot reopen: {e}")))?;
    let now = Utc::now();
    let newest = stored.pages.iter().map(|p| p.fetched_at).max();
    let pages: Vec<PageData> = stored
        .pages
        .into_iter()
        .map(|p| PageData {
            stored_at: Some(p.fetched_at),
            search_id: Some(id),
            ..records::page(p.response)
        })
        .collect();
    Ok(Outcome::Reopened(Reopened {
        id,
        request: stored.request,
        body: stored.body,
        pages,
        age: newest
            .map(|t| (now - t).max(chrono::Duration::zero()))
            .unwrap_or_default(),
        suppressed: stored.suppressed,
    }))
}
