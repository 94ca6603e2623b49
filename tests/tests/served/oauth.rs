//! The built-in OAuth resource server (`run() --oauth-issuer`, feature `oauth`) against a real
//! authorization server: the npm package `oidc-provider` (`tests/oauth/provider.mjs`, installed by
//! `bash tests/clients/install.sh`), started on a free port, issuing client-credentials JWTs
//! (RS256) for the server's resource URI, and the real server binary (`oauth_server`) over HTTP,
//! in both eras. The bad tokens are forged here with the authorization server's own key, so
//! each is refused for the one thing wrong with it.
//!
//! Without Node or `oidc-provider` these tests say SKIPPED and pass, unless `CI` is set: then
//! they fail.

use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use mcp_toolbelt_tests::CatalogHttp;
use mcp_toolbelt_tests::http::{
    Reply, initialize_body, legacy_call, modern_call, modern_headers, modern_request, post,
    result_text, send_over_socket,
};
use mcp_toolbelt_tests::oauth::{Provider, node, now};
use serde_json::{Value, json};

// ---- the authorization server --------------------------------------------------------------

/// A JWT with `claims`, signed RS256 by the provider's own key.
fn sign(provider: &Provider, claims: &Value) -> String {
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(provider.kid.clone());
    let key = EncodingKey::from_rsa_pem(provider.private_pem.as_bytes()).unwrap();
    jsonwebtoken::encode(&header, claims, &key).unwrap()
}

// ---- the MCP server ------------------------------------------------------------------------

/// `oauth_server --http 127.0.0.1:PORT --oauth-issuer ISSUER`, and its resource URI.
fn serve(issuer: &str) -> (CatalogHttp, String) {
    let binary = Path::new(env!("CARGO_BIN_EXE_oauth_server"));
    let server = CatalogHttp::start_binary(
        binary,
        |address| address.to_string(),
        &["--oauth-issuer", issuer],
        &[],
    );
    let resource = format!("http://{}/mcp", server.address);
    (server, resource)
}

/// What the server answers to a call of `whoami` with `token`, in `era`.
async fn whoami(address: SocketAddr, era: Era, token: Option<&str>) -> Reply {
    let authorization = token.map(|token| format!("Bearer {token}"));
    let with_token = |mut headers: Vec<(&'static str, String)>| {
        if let Some(authorization) = &authorization {
            headers.push(("authorization", authorization.clone()));
        }
        headers
    };
    let send = |body: Value, headers: Vec<(&'static str, String)>| async move {
        let headers: Vec<(&str, &str)> = headers
            .iter()
            .map(|(name, value)| (*name, value.as_str()))
            .collect();
        let mut request = post(&body, &headers);
        *request.uri_mut() = "/mcp".parse().unwrap();
        send_over_socket(address, request).await
    };
    match era {
        Era::Modern => {
            let headers = modern_headers("tools/call", Some("whoami"))
                .into_iter()
                .map(|(name, value)| (name, value.to_owned()))
                .collect();
            send(
                modern_call(1, "whoami", &json!({}), &json!({})),
                with_token(headers),
            )
            .await
        }
        Era::Legacy => {
            let opened = send(initialize_body(), with_token(Vec::new())).await;
            if opened.status != StatusCode::OK {
                return opened;
            }
            let session = opened.header("mcp-session-id").unwrap().to_owned();
            let in_session = || {
                with_token(vec![
                    ("mcp-session-id", session.clone()),
                    ("mcp-protocol-version", "2025-11-25".to_owned()),
                ])
            };
            let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
            let reply = send(initialized, in_session()).await;
            assert_eq!(reply.status, StatusCode::ACCEPTED, "{reply:?}");
            send(legacy_call(2, "whoami", &json!({}), None), in_session()).await
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Era {
    Legacy,
    Modern,
}

const ERAS: [Era; 2] = [Era::Legacy, Era::Modern];

/// Asserts a `401` that points at the metadata (`invalid_token` when a token was sent).
fn assert_refused(reply: &Reply, address: SocketAddr, token_sent: bool, case: &str) {
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{case}: {reply:?}");
    let error = if token_sent {
        "error=\"invalid_token\", "
    } else {
        ""
    };
    assert_eq!(
        reply.header("www-authenticate"),
        Some(
            format!(
                "Bearer {error}resource_metadata=\"http://{address}/.well-known/oauth-protected-resource/mcp\""
            )
            .as_str()
        ),
        "{case}"
    );
}

// ---- the tests -----------------------------------------------------------------------------

#[tokio::test]
async fn tokens_of_the_issuer_for_this_server_are_accepted_and_reach_the_tool() {
    let Some(node) = node() else { return };
    let provider = Provider::start(&node, 0);
    let (server, resource) = serve(&provider.issuer);
    let address = server.address;

    // The RFC 9728 document names the issuer.
    let document = send_over_socket(
        address,
        Request::get("/.well-known/oauth-protected-resource/mcp")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(document.status, StatusCode::OK, "{document:?}");
    assert_eq!(document.json()["resource"], resource);
    assert_eq!(
        document.json()["authorization_servers"],
        json!([provider.issuer])
    );

    let token = provider
        .token("jwt-client", &resource, "notes:read notes:write")
        .await;
    let expected = format!(
        "client=jwt-client subject=jwt-client scopes=notes:read,notes:write iss={}",
        provider.issuer
    );
    for era in ERAS {
        let reply = whoami(address, era, Some(&token)).await;
        assert_eq!(reply.status, StatusCode::OK, "{era:?}: {reply:?}");
        assert_eq!(result_text(&reply.json()), expected, "{era:?}");
    }

    // A resource's read sees the same caller.
    let read = modern_request(
        2,
        "resources/read",
        json!({"uri": "oauth://caller"}),
        &json!({}),
    );
    let authorization = format!("Bearer {token}");
    let mut headers = modern_headers("resources/read", Some("oauth://caller"));
    headers.push(("authorization", &authorization));
    let mut request = post(&read, &headers);
    *request.uri_mut() = "/mcp".parse().unwrap();
    let reply = send_over_socket(address, request).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(
        reply.json().pointer("/result/contents/0/text"),
        Some(&json!(expected)),
        "{reply:?}"
    );
}

#[tokio::test]
async fn missing_and_bad_tokens_are_refused_in_both_eras() {
    let Some(node) = node() else { return };
    let provider = Provider::start(&node, 0);
    let (server, resource) = serve(&provider.issuer);
    let address = server.address;
    let now = now();
    let claims = |changes: Value| {
        let mut claims = json!({
            "iss": provider.issuer, "aud": resource, "sub": "ada", "client_id": "forger",
            "scope": "notes:read", "iat": now, "exp": now + 300,
        });
        for (key, value) in changes.as_object().unwrap() {
            claims[key] = value.clone();
        }
        claims
    };

    // A token forged right (the provider's key, every claim as it should be) is accepted:
    // each case below is refused for its one change.
    let right = sign(&provider, &claims(json!({})));
    for era in ERAS {
        let reply = whoami(address, era, Some(&right)).await;
        assert_eq!(reply.status, StatusCode::OK, "{era:?}: {reply:?}");
        assert_eq!(
            result_text(&reply.json()),
            format!(
                "client=forger subject=ada scopes=notes:read iss={}",
                provider.issuer
            )
        );
    }

    let valid = provider.token("jwt-client", &resource, "notes:read").await;
    let (head, rest) = valid.split_once('.').unwrap();
    let (payload, signature) = rest.split_once('.').unwrap();
    let mut widened: Value =
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
    widened["scope"] = json!("notes:read notes:admin");
    let tampered = format!(
        "{head}.{}.{signature}",
        URL_SAFE_NO_PAD.encode(widened.to_string())
    );
    let none_header = URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"JWT"}"#);
    let unsigned = format!(
        "{none_header}.{}.",
        URL_SAFE_NO_PAD.encode(claims(json!({})).to_string())
    );
    let mut hmac_header = Header::new(Algorithm::HS256);
    hmac_header.kid = Some(provider.kid.clone());
    let hmac_with_public_key = jsonwebtoken::encode(
        &hmac_header,
        &claims(json!({})),
        &EncodingKey::from_secret(provider.public_pem.as_bytes()),
    )
    .unwrap();

    let cases = [
        (
            "expired",
            sign(&provider, &claims(json!({"exp": now - 3600}))),
        ),
        (
            "not yet valid",
            sign(&provider, &claims(json!({"nbf": now + 3600}))),
        ),
        (
            "another audience",
            sign(
                &provider,
                &claims(json!({"aud": "http://127.0.0.1:1/other"})),
            ),
        ),
        (
            "another issuer",
            sign(&provider, &claims(json!({"iss": "http://127.0.0.1:2"}))),
        ),
        (
            "a token of the issuer for another resource",
            provider
                .token("jwt-client", "http://127.0.0.1:1/other", "notes:read")
                .await,
        ),
        ("tampered", tampered),
        ("alg none", unsigned),
        ("HS256 with the public key", hmac_with_public_key),
        ("not a token", "let-me-in".to_owned()),
    ];
    for era in ERAS {
        assert_refused(
            &whoami(address, era, None).await,
            address,
            false,
            "no token",
        );
        for (case, token) in &cases {
            let reply = whoami(address, era, Some(token)).await;
            assert_refused(&reply, address, true, &format!("{era:?}, {case}"));
        }
    }
}

#[tokio::test]
async fn a_rotated_key_is_fetched_once_and_then_accepted() {
    let Some(node) = node() else { return };
    let provider = Provider::start(&node, 0);
    let (server, resource) = serve(&provider.issuer);
    let address = server.address;
    let before = provider.token("jwt-client", &resource, "notes:read").await;
    let reply = whoami(address, Era::Modern, Some(&before)).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");

    // The same issuer, restarted with a new key: its `kid` is not among the keys the server
    // fetched, which it fetches again.
    let old_kid = provider.kid.clone();
    let port = provider.port;
    drop(provider);
    let rotated = Provider::start(&node, port);
    assert_ne!(rotated.kid, old_kid);
    let after = rotated.token("jwt-client", &resource, "notes:write").await;
    for era in ERAS {
        let reply = whoami(address, era, Some(&after)).await;
        assert_eq!(reply.status, StatusCode::OK, "{era:?}: {reply:?}");
        assert!(result_text(&reply.json()).contains("scopes=notes:write"));
    }
    assert_eq!(rotated.jwks_fetches().await, 1, "one fetch for the new kid");
    // The old key is gone from the set: its tokens are refused now, and neither they nor a
    // forged `kid` fetch the keys again within the rate limit.
    assert_refused(
        &whoami(address, Era::Modern, Some(&before)).await,
        address,
        true,
        "a token of the withdrawn key",
    );
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some("a-kid-nobody-published".into());
    let key = EncodingKey::from_rsa_pem(rotated.private_pem.as_bytes()).unwrap();
    let claims = json!({"iss": rotated.issuer, "aud": resource, "exp": now() + 60});
    let unknown_kid = jsonwebtoken::encode(&header, &claims, &key).unwrap();
    for _ in 0..3 {
        assert_refused(
            &whoami(address, Era::Modern, Some(&unknown_kid)).await,
            address,
            true,
            "an unknown kid",
        );
    }
    assert_eq!(
        rotated.jwks_fetches().await,
        1,
        "unknown kids fetch at most once per 30 s"
    );
}

#[test]
fn an_http_issuer_off_loopback_is_a_start_up_error_naming_the_flag() {
    let output = Command::new(env!("CARGO_BIN_EXE_oauth_server"))
        .args([
            "--http",
            "127.0.0.1:0",
            "--oauth-issuer",
            "http://auth.example.com",
        ])
        .env_remove("MCP_OAUTH_ISSUER")
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--oauth-issuer") && stderr.contains("loopback"),
        "{stderr}"
    );
}

#[tokio::test]
async fn opaque_tokens_are_introspected_with_the_servers_own_client() {
    let Some(node) = node() else { return };
    let provider = Provider::start(&node, 0);
    let server = CatalogHttp::start_binary(
        Path::new(env!("CARGO_BIN_EXE_oauth_server")),
        |address| address.to_string(),
        &["--oauth-issuer", &provider.issuer],
        &[
            ("MCP_OAUTH_CLIENT_ID", "resource-server"),
            ("MCP_OAUTH_CLIENT_SECRET", "resource-secret"),
        ],
    );
    let address = server.address;
    let resource = format!("http://{address}/mcp");
    let opaque = provider
        .token("opaque-client", &resource, "notes:read")
        .await;
    assert!(!opaque.contains('.'), "an opaque token: {opaque}");
    let elsewhere = provider
        .token("opaque-client", "http://127.0.0.1:1/other", "notes:read")
        .await;
    let jwt = provider.token("jwt-client", &resource, "notes:write").await;
    for era in ERAS {
        // Twice: the second answered from the cache, the same.
        for _ in 0..2 {
            let reply = whoami(address, era, Some(&opaque)).await;
            assert_eq!(reply.status, StatusCode::OK, "{era:?}: {reply:?}");
            assert_eq!(
                result_text(&reply.json()),
                format!(
                    "client=opaque-client subject=- scopes=notes:read iss={}",
                    provider.issuer
                )
            );
        }
        let reply = whoami(address, era, Some(&jwt)).await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{era:?}: JWTs still: {reply:?}"
        );
        for (case, token) in [
            ("another resource's", elsewhere.as_str()),
            ("unknown", "an-opaque-token-nobody-issued"),
        ] {
            let reply = whoami(address, era, Some(token)).await;
            assert_refused(&reply, address, true, &format!("{era:?}, {case}"));
        }
    }
}

#[tokio::test]
async fn an_issuer_that_cannot_be_reached_is_a_503_not_a_401() {
    // A port nothing listens on (the issuer's metadata cannot be read): the token may be good.
    let (server, _) = serve("http://127.0.0.1:1");
    let reply = whoami(server.address, Era::Modern, Some("e30.e30.sig")).await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{reply:?}");
    assert_eq!(reply.header("retry-after"), Some("5"));
}

#[tokio::test]
async fn an_access_tokens_typ_and_an_es256_key_are_accepted_and_other_typs_refused() {
    let Some(node) = node() else { return };
    let provider = Provider::start(&node, 0);
    let (server, resource) = serve(&provider.issuer);
    let address = server.address;
    let claims = json!({
        "iss": provider.issuer, "aud": resource, "sub": "ada", "client_id": "forger",
        "scope": "notes:read", "exp": now() + 300,
    });
    let with_typ = |typ: Option<&str>| {
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(provider.kid.clone());
        header.typ = typ.map(str::to_owned);
        let key = EncodingKey::from_rsa_pem(provider.private_pem.as_bytes()).unwrap();
        jsonwebtoken::encode(&header, &claims, &key).unwrap()
    };
    // The provider's own ES256 tokens (client `es-client`), and one forged with its P-256 key.
    let es_issued = provider.token("es-client", &resource, "notes:read").await;
    let es_header: Value = serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(es_issued.split('.').next().unwrap())
            .unwrap(),
    )
    .unwrap();
    assert_eq!(es_header["alg"], "ES256", "{es_header}");
    // RFC 9068's type, as oidc-provider writes it.
    assert_eq!(es_header["typ"], "at+jwt", "{es_header}");
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some(provider.es_kid.clone());
    header.typ = Some("at+jwt".into());
    let key = EncodingKey::from_ec_pem(provider.es_private_pem.as_bytes()).unwrap();
    let es_forged = jsonwebtoken::encode(&header, &claims, &key).unwrap();

    let accepted = [
        ("typ at+jwt", with_typ(Some("at+jwt"))),
        (
            "typ application/at+jwt",
            with_typ(Some("application/at+jwt")),
        ),
        (
            "typ AT+JWT (media types ignore case)",
            with_typ(Some("AT+JWT")),
        ),
        ("typ JWT (Keycloak, Entra ID, Auth0)", with_typ(Some("JWT"))),
        ("no typ (Okta)", with_typ(None)),
        ("ES256, issued by the provider", es_issued),
        ("ES256, signed with the provider's P-256 key", es_forged),
    ];
    let refused = [
        ("typ dpop+jwt (a DPoP proof)", with_typ(Some("dpop+jwt"))),
        (
            "typ logout+jwt (a logout token)",
            with_typ(Some("logout+jwt")),
        ),
        ("typ secevent+jwt", with_typ(Some("secevent+jwt"))),
    ];
    for era in ERAS {
        for (case, token) in &accepted {
            let reply = whoami(address, era, Some(token)).await;
            assert_eq!(reply.status, StatusCode::OK, "{era:?}, {case}: {reply:?}");
        }
        for (case, token) in &refused {
            let reply = whoami(address, era, Some(token)).await;
            assert_refused(&reply, address, true, &format!("{era:?}, {case}"));
        }
    }
}

#[tokio::test]
async fn a_kept_token_is_refused_once_past_its_exp() {
    let Some(node) = node() else { return };
    let provider = Provider::start(&node, 0);
    let (server, resource) = serve(&provider.issuer);
    let address = server.address;
    // Expired 58 s ago: within the 60 s allowed for clocks that differ, for 2 s more.
    let exp = now() - 58;
    let claims = json!({
        "iss": provider.issuer, "aud": resource, "sub": "ada", "client_id": "forger",
        "scope": "notes:read", "exp": exp,
    });
    let token = sign(&provider, &claims);
    for era in ERAS {
        let reply = whoami(address, era, Some(&token)).await;
        assert_eq!(reply.status, StatusCode::OK, "{era:?}: {reply:?}");
    }
    // Verified and kept: past its `exp` (and the 60 s), it is refused all the same.
    while now() <= exp + 60 {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    for era in ERAS {
        let reply = whoami(address, era, Some(&token)).await;
        assert_refused(&reply, address, true, &format!("{era:?}, expired since"));
    }
}

#[tokio::test]
async fn each_token_is_verified_for_itself_not_for_its_subject() {
    let Some(node) = node() else { return };
    let provider = Provider::start(&node, 0);
    let (server, resource) = serve(&provider.issuer);
    let address = server.address;
    let token = |scope: &str, aud: &str| {
        let claims = json!({
            "iss": provider.issuer, "aud": aud, "sub": "ada", "client_id": "forger",
            "scope": scope, "exp": now() + 300,
        });
        sign(&provider, &claims)
    };
    let reading = token("notes:read", &resource);
    let writing = token("notes:write", &resource);
    let elsewhere = token("notes:read", "http://127.0.0.1:1/other");
    // `reading`'s payload under `writing`'s signature.
    let spliced = format!(
        "{}.{}",
        reading.rsplit_once('.').unwrap().0,
        writing.rsplit_once('.').unwrap().1
    );
    let scopes = |reply: &Reply| {
        assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
        let answer = reply.json();
        result_text(&answer)
            .split(' ')
            .find_map(|part| part.strip_prefix("scopes="))
            .unwrap()
            .to_owned()
    };
    for era in ERAS {
        // Each asked twice: the second answer is the kept one, and still its own token's.
        for _ in 0..2 {
            let reply = whoami(address, era, Some(&reading)).await;
            assert_eq!(scopes(&reply), "notes:read", "{era:?}");
            let reply = whoami(address, era, Some(&writing)).await;
            assert_eq!(scopes(&reply), "notes:write", "{era:?}");
            for (case, bad) in [("another audience", &elsewhere), ("spliced", &spliced)] {
                let reply = whoami(address, era, Some(bad)).await;
                assert_refused(&reply, address, true, &format!("{era:?}, {case}"));
            }
        }
    }
}
