//! Pure helpers of the dataset build: a deterministic RNG, domain normalisation, scrubbing of
//! emails/phones, truncation, keyword extraction, slugs.

/// SplitMix64: a tiny deterministic RNG (no external crate, so output never changes with a
/// dependency's version).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// Seeds from a string (FNV-1a 64 of its bytes) and a salt, so each generated field of a
    /// company has its own stream.
    pub fn from_key(key: &str, salt: &str) -> Rng {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in key.bytes().chain([0u8]).chain(salt.bytes()) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        Rng(h)
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[lo, hi)`.
    pub fn range_f(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f64()
    }

    /// Uniform integer in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        lo + self.next_u64() % (hi - lo + 1)
    }

    /// `true` with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.f64() < p
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next_u64() % items.len() as u64) as usize]
    }

    /// Log-uniform in `[lo, hi]` (both > 0).
    pub fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        (lo.ln() + (hi.ln() - lo.ln()) * self.f64()).exp()
    }

    /// Approximately normal (sum of uniforms), mean `m`, standard deviation `s`.
    pub fn normal(&mut self, m: f64, s: f64) -> f64 {
        let sum: f64 = (0..6).map(|_| self.f64()).sum();
        m + s * (sum - 3.0) * std::f64::consts::SQRT_2
    }
}

/// Normalises a website into a bare lowercase host: strips scheme, credentials, `www.`
/// (and `wwwN.`), port, path, query and trailing dots. Returns `(domain, had_www)`, or `None` when
/// nothing host-like is left (no dot, spaces, empty).
pub fn normalize_domain(raw: &str) -> Option<(String, bool)> {
    let mut s = raw.trim().to_lowercase();
    if let Some(i) = s.find("://") {
        s = s[i + 3..].to_string();
    }
    let end = s.find(['/', '?', '#', '\\']).unwrap_or(s.len());
    s.truncate(end);
    if let Some(i) = s.rfind('@') {
        s = s[i + 1..].to_string();
    }
    if let Some(i) = s.find(':') {
        s.truncate(i);
    }
    let s = s.trim_matches('.').to_string();
    let mut had_www = false;
    let mut host = s.as_str();
    if let Some(rest) = host.strip_prefix("www.") {
        host = rest;
        had_www = true;
    } else if host.starts_with("www")
        && let Some(dot) = host.find('.')
        && host[3..dot].chars().all(|c| c.is_ascii_digit())
    {
        host = &host[dot + 1..];
        had_www = true;
    }
    let ok = host.contains('.')
        && !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_alphanumeric() || c == '.' || c == '-')
        && !host.split('.').any(|l| l.is_empty());
    ok.then(|| (host.to_string(), had_www))
}

/// Removes e-mail addresses and phone-number-like digit runs from `text`. Emails become
/// `[email removed]`, phones (7+ digits with only spaces, dashes, dots, parentheses or a leading
/// `+` between them) become `[phone removed]`. Years, amounts and short numbers stay.
pub fn scrub(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let is_local = |c: char| c.is_alphanumeric() || "._%+-".contains(c);
    let is_host = |c: char| c.is_alphanumeric() || c == '.' || c == '-';
    while i < chars.len() {
        let c = chars[i];
        // e-mail: find '@' with local part before (already emitted) and host after.
        if c == '@' && i > 0 && is_local(chars[i - 1]) {
            let mut j = i + 1;
            while j < chars.len() && is_host(chars[j]) {
                j += 1;
            }
            let host: String = chars[i + 1..j].iter().collect();
            let host_trim = host.trim_end_matches('.');
            if host_trim.contains('.') && host_trim.split('.').all(|l| !l.is_empty()) {
                // drop the local part already written
                let mut local_len = 0;
                for ch in out.chars().rev() {
                    if is_local(ch) {
                        local_len += ch.len_utf8();
                    } else {
                        break;
                    }
                }
                out.truncate(out.len() - local_len);
                out.push_str("[email removed]");
                let consumed = host.len() - (host.len() - host_trim.len());
                i += 1 + host_trim.chars().count();
                let _ = consumed;
                continue;
            }
        }
        // phone: starts with '+', '(' or a digit that does not continue a word or a number
        if (c.is_ascii_digit() || c == '+' || c == '(')
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || ",.$€£/".contains(chars[i - 1])))
        {
            let (groups, seps, end) = digit_groups(&chars, i);
            let digits: usize = groups.iter().sum();
            let followed_by_alpha = end < chars.len() && chars[end].is_alphabetic();
            // "4 000 000", "591.944.352": thousands separators, not a phone
            let thousands = groups.len() >= 2
                && groups[0] <= 3
                && groups[1..].iter().all(|g| *g == 3)
                && seps.iter().all(|s| *s == seps[0] && ". ,".contains(*s));
            let shaped =
                c == '+' || c == '(' || groups.len() >= 3 || (groups.len() <= 2 && digits >= 10);
            if (7..=15).contains(&digits) && !followed_by_alpha && !thousands && shaped {
                out.push_str("[phone removed]");
                i = end;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Digit groups of a number-like run starting at `i`: (group lengths, separators between groups,
/// index after the last digit). Separators are space, `-`, `.`, `(`, `)` and a leading `+`; a
/// separator must be followed by a digit or another separator.
fn digit_groups(chars: &[char], i: usize) -> (Vec<usize>, Vec<char>, usize) {
    let mut groups = Vec::new();
    let mut seps = Vec::new();
    let mut cur = 0;
    let mut end = i;
    let mut j = i;
    while j < chars.len() {
        let d = chars[j];
        if d.is_ascii_digit() {
            cur += 1;
            end = j + 1;
        } else if " -.()".contains(d) || (d == '+' && j == i) {
            let next_ok = j + 1 < chars.len()
                && (chars[j + 1].is_ascii_digit() || " -.()".contains(chars[j + 1]));
            if !next_ok {
                break;
            }
            if cur > 0 {
                groups.push(cur);
                cur = 0;
                if d != '(' && d != ')' {
                    seps.push(d);
                }
            }
        } else {
            break;
        }
        j += 1;
    }
    if cur > 0 {
        groups.push(cur);
    }
    (groups, seps, end)
}

/// Truncates at a word boundary so that the result has at most `max` characters, adding `…`
/// when cut. Collapses whitespace runs.
pub fn truncate_words(text: &str, max: usize) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= max {
        return collapsed;
    }
    let mut out = String::new();
    for w in collapsed.split(' ') {
        if out.chars().count() + w.chars().count() + 1 > max.saturating_sub(1) {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    let out = out.trim_end_matches([',', ';', ':', '-']).to_string();
    format!("{out}…")
}

/// Lowercase ASCII slug of a name: letters and digits only, e.g. `Acme Corp.` -> `acmecorp`.
pub fn slug(name: &str) -> String {
    let s: String = name
        .to_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    if s.is_empty() { "company".into() } else { s }
}

/// Title case of a lowercase label (`apparel & fashion` -> `Apparel & Fashion`), keeping small
/// words (`and`, `of`, `the`...) lowercase except at the start.
pub fn title_case(s: &str) -> String {
    let small = ["and", "of", "the", "for", "in", "on", "to", "a"];
    s.split(' ')
        .enumerate()
        .map(|(i, w)| {
            if i > 0 && small.contains(&w) {
                w.to_string()
            } else {
                let mut cs = w.chars();
                match cs.next() {
                    Some(f) => f.to_uppercase().collect::<String>() + cs.as_str(),
                    None => String::new(),
                }
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

const STOP_WORDS: &[&str] = &[
    "about",
    "above",
    "after",
    "again",
    "against",
    "also",
    "although",
    "among",
    "an",
    "and",
    "any",
    "are",
    "around",
    "based",
    "because",
    "been",
    "before",
    "being",
    "between",
    "both",
    "but",
    "can",
    "company",
    "companies",
    "corporation",
    "could",
    "customers",
    "did",
    "does",
    "doing",
    "during",
    "each",
    "engaged",
    "established",
    "etc",
    "every",
    "well",
    "few",
    "for",
    "formerly",
    "founded",
    "from",
    "further",
    "group",
    "has",
    "have",
    "having",
    "headquartered",
    "help",
    "helps",
    "here",
    "holding",
    "holdings",
    "how",
    "inc",
    "incorporated",
    "include",
    "includes",
    "including",
    "into",
    "its",
    "itself",
    "just",
    "known",
    "limited",
    "ltd",
    "made",
    "make",
    "makes",
    "many",
    "more",
    "most",
    "name",
    "need",
    "needs",
    "new",
    "not",
    "now",
    "offer",
    "offers",
    "offered",
    "one",
    "only",
    "operates",
    "operating",
    "other",
    "others",
    "our",
    "out",
    "over",
    "own",
    "part",
    "plc",
    "products",
    "product",
    "provide",
    "provides",
    "providing",
    "same",
    "segment",
    "segments",
    "sells",
    "serves",
    "services",
    "service",
    "should",
    "since",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "together",
    "under",
    "until",
    "use",
    "used",
    "uses",
    "using",
    "various",
    "very",
    "was",
    "way",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "within",
    "without",
    "world",
    "would",
    "year",
    "years",
    "you",
    "your",
    "all",
    "along",
    "addition",
    "subsidiary",
    "subsidiaries",
    "changed",
    "name",
    "states",
    "united",
    "worldwide",
    "internationally",
    "international",
    "primarily",
    "principally",
    "mainly",
    "based",
    "located",
    "business",
    "businesses",
    "operations",
    "division",
    "divisions",
    "like",
    "get",
    "first",
    "best",
    "built",
    "build",
    "building",
    "team",
    "teams",
    "people",
    "platform",
    "helping",
    "we're",
    "we",
    "it's",
    "than",
    "across",
    "every",
    "make",
    "million",
    "billion",
    "today",
    "first",
    "largest",
    "leading",
    "leader",
    "solutions",
    "solution",
    "range",
    "wide",
    "various",
    "markets",
    "market",
    "customer",
    "client",
    "clients",
    "global",
    "globally",
    "based",
    "well",
    "empower",
    "empowers",
    "empowering",
    "enable",
    "enables",
    "enabling",
    "transform",
    "transforms",
    "transforming",
    "manage",
    "manages",
    "managing",
    "helps",
    "allow",
    "allows",
    "allowing",
    "offering",
    "create",
    "creates",
    "creating",
    "powerful",
    "simple",
    "simply",
    "easy",
    "easily",
    "better",
    "faster",
    "modern",
    "intelligent",
    "intelligently",
    "directly",
    "even",
    "really",
    "things",
    "thing",
    "want",
    "lets",
    "getting",
    "focused",
    "focuses",
    "designed",
    "currently",
    "approximately",
    "serve",
    "serving",
    "provider",
    "providers",
    "engages",
    "engage",
    "principal",
    "activities",
    "activity",
    "consists",
    "consist",
    "approach",
    "works",
    "working",
    "making",
    "turn",
    "turns",
    "instead",
    "whether",
    "second",
    "third",
    "able",
    "anyone",
    "everyone",
    "someone",
    "ltda",
    "corp",
    "s.a",
    "gmbh",
    "january",
    "february",
    "march",
    "april",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "became",
    "remainder",
    "several",
    "doesn",
    "find",
];

/// Candidate keyword words of a text, in order: lowercase words of 4+ letters, no digits, no stop
/// words, no capitalised words inside a sentence (names of people, brands, places).
pub fn candidate_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut sentence_start = true;
    for raw in text.split_whitespace() {
        let ends_sentence = raw.ends_with(['.', '!', '?', ':']);
        for part in raw.split(|c: char| !(c.is_alphanumeric() || c == '-')) {
            let w = part.trim_matches('-');
            if w.is_empty() {
                continue;
            }
            // Capitalised words inside a sentence are names (people, brands, places): skip.
            let mut cs = w.chars();
            let proper = cs.next().is_some_and(char::is_uppercase)
                && cs.clone().next().is_some_and(char::is_lowercase)
                && !sentence_start;
            let lw = w.to_lowercase();
            if !proper
                && lw.chars().count() >= 4
                && !lw.chars().any(|c| c.is_ascii_digit())
                && !STOP_WORDS.contains(&lw.as_str())
                && !lw.contains("removed")
            {
                out.push(lw);
            }
            sentence_start = false;
        }
        sentence_start = ends_sentence;
    }
    out
}

/// Up to `max` keywords from candidate words, ranked by term frequency × inverse document
/// frequency; words in fewer than 3 documents (mostly proper names) or in more than 3 % of them
/// (boilerplate) are skipped, as are words in `exclude` (the company's name).
pub fn rank_keywords(
    words: &[String],
    df: &std::collections::HashMap<String, u32>,
    n_docs: usize,
    exclude: &[String],
    max: usize,
) -> Vec<String> {
    let limit = (n_docs as f64 * 0.03).max(2.0) as u32;
    let mut scored: Vec<(String, f64, usize)> = Vec::new();
    for (pos, w) in words.iter().enumerate() {
        let d = df.get(w).copied().unwrap_or(0);
        if d < 3 || d > limit || exclude.contains(w) {
            continue;
        }
        // idf capped so that rare words (typos, odd names) do not beat repeated topic words
        let idf = (n_docs as f64 / d as f64).ln().min(6.0);
        if let Some(e) = scored.iter_mut().find(|e| e.0 == *w) {
            e.1 += idf;
        } else {
            scored.push((w.clone(), idf, pos));
        }
    }
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)));
    scored.into_iter().take(max).map(|e| e.0).collect()
}

/// Finds "founded in YYYY" / "incorporated in YYYY" / "established in YYYY" in a summary.
pub fn founded_year(text: &str) -> Option<i32> {
    let lower = text.to_lowercase();
    for pat in [
        "founded in ",
        "incorporated in ",
        "established in ",
        "founded on ",
    ] {
        let mut from = 0;
        while let Some(i) = lower[from..].find(pat) {
            let start = from + i + pat.len();
            let rest = &lower[start..];
            // skip a month name / day ("founded on March 3, 1999")
            let digits: String = rest
                .split(|c: char| !c.is_ascii_digit())
                .find(|t| t.len() == 4)
                .unwrap_or("")
                .to_string();
            if let Ok(y) = digits.parse::<i32>()
                && (1600..=2026).contains(&y)
                && rest.find(&digits).is_some_and(|p| p < 20)
            {
                return Some(y);
            }
            from = start;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_normalise() {
        assert_eq!(
            normalize_domain("https://www.Stripe.com/about?x=1"),
            Some(("stripe.com".into(), true))
        );
        assert_eq!(
            normalize_domain("http://sgcc.com.cn/ywlm/default.shtml"),
            Some(("sgcc.com.cn".into(), false))
        );
        assert_eq!(
            normalize_domain("www2.example.co.uk:8080"),
            Some(("example.co.uk".into(), true))
        );
        assert_eq!(
            normalize_domain("kscale.dev/"),
            Some(("kscale.dev".into(), false))
        );
        assert_eq!(normalize_domain("not a domain"), None);
        assert_eq!(normalize_domain(""), None);
    }

    #[test]
    fn scrubs_emails_and_phones() {
        let s = scrub(
            "Contact founders@acme.io or call +1 (415) 555-2671. Founded in 2019 with 1,200 staff.",
        );
        assert!(!s.contains("acme.io"), "{s}");
        assert!(!s.contains("2671"), "{s}");
        assert!(s.contains("2019") && s.contains("1,200"), "{s}");
        let s = scrub("Call 020 7946 0018 today");
        assert!(!s.contains("7946"), "{s}");
        assert_eq!(scrub("We raised $5M in 2021."), "We raised $5M in 2021.");
        for keep in [
            "formerly known as 1222991 B.C. Ltd. and",
            "an area of 4,553.7034 hectares",
            "generation include 591.944.352 kWh",
            "more than 4 000 000 downloads",
            "and 1500-7000 meters series",
            "revenue of 12,345,678 USD",
        ] {
            assert_eq!(scrub(keep), keep);
        }
        for gone in [
            "call (916) 567-0123 now",
            "call 916.567.0123 now",
            "ring +44 20 7946 0018.",
            "dial 4155552671",
        ] {
            assert!(scrub(gone).contains("[phone removed]"), "{gone}");
        }
    }

    #[test]
    fn keyword_candidates_skip_names_and_stop_words() {
        let w = candidate_words(
            "Acme builds robotic welding cells. Founded by Kurt Meyer in July, it serves Detroit.",
        );
        assert_eq!(w, vec!["acme", "builds", "robotic", "welding", "cells"]);
    }

    #[test]
    fn truncates_and_finds_years() {
        let t = truncate_words(&"word ".repeat(300), 600);
        assert!(t.chars().count() <= 600 && t.ends_with('…'));
        assert_eq!(
            founded_year("Acme Inc. was founded in 1975 and is based in X."),
            Some(1975)
        );
        assert_eq!(
            founded_year("The company was incorporated in 2004."),
            Some(2004)
        );
        assert_eq!(founded_year("No year here."), None);
    }

    #[test]
    fn rng_is_deterministic() {
        let a: Vec<u64> = (0..3)
            .map({
                let mut r = Rng::from_key("stripe.com", "x");
                move |_| r.next_u64()
            })
            .collect();
        let mut r = Rng::from_key("stripe.com", "x");
        assert_eq!(a[0], r.next_u64());
        assert_ne!(
            Rng::from_key("a.com", "x").next_u64(),
            Rng::from_key("b.com", "x").next_u64()
        );
    }
}
