//! `GET /healthz`, beside the MCP endpoint (served by `serve_http` and `serve_http_app`): what
//! a load balancer or a Kubernetes readiness probe asks before it sends clients. `200` with
//! `{"status":"serving","redis":"up"|"down"|"off"}` while serving; `503` with
//! `{"status":"closing",…}` once shutting down, so that new clients go elsewhere. Redis being
//! down does not make it `503`: 2026-07-28 requests and stateless answers still work here, and
//! the body says it.

use axum::http::{Method, Request, StatusCode};
use axum::response::{IntoResponse as _, Response};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::HttpConfig;

/// The path it is served at.
pub(super) const PATH: &str = "/healthz";

/// What the health answer reads.
pub(super) struct Health {
    closing: CancellationToken,
    #[cfg(feature = "redis")]
    redis: Option<crate::replicas::Redis>,
}

impl Health {
    /// The health of the server `config` serves, closing once `closing` is cancelled.
    pub(super) fn of(config: &HttpConfig, closing: CancellationToken) -> Self {
        let _ = config;
        Self {
            closing,
            #[cfg(feature = "redis")]
            redis: config.redis_connected().cloned(),
        }
    }

    /// Whether `request` asks for it.
    pub(super) fn asked<B>(request: &Request<B>) -> bool {
        request.uri().path() == PATH && request.method() == Method::GET
    }

    /// The answer: `200` while serving, `503` once closing.
    pub(super) fn answer(&self) -> Response {
        #[cfg(feature = "redis")]
        let redis = match &self.redis {
            Some(redis) if redis.is_up() => "up",
            Some(_) => "down",
            None => "off",
        };
        #[cfg(not(feature = "redis"))]
        let redis = "off";
        let (status, word) = if self.closing.is_cancelled() {
            (StatusCode::SERVICE_UNAVAILABLE, "closing")
        } else {
            (StatusCode::OK, "serving")
        };
        (status, axum::Json(json!({"status": word, "redis": redis}))).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body(response: Response) -> serde_json::Value {
        let bytes = axum::body::to_bytes(response.into_body(), 4096)
            .await
            .unwrap();
        serde_json::from_slice(&bytes).unwrap()
    }

    #[tokio::test]
    async fn serving_then_closing() {
        let closing = CancellationToken::new();
        let health = Health::of(&HttpConfig::new(), closing.clone());
        let answer = health.answer();
        assert_eq!(answer.status(), StatusCode::OK);
        assert_eq!(
            body(answer).await,
            json!({"status": "serving", "redis": "off"})
        );
        closing.cancel();
        let answer = health.answer();
        assert_eq!(answer.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            body(answer).await,
            json!({"status": "closing", "redis": "off"})
        );
        let asked = Request::get(PATH).body(()).unwrap();
        assert!(Health::asked(&asked));
        assert!(!Health::asked(&Request::post(PATH).body(()).unwrap()));
        assert!(!Health::asked(&Request::get("/mcp").body(()).unwrap()));
    }
}
