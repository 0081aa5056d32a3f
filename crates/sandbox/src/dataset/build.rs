//! `prospect build-assets`: builds `assets/dataset.postcard.zst` (see [`super::format`]) from the
//! raw public data in `../shared/data` (its README.md lists sources, licenses and rules).
//!
//! Steps: read the company sources (Wikipedia, YC + corralm join, FinanceDatabase v2 per exchange
//! and v1 US) and merge them by normalised domain; join S&P 500 by name/ticker; map countries to
//! ISO alpha-2 and regions to ISO 3166-2; map industries onto LinkedIn V2 (see `industry`);
//! generate the fields no open source has, deterministically from the domain (see `generate`);
//! load the reference data (see `reference`); write postcard + zstd atomically (temp file in the
//! output folder, then rename) and print a summary.

mod generate;
mod industry;
mod names;
mod reference;
mod sources;
mod util;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;

use super::format::{
    CompanyRow, DATASET_FILE, Dataset, FORMAT_VERSION, Reference, postcard_frames,
};
use sources::{Merged, Raw};
use util::{scrub, truncate_words};

/// Arguments of `prospect build-assets`.
#[derive(Debug, Clone, clap::Args)]
pub struct BuildArgs {
    /// Folder of the raw public data (the project's `../shared/data`).
    #[arg(long, default_value = "../shared/data")]
    pub data: PathBuf,
    /// Folder to write the dataset into.
    #[arg(long, default_value = "assets")]
    pub out: PathBuf,
}

/// Most job titles in the reference data.
const MAX_JOB_TITLES: usize = 7_000;
/// Most skills in the reference data.
const MAX_SKILLS: usize = 6_000;
/// Description length limit, characters.
const MAX_DESCRIPTION: usize = 600;

/// Runs the build: reads `args.data`, writes `args.out/dataset.postcard.zst` atomically and prints
/// a summary (rows per source, size, time). Errors: a source file missing or unreadable (the
/// message names it), an industry mapping label unknown to the LinkedIn V2 list, I/O errors on
/// the output folder.
pub fn run(args: BuildArgs) -> anyhow::Result<()> {
    let start = Instant::now();
    let data = args.data.as_path();
    let dataset = build_dataset(data)?;
    let frames = postcard_frames(&dataset).context("serializing the dataset")?;
    let raw_size: usize = frames.iter().map(Vec::len).sum();
    let size = write_atomically(&args.out, &frames)?;
    let mut per_source: BTreeMap<&str, usize> = BTreeMap::new();
    for c in &dataset.companies {
        for s in &c.sources {
            *per_source.entry(s.as_str()).or_default() += 1;
        }
    }
    println!(
        "dataset: {} companies (format v{FORMAT_VERSION})",
        dataset.companies.len()
    );
    for (s, n) in per_source {
        println!("  from {s}: {n}");
    }
    let r = &dataset.reference;
    println!(
        "reference: {} industry categories, {} classic industries, {} technologies, {} countries, {} regions, {} job titles, {} skills, {} name groups",
        r.industries.len(),
        r.linkedin_industries.len(),
        r.technologies.len(),
        r.countries.len(),
        r.regions.len(),
        r.job_titles.len(),
        r.skills.len(),
        r.first_names.len()
    );
    println!(
        "wrote {} ({:.2} MB; {:.1} MB uncompressed) in {:.1} s",
        args.out.join(DATASET_FILE).display(),
        size as f64 / 1e6,
        raw_size as f64 / 1e6,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Compresses each frame with zstd (level 19, long-distance matching, 16 MiB window so that
/// decoding needs little memory; each frame records its content size), concatenates them and
/// writes `out/dataset.postcard.zst` atomically (mode 0644). Returns the compressed
/// size in bytes.
fn write_atomically(out: &Path, frames: &[Vec<u8>]) -> anyhow::Result<u64> {
    use zstd::zstd_safe::CParameter;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let mut c = zstd::bulk::Compressor::new(19)?;
    c.set_parameter(CParameter::EnableLongDistanceMatching(true))?;
    c.set_parameter(CParameter::WindowLog(24))?;
    let mut compressed = Vec::new();
    for frame in frames {
        compressed.extend(c.compress(frame).context("zstd compression")?);
    }
    let target = out.join(DATASET_FILE);
    prospect_common::fsutil::write_atomic(
        &target,
        &compressed,
        prospect_common::fsutil::Access::Shared,
    )
    .with_context(|| format!("writing {}", target.display()))?;
    Ok(std::fs::metadata(&target)?.len())
}

/// Builds the whole [`Dataset`] in memory from the raw data folder.
pub fn build_dataset(data: &Path) -> anyhow::Result<Dataset> {
    let geo = reference::Geo::load(data)?;
    if !geo.unknown_codes.is_empty() {
        println!(
            "note: city table codes not in iso-codes (ignored): {:?}",
            geo.unknown_codes
        );
    }
    let (v2, categories) = reference::load_industries(data)?;
    let category_of: HashMap<&str, &str> =
        v2.iter().map(|(l, c)| (l.as_str(), c.as_str())).collect();
    for (_, label) in industry::RULES
        .iter()
        .chain(industry::SECTOR_DEFAULTS)
        .chain(industry::TAG_RULES)
    {
        anyhow::ensure!(
            category_of.contains_key(label),
            "industry mapping: {label:?} is not a LinkedIn V2 industry"
        );
    }
    let classic = reference::load_classic(data)?;
    let technologies = reference::load_technologies(data)?;

    let mut merged = Merged::default();
    let n_wiki = sources::read_wikipedia(data, &geo, &mut merged)?;
    let n_yc = sources::read_yc(data, &geo, &mut merged)?;
    let n_fd2 = sources::read_fd_v2(data, &geo, &mut merged)?;
    let n_fd1 = sources::read_fd_v1(data, &geo, &mut merged)?;
    let n_sp = sources::join_sp500(data, &geo, &mut merged)?;
    println!(
        "read: wikipedia {n_wiki}, yc {n_yc}, financedatabase v2 {n_fd2}, financedatabase v1 (US) {n_fd1}, s&p 500 joined {n_sp}; {} unique domains",
        merged.by_domain.len()
    );
    let majestic = read_majestic(data)?;

    // Aliases must not be another company's domain nor be claimed twice.
    let primaries: BTreeSet<String> = merged.by_domain.keys().cloned().collect();
    let mut claimed = BTreeSet::new();
    for raw in merged.by_domain.values_mut() {
        let aliases = std::mem::take(&mut raw.aliases);
        raw.aliases = aliases
            .into_iter()
            .filter(|a| *a != raw.domain && !primaries.contains(a) && claimed.insert(a.clone()))
            .collect();
    }

    // Document frequency of description words, for keyword ranking.
    let mut df: HashMap<String, u32> = HashMap::new();
    for raw in merged.by_domain.values() {
        let words: BTreeSet<String> = util::candidate_words(&raw.description)
            .into_iter()
            .collect();
        for w in words {
            *df.entry(w).or_default() += 1;
        }
    }
    let ctx = Ctx {
        geo: &geo,
        category_of: &category_of,
        classic: &classic,
        technologies: &technologies,
        majestic: &majestic,
        df: &df,
        n_docs: merged.by_domain.len(),
    };
    let mut stats = Stats::default();
    let companies: Vec<CompanyRow> = merged
        .by_domain
        .values()
        .map(|raw| company_row(raw, &ctx, &mut stats))
        .collect();
    println!(
        "mapping: region {}/{} ({} of {} US rows), industry from fallback {}, year founded {}, linkedin industry {}, lat/lon {}",
        stats.region,
        companies.len(),
        stats.us_region,
        stats.us,
        stats.industry_fallback,
        stats.year,
        stats.classic,
        stats.latlon
    );

    let mut industries: Vec<(String, Vec<String>)> =
        categories.iter().map(|c| (c.clone(), Vec::new())).collect();
    for (label, cat) in &v2 {
        if let Some(e) = industries.iter_mut().find(|e| e.0 == *cat) {
            e.1.push(label.clone());
        }
    }
    let job_titles = reference::load_job_titles(data, MAX_JOB_TITLES)?;
    for s in reference::SENIORITIES {
        anyhow::ensure!(
            job_titles.iter().any(|t| t.seniority == *s),
            "no job title has seniority {s}"
        );
    }
    for d in reference::DEPARTMENTS {
        anyhow::ensure!(
            job_titles.iter().any(|t| t.department == *d),
            "no job title has department {d}"
        );
    }
    let reference = Reference {
        industries,
        linkedin_industries: classic
            .iter()
            .map(|c| reference::classic_label(c))
            .collect(),
        technologies,
        countries: geo.countries.clone(),
        regions: geo.regions.clone(),
        job_titles,
        skills: reference::load_skills(data, MAX_SKILLS)?,
        first_names: names::GROUPS
            .iter()
            .map(|(cc, f, _)| {
                (
                    cc.iter().map(|s| s.to_string()).collect(),
                    f.iter().map(|s| s.to_string()).collect(),
                )
            })
            .collect(),
        last_names: names::GROUPS
            .iter()
            .map(|(cc, _, l)| {
                (
                    cc.iter().map(|s| s.to_string()).collect(),
                    l.iter().map(|s| s.to_string()).collect(),
                )
            })
            .collect(),
    };
    Ok(Dataset {
        version: FORMAT_VERSION,
        companies,
        reference,
    })
}

/// Majestic Million top 15k: domain -> global rank.
fn read_majestic(data: &Path) -> anyhow::Result<HashMap<String, u32>> {
    let path = data.join("majestic-million-top15k/majestic_million_top15000.csv");
    let mut rdr =
        csv::Reader::from_path(&path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = HashMap::new();
    for rec in rdr.records() {
        let rec = rec?;
        if let (Ok(rank), Some(d)) = (rec[0].parse::<u32>(), rec.get(2)) {
            out.entry(d.to_lowercase()).or_insert(rank);
        }
    }
    Ok(out)
}

#[derive(Debug, Default)]
struct Stats {
    region: usize,
    us: usize,
    us_region: usize,
    industry_fallback: usize,
    year: usize,
    classic: usize,
    latlon: usize,
}

/// What every row's mapping needs.
struct Ctx<'a> {
    geo: &'a reference::Geo,
    category_of: &'a HashMap<&'a str, &'a str>,
    classic: &'a [String],
    technologies: &'a [(String, Vec<String>)],
    majestic: &'a HashMap<String, u32>,
    df: &'a HashMap<String, u32>,
    n_docs: usize,
}

/// Turns a merged source row into the final row: mapping plus generated fields.
fn company_row(raw: &Raw, ctx: &Ctx<'_>, stats: &mut Stats) -> CompanyRow {
    let Ctx {
        geo,
        category_of,
        classic,
        technologies,
        majestic,
        ..
    } = *ctx;
    let d = raw.domain.as_str();
    let country = raw.country.clone().unwrap_or_else(|| "us".into());
    let region_code = geo.region(&country, raw.state.as_deref(), raw.city.as_deref());
    let region = region_code
        .as_ref()
        .and_then(|c| geo.region_name.get(c).cloned());
    if region_code.is_some() {
        stats.region += 1;
    }
    if country == "us" {
        stats.us += 1;
        if region_code.is_some() {
            stats.us_region += 1;
        }
    }

    // Industries: each source text, then YC tags, then sector defaults, then the description.
    let mut industries: Vec<String> = Vec::new();
    let push = |l: &str, v: &mut Vec<String>| {
        if v.len() < 3 && !v.iter().any(|x| x == l) {
            v.push(l.to_string());
        }
    };
    for t in &raw.industry_texts {
        if let Some(l) = industry::map_text(t) {
            push(l, &mut industries);
            break;
        }
    }
    for tag in &raw.tags {
        let t = tag.to_lowercase();
        if let Some((_, l)) = industry::TAG_RULES.iter().find(|(k, _)| *k == t) {
            push(l, &mut industries);
        }
    }
    if industries.is_empty() {
        stats.industry_fallback += 1;
        if std::env::var_os("PROSPECT_BUILD_DEBUG").is_some() {
            eprintln!(
                "unmapped industry: {:?} / sectors {:?}",
                raw.industry_texts, raw.sectors
            );
        }
        if let Some(l) = raw.sectors.iter().find_map(|s| industry::map_sector(s)) {
            push(l, &mut industries);
        } else if let Some(l) = industry::map_text(&raw.description) {
            push(l, &mut industries);
        } else {
            push(
                if raw.yc.is_some() {
                    "Software Development"
                } else {
                    "Professional Services"
                },
                &mut industries,
            );
        }
    }
    let mut industry_categories: Vec<String> = Vec::new();
    for i in &industries {
        let c = category_of
            .get(i.as_str())
            .copied()
            .unwrap_or("Professional Services")
            .to_string();
        if !industry_categories.contains(&c) {
            industry_categories.push(c);
        }
    }
    let category = industry_categories[0].clone();
    let linkedin_industry =
        classic_for_any(&industries, classic).map(|c| reference::classic_label(&c));
    if linkedin_industry.is_some() {
        stats.classic += 1;
    }

    let description = truncate_words(&scrub(&raw.description), MAX_DESCRIPTION);
    let mut keywords: Vec<String> = Vec::new();
    for t in raw.tags.iter().take(6) {
        let k = t.to_lowercase().replace('-', " ");
        if !keywords.contains(&k) {
            keywords.push(k);
        }
    }
    let mut exclude = util::candidate_words(&raw.name);
    exclude.extend(d.split('.').map(str::to_string));
    for k in util::rank_keywords(
        &util::candidate_words(&description),
        ctx.df,
        ctx.n_docs,
        &exclude,
        12,
    ) {
        if keywords.len() >= 12 {
            break;
        }
        if !keywords.contains(&k) {
            keywords.push(k);
        }
    }

    let startup = raw.yc.is_some() && !raw.listed;
    let early = raw.yc.as_ref().is_some_and(|y| y.stage == "Early") && !raw.listed;
    let (employees, employees_real) = match raw.employees {
        Some(e) => (e, true),
        None => (
            generate::employees(d, raw.market_cap.as_deref(), &category),
            false,
        ),
    };
    let year_founded = raw.year_founded;
    if year_founded.is_some() {
        stats.year += 1;
    }
    let ecommerce = generate::ecommerce(d, &category, &industries, &keywords);
    let (techs, tech_cats) =
        generate::technologies(d, employees, &category, ecommerce, technologies);
    let consumer = ecommerce
        || matches!(
            category.as_str(),
            "Retail" | "Consumer Services" | "Entertainment Providers" | "Accommodation Services"
        )
        || raw.industry_texts.iter().any(|t| t.starts_with("Consumer"));
    let majestic_rank = majestic.get(d).copied();
    let street = match raw.city.as_deref() {
        Some(_) => Some(generate::street_address(d, &country)),
        None => Some(generate::street_address(d, &country)),
    };
    let lat_lon = generate::lat_lon(d, &country, region_code.as_deref());
    if lat_lon.is_some() {
        stats.latlon += 1;
    }

    CompanyRow {
        domain: raw.domain.clone(),
        aliases: raw.aliases.iter().cloned().collect(),
        name: if raw.name.is_empty() {
            raw.domain.clone()
        } else {
            raw.name.clone()
        },
        legal_name: raw.legal_name.clone(),
        description,
        countries: vec![country.clone()],
        country: country.clone(),
        region_code,
        region,
        city: raw.city.clone(),
        postal_code: raw.postal_code.clone(),
        street_address: street,
        lat_lon,
        industry_categories,
        industries,
        linkedin_industry,
        keywords,
        year_founded,
        employees,
        employees_real,
        employees_linkedin: generate::employees_linkedin(d, employees),
        revenue_musd: generate::revenue_musd(d, employees, &category, early),
        ecommerce,
        technologies: techs,
        technology_categories: tech_cats,
        funding: generate::funding(
            d,
            raw.yc
                .as_ref()
                .map(|y| (y.batch.as_str(), y.stage.as_str(), y.status.as_str())),
            raw.listed,
            employees,
            year_founded,
        ),
        traffic: generate::traffic(d, majestic_rank, employees),
        majestic_rank,
        headcount_growth: generate::headcount_growth(d, startup),
        department_sizes: generate::department_sizes(d, employees, &category),
        phones: generate::phones(d, &country, employees),
        emails: generate::emails(d, employees),
        medias: generate::medias(d, &raw.name, raw.linkedin.as_deref(), &country, consumer),
        mobile_apps: generate::mobile_apps(d, &raw.name, consumer),
        sources: raw.sources.iter().cloned().collect(),
    }
}

fn classic_for_any(industries: &[String], classic: &[String]) -> Option<String> {
    industries
        .iter()
        .find_map(|i| industry::classic_for(i, classic))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed asset decodes, has the current version, ≥ 39,000 companies with unique
    /// domains, and every company has an industry and its category.
    #[test]
    fn committed_asset_decodes() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../assets")
            .join(DATASET_FILE);
        let bytes = std::fs::read(&path).expect("assets/dataset.postcard.zst is committed");
        let ds: Dataset = super::super::load::decode(&bytes).expect("the asset decodes");
        assert_eq!(ds.version, FORMAT_VERSION);
        assert!(
            ds.companies.len() >= 39_000,
            "{} companies",
            ds.companies.len()
        );
        let domains: BTreeSet<&str> = ds.companies.iter().map(|c| c.domain.as_str()).collect();
        assert_eq!(domains.len(), ds.companies.len());
        assert!(
            ds.companies
                .iter()
                .all(|c| !c.industries.is_empty() && !c.industry_categories.is_empty())
        );
        assert!(
            ds.companies
                .iter()
                .all(|c| c.emails.iter().all(|e| e.ends_with(".example")))
        );
        for s in reference::SENIORITIES {
            assert!(
                ds.reference.job_titles.iter().any(|t| t.seniority == *s),
                "no title for {s}"
            );
        }
        for d in reference::DEPARTMENTS {
            assert!(
                ds.reference.job_titles.iter().any(|t| t.department == *d),
                "no title for {d}"
            );
        }
        assert_eq!(ds.reference.industries.len(), 20);
    }
}
