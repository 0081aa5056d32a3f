//! The house's direction (issue 35), read from the sources: which crate may name which, and
//! no new loop of files inside a crate.
//!
//! - Each crate's `Cargo.toml` lists only the crates below it: `prospect-common` ←
//!   `prospect-api` ← `prospect-store` ← `prospect-core` ← the front ends (`prospect-tui`,
//!   `prospect-cli`, `prospect-mcp`), with `prospect-sandbox` beside them on `api` and `common` only. Cargo then
//!   refuses any import against that order.
//! - The sources say the same: no file names a crate its crate may not depend on. Neither front
//!   end names the store: what is owned is read and arranged through `core::owned::Owned`.
//! - Inside a crate, files that import each other in a loop are a knot; the knots that stand
//!   today are listed by name, and a new one fails.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The crates of the house and those each may depend on.
const ALLOWED: &[(&str, &[&str])] = &[
    ("common", &[]),
    ("api", &["common"]),
    ("store", &["common", "api"]),
    ("core", &["common", "api", "store"]),
    ("sandbox", &["common", "api"]),
    ("tui", &["common", "api", "core"]),
    ("cli", &["common", "api", "core"]),
    ("mcp", &["common", "api", "core"]),
];

/// The loops of files inside one crate that stand today (each a sorted list of files under the
/// crate's `src/`). Breaking one is progress: take it off. A new one fails the test.
// None stands now: the sandbox's dataset holds its engine's index types from `engine/held.rs`,
// which names no algorithm (issue 35).
const KNOWN_KNOTS: &[(&str, &[&str])] = &[];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Where a file's unit tests begin: its first `#[cfg(test)]` followed by a module (`mod tests`,
/// `pub(crate) mod tests`, `mod platform_tests`, …); its end when it has none.
fn unit_tests_at(text: &str) -> usize {
    let mut from = 0;
    while let Some(i) = text[from..].find("#[cfg(test)]\n") {
        let at = from + i;
        let next = text[at..].lines().nth(1).unwrap_or("");
        if next.contains("mod ") && next.trim_end().ends_with('{') {
            return at;
        }
        from = at + 1;
    }
    text.len()
}

/// The code of a file without its comments and without its `#[cfg(test)]` tail (unit tests may
/// reach anywhere in their crate).
fn code_of(text: &str) -> String {
    let text = &text[..unit_tests_at(text)];
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The `prospect_*` crates a piece of code names.
fn crates_named(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("prospect_") {
        let before = rest[..i].chars().last();
        let tail = &rest[i + "prospect_".len()..];
        let name: String = tail
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '_')
            .collect();
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && tail[name.len()..].starts_with("::")
        {
            out.insert(name.clone());
        }
        rest = &tail[name.len()..];
    }
    out
}

#[test]
fn each_crate_depends_only_on_the_crates_below_it() {
    for (krate, allowed) in ALLOWED {
        let manifest = root().join("crates").join(krate).join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest).unwrap();
        let deps: BTreeSet<&str> = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("prospect-"))
            .filter_map(|l| l.split(['.', ' ', '=']).next())
            .collect();
        let allowed: BTreeSet<&str> = allowed.iter().copied().collect();
        let wrong: Vec<_> = deps.difference(&allowed).collect();
        assert!(
            wrong.is_empty(),
            "crates/{krate}/Cargo.toml depends on {wrong:?}, against the house's order"
        );
    }
}

#[test]
fn no_file_names_a_crate_against_the_order() {
    let mut wrong = Vec::new();
    for (krate, allowed) in ALLOWED {
        let src = root().join("crates").join(krate).join("src");
        for file in rust_files(&src) {
            let rel = file
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let code = code_of(&std::fs::read_to_string(&file).unwrap());
            for named in crates_named(&code) {
                let ok = named == *krate || allowed.contains(&named.as_str());
                if !ok {
                    wrong.push(format!("crates/{krate}/src/{rel} names prospect_{named}"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the house's order:\n{}",
        wrong.join("\n")
    );
}

/// `code` without its `pub use …;` statements: a module handing on its children's names is
/// their face, not a file that depends on them.
fn without_re_exports(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(i) = ["pub use ", "pub(crate) use ", "pub(super) use "]
        .iter()
        .filter_map(|k| rest.find(k))
        .min()
    {
        out.push_str(&rest[..i]);
        rest = rest[i..].find(';').map_or("", |j| &rest[i + j + 1..]);
    }
    out.push_str(rest);
    out
}

/// The module path of a file under `src/`: `lib.rs` → `[]`, `a/mod.rs` and `a.rs` → `[a]`.
fn module_of(rel: &str) -> Vec<String> {
    let rel = rel.trim_end_matches(".rs");
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The files of one crate each file imports: `crate::a::b::…`, `super::…` and a child module's
/// `child::…` paths, each resolved to the longest module path that is a file.
fn file_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files: BTreeMap<Vec<String>, String> = rust_files(src)
        .iter()
        .map(|f| {
            let rel = f
                .strip_prefix(src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (module_of(&rel), rel)
        })
        .collect();
    let resolve = |path: Vec<String>| -> Option<&String> {
        (1..=path.len()).rev().find_map(|n| files.get(&path[..n]))
    };
    let mut graph = BTreeMap::new();
    for (module, rel) in &files {
        let code = without_re_exports(&code_of(&std::fs::read_to_string(src.join(rel)).unwrap()));
        let mut out = BTreeSet::new();
        let tokens: Vec<&str> = code
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .filter(|t| t.contains("::"))
            .collect();
        for t in tokens {
            let segs: Vec<&str> = t.split("::").filter(|s| !s.is_empty()).collect();
            let Some(first) = segs.first() else { continue };
            let path: Option<Vec<String>> = match *first {
                "crate" => Some(segs[1..].iter().map(|s| s.to_string()).collect()),
                "super" => {
                    let ups = segs.iter().take_while(|s| **s == "super").count();
                    // A file's `super` is its parent module (a `mod.rs` is its folder's module).
                    (ups <= module.len()).then(|| {
                        let mut p = module[..module.len() - ups].to_vec();
                        p.extend(segs[ups..].iter().map(|s| s.to_string()));
                        p
                    })
                }
                child => {
                    let mut p = module.clone();
                    p.push(child.to_string());
                    files.contains_key(&p).then(|| {
                        p.extend(segs[1..].iter().map(|s| s.to_string()));
                        p
                    })
                }
            };
            if let Some(target) = path.and_then(|p| resolve(p).cloned())
                && target != *rel
            {
                out.insert(target);
            }
        }
        graph.insert(rel.clone(), out);
    }
    graph
}

/// The strongly connected parts of more than one file (Tarjan), each sorted.
fn knots(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        t.on.insert(v);
        for w in t.g.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut part = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                part.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if part.len() > 1 {
                part.sort();
                t.out.push(part);
            }
        }
    }
    let mut t = T {
        g: graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn no_new_loop_of_files_inside_a_crate() {
    let mut new = Vec::new();
    for (krate, _) in ALLOWED {
        let graph = file_graph(&root().join("crates").join(krate).join("src"));
        for knot in knots(&graph) {
            let known = KNOWN_KNOTS.iter().any(|(k, files)| {
                k == krate && files.iter().copied().eq(knot.iter().map(String::as_str))
            });
            if !known {
                new.push(format!("{krate}: {knot:?}"));
            }
        }
    }
    assert!(
        new.is_empty(),
        "files that import each other in a loop:\n{}",
        new.join("\n")
    );
}

/// The list of knots only shrinks: a knot that no longer stands is taken off it, so the list
/// says the house as it is.
#[test]
fn every_known_knot_still_stands() {
    for (krate, files) in KNOWN_KNOTS {
        let graph = file_graph(&root().join("crates").join(krate).join("src"));
        let stands = knots(&graph)
            .iter()
            .any(|k| files.iter().copied().eq(k.iter().map(String::as_str)));
        assert!(
            stands,
            "{krate}: {files:?} is no longer a knot; take it off KNOWN_KNOTS"
        );
    }
}

/// The crates whose files and functions are held to the size limits (issue 35): the sandbox's
/// engine files may stay whole where each is one algorithm.
const SIZED: &[&str] = &["common", "api", "store", "core", "tui", "cli", "mcp"];

/// Longest file (its code, without its unit tests) and function, in lines.
const MAX_FILE_LINES: usize = 800;
const MAX_FN_LINES: usize = 120;

/// The lines of a file before its unit tests ([`unit_tests_at`]).
fn code_lines(text: &str) -> Vec<&str> {
    text[..unit_tests_at(text)].lines().collect()
}

/// Each function of `lines` longer than [`MAX_FN_LINES`]: its name, first line and length,
/// from its `fn` line to the `}` at its indentation (a function on one line is skipped).
fn long_functions(lines: &[&str]) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let rest = [
            "pub ",
            "pub(crate) ",
            "pub(super) ",
            "async ",
            "const ",
            "unsafe ",
        ]
        .iter()
        .fold(trimmed, |r, p| r.strip_prefix(p).unwrap_or(r));
        let rest = ["async ", "const ", "unsafe "]
            .iter()
            .fold(rest, |r, p| r.strip_prefix(p).unwrap_or(r));
        let Some(name) = rest.strip_prefix("fn ") else {
            continue;
        };
        if line.trim_end().ends_with('}') {
            continue;
        }
        let name: String = name
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = " ".repeat(indent) + "}";
        if let Some(j) = (i + 1..lines.len()).find(|&j| lines[j] == close) {
            let n = j - i + 1;
            if n > MAX_FN_LINES {
                out.push((name, i + 1, n));
            }
        }
    }
    out
}

#[test]
fn no_file_over_800_lines_and_no_function_over_120() {
    let mut wrong = Vec::new();
    for krate in SIZED {
        let src = root().join("crates").join(krate).join("src");
        for file in rust_files(&src) {
            if file.file_name().is_some_and(|n| n == "tests.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            let lines = code_lines(&text);
            let rel = file.strip_prefix(root()).unwrap().display().to_string();
            if lines.len() > MAX_FILE_LINES {
                wrong.push(format!("{rel}: {} lines", lines.len()));
            }
            for (name, at, n) in long_functions(&lines) {
                wrong.push(format!("{rel}:{at}: fn {name} is {n} lines"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "over the size limits ({MAX_FILE_LINES} lines a file, {MAX_FN_LINES} a function):\n{}",
        wrong.join("\n")
    );
}
