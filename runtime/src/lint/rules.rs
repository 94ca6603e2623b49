//! The checks themselves: each [`Check`] over one tool definition, as (JSON pointer, what is
//! wrong) pairs, and the fix a person can apply.

use serde_json::{Map, Value};

use super::problem::Problem;
use super::profiles::Check;
use crate::types::ToolDefinition;

/// The rule's short id, as reports show it.
pub(super) fn id(check: &Check) -> &'static str {
    match check {
        Check::NameLength { .. } => "name-length",
        Check::NameCharacters => "name-characters",
        Check::ValidSchema => "schema-2020-12",
        Check::Description => "description",
        Check::PropertyDescription => "property-description",
        Check::Dialect => "dialect",
        Check::Keyword(_) => "keyword",
        Check::TypeEverywhere => "type",
        Check::ScalarType => "type-list",
        Check::ArrayItems => "array-items",
        Check::TupleItems => "tuple-items",
        Check::Composition { .. } => "composition",
        Check::StringEnums => "enum-type",
        Check::MaxBound { .. } => "bound-size",
        Check::UnsupportedBounds => "unsupported-bound",
        Check::ClosedObjects => "closed-object",
        Check::AllRequired => "all-required",
        Check::OptionalProperties { .. } => "optional-count",
        Check::TypedAdditionalProperties => "untyped-additional-properties",
        Check::OutputSchemaDeclared => "output-schema",
        Check::ObjectOutputSchema => "output-schema-object",
        Check::ListBytes { .. } => "list-size",
        Check::StructuredNeedsSchema => "structured-without-schema",
        Check::SchemaNeedsStructured => "schema-without-structured",
        Check::DeclaredFields => "undeclared-field",
        Check::EcmaPattern => "pattern",
        Check::IconSource => "icon-source",
        Check::IconFormat => "icon-format",
        Check::ScopesWithoutAuth => "scopes-without-auth",
    }
}

/// How to fix it, said to the author of a `#[tool]` fn.
pub(super) fn fix(check: &Check) -> &'static str {
    match check {
        Check::NameLength { .. } => "shorten the name: #[tool(name = \"...\")]",
        Check::ValidSchema => {
            "write the hand-written schema in JSON Schema 2020-12 (no draft-07 `items` lists, no `$schema` of another draft)"
        }
        Check::NameCharacters => "use only letters, digits, `_` and `-`: #[tool(name = \"...\")]",
        Check::Description => "write a doc comment on the fn (or #[tool(description = \"...\")])",
        Check::PropertyDescription => "write a doc comment on the parameter or field",
        Check::Dialect => {
            "drop `$schema` (MCP's default dialect is 2020-12), or write the schema in 2020-12"
        }
        Check::Keyword("additionalProperties") => {
            "nothing to change in the server, which still refuses unknown arguments: the host strips the keyword (Gemini CLI sends parametersJsonSchema, which accepts it)"
        }
        Check::Keyword("default") => {
            "nothing to change: the Gemini API accepts `default` and ignores it (the argument stays optional, serde fills it)"
        }
        Check::Keyword("$ref" | "$defs") => {
            "make the type non-recursive (subschemas are inlined), or write the schema by hand"
        }
        Check::Keyword(_) => {
            "drop the attribute that adds it (#[schemars(...)]), or the key from a hand-written schema"
        }
        Check::TypeEverywhere => {
            "give it a concrete Rust type (not serde_json::Value), or a flatter type than an untagged enum"
        }
        Check::ScalarType => {
            "one type per value: a plain Option<T> goes absent, not null (serve the tool portable, or drop `null` from the hand-written schema); an Option<Option<T>>, whose null clears, has no one-type form: take an Option<T> and a `clear_…: bool` instead, or keep it for hosts that take type lists"
        }
        Check::ArrayItems => "give the array's element a concrete type",
        Check::TupleItems => "use a struct with named fields instead of a tuple",
        Check::Composition { .. } => {
            "a data-carrying enum is a oneOf: use a flatter type, a string enum (unit variants), or a tagged struct (a `kind` string enum and optional fields)"
        }
        Check::StringEnums => "use a string enum (unit variants) instead of numbers or booleans",
        Check::MaxBound { .. } => "lower the bound, or drop it and check the length in the tool",
        Check::UnsupportedBounds => {
            "drop #[schemars(range(...))] or #[schemars(length(...))] and check the value in the tool; an integer's width is a bound no Rust type avoids: send the tool without `strict`, or have whoever sends it move the bounds into the description (Anthropic's SDKs do)"
        }
        Check::ClosedObjects => "add #[serde(deny_unknown_fields)] to the struct",
        Check::AllRequired => {
            "make the field required, or have the host turn strict mode off for this tool"
        }
        Check::OptionalProperties { .. } => "split the tool, or make fields required",
        Check::TypedAdditionalProperties => {
            "give the map's values a concrete type (HashMap<String, T>, T not serde_json::Value)"
        }
        Check::OutputSchemaDeclared => {
            "#[tool(output_schema = false)] for this host (the JSON stays the text), or keep it and test the host"
        }
        Check::ObjectOutputSchema => "return Json<T> of a struct, not of a scalar or a list",
        Check::ListBytes { .. } => "shorten descriptions, or serve fewer tools",
        Check::StructuredNeedsSchema => "return Json<T>, which declares its outputSchema",
        Check::SchemaNeedsStructured => {
            "return the structured result on success (Json<T> does), or declare no outputSchema"
        }
        Check::DeclaredFields => {
            "declare the field in the output type, or leave it out of the structured result"
        }
        Check::IconSource => {
            "serve the image from an `https://` URL, or carry it in the message: Icon::data(\"image/png\", bytes) (icons(data = include_bytes!(...), mime_type = \"image/png\") on an attribute)"
        }
        Check::IconFormat => {
            static FIX: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
                format!(
                    "give an image type hosts show ({}) and sizes as `48x48` or `any`",
                    super::icons::IMAGE_TYPES.join(", ")
                )
            });
            FIX.as_str()
        }
        Check::ScopesWithoutAuth => {
            "configure auth, or every caller is served it: HttpConfig::bearer_auth, HttpConfig::oauth, or run() with --oauth-issuer URL (MCP_OAUTH_ISSUER)"
        }
        Check::EcmaPattern => {
            "write the regex as JavaScript reads it (with the `u` flag): `(?i)` becomes `[Aa]` classes, `\\A`/`\\z` become `^`/`$`, no possessive `*+` or atomic `(?>…)`"
        }
    }
}

/// What `check` finds wrong with `tool`; `server` is the server's name (name prefixes).
pub(super) fn check_tool(check: &Check, tool: &ToolDefinition, server: &str) -> Vec<Problem> {
    if let Some(found) = check_definition(check, tool, server) {
        return found
            .into_iter()
            .map(|(pointer, message)| Problem::new(pointer, message))
            .collect();
    }
    match *check {
        Check::IconSource | Check::IconFormat => super::icons::check(check, &tool.icons),
        Check::ListBytes { .. }
        | Check::StructuredNeedsSchema
        | Check::SchemaNeedsStructured
        | Check::DeclaredFields
        | Check::ScopesWithoutAuth => Vec::new(),
        _ => check_subschemas(check, tool),
    }
}

/// What a check of the definition as a whole (its name, description, a schema's root) finds,
/// as (JSON pointer, what is wrong) pairs; `None` for the other checks.
fn check_definition(
    check: &Check,
    tool: &ToolDefinition,
    server: &str,
) -> Option<Vec<(String, String)>> {
    let found = match *check {
        Check::NameLength { max, prefix } => {
            let seen = format!("{}{}", prefix.replace("{server}", server), tool.name);
            let length = seen.chars().count();
            (length > max).then(|| {
                (
                    "/name".into(),
                    format!("`{seen}` is {length} characters, more than {max}"),
                )
            })
        }
        Check::NameCharacters => tool
            .name
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
            .map(|bad| ("/name".into(), format!("`{}` contains {bad:?}", tool.name))),
        Check::ValidSchema => return Some(invalid_schemas(tool)),
        Check::Description => tool
            .description
            .as_deref()
            .is_none_or(|text| text.trim().is_empty())
            .then(|| ("/description".into(), "no description".into())),
        Check::OutputSchemaDeclared => tool
            .output_schema
            .is_some()
            .then(|| ("/outputSchema".into(), "an outputSchema is declared".into())),
        Check::ObjectOutputSchema => tool
            .output_schema
            .as_ref()
            .filter(|schema| schema.get("type").and_then(Value::as_str) != Some("object"))
            .map(|_| {
                (
                    "/outputSchema".into(),
                    "the outputSchema's root is not `type: \"object\"`".into(),
                )
            }),
        Check::Composition { root_only: true } => return Some(root_composition(tool)),
        Check::OptionalProperties { max } => {
            let optional = optional_properties(&tool.input_schema);
            (optional > max).then(|| {
                (
                    "/inputSchema".into(),
                    format!("{optional} optional properties, more than {max}"),
                )
            })
        }
        _ => return None,
    };
    Some(found.into_iter().collect())
}

/// The composition keywords at the root of the input schema.
fn root_composition(tool: &ToolDefinition) -> Vec<(String, String)> {
    let Some(object) = tool.input_schema.as_object() else {
        return Vec::new();
    };
    COMPOSITION
        .into_iter()
        .filter(|keyword| object.contains_key(*keyword))
        .map(|keyword| {
            (
                format!("/inputSchema/{keyword}"),
                format!("`{keyword}` at the root of the input schema"),
            )
        })
        .collect()
}

/// What a check that looks at subschemas one by one finds in the input schema (and, for
/// `Composition`, the output schema), each problem with its fix.
fn check_subschemas(check: &Check, tool: &ToolDefinition) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut visit = |pointer: &str, node: &Map<String, Value>, place: Place| {
        if let Some(message) = check_node(check, node, place) {
            let fix = shape_fix(check, node, place);
            problems.push(Problem {
                fix,
                ..Problem::new(pointer.to_owned(), message)
            });
        }
    };
    walk(&tool.input_schema, "/inputSchema", &mut visit);
    if matches!(check, Check::Composition { root_only: false })
        && let Some(output) = &tool.output_schema
    {
        walk(output, "/outputSchema", &mut visit);
    }
    problems
}

/// Where `tool`'s schemas are not valid JSON Schema 2020-12, and why.
fn invalid_schemas(tool: &ToolDefinition) -> Vec<(String, String)> {
    let schemas = [
        ("/inputSchema", Some(&tool.input_schema)),
        ("/outputSchema", tool.output_schema.as_ref()),
    ];
    schemas
        .into_iter()
        .filter_map(|(pointer, schema)| {
            let error = jsonschema::draft202012::meta::validate(schema?).err()?;
            Some((
                format!("{pointer}{}", error.instance_path().as_str()),
                format!("not valid JSON Schema 2020-12: {error}"),
            ))
        })
        .collect()
}

/// What `check` finds wrong with `result`, a `tools/call` result (JSON) of `tool`.
pub(super) fn check_result(check: &Check, tool: &ToolDefinition, result: &Value) -> Vec<Problem> {
    let structured = result.get("structuredContent");
    let failed = result.get("isError").and_then(Value::as_bool) == Some(true);
    let problem = |pointer: &str, message: String| Problem::new(pointer.to_owned(), message);
    match (check, &tool.output_schema) {
        (Check::StructuredNeedsSchema, None) if structured.is_some() => vec![problem(
            "/structuredContent",
            "structured content from a tool without an outputSchema".into(),
        )],
        (Check::SchemaNeedsStructured, Some(_)) if structured.is_none() && !failed => {
            vec![problem(
                "/structuredContent",
                "no structured content, though the tool declares an outputSchema".into(),
            )]
        }
        (Check::DeclaredFields, Some(schema)) => {
            let (Some(Value::Object(fields)), Some(declared)) = (
                structured,
                schema.get("properties").and_then(Value::as_object),
            ) else {
                return Vec::new();
            };
            fields
                .keys()
                .filter(|name| !declared.contains_key(*name))
                .map(|name| {
                    problem(
                        &format!("/structuredContent/{}", escape(name)),
                        format!("`{name}` is not declared in the outputSchema"),
                    )
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

const COMPOSITION: [&str; 3] = ["oneOf", "anyOf", "allOf"];
/// The bounds Anthropic's strict mode refuses (and `minItems` above 1).
const BOUNDS: [&str; 8] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "maxItems",
];

/// The fix for the shape of `node` where the rule's own fix cannot be written for it: an
/// attribute on a struct does nothing for a map, a `Duration` or a `serde_json::Value`, an
/// enum's variant is closed on the enum, `Option<T>` does nothing for a list of types without
/// `null`, and an `f32`'s bounds are its range, which no attribute removes.
fn shape_fix(check: &Check, node: &Map<String, Value>, place: Place) -> Option<&'static str> {
    let several_types = matches!(node.get("type"), Some(Value::Array(kinds)) if kinds.len() > 1);
    match check {
        Check::ArrayItems | Check::ClosedObjects | Check::TypedAdditionalProperties
            if several_types =>
        {
            Some(
                "none for serde_json::Value, which takes any JSON: give the argument a concrete type",
            )
        }
        Check::ClosedObjects => {
            let properties = node.get("properties").and_then(Value::as_object);
            let map = node
                .get("additionalProperties")
                .is_some_and(|value| value != &Value::Bool(false));
            let duration = properties.is_some_and(|properties| {
                let mut names: Vec<&str> = properties.keys().map(String::as_str).collect();
                names.sort_unstable();
                names == ["nanos", "secs"]
            });
            if place == Place::Branch && tag(node).is_some() {
                Some("add #[serde(deny_unknown_fields)] to the enum (its tag stays allowed)")
            } else if duration {
                Some(
                    "none for std::time::Duration (its `{secs, nanos}` cannot take serde attributes): take the duration as a number of seconds or milliseconds (u64) and convert it in the tool",
                )
            } else if map || properties.is_none() {
                Some(
                    "none for a map (HashMap, BTreeMap), which takes any key: use a struct with named fields (and #[serde(deny_unknown_fields)])",
                )
            } else {
                None
            }
        }
        Check::UnsupportedBounds if is_f32(node) => Some(
            "take an f64, which has no bounds: an f32's are its range (±3.4e38), which no attribute removes",
        ),
        Check::ScalarType if !matches!(node.get("type"), Some(Value::Array(kinds)) if kinds.iter().any(|kind| kind == "null")) => {
            Some(
                "one type per value: an untagged enum of several scalar types has no one-type form; take one type (a String the tool parses), or a struct with an optional field per kind",
            )
        }
        _ => None,
    }
}

/// Whether `node` is an `f32` as the portable rewrite advertises it: a number bounded by the
/// type's range.
fn is_f32(node: &Map<String, Value>) -> bool {
    let bound = |keyword: &str| node.get(keyword).and_then(Value::as_f64);
    bound("minimum") == Some(-f64::from(f32::MAX)) && bound("maximum") == Some(f64::from(f32::MAX))
}

/// The property that tells an enum's variant apart, when `node` is one (serde's `tag` of an
/// internally or adjacently tagged enum): required, and one string value.
fn tag(node: &Map<String, Value>) -> Option<&str> {
    let (names, required) = object_properties(node)?;
    let properties = node.get("properties")?.as_object()?;
    names.into_iter().find(|name| {
        required.contains(name)
            && properties.get(*name).is_some_and(|schema| {
                let one = match (schema.get("const"), schema.get("enum")) {
                    (Some(value), _) => Some(value),
                    (None, Some(Value::Array(values))) if values.len() == 1 => values.first(),
                    _ => None,
                };
                one.is_some_and(Value::is_string)
            })
    })
}

/// Whether `node`'s `oneOf`/`anyOf` branches are all objects (a data-carrying enum): each is
/// an object schema of its own, checked where it is, and the node itself no more than their
/// union.
fn branches_are_objects(node: &Map<String, Value>) -> bool {
    ["oneOf", "anyOf"].into_iter().any(|keyword| {
        node.get(keyword)
            .and_then(Value::as_array)
            .is_some_and(|branches| {
                !branches.is_empty()
                    && branches
                        .iter()
                        .all(|branch| branch.get("type").and_then(Value::as_str) == Some("object"))
            })
    })
}

/// One subschema, at `place`, against a check that looks at subschemas one by one.
fn check_node(check: &Check, node: &Map<String, Value>, place: Place) -> Option<String> {
    let type_is = |name: &str| match node.get("type") {
        Some(Value::String(kind)) => kind == name,
        Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == name),
        _ => false,
    };
    match *check {
        Check::PropertyDescription => (place == Place::Property
            && node
                .get("description")
                .and_then(Value::as_str)
                .is_none_or(|text| text.trim().is_empty()))
        .then(|| "a property without a description".into()),
        Check::Dialect => node
            .get("$schema")
            .filter(|dialect| {
                dialect.as_str().is_none_or(|uri| {
                    uri.trim_end_matches('#') != "https://json-schema.org/draft/2020-12/schema"
                })
            })
            .map(|dialect| format!("`$schema` names another dialect: {dialect}")),
        Check::Keyword(keyword) => node
            .contains_key(keyword)
            .then(|| format!("`{keyword}` is used")),
        Check::TypeEverywhere => (!node.contains_key("type") && !node.contains_key("$ref"))
            .then(|| "a schema without `type`".into()),
        Check::ScalarType => matches!(node.get("type"), Some(Value::Array(_)))
            .then(|| format!("`type` is a list: {}", node["type"])),
        Check::ArrayItems => {
            (type_is("array") && !node.contains_key("items") && !node.contains_key("prefixItems"))
                .then(|| "an array without `items`".into())
        }
        Check::TupleItems => (node.contains_key("prefixItems")
            || matches!(node.get("items"), Some(Value::Array(_))))
        .then(|| "a tuple array (`prefixItems` or a list of `items`)".into()),
        Check::Composition { .. } => COMPOSITION
            .iter()
            .find(|keyword| node.contains_key(**keyword))
            .map(|keyword| format!("`{keyword}` is used")),
        Check::StringEnums => node
            .get("enum")
            .and_then(Value::as_array)
            .and_then(|values| values.iter().find(|value| !value.is_string()))
            .map(|value| format!("`enum` has a value that is not a string: {value}")),
        Check::MaxBound { keyword, max } => node
            .get(keyword)
            .and_then(Value::as_u64)
            .filter(|value| *value > max)
            .map(|value| format!("`{keyword}: {value}` is more than {max}")),
        Check::UnsupportedBounds => unsupported_bounds(node),
        Check::ClosedObjects => (type_is("object")
            && node.get("additionalProperties") != Some(&Value::Bool(false))
            && !branches_are_objects(node))
        .then(|| "an object without `additionalProperties: false`".into()),
        Check::AllRequired => not_required(node),
        Check::EcmaPattern => non_ecma_pattern(node),
        Check::TypedAdditionalProperties => untyped_additional_properties(node),
        _ => None,
    }
}

/// The bounds `node` uses that strict hosts do not support (a `minItems` of 0 or 1 they do).
fn unsupported_bounds(node: &Map<String, Value>) -> Option<String> {
    let used: Vec<&str> = BOUNDS
        .into_iter()
        .filter(|keyword| node.contains_key(*keyword))
        .chain(
            node.get("minItems")
                .and_then(Value::as_u64)
                .filter(|minimum| *minimum > 1)
                .map(|_| "minItems"),
        )
        .collect();
    match used.as_slice() {
        [] => None,
        [one] => Some(format!("`{one}` is not supported")),
        several => Some(format!("`{}` are not supported", several.join("`, `"))),
    }
}

/// The properties of an object schema that are not required.
fn not_required(node: &Map<String, Value>) -> Option<String> {
    object_properties(node).and_then(|(names, required)| {
        let optional: Vec<&str> = names
            .iter()
            .filter(|name| !required.contains(name))
            .copied()
            .collect();
        (!optional.is_empty()).then(|| format!("not required: {}", optional.join(", ")))
    })
}

/// The first `pattern` (or `patternProperties` key) that is no ECMA-262 regex, and why.
fn non_ecma_pattern(node: &Map<String, Value>) -> Option<String> {
    let pattern = node.get("pattern").and_then(Value::as_str);
    let keys = node
        .get("patternProperties")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(Map::keys)
        .map(String::as_str);
    pattern.into_iter().chain(keys).find_map(|regex| {
        regress::Regex::with_flags(regex, "u")
            .err()
            .map(|error| format!("{regex:?} is not an ECMA-262 regex: {error}"))
    })
}

/// `additionalProperties` that lets any value in: `true`, or a schema without `type`.
fn untyped_additional_properties(node: &Map<String, Value>) -> Option<String> {
    match node.get("additionalProperties") {
        Some(Value::Bool(true)) => Some("`additionalProperties: true`".into()),
        Some(Value::Object(schema)) if !schema.contains_key("type") => {
            Some("`additionalProperties` is a schema without `type`".into())
        }
        _ => None,
    }
}

/// How many properties of the object schemas in `schema` are optional.
fn optional_properties(schema: &Value) -> usize {
    let mut optional = 0;
    walk(schema, "", &mut |_, node, _| {
        optional += object_properties(node).map_or(0, |(names, required)| {
            names.iter().filter(|name| !required.contains(name)).count()
        });
    });
    optional
}

/// An object schema's property names and its required ones.
fn object_properties(node: &Map<String, Value>) -> Option<(Vec<&str>, Vec<&str>)> {
    let properties = node.get("properties")?.as_object()?;
    let names = properties.keys().map(String::as_str).collect();
    let required = node
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    Some((names, required))
}

/// Where a subschema sits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// The root, or below any keyword but those below.
    Schema,
    /// A branch of a `oneOf`, `anyOf` or `allOf`.
    Branch,
    /// An object's property.
    Property,
    /// A branch's [`tag`]: serde's, which no doc comment reaches.
    Tag,
}

/// What [`walk`] calls on each subschema: its JSON pointer, the subschema, and its place.
type Visitor<'a> = dyn FnMut(&str, &Map<String, Value>, Place) + 'a;

/// Calls `visit` on `schema` and every subschema below it, with its JSON pointer and place.
fn walk(schema: &Value, pointer: &str, visit: &mut Visitor<'_>) {
    walk_node(schema, pointer, Place::Schema, visit);
}

fn walk_node(schema: &Value, pointer: &str, place: Place, visit: &mut Visitor<'_>) {
    let Some(node) = schema.as_object() else {
        return;
    };
    visit(pointer, node, place);
    let tag = (place == Place::Branch).then(|| tag(node)).flatten();
    for (keyword, value) in node {
        let here = format!("{pointer}/{}", escape(keyword));
        match keyword.as_str() {
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                if let Some(children) = value.as_object() {
                    for (name, child) in children {
                        let child_pointer = format!("{here}/{}", escape(name));
                        let place = match keyword.as_str() {
                            "properties" if tag == Some(name.as_str()) => Place::Tag,
                            "properties" => Place::Property,
                            _ => Place::Schema,
                        };
                        walk_node(child, &child_pointer, place, visit);
                    }
                }
            }
            "items" | "prefixItems" | "additionalItems" | "anyOf" | "oneOf" | "allOf" => {
                let place = if matches!(keyword.as_str(), "anyOf" | "oneOf" | "allOf") {
                    Place::Branch
                } else {
                    Place::Schema
                };
                match value {
                    Value::Array(children) => {
                        for (index, child) in children.iter().enumerate() {
                            walk_node(child, &format!("{here}/{index}"), place, visit);
                        }
                    }
                    child => walk_node(child, &here, place, visit),
                }
            }
            "additionalProperties"
            | "unevaluatedProperties"
            | "unevaluatedItems"
            | "contentSchema"
            | "not"
            | "contains"
            | "propertyNames"
            | "if"
            | "then"
            | "else" => walk_node(value, &here, Place::Schema, visit),
            _ => {}
        }
    }
}

/// A JSON pointer token (RFC 6901).
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}
