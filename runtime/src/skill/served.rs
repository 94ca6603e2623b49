//! The skills a server serves, as the protocol reads them: each skill's entry (built once, as
//! `skills/list` and `skills/get` send it) and the directories of their files, for
//! `resources/directory/read`. The files themselves are resources in the server's one
//! [`ResourceSet`](crate::registry::ResourceSet).

use std::collections::BTreeMap;

use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use crate::error::RegistryError;
use crate::registry::Resource;

/// The MIME type of a directory resource.
const DIRECTORY_MIME_TYPE: &str = "inode/directory";

/// One skill as [`Skill::prepare`](super::Skill::prepare) checked it.
pub(crate) struct SkillEntry {
    /// The front matter's `name`.
    pub(crate) name: String,
    /// `skill://<name>/SKILL.md`.
    pub(crate) uri: String,
    /// `skill://<name>`, its root directory.
    pub(crate) root: String,
    /// Where it comes from (its `SKILL.md` on disk, or where `Skill::new` was called).
    pub(crate) origin: String,
    pub(crate) front_matter: Map<String, Value>,
    /// `SKILL.md` first, then the others as given.
    pub(crate) files: Vec<FileEntry>,
}

/// A folder of a skill, as a directory read lists it.
fn directory(uri: &str, name: &str) -> Child {
    Child::Directory(json!({"uri": uri, "name": name, "mimeType": DIRECTORY_MIME_TYPE}))
}

impl SkillEntry {
    /// Why `self` cannot be served beside the skills already `served`: the same URI, or a root
    /// inside another's (`skill://acme` and `skill://acme/billing/refunds`), where one skill's
    /// directory would be the other's.
    pub(crate) fn clash(&self, served: &[Self]) -> Option<RegistryError> {
        let inside = |inner: &str, outer: &str| {
            inner
                .strip_prefix(outer)
                .is_some_and(|rest| rest.starts_with('/'))
        };
        served.iter().find_map(|other| {
            let (field, problem) = if other.uri == self.uri {
                (
                    Some("name".to_owned()),
                    format!(
                        "is `{}`, so it would be served at {}, where another skill is ({}): a \
                         URI names one skill, rename one",
                        self.name, self.uri, other.origin,
                    ),
                )
            } else if inside(&self.root, &other.root) || inside(&other.root, &self.root) {
                (
                    None,
                    format!(
                        "its root {} and the root {} of the skill at {} are one inside the \
                         other: a skill's root may not be a prefix of another's (rename one)",
                        self.root, other.root, other.origin,
                    ),
                )
            } else {
                return None;
            };
            Some(RegistryError::InvalidSkill {
                file: self.origin.clone(),
                field,
                problem,
            })
        })
    }
}

/// One file of a skill: where it is served and what a host checks it against.
pub(crate) struct FileEntry {
    pub(crate) uri: String,
    /// Relative to the skill's root, `/`-separated, as given.
    pub(crate) path: String,
    pub(crate) size: u64,
    pub(crate) digest: String,
    /// The resource it is served as (its contents shared, not copied).
    pub(crate) resource: Resource,
}

/// A child of a skill directory, with the URI it is sorted and paged by.
pub(crate) struct Keyed {
    pub(crate) uri: String,
    pub(crate) child: Child,
}

/// What a directory read lists: a folder (synthesized, as no resource is one), or a file,
/// listed as `resources/list` lists its resource, plus its size.
pub(crate) enum Child {
    Directory(Value),
    File { resource: Box<Resource>, size: u64 },
}

/// A skill as served: its entry, as `skills/get` sends it and as `skills/list` writes it
/// (serialized once).
pub(crate) struct ServedSkill {
    pub(crate) uri: String,
    pub(crate) json: Value,
    pub(crate) raw: Box<RawValue>,
}

/// Every skill of a server, sorted by URI, and every directory of their files.
#[derive(Default)]
pub(crate) struct SkillSet {
    skills: Vec<ServedSkill>,
    /// Each directory's direct children, sorted by URI.
    directories: BTreeMap<String, Vec<Keyed>>,
}

impl SkillSet {
    pub(crate) fn new(entries: Vec<SkillEntry>) -> Self {
        let mut skills = Vec::with_capacity(entries.len());
        let mut directories: BTreeMap<String, BTreeMap<String, Child>> = BTreeMap::new();
        for entry in entries {
            // The prefix's folders (`skill://acme`, `skill://acme/billing`) are directories too,
            // each listing the next.
            let path = entry.root.trim_start_matches("skill://");
            let mut segments = path.split('/');
            let mut parent = format!("skill://{}", segments.next().unwrap_or_default());
            for segment in segments {
                let uri = format!("{parent}/{segment}");
                let child = directory(&uri, segment);
                directories
                    .entry(parent)
                    .or_default()
                    .insert(uri.clone(), child);
                parent = uri;
            }
            directories.entry(entry.root.clone()).or_default();
            for file in &entry.files {
                // Every folder on the way is a directory of its parent.
                let mut parent = entry.root.clone();
                let mut segments = file.path.split('/').peekable();
                let mut uri_segments = file.uri[entry.root.len() + 1..].split('/');
                while let (Some(segment), Some(uri_segment)) =
                    (segments.next(), uri_segments.next())
                {
                    let uri = format!("{parent}/{uri_segment}");
                    let child = if segments.peek().is_some() {
                        directory(&uri, segment)
                    } else {
                        Child::File {
                            resource: Box::new(file.resource.clone()),
                            size: file.size,
                        }
                    };
                    directories
                        .entry(parent.clone())
                        .or_default()
                        .insert(uri.clone(), child);
                    parent = uri;
                }
            }
            let resources: Vec<Value> = entry
                .files
                .iter()
                .map(|file| json!({"uri": file.uri, "digest": file.digest, "size": file.size}))
                .collect();
            let json = json!({
                "uri": entry.uri,
                "frontmatter": entry.front_matter,
                "resources": resources,
            });
            skills.push(ServedSkill {
                raw: serde_json::value::to_raw_value(&json).expect("a JSON value serializes"),
                json,
                uri: entry.uri,
            });
        }
        skills.sort_by(|a, b| a.uri.cmp(&b.uri));
        let directories = directories
            .into_iter()
            .map(|(uri, children)| {
                let children = children
                    .into_iter()
                    .map(|(uri, child)| Keyed { uri, child })
                    .collect();
                (uri, children)
            })
            .collect();
        Self {
            skills,
            directories,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }

    /// Every skill's entry, sorted by URI.
    pub(crate) fn entries(&self) -> &[ServedSkill] {
        &self.skills
    }

    /// The entry of the skill whose `SKILL.md` is at `uri`.
    pub(crate) fn get(&self, uri: &str) -> Option<&Value> {
        self.skills
            .binary_search_by(|skill| skill.uri.as_str().cmp(uri))
            .ok()
            .map(|index| &self.skills[index].json)
    }

    /// The direct children of the directory at `uri`, sorted by URI; `None` when `uri` is no
    /// directory of a skill.
    pub(crate) fn directory(&self, uri: &str) -> Option<&[Keyed]> {
        self.directories.get(uri).map(Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Skill;
    use super::*;

    #[test]
    fn directories_list_their_direct_children_folders_as_directories() {
        let (entry, _) = Skill::new("---\nname: pdf\ndescription: PDFs\n---\n")
            .file("templates/invoice.md", "i")
            .file("templates/regional/eu.md", "e")
            .prepare()
            .expect("valid");
        let set = SkillSet::new(vec![entry]);
        let uris = |dir: &str| -> Vec<String> {
            set.directory(dir)
                .expect("a directory")
                .iter()
                .map(|child| {
                    let mime_type = match &child.child {
                        Child::Directory(json) => json["mimeType"].as_str().unwrap_or(""),
                        Child::File { resource, .. } => resource.listed_mime_type().unwrap_or(""),
                    };
                    format!("{} {mime_type}", child.uri)
                })
                .collect()
        };
        assert_eq!(
            uris("skill://pdf"),
            [
                "skill://pdf/SKILL.md text/markdown",
                "skill://pdf/templates inode/directory"
            ]
        );
        assert_eq!(
            uris("skill://pdf/templates"),
            [
                "skill://pdf/templates/invoice.md text/markdown",
                "skill://pdf/templates/regional inode/directory"
            ]
        );
        assert!(set.directory("skill://pdf/SKILL.md").is_none());
        assert!(set.get("skill://pdf/SKILL.md").is_some());
        assert!(set.get("skill://other/SKILL.md").is_none());
    }
}
