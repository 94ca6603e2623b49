//! [`ReadRequest`]: what a run-time resource's handler is given.

/// What the handler of a run-time [`Resource`](crate::resource::Resource) is given: the URI read and, for a template, the
/// values of its variables (percent-decoded, each one name: never a path).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadRequest {
    uri: String,
    variables: Vec<(String, String)>,
}

impl ReadRequest {
    /// A read of `uri` with the values of its template's `variables`, as the server builds it:
    /// to unit-test a handler without serving it.
    ///
    /// ```
    /// use mcp_toolbelt::resource::ReadRequest;
    ///
    /// async fn note(request: ReadRequest) -> String {
    ///     format!("note {}", request.variable("id").unwrap_or("?"))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let request = ReadRequest::new("notes://7", [("id", "7")]);
    /// assert_eq!(request.uri(), "notes://7");
    /// assert_eq!(note(request).await, "note 7");
    /// # }
    /// ```
    #[must_use]
    pub fn new<N, V>(uri: impl Into<String>, variables: impl IntoIterator<Item = (N, V)>) -> Self
    where
        N: Into<String>,
        V: Into<String>,
    {
        Self {
            uri: uri.into(),
            variables: variables
                .into_iter()
                .map(|(name, value)| (name.into(), value.into()))
                .collect(),
        }
    }

    /// The URI the client reads.
    #[must_use]
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The value of the template variable `name` (`None` for a plain URI, or a name the
    /// template does not have).
    #[must_use]
    pub fn variable(&self, name: &str) -> Option<&str> {
        self.variables
            .iter()
            .find(|(variable, _)| variable == name)
            .map(|(_, value)| value.as_str())
    }
}
