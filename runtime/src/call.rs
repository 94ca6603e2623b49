//! One tool call: prepare and validate the arguments → deserialize them → run the fn (a panic
//! caught) → its result → check its structured content. Every error text a client can get from
//! that path is written here, once (the crate docs, "Errors, the contract").

use std::panic::AssertUnwindSafe;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::arguments::{Arguments, Refused, Segment};
use tokio_util::sync::CancellationToken;

use crate::context::Context;
use crate::limits::CallClock;
use crate::result::CallToolResult;
use crate::schema;
use crate::validate::{SchemaValidator, prepare_instance, prepare_keeping_nulls};

/// What runs a tool: it gets the validated arguments and deserializes them itself (a `#[tool]`
/// adapter through [`deserialize_arguments`]).
pub(crate) type Handler =
    Arc<dyn Fn(Value, Context) -> BoxFuture<'static, CallToolResult> + Send + Sync>;

/// What one call needs of a tool, borrowed from it: the registry owns tools, this module only
/// runs them.
pub(crate) struct Callee<'a> {
    /// The tool's name, for error texts and logs.
    pub(crate) name: &'a str,
    /// The advertised input schema, which arguments are prepared for.
    pub(crate) input_schema: &'a Value,
    /// The compiled input schema.
    pub(crate) input: &'a SchemaValidator,
    /// The compiled output schema, when the tool has one.
    pub(crate) output: Option<&'a SchemaValidator>,
    /// `structuredContent` is checked (and sent) as `{"result": …}`: a non-object output type.
    pub(crate) wraps_output: bool,
    /// The tool's handler.
    pub(crate) handler: &'a Handler,
    /// Its handler reads the arguments with serde ([`deserialize_arguments`], a `#[tool]`
    /// fn's): it is given the `null`s of optional properties, which validation leaves out (see
    /// [`checked_arguments`](Self::checked_arguments)).
    pub(crate) reads_nulls: bool,
}

impl Callee<'_> {
    /// Validates `arguments` (absent means `{}`), runs the tool, and checks its structured output.
    /// Every failure is a result with `isError: true`; a panic in the tool is one too.
    pub(crate) async fn call(
        self,
        arguments: Option<Map<String, Value>>,
        context: Context,
    ) -> CallToolResult {
        let arguments = match self.checked_arguments(arguments) {
            Ok(arguments) => arguments,
            Err(invalid) => return *invalid,
        };
        let result = run_guarded(self.name, self.handler, arguments, context).await;
        self.checked_output(result)
    }

    /// Why `arguments` are refused (the `isError` result's text), checked as
    /// [`call`](Self::call) checks them; `None` when valid.
    pub(crate) fn refusal(&self, arguments: Option<&Map<String, Value>>) -> Option<String> {
        self.checked_arguments(arguments.cloned())
            .err()
            .map(|refused| refused.text_content())
    }

    /// The arguments, prepared ([`prepare_instance`]) and valid against the input schema. A
    /// `null` of an optional property (advertised as its type, not nullable) is validated as
    /// left out; a handler that [`reads_nulls`](Self::reads_nulls) is given it all the same, for
    /// the user's type to read (a double-option `deserialize_with`: `Some(None)`), or to refuse
    /// and be given it left out ([`deserialize_arguments`]).
    fn checked_arguments(
        &self,
        arguments: Option<Map<String, Value>>,
    ) -> Result<Value, Box<CallToolResult>> {
        let mut arguments = Value::Object(arguments.unwrap_or_default());
        let with_nulls = (self.reads_nulls
            && prepare_keeping_nulls(self.input_schema, &mut arguments))
        .then(|| arguments.clone());
        prepare_instance(self.input_schema, &mut arguments);
        let failures = self.input.failures(&arguments);
        if failures.is_empty() {
            Ok(with_nulls.unwrap_or(arguments))
        } else {
            Err(Box::new(invalid_arguments(self.name, &listed(&failures))))
        }
    }

    /// `result`, its `structuredContent` checked against the output schema (and wrapped as
    /// `{"result": …}` first when the output type is not an object). An error result is passed
    /// on unchecked: it has no structured content to promise.
    fn checked_output(&self, mut result: CallToolResult) -> CallToolResult {
        let (Some(output), false) = (self.output, result.is_error) else {
            return wrap_unschematized(result);
        };
        let name = self.name;
        let Some(structured) = result.structured_content.take() else {
            return CallToolResult::error(format!(
                "Output validation error: Tool {name} has an output schema but no structured content was provided"
            ));
        };
        let structured = if self.wraps_output {
            wrap_result(structured)
        } else {
            structured
        };
        let failures = output.failures(&structured);
        if !failures.is_empty() {
            tracing::error!(
                tool = name,
                ?failures,
                "structured content does not match the tool's output schema"
            );
            return CallToolResult::error(format!(
                "Output validation error: Invalid structured content for tool {name}: {}",
                listed(&failures)
            ));
        }
        result.structured_content = Some(structured);
        result
    }
}

/// Runs the handler; a panic (also one before it returns its future) becomes an `isError`
/// result. Whether the call completes, panics, or its future is dropped (cancelled), nothing more
/// may be sent for this request once it ends: [`FinishOnDrop`] ends the context.
async fn run_guarded(
    name: &str,
    handler: &Handler,
    arguments: Value,
    context: Context,
) -> CallToolResult {
    let finish = FinishOnDrop(context.clone());
    let call = async { handler(arguments, context).await };
    let result = AssertUnwindSafe(call).catch_unwind().await;
    result.unwrap_or_else(|panic| {
        let message = panic_message(panic.as_ref());
        tracing::error!(tool = name, panic = message, "tool panicked");
        finish.0.mark_panicked();
        CallToolResult::error(format!(
            "Error executing tool {name}: the tool panicked: {message}"
        ))
    })
}

/// Bounds a call (its hooks included) by `limit` of its own time, on `clock` (which stops while
/// the call waits for the client's answers): past it, the call's context is cancelled (as when
/// the client cancels), its future dropped, and its result is an `isError` naming the limit.
pub(crate) async fn time_limited<E>(
    call: impl Future<Output = Result<CallToolResult, E>>,
    name: &str,
    limit: Duration,
    clock: &CallClock,
    cancellation: &CancellationToken,
) -> Result<CallToolResult, E> {
    if let Some(outcome) = within(call, limit, clock, cancellation).await {
        return outcome;
    }
    tracing::warn!(tool = name, ?limit, "tool call stopped at its time limit");
    Ok(CallToolResult::error(format!(
        "Error executing tool {name}: it ran longer than its time limit of {limit:?} and was stopped"
    )))
}

/// Runs `work` (a call, a prompt's get, a completer) for at most `limit` of its own time on
/// `clock`: `None` when it was stopped there, its context cancelled before its future is
/// dropped, so that what it drops sees why.
pub(crate) async fn within<T>(
    work: impl Future<Output = T>,
    limit: Duration,
    clock: &CallClock,
    cancellation: &CancellationToken,
) -> Option<T> {
    let start = tokio::time::Instant::now();
    let mut work = std::pin::pin!(work);
    tokio::select! {
        biased;
        outcome = &mut work => return Some(outcome),
        () = clock.reached(start, limit) => {}
    }
    cancellation.cancel();
    None
}

/// Turns validated arguments into `T`; a failure (rare after validation: a type serde checks
/// more strictly than its schema says) is an `isError` result naming the field, as validation
/// failures do: `<path>: <message>`. A `null` member the type refuses (one validation took as
/// left out, [`Callee::checked_arguments`]: `#[serde(default)] count: u32`) is read as left
/// out: removed where serde says, or, where it cannot say (an untagged enum), every one.
pub(crate) fn deserialize_arguments<T: DeserializeOwned>(
    tool: &str,
    mut arguments: Value,
) -> Result<T, Box<CallToolResult>> {
    let mut nulls_left = true;
    loop {
        // One deserializer per argument type, which says where it refused them (`arguments`).
        let refused = match T::deserialize(Arguments(&arguments)) {
            Ok(parsed) => return Ok(parsed),
            Err(refused) => refused,
        };
        if remove_null_at(&mut arguments, &refused) {
            continue;
        }
        if nulls_left && remove_member_nulls(&mut arguments) {
            nulls_left = false;
            continue;
        }
        return Err(Box::new(refused_result(tool, &arguments, &refused)));
    }
}

/// Removes the `null` object member serde refused, if that is what is there.
fn remove_null_at(arguments: &mut Value, refused: &Refused) -> bool {
    let mut segments: Vec<&Segment> = refused.path().collect();
    let Some(Segment::Key(key)) = segments.pop() else {
        return false;
    };
    let mut value = arguments;
    for segment in segments {
        let next = match segment {
            Segment::Index(index) => value.get_mut(*index),
            Segment::Key(key) => value.get_mut(key),
            Segment::RefusedKey(_) | Segment::Variant(_) => None,
        };
        let Some(next) = next else { return false };
        value = next;
    }
    match value {
        Value::Object(object) if object.get(key).is_some_and(Value::is_null) => {
            object.remove(key);
            true
        }
        _ => false,
    }
}

/// Removes every `null` object member, at every depth; whether there was one.
fn remove_member_nulls(arguments: &mut Value) -> bool {
    let mut removed = false;
    let mut pending = vec![arguments];
    while let Some(value) = pending.pop() {
        match value {
            Value::Object(object) => {
                let before = object.len();
                object.retain(|_, member| !member.is_null());
                removed |= object.len() != before;
                pending.extend(object.values_mut());
            }
            Value::Array(items) => pending.extend(items.iter_mut()),
            _ => {}
        }
    }
    removed
}

/// The result for arguments serde refused. Not generic: each argument type compiles only its
/// one `deserialize` call above, the message is built by this one copy.
fn refused_result(tool: &str, arguments: &Value, refused: &Refused) -> CallToolResult {
    let path = arguments_path(refused);
    let message = refused.error().to_string();
    let message = if message.starts_with("invalid type: floating point") {
        out_of_range(arguments, refused).unwrap_or(message)
    } else {
        message
    };
    invalid_arguments(tool, &format!("{path}: {message}"))
}

/// `a.0.b`, the path of the value serde refused, `(root)` for the whole arguments: the form of
/// a validation failure's path.
fn arguments_path(refused: &Refused) -> String {
    let segments: Vec<String> = refused
        .path()
        .map(|segment| match segment {
            Segment::Key(name) | Segment::RefusedKey(name) | Segment::Variant(name) => name.clone(),
            Segment::Index(index) => index.to_string(),
        })
        .collect();
    if segments.is_empty() {
        "(root)".to_owned()
    } else {
        segments.join(".")
    }
}

/// An integer `serde_json` could not read exactly (beyond `i64`/`u64`: it became a float) that
/// an integer type refused: say so, rather than "invalid type: floating point".
fn out_of_range(arguments: &Value, refused: &Refused) -> Option<String> {
    let mut value = arguments;
    for segment in refused.path() {
        value = match segment {
            Segment::Index(index) => value.get(*index)?,
            Segment::Key(key) => value.get(key)?,
            Segment::RefusedKey(_) | Segment::Variant(_) => return None,
        };
    }
    let float = value.as_f64().filter(|float| float.fract() == 0.0)?;
    // At the ends of the range a value past them was rounded onto them: it is out of range too.
    #[allow(
        clippy::cast_precision_loss,
        reason = "the ends as floats are what a rounded value is compared with"
    )]
    let (least, most) = (i64::MIN as f64, u64::MAX as f64);
    Some(if float <= least || float >= most {
        format!(
            "integer out of range: at least {} and at most {} are read exactly, got {float:e}",
            i64::MIN,
            u64::MAX
        )
    } else {
        format!("write the integer with digits only (no exponent or fraction), got {float:e}")
    })
}

/// The input schema of a tool whose lone parameter `name` is of a type of the user's: the
/// schema of its type when that is an object (an argument struct; the parameter's doc comment
/// describes nothing there), otherwise an object with one property named after the parameter,
/// described by `description` (its doc comment), required unless the type takes `null` (an
/// `Option`). Whether the type is an object is known only here, at start-up: the macro sees
/// only its name.
pub(crate) fn lone_parameter_schema(
    schema: fn() -> Value,
    takes_null: &dyn Fn() -> bool,
    name: &str,
    description: Option<&str>,
) -> Value {
    let schema = schema();
    if schema::is_object_schema(&schema) {
        return schema;
    }
    let mut wrapped = schema::wrap_in_property(schema, name);
    if let Some(description) = description {
        wrapped["properties"][name]["description"] = Value::String(description.to_owned());
    }
    if takes_null() {
        wrapped["required"] = Value::Array(Vec::new());
    }
    wrapped["additionalProperties"] = Value::Bool(false);
    wrapped
}

/// The arguments of a lone parameter `name`, as its type reads them: the whole arguments for an
/// object type, the property `name` (`null` when absent) for one that
/// [`lone_parameter_schema`] made a property. The choice is made once per tool, at its first
/// call.
pub(crate) fn lone_parameter_arguments(
    is_property: &OnceLock<bool>,
    schema: fn() -> Value,
    name: &str,
    arguments: Value,
) -> Value {
    // Decided once per tool, in a cell of its own: a call reads it without a lock.
    let is_property = *is_property.get_or_init(|| !schema::is_object_schema(&schema()));
    match arguments {
        Value::Object(mut object) if is_property => object.remove(name).unwrap_or(Value::Null),
        arguments => arguments,
    }
}

/// The most failures one message names: a model acts on the first few, and a call with 10,000
/// wrong arguments must not get a message of 10,000 clauses.
const MAX_LISTED_FAILURES: usize = 20;

/// The failures, comma-separated, the first [`MAX_LISTED_FAILURES`] of them and how many more.
fn listed(failures: &[String]) -> String {
    let shown = failures[..failures.len().min(MAX_LISTED_FAILURES)].join(", ");
    match failures.len().checked_sub(MAX_LISTED_FAILURES) {
        Some(more @ 1..) => format!("{shown}, and {more} more"),
        _ => shown,
    }
}

/// The one text of arguments a tool refuses, from validation or from serde: `failures` is
/// `<path>: <message>, …`.
fn invalid_arguments(tool: &str, failures: &str) -> CallToolResult {
    CallToolResult::error(format!(
        "Input validation error: Invalid arguments for tool {tool}: {failures}"
    ))
}

/// Ends a request's notifications when the call ends, however it ends.
struct FinishOnDrop(Context);

impl Drop for FinishOnDrop {
    fn drop(&mut self) {
        self.0.finish();
    }
}

/// Structured content without an output schema (an `impl IntoToolResult` return type) must
/// still be an object, as MCP requires: a non-object value is wrapped as `{"result": …}`, the
/// wrapping of `Json<T>` for a non-object `T`.
fn wrap_unschematized(mut result: CallToolResult) -> CallToolResult {
    if let Some(structured) = result.structured_content.take() {
        result.structured_content = Some(if structured.is_object() {
            structured
        } else {
            wrap_result(structured)
        });
    }
    result
}

/// `{"result": value}`, the structured content of a non-object output type.
fn wrap_result(value: Value) -> Value {
    let mut wrapped = Map::new();
    wrapped.insert("result".into(), value);
    Value::Object(wrapped)
}

/// The text of a panic payload (`panic!` gives a `&str` or a `String`).
pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a non-string panic payload")
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    /// A handler for a [`Callee`] whose call is not run.
    fn idle_handler() -> Handler {
        Arc::new(|_, _| Box::pin(async { CallToolResult::text("unused") }))
    }

    fn callee<'a>(
        input_schema: &'a Value,
        input: &'a SchemaValidator,
        output: Option<&'a SchemaValidator>,
        wraps_output: bool,
        handler: &'a Handler,
    ) -> Callee<'a> {
        Callee {
            name: "weather",
            input_schema,
            input,
            output,
            wraps_output,
            handler,
            reads_nulls: true,
        }
    }

    #[test]
    fn refused_arguments_name_the_tool_and_every_failure() {
        let result = invalid_arguments("weather", "city: required, days: must be at least 1");
        assert!(result.is_error);
        assert_eq!(
            result.text_content(),
            "Input validation error: Invalid arguments for tool weather: city: required, days: must be at least 1"
        );
    }

    #[test]
    fn a_long_list_of_failures_names_the_first_twenty_and_counts_the_rest() {
        let failures: Vec<String> = (0..25).map(|i| format!("{i}: wrong")).collect();
        let expected = (0..20)
            .map(|i| format!("{i}: wrong"))
            .collect::<Vec<_>>()
            .join(", ");
        assert_eq!(listed(&failures), format!("{expected}, and 5 more"));
        assert_eq!(listed(&failures[..20]), expected);
        assert_eq!(listed(&failures[..1]), "0: wrong");
        assert_eq!(listed(&[]), "");
    }

    #[test]
    fn absent_arguments_are_an_empty_object_and_invalid_ones_are_refused_with_their_paths() {
        let schema = json!({
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        });
        let input = SchemaValidator::for_input(&schema).unwrap();
        let handler = idle_handler();
        let callee = callee(&schema, &input, None, false, &handler);
        let mut arguments = Map::new();
        arguments.insert("city".into(), json!("Oslo"));
        assert_eq!(
            callee.checked_arguments(Some(arguments)).unwrap(),
            json!({"city": "Oslo"})
        );
        let refused = callee.checked_arguments(None).unwrap_err();
        assert!(refused.is_error);
        assert!(
            refused
                .text_content()
                .starts_with("Input validation error: Invalid arguments for tool weather: "),
            "{}",
            refused.text_content()
        );
        assert!(
            refused.text_content().contains("city"),
            "{}",
            refused.text_content()
        );
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code, reason = "read only to be refused")]
    struct Forecast {
        days: Vec<u8>,
    }

    #[test]
    fn arguments_serde_refuses_name_the_field_path() {
        let refused =
            deserialize_arguments::<Forecast>("weather", json!({"days": [1, "two"]})).unwrap_err();
        assert!(refused.is_error);
        assert_eq!(
            refused.text_content(),
            "Input validation error: Invalid arguments for tool weather: days.1: invalid type: string \"two\", expected u8"
        );
    }

    #[test]
    fn an_integer_written_as_a_float_is_told_how_to_write_it() {
        let refused =
            deserialize_arguments::<Forecast>("weather", json!({"days": [1e2]})).unwrap_err();
        assert_eq!(
            refused.text_content(),
            "Input validation error: Invalid arguments for tool weather: days.0: write the integer with digits only (no exponent or fraction), got 1e2"
        );
    }

    #[test]
    fn an_integer_past_what_json_reads_exactly_is_out_of_range() {
        #[derive(Debug, Deserialize)]
        #[allow(dead_code, reason = "read only to be refused")]
        struct Count {
            n: i64,
        }
        let arguments: Value = serde_json::from_str(r#"{"n": 100000000000000000000}"#).unwrap();
        let refused = deserialize_arguments::<Count>("weather", arguments).unwrap_err();
        assert_eq!(
            refused.text_content(),
            format!(
                "Input validation error: Invalid arguments for tool weather: n: integer out of range: at least {} and at most {} are read exactly, got 1e20",
                i64::MIN,
                u64::MAX
            )
        );
    }

    fn object_schema() -> Value {
        json!({"type": "object", "properties": {"city": {"type": "string"}}})
    }

    fn string_schema() -> Value {
        json!({"type": "string"})
    }

    #[test]
    fn a_lone_object_parameter_is_the_arguments_and_any_other_a_required_property() {
        assert_eq!(
            lone_parameter_schema(object_schema, &|| false, "query", None),
            object_schema()
        );
        assert_eq!(
            lone_parameter_schema(string_schema, &|| false, "query", None),
            json!({
                "type": "object",
                "properties": {"query": {"type": "string"}},
                "required": ["query"],
                "additionalProperties": false,
            })
        );
        let optional = lone_parameter_schema(string_schema, &|| true, "query", None);
        assert_eq!(optional["required"], json!([]));
    }

    #[test]
    fn a_lone_parameter_reads_the_whole_arguments_or_its_property() {
        fn object() -> Value {
            json!({"type": "object"})
        }
        fn integer() -> Value {
            json!({"type": "integer"})
        }
        let arguments = json!({"query": 7});
        let integer_cell = OnceLock::new();
        assert_eq!(
            lone_parameter_arguments(&OnceLock::new(), object, "query", arguments.clone()),
            arguments
        );
        assert_eq!(
            lone_parameter_arguments(&integer_cell, integer, "query", arguments),
            json!(7)
        );
        assert_eq!(
            lone_parameter_arguments(&integer_cell, integer, "query", json!({})),
            Value::Null
        );
    }

    #[test]
    fn structured_content_without_a_schema_is_always_an_object() {
        let bare = CallToolResult {
            structured_content: Some(json!([1, 2])),
            ..CallToolResult::text("[1,2]")
        };
        assert_eq!(
            wrap_unschematized(bare).structured_content,
            Some(json!({"result": [1, 2]}))
        );
        let object = CallToolResult {
            structured_content: Some(json!({"a": 1})),
            ..CallToolResult::text("{}")
        };
        assert_eq!(
            wrap_unschematized(object).structured_content,
            Some(json!({"a": 1}))
        );
        let text = wrap_unschematized(CallToolResult::text("hi"));
        assert_eq!(text.structured_content, None);
    }

    #[test]
    fn structured_content_is_checked_against_the_output_schema() {
        let schema = json!({"type": "object"});
        let input = SchemaValidator::for_input(&schema).unwrap();
        let output = SchemaValidator::for_output(&json!({
            "type": "object",
            "properties": {"result": {"type": "integer"}},
            "required": ["result"],
        }))
        .unwrap();
        let handler = idle_handler();
        let wrapping = callee(&schema, &input, Some(&output), true, &handler);
        let number = CallToolResult {
            structured_content: Some(json!(3)),
            ..CallToolResult::text("3")
        };
        assert_eq!(
            wrapping.checked_output(number).structured_content,
            Some(json!({"result": 3}))
        );

        let wrong = CallToolResult {
            structured_content: Some(json!("three")),
            ..CallToolResult::text("three")
        };
        let refused = wrapping.checked_output(wrong);
        assert!(refused.is_error);
        assert!(
            refused.text_content().starts_with(
                "Output validation error: Invalid structured content for tool weather: "
            ),
            "{}",
            refused.text_content()
        );

        let missing = wrapping.checked_output(CallToolResult::text("3"));
        assert!(missing.is_error);
        assert_eq!(
            missing.text_content(),
            "Output validation error: Tool weather has an output schema but no structured content was provided"
        );

        // A tool's own error has nothing to promise: it reaches the client as it was.
        let failed = wrapping.checked_output(CallToolResult::error("no such city"));
        assert!(failed.is_error);
        assert_eq!(failed.text_content(), "no such city");
    }

    #[test]
    fn a_panic_says_what_it_said() {
        let text: Box<dyn std::any::Any + Send> = Box::new("boom");
        assert_eq!(panic_message(text.as_ref()), "boom");
        let owned: Box<dyn std::any::Any + Send> = Box::new(String::from("bang"));
        assert_eq!(panic_message(owned.as_ref()), "bang");
        let other: Box<dyn std::any::Any + Send> = Box::new(7_u8);
        assert_eq!(panic_message(other.as_ref()), "a non-string panic payload");
    }
}
