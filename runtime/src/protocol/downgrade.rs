//! What each protocol version can carry: for a client that negotiated an older version, newer
//! fields are left out and newer content blocks turned into text.

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::ProtocolVersion;
use crate::jsonrpc::to_json;
use crate::registry::{GetPromptResult, KeptDefinition};
use crate::result::{CallToolResult, Content};
use crate::types::{
    Icon, Implementation, PromptDefinition, ToolAnnotations, ToolDefinition, ToolExecution,
};

/// A tool in a `tools/list` page, as a client of one version reads it: a `ToolDefinition`
/// whose schemas are written as the server keeps them, as text ([`KeptDefinition`]).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ListedTool<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    input_schema: &'a RawValue,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_schema: Option<&'a RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<&'a ToolAnnotations>,
    #[serde(skip_serializing_if = "<[Icon]>::is_empty")]
    icons: &'a [Icon],
    #[serde(skip_serializing_if = "Option::is_none")]
    execution: Option<&'a ToolExecution>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<&'a Map<String, Value>>,
}

/// A tool as a client of `version` expects it: titles and output schemas from 2025-06-18 (as
/// structured content), annotations from 2025-03-26, icons and `execution` from 2025-11-25.
pub(crate) fn tool(kept: &KeptDefinition, version: ProtocolVersion) -> ListedTool<'_> {
    // Every field named, so that one added to `ToolDefinition` is a compile error here.
    let ToolDefinition {
        name,
        title,
        description,
        input_schema: _,
        output_schema: _,
        annotations,
        icons,
        execution,
        meta,
    } = kept.head();
    let structured = version.has_structured_content();
    ListedTool {
        name,
        title: title.as_deref().filter(|_| structured),
        description: description.as_deref(),
        input_schema: kept.input_schema(),
        output_schema: kept.output_schema().filter(|_| structured),
        annotations: annotations.as_ref().filter(|_| version.has_annotations()),
        icons: self::icons(icons, version),
        // `execution.taskSupport` came with 2025-11-25, as icons did.
        execution: execution.as_ref().filter(|_| version.has_icons()),
        meta: meta.as_ref(),
    }
}

/// The icons of a tool, resource or template as a client of `version` expects them: none
/// before 2025-11-25.
pub(crate) fn icons(icons: &[Icon], version: ProtocolVersion) -> &[Icon] {
    if version.has_icons() { icons } else { &[] }
}

/// A tool result as a client of `version` expects it, as JSON.
pub(crate) fn call_result(result: CallToolResult, version: ProtocolVersion) -> Value {
    to_json(&downgraded_result(result, version))
}

/// A tool result as a client of `version` expects it.
pub(crate) fn downgraded_result(
    mut result: CallToolResult,
    version: ProtocolVersion,
) -> CallToolResult {
    if !version.has_structured_content() {
        result.structured_content = None;
    }
    for block in &mut result.content {
        content(block, version);
    }
    result
}

/// A content block (of a tool's result or a prompt's message) as a client of `version` reads
/// it: audio (2025-03-26) and resource links (2025-06-18) turned into text before they came.
fn content(block: &mut Content, version: ProtocolVersion) {
    let replacement = match block {
        Content::Audio { mime_type, .. } if !version.has_annotations() => {
            format!("[{mime_type} audio omitted: protocol {version} cannot carry audio]")
        }
        Content::ResourceLink {
            uri,
            name,
            description,
            ..
        } if !version.has_structured_content() => match description {
            Some(description) => format!("Resource {name} ({uri}): {description}"),
            None => format!("Resource {name} ({uri})"),
        },
        _ => return,
    };
    *block = Content::text(replacement);
}

/// A prompt as a client of `version` expects it: titles (its own and its arguments') from
/// 2025-06-18, icons from 2025-11-25.
pub(crate) fn prompt(definition: &PromptDefinition, version: ProtocolVersion) -> PromptDefinition {
    let mut prompt = definition.clone();
    if !version.has_structured_content() {
        prompt.title = None;
        for argument in &mut prompt.arguments {
            argument.title = None;
        }
    }
    if !version.has_icons() {
        prompt.icons.clear();
    }
    prompt
}

/// A prompt's result as a client of `version` expects it: its messages' content blocks as
/// [`call_result`] turns a tool's.
pub(crate) fn prompt_result(mut result: GetPromptResult, version: ProtocolVersion) -> Value {
    for message in &mut result.messages {
        content(&mut message.content, version);
    }
    to_json(&result)
}

/// The server's `Implementation` (`serverInfo`) as a client of `version` expects it: titles
/// came with 2025-06-18, its description, website and icons with 2025-11-25.
pub(crate) fn server_info(info: &Implementation, version: ProtocolVersion) -> Implementation {
    let mut info = info.clone();
    if !version.has_structured_content() {
        info.title = None;
    }
    if !version.has_icons() {
        info.description = None;
        info.website_url = None;
        info.icons = Vec::new();
    }
    info
}

/// Whether progress notifications of `version` carry a `message`.
pub(crate) fn progress_has_message(version: ProtocolVersion) -> bool {
    version.has_annotations()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn icons_and_the_servers_description_came_with_2025_11_25() {
        let icon = Icon::new("https://example.com/a.png");
        let info = Implementation {
            title: Some("A".into()),
            description: Some("Does a".into()),
            website_url: Some("https://example.com".into()),
            icons: vec![icon.clone()],
            ..Implementation::new("a", "1")
        };
        let tool = ToolDefinition::new("a", json!({"type": "object"})).icon(icon);
        let kept = KeptDefinition::new(tool.clone());
        for version in ProtocolVersion::LEGACY
            .into_iter()
            .chain(ProtocolVersion::MODERN)
        {
            let served = server_info(&info, version);
            let listed = self::tool(&kept, version);
            if version >= ProtocolVersion::V2025_11_25 {
                assert_eq!(served, info, "{version}");
                assert_eq!(listed.icons, tool.icons, "{version}");
            } else {
                assert_eq!(
                    to_json(&served),
                    if version.has_structured_content() {
                        json!({"name": "a", "version": "1", "title": "A"})
                    } else {
                        json!({"name": "a", "version": "1"})
                    },
                    "{version}"
                );
                assert!(listed.icons.is_empty(), "{version}");
            }
            assert_eq!(icons(&tool.icons, version).len(), listed.icons.len());
        }
    }

    #[test]
    fn a_listed_tool_is_its_definition_less_what_the_version_lacks() {
        let mut whole = ToolDefinition::new(
            "a",
            json!({"type": "object", "properties": {"b": {"type": "string"}}}),
        )
        .title("A")
        .description("Does a")
        .output_schema(json!({"type": "object"}))
        .annotations(ToolAnnotations {
            read_only_hint: Some(true),
            ..ToolAnnotations::default()
        })
        .icon(Icon::new("https://example.com/a.png"));
        whole.execution = Some(ToolExecution {
            task_support: Some(crate::types::TaskSupport::Optional),
        });
        whole.meta = json!({"ui": {"resourceUri": "ui://a"}})
            .as_object()
            .cloned();
        let kept = KeptDefinition::new(whole.clone());
        for version in ProtocolVersion::LEGACY
            .into_iter()
            .chain(ProtocolVersion::MODERN)
        {
            let mut expected = whole.clone();
            if !version.has_structured_content() {
                expected.title = None;
                expected.output_schema = None;
            }
            if !version.has_annotations() {
                expected.annotations = None;
            }
            if !version.has_icons() {
                expected.icons.clear();
                expected.execution = None;
            }
            assert_eq!(
                to_json(&tool(&kept, version)),
                to_json(&expected),
                "{version}"
            );
        }
    }
}
