//! Load, as many clients at once bring it: 10,000 calls in flight together over stdio and over
//! HTTP, each answered exactly once (checked by id: none lost, none duplicated); a flood of
//! `initialize`s beyond the session cap refused while the sessions in use keep working; one
//! principal unable to take every session slot. (Slow-loris connections are in
//! `http_connections.rs`.)
//!
//! Each call waits a little (`slow`, 50 ms), so that the 10,000 are truly in flight at once.
//! These tests assert what is answered, never how fast.

use crate::http_tools;
use http_tools::ending;

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use futures_util::future::join_all;
use mcp_toolbelt::{Server, http::AuthInfo, http::HttpConfig, http::ProtectedResourceMetadata};
use mcp_toolbelt_tests::http::{
    in_session, initialize_body, legacy_call, modern_call, modern_headers, open_session, post,
    result_text, router, send,
};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
use tower::ServiceExt as _;

const CALLS: usize = 10_000;

/// A `slow` call that waits 50 ms; `tag` names it in the record of how calls ended.
fn nap(tag: &str) -> Value {
    json!({"tag": tag, "seconds": 0.05})
}

/// Marks `id` answered; fails on a second answer.
fn answered_once(seen: &mut [bool], id: &Value) {
    let id = usize::try_from(id.as_u64().expect("a numeric id")).unwrap();
    assert!(!seen[id], "id {id} answered twice");
    seen[id] = true;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_calls_at_once_over_stdio_are_each_answered_once() {
    let server = Server::new("load", "0").max_calls_in_flight(CALLS);
    let (mut input, server_input) = tokio::io::duplex(64 * 1024);
    let (server_output, output) = tokio::io::duplex(64 * 1024);
    let serving = tokio::spawn(server.serve_io(server_input, server_output));
    let writing = tokio::spawn(async move {
        for id in 0..CALLS {
            let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                              "params": {"name": "slow", "arguments": nap(&format!("stdio {id}"))}});
            input
                .write_all(format!("{call}\n").as_bytes())
                .await
                .unwrap();
        }
        input
    });
    let mut lines = BufReader::new(output).lines();
    let mut seen = vec![false; CALLS];
    for _ in 0..CALLS {
        let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
            .await
            .expect("an answer within 30 s")
            .unwrap()
            .expect("the server is still writing");
        let answer: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(result_text(&answer), "finished", "{answer}");
        answered_once(&mut seen, &answer["id"]);
    }
    drop(writing.await.unwrap());
    let rest = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(rest, None, "nothing after the last answer");
    serving.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_calls_at_once_over_http_are_each_answered_once() {
    let router = router(HttpConfig::new().max_requests(CALLS));
    let headers = modern_headers("tools/call", Some("slow"));
    let calls = (0..CALLS).map(|id| {
        let (router, headers) = (router.clone(), headers.clone());
        tokio::spawn(async move {
            let id = u64::try_from(id).unwrap();
            let call = modern_call(id, "slow", &nap(&format!("http {id}")), &json!({}));
            // Not `send`: its deadline is for one request alone, and these all wait together.
            let reply = router.oneshot(post(&call, &headers)).await.unwrap();
            assert_eq!(reply.status(), StatusCode::OK, "{reply:?}");
            let body = axum::body::to_bytes(reply.into_body(), usize::MAX)
                .await
                .unwrap();
            serde_json::from_slice::<Value>(&body).unwrap()
        })
    });
    let answers = tokio::time::timeout(Duration::from_mins(2), join_all(calls))
        .await
        .expect("every call answered within 2 minutes");
    let mut seen = vec![false; CALLS];
    for answer in answers {
        let answer = answer.unwrap();
        assert_eq!(result_text(&answer), "finished", "{answer}");
        answered_once(&mut seen, &answer["id"]);
    }
    assert!(seen.iter().all(|seen| *seen));
}

/// Past the session cap, sessions in use (a call running) are never pushed out: with every
/// session busy, `initialize` is refused (`503`), however many come at once, and each busy
/// session still answers. (Sessions not in use do make room: `http_fairness.rs`.)
#[tokio::test]
async fn a_flood_of_sessions_is_refused_while_the_sessions_in_use_keep_working() {
    let router = router(
        HttpConfig::new()
            .max_sessions(4)
            .session_idle_timeout(Duration::from_hours(1)),
    );
    let mut sessions = Vec::new();
    for _ in 0..4 {
        sessions.push(open_session(&router).await);
    }
    let busy: Vec<_> = (1..)
        .zip(&sessions)
        .map(|(id, session)| {
            let (router, session) = (router.clone(), session.clone());
            tokio::spawn(async move {
                let tag = format!("busy {id}");
                // 3 s: the calls must outlast the flood below, however slow the machine.
                let call = legacy_call(id, "slow", &json!({"tag": tag, "seconds": 3.0}), None);
                send(&router, post(&call, &in_session(&session))).await
            })
        })
        .collect();
    for id in 1..=4 {
        ending(&format!("busy {id}"), Some("started")).await;
    }
    let flood = (0..200).map(|_| send(&router, post(&initialize_body(), &[])));
    let statuses = join_all(flood).await;
    assert!(
        statuses
            .iter()
            .all(|reply| reply.status == StatusCode::SERVICE_UNAVAILABLE),
        "{:?}",
        statuses
            .iter()
            .map(|reply| reply.status)
            .collect::<Vec<_>>()
    );
    for call in busy {
        let reply = call.await.unwrap();
        assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
        assert_eq!(result_text(&reply.json()), "finished");
    }
    for (id, session) in (5..).zip(&sessions) {
        let call = legacy_call(id, "slow", &nap(&format!("kept {id}")), None);
        let reply = send(&router, post(&call, &in_session(session))).await;
        assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
        assert_eq!(result_text(&reply.json()), "finished");
    }
}

/// With bearer auth, a principal that floods `initialize` makes room among its own sessions
/// only: another principal still opens its sessions, and keeps them.
#[tokio::test]
async fn one_principal_cannot_take_every_session_slot() {
    let metadata = ProtectedResourceMetadata::new("http://localhost/mcp", "https://auth.example");
    let config = HttpConfig::new()
        .max_sessions(8)
        .session_idle_timeout(Duration::from_hours(1))
        .max_requests_per_principal(64)
        .max_sessions_per_principal(2)
        .bearer_auth(metadata, |token: String| async move {
            Some(AuthInfo::new(token))
        });
    let router = Arc::new(router(config));
    let open = async |token: &str| {
        let bearer = format!("Bearer {token}");
        let reply = send(
            &router,
            post(&initialize_body(), &[("authorization", bearer.as_str())]),
        )
        .await;
        (
            reply.status,
            reply.header("mcp-session-id").map(str::to_owned),
        )
    };
    for _ in 0..50 {
        let (status, _) = open("flooder").await;
        assert_eq!(
            status,
            StatusCode::OK,
            "the flooder's own sessions make room"
        );
    }
    let mut kept = Vec::new();
    for _ in 0..2 {
        let (status, session) = open("neighbour").await;
        assert_eq!(status, StatusCode::OK, "room is left for another principal");
        kept.push(session.unwrap());
    }
    for _ in 0..50 {
        open("flooder").await;
    }
    for (id, session) in (1..).zip(&kept) {
        let mut headers = in_session(session).to_vec();
        headers.push(("authorization", "Bearer neighbour"));
        let reply = send(
            &router,
            post(&legacy_call(id, "whoami", &json!({}), None), &headers),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
        assert_eq!(result_text(&reply.json()), "neighbour []");
    }
}
