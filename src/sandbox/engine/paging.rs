//! Paging: `size`/`from` and `searchAfter` (SPEC.md §4.2, §4.3, §8).
//!
//! Every search orders its results by a `(key: u64, index: u32)` pair, ascending (the key is
//! the default rank, or the lookalike score inverted; the index breaks ties), so the order is
//! total and stable. A `searchAfter` cursor is the pair of the last result of a page, with a
//! kind byte (company or person search) and a 16-bit check, in URL-safe base64 without
//! padding: 20 characters, opaque to clients. The next page holds the results strictly after
//! the cursor, so no result is repeated or skipped. A cursor that does not decode is a
//! validation error (`["body", "searchAfter"]`, type `value_error`), never a panic.

use crate::api::types::common::{LocSegment, ValidationError};

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

/// Parses an optional `searchAfter` string.
pub fn parse_cursor(
    search_after: Option<&str>,
    kind: CursorKind,
) -> Result<Option<Cursor>, Vec<ValidationError>> {
    match search_after {
        None => Ok(None),
        Some(s) if s.trim().is_empty() => Ok(None),
        Some(s) => Cursor::decode(s, kind)
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
/// at most `size` of them, sorted. Runs in O(n + size·log size) via selection, not a full sort.
pub fn select_page(
    mut all: Vec<(u64, u32)>,
    cursor: Option<Cursor>,
    offset: usize,
    size: usize,
    kind: CursorKind,
) -> Page {
    let total = all.len();
    let (offset, before) = if let Some(c) = cursor {
        all.retain(|&(k, i)| (k, i) > (c.key, c.idx));
        (0, total - all.len())
    } else {
        (offset, offset)
    };
    let want = offset.saturating_add(size);
    let remaining_after = all.len() > want;
    if want < all.len() && want > 0 {
        all.select_nth_unstable(want - 1);
        all.truncate(want);
    }
    all.sort_unstable();
    let items: Vec<(u64, u32)> = all.into_iter().skip(offset).take(size).collect();
    let next = match items.last() {
        Some(&(key, idx)) if remaining_after => Some(Cursor { kind, key, idx }.encode()),
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
        assert!(parse_cursor(Some("???"), CursorKind::Companies).is_err());
    }

    #[test]
    fn pages_by_cursor_and_offset_agree() {
        let all: Vec<(u64, u32)> = (0..25u32).map(|i| (((i * 7) % 5) as u64, i)).collect();
        let mut sorted = all.clone();
        sorted.sort();
        let mut by_cursor = Vec::new();
        let mut cur = None;
        loop {
            let p = select_page(all.clone(), cur, 0, 10, CursorKind::People);
            assert_eq!(p.total, 25);
            by_cursor.extend(p.items);
            match p.next {
                Some(n) => cur = Cursor::decode(&n, CursorKind::People),
                None => break,
            }
        }
        let mut by_offset = Vec::new();
        for page in 0..3 {
            by_offset
                .extend(select_page(all.clone(), None, page * 10, 10, CursorKind::People).items);
        }
        assert_eq!(by_cursor, sorted);
        assert_eq!(by_offset, sorted);
    }
}
