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
//! Replicas share one `requestState` key: a 2026-07-28 client's retry after a question may land
//! on another replica. Give every replica the same key
//! ([`Server::request_state_key`](crate::Server::request_state_key), `--request-state-key-file`),
//! or none: then `serve_http` and `serve_http_app` (`run()`'s `--http`) with Redis take the key at
//! `{prefix}request-state-key:current`, drawn by the first replica to start (`SET NX`), in the key
//! file's format (rotate it by writing `NEW,OLD` there and restarting the replicas, then `NEW`
//! ten minutes after the last restart). A key there that cannot be read stops the server at
//! start, naming `--request-state-key-file`. A line at start says which key is in use. (A server
//! built with `into_router` or `into_service` takes no key from Redis: give it one; without one it
//! says so in a warning at start.)
//!
//! # What each way of running keeps
//!
//! | | one process | `--stateless` replicas | replicas on Redis (`--redis URL`) |
//! | --- | --- | --- | --- |
//! | 2026-07-28 clients (calls, a tool's questions) | yes | yes (one `requestState` key) | yes (one `requestState` key) |
//! | legacy sessions (`Mcp-Session-Id`: every 2025-11-25 host) | yes | no: every request stands alone, no GET stream | yes, on any replica, no sticky routing |
//! | a legacy tool's questions (elicitation, sampling, roots) | yes | no (the tool is told it cannot ask) | yes: the answer may reach any replica |
//! | `list_changed`, `resources/updated` | to this process's listeners | 2026-07-28 listeners of the replica that raised it | to every listener on every replica |
//! | resuming a legacy stream (`Last-Event-ID`) | yes, while the process lives | no | yes, on any replica; a call whose replica died ends with an error response |
//! | tasks (`#[tool(task)]`) | in memory | on the replica that made them | polled, answered and cancelled on any replica; a task whose replica died is `failed` |
//!
//! # Running replicas
//!
//! Every replica gets the same flags (or variables, in a container):
//!
//! | flag | variable | what |
//! | --- | --- | --- |
//! | `--http 0.0.0.0:8080` | | where to listen (path `/mcp`; `/healthz` beside it) |
//! | `--allow-host mcp.example.com` | `MCP_ALLOWED_HOSTS` | the name clients use (else only localhost is answered) |
//! | `--redis redis://redis:6379` | `MCP_REDIS_URL` | the Redis every replica shares |
//! | `--request-state-key-file /run/secrets/state-key` | `MCP_REQUEST_STATE_KEY` | the same 32-byte key on every replica (`openssl rand -base64 32`): a 2026-07-28 client's retry after a question may land on another replica, which must open the `requestState` the first one sealed. Rotate it by giving `CURRENT,PREVIOUS` to every replica, then dropping `PREVIOUS`. Without it, the replicas share one kept in Redis (above) |
//!
//! # Behind nginx
//!
//! Round robin, no sticky sessions; nothing buffered (events must leave as they are written),
//! long reads (a GET or `subscriptions/listen` stream stays open for hours):
//!
//! ```nginx
//! upstream mcp {
//!     server 10.0.0.11:8080;
//!     server 10.0.0.12:8080;
//!     server 10.0.0.13:8080;
//!     keepalive 64;
//! }
//! server {
//!     listen 443 ssl;
//!     server_name mcp.example.com;
//!     location /mcp {
//!         proxy_pass http://mcp;
//!         proxy_http_version 1.1;          # keep-alive to the replicas, chunked streams
//!         proxy_set_header Connection "";
//!         proxy_set_header Host $http_host; # the name --allow-host allows
//!         proxy_buffering off;             # server-sent events leave at once
//!         proxy_cache off;
//!         proxy_read_timeout 1h;           # long-lived streams (keep-alive comments every 15 s)
//!         proxy_next_upstream error timeout;
//!     }
//! }
//! ```
//!
//! `benches/replicas/serve.sh` in the repository starts three replicas behind exactly this
//! (on localhost), and the scale-out tests run the official clients through it. Only `/mcp`
//! passes through the balancer: probe `/healthz` on each replica's own address (as Kubernetes
//! does, below), since through nginx it would say how one replica, any one, is doing.
//!
//! The Redis URL is `redis://[user:password@]host:port[/db]` or
//! `redis+unix:///path/to/redis.sock`. TLS to Redis (`rediss://`) is not built in: keep Redis on
//! the replicas' private network, or, for a managed Redis that only speaks TLS, run a TLS tunnel
//! beside each replica (stunnel, a sidecar) and give the replica its local `redis://` address.
//! `MCP_REDIS_URL` is read only when serving HTTP (`--http`): a stdio server has one client and
//! nothing to share.
//!
//! # On Kubernetes
//!
//! A `Deployment` of N replicas, a `Service` in front (no session affinity needed), the Redis
//! URL and the `requestState` key from a `Secret`, and `/healthz` as the readiness probe: it
//! answers `503` from the moment a replica starts shutting down (SIGTERM), so the Service stops
//! sending it new clients while its calls finish (`HttpConfig::shutdown_grace`, 10 s; set the
//! pod's `terminationGracePeriodSeconds` above it).
//!
//! ```yaml
//! apiVersion: apps/v1
//! kind: Deployment
//! metadata: { name: mcp }
//! spec:
//!   replicas: 3
//!   selector: { matchLabels: { app: mcp } }
//!   template:
//!     metadata: { labels: { app: mcp } }
//!     spec:
//!       terminationGracePeriodSeconds: 30
//!       containers:
//!         - name: mcp
//!           image: registry.example.com/mcp:1.0.0
//!           args: ["--http", "0.0.0.0:8080"]
//!           env:
//!             - { name: MCP_ALLOWED_HOSTS, value: "mcp.example.com" }
//!             - name: MCP_REDIS_URL
//!               valueFrom: { secretKeyRef: { name: mcp, key: redis-url } }
//!             - name: MCP_REQUEST_STATE_KEY
//!               valueFrom: { secretKeyRef: { name: mcp, key: request-state-key } }
//!           ports: [{ containerPort: 8080 }]
//!           readinessProbe:
//!             httpGet: { path: /healthz, port: 8080 }
//!             periodSeconds: 2
//! ---
//! apiVersion: v1
//! kind: Service
//! metadata: { name: mcp }
//! spec:
//!   selector: { app: mcp }
//!   ports: [{ port: 80, targetPort: 8080 }]
//! ```
//!
//! # Legacy sessions
//!
//! What `initialize` settled (the negotiated version, the client's capabilities, the lists it
//! hears of, its log level, the tags it enabled or disabled for itself, and with bearer auth the
//! principal that opened it) is a JSON record at `{prefix}session:{id}`, changed by
//! `logging/setLevel` and by a tool's [`Context::enable_tags`](crate::Context::enable_tags)
//! (written, and told to the replicas holding the session, before the tool goes on: the
//! session's GET stream, wherever it is, hears `list_changed`); its resource subscriptions are a hash
//! beside it, `{prefix}subscriptions:{id}`, changed one URI at a time by `resources/subscribe`
//! and `resources/unsubscribe` (the replicas holding the session are told at once, of that URI
//! only: a subscription costs the same whatever came before it). Its TTL is the session idle timeout (one minute for a session that never did
//! anything after `initialize`), refreshed by each request in the one Redis round trip a legacy
//! request costs (`GETEX`), and kept alive while a replica holds its GET stream or one of its
//! calls. Any replica serves a request naming it (round-robin balancing, no sticky sessions);
//! each replica caches the sessions it serves (their calls in flight, their questions, their
//! GET stream) within `HttpConfig::max_sessions`. Session ids stay 128 random bits, bound to
//! their principal: another principal's id, an unknown one, an expired one are `404` on every
//! replica. DELETE on any replica ends the session everywhere: its calls are cancelled and its
//! GET stream closes wherever they run. 2026-07-28 requests never touch Redis, but for the rate
//! limits below.
//!
//! # What Redis keeps, and its bounds
//!
//! Nothing a client sends is kept in Redis without a bound in bytes:
//!
//! | what | bound | past it |
//! | --- | --- | --- |
//! | a legacy session's record | 16 KiB (of which the tags it enabled or disabled, 4 KiB) | `initialize` refused: `400`, `-32602`; a tag choice past it: `Context::enable_tags` fails, nothing changed |
//! | legacy sessions, every replica together (`sessions:all`, scored by expiry) | `HttpConfig::max_sessions` (1,024): 16 MiB of records | `initialize`: `503` until one ends or expires (a session that never did anything lives a minute) |
//! | a principal's legacy sessions (bearer auth; `sessions-of:{principal}`) | `HttpConfig::max_sessions_per_principal` (32) | its session that would expire first ends on every replica |
//! | a session's resource subscriptions (`subscriptions:{id}`) | as on one replica (`Server`'s limits): 10,000, 1 MiB of URIs | `resources/subscribe` refused, `-32602` |
//! | the events of resumable streams (`events:{stream}`, `stream:{stream}`), every replica together | `HttpConfig::max_replay_bytes` (64 MiB), `max_replay_events` a stream, `replay_ttl` after its last write | the streams written longest ago are forgotten first (a client resuming one gets `400`, unknown event) |
//! | the events waiting to be written there, per stream | 256 | left out of the shared log (logged; the stream's end never is) |
//! | the `requestState` key (`request-state-key:current`) | 32 bytes (two while rotating), no TTL | |
//! | rate limits ([`Server::rate_limit`](crate::Server::rate_limit), `#[tool(rate_limit = …)]`): one key per limit and principal, `rate:{32 hex digits of SHA-256 of the limit and the principal}` | the key (37 bytes past the prefix, whatever the token held) and a number (16 digits), expiring when the principal's budget is whole again (at most the limit's period) | |
//!
//! # Rate limits
//!
//! With Redis, the rate limits are the deployment's, not each replica's: a principal gets the
//! limit once across every replica. Each check, on every request of a server with a limit and
//! every call of a tool with its own, is one round trip: a Lua script reads and advances the
//! principal's GCRA time atomically on Redis's clock (so replicas' clocks need not agree).
//! While Redis cannot be reached each replica counts on its own, in memory as without Redis
//! (up to the limit per replica), and logs one warning per outage (`Redis is unavailable:
//! each replica counts the rate limits on its own until it returns`) and one line when it is
//! back: requests are never refused because Redis is down. A principal's count starts afresh
//! on Redis when it returns (what the replicas counted meanwhile is not carried over).
//!
//! # Answers, cancellations and changes
//!
//! A question a tool asks a legacy client (elicitation, sampling, roots) travels on the POST
//! stream of the call that asked, as without Redis; its request id is `"{replica}-{n}"`, so the
//! client's answer, posted to whichever replica the balancer picks, is sent to the replica
//! whose call waits for it. A `notifications/cancelled` posted to another replica cancels the
//! call where it runs. `tools/list_changed`, `prompts/list_changed`, `resources/list_changed`
//! and `resources/updated` raised on one replica (the [`Tools`](crate::tool::Tools),
//! [`Prompts`](crate::prompt::Prompts) and [`Resources`](crate::resource::Resources) handles)
//! reach the listeners of every replica: legacy GET streams and 2026-07-28
//! `subscriptions/listen` streams. These travel on Redis pub/sub, in the order they were raised.
//!
//! Pub/sub keeps nothing: a message published while Redis cannot be reached, or while a
//! replica's subscription reconnects, is lost (and logged), as is one that finds 1,024 others
//! still waiting to be published. What each loss costs, and what repairs it:
//!
//! | lost | what the client sees |
//! | --- | --- |
//! | a change | the other replicas' listeners do not hear that `list_changed` or `resources/updated`; their next `tools/list` (or read) shows the new state |
//! | an answer to a question | the tool's question waits on until the call's time limit (`HttpConfig::request_timeout`) ends it |
//! | a cancellation | the call runs on until it ends, or its time limit |
//! | a log level, subscription or tag choice set through another replica | the replica holding the session's GET stream applies it at the session's next request there |
//! | a DELETE | the other replicas close the session at its next request there (`404`) or, for one with a GET stream or a call running, at their next keep-alive (a quarter of the idle timeout) |
//!
//! # Faults
//!
//! | what happens | what a client sees |
//! | --- | --- |
//! | Redis cannot be reached at start-up | the server does not start: [`Error::Redis`](crate::Error::Redis) names the URL (password left out); `run()` prints it and exits non-zero |
//! | Redis lost while serving | `initialize` and the requests of legacy sessions: `503`, `Retry-After: 1`, JSON-RPC `-32603` "session store unavailable: …"; one log line per outage; 2026-07-28 requests that need no state keep working; `GET /healthz` says `"redis":"down"` (still `200`) |
//! | Redis back | everything works again without a restart (the connection and the pub/sub subscription reconnect by themselves); sessions Redis lost (a restart without persistence) are `404`, and their clients initialize again |
//! | Redis slow (`DEBUG SLEEP`, a failover) | a request that needs it waits at most the 2 s response timeout (then `503`); other requests go on |
//! | a replica stops | its sessions live on in Redis and are served by the others. A legacy client whose call's answer was streaming resumes through another replica (`GET` with `Last-Event-ID`, as the SDK clients do by themselves): after SIGTERM the call finishes on the stopping replica (within `HttpConfig::shutdown_grace`) and the client gets every event and the result; after a kill it gets every event kept, then a `-32603` error response saying the server running the request stopped before it answered (about 6 s after the death). Its tasks are `failed` within 4 s (see Tasks) |
//!
//! # Health
//!
//! `serve_http` and `serve_http_app` answer `GET /healthz`: `200
//! {"status":"serving","redis":"up"}` (or `"down"`), `503 {"status":"closing",…}` once shutting
//! down. Make it the Kubernetes readiness probe of every replica (see [`crate::http`],
//! "Health"), behind a Service that balances with no session affinity.
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
//! (the next `tasks/get`, anywhere, shows them), and answered `-32603` ("… send the tasks/update
//! again") when they were not taken within 2 seconds (a message of the bus lost, that replica
//! gone): never acknowledged for answers not taken. A `tasks/cancel` cancels the tool at once.
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
//!   death** (plus the difference between the replicas' clocks). A `subscriptions/listen`
//!   stream following it, with nothing told of the death, reads its tasks not over again every
//!   2 seconds: it hears the task `failed` within 6 seconds of the death. A replica stopped gracefully
//!   (SIGTERM) does not wait for its tasks (only for requests in flight): they are reported
//!   `failed` the same way.
//! - **Redis unavailable**: `tasks/*` requests are answered `-32603` (`the task store failed:
//!   Redis could not read the task (…)`, naming no address or key) and no task can be created
//!   until it is back; a running task goes on, its writes failing (logged) until Redis returns.
//!   An outage longer than the lease may get it reported `failed` when Redis returns, before its
//!   replica renews it: that replica then stops the tool (a record over is never overwritten).
//!   A message of the bus lost meanwhile leaves its fallback: a cancellation is also written in
//!   the task's record, read by the running replica at its next lease renewal (2 s); answers
//!   not taken are refused, for the client to send again; a change not told is read by the
//!   `subscriptions/listen` streams within 2 s.
//! - **Redis restarted without persistence**: the tasks are forgotten (`tasks/get` answers
//!   `-32602`, unknown task). Turn on Redis persistence (AOF) if tasks must outlive that.
//!
//! What Redis keeps of tasks, and its bounds (the same settings as in memory):
//!
//! | kept | bound (setter on `Server`, or on [`RedisTaskStore`] given to `Server::task_store`) | past it |
//! | --- | --- | --- |
//! | each task's record, `{prefix}task:{id}` (its JSON, the result included) | its TTL: `task_timeout` + `task_ttl` from its creation (2 hours) | dropped by Redis |
//! | finished tasks, all principals' | 10,000 tasks and 128 MiB of their records' JSON (`max_finished_tasks`, `max_finished_task_bytes`) | the oldest finished are dropped first |
//! | one principal's finished tasks (every unauthenticated caller is one) | 1,000 tasks and 32 MiB (`max_finished_tasks_per_principal`, `max_finished_task_bytes_per_principal`) | that principal's oldest finished are dropped first; a task whose record alone is larger than either byte budget is kept as `failed` (`The task finished, but its result is too large to keep: …`) |
//! | what counts them, `{prefix}tasks-finished*` (sorted sets by expiry, per principal and in all, and their sizes) | an entry per finished task kept, swept as the tasks expire | |
//! | a cancellation asked through another replica, `{prefix}task-cancel:{id}` | one flag per task, with its record's TTL | |
//!
//! A `tasks/cancel` received by a replica not running the task sets only the flag: it never
//! writes back the task's record, which is the running replica's to write. A
//! `subscriptions/listen` reads the tasks it follows (at most 1,024) with one `MGET`.
//!
//! The task caps ([`Server::max_tasks`](crate::Server::max_tasks),
//! [`Server::max_tasks_per_principal`](crate::Server::max_tasks_per_principal)) count the tasks
//! running on one replica: three replicas run up to three times the cap in all.

pub use crate::replicas::Redis;
pub use crate::replicas::tasks::RedisTaskStore;
