//! Small drawing helpers the components share: a centred popup rectangle, a titled frame,
//! dim text and the highlight of a selected line.
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders};

/// A `w` × `h` rectangle centred in `area` (clipped to it).
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// A bordered block titled `title` in `color`.
pub fn frame<'a>(title: &'a str, color: Color) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .title(title)
        .border_style(Style::default().fg(color).add_modifier(Modifier::BOLD))
}

/// Dim text (hints, placeholders).
pub fn dim(s: impl Into<String>) -> Span<'static> {
    Span::styled(s.into(), Style::default().fg(Color::DarkGray))
}

/// The style of the highlighted line of a list.
pub fn selected() -> Style {
    Style::default()
        .bg(Color::Rgb(40, 60, 90))
        .add_modifier(Modifier::BOLD)
}
