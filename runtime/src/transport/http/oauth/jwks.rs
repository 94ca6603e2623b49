//! JWT access tokens checked against the issuer's JWKS: the keys fetched once and kept; a `kid`
//! not among them fetches the set again (the issuer rotated its keys), at most once per
//! [`REFETCH_INTERVAL`], so forged `kid`s cannot make this server hammer the issuer.

use std::str::FromStr as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, DecodingKey, Header, Validation};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::discovery::Endpoints;
use super::{LEEWAY, Rejection, read_json};
use crate::sync;

/// The algorithms a token may be signed with: public-key signatures only (never `none`, never
/// an HMAC, whose secret a public key would become).
const ALLOWED: [Algorithm; 3] = [Algorithm::RS256, Algorithm::ES256, Algorithm::EdDSA];

/// Whether a JWT of header type `typ` may be an access token. RFC 9068 types them `at+jwt`
/// (`application/at+jwt`; a media type, so case is ignored); `JWT`, and no `typ` at all, are
/// accepted too, since Keycloak, Entra ID and Auth0 (by default) write `JWT` and Okta none, and
/// refusing them would refuse those providers' every token. What keeps an ID token out is the
/// audience (an ID token's `aud` is a client, never this resource). Any other type (`dpop+jwt`,
/// `logout+jwt`, `secevent+jwt`, …) is a JWT made for something else: refused.
pub(crate) fn access_token_type(typ: Option<&str>) -> bool {
    typ.is_none_or(|typ| {
        let typ = typ
            .get(..12)
            .filter(|prefix| prefix.eq_ignore_ascii_case("application/"))
            .map_or(typ, |_| &typ[12..]);
        typ.eq_ignore_ascii_case("at+jwt") || typ.eq_ignore_ascii_case("JWT")
    })
}

/// The least time between two fetches made for an unknown `kid`.
pub(crate) const REFETCH_INTERVAL: Duration = Duration::from_secs(30);

/// Keys are fetched again after this long, so a key the issuer withdrew stops being trusted.
pub(crate) const MAX_KEY_AGE: Duration = Duration::from_hours(1);

/// The most keys kept of one JWKS (the rest are ignored).
pub(crate) const MAX_KEYS: usize = 64;

/// Whether `token` has a JWT's shape (three dot-separated parts); anything else is opaque.
pub(crate) fn looks_like_jwt(token: &str) -> bool {
    token.split('.').count() == 3
}

/// The issuer's keys, as last fetched.
#[derive(Default)]
pub(crate) struct KeyCache {
    keys: RwLock<Arc<Keys>>,
    /// The generation of `keys`, read without a lock: what a verified token's cache entry is
    /// checked against.
    generation: AtomicU64,
    /// One fetch at a time; the others wait for it and read what it fetched.
    fetching: tokio::sync::Mutex<()>,
}

#[derive(Default)]
struct Keys {
    set: Vec<Key>,
    /// When the set was fetched (`None`: never).
    fetched: Option<Instant>,
    /// When a fetch was last made for an unknown `kid`.
    refetched: Option<Instant>,
    /// One more with each fetch (`0`: never fetched).
    generation: u64,
}

struct Key {
    kid: Option<String>,
    /// The key's `alg`, when the JWKS names it: a token must then use exactly that.
    alg: Option<Algorithm>,
    decoding: DecodingKey,
}

impl Keys {
    /// The key that signed a token with `header`: its `kid`'s, or, for a token without a `kid`,
    /// the one key of its algorithm.
    fn find(&self, header: &Header) -> Option<&Key> {
        let fits = |key: &&Key| key.alg.is_none_or(|alg| alg == header.alg);
        let mut fitting = self.set.iter().filter(fits);
        if let Some(kid) = &header.kid {
            return fitting.find(|key| key.kid.as_deref() == Some(kid));
        }
        let only = fitting.next();
        fitting.next().is_none().then_some(only).flatten()
    }

    fn stale(&self) -> bool {
        self.fetched.is_none_or(|at| at.elapsed() > MAX_KEY_AGE)
    }
}

impl KeyCache {
    /// The generation of the keys in use: one more each time they are fetched.
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// The claims of `token`, once its signature, issuer, audience and times are checked, and
    /// the generation of the keys that checked it.
    pub(crate) async fn verify(
        &self,
        http: &reqwest::Client,
        endpoints: &Endpoints,
        token: &str,
        issuer: &str,
        audience: &str,
    ) -> Result<(Map<String, Value>, u64), Rejection> {
        let invalid = |why: String| Rejection::Invalid(why);
        let header =
            jsonwebtoken::decode_header(token).map_err(|error| invalid(error.to_string()))?;
        if !ALLOWED.contains(&header.alg) {
            return Err(invalid(format!(
                "algorithm {:?} is not allowed",
                header.alg
            )));
        }
        if !access_token_type(header.typ.as_deref()) {
            return Err(invalid(format!(
                "a JWT of type {:?} is not an access token",
                header.typ
            )));
        }
        let mut keys = Arc::clone(&*sync::read(&self.keys));
        if keys.stale() || keys.find(&header).is_none() {
            keys = self.refresh(http, endpoints, keys.stale()).await?;
        }
        let key = keys
            .find(&header)
            .ok_or_else(|| invalid(format!("no key {:?} in the issuer's JWKS", header.kid)))?;
        let mut validation = Validation::new(header.alg);
        validation.leeway = LEEWAY.as_secs();
        validation.validate_nbf = true;
        validation.set_issuer(&[issuer]);
        validation.set_audience(&[audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        jsonwebtoken::decode::<Map<String, Value>>(token, &key.decoding, &validation)
            .map(|data| (data.claims, keys.generation))
            .map_err(|error| invalid(error.to_string()))
    }

    /// The keys after a fetch, when one is due: always for a stale set, else (an unknown
    /// `kid`) at most once per [`REFETCH_INTERVAL`].
    async fn refresh(
        &self,
        http: &reqwest::Client,
        endpoints: &Endpoints,
        stale: bool,
    ) -> Result<Arc<Keys>, Rejection> {
        let _one_at_a_time = self.fetching.lock().await;
        let current = Arc::clone(&*sync::read(&self.keys));
        let due = if stale {
            current.stale()
        } else {
            current
                .refetched
                .is_none_or(|at| at.elapsed() >= REFETCH_INTERVAL)
        };
        if !due {
            return Ok(current);
        }
        let uri = endpoints.jwks_uri.as_deref().ok_or_else(|| {
            Rejection::Invalid("a JWT, but the issuer publishes no jwks_uri".into())
        })?;
        let fetched = match fetch(http, uri).await {
            Ok(keys) => keys,
            Err(why) => {
                tracing::warn!(uri, %why, "cannot fetch the authorization server's keys");
                return Err(Rejection::Unavailable(why));
            }
        };
        let now = Instant::now();
        let keys = Arc::new(Keys {
            set: fetched,
            fetched: Some(now),
            refetched: if stale { current.refetched } else { Some(now) },
            generation: current.generation + 1,
        });
        *sync::write(&self.keys) = Arc::clone(&keys);
        self.generation.store(keys.generation, Ordering::Release);
        tracing::info!(
            uri,
            keys = keys.set.len(),
            "fetched the authorization server's keys"
        );
        Ok(keys)
    }
}

/// The signing keys of the JWKS at `uri`: those this server can use (a key of another use, of
/// an algorithm not allowed, or unreadable, is left out), at most [`MAX_KEYS`].
async fn fetch(http: &reqwest::Client, uri: &str) -> Result<Vec<Key>, String> {
    #[derive(Deserialize)]
    struct Set {
        keys: Vec<Value>,
    }
    let response = super::send(http.get(uri)).await?;
    let set: Set = read_json(response, uri).await?;
    Ok(set
        .keys
        .into_iter()
        .filter_map(|value| serde_json::from_value::<Jwk>(value).ok())
        .filter(|jwk| {
            jwk.common
                .public_key_use
                .as_ref()
                .is_none_or(|usage| *usage == jsonwebtoken::jwk::PublicKeyUse::Signature)
        })
        .filter_map(|jwk| {
            let alg = match jwk.common.key_algorithm {
                Some(alg) => Some(
                    Algorithm::from_str(&alg.to_string())
                        .ok()
                        .filter(|alg| ALLOWED.contains(alg))?,
                ),
                None => None,
            };
            let decoding = DecodingKey::from_jwk(&jwk).ok()?;
            Some(Key {
                kid: jwk.common.key_id,
                alg,
                decoding,
            })
        })
        .take(MAX_KEYS)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_token_types() {
        for typ in [
            None,
            Some("at+jwt"),
            Some("application/at+jwt"),
            Some("AT+JWT"),
            Some("JWT"),
            Some("jwt"),
        ] {
            assert!(access_token_type(typ), "{typ:?}");
        }
        for typ in [
            Some("dpop+jwt"),
            Some("logout+jwt"),
            Some("application/jwt+x"),
            Some(""),
            Some("application/"),
            Some("é"),
        ] {
            assert!(!access_token_type(typ), "{typ:?}");
        }
    }

    #[test]
    fn only_three_part_tokens_are_jwts() {
        assert!(looks_like_jwt("a.b.c"));
        assert!(!looks_like_jwt("opaque-token"));
        assert!(!looks_like_jwt("a.b.c.d.e"));
    }
}
