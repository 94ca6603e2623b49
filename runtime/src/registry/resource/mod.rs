//! Resources: what `#[resource]` submits ([`ResourceRegistration`], `registration.rs`), what it
//! may give ([`IntoResourceBody`], `body.rs`), the servable [`Resource`] built from it or at run
//! time (`item.rs`), what a run-time one is given ([`ReadRequest`], `request.rs`), why a read
//! gives nothing (`error.rs`), the resources at one moment ([`Listed`], `listed.rs`) and the live
//! [`ResourceSet`] a server reads them from (`set.rs`). Reading one is [`Listed::read`].

mod body;
mod error;
mod item;
mod listed;
mod registration;
mod request;
mod set;

pub use body::{IntoResourceBody, ResourceBody};
pub(crate) use error::ReadError;
pub use error::ResourceError;
pub use item::Resource;
pub(crate) use listed::Listed;
pub(crate) use registration::collected;
pub use registration::{ResourceRead, ResourceRegistration};
pub use request::ReadRequest;
pub(crate) use set::ResourceSet;

#[cfg(test)]
mod tests {
    #[cfg(feature = "skills")]
    use std::borrow::Cow;

    use futures_util::future::BoxFuture;

    use super::registration::build_all;
    use super::*;
    use crate::context::Context;
    use crate::state::StateMap;

    const fn registration(
        uri: &'static str,
        line: u32,
        read: ResourceRead,
    ) -> ResourceRegistration {
        ResourceRegistration {
            uri,
            name: "r",
            title: None,
            description: None,
            mime_type: None,
            app: None,
            read,
            file: "r.rs",
            line,
            icons: &[],
            completers: &[],
            state: &[],
            tags: &[],
            scopes: &[],
        }
    }

    fn context() -> Context {
        Context::detached(StateMap::default())
    }

    fn text() -> ResourceBody {
        ResourceBody::Text("hello".into())
    }

    /// A resource fn can hand its error to code that takes any `std::error::Error` (`?` into
    /// `anyhow`, a log line).
    #[test]
    fn a_resource_error_is_an_error_with_its_reason() {
        let errors: [Box<dyn std::error::Error>; 3] = [
            Box::new(ResourceError::NotFound(None)),
            Box::new(ResourceError::NotFound(Some("no page 0".into()))),
            Box::new(ResourceError::Failed("the disk is gone".into())),
        ];
        let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "resource not found",
                "resource not found: no page 0",
                "the disk is gone"
            ]
        );
    }

    /// A fn's `Result` keeps which error it returned: not found stays not found.
    #[test]
    fn a_result_keeps_its_resource_error() {
        let missing: Result<String, ResourceError> =
            Err(ResourceError::NotFound(Some("no page 0".into())));
        assert_eq!(
            missing.into_resource_body(),
            Err(ResourceError::NotFound(Some("no page 0".into())))
        );
        let failed: Result<String, std::io::Error> = Err(std::io::Error::other("gone"));
        assert_eq!(
            failed.into_resource_body(),
            Err(ResourceError::Failed("gone".into()))
        );
    }

    fn echo(
        values: Vec<String>,
        _: Context,
    ) -> BoxFuture<'static, Result<ResourceBody, ResourceError>> {
        Box::pin(async move { Ok(ResourceBody::Text(values.join(",").into())) })
    }

    /// A fn returning `None`.
    fn nothing(
        _: Vec<String>,
        _: Context,
    ) -> BoxFuture<'static, Result<ResourceBody, ResourceError>> {
        Box::pin(async { None::<String>.into_resource_body() })
    }

    /// A fn returning `Err(ResourceError::NotFound(…))`.
    fn refuse(
        _: Vec<String>,
        _: Context,
    ) -> BoxFuture<'static, Result<ResourceBody, ResourceError>> {
        let why = ResourceError::NotFound(Some("no such name".into()));
        Box::pin(async { Err::<String, _>(why).into_resource_body() })
    }

    static A1: ResourceRegistration = registration("a://x", 1, ResourceRead::Static(text));
    static A2: ResourceRegistration = registration("a://x", 2, ResourceRead::Static(text));
    static T: ResourceRegistration = registration("a://{id}/y", 3, ResourceRead::Dynamic(echo));
    static BAD: ResourceRegistration = registration("a://{id}", 4, ResourceRead::Static(text));
    static NONE: ResourceRegistration =
        registration("a://{id}/w", 5, ResourceRead::Dynamic(nothing));
    static ECHO_W: ResourceRegistration =
        registration("a://{name}/w", 6, ResourceRead::Dynamic(echo));
    static REFUSE_W: ResourceRegistration =
        registration("a://{name}/w", 7, ResourceRead::Dynamic(refuse));

    #[test]
    fn a_uri_registered_twice_names_both_places() {
        let (_, problems) = build_all(vec![&A2, &A1]);
        assert_eq!(
            problems[0].to_string(),
            "two resources have the URI `a://x`: one at r.rs:1, one at r.rs:2; resource URIs must be unique"
        );
        let (_, problems) = build_all(vec![&BAD]);
        assert!(
            problems[0].to_string().contains("needs an fn"),
            "{problems:?}"
        );
    }

    /// A resource built at run time reads its template's values; the live set takes it once,
    /// and a problem names it as added at run time.
    #[tokio::test]
    async fn a_run_time_resource_joins_the_live_set() {
        let (collected, _) = build_all(vec![&A1]);
        let set = ResourceSet::new(collected);
        let note = Resource::new(
            "a://notes/{id}/v{version}",
            "note",
            |request: ReadRequest| async move {
                let id = request.variable("id").unwrap_or_default().to_owned();
                (id != "0").then(|| format!("{id} {}", request.variable("version").unwrap_or("?")))
            },
        )
        .unwrap()
        .mime_type("text/plain");
        set.insert(note.clone()).unwrap();
        let listed = set.listed();
        let (resource, body) = listed.read("a://notes/7/v2", &context()).await.unwrap();
        assert_eq!(resource.listed_mime_type(), Some("text/plain"));
        assert_eq!(*body, ResourceBody::Text("7 2".into()));
        assert!(matches!(
            listed.read("a://notes/0/v1", &context()).await,
            Err(ReadError::NotFound(None))
        ));
        assert_eq!(
            set.insert(note).unwrap_err().to_string(),
            "two resources have the URI `a://notes/{id}/v{version}`: one added at run time, one \
             added at run time; resource URIs must be unique"
        );
        let taken = Resource::new("a://x", "x", |_| async { "" }).unwrap();
        assert_eq!(
            set.insert(taken).unwrap_err().to_string(),
            "two resources have the URI `a://x`: one at r.rs:1, one added at run time; resource \
             URIs must be unique"
        );
        assert!(set.remove("a://notes/{id}/v{version}").unwrap().is_some());
        assert!(set.remove("a://notes/{id}/v{version}").unwrap().is_none());
        assert!(
            listed.read("a://notes/7/v2", &context()).await.is_ok(),
            "a snapshot stays whole"
        );
        assert!(
            set.listed()
                .read("a://notes/7/v2", &context())
                .await
                .is_err()
        );
        let bad = Resource::new("a://{", "x", |_| async { "" }).unwrap_err();
        assert!(
            bad.to_string().starts_with(
                "resource `a://{` added at run time cannot be served: `{` without `}`"
            ),
            "{bad}"
        );
        let unnamed = Resource::new("a://y", "", |_| async { "" }).unwrap_err();
        assert!(
            unnamed.to_string().ends_with("its name must not be empty"),
            "{unnamed}"
        );
    }

    #[cfg(feature = "skills")]
    #[tokio::test]
    async fn fixed_contents_are_shared_by_reads_and_by_changes_of_the_set() {
        let body = ResourceBody::Text(Cow::Owned("x".repeat(1024)));
        let fixed = Resource::fixed(
            "skill://a/SKILL.md".into(),
            "a".into(),
            body,
            "skill://a",
            "here",
        );
        let set = ResourceSet::new(Listed::default());
        set.insert(fixed).unwrap();
        let address = |contents: &ResourceBody| match contents {
            ResourceBody::Text(text) => text.as_ptr(),
            ResourceBody::Blob(bytes) => bytes.as_ptr(),
        };
        let before = set.listed();
        let (_, first) = before.read("skill://a/SKILL.md", &context()).await.unwrap();
        assert!(matches!(first, Cow::Borrowed(_)), "read without a copy");
        // A change copies the lists, not the contents.
        set.insert(Resource::new("b://x", "x", |_| async { "" }).unwrap())
            .unwrap();
        assert!(set.remove("b://x").unwrap().is_some());
        let after = set.listed();
        let (_, second) = after.read("skill://a/SKILL.md", &context()).await.unwrap();
        assert_eq!(address(&first), address(&second));
        assert!(
            set.remove("skill://a/SKILL.md").is_err(),
            "a skill's file stays"
        );
    }

    #[tokio::test]
    async fn reads_go_to_the_exact_uri_then_the_templates() {
        let (set, problems) = build_all(vec![&A1, &T]);
        assert!(problems.is_empty(), "{problems:?}");
        let (_, body) = set.read("a://x", &context()).await.unwrap();
        assert_eq!(*body, text());
        let (resource, body) = set.read("a://7/y", &context()).await.unwrap();
        assert_eq!(resource.uri(), "a://{id}/y");
        assert_eq!(*body, ResourceBody::Text("7".into()));
        assert!(matches!(
            set.read("a://7/z", &context()).await,
            Err(ReadError::NotFound(None))
        ));
    }

    #[tokio::test]
    async fn a_template_that_finds_nothing_leaves_the_uri_to_the_next() {
        let (set, problems) = build_all(vec![&NONE, &ECHO_W]);
        assert!(problems.is_empty(), "{problems:?}");
        let (resource, body) = set.read("a://7/w", &context()).await.unwrap();
        assert_eq!(resource.uri(), "a://{name}/w");
        assert_eq!(*body, ResourceBody::Text("7".into()));
        // Nothing serves it: the first refusal says why, and a fn's `None` gives no reason.
        let (set, problems) = build_all(vec![&REFUSE_W, &NONE]);
        assert!(problems.is_empty(), "{problems:?}");
        assert!(matches!(
            set.read("a://7/w", &context()).await,
            Err(ReadError::NotFound(None))
        ));
        let (set, _) = build_all(vec![&REFUSE_W]);
        assert!(matches!(
            set.read("a://7/w", &context()).await,
            Err(ReadError::NotFound(Some(why))) if why == "no such name"
        ));
    }
}
