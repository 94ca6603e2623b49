//! `x-mcp-header` (2026-07-28, SEP-2243): a property of a tool's input schema marked to travel
//! also as the HTTP header `Mcp-Param-{Name}`, so that load balancers and gateways can route on it
//! without reading the body. The marks are read once, when the tool is built; a mark the spec
//! forbids makes the tool unservable (clients must drop such a tool, so it would be served to
//! no one).

use std::fmt::Write as _;

use serde_json::{Map, Value};

/// The schema keyword that marks a property.
const KEYWORD: &str = "x-mcp-header";

/// One argument mirrored into a header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HeaderParam {
    /// `Region` of `Mcp-Param-Region`, as the mark writes it.
    pub(crate) name: String,
    /// The property names from the arguments' root down to the property: a chain of
    /// `properties` only, as the spec requires.
    pub(crate) path: Vec<String>,
}

impl HeaderParam {
    /// `Mcp-Param-{name}`, for messages and lookups (header names ignore case).
    pub(crate) fn header(&self) -> String {
        format!("Mcp-Param-{}", self.name)
    }

    /// The property as a reader finds it: `region`, `target.region`.
    pub(crate) fn property(&self) -> String {
        self.path.join(".")
    }

    /// The argument's value in `arguments`, if there is one: a `null`, or no value at the path
    /// (an absent parent included), means none, and then no header is expected.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "only HTTP carries `Mcp-Param-*` headers")
    )]
    pub(crate) fn value_in<'a>(
        &self,
        arguments: Option<&'a Map<String, Value>>,
    ) -> Option<&'a Value> {
        let (last, parents) = self.path.split_last()?;
        let mut object = arguments?;
        for name in parents {
            object = object.get(name)?.as_object()?;
        }
        object.get(last).filter(|value| !value.is_null())
    }
}

/// Every mark of `schema` (a portable input schema), in property order, or what is wrong with
/// them, every problem told: a mark must be a non-empty RFC 9110 token on a `string`, `integer`
/// or `boolean` property reached from the root through `properties` alone, and no two marks may
/// be equal ignoring case.
pub(crate) fn header_params(schema: &Value) -> Result<Vec<HeaderParam>, String> {
    let mut marks = Marks::default();
    marks.visit(schema, &mut Vec::new(), &mut String::new(), true);
    for (index, param) in marks.found.iter().enumerate() {
        if let Some(first) = marks.found[..index]
            .iter()
            .find(|earlier| earlier.name.eq_ignore_ascii_case(&param.name))
        {
            marks.problems.push(format!(
                "properties `{}` and `{}` are both marked to travel as `{}` (header names ignore \
                 case): give each its own `x-mcp-header` name",
                first.property(),
                param.property(),
                param.header()
            ));
        }
    }
    if marks.problems.is_empty() {
        Ok(marks.found)
    } else {
        Err(marks.problems.join("; "))
    }
}

/// What a walk of a schema found.
#[derive(Default)]
struct Marks {
    found: Vec<HeaderParam>,
    problems: Vec<String>,
}

impl Marks {
    /// Visits `schema`, at `path` (property names) and `pointer` (its JSON pointer), `reachable`
    /// when only `properties` lead to it from the root. Both are one buffer each, grown and cut
    /// back on the way (every tool's schema is walked at start-up: nothing is allocated per
    /// keyword).
    fn visit<'s>(
        &mut self,
        schema: &'s Value,
        path: &mut Vec<&'s str>,
        pointer: &mut String,
        reachable: bool,
    ) {
        let Some(object) = schema.as_object() else {
            return;
        };
        if let Some(mark) = object.get(KEYWORD) {
            self.mark(object, mark, path, pointer, reachable);
        }
        for (keyword, value) in object {
            let here = pointer.len();
            match keyword.as_str() {
                "properties" => {
                    for (name, property) in value.as_object().into_iter().flatten() {
                        path.push(name);
                        push_segments(pointer, &[keyword, name]);
                        self.visit(property, path, pointer, reachable);
                        pointer.truncate(here);
                        path.pop();
                    }
                }
                // Maps of schemas: none of them is a property the client can find by path.
                "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                    for (name, subschema) in value.as_object().into_iter().flatten() {
                        push_segments(pointer, &[keyword, name]);
                        self.visit(subschema, path, pointer, false);
                        pointer.truncate(here);
                    }
                }
                "items"
                | "prefixItems"
                | "additionalItems"
                | "unevaluatedItems"
                | "contains"
                | "additionalProperties"
                | "unevaluatedProperties"
                | "propertyNames"
                | "not"
                | "if"
                | "then"
                | "else"
                | "allOf"
                | "anyOf"
                | "oneOf" => match value {
                    Value::Array(list) => {
                        for (index, subschema) in list.iter().enumerate() {
                            write!(pointer, "/{keyword}/{index}")
                                .expect("a `String` takes every write");
                            self.visit(subschema, path, pointer, false);
                            pointer.truncate(here);
                        }
                    }
                    subschema => {
                        push_segments(pointer, &[keyword]);
                        self.visit(subschema, path, pointer, false);
                        pointer.truncate(here);
                    }
                },
                _ => {}
            }
        }
    }

    /// Checks one mark and keeps it, or tells what is wrong with it.
    fn mark(
        &mut self,
        property: &Map<String, Value>,
        mark: &Value,
        path: &[&str],
        pointer: &str,
        reachable: bool,
    ) {
        if !reachable {
            self.problems.push(format!(
                "the `x-mcp-header` at `{pointer}` is not on a property reached through \
                 `properties` alone (the spec forbids array items, `oneOf`/`anyOf`/`allOf`, \
                 conditionals and `$ref` on the way): mark a property of the arguments or of an \
                 object nested in them"
            ));
            return;
        }
        if path.is_empty() {
            self.problems.push(
                "the arguments as a whole are marked `x-mcp-header`: mark one of their properties"
                    .to_owned(),
            );
            return;
        }
        let property_name = path.join(".");
        let name = match mark.as_str() {
            Some(name) if is_token(name) => name,
            _ => {
                self.problems.push(format!(
                    "property `{property_name}` is marked `x-mcp-header = {mark}`, which is not a \
                     header name: write one or more letters, digits or ``!#$%&'*+-.^_`|~`` (an \
                     RFC 9110 token)"
                ));
                return;
            }
        };
        let kind = property.get("type");
        if !matches!(
            kind.and_then(Value::as_str),
            Some("string" | "integer" | "boolean")
        ) {
            let kind = kind.map_or_else(|| "untyped".to_owned(), ToString::to_string);
            self.problems.push(format!(
                "property `{property_name}` is marked to travel as `Mcp-Param-{name}`, but only a \
                 string, integer or boolean can (its type is {kind})"
            ));
            return;
        }
        self.found.push(HeaderParam {
            name: name.to_owned(),
            path: path.iter().map(|&name| name.to_owned()).collect(),
        });
    }
}

/// Appends `/segment` to the JSON pointer `pointer` for each of `segments`.
fn push_segments(pointer: &mut String, segments: &[&str]) {
    for segment in segments {
        pointer.push('/');
        pointer.push_str(segment);
    }
}

/// Whether `name` is an RFC 9110 token (§5.6.2): one or more `tchar`s, which is what a header
/// name is made of.
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn params(schema: &Value) -> Vec<(String, String)> {
        header_params(schema)
            .unwrap()
            .iter()
            .map(|param| (param.header(), param.property()))
            .collect()
    }

    #[test]
    fn marks_are_found_on_properties_nested_or_not() {
        let schema = json!({
            "type": "object",
            "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "query": {"type": "string"},
                "target": {"type": "object", "properties": {
                    "tenant": {"type": "integer", "x-mcp-header": "Tenant-Id"},
                }},
                "dry_run": {"type": "boolean", "x-mcp-header": "Dry_Run"},
            },
        });
        assert_eq!(
            params(&schema),
            [
                ("Mcp-Param-Region".to_owned(), "region".to_owned()),
                ("Mcp-Param-Tenant-Id".to_owned(), "target.tenant".to_owned()),
                ("Mcp-Param-Dry_Run".to_owned(), "dry_run".to_owned()),
            ]
        );
        assert_eq!(params(&json!({"type": "object", "properties": {}})), []);
    }

    #[test]
    fn forbidden_marks_are_each_told() {
        let problem = |property: Value| {
            header_params(&json!({"type": "object", "properties": {"p": property}})).unwrap_err()
        };
        assert_eq!(
            problem(json!({"type": "number", "x-mcp-header": "Score"})),
            "property `p` is marked to travel as `Mcp-Param-Score`, but only a string, integer or \
             boolean can (its type is \"number\")"
        );
        assert!(
            problem(json!({"type": ["string", "integer"], "x-mcp-header": "P"}))
                .contains("its type is [\"string\",\"integer\"]")
        );
        assert!(problem(json!({"x-mcp-header": "P"})).contains("its type is untyped"));
        for bad in [
            json!(""),
            json!("My Region"),
            json!("Region:1"),
            json!("Région"),
            json!(5),
        ] {
            let text = problem(json!({"type": "string", "x-mcp-header": bad}));
            assert!(
                text.starts_with(&format!(
                    "property `p` is marked `x-mcp-header = {bad}`, which is not a header name"
                )),
                "{text}"
            );
        }
        let in_items = json!({"type": "array", "items": {"type": "string", "x-mcp-header": "Tag"}});
        assert!(problem(in_items).starts_with(
            "the `x-mcp-header` at `/properties/p/items` is not on a property reached through `properties` alone"
        ));
        let in_branch = json!({"type": "object", "oneOf": [
            {"properties": {"region": {"type": "string", "x-mcp-header": "Region"}}},
        ]});
        assert!(problem(in_branch).contains("`/properties/p/oneOf/0/properties/region`"));
        let root = json!({"type": "object", "x-mcp-header": "All", "properties": {}});
        assert_eq!(
            header_params(&root).unwrap_err(),
            "the arguments as a whole are marked `x-mcp-header`: mark one of their properties"
        );
        // Two problems, both told.
        let two = json!({"type": "object", "properties": {
            "a": {"type": "number", "x-mcp-header": "A"},
            "b": {"type": "string", "x-mcp-header": "B C"},
        }});
        assert_eq!(header_params(&two).unwrap_err().matches("; ").count(), 1);
    }

    #[test]
    fn names_equal_ignoring_case_are_refused() {
        let schema = json!({"type": "object", "properties": {
            "a": {"type": "string", "x-mcp-header": "MyField"},
            "b": {"type": "string", "x-mcp-header": "myfield"},
        }});
        assert_eq!(
            header_params(&schema).unwrap_err(),
            "properties `a` and `b` are both marked to travel as `Mcp-Param-myfield` (header names \
             ignore case): give each its own `x-mcp-header` name"
        );
    }

    /// A property named `x-mcp-header`, or the keyword inside a `default`, is no mark.
    #[test]
    fn only_the_keyword_of_a_schema_is_a_mark() {
        let schema = json!({"type": "object", "properties": {
            "x-mcp-header": {"type": "string"},
            "options": {"type": "object", "default": {"x-mcp-header": "Nope"}},
        }});
        assert_eq!(params(&schema), []);
    }

    #[test]
    fn values_are_found_by_path_and_null_is_none() {
        let param = HeaderParam {
            name: "Tenant".into(),
            path: vec!["target".into(), "tenant".into()],
        };
        let arguments = json!({"target": {"tenant": 7}});
        assert_eq!(param.value_in(arguments.as_object()), Some(&json!(7)));
        for none in [
            json!({"target": {"tenant": null}}),
            json!({"target": null}),
            json!({}),
        ] {
            assert_eq!(param.value_in(none.as_object()), None, "{none}");
        }
        assert_eq!(param.value_in(None), None);
    }
}
