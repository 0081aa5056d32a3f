//! The real terminal: init (ratatui's, plus bracketed paste and, unless turned off, mouse
//! reports), restore on every exit path, a panic hook chained after ratatui's, and Ctrl-Z
//! suspend/resume.
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::DefaultTerminal;

/// Whether the terminal was asked for mouse reports (so restore and suspend undo them).
static MOUSE: AtomicBool = AtomicBool::new(false);

/// Initializes the terminal (raw mode, alternate screen, bracketed paste, mouse reports when
/// `mouse`) and chains a panic hook after ratatui's: panics on the UI thread restore the
/// terminal (ratatui's hook) and are logged; panics in background tasks are only logged (the
/// task reports an error instead).
///
/// Errors when the terminal cannot be put in raw mode (e.g. output is not a terminal).
pub fn init(mouse: bool) -> io::Result<DefaultTerminal> {
    let terminal = match ratatui::try_init() {
        Ok(t) => t,
        Err(e) => {
            ratatui::restore();
            return Err(e);
        }
    };
    let _ = execute!(io::stdout(), EnableBracketedPaste);
    if mouse {
        let _ = execute!(io::stdout(), EnableMouseCapture);
    }
    MOUSE.store(mouse, Ordering::Relaxed);
    let ratatui_hook = std::panic::take_hook();
    let ui_thread = std::thread::current().id();
    std::panic::set_hook(Box::new(move |info| {
        tracing::error!(panic = %info, "panic");
        if std::thread::current().id() == ui_thread {
            let _ = execute!(io::stdout(), DisableBracketedPaste);
            if MOUSE.load(Ordering::Relaxed) {
                let _ = execute!(io::stdout(), DisableMouseCapture);
            }
            ratatui_hook(info);
        }
    }));
    Ok(terminal)
}

/// Restores the terminal (leave alternate screen, cooked mode, cursor shown).
pub fn restore() {
    let _ = execute!(io::stdout(), DisableBracketedPaste);
    if MOUSE.load(Ordering::Relaxed) {
        let _ = execute!(io::stdout(), DisableMouseCapture);
    }
    ratatui::restore();
    let _ = io::stdout().flush();
}

/// Ctrl-Z: restores the terminal, stops the process with SIGTSTP, and re-initializes the
/// terminal when the shell continues it.
pub fn suspend(terminal: &mut DefaultTerminal) -> io::Result<()> {
    restore();
    #[cfg(unix)]
    signal_hook::low_level::raise(signal_hook::consts::SIGTSTP)?;
    // Continued (SIGCONT): take the terminal back.
    enable_raw_mode()?;
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableBracketedPaste,
        crossterm::cursor::Hide
    )?;
    if MOUSE.load(Ordering::Relaxed) {
        execute!(io::stdout(), EnableMouseCapture)?;
    }
    terminal.clear()?;
    Ok(())
}

/// Leaves the alternate screen without touching the panic hook (used on error paths before
/// the loop starts).
pub fn leave() {
    let _ = disable_raw_mode();
    let _ = execute!(io::stdout(), LeaveAlternateScreen);
}
