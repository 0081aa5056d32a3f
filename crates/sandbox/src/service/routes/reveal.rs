//! 15-16. Reveal by ids (SPEC.md §4.7, §4.10, §6): acknowledged at once; the webhook follows;
//! one email (phone) credit per verified email (phone), reserved when accepted.

use super::call::{Answer, Call, St, ok_typed};
use crate::service::reveal::{self, Channel};
use crate::service::validation;
use prospect_api::client::Endpoint;
use prospect_api::types::*;

/// Checks the URL, reserves the pool and queues the `reveal_*` webhook.
fn accept(
    st: &St,
    call: &Call,
    channel: Channel,
    ids: Vec<String>,
    url: String,
) -> Result<(), crate::service::error::Failure> {
    validation::check_webhook_url(&url, &["webhookUrl"])?;
    let reserved = reveal::reserve(&call.account, channel, ids.len())?;
    reveal::queue_reveal_ids(&st.0, call.account.clone(), channel, ids, url, reserved);
    Ok(())
}

/// POST /v2/reveal/emails (SPEC.md §4.10, §6): the `reveal_emails` webhook follows.
pub(crate) async fn reveal_emails(st: St, call: Call) -> Answer {
    let req: RevealEmailsRequest =
        validation::parse_request(Endpoint::RevealEmails, &call.headers, &call.body)?;
    accept(&st, &call, Channel::Email, req.person_ids, req.webhook_url)?;
    ok_typed(RevealEmailsResponse {
        status: RevealStatus::InProgress,
    })
    .await
}

/// POST /v2/reveal/phones (SPEC.md §4.7): as reveal emails, phone pool, `reveal_phones`.
pub(crate) async fn reveal_phones(st: St, call: Call) -> Answer {
    let req: RevealPhonesRequest =
        validation::parse_request(Endpoint::RevealPhones, &call.headers, &call.body)?;
    accept(&st, &call, Channel::Phone, req.person_ids, req.webhook_url)?;
    ok_typed(RevealPhonesResponse {
        status: RevealStatus::InProgress,
    })
    .await
}
