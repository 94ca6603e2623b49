//! The Skills extension's methods (SEP-2640): `skills/list` (paged as every list is, each
//! entry whole on one page), `skills/get` (one entry by its `SKILL.md`'s URI) and
//! `resources/directory/read` (a skill directory's direct children). An unknown skill or a URI
//! that is no directory is `-32602`, the URI in `data`, as an unknown resource is.

use std::sync::Arc;

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::era::Era;
use super::{ProtocolVersion, listing, meta, resources};
use crate::jsonrpc::{ErrorObject, Method, to_json};
use crate::skill::{Child, SkillSet};
use crate::types::Implementation;

/// What the skill methods read of the server.
pub(super) struct Served<'a> {
    pub(super) skills: &'a SkillSet,
    pub(super) page_size: usize,
    pub(super) ttl_ms: u64,
}

/// Answers `skills/get` or `resources/directory/read` (`skills/list` is [`list`]); `None` for
/// a method that is not one.
pub(super) fn answer(
    method: &Method,
    params: &Map<String, Value>,
    era: &Era,
    served: &Served<'_>,
) -> Option<Result<Value, ErrorObject>> {
    let answer = match method {
        Method::GetSkill => get(params, era, served),
        Method::ReadResourceDirectory => read_directory(params, era, served),
        _ => return None,
    };
    Some(answer)
}

/// A page of `skills/list`, its entries serialized once (when the server was built) and
/// written out as they are.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SkillsPage<'a> {
    skills: Vec<&'a RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ttl_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_scope: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result_type: Option<&'static str>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<Value>,
}

/// `skills/list`: the page `params.cursor` asks for, whole (a 2026-07-28 result with its
/// caching fields, `resultType` and `_meta` as dispatch gives every other result).
pub(super) fn list(
    params: &Map<String, Value>,
    version: ProtocolVersion,
    served: &Served<'_>,
    server_info: &Implementation,
) -> Result<Arc<RawValue>, ErrorObject> {
    let (page, next_cursor) = listing::page(
        served.skills.entries(),
        |skill| &skill.uri,
        params,
        served.page_size,
    )?;
    let modern = version.is_modern();
    let result = SkillsPage {
        skills: page.iter().map(|skill| &*skill.raw).collect(),
        next_cursor,
        ttl_ms: modern.then_some(served.ttl_ms),
        cache_scope: modern.then_some("public"),
        result_type: modern.then_some("complete"),
        meta: modern.then(|| json!({ meta::SERVER_INFO: to_json(server_info) })),
    };
    Ok(serde_json::value::to_raw_value(&result)
        .expect("a page serializes")
        .into())
}

fn get(params: &Map<String, Value>, era: &Era, served: &Served<'_>) -> Result<Value, ErrorObject> {
    let uri = uri_of(params, "skills/get")?;
    let skill = served.skills.get(uri).ok_or_else(|| {
        ErrorObject::invalid_params(format!("No skill is served at {uri}"))
            .data(json!({"uri": uri}))
    })?;
    let mut result = json!({ "skill": skill });
    listing::cacheable(&mut result, era.version(), served.ttl_ms);
    Ok(result)
}

/// A directory's children. The SEP's result is a plain paged one, but the TypeScript SDK's
/// skills client (2.4) requires the caching fields on it at 2026-07-28, as on every other result
/// of the extension: they are sent, which no reader of the SEP's shape minds.
fn read_directory(
    params: &Map<String, Value>,
    era: &Era,
    served: &Served<'_>,
) -> Result<Value, ErrorObject> {
    let uri = uri_of(params, "resources/directory/read")?;
    let children = served.skills.directory(uri).ok_or_else(|| {
        ErrorObject::invalid_params(format!("{uri} is not a directory resource"))
            .data(json!({"uri": uri}))
    })?;
    let (page, next_cursor) =
        listing::page(children, |child| &child.uri, params, served.page_size)?;
    // A file is listed as `resources/list` lists it at this version, plus its size.
    let children: Vec<Value> = page
        .iter()
        .map(|child| match &child.child {
            Child::Directory(json) => json.clone(),
            Child::File { resource, size } => {
                let mut json = to_json(&resources::entry(resource, era.version()));
                json["size"] = json!(size);
                json
            }
        })
        .collect();
    let mut result = json!({ "resources": children });
    if let Some(cursor) = next_cursor {
        result["nextCursor"] = json!(cursor);
    }
    listing::cacheable(&mut result, era.version(), served.ttl_ms);
    Ok(result)
}

fn uri_of<'a>(params: &'a Map<String, Value>, method: &str) -> Result<&'a str, ErrorObject> {
    params
        .get("uri")
        .and_then(Value::as_str)
        .ok_or_else(|| ErrorObject::invalid_params(format!("{method} requires a string `uri`")))
}
