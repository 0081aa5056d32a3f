//! A company row borrowed from the decompressed asset ([`RowView`]), and its owned form.

use crate::dataset::format::CompanyRow;

/// A company row borrowed from the decompressed asset (or from an owned [`CompanyRow`]): the
/// same members as [`CompanyRow`] (same order: it parses the same postcard bytes), strings as
/// `&str`, so indexing interns the many short strings without allocating each one.
#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct RowView<'a> {
    #[serde(borrow)]
    pub domain: &'a str,
    #[serde(borrow)]
    pub aliases: Vec<&'a str>,
    #[serde(borrow)]
    pub name: &'a str,
    #[serde(borrow)]
    pub legal_name: Option<&'a str>,
    #[serde(borrow)]
    pub description: &'a str,
    #[serde(borrow)]
    pub country: &'a str,
    #[serde(borrow)]
    pub countries: Vec<&'a str>,
    #[serde(borrow)]
    pub region_code: Option<&'a str>,
    #[serde(borrow)]
    pub region: Option<&'a str>,
    #[serde(borrow)]
    pub city: Option<&'a str>,
    #[serde(borrow)]
    pub postal_code: Option<&'a str>,
    #[serde(borrow)]
    pub street_address: Option<&'a str>,
    pub lat_lon: Option<(f64, f64)>,
    #[serde(borrow)]
    pub industry_categories: Vec<&'a str>,
    #[serde(borrow)]
    pub industries: Vec<&'a str>,
    #[serde(borrow)]
    pub linkedin_industry: Option<&'a str>,
    #[serde(borrow)]
    pub keywords: Vec<&'a str>,
    pub year_founded: Option<i32>,
    pub employees: u32,
    pub employees_real: bool,
    pub employees_linkedin: u32,
    pub revenue_musd: f64,
    pub ecommerce: bool,
    #[serde(borrow)]
    pub technologies: Vec<&'a str>,
    #[serde(borrow)]
    pub technology_categories: Vec<&'a str>,
    #[serde(borrow)]
    pub funding: Option<FundingView<'a>>,
    pub traffic: crate::dataset::format::TrafficRow,
    pub majestic_rank: Option<u32>,
    pub headcount_growth: [f64; 3],
    #[serde(borrow)]
    pub department_sizes: Vec<(&'a str, u32)>,
    #[serde(borrow)]
    pub phones: Vec<(&'a str, &'a str)>,
    #[serde(borrow)]
    pub emails: Vec<&'a str>,
    #[serde(borrow)]
    pub medias: Vec<(&'a str, &'a str)>,
    #[serde(borrow)]
    pub mobile_apps: Vec<(&'a str, &'a str)>,
    #[serde(borrow)]
    pub sources: Vec<&'a str>,
}

/// A borrowed [`FundingRow`](crate::dataset::format::FundingRow).
#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct FundingView<'a> {
    #[serde(borrow)]
    pub date: &'a str,
    #[serde(borrow)]
    pub kind: &'a str,
    pub money_raised_usd: f64,
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn pairs(v: &[(String, String)]) -> Vec<(&str, &str)> {
    v.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect()
}

impl<'a> RowView<'a> {
    /// A view of an owned row.
    pub fn of(r: &'a CompanyRow) -> RowView<'a> {
        RowView {
            domain: &r.domain,
            aliases: strs(&r.aliases),
            name: &r.name,
            legal_name: r.legal_name.as_deref(),
            description: &r.description,
            country: &r.country,
            countries: strs(&r.countries),
            region_code: r.region_code.as_deref(),
            region: r.region.as_deref(),
            city: r.city.as_deref(),
            postal_code: r.postal_code.as_deref(),
            street_address: r.street_address.as_deref(),
            lat_lon: r.lat_lon,
            industry_categories: strs(&r.industry_categories),
            industries: strs(&r.industries),
            linkedin_industry: r.linkedin_industry.as_deref(),
            keywords: strs(&r.keywords),
            year_founded: r.year_founded,
            employees: r.employees,
            employees_real: r.employees_real,
            employees_linkedin: r.employees_linkedin,
            revenue_musd: r.revenue_musd,
            ecommerce: r.ecommerce,
            technologies: strs(&r.technologies),
            technology_categories: strs(&r.technology_categories),
            funding: r.funding.as_ref().map(|f| FundingView {
                date: &f.date,
                kind: &f.kind,
                money_raised_usd: f.money_raised_usd,
            }),
            traffic: r.traffic.clone(),
            majestic_rank: r.majestic_rank,
            headcount_growth: r.headcount_growth,
            department_sizes: r
                .department_sizes
                .iter()
                .map(|(d, n)| (d.as_str(), *n))
                .collect(),
            phones: pairs(&r.phones),
            emails: strs(&r.emails),
            medias: pairs(&r.medias),
            mobile_apps: pairs(&r.mobile_apps),
            sources: strs(&r.sources),
        }
    }

    /// The owned row the engine keeps: every member except the lists that live interned in
    /// [`CompanyCols`] (industries, categories, keywords, technologies, technology categories,
    /// department sizes) and `sources`, which stay empty.
    pub fn slim(&self) -> CompanyRow {
        let s = |x: &str| x.to_string();
        let o = |x: Option<&str>| x.map(str::to_string);
        let sv = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let pv = |v: &[(&str, &str)]| {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect::<Vec<_>>()
        };
        CompanyRow {
            domain: s(self.domain),
            aliases: sv(&self.aliases),
            name: s(self.name),
            legal_name: o(self.legal_name),
            description: s(self.description),
            country: s(self.country),
            countries: sv(&self.countries),
            region_code: o(self.region_code),
            region: o(self.region),
            city: o(self.city),
            postal_code: o(self.postal_code),
            street_address: o(self.street_address),
            lat_lon: self.lat_lon,
            industry_categories: Vec::new(),
            industries: Vec::new(),
            linkedin_industry: o(self.linkedin_industry),
            keywords: Vec::new(),
            year_founded: self.year_founded,
            employees: self.employees,
            employees_real: self.employees_real,
            employees_linkedin: self.employees_linkedin,
            revenue_musd: self.revenue_musd,
            ecommerce: self.ecommerce,
            technologies: Vec::new(),
            technology_categories: Vec::new(),
            funding: self
                .funding
                .as_ref()
                .map(|f| crate::dataset::format::FundingRow {
                    date: s(f.date),
                    kind: s(f.kind),
                    money_raised_usd: f.money_raised_usd,
                }),
            traffic: self.traffic.clone(),
            majestic_rank: self.majestic_rank,
            headcount_growth: self.headcount_growth,
            department_sizes: Vec::new(),
            phones: pv(&self.phones),
            emails: sv(&self.emails),
            medias: pv(&self.medias),
            mobile_apps: pv(&self.mobile_apps),
            sources: Vec::new(),
        }
    }
}
