//! Turning typed search responses into table rows and typed records into detail sections.
//! Every string from the service that leaves this module has been through [`sanitize`].
use std::collections::BTreeMap;

use super::msg::{PageData, Record, ResultRow};
use super::schema::Kind;
use crate::api::types::{
    Company, DomainStatus, Media, Medias, Person, PersonCompany, Relevance, WireEnum,
};
use crate::core::request::SearchResponse;
use crate::core::sanitize::sanitize;

/// Column titles of a results tab.
pub fn columns(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Companies => &[
            "name",
            "domain",
            "cc",
            "size",
            "industry",
            "year",
            "employees",
            "rel.",
        ],
        Kind::People => &[
            "name",
            "jobTitle",
            "company",
            "cc",
            "seniorities",
            "email / phone",
            "rel.",
            "revealed",
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
    ]
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

/// The email / phone cell of a person: the revealed address and first number (each with
/// its status when not verified), the status alone when nothing was found, `""` when not
/// revealed; e.g. `ann@x.io · +4512345678`, `notFound`, `inProgress`.
fn contact_cell(p: &Person) -> String {
    let mut parts = Vec::new();
    if let Some(m) = &p.email {
        let addr = t(m.address.as_deref());
        let status = sanitize(m.status.as_str());
        parts.push(match (addr.is_empty(), status.as_str()) {
            (true, _) => status,
            (false, "verified") => addr,
            (false, _) => format!("{addr} ({status})"),
        });
    }
    if let Some(ph) = &p.phone {
        let first = ph.numbers.first().map(|n| sanitize(n)).unwrap_or_default();
        let status = sanitize(ph.status.as_str());
        let part = match (first.is_empty(), status.as_str()) {
            (true, _) => status,
            (false, "verified") => first,
            (false, _) => format!("{first} ({status})"),
        };
        // An email that was revealed says enough; a phone not found adds nothing.
        if part != "notFound" || parts.is_empty() {
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

/// The rows of a list's members ([`crate::store::ListRecords`]), in the list's order, and how
/// many of them the store holds a record of (a member known only by its key has none).
pub fn list_rows(records: crate::store::ListRecords) -> (Vec<ResultRow>, usize) {
    use crate::store::ListRecords;
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

fn cursor(c: Option<String>) -> Option<String> {
    c.filter(|s| !s.is_empty())
}

/// A page of results from a typed search answer (v2 or v3, companies or people): one row per
/// result, cells sanitized, the notes of `missingDomains` / `includeDomainsStatuses`.
pub fn page(resp: SearchResponse) -> PageData {
    match resp {
        SearchResponse::CompaniesV3(r) => PageData {
            notes: notes([&r.missing_domains, &r.include_domains_statuses]),
            rows: r
                .companies
                .into_iter()
                .map(|c| {
                    row(Record::Company {
                        company: c.company,
                        relevance: c.relevance,
                        score: None,
                    })
                })
                .collect(),
            total: total(r.total),
            search_after: cursor(r.search_after),
            credits_used: r.credits_used,
            ..PageData::default()
        },
        SearchResponse::CompaniesV2(r) => PageData {
            notes: notes([&r.missing_domains]),
            rows: r
                .companies
                .into_iter()
                .map(|c| {
                    row(Record::Company {
                        company: c.company,
                        relevance: None,
                        score: c.score,
                    })
                })
                .collect(),
            total: total(r.total),
            search_after: cursor(r.search_after),
            credits_used: r.credits_used,
            ..PageData::default()
        },
        SearchResponse::PeopleV3(r) => PageData {
            notes: notes([&r.include_domains_statuses]),
            rows: r
                .people
                .into_iter()
                .map(|p| {
                    row(Record::Person {
                        person: p.person,
                        company: p.company,
                        relevance: p.relevance,
                    })
                })
                .collect(),
            total: total(r.total),
            search_after: cursor(r.search_after),
            credits_used: r.credits_used,
            ..PageData::default()
        },
        SearchResponse::PeopleV2(r) => PageData {
            notes: Vec::new(),
            rows: r
                .people
                .into_iter()
                .map(|p| {
                    row(Record::Person {
                        person: p,
                        company: None,
                        relevance: None,
                    })
                })
                .collect(),
            total: total(r.total),
            search_after: cursor(r.search_after),
            credits_used: r.credits_used,
            ..PageData::default()
        },
    }
}

/// One section of the details pane.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// Heading, e.g. `Overview`.
    pub title: &'static str,
    /// `(label, value)` lines; a value may be long (the view wraps or cuts it).
    pub lines: Vec<(String, String)>,
}

/// Adds `label: text` unless the text is empty.
fn push(lines: &mut Vec<(String, String)>, label: &str, text: String) {
    if !text.is_empty() {
        lines.push((label.to_string(), text));
    }
}

/// The social networks of [`Medias`] with their wire names, in name order.
fn medias(m: &Medias) -> [(&'static str, Option<&Media>); 7] {
    [
        ("facebook", m.facebook.as_ref()),
        ("instagram", m.instagram.as_ref()),
        ("linkedin", m.linkedin.as_ref()),
        ("tiktok", m.tiktok.as_ref()),
        ("twitter", m.twitter.as_ref()),
        ("xing", m.xing.as_ref()),
        ("youtube", m.youtube.as_ref()),
    ]
}

/// The sections of a company result (SPEC.md §2.3): overview (with the v3 relevance or the v2
/// score), locations, industries, technologies, social media, funding, headcount growth,
/// department sizes. Labels are the wire member names.
pub fn company_sections(
    c: &Company,
    relevance: Option<&Relevance>,
    score: Option<f64>,
) -> Vec<Section> {
    let mut overview = Vec::new();
    push(&mut overview, "name", t(c.name.as_deref()));
    push(&mut overview, "legalName", t(c.legal_name.as_deref()));
    push(&mut overview, "domain", sanitize(&c.domain));
    push(&mut overview, "rootUrl", t(c.root_url.as_deref()));
    push(&mut overview, "description", t(c.description.as_deref()));
    push(&mut overview, "companySize", e(c.company_size.as_ref()));
    push(
        &mut overview,
        "employeeCountService",
        n(c.employee_count_service),
    );
    push(
        &mut overview,
        "employeeCountLinkedin",
        n(c.employee_count_linkedin),
    );
    push(&mut overview, "revenue", e(c.revenue.as_ref()));
    push(&mut overview, "yearFounded", n(c.year_founded));
    push(&mut overview, "ecommerce", n(c.ecommerce));
    push(
        &mut overview,
        "primaryCountry",
        t(c.primary_country.as_deref()),
    );
    push(&mut overview, "countries", join(&c.countries));
    push(&mut overview, "keywords", join(&c.keywords));
    push(&mut overview, "emails", join(&c.emails));
    push(&mut overview, "relevance", e(relevance));
    push(&mut overview, "score", n(score));
    for p in &c.phones {
        overview.push((
            "phone".into(),
            format!("{} ({})", sanitize(&p.number), t(p.country.as_deref())),
        ));
    }
    if let Some(w) = &c.web_traffic {
        overview.push((
            "webTraffic".into(),
            format!(
                "visits {} · pageViews {} · pagesPerVisit {} · bounceRate {}",
                n(w.visits),
                n(w.page_views),
                n(w.pages_per_visit),
                n(w.bounce_rate)
            ),
        ));
    }
    for a in &c.mobile_apps {
        overview.push((
            "mobileApp".into(),
            format!("{} {}", sanitize(&a.name), t(a.link.as_deref())),
        ));
    }
    let mut locations = Vec::new();
    for l in &c.locations {
        let parts: Vec<String> = [
            &l.street_address,
            &l.postal_code,
            &l.locality,
            &l.region,
            &l.country,
        ]
        .into_iter()
        .map(|p| t(p.as_deref()))
        .filter(|s| !s.is_empty())
        .collect();
        let label = if l.primary { "primary" } else { "office" };
        locations.push((label.to_string(), parts.join(", ")));
    }
    let mut industries = Vec::new();
    push(
        &mut industries,
        "industryCategories",
        join(&c.industry_categories),
    );
    push(&mut industries, "industries", join(&c.industries));
    push(
        &mut industries,
        "linkedinIndustry",
        t(c.linkedin_industry.as_deref()),
    );
    let mut tech = Vec::new();
    push(&mut tech, "technologies", join(&c.technologies));
    push(
        &mut tech,
        "technologyCategories",
        join(&c.technology_categories),
    );
    let mut social = Vec::new();
    for (net, m) in c.medias.as_ref().map(medias).into_iter().flatten() {
        let Some(m) = m else { continue };
        let url = sanitize(&m.url);
        let text = if url.is_empty() {
            t(m.handle.as_deref())
        } else {
            url
        };
        if !text.is_empty() {
            social.push((net.to_string(), text));
        }
    }
    let mut funding = Vec::new();
    if let Some(f) = &c.funding_round {
        push(&mut funding, "type", e(f.kind.as_ref()));
        push(&mut funding, "date", t(f.date.as_deref()));
        push(&mut funding, "moneyRaisedInUsd", n(f.money_raised_in_usd));
        push(&mut funding, "cbUrl", t(f.cb_url.as_deref()));
    }
    let mut growth = Vec::new();
    if let Some(g) = &c.headcount_growth {
        push(&mut growth, "threeMonths", n(g.three_months));
        push(&mut growth, "sixMonths", n(g.six_months));
        push(&mut growth, "twelveMonths", n(g.twelve_months));
    }
    for d in &c.headcount_growth_per_department {
        let g = d.growth.as_ref();
        growth.push((
            sanitize(d.department.as_str()),
            format!(
                "3m {} · 6m {} · 12m {}",
                n(g.and_then(|g| g.three_months)),
                n(g.and_then(|g| g.six_months)),
                n(g.and_then(|g| g.twelve_months))
            ),
        ));
    }
    let depts = c
        .department_sizes
        .iter()
        .map(|d| (sanitize(d.department.as_str()), d.size.to_string()))
        .collect();
    vec![
        Section {
            title: "Overview",
            lines: overview,
        },
        Section {
            title: "Locations",
            lines: locations,
        },
        Section {
            title: "Industries",
            lines: industries,
        },
        Section {
            title: "Technologies",
            lines: tech,
        },
        Section {
            title: "Social media",
            lines: social,
        },
        Section {
            title: "Funding",
            lines: funding,
        },
        Section {
            title: "Headcount growth",
            lines: growth,
        },
        Section {
            title: "Department sizes",
            lines: depts,
        },
    ]
}

/// The sections of a person result (SPEC.md §2.1, §2.2): position (with the v3 employer
/// summary as `company.*` and the relevance), contact (email and phone with their status, or
/// "not revealed"), experiences, about. Labels are the wire member names.
pub fn person_sections(
    p: &Person,
    company: Option<&PersonCompany>,
    relevance: Option<&Relevance>,
) -> Vec<Section> {
    let mut pos = Vec::new();
    push(&mut pos, "name", t(p.name.as_deref()));
    push(&mut pos, "jobTitle", t(p.job_title.as_deref()));
    push(
        &mut pos,
        "jobTitleEnglish",
        t(p.job_title_english.as_deref()),
    );
    push(&mut pos, "headline", t(p.headline.as_deref()));
    push(
        &mut pos,
        "seniorities",
        join(
            &p.seniorities
                .iter()
                .map(WireEnum::as_str)
                .collect::<Vec<_>>(),
        ),
    );
    push(
        &mut pos,
        "departments",
        join(
            &p.departments
                .iter()
                .map(WireEnum::as_str)
                .collect::<Vec<_>>(),
        ),
    );
    push(&mut pos, "domain", sanitize(&p.domain));
    if let Some(c) = company {
        push(&mut pos, "company.name", t(c.name.as_deref()));
        push(&mut pos, "company.companySize", e(c.company_size.as_ref()));
        push(&mut pos, "company.revenue", e(c.revenue.as_ref()));
        push(&mut pos, "company.industries", join(&c.industries));
        push(
            &mut pos,
            "company.employeeCountService",
            n(c.employee_count_service),
        );
    }
    push(&mut pos, "location", t(p.location.as_deref()));
    push(&mut pos, "country", t(p.country.as_deref()));
    push(&mut pos, "state", t(p.state.as_deref()));
    push(&mut pos, "linkedinUrl", t(p.linkedin_url.as_deref()));
    push(&mut pos, "connectionsCount", n(p.connections_count));
    push(&mut pos, "followersCount", n(p.followers_count));
    push(&mut pos, "relevance", e(relevance));
    push(&mut pos, "updatedAt", t(p.updated_at.as_deref()));
    push(&mut pos, "id", sanitize(&p.id));
    let mut contact = Vec::new();
    match &p.email {
        Some(m) => {
            let addr = t(m.address.as_deref());
            contact.push((
                "email".into(),
                format!(
                    "{} [{}]",
                    if addr.is_empty() { "—".into() } else { addr },
                    sanitize(m.status.as_str())
                ),
            ));
        }
        None => contact.push(("email".into(), "not revealed".into())),
    }
    match &p.phone {
        Some(ph) => {
            let nums = join(&ph.numbers);
            contact.push((
                "phone".into(),
                format!(
                    "{} [{}]",
                    if nums.is_empty() { "—".into() } else { nums },
                    sanitize(ph.status.as_str())
                ),
            ));
        }
        None => contact.push(("phone".into(), "not revealed".into())),
    }
    let mut exp = Vec::new();
    for x in &p.experiences {
        let to = t(x.date_to.as_deref());
        exp.push((
            format!(
                "{}–{}",
                t(x.date_from.as_deref()),
                if to.is_empty() { "now".into() } else { to }
            ),
            format!("{} @ {}", t(x.job_title.as_deref()), t(x.domain.as_deref())),
        ));
        let d = t(x.description.as_deref());
        if !d.is_empty() {
            exp.push((String::new(), d));
        }
    }
    let mut about = Vec::new();
    push(&mut about, "summary", t(p.summary.as_deref()));
    push(
        &mut about,
        "currentJobDescription",
        t(p.current_job_description.as_deref()),
    );
    push(&mut about, "skills", join(&p.skills));
    vec![
        Section {
            title: "Position",
            lines: pos,
        },
        Section {
            title: "Email and phone",
            lines: contact,
        },
        Section {
            title: "Experiences",
            lines: exp,
        },
        Section {
            title: "About",
            lines: about,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn typed<T: serde::de::DeserializeOwned>(v: Value) -> T {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn company_pages_from_v2_and_v3_answers_are_sanitized() {
        let v3 = typed(
            json!({"total": 2, "searchAfter": "abc", "creditsUsed": 0.2, "companies": [
            {"company": {"name": "Acme\u{1b}[31m", "domain": "acme.com", "industries": ["Software"], "yearFounded": 1999}, "relevance": "A"}],
            "includeDomainsStatuses": {"y.io": "in progress"}}),
        );
        let p = page(SearchResponse::CompaniesV3(v3));
        assert_eq!(p.total, Some(2));
        assert_eq!(p.search_after.as_deref(), Some("abc"));
        assert_eq!(p.credits_used, 0.2);
        assert_eq!(p.rows[0].cells[0], "Acme");
        assert_eq!(p.rows[0].cells[4], "Software");
        assert_eq!(p.rows[0].cells[5], "1999");
        assert_eq!(p.rows[0].cells[7], "A");
        assert_eq!(p.notes, vec!["y.io: in progress"]);
        assert_eq!(
            p.rows[0].record.company().map(|c| c.domain.as_str()),
            Some("acme.com")
        );
        let v2 = typed(
            json!({"companies": [{"company": {"name": "B", "domain": "b.io", "linkedinIndustry": "Banking"}, "score": 0.912}],
            "missingDomains": {"x.io": "bad content"}, "searchAfter": ""}),
        );
        let p = page(SearchResponse::CompaniesV2(v2));
        assert_eq!(p.rows[0].cells[4], "Banking");
        assert_eq!(p.rows[0].cells[7], "0.91");
        assert_eq!(p.notes, vec!["x.io: bad content"]);
        assert_eq!(p.search_after, None);
        let s = p.rows[0].record.sections();
        assert!(
            s[0].lines
                .contains(&("score".to_string(), "0.912".to_string()))
        );
    }

    #[test]
    fn people_pages_from_v2_and_v3_answers() {
        let v3 = typed(
            json!({"total": 1, "people": [{"id": "p1", "domain": "x.io", "name": "Ann",
            "jobTitle": "Leiterin", "jobTitleEnglish": "Head", "seniorities": ["Head", "VP"],
            "email": {"address": "ann@x.io", "status": "verified"}, "company": {"name": "X"}, "relevance": "B"}]}),
        );
        let p = page(SearchResponse::PeopleV3(v3));
        assert_eq!(
            p.rows[0].cells,
            ["Ann", "Head", "X", "", "Head, VP", "ann@x.io", "B", "email"]
        );
        assert!(p.rows[0].record.company().is_none());
        let v2 = typed(
            json!({"people": [{"id": "p2", "domain": "y.io", "name": "Bo\u{7}b"}], "total": -3}),
        );
        let p = page(SearchResponse::PeopleV2(v2));
        assert_eq!(p.rows[0].cells, ["Bob", "", "y.io", "", "", "", "", ""]);
        assert_eq!(p.total, Some(0));
    }

    #[test]
    fn revealed_states_of_people() {
        let cases = [
            (json!({"id": "1"}), Revealed::No, ""),
            (
                json!({"id": "1", "email": {"address": "a@x.io", "status": "verified"}}),
                Revealed::Yes,
                "email",
            ),
            (
                json!({"id": "1", "email": {"address": "a@x.io", "status": "catchAll"},
                    "phone": {"numbers": ["+4512"], "status": "verified"}}),
                Revealed::Yes,
                "email+phone",
            ),
            (
                json!({"id": "1", "phone": {"numbers": ["+4512"], "status": "verified"}}),
                Revealed::Yes,
                "phone",
            ),
            (
                json!({"id": "1", "email": {"status": "notFound"}}),
                Revealed::Tried,
                "not found",
            ),
            (
                json!({"id": "1", "email": {"status": "inProgress"}}),
                Revealed::Pending,
                "pending",
            ),
        ];
        for (person, state, cell) in cases {
            let p: Person = typed(person.clone());
            assert_eq!(revealed(&p), state, "{person}");
            assert_eq!(revealed_cell(&p), cell, "{person}");
            let r = row(Record::Person {
                person: p,
                company: None,
                relevance: None,
            });
            assert_eq!(r.revealed(), state, "the cell gives the state back");
        }
    }

    #[test]
    fn person_sections_show_status() {
        let p: Person = typed(json!({"id": "1", "domain": "x.io", "name": "Ann",
            "email": {"address": "ann@x.io", "status": "verified"}, "phone": null,
            "experiences": [{"dateFrom": "2020-01-01", "jobTitle": "CTO", "domain": "x.io"}]}));
        let s = person_sections(&p, None, None);
        assert_eq!(s[1].lines[0].1, "ann@x.io [verified]");
        assert_eq!(s[1].lines[1].1, "not revealed");
        assert_eq!(s[2].lines[0].0, "2020-01-01–now");
        assert_eq!(s[2].lines[0].1, "CTO @ x.io");
    }

    #[test]
    fn company_sections_keep_their_labels() {
        let c: Company = typed(json!({"domain": "a.com", "name": "A",
            "medias": {"twitter": {"url": "", "handle": "a"}, "linkedin": {"url": "https://l/a"}},
            "locations": [{"primary": true, "locality": "Berlin", "country": "de"}, {"country": "fr"}],
            "departmentSizes": [{"department": "Sales", "size": 3}]}));
        let s = company_sections(&c, Some(&Relevance::C), None);
        assert_eq!(s[0].lines[0], ("name".to_string(), "A".to_string()));
        assert!(
            s[0].lines
                .contains(&("relevance".to_string(), "C".to_string()))
        );
        assert_eq!(
            s[1].lines,
            vec![
                ("primary".to_string(), "Berlin, de".to_string()),
                ("office".to_string(), "fr".to_string())
            ]
        );
        assert_eq!(
            s[4].lines,
            vec![
                ("linkedin".to_string(), "https://l/a".to_string()),
                ("twitter".to_string(), "a".to_string())
            ]
        );
        assert_eq!(s[7].lines, vec![("Sales".to_string(), "3".to_string())]);
    }
}
