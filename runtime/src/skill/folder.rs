//! A folder of skills read from disk at start-up: each sub-folder holding a `SKILL.md` is one
//! skill, and every file under it (but hidden ones, `.git`, `.DS_Store`) one of its files; a
//! sub-folder holding only folders is an organizational prefix of the skills below it.

use std::borrow::Cow;
use std::fs;
use std::path::{Path, PathBuf};

use super::{MAX_BYTES, MAX_FILES, Skill};
use crate::error::RegistryError;

/// How deep a skill's folders may nest (a symbolic link that loops stops here).
const MAX_DEPTH: usize = 32;

/// The skills of `dir` that could be read, and every problem found (each naming its file or
/// folder), so that one start-up error lists them all.
pub(super) fn read(dir: &Path) -> (Vec<Skill>, Vec<RegistryError>) {
    let mut skills = Vec::new();
    let mut problems = Vec::new();
    if let Err(error) = fs::read_dir(dir) {
        problems.push(invalid(
            dir,
            format!("the skills folder cannot be read: {error}"),
        ));
        return (skills, problems);
    }
    walk(dir, "", 0, &mut skills, &mut problems);
    (skills, problems)
}

fn invalid(file: &Path, problem: String) -> RegistryError {
    RegistryError::InvalidSkill {
        file: file.display().to_string(),
        field: None,
        problem,
    }
}

/// The skills under `dir`, whose path in the skill namespace is `prefix` (empty at the top):
/// a sub-folder with a `SKILL.md` is a skill; one holding only folders is an organizational
/// prefix (`acme/billing/refunds`), searched in turn; any other is a problem.
fn walk(
    dir: &Path,
    prefix: &str,
    depth: usize,
    skills: &mut Vec<Skill>,
    problems: &mut Vec<RegistryError>,
) {
    let mut folders: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.is_dir() && !is_hidden(path))
            .collect(),
        Err(error) => {
            problems.push(invalid(dir, format!("it cannot be read: {error}")));
            return;
        }
    };
    folders.sort();
    for folder in folders {
        if folder.join("SKILL.md").is_file() {
            match read_skill(&folder, prefix) {
                Ok(skill) => skills.push(skill),
                Err((file, problem)) => problems.push(invalid(&file, problem)),
            }
            continue;
        }
        match prefix_segment(&folder) {
            Ok(segment) if depth < MAX_DEPTH => {
                let prefix = if prefix.is_empty() {
                    segment.to_owned()
                } else {
                    format!("{prefix}/{segment}")
                };
                walk(&folder, &prefix, depth + 1, skills, problems);
            }
            Ok(_) => problems.push(invalid(
                &folder,
                format!("its folders nest deeper than {MAX_DEPTH} levels"),
            )),
            Err(problem) => problems.push(invalid(&folder, problem)),
        }
    }
}

/// The name of `folder` as a segment of skill paths, when it holds folders only: a folder with
/// files of its own but no `SKILL.md` is a mistake, not a prefix.
fn prefix_segment(folder: &Path) -> Result<&str, String> {
    let no_skill_md = "it has no SKILL.md: each folder of a skills folder is a skill, with its \
                       SKILL.md, or holds only folders of skills (move other files out, or name \
                       them with a leading `.`)";
    let has_files = fs::read_dir(folder)
        .map_err(|error| format!("it cannot be read: {error}"))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .any(|path| !path.is_dir() && !is_hidden(&path));
    let name = folder.file_name().and_then(|name| name.to_str());
    match name {
        _ if has_files => Err(no_skill_md.to_owned()),
        Some(name)
            if name
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || b"-._~".contains(&byte)) =>
        {
            Ok(name)
        }
        _ => Err(
            "its name cannot be a segment of skill URIs: use letters, digits, `-`, `.`, `_` \
             and `~`"
                .to_owned(),
        ),
    }
}

/// One skill's folder: its `SKILL.md` and its other files, or the file at fault and why.
fn read_skill(folder: &Path, prefix: &str) -> Result<Skill, (PathBuf, String)> {
    let skill_md = folder.join("SKILL.md");
    let Some(name) = folder.file_name().and_then(|name| name.to_str()) else {
        return Err((folder.to_owned(), "its folder's name is not UTF-8".into()));
    };
    let text = fs::read_to_string(&skill_md).map_err(|error| {
        (
            skill_md.clone(),
            format!("SKILL.md cannot be read as UTF-8 text: {error}"),
        )
    })?;
    let mut files = Vec::new();
    let mut total = 0;
    collect(folder, "", 0, &mut files, &mut total)
        .map_err(|problem| (folder.to_owned(), problem))?;
    files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Skill {
        markdown: Cow::Owned(text),
        files,
        origin: skill_md.display().to_string(),
        folder: Some(name.to_owned()),
        prefix: prefix.to_owned(),
    })
}

/// Every file under `dir` (its path relative to the skill's root is `prefix`), but the root's
/// `SKILL.md`, stopping at the extension's limits before reading past them.
fn collect(
    dir: &Path,
    prefix: &str,
    depth: usize,
    files: &mut Vec<(String, Cow<'static, [u8]>)>,
    total: &mut u64,
) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!("its folders nest deeper than {MAX_DEPTH} levels"));
    }
    let entries =
        fs::read_dir(dir).map_err(|error| format!("{} cannot be read: {error}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|error| format!("{} cannot be read: {error}", dir.display()))?
            .path();
        if is_hidden(&path) {
            continue;
        }
        let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
            return Err(format!("{} has a name that is not UTF-8", path.display()));
        };
        let relative = if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}/{name}")
        };
        if path.is_dir() {
            collect(&path, &relative, depth + 1, files, total)?;
            continue;
        }
        if relative == "SKILL.md" {
            continue;
        }
        if files.len() + 1 >= MAX_FILES {
            return Err(format!(
                "it has more than {MAX_FILES} files; a skill may have at most {MAX_FILES}, SKILL.md included"
            ));
        }
        let bytes = fs::read(&path)
            .map_err(|error| format!("{} cannot be read: {error}", path.display()))?;
        *total += bytes.len() as u64;
        if *total > MAX_BYTES {
            return Err(format!(
                "its files hold more than {MAX_BYTES} bytes; a skill may hold at most 16 MiB"
            ));
        }
        files.push((relative, Cow::Owned(bytes)));
    }
    Ok(())
}

fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| name.starts_with('.'))
}
