//! The sandbox's query engine: pure functions over a loaded [`Db`](crate::dataset::load::Db),
//! no HTTP. The service (`sandbox::service`) calls them from its axum handlers.
//!
//! - [`index`]: interned vocabularies, compact per-company columns, domain/alias/handle maps.
//! - [`layered`]: the dataset's sequences plus what was added after loading.
//! - [`gathered`]: companies whose data gathering finished, added to a new snapshot.
//! - [`people`]: deterministic generation of synthetic people from each company.
//! - [`filters`]: compiling v2/v3 company and people filter blocks into predicates, evaluating them.
//! - [`lookalike`]: similarity of companies to the `lookalikeDomains` (formula documented there).
//! - [`paging`]: `size`/`from` and opaque, stable `searchAfter` cursors.
//! - [`autocomplete`]: prefix and approximate (trigram) matching for the five autocompletes.
//! - [`caps`]: how much of a request is matched where openapi.json sets no limit.
//! - [`records`]: the wire records (`Company`, `Person`, `LookalikePerson`, ...) built on demand.
//! - [`search`]: the company and people searches (SPEC.md §4.2, §4.3, §4.10).
//! - [`enrich`]: enrich match (SPEC.md §2.7), lookup (SPEC.md §4.5, §4.6), data fields (§2.8).

pub mod autocomplete;
pub mod cache;
pub mod caps;
pub mod compile;
pub mod enrich;
pub mod filters;
pub mod gathered;
pub mod held;
pub mod index;
pub mod layered;
pub mod lookalike;
pub mod paging;
pub mod people;
pub mod postings;
pub mod records;
pub mod search;
pub mod segment;
#[cfg(test)]
mod suite;
#[cfg(test)]
pub(crate) mod testdata;

/// A fast, non-cryptographic hasher for the engine's in-memory maps (the keys come from the
/// dataset, not from clients, so hash flooding is no concern): FxHash's multiply-rotate.
#[derive(Debug, Default, Clone, Copy)]
pub struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let v = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            self.add(v);
        }
        let mut tail = 0u64;
        for (i, b) in chunks.remainder().iter().enumerate() {
            tail |= (*b as u64) << (8 * i);
        }
        self.add(tail ^ bytes.len() as u64);
    }
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64)
    }
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64)
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i)
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64)
    }
}

impl FastHasher {
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95);
    }
}

/// A `HashMap` with [`FastHasher`].
pub type FastMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<FastHasher>>;

/// The date the dataset describes ("today" for generated dates), as `(year, month)`.
/// Fixed, so every generated date is stable from load to load.
pub const DATA_DATE: (i32, u32) = (2026, 10);

/// SplitMix64: a tiny, stable pseudo-random generator (Steele, Lea, Flood 2014). Written here
/// rather than taken from `rand` so the generated people never change with a dependency update.
#[derive(Debug, Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix64(self.0)
    }
    /// A uniform integer in `0..n` (`n > 0`; returns 0 when `n == 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
    /// A uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// A uniform integer in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        lo + self.below((hi - lo + 1) as u64) as i64
    }
}

/// The SplitMix64 finalizer: a strong 64-bit mixing function.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `f` over `items` on up to `available_parallelism()` threads, each taking a contiguous share
/// (the calling thread builds the first one itself); results in the order of `items`.
pub(crate) fn par_map<'a, T: Sync, R: Send>(
    items: &'a [T],
    f: impl Fn(&'a T) -> R + Sync,
) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, items.len().max(1));
    if threads == 1 {
        return items.iter().map(f).collect();
    }
    let share = items.len().div_ceil(threads);
    let (first, rest) = items.split_at(share.min(items.len()));
    let f = &f;
    std::thread::scope(|s| {
        let others: Vec<_> = rest
            .chunks(share)
            .map(|part| s.spawn(move || part.iter().map(f).collect::<Vec<R>>()))
            .collect();
        let mut all: Vec<R> = Vec::with_capacity(items.len());
        all.extend(first.iter().map(f));
        for h in others {
            all.extend(h.join().expect("worker thread"));
        }
        all
    })
}

/// Stable 64-bit hash of a string (FNV-1a followed by [`mix64`]); identical on every platform
/// and every run.
pub fn hash_str(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.as_bytes() {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    mix64(h)
}

/// Normalizes a user-given domain or URL to the dataset's form: lowercase, no scheme, no
/// `www.`, no path, query, port or trailing dot. `"https://www.Stripe.com/about"` → `"stripe.com"`.
pub fn normalize_domain(input: &str) -> String {
    let mut s = input.trim().to_ascii_lowercase();
    if let Some(p) = s.find("://") {
        s = s[p + 3..].to_string();
    }
    if let Some(p) = s.find(['/', '?', '#']) {
        s.truncate(p);
    }
    if let Some(p) = s.rfind('@') {
        s = s[p + 1..].to_string();
    }
    if let Some(p) = s.find(':') {
        s.truncate(p);
    }
    while s.ends_with('.') {
        s.pop();
    }
    if let Some(rest) = s.strip_prefix("www.") {
        s = rest.to_string();
    }
    s
}

/// Lowercase, ASCII-folded, whitespace-collapsed form used for matching.
pub fn fold(s: &str) -> String {
    let f = ascii_fold(s);
    let f = if f.trim().is_empty() {
        s.to_lowercase()
    } else {
        f
    };
    // Collapse whitespace; most texts need no change, so keep the buffer when they do not.
    let b = f.as_bytes();
    let clean = b.first() != Some(&b' ')
        && b.last() != Some(&b' ')
        && !b.windows(2).any(|w| w[0] == b' ' && w[1] == b' ')
        && !f.chars().any(|c| c.is_whitespace() && c != ' ');
    if clean {
        return f;
    }
    f.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Folds a name to lowercase ASCII for emails, URLs and handles: accents are removed
/// (`"José Müller"` → `"jose muller"`), other characters outside `[a-z0-9 -]` dropped.
pub fn ascii_fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    if s.is_ascii() {
        for b in s.bytes() {
            match b {
                b'a'..=b'z' | b'0'..=b'9' | b' ' | b'-' => out.push(b as char),
                b'A'..=b'Z' => out.push(b.to_ascii_lowercase() as char),
                b'_' | b'\t' => out.push(' '),
                _ => {}
            }
        }
        return out;
    }
    for ch in s.chars() {
        for c in ch.to_lowercase() {
            let mapped: &str = match c {
                'a'..='z' | '0'..='9' | ' ' | '-' => {
                    out.push(c);
                    continue;
                }
                'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
                'æ' => "ae",
                'ç' | 'ć' | 'č' | 'ĉ' | 'ċ' => "c",
                'ď' | 'đ' | 'ð' => "d",
                'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
                'ğ' | 'ĝ' | 'ġ' | 'ģ' => "g",
                'ì' | 'í' | 'î' | 'ï' | 'ī' | 'į' | 'ı' => "i",
                'ķ' => "k",
                'ł' | 'ľ' | 'ĺ' | 'ļ' => "l",
                'ñ' | 'ń' | 'ň' | 'ņ' => "n",
                'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => "o",
                'œ' => "oe",
                'ř' | 'ŕ' => "r",
                'ś' | 'š' | 'ş' | 'ș' => "s",
                'ß' => "ss",
                'ť' | 'ţ' | 'ț' => "t",
                'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' | 'ų' => "u",
                'ý' | 'ÿ' => "y",
                'ź' | 'ż' | 'ž' => "z",
                '_' | '\t' => " ",
                _ => "",
            };
            out.push_str(mapped);
        }
    }
    out
}

/// Turns a name into a URL/email slug: ASCII-folded words joined by `sep`
/// (`slug("Anne-Marie O'Neil", ".")` → `"anne-marie.oneil"`).
pub fn slug(s: &str, sep: &str) -> String {
    ascii_fold(s)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(sep)
}

/// Lowercase hex of the low `digits` nibbles of `v` (most significant first).
pub fn hex(v: u64, digits: usize) -> String {
    let mut s = String::with_capacity(digits);
    for i in (0..digits).rev() {
        let n = ((v >> (i * 4)) & 0xF) as u8;
        s.push(char::from(if n < 10 { b'0' + n } else { b'a' + n - 10 }));
    }
    s
}

/// Great-circle distance in kilometres between two points given in degrees (haversine,
/// Earth radius 6371.0088 km).
pub fn haversine_km(lat1: f64, lon1: f64, lat2: f64, lon2: f64) -> f64 {
    let (p1, p2) = (lat1.to_radians(), lat2.to_radians());
    let dp = (lat2 - lat1).to_radians();
    let dl = (lon2 - lon1).to_radians();
    let a = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    2.0 * 6371.0088 * a.sqrt().atan2((1.0 - a).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_and_hash_are_stable() {
        let mut r = SplitMix64(1234567);
        assert_eq!(r.next_u64(), 6457827717110365317);
        assert_eq!(hash_str("stripe.com"), hash_str("stripe.com"));
        assert_ne!(hash_str("stripe.com"), hash_str("stripe.de"));
    }

    #[test]
    fn domains_and_slugs() {
        assert_eq!(
            normalize_domain("https://www.Stripe.com/about?x"),
            "stripe.com"
        );
        assert_eq!(normalize_domain("jane@acme.io"), "acme.io");
        assert_eq!(slug("Anne-Marie O'Neil", "."), "anne-marie.oneil");
        assert_eq!(slug("José Müller", "-"), "jose-muller");
        assert_eq!(hex(0xabc, 4), "0abc");
    }

    #[test]
    fn haversine_paris_london() {
        let d = haversine_km(48.8566, 2.3522, 51.5074, -0.1278);
        assert!((d - 343.5).abs() < 2.0, "{d}");
    }
}
