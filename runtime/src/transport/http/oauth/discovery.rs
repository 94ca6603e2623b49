//! Where the issuer keeps its keys and its introspection endpoint: its metadata, RFC 8414's
//! `/.well-known/oauth-authorization-server`, else `OpenID` Connect's
//! `/.well-known/openid-configuration`, read once and kept.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use serde::Deserialize;
use tokio::sync::Mutex;

use super::{Rejection, read_json};

/// After a failed discovery, how long requests are refused (`503`) before it is tried again:
/// a down authorization server is not asked once per request.
const RETRY_AFTER_FAILURE: Duration = Duration::from_secs(5);

/// What this server reads of the issuer's metadata.
#[derive(Debug, Deserialize)]
pub(crate) struct Endpoints {
    issuer: String,
    pub(crate) jwks_uri: Option<String>,
    pub(crate) introspection_endpoint: Option<String>,
}

/// The metadata, once read (then read without a lock); a failure remembered for
/// [`RETRY_AFTER_FAILURE`].
#[derive(Default)]
pub(crate) struct Discovered {
    read: OnceLock<Arc<Endpoints>>,
    /// One discovery at a time; the last failure.
    failed: Mutex<Option<(Instant, String)>>,
}

impl Discovered {
    /// The issuer's endpoints, read on first use.
    pub(crate) async fn get(
        &self,
        http: &reqwest::Client,
        issuer: &str,
    ) -> Result<Arc<Endpoints>, Rejection> {
        if let Some(endpoints) = self.read.get() {
            return Ok(Arc::clone(endpoints));
        }
        let mut failed = self.failed.lock().await;
        if let Some(endpoints) = self.read.get() {
            return Ok(Arc::clone(endpoints));
        }
        if let Some((at, why)) = &*failed
            && at.elapsed() < RETRY_AFTER_FAILURE
        {
            return Err(Rejection::Unavailable(why.clone()));
        }
        match discover(http, issuer).await {
            Ok(endpoints) => Ok(Arc::clone(self.read.get_or_init(|| Arc::new(endpoints)))),
            Err(why) => {
                tracing::warn!(issuer, %why, "cannot read the authorization server's metadata");
                *failed = Some((Instant::now(), why.clone()));
                Err(Rejection::Unavailable(why))
            }
        }
    }
}

/// Reads the metadata at each well-known URL in turn; the first that answers names the issuer.
async fn discover(http: &reqwest::Client, issuer: &str) -> Result<Endpoints, String> {
    let mut failures = Vec::new();
    for url in well_known_urls(issuer) {
        let read = match super::send(http.get(&url)).await {
            Ok(response) => read_json::<Endpoints>(response, &url).await,
            Err(why) => Err(why),
        };
        match read {
            // RFC 8414 §3.3: the document's issuer is the one asked about, exactly.
            Ok(endpoints) if endpoints.issuer == issuer => {
                if endpoints.jwks_uri.is_none() && endpoints.introspection_endpoint.is_none() {
                    failures.push(format!("{url}: no jwks_uri, no introspection_endpoint"));
                    continue;
                }
                return Ok(endpoints);
            }
            Ok(endpoints) => failures.push(format!(
                "{url}: names the issuer {:?}, not {issuer:?}",
                endpoints.issuer
            )),
            Err(why) => failures.push(why),
        }
    }
    Err(format!(
        "the metadata of the authorization server {issuer} could not be read ({})",
        failures.join("; ")
    ))
}

/// RFC 8414 §3.1's URL (the well-known part between the host and the issuer's path), then
/// `OpenID` Connect Discovery's (appended to the issuer).
fn well_known_urls(issuer: &str) -> [String; 2] {
    let issuer = issuer.trim_end_matches('/');
    let (origin, path) = match issuer.split_once("://") {
        Some((scheme, rest)) => match rest.find('/') {
            Some(at) => (&issuer[..scheme.len() + 3 + at], &rest[at..]),
            None => (issuer, ""),
        },
        None => (issuer, ""),
    };
    [
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{issuer}/.well-known/openid-configuration"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_known_urls_follow_rfc_8414_then_openid() {
        assert_eq!(
            well_known_urls("https://auth.example.com"),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            well_known_urls("https://id.example.com/realms/notes/"),
            [
                "https://id.example.com/.well-known/oauth-authorization-server/realms/notes",
                "https://id.example.com/realms/notes/.well-known/openid-configuration",
            ]
        );
    }
}
