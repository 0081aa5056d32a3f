//! Turning typed search responses into table rows and typed records into detail sections.
//! Every string from the service that leaves this module has been through [`sanitize`].
mod sections;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use super::msg::{PageData, Record, ResultRow};
use super::schema::SearchSubject;
use prospect_api::types::{Company, DomainStatus, Person, PersonCompany, Relevance, WireEnum};
use prospect_common::sanitize::sanitize;
use prospect_core::request::SearchResponse;

pub use sections::{Section, company_sections, person_sections};

/// Column titles of a results tab.
pub fn columns(kind: SearchSubject) -> &'static [&'static str] {
    match kind {
        SearchSubject::Companies => &[
            "name",
            "domain",
            "cc",
            "size",
            "industry",
            "year",
            "employees",
            "rel.",
            "segment",
            "fit",
            "new",
        ],
        SearchSubject::People => &[
            "name",
            "jobTitle",
            "company",
            "cc",
            "seniorities",
            "email / phone",
            "rel.",
            "revealed",
            "new",
        ],
    }
}

/// Service text as display text: sanitized; `""` for none.
fn t(s: Option<&str>) -> String {
    s.map(sanitize).unwrap_or_default()
}

/// A number as display text; `""` for none.
fn n<N: std::fmt::Display>(v: Option<N>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// A list of service texts joined with `, ` (sanitized, empty items left out).
fn join<S: AsRef<str>>(items: &[S]) -> String {
    items
        .iter()
        .map(|s| sanitize(s.as_ref()))
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A closed-set value (its wire string, sanitized: unknown values come from the service).
fn e<E: WireEnum>(v: Option<&E>) -> String {
    t(v.map(WireEnum::as_str))
}

fn company_cells(c: &Company, relevance: Option<&Relevance>, score: Option<f64>) -> Vec<String> {
    let industry = match c.industries.first() {
        Some(i) if !sanitize(i).is_empty() => sanitize(i),
        _ => t(c.linkedin_industry.as_deref()),
    };
    let rel = match relevance {
        Some(r) => e(Some(r)),
        None => score.map(|s| format!("{s:.2}")).unwrap_or_default(),
    };
    vec![
        t(c.name.as_deref()),
        sanitize(&c.domain),
        t(c.primary_country.as_deref()),
        e(c.company_size.as_ref()),
        industry,
        n(c.year_founded),
        n(c.employee_count_service),
        rel,
        // segment, fit: filled by an attribution (the Segments view).
        String::new(),
        String::new(),
        // new: filled by a run of a saved set (issue 37).
        String::new(),
    ]
}

/// The cell of the companies tab's `segment` column.
pub const SEGMENT_CELL: usize = 8;
/// The cell of the companies tab's `fit` column.
pub const FIT_CELL: usize = 9;

/// The text of the `new` cell of a row a saved set's run had not bought before (issue 37).
pub const NEW_MARK: &str = "new";

/// The cell of a tab's `new` column (the last): marked [`NEW_MARK`] for a row new to the
/// saved set whose run loaded it.
pub fn new_cell(kind: SearchSubject) -> usize {
    columns(kind).len() - 1
}

fn person_cells(
    p: &Person,
    company: Option<&PersonCompany>,
    relevance: Option<&Relevance>,
) -> Vec<String> {
    let employer = match company.and_then(|c| c.name.as_deref()).map(sanitize) {
        Some(name) if !name.is_empty() => name,
        _ => sanitize(&p.domain),
    };
    let title = match p.job_title_english.as_deref().map(sanitize) {
        Some(title) if !title.is_empty() => title,
        _ => t(p.job_title.as_deref()),
    };
    vec![
        t(p.name.as_deref()),
        title,
        employer,
        t(p.country.as_deref()),
        join(
            &p.seniorities
                .iter()
                .map(WireEnum::as_str)
                .collect::<Vec<_>>(),
        ),
        contact_cell(p),
        e(relevance),
        revealed_cell(p),
        // new: filled by a run of a saved set (issue 37).
        String::new(),
    ]
}

/// Whether a person's contacts are revealed (issue 16), from the contacts the record carries
/// (an answer's, or the freshest stored ones joined in).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revealed {
    /// An address or a number is known.
    Yes,
    /// A reveal was answered without one (`notFound`, …): nothing more to buy.
    Tried,
    /// A reveal is on its way (`inProgress`).
    Pending,
    /// Nothing revealed yet: what a reveal would buy.
    No,
    /// Not a person.
    NotApplicable,
}

/// Whether person `p` carries a revealed (email address, phone number).
fn known_contacts(p: &Person) -> (bool, bool) {
    let email = p
        .email
        .as_ref()
        .is_some_and(|m| m.address.as_deref().is_some_and(|a| !a.trim().is_empty()));
    let phone = p
        .phone
        .as_ref()
        .is_some_and(|ph| ph.numbers.iter().any(|n| !n.trim().is_empty()));
    (email, phone)
}

/// [`Revealed`] of person `p`.
pub fn revealed(p: &Person) -> Revealed {
    if known_contacts(p) != (false, false) {
        return Revealed::Yes;
    }
    let statuses = || {
        p.email
            .iter()
            .map(|m| m.status.as_str())
            .chain(p.phone.iter().map(|ph| ph.status.as_str()))
    };
    if statuses().any(|s| s == "inProgress") {
        Revealed::Pending
    } else if statuses().next().is_none() {
        Revealed::No
    } else {
        Revealed::Tried
    }
}

/// The texts of the revealed cell, per state: `email+phone`, `email`, `phone` (revealed),
/// `not found` (answered without one), `pending`, `""` (nothing revealed yet).
const REVEALED_TEXTS: [(&str, Revealed); 6] = [
    ("email+phone", Revealed::Yes),
    ("email", Revealed::Yes),
    ("phone", Revealed::Yes),
    ("not found", Revealed::Tried),
    ("pending", Revealed::Pending),
    ("", Revealed::No),
];

/// Index of the revealed cell in a people row ([`columns`]).
pub const REVEALED_CELL: usize = 7;

/// The revealed cell of a person (one of [`REVEALED_TEXTS`]).
fn revealed_cell(p: &Person) -> String {
    let text = match known_contacts(p) {
        (true, true) => REVEALED_TEXTS[0].0,
        (true, false) => REVEALED_TEXTS[1].0,
        (false, true) => REVEALED_TEXTS[2].0,
        (false, false) => match revealed(p) {
            Revealed::Tried => REVEALED_TEXTS[3].0,
            Revealed::Pending => REVEALED_TEXTS[4].0,
            _ => REVEALED_TEXTS[5].0,
        },
    };
    text.to_string()
}

impl ResultRow {
    /// Whether the row's contacts are revealed, read from its revealed cell (kept in step with
    /// the record whenever the cells are built): a comparison of a few bytes, so the revealed
    /// filter can test every row of a large page on each frame.
    /// [`Revealed::NotApplicable`] for a company row.
    pub fn revealed(&self) -> Revealed {
        if !matches!(self.record, Record::Person { .. }) {
            return Revealed::NotApplicable;
        }
        let cell = self.cells.get(REVEALED_CELL).map_or("", String::as_str);
        REVEALED_TEXTS
            .iter()
            .find(|(t, _)| *t == cell)
            .map_or(Revealed::No, |(_, r)| *r)
    }
}

/// A contact status in words (issue 38: the raw `notFound` was shown): `not found`,
/// `catch-all`, `in progress`; any other status as it is.
fn status_words(status: &str) -> String {
    match status {
        "notFound" => "not found".into(),
        "catchAll" => "catch-all".into(),
        "inProgress" => "in progress".into(),
        other => sanitize(other),
    }
}

/// The email / phone cell of a person: the revealed address and first number (each with
/// its status when not verified), the status alone when nothing was found, `""` when not
/// revealed; e.g. `ann@x.io · +4512345678`, `not found`, `in progress`.
fn contact_cell(p: &Person) -> String {
    let mut parts = Vec::new();
    if let Some(m) = &p.email {
        let addr = t(m.address.as_deref());
        let status = status_words(m.status.as_str());
        parts.push(match (addr.is_empty(), status.as_str()) {
            (true, _) => status,
            (false, "verified") => addr,
            (false, _) => format!("{addr} ({status})"),
        });
    }
    if let Some(ph) = &p.phone {
        let first = ph.numbers.first().map(|n| sanitize(n)).unwrap_or_default();
        let status = status_words(ph.status.as_str());
        let part = match (first.is_empty(), status.as_str()) {
            (true, _) => status,
            (false, "verified") => first,
            (false, _) => format!("{first} ({status})"),
        };
        // An email that was revealed says enough; a phone not found adds nothing.
        if part != "not found" || parts.is_empty() {
            parts.push(part);
        }
    }
    parts.join(" · ")
}

impl Record {
    /// The cells of this record's row, in the order of [`columns`] of its tab.
    pub fn cells(&self) -> Vec<String> {
        match self {
            Record::Company {
                company,
                relevance,
                score,
            } => company_cells(company, relevance.as_ref(), *score),
            Record::Person {
                person,
                company,
                relevance,
            } => person_cells(person, company.as_ref(), relevance.as_ref()),
        }
    }

    /// The sections of the details pane: [`company_sections`] or [`person_sections`].
    pub fn sections(&self) -> Vec<Section> {
        match self {
            Record::Company {
                company,
                relevance,
                score,
            } => company_sections(company, relevance.as_ref(), *score),
            Record::Person {
                person,
                company,
                relevance,
            } => person_sections(person, company.as_ref(), relevance.as_ref()),
        }
    }
}

/// The rows of a list's members ([`prospect_core::owned::ListRecords`]), in the list's order, and how
/// many of them the store holds a record of (a member known only by its key has none).
pub fn list_rows(records: prospect_core::owned::ListRecords) -> (Vec<ResultRow>, usize) {
    use prospect_core::owned::ListRecords;
    let mut known = 0;
    let rows = match records {
        ListRecords::Accounts(v) => v
            .into_iter()
            .map(|company| {
                known += usize::from(company.name.is_some());
                row(Record::Company {
                    company,
                    relevance: None,
                    score: None,
                })
            })
            .collect(),
        ListRecords::Contacts(v) => v
            .into_iter()
            .map(|p| {
                known += usize::from(p.person.name.is_some());
                row(Record::Person {
                    person: p.person,
                    company: p.company,
                    relevance: None,
                })
            })
            .collect(),
    };
    (rows, known)
}

fn row(record: Record) -> ResultRow {
    ResultRow {
        cells: record.cells(),
        record,
    }
}

fn notes<'a>(
    maps: impl IntoIterator<Item = &'a Option<BTreeMap<String, DomainStatus>>>,
) -> Vec<String> {
    maps.into_iter()
        .flatten()
        .flatten()
        .map(|(d, why)| format!("{}: {}", sanitize(d), sanitize(why.as_str())))
        .collect()
}

fn total(t: Option<i64>) -> Option<u64> {
    t.map(|t| t.max(0) as u64)
}

/// A page of results from a typed search answer (v2 or v3, companies or people): one row per
/// result item ([`prospect_core::export::items_of`]), cells sanitized, the notes of
/// `missingDomains` / `includeDomainsStatuses`, and how it ended for the paging rule.
pub fn page(resp: SearchResponse) -> PageData {
    let (notes, total_of, credits_used) = match &resp {
        SearchResponse::CompaniesV3(r) => (
            notes([&r.missing_domains, &r.include_domains_statuses]),
            r.total,
            r.credits_used,
        ),
        SearchResponse::CompaniesV2(r) => (notes([&r.missing_domains]), r.total, r.credits_used),
        SearchResponse::PeopleV3(r) => (
            notes([&r.include_domains_statuses]),
            r.total,
            r.credits_used,
        ),
        SearchResponse::PeopleV2(r) => (Vec::new(), r.total, r.credits_used),
    };
    let end = prospect_core::engine::PageEnd::of(&resp);
    PageData {
        notes,
        rows: prospect_core::export::items_of(resp)
            .into_iter()
            .map(|item| row(Record::from(item)))
            .collect(),
        total: total(total_of),
        end,
        credits_used,
        ..PageData::default()
    }
}
