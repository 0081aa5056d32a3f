//! Reveals of emails and phones (SPEC.md §4.7, §6; NOTES.md "Credit costs"): by person ids
//! (`/v2/reveal/emails`, `/v2/reveal/phones`) and as options of enrich person and the people
//! searches (`revealEmails`, `revealPhones`).
//!
//! Records returned by searches, lookups and enrich person carry no email or phone unless
//! revealed: with a `webhookUrl` the reveal result is POSTed later (events
//! `reveal_emails`, `reveal_phones`, `enrich_person_email`, `enrich_person_phone`,
//! `people_search_emails`, `people_search_phones`); without one the reveal is made inline in
//! the answer and charged with it.
//!
//! Charging: one email (phone) credit per *verified* email (phone) found; `guessed` and
//! `catchAll` addresses are delivered free; `notFound` gives no address. A webhook reveal
//! reserves one credit per id when accepted (402 when it cannot: see
//! [`super::accounts::Ledger::reserve`]) and is charged when its verification is done; if
//! fewer credits could be reserved than ids were asked, the verified results beyond the
//! reservation are answered `notFound` (nothing revealed, nothing charged).

use std::sync::Arc;

use serde_json::{Value, json};

use super::accounts::{Account, Milli, Pool, from_milli, to_milli};
use super::engine_calls;
use super::error::Failure;
use super::state::AppState;
use crate::dataset::load::Db;
use prospect_api::cost::DEFAULT_PRICES;
use prospect_api::types::{Email, EmailStatus, Person, Phone, PhoneStatus, WebhookEvent};

/// Email or phone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Channel {
    /// Emails (email pool).
    Email,
    /// Phones (phone pool).
    Phone,
}

impl Channel {
    /// The pool charged.
    pub fn pool(self) -> Pool {
        match self {
            Channel::Email => Pool::Email,
            Channel::Phone => Pool::Phone,
        }
    }
    /// Price of one verified result, in thousandths of a credit.
    pub fn unit_price(self) -> Milli {
        to_milli(match self {
            Channel::Email => DEFAULT_PRICES.email_reveal,
            Channel::Phone => DEFAULT_PRICES.phone_reveal,
        })
    }
    /// Member name in person records and webhook bodies.
    pub fn member(self) -> &'static str {
        match self {
            Channel::Email => "email",
            Channel::Phone => "phone",
        }
    }
}

/// What verification found for one person on one channel: the `email` or `phone` object of
/// SPEC.md §2.2.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Contact {
    /// The `email` object.
    Email(Email),
    /// The `phone` object.
    Phone(Phone),
}

impl Contact {
    /// Puts this object into the person record (`email` or `phone`).
    pub fn apply(self, p: &mut Person) {
        match self {
            Contact::Email(e) => p.email = Some(e),
            Contact::Phone(ph) => p.phone = Some(ph),
        }
    }

    /// The object as webhook bodies carry it (`numbers: null` when a phone has none).
    pub fn to_value(&self) -> Value {
        match self {
            Contact::Email(e) => json!({ "address": e.address, "status": e.status }),
            Contact::Phone(p) if p.numbers.is_empty() => {
                json!({ "numbers": null, "status": p.status })
            }
            Contact::Phone(p) => json!({ "numbers": p.numbers, "status": p.status }),
        }
    }
}

/// What verification finds for `person_id` on `channel`, and whether it is chargeable
/// (verified).
pub(crate) fn verify(db: &Db, channel: Channel, person_id: &str) -> (Contact, bool) {
    let contact = engine_calls::person_contact(db, person_id);
    match (channel, contact) {
        (Channel::Email, Some(c))
            if c.email.is_some() && c.email_status != EmailStatus::NotFound =>
        {
            let verified = c.email_status == EmailStatus::Verified;
            (
                Contact::Email(Email {
                    address: c.email,
                    status: c.email_status,
                }),
                verified,
            )
        }
        (Channel::Phone, Some(c))
            if !c.phones.is_empty() && c.phone_status == PhoneStatus::Verified =>
        {
            (
                Contact::Phone(Phone {
                    numbers: c.phones,
                    status: c.phone_status,
                }),
                true,
            )
        }
        _ => (not_found(channel), false),
    }
}

/// The "nothing revealed" object of a channel.
pub(crate) fn not_found(channel: Channel) -> Contact {
    match channel {
        Channel::Email => Contact::Email(Email {
            address: None,
            status: EmailStatus::NotFound,
        }),
        Channel::Phone => Contact::Phone(Phone {
            numbers: Vec::new(),
            status: PhoneStatus::NotFound,
        }),
    }
}

/// Reserves credits for a webhook reveal of `n` results (nothing when `n == 0`).
pub(crate) fn reserve(account: &Account, channel: Channel, n: usize) -> Result<Milli, Failure> {
    if n == 0 {
        return Ok(0);
    }
    account
        .ledger()
        .reserve(channel.pool(), n)
        .map_err(Failure::payment)
}

/// Gives a reservation back unused (the request failed after reserving).
pub(crate) fn release(account: &Account, channel: Channel, reserved: Milli) {
    if reserved > 0 {
        account.ledger().settle(channel.pool(), reserved, 0);
    }
}

/// Reveals `ids` at verification time, charging at most `reserved`: the per-id objects and the
/// thousandths charged.
fn reveal_now(
    db: &Db,
    account: &Account,
    channel: Channel,
    ids: &[String],
    reserved: Milli,
) -> (Vec<Contact>, Milli) {
    let price = channel.unit_price();
    let mut budget = reserved;
    let mut due: Milli = 0;
    let out = ids
        .iter()
        .map(|id| {
            let (obj, chargeable) = verify(db, channel, id);
            if !chargeable {
                return obj;
            }
            if budget >= price {
                budget -= price;
                due += price;
                obj
            } else {
                not_found(channel)
            }
        })
        .collect();
    let charged = account.ledger().settle(channel.pool(), reserved, due);
    (out, charged)
}

/// The database snapshot a webhook job verifies against (waiting while the dataset loads);
/// `None` when it failed to load: the reservation is given back and nothing is delivered.
async fn loaded(
    state: &AppState,
    account: &Account,
    channel: Channel,
    reserved: Milli,
) -> Option<Arc<Db>> {
    match state.db().await {
        Ok(db) => Some(db),
        Err(_) => {
            release(account, channel, reserved);
            None
        }
    }
}

/// Queues the `reveal_emails` / `reveal_phones` webhook of `/v2/reveal/*` (body: openapi
/// `PublicRevealEmailWebhookResult` / `PublicRevealPhoneWebhookResult`).
pub(crate) fn queue_reveal_ids(
    state: &Arc<AppState>,
    account: Arc<Account>,
    channel: Channel,
    ids: Vec<String>,
    url: String,
    reserved: Milli,
) {
    let st = state.clone();
    let event = match channel {
        Channel::Email => WebhookEvent::RevealEmails,
        Channel::Phone => WebhookEvent::RevealPhones,
    };
    state.webhooks.enqueue(
        event.name(),
        url,
        Box::pin(async move {
            let db = loaded(&st, &account, channel, reserved).await?;
            let (objs, charged) = reveal_now(&db, &account, channel, &ids, reserved);
            let items: Vec<Value> = objs
                .iter()
                .zip(&ids)
                .map(|(o, id)| {
                    let mut o = o.to_value();
                    o["personId"] = json!(id);
                    o
                })
                .collect();
            let key = match channel {
                Channel::Email => "emails",
                Channel::Phone => "phones",
            };
            Some(json!({ key: items, "creditsUsed": from_milli(charged) }))
        }),
    );
}

/// Queues the webhook of a reveal option of enrich person (`enrich_person_email` /
/// `enrich_person_phone`: the person record with its `email` / `phone`) or of a people search
/// (`people_search_emails` / `people_search_phones`: `{people, detail, total}`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn queue_people(
    state: &Arc<AppState>,
    account: Arc<Account>,
    channel: Channel,
    people: Vec<Value>,
    total: Option<i64>,
    single: bool,
    url: String,
    reserved: Milli,
) {
    let st = state.clone();
    let event = match (channel, single) {
        (Channel::Email, true) => WebhookEvent::EnrichPersonEmail,
        (Channel::Phone, true) => WebhookEvent::EnrichPersonPhone,
        (Channel::Email, false) => WebhookEvent::PeopleSearchEmails,
        (Channel::Phone, false) => WebhookEvent::PeopleSearchPhones,
    };
    state.webhooks.enqueue(
        event.name(),
        url,
        Box::pin(async move {
            let db = loaded(&st, &account, channel, reserved).await?;
            let ids: Vec<String> = people
                .iter()
                .map(|p| {
                    p.get("id")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string()
                })
                .collect();
            let (objs, _charged) = reveal_now(&db, &account, channel, &ids, reserved);
            let mut people: Vec<Value> = people
                .into_iter()
                .zip(objs)
                .map(|(mut p, o)| {
                    if let Some(m) = p.as_object_mut() {
                        m.insert(channel.member().to_string(), o.to_value());
                    }
                    p
                })
                .collect();
            Some(if single {
                people.pop().unwrap_or(Value::Null)
            } else {
                json!({ "people": people, "detail": "OK", "total": total })
            })
        }),
    );
}

/// Inline reveal (no webhook): sets `email` / `phone` of each person and returns the
/// thousandths to charge (verified results only). The caller charges them with the request.
pub(crate) fn reveal_inline(db: &Db, channel: Channel, people: &mut [&mut Person]) -> Milli {
    let mut due = 0;
    for p in people.iter_mut() {
        let (found, chargeable) = verify(db, channel, &p.id);
        if chargeable {
            due += channel.unit_price();
        }
        found.apply(p);
    }
    due
}

/// Removes what was not revealed: `email` or `phone` of every person is left out.
pub(crate) fn mask(people: &mut [&mut Person], channel: Channel) {
    for p in people.iter_mut() {
        match channel {
            Channel::Email => p.email = None,
            Channel::Phone => p.phone = None,
        }
    }
}
