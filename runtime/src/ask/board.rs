//! A task's questions: what a tool running as a task asks its client. Each question waits on the
//! board under its key (the task's `inputRequests`) until a `tasks/update` answers it
//! (`inputResponses`); the tool's `ctx.elicit` (`sample`, `roots`) simply awaits its answer.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::sync::{Notify, oneshot};

use super::AskError;
use crate::jsonrpc::Method;
use crate::sync::lock;

/// The open questions of one task, and the keys it has used (a key names one question over the
/// task's whole life, as the extension requires).
pub(crate) struct Board {
    questions: Mutex<Questions>,
    /// Woken when a question is asked or answered: the task's record then changes status.
    changed: Notify,
    /// How long a question waits for its answer (the task's TTL): past it, the tool's question
    /// fails (`AskError::TimedOut`), so that a task nobody answers ends.
    wait: Duration,
}

#[derive(Default)]
struct Questions {
    next: u64,
    used: BTreeSet<String>,
    open: BTreeMap<String, Open>,
}

struct Open {
    request: Value,
    answer: oneshot::Sender<Value>,
}

impl Board {
    /// A board whose questions wait at most `wait` for their answers.
    pub(crate) fn new(wait: Duration) -> Self {
        Self {
            questions: Mutex::default(),
            changed: Notify::new(),
            wait,
        }
    }

    /// Asks `method` under `key` (or the next `elicitation-N`, `sampling-N`, `roots-N`) and waits
    /// for the client's answer.
    pub(crate) async fn ask(
        &self,
        key: Option<&str>,
        method: &Method,
        params: Value,
    ) -> Result<Value, AskError> {
        let (answer, answered) = oneshot::channel();
        let key = {
            let mut questions = lock(&self.questions);
            let key = match key {
                Some(key) => key.to_owned(),
                None => loop {
                    questions.next += 1;
                    let name = method.as_str();
                    let kind = name.split('/').next().unwrap_or(name);
                    let key = format!("{kind}-{}", questions.next);
                    if !questions.used.contains(&key) {
                        break key;
                    }
                },
            };
            if !questions.used.insert(key.clone()) {
                return Err(AskError::BadAnswer(format!(
                    "the question key {key:?} was used before in this task: a key names one question"
                )));
            }
            let request = json!({"method": method.as_str(), "params": params});
            questions.open.insert(key.clone(), Open { request, answer });
            key
        };
        self.changed.notify_one();
        if let Ok(answer) = tokio::time::timeout(self.wait, answered).await {
            return answer.map_err(|_| AskError::NoChannel);
        }
        lock(&self.questions).open.remove(&key);
        self.changed.notify_one();
        Err(AskError::TimedOut(self.wait))
    }

    /// The questions waiting for an answer (`inputRequests`).
    pub(crate) fn open(&self) -> Map<String, Value> {
        lock(&self.questions)
            .open
            .iter()
            .map(|(key, open)| (key.clone(), open.request.clone()))
            .collect()
    }

    /// Answers the open questions `responses` names; a response to a key not open is ignored,
    /// as the extension says. `Err` names a response that is not an object.
    pub(crate) fn answer(&self, responses: &Map<String, Value>) -> Result<(), String> {
        if let Some((key, _)) = responses.iter().find(|(_, response)| !response.is_object()) {
            return Err(format!(
                "`inputResponses.{key}` must be the result object of the request it answers"
            ));
        }
        let mut answered = false;
        {
            let mut questions = lock(&self.questions);
            for (key, response) in responses {
                if let Some(open) = questions.open.remove(key) {
                    answered = true;
                    let _ = open.answer.send(response.clone());
                } else {
                    tracing::debug!(key, "an input response to no open question: ignored");
                }
            }
        }
        if answered {
            self.changed.notify_one();
        }
        Ok(())
    }

    /// Waits until a question is asked or answered.
    pub(crate) async fn changed(&self) {
        self.changed.notified().await;
    }
}
