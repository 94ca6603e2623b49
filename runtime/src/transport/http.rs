//! Streamable HTTP.

use std::io;
use std::net::SocketAddr;

use crate::server::Server;

impl Server {
    /// Serves Streamable HTTP at `address`, path `/mcp`.
    pub async fn serve_http(self, address: SocketAddr) -> io::Result<()> {
        let _ = (self, address);
        Err(io::Error::new(io::ErrorKind::Unsupported, "Streamable HTTP is not built yet"))
    }
}
