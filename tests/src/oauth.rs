//! The authorization server of the OAuth tests (`tests/oauth.rs`, `tests/secured.rs`):
//! `tests/oauth/provider.mjs`, the npm package `oidc-provider`, started on a free port.

use std::io::{BufRead as _, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;

use crate::http::send_over_socket;
use crate::{drain, repo_root};

/// `tests/oauth/provider.mjs` running: its issuer and signing keys. Killed when dropped.
pub struct Provider {
    child: Child,
    /// Where it listens, on 127.0.0.1.
    pub port: u16,
    /// Its issuer URL, `http://127.0.0.1:PORT`.
    pub issuer: String,
    /// The `kid` of its RSA key (RS256), new at each start.
    pub kid: String,
    /// That key, private (PKCS #1 PEM).
    pub private_pem: String,
    /// That key, public (SPKI PEM).
    pub public_pem: String,
    /// The `kid` of its P-256 key (ES256), new at each start.
    pub es_kid: String,
    /// That key, private (PKCS #8 PEM).
    pub es_private_pem: String,
}

impl Drop for Provider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Node 22 from `install.sh` if there, else `node` on `PATH`, with `oidc-provider` installed;
/// `None` after saying SKIPPED (a failure under `CI`).
///
/// # Panics
///
/// Under `CI`, when either is missing.
#[must_use]
pub fn node() -> Option<PathBuf> {
    let node = crate::node22().or_else(|| {
        Command::new("node")
            .arg("--version")
            .output()
            .ok()
            .filter(|output| output.status.success())
            .map(|_| PathBuf::from("node"))
    });
    let installed = repo_root()
        .join("tests/oauth/node_modules/oidc-provider/package.json")
        .is_file();
    if node.is_none() || !installed {
        let missing = "node or oidc-provider is not installed (run bash tests/clients/install.sh)";
        assert!(std::env::var_os("CI").is_none(), "{missing}");
        eprintln!("SKIPPED: {missing}");
        return None;
    }
    node
}

impl Provider {
    /// The authorization server on `port` (0: a free one), with signing keys of its own.
    ///
    /// # Panics
    ///
    /// When it does not start.
    #[must_use]
    pub fn start(node: &Path, port: u16) -> Self {
        let mut child = Command::new(node)
            .arg(repo_root().join("tests/oauth/provider.mjs"))
            .args(["--resource", "http://127.0.0.1:1/mcp", "--port"])
            .arg(port.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("node starts");
        let mut line = String::new();
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        stdout
            .read_line(&mut line)
            .expect("the provider says where it listens");
        // Read on, so that what the provider prints later does not meet a closed pipe.
        drop(drain(stdout));
        let started: Value = serde_json::from_str(&line)
            .unwrap_or_else(|error| panic!("provider.mjs printed {line:?}: {error}"));
        let text = |name: &str| started[name].as_str().unwrap().to_owned();
        let issuer = text("issuer");
        let port = issuer.rsplit(':').next().unwrap().parse().unwrap();
        Self {
            child,
            port,
            issuer,
            kid: text("kid"),
            private_pem: text("private_pem"),
            public_pem: text("public_pem"),
            es_kid: text("es_kid"),
            es_private_pem: text("es_private_pem"),
        }
    }

    /// A client-credentials access token of `client` (`jwt-client`, `opaque-client`,
    /// `es-client`: its secret is its name with `-secret` for `-client`) for `resource`, with
    /// `scope`.
    ///
    /// # Panics
    ///
    /// When the provider does not issue it.
    pub async fn token(&self, client: &str, resource: &str, scope: &str) -> String {
        let secret = client.replace("-client", "-secret");
        let basic = STANDARD.encode(format!("{client}:{secret}"));
        let form = format!(
            "grant_type=client_credentials&resource={}&scope={}",
            encode(resource),
            encode(scope)
        );
        let request = Request::builder()
            .method(Method::POST)
            .uri("/token")
            .header("content-type", "application/x-www-form-urlencoded")
            .header("authorization", format!("Basic {basic}"))
            .body(Body::from(form))
            .unwrap();
        let reply = send_over_socket(self.address(), request).await;
        assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
        reply.json()["access_token"].as_str().unwrap().to_owned()
    }

    /// How many times the JWKS was fetched from this provider.
    ///
    /// # Panics
    ///
    /// When the provider does not say.
    pub async fn jwks_fetches(&self) -> u64 {
        let request = Request::get("/test/jwks-fetches")
            .body(Body::empty())
            .unwrap();
        send_over_socket(self.address(), request)
            .await
            .json()
            .as_u64()
            .unwrap()
    }

    fn address(&self) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], self.port))
    }
}

/// Percent-encodes a form value.
#[must_use]
pub fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(byte).to_string()
            }
            _ => format!("%{byte:02X}"),
        })
        .collect()
}

/// Seconds since the Unix epoch, as JWT times are written.
///
/// # Panics
///
/// With a clock before 1970.
#[must_use]
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}
