//! Compiles the wire filter blocks (SPEC.md §2.4, §2.5; openapi `CompaniesFiltersV1`,
//! `CompaniesFiltersV3`, `PeopleFilters`, `PeopleFiltersV3`) into [`CompanyQuery`] and
//! [`PeopleQuery`]: every member is translated (see [`super::filters`] for the semantics).
//! Members that steer ranking rather than filtering (`lookalikeDomains`, `minScore`,
//! `minRelevance`, `maxRelevance`, `companyMatchingMode`, `lookalikeLinkedinHandles`) are read
//! by [`super::search`].

use crate::dataset::load::Db;
use prospect_api::types::common::{
    CompanySize, FilterMode, FromTo, FromToFloat, HeadcountGrowthMonths, Revenue, Seniority,
    SocialNetwork, WireEnum,
};
use prospect_api::types::filters_v2::{
    CityFilter, CompaniesFiltersV2, GeolocationFilter, MobileAppsFilter, PeopleFiltersV2,
    StateFilter,
};
use prospect_api::types::filters_v3::{
    AllAnyNoneFilter, CompaniesFiltersV3, DepartmentGrowthFilter, LocationsFilter,
    PeopleCityFilter, PeopleFiltersV3,
};

use super::filters::{
    CityPred, CompanyQuery, FundingPred, GrowthPred, IdSet, KeywordPred, ListField, ListMode,
    ListPred, LocPred, NamePred, NumField, PeopleQuery, SkillPred, TextField, TextPred, TitleSet,
    person_field_bit,
};
use super::fold;
use super::index::{Interner, NONE, company_field_bit, department_index, parse_date};
use super::{caps, normalize_domain};

/// Company indexes of the given domains (aliases followed, unknown dropped), sorted.
pub fn domain_ids(db: &Db, domains: &[String]) -> Vec<u32> {
    let mut v: Vec<u32> = domains.iter().filter_map(|d| db.company_index(d)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn ids(int: &Interner, values: &[String]) -> (Vec<u32>, usize) {
    let mut out = Vec::new();
    let mut unknown = 0;
    for v in values {
        match int.get(v) {
            Some(id) => out.push(id),
            None => unknown += 1,
        }
    }
    out.sort_unstable();
    out.dedup();
    (out, unknown)
}

fn list(int: &Interner, field: ListField, mode: ListMode, values: &[String]) -> ListPred {
    let (ids, unknown) = ids(int, values);
    let impossible = match mode {
        ListMode::Any => ids.is_empty() && !values.is_empty(),
        ListMode::All => unknown > 0,
        ListMode::None => false,
    };
    ListPred {
        field,
        mode,
        ids,
        impossible,
    }
}

fn mode_of(m: &FilterMode) -> ListMode {
    match m {
        FilterMode::AllOf => ListMode::All,
        FilterMode::NoneOf => ListMode::None,
        _ => ListMode::Any,
    }
}

fn all_any_none(int: &Interner, field: ListField, f: &AllAnyNoneFilter, out: &mut Vec<ListPred>) {
    if let Some(v) = f.any_of.as_deref().filter(|v| !v.is_empty()) {
        out.push(list(int, field, ListMode::Any, v));
    }
    if let Some(v) = f.all_of.as_deref().filter(|v| !v.is_empty()) {
        out.push(list(int, field, ListMode::All, v));
    }
    if let Some(v) = f.none_of.as_deref().filter(|v| !v.is_empty()) {
        out.push(list(int, field, ListMode::None, v));
    }
}

fn mask<E: WireEnum + PartialEq>(all: &[E], values: &[E]) -> u16 {
    let mut m = 0u16;
    for v in values {
        if let Some(p) = all.iter().position(|a| a == v) {
            m |= 1 << p;
        }
    }
    m
}

fn media_mask(values: &[SocialNetwork]) -> u8 {
    mask(SocialNetwork::ALL, values) as u8
}

fn country_ids(db: &Db, values: &[String]) -> Vec<u32> {
    ids(&db.vocab.countries, values).0
}

/// Region id of a `{abbreviation, country}` (`{CA, us}` → `US-CA`; an abbreviation that already
/// holds the country prefix is accepted too).
fn region_id(db: &Db, s: &StateFilter) -> u32 {
    let abbr = caps::cut(&s.abbreviation, caps::TERM_CHARS).trim();
    let cc = caps::cut(&s.country, caps::TERM_CHARS).trim();
    db.vocab
        .regions
        .get(&format!("{cc}-{abbr}"))
        .or_else(|| db.vocab.regions.get(abbr))
        .unwrap_or(NONE)
}

fn region_ids(db: &Db, values: &[StateFilter]) -> Vec<u32> {
    caps::places(values)
        .iter()
        .map(|s| region_id(db, s))
        .filter(|&r| r != NONE)
        .collect()
}

fn city_pred(
    db: &Db,
    city: &str,
    country: Option<&str>,
    region: Option<&StateFilter>,
    postal: Option<&str>,
) -> CityPred {
    CityPred {
        city: db
            .vocab
            .cities
            .get(caps::cut(city, caps::TERM_CHARS))
            .unwrap_or(NONE),
        country: country.map(|c| db.vocab.countries.get(c).unwrap_or(NONE)),
        region: region.map(|r| region_id(db, r)),
        postal: postal.map(str::to_string),
    }
}

fn company_cities(db: &Db, v: &[CityFilter]) -> Vec<CityPred> {
    caps::places(v)
        .iter()
        .map(|c| {
            city_pred(
                db,
                &c.city,
                c.country.as_deref(),
                c.region.as_ref(),
                c.postal_code.as_deref(),
            )
        })
        .collect()
}

fn people_cities(db: &Db, v: &[PeopleCityFilter]) -> Vec<CityPred> {
    caps::places(v)
        .iter()
        .map(|c| city_pred(db, &c.city, c.country.as_deref(), c.region.as_ref(), None))
        .collect()
}

fn geo(g: &GeolocationFilter) -> (f64, f64, f64) {
    (g.latitude, g.longitude, g.radius as f64 / 1000.0)
}

fn locations_filter(db: &Db, f: &LocationsFilter, hq: bool) -> LocPred {
    LocPred {
        hq: Some(hq),
        include_countries: f.include_countries.as_deref().map(|v| country_ids(db, v)),
        exclude_countries: f
            .exclude_countries
            .as_deref()
            .map(|v| country_ids(db, v))
            .unwrap_or_default(),
        include_regions: f.include_regions.as_deref().map(|v| region_ids(db, v)),
        exclude_regions: f
            .exclude_regions
            .as_deref()
            .map(|v| region_ids(db, v))
            .unwrap_or_default(),
        include_cities: f.include_cities.as_deref().map(|v| company_cities(db, v)),
        exclude_cities: f
            .exclude_cities
            .as_deref()
            .map(|v| company_cities(db, v))
            .unwrap_or_default(),
        geo: f.geolocation.as_ref().map(geo),
    }
}

fn funding(db: &Db, f: &prospect_api::types::filters_v2::FundingRoundFilter) -> FundingPred {
    FundingPred {
        date: f.date.as_ref().map(|d| {
            (
                d.from
                    .as_deref()
                    .and_then(|s| parse_date(s, false))
                    .unwrap_or(0),
                d.to.as_deref()
                    .and_then(|s| parse_date(s, true))
                    .unwrap_or(u32::MAX),
            )
        }),
        raised: f.raised.clone(),
        types: f.types.as_ref().map(|t| {
            t.iter()
                .filter_map(|x| db.vocab.funding_types.get(x.as_str()))
                .collect()
        }),
    }
}

fn months_index(m: &HeadcountGrowthMonths) -> usize {
    match m {
        HeadcountGrowthMonths::ThreeMonths => 0,
        HeadcountGrowthMonths::SixMonths => 1,
        _ => 2,
    }
}

fn growth(
    department: Option<u8>,
    months: &HeadcountGrowthMonths,
    r: &FromToFloat,
    pct: bool,
) -> GrowthPred {
    GrowthPred {
        department,
        months: months_index(months),
        from: r.from,
        to: r.to,
        as_percentage: pct,
    }
}

fn dept_growth(g: &DepartmentGrowthFilter) -> GrowthPred {
    growth(
        Some(department_index(g.department.as_str())),
        &g.months,
        &g.growth_range,
        g.as_percentage,
    )
}

fn fields_mask<E: WireEnum>(values: &[E], not: bool, q_never: &mut bool) -> u32 {
    let mut m = 0;
    for v in values {
        match company_field_bit(v.as_str()) {
            Some(b) => m |= b,
            // A field the sandbox does not model is treated as absent.
            None if !not => *q_never = true,
            None => {}
        }
    }
    m
}

fn mobile_apps(q: &mut CompanyQuery, f: &MobileAppsFilter) {
    if let Some(r) = &f.count {
        q.ranges.push((NumField::MobileApps, r.clone()));
    }
    q.app_downloads = f.downloads.clone();
    q.app_release_year = f.release_year.clone();
}

fn range(q: &mut CompanyQuery, f: NumField, r: &Option<FromTo>) {
    if let Some(r) = r {
        q.ranges.push((f, r.clone()));
    }
}

/// Members common to the v2 and v3 company blocks.
macro_rules! common_company_members {
    ($db:expr, $q:expr, $f:expr) => {{
        let (db, q, f) = ($db, $q, $f);
        if let Some(d) = &f.include_domains {
            q.include = Some(domain_ids(db, caps::domains(d)));
        }
        if let Some(d) = &f.exclude_domains {
            q.exclude = domain_ids(db, caps::domains(d));
        }
        if let Some(s) = &f.company_sizes {
            q.sizes = Some(mask(CompanySize::ALL, s));
        }
        if let Some(r) = &f.revenues {
            q.revenues = Some(mask(Revenue::ALL, r));
        }
        q.ecommerce = f.ecommerce;
        range(q, NumField::Year, &f.year_founded);
        range(q, NumField::CountriesCount, &f.countries_count);
        range(q, NumField::Employees, &f.employee_count_service);
        range(q, NumField::EmployeesLinkedin, &f.employee_count_linkedin);
        range(q, NumField::MobileApps, &f.mobile_apps);
        range(q, NumField::Locations, &f.locations_count);
        if let Some(m) = &f.mobile_apps_filter {
            mobile_apps(q, m);
        }
        for d in f.department_sizes.iter().flatten() {
            q.dept_sizes.push((
                department_index(d.department.as_str()),
                FromTo {
                    from: d.from,
                    to: d.to,
                },
            ));
        }
        let v = &db.vocab;
        if let Some(i) = &f.industries {
            q.lists.push(list(
                &v.industries,
                ListField::Industries,
                mode_of(&i.mode),
                &i.industries,
            ));
        }
        if let Some(x) = f.exclude_industries.as_deref().filter(|x| !x.is_empty()) {
            q.lists.push(list(
                &v.industries,
                ListField::Industries,
                ListMode::None,
                x,
            ));
        }
        if let Some(i) = &f.industry_categories {
            q.lists.push(list(
                &v.categories,
                ListField::Categories,
                mode_of(&i.mode),
                &i.industry_categories,
            ));
        }
        if let Some(x) = f
            .exclude_industry_categories
            .as_deref()
            .filter(|x| !x.is_empty())
        {
            q.lists.push(list(
                &v.categories,
                ListField::Categories,
                ListMode::None,
                x,
            ));
        }
        if let Some(x) = &f.linkedin_industries {
            q.linkedin_include = Some(ids(&v.linkedin_industries, x).0);
        }
        if let Some(x) = &f.exclude_linkedin_industries {
            q.linkedin_exclude = ids(&v.linkedin_industries, x).0;
        }
        if let Some(fr) = &f.funding_round {
            q.funding = Some(funding(db, fr));
        }
        let mut never = false;
        if let Some(x) = &f.fields_exist {
            q.fields_exist = fields_mask(x, false, &mut never);
        }
        if let Some(x) = &f.fields_not_exist {
            q.fields_not_exist = fields_mask(x, true, &mut never);
        }
        q.never |= never;
    }};
}

/// Compiles a v2 company filter block (`companiesFilters` of the v2 searches, SPEC.md §2.4).
pub fn companies_v2(db: &Db, f: &CompaniesFiltersV2) -> CompanyQuery {
    let mut q = CompanyQuery::default();
    common_company_members!(db, &mut q, f);
    let v = &db.vocab;
    if let Some(c) = f.countries.as_deref() {
        q.lists
            .push(list(&v.countries, ListField::Countries, ListMode::Any, c));
    }
    let mut any = LocPred::default();
    let mut hq = LocPred {
        hq: Some(true),
        ..Default::default()
    };
    hq.include_countries = f.primary_countries.as_deref().map(|c| country_ids(db, c));
    any.include_regions = f.states.as_deref().map(|s| region_ids(db, s));
    hq.include_regions = f.primary_states.as_deref().map(|s| region_ids(db, s));
    any.include_cities = f.cities.as_deref().map(|c| company_cities(db, c));
    hq.include_cities = f.primary_cities.as_deref().map(|c| company_cities(db, c));
    hq.geo = f.headquarter_geolocation.as_ref().map(geo);
    any.geo = f.geolocation.as_ref().map(geo);
    // Empty scopes match every company: left out, so a query without filters stays empty
    // (and is not checked company by company).
    q.locations
        .extend([any, hq].into_iter().filter(|l| !l.is_empty()));
    range(&mut q, NumField::Visits, &f.web_traffic_visits);
    if let Some(k) = &f.keywords {
        q.lists.push(list(
            &v.keywords,
            ListField::Keywords,
            mode_of(&k.mode),
            &k.keywords,
        ));
    }
    if let Some(t) = &f.technologies {
        q.lists.push(list(
            &v.technologies,
            ListField::Technologies,
            mode_of(&t.mode),
            &t.technologies,
        ));
    }
    if let Some(s) = &f.social_medias {
        let m = media_mask(&s.medias);
        match mode_of(&s.mode) {
            ListMode::Any => q.medias_any = Some(m),
            ListMode::All => q.medias_all = m,
            ListMode::None => q.medias_none = m,
        }
    }
    q
}

/// Compiles a v3 company filter block (`companiesFilters` of the v3 searches, openapi
/// `CompaniesFiltersV3`).
pub fn companies_v3(db: &Db, f: &CompaniesFiltersV3) -> CompanyQuery {
    let mut q = CompanyQuery::default();
    common_company_members!(db, &mut q, f);
    let v = &db.vocab;
    if let Some(l) = &f.primary_locations {
        q.locations
            .extend(Some(locations_filter(db, l, true)).filter(|l| !l.is_empty()));
    }
    if let Some(l) = &f.other_locations {
        q.locations
            .extend(Some(locations_filter(db, l, false)).filter(|l| !l.is_empty()));
    }
    if let Some(w) = &f.web_traffic {
        range(&mut q, NumField::Visits, &w.visits);
        range(&mut q, NumField::PageViews, &w.views);
    }
    if let Some(s) = &f.social_medias {
        if let Some(m) = &s.medias {
            if let Some(a) = m.any_of.as_deref().filter(|a| !a.is_empty()) {
                q.medias_any = Some(media_mask(a));
            }
            q.medias_all = media_mask(m.all_of.as_deref().unwrap_or(&[]));
            q.medias_none = media_mask(m.none_of.as_deref().unwrap_or(&[]));
        }
        q.medias_min = s.min_count.map(|n| n.max(0) as u32);
    }
    if let Some(t) = &f.technologies {
        if let Some(a) = &t.apps {
            all_any_none(&v.technologies, ListField::Technologies, a, &mut q.lists);
        }
        if let Some(c) = &t.categories {
            all_any_none(
                &v.tech_categories,
                ListField::TechCategories,
                c,
                &mut q.lists,
            );
        }
    }
    if let Some(k) = &f.keywords {
        all_any_none(&v.keywords, ListField::Keywords, k, &mut q.lists);
    }
    if let Some(g) = &f.headcount_growth {
        q.growth_all
            .push(growth(None, &g.months, &g.growth_range, g.as_percentage));
    }
    if let Some(d) = &f.department_headcount_growth {
        q.growth_all
            .extend(d.all_of.iter().flatten().map(dept_growth));
        q.growth_any
            .extend(d.any_of.iter().flatten().map(dept_growth));
    }
    q.updated_within = f.updated_within_months;
    q
}

/// Normalizes lookalike domains: `(known company indexes, unknown normalized domains)`.
pub fn lookalike_targets(db: &Db, domains: &[String]) -> (Vec<u32>, Vec<String>) {
    let mut known = Vec::new();
    let mut unknown = Vec::new();
    for d in domains {
        match db.company_index(d) {
            Some(i) => {
                if !known.contains(&i) {
                    known.push(i);
                }
            }
            None => unknown.push(normalize_domain(d)),
        }
    }
    (known, unknown)
}

mod people;
pub use people::{email_ids, people_v2, people_v3};
