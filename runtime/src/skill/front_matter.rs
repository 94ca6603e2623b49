//! A `SKILL.md`'s YAML front matter, read as hosts read it: the block between the leading `---`
//! lines (after an optional byte-order mark), parsed as YAML 1.2 into the JSON object that
//! `skills/list` publishes verbatim, then checked against the Agent Skills rules the extension
//! adopts (`name` and `description` present, the name's characters and length). Aliases are
//! refused (they can expand without bound); errors give the line and byte in the file.

use serde_json::{Map, Number, Value};
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;
use yaml_rust2::yaml::Hash;
use yaml_rust2::{ScanError, Yaml, YamlLoader};

/// A problem with the front matter: the field at fault (if one is: its key path,
/// `metadata.version`) and what is wrong.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Problem {
    pub(super) field: Option<String>,
    pub(super) text: String,
}

impl Problem {
    fn of(field: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            field: Some(field.into()),
            text: text.into(),
        }
    }

    fn whole(text: impl Into<String>) -> Self {
        Self {
            field: None,
            text: text.into(),
        }
    }
}

/// The longest description the Agent Skills specification allows.
const MAX_DESCRIPTION_CHARS: usize = 1024;

/// The front matter of `skill_md` as a JSON object, its `name` and `description` checked; or
/// every problem found (a front matter that cannot be read is one problem, its fields may be
/// several).
pub(super) fn parse(skill_md: &str) -> Result<Map<String, Value>, Vec<Problem>> {
    let object = object(skill_md).map_err(|problem| vec![problem])?;
    let problems: Vec<Problem> = [
        check_name(object.get("name")),
        check_description(object.get("description")),
    ]
    .into_iter()
    .filter_map(Result::err)
    .collect();
    if problems.is_empty() {
        Ok(object)
    } else {
        Err(problems)
    }
}

/// The front matter as a JSON object, read in one pass of the YAML parser.
fn object(skill_md: &str) -> Result<Map<String, Value>, Problem> {
    let block = block(skill_md).ok_or_else(|| {
        Problem::whole(
            "it has no front matter: SKILL.md must begin with a `---` line, then YAML with at \
             least `name` and `description`, then a closing `---` line",
        )
    })?;
    let mut loader = Loader::default();
    Parser::new_from_str(block)
        .load(&mut loader, true)
        .map_err(|error| not_yaml(skill_md, block, &error))?;
    if let Some(at) = loader.alias {
        return Err(Problem::whole(format!(
            "its front matter uses a YAML alias (`*name`, {}): write the value itself",
            place(skill_md, block, at.index())
        )));
    }
    if loader.yaml.documents().len() < loader.documents {
        // The loader refused a document (a key given twice): its error, and where, is read
        // again, from a block now known to hold no alias.
        if let Err(error) = YamlLoader::load_from_str(block) {
            return Err(not_yaml(skill_md, block, &error));
        }
    }
    match loader.yaml.documents().first() {
        Some(Yaml::Hash(hash)) => object_of(hash.clone(), ""),
        _ => Err(Problem::whole(
            "its front matter is not a YAML mapping of fields (`name: …`, `description: …`)",
        )),
    }
}

/// A `description`: present, a string, not empty, not too long.
fn check_description(description: Option<&Value>) -> Result<(), Problem> {
    match description {
        Some(Value::String(text)) if !text.trim().is_empty() => {
            if text.chars().count() > MAX_DESCRIPTION_CHARS {
                return Err(Problem::of(
                    "description",
                    format!("is longer than {MAX_DESCRIPTION_CHARS} characters"),
                ));
            }
            Ok(())
        }
        Some(Value::String(_)) => Err(Problem::of("description", "is empty")),
        Some(_) => Err(Problem::of("description", "must be a string")),
        None => Err(Problem::of(
            "description",
            "is missing: say what the skill does and when to use it",
        )),
    }
}

/// The YAML between the opening and closing `---` lines, as the suite's and hosts' readers
/// find it: `---` on the first line, the block, then a line of `---` (trailing blanks allowed).
fn block(skill_md: &str) -> Option<&str> {
    let text = skill_md.strip_prefix('\u{feff}').unwrap_or(skill_md);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    // The closing line may come right away (an empty block) or after the block's last line.
    let mut start = 0;
    loop {
        let line_end = rest[start..].find('\n').map_or(rest.len(), |at| start + at);
        let line = rest[start..line_end].trim_end_matches('\r');
        if line.trim_end_matches([' ', '\t']) == "---" {
            let block = &rest[..start];
            return Some(
                block
                    .strip_suffix('\n')
                    .unwrap_or(block)
                    .trim_end_matches('\r'),
            );
        }
        if line_end == rest.len() {
            return None;
        }
        start = line_end + 1;
    }
}

/// The Agent Skills naming rules: 1-64 characters, lowercase letters, digits and hyphens, no
/// hyphen first, last or twice in a row.
fn check_name(name: Option<&Value>) -> Result<(), Problem> {
    let name = match name {
        Some(Value::String(name)) => name,
        Some(_) => return Err(Problem::of("name", "must be a string")),
        None => {
            return Err(Problem::of(
                "name",
                "is missing: write `name: my-skill`, the name of the skill's folder",
            ));
        }
    };
    if is_valid_name(name) {
        Ok(())
    } else {
        Err(Problem::of(
            "name",
            format!(
                "`{name}` is not a skill name: use 1 to 64 lowercase letters, digits and hyphens, \
                 with no hyphen first, last or twice in a row (`pdf-processing`)"
            ),
        ))
    }
}

/// Whether `name` follows the Agent Skills naming rules.
pub(super) fn is_valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

/// The one pass over the front matter: its events loaded into YAML documents, but for an
/// alias, which is noted (the first) and never loaded: an alias copies its anchor's value where
/// it stands, and a few lines of them nest into billions of values. Front matter has no need of
/// them, so nothing is loaded past one.
#[derive(Default)]
struct Loader {
    yaml: YamlLoader,
    alias: Option<Marker>,
    /// How many documents the parser ended: the loader keeps fewer when it refused one.
    documents: usize,
}

impl MarkedEventReceiver for Loader {
    fn on_event(&mut self, event: Event, mark: Marker) {
        match event {
            _ if self.alias.is_some() => {}
            Event::Alias(_) => self.alias = Some(mark),
            event => {
                self.documents += usize::from(matches!(event, Event::DocumentEnd));
                self.yaml.on_event(event, mark);
            }
        }
    }
}

/// Where the `chars`-th character of `block` (a slice of `skill_md`) is in the file: its line
/// and column (from 1), and its byte offset.
fn place(skill_md: &str, block: &str, chars: usize) -> String {
    let start = block.as_ptr() as usize - skill_md.as_ptr() as usize;
    let in_block = block
        .char_indices()
        .nth(chars)
        .map_or(block.len(), |(byte, _)| byte);
    let byte = start + in_block;
    let before = &skill_md[..byte];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .unwrap_or_default()
        .chars()
        .count()
        + 1;
    format!("line {line}, column {column}, byte {byte} of SKILL.md")
}

fn not_yaml(skill_md: &str, block: &str, error: &ScanError) -> Problem {
    Problem::whole(format!(
        "its front matter is not valid YAML: {} ({})",
        error.info(),
        place(skill_md, block, error.marker().index())
    ))
}

/// `key` under the key path `parent` (`metadata` and `version`: `metadata.version`).
fn child_path(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_owned()
    } else {
        format!("{parent}.{key}")
    }
}

/// A YAML mapping as a JSON object, `path` its key path (empty at the top).
fn object_of(hash: Hash, path: &str) -> Result<Map<String, Value>, Problem> {
    let mut object = Map::new();
    for (key, value) in hash {
        let key = match key {
            Yaml::String(key) | Yaml::Real(key) => key,
            Yaml::Integer(key) => key.to_string(),
            Yaml::Boolean(key) => key.to_string(),
            Yaml::Null => "null".to_owned(),
            _ => {
                let problem = "has a key that is not a string";
                return Err(if path.is_empty() {
                    Problem::whole(format!("its front matter {problem}"))
                } else {
                    Problem::of(path, problem)
                });
            }
        };
        let path = child_path(path, &key);
        let value = to_json(value, &path)?;
        object.insert(key, value);
    }
    Ok(object)
}

/// A YAML value as the JSON a host's YAML reader gives: mapping keys as strings, numbers as
/// numbers; a value JSON cannot hold is refused, naming its key path.
fn to_json(yaml: Yaml, path: &str) -> Result<Value, Problem> {
    Ok(match yaml {
        Yaml::Null => Value::Null,
        Yaml::Boolean(value) => Value::Bool(value),
        Yaml::Integer(value) => Value::from(value),
        Yaml::Real(text) => {
            let number = text.parse().ok().and_then(Number::from_f64);
            Value::Number(number.ok_or_else(|| {
                Problem::of(path, format!("is a number JSON cannot hold: {text}"))
            })?)
        }
        Yaml::String(text) => Value::String(text),
        Yaml::Array(items) => Value::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(index, item)| to_json(item, &format!("{path}[{index}]")))
                .collect::<Result<_, _>>()?,
        ),
        Yaml::Hash(hash) => Value::Object(object_of(hash, path)?),
        Yaml::Alias(_) | Yaml::BadValue => {
            return Err(Problem::of(path, "is a value YAML cannot resolve"));
        }
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_front_matter_is_read_verbatim_nested_fields_and_all() {
        let skill_md = "\u{feff}---\r\nname: pdf-processing\r\ndescription: Fill PDF forms\r\nlicense: MIT\r\nmetadata:\r\n  version: \"2.1\"\r\n  tags: [a, b]\r\n  count: 3\r\n---\r\n# Body\r\n";
        assert_eq!(
            Value::Object(parse(skill_md).expect("valid")),
            json!({
                "name": "pdf-processing",
                "description": "Fill PDF forms",
                "license": "MIT",
                "metadata": {"version": "2.1", "tags": ["a", "b"], "count": 3}
            })
        );
        assert!(
            parse("---\nname: a\ndescription: b\n---").is_ok(),
            "closing line last"
        );
    }

    #[test]
    fn each_problem_names_its_field() {
        let field = |skill_md: &str| parse(skill_md).expect_err("refused").remove(0).field;
        let name = || Some("name".to_owned());
        let description = || Some("description".to_owned());
        assert_eq!(field("# no front matter\n"), None);
        assert_eq!(
            field("---\nname: a\ndescription: b\n"),
            None,
            "never closed"
        );
        assert_eq!(field("---\n- a\n---\n"), None, "not a mapping");
        assert_eq!(field("---\ndescription: b\n---\n"), name());
        assert_eq!(field("---\nname: Bad_Name\ndescription: b\n---\n"), name());
        assert_eq!(field("---\nname: 7\ndescription: b\n---\n"), name());
        assert_eq!(field("---\nname: a\n---\n"), description());
        assert_eq!(
            field("---\nname: a\ndescription: \"\"\n---\n"),
            description()
        );
    }

    #[test]
    fn values_json_cannot_hold_name_their_key_path_and_aliases_are_refused() {
        let problem = parse("---\nname: a\ndescription: b\nmetadata:\n  version: .inf\n---\n")
            .expect_err("refused")
            .remove(0);
        assert_eq!(
            problem.field.as_deref(),
            Some("metadata.version"),
            "{problem:?}"
        );
        let aliases = "---\nname: a\ndescription: b\nx: &x [1, 2]\ny: [*x, *x]\n---\n";
        let problem = parse(aliases).expect_err("an alias is refused").remove(0);
        assert!(
            problem.text.contains("alias") && problem.text.contains("line 5"),
            "{problem:?}"
        );
    }

    #[test]
    fn a_yaml_error_gives_its_line_and_byte_in_the_file() {
        // The bad line is the file's third (the `---` line first), its byte offset counted
        // from the file's start, the byte-order mark included.
        let skill_md = "---\nname: a\n  bad: indent\ndescription: b\n---\n";
        let problem = parse(skill_md).expect_err("refused").remove(0);
        let want = "line 3, column 6, byte 17 of SKILL.md";
        assert!(problem.text.contains(want), "{problem:?}");
        let with_bom = format!("\u{feff}{skill_md}");
        let problem = parse(&with_bom).expect_err("refused").remove(0);
        let want = "line 3, column 6, byte 20 of SKILL.md";
        assert!(problem.text.contains(want), "{problem:?}");
    }

    #[test]
    fn every_field_problem_is_reported_at_once_and_a_key_given_twice_is_placed() {
        let problems = parse("---\nname: Bad_Name\ndescription: \"\"\n---\n").expect_err("refused");
        let fields: Vec<Option<&str>> = problems
            .iter()
            .map(|problem| problem.field.as_deref())
            .collect();
        assert_eq!(fields, [Some("name"), Some("description")], "{problems:?}");
        let twice = parse("---\nname: a\nname: b\ndescription: c\n---\n").expect_err("refused");
        assert!(
            twice[0].text.contains("duplicated key") && twice[0].text.contains("line 3"),
            "{twice:?}"
        );
    }

    #[test]
    fn names_follow_the_agent_skills_rules() {
        for good in ["a", "pdf-processing", "x2", &"a".repeat(64)] {
            assert!(is_valid_name(good), "{good}");
        }
        for bad in ["", "-a", "a-", "a--b", "A", "a_b", "a.b", &"a".repeat(65)] {
            assert!(!is_valid_name(bad), "{bad}");
        }
    }
}
