//! Bearer tokens: who a request speaks for, checked by the application's verifier, the `401`
//! that tells a client where to get a token (RFC 6750, RFC 9728), and the `403` that tells it
//! which scopes to ask for (the 2025-11-25 scope challenge).

use std::sync::Arc;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};

use super::config::{BearerAuth, TokenCheck};
use super::headers;
use super::reply::Refusal;
use crate::context::AuthInfo;
use crate::jsonrpc::codes;
use crate::protocol::refused;
use crate::registry::Scopes;

/// What the request's token grants; `Err` is the `401` to send.
pub(super) async fn authenticate(
    auth: &BearerAuth,
    headers: &HeaderMap,
) -> Result<Arc<AuthInfo>, Refusal> {
    let Some(token) = bearer_token(headers) else {
        return Err(unauthorized(auth, false));
    };
    match &auth.check {
        TokenCheck::Custom(verify) => verify(token.to_owned())
            .await
            .map(Arc::new)
            .ok_or_else(|| unauthorized(auth, true)),
        #[cfg(feature = "oauth")]
        TokenCheck::OAuth(verifier) => {
            use super::oauth::Rejection;
            match verifier.verify(token, &auth.metadata.resource).await {
                Ok(granted) => Ok(granted),
                Err(Rejection::Invalid(why)) => {
                    tracing::debug!(%why, "refused a bearer token");
                    Err(unauthorized(auth, true))
                }
                Err(Rejection::Unavailable(why)) => Err(Refusal::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    codes::INTERNAL_ERROR,
                    format!("Service Unavailable: the token cannot be verified now ({why})"),
                )
                .with_header(header::RETRY_AFTER, HeaderValue::from_static("5"))),
            }
        }
    }
}

/// The token of `Authorization: Bearer <token>`; the scheme is case-insensitive (RFC 7235 §2.1).
fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    headers::text(headers, &header::AUTHORIZATION)
        .and_then(|value| value.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim())
        .filter(|token| !token.is_empty())
}

/// `401` with the challenge that points at the metadata; a token that was sent but refused is
/// `invalid_token` (RFC 6750 §3.1). The built-in resource server also names the scopes to ask
/// for, every one the metadata lists (the MCP spec's recommendation, 2025-11-25).
fn unauthorized(auth: &BearerAuth, token_sent: bool) -> Refusal {
    let invalid = if token_sent {
        "error=\"invalid_token\", "
    } else {
        ""
    };
    let error = format!("{invalid}{}", scope_hint(auth));
    let refusal = Refusal::new(
        StatusCode::UNAUTHORIZED,
        codes::INVALID_REQUEST,
        "Unauthorized: a valid bearer token is required",
    );
    challenge(refusal, auth, &error)
}

/// `scope="…", ` naming every scope the metadata lists, for the built-in resource server's
/// `401`; nothing otherwise.
fn scope_hint(auth: &BearerAuth) -> String {
    #[cfg(feature = "oauth")]
    if matches!(auth.check, TokenCheck::OAuth(_)) && !auth.metadata.scopes_supported.is_empty() {
        return format!("scope=\"{}\", ", auth.metadata.scopes_supported.join(" "));
    }
    let _ = auth;
    String::new()
}

/// `403`: the caller's token lacks a scope the item it names needs; the challenge names them
/// all, so that the client asks for a token with them (step-up authorization).
pub(super) fn insufficient_scope(auth: &BearerAuth, needed: &Scopes) -> Refusal {
    let refusal = Refusal::of(StatusCode::FORBIDDEN, refused(needed));
    let error = format!(
        "error=\"insufficient_scope\", scope=\"{}\", ",
        needed.needed().join(" ")
    );
    challenge(refusal, auth, &error)
}

/// `refusal` with `WWW-Authenticate: Bearer <error>resource_metadata="…"`.
fn challenge(refusal: Refusal, auth: &BearerAuth, error: &str) -> Refusal {
    let challenge = format!(
        "Bearer {error}resource_metadata=\"{}\"",
        auth.metadata.url()
    );
    match HeaderValue::from_str(&challenge) {
        Ok(value) => refusal.with_header(header::WWW_AUTHENTICATE, value),
        Err(_) => refusal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "oauth")]
    #[test]
    fn the_oauth_401_names_the_scopes_to_ask_for() {
        use std::sync::Arc;

        use super::super::config::ProtectedResourceMetadata;
        let auth = |scopes: &[&str]| BearerAuth {
            check: TokenCheck::OAuth(Arc::new(super::super::oauth::Verifier::new(
                "https://id.example.com".into(),
                None,
            ))),
            metadata: ProtectedResourceMetadata::new(
                "https://mcp.example.com/mcp",
                "https://id.example.com",
            )
            .scopes(scopes.iter().copied()),
        };
        let challenge = |auth: &BearerAuth, sent| {
            let response = axum::response::IntoResponse::into_response(unauthorized(auth, sent));
            response.headers()[header::WWW_AUTHENTICATE]
                .to_str()
                .unwrap()
                .to_owned()
        };
        assert_eq!(
            challenge(&auth(&["notes:read", "notes:write"]), true),
            r#"Bearer error="invalid_token", scope="notes:read notes:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp""#
        );
        assert_eq!(
            challenge(&auth(&[]), false),
            r#"Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp""#,
            "no scope declared, no hint"
        );
    }

    #[test]
    fn the_bearer_scheme_is_case_insensitive_and_needs_a_token() {
        let token = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::AUTHORIZATION, HeaderValue::from_str(value).unwrap());
            bearer_token(&headers).map(str::to_owned)
        };
        assert_eq!(token("Bearer abc"), Some("abc".into()));
        assert_eq!(token("bEaReR  abc "), Some("abc".into()));
        assert_eq!(token("Basic abc"), None);
        assert_eq!(token("Bearer "), None);
        assert_eq!(bearer_token(&HeaderMap::new()), None);
    }
}
