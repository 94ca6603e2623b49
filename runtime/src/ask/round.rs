//! One 2026-07-28 round of a call that asks (the MRTR pattern): there is no back channel, so a
//! question the round has no answer for ends the round with an `input_required` result, and the
//! client's retry (`inputResponses`, the echoed `requestState`) runs the handler again, each
//! question now answered at once.
//!
//! The handler runs until it completes or until it waits on a question: questions asked
//! together (`join!`) are registered in the same poll, so they go out together, by key. The
//! answers the handler used are sealed into the new `requestState` (`super::seal`), so that a
//! later round still has them, together with the keys of the questions the round asked.
//!
//! Answers are tied to questions: `inputResponses` are taken only for the keys the previous
//! round asked (sealed in its state), and an answer sealed in an earlier round stands. Any
//! other response is ignored, not refused: the handler then simply asks (so a tool that
//! confirms before it acts cannot be confirmed by a first request that was never asked), and
//! a client that sends its earlier answers again, or answers a question twice, still gets its
//! call done. Refusing with `-32602` would protect nothing more and fail such clients.

use std::collections::BTreeSet;
use std::future::Future;
use std::pin::pin;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Poll, Waker};

use serde_json::{Map, Value, json};

use super::AskError;
use super::seal::{Carried, LazyBinding, Sealer};
use crate::jsonrpc::{ErrorObject, Method, codes, to_json};
use crate::result::CallToolResult;
use crate::sync::lock;
use crate::types::InputRequiredResult;

/// How a round ended.
#[derive(Debug)]
pub(crate) enum Outcome<R> {
    /// The call completed: its result.
    Completed(R),
    /// The call waits on questions this round cannot answer: the `input_required` result that
    /// asks them, with the state sealed for the next round.
    InputRequired(Value),
}

/// The spec's answer to a request that needs client capabilities it did not declare:
/// `-32021`, naming them, with `requiredCapabilities` (`{"elicitation": {"url": {}}}`).
pub(crate) fn missing_capabilities(missing: &Map<String, Value>) -> ErrorObject {
    let names: Vec<&str> = missing.keys().map(String::as_str).collect();
    ErrorObject::new(
        codes::MISSING_CLIENT_CAPABILITY,
        format!("Missing required client capability: {}", names.join(", ")),
    )
    .data(json!({"requiredCapabilities": missing}))
}

/// The client capabilities a request's questions needed and the client did not declare, and
/// what the handler was told of each: a failure that passes that on is the capability's doing,
/// answered `-32021` ([`missing_capabilities`]).
#[derive(Default)]
pub(crate) struct Lacking {
    /// As `requiredCapabilities` (`{"elicitation": {"url": {}}}`).
    capabilities: Mutex<Map<String, Value>>,
    /// What the handler was told each time ([`AskError::MissingCapability`]'s sentence).
    told: Mutex<Vec<String>>,
}

impl Lacking {
    /// Records that a question needed `capability` (`elicitation.url`, `sampling`, …), which
    /// the client did not declare.
    pub(crate) fn lacks(&self, capability: &'static str) {
        lock(&self.told).push(AskError::MissingCapability(capability).to_string());
        let (name, sub) = capability
            .split_once('.')
            .map_or((capability, None), |(name, sub)| (name, Some(sub)));
        let mut lacking = lock(&self.capabilities);
        let entry = lacking.entry(name).or_insert_with(|| json!({}));
        if let (Some(sub), Some(entry)) = (sub, entry.as_object_mut()) {
            entry.insert(sub.to_owned(), json!({}));
        }
    }

    /// `-32021` when the failure whose text is `failure` passes on what the handler was told
    /// of a capability the client did not declare (a prompt's `Err`, a tool's `isError`).
    pub(crate) fn behind(&self, failure: &str) -> Option<ErrorObject> {
        let lacking = lock(&self.capabilities);
        let passed_on = lock(&self.told)
            .iter()
            .any(|told| failure.contains(told.as_str()));
        passed_on.then(|| missing_capabilities(&lacking))
    }
}

/// A call's round: the answers it has, and the questions it asked.
pub(crate) struct Round {
    /// Made only when state is opened or sealed: a call that asks nothing never needs it.
    binding: LazyBinding,
    /// From the opened `requestState`, and this request's `inputResponses` to the questions
    /// the previous round asked.
    answers: Map<String, Value>,
    /// The answers the handler read, to seal for the next round.
    used: Mutex<Map<String, Value>>,
    /// The questions without an answer: key → `{method, params}`.
    asked: Mutex<Map<String, Value>>,
    /// Numbers the questions asked without a key of their own.
    next: AtomicUsize,
    /// Wakes [`Round::run`] when a question is asked from outside the call's own future (a task
    /// it spawned), which would otherwise not wake it.
    waker: Mutex<Option<Waker>>,
    /// The client capabilities questions needed and the client did not declare.
    lacking: Lacking,
}

impl Round {
    /// The round of a request with `params` (its `requestState` opened and checked against
    /// `binding`; refused with `-32602` when it is not valid). With `early`
    /// ([`Server::accept_early_answers`](crate::Server::accept_early_answers)), `inputResponses`
    /// may also answer questions no earlier round asked.
    pub(crate) fn start(
        sealer: &Sealer,
        params: &Map<String, Value>,
        binding: LazyBinding,
        early: bool,
    ) -> Result<Self, ErrorObject> {
        let Carried { mut answers, asked } = match params.get("requestState") {
            None | Some(Value::Null) => Carried::default(),
            Some(Value::String(state)) => sealer.open(state, binding.get())?,
            Some(_) => {
                return Err(ErrorObject::invalid_params(
                    "Invalid or expired requestState",
                ));
            }
        };
        match params.get("inputResponses") {
            None | Some(Value::Null) => {}
            Some(Value::Object(responses)) => take_answers(&mut answers, &asked, early, responses)?,
            Some(_) => {
                return Err(ErrorObject::invalid_params(
                    "`inputResponses` must be an object",
                ));
            }
        }
        Ok(Self {
            binding,
            answers,
            used: Mutex::default(),
            asked: Mutex::default(),
            next: AtomicUsize::new(0),
            waker: Mutex::default(),
            lacking: Lacking::default(),
        })
    }

    /// The key of a question: the one given, or the next number after the method's name.
    pub(crate) fn key(&self, key: Option<&str>, method: &Method) -> String {
        key.map_or_else(
            || {
                let number = self.next.fetch_add(1, Ordering::Relaxed);
                let name = method.as_str();
                let kind = name.split('/').next().unwrap_or(name);
                format!("{kind}-{number}")
            },
            str::to_owned,
        )
    }

    /// The answer to question `key`, if the round has it; else the question is recorded.
    pub(crate) fn answer_or_ask(
        &self,
        key: String,
        method: Method,
        params: Value,
    ) -> Option<Value> {
        if let Some(answer) = self.answers.get(&key) {
            lock(&self.used).insert(key, answer.clone());
            return Some(answer.clone());
        }
        lock(&self.asked).insert(key, json!({"method": method, "params": params}));
        if let Some(waker) = lock(&self.waker).take() {
            waker.wake();
        }
        None
    }

    /// Whether a question was asked in this round (its call then ends with `input_required`).
    pub(crate) fn has_asked(&self) -> bool {
        !lock(&self.asked).is_empty()
    }

    /// Records that a question needed `capability` (`elicitation.url`, `sampling`, …), which
    /// the client did not declare.
    pub(crate) fn lacks(&self, capability: &'static str) {
        self.lacking.lacks(capability);
    }

    /// The spec's answer to a request that needs a client capability not declared:
    /// `-32021` with `requiredCapabilities`. It replaces the tool's result when the tool failed
    /// (`isError`) with the [`AskError`] it was given (its sentence in the result's text, as `?`
    /// passes it on); a tool that went on without the answer did not need it, and a failure
    /// of its own (or of its time limit) stands.
    pub(crate) fn unless_lacking(
        &self,
        result: CallToolResult,
    ) -> Result<CallToolResult, ErrorObject> {
        if !result.is_error {
            return Ok(result);
        }
        match self.lacking_behind(&result.text_content()) {
            Some(error) => Err(error),
            None => Ok(result),
        }
    }

    /// `-32021` when the failure whose text is `failure` passes on what a request was told of
    /// a capability the client did not declare (a prompt's `Err`, a tool's `isError`).
    pub(crate) fn lacking_behind(&self, failure: &str) -> Option<ErrorObject> {
        self.lacking.behind(failure)
    }

    /// Runs `call` until it completes or waits on questions this round cannot answer. `Err`
    /// when the questions' state cannot be sealed.
    pub(crate) async fn run<R>(
        &self,
        sealer: &Sealer,
        call: impl Future<Output = R>,
    ) -> Result<Outcome<R>, ErrorObject> {
        let mut call = pin!(call);
        let asked = std::future::poll_fn(|cx| {
            *lock(&self.waker) = Some(cx.waker().clone());
            match call.as_mut().poll(cx) {
                Poll::Ready(result) => Poll::Ready(Ok(result)),
                Poll::Pending if !lock(&self.asked).is_empty() => Poll::Ready(Err(())),
                Poll::Pending => Poll::Pending,
            }
        })
        .await;
        match asked {
            Ok(result) => Ok(Outcome::Completed(result)),
            Err(()) => self.input_required(sealer).map(Outcome::InputRequired),
        }
    }

    fn input_required(&self, sealer: &Sealer) -> Result<Value, ErrorObject> {
        let requests = std::mem::take(&mut *lock(&self.asked));
        let carried = Carried {
            answers: std::mem::take(&mut *lock(&self.used)),
            asked: requests.keys().cloned().collect(),
        };
        let state = sealer.seal(carried, self.binding.get())?;
        Ok(to_json(&InputRequiredResult {
            result_type: "input_required",
            input_requests: requests,
            request_state: state,
        }))
    }
}

/// Adds to `answers` the `responses` to questions that were `asked`, and, when `early`, the
/// objects under other keys (answers to questions not asked yet); an answer already there
/// (sealed in an earlier round) stands, and any other response is ignored, whatever it holds
/// (servers ignore what they do not recognise). `Err` when the response to a question asked is
/// not an object (the result of the request it answers).
fn take_answers(
    answers: &mut Map<String, Value>,
    asked: &BTreeSet<String>,
    early: bool,
    responses: &Map<String, Value>,
) -> Result<(), ErrorObject> {
    for (key, response) in responses {
        let was_asked = asked.contains(key);
        let taken = was_asked || (early && response.is_object());
        if !taken || answers.contains_key(key) {
            tracing::debug!(key, "an input response to no question asked: ignored");
        } else if response.is_object() {
            answers.insert(key.clone(), response.clone());
        } else {
            return Err(ErrorObject::invalid_params(format!(
                "`inputResponses.{key}` must be the result object of the request it answers"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::seal::Subject;
    use super::*;
    use crate::principal::Principal;

    fn round(params: &Value) -> Round {
        let binding = LazyBinding::new(None, Subject::Tool("tool"), None);
        Round::start(
            &Sealer::new(None),
            params.as_object().unwrap(),
            binding,
            false,
        )
        .unwrap()
    }

    #[tokio::test]
    async fn a_question_from_a_spawned_task_still_ends_the_round() {
        let sealer = Sealer::new(None);
        let round = Arc::new(round(&json!({})));
        let asking = Arc::clone(&round);
        let call = async move {
            tokio::spawn(async move {
                let key = asking.key(None, &Method::ListRoots);
                assert_eq!(
                    asking.answer_or_ask(key, Method::ListRoots, json!({})),
                    None
                );
                // As `Question::ask` does: the asker waits for the next round.
                std::future::pending::<()>().await;
            })
            .await
        };
        let ended =
            tokio::time::timeout(std::time::Duration::from_secs(5), round.run(&sealer, call))
                .await
                .expect("the round ends");
        let Ok(Outcome::InputRequired(input_required)) = ended else {
            panic!("an input_required result");
        };
        assert_eq!(
            input_required["inputRequests"],
            json!({"roots-0": {"method": "roots/list", "params": {}}})
        );
    }

    #[test]
    fn answers_to_questions_asked_that_are_not_results_are_refused_and_others_ignored() {
        let sealer = Sealer::new(None);
        let binding = || LazyBinding::new(None, Subject::Tool("tool"), None);
        let asked = Carried {
            answers: Map::new(),
            asked: BTreeSet::from(["confirm".to_owned()]),
        };
        let state = sealer.seal(asked, binding().get()).unwrap();
        let start = |responses: Value| {
            let params = json!({"inputResponses": responses, "requestState": state});
            Round::start(&sealer, params.as_object().unwrap(), binding(), false)
        };
        assert_eq!(
            start(json!({"confirm": 12345}))
                .err()
                .map(|error| error.message),
            Some(
                "`inputResponses.confirm` must be the result object of the request it answers"
                    .into()
            )
        );
        // A response to no question asked is ignored, whatever it holds.
        let round = start(json!({"confirm": {"action": "accept"}, "other": 12345})).unwrap();
        assert_eq!(
            round.answers,
            json!({"confirm": {"action": "accept"}})
                .as_object()
                .unwrap()
                .clone()
        );
        let first = Round::start(
            &sealer,
            json!({"inputResponses": {"confirm": 12345}})
                .as_object()
                .unwrap(),
            binding(),
            false,
        );
        assert!(first.is_ok(), "nothing was asked: ignored");
    }

    #[test]
    fn early_answers_are_taken_only_when_the_server_accepts_them() {
        let sealer = Sealer::new(None);
        let binding = || LazyBinding::new(None, Subject::Tool("tool"), None);
        let early = |accepted| {
            Round::start(
                &sealer,
                json!({"inputResponses": {"confirm": {"action": "accept"}}})
                    .as_object()
                    .unwrap(),
                binding(),
                accepted,
            )
            .unwrap()
            .answers
        };
        assert!(early(false).is_empty(), "asked nothing: ignored");
        assert_eq!(
            early(true),
            json!({"confirm": {"action": "accept"}})
                .as_object()
                .unwrap()
                .clone()
        );
        // A value under a key no question asked is ignored whatever it is, early answers on
        // or off: only an object can be an answer.
        for accepted in [false, true] {
            let ignored = Round::start(
                &sealer,
                json!({"inputResponses": {"confirm": 12345, "note": "hi"}})
                    .as_object()
                    .unwrap(),
                binding(),
                accepted,
            )
            .expect("nothing asked: nothing refused");
            assert!(ignored.answers.is_empty(), "{accepted}");
        }
        // The answer to a question asked must still be a result object.
        let asked = BTreeSet::from(["confirm".to_owned()]);
        for early in [false, true] {
            let mut answers = Map::new();
            let responses = json!({"confirm": 12345});
            let refused = take_answers(&mut answers, &asked, early, responses.as_object().unwrap());
            assert!(refused.is_err(), "{early}");
        }
    }

    /// The binding is made only once a question is asked: the state that round seals still
    /// opens only for the same caller, tool and arguments (in any order of their keys).
    #[tokio::test]
    async fn state_sealed_by_a_round_bound_late_opens_only_for_its_caller_and_arguments() {
        let sealer = Sealer::new(None);
        let arguments = |value: Value| value.as_object().cloned();
        let bound = |principal: Option<Principal>, value: Value| {
            LazyBinding::new(principal, Subject::Tool("delete"), arguments(value))
        };
        let first = Round::start(
            &sealer,
            &Map::new(),
            bound(None, json!({"path": "/a", "force": true})),
            false,
        )
        .unwrap();
        assert!(!first.binding.is_made(), "nothing asked, nothing bound");
        let asking = async {
            let asked = first.answer_or_ask("confirm".into(), Method::Elicit, json!({}));
            assert_eq!(asked, None);
            std::future::pending::<()>().await;
        };
        let Ok(Outcome::InputRequired(input_required)) = first.run(&sealer, asking).await else {
            panic!("an input_required result");
        };
        assert!(first.binding.is_made());
        let retry = |binding| {
            let params = json!({
                "requestState": input_required["requestState"],
                "inputResponses": {"confirm": {"action": "accept"}},
            });
            Round::start(&sealer, params.as_object().unwrap(), binding, false)
        };
        let same = retry(bound(None, json!({"force": true, "path": "/a"}))).unwrap();
        assert!(same.binding.is_made(), "bound to open its state");
        assert_eq!(
            same.answers,
            *json!({"confirm": {"action": "accept"}})
                .as_object()
                .unwrap()
        );
        let refused = Some("Invalid or expired requestState".to_owned());
        let other_arguments = retry(bound(None, json!({"path": "/b", "force": true})));
        assert_eq!(other_arguments.err().map(|error| error.message), refused);
        let other_caller = retry(bound(
            Some(Principal::new("app", None)),
            json!({"path": "/a", "force": true}),
        ));
        assert_eq!(other_caller.err().map(|error| error.message), refused);
        let other_tool = retry(LazyBinding::new(
            None,
            Subject::Prompt("delete"),
            arguments(json!({"path": "/a", "force": true})),
        ));
        assert_eq!(other_tool.err().map(|error| error.message), refused);
    }
}
