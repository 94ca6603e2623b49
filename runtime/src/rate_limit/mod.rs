//! Rate limits: N requests per unit of time for each principal, bursts up to N (GCRA, by
//! `governor`). The server's ([`crate::Server::rate_limit`]) counts every JSON-RPC request; a
//! tool's (`#[tool(rate_limit = "…")]`, [`crate::tool::Tool::rate_limit`]) counts the calls of
//! that tool, on top. The dispatcher asks before a request runs ([`RateLimits::check`]); past a
//! limit the request is not run and answers `-32029` with `data.retryAfterMs` (HTTP makes it a
//! `429` with `Retry-After`). Notifications and responses are never counted: they never reach
//! the dispatcher's `request`.
//!
//! Who is counted ([`Who`]): the verified token's client and subject; without one, the client's
//! address (HTTP, an IPv6 client by its `/64`); over stdio or in process, the one client. The
//! state is kept in this process (`store.rs`: bounded, idle principals forgotten) or, with
//! Redis, shared by the replicas through a [`Shared`] backend (`replicas/rate_limit.rs`).

mod store;

use std::fmt;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use futures_util::future::BoxFuture;
use serde_json::json;

use crate::jsonrpc::{ErrorObject, codes};
use crate::principal::write_text;

pub(crate) use store::MAX_PRINCIPALS;

#[path = "../../../macros/src/rate_rules.rs"]
mod rules;

/// A rate limit: at most `count` requests per `period` for each principal, in bursts of up to
/// `count` (GCRA: the budget refills steadily, one request every `period / count`). Written
/// `N/UNIT` (UNIT `s`, `min` or `h`), as `run()`'s `--rate-limit` and `#[tool(rate_limit = …)]`
/// take it.
///
/// ```
/// use mcp_toolbelt::RateLimit;
///
/// let limit: RateLimit = "600/min".parse().unwrap();
/// assert_eq!(limit.count(), 600);
/// assert_eq!(limit.period(), std::time::Duration::from_secs(60));
/// assert_eq!(limit.to_string(), "600/min");
/// assert!("10 per second".parse::<RateLimit>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimit {
    count: NonZeroU32,
    period: Duration,
}

impl RateLimit {
    /// At most `count` requests per `period` (a period under a millisecond is taken as one).
    #[must_use]
    pub fn new(count: NonZeroU32, period: Duration) -> Self {
        Self {
            count,
            period: period.max(Duration::from_millis(1)),
        }
    }

    /// How many requests a period allows (and the largest burst).
    #[must_use]
    pub fn count(&self) -> u32 {
        self.count.get()
    }

    /// The period the count is over.
    #[must_use]
    pub fn period(&self) -> Duration {
        self.period
    }

    /// The time between two requests at the steady rate.
    pub(crate) fn interval(&self) -> Duration {
        (self.period / self.count.get()).max(Duration::from_nanos(1))
    }
}

/// `N/UNIT`, the unit the largest that divides the period (`60/min`, `3/s`, or seconds).
impl fmt::Display for RateLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.period.as_secs();
        if self.period.subsec_nanos() == 0 {
            for (unit, length) in rules::UNITS.iter().rev() {
                if seconds == *length {
                    return write!(f, "{}/{unit}", self.count);
                }
            }
        }
        write!(f, "{} per {:?}", self.count, self.period)
    }
}

/// Why a text is no rate limit: what is wrong, and what to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateLimitError(String);

impl fmt::Display for RateLimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid rate limit: {}; {}", self.0, rules::EXPECTED)
    }
}

impl std::error::Error for RateLimitError {}

impl FromStr for RateLimit {
    type Err = RateLimitError;

    fn from_str(text: &str) -> Result<Self, RateLimitError> {
        let (count, seconds) = rules::parse(text).map_err(RateLimitError)?;
        let count = NonZeroU32::new(count).ok_or_else(|| RateLimitError(text.to_owned()))?;
        Ok(Self::new(count, Duration::from_secs(seconds)))
    }
}

/// Who a request is counted against.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Who<'a> {
    /// The verified token's client and subject.
    Principal {
        client_id: &'a str,
        subject: Option<&'a str>,
    },
    /// No token: the client's address, as the transport saw it (behind a trusted proxy, the
    /// address it forwarded).
    Address(IpAddr),
    /// No token and no address: the one client of stdio, or the test client.
    Local,
}

impl<'a> Who<'a> {
    /// The caller of a request: its token's client and subject, else its address, else the one
    /// local client.
    pub(crate) fn of(token: Option<(&'a str, Option<&'a str>)>, address: Option<IpAddr>) -> Self {
        match (token, address) {
            (Some((client_id, subject)), _) => Self::Principal { client_id, subject },
            (None, Some(address)) => Self::Address(counted_address(address)),
            (None, None) => Self::Local,
        }
    }

    /// The principal as bytes no other principal writes (for a key shared by replicas).
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "the replicas' keys are made of it")
    )]
    pub(crate) fn bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        match self {
            Self::Principal { client_id, subject } => {
                bytes.push(b'p');
                write_text(client_id, &mut bytes);
                if let Some(subject) = subject {
                    bytes.push(b's');
                    write_text(subject, &mut bytes);
                }
            }
            Self::Address(address) => {
                bytes.push(b'a');
                bytes.extend_from_slice(address.to_string().as_bytes());
            }
            Self::Local => bytes.push(b'l'),
        }
        bytes
    }
}

/// The address a client is counted by: an IPv4 client mapped into IPv6 as its IPv4 address, an
/// IPv6 client by its `/64` (the least a site is given: one machine can take any address in it).
fn counted_address(address: IpAddr) -> IpAddr {
    match address.to_canonical() {
        IpAddr::V6(v6) => {
            let prefix = u128::from(v6) & !(u128::from(u64::MAX));
            IpAddr::V6(prefix.into())
        }
        v4 @ IpAddr::V4(_) => v4,
    }
}

/// A request past a limit: when the principal may try again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limited {
    pub(crate) retry_after: Duration,
    /// The limit it passed.
    pub(crate) limit: RateLimit,
    /// Whether it is a tool's own limit (else the server's).
    pub(crate) tool: bool,
}

impl Limited {
    /// The JSON-RPC error it is answered with: `-32029`, `data.retryAfterMs` (at least 1).
    pub(crate) fn error(&self) -> ErrorObject {
        let millis = self.retry_after.as_nanos().div_ceil(1_000_000).max(1);
        let whose = if self.tool {
            "this tool's"
        } else {
            "the server's"
        };
        ErrorObject::new(
            codes::RATE_LIMITED,
            format!(
                "Rate limit exceeded: {whose} limit is {} per caller; retry after {millis} ms",
                self.limit
            ),
        )
        .data(json!({ "retryAfterMs": millis }))
    }
}

/// One limit and its state in this process (with Redis, the state used while Redis is down).
pub(crate) struct Limiter {
    limit: RateLimit,
    store: store::Limiter,
}

impl fmt::Debug for Limiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Limiter")
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl Limiter {
    /// `limit`, counted for at most [`MAX_PRINCIPALS`] principals at once.
    pub(crate) fn new(limit: RateLimit) -> Self {
        Self::with_room(limit, MAX_PRINCIPALS)
    }

    fn with_room(limit: RateLimit, max_principals: usize) -> Self {
        Self {
            limit,
            store: store::Limiter::new(limit, max_principals),
        }
    }

    /// Counts one request of `who` in this process; `Err` past the limit (nothing counted).
    pub(crate) fn check_here(&self, who: &Who<'_>, tool: bool) -> Result<(), Limited> {
        self.store.check(who).map_err(|retry_after| Limited {
            retry_after,
            limit: self.limit,
            tool,
        })
    }
}

/// The limits' state shared by replicas (Redis): one atomic check per request.
pub(crate) trait Shared: Send + Sync {
    /// Counts one request of `who` against `limit` under `name` (the server's, or a tool's).
    /// `Ok(Err(retry after))` past it; `Err(())` when the shared state cannot be reached (the
    /// caller then counts in this process).
    fn check<'a>(
        &'a self,
        name: &'a str,
        limit: RateLimit,
        who: &'a Who<'a>,
    ) -> BoxFuture<'a, Result<Result<(), Duration>, ()>>;
}

/// A server's rate limits: its own, and where their state is kept.
#[derive(Clone, Default)]
pub(crate) struct RateLimits {
    /// The server's limit on every request ([`crate::Server::rate_limit`]).
    server: Option<Arc<Limiter>>,
    /// The replicas' shared state, once a transport with Redis set it.
    shared: Arc<OnceLock<Arc<dyn Shared>>>,
}

impl fmt::Debug for RateLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RateLimits")
            .field("server", &self.server)
            .field("shared", &self.shared.get().is_some())
            .finish()
    }
}

impl RateLimits {
    /// The server's limit is `limit` (replacing any before).
    pub(crate) fn set_server(&mut self, limit: RateLimit) {
        self.server = Some(Arc::new(Limiter::new(limit)));
    }

    /// Keeps the limits' state in `shared` from now on (the replicas' Redis); set once.
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "the replicas share the limits")
    )]
    pub(crate) fn share(&self, shared: Arc<dyn Shared>) {
        let _ = self.shared.set(shared);
    }

    /// Counts one request of `who` against the server's limit, if it has one.
    pub(crate) async fn check_request(&self, who: &Who<'_>) -> Result<(), Limited> {
        match &self.server {
            Some(limiter) => self.check(limiter, "server", who, false).await,
            None => Ok(()),
        }
    }

    /// Counts one call of tool `name` of `who` against its own `limiter`.
    pub(crate) async fn check_tool(
        &self,
        limiter: &Limiter,
        name: &str,
        who: &Who<'_>,
    ) -> Result<(), Limited> {
        let name = format!("tool:{name}");
        self.check(limiter, &name, who, true).await
    }

    async fn check(
        &self,
        limiter: &Limiter,
        name: &str,
        who: &Who<'_>,
        tool: bool,
    ) -> Result<(), Limited> {
        let Some(shared) = self.shared.get() else {
            return limiter.check_here(who, tool);
        };
        match shared.check(name, limiter.limit, who).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(retry_after)) => Err(Limited {
                retry_after,
                limit: limiter.limit,
                tool,
            }),
            // Redis down: each replica counts on its own until it is back.
            Err(()) => limiter.check_here(who, tool),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_read_as_n_per_unit_and_mistakes_say_what_to_write() {
        let limit: RateLimit = "3/s".parse().unwrap();
        assert_eq!((limit.count(), limit.period()), (3, Duration::from_secs(1)));
        assert_eq!("5000/h".parse::<RateLimit>().unwrap().to_string(), "5000/h");
        assert_eq!("60/min".parse::<RateLimit>().unwrap().to_string(), "60/min");
        for bad in [
            "",
            "3",
            "3/",
            "/s",
            "0/s",
            "-1/s",
            "+3/s",
            "3/sec",
            "3/S",
            "1000001/s",
            "3 /s",
        ] {
            let error = bad.parse::<RateLimit>().unwrap_err().to_string();
            assert!(error.contains("write N/UNIT"), "{bad}: {error}");
        }
        assert_eq!(
            "3/sec".parse::<RateLimit>().unwrap_err().to_string(),
            "invalid rate limit: `sec` is not a unit (`s`, `min` or `h`); write N/UNIT: N requests, a whole number from 1 to 1000000, per UNIT, one of `s`, `min` or `h` (e.g. \"10/s\", \"600/min\", \"5000/h\")"
        );
    }

    #[test]
    fn a_burst_of_n_passes_then_the_next_is_told_when_to_retry() {
        let limiter = Limiter::new("3/min".parse().unwrap());
        let who = Who::Local;
        for _ in 0..3 {
            limiter.check_here(&who, false).unwrap();
        }
        let refused = limiter.check_here(&who, false).unwrap_err();
        // One request every 20 s: the next is allowed within 20 s, not before a few seconds.
        assert!(refused.retry_after <= Duration::from_secs(20));
        assert!(refused.retry_after > Duration::from_secs(19));
        let error = serde_json::to_value(refused.error()).unwrap();
        assert_eq!(error["code"], -32029);
        let millis = error["data"]["retryAfterMs"].as_u64().unwrap();
        assert!((19_000..=20_000).contains(&millis), "{millis}");
    }

    #[test]
    fn principals_have_budgets_of_their_own() {
        let limiter = Limiter::new("1/h".parse().unwrap());
        let one: IpAddr = "127.0.0.1".parse().unwrap();
        let two: IpAddr = "127.0.0.2".parse().unwrap();
        let callers = [
            Who::of(Some(("app", Some("alice"))), None),
            Who::of(Some(("app", Some("bob"))), None),
            Who::of(Some(("app", None)), None),
            Who::of(None, Some(one)),
            Who::of(None, Some(two)),
            Who::Local,
        ];
        for who in &callers {
            limiter.check_here(who, false).unwrap();
        }
        for who in &callers {
            assert!(limiter.check_here(who, false).is_err(), "{who:?}");
        }
    }

    #[test]
    fn an_ipv6_client_is_counted_by_its_64_and_a_mapped_ipv4_as_itself() {
        let a = Who::of(None, Some("2001:db8:1:2::1".parse().unwrap()));
        let b = Who::of(None, Some("2001:db8:1:2:ffff::9".parse().unwrap()));
        assert_eq!(a.bytes(), b.bytes());
        let c = Who::of(None, Some("2001:db8:1:3::1".parse().unwrap()));
        assert_ne!(a.bytes(), c.bytes());
        let mapped = Who::of(None, Some("::ffff:127.0.0.1".parse().unwrap()));
        let v4 = Who::of(None, Some("127.0.0.1".parse().unwrap()));
        assert_eq!(mapped.bytes(), v4.bytes());
    }
}
