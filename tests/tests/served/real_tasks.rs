//! The official Tasks requester, `@modelcontextprotocol/ext-tasks` (installed with the
//! TypeScript client by `tests/clients/install.sh`), on the official TypeScript client, against
//! the reports example's task tools, over stdio and Streamable HTTP
//! (`tests/clients/ts_tasks.mjs`). At 2026-07-28 (`modern`): a short report answered inline, a
//! long one answered with a task, polled to completion with its progress in the status message;
//! `import_rows`'s question answered through `tasks/update`, the answer reaching the tool; a
//! running task cancelled and staying cancelled; an unknown task id `-32602`; the required-task
//! tool `-32021` for a client without the extension. At 2025-11-25 (`legacy`): no task ever, the
//! report inline with its progress notifications, the required-task tool unlisted and refused. The script
//! prints a line per check and exits non-zero when any fails.
//!
//! Without the clients installed these tests only say so, unless `CI` is set: then they fail.

use mcp_toolbelt_tests::clients::{Sdk, check_script};

const SCRIPT: &str = "ts_tasks.mjs";

#[test]
fn typescript_tasks_http_modern() {
    check_script(Sdk::TypeScript, SCRIPT, "reports", "modern", true);
}

#[test]
fn typescript_tasks_stdio_modern() {
    check_script(Sdk::TypeScript, SCRIPT, "reports", "modern", false);
}

#[test]
fn typescript_tasks_http_legacy() {
    check_script(Sdk::TypeScript, SCRIPT, "reports", "legacy", true);
}

#[test]
fn typescript_tasks_stdio_legacy() {
    check_script(Sdk::TypeScript, SCRIPT, "reports", "legacy", false);
}
