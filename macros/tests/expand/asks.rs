/// Delete everything, once the user confirms
async fn wipe(context: Context) -> String {
    confirm(context).await
}
const _: () = {
    use ::mcp_toolbelt::__private as __tool_private;
    #[allow(deprecated)]
    fn __tool_wipe_call(
        __tool_arguments: __tool_private::serde_json::Value,
        __tool_context: __tool_private::Context,
    ) -> __tool_private::BoxFuture<'static, __tool_private::CallToolResult> {
        let __tool_fn = wipe;
        __tool_private::tool_future(
            __tool_fn(__tool_private::context_value::<Context>(&__tool_context)),
            <String as __tool_private::IntoToolResult>::into_tool_result,
        )
    }
    __tool_private::inventory::submit! {
        __tool_private::ToolRegistration { name : "wipe", title :
        ::core::option::Option::None, description :
        "Delete everything, once the user confirms", read_only :
        ::core::option::Option::None, destructive : ::core::option::Option::None,
        idempotent : ::core::option::Option::None, open_world :
        ::core::option::Option::None, input_schema : __tool_private::empty_input_schema,
        output_schema : < String as __tool_private::IntoToolResult > ::output_schema,
        state : & [], asks : & [__tool_private::form_check:: < ConfirmDelete >,
        __tool_private::form_check:: < forms::Missing >], context : true, call :
        __tool_wipe_call, file : ::core::file!(), line : ::core::line!(), icons : & [],
        task : __tool_private::TaskSupport::Forbidden, blocking : false, tags : & [],
        scopes : & [], rate_limit : ::core::option::Option::None, }
    }
};
