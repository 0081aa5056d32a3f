//! The actions on the selection (issue 8): marks, reveal (`r` / `R`), enrich (`E`), warmup
//! (`W`), lookup (`Ctrl-l`), refresh (`F`) and the activity pane (`a`); the jobs they start and
//! the webhook deliveries that complete them. A child of `app` so that it shares the state
//! owner's helpers; everything still changes only in [`App::update`].
//!
//! Every paid action goes the same way: validate, check the store and estimate per pool
//! ([`Call::Prepare`], free), answer from the store at 0 credits when it can (saying how old
//! that answer is), confirm above `confirm_above` in any one pool, then send it as a job with
//! an id ([`Call::Run`]) that is never aborted once sent.
use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

use crossterm::event::KeyEvent;

use super::{App, Pane, Popup, STATUS_TTL, StatusKind};
use crate::api::cost::{Cost, CreditPool};
use crate::api::types::webhooks::WebhookBody;
use crate::api::types::{
    CompanyMatch, Email, EmailStatus, EnrichPersonRequest, Person, PersonMatch, Phone, PhoneStatus,
    WireEnum,
};
use crate::core::sanitize::sanitize;
use crate::core::session::Freshness;
use crate::core::spend::{describe_age, describe_pools, pools_above};
use crate::core::webhooks::Delivery;
use crate::store::{Contact, ContactKind, normalize_domain};
use crate::tui::components::activity::{ActivityEffect, DeliveryEntry, Job, JobState};
use crate::tui::components::lookup::{LookupEffect, LookupPopup};
use crate::tui::components::results::{Page, SearchState};
use crate::tui::components::spend_gate::{self, Answer};
use crate::tui::keymap::Action;
use crate::tui::msg::{
    ApiFailure, Call, Command, Outcome, PaidAction, Prepared, Ran, RanAnswer, Record, ResultRow,
    Slot, TimerId,
};
use crate::tui::schema::Kind;

/// How long a pending enrich (a 201, "data gathering has started") keeps trying by itself.
pub const ENRICH_PATIENCE: Duration = Duration::from_secs(600);

/// How long a reveal job waits for its webhook deliveries before it is reported overdue
/// (SPEC.md §6: the service delivers within minutes and retries failed deliveries). A delivery
/// that comes later is still stored and still fills the rows.
pub const REVEAL_PATIENCE: Duration = Duration::from_secs(900);

/// The wait before the next try of a pending enrich after `attempt` tries: 1 s, 2 s, 4 s …
/// doubling, at most 60 s.
pub fn backoff(attempt: u32) -> Duration {
    let secs = 1u64 << attempt.saturating_sub(1).min(6);
    Duration::from_secs(secs.min(60))
}

/// `revealed 3 days ago`-style words from [`describe_age`].
fn ago(age: chrono::Duration) -> String {
    let a = describe_age(age);
    match a.strip_suffix(" old") {
        Some(rest) => format!("{rest} ago"),
        None => a,
    }
}

fn kind_word(kind: ContactKind) -> &'static str {
    match kind {
        ContactKind::Email => "email",
        ContactKind::Phone => "phone",
    }
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// The email of a stored contact, as a person record carries it.
fn email_of(c: &Contact) -> Email {
    Email {
        address: c.email.as_deref().map(sanitize),
        status: EmailStatus::from_wire(&c.status),
    }
}

/// The phone of a stored contact, as a person record carries it.
fn phone_of(c: &Contact) -> Phone {
    Phone {
        numbers: c.phones.iter().map(|n| sanitize(n)).collect(),
        status: PhoneStatus::from_wire(&c.status),
    }
}

/// A contact update for one person.
enum ContactUpdate {
    Email(Email),
    Phone(Phone),
}

impl App {
    /// The rows the actions apply to in the tab of `kind`: the marked ones (across its pages,
    /// in page order), else the selected one.
    pub fn targets(&self, kind: Kind) -> Vec<&ResultRow> {
        let marked = self.results.marked(kind);
        if marked.is_empty() {
            return self.search(kind).selected().into_iter().collect();
        }
        marked
    }

    /// The actions of this module; `None` for any other action.
    pub(super) fn action_key(&mut self, action: Action) -> Option<Vec<Command>> {
        Some(match action {
            Action::Mark => self.toggle_mark(),
            Action::MarkAll => self.mark_all(),
            Action::RevealedFilter => self.cycle_revealed_filter(),
            Action::RevealEmails => self.reveal(ContactKind::Email),
            Action::RevealPhones => self.reveal(ContactKind::Phone),
            Action::Enrich => self.enrich(),
            Action::Warmup => self.warmup(),
            Action::AddToList => self.add_to_list(),
            Action::Activity => {
                self.popups.push(Popup::Activity);
                vec![
                    self.timer(TimerId::Activity, Duration::from_secs(1)),
                    self.call(Slot::Purchases, Call::Purchases),
                ]
            }
            Action::Lookup => {
                // The marked members of an opened list are filled in: Enter looks them up.
                let kind = self.tab();
                let keys: Vec<String> = if self.search(kind).list.is_some() {
                    self.results
                        .marked(kind)
                        .iter()
                        .map(|r| r.record.key())
                        .filter(|k| !k.is_empty())
                        .collect()
                } else {
                    Vec::new()
                };
                self.popups
                    .push(Popup::Lookup(LookupPopup::with_keys(kind, &keys)));
                vec![]
            }
            Action::Refresh => self.refresh(),
            _ => return None,
        })
    }

    // ---------------------------------------------------------------- marks

    fn toggle_mark(&mut self) -> Vec<Command> {
        let kind = self.tab();
        let s = self.search_mut(kind);
        let Some(key) = s
            .selected()
            .map(|r| r.record.key())
            .filter(|k| !k.is_empty())
        else {
            return self.info("Nothing to mark: select a row in the results first.");
        };
        if !s.marked.remove(&key) {
            s.marked.insert(key);
        }
        if s.sel + 1 < s.shown_len() {
            s.sel += 1;
            self.details.scroll = 0;
        }
        vec![]
    }

    /// Marks every shown row of the tab (so an action applies to a whole page, or a whole
    /// opened list); when all of them are marked already, unmarks every row.
    fn mark_all(&mut self) -> Vec<Command> {
        let kind = self.tab();
        let s = self.search_mut(kind);
        let keys: Vec<String> = s
            .rows()
            .iter()
            .map(|r| r.record.key())
            .filter(|k| !k.is_empty())
            .collect();
        if keys.is_empty() {
            return self.info("Nothing to mark: run a search or open a list first.");
        }
        if keys.iter().all(|k| s.marked.contains(k)) {
            let n = s.marked.len();
            s.marked.clear();
            return self.info(&format!("Unmarked {}.", plural(n, "row")));
        }
        let n = keys.len();
        s.marked.extend(keys);
        let total = s.marked.len();
        self.info(&format!(
            "Marked {} ({total} marked in all).",
            plural(n, "row")
        ))
    }

    /// Cycles the revealed filter of the people tab: all rows → only revealed → only not yet
    /// revealed → all.
    fn cycle_revealed_filter(&mut self) -> Vec<Command> {
        if self.tab() != Kind::People {
            let t = self.opts.keymap.first_key_of(Action::SwitchTab);
            return self.info(&format!(
                "The revealed filter is for people: switch to the people tab ({t})."
            ));
        }
        let s = self.search_mut(Kind::People);
        s.only = s.only.next();
        s.sel = 0;
        s.offset.set(0);
        let shown = s.shown_len();
        let all = s.page_rows();
        let text = match s.only.label() {
            Some(only) => format!("Showing {only}: {shown} of {all} rows on this page."),
            None => format!("Showing all {all} rows."),
        };
        self.details.scroll = 0;
        self.info(&text)
    }

    // ---------------------------------------------------------------- reveal

    fn reveal(&mut self, kind: ContactKind) -> Vec<Command> {
        if self.tab() != Kind::People {
            let t = self.opts.keymap.first_key_of(Action::SwitchTab);
            return self.info(&format!(
                "Reveals are for people: switch to the people tab ({t}) and mark or select some."
            ));
        }
        if let Some(why) = self.reveals_disabled.clone() {
            let mut text = why;
            if let Some(c) = text.get(0..1) {
                text.replace_range(0..1, &c.to_uppercase());
            }
            self.error_popup(format!("{text} (nothing was spent)"));
            return vec![];
        }
        let mut seen = BTreeSet::new();
        let ids: Vec<String> = self
            .targets(Kind::People)
            .iter()
            .map(|r| r.record.key())
            .filter(|k| !k.is_empty() && seen.insert(k.clone()))
            .collect();
        if ids.is_empty() {
            return self.info("Select or mark people first (Space marks a row).");
        }
        self.prepare(PaidAction::Reveal { kind, ids }, Freshness::Stored)
    }

    // ---------------------------------------------------------------- enrich

    fn enrich(&mut self) -> Vec<Command> {
        let kind = self.tab();
        let Some(row) = self.search(kind).selected() else {
            return self.info("Select a company or a person to enrich first.");
        };
        let action = match &row.record {
            Record::Company { company, .. } => {
                if company.domain.trim().is_empty() {
                    return self.info("This company has no domain to enrich by.");
                }
                PaidAction::EnrichCompany {
                    domain: company.domain.trim().to_string(),
                }
            }
            Record::Person { person, .. } => {
                let some =
                    |s: &Option<String>| s.as_ref().filter(|s| !s.trim().is_empty()).cloned();
                let id = (!person.id.trim().is_empty()).then(|| person.id.trim().to_string());
                let domain = (!person.domain.trim().is_empty()).then(|| person.domain.clone());
                let name = some(&person.name).filter(|_| domain.is_some());
                let linkedin = some(&person.linkedin_url);
                let email = person.email.as_ref().and_then(|e| some(&e.address));
                let m = if id.is_some() {
                    PersonMatch {
                        id: id.clone(),
                        ..PersonMatch::default()
                    }
                } else if name.is_some() {
                    PersonMatch {
                        name,
                        ..PersonMatch::default()
                    }
                } else if linkedin.is_some() {
                    PersonMatch {
                        linkedin,
                        ..PersonMatch::default()
                    }
                } else if email.is_some() {
                    PersonMatch {
                        email,
                        ..PersonMatch::default()
                    }
                } else {
                    return self.info(
                        "This person has no id, name and domain, profile URL or email to enrich by.",
                    );
                };
                let company = (m.name.is_some()).then(|| CompanyMatch {
                    domain: domain.clone(),
                    ..CompanyMatch::default()
                });
                PaidAction::EnrichPerson {
                    request: Box::new(EnrichPersonRequest {
                        person: m,
                        company,
                        ..EnrichPersonRequest::default()
                    }),
                    key: id.unwrap_or_default(),
                    label: sanitize(person.name.as_deref().unwrap_or("person")),
                }
            }
        };
        self.prepare(action, Freshness::Stored)
    }

    // ---------------------------------------------------------------- warmup

    fn warmup(&mut self) -> Vec<Command> {
        let mut seen = BTreeSet::new();
        let domains: Vec<String> = self
            .targets(self.tab())
            .iter()
            .filter_map(|r| r.record.domain())
            .map(|d| d.to_string())
            .filter(|d| seen.insert(normalize_domain(d)))
            .collect();
        if domains.is_empty() {
            return self.info("Select or mark rows with a domain to warm up first.");
        }
        let id = self.activity.next_id();
        let label = format!("warm up {}", plural(domains.len(), "domain"));
        self.activity.jobs.push(Job {
            id,
            label: label.clone(),
            action: None,
            fresh: Freshness::Stored,
            state: JobState::Sent,
            estimate: Cost::ZERO,
            charged: Cost::ZERO,
            sent_at: self.now,
            waiting: BTreeSet::new(),
            sent_ids: 0,
            attempts: 1,
            note: String::new(),
        });
        self.set_status(
            &format!("Warming up {} (free)…", plural(domains.len(), "domain")),
            StatusKind::Progress,
        );
        vec![self.call(Slot::Job(id), Call::Warmup(domains))]
    }

    // ---------------------------------------------------------------- refresh

    fn refresh(&mut self) -> Vec<Command> {
        if let Some(kind) = self.last_stored_search.take()
            && let Some(request) = self.search(kind).request.clone()
        {
            return self.refresh_search(request);
        }
        match self.last_stored.take() {
            Some(action) => self.prepare(action, Freshness::Refresh),
            None => self.info("Nothing to refresh: the store answered nothing just now."),
        }
    }

    // ---------------------------------------------------------------- lookup

    pub(super) fn lookup_key(&mut self, k: KeyEvent) -> Vec<Command> {
        let text = self.opts.keymap.text_action(&k);
        let Some(Popup::Lookup(l)) = self.popups.last_mut() else {
            return vec![];
        };
        match l.handle(k, text) {
            LookupEffect::Nothing => vec![],
            LookupEffect::Cancelled => {
                self.popups.pop();
                vec![]
            }
            LookupEffect::Invalid(why) => {
                self.set_status(&why, StatusKind::Error);
                vec![]
            }
            LookupEffect::Run {
                subject,
                keys,
                file,
            } => {
                self.popups.pop();
                self.prepare(
                    PaidAction::Lookup {
                        subject,
                        keys,
                        file,
                    },
                    Freshness::Stored,
                )
            }
        }
    }

    // ---------------------------------------------------------------- activity

    pub(super) fn activity_key(&mut self, action: Action) -> Vec<Command> {
        if self.activity.handle(action) == ActivityEffect::Close {
            self.popups.pop();
        }
        vec![]
    }

    pub(super) fn activity_tick(&mut self) -> Vec<Command> {
        if self.popups.iter().any(|p| matches!(p, Popup::Activity)) {
            self.dirty = true;
            vec![self.timer(TimerId::Activity, Duration::from_secs(1))]
        } else {
            vec![]
        }
    }

    // ---------------------------------------------------------------- spending

    /// Checks `action` against the store and estimates it (free; off the UI loop).
    fn prepare(&mut self, action: PaidAction, fresh: Freshness) -> Vec<Command> {
        self.set_status(
            &format!(
                "{}: checking the store and the cost…",
                capitalize(&action.describe())
            ),
            StatusKind::Progress,
        );
        vec![self.call(Slot::Prepare, Call::Prepare { action, fresh })]
    }

    pub(super) fn confirm_action_key(
        &mut self,
        action: Option<Action>,
        k: KeyEvent,
    ) -> Vec<Command> {
        match spend_gate::answer(action, &k) {
            Answer::Yes => {
                if let Some(Popup::ConfirmAction(p)) = self.popups.pop() {
                    return self.start_job(*p);
                }
                vec![]
            }
            Answer::No => {
                self.popups.pop();
                self.info("Cancelled; nothing was spent.")
            }
            Answer::Undecided => vec![],
        }
    }

    /// A paid action checked and estimated: what the store holds is shown at once (0
    /// credits); the rest is confirmed above the threshold, else sent.
    fn on_prepared(&mut self, p: Prepared) -> Vec<Command> {
        if let PaidAction::Reveal { kind, .. } = &p.action {
            let kind = *kind;
            self.fill_contacts(kind, &p.stored_contacts);
            if p.estimate.to_send == 0 {
                let age = p
                    .stored_at
                    .map(|t| ago(self.now - t))
                    .unwrap_or_else(|| "earlier".into());
                let id = self.activity.next_id();
                self.activity.jobs.push(Job {
                    id,
                    label: p.action.describe(),
                    action: Some(p.action.clone()),
                    fresh: p.fresh,
                    state: JobState::FromStore,
                    estimate: Cost::ZERO,
                    charged: Cost::ZERO,
                    sent_at: self.now,
                    waiting: BTreeSet::new(),
                    sent_ids: 0,
                    attempts: 0,
                    note: format!("revealed {age}"),
                });
                let refresh = self.opts.keymap.first_key_of(Action::Refresh);
                let n = p.stored_contacts.len();
                self.last_stored = Some(p.action);
                return self.info(&format!(
                    "{} from the store, revealed {age} · 0 credits · {refresh} to refresh",
                    plural(n, kind_word(kind))
                ));
            }
        }
        if !pools_above(&p.estimate.cost, self.opts.confirm_above).is_empty() {
            self.set_status(
                &format!(
                    "{} may cost ≤ {}: confirm first",
                    capitalize(&p.action.describe()),
                    describe_pools(&p.estimate.cost)
                ),
                StatusKind::Progress,
            );
            self.popups.push(Popup::ConfirmAction(Box::new(p)));
            return vec![];
        }
        self.start_job(p)
    }

    /// Sends a checked action as a job (never aborted once sent) and lists it.
    fn start_job(&mut self, p: Prepared) -> Vec<Command> {
        let id = self.activity.next_id();
        let label = p.action.describe();
        let cost = if p.estimate.cost.is_zero() {
            "0 credits".to_string()
        } else {
            format!("≤ {}", describe_pools(&p.estimate.cost))
        };
        let stored = if p.estimate.from_store > 0 {
            format!(" ({} from the store at 0)", p.estimate.from_store)
        } else {
            String::new()
        };
        self.activity.jobs.push(Job {
            id,
            label: label.clone(),
            action: Some(p.action.clone()),
            fresh: p.fresh,
            state: JobState::Sent,
            estimate: p.estimate.cost,
            charged: Cost::ZERO,
            sent_at: self.now,
            waiting: BTreeSet::new(),
            sent_ids: 0,
            attempts: 1,
            note: String::new(),
        });
        self.set_status(
            &format!("{} · {cost}{stored}…", capitalize(&label)),
            StatusKind::Progress,
        );
        vec![self.call(
            Slot::Job(id),
            Call::Run {
                action: p.action,
                fresh: p.fresh,
            },
        )]
    }

    /// An answer in [`Slot::Prepare`] or a job's slot.
    pub(super) fn on_job_done(
        &mut self,
        slot: Slot,
        result: Result<Outcome, ApiFailure>,
    ) -> Vec<Command> {
        match (slot, result) {
            (Slot::Prepare, Ok(Outcome::Prepared(p))) => self.on_prepared(*p),
            (Slot::Prepare, Ok(Outcome::PagePlanned(plan))) => self.on_page_planned(*plan),
            (Slot::Prepare, Err(e)) => {
                self.error_popup(format!("Not sent (nothing spent): {}", e.message));
                vec![]
            }
            (Slot::Job(id), Ok(Outcome::Ran(r))) => self.on_ran(id, r),
            (Slot::Job(id), Ok(Outcome::Warmed(w))) => {
                let text = format!(
                    "Warmup: {} known, {} being crawled, {} ignored · free",
                    w.successful_domains.len(),
                    w.triggered_domains.len(),
                    w.ignored_domains.len()
                );
                if let Some(j) = self.activity.job_mut(id) {
                    j.state = JobState::Arrived;
                    j.note = format!(
                        "{} known, {} crawling",
                        w.successful_domains.len(),
                        w.triggered_domains.len()
                    );
                }
                self.info(&text)
            }
            (Slot::Job(id), Err(e)) => {
                let label = match self.activity.job_mut(id) {
                    Some(j) => {
                        j.state = JobState::Failed(e.message.clone());
                        j.label.clone()
                    }
                    None => "the job".into(),
                };
                self.set_status(
                    &format!("{} failed: {}", capitalize(&label), e.message),
                    StatusKind::Error,
                );
                vec![]
            }
            (slot, other) => {
                tracing::warn!(?slot, ok = other.is_ok(), "unexpected answer");
                vec![]
            }
        }
    }

    fn on_ran(&mut self, id: u64, r: Ran) -> Vec<Command> {
        let stored_note = r
            .store_error
            .as_ref()
            .map(|e| format!(" · NOT stored: {e}"))
            .unwrap_or_default();
        let refresh = self.opts.keymap.first_key_of(Action::Refresh);
        let from_store = r
            .stored_at
            .filter(|_| r.charge.cost.is_zero() && r.charge.requests == 0);
        let age = r.stored_at.map(|t| ago(self.now - t));
        let action = self.activity.job_mut(id).and_then(|j| j.action.clone());
        match r.answer {
            RanAnswer::Reveal {
                kind,
                from_store,
                sent,
            } => {
                self.fill_contacts(kind, &from_store);
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
                    "Reveal of {} sent (≤ {}); they arrive by webhook{stored}{stored_note}",
                    plural(sent.len(), kind_word(kind)),
                    describe_pools(&estimate)
                ));
                if overdue_check {
                    cmds.push(self.timer(TimerId::RevealDeadline(id), REVEAL_PATIENCE));
                }
                cmds
            }
            RanAnswer::Company {
                domain,
                company,
                detail,
            } => match company {
                Some(c) => {
                    let key = normalize_domain(&domain);
                    let n = self.update_rows(Kind::Companies, |rec| match rec {
                        Record::Company { company, .. }
                            if normalize_domain(&company.domain) == key
                                || company.domain.is_empty() && key.is_empty() =>
                        {
                            *company = (*c).clone();
                            true
                        }
                        _ => false,
                    });
                    self.job_arrived(id, r.charge.cost, from_store.is_some());
                    let shown = if n == 0 { " (not in the table)" } else { "" };
                    match (from_store, age) {
                        (Some(_), Some(age)) => {
                            self.last_stored = action;
                            self.info(&format!(
                                "{} from the store, {} {age} · 0 credits · {refresh} to refresh{shown}",
                                sanitize(&domain),
                                r.provenance.unwrap_or("bought")
                            ))
                        }
                        _ => self.info(&format!(
                            "Enriched {} · {}{shown}{stored_note}",
                            sanitize(&domain),
                            describe_pools(&r.charge.cost)
                        )),
                    }
                }
                None => self.gathering(id, &domain, &detail),
            },
            RanAnswer::Person {
                key,
                person,
                detail,
            } => match person {
                Some(p) => {
                    let p = *p;
                    let label = sanitize(p.name.as_deref().unwrap_or("the person"));
                    let n = if key.is_empty() {
                        0
                    } else {
                        self.update_rows(Kind::People, |rec| match rec {
                            Record::Person { person, .. } if person.id == key => {
                                *person = p.clone();
                                true
                            }
                            _ => false,
                        })
                    };
                    self.job_arrived(id, r.charge.cost, from_store.is_some());
                    let shown = if n == 0 { " (not in the table)" } else { "" };
                    match (from_store, age) {
                        (Some(_), Some(age)) => {
                            self.last_stored = action;
                            self.info(&format!(
                                "{label} from the store, {} {age} · 0 credits · {refresh} to refresh{shown}",
                                r.provenance.unwrap_or("bought")
                            ))
                        }
                        _ => self.info(&format!(
                            "Enriched {label} · {}{shown}{stored_note}",
                            describe_pools(&r.charge.cost)
                        )),
                    }
                }
                None => self.gathering(id, &key, &detail),
            },
            RanAnswer::Lookup {
                subject,
                rows,
                not_found,
                from_store: stored,
                sent,
            } => {
                let n = rows.len();
                self.bump(Slot::Search(subject));
                *self.search_mut(subject) = SearchState {
                    pages: vec![Page {
                        rows,
                        next: None,
                        stored: false,
                    }],
                    total: Some(n as u64),
                    ..SearchState::default()
                };
                self.form.show_kind(subject);
                self.focus = Pane::Results;
                self.details.scroll = 0;
                self.job_arrived(id, r.charge.cost, sent == 0);
                if let Some(j) = self.activity.job_mut(id) {
                    j.note = format!("{} found, {not_found} not found", n - not_found);
                }
                if sent == 0 {
                    self.last_stored = action;
                }
                let store = if stored > 0 {
                    format!(
                        " · {stored} from the store{}",
                        age.map(|a| format!(" ({a})")).unwrap_or_default()
                    )
                } else {
                    String::new()
                };
                self.info(&format!(
                    "Lookup: {} found, {not_found} not found{store} · {}{stored_note}",
                    n - not_found,
                    if r.charge.cost.is_zero() {
                        "0 credits".to_string()
                    } else {
                        describe_pools(&r.charge.cost)
                    }
                ))
            }
        }
    }

    fn job_arrived(&mut self, id: u64, charged: Cost, from_store: bool) {
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
    fn gathering(&mut self, id: u64, what: &str, detail: &str) -> Vec<Command> {
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
        let a = self.opts.keymap.first_key_of(Action::Activity);
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

    /// The reveal job `id` waited [`REVEAL_PATIENCE`]: if deliveries are still missing it is
    /// marked failed, saying how many did not arrive (what comes later is still stored and
    /// shown; nothing is sent again, since the reveal may have been charged).
    pub(super) fn reveal_overdue(&mut self, id: u64) -> Vec<Command> {
        let Some(j) = self.activity.job_mut(id) else {
            return vec![];
        };
        if j.state != JobState::Pending || j.waiting.is_empty() {
            return vec![];
        }
        let why = format!(
            "no webhook for {} of {} after {} min; a later delivery is still stored",
            j.waiting.len(),
            j.sent_ids,
            REVEAL_PATIENCE.as_secs() / 60
        );
        j.state = JobState::Failed(why.clone());
        j.note.clear();
        self.set_status(&format!("Reveal #{id}: {why}"), StatusKind::Error);
        vec![]
    }

    pub(super) fn retry_job(&mut self, id: u64) -> Vec<Command> {
        let Some(j) = self.activity.job_mut(id) else {
            return vec![];
        };
        if j.state != JobState::Pending {
            return vec![];
        }
        let Some(action) = j.action.clone() else {
            return vec![];
        };
        j.attempts += 1;
        let fresh = j.fresh;
        self.dirty = true;
        vec![self.call(Slot::Job(id), Call::Run { action, fresh })]
    }

    // ---------------------------------------------------------------- rows

    /// Applies `f` to every record of the tab of `kind` (all pages) and rebuilds the cells of
    /// those it changed; returns how many changed.
    fn update_rows(&mut self, kind: Kind, mut f: impl FnMut(&mut Record) -> bool) -> usize {
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
        }
        n
    }

    fn update_people(&mut self, updates: HashMap<String, ContactUpdate>) -> usize {
        if updates.is_empty() {
            return 0;
        }
        self.update_rows(Kind::People, |rec| {
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

    fn fill_contacts(&mut self, kind: ContactKind, contacts: &HashMap<String, Contact>) {
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
    fn has_final_contact(&self, kind: ContactKind, id: &str) -> bool {
        self.search(Kind::People)
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

    // ---------------------------------------------------------------- webhooks

    /// A webhook delivery (stored by the receiver before its 200): its results fill the rows
    /// and the details, its charge goes into the gauge (once: a retried delivery changes
    /// nothing), the reveal jobs it completes are marked arrived.
    pub(super) fn on_delivery(&mut self, d: Delivery) -> Vec<Command> {
        self.dirty = true;
        let mut updates: HashMap<String, ContactUpdate> = HashMap::new();
        let mut people: Vec<Person> = Vec::new();
        let mut companies = Vec::new();
        let (results, credits, kind) = match &d.body {
            WebhookBody::RevealEmails(w) => {
                for e in &w.emails {
                    updates.insert(
                        e.person_id.trim().to_string(),
                        ContactUpdate::Email(Email {
                            address: e.address.as_deref().map(sanitize),
                            status: e.status.clone(),
                        }),
                    );
                }
                (
                    w.emails.len(),
                    Cost::in_pool(CreditPool::Email, w.credits_used),
                    Some(ContactKind::Email),
                )
            }
            WebhookBody::RevealPhones(w) => {
                for p in &w.phones {
                    updates.insert(
                        p.person_id.trim().to_string(),
                        ContactUpdate::Phone(Phone {
                            numbers: p.numbers.iter().map(|n| sanitize(n)).collect(),
                            status: p.status.clone(),
                        }),
                    );
                }
                (
                    w.phones.len(),
                    Cost::in_pool(CreditPool::Phone, w.credits_used),
                    Some(ContactKind::Phone),
                )
            }
            WebhookBody::PeopleSearchEmails(w) => {
                for p in &w.people {
                    if let Some(e) = &p.email {
                        updates.insert(p.id.trim().to_string(), ContactUpdate::Email(e.clone()));
                    }
                }
                (w.people.len(), Cost::ZERO, Some(ContactKind::Email))
            }
            WebhookBody::PeopleSearchPhones(w) => {
                for p in &w.people {
                    if let Some(ph) = &p.phone {
                        updates.insert(p.id.trim().to_string(), ContactUpdate::Phone(ph.clone()));
                    }
                }
                (w.people.len(), Cost::ZERO, Some(ContactKind::Phone))
            }
            WebhookBody::EnrichPersonEmail(p) => {
                if let Some(e) = &p.email {
                    updates.insert(p.id.trim().to_string(), ContactUpdate::Email(e.clone()));
                }
                (1, Cost::ZERO, Some(ContactKind::Email))
            }
            WebhookBody::EnrichPersonPhone(p) => {
                if let Some(ph) = &p.phone {
                    updates.insert(p.id.trim().to_string(), ContactUpdate::Phone(ph.clone()));
                }
                (1, Cost::ZERO, Some(ContactKind::Phone))
            }
            WebhookBody::EnrichCompanies(w) => {
                companies.extend(w.companies.iter().filter_map(|c| c.company.clone()));
                (
                    w.companies.len(),
                    Cost::in_pool(CreditPool::Standard, w.credits_used),
                    None,
                )
            }
            WebhookBody::EnrichPeople(w) => {
                people.extend(w.people.iter().filter_map(|p| p.person.clone()));
                (
                    w.people.len(),
                    Cost::in_pool(CreditPool::Standard, w.credits_used),
                    None,
                )
            }
        };
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
            self.update_rows(Kind::People, |rec| match rec {
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
            self.update_rows(Kind::Companies, |rec| match rec {
                Record::Company { company, .. } if normalize_domain(&company.domain) == key => {
                    *company = c.clone();
                    true
                }
                _ => false,
            });
        }
        // The jobs it completes.
        if let Some(kind) = kind {
            let mut credited = false;
            for j in &mut self.activity.jobs {
                let reveals_kind =
                    matches!(&j.action, Some(PaidAction::Reveal { kind: k, .. }) if *k == kind);
                if !reveals_kind || j.state != JobState::Pending {
                    continue;
                }
                let before = j.waiting.len();
                j.waiting.retain(|i| !ids.contains(i));
                if j.waiting.len() != before {
                    if !credited && d.new {
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
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
