//! Readers of the company sources and their merge by domain.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Read;
use std::path::Path;

use anyhow::Context;
use serde_json::Value;

use super::reference::{Geo, read_json};
use super::util::{founded_year, normalize_domain};

/// YC-specific facts kept for generation.
#[derive(Debug, Clone, Default)]
pub struct YcInfo {
    /// e.g. `Winter 2012`.
    pub batch: String,
    /// `Early` or `Growth`.
    pub stage: String,
    /// `Active`, `Inactive`, `Acquired`, `Public`.
    pub status: String,
}

/// A company as read from one or more sources, before generation.
#[derive(Debug, Clone, Default)]
pub struct Raw {
    pub domain: String,
    pub aliases: BTreeSet<String>,
    pub name: String,
    pub legal_name: Option<String>,
    pub description: String,
    pub country: Option<String>,
    pub state: Option<String>,
    pub city: Option<String>,
    pub postal_code: Option<String>,
    /// Industry texts, most specific first (industry, group, sector...).
    pub industry_texts: Vec<String>,
    /// Sector-level names for fallback mapping.
    pub sectors: Vec<String>,
    /// YC tags (original case).
    pub tags: Vec<String>,
    pub year_founded: Option<i32>,
    pub employees: Option<u32>,
    pub market_cap: Option<String>,
    pub yc: Option<YcInfo>,
    pub linkedin: Option<String>,
    pub listed: bool,
    pub sources: BTreeSet<String>,
    pub tickers: Vec<String>,
}

/// Companies by domain plus per-source counts.
#[derive(Debug, Default)]
pub struct Merged {
    pub by_domain: BTreeMap<String, Raw>,
}

fn opt(s: &str) -> Option<String> {
    let t = s.trim();
    (!t.is_empty() && t != "None" && t != "nan").then(|| t.to_string())
}

impl Merged {
    /// Merges `r` into the row of its domain: missing fields are filled, lists united, the first
    /// real value wins otherwise.
    pub fn add(&mut self, mut r: Raw, had_www: bool) {
        if had_www {
            r.aliases.insert(format!("www.{}", r.domain));
        }
        match self.by_domain.get_mut(&r.domain) {
            None => {
                self.by_domain.insert(r.domain.clone(), r);
            }
            Some(e) => {
                e.aliases.extend(r.aliases);
                if e.name.is_empty() {
                    e.name = r.name;
                }
                e.legal_name = e.legal_name.take().or(r.legal_name);
                if e.description.len() < 80 && r.description.len() > e.description.len() {
                    e.description = r.description;
                }
                e.country = e.country.take().or(r.country);
                if e.state.is_none() {
                    e.state = r.state;
                    if e.city.is_none() {
                        e.city = r.city.clone();
                    }
                }
                e.city = e.city.take().or(r.city);
                e.postal_code = e.postal_code.take().or(r.postal_code);
                for t in r.industry_texts {
                    if !e.industry_texts.contains(&t) {
                        e.industry_texts.push(t);
                    }
                }
                for t in r.sectors {
                    if !e.sectors.contains(&t) {
                        e.sectors.push(t);
                    }
                }
                for t in r.tags {
                    if !e.tags.contains(&t) {
                        e.tags.push(t);
                    }
                }
                e.year_founded = e.year_founded.or(r.year_founded);
                e.employees = e.employees.or(r.employees);
                e.market_cap = e.market_cap.take().or(r.market_cap);
                e.yc = e.yc.take().or(r.yc);
                e.linkedin = e.linkedin.take().or(r.linkedin);
                e.listed |= r.listed;
                e.sources.extend(r.sources);
                e.tickers.extend(r.tickers);
            }
        }
    }
}

fn gz_text(path: &Path) -> anyhow::Result<String> {
    let f = std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut s = String::new();
    flate2::read::GzDecoder::new(f)
        .read_to_string(&mut s)
        .with_context(|| format!("decompressing {}", path.display()))?;
    Ok(s)
}

/// FinanceDatabase v2 per-exchange CSVs: rows with website, summary, industry and country.
pub fn read_fd_v2(data: &Path, geo: &Geo, m: &mut Merged) -> anyhow::Result<usize> {
    let dir = data.join("financedatabase/equities_v2_by_exchange");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".csv.gz"))
        .collect();
    files.sort();
    let mut seen = BTreeSet::new();
    for path in files {
        let text = gz_text(&path)?;
        let mut rdr = csv::Reader::from_reader(text.as_bytes());
        let h = rdr.headers()?.clone();
        let idx: HashMap<&str, usize> = h.iter().enumerate().map(|(i, n)| (n, i)).collect();
        let get = |rec: &csv::StringRecord, n: &str| {
            idx.get(n)
                .and_then(|&i| rec.get(i))
                .unwrap_or("")
                .to_string()
        };
        for rec in rdr.records() {
            let rec = rec.with_context(|| format!("parsing {}", path.display()))?;
            // Every listing with a website and a country; summary and industry where present
            // (about 1,300 listings, mostly on KOE, have a sector but no industry).
            let (Some((domain, www)), Some(country)) = (
                normalize_domain(&get(&rec, "website")),
                opt(&get(&rec, "country")),
            ) else {
                continue;
            };
            let summary = opt(&get(&rec, "summary")).unwrap_or_default();
            let Some(cc) = geo.country(&country) else {
                continue;
            };
            seen.insert(domain.clone());
            let name = get(&rec, "name");
            let mut r = Raw {
                domain,
                name: name.clone(),
                legal_name: Some(name),
                year_founded: founded_year(&summary),
                description: summary,
                country: Some(cc),
                state: opt(&get(&rec, "state")),
                city: opt(&get(&rec, "city")),
                postal_code: opt(&get(&rec, "zipcode")),
                industry_texts: opt(&get(&rec, "industry")).into_iter().collect(),
                market_cap: opt(&get(&rec, "market_cap")),
                listed: true,
                tickers: vec![get(&rec, "symbol")],
                ..Raw::default()
            };
            if let Some(g) = opt(&get(&rec, "industry_group")) {
                r.industry_texts.push(g);
            }
            if let Some(s) = opt(&get(&rec, "sector")) {
                r.sectors.push(s);
            }
            r.sources.insert("financedatabase".into());
            m.add(r, www);
        }
    }
    Ok(seen.len())
}

/// FinanceDatabase v1 US aggregate: rows with website, summary and industry.
pub fn read_fd_v1(data: &Path, geo: &Geo, m: &mut Merged) -> anyhow::Result<usize> {
    let path =
        data.join("financedatabase/us_equities_v1_2023-03/us_equities_v1_aggregated.json.gz");
    let v: Value = serde_json::from_str(&gz_text(&path)?)
        .with_context(|| format!("parsing {}", path.display()))?;
    let obj = v.as_object().context("us equities: not an object")?;
    let mut keys: Vec<&String> = obj.keys().collect();
    keys.sort();
    let mut seen = BTreeSet::new();
    for k in keys {
        let e = &obj[k];
        let s = |n: &str| e[n].as_str().and_then(opt);
        let (Some((domain, www)), Some(summary), Some(industry)) = (
            s("website").and_then(|w| normalize_domain(&w)),
            s("summary"),
            s("industry"),
        ) else {
            continue;
        };
        seen.insert(domain.clone());
        let name = s("long_name").or(s("short_name")).unwrap_or_default();
        let mut r = Raw {
            domain,
            name: name.clone(),
            legal_name: Some(name),
            year_founded: founded_year(&summary),
            description: summary,
            country: s("country")
                .and_then(|c| geo.country(&c))
                .or(Some("us".into())),
            state: s("state"),
            city: s("city"),
            postal_code: s("zipcode"),
            industry_texts: vec![industry],
            sectors: s("sector").into_iter().collect(),
            market_cap: s("market_cap"),
            listed: true,
            tickers: vec![k.split('.').next().unwrap_or(k).to_string()],
            ..Raw::default()
        };
        r.sources.insert("financedatabase".into());
        m.add(r, www);
    }
    Ok(seen.len())
}

fn str_list(v: &Value) -> Vec<String> {
    match v {
        Value::Array(a) => a
            .iter()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect(),
        Value::String(s) => s
            .trim_matches(['[', ']'])
            .split(',')
            .map(|x| x.trim().trim_matches(['\'', '"']).to_string())
            .filter(|x| !x.is_empty())
            .collect(),
        _ => Vec::new(),
    }
}

/// What the corralm CSV adds to a YC row: (ISO2 country, year founded, LinkedIn URL, website).
type CorralmRow = (Option<String>, Option<i32>, Option<String>, Option<String>);

/// YC combined JSON joined with the corralm CSV on id (ISO2 country, year founded, LinkedIn URL,
/// alternate website).
pub fn read_yc(data: &Path, geo: &Geo, m: &mut Merged) -> anyhow::Result<usize> {
    let csv_path = data.join("yc-companies/corralm_2024-05-11_yc_companies_no_founder_names.csv");
    let mut extra: HashMap<String, CorralmRow> = HashMap::new();
    let mut rdr = csv::Reader::from_path(&csv_path)
        .with_context(|| format!("reading {}", csv_path.display()))?;
    let h = rdr.headers()?.clone();
    let idx: HashMap<&str, usize> = h.iter().enumerate().map(|(i, n)| (n, i)).collect();
    for rec in rdr.records() {
        let rec = rec?;
        let g = |n: &str| idx.get(n).and_then(|&i| rec.get(i)).and_then(opt);
        let Some(id) = g("company_id") else { continue };
        let year = g("year_founded")
            .and_then(|y| y.parse::<f64>().ok())
            .map(|y| y as i32);
        extra.insert(
            id,
            (
                g("country").map(|c| c.to_lowercase()),
                year,
                g("linkedin_url"),
                g("website"),
            ),
        );
    }
    let path = data.join("yc-companies/yc_companies_combined.json");
    let v = read_json(&path)?;
    let mut seen = BTreeSet::new();
    for c in v.as_array().context("yc: not a list")? {
        let s = |n: &str| match &c[n] {
            Value::String(x) => opt(x),
            Value::Number(x) => Some(x.to_string()),
            _ => None,
        };
        let Some((domain, www)) = s("website").and_then(|w| normalize_domain(&w)) else {
            continue;
        };
        // A startup whose "website" is a page on a platform (its Facebook, AngelList or App
        // Store page; "acquired by Facebook" pointing at facebook.com) has no domain of its own:
        // taking the platform's domain would give e.g. facebook.com the name "Vidpresso".
        if is_platform_host(&domain) {
            continue;
        }
        let id = s("id").unwrap_or_default();
        let ex = extra.get(&id).cloned().unwrap_or_default();
        let loc = s("all_locations").unwrap_or_default();
        let first_loc = loc.split(';').next().unwrap_or("").to_string();
        let parts: Vec<&str> = first_loc.split(',').map(str::trim).collect();
        let country =
            ex.0.clone()
                .filter(|c| c.len() == 2)
                .or_else(|| parts.last().and_then(|p| geo.country(p)))
                .or_else(|| str_list(&c["regions"]).iter().find_map(|r| geo.country(r)));
        let (city, state) = match parts.len() {
            0 => (None, None),
            1 => (None, None),
            2 => (opt(parts[0]), None),
            _ => (opt(parts[0]), opt(parts[1])),
        };
        let mut desc = s("long_description").unwrap_or_default();
        if desc.len() < 40 {
            desc = s("one_liner").unwrap_or(desc);
        }
        let one = s("one_liner").unwrap_or_default();
        let mut r = Raw {
            domain: domain.clone(),
            name: s("name").unwrap_or_default(),
            year_founded: ex.1.or_else(|| founded_year(&desc)),
            description: desc,
            country: country.or(Some("us".into())),
            state,
            city,
            industry_texts: [s("subindustry"), s("industry")]
                .into_iter()
                .flatten()
                .collect(),
            sectors: s("industry").into_iter().collect(),
            tags: str_list(&c["tags"]),
            employees: s("team_size")
                .and_then(|t| t.parse::<f64>().ok())
                .filter(|t| *t > 0.0)
                .map(|t| t as u32),
            yc: Some(YcInfo {
                batch: s("batch").unwrap_or_default(),
                stage: s("stage").unwrap_or_default(),
                status: s("status").unwrap_or_default(),
            }),
            linkedin: ex.2.clone(),
            ..Raw::default()
        };
        if r.description.is_empty() {
            r.description = one;
        }
        if let Some((alt, _)) = ex.3.as_deref().and_then(normalize_domain)
            && alt != domain
        {
            r.aliases.insert(alt);
        }
        r.sources.insert("yc".into());
        seen.insert(domain);
        m.add(r, www);
    }
    Ok(seen.len())
}

/// Wikipedia companies CSV: rows with website, industry, country and employee count.
pub fn read_wikipedia(data: &Path, geo: &Geo, m: &mut Merged) -> anyhow::Result<usize> {
    let path = data.join("wikipedia-companies-boberle/companies.csv");
    let mut rdr =
        csv::Reader::from_path(&path).with_context(|| format!("reading {}", path.display()))?;
    let h = rdr.headers()?.clone();
    let idx: HashMap<&str, usize> = h.iter().enumerate().map(|(i, n)| (n, i)).collect();
    let mut seen = BTreeSet::new();
    for rec in rdr.records() {
        let rec = rec?;
        let g = |n: &str| idx.get(n).and_then(|&i| rec.get(i)).and_then(opt);
        let (Some((domain, www)), Some(industry), Some(country), Some(people)) = (
            g("web").and_then(|w| normalize_domain(&w)),
            g("industry"),
            g("country"),
            g("people"),
        ) else {
            continue;
        };
        let Some(cc) = geo.country(&country) else {
            continue;
        };
        let desc = g("description").unwrap_or_default();
        let mut r = Raw {
            domain: domain.clone(),
            name: g("name").unwrap_or_default(),
            year_founded: founded_year(&desc),
            description: desc,
            country: Some(cc),
            industry_texts: vec![industry],
            employees: people
                .parse::<f64>()
                .ok()
                .filter(|p| *p > 0.0)
                .map(|p| p as u32),
            ..Raw::default()
        };
        r.sources.insert("wikipedia".into());
        seen.insert(domain);
        m.add(r, www);
    }
    Ok(seen.len())
}

fn name_key(s: &str) -> String {
    let lower = s.to_lowercase().replace('&', " and ");
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| {
            !w.is_empty()
                && ![
                    "inc",
                    "corp",
                    "corporation",
                    "co",
                    "company",
                    "plc",
                    "ltd",
                    "the",
                    "holdings",
                    "group",
                    "class",
                    "incorporated",
                    "n",
                    "v",
                    "sa",
                    "ag",
                    "llc",
                    "lp",
                ]
                .contains(w)
        })
        .collect();
    words.join(" ")
}

/// S&P 500: joins rows onto existing companies by ticker (FinanceDatabase symbol) or name, adding
/// GICS texts, HQ and year founded. Returns the number joined.
pub fn join_sp500(data: &Path, geo: &Geo, m: &mut Merged) -> anyhow::Result<usize> {
    let path = data.join("sp500-constituents/constituents.csv");
    let mut rdr =
        csv::Reader::from_path(&path).with_context(|| format!("reading {}", path.display()))?;
    let mut by_ticker: HashMap<String, String> = HashMap::new();
    let mut by_name: HashMap<String, String> = HashMap::new();
    for (d, r) in &m.by_domain {
        if r.country.as_deref() == Some("us") || r.listed {
            for t in &r.tickers {
                by_ticker
                    .entry(t.to_uppercase())
                    .or_insert_with(|| d.clone());
            }
            by_name
                .entry(name_key(&r.name))
                .or_insert_with(|| d.clone());
        }
    }
    let mut joined = 0;
    for rec in rdr.records() {
        let rec = rec?;
        let (sym, name, sector, sub, hq, founded) =
            (&rec[0], &rec[1], &rec[2], &rec[3], &rec[4], &rec[7]);
        let dom = by_name
            .get(&name_key(name))
            .or_else(|| by_ticker.get(&sym.to_uppercase()))
            .or_else(|| by_ticker.get(&sym.replace('.', "-").to_uppercase()))
            .cloned();
        let Some(dom) = dom else { continue };
        let r = m.by_domain.get_mut(&dom).expect("indexed");
        joined += 1;
        r.sources.insert("sp500".into());
        r.industry_texts.insert(0, sub.to_string());
        r.sectors.push(sector.to_string());
        if r.year_founded.is_none() {
            r.year_founded = founded.get(..4).and_then(|y| y.parse().ok());
        }
        let parts: Vec<&str> = hq.split(',').map(str::trim).collect();
        if parts.len() == 2 {
            if let Some(cc) = geo.country(parts[1]) {
                if r.country.is_none() {
                    r.country = Some(cc);
                }
            } else if r.state.is_none() && r.country.as_deref() == Some("us") {
                r.state = Some(parts[1].to_string());
                r.city = Some(parts[0].to_string());
            }
        }
    }
    Ok(joined)
}

/// Hosts of platforms on which a company may have a page but which are not its own domain.
const PLATFORM_HOSTS: &[&str] = &[
    "angel.co",
    "apple.com",
    "blogspot.com",
    "crunchbase.com",
    "facebook.com",
    "github.com",
    "github.io",
    "google.com",
    "instagram.com",
    "linkedin.com",
    "m.me",
    "medium.com",
    "notion.site",
    "producthunt.com",
    "twitter.com",
    "wixsite.com",
    "x.com",
    "ycombinator.com",
    "youtube.com",
];

/// `true` when `domain` is one of [`PLATFORM_HOSTS`] or a subdomain of one.
fn is_platform_host(domain: &str) -> bool {
    PLATFORM_HOSTS.iter().any(|h| {
        domain == *h || (domain.ends_with(h) && domain[..domain.len() - h.len()].ends_with('.'))
    })
}

#[cfg(test)]
mod platform_tests {
    use super::is_platform_host;

    #[test]
    fn platform_pages_are_not_company_domains() {
        assert!(is_platform_host("facebook.com"));
        assert!(is_platform_host("itunes.apple.com"));
        assert!(is_platform_host("googleblog.blogspot.com"));
        assert!(!is_platform_host("flexport.com"));
        assert!(!is_platform_host("notfacebook.com"));
    }
}
