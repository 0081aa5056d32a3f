//! LinkedIn industries (V2 codes and the classic labels), Wappalyzer technologies, and skills
//! (O*NET, ESCO).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use anyhow::Context;

use super::super::util::title_case;
use super::{read_json, read_text};

/// LinkedIn V2 industries as (label, category) pairs, and the categories in first-seen order.
pub type Industries = (Vec<(String, String)>, Vec<String>);

/// Loads `industry_codes.json`.
pub fn load_industries(data: &Path) -> anyhow::Result<Industries> {
    let v = read_json(&data.join("linkedin-industries-v2/industry_codes.json"))?;
    let mut out = Vec::new();
    let mut cats: Vec<String> = Vec::new();
    for i in v["industries"]
        .as_array()
        .context("industry_codes: no list")?
    {
        let label = i["label"].as_str().unwrap_or_default().to_string();
        let cat = i["category"].as_str().unwrap_or_default().to_string();
        if !cats.contains(&cat) {
            cats.push(cat.clone());
        }
        out.push((label, cat));
    }
    Ok((out, cats))
}

/// Classic LinkedIn industries (PDL `IndustryType`, lowercase).
pub fn load_classic(data: &Path) -> anyhow::Result<Vec<String>> {
    let v = read_json(&data.join("pdl-canonical-enums/pdl_canonical_enums_derived.json"))?;
    Ok(v["IndustryType"]
        .as_array()
        .context("pdl enums: no IndustryType")?
        .iter()
        .filter_map(|x| x.as_str().map(str::to_string))
        .collect())
}

/// Title case for a classic industry label (`apparel & fashion` -> `Apparel & Fashion`).
pub fn classic_label(s: &str) -> String {
    title_case(s)
        .split('/')
        .map(title_case)
        .collect::<Vec<_>>()
        .join("/")
}

/// Wappalyzer: (name, category names) sorted by name.
pub fn load_technologies(data: &Path) -> anyhow::Result<Vec<(String, Vec<String>)>> {
    let base = data.join("wappalyzer-technologies-mit");
    let cats = read_json(&base.join("categories.json"))?;
    let cat_name: HashMap<String, String> = cats
        .as_object()
        .context("categories.json: not an object")?
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                v["name"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    let mut out = BTreeMap::new();
    for letter in "_abcdefghijklmnopqrstuvwxyz".chars() {
        let v = read_json(&base.join(format!("technologies/{letter}.json")))?;
        for (name, t) in v.as_object().context("technologies: not an object")? {
            let names: Vec<String> = t["cats"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|c| cat_name.get(&c.to_string()).cloned())
                        .collect()
                })
                .unwrap_or_default();
            out.insert(name.clone(), names);
        }
    }
    Ok(out.into_iter().collect())
}

/// Skills: O*NET technology skills flagged hot or in demand, plus ESCO skills, de-duplicated
/// case-insensitively, at most `max`, sorted.
pub fn load_skills(data: &Path, max: usize) -> anyhow::Result<Vec<String>> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let tech = read_text(&data.join("onet-29.2/Technology_Skills.txt"))?;
    for line in tech.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() >= 6 && (f[4] == "Y" || f[5] == "Y") {
            let s = f[1].trim();
            if seen.insert(s.to_lowercase()) {
                out.push(s.to_string());
            }
        }
    }
    let path = data.join("esco-v1.1.1/moffapps_skills_subset/skills_en.csv");
    let mut rdr =
        csv::Reader::from_path(&path).with_context(|| format!("reading {}", path.display()))?;
    for rec in rdr.records() {
        let rec = rec?;
        if out.len() >= max {
            break;
        }
        let s = rec.get(2).unwrap_or("").trim();
        if !s.is_empty() && s.len() <= 60 && seen.insert(s.to_lowercase()) {
            out.push(s.to_string());
        }
    }
    out.truncate(max);
    out.sort_by_key(|s| s.to_lowercase());
    Ok(out)
}
