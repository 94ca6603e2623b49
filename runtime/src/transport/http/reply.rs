//! HTTP answers that carry a JSON-RPC error. The status of a request's JSON-RPC error (its
//! envelope refused, or the dispatcher's answer) is decided here, in [`status_of`]; refusals
//! at the HTTP level (a bad header, a full table) name their status where they happen.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse as _, Response};

use crate::jsonrpc::{ErrorObject, Id, codes};

/// When the error was found: before the request ran (its envelope or headers), or as its
/// answer.
#[derive(Clone, Copy)]
pub(super) enum Stage {
    /// A 2026-07-28 request refused before it ran: always `400`.
    Envelope,
    /// The dispatcher's answer, in the era the request was made in.
    Answer { modern: bool },
}

/// The HTTP status that carries `error` (the 2026-07-28 transport's table: `404` for an
/// unknown method, `400` for the envelope and a missing capability; legacy answers are `200`).
pub(super) fn status_of(error: &ErrorObject, stage: Stage) -> StatusCode {
    match (stage, error.code) {
        (Stage::Envelope, _) => StatusCode::BAD_REQUEST,
        (Stage::Answer { modern: true }, codes::METHOD_NOT_FOUND) => StatusCode::NOT_FOUND,
        (Stage::Answer { modern: true }, codes::MISSING_CLIENT_CAPABILITY) => {
            StatusCode::BAD_REQUEST
        }
        (Stage::Answer { .. }, _) => StatusCode::OK,
    }
}

/// How long a client refused for want of room should wait before it tries again (`503`).
const RETRY_AFTER_SECONDS: &str = "5";

/// A refusal decided before the request's id is at hand: its status and error, answered with
/// the id once it is known ([`Refusal::answer`]).
#[derive(Debug)]
pub(super) struct Refusal {
    status: StatusCode,
    error: ErrorObject,
}

impl Refusal {
    pub(super) fn new(status: StatusCode, code: i64, message: impl Into<String>) -> Self {
        Self {
            status,
            error: ErrorObject::new(code, message),
        }
    }

    /// The HTTP status it is answered with.
    #[cfg(test)]
    pub(super) fn status(&self) -> StatusCode {
        self.status
    }

    /// The answer to request `id` (`null` for a notification, a batch, or no request).
    pub(super) fn answer(self, id: &Id) -> Response {
        refuse_request(self.status, id, self.error)
    }
}

/// A refusal before any JSON-RPC processing: `status` plus an id-less JSON-RPC error body.
pub(super) fn refuse(status: StatusCode, code: i64, message: impl Into<String>) -> Response {
    refuse_request(status, &Id::null(), ErrorObject::new(code, message))
}

/// The answer to request `id` that failed at the HTTP level. A `503` tells the client when to
/// try again.
pub(super) fn refuse_request(status: StatusCode, id: &Id, error: ErrorObject) -> Response {
    let mut response = json(status, &error.respond(id.clone()));
    if status == StatusCode::SERVICE_UNAVAILABLE {
        response.headers_mut().insert(
            header::RETRY_AFTER,
            HeaderValue::from_static(RETRY_AFTER_SECONDS),
        );
    }
    response
}

/// `body` as JSON with `status`.
pub(super) fn json(status: StatusCode, body: &impl serde::Serialize) -> Response {
    (status, axum::Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_follow_the_era_and_the_stage() {
        let not_found = ErrorObject::new(codes::METHOD_NOT_FOUND, "Method not found: x");
        let modern = Stage::Answer { modern: true };
        let legacy = Stage::Answer { modern: false };
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
