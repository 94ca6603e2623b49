#[allow(clippy::needless_pass_by_value)]
async fn echo(args: EchoArgs, context: &rt::Context) -> String {
    args.message
}
const _: () = {
    use rt::__private as __tool_private;
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
    fn __tool_echo_call(
        __tool_arguments: __tool_private::serde_json::Value,
        __tool_context: __tool_private::Context,
    ) -> __tool_private::BoxFuture<'static, __tool_private::CallToolResult> {
        let (__tool_input_schema, __tool_parse) = __tool_argument_type::<EchoArgs>();
        let __tool_arguments = {
            static __TOOL_LONE_PROPERTY: ::std::sync::OnceLock<bool> = ::std::sync::OnceLock::new();
            __tool_private::lone_parameter_arguments(
                &__TOOL_LONE_PROPERTY,
                __tool_input_schema,
                "args",
                __tool_arguments,
            )
        };
        let __tool_arguments = match __tool_parse("echo", __tool_arguments) {
            ::core::result::Result::Ok(arguments) => arguments,
            ::core::result::Result::Err(refused) => {
                return __tool_private::refused(refused);
            }
        };
        let __tool_fn = echo;
        ::std::boxed::Box::pin(async move {
            let __tool_output = __tool_private::assert_send(
                    __tool_fn(
                        __tool_arguments,
                        __tool_private::context_ref::<rt::Context>(&__tool_context),
                    ),
                )
                .await;
            <String as __tool_private::IntoToolResult>::into_tool_result(__tool_output)
        })
    }
    __tool_private::inventory::submit! {
        __tool_private::ToolRegistration { name : "echo", title :
        ::core::option::Option::None, description : "Echo the message back", read_only :
        ::core::option::Option::None, destructive : ::core::option::Option::None,
        idempotent : ::core::option::Option::None, open_world :
        ::core::option::Option::None, input_schema : || { let (__tool_input_schema,
        __tool_parse) = __tool_argument_type:: < EchoArgs > ();
        __tool_private::lone_parameter_schema(__tool_input_schema, __tool_parse, "args",
        ::core::option::Option::None) }, output_schema : < String as
        __tool_private::IntoToolResult > ::output_schema, state : & [], asks : & [],
        context : true, call : __tool_echo_call, file : ::core::file!(), line :
        ::core::line!(), icons : & [], task : __tool_private::TaskSupport::Forbidden,
        blocking : false, tags : & [], scopes : & [], rate_limit :
        ::core::option::Option::None, }
    }
    #[allow(dead_code)]
    fn __tool_parameter_check() {
        use __tool_private::{ProbeContext as _, ProbeOther as _};
        __tool_private::not_an_aliased_context(
            (&__tool_private::TypeProbe::<EchoArgs>::new()).kind(),
        );
    }
};
