//! Skills: packaged instructions a server hands to a host, served as the Skills extension
//! (`io.modelcontextprotocol/skills`, SEP-2640) says.
//!
//! A skill is a folder: a `SKILL.md` (YAML front matter with at least `name` and `description`,
//! then Markdown instructions) and the files beside it (references, scripts, templates). Serve a
//! folder of them with one builder call, [`Server::skills_dir`](crate::Server::skills_dir), each
//! sub-folder holding a `SKILL.md` being one skill, its folder's name its `name`, every file
//! under it one of its files (but hidden ones, whose name begins with `.`):
//!
//! ```text
//! skills/
//!   note-taking/
//!     SKILL.md             name: note-taking
//!     references/TAGS.md
//! ```
//!
//! `path` is read as given: a relative one from the current directory, which a host picks
//! when it launches a stdio server (often `/` or the home folder), so anchor it,
//! `.skills_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/skills"))`, or embed the skills. Only
//! regular files and folders are read: a symbolic link (which could lead out of the folder, or
//! loop) or a special file (a FIFO, a device) is a start-up error naming it. A `SKILL.md` in a
//! skill's sub-folder is one of that skill's files, not a skill of its own; a file beside the
//! skills, at any level above them (a `README.md`), is neither served nor an error.
//!
//! Or build one in code, [`Skill::new`] with its `SKILL.md` and [`Skill::file`] for each other
//! file, `include_str!`'d so that the server ships as one binary, and serve it with
//! [`Server::skill`](crate::Server::skill):
//!
//! ```
//! use mcp_toolbelt::Server;
//! use mcp_toolbelt::skill::Skill;
//!
//! // Usually `Skill::new(include_str!("../skills/release-notes/SKILL.md"))`.
//! let release_notes = Skill::new(
//!     "---\nname: release-notes\ndescription: Write release notes from merged changes\n---\n\
//!      # Release notes\n\nFollow `templates/NOTES.md`.\n",
//! )
//! .file("templates/NOTES.md", "## Added\n\n## Fixed\n");
//! let server = Server::new("releases", "1.0.0").skill(release_notes);
//! server.check()?;
//! # Ok::<(), mcp_toolbelt::Error>(())
//! ```
//!
//! # What a client sees
//!
//! The server declares `capabilities.extensions["io.modelcontextprotocol/skills"]` with
//! `directoryRead: true` (in `initialize` and in `server/discover`), and the `resources`
//! capability. Each file is a resource, `skill://<name>/<path>`, read with `resources/read` and
//! listed by `resources/list`; `skill://<name>/SKILL.md` is `text/markdown`, named and described
//! from its front matter. Then:
//!
//! - `skills/list` pages through the skills (as `resources/list` pages), each entry the
//!   `SKILL.md`'s URI, its front matter verbatim as JSON, and every file with its size in bytes
//!   and its `sha256:` digest, which a host checks what it reads against;
//! - `skills/get` with a `SKILL.md`'s URI gives that one entry; a URI that names no skill is
//!   `-32602`;
//! - `resources/directory/read` lists a directory's direct children (`skill://<name>`,
//!   `skill://<name>/references`), a file as `resources/list` lists it plus its `size`, a
//!   sub-folder as `inode/directory`; a URI that is no
//!   directory is `-32602`.
//!
//! At 2026-07-28, `skills/list`, `skills/get` and `resources/directory/read` carry the caching
//! fields (`ttlMs`, `cacheScope`) the other lists carry
//! ([`Server::cache_ttl`](crate::Server::cache_ttl)). The SEP writes the extension against
//! 2026-07-28; a legacy client (`initialize`) is served the same, without those fields.
//!
//! In a skills folder, a sub-folder that holds only folders is an organizational prefix, as the
//! SEP allows: `skills/acme/billing/refunds/SKILL.md` is served at
//! `skill://acme/billing/refunds/SKILL.md` (its name, `refunds`, the last segment), and
//! `skill://acme` and `skill://acme/billing` are directories. A skill built in code has no
//! prefix.
//!
//! # Start-up errors
//!
//! Skills are read and checked when the server is built, never while a client waits: a
//! `SKILL.md` without front matter, front matter that is not YAML (the error gives the line,
//! column and byte in the file), that uses a YAML alias (`*anchor`: refused, as it can
//! multiply a few lines into billions of values) or a value JSON cannot hold (named by its key
//! path, `metadata.version`), a `name` missing or not a skill name (1 to 64 lowercase
//! letters, digits and hyphens, no hyphen first, last or twice in a row) or unlike its folder's,
//! a `description` missing or empty, a file path that leaves the skill, a sub-folder with no
//! skill below it, a symbolic link or special file, a skill over the extension's limits (512
//! files, 16 MiB, `SKILL.md` included, refused before a file is read past them), a skill whose
//! root is inside another's stop the server at start-up
//! ([`Server::check`](crate::Server::check), every `serve_*`, `into_router`, `run()`) with
//! [`RegistryError::InvalidSkill`], naming the file and the field (every problem at once, in a
//! [`RegistryError::Several`]):
//!
//! ```
//! use mcp_toolbelt::error::RegistryError;
//! use mcp_toolbelt::skill::Skill;
//! use mcp_toolbelt::{Error, Server};
//!
//! let server = Server::new("docs", "1.0.0")
//!     .skill(Skill::new("---\nname: Style_Guide\ndescription: House style\n---\n"));
//! let Err(Error::Registry(RegistryError::InvalidSkill { field, problem, .. })) = server.check()
//! else {
//!     panic!("a bad name stops the server");
//! };
//! assert_eq!(field.as_deref(), Some("name"));
//! assert!(problem.contains("lowercase letters"), "{problem}");
//! ```
//!
//! Requires the `skills` feature (on by default).

mod folder;
mod front_matter;
mod served;

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Map, Value};
use sha2::{Digest as _, Sha256};

use crate::error::RegistryError;
use crate::registry::{Resource, ResourceBody};

pub(crate) use served::{Child, SkillEntry, SkillSet};

/// The most files one skill may have, `SKILL.md` included (the extension's limit).
const MAX_FILES: usize = 512;
/// The most bytes one skill's files may hold together (the extension's limit, 16 MiB).
const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// One file of a skill but its `SKILL.md`.
#[derive(Clone)]
struct File {
    /// Relative to the skill's root, `/`-separated.
    path: String,
    bytes: Cow<'static, [u8]>,
    /// Where it comes from, for errors: the file on disk, or where `Skill::file` was called
    /// (`file:line`).
    origin: String,
}

/// A skill built in code: its `SKILL.md` and the files beside it, served with
/// [`Server::skill`](crate::Server::skill). The front matter is read and checked when the
/// server is built (see the [module](self) for the rules and the errors).
#[derive(Clone)]
pub struct Skill {
    markdown: Cow<'static, str>,
    files: Vec<File>,
    /// Where it comes from, for errors: the `SKILL.md` on disk, or where `new` was called
    /// (`file:line`).
    origin: String,
    /// The folder it was read from, whose name must be the skill's.
    folder: Option<String>,
    /// The organizational prefix of its path (`acme/billing`), empty for none.
    prefix: String,
}

impl Skill {
    /// A skill whose `SKILL.md` is `markdown` (`include_str!("skills/x/SKILL.md")`, or a
    /// `String`). Its name is the front matter's `name`; its URI `skill://<name>/SKILL.md`.
    #[must_use]
    #[track_caller]
    pub fn new(markdown: impl Into<Cow<'static, str>>) -> Self {
        let caller = std::panic::Location::caller();
        Self {
            markdown: markdown.into(),
            files: Vec::new(),
            origin: location(caller),
            folder: None,
            prefix: String::new(),
        }
    }

    /// A text file of the skill at `path`, relative to its `SKILL.md` with `/` between folders
    /// (`references/FORMS.md`), served at `skill://<name>/<path>`.
    #[must_use]
    #[track_caller]
    pub fn file(self, path: impl Into<String>, text: impl Into<Cow<'static, str>>) -> Self {
        self.binary_file(path, bytes_of(text.into()))
    }

    /// A file of the skill given as bytes (`include_bytes!`): served as text when it is UTF-8,
    /// else as a base64 `blob`.
    #[must_use]
    #[track_caller]
    pub fn binary_file(
        mut self,
        path: impl Into<String>,
        bytes: impl Into<Cow<'static, [u8]>>,
    ) -> Self {
        self.files.push(File {
            path: path.into(),
            bytes: bytes.into(),
            origin: location(std::panic::Location::caller()),
        });
        self
    }

    /// The skills of a folder, each sub-folder with its `SKILL.md`, and the problems of those
    /// that could not be read.
    pub(crate) fn read_dir(dir: &Path) -> (Vec<Self>, Vec<RegistryError>) {
        folder::read(dir)
    }

    /// The skill checked: its entry (what `skills/list` says of it) and a resource for each
    /// file, or every problem found (its front matter's, its files' paths, its limits, a file
    /// given twice), all at once.
    pub(crate) fn prepare(self) -> Result<(SkillEntry, Vec<Resource>), Vec<RegistryError>> {
        let mut problems = Vec::new();
        let front_matter = self.front_matter(&mut problems);
        let files = all_files(self.markdown, self.files, &self.origin, &mut problems);
        match front_matter {
            Some((front_matter, name)) if problems.is_empty() => Ok(serve(
                Listing {
                    root: root(&self.prefix, &name),
                    name,
                    origin: self.origin,
                    front_matter,
                },
                files,
            )),
            _ => Err(problems),
        }
    }

    /// The front matter and the skill's name, checked (its name is its folder's, when read
    /// from one); `None` when a problem was found (pushed to `problems`).
    fn front_matter(
        &self,
        problems: &mut Vec<RegistryError>,
    ) -> Option<(Map<String, Value>, String)> {
        let invalid = |field: Option<&str>, problem: String| RegistryError::InvalidSkill {
            file: self.origin.clone(),
            field: field.map(str::to_owned),
            problem,
        };
        let front_matter = match front_matter::parse(&self.markdown) {
            Ok(front_matter) => front_matter,
            Err(found) => {
                problems.extend(
                    found
                        .into_iter()
                        .map(|problem| invalid(problem.field.as_deref(), problem.text)),
                );
                return None;
            }
        };
        // Checked present and a string by `front_matter::parse`.
        let name = front_matter
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        if let Some(folder) = &self.folder
            && *folder != name
        {
            problems.push(invalid(
                Some("name"),
                format!(
                    "is `{name}`, but the skill's folder is `{folder}`: a skill's name is its \
                     folder's name (rename one)"
                ),
            ));
            return None;
        }
        Some((front_matter, name))
    }
}

/// What a checked skill's entry says of it besides its files.
struct Listing {
    name: String,
    /// `skill://<prefix>/<name>`.
    root: String,
    origin: String,
    front_matter: Map<String, Value>,
}

/// `skill://<name>`, under its organizational prefix when it has one.
fn root(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        format!("skill://{name}")
    } else {
        format!("skill://{prefix}/{name}")
    }
}

/// The entry of a checked skill and a resource for each of its files (`SKILL.md` first, named
/// after the skill and described by its front matter).
fn serve(listing: Listing, files: Vec<File>) -> (SkillEntry, Vec<Resource>) {
    let Listing {
        name,
        root,
        origin,
        front_matter,
    } = listing;
    // Checked present and a string by `front_matter::parse`.
    let description = front_matter
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let mut entries = Vec::with_capacity(files.len());
    let mut resources = Vec::with_capacity(files.len());
    for File {
        path,
        bytes,
        origin: file_origin,
    } in files
    {
        let uri = format!("{root}/{}", encode_path(&path));
        let mime_type = mime_type(&path, &bytes);
        let size = bytes.len() as u64;
        let digest = digest(&bytes);
        let is_skill_md = path == "SKILL.md";
        let resource_name = if is_skill_md {
            name.clone()
        } else {
            format!("{name}/{path}")
        };
        let mut resource = Resource::fixed(
            uri.clone(),
            resource_name,
            body_of(bytes),
            &root,
            &file_origin,
        )
        .mime_type(mime_type);
        if is_skill_md {
            resource = resource.description(description.to_owned());
        }
        entries.push(served::FileEntry {
            uri,
            path,
            size,
            digest,
            resource: resource.clone(),
        });
        resources.push(resource);
    }
    let entry = SkillEntry {
        uri: format!("{root}/SKILL.md"),
        name,
        root,
        origin,
        front_matter,
        files: entries,
    };
    (entry, resources)
}

/// Where it comes from and its files' paths, not their contents.
impl std::fmt::Debug for Skill {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Skill")
            .field("origin", &self.origin)
            .field(
                "files",
                &self.files.iter().map(|file| &file.path).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

/// `SKILL.md` (from `origin`), then the other files; a file whose path is bad or given
/// before is left out, and with the skill's limits, pushed to `problems`.
fn all_files(
    markdown: Cow<'static, str>,
    others: Vec<File>,
    origin: &str,
    problems: &mut Vec<RegistryError>,
) -> Vec<File> {
    let mut files = Vec::with_capacity(others.len() + 1);
    files.push(File {
        path: "SKILL.md".to_owned(),
        bytes: bytes_of(markdown),
        origin: origin.to_owned(),
    });
    let mut seen = BTreeSet::new();
    for file in others {
        let problem = match check_path(&file.path) {
            Err(problem) => problem,
            Ok(()) if !seen.insert(file.path.clone()) => {
                format!("it gives a second file at `{}`", file.path)
            }
            Ok(()) => {
                files.push(file);
                continue;
            }
        };
        problems.push(RegistryError::InvalidSkill {
            file: file.origin,
            field: None,
            problem,
        });
    }
    if let Err(problem) = check_limits(&files) {
        problems.push(RegistryError::InvalidSkill {
            file: origin.to_owned(),
            field: None,
            problem,
        });
    }
    files
}

/// The extension's limits on one skill's files, `SKILL.md` included: how many, how many bytes.
fn check_limits(files: &[File]) -> Result<(), String> {
    if files.len() > MAX_FILES {
        return Err(format!(
            "it has {} files; a skill may have at most {MAX_FILES}, SKILL.md included",
            files.len()
        ));
    }
    let total: u64 = files.iter().map(|file| file.bytes.len() as u64).sum();
    if total > MAX_BYTES {
        return Err(format!(
            "its files hold {total} bytes; a skill may hold at most {MAX_BYTES} (16 MiB)"
        ));
    }
    Ok(())
}

/// A relative path inside the skill: `/`-separated, no empty, `.` or `..` segment, not
/// `SKILL.md` itself (given apart).
fn check_path(path: &str) -> Result<(), String> {
    let bad = path.is_empty()
        || path.contains('\\')
        || path
            .split('/')
            .any(|segment| segment.is_empty() || segment == "." || segment == "..");
    if bad {
        return Err(format!(
            "the file path `{path}` is not a path inside the skill: write it relative to \
             SKILL.md, with `/` between folders and no `.` or `..` (`references/FORMS.md`)"
        ));
    }
    if path == "SKILL.md" {
        return Err("SKILL.md is given to `Skill::new`, not as one of its files".to_owned());
    }
    Ok(())
}

/// `path` as a URI path: each segment's characters that a URI path cannot hold percent-encoded.
fn encode_path(path: &str) -> String {
    let mut encoded = String::with_capacity(path.len());
    for byte in path.bytes() {
        let plain = byte.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=:@".contains(&byte);
        if plain {
            encoded.push(char::from(byte));
        } else {
            let _ = write!(encoded, "%{byte:02X}");
        }
    }
    encoded
}

/// `file:line` of a call.
fn location(caller: &std::panic::Location<'_>) -> String {
    format!("{}:{}", caller.file(), caller.line())
}

/// `sha256:` and the 64 lowercase hex digits of the SHA-256 of `bytes`.
fn digest(bytes: &[u8]) -> String {
    format!("sha256:{}", crate::random::hex(&Sha256::digest(bytes)))
}

fn bytes_of(text: Cow<'static, str>) -> Cow<'static, [u8]> {
    match text {
        Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
        Cow::Owned(text) => Cow::Owned(text.into_bytes()),
    }
}

/// Text when the bytes are UTF-8 (sent as `text`, the same bytes the digest covers), else a
/// `blob`.
fn body_of(bytes: Cow<'static, [u8]>) -> ResourceBody {
    match bytes {
        Cow::Borrowed(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) => ResourceBody::Text(Cow::Borrowed(text)),
            Err(_) => ResourceBody::Blob(Cow::Borrowed(bytes)),
        },
        Cow::Owned(bytes) => match String::from_utf8(bytes) {
            Ok(text) => ResourceBody::Text(Cow::Owned(text)),
            Err(error) => ResourceBody::Blob(Cow::Owned(error.into_bytes())),
        },
    }
}

/// The MIME type of a skill file, by its extension; an unknown one is `text/plain` when the
/// bytes are UTF-8 (a `Makefile`, a `.cfg`), else `application/octet-stream`.
fn mime_type(path: &str, bytes: &[u8]) -> &'static str {
    let extension = path
        .rsplit_once('.')
        .map(|(_, extension)| extension.to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "md" | "markdown" => "text/markdown",
        "txt" => "text/plain",
        "py" => "text/x-python",
        "sh" => "text/x-shellscript",
        "js" | "mjs" => "text/javascript",
        "ts" => "text/x-typescript",
        "json" => "application/json",
        "yaml" | "yml" => "application/yaml",
        "toml" => "application/toml",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "xml" => "application/xml",
        "rs" => "text/x-rust",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "pdf" => "application/pdf",
        _ if std::str::from_utf8(bytes).is_ok() => "text/plain",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_are_sha256_in_lowercase_hex() {
        assert_eq!(
            digest(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn paths_stay_inside_the_skill_and_are_encoded_for_uris() {
        assert!(check_path("references/FORMS.md").is_ok());
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            "a//b",
            "a/./b",
            "a\\b",
            "SKILL.md",
        ] {
            assert!(check_path(bad).is_err(), "{bad}");
        }
        assert_eq!(encode_path("notes/my file#1.md"), "notes/my%20file%231.md");
    }

    #[test]
    fn a_skill_lists_every_file_once_with_its_size() {
        let (entry, resources) = Skill::new("---\nname: a\ndescription: b\n---\n")
            .file("x/y.py", "print(1)\n")
            .prepare()
            .expect("valid");
        assert_eq!(entry.uri, "skill://a/SKILL.md");
        let uris: Vec<_> = resources.iter().map(Resource::uri).collect();
        assert_eq!(uris, ["skill://a/SKILL.md", "skill://a/x/y.py"]);
        assert_eq!(entry.files[1].size, 9);
        let twice = Skill::new("---\nname: a\ndescription: b\n---\n")
            .file("x", "1")
            .file("x", "2")
            .prepare();
        assert!(matches!(
            twice.as_ref().map_err(Vec::as_slice),
            Err([RegistryError::InvalidSkill { .. }])
        ));
    }
}
