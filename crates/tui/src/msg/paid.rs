//! Paid actions as the explorer asks for them and what they brought back: the action
//! ([`PaidAction`]), its store check and estimate ([`Prepared`]) and its answer ([`Ran`]).

use super::*;

/// A paid action of the explorer (issue 8): what `r` / `R`, `E` and the lookup popup send.
/// It is checked against the store and estimated first ([`Call::Prepare`]), then sent as a
/// job ([`Call::Run`]).
#[derive(Debug, Clone, PartialEq)]
pub enum PaidAction {
    /// `/v2/reveal/emails` or `/v2/reveal/phones` (SPEC.md §4.7, §4.10) for these person
    /// ids, in requests of at most 500; results arrive by webhook.
    Reveal {
        /// Emails or phones.
        kind: ContactKind,
        /// Person ids, distinct.
        ids: Vec<String>,
    },
    /// `/v2/enrich/company` by domain (SPEC.md §4.10).
    EnrichCompany {
        /// The domain as shown.
        domain: String,
    },
    /// `/v2/enrich/person` (SPEC.md §4.4) by id, else name + domain, professional-network URL
    /// or email.
    EnrichPerson {
        /// The request (already checked as the client will).
        request: Box<prospect_api::types::EnrichPersonRequest>,
        /// The key of the row it updates (the person id; `""` when it has none).
        key: String,
        /// What the activity pane calls it, e.g. the person's name (sanitized).
        label: String,
    },
    /// `/v2/lookup/companies` (domains) or `/v2/lookup/people` (handles / service ids)
    /// (SPEC.md §4.5, §4.6), in requests of at most 1,000 keys.
    Lookup {
        /// Companies or people.
        subject: SearchSubject,
        /// The keys, in the order given.
        keys: Vec<String>,
        /// A file to read the keys from instead (a plain list, or a CSV column), read by
        /// [`Call::Prepare`].
        file: Option<std::path::PathBuf>,
    },
    /// `POST /v2/segmentation` (openapi.json; issue 18) of these company domains, with the
    /// default features: 0.1 credit a distinct domain, 0 when the store bought the same.
    Segment {
        /// The domains, distinct.
        domains: Vec<String>,
    },
}

impl PaidAction {
    /// A short description for the status line and the activity pane, e.g. `reveal emails of
    /// 2 people`, `enrich acme.com`, `lookup of 5 domains`.
    pub fn describe(&self) -> String {
        use prospect_common::words::counted as plural;
        match self {
            PaidAction::Reveal { kind, ids } => format!(
                "reveal {} of {}",
                match kind {
                    ContactKind::Email => "emails",
                    ContactKind::Phone => "phones",
                },
                plural(ids.len(), "person", "people")
            ),
            PaidAction::EnrichCompany { domain } => format!("enrich {}", sanitize(domain)),
            PaidAction::EnrichPerson { label, .. } => format!("enrich {label}"),
            PaidAction::Lookup {
                subject,
                keys,
                file,
            } => match file {
                Some(f) => format!("lookup of {}", sanitize(&f.display().to_string())),
                None => format!(
                    "lookup of {}",
                    match subject {
                        SearchSubject::Companies => plural(keys.len(), "domain", "domains"),
                        SearchSubject::People => plural(keys.len(), "person", "people"),
                    }
                ),
            },
            PaidAction::Segment { domains } => format!(
                "segmentation of {}",
                plural(domains.len(), "company", "companies")
            ),
        }
    }
}

/// A paid action checked against the store and estimated ([`Call::Prepare`]): nothing spent.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The action, keys resolved (a lookup file read).
    pub action: PaidAction,
    /// Whether the store may answer (as asked).
    pub fresh: Freshness,
    /// The most the part still to send may cost, per pool, and how much the store answers.
    pub estimate: Estimate,
    /// Contacts the store already holds (reveals; by person id), answered at 0 credits.
    pub stored_contacts: HashMap<String, Contact>,
    /// When the oldest stored answer was bought (for "revealed 3 days ago").
    pub stored_at: Option<DateTime<Utc>>,
    /// The spend engine's plan (owned, to buy per pool, requests, ETA), which the confirm
    /// popup shows; `None` only in tests that build a `Prepared` by hand.
    pub plan: Option<prospect_core::engine::Plan>,
}

/// A paid action's answer ([`Call::Run`]), stored by the session before it came back.
#[derive(Debug, Clone)]
pub struct Ran {
    /// What it cost (zero when the store answered) and the requests it made.
    pub charge: Charge,
    /// When the stored answer was bought, when the store answered.
    pub stored_at: Option<DateTime<Utc>>,
    /// How the stored answer was bought ("seen in a search", "enriched", …), when the store
    /// answered.
    pub provenance: Option<&'static str>,
    /// Why a paid answer could not be stored (it is shown all the same).
    pub store_error: Option<String>,
    /// When a paid answer did not read whole (issue 34): what did not read, in words; it is
    /// bought again by the same action, never shown as "not found".
    pub unread: Option<String>,
    /// The answer.
    pub answer: RanAnswer,
}

/// The answer of each kind of paid action.
#[derive(Debug, Clone)]
pub enum RanAnswer {
    /// A reveal: contacts from the store (by person id) and the ids sent (their results
    /// arrive by webhook).
    Reveal {
        /// Emails or phones.
        kind: ContactKind,
        /// Answered at 0 credits.
        from_store: HashMap<String, Contact>,
        /// Sent to the service.
        sent: Vec<String>,
    },
    /// An enrich of a company: the record, or `None` while the service gathers it (a 201:
    /// the job retries by itself).
    Company {
        /// The domain asked for.
        domain: String,
        /// The record, sanitized when shown.
        company: Option<Box<Company>>,
        /// The 201's `detail`, sanitized.
        detail: String,
    },
    /// An enrich of a person, as for a company.
    Person {
        /// The key of the row it updates.
        key: String,
        /// The record.
        person: Option<Box<Person>>,
        /// The 201's `detail`, sanitized.
        detail: String,
    },
    /// A lookup: one row per distinct key, matched or not ("not found").
    Lookup {
        /// Companies or people.
        subject: SearchSubject,
        /// The rows, in the order asked.
        rows: Vec<ResultRow>,
        /// Keys the service (or the store) did not find.
        not_found: usize,
        /// Keys answered from the store.
        from_store: usize,
        /// Keys sent.
        sent: usize,
    },
    /// A segmentation bought (or owned): its id; it is computed by the service.
    Segmentation {
        /// The segmentation's id.
        id: i64,
    },
}
