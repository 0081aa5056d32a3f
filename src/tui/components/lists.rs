//! The "Add to list" prompt (`+`, issue 16): the name of the account or contact list that the
//! marked rows (or the selected one) go into; a new name creates the list. The state owner
//! hands the name and the rows' keys to the store ([`crate::tui::msg::Call::AddToList`]).
use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui_textarea::TextArea;

use super::text::{input_text, textarea};
use super::widgets::draw_prompt;
use crate::store::ListKind;
use crate::tui::keymap::{Keymap, TextAction};

/// The prompt, with the rows it adds.
#[derive(Debug)]
pub struct ListPrompt {
    /// The list name being typed.
    pub input: TextArea<'static>,
    /// Accounts (companies' domains) or contacts (people's ids).
    pub kind: ListKind,
    /// The members to add.
    pub keys: Vec<String>,
}

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
        }
    }

    /// Handles a key (`action` from the text layer).
    pub fn handle(&mut self, key: KeyEvent, action: Option<TextAction>) -> ListPromptEffect {
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
            _ => {
                self.input.input(key);
                ListPromptEffect::Nothing
            }
        }
    }

    /// Draws the prompt: the name field and what Enter adds where.
    pub fn draw(&self, f: &mut Frame<'_>, area: Rect, keys: &Keymap) {
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
            format!(
                "{} adds (a new name creates the list) · {} cancels",
                keys.text_keys_of(TextAction::Submit),
                keys.text_keys_of(TextAction::Cancel)
            ),
        );
    }
}
