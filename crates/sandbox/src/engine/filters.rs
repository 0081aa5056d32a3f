//! Filter evaluation. The wire filter blocks (`CompaniesFiltersV2`/`V3`, `PeopleFiltersV2`/`V3`)
//! are first compiled ([`super::search`] does the translation) into a [`CompanyQuery`] and a
//! [`PeopleQuery`]: strings resolved to interned ids, bitmasks and sorted id lists, so that
//! evaluation over the compact columns does no string work for most members.
//!
//! Semantics, per member:
//! - lists with a mode: `anyOf` matches when the company has at least one of the values,
//!   `allOf` when it has all of them, `noneOf` when it has none. A value unknown to the dataset
//!   matches no company: an `anyOf` of unknown values matches nothing, an `allOf` with one
//!   unknown value matches nothing, a `noneOf` ignores it.
//! - ranges `{from, to}` are inclusive, either end open; a company without the value (e.g. no
//!   year founded, no funding round) fails a range on it.
//! - geolocation: haversine distance from the HQ (v2 `headquarterGeolocation`, v3 locations)
//!   or from any location (v2 `geolocation`; the sandbox knows only the HQ coordinates) within
//!   `radius` metres (openapi `GeolocationFilter.radius`).
//! - regions and cities are known for the HQ only; other locations carry a country only.
//! - every member given is ANDed with the others.

use crate::dataset::load::Db;
use prospect_api::types::common::FromTo;

use super::index::{CompanyCols, NONE};
use super::people::{PersonRow, ym_to_months};
use super::{FastMap, haversine_km};

/// Which list column a [`ListPred`] tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListField {
    /// `industries`.
    Industries,
    /// `industryCategories`.
    Categories,
    /// `keywords`.
    Keywords,
    /// `technologies` (v2) / `technologies.apps` (v3).
    Technologies,
    /// `technologies.categories` (v3).
    TechCategories,
    /// `countries` (all countries of presence).
    Countries,
}

/// How the values of a list predicate combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListMode {
    /// At least one.
    Any,
    /// All.
    All,
    /// None.
    None,
}

/// A list predicate over interned ids.
#[derive(Debug, Clone)]
pub struct ListPred {
    /// The column.
    pub field: ListField,
    /// The combination.
    pub mode: ListMode,
    /// Known ids.
    pub ids: Vec<u32>,
    /// `true` when the predicate can match nothing (unknown value in `All`, no known value in `Any`).
    pub impossible: bool,
}

/// Which number column a range tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumField {
    /// `yearFounded` (absent fails).
    Year,
    /// Number of countries.
    CountriesCount,
    /// `employeeCountService`.
    Employees,
    /// `employeeCountLinkedin`.
    EmployeesLinkedin,
    /// Number of mobile apps.
    MobileApps,
    /// Number of locations.
    Locations,
    /// Monthly web visits.
    Visits,
    /// Monthly page views.
    PageViews,
}

/// One city condition (`CompaniesCityFilter` / `PeopleCityFilter`).
#[derive(Debug, Clone, PartialEq)]
pub struct CityPred {
    /// City id, [`NONE`] when the city is unknown (matches nothing).
    pub city: u32,
    /// Country id when given ([`NONE`] when the given country is unknown).
    pub country: Option<u32>,
    /// Region id when given.
    pub region: Option<u32>,
    /// Postal code when given (compared case-insensitively with the HQ postal code).
    pub postal: Option<String>,
}

/// Location conditions of one scope (HQ, other locations, or any).
#[derive(Debug, Clone, Default)]
pub struct LocPred {
    /// Which locations: `true` = HQ only, `false` = non-HQ only (v3 `otherLocations`).
    pub hq: Option<bool>,
    /// Country ids to include (any of); `Some(empty)` matches nothing.
    pub include_countries: Option<Vec<u32>>,
    /// Country ids to exclude.
    pub exclude_countries: Vec<u32>,
    /// Region ids to include (any of).
    pub include_regions: Option<Vec<u32>>,
    /// Region ids to exclude.
    pub exclude_regions: Vec<u32>,
    /// Cities to include (any of).
    pub include_cities: Option<Vec<CityPred>>,
    /// Cities to exclude.
    pub exclude_cities: Vec<CityPred>,
    /// Within `(lat, lon, radius km)`.
    pub geo: Option<(f64, f64, f64)>,
}

impl LocPred {
    /// `true` when it has no condition (it matches every company, whatever its scope).
    pub fn is_empty(&self) -> bool {
        self.include_countries.is_none()
            && self.exclude_countries.is_empty()
            && self.include_regions.is_none()
            && self.exclude_regions.is_empty()
            && self.include_cities.is_none()
            && self.exclude_cities.is_empty()
            && self.geo.is_none()
    }
}

/// A funding round condition.
#[derive(Debug, Clone, Default)]
pub struct FundingPred {
    /// Date range as `yyyymmdd`, inclusive.
    pub date: Option<(u32, u32)>,
    /// Money raised range, USD.
    pub raised: Option<FromTo>,
    /// Allowed type ids (any of); unknown type names are dropped, `Some(empty)` matches nothing.
    pub types: Option<Vec<u32>>,
}

/// A head-count growth condition (overall when `department` is `None`).
#[derive(Debug, Clone)]
pub struct GrowthPred {
    /// Department index for department growth.
    pub department: Option<u8>,
    /// 0, 1, 2 for three, six, twelve months.
    pub months: usize,
    /// Lower bound: a fraction (0.5 = +50 %) when `as_percentage`, else persons.
    pub from: Option<f64>,
    /// Upper bound, same unit.
    pub to: Option<f64>,
    /// `true`: the range is on the relative growth (decimal form); `false`: on the absolute
    /// change in persons (openapi `HeadcountGrowthFilter.growthRange`).
    pub as_percentage: bool,
}

/// A compiled company filter block.
#[derive(Debug, Clone, Default)]
pub struct CompanyQuery {
    /// Only these companies (sorted indexes); `Some(empty)` matches nothing.
    pub include: Option<Vec<u32>>,
    /// Never these companies (sorted).
    pub exclude: Vec<u32>,
    /// Bit `i` = `CompanySize::ALL[i]` allowed.
    pub sizes: Option<u16>,
    /// Bit `i` = `Revenue::ALL[i]` allowed.
    pub revenues: Option<u16>,
    /// Sells online or not.
    pub ecommerce: Option<bool>,
    /// Number ranges.
    pub ranges: Vec<(NumField, FromTo)>,
    /// Department size ranges: (department index, range).
    pub dept_sizes: Vec<(u8, FromTo)>,
    /// List predicates.
    pub lists: Vec<ListPred>,
    /// LinkedIn industry ids to include (any of).
    pub linkedin_include: Option<Vec<u32>>,
    /// LinkedIn industry ids to exclude.
    pub linkedin_exclude: Vec<u32>,
    /// Funding round condition.
    pub funding: Option<FundingPred>,
    /// Location conditions (each must hold).
    pub locations: Vec<LocPred>,
    /// Bits of `COMPANY_EXIST_FIELDS` that must be present.
    pub fields_exist: u32,
    /// Bits that must be absent.
    pub fields_not_exist: u32,
    /// Social networks: any of (mask), all of (mask), none of (mask).
    pub medias_any: Option<u8>,
    /// All of these networks.
    pub medias_all: u8,
    /// None of these networks.
    pub medias_none: u8,
    /// At least this many networks.
    pub medias_min: Option<u32>,
    /// Mobile apps: downloads range of any app.
    pub app_downloads: Option<FromTo>,
    /// Mobile apps: release year range of any app.
    pub app_release_year: Option<FromTo>,
    /// Record updated within this many months.
    pub updated_within: Option<i64>,
    /// Growth conditions that must all hold.
    pub growth_all: Vec<GrowthPred>,
    /// Growth conditions of which one must hold (when non-empty).
    pub growth_any: Vec<GrowthPred>,
    /// Matches nothing (e.g. a value that can never match).
    pub never: bool,
}

fn has_any(list: &[u32], ids: &[u32]) -> bool {
    ids.iter().any(|i| list.binary_search(i).is_ok())
}

fn has_all(list: &[u32], ids: &[u32]) -> bool {
    ids.iter().all(|i| list.binary_search(i).is_ok())
}

/// Number of downloads and release year of a company's `j`-th mobile app (generated, stable).
pub fn app_stats(domain: &str, j: usize) -> (i64, i64) {
    let h = super::mix64(super::hash_str(domain) ^ (j as u64 + 1));
    let downloads = 1000 * 10i64.pow((h % 5) as u32) * (1 + ((h >> 8) % 9) as i64);
    let year = 2010 + ((h >> 16) % 16) as i64;
    (downloads, year)
}

impl CompanyQuery {
    /// `true` when the query has no condition at all.
    pub fn is_empty(&self) -> bool {
        self.include.is_none()
            && self.exclude.is_empty()
            && self.sizes.is_none()
            && self.revenues.is_none()
            && self.ecommerce.is_none()
            && self.ranges.is_empty()
            && self.dept_sizes.is_empty()
            && self.lists.is_empty()
            && self.linkedin_include.is_none()
            && self.linkedin_exclude.is_empty()
            && self.funding.is_none()
            && self.locations.is_empty()
            && self.fields_exist == 0
            && self.fields_not_exist == 0
            && self.medias_any.is_none()
            && self.medias_all == 0
            && self.medias_none == 0
            && self.medias_min.is_none()
            && self.app_downloads.is_none()
            && self.app_release_year.is_none()
            && self.growth_all.is_empty()
            && self.growth_any.is_empty()
            && self.updated_within.is_none()
            && !self.never
    }

    /// `true` when company `i` satisfies every condition.
    pub fn matches(&self, db: &Db, i: u32) -> bool {
        if self.never {
            return false;
        }
        let c = &db.cols[i as usize];
        if let Some(inc) = &self.include
            && inc.binary_search(&i).is_err()
        {
            return false;
        }
        if !self.exclude.is_empty() && self.exclude.binary_search(&i).is_ok() {
            return false;
        }
        if let Some(m) = self.sizes
            && m & (1 << c.size) == 0
        {
            return false;
        }
        if let Some(m) = self.revenues
            && m & (1 << c.revenue) == 0
        {
            return false;
        }
        if let Some(e) = self.ecommerce
            && c.ecommerce != e
        {
            return false;
        }
        for (f, r) in &self.ranges {
            let v = match f {
                NumField::Year => {
                    if c.year == 0 {
                        return false;
                    }
                    c.year as i64
                }
                NumField::CountriesCount => c.countries.len() as i64,
                NumField::Employees => c.employees as i64,
                NumField::EmployeesLinkedin => c.employees_li as i64,
                NumField::MobileApps => c.n_apps as i64,
                NumField::Locations => c.n_locations as i64,
                NumField::Visits => c.visits as i64,
                NumField::PageViews => c.page_views as i64,
            };
            if !r.contains(v) {
                return false;
            }
        }
        for (d, r) in &self.dept_sizes {
            let n = c
                .dept_sizes
                .iter()
                .find(|(dd, _)| dd == d)
                .map(|(_, n)| *n as i64)
                .unwrap_or(0);
            if !r.contains(n) {
                return false;
            }
        }
        for l in &self.lists {
            if l.impossible {
                return false;
            }
            let col: &[u32] = match l.field {
                ListField::Industries => &c.industries,
                ListField::Categories => &c.categories,
                ListField::Keywords => &c.keywords,
                ListField::Technologies => &c.technologies,
                ListField::TechCategories => &c.tech_categories,
                ListField::Countries => &c.countries,
            };
            let ok = match (l.mode, l.field) {
                // Countries are not sorted (primary first): scan.
                (ListMode::Any, ListField::Countries) => l.ids.iter().any(|x| col.contains(x)),
                (ListMode::All, ListField::Countries) => l.ids.iter().all(|x| col.contains(x)),
                (ListMode::None, ListField::Countries) => !l.ids.iter().any(|x| col.contains(x)),
                (ListMode::Any, _) => has_any(col, &l.ids),
                (ListMode::All, _) => has_all(col, &l.ids),
                (ListMode::None, _) => !has_any(col, &l.ids),
            };
            if !ok {
                return false;
            }
        }
        if let Some(inc) = &self.linkedin_include
            && !inc.contains(&c.linkedin_industry)
        {
            return false;
        }
        if self.linkedin_exclude.contains(&c.linkedin_industry) {
            return false;
        }
        if let Some(f) = &self.funding {
            if c.funding_date == 0 {
                return false;
            }
            if let Some((a, b)) = f.date
                && (c.funding_date < a || c.funding_date > b)
            {
                return false;
            }
            if let Some(r) = &f.raised
                && !r.contains(c.funding_usd as i64)
            {
                return false;
            }
            if let Some(t) = &f.types
                && !t.contains(&c.funding_type)
            {
                return false;
            }
        }
        for l in &self.locations {
            if !loc_matches(db, i, c, l) {
                return false;
            }
        }
        if c.fields & self.fields_exist != self.fields_exist
            || c.fields & self.fields_not_exist != 0
        {
            return false;
        }
        if let Some(m) = self.medias_any
            && c.medias & m == 0
        {
            return false;
        }
        if c.medias & self.medias_all != self.medias_all || c.medias & self.medias_none != 0 {
            return false;
        }
        if let Some(n) = self.medias_min
            && c.medias.count_ones() < n
        {
            return false;
        }
        if self.app_downloads.is_some() || self.app_release_year.is_some() {
            let domain = &db.companies[i as usize].domain;
            let ok = (0..c.n_apps as usize).any(|j| {
                let (dl, year) = app_stats(domain, j);
                self.app_downloads.as_ref().is_none_or(|r| r.contains(dl))
                    && self
                        .app_release_year
                        .as_ref()
                        .is_none_or(|r| r.contains(year))
            });
            if !ok {
                return false;
            }
        }
        if let Some(n) = self.updated_within
            && c.updated_ago as i64 >= n
        {
            return false;
        }
        if !self.growth_all.iter().all(|g| growth_matches(db, i, c, g)) {
            return false;
        }
        if !self.growth_any.is_empty()
            && !self.growth_any.iter().any(|g| growth_matches(db, i, c, g))
        {
            return false;
        }
        true
    }
}

fn growth_matches(db: &Db, i: u32, c: &CompanyCols, g: &GrowthPred) -> bool {
    let (frac, base) = match g.department {
        None => (c.growth[g.months] as f64, c.employees as f64),
        Some(d) => {
            let Some(&(_, n)) = c.dept_sizes.iter().find(|(dd, n)| *dd == d && *n > 0) else {
                return false;
            };
            (
                super::index::department_growth(&db.companies[i as usize], d)[g.months],
                n as f64,
            )
        }
    };
    let v = if g.as_percentage {
        frac
    } else {
        absolute_growth(base, frac) as f64
    };
    g.from.is_none_or(|f| v >= f - 1e-9) && g.to.is_none_or(|t| v <= t + 1e-9)
}

/// Absolute head-count change of a head count `now` that grew by the fraction `g`:
/// `round(now · g / (1 + g))` (persons; openapi `Growth.threeMonths`).
pub fn absolute_growth(now: f64, g: f64) -> i64 {
    if g <= -1.0 {
        return -(now as i64);
    }
    (now * g / (1.0 + g)).round() as i64
}

fn city_matches(db: &Db, i: u32, c: &CompanyCols, p: &CityPred) -> bool {
    if p.city == NONE || c.city != p.city {
        return false;
    }
    if let Some(cc) = p.country
        && cc != c.country
    {
        return false;
    }
    if let Some(r) = p.region
        && r != c.region
    {
        return false;
    }
    if let Some(pc) = &p.postal {
        let ours = db.companies[i as usize]
            .postal_code
            .as_deref()
            .unwrap_or("");
        if !ours.trim().eq_ignore_ascii_case(pc.trim()) {
            return false;
        }
    }
    true
}

fn loc_matches(db: &Db, i: u32, c: &CompanyCols, l: &LocPred) -> bool {
    // Countries in scope: HQ only, non-HQ only, or all.
    let countries: &[u32] = match l.hq {
        Some(true) => std::slice::from_ref(&c.country),
        Some(false) => c.countries.get(1..).unwrap_or(&[]),
        None => &c.countries,
    };
    // Regions, cities and coordinates are known for the HQ only.
    let hq_in_scope = l.hq != Some(false);
    if let Some(inc) = &l.include_countries
        && !countries.iter().any(|x| inc.contains(x))
    {
        return false;
    }
    if countries.iter().any(|x| l.exclude_countries.contains(x)) {
        return false;
    }
    if let Some(inc) = &l.include_regions
        && !(hq_in_scope && c.region != NONE && inc.contains(&c.region))
    {
        return false;
    }
    if hq_in_scope && c.region != NONE && l.exclude_regions.contains(&c.region) {
        return false;
    }
    if let Some(inc) = &l.include_cities
        && !(hq_in_scope && inc.iter().any(|p| city_matches(db, i, c, p)))
    {
        return false;
    }
    if hq_in_scope && l.exclude_cities.iter().any(|p| city_matches(db, i, c, p)) {
        return false;
    }
    if let Some((lat, lon, r)) = l.geo {
        if !hq_in_scope || c.lat.is_nan() {
            return false;
        }
        if haversine_km(lat, lon, c.lat as f64, c.lon as f64) > r {
            return false;
        }
    }
    true
}

/// A set over the title vocabulary (bit per title index).
#[derive(Debug, Clone)]
pub struct TitleSet(pub Vec<u64>);

impl TitleSet {
    /// The titles for which `f(lowercase title)` holds.
    pub fn from_fn(db: &Db, f: impl Fn(&str) -> bool) -> TitleSet {
        let n = db.people.titles.len();
        let mut bits = vec![0u64; n.div_ceil(64)];
        for (i, t) in db.people.titles.iter().enumerate() {
            if f(&t.lower) {
                bits[i / 64] |= 1 << (i % 64);
            }
        }
        TitleSet(bits)
    }
    /// Membership.
    pub fn contains(&self, i: u32) -> bool {
        self.0
            .get(i as usize / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
}

/// A set of small ids (indexes of `People::skills`) as a bitmap.
#[derive(Debug, Clone, Default)]
pub struct IdSet(pub Vec<u64>);

impl IdSet {
    /// The indexes `i` of `items` for which `f(items[i])` holds.
    pub fn from_fn<T>(items: &[T], f: impl Fn(&T) -> bool) -> IdSet {
        let mut bits = vec![0u64; items.len().div_ceil(64)];
        for (i, x) in items.iter().enumerate() {
            if f(x) {
                bits[i / 64] |= 1 << (i % 64);
            }
        }
        IdSet(bits)
    }
    /// Membership.
    pub fn contains(&self, i: u32) -> bool {
        self.0
            .get(i as usize / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
    /// `true` when one of `ids` is in the set.
    pub fn any_of(&self, ids: &[u32]) -> bool {
        ids.iter().any(|&i| self.contains(i))
    }
}

/// A skills condition (v3 `skills`): per lowercase needle, the skills whose lowercase name
/// contains it, so a person is matched by looking up its skill ids, with no text work.
#[derive(Debug, Clone, Default)]
pub struct SkillPred {
    /// The skills matching at least one `anyOf` needle: one of them is required.
    pub any: Option<IdSet>,
    /// Per `allOf` needle, the skills matching it: one of each is required.
    pub all: Vec<IdSet>,
    /// The skills matching at least one `noneOf` needle: none is allowed.
    pub none: Option<IdSet>,
}

impl SkillPred {
    /// `true` when it has no needle.
    pub fn is_empty(&self) -> bool {
        self.any.is_none() && self.all.is_empty() && self.none.is_none()
    }
    /// Whether a person with these skill ids satisfies the condition.
    pub fn matches(&self, skills: &[u32]) -> bool {
        self.any.as_ref().is_none_or(|s| s.any_of(skills))
            && self.all.iter().all(|s| s.any_of(skills))
            && !self.none.as_ref().is_some_and(|s| s.any_of(skills))
    }
}

/// One v2 people `keywords` needle: it matches a person whose title or one of whose skills
/// contains it (lowercase), or whose company has it as a keyword.
#[derive(Debug, Clone)]
pub struct KeywordPred {
    /// Titles containing the needle.
    pub titles: TitleSet,
    /// Skills containing the needle.
    pub skills: IdSet,
    /// The company keyword id equal to the needle, if any.
    pub company_keyword: Option<u32>,
}

/// A text condition over generated person texts (descriptions, summary): lowercase needles.
#[derive(Debug, Clone, Default)]
pub struct TextPred {
    /// At least one must occur.
    pub any: Vec<String>,
    /// All must occur.
    pub all: Vec<String>,
    /// None may occur.
    pub none: Vec<String>,
}

impl TextPred {
    /// Whether `hay` (lowercase) satisfies the condition.
    pub fn matches(&self, hay: &str) -> bool {
        (self.any.is_empty() || self.any.iter().any(|n| hay.contains(n.as_str())))
            && self.all.iter().all(|n| hay.contains(n.as_str()))
            && !self.none.iter().any(|n| hay.contains(n.as_str()))
    }
    /// `true` when it has no needle.
    pub fn is_empty(&self) -> bool {
        self.any.is_empty() && self.all.is_empty() && self.none.is_empty()
    }
}

/// Which generated text a [`TextPred`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextField {
    /// `currentJobDescription`.
    CurrentJob,
    /// Descriptions of all experiences.
    AllJobs,
    /// `summary` (profile description).
    Profile,
}

/// A person name condition: a query matches when its words are the person's first and/or
/// last name (case-insensitive; `"john doe"`, `"doe"`, `"john"`).
#[derive(Debug, Clone)]
pub struct NamePred {
    /// Per query: (first-name pool ids, last-name pool ids) acceptable; a person matches a query
    /// when (first in set A or A empty) and (last in set B or B empty).
    pub queries: Vec<(Vec<u32>, Vec<u32>)>,
}

/// A compiled people filter block.
#[derive(Debug, Clone, Default)]
pub struct PeopleQuery {
    /// Only these people (sorted person indexes).
    pub include: Option<Vec<u32>>,
    /// Never these people (sorted).
    pub exclude: Vec<u32>,
    /// Bit `i` = `Seniority::ALL[i]` allowed.
    pub seniorities: Option<u32>,
    /// Bit `i` = `Department::ALL[i]` allowed.
    pub departments: Option<u32>,
    /// Departments excluded (mask).
    pub exclude_departments: u32,
    /// Title must be in each of these sets.
    pub titles_all: Vec<TitleSet>,
    /// Title must be in none of these sets.
    pub titles_none: Vec<TitleSet>,
    /// Country ids (any of) of the person.
    pub countries: Option<Vec<u32>>,
    /// Country ids excluded.
    pub exclude_countries: Vec<u32>,
    /// Region ids (any of).
    pub regions: Option<Vec<u32>>,
    /// Region ids excluded.
    pub exclude_regions: Vec<u32>,
    /// Cities (any of).
    pub cities: Option<Vec<CityPred>>,
    /// Cities excluded.
    pub exclude_cities: Vec<CityPred>,
    /// Names.
    pub names: Option<NamePred>,
    /// v2 `keywords`: each needle (lowercase) must occur in the title, a skill, or a company keyword.
    pub keywords: Vec<KeywordPred>,
    /// Skills: (any, all, none), lowercase needles matched as substrings of skill names.
    pub skills: SkillPred,
    /// Text conditions on generated texts.
    pub texts: Vec<(TextField, TextPred)>,
    /// Bits of [`PERSON_EXIST_FIELDS`] that must be present.
    pub fields_exist: u32,
    /// Bits that must be absent.
    pub fields_not_exist: u32,
    /// Current position started in or after this `yyyymm` (month granularity).
    pub changed_after: Option<u32>,
    /// Current position started before this `yyyymm`.
    pub changed_before: Option<u32>,
    /// Connections range.
    pub connections: Option<FromTo>,
    /// Profile updated within this many months.
    pub updated_within: Option<i64>,
    /// Followers range.
    pub followers: Option<FromTo>,
    /// Matches nothing.
    pub never: bool,
}

/// Person field names of `fieldsExist` (openapi `PeopleFilters.fieldsExist`), bit = position.
pub const PERSON_EXIST_FIELDS: &[&str] = prospect_api::types::PERSON_FILTER_FIELDS;

/// The bit of a person field name of `fieldsExist`.
pub fn person_field_bit(name: &str) -> Option<u32> {
    PERSON_EXIST_FIELDS
        .iter()
        .position(|f| *f == name)
        .map(|p| 1 << p)
}

/// Which person fields a generated person has: all but `photo` (the sandbox has no photos);
/// `state` and `location` depend on the company's HQ.
pub fn person_fields(db: &Db, p: &PersonRow) -> u32 {
    let mut bits = 0;
    for (i, f) in PERSON_EXIST_FIELDS.iter().enumerate() {
        let present = match *f {
            "photo" => false,
            "country" => !db.companies[p.company as usize].country.is_empty(),
            _ => true,
        };
        if present {
            bits |= 1 << i;
        }
    }
    bits
}

impl PeopleQuery {
    /// `true` when the query has no condition.
    pub fn is_empty(&self) -> bool {
        self.include.is_none()
            && self.exclude.is_empty()
            && self.seniorities.is_none()
            && self.departments.is_none()
            && self.exclude_departments == 0
            && self.titles_all.is_empty()
            && self.titles_none.is_empty()
            && self.countries.is_none()
            && self.exclude_countries.is_empty()
            && self.regions.is_none()
            && self.exclude_regions.is_empty()
            && self.cities.is_none()
            && self.exclude_cities.is_empty()
            && self.names.is_none()
            && self.keywords.is_empty()
            && self.skills.is_empty()
            && self.texts.is_empty()
            && self.fields_exist == 0
            && self.fields_not_exist == 0
            && self.changed_after.is_none()
            && self.changed_before.is_none()
            && self.connections.is_none()
            && self.updated_within.is_none()
            && self.followers.is_none()
            && !self.never
    }

    /// `true` when person `pi` satisfies every condition. `buf` is scratch space.
    pub fn matches(&self, db: &Db, pi: u32, buf: &mut Scratch) -> bool {
        if self.never {
            return false;
        }
        let p = &db.person_rows[pi as usize];
        if let Some(inc) = &self.include
            && inc.binary_search(&pi).is_err()
        {
            return false;
        }
        if !self.exclude.is_empty() && self.exclude.binary_search(&pi).is_ok() {
            return false;
        }
        if let Some(m) = self.seniorities
            && m & (1 << p.seniority) == 0
        {
            return false;
        }
        if let Some(m) = self.departments
            && m & (1 << p.department) == 0
        {
            return false;
        }
        if self.exclude_departments & (1 << p.department) != 0 {
            return false;
        }
        if !self.titles_all.iter().all(|t| t.contains(p.title)) {
            return false;
        }
        if self.titles_none.iter().any(|t| t.contains(p.title)) {
            return false;
        }
        let c = &db.cols[p.company as usize];
        if let Some(cs) = &self.countries
            && !cs.contains(&c.country)
        {
            return false;
        }
        if self.exclude_countries.contains(&c.country) {
            return false;
        }
        if let Some(rs) = &self.regions
            && (c.region == NONE || !rs.contains(&c.region))
        {
            return false;
        }
        if c.region != NONE && self.exclude_regions.contains(&c.region) {
            return false;
        }
        if let Some(cs) = &self.cities
            && !cs.iter().any(|q| city_matches(db, p.company, c, q))
        {
            return false;
        }
        if self
            .exclude_cities
            .iter()
            .any(|q| city_matches(db, p.company, c, q))
        {
            return false;
        }
        if let Some(n) = &self.names
            && !n.queries.iter().any(|(f, l)| {
                (f.is_empty() || f.contains(&p.first)) && (l.is_empty() || l.contains(&p.last))
            })
        {
            return false;
        }
        if self.fields_exist != 0 || self.fields_not_exist != 0 {
            let f = person_fields(db, p);
            if f & self.fields_exist != self.fields_exist || f & self.fields_not_exist != 0 {
                return false;
            }
        }
        if let Some(a) = self.changed_after
            && p.started < a
        {
            return false;
        }
        if let Some(b) = self.changed_before
            && p.started >= b
        {
            return false;
        }
        if let Some(r) = &self.connections
            && !r.contains(db.people.connections(p))
        {
            return false;
        }
        if let Some(r) = &self.followers
            && !r.contains(db.people.followers(p))
        {
            return false;
        }
        if let Some(n) = self.updated_within
            && super::people::updated_months_ago(p) as i64 >= n
        {
            return false;
        }
        if !self.skills.is_empty() || !self.keywords.is_empty() {
            db.people.skill_ids(p, &mut buf.skills);
            if !self.skills.matches(&buf.skills) {
                return false;
            }
            let ok = self.keywords.iter().all(|k| {
                k.titles.contains(p.title)
                    || k.skills.any_of(&buf.skills)
                    || k.company_keyword
                        .is_some_and(|id| c.keywords.binary_search(&id).is_ok())
            });
            if !ok {
                return false;
            }
        }
        if !self.texts.is_empty() {
            // The text budget of the request (engine `caps`): past it, nobody matches.
            let reads: usize = self
                .texts
                .iter()
                .map(|(f, _)| match f {
                    TextField::AllJobs => p.n_exp.max(1) as usize,
                    _ => 1,
                })
                .sum();
            if buf.text_reads + reads > super::caps::TEXT_READS {
                return false;
            }
            buf.text_reads += reads;
        }
        for (field, t) in &self.texts {
            buf.text.clear();
            lower_text(db, p, *field, &mut buf.text, &mut buf.companies);
            if !t.matches(&buf.text) {
                return false;
            }
        }
        true
    }
}

/// Reusable scratch buffers for person matching (one per request).
#[derive(Debug, Default)]
pub struct Scratch {
    /// Skill ids.
    pub skills: Vec<u32>,
    /// Text.
    pub text: String,
    /// The lowercase text pieces of the companies seen so far.
    companies: FastMap<u32, CompanyText>,
    /// Generated texts read so far (see `caps::TEXT_READS`).
    text_reads: usize,
}

/// The lowercase pieces of a company's part in its people's generated texts.
#[derive(Debug, Clone)]
struct CompanyText {
    /// Name.
    name: String,
    /// First industry.
    industry: Option<String>,
    /// `, with a focus on <kw1> and <kw2>` (empty without keywords).
    focus: String,
}

impl CompanyText {
    fn of(db: &Db, ci: u32) -> CompanyText {
        let mut desc = String::new();
        let c = &db.cols[ci as usize];
        let kws: Vec<&str> = c
            .keywords_ord
            .iter()
            .take(2)
            .map(|&k| db.vocab.keywords.name(k))
            .collect();
        if !kws.is_empty() {
            desc.push_str(", with a focus on ");
            desc.push_str(&kws.join(" and "));
        }
        CompanyText {
            name: db.companies[ci as usize].name.to_lowercase(),
            industry: c
                .industries_ord
                .first()
                .map(|&i| db.vocab.industries.name(i).to_lowercase()),
            focus: desc.to_lowercase(),
        }
    }
}

/// Writes the generated text `field` of person `p` in lowercase into `out`: the same text as
/// [`super::records`] writes, lowercased, built from pieces lowercased once per title (the
/// title vocabulary's `lower`), once per company and request (`cache`), and the skill
/// vocabulary's `skills_lower`, so a text filter over many people does no formatting and no
/// case conversion per person.
fn lower_text(
    db: &Db,
    p: &PersonRow,
    field: TextField,
    out: &mut String,
    cache: &mut FastMap<u32, CompanyText>,
) {
    use std::fmt::Write as _;
    let title = &db.people.titles[p.title as usize].lower;
    match field {
        TextField::CurrentJob => {
            let c = cache
                .entry(p.company)
                .or_insert_with(|| CompanyText::of(db, p.company));
            out.push_str(title);
            out.push_str(" at ");
            out.push_str(&c.name);
            out.push_str(", working in ");
            out.push_str(DEPARTMENTS_LOWER[p.department as usize % DEPARTMENTS_LOWER.len()]);
            out.push_str(" for a company in ");
            out.push_str(c.industry.as_deref().unwrap_or("its market"));
            out.push_str(&c.focus);
            out.push('.');
        }
        TextField::Profile => {
            let c = cache
                .entry(p.company)
                .or_insert_with(|| CompanyText::of(db, p.company));
            out.push_str(title);
            let _ = write!(out, " with {} years of experience in ", 3 + (p.seed % 25));
            out.push_str(c.industry.as_deref().unwrap_or("business"));
            out.push('.');
            let n = (p.n_skills as usize).min(3);
            if n > 0 {
                out.push_str(" skilled in ");
                for (i, s) in p.skills[..n].iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&db.people.skills_lower[*s as usize]);
                }
                out.push('.');
            }
            let sen = SENIORITIES_LOWER[p.seniority as usize % SENIORITIES_LOWER.len()];
            if sen != "other" {
                out.push(' ');
                out.push_str(sen);
                out.push_str("-level leader.");
            }
        }
        TextField::AllJobs => {
            for e in db.people.experiences(db.companies.base_len(), p) {
                let c = cache
                    .entry(e.company)
                    .or_insert_with(|| CompanyText::of(db, e.company));
                out.push_str(&db.people.titles[e.title as usize].lower);
                out.push_str(" at ");
                out.push_str(&c.name);
                if let Some(ind) = &c.industry {
                    out.push_str(" (");
                    out.push_str(ind);
                    out.push(')');
                }
                out.push_str(".\n");
            }
        }
    }
}

/// `Department::ALL` in lowercase, same order.
const DEPARTMENTS_LOWER: [&str; 24] = [
    "accounting and finance",
    "board",
    "business support",
    "customer relations",
    "design",
    "editorial personnel",
    "engineering",
    "founder/owner",
    "healthcare",
    "hr",
    "legal",
    "management",
    "manufacturing",
    "marketing and advertising",
    "operations",
    "pr and communications",
    "procurement",
    "product",
    "quality control",
    "r&d",
    "sales",
    "security",
    "supply chain",
    "other",
];

/// `Seniority::ALL` in lowercase, same order.
const SENIORITIES_LOWER: [&str; 10] = [
    "owner",
    "founder",
    "board member",
    "c-level",
    "partner",
    "vp",
    "head",
    "director",
    "manager",
    "other",
];

/// Months between two `yyyymm` values (`b - a`).
pub fn months_between(a: u32, b: u32) -> i32 {
    ym_to_months(b) - ym_to_months(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use prospect_api::types::common::{Department, Seniority, WireEnum};

    /// The lowercase texts the text filters read are the records' texts, lowercased.
    #[test]
    fn lower_texts_are_the_records_texts() {
        let db = crate::engine::testdata::db();
        for (d, l) in Department::ALL.iter().zip(DEPARTMENTS_LOWER) {
            assert_eq!(d.as_str().to_lowercase(), l);
        }
        for (s, l) in Seniority::ALL.iter().zip(SENIORITIES_LOWER) {
            assert_eq!(s.as_str().to_lowercase(), l);
        }
        let mut cache = FastMap::default();
        for p in db.person_rows.iter() {
            let mut want = String::new();
            super::super::records::current_job_description(&db, p, &mut want);
            let mut got = String::new();
            lower_text(&db, p, TextField::CurrentJob, &mut got, &mut cache);
            assert_eq!(got, want.to_lowercase());
            want.clear();
            super::super::records::summary(&db, p, &mut want);
            got.clear();
            lower_text(&db, p, TextField::Profile, &mut got, &mut cache);
            assert_eq!(got, want.to_lowercase());
            want.clear();
            for e in db.people.experiences(db.companies.base_len(), p) {
                super::super::records::experience_description(&db, &e, &mut want);
                want.push('\n');
            }
            got.clear();
            lower_text(&db, p, TextField::AllJobs, &mut got, &mut cache);
            assert_eq!(got, want.to_lowercase());
        }
    }
}
