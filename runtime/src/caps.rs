//! [`Caps`]: how many of one thing run at once, in all and per caller: HTTP's places for
//! requests and streams (`transport/http/places.rs`), the tasks' places (`task/engine.rs`).
//! Each place is a [`Permit`]: an owned permit of the global semaphore (tower's
//! `ConcurrencyLimit` shape) and its share of its key's count, given back when dropped, wherever
//! it was moved to.
//!
//! # Anonymous callers
//!
//! A caller is keyed by its principal (the bearer token's client and subject: `principal.rs`);
//! a caller without one (no auth) is bound by the global cap alone. Without authentication
//! nothing tells two callers apart that a caller cannot multiply (a connection, an address, a
//! session are its to open again), so a cap per anonymous caller would be evaded, and one
//! bucket shared by every anonymous caller would be a second, smaller global cap that the first
//! of them fills for all the others. The per-key cap keeps one *authenticated* caller from
//! crowding out the others; the global cap is what bounds anonymous ones.
//!
//! Only the keys holding a place are kept: a key's entry goes with its last place, so the map
//! is bounded by the places taken (the global cap), never by the callers ever seen.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::sync::lock;

/// The places of one kind: `max` in all, `per_key` for each keyed caller.
pub(crate) struct Caps<K> {
    all: Arc<Semaphore>,
    /// The size of the global cap (at most `Semaphore::MAX_PERMITS`).
    max: usize,
    /// The size of each key's cap (at most `max`).
    per_key: usize,
    keys: Keys<K>,
}

/// Each key holding a place, and how many it holds: a count under the one lock (a key's places
/// are taken and given back without waiting, so a semaphore of its own would only cost an
/// allocation per caller, at every request of a caller with one request at a time).
type Keys<K> = Arc<Mutex<HashMap<K, usize>>>;

/// Which cap refused a place ([`Caps::take`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Full {
    /// The global cap.
    All,
    /// The caller's own cap.
    Key,
}

/// Places taken ([`Caps::take`]), given back when dropped.
pub(crate) struct Permit<K: Eq + Hash> {
    // Dropped first: the key's share, then the global permit.
    _key: Option<KeyShare<K>>,
    _all: OwnedSemaphorePermit,
}

/// A key's places within a [`Permit`]: its count lowered when dropped, and its entry forgotten
/// with its last place.
struct KeyShare<K: Eq + Hash> {
    key: K,
    keys: Keys<K>,
    count: usize,
}

impl<K: Eq + Hash> Drop for KeyShare<K> {
    fn drop(&mut self) {
        let mut keys = lock(&self.keys);
        if let Some(held) = keys.get_mut(&self.key) {
            debug_assert!(*held >= self.count, "a key's count covers its shares");
            *held = held.saturating_sub(self.count);
            if *held == 0 {
                keys.remove(&self.key);
            }
        }
    }
}

impl<K: Eq + Hash + Clone> Caps<K> {
    /// `max` places in all, `per_key` per caller (a larger one than a semaphore holds, "no
    /// limit", is as many as it holds).
    pub(crate) fn new(max: usize, per_key: usize) -> Self {
        let max = max.min(Semaphore::MAX_PERMITS);
        Self {
            all: Arc::new(Semaphore::new(max)),
            max,
            per_key: per_key.min(max),
            keys: Arc::default(),
        }
    }

    /// The size of the global cap.
    pub(crate) fn max(&self) -> usize {
        self.max
    }

    /// The size of each key's cap.
    pub(crate) fn per_key(&self) -> usize {
        self.per_key
    }

    /// The most places one [`take`](Self::take) of `key` could ever get.
    #[cfg_attr(
        not(any(feature = "http", test)),
        expect(dead_code, reason = "only HTTP takes several places at once")
    )]
    pub(crate) fn most(&self, key: Option<&K>) -> usize {
        match key {
            Some(_) => self.per_key,
            None => self.max,
        }
    }

    /// `count` places at once for `key` (`None`: an anonymous caller, bound by the global cap
    /// alone), or none: `Err` names the cap that is full. Never waits.
    pub(crate) fn take(&self, key: Option<K>, count: usize) -> Result<Permit<K>, Full> {
        let permits = u32::try_from(count).unwrap_or(u32::MAX);
        // The key's first, then the global cap: a refusal gives back what was taken (the
        // share, when dropped).
        let share = match key {
            Some(key) => {
                let mut keys = lock(&self.keys);
                // One lookup: the key's count, found or made (a refused new key is removed).
                let held = keys.entry(key.clone()).or_insert(0);
                if held.saturating_add(count) > self.per_key {
                    if *held == 0 {
                        keys.remove(&key);
                    }
                    return Err(Full::Key);
                }
                *held += count;
                Some(KeyShare {
                    key,
                    keys: Arc::clone(&self.keys),
                    count,
                })
            }
            None => None,
        };
        let all = Arc::clone(&self.all)
            .try_acquire_many_owned(permits)
            .map_err(|_| Full::All)?;
        Ok(Permit {
            _key: share,
            _all: all,
        })
    }

    /// How many keys hold a place (for tests: idle keys are forgotten).
    #[cfg(test)]
    pub(crate) fn keys_held(&self) -> usize {
        lock(&self.keys).len()
    }

    /// How many places are free under the global cap (for tests).
    #[cfg(test)]
    pub(crate) fn free(&self) -> usize {
        self.all.available_permits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_key_cannot_take_every_place_and_anonymous_callers_meet_the_global_cap_only() {
        let caps = Caps::new(3, 2);
        let first = caps.take(Some("a"), 1).unwrap();
        let _second = caps.take(Some("a"), 1).unwrap();
        assert_eq!(caps.take(Some("a"), 1).err(), Some(Full::Key));
        let other = caps.take(Some("b"), 1).unwrap();
        assert_eq!(caps.take(None, 1).err(), Some(Full::All));
        drop(other);
        let _anonymous = caps.take(None, 1).unwrap();
        assert_eq!(caps.take(Some("b"), 1).err(), Some(Full::All));
        assert_eq!(caps.keys_held(), 1, "b's refused place left no entry");
        assert_eq!(caps.take(Some("c"), 3).err(), Some(Full::Key));
        assert_eq!(caps.keys_held(), 1, "nor did c's, past its own cap");
        drop(first);
        assert!(caps.take(Some("b"), 1).is_ok());
    }

    #[test]
    fn anonymous_callers_are_not_held_to_a_keys_cap() {
        let caps: Caps<&str> = Caps::new(4, 1);
        let held = caps.take(None, 4).unwrap();
        assert_eq!(caps.free(), 0);
        drop(held);
        assert_eq!(caps.most(None), 4);
        assert_eq!(caps.most(Some(&"a")), 1);
    }

    #[test]
    fn a_key_is_forgotten_with_its_last_place() {
        let caps = Caps::new(100, 10);
        let held: Vec<_> = (0..50)
            .map(|key| caps.take(Some(key), 1).unwrap())
            .collect();
        let again = caps.take(Some(7), 2).unwrap();
        assert_eq!(caps.keys_held(), 50);
        drop(held);
        assert_eq!(caps.keys_held(), 1, "7 still holds a place");
        drop(again);
        assert_eq!(caps.keys_held(), 0);
        assert_eq!(caps.free(), 100);
    }

    #[test]
    fn no_limit_is_as_many_as_a_semaphore_holds() {
        let caps: Caps<u8> = Caps::new(usize::MAX, usize::MAX);
        assert_eq!(caps.max(), Semaphore::MAX_PERMITS);
        assert_eq!(caps.per_key(), Semaphore::MAX_PERMITS);
        assert!(caps.take(Some(1), 1000).is_ok());
    }
}
