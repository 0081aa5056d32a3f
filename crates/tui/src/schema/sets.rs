//! The closed value sets offered in pickers ([`SetId`]) and their options, built from the
//! `/v2/data-fields` reference data ([`DataFields`]) or the wire types' built-in lists.
use serde_json::Value;

use prospect_api::types::common::{
    CompanySize, FundingRoundType, HeadcountGrowthMonths, Relevance, Revenue, SocialNetwork,
    WireEnum,
};

/// A closed value set offered in a picker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SetId {
    /// `/v2/data-fields` industries (flattened).
    Industries,
    /// `/v2/data-fields` industry categories.
    IndustryCategories,
    /// `/v2/data-fields` linkedinIndustries.
    LinkedinIndustries,
    /// `/v2/data-fields` technology names.
    Technologies,
    /// `/v2/data-fields` technology categories.
    TechnologyCategories,
    /// Country codes (keys of `/v2/data-fields` regions).
    Countries,
    /// `{abbreviation, country}` states from `/v2/data-fields` regions.
    States,
    /// Region codes (strings) from `/v2/data-fields` regions.
    RegionCodes,
    /// Seniorities (data-fields, else the built-in list).
    Seniorities,
    /// Departments (data-fields, else the built-in list).
    Departments,
    /// `PublicCompanySize` labels.
    CompanySizes,
    /// `Revenue` labels.
    Revenues,
    /// `FundingRoundType`.
    FundingTypes,
    /// Social networks.
    SocialNetworks,
    /// Company field names for fieldsExist/fieldsNotExist.
    CompanyFields,
    /// Person field names for fieldsExist/fieldsNotExist.
    PersonFields,
    /// Relevance A/B/C.
    Relevance,
    /// `anyOf` / `allOf` (industries modes).
    AnyAll,
    /// `anyOf` / `allOf` / `noneOf`.
    AnyAllNone,
    /// `precise` / `broad`.
    MatchingMode,
    /// Head-count growth months.
    GrowthMonths,
    /// `true` / `false`.
    Bool,
}

/// `fieldsExist` / `fieldsNotExist` names of company filters (the wire types' list).
const COMPANY_FIELDS: &[&str] = prospect_api::types::COMPANY_FILTER_FIELDS;
/// `fieldsExist` / `fieldsNotExist` names of people filters (the wire types' list).
const PERSON_FIELDS: &[&str] = prospect_api::types::PERSON_FILTER_FIELDS;

/// One pickable option: what the user sees and what goes into the body.
#[derive(Debug, Clone, PartialEq)]
pub struct Opt {
    /// Shown in the picker (sanitized by the view).
    pub label: String,
    /// Stored in the body.
    pub value: Value,
}

/// The reference data of `/v2/data-fields`, flattened for pickers (SPEC.md §2.8).
#[derive(Debug, Clone, Default)]
pub struct DataFields {
    /// Industry names, sorted, unique.
    pub industries: Vec<String>,
    /// Industry category names.
    pub industry_categories: Vec<String>,
    /// Professional-network industries.
    pub linkedin_industries: Vec<String>,
    /// Technology names.
    pub technologies: Vec<String>,
    /// Technology categories.
    pub technology_categories: Vec<String>,
    /// Country codes.
    pub countries: Vec<String>,
    /// `(country, code, englishName)` of every region.
    pub regions: Vec<(String, String, String)>,
    /// Seniorities.
    pub seniorities: Vec<String>,
    /// Departments.
    pub departments: Vec<String>,
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort_by_key(|s| s.to_lowercase());
    v.dedup();
    v
}

impl DataFields {
    /// Flattens the typed `/v2/data-fields` answer (SPEC.md §2.8) for the pickers: names sorted
    /// case-insensitively without duplicates, regions without a code left out, seniorities and
    /// departments in the service's order (their wire strings).
    pub fn from_api(df: &prospect_api::types::DataFields) -> DataFields {
        let mut industries = Vec::new();
        let mut cats = Vec::new();
        for g in &df.industries {
            cats.extend(g.industry_category.clone());
            industries.extend(g.industries.iter().cloned());
        }
        let mut tech_names = Vec::new();
        let mut tech_cats = Vec::new();
        for t in &df.technologies {
            tech_names.extend(t.name.clone());
            tech_cats.extend(t.categories.iter().cloned());
        }
        let mut regions = Vec::new();
        for (cc, list) in &df.regions {
            for r in list {
                if let Some(code) = r.code.as_ref().filter(|c| !c.is_empty()) {
                    let name = r.english_name.clone().unwrap_or_default();
                    regions.push((cc.clone(), code.clone(), name));
                }
            }
        }
        regions.sort();
        DataFields {
            industries: sorted(industries),
            industry_categories: sorted(cats),
            linkedin_industries: sorted(df.linkedin_industries.clone()),
            technologies: sorted(tech_names),
            technology_categories: sorted(tech_cats),
            countries: sorted(df.regions.keys().cloned().collect()),
            regions,
            seniorities: df
                .seniorities
                .iter()
                .map(|s| s.as_str().to_string())
                .collect(),
            departments: df
                .departments
                .iter()
                .map(|d| d.as_str().to_string())
                .collect(),
        }
    }
}

fn strs(list: &[&str]) -> Vec<Opt> {
    list.iter()
        .map(|s| Opt {
            label: s.to_string(),
            value: Value::String(s.to_string()),
        })
        .collect()
}

fn owned(list: &[String]) -> Vec<Opt> {
    list.iter()
        .map(|s| Opt {
            label: s.clone(),
            value: Value::String(s.clone()),
        })
        .collect()
}

impl SetId {
    /// `true` when the options come from `/v2/data-fields` (empty until it has loaded).
    pub fn needs_data_fields(self) -> bool {
        matches!(
            self,
            SetId::Industries
                | SetId::IndustryCategories
                | SetId::LinkedinIndustries
                | SetId::Technologies
                | SetId::TechnologyCategories
                | SetId::Countries
                | SetId::States
                | SetId::RegionCodes
        )
    }

    /// The options of this set.
    pub fn options(self, df: &DataFields) -> Vec<Opt> {
        match self {
            SetId::Industries => owned(&df.industries),
            SetId::IndustryCategories => owned(&df.industry_categories),
            SetId::LinkedinIndustries => owned(&df.linkedin_industries),
            SetId::Technologies => owned(&df.technologies),
            SetId::TechnologyCategories => owned(&df.technology_categories),
            // Labelled with names, so "germany" or "Deutschland" find `de`.
            SetId::Countries => df
                .countries
                .iter()
                .map(|c| Opt {
                    label: crate::countries::label(c),
                    value: Value::String(c.clone()),
                })
                .collect(),
            SetId::States => df
                .regions
                .iter()
                .map(|(cc, code, name)| Opt {
                    label: format!("{code} {name} ({cc})"),
                    value: serde_json::json!({ "abbreviation": code, "country": cc }),
                })
                .collect(),
            SetId::RegionCodes => df
                .regions
                .iter()
                .map(|(cc, code, name)| Opt {
                    label: format!("{code} {name} ({cc})"),
                    value: Value::String(code.clone()),
                })
                .collect(),
            SetId::Seniorities if !df.seniorities.is_empty() => owned(&df.seniorities),
            SetId::Seniorities => strs(prospect_api::types::common::Seniority::ALL_STR),
            SetId::Departments if !df.departments.is_empty() => owned(&df.departments),
            SetId::Departments => strs(prospect_api::types::common::Department::ALL_STR),
            SetId::CompanySizes => strs(CompanySize::ALL_STR),
            SetId::Revenues => strs(Revenue::ALL_STR),
            SetId::FundingTypes => strs(FundingRoundType::ALL_STR),
            SetId::SocialNetworks => strs(SocialNetwork::ALL_STR),
            SetId::CompanyFields => strs(COMPANY_FIELDS),
            SetId::PersonFields => strs(PERSON_FIELDS),
            SetId::Relevance => strs(Relevance::ALL_STR),
            SetId::AnyAll => strs(&["anyOf", "allOf"]),
            SetId::AnyAllNone => strs(&["anyOf", "allOf", "noneOf"]),
            SetId::MatchingMode => strs(&["precise", "broad"]),
            SetId::GrowthMonths => strs(HeadcountGrowthMonths::ALL_STR),
            SetId::Bool => vec![
                Opt {
                    label: "true".into(),
                    value: Value::Bool(true),
                },
                Opt {
                    label: "false".into(),
                    value: Value::Bool(false),
                },
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn typed(v: Value) -> prospect_api::types::DataFields {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn data_fields_flatten_the_typed_answer() {
        let a = DataFields::from_api(&typed(
            json!({"technologies": [{"name": "React", "categories": ["JS"]}],
            "industries": [{"industryCategory": "Tech", "industries": ["Software", "AI"]}],
            "regions": {"us": [{"code": "CA", "englishName": "California", "localName": "California"}, {"englishName": "No code"}]},
            "seniorities": ["VP", "Galactic"]}),
        ));
        assert_eq!(a.technologies, vec!["React"]);
        assert_eq!(a.industries, vec!["AI", "Software"]);
        assert_eq!(a.industry_categories, vec!["Tech"]);
        assert_eq!(a.countries, vec!["us"]);
        assert_eq!(a.regions.len(), 1);
        assert_eq!(a.seniorities, vec!["VP", "Galactic"]);
        assert_eq!(
            SetId::States.options(&a)[0].value,
            json!({"abbreviation": "CA", "country": "us"})
        );
        let b = DataFields::from_api(&typed(
            json!({"technologies": {"name": "Vue", "categories": []}}),
        ));
        assert_eq!(b.technologies, vec!["Vue"]);
    }
}
