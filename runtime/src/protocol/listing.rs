//! `tools/list` pages, serialized once and shared. A listing changes only when a tool is added
//! or removed, so each page of each protocol version is built on its first request and then
//! served as bytes: with 1,000 tools, building a page (cloning and downgrading each definition,
//! then serializing its schemas) costs far more than writing it out. Pages are built when first
//! asked, not at start: with the whole list one page (`Server::page_size`'s default), 1,000
//! tools make pages of some 0.5 MB per version, which an idle server need not hold. A legacy
//! client's pages leave out the tools it can never call (`task = "required"`: it has no tasks).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::{ProtocolVersion, downgrade, meta};
use crate::context::AuthInfo;
use crate::jsonrpc::{ErrorObject, to_json};
use crate::registry::{KeptDefinition, ToolSet, Visible};
use crate::sync::lock;
use crate::types::{Implementation, TaskSupport};
use crate::visibility::View;

/// The pages of one server's `tools/list`, for every version asked so far.
pub(crate) struct Listings {
    page_size: usize,
    ttl_ms: u64,
    server_info: Value,
    built: Mutex<Built>,
}

/// Pages by (version, index of their first tool, what decides what the caller sees), built
/// from one generation of the tool set.
#[derive(Default)]
struct Built {
    generation: u64,
    pages: HashMap<PageKey, Arc<RawValue>>,
    /// What the pages and their keys hold, as [`MAX_KEPT_BYTES`] counts it.
    bytes: usize,
}

/// What one kept page is for: the version, its first tool, the caller's scopes that decide
/// what it shows (`Visible::granted`), and its view (the rule's answer for the caller and its
/// session's own choice of tags, `View::key`), and whether it varies by caller (so is
/// `private`): two callers alike in all of these see the same page, and no caller is ever
/// served a page built for another view.
type PageKey = (
    ProtocolVersion,
    usize,
    Option<(bool, Vec<String>)>,
    Option<String>,
    bool,
);

/// At most this many pages are kept, and at most [`MAX_KEPT_BYTES`] of them: callers of many
/// different scope sets or views get pages built for them alone past it, so that what the
/// server keeps stays bounded whatever tokens and sessions arrive.
const MAX_KEPT_PAGES: usize = 256;
/// See [`MAX_KEPT_PAGES`]: the bytes of the kept pages and of their keys together.
pub(crate) const MAX_KEPT_BYTES: usize = 16 * 1024 * 1024;

/// What keeping `page` under `key` holds, as [`MAX_KEPT_BYTES`] counts it: its JSON, the
/// scopes and view of its key, and the map's entry.
fn kept_bytes(key: &PageKey, page: &RawValue) -> usize {
    let scopes = key.2.as_ref().map_or(0, |(_, scopes)| {
        scopes.iter().map(|scope| scope.len() + 24).sum()
    });
    page.get().len() + scopes + key.3.as_ref().map_or(0, String::len) + 128
}

impl Listings {
    pub(crate) fn new(page_size: usize, ttl_ms: u64, info: &Implementation) -> Self {
        Self {
            page_size,
            ttl_ms,
            server_info: to_json(info),
            built: Mutex::default(),
        }
    }

    /// The `tools/list` result for `params` (its `cursor`) at `version`, complete with the
    /// modern era's caching fields and `_meta`. A page that starts where our cursors start is
    /// kept; one that starts elsewhere (a client's own cursor) is built for this request alone.
    /// `auth` sees only the tools its scopes and `view` allow; a listing that varies so by
    /// caller is `private`.
    pub(crate) fn page(
        &self,
        tools: &ToolSet,
        params: &Map<String, Value>,
        version: ProtocolVersion,
        auth: Option<&AuthInfo>,
        view: &View,
    ) -> Result<Arc<RawValue>, ErrorObject> {
        let Visible {
            generation,
            mut definitions,
            granted,
        } = tools.visible_to(auth, view);
        let varies = granted.is_some() || view.varies();
        let seen = view.key();
        // `varies` too: a page built for a caller no rule applies to says `public`, which no
        // caller under a rule may be served.
        let key = |start| (version, start, granted.clone(), seen.clone(), varies);
        if !version.is_modern() {
            definitions.retain(|tool| !task_required(tool));
        }
        let start = page_start(&definitions, |tool| tool.name(), params)?;
        let kept = start % self.page_size == 0;
        if kept {
            let built = lock(&self.built);
            if built.generation == generation
                && let Some(page) = built.pages.get(&key(start))
            {
                return Ok(Arc::clone(page));
            }
        }
        let (page, next_cursor) =
            page_from(&definitions, |tool| tool.name(), start, self.page_size);
        let tools = page
            .iter()
            .map(|tool| downgrade::tool(tool, version))
            .collect();
        let mut modern = Value::Object(Map::new());
        if version.is_modern() {
            cacheable(&mut modern, version, self.ttl_ms);
            if varies {
                private(&mut modern);
            }
            modern["resultType"] = json!("complete");
            modern["_meta"] = json!({ meta::SERVER_INFO: self.server_info });
        }
        let page = Page {
            tools,
            next_cursor,
            modern,
        };
        let page: Arc<RawValue> = serde_json::value::to_raw_value(&page)
            .expect("a tools/list page serializes")
            .into();
        if kept {
            let mut built = lock(&self.built);
            if built.generation > generation {
                // The tool set changed meanwhile: this page is already out of date.
                return Ok(page);
            }
            if built.generation != generation {
                *built = Built {
                    generation,
                    ..Built::default()
                };
            }
            let key = key(start);
            let bytes = kept_bytes(&key, &page);
            let room = built.pages.len() < MAX_KEPT_PAGES
                && built.bytes.saturating_add(bytes) <= MAX_KEPT_BYTES;
            if room && !built.pages.contains_key(&key) {
                built.bytes += bytes;
                built.pages.insert(key, Arc::clone(&page));
            }
        }
        Ok(page)
    }
}

/// A `tools/list` result (`ListToolsResult`), its tools' schemas written as kept.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Page<'a> {
    tools: Vec<downgrade::ListedTool<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
    /// A 2026-07-28 result's caching fields, `resultType` and `_meta`; an empty object before.
    #[serde(flatten)]
    modern: Value,
}

/// Whether `tool` runs only as a task (`task = "required"`): never listed to a legacy client,
/// which has no tasks (the `task` module's docs).
fn task_required(tool: &KeptDefinition) -> bool {
    tool.head()
        .execution
        .as_ref()
        .and_then(|execution| execution.task_support)
        == Some(TaskSupport::Required)
}

/// Where the page `params.cursor` asks for starts in `items` (sorted by `key`): after the key
/// the cursor names (our cursors are the last key of the page before, base64url).
pub(super) fn page_start<T>(
    items: &[T],
    key: impl Fn(&T) -> &str,
    params: &Map<String, Value>,
) -> Result<usize, ErrorObject> {
    let invalid = || ErrorObject::invalid_params("Invalid cursor");
    match params.get("cursor") {
        None | Some(Value::Null) => Ok(0),
        Some(Value::String(cursor)) => {
            let after = decode_cursor(cursor).ok_or_else(invalid)?;
            Ok(items.partition_point(|item| key(item) <= after.as_str()))
        }
        Some(_) => Err(invalid()),
    }
}

/// The page of `items` from `start`, and the cursor of the next page when there is one.
pub(super) fn page_from<T>(
    items: &[T],
    key: impl Fn(&T) -> &str,
    start: usize,
    page_size: usize,
) -> (&[T], Option<String>) {
    let end = items.len().min(start.saturating_add(page_size));
    let page = &items[start.min(end)..end];
    let next = (end < items.len())
        .then(|| page.last().map(|last| URL_SAFE_NO_PAD.encode(key(last))))
        .flatten();
    (page, next)
}

/// The page of `items` (sorted by `key`) that `params.cursor` asks for, and the next cursor:
/// the one paging of every list (tools, prompts, resources, templates).
pub(super) fn page<'a, T>(
    items: &'a [T],
    key: impl Fn(&T) -> &str,
    params: &Map<String, Value>,
    page_size: usize,
) -> Result<(&'a [T], Option<String>), ErrorObject> {
    let start = page_start(items, &key, params)?;
    Ok(page_from(items, key, start, page_size))
}

/// A 2026-07-28 result gets its caching fields (SEP-2549): lists, discovery, fixed contents.
pub(super) fn cacheable(result: &mut Value, version: ProtocolVersion, ttl_ms: u64) {
    if version.is_modern() {
        result["ttlMs"] = json!(ttl_ms);
        result["cacheScope"] = json!("public");
    }
}

/// A 2026-07-28 list that varies by caller (its items carry scopes) may be cached only for
/// that caller.
pub(super) fn private(result: &mut Value) {
    if result.get("cacheScope").is_some() {
        result["cacheScope"] = json!("private");
    }
}

/// A 2026-07-28 list a middleware made or changed, which the server cannot tell is the same
/// for every caller: `private`, whether or not the middleware kept its caching fields.
pub(super) fn private_in(result: &mut Value, version: ProtocolVersion) {
    if let (true, Value::Object(result)) = (version.is_modern(), result) {
        result.insert("cacheScope".to_owned(), json!("private"));
    }
}

fn decode_cursor(cursor: &str) -> Option<String> {
    String::from_utf8(URL_SAFE_NO_PAD.decode(cursor).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CallToolResult;
    use crate::registry::Tool;

    fn tool(name: &str) -> Tool {
        Tool::new(name, "A tool", json!({"type": "object"}), |_, _| async {
            CallToolResult::text("")
        })
        .expect("an object schema")
    }

    fn names(page: &RawValue) -> Vec<String> {
        let page: Value = serde_json::from_str(page.get()).expect("JSON");
        page["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .map(|tool| tool["name"].as_str().expect("a name").to_owned())
            .collect()
    }

    fn info() -> Implementation {
        Implementation::new("test", "1")
    }

    #[test]
    fn pages_are_built_once_until_the_tool_set_changes() {
        let tools = ToolSet::new(["b", "a", "c"].map(tool));
        let listings = Listings::new(2, 0, &info());
        let first = |params: &Map<String, Value>| {
            listings
                .page(
                    &tools,
                    params,
                    ProtocolVersion::LATEST_LEGACY,
                    None,
                    &View::default(),
                )
                .expect("a page")
        };
        let page = first(&Map::new());
        assert_eq!(names(&page), ["a", "b"]);
        assert!(
            Arc::ptr_eq(&page, &first(&Map::new())),
            "served as built at the first request"
        );

        // Our own cursor starts a kept page; a client's own cursor gets a page of its own.
        let next = json!({"cursor": URL_SAFE_NO_PAD.encode("b")});
        let next = next.as_object().expect("an object");
        assert_eq!(names(&first(next)), ["c"]);
        assert!(Arc::ptr_eq(&first(next), &first(next)));
        let odd = json!({"cursor": URL_SAFE_NO_PAD.encode("a")});
        let odd = odd.as_object().expect("an object");
        assert_eq!(names(&first(odd)), ["b", "c"]);
        assert!(!Arc::ptr_eq(&first(odd), &first(odd)));

        tools.insert(tool("0")).expect("a new name");
        assert_eq!(names(&first(&Map::new())), ["0", "a"]);
        assert!(tools.remove("0").is_some());
        assert_eq!(names(&first(&Map::new())), ["a", "b"]);
    }

    #[test]
    fn each_view_is_served_its_own_kept_page() {
        use crate::visibility::Visibility;
        let tools = ToolSet::new([tool("a"), tool("b").tags(["beta"])]);
        let listings = Listings::new(10, 0, &info());
        let page = |view: &View| {
            listings
                .page(
                    &tools,
                    &Map::new(),
                    ProtocolVersion::LATEST_LEGACY,
                    None,
                    view,
                )
                .expect("a page")
        };
        let hidden = View::new(Some(Visibility::all().without(["beta"])), None);
        let everything = View::default();
        assert_eq!(names(&page(&hidden)), ["a"]);
        assert_eq!(names(&page(&everything)), ["a", "b"]);
        assert_eq!(names(&page(&hidden)), ["a"], "not the other view's page");
        assert!(Arc::ptr_eq(&page(&hidden), &page(&hidden)), "kept");
        assert!(
            kept_bytes(
                &(ProtocolVersion::LATEST_LEGACY, 0, None, hidden.key(), true),
                &page(&hidden)
            ) > 0
        );
    }

    #[test]
    fn modern_pages_carry_the_caching_fields_and_server_info() {
        let tools = ToolSet::new([tool("a")]);
        let listings = Listings::new(10, 5_000, &info());
        let page = listings
            .page(
                &tools,
                &Map::new(),
                ProtocolVersion::MODERN[0],
                None,
                &View::default(),
            )
            .expect("a page");
        let page: Value = serde_json::from_str(page.get()).expect("JSON");
        assert_eq!(page["ttlMs"], 5_000);
        assert_eq!(page["cacheScope"], "public");
        assert_eq!(page["resultType"], "complete");
        assert_eq!(
            page["_meta"][meta::SERVER_INFO],
            json!({"name": "test", "version": "1"})
        );
        let bad = json!({"cursor": "%%%"});
        let refused = listings.page(
            &tools,
            bad.as_object().expect("an object"),
            ProtocolVersion::MODERN[0],
            None,
            &View::default(),
        );
        assert_eq!(refused.expect_err("a bad cursor").message, "Invalid cursor");
    }
    #[test]
    fn pages_kept_for_many_scope_sets_stay_within_their_byte_bound() {
        // 12 tools, each needing a scope of its own and described at length (some 24 KiB):
        // each set of scopes a caller holds sees its own listing, 4,096 of them.
        let long = "x".repeat(24 * 1024);
        let tools = ToolSet::new((0..12).map(|n| {
            Tool::new(
                format!("t{n:02}"),
                long.clone(),
                json!({"type": "object"}),
                |_, _| async { CallToolResult::text("") },
            )
            .expect("an object schema")
            .scopes([format!("s{n}")])
        }));
        let listings = Listings::new(100, 0, &info());
        for held in 0..260_u32 {
            let scopes = (0..12)
                .filter(|bit| held & (1 << bit) != 0)
                .map(|bit| format!("s{bit}"));
            let auth = AuthInfo::new("client").scopes(scopes);
            listings
                .page(
                    &tools,
                    &Map::new(),
                    ProtocolVersion::MODERN[0],
                    Some(&auth),
                    &View::default(),
                )
                .expect("a page");
        }
        let built = lock(&listings.built);
        assert!(built.pages.len() <= MAX_KEPT_PAGES, "{}", built.pages.len());
        let held: usize = built
            .pages
            .iter()
            .map(|(key, page)| kept_bytes(key, page))
            .sum();
        assert_eq!(held, built.bytes);
        assert!(held <= MAX_KEPT_BYTES, "{held} bytes kept");
        assert!(
            held > MAX_KEPT_BYTES / 2,
            "pages are still kept: {held} bytes"
        );
    }
}
