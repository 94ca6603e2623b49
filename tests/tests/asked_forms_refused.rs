//! `#[tool(asks(T))]` names the form types a tool elicits; one that cannot be a form keeps the
//! server from starting, naming the tool, its place and why, instead of failing the first call
//! that asks. A test binary of its own, since every server in a binary serves every tool in it.

// The forms' fields are only read by serde: the tool never runs.
#![allow(dead_code)]

use mcp_toolbelt::{Context, RegistryError, Server, tool};
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
    let error = Server::new("parcels", "0.0.0").check().unwrap_err();
    let RegistryError::InvalidTool {
        name,
        source,
        problem,
    } = &error
    else {
        panic!("{error:?}");
    };
    assert_eq!(
        (name.as_str(), source.clone()),
        ("ship", Some(format!("{}:{SHIP}", file!())))
    );
    assert_eq!(
        problem,
        "it asks (`asks(…)`) for a form that cannot be one: `Address` cannot be an elicitation \
         form: field `city` is of type object, not a primitive"
    );
    assert!(error.to_string().contains("tool `ship` at"), "{error}");
}
