//! Portable JSON Schemas: what schemars derives ([`generate`]), rewritten into the subset every
//! real host accepts ([`portable`]; the `tool` macro's docs, "Portable schemas"); the properties an input
//! schema mirrors into HTTP headers ([`headers`]).

mod generate;
mod headers;
mod portable;

pub(crate) use generate::{
    cached_output_schema, empty_input_schema, ensure_object_root, generated_input_schema,
    input_schema, is_object_schema, output_schema, wrap_in_property, wrap_in_result,
};
pub(crate) use headers::{HeaderParam, header_params};

/// What a schema describes: arguments a client sends, or structured content a tool returns.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Input,
    Output,
}
