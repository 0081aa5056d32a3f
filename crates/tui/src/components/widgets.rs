//! Small drawing helpers the components share: a centred popup rectangle, a titled frame,
//! dim text, the highlight of a selected line and a one-field prompt.
use crate::theme::theme;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};

use crate::keymap::KeyAction;

/// A `w` × `h` rectangle centred in `area` (clipped to it).
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// A one-line text prompt `width` wide, centred in `area`: a frame titled `title`, the text
/// field `input`, a dim `hint` line under it, then the `choices` lines, if any (the save-name
/// and add-to-list prompts).
pub fn draw_prompt(
    f: &mut Frame<'_>,
    area: Rect,
    width: u16,
    title: &str,
    input: &ratatui_textarea::TextArea<'static>,
    hint: String,
    choices: Vec<Line<'static>>,
) {
    let r = centered(area, width, 5 + choices.len() as u16);
    f.render_widget(ratatui::widgets::Clear, r);
    let block = frame(title, theme().accent);
    let inner = block.inner(r);
    f.render_widget(block, r);
    let [field, below, rest] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(0),
    ])
    .areas(inner);
    f.render_widget(input, field);
    f.render_widget(Line::from(dim(hint)), below);
    if !choices.is_empty() {
        f.render_widget(ratatui::widgets::Paragraph::new(choices), rest);
    }
}

/// A bordered block titled `title` in `color`.
pub fn frame<'a>(title: &'a str, color: Color) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .title(title)
        .border_style(Style::default().fg(color).add_modifier(Modifier::BOLD))
}

/// Dim text (hints, placeholders).
pub fn dim(s: impl Into<String>) -> Span<'static> {
    Span::styled(s.into(), Style::default().fg(theme().dim))
}

/// `→ path` (sanitized) as dim lines of at most `width` characters each: a file's whole path,
/// in as many lines as it takes, never cut (the export and save-as popups).
pub fn path_lines(path: &std::path::Path, width: usize) -> Vec<Line<'static>> {
    let chars: Vec<char> = format!(
        " → {}",
        prospect_common::sanitize::sanitize(&path.display().to_string())
    )
    .chars()
    .collect();
    chars
        .chunks(width.max(1))
        .map(|c| Line::from(dim(c.iter().collect::<String>())))
        .collect()
}

/// The style of the highlighted line of a list.
pub fn selected() -> Style {
    theme().selection(true).add_modifier(Modifier::BOLD)
}

/// The scroll position of a read-only list drawn in a window of a few lines (help, activity):
/// the first line shown, kept within `0..=max`, where `max` (lines − window height) is learnt
/// at each draw, so `Bottom` then `Up` moves at once.
#[derive(Debug, Clone, Default)]
pub struct Scroll {
    top: usize,
    max: std::cell::Cell<usize>,
}

impl Scroll {
    /// Lines moved by `PageUp` / `PageDown`.
    const PAGE: usize = 10;

    /// Moves on a scroll action (`Up`, `Down`, `PageUp`, `PageDown`, `Top`, `Bottom`);
    /// `false` for any other action.
    pub fn handle(&mut self, action: KeyAction) -> bool {
        let max = self.max.get();
        self.top = match action {
            KeyAction::Up => self.top.saturating_sub(1),
            KeyAction::Down => self.top.saturating_add(1).min(max),
            KeyAction::PageUp => self.top.saturating_sub(Self::PAGE),
            KeyAction::PageDown => self.top.saturating_add(Self::PAGE).min(max),
            KeyAction::Top => 0,
            KeyAction::Bottom => max,
            _ => return false,
        };
        true
    }

    /// The first line to show of `len` lines in a window of `height` lines (and remembers the
    /// largest first line for the next move).
    pub fn window(&self, len: usize, height: usize) -> usize {
        let max = len.saturating_sub(height);
        self.max.set(max);
        self.top.min(max)
    }
}

/// Keeps `sel` inside the window `[offset, offset + height)`, moving `offset` as little as possible.
pub fn follow(offset: usize, sel: usize, height: usize) -> usize {
    if height == 0 {
        return sel;
    }
    if sel < offset {
        sel
    } else if sel >= offset + height {
        sel + 1 - height
    } else {
        offset
    }
}

/// Cuts a line to `width` columns, ending with `…` when cut.
pub fn truncate(line: Line<'_>, width: usize) -> Line<'_> {
    if line.width() <= width {
        return line;
    }
    let mut out = Vec::new();
    let mut used = 0;
    for span in line.spans {
        let w = span.width();
        if used + w < width {
            used += w;
            out.push(span);
            continue;
        }
        let mut s = String::new();
        for c in span.content.chars() {
            let cw = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
            if used + cw + 1 > width {
                break;
            }
            used += cw;
            s.push(c);
        }
        s.push('…');
        out.push(Span::styled(s, span.style));
        break;
    }
    Line::from(out).style(line.style)
}

/// Cuts `s` to `w` columns (by characters), with `…` when cut.
/// `s` within `w` columns, cut at a word when it is longer, with `…` (a status line on a
/// narrow screen: issue 38 saw it cut mid-word); a single word longer than `w` is cut inside.
pub fn fit_words(s: &str, w: usize) -> String {
    use unicode_width::UnicodeWidthStr;
    if s.width() <= w {
        return s.to_string();
    }
    let mut out = String::new();
    for word in s.split_inclusive(' ') {
        if out.width() + word.trim_end().width() + 1 > w {
            break;
        }
        out.push_str(word);
    }
    let out = out
        .trim_end()
        .trim_end_matches(['·', ',', ';', ':'])
        .trim_end();
    if out.is_empty() {
        return fit(s, w);
    }
    format!("{out}…")
}

pub fn fit(s: &str, w: usize) -> String {
    if s.chars().count() <= w {
        return s.to_string();
    }
    let mut out: String = s.chars().take(w.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 38: a status line too long for an 80-column screen is cut at a word, with `…`.
    #[test]
    fn a_long_line_is_cut_at_a_word() {
        let s = "Reveal of 25 emails sent (≤ 25 email credits); they arrive by webhook · 3 from the store";
        let cut = fit_words(s, 79);
        assert_eq!(
            cut,
            "Reveal of 25 emails sent (≤ 25 email credits); they arrive by webhook · 3 from…"
        );
        assert!(unicode_width::UnicodeWidthStr::width(cut.as_str()) <= 79);
        assert_eq!(fit_words("short", 79), "short");
        assert_eq!(fit_words("abcdefghij", 5), "abcd…");
    }
}
