//! How a [`Server`] is served: the `serve_*` calls, `into_service` and `into_router`, each
//! building the [`Dispatcher`] for its [`Transport`] and handing it to that transport.

use std::io;
use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::sync::CancellationToken;

use super::Server;
use crate::ask::seal::Sealer;
use crate::error::Error;
use crate::protocol::{Dispatcher, Listings, ServerState, Transport};
use crate::registry::apps;
#[cfg(feature = "redis")]
use crate::task::TaskStore;
use crate::task::{MemoryTaskStore, TaskSettings, Tasks};
#[cfg(feature = "http")]
use crate::transport::http::{self, HttpConfig};
use crate::transport::stdio;
use crate::types::Implementation;

impl Server {
    /// Serves over stdin and stdout until stdin closes; then in-flight calls get a few seconds to
    /// finish. Nothing but protocol messages is written to stdout; this installs no logger (see
    /// [`Server::run`], which sends logs to stderr).
    ///
    /// Needs a tokio runtime with IO enabled (as `#[tokio::main]` builds it): on Linux, a stdin
    /// and a stdout that are pipes are read and written on its reactor.
    pub async fn serve_stdio(self) -> Result<(), Error> {
        let (input, output) = stdio::standard_streams();
        // A task of its own, on a worker thread next to the tasks it starts, rather than on the
        // thread that awaits this (under `#[tokio::main]`, one woken for every read). Dropping
        // this future still ends the serving.
        let serving = tokio::spawn(self.serve_io(input, output));
        joined(tokio_util::task::AbortOnDropHandle::new(serving).await)
    }

    /// Serves the stdio framing (one JSON-RPC message a line) over any pair of streams: a socket,
    /// a pipe, an in-memory duplex in tests.
    pub async fn serve_io<R, W>(self, input: R, output: W) -> Result<(), Error>
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let dispatcher = self.into_dispatcher(Transport::Stdio)?;
        Ok(stdio::serve(dispatcher, input, output).await?)
    }

    /// The MCP endpoint as a tower service of `http` 1 requests and responses, answering at
    /// path `/`: mount it in any server or framework built on them (hyper through `hyper-util`,
    /// axum's `Router::nest_service("/mcp", …)`, tonic's router), with your own layers. Its type
    /// is ours, [`HttpService`](crate::http::HttpService), so that it outlives any one axum
    /// version; it guards what [`Server::into_router`] guards (read there what the server loop
    /// of [`Server::serve_http`] adds; call [`HttpService::shutdown`](crate::http::HttpService::shutdown)
    /// when your server stops). `Err` if the tools cannot be served.
    ///
    /// Requires the `http` feature (on by default).
    #[cfg(feature = "http")]
    pub fn into_service(self) -> Result<http::HttpService, Error> {
        let config = self.http.clone();
        config.check_resource()?;
        #[cfg(feature = "redis")]
        config.check_connected()?;
        #[cfg(feature = "redis")]
        self.warn_unshared_request_state_key(&config);
        let dispatcher = self.into_dispatcher(Transport::Http)?;
        let closing = dispatcher.closing().clone();
        Ok(http::HttpService::new(
            http::router(dispatcher, config),
            closing,
        ))
    }

    /// The MCP endpoint as an [`axum::Router`] that answers at path `/`: nest it where you want
    /// it (`app.nest("/mcp", server.into_router()?)`; merged as it is, it answers at your app's
    /// `/`) and add your own layers. With bearer auth, also serve
    /// [`ProtectedResourceMetadata`](crate::http::ProtectedResourceMetadata) (see
    /// [`Server::serve_http`], which does).
    ///
    /// What the router guards by itself: admission (one value per deciding header, `Host`,
    /// `Origin`, the bearer token), bodies (size, `Content-Encoding`, time to arrive), places
    /// for requests and streams, and the session table. What it cannot guard, because it lives
    /// in the server loop that owns the connections: the header timeout, the connection cap
    /// (and making room past it), the share and minimum rate of bodies still arriving, and
    /// graceful shutdown. Served with `axum::serve`, your app has none of these: serve it with
    /// [`Server::serve_http_app`] instead, which gives it all of them.
    ///
    /// A legacy client's GET stream, and a 2026-07-28 client's `subscriptions/listen` stream,
    /// stay open until the client leaves (or its session ends), so an app's own graceful shutdown
    /// waits for such clients: bound it with a timeout, as [`Server::serve_http`] does.
    ///
    /// An axum convenience, so tied to axum 0.8 (this crate moving to a new axum is a new major
    /// version of it, as for [`Server::serve_http_app`]): [`Server::into_service`] is the same
    /// endpoint as a type of ours, which axum of any version mounts with `nest_service`.
    ///
    /// Requires the `http` feature (on by default).
    #[cfg(feature = "http")]
    pub fn into_router(self) -> Result<axum::Router, Error> {
        let config = self.http.clone();
        config.check_resource()?;
        #[cfg(feature = "redis")]
        config.check_connected()?;
        #[cfg(feature = "redis")]
        self.warn_unshared_request_state_key(&config);
        let dispatcher = self.into_dispatcher(Transport::Http)?;
        Ok(http::router(dispatcher, config))
    }

    /// Serves Streamable HTTP at `address` on path `/mcp` (and the protected-resource metadata
    /// when bearer auth is on) until SIGINT or SIGTERM. Then it accepts no new connection,
    /// closes the long-lived streams (GET and `subscriptions/listen`), and waits for in-flight requests up to the configured grace time
    /// before it returns (whatever still runs then ends with the process). Installs no logger
    /// (see [`Server::run`]).
    ///
    /// Requires the `http` feature (on by default).
    #[cfg(feature = "http")]
    pub async fn serve_http(self, address: std::net::SocketAddr) -> Result<(), Error> {
        let (server, config) = self.connected_http().await?;
        let dispatcher = server.into_dispatcher(Transport::Http)?;
        Ok(http::serve(dispatcher, config, address).await?)
    }

    /// Serves your own axum app on `listener` with the protections of [`Server::serve_http`]:
    /// `app` is given this server's MCP endpoint (the router of [`Server::into_router`], at `/`)
    /// and returns the whole app, with the endpoint where you put it
    /// (`|mcp| api.nest("/mcp", mcp)`). Its connections get the header timeout, the connection
    /// cap and the room made past it, the share and rate of bodies arriving
    /// ([`HttpConfig`]); at SIGINT or SIGTERM it accepts no new connection, ends the MCP streams,
    /// and waits for requests in flight up to the grace time before it returns.
    ///
    /// Connections are HTTP/1 only, with no upgrades (a WebSocket route fails): serve such an
    /// app with `axum::serve` instead. Each request carries the client's address as axum's
    /// `ConnectInfo<SocketAddr>`.
    ///
    /// Like [`Server::into_router`], tied to axum 0.8 (its `Router` is in the signature).
    ///
    /// Requires the `http` feature (on by default).
    ///
    /// ```no_run
    /// use axum::{Router, routing::get};
    ///
    /// # async fn serve() -> Result<(), mcp_toolbelt::Error> {
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:3000").await?;
    /// let api = Router::new().route("/health", get(|| async { "ok" }));
    /// mcp_toolbelt::Server::new("inventory", "1.0.0")
    ///     .serve_http_app(listener, |mcp| api.nest("/mcp", mcp))
    ///     .await
    /// # }
    /// ```
    #[cfg(feature = "http")]
    pub async fn serve_http_app(
        self,
        listener: tokio::net::TcpListener,
        app: impl FnOnce(axum::Router) -> axum::Router,
    ) -> Result<(), Error> {
        self.http.check_resource()?;
        let (server, config) = self.connected_http().await?;
        let dispatcher = server.into_dispatcher(Transport::Http)?;
        let shutdown = dispatcher.closing().clone();
        let app = app(http::router(dispatcher, config.clone()));
        tracing::info!(address = %listener.local_addr()?, "serving HTTP");
        Ok(http::serve_app(listener, app, &config, shutdown).await?)
    }

    /// The server and its HTTP configuration with Redis connected, if one is configured: the
    /// dispatcher sees the connected Redis too (its tasks are kept there). `Err` names the URL.
    #[cfg(feature = "http")]
    async fn connected_http(self) -> Result<(Self, HttpConfig), Error> {
        #[cfg(feature = "redis")]
        {
            let config = self.http.clone().connected().await?;
            let mut server = self.update_http_config(|_| config.clone());
            if server.request_state_key.is_none()
                && let Some(redis) = config.redis_connected()
            {
                // The operator said "these processes are one server": they share one key.
                let ((current, previous), at) =
                    redis.request_state_keys().await.map_err(|problem| {
                        Error::RequestStateKey(format!(
                            "{problem}; give every replica the same key with \
                             --request-state-key-file (or MCP_REQUEST_STATE_KEY, \
                             Server::request_state_key)"
                        ))
                    })?;
                server.request_state_key = Some(current);
                server.previous_request_state_key = previous;
                server.request_state_key_source = Some(format!("shared through Redis at {at}"));
            }
            server.log_request_state_key();
            Ok((server, config))
        }
        #[cfg(not(feature = "redis"))]
        {
            let config = self.http.clone();
            self.log_request_state_key();
            std::future::ready(Ok((self, config))).await
        }
    }

    /// A router or service on Redis takes no key from it (it is built without an `await`):
    /// without a key of its own, its replicas each draw one, and a 2026-07-28 question round
    /// retried on another replica fails. Said at start rather than found by a client.
    #[cfg(feature = "redis")]
    fn warn_unshared_request_state_key(&self, config: &HttpConfig) {
        if self.request_state_key.is_none() && config.redis_connected().is_some() {
            tracing::warn!(
                "requestState key: drawn at start, known to this process only, though Redis is \
                 configured: replicas behind one balancer need one key; give it with \
                 Server::request_state_key (or serve with serve_http or serve_http_app, which \
                 take one from Redis)"
            );
        }
    }

    /// Says at start where the `requestState` key comes from.
    #[cfg(feature = "http")]
    fn log_request_state_key(&self) {
        match (&self.request_state_key, &self.request_state_key_source) {
            (Some(_), Some(source)) => tracing::info!("requestState key: {source}"),
            (Some(_), None) => tracing::info!("requestState key: Server::request_state_key"),
            (None, _) => tracing::info!(
                "requestState key: drawn at start, known to this process only (replicas: \
                 --request-state-key-file, or --redis to share one)"
            ),
        }
    }

    /// What the transports drive, for requests arriving over `transport`; `Err` if the tools
    /// cannot be served.
    pub(crate) fn into_dispatcher(self, transport: Transport) -> Result<Dispatcher, Error> {
        self.check()?;
        let info = Implementation {
            title: self.title,
            description: self.description,
            website_url: self.website_url,
            icons: self.icons,
            ..Implementation::new(self.name, self.version)
        };
        let ttl_ms = u64::try_from(self.cache_ttl.as_millis()).unwrap_or(u64::MAX);
        // Stateless HTTP keeps no legacy session and has no GET stream: nothing could reach a
        // legacy client after its request was answered.
        #[cfg(feature = "http")]
        let legacy_changes = transport != Transport::Http || !self.http.is_stateless();
        #[cfg(not(feature = "http"))]
        let legacy_changes = true;
        let listings = Listings::new(self.page_size, ttl_ms, &info);
        // Served over HTTP with Redis, the replicas share their tasks there.
        #[cfg(feature = "redis")]
        let redis = (transport == Transport::Http)
            .then(|| self.http.redis_connected().cloned())
            .flatten();
        #[cfg(feature = "redis")]
        let task_store = self.task_store.or_else(|| {
            redis.as_ref().map(|redis| {
                let store = crate::redis::RedisTaskStore::new(redis);
                Arc::new(store.within(self.task_settings.finished)) as Arc<dyn TaskStore>
            })
        });
        #[cfg(not(feature = "redis"))]
        let task_store = self.task_store;
        let tasks = Arc::new(Tasks::new(
            task_store.unwrap_or_else(|| {
                Arc::new(MemoryTaskStore::new().within(self.task_settings.finished))
            }),
            TaskSettings {
                max_tasks: self.limits.tasks,
                max_tasks_per_principal: self.limits.tasks_per_principal,
                ..self.task_settings
            },
        ));
        let closing = CancellationToken::new();
        #[cfg(feature = "redis")]
        if let Some(redis) = &redis {
            crate::replicas::tasks::join(redis, &tasks, &closing);
            // The rate limits (the server's, and the tools' own) are counted by every replica.
            let shared = crate::replicas::rate_limit::SharedLimits::new(redis.clone());
            self.limits.rate.share(Arc::new(shared));
        }
        Ok(Dispatcher::new(ServerState {
            info,
            instructions: self.instructions,
            page_size: self.page_size,
            ttl_ms,
            apps: apps::used(&self.tools.definitions(), &self.resources.listed()),
            tools: self.tools,
            prompts: self.prompts,
            prompts_handle: self.prompts_handle.into_inner(),
            resources: self.resources,
            changes: self.changes,
            closing,
            states: Arc::new(self.states),
            hooks: self.hooks.into(),
            middleware: self.middleware.into(),
            transport,
            early_answers: self.early_answers,
            legacy_changes,
            sealer: Arc::new(match self.request_state_key {
                Some(current) => {
                    Sealer::new(Some(current)).with_previous(self.previous_request_state_key)
                }
                None => Sealer::new(None),
            }),
            tasks,
            listings,
            limits: self.limits,
            visibility: self.visibility,
            #[cfg(feature = "skills")]
            skills: Arc::new(crate::skill::SkillSet::new(self.skills)),
        }))
    }
}

/// What a serving task ended with: its own result; a panic in it goes on as that panic (a bug,
/// not an IO problem); a task cancelled is an [`Error::Io`].
pub(super) fn joined(
    ended: Result<Result<(), Error>, tokio::task::JoinError>,
) -> Result<(), Error> {
    match ended {
        Ok(served) => served,
        Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
        Err(error) => Err(io::Error::other(error).into()),
    }
}
