/// Short summary.
#[doc = include_str!("desc.md")]
/// Closing line,
/// wrapped.
#[doc = concat!("Version ", env!("CARGO_PKG_VERSION"))]
async fn documented() {}
const _: () = {
    use ::mcp_toolbelt::__private as __tool_private;
    #[allow(deprecated)]
    fn __tool_documented_call(
        __tool_arguments: __tool_private::serde_json::Value,
        __tool_context: __tool_private::Context,
    ) -> __tool_private::BoxFuture<'static, __tool_private::CallToolResult> {
        let __tool_fn = documented;
        __tool_private::tool_future(
            __tool_fn(),
            <() as __tool_private::IntoToolResult>::into_tool_result,
        )
    }
    __tool_private::inventory::submit! {
        __tool_private::ToolRegistration { name : "documented", title :
        ::core::option::Option::None, description : ::core::concat!("Short summary.",
        "\n", include_str!("desc.md"), "\n", "Closing line, wrapped.", "\n",
        concat!("Version ", env!("CARGO_PKG_VERSION"))), read_only :
        ::core::option::Option::None, destructive : ::core::option::Option::None,
        idempotent : ::core::option::Option::None, open_world :
        ::core::option::Option::None, input_schema : __tool_private::empty_input_schema,
        output_schema : < () as __tool_private::IntoToolResult > ::output_schema, state :
        & [], asks : & [], context : false, call : __tool_documented_call, file :
        ::core::file!(), line : ::core::line!(), icons : & [], task :
        __tool_private::TaskSupport::Forbidden, blocking : false, tags : & [], scopes : &
        [], rate_limit : ::core::option::Option::None, }
    }
};
