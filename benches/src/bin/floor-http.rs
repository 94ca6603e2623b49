//! The HTTP floor: a minimal hyper HTTP/1 server (keep-alive, `TCP_NODELAY`) answering
//! `initialize`, `tools/list` and `tools/call echo` with JSON in either era
//! ([`mcp_toolbelt_benches::floor`]), and any notification with 202. No header checks, sessions
//! or validation: a bound, not a server.
//!
//! ```text
//! floor-http 127.0.0.1:8080
//! ```

use std::convert::Infallible;

use http_body_util::{BodyExt as _, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use mcp_toolbelt_benches::floor::answer;
use serde_json::Value;
use tokio::net::TcpListener;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8080".to_owned());
    let listener = TcpListener::bind(&address).await?;
    loop {
        let (stream, _) = listener.accept().await?;
        stream.set_nodelay(true)?;
        tokio::spawn(async move {
            let service = hyper::service::service_fn(serve);
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

async fn serve(request: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let body = match request.into_body().collect().await {
        Ok(body) => body.to_bytes(),
        Err(_) => return Ok(status(StatusCode::BAD_REQUEST)),
    };
    let Ok(request) = serde_json::from_slice::<Value>(&body) else {
        return Ok(status(StatusCode::BAD_REQUEST));
    };
    let Some(answer) = answer(&request) else {
        return Ok(status(StatusCode::ACCEPTED));
    };
    let mut response = Response::new(Full::new(Bytes::from(answer.to_string())));
    let headers = response.headers_mut();
    headers.insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    headers.insert(
        "mcp-session-id",
        hyper::header::HeaderValue::from_static("floor"),
    );
    Ok(response)
}

fn status(status: StatusCode) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::new()));
    *response.status_mut() = status;
    response
}
