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
    /// What the tool last said of its progress (`Context::progress`): the task's
    /// `statusMessage` while it works, as a task has no progress notifications.
    status: Mutex<Option<String>>,
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
            status: Mutex::default(),
            changed: Notify::new(),
            wait,
        }
    }

    /// Asks `method` under `key` (or the next `elicitation-N`, `sampling-N`, `roots-N`; a key
    /// used before in the task becomes `key-2`, `key-3`, …: a wire key names one question over
    /// the task's life) and waits for the client's answer.
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
                // A key the tool uses again names a new question: `key-2`, `key-3`, …
                Some(key) if !questions.used.contains(key) => key.to_owned(),
                Some(key) => {
                    let mut n = 2;
                    while questions.used.contains(&format!("{key}-{n}")) {
                        n += 1;
                    }
                    format!("{key}-{n}")
                }
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
            questions.used.insert(key.clone());
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
        Self::check(responses)?;
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

    /// `Err` names a response of `responses` that is not an object (what [`answer`](Self::answer)
    /// refuses), for answers checked where the board is not (another process runs the task).
    pub(crate) fn check(responses: &Map<String, Value>) -> Result<(), String> {
        match responses.iter().find(|(_, response)| !response.is_object()) {
            Some((key, _)) => Err(format!(
                "`inputResponses.{key}` must be the result object of the request it answers"
            )),
            None => Ok(()),
        }
    }

    /// Records the tool's progress as the task's status message, for its poller.
    pub(crate) fn report(&self, status: String) {
        *lock(&self.status) = Some(status);
        self.changed.notify_one();
    }

    /// What the tool last reported of its progress.
    pub(crate) fn status(&self) -> Option<String> {
        lock(&self.status).clone()
    }

    /// Waits until a question is asked or answered, or the tool reports progress.
    pub(crate) async fn changed(&self) {
        self.changed.notified().await;
    }
}
