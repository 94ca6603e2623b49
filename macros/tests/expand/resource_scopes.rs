/// Every note
static NOTES: &str = "";
const _: () = {
    use ::mcp_toolbelt::__private as __resource_private;
    fn __resource_static() -> __resource_private::ResourceBody {
        __resource_private::static_resource::<&str>(NOTES)
    }
    __resource_private::inventory::submit! {
        __resource_private::ResourceRegistration { uri : "secured://notes", name :
        "notes", title : ::core::option::Option::None, description :
        ::core::option::Option::Some("Every note"), mime_type :
        ::core::option::Option::None, app : ::core::option::Option::None, read :
        __resource_private::ResourceRead::Static(__resource_static), file :
        ::core::file!(), line : ::core::line!(), icons : & [], completers : & [], state :
        & [], tags : & [], scopes : & ["notes:read"], }
    }
};
