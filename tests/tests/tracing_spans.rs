//! The spans a request produces, as an OpenTelemetry backend would receive them: named and
//! attributed by the OpenTelemetry semantic conventions for MCP, and (feature `otel`) continuing
//! the client's W3C trace from `params._meta.traceparent`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use mcp_toolbelt::{Server, tool};
use opentelemetry::trace::{SpanKind, TraceId, TracerProvider as _};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing_subscriber::layer::{Context as LayerContext, SubscriberExt as _};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::{Layer, Registry};

/// Echo the message back, inside a span of its own request
#[tool]
async fn span_echo(message: String) -> String {
    tracing::info!(echoed = %message, "echoing");
    message
}

/// Always fails
#[tool]
async fn span_fail() -> Result<String, String> {
    Err("no luck".into())
}

/// A prompt, whose get is a span named after it
#[mcp_toolbelt::prompt]
async fn span_prompt() -> &'static str {
    "a prompt"
}

/// One closed span: its name and its fields as recorded.
#[derive(Debug, Clone)]
struct Captured {
    name: &'static str,
    fields: BTreeMap<String, String>,
}

/// A `tracing` layer keeping every span's fields, as an exporter would see them on close.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<Captured>>>);

struct Fields(BTreeMap<String, String>);

impl Visit for Fields {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}

impl<S: tracing::Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Capture {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: LayerContext<'_, S>) {
        let mut fields = Fields(BTreeMap::new());
        attrs.record(&mut fields);
        let span = ctx.span(id).expect("the span just created");
        span.extensions_mut().insert(fields);
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: LayerContext<'_, S>) {
        let span = ctx.span(id).expect("a live span");
        if let Some(fields) = span.extensions_mut().get_mut::<Fields>() {
            values.record(fields);
        }
    }

    fn on_close(&self, id: Id, ctx: LayerContext<'_, S>) {
        let span = ctx.span(&id).expect("a closing span");
        let fields = span
            .extensions_mut()
            .remove::<Fields>()
            .map(|fields| fields.0)
            .unwrap_or_default();
        self.0.lock().unwrap().push(Captured {
            name: span.name(),
            fields,
        });
    }
}

/// Sends `requests` to a stdio server (one line each) and returns the answers, in order.
async fn serve_lines(requests: &[Value]) -> Vec<Value> {
    // One pipe each way: dropping the client's writer is the server's end of input.
    let (mut client_write, server_read) = tokio::io::duplex(64 * 1024);
    let (server_write, client_read) = tokio::io::duplex(64 * 1024);
    let serving = tokio::spawn(Server::new("spans", "1.0.0").serve_io(server_read, server_write));
    let mut lines = BufReader::new(client_read).lines();
    let mut answers = Vec::new();
    for request in requests {
        client_write
            .write_all(format!("{request}\n").as_bytes())
            .await
            .unwrap();
        if request.get("id").is_some() {
            let line = lines.next_line().await.unwrap().expect("an answer");
            answers.push(serde_json::from_str(&line).unwrap());
        }
    }
    drop(client_write);
    serving.await.unwrap().unwrap();
    answers
}

fn call(id: i64, name: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": name, "arguments": arguments}})
}

fn handshake() -> [Value; 2] {
    [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "spans", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ]
}

#[tokio::test(flavor = "current_thread")]
async fn each_request_is_a_server_span_with_the_conventions_attributes() {
    let capture = Capture::default();
    let subscriber = Registry::default().with(capture.clone());
    let _guard = tracing::subscriber::set_default(subscriber);
    let [initialize, initialized] = handshake();
    let answers = serve_lines(&[
        initialize,
        initialized,
        call(1, "span_echo", json!({"message": "hi"})),
        call(2, "span_fail", json!({})),
        call(3, "no_such_tool", json!({})),
        json!({"jsonrpc": "2.0", "id": 4, "method": "prompts/get", "params": {"name": "span_prompt"}}),
        json!({"jsonrpc": "2.0", "id": 5, "method": "prompts/get", "params": {"name": "no_such_prompt"}}),
    ])
    .await;
    assert_eq!(answers[1]["result"]["content"][0]["text"], "hi");
    let spans: Vec<Captured> = capture.0.lock().unwrap().clone();
    let requests: Vec<&Captured> = spans
        .iter()
        .filter(|span| span.name == "mcp.request")
        .collect();
    for span in &requests {
        println!("{}: {:#?}", span.name, span.fields);
    }
    let fields = |id: &str| -> BTreeMap<String, String> {
        requests
            .iter()
            .find(|span| span.fields.get("jsonrpc.request.id").map(String::as_str) == Some(id))
            .unwrap_or_else(|| panic!("no span for request {id}: {spans:#?}"))
            .fields
            .clone()
    };
    let expected = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
            .collect()
    };
    assert_eq!(
        fields("0"),
        expected(&[
            ("otel.name", "initialize"),
            ("otel.kind", "server"),
            ("mcp.method.name", "initialize"),
            ("mcp.protocol.version", "2025-11-25"),
            ("jsonrpc.request.id", "0"),
            ("network.transport", "pipe"),
        ])
    );
    assert_eq!(
        fields("1"),
        expected(&[
            ("otel.name", "tools/call span_echo"),
            ("otel.kind", "server"),
            ("mcp.method.name", "tools/call"),
            ("mcp.protocol.version", "2025-11-25"),
            ("jsonrpc.request.id", "1"),
            ("gen_ai.tool.name", "span_echo"),
            ("gen_ai.operation.name", "execute_tool"),
            ("network.transport", "pipe"),
        ])
    );
    assert_eq!(fields("2")["error.type"], "tool_error");
    // A name that is no tool's does not name the span: clients cannot mint span names.
    assert_eq!(
        fields("3"),
        expected(&[
            ("otel.name", "tools/call"),
            ("otel.kind", "server"),
            ("mcp.method.name", "tools/call"),
            ("mcp.protocol.version", "2025-11-25"),
            ("jsonrpc.request.id", "3"),
            ("network.transport", "pipe"),
            ("error.type", "-32602"),
            ("rpc.response.status_code", "-32602"),
        ])
    );
    assert_eq!(
        fields("4"),
        expected(&[
            ("otel.name", "prompts/get span_prompt"),
            ("otel.kind", "server"),
            ("mcp.method.name", "prompts/get"),
            ("mcp.protocol.version", "2025-11-25"),
            ("jsonrpc.request.id", "4"),
            ("gen_ai.prompt.name", "span_prompt"),
            ("network.transport", "pipe"),
        ])
    );
    // Nor does a name that is no prompt's.
    assert_eq!(fields("5")["otel.name"], "prompts/get");
    assert!(!fields("5").contains_key("gen_ai.prompt.name"));
}

#[tokio::test(flavor = "current_thread")]
async fn a_client_trace_continues_into_the_tool() {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("test"));
    let _guard = tracing::subscriber::set_default(Registry::default().with(layer));
    let [initialize, initialized] = handshake();
    let mut traced = call(1, "span_echo", json!({"message": "traced"}));
    traced["params"]["_meta"] = json!({
        "traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "tracestate": "vendor=opaque"
    });
    serve_lines(&[initialize, initialized, traced]).await;
    provider.force_flush().unwrap();
    let spans = exporter.get_finished_spans().unwrap();
    let call = spans
        .iter()
        .find(|span| span.name == "tools/call span_echo")
        .unwrap_or_else(|| panic!("no tools/call span in {spans:#?}"));
    assert_eq!(call.span_kind, SpanKind::Server);
    assert_eq!(
        call.span_context.trace_id(),
        TraceId::from_hex("0af7651916cd43dd8448eb211c80319c").unwrap(),
        "the client's trace continues"
    );
    assert_eq!(call.parent_span_id.to_string(), "b7ad6b7169203331");
    let attribute = |key: &str| {
        call.attributes
            .iter()
            .find(|kv| kv.key.as_str() == key)
            .map(|kv| kv.value.to_string())
    };
    assert_eq!(attribute("gen_ai.tool.name").as_deref(), Some("span_echo"));
    assert_eq!(attribute("mcp.method.name").as_deref(), Some("tools/call"));
    // The tool's own event is inside the request's span.
    assert!(
        call.events.iter().any(|event| event.name == "echoing"),
        "{:#?}",
        call.events
    );
    let initialize = spans
        .iter()
        .find(|span| span.name == "initialize")
        .expect("initialize span");
    assert_ne!(
        initialize.span_context.trace_id(),
        call.span_context.trace_id(),
        "a request without trace context starts its own trace"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn an_http_session_request_names_its_session_and_tcp() {
    use mcp_toolbelt_tests::http::{in_session, legacy_call, open_session, post, router, send};

    let capture = Capture::default();
    let _guard = tracing::subscriber::set_default(Registry::default().with(capture.clone()));
    let router = router(mcp_toolbelt::http::HttpConfig::default());
    let session = open_session(&router).await;
    let call = legacy_call(7, "span_echo", &json!({"message": "over http"}), None);
    let reply = send(&router, post(&call, &in_session(&session))).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let spans = capture.0.lock().unwrap().clone();
    let span = spans
        .iter()
        .find(|span| {
            span.fields.get("otel.name").map(String::as_str) == Some("tools/call span_echo")
        })
        .unwrap_or_else(|| panic!("no tools/call span in {spans:#?}"));
    assert_eq!(span.fields["mcp.session.id"], session);
    assert_eq!(span.fields["network.transport"], "tcp");
    assert_eq!(span.fields["jsonrpc.request.id"], "7");
}
