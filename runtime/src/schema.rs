//! Portable JSON Schemas: what schemars derives, rewritten into the subset every real host accepts
//! (DESIGN.md, "Schemas: portable by default").

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

use crate::sync::{read, write};

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

/// The schema of the structured content of `Json<T>`: how `T` serializes, made portable. An
/// `Option<T>` field is `T` and not required, as in input schemas: [`Json`](crate::Json) removes
/// the `null` of a `None` there. The registry wraps a non-object one as `{"result": …}`
/// ([`wrap_in_result`]), the wrapping the official SDKs use.
pub(crate) fn output_schema<T: JsonSchema>() -> Value {
    let mut schema = generate::<T>(Direction::Output);
    ensure_object_root(&mut schema);
    schema
}

/// The structured content of `Json<T>`: `value` with the `null`s of `T`'s optional properties
/// removed, as [`output_schema`] advertises them. The schema is generated once per type.
pub(crate) fn drop_output_nulls<T: JsonSchema + 'static>(value: &mut Value) {
    static SCHEMAS: OnceLock<RwLock<HashMap<TypeId, Arc<Value>>>> = OnceLock::new();
    let schemas = SCHEMAS.get_or_init(RwLock::default);
    let key = TypeId::of::<T>();
    // Read-locked on every call after the first (many tools may answer at once).
    let cached = read(schemas).get(&key).cloned();
    let schema = cached.unwrap_or_else(|| {
        let schema = Arc::new(output_schema::<T>());
        write(schemas).insert(key, Arc::clone(&schema));
        schema
    });
    prepare_instance(&schema, value);
}

/// Prepares a value for validation against `schema` (and for serde), at every depth `schema`
/// describes (`properties`, `additionalProperties`, `items`, `anyOf`/`oneOf`/`allOf` branches,
/// local `$ref`s):
///
/// - removes the `null`s of optional properties: `Option<T>` is advertised as `T` and not
///   required, so a `null` there means the value was left out (a client's arguments, or the
///   `None`s of a tool's structured content), and validation agrees with what serde accepts;
/// - turns a whole-number float where the schema wants an integer (`10.0`) into that integer,
///   which JSON Schema accepts already and serde then accepts too.
pub(crate) fn prepare_instance(schema: &Value, instance: &mut Value) {
    prepare(schema, schema, instance, 0);
}

/// How deep [`prepare`] follows a schema: beyond any value `serde_json` parses (128 levels, each
/// a few steps of schema), finite for a `$ref` cycle that never reaches the instance.
const MAX_DEPTH: usize = 512;

fn prepare(root: &Value, schema: &Value, instance: &mut Value, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let Some(schema_object) = schema.as_object() else {
        return;
    };
    let target = resolve(root, schema);
    if !std::ptr::eq(target, schema) {
        prepare(root, target, instance, depth + 1);
    }
    // Every `allOf` part applies. Of the alternatives, only the one serde would read the
    // instance as ([`chosen_branch`]): preparing it for a branch it does not match could drop a
    // `null` that its own branch requires, or turn the float of an untagged `f64` variant into an
    // integer; following one branch also keeps the walk linear.
    let branches = |keyword| {
        schema_object
            .get(keyword)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
    };
    for part in branches("allOf") {
        prepare(root, part, instance, depth + 1);
    }
    let alternatives: Vec<&Value> = branches("anyOf").chain(branches("oneOf")).collect();
    if let Some(branch) = chosen_branch(root, &alternatives, instance) {
        prepare(root, branch, instance, depth + 1);
    }
    match instance {
        Value::Object(object) => {
            let properties = schema_object.get("properties").and_then(Value::as_object);
            if let Some(properties) = properties {
                let required = schema_object.get("required").and_then(Value::as_array);
                let optional = |name: &str| {
                    !required.is_some_and(|required| required.iter().any(|r| r == name))
                };
                object.retain(|name, value| {
                    !(value.is_null() && properties.contains_key(name) && optional(name))
                });
            }
            let additional = schema_object.get("additionalProperties");
            for (name, value) in object.iter_mut() {
                match properties.and_then(|properties| properties.get(name)) {
                    Some(property) => prepare(root, property, value, depth + 1),
                    None => {
                        if let Some(additional) = additional {
                            prepare(root, additional, value, depth + 1);
                        }
                    }
                }
            }
        }
        Value::Array(items) => {
            // A tuple's leading items each have their schema (`prefixItems`); `items` is for the
            // rest.
            let leading = schema_object
                .get("prefixItems")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice);
            for (index, value) in items.iter_mut().enumerate() {
                if let Some(item) = leading.get(index).or_else(|| schema_object.get("items")) {
                    prepare(root, item, value, depth + 1);
                }
            }
        }
        // Only a float: an integer is left exact (`as_f64` would round one above 2^53).
        Value::Number(number) if number.is_f64() && wants_integer(schema_object) => {
            if let Some(integer) = number.as_f64().and_then(whole_number) {
                *number = integer;
            }
        }
        _ => {}
    }
}

/// The alternative (of an `anyOf`/`oneOf`) that serde reads `instance` as, if that is clear:
/// - the enum variant the instance names by its tag: every required property with a single
///   allowed value (`const`, or a one-value `enum`) has that value in the instance (internally
///   and adjacently tagged), or the branch is an object of one required property, which the
///   instance has (externally tagged, also when flattened into a struct);
/// - otherwise, the only branch that is not `{"type": "null"}` or `{}` (an `Option` of a type
///   that has no plain `type`, or a flattened `Option`), unless the instance is that `null`;
/// - otherwise, for an object, the first branch it fits (its required properties present, no
///   property it may not have), as an untagged enum picks the first variant that reads;
/// - for a whole-number float, the first branch that wants an integer, when no branch takes any
///   number (an untagged enum of an integer and a string).
fn chosen_branch<'a>(
    root: &'a Value,
    branches: &[&'a Value],
    instance: &Value,
) -> Option<&'a Value> {
    if let Some(tagged) = branches
        .iter()
        .find(|branch| names_its_tag(root, branch, instance))
    {
        return Some(tagged);
    }
    let no_value = |branch: &Value| {
        branch.get("type").and_then(Value::as_str) == Some("null")
            || *branch == Value::Bool(true)
            || branch.as_object().is_some_and(Map::is_empty)
    };
    if let [only] = branches
        .iter()
        .filter(|branch| !no_value(branch))
        .collect::<Vec<_>>()[..]
    {
        return (!instance.is_null()).then_some(*only);
    }
    match instance {
        Value::Object(fields) => branches
            .iter()
            .copied()
            .find(|branch| fits(own_or_referenced(root, branch), fields)),
        Value::Number(number) if number.is_f64() => {
            let kinds: Vec<Option<(bool, bool)>> = branches
                .iter()
                .map(|branch| {
                    own_or_referenced(root, branch)
                        .as_object()
                        .map(|schema| (wants_integer(schema), admits_number(schema)))
                })
                .collect();
            if kinds.iter().flatten().any(|(_, number)| *number) {
                return None;
            }
            branches
                .iter()
                .zip(&kinds)
                .find(|(_, kind)| kind.is_some_and(|(integer, _)| integer))
                .map(|(branch, _)| *branch)
        }
        _ => None,
    }
}

/// Whether a schema takes any number, not only integers.
fn admits_number(schema: &Map<String, Value>) -> bool {
    match schema.get("type") {
        Some(Value::String(kind)) => kind == "number",
        Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "number"),
        _ => false,
    }
}

/// Whether `branch` is the variant `instance` names by its serde tag (see [`chosen_branch`]).
fn names_its_tag(root: &Value, branch: &Value, instance: &Value) -> bool {
    let branch = own_or_referenced(root, branch);
    let (Some(properties), Some(fields)) = (
        branch.get("properties").and_then(Value::as_object),
        instance.as_object(),
    ) else {
        return false;
    };
    let required: Vec<&str> = branch
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    // One required property that is not itself a fixed value (an internally tagged unit
    // variant), present in the instance.
    let externally_tagged = properties.len() == 1
        && required.len() == 1
        && properties.iter().next().is_some_and(|(name, property)| {
            name == required[0] && single_value(property).is_none() && fields.contains_key(name)
        });
    let tags: Vec<(&str, &Value)> = required
        .iter()
        .filter_map(|name| Some((*name, single_value(properties.get(*name)?)?)))
        .collect();
    externally_tagged
        || (!tags.is_empty()
            && tags
                .iter()
                .all(|(name, value)| fields.get(*name) == Some(*value)))
}

/// The one value a property allows (`const`, or a one-value `enum`), if it allows one.
fn single_value(property: &Value) -> Option<&Value> {
    property.get("const").or_else(|| {
        property
            .get("enum")
            .and_then(Value::as_array)
            .filter(|values| values.len() == 1)
            .and_then(|values| values.first())
    })
}

/// Whether an object with `fields` fits the object schema `branch`: every required property
/// present, and no field it has no property for when it refuses others (serde ignores unknown
/// fields otherwise).
fn fits(branch: &Value, fields: &Map<String, Value>) -> bool {
    let Some(properties) = branch.get("properties").and_then(Value::as_object) else {
        return false;
    };
    let required_present = branch
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .all(|name| fields.contains_key(name));
    let closed = branch.get("additionalProperties") == Some(&Value::Bool(false));
    required_present && (!closed || fields.keys().all(|name| properties.contains_key(name)))
}

/// `branch` when it describes its own properties (a tagged newtype variant of a recursive type
/// has both a `$ref` and the tag's property), otherwise what its local `$ref` points at.
fn own_or_referenced<'a>(root: &'a Value, branch: &'a Value) -> &'a Value {
    if branch.get("properties").is_some() {
        branch
    } else {
        resolve(root, branch)
    }
}

/// `schema`, or what its local `$ref` points at.
fn resolve<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|reference| reference.strip_prefix('#'))
        .and_then(|pointer| root.pointer(pointer))
        .unwrap_or(schema)
}

/// Whether a schema asks for an integer and no other number.
fn wants_integer(schema: &Map<String, Value>) -> bool {
    match schema.get("type") {
        Some(Value::String(kind)) => kind == "integer",
        Some(Value::Array(kinds)) => {
            kinds.iter().any(|kind| kind == "integer") && !kinds.iter().any(|kind| kind == "number")
        }
        _ => false,
    }
}

/// `10.0` → `10`, for a float that is a whole number no larger than 2^53 in magnitude (a larger
/// float has lost precision already: serde may reject it, as it would have).
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "the float is whole and checked to be in range"
)]
fn whole_number(float: f64) -> Option<serde_json::Number> {
    // Every integer up to 2^53 is exact as a float.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if !float.is_finite() || float.fract() != 0.0 || float.abs() > EXACT {
        return None;
    }
    Some(if float >= 0.0 {
        (float as u64).into()
    } else {
        (float as i64).into()
    })
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
    // Now a property, it has a `type` like any other (an enum of objects stays wrapped: its
    // root had none).
    add_common_type(&mut schema);
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
    // Output is what serde writes: `skip_serializing_if` fields may be absent.
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
/// input schemas everywhere, from output schemas where they mark an optional property (see
/// [`make_nullable_properties_optional`]): elsewhere a tool's output does hold `null`s.
fn make_portable(schema: &mut Value, direction: Direction) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if direction == Direction::Input {
        drop_null_alternatives(object);
    } else {
        make_nullable_properties_optional(object);
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
    let portable = |value: &mut Value| {
        make_portable(value, direction);
        add_common_type(value);
    };
    for (key, value) in object.iter_mut() {
        match key.as_str() {
            "properties" | "$defs" | "patternProperties" => {
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
/// content ([`prepare_instance`]) before it is checked and sent.
fn make_nullable_properties_optional(object: &mut Map<String, Value>) {
    let Some(Value::Object(properties)) = object.get_mut("properties") else {
        return;
    };
    let mut optional = Vec::new();
    for (name, property) in properties.iter_mut() {
        if let Some(property) = property.as_object_mut()
            && is_nullable(property)
        {
            drop_null_alternatives(property);
            optional.push(name.clone());
        }
    }
    if let Some(Value::Array(required)) = object.get_mut("required") {
        required.retain(|name| !optional.iter().any(|optional| name == optional.as_str()));
        if required.is_empty() {
            // [`ensure_object_root`] puts an empty one back at the root.
            object.remove("required");
        }
    }
}

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

/// Every property has a `type`: a schema without one whose `oneOf`/`anyOf` branches all have
/// the same `type` (a data-carrying enum: objects) gets that `type`.
fn add_common_type(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if object.contains_key("type") {
        return;
    }
    for keyword in ["oneOf", "anyOf"] {
        let Some(Value::Array(branches)) = object.get(keyword) else {
            continue;
        };
        let Some(kind) = branches.first().and_then(|branch| branch.get("type")) else {
            continue;
        };
        if kind.is_string()
            && branches
                .iter()
                .all(|branch| branch.get("type") == Some(kind))
        {
            // First, where a reader looks for it.
            let mut typed = Map::from_iter([("type".to_owned(), kind.clone())]);
            typed.append(object);
            *object = typed;
            return;
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

/// schemars marks Rust number types with formats hosts reject (`uint32`, `double`, …):
/// integer widths become `minimum`/`maximum`; float formats, and every format JSON Schema does
/// not define (`ip`, `partial-date-time`, …), are dropped.
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
