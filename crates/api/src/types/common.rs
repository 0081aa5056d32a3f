//! Closed value sets and small shared shapes of the wire model (SPEC.md §2.1, §2.2, §2.4, §3;
//! openapi.json `Seniority`, `Department`, `PublicCompanySize`, `Revenue`, `FundingRoundType`,
//! `LocationType`, `CompanyField`, `PersonField`, `FromTo`, `FromToFloat`, `FromToStringDate`).
//!
//! Every closed set is a [`wire_enum!`] enum: it serializes to the exact wire string, and it
//! deserializes *tolerantly*: a value the service added after this client was written becomes
//! `Unknown(String)` instead of failing the whole response (NOTES.md, "tolerant reader").
//! Strict checking of requests (the sandbox's 422) uses [`WireEnum::is_known`].

use serde::{Deserialize, Deserializer, Serialize};

/// Common behaviour of every closed value set of the wire model.
pub trait WireEnum: Sized {
    /// Every known wire value, in the order openapi.json lists them.
    const ALL_STR: &'static [&'static str];
    /// The exact string sent on the wire.
    fn as_str(&self) -> &str;
    /// `false` for `Unknown(..)`: a value this build does not know.
    fn is_known(&self) -> bool;
    /// Parse a wire string; unknown strings give `Unknown(..)`, never an error.
    fn from_wire(s: &str) -> Self;
}

/// Declares a closed value set: `wire_enum!(Name, "doc", { Variant => "wire", ... })`.
///
/// Generates the enum with an extra `Unknown(String)` variant, `Serialize`/`Deserialize` as the
/// wire string, `Display`, `FromStr` (never fails), [`WireEnum`] and an `ALL` array of the
/// known variants.
#[macro_export]
macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $wire:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vmeta])* #[doc = concat!("`", $wire, "`")] $variant,)+
            /// A value this build does not know (kept verbatim; tolerant reading).
            Unknown(String),
        }

        impl $name {
            /// Every known variant, in wire order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
        }

        impl $crate::types::common::WireEnum for $name {
            const ALL_STR: &'static [&'static str] = &[$($wire),+];
            fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $wire,)+
                    $name::Unknown(s) => s.as_str(),
                }
            }
            fn is_known(&self) -> bool {
                !matches!(self, $name::Unknown(_))
            }
            fn from_wire(s: &str) -> Self {
                match s {
                    $($wire => $name::$variant,)+
                    other => $name::Unknown(other.to_string()),
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::types::common::WireEnum::as_str(self))
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = ::std::convert::Infallible;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Ok(<$name as $crate::types::common::WireEnum>::from_wire(s))
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str($crate::types::common::WireEnum::as_str(self))
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <::std::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(d)?;
                Ok(<$name as $crate::types::common::WireEnum>::from_wire(&s))
            }
        }
    };
}

wire_enum!(
    /// A person's seniority (SPEC.md §2.1 `seniorities`; openapi `Seniority`).
    Seniority {
        Owner => "Owner", Founder => "Founder", BoardMember => "Board Member", CLevel => "C-Level",
        Partner => "Partner", Vp => "VP", Head => "Head", Director => "Director",
        Manager => "Manager", Other => "Other",
    }
);

wire_enum!(
    /// A person's department (SPEC.md §2.1 `departments`; openapi `Department`).
    Department {
        AccountingAndFinance => "Accounting and Finance", Board => "Board",
        BusinessSupport => "Business Support", CustomerRelations => "Customer Relations",
        Design => "Design", EditorialPersonnel => "Editorial Personnel", Engineering => "Engineering",
        FounderOwner => "Founder/Owner", Healthcare => "Healthcare", Hr => "HR", Legal => "Legal",
        Management => "Management", Manufacturing => "Manufacturing",
        MarketingAndAdvertising => "Marketing and Advertising", Operations => "Operations",
        PrAndCommunications => "PR and Communications", Procurement => "Procurement",
        Product => "Product", QualityControl => "Quality Control", RAndD => "R&D", Sales => "Sales",
        Security => "Security", SupplyChain => "Supply Chain", Other => "Other",
    }
);

wire_enum!(
    /// Verification status of a person's email (SPEC.md §2.2 `email.status`).
    EmailStatus { Verified => "verified", Guessed => "guessed", CatchAll => "catchAll", NotFound => "notFound" }
);

wire_enum!(
    /// Verification status of a person's phone numbers (SPEC.md §2.2 `phone.status`).
    PhoneStatus { Verified => "verified", NotFound => "notFound", InProgress => "inProgress" }
);

wire_enum!(
    /// Company head-count range label (openapi `PublicCompanySize`; NOTES.md: the 12 labels).
    CompanySize {
        S0To1 => "0-1", S2To10 => "2-10", S11To50 => "11-50", S51To200 => "51-200",
        S201To500 => "201-500", S501To1000 => "501-1000", S1001To5000 => "1001-5000",
        S5001To10000 => "5001-10000", S10001To50000 => "10001-50000",
        S50001To100000 => "50001-100000", S100001To500000 => "100001-500000",
        S500000Plus => "500000+",
    }
);

impl CompanySize {
    /// The size range a head count falls in (employees, inclusive bounds), per the 12 labels.
    pub fn for_employees(n: u64) -> CompanySize {
        match n {
            0..=1 => CompanySize::S0To1,
            2..=10 => CompanySize::S2To10,
            11..=50 => CompanySize::S11To50,
            51..=200 => CompanySize::S51To200,
            201..=500 => CompanySize::S201To500,
            501..=1000 => CompanySize::S501To1000,
            1001..=5000 => CompanySize::S1001To5000,
            5001..=10000 => CompanySize::S5001To10000,
            10001..=50000 => CompanySize::S10001To50000,
            50001..=100000 => CompanySize::S50001To100000,
            100001..=500000 => CompanySize::S100001To500000,
            _ => CompanySize::S500000Plus,
        }
    }
}

wire_enum!(
    /// Annual revenue range label in USD millions (SPEC.md §2.4 `revenues`; openapi `Revenue`).
    Revenue {
        R0To1M => "0-1M", R1To10M => "1-10M", R10To50M => "10-50M", R50To100M => "50-100M",
        R100To500M => "100-500M", R500To1000M => "500-1000M", Over1000M => ">1000M",
    }
);

impl Revenue {
    /// The range a revenue in USD millions falls in.
    pub fn for_musd(m: f64) -> Revenue {
        match m {
            x if x < 1.0 => Revenue::R0To1M,
            x if x < 10.0 => Revenue::R1To10M,
            x if x < 50.0 => Revenue::R10To50M,
            x if x < 100.0 => Revenue::R50To100M,
            x if x < 500.0 => Revenue::R100To500M,
            x if x <= 1000.0 => Revenue::R500To1000M,
            _ => Revenue::Over1000M,
        }
    }
}

wire_enum!(
    /// Lookalike relevance category of v3 searches, `A` the most relevant
    /// (openapi `PublicCompanyWithRelevance.relevance`, `minRelevance`/`maxRelevance`).
    Relevance { A => "A", B => "B", C => "C" }
);

wire_enum!(
    /// How the values of a list filter combine (SPEC.md §2.4 `mode`; openapi `KeywordsFilterV1.mode`).
    FilterMode { AnyOf => "anyOf", AllOf => "allOf", NoneOf => "noneOf" }
);

#[allow(clippy::derivable_impls)] // the enum comes from a macro; the default is the wire default
impl Default for FilterMode {
    fn default() -> Self {
        FilterMode::AnyOf
    }
}

wire_enum!(
    /// Type of a funding round (openapi `FundingRoundType`).
    FundingRoundType {
        Seed => "Seed", SeriesA => "Series A", Angel => "Angel", SeriesB => "Series B",
        SeriesUnknown => "Series Unknown", PreSeed => "Pre-Seed", Grant => "Grant",
        SeriesC => "Series C", ConvertibleNote => "Convertible Note",
        DebtFinancing => "Debt Financing", NonEquityAssistance => "Non-Equity Assistance",
        Undisclosed => "Undisclosed", SeriesD => "Series D", CorporateRound => "Corporate Round",
        EquityCrowdfunding => "Equity Crowdfunding", ProductCrowdfunding => "Product Crowdfunding",
        SeriesE => "Series E", PrivateEquity => "Private Equity",
        SecondaryMarket => "Secondary Market", InitialCoinOffering => "Initial Coin Offering",
        PostIpoEquity => "Post-IPO Equity", SeriesF => "Series F", PostIpoDebt => "Post-IPO Debt",
        SeriesH => "Series H", SeriesG => "Series G", PostIpoSecondary => "Post-IPO Secondary",
        SeriesI => "Series I", SeriesJ => "Series J",
    }
);

wire_enum!(
    /// Granularity of a location suggestion (openapi `LocationType`).
    LocationType { Country => "1-country", Region => "2-region", Municipality => "3-municipality", City => "4-city" }
);

wire_enum!(
    /// Whether a location autocomplete is for company or people filters (openapi `LocationSearchType`).
    LocationSearchType { Companies => "companies", People => "people" }
);

wire_enum!(
    /// Period of a head-count growth filter (openapi `HeadcountGrowthMonths`).
    HeadcountGrowthMonths { ThreeMonths => "Three months", SixMonths => "Six months", TwelveMonths => "Twelve months" }
);

wire_enum!(
    /// A social network of the v3 `socialMedias` filter (openapi `AllAnyNoneFilterSocialMedia`).
    SocialNetwork {
        Linkedin => "linkedin", X => "x", Facebook => "facebook", Instagram => "instagram",
        Youtube => "youtube", Xing => "xing", Tiktok => "tiktok",
    }
);

wire_enum!(
    /// A company field name for `fieldsExist` / `fieldsNotExist` (openapi `CompanyField`).
    CompanyField {
        Domain => "domain", Countries => "countries", PrimaryCountry => "primaryCountry",
        CompanySize => "companySize", IndustryCategories => "industryCategories",
        Industries => "industries", LinkedinIndustry => "linkedinIndustry", Ecommerce => "ecommerce",
        Keywords => "keywords", EmployeeCountService => "employeeCountService",
        EmployeeCountLinkedin => "employeeCountLinkedin", Revenue => "revenue",
        YearFounded => "yearFounded", Description => "description", Emails => "emails",
        Phones => "phones", PhonesNumber => "phones.number", PhonesCountry => "phones.country",
        PhonesPrimary => "phones.primary", Logo => "logo", Technologies => "technologies",
        TechnologyCategories => "technologyCategories", MobileApps => "mobileApps",
        MobileAppsLink => "mobileApps.link", MobileAppsName => "mobileApps.name",
        WebTraffic => "webTraffic", WebTrafficVisits => "webTraffic.visits",
        WebTrafficPageViews => "webTraffic.pageViews",
        WebTrafficPagesPerVisit => "webTraffic.pagesPerVisit", Medias => "medias",
        MediasLinkedin => "medias.linkedin", MediasTwitter => "medias.twitter",
        MediasYoutube => "medias.youtube", MediasFacebook => "medias.facebook",
        MediasXing => "medias.xing", MediasTiktok => "medias.tiktok",
        MediasInstagram => "medias.instagram", Name => "name", LegalName => "legalName",
        Locations => "locations", LocationsPrimary => "locations.primary",
        LocationsCountry => "locations.country", LocationsLocality => "locations.locality",
        LocationsRegion => "locations.region", LocationsPostalCode => "locations.postalCode",
        LocationsStreetAddress => "locations.streetAddress", LocationsState => "locations.state",
        LocationsRegionCode => "locations.regionCode", DepartmentSizes => "departmentSizes",
        RootUrl => "rootUrl", Faxes => "faxes", FaxesNumber => "faxes.number",
        FaxesCountry => "faxes.country", FaxesPrimary => "faxes.primary", Impressum => "impressum",
        ImpressumCompany => "impressum.company", ImpressumAddress => "impressum.address",
        ImpressumEmail => "impressum.email", ImpressumPhone => "impressum.phone",
        ImpressumFax => "impressum.fax", ImpressumVat => "impressum.vat",
        ImpressumUrl => "impressum.url", ImpressumPeople => "impressum.people",
        FundingRound => "fundingRound", FundingRoundDate => "fundingRound.date",
        FundingRoundType => "fundingRound.type",
        FundingRoundMoneyRaisedInUsd => "fundingRound.moneyRaisedInUsd",
        FundingRoundCbUrl => "fundingRound.cbUrl", RedirectedFrom => "redirectedFrom",
        UpdatedAt => "updatedAt", HeadcountGrowth => "headcountGrowth",
        HeadcountGrowthThreeMonths => "headcountGrowth.threeMonths",
        HeadcountGrowthThreeMonthsPercentage => "headcountGrowth.threeMonthsPercentage",
        HeadcountGrowthSixMonths => "headcountGrowth.sixMonths",
        HeadcountGrowthSixMonthsPercentage => "headcountGrowth.sixMonthsPercentage",
        HeadcountGrowthTwelveMonths => "headcountGrowth.twelveMonths",
        HeadcountGrowthTwelveMonthsPercentage => "headcountGrowth.twelveMonthsPercentage",
        HeadcountGrowthPerDepartment => "headcountGrowthPerDepartment",
    }
);

wire_enum!(
    /// A person field name for `fieldsExist` / `fieldsNotExist` (openapi `PersonField`).
    PersonField {
        Id => "id", Domain => "domain", Name => "name", FirstName => "firstName",
        LastName => "lastName", Country => "country", State => "state", Location => "location",
        LinkedinUrl => "linkedinUrl", Seniorities => "seniorities", Departments => "departments",
        Photo => "photo", JobTitle => "jobTitle", JobTitleEnglish => "jobTitleEnglish",
        CurrentJobDescription => "currentJobDescription", Experiences => "experiences",
        ExperiencesDomain => "experiences.domain", ExperiencesJobTitle => "experiences.jobTitle",
        ExperiencesDateFrom => "experiences.dateFrom", ExperiencesDateTo => "experiences.dateTo",
        ExperiencesDescription => "experiences.description",
        ExperiencesLinkedinCompanyHandle => "experiences.linkedinCompanyHandle",
        Summary => "summary", Skills => "skills", Email => "email", EmailAddress => "email.address",
        UpdatedAt => "updatedAt", ConnectionsCount => "connectionsCount",
        FollowersCount => "followersCount", Headline => "headline",
    }
);

wire_enum!(
    /// A company-of-person field name for v3 people `fieldsExist` (openapi `PersonCompanyField`).
    PersonCompanyField {
        Revenue => "company.revenue", PeopleCount => "company.peopleCount",
        Industries => "company.industries", Technologies => "company.technologies",
        LatestFundingRound => "company.latestFundingRound",
    }
);

/// An inclusive integer range `{from, to}`; either end may be absent (openapi `FromTo`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FromTo {
    /// Greater than or equal to.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_i64"
    )]
    pub from: Option<i64>,
    /// Less than or equal to.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_i64"
    )]
    pub to: Option<i64>,
}

impl FromTo {
    /// `true` when `v` lies within the range (absent ends are open).
    pub fn contains(&self, v: i64) -> bool {
        self.from.is_none_or(|f| v >= f) && self.to.is_none_or(|t| v <= t)
    }
    /// `true` when neither end is set.
    pub fn is_empty(&self) -> bool {
        self.from.is_none() && self.to.is_none()
    }
}

/// An inclusive number range `{from, to}` (openapi `FromToFloat`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FromToFloat {
    /// Greater than or equal to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<f64>,
    /// Less than or equal to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<f64>,
}

impl FromToFloat {
    /// `true` when `v` lies within the range (absent ends are open).
    pub fn contains(&self, v: f64) -> bool {
        self.from.is_none_or(|f| v >= f) && self.to.is_none_or(|t| v <= t)
    }
}

/// An inclusive date range, dates as `YYYY-MM-DD` strings (openapi `FromToStringDate`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FromToStringDate {
    /// Greater than or equal to, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Less than or equal to, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
}

/// Tolerant deserializers for response fields (NOTES.md: "integers where numbers are expected
/// and the reverse"). Use with `#[serde(default, deserialize_with = "lenient::opt_i64")]`.
pub mod lenient {
    use super::*;

    /// Reads a number of any JSON kind, or `null`, without buffering the value.
    struct Num;

    impl<'de> serde::de::Visitor<'de> for Num {
        type Value = Option<i64>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a number")
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(v))
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(i64::try_from(v).ok())
        }
        fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Ok(v.is_finite().then(|| v.round() as i64))
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(self)
        }
    }

    /// `Option<i64>` that also accepts a JSON number with a fraction (rounded) or `null`.
    pub fn opt_i64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        d.deserialize_option(Num)
    }

    /// `i64` that also accepts a JSON number with a fraction (rounded); `null` gives 0.
    pub fn i64_or_zero<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        Ok(opt_i64(d)?.unwrap_or(0))
    }

    /// A member's raw JSON text, `Some` whenever the member is there (`null` included), for
    /// `#[serde(default, borrow, deserialize_with = "lenient::raw_member")]` on an
    /// `Option<&RawValue>`: tells an absent member from a `null` one without parsing it.
    pub fn raw_member<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<&'de serde_json::value::RawValue>, D::Error> {
        <&serde_json::value::RawValue>::deserialize(d).map(Some)
    }

    /// `Vec<T>` where `null` is read as empty.
    pub fn vec_or_null<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        d: D,
    ) -> Result<Vec<T>, D::Error> {
        Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_enum_value_is_kept_not_rejected() {
        let s: Seniority = serde_json::from_str("\"Chief Vibes Officer\"").unwrap();
        assert_eq!(s, Seniority::Unknown("Chief Vibes Officer".into()));
        assert!(!s.is_known());
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            "\"Chief Vibes Officer\""
        );
        let d: Department = serde_json::from_str("\"R&D\"").unwrap();
        assert_eq!(d, Department::RAndD);
        assert_eq!(Department::ALL.len(), 24);
        assert_eq!(CompanySize::ALL_STR.last(), Some(&"500000+"));
    }

    #[test]
    fn lenient_integers_accept_numbers() {
        let r: FromTo = serde_json::from_str(r#"{"from": 10.0, "to": null}"#).unwrap();
        assert_eq!(
            r,
            FromTo {
                from: Some(10),
                to: None
            }
        );
        assert!(r.contains(10) && !r.contains(9));
    }

    #[test]
    fn size_and_revenue_buckets() {
        assert_eq!(CompanySize::for_employees(1), CompanySize::S0To1);
        assert_eq!(
            CompanySize::for_employees(10_000),
            CompanySize::S5001To10000
        );
        assert_eq!(
            CompanySize::for_employees(600_000),
            CompanySize::S500000Plus
        );
        assert_eq!(Revenue::for_musd(0.5), Revenue::R0To1M);
        assert_eq!(Revenue::for_musd(5000.0), Revenue::Over1000M);
    }
}

/// One segment of a validation error location: a member name or an array index
/// (SPEC.md §2.10 says strings; FastAPI-style services also send integer indexes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LocSegment {
    /// A member name, e.g. `"body"`, `"companiesFilters"`.
    Key(String),
    /// An array index.
    Index(u64),
}

impl std::fmt::Display for LocSegment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LocSegment::Key(k) => f.write_str(k),
            LocSegment::Index(i) => write!(f, "{i}"),
        }
    }
}

impl From<&str> for LocSegment {
    fn from(s: &str) -> Self {
        LocSegment::Key(s.to_string())
    }
}

impl From<usize> for LocSegment {
    fn from(i: usize) -> Self {
        LocSegment::Index(i as u64)
    }
}

/// One entry of a 422 `detail` array (SPEC.md §2.10; openapi `ValidationError`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValidationError {
    /// Where the problem is, e.g. `["body", "size"]`.
    pub loc: Vec<LocSegment>,
    /// Human-readable message, e.g. `"Input should be less than or equal to 10000"`.
    pub msg: String,
    /// Machine-readable kind, e.g. `"less_than_equal"`, `"extra_forbidden"`, `"missing"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The offending input, when the service echoes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<serde_json::Value>,
    /// Extra context, e.g. `{"le": 10000}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ctx: Option<serde_json::Value>,
}

impl ValidationError {
    /// A new entry with `loc` built from segments, e.g. `ValidationError::new(["body".into(), "size".into()], "...", "less_than_equal")`.
    pub fn new(
        loc: impl IntoIterator<Item = LocSegment>,
        msg: impl Into<String>,
        kind: impl Into<String>,
    ) -> Self {
        ValidationError {
            loc: loc.into_iter().collect(),
            msg: msg.into(),
            kind: kind.into(),
            input: None,
            ctx: None,
        }
    }

    /// `loc` joined with dots, e.g. `body.companiesFilters.countries.0`.
    pub fn path(&self) -> String {
        self.loc
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(".")
    }
}

impl std::fmt::Display for ValidationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path(), self.msg)
    }
}

/// Body of every 422 answer (SPEC.md §2.10; openapi `HTTPValidationError`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HttpValidationError {
    /// The problems found, at least one.
    #[serde(default)]
    pub detail: Vec<ValidationError>,
}

/// Strict validation of a request body, the single source of truth for both sides: the
/// client calls it before sending (so no credit is spent on a request the service would
/// reject) and the sandbox answers 422 with the same entries (SPEC.md §7, §8).
pub trait Validate {
    /// Every problem found, each with `loc` starting at `"body"`; empty when valid.
    fn validate(&self) -> Vec<ValidationError>;
}

/// Email reveal option of searches and enrich person (SPEC.md §2.6; openapi `RevealEmails`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RevealEmails {
    /// Whether to reveal emails (one email credit per verified email).
    #[serde(default)]
    pub include_emails: bool,
    /// Where the `*_email` webhook is POSTed; results are delivered there, not inline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook_url: Option<String>,
}

/// Phone reveal option of searches and enrich person (SPEC.md §2.6; openapi `RevealPhones`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RevealPhones {
    /// Whether to reveal phones (one phone credit per verified phone).
    #[serde(default)]
    pub include_phones: bool,
    /// Where the `*_phone` webhook is POSTed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook_url: Option<String>,
}
