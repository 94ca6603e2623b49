//! Schema generation: what schemars derives for a tool's argument and output types, made
//! portable ([`super::portable`]), with an object root.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

use schemars::generate::{SchemaGenerator, SchemaSettings};
use schemars::{JsonSchema, Schema};
use serde_json::{Map, Value, json};

use super::Direction;
use super::portable::{add_common_type, make_portable};
use crate::sync::{read, write};

/// The input schema of an argument type, made portable. A `T` that is not a JSON object keeps
/// its schema as it is: registering the tool refuses it then, saying why.
pub(crate) fn input_schema<T: JsonSchema>() -> Value {
    input_schema_of(root_of::<T>)
}

/// [`input_schema`], compiled once rather than for each argument type.
fn input_schema_of(root: RootSchema) -> Value {
    let mut schema = generate(root, Direction::Input);
    ensure_object_root(&mut schema);
    close_objects(&mut schema);
    schema
}

/// The input schema of an argument type as schemars generates it, not made portable
/// (`#[tool(portable = false)]`): only the root's title and description go (the tool's
/// description says it), and unknown arguments are still refused.
pub(crate) fn generated_input_schema<T: JsonSchema>() -> Value {
    generated_input_schema_of(root_of::<T>)
}

/// [`generated_input_schema`], compiled once rather than for each argument type.
fn generated_input_schema_of(root: RootSchema) -> Value {
    let mut schema = derive(root, Direction::Input);
    strip_root_text(&mut schema);
    strip_marks(&mut schema);
    ensure_object_root(&mut schema);
    close_objects(&mut schema);
    schema
}

/// Unknown arguments are refused, whatever the tool's style and at every depth: each object the
/// schema describes (its root, a property, an item, a map's values, an enum's branch, a
/// recursive type's `$defs`) gets `additionalProperties: false`, as a no-argument tool's root
/// has, unless it says otherwise (a map, a flattened map) or its properties are spread over
/// subschemas (`allOf`, `$ref`, a flattened enum's branches beside properties), which one
/// `additionalProperties` cannot see.
fn close_objects(schema: &mut Value) {
    close(schema, true);
}

/// [`close_objects`] of `schema` and every subschema below it; `schema` itself only when
/// `closable` (not an `allOf` part, nor an alternative beside its parent's own properties).
fn close(schema: &mut Value, closable: bool) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    let has_properties = object
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|properties| !properties.is_empty());
    // Only an object that lists its properties (a struct, a variant): `{"type":"object"}` alone,
    // or a list of every type (`serde_json::Value`), takes any key.
    if closable && is_object_type(object.get("type")) && object.contains_key("properties") {
        let open = [
            "additionalProperties",
            "patternProperties",
            "oneOf",
            "anyOf",
            "allOf",
            "$ref",
            "unevaluatedProperties",
            "if",
        ]
        .iter()
        .any(|keyword| object.contains_key(*keyword));
        if !open {
            object.insert("additionalProperties".into(), Value::Bool(false));
        }
    }
    for (key, value) in object.iter_mut() {
        match key.as_str() {
            "properties" | "patternProperties" | "$defs" => {
                if let Some(map) = value.as_object_mut() {
                    map.values_mut().for_each(|value| close(value, true));
                }
            }
            "items" | "additionalProperties" => close(value, true),
            "prefixItems" => {
                if let Some(list) = value.as_array_mut() {
                    for value in list {
                        close(value, true);
                    }
                }
            }
            "oneOf" | "anyOf" => {
                if let Some(list) = value.as_array_mut() {
                    for value in list {
                        close(value, !has_properties);
                    }
                }
            }
            "allOf" => {
                if let Some(list) = value.as_array_mut() {
                    for value in list {
                        close(value, false);
                    }
                }
            }
            _ => {}
        }
    }
}

/// `"object"`, or `["object", "null"]` (a nullable object).
fn is_object_type(kind: Option<&Value>) -> bool {
    match kind {
        Some(Value::String(kind)) => kind == "object",
        Some(Value::Array(kinds)) => {
            kinds.iter().any(|kind| kind == "object")
                && kinds.iter().all(|kind| kind == "object" || kind == "null")
        }
        _ => false,
    }
}

/// The schema of a tool that takes no arguments.
pub(crate) fn empty_input_schema() -> Value {
    json!({"type": "object", "properties": {}, "additionalProperties": false})
}

/// `schema` without the crate's own marks (`x-mcp-nullable`, which the portable rewrite reads):
/// they are not for hosts. Keys of a map of schemas (`properties`, `$defs`) are names, not marks.
fn strip_marks(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            object.remove(super::portable::NULLABLE);
            for (key, value) in object.iter_mut() {
                if let (
                    "properties" | "patternProperties" | "$defs" | "definitions"
                    | "dependentSchemas",
                    Value::Object(map),
                ) = (key.as_str(), &mut *value)
                {
                    map.values_mut().for_each(strip_marks);
                } else {
                    strip_marks(value);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(strip_marks),
        _ => {}
    }
}

/// The schema of the structured content of `Json<T>`: how `T` serializes, made portable. An
/// `Option<T>` field is `T` and not required, as in input schemas: [`Json`](crate::Json) removes
/// the `null` of a `None` there. The registry wraps a non-object one as `{"result": …}`
/// ([`wrap_in_result`]), the wrapping the official SDKs use.
pub(crate) fn output_schema<T: JsonSchema>() -> Value {
    output_schema_of(root_of::<T>)
}

/// [`output_schema`], compiled once rather than for each output type.
fn output_schema_of(root: RootSchema) -> Value {
    let mut schema = generate(root, Direction::Output);
    ensure_object_root(&mut schema);
    schema
}

/// [`output_schema`] of `T`, generated once per type: the structured content of every call of a
/// `Json<T>` tool is prepared against it.
pub(crate) fn cached_output_schema<T: JsonSchema + 'static>() -> Arc<Value> {
    static SCHEMAS: OnceLock<RwLock<HashMap<TypeId, Arc<Value>>>> = OnceLock::new();
    let schemas = SCHEMAS.get_or_init(RwLock::default);
    let key = TypeId::of::<T>();
    // Read-locked on every call after the first (many tools may answer at once).
    let cached = read(schemas).get(&key).cloned();
    cached.unwrap_or_else(|| {
        let schema = Arc::new(output_schema::<T>());
        write(schemas).insert(key, Arc::clone(&schema));
        schema
    })
}

/// Whether a schema describes a JSON object at its root.
pub(crate) fn is_object_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// `{"type":"object","properties":{"result": schema},"required":["result"]}`, keeping `$defs`
/// (of recursive types) at the root where their references point, and pointing references to
/// the old root (`#`, a type that contains itself) at `#/properties/result`.
pub(crate) fn wrap_in_result(schema: Value) -> Value {
    wrap_in_property(schema, "result")
}

/// `{"type":"object","properties":{name: schema},"required":[name]}`, as [`wrap_in_result`]
/// does for `result`: the input schema of a lone parameter whose type is not an object.
pub(crate) fn wrap_in_property(mut schema: Value, name: &str) -> Value {
    move_root_references(&mut schema, name);
    // Now a property, it has a `type` like any other (an enum of objects stays wrapped: its
    // root had none).
    add_common_type(&mut schema);
    let defs = schema
        .as_object_mut()
        .and_then(|object| object.remove("$defs"));
    let mut wrapped = json!({
        "type": "object",
        "properties": {name: schema},
        "required": [name],
    });
    if let Some(defs) = defs {
        wrapped["$defs"] = defs;
    }
    wrapped
}

/// `#…` → `#/properties/<name>…` in every `$ref` that points into the root rather than into
/// `$defs` (which [`wrap_in_property`] keeps at the root).
fn move_root_references(schema: &mut Value, name: &str) {
    match schema {
        Value::Object(object) => {
            for (key, value) in object.iter_mut() {
                match value {
                    Value::String(reference) if key == "$ref" => {
                        if let Some(rest) = reference.strip_prefix('#')
                            && !rest.starts_with("/$defs/")
                        {
                            *reference = format!("#/properties/{name}{rest}");
                        }
                    }
                    _ => move_root_references(value, name),
                }
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| move_root_references(item, name)),
        _ => {}
    }
}

/// What schemars derives for `T` in `direction`, made portable, without a root title or
/// description.
fn generate(root: RootSchema, direction: Direction) -> Value {
    let mut schema = derive(root, direction);
    make_portable(&mut schema, direction);
    // A root `oneOf` of objects (an internally tagged enum) is an object, as a property is.
    add_common_type(&mut schema);
    strip_root_text(&mut schema);
    schema
}

/// The tool's description carries what a root title or description would say.
fn strip_root_text(schema: &mut Value) {
    if let Some(root) = schema.as_object_mut() {
        root.remove("title");
        root.remove("description");
    }
}

/// schemars' root schema of one type, from a generator set up by [`derive`].
type RootSchema = fn(SchemaGenerator) -> Schema;

/// The one part of schema generation that is generic: each argument or output type of a tool
/// compiles only this, in the user's crate; the rest is compiled once, here.
fn root_of<T: JsonSchema>(generator: SchemaGenerator) -> Schema {
    generator.into_root_schema_for::<T>()
}

/// What schemars derives for the type of `root` in `direction`, as it is.
fn derive(root: RootSchema, direction: Direction) -> Value {
    let settings = SchemaSettings::draft2020_12().with(|settings| {
        settings.inline_subschemas = true;
        settings.meta_schema = None;
    });
    // Output is what serde writes: `skip_serializing_if` fields may be absent.
    let settings = match direction {
        Direction::Input => settings.for_deserialize(),
        Direction::Output => settings.for_serialize(),
    };
    root(settings.into_generator()).to_value()
}

/// Always `properties` at an object root, and `required` whenever it has properties, never
/// absent or `null` (a root without properties stays as the no-argument schema).
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_object_that_says_how_its_other_keys_are_judged_stays_open() {
        for keyword in ["unevaluatedProperties", "if", "patternProperties"] {
            let mut schema = json!({"type": "object", "properties": {"a": {}}, keyword: {}});
            close_objects(&mut schema);
            assert!(schema.get("additionalProperties").is_none(), "{keyword}");
        }
        let mut schema = json!({"type": "object", "properties": {"a": {}}});
        close_objects(&mut schema);
        assert_eq!(schema["additionalProperties"], false);
    }
}
