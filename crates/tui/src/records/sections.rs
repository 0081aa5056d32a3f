//! The sections of the details pane ([`Section`]) built from a typed company or person
//! record: its members under their wire names, sanitized.
use super::{e, join, n, t};
use prospect_api::types::{Company, Media, Medias, Person, PersonCompany, Relevance, WireEnum};
use prospect_common::sanitize::sanitize;

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
    let overview = company_overview(c, relevance, score);
    let locations = company_locations(c);
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
    let social = company_social(c);
    let mut funding = Vec::new();
    if let Some(f) = &c.funding_round {
        push(&mut funding, "type", e(f.kind.as_ref()));
        push(&mut funding, "date", t(f.date.as_deref()));
        push(&mut funding, "moneyRaisedInUsd", n(f.money_raised_in_usd));
        push(&mut funding, "cbUrl", t(f.cb_url.as_deref()));
    }
    let growth = company_growth(c);
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
    let pos = person_position(p, company, relevance);
    let contact = person_contact(p);
    let exp = person_experiences(p);
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

/// A company's overview: its names, domain, size, revenue, founding, countries, keywords,
/// emails, relevance or score, phones, web traffic and mobile apps.
fn company_overview(
    c: &Company,
    relevance: Option<&Relevance>,
    score: Option<f64>,
) -> Vec<(String, String)> {
    let mut overview = Vec::new();
    push(&mut overview, "name", t(c.name.as_deref()));
    push(&mut overview, "legalName", t(c.legal_name.as_deref()));
    push(&mut overview, "domain", sanitize(&c.domain));
    push(&mut overview, "rootUrl", t(c.root_url.as_deref()));
    push(&mut overview, "description", t(c.description.as_deref()));
    push(&mut overview, "size", e(c.company_size.as_ref()));
    push(&mut overview, "employees", n(c.employee_count_service));
    push(
        &mut overview,
        "employees (LinkedIn)",
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
    overview
}

/// A company's offices, the primary one first as listed.
fn company_locations(c: &Company) -> Vec<(String, String)> {
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
    locations
}

/// A company's social networks: the URL, else the handle.
fn company_social(c: &Company) -> Vec<(String, String)> {
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
    social
}

/// A company's headcount growth, whole and per department.
fn company_growth(c: &Company) -> Vec<(String, String)> {
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
    growth
}

/// A person's position: title, seniorities, departments, employer (`company.*`), place,
/// network, relevance, update and id.
fn person_position(
    p: &Person,
    company: Option<&PersonCompany>,
    relevance: Option<&Relevance>,
) -> Vec<(String, String)> {
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
        push(&mut pos, "company", t(c.name.as_deref()));
        push(&mut pos, "company size", e(c.company_size.as_ref()));
        push(&mut pos, "company revenue", e(c.revenue.as_ref()));
        push(&mut pos, "company industries", join(&c.industries));
        push(&mut pos, "company employees", n(c.employee_count_service));
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
    pos
}

/// A person's email and phone with their status, or "not revealed".
fn person_contact(p: &Person) -> Vec<(String, String)> {
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
    contact
}

/// A person's experiences, each with its description on a line of its own.
fn person_experiences(p: &Person) -> Vec<(String, String)> {
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
    exp
}
