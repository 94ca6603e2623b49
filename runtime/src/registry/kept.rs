//! A tool's definition as a server keeps it: its schemas as JSON text, parsed again only for a
//! tool that is called or whose whole definition is asked for. A parsed schema (a
//! `serde_json::Value` of `preserve_order` maps) holds several times its text, and a server of
//! many tools calls few of them: `tools/list` writes the text as it is.

use std::sync::OnceLock;

use serde::Deserialize as _;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::types::ToolDefinition;

/// A tool's definition: everything but its schemas as it was given, its schemas as JSON text,
/// and the whole definition once something needs it parsed.
#[derive(Clone, Debug)]
pub(crate) struct KeptDefinition {
    /// The definition without its schemas (`input_schema` is `null`, `output_schema` `None`).
    head: ToolDefinition,
    input_schema: Box<RawValue>,
    output_schema: Option<Box<RawValue>>,
    /// The whole definition, parsed from the above the first time it is needed: at the tool's
    /// first call, or by [`Tool::definition`](super::Tool::definition). Boxed: most tools of a
    /// large server are never called, and an empty box is a pointer, not a definition's room.
    whole: OnceLock<Box<ToolDefinition>>,
}

impl KeptDefinition {
    /// Keeps `definition`, its schemas as text: the parsed schemas are dropped.
    pub(crate) fn new(mut definition: ToolDefinition) -> Self {
        let input_schema = text(&definition.input_schema);
        let output_schema = definition.output_schema.as_ref().map(text);
        definition.input_schema = Value::Null;
        definition.output_schema = None;
        Self {
            head: definition,
            input_schema,
            output_schema,
            whole: OnceLock::new(),
        }
    }

    /// The tool's name.
    pub(crate) fn name(&self) -> &str {
        &self.head.name
    }

    /// Everything but the schemas (`input_schema` is `null`, `output_schema` `None`).
    pub(crate) fn head(&self) -> &ToolDefinition {
        &self.head
    }

    /// The input schema, as JSON text.
    pub(crate) fn input_schema(&self) -> &RawValue {
        &self.input_schema
    }

    /// The output schema, as JSON text.
    pub(crate) fn output_schema(&self) -> Option<&RawValue> {
        self.output_schema.as_deref()
    }

    /// The whole definition, parsed the first time and kept.
    pub(crate) fn whole(&self) -> &ToolDefinition {
        self.whole.get_or_init(|| Box::new(self.parsed()))
    }

    /// The whole definition, without keeping it parsed (a copy for a caller to own).
    pub(crate) fn to_definition(&self) -> ToolDefinition {
        self.whole
            .get()
            .map_or_else(|| self.parsed(), |whole| ToolDefinition::clone(whole))
    }

    /// Everything but the schemas, to change (a `Tool` setter): the whole definition is
    /// parsed again when next needed.
    pub(crate) fn edit(&mut self) -> &mut ToolDefinition {
        self.whole = OnceLock::new();
        &mut self.head
    }

    fn parsed(&self) -> ToolDefinition {
        let mut whole = self.head.clone();
        whole.input_schema = parse(&self.input_schema);
        whole.output_schema = self.output_schema.as_deref().map(parse);
        whole
    }
}

/// `schema` as JSON text.
fn text(schema: &Value) -> Box<RawValue> {
    serde_json::value::to_raw_value(schema).expect("a JSON value serializes")
}

/// Text [`text`] wrote, parsed whatever its depth: a schema given as a `Value` may nest deeper
/// than the parser's usual limit (for what clients send) allows. Its numbers read back as they
/// were: `serde_json`'s `float_roundtrip` is on (the workspace's `Cargo.toml`).
fn parse(schema: &RawValue) -> Value {
    let mut reader = serde_json::Deserializer::from_str(schema.get());
    reader.disable_recursion_limit();
    Value::deserialize(&mut reader).expect("JSON serde_json wrote parses")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::types::ToolAnnotations;

    fn definition() -> ToolDefinition {
        ToolDefinition::new(
            "find",
            json!({"type": "object", "properties": {"z": {"type": "string"}, "a": {"type": "number", "minimum": 0.1}}}),
        )
        .title("Find")
        .output_schema(json!({"type": "object", "properties": {"found": {"type": "boolean"}}}))
        .annotations(ToolAnnotations {
            read_only_hint: Some(true),
            ..ToolAnnotations::default()
        })
    }

    #[test]
    fn a_kept_definition_is_the_one_given_schemas_and_their_order_included() {
        let kept = KeptDefinition::new(definition());
        assert_eq!(kept.to_definition(), definition());
        assert_eq!(kept.whole(), &definition());
        assert_eq!(
            kept.input_schema().get(),
            r#"{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"number","minimum":0.1}}}"#
        );
        assert_eq!(kept.head().input_schema, Value::Null);
        assert_eq!(kept.head().output_schema, None);
    }

    #[test]
    fn a_schema_deeper_than_the_parsers_usual_limit_is_kept() {
        let mut deep = json!(1.1);
        for _ in 0..300 {
            deep = json!([deep]);
        }
        let definition = ToolDefinition::new("deep", json!({"type": "object", "default": deep}));
        let kept = KeptDefinition::new(definition.clone());
        assert_eq!(kept.whole(), &definition);
        assert_eq!(kept.to_definition(), definition);
    }

    #[test]
    fn an_edit_is_seen_in_the_whole_definition() {
        let mut kept = KeptDefinition::new(definition());
        assert_eq!(kept.whole().title.as_deref(), Some("Find"));
        kept.edit().title = Some("Search".into());
        assert_eq!(kept.whole().title.as_deref(), Some("Search"));
        assert_eq!(kept.whole().input_schema, definition().input_schema);
    }
}
