//! Paging: `size`/`from` and `searchAfter` (SPEC.md §4.2, §4.3, §8).
//!
//! Every search orders its results by a `(key: u64, index: u32)` pair, ascending (the key is
//! the default rank, or the lookalike score inverted above the rank; the index breaks ties), so
//! the order is total and stable. The next page holds the results strictly after the cursor,
//! so no result is repeated or skipped.
//!
//! A `searchAfter` cursor is what the vendor issues: lz-string (`compressToEncodedURIComponent`)
//! of a JSON array of the last result's sort value and its label, e.g.
//! `[0.7742706, "pluggerz.com"]` → `NoBgdA7BAsBMEgGwBoAEAiADgGwK4HN8BTAJwC8wBjAewFt0BdIA`
//! (openapi.json's example). The sort value is the lookalike score (a number with a fraction)
//! or the default rank (an integer); the label is the company's domain, or the person's id.
//! Read back, the label gives the index and the rank under the score, so the pair is exact. An
//! unknown label sorts after every result of its score. `{"index": N}` (the vendor's people
//! example `N4IglgdgJgpgHiAXAVgL5A`) starts at the N-th result (0-based). The compact cursors
//! of earlier sandboxes (20 URL-safe base64 characters with a check) are still read, so a
//! search kept in a store resumes. A cursor that does not decode is a validation error
//! (`["body", "searchAfter"]`, type `value_error`), never a panic.

use prospect_api::types::common::{LocSegment, ValidationError};

pub(crate) use super::held::Ranked;
use super::mix64;

/// What a cursor pages through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CursorKind {
    /// Company searches.
    Companies = 1,
    /// People searches.
    People = 2,
}

/// A decoded `searchAfter` cursor: the sort position of the last result returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    /// The search kind.
    pub kind: CursorKind,
    /// Sort key of the last result.
    pub key: u64,
    /// Index (company or person) of the last result.
    pub idx: u32,
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn check(kind: u8, key: u64, idx: u32) -> u16 {
    (mix64(key ^ ((idx as u64) << 8) ^ kind as u64 ^ 0xC0C0_5EA7) & 0xFFFF) as u16
}

impl Cursor {
    /// Encodes the cursor (20 URL-safe base64 characters).
    pub fn encode(&self) -> String {
        let mut b = Vec::with_capacity(15);
        b.push(self.kind as u8);
        b.extend_from_slice(&self.key.to_be_bytes());
        b.extend_from_slice(&self.idx.to_be_bytes());
        b.extend_from_slice(&check(self.kind as u8, self.key, self.idx).to_be_bytes());
        let mut s = String::with_capacity(20);
        for chunk in b.chunks(3) {
            let n = (chunk[0] as u32) << 16
                | (*chunk.get(1).unwrap_or(&0) as u32) << 8
                | *chunk.get(2).unwrap_or(&0) as u32;
            for k in 0..4 {
                s.push(B64[((n >> (18 - 6 * k)) & 63) as usize] as char);
            }
        }
        s
    }

    /// Decodes a cursor of the given kind; `None` when malformed, tampered with or of another kind.
    pub fn decode(s: &str, kind: CursorKind) -> Option<Cursor> {
        let s = s.trim();
        if s.len() != 20 {
            return None;
        }
        let mut b = Vec::with_capacity(15);
        for chunk in s.as_bytes().chunks(4) {
            let mut n = 0u32;
            for &c in chunk {
                let v = B64.iter().position(|&x| x == c)? as u32;
                n = n << 6 | v;
            }
            b.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8, n as u8]);
        }
        if b[0] != kind as u8 {
            return None;
        }
        let key = u64::from_be_bytes(b[1..9].try_into().ok()?);
        let idx = u32::from_be_bytes(b[9..13].try_into().ok()?);
        let chk = u16::from_be_bytes(b[13..15].try_into().ok()?);
        (chk == check(kind as u8, key, idx)).then_some(Cursor { kind, key, idx })
    }
}

/// Where a `searchAfter` starts the next page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum After {
    /// Strictly after this sort position.
    Key(Cursor),
    /// At this 0-based position (`{"index": N}`).
    Index(usize),
}

/// Keys at or above this carry a lookalike score (`(10000 − score·10000) << 32 | rank`).
const SCORED: u64 = 1 << 32;

/// The vendor's cursor of the result at `key` labelled `label` (a domain, a person id):
/// lz-string of `[score, label]` for a scored key, `[rank, label]` otherwise.
pub fn encode_cursor(key: u64, label: &str) -> String {
    let value = if key >= SCORED {
        let units = 10_000 - (key >> 32).min(10_000);
        serde_json::json!([units as f64 / 10_000.0, label])
    } else {
        serde_json::json!([key, label])
    };
    lz_str::compress_to_encoded_uri_component(value.to_string().as_str())
}

/// Reads a cursor of `kind`: a compact one of an earlier sandbox, or the vendor's lz-string
/// JSON (URL-component or base64 alphabet), its label resolved by `resolve` to (index, default
/// rank). `None` when it reads as neither.
pub fn decode_cursor(
    s: &str,
    kind: CursorKind,
    resolve: impl Fn(&str) -> Option<(u32, u32)>,
) -> Option<After> {
    let s = s.trim();
    if let Some(c) = Cursor::decode(s, kind) {
        return Some(After::Key(c));
    }
    let text = lz_str::decompress_from_encoded_uri_component(s)
        .or_else(|| lz_str::decompress_from_base64(s))
        .and_then(|w| String::from_utf16(&w).ok())
        .filter(|t| !t.is_empty())?;
    match serde_json::from_str::<serde_json::Value>(&text).ok()? {
        serde_json::Value::Object(m) => {
            let n = m.get("index")?.as_u64()?;
            Some(After::Index(usize::try_from(n).ok()?))
        }
        serde_json::Value::Array(a) if a.len() == 2 => {
            let label = a[1].as_str()?;
            let (idx, rank) = resolve(label).unwrap_or((u32::MAX, u32::MAX));
            let key = match &a[0] {
                serde_json::Value::Number(n) if n.is_u64() => n.as_u64()?,
                serde_json::Value::Number(n) => {
                    let score = n.as_f64()?.clamp(0.0, 1.0);
                    let units = super::lookalike::round_units(score * 10_000.0) as u64;
                    ((10_000 - units) << 32) | u64::from(rank)
                }
                _ => return None,
            };
            Some(After::Key(Cursor { kind, key, idx }))
        }
        _ => None,
    }
}

/// The 422 entry for a `searchAfter` that does not decode.
pub fn invalid_cursor(input: &str) -> ValidationError {
    let mut e = ValidationError::new(
        [LocSegment::from("body"), LocSegment::from("searchAfter")],
        "Value error, Invalid searchAfter cursor",
        "value_error",
    );
    e.input = Some(serde_json::Value::String(input.to_string()));
    e.ctx = Some(serde_json::json!({"error": "invalid cursor"}));
    e
}

/// Parses an optional `searchAfter` string ([`decode_cursor`]).
pub fn parse_cursor(
    search_after: Option<&str>,
    kind: CursorKind,
    resolve: impl Fn(&str) -> Option<(u32, u32)>,
) -> Result<Option<After>, Vec<ValidationError>> {
    match search_after {
        None => Ok(None),
        Some(s) if s.trim().is_empty() => Ok(None),
        Some(s) => decode_cursor(s, kind, resolve)
            .map(Some)
            .ok_or_else(|| vec![invalid_cursor(s)]),
    }
}

/// One page of a result set.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// The page, in order: `(key, index)`.
    pub items: Vec<(u64, u32)>,
    /// Number of results of the whole search (before the cursor and offset).
    pub total: usize,
    /// Number of results before the first item of this page (its 0-based position).
    pub offset: usize,
    /// Cursor of the last item, when results remain after this page.
    pub next: Option<String>,
}

/// Selects a page from unordered `(key, index)` results: the results after `cursor` (when
/// given; `offset` is then ignored) or from position `offset` (0-based, i.e. `from - 1`),
/// at most `size` of them, sorted; the next cursor labels its last result by `label` (its
/// domain or person id). Runs in O(n + size·log size) via selection, not a full sort.
pub fn select_page(
    mut all: Vec<(u64, u32)>,
    cursor: Option<After>,
    offset: usize,
    size: usize,
    label: impl Fn(u32) -> String,
) -> Page {
    let total = all.len();
    let (offset, before) = match cursor {
        Some(After::Key(c)) => {
            all.retain(|&(k, i)| (k, i) > (c.key, c.idx));
            (0, total - all.len())
        }
        Some(After::Index(n)) => (n, n),
        None => (offset, offset),
    };
    let want = offset.saturating_add(size);
    let remaining_after = all.len() > want;
    if want < all.len() && want > 0 {
        all.select_nth_unstable(want - 1);
        all.truncate(want);
    }
    all.sort_unstable();
    page_of(&all, offset, size, remaining_after, before, total, label)
}

impl std::fmt::Debug for Ranked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ranked")
            .field("head", &self.head.len())
            .field("total", &self.total)
            .field("rest_sorted", &self.all.get().is_some())
            .finish()
    }
}

impl Ranked {
    /// All of `matches` (`(key, index)`, unordered), sorted now.
    pub fn sorted(mut matches: Vec<(u64, u32)>) -> Ranked {
        matches.sort_unstable();
        Ranked {
            total: matches.len(),
            head: matches,
            rest: std::sync::Mutex::new(None),
            all: std::sync::OnceLock::new(),
        }
    }

    /// `head` (sorted; each of its keys below every key of the others) of `total` matches, and
    /// `rest`, which gives the other `total − head.len()` matches sorted, called once on the
    /// first page that reaches past the head.
    pub fn split(
        head: Vec<(u64, u32)>,
        total: usize,
        rest: impl FnOnce() -> Vec<(u64, u32)> + Send + 'static,
    ) -> Ranked {
        Ranked {
            total: total.max(head.len()),
            head,
            rest: std::sync::Mutex::new(Some(Box::new(rest))),
            all: std::sync::OnceLock::new(),
        }
    }

    /// Number of matches.
    pub fn total(&self) -> usize {
        self.total
    }

    /// The page [`select_page`] gives of these matches (after `cursor`, or from position
    /// `offset`, at most `size`), by a binary search for the cursor and a slice: of the head
    /// when the page lies within it, else of all the matches (sorting the rest the first time).
    pub fn page(
        &self,
        cursor: Option<After>,
        offset: usize,
        size: usize,
        label: impl Fn(u32) -> String,
    ) -> Page {
        let start = start_of(&self.head, cursor, offset);
        let in_head = start < self.head.len() && start.saturating_add(size) <= self.head.len();
        let (sorted, start) = if self.total == self.head.len() || in_head {
            (&self.head, start)
        } else {
            let all = self.all.get_or_init(|| {
                let rest = (self.rest.lock())
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .take();
                let mut all = self.head.clone();
                all.extend(rest.map(|sort| sort()).unwrap_or_default());
                all
            });
            (all, start_of(all, cursor, offset))
        };
        let remaining_after = self.total > start.saturating_add(size);
        page_of(
            &sorted[start.min(sorted.len())..],
            0,
            size,
            remaining_after,
            start,
            self.total,
            label,
        )
    }
}

/// The 0-based position in `sorted` of the first result of the page after `cursor` (or at
/// `offset` without one).
fn start_of(sorted: &[(u64, u32)], cursor: Option<After>, offset: usize) -> usize {
    match cursor {
        Some(After::Key(c)) => sorted.partition_point(|&(k, i)| (k, i) <= (c.key, c.idx)),
        Some(After::Index(n)) => n,
        None => offset,
    }
}

/// The page of `size` results from position `offset` of `sorted`, with its next cursor when
/// `remaining_after`; `before` results precede it in the whole search of `total`.
fn page_of(
    sorted: &[(u64, u32)],
    offset: usize,
    size: usize,
    remaining_after: bool,
    before: usize,
    total: usize,
    label: impl Fn(u32) -> String,
) -> Page {
    let items: Vec<(u64, u32)> = sorted.iter().skip(offset).take(size).copied().collect();
    let next = match items.last() {
        Some(&(key, idx)) if remaining_after => Some(encode_cursor(key, &label(idx))),
        _ => None,
    };
    Page {
        offset: before.min(total),
        items,
        total,
        next,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_reject_garbage() {
        let c = Cursor {
            kind: CursorKind::Companies,
            key: 0xDEAD_BEEF_0000_0001,
            idx: 42,
        };
        let s = c.encode();
        assert_eq!(s.len(), 20);
        assert_eq!(Cursor::decode(&s, CursorKind::Companies), Some(c));
        assert_eq!(Cursor::decode(&s, CursorKind::People), None);
        assert_eq!(Cursor::decode("garbage", CursorKind::Companies), None);
        let mut t = s.clone().into_bytes();
        t[5] = if t[5] == b'A' { b'B' } else { b'A' };
        assert_eq!(
            Cursor::decode(&String::from_utf8(t).unwrap(), CursorKind::Companies),
            None
        );
        assert!(parse_cursor(Some("???"), CursorKind::Companies, |_| None).is_err());
        // An earlier sandbox's compact cursor still reads.
        assert_eq!(
            parse_cursor(Some(&s), CursorKind::Companies, |_| None).unwrap(),
            Some(After::Key(c))
        );
    }

    #[test]
    fn the_vendors_lz_string_cursors_read_and_are_issued() {
        // openapi.json's examples, made by the vendor's own lz-string.
        let resolve = |l: &str| (l == "pluggerz.com").then_some((7, 3));
        assert_eq!(
            decode_cursor(
                "NoBgdA7BAsBMEgGwBoAEAiADgGwK4HN8BTAJwC8wBjAewFt0BdIA",
                CursorKind::Companies,
                resolve
            ),
            Some(After::Key(Cursor {
                kind: CursorKind::Companies,
                key: ((10_000 - 7743) << 32) | 3,
                idx: 7
            }))
        );
        assert_eq!(
            decode_cursor("N4IglgdgJgpgHiAXAVgL5A", CursorKind::People, |_| None),
            Some(After::Index(5))
        );
        // Ours round-trip, scored and unscored.
        for key in [((10_000 - 8125) << 32) | 42, 42] {
            let c = encode_cursor(key, "acme.com");
            let text =
                String::from_utf16(&lz_str::decompress_from_encoded_uri_component(&c).unwrap())
                    .unwrap();
            assert!(
                text.starts_with('[') && text.contains("\"acme.com\""),
                "{text}"
            );
            assert_eq!(
                decode_cursor(&c, CursorKind::Companies, |_| Some((9, 42))),
                Some(After::Key(Cursor {
                    kind: CursorKind::Companies,
                    key,
                    idx: 9
                }))
            );
        }
        // An unknown label sorts after every result of its score.
        let c = encode_cursor(((10_000 - 5000) << 32) | 1, "gone.com");
        let Some(After::Key(k)) = decode_cursor(&c, CursorKind::Companies, |_| None) else {
            panic!("reads")
        };
        assert_eq!((k.key & 0xFFFF_FFFF, k.idx), (u32::MAX as u64, u32::MAX));
        assert_eq!(decode_cursor("[1]", CursorKind::Companies, |_| None), None);
    }

    #[test]
    fn pages_by_cursor_and_offset_agree() {
        let all: Vec<(u64, u32)> = (0..25u32).map(|i| (((i * 7) % 5) as u64, i)).collect();
        let mut sorted = all.clone();
        sorted.sort();
        let mut by_cursor = Vec::new();
        let mut cur = None;
        loop {
            let p = select_page(all.clone(), cur, 0, 10, |i| format!("p{i}"));
            assert_eq!(p.total, 25);
            by_cursor.extend(p.items);
            match p.next {
                Some(n) => {
                    cur = decode_cursor(&n, CursorKind::People, |l| {
                        let i: u32 = l.strip_prefix('p')?.parse().ok()?;
                        Some((i, 0))
                    })
                }
                None => break,
            }
        }
        let mut by_offset = Vec::new();
        for page in 0..3 {
            by_offset
                .extend(select_page(all.clone(), None, page * 10, 10, |i| format!("p{i}")).items);
        }
        assert_eq!(by_cursor, sorted);
        assert_eq!(by_offset, sorted);
    }

    /// A page of a kept ranking is the page the selection gives, at every cursor and offset,
    /// with and without ties of keys, whether the ranking was sorted whole or only its head
    /// (of any length) at first.
    #[test]
    fn pages_of_a_ranking_are_the_selected_pages() {
        let all: Vec<(u64, u32)> = (0..500u32)
            .map(|i| (u64::from(i.wrapping_mul(2_654_435_761) % 97), i))
            .collect();
        let mut sorted = all.clone();
        sorted.sort_unstable();
        let label = |i: u32| format!("c{i}.com");
        let rankings = || {
            let whole = Ranked::sorted(all.clone());
            let heads = [0, 1, 49, 50, 51, 499, 500].map(|h| {
                let rest = sorted[h..].to_vec();
                Ranked::split(sorted[..h].to_vec(), sorted.len(), move || rest.clone())
            });
            std::iter::once(whole).chain(heads)
        };
        for size in [0, 1, 7, 50, 600] {
            for offset in [0, 3, 499, 500, 900] {
                for r in rankings() {
                    assert_eq!(
                        r.page(None, offset, size, label),
                        select_page(all.clone(), None, offset, size, label),
                        "offset {offset}, size {size}, {r:?}"
                    );
                    let index = Some(After::Index(offset));
                    assert_eq!(
                        r.page(index, 0, size, label),
                        select_page(all.clone(), index, 0, size, label)
                    );
                }
            }
            for &(key, idx) in sorted.iter().step_by(37) {
                let at = || {
                    Some(After::Key(Cursor {
                        kind: CursorKind::Companies,
                        key,
                        idx,
                    }))
                };
                for r in rankings() {
                    assert_eq!(
                        r.page(at(), 0, size, label),
                        select_page(all.clone(), at(), 0, size, label),
                        "after ({key}, {idx}), size {size}, {r:?}"
                    );
                }
            }
        }
    }
}
