//! Prompts: what [`#[prompt]`](macro@crate::prompt) serves (`prompts/list`, `prompts/get`, in
//! both eras; the `prompts` capability appears only when there are some), what a prompt fn
//! returns ([`GetPromptResult`], [`PromptMessage`]s, text, anything [`IntoPromptResult`]), and
//! prompts built and changed at run time ([`Prompt`], [`Prompts`]).
//!
//! ```
//! use mcp_toolbelt::prompt::{PromptMessage, GetPromptResult};
//! use mcp_toolbelt::{prompt, Content};
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! #[serde(rename_all = "lowercase")]
//! enum Tone { Formal, Casual }
//!
//! /// Summarise a note for its reader
//! #[prompt(title = "Summarise")]
//! async fn prompt_docs_summarise(
//!     /// The note's title
//!     title: String,
//!     /// How to write it
//!     tone: Option<Tone>,
//!     /// At most this many words
//!     words: Option<u32>,
//! ) -> GetPromptResult {
//!     let tone = match tone { Some(Tone::Formal) => "formally", _ => "plainly" };
//!     GetPromptResult::new(vec![
//!         PromptMessage::user(format!("Summarise the note {title:?} {tone}, in {} words.", words.unwrap_or(50))),
//!         PromptMessage::assistant(Content::text("I will read the note first.")),
//!     ])
//!     .description("A summary of one note")
//! }
//! ```
//!
//! Each parameter is an argument (its `///` comment its description, required unless it is an
//! `Option` or `#[serde(default)]`). Arguments are strings on the wire: a parameter is any
//! `FromStr` type, or a type that deserializes from a JSON string (a unit enum deriving
//! `Deserialize`); a missing required argument or a value its type refuses is `-32602`, naming
//! the argument and what was expected. A parameter whose type has a finite set of values (a unit
//! enum deriving `schemars::JsonSchema`, `bool`) completes from them
//! ([`completion`](crate::completion)) with no code.
//!
//! A prompt that refuses a value its type accepts (an id no note has) returns
//! `Err(`[`PromptError::invalid_argument`]`(name, why))`: `-32602`, the client's to fix. Any
//! other error (`Result<_, E: Display>`) is the prompt's failure, `-32603` with its message.
//!
//! A prompt runs as a tool call does (its [`Context`](crate::Context), the call time limit, a
//! plain fn on blocking threads), but call hooks ([`Server::hook`](crate::Server::hook)) do not
//! run for prompts nor completions: check the caller in the fn ([`Context::auth`](crate::Context::auth),
//! [`CompletionContext::auth`](crate::completion::CompletionContext::auth)).
//!
//! # Prompts added and removed while serving
//!
//! ```
//! use mcp_toolbelt::prompt::{Prompt, PromptArgument};
//! use mcp_toolbelt::Server;
//!
//! # fn main() -> Result<(), mcp_toolbelt::error::RegistryError> {
//! let server = Server::new("plugins", "1.0.0");
//! let prompts = server.prompts(); // keep it: it still reaches the prompts once `server` serves
//! let greet = Prompt::new("prompt-docs-greet", "Greet someone", |arguments, _context| async move {
//!     format!("Say hello to {}", arguments.get("name").map_or("everyone", String::as_str))
//! })
//! .argument(PromptArgument::new("name").description("Who to greet"));
//! prompts.add(greet)?;
//! assert!(prompts.list().prompts.iter().any(|prompt| prompt.name == "prompt-docs-greet"));
//! assert!(prompts.remove("prompt-docs-greet"));
//! # Ok(())
//! # }
//! ```
//!
//! A change is sent to connected clients as `notifications/prompts/list_changed`.

pub use crate::registry::{GetPromptResult, IntoPromptResult, Prompt, PromptError, PromptMessage};
pub use crate::server::Prompts;
pub use crate::types::{ListPromptsResult, PromptArgument, PromptDefinition};
