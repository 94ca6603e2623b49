//! A notes server on SQLite: add, search (full-text, SQLite's FTS5), list, edit and delete notes;
//! each note is also a resource, `notes://{id}`, which a client may subscribe to, and the prompt
//! `summarise_note` asks for a summary of one, its `note` completed from the notes' ids and titles.
//!
//! It shows a tool reaching a database through app state: the connection is given once to
//! [`Server::state`] and every tool takes it as a `State<Notes>` parameter, never in its schema;
//! so does the note's `#[resource]` fn, whose other parameter is its URI template's `{id}`.
//! The tools are plain `fn`s, so their blocking SQLite calls run on tokio's blocking threads.
//! The tools that change a note say so on the server's [`Resources`] handle (a `State<Resources>`
//! the server holds itself), so a client subscribed to that note hears
//! `notifications/resources/updated`.
//!
//! ```text
//! cargo run -p mcp-toolbelt-example-notes -- ~/notes.db     # serve over stdio
//! NOTES_DB=~/notes.db cargo run -p mcp-toolbelt-example-notes
//! cargo run -p mcp-toolbelt-example-notes -- --http 127.0.0.1:8080 ~/notes.db   # at /mcp
//! ```
//!
//! The database file (and its folder) is created on first use. See `examples/notes/README.md`
//! to plug it into Claude Desktop, Claude Code or VS Code.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use mcp_toolbelt::completion::{Completion, CompletionContext};
use mcp_toolbelt::icon::Icon;
use mcp_toolbelt::prompt::{GetPromptResult, PromptError, PromptMessage};
use mcp_toolbelt::resource::{ResourceError, Resources};
use mcp_toolbelt::{Json, Server, State, ToolError, prompt, resource, tool};
use rusqlite::{Connection, OptionalExtension as _, Row, params};
use schemars::JsonSchema;
use serde::Serialize;

/// The tables: the notes, and an FTS5 index of their title and body kept in step by triggers
/// (an external-content table: the text is stored once, in `notes`).
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE VIRTUAL TABLE IF NOT EXISTS notes_fts
    USING fts5(title, body, content = 'notes', content_rowid = 'id');
CREATE TRIGGER IF NOT EXISTS notes_indexed AFTER INSERT ON notes BEGIN
    INSERT INTO notes_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;
CREATE TRIGGER IF NOT EXISTS notes_unindexed AFTER DELETE ON notes BEGIN
    INSERT INTO notes_fts (notes_fts, rowid, title, body)
        VALUES ('delete', old.id, old.title, old.body);
END;
CREATE TRIGGER IF NOT EXISTS notes_reindexed AFTER UPDATE ON notes BEGIN
    INSERT INTO notes_fts (notes_fts, rowid, title, body)
        VALUES ('delete', old.id, old.title, old.body);
    INSERT INTO notes_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;
";

/// The columns of a [`Note`], in the order [`Note::from_row`] reads them.
const NOTE_COLUMNS: &str = "id, title, body, created_at";

/// The database, one connection behind a mutex. No pool: a stdio server serves one client (an
/// HTTP one a few), each query takes microseconds, and SQLite lets one writer in at a time anyway; a
/// `rusqlite::Connection` may move between threads but not be shared, which the mutex provides.
/// Clones share the connection (the async readers move one to a blocking thread).
#[derive(Clone)]
struct Notes(Arc<Mutex<Connection>>);

impl Notes {
    /// Opens the database at `path`, creating the file, its folder and the tables if missing.
    fn open(path: &Path) -> Result<Self, String> {
        if let Some(folder) = path
            .parent()
            .filter(|folder| !folder.as_os_str().is_empty())
        {
            std::fs::create_dir_all(folder)
                .map_err(|error| format!("cannot create {}: {error}", folder.display()))?;
        }
        let connection = Connection::open(path)
            .and_then(|connection| connection.execute_batch(SCHEMA).map(|()| connection))
            .map_err(|error| format!("cannot open the database {}: {error}", path.display()))?;
        Ok(Self(Arc::new(Mutex::new(connection))))
    }

    /// The connection. A call that panicked while holding it leaves nothing half-done (SQLite
    /// rolls back an unfinished statement), so the next call may use it.
    fn connection(&self) -> MutexGuard<'_, Connection> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `query` on tokio's blocking threads, as the tools' calls run: for the async readers
    /// (the resource's, the prompt's, the completer's). `Err` is the message a client is given.
    async fn off_thread<T: Send + 'static>(
        &self,
        query: impl FnOnce(&Self) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, String> {
        let notes = self.clone();
        tokio::task::spawn_blocking(move || query(&notes))
            .await
            .map_err(|error| format!("Reading the notes failed: {error}"))?
            .map_err(|error| format!("Database error: {error}"))
    }

    /// What completes `typed` as a note: the ids that begin with it, and the titles that begin
    /// with it (ASCII case ignored), newest first; each value begins with what was typed, so a
    /// client that filters by prefix keeps it. At most `limit` rows are read.
    fn matching(&self, typed: &str, limit: usize) -> rusqlite::Result<Vec<String>> {
        let connection = self.connection();
        let mut statement = connection.prepare(
            "SELECT CASE WHEN instr(CAST(id AS TEXT), ?1) = 1 THEN CAST(id AS TEXT) ELSE title END
             FROM notes
             WHERE instr(CAST(id AS TEXT), ?1) = 1 OR instr(lower(title), lower(?1)) = 1
             ORDER BY id DESC
             LIMIT ?2",
        )?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        statement
            .query_map(rusqlite::params![typed, limit], |row| {
                row.get::<_, String>(0)
            })?
            .collect()
    }

    /// The newest note whose id is `note` or, failing that, whose title is `note` (ASCII case
    /// ignored).
    fn note_by_id_or_title(&self, note: &str) -> rusqlite::Result<Option<Note>> {
        if let Ok(id) = note.parse::<i64>()
            && let Some(found) = self.note(id)?
        {
            return Ok(Some(found));
        }
        self.connection()
            .query_row(
                &format!(
                    "SELECT {NOTE_COLUMNS} FROM notes WHERE lower(title) = lower(?1) ORDER BY id DESC LIMIT 1"
                ),
                [note],
                Note::from_row,
            )
            .optional()
    }

    /// The note `id`, if there is one.
    fn note(&self, id: i64) -> rusqlite::Result<Option<Note>> {
        self.connection()
            .query_row(
                &format!("SELECT {NOTE_COLUMNS} FROM notes WHERE id = ?1"),
                [id],
                Note::from_row,
            )
            .optional()
    }
}

/// A database error as the model reads it.
fn failed(error: rusqlite::Error) -> ToolError {
    ToolError::new(format!("Database error: {error}"))
}

/// A stored note.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Note {
    /// Its id, for `delete_note`
    id: i64,
    title: String,
    body: String,
    /// When it was added (UTC, RFC 3339)
    created_at: String,
}

impl Note {
    /// The note as its resource serves it: markdown, the title a heading.
    fn markdown(&self) -> String {
        format!(
            "# {}\n\n{}\n\n_Created {}_\n",
            self.title, self.body, self.created_at
        )
    }

    fn from_row(row: &Row<'_>) -> rusqlite::Result<Self> {
        Ok(Self {
            id: row.get(0)?,
            title: row.get(1)?,
            body: row.get(2)?,
            created_at: row.get(3)?,
        })
    }
}

/// The URI of note `id`'s resource.
fn note_uri(id: i64) -> String {
    format!("notes://{id}")
}

/// One note, by its id (as the tools give it): its title, text and creation date, in markdown
#[resource(uri = "notes://{id}", title = "Note", mime_type = "text/markdown")]
async fn note(id: i64, notes: State<Notes>) -> Result<String, ResourceError> {
    // An id that is no number is "not found" before this runs, saying why.
    let note = notes
        .off_thread(move |notes| notes.note(id))
        .await
        .map_err(ResourceError::Failed)?;
    note.map(|note| note.markdown())
        .ok_or_else(|| ResourceError::NotFound(Some(format!("no note with id {id}"))))
}

/// Save a new note
#[tool]
fn add_note(
    notes: State<Notes>,
    resources: State<Resources>,
    /// A short title
    #[schemars(length(min = 1, max = 200))]
    title: String,
    /// The note's text
    body: String,
) -> Result<Json<Note>, ToolError> {
    let note = notes
        .connection()
        .query_row(
            &format!("INSERT INTO notes (title, body) VALUES (?1, ?2) RETURNING {NOTE_COLUMNS}"),
            params![title, body],
            Note::from_row,
        )
        .map_err(failed)?;
    // A client subscribed to the template hears of the new note.
    resources.notify_updated(note_uri(note.id));
    Ok(Json(note))
}

/// Change a note's title, text, or both; returns the note as it now is
#[tool(annotations(idempotent))]
fn edit_note(
    notes: State<Notes>,
    resources: State<Resources>,
    /// The note's id, as `list_notes` or `search_notes` give it
    id: i64,
    /// The new title (the old one is kept when left out)
    #[schemars(length(min = 1, max = 200))]
    title: Option<String>,
    /// The new text (the old one is kept when left out)
    body: Option<String>,
) -> Result<Json<Note>, ToolError> {
    let note = notes
        .connection()
        .query_row(
            &format!(
                "UPDATE notes SET title = coalesce(?2, title), body = coalesce(?3, body)
                 WHERE id = ?1 RETURNING {NOTE_COLUMNS}"
            ),
            params![id, title, body],
            Note::from_row,
        )
        .optional()
        .map_err(failed)?
        .ok_or_else(|| ToolError::new(format!("No note with id {id}")))?;
    resources.notify_updated(note_uri(id));
    Ok(Json(note))
}

/// A note that matched a search.
#[derive(Serialize, JsonSchema)]
struct Hit {
    /// The note's id
    id: i64,
    title: String,
    /// The matching part of the note, each matched word marked `[like this]`
    snippet: String,
}

/// Notes that matched, best first.
#[derive(Serialize, JsonSchema)]
struct Hits {
    notes: Vec<Hit>,
}

/// Search the notes' titles and text, best matches first. The query is SQLite FTS5 syntax:
/// words (all must match), "a phrase", OR, NOT, prefix*
#[tool(annotations(read_only))]
fn search_notes(
    notes: State<Notes>,
    /// What to look for, e.g. `groceries`, `"team meeting"`, `deploy*`
    #[schemars(length(min = 1))]
    query: String,
    /// At most this many notes (default 10)
    #[schemars(range(min = 1, max = 100))]
    limit: Option<u32>,
) -> Result<Json<Hits>, ToolError> {
    let connection = notes.connection();
    let mut statement = connection
        .prepare(
            "SELECT rowid, title, snippet(notes_fts, 1, '[', ']', '…', 16) FROM notes_fts
             WHERE notes_fts MATCH ?1 ORDER BY rank LIMIT ?2",
        )
        .map_err(failed)?;
    let hits = statement
        .query_map(params![query, limit.unwrap_or(10)], |row| {
            Ok(Hit {
                id: row.get(0)?,
                title: row.get(1)?,
                snippet: row.get(2)?,
            })
        })
        .and_then(Iterator::collect)
        // A malformed query (`"unclosed`) is the model's to fix: say what SQLite found.
        .map_err(|error| ToolError::new(format!("Cannot search for {query:?}: {error}")))?;
    Ok(Json(Hits { notes: hits }))
}

/// The newest notes, and how many there are.
#[derive(Serialize, JsonSchema)]
struct Page {
    notes: Vec<Note>,
    /// How many notes are stored in all
    total: i64,
}

/// List the newest notes
#[tool(annotations(read_only))]
fn list_notes(
    notes: State<Notes>,
    /// At most this many notes (default 20)
    #[schemars(range(min = 1, max = 100))]
    limit: Option<u32>,
) -> Result<Json<Page>, ToolError> {
    let connection = notes.connection();
    let mut statement = connection
        .prepare(&format!(
            "SELECT {NOTE_COLUMNS} FROM notes ORDER BY id DESC LIMIT ?1"
        ))
        .map_err(failed)?;
    let listed = statement
        .query_map([limit.unwrap_or(20)], Note::from_row)
        .and_then(Iterator::collect)
        .map_err(failed)?;
    let total = connection
        .query_row("SELECT count(*) FROM notes", [], |row| row.get(0))
        .map_err(failed)?;
    Ok(Json(Page {
        notes: listed,
        total,
    }))
}

/// Delete a note for good; returns what it held
#[tool(annotations(destructive))]
fn delete_note(
    notes: State<Notes>,
    resources: State<Resources>,
    /// The note's id, as `list_notes` or `search_notes` give it
    id: i64,
) -> Result<Json<Note>, ToolError> {
    let note = notes
        .connection()
        .query_row(
            &format!("DELETE FROM notes WHERE id = ?1 RETURNING {NOTE_COLUMNS}"),
            [id],
            Note::from_row,
        )
        .optional()
        .map_err(failed)?
        .ok_or_else(|| ToolError::new(format!("No note with id {id}")))?;
    // Its subscribers read it again and find it gone.
    resources.notify_updated(note_uri(id));
    Ok(Json(note))
}

/// The notes matching what the user typed: ids that begin with its digits, titles that begin
/// with its letters (`groc` completes to "Groceries"), newest first, at most 100 (then
/// `hasMore`). A database that cannot be read is an error the client sees, not "no matches".
async fn note_ids(typed: &str, context: &CompletionContext) -> Result<Completion, String> {
    let notes = context
        .state::<Notes>()
        .ok_or("the notes database is not open")?;
    let typed = typed.to_owned();
    // One more than is sent: whether there are more.
    let mut values = notes
        .off_thread(move |notes| notes.matching(&typed, MAX_COMPLETIONS + 1))
        .await?;
    let has_more = values.len() > MAX_COMPLETIONS;
    values.truncate(MAX_COMPLETIONS);
    Ok(Completion::new(values).has_more(has_more))
}

/// The most values one completion carries (the protocol's limit).
const MAX_COMPLETIONS: usize = 100;

/// Ask for a summary of one note: its text, and how to summarise it
#[prompt(title = "Summarise a note")]
async fn summarise_note(
    notes: State<Notes>,
    /// The note's id or title (completed from the notes' ids and titles)
    #[complete(note_ids)]
    note: String,
) -> Result<GetPromptResult, PromptError> {
    // A database failure is the server's (`-32603`); a note that is not there, the client's
    // (`-32602`).
    let wanted = note.clone();
    let note = notes
        .off_thread(move |notes| notes.note_by_id_or_title(&wanted))
        .await
        .map_err(PromptError::failed)?
        .ok_or_else(|| {
            PromptError::invalid_argument("note", format!("no note has the id or title {note:?}"))
        })?;
    let request = format!(
        "Summarise this note in two or three sentences; keep its dates and names.\n\n{}",
        note.markdown()
    );
    Ok(GetPromptResult::new(vec![PromptMessage::user(request)])
        .description(format!("A summary of the note \"{}\"", note.title)))
}

/// The server's icon, carried in the binary: a page with a folded corner.
const NOTES_ICON: &[u8] = br##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path d="M3 1h7l3 3v11H3z M10 1v3h3 M5 8h6 M5 11h6" stroke="#555" fill="none"/></svg>"##;

/// What to serve and how, from `[--http ADDRESS] DATABASE` (the database else from `NOTES_DB`).
struct Options {
    database: PathBuf,
    /// Serve Streamable HTTP at this address (at `/mcp`) instead of stdio.
    http: Option<SocketAddr>,
}

/// The process arguments read; `Err` says what is wrong with them.
fn options() -> Result<Options, String> {
    let mut arguments = std::env::args_os().skip(1);
    let (mut database, mut http) = (None, None);
    while let Some(argument) = arguments.next() {
        let text = argument.to_string_lossy();
        if text == "--http" {
            let address = arguments
                .next()
                .ok_or("--http needs an address: --http 127.0.0.1:8080")?;
            let address = address.to_string_lossy();
            http = Some(
                address
                    .parse()
                    .map_err(|_| format!("{address} is no address: --http 127.0.0.1:8080"))?,
            );
        } else if text.starts_with('-') || database.is_some() {
            // A flag (`--help`, or one meant for another server) is not a file name.
            return Err(format!("unexpected argument {text}"));
        } else {
            database = Some(PathBuf::from(argument));
        }
    }
    let database = database
        .or_else(|| std::env::var_os("NOTES_DB").map(PathBuf::from))
        .filter(|path| !path.as_os_str().is_empty())
        .ok_or("no database given")?;
    Ok(Options { database, http })
}

#[tokio::main]
async fn main() -> ExitCode {
    // Logs go to stderr: stdout carries the protocol.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();
    let Options {
        database: path,
        http,
    } = match options() {
        Ok(options) => options,
        Err(problem) => {
            eprintln!(
                "notes: {problem}\nusage: notes [--http ADDRESS] DATABASE   (or NOTES_DB=DATABASE notes); serves MCP over stdio, or Streamable HTTP at ADDRESS/mcp"
            );
            return ExitCode::from(2);
        }
    };
    let notes = match Notes::open(&path) {
        Ok(notes) => notes,
        Err(message) => {
            eprintln!("notes: {message}");
            return ExitCode::FAILURE;
        }
    };
    let server = Server::new("notes", env!("CARGO_PKG_VERSION"))
        // What hosts show beside the server (clients of 2025-11-25 and later).
        .description("Personal notes on SQLite: full-text search, each note a resource")
        .icon(Icon::data("image/svg+xml", NOTES_ICON).sizes(["any"]))
        .instructions("Personal notes: add_note saves one, search_notes finds them by their words, list_notes shows the newest, edit_note changes one, delete_note removes one. Each note is also the resource notes://{id}. How to use them well: the skill skill://note-taking/SKILL.md.")
        // The skills folder (`skills/note-taking`), read at start-up: from this package's
        // sources unless `NOTES_SKILLS` names another (a binary installed elsewhere).
        .skills_dir(std::env::var_os("NOTES_SKILLS").map_or_else(
            || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/skills")),
            PathBuf::from,
        ));
    // The tools and the note's resource take the database.
    let server = server.state(notes);
    let ended = match http {
        Some(address) => server.serve_http(address).await,
        None => server.serve_stdio().await,
    };
    match ended {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("notes: {error}");
            ExitCode::FAILURE
        }
    }
}
