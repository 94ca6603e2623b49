//! The MCP Apps views of the apps example, in a real host: headless Chromium runs the official
//! TypeScript client and the official host bridge (`AppBridge` from
//! `@modelcontextprotocol/ext-apps`), which read each view from `apps --http`, render it in a
//! sandboxed iframe, give it the tool's real input and result, and forward its `tools/call` to
//! the server (`tests/views/host.mjs`, driven by Playwright, with real clicks). Each test asks
//! what a host relies on: the view shows its data and errors, answers the host's requests
//! (teardown included, and while its own call is pending), takes messages only from the host,
//! sizes itself, declares its display modes. A screenshot of each is left in
//! `target/tmp/views/` to look at.
//!
//! Needs Chromium (Debian's `chromium`, which `tests/run.sh` installs, or `$CHROMIUM`) and the
//! host's packages and Node 22 (`bash tests/clients/install.sh`). Without them these tests say
//! so and pass, unless `CI` is set: then they fail.

use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_toolbelt_tests::{CatalogHttp, node22, repo_root};
use serde_json::{Value, json};

/// The browser, or `None`.
fn chromium() -> Option<PathBuf> {
    std::env::var_os("CHROMIUM").map(PathBuf::from).or_else(|| {
        ["chromium", "chromium-browser"]
            .into_iter()
            .find_map(|name| {
                std::env::var_os("PATH").and_then(|path| {
                    std::env::split_paths(&path)
                        .map(|dir| dir.join(name))
                        .find(|candidate| candidate.is_file())
                })
            })
    })
}

/// Node and the browser, or `None` when either (or the host's packages) is missing (a failure
/// under `CI`).
fn host() -> Option<(PathBuf, PathBuf)> {
    let packages = repo_root().join("tests/views/node_modules/playwright-core/package.json");
    let missing = match (chromium(), node22().filter(|_| packages.exists())) {
        (Some(browser), Some(node)) => return Some((node, browser)),
        (None, _) => "chromium is not installed (run bash tests/run.sh: apt-get install chromium)",
        (_, None) => "the views' host is not installed: run bash tests/clients/install.sh",
    };
    assert!(std::env::var_os("CI").is_none(), "{missing}");
    eprintln!("SKIPPED: {missing}");
    None
}

/// How the host renders the view, and the protocol era its client speaks to the server.
#[derive(Clone, Copy)]
struct Setup {
    /// `frame`: the view in the host's sandboxed iframe; `proxy`: the spec's cross-origin
    /// sandbox proxy between them (`tests/views/sandbox-proxy.html`).
    layout: &'static str,
    /// `legacy` (`initialize`) or `modern` (2026-07-28).
    era: &'static str,
}

const FRAME_LEGACY: Setup = Setup {
    layout: "frame",
    era: "legacy",
};
const FRAME_MODERN: Setup = Setup {
    layout: "frame",
    era: "modern",
};
const PROXY_LEGACY: Setup = Setup {
    layout: "proxy",
    era: "legacy",
};
const PROXY_MODERN: Setup = Setup {
    layout: "proxy",
    era: "modern",
};

/// One view for [`render_all`]: the view of `tool` called with `arguments`, in the host set up as
/// `setup`, which then does `actions` (see `tests/views/host.mjs`); its screenshot is saved as
/// `name-layout-era.png`.
fn scenario(name: &str, setup: Setup, tool: &str, arguments: &Value, actions: &[&str]) -> Value {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("views");
    std::fs::create_dir_all(&out).expect("target/tmp/views");
    let uri = match tool {
        "show-albums" => "ui://albums/view.html",
        _ => "ui://review/purchase.html",
    };
    let Setup { layout, era } = setup;
    json!({
        "era": era,
        "layout": layout,
        "tool": tool,
        "arguments": arguments,
        "uri": uri,
        "actions": actions,
        "screenshot": out.join(format!("{name}-{layout}-{era}.png")),
    })
}

/// Renders `scenarios` one after the other in one browser, against one fresh `apps --http`, and
/// returns the host's report on each.
fn render_all(scenarios: &[Value]) -> Vec<Value> {
    let (node, browser) = host().expect("checked by the caller");
    let server = CatalogHttp::start_example("apps", |address| address.to_string(), &[], &[]);
    let output = Command::new(node)
        .arg(repo_root().join("tests/views/host.mjs"))
        .arg(browser)
        .arg(server.url())
        .arg(Value::from(scenarios).to_string())
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let reports = serde_json::from_str::<Vec<Value>>(stdout.trim()).ok();
    match reports.filter(|reports| output.status.success() && reports.len() == scenarios.len()) {
        Some(reports) => {
            for report in &reports {
                assert_eq!(report["failures"], json!([]), "{report}");
            }
            reports
        }
        None => panic!(
            "the host failed ({}):\n{stdout}\n--- stderr\n{}\n--- apps --http stderr\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr),
            server.stop()
        ),
    }
}

fn shown(report: &Value) -> &str {
    report["shown"].as_str().expect("the view's text")
}

fn assert_shows(report: &Value, expected: &[&str]) {
    for text in expected {
        assert!(
            shown(report).contains(text),
            "{text:?} not in {:?}",
            shown(report)
        );
    }
}

/// The methods of the messages the view sent, in order (the sandbox proxy's own left out).
fn sent(report: &Value) -> Vec<&str> {
    report["fromView"]
        .as_array()
        .expect("fromView")
        .iter()
        .map(|message| message["method"].as_str().unwrap_or("(reply)"))
        .filter(|method| *method != "ui/notifications/sandbox-proxy-ready")
        .collect()
}

#[test]
fn the_albums_view_shows_the_albums_it_is_given() {
    if host().is_none() {
        return;
    }
    let reports = render_all(&[
        scenario("albums", FRAME_LEGACY, "show-albums", &json!({}), &[]),
        scenario("albums", PROXY_MODERN, "show-albums", &json!({}), &[]),
        // Another result, another rendering: the view shows what it is given.
        scenario(
            "albums-one",
            FRAME_MODERN,
            "show-albums",
            &json!({"artist": "blakey"}),
            &[],
        ),
    ]);
    for report in &reports[..2] {
        assert_eq!(report["resource"]["mimeType"], "text/html;profile=mcp-app");
        assert_shows(
            report,
            &[
                "3 albums",
                "Kind of Blue",
                "Miles Davis · 1959",
                "Blue Train",
                "John Coltrane · 1958",
                "Moanin'",
                "Art Blakey · 1958",
            ],
        );
        assert_eq!(
            sent(report)[..2],
            ["ui/initialize", "ui/notifications/initialized"],
            "{report}"
        );
    }
    let one = &reports[2];
    assert_shows(one, &["1 album", "Moanin'"]);
    assert!(!shown(one).contains("Kind of Blue"), "{}", shown(one));
}

/// The one call the view made through the host: its arguments and the server's result.
fn only_call(report: &Value) -> (&Value, &Value) {
    let calls = report["calls"].as_array().expect("calls");
    assert_eq!(calls.len(), 1, "{report}");
    assert_eq!(calls[0]["params"]["name"], "review", "{report}");
    (&calls[0]["params"]["arguments"], &calls[0]["result"])
}

#[test]
fn the_purchase_view_confirms_or_cancels_through_the_host() {
    if host().is_none() {
        return;
    }
    let arguments = json!({"item": "Travel mug", "quantity": 2});
    let reports = render_all(&[
        scenario(
            "purchase",
            PROXY_MODERN,
            "review-purchase",
            &arguments,
            &["click:confirm"],
        ),
        scenario(
            "purchase-cancelled",
            FRAME_LEGACY,
            "review-purchase",
            &arguments,
            &["click:cancel"],
        ),
    ]);
    let report = &reports[0];
    assert_shows(
        report,
        &[
            "Travel mug",
            "48.00",
            "24.00",
            "The purchase of Travel mug was completed",
        ],
    );
    // The view called `review` as the server expects it, and the server completed it.
    let (sent, result) = only_call(report);
    assert_eq!(sent["confirmed"], true);
    assert_eq!(sent["action"], "purchase");
    let order = &report["toolResult"]["structuredContent"]["order"];
    assert_eq!(sent["payload"]["item"], order["item"]);
    assert_eq!(sent["payload"]["total"].as_f64(), order["total"].as_f64());
    assert!(
        sent["decidedAt"]
            .as_str()
            .is_some_and(|at| at.ends_with('Z')),
        "{sent}"
    );
    assert_eq!(
        result["content"],
        json!([{"type": "text", "text": "Completed."}])
    );
    assert_eq!(
        report["disabled"],
        json!(["confirm", "cancel"]),
        "decided once"
    );

    let report = &reports[1];
    assert_shows(report, &["The purchase of Travel mug was cancelled"]);
    let (sent, result) = only_call(report);
    assert_eq!(sent["confirmed"], false);
    assert_eq!(result["structuredContent"]["status"], "cancelled");
}

/// A host may send the tool's result again, or say the call was cancelled: the purchase view
/// offers no decision once it is being removed or one was made (whose call may still be pending),
/// and says so when the call was cancelled.
#[test]
fn the_purchase_view_offers_one_decision_and_none_after_teardown() {
    if host().is_none() {
        return;
    }
    let arguments = json!({"item": "Travel mug", "quantity": 1});
    let purchase =
        |name, setup, actions| scenario(name, setup, "review-purchase", &arguments, actions);
    let reports = render_all(&[
        purchase("purchase-torn-down", FRAME_MODERN, &["teardown", "result"]),
        purchase(
            "purchase-result-during-call",
            PROXY_LEGACY,
            &["result-during-call", "click:confirm"],
        ),
        purchase("purchase-tool-cancelled", FRAME_LEGACY, &["tool-cancelled"]),
    ]);
    let [torn_down, during_call, cancelled] = &reports[..] else {
        unreachable!("three reports")
    };
    assert_eq!(torn_down["result"], json!({"result": {}}), "{torn_down}");
    assert_eq!(
        torn_down["disabled"],
        json!(["confirm", "cancel"]),
        "{torn_down}"
    );

    assert_shows(during_call, &["The purchase of Travel mug was completed"]);
    only_call(during_call);
    assert_eq!(
        during_call["disabled"],
        json!(["confirm", "cancel"]),
        "decided once: {during_call}"
    );

    assert_eq!(
        cancelled["toolCancelled"],
        json!({"result": {}}),
        "{cancelled}"
    );
    assert_shows(cancelled, &["Cancelled."]);
    assert!(
        !shown(cancelled).contains("Travel mug"),
        "{}",
        shown(cancelled)
    );
    assert_eq!(
        cancelled["disabled"],
        json!(["confirm", "cancel"]),
        "{cancelled}"
    );
}

/// A view opened on its own (not framed by a host) is its own parent: it must not take its own
/// messages for the host's (answer its own `ui/initialize`, and fail on the answer).
#[test]
fn a_view_opened_outside_a_host_ignores_its_own_messages() {
    if host().is_none() {
        return;
    }
    let scenarios = ["albums", "purchase"]
        .map(|view| json!({"unframed": repo_root().join(format!("examples/apps/{view}.html"))}));
    for report in render_all(&scenarios) {
        assert!(!shown(&report).contains("Failed"), "{report}");
        assert_eq!(report["console"], json!([]), "{report}");
    }
}

/// Each view, as `(name, tool, arguments)`.
const VIEWS: [(&str, &str, &str); 2] = [
    ("albums", "show-albums", "{}"),
    (
        "purchase",
        "review-purchase",
        r#"{"item": "Espresso cup", "quantity": 3}"#,
    ),
];

fn arguments(text: &str) -> Value {
    serde_json::from_str(text).expect("JSON arguments")
}

/// Issue 28 item 1: a host request is answered, `{}` for `ping` and `ui/resource-teardown` (which
/// a host sends before it removes the view, and waits for), `-32601` for any other; nothing goes
/// wrong in the page meanwhile.
#[test]
fn the_views_answer_the_hosts_requests() {
    if host().is_none() {
        return;
    }
    let setups = [FRAME_MODERN, PROXY_LEGACY];
    let scenarios = VIEWS
        .into_iter()
        .zip(setups)
        .map(|((view, tool, args), setup)| {
            let actions = ["requests", "teardown"];
            scenario(
                &format!("{view}-requests"),
                setup,
                tool,
                &arguments(args),
                &actions,
            )
        });
    let reports = render_all(&scenarios.collect::<Vec<_>>());
    for ((view, ..), report) in VIEWS.into_iter().zip(&reports) {
        let requests = &report["requests"];
        assert_eq!(requests["ping"], json!({"result": {}}), "{view}: {report}");
        assert_eq!(
            requests["unknown"]["error"]["code"], -32601,
            "{view}: {report}"
        );
        assert_eq!(
            report["teardown"],
            json!({"result": {}}),
            "{view}: {report}"
        );
        assert_eq!(report["console"], json!([]), "{view}: {report}");
        if view == "purchase" {
            // Being removed, the view starts no decision.
            assert_eq!(report["disabled"], json!(["confirm", "cancel"]), "{report}");
        }
    }
}

/// Issue 28 item 2: a request of the host that has the id of the view's pending `tools/call`
/// (ids are per sender) is a request to answer, not the call's reply; the call's real reply
/// still reaches the view, and the server completes the purchase the user sees completed.
#[test]
fn a_host_request_during_a_call_is_answered_not_taken_for_its_reply() {
    if host().is_none() {
        return;
    }
    let scenarios = [FRAME_LEGACY, PROXY_MODERN].map(|setup| {
        scenario(
            "purchase-ping-during-call",
            setup,
            "review-purchase",
            &json!({"item": "Travel mug", "quantity": 1}),
            &["ping-during-call", "click:confirm"],
        )
    });
    for report in &render_all(&scenarios) {
        let ping = &report["pingDuringCall"];
        assert!(ping["callId"].is_number(), "{report}");
        assert_eq!(ping["pingId"], ping["callId"], "the ids collide: {report}");
        assert_eq!(ping["result"], json!({}), "{report}");
        assert_shows(report, &["The purchase of Travel mug was completed"]);
        assert!(!shown(report).contains("Failed"), "{}", shown(report));
        let (_, result) = only_call(report);
        assert_eq!(result["structuredContent"]["status"], "completed");
    }
}

/// Issue 28 item 2: a view takes messages only from the host window: another frame of the page
/// cannot make it show (or send back as the user's decision) a forged result, nor answer its
/// call.
#[test]
fn the_views_take_messages_only_from_the_host() {
    if host().is_none() {
        return;
    }
    let setups = [FRAME_MODERN, PROXY_MODERN];
    let scenarios = VIEWS
        .into_iter()
        .zip(setups)
        .map(|((view, tool, args), setup)| {
            // The purchase view's decision carries what it shows: the host's order, not the forged.
            let actions: &[&str] = if view == "purchase" {
                &["forge", "click:confirm"]
            } else {
                &["forge"]
            };
            scenario(
                &format!("{view}-forged"),
                setup,
                tool,
                &arguments(args),
                actions,
            )
        });
    let reports = render_all(&scenarios.collect::<Vec<_>>());
    for ((view, ..), report) in VIEWS.into_iter().zip(&reports) {
        let after = report["afterForgery"].as_str().expect("afterForgery");
        assert!(!after.contains("Forged"), "{view}: {after:?}");
        assert!(!shown(report).contains("Forged"), "{view}: {report}");
        if view == "purchase" {
            assert_shows(report, &["The purchase of Espresso cup was completed"]);
            let (sent, _) = only_call(report);
            assert_eq!(sent["payload"]["item"], "Espresso cup");
            assert_eq!(sent["payload"]["total"].as_f64(), Some(36.0));
        } else {
            assert_shows(report, &["3 albums"]);
        }
    }
}

/// The last size the view reported (`ui/notifications/size-changed`).
fn last_height(report: &Value) -> f64 {
    let sizes = report["sizes"].as_array().expect("sizes");
    let last = sizes
        .last()
        .unwrap_or_else(|| panic!("no size-changed: {report}"));
    assert!(
        last["width"].as_f64().is_some_and(|width| width > 0.0),
        "{report}"
    );
    last["height"].as_f64().expect("a height")
}

/// Issue 28 item 3: a view tells a host with flexible height how tall it is, all of its content
/// (the host sets the frame's height from it), and again when its content grows.
#[test]
fn the_views_report_their_size() {
    if host().is_none() {
        return;
    }
    let albums = |name, artist: &str| {
        scenario(
            name,
            FRAME_MODERN,
            "show-albums",
            &json!({"artist": artist}),
            &[],
        )
    };
    let reports = render_all(&[
        albums("albums-size-one", "blakey"),
        albums("albums-size-three", ""),
        scenario(
            "purchase-size",
            PROXY_MODERN,
            "review-purchase",
            &json!({"item": "Travel mug", "quantity": 2}),
            &["click:confirm"],
        ),
    ]);
    let [one, three, purchase] = &reports[..] else {
        unreachable!("three reports")
    };
    for report in [one, three] {
        let bottom = report["contentBottom"].as_f64().expect("contentBottom");
        assert!(last_height(report) >= bottom, "{report}");
    }
    assert!(
        last_height(three) > last_height(one),
        "three albums are taller than one: {} and {}",
        last_height(three),
        last_height(one)
    );
    let bottom = purchase["contentBottom"].as_f64().expect("contentBottom");
    assert!(last_height(purchase) >= bottom, "{purchase}");
}

/// Issue 28 item 4: a view declares the display modes it supports (`appCapabilities`).
#[test]
fn the_views_declare_their_display_modes() {
    if host().is_none() {
        return;
    }
    let scenarios = VIEWS.map(|(view, tool, args)| {
        let name = format!("{view}-capabilities");
        scenario(&name, FRAME_LEGACY, tool, &arguments(args), &[])
    });
    for ((view, ..), report) in VIEWS.into_iter().zip(&render_all(&scenarios)) {
        assert_eq!(
            report["appCapabilities"],
            json!({"availableDisplayModes": ["inline"]}),
            "{view}: {report}"
        );
    }
}

/// Issue 28 item 5: an error result (an item the shop does not sell) is shown, not left on the
/// placeholders, and there is nothing to confirm. The albums view shows one too.
#[test]
fn the_views_show_an_error_result() {
    if host().is_none() {
        return;
    }
    let reports = render_all(&[
        scenario(
            "purchase-error",
            FRAME_MODERN,
            "review-purchase",
            &json!({"item": "Teapot", "quantity": 1}),
            &[],
        ),
        scenario(
            "albums-error",
            PROXY_LEGACY,
            "show-albums",
            &json!({"artist": 5}),
            &[],
        ),
    ]);
    let report = &reports[0];
    assert_eq!(report["toolResult"]["isError"], true, "{report}");
    assert_shows(
        report,
        &["unknown item \"Teapot\": we sell Travel mug and Espresso cup"],
    );
    assert!(!shown(report).contains('…'), "{}", shown(report));
    assert_eq!(report["disabled"], json!(["confirm", "cancel"]));

    let report = &reports[1];
    assert_eq!(report["toolResult"]["isError"], true, "{report}");
    assert_shows(report, &["Failed: ", "artist"]);
    assert!(!shown(report).contains("0 albums"), "{}", shown(report));
}
