//! HTTP answers that carry a JSON-RPC error: [`Refusal`], the one way to build one. The status
//! of a request's JSON-RPC error (its envelope refused, or the dispatcher's answer) is decided
//! here, in [`status_of`]; refusals at the HTTP level (a bad header, a full table) name their
//! status where they happen.

use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::jsonrpc::{self, ErrorObject, Id, codes};

/// The table of HTTP statuses an answer follows: its request's era's (not `protocol`'s `Era`,
/// which carries the version and capabilities).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StatusTable {
    /// Up to 2025-11-25: every JSON-RPC answer is a `200`.
    Legacy,
    /// 2026-07-28: the status says what the error is.
    Modern,
}

/// When the error was found: before the request ran (its envelope or headers), or as its
/// answer.
#[derive(Clone, Copy)]
pub(super) enum Stage {
    /// A 2026-07-28 request refused before it ran: always `400`.
    Envelope,
    /// The dispatcher's answer, in the era the request was made in.
    Answer(StatusTable),
}

/// The HTTP status that carries `error` (the 2026-07-28 transport's table: `404` for an
/// unknown method, `400` for the envelope and a missing capability; legacy answers are `200`).
pub(super) fn status_of(error: &ErrorObject, stage: Stage) -> StatusCode {
    match (stage, error.code) {
        (Stage::Envelope, _)
        | (Stage::Answer(StatusTable::Modern), codes::MISSING_CLIENT_CAPABILITY) => {
            StatusCode::BAD_REQUEST
        }
        (Stage::Answer(StatusTable::Modern), codes::METHOD_NOT_FOUND) => StatusCode::NOT_FOUND,
        // Past a rate limit, in both eras: the status clients and proxies back off on.
        (Stage::Answer(_), codes::RATE_LIMITED) => StatusCode::TOO_MANY_REQUESTS,
        (Stage::Answer(_), _) => StatusCode::OK,
    }
}

/// How long a client refused for want of room should wait before it tries again (`503`).
const RETRY_AFTER_SECONDS: &str = "5";

/// A request refused: the HTTP status it is answered with and its JSON-RPC error response,
/// which carries the request's id once it is known ([`Refusal::to`]; `null` for a
/// notification, a batch, or a message not yet read). It converts into its response, as axum's
/// rejections do, so that a handler refuses with `?`: it is the one way the transport answers
/// with an error.
#[derive(Debug)]
#[must_use]
pub(super) struct Refusal {
    status: StatusCode,
    answer: jsonrpc::Response,
    /// A header the status asks for (`Allow`, `WWW-Authenticate`, `Accept-Encoding`).
    header: Option<Box<(HeaderName, HeaderValue)>>,
}

impl Refusal {
    /// `status` with the error `code` and `message`.
    pub(super) fn new(status: StatusCode, code: i64, message: impl Into<String>) -> Self {
        Self::of(status, ErrorObject::new(code, message))
    }

    /// `status` with `error`.
    pub(super) fn of(status: StatusCode, error: ErrorObject) -> Self {
        Self::answering(status, error.respond(Id::null()))
    }

    /// `error`, found at `stage`, with the status [`status_of`] gives it.
    pub(super) fn at(stage: Stage, error: ErrorObject) -> Self {
        Self::of(status_of(&error, stage), error)
    }

    /// `status` with a JSON-RPC error response made already (a message that cannot be read, a
    /// call that cannot start), its id in it.
    pub(super) fn answering(status: StatusCode, answer: jsonrpc::Response) -> Self {
        Self {
            status,
            answer,
            header: None,
        }
    }

    /// The refusal as the answer to request `id`.
    pub(super) fn to(mut self, id: &Id) -> Self {
        self.answer.id = id.clone();
        self
    }

    /// The refusal with header `name` set to `value`.
    pub(super) fn with_header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        self.header = Some(Box::new((name, value)));
        self
    }

    /// The HTTP status it is answered with.
    #[cfg(test)]
    pub(super) fn status(&self) -> StatusCode {
        self.status
    }
}

/// A `503` tells the client when to try again.
impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let mut response = json(self.status, &self.answer);
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from_static(RETRY_AFTER_SECONDS),
            );
        }
        if let Some(header) = self.header {
            let (name, value) = *header;
            response.headers_mut().insert(name, value);
        }
        response
    }
}

/// A JSON-RPC `response` as JSON with `status`; a `429` says `Retry-After`: the error's
/// `data.retryAfterMs` in seconds, rounded up.
pub(super) fn answer(status: StatusCode, response: &jsonrpc::Response) -> Response {
    let mut answer = json(status, response);
    if status == StatusCode::TOO_MANY_REQUESTS {
        let millis = response
            .error_object()
            .and_then(|error| error.data.as_ref())
            .and_then(|data| data.get("retryAfterMs"))
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(1000);
        answer
            .headers_mut()
            .insert(header::RETRY_AFTER, millis.div_ceil(1000).into());
    }
    answer
}

/// `body` as JSON with `status`.
pub(super) fn json(status: StatusCode, body: &impl serde::Serialize) -> Response {
    (status, axum::Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body(response: Response) -> String {
        let bytes = axum::body::to_bytes(response.into_body(), 4096)
            .await
            .unwrap();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[tokio::test]
    async fn a_refusal_answers_with_its_status_its_request_id_and_its_error() {
        let busy = Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            codes::INTERNAL_ERROR,
            "busy",
        )
        .to(&Id::from(7))
        .into_response();
        assert_eq!(busy.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(busy.headers()[header::RETRY_AFTER], RETRY_AFTER_SECONDS);
        assert_eq!(
            body(busy).await,
            r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"busy"}}"#
        );
        let not_allowed =
            Refusal::new(StatusCode::METHOD_NOT_ALLOWED, codes::INVALID_REQUEST, "no")
                .with_header(header::ALLOW, HeaderValue::from_static("POST"))
                .into_response();
        assert_eq!(not_allowed.headers()[header::ALLOW], "POST");
        assert!(not_allowed.headers().get(header::RETRY_AFTER).is_none());
        assert_eq!(
            body(not_allowed).await,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no"}}"#
        );
    }

    #[test]
    fn statuses_follow_the_era_and_the_stage() {
        let not_found = ErrorObject::new(codes::METHOD_NOT_FOUND, "Method not found: x");
        let modern = Stage::Answer(StatusTable::Modern);
        let legacy = Stage::Answer(StatusTable::Legacy);
        assert_eq!(status_of(&not_found, modern), StatusCode::NOT_FOUND);
        assert_eq!(status_of(&not_found, legacy), StatusCode::OK);
        let missing = ErrorObject::new(codes::MISSING_CLIENT_CAPABILITY, "m");
        assert_eq!(status_of(&missing, modern), StatusCode::BAD_REQUEST);
        let unknown_tool = ErrorObject::invalid_params("Unknown tool: x");
        assert_eq!(status_of(&unknown_tool, modern), StatusCode::OK);
        assert_eq!(
            status_of(&unknown_tool, Stage::Envelope),
            StatusCode::BAD_REQUEST
        );
    }
}
