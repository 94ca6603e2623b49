//! Everything a tool returns: [`CallToolResult`] and its [`Content`] blocks (with their
//! [`ContentAnnotations`] and [`EmbeddedResource`]s), structured output ([`Json`]), a failure the
//! model reads ([`ToolError`]), and [`IntoToolResult`], the conversion from ordinary Rust return
//! types. The common ones are also at the crate root.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The result of `tools/call`, exactly as it goes on the wire.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CallToolResult {
    /// What the model reads.
    pub content: Vec<Content>,
    /// The same result as JSON, checked against the tool's `outputSchema`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// `true` when the tool failed; the content then says why.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
    /// Extra metadata (`_meta`) for the host.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl CallToolResult {
    /// A successful result made of these content blocks.
    #[must_use]
    pub fn success(content: Vec<Content>) -> Self {
        Self {
            content,
            ..Self::default()
        }
    }

    /// A successful result with one text block.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Self {
        Self::success(vec![Content::text(text)])
    }

    /// A failed result (`isError: true`) with one text block saying why.
    #[must_use]
    pub fn error(message: impl Into<String>) -> Self {
        Self {
            is_error: true,
            ..Self::text(message)
        }
    }

    /// Sets the structured content (`structuredContent`), which a tool with an `outputSchema`
    /// must give; [`Json<T>`] sets it for you.
    #[must_use]
    pub fn structured_content(mut self, structured_content: Value) -> Self {
        self.structured_content = Some(structured_content);
        self
    }

    /// Sets `_meta`, extra metadata for the host.
    #[must_use]
    pub fn meta(mut self, meta: Map<String, Value>) -> Self {
        self.meta = Some(meta);
        self
    }

    /// The text of every text block, joined by newlines: handy in tests.
    #[must_use]
    pub fn text_content(&self) -> String {
        let texts: Vec<&str> = self
            .content
            .iter()
            .filter_map(|block| match block {
                Content::Text { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        texts.join("\n")
    }
}

/// One content block of a tool result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
#[non_exhaustive]
pub enum Content {
    /// Plain text.
    #[non_exhaustive]
    Text {
        /// The text.
        text: String,
        /// Hints for the host.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<ContentAnnotations>,
    },
    /// A base64-encoded image.
    #[non_exhaustive]
    Image {
        /// Base64 data.
        data: String,
        /// For example `image/png`.
        mime_type: String,
        /// Hints for the host.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<ContentAnnotations>,
    },
    /// Base64-encoded audio (protocol 2025-03-26 and later).
    #[non_exhaustive]
    Audio {
        /// Base64 data.
        data: String,
        /// For example `audio/wav`.
        mime_type: String,
        /// Hints for the host.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<ContentAnnotations>,
    },
    /// A link to a resource the host may fetch (protocol 2025-06-18 and later).
    #[non_exhaustive]
    ResourceLink {
        /// The resource's URI.
        uri: String,
        /// The resource's name.
        name: String,
        /// A human display name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// What the resource is.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        /// The resource's MIME type.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// Hints for the host.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<ContentAnnotations>,
    },
    /// A resource's contents, embedded in the result.
    #[non_exhaustive]
    Resource {
        /// The contents.
        resource: EmbeddedResource,
        /// Hints for the host.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<ContentAnnotations>,
    },
}

impl Content {
    /// A text block.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text {
            text: text.into(),
            annotations: None,
        }
    }

    /// An image block from base64 `data`.
    #[must_use]
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::Image {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }

    /// An audio block from base64 `data`.
    #[must_use]
    pub fn audio(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::Audio {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }

    /// A resource link.
    #[must_use]
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self::ResourceLink {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            annotations: None,
        }
    }

    /// An embedded resource.
    #[must_use]
    pub fn resource(resource: EmbeddedResource) -> Self {
        Self::Resource {
            resource,
            annotations: None,
        }
    }

    /// Sets the block's hints for the host (who it is for, how much it matters).
    #[must_use]
    pub fn annotations(mut self, hints: ContentAnnotations) -> Self {
        match &mut self {
            Self::Text { annotations, .. }
            | Self::Image { annotations, .. }
            | Self::Audio { annotations, .. }
            | Self::ResourceLink { annotations, .. }
            | Self::Resource { annotations, .. } => *annotations = Some(hints),
        }
        self
    }

    /// Sets a resource link's human display name (other blocks have none: unchanged).
    #[must_use]
    pub fn title(mut self, value: impl Into<String>) -> Self {
        if let Self::ResourceLink { title, .. } = &mut self {
            *title = Some(value.into());
        }
        self
    }

    /// Sets what a resource link's resource is (other blocks have no description: unchanged).
    #[must_use]
    pub fn description(mut self, value: impl Into<String>) -> Self {
        if let Self::ResourceLink { description, .. } = &mut self {
            *description = Some(value.into());
        }
        self
    }

    /// Sets a resource link's MIME type (an image's or audio's is given to its constructor;
    /// other blocks are unchanged).
    #[must_use]
    pub fn mime_type(mut self, value: impl Into<String>) -> Self {
        if let Self::ResourceLink { mime_type, .. } = &mut self {
            *mime_type = Some(value.into());
        }
        self
    }
}

/// Hints on a content block: who it is for and how much it matters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ContentAnnotations {
    /// `"user"` and/or `"assistant"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<String>>,
    /// From 0 (least) to 1 (most important).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// An ISO 8601 timestamp.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

impl ContentAnnotations {
    /// No hints.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets who the block is for (`"user"`, `"assistant"`).
    #[must_use]
    pub fn audience(mut self, audience: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.audience = Some(audience.into_iter().map(Into::into).collect());
        self
    }

    /// Sets how much it matters, from 0 (least) to 1 (most important).
    #[must_use]
    pub fn priority(mut self, priority: f64) -> Self {
        self.priority = Some(priority);
        self
    }

    /// Sets when it last changed (an ISO 8601 timestamp).
    #[must_use]
    pub fn last_modified(mut self, last_modified: impl Into<String>) -> Self {
        self.last_modified = Some(last_modified.into());
        self
    }
}

/// A resource embedded in a tool result (`Content::resource`): its URI and its text or base64
/// blob. Not a served resource's contents, which are a [`ResourceBody`](crate::resource::ResourceBody).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EmbeddedResource {
    /// The resource's URI.
    pub uri: String,
    /// The resource's MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Text contents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Base64 contents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
}

impl EmbeddedResource {
    /// Text contents at `uri`.
    #[must_use]
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            mime_type: None,
            text: Some(text.into()),
            blob: None,
        }
    }

    /// Base64 contents at `uri`.
    #[must_use]
    pub fn blob(uri: impl Into<String>, blob: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            mime_type: None,
            text: None,
            blob: Some(blob.into()),
        }
    }

    /// Sets the MIME type.
    #[must_use]
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }
}

/// Structured output: `T` becomes the result's `structuredContent` (and its JSON the text), and
/// `T`'s schema the tool's `outputSchema`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Json<T>(pub T);

/// A tool failure with a message for the model: the result gets `isError: true`.
///
/// Any `E: Display` works in `Result<_, E>`; `ToolError` is there when you have no error type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError(String);

impl ToolError {
    /// A failure saying `message`.
    #[must_use]
    pub fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ToolError {}

impl From<String> for ToolError {
    fn from(message: String) -> Self {
        Self(message)
    }
}

impl From<&str> for ToolError {
    fn from(message: &str) -> Self {
        Self(message.to_owned())
    }
}

/// Turns what a tool returns into a [`CallToolResult`].
///
/// Implemented for text (`String`, `&str`), `()`, [`Json<T>`], [`Content`], `Vec<Content>`,
/// [`CallToolResult`] and `Result<R, E>` where `R` is one of these and `E: Display`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a `#[tool]` fn",
    label = "not a tool result",
    note = "return `String`, `&'static str`, `()`, `mcp_toolbelt::Json<T>`, `Content`, `Vec<Content>`, `CallToolResult`, or `Result<_, E>` of one of these with `E: Display`"
)]
pub trait IntoToolResult {
    /// The result for the host.
    fn into_tool_result(self) -> CallToolResult;

    /// The schema of the `structuredContent` this return type produces, if any (only [`Json<T>`]
    /// has one). The tool advertises it as its `outputSchema`, wrapped as `{"result": …}` when it
    /// does not describe an object.
    #[must_use]
    fn output_schema() -> Option<Value> {
        None
    }
}

impl IntoToolResult for CallToolResult {
    fn into_tool_result(self) -> CallToolResult {
        self
    }
}

impl IntoToolResult for String {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::text(self)
    }
}

impl IntoToolResult for &str {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::text(self)
    }
}

impl IntoToolResult for () {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::success(Vec::new())
    }
}

impl IntoToolResult for Content {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::success(vec![self])
    }
}

impl IntoToolResult for Vec<Content> {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::success(self)
    }
}

impl<T: Serialize + JsonSchema + 'static> IntoToolResult for Json<T> {
    fn into_tool_result(self) -> CallToolResult {
        match structured_value(&self.0) {
            Ok(mut value) => {
                // `None`s are left out, as the output schema says (`Option<T>` is `T`, not
                // required), in the structured content and its text alike.
                crate::validate::drop_output_nulls::<T>(&mut value);
                CallToolResult {
                    content: vec![Content::text(value.to_string())],
                    structured_content: Some(value),
                    ..CallToolResult::default()
                }
            }
            Err(error) => CallToolResult::error(format!(
                "Output serialization error: {}",
                unwritable(&error)
            )),
        }
    }

    fn output_schema() -> Option<Value> {
        Some(crate::schema::output_schema::<T>())
    }
}

/// `value` as JSON, or the error with the path of the field `serde_json` could not write. The
/// path is tracked only when writing failed (tracking it costs on every call), and in debug
/// builds always (each output type then compiles one serializer instead of two), unless the
/// `release-paths` feature, which the tests turn on, asks for release builds' paths.
fn structured_value<T: Serialize>(
    value: &T,
) -> Result<Value, serde_path_to_error::Error<serde_json::Error>> {
    #[cfg(any(not(debug_assertions), feature = "release-paths"))]
    if let Ok(json) = serde_json::to_value(value) {
        return Ok(json);
    }
    serde_path_to_error::serialize(value, serde_json::value::Serializer)
}

/// `<path>: <why>`, for a result `serde_json` could not write: a 128-bit integer beyond what a
/// JSON number carries exactly is said so, with the range that is.
fn unwritable(error: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let path = field_path(error.path());
    let message = error.inner().to_string();
    if message == "number out of range" {
        format!(
            "{path}: integer out of range: a 128-bit integer is written as a JSON number from {} to {} (what a 64-bit integer holds); send a larger one as a string",
            i64::MIN,
            u64::MAX
        )
    } else {
        format!("{path}: {message}")
    }
}

/// `a.0.b`, the path of the field serde refused (in arguments) or could not write (in a result),
/// `(root)` for the whole value: the same form as a validation failure's path.
pub(crate) fn field_path(path: &serde_path_to_error::Path) -> String {
    let segments: Vec<String> = path
        .iter()
        .map(|segment| match segment {
            serde_path_to_error::Segment::Seq { index } => index.to_string(),
            serde_path_to_error::Segment::Map { key } => key.clone(),
            serde_path_to_error::Segment::Enum { variant } => variant.clone(),
            serde_path_to_error::Segment::Unknown => "?".to_owned(),
        })
        .collect();
    if segments.is_empty() {
        "(root)".to_owned()
    } else {
        segments.join(".")
    }
}

impl<R: IntoToolResult, E: fmt::Display> IntoToolResult for Result<R, E> {
    /// The error's alternate form (`{:#}`): `anyhow` renders its whole chain of causes there
    /// ("loading config: file.txt missing"); for other errors it is their `Display`.
    fn into_tool_result(self) -> CallToolResult {
        match self {
            Ok(value) => value.into_tool_result(),
            Err(error) => CallToolResult::error(format!("{error:#}")),
        }
    }

    fn output_schema() -> Option<Value> {
        R::output_schema()
    }
}

impl From<String> for Content {
    fn from(text: String) -> Self {
        Self::text(text)
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Self {
        Self::text(text)
    }
}
