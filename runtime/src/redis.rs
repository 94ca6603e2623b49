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
//!
//! # Tasks
//!
//! A server serving HTTP with Redis and no [`Server::task_store`](crate::Server::task_store) keeps
//! its [tasks](crate::task) in Redis ([`RedisTaskStore`]): each task is one JSON record at
//! `{prefix}task:{id}`, dropped by Redis at the task's expiry (its `ttlMs`). A task created on
//! one replica is polled (`tasks/get`), answered (`tasks/update`), cancelled (`tasks/cancel`)
//! and followed (`subscriptions/listen`) through any replica: the tool itself runs on the replica
//! that created the task, and the others reach it over the replicas' bus (Redis pub/sub). A
//! `tasks/update` sent to another replica is acknowledged once the running one took the answers
//! (the next `tasks/get`, anywhere, shows them), a `tasks/cancel` cancels the tool at once.
//!
//! What a task on Redis survives, and what it does not:
//!
//! - **The client going away, or its requests landing on other replicas**: nothing of the task
//!   depends on them.
//! - **A replica other than its own stopping**: nothing changes.
//! - **Its own replica dying** (killed, its host gone): the tool is gone with it. The replica
//!   renews a lease on each of its running tasks every 2 seconds; a task whose lease (4 seconds)
//!   has passed is reported `failed` by any replica that reads it (`statusMessage` and `error`:
//!   "The process running the task stopped before it finished."), so **within 4 seconds of the
//!   death** (plus the difference between the replicas' clocks). A replica stopped gracefully
//!   (SIGTERM) does not wait for its tasks (only for requests in flight): they are reported
//!   `failed` the same way.
//! - **Redis unavailable**: `tasks/*` requests are answered `-32603` (`the task store failed:
//!   Redis could not read the task (…)`, naming no address or key) and no task can be created
//!   until it is back; a running task goes on, its writes failing (logged) until Redis returns.
//!   An outage longer than the lease may get it reported `failed` when Redis returns, before its
//!   replica renews it: that replica then stops the tool (a record over is never overwritten).
//!   A message of the bus lost meanwhile leaves its fallback: a cancellation is also written in
//!   the task's record, read by the running replica at its next lease renewal (2 s).
//! - **Redis restarted without persistence**: the tasks are forgotten (`tasks/get` answers
//!   `-32602`, unknown task). Turn on Redis persistence (AOF) if tasks must outlive that.
//!
//! The task caps ([`Server::max_tasks`](crate::Server::max_tasks),
//! [`Server::max_tasks_per_principal`](crate::Server::max_tasks_per_principal)) count the tasks
//! running on one replica: three replicas run up to three times the cap in all.

pub use crate::replicas::Redis;
pub use crate::replicas::tasks::RedisTaskStore;
