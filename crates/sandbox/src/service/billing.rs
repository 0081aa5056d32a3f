//! What the sandbox charges for an answer (NOTES.md "Credit costs", SPEC.md §8), apart from the
//! handlers: the standard price of an endpoint's results (the client's price table,
//! `api::cost::DEFAULT_PRICES`, in thousandths of a credit), the standard charge of an answer,
//! and the people answers with their reveal options (inline reveals charged with the request,
//! webhook reveals reserved and queued). A 402 charges nothing and keeps no reservation.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::accounts::{Account, Milli, Pool, from_milli, to_milli};
use super::error::{Failure, texts};
use super::reveal::{self, Channel};
use super::state::AppState;
use super::validation;
use crate::dataset::load::Db;
use prospect_api::client::Endpoint;
use prospect_api::cost::{DEFAULT_PRICES, Quantities};
use prospect_api::types::{
    LookalikePerson, Person, Phone, PhoneStatus, RevealEmails, RevealPhones,
};

/// Standard price (thousandths of a credit) of `results` results of `endpoint`; `lookalike`
/// for a v2 people search with `lookalikeDomains` (3 credits per person instead of 1).
pub(crate) fn standard_price(endpoint: Endpoint, results: usize, lookalike: bool) -> Milli {
    let q = Quantities {
        results: results as u64,
        lookalike_domains: lookalike,
        emails: 0,
        phones: 0,
    };
    to_milli(DEFAULT_PRICES.charge_for(endpoint, &q).standard)
}

/// Charges `results` results of `endpoint` to the standard pool of `account` (402 `Insufficient
/// credits` when it runs short, nothing charged). Returns the credits charged, the answer's
/// `creditsUsed`.
pub(crate) fn charge_results(
    account: &Account,
    endpoint: Endpoint,
    results: usize,
) -> Result<f64, Failure> {
    let price = standard_price(endpoint, results, false);
    account.charge(texts::INSUFFICIENT_CREDITS, &[(Pool::Standard, price)])?;
    Ok(from_milli(price))
}

/// Charges as many of `found` results of `endpoint` as the account's standard pool still pays
/// for (a batch delivery is charged for the items it carries): how many were paid for, and
/// the credits charged (the delivery's `creditsUsed`).
pub(crate) fn charge_what_fits(
    account: &Account,
    endpoint: Endpoint,
    found: usize,
) -> (usize, f64) {
    let unit = standard_price(endpoint, 1, false);
    let mut ledger = account.ledger();
    let free = (ledger.total(Pool::Standard) - ledger.pending(Pool::Standard)).max(0);
    let paid = match unit > 0 {
        true => found.min(usize::try_from(free / unit).unwrap_or(0)),
        false => found,
    };
    let price = standard_price(endpoint, paid, false);
    match ledger.charge_all(&[(Pool::Standard, price)]) {
        Ok(()) => (paid, from_milli(price)),
        Err(_) => (0, 0.0),
    }
}

/// The reveal options of a request: per channel, absent (not asked), inline (`Some(None)`) or by
/// webhook to the URL (`Some(Some(url))`).
pub(crate) struct RevealOpts {
    emails: Option<Option<String>>,
    phones: Option<Option<String>>,
}

impl RevealOpts {
    /// `true` when the request asks for no email and no phone.
    pub(crate) fn reveals_nothing(&self) -> bool {
        self.emails.is_none() && self.phones.is_none()
    }
}

/// Reads the reveal options of a request. Errors: 422 for a webhook URL that is not an
/// absolute http(s) URL ([`validation::check_webhook_url`]).
pub(crate) fn reveal_opts(
    emails: Option<&RevealEmails>,
    phones: Option<&RevealPhones>,
) -> Result<RevealOpts, Failure> {
    let emails = emails
        .filter(|r| r.include_emails)
        .map(|r| r.webhook_url.clone());
    let phones = phones
        .filter(|r| r.include_phones)
        .map(|r| r.webhook_url.clone());
    if let Some(Some(u)) = &emails {
        validation::check_webhook_url(u, &["revealEmails", "webhookUrl"])?;
    }
    if let Some(Some(u)) = &phones {
        validation::check_webhook_url(u, &["revealPhones", "webhookUrl"])?;
    }
    Ok(RevealOpts { emails, phones })
}

/// An element of a people answer: a person record, alone or with more members.
pub(crate) trait PersonRecord: Serialize {
    /// The person record.
    fn person_mut(&mut self) -> &mut Person;
}

impl PersonRecord for Person {
    fn person_mut(&mut self) -> &mut Person {
        self
    }
}

impl PersonRecord for LookalikePerson {
    fn person_mut(&mut self) -> &mut Person {
        &mut self.person
    }
}

/// The people of an answer as webhook bodies carry them: without `email` and `phone`.
fn unrevealed<T: PersonRecord>(people: &[T]) -> Vec<Value> {
    people
        .iter()
        .map(|p| {
            let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
            if let Some(m) = v.as_object_mut() {
                m.remove("email");
                m.remove("phone");
            }
            v
        })
        .collect()
}

/// Applies the reveal options to the people of an answer and charges everything at once:
/// `standard` plus the inline reveals; webhook reveals reserve their pool and are queued
/// (`total` goes into the people-search webhook bodies; `single` for enrich person, whose
/// webhook body is the person and whose phone shows `in progress`). On a 402 nothing is
/// charged and no reservation is kept. Returns the standard credits charged, the answer's
/// `creditsUsed`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn settle_people<T: PersonRecord>(
    st: &Arc<AppState>,
    db: &Db,
    account: &Arc<Account>,
    standard_text: &'static str,
    standard: Milli,
    people: &mut [T],
    opts: &RevealOpts,
    total: Option<i64>,
    single: bool,
) -> Result<f64, Failure> {
    let mut charges = vec![(Pool::Standard, standard)];
    let mut queued: Vec<(Channel, String, Milli)> = Vec::new();
    // The bodies of webhook reveals, taken before the answer's people are masked; only a
    // reveal by webhook needs them.
    let by_webhook = [&opts.emails, &opts.phones]
        .iter()
        .any(|o| matches!(o, Some(Some(_))));
    let originals = if by_webhook {
        unrevealed(people)
    } else {
        Vec::new()
    };
    let mut persons: Vec<&mut Person> = people.iter_mut().map(PersonRecord::person_mut).collect();
    for (channel, opt) in [
        (Channel::Email, &opts.emails),
        (Channel::Phone, &opts.phones),
    ] {
        match opt {
            None => reveal::mask(&mut persons, channel),
            Some(None) => {
                let due = reveal::reveal_inline(db, channel, &mut persons);
                charges.push((channel.pool(), due));
            }
            Some(Some(url)) => {
                match reveal::reserve(account, channel, persons.len()) {
                    Ok(r) => queued.push((channel, url.clone(), r)),
                    Err(e) => {
                        for (c, _, r) in &queued {
                            reveal::release(account, *c, *r);
                        }
                        return Err(e);
                    }
                }
                reveal::mask(&mut persons, channel);
                if single && channel == Channel::Phone {
                    for p in persons.iter_mut() {
                        p.phone = Some(Phone {
                            numbers: Vec::new(),
                            status: PhoneStatus::InProgress,
                        });
                    }
                }
            }
        }
    }
    if let Err(e) = account.charge(standard_text, &charges) {
        for (c, _, r) in &queued {
            reveal::release(account, *c, *r);
        }
        return Err(e);
    }
    for (channel, url, reserved) in &queued {
        reveal::queue_people(
            st,
            account.clone(),
            *channel,
            originals.clone(),
            total,
            single,
            url.clone(),
            *reserved,
        );
    }
    Ok(from_milli(
        charges
            .iter()
            .filter(|(p, _)| *p == Pool::Standard)
            .map(|(_, m)| m)
            .sum(),
    ))
}
