//! Switching a request body between the v2 and v3 search versions ([`switch_version`]):
//! the members with a counterpart in the other version (`VERSION_PAIRS`, `VERSION_MODES`).
use serde_json::Value;

use super::body::{extras, get, is_filled, remove, set};
use super::leaves::{CF, PF};
use prospect_api::client::Endpoint;

/// Members with the same meaning and value shape in both search versions (issue 19): (v2
/// path, v3 path). `v` moves a set value from one to the other.
static VERSION_PAIRS: &[(&[&str], &[&str])] = &[
    (
        &[CF, "primaryCountries"],
        &[CF, "primaryLocations", "includeCountries"],
    ),
    (
        &[CF, "primaryStates"],
        &[CF, "primaryLocations", "includeRegions"],
    ),
    (
        &[CF, "primaryCities"],
        &[CF, "primaryLocations", "includeCities"],
    ),
    (
        &[CF, "headquarterGeolocation", "latitude"],
        &[CF, "primaryLocations", "geolocation", "latitude"],
    ),
    (
        &[CF, "headquarterGeolocation", "longitude"],
        &[CF, "primaryLocations", "geolocation", "longitude"],
    ),
    (
        &[CF, "headquarterGeolocation", "radius"],
        &[CF, "primaryLocations", "geolocation", "radius"],
    ),
    (&[CF, "webTrafficVisits"], &[CF, "webTraffic", "visits"]),
    (&[PF, "includeIds"], &[PF, "includePeopleIds"]),
    (&[PF, "excludeIds"], &[PF, "excludePeopleIds"]),
];

/// Lists that v2 writes as `{LIST: [...], mode: "anyOf"|"allOf"|"noneOf"}` and v3 as
/// `{anyOf: [...], allOf: [...], noneOf: [...]}`: (v2 list path, v2 mode path, v3 parent path).
static VERSION_MODES: &[(&[&str], &[&str], &[&str])] = &[
    (
        &[CF, "keywords", "keywords"],
        &[CF, "keywords", "mode"],
        &[CF, "keywords"],
    ),
    (
        &[CF, "technologies", "technologies"],
        &[CF, "technologies", "mode"],
        &[CF, "technologies", "apps"],
    ),
    (
        &[CF, "socialMedias", "medias"],
        &[CF, "socialMedias", "mode"],
        &[CF, "socialMedias", "medias"],
    ),
];

/// What switching a body to the other search version did ([`switch_version`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VersionSwitch {
    /// Members moved to their counterpart: (from, to), dotted paths.
    pub moved: Vec<(String, String)>,
    /// Members set in the body that the new endpoint does not take (kept in the body, listed
    /// as "not used by this endpoint"), dotted paths.
    pub unmatched: Vec<String>,
}

/// Moves the members of `body` that have a counterpart in endpoint `to`'s version to it
/// (issue 19: `v` from v3 to v2 keeps a country filter), and names the set members `to` does
/// not take. A v3 `anyOf` / `allOf` / `noneOf` list becomes v2's list with its `mode` (the
/// first set one; the others stay, named as unmatched), and back.
pub fn switch_version(body: &mut Value, to: Endpoint) -> VersionSwitch {
    let mut out = VersionSwitch::default();
    let to_v2 = to.version() == prospect_api::client::ApiVersion::V2;
    for (v2, v3) in VERSION_PAIRS {
        let (from, into) = if to_v2 { (*v3, *v2) } else { (*v2, *v3) };
        if let Some(v) = get(body, from).filter(|v| is_filled(Some(v))).cloned() {
            remove(body, from);
            set(body, into, v);
            out.moved.push((from.join("."), into.join(".")));
        }
    }
    for (list, mode, v3) in VERSION_MODES {
        if to_v2 {
            let keys = ["anyOf", "allOf", "noneOf"];
            let Some(key) = keys.iter().find(|k| {
                let mut p = v3.to_vec();
                p.push(k);
                is_filled(get(body, &p))
            }) else {
                continue;
            };
            let mut from = v3.to_vec();
            from.push(key);
            let v = get(body, &from).cloned().unwrap_or(Value::Null);
            remove(body, &from);
            // The v3 object may share the v2 list's path (socialMedias.medias): take what is
            // left of it aside, then write the v2 members.
            let rest = get(body, v3).cloned();
            remove(body, v3);
            set(body, list, v);
            set(body, mode, Value::from(*key));
            // The other lists stay in the body (listed as not used by v2, back with `v`), unless
            // the v2 list now sits where they were (socialMedias.medias): those are named.
            if let Some(Value::Object(rest)) = rest {
                for (k, v) in rest.into_iter().filter(|(_, v)| is_filled(Some(v))) {
                    let mut p: Vec<&str> = v3.to_vec();
                    p.push(&k);
                    if get(body, v3).is_none_or(Value::is_object) {
                        set(body, &p, v);
                    } else {
                        out.unmatched.push(format!("{} (dropped)", p.join(".")));
                    }
                }
            }
            out.moved.push((from.join("."), list.join(".")));
        } else if let Some(v) = get(body, list).filter(|v| is_filled(Some(v))).cloned() {
            let key = get(body, mode)
                .and_then(Value::as_str)
                .filter(|k| ["anyOf", "allOf", "noneOf"].contains(k))
                .unwrap_or("anyOf")
                .to_string();
            remove(body, list);
            remove(body, mode);
            let mut into = v3.to_vec();
            into.push(&key);
            set(body, &into, v);
            out.moved.push((list.join("."), into.join(".")));
        }
    }
    out.unmatched.extend(
        extras(body, to)
            .into_iter()
            .filter(|(_, v)| is_filled(Some(v)))
            .map(|(p, _)| p.join(".")),
    );
    out.unmatched.sort();
    out.unmatched.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn switching_versions_keeps_the_members_with_a_counterpart() {
        let v3 = json!({"size": 5, "companiesFilters": {
            "primaryLocations": {"includeCountries": ["de"]},
            "keywords": {"anyOf": ["saas"], "noneOf": ["agency"]},
            "technologies": {"apps": {"allOf": ["React"]}, "categories": {"anyOf": ["CRM"]}},
            "socialMedias": {"medias": {"anyOf": ["linkedin"], "allOf": ["x"]}},
            "minRelevance": "B"}});
        let mut body = v3.clone();
        let s = switch_version(&mut body, Endpoint::SearchCompaniesV2);
        assert_eq!(
            get(&body, &[CF, "primaryCountries"]),
            Some(&json!(["de"])),
            "{body}"
        );
        assert!(get(&body, &[CF, "primaryLocations"]).is_none(), "{body}");
        assert_eq!(
            get(&body, &[CF, "keywords", "keywords"]),
            Some(&json!(["saas"]))
        );
        assert_eq!(get(&body, &[CF, "keywords", "mode"]), Some(&json!("anyOf")));
        assert_eq!(
            get(&body, &[CF, "technologies", "technologies"]),
            Some(&json!(["React"]))
        );
        assert_eq!(
            get(&body, &[CF, "technologies", "mode"]),
            Some(&json!("allOf"))
        );
        assert_eq!(
            get(&body, &[CF, "socialMedias", "medias"]),
            Some(&json!(["linkedin"]))
        );
        assert!(s.moved.contains(&(
            "companiesFilters.primaryLocations.includeCountries".into(),
            "companiesFilters.primaryCountries".into()
        )));
        // Named: what v2 does not take (kept in the body), and what could not be kept.
        for named in [
            "companiesFilters.minRelevance",
            "companiesFilters.keywords.noneOf",
            "companiesFilters.technologies.categories",
            "companiesFilters.socialMedias.medias.allOf (dropped)",
        ] {
            assert!(
                s.unmatched.iter().any(|u| u == named),
                "{named}: {:?}",
                s.unmatched
            );
        }
        // And back: the country, keywords and technologies return where they were.
        let back = switch_version(&mut body, Endpoint::SearchCompaniesV3);
        assert_eq!(
            get(&body, &[CF, "primaryLocations", "includeCountries"]),
            Some(&json!(["de"])),
            "{body}"
        );
        assert_eq!(
            get(&body, &[CF, "keywords", "anyOf"]),
            Some(&json!(["saas"]))
        );
        assert_eq!(
            get(&body, &[CF, "keywords", "noneOf"]),
            Some(&json!(["agency"]))
        );
        assert_eq!(
            get(&body, &[CF, "technologies", "apps", "allOf"]),
            Some(&json!(["React"]))
        );
        assert_eq!(
            get(&body, &[CF, "technologies", "categories", "anyOf"]),
            Some(&json!(["CRM"]))
        );
        assert!(back.unmatched.is_empty(), "{:?}", back.unmatched);
        // People ids follow too.
        let mut p = json!({"peopleFilters": {"includePeopleIds": ["p1"]}});
        switch_version(&mut p, Endpoint::SearchPeopleV2);
        assert_eq!(get(&p, &[PF, "includeIds"]), Some(&json!(["p1"])));
    }
}
