//! Tokens already verified (a JWT's signature and claims, an introspection answer) and what
//! they grant, so a client's every request after its first costs a digest and a read lock, not
//! a signature check or a round trip to the issuer. Kept by the SHA-256 digest of the resource
//! and the token (the token itself is not kept past its request: a dump of this memory holds no
//! usable credential), until the token's `exp` and at most [`MAX_TTL`], within [`MAX_ENTRIES`]
//! and [`MAX_BYTES`]; a JWT's entry also names the key set that verified it, and is verified
//! again once the keys were fetched again (a withdrawn key's tokens are then refused). Refused
//! tokens are never kept.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use sha2::{Digest as _, Sha256};

use super::LEEWAY;
use crate::context::AuthInfo;
use crate::sync;

/// The longest a verification is trusted: a token revoked at the issuer (introspection), or
/// signed by a key the issuer withdrew, is refused here within this time.
pub(crate) const MAX_TTL: Duration = Duration::from_mins(5);

/// The most tokens kept.
pub(crate) const MAX_ENTRIES: usize = 10_000;

/// The most bytes the kept tokens hold together (each counted as [`ENTRY_BYTES`] and twice its
/// claims as JSON: they are held as a JSON tree, and the client, subject and scopes again).
pub(crate) const MAX_BYTES: usize = 8 * 1024 * 1024;

/// What one entry holds beside its claims: the digest, the entry, its place in the order and
/// the map's own share.
const ENTRY_BYTES: usize = 256;

/// The SHA-256 digest a token is kept by: of the resource it was verified for and the token.
pub(crate) type Digest = [u8; 32];

/// `token`'s digest, as verified for `audience`.
pub(crate) fn digest(audience: &str, token: &str) -> Digest {
    let mut hasher = Sha256::new();
    hasher.update(audience.as_bytes());
    hasher.update([0]);
    hasher.update(token.as_bytes());
    hasher.finalize().into()
}

/// Until when a token whose `exp` claim is `exp` (seconds since the epoch) may be kept: its
/// `exp` give or take [`LEEWAY`], as it is checked, and at most [`MAX_TTL`] from now.
pub(crate) fn until(exp: u64) -> Instant {
    let end = UNIX_EPOCH + Duration::from_secs(exp) + LEEWAY;
    let left = end.duration_since(SystemTime::now()).unwrap_or_default();
    Instant::now() + left.min(MAX_TTL)
}

/// The verified tokens; the oldest entry goes first when full.
#[derive(Default)]
pub(crate) struct TokenCache {
    inner: RwLock<Cache>,
}

#[derive(Default)]
struct Cache {
    entries: HashMap<Digest, Entry>,
    /// Digests in the order they were kept, with the number of the entry each was kept as (an
    /// entry kept again has a new number: the older place is skipped).
    order: VecDeque<(u64, Digest)>,
    bytes: usize,
    next: u64,
}

struct Entry {
    /// Shared with every request the token makes while kept: a lookup copies a pointer, not
    /// the claims.
    auth: Arc<AuthInfo>,
    expires: Instant,
    /// The generation of the key set that verified a JWT (`None`: introspected).
    keys: Option<u64>,
    bytes: usize,
    number: u64,
}

impl TokenCache {
    /// What the token of `digest` was found to grant, while that is still trusted: before its
    /// time, and, for a JWT, with the key set of generation `keys` still the one in use.
    pub(crate) fn get(&self, digest: &Digest, keys: u64) -> Option<Arc<AuthInfo>> {
        let cache = sync::read(&self.inner);
        let entry = cache.entries.get(digest)?;
        if entry.expires > Instant::now() && entry.keys.is_none_or(|used| used == keys) {
            return Some(Arc::clone(&entry.auth));
        }
        drop(cache);
        sync::write(&self.inner).remove(digest);
        None
    }

    /// Keeps what the token of `digest` grants until `expires`, making room first.
    pub(crate) fn insert(
        &self,
        digest: Digest,
        auth: &Arc<AuthInfo>,
        expires: Instant,
        keys: Option<u64>,
    ) {
        if expires <= Instant::now() {
            return;
        }
        let bytes = ENTRY_BYTES + 2 * auth.extra.to_string().len();
        if bytes > MAX_BYTES {
            return;
        }
        let mut cache = sync::write(&self.inner);
        cache.remove(&digest);
        while cache.entries.len() >= MAX_ENTRIES || cache.bytes + bytes > MAX_BYTES {
            let Some((number, oldest)) = cache.order.pop_front() else {
                break;
            };
            if cache
                .entries
                .get(&oldest)
                .is_some_and(|entry| entry.number == number)
            {
                cache.remove(&oldest);
            }
        }
        let number = cache.next;
        cache.next += 1;
        cache.bytes += bytes;
        cache.order.push_back((number, digest));
        cache.entries.insert(
            digest,
            Entry {
                auth: Arc::clone(auth),
                expires,
                keys,
                bytes,
                number,
            },
        );
        if cache.order.len() > 2 * MAX_ENTRIES {
            let Cache { entries, order, .. } = &mut *cache;
            order.retain(|(number, digest)| {
                entries
                    .get(digest)
                    .is_some_and(|entry| entry.number == *number)
            });
        }
    }
}

impl Cache {
    fn remove(&mut self, digest: &Digest) {
        if let Some(entry) = self.entries.remove(digest) {
            self.bytes -= entry.bytes;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn later() -> Instant {
        Instant::now() + Duration::from_mins(1)
    }

    #[test]
    fn many_tokens_stay_within_the_count() {
        let cache = TokenCache::default();
        let auth = Arc::new(AuthInfo::new("c"));
        for i in 0..MAX_ENTRIES + 10 {
            cache.insert(digest("r", &format!("t{i}")), &auth, later(), Some(1));
        }
        let inner = sync::read(&cache.inner);
        assert_eq!(inner.entries.len(), MAX_ENTRIES);
        assert!(inner.bytes <= MAX_BYTES);
        assert!(inner.order.len() <= 2 * MAX_ENTRIES);
        drop(inner);
        assert!(
            cache.get(&digest("r", "t0"), 1).is_none(),
            "the oldest went"
        );
        let newest = digest("r", &format!("t{}", MAX_ENTRIES + 9));
        assert!(cache.get(&newest, 1).is_some());
    }

    #[test]
    fn large_claims_stay_within_the_bytes() {
        let cache = TokenCache::default();
        let auth =
            Arc::new(AuthInfo::new("c").extra(serde_json::json!({"roles": "r".repeat(8 * 1024)})));
        let each = ENTRY_BYTES + 2 * auth.extra.to_string().len();
        for i in 0..2_000 {
            cache.insert(digest("r", &format!("t{i}")), &auth, later(), None);
        }
        let inner = sync::read(&cache.inner);
        assert!(inner.bytes <= MAX_BYTES, "{} bytes", inner.bytes);
        assert_eq!(inner.entries.len(), MAX_BYTES / each);
        assert_eq!(
            inner.bytes,
            inner.entries.len() * each,
            "the bytes are those of the entries kept"
        );
    }

    #[test]
    fn an_entry_past_its_time_or_of_older_keys_is_not_given() {
        let cache = TokenCache::default();
        let auth = Arc::new(AuthInfo::new("c"));
        let (jwt, introspected) = (digest("r", "a.b.c"), digest("r", "opaque"));
        cache.insert(jwt, &auth, later(), Some(1));
        cache.insert(introspected, &auth, later(), None);
        assert!(cache.get(&jwt, 1).is_some());
        assert!(cache.get(&jwt, 2).is_none(), "the keys were fetched again");
        assert!(cache.get(&jwt, 1).is_none(), "and the entry is gone");
        assert!(cache.get(&introspected, 2).is_some(), "no keys verified it");
        cache.insert(jwt, &auth, Instant::now(), Some(1));
        assert!(cache.get(&jwt, 1).is_none(), "past its time: not kept");
    }

    #[test]
    fn a_token_is_kept_for_its_resource_and_until_its_exp() {
        assert_ne!(digest("https://a/mcp", "t"), digest("https://b/mcp", "t"));
        assert_ne!(digest("r", "t1"), digest("r", "t2"));
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
        let soon = until(now.as_secs() + 10);
        let left = soon - Instant::now();
        assert!(left <= LEEWAY + Duration::from_secs(10), "{left:?}");
        assert!(left > LEEWAY, "{left:?}");
        assert!(until(0) <= Instant::now(), "long expired");
        assert!(until(now.as_secs() + 86_400) - Instant::now() <= MAX_TTL);
    }
}
