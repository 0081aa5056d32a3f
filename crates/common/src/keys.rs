//! The keys entities are stored under: normalized company domains and professional-network
//! handles. The same functions serve writes and reads, so a lookup finds what a put stored.

use crate::sanitize::sanitize;

/// The key a company is stored under: `input` sanitized, trimmed, lowercased, without scheme
/// (`https://`), user info (`user@`), port (`:443`), path, query or fragment, trailing dots, and
/// one leading `www.`.
///
/// `"https://WWW.Acme.com/about?x=1"` → `"acme.com"`; `"  acme.com. "` → `"acme.com"`.
/// An input with no host part gives `""` (such a company is not stored).
pub fn normalize_domain(input: &str) -> String {
    if is_normal_domain(input) {
        // Already a key (the common case: the session normalizes before it asks the store).
        return input.to_string();
    }
    normalize_domain_full(input)
}

/// The key of a company domain given to look up, suppress or list: [`normalize_domain`] of
/// it (an internationalized name in its ASCII form), `None` when the input holds a control or
/// invisible character, or the key is empty, has no dot, or is itself a public suffix of the
/// Public Suffix List (`co.uk`, `github.io`: no company is keyed by one).
pub fn domain_key(input: &str) -> Option<String> {
    if input.trim().chars().any(crate::sanitize::is_hidden) {
        return None;
    }
    Some(normalize_domain(input))
        .filter(|n| !n.is_empty() && n.contains('.'))
        .filter(|n| psl::suffix_str(n).is_none_or(|s| s != n.as_str()))
}

/// The registrable domain of a company key ([`normalize_domain`]) by the Public Suffix List,
/// when it is not the key itself: `shop.acme.com` → `acme.com`, `healthcare.siemens.com` →
/// `siemens.com`, `acme.co.uk` → `None` (already registrable), `foo.github.io` → `None`.
///
/// Companies stay keyed by their own domain: distinct companies share a registrable domain
/// (`healthcare.siemens.com` and `siemens.com` are two listed companies). Suppression uses it,
/// so a suppressed `acme.com` also covers `shop.acme.com`.
pub fn registrable_domain(key: &str) -> Option<String> {
    let n = normalize_domain(key);
    // One dot: registrable already, or a public suffix (`github.io`); the list is not asked.
    if n.bytes().filter(|b| *b == b'.').count() < 2 {
        return None;
    }
    psl::domain_str(&n)
        .filter(|d| *d != n && d.contains('.'))
        .map(str::to_string)
}

/// [`normalize_domain`] without its fast path.
fn normalize_domain_full(input: &str) -> String {
    let clean = sanitize(input);
    let mut s = clean.trim().to_lowercase();
    if let Some(p) = s.find("://") {
        s.drain(..p + 3);
    }
    if let Some(p) = s.find(['/', '?', '#', '\\']) {
        s.truncate(p);
    }
    if let Some(p) = s.rfind('@') {
        s.drain(..=p);
    }
    if let Some(p) = s.find(':') {
        s.truncate(p);
    }
    let s = s.trim().trim_matches('.');
    let s = s.strip_prefix("www.").unwrap_or(s);
    if s.is_ascii() {
        return s.to_string();
    }
    // An internationalized name is keyed by its ASCII form (IDNA, UTS #46), so `bücher.de` and
    // `xn--bcher-kva.de` are one key (issue 34); a name IDNA refuses has none.
    match url::Host::parse(s) {
        Ok(url::Host::Domain(d)) => d,
        _ => String::new(),
    }
}

/// `true` when [`normalize_domain`] would return `s` unchanged because there is nothing to
/// take away: only `a-z`, `0-9`, `-`, `_` and `.`, no leading or trailing dot, no leading `www.`.
/// Checked on bytes without allocating; anything else (uppercase, non-ASCII, `/`, `:`, spaces,
/// controls) takes the full path.
fn is_normal_domain(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.'))
        && !s.starts_with('.')
        && !s.ends_with('.')
        && !s.starts_with("www.")
}

/// The professional-network handle of a profile URL, or of a bare handle: the path segment
/// after `/in/`, percent-decoded when that gives UTF-8, lowercased, without query, fragment or
/// trailing `/`; the input is sanitized first.
///
/// `"https://www.linkedin.com/in/Jane-Doe-1a2b/"` → `Some("jane-doe-1a2b")`; `"in/Jane-Doe"`
/// and `"jane-doe"` → `Some("jane-doe")`. `None` for an empty input, a URL without an `/in/` segment (e.g. a
/// company page), or an input with whitespace inside.
pub fn linkedin_handle(url: &str) -> Option<String> {
    let clean = sanitize(url);
    let s = clean.trim().trim_end_matches('/');
    let segment = if let Some(p) = s.find("/in/") {
        let rest = &s[p + 4..];
        rest.split(['/', '?', '#']).next().unwrap_or("")
    } else if let Some(rest) = s.strip_prefix("in/") {
        // `in/handle`, the path of a profile URL without its host.
        rest.split(['/', '?', '#']).next().unwrap_or("")
    } else if s.contains(['/', ':', '?', '#']) {
        return None;
    } else {
        s
    };
    let decoded = percent_decode(segment);
    let handle = decoded.trim().to_lowercase();
    if handle.is_empty() || handle.contains(char::is_whitespace) {
        None
    } else {
        Some(handle)
    }
}

/// `%XX` escapes decoded when the result is UTF-8; otherwise (or with no `%`) `s` unchanged.
fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2]))
        {
            out.push(h * 16 + l);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

fn hex(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// The distinct company domains of a list, each as the store keys companies
/// ([`normalize_domain`]), in first-seen order; blanks dropped.
pub fn distinct_domains<'a>(domains: impl IntoIterator<Item = &'a String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    domains
        .into_iter()
        .map(|d| normalize_domain(d))
        .filter(|d| !d.is_empty() && seen.insert(d.clone()))
        .collect()
}

/// The distinct domains a create request's JSON body (`domains`) segments: what it is charged
/// for.
pub fn distinct_domains_in(request: &serde_json::Value) -> usize {
    let domains: Vec<String> = request
        .get("domains")
        .and_then(serde_json::Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|d| d.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    distinct_domains(&domains).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_with_a_hidden_character_is_refused_not_cleaned() {
        assert_eq!(domain_key("\u{1b}[31mred.com"), None);
        assert_eq!(domain_key("acme\u{200B}.com"), None);
        assert_eq!(domain_key("\u{feff}acme.com"), None);
        assert_eq!(domain_key(" acme.com "), Some("acme.com".into()));
        assert_eq!(domain_key("bücher.de"), domain_key("xn--bcher-kva.de"));
    }

    #[test]
    fn domains_normalize() {
        for (input, want) in [
            ("acme.com", "acme.com"),
            ("  ACME.com. ", "acme.com"),
            ("https://www.Acme.com/about?x=1#top", "acme.com"),
            ("http://user@www.acme.com:8080/", "acme.com"),
            ("www.www.acme.com", "www.acme.com"),
            ("\u{1b}[31macme.com", "acme.com"),
            ("München.DE", "xn--mnchen-3ya.de"),
            ("bücher.de", "xn--bcher-kva.de"),
            ("xn--bcher-kva.de", "xn--bcher-kva.de"),
            ("", ""),
            ("https://", ""),
            ("www.acme.com", "acme.com"),
            (".acme.com", "acme.com"),
            ("acme.com.", "acme.com"),
            ("acme.com..", "acme.com"),
            ("a_b-c.example", "a_b-c.example"),
        ] {
            assert_eq!(normalize_domain(input), want, "{input:?}");
        }
    }

    #[test]
    fn the_fast_path_agrees_with_the_full_one() {
        // Every string of up to three of these pieces: the fast path must only ever take
        // strings the full normalization leaves unchanged.
        let pieces = [
            "a", "Z", "0", "-", "_", ".", "www.", "w", "/", ":", "@", " ", "é", "\u{1b}",
        ];
        let mut all = vec![String::new()];
        for _ in 0..3 {
            let next: Vec<String> = all
                .iter()
                .flat_map(|s| pieces.iter().map(move |p| format!("{s}{p}")))
                .collect();
            all.extend(next);
        }
        for s in all {
            if is_normal_domain(&s) {
                assert_eq!(normalize_domain_full(&s), s, "{s:?}");
            }
            assert_eq!(normalize_domain(&s), normalize_domain_full(&s), "{s:?}");
        }
    }

    #[test]
    fn handles_from_urls_and_bare() {
        for (input, want) in [
            (
                "https://www.linkedin.com/in/Jane-Doe-1a2b/",
                Some("jane-doe-1a2b"),
            ),
            ("linkedin.com/in/jane-doe?trk=x", Some("jane-doe")),
            (
                "http://linkedin.com/in/j%C3%B6rg-m/details/",
                Some("jörg-m"),
            ),
            ("jane-doe", Some("jane-doe")),
            // Issue 38: the README's `in/handle` is a handle (suppression dropped it).
            ("in/Jane-Doe", Some("jane-doe")),
            ("in/jane-doe/?x=1", Some("jane-doe")),
            ("  Jane-Doe/ ", Some("jane-doe")),
            ("https://www.linkedin.com/company/acme", None),
            ("https://www.linkedin.com/in/", None),
            ("", None),
            ("two words", None),
            ("bad%zzescape", Some("bad%zzescape")),
            ("%ff%fe", Some("%ff%fe")),
        ] {
            assert_eq!(linkedin_handle(input).as_deref(), want, "{input:?}");
        }
    }
}
