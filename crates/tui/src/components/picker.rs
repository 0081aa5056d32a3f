//! The one picker: a list of options narrowed by fuzzy typing (nucleo), moved with the text
//! layer's up / down / page keys, chosen with submit. Used by the member editor (closed sets,
//! one value or many) and by "find a filter member".
use crate::theme::theme;
use crossterm::event::KeyEvent;
use nucleo_matcher::pattern::{AtomKind, CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config as MatcherConfig, Matcher, Utf32Str};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use ratatui_textarea::TextArea;
use serde_json::Value;

use super::text::{input_text, textarea, type_key};
use super::widgets::{centered, dim, frame, selected};
use super::{Component, Ctx, Handled, Hint, Input, hint_line};
use crate::keymap::{Keymap, TextAction};
use crate::schema::Opt;
use prospect_common::sanitize::sanitize;

/// Rows a page key moves.
const PAGE: usize = 10;

/// Picker over a closed set, narrowed by fuzzy typing.
#[derive(Debug)]
pub struct Picker {
    /// Many values (lists) or one (single members).
    pub multi: bool,
    /// All options.
    pub options: Vec<Opt>,
    /// Chosen values.
    pub chosen: Vec<Value>,
    /// The narrowing text.
    pub query: TextArea<'static>,
    /// Indexes into `options` matching the query, best first.
    pub filtered: Vec<usize>,
    /// Highlighted position in `filtered`.
    pub sel: usize,
    /// The set needs `/v2/data-fields`, which has not loaded.
    pub waiting_for_data: bool,
}

/// What a key did to a picker.
#[derive(Debug, Clone, PartialEq)]
pub enum PickerEvent {
    /// The highlight moved or the query changed: redraw only.
    Changed,
    /// Submit on the highlighted option.
    Picked(Opt),
    /// Cancel: the picker should close.
    Cancelled,
    /// Nothing happened (submit on an empty list, a key that changes nothing).
    Nothing,
}

/// Fuzzy-narrows `options` by `query` (nucleo), best first; all options for an empty query.
/// An option whose first word is the query itself comes before the fuzzy matches (typing `de`
/// in countries gives `de · Germany` before `cd · Congo`; issue 38).
pub fn fuzzy_filter(options: &[Opt], query: &str) -> Vec<usize> {
    if query.trim().is_empty() {
        return (0..options.len()).collect();
    }
    let mut matcher = Matcher::new(MatcherConfig::DEFAULT);
    let pattern = Pattern::new(
        query,
        CaseMatching::Ignore,
        Normalization::Smart,
        AtomKind::Fuzzy,
    );
    let mut buf = Vec::new();
    let q = query.trim();
    let exact = |label: &str| {
        label
            .split(|c: char| c.is_whitespace() || c == '·')
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case(q))
    };
    let mut scored: Vec<(bool, u32, usize)> = options
        .iter()
        .enumerate()
        .filter_map(|(i, o)| {
            pattern
                .score(Utf32Str::new(&o.label, &mut buf), &mut matcher)
                .map(|s| (exact(&o.label), s, i))
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    scored.into_iter().map(|(_, _, i)| i).collect()
}

impl Picker {
    /// A picker over `options` with `chosen` already chosen, nothing typed.
    pub fn new(options: Vec<Opt>, multi: bool, chosen: Vec<Value>) -> Picker {
        Picker {
            multi,
            filtered: (0..options.len()).collect(),
            options,
            chosen,
            query: textarea(""),
            sel: 0,
            waiting_for_data: false,
        }
    }

    /// The highlighted option.
    pub fn highlighted(&self) -> Option<&Opt> {
        self.filtered
            .get(self.sel)
            .and_then(|&i| self.options.get(i))
    }

    /// Replaces the options (reference data arrived), keeping the query.
    pub fn set_options(&mut self, options: Vec<Opt>) {
        self.options = options;
        self.refilter();
    }

    fn refilter(&mut self) {
        self.filtered = fuzzy_filter(&self.options, &input_text(&self.query));
        self.sel = 0;
    }

    /// Chooses `value` if it was not chosen, else unchooses it (lists).
    pub fn toggle(&mut self, value: Value) {
        if let Some(pos) = self.chosen.iter().position(|v| *v == value) {
            self.chosen.remove(pos);
        } else {
            self.chosen.push(value);
        }
    }

    /// Handles a key: `action` is what the text layer made of it (`None`: text for the query).
    /// Text actions the picker has no use for (next field, remove last) are text too.
    pub fn handle(&mut self, key: KeyEvent, action: Option<TextAction>) -> PickerEvent {
        let last = self.filtered.len().saturating_sub(1);
        match action {
            Some(TextAction::Cancel) => PickerEvent::Cancelled,
            Some(TextAction::Up) => {
                self.sel = self.sel.saturating_sub(1);
                PickerEvent::Changed
            }
            Some(TextAction::Down) => {
                self.sel = (self.sel + 1).min(last);
                PickerEvent::Changed
            }
            Some(TextAction::PageUp) => {
                self.sel = self.sel.saturating_sub(PAGE);
                PickerEvent::Changed
            }
            Some(TextAction::PageDown) => {
                self.sel = (self.sel + PAGE).min(last);
                PickerEvent::Changed
            }
            Some(TextAction::Submit) => match self.highlighted() {
                Some(o) => PickerEvent::Picked(o.clone()),
                None => PickerEvent::Nothing,
            },
            _ => match type_key(&mut self.query, key) {
                Some(_) => {
                    self.refilter();
                    PickerEvent::Changed
                }
                None => PickerEvent::Nothing,
            },
        }
    }

    /// Pasted text goes into the query.
    pub fn paste(&mut self, s: &str) {
        self.query.insert_str(s);
        self.refilter();
    }

    /// Draws the query line: `prompt` (`/ `, `: `) and the field.
    pub fn draw_query(&self, f: &mut Frame<'_>, area: Rect, prompt: &'static str) {
        let [p, field] =
            Layout::horizontal([Constraint::Length(2), Constraint::Min(1)]).areas(area);
        f.render_widget(Span::styled(prompt, Style::default().fg(theme().accent)), p);
        f.render_widget(&self.query, field);
    }

    /// Draws the narrowed options, the highlighted one marked, following the highlight;
    /// `marks` shows `[x]` / `[ ]` for chosen ones; `empty` is shown when nothing is listed.
    pub fn draw_list(&self, f: &mut Frame<'_>, area: Rect, marks: bool, empty: Option<Line<'_>>) {
        let h = area.height as usize;
        let offset = super::widgets::follow(0, self.sel, h);
        let mut lines: Vec<Line> = self
            .filtered
            .iter()
            .enumerate()
            .skip(offset)
            .take(h)
            .map(|(pos, &i)| {
                let o = &self.options[i];
                let mark = match (marks, self.chosen.contains(&o.value)) {
                    (false, _) => " ",
                    (true, true) => "[x] ",
                    (true, false) => "[ ] ",
                };
                let l = Line::from(format!("{mark}{}", sanitize(&o.label)));
                if pos == self.sel {
                    l.style(selected())
                } else {
                    l
                }
            })
            .collect();
        if lines.is_empty()
            && let Some(e) = empty
        {
            lines.push(e);
        }
        f.render_widget(Paragraph::new(lines), area);
    }

    /// A picker popup in `r`: framed `title`, the query after `prompt`, the narrowed options,
    /// and the `hints` line.
    fn draw_popup(
        &self,
        f: &mut Frame<'_>,
        r: Rect,
        title: &str,
        prompt: &'static str,
        hints: &[Hint],
        keys: &Keymap,
    ) {
        f.render_widget(Clear, r);
        let block = frame(title, theme().accent);
        let inner = block.inner(r);
        f.render_widget(block, r);
        let [input, list, hint] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(1),
            Constraint::Length(1),
        ])
        .areas(inner);
        self.draw_query(f, input, prompt);
        self.draw_list(f, list, false, Some(Line::from(dim("nothing matches"))));
        f.render_widget(
            Line::from(dim(format!("type to narrow · {}", hint_line(hints, keys)))),
            hint,
        );
    }
}

/// Which popup a [`PickerPopup`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickerKind {
    /// "Find a filter member" (`/`): each option's value is its form row.
    Find,
    /// The command palette (`:`, `Ctrl-p`): each option's value is an action's name.
    Palette,
}

/// A picker shown as a popup of its own: find-a-member or the command palette.
#[derive(Debug)]
pub struct PickerPopup {
    /// The options, query and highlight.
    pub picker: Picker,
    /// Which popup it is (its title, prompt and what submit does).
    pub kind: PickerKind,
}

impl PickerPopup {
    /// The title, prompt, verb of submit and size of the popup.
    fn look(&self) -> (&'static str, &'static str, &'static str, u16, u16) {
        match self.kind {
            PickerKind::Find => (" Find a filter member ", "/ ", "edits", 60, 18),
            PickerKind::Palette => (" Commands ", ": ", "runs", 100, 20),
        }
    }
}

impl Component for PickerPopup {
    type Effect = PickerEvent;

    /// Keys go to the picker (its query, highlight, submit and cancel); pasted text into the
    /// query.
    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<PickerEvent> {
        match input {
            Input::Key { key, text, .. } => Handled::Consumed(self.picker.handle(key, text)),
            Input::Paste(raw) => {
                self.picker.paste(&sanitize(raw));
                Handled::Consumed(PickerEvent::Changed)
            }
            Input::KeyAction(_) => Handled::Ignored,
        }
    }

    /// Draws the popup centred in `area`: the query, the narrowed options (for the palette,
    /// each with its keys and why it cannot run here when it cannot) and the keys.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let (title, prompt, _, w, h) = self.look();
        let r = centered(area, w, h);
        self.picker
            .draw_popup(f, r, title, prompt, &self.hints(), ctx.keys);
    }

    fn hints(&self) -> Vec<Hint> {
        vec![
            Hint::Text(TextAction::Submit, self.look().2),
            Hint::Text(TextAction::Cancel, "closes"),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 38: `de` in the countries picks Germany first, not Congo (`cd`), whose label
    /// matches the letters too.
    #[test]
    fn a_code_typed_whole_comes_first() {
        let options: Vec<Opt> = ["cd", "de", "dk"]
            .iter()
            .map(|c| Opt {
                label: crate::countries::label(c),
                value: Value::String(c.to_string()),
            })
            .collect();
        let order = fuzzy_filter(&options, "de");
        assert_eq!(
            options[order[0]].label, "de · Germany (Deutschland)",
            "{order:?}"
        );
        assert_eq!(fuzzy_filter(&options, "").len(), 3);
    }
}
