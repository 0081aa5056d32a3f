//! The details of the selected record, in sections, scrollable. It owns its scroll
//! position, moves on keymap actions (close goes back to the results) and draws the Details
//! pane, with the company actions' keys from the keymap.
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::tui::keymap::{Action, Keymap};
use crate::tui::msg::ResultRow;
use crate::tui::records::Section;

/// Lines a page key scrolls.
const PAGE: u16 = 10;

/// The details pane's state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Details {
    /// Scroll offset (lines).
    pub scroll: u16,
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
            Style::default().fg(Color::DarkGray),
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
            Style::default().fg(Color::DarkGray),
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
            Style::default().fg(Color::DarkGray),
        )));
    }
    for s in sections {
        out.push(Line::from(Span::styled(
            s.title.to_string(),
            Style::default()
                .fg(Color::Blue)
                .add_modifier(Modifier::BOLD),
        )));
        if s.lines.is_empty() {
            out.push(Line::from(Span::styled(
                "  —",
                Style::default().fg(Color::DarkGray),
            )));
        }
        for (label, value) in s.lines {
            let label = if label.is_empty() {
                "    ".to_string()
            } else {
                format!("  {label}: ")
            };
            out.push(Line::from(vec![
                Span::styled(label, Style::default().fg(Color::DarkGray)),
                Span::raw(value),
            ]));
        }
    }
    out
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
            Action::Close => return DetailsEffect::Leave,
            _ => {}
        }
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
                Style::default().fg(Color::DarkGray),
            )))
            .block(block);
            f.render_widget(p, area);
            return;
        }
        // Never scroll past the last line (wrapping can only add lines, so this is a safe bound).
        let max = content.len().saturating_sub(1).min(u16::MAX as usize) as u16;
        let p = Paragraph::new(content)
            .block(block)
            .wrap(Wrap { trim: false })
            .scroll((self.scroll.min(max), 0));
        f.render_widget(p, area);
    }
}
