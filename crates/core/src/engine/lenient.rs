//! The lenient read of a paid answer (issue 34): what decodes is kept, each record or member
//! that does not is left out and named, and an answer cut part way is read up to the cut.

use serde_json::Value;

use prospect_api::client::ApiRequest;
use prospect_api::error::ApiError;

/// One step of a path of serde_path_to_error (`companies[3].company.yearFounded`).
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

fn parse_path(path: &str) -> Option<Vec<Step>> {
    let mut out = Vec::new();
    let mut key = String::new();
    let mut chars = path.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '.' => {
                if !key.is_empty() {
                    out.push(Step::Key(std::mem::take(&mut key)));
                }
            }
            '[' => {
                if !key.is_empty() {
                    out.push(Step::Key(std::mem::take(&mut key)));
                }
                let mut num = String::new();
                for d in chars.by_ref() {
                    if d == ']' {
                        break;
                    }
                    num.push(d);
                }
                out.push(Step::Index(num.parse().ok()?));
            }
            '?' => return if out.is_empty() { None } else { Some(out) },
            c => key.push(c),
        }
    }
    if !key.is_empty() {
        out.push(Step::Key(key));
    }
    Some(out)
}

/// Removes from `v` the record (the first array element on `path`) or, without one, the
/// member at `path`; `false` when nothing could be removed.
fn remove_at(v: &mut Value, path: &[Step]) -> bool {
    if let Some(i) = path.iter().position(|s| matches!(s, Step::Index(_))) {
        let Some(parent) = walk(v, &path[..i]) else {
            return false;
        };
        let Step::Index(n) = path[i] else {
            return false;
        };
        return match parent {
            Value::Array(a) if n < a.len() => {
                a.remove(n);
                true
            }
            _ => false,
        };
    }
    let Some((Step::Key(last), head)) = path.split_last() else {
        return false;
    };
    match walk(v, head) {
        Some(Value::Object(m)) => m.remove(last).is_some(),
        _ => false,
    }
}

fn walk<'a>(v: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    let mut cur = v;
    for s in path {
        cur = match (s, cur) {
            (Step::Key(k), Value::Object(m)) => m.get_mut(k)?,
            (Step::Index(i), Value::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// How a 2xx answer of a paid call is read: [`read_lenient`] of its request type, as a plain
/// function so it can go to a blocking thread.
pub(crate) type ReadAnswer<T> = fn(u16, &[u8]) -> Result<(T, Option<String>), ApiError>;

/// Most repairs [`read_lenient`] tries before giving up (one per failing record or member).
const MAX_REPAIRS: usize = 10_000;

/// Reads a 2xx answer of `R` ([`ApiRequest::read_answer`]); when it does not decode whole,
/// leaves out each record (an element of a list on the failing path) or member that fails,
/// and reads the rest: `Ok((answer, Some(why)))` names the first failing field and how many
/// parts were left out. An answer that is not JSON whole (cut off, or garbled part way) is
/// read up to where it stops ([`super::salvage::salvage`]): every complete record before that
/// point is read, and `why` names the byte and the member where it stopped (issue 34).
/// `Err` ([`ApiError::Decode`], the first failure) when nothing reads.
pub fn read_lenient<R: ApiRequest>(
    status: u16,
    raw: &[u8],
) -> Result<(R::Response, Option<String>), ApiError> {
    let first = match R::read_answer(status, raw) {
        Ok(v) => return Ok((v, None)),
        Err(e @ ApiError::Decode { .. }) => e,
        Err(e) => return Err(e),
    };
    let (mut v, cut) = match serde_json::from_slice::<Value>(raw) {
        Ok(v) => (v, None),
        Err(_) => match super::salvage::salvage(raw) {
            Some(s) => {
                let why = format!(
                    "the answer stopped reading at byte {} of {} (at {}); the {} complete \
                     record(s) before it are kept, the raw answer is kept",
                    s.stopped_at,
                    raw.len(),
                    s.at_path,
                    s.kept_items
                );
                (s.value, Some(why))
            }
            None => return Err(first),
        },
    };
    let mut err = match cut {
        Some(why) => {
            let bytes = serde_json::to_vec(&v).unwrap_or_default();
            match R::read_answer(status, &bytes) {
                Ok(answer) => return Ok((answer, Some(why))),
                Err(e @ ApiError::Decode { .. }) => (e, why),
                Err(_) => return Err(first),
            }
        }
        None => (first.clone(), String::new()),
    };
    for dropped in 1..=MAX_REPAIRS {
        let ApiError::Decode { path, .. } = &err.0 else {
            return Err(first);
        };
        let Some(steps) = parse_path(path) else {
            return Err(first);
        };
        if steps.is_empty() || !remove_at(&mut v, &steps) {
            return Err(first);
        }
        let bytes = serde_json::to_vec(&v).unwrap_or_default();
        match R::read_answer(status, &bytes) {
            Ok(answer) => {
                let mut why = match &first {
                    ApiError::Decode { path, message } if err.1.is_empty() => format!(
                        "the answer did not read whole: at {path}: {message}; {dropped} part(s) left out, the raw answer is kept"
                    ),
                    _ if !err.1.is_empty() => err.1.clone(),
                    other => other.to_string(),
                };
                if !err.1.is_empty() {
                    why.push_str(&format!("; {dropped} more part(s) left out"));
                }
                return Ok((answer, Some(why)));
            }
            Err(e @ ApiError::Decode { .. }) => err.0 = e,
            Err(_) => return Err(first),
        }
    }
    Err(first)
}

/// The answer `raw` (received with `status`) read with `read`, every string sanitized. Data
/// from the API is untrusted, and what a front end writes of a bought answer is then what an
/// owned re-run writes from the store (issue 39: 13 of 10,000 rows differed by their C1
/// characters).
///
/// Nearly always `raw` holds nothing [`prospect_common::sanitize::sanitize`] would change
/// (checked on the bytes, [`prospect_store::raw_json_bytes_are_clean`]) and is read as it is.
/// Otherwise its text with only the strings that need it sanitized
/// ([`prospect_store::sanitized_json_text`]) is read, once; when that text does not read, `raw`
/// is, and the answer's strings are sanitized through a `Value` of it.
///
/// Errors as `read` on `raw`.
pub(crate) fn read_clean<T: serde::Serialize>(
    read: ReadAnswer<T>,
    status: u16,
    raw: &[u8],
) -> Result<(T, Option<String>), ApiError> {
    if prospect_store::raw_json_bytes_are_clean(raw) {
        return read(status, raw);
    }
    if let Some(Ok(clean)) = prospect_store::sanitized_json_text(raw).map(|t| read(status, &t)) {
        return Ok(clean);
    }
    let (answer, partial) = read(status, raw)?;
    let Ok(mut v) = serde_json::to_value(&answer) else {
        return Ok((answer, partial));
    };
    prospect_common::sanitize::sanitize_value(&mut v);
    let bytes = serde_json::to_vec(&v).unwrap_or_default();
    let clean = read(status, &bytes).ok().map(|(clean, _)| clean);
    Ok((clean.unwrap_or(answer), partial))
}

#[cfg(test)]
mod tests {
    use super::*;
    use prospect_api::types::LookupCompaniesRequest;

    #[test]
    fn paths_parse() {
        assert_eq!(
            parse_path("companies[3].company.yearFounded"),
            Some(vec![
                Step::Key("companies".into()),
                Step::Index(3),
                Step::Key("company".into()),
                Step::Key("yearFounded".into())
            ])
        );
        assert_eq!(parse_path("."), Some(vec![]));
    }

    #[test]
    fn a_record_that_does_not_read_is_left_out_and_the_rest_kept() {
        let body = serde_json::json!({
            "companies": [
                {"domain": "a.com", "company": {"domain": "a.com", "name": "A"}},
                {"domain": "b.com", "company": {"domain": "b.com", "name": {"bad": 1}}},
                {"domain": "c.com", "company": {"domain": "c.com", "name": "C"}}
            ],
            "totalRequested": 3, "totalFound": 3, "creditsUsed": 0.15
        });
        let raw = serde_json::to_vec(&body).unwrap();
        let (answer, why) = read_lenient::<LookupCompaniesRequest>(200, &raw).unwrap();
        assert_eq!(answer.companies.len(), 2);
        let why = why.unwrap();
        assert!(why.contains("companies[1]"), "{why}");
        assert!(why.contains("1 part(s) left out"), "{why}");
    }

    #[test]
    fn a_cut_answer_reads_up_to_the_cut() {
        let companies: Vec<Value> = (0..20)
            .map(|i| serde_json::json!({"domain": format!("d{i}.com"), "company": {"domain": format!("d{i}.com"), "name": "X"}}))
            .collect();
        let raw =
            serde_json::to_vec(&serde_json::json!({"companies": companies, "totalFound": 20}))
                .unwrap();
        let (answer, why) =
            read_lenient::<LookupCompaniesRequest>(200, &raw[..raw.len() / 2]).unwrap();
        assert!(
            (8..=10).contains(&answer.companies.len()),
            "{}",
            answer.companies.len()
        );
        let why = why.unwrap();
        assert!(why.contains("stopped reading at byte"), "{why}");
        let (answer, why) =
            read_lenient::<LookupCompaniesRequest>(200, br#"{"companies": {}, "totalFound": 3}"#)
                .unwrap();
        assert!(answer.companies.is_empty());
        assert!(why.unwrap().contains("companies"));
    }

    #[test]
    fn an_answer_that_is_not_json_is_an_error() {
        assert!(read_lenient::<LookupCompaniesRequest>(200, b"<html>").is_err());
    }

    /// Issue 39: a bought answer with C1 characters and escape sequences in its strings is
    /// read sanitized (from its text with those strings sanitized, read once); a clean one is
    /// read as it is.
    #[test]
    fn a_dirty_answer_is_read_sanitized_and_a_clean_one_as_it_is() {
        let dirty = "{\"companies\":[{\"domain\":\"a.com\",\"company\":{\"domain\":\"a.com\",\
                     \"name\":\"A \\u0093B\\u0094 \\u001b[31mC\u{9f}\"}}],\"totalRequested\":1}";
        let (answer, partial) = read_clean(
            read_lenient::<LookupCompaniesRequest>,
            200,
            dirty.as_bytes(),
        )
        .unwrap();
        assert_eq!(partial, None);
        let name = match &answer.companies[0] {
            prospect_api::types::LookupCompanyEntry::ByDomain { company, .. } => {
                company.as_ref().unwrap().name.clone().unwrap()
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(name, prospect_common::sanitize::sanitize(&name), "{name:?}");
        assert!(name.starts_with("A B"), "{name:?}");
        let clean =
            br#"{"companies":[{"domain":"a.com","company":{"domain":"a.com","name":"A"}}]}"#;
        let (answer, _) = read_clean(read_lenient::<LookupCompaniesRequest>, 200, clean).unwrap();
        assert_eq!(answer.companies.len(), 1);
        assert!(read_clean(read_lenient::<LookupCompaniesRequest>, 200, b"not json").is_err());
    }
}
