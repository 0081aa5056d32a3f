//! The details of the selected record, in sections, scrollable. It owns its scroll
//! position, moves on keymap actions (close goes back to the results) and draws the Details
//! pane, with the company actions' keys from the keymap.
use crate::tui::theme::theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::tui::keymap::{Action, Keymap};
use crate::tui::msg::ResultRow;
use crate::tui::records::Section;

/// Lines a page key scrolls.
const PAGE: u16 = 10;

/// The details pane's state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Details {
    /// Scroll offset (lines).
    pub scroll: u16,
    /// The largest useful scroll offset as of the last draw (the last line at the bottom of
    /// the pane): `j` and `End` stop there.
    pub max_scroll: std::cell::Cell<u16>,
}

/// What a key on the details wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DetailsEffect {
    /// Nothing beyond a redraw.
    Nothing,
    /// Back to the results.
    Leave,
}

/// The lines of the details of the selected record (empty when nothing is selected).
pub fn lines(row: Option<&ResultRow>, keys: &Keymap) -> Vec<Line<'static>> {
    let Some(row) = row else {
        return vec![];
    };
    let sections: Vec<Section> = row.record.sections();
    let mut out = Vec::new();
    if row.record.company().is_some() {
        let k = keys;
        out.push(Line::from(Span::styled(
            format!(
                "{} people at this company · {} lookalike companies",
                k.keys_of(Action::PeopleAtCompany),
                k.keys_of(Action::Lookalikes)
            ),
            Style::default().fg(theme().dim),
        )));
    }
    if row.record.person().is_some() {
        let k = keys;
        out.push(Line::from(Span::styled(
            format!(
                "{} reveal email · {} reveal phone · {} enrich · {} mark",
                k.first_key_of(Action::RevealEmails),
                k.first_key_of(Action::RevealPhones),
                k.first_key_of(Action::Enrich),
                k.first_key_of(Action::Mark)
            ),
            Style::default().fg(theme().dim),
        )));
    } else {
        let k = keys;
        out.push(Line::from(Span::styled(
            format!(
                "{} enrich · {} warm up · {} mark",
                k.first_key_of(Action::Enrich),
                k.first_key_of(Action::Warmup),
                k.first_key_of(Action::Mark)
            ),
            Style::default().fg(theme().dim),
        )));
    }
    for s in sections {
        out.push(Line::from(Span::styled(
            s.title.to_string(),
            Style::default()
                .fg(theme().heading)
                .add_modifier(Modifier::BOLD),
        )));
        if s.lines.is_empty() {
            out.push(Line::from(Span::styled(
                "  —",
                Style::default().fg(theme().dim),
            )));
        }
        for (label, value) in s.lines {
            let label = if label.is_empty() {
                "    ".to_string()
            } else {
                format!("  {label}: ")
            };
            out.push(Line::from(vec![
                Span::styled(label, Style::default().fg(theme().dim)),
                Span::raw(value),
            ]));
        }
    }
    out
}

/// The `(label, value)` field shown on the line `scroll` of the details of `row` (the first
/// field at or below it: headings are skipped), as [`lines`] lays them out; `None` when no
/// field is there.
pub fn field_at(row: &ResultRow, scroll: u16) -> Option<(String, String)> {
    let mut fields: Vec<Option<(String, String)>> = Vec::new();
    if row.record.company().is_some() {
        fields.push(None);
    }
    for s in row.record.sections() {
        fields.push(None);
        if s.lines.is_empty() {
            fields.push(None);
        }
        fields.extend(s.lines.into_iter().map(Some));
    }
    fields.into_iter().skip(scroll as usize).flatten().next()
}

impl Details {
    /// Handles an action while the details have the focus.
    pub fn handle(&mut self, action: Action) -> DetailsEffect {
        match action {
            Action::Up => self.scroll = self.scroll.saturating_sub(1),
            Action::Down => self.scroll = self.scroll.saturating_add(1),
            Action::PageUp => self.scroll = self.scroll.saturating_sub(PAGE),
            Action::PageDown => self.scroll = self.scroll.saturating_add(PAGE),
            Action::Top => self.scroll = 0,
            Action::Bottom => self.scroll = self.max_scroll.get(),
            Action::Close => return DetailsEffect::Leave,
            _ => {}
        }
        self.scroll = self.scroll.min(self.max_scroll.get());
        DetailsEffect::Nothing
    }

    /// Draws the Details pane for `row` (the selected record, if any); `focused`: it has the
    /// focus and no popup is over it.
    pub fn draw(
        &self,
        f: &mut Frame<'_>,
        area: Rect,
        row: Option<&ResultRow>,
        focused: bool,
        keys: &Keymap,
    ) {
        let block = Block::default()
            .borders(Borders::ALL)
            .title(" Details ")
            .border_style(crate::tui::view::border_style(focused));
        let content = lines(row, keys);
        if content.is_empty() {
            let p = Paragraph::new(Line::from(Span::styled(
                "Select a row to see everything about it.",
                Style::default().fg(theme().dim),
            )))
            .block(block);
            f.render_widget(p, area);
            return;
        }
        // Never scroll past the point where the last line is at the bottom of the pane. Lines
        // are counted as wrapped at the pane's width.
        let inner = block.inner(area);
        let width = inner.width.max(1) as usize;
        let wrapped: usize = content.iter().map(|l| wrapped_rows(l, width)).sum();
        let max = wrapped
            .saturating_sub(inner.height as usize)
            .min(u16::MAX as usize) as u16;
        self.max_scroll.set(max);
        let p = Paragraph::new(content)
            .block(block)
            .wrap(Wrap { trim: false })
            .scroll((self.scroll.min(max), 0));
        f.render_widget(p, area);
    }
}

/// Rows `line` takes when word-wrapped at `width` columns (greedy, as the pane wraps: words
/// move to the next row whole, a word longer than a row is cut).
fn wrapped_rows(line: &Line<'_>, width: usize) -> usize {
    use unicode_width::UnicodeWidthStr;
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    if text.width() <= width {
        return 1;
    }
    let (mut rows, mut used) = (1, 0usize);
    for word in text.split_inclusive(' ') {
        let w = word.width();
        let bare = word.trim_end().width();
        if used > 0 && used + bare > width {
            rows += 1;
            used = 0;
        }
        if w > width {
            rows += (used + w).div_ceil(width) - 1;
            used = (used + w) % width;
        } else {
            used += w;
        }
    }
    rows
}
