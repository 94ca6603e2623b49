//! The tasks extension on the protocol's side: a `tools/call` that becomes a task (at once, or
//! past the server's budget), and `tasks/get`, `tasks/update`, `tasks/cancel`.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use serde_json::{Map, Value};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::{ProtocolVersion, downgrade};
use crate::ask::board::Board;
use crate::ask::round::Round;
use crate::client_capabilities::ClientCapabilities;
use crate::context::{AuthInfo, Context};
use crate::jsonrpc::{ErrorObject, Method, codes};
use crate::principal::Principal;
use crate::result::CallToolResult;
use crate::task::{Finished, Reservation, Stops, Tasks, extension_missing, negotiated};

/// How a call's run ended.
pub(crate) enum Ran {
    /// Its outcome, and whether the tool panicked (as a task, a failure).
    Done(Result<CallToolResult, ErrorObject>, bool),
    /// It asked, before it became a task, what its 2026-07-28 round cannot answer: the
    /// `input_required` result.
    InputRequired(Value),
}

/// A call that may become a task.
pub(crate) struct TaskCall {
    /// The caller's key: only it may reach the task.
    pub(crate) owner: Option<String>,
    /// `task = "required"`: a task even when it finishes within the budget.
    pub(crate) required: bool,
    /// Its place under the task caps: given back when the call ends, task or not.
    pub(crate) reservation: Reservation,
    pub(crate) context: Context,
    /// Cancels the tool's context: the task's cancellation.
    pub(crate) cancel: CancellationToken,
    /// The request's own cancellation (the client left, or cancelled it) while it waits.
    pub(crate) request_cancel: CancellationToken,
    pub(crate) version: ProtocolVersion,
    /// The request's 2026-07-28 round: a question asked there before the call became a task is
    /// answered on the request.
    pub(crate) round: Option<Arc<Round>>,
    /// Resolves once the hooks let the call through to the tool's fn, its arguments valid.
    pub(crate) fn_started: oneshot::Receiver<()>,
    /// Where its questions wait once it is a task.
    pub(crate) board: Arc<Board>,
    /// Whether the tool stops when its future is dropped (not a plain fn's, on a blocking
    /// thread): a cancelled task of one that cannot is `cancelled` only once it returns.
    pub(crate) stoppable: bool,
}

/// The caller's key as a task's owner.
pub(crate) fn owner(auth: Option<&AuthInfo>) -> Option<String> {
    auth.map(|auth| Principal::key(&auth.principal()))
}

/// What a task's call comes to: a result (`completed`) or a JSON-RPC error (`failed`; a panic is
/// one).
fn finished(ran: Ran, version: ProtocolVersion) -> Finished {
    match ran {
        Ran::Done(Ok(result), true) => Finished::Error(ErrorObject::new(
            codes::INTERNAL_ERROR,
            result.text_content(),
        )),
        Ran::Done(Ok(result), false) => {
            // The result the call would have answered, `resultType` and all (tasks are
            // 2026-07-28 only, where every result carries it).
            let mut result = downgrade::call_result(result, version);
            if let Value::Object(result) = &mut result {
                result.insert("resultType".into(), Value::from("complete"));
            }
            Finished::Result(result)
        }
        Ran::Done(Err(error), _) => Finished::Error(error),
        Ran::InputRequired(_) => Finished::Error(ErrorObject::new(
            codes::INTERNAL_ERROR,
            "the tool asked its client a question just as its call became a task; call it again",
        )),
    }
}

/// A spawned call, aborted when dropped (a cancelled task's tool past its grace).
struct Aborting(JoinHandle<Ran>);

impl Drop for Aborting {
    fn drop(&mut self) {
        self.0.abort();
    }
}

async fn joined(handle: &mut Aborting) -> Ran {
    (&mut handle.0).await.unwrap_or_else(|error| {
        Ran::Done(
            Err(ErrorObject::new(
                codes::INTERNAL_ERROR,
                format!("the tool's call stopped: {error}"),
            )),
            false,
        )
    })
}

/// Runs `job`, a call of a task tool for a client that negotiated the extension: a task at once
/// (no budget), or within the request for the budget and then a task.
pub(crate) async fn call(
    tasks: &Arc<Tasks>,
    call: TaskCall,
    job: BoxFuture<'static, Ran>,
) -> Result<Value, ErrorObject> {
    let TaskCall {
        owner,
        required,
        reservation,
        context,
        cancel,
        request_cancel,
        version,
        round,
        mut fn_started,
        board,
        stoppable,
    } = call;
    let budget = tasks.settings.budget;
    let mut handle = Aborting(tokio::spawn(job));
    if budget.is_zero() {
        // A task once the hooks let it through to the fn: a refusal answers the request.
        tokio::select! {
            started = fn_started => if started.is_err() {
                // The call ended before its fn ran: refused (a hook, its arguments).
                return match joined(&mut handle).await {
                    Ran::InputRequired(input_required) => Ok(input_required),
                    Ran::Done(outcome, _) => {
                        outcome.map(|result| downgrade::call_result(result, version))
                    }
                };
            },
            () = request_cancel.cancelled() => {
                cancel.cancel();
                return Err(ErrorObject::new(codes::INTERNAL_ERROR, "the request was cancelled"));
            }
        }
        return into_task(
            tasks,
            (owner, reservation),
            (context, cancel, board, round),
            (handle, stoppable),
            version,
        )
        .await;
    }
    tokio::select! {
        ran = joined(&mut handle) => match ran {
            Ran::InputRequired(input_required) => return Ok(input_required),
            // An optional task, or a call refused before its fn ran (a hook, its arguments).
            Ran::Done(outcome, _) if !required || fn_started.try_recv().is_err() => {
                return outcome.map(|result| downgrade::call_result(result, version));
            }
            ran @ Ran::Done(..) => {
                let record = tasks.create(owner).await?;
                let created = tasks.created(&record);
                let ran = std::future::ready(finished(ran, version));
                tasks.spawn(record, (cancel, board, reservation), ran, Stops::WhenDropped);
                return Ok(created);
            }
        },
        () = tokio::time::sleep(budget) => {}
        () = request_cancel.cancelled() => {
            cancel.cancel();
            return Err(ErrorObject::new(codes::INTERNAL_ERROR, "the request was cancelled"));
        }
    }
    into_task(
        tasks,
        (owner, reservation),
        (context, cancel, board, round),
        (handle, stoppable),
        version,
    )
    .await
}

/// The running call `handle` becomes a task: its record created, followed by the engine; the
/// `CreateTaskResult` (or, when a question reached the request just before, `input_required`).
async fn into_task(
    tasks: &Arc<Tasks>,
    (owner, reservation): (Option<String>, Reservation),
    (context, cancel, board, round): (Context, CancellationToken, Arc<Board>, Option<Arc<Round>>),
    (mut handle, stoppable): (Aborting, bool),
    version: ProtocolVersion,
) -> Result<Value, ErrorObject> {
    // Questions move to the board first: from now on none reaches the request's round.
    become_task(&context, &board);
    if round.as_ref().is_some_and(|round| round.has_asked()) {
        // One was asked there just before: its call ends with `input_required` (at its next
        // poll), which the request answers, as within the budget.
        let ran = joined(&mut handle).await;
        if let Ran::InputRequired(input_required) = ran {
            return Ok(input_required);
        }
        let record = tasks.create(owner).await?;
        let created = tasks.created(&record);
        let ran = std::future::ready(finished(ran, version));
        tasks.spawn(
            record,
            (cancel, board, reservation),
            ran,
            Stops::WhenDropped,
        );
        return Ok(created);
    }
    let record = tasks.create(owner).await?;
    let created = tasks.created(&record);
    let job = async move { finished(joined(&mut handle).await, version) };
    let stops = if stoppable {
        Stops::WhenDropped
    } else {
        Stops::ByReturning
    };
    tasks.spawn(record, (cancel, board, reservation), job, stops);
    Ok(created)
}

/// From now on the call's questions wait on the task's board, and nothing more goes to the
/// request (the extension sends no progress or logs for a task).
pub(crate) fn become_task(context: &Context, board: &Arc<Board>) {
    context.to_board(Arc::clone(board));
    context.finish();
}

/// `tasks/get`, `tasks/update` and `tasks/cancel` of a 2026-07-28 client with capabilities
/// `declared`.
pub(crate) async fn answer(
    tasks: &Tasks,
    method: &Method,
    params: &Map<String, Value>,
    declared: &ClientCapabilities,
    auth: Option<&AuthInfo>,
) -> Result<Value, ErrorObject> {
    if !negotiated(declared) {
        return Err(extension_missing());
    }
    let Some(id) = params.get("taskId").and_then(Value::as_str) else {
        return Err(ErrorObject::invalid_params(format!(
            "{method} requires a string `taskId`"
        )));
    };
    let owner = owner(auth);
    let owner = owner.as_deref();
    match method {
        Method::TasksGet => tasks.get(id, owner).await,
        Method::TasksUpdate => {
            let none = Map::new();
            let responses = match params.get("inputResponses") {
                None | Some(Value::Null) => &none,
                Some(Value::Object(responses)) => responses,
                Some(_) => {
                    return Err(ErrorObject::invalid_params(
                        "`inputResponses` must be an object",
                    ));
                }
            };
            tasks.update(id, owner, responses).await
        }
        Method::TasksCancel => tasks.cancel(id, owner).await,
        other => Err(ErrorObject::new(
            codes::METHOD_NOT_FOUND,
            format!("Method not found: {other}"),
        )),
    }
}

/// How many tasks one `subscriptions/listen` stream follows at most: the first so many distinct
/// ids of the shape the server mints are read (together, in one call to the store), the rest
/// left out of the acknowledgement, as `resourceSubscriptions` past their cap are.
pub(crate) const MAX_LISTENED_TASKS: usize = 1_024;

/// The `taskIds` of a `subscriptions/listen` request (`ids`, as its filter read them) that the
/// stream will follow: the caller's own tasks among the first [`MAX_LISTENED_TASKS`] it names
/// (another's, an unknown one, one past the cap or not of the shape of our ids, is left out of
/// the acknowledgement), read in one call to the store. `None` when it names none; `-32021`
/// when it names some without the extension.
pub(crate) async fn listened(
    tasks: &Tasks,
    ids: Option<Vec<String>>,
    declared: &ClientCapabilities,
    auth: Option<&AuthInfo>,
) -> Result<Option<Vec<String>>, ErrorObject> {
    let Some(ids) = ids else {
        return Ok(None);
    };
    if !negotiated(declared) {
        return Err(extension_missing());
    }
    let mut asked = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for id in ids {
        if asked.len() < MAX_LISTENED_TASKS && crate::random::is_id(&id) && seen.insert(id.clone())
        {
            asked.push(id);
        }
    }
    // Boxed: the read's future is kilobytes, which every listen stream would hold otherwise.
    let read = Box::pin(tasks.get_many(&asked, owner(auth).as_deref())).await?;
    let followed = asked
        .into_iter()
        .zip(read)
        .filter_map(|(id, task)| task.map(|_| id))
        .collect();
    Ok(Some(followed))
}
