//! The shape of a JSON-RPC body as serde_json reads it, keeping what a [`Value`] loses: a
//! member name sent twice in a request object. Agave's RPC (serde derive over buffered
//! content) sees every repetition: a repeated `id` matches no request form, so the whole
//! body is a parse error; any other repeated member leaves only the invalid-request form
//! (checked against a running 4.4.0 validator). A [`Value`] keeps the last and forgets.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Value};

/// Which member names came more than once in one object.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Repeated {
    /// `id` came twice (or more).
    pub id: bool,
    /// Some other member came twice (or more).
    pub other: bool,
}

/// One JSON object with its members (the last of each name) and what was repeated.
#[derive(Debug, Default)]
pub struct Members {
    /// The members, the last value of a repeated name kept.
    pub map: Map<String, Value>,
    /// Names sent more than once.
    pub repeated: Repeated,
}

/// A body, or one item of a batch: an object, an array, or any other JSON value.
#[derive(Debug)]
pub enum Body {
    /// An object.
    Object(Members),
    /// An array, each item sorted the same way (an array inside a batch is no request:
    /// the body is then a parse error as a whole).
    Batch(Vec<Body>),
    /// A scalar: no request at all.
    Other,
}

/// Reads a map's entries into [`Members`].
fn members<'de, A: MapAccess<'de>>(mut access: A) -> Result<Members, A::Error> {
    let mut out = Members::default();
    while let Some(key) = access.next_key::<String>()? {
        let value: Value = access.next_value()?;
        match out.map.entry(key) {
            Entry::Vacant(slot) => {
                slot.insert(value);
            }
            Entry::Occupied(mut slot) => {
                match slot.key().as_str() {
                    "id" => out.repeated.id = true,
                    _ => out.repeated.other = true,
                }
                slot.insert(value);
            }
        }
    }
    Ok(out)
}

struct BodyVisitor;

impl<'de> Visitor<'de> for BodyVisitor {
    type Value = Body;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Body, E> {
        Ok(Body::Other)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Body, E> {
        Ok(Body::Other)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Body, E> {
        Ok(Body::Other)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Body, E> {
        Ok(Body::Other)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Body, E> {
        Ok(Body::Other)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Body, E> {
        Ok(Body::Other)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Body, A::Error> {
        // The body's size is bounded before parsing, so its item count is too (and
        // serde_json bounds the nesting).
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Body>()? {
            items.push(item);
        }
        Ok(Body::Batch(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, access: A) -> Result<Body, A::Error> {
        members(access).map(Body::Object)
    }
}

impl<'de> de::Deserialize<'de> for Body {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(BodyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(text: &str) -> Body {
        serde_json::from_str(text).expect("JSON")
    }

    #[test]
    fn repeated_members_are_seen() {
        let Body::Object(m) = body(r#"{"a":1,"id":2,"id":3,"a":4,"b":null}"#) else {
            panic!("an object");
        };
        assert_eq!(
            m.repeated,
            Repeated {
                id: true,
                other: true
            }
        );
        assert_eq!(m.map["id"], 3);
        assert_eq!(m.map["a"], 4);
        // Repetitions inside a member's value are the value's own business.
        let Body::Object(m) = body(r#"{"id":1,"params":[{"x":1,"x":2}]}"#) else {
            panic!("an object");
        };
        assert_eq!(m.repeated, Repeated::default());
        let Body::Batch(items) =
            body(r#"[{"id":1,"method":"a","method":"b"},7,[1,[2]],"s",null,{}]"#)
        else {
            panic!("a batch");
        };
        assert_eq!(items.len(), 6);
        assert!(
            matches!(&items[0], Body::Object(m) if m.repeated == Repeated { id: false, other: true })
        );
        assert!(matches!(&items[2], Body::Batch(inner) if inner.len() == 2));
        assert!([1, 3, 4].iter().all(|&i| matches!(items[i], Body::Other)));
        for scalar in ["1", "-1", "1.5", "\"x\"", "true", "null"] {
            assert!(matches!(body(scalar), Body::Other), "{scalar}");
        }
        assert!(serde_json::from_str::<Body>("{\"a\":1").is_err());
    }
}
