//! Who hears what of the server's changes: the lists a listener hears change ([`Lists`]), the
//! resources it subscribed to ([`Subscriptions`]), and what one change it heard becomes for it
//! ([`Listener::notifications`]). One rule for every listener: a legacy connection (stdio, an
//! HTTP session's GET stream), whose subscriptions `resources/subscribe` makes, and a 2026-07-28
//! `subscriptions/listen` stream, whose subscriptions its request names.

use std::collections::{BTreeSet, HashSet};
use std::sync::Mutex;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value, json};

use super::changes::{Change, Heard};
use crate::jsonrpc::{ErrorObject, Method, Notification, codes};
use crate::limits::{Held, MemoryBudget};
use crate::registry::{Listed, UriTemplate};
use crate::sync::lock;
use crate::types::ServerCapabilities;

/// The lists whose changes a listener hears: `notifications/{tools,prompts,resources}/list_changed`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Lists {
    pub(crate) tools: bool,
    pub(crate) prompts: bool,
    pub(crate) resources: bool,
}

impl Lists {
    /// The lists whose `listChanged` the server's capabilities, as sent to a client, declare:
    /// a legacy client hears what `initialize` told it. Read from the typed capabilities, so
    /// that what is declared and what is delivered cannot part.
    #[allow(
        clippy::trivially_copy_pass_by_ref,
        reason = "the capabilities grow (prompts, completions): a borrow stays right once they are no longer Copy"
    )]
    pub(crate) fn declared(capabilities: &ServerCapabilities) -> Self {
        Self {
            tools: capabilities.tools.list_changed,
            prompts: capabilities
                .prompts
                .is_some_and(|prompts| prompts.list_changed),
            resources: capabilities
                .resources
                .is_some_and(|resources| resources.list_changed),
        }
    }
}

/// How many URIs and templates one listener (a legacy connection, a listen stream) may be
/// subscribed to at once, and how many bytes they may hold together: what a client's
/// subscriptions hold stays bounded.
pub(crate) const MAX_SUBSCRIPTIONS: usize = 10_000;
/// See [`MAX_SUBSCRIPTIONS`].
pub(crate) const MAX_SUBSCRIBED_BYTES: usize = 1024 * 1024;

/// Why a subscription was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refused {
    /// No resource or template serves the URI.
    NotServed,
    /// The listener holds [`MAX_SUBSCRIPTIONS`] already, or the URI would take it past
    /// [`MAX_SUBSCRIBED_BYTES`], or every listener's subscriptions together hold the server's
    /// subscription memory (`Limits::subscription_memory`).
    TooMany,
}

/// The resources one listener subscribed to: URIs, and templates as written (every URI one
/// matches).
#[derive(Debug)]
pub(crate) struct Subscriptions(Mutex<Subscribed>);

#[derive(Debug)]
struct Subscribed {
    uris: BTreeSet<String>,
    templates: Vec<(String, UriTemplate)>,
    /// The length of every URI and template held.
    bytes: usize,
    /// What they cost in memory, taken from the server's subscription budget: every
    /// listener's subscriptions together are bounded too.
    held: Held,
}

/// What one subscription is charged beyond its URI's bytes: its entry, and a template's parse.
fn charge(uri: &str, template: bool) -> usize {
    const ENTRY: usize = 64;
    ENTRY + if template { 3 * uri.len() } else { uri.len() }
}

#[cfg(test)]
impl Default for Subscriptions {
    fn default() -> Self {
        Self::new(&MemoryBudget::new(usize::MAX))
    }
}

impl Subscriptions {
    /// None yet; what they will hold is charged to `budget`, the server's.
    pub(crate) fn new(budget: &MemoryBudget) -> Self {
        Self(Mutex::new(Subscribed {
            uris: BTreeSet::new(),
            templates: Vec::new(),
            bytes: 0,
            held: budget.nothing(),
        }))
    }

    /// Subscribes to `uri` when `resources` serve it: a resource's URI, an expansion of a
    /// template, or a template as written (then every URI it matches). Refused when nothing
    /// serves it, or when the listener holds [`MAX_SUBSCRIPTIONS`] already.
    pub(crate) fn subscribe(&self, uri: &str, resources: &Listed) -> Result<(), Refused> {
        let template = resources
            .templates()
            .iter()
            .find(|resource| resource.uri() == uri)
            .and_then(|resource| resource.template());
        let served = template.is_some()
            || resources.get(uri).is_some()
            || resources
                .templates()
                .iter()
                .any(|template| template.serves(uri));
        if !served {
            return Err(Refused::NotServed);
        }
        let mut subscribed = lock(&self.0);
        let already = match template {
            Some(_) => subscribed
                .templates
                .iter()
                .any(|(written, _)| written == uri),
            None => subscribed.uris.contains(uri),
        };
        if already {
            return Ok(());
        }
        if subscribed.uris.len() + subscribed.templates.len() >= MAX_SUBSCRIPTIONS
            || subscribed.bytes + uri.len() > MAX_SUBSCRIBED_BYTES
        {
            return Err(Refused::TooMany);
        }
        let held = subscribed.held.bytes() + charge(uri, template.is_some());
        if !subscribed.held.resize(held) {
            return Err(Refused::TooMany);
        }
        subscribed.bytes += uri.len();
        match template {
            Some(template) => subscribed
                .templates
                .push((uri.to_owned(), template.clone())),
            None => {
                subscribed.uris.insert(uri.to_owned());
            }
        }
        Ok(())
    }

    /// Ends the subscription to `uri` (a URI or a template as subscribed); `false` when there
    /// was none.
    pub(crate) fn unsubscribe(&self, uri: &str) -> bool {
        let mut subscribed = lock(&self.0);
        let before = subscribed.templates.len();
        subscribed.templates.retain(|(written, _)| written != uri);
        let template = subscribed.templates.len() != before;
        let removed = template || subscribed.uris.remove(uri);
        if removed {
            subscribed.bytes -= uri.len();
            let held = subscribed.held.bytes() - charge(uri, template);
            subscribed.held.resize(held);
        }
        removed
    }

    /// Whether `uri` (a URI or a template, as subscribed) is subscribed to.
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "a shared session writes what it holds")
    )]
    pub(crate) fn holds(&self, uri: &str) -> bool {
        let subscribed = lock(&self.0);
        subscribed.uris.contains(uri)
            || subscribed
                .templates
                .iter()
                .any(|(written, _)| written == uri)
    }

    /// Whether a change of the contents at `uri` is told: it was subscribed to, or a template
    /// subscribed to matches it.
    pub(crate) fn wants(&self, uri: &str) -> bool {
        let subscribed = lock(&self.0);
        subscribed.uris.contains(uri)
            || subscribed
                .templates
                .iter()
                .any(|(_, template)| template.matches(uri).is_some())
    }

    /// Whether a template is among the subscriptions: a listener that missed changes cannot
    /// name the URIs it covers.
    pub(crate) fn has_templates(&self) -> bool {
        !lock(&self.0).templates.is_empty()
    }

    /// The templates subscribed to, as written.
    #[cfg_attr(
        not(feature = "redis"),
        allow(dead_code, reason = "a shared session's record holds them")
    )]
    pub(crate) fn templates(&self) -> Vec<String> {
        lock(&self.0)
            .templates
            .iter()
            .map(|(written, _)| written.clone())
            .collect()
    }

    /// The URIs subscribed to (not the templates), in order.
    pub(crate) fn uris(&self) -> Vec<String> {
        lock(&self.0).uris.iter().cloned().collect()
    }
}

/// One listener: the lists it hears and the resources it subscribed to.
pub(crate) struct Listener<'a> {
    pub(crate) lists: Lists,
    pub(crate) subscriptions: &'a Subscriptions,
}

impl Listener<'_> {
    /// What `heard` becomes for this listener, none when it hears nothing of it. A listener
    /// that missed changes (it fell behind a burst) is told that every list it hears changed
    /// and that every resource URI it subscribed to was updated, so it reads them all again. A
    /// template subscribed to names no URI: a legacy connection hears `resources/list_changed`
    /// (its capabilities declare it); a listen stream with a template ends instead (`listen`).
    pub(crate) fn notifications(&self, heard: &Heard) -> Vec<Notification> {
        let list_changed = Notification::list_changed;
        let updated = |uri: &str| Notification::new(Method::ResourceUpdated, json!({"uri": uri}));
        match heard {
            Heard::Change(Change::Tools) if self.lists.tools => {
                vec![list_changed(Method::ToolsListChanged)]
            }
            Heard::Change(Change::Prompts) if self.lists.prompts => {
                vec![list_changed(Method::PromptsListChanged)]
            }
            Heard::Change(Change::Resources) if self.lists.resources => {
                vec![list_changed(Method::ResourcesListChanged)]
            }
            Heard::Change(Change::ResourceUpdated(uri)) if self.subscriptions.wants(uri) => {
                vec![updated(uri)]
            }
            Heard::Change(_) => Vec::new(),
            Heard::Missed => [
                (self.lists.tools, Method::ToolsListChanged),
                (self.lists.prompts, Method::PromptsListChanged),
                (self.lists.resources, Method::ResourcesListChanged),
            ]
            .into_iter()
            .filter(|(heard, _)| *heard)
            .map(|(_, method)| list_changed(method))
            .chain(self.subscriptions.uris().iter().map(|uri| updated(uri)))
            .collect(),
        }
    }
}

/// `resources/subscribe` and `resources/unsubscribe` (legacy): the connection's subscriptions
/// changed, `{}` answered. A URI no resource serves cannot be subscribed to: `-32002` "Resource
/// not found", the URI in `data`, as the 2025-11-25 resources page words it; unsubscribing
/// from what was never subscribed is answered `{}` all the same.
pub(crate) fn subscribe(
    method: &Method,
    params: &Map<String, Value>,
    subscriptions: &Subscriptions,
    resources: &Listed,
) -> Result<Value, ErrorObject> {
    let Some(Value::String(uri)) = params.get("uri") else {
        return Err(ErrorObject::invalid_params(format!(
            "{method} requires a string `uri`"
        )));
    };
    if *method == Method::Unsubscribe {
        subscriptions.unsubscribe(uri);
        return Ok(json!({}));
    }
    match subscriptions.subscribe(uri, resources) {
        Ok(()) => Ok(json!({})),
        Err(Refused::NotServed) => Err(ErrorObject::new(
            codes::RESOURCE_NOT_FOUND,
            format!("Resource not found: {uri}"),
        )
        .data(json!({"uri": uri}))),
        Err(Refused::TooMany) => Err(ErrorObject::invalid_params(format!(
            "a connection may subscribe to at most {MAX_SUBSCRIPTIONS} resources at once, \
             {MAX_SUBSCRIBED_BYTES} bytes of URIs in all, and the server's subscriptions \
             together no more than its memory budget; unsubscribe from one first"
        ))
        .data(json!({"uri": uri}))),
    }
}

/// What a `subscriptions/listen` request asks for, reduced to what this server honours.
pub(crate) struct Requested {
    pub(crate) lists: Lists,
    /// Subscribed to (those served), in the order asked.
    pub(crate) subscriptions: Subscriptions,
    /// The URIs of `resourceSubscriptions` honoured, for the acknowledgement.
    pub(crate) honoured_uris: Option<Vec<String>>,
    /// The tasks extension's `taskIds` honoured (the caller's own tasks): their
    /// `notifications/tasks`.
    pub(crate) task_ids: Option<Vec<String>>,
}

/// The `notifications` filter of a `subscriptions/listen` request, read once: what it asks for,
/// before the server honours what it can ([`Requested::of`], and the caller's own tasks among
/// `taskIds`: `protocol/tasks.rs`).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ListenFilter {
    /// Each list's changes, asked for with `true` (any other value asks for nothing).
    #[serde(default, deserialize_with = "asked")]
    tools_list_changed: bool,
    #[serde(default, deserialize_with = "asked")]
    prompts_list_changed: bool,
    #[serde(default, deserialize_with = "asked")]
    resources_list_changed: bool,
    /// The URIs and templates to hear updated (`None`: absent, or `null`).
    #[serde(default, deserialize_with = "uris")]
    resource_subscriptions: Option<Vec<String>>,
    /// The tasks extension's tasks to follow (`None`: absent).
    #[serde(default, deserialize_with = "task_ids")]
    pub(crate) task_ids: Option<Vec<String>>,
}

/// A list asked for: `true`, and nothing else.
fn asked<'de, D: Deserializer<'de>>(value: D) -> Result<bool, D::Error> {
    Ok(Value::deserialize(value)? == Value::Bool(true))
}

/// `resourceSubscriptions`: a list of strings, or `null`.
fn uris<'de, D: Deserializer<'de>>(value: D) -> Result<Option<Vec<String>>, D::Error> {
    Option::<Vec<String>>::deserialize(value)
        .map_err(|_| D::Error::custom("`resourceSubscriptions` must be a list of URIs (strings)"))
}

/// `taskIds`: a list of strings (`null` is none).
fn task_ids<'de, D: Deserializer<'de>>(value: D) -> Result<Option<Vec<String>>, D::Error> {
    Vec::<String>::deserialize(value)
        .map(Some)
        .map_err(|_| D::Error::custom("`taskIds` must be a list of task ids (strings)"))
}

impl ListenFilter {
    /// The filter of `params.notifications`; `Err` when it is missing or a member is not of
    /// its type.
    pub(crate) fn parse(params: &Map<String, Value>) -> Result<Self, ErrorObject> {
        let Some(requested @ Value::Object(_)) = params.get("notifications") else {
            return Err(ErrorObject::invalid_params(
                "subscriptions/listen requires `notifications`, an object naming what to send",
            ));
        };
        Self::deserialize(requested).map_err(|error| ErrorObject::invalid_params(error.to_string()))
    }

    /// Whether it names some task ids.
    pub(crate) fn names_tasks(&self) -> bool {
        self.task_ids.as_ref().is_some_and(|ids| !ids.is_empty())
    }
}

impl Requested {
    /// What `filter` asks for, honoured where `offered` lists are declared and `resources`
    /// serve the URIs (its tasks are `protocol/tasks.rs`'s: none here).
    pub(crate) fn of(
        filter: &ListenFilter,
        offered: Lists,
        resources: Option<&Listed>,
        budget: &MemoryBudget,
    ) -> Self {
        let lists = Lists {
            tools: offered.tools && filter.tools_list_changed,
            prompts: offered.prompts && filter.prompts_list_changed,
            resources: offered.resources && filter.resources_list_changed,
        };
        let subscriptions = Subscriptions::new(budget);
        let honoured_uris = match (&filter.resource_subscriptions, resources) {
            (Some(uris), Some(resources)) => {
                let mut seen = HashSet::new();
                // Not served, or past the cap: left out of the acknowledgement.
                let honoured = uris
                    .iter()
                    .filter(|uri| {
                        seen.insert(uri.as_str()) && subscriptions.subscribe(uri, resources).is_ok()
                    })
                    .cloned()
                    .collect();
                Some(honoured)
            }
            (None, _) | (Some(_), None) => None,
        };
        Self {
            lists,
            subscriptions,
            honoured_uris,
            task_ids: None,
        }
    }

    /// The `notifications` of the acknowledgement: the subset honoured.
    pub(crate) fn acknowledged(&self) -> Value {
        let mut honoured = Map::new();
        for (heard, name) in [
            (self.lists.tools, "toolsListChanged"),
            (self.lists.prompts, "promptsListChanged"),
            (self.lists.resources, "resourcesListChanged"),
        ] {
            if heard {
                honoured.insert(name.into(), Value::Bool(true));
            }
        }
        if let Some(uris) = &self.honoured_uris {
            honoured.insert("resourceSubscriptions".into(), json!(uris));
        }
        if let Some(ids) = &self.task_ids {
            honoured.insert("taskIds".into(), json!(ids));
        }
        Value::Object(honoured)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{Resource, ResourceSet};

    fn served() -> Listed {
        let set = ResourceSet::default();
        let text = |_| async { "x" };
        set.insert(Resource::new("a://plain", "plain", text).unwrap())
            .unwrap();
        set.insert(Resource::new("a://notes/{id}", "note", text).unwrap())
            .unwrap();
        (*set.listed()).clone()
    }

    fn unbounded() -> MemoryBudget {
        MemoryBudget::new(usize::MAX)
    }

    fn methods(notifications: &[Notification]) -> Vec<String> {
        notifications
            .iter()
            .map(|notification| match &notification.params {
                Some(params) => format!("{} {}", notification.method, params["uri"]),
                None => notification.method.to_string(),
            })
            .collect()
    }

    /// What a listener hears follows the typed capabilities: the lists they declare changing.
    #[test]
    fn the_lists_heard_are_those_the_capabilities_declare() {
        assert_eq!(
            Lists::declared(&ServerCapabilities::with(true, false)),
            Lists {
                tools: true,
                prompts: false,
                resources: true
            }
        );
        assert_eq!(
            Lists::declared(&ServerCapabilities::with(false, false)),
            Lists {
                tools: true,
                prompts: false,
                resources: false
            }
        );
        assert_eq!(
            Lists::declared(
                &ServerCapabilities::with(false, false).prompts_and_completions(true, false)
            ),
            Lists {
                tools: true,
                prompts: true,
                resources: false
            }
        );
        assert_eq!(
            Lists::declared(
                &ServerCapabilities::with(true, true)
                    .prompts_and_completions(true, true)
                    .without_changes()
            ),
            Lists::default(),
            "nothing where no change can be told"
        );
    }

    #[test]
    fn a_subscription_is_to_a_served_uri_or_template() {
        let resources = served();
        let subscriptions = Subscriptions::default();
        assert_eq!(subscriptions.subscribe("a://plain", &resources), Ok(()));
        assert_eq!(subscriptions.subscribe("a://notes/7", &resources), Ok(()));
        assert_eq!(
            subscriptions.subscribe("a://nothing", &resources),
            Err(Refused::NotServed)
        );
        assert!(subscriptions.wants("a://notes/7"));
        assert!(
            !subscriptions.wants("a://notes/8"),
            "only the note asked for"
        );
        assert_eq!(
            subscriptions.subscribe("a://notes/{id}", &resources),
            Ok(())
        );
        assert!(
            subscriptions.wants("a://notes/8"),
            "the template covers every note"
        );
        assert!(subscriptions.unsubscribe("a://notes/{id}"));
        assert!(!subscriptions.wants("a://notes/8"));
        assert!(!subscriptions.unsubscribe("a://notes/{id}"), "already gone");
        assert_eq!(subscriptions.uris(), ["a://notes/7", "a://plain"]);
    }

    /// What one listener holds is bounded; subscribing again to what it has costs nothing.
    #[test]
    fn a_listener_holds_at_most_so_many_subscriptions() {
        let resources = served();
        let subscriptions = Subscriptions::default();
        for id in 0..MAX_SUBSCRIPTIONS {
            assert_eq!(
                subscriptions.subscribe(&format!("a://notes/{id}"), &resources),
                Ok(())
            );
        }
        assert_eq!(
            subscriptions.subscribe("a://notes/0", &resources),
            Ok(()),
            "already held"
        );
        assert_eq!(
            subscriptions.subscribe("a://plain", &resources),
            Err(Refused::TooMany)
        );
        assert!(subscriptions.unsubscribe("a://notes/0"));
        assert_eq!(subscriptions.subscribe("a://plain", &resources), Ok(()));

        let long = format!("a://notes/{}", "x".repeat(MAX_SUBSCRIBED_BYTES));
        assert_eq!(
            Subscriptions::default().subscribe(&long, &resources),
            Err(Refused::TooMany),
            "the bytes held are bounded too"
        );
    }

    #[test]
    fn a_listener_hears_only_what_it_may() {
        let resources = served();
        let subscriptions = Subscriptions::default();
        assert_eq!(subscriptions.subscribe("a://plain", &resources), Ok(()));
        let listener = Listener {
            lists: Lists {
                tools: true,
                prompts: false,
                resources: true,
            },
            subscriptions: &subscriptions,
        };
        let heard = |change| methods(&listener.notifications(&Heard::Change(change)));
        assert_eq!(heard(Change::Tools), ["notifications/tools/list_changed"]);
        assert!(heard(Change::Prompts).is_empty(), "prompts not declared");
        assert_eq!(
            heard(Change::Resources),
            ["notifications/resources/list_changed"]
        );
        assert_eq!(
            heard(Change::ResourceUpdated("a://plain".into())),
            ["notifications/resources/updated \"a://plain\""]
        );
        assert!(heard(Change::ResourceUpdated("a://notes/1".into())).is_empty());
        assert_eq!(
            methods(&listener.notifications(&Heard::Missed)),
            [
                "notifications/tools/list_changed",
                "notifications/resources/list_changed",
                "notifications/resources/updated \"a://plain\""
            ],
            "a listener that fell behind is told everything it hears"
        );
    }

    #[test]
    fn a_listen_filter_is_honoured_as_far_as_served() {
        let resources = served();
        let params = json!({"notifications": {
            "toolsListChanged": true,
            "promptsListChanged": true,
            "resourceSubscriptions": ["a://plain", "a://nothing", "a://plain"],
        }});
        let offered = Lists {
            tools: true,
            prompts: false,
            resources: true,
        };
        let filter = ListenFilter::parse(params.as_object().unwrap()).unwrap();
        let requested = Requested::of(&filter, offered, Some(&resources), &unbounded());
        assert_eq!(
            requested.acknowledged(),
            json!({"toolsListChanged": true, "resourceSubscriptions": ["a://plain"]})
        );
        let bad = json!({"notifications": {"resourceSubscriptions": "a://plain"}});
        let refused = ListenFilter::parse(bad.as_object().unwrap()).unwrap_err();
        assert_eq!(
            refused.message,
            "`resourceSubscriptions` must be a list of URIs (strings)"
        );
        let bad = json!({"notifications": {"taskIds": [7]}});
        let refused = ListenFilter::parse(bad.as_object().unwrap()).unwrap_err();
        assert_eq!(
            refused.message,
            "`taskIds` must be a list of task ids (strings)"
        );
        assert!(ListenFilter::parse(&Map::new()).is_err(), "no filter");
        let no_resources = Requested::of(&filter, offered, None, &unbounded());
        assert_eq!(
            no_resources.acknowledged(),
            json!({"toolsListChanged": true}),
            "a server without resources honours no subscription"
        );
    }
}
