//! A task on the wire: the `Task` fields, the `DetailedTask` of `tasks/get` and
//! `notifications/tasks`, and the `CreateTaskResult` of a `tools/call`: typed, serialized where
//! they are sent.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::store::{TaskRecord, TaskStatus};

/// The `Task` fields every answer about a task carries.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Task {
    #[serde(rename = "taskId")]
    id: String,
    pub(crate) status: TaskStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    status_message: Option<String>,
    created_at: String,
    /// RFC 3339, to the millisecond: with the status, what tells a listener a task changed.
    pub(crate) last_updated_at: String,
    ttl_ms: u64,
    poll_interval_ms: u64,
}

/// The `DetailedTask` of `tasks/get` and `notifications/tasks`: the task, with `inputRequests`,
/// `result` or `error` as its status has.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DetailedTask {
    #[serde(flatten)]
    pub(crate) task: Task,
    #[serde(skip_serializing_if = "Option::is_none")]
    input_requests: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<Value>,
}

/// The `CreateTaskResult` a `tools/call` is answered with: the task, `resultType: "task"`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CreateTaskResult {
    #[serde(flatten)]
    task: Task,
    result_type: &'static str,
}

/// Milliseconds, as the wire counts them.
fn ms(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl Task {
    /// The `Task` of `record`; `ttl` is its life from creation when its record has no expiry.
    fn of(record: &TaskRecord, ttl: Duration) -> Self {
        // Fixed from creation: the record's expiry, set when it was created.
        let expiry = record.expires_at.unwrap_or(record.created_at + ttl);
        Self {
            id: record.id.clone(),
            status: record.status,
            status_message: record.status_message.clone(),
            created_at: timestamp(record.created_at),
            last_updated_at: timestamp(record.last_updated_at),
            ttl_ms: ms(expiry.duration_since(record.created_at).unwrap_or_default()),
            poll_interval_ms: ms(record.poll_interval),
        }
    }
}

impl DetailedTask {
    /// The `DetailedTask` of `record`, its questions, result or error moved into it.
    pub(crate) fn of(record: TaskRecord, ttl: Duration) -> Self {
        let task = Task::of(&record, ttl);
        let (mut input_requests, mut result, mut error) = (None, None, None);
        match record.status {
            TaskStatus::InputRequired => input_requests = Some(record.input_requests),
            TaskStatus::Completed => result = Some(record.result.unwrap_or_else(|| json!({}))),
            TaskStatus::Failed => {
                error = Some(record.error.unwrap_or_else(|| {
                    json!({"code": crate::jsonrpc::codes::INTERNAL_ERROR, "message": "the task failed"})
                }));
            }
            TaskStatus::Working | TaskStatus::Cancelled => {}
        }
        Self {
            task,
            input_requests,
            result,
            error,
        }
    }
}

impl CreateTaskResult {
    /// The `CreateTaskResult` of `record`, just created.
    pub(crate) fn of(record: &TaskRecord, ttl: Duration) -> Self {
        Self {
            task: Task::of(record, ttl),
            result_type: "task",
        }
    }
}

/// `time` as an RFC 3339 UTC timestamp with milliseconds (`2026-07-28T10:30:00.123Z`).
pub(crate) fn timestamp(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let seconds = since.as_secs();
    let (days, of_day) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil(i64::try_from(days).unwrap_or(0));
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60,
        since.subsec_millis()
    )
}

/// The date of `days` since 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let month = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wire's shapes, to the key: what `tasks/get`, `notifications/tasks` and a
    /// `tools/call` turned task answer.
    #[test]
    fn a_task_is_written_as_the_extension_names_its_fields() {
        let created_at = UNIX_EPOCH + Duration::from_mins(29_753_910);
        let record = TaskRecord {
            id: "t1".into(),
            owner: None,
            status: TaskStatus::InputRequired,
            status_message: Some("asking".into()),
            created_at,
            last_updated_at: created_at + Duration::from_millis(5),
            expires_at: Some(created_at + Duration::from_mins(1)),
            poll_interval: Duration::from_millis(500),
            input_requests: json!({"sure": {"method": "elicitation/create"}})
                .as_object()
                .unwrap()
                .clone(),
            result: None,
            error: None,
            lease_until: None,
            cancel_requested: false,
            replica: None,
        };
        let task = json!({
            "taskId": "t1",
            "status": "input_required",
            "statusMessage": "asking",
            "createdAt": "2026-07-28T10:30:00.000Z",
            "lastUpdatedAt": "2026-07-28T10:30:00.005Z",
            "ttlMs": 60_000,
            "pollIntervalMs": 500,
        });
        let mut created = task.clone();
        created["resultType"] = json!("task");
        let wrote = serde_json::to_value(CreateTaskResult::of(&record, Duration::ZERO)).unwrap();
        assert_eq!(wrote, created);
        let mut detailed = task.clone();
        detailed["inputRequests"] = json!({"sure": {"method": "elicitation/create"}});
        let wrote = serde_json::to_value(DetailedTask::of(record.clone(), Duration::ZERO)).unwrap();
        assert_eq!(wrote, detailed);
        let failed = TaskRecord {
            status: TaskStatus::Failed,
            status_message: None,
            expires_at: None,
            ..record
        };
        let wrote = serde_json::to_value(DetailedTask::of(failed, Duration::from_secs(9))).unwrap();
        assert_eq!(wrote["status"], "failed");
        assert_eq!(wrote["ttlMs"], 9_000);
        assert_eq!(
            wrote["error"]["code"],
            crate::jsonrpc::codes::INTERNAL_ERROR
        );
        assert!(wrote.get("statusMessage").is_none() && wrote.get("inputRequests").is_none());
    }

    #[test]
    fn timestamps_are_rfc_3339_utc() {
        assert_eq!(timestamp(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let time = UNIX_EPOCH + Duration::from_millis(1_785_234_600_123);
        assert_eq!(timestamp(time), "2026-07-28T10:30:00.123Z");
        let leap = UNIX_EPOCH + Duration::from_hours(264_384);
        assert_eq!(timestamp(leap), "2000-02-29T00:00:00.000Z");
    }
}
