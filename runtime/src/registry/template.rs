//! URI templates of RFC 6570 level 1 (`test://template/{id}/data`): what `resources/read` matches
//! a requested URI against. `#[resource]` checks the template at compile time; this parser checks
//! it again for registrations made by hand, and is the one place that matches.

use regex::Regex;

/// A parsed level-1 template: literals and variables, alternating, and the regex that matches
/// its expansions (`regex` matches in linear time, and finds the split of a URI among the
/// variables when there is one: `x://{name}-v` matches `x://a-v-v` with `a-v`).
#[derive(Debug, Clone)]
pub(crate) struct UriTemplate {
    parts: Vec<Part>,
    expansions: Regex,
}

impl PartialEq for UriTemplate {
    fn eq(&self, other: &Self) -> bool {
        self.parts == other.parts
    }
}

impl Eq for UriTemplate {}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(String),
    Variable(String),
}

impl UriTemplate {
    /// Parses `template`; `Err` says what is wrong (the macro shows the same text).
    pub(crate) fn parse(template: &str) -> Result<Self, String> {
        let mut parts = Vec::new();
        let mut rest = template;
        while let Some(open) = rest.find(['{', '}']) {
            if rest[open..].starts_with('}') {
                return Err(format!("`}}` without `{{` in URI template `{template}`"));
            }
            if open > 0 {
                parts.push(Part::Literal(rest[..open].to_owned()));
            }
            let after = &rest[open + 1..];
            let close = after
                .find('}')
                .ok_or_else(|| format!("`{{` without `}}` in URI template `{template}`"))?;
            let name = &after[..close];
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return Err(format!(
                    "`{{{name}}}` in URI template `{template}` is not a variable: write `{{name}}` \
                     with letters, digits and `_` (RFC 6570 level 1; operators such as `+` or `/` \
                     are not supported)"
                ));
            }
            if matches!(parts.last(), Some(Part::Variable(_))) {
                return Err(format!(
                    "two variables in a row in URI template `{template}`: put a literal between them"
                ));
            }
            if parts.contains(&Part::Variable(name.to_owned())) {
                return Err(format!(
                    "variable `{name}` appears twice in URI template `{template}`"
                ));
            }
            parts.push(Part::Variable(name.to_owned()));
            rest = &after[close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Literal(rest.to_owned()));
        }
        let pattern: String = parts
            .iter()
            .map(|part| match part {
                Part::Literal(literal) => regex::escape(literal),
                // A level-1 value is percent-encoded outside the unreserved characters.
                Part::Variable(_) => "([^/?#]+)".to_owned(),
            })
            .collect();
        let expansions = Regex::new(&format!("^{pattern}$"))
            .map_err(|error| format!("URI template `{template}` cannot be matched: {error}"))?;
        Ok(Self { parts, expansions })
    }

    /// The names of its variables, in order.
    pub(crate) fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|part| match part {
            Part::Variable(name) => Some(name.as_str()),
            Part::Literal(_) => None,
        })
    }

    /// The values of the variables (percent-decoded, in order) when `uri` is an expansion of
    /// this template. A level-1 value is percent-encoded outside the unreserved characters, so
    /// it never holds `/`, `?` or `#`, and is never empty here. Decoded, it is refused when it
    /// holds `/`, `\` or NUL, or is `.` or `..`: a value is one name, never a path a resource fn
    /// could be led out of its folder by (`%2E%2E%2Fetc`).
    pub(crate) fn matches(&self, uri: &str) -> Option<Vec<String>> {
        let captures = self.expansions.captures(uri)?;
        captures
            .iter()
            .skip(1)
            .map(|value| {
                let value = percent_decode(value?.as_str())?;
                let path = value.contains(['/', '\\', '\0']) || value == "." || value == "..";
                (!path).then_some(value)
            })
            .collect()
    }
}

/// `%41` → `A`; `None` for a broken escape or bytes that are not UTF-8.
fn percent_decode(value: &str) -> Option<String> {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = value.get(index + 1..index + 3)?;
            // `from_str_radix` would take a sign (`%+1`): two hex digits only.
            if !hex.bytes().all(|byte| byte.is_ascii_hexdigit()) {
                return None;
            }
            out.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::UriTemplate;

    #[test]
    fn level_one_templates_match_their_expansions() {
        let template = UriTemplate::parse("test://template/{id}/data").unwrap();
        assert_eq!(
            template.matches("test://template/123/data"),
            Some(vec!["123".into()])
        );
        assert_eq!(
            template.matches("test://template/a%20b/data"),
            Some(vec!["a b".into()])
        );
        assert_eq!(template.matches("test://template//data"), None);
        assert_eq!(template.matches("test://template/1/2/data"), None);
        assert_eq!(template.matches("test://template/1/data/more"), None);
        // The split is found where the first occurrence of the next literal would not do.
        let suffixed = UriTemplate::parse("x://{name}-v").unwrap();
        assert_eq!(suffixed.matches("x://a-v-v"), Some(vec!["a-v".into()]));
        let two_dashes = UriTemplate::parse("x://{a}-{b}.json").unwrap();
        assert_eq!(
            two_dashes.matches("x://1-2-3.json"),
            Some(vec!["1-2".into(), "3".into()])
        );
        let two = UriTemplate::parse("users://{user}/posts/{post}").unwrap();
        assert_eq!(
            two.matches("users://ann/posts/7"),
            Some(vec!["ann".into(), "7".into()])
        );
    }

    /// A value is one name: decoded, it cannot lead a resource fn out of its folder.
    #[test]
    fn decoded_values_are_never_paths() {
        let template = UriTemplate::parse("file:///docs/{name}").unwrap();
        for uri in [
            "file:///docs/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
            "file:///docs/%2Fetc%2Fpasswd",
            "file:///docs/..",
            "file:///docs/%2E",
            "file:///docs/a%5Cb",
            "file:///docs/a%00",
            "file:///docs/%+1",
            "file:///docs/%zz",
        ] {
            assert_eq!(template.matches(uri), None, "{uri}");
        }
        assert_eq!(
            template.matches("file:///docs/read.me%20v2"),
            Some(vec!["read.me v2".into()])
        );
    }

    #[test]
    fn malformed_templates_say_what_is_wrong() {
        for (template, expected) in [
            ("a://{id", "`{` without `}`"),
            ("a://id}", "`}` without `{`"),
            ("a://{}", "is not a variable"),
            ("a://{+id}", "operators"),
            ("a://{a}{b}", "two variables in a row"),
            ("a://{a}/{a}", "appears twice"),
        ] {
            let error = UriTemplate::parse(template).unwrap_err();
            assert!(error.contains(expected), "{template}: {error}");
        }
    }
}
