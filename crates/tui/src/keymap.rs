//! Semantic actions and the keymap: panes react to [`KeyAction`]s, never to raw keys.
//!
//! Defaults follow issue 4 (`?` help, `q` quit, `Tab`/`Shift-Tab` panes, arrows and `j`/`k`,
//! `Enter`, `n`/`p` pages, `Ctrl-s` save, `Ctrl-o` open, `Esc`). The `[keys]` table of the config
//! file replaces the bindings of an action: `quit = ["q", "ctrl-q"]`. The help screen is
//! generated from the live keymap by [`Keymap::help`].
use std::collections::{BTreeMap, HashMap};
use std::fmt;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

macro_rules! actions {
    ($(#[$doc:meta])* $enum:ident { $($variant:ident => $name:literal, $help:literal, [$($key:literal),*];)+ }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $enum { $(#[doc = $help] $variant,)+ }

        impl $enum {
            /// Every action, in help order.
            pub const ALL: &'static [$enum] = &[$($enum::$variant),+];
            /// Name used in the config file's `[keys]` table, e.g. `next_page`.
            pub fn name(self) -> &'static str { match self { $($enum::$variant => $name,)+ } }
            /// One-line description shown in the help.
            pub fn help(self) -> &'static str { match self { $($enum::$variant => $help,)+ } }
            /// The default key strings, e.g. `["n"]`.
            pub fn default_keys(self) -> &'static [&'static str] { match self { $($enum::$variant => &[$($key),*],)+ } }
            /// The action of a config name.
            pub fn from_name(s: &str) -> Option<$enum> { match s { $($name => Some($enum::$variant),)+ _ => None } }
        }
    };
}

actions! {
    /// Something the user wants to happen; what it means depends on the focused pane.
    KeyAction {
    Help => "help", "show or hide this help", ["?", "f1"];
    Quit => "quit", "quit prospect", ["q", "ctrl-c"];
    NextPane => "next_pane", "focus the next pane", ["tab"];
    PrevPane => "prev_pane", "focus the previous pane", ["shift-tab"];
    Up => "up", "move up", ["up", "k"];
    Down => "down", "move down", ["down", "j"];
    Left => "left", "previous tab / choice", ["left", "h"];
    Right => "right", "next tab / choice", ["right", "l"];
    PageUp => "page_up", "scroll a screen up", ["pageup"];
    PageDown => "page_down", "scroll a screen down", ["pagedown"];
    Top => "top", "go to the first line", ["home", "g"];
    Bottom => "bottom", "go to the last line", ["end", "G"];
    Enter => "enter", "edit a filter, run the search, open a row", ["enter"];
    Search => "search", "run the search of the current tab", ["ctrl-r", "f5"];
    NextPage => "next_page", "next page of results", ["n"];
    PrevPage => "prev_page", "previous page of results", ["p"];
    SwitchTab => "switch_tab", "switch results tab: companies / people", ["t"];
    ToggleVersion => "toggle_version", "switch between v3 and legacy v2 search", ["v"];
    Clear => "clear", "clear the selected filter member", ["x", "delete"];
    ClearAll => "clear_all", "clear every filter member", ["X"];
    PeopleAtCompany => "people_at_company", "find people at the selected company", ["P"];
    Lookalikes => "lookalikes", "find companies like the selected one", ["L"];
    Save => "save", "save the filter set", ["ctrl-s"];
    SaveAs => "save_as", "save the filter set under a new name", ["ctrl-a"];
    Open => "open", "open, or delete, a saved filter set", ["ctrl-o"];
    History => "history", "past searches: reopen one at no cost", ["H"];
    Find => "find", "find a filter member by name and edit it", ["/"];
    Credits => "credits", "refresh the credit balance", ["c"];
    Close => "close", "close a popup or a field; stop waiting", ["esc"];
    Export => "export", "export results to CSV / JSONL", ["ctrl-e"];
    CopyField => "copy_field", "copy the selected field / name", ["y"];
    CopyRow => "copy_row", "copy the selected row as JSON", ["Y"];
    CopyCurl => "copy_curl", "copy the request as curl (no token)", ["C"];
    Facets => "facets", "charts of the loaded results", ["f"];
    Columns => "columns", "columns: show, hide, order, sort the loaded rows", ["o"];
    Back => "back", "back to the search before P / L", ["backspace"];
    Undo => "undo", "undo clear all / a deleted filter set", ["u"];
    Mark => "mark", "mark / unmark a row for the actions", ["space"];
    MarkAll => "mark_all", "mark every shown row, or unmark all", ["*"];
    RevealedFilter => "revealed_filter", "rows: all / revealed / unrevealed / new", ["="];
    NewOnly => "new_only", "new-only search of the open set", ["w"];
    RevealEmails => "reveal_emails", "reveal emails of marked / selected people", ["r"];
    RevealPhones => "reveal_phones", "reveal phones of marked / selected people", ["R"];
    Enrich => "enrich", "enrich the selected company or person", ["E"];
    Warmup => "warmup", "warm up marked / selected domains (free)", ["W"];
    AddToList => "add_to_list", "add marked / selected rows to a named list", ["+"];
    Lists => "lists", "your lists and suppression: open a list at no cost", ["O"];
    Segments => "segments", "segment the marked companies; your segments", ["S"];
    Attribute => "attribute", "segments: fit of the loaded companies (columns)", ["A"];
    FitGood => "fit_good", "segments: the marked / selected fit well", [">"];
    FitPoor => "fit_poor", "segments: the marked / selected fit poorly", ["<"];
    Activity => "activity", "jobs, webhook deliveries, purchases", ["a"];
    Lookup => "lookup", "look up a pasted list, a file or a list's marked members", ["ctrl-l"];
    Refresh => "refresh", "buy again what the store just answered", ["F"];
    Palette => "palette", "command palette: find any action by name and run it", [":", "ctrl-p"];
}
}

actions! {
    /// What a key means in a text field (the text-context layer): every key bound here acts,
    /// every other key is text. Rebindable in `[keys]` like [`KeyAction`]s (`text_submit = ["enter"]`).
    TextAction {
    Submit => "text_submit", "add the item / pick the suggestion / apply", ["enter"];
    Up => "text_up", "move in suggestions or options", ["up"];
    Down => "text_down", "move in suggestions or options", ["down"];
    PageUp => "text_page_up", "move a page in options", ["pageup"];
    PageDown => "text_page_down", "move a page in options", ["pagedown"];
    RemoveLast => "text_remove_last", "on an empty field removes the last item", ["backspace"];
    NextField => "text_next_field", "from ↔ to in ranges", ["tab"];
    PrevField => "text_prev_field", "to ↔ from in ranges", ["shift-tab"];
    Cancel => "text_cancel", "leave the field", ["esc"];
}
}

impl TextAction {
    /// The lines of the help's text-field section: actions shown together, in order.
    pub const HELP: &'static [&'static [TextAction]] = &[
        &[TextAction::Submit],
        &[TextAction::Up, TextAction::Down],
        &[TextAction::RemoveLast],
        &[TextAction::NextField],
        &[TextAction::Cancel],
    ];
}

/// A key with its modifiers, normalized so that `?` and `Shift-/` compare equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyCombo {
    /// The key.
    pub code: KeyCodeOrd,
    /// Ctrl / Alt (Shift is folded into characters and `BackTab`).
    pub ctrl: bool,
    /// Alt modifier.
    pub alt: bool,
}

/// The subset of [`KeyCode`] a binding can name (orderable for stable help output).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyCodeOrd {
    /// A printable character.
    Char(char),
    /// Function key F1..F12.
    F(u8),
    /// Named keys.
    Enter,
    /// Escape.
    Esc,
    /// Tab.
    Tab,
    /// Shift-Tab.
    BackTab,
    /// Backspace.
    Backspace,
    /// Delete.
    Delete,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Home.
    Home,
    /// End.
    End,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
}

impl KeyCombo {
    /// Normalizes a crossterm key event; `None` for keys no binding can name.
    pub fn from_event(ev: &KeyEvent) -> Option<KeyCombo> {
        let code = match ev.code {
            KeyCode::Char(c) => KeyCodeOrd::Char(c),
            KeyCode::F(n) => KeyCodeOrd::F(n),
            KeyCode::Enter => KeyCodeOrd::Enter,
            KeyCode::Esc => KeyCodeOrd::Esc,
            KeyCode::Tab if ev.modifiers.contains(KeyModifiers::SHIFT) => KeyCodeOrd::BackTab,
            KeyCode::Tab => KeyCodeOrd::Tab,
            KeyCode::BackTab => KeyCodeOrd::BackTab,
            KeyCode::Backspace => KeyCodeOrd::Backspace,
            KeyCode::Delete => KeyCodeOrd::Delete,
            KeyCode::Up => KeyCodeOrd::Up,
            KeyCode::Down => KeyCodeOrd::Down,
            KeyCode::Left => KeyCodeOrd::Left,
            KeyCode::Right => KeyCodeOrd::Right,
            KeyCode::Home => KeyCodeOrd::Home,
            KeyCode::End => KeyCodeOrd::End,
            KeyCode::PageUp => KeyCodeOrd::PageUp,
            KeyCode::PageDown => KeyCodeOrd::PageDown,
            _ => return None,
        };
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        // Ctrl-letters arrive lowercase on most terminals; fold case so "ctrl-s" matches both.
        let code = match code {
            KeyCodeOrd::Char(c) if ctrl => KeyCodeOrd::Char(c.to_ascii_lowercase()),
            c => c,
        };
        Some(KeyCombo {
            code,
            ctrl,
            alt: ev.modifiers.contains(KeyModifiers::ALT),
        })
    }

    /// Parses a binding string: `q`, `?`, `G`, `ctrl-s`, `alt-x`, `shift-tab`, `enter`, `f5`,
    /// `space`, `pageup`... Errors name the offending string.
    pub fn parse(s: &str) -> Result<KeyCombo, String> {
        let mut ctrl = false;
        let mut alt = false;
        let mut shift = false;
        let mut rest = s;
        loop {
            let lower = rest.to_ascii_lowercase();
            if rest.len() > 1 && lower.starts_with("ctrl-") {
                ctrl = true;
                rest = &rest[5..];
            } else if rest.len() > 1 && lower.starts_with("alt-") {
                alt = true;
                rest = &rest[4..];
            } else if rest.len() > 1 && lower.starts_with("shift-") {
                shift = true;
                rest = &rest[6..];
            } else {
                break;
            }
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) => KeyCodeOrd::Char(if ctrl { c.to_ascii_lowercase() } else { c }),
            _ => match rest.to_ascii_lowercase().as_str() {
                "enter" | "return" => KeyCodeOrd::Enter,
                "esc" | "escape" => KeyCodeOrd::Esc,
                "tab" if shift => KeyCodeOrd::BackTab,
                "tab" => KeyCodeOrd::Tab,
                "backtab" => KeyCodeOrd::BackTab,
                "backspace" => KeyCodeOrd::Backspace,
                "delete" | "del" => KeyCodeOrd::Delete,
                "up" => KeyCodeOrd::Up,
                "down" => KeyCodeOrd::Down,
                "left" => KeyCodeOrd::Left,
                "right" => KeyCodeOrd::Right,
                "home" => KeyCodeOrd::Home,
                "end" => KeyCodeOrd::End,
                "pageup" | "pgup" => KeyCodeOrd::PageUp,
                "pagedown" | "pgdn" => KeyCodeOrd::PageDown,
                "space" => KeyCodeOrd::Char(' '),
                f if f.starts_with('f')
                    && f[1..].parse::<u8>().is_ok_and(|n| (1..=12).contains(&n)) =>
                {
                    KeyCodeOrd::F(f[1..].parse().unwrap_or(1))
                }
                _ => return Err(format!("unknown key {s:?}")),
            },
        };
        Ok(KeyCombo { code, ctrl, alt })
    }
}

impl fmt::Display for KeyCombo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("Ctrl-")?;
        }
        if self.alt {
            f.write_str("Alt-")?;
        }
        match self.code {
            KeyCodeOrd::Char(' ') => f.write_str("Space"),
            KeyCodeOrd::Char(c) => write!(f, "{c}"),
            KeyCodeOrd::F(n) => write!(f, "F{n}"),
            KeyCodeOrd::Enter => f.write_str("Enter"),
            KeyCodeOrd::Esc => f.write_str("Esc"),
            KeyCodeOrd::Tab => f.write_str("Tab"),
            KeyCodeOrd::BackTab => f.write_str("Shift-Tab"),
            KeyCodeOrd::Backspace => f.write_str("Backspace"),
            KeyCodeOrd::Delete => f.write_str("Del"),
            KeyCodeOrd::Up => f.write_str("↑"),
            KeyCodeOrd::Down => f.write_str("↓"),
            KeyCodeOrd::Left => f.write_str("←"),
            KeyCodeOrd::Right => f.write_str("→"),
            KeyCodeOrd::Home => f.write_str("Home"),
            KeyCodeOrd::End => f.write_str("End"),
            KeyCodeOrd::PageUp => f.write_str("PgUp"),
            KeyCodeOrd::PageDown => f.write_str("PgDn"),
        }
    }
}

/// One layer of bindings: key → action, and action → its keys in binding order (for help).
#[derive(Debug, Clone)]
struct Layer<A> {
    map: HashMap<KeyCombo, A>,
    keys: BTreeMap<A, Vec<KeyCombo>>,
}

impl<A: Copy + Ord + std::hash::Hash> Layer<A> {
    fn empty() -> Layer<A> {
        Layer {
            map: HashMap::new(),
            keys: BTreeMap::new(),
        }
    }

    fn defaults(all: &[A], default_keys: impl Fn(A) -> &'static [&'static str]) -> Layer<A> {
        let mut l = Layer::empty();
        for &a in all {
            let list = default_keys(a)
                .iter()
                .filter_map(|k| KeyCombo::parse(k).ok())
                .collect();
            l.keys.insert(a, list);
        }
        l
    }

    /// Binds `keys` to `a` alone: they are taken away from the other actions of the layer.
    fn rebind(&mut self, a: A, keys: Vec<KeyCombo>) {
        for other in self.keys.values_mut() {
            other.retain(|c| !keys.contains(c));
        }
        self.keys.insert(a, keys);
    }

    fn index(&mut self) {
        self.map.clear();
        for (a, list) in &self.keys {
            for c in list {
                self.map.insert(*c, *a);
            }
        }
    }

    fn keys_of(&self, a: A) -> String {
        self.keys
            .get(&a)
            .map(|l| {
                l.iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default()
    }
}

/// Key → action bindings: the [`KeyAction`] layer for panes and popups, and the [`TextAction`]
/// layer for text fields.
#[derive(Debug, Clone)]
pub struct Keymap {
    actions: Layer<KeyAction>,
    text: Layer<TextAction>,
}

impl Default for Keymap {
    fn default() -> Self {
        Keymap::with_overrides(&BTreeMap::new())
            .map(|(k, _)| k)
            .unwrap_or_else(|_| Keymap::empty())
    }
}

impl Keymap {
    fn empty() -> Keymap {
        Keymap {
            actions: Layer::empty(),
            text: Layer::empty(),
        }
    }

    /// The default bindings with the config's `[keys]` overrides applied (action name → key
    /// strings; an override replaces all default keys of that action, in either layer). Returns
    /// the keymap and warnings for names or keys that were not understood (those entries are
    /// skipped).
    pub fn with_overrides(
        overrides: &BTreeMap<String, Vec<String>>,
    ) -> Result<(Keymap, Vec<String>), String> {
        let mut warnings = Vec::new();
        let mut actions = Layer::defaults(KeyAction::ALL, KeyAction::default_keys);
        let mut text = Layer::defaults(TextAction::ALL, TextAction::default_keys);
        for (name, list) in overrides {
            let mut parsed = Vec::new();
            let mut parse = |warnings: &mut Vec<String>| {
                for k in list {
                    match KeyCombo::parse(k) {
                        Ok(c) => parsed.push(c),
                        Err(e) => warnings.push(format!("{e} in [keys].{name}")),
                    }
                }
            };
            if let Some(action) = KeyAction::from_name(name) {
                parse(&mut warnings);
                actions.rebind(action, parsed);
            } else if let Some(action) = TextAction::from_name(name) {
                parse(&mut warnings);
                text.rebind(action, parsed);
            } else {
                warnings.push(format!("unknown action {name:?} in [keys]"));
            }
        }
        actions.index();
        text.index();
        Ok((Keymap { actions, text }, warnings))
    }

    /// The action bound to a key event, if any.
    pub fn action(&self, ev: &KeyEvent) -> Option<KeyAction> {
        KeyCombo::from_event(ev).and_then(|c| self.actions.map.get(&c).copied())
    }

    /// What a key event means in a text field; `None`: it is text.
    pub fn text_action(&self, ev: &KeyEvent) -> Option<TextAction> {
        KeyCombo::from_event(ev).and_then(|c| self.text.map.get(&c).copied())
    }

    /// The keys bound to `a`, formatted for display, e.g. `"↑ k"`.
    pub fn keys_of(&self, a: KeyAction) -> String {
        self.actions.keys_of(a)
    }

    /// The first key bound to `a`, for a short hint in running text (e.g. `"x"` for clear);
    /// empty when it has none.
    pub fn first_key_of(&self, a: KeyAction) -> String {
        self.actions
            .keys
            .get(&a)
            .and_then(|l| l.first())
            .map(|c| c.to_string())
            .unwrap_or_default()
    }

    /// The keys bound to the text action `a`, formatted for display, e.g. `"Enter"`.
    pub fn text_keys_of(&self, a: TextAction) -> String {
        self.text.keys_of(a)
    }

    /// Help lines `(keys, description)` for every action that has a key, in [`KeyAction::ALL`] order.
    pub fn help(&self) -> Vec<(String, &'static str)> {
        KeyAction::ALL
            .iter()
            .filter(|a| self.actions.keys.get(a).is_some_and(|l| !l.is_empty()))
            .map(|&a| (self.keys_of(a), a.help()))
            .collect()
    }

    /// Help lines of the text-field layer, one per group of [`TextAction::HELP`] that has a key.
    pub fn text_help(&self) -> Vec<(String, &'static str)> {
        TextAction::HELP
            .iter()
            .filter_map(|group| {
                let keys: Vec<String> = group
                    .iter()
                    .map(|a| self.text_keys_of(*a))
                    .filter(|k| !k.is_empty())
                    .collect();
                (!keys.is_empty()).then(|| (keys.join(" "), group[0].help()))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyEvent, KeyModifiers};

    fn ev(code: KeyCode, m: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, m)
    }

    #[test]
    fn defaults_match_the_issue() {
        let k = Keymap::default();
        assert_eq!(
            k.action(&ev(KeyCode::Char('?'), KeyModifiers::SHIFT)),
            Some(KeyAction::Help)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Char('q'), KeyModifiers::NONE)),
            Some(KeyAction::Quit)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Tab, KeyModifiers::NONE)),
            Some(KeyAction::NextPane)
        );
        assert_eq!(
            k.action(&ev(KeyCode::BackTab, KeyModifiers::SHIFT)),
            Some(KeyAction::PrevPane)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Char('j'), KeyModifiers::NONE)),
            Some(KeyAction::Down)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Up, KeyModifiers::NONE)),
            Some(KeyAction::Up)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Enter, KeyModifiers::NONE)),
            Some(KeyAction::Enter)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Char('n'), KeyModifiers::NONE)),
            Some(KeyAction::NextPage)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Char('p'), KeyModifiers::NONE)),
            Some(KeyAction::PrevPage)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Char('s'), KeyModifiers::CONTROL)),
            Some(KeyAction::Save)
        );
        assert_eq!(
            k.action(&ev(
                KeyCode::Char('S'),
                KeyModifiers::CONTROL | KeyModifiers::SHIFT
            )),
            Some(KeyAction::Save)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Char('o'), KeyModifiers::CONTROL)),
            Some(KeyAction::Open)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Esc, KeyModifiers::NONE)),
            Some(KeyAction::Close)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Char('G'), KeyModifiers::SHIFT)),
            Some(KeyAction::Bottom)
        );
        assert_eq!(k.action(&ev(KeyCode::Char('z'), KeyModifiers::NONE)), None);
    }

    #[test]
    fn overrides_replace_and_steal_keys() {
        let mut o = BTreeMap::new();
        o.insert("quit".to_string(), vec!["ctrl-q".to_string()]);
        o.insert("next_page".to_string(), vec!["j".to_string()]);
        o.insert("nonsense".to_string(), vec!["x".to_string()]);
        o.insert("help".to_string(), vec!["hyper-x".to_string()]);
        let (k, warnings) = Keymap::with_overrides(&o).unwrap();
        assert_eq!(k.action(&ev(KeyCode::Char('q'), KeyModifiers::NONE)), None);
        assert_eq!(
            k.action(&ev(KeyCode::Char('q'), KeyModifiers::CONTROL)),
            Some(KeyAction::Quit)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Char('j'), KeyModifiers::NONE)),
            Some(KeyAction::NextPage)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Down, KeyModifiers::NONE)),
            Some(KeyAction::Down)
        );
        assert_eq!(warnings.len(), 2, "{warnings:?}");
    }

    #[test]
    fn parse_and_display_round_trip() {
        for s in [
            "q",
            "?",
            "G",
            "ctrl-s",
            "shift-tab",
            "enter",
            "f5",
            "pagedown",
            "space",
            "alt-x",
        ] {
            let c = KeyCombo::parse(s).unwrap();
            assert_eq!(
                KeyCombo::parse(&c.to_string().replace('↑', "up"))
                    .ok()
                    .map(|_| ()),
                Some(()),
                "{s}"
            );
        }
        assert!(KeyCombo::parse("f13").is_err());
        assert_eq!(
            KeyCombo::parse("ctrl-S").unwrap(),
            KeyCombo::parse("ctrl-s").unwrap()
        );
    }

    #[test]
    fn help_lists_every_bound_action() {
        let k = Keymap::default();
        let help = k.help();
        assert_eq!(help.len(), KeyAction::ALL.len());
        assert!(
            help.iter()
                .any(|(keys, d)| keys == "n" && d.contains("next page"))
        );
    }

    #[test]
    fn the_text_layer_is_rebindable_and_listed_in_help() {
        let k = Keymap::default();
        let none = KeyModifiers::NONE;
        assert_eq!(
            k.text_action(&ev(KeyCode::Enter, none)),
            Some(TextAction::Submit)
        );
        assert_eq!(
            k.text_action(&ev(KeyCode::Char('q'), none)),
            None,
            "q is text in a field"
        );
        assert_eq!(
            k.text_help(),
            vec![
                (
                    "Enter".to_string(),
                    "add the item / pick the suggestion / apply"
                ),
                ("↑ ↓".to_string(), "move in suggestions or options"),
                (
                    "Backspace".to_string(),
                    "on an empty field removes the last item"
                ),
                ("Tab".to_string(), "from ↔ to in ranges"),
                ("Esc".to_string(), "leave the field"),
            ]
        );
        let mut o = BTreeMap::new();
        o.insert("text_submit".to_string(), vec!["ctrl-j".to_string()]);
        let (k, warnings) = Keymap::with_overrides(&o).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(k.text_action(&ev(KeyCode::Enter, none)), None);
        assert_eq!(
            k.text_action(&ev(KeyCode::Char('j'), KeyModifiers::CONTROL)),
            Some(TextAction::Submit)
        );
        // The pane layer is another context: Enter still opens a row there.
        assert_eq!(k.action(&ev(KeyCode::Enter, none)), Some(KeyAction::Enter));
    }
}
