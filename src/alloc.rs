//! The process allocator, mimalloc, and the two memory policies the sandbox sets on it.
//!
//! Loading the sandbox makes about a million small allocations (strings, id lists, index
//! entries) and a 1000-domain lookup about 100,000; with glibc's allocator they were a quarter
//! of start-up and lookup time (issue 3, "Speed"). mimalloc's defaults then hand freed memory
//! back to the system about a second after it is freed, so large answers (a 1000-domain lookup
//! builds about 5 MB of records) paid again for fresh, zeroed pages: a third of its time on
//! this machine. The sandbox therefore releases what loading freed once, then keeps freed
//! memory for reuse ([`begin_bulk_load`], [`end_bulk_load`]).

/// The process allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` of mimalloc v3's `include/mimalloc.h` (the version `mimalloc` 0.1.52
/// builds): milliseconds before freed memory is handed back; -1 never.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// mimalloc v3's default `purge_delay` (ms, `src/options.c`).
const DEFAULT_PURGE_DELAY: std::ffi::c_long = 1000;

/// Called before the sandbox loads its dataset: memory freed from now on is scheduled to be
/// handed back (mimalloc's default; a load after an earlier one in the same process would
/// otherwise keep all its temporaries).
#[allow(unsafe_code)]
pub(crate) fn begin_bulk_load() {
    // SAFETY: setting an option is a plain store into mimalloc's option table; any value is
    // valid for `purge_delay`.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, DEFAULT_PURGE_DELAY) }
}

/// Called once the dataset is loaded: hands back at once what loading freed (the ~60 MB of
/// decompressed asset, the row views and build-only maps, much of it freed on threads that have
/// ended), so resident memory after start-up is what the sandbox keeps; from then on freed
/// memory is kept for reuse rather than handed back, since a long-running sandbox answers the
/// same kinds of requests again and warm pages are cheaper than fresh ones. Resident memory then
/// stays near the largest working set seen.
#[allow(unsafe_code)]
pub(crate) fn end_bulk_load() {
    // SAFETY: `mi_collect` only walks mimalloc's own free lists and pages, and setting an
    // option is a plain store; neither takes pointers or has preconditions.
    unsafe {
        libmimalloc_sys::mi_collect(true);
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1);
    }
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
            v == super::DEFAULT_PURGE_DELAY || v == -1,
            "mimalloc option 15 is {v}: not purge_delay?"
        );
    }
}
