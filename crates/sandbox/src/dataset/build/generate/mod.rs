//! Deterministic generation of the fields no open source has. Every generator seeds its own
//! [`Rng`] from the company's domain and a salt, so one field's change never shifts another's.

use super::util::{Rng, slug};
use crate::dataset::format::{FundingRow, TrafficRow};

mod place;
pub use place::{lat_lon, street_address};

/// Employee count from market-cap class (listed companies) or a small-company default;
/// log-uniform within the class's range, scaled a little by industry category.
pub fn employees(domain: &str, market_cap: Option<&str>, category: &str) -> u32 {
    let mut r = Rng::from_key(domain, "employees");
    let (lo, hi) = match market_cap.unwrap_or("") {
        "Mega Cap" => (40_000.0, 300_000.0),
        "Large Cap" => (8_000.0, 80_000.0),
        "Mid Cap" => (1_500.0, 15_000.0),
        "Small Cap" => (300.0, 3_000.0),
        "Micro Cap" => (40.0, 500.0),
        "Nano Cap" => (5.0, 80.0),
        _ => (10.0, 400.0),
    };
    let factor = match category {
        "Retail" | "Accommodation Services" | "Hospitals and Health Care" => 1.8,
        "Financial Services"
        | "Real Estate and Equipment Rental Services"
        | "Holding Companies" => 0.6,
        "Oil, Gas, and Mining" => 0.7,
        _ => 1.0,
    };
    (r.log_uniform(lo, hi) * factor).round().max(1.0) as u32
}

/// Employee count on the professional network: 55–110 % of `employees`.
pub fn employees_linkedin(domain: &str, employees: u32) -> u32 {
    let mut r = Rng::from_key(domain, "employees_linkedin");
    ((employees as f64) * r.range_f(0.55, 1.1)).round().max(1.0) as u32
}

/// Annual revenue in USD millions: employees × revenue per employee of the category, jittered.
pub fn revenue_musd(domain: &str, employees: u32, category: &str, early_startup: bool) -> f64 {
    let mut r = Rng::from_key(domain, "revenue");
    let per_emp = match category {
        "Financial Services" | "Holding Companies" => 0.45,
        "Oil, Gas, and Mining" | "Utilities" => 0.9,
        "Wholesale" => 0.8,
        "Technology, Information and Media" => 0.3,
        "Retail" => 0.25,
        "Accommodation Services" | "Hospitals and Health Care" => 0.12,
        _ => 0.22,
    };
    let mut v = employees as f64 * per_emp * r.log_uniform(0.4, 2.5);
    if early_startup {
        v *= r.range_f(0.02, 0.4);
    }
    (v * 100.0).round() / 100.0
}

/// Whether the company sells online: likely for retail/consumer/marketplace, rare otherwise.
pub fn ecommerce(domain: &str, category: &str, industries: &[String], keywords: &[String]) -> bool {
    let mut r = Rng::from_key(domain, "ecommerce");
    let online = industries
        .iter()
        .any(|i| i.contains("Online") || i.contains("Marketplace"))
        || keywords
            .iter()
            .any(|k| k.contains("commerce") || k == "marketplace" || k == "retail");
    let p = if online {
        0.92
    } else {
        match category {
            "Retail" => 0.7,
            "Consumer Services" | "Accommodation Services" | "Entertainment Providers" => 0.35,
            "Manufacturing" | "Wholesale" => 0.15,
            _ => 0.05,
        }
    };
    r.chance(p)
}

/// Popular web technologies (Wappalyzer names) every kind of site uses.
const COMMON: &[&str] = &[
    "Google Analytics",
    "jQuery",
    "Cloudflare",
    "Nginx",
    "Google Tag Manager",
    "Apache",
    "Google Font API",
    "Bootstrap",
    "Font Awesome",
    "WordPress",
    "PHP",
    "MySQL",
    "Amazon Web Services",
    "Microsoft 365",
    "Google Workspace",
    "HSTS",
    "reCAPTCHA",
    "Facebook Pixel",
    "LinkedIn Insight Tag",
    "Hotjar",
    "YouTube",
    "Vimeo",
    "OneTrust",
    "Cookiebot",
    "Microsoft ASP.NET",
    "IIS",
    "Adobe Experience Manager",
    "Akamai",
    "Amazon CloudFront",
    "Lodash",
    "core-js",
    "Webpack",
    "Google Maps",
    "Yoast SEO",
    "Elementor",
];

/// Extra technologies for software/tech companies.
const TECH: &[&str] = &[
    "React",
    "Next.js",
    "Vue.js",
    "Node.js",
    "Stripe",
    "Intercom",
    "Segment",
    "HubSpot",
    "Sentry",
    "Vercel",
    "Netlify",
    "Heroku",
    "Amplitude",
    "Mixpanel",
    "Zendesk",
    "Salesforce",
    "Angular",
    "TypeScript",
    "GitHub Pages",
    "Docker",
    "Drift",
    "Webflow",
    "Framer",
    "Gatsby",
    "Nuxt.js",
    "Auth0",
    "Algolia",
    "Fastly",
    "Datadog",
    "New Relic",
    "Optimizely",
    "LaunchDarkly",
    "Hubspot",
];

/// Extra technologies for online shops.
const SHOP: &[&str] = &[
    "Shopify",
    "WooCommerce",
    "Magento",
    "PayPal",
    "Klarna Checkout",
    "Stripe",
    "Salesforce Commerce Cloud",
    "BigCommerce",
    "Klaviyo",
    "Trustpilot",
    "Yotpo",
    "Afterpay",
    "Adyen",
    "PrestaShop",
    "Shopware",
];

/// Extra technologies for enterprises.
const ENTERPRISE: &[&str] = &[
    "Adobe Analytics",
    "Adobe DTM",
    "Sitecore",
    "Salesforce",
    "Marketo",
    "Oracle Commerce",
    "Microsoft Dynamics 365",
    "SAP",
    "Workday",
    "Qualtrics",
    "Tealium",
    "Dynatrace",
    "Imperva",
    "Microsoft Azure",
    "Java",
    "Liferay",
    "Episerver",
    "Pardot",
    "Eloqua",
    "ServiceNow",
];

/// 3–25 technologies with their categories. Names come from curated lists filtered to the
/// Wappalyzer list (`known`), then random Wappalyzer picks.
pub fn technologies(
    domain: &str,
    employees: u32,
    category: &str,
    ecommerce: bool,
    known: &[(String, Vec<String>)],
) -> (Vec<String>, Vec<String>) {
    let mut r = Rng::from_key(domain, "technologies");
    let n = (3.0 + (employees.max(1) as f64).log2() * 1.4 + r.range_f(-2.0, 3.0)).clamp(3.0, 25.0)
        as usize;
    let find = |name: &str| known.binary_search_by(|(k, _)| k.as_str().cmp(name)).ok();
    let mut chosen: Vec<usize> = Vec::new();
    let mut pools: Vec<&[&str]> = vec![COMMON];
    if category == "Technology, Information and Media" || category == "Professional Services" {
        pools.push(TECH);
    }
    if ecommerce {
        pools.push(SHOP);
    }
    if employees > 2000 {
        pools.push(ENTERPRISE);
    }
    let mut guard = 0;
    while chosen.len() < n && guard < 200 {
        guard += 1;
        let idx = if r.chance(0.08) {
            Some((r.next_u64() % known.len() as u64) as usize)
        } else {
            let pool: &[&str] = pools[(r.next_u64() % pools.len() as u64) as usize];
            let name: &str = pool[(r.next_u64() % pool.len() as u64) as usize];
            find(name)
        };
        if let Some(i) = idx
            && !chosen.contains(&i)
        {
            chosen.push(i);
        }
    }
    chosen.sort();
    let names: Vec<String> = chosen.iter().map(|&i| known[i].0.clone()).collect();
    let mut cats: Vec<String> = Vec::new();
    for &i in &chosen {
        for c in &known[i].1 {
            if !cats.contains(c) {
                cats.push(c.clone());
            }
        }
    }
    cats.sort();
    (names, cats)
}

fn batch_year(batch: &str) -> Option<i32> {
    batch
        .split_whitespace()
        .find_map(|w| w.parse::<i32>().ok())
        .or_else(|| {
            // short forms like W21 / S2021
            let digits: String = batch.chars().filter(|c| c.is_ascii_digit()).collect();
            digits
                .parse::<i32>()
                .ok()
                .map(|y| if y < 100 { 2000 + y } else { y })
        })
}

/// Latest funding round. YC: from batch year, stage and status. Listed: sometimes a post-IPO
/// round. Others: sometimes a private round. `None` otherwise.
pub fn funding(
    domain: &str,
    yc: Option<(&str, &str, &str)>,
    listed: bool,
    employees: u32,
    year_founded: Option<i32>,
) -> Option<FundingRow> {
    let mut r = Rng::from_key(domain, "funding");
    let date = |r: &mut Rng, y: i32| format!("{y:04}-{:02}-{:02}", r.range(1, 12), r.range(1, 28));
    if let Some((batch, stage, status)) = yc {
        let by = batch_year(batch).unwrap_or(2018);
        let (kind, amount, year) = match (status, stage) {
            ("Public", _) => (
                "Post-IPO Equity",
                r.log_uniform(5e7, 1e9),
                (by + r.range(5, 10) as i32).min(2025),
            ),
            ("Inactive", _) => ("Seed", r.log_uniform(1.2e5, 2e6), by),
            (_, "Growth") => {
                let k = *r.pick(&["Series B", "Series C", "Series D", "Series E"]);
                let amt = match k {
                    "Series B" => r.log_uniform(1.5e7, 6e7),
                    "Series C" => r.log_uniform(3e7, 1.5e8),
                    "Series D" => r.log_uniform(6e7, 3e8),
                    _ => r.log_uniform(1e8, 5e8),
                };
                (k, amt, (by + r.range(2, 6) as i32).min(2025))
            }
            _ => {
                let age = 2025 - by;
                let k = if age <= 1 {
                    "Pre-Seed"
                } else if age <= 3 || r.chance(0.5) {
                    "Seed"
                } else if employees > 40 {
                    "Series B"
                } else {
                    "Series A"
                };
                let amt = match k {
                    "Pre-Seed" => r.log_uniform(5e5, 2e6),
                    "Seed" => r.log_uniform(1e6, 6e6),
                    "Series A" => r.log_uniform(5e6, 2.5e7),
                    _ => r.log_uniform(1.5e7, 5e7),
                };
                (
                    k,
                    amt,
                    (by + r.range(0, age.clamp(0, 3) as u64) as i32).min(2025),
                )
            }
        };
        return Some(FundingRow {
            date: date(&mut r, year),
            kind: kind.into(),
            money_raised_usd: (amount / 1000.0).round() * 1000.0,
        });
    }
    if listed {
        if !r.chance(0.3) {
            return None;
        }
        let kind = if r.chance(0.6) {
            "Post-IPO Equity"
        } else {
            "Post-IPO Debt"
        };
        let y = 2015 + r.range(0, 10) as i32;
        let amt = employees as f64 * r.log_uniform(5e3, 1e5);
        return Some(FundingRow {
            date: date(&mut r, y),
            kind: kind.into(),
            money_raised_usd: (amt / 1000.0).round() * 1000.0,
        });
    }
    if employees < 1000 && r.chance(0.35) {
        let kind = *r.pick(&[
            "Seed",
            "Series A",
            "Series B",
            "Private Equity",
            "Debt Financing",
            "Angel",
        ]);
        let y = year_founded.unwrap_or(2010).max(2005) + r.range(1, 8) as i32;
        let amt = r.log_uniform(5e5, 5e7);
        return Some(FundingRow {
            date: date(&mut r, y.min(2025)),
            kind: kind.into(),
            money_raised_usd: (amt / 1000.0).round() * 1000.0,
        });
    }
    None
}

/// Monthly web traffic: from the Majestic rank where present (about 8e10 / rank visits), else
/// from employees, always below what a top-15k site gets.
pub fn traffic(domain: &str, majestic_rank: Option<u32>, employees: u32) -> TrafficRow {
    let mut r = Rng::from_key(domain, "traffic");
    let visits = match majestic_rank {
        Some(rank) => 8.0e10 / (rank as f64).powf(1.05) * r.range_f(0.5, 1.6),
        None => (employees as f64 * r.log_uniform(20.0, 600.0)).clamp(300.0, 4.0e6),
    };
    let ppv = (r.range_f(1.4, 6.0) * 100.0).round() / 100.0;
    TrafficRow {
        visits: visits as u64,
        page_views: (visits * ppv) as u64,
        pages_per_visit: ppv,
        bounce_rate: (r.range_f(0.25, 0.75) * 1000.0).round() / 1000.0,
    }
}

/// Head-count growth over 3, 6, 12 months as fractions; startups grow faster and vary more.
pub fn headcount_growth(domain: &str, startup: bool) -> [f64; 3] {
    let mut r = Rng::from_key(domain, "growth");
    let g12 = if startup {
        r.normal(0.25, 0.35).max(-0.6)
    } else {
        r.normal(0.04, 0.1).max(-0.5)
    };
    let g6 = g12 / 2.0 + r.normal(0.0, 0.03);
    let g3 = g6 / 2.0 + r.normal(0.0, 0.015);
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    [round(g3), round(g6), round(g12)]
}

/// Department sizes summing to `employees`, weighted by industry category (SPEC.md §2.1 names).
pub fn department_sizes(domain: &str, employees: u32, category: &str) -> Vec<(String, u32)> {
    let mut r = Rng::from_key(domain, "departments");
    let mut w: Vec<(&str, f64)> = vec![
        ("Engineering", 8.0),
        ("Sales", 12.0),
        ("Operations", 12.0),
        ("Marketing and Advertising", 4.0),
        ("Accounting and Finance", 5.0),
        ("HR", 3.0),
        ("Legal", 1.0),
        ("Management", 3.0),
        ("Customer Relations", 6.0),
        ("Business Support", 4.0),
        ("Product", 2.0),
        ("Design", 1.0),
        ("Manufacturing", 4.0),
        ("Supply Chain", 3.0),
        ("Procurement", 1.0),
        ("Quality Control", 1.0),
        ("R&D", 2.0),
        ("Security", 0.5),
        ("PR and Communications", 0.7),
        ("Editorial Personnel", 0.3),
        ("Healthcare", 0.3),
        ("Board", 0.2),
        ("Founder/Owner", 0.2),
        ("Other", 6.0),
    ];
    let boost: &[(&str, f64)] = match category {
        "Technology, Information and Media" => &[
            ("Engineering", 30.0),
            ("Product", 8.0),
            ("Design", 4.0),
            ("Editorial Personnel", 2.0),
        ],
        "Manufacturing" => &[
            ("Manufacturing", 30.0),
            ("Quality Control", 6.0),
            ("Supply Chain", 8.0),
            ("R&D", 5.0),
        ],
        "Hospitals and Health Care" => &[("Healthcare", 40.0)],
        "Retail" => &[
            ("Sales", 30.0),
            ("Customer Relations", 12.0),
            ("Supply Chain", 8.0),
        ],
        "Financial Services" => &[
            ("Accounting and Finance", 25.0),
            ("Sales", 10.0),
            ("Legal", 4.0),
        ],
        "Professional Services" => &[("Engineering", 10.0), ("Legal", 5.0), ("Operations", 10.0)],
        "Transportation, Logistics, Supply Chain and Storage" => {
            &[("Supply Chain", 30.0), ("Operations", 15.0)]
        }
        "Construction" => &[("Operations", 30.0), ("Engineering", 10.0)],
        "Oil, Gas, and Mining" | "Utilities" => &[("Operations", 30.0), ("Engineering", 15.0)],
        "Accommodation Services" => &[("Operations", 40.0), ("Customer Relations", 10.0)],
        _ => &[],
    };
    for (d, b) in boost {
        if let Some(e) = w.iter_mut().find(|e| e.0 == *d) {
            e.1 += b;
        }
    }
    for e in w.iter_mut() {
        e.1 *= r.range_f(0.5, 1.5);
    }
    let total: f64 = w.iter().map(|e| e.1).sum();
    let mut out: Vec<(String, u32)> = Vec::new();
    let mut assigned = 0u32;
    for (d, x) in &w {
        let n = (employees as f64 * x / total).floor() as u32;
        if n > 0 {
            out.push((d.to_string(), n));
            assigned += n;
        }
    }
    let rest = employees.saturating_sub(assigned);
    if rest > 0 {
        if let Some(e) = out.iter_mut().max_by_key(|e| e.1) {
            e.1 += rest;
        } else {
            out.push(("Management".into(), rest));
        }
    }
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

/// International calling codes of countries we give phones to.
const CALLING: &[(&str, &str)] = &[
    ("de", "49"),
    ("at", "43"),
    ("ch", "41"),
    ("nl", "31"),
    ("be", "32"),
    ("lu", "352"),
    ("it", "39"),
    ("es", "34"),
    ("pt", "351"),
    ("se", "46"),
    ("no", "47"),
    ("dk", "45"),
    ("fi", "358"),
    ("is", "354"),
    ("pl", "48"),
    ("cz", "420"),
    ("hu", "36"),
    ("gr", "30"),
    ("tr", "90"),
    ("il", "972"),
    ("ru", "7"),
    ("jp", "81"),
    ("cn", "86"),
    ("hk", "852"),
    ("tw", "886"),
    ("sg", "65"),
    ("kr", "82"),
    ("in", "91"),
    ("id", "62"),
    ("th", "66"),
    ("my", "60"),
    ("ph", "63"),
    ("vn", "84"),
    ("br", "55"),
    ("mx", "52"),
    ("ar", "54"),
    ("cl", "56"),
    ("co", "57"),
    ("pe", "51"),
    ("za", "27"),
    ("eg", "20"),
    ("ng", "234"),
    ("ke", "254"),
    ("sa", "966"),
    ("ae", "971"),
    ("qa", "974"),
    ("kw", "965"),
    ("nz", "64"),
    ("bm", "1"),
    ("ky", "1"),
    ("je", "44"),
    ("gg", "44"),
    ("im", "44"),
    ("cy", "357"),
    ("mt", "356"),
    ("ee", "372"),
    ("lv", "371"),
    ("lt", "370"),
    ("ro", "40"),
    ("bg", "359"),
    ("ua", "380"),
    ("pk", "92"),
    ("bd", "880"),
    ("lk", "94"),
    ("ma", "212"),
    ("mo", "853"),
    ("mc", "377"),
    ("kz", "7"),
];

/// One or two company phone numbers from ranges reserved for fiction: US/CA `+1 NXX 555 01xx`,
/// GB `+44 7700 900xxx`, AU `+61 491 570 1xx`, FR `+33 1 99 00 xx xx`, IE `+353 20 910 xxxx`;
/// other countries `+<cc> 00 555 01xx`, which no numbering plan assigns (a national number
/// never starts with `00`). Returns (number, lowercase country).
pub fn phones(domain: &str, country: &str, employees: u32) -> Vec<(String, String)> {
    let mut r = Rng::from_key(domain, "phones");
    let count = if employees > 1000 && r.chance(0.5) {
        2
    } else {
        1
    };
    let mut out = Vec::new();
    for _ in 0..count {
        let num = match country {
            "us" | "ca" | "pr" => format!("+1 {} 555 01{:02}", r.range(201, 989), r.range(0, 99)),
            "gb" => format!("+44 7700 900{:03}", r.range(0, 999)),
            "au" => format!("+61 491 570 1{:02}", r.range(10, 59)),
            "fr" => format!("+33 1 99 00 {:02} {:02}", r.range(0, 99), r.range(0, 99)),
            "ie" => format!("+353 20 910 {:04}", r.range(0, 9999)),
            c => match CALLING.iter().find(|(k, _)| *k == c) {
                Some((_, cc)) => format!("+{cc} 00 555 01{:02}", r.range(0, 99)),
                None => continue,
            },
        };
        if !out.iter().any(|(n, _): &(String, String)| *n == num) {
            out.push((num, country.to_string()));
        }
    }
    out
}

/// Company emails on the reserved `.example` TLD: `info@<label>.example` plus, for bigger
/// companies, `sales@` or `contact@`.
pub fn emails(domain: &str, employees: u32) -> Vec<String> {
    let mut r = Rng::from_key(domain, "emails");
    let label = domain.split('.').next().unwrap_or("company");
    let mut out = vec![format!("info@{label}.example")];
    if employees > 50 {
        out.push(format!(
            "{}@{label}.example",
            r.pick(&["sales", "contact", "hello", "press"])
        ));
    }
    out
}

/// Social handles: LinkedIn (real from YC where given, else the name's slug) and some of
/// twitter/facebook/instagram/youtube/xing/tiktok.
pub fn medias(
    domain: &str,
    name: &str,
    linkedin: Option<&str>,
    country: &str,
    consumer: bool,
) -> Vec<(String, String)> {
    let mut r = Rng::from_key(domain, "medias");
    let s = slug(name);
    let li = linkedin
        .and_then(|u| {
            let u = u.trim_end_matches('/');
            u.rsplit('/')
                .next()
                .filter(|h| !h.is_empty() && !h.contains('.'))
                .map(str::to_string)
        })
        .unwrap_or_else(|| s.clone());
    let mut out = vec![("linkedin".to_string(), li)];
    if r.chance(0.7) {
        out.push(("twitter".into(), s.clone()));
    }
    if r.chance(if consumer { 0.8 } else { 0.45 }) {
        out.push(("facebook".into(), s.clone()));
    }
    if r.chance(if consumer { 0.75 } else { 0.3 }) {
        out.push(("instagram".into(), s.clone()));
    }
    if r.chance(0.35) {
        out.push(("youtube".into(), s.clone()));
    }
    if matches!(country, "de" | "at" | "ch") && r.chance(0.6) {
        out.push(("xing".into(), s.clone()));
    }
    if consumer && r.chance(0.35) {
        out.push(("tiktok".into(), s.clone()));
    }
    out
}

/// Mobile apps (name, store link) for some consumer-facing companies.
pub fn mobile_apps(domain: &str, name: &str, consumer: bool) -> Vec<(String, String)> {
    let mut r = Rng::from_key(domain, "apps");
    if !consumer || !r.chance(0.45) {
        return Vec::new();
    }
    let label = domain.split('.').next().unwrap_or("app").replace('-', "");
    let mut out = vec![(
        name.to_string(),
        format!("https://play.google.com/store/apps/details?id=com.{label}.app"),
    )];
    if r.chance(0.7) {
        out.push((
            name.to_string(),
            format!(
                "https://apps.apple.com/app/{}/id{}",
                slug(name),
                r.range(300_000_000, 1_700_000_000)
            ),
        ));
    }
    out
}
