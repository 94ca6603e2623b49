//! The lint of `tools/list` against host profiles (issue 12): one fixture per rule with the exact
//! report line it must produce, `--lint` on the catalog (clean under every profile) and on the
//! deliberately bad example (one line per problem, exit status 1), and `assert_portable`.
//!
//! `UPDATE_SNAPSHOTS=1 cargo test -p mcp-toolbelt-tests --test lint` rewrites
//! `tests/snapshots/lint-bad.txt`; review the diff before committing.

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::process::{Command, Output};

use mcp_toolbelt::icon::Icon;
use mcp_toolbelt::lint::{self, Severity};
use mcp_toolbelt::testing::{assert_portable_for, assert_result_portable, assert_tools_snapshot};
use mcp_toolbelt::{Server, tool, tool::ToolDefinition};
use mcp_toolbelt_tests::example_binary;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// A tool that every profile accepts, but for what `change` does to its definition.
fn tool_with(change: impl FnOnce(&mut ToolDefinition)) -> ToolDefinition {
    let mut tool = ToolDefinition::new(
        "paint",
        json!({
            "type": "object",
            "properties": {"color": {"type": "string", "description": "Its color"}},
            "required": ["color"],
            "additionalProperties": false
        }),
    )
    .description("Paint a wall");
    change(&mut tool);
    tool
}

/// `color`'s schema replaced by `schema`.
fn property(schema: Value) -> ToolDefinition {
    tool_with(|tool| tool.input_schema["properties"]["color"] = schema)
}

/// The report's lines for `tools` under the one profile `profile`.
fn lines(profile: &str, tools: &[ToolDefinition]) -> Vec<String> {
    let report = lint::lint("paints", tools, &[lint::profile(profile).unwrap()]);
    report.findings.iter().map(ToString::to_string).collect()
}

/// [`lines`], its errors only.
fn errors(profile: &str, tools: &[ToolDefinition]) -> Vec<String> {
    let mut lines = lines(profile, tools);
    lines.retain(|line| line.starts_with("error"));
    lines
}

/// The size of the `tools/list` of the clean fixture alone.
const BYTES: usize = 206;

#[test]
fn the_clean_fixture_passes_every_profile() {
    let report = lint::lint("paints", &[tool_with(|_| {})], &lint::all_profiles());
    assert!(!report.has_errors(), "{report:#}");
    // Nothing to change is no warning: Gemini's `parameters` strip `additionalProperties`, a
    // note shown only when asked for.
    assert_eq!(
        report.to_string(),
        format!(
            "tools/list: {BYTES} bytes, ~{} tokens; 0 errors, 0 warnings, 1 note (--verbose shows them) (profiles: {ALL})\n",
            BYTES.div_ceil(4)
        )
    );
    assert_eq!(
        format!("{report:#}").lines().next().unwrap(),
        "note[keyword] paint /inputSchema: `additionalProperties` is used (gemini); fix: nothing to change in the server, which still refuses unknown arguments: the host strips the keyword (Gemini CLI sends parametersJsonSchema, which accepts it)"
    );
    assert_eq!(report.findings.len(), 1);
    assert_eq!(report.bytes, BYTES);
    assert_eq!(report.tokens, BYTES.div_ceil(4));
}

/// Every profile's name, as a report's summary lists them.
const ALL: &str = "mcp, anthropic, anthropic-strict, claude, openai, openai-strict, gemini, gemini-json-schema, vscode, cursor, local-grammar";

#[test]
fn closed_nested_objects_and_output_schemas_are_no_warning() {
    // Nested objects closed as the portable rewrite closes them, and a `Json<T>` tool's
    // outputSchema: notes at most, under every profile.
    let nested = tool_with(|tool| {
        tool.input_schema["properties"]["filter"] = json!({
            "type": "object",
            "description": "Which ones",
            "properties": {"status": {"type": "string", "description": "Open or closed"}},
            "required": ["status"],
            "additionalProperties": false
        });
        tool.input_schema["required"] = json!(["color", "filter"]);
        tool.output_schema = Some(json!({
            "type": "object",
            "properties": {"done": {"type": "boolean"}},
            "required": ["done"],
            "additionalProperties": false
        }));
    });
    let report = lint::lint("paints", &[nested], &lint::all_profiles());
    let shown: Vec<String> = report
        .findings
        .iter()
        .filter(|finding| finding.severity != Severity::Note)
        .map(ToString::to_string)
        .collect();
    assert_eq!(shown, Vec::<String>::new());
    assert!(
        report
            .to_string()
            .contains("; 0 errors, 0 warnings, 3 notes"),
        "{report:#}"
    );
}

#[test]
fn name_length_counts_the_hosts_prefix() {
    let name = "a".repeat(55);
    let long = tool_with(|tool| tool.name.clone_from(&name));
    assert_eq!(
        lines("anthropic", std::slice::from_ref(&long)),
        Vec::<String>::new()
    );
    assert_eq!(
        lines("claude", std::slice::from_ref(&long)),
        [format!(
            "error[name-length] {name} /name: `mcp__paints__{name}` is 68 characters, more than 64 (claude); fix: shorten the name: #[tool(name = \"...\")]"
        )]
    );
    assert_eq!(
        lines("cursor", &[long]),
        [format!(
            "error[name-length] {name} /name: `paints_{name}` is 62 characters, more than 60 (cursor); fix: shorten the name: #[tool(name = \"...\")]"
        )]
    );
}

#[test]
fn name_characters() {
    let dotted = tool_with(|tool| tool.name = "paint.wall".into());
    assert_eq!(
        lines("vscode", &[dotted]),
        [
            "error[name-characters] paint.wall /name: `paint.wall` contains '.' (vscode); fix: use only letters, digits, `_` and `-`: #[tool(name = \"...\")]"
        ]
    );
}

#[test]
fn description_present_and_not_empty() {
    let blank = tool_with(|tool| tool.description = Some("  ".into()));
    assert_eq!(
        lines("mcp", &[blank]),
        [
            "warning[description] paint /description: no description (mcp); fix: write a doc comment on the fn (or #[tool(description = \"...\")])"
        ]
    );
}

/// Icons the attributes could not check (`Tool::icon`, `Server::icon`): clients reject every
/// source but `https:` and `data:`; a type that is no image, or a size not `WxH`/`any`, is a
/// warning.
#[test]
fn icons_served_as_clients_take_them() {
    let icons = tool_with(|tool| {
        tool.icons = vec![
            Icon::new("http://example.com/paint.png").mime_type("image/tiff"),
            Icon::new("https://example.com/paint.svg").sizes(["any", "48"]),
            Icon::data("image/png", b"png"),
        ];
    });
    assert_eq!(
        lines("mcp", &[icons]),
        [
            "error[icon-source] paint /icons/0/src: `http://example.com/paint.png` is neither an `https:` URL nor a `data:` URI (mcp); fix: serve the image from an `https://` URL, or carry it in the message: Icon::data(\"image/png\", bytes) (icons(data = include_bytes!(...), mime_type = \"image/png\") on an attribute)",
            "warning[icon-format] paint /icons/0/mimeType: `image/tiff` is not an image type hosts show (mcp); fix: give an image type hosts show (image/png, image/jpeg, image/jpg, image/svg+xml, image/webp, image/gif, image/avif, image/x-icon, image/vnd.microsoft.icon) and sizes as `48x48` or `any`",
            "warning[icon-format] paint /icons/1/sizes/1: `48` is neither `WxH` nor `any` (mcp); fix: give an image type hosts show (image/png, image/jpeg, image/jpg, image/svg+xml, image/webp, image/gif, image/avif, image/x-icon, image/vnd.microsoft.icon) and sizes as `48x48` or `any`",
        ]
    );
}

/// The server's own icons are linted by `assert_portable` (and `--lint`) as the server's (never
/// to be mistaken for a tool's: a tool may be named like anything).
#[test]
fn the_servers_icons_are_linted_too() {
    let server = Server::new("points", "1.0.0")
        .icon(Icon::new("https://example.com/points.png").mime_type("image/png"))
        .icon(Icon::new("ftp://example.com/points.png"));
    let panic = std::panic::catch_unwind(AssertUnwindSafe(|| {
        assert_portable_for(&server, &["mcp"]);
    }))
    .unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(
        message.contains(
            "\nerror[icon-source] server points /icons/1/src: `ftp://example.com/points.png` is neither an `https:` URL nor a `data:` URI (mcp); fix: serve the image from an `https://` URL"
        ),
        "{message}"
    );
    assert_portable_for(
        &Server::new("points", "1.0.0").icon(Icon::new("https://example.com/points.png")),
        &["mcp"],
    );
}

/// Resources' and templates' icons are linted too, each under its URI: `Resource::icon` (and a
/// `const` in `#[resource(icons(src = …))]`) is seen by no compile-time check.
#[test]
fn the_resources_icons_are_linted_too() {
    let server = Server::new("points", "1.0.0");
    let text = |_| async { "x" };
    server
        .resources()
        .add(
            mcp_toolbelt::resource::Resource::new("points://{id}", "point", text)
                .unwrap()
                .icon(Icon::new("ftp://example.com/point.png")),
        )
        .unwrap();
    let panic = std::panic::catch_unwind(AssertUnwindSafe(|| {
        assert_portable_for(&server, &["mcp"]);
    }))
    .unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(
        message.contains(
            "\nerror[icon-source] resource points://{id} /icons/0/src: `ftp://example.com/point.png` is neither an `https:` URL nor a `data:` URI (mcp)"
        ),
        "{message}"
    );
}

#[test]
fn property_description() {
    assert_eq!(
        lines("mcp", &[property(json!({"type": "string"}))]),
        [
            "warning[property-description] paint /inputSchema/properties/color: a property without a description (mcp); fix: write a doc comment on the parameter or field"
        ]
    );
}

#[test]
fn keywords_per_profile() {
    let constant = property(json!({"type": "string", "description": "Its color", "const": "red"}));
    assert_eq!(
        lines("gemini", std::slice::from_ref(&constant))[0],
        "error[keyword] paint /inputSchema/properties/color: `const` is used (gemini); fix: drop the attribute that adds it (#[schemars(...)]), or the key from a hand-written schema"
    );
    assert_eq!(lines("cursor", &[constant]), Vec::<String>::new());
    // 2020-12, MCP's default, is fine with Anthropic; VS Code drops any declared dialect.
    let declared = tool_with(|tool| {
        tool.input_schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    });
    assert_eq!(
        lines("anthropic", std::slice::from_ref(&declared)),
        Vec::<String>::new()
    );
    assert_eq!(lines("vscode", &[declared]).len(), 1);
    let dialect = tool_with(|tool| {
        tool.input_schema["$schema"] = json!("http://json-schema.org/draft-07/schema#");
    });
    assert_eq!(
        lines("anthropic", &[dialect]),
        [
            "error[dialect] paint /inputSchema: `$schema` names another dialect: \"http://json-schema.org/draft-07/schema#\" (anthropic); fix: drop `$schema` (MCP's default dialect is 2020-12), or write the schema in 2020-12"
        ]
    );
}

#[test]
fn schemas_must_be_2020_12() {
    let draft_07 = property(
        json!({"type": "array", "description": "A pair", "items": [{"type": "string"}, {"type": "string"}]}),
    );
    let lines = lines("anthropic", &[draft_07]);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("error[schema-2020-12] paint /inputSchema/properties/color/items: not valid JSON Schema 2020-12: "),
        "{lines:?}"
    );
    assert!(
        lines[0].ends_with(" (anthropic); fix: write the hand-written schema in JSON Schema 2020-12 (no draft-07 `items` lists, no `$schema` of another draft)"),
        "{lines:?}"
    );
}

#[test]
fn type_on_every_subschema() {
    assert_eq!(
        errors("gemini", &[property(json!({"description": "Its color"}))]),
        [
            "error[type] paint /inputSchema/properties/color: a schema without `type` (gemini); fix: give it a concrete Rust type (not serde_json::Value), or a flatter type than an untagged enum"
        ]
    );
}

#[test]
fn type_lists() {
    assert_eq!(
        lines(
            "cursor",
            &[property(
                json!({"type": ["string", "null"], "description": "Its color"})
            )]
        ),
        [
            "error[type-list] paint /inputSchema/properties/color: `type` is a list: [\"string\",\"null\"] (cursor); fix: one type per value: a plain Option<T> goes absent, not null (serve the tool portable, or drop `null` from the hand-written schema); an Option<Option<T>>, whose null clears, has no one-type form: take an Option<T> and a `clear_…: bool` instead, or keep it for hosts that take type lists"
        ]
    );
}

#[test]
fn arrays_with_items() {
    assert_eq!(
        lines(
            "openai",
            &[property(
                json!({"type": "array", "description": "Its colors"})
            )]
        ),
        [
            "error[array-items] paint /inputSchema/properties/color: an array without `items` (openai); fix: give the array's element a concrete type"
        ]
    );
}

#[test]
fn tuple_items() {
    let pair = json!({"type": "array", "description": "A pair", "prefixItems": [{"type": "string"}, {"type": "string"}]});
    assert_eq!(
        lines("cursor", &[property(pair)]),
        [
            "error[tuple-items] paint /inputSchema/properties/color: a tuple array (`prefixItems` or a list of `items`) (cursor); fix: use a struct with named fields instead of a tuple"
        ]
    );
}

#[test]
fn patterns_are_ecma_262() {
    let fix = "fix: write the regex as JavaScript reads it (with the `u` flag): `(?i)` becomes `[Aa]` classes, `\\A`/`\\z` become `^`/`$`, no possessive `*+` or atomic `(?>…)`";
    let with = |pattern: &str| {
        property(json!({"type": "string", "description": "Its color", "pattern": pattern}))
    };
    // Rust's (and PCRE's) syntax that JavaScript's `RegExp` refuses.
    for (pattern, error) in [
        (r"(?i)^red$", "Invalid group modifier"),
        (r"\Ared", "Invalid character escape"),
        (r"red\z", "Invalid character escape"),
        (r"^re*+d$", "Invalid atom character"),
    ] {
        assert_eq!(
            lines("vscode", &[with(pattern)]),
            [format!(
                "error[pattern] paint /inputSchema/properties/color: {pattern:?} is not an ECMA-262 regex: {error} (vscode); {fix}"
            )],
        );
    }
    // What both read alike passes: classes, anchors, named groups, Unicode properties.
    for pattern in [
        r"^[A-Za-z]{3}-\d{4}$",
        r"^(?<word>\p{L}+)$",
        r"^#[0-9a-f]{6}$",
    ] {
        assert_eq!(
            lines("vscode", &[with(pattern)]),
            Vec::<String>::new(),
            "{pattern}"
        );
    }
    // A `patternProperties` key is a regex too.
    let map = property(
        json!({"type": "object", "description": "Its color", "patternProperties": {"(?x) a": {"type": "string"}}}),
    );
    assert_eq!(
        errors("vscode", &[map]),
        [format!(
            "error[pattern] paint /inputSchema/properties/color: \"(?x) a\" is not an ECMA-262 regex: {}",
            "Invalid group modifier (vscode); ".to_owned() + fix
        )]
    );
    // So is one below any keyword that holds a subschema (a hand-written schema may use them).
    for (keyword, inner) in [
        ("dependentSchemas", json!({"b": {"pattern": "\\Ab"}})),
        ("unevaluatedProperties", json!({"pattern": "\\Ab"})),
        ("contentSchema", json!({"pattern": "\\Ab"})),
    ] {
        let nested =
            property(json!({"type": "object", "description": "Its color", keyword: inner}));
        let found: Vec<String> = errors("vscode", &[nested])
            .into_iter()
            .filter(|line| line.starts_with("error[pattern]"))
            .collect();
        assert_eq!(found.len(), 1, "{keyword}: {found:?}");
        assert!(found[0].contains(&format!("/color/{keyword}")), "{found:?}");
    }
}

#[test]
fn composition_where_forbidden_names_the_fix() {
    let union = json!({"description": "Its color", "type": "object", "oneOf": [
        {"type": "object", "properties": {"rgb": {"type": "string", "description": "Hex"}}},
        {"type": "object", "properties": {"name": {"type": "string", "description": "Name"}}}
    ]});
    let fix = "fix: a data-carrying enum is a oneOf: use a flatter type, a string enum (unit variants), or a tagged struct (a `kind` string enum and optional fields)";
    assert_eq!(
        lines("cursor", &[property(union.clone())]),
        [format!(
            "error[composition] paint /inputSchema/properties/color: `oneOf` is used (cursor); {fix}"
        )]
    );
    // Anthropic refuses it at the root only.
    assert_eq!(
        lines("anthropic", &[property(union.clone())]),
        Vec::<String>::new()
    );
    let root = tool_with(|tool| tool.input_schema["anyOf"] = json!([{"required": ["color"]}]));
    assert_eq!(
        lines("anthropic", &[root]),
        [format!(
            "error[composition] paint /inputSchema/anyOf: `anyOf` at the root of the input schema (anthropic); {fix}"
        )]
    );
    // Cursor looks at output schemas too.
    let output = tool_with(|tool| {
        tool.output_schema = Some(json!({"type": "object", "properties": {"color": union}}));
    });
    assert_eq!(
        lines("cursor", &[output]),
        [format!(
            "error[composition] paint /outputSchema/properties/color: `oneOf` is used (cursor); {fix}"
        )]
    );
}

#[test]
fn enum_value_types() {
    assert_eq!(
        errors(
            "gemini",
            &[property(
                json!({"type": "integer", "description": "Its shade", "enum": [1, 2]})
            )]
        ),
        [
            "error[enum-type] paint /inputSchema/properties/color: `enum` has a value that is not a string: 1 (gemini); fix: use a string enum (unit variants) instead of numbers or booleans"
        ]
    );
}

#[test]
fn bound_sizes() {
    let long = property(json!({"type": "string", "description": "Its color", "maxLength": 2000}));
    assert_eq!(
        lines("local-grammar", std::slice::from_ref(&long)),
        [
            "error[bound-size] paint /inputSchema/properties/color: `maxLength: 2000` is more than 1999 (local-grammar); fix: lower the bound, or drop it and check the length in the tool"
        ]
    );
    assert_eq!(
        lines("anthropic-strict", &[long]),
        [format!(
            "error[unsupported-bound] paint /inputSchema/properties/color: `maxLength` is not supported (anthropic-strict); {BOUND_FIX}"
        )]
    );
}

const BOUND_FIX: &str = "fix: drop #[schemars(range(...))] or #[schemars(length(...))] and check the value in the tool; an integer's width is a bound no Rust type avoids: send the tool without `strict`, or have whoever sends it move the bounds into the description (Anthropic's SDKs do)";

#[test]
fn anthropic_strict_mode_refuses_numeric_and_length_bounds() {
    // Anthropic's structured-outputs docs: numerical constraints, string constraints and
    // `minItems` above 1 are not supported (the API answers 400), as mcp-strict-check says.
    let bounded = property(
        json!({"type": "integer", "description": "How many", "minimum": 0, "maximum": 50}),
    );
    assert_eq!(
        lines("anthropic-strict", &[bounded]),
        [format!(
            "error[unsupported-bound] paint /inputSchema/properties/color: `minimum`, `maximum` are not supported (anthropic-strict); {BOUND_FIX}"
        )]
    );
    let one_or_more = property(
        json!({"type": "array", "description": "Colors", "items": {"type": "string"}, "minItems": 1}),
    );
    assert_eq!(
        lines("anthropic-strict", &[one_or_more]),
        Vec::<String>::new()
    );
    let two = property(
        json!({"type": "array", "description": "Colors", "items": {"type": "string"}, "minItems": 2}),
    );
    assert_eq!(lines("anthropic-strict", &[two]).len(), 1);
    let rule = lint::profile("anthropic-strict")
        .unwrap()
        .rules()
        .iter()
        .find(|rule| rule.check() == lint::Check::UnsupportedBounds)
        .unwrap();
    assert_eq!(rule.severity(), Severity::Error);
    assert!(
        rule.citation()
            .contains("Numerical constraints (minimum, maximum, multipleOf)")
    );
    // A strict mode is checked where it is named: `--lint` alone leaves it out.
    assert!(
        !lint::default_profiles()
            .iter()
            .any(|profile| profile.name() == "anthropic-strict")
    );
}

#[test]
fn strict_modes_want_closed_objects_and_every_property_required() {
    let open = tool_with(|tool| {
        tool.input_schema
            .as_object_mut()
            .unwrap()
            .remove("additionalProperties");
        tool.input_schema["required"] = json!([]);
    });
    assert_eq!(
        lines("openai-strict", &[open]),
        [
            "error[closed-object] paint /inputSchema: an object without `additionalProperties: false` (openai-strict); fix: add #[serde(deny_unknown_fields)] to the struct",
            "warning[all-required] paint /inputSchema: not required: color (openai-strict); fix: make the field required, or have the host turn strict mode off for this tool",
        ]
    );
}

#[test]
fn fixes_name_what_can_be_written_for_the_type() {
    let fix = |profile: &str, schema: Value| {
        let report = lint::lint(
            "paints",
            &[property(schema)],
            &[lint::profile(profile).unwrap()],
        );
        report
            .findings
            .iter()
            .map(|finding| finding.fix)
            .collect::<Vec<_>>()
    };
    // No `#[serde(deny_unknown_fields)]` for a map, a `Duration` or a `serde_json::Value`.
    let map = json!({"type": "object", "description": "Counts", "additionalProperties": {"type": "integer"}});
    assert_eq!(
        fix("openai-strict", map),
        [
            "none for a map (HashMap, BTreeMap), which takes any key: use a struct with named fields (and #[serde(deny_unknown_fields)])"
        ]
    );
    let duration = json!({"type": "object", "description": "How long", "required": ["secs", "nanos"], "properties": {
        "secs": {"type": "integer", "minimum": 0}, "nanos": {"type": "integer", "minimum": 0}}});
    assert_eq!(
        fix("openai-strict", duration),
        [
            "none for std::time::Duration (its `{secs, nanos}` cannot take serde attributes): take the duration as a number of seconds or milliseconds (u64) and convert it in the tool"
        ]
    );
    let value = json!({"description": "Anything", "type": ["object", "array", "string", "number", "boolean", "null"]});
    // An object without `additionalProperties: false`, an array without `items`: one fix.
    assert_eq!(
        fix("openai-strict", value),
        ["none for serde_json::Value, which takes any JSON: give the argument a concrete type"; 2]
    );
    // A struct of one's own can take the attribute.
    let own = json!({"type": "object", "description": "A filter", "properties": {"status": {"type": "string", "description": "Which"}}, "required": ["status"]});
    assert_eq!(
        fix("openai-strict", own),
        ["add #[serde(deny_unknown_fields)] to the struct"]
    );
    // `enum IdOrName { Id(u64), Name(String) }` (untagged): no null, so no `Option<T>`.
    let id_or_name = json!({"type": ["integer", "string"], "description": "An id or a name"});
    assert_eq!(
        fix("cursor", id_or_name),
        [
            "one type per value: an untagged enum of several scalar types has no one-type form; take one type (a String the tool parses), or a struct with an optional field per kind"
        ]
    );
}

#[test]
fn optional_properties_grow_anthropics_strict_grammar() {
    let many = tool_with(|tool| {
        for index in 0..25 {
            tool.input_schema["properties"][format!("p{index}")] =
                json!({"type": "string", "description": "One more"});
        }
    });
    assert_eq!(
        lines("anthropic-strict", &[many]),
        [
            "warning[optional-count] paint /inputSchema: 25 optional properties, more than 24 (anthropic-strict); fix: split the tool, or make fields required"
        ]
    );
}

#[test]
fn untyped_additional_properties() {
    let map = property(
        json!({"type": "object", "description": "Its colors", "additionalProperties": {}}),
    );
    assert_eq!(
        lines("openai", &[map]),
        [
            "error[untyped-additional-properties] paint /inputSchema/properties/color: `additionalProperties` is a schema without `type` (openai); fix: give the map's values a concrete type (HashMap<String, T>, T not serde_json::Value)"
        ]
    );
}

#[test]
fn output_schemas() {
    let scalar = tool_with(|tool| tool.output_schema = Some(json!({"type": "number"})));
    assert_eq!(
        lines("mcp", std::slice::from_ref(&scalar)),
        [
            "error[output-schema-object] paint /outputSchema: the outputSchema's root is not `type: \"object\"` (mcp); fix: return Json<T> of a struct, not of a scalar or a list"
        ]
    );
    assert_eq!(
        lines("claude", &[scalar]),
        [
            "note[output-schema] paint /outputSchema: an outputSchema is declared (claude); fix: #[tool(output_schema = false)] for this host (the JSON stays the text), or keep it and test the host"
        ]
    );
}

#[test]
fn the_size_of_the_whole_list() {
    let tools: Vec<ToolDefinition> = (0..500)
        .map(|index| tool_with(|tool| tool.name = format!("paint-{index}")))
        .collect();
    let report = lint::lint("paints", &tools, &[lint::profile("local-grammar").unwrap()]);
    assert_eq!(report.bytes, 99_401);
    assert_eq!(report.tokens, 24_851);
    assert_eq!(
        report
            .findings
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        [
            "warning[list-size] * /: tools/list is 99401 bytes, more than 97000 (local-grammar); fix: shorten descriptions, or serve fewer tools"
        ]
    );
}

#[test]
fn one_finding_names_every_host_that_minds() {
    let report = lint::lint(
        "paints",
        &[property(
            json!({"type": ["string", "null"], "description": "Its color"}),
        )],
        &lint::all_profiles(),
    );
    let finding = &report.findings[0];
    assert_eq!(finding.hosts, ["gemini", "cursor"]);
    assert_eq!(finding.citations.len(), 2);
    assert!(
        finding.citations[0].contains("§7.6"),
        "{:?}",
        finding.citations
    );
}

#[test]
fn every_rule_has_a_citation() {
    for profile in lint::all_profiles() {
        for rule in profile.rules() {
            assert!(
                ["§", "https://", "docs", "issue 12", "MCP spec"]
                    .iter()
                    .any(|source| rule.citation().contains(source)),
                "{}: {rule:?}",
                profile.name()
            );
        }
    }
    let unknown = lint::profile("emacs").unwrap_err();
    assert_eq!(unknown.name(), "emacs");
    assert!(
        unknown
            .to_string()
            .starts_with("no host profile \"emacs\"; there are mcp, anthropic")
    );
}

/// A tool with an output schema of one field, `color`.
fn structured() -> ToolDefinition {
    tool_with(|tool| {
        tool.output_schema = Some(json!({
            "type": "object",
            "properties": {"color": {"type": "string"}},
            "required": ["color"]
        }));
    })
}

fn result_lines(tool: &ToolDefinition, result: &Value) -> Vec<String> {
    let report = lint::lint_result(tool, result, &lint::all_profiles());
    report.findings.iter().map(ToString::to_string).collect()
}

#[test]
fn structured_content_and_its_output_schema() {
    let text = json!({"content": [{"type": "text", "text": "red"}]});
    let red = json!({"content": [{"type": "text", "text": "{\"color\":\"red\"}"}], "structuredContent": {"color": "red"}});
    assert_eq!(result_lines(&structured(), &red), Vec::<String>::new());
    assert_eq!(
        result_lines(&tool_with(|_| {}), &red),
        [
            "warning[structured-without-schema] paint /structuredContent: structured content from a tool without an outputSchema (mcp); fix: return Json<T>, which declares its outputSchema"
        ]
    );
    assert_eq!(
        result_lines(&structured(), &text),
        [
            "error[schema-without-structured] paint /structuredContent: no structured content, though the tool declares an outputSchema (mcp); fix: return the structured result on success (Json<T> does), or declare no outputSchema"
        ]
    );
    let failed = json!({"content": [{"type": "text", "text": "no paint"}], "isError": true});
    assert_eq!(result_lines(&structured(), &failed), Vec::<String>::new());
    let extra = json!({"content": [], "structuredContent": {"color": "red", "gloss": true}});
    assert_eq!(
        result_lines(&structured(), &extra),
        [
            "error[undeclared-field] paint /structuredContent/gloss: `gloss` is not declared in the outputSchema (cursor); fix: declare the field in the output type, or leave it out of the structured result"
        ]
    );
    let report = lint::lint_result(&structured(), &extra, &lint::all_profiles());
    assert!(report.to_string().ends_with("tools/call paint: 63 bytes, ~16 tokens; 1 error, 0 warnings (profiles: mcp, anthropic, anthropic-strict, claude, openai, openai-strict, gemini, gemini-json-schema, vscode, cursor, local-grammar)\n"), "{report}");
}

#[test]
fn assert_result_portable_fails_with_the_report() {
    let extra: mcp_toolbelt::CallToolResult = serde_json::from_value(
        json!({"content": [], "structuredContent": {"color": "red", "gloss": true}}),
    )
    .unwrap();
    let panic = std::panic::catch_unwind(|| assert_result_portable(&structured(), &extra, &[]))
        .unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(
        message.starts_with("some hosts would refuse this result:\nerror[undeclared-field] paint /structuredContent/gloss"),
        "{message}"
    );
    assert_result_portable(&structured(), &extra, &["mcp", "claude"]);
}

fn run(example: &str, arguments: &[&str]) -> Output {
    Command::new(example_binary(example))
        .args(arguments)
        .output()
        .expect("the example runs")
}

#[test]
fn the_catalog_is_clean_under_every_profile() {
    // Clean tools print no warning: only the summary.
    let output = run("catalog", &["--lint"]);
    let report = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{report}");
    assert_eq!(
        report,
        "tools/list: 2220 bytes, ~555 tokens; 0 errors, 0 warnings, 7 notes (--verbose shows them) (profiles: mcp, anthropic, claude, openai, gemini, gemini-json-schema, vscode, cursor, local-grammar)\n",
    );
    let verbose = String::from_utf8(run("catalog", &["--lint", "--verbose"]).stdout).unwrap();
    assert_eq!(
        verbose
            .lines()
            .filter(|line| line.starts_with("note["))
            .count(),
        7,
        "{verbose}"
    );
    for profile in lint::default_profiles() {
        let output = run("catalog", &["--lint", "--profile", profile.name()]);
        assert!(
            output.status.success(),
            "{}: {}",
            profile.name(),
            String::from_utf8_lossy(&output.stdout)
        );
    }
    // Named, Anthropic's strict mode refuses `search`'s `limit` (a u32 of at most 50).
    let strict = run("catalog", &["--lint", "--profile", "anthropic-strict"]);
    assert_eq!(strict.status.code(), Some(1));
    assert!(
        String::from_utf8(strict.stdout).unwrap().starts_with("error[unsupported-bound] search /inputSchema/properties/limit: `minimum`, `maximum` are not supported (anthropic-strict)")
    );
}

#[test]
fn a_bad_tool_set_fails_with_one_line_per_problem() {
    let output = run("lint-bad", &["--lint"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "Error: the tools break rules of the hosts above (--lint)\n"
    );
    let report = String::from_utf8(output.stdout).unwrap();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("snapshots/lint-bad.txt");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|value| value == "1") {
        std::fs::write(&path, &report).unwrap();
    }
    assert_eq!(report, std::fs::read_to_string(&path).unwrap());
}

#[test]
fn json_for_machines() {
    let output = run(
        "lint-bad",
        &["--lint", "--profile", "cursor", "--format", "json"],
    );
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["profiles"], json!(["cursor"]));
    assert_eq!(
        report["findings"][0],
        json!({
            "severity": "error",
            "subject": "tool",
            "tool": "a_tool_name_so_long_that_no_host_with_a_server_prefix_shows_it",
            "pointer": "/inputSchema/properties/point",
            "rule": "tuple-items",
            "message": "a tuple array (`prefixItems` or a list of `items`)",
            "hosts": ["cursor"],
            "fix": "use a struct with named fields instead of a tuple",
            "citations": ["issue 12 (Cursor: non-string enums and tuple items break the Gemini, Grok and Kimi models)"]
        })
    );
    let unknown = run("lint-bad", &["--lint", "--profile", "emacs"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&unknown.stderr).starts_with("Error: no host profile \"emacs\"")
    );
}

/// Say where a point is
#[tool]
async fn locate(
    /// The point, as a pair
    point: (i32, i32),
) -> String {
    format!("{point:?}")
}

#[test]
fn assert_portable_fails_with_the_report() {
    let server = only(&["locate"]);
    let panic = std::panic::catch_unwind(AssertUnwindSafe(|| {
        assert_portable_for(&server, &["cursor"]);
    }))
    .unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert_eq!(
        message,
        "some hosts would refuse these tools:\n\
         error[tuple-items] locate /inputSchema/properties/point: a tuple array (`prefixItems` or a list of `items`) (cursor); fix: use a struct with named fields instead of a tuple\n\
         tools/list: 391 bytes, ~98 tokens; 1 error, 0 warnings (profiles: cursor)\n"
    );
    assert_portable_for(&server, &["openai", "vscode"]);
}

#[test]
fn assert_tools_snapshot_shows_drift() {
    let server = Server::new("points", "1.0.0");
    let path = std::env::temp_dir().join(format!("lint-snapshot-{}.json", std::process::id()));
    std::fs::write(&path, "{\"tools\": []}\n").unwrap();
    let panic =
        std::panic::catch_unwind(AssertUnwindSafe(|| assert_tools_snapshot(&server, &path)))
            .unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(message.contains("tools/list differs from"), "{message}");
    assert!(
        message.contains("rerun with UPDATE_SNAPSHOTS=1"),
        "{message}"
    );
    let listing = serde_json::to_string_pretty(&server.tools().list()).unwrap() + "\n";
    std::fs::write(&path, listing).unwrap();
    assert_tools_snapshot(&server, &path);
    std::fs::remove_file(&path).unwrap();
}

/// `server`'s tools but those named `names` removed: the tools of this binary, one at a time.
fn only(names: &[&str]) -> Server {
    let server = Server::new("points", "1.0.0");
    for tool in server.tools().list().tools {
        if !names.contains(&tool.name.as_str()) {
            let _ = server.tools().remove(&tool.name);
        }
    }
    server
}

/// The definition of this binary's tool `name`, as served.
fn served(name: &str) -> ToolDefinition {
    only(&[name]).tools().list().tools.remove(0)
}

/// Which issues to list: fields serde fills when they are absent.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Paging {
    /// How many per page
    #[serde(default = "twenty")]
    per_page: u8,
    /// Include closed issues
    #[serde(default)]
    closed: bool,
}

fn twenty() -> u8 {
    20
}

/// List issues, a page at a time
#[tool]
async fn page(paging: Paging) -> String {
    format!("{} {}", paging.per_page, paging.closed)
}

/// Issue 40, item 9: the Gemini API takes `default` and ignores it: no error, no advice that
/// would make an optional argument required.
#[test]
fn serde_default_is_no_error_for_gemini() {
    let page = served("page");
    assert_eq!(
        errors("gemini", std::slice::from_ref(&page)),
        Vec::<String>::new()
    );
    let notes: Vec<String> = lines("gemini", &[page])
        .into_iter()
        .filter(|line| line.contains("`default`"))
        .collect();
    assert_eq!(
        notes,
        [
            "note[keyword] page /inputSchema/properties/closed: `default` is used (gemini); fix: nothing to change: the Gemini API accepts `default` and ignores it (the argument stays optional, serde fills it)",
            "note[keyword] page /inputSchema/properties/per_page: `default` is used (gemini); fix: nothing to change: the Gemini API accepts `default` and ignores it (the argument stays optional, serde fills it)",
        ]
    );
    mcp_toolbelt::testing::assert_portable(&only(&["page"]));
}

/// How two issues are linked: serde's internally tagged enum, a `oneOf` of objects that each
/// carry the tag `kind`.
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "kind")]
enum Link {
    /// This issue blocks another
    Blocks {
        /// The blocked issue
        id: u32,
    },
    /// This issue relates to another
    RelatesTo {
        /// The related issue
        id: u32,
    },
}

/// Link an issue to another
#[tool]
async fn link(
    /// The issue to link
    issue: u32,
    /// How it is linked
    link: Link,
) -> String {
    match link {
        Link::Blocks { id } | Link::RelatesTo { id } => format!("{issue} {id}"),
    }
}

/// Issue 40, item 10: an internally tagged enum is a `oneOf` of objects (closed, as served:
/// the portable rewrite closes every object), not a map; its tag is serde's, which no doc
/// comment reaches.
#[test]
fn an_internally_tagged_enum_gets_fixes_for_an_enum() {
    let closed = served("link");
    for profile in ["openai-strict", "anthropic-strict", "mcp"] {
        let found: Vec<String> = lines(profile, std::slice::from_ref(&closed))
            .into_iter()
            .filter(|line| !line.starts_with("error[unsupported-bound]"))
            .collect();
        assert_eq!(found, Vec::<String>::new(), "{profile}");
    }
    // A hand-written schema (or one served as schemars makes it) whose variants take unknown
    // fields: the enum is what takes the attribute.
    let variant = |kind: &str| {
        json!({"type": "object", "description": kind, "required": ["kind", "id"], "properties": {
            "kind": {"type": "string", "enum": [kind]},
            "id": {"type": "integer", "description": "The other issue"}}})
    };
    let open = property(json!({"type": "object", "description": "How it is linked",
        "oneOf": [variant("Blocks"), variant("RelatesTo")]}));
    assert_eq!(
        lines("openai-strict", std::slice::from_ref(&open)),
        [
            "error[closed-object] paint /inputSchema/properties/color/oneOf/0: an object without `additionalProperties: false` (openai-strict); fix: add #[serde(deny_unknown_fields)] to the enum (its tag stays allowed)",
            "error[closed-object] paint /inputSchema/properties/color/oneOf/1: an object without `additionalProperties: false` (openai-strict); fix: add #[serde(deny_unknown_fields)] to the enum (its tag stays allowed)",
        ]
    );
    assert_eq!(lines("mcp", &[open]), Vec::<String>::new());
}

/// Issue 40, item 11: an `f32` carries its width as bounds; `f64` has none.
#[test]
fn an_f32_is_told_to_be_an_f64() {
    /// Paint a wall thinly
    #[tool]
    async fn thin(
        /// How thick, in millimetres
        thickness: f32,
    ) -> String {
        thickness.to_string()
    }
    assert_eq!(
        lines("anthropic-strict", &[served("thin")]),
        [
            "error[unsupported-bound] thin /inputSchema/properties/thickness: `minimum`, `maximum` are not supported (anthropic-strict); fix: take an f64, which has no bounds: an f32's are its range (±3.4e38), which no attribute removes"
        ]
    );
}

/// The `scoped` binary (`tests/src/bin/scoped.rs`) run with `--lint` and `env`: its status and
/// the lines of its report.
fn scoped_lint(env: &[(&str, &str)]) -> (bool, Vec<String>) {
    let output = Command::new(env!("CARGO_BIN_EXE_scoped"))
        .arg("--lint")
        .env_remove("MCP_OAUTH_ISSUER")
        .envs(env.iter().copied())
        .output()
        .expect("the binary runs");
    let report = String::from_utf8(output.stdout).unwrap();
    (
        output.status.success(),
        report.lines().map(str::to_owned).collect(),
    )
}

#[test]
fn scoped_items_on_a_server_that_checks_no_token_are_warned_about() {
    let fix = "fix: configure auth, or every caller is served it: HttpConfig::bearer_auth, \
               HttpConfig::oauth, or run() with --oauth-issuer URL (MCP_OAUTH_ISSUER)";
    let (passed, lines) = scoped_lint(&[]);
    assert!(passed, "warnings never fail: {lines:#?}");
    let warning = |item: &str, scopes: &str| {
        format!(
            "warning[scopes-without-auth] {item} /: needs the {scopes}, but the server checks no \
             token: every caller is served it (mcp); {fix}"
        )
    };
    assert_eq!(
        lines[..4],
        [
            warning("add_note", "scope `notes:write`"),
            warning("resource scoped://notes", "scope `notes:read`"),
            warning(
                "resource scoped://notes/{id}",
                "scopes `notes:read notes:admin`"
            ),
            warning("prompt summarise", "scope `notes:read`"),
        ],
    );
    assert!(lines[4].contains("; 0 errors, 4 warnings"), "{lines:#?}");
    // A server that checks tokens, its own way or by the built-in verifier, is not warned.
    for env in [
        [("SCOPED_BEARER", "1")],
        [("MCP_OAUTH_ISSUER", "https://id.example.com")],
    ] {
        let (passed, lines) = scoped_lint(&env);
        assert!(passed, "{env:?}: {lines:#?}");
        assert_eq!(lines.len(), 1, "{env:?}: only the summary: {lines:#?}");
        assert!(
            lines[0].contains("; 0 errors, 0 warnings"),
            "{env:?}: {lines:#?}"
        );
    }
}
