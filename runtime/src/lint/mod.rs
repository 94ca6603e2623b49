//! Catch what hosts reject before a host does: host profiles ([`all_profiles`], one rule per
//! entry, each with its source) and the lint of a `tools/list` against them. `Server::run()`
//! serves it as `--lint`, tests as [`crate::testing::assert_portable`].
//!
//! ```
//! use mcp_toolbelt::lint;
//! use mcp_toolbelt::tool::ToolDefinition;
//! use serde_json::json;
//!
//! let tool = ToolDefinition::new(
//!     "paint",
//!     json!({"type": "object", "properties": {
//!         "sides": {"type": "integer", "description": "How many", "enum": [3, 4]}}}),
//! )
//! .description("Paint a shape");
//! let report = lint::lint("demo", &[tool], &[lint::profile("cursor")?]);
//! assert!(report.has_errors());
//! assert_eq!(report.findings[0].rule, "enum-type");
//! # Ok::<(), lint::UnknownProfile>(())
//! ```
//!
//! # The host profiles
//!
//! Hosts drop tools, or fail the whole request, for schemas they dislike. Each profile is data
//! (`runtime/src/lint/profiles.rs`, one rule per entry with the spec section, host documentation
//! or public issue that shows it): `mcp`, `anthropic`, `anthropic-strict`, `claude` (Claude.ai and
//! Desktop connectors, Claude Code), `openai`, `openai-strict`, `gemini` (`parameters`),
//! `gemini-json-schema` (`parametersJsonSchema`), `vscode` (and Copilot), `cursor`,
//! `local-grammar` (llama.cpp).
//!
//! ```text
//! cargo run --example catalog -- --lint                       # every profile but the opt-in strict modes; exit 1 on an error
//! cargo run --example lint-bad -- --lint --profile cursor     # one host (repeat --profile for more)
//! cargo run --example catalog -- --lint --format json         # for machines, with the citations
//! ```
//!
//! It prints one line per problem: severity and rule, tool, JSON pointer, what is wrong, the
//! hosts that mind, the fix; then the size of the whole `tools/list` in bytes and an estimate in
//! tokens:
//!
//! ```text
//! error[composition] draw /inputSchema/properties/shape: `oneOf` is used (cursor); fix: a data-carrying enum is a oneOf: use a flatter type, a string enum (unit variants), or a tagged struct (a `kind` string enum and optional fields)
//! tools/list: 2183 bytes, ~546 tokens; 11 errors, 4 warnings, 9 notes (--verbose shows them) (profiles: mcp, anthropic, …)
//! ```
//!
//! Warnings (a missing description, a field a strict mode wants required) never fail. What needs
//! no change is no warning: a keyword a host strips, or an open report against declaring an
//! `outputSchema`, is a *note*, shown with `--verbose` (Gemini's `parameters` drops
//! `additionalProperties`: nothing to change, the server still refuses unknown arguments; it
//! takes a `#[serde(default)]` field's `default` and ignores it). The
//! strict modes (`anthropic-strict`, `openai-strict`) are checked only when named: they apply
//! where whoever sends the tools to the model turns them on, and Anthropic's refuses every
//! numeric or length bound (an integer's width included). A fix names what you can write for the
//! type at hand, or says there is none (a map, `Duration` or `serde_json::Value` takes no
//! `deny_unknown_fields`; an enum's variant takes it on the enum, and an `f32`'s bounds are its
//! range, which an `f64` does not have). The tag of a tagged enum needs no description: serde
//! writes it, and no doc comment reaches it.
//!
//! # Escape hatches, per tool
//!
//! If you know your hosts, name them (`--profile`,
//! [`assert_portable_for`](crate::testing::assert_portable_for)), and per tool:
//! `#[tool(output_schema = false)]` drops a tool's `outputSchema` and `structuredContent` (the
//! JSON stays the text) for hosts that fail tools declaring one; `#[tool(portable = false)]`
//! serves the input schema as schemars generates it, keeping what the portable rewrite removes
//! (`format`, a `null` in a `type` list) for a host that takes it; `#[tool(input_schema =
//! my_schema)]` (and `output_schema = my_output_schema`) serves a hand-written schema from a fn
//! returning a `serde_json::Value` or `schemars::Schema`, the one arguments (and results) are
//! then validated against. Every schema is linted as served, a run-time
//! [`Tool`](crate::tool::Tool)'s too. The portable rewrite itself is described on
//! [`tool`](macro@crate::tool), "Portable schemas".
//!
//! # Icons
//!
//! The `mcp` profile checks every icon as served (SEP-973): its `src` an `https:` URL or a
//! `data:` URI (`icon-source`, an error: clients reject every other scheme), its type an image
//! type hosts show and its sizes `WxH` or `any` (`icon-format`, a warning). `icons(…)` on an
//! attribute checks its literals at compile time; these rules catch what it could not see: an
//! [`Icon`] given to [`Tool::icon`](crate::tool::Tool::icon), and (as findings of
//! `serverInfo`, by `--lint` and `assert_portable`) to [`Server::icon`](crate::Server::icon).
//!
//! # Scopes a server does not check
//!
//! `--lint` also warns (`scopes-without-auth`, the `mcp` profile) of every tool, resource,
//! template and prompt with `scopes(…)` on a server that checks no token (no
//! `HttpConfig::bearer_auth`, no `HttpConfig::oauth`, no `MCP_OAUTH_ISSUER`): with no caller to
//! check, every caller is served it. The finding names the item and what to configure.
//!
//! In tests, [`assert_portable`](crate::testing::assert_portable) fails with the same report.

mod icons;
mod problem;
mod profiles;
mod report;
mod rules;

use profiles::PROFILES;
pub use profiles::{Check, Profile, Rule, Severity, UnknownProfile, profile};
pub use report::{Finding, Report, Subject};

use serde_json::Value;

use crate::types::{Icon, ListToolsResult, ToolDefinition};

/// Checks `tools` (as `tools/list` shows them; `server` is the server's name, which some hosts
/// put before a tool's name) against `profiles`. One finding per problem, naming every profile
/// whose host minds.
#[must_use]
pub fn lint(server: &str, tools: &[ToolDefinition], profiles: &[&'static Profile]) -> Report {
    let listing = ListToolsResult::new(tools.to_vec());
    let bytes = serde_json::to_vec(&listing).map_or(0, |json| json.len());
    let mut findings: Vec<Finding> = Vec::new();
    for profile in profiles {
        for rule in profile.rules {
            let problems = match rule.check {
                Check::ListBytes { max } => (bytes > max)
                    .then(|| {
                        problem::Problem::new(
                            String::new(),
                            format!("tools/list is {bytes} bytes, more than {max}"),
                        )
                    })
                    .into_iter()
                    .map(|problem| ("*", problem))
                    .collect::<Vec<_>>(),
                check => tools
                    .iter()
                    .flat_map(|tool| {
                        rules::check_tool(&check, tool, server)
                            .into_iter()
                            .map(|problem| (tool.name.as_str(), problem))
                    })
                    .collect(),
            };
            for (tool, problem) in problems {
                add(&mut findings, profile, rule, (Subject::Tool, tool), problem);
            }
        }
    }
    sort(&mut findings);
    Report {
        subject: "tools/list".into(),
        profiles: profiles.iter().map(|profile| profile.name).collect(),
        findings,
        bytes,
        tokens: bytes.div_ceil(4),
    }
}

/// Adds to `report` what `profiles` find wrong with the server's own icons (`Server::icon`), as
/// findings of the server `name`, and with each resource's and template's (`Resource::icon`, a
/// `const` in `#[resource(icons(…))]`), as findings of its URI: the icon rules are the only ones
/// that apply to them.
pub(crate) fn add_icons(
    report: &mut Report,
    (name, server): (&str, &[Icon]),
    resources: &[(String, Vec<Icon>)],
    profiles: &[&'static Profile],
) {
    let subjects = std::iter::once(((Subject::Server, name), server)).chain(
        resources
            .iter()
            .map(|(uri, icons)| ((Subject::Resource, uri.as_str()), icons.as_slice())),
    );
    for (subject, icons) in subjects {
        for profile in profiles {
            for rule in profile.rules {
                for problem in icons::check(&rule.check, icons) {
                    add(&mut report.findings, profile, rule, subject, problem);
                }
            }
        }
    }
    sort(&mut report.findings);
}

/// Adds to `report`, for a server that checks no token (no `HttpConfig::bearer_auth`, no
/// `HttpConfig::oauth`), a finding for each item of `scoped` (what it is, its name or URI, the
/// scopes it needs) whose `scopes(…)` then guard nothing: without a caller to check, every
/// caller is served it.
pub(crate) fn add_scopes(
    report: &mut Report,
    scoped: &[(Subject, String, Vec<String>)],
    profiles: &[&'static Profile],
) {
    for (subject, name, scopes) in scoped {
        for profile in profiles {
            for rule in profile.rules {
                if rule.check == Check::ScopesWithoutAuth {
                    let plural = if scopes.len() == 1 { "" } else { "s" };
                    let message = format!(
                        "needs the scope{plural} `{}`, but the server checks no token: every caller is served it",
                        scopes.join(" ")
                    );
                    let problem = problem::Problem::new(String::new(), message);
                    add(
                        &mut report.findings,
                        profile,
                        rule,
                        (*subject, name),
                        problem,
                    );
                }
            }
        }
    }
    sort(&mut report.findings);
}

/// Errors first, then by subject (tools first), name, pointer and rule.
fn sort(findings: &mut [Finding]) {
    findings.sort_by(|a, b| {
        b.severity.cmp(&a.severity).then_with(|| {
            (a.subject, &a.tool, &a.pointer, a.rule).cmp(&(b.subject, &b.tool, &b.pointer, b.rule))
        })
    });
}

/// Checks `result`, the JSON of a `tools/call` result of `tool`, against what `profiles` need
/// of results: structured content and the output schema that declares it.
#[must_use]
pub fn lint_result(tool: &ToolDefinition, result: &Value, profiles: &[&'static Profile]) -> Report {
    let bytes = serde_json::to_vec(result).map_or(0, |json| json.len());
    let mut findings = Vec::new();
    for profile in profiles {
        for rule in profile.rules {
            for problem in rules::check_result(&rule.check, tool, result) {
                add(
                    &mut findings,
                    profile,
                    rule,
                    (Subject::Tool, &tool.name),
                    problem,
                );
            }
        }
    }
    Report {
        subject: format!("tools/call {}", tool.name),
        profiles: profiles.iter().map(|profile| profile.name).collect(),
        findings,
        bytes,
        tokens: bytes.div_ceil(4),
    }
}

/// Every profile.
#[must_use]
pub fn all_profiles() -> Vec<&'static Profile> {
    PROFILES.iter().collect()
}

/// What `--lint` and `assert_portable` check when no profile is named: every profile but the
/// strict modes ([`Profile::opt_in`]), which refuse what hosts take as it comes (any integer's
/// `minimum`, say) and apply only where whoever sends the tools turns them on.
#[must_use]
pub fn default_profiles() -> Vec<&'static Profile> {
    PROFILES.iter().filter(|profile| !profile.opt_in).collect()
}

/// Adds a problem to the finding of the same place, rule and message, or as a new one.
fn add(
    findings: &mut Vec<Finding>,
    profile: &'static Profile,
    rule: &'static Rule,
    (subject, tool): (Subject, &str),
    problem: problem::Problem,
) {
    let id = rules::id(&rule.check);
    let same = findings.iter_mut().find(|finding| {
        finding.subject == subject
            && finding.tool == tool
            && finding.pointer == problem.pointer
            && finding.rule == id
            && finding.message == problem.message
    });
    match same {
        Some(finding) => {
            finding.severity = finding.severity.max(rule.severity);
            if !finding.hosts.contains(&profile.name) {
                finding.hosts.push(profile.name);
                finding.citations.push(rule.citation);
            }
        }
        None => findings.push(Finding {
            severity: rule.severity,
            subject,
            tool: tool.to_owned(),
            pointer: problem.pointer,
            rule: id,
            message: problem.message,
            hosts: vec![profile.name],
            fix: problem.fix.unwrap_or_else(|| rules::fix(&rule.check)),
            citations: vec![rule.citation],
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tool named `serverInfo` and the server's own icons are told apart, in the report's
    /// lines and in its JSON.
    #[test]
    fn a_tool_named_like_the_server_is_not_the_server() {
        let bad = Icon::new("ftp://example.com/a.png");
        let tool = ToolDefinition::new("serverInfo", serde_json::json!({"type": "object"}))
            .description("d")
            .icon(bad.clone());
        let profiles = [profile("mcp").unwrap()];
        let mut report = lint("s", &[tool], &profiles);
        add_icons(&mut report, ("serverInfo", &[bad]), &[], &profiles);
        let sources: Vec<_> = report
            .findings
            .iter()
            .filter(|finding| finding.rule == "icon-source")
            .collect();
        assert_eq!(sources.len(), 2, "{report}");
        assert_ne!(sources[0].to_string(), sources[1].to_string());
        assert_eq!(
            (sources[0].subject, sources[1].subject),
            (Subject::Tool, Subject::Server)
        );
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["findings"][1]["subject"], "server", "{json}");
    }

    /// The docs that send a reader to the lint name rules it has (`… profile's `x` rule(s)`).
    #[test]
    fn the_docs_name_only_rules_the_lint_has() {
        let ids: Vec<&str> = PROFILES
            .iter()
            .flat_map(|profile| profile.rules)
            .map(|rule| rules::id(&rule.check))
            .collect();
        for (file, text) in [
            ("icon.rs", include_str!("../icon.rs")),
            ("registry/tool.rs", include_str!("../registry/tool.rs")),
            ("server.rs", include_str!("../server.rs")),
            ("resource.rs", include_str!("../resource.rs")),
        ] {
            let text = text.replace("\n    ///", "").replace("\n//!", "");
            for (at, _) in text.match_indices("profile's ") {
                let named = &text[at..];
                let end = named.find(" rule").expect("a rule is named");
                for id in named[..end].split('`').skip(1).step_by(2) {
                    assert!(
                        ids.contains(&id),
                        "{file} names no rule of the lint: `{id}`"
                    );
                }
            }
        }
    }
}
