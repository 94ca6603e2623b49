async fn search<T>(query: &str, more: More) -> String {
    query.to_owned()
}
::core::compile_error! {
    "invalid tool name \"bad name\": use 1 to 64 characters from `A-Z a-z 0-9 _ . -`"
}
::core::compile_error! {
    "Unknown field: `titel`. Did you mean `title`?"
}
::core::compile_error! {
    "Unknown field: `opne_world`. Did you mean `open_world`?"
}
::core::compile_error! {
    "a tool cannot be both `read_only` and `destructive`: a read-only tool changes nothing; remove one"
}
::core::compile_error! {
    "a `#[tool]` fn cannot be generic: a tool has one input schema; use concrete types"
}
::core::compile_error! {
    "a tool's input is deserialized from JSON into owned values: take `String` instead of `&str`, `Vec<T>` instead of `&[T]`, `T` instead of `&T`"
}
::core::compile_error! {
    "an argument struct must be the tool's only parameter (besides `Context`): merge the parameters into one struct, or make each a property, documented with `///` or marked `#[property]` (the `Context` under another name, `use mcp_toolbelt::Context as Ctx`, is marked `#[context]`)"
}
::core::compile_error! {
    "`#[tool]` needs a description for the model: add a `///` doc comment to the fn or write `#[tool(description = \"…\")]`"
}
