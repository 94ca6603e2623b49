/// Look up an item
#[allow(clippy::needless_pass_by_value)]
async fn lookup(args: Sku) -> Json<Item> {
    find(args)
}
const _: () = {
    use ::mcp_toolbelt::__private as __tool_private;
    fn __tool_argument_type<T: __tool_private::ToolArguments>() -> (
        fn() -> __tool_private::serde_json::Value,
        fn(
            &str,
            __tool_private::serde_json::Value,
        ) -> ::core::result::Result<T, ::std::boxed::Box<__tool_private::CallToolResult>>,
    ) {
        (__tool_private::input_schema::<T>, __tool_private::parse_arguments::<T>)
    }
    #[allow(deprecated)]
    fn __tool_lookup_call(
        __tool_arguments: __tool_private::serde_json::Value,
        __tool_context: __tool_private::Context,
    ) -> __tool_private::BoxFuture<'static, __tool_private::CallToolResult> {
        let (_, __tool_parse) = __tool_argument_type::<Sku>();
        let __tool_arguments = match __tool_parse("lookup", __tool_arguments) {
            ::core::result::Result::Ok(arguments) => arguments,
            ::core::result::Result::Err(refused) => {
                return __tool_private::refused(refused);
            }
        };
        let __tool_fn = lookup;
        __tool_private::tool_future(
            __tool_fn(__tool_arguments),
            <Json<Item> as __tool_private::IntoToolResult>::into_tool_result,
        )
    }
    __tool_private::inventory::submit! {
        __tool_private::ToolRegistration { name : "lookup", title :
        ::core::option::Option::None, description : "Look up an item", read_only :
        ::core::option::Option::None, destructive : ::core::option::Option::None,
        idempotent : ::core::option::Option::None, open_world :
        ::core::option::Option::None, input_schema : || { let (_, _) =
        __tool_argument_type:: < Sku > ();
        __tool_private::hand_written_schema(schemas::sku) }, output_schema : ||
        __tool_private::hand_written_output:: < Json < Item >, _ > (schemas::item), state
        : & [], asks : & [], context : false, call : __tool_lookup_call, file :
        ::core::file!(), line : ::core::line!(), icons : & [], task :
        __tool_private::TaskSupport::Forbidden, blocking : false, tags : & [], scopes : &
        [], rate_limit : ::core::option::Option::None, }
    }
    #[allow(dead_code)]
    fn __tool_parameter_check() {
        use __tool_private::{ProbeContext as _, ProbeOther as _};
        __tool_private::not_an_aliased_context(
            (&__tool_private::TypeProbe::<Sku>::new()).kind(),
        );
    }
};
