/// Get current weather for a location
#[allow(clippy::needless_pass_by_value)]
async fn get_weather(args: WeatherArgs) -> Json<Weather> {
    Json(Weather {
        temperature_c: 22.0,
        summary: args.location,
    })
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
    fn __tool_get_weather_call(
        __tool_arguments: __tool_private::serde_json::Value,
        __tool_context: __tool_private::Context,
    ) -> __tool_private::BoxFuture<'static, __tool_private::CallToolResult> {
        let (__tool_input_schema, __tool_parse) = __tool_argument_type::<WeatherArgs>();
        let __tool_arguments = {
            static __TOOL_LONE_PROPERTY: ::std::sync::OnceLock<bool> = ::std::sync::OnceLock::new();
            __tool_private::lone_parameter_arguments(
                &__TOOL_LONE_PROPERTY,
                __tool_input_schema,
                "args",
                __tool_arguments,
            )
        };
        let __tool_arguments = match __tool_parse("get_weather", __tool_arguments) {
            ::core::result::Result::Ok(arguments) => arguments,
            ::core::result::Result::Err(refused) => {
                return __tool_private::refused(refused);
            }
        };
        let __tool_fn = get_weather;
        __tool_private::tool_future(
            __tool_fn(__tool_arguments),
            <Json<Weather> as __tool_private::IntoToolResult>::into_tool_result,
        )
    }
    __tool_private::inventory::submit! {
        __tool_private::ToolRegistration { name : "get_weather", title :
        ::core::option::Option::Some("Get Weather"), description :
        "Get current weather for a location", read_only :
        ::core::option::Option::Some(true), destructive : ::core::option::Option::None,
        idempotent : ::core::option::Option::None, open_world :
        ::core::option::Option::Some(false), input_schema : || { let
        (__tool_input_schema, __tool_parse) = __tool_argument_type:: < WeatherArgs > ();
        __tool_private::lone_parameter_schema(__tool_input_schema, __tool_parse, "args",
        ::core::option::Option::None) }, output_schema : < Json < Weather > as
        __tool_private::IntoToolResult > ::output_schema, state : & [], asks : & [],
        context : false, call : __tool_get_weather_call, file : ::core::file!(), line :
        ::core::line!(), icons : & [], task : __tool_private::TaskSupport::Forbidden,
        blocking : false, tags : & [], scopes : & [], rate_limit :
        ::core::option::Option::None, }
    }
    #[allow(dead_code)]
    fn __tool_parameter_check() {
        use __tool_private::{ProbeContext as _, ProbeOther as _};
        __tool_private::not_an_aliased_context(
            (&__tool_private::TypeProbe::<WeatherArgs>::new()).kind(),
        );
    }
};
