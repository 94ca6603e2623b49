//! [`Fields`]: reading a field of the small JSON objects every call walks (a request's `params`
//! and their `_meta`, each node of a tool's schema). `serde_json::Map` is an `IndexMap` here
//! (`serde_json`'s `preserve_order`, for schemas written in their fields' order) and hashes
//! every key it is asked for with `SipHash`; an object of a few fields is searched faster by
//! comparing its keys, which mostly differ in length (BENCHMARKS.md, "Per call in
//! instructions, beside the floors").

use serde_json::{Map, Value};

/// Up to how many fields an object is searched by comparing keys rather than by hash.
const COMPARED: usize = 8;

/// A field of a JSON object, found without hashing its name when the object is small.
pub(crate) trait Fields {
    /// The field `name`, as `serde_json`'s `get` finds it (`None` where this is no object).
    fn field(&self, name: &str) -> Option<&Value>;
}

impl Fields for Map<String, Value> {
    fn field(&self, name: &str) -> Option<&Value> {
        if self.len() <= COMPARED {
            self.iter()
                .find_map(|(key, value)| (key == name).then_some(value))
        } else {
            self.get(name)
        }
    }
}

impl Fields for Value {
    fn field(&self, name: &str) -> Option<&Value> {
        self.as_object()?.field(name)
    }
}

/// [`Fields::field`], to change it.
pub(crate) fn field_mut<'a>(map: &'a mut Map<String, Value>, name: &str) -> Option<&'a mut Value> {
    if map.len() <= COMPARED {
        map.iter_mut()
            .find_map(|(key, value)| (key == name).then_some(value))
    } else {
        map.get_mut(name)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_field_is_found_as_serde_json_finds_it_in_small_and_large_objects() {
        let small = json!({"type": "object", "properties": {}, "required": ["a"]});
        let large: Value = (0..20)
            .map(|i| (format!("field{i}"), json!(i)))
            .collect::<Map<_, _>>()
            .into();
        for object in [&small, &large] {
            for name in ["type", "required", "field7", "field19", "missing", ""] {
                assert_eq!(object.field(name), object.get(name), "{name} in {object}");
            }
        }
        assert_eq!(json!([1]).field("type"), None, "an array has no fields");
        let mut map = small.as_object().unwrap().clone();
        *field_mut(&mut map, "type").unwrap() = json!("array");
        assert_eq!(map["type"], "array");
        assert!(field_mut(&mut map, "items").is_none());
    }
}
