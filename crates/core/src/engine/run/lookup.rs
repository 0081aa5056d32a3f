//! The run of a lookup (SPEC.md §4.5, §4.6): keys read as a stream, what the store holds
//! answered at 0 credits, the rest claimed and bought in batches, each kept before the next.

use super::*;
use std::sync::Arc;

/// What one lookup batch gave.
#[derive(Debug)]
struct Batch<T> {
    entries: Vec<LookupEntry<T>>,
    report: RunReport,
}

impl<T> Default for Batch<T> {
    fn default() -> Self {
        Batch {
            entries: Vec::new(),
            report: RunReport::default(),
        }
    }
}

/// Claims `keys` (claim keys) once. Returns indexes into `keys`: (mine: buy them; settled:
/// read them from the store; held: another buyer holds them, look again later).
pub(super) async fn claim_once(
    s: &Session,
    keys: &[String],
    job: Option<JobId>,
    planned_at: DateTime<Utc>,
) -> Result<(Vec<usize>, Vec<usize>, Vec<usize>), RunError> {
    let (_, verdicts) = claim_verdicts(s, keys.to_vec(), job, planned_at).await?;
    let (mut mine, mut settled, mut held) = (Vec::new(), Vec::new(), Vec::new());
    for (i, v) in verdicts.into_iter().enumerate() {
        match v {
            Claim::Mine => mine.push(i),
            Claim::Settled => settled.push(i),
            Claim::Held => held.push(i),
        }
    }
    Ok((mine, settled, held))
}

/// Claims `keys` (claim keys) once for this process ([`prospect_store::Store::claim`]):
/// the keys handed back, and a verdict for each, in their order.
async fn claim_verdicts(
    s: &Session,
    keys: Vec<String>,
    job: Option<JobId>,
    planned_at: DateTime<Utc>,
) -> Result<(Vec<String>, Vec<Claim>), RunError> {
    let owner = s.owner().to_string();
    let lease = Utc::now() + chrono::Duration::from_std(CLAIM_LEASE).unwrap_or_default();
    with_store(s.store(), move |st| {
        let verdicts = st.claim(&keys, &owner, job, lease, planned_at)?;
        Ok((keys, verdicts))
    })
    .await
    .map_err(RunError::Store)
}

/// What a lookup of one kind of key needs: how a key is claimed, read from the store and
/// bought. One of [`COMPANIES`], [`PEOPLE_BY_HANDLE`], [`PEOPLE_BY_ID`].
struct LookupKind<T> {
    /// The claim key of a normalized key (`company:acme.com`, `handle:ada`, `person:<id>`).
    claim: fn(&str) -> String,
    /// The stored records of these normalized keys, by key (shared: the caller reads them
    /// again once the store has answered).
    stored: fn(Session, Arc<Vec<String>>) -> BoxFuture<'static, StoredBy<T>>,
    /// Buys these normalized keys in one request (settling `settles`, for `job`): what it cost
    /// and what it found, by normalized key.
    buy: BuyFn<T>,
    /// How its keys are suppressed (issue 16): suppressed keys are refused, never sent.
    suppress: prospect_store::SuppressKind,
}

/// Buys normalized keys in one request: (session, keys, job, claim keys it settles).
type BuyFn<T> =
    fn(Session, Vec<String>, Option<JobId>, Vec<String>) -> BoxFuture<'static, BoughtBy<T>>;

/// Stored records by normalized key.
type StoredBy<T> = HashMap<String, Stored<T>>;

/// What the service answered for each key bought, by normalized key (`None`: not found). Boxed:
/// a record is large (a company is 1,768 bytes inline) and most keys of a big lookup are not
/// found, so the map holds pointers, not records moved at every growth.
type Found<T> = foldhash::HashMap<String, Option<Box<T>>>;

/// What one lookup request cost (its [`Paid`] without the answer) and the records it found,
/// by normalized key.
type BoughtBy<T> = Result<(Paid<()>, HashMap<String, T>), ApiError>;

type BoxFuture<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;

/// Companies by domain (SPEC.md §4.5).
const COMPANIES: LookupKind<Company> = LookupKind {
    claim: prospect_store::company_claim,
    stored: |s, names| {
        Box::pin(async move {
            with_store(s.store(), move |st| st.companies_by_domains(&names))
                .await
                .unwrap_or_default()
        })
    },
    buy: |s, domains, job, settles| {
        Box::pin(async move {
            let req = LookupCompaniesRequest {
                domains,
                fields: None,
            };
            let mut paid = s.buy(&req, job, settles, None).await?;
            let redirects: HashMap<String, String> = paid
                .value
                .redirect_map
                .clone()
                .unwrap_or_default()
                .into_iter()
                .map(|(from, to)| (normalize_domain(&to), normalize_domain(&from)))
                .collect();
            if !redirects.is_empty() {
                // Old domains answer for the companies they redirect to: asked again, owned.
                let pairs: Vec<(String, String)> = redirects
                    .iter()
                    .map(|(to, from)| (from.clone(), to.clone()))
                    .collect();
                if let Err(e) =
                    with_store(s.store(), move |st| st.put_company_aliases(&pairs)).await
                {
                    tracing::warn!(error = %e, "lookup: the redirect aliases were not kept");
                }
            }
            let mut found = HashMap::with_capacity(paid.value.companies.len());
            for entry in std::mem::take(&mut paid.value.companies) {
                let key = normalize_domain(entry.domain());
                let key = redirects.get(&key).cloned().unwrap_or(key);
                let company = match entry {
                    LookupCompanyEntry::ByDomain { company, .. } => company.map(|c| *c),
                    LookupCompanyEntry::Matched(c) => Some(*c),
                };
                if let Some(c) = company {
                    found.entry(key).or_insert(c);
                }
            }
            Ok((paid.map(|_| ()), found))
        })
    },
    suppress: prospect_store::SuppressKind::Domain,
};

/// People by professional-network handle (SPEC.md §4.6, `linkedinHandles`).
const PEOPLE_BY_HANDLE: LookupKind<LookalikePerson> = LookupKind {
    claim: |h| format!("handle:{h}"),
    stored: |s, names| Box::pin(stored_people(s, names, true)),
    buy: |s, handles, job, settles| Box::pin(buy_people(s, handles, true, job, settles)),
    suppress: prospect_store::SuppressKind::Handle,
};

/// People by the service's id (SPEC.md §4.6, `serviceIds`).
const PEOPLE_BY_ID: LookupKind<LookalikePerson> = LookupKind {
    claim: |id| format!("person:{id}"),
    stored: |s, names| Box::pin(stored_people(s, names, false)),
    buy: |s, ids, job, settles| Box::pin(buy_people(s, ids, false, job, settles)),
    suppress: prospect_store::SuppressKind::Person,
};

/// The stored people of `keys` (handles when `by_handle`, else ids) as lookup records (no
/// score), by key, with their stored contacts and their stored employer's summary joined
/// ([`prospect_store::Store::join_employers`]); none when the store cannot be read.
async fn stored_people(
    s: Session,
    keys: Arc<Vec<String>>,
    by_handle: bool,
) -> StoredBy<LookalikePerson> {
    with_store(s.store(), move |st| {
        let mut found = if by_handle {
            st.people_by_handles(&keys)?
        } else {
            st.people_by_ids(&keys)?
        };
        st.join_contacts(&mut found.values_mut().map(|p| &mut p.value).collect::<Vec<_>>())?;
        let mut found: StoredBy<LookalikePerson> = found
            .into_iter()
            .map(|(k, v)| {
                let v = v.map(|person| LookalikePerson {
                    person,
                    ..LookalikePerson::default()
                });
                (k, v)
            })
            .collect();
        st.join_employers(&mut found.values_mut().map(|p| &mut p.value).collect::<Vec<_>>())?;
        Ok(found)
    })
    .await
    .unwrap_or_default()
}

/// One people lookup request of `keys` (handles when `by_handle`, else service ids): what it
/// cost and the people found, by handle or id, with the contacts the store holds joined.
async fn buy_people(
    s: Session,
    keys: Vec<String>,
    by_handle: bool,
    job: Option<JobId>,
    settles: Vec<String>,
) -> Result<(Paid<()>, HashMap<String, LookalikePerson>), ApiError> {
    let req = if by_handle {
        LookupPeopleRequest {
            linkedin_handles: Some(keys),
            service_ids: None,
        }
    } else {
        LookupPeopleRequest {
            linkedin_handles: None,
            service_ids: Some(keys),
        }
    };
    let mut paid = s.buy(&req, job, settles, None).await?;
    let mut found = HashMap::with_capacity(paid.value.people.len());
    for p in std::mem::take(&mut paid.value.people) {
        let key = if by_handle {
            p.person
                .linkedin_url
                .as_deref()
                .and_then(prospect_common::keys::linkedin_handle)
        } else {
            Some(p.person.id.trim().to_string())
        };
        if let Some(k) = key.filter(|k| !k.is_empty()) {
            found.entry(k).or_insert(p);
        }
    }
    s.join_contacts(
        &mut found
            .values_mut()
            .map(|p| &mut p.person)
            .collect::<Vec<_>>(),
    )
    .await;
    Ok((paid.map(|_| ()), found))
}

/// The keys of `norms` suppressed for `kind` (key → category), counted in `report`, and the
/// rest.
async fn refused_among<T>(
    s: &Session,
    kind: &'static LookupKind<T>,
    norms: Vec<String>,
    report: &mut RunReport,
) -> (HashMap<String, String>, Vec<String>) {
    let norms = Arc::new(norms);
    let refused: HashMap<String, String> = {
        let (k, n) = (kind.suppress, norms.clone());
        with_store(s.store(), move |st| st.suppressed_among(k, &n))
            .await
            .unwrap_or_default()
    };
    for c in refused.values() {
        *report.suppressed.by_category.entry(c.clone()).or_default() += 1;
    }
    // The store's task has dropped its share by now: the keys are not copied.
    let mut norms = Arc::unwrap_or_clone(norms);
    if !refused.is_empty() {
        norms.retain(|n| !refused.contains_key(n));
    }
    (refused, norms)
}

/// Buys `names` (claimed by this process as `settles`) in one request and notes in `found`
/// what the answer holds of each (`None`: not found). `false` when the request failed (the run
/// stops; the claims are released when nothing can have been charged).
async fn buy_claimed_keys<T: Clone + Send + 'static>(
    s: &Session,
    kind: &'static LookupKind<T>,
    names: Vec<String>,
    settles: Vec<String>,
    job: Option<JobId>,
    report: &mut RunReport,
    found: &mut Found<T>,
) -> bool {
    report.requests += 1;
    // The request takes a copy of the names; the answer is matched back by them.
    match (kind.buy)(s.clone(), names.clone(), job, settles).await {
        Ok((paid, mut got)) => {
            report.absorb(&paid);
            // An answer that did not read whole: a key missing from it may be in the part
            // that did not read, so it is unread, never "not found" (issue 34); its claim was
            // released and the next run buys it.
            let partial = paid.decode_error.is_some();
            for n in names {
                match got.remove(&n) {
                    Some(record) => {
                        report.bought += 1;
                        found.insert(n, Some(Box::new(record)));
                    }
                    None if partial => report.unread += 1,
                    None => {
                        report.bought += 1;
                        found.insert(n, None);
                    }
                }
            }
            true
        }
        Err(e) => {
            if !e.may_have_charged() {
                s.release(names.iter().map(|n| (kind.claim)(n)).collect())
                    .await;
            }
            if matches!(e, ApiError::Decode { .. }) {
                report.unread += names.len() as u64;
            }
            report.fail(e.into());
            false
        }
    }
}

/// One entry per key of `chunk` (as asked, normalized) whose outcome is known: owned
/// (`known`), bought (`found`, found or not), or refused. A key left unread (an answer that
/// did not read, an error before it) has none: it is bought by the next run, never written as
/// "not found".
fn entries_of<T>(
    chunk: Vec<(String, String)>,
    mut known: HashMap<String, Stored<T>>,
    mut found: Found<T>,
    refused: &HashMap<String, String>,
) -> Vec<LookupEntry<T>> {
    let mut entries = Vec::with_capacity(chunk.len());
    for (asked, norm) in chunk {
        let entry = match known.remove(&norm) {
            Some(hit) => LookupEntry {
                key: asked,
                record: Some(Box::new(hit.value)),
                stored_at: Some(hit.fetched_at),
                suppressed: None,
            },
            None if refused.contains_key(&norm) => LookupEntry {
                key: asked,
                record: None,
                stored_at: None,
                suppressed: refused.get(&norm).cloned(),
            },
            None => match found.remove(&norm) {
                Some(record) => LookupEntry {
                    key: asked,
                    record,
                    stored_at: None,
                    suppressed: None,
                },
                None => continue,
            },
        };
        entries.push(entry);
    }
    entries
}

/// One batch of a lookup: stored keys from the store, the rest claimed, bought (one request)
/// and kept; keys another process holds are waited for and read. `chunk` holds (key as asked,
/// normalized key); the entries come back in its order.
async fn lookup_batch<T: Clone + Send + 'static>(
    s: Session,
    kind: &'static LookupKind<T>,
    chunk: Vec<(String, String)>,
    fresh: Freshness,
    planned_at: DateTime<Utc>,
    job: Option<JobId>,
) -> Batch<T> {
    let mut out = Batch::default();
    let norms: Vec<String> = chunk.iter().map(|c| c.1.clone()).collect();
    // Suppressed keys are refused (issue 16): neither read nor bought.
    let (refused, norms) = refused_among(&s, kind, norms, &mut out.report).await;
    let norms = Arc::new(norms);
    let mut known: HashMap<String, Stored<T>> = if fresh == Freshness::Stored {
        (kind.stored)(s.clone(), norms.clone()).await
    } else {
        HashMap::new()
    };
    out.report.owned += known.len() as u64;
    let mut found: Found<T> = foldhash::HashMapExt::with_capacity(norms.len());
    let mut todo = Arc::unwrap_or_clone(norms);
    todo.retain(|n| !known.contains_key(n));
    let deadline = Instant::now() + CLAIM_LEASE + Duration::from_secs(30);
    while !todo.is_empty() {
        let claim_keys: Vec<String> = todo.iter().map(|k| (kind.claim)(k)).collect();
        let (claim_keys, verdicts) = match claim_verdicts(&s, claim_keys, job, planned_at).await {
            Ok(x) => x,
            Err(e) => {
                out.report.fail(e);
                break;
            }
        };
        let (mut names, mut settles, mut settled, mut held) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let claimed = std::mem::take(&mut todo).into_iter().zip(claim_keys);
        for ((name, claim), verdict) in claimed.zip(verdicts) {
            match verdict {
                Claim::Mine => {
                    names.push(name);
                    settles.push(claim);
                }
                Claim::Settled => settled.push(name),
                Claim::Held => held.push(name),
            }
        }
        if !names.is_empty()
            && !buy_claimed_keys(&s, kind, names, settles, job, &mut out.report, &mut found).await
        {
            break;
        }
        if !settled.is_empty() {
            let settled = Arc::new(settled);
            let mut got = (kind.stored)(s.clone(), settled.clone()).await;
            out.report.owned += settled.len() as u64;
            for n in Arc::unwrap_or_clone(settled) {
                match got.remove(&n) {
                    Some(hit) => {
                        known.insert(n, hit);
                    }
                    None => {
                        found.insert(n, None);
                    }
                }
            }
        }
        todo = held;
        if !todo.is_empty() {
            if Instant::now() > deadline {
                out.report.fail(RunError::Store(format!(
                    "{} keys stayed claimed by another process for over {} s",
                    todo.len(),
                    CLAIM_LEASE.as_secs() + 30
                )));
                // Their answer is another process's: not known here, so not written.
                todo.clear();
                break;
            }
            tokio::time::sleep(CLAIM_POLL).await;
        }
    }
    out.entries = entries_of(chunk, known, found, &refused);
    out
}

/// Runs a lookup: `keys` streamed in batches of at most `batch` distinct normalized keys
/// (`normalize` gives `None` for a key that is not one), each answered from the store, claimed
/// and bought, or waited for (see [`lookup_batch`]); [`IN_FLIGHT`] batches at once; each
/// batch's entries handed to `on_entries` in input order once kept. Stops taking new batches
/// on `stop` or the first error; batches in flight are always awaited and kept.
#[allow(clippy::too_many_arguments)]
async fn lookup_stream<T: Clone + Send + 'static>(
    s: &Session,
    kind: &'static LookupKind<T>,
    normalize: fn(&str) -> Option<String>,
    batch: usize,
    planned_at: DateTime<Utc>,
    keys: &KeySource,
    fresh: Freshness,
    job: Option<JobId>,
    stop: &CancellationToken,
    mut on_entries: impl FnMut(Vec<LookupEntry<T>>) -> std::io::Result<()>,
) -> RunReport {
    let mut report = RunReport::default();
    // Read and normalized on a thread of its own while batches are bought.
    let mut read = match keys.read_ahead(normalize, batch) {
        Ok(r) => r,
        Err(e) => {
            report.fail(e.into());
            return report;
        }
    };
    let mut stretch = Vec::new().into_iter();
    let mut seen: foldhash::HashSet<u64> = foldhash::HashSetExt::new();
    let mut exhausted = false;
    let mut inflight = futures::stream::FuturesOrdered::new();
    // A batch's entries are written after the next batch is on its way, so the service
    // answers it while they are.
    let mut ready: Option<Vec<LookupEntry<T>>> = None;
    loop {
        while inflight.len() < IN_FLIGHT
            && !exhausted
            && !stop.is_cancelled()
            && report.error.is_none()
        {
            let mut chunk = Vec::with_capacity(batch);
            while chunk.len() < batch {
                let Some(key) = stretch.next() else {
                    match read.recv().await {
                        None => exhausted = true,
                        Some(Err(e)) => {
                            report.fail(e.into());
                            exhausted = true;
                        }
                        Some(Ok(next)) => {
                            stretch = next.into_iter();
                            continue;
                        }
                    }
                    break;
                };
                if let ReadKey::Key { given, norm, hash } = key
                    && seen.insert(hash)
                {
                    chunk.push((given, norm));
                }
            }
            if chunk.is_empty() {
                break;
            }
            inflight.push_back(tokio::spawn(lookup_batch(
                s.clone(),
                kind,
                chunk,
                fresh,
                planned_at,
                job,
            )));
        }
        if let Some(entries) = ready.take()
            && report.error.is_none()
            && let Err(e) = on_entries(entries)
        {
            report.fail(RunError::Output(e));
        }
        let Some(done) = inflight.next().await else {
            break;
        };
        match done {
            Ok(batch) => {
                RunReport::merge(&mut report, batch.report);
                report.records += batch.entries.len() as u64;
                ready = Some(batch.entries);
            }
            Err(e) => report.fail(RunError::Store(format!("a lookup batch failed: {e}"))),
        }
    }
    if stop.is_cancelled() && !exhausted {
        report.interrupted = true;
    }
    report
}

/// Runs a lookup of companies: `keys` streamed in batches of 1,000 distinct domains (a key
/// that is not a domain is left out), each answered from the store, claimed and bought, or
/// waited for; [`IN_FLIGHT`] batches in flight; each batch's entries handed to `on_entries` in input
/// order once kept (see [`lookup_stream`]).
#[allow(clippy::too_many_arguments)]
pub async fn lookup_companies(
    s: &Session,
    planned_at: DateTime<Utc>,
    keys: &KeySource,
    fresh: Freshness,
    job: Option<JobId>,
    stop: &CancellationToken,
    on_entries: impl FnMut(Vec<LookupEntry<Company>>) -> std::io::Result<()>,
) -> RunReport {
    lookup_stream(
        s,
        &COMPANIES,
        prospect_common::keys::domain_key,
        LOOKUP_COMPANIES_MAX,
        planned_at,
        keys,
        fresh,
        job,
        stop,
        on_entries,
    )
    .await
}

/// Runs a lookup of people by professional-network handle, or by service id when `ids`, as
/// [`lookup_companies`] does for domains: streamed in batches of 1,000 distinct keys, stored
/// people answered at 0 credits, the rest claimed (`handle:…` / `person:…`), bought and kept.
#[allow(clippy::too_many_arguments)]
pub async fn lookup_people(
    s: &Session,
    planned_at: DateTime<Utc>,
    keys: &KeySource,
    ids: bool,
    fresh: Freshness,
    job: Option<JobId>,
    stop: &CancellationToken,
    on_entries: impl FnMut(Vec<LookupEntry<LookalikePerson>>) -> std::io::Result<()>,
) -> RunReport {
    let kind: &'static LookupKind<LookalikePerson> = if ids {
        &PEOPLE_BY_ID
    } else {
        &PEOPLE_BY_HANDLE
    };
    let normalize: fn(&str) -> Option<String> = if ids {
        crate::engine::gate::id_key
    } else {
        prospect_common::keys::linkedin_handle
    };
    lookup_stream(
        s,
        kind,
        normalize,
        LOOKUP_PEOPLE_MAX,
        planned_at,
        keys,
        fresh,
        job,
        stop,
        on_entries,
    )
    .await
}

/// Runs a lookup of people whose keys mix handles and service ids (the explorer's `Ctrl-l`):
/// each key by its shape ([`crate::engine::split_people_keys`]), the handles first, then the
/// ids, each part as [`lookup_people`] runs it; one report for both.
#[allow(clippy::too_many_arguments)]
pub async fn lookup_people_by_shape(
    s: &Session,
    planned_at: DateTime<Utc>,
    keys: &KeySource,
    fresh: Freshness,
    job: Option<JobId>,
    stop: &CancellationToken,
    mut on_entries: impl FnMut(Vec<LookupEntry<LookalikePerson>>) -> std::io::Result<()>,
) -> RunReport {
    let list = match keys.read_all() {
        Ok(l) => l,
        Err(e) => {
            return RunReport {
                error: Some(e.into()),
                ..RunReport::default()
            };
        }
    };
    let (handles, ids) = crate::engine::split_people_keys(&list);
    let mut report = RunReport::default();
    for (part, ids) in [(handles, false), (ids, true)] {
        if part.is_empty() || report.error.is_some() || stop.is_cancelled() {
            continue;
        }
        let part = KeySource::List(part);
        let r = lookup_people(s, planned_at, &part, ids, fresh, job, stop, &mut on_entries).await;
        report.merge(r);
    }
    report
}
