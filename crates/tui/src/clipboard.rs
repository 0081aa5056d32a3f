//! Copying to the clipboard from a terminal program: OSC 52, which the terminal itself carries
//! out (so it works over SSH and inside tmux with `set-clipboard on`), and, where this machine
//! has one, the system clipboard through its usual command (`wl-copy`, `xclip`, `xsel`,
//! `pbcopy`) as a fallback for terminals that ignore OSC 52.

use std::io::Write;
use std::process::{Command, Stdio};

use base64::Engine;

/// Most bytes sent through OSC 52 (many terminals cap the sequence near 100 kB).
pub const OSC52_MAX: usize = 74_000;

/// The OSC 52 sequence that puts `text` on the clipboard (`ESC ] 52 ; c ; base64 BEL`);
/// `None` when `text` is too long for it.
pub fn osc52(text: &str) -> Option<String> {
    if text.len() > OSC52_MAX {
        return None;
    }
    let b64 = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
    Some(format!("\x1b]52;c;{b64}\x07"))
}

/// Copies `text` with the first system clipboard command found on PATH (Wayland, X11, macOS);
/// `Ok(name)` of the command that took it, `Err` when there is none or it failed.
pub fn system_copy(text: &str) -> Result<&'static str, String> {
    let candidates: &[(&str, &[&str], bool)] = &[
        (
            "wl-copy",
            &[],
            std::env::var_os("WAYLAND_DISPLAY").is_some(),
        ),
        (
            "xclip",
            &["-selection", "clipboard"],
            std::env::var_os("DISPLAY").is_some(),
        ),
        (
            "xsel",
            &["--clipboard", "--input"],
            std::env::var_os("DISPLAY").is_some(),
        ),
        ("pbcopy", &[], cfg!(target_os = "macos")),
    ];
    for (cmd, args, usable) in candidates {
        if !usable {
            continue;
        }
        let child = Command::new(cmd)
            .args(*args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(mut child) = child else { continue };
        if let Some(mut stdin) = child.stdin.take()
            && stdin.write_all(text.as_bytes()).is_err()
        {
            continue;
        }
        if child.wait().is_ok_and(|s| s.success()) {
            return Ok(cmd);
        }
    }
    Err("no system clipboard command (wl-copy, xclip, xsel, pbcopy) is usable here".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc52_is_base64_and_bounded() {
        assert_eq!(osc52("hi").as_deref(), Some("\x1b]52;c;aGk=\x07"));
        assert!(osc52(&"x".repeat(OSC52_MAX + 1)).is_none());
    }
}
