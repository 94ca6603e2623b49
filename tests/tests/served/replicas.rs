//! Past one machine, with real parts: three replicas of `examples/replicas` (each
//! `--http 127.0.0.1:PORT --redis URL --request-state-key-file KEY`) on one `redis-server`,
//! behind nginx (round robin, no stickiness, buffering off), driven by the official Python and
//! TypeScript clients (`tests/clients/py_replicas.py`, `ts_replicas.mjs`) and by raw HTTP:
//!
//! - legacy (2025-11-25) sessions with each client: calls spread over at least 2 replicas, the
//!   GET stream hearing `tools/list_changed` raised on every replica, a tool that asks
//!   (elicitation) answered through the balancer;
//! - 2026-07-28 with each client: a question round whose retry lands on another replica (the
//!   shared `requestState` key; and, with replicas given only `--redis`, the key they agree on
//!   through Redis, each saying so at start);
//! - a replica killed (SIGKILL) or stopped (SIGTERM) while a call streams progress: the client resumes through
//!   nginx with `Last-Event-ID` and sees every event (SIGTERM: and the result; SIGKILL: the
//!   events kept, then the `-32603` error response); and a plain `GET` loop, each `GET` read
//!   for less than a second, killed right after the priming event or a few events: the
//!   `-32603` within about 6 s all the same;
//! - a task created through one replica, polled, answered and cancelled through the others (raw
//!   HTTP to each replica; and the official Tasks requester through nginx against `reports`);
//! - Redis stopped and started under load: new legacy sessions get `503` + `Retry-After` while
//!   it is down, 2026-07-28 calls keep working, everything works again once it is back.
//!
//! Needs `redis-server` and `nginx` (`tests/run.sh` installs them) and the clients (`bash
//! tests/clients/install.sh`): without them these tests say SKIPPED and pass, unless `CI` is
//! set: then they fail. Every process is this test's own, on free ports, killed at its end.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::http::{Method, StatusCode};
use mcp_toolbelt_tests::clients::{Sdk, run_against};
use mcp_toolbelt_tests::http::{
    LEGACY, Reply, bodiless, initialize_body, legacy_call, modern_headers, modern_request, post,
    send_over_socket,
};
use mcp_toolbelt_tests::services::{Nginx, RedisServer, Replicas};
use serde_json::{Value, json};

/// How many replicas run behind the balancer.
const REPLICAS: usize = 3;

/// The tasks extension.
const TASKS: &str = "io.modelcontextprotocol/tasks";

/// Redis, the replicas on it and nginx in front of them.
struct Deployment {
    redis: RedisServer,
    replicas: Replicas,
    nginx: Nginx,
}

impl Deployment {
    /// Everything the parts logged, for a failing test to print.
    fn report(&mut self) -> String {
        format!(
            "--- nginx error.log\n{}--- nginx access.log\n{}{}--- redis log\n{}",
            self.nginx.error_log(),
            self.nginx.access_log(),
            self.replicas.logs(),
            self.redis.logs()
        )
    }

    /// Panics with `message` and everything the parts logged.
    fn fail(&mut self, message: &str) -> ! {
        panic!("{message}\n{}", self.report())
    }
}

/// [`REPLICAS`] replicas of `example` on a fresh Redis behind a fresh nginx; `None` (SKIPPED)
/// when Redis or nginx is not installed.
fn deploy(example: &str) -> Option<Deployment> {
    let redis = RedisServer::start()?;
    let replicas = Replicas::start(example, REPLICAS, &redis.url(), &[]);
    let nginx = Nginx::start(replicas.addresses())?;
    Some(Deployment {
        redis,
        replicas,
        nginx,
    })
}

/// Runs `sdk`'s `script` in `mode` through the balancer; what it printed, or the test fails
/// with its output and every part's log. `None` when the client is not installed (SKIPPED).
fn client(deployment: &mut Deployment, sdk: Sdk, script: &str, mode: &str) -> Option<String> {
    match run_against(sdk, script, mode, &deployment.nginx.url())? {
        Ok(stdout) => {
            // Each check on a line of its own, for `--nocapture`.
            eprint!("{stdout}");
            Some(stdout)
        }
        Err(failure) => deployment.fail(&failure),
    }
}

fn script(sdk: Sdk) -> &'static str {
    match sdk {
        Sdk::TypeScript => "ts_replicas.mjs",
        Sdk::Python => "py_replicas.py",
    }
}

/// `sdk`'s script in `mode` (`legacy`: a session; `modern`: 2026-07-28 rounds) through the
/// balancer.
fn through_the_balancer(sdk: Sdk, mode: &str) {
    let Some(mut deployment) = deploy("replicas") else {
        return;
    };
    let _ = client(&mut deployment, sdk, script(sdk), mode);
}

#[test]
fn typescript_legacy_session_across_replicas() {
    through_the_balancer(Sdk::TypeScript, "legacy");
}

#[test]
fn python_legacy_session_across_replicas() {
    through_the_balancer(Sdk::Python, "legacy");
}

#[test]
fn typescript_modern_rounds_across_replicas() {
    through_the_balancer(Sdk::TypeScript, "modern");
}

#[test]
fn python_modern_rounds_across_replicas() {
    through_the_balancer(Sdk::Python, "modern");
}

/// Replicas given only `--redis` (no `--request-state-key-file`) agree on one `requestState` key
/// through Redis: `sdk`'s question round asked on one replica is finished on another; each
/// replica said at start that its key is shared through Redis.
fn modern_rounds_across_replicas_without_a_key(sdk: Sdk) {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let replicas = Replicas::start_without_key("replicas", REPLICAS, &redis.url(), &[]);
    let Some(nginx) = Nginx::start(replicas.addresses()) else {
        return;
    };
    let mut deployment = Deployment {
        redis,
        replicas,
        nginx,
    };
    if client(&mut deployment, sdk, script(sdk), "modern").is_none() {
        return;
    }
    let logs = deployment.replicas.logs();
    let said = logs
        .matches("requestState key: shared through Redis at mcp:request-state-key:current")
        .count();
    if said != REPLICAS {
        deployment.fail(&format!(
            "{said} of {REPLICAS} replicas said their requestState key is shared through Redis"
        ));
    }
}

#[test]
fn typescript_modern_rounds_across_replicas_without_a_key_file() {
    modern_rounds_across_replicas_without_a_key(Sdk::TypeScript);
}

#[test]
fn python_modern_rounds_across_replicas_without_a_key_file() {
    modern_rounds_across_replicas_without_a_key(Sdk::Python);
}

/// A call streaming progress whose replica the client's script signals (`kill`: SIGKILL,
/// `term`: SIGTERM) after a few events; the script checks what it resumed, this checks that the
/// replica it named is gone.
fn replica_lost_mid_call(sdk: Sdk, mode: &str) {
    let Some(mut deployment) = deploy("replicas") else {
        return;
    };
    let pids: Vec<Option<u32>> = (0..REPLICAS)
        .map(|index| deployment.replicas.pid(index))
        .collect();
    let Some(stdout) = client(&mut deployment, sdk, script(sdk), mode) else {
        return;
    };
    let signalled = stdout
        .lines()
        .find_map(|line| line.strip_prefix("signalled "))
        .and_then(|pid| pid.trim().parse::<u32>().ok());
    let Some(index) = signalled.and_then(|pid| pids.iter().position(|p| *p == Some(pid))) else {
        deployment.fail(&format!(
            "the script signalled no replica of ours ({signalled:?}, replicas {pids:?}):\n{stdout}"
        ));
    };
    if !deployment.replicas.exited(index, Duration::from_secs(30)) {
        deployment.fail(&format!("replica {index} did not exit after SIG{mode}"));
    }
}

#[test]
fn typescript_resumes_a_call_whose_replica_was_killed() {
    replica_lost_mid_call(Sdk::TypeScript, "kill");
}

#[test]
fn python_resumes_a_call_whose_replica_was_killed() {
    replica_lost_mid_call(Sdk::Python, "kill");
}

#[test]
fn typescript_resumes_a_call_whose_replica_was_stopped() {
    replica_lost_mid_call(Sdk::TypeScript, "term");
}

#[test]
fn python_resumes_a_call_whose_replica_was_stopped() {
    replica_lost_mid_call(Sdk::Python, "term");
}

// ---- tasks ---------------------------------------------------------------------------------

/// The `_meta` of a 2026-07-28 request from a client with the tasks extension that can answer
/// questions.
fn task_meta() -> Value {
    json!({"io.modelcontextprotocol/clientCapabilities": {
        "elicitation": {},
        "extensions": {TASKS: {}},
    }})
}

/// A 2026-07-28 request `method` with `params`, sent straight to `replica` (not through the
/// balancer: each step goes where the test says).
async fn to_replica(replica: SocketAddr, method: &str, params: Value) -> Value {
    let name = match method {
        "tools/call" => params["name"].as_str().map(str::to_owned),
        _ => params["taskId"].as_str().map(str::to_owned),
    };
    let body = modern_request(1, method, params, &task_meta());
    let mut request = post(&body, &modern_headers(method, name.as_deref()));
    *request.uri_mut() = "/mcp".parse().unwrap();
    send_over_socket(replica, request).await.json()
}

/// Polls `tasks/get` on `replicas` in turn until the task is `wanted` or over; its last state.
async fn poll_until(replicas: &[SocketAddr], id: &str, wanted: &str) -> Value {
    let mut task = Value::Null;
    for turn in 0..150 {
        let replica = replicas[turn % replicas.len()];
        task = to_replica(replica, "tasks/get", json!({"taskId": id})).await;
        let status = task["result"]["status"].as_str().unwrap_or_default();
        if task.get("error").is_some()
            || status == wanted
            || ["completed", "failed", "cancelled"].contains(&status)
        {
            return task;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    task
}

#[tokio::test(flavor = "multi_thread")]
async fn a_task_created_on_one_replica_is_polled_answered_and_cancelled_on_the_others() {
    let Some(mut deployment) = tokio::task::block_in_place(|| deploy("replicas")) else {
        return;
    };
    let [first, second, third] =
        <[SocketAddr; 3]>::try_from(deployment.replicas.addresses()).expect("three replicas");
    let first_pid = deployment.replicas.pid(0).expect("the first replica runs");
    let outcome = async {
        // Created on the first (it asks for a confirmation first: input_required), seen from the
        // second, answered on the third, completed as seen from the second.
        let call = json!({"name": "slow_job", "arguments": {"seconds": 1, "confirm": true}});
        let created = to_replica(first, "tools/call", call).await;
        let id = created["result"]["taskId"]
            .as_str()
            .ok_or_else(|| format!("no task created: {created}"))?
            .to_owned();
        let task = poll_until(&[second, third], &id, "input_required").await;
        if task["result"]["status"] != "input_required"
            || task["result"]["inputRequests"]["start"].is_null()
        {
            return Err(format!("the other replicas do not see the question: {task}"));
        }
        let answer = json!({"taskId": id, "inputResponses": {"start": {"action": "accept", "content": {"start": true}}}});
        let ack = to_replica(third, "tasks/update", answer).await;
        if ack.get("error").is_some() {
            return Err(format!("tasks/update on the third replica: {ack}"));
        }
        let task = poll_until(&[second, third], &id, "completed").await;
        let text = task["result"]["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        // It ran where it was created, the answer having crossed to it.
        if task["result"]["status"] != "completed" || text != format!("Worked 1 s on pid {first_pid}") {
            return Err(format!("the answered task did not complete on the first replica: {task}"));
        }

        // Created on the second, cancelled on the third, seen cancelled on the first, and
        // staying so.
        let call = json!({"name": "slow_job", "arguments": {"seconds": 60}});
        let created = to_replica(second, "tools/call", call).await;
        let id = created["result"]["taskId"]
            .as_str()
            .ok_or_else(|| format!("no task created: {created}"))?
            .to_owned();
        let cancel = to_replica(third, "tasks/cancel", json!({"taskId": id})).await;
        if cancel.get("error").is_some() {
            return Err(format!("tasks/cancel on the third replica: {cancel}"));
        }
        let task = poll_until(&[first], &id, "cancelled").await;
        if task["result"]["status"] != "cancelled" {
            return Err(format!("the cancelled task is not cancelled: {task}"));
        }
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let task = to_replica(first, "tasks/get", json!({"taskId": id})).await;
        if task["result"]["status"] != "cancelled" {
            return Err(format!("the cancelled task did not stay cancelled: {task}"));
        }
        Ok::<_, String>(())
    }
    .await;
    if let Err(failure) = outcome {
        tokio::task::block_in_place(|| deployment.fail(&failure));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_task_whose_replica_is_killed_is_failed_with_a_reason_seen_from_the_others() {
    let Some(mut deployment) = tokio::task::block_in_place(|| deploy("replicas")) else {
        return;
    };
    let [first, second, third] =
        <[SocketAddr; 3]>::try_from(deployment.replicas.addresses()).expect("three replicas");
    let call = json!({"name": "slow_job", "arguments": {"seconds": 60}});
    let created = to_replica(first, "tools/call", call).await;
    let Some(id) = created["result"]["taskId"].as_str().map(str::to_owned) else {
        let failure = format!("no task created: {created}");
        tokio::task::block_in_place(|| deployment.fail(&failure))
    };
    let working = to_replica(second, "tasks/get", json!({"taskId": id})).await;
    tokio::task::block_in_place(|| deployment.replicas.kill(0));
    let killed_at = Instant::now();
    let task = poll_until(&[second, third], &id, "failed").await;
    let elapsed = killed_at.elapsed();
    eprintln!("failed {elapsed:?} after its replica died: {task}");
    let reason = task["result"]["error"]["message"]
        .as_str()
        .unwrap_or_default();
    let failure = if working["result"]["status"] != "working" {
        Some(format!(
            "the task was not working before its replica died: {working}"
        ))
    } else if task["result"]["status"] != "failed" || reason.is_empty() {
        Some(format!(
            "the task of a dead replica is not failed with a reason: {task}"
        ))
    } else if elapsed > Duration::from_secs(15) {
        Some(format!(
            "the task was failed only {elapsed:?} after its replica died"
        ))
    } else {
        None
    };
    if let Some(failure) = failure {
        tokio::task::block_in_place(|| deployment.fail(&failure));
    }
}

/// The official Tasks requester (`ts_tasks.mjs`: create, poll, answer with `tasks/update`,
/// cancel) through the balancer, against three replicas of the reports example: every request
/// of a task round-robined over them.
#[test]
fn the_typescript_tasks_requester_through_the_balancer() {
    let Some(mut deployment) = deploy("reports") else {
        return;
    };
    let _ = client(&mut deployment, Sdk::TypeScript, "ts_tasks.mjs", "modern");
}

// ---- the harness itself ---------------------------------------------------------------------

/// `whoami` called `times` times through `balancer` with 2026-07-28 requests: the answers.
async fn whoami_through(balancer: SocketAddr, times: u64) -> Vec<Value> {
    let mut pids = Vec::new();
    for id in 0..times {
        let body = modern_request(
            id,
            "tools/call",
            json!({"name": "whoami", "arguments": {}}),
            &json!({}),
        );
        let mut request = post(&body, &modern_headers("tools/call", Some("whoami")));
        *request.uri_mut() = "/mcp".parse().unwrap();
        let reply = send_over_socket(balancer, request).await;
        pids.push(reply.json()["result"]["content"][0]["text"].clone());
    }
    pids
}

/// The parts every test here relies on: nginx spreads requests over every replica (round robin,
/// no stickiness) and sends none to a stopped one; a replica stops at SIGTERM; Redis stops and
/// starts again on its port.
#[tokio::test(flavor = "multi_thread")]
async fn the_balancer_spreads_calls_over_every_replica_and_redis_restarts() {
    let Some(mut deployment) = tokio::task::block_in_place(|| deploy("replicas")) else {
        return;
    };
    let balancer = deployment.nginx.address();
    let pids = whoami_through(balancer, 6).await;
    let expected: Vec<Value> = (0..REPLICAS)
        .map(|index| json!(format!("pid {}", deployment.replicas.pid(index).unwrap())))
        .collect();
    for pid in &expected {
        if !pids.contains(pid) {
            let failure = format!("six calls, not one on {pid}: {pids:?} ({expected:?})");
            tokio::task::block_in_place(|| deployment.fail(&failure));
        }
    }
    let stopped = tokio::task::block_in_place(|| deployment.replicas.stop(2));
    if !stopped.is_some_and(|status| status.success()) {
        let failure = format!("the replica stopped with SIGTERM exited with {stopped:?}");
        tokio::task::block_in_place(|| deployment.fail(&failure));
    }
    let pids = whoami_through(balancer, 4).await;
    if pids.contains(&expected[2]) || pids.iter().any(|pid| !expected.contains(pid)) {
        let failure = format!("calls with a replica stopped: {pids:?} ({expected:?})");
        tokio::task::block_in_place(|| deployment.fail(&failure));
    }
    tokio::task::block_in_place(|| {
        assert!(deployment.redis.answers());
        deployment.redis.stop();
        assert!(!deployment.redis.answers());
        deployment.redis.start_again();
        assert!(deployment.redis.answers());
    });
}

// ---- Redis lost and back -------------------------------------------------------------------

/// A 2026-07-28 `whoami` through `address`; whether it was answered.
async fn modern_whoami(address: SocketAddr, id: u64) -> Result<(), String> {
    let body = modern_request(
        id,
        "tools/call",
        json!({"name": "whoami", "arguments": {}}),
        &json!({}),
    );
    let mut request = post(&body, &modern_headers("tools/call", Some("whoami")));
    *request.uri_mut() = "/mcp".parse().unwrap();
    let reply = send_over_socket(address, request).await;
    let ok = reply.status == StatusCode::OK
        && reply.json()["result"]["content"][0]["text"]
            .as_str()
            .is_some_and(|text| text.starts_with("pid "));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{} {}",
            reply.status,
            String::from_utf8_lossy(&reply.body)
        ))
    }
}

/// A legacy `initialize` through `address`.
async fn initialize(address: SocketAddr) -> Reply {
    let mut request = post(&initialize_body(), &[]);
    *request.uri_mut() = "/mcp".parse().unwrap();
    send_over_socket(address, request).await
}

/// A legacy `whoami` (id `id`) in `session` through `address`: the reply, and the JSON-RPC
/// message it carried (from its JSON body or its SSE stream).
async fn session_whoami(address: SocketAddr, session: &str, id: u64) -> (Reply, Value) {
    let headers = [
        ("mcp-session-id", session),
        ("mcp-protocol-version", LEGACY),
    ];
    let mut request = post(&legacy_call(id, "whoami", &json!({}), None), &headers);
    *request.uri_mut() = "/mcp".parse().unwrap();
    let reply = send_over_socket(address, request).await;
    let message = if reply.content_type().starts_with("text/event-stream") {
        reply.events().pop().unwrap_or_default()
    } else {
        serde_json::from_slice(&reply.body).unwrap_or_default()
    };
    (reply, message)
}

/// Opens a legacy session through `address` and calls `whoami` in it `calls` times (each call
/// through the balancer, so on any replica): the session, and the pids that answered.
async fn legacy_session(address: SocketAddr, calls: u64) -> Result<(String, Vec<String>), String> {
    let reply = initialize(address).await;
    let session = reply
        .header("mcp-session-id")
        .ok_or_else(|| format!("initialize: {reply:?}"))?
        .to_owned();
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", LEGACY),
    ];
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let mut request = post(&initialized, &headers);
    *request.uri_mut() = "/mcp".parse().unwrap();
    let reply = send_over_socket(address, request).await;
    if reply.status != StatusCode::ACCEPTED {
        return Err(format!("initialized: {reply:?}"));
    }
    let mut pids = Vec::new();
    for id in 0..calls {
        let (reply, message) = session_whoami(address, &session, 10 + id).await;
        let text = message["result"]["content"][0]["text"]
            .as_str()
            .ok_or_else(|| format!("whoami in the session: {} {message}", reply.status))?;
        pids.push(text.to_owned());
    }
    Ok((session, pids))
}

/// Whether `reply` refuses as the contract says while Redis is down: `503`, `Retry-After`, and a
/// JSON-RPC `-32603` saying the session store is unavailable.
fn refused_for_redis(reply: &Reply) -> Result<(), String> {
    if reply.status != StatusCode::SERVICE_UNAVAILABLE {
        return Err(format!("not a 503: {reply:?}"));
    }
    if reply.header("retry-after").is_none() {
        return Err(format!("a 503 without Retry-After: {reply:?}"));
    }
    let error = reply.json()["error"].clone();
    let says = error["message"]
        .as_str()
        .is_some_and(|message| message.contains("session store unavailable"));
    if error["code"] != -32603 || !says {
        return Err(format!("the 503's JSON-RPC error: {error}"));
    }
    Ok(())
}

/// 2026-07-28 calls through the balancer from a few clients at once, all along a test: how many
/// were answered, and what went wrong with the others.
struct Load {
    stop: Arc<AtomicBool>,
    answered: Arc<AtomicUsize>,
    failures: Arc<std::sync::Mutex<Vec<String>>>,
    clients: Vec<tokio::task::JoinHandle<()>>,
}

impl Load {
    /// Starts `clients` clients calling `whoami` through `balancer`, one call after another.
    fn start(balancer: SocketAddr, clients: u64) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicUsize::new(0));
        let failures = Arc::new(std::sync::Mutex::new(Vec::new()));
        let clients = (0..clients)
            .map(|client| {
                let (stop, answered, failures) = (stop.clone(), answered.clone(), failures.clone());
                tokio::spawn(async move {
                    let mut id = client * 1_000_000;
                    while !stop.load(Ordering::SeqCst) {
                        id += 1;
                        match modern_whoami(balancer, id).await {
                            Ok(()) => {
                                answered.fetch_add(1, Ordering::SeqCst);
                            }
                            Err(failure) => failures.lock().unwrap().push(failure),
                        }
                    }
                })
            })
            .collect();
        Self {
            stop,
            answered,
            failures,
            clients,
        }
    }

    fn answered(&self) -> usize {
        self.answered.load(Ordering::SeqCst)
    }

    /// Stops the clients: the failures they met.
    async fn stop(self) -> Vec<String> {
        self.stop.store(true, Ordering::SeqCst);
        for client in self.clients {
            let _ = client.await;
        }
        self.failures.lock().unwrap().clone()
    }
}

/// `GET /healthz` of `replica`: its status and body.
async fn health(replica: SocketAddr) -> (StatusCode, Value) {
    let mut request = bodiless(Method::GET, &[]);
    *request.uri_mut() = "/healthz".parse().unwrap();
    let reply = send_over_socket(replica, request).await;
    let body = serde_json::from_slice(&reply.body).unwrap_or(Value::Null);
    (reply.status, body)
}

/// Asks each of `replicas` directly for a new legacy session until it is refused as it must be
/// while Redis is down (`503`, `Retry-After`, `-32603`), within 15 s of `down_at`.
async fn refused_while_down(replicas: &[SocketAddr], down_at: Instant) -> Result<(), String> {
    // Each replica finds out at its next use of Redis (its bus at once, or a request's
    // command within the 2 s response timeout): a new session is refused with 503 while it
    // is down, by every replica (asked one by one, not through the balancer).
    for replica in replicas {
        let reply = loop {
            let reply = initialize(*replica).await;
            if reply.status == StatusCode::SERVICE_UNAVAILABLE
                || down_at.elapsed() > Duration::from_secs(15)
            {
                break reply;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        refused_for_redis(&reply)
            .map_err(|failure| format!("initialize on {replica} with Redis down: {failure}"))?;
    }
    Ok(())
}

/// Waits (15 s at most after `back_at`) until each of `replicas` says Redis is up.
async fn healthy_again(replicas: &[SocketAddr], back_at: Instant) -> Result<(), String> {
    // Each replica sees Redis back at its next command (its heartbeat within a second).
    for replica in replicas {
        let (status, body) = loop {
            let (status, body) = health(*replica).await;
            if body["redis"] == "up" || back_at.elapsed() > Duration::from_secs(15) {
                break (status, body);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        if status != StatusCode::OK || body != json!({"status": "serving", "redis": "up"}) {
            return Err(format!("/healthz once Redis is back: {status} {body}"));
        }
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread")]
async fn redis_stopped_and_started_under_load() {
    let Some(mut deployment) = tokio::task::block_in_place(|| deploy("replicas")) else {
        return;
    };
    let balancer = deployment.nginx.address();
    let replicas = deployment.replicas.addresses().to_vec();
    // A session opened before the load (which shares the balancer's round robin): its calls
    // spread over the replicas.
    let before = legacy_session(balancer, 3).await;
    let load = Load::start(balancer, 4);
    let outcome = async {
        let (session, pids) = before?;
        let mut distinct = pids.clone();
        distinct.sort();
        distinct.dedup();
        if distinct.len() < 2 {
            return Err(format!("one replica served the whole session: {pids:?}"));
        }
        for replica in &replicas {
            let (status, body) = health(*replica).await;
            if status != StatusCode::OK || body != json!({"status": "serving", "redis": "up"}) {
                return Err(format!("/healthz with Redis up: {status} {body}"));
            }
        }

        tokio::task::block_in_place(|| deployment.redis.stop());
        refused_while_down(&replicas, Instant::now()).await?;
        // A session opened before: refused likewise, on whichever replica.
        let (reply, _) = session_whoami(balancer, &session, 50).await;
        refused_for_redis(&reply)
            .map_err(|failure| format!("a session's call with Redis down: {failure}"))?;
        let answered_while_down = load.answered();
        tokio::time::sleep(Duration::from_secs(1)).await;
        if load.answered() <= answered_while_down {
            return Err("2026-07-28 calls stopped being answered while Redis was down".into());
        }
        for replica in &replicas {
            let (status, body) = health(*replica).await;
            if status != StatusCode::OK || body["redis"] != "down" {
                return Err(format!("/healthz with Redis down: {status} {body}"));
            }
        }

        tokio::task::block_in_place(|| deployment.redis.start_again());
        // Back without a restart: new sessions work again, spread over the replicas.
        let back_at = Instant::now();
        loop {
            match legacy_session(balancer, 3).await {
                Ok(_) => break,
                Err(failure) if back_at.elapsed() > Duration::from_secs(15) => {
                    return Err(format!(
                        "no legacy session 15 s after Redis returned: {failure}"
                    ));
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        }
        healthy_again(&replicas, back_at).await?;
        // Redis came back empty (nothing saved): the old session is unknown, its client
        // initializes again.
        let (reply, _) = session_whoami(balancer, &session, 51).await;
        if reply.status != StatusCode::NOT_FOUND {
            return Err(format!("a session Redis lost, after: {reply:?}"));
        }
        Ok::<_, String>(())
    }
    .await;
    let failures = load.stop().await;
    let failure = match outcome {
        Err(failure) => Some(failure),
        Ok(()) if !failures.is_empty() => Some(format!(
            "2026-07-28 calls failed under load while Redis was away: {failures:?}"
        )),
        Ok(()) => None,
    };
    tokio::task::block_in_place(|| {
        if let Some(failure) = failure {
            deployment.fail(&failure);
        }
        // Each replica said so in its log, once for the outage, and said it was back.
        let logs = deployment.replicas.logs();
        let lost = logs.matches("Redis is unavailable").count();
        let back = logs.matches("Redis is available again").count();
        if lost != REPLICAS || back < REPLICAS {
            deployment.fail(&format!(
                "{lost} log lines of Redis lost and {back} of it back, for {REPLICAS} replicas:\n{logs}"
            ));
        }
    });
}

// ---- a call whose replica dies: a plain GET loop -------------------------------------------

/// What a `GET` with `Last-Event-ID` through `balancer` brings within `patience` (a client with
/// a short read timeout, as a plain loop of `curl -m 1` is): its status and the body read.
async fn get_for(
    balancer: SocketAddr,
    session: &str,
    last: &str,
    patience: Duration,
) -> (StatusCode, String) {
    use futures_util::StreamExt as _;
    let mut request = bodiless(
        Method::GET,
        &[
            ("mcp-session-id", session),
            ("mcp-protocol-version", LEGACY),
            ("last-event-id", last),
            ("accept", "text/event-stream"),
        ],
    );
    *request.uri_mut() = "/mcp".parse().unwrap();
    request.headers_mut().insert(
        axum::http::header::HOST,
        format!("localhost:{}", balancer.port()).parse().unwrap(),
    );
    let (mut sender, _driver) = mcp_toolbelt_tests::http::connect(balancer).await;
    let Ok(Ok(response)) = tokio::time::timeout(patience, sender.send_request(request)).await
    else {
        return (StatusCode::REQUEST_TIMEOUT, String::new());
    };
    let status = response.status();
    let mut body = axum::body::Body::new(response.into_body()).into_data_stream();
    let mut text = String::new();
    let until = tokio::time::Instant::now() + patience;
    while let Ok(Some(Ok(chunk))) = tokio::time::timeout_at(until, body.next()).await {
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    (status, text)
}

/// The ids of the SSE events in `text`.
fn event_ids(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| line.strip_prefix("id:"))
        .map(|id| id.trim().to_owned())
        .collect()
}

/// A legacy call streaming progress on replica 0 (directly), which is killed (`SIGKILL`) once the client
/// has seen `seen` events with an id (1: the priming event, sent with the call's first
/// message): `GET`s with `Last-Event-ID` through nginx, each read for at most 700 ms and sent
/// again and again as a plain client with a short timeout would, get the call's `-32603` error
/// response within about 6 s, as the `redis` guide says.
async fn a_get_loop_hears_the_end_of_a_killed_call(seen: usize) {
    use futures_util::StreamExt as _;
    let Some(mut deployment) = deploy("replicas") else {
        return;
    };
    let replica = deployment.replicas.addresses()[0];
    let balancer = deployment.nginx.address();
    let (session, _) = match legacy_session(replica, 0).await {
        Ok(opened) => opened,
        Err(error) => deployment.fail(&error),
    };
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", LEGACY),
    ];
    let call = legacy_call(
        7,
        "count",
        &json!({"steps": 100, "step_ms": 300}),
        Some("counting"),
    );
    let mut request = post(&call, &headers);
    *request.uri_mut() = "/mcp".parse().unwrap();
    request.headers_mut().insert(
        axum::http::header::HOST,
        format!("localhost:{}", replica.port()).parse().unwrap(),
    );
    let (mut sender, _driver) = mcp_toolbelt_tests::http::connect(replica).await;
    let response = sender.send_request(request).await.unwrap();
    let mut body = axum::body::Body::new(response.into_body()).into_data_stream();
    let mut text = String::new();
    while event_ids(&text).len() < seen {
        match tokio::time::timeout(Duration::from_secs(10), body.next()).await {
            Ok(Some(Ok(chunk))) => text.push_str(&String::from_utf8_lossy(&chunk)),
            other => deployment.fail(&format!("the call's stream: {other:?} after {text:?}")),
        }
    }
    let mut last = event_ids(&text).pop().unwrap();
    deployment.replicas.kill(0);
    drop(body);
    let killed = Instant::now();
    let mut tries = Vec::new();
    while killed.elapsed() < Duration::from_secs(15) {
        let (status, body) = get_for(balancer, &session, &last, Duration::from_millis(700)).await;
        tries.push(format!(
            "{:.1}s {status} {body:?}",
            killed.elapsed().as_secs_f64()
        ));
        if let Some(id) = event_ids(&body).pop() {
            last = id;
        }
        let messages = mcp_toolbelt_tests::http::sse_messages(&body);
        if let Some(error) = messages
            .iter()
            .find(|message| message["id"] == 7 && message.get("error").is_some())
        {
            assert_eq!(error["error"]["code"], -32603, "{error}");
            return;
        }
    }
    deployment.fail(&format!(
        "no -32603 for the killed call within 15 s; the GETs:\n{}",
        tries.join("\n")
    ));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_get_loop_hears_a_call_killed_after_its_priming_event() {
    a_get_loop_hears_the_end_of_a_killed_call(1).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_get_loop_hears_a_call_killed_after_a_few_events() {
    a_get_loop_hears_the_end_of_a_killed_call(4).await;
}
