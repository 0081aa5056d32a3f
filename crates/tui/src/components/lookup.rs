//! The lookup popup (`Ctrl-l`): takes pasted or typed text (split on newlines, commas and
//! spaces) or a file path (a plain list, or a CSV column), for companies (domains) or people
//! (professional-network handles / URLs and service ids). It owns its text and subject,
//! answers to the keymap's text layer (submit looks up, next field switches companies ↔
//! people, cancel closes) and hands the keys — or the file, read off the UI loop — to the
//! state owner, which checks the store and the cost before anything is sent.
use crate::theme::theme;
use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use super::widgets::{centered, dim, frame, truncate};
use super::{Component, Ctx, Handled, Hint, Input, hint_line};
use crate::actions::split_keys;
use crate::keymap::TextAction;
use crate::schema::SearchSubject;
use prospect_api::types::LOOKUP_COMPANIES_MAX;
use prospect_common::sanitize::sanitize;

/// The popup's state.
#[derive(Debug, Clone, PartialEq)]
pub struct LookupPopup {
    /// Companies (domains) or people (handles, ids).
    pub subject: SearchSubject,
    /// The text as typed or pasted: line breaks kept, every line sanitized.
    pub text: String,
    /// The keys the popup was opened with (the marked members of an opened list), while
    /// the text is still exactly them: switching the subject drops them (they are keys of
    /// the other kind).
    pub prefilled: Option<String>,
}

/// What the popup wants.
#[derive(Debug, Clone, PartialEq)]
pub enum LookupEffect {
    /// Keep editing.
    Nothing,
    /// Closed; nothing looked up.
    Cancelled,
    /// Look these up (keys parsed, or a file to read).
    Run {
        /// Companies or people.
        subject: SearchSubject,
        /// The keys (empty when `file` is given).
        keys: Vec<String>,
        /// A file to read the keys from.
        file: Option<PathBuf>,
    },
    /// Nothing to look up yet: say why, keep the popup.
    Invalid(String),
}

impl LookupPopup {
    /// An empty popup for `subject`.
    pub fn new(subject: SearchSubject) -> LookupPopup {
        LookupPopup {
            subject,
            text: String::new(),
            prefilled: None,
        }
    }

    /// A popup for `subject` with `keys` filled in (one a line): Enter looks them up.
    pub fn with_keys(subject: SearchSubject, keys: &[String]) -> LookupPopup {
        let text = keys.join("\n");
        LookupPopup {
            subject,
            prefilled: (!text.is_empty()).then(|| text.clone()),
            text,
        }
    }

    /// The file the text names, when it is one path: it starts with `/`, `./`, `../` or `~/`
    /// (home expanded), or ends with `.csv`, `.tsv` or `.txt`, and holds no space or comma.
    pub fn file(&self) -> Option<PathBuf> {
        let t = self.text.trim();
        if t.is_empty() || t.contains([',', ' ', '\n', '\t', ';']) || t.contains("://") {
            return None;
        }
        let lower = t.to_ascii_lowercase();
        let pathy = t.starts_with('/')
            || t.starts_with("./")
            || t.starts_with("../")
            || t.starts_with("~/")
            || [".csv", ".tsv", ".txt"].iter().any(|e| lower.ends_with(e));
        if !pathy {
            return None;
        }
        Some(prospect_common::fsutil::expand_home(t))
    }

    /// The keys of the text ([`split_keys`]); empty when the text names a file.
    pub fn keys(&self) -> Vec<String> {
        if self.file().is_some() {
            Vec::new()
        } else {
            split_keys(&self.text)
        }
    }

    /// How many distinct keys the text holds, as the lookup keys them: a domain and its URL
    /// (`acme.com`, `https://www.Acme.com/`), or a profile URL and its bare handle, are one.
    pub fn distinct(&self) -> usize {
        let key = |k: &String| match self.subject {
            SearchSubject::Companies => prospect_common::keys::domain_key(k),
            SearchSubject::People if prospect_core::engine::is_service_id(k) => Some(k.clone()),
            SearchSubject::People => prospect_common::keys::linkedin_handle(k),
        };
        let keys = self.keys();
        let mut seen = std::collections::HashSet::new();
        keys.iter()
            .filter(|k| seen.insert(key(k).unwrap_or_else(|| (*k).clone())))
            .count()
    }

    /// Inserts pasted text: line breaks kept (they separate keys), every line sanitized.
    fn paste(&mut self, raw: &str) {
        let lines: Vec<String> = raw.lines().map(sanitize).collect();
        self.text.push_str(&lines.join("\n"));
    }

    /// Handles a key; `action` is its meaning in a text field (anything else is text).
    fn on_key(&mut self, key: KeyEvent, action: Option<TextAction>) -> LookupEffect {
        match action {
            Some(TextAction::Cancel) => return LookupEffect::Cancelled,
            Some(TextAction::Submit) => return self.submit(),
            Some(TextAction::NextField | TextAction::PrevField) => {
                self.subject = match self.subject {
                    SearchSubject::Companies => SearchSubject::People,
                    SearchSubject::People => SearchSubject::Companies,
                };
                if self.prefilled.take().is_some_and(|p| p == self.text) {
                    self.text.clear();
                }
            }
            Some(TextAction::RemoveLast) => {
                self.text.pop();
            }
            _ => match key.code {
                KeyCode::Char(c)
                    if !key
                        .modifiers
                        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
                {
                    self.text.push_str(&sanitize(&c.to_string()));
                }
                KeyCode::Backspace => {
                    self.text.pop();
                }
                _ => {}
            },
        }
        LookupEffect::Nothing
    }

    fn submit(&self) -> LookupEffect {
        if let Some(file) = self.file() {
            return LookupEffect::Run {
                subject: self.subject,
                keys: Vec::new(),
                file: Some(file),
            };
        }
        let keys = self.keys();
        if keys.is_empty() {
            return LookupEffect::Invalid(format!(
                "Nothing to look up: paste or type {}, or a file path.",
                self.noun()
            ));
        }
        LookupEffect::Run {
            subject: self.subject,
            keys,
            file: None,
        }
    }

    fn noun(&self) -> &'static str {
        match self.subject {
            SearchSubject::Companies => "domains",
            SearchSubject::People => "professional-network handles / URLs or person ids",
        }
    }
}

impl Component for LookupPopup {
    type Effect = LookupEffect;

    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<LookupEffect> {
        match input {
            Input::Key { key, text, .. } => Handled::Consumed(self.on_key(key, text)),
            Input::Paste(raw) => {
                self.paste(raw);
                Handled::Consumed(LookupEffect::Nothing)
            }
            Input::KeyAction(_) => Handled::Ignored,
        }
    }

    /// Draws the popup over `area`.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let keys = ctx.keys;

        let r = centered(area, 84, 16);
        f.render_widget(Clear, r);
        let title = match self.subject {
            SearchSubject::Companies => " Look up companies ",
            SearchSubject::People => " Look up people ",
        };
        let block = frame(title, theme().accent);
        let inner = block.inner(r);
        f.render_widget(block, r);
        let w = inner.width as usize;
        // Two short lines, so the people's longer noun never cuts the separators (issue 38).
        let mut lines = vec![
            Line::from(format!("Paste or type {},", self.noun())),
            Line::from(
                "separated by newlines, commas or spaces; or the path of a file (a list or a CSV).",
            ),
            Line::from(""),
        ];
        let text_rows = inner.height.saturating_sub(7) as usize;
        let all: Vec<&str> = self.text.split('\n').collect();
        let first = all.len().saturating_sub(text_rows);
        for (i, l) in all[first..].iter().enumerate() {
            let last = first + i + 1 == all.len();
            let mut spans = vec![Span::styled("› ", Style::default().fg(theme().accent))];
            spans.push(Span::raw(l.to_string()));
            if last {
                spans.push(Span::styled(
                    "▏",
                    Style::default().add_modifier(Modifier::SLOW_BLINK),
                ));
            }
            lines.push(truncate(Line::from(spans), w));
        }
        while lines.len() < 3 + text_rows {
            lines.push(Line::from(""));
        }
        let count = match self.file() {
            Some(p) => format!("file {}", sanitize(&p.display().to_string())),
            None => {
                let n = self.distinct();
                let unit = match self.subject {
                    SearchSubject::Companies => "domain",
                    SearchSubject::People => "key",
                };
                format!(
                    "{n} {unit}{} · requests of ≤ {} · stored ones cost 0",
                    if n == 1 { "" } else { "s" },
                    fmt_thousands(LOOKUP_COMPANIES_MAX)
                )
            }
        };
        lines.push(Line::from(Span::styled(
            count,
            Style::default().fg(theme().warn),
        )));
        lines.push(Line::from(""));
        lines.push(Line::from(dim(hint_line(&self.hints(), keys))));
        f.render_widget(Paragraph::new(lines), inner);
    }

    fn hints(&self) -> Vec<Hint> {
        vec![
            Hint::Text(TextAction::Submit, "looks up (cost shown first)"),
            Hint::Text(TextAction::NextField, "companies ↔ people"),
            Hint::Text(TextAction::Cancel, "cancels"),
        ]
    }
}

fn fmt_thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_or_a_file() {
        let mut p = LookupPopup::new(SearchSubject::Companies);
        p.paste("a.com\nb.io, c.de\u{1b}[2J\n");
        assert_eq!(p.keys(), ["a.com", "b.io", "c.de"]);
        assert_eq!(p.file(), None);
        let mut f = LookupPopup::new(SearchSubject::Companies);
        f.paste("./accounts.csv");
        assert_eq!(f.file(), Some(PathBuf::from("./accounts.csv")));
        assert!(f.keys().is_empty());
        let mut h = LookupPopup::new(SearchSubject::People);
        h.paste("https://linkedin.com/in/ann");
        assert_eq!(h.file(), None);
        // Issue 38: a URL and its bare handle are one key.
        h.paste("\nann\nANN/\nbob");
        assert_eq!(h.keys().len(), 4);
        assert_eq!(h.distinct(), 2);
        assert_eq!(fmt_thousands(1000), "1,000");
    }
}
