//! Drawing: pure functions of [`App`] (no clocks, no randomness). The layout, the header, the
//! credit gauge and the status line are drawn here; the panes and popups are components that
//! draw themselves (`tui::components`).
use crate::theme::theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::app::{App, Pane, StatusKind};
use super::components::{Component, Ctx};

pub mod credits;
mod layout;
pub mod popup;

pub use layout::{Areas, areas};

/// The smallest terminal the explorer draws its panes in; below it, a notice says so.
pub const MIN_WIDTH: u16 = 60;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 16;

/// Below [`MIN_WIDTH`] × [`MIN_HEIGHT`]: a notice with the size needed and how to quit, in
/// place of panes too small to show a row. Keys still work; enlarging redraws the panes.
fn draw_too_small(f: &mut Frame<'_>, area: Rect, app: &App) {
    use ratatui::widgets::{Paragraph, Wrap};
    let text = format!(
        "Terminal too small: {}×{}. prospect needs {MIN_WIDTH}×{MIN_HEIGHT}; enlarge the \
         window ({} quits).",
        area.width,
        area.height,
        app.opts.keymap.first_key_of(crate::keymap::KeyAction::Quit)
    );
    f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}

/// Draws the whole screen (a notice instead below [`MIN_WIDTH`] × [`MIN_HEIGHT`]).
pub fn draw(f: &mut Frame<'_>, app: &App) {
    let area = f.area();
    app.screen.set(area);
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        draw_too_small(f, area, app);
        return;
    }
    let a = areas(area);
    draw_header(f, a.header, app);
    let calm = app.popups.is_empty();
    let kind = app.tab();
    let ctx = Ctx {
        keys: &app.opts.keymap,
        tab: kind,
        has_focus: false,
        focused: false,
        filled: app.form.filled_count(),
        selected: app.search(kind).selected(),
        confirm_above: app.opts.confirm_above,
        now: app.now,
        anchor: a.filters,
    };
    // Each pane with whether it has the focus, and the keyboard (no popup over it).
    let pane = |p: Pane| Ctx {
        has_focus: app.focus == p,
        focused: app.focus == p && calm,
        ..ctx
    };
    app.form.draw(f, a.filters, &pane(Pane::Filters));
    app.results.draw(f, a.results, &pane(Pane::Results));
    app.details.draw(f, a.details, &pane(Pane::Details));
    credits::draw(f, a.credits, app);
    draw_status(f, a.status, app);
    popup::draw(f, area, &a, app, &ctx);
}

fn draw_header(f: &mut Frame<'_>, area: Rect, app: &App) {
    let mut spans = vec![
        Span::styled(" prospect ", theme().badge(theme().accent)),
        Span::raw(" "),
    ];
    if app.opts.sandbox {
        spans.push(Span::styled(" SANDBOX ", theme().badge(theme().warn)));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled(
        prospect_common::sanitize::sanitize(app.base_url()),
        Style::default().fg(theme().dim),
    ));
    spans.push(Span::raw("  "));
    spans.push(Span::styled(
        app.form.endpoint.path(),
        Style::default().fg(theme().good),
    ));
    if let Some(n) = &app.sets.name {
        spans.push(Span::raw("  set: "));
        spans.push(Span::styled(
            n.clone(),
            Style::default().add_modifier(Modifier::BOLD),
        ));
    }
    let focus = match app.focus {
        Pane::Filters => "filters",
        Pane::Results => "results",
        Pane::Details => "details",
    };
    spans.push(Span::styled(
        format!(
            "  [{focus}]  {} help",
            app.opts.keymap.keys_of(super::keymap::KeyAction::Help)
        ),
        Style::default().fg(theme().dim),
    ));
    f.render_widget(Line::from(spans), area);
}

fn draw_status(f: &mut Frame<'_>, area: Rect, app: &App) {
    let line = match &app.status {
        Some(s) => {
            let style = match s.kind {
                StatusKind::Info => Style::default(),
                StatusKind::Progress => Style::default().fg(theme().warn),
                StatusKind::Error => theme().error_line(),
            };
            let icon = match s.kind {
                StatusKind::Info => "",
                StatusKind::Progress => "⏳ ",
                StatusKind::Error => "✗ ",
            };
            let room = (area.width as usize)
                .saturating_sub(1 + unicode_width::UnicodeWidthStr::width(icon));
            let text = crate::components::widgets::fit_words(&s.text, room);
            Line::from(Span::styled(format!(" {icon}{text}"), style))
        }
        None => match &app.last_error {
            Some(e) => Line::from(Span::styled(
                format!(" last error: {e}"),
                Style::default().fg(theme().bad),
            )),
            None => Line::from(Span::styled(
                format!(
                    " {} search · {} edit · {} pane · {} save · {} open · {} quit",
                    app.opts.keymap.keys_of(super::keymap::KeyAction::Search),
                    app.opts.keymap.keys_of(super::keymap::KeyAction::Enter),
                    app.opts.keymap.keys_of(super::keymap::KeyAction::NextPane),
                    app.opts.keymap.keys_of(super::keymap::KeyAction::Save),
                    app.opts.keymap.keys_of(super::keymap::KeyAction::Open),
                    app.opts.keymap.keys_of(super::keymap::KeyAction::Quit),
                ),
                Style::default().fg(theme().dim),
            )),
        },
    };
    f.render_widget(line, area);
}
