//! The wire records, built on demand for the returned page only: `Company` (SPEC.md §2.3),
//! `Person` (§2.1), `LookalikePerson`, and the generated texts of people (job descriptions,
//! summary, headline).

use std::fmt::Write as _;

use crate::dataset::load::Db;
use prospect_api::types::common::{Department, Seniority, WireEnum};

use super::people::{Exp, PersonRow};

/// Display names of interned ids.
fn names(int: &super::index::Interner, ids: &[u32]) -> Vec<String> {
    ids.iter().map(|&i| int.name(i).to_string()).collect()
}

/// The first (primary) industry of company `ci`, if any.
fn first_industry(db: &Db, ci: u32) -> Option<&str> {
    db.cols[ci as usize]
        .industries_ord
        .first()
        .map(|&i| db.vocab.industries.name(i))
}

/// Writes the generated current job description of a person into `out`.
pub fn current_job_description(db: &Db, p: &PersonRow, out: &mut String) {
    let c = &db.companies[p.company as usize];
    let t = &db.people.titles[p.title as usize];
    let dept = Department::ALL[p.department as usize].as_str();
    let industry = first_industry(db, p.company).unwrap_or("its market");
    let _ = write!(out, "{} at {}, working in {dept}", t.title, c.name);
    let _ = write!(out, " for a company in {industry}");
    let kws: Vec<&str> = db.cols[p.company as usize]
        .keywords_ord
        .iter()
        .take(2)
        .map(|&k| db.vocab.keywords.name(k))
        .collect();
    if !kws.is_empty() {
        let _ = write!(out, ", with a focus on {}", kws.join(" and "));
    }
    out.push('.');
}

/// Writes the generated profile summary of a person into `out`.
pub fn summary(db: &Db, p: &PersonRow, out: &mut String) {
    let t = &db.people.titles[p.title as usize];
    let years = 3 + (p.seed % 25);
    let industry = first_industry(db, p.company).unwrap_or("business");
    let _ = write!(
        out,
        "{} with {years} years of experience in {industry}.",
        t.title
    );
    let mut skills = Vec::new();
    db.people.skill_ids(p, &mut skills);
    let names: Vec<&str> = skills
        .iter()
        .take(3)
        .map(|s| db.people.skills[*s as usize].as_str())
        .collect();
    if !names.is_empty() {
        let _ = write!(out, " Skilled in {}.", names.join(", "));
    }
    let sen = Seniority::ALL[p.seniority as usize].as_str();
    if sen != "Other" {
        let _ = write!(out, " {sen}-level leader.");
    }
}

/// Writes the description of one experience into `out`.
pub fn experience_description(db: &Db, e: &Exp, out: &mut String) {
    let c = &db.companies[e.company as usize];
    let t = &db.people.titles[e.title as usize];
    let _ = write!(out, "{} at {}", t.title, c.name);
    if let Some(ind) = first_industry(db, e.company) {
        let _ = write!(out, " ({ind})");
    }
    out.push('.');
}

use prospect_api::types::common::{CompanySize, FundingRoundType, Relevance, Revenue};
use prospect_api::types::company::{
    Company, CompanyLocation, ContactNumber, DepartmentSize, DepartmentSizesGrowth, FundingRound,
    HeadcountGrowth, Impressum, ImpressumPerson, Media, Medias, MobileApp, PreviewCompany,
    WebTraffic,
};
use prospect_api::types::person::{
    Email, Experience, LookalikePerson, Person, PersonCompany, PersonPreviewBase, Phone,
};

use super::filters::absolute_growth;
use super::index::{IMPRESSUM_COUNTRIES, department_growth_of, phone_parts};
use super::people::ym_date;
use super::{DATA_DATE, mix64};

/// `updatedAt` of a record updated `months_ago` months before [`DATA_DATE`] (`YYYY-MM-DD`).
pub fn updated_at(months_ago: u32, salt: u64) -> String {
    let (y, m) = DATA_DATE;
    let total = y * 12 + m as i32 - 1 - months_ago as i32;
    let day = 1 + (mix64(salt) % 28) as u32;
    let (yy, mm) = ((total / 12) as u32, (total % 12 + 1) as u32);
    let d = |n: u32| char::from(b'0' + (n % 10) as u8);
    let mut s = String::with_capacity(10);
    for c in [
        d(yy / 1000),
        d(yy / 100),
        d(yy / 10),
        d(yy),
        '-',
        d(mm / 10),
        d(mm),
        '-',
        d(day / 10),
        d(day),
    ] {
        s.push(c);
    }
    s
}

/// The concatenation of `parts`, allocated once.
fn concat(parts: &[&str]) -> String {
    let mut s = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        s.push_str(p);
    }
    s
}

/// The URL of a social profile (network as in the dataset: `linkedin`, `twitter`, ...).
pub fn media_url(network: &str, handle: &str) -> String {
    let base = match network {
        "linkedin" => "https://www.linkedin.com/company/",
        "twitter" | "x" => "https://x.com/",
        "facebook" => "https://www.facebook.com/",
        "youtube" => "https://www.youtube.com/@",
        "instagram" => "https://www.instagram.com/",
        "xing" => "https://www.xing.com/pages/",
        "tiktok" => "https://www.tiktok.com/@",
        other => return concat(&["https://", other, ".example/", handle]),
    };
    concat(&[base, handle])
}

fn growth(now: f64, g: [f64; 3]) -> HeadcountGrowth {
    let r = |x: f64| (x * 10_000.0).round() / 10_000.0;
    HeadcountGrowth {
        three_months: Some(absolute_growth(now, g[0])),
        three_months_percentage: Some(r(g[0])),
        six_months: Some(absolute_growth(now, g[1])),
        six_months_percentage: Some(r(g[1])),
        twelve_months: Some(absolute_growth(now, g[2])),
        twelve_months_percentage: Some(r(g[2])),
    }
}

fn funding_round(f: &crate::dataset::format::FundingRow) -> FundingRound {
    FundingRound {
        date: Some(f.date.clone()),
        kind: Some(FundingRoundType::from_wire(&f.kind)),
        money_raised_in_usd: Some(f.money_raised_usd.round() as i64),
        cb_url: None,
    }
}

/// The logo URL of a company (its site's favicon).
pub fn logo(domain: &str) -> String {
    concat(&["https://", domain, "/favicon.ico"])
}

/// The company record of company `i` (SPEC.md §2.3, every field the dataset has).
pub fn company(db: &Db, i: u32) -> Company {
    let row = &db.companies[i as usize];
    let domain_hash = super::hash_str(&row.domain);
    let c = &db.cols[i as usize];
    let mut medias = Medias::default();
    for (net, handle) in row.medias.iter().filter(|(n, _)| {
        matches!(
            n.as_str(),
            "linkedin" | "twitter" | "x" | "youtube" | "facebook" | "xing" | "tiktok" | "instagram"
        )
    }) {
        let m = Some(Media {
            url: media_url(net, handle),
            handle: Some(handle.clone()),
            name: Some(row.name.clone()),
            ..Default::default()
        });
        match net.as_str() {
            "linkedin" => medias.linkedin = m,
            "twitter" | "x" => medias.twitter = m,
            "youtube" => medias.youtube = m,
            "facebook" => medias.facebook = m,
            "xing" => medias.xing = m,
            "tiktok" => medias.tiktok = m,
            "instagram" => medias.instagram = m,
            _ => {}
        }
    }
    let mut locations = vec![CompanyLocation {
        primary: true,
        latitude: row.lat_lon.map(|l| l.0),
        longitude: row.lat_lon.map(|l| l.1),
        country: Some(row.country.clone()),
        locality: row.city.clone(),
        region: row.region.clone(),
        postal_code: row.postal_code.clone(),
        street_address: row.street_address.clone(),
        state: row.region.clone(),
        region_code: row.region_code.clone(),
    }];
    for cc in row.countries.iter().filter(|cc| **cc != row.country) {
        locations.push(CompanyLocation {
            primary: false,
            country: Some(cc.clone()),
            ..Default::default()
        });
    }
    let impressum = IMPRESSUM_COUNTRIES
        .contains(&row.country.as_str())
        .then(|| Impressum {
            company: Some(row.legal_name.clone().unwrap_or_else(|| row.name.clone())),
            address: Some(
                [
                    row.street_address.as_deref(),
                    row.postal_code.as_deref(),
                    row.city.as_deref(),
                ]
                .iter()
                .flatten()
                .copied()
                .collect::<Vec<_>>()
                .join(", "),
            ),
            email: row.emails.first().cloned(),
            phone: row
                .phones
                .first()
                .map(|(a, b)| phone_parts(a, b).0.to_string()),
            fax: None,
            vat: Some(format!(
                "{}{}",
                row.country.to_uppercase(),
                mix64(domain_hash) % 1_000_000_000
            )),
            url: Some(format!("https://{}/impressum", row.domain)),
            people: db
                .person_rows
                .get(c.people.0 as usize)
                .filter(|_| c.people.1 > c.people.0)
                .map(|p| {
                    let (f, l) = db.people.names(p);
                    vec![ImpressumPerson {
                        name: format!("{f} {l}"),
                        position: Some("Geschäftsführer".into()),
                    }]
                })
                .unwrap_or_default(),
        });
    Company {
        domain: row.domain.clone(),
        countries: row.countries.clone(),
        primary_country: Some(row.country.clone()),
        company_size: Some(CompanySize::ALL[c.size as usize].clone()),
        industry_categories: names(&db.vocab.categories, &c.categories_ord),
        industries: names(&db.vocab.industries, &c.industries_ord),
        linkedin_industry: row.linkedin_industry.clone(),
        ecommerce: Some(row.ecommerce),
        keywords: names(&db.vocab.keywords, &c.keywords_ord),
        employee_count_service: Some(row.employees as i64),
        employee_count_linkedin: Some(row.employees_linkedin as i64),
        revenue: Some(Revenue::ALL[c.revenue as usize].clone()),
        year_founded: row.year_founded.map(i64::from),
        description: (!row.description.trim().is_empty()).then(|| row.description.clone()),
        emails: row.emails.clone(),
        phones: row
            .phones
            .iter()
            .enumerate()
            .map(|(j, (a, b))| {
                let (number, cc) = phone_parts(a, b);
                ContactNumber {
                    number: number.to_string(),
                    country: Some(cc.to_string()),
                    primary: Some(j == 0),
                }
            })
            .collect(),
        logo: Some(logo(&row.domain)),
        technologies: names(&db.vocab.technologies, &c.technologies_ord),
        technology_categories: names(&db.vocab.tech_categories, &c.tech_categories_ord),
        mobile_apps: row
            .mobile_apps
            .iter()
            .map(|(name, link)| MobileApp {
                link: Some(link.clone()),
                name: name.clone(),
            })
            .collect(),
        web_traffic: (row.traffic.visits > 0).then_some(WebTraffic {
            visits: Some(row.traffic.visits as i64),
            page_views: Some(row.traffic.page_views as i64),
            pages_per_visit: Some(row.traffic.pages_per_visit),
            bounce_rate: Some(row.traffic.bounce_rate),
        }),
        medias: (!row.medias.is_empty()).then_some(medias),
        name: Some(row.name.clone()),
        legal_name: row.legal_name.clone(),
        locations,
        department_sizes: c
            .dept_sizes
            .iter()
            .map(|(d, n)| DepartmentSize {
                department: Department::ALL[*d as usize].clone(),
                size: *n as i64,
            })
            .collect(),
        root_url: Some(concat(&["https://", &row.domain])),
        faxes: Vec::new(),
        impressum,
        funding_round: row.funding.as_ref().map(funding_round),
        redirected_from: Vec::new(),
        updated_at: Some(updated_at(c.updated_ago as u32, domain_hash)),
        headcount_growth: Some(growth(row.employees as f64, row.headcount_growth)),
        headcount_growth_per_department: c
            .dept_sizes
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(d, n)| DepartmentSizesGrowth {
                department: Department::ALL[*d as usize].clone(),
                growth: Some(growth(
                    *n as f64,
                    department_growth_of(domain_hash, row.headcount_growth, *d),
                )),
            })
            .collect(),
    }
}

/// The location text of a person (`City, Region, Country`).
pub fn person_location(db: &Db, p: &PersonRow) -> String {
    let row = &db.companies[p.company as usize];
    let country = db
        .reference
        .countries
        .iter()
        .find(|(cc, _)| *cc == row.country)
        .map(|(_, n)| n.as_str())
        .unwrap_or(row.country.as_str());
    [row.city.as_deref(), row.region.as_deref(), Some(country)]
        .iter()
        .flatten()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(", ")
}

/// The person record of person `pi` (SPEC.md §2.1), without email and phone (those are only
/// given by a reveal; see [`reveal_into`]).
pub fn person(db: &Db, pi: u32) -> Person {
    let p = &db.person_rows[pi as usize];
    let row = &db.companies[p.company as usize];
    let (first, last) = db.people.names(p);
    let t = &db.people.titles[p.title as usize];
    let mut cjd = String::new();
    current_job_description(db, p, &mut cjd);
    let mut sum = String::new();
    summary(db, p, &mut sum);
    let mut skills = Vec::new();
    db.people.skill_ids(p, &mut skills);
    let experiences = db
        .people
        .experiences(db.companies.base_len(), p)
        .iter()
        .map(|e| {
            let c = &db.companies[e.company as usize];
            let mut d = String::new();
            experience_description(db, e, &mut d);
            Experience {
                domain: Some(c.domain.clone()),
                job_title: Some(db.people.titles[e.title as usize].title.clone()),
                date_from: Some(ym_date(e.from)),
                date_to: e.to.map(ym_date),
                description: Some(d),
                linkedin_company_handle: c
                    .medias
                    .iter()
                    .find(|(n, _)| n == "linkedin")
                    .map(|(_, h)| h.clone()),
            }
        })
        .collect();
    Person {
        id: db.people.id(&db.companies, p),
        domain: row.domain.clone(),
        name: Some(format!("{first} {last}")),
        first_name: Some(first.to_string()),
        last_name: Some(last.to_string()),
        country: Some(row.country.clone()).filter(|c| !c.is_empty()),
        state: row.region.clone(),
        location: Some(person_location(db, p)),
        linkedin_url: Some(format!(
            "https://www.linkedin.com/in/{}",
            db.people.handle(p)
        )),
        seniorities: vec![Seniority::ALL[p.seniority as usize].clone()],
        departments: vec![Department::ALL[p.department as usize].clone()],
        photo: None,
        job_title: Some(t.title.clone()),
        job_title_english: Some(t.title.clone()),
        current_job_description: Some(cjd),
        experiences,
        summary: Some(sum),
        skills: skills
            .iter()
            .map(|s| db.people.skills[*s as usize].clone())
            .collect(),
        phone: None,
        email: None,
        inferred_emails: Vec::new(),
        updated_at: Some(updated_at(super::people::updated_months_ago(p), p.seed)),
        connections_count: Some(db.people.connections(p)),
        followers_count: Some(db.people.followers(p)),
        headline: Some(format!("{} at {}", t.title, row.name)),
    }
}

/// Fills `email` and/or `phone` of a person record from the truth behind a reveal
/// (SPEC.md §2.2): the address is given unless its status is `notFound`; numbers only when
/// `verified`. Does nothing for an unknown id.
pub fn reveal_into(db: &Db, person: &mut Person, emails: bool, phones: bool) {
    let Some(pi) = db.resolve_person_id(&person.id) else {
        return;
    };
    let c = db
        .people
        .contact(&db.companies, &db.person_rows[pi as usize]);
    if emails {
        person.email = Some(Email {
            address: c.email,
            status: c.email_status,
        });
    }
    if phones {
        person.phone = Some(Phone {
            numbers: c.phones,
            status: c.phone_status,
        });
    }
}

/// The employer summary of a v3 people result (openapi `PersonCompany`).
pub fn person_company(db: &Db, ci: u32) -> PersonCompany {
    let row = &db.companies[ci as usize];
    let c = &db.cols[ci as usize];
    PersonCompany {
        company_size: Some(CompanySize::ALL[c.size as usize].clone()),
        logo: Some(logo(&row.domain)),
        name: Some(row.name.clone()),
        revenue: Some(Revenue::ALL[c.revenue as usize].clone()),
        employee_count_service: Some(row.employees as i64),
        industries: names(&db.vocab.industries, &c.industries_ord),
        technologies: names(&db.vocab.technologies, &c.technologies_ord),
        funding_round: row.funding.as_ref().map(funding_round),
    }
}

/// A v3 people result / lookup-people entry: person record, employer summary, relevance.
pub fn lookalike_person(db: &Db, pi: u32, relevance: Option<Relevance>) -> LookalikePerson {
    let ci = db.person_rows[pi as usize].company;
    LookalikePerson {
        person: person(db, pi),
        company: Some(person_company(db, ci)),
        relevance,
    }
}

/// The preview of a person (openapi `PublicPersonPreviewBase`).
pub fn person_preview(db: &Db, pi: u32) -> PersonPreviewBase {
    let p = &db.person_rows[pi as usize];
    let (f, l) = db.people.names(p);
    PersonPreviewBase {
        name: Some(format!("{f} {l}")),
        job_title: Some(db.people.titles[p.title as usize].title.clone()),
    }
}

/// The company preview of a preview search result (openapi `PublicPreviewCompany`).
pub fn preview_company(db: &Db, ci: u32) -> PreviewCompany {
    let row = &db.companies[ci as usize];
    let c = &db.cols[ci as usize];
    PreviewCompany {
        name: row.name.clone(),
        logo: logo(&row.domain),
        top_industries: names(&db.vocab.industries, &c.industries_ord)
            .into_iter()
            .take(3)
            .collect(),
        size: Some(CompanySize::ALL[c.size as usize].as_str().to_string()),
        description: row.description.clone(),
        primary_country: Some(row.country.clone()),
        primary_region: row.region.clone(),
        linkedin_handle: row
            .medias
            .iter()
            .find(|(n, _)| n == "linkedin")
            .map(|(_, h)| h.clone()),
    }
}
