//! Interned vocabularies and compact per-company columns: what makes filters fast.
//!
//! Every repeated string of the dataset (countries, regions, cities, industries, industry
//! categories, LinkedIn industries, keywords, technologies, technology categories, funding round
//! types) is interned once into a `u32` id; matching is case-insensitive (ids are keyed by the
//! lowercase form). Each company gets a [`CompanyCols`] row of numbers and sorted id lists, so
//! filter evaluation is integer comparisons over a `Vec`, no string work per company.

use crate::dataset::format::{CompanyRow, Reference};
use prospect_api::types::common::{CompanySize, Department, Revenue, SocialNetwork, WireEnum};

use super::{FastMap, hash_str, normalize_domain};

/// "No value" marker for optional interned ids.
pub const NONE: u32 = u32::MAX;

/// A case-insensitive string interner: ids are dense `0..len`, the display form is the first
/// spelling seen.
#[derive(Debug, Default, Clone)]
pub struct Interner {
    names: Vec<String>,
    map: FastMap<String, u32>,
    /// Exact spellings seen while building (a faster first look-up than lowercasing); emptied
    /// by [`Interner::seal`].
    exact: FastMap<String, u32>,
}

/// `s` trimmed and lowercased, borrowed when it already is.
fn lower_key(s: &str) -> std::borrow::Cow<'_, str> {
    let t = s.trim();
    if t.bytes().any(|b| b.is_ascii_uppercase() || b >= 0x80) {
        std::borrow::Cow::Owned(t.to_lowercase())
    } else {
        std::borrow::Cow::Borrowed(t)
    }
}

impl Interner {
    /// The id of `s` (case-insensitive), adding it when new.
    pub fn intern(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.exact.get(s) {
            return id;
        }
        let key = lower_key(s);
        let id = match self.map.get(key.as_ref()) {
            Some(&id) => id,
            None => {
                let id = self.names.len() as u32;
                self.names.push(s.trim().to_string());
                self.map.insert(key.into_owned(), id);
                id
            }
        };
        self.exact.insert(s.to_string(), id);
        id
    }
    /// Frees what only building needs (the exact-spelling cache) and spare capacity.
    pub fn seal(&mut self) {
        self.exact = FastMap::default();
        self.names.shrink_to_fit();
        self.map.shrink_to_fit();
    }
    /// The id of `s` (case-insensitive) when known.
    pub fn get(&self, s: &str) -> Option<u32> {
        self.map.get(lower_key(s).as_ref()).copied()
    }
    /// The display form of an id (empty for [`NONE`] or out of range).
    pub fn name(&self, id: u32) -> &str {
        self.names
            .get(id as usize)
            .map(String::as_str)
            .unwrap_or("")
    }
    /// Number of distinct strings.
    pub fn len(&self) -> usize {
        self.names.len()
    }
    /// `true` when nothing is interned.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
    /// All display forms, by id.
    pub fn names(&self) -> &[String] {
        &self.names
    }
}

/// The interned vocabularies of the dataset.
#[derive(Debug, Default, Clone)]
pub struct Vocab {
    /// Country codes, lowercase alpha-2.
    pub countries: Interner,
    /// Region keys `cc-abbr` in lowercase, e.g. `us-ca` (from ISO 3166-2 `US-CA`).
    pub regions: Interner,
    /// City names.
    pub cities: Interner,
    /// LinkedIn V2 industries.
    pub industries: Interner,
    /// LinkedIn V2 industry categories.
    pub categories: Interner,
    /// Classic LinkedIn industry labels.
    pub linkedin_industries: Interner,
    /// Keywords.
    pub keywords: Interner,
    /// Technology names.
    pub technologies: Interner,
    /// Technology categories.
    pub tech_categories: Interner,
    /// Funding round types.
    pub funding_types: Interner,
}

/// One interner of a [`Vocab`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VocabField {
    /// [`Vocab::countries`].
    Countries,
    /// [`Vocab::regions`].
    Regions,
    /// [`Vocab::cities`].
    Cities,
    /// [`Vocab::industries`].
    Industries,
    /// [`Vocab::categories`].
    Categories,
    /// [`Vocab::linkedin_industries`].
    LinkedinIndustries,
    /// [`Vocab::keywords`].
    Keywords,
    /// [`Vocab::technologies`].
    Technologies,
    /// [`Vocab::tech_categories`].
    TechCategories,
    /// [`Vocab::funding_types`].
    FundingTypes,
}

impl Vocab {
    /// The interner of `f`.
    pub fn interner(&self, f: VocabField) -> &Interner {
        match f {
            VocabField::Countries => &self.countries,
            VocabField::Regions => &self.regions,
            VocabField::Cities => &self.cities,
            VocabField::Industries => &self.industries,
            VocabField::Categories => &self.categories,
            VocabField::LinkedinIndustries => &self.linkedin_industries,
            VocabField::Keywords => &self.keywords,
            VocabField::Technologies => &self.technologies,
            VocabField::TechCategories => &self.tech_categories,
            VocabField::FundingTypes => &self.funding_types,
        }
    }

    fn interner_mut(&mut self, f: VocabField) -> &mut Interner {
        match f {
            VocabField::Countries => &mut self.countries,
            VocabField::Regions => &mut self.regions,
            VocabField::Cities => &mut self.cities,
            VocabField::Industries => &mut self.industries,
            VocabField::Categories => &mut self.categories,
            VocabField::LinkedinIndustries => &mut self.linkedin_industries,
            VocabField::Keywords => &mut self.keywords,
            VocabField::Technologies => &mut self.technologies,
            VocabField::TechCategories => &mut self.tech_categories,
            VocabField::FundingTypes => &mut self.funding_types,
        }
    }
}

/// Where [`company_cols`] takes its ids from: a vocabulary being built (strings are interned)
/// or a built one ([`KnownIds`]: look-up only).
pub trait VocabIds {
    /// The id of `s` in interner `f`, or [`NONE`] when `s` has none (and cannot get one).
    fn id(&mut self, f: VocabField, s: &str) -> u32;
}

impl VocabIds for Vocab {
    fn id(&mut self, f: VocabField, s: &str) -> u32 {
        self.interner_mut(f).intern(s)
    }
}

/// Ids of a built vocabulary: strings it does not know get [`NONE`] and are left out of the
/// columns' id lists (companies added after loading, see `Db::with_gathered`).
#[derive(Debug, Clone, Copy)]
pub struct KnownIds<'a>(pub &'a Vocab);

impl VocabIds for KnownIds<'_> {
    fn id(&mut self, f: VocabField, s: &str) -> u32 {
        self.0.interner(f).get(s).unwrap_or(NONE)
    }
}

/// Bit of each company field of the v2/v3 `fieldsExist` / `fieldsNotExist` enum
/// (openapi `CompaniesFiltersV1.fieldsExist`), in [`CompanyCols::fields`].
pub const COMPANY_EXIST_FIELDS: &[&str] = prospect_api::types::COMPANY_FILTER_FIELDS;

/// The bit of a `fieldsExist` company field name (also accepts dotted sub-fields such as
/// `webTraffic.visits`, mapped to their parent), or `None` for a name the sandbox has no data for.
pub fn company_field_bit(name: &str) -> Option<u32> {
    let head = name.split('.').next().unwrap_or(name);
    COMPANY_EXIST_FIELDS
        .iter()
        .position(|f| *f == head)
        .map(|p| 1u32 << p)
}

/// Countries whose companies publish an impressum (legal notice), generated for them.
pub const IMPRESSUM_COUNTRIES: [&str; 4] = ["de", "at", "ch", "li"];

/// The compact, filterable form of one company (index = company index in [`Db`](crate::dataset::load::Db)).
#[derive(Debug, Clone, Default)]
pub struct CompanyCols {
    /// `employeeCountService`.
    pub employees: u32,
    /// `employeeCountLinkedin`.
    pub employees_li: u32,
    /// `log10(1 + employees)`, for lookalike size closeness.
    pub log_emp: f32,
    /// Revenue, USD millions.
    pub revenue_musd: f32,
    /// Year founded, 0 when unknown.
    pub year: i32,
    /// Index of the `companySize` label in `CompanySize::ALL`.
    pub size: u8,
    /// Index of the `revenue` label in `Revenue::ALL`.
    pub revenue: u8,
    /// Primary country id.
    pub country: u32,
    /// All country ids (primary first).
    pub countries: Box<[u32]>,
    /// HQ region id (`Vocab::regions`) or [`NONE`].
    pub region: u32,
    /// HQ city id (`Vocab::cities`) or [`NONE`].
    pub city: u32,
    /// HQ latitude, degrees (NaN when unknown).
    pub lat: f32,
    /// HQ longitude, degrees (NaN when unknown).
    pub lon: f32,
    /// Sells online.
    pub ecommerce: bool,
    /// Web visits per month.
    pub visits: u64,
    /// Page views per month.
    pub page_views: u64,
    /// Funding date as `yyyymmdd`, 0 when no funding round.
    pub funding_date: u32,
    /// Funding type id (`Vocab::funding_types`) or [`NONE`].
    pub funding_type: u32,
    /// Funding raised in USD.
    pub funding_usd: f64,
    /// Head-count growth fractions over 3, 6, 12 months.
    pub growth: [f32; 3],
    /// Department sizes: (index in `Department::ALL`, size).
    pub dept_sizes: Box<[(u8, u32)]>,
    /// Bit `i` set when the company has a profile on `SocialNetwork::ALL[i]`.
    pub medias: u8,
    /// Number of mobile apps.
    pub n_apps: u32,
    /// Number of locations (HQ plus one per other country).
    pub n_locations: u32,
    /// Bits of [`COMPANY_EXIST_FIELDS`] that the company has.
    pub fields: u32,
    /// Industry ids, sorted.
    pub industries: Box<[u32]>,
    /// Industry ids in the source order (primary first), for records.
    pub industries_ord: Box<[u32]>,
    /// Industry category ids in the source order.
    pub categories_ord: Box<[u32]>,
    /// Keyword ids in the source order.
    pub keywords_ord: Box<[u32]>,
    /// Technology ids in the source order.
    pub technologies_ord: Box<[u32]>,
    /// Technology category ids in the source order.
    pub tech_categories_ord: Box<[u32]>,
    /// Industry category ids, sorted.
    pub categories: Box<[u32]>,
    /// LinkedIn industry id or [`NONE`].
    pub linkedin_industry: u32,
    /// Keyword ids, sorted.
    pub keywords: Box<[u32]>,
    /// Technology ids, sorted.
    pub technologies: Box<[u32]>,
    /// Technology category ids, sorted.
    pub tech_categories: Box<[u32]>,
    /// Months since the record was last updated (0–8, generated, stable).
    pub updated_ago: u8,
    /// Position in the default order (no lookalike): Majestic rank, then size, then domain.
    pub default_rank: u32,
    /// Range of this company's people in `People::rows`.
    pub people: (u32, u32),
}

/// Head-count growth of one department over 3, 6 and 12 months (fractions), generated
/// deterministically from the company's overall growth and the department (the dataset has
/// only the overall figure): overall growth ± up to 6 points, stable per (domain, department).
pub fn department_growth(row: &CompanyRow, dept: u8) -> [f64; 3] {
    department_growth_of(hash_str(&row.domain), row.headcount_growth, dept)
}

/// [`department_growth`] from the company's domain hash ([`hash_str`]) and overall growth, for
/// callers that compute it for every department of a company (the hash once).
pub fn department_growth_of(domain_hash: u64, overall: [f64; 3], dept: u8) -> [f64; 3] {
    let h = domain_hash ^ (dept as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut r = super::SplitMix64(h);
    let mut g = [0.0; 3];
    for (i, v) in g.iter_mut().enumerate() {
        let spread = 0.02 * (i as f64 + 1.0);
        *v = ((overall[i] + (r.unit() - 0.5) * spread) * 1000.0).round() / 1000.0;
    }
    g
}

/// Index of a social network name of the dataset (`twitter` is `x`) in `SocialNetwork::ALL`.
pub fn media_bit(network: &str) -> Option<u8> {
    let n = if network.eq_ignore_ascii_case("twitter") {
        "x"
    } else {
        network
    };
    SocialNetwork::ALL
        .iter()
        .position(|s| s.as_str().eq_ignore_ascii_case(n))
        .map(|p| p as u8)
}

/// Index of a department name in `Department::ALL` (unknown names map to `Other`).
pub fn department_index(name: &str) -> u8 {
    Department::ALL
        .iter()
        .position(|d| d.as_str() == name)
        .or_else(|| {
            Department::ALL
                .iter()
                .position(|d| d.as_str().eq_ignore_ascii_case(name))
        })
        .unwrap_or(Department::ALL.len() - 1) as u8
}

/// Parses `YYYY-MM-DD` (or `YYYY-MM`, `YYYY`) into `yyyymmdd`; missing parts are 01 (or the
/// `fill` day/month when given, e.g. 12/31 for an upper bound).
pub fn parse_date(s: &str, upper: bool) -> Option<u32> {
    let mut parts = s.trim().split('-');
    let y: u32 = parts.next()?.parse().ok()?;
    let m: u32 = match parts.next() {
        Some(p) => p.parse().ok()?,
        None => {
            if upper {
                12
            } else {
                1
            }
        }
    };
    let d: u32 = match parts.next() {
        Some(p) => p.get(..2).unwrap_or(p).parse().ok()?,
        None => {
            if upper {
                31
            } else {
                1
            }
        }
    };
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || y > 9999 {
        return None;
    }
    Some(y * 10000 + m * 100 + d)
}

/// Maps from keys to companies: domains, aliases, social handles, names.
#[derive(Debug, Default, Clone)]
pub struct Index {
    /// Domain → company index.
    pub domains: FastMap<String, u32>,
    /// Alias (redirecting domain) → company index.
    pub aliases: FastMap<String, u32>,
    /// `(network, lowercase handle)` → company index (networks as in `SocialNetwork`, `x` for twitter).
    pub handles: FastMap<(u8, String), u32>,
    /// Lowercase normalized name → company indexes (several companies can share a name).
    pub names: FastMap<String, Vec<u32>>,
    /// First label of the domain (`acme` for `acme.io`) → company indexes; the local part of
    /// generated people's email domains (`@acme.example`).
    pub labels: FastMap<String, Vec<u32>>,
    /// Company phone number digits → company index.
    pub phones: FastMap<String, u32>,
    /// Company indexes in default order.
    pub default_order: Vec<u32>,
}

/// Lowercase name with punctuation collapsed and common legal suffixes removed, for
/// name matching (`"Stripe, Inc."` → `"stripe"`).
pub fn normalize_company_name(name: &str) -> String {
    const SUFFIXES: [&str; 22] = [
        "inc",
        "incorporated",
        "corp",
        "corporation",
        "co",
        "company",
        "ltd",
        "limited",
        "llc",
        "plc",
        "gmbh",
        "ag",
        "sa",
        "se",
        "nv",
        "bv",
        "ab",
        "asa",
        "spa",
        "srl",
        "oyj",
        "holdings",
    ];
    if !name.is_ascii() {
        let lower = super::ascii_fold(&name.replace(['.', ',', '&', '(', ')', '/'], " "));
        let mut words: Vec<&str> = lower.split_whitespace().collect();
        while words.len() > 1 && SUFFIXES.contains(words.last().unwrap_or(&"")) {
            words.pop();
        }
        return words.join(" ");
    }
    // ASCII (nearly every name): the same result in one pass and one allocation.
    let mut out = String::with_capacity(name.len());
    let mut space = false;
    for b in name.bytes() {
        let c = match b {
            b'a'..=b'z' | b'0'..=b'9' | b'-' => b,
            b'A'..=b'Z' => b.to_ascii_lowercase(),
            b' ' | b'\t' | b'_' | b'.' | b',' | b'&' | b'(' | b')' | b'/' => {
                space = true;
                continue;
            }
            _ => continue,
        };
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        out.push(char::from(c));
    }
    while let Some(p) = out.rfind(' ') {
        if SUFFIXES.contains(&&out[p + 1..]) {
            out.truncate(p);
        } else {
            break;
        }
    }
    out
}

/// `(number, country)` of a company phone pair of the dataset, whichever order it is stored
/// in (the number is the member with digits).
pub fn phone_parts<'a>(a: &'a str, b: &'a str) -> (&'a str, &'a str) {
    if a.bytes().any(|c| c.is_ascii_digit()) {
        (a, b)
    } else {
        (b, a)
    }
}

/// Digits of a phone number (`"+1 (555) 010-0123"` → `"15550100123"`).
pub fn phone_digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// Builds the vocabularies, the per-company columns and the key maps of a dataset.
pub fn build(companies: &[RowView<'_>], reference: &Reference) -> (Vocab, Vec<CompanyCols>, Index) {
    let mut v = Vocab::default();
    // Reference vocabularies first, so their spelling is the display form.
    for (cc, _) in &reference.countries {
        v.countries.intern(cc);
    }
    for (cat, inds) in &reference.industries {
        v.categories.intern(cat);
        for i in inds {
            v.industries.intern(i);
        }
    }
    for l in &reference.linkedin_industries {
        v.linkedin_industries.intern(l);
    }
    for (t, cats) in &reference.technologies {
        v.technologies.intern(t);
        for c in cats {
            v.tech_categories.intern(c);
        }
    }
    for (_, code, _, _) in &reference.regions {
        v.regions.intern(code);
    }
    for t in FundingKinds::ALL {
        v.funding_types.intern(t);
    }

    // The columns (which intern into `v`) and the key maps are independent: two threads.
    let (mut cols, idx) = std::thread::scope(|s| {
        let maps = s.spawn(|| key_maps(companies, 0));
        let cols: Vec<CompanyCols> = companies
            .iter()
            .map(|row| company_cols(&mut v, row))
            .collect();
        (cols, maps.join().expect("key maps thread"))
    });
    for (rank, &c) in idx.default_order.iter().enumerate() {
        cols[c as usize].default_rank = rank as u32;
    }
    for int in [
        &mut v.countries,
        &mut v.regions,
        &mut v.cities,
        &mut v.industries,
        &mut v.categories,
        &mut v.linkedin_industries,
        &mut v.keywords,
        &mut v.technologies,
        &mut v.tech_categories,
        &mut v.funding_types,
    ] {
        int.seal();
    }
    (v, cols, idx)
}

/// The domain, alias, handle, name, label and phone maps and the default order of companies;
/// `companies[0]` has company index `first` (companies added after loading come after the
/// dataset's).
pub fn key_maps(companies: &[RowView<'_>], first: u32) -> Index {
    let mut idx = Index::default();
    idx.add(companies, first);
    // Default order: companies with a Majestic rank first (by rank), then by employees
    // (descending), then by domain.
    let mut order: Vec<u32> = (0..companies.len() as u32).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (&companies[a as usize], &companies[b as usize]);
        let ka = (
            ra.majestic_rank.unwrap_or(u32::MAX),
            u32::MAX - ra.employees,
        );
        let kb = (
            rb.majestic_rank.unwrap_or(u32::MAX),
            u32::MAX - rb.employees,
        );
        ka.cmp(&kb).then_with(|| ra.domain.cmp(rb.domain))
    });
    idx.default_order = order.into_iter().map(|i| first + i).collect();
    idx
}

impl Index {
    /// Adds the keys of `companies` (`companies[0]` has company index `first`) to the maps;
    /// keys already taken keep their company (the default order is left as it is).
    pub fn add(&mut self, companies: &[RowView<'_>], first: u32) {
        let idx = self;
        idx.domains.reserve(companies.len());
        idx.names.reserve(companies.len());
        idx.labels.reserve(companies.len());
        for (i, row) in companies.iter().enumerate() {
            let i = first + i as u32;
            idx.domains.insert(row.domain.to_ascii_lowercase(), i);
            for a in &row.aliases {
                idx.aliases.entry(normalize_domain(a)).or_insert(i);
            }
            for (net, handle) in &row.medias {
                if let Some(b) = media_bit(net) {
                    idx.handles
                        .entry((b, handle.trim().to_lowercase()))
                        .or_insert(i);
                }
            }
            idx.names
                .entry(normalize_company_name(row.name))
                .or_default()
                .push(i);
            if let Some(l) = &row.legal_name {
                let n = normalize_company_name(l);
                let e = idx.names.entry(n).or_default();
                if !e.contains(&i) {
                    e.push(i);
                }
            }
            let label = row.domain.split('.').next().unwrap_or("").to_string();
            idx.labels.entry(label).or_default().push(i);
            for (a, b) in &row.phones {
                let (number, _) = phone_parts(a, b);
                idx.phones.entry(phone_digits(number)).or_insert(i);
            }
        }
    }
}

/// The funding round types known up front (openapi `FundingRoundType`).
struct FundingKinds;
impl FundingKinds {
    const ALL: &'static [&'static str] = prospect_api::types::common::FundingRoundType::ALL_STR;
}

fn sorted_ids(it: impl Iterator<Item = u32>) -> Box<[u32]> {
    let mut v: Vec<u32> = it.collect();
    v.sort_unstable();
    v.dedup();
    v.into_boxed_slice()
}

/// The [`CompanyCols::fields`] bits of presence flags given in the order of
/// [`COMPANY_EXIST_FIELDS`] (bit `i` is that list's name `i`, as [`company_field_bit`] says).
fn presence_bits(present: &[bool; COMPANY_EXIST_FIELDS.len()]) -> u32 {
    present
        .iter()
        .enumerate()
        .fold(0, |acc, (i, on)| acc | (u32::from(*on) << i))
}

/// The columns of one company, its strings turned into ids by `v` (ids [`NONE`] are left out
/// of the id lists). `default_rank` and `people` are left 0 for the caller to set.
pub fn company_cols(v: &mut impl VocabIds, row: &RowView<'_>) -> CompanyCols {
    let country = v.id(VocabField::Countries, row.country);
    let mut countries: Vec<u32> = vec![country];
    for c in &row.countries {
        let id = v.id(VocabField::Countries, c);
        if id != NONE && !countries.contains(&id) {
            countries.push(id);
        }
    }
    countries.retain(|&c| c != NONE);
    let region = row
        .region_code
        .map(|r| v.id(VocabField::Regions, r))
        .unwrap_or(NONE);
    let city = row
        .city
        .filter(|c| !c.trim().is_empty())
        .map(|c| v.id(VocabField::Cities, c))
        .unwrap_or(NONE);
    let (lat, lon) = row
        .lat_lon
        .map(|(a, b)| (a as f32, b as f32))
        .unwrap_or((f32::NAN, f32::NAN));
    let mut medias = 0u8;
    for (net, _) in &row.medias {
        if let Some(b) = media_bit(net) {
            medias |= 1 << b;
        }
    }
    let size = CompanySize::ALL
        .iter()
        .position(|s| *s == CompanySize::for_employees(row.employees as u64))
        .unwrap_or(0) as u8;
    let revenue = Revenue::ALL
        .iter()
        .position(|s| *s == Revenue::for_musd(row.revenue_musd))
        .unwrap_or(0) as u8;
    let (funding_date, funding_type, funding_usd) = match &row.funding {
        Some(f) => (
            parse_date(f.date, false).unwrap_or(0),
            v.id(VocabField::FundingTypes, f.kind),
            f.money_raised_usd,
        ),
        None => (0, NONE, 0.0),
    };
    let dept_sizes: Box<[(u8, u32)]> = row
        .department_sizes
        .iter()
        .map(|(d, n)| (department_index(d), *n))
        .collect();
    // One flag per name of `COMPANY_EXIST_FIELDS`, in that order.
    let present: [bool; COMPANY_EXIST_FIELDS.len()] = [
        true,                                       // companySize
        !countries.is_empty(),                      // countries
        !row.department_sizes.is_empty(),           // departmentSizes
        !row.description.trim().is_empty(),         // description
        !row.emails.is_empty(),                     // emails
        false,                                      // faxes
        IMPRESSUM_COUNTRIES.contains(&row.country), // impressum
        !row.industries.is_empty(),                 // industries
        !row.industry_categories.is_empty(),        // industryCategories
        !row.keywords.is_empty(),                   // keywords
        row.legal_name.is_some(),                   // legalName
        row.linkedin_industry.is_some(),            // linkedinIndustry
        true,                                       // locations
        true,                                       // logo
        !row.medias.is_empty(),                     // medias
        !row.mobile_apps.is_empty(),                // mobileApps
        !row.name.is_empty(),                       // name
        !row.phones.is_empty(),                     // phones
        !row.country.is_empty(),                    // primaryCountry
        true,                                       // revenue
        true,                                       // rootUrl
        !row.technologies.is_empty(),               // technologies
        !row.technology_categories.is_empty(),      // technologyCategories
        row.traffic.visits > 0,                     // webTraffic
        row.year_founded.is_some(),                 // yearFounded
    ];
    let fields = presence_bits(&present);
    let mut ordered = |f: VocabField, list: &[&str]| -> Box<[u32]> {
        let mut out: Vec<u32> = Vec::with_capacity(list.len());
        for x in list {
            let id = v.id(f, x);
            if id != NONE && !out.contains(&id) {
                out.push(id);
            }
        }
        out.into_boxed_slice()
    };
    let industries_ord = ordered(VocabField::Industries, &row.industries);
    let categories_ord = ordered(VocabField::Categories, &row.industry_categories);
    let keywords_ord = ordered(VocabField::Keywords, &row.keywords);
    let technologies_ord = ordered(VocabField::Technologies, &row.technologies);
    let tech_categories_ord = ordered(VocabField::TechCategories, &row.technology_categories);
    CompanyCols {
        employees: row.employees,
        employees_li: row.employees_linkedin,
        log_emp: (1.0 + row.employees as f64).log10() as f32,
        revenue_musd: row.revenue_musd as f32,
        year: row.year_founded.unwrap_or(0),
        size,
        revenue,
        country,
        n_locations: countries.len() as u32,
        countries: countries.into_boxed_slice(),
        region,
        city,
        lat,
        lon,
        ecommerce: row.ecommerce,
        visits: row.traffic.visits,
        page_views: row.traffic.page_views,
        funding_date,
        funding_type,
        funding_usd,
        growth: [
            row.headcount_growth[0] as f32,
            row.headcount_growth[1] as f32,
            row.headcount_growth[2] as f32,
        ],
        dept_sizes,
        medias,
        n_apps: row.mobile_apps.len() as u32,
        fields,
        industries: sorted_ids(industries_ord.iter().copied()),
        categories: sorted_ids(categories_ord.iter().copied()),
        industries_ord,
        categories_ord,
        linkedin_industry: row
            .linkedin_industry
            .map(|s| v.id(VocabField::LinkedinIndustries, s))
            .unwrap_or(NONE),
        keywords: sorted_ids(keywords_ord.iter().copied()),
        technologies: sorted_ids(technologies_ord.iter().copied()),
        tech_categories: sorted_ids(tech_categories_ord.iter().copied()),
        keywords_ord,
        technologies_ord,
        tech_categories_ord,
        updated_ago: (hash_str(row.domain) % 9) as u8,
        default_rank: 0,
        people: (0, 0),
    }
}

mod row_view;
pub use row_view::{FundingView, RowView};

#[cfg(test)]
mod tests;
