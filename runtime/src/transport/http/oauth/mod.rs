//! The built-in OAuth 2.1 resource server (feature `oauth`): access tokens verified by the
//! server itself, for [`HttpConfig::oauth`](super::HttpConfig::oauth) and `run()`'s
//! `--oauth-issuer`. A JWT is checked against the issuer's JWKS (`jwks.rs`); any other token,
//! when introspection is configured, is asked about (RFC 7662, `introspect.rs`); where both live
//! is read from the issuer's metadata (`discovery.rs`). What a token grants becomes the
//! [`AuthInfo`] the `Context` hands to tools, resources, prompts and hooks, and is kept for the
//! token's next requests (`cache.rs`).

mod cache;
mod discovery;
mod introspect;
mod jwks;

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use self::cache::TokenCache;
use self::discovery::Discovered;
use self::jwks::KeyCache;
use crate::context::AuthInfo;

/// How far `exp` and `nbf` may be off: the clocks of the issuer and this server differ a little.
pub(crate) const LEEWAY: Duration = Duration::from_mins(1);

/// The most bytes read of any document the authorization server sends (metadata, JWKS,
/// introspection answer).
const MAX_DOCUMENT_BYTES: usize = 1024 * 1024;

/// How long one request to the authorization server may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// The client credentials this server introspects with (`client_secret_basic`).
#[derive(Clone)]
pub(crate) struct Credentials {
    pub(crate) client_id: String,
    pub(crate) client_secret: String,
}

/// Why a token was not accepted.
#[derive(Debug)]
pub(crate) enum Rejection {
    /// The token is bad: `401` with `error="invalid_token"`. The reason is logged, not sent.
    Invalid(String),
    /// The authorization server could not be asked (down, or its answer unreadable): `503`.
    Unavailable(String),
}

/// Verifies the tokens of one issuer for one resource; shared by every request.
pub(crate) struct Verifier {
    issuer: String,
    introspection: Option<Credentials>,
    http: reqwest::Client,
    discovered: Discovered,
    keys: KeyCache,
    verified: TokenCache,
}

impl Verifier {
    /// A verifier of `issuer`'s tokens; nothing is fetched until the first token arrives.
    pub(crate) fn new(issuer: String, introspection: Option<Credentials>) -> Self {
        let http = reqwest::Client::builder()
            .timeout(FETCH_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        Self {
            issuer,
            introspection,
            http,
            discovered: Discovered::default(),
            keys: KeyCache::default(),
            verified: TokenCache::default(),
        }
    }

    /// The issuer, as configured.
    pub(crate) fn issuer(&self) -> &str {
        &self.issuer
    }

    /// What `token` grants, for the resource `audience`: as kept since its first request, else
    /// verified (and kept).
    pub(crate) async fn verify(
        &self,
        token: &str,
        audience: &str,
    ) -> Result<Arc<AuthInfo>, Rejection> {
        let digest = cache::digest(audience, token);
        if let Some(found) = self.verified.get(&digest, self.keys.generation()) {
            return Ok(found);
        }
        if jwks::looks_like_jwt(token) || self.introspection.is_none() {
            let endpoints = self.discovered.get(&self.http, &self.issuer).await?;
            let (claims, keys) = self
                .keys
                .verify(&self.http, &endpoints, token, &self.issuer, audience)
                .await?;
            let exp = claims.get("exp").and_then(Value::as_u64);
            let auth = Arc::new(auth_info(claims));
            // A JWT is verified with its `exp` (a required claim): one unread is never kept.
            if let Some(exp) = exp {
                self.verified
                    .insert(digest, &auth, cache::until(exp), Some(keys));
            }
            return Ok(auth);
        }
        let endpoints = self.discovered.get(&self.http, &self.issuer).await?;
        let credentials = self.introspection.as_ref().ok_or_else(|| {
            Rejection::Invalid("not a JWT, and introspection is not configured".into())
        })?;
        let (claims, expires) = introspect::introspect(
            &self.http,
            &endpoints,
            credentials,
            token,
            &self.issuer,
            audience,
        )
        .await?;
        let auth = Arc::new(auth_info(claims));
        self.verified.insert(digest, &auth, expires, None);
        Ok(auth)
    }
}

/// The verified claims as the `Context` gives them: the client (`client_id`, else `azp`), the
/// subject (`sub`), the scopes (`scope`, space-separated, else `scp`), and every claim in
/// `extra`.
fn auth_info(claims: Map<String, Value>) -> AuthInfo {
    let text = |name: &str| claims.get(name).and_then(Value::as_str).map(str::to_owned);
    let client_id = text("client_id")
        .or_else(|| text("azp"))
        .unwrap_or_default();
    let subject = text("sub");
    let scopes: Vec<String> = match (claims.get("scope"), claims.get("scp")) {
        (Some(Value::String(scope)), _) => scope.split_whitespace().map(str::to_owned).collect(),
        (_, Some(Value::Array(scopes))) => scopes
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        (_, Some(Value::String(scp))) => scp.split_whitespace().map(str::to_owned).collect(),
        _ => Vec::new(),
    };
    let mut auth = AuthInfo::new(client_id).scopes(scopes);
    auth.subject = subject;
    auth.extra = Value::Object(claims);
    auth
}

/// Sends `request`, once more when it could not be sent (a kept-alive connection the
/// authorization server had closed): every request made here only
/// reads, so sending it twice is harmless.
pub(crate) async fn send(request: reqwest::RequestBuilder) -> Result<reqwest::Response, String> {
    let again = request.try_clone();
    let url = |error: &reqwest::Error| error.url().map(ToString::to_string).unwrap_or_default();
    match request.send().await {
        Err(error) if error.is_request() && !error.is_timeout() => match again {
            Some(again) => again
                .send()
                .await
                .map_err(|error| format!("{}: {}", url(&error), described(&error))),
            None => Err(format!("{}: {}", url(&error), described(&error))),
        },
        Err(error) => Err(format!("{}: {}", url(&error), described(&error))),
        Ok(response) => Ok(response),
    }
}

/// `error` with its causes (reqwest's own text names only the URL).
pub(crate) fn described(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut cause = std::error::Error::source(error);
    while let Some(error) = cause {
        text.push_str(": ");
        text.push_str(&error.to_string());
        cause = error.source();
    }
    text
}

/// Reads at most [`MAX_DOCUMENT_BYTES`] of a `200` JSON answer.
async fn read_json<T: serde::de::DeserializeOwned>(
    response: reqwest::Response,
    what: &str,
) -> Result<T, String> {
    let status = response.status();
    if !status.is_success() {
        return Err(format!("{what}: HTTP {status}"));
    }
    if response
        .content_length()
        .is_some_and(|length| length > MAX_DOCUMENT_BYTES as u64)
    {
        return Err(format!("{what}: larger than {MAX_DOCUMENT_BYTES} bytes"));
    }
    let mut response = response;
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|error| format!("{what}: {}", described(&error)))?
    {
        if body.len() + chunk.len() > MAX_DOCUMENT_BYTES {
            return Err(format!("{what}: larger than {MAX_DOCUMENT_BYTES} bytes"));
        }
        body.extend_from_slice(&chunk);
    }
    serde_json::from_slice(&body).map_err(|error| format!("{what}: {error}"))
}

/// `Err` when `issuer` may not be used: not `https://`, unless `http://` on loopback
/// (`localhost`, `127.0.0.0/8`, `[::1]`), as OAuth 2.1 §1.5 allows for development.
pub(crate) fn check_issuer(issuer: &str) -> Result<(), String> {
    if let Some(rest) = issuer.strip_prefix("https://") {
        return if rest.is_empty() {
            Err(format!("{issuer:?} names no host"))
        } else {
            Ok(())
        };
    }
    let Some(rest) = issuer.strip_prefix("http://") else {
        return Err(format!("{issuer:?} is not an https:// URL"));
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => authority
            .rsplit_once(':')
            .map_or(authority, |(host, _)| host),
    };
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if loopback {
        Ok(())
    } else {
        Err(format!(
            "{issuer:?}: an http:// issuer is accepted only on loopback (localhost, 127.0.0.1, \
             [::1]); use https://"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_http_issuer_only_on_loopback() {
        for good in [
            "https://auth.example.com",
            "http://127.0.0.1:8080",
            "http://localhost:3000/realms/x",
            "http://[::1]:9000",
        ] {
            assert_eq!(check_issuer(good), Ok(()), "{good}");
        }
        for bad in [
            "http://auth.example.com",
            "http://10.0.0.1:8080",
            "http://localhost.evil.com",
            "ftp://x",
            "https://",
        ] {
            assert!(check_issuer(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn claims_become_what_the_context_gives() {
        let claims = serde_json::json!({
            "sub": "ada", "client_id": "app", "scope": "a b", "iss": "x"
        });
        let Value::Object(claims) = claims else {
            unreachable!()
        };
        let auth = auth_info(claims);
        assert_eq!(auth.client_id, "app");
        assert_eq!(auth.subject.as_deref(), Some("ada"));
        assert_eq!(auth.scopes, ["a", "b"]);
        assert_eq!(auth.extra["iss"], "x");
    }
}
