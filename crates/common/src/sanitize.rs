//! Making API data safe to draw: every string that came from the service goes through
//! [`sanitize`] before it reaches a terminal cell.

/// Returns `s` with terminal escape sequences removed and control characters replaced.
///
/// - ANSI/VT sequences (CSI `ESC [ ... final`, OSC `ESC ] ... BEL|ST`, DCS/SOS/PM/APC
///   `ESC P|X|^|_ ... ST`, and two-byte `ESC x`) are dropped whole, including the 8-bit C1
///   introducers (U+009B CSI, U+009D OSC, U+0090 DCS ...).
/// - Newlines, carriage returns and tabs become a single space (a cell of a table or a line of
///   details is one line).
/// - Every other C0/C1 control character, DEL, and the bidi overrides/isolates (U+202A..U+202E,
///   U+2066..U+2069) are removed.
///
/// The result never contains a byte that a terminal interprets as a command.
pub fn sanitize(s: &str) -> String {
    // Fast path: nothing to do for plain text.
    if !s.chars().any(needs_work) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '\u{1b}' => match it.next() {
                Some('[') => skip_csi(&mut it),
                Some(']') | Some('P') | Some('X') | Some('^') | Some('_') => skip_string(&mut it),
                // Two-byte escape (ESC x) or a lone ESC at the end: both dropped.
                _ => {}
            },
            '\u{9b}' => skip_csi(&mut it),
            '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => skip_string(&mut it),
            '\n' | '\r' | '\t' => {
                if !out.ends_with(' ') {
                    out.push(' ');
                }
            }
            c if is_dropped(c) => {}
            c => out.push(c),
        }
    }
    out
}

fn needs_work(c: char) -> bool {
    c.is_control() || is_bidi(c)
}

fn is_bidi(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn is_dropped(c: char) -> bool {
    c.is_control() || is_bidi(c)
}

/// Skips the parameter and intermediate bytes of a CSI sequence and its final byte.
fn skip_csi(it: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    for c in it.by_ref() {
        if ('\u{40}'..='\u{7e}').contains(&c) {
            break;
        }
        // A control character inside a CSI aborts it (as terminals do).
        if c.is_control() {
            break;
        }
    }
}

/// Skips an OSC/DCS/SOS/PM/APC string up to BEL, ST (`ESC \`) or the 8-bit ST (U+009C).
fn skip_string(it: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(c) = it.next() {
        match c {
            '\u{7}' | '\u{9c}' => break,
            '\u{1b}' => {
                if it.peek() == Some(&'\\') {
                    it.next();
                }
                break;
            }
            _ => {}
        }
    }
}

/// `s` as it was given, for a message about it: every control or invisible format character
/// (zero-width space and joiners, direction marks, word joiner, BOM, soft hyphen) written as
/// its `\u{…}` escape, so nothing is hidden and nothing reaches the terminal raw. Unlike
/// [`sanitize`], which removes them, the reader sees what was wrong: `\u{1b}[31mred.com`.
pub fn visible(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if is_hidden(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// `true` for a character no reader sees: a control character, or an invisible format
/// character (zero-width space and joiners, direction marks, soft hyphen, word joiner, BOM).
/// A key holding one is refused, not cleaned (issue 34): `ESC[31mred.com` is not `red.com`.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{FEFF}'
        )
}

/// Sanitizes every string inside a JSON value in place (object keys included), with
/// [`sanitize`]. Used on data from the API and from webhooks before it is stored, so that
/// nothing read back from the store can carry a terminal command.
pub fn sanitize_value(v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::String(s) => {
            if s.chars().any(needs_work) {
                *s = sanitize(s);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(sanitize_value),
        Value::Object(m) => {
            if m.keys().any(|k| k.chars().any(needs_work)) {
                let old = std::mem::take(m);
                for (k, mut val) in old {
                    sanitize_value(&mut val);
                    m.insert(sanitize(&k), val);
                }
            } else {
                m.values_mut().for_each(sanitize_value);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::sanitize;

    #[test]
    fn plain_text_is_unchanged() {
        assert_eq!(
            sanitize("Acme GmbH — Zürich 東京"),
            "Acme GmbH — Zürich 東京"
        );
    }

    #[test]
    fn csi_sequences_are_removed() {
        assert_eq!(sanitize("\u{1b}[31mred\u{1b}[0m"), "red");
        assert_eq!(sanitize("a\u{1b}[2J\u{1b}[Hb"), "ab");
        assert_eq!(sanitize("x\u{9b}1;2Hy"), "xy");
    }

    #[test]
    fn osc_and_dcs_strings_are_removed() {
        assert_eq!(sanitize("\u{1b}]0;pwned\u{7}title"), "title");
        assert_eq!(
            sanitize("\u{1b}]8;;http://x\u{1b}\\link\u{1b}]8;;\u{1b}\\"),
            "link"
        );
        assert_eq!(sanitize("a\u{1b}P+q\u{1b}\\b"), "ab");
    }

    #[test]
    fn controls_become_spaces_or_vanish() {
        assert_eq!(sanitize("line1\nline2\r\n\tx"), "line1 line2 x");
        assert_eq!(sanitize("bell\u{7}del\u{7f}nul\u{0}"), "belldelnul");
        assert_eq!(sanitize("\u{202e}evil"), "evil");
        assert_eq!(sanitize("trailing esc\u{1b}"), "trailing esc");
    }
}
