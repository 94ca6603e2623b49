/// Delete every note
async fn purge() -> String {
    String::new()
}
const _: () = {
    use ::mcp_toolbelt::__private as __tool_private;
    #[allow(deprecated)]
    fn __tool_purge_call(
        __tool_arguments: __tool_private::serde_json::Value,
        __tool_context: __tool_private::Context,
    ) -> __tool_private::BoxFuture<'static, __tool_private::CallToolResult> {
        let __tool_fn = purge;
        __tool_private::tool_future(
            __tool_fn(),
            <String as __tool_private::IntoToolResult>::into_tool_result,
        )
    }
    __tool_private::inventory::submit! {
        __tool_private::ToolRegistration { name : "purge", title :
        ::core::option::Option::None, description : "Delete every note", read_only :
        ::core::option::Option::None, destructive : ::core::option::Option::None,
        idempotent : ::core::option::Option::None, open_world :
        ::core::option::Option::None, input_schema : __tool_private::empty_input_schema,
        output_schema : < String as __tool_private::IntoToolResult > ::output_schema,
        state : & [], asks : & [], context : false, call : __tool_purge_call, file :
        ::core::file!(), line : ::core::line!(), icons : & [], task :
        __tool_private::TaskSupport::Forbidden, blocking : false, tags : & [], scopes : &
        ["notes:write", "notes:admin"], rate_limit : ::core::option::Option::None, }
    }
};
