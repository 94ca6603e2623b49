/// Paint
async fn paint() -> String {
    String::new()
}
const _: () = {
    use ::mcp_toolbelt::__private as __tool_private;
    #[allow(deprecated)]
    fn __tool_paint_call(
        __tool_arguments: __tool_private::serde_json::Value,
        __tool_context: __tool_private::Context,
    ) -> __tool_private::BoxFuture<'static, __tool_private::CallToolResult> {
        let __tool_fn = paint;
        __tool_private::tool_future(
            __tool_fn(),
            <String as __tool_private::IntoToolResult>::into_tool_result,
        )
    }
    __tool_private::inventory::submit! {
        __tool_private::ToolRegistration { name : "paint", title :
        ::core::option::Option::None, description : "Paint", read_only :
        ::core::option::Option::None, destructive : ::core::option::Option::None,
        idempotent : ::core::option::Option::None, open_world :
        ::core::option::Option::None, input_schema : __tool_private::empty_input_schema,
        output_schema : < String as __tool_private::IntoToolResult > ::output_schema,
        state : & [], asks : & [], context : false, call : __tool_paint_call, file :
        ::core::file!(), line : ::core::line!(), icons : &
        [__tool_private::IconRegistration { src :
        __tool_private::IconSource::Url("https://example.com/paint.png"), mime_type :
        ::core::option::Option::Some("image/png"), sizes : & ["48x48", "96x96"], theme :
        ::core::option::Option::Some(__tool_private::IconTheme::Light), },
        __tool_private::IconRegistration { src :
        __tool_private::IconSource::Bytes(include_bytes!("paint-dark.svg")), mime_type :
        ::core::option::Option::Some("image/svg+xml"), sizes : & [], theme :
        ::core::option::Option::Some(__tool_private::IconTheme::Dark), },
        __tool_private::IconRegistration { src :
        __tool_private::IconSource::Url(PAINT_ICON_URL), mime_type :
        ::core::option::Option::None, sizes : & [], theme : ::core::option::Option::None,
        }], task : __tool_private::TaskSupport::Forbidden, blocking : false, tags : & [],
        scopes : & [], rate_limit : ::core::option::Option::None, }
    }
};
