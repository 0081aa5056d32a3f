//! Editing the filter form (issue 19, "The shape": `impl App` by concern): toggles, the
//! member editor and its autocomplete, find-a-member, and writing a member into the body.
use super::*;

impl App {
    /// A yes / no member is a toggle (issue 19): Enter turns it on, off, then unset (the
    /// service's default), without a picker.
    pub(super) fn toggle_member(&mut self, leaf: &'static Leaf) -> Vec<Command> {
        let next = match schema::get(&self.form.body, leaf.path) {
            None | Some(Value::Null) => Some(Value::Bool(true)),
            Some(Value::Bool(true)) => Some(Value::Bool(false)),
            Some(_) => None,
        };
        let said = match &next {
            Some(Value::Bool(true)) => "yes",
            Some(_) => "no",
            None => "not set (the service's default)",
        };
        let selection = self.form.selection();
        self.write_member(leaf, next);
        self.form.keep_selection(selection);
        self.check_form();
        self.info(&format!("{}: {said}", leaf.label()))
    }

    pub(super) fn open_editor(&mut self, leaf: &'static Leaf) {
        let mut editor = Editor::open(
            leaf,
            schema::get(&self.form.body, leaf.path),
            &self.data_fields,
        );
        if let Some(Err(why)) = &self.data_fields_state {
            editor.data_failed(why);
        }
        self.popups.push(Popup::Editor(Box::new(editor)));
    }

    /// The reference data could not be loaded: said where a closed set's options would be.
    pub(super) fn data_fields_failed(&mut self, why: &str) {
        self.data_fields_state = Some(Err(why.to_string()));
        for p in &mut self.popups {
            if let Popup::Editor(ed) = p {
                ed.data_failed(why);
            }
        }
    }

    pub(super) fn refresh_picker(&mut self) {
        for p in &mut self.popups {
            if let Popup::Editor(ed) = p {
                ed.refresh_options(&self.data_fields);
            }
        }
    }

    pub(super) fn close_editor(&mut self) -> Vec<Command> {
        self.popups.pop();
        // An answer (or a 429 retry) still on its way is for a field no longer open.
        self.bump(Slot::Autocomplete);
        vec![Command::Abort(Slot::Autocomplete)]
    }

    /// What the member editor of `leaf` asked for.
    pub(super) fn on_editor(&mut self, leaf: &'static Leaf, e: EditorEffect) -> Vec<Command> {
        match e {
            EditorEffect::Nothing => vec![],
            EditorEffect::Write(v) => {
                self.write_member(leaf, v);
                vec![]
            }
            EditorEffect::WriteAndClose(v) => {
                self.write_member(leaf, v);
                self.popups.pop();
                vec![]
            }
            EditorEffect::Added(v) => {
                self.write_member(leaf, v);
                vec![Command::Abort(Slot::Autocomplete)]
            }
            EditorEffect::Close => {
                self.popups.pop();
                vec![]
            }
            EditorEffect::CloseLookup => self.close_editor(),
            EditorEffect::KeepAndClose(v) => {
                self.write_member(leaf, v);
                self.close_editor()
            }
            EditorEffect::Typed { lookup } => {
                // Any lookup still on its way is for older text.
                let mut cmds = vec![Command::Abort(Slot::Autocomplete)];
                self.bump(Slot::Autocomplete);
                if lookup {
                    cmds.push(self.timer(TimerId::Debounce, DEBOUNCE));
                }
                cmds
            }
        }
    }

    /// What find-a-member asked for: picking one selects it and edits it.
    pub(super) fn on_find(&mut self, e: PickerEvent) -> Vec<Command> {
        match e {
            PickerEvent::Cancelled => {
                self.popups.pop();
            }
            PickerEvent::Picked(opt) => {
                self.popups.pop();
                // The member picked, its section unfolded, selected and edited.
                let leaf = schema::leaves(self.form.endpoint)
                    .into_iter()
                    .find(|l| opt.value.as_str() == Some(l.path.join(".").as_str()));
                if let Some(leaf) = leaf
                    && self.form.select_leaf(leaf)
                {
                    self.focus = Pane::Filters;
                    if leaf.kind == schema::LeafKind::One(schema::SetId::Bool) {
                        return self.toggle_member(leaf);
                    }
                    self.open_editor(leaf);
                }
            }
            PickerEvent::Changed | PickerEvent::Nothing => {}
        }
        vec![]
    }

    /// Sets the member `leaf` of the form to `value`, or removes it (`None`).
    /// Every string is sanitized on the way in (suggestions carry the service's raw text), so
    /// the body, and the filter set saved from it, never hold control bytes.
    pub(super) fn write_member(&mut self, leaf: &Leaf, value: Option<Value>) {
        match value {
            Some(mut v) => {
                prospect_common::sanitize::sanitize_value(&mut v);
                schema::set(&mut self.form.body, leaf.path, v)
            }
            None => schema::remove(&mut self.form.body, leaf.path),
        }
    }

    /// The typing pause is over: look the editor's text up.
    pub(super) fn start_autocomplete(&mut self) -> Vec<Command> {
        let kind = self.tab();
        let Some(Popup::Editor(ed)) = self.popups.last_mut() else {
            return vec![];
        };
        self.dirty = true;
        match ed.start_lookup(kind) {
            Some(req) => vec![self.call(Slot::Autocomplete, Call::Autocomplete(req))],
            None => vec![],
        }
    }
}
