//! Streamable HTTP: `HttpConfig` tunes `Server::serve_http` (limits, auth, origins) and
//! `ProtectedResourceMetadata` is the OAuth metadata it serves, both with the `http` feature;
//! [`AuthInfo`], the caller a token proved, is present without it, as tools read it from their
//! [`Context`](crate::Context) whatever the transport. `HttpService` is the endpoint as a tower
//! service of `http` 1 types (`Server::into_service`), for any server or framework to mount.

pub use crate::context::AuthInfo;
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub use crate::transport::http::{HttpBody, HttpConfig, HttpService, ProtectedResourceMetadata};
