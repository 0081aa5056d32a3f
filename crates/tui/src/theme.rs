//! The explorer's colours (issue 19, "Themes"): one style table, [`Theme`], with a value per
//! theme (`dark`, the default; `light`; `high-contrast`) and one without colour for
//! [`NO_COLOR`](https://no-color.org) terminals, where emphasis is bold and selection reversed.
//! Every component takes its colours from [`theme()`]; none names a colour of its own.
//!
//! The theme is chosen once at start ([`set`]: `--theme`, config `theme`, `NO_COLOR`) and is
//! process-wide, like the terminal it draws on.

use std::sync::atomic::{AtomicU8, Ordering};

use ratatui::style::{Color, Modifier, Style};

/// A theme by name: config `theme = "light"`, `--theme high-contrast`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum ThemeName {
    /// Light text on a dark terminal (the default).
    #[default]
    Dark,
    /// Dark text on a light terminal.
    Light,
    /// The strongest contrast: bright colours and bold on black.
    HighContrast,
}

/// The style table: what each kind of thing on screen is drawn in.
#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    /// Frames of focused panes and popups, prompts, key names in help: the eye's anchor.
    pub accent: Color,
    /// Hints, labels, unfocused frames, ages: what is there but not the point.
    pub dim: Color,
    /// Values set, what arrived, the endpoint, what was saved.
    pub good: Color,
    /// Waiting, estimates, confirmations, what is owned.
    pub warn: Color,
    /// Errors and refusals.
    pub bad: Color,
    /// Column headings and section titles.
    pub heading: Color,
    /// The facets pane's frame, set apart from the results it summarizes.
    pub facets: Color,
    /// Text on an `accent` or `warn` background (the header's badges, a selected bar).
    pub on_accent: Color,
    /// Text of the status line when it reports an error (on `bad`).
    pub on_bad: Color,
    /// Background of the selected row in the focused pane.
    pub selected: Color,
    /// Background of the selected row in a pane without focus.
    pub selected_idle: Color,
    /// `true` for the colourless table ([`NO_COLOR`]): selection and badges are drawn
    /// reversed, since a background colour cannot show them.
    pub plain: bool,
}

impl Theme {
    /// The style of the selected row: its background (`focused`: the pane has focus), or
    /// reversed video without colour.
    pub fn selection(&self, focused: bool) -> Style {
        if self.plain {
            return Style::default().add_modifier(if focused {
                Modifier::REVERSED
            } else {
                Modifier::UNDERLINED
            });
        }
        Style::default().bg(if focused {
            self.selected
        } else {
            self.selected_idle
        })
    }

    /// A badge: bold `on_accent` text on `bg` (the header's name and SANDBOX marker, a
    /// selected bar), reversed without colour.
    pub fn badge(&self, bg: Color) -> Style {
        if self.plain {
            return Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED);
        }
        Style::default()
            .fg(self.on_accent)
            .bg(bg)
            .add_modifier(Modifier::BOLD)
    }

    /// The status line reporting an error: `on_bad` on `bad`, reversed without colour.
    pub fn error_line(&self) -> Style {
        if self.plain {
            return Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED);
        }
        Style::default().fg(self.on_bad).bg(self.bad)
    }
}

/// The default theme, for a dark terminal.
pub const DARK: Theme = Theme {
    accent: Color::Cyan,
    dim: Color::DarkGray,
    good: Color::Green,
    warn: Color::Yellow,
    bad: Color::Red,
    heading: Color::Blue,
    facets: Color::Magenta,
    on_accent: Color::Black,
    on_bad: Color::White,
    selected: Color::Rgb(40, 60, 90),
    selected_idle: Color::Rgb(45, 45, 45),
    plain: false,
};

/// For a light terminal: darker hues that read on white, pale selections.
pub const LIGHT: Theme = Theme {
    accent: Color::Blue,
    dim: Color::Gray,
    good: Color::Rgb(0, 110, 40),
    warn: Color::Rgb(150, 90, 0),
    bad: Color::Rgb(180, 0, 0),
    heading: Color::Rgb(20, 60, 150),
    facets: Color::Rgb(130, 0, 130),
    on_accent: Color::White,
    on_bad: Color::White,
    selected: Color::Rgb(200, 220, 250),
    selected_idle: Color::Rgb(230, 230, 230),
    plain: false,
};

/// The strongest contrast: bright hues, white hints, selections in full blue.
pub const HIGH_CONTRAST: Theme = Theme {
    accent: Color::LightCyan,
    dim: Color::White,
    good: Color::LightGreen,
    warn: Color::LightYellow,
    bad: Color::LightRed,
    heading: Color::LightBlue,
    facets: Color::LightMagenta,
    on_accent: Color::Black,
    on_bad: Color::Black,
    selected: Color::Blue,
    selected_idle: Color::DarkGray,
    plain: false,
};

/// Without colour (`NO_COLOR`): every colour is the terminal's own; selection and badges are
/// reversed.
pub const NO_COLOR: Theme = Theme {
    accent: Color::Reset,
    dim: Color::Reset,
    good: Color::Reset,
    warn: Color::Reset,
    bad: Color::Reset,
    heading: Color::Reset,
    facets: Color::Reset,
    on_accent: Color::Reset,
    on_bad: Color::Reset,
    selected: Color::Reset,
    selected_idle: Color::Reset,
    plain: true,
};

/// The tables in [`CURRENT`]'s numbering.
static TABLES: [&Theme; 4] = [&DARK, &LIGHT, &HIGH_CONTRAST, &NO_COLOR];

/// Which of [`TABLES`] is drawn with.
static CURRENT: AtomicU8 = AtomicU8::new(0);

/// The theme drawn with (dark until [`set`]).
pub fn theme() -> &'static Theme {
    TABLES[usize::from(CURRENT.load(Ordering::Relaxed)).min(TABLES.len() - 1)]
}

/// Chooses the theme for the rest of the process: `name`, or no colour at all when
/// `no_color` (`NO_COLOR` set and not empty, which wins over any theme).
pub fn set(name: ThemeName, no_color: bool) {
    let i = match (no_color, name) {
        (true, _) => 3,
        (false, ThemeName::Dark) => 0,
        (false, ThemeName::Light) => 1,
        (false, ThemeName::HighContrast) => 2,
    };
    CURRENT.store(i, Ordering::Relaxed);
}

/// `true` when the environment asks for no colour: `NO_COLOR` set to anything but the empty
/// string (no-color.org).
pub fn no_color_env() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Style of a pane border: bright when focused.
pub fn border_style(focused: bool) -> Style {
    if focused {
        Style::default()
            .fg(theme().accent)
            .add_modifier(Modifier::BOLD)
    } else {
        Style::default().fg(theme().dim)
    }
}
