//! `resources/list`, `resources/templates/list` and `resources/read`, in either era: pages like
//! `tools/list`, the 2026 caching fields, titles only for versions that have them, and the
//! unknown URI as SEP-2164 words it (`-32602`, the URI in `data`).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value, json};

use super::era::Era;
use super::{ProtocolVersion, downgrade, listing};
use crate::context::Context;
use crate::jsonrpc::{ErrorObject, Method, codes, to_json};
use crate::registry::{Listed, ReadError, Resource, ResourceBody};
use crate::types::{
    ListResourceTemplatesResult, ListResourcesResult, ReadContents, ReadResourceResult,
    ResourceDefinition,
};

/// What the resource methods read of the server: the resources as of this request.
pub(super) struct Served<'a> {
    pub(super) resources: &'a Listed,
    pub(super) page_size: usize,
    pub(super) ttl_ms: u64,
}

/// Answers one resource list method; `None` for a method that is not one (`resources/read`
/// is [`read`]).
pub(super) fn answer(
    method: &Method,
    params: &Map<String, Value>,
    era: &Era,
    served: &Served<'_>,
) -> Option<Result<Value, ErrorObject>> {
    let version = era.version();
    let answer = match method {
        Method::ListResources => page(served.resources.resources(), params, served.page_size).map(
            |(page, next_cursor)| {
                let resources = page.iter().map(|r| entry(r, version)).collect();
                cacheable(
                    to_json(&ListResourcesResult {
                        resources,
                        next_cursor,
                    }),
                    era,
                    served.ttl_ms,
                )
            },
        ),
        Method::ListResourceTemplates => {
            page(served.resources.templates(), params, served.page_size).map(
                |(page, next_cursor)| {
                    let resource_templates = page.iter().map(|r| entry(r, version)).collect();
                    cacheable(
                        to_json(&ListResourceTemplatesResult {
                            resource_templates,
                            next_cursor,
                        }),
                        era,
                        served.ttl_ms,
                    )
                },
            )
        }
        _ => return None,
    };
    Some(answer)
}

/// How a resource is listed for a client of `version`: under `uri`, or `uriTemplate` for a
/// template.
pub(crate) fn entry(resource: &Resource, version: ProtocolVersion) -> ResourceDefinition {
    let owned = |text: Option<&str>| text.map(str::to_owned);
    let (uri, uri_template) = if resource.is_template() {
        (None, Some(resource.uri().to_owned()))
    } else {
        (Some(resource.uri().to_owned()), None)
    };
    ResourceDefinition {
        uri,
        uri_template,
        name: resource.name().to_owned(),
        title: owned(
            resource
                .listed_title()
                .filter(|_| version.has_structured_content()),
        ),
        description: owned(resource.listed_description()),
        mime_type: owned(resource.listed_mime_type()),
        icons: downgrade::icons(resource.icons(), version).to_vec(),
        meta: resource.meta().cloned(),
    }
}

/// The page of `items` (sorted by URI) after `params.cursor`, and the cursor of the next page.
fn page<'a>(
    items: &'a [Resource],
    params: &Map<String, Value>,
    page_size: usize,
) -> Result<(&'a [Resource], Option<String>), ErrorObject> {
    listing::page(items, |resource| resource.uri(), params, page_size)
}

/// `resources/read`: the contents at `params.uri`, a resource fn given `context`; `varies`
/// when a visibility rule decides what each caller sees (the contents are then no shared
/// cache's either).
pub(super) async fn read(
    params: &Map<String, Value>,
    era: &Era,
    served: &Served<'_>,
    (context, varies): (&Context, bool),
) -> Result<Value, ErrorObject> {
    let Some(Value::String(uri)) = params.get("uri") else {
        return Err(ErrorObject::invalid_params(
            "resources/read requires a string `uri`",
        ));
    };
    let (resource, body) =
        served
            .resources
            .read(uri, context)
            .await
            .map_err(|error| match error {
                ReadError::NotFound(why) => {
                    let message = match why {
                        Some(why) => format!("Resource not found: {uri} ({why})"),
                        None => format!("Resource not found: {uri}"),
                    };
                    ErrorObject::invalid_params(message).data(json!({"uri": uri}))
                }
                ReadError::Failed(message) => {
                    ErrorObject::new(codes::INTERNAL_ERROR, message).data(json!({"uri": uri}))
                }
            })?;
    let (text, blob) = match &*body {
        ResourceBody::Text(text) => (Some(text.as_ref()), None),
        ResourceBody::Blob(bytes) => (None, Some(STANDARD.encode(bytes))),
    };
    let result = to_json(&ReadResourceResult {
        contents: vec![ReadContents {
            uri,
            mime_type: resource.listed_mime_type(),
            text,
            blob,
            meta: resource.meta(),
        }],
    });
    // Fixed contents may be cached as long as the lists; an fn's are read afresh.
    let ttl_ms = if resource.is_static() {
        served.ttl_ms
    } else {
        0
    };
    let mut result = cacheable(result, era, ttl_ms);
    // Contents only callers of some scopes (or those the rule shows them to) may read are no
    // shared cache's to keep: another caller's client reading them from it would pass the
    // check by.
    if varies || !resource.needed_scopes().needed().is_empty() {
        listing::private(&mut result);
    }
    Ok(result)
}

/// A 2026-07-28 result gets its caching fields (SEP-2549).
fn cacheable(mut result: Value, era: &Era, ttl_ms: u64) -> Value {
    listing::cacheable(&mut result, era.version(), ttl_ms);
    result
}
