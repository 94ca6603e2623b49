//! The MCP Apps views of the apps example, rendered in headless Chromium inside a stub host
//! (`tests/views/host.html`): each view is read from the server (`resources/read`), given the
//! server's real tool result through the host bridge, and must show that data; the purchase view's
//! Confirm button must call `review` through the bridge with what the server accepts. A
//! screenshot of each is left in `target/tmp/views/` to look at.
//!
//! Chromium is Debian's `chromium` (`tests/run.sh` installs it), or `$CHROMIUM`. Without it
//! these tests say so and pass, unless `CI` is set: then they fail.

use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_toolbelt_tests::stdio::StdioServer;
use mcp_toolbelt_tests::{example_binary, repo_root};
use serde_json::{Value, json};

/// The browser, or `None` (a failure under `CI`).
fn chromium() -> Option<PathBuf> {
    let found = std::env::var_os("CHROMIUM").map(PathBuf::from).or_else(|| {
        ["chromium", "chromium-browser"]
            .into_iter()
            .find_map(|name| {
                std::env::var_os("PATH").and_then(|path| {
                    std::env::split_paths(&path)
                        .map(|dir| dir.join(name))
                        .find(|candidate| candidate.is_file())
                })
            })
    });
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium is not installed: run bash tests/run.sh (apt-get install chromium)"
        );
        eprintln!("SKIPPED: chromium is not installed (apt-get install chromium, or set CHROMIUM)");
    }
    found
}

/// The apps example over stdio, initialized.
fn apps() -> StdioServer {
    let mut server = StdioServer::spawn(&example_binary("apps"), &[], &[]);
    server.initialize("2025-11-25");
    server
}

fn result(response: Value) -> Value {
    match response.get("result") {
        Some(result) => result.clone(),
        None => panic!("an error: {response}"),
    }
}

fn view(server: &mut StdioServer, uri: &str) -> String {
    let read = result(server.request(uri, "resources/read", json!({"uri": uri})));
    assert_eq!(read["contents"][0]["mimeType"], "text/html;profile=mcp-app");
    read["contents"][0]["text"]
        .as_str()
        .expect("a text view")
        .to_owned()
}

fn call(server: &mut StdioServer, name: &str, arguments: &Value) -> Value {
    result(server.request(
        name,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
    ))
}

/// Loads `scenario` in the stub host in Chromium; returns the host's report (what the view
/// shows, the calls it made) and saves a screenshot as `name.png`.
fn render(browser: &Path, name: &str, scenario: &Value) -> Value {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("views");
    std::fs::create_dir_all(&out).expect("target/tmp/views");
    let host = std::fs::read_to_string(repo_root().join("tests/views/host.html"))
        .expect("tests/views/host.html");
    let page = out.join(format!("{name}.html"));
    // `<\/` keeps the views' own `</script>` from ending the host's script.
    let scenario = scenario.to_string().replace("</", "<\\/");
    std::fs::write(&page, host.replace("/*SCENARIO*/", &scenario)).expect("writes");
    let url = format!("file://{}", page.display());
    let chromium = |extra: &[&str]| {
        let output = Command::new(browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--allow-file-access-from-files",
                "--virtual-time-budget=5000",
                "--window-size=520,440",
            ])
            .args(extra)
            .arg(&url)
            .output()
            .expect("chromium runs");
        assert!(
            output.status.success(),
            "chromium failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let dom = chromium(&["--dump-dom"]);
    let screenshot = out.join(format!("{name}.png"));
    chromium(&[&format!("--screenshot={}", screenshot.display())]);
    let Some((_, rest)) = dom.split_once("<pre id=\"report\">") else {
        panic!("no report in the page:\n{dom}");
    };
    let report = rest
        .split_once("</pre>")
        .map_or(rest, |(report, _)| report)
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&report).unwrap_or_else(|_| panic!("the view never rendered: {report}"))
}

#[test]
fn the_albums_view_shows_the_albums_it_is_given() {
    let Some(browser) = chromium() else {
        return;
    };
    let mut server = apps();
    let scenario = json!({
        "view": view(&mut server, "ui://albums/view.html"),
        "arguments": {},
        "result": call(&mut server, "show-albums", &json!({})),
    });
    let report = render(&browser, "albums", &scenario);
    let shown = report["shown"].as_str().unwrap();
    for expected in [
        "3 albums",
        "Kind of Blue",
        "Miles Davis · 1959",
        "Blue Train",
        "John Coltrane · 1958",
        "Moanin'",
        "Art Blakey · 1958",
    ] {
        assert!(shown.contains(expected), "{expected:?} not in {shown:?}");
    }
    assert_eq!(report["log"][0], "ui/initialize", "{report}");
    assert_eq!(report["log"][1], "ui/notifications/initialized", "{report}");
    // Another result, another rendering: the view shows what it is given.
    let arguments = json!({"artist": "blakey"});
    let one = call(&mut server, "show-albums", &arguments);
    let scenario = json!({"view": scenario["view"], "arguments": arguments, "result": one});
    let shown = render(&browser, "albums-one", &scenario)["shown"].clone();
    let shown = shown.as_str().unwrap();
    assert!(
        shown.contains("1 album") && shown.contains("Moanin'"),
        "{shown:?}"
    );
    assert!(!shown.contains("Kind of Blue"), "{shown:?}");
}

#[test]
fn the_purchase_view_confirms_through_the_host() {
    let Some(browser) = chromium() else {
        return;
    };
    let mut server = apps();
    let arguments = json!({"item": "Travel mug", "quantity": 2});
    let result = call(&mut server, "review-purchase", &arguments);
    let confirmed = call(
        &mut server,
        "review",
        &json!({"action": "purchase", "confirmed": true, "decidedAt": "2026-12-01T12:00:00Z",
                "payload": result["structuredContent"]["order"]}),
    );
    let scenario = json!({
        "view": view(&mut server, "ui://review/purchase.html"),
        "arguments": arguments,
        "result": result,
        "click": "confirm",
        "callResult": confirmed,
    });
    let report = render(&browser, "purchase", &scenario);
    let shown = report["shown"].as_str().unwrap();
    for expected in [
        "Travel mug",
        "48.00",
        "24.00",
        "The purchase of Travel mug was completed",
    ] {
        assert!(shown.contains(expected), "{expected:?} not in {shown:?}");
    }
    // The view called `review` as the server expects it; replayed, the server completes it.
    let calls = report["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 1, "{report}");
    assert_eq!(calls[0]["name"], "review");
    let sent = &calls[0]["arguments"];
    assert_eq!(sent["confirmed"], true);
    let order = &result["structuredContent"]["order"];
    assert_eq!(sent["payload"]["item"], order["item"]);
    // JavaScript writes 48.0 as 48: the same number.
    assert_eq!(sent["payload"]["total"].as_f64(), order["total"].as_f64());
    assert_eq!(sent["action"], "purchase");
    assert!(
        sent["decidedAt"]
            .as_str()
            .is_some_and(|at| at.ends_with('Z')),
        "{sent}"
    );
    let replayed = call(&mut server, "review", sent);
    assert_eq!(
        replayed["content"],
        json!([{"type": "text", "text": "Completed."}])
    );
}
