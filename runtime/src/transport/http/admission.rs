//! Who may reach the endpoint at all, decided from the headers before any body is read:
//! DNS-rebinding protection (`Host`, `Origin`), then the bearer token.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::uri::Authority;
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::Response;

use super::HttpState;
use super::auth::authenticate;
use super::config::HttpConfig;
use super::reply::refuse;
use crate::context::AuthInfo;
use crate::jsonrpc::codes;

/// What admission learned of the caller, for the handlers: its verified token, when auth is on.
#[derive(Clone)]
pub(super) struct Admitted(pub(super) Option<AuthInfo>);

/// The middleware: admits a request before its handler reads the body, and hands the caller
/// to the handler.
pub(super) async fn admit(
    State(state): State<Arc<HttpState>>,
    mut request: Request,
    next: Next,
) -> Response {
    match check(&state.config, request.uri(), request.headers()).await {
        Ok(auth) => {
            request.extensions_mut().insert(Admitted(auth));
            next.run(request).await
        }
        Err(response) => response,
    }
}

/// Host, then Origin, then the token. `Err` is the response to send.
async fn check(
    config: &HttpConfig,
    uri: &Uri,
    headers: &HeaderMap,
) -> Result<Option<AuthInfo>, Response> {
    // HTTP/1.1 names the host in `Host`; HTTP/2 in the `:authority` the URI carries.
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .or_else(|| uri.authority().map(Authority::as_str))
        .unwrap_or("");
    if !allows_host(config, host) {
        tracing::warn!(host, "refused a request for a host that is not allowed");
        return Err(refuse(
            StatusCode::FORBIDDEN,
            codes::INVALID_REQUEST,
            format!("Forbidden: host {host} is not allowed"),
        ));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        if !allows_origin(config, origin) {
            tracing::warn!(
                origin,
                "refused a request from an origin that is not allowed"
            );
            return Err(refuse(
                StatusCode::FORBIDDEN,
                codes::INVALID_REQUEST,
                format!("Forbidden: origin {origin} is not allowed"),
            ));
        }
    }
    match &config.auth {
        Some(auth) => authenticate(auth, headers).await.map(Some),
        None => Ok(None),
    }
}

/// Localhost names always; others when allowed (with or without their port), or any host.
fn allows_host(config: &HttpConfig, host: &str) -> bool {
    let Some(allowed) = &config.allowed_hosts else {
        return true;
    };
    is_localhost(host_name(host)) || allowed.iter().any(|a| a == host || a == host_name(host))
}

/// Whether a browser page from `origin` may call the endpoint: localhost pages always, others
/// when allowed.
fn allows_origin(config: &HttpConfig, origin: &str) -> bool {
    let origin_host = origin.split_once("://").map_or(origin, |(_, rest)| rest);
    config.any_origin
        || is_localhost(host_name(origin_host))
        || config.allowed_origins.iter().any(|a| a == origin)
}

/// `localhost:8080` → `localhost`, `[::1]:80` → `[::1]`.
fn host_name(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |end| &host[..=end]);
    }
    host.rsplit_once(':').map_or(host, |(name, _)| name)
}

fn is_localhost(name: &str) -> bool {
    matches!(name, "localhost" | "127.0.0.1" | "[::1]" | "::1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_localhost_always_others_when_named() {
        let local = HttpConfig::default();
        for host in ["localhost:3000", "127.0.0.1", "[::1]:8080", "localhost"] {
            assert!(allows_host(&local, host), "{host}");
        }
        for host in ["evil.com", "evil.com:3000", "", "127.0.0.2:80"] {
            assert!(!allows_host(&local, host), "{host}");
        }
        let named = HttpConfig::default().allow_hosts(["mcp.example.com"]);
        assert!(allows_host(&named, "mcp.example.com:443"));
        assert!(!allows_host(&named, "other.example.com"));
        assert!(allows_host(
            &HttpConfig::default().allow_any_host(),
            "anything"
        ));
    }

    #[test]
    fn origins_localhost_pages_and_named_ones() {
        let config = HttpConfig::default().allow_origins(["https://app.example.com"]);
        assert!(allows_origin(&config, "http://localhost:6274"));
        assert!(allows_origin(&config, "http://[::1]:5173"));
        assert!(allows_origin(&config, "https://app.example.com"));
        assert!(!allows_origin(&config, "https://app.example.com.evil"));
        assert!(!allows_origin(&config, "https://evil.com"));
        assert!(allows_origin(
            &HttpConfig::default().allow_any_origin(),
            "https://evil.com"
        ));
    }

    #[test]
    fn host_names_drop_the_port() {
        assert_eq!(host_name("localhost:8080"), "localhost");
        assert_eq!(host_name("[::1]:80"), "[::1]");
        assert_eq!(host_name("[::1]"), "[::1]");
        assert_eq!(host_name("example.com"), "example.com");
    }
}
