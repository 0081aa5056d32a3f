//! How the explorer reaches the service: the [`Backend`] trait (one request in, JSON out) and
//! the task side of a call (request, then parse into an [`Outcome`] off the UI loop).
//!
//! The production backend wraps `crate::api::client::Client`; tests may use their own.
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

use super::msg::{ApiFailure, Balance, Call, Outcome};
use super::records;
use super::schema::{AcKind, DataFields, Endpoint};
use crate::api::client::Client;
use crate::api::error::ApiError;
use crate::core::sanitize::sanitize;

/// A boxed future that owns its inputs.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// Something that answers [`Call`]s with the response body as JSON.
pub trait Backend: Send + Sync + 'static {
    /// Performs `call`; errors carry a plain-words message (never the token).
    fn call(&self, call: Call) -> BoxFuture<Result<Value, ApiFailure>>;
}

/// Runs `call` on `backend` and parses the answer into an [`Outcome`] (rows and cells are
/// built and sanitized here, in the task, not in the UI loop).
pub async fn perform(backend: Arc<dyn Backend>, call: Call) -> Result<Outcome, ApiFailure> {
    let what = call.clone();
    let v = backend.call(call).await?;
    Ok(match what {
        Call::DataFields => Outcome::DataFields(DataFields::from_json(&v)),
        Call::Balance => Outcome::Balance(Balance::from_json(&v)),
        Call::Search { endpoint, .. } => {
            Outcome::Page(records::page_from_response(endpoint.kind(), &v))
        }
        Call::Autocomplete { kind, .. } => Outcome::Suggestions(kind.suggestions(&v)),
    })
}

/// The production backend: the team's [`Client`] (validation before sending, retries, the
/// one error type). Bodies built by the form are read into the typed requests here; a body
/// that does not fit is refused before anything is sent or spent.
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

fn typed<T: serde::de::DeserializeOwned>(body: Value) -> Result<T, ApiFailure> {
    serde_path_to_error::deserialize(body).map_err(|e| {
        let path = e.path().to_string();
        ApiFailure {
            message: sanitize(&format!("Not sent: body.{path}: {}", e.inner())),
        }
    })
}

fn failed(e: ApiError) -> ApiFailure {
    ApiFailure {
        message: sanitize(&e.user_message()),
    }
}

fn json<T: serde::Serialize>(v: T) -> Result<Value, ApiFailure> {
    serde_json::to_value(v).map_err(|e| ApiFailure {
        message: format!("could not read the answer: {e}"),
    })
}

impl Backend for ClientBackend {
    fn call(&self, call: Call) -> BoxFuture<Result<Value, ApiFailure>> {
        let c = self.client.clone();
        Box::pin(async move {
            match call {
                Call::DataFields => json(c.data_fields().await.map_err(failed)?),
                Call::Balance => json(c.credit_balance().await.map_err(failed)?),
                Call::Search { endpoint, body } => match endpoint {
                    Endpoint::CompaniesV3 => {
                        json(c.search_companies_v3(&typed(body)?).await.map_err(failed)?)
                    }
                    Endpoint::PeopleV3 => {
                        json(c.search_people_v3(&typed(body)?).await.map_err(failed)?)
                    }
                    Endpoint::CompaniesV2 => {
                        json(c.search_companies_v2(&typed(body)?).await.map_err(failed)?)
                    }
                    Endpoint::PeopleV2 => {
                        json(c.search_people_v2(&typed(body)?).await.map_err(failed)?)
                    }
                },
                Call::Autocomplete { kind, body } => match kind {
                    AcKind::Companies => json(
                        c.autocomplete_companies(&typed(body)?)
                            .await
                            .map_err(failed)?,
                    ),
                    AcKind::Keywords => json(
                        c.autocomplete_keywords(&typed(body)?)
                            .await
                            .map_err(failed)?,
                    ),
                    AcKind::JobTitles => json(
                        c.autocomplete_job_titles(&typed(body)?)
                            .await
                            .map_err(failed)?,
                    ),
                    AcKind::Locations => json(
                        c.autocomplete_locations(&typed(body)?)
                            .await
                            .map_err(failed)?,
                    ),
                    AcKind::Skills => {
                        json(c.autocomplete_skills(&typed(body)?).await.map_err(failed)?)
                    }
                },
            }
        })
    }
}
