//! The explorer's components, gitui / slumber style: each owns its state, handles the keys
//! it is given (as keymap actions: [`Action`](super::keymap::Action) for panes and popups,
//! [`TextAction`](super::keymap::TextAction) for text fields), tells the state owner what it
//! wants done as a typed effect, draws itself, and generates its hints from the keymap.
//!
//! [`App`](super::app::App) stays the one state owner: it holds the components, routes each
//! message to the one in charge, and turns their effects into [`Command`](super::msg::Command)s.
pub mod activity;
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
pub mod sets;
pub mod spend_gate;
pub mod text;
pub mod widgets;
