//! Host profiles as data: what each host refuses, one rule per entry, each with the public
//! source that shows it (a spec section of `mcp-spec.md` §7, a host's documentation or an issue
//! thread). Adding what a host was seen to reject is adding one entry here.

use std::fmt;

use serde::Serialize;

/// How bad breaking a rule is: an error fails `--lint` and `assert_portable`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Severity {
    /// Nothing to change: what a host does with the tool as it is (it strips a keyword, say).
    /// Shown only when asked for (`--lint --verbose`, `{report:#}`).
    Note,
    /// The host may still work, or the trouble is the host's to fix; reported, never failing.
    Warning,
    /// The host drops the tool, or fails the request.
    Error,
}

/// One check a host needs passed. New checks come as hosts are seen to reject new things, and a
/// check's settings may grow: match with `..`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Check {
    /// The name the model sees (`prefix`, where `{server}` is the server's name, then the tool's
    /// name) is at most `max` characters.
    #[non_exhaustive]
    NameLength {
        /// The host's longest name.
        max: usize,
        /// What the host puts before the tool's name.
        prefix: &'static str,
    },
    /// The input and output schemas are valid JSON Schema 2020-12 documents, whatever their
    /// `$schema` says.
    ValidSchema,
    /// The tool's name uses only `A-Z a-z 0-9 _ -`.
    NameCharacters,
    /// The tool has a description, not empty.
    Description,
    /// Every property of the input schema has a description, not empty.
    PropertyDescription,
    /// `$schema`, where present, names JSON Schema 2020-12.
    Dialect,
    /// The keyword appears in no subschema.
    Keyword(&'static str),
    /// Every subschema says its `type`.
    TypeEverywhere,
    /// `type` is one name, never a list (`["string", "null"]`).
    ScalarType,
    /// Every array schema has `items`.
    ArrayItems,
    /// No tuple arrays (`items` as a list, `prefixItems`).
    TupleItems,
    /// No `oneOf`/`anyOf`/`allOf`: at the root only, or anywhere (output schema included).
    #[non_exhaustive]
    Composition {
        /// Only the input schema's root is checked.
        root_only: bool,
    },
    /// `enum` values are strings.
    StringEnums,
    /// The keyword's number is at most `max`.
    #[non_exhaustive]
    MaxBound {
        /// `maxLength`, `maxItems`, …
        keyword: &'static str,
        /// The largest value the host compiles.
        max: u64,
    },
    /// No numeric or length bounds (`minimum`, `maxLength`, …; `minItems` above 1): the host
    /// refuses them.
    UnsupportedBounds,
    /// Every object schema says `additionalProperties: false`.
    ClosedObjects,
    /// Every property of an object schema is required.
    AllRequired,
    /// At most `max` optional properties in the input schema.
    #[non_exhaustive]
    OptionalProperties {
        /// The most the host compiles.
        max: usize,
    },
    /// `additionalProperties` is `false` or a schema with a `type`, never `{}` or `true`.
    TypedAdditionalProperties,
    /// The tool declares an `outputSchema` (the host chokes on it).
    OutputSchemaDeclared,
    /// An `outputSchema`'s root is `type: "object"`.
    ObjectOutputSchema,
    /// A call result with `structuredContent` comes from a tool that declares an `outputSchema`
    /// (checked by [`lint_result`](super::lint_result)).
    StructuredNeedsSchema,
    /// A successful call result of a tool with an `outputSchema` has `structuredContent`
    /// (checked by [`lint_result`](super::lint_result)).
    SchemaNeedsStructured,
    /// Every field of an object `structuredContent` is declared in the `outputSchema`'s
    /// `properties` (checked by [`lint_result`](super::lint_result)).
    DeclaredFields,
    /// Every `pattern` (and `patternProperties` key) is a regex that JavaScript's `RegExp`
    /// compiles with the `u` flag, as Ajv does: no Rust- or PCRE-only syntax such as `(?i)`,
    /// `\A`, `\z`, possessive quantifiers or atomic groups.
    EcmaPattern,
    /// Every icon's `src` is an `https:` URL or a `data:` URI: clients reject every other
    /// scheme (the tools' icons, and `--lint`'s check of the server's own).
    IconSource,
    /// Every icon's type (its `mimeType`, a `data:` URI's media type) is an image type hosts
    /// show, and each of its sizes `WxH` or `any`.
    IconFormat,
    /// An item with `scopes(…)` is served by a server that checks no token: with no caller to
    /// check, every caller is served it (`--lint`'s check of the server's auth).
    ScopesWithoutAuth,
    /// The whole `tools/list` result is at most `max` bytes.
    #[non_exhaustive]
    ListBytes {
        /// The largest size the host handles.
        max: usize,
    },
}

/// One entry of a profile: a check, how bad breaking it is, and where that is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    pub(super) check: Check,
    pub(super) severity: Severity,
    pub(super) citation: &'static str,
}

impl Rule {
    /// What is checked.
    #[must_use]
    pub fn check(&self) -> Check {
        self.check
    }

    /// What breaking it costs.
    #[must_use]
    pub fn severity(&self) -> Severity {
        self.severity
    }

    /// The spec section, host documentation or public issue that shows the host's behaviour.
    #[must_use]
    pub fn citation(&self) -> &'static str {
        self.citation
    }
}

/// What one host accepts: one of the built-in profiles ([`profile`], [`all_profiles`](super::all_profiles)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    pub(super) name: &'static str,
    pub(super) host: &'static str,
    pub(super) rules: &'static [Rule],
    pub(super) opt_in: bool,
}

impl Profile {
    /// The name `--profile` takes.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The host, as people know it.
    #[must_use]
    pub fn host(&self) -> &'static str {
        self.host
    }

    /// Its rules.
    #[must_use]
    pub fn rules(&self) -> &'static [Rule] {
        self.rules
    }

    /// Checked only when named (`--profile`, `assert_portable_for`): a strict mode, which
    /// whoever sends the tools to the model turns on, not the host as it comes.
    #[must_use]
    pub fn opt_in(&self) -> bool {
        self.opt_in
    }
}

const fn error(check: Check, citation: &'static str) -> Rule {
    Rule {
        check,
        severity: Severity::Error,
        citation,
    }
}

const fn warning(check: Check, citation: &'static str) -> Rule {
    Rule {
        check,
        severity: Severity::Warning,
        citation,
    }
}

const fn note(check: Check, citation: &'static str) -> Rule {
    Rule {
        check,
        severity: Severity::Note,
        citation,
    }
}

const SPEC_TOOLS: &str = "MCP spec, server/tools (Tool: inputSchema and outputSchema are objects)";
const EMPTY_DESCRIPTION: &str = "MCP spec, server/tools (description: what the model reads); \
    Anthropic tool-use docs (\"detailed descriptions are by far the most important factor\")";
const COMPOSITION_ROOT: &str =
    "mcp-spec.md §7.3; https://github.com/PCIRCLE-AI/claude-code-buddy/issues/32";
const DIALECT: &str = "mcp-spec.md §7.1; https://github.com/anthropics/claude-code/issues/586";
const VSCODE_DIALECT: &str = "mcp-spec.md §7.1; https://github.com/microsoft/vscode/issues/251315, \
    https://github.com/microsoft/vscode/issues/318984";
const ARRAY_ITEMS_OPENAI: &str =
    "mcp-spec.md §7.5; https://github.com/apify/apify-mcp-server/issues/36";
const ARRAY_ITEMS_VSCODE: &str =
    "mcp-spec.md §7.5; https://github.com/microsoft/vscode-copilot-release/issues/11478";
const GEMINI_KEYWORDS: &str = "mcp-spec.md §7.7; https://github.com/promptfoo/promptfoo/issues/6902, \
    https://github.com/JetBrains/mcp-jetbrains/issues/71";
const GEMINI_DEFAULT: &str = "Gemini API reference, Schema (default: \"included here and ignored so \
    that developers who send schemas with a default field don't get unknown-field errors\"); \
    mcp-spec.md §7.7 (converters that refused it)";
const REF: &str = "mcp-spec.md §7.2; https://github.com/google-gemini/gemini-cli/issues/13326, \
    https://github.com/github/copilot-cli/issues/1876";
const CURSOR_UNIONS: &str = "issue 12 (Cursor: oneOf/anyOf/allOf anywhere fails the request with a 400); \
    https://github.com/awkoy/notion-mcp-server/issues/1";
const CURSOR_MODELS: &str =
    "issue 12 (Cursor: non-string enums and tuple items break the Gemini, Grok and Kimi models)";
const TYPE_LISTS: &str = "mcp-spec.md §7.6; https://github.com/cursor/cursor/issues/3778, \
    https://github.com/google-gemini/gemini-cli/issues/21094";
const STRICT_OPENAI: &str = "mcp-spec.md §7.8; OpenAI structured outputs docs; \
    https://github.com/langchain-ai/langchainjs/issues/9496";
const LLAMA_REPETITION: &str = "https://github.com/ggml-org/llama.cpp/issues/25746, \
    https://github.com/ggml-org/llama.cpp/issues/26596";

/// The baseline every host starts from: the MCP specification.
const MCP: &[Rule] = &[
    error(Check::ObjectOutputSchema, SPEC_TOOLS),
    error(
        Check::SchemaNeedsStructured,
        "MCP spec, server/tools (with an output schema, servers MUST provide structured results); \
         mcp-spec.md §7.12; https://github.com/anthropics/claude-code/issues/14465",
    ),
    warning(
        Check::StructuredNeedsSchema,
        "MCP spec, server/tools (an output schema lets clients validate structured results); \
         mcp-spec.md §7.11",
    ),
    warning(Check::Description, EMPTY_DESCRIPTION),
    warning(
        Check::PropertyDescription,
        "Anthropic tool-use docs (describe every parameter); mcp-spec.md §7.14",
    ),
    error(Check::IconSource, SPEC_ICONS),
    warning(Check::IconFormat, SPEC_ICONS),
    warning(
        Check::ScopesWithoutAuth,
        "MCP spec 2025-11-25, basic/authorization (scopes are granted by an access token the \
         server verifies; without one there is no scope to check); RFC 6749 §3.3",
    ),
];

/// The spec on icons: the scheme clients reject, the types they show.
const SPEC_ICONS: &str = "MCP spec 2025-11-25, basic (Icons: clients MUST reject icon URIs that use \
    unsafe schemes, anything but `https:` and `data:`; they MUST support image/png and image/jpeg, \
    SHOULD support image/svg+xml and image/webp; sizes are `WxH` or `any`); SEP-973";

const VALID_2020_12: &str = "mcp-spec.md §7.1 (\"JSON schema is invalid. It must match JSON Schema draft 2020-12\" \
    fails the whole request); https://github.com/anthropics/claude-code/issues/586, \
    https://github.com/ankimcp/anki-mcp-server-addon/issues/75";

const ANTHROPIC: &[Rule] = &[
    error(Check::ValidSchema, VALID_2020_12),
    error(
        Check::NameLength {
            max: 64,
            prefix: "",
        },
        "Anthropic tool-use docs (name: ^[a-zA-Z0-9_-]{1,64}$)",
    ),
    error(
        Check::NameCharacters,
        "Anthropic tool-use docs (name: ^[a-zA-Z0-9_-]{1,64}$)",
    ),
    error(Check::Composition { root_only: true }, COMPOSITION_ROOT),
    error(Check::Dialect, DIALECT),
];

const ANTHROPIC_STRICT: &[Rule] = &[
    error(Check::ValidSchema, VALID_2020_12),
    error(
        Check::NameLength {
            max: 64,
            prefix: "",
        },
        "Anthropic tool-use docs (name: ^[a-zA-Z0-9_-]{1,64}$)",
    ),
    error(Check::Composition { root_only: true }, COMPOSITION_ROOT),
    error(Check::Dialect, DIALECT),
    error(
        Check::ClosedObjects,
        "Anthropic structured outputs docs (strict: additionalProperties must be false)",
    ),
    error(
        Check::UnsupportedBounds,
        "Anthropic structured outputs docs, JSON Schema limitations (\"Not supported: Numerical \
         constraints (minimum, maximum, multipleOf); String constraints (minLength, maxLength); \
         Array constraints beyond minItems of 0 or 1\"; strict tool use shares them); \
         https://github.com/agentjido/req_llm/issues/302 (400: \"For 'integer' type, property \
         'minimum' is not supported\")",
    ),
    warning(
        Check::OptionalProperties { max: 24 },
        "https://github.com/anthropics/claude-code/issues/55539, \
         https://github.com/anthropics/anthropic-sdk-python/issues/1185 (\"The compiled grammar is too large\")",
    ),
];

const CLAUDE_CONNECTORS: &[Rule] = &[
    error(Check::ValidSchema, VALID_2020_12),
    error(
        Check::NameLength {
            max: 64,
            prefix: "mcp__{server}__",
        },
        "mcp-spec.md §7.10; https://github.com/sparfenyuk/mcp-proxy/issues/45",
    ),
    error(Check::Composition { root_only: true }, COMPOSITION_ROOT),
    error(Check::Dialect, DIALECT),
    error(
        Check::Keyword("$ref"),
        "https://github.com/anthropics/claude-code/issues/76040",
    ),
    note(
        Check::OutputSchemaDeclared,
        "issue 12 (Claude.ai connectors: tools declaring outputSchema fail with \"Failed to call tool\", an open report)",
    ),
];

const OPENAI: &[Rule] = &[
    error(
        Check::NameLength {
            max: 64,
            prefix: "",
        },
        "mcp-spec.md §7.10; https://github.com/microsoft/foundry-dev-tools/issues/201",
    ),
    error(
        Check::NameCharacters,
        "OpenAI function calling docs (name: a-z, A-Z, 0-9, underscores and dashes)",
    ),
    error(Check::ArrayItems, ARRAY_ITEMS_OPENAI),
    error(
        Check::TypedAdditionalProperties,
        "issue 12 (OpenAI: additionalProperties {} is rejected, \"schema must have a 'type' key\")",
    ),
];

const OPENAI_STRICT: &[Rule] = &[
    error(
        Check::NameLength {
            max: 64,
            prefix: "",
        },
        "mcp-spec.md §7.10; https://github.com/microsoft/foundry-dev-tools/issues/201",
    ),
    error(Check::ArrayItems, ARRAY_ITEMS_OPENAI),
    error(
        Check::TypedAdditionalProperties,
        "issue 12 (OpenAI: additionalProperties {} is rejected, \"schema must have a 'type' key\")",
    ),
    error(Check::ClosedObjects, STRICT_OPENAI),
    warning(Check::AllRequired, STRICT_OPENAI),
];

const GEMINI: &[Rule] = &[
    error(
        Check::TypeEverywhere,
        "mcp-spec.md §7.7; https://github.com/loonghao/wecom-bot-mcp-server/pull/100",
    ),
    error(Check::ScalarType, TYPE_LISTS),
    error(Check::StringEnums, GEMINI_KEYWORDS),
    error(Check::Keyword("$schema"), GEMINI_KEYWORDS),
    error(Check::Keyword("$ref"), REF),
    error(Check::Keyword("exclusiveMinimum"), GEMINI_KEYWORDS),
    error(Check::Keyword("exclusiveMaximum"), GEMINI_KEYWORDS),
    error(Check::Keyword("uniqueItems"), GEMINI_KEYWORDS),
    error(Check::Keyword("multipleOf"), GEMINI_KEYWORDS),
    error(Check::Keyword("const"), GEMINI_KEYWORDS),
    error(Check::Keyword("propertyNames"), GEMINI_KEYWORDS),
    error(Check::Keyword("patternProperties"), GEMINI_KEYWORDS),
    note(Check::Keyword("default"), GEMINI_DEFAULT),
    note(Check::Keyword("additionalProperties"), GEMINI_KEYWORDS),
];

const GEMINI_JSON_SCHEMA: &[Rule] = &[
    error(
        Check::Keyword("$schema"),
        "https://github.com/google-gemini/gemini-cli/issues/14970",
    ),
    error(Check::Keyword("$ref"), REF),
];

const VSCODE: &[Rule] = &[
    error(
        Check::NameLength {
            max: 128,
            prefix: "",
        },
        "mcp-spec.md §7.10; https://github.com/github/copilot-cli/issues/2581",
    ),
    error(
        Check::NameCharacters,
        "mcp-spec.md §7.10 (Copilot: ^[a-zA-Z0-9_-]{1,128}$); https://github.com/github/copilot-cli/issues/2581",
    ),
    error(Check::ArrayItems, ARRAY_ITEMS_VSCODE),
    error(Check::Keyword("$schema"), VSCODE_DIALECT),
    error(Check::Keyword("$dynamicRef"), VSCODE_DIALECT),
    error(Check::Keyword("$dynamicAnchor"), VSCODE_DIALECT),
    error(Check::Keyword("unevaluatedProperties"), VSCODE_DIALECT),
    error(Check::Keyword("unevaluatedItems"), VSCODE_DIALECT),
    error(Check::Keyword("$ref"), REF),
    error(
        Check::EcmaPattern,
        "mcp-spec.md §7.9; https://github.com/microsoft/vscode/issues/245066 (VS Code's Ajv: `pattern must match format \"regex\"`)",
    ),
];

const CURSOR: &[Rule] = &[
    error(
        Check::NameLength {
            max: 60,
            prefix: "{server}_",
        },
        "mcp-spec.md §7.10; https://github.com/ComposioHQ/composio/issues/2788",
    ),
    error(Check::Composition { root_only: false }, CURSOR_UNIONS),
    error(Check::StringEnums, CURSOR_MODELS),
    error(Check::TupleItems, CURSOR_MODELS),
    error(Check::ScalarType, TYPE_LISTS),
    error(
        Check::DeclaredFields,
        "issue 12 (Cursor validates structuredContent against outputSchema with Ajv: an undeclared field fails the call)",
    ),
];

const LOCAL_GRAMMAR: &[Rule] = &[
    error(
        Check::MaxBound {
            keyword: "maxLength",
            max: 1999,
        },
        LLAMA_REPETITION,
    ),
    error(
        Check::MaxBound {
            keyword: "maxItems",
            max: 1999,
        },
        "https://github.com/ggml-org/llama.cpp/issues/27859",
    ),
    warning(
        Check::ListBytes { max: 97_000 },
        "https://github.com/ggml-org/llama.cpp/issues/25895 (a combined grammar over ~97 KB of tools fails)",
    ),
];

/// Every profile, the MCP baseline first.
pub(super) static PROFILES: &[Profile] = &[
    Profile {
        name: "mcp",
        host: "the MCP specification",
        rules: MCP,
        opt_in: false,
    },
    Profile {
        name: "anthropic",
        host: "Anthropic API",
        rules: ANTHROPIC,
        opt_in: false,
    },
    Profile {
        name: "anthropic-strict",
        host: "Anthropic API, strict tools",
        rules: ANTHROPIC_STRICT,
        opt_in: true,
    },
    Profile {
        name: "claude",
        host: "Claude.ai and Claude Desktop connectors, Claude Code",
        rules: CLAUDE_CONNECTORS,
        opt_in: false,
    },
    Profile {
        name: "openai",
        host: "OpenAI function calling",
        rules: OPENAI,
        opt_in: false,
    },
    Profile {
        name: "openai-strict",
        host: "OpenAI function calling, strict mode",
        rules: OPENAI_STRICT,
        opt_in: true,
    },
    Profile {
        name: "gemini",
        host: "Gemini API, `parameters`",
        rules: GEMINI,
        opt_in: false,
    },
    Profile {
        name: "gemini-json-schema",
        host: "Gemini API, `parametersJsonSchema` (Gemini CLI)",
        rules: GEMINI_JSON_SCHEMA,
        opt_in: false,
    },
    Profile {
        name: "vscode",
        host: "VS Code / GitHub Copilot",
        rules: VSCODE,
        opt_in: false,
    },
    Profile {
        name: "cursor",
        host: "Cursor",
        rules: CURSOR,
        opt_in: false,
    },
    Profile {
        name: "local-grammar",
        host: "grammar-constrained local models (llama.cpp)",
        rules: LOCAL_GRAMMAR,
        opt_in: false,
    },
];

/// The profile named `name`.
pub fn profile(name: &str) -> Result<&'static Profile, UnknownProfile> {
    PROFILES
        .iter()
        .find(|profile| profile.name == name)
        .ok_or_else(|| UnknownProfile {
            name: name.to_owned(),
        })
}

/// No built-in profile has the name asked for; its message names the profiles there are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownProfile {
    name: String,
}

impl UnknownProfile {
    /// The name asked for.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = PROFILES.iter().map(|profile| profile.name).collect();
        write!(
            f,
            "no host profile {:?}; there are {}",
            self.name,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownProfile {}
