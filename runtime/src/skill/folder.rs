//! A folder of skills read from disk at start-up: each sub-folder holding a `SKILL.md` is one
//! skill, and every file under it (but hidden ones, `.git`, `.DS_Store`) one of its files; a
//! sub-folder holding no `SKILL.md` is an organizational prefix of the skills below it.
//!
//! One rule for what is neither, at every level above a skill: a file there (a `README.md`) is
//! not served and not an error; a folder with no skill anywhere below it is an error. Inside a
//! skill, only regular files and folders are read: a symbolic link (which could lead out of the
//! folder, or loop) or a special file (a FIFO, a socket, a device) is a start-up error naming
//! it. No file is read past the extension's 16 MiB limit.

use std::borrow::Cow;
use std::fs::{self, DirEntry, FileType, ReadDir};
use std::io::Read as _;
use std::path::{Path, PathBuf};

use super::{MAX_BYTES, MAX_FILES, Skill};
use crate::error::RegistryError;

/// A file or folder at fault, and what is wrong with it.
type Fault = (PathBuf, String);

/// How deep a skill's folders may nest.
const MAX_DEPTH: usize = 32;

/// The skills of `dir` that could be read, and every problem found (each naming its file or
/// folder), so that one start-up error lists them all.
pub(super) fn read(dir: &Path) -> (Vec<Skill>, Vec<RegistryError>) {
    let mut skills = Vec::new();
    let mut problems = Vec::new();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) => {
            // A relative path is read from the current directory, which is not the project's
            // when a host launches the server: say which folder was tried.
            let tried = std::path::absolute(dir).unwrap_or_else(|_| dir.to_owned());
            problems.push(invalid(
                dir,
                format!(
                    "the skills folder cannot be read ({} was tried): {error}; a relative \
                     path is read from the current directory, so write \
                     `concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/skills\")` or embed the skills",
                    tried.display()
                ),
            ));
            return (skills, problems);
        }
    };
    if dir.join("SKILL.md").is_file() {
        problems.push(invalid(
            dir,
            "it is one skill's folder (it has a SKILL.md), not a folder of skills: pass its \
             parent"
                .to_owned(),
        ));
        return (skills, problems);
    }
    walk(dir, entries, "", 0, &mut skills, &mut problems);
    (skills, problems)
}

fn invalid(file: &Path, problem: String) -> RegistryError {
    RegistryError::InvalidSkill {
        file: file.display().to_string(),
        field: None,
        problem,
    }
}

/// The entries of `dir` but hidden ones, sorted, each with its type (never following a link);
/// an entry that cannot be read is a problem, not skipped.
fn entries_of(dir: &Path, entries: ReadDir) -> (Vec<(PathBuf, FileType)>, Vec<Fault>) {
    let mut found = Vec::new();
    let mut problems = Vec::new();
    for entry in entries {
        match entry.and_then(|entry: DirEntry| Ok((entry.path(), entry.file_type()?))) {
            Ok((path, _)) if is_hidden(&path) => {}
            Ok(found_entry) => found.push(found_entry),
            Err(error) => problems.push((
                dir.to_owned(),
                format!("an entry of it cannot be read: {error}"),
            )),
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    (found, problems)
}

fn symlink_problem(path: &Path) -> Fault {
    (
        path.to_owned(),
        "it is a symbolic link, which a skills folder may not hold (it could lead out of the \
         folder, or loop): copy the file or folder in its place"
            .to_owned(),
    )
}

/// The skills under `dir`, whose path in the skill namespace is `prefix` (empty at the top):
/// a sub-folder with a `SKILL.md` is a skill; any other is an organizational prefix
/// (`acme/billing/refunds`), searched in turn, and a problem when no skill is below it. Says
/// whether a skill (good or bad) was found.
fn walk(
    dir: &Path,
    entries: ReadDir,
    prefix: &str,
    depth: usize,
    skills: &mut Vec<Skill>,
    problems: &mut Vec<RegistryError>,
) -> bool {
    let (entries, unreadable) = entries_of(dir, entries);
    let mut found = !unreadable.is_empty();
    for (path, problem) in unreadable {
        problems.push(invalid(&path, problem));
    }
    for (folder, file_type) in entries {
        if file_type.is_symlink() {
            let (path, problem) = symlink_problem(&folder);
            problems.push(invalid(&path, problem));
            found = true;
            continue;
        }
        if !file_type.is_dir() {
            // A file beside skills (a README) is not served.
            continue;
        }
        if fs::symlink_metadata(folder.join("SKILL.md")).is_ok() {
            found = true;
            match read_skill(&folder, prefix) {
                Ok(skill) => skills.push(skill),
                Err((file, problem)) => problems.push(invalid(&file, problem)),
            }
            continue;
        }
        found |= walk_prefix(&folder, prefix, depth, skills, problems);
    }
    found
}

/// An organizational prefix folder: its name a segment of skill URIs, the skills below it.
fn walk_prefix(
    folder: &Path,
    prefix: &str,
    depth: usize,
    skills: &mut Vec<Skill>,
    problems: &mut Vec<RegistryError>,
) -> bool {
    let name = folder.file_name().and_then(|name| name.to_str());
    let Some(segment) = name.filter(|name| {
        name.bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"-._~".contains(&byte))
    }) else {
        problems.push(invalid(
            folder,
            "its name cannot be a segment of skill URIs: use letters, digits, `-`, `.`, `_` \
             and `~`"
                .to_owned(),
        ));
        return true;
    };
    if depth >= MAX_DEPTH {
        problems.push(invalid(
            folder,
            format!("its folders nest deeper than {MAX_DEPTH} levels"),
        ));
        return true;
    }
    let entries = match fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(error) => {
            problems.push(invalid(folder, format!("it cannot be read: {error}")));
            return true;
        }
    };
    let prefix = if prefix.is_empty() {
        segment.to_owned()
    } else {
        format!("{prefix}/{segment}")
    };
    let found = walk(folder, entries, &prefix, depth + 1, skills, problems);
    if !found {
        problems.push(invalid(
            folder,
            "it has no SKILL.md: each folder of a skills folder is a skill, with its SKILL.md, \
             or holds folders of skills (name a folder that is neither with a leading `.`)"
                .to_owned(),
        ));
    }
    true
}

/// The bytes of the regular file at `path`, refused before reading when they would take the
/// skill's `total` past [`MAX_BYTES`] (and never reading more than one byte past it).
fn read_capped(path: &Path, file_type: FileType, total: &mut u64) -> Result<Vec<u8>, Fault> {
    if file_type.is_symlink() {
        return Err(symlink_problem(path));
    }
    if !file_type.is_file() {
        return Err((
            path.to_owned(),
            "it is not a regular file (a FIFO, a socket or a device): a skill holds only files \
             and folders"
                .to_owned(),
        ));
    }
    let cannot_read =
        |error: std::io::Error| (path.to_owned(), format!("it cannot be read: {error}"));
    let too_big = || {
        (
            path.to_owned(),
            format!(
                "with it, the skill's files hold more than {MAX_BYTES} bytes; a skill may hold \
                 at most 16 MiB, SKILL.md included"
            ),
        )
    };
    let remaining = MAX_BYTES - *total;
    let file = fs::File::open(path).map_err(cannot_read)?;
    if file.metadata().map_err(cannot_read)?.len() > remaining {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    file.take(remaining + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot_read)?;
    if bytes.len() as u64 > remaining {
        return Err(too_big());
    }
    *total += bytes.len() as u64;
    Ok(bytes)
}

/// One skill's folder: its `SKILL.md` and its other files, or the file at fault and why.
fn read_skill(folder: &Path, prefix: &str) -> Result<Skill, Fault> {
    let skill_md = folder.join("SKILL.md");
    let Some(name) = folder.file_name().and_then(|name| name.to_str()) else {
        return Err((folder.to_owned(), "its folder's name is not UTF-8".into()));
    };
    let skill_md_type = fs::symlink_metadata(&skill_md)
        .map_err(|error| (skill_md.clone(), format!("it cannot be read: {error}")))?
        .file_type();
    let mut total = 0;
    let bytes = read_capped(&skill_md, skill_md_type, &mut total)?;
    let text = String::from_utf8(bytes).map_err(|error| {
        (
            skill_md.clone(),
            format!("SKILL.md is not UTF-8 text: {error}"),
        )
    })?;
    let mut files = Vec::new();
    collect(folder, "", 0, &mut files, &mut total)?;
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let origin = skill_md.display().to_string();
    Ok(Skill {
        markdown: Cow::Owned(text),
        files: files
            .into_iter()
            .map(|(path, bytes, on_disk)| super::File {
                path,
                bytes: Cow::Owned(bytes),
                origin: on_disk.display().to_string(),
            })
            .collect(),
        origin,
        folder: Some(name.to_owned()),
        prefix: prefix.to_owned(),
    })
}

/// Every file under `dir` (its path relative to the skill's root is `prefix`), but the root's
/// `SKILL.md`, stopping at the extension's limits before reading past them. A `SKILL.md` in a
/// sub-folder is one of its files, not a skill.
fn collect(
    dir: &Path,
    prefix: &str,
    depth: usize,
    files: &mut Vec<(String, Vec<u8>, PathBuf)>,
    total: &mut u64,
) -> Result<(), Fault> {
    if depth > MAX_DEPTH {
        return Err((
            dir.to_owned(),
            format!("its folders nest deeper than {MAX_DEPTH} levels"),
        ));
    }
    let entries = fs::read_dir(dir)
        .map_err(|error| (dir.to_owned(), format!("it cannot be read: {error}")))?;
    let (entries, unreadable) = entries_of(dir, entries);
    if let Some(problem) = unreadable.into_iter().next() {
        return Err(problem);
    }
    for (path, file_type) in entries {
        let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
            return Err((path.clone(), "its name is not UTF-8".to_owned()));
        };
        let relative = if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}/{name}")
        };
        if file_type.is_dir() {
            collect(&path, &relative, depth + 1, files, total)?;
            continue;
        }
        if relative == "SKILL.md" {
            continue;
        }
        // SKILL.md is one of the MAX_FILES.
        if files.len() + 1 >= MAX_FILES {
            return Err((
                path,
                format!(
                    "with it, the skill has more than {MAX_FILES} files; a skill may have at \
                     most {MAX_FILES}, SKILL.md included"
                ),
            ));
        }
        let bytes = read_capped(&path, file_type, total)?;
        files.push((relative, bytes, path));
    }
    Ok(())
}

fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| name.starts_with('.'))
}
