//! The details of the selected record, in sections, with a field cursor (issue 19,
//! "Editing"): up / down move it from field to field, the pane scrolls to keep it in view, and
//! the copy key copies the highlighted field. It owns its cursor and scroll position, moves on
//! keymap actions (close goes back to the results) and draws the Details pane, with the
//! company actions' keys from the keymap.
use crate::theme::theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::{Component, Ctx, Handled, Hint, Input};
use crate::keymap::{KeyAction, Keymap};
use crate::msg::ResultRow;
use crate::records::Section;

/// Fields a page key moves the cursor.
const PAGE: usize = 10;

/// The details pane's state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Details {
    /// The highlighted field: its index among the record's `(label, value)` fields, in the
    /// order [`lines`] lays them out (headings and hints are not fields).
    pub cursor: usize,
    /// Scroll offset (wrapped rows) as of the last draw: it follows the cursor.
    pub scroll: std::cell::Cell<u16>,
    /// The largest useful scroll offset as of the last draw (the last line at the bottom of
    /// the pane).
    pub max_scroll: std::cell::Cell<u16>,
    /// Fields of the record drawn last: the cursor stops at the last one.
    pub fields: std::cell::Cell<usize>,
}

/// What a key on the details wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DetailsEffect {
    /// Nothing beyond a redraw.
    Nothing,
    /// Back to the results.
    Leave,
}

/// The lines of the details of the selected record (empty when nothing is selected), and the
/// index of the line of each field, in order.
pub fn lines(row: Option<&ResultRow>, keys: &Keymap) -> (Vec<Line<'static>>, Vec<usize>) {
    let mut at = Vec::new();
    let Some(row) = row else {
        return (vec![], at);
    };
    let sections: Vec<Section> = row.record.sections();
    let mut out = Vec::new();
    if row.record.company().is_some() {
        let k = keys;
        out.push(Line::from(Span::styled(
            format!(
                "{} people at this company · {} lookalike companies",
                k.keys_of(KeyAction::PeopleAtCompany),
                k.keys_of(KeyAction::Lookalikes)
            ),
            Style::default().fg(theme().dim),
        )));
    }
    if row.record.person().is_some() {
        let k = keys;
        out.push(Line::from(Span::styled(
            format!(
                "{} reveal email · {} reveal phone · {} enrich · {} mark",
                k.first_key_of(KeyAction::RevealEmails),
                k.first_key_of(KeyAction::RevealPhones),
                k.first_key_of(KeyAction::Enrich),
                k.first_key_of(KeyAction::Mark)
            ),
            Style::default().fg(theme().dim),
        )));
    } else {
        let k = keys;
        out.push(Line::from(Span::styled(
            format!(
                "{} enrich · {} warm up · {} mark",
                k.first_key_of(KeyAction::Enrich),
                k.first_key_of(KeyAction::Warmup),
                k.first_key_of(KeyAction::Mark)
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
            at.push(out.len());
            out.push(Line::from(vec![
                Span::styled(label, Style::default().fg(theme().dim)),
                Span::raw(value),
            ]));
        }
    }
    (out, at)
}

/// The `(label, value)` field at `cursor` among the fields of `row` (as [`lines`] lays them
/// out); `None` when it has fewer fields.
pub fn field_at(row: &ResultRow, cursor: usize) -> Option<(String, String)> {
    row.record
        .sections()
        .into_iter()
        .flat_map(|s| s.lines)
        .nth(cursor)
}

/// What `y` copies of a field: its value as shown, but of a contact (`email`, `phone`) the
/// address or numbers alone, without the status shown beside them (`[verified]`), and nothing
/// of one not revealed or not found (issue 38).
pub fn copy_text(label: &str, value: String) -> String {
    if !matches!(label, "email" | "phone") {
        return value;
    }
    let shown = value.rsplit_once(" [").map_or(value.as_str(), |(v, _)| v);
    match shown {
        "—" | "not revealed" => String::new(),
        v => v.to_string(),
    }
}

impl Details {
    /// Back to the first field, at the top (another record is shown).
    pub fn reset(&mut self) {
        self.cursor = 0;
        self.scroll.set(0);
    }

    /// The highlighted field of `row`.
    pub fn field(&self, row: &ResultRow) -> Option<(String, String)> {
        field_at(row, self.cursor)
    }

    /// Moves the cursor on an action; close leaves for the results.
    fn on_action(&mut self, action: KeyAction) -> DetailsEffect {
        let last = self.fields.get().saturating_sub(1);
        match action {
            KeyAction::Up => self.cursor = self.cursor.saturating_sub(1),
            KeyAction::Down => self.cursor = self.cursor.saturating_add(1),
            KeyAction::PageUp => self.cursor = self.cursor.saturating_sub(PAGE),
            KeyAction::PageDown => self.cursor = self.cursor.saturating_add(PAGE),
            KeyAction::Top => self.cursor = 0,
            KeyAction::Bottom => self.cursor = last,
            KeyAction::Close => return DetailsEffect::Leave,
            _ => {}
        }
        self.cursor = self.cursor.min(last);
        DetailsEffect::Nothing
    }
}

impl Component for Details {
    type Effect = DetailsEffect;

    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<DetailsEffect> {
        match input.action() {
            Some(action) => Handled::Consumed(self.on_action(action)),
            None => Handled::Ignored,
        }
    }

    /// Draws the Details pane for the selected record (`ctx.selected`), its highlighted field
    /// in view (and marked when the pane has the keyboard, `ctx.focused`).
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let focused = ctx.focused;
        let block = Block::default()
            .borders(Borders::ALL)
            .title(" Details ")
            .border_style(crate::theme::border_style(focused));
        let (mut content, at) = lines(ctx.selected, ctx.keys);
        self.fields.set(at.len());
        if content.is_empty() {
            let p = Paragraph::new(Line::from(Span::styled(
                "Select a row to see everything about it.",
                Style::default().fg(theme().dim),
            )))
            .block(block);
            f.render_widget(p, area);
            return;
        }
        let cursor = self.cursor.min(at.len().saturating_sub(1));
        if focused && let Some(&i) = at.get(cursor) {
            let l = std::mem::take(&mut content[i]);
            content[i] = l.style(super::widgets::selected());
        }
        // Lines are counted as wrapped at the pane's width: the cursor's rows are kept in
        // view, and the pane never scrolls past the point where the last line is at its bottom.
        let inner = block.inner(area);
        let width = inner.width.max(1) as usize;
        let rows: Vec<usize> = content.iter().map(|l| wrapped_rows(l, width)).collect();
        let wrapped: usize = rows.iter().sum();
        let height = inner.height as usize;
        let max = wrapped.saturating_sub(height).min(u16::MAX as usize) as u16;
        self.max_scroll.set(max);
        let (top, bottom) = match at.get(cursor) {
            // The hint line and the section heading above the first field stay in view, and
            // whatever follows the last field (empty sections) comes into view with it.
            Some(_) if cursor == 0 => (0, 0),
            Some(_) if cursor + 1 == at.len() => (wrapped, wrapped),
            Some(&i) => {
                let top: usize = rows[..i].iter().sum();
                (top, top + rows[i])
            }
            None => (0, 0),
        };
        let mut scroll = self.scroll.get() as usize;
        if top < scroll {
            scroll = top;
        } else if bottom > scroll + height {
            scroll = bottom - height;
        }
        let scroll = (scroll as u16).min(max);
        self.scroll.set(scroll);
        let p = Paragraph::new(content)
            .block(block)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0));
        f.render_widget(p, area);
    }

    fn hints(&self) -> Vec<Hint> {
        vec![
            Hint::Actions(&[KeyAction::Up, KeyAction::Down], "field"),
            Hint::KeyAction(KeyAction::CopyField, "copies it"),
            Hint::KeyAction(KeyAction::Close, "back to the results"),
        ]
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
