//! The integration tests that define no tools, resources or prompts of their own, in one test binary: each drives a
//! server over the wire (a spawned example or test binary, a real client, a socket), so none
//! depends on what else is linked here. One binary instead of thirty builds the tests crate's
//! shared code once (`.ci/run`'s time); nextest still runs each test in a process of its own.
//! The `http_*` modules share the four tools of `http_tools`, as their own binaries did.

#[path = "../http_tools/mod.rs"]
mod http_tools;

mod architecture;
mod asking_legacy;
mod asking_replicas;
mod catalog_snapshot;
mod conformance_judge;
mod http_connections;
mod http_deploy;
mod http_fairness;
mod http_hostile;
mod http_legacy;
mod http_lifetime;
mod http_listen;
mod http_modern;
mod http_security;
mod http_socket;
mod load;
mod many_tools_memory;
mod memory;
mod oauth;
mod print_config;
mod readme_example;
mod real_prompts;
mod real_skills;
mod real_subscriptions;
mod real_tasks;
mod replicas;
mod secured;
mod shutdown;
mod skills;
mod views;
