//! What a `#[resource]` fn returns: a [`ResourceBody`] (text or bytes), anything
//! [`IntoResourceBody`], or a [`ResourceError`] the client gets as a JSON-RPC error. The
//! attribute itself is [`macro@crate::resource`].
//!
//! ```
//! use mcp_toolbelt::resource::ResourceError;
//!
//! /// A page of the manual
//! #[mcp_toolbelt::resource(uri = "docs://pages/{page}")]
//! async fn page(page: u32) -> Result<String, ResourceError> {
//!     if page == 0 { Err(ResourceError::NotFound(None)) } else { Ok(format!("page {page}")) }
//! }
//! ```

pub use crate::registry::{IntoResourceBody, ResourceBody, ResourceError};
