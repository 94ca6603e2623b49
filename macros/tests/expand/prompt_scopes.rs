/// Summarise the notes
#[allow(clippy::needless_pass_by_value)]
async fn summarise() -> String {
    String::new()
}
const _: () = {
    use ::mcp_toolbelt::__private as __prompt_private;
    #[allow(deprecated)]
    fn __prompt_summarise_get(
        __prompt_arguments: ::std::collections::BTreeMap<
            ::std::string::String,
            ::std::string::String,
        >,
        __prompt_context: __prompt_private::Context,
    ) -> __prompt_private::BoxFuture<
        'static,
        ::core::result::Result<
            __prompt_private::GetPromptResult,
            __prompt_private::PromptError,
        >,
    > {
        ::std::boxed::Box::pin(async move {
            let __prompt_fn = summarise;
            let __prompt_output = __prompt_private::assert_send(__prompt_fn()).await;
            __prompt_private::prompt_result::<String>(__prompt_output)
        })
    }
    __prompt_private::inventory::submit! {
        __prompt_private::PromptRegistration { name : "summarise", title :
        ::core::option::Option::None, description : "Summarise the notes", arguments : &
        [], icons : & [], state : & [], get : __prompt_summarise_get, file :
        ::core::file!(), line : ::core::line!(), tags : & [], scopes : & ["notes:read"],
        }
    }
};
