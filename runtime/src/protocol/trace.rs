//! One `tracing` span per request, named and attributed by the OpenTelemetry semantic conventions
//! for MCP (`open-telemetry/semantic-conventions-genai`, `docs/gen-ai/mcp.md`): a server span
//! `{mcp.method.name} {target}` (`tools/call search`) with `mcp.method.name`,
//! `mcp.protocol.version`, `mcp.session.id`, `jsonrpc.request.id`, `gen_ai.tool.name` (or, for
//! `prompts/get NAME`, `gen_ai.prompt.name`),
//! `gen_ai.operation.name`, `network.transport`, and on failure `error.type` (`tool_error` for
//! an `isError` result, the JSON-RPC code otherwise) and `rpc.response.status_code`.
//!
//! `otel.name` and `otel.kind` are how `tracing-opentelemetry` names a span and sets its kind.
//! With the `otel` feature, the W3C trace context a client put in `params._meta`
//! (`traceparent`, `tracestate`) becomes the span's parent, so the client's trace continues into
//! the tool.

use serde_json::{Map, Value};
use tracing::Span;
use tracing::field::Empty;

use super::ProtocolVersion;
use crate::fields::Fields as _;
use crate::jsonrpc::{ErrorObject, Id, Method, Payload};

/// The span of one request, its outcome fields still empty.
///
/// `is_served` tells whether a name is a served tool's (for `tools/call`) or prompt's (for
/// `prompts/get`): a request for a name that is not stays `tools/call` or `prompts/get`, so that
/// clients cannot mint span names (and trace-backend cardinality) at will.
pub(super) fn request_span(
    method: &Method,
    id: &Id,
    params: &Map<String, Value>,
    session_id: Option<&str>,
    network_transport: Option<&'static str>,
    is_served: impl FnOnce(&Method, &str) -> bool,
) -> Span {
    let target = matches!(method, Method::CallTool | Method::GetPrompt)
        .then(|| params.field("name").and_then(Value::as_str))
        .flatten()
        .filter(|name| is_served(method, name));
    let (tool, prompt) = match method {
        Method::CallTool => (target, None),
        _ => (None, target),
    };
    let span = tracing::info_span!(
        "mcp.request",
        otel.name = span_name(method, target),
        otel.kind = "server",
        mcp.method.name = method.as_str(),
        mcp.protocol.version = Empty,
        mcp.session.id = session_id,
        jsonrpc.request.id = id_text(id),
        gen_ai.tool.name = tool,
        gen_ai.prompt.name = prompt,
        gen_ai.operation.name = tool.map(|_| "execute_tool"),
        network.transport = network_transport,
        error.type = Empty,
        rpc.response.status_code = Empty,
    );
    #[cfg(feature = "otel")]
    if !span.is_disabled() {
        otel::continue_trace(&span, params);
    }
    span
}

/// A span's name: `{method} {target}`, or the method alone. Called inside `info_span!`, whose
/// fields are evaluated only for a span some subscriber records: a request nobody traces
/// formats nothing.
fn span_name(method: &Method, target: Option<&str>) -> String {
    match target {
        Some(target) => format!("{method} {target}"),
        None => method.to_string(),
    }
}

/// Records the version the request is answered in, once its era is known.
pub(super) fn record_version(version: ProtocolVersion) {
    Span::current().record("mcp.protocol.version", version.as_str());
}

/// Records how the request ended: a JSON-RPC error's code, or `tool_error` for a result that is
/// an error (`isError`), as the conventions ask; nothing for a success.
pub(super) fn record_outcome(span: &Span, outcome: &Result<Payload, ErrorObject>) {
    match outcome {
        Ok(payload) if payload.is_error() => {
            span.record("error.type", "tool_error");
        }
        Ok(_) => {}
        Err(error) => {
            let code = error.code.to_string();
            span.record("error.type", code.as_str());
            span.record("rpc.response.status_code", code.as_str());
        }
    }
}

/// The id as the conventions write it: a string id's text, a number's digits.
fn id_text(id: &Id) -> String {
    match id.to_value() {
        Value::String(text) => text,
        other => other.to_string(),
    }
}

#[cfg(feature = "otel")]
mod otel {
    use opentelemetry::propagation::{Extractor, TextMapPropagator as _};
    use opentelemetry_sdk::propagation::TraceContextPropagator;
    use serde_json::{Map, Value};
    use tracing::Span;
    use tracing_opentelemetry::OpenTelemetrySpanExt as _;

    /// `params._meta`, read as a carrier of W3C trace context.
    struct Meta<'a>(&'a Map<String, Value>);

    impl Extractor for Meta<'_> {
        fn get(&self, key: &str) -> Option<&str> {
            self.0.get(key).and_then(Value::as_str)
        }

        fn keys(&self) -> Vec<&str> {
            self.0.keys().map(String::as_str).collect()
        }
    }

    /// Makes the client's span (`_meta.traceparent`, `_meta.tracestate`) the parent of `span`.
    pub(super) fn continue_trace(span: &Span, params: &Map<String, Value>) {
        let Some(Value::Object(meta)) = params.get("_meta") else {
            return;
        };
        if !meta.contains_key("traceparent") {
            return;
        }
        let parent = TraceContextPropagator::new().extract(&Meta(meta));
        if let Err(error) = span.set_parent(parent) {
            tracing::debug!(%error, "the request's trace context could not be continued");
        }
    }
}
