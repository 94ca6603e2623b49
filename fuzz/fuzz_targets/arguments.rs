//! A tool's arguments through the whole call path (prepare, validate, deserialize, run, check
//! output) with `TestClient`: the first byte picks the tool, the rest is the JSON arguments.
//! The answer is a result, or `-32602` for arguments that are not an object.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mcp_toolbelt::testing::TestClient;
use mcp_toolbelt_fuzz::{TOOLS, runtime, server};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    static CLIENT: OnceLock<TestClient> = OnceLock::new();
    let Some((&pick, arguments)) = data.split_first() else {
        return;
    };
    let Ok(arguments) = serde_json::from_slice::<Value>(arguments) else {
        return;
    };
    let name = TOOLS[usize::from(pick) % TOOLS.len()];
    if name == "confirm" {
        return; // it waits for the client's answer; `message` fuzzes it in both eras
    }
    let client = CLIENT.get_or_init(|| TestClient::new(server()));
    let object = arguments.is_object() || arguments.is_null();
    match runtime().block_on(client.try_call_tool(name, arguments)) {
        Ok(result) => {
            if !result.is_error {
                assert!(object, "a call ran without object arguments");
            }
        }
        Err(error) => {
            assert_eq!(error.code, -32602, "{error}");
            assert!(!object, "object arguments refused: {error}");
        }
    }
});
