/// Remove every product from the catalog
fn clear_catalog() -> &'static str {
    "Catalog cleared"
}
const _: () = {
    use ::mcp_toolbelt::__private as __tool_private;
    #[allow(deprecated)]
    fn __tool_clear_catalog_call(
        __tool_arguments: __tool_private::serde_json::Value,
        __tool_context: __tool_private::Context,
    ) -> __tool_private::BoxFuture<'static, __tool_private::CallToolResult> {
        let __tool_fn = clear_catalog;
        __tool_private::blocking_future(move || {
            let __tool_output = __tool_fn();
            <&'static str as __tool_private::IntoToolResult>::into_tool_result(
                __tool_output,
            )
        })
    }
    __tool_private::inventory::submit! {
        __tool_private::ToolRegistration { name : "clear-catalog", title :
        ::core::option::Option::Some("Clear the catalog"), description :
        "Remove every product from the catalog", read_only :
        ::core::option::Option::Some(false), destructive :
        ::core::option::Option::Some(true), idempotent :
        ::core::option::Option::Some(true), open_world : ::core::option::Option::None,
        input_schema : __tool_private::empty_input_schema, output_schema : < & 'static
        str as __tool_private::IntoToolResult > ::output_schema, state : & [], asks : &
        [], context : false, call : __tool_clear_catalog_call, file : ::core::file!(),
        line : ::core::line!(), icons : & [], task :
        __tool_private::TaskSupport::Forbidden, blocking : true, tags : & [], scopes : &
        [], rate_limit : ::core::option::Option::None, }
    }
};
