//! A limit's state in this process: `governor`'s GCRA over a store of our own, [`Principals`],
//! which bounds what it keeps. A principal is kept as a fixed-size [`Key`] (a token's client and
//! subject hashed with a key of this process) and its theoretical arrival time: a principal whose
//! budget is whole again is indistinguishable from one never seen, and is forgotten at the next
//! sweep (once a period, at least a second apart). At [`MAX_PRINCIPALS`] still counting, a new
//! principal is counted in one budget that every newcomer shares until room is made.

use std::collections::HashMap;
use std::hash::{BuildHasher as _, RandomState};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use governor::clock::{Clock as _, MonotonicClock};
use governor::middleware::NoOpMiddleware;
use governor::nanos::Nanos;
use governor::state::StateStore;
use governor::{Quota, RateLimiter};

use super::{RateLimit, Who};
use crate::sync::lock;

/// The most principals one limit keeps at once (the server's, and each tool's).
pub(crate) const MAX_PRINCIPALS: usize = 65_536;

/// What one principal costs a limit at most: its key and time (32 bytes) and the hash table's
/// control byte, twice over (the table's load factor and its doubling). The Limits tables say
/// it; a test holds it true.
#[cfg(test)]
pub(crate) const BYTES_PER_PRINCIPAL: usize = 80;

/// A principal as a limit keeps it: a fixed size, whatever its token held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    /// A token's client and subject, hashed with this process's key (two principals sharing a
    /// hash, a chance of about one in 2^64 per pair, would share a budget).
    Principal(u64),
    Address(IpAddr),
    Local,
    /// Every new principal while the store is full.
    Newcomers,
}

/// One limit: the GCRA and its store.
pub(super) struct Limiter {
    gcra: RateLimiter<Key, Principals, MonotonicClock, NoOpMiddleware<Instant>>,
    hasher: RandomState,
}

impl Limiter {
    pub(super) fn new(limit: RateLimit, max_principals: usize) -> Self {
        let interval = limit.interval();
        let quota = Quota::with_period(interval)
            .expect("an interval is at least a nanosecond")
            .allow_burst(limit.count);
        // Made before the limiter, so that its clock never runs behind the limiter's.
        let store = Principals::new(interval, limit.period, max_principals);
        Self {
            gcra: RateLimiter::new(quota, store, MonotonicClock),
            hasher: RandomState::new(),
        }
    }

    fn key(&self, who: &Who<'_>) -> Key {
        match who {
            Who::Principal { client_id, subject } => {
                Key::Principal(self.hasher.hash_one((client_id, subject)))
            }
            Who::Address(address) => Key::Address(*address),
            Who::Local => Key::Local,
        }
    }

    /// Counts one request of `who`; `Err(wait)` past the limit.
    pub(super) fn check(&self, who: &Who<'_>) -> Result<(), Duration> {
        self.gcra
            .check_key(&self.key(who))
            .map_err(|not_until| not_until.wait_time_from(self.gcra.clock().now()))
    }
}

/// The principals one limit counts: each key's theoretical arrival time, in nanoseconds since
/// the store was made.
pub(super) struct Principals {
    table: Mutex<Table>,
    start: Instant,
    /// The time one request takes from a budget.
    interval: u64,
    /// How often the idle are forgotten.
    sweep_every: u64,
    max: usize,
}

struct Table {
    times: HashMap<Key, u64>,
    next_sweep: u64,
    last_sweep: u64,
}

/// While full, the idle are looked for at most this often.
const FULL_SWEEP_GAP: Duration = Duration::from_millis(100);

impl Principals {
    fn new(interval: Duration, period: Duration, max: usize) -> Self {
        let nanos = |duration: Duration| u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX);
        let sweep_every = nanos(period.max(Duration::from_secs(1)));
        Self {
            table: Mutex::new(Table {
                times: HashMap::new(),
                next_sweep: sweep_every,
                last_sweep: 0,
            }),
            start: Instant::now(),
            interval: nanos(interval),
            sweep_every,
            max,
        }
    }

    fn now(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

impl Table {
    /// Forgets the principals whose budget is whole again at `now` (their next request would
    /// find what a new one finds), and gives back the memory when most of it is unused.
    fn sweep(&mut self, now: u64, interval: u64) {
        let whole_below = now.saturating_sub(interval);
        self.times.retain(|_, time| *time > whole_below);
        if self.times.capacity() > 4 * self.times.len() + 64 {
            self.times.shrink_to_fit();
        }
        self.last_sweep = now;
    }
}

impl StateStore for Principals {
    type Key = Key;

    fn measure_and_replace<T, F, E>(&self, key: &Key, f: F) -> Result<T, E>
    where
        F: Fn(Option<Nanos>) -> Result<(T, Nanos), E>,
    {
        let now = self.now();
        let mut table = lock(&self.table);
        if now >= table.next_sweep {
            table.sweep(now, self.interval);
            table.next_sweep = now.saturating_add(self.sweep_every);
        }
        let mut key = *key;
        if !table.times.contains_key(&key) && table.times.len() >= self.max {
            let gap = u64::try_from(FULL_SWEEP_GAP.as_nanos()).unwrap_or(u64::MAX);
            if now >= table.last_sweep.saturating_add(gap) {
                table.sweep(now, self.interval);
            }
            if table.times.len() >= self.max {
                key = Key::Newcomers;
            }
        }
        let before = table.times.get(&key).copied().map(Nanos::from);
        let (outcome, time) = f(before)?;
        table.times.insert(key, time.into());
        Ok(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(store: &Principals, key: Key, interval: u64, burst: u64) -> bool {
        // GCRA as `governor` computes it, over the store, for the store's own tests.
        store
            .measure_and_replace(&key, |before: Option<Nanos>| {
                let now = store.now();
                let tat = before.map_or(now, u64::from).max(now);
                if now < tat.saturating_sub(interval * (burst - 1)) {
                    return Err(());
                }
                Ok(((), Nanos::from(tat + interval)))
            })
            .is_ok()
    }

    #[test]
    fn a_key_is_small() {
        assert!(size_of::<(Key, u64)>() * 2 + 2 <= BYTES_PER_PRINCIPAL);
    }

    #[test]
    fn past_the_cap_newcomers_share_one_budget_and_the_counted_keep_theirs() {
        let hour = u64::try_from(Duration::from_hours(1).as_nanos()).unwrap();
        let store = Principals::new(Duration::from_hours(1), Duration::from_hours(1), 2);
        assert!(check(&store, Key::Local, hour, 1));
        assert!(check(&store, Key::Principal(1), hour, 1));
        // Full: a third principal is a newcomer, and so is a fourth, which finds the budget used.
        assert!(check(&store, Key::Principal(2), hour, 1));
        assert!(!check(&store, Key::Principal(3), hour, 1));
        assert!(!check(&store, Key::Local, hour, 1));
        assert_eq!(lock(&store.table).times.len(), 3);
    }

    #[test]
    fn the_idle_are_forgotten() {
        let store = Principals::new(Duration::from_millis(1), Duration::from_millis(1), 2);
        assert!(check(&store, Key::Principal(1), 1_000_000, 1));
        assert!(check(&store, Key::Principal(2), 1_000_000, 1));
        std::thread::sleep(FULL_SWEEP_GAP + Duration::from_millis(5));
        // Full, but both budgets are whole again: they are forgotten and the third is counted
        // as itself.
        assert!(check(&store, Key::Principal(3), 1_000_000, 1));
        let table = lock(&store.table);
        assert_eq!(table.times.len(), 1);
        assert!(table.times.contains_key(&Key::Principal(3)));
    }

    #[test]
    fn a_limiter_counts_through_the_store() {
        let limiter = Limiter::new("2/h".parse().unwrap(), 10);
        assert!(limiter.check(&Who::Local).is_ok());
        assert!(limiter.check(&Who::Local).is_ok());
        assert!(limiter.check(&Who::Local).is_err());
    }
}
