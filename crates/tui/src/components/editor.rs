//! The member editor: the popup that edits one member of the form. A list of free or
//! autocompleted items ([`ListEditor`]), a closed set ([`Picker`]), or a range / scalar / JSON
//! ([`TextEditor`]). It owns its state and acts on the keymap's text layer; it hands the state
//! owner typed effects (the member's new value, "close", "the text changed: look it up") and
//! draws itself under the selected row of the filters pane, with hints from the keymap.
use crate::theme::theme;
use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};
use ratatui_textarea::TextArea;
use serde_json::Value;

use super::picker::{Picker, PickerEvent};
use super::text::{input_text, textarea, type_key};
use super::widgets::{dim, frame};
use super::{Component, Ctx, Handled, Hint, Input};
use crate::fmt::{autocomplete_cost, fmt_credits, problems_text};
use crate::keymap::TextAction;
use crate::schema::{self, AutocompleteKind, DataFields, Leaf, LeafKind, Source};
use prospect_api::client::SearchSubject;
use prospect_common::sanitize::sanitize;
use prospect_core::request::{self, AutocompleteRequest};

/// Autocomplete needs at least this many characters.
const MIN_LOOKUP_CHARS: usize = 2;

/// State of an autocomplete lookup in the editor.
#[derive(Debug, Clone, PartialEq)]
pub enum AcState {
    /// Nothing asked.
    Idle,
    /// Waiting for the typing pause.
    Waiting,
    /// A lookup is on its way.
    Loading,
    /// Suggestions shown.
    Ready,
    /// The lookup failed.
    Failed(String),
}

/// Editor of a list of free or autocompleted items.
#[derive(Debug)]
pub struct ListEditor {
    /// The items (also written to the body on every change).
    pub items: Vec<Value>,
    /// The text being typed.
    pub input: TextArea<'static>,
    /// Autocomplete endpoint, if any.
    pub ac: Option<AutocompleteKind>,
    /// Suggestions `(label, value)` of the current text.
    pub suggestions: Vec<(String, Value)>,
    /// Highlighted suggestion.
    pub sel: Option<usize>,
    /// Autocomplete state.
    pub ac_state: AcState,
}

/// Editor of a range, a scalar or raw JSON.
#[derive(Debug)]
pub struct TextEditor {
    /// One input (scalar, JSON) or two (range from, to).
    pub inputs: Vec<TextArea<'static>>,
    /// Focused input.
    pub focus: usize,
    /// Why the last Enter was refused.
    pub error: Option<String>,
}

/// The editor of one member.
#[derive(Debug)]
pub enum EditorBody {
    /// Free / autocompleted list.
    List(ListEditor),
    /// Closed set.
    Pick(Picker),
    /// Range / scalar / JSON.
    Text(TextEditor),
}

/// The member editor popup.
#[derive(Debug)]
pub struct Editor {
    /// The member.
    pub leaf: &'static Leaf,
    /// Its editor.
    pub body: EditorBody,
    /// Why the reference data could not be loaded, if it could not (shown where a closed
    /// set's options would be).
    pub data_error: Option<String>,
}

/// What the editor wants the state owner to do.
#[derive(Debug, Clone, PartialEq)]
pub enum EditorEffect {
    /// Nothing beyond a redraw.
    Nothing,
    /// Set the member to this value (`None`: remove it); the editor stays open.
    Write(Option<Value>),
    /// Set the member to this value (`None`: remove it) and close the editor.
    WriteAndClose(Option<Value>),
    /// An item was added (write it): the lookup of the text it came from is no longer wanted.
    Added(Option<Value>),
    /// Close the editor.
    Close,
    /// Close the editor; a lookup it started may still be on its way (cancel it).
    CloseLookup,
    /// The text of the list changed: the older lookup is stale; `lookup` says whether to
    /// look the new text up after the typing pause.
    Typed {
        /// The field autocompletes and the text is long enough.
        lookup: bool,
    },
    /// Close the editor, keeping what was typed but not yet added: set the member to this
    /// value first (a lookup it started may still be on its way: cancel it).
    KeepAndClose(Option<Value>),
}

/// The member value of a list: `None` (remove the member) when empty.
fn list_value(items: &[Value]) -> Option<Value> {
    (!items.is_empty()).then(|| Value::Array(items.to_vec()))
}

/// The values of pasted list text: split on newlines and commas, each trimmed and sanitized,
/// empty ones left out (`"a.com, b.com\nc.com"` → 3 values).
pub fn split_list(raw: &str) -> Vec<String> {
    raw.split(['\n', '\r', ','])
        .map(|p| sanitize(p).trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

impl ListEditor {
    /// Adds typed `text` as an item (a city for the locations field), once.
    fn add_text(&mut self, text: &str) {
        let item = if self.ac == Some(AutocompleteKind::Locations) {
            parse_city(text)
        } else {
            Value::String(text.to_string())
        };
        if !self.items.contains(&item) {
            self.items.push(item);
        }
    }
}

impl Editor {
    /// The editor of `leaf`, holding its current value `cur`; closed sets take their options
    /// from `data_fields` (and wait for them when they have not loaded).
    pub fn open(leaf: &'static Leaf, cur: Option<&Value>, data_fields: &DataFields) -> Editor {
        let body = match leaf.kind {
            LeafKind::List(Source::Closed(set)) | LeafKind::One(set) => {
                let multi = matches!(leaf.kind, LeafKind::List(_));
                let chosen = match cur {
                    Some(Value::Array(a)) => a.clone(),
                    Some(v) if !v.is_null() => vec![v.clone()],
                    _ => vec![],
                };
                let options = set.options(data_fields);
                EditorBody::Pick(Picker {
                    waiting_for_data: set.needs_data_fields() && options.is_empty(),
                    ..Picker::new(options, multi, chosen)
                })
            }
            LeafKind::List(src) => EditorBody::List(ListEditor {
                items: match cur {
                    Some(Value::Array(a)) => a.clone(),
                    _ => vec![],
                },
                input: textarea(""),
                ac: match src {
                    Source::Ac(k) => Some(k),
                    _ => None,
                },
                suggestions: vec![],
                sel: None,
                ac_state: AcState::Idle,
            }),
            LeafKind::Range(_) => {
                let end = |k: &str| {
                    cur.and_then(|v| v.get(k))
                        .filter(|v| !v.is_null())
                        .map(schema::fmt_item)
                        .unwrap_or_default()
                };
                EditorBody::Text(TextEditor {
                    inputs: vec![textarea(&end("from")), textarea(&end("to"))],
                    focus: 0,
                    error: None,
                })
            }
            LeafKind::Scalar(_) => {
                let t = cur
                    .map(|v| schema::fmt_value(leaf.kind, v))
                    .unwrap_or_default();
                EditorBody::Text(TextEditor {
                    inputs: vec![textarea(&t)],
                    focus: 0,
                    error: None,
                })
            }
            LeafKind::Json => {
                let t = cur.map(|v| v.to_string()).unwrap_or_default();
                EditorBody::Text(TextEditor {
                    inputs: vec![textarea(&t)],
                    focus: 0,
                    error: None,
                })
            }
        };
        Editor {
            leaf,
            body,
            data_error: None,
        }
    }

    /// Reference data could not be loaded: a closed set waiting for it says why.
    pub fn data_failed(&mut self, why: &str) {
        self.data_error = Some(why.to_string());
    }

    /// Reference data arrived: a closed set that waited for it gets its options.
    pub fn refresh_options(&mut self, data_fields: &DataFields) {
        if let (EditorBody::Pick(pk), LeafKind::List(Source::Closed(set)) | LeafKind::One(set)) =
            (&mut self.body, self.leaf.kind)
            && pk.waiting_for_data
        {
            pk.set_options(set.options(data_fields));
            pk.waiting_for_data = pk.options.is_empty();
        }
    }

    /// Handles a key; `action` is what the keymap's text layer made of it (`None`: text).
    fn on_key(&mut self, key: KeyEvent, action: Option<TextAction>) -> EditorEffect {
        let leaf = self.leaf;
        match &mut self.body {
            EditorBody::List(le) => match action {
                // Typed text is never dropped silently: it becomes an item.
                Some(TextAction::Cancel) => {
                    let text = input_text(&le.input).trim().to_string();
                    if text.is_empty() {
                        return EditorEffect::CloseLookup;
                    }
                    le.add_text(&text);
                    EditorEffect::KeepAndClose(list_value(&le.items))
                }
                Some(TextAction::Up) => {
                    le.sel = match le.sel {
                        Some(0) | None => None,
                        Some(i) => Some(i - 1),
                    };
                    EditorEffect::Nothing
                }
                Some(TextAction::Down) => {
                    if !le.suggestions.is_empty() {
                        le.sel = Some(le.sel.map_or(0, |i| (i + 1).min(le.suggestions.len() - 1)));
                    }
                    EditorEffect::Nothing
                }
                Some(TextAction::Submit) => {
                    let text = input_text(&le.input).trim().to_string();
                    let item = match le.sel.and_then(|i| le.suggestions.get(i)) {
                        Some((_, v)) => v.clone(),
                        None if text.is_empty() => return EditorEffect::CloseLookup,
                        None if le.ac == Some(AutocompleteKind::Locations) => parse_city(&text),
                        None => Value::String(text),
                    };
                    if !le.items.contains(&item) {
                        le.items.push(item);
                    }
                    le.input = textarea("");
                    le.suggestions.clear();
                    le.sel = None;
                    le.ac_state = AcState::Idle;
                    EditorEffect::Added(list_value(&le.items))
                }
                Some(TextAction::RemoveLast) if input_text(&le.input).is_empty() => {
                    le.items.pop();
                    EditorEffect::Write(list_value(&le.items))
                }
                Some(TextAction::PageUp | TextAction::PageDown) => EditorEffect::Nothing,
                _ => match type_key(&mut le.input, key) {
                    Some(text) => {
                        le.sel = None;
                        if le.ac.is_none() {
                            return EditorEffect::Typed { lookup: false };
                        }
                        if text.trim().chars().count() < MIN_LOOKUP_CHARS {
                            le.suggestions.clear();
                            le.ac_state = AcState::Idle;
                            return EditorEffect::Typed { lookup: false };
                        }
                        le.ac_state = AcState::Waiting;
                        EditorEffect::Typed { lookup: true }
                    }
                    None => EditorEffect::Nothing,
                },
            },
            EditorBody::Pick(p) => match p.handle(key, action) {
                PickerEvent::Cancelled => EditorEffect::CloseLookup,
                PickerEvent::Picked(opt) if p.multi => {
                    p.toggle(opt.value);
                    EditorEffect::Write(list_value(&p.chosen))
                }
                PickerEvent::Picked(opt) => EditorEffect::WriteAndClose(Some(opt.value)),
                PickerEvent::Changed | PickerEvent::Nothing => EditorEffect::Nothing,
            },
            EditorBody::Text(t) => match action {
                Some(TextAction::Cancel) => EditorEffect::Close,
                Some(
                    TextAction::NextField
                    | TextAction::PrevField
                    | TextAction::Up
                    | TextAction::Down,
                ) if t.inputs.len() > 1 => {
                    t.focus = 1 - t.focus;
                    EditorEffect::Nothing
                }
                Some(TextAction::Submit) => {
                    let texts: Vec<String> = t.inputs.iter().map(input_text).collect();
                    match parse_text_editor(leaf.kind, &texts) {
                        Ok(v) => EditorEffect::WriteAndClose(v),
                        Err(e) => {
                            t.error = Some(e);
                            EditorEffect::Nothing
                        }
                    }
                }
                _ => {
                    let f = t.focus;
                    t.inputs[f].input(key);
                    t.error = None;
                    EditorEffect::Nothing
                }
            },
        }
    }

    /// Pasted text (raw, as the terminal gave it) goes into the focused field, sanitized (no
    /// lookup is started by a paste). Into a list, text of several lines or comma-separated
    /// values adds one item per value (trimmed, empty ones skipped) and returns the write.
    fn paste(&mut self, raw: &str) -> EditorEffect {
        match &mut self.body {
            EditorBody::List(le) => {
                let parts: Vec<String> = split_list(raw);
                if parts.len() > 1 {
                    for p in &parts {
                        le.add_text(p);
                    }
                    le.input = textarea("");
                    return EditorEffect::Write(list_value(&le.items));
                }
                le.input.insert_str(sanitize(raw));
                return EditorEffect::Nothing;
            }
            EditorBody::Pick(p) => p.paste(&sanitize(raw)),
            EditorBody::Text(t) => {
                let f = t.focus;
                t.inputs[f].insert_str(sanitize(raw));
            }
        }
        EditorEffect::Nothing
    }

    /// The typing pause is over: the autocomplete request for the typed text (for a filter of
    /// a `subject` search), or `None` when there is nothing to look up. A request the client
    /// would refuse is not returned; the editor says why instead.
    pub fn start_lookup(&mut self, subject: SearchSubject) -> Option<AutocompleteRequest> {
        let EditorBody::List(le) = &mut self.body else {
            return None;
        };
        let ac = le.ac?;
        let q = input_text(&le.input).trim().to_string();
        if q.chars().count() < MIN_LOOKUP_CHARS {
            return None;
        }
        match request::build_autocomplete(ac.endpoint(), &q, subject) {
            Ok(req) => {
                le.ac_state = AcState::Loading;
                Some(req)
            }
            Err(problems) => {
                le.ac_state = AcState::Failed(format!("not sent: {}", problems_text(&problems)));
                None
            }
        }
    }

    /// The lookup answered: its suggestions are shown, none highlighted.
    pub fn show_suggestions(&mut self, list: Vec<(String, Value)>) {
        if let EditorBody::List(le) = &mut self.body {
            le.suggestions = list;
            le.sel = None;
            le.ac_state = AcState::Ready;
        }
    }

    /// The lookup failed with `message`.
    pub fn lookup_failed(&mut self, message: &str) {
        if let EditorBody::List(le) = &mut self.body {
            le.ac_state = AcState::Failed(message.to_string());
        }
    }

    /// The keys of the editor's body, for its help line.
    fn body_hints(&self) -> Vec<Hint> {
        match &self.body {
            EditorBody::List(_) => vec![
                Hint::Text(TextAction::Submit, "adds"),
                Hint::Text(TextAction::Down, "suggestions"),
                Hint::Text(TextAction::RemoveLast, "removes the last"),
                Hint::Text(TextAction::Cancel, "closes"),
            ],
            EditorBody::Pick(_) => vec![
                Hint::Text(TextAction::Submit, "picks"),
                Hint::Text(TextAction::Cancel, "closes"),
            ],
            EditorBody::Text(_) => vec![
                Hint::Text(TextAction::NextField, "next field"),
                Hint::Text(TextAction::Submit, "sets"),
                Hint::Text(TextAction::Cancel, "closes"),
            ],
        }
    }
}

impl Component for Editor {
    type Effect = EditorEffect;

    /// Keys through the text layer; a paste into the focused field (a list splits it into
    /// items).
    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<EditorEffect> {
        match input {
            Input::Key { key, text, .. } => Handled::Consumed(self.on_key(key, text)),
            Input::Paste(raw) => Handled::Consumed(self.paste(raw)),
            Input::KeyAction(_) => Handled::Ignored,
        }
    }

    /// Draws the editor in `area` (the screen), under `ctx.anchor` (the selected row of the
    /// filters pane; as wide as the pane, at least 72 columns); an empty closed set says
    /// whether the reference data is loading or why it failed; hints come from the keymap.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let keys = ctx.keys;
        let form = ctx.anchor;
        let row_y = ctx.anchor.y;
        let leaf = self.leaf;
        let width = form.width.max(72).min(area.width);
        let height: u16 = match &self.body {
            EditorBody::Text(t) if t.inputs.len() == 1 => 6,
            EditorBody::Text(_) => 7,
            _ => 16,
        };
        let mut y = row_y + 1;
        if y + height > area.y + area.height {
            y = (area.y + area.height).saturating_sub(height);
        }
        let r = Rect {
            x: form.x,
            y,
            width,
            height: height.min(area.height),
        };
        f.render_widget(Clear, r);
        let title = format!(" {} · {} ", leaf.label(), leaf.path.join("."));
        let block = frame(&title, theme().accent);
        let inner = block.inner(r);
        f.render_widget(block, r);
        let k = |a: TextAction| keys.text_keys_of(a);
        match &self.body {
            EditorBody::List(le) => draw_list(f, inner, le, &k),
            EditorBody::Pick(p) => draw_pick(f, inner, p, self.data_error.as_deref(), &k),
            EditorBody::Text(t) => draw_text(f, inner, t, leaf, &k),
        }
    }

    fn hints(&self) -> Vec<Hint> {
        self.body_hints()
    }
}

/// `"Berlin, de"` → `{"city": "Berlin", "country": "de"}`; without a comma the country is empty.
pub fn parse_city(s: &str) -> Value {
    let (city, cc) = match s.rsplit_once(',') {
        Some((c, cc)) => (c.trim(), cc.trim().to_lowercase()),
        None => (s.trim(), String::new()),
    };
    serde_json::json!({ "city": city, "country": cc })
}

/// Parses the inputs of a range/scalar/JSON editor into the member value; `Ok(None)` clears it.
pub fn parse_text_editor(kind: LeafKind, texts: &[String]) -> Result<Option<Value>, String> {
    match kind {
        LeafKind::Range(num) => {
            let from = schema::parse_num(num, texts.first().map(String::as_str).unwrap_or(""))?;
            let to = schema::parse_num(num, texts.get(1).map(String::as_str).unwrap_or(""))?;
            if let (Some(a), Some(b)) = (
                from.as_ref().and_then(Value::as_f64),
                to.as_ref().and_then(Value::as_f64),
            ) && a > b
            {
                return Err("from is greater than to".into());
            }
            let mut o = serde_json::Map::new();
            if let Some(f) = from {
                o.insert("from".into(), f);
            }
            if let Some(t) = to {
                o.insert("to".into(), t);
            }
            Ok(if o.is_empty() {
                None
            } else {
                Some(Value::Object(o))
            })
        }
        LeafKind::Scalar(num) => {
            schema::parse_num(num, texts.first().map(String::as_str).unwrap_or(""))
        }
        LeafKind::Json => {
            let t = texts.first().map(|s| s.trim()).unwrap_or("");
            if t.is_empty() {
                return Ok(None);
            }
            serde_json::from_str::<Value>(t)
                .map(Some)
                .map_err(|e| format!("not JSON: {e}"))
        }
        _ => Err("not a text member".into()),
    }
}

/// The keys of a text action, as hints say them.
type KeysOf<'a> = &'a dyn Fn(TextAction) -> String;

/// Draws a list editor's body: the items chosen, the input, the suggestions (or why there
/// are none) and the hints.
fn draw_list(f: &mut Frame<'_>, inner: Rect, le: &ListEditor, k: KeysOf<'_>) {
    let [items, input, list, note] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(2),
    ])
    .areas(inner);
    let chosen = if le.items.is_empty() {
        Line::from(dim("(none yet)"))
    } else {
        Line::from(
            le.items
                .iter()
                .map(|v| {
                    Span::styled(
                        format!("[{}] ", sanitize(&schema::fmt_item(v))),
                        Style::default().fg(theme().good),
                    )
                })
                .collect::<Vec<_>>(),
        )
    };
    f.render_widget(Paragraph::new(chosen).wrap(Wrap { trim: true }), items);
    let [prompt, field] =
        Layout::horizontal([Constraint::Length(2), Constraint::Min(1)]).areas(input);
    f.render_widget(
        Span::styled("› ", Style::default().fg(theme().accent)),
        prompt,
    );
    f.render_widget(&le.input, field);
    let mut lines: Vec<Line> = le
        .suggestions
        .iter()
        .enumerate()
        .take(list.height as usize)
        .map(|(i, (label, _))| {
            let l = Line::from(format!("  {}", sanitize(label)));
            if Some(i) == le.sel {
                l.style(theme().selection(true).add_modifier(Modifier::BOLD))
            } else {
                l
            }
        })
        .collect();
    if lines.is_empty() {
        lines.push(Line::from(dim(match (&le.ac_state, le.ac) {
            (_, None) => format!("type a value, {} adds it", k(TextAction::Submit)),
            (AcState::Idle, Some(_)) => "type at least 2 letters for suggestions".to_string(),
            (AcState::Waiting, _) => "…".to_string(),
            (AcState::Loading, _) => "looking up suggestions…".to_string(),
            (AcState::Ready, _) => format!(
                "no suggestions; {} adds what you typed",
                k(TextAction::Submit)
            ),
            (AcState::Failed(e), _) => format!("suggestions failed: {}", sanitize(e)),
        })));
    }
    f.render_widget(Paragraph::new(lines), list);
    let mut n = vec![Line::from(dim(format!(
        "{} adds · {} picks · {} on empty removes · {} done",
        k(TextAction::Submit),
        k(TextAction::Down),
        k(TextAction::RemoveLast),
        k(TextAction::Cancel)
    )))];
    if let Some(ac) = le.ac {
        n.push(Line::from(Span::styled(
            format!(
                "suggestions: {} · {} credit per lookup",
                ac.endpoint().path(),
                fmt_credits(autocomplete_cost())
            ),
            Style::default().fg(theme().warn),
        )));
    }
    f.render_widget(Paragraph::new(n), note);
}

/// Draws a closed set's picker: the query, the options (or why there are none) and the hints.
fn draw_pick(f: &mut Frame<'_>, inner: Rect, p: &Picker, data_error: Option<&str>, k: KeysOf<'_>) {
    let [input, list, note] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    p.draw_query(f, input, "/ ");
    let empty = Line::from(dim(if p.waiting_for_data {
        match data_error {
            Some(e) => format!("reference data unavailable: {}", sanitize(e)),
            None => "loading /v2/data-fields…".to_string(),
        }
    } else {
        "nothing matches".to_string()
    }));
    p.draw_list(f, list, true, Some(empty));
    let hint = if p.multi {
        format!(
            "{} chosen · {} of {} shown · {} toggles · {} done",
            p.chosen.len(),
            p.filtered.len(),
            p.options.len(),
            k(TextAction::Submit),
            k(TextAction::Cancel)
        )
    } else {
        format!(
            "{} picks · {} cancels",
            k(TextAction::Submit),
            k(TextAction::Cancel)
        )
    };
    f.render_widget(Line::from(dim(hint)), note);
}

/// Draws a range, scalar or JSON editor's inputs, its error and hints.
fn draw_text(f: &mut Frame<'_>, inner: Rect, t: &TextEditor, leaf: &Leaf, k: KeysOf<'_>) {
    let (sw, ap, ca) = (
        k(TextAction::NextField),
        k(TextAction::Submit),
        k(TextAction::Cancel),
    );
    let (hint, labels): (String, Vec<&str>) = match leaf.kind {
        LeafKind::Range(schema::Num::Date) => (
            format!("YYYY-MM-DD; empty = open end · {sw} switches · {ap} applies · {ca} cancels"),
            vec!["from", "to"],
        ),
        LeafKind::Range(_) => (
            format!("empty = open end · {sw} switches · {ap} applies · {ca} cancels"),
            vec!["from", "to"],
        ),
        LeafKind::Json => (
            format!("JSON value, e.g. [{{\"department\": \"Sales\", \"from\": 5}}] · {ap} applies"),
            vec!["json"],
        ),
        LeafKind::Scalar(schema::Num::Date) => (
            format!("YYYY-MM or YYYY-MM-DD · empty clears · {ap} applies"),
            vec!["value"],
        ),
        _ => (
            format!("empty clears · {ap} applies · {ca} cancels"),
            vec!["value"],
        ),
    };
    let mut cons: Vec<Constraint> = t.inputs.iter().map(|_| Constraint::Length(1)).collect();
    cons.push(Constraint::Length(1));
    cons.push(Constraint::Length(2));
    let rows = Layout::vertical(cons).split(inner);
    for (i, input) in t.inputs.iter().enumerate() {
        let [l, field] =
            Layout::horizontal([Constraint::Length(7), Constraint::Min(1)]).areas(rows[i]);
        let style = if i == t.focus {
            Style::default()
                .fg(theme().accent)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::default().fg(theme().dim)
        };
        f.render_widget(
            Span::styled(
                format!("{:>5}: ", labels.get(i).copied().unwrap_or("")),
                style,
            ),
            l,
        );
        f.render_widget(input, field);
    }
    let n = t.inputs.len();
    if let Some(e) = &t.error {
        f.render_widget(
            Line::from(Span::styled(sanitize(e), Style::default().fg(theme().bad))),
            rows[n],
        );
    }
    f.render_widget(
        Paragraph::new(Line::from(dim(hint))).wrap(Wrap { trim: true }),
        rows[n + 1],
    );
}
