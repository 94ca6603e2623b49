//! What generated code completes with when no completer fn is given: a type's known values
//! ([`ValuesProbe`]).

use super::Completer;

/// Names a prompt argument's (or template variable's) type for its known values:
/// `(&&ValuesProbe::<T>::new()).known()` is its completer when `T: JsonSchema` and its schema
/// has a finite set of values ([`KnownFromSchema`]), else `None` ([`NoKnownValues`]).
pub struct ValuesProbe<T>(std::marker::PhantomData<T>);

impl<T> ValuesProbe<T> {
    /// The probe of `T`.
    #[must_use]
    pub const fn new() -> Self {
        Self(std::marker::PhantomData)
    }
}

impl<T> std::fmt::Debug for ValuesProbe<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ValuesProbe")
    }
}

impl<T> Default for ValuesProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// [`ValuesProbe`] of a type with a schema.
pub trait KnownFromSchema {
    /// The completer of its known values, if its schema has a finite set.
    fn known(&self) -> Option<Completer>;
}

impl<T: schemars::JsonSchema> KnownFromSchema for &ValuesProbe<T> {
    fn known(&self) -> Option<Completer> {
        let schema = schemars::SchemaGenerator::default()
            .into_root_schema_for::<T>()
            .to_value();
        let values = crate::registry::known_values(&schema);
        (!values.is_empty()).then(|| Completer::Known(values.into()))
    }
}

/// [`ValuesProbe`] of any other type.
pub trait NoKnownValues {
    /// `None`.
    fn known(&self) -> Option<Completer> {
        None
    }
}

impl<T> NoKnownValues for ValuesProbe<T> {}
