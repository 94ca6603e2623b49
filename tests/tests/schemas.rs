//! The schemas a host sees: argument structs with tricky types, advertised as `tools/list`
//! answers them, compared whole; and a walk over every schema that checks the portable rules of
//! the `tool` macro's docs ("Portable schemas").

// The argument structs are here for their schemas: most tools never read their fields. Tools are
// written as users write them, `async` even when they await nothing.
#![allow(dead_code, clippy::unused_async)]

use std::collections::HashMap;

use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt::{Json, Server, tool, tool::ToolDefinition};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

// ---- nested structs ------------------------------------------------------------------------

#[derive(Deserialize, JsonSchema)]
struct Address {
    /// Street and number
    street: String,
    city: String,
    zip: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
struct NestedArgs {
    /// Who
    name: String,
    /// Where they live
    address: Address,
    previous: Vec<Address>,
}

/// Nested structs
#[tool]
async fn nested(args: NestedArgs) -> String {
    args.name
}

// ---- unit enums ----------------------------------------------------------------------------

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Color {
    Red,
    Green,
    Blue,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Size {
    /// Fits in a hand
    Small,
    /// Needs two hands
    ExtraLarge,
}

#[derive(Deserialize, JsonSchema)]
struct EnumArgs {
    color: Color,
    /// How big
    size: Size,
    maybe_color: Option<Color>,
    maybe_size: Option<Size>,
    colors: Vec<Color>,
}

/// Unit enums
#[tool]
async fn enums(_args: EnumArgs) -> String {
    String::new()
}

// ---- serde attributes, collections, Value --------------------------------------------------

#[derive(Deserialize, JsonSchema)]
struct Paging {
    page: u32,
    per_page: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct SerdeArgs {
    first_name: String,
    #[serde(default)]
    retry_count: u32,
    nick_name: Option<String>,
    tags: Vec<String>,
    scores: HashMap<String, i64>,
    grid: Vec<Vec<u8>>,
    #[serde(flatten)]
    paging: Paging,
    /// Anything at all
    anything: Value,
}

/// Serde attributes
#[tool]
async fn serde_attrs(args: SerdeArgs) -> String {
    format!("{} {:?}", args.first_name, args.paging.per_page)
}

// ---- numbers and validation keywords -------------------------------------------------------

#[derive(Deserialize, JsonSchema)]
struct NumberArgs {
    small: u8,
    medium: u32,
    big: i64,
    ratio: f64,
    signed: i32,
    huge: u64,
    #[schemars(range(min = 1, max = 10))]
    bounded: u32,
    #[schemars(range(min = -5.5, max = 5.5))]
    bounded_float: f64,
    /// A bound looser than the type's: the type's wins
    #[schemars(range(max = 300))]
    bounded_byte: u8,
    #[schemars(length(min = 2, max = 8))]
    code: String,
    #[schemars(length(max = 3))]
    few: Vec<String>,
    #[schemars(regex(pattern = r"^[a-z]+$"))]
    word: String,
}

/// Numbers and bounds
#[tool]
async fn numbers(_args: NumberArgs) -> String {
    String::new()
}

// ---- inline parameters and no arguments ----------------------------------------------------

/// Inline parameters
#[tool]
async fn inline_params(
    /// Left operand
    a: i64,
    /// Right operand, if any
    b: Option<u16>,
) -> String {
    format!("{a} {b:?}")
}

/// No arguments at all
#[tool]
async fn no_args() -> &'static str {
    "nothing"
}

// ---- output schemas ------------------------------------------------------------------------

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Summary {
    total_count: u32,
    items: Vec<String>,
    note: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
}

/// An object output
#[tool]
async fn object_output(
    /// Whether to add a note
    with_note: bool,
) -> Json<Summary> {
    Json(Summary {
        total_count: 2,
        items: vec!["a".into(), "b".into()],
        note: with_note.then(|| "noted".into()),
        warnings: if with_note {
            vec!["long".into()]
        } else {
            Vec::new()
        },
    })
}

/// A list output
#[tool]
async fn list_output() -> Json<Vec<String>> {
    Json(vec!["a".into(), "b".into()])
}

/// A number output
#[tool]
async fn number_output() -> Json<u32> {
    Json(7)
}

// ---- a recursive type ----------------------------------------------------------------------

#[derive(Deserialize, Serialize, JsonSchema)]
struct Tree {
    label: String,
    children: Vec<Tree>,
}

#[derive(Deserialize, JsonSchema)]
struct TreeArgs {
    tree: Tree,
}

/// A recursive type in and out
#[tool]
async fn tree(args: TreeArgs) -> Json<Tree> {
    Json(args.tree)
}

/// A recursive type inside a non-object output
#[tool]
async fn forest(args: TreeArgs) -> Json<Vec<Tree>> {
    Json(vec![args.tree])
}

#[derive(Deserialize, Serialize, JsonSchema)]
enum Expr {
    Num(f64),
    Neg(Box<Expr>),
}

/// A recursive output, an enum of objects
#[tool]
async fn expr() -> Json<Expr> {
    Json(Expr::Neg(Box::new(Expr::Num(1.0))))
}

// ---- formats --------------------------------------------------------------------------------

#[derive(Deserialize, JsonSchema)]
struct FormatArgs {
    /// Any IP address
    ip: std::net::IpAddr,
    v4: std::net::Ipv4Addr,
    v6: std::net::Ipv6Addr,
    #[schemars(extend("format" = "date-time"))]
    when: String,
    #[schemars(extend("format" = "partial-date-time"))]
    local: String,
    #[schemars(extend("format" = "uuid"))]
    id: Option<String>,
}

/// Standard and non-standard formats
#[tool]
async fn formats(args: FormatArgs) -> String {
    args.ip.to_string()
}

// ---- data-carrying enums, optional output fields -------------------------------------------

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Shape {
    Circle { radius: f64 },
    Square { side: f64, label: Option<String> },
}

#[derive(Deserialize, Serialize, JsonSchema)]
enum Pick {
    ById(u32),
    ByName { name: String },
}

#[derive(Deserialize, JsonSchema)]
struct ShapeArgs {
    shape: Shape,
    maybe_shape: Option<Shape>,
    pick: Pick,
}

#[derive(Serialize, JsonSchema)]
struct Detail {
    comment: Option<String>,
    count: u32,
}

#[derive(Serialize, JsonSchema)]
struct ShapeReport {
    shape: Shape,
    previous: Option<Shape>,
    detail: Detail,
    tags: Vec<Option<String>>,
}

/// Data-carrying enums in and out
#[tool]
async fn shapes(args: ShapeArgs) -> Json<ShapeReport> {
    Json(ShapeReport {
        shape: args.shape,
        previous: args.maybe_shape,
        detail: Detail {
            comment: None,
            count: 1,
        },
        tags: vec![Some("a".into()), None],
    })
}

// ---- mixed enums, defaults, tagged-enum arguments (issue 14) ------------------------------

#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
enum NumOrText {
    Num(i64),
    Text(String),
}

#[derive(Deserialize, JsonSchema)]
enum Mode {
    Off,
    Level(u8),
}

#[derive(Deserialize, JsonSchema)]
struct MixedArgs {
    either: NumOrText,
    mode: Mode,
    #[serde(default)]
    port: Option<u16>,
}

/// Mixed enums and a defaulted option
#[tool]
async fn mixed(_args: MixedArgs) -> String {
    String::new()
}

#[derive(Deserialize, JsonSchema)]
#[serde(tag = "op")]
enum Op {
    Add { a: i32 },
    Neg { b: i32 },
}

/// A tagged enum as the arguments
#[tool]
async fn operate(op: Op) -> String {
    match op {
        Op::Add { a } => format!("add {a}"),
        Op::Neg { b } => format!("neg {b}"),
    }
}

/// An identifier: a string, as `uuid::Uuid` is (a type the macro cannot see into).
#[derive(Deserialize, JsonSchema)]
struct ItemId(String);

/// d
#[tool]
async fn fetch_item(id: ItemId) -> String {
    id.0
}

// ---- a lone parameter's shape is its type's, documented or not (issue 40, item 7) ----------

#[derive(Deserialize, JsonSchema)]
struct Filter {
    /// Only open issues
    open: bool,
    label: Option<String>,
}

/// List issues
#[tool]
async fn list_issues(filter: Filter) -> String {
    format!("{} {:?}", filter.open, filter.label)
}

/// List issues, the parameter documented
#[tool]
async fn list_issues_documented(
    /// The filter
    filter: Filter,
) -> String {
    format!("{} {:?}", filter.open, filter.label)
}

/// List issues, the filter one property of the arguments
#[tool]
async fn list_issues_wrapped(
    /// The filter
    #[property]
    filter: Filter,
) -> String {
    format!("{} {:?}", filter.open, filter.label)
}

/// Fetch an item, the parameter documented
#[tool]
async fn fetch_item_documented(
    /// The item's id
    id: ItemId,
) -> String {
    id.0
}

// ---- helpers -------------------------------------------------------------------------------

#[derive(Deserialize, JsonSchema)]
struct Limits {
    max: u32,
}

/// A boxed argument struct
#[tool]
#[allow(
    clippy::boxed_local,
    reason = "the boxed argument struct is what is tested"
)]
async fn boxed_limits(limits: Box<Limits>) -> String {
    limits.max.to_string()
}

/// A boxed lone scalar
#[tool]
#[allow(clippy::boxed_local, reason = "the boxed scalar is what is tested")]
async fn boxed_count(count: Box<u32>) -> String {
    count.to_string()
}

fn client() -> TestClient {
    TestClient::new(Server::new("schemas", "0.0.0"))
}

async fn definition(name: &str) -> ToolDefinition {
    let tools = client().list_tools().await.tools;
    tools
        .into_iter()
        .find(|tool| tool.name == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
}

async fn input_schema(name: &str) -> Value {
    definition(name).await.input_schema
}

async fn output_schema(name: &str) -> Value {
    definition(name)
        .await
        .output_schema
        .unwrap_or_else(|| panic!("{name} has no outputSchema"))
}

// ---- input schemas -------------------------------------------------------------------------

#[tokio::test]
async fn nested_structs_are_inlined() {
    let address = json!({
        "type": "object",
        "properties": {
            "street": {"type": "string", "description": "Street and number"},
            "city": {"type": "string"},
            "zip": {"type": "string"}
        },
        "required": ["street", "city"],
        "additionalProperties": false
    });
    let mut described = address.clone();
    described["description"] = json!("Where they live");
    assert_eq!(
        input_schema("nested").await,
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "Who"},
                "address": described,
                "previous": {"type": "array", "items": address}
            },
            "required": ["name", "address", "previous"],
            "additionalProperties": false
        })
    );
}

#[tokio::test]
async fn unit_enums_are_string_enums_even_optional_or_documented() {
    let colors = json!({"type": "string", "enum": ["red", "green", "blue"]});
    assert_eq!(
        input_schema("enums").await,
        json!({
            "type": "object",
            "properties": {
                "color": colors,
                "size": {"type": "string", "enum": ["small", "extra_large"], "description": "How big"},
                "maybe_color": colors,
                "maybe_size": {"type": "string", "enum": ["small", "extra_large"]},
                "colors": {"type": "array", "items": colors}
            },
            "required": ["color", "size", "colors"],
            "additionalProperties": false
        })
    );
}

#[tokio::test]
async fn serde_attributes_collections_and_value() {
    let u32_schema = json!({"type": "integer", "minimum": 0, "maximum": 4_294_967_295_u32});
    let mut retry_count = u32_schema.clone();
    retry_count["default"] = json!(0);
    assert_eq!(
        input_schema("serde_attrs").await,
        json!({
            "type": "object",
            "properties": {
                "firstName": {"type": "string"},
                // `#[serde(default)]`: not required, and the default is shown.
                "retryCount": retry_count,
                "nickName": {"type": "string"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "scores": {"type": "object", "additionalProperties": {"type": "integer"}},
                "grid": {
                    "type": "array",
                    "items": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}}
                },
                // `#[serde(flatten)]`: the fields of `Paging`, at this level, as `Paging` names them.
                "page": u32_schema,
                "per_page": u32_schema,
                // `serde_json::Value`: any JSON, every JSON type.
                "anything": {
                    "type": ["object", "array", "string", "number", "boolean", "null"],
                    "description": "Anything at all"
                }
            },
            "required": ["firstName", "tags", "scores", "grid", "page", "anything"],
            "additionalProperties": false
        })
    );
}

#[tokio::test]
async fn numbers_have_bounds_not_formats() {
    assert_eq!(
        input_schema("numbers").await,
        json!({
            "type": "object",
            "properties": {
                "small": {"type": "integer", "minimum": 0, "maximum": 255},
                "medium": {"type": "integer", "minimum": 0, "maximum": 4_294_967_295_u32},
                "big": {"type": "integer"},
                "ratio": {"type": "number"},
                "signed": {"type": "integer", "minimum": -2_147_483_648_i32, "maximum": 2_147_483_647},
                "huge": {"type": "integer", "minimum": 0},
                "bounded": {"type": "integer", "minimum": 1, "maximum": 10},
                "bounded_float": {"type": "number", "minimum": -5.5, "maximum": 5.5},
                "bounded_byte": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 255,
                    "description": "A bound looser than the type's: the type's wins"
                },
                "code": {"type": "string", "minLength": 2, "maxLength": 8},
                "few": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
                "word": {"type": "string", "pattern": "^[a-z]+$"}
            },
            "required": [
                "small", "medium", "big", "ratio", "signed", "huge", "bounded", "bounded_float",
                "bounded_byte", "code", "few", "word"
            ],
            "additionalProperties": false
        })
    );
}

#[tokio::test]
async fn inline_parameters_are_properties() {
    assert_eq!(
        input_schema("inline_params").await,
        json!({
            "type": "object",
            "properties": {
                "a": {"type": "integer", "description": "Left operand"},
                "b": {"type": "integer", "minimum": 0, "maximum": 65535, "description": "Right operand, if any"}
            },
            "required": ["a"],
            "additionalProperties": false
        })
    );
}

#[tokio::test]
async fn a_tool_without_arguments_takes_an_empty_object() {
    assert_eq!(
        input_schema("no_args").await,
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
}

// ---- output schemas and structured content -------------------------------------------------

#[tokio::test]
/// The output schema says how the type serializes, with the `Option` rule of inputs: a `None`
/// field is left out (so `Option<T>` is `T` and not required), a `skip_serializing_if` field may
/// be absent.
async fn object_output_is_the_serialized_type_schema() {
    assert_eq!(
        output_schema("object_output").await,
        json!({
            "type": "object",
            "properties": {
                "totalCount": {"type": "integer", "minimum": 0, "maximum": 4_294_967_295_u32},
                "items": {"type": "array", "items": {"type": "string"}},
                "note": {"type": "string"},
                "warnings": {"type": "array", "items": {"type": "string"}}
            },
            "required": ["totalCount", "items"]
        })
    );
    let client = client();
    let noted =
        json!({"totalCount": 2, "items": ["a", "b"], "note": "noted", "warnings": ["long"]});
    let plain = json!({"totalCount": 2, "items": ["a", "b"]});
    for (with_note, structured) in [(true, noted), (false, plain)] {
        let result = client
            .call_tool("object_output", json!({"with_note": with_note}))
            .await;
        assert_eq!(
            serde_json::to_value(&result).unwrap(),
            json!({
                "content": [{"type": "text", "text": structured.to_string()}],
                "structuredContent": structured
            })
        );
    }
}

#[tokio::test]
async fn non_object_outputs_are_wrapped_in_result() {
    assert_eq!(
        output_schema("list_output").await,
        json!({
            "type": "object",
            "properties": {"result": {"type": "array", "items": {"type": "string"}}},
            "required": ["result"]
        })
    );
    assert_eq!(
        output_schema("number_output").await,
        json!({
            "type": "object",
            "properties": {"result": {"type": "integer", "minimum": 0, "maximum": 4_294_967_295_u32}},
            "required": ["result"]
        })
    );
    let client = client();
    assert_eq!(
        serde_json::to_value(client.call_tool("list_output", json!({})).await).unwrap(),
        json!({
            "content": [{"type": "text", "text": r#"["a","b"]"#}],
            "structuredContent": {"result": ["a", "b"]}
        })
    );
    assert_eq!(
        serde_json::to_value(client.call_tool("number_output", json!({})).await).unwrap(),
        json!({"content": [{"type": "text", "text": "7"}], "structuredContent": {"result": 7}})
    );
}

/// Every property has a `type`: a list of the branches' types for an untagged enum and for one
/// that mixes unit and data variants; a `null` default of an optional property is dropped
/// (issue 14, item 11; `serde_json::Value` in `serde_attributes_collections_and_value`).
#[tokio::test]
async fn mixed_enums_have_their_branches_types_and_no_null_default() {
    let schema = input_schema("mixed").await;
    let properties = &schema["properties"];
    assert_eq!(properties["either"]["type"], json!(["integer", "string"]));
    assert_eq!(properties["mode"]["type"], json!(["string", "object"]));
    assert_eq!(
        properties["port"],
        json!({"type": "integer", "minimum": 0, "maximum": 65535})
    );
}

/// A lone undocumented parameter whose type is not an object is a property named after it,
/// decided from its schema at start-up; the tool reads `{"id": …}` (issue 14, item 2).
#[tokio::test]
async fn a_lone_parameter_that_is_not_an_object_is_a_property() {
    assert_eq!(
        input_schema("fetch_item").await,
        json!({
            "type": "object",
            "properties": {"id": {"type": "string"}},
            "required": ["id"],
            "additionalProperties": false
        })
    );
    let client = client();
    let result = client.call_tool("fetch_item", json!({"id": "a-1"})).await;
    assert_eq!(result.text_content(), "a-1", "{result:?}");
    let result = client.call_tool("fetch_item", json!({})).await;
    assert_eq!(
        result.text_content(),
        "Input validation error: Invalid arguments for tool fetch_item: id: required property is missing"
    );
}

/// Issue 40 item 7: a lone parameter of a type of yours is the whole argument object whether or
/// not it has a doc comment (documenting it must not change the wire shape); a documented one
/// that is no object is a property its doc comment describes.
#[tokio::test]
async fn a_doc_comment_never_changes_a_lone_parameters_shape() {
    let whole = json!({
        "type": "object",
        "properties": {
            "open": {"type": "boolean", "description": "Only open issues"},
            "label": {"type": "string"}
        },
        "required": ["open"],
        "additionalProperties": false
    });
    let client = client();
    for name in ["list_issues", "list_issues_documented"] {
        assert_eq!(input_schema(name).await, whole, "{name}");
        let result = client
            .call_tool(name, json!({"open": true, "label": "bug"}))
            .await;
        assert_eq!(
            result.text_content(),
            "true Some(\"bug\")",
            "{name}: {result:?}"
        );
    }
    // `#[property]` says otherwise: the filter is one property.
    assert_eq!(
        input_schema("list_issues_wrapped").await,
        json!({
            "type": "object",
            "properties": {"filter": {
                "type": "object",
                "properties": whole["properties"],
                "required": ["open"],
                "additionalProperties": false,
                "description": "The filter"
            }},
            "required": ["filter"],
            "additionalProperties": false
        })
    );
    let result = client
        .call_tool("list_issues_wrapped", json!({"filter": {"open": false}}))
        .await;
    assert_eq!(result.text_content(), "false None", "{result:?}");
    assert_eq!(
        input_schema("fetch_item_documented").await,
        json!({
            "type": "object",
            "properties": {"id": {"type": "string", "description": "The item's id"}},
            "required": ["id"],
            "additionalProperties": false
        })
    );
    let result = client
        .call_tool("fetch_item_documented", json!({"id": "a-2"}))
        .await;
    assert_eq!(result.text_content(), "a-2", "{result:?}");
}

/// A tagged enum whose every variant is an object is an argument type: an object root with the
/// variants as `oneOf`, validated and read as such (issue 14, item 2).
#[tokio::test]
async fn a_tagged_enum_of_objects_is_an_argument_type() {
    let schema = input_schema("operate").await;
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["oneOf"].as_array().map(Vec::len), Some(2));
    let client = client();
    let result = client
        .call_tool("operate", json!({"op": "Neg", "b": 3}))
        .await;
    assert_eq!(result.text_content(), "neg 3");
    let result = client.call_tool("operate", json!({"op": "Add"})).await;
    assert!(result.is_error, "{result:?}");
    assert!(
        result.text_content().starts_with("Input validation error"),
        "{}",
        result.text_content()
    );
    // Unknown arguments are refused in this style too: each branch is closed.
    for branch in schema["oneOf"].as_array().unwrap() {
        assert_eq!(branch["additionalProperties"], false, "{branch}");
    }
    let result = client
        .call_tool("operate", json!({"op": "Neg", "b": 3, "zzz": 1}))
        .await;
    assert!(result.is_error, "{result:?}");
}

// ---- recursive types -----------------------------------------------------------------------

/// A recursive type cannot be inlined: its definition stays in `$defs` and refers to itself
/// there. The argument's own property is inlined one level; everything below is a `$ref`.
#[tokio::test]
async fn recursive_input_keeps_its_defs() {
    let tree = json!({
        "type": "object",
        "properties": {
            "label": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}
        },
        "required": ["label", "children"],
        "additionalProperties": false
    });
    assert_eq!(
        input_schema("tree").await,
        json!({
            "type": "object",
            "properties": {"tree": tree},
            "required": ["tree"],
            "additionalProperties": false,
            "$defs": {"Tree": tree}
        })
    );
}

/// When the output type itself is the recursive one, it refers to the root (`#`), no `$defs`;
/// wrapped in `result`, the definitions (or the root) it refers to move along. Here too the
/// outermost use is inlined one level.
#[tokio::test]
async fn recursive_outputs_keep_references_that_resolve() {
    let tree_at = |reference: &str| {
        json!({
            "type": "object",
            "properties": {
                "label": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": reference}}
            },
            "required": ["label", "children"]
        })
    };
    assert_eq!(output_schema("tree").await, tree_at("#"));
    assert_eq!(
        output_schema("forest").await,
        json!({
            "type": "object",
            "properties": {"result": {"type": "array", "items": tree_at("#/$defs/Tree")}},
            "required": ["result"],
            "$defs": {"Tree": tree_at("#/$defs/Tree")}
        })
    );
    // An enum whose every variant is an object is an object: not wrapped (issue 14, item 13).
    let expr = output_schema("expr").await;
    assert_eq!(expr["type"], "object");
    assert_eq!(expr["oneOf"][1]["properties"]["Neg"], json!({"$ref": "#"}));

    let client = client();
    let leaf = json!({"label": "leaf", "children": []});
    let root = json!({"label": "root", "children": [leaf]});
    let result = client.call_tool("tree", json!({"tree": root})).await;
    assert_eq!(result.structured_content, Some(root.clone()), "{result:?}");
    let result = client.call_tool("forest", json!({"tree": root})).await;
    assert_eq!(
        result.structured_content,
        Some(json!({"result": [root]})),
        "{result:?}"
    );
    let result = client.call_tool("expr", json!({})).await;
    assert_eq!(
        result.structured_content,
        Some(json!({"Neg": {"Num": 1.0}})),
        "{result:?}"
    );
    // Validation follows the references: a bad grandchild is found.
    let bad = json!({"label": "root", "children": [{"label": "leaf", "children": [{"label": 3, "children": []}]}]});
    let result = client.call_tool("tree", json!({"tree": bad})).await;
    assert_eq!(
        result.text_content(),
        "Input validation error: Invalid arguments for tool tree: tree.children.0.children.0.label: \
         expected string, got integer 3"
    );
}

// ---- formats and data-carrying enums -------------------------------------------------------

/// Only formats JSON Schema defines are advertised: schemars' `ip` (`IpAddr`) and chrono's
/// `partial-date-time` are dropped, `ipv4`, `date-time`, `uuid` stay.
#[tokio::test]
async fn only_standard_formats_are_advertised() {
    assert_eq!(
        input_schema("formats").await,
        json!({
            "type": "object",
            "properties": {
                "ip": {"type": "string", "description": "Any IP address"},
                "v4": {"type": "string", "format": "ipv4"},
                "v6": {"type": "string", "format": "ipv6"},
                "when": {"type": "string", "format": "date-time"},
                "local": {"type": "string"},
                "id": {"type": "string", "format": "uuid"}
            },
            "required": ["ip", "v4", "v6", "when", "local"],
            "additionalProperties": false
        })
    );
}

/// The branches of `Shape`; an input's are closed (unknown keys are refused at every depth).
fn shape_branches(closed: bool) -> Value {
    let mut branches = json!([
        {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": ["circle"]},
                "radius": {"type": "number"}
            },
            "required": ["kind", "radius"]
        },
        {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": ["square"]},
                "side": {"type": "number"},
                "label": {"type": "string"}
            },
            "required": ["kind", "side"]
        }
    ]);
    if closed {
        for branch in branches.as_array_mut().unwrap() {
            branch["additionalProperties"] = json!(false);
        }
    }
    branches
}

/// A data-carrying enum is a `oneOf` of objects: the property says `"type": "object"` too.
#[tokio::test]
async fn data_carrying_enums_have_a_type() {
    let shape = json!({"type": "object", "oneOf": shape_branches(true)});
    assert_eq!(
        input_schema("shapes").await,
        json!({
            "type": "object",
            "properties": {
                "shape": shape,
                "maybe_shape": shape,
                "pick": {
                    "type": "object",
                    "oneOf": [
                        {
                            "type": "object",
                            "properties": {
                                "ById": {"type": "integer", "minimum": 0, "maximum": 4_294_967_295_u32}
                            },
                            "required": ["ById"],
                            "additionalProperties": false
                        },
                        {
                            "type": "object",
                            "properties": {
                                "ByName": {
                                    "type": "object",
                                    "properties": {"name": {"type": "string"}},
                                    "required": ["name"],
                                    "additionalProperties": false
                                }
                            },
                            "required": ["ByName"],
                            "additionalProperties": false
                        }
                    ]
                }
            },
            "required": ["shape", "pick"],
            "additionalProperties": false
        })
    );
}

/// `Option<T>` fields of an output type are `T` and not required, at any depth (an `Option`
/// item of an array stays nullable: it is not a field); their `None`s are left out of the
/// structured content and its text.
#[tokio::test]
async fn optional_output_fields_are_not_required_and_left_out_when_none() {
    let shape = json!({"type": "object", "oneOf": shape_branches(false)});
    assert_eq!(
        output_schema("shapes").await,
        json!({
            "type": "object",
            "properties": {
                "shape": shape,
                "previous": shape,
                "detail": {
                    "type": "object",
                    "properties": {
                        "comment": {"type": "string"},
                        "count": {"type": "integer", "minimum": 0, "maximum": 4_294_967_295_u32}
                    },
                    "required": ["count"]
                },
                "tags": {"type": "array", "items": {"type": ["string", "null"]}}
            },
            "required": ["shape", "detail", "tags"]
        })
    );
    let client = client();
    // `null` for optional fields inside an enum variant is like leaving them out, too; a
    // whole-number float is an integer where the schema says so.
    let arguments = json!({
        "shape": {"kind": "square", "side": 2, "label": null},
        "maybe_shape": null,
        "pick": {"ById": 3.0}
    });
    let structured = json!({
        "shape": {"kind": "square", "side": 2.0},
        "detail": {"count": 1},
        "tags": ["a", null]
    });
    assert_eq!(
        serde_json::to_value(client.call_tool("shapes", arguments).await).unwrap(),
        json!({
            "content": [{"type": "text", "text": structured.to_string()}],
            "structuredContent": structured
        })
    );
    let arguments = json!({
        "shape": {"kind": "circle", "radius": 1.5},
        "maybe_shape": {"kind": "square", "side": 1, "label": "box"},
        "pick": {"ByName": {"name": "x"}}
    });
    let structured = json!({
        "shape": {"kind": "circle", "radius": 1.5},
        "previous": {"kind": "square", "side": 1.0, "label": "box"},
        "detail": {"count": 1},
        "tags": ["a", null]
    });
    assert_eq!(
        client
            .call_tool("shapes", arguments)
            .await
            .structured_content,
        Some(structured)
    );
}

// ---- the portable rules, on every schema ---------------------------------------------------

/// The formats `jsonschema` and hosts know as standard; schemars' Rust-width formats are not.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uuid",
];

/// Where a schema may deliberately break a rule.
#[derive(Clone, Copy)]
struct Allowances {
    /// A recursive type: `$ref`/`$defs` are expected.
    references: bool,
    /// An output schema: an `Option<T>` that is not a field (an array's items) is `[T, "null"]`,
    /// which hosts only read, never send.
    nullable: bool,
}

/// Whether `path` names a property (`…/properties/<name>`).
fn is_property(path: &str) -> bool {
    path.rsplit('/').nth(1) == Some("properties")
}

/// Every problem found in `schema` (at `path`), by the portable rules (the `tool` macro's docs).
fn portability_problems(path: &str, schema: &Value, allow: Allowances, problems: &mut Vec<String>) {
    let Some(object) = schema.as_object() else {
        if schema != &Value::Bool(true) {
            problems.push(format!("{path}: not a schema object: {schema}"));
        }
        return;
    };
    if object.contains_key("$schema") {
        problems.push(format!("{path}: has $schema"));
    }
    if !allow.references && (object.contains_key("$ref") || object.contains_key("$defs")) {
        problems.push(format!("{path}: has $ref/$defs but is not recursive"));
    }
    if let Some(format) = object.get("format").and_then(Value::as_str)
        && !STANDARD_FORMATS.contains(&format)
    {
        problems.push(format!("{path}: non-standard format {format:?}"));
    }
    match object.get("type") {
        Some(Value::String(kind)) => {
            if kind == "array" && !object.contains_key("items") {
                problems.push(format!("{path}: array without items"));
            }
            // A data-carrying enum's variants (`oneOf`) say which properties each has.
            if kind == "object"
                && !object.contains_key("properties")
                && !object.contains_key("additionalProperties")
                && !object.contains_key("oneOf")
                && !object.contains_key("anyOf")
            {
                problems.push(format!("{path}: object without properties"));
            }
        }
        // `Option<T>` as a property is `T` (not required); elsewhere (items, map values) and in
        // output, `null` is a value; a mixed enum lists its branches' types.
        Some(Value::Array(kinds))
            if allow.nullable
                || kinds.len() != 2
                || !kinds.contains(&json!("null"))
                || !is_property(path) => {}
        Some(other) => problems.push(format!("{path}: type is {other}, a nullable property")),
        // A recursive type's reference: the definition it points to is checked.
        None if object.contains_key("$ref") => {}
        // Any JSON at all (`serde_json::Value`): deliberately untyped.
        None if object.keys().all(|key| key == "description") => {}
        None => problems.push(format!("{path}: no type")),
    }
    if let Some(values) = object.get("enum").and_then(Value::as_array)
        && !values
            .iter()
            .all(|value| value.is_string() || (allow.nullable && value.is_null()))
    {
        problems.push(format!("{path}: enum of non-strings {values:?}"));
    }
    if object.contains_key("const") {
        problems.push(format!("{path}: const"));
    }
    for keyword in ["properties", "$defs"] {
        for (name, property) in object
            .get(keyword)
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            portability_problems(
                &format!("{path}/{keyword}/{name}"),
                property,
                allow,
                problems,
            );
        }
    }
    for keyword in ["items", "additionalProperties"] {
        if let Some(sub) = object.get(keyword).filter(|sub| sub.is_object()) {
            portability_problems(&format!("{path}/{keyword}"), sub, allow, problems);
        }
    }
    for keyword in ["anyOf", "oneOf", "allOf"] {
        for (index, sub) in object
            .get(keyword)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            portability_problems(&format!("{path}/{keyword}/{index}"), sub, allow, problems);
        }
    }
}

#[tokio::test]
async fn every_schema_follows_the_portable_rules() {
    const RECURSIVE: &[&str] = &["tree", "forest", "expr"];
    let tools = client().list_tools().await.tools;
    assert_eq!(tools.len(), 23, "every tool of this file is listed");
    let mut problems = Vec::new();
    for tool in &tools {
        let references = RECURSIVE.contains(&tool.name.as_str());
        let input = &tool.input_schema;
        assert_eq!(input["type"], "object", "{}: root is an object", tool.name);
        assert!(
            input["properties"].is_object(),
            "{}: root has properties",
            tool.name
        );
        assert!(
            input.get("required").is_none_or(Value::is_array),
            "{}: `required` is an array when present",
            tool.name
        );
        // A tagged enum of objects is the one root with alternatives (issue 14, item 2).
        let keys: &[&str] = if tool.name == "operate" {
            &["title", "description", "anyOf", "allOf"]
        } else {
            &["title", "description", "oneOf", "anyOf", "allOf"]
        };
        for key in keys {
            assert!(input.get(*key).is_none(), "{}: no root {key}", tool.name);
        }
        let allow = Allowances {
            references,
            nullable: false,
        };
        portability_problems(&format!("{}:input", tool.name), input, allow, &mut problems);
        if let Some(output) = &tool.output_schema {
            assert_eq!(
                output["type"], "object",
                "{}: output root is an object",
                tool.name
            );
            let allow = Allowances {
                references,
                nullable: true,
            };
            portability_problems(
                &format!("{}:output", tool.name),
                output,
                allow,
                &mut problems,
            );
        }
    }
    assert!(
        problems.is_empty(),
        "schemas break the portable rules:\n{}",
        problems.join("\n")
    );
}

/// The walk above finds what it is meant to find.
#[test]
fn the_portability_check_catches_each_rule() {
    let strict = Allowances {
        references: false,
        nullable: false,
    };
    let bad = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "a": {"type": "integer", "format": "uint32"},
            "b": {"type": "array"},
            "c": {"minLength": 1},
            "d": {"type": ["string", "null"]},
            "e": {"$ref": "#/$defs/E"},
            "f": {"type": "string", "enum": ["x", null]},
            "g": {"type": "string", "const": "x"}
        }
    });
    let mut problems = Vec::new();
    portability_problems("bad", &bad, strict, &mut problems);
    assert_eq!(
        problems,
        [
            "bad: has $schema",
            "bad/properties/a: non-standard format \"uint32\"",
            "bad/properties/b: array without items",
            "bad/properties/c: no type",
            "bad/properties/d: type is [\"string\",\"null\"], a nullable property",
            "bad/properties/e: has $ref/$defs but is not recursive",
            "bad/properties/f: enum of non-strings [String(\"x\"), Null]",
            "bad/properties/g: const",
        ]
    );
}

/// Issue 22 item 5: serde reads a lone `Box<Args>` as `Args`, and so does the style rule: the
/// wire shape is `{"max": …}`, not `{"limits": {"max": …}}`; a boxed scalar is a property still.
#[tokio::test]
async fn a_boxed_argument_struct_is_the_argument_struct() {
    assert_eq!(
        input_schema("boxed_limits").await,
        json!({
            "type": "object",
            "properties": {"max": {"type": "integer", "minimum": 0, "maximum": 4_294_967_295_u32}},
            "required": ["max"],
            "additionalProperties": false
        })
    );
    let client = client();
    let result = client.call_tool("boxed_limits", json!({"max": 3})).await;
    assert_eq!(result.text_content(), "3", "{result:?}");
    assert_eq!(
        input_schema("boxed_count").await["properties"]["count"],
        json!({"type": "integer", "minimum": 0, "maximum": 4_294_967_295_u32})
    );
    let result = client.call_tool("boxed_count", json!({"count": 4})).await;
    assert_eq!(result.text_content(), "4", "{result:?}");
}
