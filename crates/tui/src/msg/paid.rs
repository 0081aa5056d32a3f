//! Paid actions as the explorer asks for them and what they brought back: the ask ([`Ask`]:
//! the engine's [`Action`]), its plan ([`Prepared`]) and its answer ([`Ran`]).

use std::path::PathBuf;

use super::*;
pub use prospect_core::engine::Action;
use prospect_core::engine::KeySource;

/// A paid action of the explorer (issue 8): the spend engine's one [`Action`] (issue 35), with
/// what the explorer shows of it. It is planned first ([`Call::Prepare`]), then run through the
/// engine's one door as a job ([`Call::Run`]).
///
/// What `r` / `R`, `E`, the lookup popup and the segments view ask:
/// - a reveal of emails or phones of person ids ([`Action::Reveal`], SPEC.md §4.7, §4.10;
///   results by webhook);
/// - an enrichment of one company by domain or one person ([`Action::EnrichCompany`],
///   [`Action::EnrichPerson`]; SPEC.md §4.10, §4.4);
/// - a lookup of companies by domain, or of people by handle and service id, each key by its
///   shape ([`Action::LookupCompanies`], [`Action::LookupPeople`] with `by_shape`; §4.5, §4.6),
///   its keys a list or a file read by [`Call::Prepare`];
/// - a segmentation of company domains ([`Action::Segment`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    /// What to buy, as the engine plans and runs it (and a job keeps it).
    pub action: Action,
    /// The key of the row an enrichment of one person updates (its person id; `""` when it has
    /// none); empty for the rest.
    pub row: String,
    /// What the activity pane calls an enrichment of one person (the person's name,
    /// sanitized); empty for the rest, which are described from their action.
    pub label: String,
}

impl Ask {
    /// An ask of `action` alone (no row, no label of its own).
    pub fn of(action: Action) -> Ask {
        Ask {
            action,
            row: String::new(),
            label: String::new(),
        }
    }

    /// A reveal of `kind` for person ids `ids`.
    pub fn reveal(kind: ContactKind, ids: Vec<String>) -> Ask {
        Ask::of(Action::Reveal {
            contact: kind,
            keys: KeySource::List(ids),
        })
    }

    /// A lookup of `subject` by `keys` (companies: domains; people: handles and service ids,
    /// each by its shape), or by the keys of `file` when given.
    pub fn lookup(subject: SearchSubject, keys: Vec<String>, file: Option<PathBuf>) -> Ask {
        let keys = match file {
            Some(path) => KeySource::File { path, column: None },
            None => KeySource::List(keys),
        };
        Ask::of(match subject {
            SearchSubject::Companies => Action::LookupCompanies { keys },
            SearchSubject::People => Action::LookupPeople {
                keys,
                ids: false,
                by_shape: true,
            },
        })
    }

    /// A segmentation of company `domains` with the default features.
    pub fn segment(domains: &[String]) -> Ask {
        let input = prospect_api::types::SegmentationInput {
            domains: domains.to_vec(),
            ..Default::default()
        };
        Ask::of(Action::Segment {
            request: serde_json::to_value(input).unwrap_or_default(),
        })
    }

    /// The contact kind of a reveal.
    pub fn reveal_kind(&self) -> Option<ContactKind> {
        match &self.action {
            Action::Reveal { contact, .. } => Some(*contact),
            _ => None,
        }
    }

    /// A short description for the status line and the activity pane, e.g. `reveal emails of
    /// 2 people`, `enrich acme.com`, `lookup of 5 domains`.
    pub fn describe(&self) -> String {
        use prospect_common::words::counted as plural;
        let listed = |keys: &KeySource, one: &str, many: &str| match keys {
            KeySource::List(k) => plural(k.len(), one, many),
            KeySource::File { path, .. } => sanitize(&path.display().to_string()),
        };
        match &self.action {
            Action::Reveal { contact, keys } => format!(
                "reveal {} of {}",
                match contact {
                    ContactKind::Email => "emails",
                    ContactKind::Phone => "phones",
                },
                listed(keys, "person", "people")
            ),
            Action::EnrichCompany { domain } => format!("enrich {}", sanitize(domain)),
            Action::EnrichPerson { .. } => format!("enrich {}", self.label),
            Action::LookupCompanies { keys } => {
                format!("lookup of {}", listed(keys, "domain", "domains"))
            }
            Action::LookupPeople { keys, .. } => {
                format!("lookup of {}", listed(keys, "person", "people"))
            }
            Action::Segment { request } => {
                let n = serde_json::from_value::<prospect_api::types::SegmentationInput>(
                    request.clone(),
                )
                .map_or(0, |input| input.domains.len());
                format!("segmentation of {}", plural(n, "company", "companies"))
            }
            other => other.kind().replace('_', " "),
        }
    }
}

/// A paid action checked against the store and estimated ([`Call::Prepare`]): nothing spent.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The ask, its keys resolved (a lookup file read).
    pub ask: Ask,
    /// Whether the store may answer (as asked).
    pub fresh: Freshness,
    /// The most the part still to send may cost, per pool, and how much the store answers.
    pub estimate: Estimate,
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
        /// Refused, never sent, in words (`2 suppressed (customers 2)`; issue 16); `None` when
        /// none was.
        suppressed: Option<String>,
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
        /// Keys refused, never sent, in words (`1 suppressed (customers 1)`); their rows say
        /// `suppressed (category)`, not "not found".
        suppressed: Option<String>,
    },
    /// A segmentation bought (or owned): its id; it is computed by the service.
    Segmentation {
        /// The segmentation's id.
        id: i64,
    },
}
