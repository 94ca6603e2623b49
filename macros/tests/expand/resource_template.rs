/// One section of the manual
#[allow(clippy::needless_pass_by_value)]
async fn section(
    section: String,
    manual: State<Manual>,
    chapter: u32,
    context: &Context,
) -> String {
    format!("{chapter}.{section}")
}
const _: () = {
    use ::mcp_toolbelt::__private as __resource_private;
    fn __resource_read(
        __resource_values: ::std::vec::Vec<::std::string::String>,
        __resource_context: __resource_private::Context,
    ) -> __resource_private::BoxFuture<
        'static,
        ::core::result::Result<
            __resource_private::ResourceBody,
            __resource_private::ResourceError,
        >,
    > {
        let __resource_fn = section;
        ::std::boxed::Box::pin(async move {
            let section: String = __resource_private::template_value::<
                String,
            >("section", &__resource_values[1usize])?;
            let chapter: u32 = __resource_private::template_value::<
                u32,
            >("chapter", &__resource_values[0usize])?;
            let __resource_output = __resource_fn(
                    section,
                    __resource_private::state_value::<
                        State<Manual>,
                    >(&__resource_context),
                    chapter,
                    __resource_private::context_ref::<Context>(&__resource_context),
                )
                .await;
            __resource_private::resource_body::<String>(__resource_output)
        })
    }
    __resource_private::inventory::submit! {
        __resource_private::ResourceRegistration { uri :
        "docs://manual/{chapter}/{section}", name : "section", title :
        ::core::option::Option::None, description :
        ::core::option::Option::Some("One section of the manual"), mime_type :
        ::core::option::Option::Some("text/markdown"), app :
        ::core::option::Option::None, read :
        __resource_private::ResourceRead::Dynamic(__resource_read), file :
        ::core::file!(), line : ::core::line!(), icons : &
        [__resource_private::IconRegistration { src :
        __resource_private::IconSource::Bytes(include_bytes!("manual.svg")), mime_type :
        ::core::option::Option::Some("image/svg+xml"), sizes : & ["any"], theme :
        ::core::option::Option::None, }], completers : &
        [__resource_private::VariableCompleter { variable : "section", complete : || {
        #[allow(unused_imports)] use __resource_private:: { KnownFromSchema as _,
        NoKnownValues as _ }; (&& __resource_private::ValuesProbe:: < String > ::new())
        .known() } }, __resource_private::VariableCompleter { variable : "chapter",
        complete : || { #[allow(unused_imports)] use __resource_private:: {
        KnownFromSchema as _, NoKnownValues as _ }; (&& __resource_private::ValuesProbe::
        < u32 > ::new()).known() } }], state : & [__resource_private::state_key:: < State
        < Manual > >], tags : & [], scopes : & [], }
    }
};
