//! The fixture tools that the official MCP conformance suite (`@modelcontextprotocol/conformance`)
//! calls, written with `#[tool]`. `.ci/run` serves this over HTTP and runs the suite against it.
//!
//! ```text
//! cargo run --example conformance -- --http 127.0.0.1:3001
//! npx @modelcontextprotocol/conformance server --url http://127.0.0.1:3001/mcp
//! ```

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use mcp_toolbelt::completion::CompletionContext;
use mcp_toolbelt::prompt::{Prompt, PromptMessage, Prompts};
use mcp_toolbelt::{
    CallToolResult, Content, Context, LogLevel, Server, ToolError, ask::AskError, ask::Elicitation,
    ask::Sampling, prompt, resource, resource::Resource, resource::Resources,
    result::EmbeddedResource, tool, tool::Tool,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

mod tasks;

/// A 1×1 red PNG.
const RED_PIXEL_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/// A WAV file of one silent sample (8 kHz, 8-bit mono).
const SILENT_WAV: &str = "UklGRiUAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQEAAACA";

/// A static text resource
#[resource(uri = "test://static-text", mime_type = "text/plain")]
static STATIC_TEXT: &str = "This is the content of the static text resource.";

/// A static binary resource (a 1×1 PNG)
#[resource(uri = "test://static-binary", mime_type = "image/png")]
static STATIC_BINARY: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0xfc, 0xcf, 0xc0, 0xf0,
    0x1f, 0x00, 0x05, 0x05, 0x02, 0x00, 0x5f, 0xc8, 0xf1, 0xd2, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// A resource template whose `id` is substituted into the contents
#[resource(uri = "test://template/{id}/data", mime_type = "application/json")]
async fn template_data(id: String) -> String {
    serde_json::json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
        .to_string()
}

/// Returns a simple text response
#[tool]
async fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Returns an image
#[tool]
async fn test_image_content() -> Content {
    Content::image(RED_PIXEL_PNG, "image/png")
}

/// Returns audio
#[tool]
async fn test_audio_content() -> Content {
    Content::audio(SILENT_WAV, "audio/wav")
}

/// Returns an embedded resource
#[tool]
async fn test_embedded_resource() -> Content {
    Content::resource(
        EmbeddedResource::text(
            "test://embedded-resource",
            "This is an embedded resource content.",
        )
        .mime_type("text/plain"),
    )
}

/// Returns text, an image and an embedded resource
#[tool]
async fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Content::image(RED_PIXEL_PNG, "image/png"),
        Content::resource(
            EmbeddedResource::text(
                "test://mixed-content-resource",
                r#"{"test":"data","value":123}"#,
            )
            .mime_type("application/json"),
        ),
    ]
}

/// Sends three log messages while it runs
#[tool]
async fn test_tool_with_logging(context: Context) -> &'static str {
    context.log(LogLevel::Info, "Tool execution started");
    tokio::time::sleep(Duration::from_millis(50)).await;
    context.log(LogLevel::Info, "Tool processing data");
    tokio::time::sleep(Duration::from_millis(50)).await;
    context.log(LogLevel::Info, "Tool execution completed");
    "Logging test completed"
}

/// Sends a log message (only when the request asked for logs)
#[tool]
async fn test_logging_tool(context: Context) -> &'static str {
    context.log(LogLevel::Info, "test_logging_tool ran");
    "Logged"
}

/// Always fails
#[tool]
async fn test_error_handling() -> Result<String, ToolError> {
    Err(ToolError::new(
        "This tool intentionally returns an error for testing",
    ))
}

/// Reports progress 0, 50 and 100 out of 100
#[tool]
async fn test_tool_with_progress(context: Context) -> &'static str {
    context.progress(0.0, Some(100.0), None);
    tokio::time::sleep(Duration::from_millis(50)).await;
    context.progress(50.0, Some(100.0), None);
    tokio::time::sleep(Duration::from_millis(50)).await;
    context.progress(100.0, Some(100.0), None);
    "Progress test completed"
}

/// Runs a query in a region; a 2026-07-28 HTTP client also sends the region, priority and
/// verbosity as `Mcp-Param-*` headers, which must match the arguments (SEP-2243,
/// `http-custom-header-server-validation`)
#[tool]
async fn test_custom_headers(
    /// Where to run the query
    #[header("Region")]
    region: String,
    /// How urgent the query is
    #[header("Priority")]
    priority: i64,
    /// Whether to say more
    #[header("Verbose")]
    verbose: Option<bool>,
    /// The query (not mirrored into a header)
    query: String,
) -> String {
    let manner = if verbose == Some(true) {
        ", verbosely"
    } else {
        ""
    };
    format!("ran {query:?} in {region:?} at priority {priority}{manner}")
}

/// A tool whose input schema uses JSON Schema 2020-12 features `#[tool]` never emits
/// (`$defs` with `$anchor`, `allOf`/`anyOf`, `if`/`then`/`else`): added as a run-time tool.
fn json_schema_2020_12_tool() -> Result<Tool, mcp_toolbelt::error::RegistryError> {
    let schema = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"$anchor": "addressDef", "type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"}
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    });
    Tool::new(
        "json_schema_2020_12_tool",
        "Tool with JSON Schema 2020-12 features",
        schema,
        |arguments, _| async move { CallToolResult::text(format!("Received: {arguments}")) },
    )
}

/// A tool that cannot run without the client's `sampling` capability: a client that did not
/// declare it gets `-32021` instead of a call.
fn missing_capability_tool() -> Result<Tool, mcp_toolbelt::error::RegistryError> {
    let schema =
        serde_json::json!({"type": "object", "properties": {}, "additionalProperties": false});
    let tool = Tool::new(
        "test_missing_capability",
        "Needs the client's sampling capability",
        schema,
        |_, _| async { CallToolResult::text("The client declared sampling") },
    )?;
    let mut required = serde_json::Map::new();
    required.insert("sampling".into(), serde_json::json!({}));
    Ok(tool.requires_client_capabilities(required))
}

/// What `test_elicitation` asks for.
#[derive(Serialize, Deserialize, JsonSchema)]
struct UserInfo {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// Asks the user for a name and an email address (`tools-call-elicitation`)
#[tool]
async fn test_elicitation(
    context: Context,
    /// The message to show the user
    message: String,
) -> Result<String, AskError> {
    let answer = context.elicit::<UserInfo>(&message).await?;
    Ok(format!("User response: {}", described(&answer)))
}

/// An elicitation's answer as the conformance fixtures describe it.
fn described<T: Serialize>(answer: &Elicitation<T>) -> String {
    match answer {
        Elicitation::Accept(content) => format!(
            "action=accept, content={}",
            serde_json::to_string(content).unwrap_or_default()
        ),
        Elicitation::Decline => "action=decline, content={}".into(),
        Elicitation::Cancel => "action=cancel, content={}".into(),
        _ => "action=unknown, content={}".into(),
    }
}

/// The form of `test_elicitation_sep1034_defaults`: a default for every primitive type.
#[derive(Serialize, Deserialize, JsonSchema)]
struct Defaults {
    #[serde(default = "default_name")]
    name: String,
    #[serde(default = "default_age")]
    age: i64,
    #[serde(default = "default_score")]
    score: f64,
    #[serde(default)]
    status: Status,
    #[serde(default = "default_verified")]
    verified: bool,
}

#[derive(Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Status {
    #[default]
    Active,
    Inactive,
    Pending,
}

fn default_name() -> String {
    "John Doe".into()
}

fn default_age() -> i64 {
    30
}

fn default_score() -> f64 {
    95.5
}

fn default_verified() -> bool {
    true
}

/// Asks for a form whose fields all have defaults (`elicitation-sep1034-defaults`)
#[tool]
async fn test_elicitation_sep1034_defaults(context: Context) -> Result<String, AskError> {
    let answer = context
        .elicit::<Defaults>("Please review the defaults")
        .await?;
    Ok(format!("Elicitation completed: {}", described(&answer)))
}

/// The form of `test_elicitation_sep1330_enums`: each kind of enum field.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Enums {
    untitled_single: Untitled,
    titled_single: Titled,
    #[schemars(extend("enumNames" = ["Option One", "Option Two", "Option Three"]))]
    legacy_enum: Legacy,
    untitled_multi: Vec<Untitled>,
    titled_multi: Vec<Choice>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Untitled {
    Option1,
    Option2,
    Option3,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Titled {
    /// First Option
    Value1,
    /// Second Option
    Value2,
    /// Third Option
    Value3,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Legacy {
    Opt1,
    Opt2,
    Opt3,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Choice {
    /// First Choice
    Value1,
    /// Second Choice
    Value2,
    /// Third Choice
    Value3,
}

/// Asks for a form with every kind of enum field (`elicitation-sep1330-enums`)
#[tool]
async fn test_elicitation_sep1330_enums(context: Context) -> Result<String, AskError> {
    let answer = context.elicit::<Enums>("Please choose").await?;
    Ok(format!("Elicitation completed: {}", described(&answer)))
}

/// Asks the client's model to answer the prompt (`tools-call-sampling`)
#[tool]
async fn test_sampling(
    context: Context,
    /// The prompt to send to the LLM
    prompt: String,
) -> Result<String, AskError> {
    let sampled = context.sample(&Sampling::user(prompt, 100)).await?;
    Ok(format!(
        "LLM response: {}",
        sampled.text().unwrap_or_default()
    ))
}

/// `test_input_required_result_*`'s one-field forms.
#[derive(Serialize, Deserialize, JsonSchema)]
struct Name {
    name: String,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Confirm {
    ok: bool,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Color {
    color: String,
}

/// The accepted value of an elicitation, or what the user did instead.
fn accepted<T>(answer: Elicitation<T>) -> Result<T, ToolError> {
    match answer {
        Elicitation::Accept(value) => Ok(value),
        Elicitation::Decline => Err(ToolError::new("The user declined")),
        Elicitation::Cancel => Err(ToolError::new("The user cancelled")),
        _ => Err(ToolError::new("The user gave no answer")),
    }
}

fn asked(error: AskError) -> ToolError {
    ToolError::new(error.to_string())
}

/// Asks the user's name, then greets them (`input-required-result-basic-elicitation`)
#[tool]
async fn test_input_required_result_elicitation(context: Context) -> Result<String, ToolError> {
    let answer = context
        .question("user_name")
        .elicit::<Name>("What is your name?")
        .await
        .map_err(asked)?;
    Ok(format!("Hello, {}!", accepted(answer)?.name))
}

/// Asks the client's model a question (`input-required-result-basic-sampling`)
#[tool]
async fn test_input_required_result_sampling(context: Context) -> Result<String, AskError> {
    let sampling = Sampling::user("What is the capital of France?", 100);
    let sampled = context
        .question("capital_question")
        .sample(&sampling)
        .await?;
    Ok(sampled.text().unwrap_or_default())
}

/// Lists the client's roots (`input-required-result-basic-list-roots`)
#[tool]
async fn test_input_required_result_list_roots(context: Context) -> Result<String, AskError> {
    let roots = context.question("client_roots").roots().await?;
    let uris: Vec<String> = roots.into_iter().map(|root| root.uri).collect();
    Ok(format!("Roots: {}", uris.join(", ")))
}

/// Asks for a confirmation carried through requestState (`input-required-result-request-state`)
#[tool]
async fn test_input_required_result_request_state(context: Context) -> Result<String, ToolError> {
    let answer = context
        .question("confirm")
        .elicit::<Confirm>("Please confirm")
        .await
        .map_err(asked)?;
    Ok(format!("state-ok: confirmed={}", accepted(answer)?.ok))
}

/// Asks for a name, a greeting and the roots in one round
/// (`input-required-result-multiple-input-requests`)
#[tool]
async fn test_input_required_result_multiple_inputs(context: Context) -> Result<String, ToolError> {
    let sampling = Sampling::user("Generate a greeting", 50);
    let (name, greeting, roots) = tokio::join!(
        context
            .question("user_name")
            .elicit::<Name>("What is your name?"),
        context.question("greeting").sample(&sampling),
        context.question("client_roots").roots(),
    );
    let name = accepted(name.map_err(asked)?)?.name;
    let greeting = greeting.map_err(asked)?.text().unwrap_or_default();
    let roots = roots.map_err(asked)?.len();
    Ok(format!("{greeting} {name} ({roots} roots)"))
}

/// Asks two questions, one round each (`input-required-result-multi-round`)
#[tool]
async fn test_input_required_result_multi_round(context: Context) -> Result<String, ToolError> {
    let name = context
        .question("step1")
        .elicit::<Name>("Step 1: What is your name?")
        .await
        .map_err(asked)?;
    let name = accepted(name)?.name;
    let color = context
        .question("step2")
        .elicit::<Color>("Step 2: What is your favorite color?")
        .await
        .map_err(asked)?;
    Ok(format!("{name} likes {}", accepted(color)?.color))
}

/// Asks for a confirmation; a tampered requestState is refused (`input-required-result-tampered-state`)
#[tool]
async fn test_input_required_result_tampered_state(context: Context) -> Result<String, ToolError> {
    let answer = context
        .question("confirm")
        .elicit::<Confirm>("Please confirm")
        .await
        .map_err(asked)?;
    Ok(format!("confirmed={}", accepted(answer)?.ok))
}

/// Asks only what the client can answer (`input-required-result-capability-check`)
#[tool]
async fn test_input_required_result_capabilities(context: Context) -> Result<String, ToolError> {
    let sampling = Sampling::user("Say something", 50);
    let (name, sampled) = tokio::join!(
        context
            .question("user_name")
            .elicit::<Name>("What is your name?"),
        context.question("sampled").sample(&sampling),
    );
    let said = |result: Result<String, AskError>| match result {
        Ok(text) => text,
        Err(AskError::MissingCapability(capability)) => format!("(no {capability})"),
        Err(error) => format!("({error})"),
    };
    let name = said(name.map(|answer| match answer {
        Elicitation::Accept(Name { name }) => name,
        _ => "nobody".into(),
    }));
    let sampled = said(sampled.map(|sampled| sampled.text().unwrap_or_default()));
    Ok(format!("name: {name}; sampled: {sampled}"))
}

/// Asks for a confirmation, then streams progress before the question
/// (`server-stateless`: a 2026-07-28 response stream carries no request of its own)
#[tool]
async fn test_streaming_elicitation(context: Context) -> Result<String, ToolError> {
    context.progress(1.0, Some(2.0), Some("about to ask"));
    let answer = context
        .question("confirm")
        .elicit::<Confirm>("Continue?")
        .await
        .map_err(asked)?;
    Ok(format!("confirmed={}", accepted(answer)?.ok))
}

/// The tools of the server being run, for the tool that changes them.
static TOOLS: OnceLock<tool::Tools> = OnceLock::new();

/// Adds the tool `test_dynamic_tool`, or removes it when present, so that the tool list changes
#[tool]
async fn test_trigger_tool_change() -> Result<String, String> {
    let tools = TOOLS
        .get()
        .ok_or_else(|| "the server is not running".to_owned())?;
    if tools.remove("test_dynamic_tool") {
        return Ok("removed test_dynamic_tool".into());
    }
    let schema =
        serde_json::json!({"type": "object", "properties": {}, "additionalProperties": false});
    let tool = Tool::new(
        "test_dynamic_tool",
        "Exists only between two calls of test_trigger_tool_change",
        schema,
        |_, _| async { CallToolResult::text("here for now") },
    );
    tools
        .add(tool.map_err(|error| error.to_string())?)
        .map_err(|error| error.to_string())?;
    Ok("added test_dynamic_tool".into())
}

/// How many times `test_update_watched_resource` changed the watched resource.
static WATCHED_VERSION: AtomicU64 = AtomicU64::new(0);

/// A resource to subscribe to; `test_update_watched_resource` changes it
#[resource(uri = "test://watched-resource", mime_type = "text/plain")]
async fn watched_resource() -> String {
    format!(
        "Watched resource, version {}",
        WATCHED_VERSION.load(Ordering::Relaxed)
    )
}

/// The resources of the server being run, for the tools that change them.
static RESOURCES: OnceLock<Resources> = OnceLock::new();

/// The server's resources, once it runs.
fn resources() -> Result<&'static Resources, String> {
    RESOURCES
        .get()
        .ok_or_else(|| "the server is not running".to_owned())
}

/// Changes `test://watched-resource`, so that its subscribers are told it was updated
#[tool]
async fn test_update_watched_resource() -> Result<String, String> {
    let version = WATCHED_VERSION.fetch_add(1, Ordering::Relaxed) + 1;
    resources()?.notify_updated("test://watched-resource");
    Ok(format!(
        "test://watched-resource is now at version {version}"
    ))
}

/// Adds the resource `test://dynamic-resource`, or removes it when present, so that the resource list changes
#[tool]
async fn test_trigger_resource_change() -> Result<String, String> {
    let resources = resources()?;
    if resources.remove("test://dynamic-resource") {
        return Ok("removed test://dynamic-resource".into());
    }
    let resource = Resource::new("test://dynamic-resource", "dynamic-resource", |_| async {
        "Exists only between two calls of test_trigger_resource_change"
    })
    .map_err(|error| error.to_string())?
    .mime_type("text/plain");
    resources.add(resource).map_err(|error| error.to_string())?;
    Ok("added test://dynamic-resource".into())
}

/// The prompts of the server being run, for the tool that changes them.
static PROMPTS: OnceLock<Prompts> = OnceLock::new();

/// Adds the prompt `test_dynamic_prompt`, or removes it when present, so that the prompt list
/// changes
#[tool]
async fn test_trigger_prompt_change() -> Result<String, String> {
    let prompts = PROMPTS
        .get()
        .ok_or_else(|| "the server is not running".to_owned())?;
    if prompts.remove("test_dynamic_prompt") {
        return Ok("removed test_dynamic_prompt".into());
    }
    let prompt = Prompt::new(
        "test_dynamic_prompt",
        "Exists only between two calls of test_trigger_prompt_change",
        |_, _| async { "here for now" },
    );
    prompts.add(prompt).map_err(|error| error.to_string())?;
    Ok("added test_dynamic_prompt".into())
}

/// The server: every `#[tool]`, `#[prompt]` and `#[resource]` in this file and the two tools
/// added at run time.
fn server() -> Result<Server, mcp_toolbelt::error::RegistryError> {
    // The suite's `input-required-result-ignore-extra-params` answers `user_name` before any round
    // asked it, and no tool here confirms before it acts: `tests/conformance/run.sh` turns early
    // answers on. The wire tests run this server without them, as every server starts.
    let early_answers = std::env::var_os("CONFORMANCE_EARLY_ANSWERS").is_some();
    let server = Server::new("mcp-toolbelt-conformance", env!("CARGO_PKG_VERSION"))
        .accept_early_answers(early_answers);
    let server = tasks::configure(server);
    let _ = TOOLS.set(server.tools());
    let _ = PROMPTS.set(server.prompts());
    let _ = RESOURCES.set(server.resources());
    for tool in [json_schema_2020_12_tool(), missing_capability_tool()] {
        server.tools().add(tool?)?;
    }
    Ok(server)
}

/// A simple prompt without arguments (`prompts-get-simple`)
#[prompt]
async fn test_simple_prompt() -> &'static str {
    "This is a simple prompt for testing."
}

/// A prompt with two required arguments (`prompts-get-with-args`, `completion-complete`)
#[prompt(complete(arg1 = test_values))]
async fn test_prompt_with_arguments(
    /// First test argument
    arg1: String,
    /// Second test argument
    arg2: String,
) -> String {
    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
}

/// The values `completion-complete` completes `arg1` with: those that start with what was typed.
async fn test_values(partial: &str, _: &CompletionContext) -> Vec<String> {
    ["test", "testing", "tested", "other"]
        .into_iter()
        .filter(|value| value.starts_with(partial))
        .map(str::to_owned)
        .collect()
}

/// A prompt that embeds a resource (`prompts-get-embedded-resource`)
#[prompt]
async fn test_prompt_with_embedded_resource(
    /// URI of the resource to embed
    #[serde(rename = "resourceUri")]
    resource_uri: String,
) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Content::resource(
            EmbeddedResource::text(resource_uri, "Embedded resource content for testing.")
                .mime_type("text/plain"),
        )),
        PromptMessage::user("Please process the embedded resource above."),
    ]
}

/// A prompt with an image (`prompts-get-with-image`)
#[prompt]
async fn test_prompt_with_image() -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Content::image(RED_PIXEL_PNG, "image/png")),
        PromptMessage::user("Please analyze the image above."),
    ]
}

/// What `test_input_required_result_prompt` asks for.
#[derive(Deserialize, JsonSchema)]
struct PromptContext {
    context: String,
}

/// A prompt that asks the user for context first (`input-required-result-non-tool-request`)
#[prompt]
async fn test_input_required_result_prompt(context: Context) -> Result<String, ToolError> {
    let answer = context
        .question("user_context")
        .elicit::<PromptContext>("What context should the prompt use?")
        .await
        .map_err(asked)?;
    Ok(format!(
        "Write with this context: {}",
        accepted(answer)?.context
    ))
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    match server() {
        Ok(server) => server.run().await,
        Err(error) => {
            eprintln!("Error: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use mcp_toolbelt::testing::{assert_portable_for, assert_tools_snapshot};

    /// `json_schema_2020_12_tool` is the suite's 2020-12 fixture (`$schema`, `$defs`, `allOf`,
    /// `if`/`then`): only the hosts that take any 2020-12 schema take it.
    #[test]
    fn portable_to_the_hosts_that_take_full_2020_12() {
        assert_portable_for(
            &super::server().unwrap(),
            &["mcp", "openai", "local-grammar"],
        );
    }

    /// `UPDATE_SNAPSHOTS=1 cargo test -p mcp-toolbelt-examples --example conformance` rewrites it.
    #[test]
    fn tools_list_matches_the_snapshot() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/snapshots/conformance-tools.json"
        );
        assert_tools_snapshot(&super::server().unwrap(), path);
    }
}
