//! What a server serves: its tools (every `#[tool]` linked into the binary, collected once
//! through `inventory`, [`collected`], plus those added at run time, [`ToolSet`]), its prompts
//! (`prompt.rs`, [`PromptSet`]), its resources and templates (`resource/`, [`ResourceSet`]), each
//! kind a live set of one shape (`set.rs`, `LiveSet`); the completers of prompts' arguments and
//! templates' variables (`complete.rs`); and the MCP Apps views tools name (`apps.rs`).

pub(crate) mod apps;
mod complete;
mod icon;
mod kept;
mod prompt;
mod resource;
mod scopes;
mod set;
mod tags;
mod template;
mod tool;
mod view;

use std::fmt;
use std::sync::OnceLock;

use futures_util::future::BoxFuture;
use serde_json::Value;

use crate::context::Context;
use crate::result::CallToolResult;
use crate::state::{StateKey, StateMap};

pub use apps::ToolUiRegistration;
pub(crate) use complete::known_values;
pub use complete::{
    Borrowing, BorrowingFn, Completer, CompleterFn, Completion, CompletionContext, IntoCompletion,
    Owning, VariableCompleter,
};
pub use icon::{IconRegistration, IconSource};
pub(crate) use kept::KeptDefinition;
pub(crate) use prompt::collected as collected_prompts;
pub(crate) use prompt::read_fields;
pub use prompt::{
    GetPromptResult, IntoPromptResult, Prompt, PromptArgumentRegistration, PromptError, PromptGet,
    PromptMessage, PromptRegistration,
};
pub use resource::{
    IntoResourceBody, ReadRequest, Resource, ResourceBody, ResourceError, ResourceRead,
    ResourceRegistration,
};
pub(crate) use resource::{Listed, ReadError, ResourceSet};
pub(crate) use scopes::Scopes;
pub(crate) use set::{NamedSet, Visible};
pub(crate) use tags::{Selection, Tags};
pub(crate) use template::UriTemplate;

/// The live tools of one server.
pub(crate) type ToolSet = NamedSet<Tool>;
/// The live prompts of one server.
pub(crate) type PromptSet = NamedSet<Prompt>;

/// The place of a tool, prompt or resource added at run time, in error messages.
pub(crate) const ADDED_AT_RUN_TIME: &str = "added at run time";
pub use tool::Tool;
pub use view::AppView;

/// What `#[tool]` submits to `inventory` for one fn. Not public API: generated code builds it.
#[doc(hidden)]
#[derive(Debug)]
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
    /// The app state the fn takes (its `State<T>` parameters), checked at start-up.
    pub state: &'static [fn() -> StateKey],
    /// The forms the fn elicits (`asks(…)`): each `Err` says why its type cannot be a form,
    /// a start-up error.
    pub asks: &'static [fn() -> Result<(), String>],
    /// Whether the fn takes the request's `Context`: only then can it ask the client, so only
    /// then does a 2026-07-28 call of it need a round of its own.
    pub context: bool,
    /// Deserializes the (validated) arguments and runs the user's fn.
    pub call: fn(Value, Context) -> BoxFuture<'static, CallToolResult>,
    /// Where the fn is, for error messages.
    pub file: &'static str,
    /// See `file`.
    pub line: u32,
    /// `icons(…)`.
    pub icons: &'static [IconRegistration],
    /// `task` / `task = "required"`.
    pub task: crate::task::TaskSupport,
    /// A plain (not `async`) fn, run on tokio's blocking threads: it cannot be stopped midway,
    /// so a task of it is cancelled (or failed past its run limit) only once it returns.
    pub blocking: bool,
    /// `tags(…)`: what a server's selection chooses it by.
    pub tags: &'static [&'static str],
    /// `scopes(…)`: the OAuth scopes a caller needs, all of them.
    pub scopes: &'static [&'static str],
    /// `rate_limit = "N/UNIT"`: the tool's own limit per principal, checked by the macro.
    pub rate_limit: Option<&'static str>,
}

inventory::collect!(ToolRegistration);

/// Every `#[tool]` in the binary, built once per process, sorted by name.
pub(crate) fn collected() -> Result<&'static [Tool], RegistryError> {
    static COLLECTED: OnceLock<Result<Vec<Tool>, RegistryError>> = OnceLock::new();
    COLLECTED
        .get_or_init(|| {
            build_all(inventory::iter::<ToolRegistration>.into_iter().collect()).map(apps::with_ui)
        })
        .as_ref()
        .map(Vec::as_slice)
        .map_err(Clone::clone)
}

/// The collected tools and resources, every tool's view checked to be a registered app view;
/// `Err` lists every problem with either.
pub(crate) fn served() -> Result<(&'static [Tool], Listed), RegistryError> {
    let (resources, resource_problems) = resource::collected();
    let mut problems = Vec::new();
    let tools = collected().map_err(|error| problems.push(error)).ok();
    problems.extend(resource_problems.iter().cloned());
    if let Some(Err(error)) = tools.map(|tools| apps::check_views(tools, resources)) {
        problems.push(error);
    }
    let mut problems: Vec<RegistryError> = problems
        .into_iter()
        .flat_map(|problem| match problem {
            RegistryError::Several(problems) => problems,
            problem => vec![problem],
        })
        .collect();
    match (tools, problems.len()) {
        (Some(tools), 0) => Ok((tools, resources.clone())),
        (_, 1) => Err(problems.remove(0)),
        _ => Err(RegistryError::Several(problems)),
    }
}

/// The tools of `registrations`, sorted by name, or every problem with them: each tool that
/// shares a name with the first of that name, each tool that cannot be served.
fn build_all(registrations: Vec<&'static ToolRegistration>) -> Result<Vec<Tool>, RegistryError> {
    let sorted = first_of_each_name(
        registrations,
        |registration| registration.name,
        |registration| (registration.file, registration.line),
        <Tool as set::Named>::duplicate,
    );
    let built = on_every_core(&sorted, |registration| {
        registration.clone().and_then(Tool::from_registration)
    });
    let mut problems = Vec::new();
    let mut tools = Vec::with_capacity(built.len());
    for tool in built {
        match tool {
            Ok(tool) => tools.push(tool),
            Err(problem) => problems.push(problem),
        }
    }
    one_or_several(problems).map(|()| tools)
}

/// How many items a thread of [`on_every_core`] needs to be worth starting (the last run may be
/// a little shorter): below that, starting a thread (tens of µs) costs more than it saves.
const ITEMS_PER_THREAD: usize = 64;

/// `build` of each item, in order, the items shared among the cores' threads in runs. A tool's
/// start-up (its schema generated, made portable, compiled once to check it: about 40 µs in
/// release) depends on no other tool's, so a server of 1,000 tools starts in a fraction of the
/// time one thread would take. A panic in `build` (a user's schema fn) is resumed here, as if
/// it had been called on this thread.
fn on_every_core<T: Sync, U: Send>(items: &[T], build: impl Fn(&T) -> U + Sync) -> Vec<U> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let threads = cores.min(items.len() / ITEMS_PER_THREAD);
    if threads <= 1 {
        return items.iter().map(build).collect();
    }
    let run = items.len().div_ceil(threads);
    let build = &build;
    std::thread::scope(|scope| {
        let mut runs = items.chunks(run);
        // This thread builds the first run while the others build theirs. A run whose thread
        // cannot be started (a limit on threads) is built here, after the first.
        let first = runs.next().unwrap_or_default();
        let others: Vec<_> = runs
            .map(|run| {
                std::thread::Builder::new()
                    .name("mcp-toolbelt-start-up".into())
                    .stack_size(START_UP_STACK_BYTES)
                    .spawn_scoped(scope, move || run.iter().map(build).collect::<Vec<U>>())
                    .map_err(|_| run)
            })
            .collect();
        let mut all: Vec<U> = first.iter().map(build).collect();
        for other in others {
            match other {
                Ok(thread) => match thread.join() {
                    Ok(run) => all.extend(run),
                    Err(panic) => std::panic::resume_unwind(panic),
                },
                Err(run) => all.extend(run.iter().map(build)),
            }
        }
        all
    })
}

/// The stack of a start-up thread: a main thread's usual 8 MiB, not a spawned thread's 2, so
/// that a deeply nested argument type whose schema built on the main thread builds here too.
/// Reserved, not touched: only the pages a schema's recursion uses are resident.
const START_UP_STACK_BYTES: usize = 8 * 1024 * 1024;

/// `registrations` sorted by name (then place): the first of each name, and the error of each
/// later one of a taken name, in that order.
fn first_of_each_name<R>(
    mut registrations: Vec<&'static R>,
    name: fn(&R) -> &'static str,
    place: fn(&R) -> (&'static str, u32),
    duplicate: fn(&str, &str, &str) -> RegistryError,
) -> Vec<Result<&'static R, RegistryError>> {
    registrations.sort_by_key(|registration| (name(registration), place(registration)));
    let place = |registration: &R| {
        let (file, line) = place(registration);
        format!("{file}:{line}")
    };
    let mut sorted = Vec::with_capacity(registrations.len());
    // Sorted, the registrations of one name are side by side: the first of each run is the
    // first of its name.
    let mut first: Option<&'static R> = None;
    for registration in registrations {
        if let Some(first) = first.filter(|first| name(first) == name(registration)) {
            sorted.push(Err(duplicate(
                name(registration),
                &place(first),
                &place(registration),
            )));
        } else {
            first = Some(registration);
            sorted.push(Ok(registration));
        }
    }
    sorted
}

/// The registrations of unique names, or every duplicate.
fn unique_by_name<R>(
    registrations: Vec<&'static R>,
    name: fn(&R) -> &'static str,
    place: fn(&R) -> (&'static str, u32),
    duplicate: fn(&str, &str, &str) -> RegistryError,
) -> Result<Vec<&'static R>, RegistryError> {
    let (unique, problems): (Vec<_>, Vec<_>) =
        first_of_each_name(registrations, name, place, duplicate)
            .into_iter()
            .partition(Result::is_ok);
    one_or_several(problems.into_iter().filter_map(Result::err).collect())
        .map(|()| unique.into_iter().filter_map(Result::ok).collect())
}

/// No problem, one, or [`RegistryError::Several`].
fn one_or_several(mut problems: Vec<RegistryError>) -> Result<(), RegistryError> {
    match problems.len() {
        0 => Ok(()),
        1 => Err(problems.remove(0)),
        _ => Err(RegistryError::Several(problems)),
    }
}

/// What kind of named item a [`RegistryError`] is about: a tool or a prompt, which share the
/// errors of a name taken twice and of app state missing, or a resource (app state missing,
/// named by its URI).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ItemKind {
    /// A `#[tool]` or a [`Tool`](crate::tool::Tool) built at run time.
    Tool,
    /// A `#[prompt]` or a [`Prompt`](crate::prompt::Prompt) built at run time.
    Prompt,
    /// A `#[resource]` fn.
    Resource,
}

impl ItemKind {
    /// `tool` or `prompt`, as messages and the attributes name it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Tool => "tool",
            Self::Prompt => "prompt",
            Self::Resource => "resource",
        }
    }
}

impl fmt::Display for ItemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why the tools, prompts and resources cannot be served.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegistryError {
    /// Two tools, or two prompts, share a name.
    #[non_exhaustive]
    DuplicateName {
        /// A tool or a prompt.
        kind: ItemKind,
        /// The shared name.
        name: String,
        /// Where the first is (`file:line`, or "added at run time").
        first: String,
        /// Where the second is.
        second: String,
    },
    /// A tool's schemas cannot be served.
    #[non_exhaustive]
    InvalidTool {
        /// The tool's name.
        name: String,
        /// Where it is defined (`file:line`), for a `#[tool]` fn.
        location: Option<String>,
        /// What is wrong.
        problem: String,
    },
    /// A tool, prompt or resource takes a `State<T>` the server was not given.
    #[non_exhaustive]
    MissingState {
        /// A tool, a prompt or a resource.
        kind: ItemKind,
        /// The tool's or prompt's name, the resource's URI (or URI template).
        name: String,
        /// Where it is defined (`file:line`), for a `#[tool]`, `#[prompt]` or `#[resource]` fn.
        location: Option<String>,
        /// The type of the missing value, as Rust names it.
        type_name: String,
    },
    /// Two resources share a URI (or URI template).
    #[non_exhaustive]
    DuplicateResource {
        /// The shared URI.
        uri: String,
        /// Where the first is (`file:line`).
        first: String,
        /// Where the second is.
        second: String,
    },
    /// A resource cannot be served.
    #[non_exhaustive]
    InvalidResource {
        /// Its URI or URI template.
        uri: String,
        /// Where it is defined (`file:line`).
        location: String,
        /// What is wrong.
        problem: String,
    },
    /// A tool names a view (`#[tool(ui = …)]`) that is not a registered app view.
    #[non_exhaustive]
    MissingView {
        /// The tool's name.
        tool: String,
        /// Where the tool is defined (`file:line`).
        location: String,
        /// The view's URI.
        uri: String,
        /// What is wrong.
        problem: String,
    },
    /// A skill cannot be served: its `SKILL.md` has no front matter, or a field of it is
    /// missing or invalid, or its files break the Skills extension's rules.
    #[non_exhaustive]
    InvalidSkill {
        /// Where the problem is: the `SKILL.md`, file, link or folder on disk, or, for a skill
        /// built in code, the `file:line` of the `Skill::new` (or `Skill::file`) call. Just the
        /// location: the wording is `Display`'s.
        file: String,
        /// The front matter's field at fault (`name`, `description`), when one is.
        field: Option<String>,
        /// What is wrong, and what to write.
        problem: String,
    },
    /// A tool, prompt or resource built at run time needs a scope no token can carry, or names
    /// one twice (`.scopes([…])`; the attributes' `scopes(…)` are checked when they compile).
    #[non_exhaustive]
    InvalidScope {
        /// A tool, a prompt or a resource.
        kind: ItemKind,
        /// The tool's or prompt's name, the resource's URI (or URI template).
        name: String,
        /// Where it is defined (`file:line`), for a `#[tool]`, `#[prompt]` or `#[resource]`.
        location: Option<String>,
        /// The scope at fault.
        scope: String,
        /// What is wrong, and what to write.
        problem: String,
    },
    /// More than one of the above, every one listed.
    Several(Vec<RegistryError>),
}

impl RegistryError {
    /// A start-up error for each app state in `required` that `states` lacks, naming the tool,
    /// prompt or resource (`name`, and where it is) that takes it.
    pub(crate) fn missing_state(
        kind: ItemKind,
        name: &str,
        location: Option<&str>,
        required: &[StateKey],
        states: &StateMap,
    ) -> Vec<Self> {
        required
            .iter()
            .filter(|key| !states.contains(key))
            .map(|missing| Self::MissingState {
                kind,
                name: name.to_owned(),
                location: location.map(str::to_owned),
                type_name: missing.type_name().to_owned(),
            })
            .collect()
    }

    /// `next` after the problems already found (`first`): one list of them all.
    pub(crate) fn joined(first: Option<Self>, next: Self) -> Self {
        match first {
            None => next,
            Some(Self::Several(mut problems)) => {
                problems.push(next);
                Self::Several(problems)
            }
            Some(problem) => Self::Several(vec![problem, next]),
        }
    }
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateName {
                kind,
                name,
                first,
                second,
            } => write!(
                f,
                "two {kind}s are named `{name}`: one {}, one {}; {kind} names must be unique, \
                 rename one with `#[{kind}(name = \"…\")]`",
                At(first),
                At(second)
            ),
            Self::InvalidTool {
                name,
                location,
                problem,
            } => write!(
                f,
                "{} cannot be served: {problem}",
                Place(ItemKind::Tool, name, location.as_deref())
            ),
            Self::MissingState {
                kind,
                name,
                location,
                type_name,
            } => write!(
                f,
                "{} takes `State<{type_name}>`, but the server was given no `{type_name}`: \
                 add `.state(value)` to the `Server` builder",
                Place(*kind, name, location.as_deref())
            ),
            Self::InvalidSkill {
                file,
                field: Some(field),
                problem,
            } => write!(
                f,
                "skill {} cannot be served: its front matter's `{field}` {problem}",
                At(file)
            ),
            Self::InvalidSkill {
                file,
                field: None,
                problem,
            } => write!(f, "skill {} cannot be served: {problem}", At(file)),
            Self::DuplicateResource { uri, first, second } => write!(
                f,
                "two resources have the URI `{uri}`: one {}, one {}; resource URIs must be unique",
                At(first),
                At(second)
            ),
            Self::InvalidResource {
                uri,
                location,
                problem,
            } => write!(
                f,
                "resource `{uri}` {} cannot be served: {problem}",
                At(location)
            ),
            Self::MissingView {
                tool,
                location,
                uri,
                problem,
            } => write!(
                f,
                "tool `{tool}` ({location}) names the view `{uri}`, but {problem}"
            ),
            Self::InvalidScope {
                kind,
                name,
                location,
                scope,
                problem,
            } => write!(
                f,
                "{} cannot be served: its scope {scope:?} (`.scopes([…])`): {problem}",
                Place(*kind, name, location.as_deref())
            ),
            Self::Several(problems) => {
                write!(
                    f,
                    "{} problems with the tools and resources:",
                    problems.len()
                )?;
                problems
                    .iter()
                    .try_for_each(|problem| write!(f, "\n- {problem}"))
            }
        }
    }
}

impl std::error::Error for RegistryError {}

/// Where an item is: "at `file:line`", or "added at run time" as it is.
struct At<'a>(&'a str);

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == ADDED_AT_RUN_TIME {
            f.write_str(self.0)
        } else {
            write!(f, "at {}", self.0)
        }
    }
}

/// "tool `name`" (or "prompt `name`"), and " at `file:line`" when it has a place in the source.
struct Place<'a>(ItemKind, &'a str, Option<&'a str>);

impl fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} `{}`", self.0, self.1)?;
        match self.2 {
            Some(source) => write!(f, " at {source}"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use futures_util::future::BoxFuture;
    use serde_json::{Value, json};

    use super::{RegistryError, ToolRegistration, build_all};
    use crate::context::Context;
    use crate::result::CallToolResult;

    fn call(_: Value, _: Context) -> BoxFuture<'static, CallToolResult> {
        Box::pin(async { CallToolResult::text("") })
    }

    fn object() -> Value {
        json!({"type": "object", "properties": {}})
    }

    fn list() -> Value {
        json!({"type": "array", "items": {}})
    }

    const fn registration(name: &'static str, line: u32, input: fn() -> Value) -> ToolRegistration {
        ToolRegistration {
            name,
            title: None,
            description: "d",
            read_only: None,
            destructive: None,
            idempotent: None,
            open_world: None,
            input_schema: input,
            output_schema: || None,
            state: &[],
            asks: &[],
            context: false,
            call,
            file: "f.rs",
            line,
            icons: &[],
            task: crate::task::TaskSupport::Forbidden,
            blocking: false,
            tags: &[],
            scopes: &[],
            rate_limit: None,
        }
    }

    static SEARCH_1: ToolRegistration = registration("search", 1, object);
    static SEARCH_2: ToolRegistration = registration("search", 2, object);
    static SEARCH_3: ToolRegistration = registration("search", 3, object);
    static LIST_A: ToolRegistration = registration("list_a", 4, list);
    static LIST_B: ToolRegistration = registration("list_b", 5, list);
    static FINE: ToolRegistration = registration("fine", 6, object);

    /// Every duplicate and every invalid tool is named, not only the first (issue 14, item 6).
    #[test]
    fn every_problem_is_listed() {
        let all = vec![&SEARCH_3, &LIST_B, &FINE, &SEARCH_1, &LIST_A, &SEARCH_2];
        let Err(RegistryError::Several(problems)) = build_all(all) else {
            panic!("several problems expected");
        };
        let texts: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(texts.len(), 4, "{texts:#?}");
        assert!(texts[0].starts_with("tool `list_a` at f.rs:4 cannot be served"));
        assert!(texts[1].starts_with("tool `list_b` at f.rs:5 cannot be served"));
        assert!(texts[2].starts_with("two tools are named `search`: one at f.rs:1, one at f.rs:2"));
        assert!(texts[3].starts_with("two tools are named `search`: one at f.rs:1, one at f.rs:3"));
        let display = RegistryError::Several(problems).to_string();
        assert!(
            display.starts_with("4 problems with the tools and resources:\n- tool `list_a`"),
            "{display}"
        );
        assert_eq!(build_all(vec![&FINE]).map(|tools| tools.len()), Ok(1));
    }

    /// Enough tools to be built on several threads (on a machine with more than one core) come
    /// out as one thread builds them: sorted by name, every problem named in that order.
    #[test]
    fn many_tools_are_built_in_name_order_with_every_problem() {
        let leak = |name: String, line, input: fn() -> Value| -> &'static ToolRegistration {
            Box::leak(Box::new(registration(name.leak(), line, input)))
        };
        // Added in reverse order, a duplicate and two tools that cannot be served among them.
        let mut all: Vec<&'static ToolRegistration> = (0..300)
            .rev()
            .map(|i| leak(format!("tool_{i:03}"), i, object))
            .collect();
        all.push(leak("tool_150".into(), 1_000, object));
        all.push(leak("tool_299b".into(), 1_001, list));
        all.push(leak("tool_007b".into(), 1_002, list));
        let Err(RegistryError::Several(problems)) = build_all(all.clone()) else {
            panic!("several problems expected");
        };
        let texts: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(texts.len(), 3, "{texts:#?}");
        assert!(texts[0].starts_with("tool `tool_007b` at f.rs:1002 cannot be served"));
        assert!(
            texts[1]
                .starts_with("two tools are named `tool_150`: one at f.rs:150, one at f.rs:1000")
        );
        assert!(texts[2].starts_with("tool `tool_299b` at f.rs:1001 cannot be served"));

        all.truncate(300);
        let tools = build_all(all).expect("300 tools");
        let names: Vec<&str> = tools.iter().map(super::tool::Tool::name).collect();
        let expected: Vec<String> = (0..300).map(|i| format!("tool_{i:03}")).collect();
        assert_eq!(names, expected);
    }

    /// A panic while a tool is built (a schema fn of the user's) reaches the caller, from
    /// whichever thread built it.
    #[test]
    fn a_panic_while_building_reaches_the_caller() {
        let items: Vec<usize> = (0..1_000).collect();
        let doubled = super::on_every_core(&items, |i| i * 2);
        assert_eq!(doubled, (0..1_000).map(|i| i * 2).collect::<Vec<_>>());
        let panicked = std::panic::catch_unwind(|| {
            super::on_every_core(&items, |&i| {
                assert_ne!(i, 900, "a schema fn panicked");
                i
            })
        });
        let panic = panicked.expect_err("the panic is resumed");
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .unwrap_or_default();
        assert!(message.contains("a schema fn panicked"), "{message}");
    }
}
