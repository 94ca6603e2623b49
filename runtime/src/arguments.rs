//! The deserializer a call's arguments are read with: `serde_json`'s `&Value`, read alike (the
//! same visitor calls, the same messages), which also says where it refused them.
//!
//! One deserializer per argument type, the path free on success. Before it, each type compiled
//! two in release: `&Value`'s for speed, and `serde_path_to_error`'s, run again after a failure
//! to learn where (it copies each key it passes, a third of a small call): 3.8 KB of code per
//! tool (`BENCHMARKS.md`, "What a tool's code is"). Here the path is built only as an error
//! returns through the objects, arrays and variants it came from.
//!
//! Where it differs from `&Value`: a struct reads from an object only, never from an array (its
//! fields in order), which validated arguments never are, so no argument struct compiles a
//! sequence visitor that never runs; and a map's key refused (one that spells no number of the
//! key type) is named in the path, where `serde_path_to_error` said `?`.

use std::fmt;

use serde::Deserializer;
use serde::de::{
    self, DeserializeSeed, EnumAccess, Error as _, IntoDeserializer as _, MapAccess, SeqAccess,
    Unexpected, VariantAccess, Visitor,
};
use serde_json::{Map, Value};

/// Arguments as a tool's argument type reads them.
#[derive(Clone, Copy)]
pub(crate) struct Arguments<'de>(pub(crate) &'de Value);

/// Arguments serde refused: why, and where.
pub(crate) struct Refused(Box<Why>);

struct Why {
    error: serde_json::Error,
    /// From the refused value out to the arguments (reversed as it is read).
    path: Vec<Segment>,
}

/// One step of the path to a refused value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Segment {
    /// An object's member (its value).
    Key(String),
    /// An object's key, itself refused (a map keyed by numbers): the last step.
    RefusedKey(String),
    /// An array's item.
    Index(usize),
    /// An enum's variant (`{"Variant": …}`).
    Variant(String),
}

impl Refused {
    /// Where: from the arguments in to the refused value.
    pub(crate) fn path(&self) -> impl Iterator<Item = &Segment> {
        self.0.path.iter().rev()
    }

    /// Why, as `serde_json` says it.
    pub(crate) fn error(&self) -> &serde_json::Error {
        &self.0.error
    }

    /// The same refusal, one step further out.
    fn within(mut self, segment: Segment) -> Self {
        self.0.path.push(segment);
        self
    }
}

impl From<serde_json::Error> for Refused {
    #[cold]
    fn from(error: serde_json::Error) -> Self {
        Self(Box::new(Why {
            error,
            path: Vec::new(),
        }))
    }
}

impl fmt::Debug for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Refused")
            .field("error", &self.0.error)
            .field("path", &self.0.path)
            .finish()
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0.error, f)
    }
}

impl std::error::Error for Refused {}

/// Every message is `serde_json`'s own.
impl de::Error for Refused {
    #[cold]
    fn custom<T: fmt::Display>(message: T) -> Self {
        serde_json::Error::custom(message).into()
    }

    #[cold]
    fn invalid_type(unexpected: Unexpected<'_>, expected: &dyn de::Expected) -> Self {
        serde_json::Error::invalid_type(unexpected, expected).into()
    }

    #[cold]
    fn invalid_value(unexpected: Unexpected<'_>, expected: &dyn de::Expected) -> Self {
        serde_json::Error::invalid_value(unexpected, expected).into()
    }
}

type Read<T> = Result<T, Refused>;

/// The name `serde_json::value::RawValue` deserializes as (`serde_json`'s `raw::TOKEN`, not
/// exported).
const RAW_VALUE: &str = "$serde_json::private::RawValue";

impl<'de> Arguments<'de> {
    fn invalid_type<V: Visitor<'de>>(self, visitor: &V) -> Refused {
        Refused::invalid_type(unexpected(self.0), visitor)
    }

    fn number<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        match self.0 {
            Value::Number(number) => Ok(number.deserialize_any(visitor)?),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn string<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        match self.0 {
            Value::String(text) => visitor.visit_borrowed_str(text),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn array<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        match self.0 {
            Value::Array(items) => visit_array(items, visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn object<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        match self.0 {
            Value::Object(members) => visit_object(members, visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }
}

macro_rules! numbers {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
            self.number(visitor)
        }
    )*};
}

impl<'de> Deserializer<'de> for Arguments<'de> {
    type Error = Refused;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(bool) => visitor.visit_bool(*bool),
            Value::Number(number) => Ok(number.deserialize_any(visitor)?),
            Value::String(text) => visitor.visit_borrowed_str(text),
            Value::Array(items) => visit_array(items, visitor),
            Value::Object(members) => visit_object(members, visitor),
        }
    }

    numbers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        match self.0 {
            Value::Bool(bool) => visitor.visit_bool(*bool),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        self.string(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        self.string(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        self.string(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        match self.0 {
            Value::String(text) => visitor.visit_borrowed_str(text),
            Value::Array(items) => visit_array(items, visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Read<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Read<V::Value> {
        // `Box<RawValue>` (feature `raw_value`) asks for its JSON text by this name.
        if name == RAW_VALUE {
            return Ok(self.0.deserialize_newtype_struct(name, visitor)?);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        self.array(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Read<V::Value> {
        self.array(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Read<V::Value> {
        self.array(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        self.object(visitor)
    }

    /// From an object only: the struct's map visitor, never its sequence visitor.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Read<V::Value> {
        self.object(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Read<V::Value> {
        match self.0 {
            Value::Object(members) => {
                let mut members = members.iter();
                match (members.next(), members.next()) {
                    (Some((variant, value)), None) => visitor.visit_enum(Variant {
                        name: variant,
                        value: Some(value),
                    }),
                    _ => Err(Refused::invalid_value(
                        Unexpected::Map,
                        &"map with a single key",
                    )),
                }
            }
            Value::String(variant) => visitor.visit_enum(Variant {
                name: variant,
                value: None,
            }),
            other => Err(Refused::invalid_type(unexpected(other), &"string or map")),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        self.string(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        visitor.visit_unit()
    }
}

/// An array's items, each read as [`Arguments`]; all of them, or `serde_json`'s refusal.
fn visit_array<'de, V: Visitor<'de>>(items: &'de [Value], visitor: V) -> Read<V::Value> {
    let len = items.len();
    let mut items = Items {
        items: items.iter(),
        index: 0,
    };
    let read = visitor.visit_seq(&mut items)?;
    if items.items.len() == 0 {
        Ok(read)
    } else {
        Err(Refused::invalid_length(len, &"fewer elements in array"))
    }
}

/// An object's members, each value read as [`Arguments`]; all of them, or `serde_json`'s
/// refusal.
fn visit_object<'de, V: Visitor<'de>>(
    members: &'de Map<String, Value>,
    visitor: V,
) -> Read<V::Value> {
    let len = members.len();
    let mut members = Members {
        members: members.iter(),
        value: None,
    };
    let read = visitor.visit_map(&mut members)?;
    if members.members.len() == 0 {
        Ok(read)
    } else {
        Err(Refused::invalid_length(len, &"fewer elements in map"))
    }
}

struct Items<'de> {
    items: std::slice::Iter<'de, Value>,
    index: usize,
}

impl<'de> SeqAccess<'de> for Items<'de> {
    type Error = Refused;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Read<Option<T::Value>> {
        let Some(item) = self.items.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        seed.deserialize(Arguments(item))
            .map(Some)
            .map_err(|refused| refused.within(Segment::Index(index)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Members<'de> {
    members: serde_json::map::Iter<'de>,
    /// The member whose key was read, its value not yet.
    value: Option<(&'de str, &'de Value)>,
}

impl<'de> MapAccess<'de> for Members<'de> {
    type Error = Refused;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Read<Option<K::Value>> {
        let Some((key, value)) = self.members.next() else {
            return Ok(None);
        };
        self.value = Some((key, value));
        seed.deserialize(Key(key))
            .map(Some)
            .map_err(|refused| refused.within(Segment::RefusedKey(key.to_owned())))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Read<T::Value> {
        let Some((key, value)) = self.value.take() else {
            return Err(Refused::custom("value is missing"));
        };
        seed.deserialize(Arguments(value))
            .map_err(|refused| refused.within(Segment::Key(key.to_owned())))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.members.len())
    }
}

/// An object's key, as `serde_json` reads one: a string, or the number or `bool` it spells for
/// a map keyed by numbers or `bool`s.
struct Key<'de>(&'de str);

macro_rules! numeric_keys {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
            self.number(|key| key.$method(visitor))
        }
    )*};
}

impl<'de> Key<'de> {
    /// A key read as the number of the type asked for, by `serde_json`'s own reader of JSON
    /// text, as `serde_json` reads it: its digits only, its messages (with their place in the
    /// key).
    fn number<T>(
        self,
        read: impl FnOnce(
            &mut serde_json::Deserializer<serde_json::de::StrRead<'de>>,
        ) -> Result<T, serde_json::Error>,
    ) -> Read<T> {
        let not_a_number =
            || Refused::custom("invalid value: expected key to be a number in quotes");
        let key = self.0;
        if !matches!(key.as_bytes().first(), Some(b'0'..=b'9' | b'-'))
            || key.ends_with(|end: char| end.is_ascii_whitespace())
        {
            return Err(not_a_number());
        }
        let mut reader = serde_json::Deserializer::from_str(key);
        let number = read(&mut reader)?;
        reader.end().map_err(|_| not_a_number())?;
        Ok(number)
    }
}

impl<'de> Deserializer<'de> for Key<'de> {
    type Error = Refused;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        visitor.visit_borrowed_str(self.0)
    }

    numeric_keys! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        match self.0 {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            other => Err(Refused::invalid_type(Unexpected::Str(other), &visitor)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Read<V::Value> {
        // A key is never null.
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Read<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Read<V::Value> {
        let key: de::value::StrDeserializer<'_, Refused> = self.0.into_deserializer();
        key.deserialize_enum(name, variants, visitor)
    }

    serde::forward_to_deserialize_any! {
        char str string bytes byte_buf unit unit_struct seq tuple tuple_struct
        map struct identifier ignored_any
    }
}

/// An enum's variant: its name, and its content (`None` for a variant written as a string).
struct Variant<'de> {
    name: &'de str,
    value: Option<&'de Value>,
}

impl<'de> EnumAccess<'de> for Variant<'de> {
    type Error = Refused;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Read<(V::Value, Self)> {
        let name: de::value::StrDeserializer<'_, Refused> = self.name.into_deserializer();
        let variant = seed.deserialize(name)?;
        Ok((variant, self))
    }
}

impl Variant<'_> {
    /// A refusal of the variant, placed at it (as `serde_path_to_error` placed it).
    fn within(&self) -> impl FnOnce(Refused) -> Refused {
        let name = self.name;
        move |refused| refused.within(Segment::Variant(name.to_owned()))
    }
}

impl<'de> VariantAccess<'de> for Variant<'de> {
    type Error = Refused;

    fn unit_variant(self) -> Read<()> {
        match self.value {
            Some(value) => serde::Deserialize::deserialize(Arguments(value)).map_err(self.within()),
            None => Ok(()),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Read<T::Value> {
        let within = self.within();
        match self.value {
            Some(value) => seed.deserialize(Arguments(value)),
            None => Err(Refused::invalid_type(
                Unexpected::UnitVariant,
                &"newtype variant",
            )),
        }
        .map_err(within)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Read<V::Value> {
        let within = self.within();
        match self.value {
            Some(Value::Array(items)) if items.is_empty() => visitor.visit_unit(),
            Some(Value::Array(items)) => visit_array(items, visitor),
            Some(other) => Err(Refused::invalid_type(unexpected(other), &"tuple variant")),
            None => Err(Refused::invalid_type(
                Unexpected::UnitVariant,
                &"tuple variant",
            )),
        }
        .map_err(within)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Read<V::Value> {
        let within = self.within();
        match self.value {
            Some(Value::Object(members)) => visit_object(members, visitor),
            Some(other) => Err(Refused::invalid_type(unexpected(other), &"struct variant")),
            None => Err(Refused::invalid_type(
                Unexpected::UnitVariant,
                &"struct variant",
            )),
        }
        .map_err(within)
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
    use std::collections::{BTreeMap, HashMap};

    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Search {
        query: String,
        limit: Option<u32>,
        #[serde(default)]
        archived: bool,
        tags: Option<Vec<Tag>>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Tag {
        name: String,
        weight: Option<f64>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    enum Shape {
        Point,
        Circle(f64),
        Line(u8, u8),
        Square { side: u16 },
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(tag = "kind", rename_all = "lowercase")]
    enum Tagged {
        Circle { radius: f64 },
        Label { text: String },
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(untagged)]
    enum Either {
        Number(i64),
        Words(Vec<String>),
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Meters(f32);

    /// A value kept as its JSON text (`Box<RawValue>`), compared by that text.
    #[derive(Debug, Deserialize)]
    struct Raw(Box<serde_json::value::RawValue>);

    impl PartialEq for Raw {
        fn eq(&self, other: &Self) -> bool {
            self.0.get() == other.0.get()
        }
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Flattened {
        id: u64,
        #[serde(flatten)]
        rest: BTreeMap<String, Value>,
    }

    /// What `serde_json` reads (through `serde_path_to_error`, as arguments were read before
    /// this module): the value, or the message and the path.
    fn before<T: for<'de> Deserialize<'de>>(value: &Value) -> Result<T, (String, String)> {
        serde_path_to_error::deserialize(value).map_err(|error| {
            let path = crate::result::field_path(error.path());
            (error.inner().to_string(), path)
        })
    }

    fn now<T: for<'de> Deserialize<'de>>(value: &Value) -> Result<T, (String, String)> {
        T::deserialize(Arguments(value)).map_err(|refused| {
            let path: Vec<String> = refused
                .path()
                .map(|segment| match segment {
                    Segment::Key(name) | Segment::RefusedKey(name) | Segment::Variant(name) => {
                        name.clone()
                    }
                    Segment::Index(index) => index.to_string(),
                })
                .collect();
            let path = if path.is_empty() {
                "(root)".to_owned()
            } else {
                path.join(".")
            };
            (refused.to_string(), path)
        })
    }

    macro_rules! read_alike {
        ($value:expr, $($type:ty),*) => {$(
            assert_eq!(now::<$type>($value), before::<$type>($value), "{} as {}", $value, stringify!($type));
        )*};
    }

    /// For maps keyed by numbers or `bool`s: the same values and messages; a key refused is
    /// named as written (`serde_path_to_error` said `?`, or the number it had read of it). The
    /// test's maps are the whole value: the key refused is its first.
    macro_rules! keys_read_alike {
        ($value:expr, $($type:ty),*) => {$(
            match (now::<$type>($value), before::<$type>($value)) {
                (Err((message, path)), Err((message_before, path_before))) => {
                    assert_eq!(message, message_before, "{} as {}", $value, stringify!($type));
                    if path != path_before {
                        let first_key = $value.as_object().and_then(|object| object.keys().next());
                        assert_eq!(Some(&path), first_key, "{} as {}", $value, stringify!($type));
                    }
                }
                (now, before) => assert_eq!(now, before, "{} as {}", $value, stringify!($type)),
            }
        )*};
    }

    fn values() -> Vec<Value> {
        vec![
            json!(null),
            json!(true),
            json!(7),
            json!(-7),
            json!(300),
            json!(2.5),
            json!(1e20),
            json!("text"),
            json!("x"),
            json!("Point"),
            json!("Circle"),
            json!([]),
            json!([1, 2]),
            json!(["a", "b"]),
            json!(["a", 2]),
            json!({}),
            json!({"query": "q"}),
            json!({"query": "q", "limit": 3, "archived": true}),
            json!({"query": "q", "limit": -1}),
            json!({"query": "q", "limit": null}),
            json!({"query": 5}),
            json!({"query": "q", "tags": [{"name": "a"}, {"name": "b", "weight": "heavy"}]}),
            json!({"query": "q", "tags": [{"name": "a", "colour": "red"}]}),
            json!({"Circle": 2.0}),
            json!({"Circle": "big"}),
            json!({"Line": [1, 2]}),
            json!({"Line": [1, 300]}),
            json!({"Line": []}),
            json!({"Square": {"side": 3}}),
            json!({"Square": {"side": -3}}),
            json!({"Square": 3}),
            json!({"Point": null}),
            json!({"Point": 1}),
            json!({"Circle": 1, "Line": [1, 2]}),
            json!({"kind": "circle", "radius": 2}),
            json!({"kind": "label", "text": 3}),
            json!({"kind": "hexagon"}),
            json!({"1": "one", "22": "twenty-two"}),
            json!({"one": "1"}),
            json!({"-3": "minus"}),
            json!({"300": "big"}),
            json!({"1.5": "half"}),
            json!({"01": "zero one"}),
            json!({"18446744073709551616": "past u64"}),
            json!({"12abc": "trailing"}),
            json!({"true": 1, "false": 0}),
            json!({"id": 4, "extra": [1], "more": {"a": null}}),
            json!({"id": "four"}),
        ]
    }

    /// Every value a type reads, it reads alike; every value it refuses, it refuses alike, with
    /// the message and the path `serde_path_to_error` gave.
    #[test]
    fn arguments_read_and_are_refused_as_serde_json_reads_and_refuses_them() {
        for value in &values() {
            read_alike!(
                value,
                Shape,
                Tagged,
                Either,
                Meters,
                Flattened,
                Option<u8>,
                Option<Option<String>>,
                Vec<Shape>,
                Vec<(f32, u8)>,
                BTreeMap<String, f32>,
                Raw,
                BTreeMap<String, Either>,
                (u8, String),
                String,
                char,
                bool,
                (),
                u8,
                i64,
                f64,
                u128,
                Value
            );
            keys_read_alike!(
                value,
                HashMap<u32, String>,
                HashMap<i8, String>,
                HashMap<u128, String>,
                HashMap<bool, u8>
            );
            // A struct from an array: `a_struct_is_not_read_from_an_array`.
            if !value.is_array() {
                read_alike!(value, Search, Tag);
            }
        }
    }

    #[test]
    fn a_struct_is_not_read_from_an_array() {
        assert_eq!(
            now::<Tag>(&json!(["a", 1.0])),
            Err((
                "invalid type: sequence, expected struct Tag".to_owned(),
                "(root)".to_owned()
            ))
        );
        assert!(
            before::<Tag>(&json!(["a", 1.0])).is_ok(),
            "serde_json reads it"
        );
    }
}
