//! The explorer's components, gitui / slumber style: each owns its state, handles the keys
//! it is given (as keymap actions: [`KeyAction`](super::keymap::KeyAction) for panes and popups,
//! [`TextAction`](super::keymap::TextAction) for text fields), tells the state owner what it
//! wants done as a typed effect, draws itself, and generates its hints from the keymap.
//!
//! [`App`](super::app::App) stays the one state owner: it holds the components, routes each
//! message to the one in charge, and turns their effects into [`Command`](super::msg::Command)s.
pub mod activity;
pub mod column_picker;
pub mod columns;
pub mod details;
pub mod editor;
pub mod export;
pub mod facets;
pub mod form;
pub mod help;
pub mod history;
pub mod lists;
pub mod lookup;
pub mod picker;
pub mod results;
pub mod segments;
pub mod sets;
pub mod spend_gate;
pub mod text;
pub mod widgets;

use chrono::{DateTime, Utc};
use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;

use crate::keymap::{KeyAction, Keymap, TextAction};
use crate::schema::SearchSubject;

/// One input for a component, already read through the keymap: a component matches on
/// actions, never on key codes (a text field types the key only when the text layer gives it
/// no action).
#[derive(Debug, Clone, Copy)]
pub enum Input<'a> {
    /// A key press: what it means for panes and popups (`action`) and in a text field
    /// (`text`); either is `None` when the key is not bound there.
    Key {
        /// The key itself (typed into a text field when `text` is `None`).
        key: KeyEvent,
        /// Its action in the keymap's pane layer.
        action: Option<KeyAction>,
        /// Its action in the keymap's text-field layer.
        text: Option<TextAction>,
    },
    /// An action asked for without a key (the palette, a mouse click).
    KeyAction(KeyAction),
    /// Text pasted into the terminal (bracketed paste), raw: the component sanitizes it.
    Paste(&'a str),
}

impl Input<'_> {
    /// The pane-layer action of this input, if it has one.
    pub fn action(&self) -> Option<KeyAction> {
        match self {
            Input::Key { action, .. } => *action,
            Input::KeyAction(a) => Some(*a),
            Input::Paste(_) => None,
        }
    }
}

/// What a component did with an input: [`Handled::Ignored`] lets the state owner offer it to
/// the next in line (a pane's unused key goes to the global actions); [`Handled::Consumed`]
/// carries the effect the state owner turns into commands.
#[derive(Debug, Clone, PartialEq)]
pub enum Handled<E> {
    /// Not this component's input.
    Ignored,
    /// Used, with what the component wants done.
    Consumed(E),
}

impl<E> Handled<E> {
    /// The effect, or `none` when the input was ignored.
    pub fn or(self, none: E) -> E {
        match self {
            Handled::Consumed(e) => e,
            Handled::Ignored => none,
        }
    }
}

/// What the state owner lends a component to handle an input or draw itself.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    /// The pane has the focus, popups or not (it follows its selection, else shows its top).
    pub has_focus: bool,
    /// Members set in the tab's form (the results pane's empty state says so).
    pub filled: usize,
    /// The selected row of the tab shown (the details pane shows it).
    pub selected: Option<&'a crate::msg::ResultRow>,
    /// The key bindings: every hint is generated from them.
    pub keys: &'a Keymap,
    /// The tab shown.
    pub tab: SearchSubject,
    /// The component has the keyboard (a focused pane with no popup over it, or the top popup).
    pub focused: bool,
    /// Credits above which a paid call is confirmed first (the config's `confirm_above`).
    pub confirm_above: f64,
    /// The time of the last message (ages, "time since").
    pub now: DateTime<Utc>,
    /// The line a popup opens under: the filters pane's selected row (its `x` and `width`
    /// are the pane's, `y` the row's).
    pub anchor: Rect,
}

/// One hint of a component's help line: a key (from the keymap) and what it does here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hint {
    /// A pane-layer action and its words.
    KeyAction(KeyAction, &'static str),
    /// Several pane-layer actions under one set of words (`"↓ j ↑ k scroll"`).
    Actions(&'static [KeyAction], &'static str),
    /// A text-field action and its words.
    Text(TextAction, &'static str),
    /// Several text-field actions under one set of words.
    Texts(&'static [TextAction], &'static str),
}

/// A help line from `hints`: `"Enter reopen · Esc close"`, each key as bound in `keys`;
/// hints whose action has no key are left out.
pub fn hint_line(hints: &[Hint], keys: &Keymap) -> String {
    hints
        .iter()
        .filter_map(|h| {
            let join = |k: Vec<String>| {
                k.into_iter()
                    .filter(|k| !k.is_empty())
                    .collect::<Vec<_>>()
                    .join(" / ")
            };
            let (k, words) = match *h {
                Hint::KeyAction(a, w) => (keys.keys_of(a), w),
                Hint::Actions(a, w) => (join(a.iter().map(|a| keys.keys_of(*a)).collect()), w),
                Hint::Text(a, w) => (keys.text_keys_of(a), w),
                Hint::Texts(a, w) => (join(a.iter().map(|a| keys.text_keys_of(*a)).collect()), w),
            };
            (!k.is_empty()).then(|| format!("{k} {words}"))
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A piece of the explorer (a pane or a popup), gitui style: it owns its state, handles the
/// inputs the state owner routes to it, draws itself, and lists its keys for the help line.
pub trait Component {
    /// What it asks the state owner to do (open, run, close…).
    type Effect;
    /// Handles one input: [`Handled::Ignored`] when it is not this component's.
    fn handle(&mut self, input: Input<'_>, ctx: &Ctx<'_>) -> Handled<Self::Effect>;
    /// Draws the component in `area` (a popup centres itself in it).
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>);
    /// Its keys, for its help line ([`hint_line`]).
    fn hints(&self) -> Vec<Hint>;
}

/// The effect of a popup that only stays or closes (help, error, facets, activity keys that
/// do nothing else).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stay {
    /// Still open.
    Open,
    /// Closed: the state owner pops it.
    Close,
}
