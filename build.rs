//! Tells the tests whether PostgreSQL can be started here (issue 17): without `initdb` (on
//! `PATH` or under `/usr/lib/postgresql/*/bin`), the team-store tests are compiled as ignored,
//! so they are reported as ignored, never as passed, and one warning line names them.

use std::path::Path;

/// The tests that need a PostgreSQL server (`tests/team_store.rs`).
const PG_TESTS: &str = "team_store: two_processes_look_up_the_same_domains_once, \
two_processes_reveal_the_same_people_once, a_killed_buyers_claims_are_taken_over_once, \
store_copy_into_postgres_is_idempotent";

fn main() {
    println!("cargo:rustc-check-cfg=cfg(no_postgres)");
    println!("cargo:rerun-if-env-changed=PATH");
    println!("cargo:rerun-if-changed=build.rs");
    let on_path = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("initdb").is_file()));
    let debian = std::fs::read_dir("/usr/lib/postgresql").is_ok_and(|rd| {
        rd.filter_map(Result::ok)
            .any(|e| Path::new(&e.path()).join("bin/initdb").is_file())
    });
    if !on_path && !debian {
        println!("cargo:rustc-cfg=no_postgres");
        println!(
            "cargo:warning=PostgreSQL (initdb) not found: these tests are ignored, not run: {PG_TESTS}"
        );
    }
}
