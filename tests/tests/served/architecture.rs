//! The dependency rules `ARCHITECTURE.md` states for the runtime, checked on its source:
//! between its concerns (each top-level module of `runtime/src`, each transport apart) the
//! `use` graph has no cycle, and the leaf modules depend on no other concern.
//!
//! A reading of the text, not of the compiler's: every `crate::…` and `super::…` path outside
//! comments and a file's closing `#[cfg(test)]` module, use trees expanded, a name re-exported
//! at the crate root followed to the module it comes from.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use mcp_toolbelt_tests::repo_root;

/// The modules `ARCHITECTURE.md` says depend on no other module, each with the ones it may use.
const LEAVES: [(&str, &[&str]); 8] = [
    ("types", &[]),
    ("fields", &[]),
    ("jsonrpc", &["fields"]),
    ("random", &[]),
    ("principal", &["random"]),
    ("caps", &["sync"]),
    ("client_capabilities", &["fields"]),
    ("lint", &["types"]),
];

/// One concern's file: its module path (`["protocol", "dispatch"]`) and its text.
struct Source {
    module: Vec<String>,
    text: String,
}

/// Every `.rs` file under `dir`, with its module path below `prefix`.
fn sources(dir: &Path, prefix: &[String], found: &mut Vec<Source>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("runtime/src is readable")
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut module = prefix.to_vec();
            module.push(stem);
            sources(&path, &module, found);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            let mut module = prefix.to_vec();
            if !matches!(stem.as_str(), "mod" | "lib") {
                module.push(stem);
            }
            let text = fs::read_to_string(&path).unwrap();
            found.push(Source {
                module,
                text: without_comments_and_tests(&text),
            });
        }
    }
}

/// `text` without its comments, its string literals (doc links in `doc = "…"`) and its closing
/// `#[cfg(test)] mod …` (the unit tests).
fn without_comments_and_tests(text: &str) -> String {
    let text = match text.find("\n#[cfg(test)]\nmod ") {
        Some(tests) => &text[..tests],
        None => text,
    };
    text.lines()
        .map(|line| {
            let code: String = line.split('"').step_by(2).collect();
            code.split_once("//")
                .map_or(code.clone(), |(code, _)| code.to_owned())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The concern a module path belongs to: its first segment, or `transport/NAME` for a
/// transport.
fn concern(module: &[String]) -> Option<String> {
    match module {
        [] => None,
        [first, second, ..] if first == "transport" => Some(format!("transport/{second}")),
        [first, ..] => Some(first.clone()),
    }
}

/// Every path starting at `crate::` or `super::` in `text`, use trees expanded: each as its
/// segments, `super` left in.
fn paths(text: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(at) = text[from..].find(start) {
            let at = from + at;
            from = at + start.len();
            let preceded =
                at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
            let chained = at >= 2 && &text[at - 2..at] == "::";
            if preceded || chained {
                continue;
            }
            let tree = use_tree(&text[at..]);
            found.extend(expand(&tree));
        }
    }
    found
}

/// The path or use tree at the start of `text`: up to the first character outside it.
fn use_tree(text: &str) -> String {
    let mut depth = 0usize;
    let mut end = text.len();
    for (index, character) in text.char_indices() {
        match character {
            '{' => depth += 1,
            '}' if depth == 0 => {
                end = index;
                break;
            }
            '}' => depth -= 1,
            character
                if depth == 0
                    && !(character.is_alphanumeric() || character == '_' || character == ':') =>
            {
                end = index;
                break;
            }
            _ => {}
        }
    }
    text[..end].to_owned()
}

/// `a::{b, c::{d, e}}` as `a::b`, `a::c::d`, `a::c::e`, each as its segments.
fn expand(tree: &str) -> Vec<Vec<String>> {
    let segments = |path: &str| -> Vec<String> {
        path.split("::")
            .map(|segment| segment.split_whitespace().next().unwrap_or("").to_owned())
            .filter(|segment| !segment.is_empty() && segment != "self" && segment != "*")
            .collect()
    };
    let Some(open) = tree.find('{') else {
        return vec![segments(tree)];
    };
    let head = tree[..open].trim_end_matches("::");
    let body = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut part) = (0usize, String::new());
    for character in body.chars() {
        match character {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut part));
                continue;
            }
            _ => {}
        }
        part.push(character);
    }
    parts.push(part);
    parts
        .iter()
        .filter(|part| !part.trim().is_empty())
        .flat_map(|part| expand(&format!("{head}::{}", part.trim())))
        .collect()
}

/// The concern `path` (as written in `module`) reaches, following the crate root's re-exports.
fn reached(
    path: &[String],
    module: &[String],
    modules: &BTreeSet<Vec<String>>,
    reexports: &BTreeMap<String, Vec<String>>,
) -> Option<String> {
    let mut resolved: Vec<String> = if path.first().is_some_and(|first| first == "crate") {
        path[1..].to_vec()
    } else {
        // `super` counts from the file's module (`mod.rs` is the module itself).
        let mut base = module.to_vec();
        let mut rest = path;
        while rest.first().is_some_and(|segment| segment == "super") {
            base.pop();
            rest = &rest[1..];
        }
        base.extend_from_slice(rest);
        base
    };
    // An item at the crate root is the module it was re-exported from.
    if !resolved.is_empty()
        && !modules
            .iter()
            .any(|known| known.first() == resolved.first())
    {
        resolved = reexports.get(&resolved[0])?.clone();
    }
    concern(&resolved)
}

/// The concerns each concern uses.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut found = Vec::new();
    sources(&repo_root().join("runtime/src"), &[], &mut found);
    let modules: BTreeSet<Vec<String>> = found.iter().map(|source| source.module.clone()).collect();
    // `pub use context::{Context, LogLevel};` at the root: `Context` comes from `context`.
    let root = found
        .iter()
        .find(|source| source.module.is_empty())
        .unwrap();
    let mut reexports = BTreeMap::new();
    for line in root.text.split(';') {
        let Some(tree) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        for path in expand(tree.trim()) {
            if let (Some(name), true) = (path.last(), path.len() > 1) {
                reexports.insert(name.clone(), path[..path.len() - 1].to_vec());
            }
        }
    }
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for source in &found {
        let Some(from) = concern(&source.module) else {
            continue;
        };
        let uses = graph.entry(from.clone()).or_default();
        for path in paths(&source.text) {
            if let Some(to) = reached(&path, &source.module, &modules, &reexports)
                && to != from
            {
                uses.insert(to);
            }
        }
    }
    graph
}

/// The cycles of `graph`, each as the concerns on it (strongly connected groups of two or more).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reaches = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_owned()];
        while let Some(next) = todo.pop() {
            for to in graph.get(&next).into_iter().flatten() {
                if seen.insert(to.clone()) {
                    todo.push(to.clone());
                }
            }
        }
        seen
    };
    let mut grouped = BTreeSet::new();
    let mut groups = Vec::new();
    for node in graph.keys() {
        if grouped.contains(node) {
            continue;
        }
        let forward = reaches(node);
        let group: Vec<String> = forward
            .iter()
            .filter(|other| *other != node && reaches(other).contains(node))
            .cloned()
            .collect();
        if !group.is_empty() {
            let mut group = group;
            group.push(node.clone());
            group.sort();
            grouped.extend(group.iter().cloned());
            groups.push(group);
        }
    }
    groups
}

#[test]
fn the_runtimes_concerns_depend_on_each_other_one_way() {
    let graph = graph();
    assert!(
        graph.contains_key("protocol") && graph["protocol"].contains("registry"),
        "the reading finds the dependencies there are: {graph:?}"
    );
    let cycles = cycles(&graph);
    assert!(
        cycles.is_empty(),
        "concerns that depend on each other (ARCHITECTURE.md: dependencies point one way): {cycles:?}"
    );
}

#[test]
fn the_leaf_modules_depend_on_no_other() {
    let graph = graph();
    for (leaf, allowed) in LEAVES {
        let uses = graph
            .get(leaf)
            .unwrap_or_else(|| panic!("no module {leaf}"));
        let others: Vec<&String> = uses
            .iter()
            .filter(|used| !allowed.contains(&used.as_str()))
            .collect();
        assert!(
            others.is_empty(),
            "{leaf} depends on {others:?}, and must not (ARCHITECTURE.md)"
        );
    }
}

#[test]
fn a_cycle_is_found() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(from, to)| (from.to_owned(), to.into_iter().map(str::to_owned).collect()))
    .collect();
    assert_eq!(cycles(&graph), [["a", "b", "c"]]);
    assert_eq!(
        expand("crate::{a::{b, c as d}, e}"),
        [
            vec!["crate", "a", "b"],
            vec!["crate", "a", "c"],
            vec!["crate", "e"]
        ]
    );
}
