//! Portable JSON Schemas: what schemars derives, rewritten into the subset every real host accepts
//! (DESIGN.md, "Schemas: portable by default").

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

/// The input schema of an argument type: an object schema, or `Err` saying why `T` is not one.
pub(crate) fn input_schema<T: JsonSchema>() -> Value {
    let mut schema = generate::<T>(Direction::Input);
    ensure_object_root(&mut schema);
    schema
}

/// The schema of a tool that takes no arguments.
pub(crate) fn empty_input_schema() -> Value {
    json!({"type": "object", "properties": {}, "additionalProperties": false})
}

/// The schema of the structured content of `Json<T>`: how `T` serializes, made portable except
/// that `Option<T>` stays nullable (the tool sends `None` as `null`). The registry wraps a non-object
/// one as `{"result": …}` ([`wrap_in_result`]), the wrapping the official SDKs use.
pub(crate) fn output_schema<T: JsonSchema>() -> Value {
    let mut schema = generate::<T>(Direction::Output);
    ensure_object_root(&mut schema);
    schema
}

/// Removes the `null`s a client sent for optional properties, at every depth `schema` describes
/// with `properties` and `items`: `Option<T>` is advertised as `T` and not required, so a `null`
/// there means the client left it out, and validation agrees with what serde accepts.
pub(crate) fn drop_optional_nulls(schema: &Value, instance: &mut Value) {
    match instance {
        Value::Object(object) => {
            let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
                return;
            };
            let required = schema.get("required").and_then(Value::as_array);
            let optional =
                |name: &str| !required.is_some_and(|required| required.iter().any(|r| r == name));
            object.retain(|name, value| {
                !(value.is_null() && properties.contains_key(name) && optional(name))
            });
            for (name, value) in object.iter_mut() {
                if let Some(property) = properties.get(name) {
                    drop_optional_nulls(property, value);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items") {
                for value in items {
                    drop_optional_nulls(item, value);
                }
            }
        }
        _ => {}
    }
}

/// Whether a schema describes a JSON object at its root.
pub(crate) fn is_object_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// `{"type":"object","properties":{"result": schema},"required":["result"]}`, keeping `$defs`
/// (of recursive types) at the root where their references point, and pointing references to
/// the old root (`#`, a type that contains itself) at `#/properties/result`.
pub(crate) fn wrap_in_result(mut schema: Value) -> Value {
    move_root_references(&mut schema);
    let defs = schema
        .as_object_mut()
        .and_then(|object| object.remove("$defs"));
    let mut wrapped = json!({
        "type": "object",
        "properties": {"result": schema},
        "required": ["result"],
    });
    if let Some(defs) = defs {
        wrapped["$defs"] = defs;
    }
    wrapped
}

/// `#…` → `#/properties/result…` in every `$ref` that points into the root rather than into
/// `$defs` (which [`wrap_in_result`] keeps at the root).
fn move_root_references(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            for (key, value) in object.iter_mut() {
                match value {
                    Value::String(reference) if key == "$ref" => {
                        if let Some(rest) = reference.strip_prefix('#')
                            && !rest.starts_with("/$defs/")
                        {
                            *reference = format!("#/properties/result{rest}");
                        }
                    }
                    _ => move_root_references(value),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(move_root_references),
        _ => {}
    }
}

/// What a schema describes: arguments a client sends, or structured content a tool returns.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Input,
    Output,
}

fn generate<T: JsonSchema>(direction: Direction) -> Value {
    let settings = SchemaSettings::draft2020_12().with(|settings| {
        settings.inline_subschemas = true;
        settings.meta_schema = None;
    });
    // Output is what serde writes: `skip_serializing_if` fields may be absent, `Option`s are there.
    let settings = match direction {
        Direction::Input => settings.for_deserialize(),
        Direction::Output => settings.for_serialize(),
    };
    let generator = settings.into_generator();
    let mut schema = generator.into_root_schema_for::<T>().to_value();
    make_portable(&mut schema, direction);
    if let Some(root) = schema.as_object_mut() {
        // The tool's description carries what a root title or description would say.
        root.remove("title");
        root.remove("description");
    }
    schema
}

/// Always `properties` at an object root, and `required` whenever it has properties, never
/// absent or `null` (a root without properties stays as DESIGN.md's no-argument schema).
pub(crate) fn ensure_object_root(schema: &mut Value) {
    let Some(root) = schema.as_object_mut() else {
        return;
    };
    if root.get("type").and_then(Value::as_str) != Some("object") {
        return;
    }
    if !root.get("properties").is_some_and(Value::is_object) {
        root.insert("properties".into(), Value::Object(Map::new()));
    }
    let has_properties = root["properties"]
        .as_object()
        .is_some_and(|p| !p.is_empty());
    if has_properties && !root.get("required").is_some_and(Value::is_array) {
        root.insert("required".into(), Value::Array(Vec::new()));
    }
}

/// Rewrites one schema, then every subschema below it. `null` alternatives are dropped from
/// input schemas only: a tool's output does hold the `null`s of its `None`s.
fn make_portable(schema: &mut Value, direction: Direction) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if direction == Direction::Input {
        drop_null_alternatives(object);
    }
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
    for (key, value) in object.iter_mut() {
        match key.as_str() {
            "properties" | "$defs" | "patternProperties" => {
                if let Some(map) = value.as_object_mut() {
                    for value in map.values_mut() {
                        make_portable(value, direction);
                    }
                }
            }
            "items" | "additionalProperties" | "not" | "contains" | "propertyNames" => {
                make_portable(value, direction);
            }
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                if let Some(list) = value.as_array_mut() {
                    for value in list {
                        make_portable(value, direction);
                    }
                }
            }
            _ => {}
        }
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

/// schemars marks Rust number types with formats hosts reject (`uint32`, `double`, …):
/// integer widths become `minimum`/`maximum`, float formats are dropped.
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
        "uint" | "uint64" | "uint128" => Some((json!(0), None)),
        "int" | "int64" | "int128" | "float" | "double" => None,
        _ => return, // a standard format (`date-time`, `uri`, …) stays
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
