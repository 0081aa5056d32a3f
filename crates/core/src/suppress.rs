//! Suppression (issue 16): the customers, open deals, do-not-contact people and competitors a
//! team never searches, reveals or pays for. Lists are imported from a CRM export or a plain
//! list ([`read_suppression_file`]) into the store ([`prospect_store::Store::suppress`]); every
//! search then carries them as the API's own exclude filters ([`apply_to_body`]), so they are
//! never returned or charged, and every paid call on a suppressed entity is refused before it
//! is sent ([`refused_domains`], [`refused_people`]).
//!
//! A search request carries at most [`MAX_EXCLUDED`] keys per exclude list; past that, the
//! rest is named ([`Suppressed::not_sent`]) and those results are left out here
//! ([`Suppressed::filter`]) after they were bought.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::{KeyColumn, KeyError};
use crate::request::SearchResponse;
use crate::session::{Session, with_store};
use prospect_api::client::Endpoint;
use prospect_store::SuppressKind;

/// A suppression category (`--category`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Category {
    /// Companies and people who are customers.
    Customers,
    /// Companies with an open deal.
    OpenDeals,
    /// People (or companies) never to contact.
    DoNotContact,
    /// Competitors.
    Competitors,
}

impl Category {
    /// As stored and shown: `customers`, `open-deals`, `do-not-contact`, `competitors`.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Customers => "customers",
            Category::OpenDeals => "open-deals",
            Category::DoNotContact => "do-not-contact",
            Category::Competitors => "competitors",
        }
    }
}

/// Most keys one exclude list of a search request carries (`excludeDomains`,
/// `excludeLinkedinHandles`, `excludePeopleIds`): about 300 KB of JSON, well inside a request.
pub const MAX_EXCLUDED: usize = 10_000;

/// Largest suppression file read: 64 MiB.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a suppression file: a CRM export CSV (its domain, email and profile columns, found by
/// their header as every key file's are: [`crate::engine::column_kind`]) or a plain list, one entry
/// a line (a profile URL or `in/handle` is a handle, a text with `@` an email, anything else a
/// domain; blank lines and lines starting with `#` skipped). A UTF-8 byte-order mark and CRLF
/// line ends are accepted.
///
/// Errors, in one line naming the file: unreadable, over [`MAX_FILE_BYTES`], not UTF-8, a CSV
/// with none of the known columns (its headers listed), or nothing in it.
pub fn read_suppression_file(path: &Path) -> Result<Vec<(SuppressKind, String)>, KeyError> {
    let shown = path.display();
    let meta =
        std::fs::metadata(path).map_err(|e| KeyError(format!("cannot read {shown}: {e}")))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(KeyError(format!(
            "{shown} is over the {} MiB a suppression file may be",
            MAX_FILE_BYTES / (1024 * 1024)
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| KeyError(format!("cannot read {shown}: {e}")))?;
    let text =
        String::from_utf8(bytes).map_err(|_| KeyError(format!("{shown} is not UTF-8 text")))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let first = text.lines().next().unwrap_or_default();
    let out = if let Some((delimiter, _)) = crate::engine::csv_header(first) {
        read_csv(text, &shown.to_string(), delimiter)?
    } else {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            // `acme.com, globex.com` on one line is two entries.
            .flat_map(|l| l.split([',', ';', '\t', ' ']))
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .map(|e| (kind_of(e), e.to_string()))
            .collect()
    };
    if out.is_empty() {
        return Err(KeyError(format!(
            "{shown} holds no domain, email or profile"
        )));
    }
    Ok(out)
}

/// The entries of a suppression file that are no key of their kind (a handle that is no
/// profile, an email without `@`, a domain that is not one), which an import skips; each
/// sanitized, as read.
pub fn unreadable(entries: &[(SuppressKind, String)]) -> Vec<String> {
    entries
        .iter()
        .filter(|(kind, key)| kind.normalize(key).is_none())
        .map(|(_, key)| prospect_common::sanitize::sanitize(key))
        .collect()
}

/// The columns a suppression file is read from, and what each suppresses.
const SUPPRESSED_COLUMNS: [KeyColumn; 3] =
    [KeyColumn::Domain, KeyColumn::Email, KeyColumn::Profile];

/// What a CSV column titled `title` suppresses, if it is one read.
fn column_kind(title: &str) -> Option<SuppressKind> {
    match crate::engine::column_kind(title, &SUPPRESSED_COLUMNS)? {
        KeyColumn::Domain => Some(SuppressKind::Domain),
        KeyColumn::Email => Some(SuppressKind::Email),
        KeyColumn::Profile => Some(SuppressKind::Handle),
        KeyColumn::PersonId => None,
    }
}

fn read_csv(
    text: &str,
    shown: &str,
    delimiter: u8,
) -> Result<Vec<(SuppressKind, String)>, KeyError> {
    let mut rd = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .from_reader(text.as_bytes());
    let headers = rd
        .headers()
        .map_err(|e| KeyError(format!("{shown}: {e}")))?
        .clone();
    let columns: Vec<(usize, SuppressKind)> = headers
        .iter()
        .enumerate()
        .filter_map(|(i, h)| column_kind(h).map(|k| (i, k)))
        .collect();
    if columns.is_empty() {
        return Err(KeyError(format!(
            "{shown} has no domain, email or profile column (its columns: {}); the README lists the names read",
            headers.iter().collect::<Vec<_>>().join(", ")
        )));
    }
    let mut out = Vec::new();
    for (n, row) in rd.records().enumerate() {
        let row = row.map_err(|e| KeyError(format!("{shown}, row {}: {e}", n + 2)))?;
        for (i, kind) in &columns {
            if let Some(v) = row.get(*i).map(str::trim).filter(|v| !v.is_empty()) {
                out.push((*kind, v.to_string()));
            }
        }
    }
    Ok(out)
}

/// The kind of a plain-list entry: a profile URL or `in/handle` is a handle, text with `@` an
/// email, anything else a domain.
fn kind_of(entry: &str) -> SuppressKind {
    let l = entry.to_lowercase();
    if l.contains("/in/") || l.starts_with("in/") {
        SuppressKind::Handle
    } else if l.contains('@') && !l.contains('/') {
        SuppressKind::Email
    } else {
        SuppressKind::Domain
    }
}

/// What suppression did to one search: how many entities it excluded per category, and the
/// keys past [`MAX_EXCLUDED`] that no request carries (left out here after buying).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Suppressed {
    /// Suppressed entities excluded, by category.
    pub by_category: BTreeMap<String, u64>,
    /// Suppressed keys that did not fit in the request (filtered from the answers here).
    pub not_sent: u64,
    /// Those keys (domains, handles and ids), to filter with.
    #[serde(skip)]
    overflow: HashSet<String>,
    /// Every suppressed domain: a record at one of their subdomains (`shop.acme.com` for a
    /// suppressed `acme.com`), which the service's exact `excludeDomains` lets through, is
    /// left out here.
    #[serde(skip)]
    parents: HashSet<String>,
}

impl Suppressed {
    /// Every entity excluded.
    pub fn total(&self) -> u64 {
        self.by_category.values().sum()
    }

    /// `"5 suppressed (customers)"`, `"7 suppressed (customers 5, competitors 2)"`; `None`
    /// when nothing was.
    pub fn describe(&self) -> Option<String> {
        let mut text = describe_by(&self.by_category)?;
        if self.not_sent > 0 {
            text.push_str(&format!(
                "; {} more than a request carries are left out here after buying (up to {} results' credits more)",
                self.not_sent, self.not_sent
            ));
        }
        Some(text)
    }

    /// Whether [`Suppressed::filter`] may leave anything out (some keys were not sent, or a
    /// suppressed domain may have subdomains among the results).
    pub fn filters(&self) -> bool {
        !(self.overflow.is_empty() && self.parents.is_empty())
    }

    /// Whether a record at `domain` (as the service wrote it) is left out by
    /// [`Suppressed::filter`]: suppressed and not in the request, or at a subdomain of a
    /// suppressed domain.
    pub fn hits_domain(&self, domain: &str) -> bool {
        let d = prospect_common::keys::normalize_domain(domain);
        self.overflow.contains(&d)
            || (!self.parents.is_empty()
                && prospect_common::keys::registrable_domain(&d)
                    .is_some_and(|r| self.parents.contains(&r)))
    }

    /// Leaves out of `page` the records whose domain, handle or id is suppressed but was not
    /// in the request (past [`MAX_EXCLUDED`]), and those at a subdomain of a suppressed
    /// domain; returns how many.
    pub fn filter(&self, page: &mut SearchResponse) -> usize {
        if !self.filters() {
            return 0;
        }
        let hit = |domain: &str, handle: Option<String>, id: &str| {
            self.hits_domain(domain)
                || handle.is_some_and(|h| self.overflow.contains(&h))
                || (!id.is_empty() && self.overflow.contains(id))
        };
        let handle = |p: &prospect_api::types::Person| {
            p.linkedin_url
                .as_deref()
                .and_then(prospect_common::keys::linkedin_handle)
        };
        match page {
            SearchResponse::CompaniesV3(r) => {
                let n = r.companies.len();
                r.companies.retain(|c| !hit(&c.company.domain, None, ""));
                n - r.companies.len()
            }
            SearchResponse::CompaniesV2(r) => {
                let n = r.companies.len();
                r.companies.retain(|c| !hit(&c.company.domain, None, ""));
                n - r.companies.len()
            }
            SearchResponse::PeopleV3(r) => {
                let n = r.people.len();
                r.people
                    .retain(|p| !hit(&p.person.domain, handle(&p.person), &p.person.id));
                n - r.people.len()
            }
            SearchResponse::PeopleV2(r) => {
                let n = r.people.len();
                r.people.retain(|p| !hit(&p.domain, handle(p), &p.id));
                n - r.people.len()
            }
        }
    }
}

/// `"5 suppressed (customers)"`, `"7 suppressed (customers 5, competitors 2)"` of counts by
/// category (a plan's `suppressedBy`); `None` when they add up to 0.
pub fn describe_by(by_category: &BTreeMap<String, u64>) -> Option<String> {
    let total: u64 = by_category.values().sum();
    if total == 0 {
        return None;
    }
    let parts = if by_category.len() == 1 {
        by_category.keys().cloned().collect::<Vec<_>>().join(", ")
    } else {
        counts_by_category(by_category)
    };
    Some(format!("{total} suppressed ({parts})"))
}

/// `"customers 5, competitors 2"`: counts by category, as plans list them.
pub fn counts_by_category(by_category: &BTreeMap<String, u64>) -> String {
    by_category
        .iter()
        .map(|(c, n)| format!("{c} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The suppressed keys of each kind with their category, read from the store (empty when it
/// cannot be read: suppression never stops a search).
async fn lists(s: &Session) -> Vec<(SuppressKind, Vec<(String, String)>)> {
    with_store(s.store(), |st| {
        [
            SuppressKind::Domain,
            SuppressKind::Handle,
            SuppressKind::Person,
        ]
        .into_iter()
        .map(|k| st.suppressed_keys(k).map(|v| (k, v)))
        .collect()
    })
    .await
    .unwrap_or_default()
}

/// Adds the store's suppressed entities to a search body of `endpoint` as the API's exclude
/// filters (SPEC.md §2.4, §4.2, §4.3): domains to `companiesFilters.excludeDomains` (every
/// search), handles to `peopleFilters.excludeLinkedinHandles` and service ids to
/// `peopleFilters.excludePeopleIds` (v3 people search). Keys already in a list stay first;
/// the suppressed follow, sorted, at most [`MAX_EXCLUDED`] a list. Returns the body and what
/// was excluded. With no suppression (or a store that cannot be read) the body is unchanged.
pub async fn apply_to_body(s: &Session, endpoint: Endpoint, body: &Value) -> (Value, Suppressed) {
    let lists = lists(s).await;
    apply_lists(endpoint, body, &lists)
}

/// [`apply_to_body`] for a typed request (its cursor kept): the request to send and what was
/// excluded. A body that no longer builds (it always does: only exclude lists grow) is sent
/// as it was.
pub async fn apply_to_request(
    s: &Session,
    req: &crate::request::SearchRequest,
) -> (crate::request::SearchRequest, Suppressed) {
    let (body, sup) = apply_to_body(s, req.endpoint(), &req.body()).await;
    if sup.total() == 0 {
        return (req.clone(), sup);
    }
    match crate::request::build_search(req.endpoint(), &body) {
        Ok(r) => (
            r.with_search_after(req.search_after().map(str::to_string)),
            sup,
        ),
        Err(_) => (req.clone(), Suppressed::default()),
    }
}

/// [`apply_to_body`] with the lists given.
fn apply_lists(
    endpoint: Endpoint,
    body: &Value,
    lists: &[(SuppressKind, Vec<(String, String)>)],
) -> (Value, Suppressed) {
    let mut out = body.clone();
    let mut sup = Suppressed::default();
    let Value::Object(root) = &mut out else {
        return (out, sup);
    };
    for (kind, keys) in lists {
        if keys.is_empty() {
            continue;
        }
        if *kind == SuppressKind::Domain {
            sup.parents.extend(keys.iter().map(|(k, _)| k.clone()));
        }
        let (filters, member) = match (kind, endpoint) {
            (SuppressKind::Domain, _) => ("companiesFilters", "excludeDomains"),
            (SuppressKind::Handle, Endpoint::SearchPeopleV3) => {
                ("peopleFilters", "excludeLinkedinHandles")
            }
            (SuppressKind::Person, Endpoint::SearchPeopleV3) => {
                ("peopleFilters", "excludePeopleIds")
            }
            // A company search returns companies: people suppression does not apply.
            (_, Endpoint::SearchCompaniesV3 | Endpoint::SearchCompaniesV2) => continue,
            // v2 people filters have no exclude lists: those results are filtered here.
            (_, _) => {
                for (k, c) in keys {
                    sup.overflow.insert(k.clone());
                    *sup.by_category.entry(c.clone()).or_default() += 1;
                }
                sup.not_sent += keys.len() as u64;
                continue;
            }
        };
        let f = root
            .entry(filters)
            .or_insert_with(|| Value::Object(Default::default()));
        if !f.is_object() {
            *f = Value::Object(Default::default());
        }
        let Some(f) = f.as_object_mut() else { continue };
        let list = f.entry(member).or_insert_with(|| Value::Array(Vec::new()));
        if !list.is_array() {
            *list = Value::Array(Vec::new());
        }
        let Some(list) = list.as_array_mut() else {
            continue;
        };
        let mut present: HashSet<String> = list
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
        for (k, c) in keys {
            if present.contains(k) {
                continue;
            }
            *sup.by_category.entry(c.clone()).or_default() += 1;
            if list.len() >= MAX_EXCLUDED {
                sup.overflow.insert(k.clone());
                sup.not_sent += 1;
                continue;
            }
            present.insert(k.clone());
            list.push(Value::String(k.clone()));
        }
    }
    (out, sup)
}

/// Which of `domains` (as given) are suppressed, with the category: what a lookup or enrich of
/// companies refuses before sending. Empty when the store cannot be read.
pub async fn refused_domains(
    s: &Session,
    domains: Vec<String>,
) -> std::collections::HashMap<String, String> {
    with_store(s.store(), move |st| {
        st.suppressed_among(SuppressKind::Domain, &domains)
    })
    .await
    .unwrap_or_default()
}

/// Which of the people `ids` are suppressed, with the category: by id, by the handle of their
/// stored record, by their stored email, or by the domain they work at. What a reveal refuses
/// before sending. Empty when the store cannot be read.
pub async fn refused_people(
    s: &Session,
    ids: Vec<String>,
) -> std::collections::HashMap<String, String> {
    with_store(s.store(), move |st| {
        let mut out = st.suppressed_among(SuppressKind::Person, &ids)?;
        let people = st.people_by_ids(&ids)?;
        let emails = st.contacts_for(&ids, prospect_common::ContactKind::Email)?;
        // Each person's domain, handle and stored email, checked kind by kind in one read each.
        let mut keys: Vec<(SuppressKind, Vec<(String, String)>)> = vec![
            (SuppressKind::Domain, Vec::new()),
            (SuppressKind::Handle, Vec::new()),
            (SuppressKind::Email, Vec::new()),
        ];
        for id in ids.iter().filter(|id| !out.contains_key(*id)) {
            let person = people.get(id.trim()).map(|p| &p.value);
            let of = [
                person.map(|p| p.domain.clone()),
                person.and_then(|p| p.linkedin_url.clone()),
                emails.get(id.trim()).and_then(|c| c.email.clone()),
            ];
            for ((_, list), key) in keys.iter_mut().zip(of) {
                if let Some(k) = key.filter(|k| !k.trim().is_empty()) {
                    list.push((id.clone(), k));
                }
            }
        }
        suppressed_by_kind(st, keys, &mut out)?;
        Ok(out)
    })
    .await
    .unwrap_or_default()
}

/// Which people of a batch enrichment are suppressed, by their key, with the category: by the
/// id, handle or email they give, or the domain of their company or email (issue 16). What a
/// batch enrichment of people refuses before sending. Empty when the store cannot be read.
pub async fn refused_person_items(
    s: &Session,
    items: Vec<crate::engine::PersonItem>,
) -> std::collections::HashMap<String, String> {
    with_store(s.store(), move |st| {
        let mut out = std::collections::HashMap::new();
        let mut by: Vec<(SuppressKind, Vec<(String, String)>)> = vec![
            (SuppressKind::Person, Vec::new()),
            (SuppressKind::Handle, Vec::new()),
            (SuppressKind::Email, Vec::new()),
            (SuppressKind::Domain, Vec::new()),
        ];
        for item in &items {
            let p = &item.request.person;
            let email = p.email.as_deref().map(str::trim).filter(|e| !e.is_empty());
            let domain = item
                .request
                .company
                .as_ref()
                .and_then(|c| c.domain.clone())
                .or_else(|| {
                    email
                        .and_then(|e| e.rsplit_once('@'))
                        .map(|(_, d)| d.to_string())
                });
            let of = [
                item.id().map(str::to_string),
                item.handle().map(str::to_string),
                email.map(str::to_string),
                domain,
            ];
            for ((_, list), key) in by.iter_mut().zip(of) {
                if let Some(k) = key.filter(|k| !k.trim().is_empty()) {
                    list.push((item.key.clone(), k));
                }
            }
        }
        suppressed_by_kind(st, by, &mut out)?;
        Ok(out)
    })
    .await
    .unwrap_or_default()
}

/// For each kind, its `(item, value)` pairs read against the suppression list in one read: an
/// item whose value is suppressed goes into `out` with the category (the first kind that hits
/// it wins).
fn suppressed_by_kind(
    st: &prospect_store::Store,
    by: Vec<(SuppressKind, Vec<(String, String)>)>,
    out: &mut std::collections::HashMap<String, String>,
) -> Result<(), prospect_store::StoreError> {
    for (kind, list) in by {
        let values: Vec<String> = list.iter().map(|(_, v)| v.clone()).collect();
        let hit = st.suppressed_among(kind, &values)?;
        for (item, value) in list {
            if let Some(c) = hit.get(&value) {
                out.entry(item).or_insert_with(|| c.clone());
            }
        }
    }
    Ok(())
}

/// `"2 suppressed (customers)"` of refused keys by category; `None` for none.
pub fn describe_refused(refused: &std::collections::HashMap<String, String>) -> Option<String> {
    let mut by: BTreeMap<String, u64> = BTreeMap::new();
    for c in refused.values() {
        *by.entry(c.clone()).or_default() += 1;
    }
    Suppressed {
        by_category: by,
        ..Suppressed::default()
    }
    .describe()
}

/// One category as `prospect suppress list` writes it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CategoryRow {
    /// The category.
    pub category: String,
    /// Company domains.
    pub domains: u64,
    /// Email addresses.
    pub emails: u64,
    /// Professional-network handles.
    pub handles: u64,
    /// Service person ids.
    pub person_ids: u64,
    /// All of them.
    pub total: u64,
}

impl From<prospect_store::SuppressionCount> for CategoryRow {
    fn from(c: prospect_store::SuppressionCount) -> CategoryRow {
        let of = |k: SuppressKind| {
            c.by_kind
                .iter()
                .find(|(kind, _)| *kind == k)
                .map_or(0, |(_, n)| *n)
        };
        CategoryRow {
            domains: of(SuppressKind::Domain),
            emails: of(SuppressKind::Email),
            handles: of(SuppressKind::Handle),
            person_ids: of(SuppressKind::Person),
            total: c.total(),
            category: c.category,
        }
    }
}

impl crate::export::Tabular for CategoryRow {
    fn columns() -> &'static [&'static str] {
        &[
            "category",
            "domains",
            "emails",
            "handles",
            "personIds",
            "total",
        ]
    }
    fn cells(&self) -> Vec<String> {
        vec![
            self.category.clone(),
            self.domains.to_string(),
            self.emails.to_string(),
            self.handles.to_string(),
            self.person_ids.to_string(),
            self.total.to_string(),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A one-column list whose first line is its title (`domain`) is read as a CSV: the title
    /// is no entry (it was skipped as "no domain, email or profile").
    #[test]
    fn a_one_column_list_with_its_title_reads_the_title_as_the_header() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("customers.csv");
        std::fs::write(&f, "domain\nsage.com\nbmw.com\n").unwrap();
        let got = read_suppression_file(&f).unwrap();
        assert_eq!(
            got,
            vec![
                (SuppressKind::Domain, "sage.com".to_string()),
                (SuppressKind::Domain, "bmw.com".to_string())
            ]
        );
        assert!(unreadable(&got).is_empty());
    }

    #[test]
    fn a_hubspot_companies_export_is_read_by_its_headers() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("hubspot.csv");
        std::fs::write(
            &f,
            "\u{feff}Record ID,Company name,Company Domain Name,Email\r\n1,Acme,https://www.Acme.com/,\r\n2,Globex,globex.com,ann@globex.com\r\n",
        )
        .unwrap();
        let got = read_suppression_file(&f).unwrap();
        assert_eq!(
            got,
            vec![
                (SuppressKind::Domain, "https://www.Acme.com/".to_string()),
                (SuppressKind::Domain, "globex.com".to_string()),
                (SuppressKind::Email, "ann@globex.com".to_string()),
            ]
        );
        std::fs::write(&f, "Name,Phone\nAcme,123\n").unwrap();
        let e = read_suppression_file(&f).unwrap_err().to_string();
        assert!(
            e.contains("no domain, email or profile column (its columns: Name, Phone)"),
            "{e}"
        );
    }

    #[test]
    fn a_plain_list_is_read_by_the_shape_of_each_line() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("list.txt");
        std::fs::write(
            &f,
            "# customers\nacme.com\n\nbob@globex.com\nhttps://www.linkedin.com/in/jane-doe/\n",
        )
        .unwrap();
        assert_eq!(
            read_suppression_file(&f).unwrap(),
            vec![
                (SuppressKind::Domain, "acme.com".to_string()),
                (SuppressKind::Email, "bob@globex.com".to_string()),
                (
                    SuppressKind::Handle,
                    "https://www.linkedin.com/in/jane-doe/".to_string()
                ),
            ]
        );
        std::fs::write(&f, "\n# nothing\n").unwrap();
        assert!(read_suppression_file(&f).is_err());
        // Several on a line, a name with `id` in it: still entries, not a header.
        std::fs::write(&f, "video.com, acme.com\nglobex.com\n").unwrap();
        assert_eq!(
            read_suppression_file(&f).unwrap(),
            vec![
                (SuppressKind::Domain, "video.com".to_string()),
                (SuppressKind::Domain, "acme.com".to_string()),
                (SuppressKind::Domain, "globex.com".to_string()),
            ]
        );
    }

    #[test]
    fn suppressed_keys_join_the_exclude_lists_and_overflow_is_named() {
        let lists = vec![
            (
                SuppressKind::Domain,
                vec![
                    ("acme.com".to_string(), "customers".to_string()),
                    ("globex.com".to_string(), "competitors".to_string()),
                ],
            ),
            (
                SuppressKind::Handle,
                vec![("jane-doe".to_string(), "do-not-contact".to_string())],
            ),
        ];
        let body = json!({"companiesFilters": {"excludeDomains": ["x.com", "acme.com"]}});
        let (out, sup) = apply_lists(Endpoint::SearchPeopleV3, &body, &lists);
        assert_eq!(
            out,
            json!({
                "companiesFilters": {"excludeDomains": ["x.com", "acme.com", "globex.com"]},
                "peopleFilters": {"excludeLinkedinHandles": ["jane-doe"]}
            })
        );
        assert_eq!(
            sup.describe().as_deref(),
            Some("2 suppressed (competitors 1, do-not-contact 1)")
        );
        // A company search excludes the domains; people suppression does not apply to it.
        let (out, sup) = apply_lists(Endpoint::SearchCompaniesV3, &json!({}), &lists);
        assert_eq!(
            out,
            json!({"companiesFilters": {"excludeDomains": ["acme.com", "globex.com"]}})
        );
        assert_eq!((sup.total(), sup.not_sent), (2, 0));
        // v2 people filters have no handle list: the handle is filtered here.
        let (_, sup) = apply_lists(Endpoint::SearchPeopleV2, &json!({}), &lists);
        assert_eq!(sup.not_sent, 1);
        let many: Vec<(String, String)> = (0..MAX_EXCLUDED + 3)
            .map(|i| (format!("d{i:05}.com"), "customers".to_string()))
            .collect();
        let (out, sup) = apply_lists(
            Endpoint::SearchCompaniesV3,
            &json!({}),
            &[(SuppressKind::Domain, many)],
        );
        assert_eq!(
            out["companiesFilters"]["excludeDomains"]
                .as_array()
                .unwrap()
                .len(),
            MAX_EXCLUDED
        );
        assert_eq!((sup.total(), sup.not_sent), (MAX_EXCLUDED as u64 + 3, 3));
        assert!(
            sup.describe()
                .unwrap()
                .contains("3 more than a request carries")
        );
    }

    /// A subdomain of a suppressed domain (`shop.acme.com` of `acme.com`), which the service's
    /// exact `excludeDomains` lets through, is left out of the page here.
    #[test]
    fn subdomains_of_a_suppressed_domain_are_filtered_from_pages() {
        let lists = vec![(
            SuppressKind::Domain,
            vec![("acme.com".to_string(), "customers".to_string())],
        )];
        let (_, sup) = apply_lists(Endpoint::SearchCompaniesV3, &json!({}), &lists);
        let mut page: SearchResponse = SearchResponse::CompaniesV3(
            serde_json::from_value(json!({"companies": [
                {"company": {"domain": "shop.acme.com", "name": "Acme Shop"}},
                {"company": {"domain": "acme.co.uk", "name": "Acme UK"}},
                {"company": {"domain": "other.com", "name": "Other"}}
            ], "total": 3}))
            .unwrap(),
        );
        assert_eq!(sup.filter(&mut page), 1);
        let SearchResponse::CompaniesV3(r) = page else {
            panic!("companies")
        };
        let left: Vec<&str> = r
            .companies
            .iter()
            .map(|c| c.company.domain.as_str())
            .collect();
        assert_eq!(left, ["acme.co.uk", "other.com"]);
        // Rows rendered ahead are left out by the same rule, by their domain.
        assert!(sup.filters());
        let hit: Vec<bool> = ["Shop.Acme.com", "acme.co.uk", "other.com"]
            .iter()
            .map(|d| sup.hits_domain(d))
            .collect();
        assert_eq!(hit, [true, false, false]);
        let (_, none) = apply_lists(Endpoint::SearchCompaniesV3, &json!({}), &[]);
        assert!(!none.filters());
    }
}
