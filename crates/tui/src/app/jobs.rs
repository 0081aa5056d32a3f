//! The actions on the selection (issue 8): marks, reveal (`r` / `R`), enrich (`E`), warmup
//! (`W`), lookup (`Ctrl-l`), refresh (`F`) and the activity pane (`a`); the jobs they start and
//! the webhook deliveries that complete them. A child of `app` so that it shares the state
//! owner's helpers; everything still changes only in [`App::update`].
//!
//! Every paid action goes the same way: validate, check the store and estimate per pool
//! ([`Call::Prepare`], free), answer from the store at 0 credits when it can (saying how old
//! that answer is), confirm above `confirm_above` in any one pool, then send it as a job with
//! an id ([`Call::Run`]) that is never aborted once sent.
use std::collections::BTreeSet;
use std::time::Duration;

use super::{App, Popup, StatusKind};
use crate::components::activity::{Job, JobState};
use crate::components::lookup::{LookupEffect, LookupPopup};
use crate::components::spend_gate::Answer;
use crate::fmt::capitalize;
use crate::keymap::KeyAction;
use crate::msg::{
    Action, ApiFailure, Ask, Call, Command, Outcome, Prepared, Record, ResultRow, Slot, TimerId,
};
use crate::schema::SearchSubject;
use prospect_api::cost::Cost;
use prospect_api::types::{
    CompanyMatch, Email, EmailStatus, EnrichPersonRequest, PersonMatch, Phone, PhoneStatus,
    WireEnum,
};
use prospect_common::ContactKind;
use prospect_common::keys::normalize_domain;
use prospect_common::sanitize::sanitize;
use prospect_core::owned::Contact;
use prospect_core::session::Freshness;
use prospect_core::spend::{describe_age, describe_pools, pools_above};

/// How long a pending enrich (a 201, "data gathering has started") keeps trying by itself.
pub const ENRICH_PATIENCE: Duration = Duration::from_secs(600);

/// How long a reveal job waits for its webhook deliveries before it is reported overdue
/// (SPEC.md §6: the service delivers within minutes and retries failed deliveries). A delivery
/// that comes later is still stored and still fills the rows.
pub const REVEAL_PATIENCE: Duration = Duration::from_secs(900);

/// How often the open lists popup reads its counts again ([`crate::msg::TimerId::Lists`]).
pub const LISTS_REREAD: Duration = Duration::from_secs(2);

/// The wait before the next try of a pending enrich after `attempt` tries: 1 s, 2 s, 4 s …
/// doubling, at most 60 s.
pub fn backoff(attempt: u32) -> Duration {
    let secs = 1u64 << attempt.saturating_sub(1).min(6);
    Duration::from_secs(secs.min(60))
}

/// `revealed 3 days ago`-style words from [`describe_age`].
pub(super) fn ago(age: chrono::Duration) -> String {
    let a = describe_age(age);
    match a.strip_suffix(" old") {
        Some(rest) => format!("{rest} ago"),
        None => a,
    }
}

pub(super) fn kind_word(kind: ContactKind) -> &'static str {
    match kind {
        ContactKind::Email => "email",
        ContactKind::Phone => "phone",
    }
}

pub(super) fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// The email of a stored contact, as a person record carries it.
pub(super) fn email_of(c: &Contact) -> Email {
    Email {
        address: c.email.as_deref().map(sanitize),
        status: EmailStatus::from_wire(&c.status),
    }
}

/// The phone of a stored contact, as a person record carries it.
pub(super) fn phone_of(c: &Contact) -> Phone {
    Phone {
        numbers: c.phones.iter().map(|n| sanitize(n)).collect(),
        status: PhoneStatus::from_wire(&c.status),
    }
}

impl App {
    /// The rows the actions apply to in the tab of `kind`: the marked ones (across its pages,
    /// in page order), else the selected one.
    pub fn targets(&self, kind: SearchSubject) -> Vec<&ResultRow> {
        let marked = self.results.marked(kind);
        if marked.is_empty() {
            return self.search(kind).selected().into_iter().collect();
        }
        marked
    }

    /// The actions of this module; `None` for any other action.
    pub(super) fn action_key(&mut self, action: KeyAction) -> Option<Vec<Command>> {
        Some(match action {
            KeyAction::Mark => self.toggle_mark(),
            KeyAction::MarkAll => self.mark_all(),
            KeyAction::RevealedFilter => self.cycle_revealed_filter(),
            KeyAction::NewOnly => self.toggle_new_only(),
            KeyAction::RevealEmails => self.reveal(ContactKind::Email),
            KeyAction::RevealPhones => self.reveal(ContactKind::Phone),
            KeyAction::Enrich => self.enrich(),
            KeyAction::Warmup => self.warmup(),
            KeyAction::AddToList => self.add_to_list(),
            KeyAction::Activity => {
                self.popups.push(Popup::Activity);
                vec![
                    self.timer(TimerId::Activity, Duration::from_secs(1)),
                    self.call(Slot::Purchases, Call::Purchases),
                ]
            }
            KeyAction::Lookup => {
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
            KeyAction::Refresh => self.refresh(),
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
            self.details.reset();
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
        let kind = self.tab();
        let cell = crate::records::new_cell(kind);
        let s = self.search_mut(kind);
        let new = s.pages.iter().flat_map(|p| &p.rows).any(|r| {
            r.cells
                .get(cell)
                .is_some_and(|c| c == crate::records::NEW_MARK)
        });
        if kind != SearchSubject::People && !new {
            let t = self.opts.keymap.first_key_of(KeyAction::SwitchTab);
            return self.info(&format!(
                "The revealed filter is for people: switch to the people tab ({t}). Here it \
                 shows only rows new to a saved set, once a run of one marks some."
            ));
        }
        s.only = s.only.next(kind, new);
        s.sel = 0;
        s.offset.set(0);
        let shown = s.shown_len();
        let all = s.page_rows();
        let text = match s.only.label() {
            Some(only) => format!("Showing {only}: {shown} of {all} rows on this page."),
            None => format!("Showing all {all} rows."),
        };
        self.details.reset();
        self.info(&text)
    }

    // ---------------------------------------------------------------- reveal

    fn reveal(&mut self, kind: ContactKind) -> Vec<Command> {
        if self.tab() != SearchSubject::People {
            let t = self.opts.keymap.first_key_of(KeyAction::SwitchTab);
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
            .targets(SearchSubject::People)
            .iter()
            .map(|r| r.record.key())
            .filter(|k| !k.is_empty() && seen.insert(k.clone()))
            .collect();
        if ids.is_empty() {
            return self.info("Select or mark people first (Space marks a row).");
        }
        self.prepare(Ask::reveal(kind, ids), Freshness::Stored)
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
                Ask::of(Action::EnrichCompany {
                    domain: company.domain.trim().to_string(),
                })
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
                let request = EnrichPersonRequest {
                    person: m,
                    company,
                    ..EnrichPersonRequest::default()
                };
                Ask {
                    action: Action::EnrichPerson {
                        request: serde_json::to_value(request).unwrap_or_default(),
                    },
                    row: id.unwrap_or_default(),
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

    /// What the lookup popup asked for.
    pub(super) fn on_lookup(&mut self, e: LookupEffect) -> Vec<Command> {
        match e {
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
                self.prepare(Ask::lookup(subject, keys, file), Freshness::Stored)
            }
        }
    }

    // ---------------------------------------------------------------- activity

    /// [`TimerId::Lists`]: while the lists popup is open, its counts are read again, so a
    /// suppression imported or a list filled by the CLI meanwhile shows (issue 38, item 7).
    pub(super) fn lists_tick(&mut self) -> Vec<Command> {
        if self.popups.iter().any(|p| matches!(p, Popup::Lists(_))) {
            vec![
                self.call(Slot::ListsView, Call::Lists),
                self.timer(TimerId::Lists, LISTS_REREAD),
            ]
        } else {
            vec![]
        }
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
    fn prepare(&mut self, ask: Ask, fresh: Freshness) -> Vec<Command> {
        self.set_status(
            &format!(
                "{}: checking the store and the cost…",
                capitalize(&ask.describe())
            ),
            StatusKind::Progress,
        );
        vec![self.call(Slot::Prepare, Call::Prepare { ask, fresh })]
    }

    /// The answer to the spend gate of a paid action.
    pub(super) fn on_confirm_action(&mut self, answer: Answer) -> Vec<Command> {
        match answer {
            Answer::Yes => {
                if let Some(Popup::ConfirmAction(p)) = self.popups.pop() {
                    return self.run_prepared(*p);
                }
                vec![]
            }
            Answer::No => {
                self.popups.pop();
                self.info("Cancelled; nothing was spent.")
            }
            Answer::Undecided | Answer::ToggleNewOnly => vec![],
        }
    }

    /// A paid action planned: confirmed above the threshold, else run (what the store owns is
    /// answered at 0 credits by the run).
    fn on_prepared(&mut self, p: Prepared) -> Vec<Command> {
        if !pools_above(&p.estimate.cost, self.opts.confirm_above).is_empty() {
            self.set_status(
                &format!(
                    "{} may cost ≤ {}: confirm first",
                    capitalize(&p.ask.describe()),
                    describe_pools(&p.estimate.cost)
                ),
                StatusKind::Progress,
            );
            self.popups.push(Popup::ConfirmAction(Box::new(p)));
            return vec![];
        }
        self.run_prepared(p)
    }

    /// Sends a checked action as a job (never aborted once sent) and lists it.
    fn run_prepared(&mut self, p: Prepared) -> Vec<Command> {
        let id = self.activity.next_id();
        let label = p.ask.describe();
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
            action: Some(p.ask.clone()),
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
                ask: p.ask,
                plan: p.plan.map(Box::new),
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
        let Some(ask) = j.action.clone() else {
            return vec![];
        };
        j.attempts += 1;
        let fresh = j.fresh;
        self.dirty = true;
        let plan = None;
        vec![self.call(Slot::Job(id), Call::Run { ask, plan, fresh })]
    }

    // ---------------------------------------------------------------- rows

    // ---------------------------------------------------------------- webhooks
}
