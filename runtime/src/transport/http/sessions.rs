//! Legacy sessions: `initialize` opens one (`Mcp-Session-Id`), later requests name it, DELETE
//! ends it. The table is bounded: idle sessions expire (within a minute those that never did
//! anything), and a full table always makes room for a new client by closing the least recently
//! used session not in use (no request in progress, no stream open, no call running), one that
//! never did anything first.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::HttpState;
use super::admission::Admitted;
use super::get_writer::Writing;
use super::headers::SESSION_ID;
use super::reply::Refusal;
use crate::context::AuthInfo;
use crate::jsonrpc::codes;
#[cfg(feature = "redis")]
use crate::jsonrpc::{Id, Incoming, Reply};
use crate::principal::Principal;
use crate::protocol::{Dispatcher, ProtocolVersion};
#[cfg(feature = "redis")]
use crate::replicas::{BusMessage, Redis, SessionRecord, SharedSessions, apply_subscriptions};
use crate::session::Calls;
use crate::sync::lock;

/// A legacy session: its calls, and what the table needs to know to expire it.
pub(super) struct HttpSession {
    /// Its id (`Mcp-Session-Id`).
    pub(super) id: String,
    pub(super) calls: Calls,
    last_seen: Mutex<Instant>,
    /// The connections holding its GET stream: one, or, while a resuming client takes it over
    /// from a connection not yet seen to close, two.
    streams_open: Mutex<usize>,
    /// Cancelled when the session ends: its GET stream closes, calls starting late are dropped.
    pub(super) ended: CancellationToken,
    /// With bearer auth, who opened it: nobody else may use it.
    owner: Option<Principal>,
    /// Whether it did something after `initialize` (a call, a GET stream): a session that never
    /// did is one a client opened and left (or a flood of `initialize`s), the first to make room
    /// and short-lived.
    active: AtomicBool,
    /// With Redis: the text of its record as last read or written, so a request that finds it
    /// unchanged applies nothing.
    #[cfg(feature = "redis")]
    record: Mutex<String>,
    /// With Redis: the count of changes to its subscriptions its copy of them has seen (`None`
    /// until they were read), so a request that finds it current reads none of them.
    #[cfg(feature = "redis")]
    generation: Mutex<Option<u64>>,
    /// The log of its GET stream, written from its first GET until the session ends.
    pub(super) get_log: Mutex<Option<Writing>>,
}

impl HttpSession {
    /// Ends the session: cancels every call still running and ends its GET stream (its log
    /// no longer written).
    pub(super) fn end(&self) {
        self.ended.cancel();
        self.calls.cancel_all();
        if let Some(writing) = lock(&self.get_log).take() {
            writing.stream.end();
        }
    }

    /// Marks the session as used now: a request came, a call or the GET stream ended.
    pub(super) fn touch(&self) {
        *lock(&self.last_seen) = Instant::now();
    }

    /// The session did something: a call (other than `initialize`) or a GET stream.
    pub(super) fn activate(&self) {
        self.active.store(true, Ordering::Relaxed);
    }

    /// Whether it did anything after `initialize`.
    fn is_active(&self) -> bool {
        self.active.load(Ordering::Relaxed)
    }

    /// Whether it has expired: left alone for `idle_timeout`, or for [`INACTIVE_LIFE`] when it
    /// never did anything.
    fn expired(&self, idle_timeout: Duration) -> bool {
        let life = if self.is_active() {
            idle_timeout
        } else {
            idle_timeout.min(INACTIVE_LIFE)
        };
        self.idle_for(life)
    }

    /// Whether the session has been left alone for `timeout`: no request for that long, no GET
    /// stream open and no call running.
    fn idle_for(&self, timeout: Duration) -> bool {
        lock(&self.last_seen).elapsed() >= timeout
            && *lock(&self.streams_open) == 0
            && self.calls.is_idle()
    }

    /// Makes the session what its record in Redis says, when it changed since last seen.
    #[cfg(feature = "redis")]
    fn apply(&self, text: &str) {
        let mut seen = lock(&self.record);
        if *seen == text {
            return;
        }
        text.clone_into(&mut seen);
        match serde_json::from_str::<SessionRecord>(text) {
            Ok(record) => record.apply(self.calls.connection()),
            Err(error) => tracing::warn!(%error, "a session record this version cannot read"),
        }
    }

    /// Whether its copy of its subscriptions has seen the `generation`th change.
    #[cfg(feature = "redis")]
    fn subscriptions_at(&self, generation: u64) -> bool {
        *lock(&self.generation) == Some(generation)
    }

    /// Makes its subscriptions `held` (read whole at their `generation`th change).
    #[cfg(feature = "redis")]
    fn apply_subscriptions(&self, generation: u64, held: &[String], dispatcher: &Dispatcher) {
        let mut seen = lock(&self.generation);
        apply_subscriptions(
            self.calls.connection(),
            held,
            &dispatcher.listed_resources(),
        );
        *seen = Some(generation);
    }

    /// One change to its subscriptions, the `generation`th (made here, or told by another
    /// replica): applied when its copy has seen the one before, else left for the next request
    /// to read them whole.
    #[cfg(feature = "redis")]
    pub(super) fn subscription_changed(
        &self,
        uri: &str,
        subscribed: bool,
        generation: u64,
        dispatcher: &Dispatcher,
    ) {
        let mut seen = lock(&self.generation);
        if *seen != Some(generation.saturating_sub(1)) {
            return;
        }
        let subscriptions = self.calls.connection().subscriptions();
        if subscribed {
            let _ = subscriptions.subscribe(uri, &dispatcher.listed_resources());
        } else {
            subscriptions.unsubscribe(uri);
        }
        *seen = Some(generation);
    }

    /// Its copy of its subscriptions may not be Redis's: the next request reads them whole.
    #[cfg(feature = "redis")]
    pub(super) fn forget_subscriptions(&self) {
        *lock(&self.generation) = None;
    }

    /// Who opened it (bearer auth).
    pub(super) fn owner(&self) -> Option<&Principal> {
        self.owner.as_ref()
    }

    /// The text of its record, as written now.
    #[cfg(feature = "redis")]
    pub(super) fn record(&self) -> String {
        let record = SessionRecord::of(self.calls.connection(), self.owner.as_ref());
        let text = serde_json::to_string(&record).unwrap_or_default();
        lock(&self.record).clone_from(&text);
        text
    }

    /// Takes the session's one GET stream; `None` when it is already open.
    pub(super) fn open_stream(self: &Arc<Self>) -> Option<StreamGuard> {
        let mut open = lock(&self.streams_open);
        if *open > 0 {
            return None;
        }
        *open += 1;
        self.activate();
        Some(StreamGuard(Arc::clone(self)))
    }

    /// Holds the session's GET stream for a connection resuming it (`Last-Event-ID`), even while
    /// the connection it takes over still holds it: the session stays in use, never idle.
    pub(super) fn take_over_stream(self: &Arc<Self>) -> StreamGuard {
        *lock(&self.streams_open) += 1;
        self.activate();
        StreamGuard(Arc::clone(self))
    }
}

/// The session's GET stream, open while this lives.
pub(super) struct StreamGuard(Arc<HttpSession>);

impl Drop for StreamGuard {
    fn drop(&mut self) {
        // Idle time counts from here (a client that listened for an hour is not idle): marked
        // before the stream is free, so the session never looks idle with an old mark.
        self.0.touch();
        *lock(&self.0.streams_open) -= 1;
    }
}

/// With Redis, a session's own choice of tags (`Context::enable_tags`) is kept in its record
/// before the call goes on, and told to the replicas holding it (its GET stream may be on
/// another): its next request, wherever it goes, sees it.
#[cfg(feature = "redis")]
fn keep_tags(session: &Arc<HttpSession>, shared: SharedSessions, life: Duration) {
    let held = Arc::downgrade(session);
    let keeper: crate::visibility::Keeper = Arc::new(move || {
        let (held, shared) = (held.clone(), shared.clone());
        Box::pin(async move {
            let ended = || "the session ended".to_owned();
            let session = held.upgrade().ok_or_else(ended)?;
            let record = session.record();
            if record.len() > crate::replicas::MAX_RECORD_BYTES {
                return Err(format!(
                    "the session's record would pass the {} bytes it may hold",
                    crate::replicas::MAX_RECORD_BYTES
                ));
            }
            match shared
                .save(&session.id, &record, session.owner(), life)
                .await
            {
                Ok(true) => {
                    shared.changed(&session.id, &record);
                    Ok(())
                }
                Ok(false) => Err(ended()),
                Err(error) => Err(error.to_string()),
            }
        })
    });
    session.calls.connection().tags().keep_with(keeper);
}

/// How often, at most, the table looks for expired sessions while it has room.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// How long a session that never did anything after its `initialize` (no call, no GET stream)
/// lives once left alone.
pub(crate) const INACTIVE_LIFE: Duration = Duration::from_mins(1);

/// Every open session, by id (with Redis: the sessions this replica served lately, a cache of
/// those kept in Redis).
pub(super) struct SessionTable {
    sessions: Mutex<HashMap<String, Arc<HttpSession>>>,
    /// When the expired sessions were last closed: a look at every session, so done at most
    /// once per [`SWEEP_EVERY`] (or a quarter of a shorter idle timeout) while the table has room (an `initialize` then costs the same
    /// with ten thousand open), and whenever a cap is reached, before anything is evicted.
    swept: Mutex<Instant>,
    max: usize,
    /// The most one principal may hold (bearer auth).
    per_principal: usize,
    idle_timeout: Duration,
    /// Where the sessions are shared with the other replicas.
    #[cfg(feature = "redis")]
    shared: Option<SharedSessions>,
}

impl SessionTable {
    pub(super) fn new(max: usize, per_principal: usize, idle_timeout: Duration) -> Self {
        Self {
            sessions: Mutex::default(),
            swept: Mutex::new(Instant::now()),
            max,
            per_principal,
            idle_timeout,
            #[cfg(feature = "redis")]
            shared: None,
        }
    }

    /// Sessions kept in Redis, shared with the other replicas.
    #[cfg(feature = "redis")]
    pub(super) fn shared_through(mut self, redis: Option<Redis>) -> Self {
        self.shared = redis.map(SharedSessions::new);
        self
    }

    /// The most sessions in all, and per principal (with Redis: what Redis holds, every replica
    /// together).
    #[cfg(feature = "redis")]
    pub(super) fn caps(&self) -> (usize, usize) {
        (self.max, self.per_principal)
    }

    /// Where the sessions are shared, if they are.
    #[cfg(feature = "redis")]
    pub(super) fn shared(&self) -> Option<&SharedSessions> {
        self.shared.as_ref()
    }

    /// How long a session's record lives from now: a session that never did anything,
    /// [`INACTIVE_LIFE`].
    #[cfg(feature = "redis")]
    pub(super) fn record_life(&self, active: bool) -> Duration {
        if active {
            self.idle_timeout
        } else {
            self.idle_timeout.min(INACTIVE_LIFE)
        }
    }

    /// The session the request names, as [`find`](Self::find); with Redis, read there (one
    /// round trip), so that a session opened on another replica is served here, and one ended
    /// elsewhere is not. `refresh`: the request is one that keeps the session alive (not a
    /// notification or a response), its record's TTL starts again.
    #[cfg_attr(
        not(feature = "redis"),
        expect(clippy::unused_async, reason = "with Redis, the session is read there")
    )]
    pub(super) async fn find_for(
        &self,
        dispatcher: &Dispatcher,
        headers: &HeaderMap,
        auth: Option<&AuthInfo>,
        refresh: bool,
    ) -> Result<Arc<HttpSession>, Refusal> {
        #[cfg(feature = "redis")]
        if let Some(shared) = &self.shared {
            return self
                .find_shared(shared, dispatcher, headers, auth, refresh)
                .await;
        }
        let _ = (dispatcher, refresh);
        self.find(headers, auth)
    }

    #[cfg(feature = "redis")]
    async fn find_shared(
        &self,
        shared: &SharedSessions,
        dispatcher: &Dispatcher,
        headers: &HeaderMap,
        auth: Option<&AuthInfo>,
        refresh: bool,
    ) -> Result<Arc<HttpSession>, Refusal> {
        let id = session_id(headers)?;
        if !crate::random::is_id(id) {
            // Never one of ours: no Redis key is built from it (nor a round trip spent on it).
            return Err(not_found());
        }
        let principal = auth.map(AuthInfo::principal);
        let cached = lock(&self.sessions).get(id).cloned();
        let loaded = shared
            .load(
                id,
                principal.as_ref(),
                refresh.then_some(self.idle_timeout),
                cached.is_none(),
            )
            .await
            .map_err(|error| unavailable(&error))?;
        let Some(text) = loaded.record else {
            // Ended on another replica, or expired.
            self.close(id);
            return Err(not_found());
        };
        if let Some(session) = cached {
            if session.owner != principal {
                return Err(not_found());
            }
            session.apply(&text);
            if !session.subscriptions_at(loaded.generation) {
                // A change of its subscriptions this replica missed: read them whole.
                let (generation, held) = shared
                    .subscriptions(id)
                    .await
                    .map_err(|error| unavailable(&error))?;
                session.apply_subscriptions(generation, &held, dispatcher);
            }
            session.touch();
            return Ok(session);
        }
        let record: SessionRecord = serde_json::from_str(&text).map_err(|_| not_found())?;
        if !record.belongs_to(principal.as_ref()) {
            return Err(not_found());
        }
        let (session, fresh) = {
            let mut sessions = lock(&self.sessions);
            if let Some(session) = sessions.get(id) {
                // Another request loaded it meanwhile.
                (Arc::clone(session), false)
            } else {
                self.make_room(&mut sessions, principal.as_ref())
                    .ok_or_else(full)?;
                let session = self.new_session(id, principal, dispatcher);
                sessions.insert(id.to_owned(), Arc::clone(&session));
                (session, true)
            }
        };
        session.apply(&text);
        if fresh {
            // Loaded, not changed: its GET stream, if it opens here, is told nothing of it.
            session.calls.connection().tags().loaded();
        }
        session.apply_subscriptions(
            loaded.generation,
            loaded.subscriptions.as_deref().unwrap_or_default(),
            dispatcher,
        );
        // Loaded because it is used: it did something.
        session.activate();
        Ok(session)
    }

    /// Keeps alive in Redis, until `closing`, the sessions in use here (a GET stream open, a call
    /// running): a client that only listens sends no request that would. A session whose record
    /// is gone (expired, or ended while this replica missed the word) ends here too.
    #[cfg(feature = "redis")]
    pub(super) async fn keep_alive(table: std::sync::Weak<Self>, closing: CancellationToken) {
        let every = table
            .upgrade()
            .map_or(Duration::from_secs(1), |table| table.idle_timeout / 4)
            .clamp(Duration::from_millis(250), Duration::from_mins(1));
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                () = closing.cancelled() => return,
            }
            let Some(table) = table.upgrade() else {
                return;
            };
            let Some(shared) = table.shared.clone() else {
                return;
            };
            let busy: Vec<(String, Option<Principal>)> = lock(&table.sessions)
                .iter()
                .filter(|(_, session)| *lock(&session.streams_open) > 0 || !session.calls.is_idle())
                .map(|(id, session)| (id.clone(), session.owner.clone()))
                .collect();
            if busy.is_empty() {
                continue;
            }
            if let Ok(kept) = shared.keep(&busy, table.idle_timeout).await {
                for ((id, _), kept) in busy.iter().zip(kept) {
                    if !kept {
                        table.close(id);
                    }
                }
            }
        }
    }

    /// What another replica said about a session this one may hold.
    #[cfg(feature = "redis")]
    pub(super) fn hear(&self, message: &BusMessage, dispatcher: &Dispatcher) {
        let held = |id: &str| lock(&self.sessions).get(id).cloned();
        match message {
            BusMessage::SessionEnded { session } => self.close(session),
            BusMessage::SessionChanged { session, record } => {
                if let Some(held) = held(session) {
                    held.apply(record);
                }
            }
            BusMessage::SessionSubscription {
                session,
                uri,
                subscribed,
                generation,
            } => {
                if let Some(held) = held(session) {
                    held.subscription_changed(uri, *subscribed, *generation, dispatcher);
                }
            }
            BusMessage::Answer {
                replica,
                session,
                reply,
            } if self
                .shared
                .as_ref()
                .is_some_and(|shared| shared.redis().replica() == replica) =>
            {
                let Some(held) = held(session) else {
                    return;
                };
                let bytes = serde_json::to_vec(reply).unwrap_or_default();
                if let Ok(Incoming::Response(reply)) = crate::jsonrpc::parse(&bytes) {
                    held.calls.reply(reply);
                }
            }
            BusMessage::Cancel { session, request } => {
                if let Some(held) = held(session)
                    && held.calls.cancel(&Id::from_value(request))
                {
                    tracing::debug!("a request cancelled through another replica");
                }
            }
            _ => {}
        }
    }

    /// A client's answer to a question another replica asked (its id names that replica):
    /// sent there. `Err` gives it back: this replica asked it (or nobody).
    #[cfg(feature = "redis")]
    pub(super) fn relay_reply(&self, session: &HttpSession, reply: Reply) -> Result<(), Reply> {
        let Some(shared) = &self.shared else {
            return Err(reply);
        };
        let replica = match serde_json::from_str::<String>(&reply.id.key()) {
            Ok(id) => id.rsplit_once('-').map(|(replica, _)| replica.to_owned()),
            Err(_) => None,
        };
        let Some(replica) = replica.filter(|replica| replica != shared.redis().replica()) else {
            return Err(reply);
        };
        let mut message = serde_json::json!({"jsonrpc": "2.0", "id": reply.id.to_value()});
        match reply.outcome {
            Ok(result) => message["result"] = result,
            Err(error) => message["error"] = serde_json::to_value(error).unwrap_or_default(),
        }
        shared.redis().bus().publish(BusMessage::Answer {
            replica,
            session: session.id.clone(),
            reply: message,
        });
        Ok(())
    }

    /// A `notifications/cancelled` of a request not running here: told to the other replicas.
    #[cfg(feature = "redis")]
    pub(super) fn relay_cancel(&self, session: &HttpSession, request: &Id) {
        if let Some(shared) = &self.shared {
            shared.redis().bus().publish(BusMessage::Cancel {
                session: session.id.clone(),
                request: request.to_value(),
            });
        }
    }

    /// The live session the request names, if its caller is the one who opened it. `Err` is
    /// the refusal to answer with.
    pub(super) fn find(
        &self,
        headers: &HeaderMap,
        auth: Option<&AuthInfo>,
    ) -> Result<Arc<HttpSession>, Refusal> {
        let id = session_id(headers)?;
        let session = {
            let mut sessions = lock(&self.sessions);
            // One lookup (the id hashed once) for a live session; a second only to remove one.
            match sessions.get(id).cloned() {
                Some(session) if session.expired(self.idle_timeout) => {
                    sessions.remove(id);
                    session.end();
                    None
                }
                found => found,
            }
        };
        // Another principal gets the same answer as for an unknown id: ids are not disclosed.
        let session = session
            .filter(|session| session.owner == auth.map(AuthInfo::principal))
            .ok_or_else(not_found)?;
        session.touch();
        Ok(session)
    }

    /// Makes room for one more session of `owner`: expired ones are closed; at a cap, the least
    /// recently used session not in use goes. `None` when every candidate is in use.
    fn make_room(
        &self,
        sessions: &mut HashMap<String, Arc<HttpSession>>,
        owner: Option<&Principal>,
    ) -> Option<()> {
        let own = |session: &HttpSession| session.owner.as_ref() == owner;
        // A principal's sessions are counted only with bearer auth (anonymous ones have no cap
        // of their own).
        let held = |sessions: &HashMap<String, Arc<HttpSession>>| {
            owner.map_or(0, |_| sessions.values().filter(|s| own(s)).count())
        };
        let at_a_cap = |sessions: &HashMap<String, Arc<HttpSession>>| {
            sessions.len() >= self.max || (owner.is_some() && held(sessions) >= self.per_principal)
        };
        let mut swept = lock(&self.swept);
        // A short idle timeout is looked for more often, so a session does not outlive it by
        // much more than a quarter.
        let every = SWEEP_EVERY.min(self.idle_timeout / 4);
        if swept.elapsed() >= every || at_a_cap(sessions) {
            let idle = self.idle_timeout;
            sessions.retain(|_, session| {
                let expired = session.expired(idle);
                if expired {
                    session.end();
                }
                !expired
            });
            *swept = Instant::now();
        }
        drop(swept);
        if owner.is_some() && held(sessions) >= self.per_principal {
            // A principal at its cap makes room among its own sessions: one not in use.
            evict_least_recently_used(sessions, Duration::ZERO, own)?;
        }
        if sessions.len() >= self.max {
            // First a session that never did anything since its `initialize`, then any not in use.
            let inactive = |session: &HttpSession| !session.is_active();
            if evict_least_recently_used(sessions, Duration::ZERO, inactive).is_none() {
                evict_least_recently_used(sessions, Duration::ZERO, |_| true)?;
            }
        }
        Some(())
    }

    /// A session `id` of `owner`, not yet in the table.
    #[cfg_attr(
        not(feature = "redis"),
        expect(
            clippy::unused_self,
            reason = "with Redis, its questions' ids name the replica"
        )
    )]
    fn new_session(
        &self,
        id: &str,
        owner: Option<Principal>,
        dispatcher: &Dispatcher,
    ) -> Arc<HttpSession> {
        let calls = Calls::new(
            dispatcher.clone(),
            ProtocolVersion::HTTP_DEFAULT,
            Some(id.to_owned()),
        );
        // With Redis, a question's id names this replica: an answer posted to another comes here.
        #[cfg(feature = "redis")]
        let calls = match &self.shared {
            Some(shared) => calls.answering_as(shared.redis().replica()),
            None => calls.answering(),
        };
        #[cfg(not(feature = "redis"))]
        let calls = calls.answering();
        let session = Arc::new(HttpSession {
            id: id.to_owned(),
            calls,
            last_seen: Mutex::new(Instant::now()),
            streams_open: Mutex::new(0),
            ended: CancellationToken::new(),
            owner,
            active: AtomicBool::new(false),
            #[cfg(feature = "redis")]
            record: Mutex::default(),
            #[cfg(feature = "redis")]
            generation: Mutex::new(Some(0)),
            get_log: Mutex::new(None),
        });
        #[cfg(feature = "redis")]
        if let Some(shared) = &self.shared {
            keep_tags(&session, shared.clone(), self.record_life(true));
        }
        session
    }

    /// A session for an `initialize` to settle, not yet in the table: it takes a place there
    /// only once that `initialize` was answered ([`admit`](Self::admit)), so one refused (past
    /// a rate limit) takes no one's place. `None` when no secure random id can be had.
    pub(super) fn unlisted(
        &self,
        dispatcher: &Dispatcher,
        auth: Option<&AuthInfo>,
    ) -> Option<Arc<HttpSession>> {
        let id = new_session_id()?;
        Some(self.new_session(&id, auth.map(AuthInfo::principal), dispatcher))
    }

    /// Puts `session` (from [`unlisted`](Self::unlisted)) in the table. Expired ones are closed
    /// first; when the table is still full, the least recently used session not in use makes
    /// room (its client gets `404` and opens another, as the protocol says), among those that
    /// never did anything first: a flood of `initialize`s pushes out its own sessions before any
    /// that works, and never one in use. `false`, the session ended, when every session is in
    /// use.
    pub(super) fn admit(&self, session: &Arc<HttpSession>) -> bool {
        let mut sessions = lock(&self.sessions);
        if self.make_room(&mut sessions, session.owner()).is_none() {
            drop(sessions);
            session.end();
            return false;
        }
        sessions.insert(session.id.clone(), Arc::clone(session));
        true
    }

    /// A session opened at once ([`unlisted`](Self::unlisted), then [`admit`](Self::admit)).
    #[cfg(test)]
    fn open(
        &self,
        dispatcher: &Dispatcher,
        auth: Option<&AuthInfo>,
    ) -> Option<(String, Arc<HttpSession>)> {
        let session = self.unlisted(dispatcher, auth)?;
        self.admit(&session).then(|| (session.id.clone(), session))
    }

    /// Ends session `id` here.
    pub(super) fn close(&self, id: &str) {
        if let Some(session) = lock(&self.sessions).remove(id) {
            session.end();
        }
    }
}

/// The session id a request names. `Err` (`400`) when it names none or an unreadable one.
fn session_id(headers: &HeaderMap) -> Result<&str, Refusal> {
    let bad_request =
        |message| Refusal::new(StatusCode::BAD_REQUEST, codes::INVALID_REQUEST, message);
    let Some(value) = headers.get(SESSION_ID) else {
        return Err(bad_request(
            "Bad Request: Mcp-Session-Id header is required",
        ));
    };
    value.to_str().map_err(|_| {
        bad_request(
            "Bad Request: the Mcp-Session-Id header is not visible ASCII (send the id the server gave)",
        )
    })
}

/// An unknown session, or another principal's (ids are not disclosed).
pub(super) fn not_found() -> Refusal {
    Refusal::new(
        StatusCode::NOT_FOUND,
        codes::INVALID_REQUEST,
        "Session not found",
    )
}

/// The session table is full of sessions in use.
pub(super) fn full() -> Refusal {
    Refusal::new(
        StatusCode::SERVICE_UNAVAILABLE,
        codes::INTERNAL_ERROR,
        "Service Unavailable: no session can be opened now (too many are open)",
    )
}

/// Redis, where sessions are kept, cannot be used now: the client tries again in a second.
#[cfg(feature = "redis")]
pub(super) fn unavailable(error: &redis::RedisError) -> Refusal {
    Refusal::new(
        StatusCode::SERVICE_UNAVAILABLE,
        codes::INTERNAL_ERROR,
        format!("Service Unavailable: session store unavailable: {error}"),
    )
    .with_header(
        axum::http::header::RETRY_AFTER,
        axum::http::HeaderValue::from_static("1"),
    )
}

/// Whether a request holds `session`: between [`SessionTable::find`] (or `open`) and the end of
/// the POST or GET that named it, the table's is not the only handle. Such a session is never
/// evicted: its call may not be registered yet (closing it then would leave the client hanging).
fn in_use(session: &Arc<HttpSession>) -> bool {
    Arc::strong_count(session) > 1
}

/// Closes the least recently used session among those `eligible` that has been left alone for
/// `alone`; `None` when there is none.
fn evict_least_recently_used(
    sessions: &mut HashMap<String, Arc<HttpSession>>,
    alone: Duration,
    eligible: impl Fn(&HttpSession) -> bool,
) -> Option<()> {
    let least_recently_used = sessions
        .iter()
        .filter(|(_, session)| !in_use(session) && eligible(session) && session.idle_for(alone))
        .min_by_key(|(_, session)| *lock(&session.last_seen))
        .map(|(id, _)| id.clone())?;
    let session = sessions.remove(&least_recently_used)?;
    tracing::debug!("session table full: the least recently used session is closed");
    session.end();
    Some(())
}

/// DELETE ends a legacy session.
pub(super) async fn delete(
    State(state): State<Arc<HttpState>>,
    Admitted(auth): Admitted,
    headers: HeaderMap,
) -> Result<StatusCode, Refusal> {
    if state.config.stateless || !headers.contains_key(SESSION_ID) {
        return Err(super::method_not_allowed(state.config.stateless));
    }
    let session = state
        .sessions
        .find_for(&state.dispatcher, &headers, auth.as_deref(), false)
        .await?;
    #[cfg(feature = "redis")]
    if let Some(shared) = state.sessions.shared() {
        shared
            .end(&session.id, session.owner.as_ref())
            .await
            .map_err(|error| unavailable(&error))?;
    }
    state.sessions.close(&session.id);
    session.end();
    Ok(StatusCode::NO_CONTENT)
}

/// 128 bits from the operating system's cryptographic generator, as hex; `None` when the OS
/// cannot provide them (then no guessable id is minted instead).
fn new_session_id() -> Option<String> {
    crate::random::id().ok()
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    const IDLE: Duration = Duration::from_mins(1);

    fn naming(id: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(SESSION_ID, HeaderValue::from_str(id).unwrap());
        headers
    }

    /// The status a lookup was refused with (`200` when it found the session).
    fn refused(found: Result<Arc<HttpSession>, Refusal>) -> u16 {
        found.map_or_else(|refusal| refusal.status().as_u16(), |_| 200)
    }

    fn auth(client: &str) -> AuthInfo {
        AuthInfo {
            client_id: client.into(),
            ..AuthInfo::default()
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_table_closes_the_least_recently_used_session_not_in_use() {
        let dispatcher = Dispatcher::empty();
        let table = SessionTable::new(2, 2, IDLE);
        let (first, first_session) = table.open(&dispatcher, None).unwrap();
        first_session.activate();
        drop(first_session);
        tokio::time::advance(Duration::from_secs(1)).await;
        let (second, second_session) = table.open(&dispatcher, None).unwrap();
        second_session.activate();
        tokio::time::advance(Duration::from_secs(1)).await;
        // Full; both did something; the second's request is still in progress: the first makes
        // room.
        let (third, third_session) = table.open(&dispatcher, None).unwrap();
        assert_eq!(refused(table.find(&naming(&first), None)), 404);
        assert!(table.find(&naming(&second), None).is_ok());
        assert!(table.find(&naming(&third), None).is_ok());
        // Both in use (a GET stream each): nobody makes room.
        let _streams = (
            second_session.open_stream().unwrap(),
            third_session.open_stream().unwrap(),
        );
        assert!(table.open(&dispatcher, None).is_none());
    }

    #[tokio::test(start_paused = true)]
    async fn a_flood_of_initializes_pushes_out_its_own_sessions_first() {
        let dispatcher = Dispatcher::empty();
        let table = SessionTable::new(3, 3, IDLE);
        let (working, session) = table.open(&dispatcher, None).unwrap();
        session.activate();
        drop(session);
        let mut flood = Vec::new();
        for _ in 0..3 {
            tokio::time::advance(Duration::from_millis(1)).await;
            flood.push(table.open(&dispatcher, None).unwrap().0);
        }
        // The flood's older sessions made room for its newer ones; the working session stayed,
        // though it is the oldest.
        assert_eq!(refused(table.find(&naming(&working), None)), 200);
        assert_eq!(refused(table.find(&naming(&flood[0]), None)), 404);
        assert_eq!(refused(table.find(&naming(&flood[2]), None)), 200);
    }

    #[tokio::test(start_paused = true)]
    async fn a_session_that_never_did_anything_lives_a_minute() {
        let dispatcher = Dispatcher::empty();
        let table = SessionTable::new(8, 8, IDLE * 60);
        let (idle, _) = table.open(&dispatcher, None).unwrap();
        let (working, session) = table.open(&dispatcher, None).unwrap();
        session.activate();
        tokio::time::advance(INACTIVE_LIFE).await;
        assert_eq!(refused(table.find(&naming(&idle), None)), 404);
        assert_eq!(refused(table.find(&naming(&working), None)), 200);
    }

    #[tokio::test(start_paused = true)]
    async fn a_session_with_a_stream_open_never_expires() {
        let dispatcher = Dispatcher::empty();
        let table = SessionTable::new(8, 8, IDLE);
        let (listening, session) = table.open(&dispatcher, None).unwrap();
        let (quiet, _) = table.open(&dispatcher, None).unwrap();
        let stream = session.open_stream().unwrap();
        assert!(
            session.open_stream().is_none(),
            "one GET stream per session"
        );
        tokio::time::advance(IDLE * 2).await;
        assert!(table.find(&naming(&listening), None).is_ok());
        assert_eq!(refused(table.find(&naming(&quiet), None)), 404);
        drop(stream);
        tokio::time::advance(IDLE).await;
        assert_eq!(refused(table.find(&naming(&listening), None)), 404);
    }

    #[tokio::test(start_paused = true)]
    async fn a_principal_at_its_cap_makes_room_among_its_own_sessions() {
        let dispatcher = Dispatcher::empty();
        let table = SessionTable::new(8, 2, IDLE);
        let (b_session, _) = table.open(&dispatcher, Some(&auth("b"))).unwrap();
        // (Each `open` is a request done: `_` lets its handle go.)
        let (first, _) = table.open(&dispatcher, Some(&auth("a"))).unwrap();
        tokio::time::advance(Duration::from_secs(1)).await;
        let (second, listening) = table.open(&dispatcher, Some(&auth("a"))).unwrap();
        let (third, _) = table.open(&dispatcher, Some(&auth("a"))).unwrap();
        assert_eq!(
            refused(table.find(&naming(&first), Some(&auth("a")))),
            404,
            "a's oldest went"
        );
        assert_eq!(refused(table.find(&naming(&second), Some(&auth("a")))), 200);
        assert_eq!(refused(table.find(&naming(&third), Some(&auth("a")))), 200);
        assert_eq!(
            refused(table.find(&naming(&b_session), Some(&auth("b")))),
            200,
            "b is untouched"
        );
        // Both of a's sessions in use: a gets no more, b still does.
        let _stream = listening.open_stream().unwrap();
        let (_, third_session) = (
            third.clone(),
            table.find(&naming(&third), Some(&auth("a"))).unwrap(),
        );
        let _other_stream = third_session.open_stream().unwrap();
        drop((listening, third_session));
        assert!(table.open(&dispatcher, Some(&auth("a"))).is_none());
        assert!(table.open(&dispatcher, Some(&auth("b"))).is_some());
    }

    #[tokio::test]
    async fn a_session_belongs_to_the_principal_that_opened_it() {
        let dispatcher = Dispatcher::empty();
        let table = SessionTable::new(8, 8, IDLE);
        let (id, _) = table.open(&dispatcher, Some(&auth("a"))).unwrap();
        assert!(table.find(&naming(&id), Some(&auth("a"))).is_ok());
        assert_eq!(refused(table.find(&naming(&id), Some(&auth("b")))), 404);
        assert_eq!(refused(table.find(&naming(&id), None)), 404);
        assert_eq!(refused(table.find(&HeaderMap::new(), None)), 400);
        assert_eq!(id.len(), 32, "128 random bits as hex");
    }

    #[tokio::test(start_paused = true)]
    async fn a_session_found_by_a_request_in_progress_is_never_evicted() {
        let dispatcher = Dispatcher::empty();
        let table = SessionTable::new(1, 1, IDLE);
        let (id, opened) = table.open(&dispatcher, None).unwrap();
        drop(opened);
        // A POST found it; its call is not registered yet.
        let found = table.find(&naming(&id), None).unwrap();
        tokio::time::advance(Duration::from_secs(1)).await;
        assert!(
            table.open(&dispatcher, None).is_none(),
            "the table stays full"
        );
        assert!(!found.ended.is_cancelled());
        drop(found);
        assert!(table.open(&dispatcher, None).is_some(), "done: it may go");
    }
}
