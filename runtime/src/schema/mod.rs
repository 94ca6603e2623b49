//! Portable JSON Schemas: what schemars derives ([`generate`]), rewritten into the subset every
//! real host accepts ([`portable`]; the README, "portable by default").

mod generate;
mod portable;

pub(crate) use generate::{
    cached_output_schema, empty_input_schema, ensure_object_root, input_schema, is_object_schema,
    output_schema, wrap_in_property, wrap_in_result,
};

/// What a schema describes: arguments a client sends, or structured content a tool returns.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Input,
    Output,
}
