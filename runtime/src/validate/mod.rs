//! Validation of arguments and structured results against the schemas a tool advertises, with
//! messages a model can act on; [`prepare`] brings an instance to what the schema and serde both
//! accept first.

mod prepare;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{ValidationError, Validator};
use serde_json::Value;

pub(crate) use prepare::{drop_output_nulls, prepare_instance};

/// A compiled schema, built once per tool for its input and once for its output, that lists
/// every failure of an instance in words a model can act on.
pub(crate) struct SchemaValidator {
    validator: Validator,
}

impl SchemaValidator {
    /// Compiles the input schema `schema`; an invalid schema is a bug in the tool, reported at
    /// start-up. The standard `format`s it keeps (`uuid`, `date-time`, …) are checked: a model
    /// is told when an argument is not one.
    pub(crate) fn for_input(schema: &Value) -> Result<Self, String> {
        Self::new(schema, true)
    }

    /// Compiles the output schema `schema`. Formats stay annotations here: what serde writes for
    /// a type is the truth (a WHATWG URL, a year past 9999), not a stricter reading of the format.
    pub(crate) fn for_output(schema: &Value) -> Result<Self, String> {
        Self::new(schema, false)
    }

    fn new(schema: &Value, check_formats: bool) -> Result<Self, String> {
        jsonschema::options()
            .should_validate_formats(check_formats)
            .build(schema)
            .map(|validator| Self { validator })
            .map_err(|error| error.to_string())
    }

    /// Every failure, one `<path>: <message>` each, in document order.
    pub(crate) fn failures(&self, instance: &Value) -> Vec<String> {
        self.validator
            .iter_errors(instance)
            .map(|error| describe(&error))
            .collect()
    }
}

/// `<dotted.path>: <message>`; the path names the property a model must fix.
fn describe(error: &ValidationError<'_>) -> String {
    let mut path: Vec<String> = error
        .instance_path()
        .iter()
        .map(|s| s.to_string())
        .collect();
    let message = match error.kind() {
        ValidationErrorKind::Required { property } => {
            path.push(
                property
                    .as_str()
                    .map_or_else(|| property.to_string(), str::to_owned),
            );
            "required property is missing".to_owned()
        }
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
    };
    if path.is_empty() {
        format!("(root): {message}")
    } else {
        format!("{}: {message}", path.join("."))
    }
}

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

fn quoted_list(names: &[String]) -> String {
    names
        .iter()
        .map(|name| format!("'{name}'"))
        .collect::<Vec<_>>()
        .join(", ")
}
