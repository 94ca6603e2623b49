/// The albums view
static ALBUMS_VIEW: &str = include_str!("albums.html");
const _: () = {
    use ::mcp_toolbelt::__private as __resource_private;
    fn __resource_static() -> __resource_private::ResourceBody {
        __resource_private::static_resource::<&str>(ALBUMS_VIEW)
    }
    __resource_private::inventory::submit! {
        __resource_private::ResourceRegistration { uri : "ui://albums/view.html", name :
        "albums_view", title : ::core::option::Option::None, description :
        ::core::option::Option::Some("The albums view"), mime_type :
        ::core::option::Option::None, app :
        ::core::option::Option::Some(__resource_private::AppView { connect_domains : &
        ["https://api.example.com"], resource_domains : & [], frame_domains : & [],
        base_uri_domains : & [], permissions : & ["clipboardWrite"], domain :
        ::core::option::Option::None, prefers_border :
        ::core::option::Option::Some(true), }), read :
        __resource_private::ResourceRead::Static(__resource_static), file :
        ::core::file!(), line : ::core::line!(), icons : & [], completers : & [], state :
        & [], tags : & [], scopes : & [], }
    }
};
