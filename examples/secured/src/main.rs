//! Notes guarded by OAuth scopes: who may read, write and purge them is what their access token
//! grants. The tools, the resource and the prompt each name the scopes they need
//! (`scopes("notes:read")`), the server verifies the tokens itself (`--oauth-issuer`, the
//! runtime's `oauth` feature), and a client whose token lacks a scope is answered `403`
//! `insufficient_scope` naming it, so it asks its authorization server for more (step-up).
//! Listings show a caller only what its token's scopes allow.
//!
//! | item | scopes |
//! | --- | --- |
//! | `whoami` (tool) | none: answers the subject, client and scopes of the caller's token |
//! | `list_notes` (tool) | `notes:read` |
//! | `add_note` (tool) | `notes:write` |
//! | `purge` (tool) | `notes:write` and `notes:admin` |
//! | `secured://notes` (resource) | `notes:read` |
//! | `summarise` (prompt) | `notes:read` |
//!
//! ```text
//! # an authorization server of your own (Keycloak, Auth0, Okta, Entra ID: see the `http`
//! # module's guide), issuing JWT access tokens whose `aud` is this server's URI:
//! cargo run -p mcp-toolbelt-example-secured -- --http 127.0.0.1:8080 \
//!     --oauth-issuer https://id.example.com/realms/notes \
//!     --resource http://127.0.0.1:8080/mcp
//! ```
//!
//! The notes are kept in memory (app state, a `State<Notes>` parameter), at most
//! [`MAX_NOTES`] of at most 200 + 1,000 characters each: what a caller makes the server keep
//! is bounded. Served over stdio (no `--http`), there is no token and every item is served:
//! the user who started the process is the only caller.

use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::{Mutex, MutexGuard, PoisonError};

use mcp_toolbelt::{Context, Json, Server, State, ToolError, prompt, resource, tool};
use schemars::JsonSchema;
use serde::Serialize;

/// The most notes kept: past it `add_note` refuses, until a `purge`.
const MAX_NOTES: usize = 1_000;

/// The notes, in the order they were added.
#[derive(Default)]
struct Notes {
    kept: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    notes: Vec<Note>,
    next_id: u64,
}

impl Notes {
    /// The notes. A call that panicked while holding them left them whole (every change is one
    /// push or one clear).
    fn kept(&self) -> MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A note, and who wrote it.
#[derive(Clone, Serialize, JsonSchema)]
struct Note {
    /// Its number, from 1
    id: u64,
    title: String,
    body: String,
    /// The subject (else the client) of the token that added it
    author: String,
}

/// The caller, as its access token says.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Caller {
    /// The user the token acts for (its `sub` claim), when it names one
    subject: Option<String>,
    /// The client application the token was issued to
    client_id: Option<String>,
    /// The scopes the token grants
    scopes: Vec<String>,
}

/// Who is calling: the subject, client and scopes of your access token (needs no scope)
#[tool(annotations(read_only))]
async fn whoami(context: &Context) -> Json<Caller> {
    let auth = context.auth();
    Json(Caller {
        subject: auth.and_then(|auth| auth.subject.clone()),
        client_id: auth.map(|auth| auth.client_id.clone()),
        scopes: auth.map(|auth| auth.scopes.clone()).unwrap_or_default(),
    })
}

/// Every note.
#[derive(Serialize, JsonSchema)]
struct Listed {
    notes: Vec<Note>,
}

/// List the notes, oldest first (needs `notes:read`)
#[tool(scopes("notes:read"), annotations(read_only))]
async fn list_notes(notes: State<Notes>) -> Json<Listed> {
    Json(Listed {
        notes: notes.kept().notes.clone(),
    })
}

/// Add a note (needs `notes:write`)
#[tool(scopes("notes:write"))]
async fn add_note(
    context: &Context,
    notes: State<Notes>,
    /// A short title
    #[schemars(length(min = 1, max = 200))]
    title: String,
    /// The note's text
    #[schemars(length(max = 1000))]
    body: String,
) -> Result<Json<Note>, ToolError> {
    let author = context.auth().map_or_else(
        || "the local user".to_owned(),
        |auth| {
            auth.subject
                .clone()
                .unwrap_or_else(|| auth.client_id.clone())
        },
    );
    let mut kept = notes.kept();
    if kept.notes.len() >= MAX_NOTES {
        return Err(ToolError::new(format!(
            "There are already {MAX_NOTES} notes, the most kept: purge them first"
        )));
    }
    kept.next_id += 1;
    let note = Note {
        id: kept.next_id,
        title,
        body,
        author,
    };
    kept.notes.push(note.clone());
    Ok(Json(note))
}

/// How many notes a purge removed.
#[derive(Serialize, JsonSchema)]
struct Purged {
    removed: usize,
}

/// Delete every note for good (needs `notes:write` and `notes:admin`)
#[tool(scopes("notes:write", "notes:admin"), annotations(destructive))]
async fn purge(notes: State<Notes>) -> Json<Purged> {
    let mut kept = notes.kept();
    let removed = kept.notes.len();
    kept.notes.clear();
    Json(Purged { removed })
}

/// The notes as markdown, one heading each
fn markdown(notes: &[Note]) -> String {
    if notes.is_empty() {
        return "_No notes yet._\n".to_owned();
    }
    let mut text = String::new();
    for note in notes {
        let _ = write!(
            text,
            "## {}\n\n{}\n\n_by {}_\n\n",
            note.title, note.body, note.author
        );
    }
    text
}

/// Every note, as markdown (needs `notes:read`)
#[resource(
    uri = "secured://notes",
    title = "Notes",
    mime_type = "text/markdown",
    scopes("notes:read")
)]
async fn all_notes(notes: State<Notes>) -> String {
    markdown(&notes.kept().notes)
}

/// Ask for a summary of every note (needs `notes:read`)
#[prompt(title = "Summarise the notes", scopes("notes:read"))]
async fn summarise(notes: State<Notes>) -> String {
    format!(
        "Summarise these notes in a few sentences; keep their names and dates.\n\n{}",
        markdown(&notes.kept().notes)
    )
}

#[tokio::main]
async fn main() -> ExitCode {
    Server::new("secured", env!("CARGO_PKG_VERSION"))
        .description("Notes whose tools, resource and prompt need OAuth scopes")
        .instructions("whoami says what your token grants; list_notes and the resource secured://notes need notes:read, add_note notes:write, purge notes:write and notes:admin.")
        .state(Notes::default())
        .run()
        .await
}
