//! What paid jobs bring back (issue 19, "The shape": `impl App` by concern): a job's answer
//! (stored before it is shown) into the rows and the activity pane, and webhook deliveries of
//! revealed emails and phones, matched to their jobs and rows.
use super::jobs::{
    ENRICH_PATIENCE, REVEAL_PATIENCE, ago, backoff, email_of, kind_word, phone_of, plural,
};
use super::{App, Pane, STATUS_TTL, StatusKind};
use crate::components::activity::{DeliveryEntry, JobState};
use crate::components::results::{Page, SearchState};
use crate::fmt::capitalize;
use crate::keymap::KeyAction;
use crate::msg::{Ask, Command, Ran, RanAnswer, Record, Slot, TimerId};
use crate::schema::SearchSubject;
use prospect_api::cost::Cost;
use prospect_api::types::webhooks::{DeliveredContact, WebhookBody};
use prospect_api::types::{Email, Person, Phone, PhoneStatus, WireEnum};
use prospect_common::ContactKind;
use prospect_common::keys::normalize_domain;
use prospect_common::sanitize::sanitize;
use prospect_core::owned::Contact;
use prospect_core::spend::describe_pools;
use prospect_core::webhooks::Delivery;
use std::collections::{BTreeSet, HashMap};

/// What every paid answer's status line may say, read once from the answer.
struct Said {
    /// ` · NOT stored: why` when the store could not keep it.
    stored_note: String,
    /// How long ago the stored answer was bought.
    age: Option<String>,
    /// The store answered at 0 credits, nothing was sent.
    from_store: bool,
    /// How the stored answer was bought.
    provenance: &'static str,
    /// What it cost.
    cost: Cost,
}

/// How a lookup's keys were answered, for its status line.
struct LookupCounts {
    /// Keys the service (or the store) did not find.
    not_found: usize,
    /// Keys answered from the store.
    stored: usize,
    /// Keys sent.
    sent: usize,
    /// Keys refused (suppressed), in words.
    suppressed: Option<String>,
}

/// A contact update for one person.
enum ContactUpdate {
    Email(Email),
    Phone(Phone),
}

impl App {
    /// A paid job's answer, already stored by the session (or, when the store failed, kept
    /// in a recovery file and said so): into the rows, the activity pane and the status line.
    pub(super) fn on_ran(&mut self, id: u64, r: Ran) -> Vec<Command> {
        let from_store = r.stored_at.is_some() && r.charge.cost.is_zero() && r.charge.requests == 0;
        let said = Said {
            stored_note: r
                .store_error
                .as_ref()
                .map(|e| format!(" · NOT stored: {e}"))
                .into_iter()
                .chain(r.unread.as_ref().map(|e| format!(" · {e}")))
                .collect(),
            age: r.stored_at.map(|t| ago(self.now - t)),
            from_store,
            provenance: r.provenance.unwrap_or("bought"),
            cost: r.charge.cost,
        };
        match r.answer {
            RanAnswer::Reveal {
                kind,
                from_store,
                sent,
                suppressed,
            } => self.ran_reveal(id, kind, &from_store, &sent, suppressed, &said),
            RanAnswer::Company {
                domain,
                company: Some(c),
                ..
            } => {
                let key = normalize_domain(&domain);
                let n = self.update_rows(SearchSubject::Companies, |rec| match rec {
                    Record::Company { company, .. }
                        if normalize_domain(&company.domain) == key
                            || company.domain.is_empty() && key.is_empty() =>
                    {
                        *company = (*c).clone();
                        true
                    }
                    _ => false,
                });
                self.enriched(id, &sanitize(&domain), n, &said)
            }
            RanAnswer::Company { domain, detail, .. } => self.gathering(id, &domain, &detail),
            RanAnswer::Person {
                key,
                person: Some(p),
                ..
            } => {
                let p = *p;
                let label = sanitize(p.name.as_deref().unwrap_or("the person"));
                let n = if key.is_empty() {
                    0
                } else {
                    self.update_rows(SearchSubject::People, |rec| match rec {
                        Record::Person { person, .. } if person.id == key => {
                            *person = p.clone();
                            true
                        }
                        _ => false,
                    })
                };
                self.enriched(id, &label, n, &said)
            }
            RanAnswer::Person { key, detail, .. } => self.gathering(id, &key, &detail),
            RanAnswer::Lookup {
                subject,
                rows,
                not_found,
                from_store: stored,
                sent,
                suppressed,
            } => {
                let counts = LookupCounts {
                    not_found,
                    stored,
                    sent,
                    suppressed,
                };
                self.ran_lookup(id, subject, rows, counts, &said)
            }
            RanAnswer::Segmentation { id: seg } => {
                self.job_arrived(id, said.cost, said.from_store);
                if let Some(j) = self.activity.job_mut(id) {
                    j.note = format!("segmentation {seg}");
                }
                let how = if said.from_store {
                    format!(
                        "the same companies were segmented {} · 0 credits",
                        said.age.as_deref().unwrap_or("before")
                    )
                } else {
                    format!(
                        "{}{}",
                        prospect_core::spend::describe_pools(&said.cost),
                        said.stored_note
                    )
                };
                let mut cmds = self.segmentation_bought(seg);
                cmds.extend(self.info(&format!("Segmentation {seg}: {how}")));
                cmds
            }
        }
    }

    /// A reveal sent: contacts the store had are filled in, the rest wait for the webhook
    /// (a deadline timer when some do).
    fn ran_reveal(
        &mut self,
        id: u64,
        kind: ContactKind,
        from_store: &HashMap<String, Contact>,
        sent: &[String],
        suppressed: Option<String>,
        said: &Said,
    ) -> Vec<Command> {
        self.fill_contacts(kind, from_store);
        // Refused people are said as such (issue 38), never as contacts from the store.
        let refused = suppressed
            .map(|s| format!(" · refused: {s}"))
            .unwrap_or_default();
        if sent.is_empty() && from_store.is_empty() {
            self.job_arrived(id, Cost::ZERO, true);
            if let Some(j) = self.activity.job_mut(id) {
                j.note = "nothing to reveal".into();
            }
            return self.info(&format!("Nothing to reveal{refused} · 0 credits"));
        }
        if sent.is_empty() {
            let cmds = self.revealed_before(id, kind, from_store.len(), said);
            if let Some(st) = &mut self.status {
                st.text.push_str(&refused);
            }
            return cmds;
        }
        let waiting: BTreeSet<String> = sent
            .iter()
            .filter(|i| !self.has_final_contact(kind, i))
            .cloned()
            .collect();
        let estimate = self
            .activity
            .job_mut(id)
            .map(|j| j.estimate)
            .unwrap_or_default();
        let overdue_check = !waiting.is_empty();
        if let Some(j) = self.activity.job_mut(id) {
            j.sent_ids = sent.len();
            j.state = if waiting.is_empty() {
                JobState::Arrived
            } else {
                JobState::Pending
            };
            j.waiting = waiting;
            j.note = "results arrive by webhook".into();
        }
        let stored = if from_store.is_empty() {
            String::new()
        } else {
            format!(" · {} from the store", from_store.len())
        };
        let mut cmds = self.info(&format!(
            "Reveal of {} sent (≤ {}); they arrive by webhook{stored}{refused}{}",
            plural(sent.len(), kind_word(kind)),
            describe_pools(&estimate),
            said.stored_note
        ));
        if overdue_check {
            cmds.push(self.timer(TimerId::RevealDeadline(id), REVEAL_PATIENCE));
        }
        cmds
    }

    /// A reveal the store answered whole (`n` contacts of `kind`, at 0 credits, nothing sent):
    /// said with their age and the refresh key, which reveals them again.
    fn revealed_before(
        &mut self,
        id: u64,
        kind: ContactKind,
        n: usize,
        said: &Said,
    ) -> Vec<Command> {
        let age = said.age.clone().unwrap_or_else(|| "earlier".into());
        if let Some(j) = self.activity.job_mut(id) {
            j.state = JobState::FromStore;
            j.note = format!("revealed {age}");
            self.last_stored = j.action.clone();
        }
        let refresh = self.opts.keymap.first_key_of(KeyAction::Refresh);
        self.info(&format!(
            "{} from the store, revealed {age} · 0 credits · {refresh} to refresh",
            plural(n, kind_word(kind))
        ))
    }

    /// A company or person enriched (`label`), `n` rows updated: from the store at 0 credits
    /// (the refresh key buys it again), or bought.
    fn enriched(&mut self, id: u64, label: &str, n: usize, said: &Said) -> Vec<Command> {
        self.job_arrived(id, said.cost, said.from_store);
        let shown = if n == 0 { " (not in the table)" } else { "" };
        match (&said.age, said.from_store) {
            (Some(age), true) => {
                self.last_stored = self.activity.job_mut(id).and_then(|j| j.action.clone());
                let refresh = self.opts.keymap.first_key_of(KeyAction::Refresh);
                self.info(&format!(
                    "{label} from the store, {} {age} · 0 credits · {refresh} to refresh{shown}",
                    said.provenance
                ))
            }
            _ => self.info(&format!(
                "Enriched {label} · {}{shown}{}",
                describe_pools(&said.cost),
                said.stored_note
            )),
        }
    }

    /// A lookup answered: its rows become the tab of `subject` (at no further cost).
    #[allow(clippy::too_many_arguments)]
    fn ran_lookup(
        &mut self,
        id: u64,
        subject: SearchSubject,
        rows: Vec<crate::msg::ResultRow>,
        counts: LookupCounts,
        said: &Said,
    ) -> Vec<Command> {
        let LookupCounts {
            not_found,
            stored,
            sent,
            suppressed,
        } = counts;
        let refused = rows
            .iter()
            .filter(|r| {
                r.cells
                    .first()
                    .is_some_and(|c| c.starts_with("suppressed ("))
            })
            .count();
        let (all, n) = (rows.len(), rows.len() - refused);
        self.bump(Slot::Search(subject));
        *self.search_mut(subject) = SearchState {
            pages: vec![Page {
                rows,
                stored: false,
            }],
            total: Some(all as u64),
            ..SearchState::default()
        };
        self.form.show_kind(subject);
        self.focus = Pane::Results;
        self.details.reset();
        self.job_arrived(id, said.cost, sent == 0);
        if let Some(j) = self.activity.job_mut(id) {
            j.note = format!("{} found, {not_found} not found", n - not_found);
        }
        if sent == 0 {
            self.last_stored = self.activity.job_mut(id).and_then(|j| j.action.clone());
        }
        let store = if stored > 0 {
            format!(
                " · {stored} from the store{}",
                said.age
                    .as_ref()
                    .map(|a| format!(" ({a})"))
                    .unwrap_or_default()
            )
        } else {
            String::new()
        };
        let refused = suppressed.map(|s| format!(", {s}")).unwrap_or_default();
        self.info(&format!(
            "Lookup: {} found, {not_found} not found{refused}{store} · {}{}",
            n - not_found,
            if said.cost.is_zero() {
                "0 credits".to_string()
            } else {
                describe_pools(&said.cost)
            },
            said.stored_note
        ))
    }

    pub(super) fn job_arrived(&mut self, id: u64, charged: Cost, from_store: bool) {
        if let Some(j) = self.activity.job_mut(id) {
            j.charged += charged;
            j.state = if from_store {
                JobState::FromStore
            } else {
                JobState::Arrived
            };
            j.note.clear();
        }
    }

    /// A 201 ("data gathering has started"): the job waits and tries again by itself, with
    /// backoff, for up to [`ENRICH_PATIENCE`].
    pub(super) fn gathering(&mut self, id: u64, what: &str, detail: &str) -> Vec<Command> {
        let now = self.now;
        let Some(j) = self.activity.job_mut(id) else {
            return vec![];
        };
        let waited = (now - j.sent_at).to_std().unwrap_or_default();
        if waited >= ENRICH_PATIENCE {
            j.state = JobState::Failed("still not found after 10 minutes".into());
            let label = j.label.clone();
            self.set_status(
                &format!(
                    "{}: still not found after 10 minutes; gave up",
                    capitalize(&label)
                ),
                StatusKind::Error,
            );
            return vec![];
        }
        j.state = JobState::Pending;
        j.note = format!("data gathering has started · try {}", j.attempts);
        let wait = backoff(j.attempts);
        let a = self.opts.keymap.first_key_of(KeyAction::Activity);
        let text = format!(
            "{}: {} — trying again by itself ({a} shows the activity)",
            sanitize(what),
            if detail.is_empty() {
                "data gathering has started"
            } else {
                detail
            }
        );
        self.set_status(&text, StatusKind::Progress);
        vec![self.timer(TimerId::Retry(id), wait)]
    }

    /// Applies `f` to every record of the tab of `kind` (all pages) and rebuilds the cells of
    /// those it changed; returns how many changed.
    pub(super) fn update_rows(
        &mut self,
        kind: SearchSubject,
        mut f: impl FnMut(&mut Record) -> bool,
    ) -> usize {
        let mut n = 0;
        for page in &mut self.search_mut(kind).pages {
            for row in &mut page.rows {
                if f(&mut row.record) {
                    row.cells = row.record.cells();
                    n += 1;
                }
            }
        }
        if n > 0 {
            self.dirty = true;
            self.search_mut(kind).rows_changed();
        }
        n
    }

    fn update_people(&mut self, updates: HashMap<String, ContactUpdate>) -> usize {
        if updates.is_empty() {
            return 0;
        }
        self.update_rows(SearchSubject::People, |rec| {
            let Record::Person { person, .. } = rec else {
                return false;
            };
            match updates.get(person.id.trim()) {
                Some(ContactUpdate::Email(e)) => {
                    person.email = Some(e.clone());
                    true
                }
                Some(ContactUpdate::Phone(p)) => {
                    person.phone = Some(p.clone());
                    true
                }
                None => false,
            }
        })
    }

    pub(super) fn fill_contacts(&mut self, kind: ContactKind, contacts: &HashMap<String, Contact>) {
        let updates = contacts
            .iter()
            .map(|(id, c)| {
                (
                    id.clone(),
                    match kind {
                        ContactKind::Email => ContactUpdate::Email(email_of(c)),
                        ContactKind::Phone => ContactUpdate::Phone(phone_of(c)),
                    },
                )
            })
            .collect();
        self.update_people(updates);
    }

    /// `true` when the row of person `id` already holds a final result of `kind` (a webhook
    /// that came before the reveal's own answer).
    pub(super) fn has_final_contact(&self, kind: ContactKind, id: &str) -> bool {
        self.search(SearchSubject::People)
            .pages
            .iter()
            .flat_map(|p| p.rows.iter())
            .filter_map(|r| r.record.person())
            .filter(|p| p.id == id)
            .any(|p| match kind {
                ContactKind::Email => p
                    .email
                    .as_ref()
                    .is_some_and(|e| e.status.as_str() != "inProgress"),
                ContactKind::Phone => p
                    .phone
                    .as_ref()
                    .is_some_and(|e| e.status != PhoneStatus::InProgress),
            })
    }

    /// A webhook delivery (stored by the receiver before it reaches here): the activity pane,
    /// the credit gauge (once: a retried delivery changes nothing), the rows and details it
    /// fills, the reveal jobs it completes, the status line.
    pub(super) fn on_delivery(&mut self, d: Delivery) -> Vec<Command> {
        self.dirty = true;
        let Delivered {
            updates,
            people,
            companies,
            results,
            credits,
            kind,
        } = delivered(&d.body);
        self.activity.deliveries.push(DeliveryEntry {
            event: d.event,
            results,
            credits,
            at: d.received_at,
            new: d.new,
        });
        if !d.new {
            tracing::debug!(event = %d.event, "a retried webhook delivery: already applied");
        } else if !credits.is_zero() {
            self.gauge.on_charge(credits);
        }
        // The rows and the details.
        let ids: Vec<String> = updates.keys().cloned().collect();
        let filled = self.update_people(updates);
        let by_id: HashMap<String, Person> = people
            .into_iter()
            .map(|p| (p.id.trim().to_string(), p))
            .collect();
        if !by_id.is_empty() {
            self.update_rows(SearchSubject::People, |rec| match rec {
                Record::Person { person, .. } => match by_id.get(person.id.trim()) {
                    Some(p) => {
                        *person = p.clone();
                        true
                    }
                    None => false,
                },
                _ => false,
            });
        }
        for c in companies {
            let key = normalize_domain(&c.domain);
            self.update_rows(SearchSubject::Companies, |rec| match rec {
                Record::Company { company, .. } if normalize_domain(&company.domain) == key => {
                    *company = c.clone();
                    true
                }
                _ => false,
            });
        }
        if let Some(kind) = kind {
            self.complete_reveals(kind, &ids, credits, d.new);
        }
        let what = match kind {
            Some(k) => plural(results, kind_word(k)),
            None => plural(results, "result"),
        };
        let text = format!(
            "Webhook {}: {what} arrived{} · {}{}",
            d.event,
            if filled > 0 {
                format!(", {filled} shown in the table")
            } else {
                String::new()
            },
            if credits.is_zero() {
                "0 credits".to_string()
            } else {
                describe_pools(&credits)
            },
            if d.new {
                ""
            } else {
                " (a retry: nothing changed)"
            }
        );
        self.set_status(&text, StatusKind::Info);
        vec![self.timer(TimerId::Status, STATUS_TTL)]
    }

    /// The pending reveal jobs of `kind` waiting for any of `ids`: those ids arrived (the
    /// first such job is credited with the delivery's charge, once, when it is `new`); a job
    /// with nothing left to wait for has arrived.
    fn complete_reveals(&mut self, kind: ContactKind, ids: &[String], credits: Cost, new: bool) {
        let mut credited = false;
        for j in &mut self.activity.jobs {
            let reveals_kind = j.action.as_ref().and_then(Ask::reveal_kind) == Some(kind);
            if !reveals_kind || j.state != JobState::Pending {
                continue;
            }
            let before = j.waiting.len();
            j.waiting.retain(|i| !ids.contains(i));
            if j.waiting.len() != before {
                if !credited && new {
                    j.charged += credits;
                    credited = true;
                }
                if j.waiting.is_empty() {
                    j.state = JobState::Arrived;
                    j.note.clear();
                }
            }
        }
    }
}

/// What a webhook delivery carries, read from its body: contact updates by person id,
/// enriched people and companies, how many results, their charge, and the contact kind (for
/// reveals).
struct Delivered {
    updates: HashMap<String, ContactUpdate>,
    people: Vec<Person>,
    companies: Vec<prospect_api::types::Company>,
    results: usize,
    credits: Cost,
    kind: Option<ContactKind>,
}

/// Reads a delivery's body through its one mapping ([`WebhookBody::contacts`],
/// [`WebhookBody::charge`]); addresses and numbers sanitized as they are shown.
fn delivered(body: &WebhookBody) -> Delivered {
    let updates = body
        .contacts()
        .into_iter()
        .map(|c| match c {
            DeliveredContact::Email { person_id, email } => (
                person_id,
                ContactUpdate::Email(Email {
                    address: email.address.as_deref().map(sanitize),
                    status: email.status,
                }),
            ),
            DeliveredContact::Phone { person_id, phone } => (
                person_id,
                ContactUpdate::Phone(Phone {
                    numbers: phone.numbers.iter().map(|n| sanitize(n)).collect(),
                    status: phone.status,
                }),
            ),
        })
        .collect();
    Delivered {
        updates,
        people: body.people().into_iter().cloned().collect(),
        companies: body.companies().into_iter().cloned().collect(),
        results: body.results(),
        // The one charge rule of a delivery, the ledger's (issue 35): a people-search reveal
        // charges its verified contacts, though its body states no `creditsUsed`.
        credits: body.charge(),
        kind: body.contact_kind(),
    }
}
