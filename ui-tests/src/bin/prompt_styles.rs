//! Every style of `#[prompt]`: each return type, every kind of argument (text, numbers, a unit
//! enum read by `Deserialize`, optional and defaulted ones), completers on a parameter and on
//! the attribute, `Context` and `State<T>` parameters, a plain fn, `crate = path`, and a
//! template variable's completer on `#[resource]`.

use mcp_toolbelt::completion::{Completion, CompletionContext};
use mcp_toolbelt::prompt::{GetPromptResult, PromptMessage};
use mcp_toolbelt::{Content, Context, State, prompt, resource};

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Tone {
    Formal,
    Casual,
}

struct Notes;

async fn titles(partial: &str, context: &CompletionContext) -> Vec<String> {
    let _ = context.argument("tone");
    vec![format!("{partial}…")]
}

async fn words(_: &str, _: &CompletionContext) -> Completion {
    Completion::new(vec!["10".into()]).total(1)
}

async fn ids(_: &str, _: &CompletionContext) -> Vec<&'static str> {
    vec!["1"]
}

/// Text
#[prompt]
async fn text() -> &'static str {
    "hello"
}

/// Owned text with arguments
#[prompt(name = "owned-text", title = "Owned", complete(title = titles))]
async fn owned_text(
    /// The title
    title: String,
    /// The tone
    tone: Option<Tone>,
    /// How many words
    #[serde(default)]
    #[complete(words)]
    words: u32,
    /// Whether to quote
    quote: bool,
) -> String {
    let _ = (tone, quote);
    format!("{title} {words}")
}

/// Messages
#[prompt]
fn messages(context: &Context, notes: State<Notes>) -> Vec<PromptMessage> {
    let _ = (context, notes);
    vec![
        PromptMessage::user("hi"),
        PromptMessage::assistant(Content::image("AA==", "image/png")),
    ]
}

/// A result
#[prompt(description = "A described result")]
async fn described(context: Context) -> Result<GetPromptResult, std::io::Error> {
    let _ = context;
    Ok(GetPromptResult::new(vec![PromptMessage::user("x")]).description("d"))
}

/// Through another path to the crate
#[prompt(crate = mcp_toolbelt)]
async fn renamed() -> String {
    String::new()
}

/// A note
#[resource(uri = "notes://{id}", complete(id = ids))]
async fn note(id: String) -> String {
    id
}

fn main() {}
