//! Saved filter sets: `<config dir>/filters/NAME.json`, each the members of a search request
//! body (`companiesFilters`, `peopleFilters`, `size`, ...) plus `endpoint` (the search path it
//! was made for, e.g. `/v3/search/companies`). To send one with curl, drop `endpoint`:
//! `jq 'del(.endpoint)' NAME.json | curl -d @- ...`.
//!
//! Writes are atomic (temp file in the same directory + rename). A file that does not parse
//! opens nothing and overwrites nothing; the error says which line and column is wrong.
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::request::SEARCHES;
use prospect_api::client::Endpoint;

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
    /// The request body members (without `endpoint`).
    pub body: Value,
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

/// The file content of a set: `endpoint` and the body members, pretty-printed (keys sorted).
pub fn render(set: &FilterSet) -> String {
    let mut obj = Map::new();
    obj.insert(
        "endpoint".into(),
        Value::String(set.endpoint.path().to_string()),
    );
    if let Value::Object(b) = &set.body {
        for (k, v) in b {
            if k != "endpoint" {
                obj.insert(k.clone(), v.clone());
            }
        }
    }
    let mut s = serde_json::to_string_pretty(&Value::Object(obj)).unwrap_or_else(|_| "{}".into());
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
        let set = FilterSet {
            endpoint: Endpoint::SearchPeopleV3,
            body: json!({"size": 20, "peopleFilters": {"seniorities": ["VP"]}}),
        };
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
}
