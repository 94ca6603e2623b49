//! `#[tool(asks(T))]` names the form types a tool elicits; one that cannot be a form keeps the
//! server from starting, naming the tool, its place and why, instead of failing the first call
//! that asks. A test binary of its own, since every server in a binary serves every tool in it.

// The forms' fields are only read by serde: the tool never runs.
#![allow(dead_code)]

use mcp_toolbelt::{Context, Server, error::RegistryError, tool};
use schemars::JsonSchema;
use serde::Deserialize;

/// A form nests no objects: the spec allows flat primitive properties only.
#[derive(Deserialize, JsonSchema)]
struct Address {
    /// The street
    street: String,
    /// The city
    city: Place,
}

#[derive(Deserialize, JsonSchema)]
struct Place {
    name: String,
}

/// A form of booleans: fine.
#[derive(Deserialize, JsonSchema)]
struct Confirm {
    /// Go ahead
    confirm: bool,
}

/// A default the official TypeScript client refuses (it wants a string), set by hand.
#[derive(Deserialize, JsonSchema)]
struct Note {
    /// The note
    #[schemars(extend("default" = 0))]
    text: String,
}

/// Annotate a parcel
#[tool(asks(Note))]
async fn annotate(context: Context) -> String {
    match context.elicit::<Note>("Which note?").await {
        Ok(_) => "noted".into(),
        Err(error) => error.to_string(),
    }
}

/// The line of `#[tool]` on `ship`.
const SHIP: u32 = line!() + 3;

/// Ship a parcel, asking where to
#[tool(asks(Confirm, Address))]
async fn ship(context: Context) -> String {
    match context.elicit::<Address>("Where to?").await {
        Ok(_) => "shipped".into(),
        Err(error) => error.to_string(),
    }
}

#[test]
fn a_form_type_that_cannot_be_a_form_is_a_start_up_error() {
    let Err(mcp_toolbelt::Error::Registry(error)) = Server::new("parcels", "0.0.0").check() else {
        panic!("the tools cannot be served: a registry error expected");
    };
    let RegistryError::Several(problems) = &error else {
        panic!("{error:?}");
    };
    let found: Vec<(&str, Option<String>, &str)> = problems
        .iter()
        .map(|problem| match problem {
            RegistryError::InvalidTool {
                name,
                location,
                problem,
                ..
            } => (name.as_str(), location.clone(), problem.as_str()),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(found.len(), 2, "{error}");
    assert_eq!(
        found[1],
        (
            "ship",
            Some(format!("{}:{SHIP}", file!())),
            "it asks (`asks(…)`) for a form that cannot be one: `Address` cannot be an \
             elicitation form: field `city` is of type object, not a primitive"
        )
    );
    // What the TypeScript client would refuse, said at start-up (and by `--lint`, which checks
    // the tools first) rather than by a client at the first call.
    assert_eq!(found[0].0, "annotate");
    assert_eq!(
        found[0].2,
        "it asks (`asks(…)`) for a form that cannot be one: `Note` cannot be an elicitation \
         form: field `text` has `default: 0` where a form takes a string (clients refuse the \
         whole form)"
    );
    assert!(error.to_string().contains("tool `ship` at"), "{error}");
}
