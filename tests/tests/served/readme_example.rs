//! The README's first example is `examples/weather/main.rs` as it is (below that file's `//!`
//! lines), so the code a new user copies is the code the real-client tests run
//! (`real_clients.rs`, `weather`); the crate docs' first example starts its server as the README
//! does.

use mcp_toolbelt_tests::repo_root;

#[test]
fn the_readme_example_is_the_weather_example() {
    let read = |path: &str| {
        std::fs::read_to_string(repo_root().join(path))
            .unwrap_or_else(|error| panic!("cannot read {path}: {error}"))
    };
    let readme = read("README.md");
    let block = readme
        .split_once("```rust,no_run\n")
        .and_then(|(_, rest)| rest.split_once("```\n"))
        .map(|(code, _)| code)
        .expect("the README opens with a ```rust,no_run example");
    let example = read("examples/weather/main.rs");
    let code: String = example
        .split_inclusive('\n')
        .skip_while(|line| line.starts_with("//!") || line.trim().is_empty())
        .collect();
    assert_eq!(
        block, code,
        "the README's first example and examples/weather/main.rs differ: change both"
    );
}

#[test]
fn the_crate_docs_start_the_server_as_the_readme_does() {
    let read = |path: &str| std::fs::read_to_string(repo_root().join(path)).unwrap();
    // From `#[tokio::main]` to the end of the first Rust block.
    let main = |text: &str| -> String {
        let start = text.find("#[tokio::main]").expect("a #[tokio::main] fn");
        let block = &text[start..];
        block[..block.find("```").expect("the block ends")].to_owned()
    };
    let docs: String = read("runtime/src/lib.rs")
        .lines()
        .map_while(|line| line.strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n");
    let readme = main(&read("README.md"));
    assert!(readme.contains(".run()"), "{readme}");
    assert_eq!(
        main(&docs),
        readme,
        "the crate docs' example serves as the README's does (run(): --http, --list-tools, --lint)"
    );
}

/// The README's Rust blocks are compiled as the runtime's doctests (`ReadmeDoctests` in
/// `runtime/src/lib.rs`), except a block rustdoc skips: an `ignore`d one, or one it does not
/// read as Rust. A README block that does not build must fail a test, so there is none.
#[test]
fn every_rust_block_in_the_readme_is_compiled() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let lib = std::fs::read_to_string(repo_root().join("runtime/src/lib.rs")).unwrap();
    assert!(
        lib.contains("#[doc = include_str!(\"../../README.md\")]"),
        "runtime/src/lib.rs doctests the README"
    );
    let mut inside = false;
    for (number, line) in readme.lines().enumerate() {
        let Some(info) = line.trim_start().strip_prefix("```") else {
            continue;
        };
        if inside {
            inside = false;
            continue;
        }
        inside = true;
        let attributes: Vec<&str> = info.split(',').map(str::trim).collect();
        assert!(
            !attributes.contains(&"ignore"),
            "README.md:{}: an `ignore`d Rust block is not compiled: {line}",
            number + 1
        );
    }
    assert!(!inside, "README.md: a code block is not closed");
}
