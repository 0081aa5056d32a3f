//! The policies of the process allocator, mimalloc (the binary declares it the global
//! allocator, `src/main.rs`): every process hands freed memory
//! back soon ([`init`]); the sandbox loads its dataset under mimalloc's default and hands back
//! what loading freed at once.
//!
//! Loading the sandbox makes about a million small allocations (strings, id lists, index
//! entries) and a 1000-domain lookup about 100,000; with glibc's allocator they were a quarter
//! of start-up and lookup time (issue 3, "Speed"). The sandbox releases what loading freed at
//! once ([`end_bulk_load`]), then hands freed memory back to the system only after it has lain
//! unused for [`SERVING_PURGE_DELAY`] ms: long enough that a sandbox answering requests one after
//! another reuses warm pages rather than paying for fresh, zeroed ones, short enough that what a
//! burst of concurrent searches took is returned once the burst is over (issue 10, item 6: never
//! returning it kept resident memory at the largest burst seen, about 1 GB).
//! `MIMALLOC_PURGE_DELAY` in the environment (mimalloc's own setting, ms, -1 never) overrides it.

/// `mi_option_purge_delay` of mimalloc v3's `include/mimalloc.h` (the version `mimalloc` 0.1.52
/// builds): milliseconds before freed memory is handed back; -1 never.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// mimalloc v3's default `purge_delay` (ms, `src/options.c`).
const DEFAULT_PURGE_DELAY: std::ffi::c_long = 1000;

/// `purge_delay` once the dataset is loaded (ms): freed memory unused this long is handed back.
pub const SERVING_PURGE_DELAY: std::ffi::c_long = 100;

/// The `purge_delay` to serve with: `MIMALLOC_PURGE_DELAY` when set to a number, else
/// [`SERVING_PURGE_DELAY`].
fn serving_purge_delay() -> std::ffi::c_long {
    std::env::var("MIMALLOC_PURGE_DELAY")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(SERVING_PURGE_DELAY)
}

/// Called first in `main`: every process (the CLI, the explorer, `prospect serve`) hands freed
/// memory back once it has lain unused for [`serving_purge_delay`] ms, not mimalloc's default
/// 1 s. A 10,000-company export frees each stored page's answer within a second of the next:
/// with 1 s its peak RSS was 154 MB (the "Data out" target is 150 MB), with 100 ms 118 MB,
/// for about 4% more wall time (medians of 7 runs against `prospect serve`).
///
/// The collect after the option is set matters: a purge mimalloc scheduled before `main`
/// under the 1 s default would otherwise hold back every later one until that second ends.
#[allow(unsafe_code)]
pub fn init() {
    // SAFETY: setting an option is a plain store into mimalloc's option table; any value is
    // valid for `purge_delay`.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, serving_purge_delay()) }
    collect();
}

/// Called before the sandbox loads its dataset: memory freed from now on is scheduled to be
/// handed back (mimalloc's default; a load after an earlier one in the same process would
/// otherwise keep all its temporaries).
#[allow(unsafe_code)]
pub fn begin_bulk_load() {
    // SAFETY: setting an option is a plain store into mimalloc's option table; any value is
    // valid for `purge_delay`.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, DEFAULT_PURGE_DELAY) }
}

/// Called once the dataset is loaded: hands back at once what loading freed (the ~60 MB of
/// decompressed asset, the row views and build-only maps, much of it freed on threads that have
/// ended), so resident memory after start-up is what the sandbox keeps; from then on freed
/// memory is handed back after [`serving_purge_delay`] ms unused.
#[allow(unsafe_code)]
pub fn end_bulk_load() {
    let delay = serving_purge_delay();
    collect();
    // SAFETY: setting an option is a plain store into mimalloc's option table; any value is
    // valid for `purge_delay`.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, delay) }
}

/// Hands back to the system the memory mimalloc holds free: what freed pages of every heap and
/// the arenas keep (`mi_collect(true)`). Called by the sandbox when its engine goes idle after
/// work (`sandbox::service::routes::collect_when_idle`); takes a few milliseconds.
#[allow(unsafe_code)]
pub fn collect() {
    // SAFETY: `mi_collect` only walks mimalloc's own free lists and pages; no preconditions.
    unsafe { libmimalloc_sys::mi_collect(true) }
}

#[cfg(test)]
mod tests {
    /// The option number is mimalloc v3's `mi_option_purge_delay`: its default (10 ms) or the
    /// value this module sets.
    #[test]
    #[allow(unsafe_code)]
    fn purge_delay_option_is_the_right_one() {
        // SAFETY: reading an option has no preconditions.
        let v = unsafe { libmimalloc_sys::mi_option_get(super::MI_OPTION_PURGE_DELAY) };
        assert!(
            v == super::DEFAULT_PURGE_DELAY || v == super::serving_purge_delay(),
            "mimalloc option 15 is {v}: not purge_delay?"
        );
    }
}
