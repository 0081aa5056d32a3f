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

mod people_query;
pub use people_query::*;
