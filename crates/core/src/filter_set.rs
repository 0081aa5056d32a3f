//! Saved filter sets: `<config dir>/filters/NAME.json`, each the members of a search request
//! body (`companiesFilters`, `peopleFilters`, `size`, ...) plus `endpoint` (the search path it
//! was made for, e.g. `/v3/search/companies`). A set saved from both results tabs of the
//! explorer (issue 38) holds the other tab's search too, as the member `otherTab`: an object of
//! its own `endpoint` and body members. To send one with curl, drop `endpoint` (and
//! `otherTab`): `jq 'del(.endpoint, .otherTab)' NAME.json | curl -d @- ...`.
//!
//! Writes are atomic (temp file in the same directory + rename). A file that does not parse
//! opens nothing and overwrites nothing; the error says which line and column is wrong.
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::request::SEARCHES;
use prospect_api::client::{Endpoint, SearchSubject};

/// Why a filter set could not be listed, read, written or deleted. Messages are for the
/// status line: they name the file and, for syntax errors, the line and column.
#[derive(Debug, thiserror::Error)]
pub enum FilterSetError {
    /// The name cannot be a file name.
    #[error("{0:?} is not a usable name (letters, digits, space, '-', '_', '.'; at most 64)")]
    BadName(String),
    /// The file is not JSON.
    #[error("{file}: line {line}, column {column}: {msg}")]
    Syntax {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde_json said.
        msg: String,
    },
    /// The file is JSON but not a filter set.
    #[error("{file}: {msg}")]
    Shape {
        /// The file.
        file: String,
        /// What is wrong.
        msg: String,
    },
    /// Reading or writing failed.
    #[error("{file}: {err}")]
    Io {
        /// The file or directory.
        file: String,
        /// The I/O error.
        err: std::io::Error,
    },
}

/// A loaded filter set.
#[derive(Debug, Clone, PartialEq)]
pub struct FilterSet {
    /// The search it was saved for, one of [`SEARCHES`] (default `/v3/search/companies`).
    pub endpoint: Endpoint,
    /// The request body members (without `endpoint` and `otherTab`).
    pub body: Value,
    /// The other results tab's search when the set holds both (the member `otherTab`; its
    /// endpoint is of the other subject); `None` in a one-tab set, as every set saved before.
    pub other: Option<Box<FilterSet>>,
}

impl FilterSet {
    /// A set of one search.
    pub fn one(endpoint: Endpoint, body: Value) -> FilterSet {
        FilterSet {
            endpoint,
            body,
            other: None,
        }
    }

    /// The search this set holds for `subject` (companies or people): its own when its
    /// endpoint is of that subject, else its other tab's; `None` when it holds none.
    pub fn for_subject(&self, subject: SearchSubject) -> Option<(Endpoint, &Value)> {
        std::iter::once(self)
            .chain(self.other.as_deref())
            .find(|s| s.endpoint.search_subject() == Some(subject))
            .map(|s| (s.endpoint, &s.body))
    }
}

impl FilterSet {
    /// Every search the set holds: its own, then its other tab's.
    pub fn searches(&self) -> Vec<(Endpoint, &Value)> {
        std::iter::once(self)
            .chain(self.other.as_deref())
            .map(|s| (s.endpoint, &s.body))
            .collect()
    }
}

/// The file and name of a set given as `what`: a path (`./sets/de.json`, `/dev/stdin`; the
/// name is its stem), else the name of a set saved in `dir` (`filters/NAME.json`). Errors: not a
/// path and not a usable name ([`FilterSetError::BadName`]); a name with no file in `dir`
/// ([`FilterSetError::Io`], not found).
pub fn resolve(dir: &Path, what: &str) -> Result<(String, PathBuf), FilterSetError> {
    let as_path = Path::new(what);
    // A path (it exists, or it names a folder or a `.json` file): read as given, its errors
    // naming it; else the name of a saved set.
    if as_path.exists() || what.contains(std::path::MAIN_SEPARATOR) || what.ends_with(".json") {
        let name = as_path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or(what)
            .to_string();
        return Ok((name, as_path.to_path_buf()));
    }
    let path = path_of(dir, what)?;
    if !path.is_file() {
        return Err(FilterSetError::Io {
            file: path.display().to_string(),
            err: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("no saved filter set {what:?} (and no such file)"),
            ),
        });
    }
    Ok((what.to_string(), path))
}

/// `true` when `name` can be a file name: 1-64 of letters, digits, space, `-`, `_`, `.`, not
/// starting with `.`.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().count() <= 64
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.'))
}

/// The path of filter set `name` in `dir`.
pub fn path_of(dir: &Path, name: &str) -> Result<PathBuf, FilterSetError> {
    if !valid_name(name) {
        return Err(FilterSetError::BadName(name.to_string()));
    }
    Ok(dir.join(format!("{name}.json")))
}

/// Names of the saved sets in `dir` (file stems of `*.json`), sorted; a missing directory is empty.
pub fn list(dir: &Path) -> Result<Vec<String>, FilterSetError> {
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
        Err(err) => {
            return Err(FilterSetError::Io {
                file: dir.display().to_string(),
                err,
            });
        }
    };
    let mut names: Vec<String> = rd
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let p = e.path();
            (p.extension().is_some_and(|x| x == "json") && p.is_file())
                .then(|| p.file_stem()?.to_str().map(str::to_string))
                .flatten()
        })
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort_by_key(|n| n.to_lowercase());
    Ok(names)
}

/// Parses filter-set text; `file` only names it in errors.
pub fn parse(file: &str, text: &str) -> Result<FilterSet, FilterSetError> {
    let v: Value = serde_json::from_str(text).map_err(|e| FilterSetError::Syntax {
        file: file.to_string(),
        line: e.line(),
        column: e.column(),
        msg: e
            .to_string()
            .split(" at line")
            .next()
            .unwrap_or("")
            .to_string(),
    })?;
    let Value::Object(mut obj) = v else {
        return Err(FilterSetError::Shape {
            file: file.to_string(),
            msg: "expected a JSON object with companiesFilters / peopleFilters".into(),
        });
    };
    let endpoint = match obj.remove("endpoint") {
        None => Endpoint::SearchCompaniesV3,
        Some(Value::String(p)) => Endpoint::from_path(&p)
            .filter(|e| SEARCHES.contains(e))
            .ok_or_else(|| FilterSetError::Shape {
                file: file.to_string(),
                msg: format!("endpoint {p:?} is not one of the search endpoints"),
            })?,
        Some(other) => {
            return Err(FilterSetError::Shape {
                file: file.to_string(),
                msg: format!("endpoint should be a string, not {other}"),
            });
        }
    };
    let other = match obj.remove("otherTab") {
        None | Some(Value::Null) => None,
        Some(v @ Value::Object(_)) => {
            let shape = |msg: String| FilterSetError::Shape {
                file: file.to_string(),
                msg,
            };
            if v.get("otherTab").is_some() {
                return Err(shape("otherTab cannot hold another otherTab".into()));
            }
            if v.get("endpoint").is_none() {
                return Err(shape("otherTab needs its endpoint".into()));
            }
            let other = parse(file, &v.to_string())?;
            if other.endpoint.search_subject() == endpoint.search_subject() {
                return Err(shape(format!(
                    "otherTab is for {}, the same results tab as {}",
                    other.endpoint.path(),
                    endpoint.path()
                )));
            }
            Some(Box::new(other))
        }
        Some(other) => {
            return Err(FilterSetError::Shape {
                file: file.to_string(),
                msg: format!("otherTab should be an object, not {other}"),
            });
        }
    };
    for k in ["companiesFilters", "peopleFilters"] {
        if obj.get(k).is_some_and(|v| !v.is_object() && !v.is_null()) {
            return Err(FilterSetError::Shape {
                file: file.to_string(),
                msg: format!("{k} should be an object"),
            });
        }
    }
    Ok(FilterSet {
        endpoint,
        body: Value::Object(obj),
        other,
    })
}

/// Reads and parses a filter-set file.
pub fn load(path: &Path) -> Result<FilterSet, FilterSetError> {
    let file = path.display().to_string();
    // Bounded (issue 34): `--filters /dev/zero` is refused at once, not read without end.
    let text =
        prospect_common::fsutil::read_json_input(path).map_err(|err| FilterSetError::Io {
            file: file.clone(),
            err,
        })?;
    parse(&file, &text)
}

/// The file content of a set: `endpoint`, the body members and `otherTab` (when it holds the
/// other tab's search), pretty-printed (keys sorted).
pub fn render(set: &FilterSet) -> String {
    fn object(set: &FilterSet) -> Value {
        let mut obj = Map::new();
        obj.insert(
            "endpoint".into(),
            Value::String(set.endpoint.path().to_string()),
        );
        if let Value::Object(b) = &set.body {
            for (k, v) in b {
                if k != "endpoint" && k != "otherTab" {
                    obj.insert(k.clone(), v.clone());
                }
            }
        }
        if let Some(other) = &set.other {
            obj.insert("otherTab".into(), object(other));
        }
        Value::Object(obj)
    }
    let mut s = serde_json::to_string_pretty(&object(set)).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}

/// Saves `set` as `dir/NAME.json` atomically (creating `dir`); returns the path.
pub fn save(dir: &Path, name: &str, set: &FilterSet) -> Result<PathBuf, FilterSetError> {
    let path = path_of(dir, name)?;
    save_to(&path, set)?;
    Ok(path)
}

/// Saves `set` to the file `path` atomically (e.g. the file given with `--filters`).
/// Errors: `Io` naming the file.
pub fn save_to(path: &Path, set: &FilterSet) -> Result<(), FilterSetError> {
    write_atomic(path, &render(set)).map_err(|err| FilterSetError::Io {
        file: path.display().to_string(),
        err,
    })
}

/// Deletes `dir/NAME.json`.
pub fn delete(dir: &Path, name: &str) -> Result<(), FilterSetError> {
    let path = path_of(dir, name)?;
    std::fs::remove_file(&path).map_err(|err| FilterSetError::Io {
        file: path.display().to_string(),
        err,
    })
}

fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    use prospect_common::fsutil;
    fsutil::write_atomic(path, text.as_bytes(), fsutil::Access::Shared)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn save_list_load_delete_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let fdir = dir.path().join("filters");
        let set = FilterSet::one(
            Endpoint::SearchPeopleV3,
            json!({"size": 20, "peopleFilters": {"seniorities": ["VP"]}}),
        );
        let p = save(&fdir, "vp people", &set).unwrap();
        assert!(p.ends_with("vp people.json"));
        save(&fdir, "another", &set).unwrap();
        assert_eq!(list(&fdir).unwrap(), vec!["another", "vp people"]);
        assert_eq!(load(&p).unwrap(), set);
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(
            text.contains("\"endpoint\": \"/v3/search/people\""),
            "{text}"
        );
        delete(&fdir, "another").unwrap();
        assert_eq!(list(&fdir).unwrap(), vec!["vp people"]);
        // No temp files left behind.
        assert_eq!(std::fs::read_dir(&fdir).unwrap().count(), 1);
    }

    #[test]
    fn broken_file_says_line_and_column_and_overwrites_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("bad.json");
        std::fs::write(
            &p,
            "{\n  \"size\": 10,\n  \"peopleFilters\": {\"x\": }\n}\n",
        )
        .unwrap();
        let err = load(&p).unwrap_err();
        match &err {
            FilterSetError::Syntax { line, column, .. } => assert_eq!((*line, *column), (3, 26)),
            other => panic!("{other:?}"),
        }
        assert!(err.to_string().contains("line 3, column 26"), "{err}");
        assert!(std::fs::read_to_string(&p).unwrap().contains("\"x\": }"));
    }

    #[test]
    fn shape_errors_and_names() {
        assert!(matches!(
            parse("f", "[1]"),
            Err(FilterSetError::Shape { .. })
        ));
        assert!(matches!(
            parse("f", r#"{"endpoint": "/v2/enrich/person"}"#),
            Err(FilterSetError::Shape { .. })
        ));
        assert!(matches!(
            parse("f", r#"{"peopleFilters": 3}"#),
            Err(FilterSetError::Shape { .. })
        ));
        assert_eq!(
            parse("f", "{}").unwrap().endpoint,
            Endpoint::SearchCompaniesV3
        );
        assert!(!valid_name("../etc"));
        assert!(!valid_name(".hidden"));
        assert!(!valid_name(""));
        assert!(valid_name("EU SaaS 2024"));
        assert!(matches!(
            save(Path::new("/tmp"), "a/b", &parse("f", "{}").unwrap()),
            Err(FilterSetError::BadName(_))
        ));
    }

    /// Issue 38: a set of both tabs keeps both through a save and a load; each subject finds
    /// its own; a one-tab set (as saved before) still opens; a bad `otherTab` names what is
    /// wrong.
    #[test]
    fn a_set_of_both_tabs_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let mut set = FilterSet::one(
            Endpoint::SearchPeopleV3,
            json!({"size": 25, "peopleFilters": {"jobTitles": ["Head of Sales"]}}),
        );
        set.other = Some(Box::new(FilterSet::one(
            Endpoint::SearchCompaniesV3,
            json!({"size": 25, "companiesFilters": {"countries": ["de"]}}),
        )));
        let p = save(dir.path(), "both", &set).unwrap();
        let back = load(&p).unwrap();
        assert_eq!(back, set);
        let (ep, body) = back.for_subject(SearchSubject::Companies).unwrap();
        assert_eq!(ep, Endpoint::SearchCompaniesV3);
        assert_eq!(body["companiesFilters"]["countries"], json!(["de"]));
        let one = parse(
            "old.json",
            r#"{"endpoint": "/v3/search/companies", "size": 5}"#,
        )
        .unwrap();
        assert!(one.other.is_none());
        assert!(one.for_subject(SearchSubject::People).is_none());
        let same = parse(
            "bad.json",
            r#"{"endpoint": "/v3/search/companies", "otherTab": {"endpoint": "/v2/search/companies"}}"#,
        );
        assert!(
            same.unwrap_err()
                .to_string()
                .contains("the same results tab")
        );
        let no_endpoint = parse("bad.json", r#"{"otherTab": {"size": 5}}"#);
        assert!(
            no_endpoint
                .unwrap_err()
                .to_string()
                .contains("needs its endpoint")
        );
    }
}
