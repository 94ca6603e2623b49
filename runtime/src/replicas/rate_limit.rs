//! Rate limits counted by every replica together: one key per limit and principal,
//! `{prefix}rate:{digest}` (the digest: SHA-256 of the limit's name and the principal, its first
//! 16 bytes as hex, so a key is 37 bytes past the prefix whatever the token held), holding the
//! GCRA's theoretical arrival time in microseconds of Redis's clock, which one Lua script reads
//! and advances atomically (one round trip per check) and which expires when the principal's
//! budget is whole again. While Redis cannot be reached, each replica counts on its own (its
//! in-memory limiter), and says so once per outage.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures_util::future::BoxFuture;
use sha2::{Digest as _, Sha256};

use super::Redis;
use crate::rate_limit::{RateLimit, Shared, Who};

/// GCRA as `governor` counts it, on Redis's clock. `KEYS[1]`: the principal's key; `ARGV[1]`:
/// microseconds per request; `ARGV[2]`: the burst (the limit's count). Returns `0` when the
/// request is counted, else the microseconds until it would be.
const CHECK: &str = r"
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local interval = tonumber(ARGV[1])
local tolerance = interval * (tonumber(ARGV[2]) - 1)
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then tat = now end
if now < tat - tolerance then
  return math.max(1, tat - tolerance - now)
end
local next = tat + interval
redis.call('SET', KEYS[1], string.format('%d', next), 'PX', math.max(1, math.ceil((next - now) / 1000)))
return 0
";

/// The limits' counts in Redis.
pub(crate) struct SharedLimits {
    redis: Redis,
    check: Arc<redis::Script>,
    /// Whether the last check found Redis down (each replica then counts on its own).
    counting_here: AtomicBool,
}

impl SharedLimits {
    pub(crate) fn new(redis: Redis) -> Self {
        Self {
            redis,
            check: Arc::new(redis::Script::new(CHECK)),
            counting_here: AtomicBool::new(false),
        }
    }

    /// The key of `who` under the limit `name`.
    fn key(&self, name: &str, who: &Who<'_>) -> String {
        let mut digest = Sha256::new();
        digest.update(name.as_bytes());
        digest.update([0]);
        digest.update(who.bytes());
        let digest = digest.finalize();
        self.redis.key("rate", &crate::random::hex(&digest[..16]))
    }
}

impl Shared for SharedLimits {
    fn check<'a>(
        &'a self,
        name: &'a str,
        limit: RateLimit,
        who: &'a Who<'a>,
    ) -> BoxFuture<'a, Result<Result<(), Duration>, ()>> {
        Box::pin(async move {
            let interval = u64::try_from(limit.interval().as_micros())
                .unwrap_or(u64::MAX)
                .max(1);
            let checked: redis::RedisResult<u64> = self
                .check
                .key(self.key(name, who))
                .arg(interval)
                .arg(limit.count())
                .invoke_async(&mut self.redis.connection())
                .await;
            self.redis.outcome(&checked);
            match checked {
                Ok(wait) => {
                    if self.counting_here.swap(false, Ordering::Relaxed) {
                        tracing::info!(
                            "Redis is back: rate limits are counted by every replica together again"
                        );
                    }
                    Ok(if wait == 0 {
                        Ok(())
                    } else {
                        Err(Duration::from_micros(wait))
                    })
                }
                Err(error) => {
                    if !self.counting_here.swap(true, Ordering::Relaxed) {
                        tracing::warn!(%error, "Redis is unavailable: each replica counts the rate limits on its own until it returns");
                    }
                    Err(())
                }
            }
        })
    }
}
