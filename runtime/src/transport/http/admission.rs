//! Who may reach the endpoint at all, decided from the headers before any body is read:
//! DNS-rebinding protection (`Host`, `Origin`) and what the headers say of the body, in a layer
//! around the routes; then the bearer token, checked by [`Admitted`], which each handler
//! extracts before it reads the body.

use std::borrow::Cow;
use std::convert::Infallible;
use std::net::Ipv6Addr;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::extract::{FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Version, header};
use axum::response::{IntoResponse as _, Response};
use futures_util::future::{Either, Ready, ready};
use tower::{Layer, Service};

use super::HttpState;
use super::auth::authenticate;
use super::config::HttpConfig;
use super::headers;
use super::reply::Refusal;
use crate::context::AuthInfo;
use crate::jsonrpc::codes;

/// Who a request speaks for: what its verified token grants, when auth is on (`None` without
/// it). An extractor, not the layer's work: the token's check is the one step of admission that
/// waits (a verifier, an issuer's keys), and a layer that waits boxes its future and clones
/// the route behind it for every request; a handler's extractors run in its own future.
pub(super) struct Admitted(pub(super) Option<Arc<AuthInfo>>);

impl FromRequestParts<Arc<HttpState>> for Admitted {
    /// The `401` (no token, or one refused), or the `503` of a verifier that cannot answer now.
    type Rejection = Refusal;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Arc<HttpState>,
    ) -> Result<Self, Refusal> {
        match &state.config.auth {
            None => Ok(Self(None)),
            Some(auth) => Ok(Self(Some(authenticate(auth, &parts.headers).await?))),
        }
    }
}

/// The admission layer: refuses a request its headers already condemn before its handler
/// runs. It decides from the headers alone and calls the route in place (no boxed future, no
/// clone of the route), unlike `axum::middleware::from_fn`.
#[derive(Clone)]
pub(super) struct Admission(pub(super) Arc<HttpState>);

impl<S> Layer<S> for Admission {
    type Service = Admit<S>;

    fn layer(&self, inner: S) -> Admit<S> {
        Admit {
            state: Arc::clone(&self.0),
            inner,
        }
    }
}

/// The service of [`Admission`].
#[derive(Clone)]
pub(super) struct Admit<S> {
    state: Arc<HttpState>,
    inner: S,
}

impl<S> Service<Request> for Admit<S>
where
    S: Service<Request, Response = Response, Error = Infallible>,
{
    type Response = Response;
    type Error = Infallible;
    /// A refusal, or the route's own future.
    type Future = Either<Ready<Result<Response, Infallible>>, S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        match check(&self.state.config, &request) {
            Err(refused) => Either::Left(ready(Ok(refused.into_response()))),
            Ok(()) => Either::Right(self.inner.call(request)),
        }
    }
}

/// One value per header that decides something, then Host, then Origin (the token comes
/// after). `Err` is the response to send.
fn check(config: &HttpConfig, request: &Request) -> Result<(), Refusal> {
    let headers = request.headers();
    let bad_request =
        |message: String| Refusal::new(StatusCode::BAD_REQUEST, codes::INVALID_REQUEST, message);
    if let Some(name) = headers::repeated(headers) {
        return Err(bad_request(format!(
            "Bad Request: more than one {name} header (send one value)"
        )));
    }
    let host = authority_that_counts(request).map_err(bad_request)?;
    if !allows_host(config, &host) {
        let host = host.text;
        tracing::warn!(host, "refused a request for a host that is not allowed");
        return Err(Refusal::new(
            StatusCode::FORBIDDEN,
            codes::INVALID_REQUEST,
            format!("Forbidden: host {host} is not allowed"),
        ));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = String::from_utf8_lossy(origin.as_bytes());
        if !allows_origin(config, &origin) {
            tracing::warn!(%origin, "refused a request from an origin that is not allowed");
            return Err(Refusal::new(
                StatusCode::FORBIDDEN,
                codes::INVALID_REQUEST,
                format!("Forbidden: origin {origin} is not allowed"),
            ));
        }
    }
    check_body(config, headers)
}

/// What the headers say of the body, decided before any of it is read (so a client that sent
/// `Expect: 100-continue` gets no `100 Continue` for a body that would be refused): a declared
/// length over the limit (`413`), a body in a coding the server does not decode (`415`).
fn check_body(config: &HttpConfig, headers: &HeaderMap) -> Result<(), Refusal> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|length| length.to_str().ok()?.parse::<u64>().ok());
    let too_long = |length| usize::try_from(length).map_or(true, |n| n > config.max_body_bytes);
    if declared.is_some_and(too_long) {
        return Err(Refusal::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            codes::INVALID_REQUEST,
            format!(
                "Payload Too Large: the body is over the limit of {} bytes",
                config.max_body_bytes
            ),
        ));
    }
    let coded = headers
        .get_all(header::CONTENT_ENCODING)
        .iter()
        .flat_map(|value| value.to_str().unwrap_or("(not ASCII)").split(','))
        .map(str::trim)
        .find(|coding| !coding.is_empty() && !coding.eq_ignore_ascii_case("identity"));
    if let Some(coding) = coded {
        // RFC 9110 §15.5.16: the codings that would have been accepted.
        return Err(Refusal::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            codes::INVALID_REQUEST,
            format!(
                "Unsupported Media Type: Content-Encoding {coding} is not supported; send the body uncompressed"
            ),
        )
        .with_header(header::ACCEPT_ENCODING, HeaderValue::from_static("identity")));
    }
    Ok(())
}

/// The host a request is for: an absolute-form target's authority wins over `Host` (RFC 9112
/// §3.2.2); HTTP/2 names it in `:authority`, which the URI carries. `Err` is the message of a
/// `400`: a missing `Host` on HTTP/1.1, or one that is not a host and port.
fn authority_that_counts(request: &Request) -> Result<Host<'_>, String> {
    if let Some(authority) = request.uri().authority() {
        return Host::parse(authority.as_str())
            .ok_or_else(|| format!("Bad Request: invalid request target authority {authority}"));
    }
    match request.headers().get(header::HOST) {
        Some(host) => std::str::from_utf8(host.as_bytes())
            .ok()
            .and_then(Host::parse)
            .ok_or_else(|| {
                let text = String::from_utf8_lossy(host.as_bytes());
                format!("Bad Request: invalid Host header {text}")
            }),
        None if request.version() == Version::HTTP_10 => Ok(Host::unnamed()),
        None => Err("Bad Request: the Host header is required".into()),
    }
}

/// A host and optional port, as `Host` or an origin names them.
#[derive(Debug, PartialEq)]
pub(crate) struct Host<'a> {
    /// The name, lower-cased and without a trailing dot; an IPv6 address keeps its brackets.
    /// Borrowed from the text when it is written so already (as clients write it).
    pub(crate) name: Cow<'a, str>,
    pub(crate) port: Option<u16>,
    /// As the client wrote it, for messages.
    text: &'a str,
}

impl<'a> Host<'a> {
    /// `uri-host [":" port]` (RFC 9110 §7.2): a bracketed IPv6 address or a name of letters,
    /// digits, `-`, `.` and `_`; nothing else (no user information, no path, no second colon).
    pub(crate) fn parse(text: &'a str) -> Option<Self> {
        let (name, port) = if let Some(bracketed) = text.strip_prefix('[') {
            let (address, after) = bracketed.split_once(']')?;
            address.parse::<Ipv6Addr>().ok()?;
            let port = if after.is_empty() {
                None
            } else {
                Some(after.strip_prefix(':')?)
            };
            (lower_case(&text[..address.len() + 2]), port)
        } else {
            let (name, port) = match text.split_once(':') {
                Some((name, port)) => (name, Some(port)),
                None => (text, None),
            };
            let name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_');
            if !name.chars().all(name_char) {
                return None;
            }
            (lower_case(name.trim_end_matches('.')), port)
        };
        if name.is_empty() {
            return None;
        }
        let port = match port {
            None | Some("") => None,
            Some(port) if port.bytes().all(|b| b.is_ascii_digit()) => Some(port.parse().ok()?),
            Some(_) => return None,
        };
        Some(Self { name, port, text })
    }

    /// What an HTTP/1.0 request without `Host` is for: no name, so only `allow_any_host` serves it.
    fn unnamed() -> Self {
        Self {
            name: Cow::Borrowed(""),
            port: None,
            text: "",
        }
    }

    fn is_localhost(&self) -> bool {
        matches!(&*self.name, "localhost" | "127.0.0.1" | "[::1]")
    }

    /// Whether an allowed entry (a name, or a name and port) names this host.
    fn is_named_by(&self, entry: &str) -> bool {
        Host::parse(entry).is_some_and(|allowed| {
            allowed.name == self.name && allowed.port.is_none_or(|port| Some(port) == self.port)
        })
    }
}

/// `text` in ASCII lower case, copied only when it has an upper-case letter.
fn lower_case(text: &str) -> Cow<'_, str> {
    if text.bytes().any(|byte| byte.is_ascii_uppercase()) {
        Cow::Owned(text.to_ascii_lowercase())
    } else {
        Cow::Borrowed(text)
    }
}

/// Localhost names always; others when allowed (with or without their port), or any host.
fn allows_host(config: &HttpConfig, host: &Host<'_>) -> bool {
    config.any_host
        || host.is_localhost()
        || config
            .allowed_hosts
            .iter()
            .any(|entry| host.is_named_by(entry))
}

/// Whether a browser page from `origin` may call the endpoint: any origin when allowed, a
/// localhost page (an `http` or `https` origin whose host is localhost) always, others when named.
fn allows_origin(config: &HttpConfig, origin: &str) -> bool {
    config.any_origin
        || origin_host(origin).is_some_and(|host| host.is_localhost())
        || config
            .allowed_origins
            .iter()
            .any(|allowed| allowed.eq_ignore_ascii_case(origin))
}

/// The host of a serialized origin, `scheme "://" host [":" port]` with an `http` or `https`
/// scheme; `None` for anything else (`null`, a path, user information, another scheme).
pub(crate) fn origin_host(origin: &str) -> Option<Host<'_>> {
    let (scheme, rest) = origin.split_once("://")?;
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
        return None;
    }
    Host::parse(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(text: &str) -> Host<'_> {
        Host::parse(text).unwrap_or_else(|| panic!("{text} is a host"))
    }

    #[test]
    fn hosts_localhost_always_others_when_named() {
        let local = HttpConfig::default();
        for text in [
            "localhost:3000",
            "127.0.0.1",
            "[::1]:8080",
            "LOCALHOST:80",
            "localhost.:80",
        ] {
            assert!(allows_host(&local, &host(text)), "{text}");
        }
        for text in [
            "evil.com",
            "evil.com:3000",
            "127.0.0.2:80",
            "localhost.evil.com",
        ] {
            assert!(!allows_host(&local, &host(text)), "{text}");
        }
        let named = HttpConfig::default().allow_hosts(["mcp.example.com", "api.example.com:8443"]);
        assert!(allows_host(&named, &host("MCP.example.com:443")));
        assert!(allows_host(&named, &host("api.example.com:8443")));
        assert!(
            !allows_host(&named, &host("api.example.com:443")),
            "the named port only"
        );
        assert!(!allows_host(&named, &host("other.example.com")));
        assert!(allows_host(
            &HttpConfig::default().allow_any_host(),
            &host("anything")
        ));
    }

    #[test]
    fn what_is_not_a_host_and_port_is_refused() {
        for text in [
            "[::1].evil.com",
            "localhost:evil.com",
            "127.0.0.1:8080@evil.com",
            "",
            "localhost/path",
        ] {
            assert_eq!(Host::parse(text), None, "{text}");
        }
    }

    #[test]
    fn origins_localhost_pages_and_named_ones() {
        let config = HttpConfig::default().allow_origins(["https://app.example.com"]);
        assert!(allows_origin(&config, "http://localhost:6274"));
        assert!(allows_origin(&config, "http://[::1]:5173"));
        assert!(allows_origin(&config, "https://app.example.com"));
        for refused in [
            "https://app.example.com.evil",
            "https://evil.com",
            "http://localhost:6274.evil.com",
            "http://127.0.0.1:6274@evil.com",
            "evil://localhost",
            "null",
        ] {
            assert!(!allows_origin(&config, refused), "{refused}");
        }
        assert!(allows_origin(
            &HttpConfig::default().allow_any_origin(),
            "https://evil.com"
        ));
    }
}
