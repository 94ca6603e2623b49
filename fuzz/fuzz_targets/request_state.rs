//! `requestState` opening: any text is refused with `-32602` (only the server's key seals state),
//! and state sealed for some answers (the input, when it is a JSON object) opens to exactly
//! those answers, for the same caller, tool and arguments only.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_toolbelt::__fuzz::StateSealer;
use mcp_toolbelt_fuzz::STATE_KEY;
use serde_json::{Map, Value, json};

fuzz_target!(|data: &[u8]| {
    let sealer = StateSealer::new(STATE_KEY);
    let arguments: Map<String, Value> = json!({"path": "/a"})
        .as_object()
        .cloned()
        .unwrap_or_default();
    if let Ok(text) = std::str::from_utf8(data) {
        let error = sealer
            .open(text, None, "confirm", Some(&arguments))
            .expect_err("state the server never sealed");
        assert_eq!(error.code, -32602);
        assert_eq!(error.message, "Invalid or expired requestState");
    }
    if let Ok(Value::Object(answers)) = serde_json::from_slice::<Value>(data) {
        let state = sealer
            .seal(answers.clone(), None, "confirm", Some(&arguments))
            .expect("sealing works");
        assert_eq!(
            sealer.open(&state, None, "confirm", Some(&arguments)),
            Ok(answers)
        );
        assert!(sealer.open(&state, None, "confirm", None).is_err());
        assert!(
            sealer
                .open(&state, "x", "confirm", Some(&arguments))
                .is_err()
        );
    }
});
