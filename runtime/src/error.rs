//! The errors of the crate: a [`RegistryError`] when the tools and resources linked into the
//! binary cannot be served, and the JSON-RPC [`ErrorObject`] (with its [`codes`]) a call hook
//! returns to refuse a call.

pub use crate::jsonrpc::{ErrorObject, codes};
pub use crate::registry::RegistryError;
