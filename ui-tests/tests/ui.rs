//! The `#[tool]` attribute's compile-time contract, checked by compiling small programs.
//!
//! `ui/fail/*.rs` must fail to compile with exactly the errors in the `.stderr` next to them:
//! each error under the user's token, saying what to write. The uses that must compile and run
//! are the programs of `src/bin/`, run by `tests/pass.rs`: with no `pass` case, trybuild checks
//! its own build of the dependencies rather than compiling them to machine code.
//! After a change to the macro or the toolchain, regenerate with
//! `TRYBUILD=overwrite cargo test -p ui-tests --test ui` and review the diff; never edit a
//! `.stderr` by hand.

/// One trybuild run over every case, so the cases share one build of the dependencies.
#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/fail/*.rs");
}
