//! A resource's contents ([`ResourceBody`]) and what a `#[resource]` may give ([`IntoResourceBody`]).

use std::any::Any;
use std::borrow::Cow;
use std::fmt::Display;

use super::ResourceError;

/// A resource's contents: text, or bytes (sent base64-encoded as `blob`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResourceBody {
    /// Text, sent as `text`.
    Text(Cow<'static, str>),
    /// Bytes, sent as `blob`.
    Blob(Cow<'static, [u8]>),
}

/// What a `#[resource]` item or fn can give: text (`&'static str`, `String`), bytes
/// (`&'static [u8]`, `Vec<u8>`), a [`ResourceBody`], or (from an fn) an `Option` of one of those,
/// whose `None` means the URI names nothing (a template's `notes://{id}` for an id that does not
/// exist), or a `Result` whose error becomes the JSON-RPC error's message (a
/// `Result<T, ResourceError>` says itself whether the URI names nothing or reading failed).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the contents of a `#[resource]`",
    label = "a resource gives `&'static str`, `String`, `&'static [u8]`, `Vec<u8>` or `ResourceBody`",
    note = "an fn may also return `Option<T>` of one of these (`None`: not found), or `Result<T, E>` with `E: Display`"
)]
pub trait IntoResourceBody {
    /// The contents, or why there are none.
    ///
    /// # Errors
    ///
    /// [`ResourceError::NotFound`] when there is nothing at the URI, [`ResourceError::Failed`]
    /// when reading it failed.
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError>;
}

impl IntoResourceBody for ResourceBody {
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError> {
        Ok(self)
    }
}

impl IntoResourceBody for &'static str {
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError> {
        Ok(ResourceBody::Text(Cow::Borrowed(self)))
    }
}

impl IntoResourceBody for String {
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError> {
        Ok(ResourceBody::Text(Cow::Owned(self)))
    }
}

impl IntoResourceBody for &'static [u8] {
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError> {
        Ok(ResourceBody::Blob(Cow::Borrowed(self)))
    }
}

impl<const N: usize> IntoResourceBody for &'static [u8; N] {
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError> {
        Ok(ResourceBody::Blob(Cow::Borrowed(self)))
    }
}

impl IntoResourceBody for Vec<u8> {
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError> {
        Ok(ResourceBody::Blob(Cow::Owned(self)))
    }
}

/// A [`ResourceError`] says which: not found (with its reason) or failed; any other error's
/// text is a failure's message.
impl<T: IntoResourceBody, E: Display + 'static> IntoResourceBody for Result<T, E> {
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError> {
        self.map_err(|error| {
            // One impl for both (`ResourceError` is `Display` too): the type decides.
            let message = error.to_string();
            (Box::new(error) as Box<dyn Any>)
                .downcast::<ResourceError>()
                .map_or_else(|_| ResourceError::Failed(message), |error| *error)
        })?
        .into_resource_body()
    }
}

impl<T: IntoResourceBody> IntoResourceBody for Option<T> {
    fn into_resource_body(self) -> Result<ResourceBody, ResourceError> {
        self.ok_or(ResourceError::NotFound(None))?
            .into_resource_body()
    }
}
