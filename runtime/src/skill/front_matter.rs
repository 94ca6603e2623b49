//! A `SKILL.md`'s YAML front matter, read as hosts read it: the block between the leading `---`
//! lines (after an optional byte-order mark), parsed as YAML 1.2 into the JSON object that
//! `skills/list` publishes verbatim, then checked against the Agent Skills rules the extension
//! adopts (`name` and `description` present, the name's characters and length).

use serde_json::{Map, Number, Value};
use yaml_rust2::{Yaml, YamlLoader};

/// A problem with the front matter: the field at fault (if one is) and what is wrong.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Problem {
    pub(super) field: Option<&'static str>,
    pub(super) text: String,
}

impl Problem {
    fn of(field: &'static str, text: impl Into<String>) -> Self {
        Self {
            field: Some(field),
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

/// The front matter of `skill_md` as a JSON object, its `name` and `description` checked.
pub(super) fn parse(skill_md: &str) -> Result<Map<String, Value>, Problem> {
    let block = block(skill_md).ok_or_else(|| {
        Problem::whole(
            "it has no front matter: SKILL.md must begin with a `---` line, then YAML with at \
             least `name` and `description`, then a closing `---` line",
        )
    })?;
    let documents = YamlLoader::load_from_str(block)
        .map_err(|error| Problem::whole(format!("its front matter is not valid YAML: {error}")))?;
    let object = match documents.into_iter().next() {
        Some(Yaml::Hash(hash)) => match to_json(Yaml::Hash(hash)) {
            Ok(Value::Object(object)) => object,
            Ok(_) => unreachable!("a YAML mapping converts to a JSON object"),
            Err(problem) => return Err(Problem::whole(format!("its front matter {problem}"))),
        },
        _ => {
            return Err(Problem::whole(
                "its front matter is not a YAML mapping of fields (`name: …`, `description: …`)",
            ));
        }
    };
    check_name(object.get("name"))?;
    match object.get("description") {
        Some(Value::String(text)) if !text.trim().is_empty() => {
            if text.chars().count() > MAX_DESCRIPTION_CHARS {
                return Err(Problem::of(
                    "description",
                    format!("is longer than {MAX_DESCRIPTION_CHARS} characters"),
                ));
            }
        }
        Some(Value::String(_)) => return Err(Problem::of("description", "is empty")),
        Some(_) => return Err(Problem::of("description", "must be a string")),
        None => {
            return Err(Problem::of(
                "description",
                "is missing: say what the skill does and when to use it",
            ));
        }
    }
    Ok(object)
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

/// A YAML value as the JSON a host's YAML reader gives: mapping keys as strings, numbers as
/// numbers; an alias or a value YAML cannot represent is refused.
fn to_json(yaml: Yaml) -> Result<Value, String> {
    Ok(match yaml {
        Yaml::Null => Value::Null,
        Yaml::Boolean(value) => Value::Bool(value),
        Yaml::Integer(value) => Value::from(value),
        Yaml::Real(text) => {
            let value: f64 = text
                .parse()
                .map_err(|_| format!("has a number JSON cannot hold: {text}"))?;
            Value::Number(
                Number::from_f64(value)
                    .ok_or_else(|| format!("has a number JSON cannot hold: {text}"))?,
            )
        }
        Yaml::String(text) => Value::String(text),
        Yaml::Array(items) => {
            Value::Array(items.into_iter().map(to_json).collect::<Result<_, _>>()?)
        }
        Yaml::Hash(hash) => {
            let mut object = Map::new();
            for (key, value) in hash {
                let key = match key {
                    Yaml::String(key) | Yaml::Real(key) => key,
                    Yaml::Integer(key) => key.to_string(),
                    Yaml::Boolean(key) => key.to_string(),
                    Yaml::Null => "null".to_owned(),
                    _ => return Err("has a key that is not a string".to_owned()),
                };
                object.insert(key, to_json(value)?);
            }
            Value::Object(object)
        }
        Yaml::Alias(_) | Yaml::BadValue => {
            return Err("has a value YAML cannot resolve (an alias, or a bad value)".to_owned());
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
        let field = |skill_md: &str| parse(skill_md).expect_err("refused").field;
        assert_eq!(field("# no front matter\n"), None);
        assert_eq!(
            field("---\nname: a\ndescription: b\n"),
            None,
            "never closed"
        );
        assert_eq!(field("---\n- a\n---\n"), None, "not a mapping");
        assert_eq!(field("---\ndescription: b\n---\n"), Some("name"));
        assert_eq!(
            field("---\nname: Bad_Name\ndescription: b\n---\n"),
            Some("name")
        );
        assert_eq!(field("---\nname: 7\ndescription: b\n---\n"), Some("name"));
        assert_eq!(field("---\nname: a\n---\n"), Some("description"));
        assert_eq!(
            field("---\nname: a\ndescription: \"\"\n---\n"),
            Some("description")
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
