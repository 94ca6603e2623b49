//! Replicas behind a load balancer, sharing one Redis (feature `redis`).
//!
//! One replica serves every 2026-07-28 client by itself; what a legacy client builds with
//! `initialize` lives between its requests, and so do the events of a stream a client may
//! resume, the tasks a client polls, and the notifications one replica raises for clients
//! listening on another. With Redis, all of that is kept there, so any replica answers any
//! request: round-robin balancing with no sticky sessions works for every client.
//!
//! Turn it on with [`HttpConfig::redis`](crate::http::HttpConfig::redis) (or, for a server you
//! build yourself with [`Server::into_router`](crate::Server::into_router),
//! [`Redis::connect`] and [`HttpConfig::redis_store`](crate::http::HttpConfig::redis_store)),
//! or with `run()`'s `--redis URL` (`MCP_REDIS_URL`):
//!
//! ```no_run
//! use mcp_toolbelt::Server;
//! use mcp_toolbelt::http::HttpConfig;
//!
//! # async fn serve() -> Result<(), mcp_toolbelt::Error> {
//! Server::new("inventory", "1.0.0")
//!     .http_config(HttpConfig::new().redis("redis://redis.internal:6379"))
//!     .serve_http("0.0.0.0:8080".parse().unwrap())
//!     .await
//! # }
//! ```
//!
//! Give every replica the same `requestState` key
//! ([`Server::request_state_key`](crate::Server::request_state_key), `--request-state-key-file`):
//! a 2026-07-28 client's retry after a question may land on another replica.

pub use crate::replicas::Redis;
