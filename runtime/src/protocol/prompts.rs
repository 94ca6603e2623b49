//! `prompts/list` (pages and the 2026 caching fields, as every list has them: `listing.rs`) and
//! what `prompts/get` reads and answers; running the prompt, with its context and its round,
//! is the dispatcher's, as a tool call is.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::{ProtocolVersion, downgrade, listing};
use crate::context::AuthInfo;
use crate::fields::field_mut;
use crate::jsonrpc::{ErrorObject, codes, to_json};
use crate::registry::{PromptError, PromptSet};
use crate::types::ListPromptsResult;
use crate::visibility::View;

/// One page of `prompts/list` at `version`.
pub(super) fn list(
    prompts: &PromptSet,
    params: &Map<String, Value>,
    version: ProtocolVersion,
    page_size: usize,
    ttl_ms: u64,
    (auth, view): (Option<&AuthInfo>, &View),
) -> Result<Value, ErrorObject> {
    let visible = prompts.visible_to(auth, view);
    let definitions = visible.definitions;
    let (page, next_cursor) =
        listing::page(&definitions, |prompt| &prompt.name, params, page_size)?;
    let prompts = page
        .iter()
        .map(|prompt| downgrade::prompt(prompt, version))
        .collect();
    let mut result = to_json(&ListPromptsResult {
        prompts,
        next_cursor,
    });
    listing::cacheable(&mut result, version, ttl_ms);
    if visible.granted.is_some() || view.varies() {
        listing::private(&mut result);
    }
    Ok(result)
}

/// What a `prompts/get` asks for.
pub(super) struct GetRequest {
    pub(super) name: String,
    /// The arguments as the client sent them, for the binding of a 2026-07-28 round.
    pub(super) sent: Option<Map<String, Value>>,
    /// The arguments as strings, for the prompt.
    pub(super) arguments: BTreeMap<String, String>,
}

/// A `prompts/get`'s `name` and `arguments`, taken out of its params: found without hashing
/// (`fields`), `null` left in their place.
pub(super) fn name_and_arguments(
    params: &mut Map<String, Value>,
) -> Result<GetRequest, ErrorObject> {
    let Some(Value::String(name)) = field_mut(params, "name").map(Value::take) else {
        return Err(ErrorObject::invalid_params(
            "prompts/get requires a string `name`",
        ));
    };
    let arguments = match field_mut(params, "arguments").map(Value::take) {
        None | Some(Value::Null) => None,
        Some(Value::Object(arguments)) => Some(arguments),
        Some(_) => return Err(ErrorObject::invalid_params("`arguments` must be an object")),
    };
    let strings = strings(arguments.as_ref(), "arguments")?;
    Ok(GetRequest {
        name,
        sent: arguments,
        arguments: strings,
    })
}

/// An object of string values (prompt arguments, a completion's `context.arguments`); `Err`
/// names the first value that is not a string.
pub(super) fn strings(
    object: Option<&Map<String, Value>>,
    what: &str,
) -> Result<BTreeMap<String, String>, ErrorObject> {
    object
        .into_iter()
        .flatten()
        .map(|(key, value)| match value {
            Value::String(text) => Ok((key.clone(), text.clone())),
            _ => Err(ErrorObject::invalid_params(format!(
                "`{what}.{key}` must be a string: prompt arguments are strings"
            ))),
        })
        .collect()
}

/// The JSON-RPC error of a prompt that gave no result: a refused argument is `-32602`, the
/// prompt's own failure `-32603` with its message.
pub(super) fn error(error: PromptError) -> ErrorObject {
    match error {
        PromptError::InvalidArgument(message) => ErrorObject::invalid_params(message),
        PromptError::Failed(message) => ErrorObject::new(codes::INTERNAL_ERROR, message),
    }
}
