//! The explorer's themes (issue 19, "Themes"): the same screen drawn in `light`,
//! `high-contrast` and without colour (`NO_COLOR`), each a snapshot of its text with the
//! styles of every run of cells. The theme is process-wide, so this file holds one test: the
//! themes are drawn one after another, never beside another test's screens.
#[path = "support/app.rs"]
mod app_support;
use app_support::{ch, opts, render_at, started_with};
use prospect::tui::theme::{self, ThemeName};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier};
use serde_json::json;

/// The rows of the screen, each followed by its runs of styled cells: `x..x fg/bg +MODS`
/// (cells in the terminal's default style are left out).
fn styled(t: &Terminal<TestBackend>) -> String {
    let buf = t.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut text = String::new();
        let mut runs: Vec<(u16, u16, String)> = Vec::new();
        for x in 0..buf.area.width {
            let c = &buf[(x, y)];
            text.push_str(c.symbol());
            let style = if c.fg == Color::Reset && c.bg == Color::Reset && c.modifier.is_empty() {
                String::new()
            } else {
                format!("{:?}/{:?} {:?}", c.fg, c.bg, c.modifier)
            };
            match runs.last_mut() {
                Some((_, end, s)) if *s == style && *end + 1 == x => *end = x,
                _ => runs.push((x, x, style)),
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
        for (a, b, s) in runs.into_iter().filter(|r| !r.2.is_empty()) {
            out.push_str(&format!("    {a}..{b} {s}\n"));
        }
    }
    out
}

/// An explorer with the cursor on a filter line and an error in the status line: frames,
/// hints, badges, the selected line and the error line all show their style.
fn screen() -> Terminal<TestBackend> {
    let mut app = started_with(
        opts(),
        json!({"industries": [], "linkedinIndustries": [], "technologies": [], "regions": {},
               "seniorities": ["VP"], "departments": ["Sales"]}),
        json!({"credits": {"oneTime": 950, "recurrent": 0}, "emailCredits": {"oneTime": 100, "recurrent": 0},
               "phoneCredits": {"oneTime": 0, "recurrent": 0}, "dailyLimitRateLeft": 987,
               "dailyLimitRateSecondsToReset": 3725}),
    );
    let _ = app.update(ch('j'));
    app.status = Some(prospect::tui::app::Status {
        text: "the service is unreachable".into(),
        kind: prospect::tui::app::StatusKind::Error,
    });
    render_at(&app, 80, 24)
}

#[test]
fn every_theme_draws_from_its_own_table_and_no_color_draws_none() {
    // Dark, the default, is what every other snapshot of the explorer is drawn in.
    let dark = styled(&screen());
    assert!(dark.contains("Cyan"), "dark frames are cyan");

    theme::set(ThemeName::Light, false);
    let light = styled(&screen());
    insta::assert_snapshot!("light", light);

    theme::set(ThemeName::HighContrast, false);
    let high = styled(&screen());
    insta::assert_snapshot!("high_contrast", high);

    // NO_COLOR wins over any theme: not one cell has a colour; the selected line and the
    // error line are told apart by reversed video instead.
    theme::set(ThemeName::Light, true);
    let t = screen();
    let buf = t.backend().buffer();
    let coloured = buf
        .content()
        .iter()
        .filter(|c| c.fg != Color::Reset || c.bg != Color::Reset)
        .count();
    assert_eq!(coloured, 0, "no colour under NO_COLOR");
    assert!(
        buf.content()
            .iter()
            .any(|c| c.modifier.contains(Modifier::REVERSED)),
        "the selection is reversed"
    );
    insta::assert_snapshot!("no_color", styled(&t));
    theme::set(ThemeName::Dark, false);

    assert_ne!(light, high);
    assert_ne!(dark, light);
    // The text is the same in every theme: only the styles differ.
    let text = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("    "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(text(&dark), text(&light));
    assert_eq!(text(&dark), text(&high));
}
