//! Compiling people filters (`PeopleFiltersV2`/`V3`) into a [`PeopleQuery`]: titles, names,
//! ids, handles, emails, texts and the fields a person has.

use super::*;

/// The titles matching a keyword: case-insensitive substring, or, when `threshold < 1`, a title
/// word within normalized Levenshtein similarity `threshold` of a one-word keyword of ≥ 4 letters
/// (`"enginer"` finds `"Engineer"` at the default 0.8). One-word keywords are matched against
/// the distinct title words, not every title.
fn title_set(db: &Db, needle: &str, threshold: f64) -> TitleSet {
    let n = fold(needle);
    let t = threshold.clamp(0.0, 1.0);
    if n.is_empty() {
        return TitleSet(vec![0; db.people.titles.len().div_ceil(64)]);
    }
    if n.contains(|c: char| !c.is_alphanumeric()) {
        return TitleSet::from_fn(db, |title| title.contains(n.as_str()));
    }
    let fuzzy = n.chars().count() >= 4 && t < 1.0;
    let max_diff = ((1.0 - t) * n.len() as f64 * 1.5).ceil() as usize + 1;
    let mut bits = vec![0u64; db.people.titles.len().div_ceil(64)];
    for (w, titles) in &db.people.title_words {
        let hit = w.contains(n.as_str())
            || (fuzzy
                && w.len().abs_diff(n.len()) <= max_diff
                && strsim::normalized_levenshtein(w, &n) >= t);
        if hit {
            for &ti in titles {
                bits[ti as usize / 64] |= 1 << (ti % 64);
            }
        }
    }
    TitleSet(bits)
}

/// The titles matching any of `needles` (the first [`caps::TERMS`], see [`title_set`]).
fn title_set_any(db: &Db, needles: &[String], threshold: f64) -> TitleSet {
    let len = db.people.titles.len().div_ceil(64);
    let mut bits = vec![0u64; len];
    for n in caps::terms(needles) {
        for (b, w) in bits.iter_mut().zip(&title_set(db, n, threshold).0) {
            *b |= w;
        }
    }
    TitleSet(bits)
}

/// The name condition of `values` (the first [`caps::TERMS`]): each value's first and last
/// word against the folded first and last names of the pools.
fn names(db: &Db, values: &[String]) -> NamePred {
    let (first_folded, last_folded) = (&db.people.first_folded, &db.people.last_folded);
    let find = |pool: &[String], w: &str| -> Vec<u32> {
        pool.iter()
            .enumerate()
            .filter(|(_, n)| n.as_str() == w)
            .map(|(i, _)| i as u32)
            .collect()
    };
    let mut queries = Vec::new();
    for v in caps::terms(values) {
        let f = fold(v);
        let words: Vec<&str> = f.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            [one] => {
                let fi = find(first_folded, one);
                if !fi.is_empty() {
                    queries.push((fi, Vec::new()));
                }
                let la = find(last_folded, one);
                if !la.is_empty() {
                    queries.push((Vec::new(), la));
                }
            }
            [first, .., last] => {
                let fi = find(first_folded, first);
                let la = find(last_folded, last);
                if !fi.is_empty() && !la.is_empty() {
                    queries.push((fi, la));
                }
            }
        }
    }
    NamePred { queries }
}

fn person_ids(db: &Db, ids: &[String]) -> Vec<u32> {
    let mut v: Vec<u32> = ids
        .iter()
        .filter_map(|id| db.resolve_person_id(id))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn handle_ids(db: &Db, handles: &[String]) -> Vec<u32> {
    let mut v: Vec<u32> = handles
        .iter()
        .filter_map(|h| db.resolve_handle(h))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// People whose email address is one of `emails` (case-insensitive; the first
/// [`caps::TERMS`]).
pub fn email_ids(db: &Db, emails: &[String]) -> Vec<u32> {
    let mut out = Vec::new();
    for e in caps::terms(emails) {
        let e = e.trim().to_lowercase();
        let Some((_, dom)) = e.split_once('@') else {
            continue;
        };
        let label = dom.split('.').next().unwrap_or("");
        for c in db.companies_labelled(label) {
            let (s, end) = db.cols[c as usize].people;
            for pi in s..end {
                let p = &db.person_rows[pi as usize];
                if db.people.email(&db.companies[c as usize], p) == e {
                    out.push(pi);
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn intersect_include(q: &mut PeopleQuery, set: Vec<u32>) {
    q.include = Some(match q.include.take() {
        None => set,
        Some(prev) => prev
            .into_iter()
            .filter(|x| set.binary_search(x).is_ok())
            .collect(),
    });
}

fn exclude_more(q: &mut PeopleQuery, set: Vec<u32>) {
    q.exclude.extend(set);
    q.exclude.sort_unstable();
    q.exclude.dedup();
}

fn ym(s: &str, q_never: &mut bool) -> Option<u32> {
    match parse_date(s, false) {
        Some(d) => Some(d / 100),
        None => {
            *q_never = true;
            None
        }
    }
}

fn person_fields_mask<E: WireEnum>(values: &[E], not: bool, never: &mut bool) -> u32 {
    let mut m = 0;
    for v in values {
        match person_field_bit(v.as_str()) {
            Some(b) => m |= b,
            // Fields outside the list (skills, experiences, email...) are always present.
            None if not => *never = true,
            None => {}
        }
    }
    m
}

fn text_pred(
    any: &Option<Vec<String>>,
    all: &Option<Vec<String>>,
    none: &Option<Vec<String>>,
) -> TextPred {
    let low = |v: &Option<Vec<String>>| -> Vec<String> {
        caps::terms(v.as_deref().unwrap_or(&[]))
            .map(|s| s.trim().to_lowercase())
            .filter(|s| !s.is_empty())
            .collect()
    };
    TextPred {
        any: low(any),
        all: low(all),
        none: low(none),
    }
}

/// Members common to the v2 and v3 people blocks.
macro_rules! common_people_members {
    ($db:expr, $q:expr, $f:expr) => {{
        let (db, q, f) = ($db, $q, $f);
        if let Some(s) = &f.seniorities {
            q.seniorities = Some(mask(Seniority::ALL, s) as u32);
        }
        if let Some(d) = &f.departments {
            q.departments = Some(dept_mask(d));
        }
        if let Some(c) = &f.countries {
            q.countries = Some(country_ids(db, c));
        }
        if let Some(c) = &f.exclude_countries {
            q.exclude_countries = country_ids(db, c);
        }
        if let Some(s) = &f.states {
            q.regions = Some(region_ids(db, s));
        }
        if let Some(s) = &f.exclude_states {
            q.exclude_regions = region_ids(db, s);
        }
        if let Some(n) = &f.names {
            let np = names(db, n);
            if np.queries.is_empty() {
                q.never = true;
            }
            q.names = Some(np);
        }
        let mut never = false;
        if let Some(x) = &f.fields_exist {
            q.fields_exist = person_fields_mask(x, false, &mut never);
        }
        if let Some(x) = &f.fields_not_exist {
            q.fields_not_exist = person_fields_mask(x, true, &mut never);
        }
        if let Some(s) = &f.changed_position_after {
            q.changed_after = ym(s, &mut never);
        }
        if let Some(s) = &f.changed_position_before {
            q.changed_before = ym(s, &mut never);
        }
        q.never |= never;
    }};
}

fn dept_mask(d: &[prospect_api::types::common::Department]) -> u32 {
    d.iter()
        .fold(0u32, |m, x| m | 1 << department_index(x.as_str()))
}

/// Compiles a v2 people filter block (`peopleFilters`, SPEC.md §2.5).
pub fn people_v2(db: &Db, f: &PeopleFiltersV2) -> PeopleQuery {
    let mut q = PeopleQuery::default();
    common_people_members!(db, &mut q, f);
    if let Some(i) = &f.include_ids {
        intersect_include(&mut q, person_ids(db, i));
    }
    if let Some(i) = &f.exclude_ids {
        exclude_more(&mut q, person_ids(db, i));
    }
    if let Some(t) = f.job_titles.as_deref().filter(|t| !t.is_empty()) {
        q.titles_all.push(title_set_any(db, t, 1.0));
    }
    if let Some(t) = f.exclude_job_titles.as_deref().filter(|t| !t.is_empty()) {
        q.titles_none.push(title_set_any(db, t, 1.0));
    }
    if let Some(e) = &f.emails {
        intersect_include(&mut q, email_ids(db, e));
    }
    if let Some(k) = &f.keywords {
        q.keywords = caps::terms(k)
            .map(|s| s.trim().to_lowercase())
            .filter(|s| !s.is_empty())
            .map(|k| KeywordPred {
                titles: TitleSet::from_fn(db, |t| t.contains(k.as_str())),
                skills: IdSet::from_fn(&db.people.skills_lower, |s| s.contains(k.as_str())),
                company_keyword: db.vocab.keywords.get(&k),
            })
            .collect();
    }
    q
}

/// Compiles a v3 people filter block (openapi `PeopleFiltersV3`); `job_title_threshold` is the
/// request's `jobTitleThreshold` (default 0.8) used by `jobTitleKeywords`.
pub fn people_v3(db: &Db, f: &PeopleFiltersV3, job_title_threshold: f64) -> PeopleQuery {
    let mut q = PeopleQuery::default();
    common_people_members!(db, &mut q, f);
    if f.include_people_ids.is_some() || f.include_linkedin_handles.is_some() {
        let mut set = person_ids(db, f.include_people_ids.as_deref().unwrap_or(&[]));
        set.extend(handle_ids(
            db,
            f.include_linkedin_handles.as_deref().unwrap_or(&[]),
        ));
        set.sort_unstable();
        set.dedup();
        intersect_include(&mut q, set);
    }
    if let Some(i) = &f.exclude_people_ids {
        exclude_more(&mut q, person_ids(db, i));
    }
    if let Some(i) = &f.exclude_linkedin_handles {
        exclude_more(&mut q, handle_ids(db, i));
    }
    if let Some(d) = &f.exclude_departments {
        q.exclude_departments = dept_mask(d);
    }
    if let Some(r) = &f.regions {
        // Deprecated: bare region abbreviations (`CA`), any country.
        let wanted: Vec<String> = caps::places(r)
            .iter()
            .map(|s| caps::cut(s, caps::TERM_CHARS).trim().to_lowercase())
            .collect();
        let ids: Vec<u32> = db
            .vocab
            .regions
            .names()
            .iter()
            .enumerate()
            .filter(|(_, code)| {
                let lc = code.to_lowercase();
                let abbr = lc.split('-').nth(1).unwrap_or(&lc).to_string();
                wanted.contains(&abbr) || wanted.contains(&lc)
            })
            .map(|(i, _)| i as u32)
            .collect();
        q.regions = Some(match q.regions.take() {
            Some(prev) => prev.into_iter().filter(|x| ids.contains(x)).collect(),
            None => ids,
        });
    }
    if let Some(c) = &f.cities {
        q.cities = Some(people_cities(db, c));
    }
    if let Some(c) = &f.exclude_cities {
        q.exclude_cities = people_cities(db, c);
    }
    if let Some(j) = &f.job_title_keywords {
        if let Some(a) = j.any_of.as_deref().filter(|a| !a.is_empty()) {
            q.titles_all.push(title_set_any(db, a, job_title_threshold));
        }
        for k in caps::terms(j.all_of.as_deref().unwrap_or(&[])) {
            q.titles_all.push(title_set(db, k, job_title_threshold));
        }
        if let Some(n) = j.none_of.as_deref().filter(|a| !a.is_empty()) {
            q.titles_none.push(title_set_any(db, n, 1.0));
        }
    }
    if let Some(s) = &f.skills {
        let t = text_pred(&s.any_of, &s.all_of, &s.none_of);
        let lower = &db.people.skills_lower;
        let union = |needles: &[String]| -> Option<IdSet> {
            (!needles.is_empty())
                .then(|| IdSet::from_fn(lower, |s| needles.iter().any(|n| s.contains(n.as_str()))))
        };
        q.skills = SkillPred {
            any: union(&t.any),
            all: t
                .all
                .iter()
                .map(|n| IdSet::from_fn(lower, |s| s.contains(n.as_str())))
                .collect(),
            none: union(&t.none),
        };
    }
    if let Some(t) = &f.current_job_description {
        q.texts.push((
            TextField::CurrentJob,
            text_pred(&t.any_of, &t.all_of, &t.none_of),
        ));
    }
    if let Some(t) = &f.all_job_descriptions {
        q.texts.push((
            TextField::AllJobs,
            text_pred(&t.any_of, &t.all_of, &t.none_of),
        ));
    }
    if let Some(t) = &f.profile_description {
        q.texts.push((
            TextField::Profile,
            text_pred(&t.any_of, &t.all_of, &t.none_of),
        ));
    }
    q.texts.retain(|(_, t)| !t.is_empty());
    q.connections = f.connections.clone();
    q.followers = f.followers.clone();
    q.updated_within = f.updated_within_months;
    q
}
