//! The rule of an OAuth scope token (RFC 6749 §3.3: printable ASCII, no space, `"` or `\`), in
//! one file that two crates compile: the `scopes(…)` attribute key (`macros/src/scopes.rs`, at
//! each literal, at compile time) and the runtime's `.scopes([…])` of the `Tool`, `Resource`
//! and `Prompt` builders (`runtime/src/registry/scopes.rs`, when the item is added), each with
//! `#[path]`. So the two cannot drift apart; each says how its own syntax is written. It must
//! use nothing but `core` and `std`, the one dependency both crates have.

/// What is wrong with `scope` as an OAuth scope token, if anything: `usage` is how scopes are
/// written where it was given, `each` how two are listed apart.
pub(crate) fn problem(scope: &str, usage: &str, each: &str) -> Result<(), String> {
    if scope.is_empty() {
        return Err(format!("a scope is not empty: {usage}"));
    }
    if scope.contains(' ') {
        return Err(format!(
            "a scope has no space (a token's scopes are separated by spaces): list each one: {each}"
        ));
    }
    let Some(bad) = scope
        .chars()
        .find(|&c| !matches!(c, '\u{21}' | '\u{23}'..='\u{5B}' | '\u{5D}'..='\u{7E}'))
    else {
        return Ok(());
    };
    Err(format!(
        "{bad:?} cannot be in an OAuth scope (RFC 6749 §3.3: printable ASCII without space, `\"` or `\\`)"
    ))
}
