//! Opaque tokens: asked about at the issuer's introspection endpoint (RFC 7662), the server
//! authenticated as its client (`client_secret_basic`); what an active token grants is kept by
//! `cache.rs`, up to its `exp` and at most [`MAX_TTL`].

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use super::cache::MAX_TTL;
use super::discovery::Endpoints;
use super::{Credentials, LEEWAY, Rejection, read_json};

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
}
