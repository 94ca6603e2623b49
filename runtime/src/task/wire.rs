//! A task on the wire: the `Task` fields, the `DetailedTask` of `tasks/get` and
//! `notifications/tasks`, and the `CreateTaskResult` of a `tools/call`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};

use super::store::{TaskRecord, TaskStatus};

/// The `Task` fields of `record` (`taskId`, `status`, times, `ttlMs`, `pollIntervalMs`), as of
/// `now`; `ttl` is how long a finished task is kept.
fn task(record: &TaskRecord, ttl: Duration, now: SystemTime) -> Map<String, Value> {
    // While the task runs, it is kept for `ttl` past now at least; once over, until its expiry.
    let expiry = record.expires_at.unwrap_or(now + ttl);
    let ttl_ms = expiry
        .duration_since(record.created_at)
        .unwrap_or_default()
        .as_millis();
    let mut fields = Map::new();
    fields.insert("taskId".into(), json!(record.id));
    fields.insert("status".into(), json!(record.status.as_str()));
    if let Some(message) = &record.status_message {
        fields.insert("statusMessage".into(), json!(message));
    }
    fields.insert("createdAt".into(), json!(timestamp(record.created_at)));
    fields.insert(
        "lastUpdatedAt".into(),
        json!(timestamp(record.last_updated_at)),
    );
    fields.insert(
        "ttlMs".into(),
        json!(u64::try_from(ttl_ms).unwrap_or(u64::MAX)),
    );
    fields.insert(
        "pollIntervalMs".into(),
        json!(u64::try_from(record.poll_interval.as_millis()).unwrap_or(u64::MAX)),
    );
    fields
}

/// The `DetailedTask`: the task, with `inputRequests`, `result` or `error` as its status has.
pub(crate) fn detailed(record: &TaskRecord, ttl: Duration) -> Map<String, Value> {
    let mut fields = task(record, ttl, SystemTime::now());
    match record.status {
        TaskStatus::InputRequired => {
            fields.insert(
                "inputRequests".into(),
                Value::Object(record.input_requests.clone()),
            );
        }
        TaskStatus::Completed => {
            fields.insert(
                "result".into(),
                record.result.clone().unwrap_or_else(|| json!({})),
            );
        }
        TaskStatus::Failed => {
            fields.insert(
                "error".into(),
                record.error.clone().unwrap_or_else(|| {
                    json!({"code": crate::jsonrpc::codes::INTERNAL_ERROR, "message": "the task failed"})
                }),
            );
        }
        TaskStatus::Working | TaskStatus::Cancelled => {}
    }
    fields
}

/// The `CreateTaskResult` a `tools/call` is answered with: the task, `resultType: "task"`.
pub(crate) fn created(record: &TaskRecord, ttl: Duration) -> Value {
    let mut fields = task(record, ttl, SystemTime::now());
    fields.insert("resultType".into(), json!("task"));
    Value::Object(fields)
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

    #[test]
    fn timestamps_are_rfc_3339_utc() {
        assert_eq!(timestamp(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let time = UNIX_EPOCH + Duration::from_millis(1_785_234_600_123);
        assert_eq!(timestamp(time), "2026-07-28T10:30:00.123Z");
        let leap = UNIX_EPOCH + Duration::from_hours(264_384);
        assert_eq!(timestamp(leap), "2000-02-29T00:00:00.000Z");
    }
}
