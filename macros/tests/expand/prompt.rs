/// Summarise a note
#[allow(clippy::needless_pass_by_value)]
async fn summarise(
    title: String,
    tone: Option<Tone>,
    words: u32,
    tag: Option<String>,
    notes: State<Notes>,
    context: &Context,
) -> Result<GetPromptResult, NoteError> {
    todo!()
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
            let __prompt_arg_0: String = __prompt_private::required(
                __prompt_private::prompt_argument::<
                    String,
                    _,
                >(
                    &__prompt_arguments,
                    "title",
                    {
                        #[allow(unused_imports)]
                        use __prompt_private::{
                            ReadByDeserialize as _, ReadByFromStr as _,
                            ReadByNothing as _,
                        };
                        (&&&__prompt_private::ArgumentProbe::<String>::new()).reader()
                    },
                )?,
                "title",
            )?;
            let __prompt_arg_1: Option<Tone> = __prompt_private::prompt_argument::<
                Tone,
                _,
            >(
                &__prompt_arguments,
                "tone",
                {
                    #[allow(unused_imports)]
                    use __prompt_private::{
                        ReadByDeserialize as _, ReadByFromStr as _, ReadByNothing as _,
                    };
                    (&&&__prompt_private::ArgumentProbe::<Tone>::new()).reader()
                },
            )?;
            let __prompt_arg_2: u32 = __prompt_private::prompt_argument::<
                u32,
                _,
            >(
                    &__prompt_arguments,
                    "words",
                    {
                        #[allow(unused_imports)]
                        use __prompt_private::{
                            ReadByDeserialize as _, ReadByFromStr as _,
                            ReadByNothing as _,
                        };
                        (&&&__prompt_private::ArgumentProbe::<u32>::new()).reader()
                    },
                )?
                .unwrap_or_default();
            let __prompt_arg_3: Option<String> = __prompt_private::prompt_argument::<
                String,
                _,
            >(
                &__prompt_arguments,
                "tag",
                {
                    #[allow(unused_imports)]
                    use __prompt_private::{
                        ReadByDeserialize as _, ReadByFromStr as _, ReadByNothing as _,
                    };
                    (&&&__prompt_private::ArgumentProbe::<String>::new()).reader()
                },
            )?;
            let __prompt_fn = summarise;
            let __prompt_output = __prompt_private::assert_send(
                    __prompt_fn(
                        __prompt_arg_0,
                        __prompt_arg_1,
                        __prompt_arg_2,
                        __prompt_arg_3,
                        __prompt_private::state_value::<State<Notes>>(&__prompt_context),
                        __prompt_private::context_ref::<Context>(&__prompt_context),
                    ),
                )
                .await;
            __prompt_private::prompt_result::<
                Result<GetPromptResult, NoteError>,
            >(__prompt_output)
        })
    }
    __prompt_private::inventory::submit! {
        __prompt_private::PromptRegistration { name : "summarise", title :
        ::core::option::Option::Some("Summarise"), description : "Summarise a note",
        arguments : & [__prompt_private::PromptArgumentRegistration { name : "title",
        description : ::core::option::Option::Some("The note's title"), required : true,
        complete : || ::core::option::Option::Some(__prompt_private::completer(titles)),
        fields : ::core::option::Option::None, },
        __prompt_private::PromptArgumentRegistration { name : "tone", description :
        ::core::option::Option::Some("How to write it"), required : false, complete : ||
        { #[allow(unused_imports)] use __prompt_private:: { KnownFromSchema as _,
        NoKnownValues as _ }; (&& __prompt_private::ValuesProbe:: < Tone > ::new())
        .known() }, fields : ::core::option::Option::None, },
        __prompt_private::PromptArgumentRegistration { name : "words", description :
        ::core::option::Option::Some("At most this many words"), required : false,
        complete : || { #[allow(unused_imports)] use __prompt_private:: { KnownFromSchema
        as _, NoKnownValues as _ }; (&& __prompt_private::ValuesProbe:: < u32 > ::new())
        .known() }, fields : ::core::option::Option::None, },
        __prompt_private::PromptArgumentRegistration { name : "tag", description :
        ::core::option::Option::Some("A tag"), required : false, complete : ||
        ::core::option::Option::Some(__prompt_private::completer(tags)), fields :
        ::core::option::Option::None, }], icons : & [], state : &
        [__prompt_private::state_key:: < State < Notes > >], get :
        __prompt_summarise_get, file : ::core::file!(), line : ::core::line!(), tags : &
        [], scopes : & [], }
    }
};
