//! [`Transport`]: how a server's requests arrive, the one value that decides what depends on it
//! (legacy changes over stateless HTTP, Redis) and names it in each request's span.

/// How the requests a dispatcher answers arrive: chosen by the `serve_*` call that builds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Transport {
    /// The stdio framing, over the process's pipes or any pair of streams (`serve_io`).
    Stdio,
    /// Streamable HTTP (`serve_http`, `into_router`, `into_service`).
    #[cfg(feature = "http")]
    Http,
    /// In the process, with no transport: `TestClient`.
    InProcess,
}

impl Transport {
    /// OpenTelemetry's `network.transport` of the requests, for their spans (none in process).
    pub(crate) fn network_transport(self) -> Option<&'static str> {
        match self {
            Self::Stdio => Some("pipe"),
            #[cfg(feature = "http")]
            Self::Http => Some("tcp"),
            Self::InProcess => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_transport_has_its_opentelemetry_name() {
        assert_eq!(Transport::Stdio.network_transport(), Some("pipe"));
        #[cfg(feature = "http")]
        assert_eq!(Transport::Http.network_transport(), Some("tcp"));
        assert_eq!(Transport::InProcess.network_transport(), None);
    }
}
