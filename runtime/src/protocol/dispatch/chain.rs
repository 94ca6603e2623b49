//! The middleware chain (`crate::middleware`) around every request that runs user code and
//! every listing: the server's middleware, then the scope check of `scopes(…)` (the chain's
//! innermost layer, built in), then the request. With no middleware, the scope check and the
//! request run as they are, nothing boxed or built for a chain.

use std::pin::pin;
use std::sync::Arc;

use futures_util::future::{Either, select};
use serde_json::{Map, Value};

use super::run::Client;
use super::{Dispatcher, method_not_found, refused};
use crate::jsonrpc::{ErrorObject, Id, Method, Payload};
use crate::limits::CallClock;
use crate::middleware::{self, Kind, Outcome, Repr, Request, Response};
use crate::protocol::ProtocolVersion;
use crate::protocol::connection::Connection;
use crate::protocol::era::Era;
use crate::protocol::listing;
use crate::protocol::prompts;
use crate::protocol::scope::RequestScope;
use crate::visibility::View;

impl Dispatcher {
    /// A request of `kind` through the middleware, the scope check and its handler, its
    /// response written for `era`.
    pub(super) async fn through_chain(
        &self,
        kind: Kind,
        id: &Id,
        params: Map<String, Value>,
        era: &Era,
        connection: &Connection,
        (scope, view): (RequestScope, View),
    ) -> Result<Payload, ErrorObject> {
        let outcome = if self.state.middleware.is_empty() {
            self.handle(kind, id, params, era, connection, (scope, view))
                .await
        } else {
            // Boxed: a chain's future would otherwise widen every request's.
            Box::pin(self.with_middleware(kind, id, params, era, connection, (scope, view))).await
        };
        let (repr, changed) = outcome?.into_parts();
        Ok(match repr {
            Repr::Tool(result) => self.tool_payload(era, result),
            Repr::Page(page) => Payload::Shared(page),
            Repr::Json(mut result) => {
                // The server cannot tell whether a middleware's change (or its own listing, in
                // place of the server's) depends on the caller.
                if changed && kind.is_listing() {
                    listing::private_in(&mut result, era.version());
                }
                self.payload(era, result)
            }
        })
    }

    /// The request through the server's middleware: the chain runs on a [`Request`] of its
    /// own (its `Context` asks nothing), and the request it lets through is handled here,
    /// where what it borrows lives, while the chain waits for its outcome.
    async fn with_middleware(
        &self,
        kind: Kind,
        id: &Id,
        params: Map<String, Value>,
        era: &Era,
        connection: &Connection,
        (scope, view): (RequestScope, View),
    ) -> Outcome {
        let clock = Arc::new(CallClock::default());
        let seen_by = RequestScope {
            notifications: scope.notifications.clone(),
            pending: None,
            cancellation: scope.cancellation.clone(),
            auth: scope.auth.clone(),
            time_limit: scope.time_limit,
            address: scope.address,
            room: None,
        };
        let client = Client::of(era, connection);
        let context = self.context(id, &params, seen_by, client, None, &clock);
        let request = Request::new(kind, params, context.clone());
        let (chain, through) = middleware::run(&self.state.middleware, request);
        let server_end = async move {
            if let Ok((request, answer)) = through.await {
                let (kind, params) = request.into_parts();
                let outcome = self
                    .handle(kind, id, params, era, connection, (scope, view))
                    .await;
                let _ = answer.send(outcome);
            }
        };
        let outcome = match select(pin!(chain), pin!(server_end)).await {
            Either::Left((outcome, _)) => outcome,
            Either::Right(((), chain)) => chain.await,
        };
        // Nothing is sent for the request after its answer, from a context a middleware kept.
        context.finish();
        outcome
    }

    /// The chain's innermost layer, the scope check, then the request's own handler.
    async fn handle(
        &self,
        kind: Kind,
        id: &Id,
        params: Map<String, Value>,
        era: &Era,
        connection: &Connection,
        (scope, view): (RequestScope, View),
    ) -> Outcome {
        let method = method_of(kind);
        if let Some(needed) =
            self.insufficient_scope(&method, Some(&params), scope.auth.as_deref(), &view)
        {
            return Err(refused(&needed));
        }
        let auth = scope.auth.as_deref();
        let version = era.version();
        match kind {
            Kind::CallTool => {
                self.call_tool(id, params, era, connection, (scope, view))
                    .await
            }
            Kind::ListTools => {
                let page =
                    self.state
                        .listings
                        .page(&self.state.tools, &params, version, auth, &view)?;
                Ok(Response::of(Repr::Page(page)))
            }
            Kind::ListPrompts if self.serves_prompts() => prompts::list(
                &self.state.prompts,
                &params,
                version,
                self.state.page_size,
                self.state.ttl_ms,
                (auth, &view),
            )
            .map(Response::served),
            // Boxed, as every one but the tool call's: each would widen the future of every call.
            Kind::GetPrompt if self.serves_prompts() => {
                Box::pin(self.get_prompt(id, params, era, connection, (scope, view)))
                    .await
                    .map(Response::served)
            }
            // `completions` came with 2025-03-26: an older client was not offered it.
            Kind::Complete
                if self.completable(&View::default()).any()
                    && version >= ProtocolVersion::V2025_03_26 =>
            {
                Box::pin(self.complete(&params, connection, &scope, &view))
                    .await
                    .map(Response::served)
            }
            Kind::ReadResource if self.state.resources.is_served() => {
                Box::pin(self.read_resource(id, params, era, connection, (scope, view)))
                    .await
                    .map(Response::served)
            }
            Kind::ListResources | Kind::ListResourceTemplates
                if self.state.resources.is_served() =>
            {
                self.list_resources(&method, &params, era, (auth, &view))
                    .map(Response::served)
            }
            _ => Err(method_not_found(&method)),
        }
    }
}

/// The method of a request of `kind`.
fn method_of(kind: Kind) -> Method {
    match kind {
        Kind::CallTool => Method::CallTool,
        Kind::ReadResource => Method::ReadResource,
        Kind::GetPrompt => Method::GetPrompt,
        Kind::Complete => Method::Complete,
        Kind::ListTools => Method::ListTools,
        Kind::ListResources => Method::ListResources,
        Kind::ListResourceTemplates => Method::ListResourceTemplates,
        Kind::ListPrompts => Method::ListPrompts,
    }
}
