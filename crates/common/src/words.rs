//! Words for counts and durations in messages and titles, the same in every front end.

/// `n` with the noun it counts: `1 segment`, `2 segments`, `0 segments` (`one` for exactly 1,
/// else `many`).
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `39726` as `39,726`: a count in a message or a title.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A wait or a time to a reset, the same on every screen and in every message: `3h 05m`,
/// `12m 30s`, `45s` (`secs` below 0 is 0).
pub fn duration(secs: i64) -> String {
    let s = secs.max(0);
    let (h, m, sec) = (s / 3600, (s % 3600) / 60, s % 60);
    if h > 0 {
        format!("{h}h {m:02}m")
    } else if m > 0 {
        format!("{m}m {sec:02}s")
    } else {
        format!("{sec}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_in_one_form() {
        assert_eq!(duration(10_260), "2h 51m");
        assert_eq!(duration(750), "12m 30s");
        assert_eq!(duration(45), "45s");
        assert_eq!(duration(-5), "0s");
    }

    #[test]
    fn one_is_singular_every_other_count_plural() {
        assert_eq!(counted(1, "segment", "segments"), "1 segment");
        assert_eq!(counted(0, "segment", "segments"), "0 segments");
        assert_eq!(counted(2, "person", "people"), "2 people");
    }
}
