//! How the explorer reaches the service: the [`Backend`] trait, one typed [`Call`] in, one
//! typed [`Outcome`] out. The outcome (rows and cells, picker lists, suggestions) is built in
//! the call's task from the typed response, never on the UI loop.
//!
//! The production backend wraps `crate::api::client::Client`; tests and benches may bring their
//! own. The trait is the seam for a backend that goes through a session with a store.
use std::future::Future;
use std::pin::Pin;

use super::msg::{ApiFailure, Call, Outcome};
use super::records;
use super::schema::{self, DataFields};
use crate::api::client::Client;

/// A boxed future that owns its inputs.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// Something that answers [`Call`]s.
pub trait Backend: Send + Sync + 'static {
    /// Performs `call` and builds its outcome: [`Call::DataFields`] → [`Outcome::DataFields`],
    /// [`Call::Balance`] → [`Outcome::Balance`], [`Call::Search`] → [`Outcome::Page`],
    /// [`Call::Autocomplete`] → [`Outcome::Suggestions`]. A failure carries plain words
    /// (sanitized, never the token) and the client's typed error when there is one.
    fn call(&self, call: Call) -> BoxFuture<Result<Outcome, ApiFailure>>;
}

/// The production backend: the team's [`Client`] (checks before sending, retries, the one
/// error type), called through its typed methods.
pub struct ClientBackend {
    client: Client,
}

impl ClientBackend {
    /// A backend for `target` (the token goes only into the client's `x-api-token` header).
    pub fn new(target: &super::Target) -> anyhow::Result<ClientBackend> {
        let client = Client::new(&target.base_url, target.token.clone())
            .map_err(|e| anyhow::anyhow!(e.user_message()))?;
        Ok(ClientBackend { client })
    }
}

impl Backend for ClientBackend {
    fn call(&self, call: Call) -> BoxFuture<Result<Outcome, ApiFailure>> {
        let c = self.client.clone();
        Box::pin(async move {
            Ok(match call {
                Call::DataFields => {
                    Outcome::DataFields(DataFields::from_api(&c.data_fields().await?))
                }
                Call::Balance => Outcome::Balance(c.credit_balance().await?),
                Call::Search(req) => Outcome::Page(records::page(req.send(&c).await?)),
                Call::Autocomplete(req) => {
                    Outcome::Suggestions(schema::suggestions(&req.send(&c).await?))
                }
            })
        })
    }
}
