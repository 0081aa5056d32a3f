use super::*;

/// A lookalike ranking sorted only as far as its first page gives the pages of the whole
/// sorted ranking: the first page of any size, and every page after it by cursor, with
/// many matches sharing a score level (ties by default rank) and matches between levels.
#[test]
fn a_ranking_sorted_as_far_as_its_first_page_pages_as_the_whole() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut matches = Vec::new();
    for rank in 0..5_000u32 {
        let raw = match next() % 3 {
            // Exactly at a level's lowest raw similarity, among few levels: many ties.
            0 => lookalike::lowest_raw(7_000 + (next() % 40) as u32),
            1 => (next() % 1_000_000) as f64 / 1_000_000.0,
            _ => continue,
        };
        matches.push(lookalike::Scored {
            raw,
            company: rank + 7,
            default_rank: rank,
        });
    }
    let mut sorted = keyed(&matches);
    sorted.sort_unstable();
    assert!(sorted.len() > 3_000);
    let label = |c: u32| format!("c{c}.com");
    let cursor = |page: &Page| {
        page.next.as_deref().map(|n| {
            crate::engine::paging::parse_cursor(Some(n), CursorKind::Companies, |l| {
                let c: u32 = l
                    .trim_start_matches('c')
                    .trim_end_matches(".com")
                    .parse()
                    .ok()?;
                Some((c, c - 7))
            })
            .unwrap()
            .unwrap()
        })
    };
    for wanted in [1, 7, 50, 200, 999, 5_000] {
        let ranked = ranked_scored(matches.clone(), wanted);
        assert_eq!(ranked.total(), sorted.len());
        let first = ranked.page(None, 0, wanted, label);
        assert_eq!(
            first.items,
            sorted[..wanted.min(sorted.len())],
            "wanted {wanted}"
        );
        let (mut all, mut after) = (first.items.clone(), cursor(&first));
        while let Some(c) = after {
            let page = ranked.page(Some(c), 0, 333, label);
            all.extend(&page.items);
            after = cursor(&page);
        }
        assert_eq!(all, sorted, "wanted {wanted}");
    }
}
