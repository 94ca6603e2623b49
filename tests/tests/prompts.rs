//! Prompts and completions as a client sees them, in process (`TestClient`, the real dispatch
//! path), in both eras: `prompts/list` (pages, titles, arguments, the 2026 caching fields),
//! `prompts/get` (every return style, arguments read into their types, a refused or missing
//! argument, the fn's error, an unknown prompt), `completion/complete` (known values of an
//! enum and a bool, completer fns told the resolved arguments, at most 100 values, template
//! variables, unknown references), prompts that ask the client (a legacy request, a 2026-07-28
//! round whose state never opens for a tool of the same name), prompts added at run time, and
//! the capabilities.

// Prompts are written as users write them, `async` even when they await nothing.
#![allow(clippy::unused_async)]

use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_toolbelt::ask::Elicitation;
use mcp_toolbelt::completion::{Completion, CompletionContext};
use mcp_toolbelt::prompt::{GetPromptResult, Prompt, PromptArgument, PromptMessage};
use mcp_toolbelt::result::EmbeddedResource;
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Content, Context, Server, State, prompt, resource, tool};
use mcp_toolbelt_tests::in_process::InProcess;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// How a summary is written.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Tone {
    Formal,
    Friendly,
    Terse,
}

/// Greets someone
#[prompt(title = "Greeting")]
async fn greet(
    /// Who to greet
    name: String,
) -> String {
    format!("Say hello to {name}")
}

/// Summarises a note
#[prompt(name = "summarise", complete(title = note_titles))]
async fn summarise_note(
    /// The note's title
    title: String,
    /// How to write it
    tone: Option<Tone>,
    /// At most this many words
    #[serde(default)]
    words: u32,
    /// Whether to quote the note
    quote: Option<bool>,
) -> GetPromptResult {
    let tone = match tone {
        Some(Tone::Formal) => "formal",
        Some(Tone::Friendly) => "friendly",
        Some(Tone::Terse) => "terse",
        None => "plain",
    };
    GetPromptResult::new(vec![
        PromptMessage::user(format!(
            "Summarise {title:?}, {tone}, in {words} words, quoting: {}",
            quote.unwrap_or(false)
        )),
        PromptMessage::assistant(Content::text("Reading it now.")),
    ])
    .description(format!("A summary of {title}"))
}

/// The titles of the notes, for `summarise`'s `title`: those that start with the partial value,
/// or, once a tone is resolved, that tone's notes alone.
async fn note_titles(partial: &str, context: &CompletionContext) -> Vec<String> {
    let titles = match context.argument("tone") {
        Some("formal") => vec!["Board minutes".to_owned()],
        _ => vec![
            "Groceries".to_owned(),
            "Garden plan".to_owned(),
            "Board minutes".to_owned(),
        ],
    };
    titles
        .into_iter()
        .filter(|title| title.to_lowercase().starts_with(&partial.to_lowercase()))
        .collect()
}

/// Many values, for the limit of 100.
async fn numbers(partial: &str, _: &CompletionContext) -> Completion {
    Completion::new((0..250).map(|n| format!("{partial}{n}")).collect())
}

/// Every kind of content
#[prompt]
fn every_content(
    /// A number
    #[complete(numbers)]
    count: u8,
) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Content::image("iVBORw0KGgo=", "image/png")),
        PromptMessage::user(Content::resource(
            EmbeddedResource::text("test://note", "The note").mime_type("text/plain"),
        )),
        PromptMessage::assistant(format!("{count} items")),
    ]
}

/// Fails
#[prompt]
async fn failing() -> Result<String, std::io::Error> {
    Err(std::io::Error::other("the notes are gone"))
}

/// Panics
#[prompt]
async fn panicking() -> String {
    panic!("a bug in the prompt")
}

/// A counter given to the server.
struct Visits(AtomicUsize);

/// Counts its uses through app state
#[prompt]
async fn counted(visits: State<Visits>, context: &Context) -> String {
    let _ = context;
    let count = visits.0.fetch_add(1, Ordering::Relaxed) + 1;
    format!("visit {count}")
}

#[derive(Deserialize, JsonSchema)]
struct Topic {
    topic: String,
}

/// Asks the user for a topic first
#[prompt]
async fn ask_topic(context: Context) -> Result<String, String> {
    let answer = context
        .question("topic")
        .elicit::<Topic>("Which topic?")
        .await
        .map_err(|error| error.to_string())?;
    match answer {
        Elicitation::Accept(topic) => Ok(format!("Write about {}", topic.topic)),
        _ => Err("no topic".to_owned()),
    }
}

/// A tool of the same name as the prompt that asks
#[tool(name = "ask_topic")]
async fn ask_topic_tool(context: Context) -> String {
    match context
        .question("topic")
        .elicit::<Topic>("Which topic?")
        .await
    {
        Ok(Elicitation::Accept(topic)) => format!("tool: {}", topic.topic),
        _ => "tool: no topic".to_owned(),
    }
}

/// A note's language.
#[derive(JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Lang {
    En,
    Fr,
}

impl std::str::FromStr for Lang {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "en" => Ok(Self::En),
            "fr" => Ok(Self::Fr),
            other => Err(format!("unknown language `{other}`")),
        }
    }
}

/// One note by language and id
#[resource(uri = "notes://{lang}/{id}", complete(id = note_ids))]
async fn note(lang: Lang, id: String) -> String {
    let lang = match lang {
        Lang::En => "en",
        Lang::Fr => "fr",
    };
    format!("note {id} ({lang})")
}

/// The ids of notes in the resolved language.
async fn note_ids(partial: &str, context: &CompletionContext) -> Vec<&'static str> {
    let ids: &[&'static str] = if context.argument("lang") == Some("fr") {
        &["t1"]
    } else {
        &["a1", "a2", "b1"]
    };
    ids.iter()
        .copied()
        .filter(|id| id.starts_with(partial))
        .collect()
}

/// What a triage is asked for: its documented fields are the prompt's arguments.
#[derive(Deserialize, JsonSchema)]
struct TriageArgs {
    /// The issue's number
    issue: u32,
    /// How to write the triage
    tone: Option<Tone>,
    /// Who looks at it
    #[serde(default)]
    assignee: String,
}

/// Triages an issue
#[prompt]
async fn triage(args: TriageArgs) -> String {
    let tone = match args.tone {
        Some(Tone::Formal) => "formal",
        Some(Tone::Friendly) => "friendly",
        Some(Tone::Terse) => "terse",
        None => "plain",
    };
    format!("Triage #{}, {tone}, for {:?}", args.issue, args.assignee)
}

fn server() -> Server {
    Server::new("prompts", "1.0.0")
        .page_size(3)
        .state(Visits(AtomicUsize::new(0)))
}

fn client() -> TestClient {
    TestClient::new(server())
}

fn modern(params: Value, capabilities: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    });
    params
}

fn result(response: &Value) -> &Value {
    assert!(response.get("error").is_none(), "an error: {response}");
    &response["result"]
}

fn error(response: &Value) -> (i64, String) {
    let error = &response["error"];
    assert!(error.is_object(), "no error: {response}");
    (
        error["code"].as_i64().expect("a code"),
        error["message"].as_str().expect("a message").to_owned(),
    )
}

async fn get(client: &TestClient, name: &str, arguments: Value) -> Value {
    client
        .request("prompts/get", json!({"name": name, "arguments": arguments}))
        .await
}

async fn complete(
    client: &TestClient,
    reference: Value,
    argument: (&str, &str),
    context: Value,
) -> Value {
    client
        .request(
            "completion/complete",
            json!({
                "ref": reference,
                "argument": {"name": argument.0, "value": argument.1},
                "context": {"arguments": context},
            }),
        )
        .await
}

#[tokio::test]
async fn the_capabilities_declare_prompts_and_completions_in_both_eras() {
    let client = client();
    let initialized = client
        .request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await;
    let capabilities = &result(&initialized)["capabilities"];
    assert_eq!(capabilities["prompts"], json!({"listChanged": true}));
    assert_eq!(capabilities["completions"], json!({}));
    // `completions` came with 2025-03-26.
    let old = TestClient::with_protocol_version(server(), "2024-11-05");
    let initialized = old
        .request(
            "initialize",
            json!({"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await;
    let capabilities = &result(&initialized)["capabilities"];
    assert_eq!(capabilities["prompts"], json!({"listChanged": true}));
    assert!(capabilities.get("completions").is_none(), "{capabilities}");
    let discovered = client
        .request("server/discover", modern(json!({}), json!({})))
        .await;
    let capabilities = &result(&discovered)["capabilities"];
    assert_eq!(capabilities["prompts"], json!({"listChanged": true}));
    assert_eq!(capabilities["completions"], json!({}));
}

#[tokio::test]
async fn prompts_are_listed_in_pages_with_their_arguments() {
    let client = client();
    let first = client.request("prompts/list", json!({})).await;
    let first = result(&first);
    let names: Vec<&str> = first["prompts"]
        .as_array()
        .expect("prompts")
        .iter()
        .map(|prompt| prompt["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(names, ["ask_topic", "counted", "every_content"]);
    let cursor = first["nextCursor"].as_str().expect("a next page");
    let second = client
        .request("prompts/list", json!({"cursor": cursor}))
        .await;
    let second = result(&second);
    assert_eq!(second["prompts"][0]["name"], "failing");
    assert_eq!(
        second["prompts"][1],
        json!({
            "name": "greet",
            "title": "Greeting",
            "description": "Greets someone",
            "arguments": [{"name": "name", "description": "Who to greet", "required": true}],
        })
    );
    assert_eq!(second["prompts"][2]["name"], "panicking");
    let cursor = second["nextCursor"].as_str().expect("a third page");
    let third = client
        .request("prompts/list", json!({"cursor": cursor}))
        .await;
    let third = result(&third);
    assert_eq!(third["prompts"][0]["name"], "summarise");
    assert_eq!(
        third["prompts"][0]["arguments"],
        json!([
            {"name": "title", "description": "The note's title", "required": true},
            {"name": "tone", "description": "How to write it", "required": false},
            {"name": "words", "description": "At most this many words", "required": false},
            {"name": "quote", "description": "Whether to quote the note", "required": false},
        ])
    );
    assert!(third.get("nextCursor").is_none());
    let refused = client
        .request("prompts/list", json!({"cursor": "%%%"}))
        .await;
    assert_eq!(error(&refused), (-32602, "Invalid cursor".to_owned()));
}

#[tokio::test]
async fn a_modern_list_carries_the_caching_fields_and_no_title_goes_to_old_clients() {
    let client = client();
    let listed = client
        .request("prompts/list", modern(json!({}), json!({})))
        .await;
    let listed = result(&listed);
    assert_eq!(listed["ttlMs"], 60_000);
    assert_eq!(listed["cacheScope"], "public");
    assert_eq!(listed["resultType"], "complete");
    assert_eq!(
        listed["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "prompts"
    );

    let old = TestClient::with_protocol_version(server().page_size(10), "2025-03-26");
    let listed = old.request("prompts/list", json!({})).await;
    let greet = result(&listed)["prompts"]
        .as_array()
        .expect("prompts")
        .iter()
        .find(|prompt| prompt["name"] == "greet")
        .cloned()
        .expect("greet");
    assert!(greet.get("title").is_none(), "{greet}");
}

#[tokio::test]
async fn a_prompt_returning_text_is_one_user_message() {
    let client = client();
    let response = get(&client, "greet", json!({"name": "Ada"})).await;
    assert_eq!(
        *result(&response),
        json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Say hello to Ada"}}]})
    );
}

#[tokio::test]
async fn arguments_are_read_into_their_types() {
    let client = client();
    let response = get(
        &client,
        "summarise",
        json!({"title": "Groceries", "tone": "terse", "words": "12", "quote": "true"}),
    )
    .await;
    let response = result(&response);
    assert_eq!(response["description"], "A summary of Groceries");
    assert_eq!(
        response["messages"][0]["content"]["text"],
        "Summarise \"Groceries\", terse, in 12 words, quoting: true"
    );
    assert_eq!(response["messages"][1]["role"], "assistant");
    // Left out: `None` and the default.
    let response = get(&client, "summarise", json!({"title": "Groceries"})).await;
    assert_eq!(
        result(&response)["messages"][0]["content"]["text"],
        "Summarise \"Groceries\", plain, in 0 words, quoting: false"
    );
}

#[tokio::test]
async fn a_refused_or_missing_argument_is_invalid_params_naming_it() {
    let client = client();
    let (code, message) =
        error(&get(&client, "summarise", json!({"title": "a", "tone": "loud"})).await);
    assert_eq!(code, -32602);
    assert!(message.contains("argument `tone`"), "{message}");
    assert!(
        message.contains("`formal`, `friendly`"),
        "the enum's values: {message}"
    );
    let (code, message) =
        error(&get(&client, "summarise", json!({"title": "a", "words": "many"})).await);
    assert_eq!(code, -32602);
    assert!(
        message.contains("argument `words`") && message.contains("u32"),
        "{message}"
    );
    let (code, message) = error(&get(&client, "summarise", json!({"tone": "terse"})).await);
    assert_eq!(code, -32602);
    assert!(
        message.contains("Missing required argument `title`"),
        "{message}"
    );
    let (code, message) = error(&get(&client, "greet", json!({"name": 3})).await);
    assert_eq!(code, -32602);
    assert!(
        message.contains("`arguments.name` must be a string"),
        "{message}"
    );
}

#[tokio::test]
async fn an_unknown_prompt_is_invalid_params() {
    let client = client();
    let (code, message) = error(&get(&client, "nothing", json!({})).await);
    assert_eq!(
        (code, message.as_str()),
        (-32602, "Unknown prompt: nothing")
    );
}

#[tokio::test]
async fn the_fns_error_is_a_json_rpc_error_with_its_message() {
    let client = client();
    let (code, message) = error(&get(&client, "failing", json!({})).await);
    assert_eq!((code, message.as_str()), (-32603, "the notes are gone"));
}

#[tokio::test]
async fn a_panicking_prompt_is_an_error_and_the_server_goes_on() {
    let client = client();
    let (code, message) = error(&get(&client, "panicking", json!({})).await);
    assert_eq!(
        (code, message.as_str()),
        (-32603, "Error getting prompt panicking: it panicked")
    );
    let response = get(&client, "greet", json!({"name": "Ada"})).await;
    assert_eq!(
        result(&response)["messages"][0]["content"]["text"],
        "Say hello to Ada"
    );
}

#[tokio::test]
async fn messages_carry_every_content_and_state_reaches_a_prompt() {
    let client = client();
    let response = get(&client, "every_content", json!({"count": "3"})).await;
    let messages = &result(&response)["messages"];
    assert_eq!(messages[0]["content"]["type"], "image");
    assert_eq!(messages[1]["content"]["resource"]["uri"], "test://note");
    assert_eq!(
        messages[2],
        json!({"role": "assistant", "content": {"type": "text", "text": "3 items"}})
    );
    for expected in ["visit 1", "visit 2"] {
        let response = get(&client, "counted", json!({})).await;
        assert_eq!(
            result(&response)["messages"][0]["content"]["text"],
            expected
        );
    }
}

#[tokio::test]
async fn an_enum_and_a_bool_complete_from_their_values() {
    let client = client();
    let summarise = json!({"type": "ref/prompt", "name": "summarise"});
    let response = complete(&client, summarise.clone(), ("tone", "f"), json!({})).await;
    assert_eq!(
        *result(&response),
        json!({"completion": {"values": ["formal", "friendly"]}})
    );
    let response = complete(&client, summarise.clone(), ("quote", ""), json!({})).await;
    assert_eq!(
        result(&response)["completion"]["values"],
        json!(["true", "false"])
    );
    // No completer and no known values: nothing, but no error.
    let greet = json!({"type": "ref/prompt", "name": "greet"});
    let response = complete(&client, greet, ("name", "A"), json!({})).await;
    assert_eq!(result(&response)["completion"]["values"], json!([]));
}

#[tokio::test]
async fn a_completer_is_told_the_resolved_arguments() {
    let client = client();
    let summarise = json!({"type": "ref/prompt", "name": "summarise"});
    let response = complete(&client, summarise.clone(), ("title", "g"), json!({})).await;
    assert_eq!(
        result(&response)["completion"]["values"],
        json!(["Groceries", "Garden plan"])
    );
    let response = complete(&client, summarise, ("title", ""), json!({"tone": "formal"})).await;
    assert_eq!(
        result(&response)["completion"]["values"],
        json!(["Board minutes"])
    );
}

#[tokio::test]
async fn at_most_a_hundred_values_are_sent_with_total_and_has_more() {
    let client = client();
    let every = json!({"type": "ref/prompt", "name": "every_content"});
    let response = complete(&client, every, ("count", "1"), json!({})).await;
    let completion = &result(&response)["completion"];
    assert_eq!(completion["values"].as_array().map(Vec::len), Some(100));
    assert_eq!(completion["total"], 250);
    assert_eq!(completion["hasMore"], true);
}

#[tokio::test]
async fn template_variables_complete_from_their_completer_and_their_type() {
    let client = client();
    let template = json!({"type": "ref/resource", "uri": "notes://{lang}/{id}"});
    let response = complete(&client, template.clone(), ("id", "a"), json!({})).await;
    assert_eq!(
        result(&response)["completion"]["values"],
        json!(["a1", "a2"])
    );
    let response = complete(&client, template.clone(), ("id", ""), json!({"lang": "fr"})).await;
    assert_eq!(result(&response)["completion"]["values"], json!(["t1"]));
    let response = complete(&client, template, ("lang", "F"), json!({})).await;
    assert_eq!(result(&response)["completion"]["values"], json!(["fr"]));
}

#[tokio::test]
async fn an_unknown_prompt_template_or_argument_is_invalid_params() {
    let client = client();
    let cases = [
        (
            json!({"type": "ref/prompt", "name": "nothing"}),
            "name",
            "Unknown prompt: nothing",
        ),
        (
            json!({"type": "ref/prompt", "name": "greet"}),
            "who",
            "Prompt `greet` has no argument `who`",
        ),
        (
            json!({"type": "ref/resource", "uri": "notes://nothing/{x}"}),
            "x",
            "Unknown resource template: notes://nothing/{x}",
        ),
        (
            json!({"type": "ref/resource", "uri": "notes://{lang}/{id}"}),
            "page",
            "Resource template `notes://{lang}/{id}` has no variable `page`",
        ),
    ];
    for (reference, argument, expected) in cases {
        let response = complete(&client, reference, (argument, ""), json!({})).await;
        assert_eq!(error(&response), (-32602, expected.to_owned()));
    }
}

#[tokio::test]
async fn a_legacy_prompt_asks_the_client_as_a_tool_does() {
    let client = client().answering(json!({"elicitation": {}}), |method, params| {
        assert_eq!(method, "elicitation/create");
        assert_eq!(params["message"], "Which topic?");
        Ok(json!({"action": "accept", "content": {"topic": "bees"}}))
    });
    let response = get(&client, "ask_topic", json!({})).await;
    assert_eq!(
        result(&response)["messages"][0]["content"]["text"],
        "Write about bees"
    );
}

#[tokio::test]
async fn a_modern_prompt_answers_input_required_then_completes() {
    let client = client();
    let capabilities = json!({"elicitation": {}});
    let first = client
        .request(
            "prompts/get",
            modern(
                json!({"name": "ask_topic", "arguments": {}}),
                capabilities.clone(),
            ),
        )
        .await;
    let first = result(&first);
    assert_eq!(first["resultType"], "input_required");
    assert_eq!(
        first["inputRequests"]["topic"]["method"],
        "elicitation/create"
    );
    let state = first["requestState"].as_str().expect("a requestState");
    let answers = json!({"topic": {"action": "accept", "content": {"topic": "owls"}}});
    let retry = client
        .request(
            "prompts/get",
            modern(
                json!({"name": "ask_topic", "arguments": {}, "inputResponses": answers, "requestState": state}),
                capabilities.clone(),
            ),
        )
        .await;
    let retry = result(&retry);
    assert_eq!(retry["resultType"], "complete");
    assert_eq!(retry["messages"][0]["content"]["text"], "Write about owls");

    // The prompt's state never opens for the tool of the same name.
    let tool = client
        .request(
            "tools/call",
            modern(
                json!({"name": "ask_topic", "arguments": {}, "inputResponses": answers, "requestState": state}),
                capabilities,
            ),
        )
        .await;
    assert_eq!(
        error(&tool),
        (-32602, "Invalid or expired requestState".to_owned())
    );
}

#[tokio::test]
async fn a_modern_prompt_without_the_capability_is_missing_capability() {
    let client = client();
    let response = client
        .request(
            "prompts/get",
            modern(json!({"name": "ask_topic", "arguments": {}}), json!({})),
        )
        .await;
    assert_eq!(error(&response).0, -32021, "{response}");
}

#[tokio::test]
async fn prompts_added_at_run_time_are_served_and_removed() {
    let server = server();
    let prompts = server.prompts();
    let echo = Prompt::new("echo", "Echo the text", |arguments, _context| async move {
        format!("echo: {}", arguments["text"])
    })
    .title("Echo")
    .argument(PromptArgument::new("text").required(true));
    prompts.add(echo).expect("a new name");
    let duplicate = Prompt::new("greet", "Again", |_, _| async { "again" });
    let refused = prompts.add(duplicate).expect_err("a taken name");
    assert!(
        refused
            .to_string()
            .contains("two prompts are named `greet`"),
        "{refused}"
    );

    let client = TestClient::new(server);
    let response = get(&client, "echo", json!({"text": "hi"})).await;
    assert_eq!(
        result(&response)["messages"][0]["content"]["text"],
        "echo: hi"
    );
    let (code, message) = error(&get(&client, "echo", json!({})).await);
    assert_eq!(code, -32602);
    assert!(
        message.contains("Missing required argument `text`"),
        "{message}"
    );
    assert!(prompts.remove("echo"));
    assert!(!prompts.remove("echo"));
    let (code, _) = error(&get(&client, "echo", json!({"text": "hi"})).await);
    assert_eq!(code, -32602);
}

/// Over the stdio framing (the messages parsed as a transport parses them, not handed over as
/// values): a legacy client initializes, gets a prompt and completes an argument, its
/// `context.arguments` reaching the completer.
#[tokio::test]
async fn prompts_and_completions_over_the_stdio_framing() {
    let mut client = InProcess::start(server());
    let initialized = client
        .request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await;
    assert_eq!(
        initialized["result"]["capabilities"]["completions"],
        json!({})
    );
    let got = client
        .request(
            2,
            "prompts/get",
            json!({"name": "greet", "arguments": {"name": "Ada"}}),
        )
        .await;
    assert_eq!(
        got["result"]["messages"][0]["content"]["text"],
        "Say hello to Ada"
    );
    let completed = client
        .request(
            3,
            "completion/complete",
            json!({
                "ref": {"type": "ref/prompt", "name": "summarise"},
                "argument": {"name": "title", "value": ""},
                "context": {"arguments": {"tone": "formal"}},
            }),
        )
        .await;
    assert_eq!(
        completed["result"]["completion"]["values"],
        json!(["Board minutes"])
    );
}

/// A prompt's start-up errors have the tools' shapes: a missing `State<T>` is `MissingState`, a
/// name taken twice `DuplicateName`, each saying it is about a prompt.
#[tokio::test]
async fn a_prompts_missing_state_and_taken_name_are_the_tools_errors() {
    use mcp_toolbelt::error::{ItemKind, RegistryError};

    let error = Server::new("prompts", "1.0.0")
        .check()
        .expect_err("Visits is missing");
    let mcp_toolbelt::Error::Registry(RegistryError::MissingState {
        kind,
        name,
        type_name,
        ..
    }) = &error
    else {
        panic!("{error:?}");
    };
    assert_eq!((*kind, name.as_str()), (ItemKind::Prompt, "counted"));
    assert_eq!(type_name, "prompts::Visits");
    let text = error.to_string();
    assert!(
        text.starts_with("prompt `counted` at tests/tests/prompts.rs:"),
        "{text}"
    );

    let taken = Prompt::new("greet", "Again", |_, _| async { "again" });
    let refused = server().prompts().add(taken).expect_err("a taken name");
    let RegistryError::DuplicateName { kind, name, .. } = &refused else {
        panic!("{refused:?}");
    };
    assert_eq!((*kind, name.as_str()), (ItemKind::Prompt, "greet"));
    assert!(
        refused.to_string().contains("one added at run time;"),
        "{refused}"
    );
}

/// Issue 40, item 16: a prompt that failed because its question needed a capability the client
/// did not declare is refused as a tool that needs it is, in both eras: `-32021` with the same
/// `requiredCapabilities`.
#[tokio::test]
async fn a_prompt_refused_for_a_capability_answers_as_a_tool_does() {
    let refused = json!({
        "code": -32021,
        "message": "Missing required client capability: elicitation",
        "data": {"requiredCapabilities": {"elicitation": {}}}
    });
    let server = server();
    let mut required = serde_json::Map::new();
    required.insert("elicitation".into(), json!({}));
    let tool = tool::Tool::new(
        "needs_elicitation",
        "Needs the client's elicitation capability",
        json!({"type": "object"}),
        |_, _| async { mcp_toolbelt::CallToolResult::text("asked") },
    )
    .unwrap()
    .requires_client_capabilities(required);
    server.tools().add(tool).unwrap();
    // A legacy client (2025-11-25) that declared no capability.
    let legacy = TestClient::new(server).answering(json!({}), |_, _| Ok(json!({})));
    let call = legacy
        .request(
            "tools/call",
            json!({"name": "needs_elicitation", "arguments": {}}),
        )
        .await;
    assert_eq!(call["error"], refused, "{call}");
    let prompt = get(&legacy, "ask_topic", json!({})).await;
    assert_eq!(prompt["error"], refused, "{prompt}");
    // A 2026-07-28 request that declares none.
    let modern = client()
        .request(
            "prompts/get",
            modern(json!({"name": "ask_topic", "arguments": {}}), json!({})),
        )
        .await;
    assert_eq!(modern["error"], refused, "{modern}");
}

/// Issue 40 item 4: a prompt whose parameter is a struct takes the struct's fields as its
/// arguments (as a tool does), each read from its string into the field's type.
#[tokio::test]
async fn an_argument_structs_fields_are_the_prompts_arguments() {
    let client = client();
    let listed = client.request("prompts/list", json!({})).await;
    let mut prompts = result(&listed)["prompts"].as_array().unwrap().clone();
    let mut cursor = result(&listed)["nextCursor"].clone();
    while let Some(next) = cursor.as_str() {
        let page = client
            .request("prompts/list", json!({"cursor": next}))
            .await;
        prompts.extend(result(&page)["prompts"].as_array().unwrap().iter().cloned());
        cursor = result(&page)["nextCursor"].clone();
    }
    let triage = prompts
        .iter()
        .find(|prompt| prompt["name"] == "triage")
        .expect("triage is listed");
    assert_eq!(
        triage["arguments"],
        json!([
            {"name": "issue", "description": "The issue's number", "required": true},
            {"name": "tone", "description": "How to write the triage", "required": false},
            {"name": "assignee", "description": "Who looks at it", "required": false},
        ])
    );
    let response = get(
        &client,
        "triage",
        json!({"issue": "42", "tone": "terse", "assignee": "ada"}),
    )
    .await;
    assert_eq!(
        result(&response)["messages"][0]["content"]["text"],
        "Triage #42, terse, for \"ada\""
    );
    let response = get(&client, "triage", json!({"issue": "7"})).await;
    assert_eq!(
        result(&response)["messages"][0]["content"]["text"],
        "Triage #7, plain, for \"\""
    );
    let (code, message) = error(&get(&client, "triage", json!({"tone": "terse"})).await);
    assert_eq!(code, -32602);
    assert!(
        message.contains("Missing required argument `issue`"),
        "{message}"
    );
    let (code, message) = error(&get(&client, "triage", json!({"issue": "many"})).await);
    assert_eq!(code, -32602);
    assert!(message.contains("argument `issue`"), "{message}");
    let completed = complete(
        &client,
        json!({"type": "ref/prompt", "name": "triage"}),
        ("tone", "f"),
        json!({}),
    )
    .await;
    assert_eq!(
        result(&completed)["completion"]["values"],
        json!(["formal", "friendly"])
    );
}
