//! The portable rewrite: a schemars schema turned into the subset every real host accepts
//! (the `tool` macro's docs, "Portable schemas"): `Option<T>` is `T` and not required, no
//! non-standard `format`s (integer widths become bounds), every array has `items`, unit enums
//! are string enums, and a property without a `type` gets its branches' common one.

use serde_json::{Map, Value, json};

use super::Direction;

/// Rewrites a root schema and every subschema below it. `null` alternatives are dropped where
/// they mark an optional property (see [`make_nullable_properties_optional`]), and at an input
/// root (arguments are an object): elsewhere (an array's items, a map's values, a tuple's
/// members) `null` is a value the type takes, in arguments and output alike.
pub(super) fn make_portable(schema: &mut Value, direction: Direction) {
    if direction == Direction::Input
        && let Some(root) = schema.as_object_mut()
    {
        drop_null_alternatives(root);
    }
    rewrite(schema, direction);
}

/// [`make_portable`] below the root.
fn rewrite(schema: &mut Value, direction: Direction) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    make_nullable_properties_optional(object, direction);
    replace_numeric_format(object);
    if let Some(constant) = object.remove("const") {
        object.insert("enum".into(), Value::Array(vec![constant]));
    }
    merge_single_value_alternatives(object);
    if object.get("type").and_then(Value::as_str) == Some("array")
        && !object.contains_key("items")
        && !object.contains_key("prefixItems")
    {
        object.insert("items".into(), Value::Object(Map::new()));
    }
    let property = |value: &mut Value| {
        rewrite(value, direction);
        add_type(value, true);
    };
    let portable = |value: &mut Value| {
        rewrite(value, direction);
        add_type(value, false);
    };
    for (key, value) in object.iter_mut() {
        match key.as_str() {
            "properties" | "patternProperties" => {
                if let Some(map) = value.as_object_mut() {
                    map.values_mut().for_each(property);
                }
            }
            "$defs" => {
                if let Some(map) = value.as_object_mut() {
                    map.values_mut().for_each(portable);
                }
            }
            "items" | "additionalProperties" | "not" | "contains" | "propertyNames" => {
                portable(value);
            }
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                if let Some(list) = value.as_array_mut() {
                    list.iter_mut().for_each(portable);
                }
            }
            _ => {}
        }
    }
}

/// Output schemas follow the input rule for `Option<T>` fields: a property that may be `null` is
/// advertised as `T` and not required; the tool's `null` there is removed from its structured
/// content ([`drop_output_nulls`](crate::validate::drop_output_nulls)) before it is checked and sent.
/// In input schemas, a nullable property keeps its place in `required` when it has one (a
/// required `null`able property is rare, and serde decides).
fn make_nullable_properties_optional(object: &mut Map<String, Value>, direction: Direction) {
    let Some(Value::Object(properties)) = object.get_mut("properties") else {
        return;
    };
    let mut optional = Vec::new();
    for (name, property) in properties.iter_mut() {
        if let Some(property) = property.as_object_mut()
            && is_nullable(property)
        {
            // `Option<Option<T>>` ("absent = keep, null = clear"): its `null` is a value it
            // takes, advertised so that a model can send it.
            if property.remove(NULLABLE) == Some(Value::Bool(true)) {
                if property.get("default") == Some(&Value::Null) {
                    property.remove("default");
                }
                optional.push(name.clone());
                continue;
            }
            drop_null_alternatives(property);
            // `#[serde(default)] Option<T>`: a `null` default is no longer a value it takes.
            if property.get("default") == Some(&Value::Null) {
                property.remove("default");
            }
            optional.push(name.clone());
        }
    }
    if direction == Direction::Input {
        return;
    }
    if let Some(Value::Array(required)) = object.get_mut("required") {
        required.retain(|name| !optional.iter().any(|optional| name == optional.as_str()));
        if required.is_empty() {
            // [`ensure_object_root`] puts an empty one back at the root.
            object.remove("required");
        }
    }
}

/// The mark of a property whose `null` means something (an inline `Option<Option<T>>`
/// parameter, or a field marked `#[schemars(extend("x-mcp-nullable" = true))]`): it stays
/// nullable, and its `null` reaches serde.
pub(super) const NULLABLE: &str = "x-mcp-nullable";

/// Whether a schema admits `null` besides some other value: `type: [T, "null"]`, or an
/// `anyOf`/`oneOf` with a `{"type":"null"}` branch.
fn is_nullable(object: &Map<String, Value>) -> bool {
    let is_null = |branch: &Value| branch.get("type").and_then(Value::as_str) == Some("null");
    match object.get("type") {
        Some(Value::Array(types)) => types.len() > 1 && types.iter().any(|kind| kind == "null"),
        _ => ["anyOf", "oneOf"].into_iter().any(|keyword| {
            object
                .get(keyword)
                .and_then(Value::as_array)
                .is_some_and(|branches| branches.len() > 1 && branches.iter().any(is_null))
        }),
    }
}

/// Every property has a `type`: a schema without one gets its `oneOf`/`anyOf` branches' types,
/// one (a data-carrying enum: objects) or a list of them (an untagged enum of a number and a
/// string: `["integer", "string"]`); a schema that takes anything (`serde_json::Value`) gets
/// every JSON type (a property only: elsewhere `{}` says as much, and an empty branch is how an
/// `Option` of a type without a `type` is told apart).
pub(super) fn add_common_type(schema: &mut Value) {
    add_type(schema, true);
}

/// [`add_common_type`]; a schema that takes anything gets every type when `anything`.
fn add_type(schema: &mut Value, anything: bool) {
    if anything && *schema == Value::Bool(true) {
        *schema = Value::Object(Map::new());
    }
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if object.contains_key("type") {
        return;
    }
    let kind = if anything && takes_anything(object) {
        Some(json!(ANY_TYPE))
    } else {
        ["oneOf", "anyOf"]
            .into_iter()
            .find_map(|keyword| branch_types(object.get(keyword)?.as_array()?))
    };
    if let Some(kind) = kind {
        // First, where a reader looks for it.
        let mut typed = Map::from_iter([("type".to_owned(), kind)]);
        typed.append(object);
        *object = typed;
    }
}

/// Every JSON type: what a schema that constrains nothing takes.
const ANY_TYPE: [&str; 6] = ["object", "array", "string", "number", "boolean", "null"];

/// Whether a schema without a `type` constrains nothing a `type` would (only annotations).
fn takes_anything(object: &Map<String, Value>) -> bool {
    const ANNOTATIONS: [&str; 5] = ["title", "description", "default", "examples", "deprecated"];
    object.keys().all(|key| ANNOTATIONS.contains(&key.as_str()))
}

/// The branches' types, in order, once each: one type, or a list; `None` when a branch has none.
fn branch_types(branches: &[Value]) -> Option<Value> {
    let mut kinds: Vec<Value> = Vec::new();
    for branch in branches {
        match branch.get("type")? {
            Value::Array(list) => kinds.extend(list.iter().cloned()),
            kind => kinds.push(kind.clone()),
        }
    }
    let mut unique: Vec<Value> = Vec::new();
    for kind in kinds {
        if !unique.contains(&kind) {
            unique.push(kind);
        }
    }
    match unique.len() {
        0 => None,
        1 => unique.pop(),
        _ => Some(Value::Array(unique)),
    }
}

/// `Option<T>` is advertised as `T` (and left out of `required`): `type: [T, "null"]` loses its
/// `"null"` (and its `enum` the `null` value), and an `anyOf`/`oneOf` with a `{"type":"null"}`
/// branch loses that branch.
fn drop_null_alternatives(object: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = object.get_mut("type")
        && types.iter().any(|kind| kind == "null")
    {
        types.retain(|kind| kind != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            object.insert("type".into(), only);
        }
        if let Some(Value::Array(values)) = object.get_mut("enum") {
            values.retain(|value| !value.is_null());
        }
    }
    for keyword in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = object.get_mut(keyword) else {
            continue;
        };
        let is_null = |branch: &Value| branch.get("type").and_then(Value::as_str) == Some("null");
        if !branches.iter().any(is_null) {
            continue;
        }
        branches.retain(|branch| !is_null(branch));
        if branches.len() == 1 {
            let Some(Value::Object(only)) = object.remove(keyword).map(|mut b| b[0].take()) else {
                continue;
            };
            for (key, value) in only {
                object.entry(key).or_insert(value);
            }
        }
    }
}

/// The formats JSON Schema 2020-12 defines; only these are advertised.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// schemars marks Rust number types with formats hosts reject (`uint32`, `double`, …): the
/// range of integer widths and of `f32` becomes `minimum`/`maximum`; `double`, and every format
/// JSON Schema does not define (`ip`, `partial-date-time`, …), are dropped.
fn replace_numeric_format(object: &mut Map<String, Value>) {
    let Some(format) = object.get("format").and_then(Value::as_str) else {
        return;
    };
    let bounds: Option<(Value, Option<Value>)> = match format {
        "int8" => Some((json!(i8::MIN), Some(json!(i8::MAX)))),
        "int16" => Some((json!(i16::MIN), Some(json!(i16::MAX)))),
        "int32" => Some((json!(i32::MIN), Some(json!(i32::MAX)))),
        "uint8" => Some((json!(0), Some(json!(u8::MAX)))),
        "uint16" => Some((json!(0), Some(json!(u16::MAX)))),
        "uint32" => Some((json!(0), Some(json!(u32::MAX)))),
        "uint" | "uint64" => Some((json!(0), None)),
        // What `serde_json` reads exactly: a larger number is a float, which no integer takes.
        "int128" => Some((json!(i64::MIN), Some(json!(u64::MAX)))),
        "uint128" => Some((json!(0), Some(json!(u64::MAX)))),
        "int" | "int64" | "double" => None,
        // serde reads a larger number into an `f32` as infinity.
        "float" => Some((json!(-f32::MAX), Some(json!(f32::MAX)))),
        standard if STANDARD_FORMATS.contains(&standard) => return,
        // Anything else (schemars' `ip`, chrono's `partial-date-time`, …) is unknown to hosts.
        _ => None,
    };
    object.remove("format");
    let Some((min, max)) = bounds else { return };
    tighten(object, "minimum", &min, |new, old| new > old);
    if let Some(max) = max {
        tighten(object, "maximum", &max, |new, old| new < old);
    }
}

/// Sets `keyword` to `bound` unless an existing bound is already tighter.
fn tighten(
    object: &mut Map<String, Value>,
    keyword: &str,
    bound: &Value,
    tighter: fn(f64, f64) -> bool,
) {
    let new = bound.as_f64().unwrap_or_default();
    match object.get(keyword).and_then(Value::as_f64) {
        Some(old) if !tighter(new, old) => {}
        _ => {
            object.insert(keyword.into(), bound.clone());
        }
    }
}

/// A unit enum with documented variants arrives as `oneOf: [{const: "a"}, …]`; hosts want
/// `{"type":"string","enum":["a", …]}`.
fn merge_single_value_alternatives(object: &mut Map<String, Value>) {
    for keyword in ["oneOf", "anyOf"] {
        let Some(Value::Array(branches)) = object.get(keyword) else {
            continue;
        };
        let values: Option<Vec<Value>> = branches
            .iter()
            .map(|branch| {
                let value = branch.get("const").or_else(|| {
                    branch
                        .get("enum")
                        .and_then(Value::as_array)
                        .filter(|e| e.len() == 1)?
                        .first()
                })?;
                value.is_string().then(|| value.clone())
            })
            .collect();
        let Some(values) = values else { continue };
        object.remove(keyword);
        object.insert("type".into(), json!("string"));
        object.insert("enum".into(), Value::Array(values));
    }
}

#[cfg(test)]
mod tests {
    use schemars::JsonSchema;
    use serde_json::{Value, json};

    use super::make_portable;
    use crate::schema::{Direction, input_schema};

    fn portable(mut schema: Value, direction: Direction) -> Value {
        make_portable(&mut schema, direction);
        schema
    }

    #[derive(JsonSchema)]
    #[allow(dead_code, reason = "only its schema is used")]
    struct Search {
        query: String,
        limit: Option<u8>,
    }

    #[test]
    fn an_option_is_its_type_and_not_required() {
        assert_eq!(
            input_schema::<Search>(),
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "limit": {"type": "integer", "minimum": 0, "maximum": 255},
                },
                "required": ["query"],
                "additionalProperties": false,
            })
        );
    }

    /// A nullable property is optional (its `null` is dropped before sending or validating), but
    /// a `null` the type holds elsewhere, an array's item, is kept, in input schemas too.
    #[test]
    fn output_nulls_go_only_where_they_mark_an_optional_property() {
        let schema = json!({
            "type": "object",
            "properties": {
                "note": {"type": ["string", "null"]},
                "cells": {"type": "array", "items": {"type": ["string", "null"]}},
            },
            "required": ["note", "cells"],
        });
        assert_eq!(
            portable(schema.clone(), Direction::Output),
            json!({
                "type": "object",
                "properties": {
                    "note": {"type": "string"},
                    "cells": {"type": "array", "items": {"type": ["string", "null"]}},
                },
                "required": ["cells"],
            })
        );
        assert_eq!(
            portable(schema, Direction::Input),
            json!({
                "type": "object",
                "properties": {
                    "note": {"type": "string"},
                    "cells": {"type": "array", "items": {"type": ["string", "null"]}},
                },
                "required": ["note", "cells"],
            })
        );
    }

    #[test]
    fn a_null_branch_is_dropped_and_the_other_merged() {
        let schema = json!({"anyOf": [{"type": "object", "properties": {}}, {"type": "null"}], "description": "d"});
        assert_eq!(
            portable(schema, Direction::Input),
            json!({"type": "object", "properties": {}, "description": "d"})
        );
    }

    #[test]
    fn integer_widths_become_bounds_keeping_tighter_ones() {
        let cases = [
            (
                json!({"type": "integer", "format": "uint8", "minimum": 0}),
                json!({"type": "integer", "minimum": 0, "maximum": 255}),
            ),
            (
                json!({"type": "integer", "format": "int16"}),
                json!({"type": "integer", "minimum": -32768, "maximum": 32767}),
            ),
            (
                json!({"type": "integer", "format": "uint64", "minimum": 0}),
                json!({"type": "integer", "minimum": 0}),
            ),
            (
                json!({"type": "integer", "format": "int64"}),
                json!({"type": "integer"}),
            ),
            (
                json!({"type": "integer", "format": "int128"}),
                json!({"type": "integer", "minimum": i64::MIN, "maximum": u64::MAX}),
            ),
            (
                json!({"type": "number", "format": "float"}),
                json!({"type": "number", "minimum": -f32::MAX, "maximum": f32::MAX}),
            ),
            (
                json!({"type": "integer", "format": "uint32", "minimum": 1, "maximum": 10}),
                json!({"type": "integer", "minimum": 1, "maximum": 10}),
            ),
        ];
        for (schema, expected) in cases {
            assert_eq!(portable(schema, Direction::Input), expected);
        }
    }

    #[test]
    fn only_standard_formats_are_kept() {
        let cases = [
            (
                json!({"type": "number", "format": "double"}),
                json!({"type": "number"}),
            ),
            (
                json!({"type": "string", "format": "ip"}),
                json!({"type": "string"}),
            ),
            (
                json!({"type": "string", "format": "partial-date-time"}),
                json!({"type": "string"}),
            ),
            (
                json!({"type": "string", "format": "uuid"}),
                json!({"type": "string", "format": "uuid"}),
            ),
            (
                json!({"type": "string", "format": "date-time"}),
                json!({"type": "string", "format": "date-time"}),
            ),
        ];
        for (schema, expected) in cases {
            assert_eq!(portable(schema, Direction::Input), expected);
        }
    }

    #[derive(JsonSchema)]
    #[allow(dead_code, reason = "only its schema is used")]
    struct Outer {
        inner: Inner,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code, reason = "only its schema is used")]
    struct Inner {
        flag: bool,
    }

    #[test]
    fn a_ref_is_inlined() {
        assert_eq!(
            input_schema::<Outer>(),
            json!({
                "type": "object",
                "properties": {
                    "inner": {
                        "type": "object",
                        "properties": {"flag": {"type": "boolean"}},
                        "required": ["flag"],
                        "additionalProperties": false,
                    },
                },
                "required": ["inner"],
                "additionalProperties": false,
            })
        );
    }

    /// A unit enum with documented variants arrives as a `oneOf` of `const`s.
    #[test]
    fn unit_enums_become_string_enums() {
        let schema = json!({
            "oneOf": [
                {"const": "fast", "description": "Quick"},
                {"type": "string", "enum": ["slow"]},
            ],
        });
        assert_eq!(
            portable(schema, Direction::Input),
            json!({"type": "string", "enum": ["fast", "slow"]})
        );
        assert_eq!(
            portable(json!({"const": "only"}), Direction::Input),
            json!({"enum": ["only"]})
        );
    }

    /// Item 11 of issue 14: mixed branches get the list of their types.
    #[test]
    fn a_branching_property_gets_its_branches_common_type() {
        let schema = json!({
            "type": "object",
            "properties": {
                "shape": {"oneOf": [{"type": "object", "properties": {"r": {"type": "number"}}}, {"type": "object", "properties": {"s": {"type": "number"}}}]},
                "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            },
        });
        let portable = portable(schema, Direction::Input);
        assert_eq!(portable["properties"]["shape"]["type"], json!("object"));
        assert_eq!(
            portable["properties"]["either"]["type"],
            json!(["string", "integer"])
        );
    }

    #[test]
    fn an_array_always_has_items() {
        assert_eq!(
            portable(json!({"type": "array"}), Direction::Input),
            json!({"type": "array", "items": {}})
        );
        assert_eq!(
            portable(
                json!({"type": "array", "prefixItems": [{"type": "string"}]}),
                Direction::Input
            ),
            json!({"type": "array", "prefixItems": [{"type": "string"}]})
        );
    }
}
