//! The values the session hands out: lookups' entries, answers by webhook, stored searches
//! and lists (shapes of SPEC.md §4's answers as kept).

use super::*;

/// One entry of a company lookup, in the order the domains were asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct LookupEntry<T> {
    /// The key as requested (a domain; a handle or service id for people).
    pub key: String,
    /// The record, `None` when the service did not find it ("not found"). Boxed: a company is
    /// about 1.8 KB inline, and a big lookup's entries are mostly not found, so a batch of them
    /// is a few pointers per key, not a record's width moved at every step.
    pub record: Option<Box<T>>,
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
    /// Records left out of the pages because they are suppressed now (issue 38; suppressed
    /// since they were bought), in words; `None` when none was or the search was read as
    /// stored.
    pub suppressed: Option<String>,
}
