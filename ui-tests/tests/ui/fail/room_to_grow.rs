//! Room to grow (issue 27): outside the crate the wire types are built through their
//! constructors and the extensible enums matched with a wildcard, so a field or variant a new
//! protocol revision (or a new host rule) adds is no breaking change; the lint's profiles are
//! read through methods.

use mcp_toolbelt::lint::{self, Severity};
use mcp_toolbelt::ask::Elicitation;
use mcp_toolbelt::http::AuthInfo;
use mcp_toolbelt::tool::{ToolAnnotations, ToolDefinition};
use mcp_toolbelt::error::RegistryError;
use mcp_toolbelt::{CallToolResult, Content};

fn main() {
    let _tool = ToolDefinition {
        name: "paint".into(),
        title: None,
        description: None,
        input_schema: serde_json::json!({"type": "object"}),
        output_schema: None,
        annotations: None,
        meta: None,
    };
    let _hints = ToolAnnotations {
        read_only_hint: Some(true),
        ..ToolAnnotations::default()
    };
    let _result = CallToolResult {
        content: Vec::new(),
        structured_content: None,
        is_error: false,
        meta: None,
    };
    let _auth = AuthInfo {
        client_id: "app".into(),
        ..AuthInfo::default()
    };
    let _rules = lint::profile("cursor").unwrap().rules;
    let _check = lint::Check::ListBytes { max: 1 };
    let _block = Content::Text {
        text: "hi".into(),
        annotations: None,
    };
    let _problem = RegistryError::InvalidResource {
        uri: "docs://a".into(),
        location: "a.rs:1".into(),
        problem: "no".into(),
    };
    let _ = (kind, answered, word);
}

fn kind(content: &Content) -> &'static str {
    match content {
        Content::Text { .. } => "text",
        Content::Image { .. } => "image",
        Content::Audio { .. } => "audio",
        Content::ResourceLink { .. } => "link",
        Content::Resource { .. } => "resource",
    }
}

fn answered(answer: Elicitation<()>) -> bool {
    match answer {
        Elicitation::Accept(()) => true,
        Elicitation::Decline | Elicitation::Cancel => false,
    }
}

fn word(severity: Severity) -> &'static str {
    match severity {
        Severity::Note => "note",
        Severity::Warning => "warning",
        Severity::Error => "error",
    }
}
