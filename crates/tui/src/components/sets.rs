//! Filter-set I/O (`tui::filter_sets` files): the current set's name, saving under it or a
//! new name (the "Save filter set as" prompt), and the "Filter sets" chooser that opens or
//! deletes one. The popups own their state and keys and hand back what the user chose; the
//! state owner applies an opened set to the form.
use crate::theme::theme;
use std::path::{Path, PathBuf};

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use ratatui_textarea::TextArea;

use super::text::{input_text, textarea};
use super::widgets::{centered, dim, frame, selected};
use super::{Component, Ctx, Handled, Hint, Input, hint_line};
use crate::keymap::{KeyAction, TextAction};
use prospect_common::sanitize::sanitize;
use prospect_core::filter_set::{self as filter_sets, FilterSet};

/// Where filter sets live and which one is open.
#[derive(Debug, Clone)]
pub struct FilterSets {
    /// The directory of `NAME.json` files.
    pub dir: PathBuf,
    /// Name of the filter set last opened or saved.
    pub name: Option<String>,
    /// The file the open set was read from when it is not in `dir` (`--filters FILE`):
    /// saving under the same name writes back to it.
    pub file: Option<PathBuf>,
}

impl FilterSets {
    /// The sets in `dir`, none open.
    pub fn new(dir: PathBuf) -> FilterSets {
        FilterSets {
            dir,
            name: None,
            file: None,
        }
    }

    /// Reads the set file `path` (a command-line argument); its name is the file stem.
    /// Errors in one line naming the file (and line and column for bad JSON).
    pub fn open_path(&mut self, path: &Path) -> Result<(FilterSet, Option<String>), String> {
        let set = filter_sets::load(path).map_err(|e| e.to_string())?;
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .map(str::to_string);
        self.name = name.clone();
        self.file = Some(path.to_path_buf());
        Ok((set, name))
    }

    /// Reads the saved set `name` and makes it the open one.
    pub fn open(&mut self, name: &str) -> Result<FilterSet, String> {
        let set = filter_sets::path_of(&self.dir, name)
            .and_then(|p| filter_sets::load(&p))
            .map_err(|e| e.to_string())?;
        self.name = Some(name.to_string());
        self.file = None;
        Ok(set)
    }

    /// Writes `set` as `name` (atomically) and makes it the open one: back to the file it
    /// was opened from (`--filters FILE`) when the name is unchanged, else as `dir/NAME.json`.
    /// Returns the path written.
    pub fn save(&mut self, name: &str, set: &FilterSet) -> Result<PathBuf, String> {
        if let Some(file) = self
            .file
            .clone()
            .filter(|_| self.name.as_deref() == Some(name))
        {
            filter_sets::save_to(&file, set).map_err(|e| e.to_string())?;
            return Ok(file);
        }
        let path = filter_sets::save(&self.dir, name, set).map_err(|e| e.to_string())?;
        self.name = Some(name.to_string());
        self.file = None;
        Ok(path)
    }

    /// The saved names, sorted.
    pub fn list(&self) -> Result<Vec<String>, String> {
        filter_sets::list(&self.dir).map_err(|e| e.to_string())
    }

    /// Deletes the saved set `name` (the open one is then none).
    pub fn delete(&mut self, name: &str) -> Result<(), String> {
        filter_sets::delete(&self.dir, name).map_err(|e| e.to_string())?;
        if self.name.as_deref() == Some(name) {
            self.name = None;
        }
        Ok(())
    }
}

/// Columns of the "Save filter set as" prompt.
const SAVE_WIDTH: u16 = 64;

/// The "Save filter set as" prompt.
#[derive(Debug)]
pub struct SaveName {
    /// The name being typed.
    pub input: TextArea<'static>,
    /// The directory the set is saved in (named in the hint).
    pub dir: PathBuf,
}

/// What the prompt wants.
#[derive(Debug, Clone, PartialEq)]
pub enum SaveNameEffect {
    /// Keep typing.
    Nothing,
    /// Closed without saving.
    Cancelled,
    /// Save under this (valid) name.
    Save(String),
    /// The name cannot be a file name: say why, keep the prompt.
    Invalid(String),
}

impl SaveName {
    /// The prompt, prefilled with `name`, saving into `dir`.
    pub fn new(name: &str, dir: &Path) -> SaveName {
        SaveName {
            input: textarea(name),
            dir: dir.to_path_buf(),
        }
    }

    /// Handles a key (`action` from the text layer).
    fn on_key(&mut self, key: KeyEvent, action: Option<TextAction>) -> SaveNameEffect {
        match action {
            Some(TextAction::Cancel) => SaveNameEffect::Cancelled,
            Some(TextAction::Submit) => {
                let name = input_text(&self.input).trim().to_string();
                if filter_sets::valid_name(&name) {
                    SaveNameEffect::Save(name)
                } else {
                    SaveNameEffect::Invalid(format!(
                        "{name:?} is not a usable name (letters, digits, space, '-', '_', '.')"
                    ))
                }
            }
            _ => {
                self.input.input(key);
                SaveNameEffect::Nothing
            }
        }
    }
}

impl Component for SaveName {
    type Effect = SaveNameEffect;

    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<SaveNameEffect> {
        match input {
            Input::Key { key, text, .. } => Handled::Consumed(self.on_key(key, text)),
            Input::Paste(raw) => {
                self.input.insert_str(sanitize(raw));
                Handled::Consumed(SaveNameEffect::Nothing)
            }
            Input::KeyAction(_) => Handled::Ignored,
        }
    }

    /// Draws the prompt; the hint names the directory.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        // The whole file it writes, in as many lines as it takes (never cut).
        let name = input_text(&self.input);
        let name = if name.trim().is_empty() {
            "NAME"
        } else {
            name.trim()
        };
        let lines = super::widgets::path_lines(
            &self.dir.join(format!("{name}.json")),
            SAVE_WIDTH as usize - 2,
        );
        super::widgets::draw_prompt(
            f,
            area,
            SAVE_WIDTH,
            " Save filter set as ",
            &self.input,
            hint_line(&self.hints(), ctx.keys),
            lines,
        );
    }

    fn hints(&self) -> Vec<Hint> {
        vec![
            Hint::Text(TextAction::Submit, "saves"),
            Hint::Text(TextAction::Cancel, "cancels"),
        ]
    }
}

/// The "Filter sets" chooser.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenSets {
    /// Names of the saved sets.
    pub names: Vec<String>,
    /// Highlighted.
    pub sel: usize,
    /// Each set's last run in words (`2h ago · 2 new`), once read (issue 37).
    pub last: std::collections::HashMap<String, String>,
}

/// What the chooser wants.
#[derive(Debug, Clone, PartialEq)]
pub enum OpenSetsEffect {
    /// Nothing to do (moved, or a key it does not use).
    Nothing,
    /// Closed.
    Closed,
    /// Open this set.
    Open(String),
    /// Delete this set.
    Delete(String),
    /// Undo the last delete (the chooser is listed again).
    Undo,
}

impl OpenSets {
    /// The chooser over `names`.
    pub fn new(names: Vec<String>) -> OpenSets {
        OpenSets {
            names,
            sel: 0,
            last: Default::default(),
        }
    }

    /// Shows each set's last run of `runs` (newest first) beside its name, as of `now`:
    /// `last run 2h 05m ago · 2 new (new-only)`.
    pub fn last_runs(
        &mut self,
        runs: &[prospect_core::owned::SetRun],
        now: chrono::DateTime<chrono::Utc>,
    ) {
        for r in runs {
            if self.last.contains_key(&r.set_name) {
                continue;
            }
            let ago = prospect_common::words::duration((now - r.ran_at).num_seconds());
            let how = if r.new_only { " (new-only)" } else { "" };
            self.last.insert(
                r.set_name.clone(),
                format!("last run {ago} ago · {} new{how}", r.new_results),
            );
        }
    }

    /// Handles an action.
    fn on_action(&mut self, action: KeyAction) -> OpenSetsEffect {
        match action {
            KeyAction::Up => self.sel = self.sel.saturating_sub(1),
            KeyAction::Down => self.sel = (self.sel + 1).min(self.names.len().saturating_sub(1)),
            KeyAction::Close => return OpenSetsEffect::Closed,
            KeyAction::Undo => return OpenSetsEffect::Undo,
            KeyAction::Enter => {
                if let Some(n) = self.names.get(self.sel) {
                    return OpenSetsEffect::Open(n.clone());
                }
            }
            KeyAction::Clear => {
                if let Some(n) = self.names.get(self.sel) {
                    return OpenSetsEffect::Delete(n.clone());
                }
            }
            _ => {}
        }
        OpenSetsEffect::Nothing
    }

    /// `name` was deleted: it leaves the list. Returns `true` when the list is now empty.
    pub fn remove(&mut self, name: &str) -> bool {
        self.names.retain(|n| n != name);
        self.sel = self.sel.min(self.names.len().saturating_sub(1));
        self.names.is_empty()
    }
}

impl Component for OpenSets {
    type Effect = OpenSetsEffect;

    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<OpenSetsEffect> {
        let Some(action) = input.action() else {
            return Handled::Ignored;
        };
        Handled::Consumed(self.on_action(action))
    }

    /// Draws the chooser.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let keys = ctx.keys;

        let h = (self.names.len() as u16 + 3)
            .min(area.height.saturating_sub(2))
            .max(5);
        let r = centered(area, 72, h);
        f.render_widget(Clear, r);
        let block = frame(" Filter sets ", theme().accent);
        let inner = block.inner(r);
        f.render_widget(block, r);
        let [list, hint] =
            Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(inner);
        let visible = list.height as usize;
        let offset = super::widgets::follow(0, self.sel, visible);
        let lines: Vec<Line> = self
            .names
            .iter()
            .enumerate()
            .skip(offset)
            .take(visible)
            .map(|(i, n)| {
                let l = match self.last.get(n) {
                    Some(last) => Line::from(vec![
                        Span::raw(format!(" {n}  ")),
                        Span::styled(last.clone(), Style::default().fg(theme().dim)),
                    ]),
                    None => Line::from(format!(" {n}")),
                };
                if i == self.sel {
                    l.style(selected())
                } else {
                    l
                }
            })
            .collect();
        f.render_widget(Paragraph::new(lines), list);
        f.render_widget(Line::from(dim(hint_line(&self.hints(), keys))), hint);
    }

    fn hints(&self) -> Vec<Hint> {
        vec![
            Hint::KeyAction(KeyAction::Enter, "open"),
            Hint::KeyAction(KeyAction::Clear, "delete"),
            Hint::KeyAction(KeyAction::Close, "close"),
        ]
    }
}

/// "Quit with unsaved filters?" (issue 19, "Editing"): the quit key asks first when a tab's
/// filters have changes not in a saved set; force quit (`Ctrl-c`) never asks.
#[derive(Debug, Clone, PartialEq)]
pub struct QuitPrompt {
    /// The tabs with unsaved filters.
    pub tabs: Vec<crate::schema::SearchSubject>,
}

/// What the quit prompt wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuitEffect {
    /// Save the shown tab's filters (asking for a name when none is open), then quit.
    Save,
    /// Quit without saving.
    Quit,
    /// Stay.
    Stay,
    /// A key it does not use.
    Nothing,
}

impl Component for QuitPrompt {
    type Effect = QuitEffect;

    fn handle(&mut self, input: Input<'_>, _: &Ctx<'_>) -> Handled<QuitEffect> {
        Handled::Consumed(match input.action() {
            Some(KeyAction::Save | KeyAction::SaveAs) => QuitEffect::Save,
            Some(KeyAction::Quit) => QuitEffect::Quit,
            Some(KeyAction::Close) => QuitEffect::Stay,
            _ => QuitEffect::Nothing,
        })
    }

    /// Draws the question centred in `area`: which tabs have unsaved filters, and the keys.
    fn draw(&self, f: &mut Frame<'_>, area: Rect, ctx: &Ctx<'_>) {
        let r = centered(area, 76, 6);
        f.render_widget(Clear, r);
        let block = frame(" Unsaved filters ", theme().warn);
        let inner = block.inner(r);
        f.render_widget(block, r);
        let tabs: Vec<&str> = self
            .tabs
            .iter()
            .map(|k| match k {
                crate::schema::SearchSubject::Companies => "companies",
                crate::schema::SearchSubject::People => "people",
            })
            .collect();
        let lines = vec![
            Line::from(format!(
                " The {} filters have changes not in a saved set.",
                tabs.join(" and ")
            )),
            Line::from(""),
            Line::from(dim(format!(" {}", hint_line(&self.hints(), ctx.keys)))),
        ];
        f.render_widget(Paragraph::new(lines), inner);
    }

    fn hints(&self) -> Vec<Hint> {
        vec![
            Hint::KeyAction(KeyAction::Save, "save, then quit"),
            Hint::KeyAction(KeyAction::Quit, "quit without saving"),
            Hint::KeyAction(KeyAction::Close, "stay"),
        ]
    }
}
