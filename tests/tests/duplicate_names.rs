//! Two tools with one name: the server refuses to start and names both places. A test binary of
//! its own, since every server in a binary serves every tool in it.

// Tools are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Server, error::RegistryError, tool};

/// The line of the first `#[tool(name = "twin")]` below.
const FIRST: u32 = line!() + 3;

/// One twin
#[tool(name = "twin")]
async fn first_twin() -> &'static str {
    "first"
}

/// The line of the second.
const SECOND: u32 = line!() + 3;

/// The other twin
#[tool(name = "twin")]
async fn second_twin() -> &'static str {
    "second"
}

/// A tool with a name of its own, which does not save the server either.
#[tool]
async fn single() -> &'static str {
    "single"
}

fn expected_message() -> String {
    format!(
        "two tools are named `twin`: one at {file}:{FIRST}, one at {file}:{SECOND}; tool names must be unique, \
         rename one with `#[tool(name = \"…\")]`",
        file = file!()
    )
}

#[test]
fn check_names_both_source_locations() {
    let Err(mcp_toolbelt::Error::Registry(error)) = Server::new("twins", "0.0.0").check() else {
        panic!("the tools cannot be served: a registry error expected");
    };
    let RegistryError::DuplicateName {
        name,
        first,
        second,
        ..
    } = &error
    else {
        panic!("{error:?}");
    };
    assert_eq!(
        (name.as_str(), first.clone(), second.clone()),
        (
            "twin",
            format!("{}:{FIRST}", file!()),
            format!("{}:{SECOND}", file!())
        )
    );
    assert_eq!(error.to_string(), expected_message());
}

#[tokio::test]
async fn serving_fails_with_the_same_error() {
    let error = Server::new("twins", "0.0.0")
        .serve_io(tokio::io::empty(), tokio::io::sink())
        .await
        .unwrap_err();
    assert_eq!(error.to_string(), expected_message());
}

#[test]
#[should_panic(expected = "the server cannot start: two tools are named `twin`")]
fn the_test_client_refuses_too() {
    let _ = TestClient::new(Server::new("twins", "0.0.0"));
}

/// A binary whose `main` returns `run()`'s `ExitCode` prints every duplicate as words (not
/// `Debug`) and exits with status 1, serving or listing (issue 14, item 6), after `main`'s
/// destructors ran (issue 27).
#[test]
fn a_binary_names_every_duplicate_and_exits_1() {
    for arguments in [&[][..], &["--list-tools"][..]] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_twins"))
            .args(arguments)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{arguments:?}: {stderr}");
        assert!(!stderr.contains("Custom {"), "{stderr}");
        let file = "tests/src/bin/twins.rs";
        for (first, second) in [(12, 18), (12, 24)] {
            let expected = format!(
                "two tools are named `search`: one at {file}:{first}, one at {file}:{second}"
            );
            assert!(stderr.contains(&expected), "{arguments:?}: {stderr}");
        }
        assert!(
            stderr.starts_with("Error: 2 problems with the tools and resources:\n- "),
            "{stderr}"
        );
        assert!(stderr.ends_with(GUARD_DROPPED), "{stderr}");
        assert!(output.stdout.is_empty(), "{arguments:?}");
    }
}

/// What `tests/src/bin/twins.rs` prints when `main`'s guard is dropped.
const GUARD_DROPPED: &str = "\ntwins: the guard in main was dropped\n";

/// `run()` returns on a bad flag, where it used to call `process::exit`: the error is printed,
/// then `main`'s destructors run (a `tracing-appender` guard would flush), then the process
/// exits with status 1 (issue 27).
#[test]
fn a_start_up_error_lets_the_destructors_in_main_run() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_twins"))
        .arg("--no-such-flag")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("Error: unexpected argument \"--no-such-flag\"\n\ntwins "),
        "{stderr}"
    );
    assert!(stderr.ends_with(GUARD_DROPPED), "{stderr}");
    assert!(output.stdout.is_empty());
}
