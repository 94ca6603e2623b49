//! `requestState` for 2026-07-28: the answers a call has had so far, and the keys of the
//! questions its last round asked, sealed with XChaCha20-Poly1305 so the client can carry them
//! between rounds but neither read nor forge them. The seal binds them to the caller (its
//! principal), the tool, the call's arguments and a time limit (the associated data and the
//! sealed expiry): state from another caller, tool or argument set, or past its time, is refused
//! like tampered state. Replicas given the same key (`Server::request_state_key`) open each
//! other's state, with no shared store; during a key rotation
//! (`Server::previous_request_state_key`) state sealed with the previous key still opens, and new state
//! is sealed with the current one.

use std::collections::BTreeSet;
use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::jsonrpc::ErrorObject;
use crate::principal::{Principal, write_text};

/// How long sealed state stays valid: a round includes a person answering.
pub(crate) const STATE_TTL: Duration = Duration::from_mins(10);

const NONCE_BYTES: usize = 24;

/// The server's sealing key, and the one before it during a rotation.
pub(crate) struct Sealer {
    /// `None` when no key was given and the system's random source failed: state cannot be
    /// sealed then, and a call that asks gets an error saying so.
    cipher: Option<XChaCha20Poly1305>,
    /// The previous key: state it sealed (a round in flight when the key changed) still opens,
    /// and nothing is sealed with it.
    previous: Option<XChaCha20Poly1305>,
}

/// What one round hands the next.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Carried {
    /// The answers the handler used so far, by key: they stand in every later round.
    pub(crate) answers: Map<String, Value>,
    /// The keys of the questions the round asked and had no answer for: only these take an
    /// answer from the next request's `inputResponses`.
    pub(crate) asked: BTreeSet<String>,
}

/// What one request's state is bound to, as the associated data of its seal: each part
/// length-prefixed (so no two bindings read alike), the kind of request and its name (a
/// prompt's state never opens for a tool of the same name), the arguments in a canonical form
/// (keys sorted), so that the same arguments in another order still match.
pub(crate) struct Binding(Vec<u8>);

/// What a round belongs to: a tool's call or a prompt's get, by name.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Subject<'a> {
    /// `tools/call` of this tool.
    Tool(&'a str),
    /// `prompts/get` of this prompt.
    Prompt(&'a str),
}

impl Binding {
    /// The binding of a request for `subject` with `arguments` by `principal` (`None`: a caller
    /// without a token).
    pub(crate) fn new(
        principal: Option<&Principal>,
        subject: Subject<'_>,
        arguments: Option<&Map<String, Value>>,
    ) -> Self {
        let arguments = arguments.map_or_else(String::new, |arguments| {
            canonical(&Value::Object(arguments.clone())).to_string()
        });
        let (kind, name) = match subject {
            Subject::Tool(name) => ("tool", name),
            Subject::Prompt(name) => ("prompt", name),
        };
        let mut data = Vec::new();
        Principal::write_bound(principal, &mut data);
        for part in [kind, name, arguments.as_str()] {
            write_text(part, &mut data);
        }
        Self(data)
    }
}

/// What a request's state is bound to, kept as the request brought it until a [`Binding`] is
/// needed: most calls never ask the client, so the arguments are made canonical and serialized
/// only for a round that opens state or seals it. The binding is then the one
/// [`Binding::new`] makes of the same parts.
pub(crate) struct LazyBinding {
    principal: Option<Principal>,
    /// Whether the subject is a tool (else a prompt).
    tool: bool,
    name: String,
    arguments: Option<Map<String, Value>>,
    made: OnceLock<Binding>,
}

impl LazyBinding {
    /// The binding of a request for `subject` with `arguments` by `principal`, made when first
    /// asked for ([`get`](Self::get)).
    pub(crate) fn new(
        principal: Option<Principal>,
        subject: Subject<'_>,
        arguments: Option<Map<String, Value>>,
    ) -> Self {
        let (tool, name) = match subject {
            Subject::Tool(name) => (true, name),
            Subject::Prompt(name) => (false, name),
        };
        Self {
            principal,
            tool,
            name: name.to_owned(),
            arguments,
            made: OnceLock::new(),
        }
    }

    /// The binding, made on the first call.
    pub(crate) fn get(&self) -> &Binding {
        self.made.get_or_init(|| {
            let subject = if self.tool {
                Subject::Tool(&self.name)
            } else {
                Subject::Prompt(&self.name)
            };
            Binding::new(self.principal.as_ref(), subject, self.arguments.as_ref())
        })
    }

    /// Whether the binding was made.
    #[cfg(test)]
    pub(crate) fn is_made(&self) -> bool {
        self.made.get().is_some()
    }
}

/// What is sealed.
#[derive(Serialize, Deserialize)]
struct Sealed {
    /// Seconds since the Unix epoch after which the state is refused.
    expires: u64,
    answers: Map<String, Value>,
    /// Absent in state sealed before questions were tied to answers: then nothing was asked.
    #[serde(default)]
    asked: BTreeSet<String>,
}

impl Sealer {
    /// A sealer with `key`; `None` draws a random key (state then lives as long as the process).
    pub(crate) fn new(key: Option<[u8; 32]>) -> Self {
        let key = key.or_else(|| {
            let mut key = [0; 32];
            getrandom::fill(&mut key).ok().map(|()| key)
        });
        if key.is_none() {
            tracing::error!("no random source: requestState cannot be sealed");
        }
        Self {
            cipher: key.map(|key| XChaCha20Poly1305::new(&key.into())),
            previous: None,
        }
    }

    /// This sealer, also opening state sealed with `previous` (the key it replaces).
    pub(crate) fn with_previous(mut self, previous: Option<[u8; 32]>) -> Self {
        self.previous = previous.map(|key| XChaCha20Poly1305::new(&key.into()));
        self
    }

    /// Seals `carried` for `binding`, valid for [`STATE_TTL`].
    pub(crate) fn seal(&self, carried: Carried, binding: &Binding) -> Result<String, ErrorObject> {
        let cannot = || {
            ErrorObject::new(
                crate::jsonrpc::codes::INTERNAL_ERROR,
                "requestState cannot be sealed (no key and no random source)",
            )
        };
        let cipher = self.cipher.as_ref().ok_or_else(cannot)?;
        let sealed = Sealed {
            expires: now() + STATE_TTL.as_secs(),
            answers: carried.answers,
            asked: carried.asked,
        };
        let mut nonce = [0; NONCE_BYTES];
        getrandom::fill(&mut nonce).map_err(|_| cannot())?;
        let plain = serde_json::to_vec(&sealed).map_err(|_| cannot())?;
        let payload = Payload {
            msg: &plain,
            aad: &binding.0,
        };
        let sealed = cipher
            .encrypt(&XNonce::from(nonce), payload)
            .map_err(|_| cannot())?;
        let mut token = nonce.to_vec();
        token.extend_from_slice(&sealed);
        Ok(URL_SAFE_NO_PAD.encode(token))
    }

    /// What `state` carries, if it is ours (sealed with the current key or the previous one),
    /// untouched, for `binding` and in time.
    pub(crate) fn open(&self, state: &str, binding: &Binding) -> Result<Carried, ErrorObject> {
        let invalid = || ErrorObject::invalid_params("Invalid or expired requestState");
        let cipher = self.cipher.as_ref().ok_or_else(invalid)?;
        let token = URL_SAFE_NO_PAD.decode(state).map_err(|_| invalid())?;
        if token.len() < NONCE_BYTES {
            return Err(invalid());
        }
        let (nonce, sealed) = token.split_at(NONCE_BYTES);
        let nonce = XNonce::try_from(nonce).map_err(|_| invalid())?;
        let payload = || Payload {
            msg: sealed,
            aad: &binding.0,
        };
        let plain = cipher
            .decrypt(&nonce, payload())
            .or_else(|error| match &self.previous {
                Some(previous) => previous.decrypt(&nonce, payload()),
                None => Err(error),
            })
            .map_err(|_| invalid())?;
        let sealed: Sealed = serde_json::from_slice(&plain).map_err(|_| invalid())?;
        if sealed.expires < now() {
            return Err(invalid());
        }
        Ok(Carried {
            answers: sealed.answers,
            asked: sealed.asked,
        })
    }
}

/// `value` with every object's keys sorted.
fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(object) => {
            let mut keys: Vec<&String> = object.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|key| (key.clone(), canonical(&object[key])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

/// The current `requestState` key and, during a rotation, the other key it opens.
pub(crate) type StateKeys = ([u8; 32], Option<[u8; 32]>);

/// One key, or two (the current one, then the other one opened while rotating), each 32 bytes in base64,
/// separated by white space (a file of one or two lines) or a comma.
pub(crate) fn parse_state_keys(text: &str) -> Result<StateKeys, String> {
    use base64::Engine as _;
    use base64::engine::DecodePaddingMode;
    use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};

    const HOW: &str = "a key is 32 random bytes in base64 (`openssl rand -base64 32`)";
    let config =
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent);
    let engines = [
        GeneralPurpose::new(&base64::alphabet::STANDARD, config),
        GeneralPurpose::new(&base64::alphabet::URL_SAFE, config),
    ];
    let decode = |text: &str| engines.iter().find_map(|engine| engine.decode(text).ok());
    let key = |text: &str, which: &str| -> Result<[u8; 32], String> {
        let bytes = decode(text).ok_or_else(|| format!("the {which} key is not base64; {HOW}"))?;
        let length = bytes.len();
        bytes
            .try_into()
            .map_err(|_| format!("the {which} key is {length} bytes; {HOW}"))
    };
    let keys: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|key| !key.is_empty())
        .collect();
    match keys.as_slice() {
        [] => Err(format!("no key; {HOW}")),
        [current] => Ok((key(current, "current")?, None)),
        [current, previous] => Ok((key(current, "current")?, Some(key(previous, "previous")?))),
        // Words of a sentence, not three keys.
        more if more.iter().any(|text| decode(text).is_none()) => Err(format!("not base64; {HOW}")),
        more => Err(format!(
            "{} keys; write the current key, then (while rotating) the previous or next one",
            more.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn binding(client: &str, arguments: &Map<String, Value>) -> Binding {
        let principal = (!client.is_empty()).then(|| Principal::new(client, Some("u".into())));
        Binding::new(principal.as_ref(), Subject::Tool("delete"), Some(arguments))
    }

    #[test]
    fn state_opens_only_for_its_caller_tool_and_arguments_and_untouched() {
        let sealer = Sealer::new(None);
        let arguments = json!({"path": "/a", "force": true});
        let arguments = arguments.as_object().unwrap();
        let answers = json!({"confirm": {"action": "accept"}});
        let carried = || Carried {
            answers: answers.as_object().unwrap().clone(),
            asked: BTreeSet::from(["reason".to_owned()]),
        };
        let state = sealer
            .seal(carried(), &binding("alice", arguments))
            .unwrap();
        assert_eq!(
            sealer.open(&state, &binding("alice", arguments)),
            Ok(carried())
        );
        let reordered = json!({"force": true, "path": "/a"});
        assert!(
            sealer
                .open(&state, &binding("alice", reordered.as_object().unwrap()))
                .is_ok()
        );
        let refused = ErrorObject::invalid_params("Invalid or expired requestState");
        assert_eq!(
            sealer.open(&state, &binding("mallory", arguments)),
            Err(refused.clone())
        );
        let other = json!({"path": "/b", "force": true});
        assert_eq!(
            sealer.open(&state, &binding("alice", other.as_object().unwrap())),
            Err(refused.clone())
        );
        let mut tampered = state.into_bytes();
        let last = tampered.len() - 2;
        tampered[last] = if tampered[last] == b'A' { b'B' } else { b'A' };
        let tampered = String::from_utf8(tampered).unwrap();
        assert_eq!(
            sealer.open(&tampered, &binding("alice", arguments)),
            Err(refused.clone())
        );
        assert_eq!(
            Sealer::new(None).open("not state", &binding("alice", arguments)),
            Err(refused)
        );
    }

    /// A token without a subject and a token with an empty one are two callers: neither opens
    /// the other's state (as the string `"{client_id}\n{subject}"` once bound them, they did).
    #[test]
    fn a_missing_subject_and_an_empty_one_are_two_callers() {
        let sealer = Sealer::new(None);
        let no_subject = Principal::new("app", None);
        let empty_subject = Principal::new("app", Some(String::new()));
        let bound =
            |principal: &Principal| Binding::new(Some(principal), Subject::Tool("delete"), None);
        let state = sealer
            .seal(Carried::default(), &bound(&no_subject))
            .unwrap();
        assert!(sealer.open(&state, &bound(&no_subject)).is_ok());
        assert!(sealer.open(&state, &bound(&empty_subject)).is_err());
        let state = sealer
            .seal(Carried::default(), &bound(&empty_subject))
            .unwrap();
        assert!(sealer.open(&state, &bound(&no_subject)).is_err());
        assert!(
            sealer
                .open(&state, &Binding::new(None, Subject::Tool("delete"), None))
                .is_err(),
            "nor is a caller without a token"
        );
    }

    #[test]
    fn replicas_sharing_a_key_open_each_others_state() {
        let arguments = Map::new();
        let state = Sealer::new(Some([7; 32]))
            .seal(Carried::default(), &binding("", &arguments))
            .unwrap();
        assert!(
            Sealer::new(Some([7; 32]))
                .open(&state, &binding("", &arguments))
                .is_ok()
        );
        assert!(
            Sealer::new(Some([8; 32]))
                .open(&state, &binding("", &arguments))
                .is_err()
        );
    }

    #[test]
    fn a_rotated_sealer_opens_state_of_either_key_and_seals_with_the_current_one() {
        let arguments = Map::new();
        let binding = binding("", &arguments);
        let old = Sealer::new(Some([7; 32]));
        let rotated = Sealer::new(Some([8; 32])).with_previous(Some([7; 32]));
        let in_flight = old.seal(Carried::default(), &binding).unwrap();
        assert!(rotated.open(&in_flight, &binding).is_ok());
        let fresh = rotated.seal(Carried::default(), &binding).unwrap();
        assert!(Sealer::new(Some([8; 32])).open(&fresh, &binding).is_ok());
        assert!(
            old.open(&fresh, &binding).is_err(),
            "sealed with the new key"
        );
        let other = Sealer::new(Some([9; 32])).seal(Carried::default(), &binding);
        assert!(rotated.open(&other.unwrap(), &binding).is_err());
    }
}
