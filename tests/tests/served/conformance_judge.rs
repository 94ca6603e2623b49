//! `tests/conformance/judge.sh`, which `tests/conformance/run.sh` runs after each pass of the
//! official conformance suite: it says what was judged, gives each failing scenario the reason it
//! is expected (the baseline's, or `pending-failing.txt`'s for a scenario the suite runs but does
//! not score), and fails on any other. Fed the suite's recorded summary, so it needs no server
//! and no Node.

use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_toolbelt_tests::repo_root;

fn conformance(file: &str) -> PathBuf {
    repo_root().join("tests/conformance").join(file)
}

/// judge.sh's exit success and its output lines.
fn judge(output: &Path, pending: &Path) -> (bool, Vec<String>) {
    let run = Command::new("bash")
        .arg(conformance("judge.sh"))
        .arg(output)
        .arg(conformance("baseline-2026-07-28.yml"))
        .arg(pending)
        .output()
        .expect("bash runs");
    let text = String::from_utf8(run.stdout).unwrap();
    (
        run.status.success(),
        text.lines().map(str::to_owned).collect(),
    )
}

fn recorded() -> PathBuf {
    conformance("recorded/suite-2026-07-28.txt")
}

/// The `pending-failing.txt` of the recorded run (the tasks scenarios failed then).
fn recorded_pending() -> PathBuf {
    conformance("recorded/pending-failing.txt")
}

#[test]
fn every_failure_is_named_with_the_reason_it_is_expected() {
    let (passed, lines) = judge(&recorded(), &recorded_pending());
    assert!(passed, "{lines:#?}");
    assert_eq!(
        lines.last().unwrap(),
        "conformance:   judged 50 scenarios: 41 passed, 0 failed as baseline-2026-07-28.yml expects, 9 pending ones failed as pending-failing.txt expects: passed"
    );
    // Every scored scenario passes outright: none left to a baseline, not even as a warning.
    assert!(
        !lines
            .iter()
            .any(|line| line.contains("expected (baseline-2026-07-28.yml)")),
        "{lines:#?}"
    );
    let tasks: Vec<&String> = lines
        .iter()
        .filter(|line| line.contains("✗ tasks-"))
        .collect();
    assert_eq!(tasks.len(), 9, "{lines:#?}");
    for line in tasks {
        assert!(
            line.contains(": pending in the suite (not scored); expected (pending-failing.txt): the tasks extension"),
            "{line}"
        );
    }
}

#[test]
fn an_unexplained_failure_fails_the_run() {
    // The suite passes its own baseline check, but nothing says why the tasks scenarios fail.
    let name = format!("pending-{}.txt", std::process::id());
    let empty = std::env::temp_dir().join(&name);
    std::fs::write(&empty, "# nothing expected\n").unwrap();
    let (passed, lines) = judge(&recorded(), &empty);
    std::fs::remove_file(&empty).unwrap();
    assert!(!passed);
    let unexpected = format!(
        "conformance:   ✗ tasks-lifecycle: UNEXPECTED: in neither baseline-2026-07-28.yml nor {name}"
    );
    assert!(lines.contains(&unexpected), "{lines:#?}");
    assert!(lines.last().unwrap().ends_with(": FAILED"), "{lines:#?}");
}

#[test]
fn an_expected_failure_that_passes_fails_the_run() {
    let text = std::fs::read_to_string(recorded()).unwrap().replace(
        "✗ tasks-wire-fields: 1 passed, 3 failed",
        "✓ tasks-wire-fields: 4 passed, 0 failed",
    );
    let output = std::env::temp_dir().join(format!("suite-{}.txt", std::process::id()));
    std::fs::write(&output, text).unwrap();
    let (passed, lines) = judge(&output, &recorded_pending());
    std::fs::remove_file(&output).unwrap();
    assert!(!passed);
    assert!(
        lines.contains(&"conformance:   ✓ tasks-wire-fields passes, yet pending-failing.txt expects it to fail: remove it there".to_owned()),
        "{lines:#?}"
    );
}
