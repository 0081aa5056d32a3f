//! A small hand-made dataset for the engine's tests.

use crate::dataset::format::{
    CompanyRow, Dataset, FORMAT_VERSION, FundingRow, JobTitleRow, Reference, TrafficRow,
};
use crate::dataset::load::Db;

/// Builder of one company row with sensible defaults.
pub fn company(domain: &str, name: &str, country: &str) -> CompanyRow {
    CompanyRow {
        domain: domain.into(),
        name: name.into(),
        description: format!("{name} makes things."),
        country: country.into(),
        countries: vec![country.into()],
        employees: 100,
        employees_linkedin: 90,
        revenue_musd: 20.0,
        traffic: TrafficRow {
            visits: 1000,
            page_views: 3000,
            pages_per_visit: 3.0,
            bounce_rate: 0.4,
        },
        department_sizes: vec![("Engineering".into(), 50), ("Sales".into(), 50)],
        sources: vec!["yc".into()],
        ..Default::default()
    }
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

/// Ten companies with distinct, filterable features; their index in the dataset is their
/// position below (the dataset is sorted by domain).
pub fn dataset() -> Dataset {
    let mut acme = company("acme.io", "Acme", "us");
    acme.aliases = s(&["acme-old.com"]);
    acme.legal_name = Some("Acme Inc.".into());
    acme.industries = s(&["Software Development"]);
    acme.industry_categories = s(&["Technology, Information and Media"]);
    acme.linkedin_industry = Some("Computer Software".into());
    acme.keywords = s(&["saas", "payments", "api"]);
    acme.technologies = s(&["React", "Stripe"]);
    acme.technology_categories = s(&["JavaScript frameworks", "Payment processors"]);
    acme.region_code = Some("US-CA".into());
    acme.region = Some("California".into());
    acme.city = Some("San Francisco".into());
    acme.postal_code = Some("94105".into());
    acme.lat_lon = Some((37.7749, -122.4194));
    acme.year_founded = Some(2015);
    acme.employees = 120;
    acme.employees_linkedin = 115;
    acme.department_sizes = vec![("Engineering".into(), 80), ("Sales".into(), 40)];
    acme.traffic.visits = 50_000;
    acme.traffic.page_views = 150_000;
    acme.ecommerce = true;
    acme.funding = Some(FundingRow {
        date: "2022-05-01".into(),
        kind: "Series A".into(),
        money_raised_usd: 12_000_000.0,
    });
    acme.medias = vec![
        ("linkedin".into(), "acme".into()),
        ("twitter".into(), "acmehq".into()),
    ];
    acme.mobile_apps = vec![("Acme".into(), "https://apps.example/acme".into())];
    acme.majestic_rank = Some(100);
    acme.headcount_growth = [0.05, 0.10, 0.20];
    acme.emails = s(&["hello@acme.example"]);
    acme.phones = vec![("us".into(), "+1 555-0100".into())];

    let mut pay = company("paycorp.com", "PayCorp", "us");
    pay.industries = s(&["Software Development", "Financial Services"]);
    pay.industry_categories = s(&["Technology, Information and Media", "Financial Services"]);
    pay.keywords = s(&["payments", "api", "fintech"]);
    pay.technologies = s(&["React"]);
    pay.technology_categories = s(&["JavaScript frameworks"]);
    pay.region_code = Some("US-NY".into());
    pay.region = Some("New York".into());
    pay.city = Some("New York".into());
    pay.lat_lon = Some((40.7128, -74.0060));
    pay.employees = 300;
    pay.year_founded = Some(2010);
    pay.countries = s(&["us", "gb"]);
    pay.majestic_rank = Some(50);
    pay.headcount_growth = [-0.02, 0.0, 0.03];

    let mut bake = company("bakery.fr", "La Boulangerie", "fr");
    bake.industries = s(&["Food and Beverage Manufacturing"]);
    bake.industry_categories = s(&["Manufacturing"]);
    bake.keywords = s(&["bread", "pastry"]);
    bake.city = Some("Paris".into());
    bake.region_code = Some("FR-IDF".into());
    bake.region = Some("Île-de-France".into());
    bake.lat_lon = Some((48.8566, 2.3522));
    bake.employees = 8;
    bake.revenue_musd = 0.5;

    let mut auto = company("autowerk.de", "Autowerk GmbH", "de");
    auto.industries = s(&["Motor Vehicle Manufacturing"]);
    auto.industry_categories = s(&["Manufacturing"]);
    auto.keywords = s(&["cars", "engines"]);
    auto.city = Some("Berlin".into());
    auto.lat_lon = Some((52.52, 13.405));
    auto.employees = 20_000;
    auto.revenue_musd = 5000.0;
    auto.year_founded = Some(1950);
    auto.medias = vec![("xing".into(), "autowerk".into())];

    let mut pay2 = company("payfast.co.uk", "PayFast", "gb");
    pay2.industries = s(&["Software Development"]);
    pay2.industry_categories = s(&["Technology, Information and Media"]);
    pay2.keywords = s(&["payments", "fintech", "api"]);
    pay2.technologies = s(&["Stripe"]);
    pay2.technology_categories = s(&["Payment processors"]);
    pay2.city = Some("London".into());
    pay2.lat_lon = Some((51.5074, -0.1278));
    pay2.employees = 150;

    let mut companies = vec![acme, pay, bake, auto, pay2];
    for i in 0..20 {
        let mut c = company(&format!("filler{i:02}.com"), &format!("Filler {i}"), "ca");
        c.industries = s(&["Retail"]);
        c.industry_categories = s(&["Retail"]);
        c.keywords = s(&["shop"]);
        c.employees = 10 + i * 3;
        companies.push(c);
    }
    companies.sort_by(|a, b| a.domain.cmp(&b.domain));
    let titles = [
        ("Software Engineer", "Other", "Engineering"),
        ("Senior Software Engineer", "Other", "Engineering"),
        ("Engineering Manager", "Manager", "Engineering"),
        ("Account Executive", "Other", "Sales"),
        ("Sales Director", "Director", "Sales"),
        ("Marketing Manager", "Manager", "Marketing and Advertising"),
    ];
    Dataset {
        version: FORMAT_VERSION,
        companies,
        reference: Reference {
            industries: vec![
                (
                    "Technology, Information and Media".into(),
                    s(&["Software Development"]),
                ),
                ("Financial Services".into(), s(&["Financial Services"])),
                (
                    "Manufacturing".into(),
                    s(&[
                        "Food and Beverage Manufacturing",
                        "Motor Vehicle Manufacturing",
                    ]),
                ),
                ("Retail".into(), s(&["Retail"])),
            ],
            linkedin_industries: s(&["Computer Software", "Banking"]),
            technologies: vec![
                ("React".into(), s(&["JavaScript frameworks"])),
                ("Stripe".into(), s(&["Payment processors"])),
            ],
            countries: vec![
                ("us".into(), "United States".into()),
                ("fr".into(), "France".into()),
                ("de".into(), "Germany".into()),
                ("gb".into(), "United Kingdom".into()),
                ("ca".into(), "Canada".into()),
            ],
            regions: vec![
                (
                    "us".into(),
                    "US-CA".into(),
                    "California".into(),
                    "California".into(),
                ),
                (
                    "us".into(),
                    "US-NY".into(),
                    "New York".into(),
                    "New York".into(),
                ),
                (
                    "fr".into(),
                    "FR-IDF".into(),
                    "Île-de-France".into(),
                    "Île-de-France".into(),
                ),
            ],
            job_titles: titles
                .iter()
                .map(|(t, s, d)| JobTitleRow {
                    title: t.to_string(),
                    seniority: s.to_string(),
                    department: d.to_string(),
                })
                .collect(),
            skills: s(&[
                "Python",
                "Negotiation",
                "Salesforce",
                "SQL",
                "Public Speaking",
            ]),
            first_names: vec![
                (s(&["us", "ca", "gb"]), s(&["John", "Mary", "Ann", "Peter"])),
                (s(&["fr"]), s(&["Amélie", "Jean"])),
            ],
            last_names: vec![
                (s(&["us", "ca", "gb"]), s(&["Doe", "Smith", "Brown"])),
                (s(&["fr"]), s(&["Dubois", "Lefèvre"])),
            ],
        },
    }
}

/// The test dataset, indexed.
pub fn db() -> Db {
    Db::from_dataset(dataset())
}

/// Company index of a domain in [`db`].
pub fn idx(db: &Db, domain: &str) -> u32 {
    db.company_index(domain).expect("known test domain")
}
