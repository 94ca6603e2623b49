//! Places for requests being answered: a global cap, and with bearer auth a cap per principal,
//! so that one caller cannot take every place. (A connection holds at most one place at a
//! time: HTTP/1 answers its requests one after another.)

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::auth::Principal;
use super::reply::Refusal;
use crate::context::AuthInfo;
use crate::jsonrpc::codes;
use crate::sync::lock;

/// The places of one kind (requests, or `subscriptions/listen` streams).
pub(super) struct Places {
    /// What is counted, for messages: "requests", "subscriptions/listen streams".
    what: &'static str,
    all: Arc<Semaphore>,
    per_principal: usize,
    taken: Taken,
}

/// How many places each principal holds.
type Taken = Arc<Mutex<HashMap<Principal, usize>>>;

/// One place, given back when dropped.
pub(super) struct Place {
    _all: OwnedSemaphorePermit,
    principal: Option<(Principal, Taken)>,
    /// A place of another kind held with this one (a stream's place among the long-lived ones).
    with: Option<Box<Place>>,
}

impl Places {
    pub(super) fn new(what: &'static str, max: usize, per_principal: usize) -> Self {
        Self {
            what,
            // A semaphore holds at most `MAX_PERMITS`: a larger limit ("no limit") is that many.
            all: Arc::new(Semaphore::new(max.min(Semaphore::MAX_PERMITS))),
            per_principal,
            taken: Arc::default(),
        }
    }

    /// A place for a request of `auth`'s principal (anonymous requests share the global cap
    /// only); `Err` is the `503` to answer with.
    pub(super) fn take(&self, auth: Option<&AuthInfo>) -> Result<Place, Refusal> {
        let full = |whose: &str| {
            Refusal::new(
                StatusCode::SERVICE_UNAVAILABLE,
                codes::INTERNAL_ERROR,
                format!(
                    "Service Unavailable: too many {} are open{whose}",
                    self.what
                ),
            )
        };
        let principal = match auth.map(Principal::of) {
            Some(principal) => {
                let mut taken = lock(&self.taken);
                let count = taken.entry(principal.clone()).or_default();
                if *count >= self.per_principal {
                    return Err(full(" for this caller"));
                }
                *count += 1;
                Some((principal, Arc::clone(&self.taken)))
            }
            None => None,
        };
        let Ok(all) = Arc::clone(&self.all).try_acquire_owned() else {
            give_back(principal);
            return Err(full(""));
        };
        Ok(Place {
            _all: all,
            principal,
            with: None,
        })
    }
}

impl Place {
    /// This place and `other`, held and given back together.
    pub(super) fn with(mut self, other: Place) -> Place {
        self.with = Some(Box::new(other));
        self
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        give_back(self.principal.take());
        // The place held with this one goes back with it.
        drop(self.with.take());
    }
}

fn give_back(principal: Option<(Principal, Taken)>) {
    let Some((principal, taken)) = principal else {
        return;
    };
    let mut taken = lock(&taken);
    if let Some(count) = taken.get_mut(&principal) {
        *count -= 1;
        if *count == 0 {
            taken.remove(&principal);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caller(client: &str) -> AuthInfo {
        AuthInfo {
            client_id: client.into(),
            ..AuthInfo::default()
        }
    }

    #[test]
    fn one_principal_cannot_take_every_place() {
        let places = Places::new("requests", 3, 2);
        let first = places.take(Some(&caller("a"))).unwrap();
        let _second = places.take(Some(&caller("a"))).unwrap();
        assert!(places.take(Some(&caller("a"))).is_err(), "a's own cap");
        let other = places.take(Some(&caller("b"))).unwrap();
        assert!(places.take(None).is_err(), "the global cap");
        drop(other);
        let _anonymous = places.take(None).unwrap();
        assert!(
            places.take(Some(&caller("b"))).is_err(),
            "the global cap again"
        );
        assert_eq!(
            lock(&places.taken).get(&Principal::of(&caller("b"))),
            None,
            "b's refused place was given back"
        );
        drop(first);
        assert!(places.take(Some(&caller("b"))).is_ok());
    }
}
