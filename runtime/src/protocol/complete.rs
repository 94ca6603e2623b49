//! `completion/complete`: the values that complete a prompt's argument (`ref/prompt`) or a
//! resource template's variable (`ref/resource`), from its completer, told the arguments the
//! client already resolved (`context.arguments`). At most 100 values are sent.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::prompts;
use super::scope::RequestScope;
use crate::call;
use crate::jsonrpc::{ErrorObject, codes, to_json};
use crate::limits::CallClock;
use crate::registry::{Completer, CompletionContext, Listed, PromptSet};
use crate::state::StateMap;
use crate::visibility::View;

/// What `completion/complete` reads of the server.
pub(super) struct Completable<'a> {
    pub(super) prompts: &'a PromptSet,
    /// A snapshot of the live resources.
    pub(super) resources: Arc<Listed>,
    pub(super) states: &'a Arc<StateMap>,
    /// What the request sees: a prompt it hides is unknown to it.
    pub(super) view: &'a View,
}

impl Completable<'_> {
    /// Whether anything completes: the `completions` capability.
    pub(super) fn any(&self) -> bool {
        self.prompts.any(crate::registry::Prompt::completes) || self.resources.completes()
    }
}

/// Answers one `completion/complete`; an unknown prompt, template or argument is `-32602`. A
/// completer runs within `time_limit`, as a tool call does: past it, `-32603`.
pub(super) async fn complete(
    params: &Map<String, Value>,
    completable: &Completable<'_>,
    time_limit: Duration,
    scope: &RequestScope,
    session_id: Option<String>,
) -> Result<Value, ErrorObject> {
    let reference = params
        .get("ref")
        .and_then(Value::as_object)
        .ok_or_else(|| {
            ErrorObject::invalid_params("completion/complete requires an object `ref`")
        })?;
    let argument = params
        .get("argument")
        .and_then(Value::as_object)
        .ok_or_else(|| {
            ErrorObject::invalid_params("completion/complete requires an object `argument`")
        })?;
    let (Some(Value::String(name)), Some(Value::String(partial))) =
        (argument.get("name"), argument.get("value"))
    else {
        return Err(ErrorObject::invalid_params(
            "`argument` requires a string `name` and a string `value`",
        ));
    };
    let resolved = params
        .get("context")
        .and_then(|context| context.get("arguments"))
        .and_then(Value::as_object);
    let resolved = prompts::strings(resolved, "context.arguments")?;
    let completer = referenced_completer(reference, name, completable)?;
    let completion = match completer {
        Some(completer) => {
            let context = CompletionContext::new(resolved, Arc::clone(completable.states))
                .caller(scope.auth.clone(), session_id);
            let completing = completer.complete(partial.clone(), context);
            let clock = CallClock::default();
            call::within(completing, time_limit, &clock, &scope.cancellation)
                .await
                .ok_or_else(|| {
                    tracing::warn!(argument = %name, limit = ?time_limit, "completer stopped at its time limit");
                    ErrorObject::new(
                        codes::INTERNAL_ERROR,
                        format!(
                            "Completing `{name}` ran longer than its time limit of {time_limit:?} and was stopped"
                        ),
                    )
                })?
                .map_err(|message| ErrorObject::new(codes::INTERNAL_ERROR, message))?
                .capped()
        }
        None => crate::registry::Completion::default(),
    };
    Ok(json!({ "completion": to_json(&completion) }))
}

/// The completer of argument `name` of what `reference` names (a prompt, or a resource
/// template); `None` when it has no completer. An unknown reference or argument is `-32602`.
fn referenced_completer(
    reference: &Map<String, Value>,
    name: &str,
    completable: &Completable<'_>,
) -> Result<Option<Completer>, ErrorObject> {
    let text = |key: &str| reference.get(key).and_then(Value::as_str);
    let completer = match text("type") {
        Some("ref/prompt") => {
            let prompt_name = text("name").ok_or_else(|| {
                ErrorObject::invalid_params("`ref/prompt` requires a string `name`")
            })?;
            let prompt = completable
                .prompts
                .get_for(prompt_name, completable.view)
                .ok_or_else(|| {
                    ErrorObject::invalid_params(format!("Unknown prompt: {prompt_name}"))
                })?;
            prompt
                .completer(name)
                .map_err(|()| {
                    ErrorObject::invalid_params(format!(
                        "Prompt `{prompt_name}` has no argument `{name}`"
                    ))
                })?
                .cloned()
        }
        Some("ref/resource") => {
            let uri = text("uri").ok_or_else(|| {
                ErrorObject::invalid_params("`ref/resource` requires a string `uri`")
            })?;
            let template = completable.resources.template(uri).ok_or_else(|| {
                ErrorObject::invalid_params(format!("Unknown resource template: {uri}"))
            })?;
            template
                .completer(name)
                .map_err(|()| {
                    ErrorObject::invalid_params(format!(
                        "Resource template `{uri}` has no variable `{name}`"
                    ))
                })?
                .cloned()
        }
        _ => {
            return Err(ErrorObject::invalid_params(
                "`ref.type` must be `ref/prompt` or `ref/resource`",
            ));
        }
    };
    Ok(completer)
}
