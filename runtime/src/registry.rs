//! The tools a server serves: every `#[tool]` linked into the binary (collected once through
//! `inventory`), plus tools added at run time.

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, OnceLock, RwLock};

use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value};

use crate::context::Context;
use crate::result::CallToolResult;
use crate::schema;
use crate::sync::{read, write};
use crate::types::{ToolAnnotations, ToolDefinition};
use crate::validate::SchemaValidator;

/// What `#[tool]` submits to `inventory` for one fn. Not public API: generated code builds it.
#[doc(hidden)]
pub struct ToolRegistration {
    /// The MCP tool name.
    pub name: &'static str,
    /// The display title.
    pub title: Option<&'static str>,
    /// The description the model reads.
    pub description: &'static str,
    /// The four MCP hints, `None` where the attribute left them out.
    pub read_only: Option<bool>,
    /// See `read_only`.
    pub destructive: Option<bool>,
    /// See `read_only`.
    pub idempotent: Option<bool>,
    /// See `read_only`.
    pub open_world: Option<bool>,
    /// The input schema, before it is made portable.
    pub input_schema: fn() -> Value,
    /// The output schema of the return type, if any.
    pub output_schema: fn() -> Option<Value>,
    /// Deserializes the (validated) arguments and runs the user's fn.
    pub call: fn(Value, Context) -> BoxFuture<'static, CallToolResult>,
    /// Where the fn is, for error messages.
    pub file: &'static str,
    /// See `file`.
    pub line: u32,
}

inventory::collect!(ToolRegistration);

type Handler = Arc<dyn Fn(Value, Context) -> BoxFuture<'static, CallToolResult> + Send + Sync>;

/// A servable tool: its definition, its compiled validators and its handler.
#[derive(Clone)]
pub struct Tool {
    definition: Arc<ToolDefinition>,
    handler: Handler,
    input: Arc<SchemaValidator>,
    output: Option<Arc<SchemaValidator>>,
    /// `structuredContent` is wrapped as `{"result": …}` (a non-object output type).
    wraps_output: bool,
    /// `file:line` of a `#[tool]` fn.
    source: Option<Arc<str>>,
    /// Client capabilities the tool cannot run without (`{"sampling": {}}`).
    required_capabilities: Option<Arc<Map<String, Value>>>,
}

impl Tool {
    /// A tool added at run time. `input_schema` must be an object schema; `handler` gets the
    /// validated arguments.
    pub fn new<F, Fut>(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Value,
        handler: F,
    ) -> Result<Self, RegistryError>
    where
        F: Fn(Value, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = CallToolResult> + Send + 'static,
    {
        let definition = ToolDefinition {
            name: name.into(),
            title: None,
            description: Some(description.into()),
            input_schema,
            output_schema: None,
            annotations: None,
        };
        let handler: Handler =
            Arc::new(move |arguments, context| Box::pin(handler(arguments, context)));
        Self::build(definition, handler, None, false)
    }

    /// Builds the tool of one `#[tool]` fn: portable schemas, validators.
    pub(crate) fn from_registration(
        registration: &'static ToolRegistration,
    ) -> Result<Self, RegistryError> {
        let source = format!("{}:{}", registration.file, registration.line);
        let hints = ToolAnnotations {
            title: None,
            read_only_hint: registration.read_only,
            destructive_hint: registration.destructive,
            idempotent_hint: registration.idempotent,
            open_world_hint: registration.open_world,
        };
        let mut output_schema = (registration.output_schema)();
        let mut wraps_output = false;
        if let Some(output) = output_schema.take() {
            wraps_output = !schema::is_object_schema(&output);
            output_schema = Some(if wraps_output {
                schema::wrap_in_result(output)
            } else {
                output
            });
        }
        let definition = ToolDefinition {
            name: registration.name.to_owned(),
            title: registration.title.map(str::to_owned),
            description: Some(registration.description.to_owned()),
            input_schema: (registration.input_schema)(),
            output_schema,
            annotations: (hints != ToolAnnotations::default()).then_some(hints),
        };
        let call = registration.call;
        Self::build(
            definition,
            Arc::new(call),
            Some(source.into()),
            wraps_output,
        )
    }

    fn build(
        mut definition: ToolDefinition,
        handler: Handler,
        source: Option<Arc<str>>,
        wraps_output: bool,
    ) -> Result<Self, RegistryError> {
        let invalid = |problem: String| RegistryError::InvalidTool {
            name: definition.name.clone(),
            source: source.as_deref().map(str::to_owned),
            problem,
        };
        // `#[tool]` checks its names at compile time; tools added at run time are checked here.
        let name = &definition.name;
        if name.is_empty()
            || name.len() > 64
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
        {
            return Err(invalid(
                "its name must be 1 to 64 characters from `A-Z a-z 0-9 _ . -`".into(),
            ));
        }
        if !schema::is_object_schema(&definition.input_schema) {
            return Err(invalid(format!(
                "its input schema must describe a JSON object, but it is {}; take an argument \
                 struct, or inline parameters",
                definition.input_schema
            )));
        }
        schema::ensure_object_root(&mut definition.input_schema);
        let input = SchemaValidator::for_input(&definition.input_schema)
            .map_err(|e| invalid(format!("invalid input schema: {e}")))?;
        let output = match &definition.output_schema {
            Some(schema) => Some(Arc::new(
                SchemaValidator::for_output(schema)
                    .map_err(|e| invalid(format!("invalid output schema: {e}")))?,
            )),
            None => None,
        };
        Ok(Self {
            definition: Arc::new(definition),
            handler,
            input: Arc::new(input),
            output,
            wraps_output,
            source,
            required_capabilities: None,
        })
    }

    /// Sets the display title.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        Arc::make_mut(&mut self.definition).title = Some(title.into());
        self
    }

    /// Sets the behaviour hints.
    #[must_use]
    pub fn with_annotations(mut self, annotations: ToolAnnotations) -> Self {
        Arc::make_mut(&mut self.definition).annotations = Some(annotations);
        self
    }

    /// Declares client capabilities the tool needs (e.g. `{"sampling": {}}`): a client that did not
    /// declare them gets error `-32021` (`MissingRequiredClientCapability`) instead of a call.
    #[must_use]
    pub fn requires_client_capabilities(mut self, capabilities: Map<String, Value>) -> Self {
        self.required_capabilities = Some(Arc::new(capabilities));
        self
    }

    /// The required capabilities the client's `declared` ones lack, if any.
    pub(crate) fn missing_capabilities(&self, declared: &Value) -> Option<Map<String, Value>> {
        let missing: Map<String, Value> = self
            .required_capabilities
            .as_deref()?
            .iter()
            .filter(|(name, _)| declared.get(name.as_str()).is_none())
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        (!missing.is_empty()).then_some(missing)
    }

    /// The tool's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.definition.name
    }

    /// How the tool appears in `tools/list`.
    #[must_use]
    pub fn definition(&self) -> &ToolDefinition {
        &self.definition
    }

    /// Validates `arguments` (absent means `{}`), runs the tool, and checks its structured output.
    /// Every failure is a result with `isError: true`; a panic in the tool is one too.
    pub(crate) async fn call(
        &self,
        arguments: Option<Map<String, Value>>,
        context: Context,
    ) -> CallToolResult {
        let name = self.name();
        let mut arguments = Value::Object(arguments.unwrap_or_default());
        crate::validate::prepare_instance(&self.definition.input_schema, &mut arguments);
        let failures = self.input.failures(&arguments);
        if !failures.is_empty() {
            return CallToolResult::error(format!(
                "Input validation error: Invalid arguments for tool {name}: {}",
                failures.join(", ")
            ));
        }
        // Whether the call completes or its future is dropped (cancelled), nothing more may be
        // sent for this request once it ends.
        let finish = FinishOnDrop(context.clone());
        // The handler is called inside the guarded future: a closure that panics before it
        // returns its future is caught too.
        let call = async { (self.handler)(arguments, context).await };
        let result = AssertUnwindSafe(call).catch_unwind().await;
        drop(finish);
        let mut result = match result {
            Ok(result) => result,
            Err(panic) => {
                let message = panic_message(panic.as_ref());
                tracing::error!(tool = name, panic = message, "tool panicked");
                return CallToolResult::error(format!(
                    "Error executing tool {name}: the tool panicked: {message}"
                ));
            }
        };
        if let (Some(output), false) = (&self.output, result.is_error) {
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
                    failures.join(", ")
                ));
            }
            result.structured_content = Some(structured);
        }
        result
    }
}

impl fmt::Debug for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tool")
            .field("definition", &self.definition)
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

/// Ends a request's notifications when the call ends, however it ends.
struct FinishOnDrop(Context);

impl Drop for FinishOnDrop {
    fn drop(&mut self) {
        self.0.finish();
    }
}

fn wrap_result(value: Value) -> Value {
    let mut wrapped = Map::new();
    wrapped.insert("result".into(), value);
    Value::Object(wrapped)
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a non-string panic payload")
}

/// Why the tools cannot be served.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegistryError {
    /// Two tools share a name.
    DuplicateName {
        /// The shared name.
        name: String,
        /// Where the first is (`file:line`, or "added at run time").
        first: String,
        /// Where the second is.
        second: String,
    },
    /// A tool's schemas cannot be served.
    InvalidTool {
        /// The tool's name.
        name: String,
        /// Where it is defined, for a `#[tool]` fn.
        source: Option<String>,
        /// What is wrong.
        problem: String,
    },
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateName {
                name,
                first,
                second,
            } => write!(
                f,
                "two tools are named `{name}`: one at {first}, one at {second}; tool names must be unique, \
                 rename one with `#[tool(name = \"…\")]`"
            ),
            Self::InvalidTool {
                name,
                source,
                problem,
            } => {
                write!(f, "tool `{name}`")?;
                if let Some(source) = source {
                    write!(f, " at {source}")?;
                }
                write!(f, " cannot be served: {problem}")
            }
        }
    }
}

impl std::error::Error for RegistryError {}

/// Every `#[tool]` in the binary, built once per process, sorted by name.
pub(crate) fn collected() -> Result<&'static [Tool], RegistryError> {
    static COLLECTED: OnceLock<Result<Vec<Tool>, RegistryError>> = OnceLock::new();
    COLLECTED
        .get_or_init(|| {
            let mut registrations: Vec<&'static ToolRegistration> =
                inventory::iter::<ToolRegistration>.into_iter().collect();
            registrations.sort_by(|a, b| (a.name, a.file, a.line).cmp(&(b.name, b.file, b.line)));
            if let Some(pair) = registrations
                .windows(2)
                .find(|pair| pair[0].name == pair[1].name)
            {
                return Err(RegistryError::DuplicateName {
                    name: pair[0].name.to_owned(),
                    first: format!("{}:{}", pair[0].file, pair[0].line),
                    second: format!("{}:{}", pair[1].file, pair[1].line),
                });
            }
            registrations
                .into_iter()
                .map(Tool::from_registration)
                .collect()
        })
        .as_ref()
        .map(Vec::as_slice)
        .map_err(Clone::clone)
}

/// The live set of tools of one server: the collected ones plus those added at run time.
#[derive(Debug, Default)]
pub(crate) struct ToolSet {
    tools: RwLock<BTreeMap<String, Tool>>,
}

impl ToolSet {
    pub(crate) fn new(tools: impl IntoIterator<Item = Tool>) -> Self {
        let tools = tools
            .into_iter()
            .map(|tool| (tool.name().to_owned(), tool))
            .collect();
        Self {
            tools: RwLock::new(tools),
        }
    }

    pub(crate) fn get(&self, name: &str) -> Option<Tool> {
        self.read().get(name).cloned()
    }

    /// Definitions in name order.
    pub(crate) fn definitions(&self) -> Vec<Arc<ToolDefinition>> {
        self.read()
            .values()
            .map(|tool| Arc::clone(&tool.definition))
            .collect()
    }

    /// Adds a tool; refused when the name is taken.
    pub(crate) fn insert(&self, tool: Tool) -> Result<(), RegistryError> {
        let mut tools = write(&self.tools);
        if let Some(existing) = tools.get(tool.name()) {
            let place = |tool: &Tool| {
                tool.source
                    .as_deref()
                    .unwrap_or("added at run time")
                    .to_owned()
            };
            return Err(RegistryError::DuplicateName {
                name: tool.name().to_owned(),
                first: place(existing),
                second: place(&tool),
            });
        }
        tools.insert(tool.name().to_owned(), tool);
        Ok(())
    }

    pub(crate) fn remove(&self, name: &str) -> Option<Tool> {
        write(&self.tools).remove(name)
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<String, Tool>> {
        read(&self.tools)
    }
}
