//! Opaque tokens: asked about at the issuer's introspection endpoint (RFC 7662), the server
//! authenticated as its client (`client_secret_basic`); what an active token grants is kept, up
//! to its `exp` and at most [`MAX_TTL`], within [`MAX_ENTRIES`] and [`MAX_BYTES`].

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use super::discovery::Endpoints;
use super::{Credentials, LEEWAY, Rejection, read_json};
use crate::context::AuthInfo;
use crate::sync;

/// The longest an introspection answer is trusted: a token revoked at the issuer is refused
/// here within this time.
pub(crate) const MAX_TTL: Duration = Duration::from_mins(5);

/// The most tokens whose answers are kept.
pub(crate) const MAX_ENTRIES: usize = 10_000;

/// The most bytes the kept answers hold together (each counted as its token, its claims as
/// JSON, and 128 bytes).
pub(crate) const MAX_BYTES: usize = 8 * 1024 * 1024;

/// What `token` grants, as the introspection endpoint says, and until when it may be kept.
pub(crate) async fn introspect(
    http: &reqwest::Client,
    endpoints: &Endpoints,
    credentials: &Credentials,
    token: &str,
    issuer: &str,
    audience: &str,
) -> Result<(Map<String, Value>, Instant), Rejection> {
    let uri = endpoints.introspection_endpoint.as_deref().ok_or_else(|| {
        Rejection::Unavailable(format!(
            "the issuer {issuer} publishes no introspection_endpoint"
        ))
    })?;
    let request = http
        .post(uri)
        .basic_auth(&credentials.client_id, Some(&credentials.client_secret))
        .form(&[("token", token), ("token_type_hint", "access_token")]);
    let response = super::send(request).await.map_err(Rejection::Unavailable)?;
    let claims: Map<String, Value> = read_json(response, uri)
        .await
        .map_err(Rejection::Unavailable)?;
    let expires = check(&claims, issuer, audience, now()).map_err(Rejection::Invalid)?;
    Ok((claims, expires))
}

/// Seconds since the epoch.
fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

/// `Err` unless the answer says active, for this issuer (when it names one) and this resource,
/// within its times; `Ok` is how long it may be kept.
fn check(
    claims: &Map<String, Value>,
    issuer: &str,
    audience: &str,
    now: u64,
) -> Result<Instant, String> {
    if claims.get("active") != Some(&Value::Bool(true)) {
        return Err("the issuer says the token is not active".into());
    }
    if let Some(iss) = claims.get("iss")
        && iss.as_str() != Some(issuer)
    {
        return Err(format!("issued by {iss}, not {issuer}"));
    }
    let for_us = match claims.get("aud") {
        Some(Value::String(aud)) => aud == audience,
        Some(Value::Array(auds)) => auds.iter().any(|aud| aud.as_str() == Some(audience)),
        _ => false,
    };
    if !for_us {
        return Err(format!("not issued for {audience}"));
    }
    let leeway = LEEWAY.as_secs();
    let time = |name: &str| claims.get(name).and_then(Value::as_u64);
    if time("nbf").is_some_and(|nbf| nbf > now + leeway) {
        return Err("not valid yet (nbf)".into());
    }
    let left = match time("exp") {
        Some(exp) if exp + leeway <= now => return Err("expired (exp)".into()),
        Some(exp) => Duration::from_secs(exp.saturating_sub(now)).min(MAX_TTL),
        None => MAX_TTL,
    };
    Ok(Instant::now() + left)
}

/// The answers kept, by token; the oldest entry goes first when full.
#[derive(Default)]
pub(crate) struct IntrospectionCache {
    inner: Mutex<Cache>,
}

#[derive(Default)]
struct Cache {
    entries: HashMap<String, Entry>,
    /// Tokens in the order they were kept, with the number of the entry each was kept as (an
    /// entry kept again has a new number: the older place is skipped).
    order: VecDeque<(u64, String)>,
    bytes: usize,
    next: u64,
}

struct Entry {
    auth: AuthInfo,
    expires: Instant,
    bytes: usize,
    number: u64,
}

impl IntrospectionCache {
    /// What `token` was found to grant, while that is still trusted.
    pub(crate) fn get(&self, token: &str) -> Option<AuthInfo> {
        let mut cache = sync::lock(&self.inner);
        let entry = cache.entries.get(token)?;
        if entry.expires > Instant::now() {
            return Some(entry.auth.clone());
        }
        cache.remove(token);
        None
    }

    /// Keeps what `token` grants until `expires`, making room first.
    pub(crate) fn insert(&self, token: &str, auth: &AuthInfo, expires: Instant) {
        let bytes = token.len() + auth.extra.to_string().len() + 128;
        if bytes > MAX_BYTES {
            return;
        }
        let mut cache = sync::lock(&self.inner);
        cache.remove(token);
        while cache.entries.len() >= MAX_ENTRIES || cache.bytes + bytes > MAX_BYTES {
            let Some((number, oldest)) = cache.order.pop_front() else {
                break;
            };
            if cache
                .entries
                .get(&oldest)
                .is_some_and(|entry| entry.number == number)
            {
                cache.remove(&oldest);
            }
        }
        let number = cache.next;
        cache.next += 1;
        cache.bytes += bytes;
        cache.order.push_back((number, token.to_owned()));
        cache.entries.insert(
            token.to_owned(),
            Entry {
                auth: auth.clone(),
                expires,
                bytes,
                number,
            },
        );
        if cache.order.len() > 2 * MAX_ENTRIES {
            let Cache { entries, order, .. } = &mut *cache;
            order.retain(|(number, token)| {
                entries
                    .get(token)
                    .is_some_and(|entry| entry.number == *number)
            });
        }
    }
}

impl Cache {
    fn remove(&mut self, token: &str) {
        if let Some(entry) = self.entries.remove(token) {
            self.bytes -= entry.bytes;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => unreachable!(),
        }
    }

    #[test]
    fn only_an_active_token_for_this_resource_and_issuer_passes() {
        let (iss, aud) = ("https://as", "https://rs/mcp");
        let good = json_claims(true, iss, aud, 2_000);
        assert!(check(&good, iss, aud, 1_000).is_ok());
        assert!(check(&json_claims(false, iss, aud, 2_000), iss, aud, 1_000).is_err());
        assert!(
            check(
                &json_claims(true, "https://other", aud, 2_000),
                iss,
                aud,
                1_000
            )
            .is_err()
        );
        assert!(
            check(
                &json_claims(true, iss, "https://rs/other", 2_000),
                iss,
                aud,
                1_000
            )
            .is_err()
        );
        assert!(check(&json_claims(true, iss, aud, 900), iss, aud, 1_000).is_err());
        let no_audience = claims(serde_json::json!({"active": true, "iss": iss}));
        assert!(check(&no_audience, iss, aud, 1_000).is_err());
    }

    fn json_claims(active: bool, iss: &str, aud: &str, exp: u64) -> Map<String, Value> {
        claims(serde_json::json!({"active": active, "iss": iss, "aud": [aud], "exp": exp}))
    }

    #[test]
    fn the_cache_keeps_within_its_bounds_and_forgets_the_expired() {
        let cache = IntrospectionCache::default();
        let later = Instant::now() + Duration::from_mins(1);
        let auth = AuthInfo::new("c");
        for i in 0..MAX_ENTRIES + 10 {
            cache.insert(&format!("t{i}"), &auth, later);
        }
        let inner = sync::lock(&cache.inner);
        assert_eq!(inner.entries.len(), MAX_ENTRIES);
        assert!(inner.bytes <= MAX_BYTES);
        assert!(!inner.entries.contains_key("t0"), "the oldest went first");
        drop(inner);
        cache.insert("gone", &auth, Instant::now());
        assert!(cache.get("gone").is_none());
        assert!(cache.get(&format!("t{}", MAX_ENTRIES + 9)).is_some());
    }
}
