//! What `#[prompt]`-generated code reads its arguments with: each argument's string read by
//! `FromStr` or by `Deserialize` ([`ArgumentProbe`], [`ReadArgument`]), or a lone argument
//! struct's fields as the arguments ([`FieldsProbe`]).

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::PromptError;

/// Names a prompt argument's type `T` for the choice of how its string value is read:
/// `(&&&ArgumentProbe::<T>::new()).reader()` is [`ByFromStr`] when `T: FromStr`
/// ([`ReadByFromStr`]), else [`ByDeserialize`] when `T` deserializes (from a JSON string: a
/// unit enum, [`ReadByDeserialize`]), else [`Unreadable`] ([`ReadByNothing`]), which
/// [`ReadArgument`] refuses at the user's type.
pub struct ArgumentProbe<T>(std::marker::PhantomData<T>);

impl<T> ArgumentProbe<T> {
    /// The probe of `T`.
    #[must_use]
    pub const fn new() -> Self {
        Self(std::marker::PhantomData)
    }
}

impl<T> std::fmt::Debug for ArgumentProbe<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ArgumentProbe")
    }
}

impl<T> Default for ArgumentProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Reads a prompt argument with `FromStr`.
#[derive(Debug)]
pub struct ByFromStr;
/// Reads a prompt argument by deserializing the JSON string of it.
#[derive(Debug)]
pub struct ByDeserialize;
/// A prompt argument type with no way to read it.
#[derive(Debug)]
pub struct Unreadable;

/// [`ArgumentProbe`] of a `FromStr` type.
pub trait ReadByFromStr {
    /// [`ByFromStr`].
    fn reader(&self) -> ByFromStr {
        ByFromStr
    }
}

impl<T: std::str::FromStr<Err: std::fmt::Display>> ReadByFromStr for &&ArgumentProbe<T> {}

/// [`ArgumentProbe`] of a type that deserializes.
pub trait ReadByDeserialize {
    /// [`ByDeserialize`].
    fn reader(&self) -> ByDeserialize {
        ByDeserialize
    }
}

impl<T: DeserializeOwned> ReadByDeserialize for &ArgumentProbe<T> {}

/// [`ArgumentProbe`] of any other type.
pub trait ReadByNothing {
    /// [`Unreadable`].
    fn reader(&self) -> Unreadable {
        Unreadable
    }
}

impl<T> ReadByNothing for ArgumentProbe<T> {}

/// How a prompt argument of type `T` is read from its string.
#[diagnostic::on_unimplemented(
    message = "`{T}` cannot be a prompt argument: prompt arguments are strings on the wire",
    label = "neither `FromStr` nor a type that deserializes from a string",
    note = "take a type that parses from a string (`String`, a number, `bool`, your own `impl FromStr`), or a unit enum deriving `serde::Deserialize`"
)]
pub trait ReadArgument<T> {
    /// `value` as a `T`, or why not.
    ///
    /// # Errors
    ///
    /// What the type said of the value.
    fn read(self, value: &str) -> Result<T, String>;
}

impl<T: std::str::FromStr<Err: std::fmt::Display>> ReadArgument<T> for ByFromStr {
    fn read(self, value: &str) -> Result<T, String> {
        value.parse().map_err(|error: T::Err| error.to_string())
    }
}

impl<T: DeserializeOwned> ReadArgument<T> for ByDeserialize {
    fn read(self, value: &str) -> Result<T, String> {
        serde_json::from_value(Value::String(value.to_owned())).map_err(|error| error.to_string())
    }
}

/// A required argument's value (the runtime checked it is present; `-32602` otherwise).
///
/// # Errors
///
/// The value is missing or refused.
pub fn required<T>(value: Option<T>, name: &str) -> Result<T, PromptError> {
    value.ok_or_else(|| PromptError::InvalidArgument(format!("Missing required argument `{name}`")))
}

/// Names a prompt's lone argument's type for its fields: `(&&FieldsProbe::<T>::new())` is
/// [`ReadByFields`] when `T` deserializes and has a schema (an argument struct, whose fields are
/// then the prompt's arguments, or a type that turns out to be one string, a unit enum), else
/// [`NoFields`].
pub struct FieldsProbe<T>(std::marker::PhantomData<T>);

impl<T> FieldsProbe<T> {
    /// The probe of `T`.
    #[must_use]
    pub const fn new() -> Self {
        Self(std::marker::PhantomData)
    }
}

impl<T> std::fmt::Debug for FieldsProbe<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FieldsProbe")
    }
}

impl<T> Default for FieldsProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// [`FieldsProbe`] of a type that deserializes and has a schema.
pub trait ReadByFields<T> {
    /// Its input schema, whose properties (if it is an object) are the prompt's arguments.
    fn schema(&self) -> Option<Value>;
    /// `T` read from the prompt's arguments, when its schema lists properties; `None`
    /// otherwise (the type is one argument, read from its string).
    ///
    /// # Errors
    ///
    /// An argument the type refuses (`-32602`).
    fn read(
        &self,
        arguments: &std::collections::BTreeMap<String, String>,
    ) -> Option<Result<T, PromptError>>;
}

impl<T: DeserializeOwned + schemars::JsonSchema> ReadByFields<T> for &FieldsProbe<T> {
    fn schema(&self) -> Option<Value> {
        Some(crate::schema::input_schema::<T>())
    }

    fn read(
        &self,
        arguments: &std::collections::BTreeMap<String, String>,
    ) -> Option<Result<T, PromptError>> {
        crate::registry::read_fields(&crate::schema::input_schema::<T>(), arguments)
    }
}

/// [`FieldsProbe`] of any other type: one argument, read from its string.
pub trait NoFields<T> {
    /// `None`.
    fn schema(&self) -> Option<Value> {
        None
    }
    /// `None`.
    ///
    /// # Errors
    ///
    /// Never.
    fn read(
        &self,
        arguments: &std::collections::BTreeMap<String, String>,
    ) -> Option<Result<T, PromptError>> {
        let _ = arguments;
        None
    }
}

impl<T> NoFields<T> for FieldsProbe<T> {}
