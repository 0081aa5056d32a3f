//! Words for counts in messages and titles, the same in every front end.

/// `n` with the noun it counts: `1 segment`, `2 segments`, `0 segments` (`one` for exactly 1,
/// else `many`).
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_every_other_count_plural() {
        assert_eq!(counted(1, "segment", "segments"), "1 segment");
        assert_eq!(counted(0, "segment", "segments"), "0 segments");
        assert_eq!(counted(2, "person", "people"), "2 people");
    }
}
