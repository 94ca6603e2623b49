//! Catch what hosts reject before a host does: host profiles ([`PROFILES`], one rule per entry,
//! each with its source) and the lint of a `tools/list` against them. `Server::run()` serves it
//! as `--lint`, tests as [`crate::testing::assert_portable`].
//!
//! ```
//! use mcp_toolbelt::lint::{self, PROFILES};
//! use mcp_toolbelt::tool::ToolDefinition;
//! use serde_json::json;
//!
//! let tool = ToolDefinition {
//!     name: "paint".into(),
//!     title: None,
//!     description: Some("Paint a shape".into()),
//!     input_schema: json!({"type": "object", "properties": {
//!         "sides": {"type": "integer", "description": "How many", "enum": [3, 4]}}}),
//!     output_schema: None,
//!     annotations: None,
//!     meta: None,
//! };
//! let report = lint::lint("demo", &[tool], &[lint::profile("cursor").unwrap()]);
//! assert!(report.has_errors());
//! assert_eq!(report.findings[0].rule, "enum-type");
//! ```

mod profiles;
mod report;
mod rules;

pub use profiles::{Check, PROFILES, Profile, Rule, Severity, profile};
pub use report::{Finding, Report};

use serde_json::Value;

use crate::types::{ListToolsResult, ToolDefinition};

/// Checks `tools` (as `tools/list` shows them; `server` is the server's name, which some hosts
/// put before a tool's name) against `profiles`. One finding per problem, naming every profile
/// whose host minds.
#[must_use]
pub fn lint(server: &str, tools: &[ToolDefinition], profiles: &[&'static Profile]) -> Report {
    let listing = ListToolsResult {
        tools: tools.to_vec(),
        next_cursor: None,
    };
    let bytes = serde_json::to_vec(&listing).map_or(0, |json| json.len());
    let mut findings: Vec<Finding> = Vec::new();
    for profile in profiles {
        for rule in profile.rules {
            let problems = match rule.check {
                Check::ListBytes { max } => (bytes > max)
                    .then(|| {
                        rules::Problem::new(
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
                add(&mut findings, profile, rule, tool, problem);
            }
        }
    }
    findings.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| (&a.tool, &a.pointer, a.rule).cmp(&(&b.tool, &b.pointer, b.rule)))
    });
    Report {
        subject: "tools/list".into(),
        profiles: profiles.iter().map(|profile| profile.name).collect(),
        findings,
        bytes,
        tokens: bytes.div_ceil(4),
    }
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
                add(&mut findings, profile, rule, &tool.name, problem);
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
    tool: &str,
    problem: rules::Problem,
) {
    let id = rules::id(&rule.check);
    let same = findings.iter_mut().find(|finding| {
        finding.tool == tool
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
