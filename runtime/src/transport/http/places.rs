//! Places for requests being answered: a global cap, and with bearer auth a cap per principal,
//! so that one caller cannot take every place. A POST takes one place for its request, or one
//! per item of its batch, so the caps bound calls, not envelopes. (A connection holds at most
//! one POST's places at a time: HTTP/1 answers its requests one after another.) A place also
//! keeps the memory its request holds (`limits::MemoryBudget`) until it is answered. The
//! counting is `caps::Caps`, the tasks' too.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use axum::http::StatusCode;

use super::reply::Refusal;
use crate::caps::{Caps, Full, Permit};
use crate::context::AuthInfo;
use crate::jsonrpc::codes;
use crate::limits::Held;

/// The places of one kind (requests, or `subscriptions/listen` streams): [`Caps`] keyed by
/// principal (a caller without bearer auth is bound by the global cap alone, the caps' one
/// rule), refused as HTTP answers.
pub(super) struct Places {
    /// What is counted, for messages: "requests", "subscriptions/listen streams".
    what: &'static str,
    caps: Caps<Caller>,
}

/// The key of a caller's places: its verified token's client and subject, compared as a
/// `Principal` is, held as the token's shared [`AuthInfo`] (a place taken copies a pointer, not
/// the two texts).
#[derive(Clone)]
struct Caller(Arc<AuthInfo>);

impl PartialEq for Caller {
    fn eq(&self, other: &Self) -> bool {
        self.0.caller() == other.0.caller()
    }
}

impl Eq for Caller {}

impl Hash for Caller {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.caller().hash(state);
    }
}

/// One place (or one per item of a batch), given back when dropped.
pub(super) struct Place {
    #[allow(dead_code, reason = "kept for its drop")]
    permit: Permit<Caller>,
    /// The memory its request holds, given back with the place.
    #[allow(dead_code, reason = "kept for its drop")]
    held: Option<Held>,
    /// A place of another kind held with this one (a stream's place among the long-lived ones).
    #[allow(dead_code, reason = "kept for its drop")]
    with: Option<Box<Place>>,
}

impl Places {
    pub(super) fn new(what: &'static str, max: usize, per_principal: usize) -> Self {
        Self {
            what,
            caps: Caps::new(max, per_principal),
        }
    }

    /// A place for a request of `auth`'s principal; `Err` is the `503` to answer with.
    pub(super) fn take(&self, auth: Option<&Arc<AuthInfo>>) -> Result<Place, Refusal> {
        self.take_many(auth, 1)
    }

    /// `count` places at once (a batch's, one per item), or none. A batch larger than the
    /// caps could ever allow this caller is refused for good (`413`), not told to retry.
    pub(super) fn take_many(
        &self,
        auth: Option<&Arc<AuthInfo>>,
        count: usize,
    ) -> Result<Place, Refusal> {
        let principal = auth.map(|auth| Caller(Arc::clone(auth)));
        let most = self.caps.most(principal.as_ref());
        if count > 1 && count > most {
            return Err(Refusal::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                codes::INVALID_REQUEST,
                format!(
                    "Invalid Request: at most {most} calls in one batch here (the server's cap on {} in flight); send the batch in smaller parts",
                    self.what
                ),
            ));
        }
        let permit = self.caps.take(principal, count).map_err(|full| {
            let whose = match full {
                Full::Key => " for this caller",
                Full::All => "",
            };
            Refusal::new(
                StatusCode::SERVICE_UNAVAILABLE,
                codes::INTERNAL_ERROR,
                format!(
                    "Service Unavailable: too many {} are open{whose}",
                    self.what
                ),
            )
        })?;
        Ok(Place {
            permit,
            held: None,
            with: None,
        })
    }
}

impl Place {
    /// The place, keeping `held` until it is given back.
    pub(super) fn holding(mut self, held: Held) -> Self {
        self.held = Some(held);
        self
    }

    /// This place and `other`, held and given back together.
    pub(super) fn with(mut self, other: Place) -> Place {
        self.with = Some(Box::new(other));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caller(client: &str) -> Arc<AuthInfo> {
        Arc::new(AuthInfo::new(client))
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
            places.caps.keys_held(),
            1,
            "b's refused place was given back"
        );
        drop(first);
        assert!(places.take(Some(&caller("b"))).is_ok());
    }

    #[test]
    fn a_batch_takes_a_place_per_item() {
        let places = Places::new("requests", 5, 3);
        let never = places.take_many(Some(&caller("a")), 4).err().unwrap();
        assert_eq!(never.status(), StatusCode::PAYLOAD_TOO_LARGE, "a's own cap");
        let never = places.take_many(None, 6).err().unwrap();
        assert_eq!(
            never.status(),
            StatusCode::PAYLOAD_TOO_LARGE,
            "the global cap"
        );
        let batch = places.take_many(Some(&caller("a")), 3).unwrap();
        assert!(places.take(Some(&caller("a"))).is_err());
        let _two = places.take_many(None, 2).unwrap();
        assert!(places.take(None).is_err(), "the global cap");
        let not_now = places.take_many(None, 2).err().unwrap();
        assert_eq!(
            not_now.status(),
            StatusCode::SERVICE_UNAVAILABLE,
            "fits later"
        );
        drop(batch);
        assert_eq!(places.caps.keys_held(), 0, "a's places were given back");
        assert!(places.take_many(None, 3).is_ok());
    }
}
