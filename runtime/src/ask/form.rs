//! The form an elicitation asks for: the schema of a Rust type, checked and reduced to what the
//! spec lets a `requestedSchema` hold (an object of flat primitive properties: strings, numbers,
//! integers, booleans, single- and multi-select enums, titled or not, with defaults).

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

use crate::sync::{read, write};

/// The keywords a primitive property keeps; the rest (a Rust integer width's `format`, say) are
/// dropped, as a client renders only these.
const KEPT: &[&str] = &[
    "type",
    "title",
    "description",
    "default",
    "enum",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    // The deprecated titles of an `enum` (2025-11-25 still accepts them): set with
    // `#[schemars(extend("enumNames" = [...]))]`.
    "enumNames",
];

/// The string formats a form may name.
const FORMATS: &[&str] = &["email", "uri", "date", "date-time"];

/// The `requestedSchema` for `T`, made once per type. `Err` says why `T` cannot be a form.
pub(crate) fn requested_schema<T: JsonSchema + 'static>() -> Result<Arc<Value>, String> {
    type Cache = RwLock<HashMap<TypeId, Result<Arc<Value>, String>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(RwLock::default);
    if let Some(schema) = read(cache).get(&TypeId::of::<T>()) {
        return schema.clone();
    }
    let generator = SchemaSettings::draft2020_12()
        .with(|settings| settings.inline_subschemas = true)
        .into_generator();
    let schema = form(
        &generator.into_root_schema_for::<T>().to_value(),
        &T::schema_name(),
    )
    .map(Arc::new);
    write(cache).insert(TypeId::of::<T>(), schema.clone());
    schema
}

/// Reduces a generated schema to a form, or says what in it no form can hold.
fn form(schema: &Value, type_name: &str) -> Result<Value, String> {
    let not_a_form = |why: String| format!("`{type_name}` cannot be an elicitation form: {why}");
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        return Err(not_a_form("it is not a struct with named fields".into()));
    }
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Err(not_a_form("it has no fields".into()));
    };
    let mut fields = Map::new();
    for (name, property) in properties {
        let field =
            primitive(property).map_err(|why| not_a_form(format!("field `{name}` {why}")))?;
        fields.insert(name.clone(), field);
    }
    let mut form = json!({"type": "object", "properties": fields});
    if let Some(required) = schema.get("required") {
        form["required"] = required.clone();
    }
    Ok(form)
}

/// One property: a primitive, a single-select enum or a multi-select (an array of one).
fn primitive(property: &Value) -> Result<Value, String> {
    let Some(property) = property.as_object() else {
        return Err("has no schema".into());
    };
    let mut property = without_null(property);
    let mut field = Map::new();
    // A titled single select: `oneOf` of `{const, title}` (a documented variant's description
    // is its title).
    if let Some(Value::Array(branches)) = property.remove("oneOf") {
        field.insert("type".into(), json!("string"));
        field.insert("oneOf".into(), Value::Array(titled(&branches)?));
    }
    if let Some(kind) = property.get("type").and_then(Value::as_str) {
        match kind {
            "string" | "number" | "integer" | "boolean" => {}
            "array" => {
                let items = property.get("items").and_then(Value::as_object);
                field.insert("items".into(), select_items(items)?);
            }
            other => return Err(format!("is of type {other}, not a primitive")),
        }
    } else if !field.contains_key("oneOf") {
        return Err("is not a string, a number, a boolean or an enum".into());
    }
    if let Some(Value::String(format)) = property.get("format")
        && FORMATS.contains(&format.as_str())
    {
        field.insert("format".into(), json!(format));
    }
    for keyword in KEPT {
        match property.get(*keyword) {
            // `#[serde(default)]` on an `Option`: absent already means none, and a `null`
            // default is one no form may carry (the TypeScript client refuses the whole request).
            Some(Value::Null) if *keyword == "default" => {}
            Some(value) => {
                field.entry(*keyword).or_insert_with(|| value.clone());
            }
            None => {}
        }
    }
    well_typed(&field)?;
    Ok(Value::Object(field))
}

/// Checks what the spec's restricted form schema types, as the official TypeScript client's
/// `zod` schema does (it refuses the whole request over one field): `title` and `description`
/// are strings, bounds are numbers, `enumNames` strings, and a default has the field's type
/// (a string for a select, strings for a multi select).
fn well_typed(field: &Map<String, Value>) -> Result<(), String> {
    let kind = field
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("string");
    let strings = |value: &Value| {
        value
            .as_array()
            .is_some_and(|items| items.iter().all(Value::is_string))
    };
    for (keyword, value) in field {
        let (fits, wanted) = match (keyword.as_str(), kind) {
            ("title" | "description", _) | ("default", "string") => (value.is_string(), "a string"),
            ("minLength" | "maxLength" | "minimum" | "maximum" | "minItems" | "maxItems", _)
            | ("default", "number" | "integer") => (value.is_number(), "a number"),
            ("default", "boolean") => (value.is_boolean(), "true or false"),
            ("enumNames" | "default", _) => (strings(value), "a list of strings"),
            _ => (true, ""),
        };
        if !fits {
            return Err(format!(
                "has `{keyword}: {value}` where a form takes {wanted} (clients refuse the whole form)"
            ));
        }
    }
    Ok(())
}

/// An `Option<T>` property's schema without its `null` (in `type`, `anyOf` or `enum`).
fn without_null(property: &Map<String, Value>) -> Map<String, Value> {
    let mut property = property.clone();
    if let Some(Value::Array(options)) = property.get_mut("enum") {
        options.retain(|option| !option.is_null());
    }
    if let Some(Value::Array(types)) = property.get("type") {
        let types: Vec<&Value> = types.iter().filter(|kind| *kind != "null").collect();
        if let [kind] = types.as_slice() {
            let kind = (*kind).clone();
            property.insert("type".into(), kind);
        }
    }
    if let Some(Value::Array(branches)) = property.get("anyOf") {
        let branches: Vec<&Value> = branches
            .iter()
            .filter(|branch| branch.get("type") != Some(&json!("null")))
            .collect();
        if let [Value::Object(inner)] = branches.as_slice() {
            let mut inner = inner.clone();
            for keyword in ["title", "description", "default"] {
                if let Some(value) = property.get(keyword) {
                    inner.insert(keyword.into(), value.clone());
                }
            }
            return inner;
        }
    }
    property
}

/// The items of a multi select: strings from an enum, titled (`anyOf` of `{const, title}`) or not.
fn select_items(items: Option<&Map<String, Value>>) -> Result<Value, String> {
    let Some(items) = items else {
        return Err("is an array without items".into());
    };
    if let Some(Value::Array(branches)) = items.get("oneOf").or_else(|| items.get("anyOf")) {
        return Ok(json!({"anyOf": titled(branches)?}));
    }
    match items.get("enum") {
        Some(options) if items.get("type") == Some(&json!("string")) => {
            Ok(json!({"type": "string", "enum": options}))
        }
        _ => Err("is an array, but not of enum values (a multi select)".into()),
    }
}

/// The options of a titled select: each a string `const` with a title.
fn titled(branches: &[Value]) -> Result<Vec<Value>, String> {
    branches
        .iter()
        .map(|branch| {
            let constant = branch
                .get("const")
                .or_else(|| branch.get("enum").and_then(|values| values.get(0)))
                .filter(|constant| constant.is_string())
                .ok_or("is an enum whose variants are not all plain names")?;
            let title = branch
                .get("title")
                .or_else(|| branch.get("description"))
                .unwrap_or(constant);
            Ok(json!({"const": constant, "title": title}))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use schemars::JsonSchema;
    use serde::Deserialize;

    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code, reason = "only the schema is read")]
    enum Size {
        Small,
        Large,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code, reason = "only the schema is read")]
    enum Color {
        /// Red as a fire truck
        Red,
        /// Green as grass
        Green,
    }

    /// A form with every kind of field.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code, reason = "only the schema is read")]
    struct Order {
        /// Your name
        name: String,
        #[serde(default = "one")]
        #[schemars(range(min = 1, max = 9))]
        quantity: u32,
        gift: Option<bool>,
        size: Size,
        color: Color,
        extras: Vec<Size>,
    }

    fn one() -> u32 {
        1
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code, reason = "only the schema is read")]
    struct Nested {
        order: Order,
    }

    #[test]
    fn a_flat_struct_becomes_the_form_the_spec_describes() {
        let schema = requested_schema::<Order>().unwrap();
        assert_eq!(
            *schema,
            json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "Your name"},
                    "quantity": {"type": "integer", "default": 1, "minimum": 1, "maximum": 9},
                    "gift": {"type": "boolean"},
                    "size": {"type": "string", "enum": ["Small", "Large"]},
                    "color": {"type": "string", "oneOf": [
                        {"const": "Red", "title": "Red as a fire truck"},
                        {"const": "Green", "title": "Green as grass"},
                    ]},
                    "extras": {"type": "array", "items": {"type": "string", "enum": ["Small", "Large"]}},
                },
                "required": ["name", "size", "color", "extras"],
            })
        );
    }

    /// What people write for an optional answer: `#[serde(default)]` on an `Option`.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code, reason = "only the schema is read")]
    struct Refusal {
        /// Go ahead
        confirm: bool,
        /// Why not
        #[serde(default)]
        reason: Option<String>,
        #[serde(default)]
        size: Option<Size>,
        #[serde(default)]
        extras: Vec<Size>,
    }

    #[test]
    fn a_form_carries_no_null() {
        // The official TypeScript client refuses a `"default": null` (expected string), and a
        // `null` among a select's options.
        let schema = requested_schema::<Refusal>().unwrap();
        assert_eq!(
            *schema,
            json!({
                "type": "object",
                "properties": {
                    "confirm": {"type": "boolean", "description": "Go ahead"},
                    "reason": {"type": "string", "description": "Why not"},
                    "size": {"type": "string", "enum": ["Small", "Large"]},
                    "extras": {"type": "array", "items": {"type": "string", "enum": ["Small", "Large"]}},
                },
                "required": ["confirm"],
            })
        );
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code, reason = "only the schema is read")]
    struct WrongDefault {
        #[schemars(extend("default" = 5))]
        name: String,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code, reason = "only the schema is read")]
    struct WrongTitle {
        #[schemars(title = "Count", extend("maximum" = "ten"))]
        count: u8,
    }

    #[test]
    fn a_default_or_bound_of_the_wrong_type_is_no_form() {
        assert_eq!(
            requested_schema::<WrongDefault>().unwrap_err(),
            "`WrongDefault` cannot be an elicitation form: field `name` has `default: 5` where a \
             form takes a string (clients refuse the whole form)"
        );
        assert_eq!(
            requested_schema::<WrongTitle>().unwrap_err(),
            "`WrongTitle` cannot be an elicitation form: field `count` has `maximum: \"ten\"` where \
             a form takes a number (clients refuse the whole form)"
        );
    }

    #[test]
    fn a_nested_struct_is_no_form_and_the_error_says_which_field() {
        let error = requested_schema::<Nested>().unwrap_err();
        assert_eq!(
            error,
            "`Nested` cannot be an elicitation form: field `order` is of type object, not a primitive"
        );
        assert!(requested_schema::<u32>().is_err());
    }
}
