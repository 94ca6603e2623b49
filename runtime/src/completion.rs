//! Completions (`completion/complete`): the values that complete a prompt's argument or a
//! resource template's variable, as a client types it.
//!
//! A parameter whose type has a finite set of values (a unit enum deriving
//! `schemars::JsonSchema`, `bool`) completes from them, filtered by what was typed, with no
//! code at all. For the rest, name a completer: `#[complete(path)]` on a prompt's parameter,
//! `complete(param = path)` on [`#[prompt]`](macro@crate::prompt), `complete(var = path)` on
//! [`#[resource]`](macro@crate::resource) for a template variable (each checked at compile time
//! to name one that exists). A completer is an `async fn(&str, &CompletionContext) -> impl
//! IntoCompletion`, given the partial value and the values the client already resolved; the
//! same fn serves a prompt argument and a template variable alike, here and in the run-time
//! builders, [`Prompt::complete`](crate::prompt::Prompt::complete) and
//! [`Resource::complete`](crate::resource::Resource::complete) (which take a closure of the same
//! values, owned, too: see [`CompleterFn`]):
//!
//! ```
//! use mcp_toolbelt::completion::CompletionContext;
//! use mcp_toolbelt::resource::Resource;
//! use mcp_toolbelt::{prompt, resource};
//!
//! async fn cities(partial: &str, context: &CompletionContext) -> Vec<String> {
//!     let country = context.argument("country").unwrap_or("fr");
//!     let all: &[&str] = if country == "fr" { &["paris", "lyon"] } else { &["berlin"] };
//!     all.iter().filter(|city| city.starts_with(partial)).map(|city| city.to_string()).collect()
//! }
//!
//! /// Plan a trip
//! #[prompt]
//! async fn completion_docs_trip(
//!     /// The country
//!     country: String,
//!     /// The city
//!     #[complete(cities)]
//!     city: String,
//! ) -> String {
//!     format!("Plan a trip to {city}, {country}")
//! }
//!
//! /// A city's guide
//! #[resource(uri = "guides://{country}/{city}", complete(city = cities))]
//! async fn completion_docs_guide(country: String, city: String) -> String {
//!     format!("The guide to {city}, {country}")
//! }
//!
//! // And a template built at run time, with the same fn.
//! let maps = Resource::new("maps://{country}/{city}", "map", |_| async { "a map" })?
//!     .complete("city", cities);
//! # let _ = maps;
//! # Ok::<(), mcp_toolbelt::error::RegistryError>(())
//! ```
//!
//! A completer of another shape is a compile error at its path, saying the shape.
//!
//! At most 100 values are sent; past that `total` says how many there are and `hasMore` that
//! some were left out. A completer that can fail returns a `Result` (`Result<Vec<String>, E:
//! Display>`): its `Err` is `-32603` with its message, so a database that cannot be read is not
//! mistaken for "no matches". The `completions` capability appears only when something
//! completes; an unknown prompt, template or argument is `-32602`.

#[doc(hidden)]
pub use crate::registry::{Borrowing, BorrowingFn, Owning};
pub use crate::registry::{CompleterFn, Completion, CompletionContext, IntoCompletion};
