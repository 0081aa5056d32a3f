//! The "Add to list" prompt (`+`, issue 16): the name of the account or contact list that the
//! marked rows (or the selected one) go into; a new name creates the list. The state owner
//! hands the name and the rows' keys to the store ([`crate::msg::Call::AddToList`]).
use crate::theme::theme;
use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use ratatui_textarea::TextArea;

use super::text::{input_text, textarea};
use super::widgets::{centered, dim, draw_prompt, fit, frame, selected};
use super::{Component, Ctx, Handled, Hint, Input, hint_line};
use crate::keymap::{KeyAction, Keymap, TextAction};
use prospect_common::sanitize::sanitize;
use prospect_core::owned::{ListKind, ListSummary};
use prospect_core::suppress::CategoryRow;

/// The prompt, with the rows it adds.
#[derive(Debug)]
pub struct ListPrompt {
    /// The list name being typed.
    pub input: TextArea<'static>,
    /// Accounts (companies' domains) or contacts (people's ids).
    pub kind: ListKind,
    /// The members to add.
    pub keys: Vec<String>,
    /// The names of the lists of this kind already in the store (loaded after the prompt
    /// opens): up / down pick one into the field.
    pub existing: Vec<String>,
    /// The picked one of `existing`.
    pub pick: Option<usize>,
}

/// Lists of the prompt's kind shown under its field.
const PICKS_SHOWN: usize = 6;

/// What the prompt wants.
#[derive(Debug, Clone, PartialEq)]
pub enum ListPromptEffect {
    /// Keep typing.
    Nothing,
    /// Closed without adding.
    Cancelled,
    /// Add the rows to the list of this name.
    Add(String),
    /// The name is empty: say so, keep the prompt.
    Invalid(String),
}

impl ListPrompt {
    /// An empty prompt for `keys` of `kind`.
    pub fn new(kind: ListKind, keys: Vec<String>) -> ListPrompt {
        ListPrompt {
            input: textarea(""),
            kind,
            keys,
            existing: Vec::new(),
            pick: None,
        }
    }

    /// The lists in the store arrived: those of this prompt's kind can be picked.
    pub fn lists_loaded(&mut self, lists: &[ListSummary]) {
        self.existing = lists
            .iter()
            .filter(|l| l.kind == self.kind)
            .map(|l| sanitize(&l.name))
            .collect();
        self.pick = None;
    }

    /// Picks the list `delta` away from the picked one into the field.
    fn move_pick(&mut self, delta: isize) {
        let n = self.existing.len();
        if n == 0 {
            return;
        }
        let next = match self.pick {
            None if delta > 0 => 0,
            None => n - 1,
            Some(i) => (i as isize + delta).rem_euclid(n as isize) as usize,
        };
        self.pick = Some(next);
        self.input = textarea(&self.existing[next]);
    }

    /// Handles a key (`action` from the text layer).
    fn on_key(&mut self, key: KeyEvent, action: Option<TextAction>) -> ListPromptEffect {
        match action {
            Some(TextAction::Cancel) => ListPromptEffect::Cancelled,
            Some(TextAction::Submit) => {
                let name = input_text(&self.input).trim().to_string();
                if name.is_empty() {
                    ListPromptEffect::Invalid("a list needs a name".into())
                } else {
                    ListPromptEffect::Add(name)
                }
            }
            Some(TextAction::Down) => {
                self.move_pick(1);
                ListPromptEffect::Nothing
            }
            Some(TextAction::Up) => {
                self.move_pick(-1);
                ListPromptEffect::Nothing
            }
            _ => {
                self.input.input(key);
                self.pick = None;
                ListPromptEffect::Nothing
            }
        }
    }

    /// The lines under the field: the existing lists of this kind (the picked one
    /// highlighted), or none.
    fn choices(&self, keys: &Keymap) -> Vec<Line<'static>> {
        if self.existing.is_empty() {
            return Vec::new();
        }
        let sel = self.pick.unwrap_or(0);
        let offset = super::widgets::follow(0, sel, PICKS_SHOWN);
        let mut out = vec![Line::from(dim(format!(
            "{} {} pick one of your {} lists:",
            keys.text_keys_of(TextAction::Up),
            keys.text_keys_of(TextAction::Down),
            self.kind.as_str()
        )))];
        out.extend(
            self.existing
                .iter()
                .enumerate()
                .skip(offset)
                .take(PICKS_SHOWN)
                .map(|(i, name)| {
                    let l = Line::from(format!("  {}", fit(name, 58)));
                    if self.pick == Some(i) {
                        l.style(selected())
                    } else {
                        l
                    }
                }),
        );
        out
    }
}

impl Component for ListPrompt {
    type Effect = ListPromptEffect;

    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<ListPromptEffect> {
        match input {
            Input::Key { key, text, .. } => Handled::Consumed(self.on_key(key, text)),
            Input::Paste(raw) => {
                self.input.insert_str(sanitize(raw));
                self.pick = None;
                Handled::Consumed(ListPromptEffect::Nothing)
            }
            Input::KeyAction(_) => Handled::Ignored,
        }
    }

    /// Draws the prompt: the name field, what Enter adds where, the lists to pick from.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let keys = ctx.keys;

        let noun = match self.kind {
            ListKind::Accounts => "account",
            ListKind::Contacts => "contact",
        };
        draw_prompt(
            f,
            area,
            64,
            &format!(" Add {} to {noun} list ", self.keys.len()),
            &self.input,
            hint_line(&self.hints(), keys),
            self.choices(keys),
        );
    }

    fn hints(&self) -> Vec<Hint> {
        vec![
            Hint::Text(TextAction::Submit, "adds (a new name creates the list)"),
            Hint::Text(TextAction::Cancel, "cancels"),
        ]
    }
}

/// The lists popup (issue 16): every named list with its kind and member count, and the
/// suppression categories with their counts, read from the store off the UI loop. Enter opens
/// the highlighted list in its results tab at no cost.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListsPopup {
    /// The lists by name; `None` while they load.
    pub lists: Option<Vec<ListSummary>>,
    /// The suppression categories with their counts.
    pub suppression: Vec<CategoryRow>,
    /// Highlighted list.
    pub sel: usize,
    /// Why the store could not be read.
    pub error: Option<String>,
}

/// What the lists popup wants.
#[derive(Debug, Clone, PartialEq)]
pub enum ListsEffect {
    /// Nothing to do.
    Nothing,
    /// Closed.
    Closed,
    /// Open the list of this name in its tab.
    Open(String),
}

impl ListsPopup {
    /// The listing arrived (or failed).
    pub fn loaded(&mut self, result: Result<(Vec<ListSummary>, Vec<CategoryRow>), String>) {
        match result {
            Ok((lists, suppression)) => {
                self.sel = self.sel.min(lists.len().saturating_sub(1));
                self.lists = Some(lists);
                self.suppression = suppression;
                self.error = None;
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Handles an action.
    fn on_action(&mut self, action: KeyAction) -> ListsEffect {
        let last = self.lists.as_ref().map_or(0, Vec::len).saturating_sub(1);
        match action {
            KeyAction::Up => self.sel = self.sel.saturating_sub(1),
            KeyAction::Down => self.sel = (self.sel + 1).min(last),
            KeyAction::Top => self.sel = 0,
            KeyAction::Bottom => self.sel = last,
            KeyAction::Close | KeyAction::Lists | KeyAction::Quit => return ListsEffect::Closed,
            KeyAction::Enter => {
                if let Some(l) = self.lists.as_ref().and_then(|l| l.get(self.sel)) {
                    return ListsEffect::Open(l.name.clone());
                }
            }
            _ => {}
        }
        ListsEffect::Nothing
    }
}

impl Component for ListsPopup {
    type Effect = ListsEffect;

    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<ListsEffect> {
        let Some(action) = input.action() else {
            return Handled::Ignored;
        };
        Handled::Consumed(self.on_action(action))
    }

    /// Draws the popup: the lists, then the suppression categories, then the keys.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let keys = ctx.keys;

        let lists = self.lists.as_deref().unwrap_or(&[]);
        let body = lists.len().max(1) + self.suppression.len().max(1) + 3;
        let r = centered(
            area,
            96,
            (body as u16 + 3).clamp(8, area.height.saturating_sub(2)),
        );
        f.render_widget(Clear, r);
        let block = frame(
            " Lists and suppression (from the store, no cost) ",
            theme().accent,
        );
        let inner = block.inner(r);
        f.render_widget(block, r);
        let [list_area, hint] =
            Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(inner);
        let head = Style::default()
            .fg(theme().heading)
            .add_modifier(Modifier::BOLD);
        let w = inner.width as usize;
        let name_w = w.saturating_sub(10 + 10 + 16 + 4).clamp(8, 48);
        let row = |name: &str, kind: &str, members: &str, created: &str| {
            format!(
                " {:<name_w$} {:<10}{:>10} {:>16}",
                fit(name, name_w),
                kind,
                members,
                fit(created, 16)
            )
        };
        let mut lines = vec![Line::from(Span::styled(
            row("list", "kind", "members", "created"),
            head,
        ))];
        let now = chrono::Utc::now();
        match (&self.lists, &self.error) {
            (_, Some(e)) => lines.push(Line::from(Span::styled(
                format!(" The store could not be read: {}", sanitize(e)),
                Style::default().fg(theme().bad),
            ))),
            (None, None) => lines.push(Line::from(dim(" reading the store…"))),
            (Some(l), None) if l.is_empty() => lines.push(Line::from(dim(format!(
                " No lists yet: mark rows ({}) and add them with {}.",
                keys.first_key_of(KeyAction::Mark),
                keys.first_key_of(KeyAction::AddToList)
            )))),
            (Some(l), None) => {
                // The suppression section keeps its lines: the lists scroll in what is left.
                let room = (list_area.height as usize)
                    .saturating_sub(self.suppression.len().max(1) + 3)
                    .max(1);
                let offset = super::widgets::follow(0, self.sel, room);
                for (i, s) in l.iter().enumerate().skip(offset).take(room) {
                    let age = prospect_core::spend::describe_age(now - s.created_at);
                    let line = Line::from(row(
                        &sanitize(&s.name),
                        s.kind.as_str(),
                        &s.members.to_string(),
                        age.strip_suffix(" old").unwrap_or(&age),
                    ));
                    lines.push(if i == self.sel {
                        line.style(selected())
                    } else {
                        line
                    });
                }
            }
        }
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(
            " Suppression: never searched, revealed or charged",
            head,
        )));
        if self.suppression.is_empty() {
            lines.push(Line::from(dim(
                " No suppression yet: `prospect suppress import FILE --category customers`.",
            )));
        }
        for c in &self.suppression {
            let parts: Vec<String> = [
                (c.domains, "domains"),
                (c.emails, "emails"),
                (c.handles, "handles"),
                (c.person_ids, "person ids"),
            ]
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect();
            lines.push(Line::from(format!(
                " {:<16}{:>8}  {}",
                fit(&sanitize(&c.category), 16),
                c.total,
                parts.join(" · ")
            )));
        }
        f.render_widget(Paragraph::new(lines), list_area);
        f.render_widget(
            Line::from(dim(format!(" {}", hint_line(&self.hints(), keys)))),
            hint,
        );
    }

    fn hints(&self) -> Vec<Hint> {
        vec![
            Hint::KeyAction(KeyAction::Enter, "opens a list in its tab (no cost)"),
            Hint::KeyAction(KeyAction::MarkAll, "marks all"),
            Hint::KeyAction(KeyAction::Close, "closes"),
        ]
    }
}
