//! The deserializer a call's arguments are read with: `serde_json`'s `&Value`, except that a
//! struct is read from an object only.
//!
//! Validated arguments of a struct type are always an object, but `&Value` also reads a struct
//! from an array (its fields in order), so every argument struct compiled a sequence visitor
//! that never runs: in release, 1.1 KB of code per tool for each of the two deserializers
//! (`BENCHMARKS.md`, "What a tool's code is"). Every other method is `&Value`'s, so that every
//! other type (a lone parameter's `Vec<String>`, an enum, a map) reads as before, with the same
//! messages.

use serde::Deserializer;
use serde::de::{Error as _, Unexpected, Visitor};
use serde_json::{Error, Value};

/// Arguments as a tool's argument type reads them.
#[derive(Clone, Copy)]
pub(crate) struct Arguments<'de>(pub(crate) &'de Value);

/// `&Value`'s methods, as they are.
macro_rules! same_as_value {
    ($($method:ident)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.0.$method(visitor)
        }
    )*};
}

impl<'de> Deserializer<'de> for Arguments<'de> {
    type Error = Error;

    same_as_value! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    }

    #[inline]
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.0.deserialize_unit_struct(name, visitor)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.0.deserialize_newtype_struct(name, visitor)
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        self.0.deserialize_tuple(len, visitor)
    }

    #[inline]
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.0.deserialize_tuple_struct(name, len, visitor)
    }

    #[inline]
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.0.deserialize_enum(name, variants, visitor)
    }

    /// From an object only: its map visitor, never its sequence visitor.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(object) => object.deserialize_any(visitor),
            other => Err(Error::invalid_type(unexpected(other), &visitor)),
        }
    }
}

/// What serde calls `value` in a message, as `serde_json` does.
fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(bool) => Unexpected::Bool(*bool),
        Value::Number(number) => number
            .as_u64()
            .map(Unexpected::Unsigned)
            .or_else(|| number.as_i64().map(Unexpected::Signed))
            .unwrap_or_else(|| Unexpected::Float(number.as_f64().unwrap_or(f64::NAN))),
        Value::String(text) => Unexpected::Str(text),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Search {
        query: String,
        limit: Option<u32>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(tag = "kind", rename_all = "lowercase")]
    enum Shape {
        Circle { radius: f64 },
    }

    fn read<T: for<'de> Deserialize<'de>>(value: &Value) -> Result<T, String> {
        T::deserialize(Arguments(value)).map_err(|error| error.to_string())
    }

    fn as_value_reads<T: for<'de> Deserialize<'de>>(value: &Value) -> Result<T, String> {
        T::deserialize(value).map_err(|error| error.to_string())
    }

    #[test]
    fn a_struct_reads_from_an_object_and_is_refused_elsewhere_as_serde_json_says() {
        let search = json!({"query": "q", "limit": 3});
        assert_eq!(
            read::<Search>(&search),
            Ok(Search {
                query: "q".into(),
                limit: Some(3)
            })
        );
        assert_eq!(read::<Search>(&search), as_value_reads::<Search>(&search));
        for refused in [
            json!("q"),
            json!(3),
            json!(-3),
            json!(1.5),
            json!(null),
            json!(true),
        ] {
            assert_eq!(
                read::<Search>(&refused),
                as_value_reads::<Search>(&refused),
                "{refused}"
            );
        }
        assert_eq!(
            read::<Search>(&json!(["q", 3])).unwrap_err(),
            "invalid type: sequence, expected struct Search",
            "not read positionally"
        );
    }

    #[test]
    fn every_other_type_reads_as_from_a_value() {
        let cases = [
            json!(["a", "b"]),
            json!({"kind": "circle", "radius": 2.0}),
            json!({"a": 1}),
            json!("text"),
            json!(null),
            json!(7),
        ];
        for value in &cases {
            assert_eq!(
                read::<Vec<String>>(value),
                as_value_reads::<Vec<String>>(value)
            );
            assert_eq!(read::<Shape>(value), as_value_reads::<Shape>(value));
            assert_eq!(
                read::<std::collections::BTreeMap<String, u8>>(value),
                as_value_reads::<std::collections::BTreeMap<String, u8>>(value)
            );
            assert_eq!(
                read::<Option<u8>>(value),
                as_value_reads::<Option<u8>>(value)
            );
            assert_eq!(read::<String>(value), as_value_reads::<String>(value));
        }
    }
}
