//! Validation of arguments and structured results against the schemas a tool advertises, with
//! messages a model can act on; [`prepare`] brings an instance to what the schema and serde both
//! accept first.

mod prepare;

use std::sync::OnceLock;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{JsonType, ValidationError, Validator};
use serde_json::Value;

pub(crate) use prepare::{drop_output_nulls, prepare_instance, prepare_keeping_nulls};

/// A compiled schema, built at a tool's first call ([`LazyValidator`]) for its input and its
/// output, that lists every failure of an instance in words a model can act on.
pub(crate) struct SchemaValidator {
    validator: Validator,
    /// Checks a tool's structured content (not a client's arguments): a `null` where a number
    /// belongs is then a float `serde_json` could not write.
    output: bool,
}

impl SchemaValidator {
    /// Compiles the input schema `schema`; an invalid schema is a bug in the tool, reported at
    /// start-up. The standard `format`s it keeps (`uuid`, `date-time`, …) are checked: a model
    /// is told when an argument is not one.
    pub(crate) fn for_input(schema: &Value) -> Result<Self, String> {
        Self::new(schema, false)
    }

    /// Compiles the output schema `schema`. Formats stay annotations here: what serde writes for
    /// a type is the truth (a WHATWG URL, a year past 9999), not a stricter reading of the format.
    pub(crate) fn for_output(schema: &Value) -> Result<Self, String> {
        Self::new(schema, true)
    }

    /// Compiles `schema`, for structured content when `output` (its formats are not checked).
    fn new(schema: &Value, output: bool) -> Result<Self, String> {
        jsonschema::options()
            .should_validate_formats(!output)
            .build(schema)
            .map(|validator| Self { validator, output })
            .map_err(|error| error.to_string())
    }

    /// Every failure, one `<path>: <message>` each, in document order. A value that fits no
    /// branch of an enum is told what is wrong inside the branch it names (or that its tag is
    /// unknown), not only that it fits none.
    pub(crate) fn failures(&self, instance: &Value) -> Vec<String> {
        // Valid is the common case, and `is_valid` decides it without building errors.
        if self.validator.is_valid(instance) {
            return Vec::new();
        }
        let mut failures = Vec::new();
        for error in self.validator.iter_errors(instance) {
            describe_into(&error, self.output, &mut failures);
        }
        failures
    }
}

/// A tool's schema, compiled into a [`SchemaValidator`] at its first use. A compiled validator
/// is the largest thing a tool holds (some 25 KiB for an argument struct of four fields;
/// BENCHMARKS.md, "Many tools"), and a server of 1,000 tools sees few of them called. The schema
/// is compiled once when the tool is built all the same, and that validator dropped: an invalid
/// schema is still refused at start-up, with jsonschema's own message.
pub(crate) struct LazyValidator {
    /// Whether it checks structured content ([`SchemaValidator::for_output`]).
    output: bool,
    compiled: OnceLock<Result<SchemaValidator, String>>,
}

impl LazyValidator {
    /// Checks that `schema` compiles as [`SchemaValidator::for_input`] does, keeping nothing.
    pub(crate) fn for_input(schema: &Value) -> Result<Self, String> {
        SchemaValidator::for_input(schema)?;
        Ok(Self {
            output: false,
            compiled: OnceLock::new(),
        })
    }

    /// Checks that `schema` compiles as [`SchemaValidator::for_output`] does, keeping nothing.
    pub(crate) fn for_output(schema: &Value) -> Result<Self, String> {
        SchemaValidator::for_output(schema)?;
        Ok(Self {
            output: true,
            compiled: OnceLock::new(),
        })
    }

    /// The validator of `schema` (the one checked when this was made), compiled on the first
    /// call; the same again afterwards. An error only if compiling it failed this time, which
    /// the check at start-up rules out for a schema that did not change.
    pub(crate) fn get(&self, schema: &Value) -> Result<&SchemaValidator, &str> {
        self.compiled
            .get_or_init(|| SchemaValidator::new(schema, self.output))
            .as_ref()
            .map_err(String::as_str)
    }

    /// Whether it was compiled (called at least once).
    #[cfg(test)]
    pub(crate) fn is_compiled(&self) -> bool {
        self.compiled.get().is_some()
    }
}

/// Adds the failures `error` stands for to `failures`: for an enum (`oneOf`/`anyOf`) that no
/// branch fits, those of the branch the value names ([`chosen_branch`]).
fn describe_into(error: &ValidationError<'_>, output: bool, failures: &mut Vec<String>) {
    let (ValidationErrorKind::OneOfNotValid { context: branches }
    | ValidationErrorKind::AnyOf { context: branches }) = error.kind()
    else {
        return failures.push(describe(error, output));
    };
    match chosen_branch(branches) {
        Chosen::Branch(errors) => {
            for error in errors {
                describe_into(error, output, failures);
            }
        }
        Chosen::UnknownTag(tag, names) => failures.push(format!(
            "{}: must be one of {}, got {}",
            dotted(tag),
            names.join(", "),
            describe_value(tag.instance())
        )),
        Chosen::None => failures.push(describe(error, output)),
    }
}

/// Which branch of an enum a value meant.
enum Chosen<'e> {
    /// The branch it names (its tag fits), or for an enum without tags the one it misses least.
    Branch(&'e [ValidationError<'static>]),
    /// Its tag names no branch: the tag's failure, and every branch's tag value.
    UnknownTag(&'e ValidationError<'static>, Vec<String>),
    None,
}

/// A branch whose tag (a property of one allowed value) the value does not carry is not the one
/// it meant. Of the others the one with the fewest failures is; when every branch's tag is
/// wrong, the tag itself is unknown.
fn chosen_branch<'e>(branches: &'e [Vec<ValidationError<'static>>]) -> Chosen<'e> {
    let named = branches
        .iter()
        .filter(|errors| tag_failure(errors).is_none())
        .min_by_key(|errors| errors.len());
    if let Some(errors) = named {
        return Chosen::Branch(errors);
    }
    let tags: Vec<&ValidationError<'static>> = branches
        .iter()
        .filter_map(|errors| tag_failure(errors))
        .collect();
    let Some(first) = tags.first() else {
        return Chosen::None;
    };
    let tag_values = tags
        .iter()
        .filter(|tag| tag.instance_path() == first.instance_path())
        .filter_map(|tag| match tag.kind() {
            ValidationErrorKind::Constant { expected_value } => Some(expected_value.to_string()),
            ValidationErrorKind::Enum { options } => Some(options[0].to_string()),
            _ => None,
        })
        .collect();
    Chosen::UnknownTag(first, tag_values)
}

/// The failure of a branch's tag, a property of one allowed value, if the value missed it.
fn tag_failure<'e>(errors: &'e [ValidationError<'static>]) -> Option<&'e ValidationError<'static>> {
    errors.iter().find(|error| match error.kind() {
        ValidationErrorKind::Constant { .. } => true,
        ValidationErrorKind::Enum { options } => options.as_array().is_some_and(|o| o.len() == 1),
        _ => false,
    })
}

/// The dotted path of the value `error` is about, `(root)` for the whole.
fn dotted(error: &ValidationError<'_>) -> String {
    let path: Vec<String> = error
        .instance_path()
        .iter()
        .map(|s| s.to_string())
        .collect();
    if path.is_empty() {
        "(root)".to_owned()
    } else {
        path.join(".")
    }
}

/// `<dotted.path>: <message>`; the path names the property a model must fix (for a missing
/// one, the property itself rather than the object that lacks it). In `output`, a `null` where
/// only a number belongs was a NaN or an infinity: `serde_json` writes those as `null`.
fn describe(error: &ValidationError<'_>, output: bool) -> String {
    let mut path: Vec<String> = error
        .instance_path()
        .iter()
        .map(|s| s.to_string())
        .collect();
    if let ValidationErrorKind::Required { property } = error.kind() {
        path.push(
            property
                .as_str()
                .map_or_else(|| property.to_string(), str::to_owned),
        );
    }
    let message = if output && is_lost_float(error) {
        "the value was NaN or infinite, which JSON cannot carry (it would be sent as null): \
         return a finite number, or an `Option` that is `None`"
            .to_owned()
    } else {
        message(error)
    };
    if path.is_empty() {
        format!("(root): {message}")
    } else {
        format!("{}: {message}", path.join("."))
    }
}

/// What is wrong, in words a model can act on: the limit it missed and the value it sent.
fn message(error: &ValidationError<'_>) -> String {
    match error.kind() {
        ValidationErrorKind::Required { .. } => "required property is missing".to_owned(),
        ValidationErrorKind::Type { kind } => {
            format!(
                "expected {}, got {}",
                expected_types(kind),
                describe_value(error.instance())
            )
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            format!(
                "unknown properties {} are not allowed",
                quoted_list(unexpected)
            )
        }
        ValidationErrorKind::Enum { options } => {
            format!(
                "expected one of {options}, got {}",
                describe_value(error.instance())
            )
        }
        ValidationErrorKind::Minimum { limit } => {
            format!("must be at least {limit}, got {}", error.instance())
        }
        ValidationErrorKind::Maximum { limit } => {
            format!("must be at most {limit}, got {}", error.instance())
        }
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            format!("must be greater than {limit}, got {}", error.instance())
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            format!("must be less than {limit}, got {}", error.instance())
        }
        ValidationErrorKind::MinLength { limit } => {
            format!("must be at least {limit} characters long")
        }
        ValidationErrorKind::MaxLength { limit } => {
            format!("must be at most {limit} characters long")
        }
        ValidationErrorKind::MinItems { limit } => format!("must have at least {limit} items"),
        ValidationErrorKind::MaxItems { limit } => format!("must have at most {limit} items"),
        ValidationErrorKind::Pattern { pattern } => format!("must match the pattern {pattern}"),
        ValidationErrorKind::UniqueItems => "items must be unique".to_owned(),
        ValidationErrorKind::Format { format } => {
            format!("must be a valid {format}, got {}", error.instance())
        }
        _ => error.to_string(),
    }
}

/// Whether `error` is a `null` where only numbers belong: what `serde_json` makes of a float that
/// is NaN or infinite (and of nothing else a derived `Serialize` writes for a number).
fn is_lost_float(error: &ValidationError<'_>) -> bool {
    let ValidationErrorKind::Type { kind } = error.kind() else {
        return false;
    };
    let numeric = |kind: &JsonType| matches!(kind, JsonType::Number | JsonType::Integer);
    error.instance().is_null()
        && match kind {
            TypeKind::Single(kind) => numeric(kind),
            TypeKind::Multiple(kinds) => kinds.iter().all(|kind| numeric(&kind)),
        }
}

/// `integer`, or `integer or string` for a list of types.
fn expected_types(kind: &TypeKind) -> String {
    match kind {
        TypeKind::Single(kind) => kind.to_string(),
        TypeKind::Multiple(kinds) => kinds
            .iter()
            .map(|kind| kind.to_string())
            .collect::<Vec<_>>()
            .join(" or "),
    }
}

/// The kind of a value, and the value itself when it is short (a scalar): `string "old"`.
fn describe_value(value: &Value) -> String {
    let kind = match value {
        Value::Null => return "null".to_owned(),
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => return "array".to_owned(),
        Value::Object(_) => return "object".to_owned(),
    };
    format!("{kind} {value}")
}

/// The names quoted (`'a', 'b'`), the first [`MAX_LISTED_NAMES`] of them and how many more:
/// 10,000 unknown arguments make a short message, not one of 10,000 names.
fn quoted_list(names: &[String]) -> String {
    let quoted = names
        .iter()
        .take(MAX_LISTED_NAMES)
        .map(|name| format!("'{name}'"))
        .collect::<Vec<_>>()
        .join(", ");
    match names.len().checked_sub(MAX_LISTED_NAMES) {
        Some(more @ 1..) => format!("{quoted} and {more} more"),
        _ => quoted,
    }
}

/// The most names one message quotes.
const MAX_LISTED_NAMES: usize = 20;

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{LazyValidator, SchemaValidator};

    /// A tagged enum (`kind`) of two objects, as the portable rewrite leaves it.
    fn filter_schema() -> Value {
        let branch = |tag: &str, field: &str, format: &str| {
            json!({
                "type": "object",
                "properties": {
                    "kind": {"type": "string", "enum": [tag]},
                    field: {"type": "string", "format": format}
                },
                "required": ["kind", field],
                "additionalProperties": false
            })
        };
        json!({
            "type": "object",
            "properties": {"filter": {"type": "object", "oneOf": [
                branch("by_id", "id", "uuid"),
                branch("by_date", "date", "date"),
            ]}},
            "required": ["filter"]
        })
    }

    #[test]
    fn an_enum_failure_names_the_field_inside_the_branch_the_value_names() {
        let schema = filter_schema();
        assert_eq!(
            input_failures(&schema, &json!({"filter": {"kind": "by_id", "id": "nope"}})),
            [r#"filter.id: must be a valid uuid, got "nope""#]
        );
        assert_eq!(
            input_failures(&schema, &json!({"filter": {"kind": "by_date"}})),
            ["filter.date: required property is missing"]
        );
        assert_eq!(
            input_failures(&schema, &json!({"filter": {"kind": "by_what", "id": "x"}})),
            [r#"filter.kind: must be one of "by_id", "by_date", got string "by_what""#]
        );
    }

    fn input_failures(schema: &Value, instance: &Value) -> Vec<String> {
        SchemaValidator::for_input(schema)
            .expect("a valid schema")
            .failures(instance)
    }

    fn person() -> Value {
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 2, "maxLength": 10, "pattern": "^[a-z]+$"},
                "age": {"type": "integer", "minimum": 18, "maximum": 130},
                "score": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
                "role": {"type": "string", "enum": ["admin", "member"]},
                "address": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
                "tags": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 2, "uniqueItems": true},
                "id": {"type": "string", "format": "uuid"},
                "either": {"type": ["integer", "string"]},
            },
            "required": ["name"],
            "additionalProperties": false,
        })
    }

    /// One failing property at a time, each message in its exact words (a table: one row per
    /// message, hence its length).
    #[test]
    fn each_message_names_the_path_and_what_to_fix() {
        let cases = [
            (json!({}), "name: required property is missing"),
            (
                json!({"name": "ab", "age": "old"}),
                r#"age: expected integer, got string "old""#,
            ),
            (
                json!({"name": "ab", "age": 36.5}),
                "age: expected integer, got number 36.5",
            ),
            (json!({"name": null}), "name: expected string, got null"),
            (
                json!({"name": "ab", "either": true}),
                "either: expected integer or string, got boolean true",
            ),
            (
                json!({"name": "ab", "age": 5}),
                "age: must be at least 18, got 5",
            ),
            (
                json!({"name": "ab", "age": 200}),
                "age: must be at most 130, got 200",
            ),
            (
                json!({"name": "ab", "score": 0}),
                "score: must be greater than 0, got 0",
            ),
            (
                json!({"name": "ab", "score": 1}),
                "score: must be less than 1, got 1",
            ),
            (
                json!({"name": "a"}),
                "name: must be at least 2 characters long",
            ),
            (
                json!({"name": "abcdefghijk"}),
                "name: must be at most 10 characters long",
            ),
            (
                json!({"name": "AB"}),
                "name: must match the pattern ^[a-z]+$",
            ),
            (
                json!({"name": "ab", "role": "boss"}),
                r#"role: expected one of ["admin","member"], got string "boss""#,
            ),
            (
                json!({"name": "ab", "address": {}}),
                "address.city: required property is missing",
            ),
            (
                json!({"name": "ab", "address": {"city": 3}}),
                "address.city: expected string, got integer 3",
            ),
            (
                json!({"name": "ab", "tags": []}),
                "tags: must have at least 1 items",
            ),
            (
                json!({"name": "ab", "tags": [1, 2, 3]}),
                "tags: must have at most 2 items",
            ),
            (
                json!({"name": "ab", "tags": [1, 1]}),
                "tags: items must be unique",
            ),
            (
                json!({"name": "ab", "tags": [1, "two"]}),
                r#"tags.1: expected integer, got string "two""#,
            ),
            (
                json!({"name": "ab", "id": "nope"}),
                r#"id: must be a valid uuid, got "nope""#,
            ),
            (
                json!({"name": "ab", "extra": 1, "more": 2}),
                "(root): unknown properties 'extra', 'more' are not allowed",
            ),
        ];
        for (instance, message) in cases {
            assert_eq!(
                input_failures(&person(), &instance),
                [message],
                "{instance}"
            );
        }
    }

    #[test]
    fn every_failure_is_listed_in_document_order() {
        assert_eq!(
            input_failures(
                &person(),
                &json!({"name": "a", "age": "old", "tags": [1, "x"]})
            ),
            [
                "name: must be at least 2 characters long",
                r#"age: expected integer, got string "old""#,
                r#"tags.1: expected integer, got string "x""#,
            ]
        );
    }

    #[test]
    fn a_root_of_the_wrong_type_is_named_root() {
        assert_eq!(
            input_failures(&json!({"type": "object"}), &json!([1])),
            ["(root): expected object, got array"]
        );
    }

    /// What serde writes for a type is the truth for output: formats are not checked there.
    #[test]
    fn formats_are_checked_in_input_only() {
        let schema = json!({"type": "string", "format": "date-time"});
        let instance = json!("yesterday");
        assert_eq!(
            input_failures(&schema, &instance),
            [r#"(root): must be a valid date-time, got "yesterday""#]
        );
        let output = SchemaValidator::for_output(&schema).expect("a valid schema");
        assert!(output.failures(&instance).is_empty());
    }

    #[test]
    fn an_invalid_schema_is_refused_when_compiled() {
        assert!(SchemaValidator::for_input(&json!({"type": 5})).is_err());
    }

    /// Checked when made (a broken schema is a start-up error), compiled when first used.
    #[test]
    fn a_lazy_validator_is_checked_when_made_and_compiled_when_first_used() {
        assert!(LazyValidator::for_input(&json!({"type": 5})).is_err());
        assert!(LazyValidator::for_output(&json!({"pattern": "("})).is_err());
        let schema = person();
        let lazy = LazyValidator::for_input(&schema).expect("a valid schema");
        assert!(!lazy.is_compiled());
        let validator = lazy.get(&schema).expect("compiles");
        assert_eq!(
            validator.failures(&json!({})),
            ["name: required property is missing"]
        );
        assert!(lazy.is_compiled());
    }
}
