//! Caps on the work of one request where openapi.json sets no limit.
//!
//! The limits the documents do set are refused with a 422 by the request types' `Validate`
//! (SPEC.md §8, openapi `maxItems`/`maxLength`): at most 10 `lookalikeDomains`, 1000 lookup
//! domains or people, 500 reveal ids, 500 warmup domains, a job-title autocomplete `query` of at
//! most 100 characters. Everything else a body may hold is cut here, silently, before matching
//! (a 2 MB body can otherwise hold a 1 MB name or 100,000 job titles, and the matching work
//! grows with both):
//!
//! | what | cap |
//! |---|---|
//! | autocomplete `name` / `query` | its first [`QUERY_CHARS`] (100) characters |
//! | any one text matched against titles, names, skills, descriptions, keywords, e-mails, cities, company names | its first [`TERM_CHARS`] (100) characters |
//! | text-matched lists: `jobTitles`, `excludeJobTitles`, `jobTitleKeywords.anyOf/allOf/noneOf`, `names`, `emails`, people `keywords`, `skills` and the description filters' `anyOf/allOf/noneOf` | their first [`TERMS`] (50) values |
//! | place lists: `cities`, `states`, `regions` and their include/exclude forms | their first [`PLACES`] (100) values |
//! | `includeDomains`, `excludeDomains` | their first [`DOMAINS`] (10,000) values |
//! | the generated texts read by `currentJobDescription`, `allJobDescriptions`, `profileDescription` | [`TEXT_READS`] (40,000) per request, a person's experiences counting one each; people searches read the people of the best-ranked companies first; people past the cap do not match a text filter |
//!
//! Other lists matched by exact look-up (ids, handles, countries, industries, keywords and
//! technologies of companies) are not cut: each value costs one hash look-up, and the body
//! limit (2 MB) bounds their number.

/// Characters of an autocomplete `name` / `query` that are matched.
pub const QUERY_CHARS: usize = 100;
/// Characters of any one matched text value.
pub const TERM_CHARS: usize = 100;
/// Values of a text-matched list that are matched.
pub const TERMS: usize = 50;
/// Values of a place list that are matched.
pub const PLACES: usize = 100;
/// Domains of `includeDomains` / `excludeDomains` that are matched.
pub const DOMAINS: usize = 10_000;
/// Generated texts (a current job description, a summary, one experience) a request's text
/// filters read at most (each is built and searched: about 0.3 µs).
pub const TEXT_READS: usize = 40_000;

/// The first `max` characters of `s` (all of it when shorter).
pub fn cut(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// The values of a text-matched list that are matched: the first [`TERMS`], each cut to
/// [`TERM_CHARS`] characters.
pub fn terms(values: &[String]) -> impl Iterator<Item = &str> {
    values.iter().take(TERMS).map(|v| cut(v, TERM_CHARS))
}

/// The values of a place list that are matched: the first [`PLACES`].
pub fn places<T>(values: &[T]) -> &[T] {
    &values[..values.len().min(PLACES)]
}

/// The domains of `includeDomains` / `excludeDomains` that are matched: the first [`DOMAINS`].
pub fn domains(values: &[String]) -> &[String] {
    &values[..values.len().min(DOMAINS)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_on_characters() {
        assert_eq!(cut("héllo", 2), "hé");
        assert_eq!(cut("ab", 5), "ab");
        let many: Vec<String> = (0..80).map(|i| format!("{i}{}", "x".repeat(200))).collect();
        let t: Vec<&str> = terms(&many).collect();
        assert_eq!(t.len(), TERMS);
        assert!(t.iter().all(|s| s.chars().count() == TERM_CHARS));
        assert_eq!(places(&many).len(), 80.min(PLACES));
    }
}
