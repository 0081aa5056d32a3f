//! The dataset a sandbox serves, possibly still loading (issue 8, "Start-up").
//!
//! Indexing the embedded dataset takes a few hundred milliseconds, but the asset's header
//! frame, decoded first, already holds the reference data. So a sandbox binds and answers at
//! once: what needs no company (`/v2/credits/balance`, `/v2/data-fields`, authentication, the
//! limits) is served immediately, and every handler that needs the companies awaits the
//! [`Db`] ([`DbSource::db`]) instead of failing. Nothing is answered differently; answers that
//! need the companies only take longer while the dataset loads.
//!
//! The whole load starts with the first request that needs it (or at once, for the explorer
//! and `prospect serve`), and until then a request about a few known companies (a lookup, an
//! enrichment) does not need it: it is answered from just the asset frames that hold them
//! ([`DbSource::subset`]), so a CLI command on the embedded sandbox answers in milliseconds and
//! never indexes the rest (issue 18, "Embedded start").

use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use crate::dataset::format::Reference;
use crate::dataset::load::{Db, OpenedAsset};

/// What the loading thread publishes: nothing yet, the indexed database, or why it failed.
type Slot = Option<Result<Arc<Db>, Arc<str>>>;

/// A sandbox dataset: its reference data at once, its indexed [`Db`] once loaded. Cheap to
/// clone (every clone waits for the same load).
///
/// The embedded dataset loads lazily: the whole load starts on the first [`DbSource::db`] (or
/// [`DbSource::start`]); until then a request about a few known companies is answered from a
/// [`DbSource::subset`] of the asset (issue 18, "Embedded start").
#[derive(Clone)]
pub struct DbSource {
    reference: Arc<Reference>,
    db: watch::Receiver<Slot>,
    /// The embedded asset and the load not started yet (`None` for a source built from a
    /// loaded [`Db`]).
    embedded: Option<Arc<Embedded>>,
}

/// The embedded asset behind a [`DbSource`].
struct Embedded {
    /// Its frames and header, for subsets.
    asset: OpenedAsset,
    /// The sender of the whole load until it starts ([`DbSource::start`] takes it).
    loader: Mutex<Option<watch::Sender<Slot>>>,
}

impl std::fmt::Debug for DbSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match &*self.db.borrow() {
            None if !self.started() => "not started",
            None => "loading",
            Some(Ok(_)) => "ready",
            Some(Err(_)) => "failed",
        };
        f.debug_struct("DbSource").field("db", &state).finish()
    }
}

impl From<Arc<Db>> for DbSource {
    /// A source whose database is already there.
    fn from(db: Arc<Db>) -> DbSource {
        let (_tx, rx) = watch::channel(Some(Ok(db.clone())));
        DbSource {
            reference: db.reference.clone(),
            db: rx,
            embedded: None,
        }
    }
}

impl DbSource {
    /// The dataset embedded in the binary: decodes its header now (a few milliseconds); the
    /// companies are indexed on a background thread from the first [`DbSource::db`] or
    /// [`DbSource::start`] on, which then builds the autocomplete indexes
    /// ([`Db::autocompletes`]). Each call loads anew (the benchmark measures cold starts);
    /// [`super::embedded_source`] shares one load per process.
    ///
    /// Errors when the header cannot be read ([`Db::open_embedded`]); a later failure is
    /// reported by [`DbSource::db`].
    pub fn load_embedded() -> anyhow::Result<DbSource> {
        let asset = Db::open_embedded()?;
        let reference = asset.reference().clone();
        let (tx, rx) = watch::channel(None);
        Ok(DbSource {
            reference,
            db: rx,
            embedded: Some(Arc::new(Embedded {
                asset,
                loader: Mutex::new(Some(tx)),
            })),
        })
    }

    /// Starts the whole load if it has not started (a sandbox that serves searches starts it
    /// at once; a CLI command lets its first request start it, or never, when a
    /// [`DbSource::subset`] answers). Never waits.
    ///
    /// Errors when the loading thread cannot be spawned.
    pub fn start(&self) -> anyhow::Result<()> {
        let Some(embedded) = &self.embedded else {
            return Ok(());
        };
        let Some(tx) = embedded
            .loader
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        else {
            return Ok(());
        };
        let opened = embedded.asset.clone();
        std::thread::Builder::new()
            .name("sandbox-load".into())
            .spawn(move || {
                let t = std::time::Instant::now();
                match opened.index() {
                    Ok((db, _)) => {
                        tracing::info!(
                            ms = t.elapsed().as_millis() as u64,
                            companies = db.company_count(),
                            "sandbox dataset indexed"
                        );
                        let db = Arc::new(db);
                        // Nobody may be listening any more (the sandbox stopped): fine.
                        let _ = tx.send(Some(Ok(db.clone())));
                        // Searches are answered from here on; the autocompletes (left out of
                        // the load) are built now rather than on the first autocomplete call.
                        let t = std::time::Instant::now();
                        db.autocompletes();
                        tracing::info!(
                            ms = t.elapsed().as_millis() as u64,
                            "sandbox autocompletes built"
                        );
                    }
                    Err(e) => {
                        tracing::error!(error = %format!("{e:#}"), "the sandbox dataset did not load");
                        let _ = tx.send(Some(Err(Arc::from(format!("{e:#}")))));
                    }
                }
            })?;
        Ok(())
    }

    /// Whether the whole load has started (always, for a source built from a loaded [`Db`]).
    fn started(&self) -> bool {
        self.embedded
            .as_ref()
            .is_none_or(|e| e.loader.lock().unwrap_or_else(|e| e.into_inner()).is_none())
    }

    /// The reference data (SPEC.md §2.8), there from the start.
    pub fn reference(&self) -> &Arc<Reference> {
        &self.reference
    }

    /// The indexed database, starting the load ([`DbSource::start`]) and waiting for it to
    /// finish if it has not.
    ///
    /// Errors when the load failed (a damaged company frame), with the loader's message.
    pub async fn db(&self) -> anyhow::Result<Arc<Db>> {
        self.start()?;
        let mut rx = self.db.clone();
        let slot = rx
            .wait_for(Option::is_some)
            .await
            .map_err(|_| anyhow::anyhow!("the sandbox dataset loader stopped"))?;
        match &*slot {
            Some(Ok(db)) => Ok(db.clone()),
            Some(Err(e)) => Err(anyhow::anyhow!("the sandbox dataset did not load: {e}")),
            None => Err(anyhow::anyhow!("the sandbox dataset loader stopped")),
        }
    }

    /// The database if it is loaded already (never waits, never starts the load).
    pub fn try_db(&self) -> Option<Arc<Db>> {
        match &*self.db.borrow() {
            Some(Ok(db)) => Some(db.clone()),
            _ => None,
        }
    }

    /// While the whole load has not started: a database of just the companies of `domains`
    /// (normalized primary domains), read from the asset on a blocking thread
    /// ([`OpenedAsset::subset`]); its records of them are those of the whole dataset.
    ///
    /// `None` once the whole load has started (wait for it: a burst of requests during the
    /// load must not each decompress a frame), for a source built from a loaded [`Db`], and
    /// whenever the subset cannot answer alone (an unknown domain or alias, too many
    /// companies); a damaged frame is logged and gives `None` too (the whole load then reports
    /// it).
    pub async fn subset(&self, domains: Vec<String>) -> Option<Arc<Db>> {
        let embedded = self.embedded.clone()?;
        if self.started() {
            return None;
        }
        let read = tokio::task::spawn_blocking(move || embedded.asset.subset(&domains));
        match read.await {
            Ok(Ok(db)) => db.map(Arc::new),
            Ok(Err(e)) => {
                tracing::error!(error = %format!("{e:#}"), "reading companies from the sandbox asset");
                None
            }
            Err(_) => None,
        }
    }
}

#[cfg(test)]
impl DbSource {
    /// A source still loading, and the sender that finishes it (tests).
    fn pending(reference: Arc<Reference>) -> (DbSource, watch::Sender<Slot>) {
        let (tx, rx) = watch::channel(None);
        (
            DbSource {
                reference,
                db: rx,
                embedded: None,
            },
            tx,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testdata;
    use crate::service::accounts::AccountSpec;
    use crate::service::{SandboxConfig, spawn};
    use prospect_api::client::Client;
    use prospect_api::types::SearchCompaniesV3Request;

    /// While the companies load, the balance and the data fields answer; a search waits and
    /// then answers from the loaded dataset (charged once, as ever); a failed load is a 500.
    #[tokio::test]
    async fn answers_what_needs_no_company_while_loading() {
        let db = Arc::new(testdata::db());
        let (source, finish) = DbSource::pending(db.reference.clone());
        let sb = spawn(SandboxConfig {
            accounts: vec![AccountSpec::ample("t")],
            db: Some(source),
            ..SandboxConfig::default()
        })
        .await
        .unwrap();
        let c = Client::new(&sb.base_url, "t").unwrap();
        let before = c.credit_balance().await.unwrap();
        let fields = c.data_fields().await.unwrap();
        assert_eq!(fields.industries.len(), 4);
        let req: SearchCompaniesV3Request = serde_json::from_value(serde_json::json!({
            "size": 10,
            "companiesFilters": {"primaryLocations": {"includeCountries": ["us"]}}
        }))
        .unwrap();
        let search = tokio::spawn({
            let c = c.clone();
            async move { c.search_companies_v3(&req).await }
        });
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        assert!(
            !search.is_finished(),
            "a search answered before the dataset loaded"
        );
        finish.send(Some(Ok(db.clone()))).unwrap();
        let found = search.await.unwrap().unwrap();
        let expected = db
            .search_companies_v3(
                &serde_json::from_value(serde_json::json!({
                    "size": 10,
                    "companiesFilters": {"primaryLocations": {"includeCountries": ["us"]}}
                }))
                .unwrap(),
            )
            .unwrap();
        assert!(!found.companies.is_empty());
        assert_eq!(
            found
                .companies
                .iter()
                .map(|c| &c.company.domain)
                .collect::<Vec<_>>(),
            expected
                .companies
                .iter()
                .map(|c| &c.company.domain)
                .collect::<Vec<_>>()
        );
        let after = c.credit_balance().await.unwrap();
        let spent = before.credits.unwrap().one_time - after.credits.unwrap().one_time;
        assert!(
            (spent - 0.2 * found.companies.len() as f64).abs() < 1e-9,
            "{spent}"
        );

        let (failing, fail) = DbSource::pending(db.reference.clone());
        let broken = spawn(SandboxConfig {
            accounts: vec![AccountSpec::ample("t")],
            db: Some(failing),
            ..SandboxConfig::default()
        })
        .await
        .unwrap();
        fail.send(Some(Err(Arc::from("frame 3 is damaged"))))
            .unwrap();
        let c = Client::new(&broken.base_url, "t").unwrap();
        assert!(c.data_fields().await.is_ok());
        let req: SearchCompaniesV3Request =
            serde_json::from_value(serde_json::json!({"size": 1})).unwrap();
        let err = c.search_companies_v3(&req).await.unwrap_err();
        assert!(format!("{err:?}").contains("500"), "{err:?}");
    }

    /// The embedded dataset does not load for a lookup or an enrichment of known companies: a
    /// subset of the asset answers them (the same record as the whole dataset), charged as
    /// ever; a lookup naming an unknown domain starts the whole load and waits for it, and from
    /// then on no subset is read.
    #[tokio::test]
    async fn known_companies_are_answered_without_loading_the_dataset() {
        use prospect_api::types::{CompanyMatch, EnrichCompanyRequest, LookupCompaniesRequest};
        let source = DbSource::load_embedded().unwrap();
        let sb = spawn(SandboxConfig {
            accounts: vec![AccountSpec::ample("t")],
            db: Some(source.clone()),
            ..SandboxConfig::default()
        })
        .await
        .unwrap();
        let c = Client::new(&sb.base_url, "t").unwrap();
        let before = c.credit_balance().await.unwrap();
        let req = LookupCompaniesRequest {
            domains: vec!["https://www.Stripe.com/".into(), "stripe.com".into()],
            ..Default::default()
        };
        let found = c.lookup_companies(&req).await.unwrap();
        assert_eq!(found.total_found, 2);
        let enrich = EnrichCompanyRequest {
            company: Some(CompanyMatch {
                domain: Some("stripe.com".into()),
                ..Default::default()
            }),
            ..Default::default()
        };
        let prospect_api::client::Enriched::Found(enriched) =
            c.enrich_company(&enrich).await.unwrap()
        else {
            panic!("stripe.com is in the dataset");
        };
        assert!(!source.started(), "the dataset started loading");
        assert!(source.try_db().is_none());
        let after = c.credit_balance().await.unwrap();
        let spent = before.credits.unwrap().one_time - after.credits.unwrap().one_time;
        assert!((spent - (2.0 * 0.05 + 0.1)).abs() < 1e-9, "{spent}");

        let unknown = LookupCompaniesRequest {
            domains: vec![
                "stripe.com".into(),
                "surely-not-a-company-here.example".into(),
            ],
            ..Default::default()
        };
        let mixed = c.lookup_companies(&unknown).await.unwrap();
        assert!(source.started());
        assert!(
            source.subset(vec!["stripe.com".into()]).await.is_none(),
            "once the whole load runs, requests wait for it"
        );
        let db = source.db().await.unwrap();
        assert_eq!(mixed.total_found, 1);
        let whole = serde_json::to_value(db.lookup_companies(&req)).unwrap();
        assert_eq!(
            serde_json::to_value(&found).unwrap()["companies"],
            whole["companies"]
        );
        let whole = db.enrich_company(&enrich).unwrap();
        assert_eq!(
            serde_json::to_value(&whole.company).unwrap(),
            serde_json::to_value(&enriched.company).unwrap()
        );
    }
}
