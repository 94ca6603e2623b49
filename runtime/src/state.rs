//! App state: the values a server is given once ([`Server::state`](crate::Server::state)) and
//! every tool call can reach, as a [`State<T>`] parameter or through
//! [`Context::state`](crate::Context::state).

use std::any::{Any, TypeId, type_name};
use std::collections::HashMap;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A value given to the server with [`Server::state`](crate::Server::state), shared by every
/// call: take it as a `#[tool]` parameter `state: State<T>` (in any position; it is never part of
/// the tool's input). It derefs to `T`.
///
/// ```standalone_crate
/// use mcp_toolbelt::{State, tool};
///
/// struct Greeting(String);
///
/// /// Greet someone with the configured greeting
/// #[tool]
/// async fn greet(greeting: State<Greeting>, /// Who
///                name: String) -> String {
///     format!("{}, {name}!", greeting.0)
/// }
/// # let _ = mcp_toolbelt::Server::new("demo", "1").state(Greeting("Hello".into()));
/// ```
///
/// A tool that takes a `State<T>` no one gave is a start-up error naming the tool and the type
/// ([`Server::check`](crate::Server::check), every `serve_*`), never a failure at call time.
/// The value is shared: for something a tool changes, put a `Mutex`, an atomic or a pool inside.
pub struct State<T: ?Sized>(Arc<T>);

impl<T: ?Sized> State<T> {
    /// The shared value itself, to keep beyond the call.
    #[must_use]
    pub fn into_inner(self) -> Arc<T> {
        self.0
    }
}

impl<T: ?Sized> Deref for State<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: ?Sized> Clone for State<T> {
    fn clone(&self) -> Self {
        Self(Arc::clone(&self.0))
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for State<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("State").field(&&*self.0).finish()
    }
}

/// What a tool needs of the app state: one type, named for start-up errors.
#[derive(Debug, Clone, Copy)]
pub struct StateKey {
    id: TypeId,
    name: &'static str,
}

impl StateKey {
    /// The key of `T`.
    #[must_use]
    pub fn of<T: Any>() -> Self {
        Self {
            id: TypeId::of::<T>(),
            name: type_name::<T>(),
        }
    }

    /// The type's name as Rust writes it (`my_app::Db`).
    #[must_use]
    pub fn type_name(&self) -> &'static str {
        self.name
    }
}

/// The values of one server, one per type.
#[derive(Default, Clone)]
pub(crate) struct StateMap {
    values: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl StateMap {
    /// Adds `value`, replacing the value of its type given before; returns whether there was one.
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: T) -> bool {
        self.values
            .insert(TypeId::of::<T>(), Arc::new(value))
            .is_some()
    }

    /// The value of type `T`, if the server was given one.
    pub(crate) fn get<T: Send + Sync + 'static>(&self) -> Option<State<T>> {
        let value = Arc::clone(self.values.get(&TypeId::of::<T>())?);
        value.downcast::<T>().ok().map(State)
    }

    /// Whether there is a value for `key`.
    pub(crate) fn contains(&self, key: &StateKey) -> bool {
        self.values.contains_key(&key.id)
    }
}

impl fmt::Debug for StateMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StateMap")
            .field("values", &self.values.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::{StateKey, StateMap};

    #[test]
    fn one_value_per_type() {
        let mut map = StateMap::default();
        assert!(!map.insert(1_u32));
        assert!(map.insert(2_u32), "a second u32 replaces the first");
        map.insert(String::from("db"));
        assert_eq!(*map.get::<u32>().expect("given"), 2);
        assert_eq!(&*map.get::<String>().expect("given"), "db");
        assert!(map.get::<i64>().is_none());
        assert!(map.contains(&StateKey::of::<u32>()));
        assert!(!map.contains(&StateKey::of::<i64>()));
        assert_eq!(
            StateKey::of::<String>().type_name(),
            "alloc::string::String"
        );
    }
}
