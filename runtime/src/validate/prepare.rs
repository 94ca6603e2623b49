//! Preparing an instance before validation: what a client (or a tool's structured content)
//! sends, brought to what the advertised schema and serde both accept, so that validation and
//! deserialization agree: the `null` of an `Option` dropped, a whole float made an integer where
//! the schema wants one, and each alternative followed only into the branch serde would read.

use schemars::JsonSchema;
use serde_json::{Map, Value};

use crate::fields::Fields as _;
use crate::schema;

/// The structured content of `Json<T>`: `value` with the `null`s of `T`'s optional properties
/// removed, as [`output_schema`](crate::schema::output_schema) advertises them.
pub(crate) fn drop_output_nulls<T: JsonSchema + 'static>(value: &mut Value) {
    prepare_instance(&schema::cached_output_schema::<T>(), value);
}

/// What preparing does with the `null` of an optional property.
#[derive(Clone, Copy)]
enum Nulls {
    /// Removes it (what validation is given).
    Drop,
    /// Keeps it (what serde is given: the user's type reads it, or refuses it and is given it
    /// left out); `true` once one was kept.
    Keep(bool),
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
    prepare(schema, schema, instance, 0, &mut Nulls::Drop);
}

/// [`prepare_instance`], but the `null`s of optional properties kept: what serde is given, so
/// that a type that reads `null` (a double-option `deserialize_with`: `Some(None)`, "clear")
/// gets it. Whether there was such a `null` (if not, `instance` is as [`prepare_instance`]
/// leaves it).
pub(crate) fn prepare_keeping_nulls(schema: &Value, instance: &mut Value) -> bool {
    let mut nulls = Nulls::Keep(false);
    prepare(schema, schema, instance, 0, &mut nulls);
    matches!(nulls, Nulls::Keep(true))
}

/// How deep [`prepare`] follows a schema: beyond any value `serde_json` parses (128 levels, each
/// a few steps of schema), finite for a `$ref` cycle that never reaches the instance.
const MAX_DEPTH: usize = 512;

/// Prepares `instance` for `schema` (see [`prepare_instance`]), `depth` steps below `root`.
fn prepare(root: &Value, schema: &Value, instance: &mut Value, depth: usize, nulls: &mut Nulls) {
    if depth > MAX_DEPTH {
        return;
    }
    let Some(schema_object) = schema.as_object() else {
        return;
    };
    let target = resolve(root, schema);
    if !std::ptr::eq(target, schema) {
        prepare(root, target, instance, depth + 1, nulls);
    }
    prepare_branches(root, schema_object, instance, depth, nulls);
    match instance {
        Value::Object(object) => prepare_properties(root, schema_object, object, depth, nulls),
        Value::Array(items) => prepare_items(root, schema_object, items, depth, nulls),
        // Only a float: an integer is left exact (`as_f64` would round one above 2^53).
        Value::Number(number) if number.is_f64() && wants_integer(schema_object) => {
            if let Some(integer) = number.as_f64().and_then(whole_number) {
                *number = integer;
            }
        }
        _ => {}
    }
}

/// Every `allOf` part applies. Of the alternatives, only the one serde would read the instance
/// as ([`chosen_branch`]): preparing it for a branch it does not match could drop a `null` that
/// its own branch requires, or turn the float of an untagged `f64` variant into an integer;
/// following one branch also keeps the walk linear.
fn prepare_branches(
    root: &Value,
    schema: &Map<String, Value>,
    instance: &mut Value,
    depth: usize,
    nulls: &mut Nulls,
) {
    let branches = |keyword| {
        schema
            .field(keyword)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
    };
    for part in branches("allOf") {
        prepare(root, part, instance, depth + 1, nulls);
    }
    let alternatives: Vec<&Value> = branches("anyOf").chain(branches("oneOf")).collect();
    if let Some(branch) = chosen_branch(root, &alternatives, instance) {
        prepare(root, branch, instance, depth + 1, nulls);
    }
}

/// Drops the `null`s of optional properties, then prepares each value for its property (or for
/// `additionalProperties`).
fn prepare_properties(
    root: &Value,
    schema: &Map<String, Value>,
    object: &mut Map<String, Value>,
    depth: usize,
    nulls: &mut Nulls,
) {
    let properties = schema.field("properties").and_then(Value::as_object);
    if let Some(properties) = properties {
        let required = schema.field("required").and_then(Value::as_array);
        let optional =
            |name: &str| !required.is_some_and(|required| required.iter().any(|r| r == name));
        // A property advertised nullable (`Option<Option<T>>`) keeps its `null`: it means
        // something there, and validation accepts it.
        object.retain(|name, value| {
            let left_out = value.is_null()
                && optional(name)
                && properties
                    .field(name)
                    .is_some_and(|property| !takes_null(root, property));
            match nulls {
                Nulls::Drop => !left_out,
                Nulls::Keep(kept) => {
                    *kept |= left_out;
                    true
                }
            }
        });
    }
    let additional = schema.field("additionalProperties");
    for (name, value) in object.iter_mut() {
        match properties.and_then(|properties| properties.field(name)) {
            Some(property) => prepare(root, property, value, depth + 1, nulls),
            None => {
                if let Some(additional) = additional {
                    prepare(root, additional, value, depth + 1, nulls);
                }
            }
        }
    }
}

/// Prepares each item: a tuple's leading items each have their schema (`prefixItems`); `items`
/// is for the rest.
fn prepare_items(
    root: &Value,
    schema: &Map<String, Value>,
    items: &mut [Value],
    depth: usize,
    nulls: &mut Nulls,
) {
    let leading = schema
        .field("prefixItems")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    for (index, value) in items.iter_mut().enumerate() {
        if let Some(item) = leading.get(index).or_else(|| schema.field("items")) {
            prepare(root, item, value, depth + 1, nulls);
        }
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
        branch.field("type").and_then(Value::as_str) == Some("null")
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

/// Whether a property's schema takes `null`: its `type` is or lists `"null"`, or a branch of
/// its `anyOf`/`oneOf` does.
fn takes_null(root: &Value, property: &Value) -> bool {
    let property = own_or_referenced(root, property);
    let is_null = |kind: &Value| match kind {
        Value::String(kind) => kind == "null",
        Value::Array(kinds) => kinds.iter().any(|kind| kind == "null"),
        _ => false,
    };
    property.field("type").is_some_and(is_null)
        || ["anyOf", "oneOf"].into_iter().any(|keyword| {
            property
                .field(keyword)
                .and_then(Value::as_array)
                .is_some_and(|branches| {
                    branches
                        .iter()
                        .any(|branch| branch.field("type").is_some_and(is_null))
                })
        })
}

/// Whether a schema takes any number, not only integers.
fn admits_number(schema: &Map<String, Value>) -> bool {
    match schema.field("type") {
        Some(Value::String(kind)) => kind == "number",
        Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "number"),
        _ => false,
    }
}

/// Whether `branch` is the variant `instance` names by its serde tag (see [`chosen_branch`]).
fn names_its_tag(root: &Value, branch: &Value, instance: &Value) -> bool {
    let branch = own_or_referenced(root, branch);
    let (Some(properties), Some(fields)) = (
        branch.field("properties").and_then(Value::as_object),
        instance.as_object(),
    ) else {
        return false;
    };
    let required: Vec<&str> = branch
        .field("required")
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
            name == required[0] && single_value(property).is_none() && fields.field(name).is_some()
        });
    let tags: Vec<(&str, &Value)> = required
        .iter()
        .filter_map(|name| Some((*name, single_value(properties.field(name)?)?)))
        .collect();
    externally_tagged
        || (!tags.is_empty()
            && tags
                .iter()
                .all(|(name, value)| fields.field(name) == Some(*value)))
}

/// The one value a property allows (`const`, or a one-value `enum`), if it allows one.
fn single_value(property: &Value) -> Option<&Value> {
    property.field("const").or_else(|| {
        property
            .field("enum")
            .and_then(Value::as_array)
            .filter(|values| values.len() == 1)
            .and_then(|values| values.first())
    })
}

/// Whether an object with `fields` fits the object schema `branch`: every required property
/// present, and no field it has no property for when it refuses others (serde ignores unknown
/// fields otherwise).
fn fits(branch: &Value, fields: &Map<String, Value>) -> bool {
    let Some(properties) = branch.field("properties").and_then(Value::as_object) else {
        return false;
    };
    let required_present = branch
        .field("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .all(|name| fields.field(name).is_some());
    let closed = branch.field("additionalProperties") == Some(&Value::Bool(false));
    required_present && (!closed || fields.keys().all(|name| properties.field(name).is_some()))
}

/// `branch` when it describes its own properties (a tagged newtype variant of a recursive type
/// has both a `$ref` and the tag's property), otherwise what its local `$ref` points at.
fn own_or_referenced<'a>(root: &'a Value, branch: &'a Value) -> &'a Value {
    if branch.field("properties").is_some() {
        branch
    } else {
        resolve(root, branch)
    }
}

/// `schema`, or what its local `$ref` points at.
fn resolve<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    schema
        .field("$ref")
        .and_then(Value::as_str)
        .and_then(|reference| reference.strip_prefix('#'))
        .and_then(|pointer| root.pointer(pointer))
        .unwrap_or(schema)
}

/// Whether a schema asks for an integer and no other number.
fn wants_integer(schema: &Map<String, Value>) -> bool {
    match schema.field("type") {
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

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{drop_output_nulls, prepare_instance};

    fn prepared(schema: &Value, mut instance: Value) -> Value {
        prepare_instance(schema, &mut instance);
        instance
    }

    #[test]
    fn the_null_of_an_optional_property_is_dropped_a_required_one_kept() {
        let schema = json!({
            "type": "object",
            "properties": {"name": {"type": "string"}, "limit": {"type": "integer"}},
            "required": ["name"],
        });
        assert_eq!(
            prepared(&schema, json!({"name": null, "limit": null, "other": null})),
            json!({"name": null, "other": null})
        );
    }

    #[test]
    fn whole_floats_become_integers_only_where_the_schema_says_integer() {
        let schema = json!({
            "type": "object",
            "properties": {
                "count": {"type": "integer"},
                "either": {"type": ["integer", "null"]},
                "ratio": {"type": "number"},
                "mixed": {"type": ["integer", "number"]},
                "half": {"type": "integer"},
                "below": {"type": "integer"},
                "huge": {"type": "integer"},
            },
        });
        let instance = json!({
            "count": 10.0, "either": 3.0, "ratio": 10.0, "mixed": 2.0, "half": 2.5,
            "below": -4.0, "huge": 1e17,
        });
        assert_eq!(
            prepared(&schema, instance),
            json!({
                "count": 10, "either": 3, "ratio": 10.0, "mixed": 2.0, "half": 2.5,
                "below": -4, "huge": 1e17,
            })
        );
    }

    #[test]
    fn integers_stay_exact() {
        let schema = json!({"type": "array", "items": {"type": "integer"}});
        let big = json!([9_007_199_254_740_993_u64, u64::MAX, i64::MIN]);
        assert_eq!(prepared(&schema, big.clone()), big);
    }

    /// Two variants that share a field of different types: only the one the tag names is
    /// prepared.
    #[test]
    fn the_variant_named_by_its_serde_tag_is_prepared() {
        let schema = json!({
            "oneOf": [
                {
                    "type": "object",
                    "properties": {"kind": {"type": "string", "enum": ["circle"]}, "size": {"type": "integer"}},
                    "required": ["kind", "size"],
                },
                {
                    "type": "object",
                    "properties": {"kind": {"type": "string", "const": "square"}, "size": {"type": "number"}},
                    "required": ["kind", "size"],
                },
            ],
        });
        assert_eq!(
            prepared(&schema, json!({"kind": "circle", "size": 2.0})),
            json!({"kind": "circle", "size": 2})
        );
        assert_eq!(
            prepared(&schema, json!({"kind": "square", "size": 2.0})),
            json!({"kind": "square", "size": 2.0})
        );
    }

    #[test]
    fn an_externally_tagged_variant_is_found_by_its_key() {
        let schema = json!({
            "oneOf": [
                {"type": "object", "properties": {"Int": {"type": "integer"}}, "required": ["Int"]},
                {"type": "object", "properties": {"Float": {"type": "number"}}, "required": ["Float"]},
            ],
        });
        assert_eq!(prepared(&schema, json!({"Int": 3.0})), json!({"Int": 3}));
        assert_eq!(
            prepared(&schema, json!({"Float": 3.0})),
            json!({"Float": 3.0})
        );
    }

    /// An untagged enum reads the first variant that fits; a closed variant does not fit an
    /// object with a field it lacks. (A variant of one required property and no other would be
    /// taken for an externally tagged one: the first has two.)
    #[test]
    fn an_untagged_object_goes_to_the_first_variant_it_fits() {
        let schema = json!({
            "anyOf": [
                {
                    "type": "object",
                    "properties": {"a": {"type": "integer"}, "c": {"type": "string"}},
                    "required": ["a"],
                    "additionalProperties": false,
                },
                {
                    "type": "object",
                    "properties": {"a": {"type": "number"}, "b": {"type": "string"}},
                    "required": ["a", "b"],
                },
            ],
        });
        assert_eq!(prepared(&schema, json!({"a": 1.0})), json!({"a": 1}));
        assert_eq!(
            prepared(&schema, json!({"a": 1.0, "b": "x"})),
            json!({"a": 1.0, "b": "x"})
        );
    }

    #[test]
    fn an_untagged_whole_float_is_an_integer_only_when_no_variant_takes_a_number() {
        let integer_or_string = json!({"anyOf": [{"type": "string"}, {"type": "integer"}]});
        assert_eq!(prepared(&integer_or_string, json!(4.0)), json!(4));
        let integer_or_number = json!({"anyOf": [{"type": "integer"}, {"type": "number"}]});
        assert_eq!(prepared(&integer_or_number, json!(4.0)), json!(4.0));
    }

    #[test]
    fn an_option_of_a_branching_type_is_prepared_through_its_one_real_branch() {
        let schema = json!({
            "type": "object",
            "properties": {
                "inner": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/Inner"}]},
            },
            "$defs": {
                "Inner": {"type": "object", "properties": {"n": {"type": "integer"}, "note": {"type": "string"}}},
            },
        });
        assert_eq!(
            prepared(&schema, json!({"inner": {"n": 5.0, "note": null}})),
            json!({"inner": {"n": 5}})
        );
        // The property takes `null` (as a `portable = false` schema says of an `Option`): the
        // `null` stays, for serde to read (`None`, or `Some(None)` for a double option).
        assert_eq!(
            prepared(&schema, json!({"inner": null})),
            json!({"inner": null})
        );
    }

    #[test]
    fn local_refs_are_followed_at_every_depth() {
        let schema = json!({
            "type": "array",
            "items": {"$ref": "#/$defs/Nested"},
            "$defs": {"Nested": {"type": ["integer", "array"], "items": {"$ref": "#/$defs/Nested"}}},
        });
        assert_eq!(
            prepared(&schema, json!([[[2.0]], 3.0, [4.5]])),
            json!([[[2]], 3, [4.5]])
        );
    }

    fn nested(levels: usize, innermost: Value) -> Value {
        (0..levels).fold(innermost, |inner, _| Value::Array(vec![inner]))
    }

    /// Each level of nesting costs two steps here (the item, then its `$ref`): 512 steps reach
    /// about 255 levels, and a `$ref` cycle that never reaches the instance ends.
    #[test]
    fn preparation_stops_at_its_depth_limit() {
        let schema = json!({"$ref": "#/$defs/N", "$defs": {"N": {"type": ["integer", "array"], "items": {"$ref": "#/$defs/N"}}}});
        assert_eq!(
            prepared(&schema, nested(200, json!(1.0))),
            nested(200, json!(1))
        );
        assert_eq!(
            prepared(&schema, nested(300, json!(1.0))),
            nested(300, json!(1.0))
        );
        let cycle = json!({
            "$ref": "#/$defs/A",
            "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
        });
        assert_eq!(prepared(&cycle, json!({"a": 1.0})), json!({"a": 1.0}));
    }

    #[test]
    fn additional_properties_and_tuples_are_prepared() {
        let schema = json!({
            "type": "object",
            "properties": {"pair": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "integer"}], "items": {"type": "integer"}}},
            "additionalProperties": {"type": "integer"},
        });
        assert_eq!(
            prepared(&schema, json!({"pair": [1.0, 2.0, 3.0], "extra": 4.0})),
            json!({"pair": [1.0, 2, 3], "extra": 4})
        );
    }

    #[derive(schemars::JsonSchema)]
    #[allow(dead_code, reason = "only its schema is used")]
    struct Report {
        total: u32,
        note: Option<String>,
        cells: Vec<Option<String>>,
    }

    /// The `null` of a `None` field goes (the output schema does not require it); a `null` the
    /// type holds elsewhere stays.
    #[test]
    fn output_nulls_are_dropped_only_for_optional_properties() {
        let mut value = json!({"total": 2, "note": null, "cells": [null, "x"]});
        drop_output_nulls::<Report>(&mut value);
        assert_eq!(value, json!({"total": 2, "cells": [null, "x"]}));
    }
}
