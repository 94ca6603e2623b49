//! The lint's findings, for a person (`Display`: one line per problem, then a summary; notes
//! only with `{:#}`) and for machines (`Serialize`: `--lint --format json`, notes included).

use std::fmt;

use serde::Serialize;

use super::profiles::Severity;

/// One problem: a tool, where in its definition, which rule, which hosts mind, how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Finding {
    /// An error when any host that minds refuses it.
    pub severity: Severity,
    /// What it is about: a tool, a resource or template, or the server itself.
    pub subject: Subject,
    /// The name of what it is about: the tool's (`*` for the whole `tools/list`), the
    /// resource's or template's URI, the prompt's name, or the server's name ([`Finding::subject`] tells which,
    /// so that a tool named like a server is never mistaken for it).
    pub tool: String,
    /// A JSON pointer into the tool's definition (`/inputSchema/properties/limit`).
    pub pointer: String,
    /// The rule's short id (`composition`, `enum-type`, …).
    pub rule: &'static str,
    /// What is wrong, there.
    pub message: String,
    /// The profiles whose hosts mind.
    pub hosts: Vec<&'static str>,
    /// How to fix it.
    pub fix: &'static str,
    /// Where each host's behaviour is shown, one per profile in `hosts`.
    pub citations: Vec<&'static str>,
}

/// What a [`Finding`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Subject {
    /// A tool, or the whole `tools/list` (`*`).
    Tool,
    /// A resource or resource template, named by its URI.
    Resource,
    /// A prompt, named by its name.
    Prompt,
    /// The server itself (`serverInfo`: its icons), named by its name.
    Server,
}

/// What the lint found over one `tools/list` (or one call result), with its size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Report {
    /// What was checked: `tools/list`, or `tools/call NAME`.
    pub subject: String,
    /// The profiles checked.
    pub profiles: Vec<&'static str>,
    /// The problems, errors first, then by tool and pointer.
    pub findings: Vec<Finding>,
    /// The size of what was checked as JSON, in bytes.
    pub bytes: usize,
    /// An estimate of the tokens it takes in a model's context (a token is about 4 bytes of JSON).
    pub tokens: usize,
}

impl Report {
    /// Whether a finding is an error (what fails `--lint` and `assert_portable`).
    #[must_use]
    pub fn has_errors(&self) -> bool {
        self.count(Severity::Error) > 0
    }

    fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|finding| finding.severity == severity)
            .count()
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        };
        let kind = match self.subject {
            Subject::Tool => "",
            Subject::Resource => "resource ",
            Subject::Prompt => "prompt ",
            Subject::Server => "server ",
        };
        write!(
            f,
            "{severity}[{}] {kind}{} {}: {} ({}); fix: {}",
            self.rule,
            self.tool,
            if self.pointer.is_empty() {
                "/"
            } else {
                &self.pointer
            },
            self.message,
            self.hosts.join(", "),
            self.fix
        )
    }
}

/// One line per error and warning, then the summary; the alternate form (`{report:#}`,
/// `--lint --verbose`) shows the notes too.
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verbose = f.alternate();
        for finding in &self.findings {
            if verbose || finding.severity != Severity::Note {
                writeln!(f, "{finding}")?;
            }
        }
        let plural = |count: usize, word: &str| {
            format!("{count} {word}{}", if count == 1 { "" } else { "s" })
        };
        let notes = match self.count(Severity::Note) {
            0 => String::new(),
            count if verbose => format!(", {}", plural(count, "note")),
            count => format!(", {} (--verbose shows them)", plural(count, "note")),
        };
        writeln!(
            f,
            "{}: {} bytes, ~{} tokens; {}, {}{notes} (profiles: {})",
            self.subject,
            self.bytes,
            self.tokens,
            plural(self.count(Severity::Error), "error"),
            plural(self.count(Severity::Warning), "warning"),
            self.profiles.join(", ")
        )
    }
}
