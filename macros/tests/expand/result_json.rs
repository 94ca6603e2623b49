/// Look up one product by its exact name
#[allow(
    clippy::needless_pass_by_value,
    clippy::too_many_arguments,
    clippy::implicit_hasher,
    clippy::option_option
)]
async fn product_details(name: String) -> Result<Json<Product>, ToolError> {
    lookup(&name).map(Json).ok_or_else(|| ToolError::new("no such product"))
}
const _: () = {
    use ::mcp_toolbelt::__private as __tool_private;
    #[allow(non_camel_case_types, clippy::option_option)]
    #[derive(__tool_private::serde::Deserialize, __tool_private::schemars::JsonSchema)]
    #[serde(crate = "__tool_private::serde")]
    #[schemars(crate = "__tool_private::schemars")]
    struct __tool_product_details_arguments {
        /// The product's exact name
        name: String,
    }
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
    fn __tool_product_details_call(
        __tool_arguments: __tool_private::serde_json::Value,
        __tool_context: __tool_private::Context,
    ) -> __tool_private::BoxFuture<'static, __tool_private::CallToolResult> {
        let (_, __tool_parse) = __tool_argument_type::<
            __tool_product_details_arguments,
        >();
        let __tool_arguments = match __tool_parse("product-details", __tool_arguments) {
            ::core::result::Result::Ok(arguments) => arguments,
            ::core::result::Result::Err(refused) => {
                return __tool_private::refused(refused);
            }
        };
        let __tool_fn = product_details;
        __tool_private::tool_future(
            __tool_fn(__tool_arguments.name),
            <Result<
                Json<Product>,
                ToolError,
            > as __tool_private::IntoToolResult>::into_tool_result,
        )
    }
    __tool_private::inventory::submit! {
        __tool_private::ToolRegistration { name : "product-details", title :
        ::core::option::Option::None, description :
        "Look up one product by its exact name", read_only :
        ::core::option::Option::None, destructive : ::core::option::Option::None,
        idempotent : ::core::option::Option::None, open_world :
        ::core::option::Option::None, input_schema : || { let (__tool_input_schema, _) =
        __tool_argument_type:: < __tool_product_details_arguments > ();
        __tool_input_schema() }, output_schema : < Result < Json < Product >, ToolError >
        as __tool_private::IntoToolResult > ::output_schema, state : & [], asks : & [],
        context : false, call : __tool_product_details_call, file : ::core::file!(), line
        : ::core::line!(), icons : & [], task : __tool_private::TaskSupport::Forbidden,
        blocking : false, tags : & [], scopes : & [], rate_limit :
        ::core::option::Option::None, }
    }
};
